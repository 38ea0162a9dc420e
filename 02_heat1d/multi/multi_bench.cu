/* Weak and strong scaling of the rod across GPUs: see multi_bench.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat1d.h"
#include "multi_bench.h"
#include "parts.h"
#include "tutorial.h"

/* The chapter's one-GPU kernel (one launch per step) on device 0: the result to equal, and
 * the time to scale against. Returns ms per step (median of reps) and, with out, the rod. */
double heat_one_gpu_kernel(const double *u, size_t n, long long steps, double k, int reps,
                             double *out)
{
    CUDA_CHECK(cudaSetDevice(0));
    heat_job job;
    memset(&job, 0, sizeof job);
    const size_t bytes = tut_bytes(n, sizeof(double), "rod");
    job.a = (double *)tut_device_alloc(bytes, "rod a");
    job.b = (double *)tut_device_alloc(bytes, "rod b");
    job.n = n;
    job.steps = steps;
    job.k = k;
    char why[256];
    if (!heat_step_prepare(&job, why, sizeof why)) {
        fprintf(stderr, "error: the one-GPU kernel cannot run: %s\n", why);
        exit(2);
    }
    double *ms = (double *)tut_host_alloc(sizeof(double) * (size_t)(reps + 1), "timings");
    for (int r = 0; r <= reps; ++r) { /* r == 0: warm-up, and the result */
        CUDA_CHECK(cudaMemcpy(job.a, u, bytes, cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaDeviceSynchronize());
        const double t0 = tut_cpu_seconds();
        const double *result = heat_run_launch_per_step(&job);
        CUDA_CHECK(cudaDeviceSynchronize());
        ms[r] = 1e3 * (tut_cpu_seconds() - t0);
        if (r == 0 && out)
            CUDA_CHECK(cudaMemcpy(out, result, bytes, cudaMemcpyDeviceToHost));
    }
    const double median = reps > 0 ? tut_median(ms + 1, reps) : ms[0];
    free(ms);
    tut_device_free(job.a);
    tut_device_free(job.b);
    return steps > 0 ? median / (double)steps : 0.0;
}

/* Steps of variant v from the rod on the parts, timed by the host clock between two points
 * where every GPU is idle (one thread drives them all); ms per step, median of reps. */
double heat_time_rod(heat_rod *r, heat_multi_variant v, long long steps, int reps)
{
    double *ms = (double *)tut_host_alloc(sizeof(double) * (size_t)(reps + 1), "timings");
    for (int i = 0; i <= reps; ++i) {
        heat_rod_sync(r);
        const double t0 = tut_cpu_seconds();
        heat_rod_run(r, v, steps);
        heat_rod_sync(r);
        ms[i] = 1e3 * (tut_cpu_seconds() - t0);
    }
    const double median = tut_median(ms + 1, reps);
    free(ms);
    return steps > 0 ? median / (double)steps : 0.0;
}

size_t heat_bits_differ(const double *a, const double *b, size_t n, size_t *first)
{
    size_t count = 0;
    *first = n;
    if (memcmp(a, b, n * sizeof(double)) == 0)
        return 0;
    for (size_t i = 0; i < n; ++i)
        if (memcmp(a + i, b + i, sizeof(double)) != 0 && count++ == 0)
            *first = i;
    return count;
}

long long heat_bench_steps(size_t per_gpu, long long steps)
{
    if (steps <= 0) {
        steps = (long long)(((size_t)1 << 33) / per_gpu);
        steps = steps < 50 ? 50 : steps > 2000 ? 2000 : steps;
    }
    return steps + steps % 2;
}

/* A start that costs little to make for a billion points (the values do not change the time;
 * the checks of the strong runs compare two GPU results of the same start). */
static void bench_init(double *u, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        u[i] = (double)((i * 2654435761u) % 10007u) * 0.01;
}

/* A device-to-device copy on GPU 0, bytes read plus bytes written per second (GB/s): the
 * ceiling a memory-bound step approaches (16 bytes per point and step: one read, one write). */
static double copy_bandwidth(size_t bytes)
{
    CUDA_CHECK(cudaSetDevice(0));
    void *a = tut_device_alloc(bytes, "copy source"), *b = tut_device_alloc(bytes, "copy target");
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    double ms[6];
    for (int i = 0; i < 6; ++i) {
        CUDA_CHECK(cudaEventRecord(start, 0));
        CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        float t;
        CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
        ms[i] = t;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    tut_device_free(a);
    tut_device_free(b);
    return 2.0 * (double)bytes / (tut_median(ms + 1, 5) * 1e6);
}

typedef struct {
    const heat_bench_args *a;
    tut_csv *csv;
    double bandwidth; /* GB/s */
} bench;

/* One line, like multi-gpu-programming-models' and tutorial-multi-gpu's, and its CSV row. */
static void report(const bench *b, const char *scaling, const char *variant, int gpus,
                   size_t n, long long steps, double one_ms, double ms, int peer, int staged,
                   const char *check)
{
    const size_t per_gpu = (n + (size_t)gpus - 1) / (size_t)gpus;
    const double predicted = 16.0 * (double)per_gpu / (b->bandwidth * 1e6);
    const int weak = scaling[0] == 'w';
    const double efficiency = weak ? one_ms / ms : one_ms / (ms * gpus);
    const double speedup = efficiency * gpus;
    printf("%-6s %-12s %d GPU(s) %11zu points: one GPU %.4f ms/step, %d GPU(s) %.4f ms/step "
           "(predicted %.4f), speedup %.2f, efficiency %.1f%% %s\n", scaling, variant, gpus, n,
           one_ms, gpus, ms, predicted, speedup, 100.0 * efficiency, check);
    tut_csv_row(b->csv, "%s,%s,%d,%zu,%zu,%lld,%.6f,%.6f,%.6f,%.4f,%.4f,%d,%d,%s", scaling,
                variant, gpus, n, per_gpu, steps, one_ms, ms, predicted, speedup, efficiency,
                peer, staged, check);
}

static int gpu_counts(int max_gpus, int counts[3])
{
    int c = 0;
    for (int g = 1; g <= 4 && g <= max_gpus; g *= 2)
        counts[c++] = g;
    return c;
}

/* Weak: per_gpu points on each of G GPUs, against the one-GPU kernel on per_gpu points. */
static void weak_scaling(const bench *b, size_t per_gpu, double *u)
{
    const heat_bench_args *a = b->a;
    int counts[3];
    const int c = gpu_counts(a->max_gpus, counts);
    const long long steps = heat_bench_steps(per_gpu, a->steps);
    const double one_ms = heat_one_gpu_kernel(u, per_gpu, steps, a->k, a->reps, NULL);
    report(b, "weak", "one_gpu", 1, per_gpu, steps, one_ms, one_ms, 0, 0, "-");
    for (int i = 0; i < c; ++i) {
        heat_rod r;
        char why[320];
        const size_t n = per_gpu * (size_t)counts[i];
        if (!heat_rod_create(&r, n, counts[i], counts[i], a->k, a->threads, why, sizeof why)) {
            printf("weak: %d GPU(s): %s\n", counts[i], why);
            continue;
        }
        const int nccl = heat_nccl_init(&r, why, sizeof why) > 0;
        heat_rod_scatter(&r, u);
        for (int v = 0; v < HEAT_MULTI_VARIANTS; ++v) {
            if (!nccl && (v == HEAT_MULTI_NCCL || v == HEAT_MULTI_NCCL_SERIAL)) {
                printf("weak   %-12s skipped: %s\n", heat_multi_names[v], why);
                continue;
            }
            const double ms = heat_time_rod(&r, (heat_multi_variant)v, steps, a->reps);
            report(b, "weak", heat_multi_names[v], counts[i], n, steps, one_ms, ms,
                   r.peer_pairs, r.staged_pairs, "-");
        }
        heat_rod_destroy(&r);
    }
}

/* Strong: one rod of n points on 1, 2, 4 GPUs; each result equal to the one-GPU kernel's. */
static int strong_scaling(const bench *b, size_t n, double *u, double *one, double *got)
{
    const heat_bench_args *a = b->a;
    int counts[3], ok = 1;
    const int c = gpu_counts(a->max_gpus, counts);
    const long long steps = heat_bench_steps(n, a->steps);
    const double one_ms = heat_one_gpu_kernel(u, n, steps, a->k, a->reps, one);
    report(b, "strong", "one_gpu", 1, n, steps, one_ms, one_ms, 0, 0, "-");
    for (int i = 0; i < c; ++i) {
        heat_rod r;
        char why[320];
        if (!heat_rod_create(&r, n, counts[i], counts[i], a->k, a->threads, why, sizeof why)) {
            printf("strong: %d GPU(s): %s\n", counts[i], why);
            continue;
        }
        const int nccl = heat_nccl_init(&r, why, sizeof why) > 0;
        for (int v = 0; v < HEAT_MULTI_VARIANTS; ++v) {
            if (!nccl && (v == HEAT_MULTI_NCCL || v == HEAT_MULTI_NCCL_SERIAL)) {
                printf("strong %-12s skipped: %s\n", heat_multi_names[v], why);
                continue;
            }
            heat_rod_scatter(&r, u);
            heat_rod_run(&r, (heat_multi_variant)v, steps);
            heat_rod_gather(&r, steps, got);
            size_t first;
            const size_t differ = heat_bits_differ(got, one, n, &first);
            if (differ)
                printf("strong %s on %d GPU(s): %zu points differ from the one-GPU kernel, the "
                       "first at %zu: %.17g, one GPU %.17g\n", heat_multi_names[v], counts[i],
                       differ, first, got[first], one[first]);
            ok &= differ == 0;
            const double ms = heat_time_rod(&r, (heat_multi_variant)v, steps, a->reps);
            report(b, "strong", heat_multi_names[v], counts[i], n, steps, one_ms, ms,
                   r.peer_pairs, r.staged_pairs, differ ? "DIFFERS" : "bit-identical");
        }
        heat_rod_destroy(&r);
    }
    return ok;
}

int heat_bench_scaling(const heat_bench_args *a)
{
    int counts[3];
    const int c = gpu_counts(a->max_gpus, counts);
    const size_t copy_bytes = a->largest * sizeof(double) < ((size_t)1 << 30)
                                  ? a->largest * sizeof(double) : ((size_t)1 << 30);
    bench b = {.a = a, .bandwidth = copy_bandwidth(copy_bytes)};
    printf("\nscaling on 1 .. %d GPU(s); GPU 0's device-to-device copy: %.0f GB/s (read + "
           "write)\n", counts[c - 1], b.bandwidth);
    b.csv = tut_csv_open(a->outdir, "scaling.csv",
                         "scaling,variant,gpus,points,points_per_gpu,steps,one_gpu_ms_per_step,"
                         "ms_per_step,predicted_ms_per_step,speedup,efficiency,peer_pairs,"
                         "staged_pairs,check");
    for (int g = 0; g < counts[c - 1]; ++g) {
        cudaDeviceProp prop;
        CUDA_CHECK(cudaGetDeviceProperties(&prop, g));
        tut_csv_comment(b.csv, "gpu %d: %s, %d SMs", g, prop.name, prop.multiProcessorCount);
    }
    tut_csv_comment(b.csv, "NCCL %s; NCCL_NVLS_ENABLE=0 (no NVLink multicast)",
                    heat_nccl_built() ? "built" : "not built");
    tut_csv_comment(b.csv, "copy_gbps: %.1f (GPU 0, cudaMemcpy device to device, read + write); "
                    "predicted = 16 bytes x points per GPU / copy_gbps", b.bandwidth);
    tut_csv_comment(b.csv, "weak: efficiency = one-GPU time / G-GPU time, speedup = G x that; "
                    "strong: speedup = one-GPU time / G-GPU time, efficiency = speedup / G");
    const size_t weak_sizes[3] = {a->largest >> 5, a->largest >> 2, a->largest};
    const size_t strong_n = 2 * a->largest + 1; /* odd: the parts differ by one point */
    const size_t host_n = a->largest * (size_t)counts[c - 1] > strong_n
                              ? a->largest * (size_t)counts[c - 1] : strong_n;
    double *u = (double *)tut_host_alloc(tut_bytes(host_n, sizeof(double), "rod"), "rod");
    bench_init(u, host_n);
    for (int s = 0; s < 3; ++s)
        if (weak_sizes[s] >= 1024)
            weak_scaling(&b, weak_sizes[s], u);
    double *one = (double *)tut_host_alloc(tut_bytes(strong_n, sizeof(double), "rod"), "rod");
    double *got = (double *)tut_host_alloc(tut_bytes(strong_n, sizeof(double), "rod"), "rod");
    const int ok = strong_scaling(&b, strong_n, u, one, got);
    free(u);
    free(one);
    free(got);
    tut_csv_close(b.csv);
    return ok;
}
