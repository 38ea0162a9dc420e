/* What the graders of exercises 01.1 and 01.2 share: the vector-add job of the array harness
 * (common/grade_array.h: a, b drawn from the seed, c = a + b checked exactly, guard zones around
 * c) for one kernel, and the case past 2^31 elements, which no host copy can hold. */
#ifndef VECADD_GRADING_H
#define VECADD_GRADING_H

#include <stddef.h>

#include "grade_array.h"

typedef void (*vecadd_kernel_fn)(const float *a, const float *b, float *c, size_t n);

/* The harness's job for `kernel` (which must outlive it): a and b in [-1, 1), c = a + b exactly
 * (float + float is exactly rounded on both sides), the kernel launched on the grid given.
 * widths: the kernel's own boundary widths (float4's: {"vector", 4}), or NULL. */
tut_array_job vecadd_job(const vecadd_kernel_fn *kernel, const char *label,
                         const tut_width *widths, int width_count);

/* Past 2^31 elements, where an int index wraps: n = 2^31 + an odd number up to 2^20 drawn from
 * the seed, b the same vector as a (so c = a + a: two vectors of 8 GiB, not three), one wave of
 * blocks, every element and the 64 floats past the end checked. Skips (exit 77, with the
 * reason) when the GPU's free memory cannot hold them. */
int grade_vecadd_huge(tut_grader *g, vecadd_kernel_fn kernel, const char *label);

#endif
