/* Grader of exercise 01.2: the float4 kernel with its tail (vecadd_f32x4_kernel). Sizes of every
 * remainder mod 4, on grids drawn from the seed; the 128-bit loads in the compiled kernel; then
 * the speed bar against cudaMemcpy. */
#include <stdio.h>
#include <stdlib.h>

#include "own_sass.h"
#include "vecadd_grading.h"
#include "vecadd_kernels.h"

static const char *const LABEL = "float4";
static const vecadd_kernel_fn KERNEL = vecadd_f32x4_kernel;
/* The kernel branches on n mod 4: every residue is a boundary (common/exercise.h). */
static const tut_width FLOAT4[] = {{"vector", 4}};

/* One size on one grid: a, b from the seed, c = a + b exactly, nothing written outside c. */
static int grade_vecadd(tut_grader *g, size_t n, unsigned blocks, unsigned threads)
{
    const tut_array_job job = vecadd_job(&KERNEL, LABEL, FLOAT4, TUT_COUNT(FLOAT4));
    return tut_array_check(g, &job, n, blocks, threads);
}

/* One size on a grid drawn from the seed. */
static int grade_size(tut_grader *g, size_t n)
{
    unsigned blocks, threads;
    tut_array_random_grid(g, &blocks, &threads);
    return grade_vecadd(g, n, blocks, threads);
}

/* 4k, 4k + 1, 4k + 2, 4k + 3 for one random k: every length of tail. */
static int case_tails(tut_grader *g)
{
    const size_t base = 4 * tut_grader_size(g, 1000, 250000);
    int ok = 1;
    for (size_t r = 0; r < 4; ++r)
        ok &= grade_size(g, base + r);
    return ok;
}

/* Fewer than two float4s: the tail is (almost) everything; and n = 0, where nothing may be
 * written (never a case of its own: an untouched skeleton would pass it). */
static int case_tiny(tut_grader *g)
{
    static const size_t sizes[] = {1, 2, 3, 5, 6, 7, 0};
    int ok = 1;
    for (int i = 0; i < TUT_COUNT(sizes); ++i)
        ok &= grade_size(g, sizes[i]);
    return ok;
}

static int case_primes(tut_grader *g)
{
    return grade_size(g, tut_grader_prime(g, 11, 4000037));
}

/* Around a multiple of four times the grid's threads: the float4 loop's last stride. */
static int case_stride_edges(tut_grader *g)
{
    unsigned blocks, threads;
    tut_array_random_grid(g, &blocks, &threads);
    const size_t n = tut_grader_tile_edge(g, 4 * (size_t)blocks * threads, 20);
    return grade_vecadd(g, n, blocks, threads);
}

/* The float4 kernel moves 12 bytes per element as cudaMemcpy moves 8: at 2^28 floats both are
 * memory-bound, so the GB/s ratio says how much of the copy's bandwidth the kernel
 * reaches. The chapter's solution reaches about 0.95 on an H100 (docs/01_vecadd.md); the bar
 * leaves 1.5x of margin and catches what throws bandwidth away (a serial tail loop, a grid of one
 * block, uncoalesced access). */
static int speed(tut_grader *g, double bar)
{
    const tut_array_job job = vecadd_job(&KERNEL, "float4 kernel", FLOAT4, TUT_COUNT(FLOAT4));
    return tut_array_speed(g, &job, 12.0, bar);
}

/* The boundaries by design (common/grade_array.h): multiples -1, 0, +1 of the warp, the block
 * and the grid's threads on one wave and on a drawn grid, the smallest sizes, every residue
 * mod 4 and 4 times the grid. */
static int case_boundaries(tut_grader *g)
{
    const tut_array_job job = vecadd_job(&KERNEL, LABEL, FLOAT4, TUT_COUNT(FLOAT4));
    return tut_array_boundaries(g, &job);
}

/* The float4 loads themselves, read from the compiled kernel: a scalar loop (ex01.1's kernel)
 * gives the right values and moves memory at nearly the copy's speed, so no run tells it from
 * float4 loads; its machine code does. vecadd_f32x4_kernel must load global memory 128 bits at
 * a time (LDG.E.128 in cuobjdump -sass, own_sass.h). The values first, so that the skeleton
 * fails; skips (77, with the reason) where cuobjdump is missing. */
static void skip_vector_loads(const char *why)
{
    printf("SKIPPED: the compiled kernel cannot be read here: %s\n", why);
    fflush(stdout);
    exit(TUT_EXIT_SKIP);
}

static int case_vector_loads(tut_grader *g)
{
    if (!grade_size(g, 4 * tut_grader_size(g, 1000, 100000) + tut_grader_size(g, 1, 3)))
        return 0;
    char tool[1024], why[640];
    char *sass = own_sass_read(tool, sizeof tool, why, sizeof why);
    if (!sass)
        skip_vector_loads(why);
    /* global or generic loads (LDG, LD.E) of 128 or 256 bits; not LDC/LDCU (constants) */
    const int wide = own_sass_count(sass, "vecadd_f32x4_kernel", "LDG", ".128") +
                     own_sass_count(sass, "vecadd_f32x4_kernel", "LDG", ".256") +
                     own_sass_count(sass, "vecadd_f32x4_kernel", "LD.", ".128");
    free(sass);
    if (wide < 0)
        skip_vector_loads("the listing holds no vecadd_f32x4_kernel (no SASS in the binary)");
    if (wide == 0)
        printf("FAIL: vecadd_f32x4_kernel loads no 128-bit word (%s -sass: no LDG.E.128): "
               "read a and b as float4, one load of four floats\n", tool);
    else
        printf("  vecadd_f32x4_kernel: %d 128-bit load(s) in the compiled code (%s -sass)\n",
               wide, tool);
    return wide > 0;
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"tails", case_tails},   {"tiny", case_tiny},   {"primes", case_primes},
        {"stride_edges", case_stride_edges}, {"boundaries", case_boundaries},
        {"vector_loads", case_vector_loads},
    };
    const tut_exercise ex = {.id = "ex01.2",
                             .title = "the float4 kernel with its tail",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases),
                             .speed = speed,
                             .speed_bar = TUT_SPEED_BAR_EX01_2};
    return tut_exercise_main(argc, argv, &ex);
}
