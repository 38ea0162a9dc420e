/* Reading click events from CSV and writing labelled sessions back.
 *
 * Input:  a header line `user_id,timestamp`, then one event per line: two int64 numbers. A UTF-8
 *         byte-order mark before the header (as spreadsheets write it) and CRLF line ends are
 *         accepted.
 * Output: `user_id,timestamp,session_id`, one line per event.
 *
 * Every problem with the input is reported as "<file>:<line>: <what is wrong>" (missing or extra
 * columns, empty fields, text that is not an integer, numbers outside int64, an empty file, a
 * file with no events) and the reader returns -1; the program then exits 2. */
#ifndef EVENTS_CSV_H
#define EVENTS_CSV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int64_t *user;
    int64_t *ts;
    size_t n;
} event_table;

/* 0 on success (free with free_event_table), -1 with the message in err[]. */
int read_events_csv(const char *path, event_table *events, char *err, size_t err_len);
void free_event_table(event_table *events);

/* 0 on success, -1 with the message in err[]. */
int write_sessions_csv(const char *path, const int64_t *user, const int64_t *ts,
                       const int64_t *label, size_t n, char *err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif
