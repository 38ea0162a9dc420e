/* The chapter's driver: runs the kernel variants on one problem, checks each against a float64
 * CPU reference (or against cuBLAS, itself checked against sampled CPU rows, where a full CPU
 * product would take too long), then times it and reports GFLOP/s and the percentage of cuBLAS
 * FP32 measured in the same run.
 *
 *   matmul_demo                       the documents' examples (4x4, 5x23x7, 1000x1000), checked
 *   matmul_demo --m 1000 --k 777 --n 513 [--variant tiled] [--reps 10] [--no-check]
 *   matmul_demo --bench --outdir DIR  the benchmark behind the docs' tables and plots
 *   matmul_demo --pitfall both        the documents' TPB = 3 kernel, buggy then fixed */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutorial.h"
#include "layout.h"
#include "matmul.h"
#include "variants.h"

/* Above this many multiply-adds the CPU reference computes sampled rows only. */
#define FULL_REFERENCE_MAX_MACS 1.2e9
#define SAMPLED_ROWS 12
/* Sizes are ints in the kernels; the margin keeps `k0 += tile` loops from overflowing. */
#define MAX_DIM (INT_MAX - 255)

typedef enum { INPUT_RANDOM, INPUT_POSITIVE, INPUT_ARANGE_ONES } input_kind;

typedef struct {
    int check;
    int reps;
    unsigned long long seed;
    tut_csv *csv; /* one row per variant: "m,n,k,variant,ms,gflops,pct_cublas,max_rel_err,..." */
} run_options;

typedef struct {
    double ms, gflops, pct_cublas, max_rel_err, mean_rel_err;
    int ran;
} variant_result;

typedef struct {
    const matmul_variant *v;
    matmul_args args;
} timed_job;

/* A grid has at most 65535 blocks in y (and z). The kernels put rows of C on y (columns, for
 * naive_strided), so a matrix taller than MAX_SLAB is computed in slabs of rows and columns:
 * each slab is an ordinary product on sub-matrices, since every kernel takes leading
 * dimensions. MAX_SLAB is 65535 x 16, a multiple of every tile size and of 4 (float4 rows). */
#define MAX_SLAB (65535 * 16)

static void run_timed_job(void *p)
{
    const timed_job *job = (const timed_job *)p;
    const matmul_args *a = &job->args;
    for (int r0 = 0; r0 < a->M; r0 += MAX_SLAB) {
        for (int c0 = 0; c0 < a->N; c0 += MAX_SLAB) {
            matmul_args slab = *a;
            slab.M = a->M - r0 < MAX_SLAB ? a->M - r0 : MAX_SLAB;
            slab.N = a->N - c0 < MAX_SLAB ? a->N - c0 : MAX_SLAB;
            slab.A = a->A + (size_t)r0 * a->lda;
            slab.B = a->B + c0;
            slab.C = a->C + (size_t)r0 * a->ldc + c0;
            job->v->launch(&slab);
        }
    }
}

static void fill_inputs(input_kind kind, unsigned long long seed, float *A, float *B, int M, int N,
                        int K)
{
    const size_t a_n = (size_t)M * K, b_n = (size_t)K * N;
    tut_rng rng;
    tut_rng_seed(&rng, seed);
    if (kind == INPUT_ARANGE_ONES) { /* the documents' inputs: exact small integers */
        for (size_t i = 0; i < a_n; ++i)
            A[i] = (float)i;
        for (size_t i = 0; i < b_n; ++i)
            B[i] = 1.0f;
    } else if (kind == INPUT_POSITIVE) { /* the blog's: uniform in [0, 1) */
        tut_rng_fill_f32(&rng, A, a_n, 0.0f, 1.0f);
        tut_rng_fill_f32(&rng, B, b_n, 0.0f, 1.0f);
    } else { /* signed: cancellation in the sums, so a lost term shows */
        tut_rng_fill_f32(&rng, A, a_n, -1.0f, 1.0f);
        tut_rng_fill_f32(&rng, B, b_n, -1.0f, 1.0f);
    }
}

/* The rows the reference covers: all of them, or the first, the last and random ones. */
static int choose_rows(int M, int full, unsigned long long seed, int *rows)
{
    if (full)
        return 0;
    tut_rng rng;
    tut_rng_seed(&rng, seed ^ 0x5eedull);
    int n = 0;
    rows[n++] = 0;
    if (M > 1)
        rows[n++] = M - 1;
    while (n < SAMPLED_ROWS && n < M)
        rows[n++] = (int)tut_rng_below(&rng, (uint64_t)M);
    return n;
}

/* Runs the selected variants on one M x K times K x N problem. Returns 1 if all passed. */
static int run_problem(int M, int N, int K, input_kind inputs, const int *selected, int nselected,
                       const run_options *o, variant_result *results)
{
    const size_t a_n = (size_t)M * K, b_n = (size_t)K * N, c_n = (size_t)M * N;
    const double flops = 2.0 * M * N * (double)K;
    const int full = (double)M * N * K <= FULL_REFERENCE_MAX_MACS;
    const double max_in = inputs == INPUT_ARANGE_ONES ? (double)(a_n - 1) : 1.0;
    double atol = matmul_atol(K, max_in), rtol = 4.0 * sqrt((double)K) * FLT_EPSILON;
    if (inputs == INPUT_ARANGE_ONES)
        atol = 0.0; /* small integers: every variant must be exact */
    printf("\n== %d x %d times %d x %d (%s inputs, seed %llu): %.3g GFLOP, reference: %s\n", M, K,
           K, N, inputs == INPUT_RANDOM ? "random [-1,1)" : inputs == INPUT_POSITIVE ? "random [0,1)"
                                                                                 : "arange x ones",
           o->seed, flops * 1e-9, full ? "full float64 CPU product" : "sampled CPU rows + cuBLAS");

    float *a_host = (float *)tut_host_alloc(tut_bytes(a_n, sizeof(float), "A"), "host A");
    float *b_host = (float *)tut_host_alloc(tut_bytes(b_n, sizeof(float), "B"), "host B");
    float *c_host = (float *)tut_host_alloc(tut_bytes(c_n, sizeof(float), "C"), "host C");
    fill_inputs(inputs, o->seed, a_host, b_host, M, N, K);

    int rows[SAMPLED_ROWS];
    const int nrows = choose_rows(M, full, o->seed, rows);
    double *ref = NULL;
    float *c_rows = NULL, *c_cublas = NULL;
    if (o->check) {
        const double t0 = tut_cpu_seconds();
        if (full) {
            ref = (double *)tut_host_alloc(tut_bytes(c_n, sizeof(double), "ref"), "reference");
            cpu_matmul_f64(M, N, K, a_host, b_host, ref, 0, M);
        } else {
            ref = (double *)tut_host_alloc(tut_bytes((size_t)nrows * N, sizeof(double), "ref"),
                                           "reference rows");
            c_rows = (float *)tut_host_alloc(tut_bytes((size_t)nrows * N, sizeof(float), "rows"),
                                             "result rows");
            c_cublas = (float *)tut_host_alloc(tut_bytes(c_n, sizeof(float), "C"), "cuBLAS C");
            for (int r = 0; r < nrows; ++r)
                cpu_matmul_f64(M, N, K, a_host, b_host, ref + (size_t)r * N, rows[r], rows[r] + 1);
        }
        printf("CPU reference: %.2f s\n", tut_cpu_seconds() - t0);
    }

    float *A = (float *)tut_device_alloc(a_n * sizeof(float), "A");
    float *B = (float *)tut_device_alloc(b_n * sizeof(float), "B");
    float *C = (float *)tut_device_alloc(c_n * sizeof(float), "C");
    CUDA_CHECK(cudaMemcpy(A, a_host, a_n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B, b_host, b_n * sizeof(float), cudaMemcpyHostToDevice));
    const matmul_args dense = {M, N, K, A, B, C, (size_t)K, (size_t)N, (size_t)N};

    /* Without a full reference, cuBLAS is checked on the sampled rows and its whole result is
     * the reference for the others: run it first even when not selected. */
    int ok = 1;
    double cublas_ms = 0.0;
    int order[MATMUL_VARIANT_COUNT + 1], norder = 0;
    if (!full && o->check && selected[0] != 0)
        order[norder++] = 0;
    for (int s = 0; s < nselected; ++s)
        order[norder++] = selected[s];

    for (int s = 0; s < norder; ++s) {
        const int vi = order[s];
        const matmul_variant *v = &matmul_variants[vi];
        char label[160];
        snprintf(label, sizeof label, "%s %dx%dx%d", v->name, M, K, N);
        matmul_prepared p;
        prepare_layout(&dense, v->layout, &p);
        timed_job job = {v, p.args};
        int passed = 1;
        tut_errors e = {0, 0, 0, 0.0, 0.0, 0.0};
        if (o->check) {
            poison_result(&p);
            run_timed_job(&job);
            CUDA_CHECK(cudaDeviceSynchronize());
            fetch_result(&p, c_host);
            /* TF32 rounds inputs to 10 mantissa bits: errors ~1e-3 relative per product. */
            const double at = v->tf32 ? 8.0 * sqrt((double)K) * ldexp(1.0, -10) * max_in * max_in
                                      : atol;
            const double rt = v->tf32 ? 1e-2 : rtol;
            if (full) {
                passed = tut_check_f32_f64(label, c_host, ref, c_n, at, rt, &e);
            } else {
                for (int r = 0; r < nrows; ++r)
                    memcpy(c_rows + (size_t)r * N, c_host + (size_t)rows[r] * N,
                           sizeof(float) * (size_t)N);
                passed = tut_check_f32_f64(label, c_rows, ref, (size_t)nrows * N, at, rt, &e);
                if (vi == 0) {
                    memcpy(c_cublas, c_host, c_n * sizeof(float));
                } else {
                    char label2[200];
                    tut_errors e2;
                    snprintf(label2, sizeof label2, "%s vs cuBLAS", label);
                    passed &= tut_check_f32(label2, c_host, c_cublas, c_n, 2.0 * at, 2.0 * rt, &e2);
                }
            }
        }
        ok &= passed;
        /* Slow variants get fewer repetitions: a probe run says how slow. */
        int reps = o->reps, warmup = 2;
        if (reps > 1) {
            const double probe_ms = tut_time_gpu(run_timed_job, &job, 1, 1).median_ms;
            if (probe_ms * reps > 1500.0) {
                reps = probe_ms > 750.0 ? 2 : (int)(1500.0 / probe_ms) + 1;
                warmup = 0;
            }
        }
        const tut_timing t = tut_time_gpu(run_timed_job, &job, warmup, reps);
        release_layout(&p);
        if (vi == 0)
            cublas_ms = t.median_ms;
        const double gflops = flops / (t.median_ms * 1e6);
        const double pct = cublas_ms > 0.0 ? 100.0 * cublas_ms / t.median_ms : 0.0;
        printf("%-15s %dx%dx%d: %10.4f ms %10.1f GFLOP/s %7.1f %% of cuBLAS FP32%s\n", v->name, M,
               K, N, t.median_ms, gflops, pct, passed ? "" : "   WRONG RESULT");
        if (results) {
            variant_result res = {t.median_ms, gflops, pct, e.max_rel_err, e.mean_rel_err, 1};
            results[vi] = res;
        }
        tut_csv_row(o->csv, "%d,%d,%d,%s,%.5f,%.1f,%.2f,%.3g,%.3g,%d", M, N, K, v->name,
                    t.median_ms, gflops, pct, e.max_rel_err, e.mean_rel_err, passed);
    }

    tut_device_free(A);
    tut_device_free(B);
    tut_device_free(C);
    free(a_host);
    free(b_host);
    free(c_host);
    free(ref);
    free(c_rows);
    free(c_cublas);
    return ok;
}

/* Refuses sizes whose operands cannot fit: before any GPU work when no GPU could hold them, and
 * after selecting the device against its free memory (padded copies may double the need). */
static size_t problem_bytes(unsigned long long M, unsigned long long N, unsigned long long K)
{
    const double bytes = 4.0 * ((double)M * K + (double)K * N + (double)M * N);
    if (bytes > 1099511627776.0) { /* 1 TiB: more than any GPU has */
        fprintf(stderr, "matmul: %llu x %llu times %llu x %llu needs %.3g GiB: too large\n", M,
                K, K, N, bytes / 1073741824.0);
        exit(2);
    }
    return (size_t)bytes;
}

int main(int argc, char **argv)
{
    unsigned long long m = 0, n = 0, k = 0, reps = 10, seed = TUT_DEFAULT_SEED;
    int variant = 0, no_check = 0, bench = 0, pitfall = 0;
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--m", TUT_OPT_SIZE, &m, "rows of A and C", 1, MAX_DIM, NULL},
        {"--k", TUT_OPT_SIZE, &k, "columns of A, rows of B", 1, MAX_DIM, NULL},
        {"--n", TUT_OPT_SIZE, &n, "columns of B and C", 1, MAX_DIM, NULL},
        {"--variant", TUT_OPT_CHOICE, &variant, "kernel to run", 0, 0, MATMUL_VARIANT_CHOICES},
        {"--reps", TUT_OPT_SIZE, &reps, "timed repetitions (median reported)", 1, 1000, NULL},
        {"--no-check", TUT_OPT_FLAG, &no_check, "skip the CPU/cuBLAS check", 0, 0, NULL},
        {"--seed", TUT_OPT_SIZE, &seed, "seed of the random inputs", 0, 1.8e19, NULL},
        {"--bench", TUT_OPT_FLAG, &bench, "the benchmark: 4096^3, the documents' sizes, a sweep",
         0, 0, NULL},
        {"--pitfall", TUT_OPT_CHOICE, &pitfall,
         "the documents' TPB=3 kernel: both, or one alone (for compute-sanitizer)", 0, 0,
         "none|both|buggy|fixed"},
        {"--outdir", TUT_OPT_STRING, &outdir, "write CSV results into this folder", 0, 0, NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "matmul_demo: C = A B in FP32, from the naive kernel to cuBLAS speed",
                      opts, TUT_COUNT(opts));
    const int custom = m || n || k;
    if (custom && !(m && n && k)) {
        fprintf(stderr, "matmul_demo: give all of --m, --k and --n (or none)\n");
        return 2;
    }
    if (custom && (bench || pitfall)) {
        fprintf(stderr, "matmul_demo: --m/--k/--n do not combine with --bench or --pitfall\n");
        return 2;
    }
    const size_t custom_bytes = custom ? problem_bytes(m, n, k) : 0;

    tut_select_device(7, 5, TUT_NEED_NOTHING);
    if (custom && !tut_device_fits(2 * custom_bytes, (size_t)256 << 20)) {
        char need[32];
        fprintf(stderr, "matmul: %llu x %llu times %llu x %llu needs %s (twice that with padded "
                "copies): more than this GPU has free\n", m, k, k, n,
                tut_format_bytes((double)custom_bytes, need, sizeof need));
        return 2;
    }
    if (pitfall)
        return tut_finish(run_pitfall_demo(pitfall == 2, pitfall == 3));

    run_options o = {!no_check, (int)reps, seed, NULL};
    int selected[MATMUL_VARIANT_COUNT], nsel = 0;
    for (int i = 0; i < MATMUL_VARIANT_COUNT; ++i)
        if (variant == 0 || variant == i + 1)
            selected[nsel++] = i;
    const char *header = "m,n,k,variant,ms,gflops,pct_cublas,max_rel_err,mean_rel_err,passed";
    int ok = 1;

    if (custom) {
        o.csv = tut_csv_open(outdir, "custom.csv", header);
        ok = run_problem((int)m, (int)n, (int)k, INPUT_RANDOM, selected, nsel, &o, NULL);
        tut_csv_close(o.csv);
    } else if (!bench) {
        /* The documents' examples. */
        ok &= run_pitfall_demo(0, 0);
        o.reps = 3;
        ok &= run_problem(4, 4, 4, INPUT_ARANGE_ONES, selected, nsel, &o, NULL);
        ok &= run_problem(5, 7, 23, INPUT_ARANGE_ONES, selected, nsel, &o, NULL);
        o.csv = tut_csv_open(outdir, "precision.csv", header);
        ok &= run_problem(1000, 1000, 1000, INPUT_POSITIVE, selected, nsel, &o, NULL);
        tut_csv_close(o.csv);
    } else {
        /* 1. Every variant at 4096^3: the table and the bar chart. */
        o.csv = tut_csv_open(outdir, "variants_4096.csv", header);
        ok &= run_problem(4096, 4096, 4096, INPUT_RANDOM, selected, nsel, &o, NULL);
        tut_csv_close(o.csv);
        /* 2. The documents' sizes: the blog's 1000^3 and the streams blog's 6000x4800x4000. */
        o.csv = tut_csv_open(outdir, "documents.csv", header);
        ok &= run_problem(1000, 1000, 1000, INPUT_POSITIVE, selected, nsel, &o, NULL);
        ok &= run_problem(6000, 4000, 4800, INPUT_RANDOM, selected, nsel, &o, NULL);
        tut_csv_close(o.csv);
        /* 3. GFLOP/s against size for the faster variants. */
        static const int sizes[] = {256, 512, 1024, 2048, 3072, 4096, 6144, 8192};
        int sweep[MATMUL_VARIANT_COUNT], nsweep = 0;
        for (int s = 0; s < nsel; ++s)
            if (matmul_variants[selected[s]].sweep && !matmul_variants[selected[s]].slow)
                sweep[nsweep++] = selected[s];
        o.csv = tut_csv_open(outdir, "sizes.csv", header);
        for (int i = 0; i < TUT_COUNT(sizes); ++i)
            ok &= run_problem(sizes[i], sizes[i], sizes[i], INPUT_RANDOM, sweep, nsweep, &o, NULL);
        tut_csv_close(o.csv);
    }
    cublas_matmul_destroy();
    return tut_finish(ok);
}
