/* Grader of ex04.1, a block's sum with shuffles (sum_pairs.cu: block_pair_sum), run by the
 * chapter-style two-launch reduction of n floats to (sum f, sum f^2): both sums from poisoned
 * output against float64 sums on the CPU (within 1e-10 relative: only the order of the
 * additions differs), with shared memory poisoned before the launches (a warp total read from a
 * slot no warp wrote is NaN). racecheck and synccheck run the first case: a missing barrier
 * between the warps' totals and their sum is a shared-memory race, and racecheck's test is the
 * exercise's lesson (a failure caps the grade, CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>

#include "exercise.h"
#include "own_code.h"
#include "sum_pairs.h"
#include "tutorial.h"

/* The sums of n values on `blocks` blocks (the second launch adds `blocks` block sums). */
static int check_sum_on(tut_grader *g, size_t n, int blocks)
{
    printf("sum of pairs: %zu values, %d blocks of %d threads\n", n, blocks, SUM_PAIRS_THREADS);
    float *values = (float *)tut_host_alloc(tut_bytes(n, sizeof(float), "values"), "values");
    tut_rng_fill_f32(&g->rng, values, n, 0.5f, 1.5f);
    double want_sum = 0.0, want_sq = 0.0;
    for (size_t i = 0; i < n; ++i) {
        want_sum += values[i];
        want_sq += (double)values[i] * values[i];
    }
    float *d_values = (float *)tut_device_alloc(n * sizeof(float), "values");
    double2 *d_blocks = (double2 *)tut_device_alloc(blocks * sizeof(double2), "block sums");
    double2 *d_out = (double2 *)tut_device_alloc(sizeof(double2), "sum");
    CUDA_CHECK(cudaMemcpy(d_values, values, n * sizeof(float), cudaMemcpyHostToDevice));
    tut_grader_poison(d_blocks, blocks * sizeof(double2));
    tut_grader_poison(d_out, sizeof(double2));
    tut_grader_poison_shared();
    mc_sum_pairs_gpu(d_values, n, d_blocks, blocks, d_out);
    double2 got;
    CUDA_CHECK(cudaMemcpy(&got, d_out, sizeof got, cudaMemcpyDeviceToHost));
    const int ok = tut_check_scalar("sum f", got.x, want_sum, 0.0, 1e-10) &
                   tut_check_scalar("sum f^2", got.y, want_sq, 0.0, 1e-10);
    tut_device_free(d_values);
    tut_device_free(d_blocks);
    tut_device_free(d_out);
    free(values);
    return ok;
}

static int check_sum(tut_grader *g, size_t n) { return check_sum_on(g, n, mc_sum_pairs_blocks()); }

static int case_primes(tut_grader *g) { return check_sum(g, tut_grader_prime(g, 2, 100003)); }
static int case_one(tut_grader *g) { return check_sum(g, 1); }
static int case_block_edges(tut_grader *g)
{
    return check_sum(g, tut_grader_tile_edge(g, SUM_PAIRS_THREADS, 64));
}
/* More values than the grid has threads: every thread adds several. */
static int case_many(tut_grader *g) { return check_sum(g, tut_grader_odd(g, 10000001, 30000001)); }

static int check_sum_size(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    return check_sum(g, n);
}

static int check_sum_blocks(tut_grader *g, size_t blocks, void *ctx)
{
    (void)ctx;
    return check_sum_on(g, tut_grader_odd(g, 100001, 300001), (int)blocks);
}

/* The boundaries by design. Values: the warp, the block (SUM_PAIRS_THREADS), one full wave of
 * the launcher's grid on this GPU (mc_sum_pairs_blocks() x SUM_PAIRS_THREADS), their multiples
 * -1, 0, +1 and the smallest counts. Block sums (the second launch's count, a parameter of
 * mc_sum_pairs_gpu): the warp and the block, their multiples -1, 0, +1, and this GPU's wave. */
static int case_boundaries(tut_grader *g)
{
    const size_t wave = (size_t)mc_sum_pairs_blocks() * SUM_PAIRS_THREADS;
    const tut_width widths[] = {{"warp", (size_t)g->dev->warp_size},
                                {"block", SUM_PAIRS_THREADS}, {"wave", wave}};
    tut_boundary sizes[64];
    size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), 2 * wave + 1, sizes,
                                      TUT_COUNT(sizes));
    int ok = tut_grader_run_boundaries(g, sizes, count, check_sum_size, NULL);
    const tut_width block_widths[] = {{"block sums warp", (size_t)g->dev->warp_size},
                                      {"block sums block", SUM_PAIRS_THREADS},
                                      {"block sums wave", (size_t)mc_sum_pairs_blocks()}};
    count = tut_boundary_sizes(block_widths, TUT_COUNT(block_widths),
                               (size_t)mc_sum_pairs_blocks() + 2 * SUM_PAIRS_THREADS, sizes,
                               TUT_COUNT(sizes));
    ok &= tut_grader_run_boundaries(g, sizes, count, check_sum_blocks, NULL);
    return ok;
}

/* The shuffles written out, not a library's: cub::BlockReduce or cub::WarpReduce gives the
 * same sums (with shuffles of its own), so no value can tell; the compiled code of sum_pairs.cu
 * can (own_code.h: CUB's files and names in it). The values first, so that the skeleton
 * fails. */
static int case_own_code(tut_grader *g)
{
    if (!check_sum(g, tut_grader_prime(g, 10007, 1000003)))
        return 0;
    return own_code_grade("sum_pairs.cu",
                          "The exercise asks for the block's sum by hand: __shfl_down_sync "
                          "within each warp, the warps' totals through shared memory, not "
                          "cub::BlockReduce or cub::WarpReduce");
}

static const tut_grader_case cases[] = {
    {"primes", case_primes},
    {"one", case_one},
    {"block_edges", case_block_edges},
    {"many", case_many},
    {"boundaries", case_boundaries},
    {"own_code", case_own_code},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex04.1",
                             .title = "a block's sum with shuffles",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
