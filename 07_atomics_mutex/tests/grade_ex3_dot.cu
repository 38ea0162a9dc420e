/* Grader of ex07.3, a dot product at CUB speed (dot_fast.cu): dot_fast only, on sizes drawn
 * from the seed (1 to 7 elements and 4k + 1..3: the float4 tails; primes; any size up to 2 x
 * 10^7), each against a float64 sum on the CPU within 1e-5 relative (the chapter's rule). Then
 * --speed on 10^8 elements against cub::DeviceReduce::Sum over the same 800 MB (a and b as one
 * array), timed the same way.
 *
 * The bar: the chapter's fast_atomic kernel, this exercise's solution, ran at 0.9995 of CUB on
 * the H100 (docs/results/07_atomics_mutex/dot_bandwidth.csv); 0.65 leaves it a margin of 1.5x.
 * The document's mutex version (0.24 of CUB) fails it; its shared-memory tree with one atomic
 * per block (0.78) passes: the bar grades reading at memory speed, not the last 20%.
 * Shared memory is poisoned before each correctness run (a warp sum read from a slot nobody
 * wrote shows). The cases that lose a block's sum without the atomic (primes: many blocks
 * add at once) and the speed are the exercise's lesson (a failure caps the grade,
 * CMakeLists.txt). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>

#include "dot_fast.h"
#include "exercise.h"
#include "own_code.h"
#include "tutorial.h"

#define SPEED_N 100000000ull
#define RTOL 1e-5

typedef struct {
    size_t n;
    float *buffer; /* a (n floats, then up to 3 of padding), then b */
    const float *a, *b;
    float *c;
    void *cub_temp;
    size_t cub_temp_bytes;
    int cub_items;
} dot_rig;

/* Inputs in [0.25, 1): the sum grows with n, so a relative tolerance means the same at every n
 * and a sum that lost or doubled a block's share is far outside it. */
static double rig_create(tut_grader *g, dot_rig *r, size_t n)
{
    const size_t padded = (n + 3) / 4 * 4; /* b starts 16-byte aligned */
    float *host = (float *)tut_host_alloc(2 * padded * sizeof(float), "a and b");
    tut_rng_fill_f32(&g->rng, host, 2 * padded, 0.25f, 1.0f);
    double want = 0.0;
    for (size_t i = 0; i < n; ++i)
        want += (double)host[i] * (double)host[padded + i];
    r->n = n;
    r->buffer = (float *)tut_device_alloc(2 * padded * sizeof(float), "a and b");
    CUDA_CHECK(cudaMemcpy(r->buffer, host, 2 * padded * sizeof(float), cudaMemcpyHostToDevice));
    r->a = r->buffer;
    r->b = r->buffer + padded;
    r->c = (float *)tut_device_alloc(sizeof(float), "c");
    r->cub_temp = NULL;
    r->cub_temp_bytes = 0;
    r->cub_items = 0;
    free(host);
    return want;
}

static void rig_destroy(dot_rig *r)
{
    tut_device_free(r->buffer);
    tut_device_free(r->c);
    tut_device_free(r->cub_temp);
}

static int check_dot(tut_grader *g, size_t n)
{
    dot_rig r;
    const double want = rig_create(g, &r, n);
    tut_grader_poison(r.c, sizeof(float));
    tut_grader_poison_shared();
    dot_fast(r.a, r.b, n, r.c);
    CUDA_CHECK(cudaDeviceSynchronize());
    float got = NAN;
    CUDA_CHECK(cudaMemcpy(&got, r.c, sizeof got, cudaMemcpyDeviceToHost));
    char label[96];
    snprintf(label, sizeof label, "  dot_fast, n = %zu", n);
    const int ok = tut_check_scalar(label, (double)got, want, 0.0, RTOL);
    rig_destroy(&r);
    return ok;
}

static int case_tails(tut_grader *g)
{
    /* Every remainder mod 4 with no full float4, one or two, and many. */
    int ok = 1;
    for (size_t n = 1; n <= 7; ++n)
        ok &= check_dot(g, n);
    for (size_t r = 1; r <= 3; ++r)
        ok &= check_dot(g, 4 * tut_grader_size(g, 100, 50000) + r);
    return ok;
}

static int case_primes(tut_grader *g)
{
    return check_dot(g, tut_grader_prime(g, 10007, 200000)) &
           check_dot(g, tut_grader_prime(g, 1000003, 10000000));
}

static int case_random(tut_grader *g)
{
    return check_dot(g, tut_grader_size(g, 1, 100000)) &
           check_dot(g, tut_grader_size(g, 1, 20000000));
}

static int check_dot_size(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    return check_dot(g, n);
}

/* The boundaries by design: n at the multiples -1, 0, +1 of a float4 (every residue mod 4), a
 * warp of float4s, a block of 256 float4s (the chapter's DOT_THREADS), one wave of this GPU's
 * threads each on one float4 (SMs x threads per SM x 4 floats) and two waves (the loop that
 * takes two float4s per thread per pass: a pair complete, short by one, one single left over),
 * and the smallest sizes. */
static int case_boundaries(tut_grader *g)
{
    const size_t wave = (size_t)g->dev->sm_count * (size_t)g->dev->max_threads_per_sm;
    const tut_width widths[] = {{"float4", 4},
                                {"warp of float4s", 4 * (size_t)g->dev->warp_size},
                                {"block of float4s", 4 * 256},
                                {"wave of float4s", 4 * wave}};
    tut_boundary sizes[96];
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), 8 * wave + 5, sizes,
                                            TUT_COUNT(sizes));
    return tut_grader_run_boundaries(g, sizes, count, check_dot_size, NULL);
}

static void run_student(void *p)
{
    const dot_rig *r = (const dot_rig *)p;
    dot_fast(r->a, r->b, r->n, r->c);
}

/* CUB's sum over a and b as one array: the same bytes read, no products. */
static void run_cub(void *p)
{
    dot_rig *r = (dot_rig *)p;
    CUDA_CHECK(cub::DeviceReduce::Sum(r->cub_temp, r->cub_temp_bytes, r->buffer, r->c,
                                      r->cub_items));
}

static int speed(tut_grader *g, double bar)
{
    dot_rig r;
    const double want = rig_create(g, &r, SPEED_N);
    r.cub_items = (int)(2 * SPEED_N);
    CUDA_CHECK(cub::DeviceReduce::Sum(NULL, r.cub_temp_bytes, r.buffer, r.c, r.cub_items));
    r.cub_temp = tut_device_alloc(r.cub_temp_bytes, "CUB temporary storage");

    tut_grader_poison(r.c, sizeof(float));
    run_student(&r);
    CUDA_CHECK(cudaDeviceSynchronize());
    float got = NAN;
    CUDA_CHECK(cudaMemcpy(&got, r.c, sizeof got, cudaMemcpyDeviceToHost));
    int ok = tut_check_scalar("  dot_fast at the benchmark size", (double)got, want, 0.0, RTOL);
    if (ok) {
        double dot_ms = 0.0, cub_ms = 0.0;
        tut_grader_time_pair(run_student, &r, run_cub, &r, &dot_ms, &cub_ms);
        const double gb = 8.0 * SPEED_N * 1e-9;
        ok = tut_grader_speed_verdict("dot_fast", gb / (dot_ms * 1e-3), "CUB DeviceReduce::Sum",
                                      gb / (cub_ms * 1e-3), "GB/s", bar);
    }
    rig_destroy(&r);
    return ok;
}

/* The dot product written out, not a library's: cub::DeviceReduce on the products, or
 * thrust::inner_product, reaches CUB's speed by being CUB; the compiled code of dot_fast.cu
 * shows it (own_code.h: CUB's or thrust's kernels, files and names in it; the grader's own CUB,
 * the speed's yardstick, is compiled from another file). The values first, so that the
 * skeleton fails. */
static int case_own_code(tut_grader *g)
{
    if (!check_dot(g, tut_grader_prime(g, 10007, 200000)))
        return 0;
    return own_code_grade("dot_fast.cu",
                          "The exercise asks for the reduction by hand: float4 loads, a warp sum "
                          "by __shfl_down_sync, the warps' sums through shared memory and one "
                          "atomicAdd per block, not cub::DeviceReduce or thrust");
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"tails", case_tails}, {"primes", case_primes}, {"random", case_random},
        {"boundaries", case_boundaries}, {"own_code", case_own_code}};
    const tut_exercise ex = {.id = "ex07.3", .title = "a dot product at CUB speed",
                             .cases = cases, .case_count = TUT_COUNT(cases), .speed = speed,
                             .speed_bar = TUT_SPEED_BAR_EX07_3};
    return tut_exercise_main(argc, argv, &ex);
}
