/* The host side of the chapter: the CPU reference, the document's example, synthetic events and
 * a stable CPU sort. Plain C, so the CPU tests run without a GPU. */
#ifndef SESSIONIZE_CPU_H
#define SESSIONIZE_CPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The document's 28 events (its data, in its order), its timeout and the labels it printed. */
#define DOC_EVENT_COUNT 28
#define DOC_TIMEOUT 3600
extern const int64_t doc_user[DOC_EVENT_COUNT];
extern const int64_t doc_ts[DOC_EVENT_COUNT];
extern const int64_t doc_expected_label[DOC_EVENT_COUNT];

/* label[i] = index of the first event of event i's session. One pass, O(n). */
void sessionize_cpu(const int64_t *user, const int64_t *ts, size_t n, int64_t timeout,
                    int64_t *label);

/* Index of the first event that comes before its predecessor in (user, timestamp) order, or n if
 * the events are sorted. */
size_t first_unsorted_cpu(const int64_t *user, const int64_t *ts, size_t n);

/* Sorts by (user, timestamp), stable (equal pairs keep their input order), in place. If
 * order != NULL, order[k] receives the input row of the k-th sorted event. */
void sort_events_cpu(int64_t *user, int64_t *ts, size_t n, int64_t *order);

/* Synthetic click streams: users with random numbers of events, gaps mostly inside the timeout
 * (some exactly equal to it, some zero), some past it. Sorted by (user, timestamp).
 * shape 0 ("mixed"): that; below DENSE_EVENTS events, short users, every kind of gap in larger
 * shares and a session start at the last event, so a small test input is rich in boundaries.
 * shape 1 ("single"): SINGLE_LEAD one-event sessions, then one user with no gap over the
 * timeout: one long session (the worst case for a per-session serial walk). */
enum { EVENTS_MIXED = 0, EVENTS_SINGLE_SESSION = 1 };
#define DENSE_EVENTS 640
#define SINGLE_LEAD 5
void generate_events(uint64_t seed, int shape, int64_t timeout, size_t n, int64_t *user,
                     int64_t *ts);

/* Fisher-Yates shuffle of the events (user and ts move together). */
void shuffle_events(uint64_t seed, int64_t *user, int64_t *ts, size_t n);

#ifdef __cplusplus
}
#endif

#endif
