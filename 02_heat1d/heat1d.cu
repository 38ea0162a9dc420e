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
 * --bench adds a sweep on the document's rod and a large rod (2^24 points) timed beside a
 * device-to-device copy of the same buffer. Run with --help for the options. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat1d.h"
#include "heat_reference.h"
#include "tutorial.h"

enum { V_COOPERATIVE, V_LAUNCH, V_GRAPH, V_SHARED, V_REGISTERS, V_TEMPORAL, V_COUNT };
static const char *variant_names[V_COUNT] = {"cooperative", "launch", "graph",
                                             "shared",      "registers", "temporal"};
#define VARIANT_CHOICES "all|cooperative|launch|graph|shared|registers|temporal"

enum { INIT_SPIKE, INIT_RANDOM };

typedef struct {
    unsigned long long points, seed, bench_points;
    long long steps, bench_steps, tile, halo, threads, reps;
    double k;
    int variant; /* 0: all, else V_* + 1 */
    int init, bench;
    const char *outdir;
} options;

/* The Numba original's answer for the document's problem (H200, see docs/02_heat1d.md). */
#define SEED_MAX 56.41825312220419
#define SEED_ARGMAX 500

/* ---------------------------------------------------------------- running one variant */

/* 1 if variant v runs here: chosen by --variant (0: all of them), and able to hold the rod
 * (the one-block variants have a size limit; when it rules a variant out, it says so). */
static int variant_runs(int v, int chosen, const heat_job *job)
{
    if (chosen && chosen != v + 1)
        return 0;
    size_t cap = 0;
    if (v == V_SHARED)
        cap = heat_shared_block_capacity();
    else if (v == V_REGISTERS)
        cap = heat_block_registers_capacity();
    if (cap && job->n > cap) {
        printf("%-12s not applicable: %zu points do not fit in one block (it holds at most %zu)\n",
               variant_names[v], job->n, cap);
        return 0;
    }
    return 1;
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
    /* Same operations in the same order: we expect equality; allow 1e-12 to say so if not. */
    const int ok = tut_check_f64(label, got, want, job->n, 1e-12 * scale, 1e-12, NULL);
    printf("  %s: %zu of %zu points bit-identical to the CPU\n", label, identical, job->n);
    return ok;
}

static double time_variant(int v, heat_job *job, int reps)
{
    timed_run r = {v, job};
    return tut_time_gpu(run_for_timer, &r, 1, reps).median_ms;
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
        ok &= tut_check_scalar("max vs the Numba original", want[peak], SEED_MAX, 0.0, 1e-15);
        if (peak != SEED_ARGMAX) {
            printf("the maximum is at index %zu, not %d as in the Numba original\n", peak,
                   SEED_ARGMAX);
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
    job.threads = (int)o->threads;
    if (!o->variant || o->variant == V_GRAPH + 1)
        heat_graph_prepare(&job, o->steps < 1000 ? o->steps : 1000);

    tut_csv *csv = tut_csv_open(o->outdir, csv_name,
                                "variant,config,points,steps,ms,us_per_step");
    printf("%-12s %-14s %12s %12s\n", "variant", "config", "ms", "us/step");
    int profiled = 0;
    for (int v = 0; v < V_COUNT; ++v) {
        if (!variant_runs(v, o->variant, &job))
            continue;
        const int sweeps = (sweep && v == V_SHARED) ? 4 : 1;
        for (int w = 0; w < sweeps; ++w) {
            char config[64] = "";
            if (sweeps > 1) {
                job.threads = 128 << w;
                snprintf(config, sizeof config, "threads=%d", job.threads);
            } else if (v == V_REGISTERS) {
                snprintf(config, sizeof config, "points/thread=%d",
                         heat_block_registers_points_per_thread());
            } else if (v == V_TEMPORAL) {
                snprintf(config, sizeof config, "tile=%d halo=%d", job.tile, job.halo);
            }
            const int good = check_variant(v, &job, config, start, want, got);
            ok &= good;
            if (good && !profiled && o->outdir && n <= (1u << 20)) {
                tut_csv *p = tut_csv_open(o->outdir, "profiles.csv",
                                          "i,start,one_percent,ten_percent,final_cpu,final_gpu");
                tut_csv_comment(p, "%zu points, k = %g, snapshots at steps 0, %lld, %lld, %lld",
                                n, o->k, o->steps / 100, o->steps / 10, o->steps);
                for (size_t i = 0; i < n; ++i)
                    tut_csv_row(p, "%zu,%.17g,%.17g,%.17g,%.17g,%.17g", i, snap[0][i], snap[1][i],
                                snap[2][i], want[i], got[i]);
                tut_csv_close(p);
                profiled = 1;
            }
            if (!good)
                continue;
            const double ms = time_variant(v, &job, (int)o->reps);
            const double us_step = o->steps ? 1e3 * ms / (double)o->steps : 0.0;
            printf("%-12s %-14s %12.3f %12.4f\n", variant_names[v], config, ms, us_step);
            tut_csv_row(csv, "%s,%s,%zu,%lld,%.6f,%.6f", variant_names[v],
                        config[0] ? config : "default", n, o->steps, ms, us_step);
        }
        job.threads = (int)o->threads;
    }
    tut_csv_close(csv);

    heat_graph_destroy(&job);
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

/* Every variant that applies, checked on a short run, then timed on a long one, beside a
 * device-to-device copy of the rod (the ceiling of any kernel that reads and writes it once). */
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
                                "variant,config,points,steps,ms,us_per_step,gbps,ratio_to_memcpy");
    CUDA_CHECK(cudaMemcpy(job.a, start, bytes, cudaMemcpyHostToDevice));
    const double copy_ms = tut_time_gpu(copy_for_timer, &job, 2, 20).median_ms;
    const double copy_gbps = 2.0 * bytes / copy_ms / 1e6;
    printf("%-12s %-20s %10s %10s %10s %8s\n", "variant", "config", "ms", "us/step",
           "GB/s", "/memcpy");
    printf("%-12s %-20s %10.3f %10.2f %10.0f %8.2f\n", "memcpy", "read+write", copy_ms,
           1e3 * copy_ms, copy_gbps, 1.0);
    tut_csv_row(csv, "memcpy,read+write,%zu,1,%.6f,%.3f,%.1f,1.000", n, copy_ms, 1e3 * copy_ms,
                copy_gbps);

    /* Temporal blocking: a few (tile, halo) pairs around the default. */
    const int tiles[] = {2048, 2048, 2048, 2048, 2048, 1024, 4096};
    const int halos[] = {4, 8, 16, 32, 64, 32, 32};
    int ok = 1;
    for (int v = 0; v < V_COUNT; ++v) {
        if (!variant_runs(v, o->variant, &job))
            continue;
        const int configs = v == V_TEMPORAL ? TUT_COUNT(tiles) : 1;
        for (int c = 0; c < configs; ++c) {
            char config[64] = "";
            job.tile = v == V_TEMPORAL ? tiles[c] : (int)o->tile;
            job.halo = v == V_TEMPORAL ? halos[c] : (int)o->halo;
            if (v == V_TEMPORAL)
                snprintf(config, sizeof config, "tile=%d halo=%d", job.tile, job.halo);
            job.steps = check_steps;
            if (v == V_GRAPH)
                heat_graph_prepare(&job, 16);
            const int good = check_variant(v, &job, config, start, want, got);
            ok &= good;
            job.steps = o->bench_steps;
            if (good) {
                const double ms = time_variant(v, &job, (int)o->reps);
                const double per_step = ms / (double)o->bench_steps;
                /* Naive-equivalent bandwidth: 16 bytes per point and step (read + write). */
                const double gbps = 16.0 * (double)n / per_step / 1e6;
                printf("%-12s %-20s %10.3f %10.2f %10.0f %8.2f\n", variant_names[v],
                       config[0] ? config : "default", ms, 1e3 * per_step, gbps,
                       gbps / copy_gbps);
                tut_csv_row(csv, "%s,%s,%zu,%lld,%.6f,%.3f,%.1f,%.3f", variant_names[v],
                            config[0] ? config : "default", n, o->bench_steps, ms,
                            1e3 * per_step, gbps, gbps / copy_gbps);
            }
            if (v == V_GRAPH)
                heat_graph_destroy(&job);
        }
    }
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

int main(int argc, char **argv)
{
    options o = {1001, TUT_DEFAULT_SEED, 1u << 24, 10000, 256, 2048, 32, 0, 5, 0.25,
                 0, INIT_SPIKE, 0, NULL};
    const tut_option opts[] = {
        {"--points", TUT_OPT_SIZE, &o.points, "points on the rod (at least 2)", 2, 1e12, NULL},
        {"--steps", TUT_OPT_INT, &o.steps, "time steps", 0, 1e9, NULL},
        {"--k", TUT_OPT_DOUBLE, &o.k, "alpha dt / dx^2; stable for 0 < k <= 0.5", 1, 0, NULL},
        {"--variant", TUT_OPT_CHOICE, &o.variant, "which variant to run", 0, 0, VARIANT_CHOICES},
        {"--init", TUT_OPT_CHOICE, &o.init, "start: the document's hot middle, or random",
         0, 0, "spike|random"},
        {"--seed", TUT_OPT_SIZE, &o.seed, "seed of the random start", 0, 1.8e19, NULL},
        {"--threads", TUT_OPT_INT, &o.threads, "threads per block (0: each variant's default)",
         0, 1024, NULL},
        {"--tile", TUT_OPT_INT, &o.tile, "temporal: points per block", 1, 8192, NULL},
        {"--halo", TUT_OPT_INT, &o.halo, "temporal: steps per launch (= halo width)", 1, 1024,
         NULL},
        {"--reps", TUT_OPT_INT, &o.reps, "timed repetitions (median)", 1, 1000, NULL},
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
    if ((most_points + o.tile - 1) / o.tile > 2147483647ull) {
        fprintf(stderr, "error: --tile %lld cuts %llu points into more than 2^31 - 1 blocks\n",
                o.tile, most_points);
        return 2;
    }

    const int uses_cooperative = o.variant == 0 || o.variant == V_COOPERATIVE + 1;
    tut_select_device(6, 0, uses_cooperative ? TUT_NEED_COOPERATIVE_LAUNCH : TUT_NEED_NOTHING);

    /* Asked for by name, a one-block variant that cannot hold the rod is bad input. */
    if (o.variant == V_SHARED + 1 || o.variant == V_REGISTERS + 1) {
        const size_t cap = o.variant == V_SHARED + 1 ? heat_shared_block_capacity()
                                                     : heat_block_registers_capacity();
        if (o.points > cap) {
            fprintf(stderr, "error: --variant %s holds at most %zu points in one block, not "
                            "%llu: use cooperative, launch, graph or temporal\n",
                    variant_names[o.variant - 1], cap, o.points);
            return 2;
        }
    }
    const size_t band_bytes = 2 * (size_t)(o.tile + 2 * o.halo) * sizeof(double);
    if (band_bytes > tut_current_device()->shared_per_block_optin) {
        fprintf(stderr, "error: --tile %lld with --halo %lld needs %zu bytes of shared memory per "
                        "block; this GPU gives a block at most %zu\n",
                o.tile, o.halo, band_bytes, tut_current_device()->shared_per_block_optin);
        return 2;
    }
    if (!tut_device_fits(2 * tut_bytes(o.points, sizeof(double), "rod"), 64u << 20)) {
        fprintf(stderr, "error: two buffers of %llu points do not fit on this GPU\n", o.points);
        return 2;
    }

    int ok = solve_problem(&o, o.bench, o.bench ? "seed_timings.csv" : "timings.csv");
    if (o.bench)
        ok &= large_rod(&o);
    return tut_finish(ok);
}
