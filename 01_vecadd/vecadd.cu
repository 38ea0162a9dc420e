/* Chapter 01: vector addition, c = a + b.
 *
 * 1. The document's example: 100000 random doubles, launched two ways (the document's manual
 *    launch of 256 threads per block, and a `forall`-style launch sized by the occupancy
 *    calculator), each checked against the CPU.
 * 2. The same in float, three ways: one thread per element, a grid-stride loop over one wave of
 *    blocks, and the float4 kernel; each checked exactly.
 * 3. --bench: every float kernel from 2^10 to 2^28 elements beside cudaMemcpy device-to-device
 *    (the bandwidth ceiling), timed the same way and interleaved, plus the cost of a launch;
 *    then the model's prediction (bytes / the measured DRAM copy ceiling) beside each kernel's
 *    time at the largest size, on the chapter's roofline.
 * Every launch configuration comes from the GPU's limits (launch_config.h), so
 * TUT_EMULATE_GPU=T4 shows what a T4 would run. Run with --help for the options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "interleaved_timer.h"
#include "launch_config.h"
#include "tutorial.h"
#include "vecadd_kernels.h"

enum { PRECISION_BOTH, PRECISION_F32, PRECISION_F64 };

typedef struct {
    unsigned long long n, max_n, reps, batch, seed;
    int precision, bench, if_fits;
    const char *outdir;
} options;

/* ---------------------------------------------------------------- launch configurations */

/* Registers and static shared memory of a compiled kernel, asked of the runtime. */
static kernel_resources kernel_resources_of(const void *kernel)
{
    const tut_kernel_use use = tut_kernel_use_of(kernel, 1, 0);
    kernel_resources k = {use.regs_per_thread, use.static_shared};
    return k;
}

/* gridDim.x can be at most 2^31 - 1 on every GPU this suite runs on. */
static void check_grid(launch_config c, const char *what)
{
    if (c.blocks == 0 || c.blocks > 0x7fffffffu) {
        fprintf(stderr, "error: %s needs %zu blocks of %u threads: not a launchable grid\n", what,
                c.blocks, c.threads);
        exit(2);
    }
}

static void print_config(const char *what, launch_config c)
{
    const tut_device_info *dev = tut_current_device();
    printf("  %-28s %10zu blocks x %4u threads (%2d blocks = %4d of %d threads per SM "
           "resident)\n", what, c.blocks, c.threads, c.blocks_per_sm,
           c.blocks_per_sm * (int)c.threads, dev->max_threads_per_sm);
}

/* ---------------------------------------------------------------- the float kernels */

enum { F32_ONE_PER_THREAD, F32_GRID_STRIDE, F32_FLOAT4, F32_VARIANTS };
static const char *f32_names[F32_VARIANTS] = {"one-per-thread", "grid-stride", "float4"};
static kernel_resources f32_resources[F32_VARIANTS]; /* read once, in float_kernels() */

static launch_config f32_config(int variant, size_t n)
{
    const tut_device_info *dev = tut_current_device();
    launch_config c;
    switch (variant) {
    case F32_ONE_PER_THREAD: c = one_per_thread_config(dev, f32_resources[variant], n); break;
    case F32_GRID_STRIDE: c = one_wave_config(dev, f32_resources[variant], n); break;
    default: c = one_wave_config(dev, f32_resources[variant], float4_items(n)); break;
    }
    check_grid(c, f32_names[variant]);
    return c;
}

typedef struct {
    int variant;
    const float *a, *b;
    float *c;
    size_t n;
    launch_config cfg; /* chosen before timing: nothing but the launch in the timed call */
} f32_job;

static void run_f32(void *arg)
{
    const f32_job *j = (const f32_job *)arg;
    const unsigned blocks = (unsigned)j->cfg.blocks, threads = j->cfg.threads;
    switch (j->variant) {
    case F32_ONE_PER_THREAD:
        vecadd_f32_kernel<<<blocks, threads>>>(j->a, j->b, j->c, j->n);
        break;
    case F32_GRID_STRIDE:
        vecadd_f32_grid_stride_kernel<<<blocks, threads>>>(j->a, j->b, j->c, j->n);
        break;
    default:
        vecadd_f32x4_kernel<<<blocks, threads>>>(j->a, j->b, j->c, j->n);
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
    f32_job job = {variant, d_a, d_b, d_c, n, f32_config(variant, n)};
    run_f32(&job);
    CUDA_CHECK(cudaMemcpy(got, d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    char label[96];
    snprintf(label, sizeof label, "f32 %s n=%zu", f32_names[variant], n);
    /* float + float is exactly rounded on both sides: the results must be identical. */
    return tut_check_f32(label, got, want, n, 0.0, 0.0, NULL);
}

/* ---------------------------------------------------------------- 1. the document's example */

static int document_example_f64(size_t n, tut_rng *rng)
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

    /* The document's choice and the calculator's, from this GPU's limits (launch_config.h). */
    const tut_device_info *dev = tut_current_device();
    const kernel_resources k = kernel_resources_of((const void *)vecadd_f64_kernel);
    const launch_config configs[] = {manual_config(dev, k, n), forall_config(dev, k, n)};
    const char *names[] = {"f64 manual (the document's)", "f64 forall (occupancy)"};
    if (configs[0].threads != DOCUMENT_THREADS)
        printf("note: a block of %u threads does not fit this GPU; the manual launch uses %u\n",
               DOCUMENT_THREADS, configs[0].threads);
    printf("launch configurations for n = %zu from the limits of %s:\n", n,
           dev->emulated[0] ? dev->emulated : dev->name);
    int ok = 1;
    for (int c = 0; c < 2; ++c) {
        check_grid(configs[c], names[c]);
        print_config(names[c], configs[c]);
        CUDA_CHECK(cudaMemset(d_c, 0xFF, bytes));
        vecadd_f64_kernel<<<(unsigned)configs[c].blocks, configs[c].threads>>>(d_a, d_b, d_c, n);
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
    empty_kernel<<<1, 1>>>();
    LAUNCH_CHECK();
}

/* The cost of a launch: batches of back-to-back empty kernels, timed on the GPU (launch
 * throughput) and on the host (what the CPU spends submitting one); median, min and max of the
 * batches. */
static void launch_overhead(tut_csv *csv)
{
    enum { LAUNCHES = 2000, BATCHES = 7 };
    const timed_job empty = {run_empty, NULL};
    tut_timing gpu;
    time_interleaved(&empty, 1, 100, LAUNCHES, BATCHES, &gpu);

    double submit[BATCHES];
    for (int r = 0; r < BATCHES; ++r) {
        const double t0 = tut_cpu_seconds();
        for (int i = 0; i < LAUNCHES; ++i)
            run_empty(NULL);
        submit[r] = (tut_cpu_seconds() - t0) / LAUNCHES * 1e6;
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    const double submit_us = tut_median(submit, BATCHES); /* sorts */
    printf("launch overhead: %.2f us per back-to-back launch (GPU events; %.2f to %.2f), %.2f us "
           "of host time to submit one (%.2f to %.2f); %d batches of %d\n",
           gpu.median_ms * 1e3, gpu.min_ms * 1e3, gpu.max_ms * 1e3, submit_us, submit[0],
           submit[BATCHES - 1], BATCHES, LAUNCHES);
    tut_csv_row(csv, "gpu back-to-back,%.3f,%.3f,%.3f", gpu.median_ms * 1e3,
                gpu.min_ms * 1e3, gpu.max_ms * 1e3);
    tut_csv_row(csv, "host submit,%.3f,%.3f,%.3f", submit_us, submit[0], submit[BATCHES - 1]);
}

typedef struct {
    const float *d_a, *d_b;
    float *d_c;
    const float *want;
    float *got;
} f32_buffers;

/* Predict, then measure: the model says a kernel that must move `bytes` cannot beat
 * bytes / (the DRAM copy ceiling), measured now by common/ceilings.h the same way. Every float
 * kernel at the largest size goes on the chapter's roofline (roofline.csv, drawn by
 * common/plots/roofline.gp): 1 flop per 12 bytes, far left of the ridge, so the bandwidth roof
 * is the one that counts. The ceilings are written to ceilings.csv. */
static void vecadd_roofline(const options *o, size_t n, const tut_timing *t)
{
    const tut_ceiling dram = tut_measure_ceiling(TUT_CEILING_DRAM_COPY);
    const tut_ceiling fma = tut_measure_ceiling(TUT_CEILING_FP32_FMA);
    const tut_ceiling launch = tut_measure_ceiling(TUT_CEILING_LAUNCH);
    printf("\nceilings, measured now:\n");
    const tut_ceiling *measured[] = {&dram, &fma, &launch};
    tut_ceilings_report(measured, TUT_COUNT(measured), o->outdir, "ceilings.csv");

    const double bytes = 12.0 * (double)n, flops = (double)n;
    printf("the model at n = %zu: %.0f MB to move; at %.0f GB/s no kernel can take less than "
           "%.4f ms (the %.0f Mflop need %.4f ms at %.0f GFLOP/s)\n", n, bytes * 1e-6, dram.value,
           bytes / tut_ceiling_per_second(&dram) * 1e3, flops * 1e-6,
           flops / tut_ceiling_per_second(&fma) * 1e3, fma.value);
    tut_csv *csv = tut_roofline_csv_open(o->outdir, "roofline.csv");
    tut_csv_comment(csv, "n = %zu floats; 12 bytes (read a and b, write c) and 1 flop per element; "
                         "measured_ms: the median of the bandwidth sweep", n);
    for (int v = 0; v < F32_VARIANTS; ++v) {
        const tut_roofline_point p = {.kernel = f32_names[v], .bytes = bytes, .ops = flops,
                                      .op_unit = "flop", .seconds = t[1 + v].median_ms * 1e-3,
                                      .memory = &dram, .compute = &fma};
        tut_roofline_csv_row(csv, &p);
        tut_roofline_print(&p);
    }
    tut_csv_close(csv);
}

/* Every float kernel beside cudaMemcpy at n = 2^10 ... max_n: each checked, then all timed the
 * same way, interleaved (interleaved_timer.h). Returns 0 if a check failed. */
static int bandwidth_bench(const options *o, size_t max_n, const f32_buffers *buf)
{
    const int batch = (int)o->batch, rounds = (int)o->reps;
    tut_csv *csv = tut_csv_open(o->outdir, "bandwidth.csv",
                                "n,variant,ms,min_ms,max_ms,gbps,pct_of_memcpy");
    tut_csv_comment(csv, "vecadd moves 12 bytes per element (read a and b, write c); "
                         "memcpy moves 8 (read + write)");
    tut_csv_comment(csv, "ms per call: median (min_ms, max_ms) of %d batches of %d back-to-back "
                         "calls, the four jobs of each n interleaved; gbps and pct from the "
                         "medians", rounds, batch);
    printf("\nper call: median (min-max) of %d batches of %d back-to-back calls, interleaved\n",
           rounds, batch);
    printf("%12s %16s %10s %21s %9s %7s\n", "n", "variant", "ms", "(min-max)", "GB/s", "%copy");
    int ok = 1;
    double best_pct = 0.0;
    const char *best_name = "";
    tut_timing largest[1 + F32_VARIANTS]; /* the times at the largest size, for the roofline */
    size_t largest_n = 0;
    for (size_t size = 1u << 10; size <= max_n; size *= 2) {
        copy_job copy = {buf->d_a, buf->d_c, size};
        f32_job jobs[F32_VARIANTS];
        timed_job timed[1 + F32_VARIANTS] = {{run_memcpy, &copy}};
        for (int v = 0; v < F32_VARIANTS; ++v) {
            ok &= check_f32(v, buf->d_a, buf->d_b, buf->d_c, size, buf->want, buf->got);
            const f32_job job = {v, buf->d_a, buf->d_b, buf->d_c, size, f32_config(v, size)};
            jobs[v] = job;
            timed[1 + v].work = run_f32;
            timed[1 + v].arg = &jobs[v];
        }
        tut_timing t[1 + F32_VARIANTS];
        time_interleaved(timed, 1 + F32_VARIANTS, 3, batch, rounds, t);
        memcpy(largest, t, sizeof t);
        largest_n = size;

        const double copy_gbps = 8.0 * size / t[0].median_ms * 1e-6;
        for (int j = 0; j <= F32_VARIANTS; ++j) {
            const char *name = j == 0 ? "memcpy" : f32_names[j - 1];
            const double gbps = (j == 0 ? 8.0 : 12.0) * size / t[j].median_ms * 1e-6;
            const double pct = 100.0 * gbps / copy_gbps;
            printf("%12zu %16s %10.4f  (%8.4f-%8.4f) %9.1f %7.1f\n", size, name, t[j].median_ms,
                   t[j].min_ms, t[j].max_ms, gbps, pct);
            tut_csv_row(csv, "%zu,%s,%.6f,%.6f,%.6f,%.2f,%.2f", size, name, t[j].median_ms,
                        t[j].min_ms, t[j].max_ms, gbps, pct);
            if (j > 0 && size * 2 > max_n && pct > best_pct) { /* the largest size */
                best_pct = pct;
                best_name = name;
            }
        }
    }
    tut_csv_close(csv);
    printf("\nbest at n=%zu: %s at %.1f%% of the same-run memcpy bandwidth (goal: 90%%)\n",
           largest_n, best_name, best_pct);
    vecadd_roofline(o, largest_n, largest);
    tut_csv *launch = tut_csv_open(o->outdir, "launch.csv",
                                   "measure,us_per_launch,min_us,max_us");
    launch_overhead(launch);
    tut_csv_close(launch);
    return ok;
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
    f32_resources[F32_ONE_PER_THREAD] = kernel_resources_of((const void *)vecadd_f32_kernel);
    f32_resources[F32_GRID_STRIDE] =
        kernel_resources_of((const void *)vecadd_f32_grid_stride_kernel);
    f32_resources[F32_FLOAT4] = kernel_resources_of((const void *)vecadd_f32x4_kernel);
    const tut_device_info *dev = tut_current_device();
    printf("launch configurations for n = %zu from the limits of %s:\n", n,
           dev->emulated[0] ? dev->emulated : dev->name);
    for (int v = 0; v < F32_VARIANTS; ++v) {
        char what[64];
        snprintf(what, sizeof what, "f32 %s%s", f32_names[v], v ? ", one wave" : "");
        print_config(what, f32_config(v, n));
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
        const f32_buffers buf = {d_a, d_b, d_c, want, got};
        ok &= bandwidth_bench(o, max_n, &buf);
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
    options o = {100000, 1u << 28, 20, 10, TUT_DEFAULT_SEED, PRECISION_BOTH, 0, 0, NULL};
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &o.n, "number of elements (default 100000)", 1, 68719476736.0, NULL},
        {"--precision", TUT_OPT_CHOICE, &o.precision, "which example to run (default both)",
         0, 0, "both|f32|f64"},
        {"--bench", TUT_OPT_FLAG, &o.bench, "time the float kernels from 2^10 to --max-n", 0, 0,
         NULL},
        {"--max-n", TUT_OPT_SIZE, &o.max_n, "largest benchmark size (default 2^28)", 1024,
         68719476736.0, NULL},
        {"--reps", TUT_OPT_SIZE, &o.reps, "timed batches per measurement (default 20)", 1,
         10000, NULL},
        {"--batch", TUT_OPT_SIZE, &o.batch, "back-to-back calls per timed batch (default 10)", 1,
         1000, NULL},
        {"--seed", TUT_OPT_SIZE, &o.seed, "seed of the random inputs", 0, 1.8e19, NULL},
        {"--if-fits", TUT_OPT_FLAG, &o.if_fits,
         "skip (exit 77) instead of failing (exit 2) when the vectors do not fit on the GPU", 0,
         0, NULL},
        {"--outdir", TUT_OPT_STRING, &o.outdir,
         "write bandwidth.csv, launch.csv, ceilings.csv and roofline.csv here", 0, 0, NULL},
    };
    tut_parse_or_exit(argc, argv, "Chapter 01: vector addition c = a + b, checked and timed.",
                      opts, TUT_COUNT(opts));
    tut_select_device(TUT_NEED_NOTHING);
    printf("n = %llu, seed = %llu\n", o.n, o.seed);

    tut_rng rng;
    tut_rng_seed(&rng, o.seed);
    int ok = 1;
    if (o.precision != PRECISION_F32)
        ok &= document_example_f64((size_t)o.n, &rng);
    if (o.precision != PRECISION_F64 || o.bench)
        ok &= float_kernels(&o, &rng);
    return tut_finish(ok);
}
