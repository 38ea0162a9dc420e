/* Tuning candidates for the fused kernel (3_fused_philox.cu), 1/x with the shifted conversion and
 * the bare counter: each checked, then timed against "Philox alone" (ceiling.cu) in the same run,
 * interleaved (philox, v1, v2, ..., philox, v1, ...). Not part of the lesson: a measuring tool.
 *
 *   montecarlo_perf --check                 every candidate at odd sizes against the default
 *                                           kernel and the exact integral (exit 0 pass, 1 wrong,
 *                                           77 no GPU)
 *   montecarlo_perf --bench [--samples N] [--reps R] [--csv FILE] [--only NAME]
 *                                           the table: ms median (min-max), G samples/s, % of
 *                                           Philox alone (median of the per-round ratios); --only:
 *                                           time that candidate alone (for a profiler)
 *
 * The candidates (one template, three switches):
 *   MINB   __launch_bounds__(256, MINB): 0 none (the compiler's choice), 4 (at most 64 registers:
 *          4 blocks/SM), 5 (at most 48), 6 (at most 40). The default kernel holds every integrand
 *          and both generators in one body: 69 registers on sm_90, where this file's copy of the
 *          counter loop alone takes 63 (CUDA 13.0);
 *   LANES  4: four float lanes (the default kernel's order: bit-identical stream sums); 8: two
 *          sets of four, two calls a trip, one into each (shorter add chains; another order);
 *   FULL   1: a stream of MC_STREAM_SAMPLES takes a loop of a constant trip count (256 calls, no
 *          remainder test), the short last stream the general loop. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutorial.h"

#include "block_reduce.cuh"
#include "estimator.h"
#include "variants.h"

#define PERF_ROUNDS 10
typedef struct {
    unsigned lo[PERF_ROUNDS], hi[PERF_ROUNDS];
} perf_keys;

static perf_keys perf_keys_of(unsigned long long seed)
{
    perf_keys k;
    for (int r = 0; r < PERF_ROUNDS; ++r) {
        k.lo[r] = (unsigned)seed + (unsigned)r * 0x9E3779B9u;
        k.hi[r] = (unsigned)(seed >> 32) + (unsigned)r * 0xBB67AE85u;
    }
    return k;
}

static __device__ __forceinline__ uint4 perf_philox(uint4 c, const perf_keys &keys)
{
#pragma unroll
    for (int r = 0; r < PERF_ROUNDS; ++r) {
        const unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
        const unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
        c = make_uint4(hi1 ^ c.y ^ keys.lo[r], lo1, hi0 ^ c.w ^ keys.hi[r], lo0);
    }
    return c;
}

static __device__ __forceinline__ void perf_add(unsigned r, float offset, float width, float *sum,
                                                float *sq)
{
    const float f = mc_eval(MC_INV, fmaf(width, mc_uniform_shifted(r), offset));
    *sum += f;
    *sq = fmaf(f, f, *sq);
}

/* Call k of stream (s_lo, s_hi) into lane set `set` (0 or 1) of sum[8], sq[8]. */
static __device__ __forceinline__ void perf_call(unsigned k, unsigned s_lo, unsigned s_hi,
                                                 unsigned count, int set, const perf_keys &keys,
                                                 float offset, float width, float sum[8],
                                                 float sq[8])
{
    const uint4 r = perf_philox(make_uint4(k, 0, s_lo, s_hi), keys);
    const int b = 4 * set;
    perf_add(r.x, offset, width, &sum[b], &sq[b]);
    if (count > 1)
        perf_add(r.y, offset, width, &sum[b + 1], &sq[b + 1]);
    if (count > 2)
        perf_add(r.z, offset, width, &sum[b + 2], &sq[b + 2]);
    if (count > 3)
        perf_add(r.w, offset, width, &sum[b + 3], &sq[b + 3]);
}

/* `calls` whole Philox calls from call 0: with LANES 8, two calls a trip, one into each set of
 * four lanes (set indices stay compile-time constants: the lanes stay in registers). */
template <int LANES>
static __device__ __forceinline__ void perf_calls(unsigned calls, unsigned s_lo, unsigned s_hi,
                                                  const perf_keys &keys, float offset,
                                                  float width, float sum[8], float sq[8])
{
    if (LANES == 8) {
#pragma unroll 2
        for (unsigned k = 0; k + 1 < calls; k += 2) {
            perf_call(k, s_lo, s_hi, 4, 0, keys, offset, width, sum, sq);
            perf_call(k + 1, s_lo, s_hi, 4, 1, keys, offset, width, sum, sq);
        }
        if (calls & 1)
            perf_call(calls - 1, s_lo, s_hi, 4, 0, keys, offset, width, sum, sq);
    } else {
#pragma unroll 4
        for (unsigned k = 0; k < calls; ++k)
            perf_call(k, s_lo, s_hi, 4, 0, keys, offset, width, sum, sq);
    }
}

template <int LANES, int FULL>
static __device__ __forceinline__ double2 perf_stream(const perf_keys &keys,
                                                      unsigned long long s, unsigned len,
                                                      float offset, float width)
{
    const unsigned s_lo = (unsigned)s, s_hi = (unsigned)(s >> 32);
    float sum[8] = {0, 0, 0, 0, 0, 0, 0, 0}, sq[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    if (FULL && len == MC_STREAM_SAMPLES) {
        perf_calls<LANES>(MC_STREAM_SAMPLES / 4, s_lo, s_hi, keys, offset, width, sum, sq);
    } else {
        perf_calls<LANES>(len / 4, s_lo, s_hi, keys, offset, width, sum, sq);
        if (len % 4 != 0) /* only the last stream of all can be short */
            perf_call(len / 4, s_lo, s_hi, len % 4, 0, keys, offset, width, sum, sq);
    }
    if (LANES == 8)
        for (int j = 0; j < 4; ++j) {
            sum[j] += sum[j + 4];
            sq[j] += sq[j + 4];
        }
    return make_double2((double)((sum[0] + sum[1]) + (sum[2] + sum[3])),
                        (double)((sq[0] + sq[1]) + (sq[2] + sq[3])));
}

template <int LANES, int FULL>
static __device__ __forceinline__ void perf_body(const mc_problem p, const perf_keys &keys,
                                                 double2 *partials)
{
    const float a = (float)p.a, width = (float)(p.b - p.a);
    const float offset = mc_sample_offset(MC_UNIFORM_SHIFTED, a, width);
    const unsigned long long streams = mc_stream_count(p.samples);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    double2 acc = make_double2(0.0, 0.0);
    for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         s < streams; s += stride) {
        const double2 part =
            perf_stream<LANES, FULL>(keys, s, mc_stream_length(p.samples, s), offset, width);
        acc.x += part.x;
        acc.y += part.y;
    }
    acc = mc_block_sum(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

/* MINB 0: no minimum (the default kernel's __launch_bounds__(256)). */
template <int LANES, int FULL>
__global__ void __launch_bounds__(MC_FUSED_THREADS)
    perf_kernel_free(const mc_problem p, const __grid_constant__ perf_keys keys, double2 *partials)
{
    perf_body<LANES, FULL>(p, keys, partials);
}
template <int MINB, int LANES, int FULL>
__global__ void __launch_bounds__(MC_FUSED_THREADS, MINB)
    perf_kernel_min(const mc_problem p, const __grid_constant__ perf_keys keys, double2 *partials)
{
    perf_body<LANES, FULL>(p, keys, partials);
}

typedef void (*perf_kernel_fn)(const mc_problem, const perf_keys, double2 *);

typedef struct {
    const char *name, *what;
    perf_kernel_fn kernel; /* NULL: the default kernel itself (mc_fused_run) */
    int same_order;        /* the default kernel's float adds: its sums within 1e-10 */
} candidate;

static const candidate candidates[] = {
    {"default", "3_fused_philox.cu as it is (counter, shifted, most blocks/SM)", NULL, 1},
    {"copy", "this file's copy, no min blocks (must equal default)", perf_kernel_free<4, 0>, 1},
    {"lb4", "__launch_bounds__(256, 4)", perf_kernel_min<4, 4, 0>, 1},
    {"lb5", "__launch_bounds__(256, 5)", perf_kernel_min<5, 4, 0>, 1},
    {"full", "constant trip count for full streams", perf_kernel_free<4, 1>, 1},
    {"lanes8", "8 float lanes (2 sets, calls alternate)", perf_kernel_free<8, 0>, 0},
    {"lb4_full", "lb4 + full", perf_kernel_min<4, 4, 1>, 1},
    {"lb4_lanes8", "lb4 + lanes8", perf_kernel_min<4, 8, 0>, 0},
    {"lb5_full", "lb5 + full", perf_kernel_min<5, 4, 1>, 1},
    {"lb4_full_lanes8", "lb4 + full + lanes8", perf_kernel_min<4, 8, 1>, 0},
    {"lb5_lanes8", "lb5 + lanes8", perf_kernel_min<5, 8, 0>, 0},
    {"lb5_full_lanes8", "lb5 + full + lanes8", perf_kernel_min<5, 8, 1>, 0},
    {"lb6_lanes8", "__launch_bounds__(256, 6) + lanes8", perf_kernel_min<6, 8, 0>, 0},
};
#define CANDIDATES ((int)(sizeof candidates / sizeof candidates[0]))

typedef struct {
    const candidate *c;
    mc_problem p;
    perf_keys keys;
    mc_fused_job fused; /* the default kernel's job (candidate "default" only) */
    int blocks, blocks_per_sm, regs;
    double2 *partials, *result;
} perf_job;

static void perf_create(perf_job *j, const candidate *c, const mc_problem *p)
{
    j->c = c;
    j->p = *p;
    j->keys = perf_keys_of(p->seed);
    if (!c->kernel) {
        mc_fused_create(&j->fused, p, MC_UNIFORM_SHIFTED, MC_GENERATOR_COUNTER, 0, 0);
        const mc_launch plan = mc_fused_plan(0, p->samples);
        j->blocks = j->fused.blocks;
        j->blocks_per_sm = plan.blocks_per_sm;
        j->regs = 0; /* the default kernel is static in 3_fused_philox.cu: not known here */
        j->partials = j->fused.partials;
        j->result = j->fused.result;
        return;
    }
    const tut_kernel_use use = tut_kernel_use_of((const void *)c->kernel, MC_FUSED_THREADS, 0);
    const mc_launch plan = mc_fused_launch(tut_current_device(), use.regs_per_thread,
                                           use.static_shared, 0, p->samples);
    if (plan.blocks < 1) {
        fprintf(stderr, "%s: %s\n", c->name, plan.why);
        exit(1);
    }
    j->blocks = (int)plan.blocks;
    j->blocks_per_sm = plan.blocks_per_sm;
    j->regs = use.regs_per_thread;
    j->partials = (double2 *)tut_device_alloc(j->blocks * sizeof(double2), "partials");
    j->result = (double2 *)tut_device_alloc(sizeof(double2), "result");
    CUDA_CHECK(cudaMemset(j->partials, 0xFF, j->blocks * sizeof(double2)));
    CUDA_CHECK(cudaMemset(j->result, 0xFF, sizeof(double2)));
}

static void perf_run(void *arg)
{
    perf_job *j = (perf_job *)arg;
    if (!j->c->kernel) {
        mc_fused_run(&j->fused);
        return;
    }
    j->c->kernel<<<j->blocks, MC_FUSED_THREADS>>>(j->p, j->keys, j->partials);
    LAUNCH_CHECK();
    mc_reduce_partials(j->partials, j->blocks, j->result);
}

static void perf_destroy(perf_job *j)
{
    if (j->c->kernel) {
        tut_device_free(j->partials);
        tut_device_free(j->result);
    } else {
        mc_fused_destroy(&j->fused);
    }
}

static void philox_run(void *arg) { mc_philox_ceiling_run((mc_philox_job *)arg); }

/* Every candidate at sizes around the stream (1024), the Philox call (4) and the grid. */
static int check_all(unsigned long long seed)
{
    const unsigned long long sizes[] = {2, 3, 4, 5, 7, 1023, 1024, 1025, 4097, 65537, 1000003,
                                        (1ull << 24) + 1, 1ull << 28};
    int ok = 1;
    for (int s = 0; s < TUT_COUNT(sizes); ++s) {
        const mc_problem p = {MC_INV, 1.0, 2.0, sizes[s], seed + s};
        mc_sums ref = {0, 0, 0};
        for (int c = 0; c < CANDIDATES; ++c) {
            perf_job j;
            perf_create(&j, &candidates[c], &p);
            perf_run(&j);
            const mc_sums got = mc_read_sums(j.result, p.samples);
            perf_destroy(&j);
            if (c == 0)
                ref = got;
            int good = isfinite(got.sum) && isfinite(got.sum_sq);
            /* The same float lanes: each stream's pair is bit-identical, but another grid adds
             * the streams' doubles in another order (positive terms: within streams x 2^-53
             * relative, 3e-11 at 2^28 samples). Another order of the float adds: 1e-6. */
            const double tol = candidates[c].same_order ? 1e-10 : 1e-6;
            good &= fabs(got.sum - ref.sum) <= tol * fabs(ref.sum) &&
                    fabs(got.sum_sq - ref.sum_sq) <= tol * fabs(ref.sum_sq);
            const mc_result r = mc_finish(&got, p.a, p.b);
            const double sig = mc_sigmas(&r, mc_exact(MC_INV, p.a, p.b));
            if (p.samples >= 1000 && !(sig <= 4.0))
                good = 0;
            if (!good)
                printf("  WRONG %-16s n=%llu: sum %.17g (default %.17g), sq %.17g (default "
                       "%.17g), %.2f standard errors\n", candidates[c].name, p.samples, got.sum,
                       ref.sum, got.sum_sq, ref.sum_sq, sig);
            ok &= good;
        }
    }
    printf("%s: %d candidates x %d sizes against the default kernel and the exact integral\n",
           ok ? "PASS" : "FAIL", CANDIDATES, TUT_COUNT(sizes));
    return ok;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int bench_all(unsigned long long n, int reps, unsigned long long seed, const char *csv,
                     const char *only)
{
    if (reps < 1 || reps > 32)
        reps = 3;
    const mc_problem p = {MC_INV, 1.0, 2.0, n, seed};
    perf_job jobs[CANDIDATES];
    int ok = 1;
    for (int c = 0; c < CANDIDATES; ++c) {
        if (only && strcmp(only, candidates[c].name) != 0) {
            jobs[c].c = NULL; /* not created, not timed */
            continue;
        }
        perf_create(&jobs[c], &candidates[c], &p);
        perf_run(&jobs[c]);
        const mc_sums got = mc_read_sums(jobs[c].result, n);
        const mc_result r = mc_finish(&got, p.a, p.b);
        const double sig = mc_sigmas(&r, mc_exact(MC_INV, p.a, p.b));
        if (!(sig <= 4.0)) {
            printf("WRONG %s: %.2f standard errors\n", candidates[c].name, sig);
            ok = 0;
        }
    }
    mc_philox_job ph;
    mc_philox_ceiling_create(&ph, MC_PHILOX_ONLY, 1024);
    const double ph_samples = mc_philox_ceiling_samples(&ph);
    static double ms[CANDIDATES][32], lo[CANDIDATES][32], hi[CANDIDATES][32], ratio[CANDIDATES][32];
    static double ph_ms[32];
    for (int r = 0; r < reps; ++r) {
        const tut_timing t0 = tut_time_gpu_batched(philox_run, &ph, 2, 7, 0);
        ph_ms[r] = t0.median_ms;
        const double ph_gsps = ph_samples / (t0.median_ms * 1e-3) / 1e9;
        for (int c = 0; c < CANDIDATES; ++c) {
            if (!jobs[c].c) {
                ms[c][r] = lo[c][r] = hi[c][r] = ratio[c][r] = 0;
                continue;
            }
            const tut_timing t = tut_time_gpu_batched(perf_run, &jobs[c], 2, 7, 0);
            ms[c][r] = t.median_ms;
            lo[c][r] = t.min_ms;
            hi[c][r] = t.max_ms;
            ratio[c][r] = (double)n / (t.median_ms * 1e-3) / 1e9 / ph_gsps;
        }
    }
    FILE *f = csv ? fopen(csv, "w") : NULL;
    if (f)
        fprintf(f, "variant,regs,blocks_per_sm,ms_median,ms_min,ms_max,gsps,pct_philox_median,"
                   "pct_philox_min,pct_philox_max\n");
    qsort(ph_ms, reps, sizeof(double), cmp_double);
    printf("\nphilox alone: %.3f ms median of %d rounds (%.0f G samples/s)\n", ph_ms[reps / 2],
           reps, ph_samples / (ph_ms[reps / 2] * 1e-3) / 1e9);
    printf("%-16s %4s %6s %9s %19s %12s %10s %15s\n", "variant", "regs", "blk/SM", "ms",
           "(min-max)", "G samples/s", "% philox", "(min-max)");
    for (int c = 0; c < CANDIDATES; ++c) {
        if (!jobs[c].c)
            continue;
        double m[32], rr[32], mn = INFINITY, mx = 0;
        for (int r = 0; r < reps; ++r) {
            m[r] = ms[c][r];
            rr[r] = ratio[c][r];
            mn = fmin(mn, lo[c][r]);
            mx = fmax(mx, hi[c][r]);
        }
        qsort(m, reps, sizeof(double), cmp_double);
        qsort(rr, reps, sizeof(double), cmp_double);
        const double med = m[reps / 2], gsps = (double)n / (med * 1e-3) / 1e9;
        printf("%-16s %4d %6d %9.3f (%8.3f-%8.3f) %12.1f %9.1f%% (%5.1f-%5.1f)  %s\n",
               candidates[c].name, jobs[c].regs, jobs[c].blocks_per_sm, med, mn, mx, gsps,
               100 * rr[reps / 2], 100 * rr[0], 100 * rr[reps - 1], candidates[c].what);
        if (f)
            fprintf(f, "%s,%d,%d,%.4f,%.4f,%.4f,%.1f,%.2f,%.2f,%.2f\n", candidates[c].name,
                    jobs[c].regs, jobs[c].blocks_per_sm, med, mn, mx, gsps, 100 * rr[reps / 2],
                    100 * rr[0], 100 * rr[reps - 1]);
    }
    if (f)
        fclose(f);
    mc_philox_ceiling_destroy(&ph);
    for (int c = 0; c < CANDIDATES; ++c)
        if (jobs[c].c)
            perf_destroy(&jobs[c]);
    return ok;
}

int main(int argc, char **argv)
{
    int check = 0, bench = 0, reps = 3;
    unsigned long long n = 1ull << 32, seed = 20240607ull;
    const char *csv = NULL, *only = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--check"))
            check = 1;
        else if (!strcmp(argv[i], "--bench"))
            bench = 1;
        else if (!strcmp(argv[i], "--samples") && i + 1 < argc)
            n = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "usage: montecarlo_perf --check | --bench [--samples N] [--reps R] "
                            "[--csv FILE] [--only NAME]\n");
            return 2;
        }
    }
    if ((!check && !bench) || n < 2) {
        fprintf(stderr, "usage: montecarlo_perf --check | --bench [--samples N >= 2] [--reps R] "
                        "[--csv FILE]\n");
        return 2;
    }
    tut_select_device(TUT_NEED_NOTHING);
    int ok = 1;
    if (check)
        ok &= check_all(seed);
    if (bench)
        ok &= bench_all(n, reps, seed, csv, only);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
