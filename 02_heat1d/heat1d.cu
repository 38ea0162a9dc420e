/* Chapter 02: the 1D heat equation, from a grid-wide barrier to the barrier it really needs.
 *
 * A bare run solves the document's problem (1001 points, the middle one at 10000, k = 0.25,
 * 10000 steps) with every variant, checks each against the CPU reference and times it:
 *   cooperative  1_cooperative.cu      one launch, grid.sync() between steps (the document's way)
 *   launch       2_launch_per_step.cu  one launch per step
 *   graph        2_launch_per_step.cu  the same launches replayed from a CUDA graph
 *   shared       3_shared_block.cu     one block, the rod in shared memory, __syncthreads()
 *   registers    4_block_registers.cu  one block, 4 points per thread in registers
 *   temporal     5_temporal_blocking.cu  many blocks, `halo` steps per launch in shared memory
 * Every launch (grid, block, shared memory, tile and halo) is chosen from the GPU's limits
 * (heat_config.h); a variant or a sweep entry that does not fit says why and is skipped.
 * --bench adds a sweep on the document's rod and a large rod (2^24 points) timed beside a
 * device-to-device copy of the same buffer. Run with --help for the options. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "heat1d.h"
#include "heat_reference.h"
#include "tutorial.h"

enum { V_ALL, V_COOPERATIVE, V_LAUNCH, V_GRAPH, V_SHARED, V_REGISTERS, V_TEMPORAL, V_COUNT };
/* Also the choices of --variant, in this order. */
static const char *variant_names[V_COUNT] = {"all",    "cooperative", "launch",  "graph",
                                             "shared", "registers",   "temporal"};

enum { INIT_SPIKE, INIT_RANDOM };

typedef struct {
    unsigned long long points, seed, bench_points;
    long long steps, bench_steps, tile, halo, threads, reps;
    double k;
    int variant; /* V_ALL or one variant */
    int init, bench;
    const char *outdir;
} options;

/* The Numba original's answer for the document's problem (H200; docs/02_heat1d_appendix.md,
 * "Checking bit for bit"). */
#define DOC_MAX 56.41825312220419
#define DOC_ARGMAX 500

/* ---------------------------------------------------------------- running one variant */

/* Chooses variant v's launch for the job on this GPU (job->launch); prints why not if it cannot
 * run here (a one-block variant and a rod too large for a block, a sweep entry too large for this
 * GPU's shared memory, ...). */
static int prepare_variant(int v, heat_job *job, const char *config)
{
    char why[320] = "";
    int ok = 0;
    switch (v) {
    case V_COOPERATIVE: ok = heat_cooperative_prepare(job, why, sizeof why); break;
    case V_LAUNCH: ok = heat_step_prepare(job, why, sizeof why); break;
    case V_GRAPH: ok = heat_graph_prepare(job, why, sizeof why); break;
    case V_SHARED: ok = heat_shared_block_prepare(job, why, sizeof why); break;
    case V_REGISTERS: ok = heat_block_registers_prepare(job, why, sizeof why); break;
    default: ok = heat_temporal_prepare(job, why, sizeof why); break;
    }
    if (!ok)
        printf("%-12s %-20s skipped: %s\n", variant_names[v], config, why);
    return ok;
}

static double *run_variant(int v, const heat_job *job)
{
    switch (v) {
    case V_COOPERATIVE: return heat_run_cooperative(job);
    case V_LAUNCH: return heat_run_launch_per_step(job);
    case V_GRAPH: return heat_run_graph(job);
    case V_SHARED: return heat_run_shared_block(job);
    case V_REGISTERS: return heat_run_block_registers(job);
    default: return heat_run_temporal(job);
    }
}

typedef struct {
    int variant;
    heat_job *job;
} timed_run;

static void run_for_timer(void *arg)
{
    const timed_run *r = (const timed_run *)arg;
    run_variant(r->variant, r->job);
}

/* Poisons both buffers (0xFF bytes are NaN, so an unwritten point fails), uploads the start,
 * runs, and compares with the CPU. Returns 1 if it matches. */
static int check_variant(int v, heat_job *job, const char *config, const double *start,
                         const double *want, double *got)
{
    const size_t bytes = job->n * sizeof(double);
    CUDA_CHECK(cudaMemset(job->a, 0xFF, bytes));
    CUDA_CHECK(cudaMemset(job->b, 0xFF, bytes));
    CUDA_CHECK(cudaMemcpy(job->a, start, bytes, cudaMemcpyHostToDevice));
    const double *result = run_variant(v, job);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, result, bytes, cudaMemcpyDeviceToHost));

    double scale = 0.0;
    for (size_t i = 0; i < job->n; ++i)
        scale = fmax(scale, fabs(want[i]));
    size_t identical = 0;
    for (size_t i = 0; i < job->n; ++i)
        identical += memcmp(&got[i], &want[i], sizeof(double)) == 0;

    char label[128];
    snprintf(label, sizeof label, "%s%s%s", variant_names[v], config[0] ? " " : "", config);
    const heat_launch *l = &job->launch;
    printf("  %s: %zu blocks x %d threads, %zu bytes of dynamic shared memory, %d such blocks "
           "per SM\n", label, l->blocks, l->threads, l->shared_bytes, l->blocks_per_sm);
    /* Same operations in the same order: we expect equality; allow 1e-12 to say so if not. */
    const int ok = tut_check_f64(label, got, want, job->n, 1e-12 * scale, 1e-12, NULL);
    printf("  %s: %zu of %zu points bit-identical to the CPU\n", label, identical, job->n);
    return ok;
}

/* Per call: the median, min and max over `reps` batches of back-to-back calls (a batch lasts
 * about 2 ms or one call), after warm-up, so one launch's latency weighs little. */
static tut_timing time_variant(int v, heat_job *job, int reps)
{
    timed_run r = {v, job};
    return tut_time_gpu_batched(run_for_timer, &r, 1, reps, 0);
}

/* The config column of the tables: what a variant's sweep varies, or what its build fixed. */
static void describe(int v, const heat_job *job, int swept, char *config, size_t len)
{
    config[0] = '\0';
    if (v == V_SHARED && swept)
        snprintf(config, len, "threads=%d", job->threads);
    else if (v == V_REGISTERS)
        snprintf(config, len, "points/thread=%d", heat_block_registers_points_per_thread());
    else if (v == V_TEMPORAL)
        snprintf(config, len, "tile=%d halo=%d", job->tile, job->halo);
}

/* ---------------------------------------------------------------- the document's problem */

static void init_rod(double *u, const options *o, size_t n)
{
    if (o->init == INIT_SPIKE)
        heat_init_spike(u, n, 10000.0);
    else
        heat_init_random(u, n, o->seed);
}

/* The reference, keeping a few snapshots for the profile plot: start, 1%, 10% and the end. */
static void reference_with_snapshots(double *u, double *scratch, size_t n, long long steps,
                                     double k, double *snap[3])
{
    const long long at[2] = {steps / 100, steps / 10};
    memcpy(snap[0], u, n * sizeof *u);
    heat_reference(u, scratch, n, at[0], k);
    memcpy(snap[1], u, n * sizeof *u);
    heat_reference(u, scratch, n, at[1] - at[0], k);
    memcpy(snap[2], u, n * sizeof *u);
    heat_reference(u, scratch, n, steps - at[1], k);
}

static void write_profiles(const options *o, size_t n, double *snap[3], const double *want,
                           const double *got)
{
    tut_csv *p = tut_csv_open(o->outdir, "profiles.csv",
                              "i,start,one_percent,ten_percent,final_cpu,final_gpu");
    tut_csv_comment(p, "%zu points, k = %g, snapshots at steps 0, %lld, %lld, %lld", n, o->k,
                    o->steps / 100, o->steps / 10, o->steps);
    for (size_t i = 0; i < n; ++i)
        tut_csv_row(p, "%zu,%.17g,%.17g,%.17g,%.17g,%.17g", i, snap[0][i], snap[1][i],
                    snap[2][i], want[i], got[i]);
    tut_csv_close(p);
}

/* Checks and times the chosen variants on the problem of the options. With `sweep`, also tries
 * several block sizes for the shared variant. Writes profiles.csv and <csv_name>. */
static int solve_problem(const options *o, int sweep, const char *csv_name)
{
    const size_t n = o->points;
    const size_t bytes = tut_bytes(n, sizeof(double), "rod");
    double *start = (double *)tut_host_alloc(bytes, "start");
    double *want = (double *)tut_host_alloc(bytes, "reference");
    double *got = (double *)tut_host_alloc(bytes, "result");
    double *scratch = (double *)tut_host_alloc(bytes, "scratch");
    double *snap[3];
    for (int i = 0; i < 3; ++i)
        snap[i] = (double *)tut_host_alloc(bytes, "snapshot");

    init_rod(start, o, n);
    printf("rod: %zu points, %lld steps, k = %g, start: %s\n", n, o->steps, o->k,
           o->init == INIT_SPIKE ? "zero but the middle point at 10000" : "random in [0, 100)");
    if (o->init == INIT_RANDOM)
        printf("seed: %llu\n", o->seed);
    memcpy(want, start, bytes);
    const double t0 = tut_cpu_seconds();
    reference_with_snapshots(want, scratch, n, o->steps, o->k, snap);
    const double cpu_ms = 1e3 * (tut_cpu_seconds() - t0);
    const size_t peak = heat_argmax(want, n);
    printf("CPU reference: %.1f ms; max %.16g at index %zu, total %.16g (start %.16g)\n", cpu_ms,
           want[peak], peak, heat_total(want, n), heat_total(start, n));

    int ok = 1;
    /* The document's problem has a known answer: the Numba original's. */
    if (o->init == INIT_SPIKE && n == 1001 && o->steps == 10000 && o->k == 0.25) {
        ok &= tut_check_scalar("max vs the Numba original", want[peak], DOC_MAX, 0.0, 1e-15);
        if (peak != DOC_ARGMAX) {
            printf("the maximum is at index %zu, not %d as in the Numba original\n", peak,
                   DOC_ARGMAX);
            ok = 0;
        }
    }

    heat_job job;
    memset(&job, 0, sizeof job);
    job.a = (double *)tut_device_alloc(bytes, "rod buffer a");
    job.b = (double *)tut_device_alloc(bytes, "rod buffer b");
    job.n = n;
    job.steps = o->steps;
    job.k = o->k;
    job.tile = (int)o->tile;
    job.halo = (int)o->halo;

    tut_csv *csv = tut_csv_open(o->outdir, csv_name, "variant,config,points,steps,ms,"
                                "us_per_step,us_per_step_min,us_per_step_max");
    tut_csv_comment(csv, "ms and us_per_step: median per call over %lld batches of back-to-back "
                    "calls (each about 2 ms, or one call), after warm-up; min and max beside",
                    o->reps);
    printf("%-12s %-20s %12s %12s %19s\n", "variant", "config", "ms", "us/step",
           "us/step min-max");
    int profiled = 0;
    for (int v = V_COOPERATIVE; v < V_COUNT; ++v) {
        if (o->variant != V_ALL && o->variant != v)
            continue;
        const int swept = sweep && v == V_SHARED;
        const int configs = swept ? heat_shared_sweep_count : 1;
        for (int c = 0; c < configs; ++c) {
            job.threads = swept ? heat_shared_sweep_threads[c] : (int)o->threads;
            job.graph_steps = o->steps < 1000 ? o->steps : 1000;
            char config[64];
            describe(v, &job, swept, config, sizeof config);
            if (!prepare_variant(v, &job, config))
                continue;
            const int good = check_variant(v, &job, config, start, want, got);
            ok &= good;
            if (good && !profiled && o->outdir && n <= (1u << 20)) {
                write_profiles(o, n, snap, want, got);
                profiled = 1;
            }
            if (!good)
                continue;
            const tut_timing t = time_variant(v, &job, (int)o->reps);
            const double per_step = o->steps ? 1e3 / (double)o->steps : 0.0; /* us per ms */
            printf("%-12s %-20s %12.3f %12.4f %9.4f-%-9.4f\n", variant_names[v], config,
                   t.median_ms, t.median_ms * per_step, t.min_ms * per_step,
                   t.max_ms * per_step);
            tut_csv_row(csv, "%s,%s,%zu,%lld,%.6f,%.6f,%.6f,%.6f", variant_names[v],
                        config[0] ? config : "default", n, o->steps, t.median_ms,
                        t.median_ms * per_step, t.min_ms * per_step, t.max_ms * per_step);
        }
        heat_graph_destroy(&job);
    }
    tut_csv_close(csv);

    tut_device_free(job.a);
    tut_device_free(job.b);
    for (int i = 0; i < 3; ++i)
        free(snap[i]);
    free(start);
    free(want);
    free(got);
    free(scratch);
    return ok;
}

/* ---------------------------------------------------------------- the large rod */

static void copy_for_timer(void *arg)
{
    const heat_job *job = (const heat_job *)arg;
    CUDA_CHECK(cudaMemcpyAsync(job->b, job->a, job->n * sizeof(double),
                               cudaMemcpyDeviceToDevice, 0));
}

/* ---------------------------------------------------------------- the roofline */

/* The ceilings the large rod's kernels are bound by, measured in this run (common/ceilings.h):
 * DRAM (a kernel per step reads and writes the rod), shared memory and FP64 (temporal blocking
 * keeps the rod in shared memory for `halo` steps). */
typedef struct {
    tut_ceiling dram, shared, fp64;
} heat_roofs;

static heat_roofs measure_roofs(const char *outdir)
{
    heat_roofs r = {.dram = tut_measure_ceiling(TUT_CEILING_DRAM_COPY),
                    .shared = tut_measure_ceiling(TUT_CEILING_SHARED_BANDWIDTH),
                    .fp64 = tut_measure_ceiling(TUT_CEILING_FP64_FMA)};
    printf("ceilings, measured now:\n");
    const tut_ceiling *measured[] = {&r.dram, &r.shared, &r.fp64};
    tut_ceilings_report(measured, TUT_COUNT(measured), outdir, "ceilings.csv");
    return r;
}

/* Flops as the FP64 pipe sees them: each of an update's four instructions (DFMA, DADD, DMUL,
 * DADD) takes the slot of one FMA, 2 flops, so that the fp64_fma ceiling is their roof. */
static double fp64_slot_flops(double updates)
{
    return 2.0 * HEAT_FP64_INSTRUCTIONS_PER_UPDATE * updates;
}

/* One roofline row per step-by-step variant (16 bytes of DRAM per update: read, write); the
 * temporal kernel gets two, against DRAM and against shared memory, its real limit. */
static void roofline_row(tut_csv *csv, int v, const heat_job *job, double seconds,
                         const heat_roofs *r)
{
    const double updates = (double)job->n * (double)job->steps;
    char name[96];
    if (v != V_TEMPORAL) {
        const tut_roofline_point p = {.kernel = variant_names[v], .bytes = 16.0 * updates,
                                      .ops = fp64_slot_flops(updates), .op_unit = "flop",
                                      .seconds = seconds, .memory = &r->dram, .compute = &r->fp64};
        tut_roofline_csv_row(csv, &p);
        tut_roofline_print(&p);
        return;
    }
    const heat_traffic t = heat_temporal_traffic(job->n, &job->launch, job->steps);
    snprintf(name, sizeof name, "temporal tile=%d halo=%d vs DRAM", job->launch.tile,
             job->launch.halo);
    const tut_roofline_point dram = {.kernel = name, .bytes = t.dram_bytes,
                                     .ops = fp64_slot_flops(t.updates), .op_unit = "flop",
                                     .seconds = seconds, .memory = &r->dram, .compute = &r->fp64};
    tut_roofline_csv_row(csv, &dram);
    tut_roofline_print(&dram);
    snprintf(name, sizeof name, "temporal tile=%d halo=%d vs shared", job->launch.tile,
             job->launch.halo);
    const tut_roofline_point shared = {.kernel = name, .bytes = t.shared_bytes,
                                       .ops = fp64_slot_flops(t.updates), .op_unit = "flop",
                                       .seconds = seconds, .memory = &r->shared,
                                       .compute = &r->fp64};
    const tut_roofline_figures f = tut_roofline_csv_row(csv, &shared);
    tut_roofline_print(&shared);
    printf("  the model for temporal blocking: %.1f bytes of shared memory per useful update "
           "(%.1f%% of the updates are redundant halo work), at %.0f GB/s: %.4f ms; measured "
           "%.4f ms: %.1f%% of the shared-memory roof\n",
           t.shared_bytes / t.useful, 100.0 * (t.updates / t.useful - 1.0), r->shared.value,
           f.predicted_s * 1e3, seconds * 1e3, 100.0 * f.ratio);
}

/* Every variant that applies, checked on a short run, then timed on a long one, beside a
 * device-to-device copy of the rod (the ceiling of any kernel that reads and writes it once),
 * both timed the same way (time_variant). */
static int large_rod(const options *o)
{
    const size_t n = o->bench_points;
    const size_t bytes = tut_bytes(n, sizeof(double), "large rod");
    if (!tut_device_fits(2 * bytes, 256u << 20)) {
        fprintf(stderr, "the large rod (%zu points, 2 buffers) does not fit on this GPU\n", n);
        exit(2);
    }
    /* Odd, and not a multiple of any tile: the last steps of a launch are partly done. */
    const long long check_steps = 2 * o->halo + 5 < o->bench_steps ? 2 * o->halo + 5
                                                                   : o->bench_steps;
    double *start = (double *)tut_host_alloc(bytes, "start");
    double *want = (double *)tut_host_alloc(bytes, "reference");
    double *got = (double *)tut_host_alloc(bytes, "result");
    double *scratch = (double *)tut_host_alloc(bytes, "scratch");
    heat_init_random(start, n, o->seed);
    memcpy(want, start, bytes);
    const double t0 = tut_cpu_seconds();
    heat_reference(want, scratch, n, check_steps, o->k);
    printf("\nlarge rod: %zu points (%.0f MB per buffer), random start (seed %llu); checked "
           "after %lld steps (CPU %.2f s), timed over %lld steps\n",
           n, bytes / 1e6, o->seed, check_steps, tut_cpu_seconds() - t0, o->bench_steps);

    heat_job job;
    memset(&job, 0, sizeof job);
    job.a = (double *)tut_device_alloc(bytes, "rod buffer a");
    job.b = (double *)tut_device_alloc(bytes, "rod buffer b");
    job.n = n;
    job.k = o->k;
    job.threads = (int)o->threads;

    tut_csv *csv = tut_csv_open(o->outdir, "large_rod.csv",
                                "variant,config,points,steps,ms,us_per_step,gbps,ratio_to_memcpy,"
                                "us_per_step_min,us_per_step_max");
    tut_csv_comment(csv, "ms and us_per_step: median per call over %lld batches of back-to-back "
                    "calls (each about 2 ms, or one call), after warm-up; min and max beside; "
                    "gbps and ratio_to_memcpy from the medians", o->reps);
    CUDA_CHECK(cudaMemcpy(job.a, start, bytes, cudaMemcpyHostToDevice));
    const tut_timing copy = tut_time_gpu_batched(copy_for_timer, &job, 2, (int)o->reps, 0);
    const double copy_gbps = 2.0 * bytes / copy.median_ms / 1e6;
    printf("%-12s %-20s %10s %10s %17s %10s %8s\n", "variant", "config", "ms", "us/step",
           "us/step min-max", "GB/s", "/memcpy");
    printf("%-12s %-20s %10.3f %10.2f %8.2f-%-8.2f %10.0f %8.2f\n", "memcpy", "read+write",
           copy.median_ms, 1e3 * copy.median_ms, 1e3 * copy.min_ms, 1e3 * copy.max_ms,
           copy_gbps, 1.0);
    tut_csv_row(csv, "memcpy,read+write,%zu,1,%.6f,%.3f,%.1f,1.000,%.3f,%.3f", n, copy.median_ms,
                1e3 * copy.median_ms, copy_gbps, 1e3 * copy.min_ms, 1e3 * copy.max_ms);

    const heat_roofs roofs = measure_roofs(o->outdir);
    tut_csv *roofline = tut_roofline_csv_open(o->outdir, "roofline.csv");
    tut_csv_comment(roofline, "%zu points x %lld steps; flop: 4 FP64 instructions per update, "
                    "2 flops (one FMA slot) each; temporal: the fastest (tile, halo) of the sweep",
                    n, o->bench_steps);
    heat_job best_temporal = job;
    double best_temporal_s = 0.0;

    int ok = 1;
    for (int v = V_COOPERATIVE; v < V_COUNT; ++v) {
        if (o->variant != V_ALL && o->variant != v)
            continue;
        /* Temporal blocking: a few (tile, halo) pairs around the default, each if it fits. */
        const int configs = v == V_TEMPORAL ? heat_temporal_sweep_count : 1;
        for (int c = 0; c < configs; ++c) {
            job.tile = v == V_TEMPORAL ? heat_temporal_sweep[c].tile : (int)o->tile;
            job.halo = v == V_TEMPORAL ? heat_temporal_sweep[c].halo : (int)o->halo;
            job.steps = check_steps;
            job.graph_steps = 16;
            char config[64];
            describe(v, &job, 0, config, sizeof config);
            if (!prepare_variant(v, &job, config))
                continue;
            const int good = check_variant(v, &job, config, start, want, got);
            ok &= good;
            job.steps = o->bench_steps;
            if (good) {
                const tut_timing t = time_variant(v, &job, (int)o->reps);
                const double per_step = 1e3 / (double)o->bench_steps; /* us per ms */
                /* Naive-equivalent bandwidth: 16 bytes per point and step (read + write). */
                const double gbps = 16.0 * (double)n / (t.median_ms * per_step) / 1e3;
                const char *shown = config[0] ? config : "default";
                printf("%-12s %-20s %10.3f %10.2f %8.2f-%-8.2f %10.0f %8.2f\n", variant_names[v],
                       shown, t.median_ms, t.median_ms * per_step, t.min_ms * per_step,
                       t.max_ms * per_step, gbps, gbps / copy_gbps);
                tut_csv_row(csv, "%s,%s,%zu,%lld,%.6f,%.3f,%.1f,%.3f,%.3f,%.3f", variant_names[v],
                            shown, n, o->bench_steps, t.median_ms, t.median_ms * per_step, gbps,
                            gbps / copy_gbps, t.min_ms * per_step, t.max_ms * per_step);
                if (v != V_TEMPORAL)
                    roofline_row(roofline, v, &job, t.median_ms * 1e-3, &roofs);
                else if (best_temporal_s == 0.0 || t.median_ms * 1e-3 < best_temporal_s) {
                    best_temporal = job;
                    best_temporal_s = t.median_ms * 1e-3;
                }
            }
        }
        heat_graph_destroy(&job);
    }
    if (best_temporal_s > 0.0)
        roofline_row(roofline, V_TEMPORAL, &best_temporal, best_temporal_s, &roofs);
    tut_csv_close(roofline);
    tut_csv_close(csv);
    tut_device_free(job.a);
    tut_device_free(job.b);
    free(start);
    free(want);
    free(got);
    free(scratch);
    return ok;
}

/* ---------------------------------------------------------------- main */

/* The tile and halo of temporal blocking: as asked, or chosen from this GPU's limits. An asked
 * pair that does not fit is bad input (exit 2) when the temporal variant is to run. */
static void choose_tile(options *o)
{
    const tut_device_info *dev = tut_current_device();
    char why[320];
    const int asked_tile = o->tile != 0;
    int tile = (int)o->tile, halo = (int)o->halo ? (int)o->halo : HEAT_DEFAULT_HALO;
    if (!asked_tile && !heat_temporal_default((int)o->threads, &tile, &halo, why, sizeof why)) {
        printf("temporal: no tile fits this GPU (%s)\n", why);
        tile = 64; /* prepare_variant will say so again and skip it */
    }
    o->tile = tile;
    o->halo = halo;

    heat_job probe;
    memset(&probe, 0, sizeof probe);
    probe.n = o->points;
    probe.threads = (int)o->threads;
    probe.tile = tile;
    probe.halo = halo;
    if (!heat_temporal_prepare(&probe, why, sizeof why)) {
        if (asked_tile && (o->variant == V_ALL || o->variant == V_TEMPORAL)) {
            fprintf(stderr, "error: --tile %d with --halo %d: %s\n", tile, halo, why);
            exit(2);
        }
        return;
    }
    char reason[80] = "as asked";
    if (!asked_tile)
        snprintf(reason, sizeof reason, "chosen for %s%s", dev->emulated[0] ? "the limits of a "
                                                                            : "this GPU",
                 dev->emulated);
    printf("temporal: tile %d, halo %d, %s (%d blocks of %d threads and %zu bytes per SM)\n",
           tile, halo, reason, probe.launch.blocks_per_sm, probe.launch.threads,
           probe.launch.shared_bytes);
}

int main(int argc, char **argv)
{
    options o = {.points = 1001,
                 .seed = TUT_DEFAULT_SEED,
                 .bench_points = 1u << 24,
                 .steps = 10000,
                 .bench_steps = 256,
                 .tile = 0,
                 .halo = 0,
                 .threads = 0,
                 .reps = 5,
                 .k = 0.25,
                 .variant = V_ALL,
                 .init = INIT_SPIKE,
                 .bench = 0,
                 .outdir = NULL};
    char variant_choices[128] = "";
    for (int v = 0; v < V_COUNT; ++v)
        snprintf(variant_choices + strlen(variant_choices),
                 sizeof variant_choices - strlen(variant_choices), "%s%s", v ? "|" : "",
                 variant_names[v]);
    const tut_option opts[] = {
        {"--points", TUT_OPT_SIZE, &o.points, "points on the rod (at least 2)", 2, 1e12, NULL},
        {"--steps", TUT_OPT_INT, &o.steps, "time steps", 0, 1e9, NULL},
        {"--k", TUT_OPT_DOUBLE, &o.k, "alpha dt / dx^2; stable for 0 < k <= 0.5", 1, 0, NULL},
        {"--variant", TUT_OPT_CHOICE, &o.variant, "which variant to run", 0, 0, variant_choices},
        {"--init", TUT_OPT_CHOICE, &o.init, "start: the document's hot middle, or random",
         0, 0, "spike|random"},
        {"--seed", TUT_OPT_SIZE, &o.seed, "seed of the random start", 0, 1.8e19, NULL},
        {"--threads", TUT_OPT_INT, &o.threads, "threads per block (0: each variant's default)",
         0, 1024, NULL},
        {"--tile", TUT_OPT_INT, &o.tile,
         "temporal: points per block (0: chosen from the GPU's limits)", 0, 8192, NULL},
        {"--halo", TUT_OPT_INT, &o.halo, "temporal: steps per launch (= halo width; 0: 32)", 0,
         1024, NULL},
        {"--reps", TUT_OPT_INT, &o.reps, "timed batches (median, min, max)", 1, 1000, NULL},
        {"--bench", TUT_OPT_FLAG, &o.bench, "also sweep configurations and time a large rod",
         0, 0, NULL},
        {"--bench-points", TUT_OPT_SIZE, &o.bench_points, "points of the large rod", 2, 1e11,
         NULL},
        {"--bench-steps", TUT_OPT_INT, &o.bench_steps, "timed steps on the large rod", 1, 1e6,
         NULL},
        {"--outdir", TUT_OPT_STRING, &o.outdir, "write CSV results into this folder", 0, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv, "heat1d: the 1D heat equation, five ways", opts,
                      TUT_COUNT(opts));
    /* Checked before any GPU is touched, so bad input exits 2 on any machine. */
    if (!(o.k > 0.0 && o.k <= 0.5)) {
        fprintf(stderr, "error: --k %g is outside the stable range 0 < k <= 0.5 (the explicit "
                        "scheme blows up beyond 0.5; k <= 0 is no diffusion at all)\n", o.k);
        return 2;
    }
    if (o.threads % 32 != 0) {
        fprintf(stderr, "error: --threads %lld is not a multiple of 32 (a warp)\n", o.threads);
        return 2;
    }
    const unsigned long long most_points = o.points > o.bench_points ? o.points : o.bench_points;
    if (o.tile && (most_points + o.tile - 1) / o.tile > 2147483647ull) {
        fprintf(stderr, "error: --tile %lld cuts %llu points into more than 2^31 - 1 blocks\n",
                o.tile, most_points);
        return 2;
    }

    const int uses_cooperative = o.variant == V_ALL || o.variant == V_COOPERATIVE;
    tut_select_device(uses_cooperative ? TUT_NEED_COOPERATIVE_LAUNCH : TUT_NEED_NOTHING);

    /* Asked for by name, a one-block variant that cannot hold the rod is bad input. */
    if (o.variant == V_SHARED || o.variant == V_REGISTERS) {
        const size_t cap = o.variant == V_SHARED ? heat_shared_block_capacity()
                                                 : heat_block_registers_capacity();
        if (o.points > cap) {
            fprintf(stderr, "error: --variant %s holds at most %zu points in one block on this "
                            "GPU, not %llu: use cooperative, launch, graph or temporal\n",
                    variant_names[o.variant], cap, o.points);
            return 2;
        }
    }
    choose_tile(&o);
    if (!tut_device_fits(2 * tut_bytes(o.points, sizeof(double), "rod"), 64u << 20)) {
        fprintf(stderr, "error: two buffers of %llu points do not fit on this GPU\n", o.points);
        return 2;
    }

    int ok = solve_problem(&o, o.bench, o.bench ? "document_timings.csv" : "timings.csv");
    if (o.bench)
        ok &= large_rod(&o);
    return tut_finish(ok);
}
