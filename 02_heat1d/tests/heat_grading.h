/* What the chapter-02 graders share: run one variant on a random rod and compare it with the CPU
 * reference, bit for bit (the chapter's rule: heat_update_gpu rounds as the CPU does). */
#ifndef HEAT1D_GRADING_H
#define HEAT1D_GRADING_H

#include "exercise.h"
#include "heat1d.h"

typedef struct {
    const char *name;
    int (*prepare)(heat_job *job, char *why, size_t len);
    double *(*run)(const heat_job *job);
} heat_variant_under_test;

/* One run of variant v on a random rod of n points for `steps` steps, k drawn from (0, 1/2],
 * from poisoned buffers; threads 0 is the variant's default, max_blocks > 0 caps the grid (a
 * grid-stride loop must cover the rest). Each rod lies between margins of poisoned doubles (NaN,
 * what a missing wall guard reads), which must still be poisoned after the run (what a write
 * past a wall changes), and the GPU's shared memory is poisoned before the run
 * (tut_grader_poison_shared). Prints the case and the comparison; 1 if it matches. */
int heat_grade_run(tut_grader *g, const heat_variant_under_test *v, size_t n, long long steps,
                   int threads, size_t max_blocks);

/* Whole warps from 32 to the GPU's block limit, drawn from the seed. */
int heat_grade_threads(tut_grader *g);

/* A device buffer pair of n points for the timed runs, holding a random rod. */
heat_job heat_grade_timing_job(tut_grader *g, size_t n, long long steps);
void heat_grade_free_job(heat_job *job);

/* The boundary sizes of the widths (common/exercise.h, tut_boundary_sizes) up to max points,
 * each graded by heat_grade_run with a few steps and the given threads and grid cap, each named
 * in its verdict line. Returns 1 if all pass. */
int heat_grade_boundaries(tut_grader *g, const heat_variant_under_test *v,
                          const tut_width *widths, int width_count, size_t max, int threads,
                          size_t max_blocks);

#endif
