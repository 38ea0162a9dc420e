/* What the graders of exercises 01.1 and 01.2 share: run a student's vector-add kernel on one
 * size and one grid, and check every element and the canary past the end. */
#ifndef VECADD_GRADING_H
#define VECADD_GRADING_H

#include <stddef.h>

#include "exercise.h"

typedef void (*vecadd_kernel_fn)(const float *a, const float *b, float *c, size_t n);

/* Elements after c[n - 1] that must stay untouched (still poisoned): a loop that runs one step
 * too far, or a tail that writes past n, changes them. A multiple of 4 keeps c + n's float4
 * alignment irrelevant. */
#define VECADD_CANARY 64

/* Random inputs in [-1, 1) from g's generator, the output and the canary poisoned, one launch
 * of blocks x threads, then c[i] == a[i] + b[i] exactly for every i < n and the canary intact.
 * n may be 0. Returns 1 if right. */
int grade_vecadd(tut_grader *g, vecadd_kernel_fn kernel, const char *label, size_t n,
                 unsigned blocks, unsigned threads);

/* A grid for a grid-stride kernel, drawn from the seed: 1 to 64 blocks of 32 to 256 threads,
 * so most sizes need many strides. */
void grade_random_grid(tut_grader *g, unsigned *blocks, unsigned *threads);

/* The speed test of a grid-stride kernel: checked at the benchmark size (the largest power of
 * two up to 2^28 floats whose three vectors fit, at least 2^24; else skipped), then timed with
 * one wave of blocks against cudaMemcpy device-to-device of the same n floats (12 bytes moved
 * per element against 8). Returns 1 if the kernel's GB/s reach `bar` times the copy's. */
int grade_vecadd_speed(tut_grader *g, vecadd_kernel_fn kernel, const char *label, double bar);

/* Past 2^31 elements, where an int index wraps: n = 2^31 + an odd number up to 2^20 drawn from
 * the seed, b the same vector as a (so c = a + a: two vectors of 8 GiB, not three), one wave of
 * blocks, every element and the canary checked. Skips (exit 77, with the reason) when the GPU's
 * free memory cannot hold them. */
int grade_vecadd_huge(tut_grader *g, vecadd_kernel_fn kernel, const char *label);

/* The boundary sizes (common/exercise.h, tut_boundary_sizes), every one graded: on one wave of
 * blocks from this GPU's occupancy (the chapter's launch) and on a grid drawn from the seed, the
 * multiples -1, 0, +1 of the warp, the block, the grid's threads, and (vector_width > 1) the
 * vector width, every residue mod it, and vector_width times the grid's threads. Each size is
 * named in its verdict line ("boundary grid*2-1 (n = ...) -> FAIL"). Returns 1 if all pass. */
int grade_vecadd_boundaries(tut_grader *g, vecadd_kernel_fn kernel, const char *label,
                            unsigned vector_width);

#endif
