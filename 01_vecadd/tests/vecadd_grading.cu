#include "vecadd_grading.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutorial.h"

typedef struct {
    float *a, *b, *want, *got;       /* host */
    float *d_a, *d_b, *d_c;          /* device; d_c has VECADD_CANARY more elements */
    size_t n;
} vecadd_buffers;

static void buffers_alloc(tut_grader *g, vecadd_buffers *v, size_t n)
{
    const size_t bytes = tut_bytes(n ? n : 1, sizeof(float), "vectors");
    const size_t out_bytes = tut_bytes(n + VECADD_CANARY, sizeof(float), "c");
    v->n = n;
    v->a = (float *)tut_host_alloc(bytes, "a");
    v->b = (float *)tut_host_alloc(bytes, "b");
    v->want = (float *)tut_host_alloc(bytes, "reference");
    v->got = (float *)tut_host_alloc(out_bytes, "result");
    tut_rng_fill_f32(&g->rng, v->a, n, -1.0f, 1.0f);
    tut_rng_fill_f32(&g->rng, v->b, n, -1.0f, 1.0f);
    for (size_t i = 0; i < n; ++i)
        v->want[i] = v->a[i] + v->b[i];
    v->d_a = (float *)tut_device_alloc(bytes, "a");
    v->d_b = (float *)tut_device_alloc(bytes, "b");
    v->d_c = (float *)tut_device_alloc(out_bytes, "c");
    CUDA_CHECK(cudaMemcpy(v->d_a, v->a, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(v->d_b, v->b, n * sizeof(float), cudaMemcpyHostToDevice));
}

static void buffers_free(vecadd_buffers *v)
{
    tut_device_free(v->d_a);
    tut_device_free(v->d_b);
    tut_device_free(v->d_c);
    free(v->a);
    free(v->b);
    free(v->want);
    free(v->got);
}

/* One launch on poisoned output, then every element and the canary. */
static int run_and_check(const vecadd_buffers *v, vecadd_kernel_fn kernel, const char *label,
                         unsigned blocks, unsigned threads)
{
    const size_t n = v->n;
    tut_grader_poison(v->d_c, (n + VECADD_CANARY) * sizeof(float));
    printf("%s: n = %zu, %u blocks x %u threads\n", label, n, blocks, threads);
    kernel<<<blocks, threads>>>(v->d_a, v->d_b, v->d_c, n);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(v->got, v->d_c, (n + VECADD_CANARY) * sizeof(float),
                          cudaMemcpyDeviceToHost));
    /* float + float is exactly rounded on both sides: the results must be identical. */
    int ok = n == 0 || tut_check_f32(label, v->got, v->want, n, 0.0, 0.0, NULL);
    for (size_t i = n; i < n + VECADD_CANARY; ++i) {
        unsigned bits;
        memcpy(&bits, &v->got[i], sizeof bits);
        if (bits != 0xFFFFFFFFu) {
            printf("  %s wrote past the end: c[%zu] = %g (n = %zu; found bits %08x, expected "
                   "ffffffff, untouched)\n", label, i, v->got[i], n, bits);
            ok = 0;
            break;
        }
    }
    return ok;
}

int grade_vecadd(tut_grader *g, vecadd_kernel_fn kernel, const char *label, size_t n,
                 unsigned blocks, unsigned threads)
{
    vecadd_buffers v;
    buffers_alloc(g, &v, n);
    const int ok = run_and_check(&v, kernel, label, blocks, threads);
    buffers_free(&v);
    return ok;
}

void grade_random_grid(tut_grader *g, unsigned *blocks, unsigned *threads)
{
    *blocks = (unsigned)tut_grader_size(g, 1, 64);
    *threads = 32u * (unsigned)tut_grader_size(g, 1, 8);
}

/* ---------------------------------------------------------------- boundaries */

typedef struct {
    vecadd_kernel_fn kernel;
    const char *label;
    unsigned blocks, threads;
} boundary_job;

static int boundary_check(tut_grader *g, size_t n, void *ctx)
{
    const boundary_job *j = (const boundary_job *)ctx;
    return grade_vecadd(g, j->kernel, j->label, n, j->blocks, j->threads);
}

static int boundaries_on_grid(tut_grader *g, boundary_job *job, unsigned vector_width)
{
    const size_t grid = (size_t)job->blocks * job->threads;
    const tut_width widths[] = {
        {"warp", (size_t)g->dev->warp_size}, {"block", job->threads}, {"grid", grid},
        {"vector", vector_width > 1 ? vector_width : 0},
        {"vector*grid", vector_width > 1 ? vector_width * grid : 0},
    };
    tut_boundary sizes[96];
    const size_t max = 2 * (vector_width > 1 ? vector_width : 1) * grid + 2;
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), max, sizes,
                                            TUT_COUNT(sizes));
    printf("%s boundaries on %u blocks x %u threads: %zu sizes up to %zu\n", job->label,
           job->blocks, job->threads, count, max);
    return tut_grader_run_boundaries(g, sizes, count, boundary_check, job);
}

int grade_vecadd_boundaries(tut_grader *g, vecadd_kernel_fn kernel, const char *label,
                            unsigned vector_width)
{
    /* One wave of the largest block that fills an SM, as the chapter launches. */
    tut_kernel_use use = tut_kernel_use_of((const void *)kernel, 1, 0);
    use.threads = tut_best_block_size(g->dev, use, 256);
    boundary_job wave = {kernel, label, (unsigned)(g->dev->sm_count * tut_blocks_per_sm(g->dev, use)),
                         (unsigned)use.threads};
    boundary_job drawn = {kernel, label, 0, 0};
    grade_random_grid(g, &drawn.blocks, &drawn.threads);
    const int ok = boundaries_on_grid(g, &wave, vector_width);
    return boundaries_on_grid(g, &drawn, vector_width) && ok;
}

/* ---------------------------------------------------------------- speed */

typedef struct {
    vecadd_kernel_fn kernel;
    const vecadd_buffers *v;
    unsigned blocks, threads;
} speed_job;

static void run_kernel(void *arg)
{
    const speed_job *j = (const speed_job *)arg;
    j->kernel<<<j->blocks, j->threads>>>(j->v->d_a, j->v->d_b, j->v->d_c, j->v->n);
    LAUNCH_CHECK();
}

static void run_copy(void *arg)
{
    const speed_job *j = (const speed_job *)arg;
    CUDA_CHECK(cudaMemcpyAsync(j->v->d_c, j->v->d_a, j->v->n * sizeof(float),
                               cudaMemcpyDeviceToDevice, 0));
}

int grade_vecadd_speed(tut_grader *g, vecadd_kernel_fn kernel, const char *label, double bar)
{
    size_t n = (size_t)1 << 28;
    while (n > ((size_t)1 << 24) && !tut_device_fits(3 * n * sizeof(float), 256u << 20))
        n /= 2;
    if (!tut_device_fits(3 * n * sizeof(float), 256u << 20)) {
        printf("skipped: three vectors of 2^24 floats do not fit in this GPU's free memory\n");
        exit(TUT_EXIT_SKIP);
    }
    /* One wave of the largest block that fills an SM (occupancy.h), as the chapter launches. */
    tut_kernel_use use = tut_kernel_use_of((const void *)kernel, 1, 0);
    use.threads = tut_best_block_size(g->dev, use, 256);
    const unsigned threads = (unsigned)use.threads;
    const unsigned blocks = (unsigned)(g->dev->sm_count * tut_blocks_per_sm(g->dev, use));
    vecadd_buffers v;
    buffers_alloc(g, &v, n);
    int ok = run_and_check(&v, kernel, label, blocks, threads);
    if (ok) {
        const speed_job job = {kernel, &v, blocks, threads};
        double kernel_ms, copy_ms;
        tut_grader_time_pair_unless_far(run_kernel, (void *)&job, run_copy, (void *)&job, 30.0,
                                        &kernel_ms, &copy_ms);
        ok = tut_grader_speed_verdict(label, 12.0 * n / kernel_ms * 1e-6, "cudaMemcpy",
                                      8.0 * n / copy_ms * 1e-6, "GB/s", bar);
    }
    buffers_free(&v);
    return ok;
}

/* ---------------------------------------------------------------- past 2^31 elements */

/* a[i] in [-1, 1) from the seed and i alone, so that no host copy of 8 GiB is needed: the
 * same value is computed again for the check. */
static float huge_value(uint64_t seed, size_t i)
{
    uint64_t x = seed + 0x9e3779b97f4a7c15ull * ((uint64_t)i + 1);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    x ^= x >> 31;
    return (float)(x >> 40) / 8388608.0f - 1.0f; /* 24 bits: exact */
}

int grade_vecadd_huge(tut_grader *g, vecadd_kernel_fn kernel, const char *label)
{
    const size_t n = ((size_t)1 << 31) + tut_grader_odd(g, 1, (size_t)1 << 20);
    const size_t bytes = n * sizeof(float), out_bytes = (n + VECADD_CANARY) * sizeof(float);
    if (!tut_device_fits(bytes + out_bytes, (size_t)512 << 20)) {
        char need[32], have[32];
        printf("skipped: n = %zu floats (past 2^31) needs %s of GPU memory; %s free here\n", n,
               tut_format_bytes((double)(bytes + out_bytes), need, sizeof need),
               tut_format_bytes((double)tut_device_free_bytes(), have, sizeof have));
        exit(TUT_EXIT_SKIP);
    }
    const uint64_t seed = tut_rng_next(&g->rng);
    float *d_a = (float *)tut_device_alloc(bytes, "a");
    float *d_c = (float *)tut_device_alloc(out_bytes, "c");
    const size_t chunk = (size_t)1 << 26;
    float *host = (float *)tut_host_alloc(chunk * sizeof(float), "chunk");
    for (size_t first = 0; first < n; first += chunk) {
        const size_t count = n - first < chunk ? n - first : chunk;
        for (size_t i = 0; i < count; ++i)
            host[i] = huge_value(seed, first + i);
        CUDA_CHECK(cudaMemcpy(d_a + first, host, count * sizeof(float), cudaMemcpyHostToDevice));
    }
    tut_grader_poison(d_c, out_bytes);
    /* One wave of the largest block that fills an SM, as the chapter launches. */
    tut_kernel_use use = tut_kernel_use_of((const void *)kernel, 1, 0);
    use.threads = tut_best_block_size(g->dev, use, 256);
    const unsigned threads = (unsigned)use.threads;
    const unsigned blocks = (unsigned)(g->dev->sm_count * tut_blocks_per_sm(g->dev, use));
    printf("%s: n = %zu (2^31 + %zu), b = a, %u blocks x %u threads\n", label, n,
           n - ((size_t)1 << 31), blocks, threads);
    kernel<<<blocks, threads>>>(d_a, d_a, d_c, n);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaDeviceSynchronize());
    int ok = 1;
    size_t wrong = 0, first_wrong = n;
    for (size_t first = 0; first < n + VECADD_CANARY; first += chunk) {
        const size_t count = n + VECADD_CANARY - first < chunk ? n + VECADD_CANARY - first : chunk;
        CUDA_CHECK(cudaMemcpy(host, d_c + first, count * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < count; ++i) {
            const size_t at = first + i;
            unsigned bits;
            memcpy(&bits, &host[i], sizeof bits);
            if (at >= n) {
                if (bits != 0xFFFFFFFFu && ok) {
                    printf("  %s wrote past the end: c[%zu] = %g (n = %zu)\n", label, at,
                           host[i], n);
                    ok = 0;
                }
                continue;
            }
            const float a = huge_value(seed, at), want = a + a;
            if (!(host[i] == want)) {
                if (wrong == 0) {
                    first_wrong = at;
                    printf("  %s mismatch at [%zu]: found %g, expected %g\n", label, at,
                           host[i], want);
                }
                ++wrong;
            }
        }
    }
    if (wrong) {
        printf("  %zu of %zu elements wrong, the first at %zu (2^31 = 2147483648)\n", wrong, n,
               first_wrong);
        ok = 0;
    }
    free(host);
    tut_device_free(d_a);
    tut_device_free(d_c);
    return ok;
}
