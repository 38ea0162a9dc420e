/* The one rule of the chapter, shared by the CPU reference and every GPU variant.
 *
 * Events are sorted by user, then by time. Event i starts a new session when it is the first
 * event, when its user differs from event i-1's, or when the gap to event i-1 exceeds the timeout:
 *
 *     i == 0  ||  user[i] != user[i-1]  ||  ts[i] - ts[i-1] > timeout
 *
 * The document compares `>` (a gap of exactly the timeout stays in the session). A gap that is
 * negative (time going backwards, as in the document's own data) is not a timeout.
 *
 * The subtraction is the trap: with int64 timestamps far apart (INT64_MIN and INT64_MAX, say)
 * ts[i] - ts[i-1] overflows, which is undefined in C and in practice wraps to a small or negative
 * number, so a gap of 2^64 - 1 would read as "no timeout". gap_exceeds() never overflows: a
 * backwards or zero gap cannot exceed a timeout >= 0, and a forward gap fits exactly in uint64. */
#ifndef SESSION_BOUNDARY_H
#define SESSION_BOUNDARY_H

#include <stdint.h>

#ifdef __CUDACC__
#define SESSION_HD __host__ __device__
#else
#define SESSION_HD
#endif

/* 1 when later - earlier > timeout, computed without overflow; timeout must be >= 0. */
SESSION_HD static inline int gap_exceeds(int64_t earlier, int64_t later, int64_t timeout)
{
    if (later <= earlier)
        return 0;
    return (uint64_t)later - (uint64_t)earlier > (uint64_t)timeout;
}

/* 1 when an event (user, ts) that follows (prev_user, prev_ts) starts a session. */
SESSION_HD static inline int session_starts_after(int64_t prev_user, int64_t prev_ts,
                                                  int64_t user, int64_t ts, int64_t timeout)
{
    return user != prev_user || gap_exceeds(prev_ts, ts, timeout);
}

/* 1 when event i starts a session. Reads events i and i-1 only. */
SESSION_HD static inline int session_starts_at(const int64_t *user, const int64_t *ts, int64_t i,
                                               int64_t timeout)
{
    if (i == 0)
        return 1;
    return session_starts_after(user[i - 1], ts[i - 1], user[i], ts[i], timeout);
}

#endif
