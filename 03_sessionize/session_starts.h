/* Where sessions start, as the values the max-scan of the chapter reads: start[i] = i when event
 * i starts a session (session_boundary.h), else 0. The exercise ex03.1 writes the kernel. */
#ifndef SESSION_STARTS_H
#define SESSION_STARTS_H

#include <stdint.h>

/* All pointers are device pointers, n >= 0 events (sorted by user, then time), timeout >= 0.
 * Issued on stream 0 and checked. */
void session_start_values_gpu(const int64_t *user, const int64_t *ts, int64_t n,
                              int64_t timeout, int64_t *start);

#ifdef __CUDACC__
/* The kernel: start values of events i < n, on any grid (a grid-stride loop). The grader of
 * ex03.1 launches it itself on grids of its own: keep its name (another name leaves the grader
 * without it: a link error) and its parameters as declared here, and give it no dynamic shared
 * memory. */
__global__ void session_start_kernel(const int64_t *__restrict__ user,
                                     const int64_t *__restrict__ ts, int64_t n, int64_t timeout,
                                     int64_t *__restrict__ start);
#endif

#endif
