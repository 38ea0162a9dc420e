/* Chapter 01: vector addition, c = a + b.
 *
 * 1. The document's example: 100000 random doubles, launched three ways (a manual launch of 256
 *    threads per block, a `forall`-style launch sized by the occupancy API, a grid-stride
 *    launch), each checked against the CPU.
 * 2. The same in float, with the float4 kernel.
 * 3. --bench: every float kernel from 2^10 to 2^28 elements beside cudaMemcpy device-to-device
 *    (the bandwidth ceiling), plus the cost of a kernel launch.
 * Run with --help for the options. */
#include <stdio.h>
#include <stdlib.h>

#include "launch_math.h"
#include "tutorial.h"
#include "vecadd_kernels.h"

enum { PRECISION_BOTH, PRECISION_F32, PRECISION_F64 };

typedef struct {
    unsigned long long n, max_n, reps, seed;
    int precision, bench, if_fits;
    const char *outdir;
} options;

/* ---------------------------------------------------------------- launch configurations */

typedef struct {
    size_t blocks;
    int threads;
} launch_config;

/* What Numba's forall() does for you: ask the occupancy API for the block size that keeps the
 * most threads resident, then cover n with blocks of that size. */
static launch_config forall_config(const void *kernel, size_t n)
{
    int min_grid = 0, threads = 0;
    CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &threads, kernel, 0, 0));
    launch_config cfg = {blocks_to_cover(n, (unsigned)threads), threads};
    return cfg;
}

/* A grid-stride kernel needs one full wave of blocks: as many as can be resident at once. */
static launch_config one_wave_config(const void *kernel, size_t n, int threads)
{
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    launch_config cfg = {grid_stride_blocks(n, (unsigned)threads, tut_current_device()->sm_count,
                                            per_sm), threads};
    return cfg;
}

/* ---------------------------------------------------------------- the float kernels */

enum { F32_ONE_PER_THREAD, F32_GRID_STRIDE, F32_FLOAT4, F32_VARIANTS };
static const char *f32_names[F32_VARIANTS] = {"one-per-thread", "grid-stride", "float4"};

typedef struct {
    int variant;
    const float *a, *b;
    float *c;
    size_t n;
} f32_job;

static void run_f32(void *arg)
{
    const f32_job *j = (const f32_job *)arg;
    launch_config cfg;
    switch (j->variant) {
    case F32_ONE_PER_THREAD:
        cfg.threads = 256;
        cfg.blocks = blocks_to_cover(j->n, 256);
        vecadd_f32_kernel<<<(unsigned)cfg.blocks, cfg.threads>>>(j->a, j->b, j->c, j->n);
        break;
    case F32_GRID_STRIDE:
        cfg = one_wave_config((const void *)vecadd_f32_grid_stride_kernel, j->n, 256);
        vecadd_f32_grid_stride_kernel<<<(unsigned)cfg.blocks, cfg.threads>>>(j->a, j->b, j->c,
                                                                             j->n);
        break;
    default:
        /* Threads with work: one per float4, and at least one per tail element. */
        cfg = one_wave_config((const void *)vecadd_f32x4_kernel,
                              float4_count(j->n) + float4_tail(j->n), 256);
        vecadd_f32x4_kernel<<<(unsigned)cfg.blocks, cfg.threads>>>(j->a, j->b, j->c, j->n);
        break;
    }
    LAUNCH_CHECK();
}

/* Runs one variant on the first n elements with a poisoned output (0xFF bytes are NaN, which
 * never passes a check), then compares with the CPU sum. */
static int check_f32(int variant, const float *d_a, const float *d_b, float *d_c, size_t n,
                     const float *want, float *got)
{
    CUDA_CHECK(cudaMemset(d_c, 0xFF, tut_bytes(n, sizeof(float), "c")));
    f32_job job = {variant, d_a, d_b, d_c, n};
    run_f32(&job);
    CUDA_CHECK(cudaMemcpy(got, d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    char label[96];
    snprintf(label, sizeof label, "f32 %s n=%zu", f32_names[variant], n);
    /* float + float is exactly rounded on both sides: the results must be identical. */
    return tut_check_f32(label, got, want, n, 0.0, 0.0, NULL);
}

/* ---------------------------------------------------------------- 1. the document's example */

static int seed_example_f64(size_t n, tut_rng *rng)
{
    const size_t bytes = tut_bytes(n, sizeof(double), "vectors");
    double *a = (double *)tut_host_alloc(bytes, "a"), *b = (double *)tut_host_alloc(bytes, "b");
    double *want = (double *)tut_host_alloc(bytes, "reference");
    double *got = (double *)tut_host_alloc(bytes, "result");
    tut_rng_fill_f64(rng, a, n, 0.0, 1.0); /* np.random.random: uniform [0, 1) */
    tut_rng_fill_f64(rng, b, n, 0.0, 1.0);
    for (size_t i = 0; i < n; ++i)
        want[i] = a[i] + b[i];

    double *d_a = (double *)tut_device_alloc(bytes, "a");
    double *d_b = (double *)tut_device_alloc(bytes, "b");
    double *d_c = (double *)tut_device_alloc(bytes, "c");
    CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));

    const launch_config manual = {blocks_to_cover(n, 256), 256};
    const launch_config forall = forall_config((const void *)vecadd_f64_kernel, n);
    const launch_config *configs[] = {&manual, &forall};
    const char *names[] = {"manual 256 threads/block", "forall (occupancy API)"};
    int ok = 1;
    for (int k = 0; k < 2; ++k) {
        printf("f64 %s: %zu blocks x %d threads\n", names[k], configs[k]->blocks,
               configs[k]->threads);
        CUDA_CHECK(cudaMemset(d_c, 0xFF, bytes));
        vecadd_f64_kernel<<<(unsigned)configs[k]->blocks, configs[k]->threads>>>(d_a, d_b, d_c, n);
        LAUNCH_CHECK();
        CUDA_CHECK(cudaMemcpy(got, d_c, bytes, cudaMemcpyDeviceToHost));
        printf("  c = [");
        for (size_t i = 0; i < n && i < 3; ++i)
            printf("%.8f ", got[i]);
        printf("... %.8f]\n", got[n - 1]);
        ok &= tut_check_f64("f64 vecadd", got, want, n, 0.0, 0.0, NULL);
    }
    tut_device_free(d_a);
    tut_device_free(d_b);
    tut_device_free(d_c);
    free(a);
    free(b);
    free(want);
    free(got);
    return ok;
}

/* ---------------------------------------------------------------- 2 and 3. float kernels */

typedef struct {
    const float *src;
    float *dst;
    size_t n;
} copy_job;

static void run_memcpy(void *arg)
{
    const copy_job *j = (const copy_job *)arg;
    CUDA_CHECK(cudaMemcpyAsync(j->dst, j->src, j->n * sizeof(float), cudaMemcpyDeviceToDevice, 0));
}

__global__ void empty_kernel(void) {}

static void run_empty(void *arg)
{
    (void)arg;
    empty_kernel<<<1, 32>>>();
    LAUNCH_CHECK();
}

/* The cost of a launch: back-to-back empty kernels, timed on the GPU (launch throughput) and on
 * the host (what the CPU spends submitting one). */
static void launch_overhead(tut_csv *csv)
{
    enum { LAUNCHES = 10000 };
    run_empty(NULL);
    CUDA_CHECK(cudaDeviceSynchronize());
    const double t0 = tut_cpu_seconds();
    for (int i = 0; i < LAUNCHES; ++i)
        run_empty(NULL);
    const double submit_us = (tut_cpu_seconds() - t0) / LAUNCHES * 1e6;
    CUDA_CHECK(cudaDeviceSynchronize());

    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start, 0));
    for (int i = 0; i < LAUNCHES; ++i)
        run_empty(NULL);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    const double gpu_us = ms * 1e3 / LAUNCHES;
    printf("launch overhead: %.2f us per back-to-back launch (GPU events), %.2f us of host time to "
           "submit one\n", gpu_us, submit_us);
    tut_csv_row(csv, "back-to-back (GPU events),%.3f", gpu_us);
    tut_csv_row(csv, "host submit,%.3f", submit_us);
}

static int float_kernels(const options *o, tut_rng *rng)
{
    const size_t n = (size_t)o->n;
    const size_t max_n = o->bench && o->max_n > n ? (size_t)o->max_n : n;
    const size_t bytes = tut_bytes(max_n, sizeof(float), "vectors");
    if (!tut_device_fits(tut_bytes(3, bytes, "vectors"), 64u << 20)) {
        char need[32];
        printf("%s: three vectors of %zu floats (%s) do not fit in GPU memory\n",
               o->if_fits ? "SKIPPED" : "error", max_n,
               tut_format_bytes(3.0 * (double)bytes, need, sizeof need));
        exit(o->if_fits ? TUT_EXIT_SKIP : 2);
    }
    float *a = (float *)tut_host_alloc(bytes, "a"), *b = (float *)tut_host_alloc(bytes, "b");
    float *want = (float *)tut_host_alloc(bytes, "reference");
    float *got = (float *)tut_host_alloc(bytes, "result");
    tut_rng_fill_f32(rng, a, max_n, -1.0f, 1.0f);
    tut_rng_fill_f32(rng, b, max_n, -1.0f, 1.0f);
    for (size_t i = 0; i < max_n; ++i)
        want[i] = a[i] + b[i];
    float *d_a = (float *)tut_device_alloc(bytes, "a");
    float *d_b = (float *)tut_device_alloc(bytes, "b");
    float *d_c = (float *)tut_device_alloc(bytes, "c");
    CUDA_CHECK(cudaMemcpy(d_a, a, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b, bytes, cudaMemcpyHostToDevice));

    int ok = 1;
    for (int v = 0; v < F32_VARIANTS; ++v)
        ok &= check_f32(v, d_a, d_b, d_c, n, want, got);

    if (o->bench && ok) {
        tut_csv *csv = tut_csv_open(o->outdir, "bandwidth.csv", "n,variant,ms,gbps,pct_of_memcpy");
        tut_csv_comment(csv, "vecadd moves 12 bytes per element (read a and b, write c); "
                             "memcpy moves 8 (read + write)");
        printf("\n%12s %16s %10s %9s %7s\n", "n", "variant", "ms", "GB/s", "%copy");
        double best_pct = 0.0;
        const char *best_name = "";
        for (size_t size = 1u << 10; size <= max_n; size *= 2) {
            copy_job copy = {d_a, d_c, size};
            const double copy_ms = tut_time_gpu(run_memcpy, &copy, 3, (int)o->reps).median_ms;
            const double copy_gbps = 8.0 * size / copy_ms * 1e-6;
            printf("%12zu %16s %10.4f %9.1f %7.1f\n", size, "memcpy D2D", copy_ms, copy_gbps,
                   100.0);
            tut_csv_row(csv, "%zu,memcpy,%.6f,%.2f,100.0", size, copy_ms, copy_gbps);
            for (int v = 0; v < F32_VARIANTS; ++v) {
                ok &= check_f32(v, d_a, d_b, d_c, size, want, got);
                f32_job job = {v, d_a, d_b, d_c, size};
                const double ms = tut_time_gpu(run_f32, &job, 3, (int)o->reps).median_ms;
                const double gbps = 12.0 * size / ms * 1e-6;
                const double pct = 100.0 * gbps / copy_gbps;
                printf("%12zu %16s %10.4f %9.1f %7.1f\n", size, f32_names[v], ms, gbps, pct);
                tut_csv_row(csv, "%zu,%s,%.6f,%.2f,%.2f", size, f32_names[v], ms, gbps, pct);
                if (size * 2 > max_n && pct > best_pct) { /* the largest size */
                    best_pct = pct;
                    best_name = f32_names[v];
                }
            }
        }
        tut_csv_close(csv);
        printf("\nbest at n=%zu: %s at %.1f%% of the same-run memcpy bandwidth (goal: 90%%)\n",
               max_n, best_name, best_pct);
        tut_csv *launch = tut_csv_open(o->outdir, "launch.csv", "measure,us_per_launch");
        launch_overhead(launch);
        tut_csv_close(launch);
    }
    tut_device_free(d_a);
    tut_device_free(d_b);
    tut_device_free(d_c);
    free(a);
    free(b);
    free(want);
    free(got);
    return ok;
}

int main(int argc, char **argv)
{
    options o = {100000, 1u << 28, 20, TUT_DEFAULT_SEED, PRECISION_BOTH, 0, 0, NULL};
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &o.n, "number of elements (default 100000)", 1, 68719476736.0, NULL},
        {"--precision", TUT_OPT_CHOICE, &o.precision, "which example to run (default both)",
         0, 0, "both|f32|f64"},
        {"--bench", TUT_OPT_FLAG, &o.bench, "time the float kernels from 2^10 to --max-n", 0, 0,
         NULL},
        {"--max-n", TUT_OPT_SIZE, &o.max_n, "largest benchmark size (default 2^28)", 1024,
         68719476736.0, NULL},
        {"--reps", TUT_OPT_SIZE, &o.reps, "timed repetitions per measurement (default 20)", 1,
         10000, NULL},
        {"--seed", TUT_OPT_SIZE, &o.seed, "seed of the random inputs", 0, 1.8e19, NULL},
        {"--if-fits", TUT_OPT_FLAG, &o.if_fits,
         "skip (exit 77) instead of failing (exit 2) when the vectors do not fit on the GPU", 0,
         0, NULL},
        {"--outdir", TUT_OPT_STRING, &o.outdir, "write bandwidth.csv and launch.csv here", 0, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv, "Chapter 01: vector addition c = a + b, checked and timed.",
                      opts, TUT_COUNT(opts));
    tut_select_device(7, 5, TUT_NEED_NOTHING);
    printf("n = %llu, seed = %llu\n", o.n, o.seed);

    tut_rng rng;
    tut_rng_seed(&rng, o.seed);
    int ok = 1;
    if (o.precision != PRECISION_F32)
        ok &= seed_example_f64((size_t)o.n, &rng);
    if (o.precision != PRECISION_F64 || o.bench)
        ok &= float_kernels(&o, &rng);
    return tut_finish(ok);
}
