#include "vecadd_grading.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutorial.h"

/* Floats past c[n - 1] that must stay untouched in the case past 2^31 (the harness's guard
 * zones do the same for every other case). */
#define VECADD_CANARY 64

static const tut_array_spec vecadd_arrays[] = {
    {"a", TUT_ARRAY_F32, TUT_ARRAY_IN, -1.0, 1.0},
    {"b", TUT_ARRAY_F32, TUT_ARRAY_IN, -1.0, 1.0},
    {"c", TUT_ARRAY_F32, TUT_ARRAY_OUT, 0.0, 0.0},
};

static void vecadd_reference(tut_arrays *s, void *ctx)
{
    (void)ctx;
    const float *a = (const float *)s->host[0], *b = (const float *)s->host[1];
    float *c = (float *)s->want[2];
    for (size_t i = 0; i < s->n; ++i)
        c[i] = a[i] + b[i];
}

static void vecadd_run(const tut_arrays *s, tut_launch how, void *ctx)
{
    const vecadd_kernel_fn kernel = *(const vecadd_kernel_fn *)ctx;
    kernel<<<how.blocks, how.threads, 0, how.stream>>>((const float *)s->dev[0],
                                                       (const float *)s->dev[1],
                                                       (float *)s->dev[2], s->n);
}

tut_array_job vecadd_job(const vecadd_kernel_fn *kernel, const char *label,
                         const tut_width *widths, int width_count)
{
    const tut_array_job job = {.label = label,
                               .arrays = vecadd_arrays,
                               .array_count = TUT_COUNT(vecadd_arrays),
                               .reference = vecadd_reference,
                               .run = vecadd_run,
                               .kernel = (const void *)*kernel,
                               .widths = widths,
                               .width_count = width_count,
                               .ctx = (void *)kernel};
    return job;
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
