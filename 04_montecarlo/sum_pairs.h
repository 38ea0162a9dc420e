/* The reduction every Monte Carlo estimate ends with, written out once (exercise ex04.1): n
 * float values to (sum f, sum f^2) in float64, through one pair per block. */
#ifndef MC_SUM_PAIRS_H
#define MC_SUM_PAIRS_H

#include <stddef.h>

#include <cuda_runtime.h>

#define SUM_PAIRS_THREADS 256

/* Blocks of the first kernel: one full wave on this GPU (its limits, common/occupancy.h). */
int mc_sum_pairs_blocks(void);

/* values: n device floats; block_sums: `blocks` device pairs of scratch; *out (device): the
 * total (sum f, sum f^2). Issued on stream 0 and checked. */
void mc_sum_pairs_gpu(const float *values, size_t n, double2 *block_sums, int blocks,
                      double2 *out);

#endif
