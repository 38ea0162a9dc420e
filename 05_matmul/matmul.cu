/* The chapter's driver: runs the kernel variants on one problem, checks each against a float64
 * CPU reference (or against cuBLAS, itself checked against sampled CPU rows, where a full CPU
 * product would take too long), then times it and reports GFLOP/s and the percentage of cuBLAS
 * FP32 measured in the same run, timed the same way.
 *
 *   matmul_demo                       the documents' examples (4x4, 5x23x7, 1000x1000), checked
 *   matmul_demo --m 1000 --k 777 --n 513 [--variant tiled] [--reps 10] [--no-check]
 *   matmul_demo --bench --outdir DIR  the benchmark behind the docs' tables and plots
 *   matmul_demo --pitfall both        the documents' kernel as written (TPB = 2, 3), then fixed */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "global_timer.cuh"
#include "tutorial.h"
#include "layout.h"
#include "matmul.h"
#include "variants.h"
#include "call_timing.h"

/* Above this many multiply-adds the CPU reference computes sampled rows only (--reference-macs
 * changes it, so that the tests reach the sampled path on small problems). */
#define FULL_REFERENCE_MAX_MACS 1.2e9
#define SAMPLED_ROWS 12
/* Sizes are ints in the kernels; the margin keeps `k0 += tile` loops from overflowing. */
#define MAX_DIM (INT_MAX - 255)

typedef enum { INPUT_RANDOM, INPUT_POSITIVE, INPUT_ARANGE_ONES } input_kind;

typedef struct {
    int check;
    int reps; /* timed batches; 1: one call, no warm-up (the tests) */
    unsigned long long seed;
    double full_reference_max_macs;
    int ld_extra; /* floats added to every leading dimension (0: dense) */
    int crowd_sms; /* --crowd-sms: SMs held while step 13's checked call starts (0: none) */
    tut_csv *csv;
} run_options;

/* --crowd-sms N, a test of step 13 (13_wgmma_tf32.cu, zero_quarter): no block may wait for a block
 * that has not started, and a block that starts late must not zero a tile again. A kernel on a
 * stream of its own holds N SMs, one block on each with all the shared memory a block may have,
 * so that no other block fits beside it, and spins for CROWD_NS; step 13's checked call starts
 * meanwhile, on the default stream, with only the other SMs free, so some of its blocks start at
 * once and the rest once the crowd has gone. A call that allocated or freed memory (cudaMalloc,
 * cudaFree) would wait for the crowd first, so the variant runs once uncrowded before. */
#define CROWD_NS 50000000ull /* 50 ms */

static __global__ void crowd_kernel(unsigned *started, unsigned long long ns)
{
    if (threadIdx.x == 0)
        atomicAdd_system(started, 1u); /* host memory: the host counts the blocks running */
    tut_spin_ns(ns);
}

/* Starts the crowd on `sms` SMs (at most all but two) and returns once every block of it runs;
 * returns 0 (and starts nothing) on a GPU of two SMs or fewer. */
static int crowd_start(int sms)
{
    int sm_count = 0, optin = 0, dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev));
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    if (sms > sm_count - 2)
        sms = sm_count - 2;
    if (sms < 1)
        return 0;
    static unsigned *started = NULL; /* mapped host memory, kept for the program's life */
    static cudaStream_t stream;
    if (!started) {
        CUDA_CHECK(cudaHostAlloc((void **)&started, sizeof *started, cudaHostAllocMapped));
        CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        CUDA_CHECK(cudaFuncSetAttribute(crowd_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        optin));
    }
    *(volatile unsigned *)started = 0;
    crowd_kernel<<<sms, 32, (size_t)optin, stream>>>(started, CROWD_NS);
    LAUNCH_CHECK();
    const double t0 = tut_cpu_seconds();
    while (*(volatile unsigned *)started < (unsigned)sms) {
        if (tut_cpu_seconds() - t0 > 10.0) {
            fprintf(stderr, "matmul_demo: --crowd-sms: %u of %d blocks started in 10 s\n",
                    *(volatile unsigned *)started, sms);
            exit(1);
        }
    }
    return 1;
}

#define CSV_HEADER                                                                            \
    "m,n,k,variant,config,blocks_per_sm,ms,min_ms,max_ms,calls,batches,gflops,pct_cublas,"    \
    "max_rel_err,mean_rel_err,max_abs_vs_cublas,passed,baseline,baseline_ms,sm_mhz,"       \
    "sm_mhz_min,sm_mhz_max,clock_held_batches,baseline_sm_mhz"

int matmul_clusters_resident(const matmul_kernel_info *k)
{
    cudaLaunchAttribute cluster;
    cluster.id = cudaLaunchAttributeClusterDimension;
    cluster.val.clusterDim.x = (unsigned)k->cluster;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3((unsigned)k->cluster, 1, 1);
    config.blockDim = dim3((unsigned)k->threads, 1, 1);
    config.dynamicSmemBytes = k->dynamic_shared;
    config.attrs = &cluster;
    config.numAttrs = 1;
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, k->kernel, &config) != cudaSuccess) {
        (void)cudaGetLastError(); /* clear it: the next variants go on */
        return 0;
    }
    return clusters;
}

/* A kernel launched in clusters runs only where a whole cluster finds room at once: its blocks
 * share one GPC (a group of SMs), and the driver says how many such clusters fit. */
static int clusters_fit(const matmul_kernel_info *k, char *why, size_t len)
{
    if (matmul_clusters_resident(k) >= 1)
        return 1;
    snprintf(why, len, "no cluster of %d of its blocks fits on this GPU", k->cluster);
    return 0;
}

/* Checks a variant's kernel against the GPU's limits (occupancy.h) and asks for its dynamic
 * shared memory where it needs more than 48 KiB. Returns 0 with the reason if it cannot run
 * here; *per_sm is its blocks per SM (0 when the variant has no single kernel to ask about).
 * A kernel launched in clusters needs room for one (clusters_fit). */
static int variant_fits(const matmul_variant *v, int *per_sm, char *why, size_t len)
{
    *per_sm = 0;
    const tut_device_info *dev = tut_current_device();
    if (v->tensor_cores && !matmul_tensor_cores(dev)) {
        snprintf(why, len, "needs 8.0 (TF32 tensor cores); this GPU has %d.%d%s%s%s", dev->major,
                 dev->minor, dev->emulated[0] ? " (the limits of a " : "", dev->emulated,
                 dev->emulated[0] ? ")" : "");
        return 0;
    }
    if (v->hopper && !matmul_hopper(dev)) {
        snprintf(why, len, "needs 9.0 (wgmma and TMA, code for sm_90a: an H100 or H200); this "
                 "GPU is %d.%d%s%s%s", dev->real_major, dev->real_minor,
                 dev->emulated[0] ? " (with the limits of a " : "", dev->emulated,
                 dev->emulated[0] ? ")" : "");
        return 0;
    }
    if (!v->info)
        return 1;
    const matmul_kernel_info k = v->info();
    const tut_kernel_use use = tut_kernel_use_of(k.kernel, k.threads, k.dynamic_shared);
    if (!tut_kernel_fits(dev, use, why, len))
        return 0;
    /* Above 48 KiB of static + dynamic shared memory a kernel must ask for it. */
    if (k.dynamic_shared > 0 && !tut_allow_dynamic_shared(k.kernel, k.dynamic_shared, why, len))
        return 0;
    if (k.cluster > 1 && !clusters_fit(&k, why, len))
        return 0;
    *per_sm = tut_blocks_per_sm(dev, use);
    return 1;
}

/* What the CSV's config column says (no commas): the tile launch_pipelined took and how B is
 * copied, how a pipelined configuration copies B, cuBLAS's math mode, or into how many parts
 * the launch cut K (k_parts, where it did); "" for the others. For launch_pipelined *per_sm
 * becomes the blocks per SM of the tile it took. */
static void variant_config(const matmul_variant *v, const matmul_args *a, int *per_sm, char *buf,
                           size_t len)
{
    buf[0] = '\0';
    if (v->launch == launch_pipelined) {
        const int slab_m = a->M < MATMUL_MAX_SLAB ? a->M : MATMUL_MAX_SLAB;
        const pipelined_choice c = pipelined_choice_for(slab_m, a->N);
        snprintf(buf, len, "%s %s", pipelined_tile_name(c.tile),
                 c.async_copy ? "cp.async" : "plain loads");
        *per_sm = c.blocks_per_sm;
    } else if (v->launch == launch_cublas_fp32 || v->launch == launch_cublas_tf32) {
        snprintf(buf, len, "%s", v->tf32 ? "TF32 tensor cores" : "FP32 pedantic");
    } else if (v->k_parts) { /* called after the variant ran: its last launch (slab) */
        const int parts = v->k_parts();
        if (parts > 1)
            snprintf(buf, len, "K in %d parts", parts);
    } else if (v->info && v->info().copy) {
        snprintf(buf, len, "%s", v->info().copy);
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

static double max_abs_diff(const float *a, const float *b, size_t n)
{
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) {
        const double d = fabs((double)a[i] - (double)b[i]);
        if (d > m || isnan(d))
            m = d;
        if (isnan(m))
            break;
    }
    return m;
}

/* The reference of one problem: the full float64 product, or sampled rows of it plus cuBLAS's
 * whole result (filled in when cuBLAS runs, first). */
typedef struct {
    int full;
    int nrows, rows[SAMPLED_ROWS];
    double *ref;     /* M x N, or nrows x N */
    float *c_rows;   /* the sampled rows of a result, gathered */
    float *c_cublas; /* cuBLAS FP32's result, once it has run */
    float *abs_prod; /* (|A||B|)_ij, M x N: the scale of the TF32 bound (NULL: no TF32 variant) */
    float *abs_rows; /* its sampled rows */
    int have_cublas;
    double max_in;   /* largest input magnitude */
} reference;

/* A TF32 result, element by element: |c - exact| <= matmul_tf32_bound(K) (|A||B|)_ij
 * (cpu_reference.c derives it), against the float64 reference (all of it, or its sampled rows
 * and then cuBLAS FP32's whole result, itself within K 2^-23 (|A||B|)_ij). |A||B| comes from
 * cuBLAS FP32 (abs_product): all its terms are positive, so it is within K 2^-23 of exact too. */
static int check_tf32(const char *label, int is_cublas, const float *c_host, int M, int N, int K,
                      reference *r, tut_errors *e)
{
    const size_t c_n = (size_t)M * N;
    const double fp32 = (double)K * ldexp(1.0, -23);
    const double bound = matmul_tf32_bound(K) * (1.0 + fp32);
    if (r->full)
        return matmul_check_scaled(label, c_host, r->ref, NULL, r->abs_prod, c_n, bound, e);
    for (int i = 0; i < r->nrows; ++i) {
        memcpy(r->c_rows + (size_t)i * N, c_host + (size_t)r->rows[i] * N,
               sizeof(float) * (size_t)N);
        memcpy(r->abs_rows + (size_t)i * N, r->abs_prod + (size_t)r->rows[i] * N,
               sizeof(float) * (size_t)N);
    }
    int passed = matmul_check_scaled(label, r->c_rows, r->ref, NULL, r->abs_rows,
                                     (size_t)r->nrows * N, bound, e);
    if (!is_cublas) {
        char label2[200];
        snprintf(label2, sizeof label2, "%s vs cuBLAS", label);
        passed &= matmul_check_scaled(label2, c_host, NULL, r->c_cublas, r->abs_prod, c_n,
                                      bound + fp32 * (1.0 + fp32), NULL);
    }
    (void)M;
    return passed;
}

/* (|A||B|)_ij for every element (host, M x N): cuBLAS FP32 on copies of |A| and |B|. */
static float *abs_product(const float *a_host, const float *b_host, int M, int N, int K)
{
    const size_t a_n = (size_t)M * K, b_n = (size_t)K * N, c_n = (size_t)M * N;
    float *h = (float *)tut_host_alloc(tut_bytes(a_n > b_n ? a_n : b_n, sizeof(float), "|A|"),
                                       "|A| or |B|");
    float *A = (float *)tut_device_alloc(a_n * sizeof(float), "|A|");
    float *B = (float *)tut_device_alloc(b_n * sizeof(float), "|B|");
    float *C = (float *)tut_device_alloc(c_n * sizeof(float), "|A||B|");
    for (size_t i = 0; i < a_n; ++i)
        h[i] = fabsf(a_host[i]);
    CUDA_CHECK(cudaMemcpy(A, h, a_n * sizeof(float), cudaMemcpyHostToDevice));
    for (size_t i = 0; i < b_n; ++i)
        h[i] = fabsf(b_host[i]);
    CUDA_CHECK(cudaMemcpy(B, h, b_n * sizeof(float), cudaMemcpyHostToDevice));
    const matmul_args args = {M, N, K, A, B, C, (size_t)K, (size_t)N, (size_t)N};
    launch_cublas_fp32(&args);
    float *abs_prod = (float *)tut_host_alloc(tut_bytes(c_n, sizeof(float), "|A||B|"), "|A||B|");
    CUDA_CHECK(cudaMemcpy(abs_prod, C, c_n * sizeof(float), cudaMemcpyDeviceToHost));
    tut_device_free(A);
    tut_device_free(B);
    tut_device_free(C);
    free(h);
    return abs_prod;
}

/* Checks c_host (M x N) for variant v; returns 1 if it passes. Keeps cuBLAS's result. */
static int check_result(const matmul_variant *v, int is_cublas, const float *c_host, int M, int N,
                        int K, double atol, double rtol, reference *r, tut_errors *e,
                        double *vs_cublas)
{
    char label[160];
    snprintf(label, sizeof label, "%s %dx%dx%d", v->name, M, K, N);
    const size_t c_n = (size_t)M * N;
    const double at = atol, rt = rtol;
    int passed;
    if (v->tf32) {
        passed = check_tf32(label, is_cublas, c_host, M, N, K, r, e);
    } else if (r->full) {
        passed = tut_check_f32_f64(label, c_host, r->ref, c_n, at, rt, e);
    } else {
        for (int i = 0; i < r->nrows; ++i)
            memcpy(r->c_rows + (size_t)i * N, c_host + (size_t)r->rows[i] * N,
                   sizeof(float) * (size_t)N);
        passed = tut_check_f32_f64(label, r->c_rows, r->ref, (size_t)r->nrows * N, at, rt, e);
        if (!is_cublas) {
            char label2[200];
            snprintf(label2, sizeof label2, "%s vs cuBLAS", label);
            passed &= tut_check_f32(label2, c_host, r->c_cublas, c_n, 2.0 * at, 2.0 * rt, NULL);
        }
    }
    if (is_cublas) {
        memcpy(r->c_cublas, c_host, c_n * sizeof(float));
        r->have_cublas = 1;
    }
    *vs_cublas = r->have_cublas ? max_abs_diff(c_host, r->c_cublas, c_n) : NAN;
    return passed;
}

/* The TF32 bound (check_tf32) is a worst case that allows truncation to TF32; a kernel that
 * truncates (every product errs towards zero) passes it, with many times cuBLAS TF32's error on
 * inputs of one sign, where those errors add up. On such inputs a TF32 kernel's mean relative
 * error must be within 4x cuBLAS TF32's of the same problem (rounding kernels are within 1.3x).
 * Returns 1 where the comparison does not apply (signed inputs, no cuBLAS TF32 in this run). */
static int tf32_as_accurate_as_cublas(const char *name, input_kind inputs, double mean_err,
                                      double cublas_mean_err)
{
    if (inputs != INPUT_POSITIVE || !(cublas_mean_err > 0.0))
        return 1;
    if (mean_err <= 4.0 * cublas_mean_err)
        return 1;
    printf("  %s: mean relative error %.3g, more than 4x cuBLAS TF32's %.3g on inputs of one "
           "sign: inputs truncated to TF32 instead of rounded?\n", name, mean_err,
           cublas_mean_err);
    return 0;
}

/* Step 13 where it cuts K keeps flags per tile between calls (13_wgmma_tf32.cu, zero_quarter):
 * its second call, on C poisoned again, must give what the first gave, or it leaned on
 * something the first call left. With two parts, exactly (0 + a + b is 0 + b + a); with more,
 * the order of the adds may change the last bits, so within the check's tolerance. */
static int second_call_agrees(const timed_job *job, const matmul_prepared *p, int K, int parts,
                              const float *first, double atol, double rtol)
{
    if (parts == 2)
        atol = rtol = 0.0;
    const size_t c_n = (size_t)p->M * p->N;
    float *again = (float *)tut_host_alloc(tut_bytes(c_n, sizeof(float), "C"), "second C");
    poison_result(p);
    run_timed_job(job);
    CUDA_CHECK(cudaDeviceSynchronize());
    fetch_result(p, again);
    char label[160];
    snprintf(label, sizeof label, "%s %dx%dx%d, a second call against the first", job->v->name,
             p->M, K, p->N);
    const int passed = tut_check_f32(label, again, first, c_n, atol, rtol, NULL);
    free(again);
    return passed;
}

/* Runs the selected variants on one M x K times K x N problem. Returns 1 if all passed. */
static int run_problem(int M, int N, int K, input_kind inputs, const int *selected, int nselected,
                       const run_options *o)
{
    const size_t a_n = (size_t)M * K, b_n = (size_t)K * N, c_n = (size_t)M * N;
    const double flops = 2.0 * M * N * (double)K;
    reference r;
    memset(&r, 0, sizeof r);
    r.full = (double)M * N * K <= o->full_reference_max_macs;
    r.max_in = inputs == INPUT_ARANGE_ONES ? (double)(a_n - 1) : 1.0;
    double atol = matmul_atol(K, r.max_in), rtol = 4.0 * sqrt((double)K) * FLT_EPSILON;
    if (inputs == INPUT_ARANGE_ONES)
        atol = 0.0; /* small integers: every variant must be exact */
    const char *kind = inputs == INPUT_RANDOM     ? "random [-1,1)"
                       : inputs == INPUT_POSITIVE ? "random [0,1)"
                                                  : "arange x ones";
    printf("\n== %d x %d times %d x %d (%s inputs, seed %llu): %.3g GFLOP, reference: %s\n", M, K,
           K, N, kind, o->seed, flops * 1e-9,
           r.full ? "full float64 CPU product" : "sampled CPU rows + cuBLAS");
    if (M > MATMUL_MAX_SLAB || N > MATMUL_MAX_SLAB)
        printf("computed in %d x %d slabs of at most %d rows and columns (a grid has at most "
               "65535 blocks in y)\n", (M + MATMUL_MAX_SLAB - 1) / MATMUL_MAX_SLAB,
               (N + MATMUL_MAX_SLAB - 1) / MATMUL_MAX_SLAB, MATMUL_MAX_SLAB);
    if (o->ld_extra)
        printf("leading dimensions %d floats longer than the rows (lda = K + %d, ...)\n",
               o->ld_extra, o->ld_extra);

    float *a_host = (float *)tut_host_alloc(tut_bytes(a_n, sizeof(float), "A"), "host A");
    float *b_host = (float *)tut_host_alloc(tut_bytes(b_n, sizeof(float), "B"), "host B");
    float *c_host = (float *)tut_host_alloc(tut_bytes(c_n, sizeof(float), "C"), "host C");
    fill_inputs(inputs, o->seed, a_host, b_host, M, N, K);

    r.nrows = choose_rows(M, r.full, o->seed, r.rows);
    if (o->check) {
        const double t0 = tut_cpu_seconds();
        if (r.full) {
            r.ref = (double *)tut_host_alloc(tut_bytes(c_n, sizeof(double), "ref"), "reference");
            cpu_matmul_f64(M, N, K, a_host, b_host, r.ref, 0, M);
        } else {
            const size_t rows_n = (size_t)r.nrows * N;
            r.ref = (double *)tut_host_alloc(tut_bytes(rows_n, sizeof(double), "ref"), "ref rows");
            r.c_rows = (float *)tut_host_alloc(tut_bytes(rows_n, sizeof(float), "rows"), "rows");
            for (int i = 0; i < r.nrows; ++i)
                cpu_matmul_f64(M, N, K, a_host, b_host, r.ref + (size_t)i * N, r.rows[i],
                               r.rows[i] + 1);
        }
        r.c_cublas = (float *)tut_host_alloc(tut_bytes(c_n, sizeof(float), "C"), "cuBLAS C");
        printf("CPU reference: %.2f s\n", tut_cpu_seconds() - t0);
    }

    float *A = (float *)tut_device_alloc(a_n * sizeof(float), "A");
    float *B = (float *)tut_device_alloc(b_n * sizeof(float), "B");
    float *C = (float *)tut_device_alloc(c_n * sizeof(float), "C");
    CUDA_CHECK(cudaMemcpy(A, a_host, a_n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B, b_host, b_n * sizeof(float), cudaMemcpyHostToDevice));
    const matmul_args dense = {M, N, K, A, B, C, (size_t)K, (size_t)N, (size_t)N};
    int any_tf32 = 0;
    for (int s = 0; s < nselected; ++s)
        any_tf32 |= matmul_variants[selected[s]].tf32;
    if (o->check && any_tf32) {
        r.abs_prod = abs_product(a_host, b_host, M, N, K);
        if (!r.full)
            r.abs_rows = (float *)tut_host_alloc(
                tut_bytes((size_t)r.nrows * N, sizeof(float), "rows"), "|A||B| rows");
    }

    /* Without a full reference, cuBLAS is checked on the sampled rows and its whole result is
     * the reference for the others: run it first even when not selected. */
    int ok = 1;
    const matmul_variant *fp32_baseline = NULL, *tf32_baseline = NULL; /* once they have run */
    double cublas_tf32_mean_err = 0.0;           /* cuBLAS TF32's mean relative error */
    int order[MATMUL_VARIANT_COUNT + 1], norder = 0;
    if (!r.full && o->check && selected[0] != 0)
        order[norder++] = 0;
    for (int s = 0; s < nselected; ++s)
        order[norder++] = selected[s];

    for (int s = 0; s < norder; ++s) {
        const int vi = order[s];
        const matmul_variant *v = &matmul_variants[vi];
        char why[200], config[96];
        int per_sm = 0;
        if (!variant_fits(v, &per_sm, why, sizeof why)) {
            printf("%-15s skipped on this GPU: %s\n", v->name, why);
            continue;
        }
        matmul_prepared p;
        prepare_layout(&dense, v->layout, o->ld_extra, &p);
        timed_job job = {v, p.args};
        int passed = 1;
        tut_errors e = {0, 0, 0, 0.0, 0.0, 0.0};
        double vs_cublas = NAN;
        if (o->check) {
            const int crowd = o->crowd_sms && v->k_parts; /* step 13 alone */
            if (crowd) { /* once uncrowded: what the call allocates, it allocates here */
                run_timed_job(&job);
                CUDA_CHECK(cudaDeviceSynchronize());
            }
            poison_result(&p);
            if (crowd && !crowd_start(o->crowd_sms))
                printf("--crowd-sms: this GPU has too few SMs to hold some: not crowded\n");
            run_timed_job(&job);
            CUDA_CHECK(cudaDeviceSynchronize());
            fetch_result(&p, c_host);
            passed = check_result(v, vi == 0, c_host, M, N, K, atol, rtol, &r, &e, &vs_cublas);
            if (v->launch == launch_cublas_tf32)
                cublas_tf32_mean_err = e.mean_rel_err;
            else if (v->tf32)
                passed &= tf32_as_accurate_as_cublas(v->name, inputs, e.mean_rel_err,
                                                     cublas_tf32_mean_err);
            if (v->k_parts && v->k_parts() > 1)
                passed &= second_call_agrees(&job, &p, K, v->k_parts(), c_host, atol, rtol);
        }
        ok &= passed;
        /* Each against the cuBLAS of its own precision (TF32 against TF32, the others FP32),
         * timed beside it in one window when that cuBLAS has run in this problem. */
        const matmul_variant *base_v = v->tf32 ? tf32_baseline : fp32_baseline;
        call_timing t, tb;
        if (base_v && base_v != v) {
            matmul_prepared pb; /* the baseline's operands, as its own row had them */
            prepare_layout(&dense, base_v->layout, o->ld_extra, &pb);
            const timed_job base = {base_v, pb.args};
            time_beside(&job, &base, o->reps, &t, &tb);
            release_layout(&pb);
        } else {
            t = time_alone(&job, o->reps);
            tb = t;
        }
        variant_config(v, &p.args, &per_sm, config, sizeof config);
        release_layout(&p);
        if (vi == 0)
            fp32_baseline = v;
        if (v->launch == launch_cublas_tf32)
            tf32_baseline = v;
        const double gflops = flops / (t.median_ms * 1e6);
        /* No cuBLAS of its precision ran in this problem (a variant selected alone, with
         * --no-check or at a size checked on the CPU alone): no ratio, and the CSV names no
         * baseline. */
        const int has_base = base_v || vi == 0 || v->launch == launch_cublas_tf32;
        const double pct = has_base ? 100.0 * tb.median_ms / t.median_ms : 0.0;
        char clocks[96], base_clocks[96];
        printf("%-15s %dx%dx%d: %10.4f ms (%.4f-%.4f, %d x %d calls) %10.1f GFLOP/s %7.1f %% of "
               "cuBLAS %s%s%s%s%s\n", v->name, M, K, N, t.median_ms, t.min_ms, t.max_ms,
               t.batches, t.calls, gflops, pct, v->tf32 ? "TF32" : "FP32",
               config[0] ? "  [" : "", config, config[0] ? "]" : "",
               timing_clock_text(&t, clocks, sizeof clocks));
        if (base_v && base_v != v)
            printf("%-15s   beside it: %s %.4f ms (%.4f-%.4f)%s\n", "", base_v->name,
                   tb.median_ms, tb.min_ms, tb.max_ms,
                   timing_clock_text(&tb, base_clocks, sizeof base_clocks));
        timing_explain_spread(v->name, &t);
        if (base_v && base_v != v)
            timing_explain_spread(base_v->name, &tb);
        if (!has_base)
            printf("%-15s   (no cuBLAS %s ran beside it, so 0.0 is no ratio: --variant all%s "
                   "gives one)\n", "", v->tf32 ? "TF32" : "FP32",
                   v->tf32 ? " or tensor_cores" : "");
        if (!passed)
            printf("%-15s WRONG RESULT\n", v->name);
        tut_csv_row(o->csv,
                    "%d,%d,%d,%s,%s,%d,%.5f,%.5f,%.5f,%d,%d,%.1f,%.2f,%.3g,%.3g,%.3g,%d,%s,"
                    "%.5f,%u,%u,%u,%d,%u",
                    M, N, K, v->name, config, per_sm, t.median_ms, t.min_ms, t.max_ms, t.calls,
                    t.batches, gflops, pct, e.max_rel_err, e.mean_rel_err, vs_cublas, passed,
                    !has_base ? "none" : v->tf32 ? "cublas_tf32" : "cublas",
                    has_base ? tb.median_ms : 0.0, t.mhz_median, t.mhz_min,
                    t.mhz_max, t.limited_batches, tb.mhz_median);
    }

    tut_device_free(A);
    tut_device_free(B);
    tut_device_free(C);
    free(a_host);
    free(b_host);
    free(c_host);
    free(r.ref);
    free(r.c_rows);
    free(r.c_cublas);
    free(r.abs_prod);
    free(r.abs_rows);
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

/* The benchmark behind the docs: every variant at 4096^3, the documents' sizes, a size sweep of
 * the faster ones, precision at 2048^3. A size this GPU cannot hold (with room for padded
 * copies) is skipped. matmul_ablations: the first two only, into ablations_*.csv. */
#ifdef MATMUL_ABLATIONS
#define CSV_PREFIX "ablations_"
#else
#define CSV_PREFIX ""
#endif
/* A result file, with a line on how its times were taken. */
static tut_csv *open_results(const char *outdir, const char *name)
{
    tut_csv *csv = tut_csv_open(outdir, name, CSV_HEADER);
    tut_csv_comment(csv, "ms per call: median (min_ms, max_ms) of batches of back-to-back calls "
                    "after a warm-up batch; each variant timed in one window with the cuBLAS of "
                    "its precision, batches alternating (baseline_ms: that cuBLAS in the same "
                    "window; pct_cublas = baseline_ms / ms); sm_mhz: the SM clock read through "
                    "NVML while the batches ran (0: unknown); clock_held_batches: batches "
                    "during which the power cap or a slowdown held the clock down");
    return csv;
}

static int run_bench(const int *selected, int nsel, run_options *o, const char *outdir)
{
    int ok = 1;
    /* 1. Every variant at 4096^3: the table and the bar chart. */
    o->csv = open_results(outdir, CSV_PREFIX "variants_4096.csv");
    ok &= run_problem(4096, 4096, 4096, INPUT_RANDOM, selected, nsel, o);
    tut_csv_close(o->csv);
    /* 2. The documents' sizes: the blog's 1000^3 and the streams blog's 6000x4800x4000. */
    o->csv = open_results(outdir, CSV_PREFIX "documents.csv");
    ok &= run_problem(1000, 1000, 1000, INPUT_POSITIVE, selected, nsel, o);
    ok &= run_problem(6000, 4000, 4800, INPUT_RANDOM, selected, nsel, o);
    tut_csv_close(o->csv);
#ifdef MATMUL_ABLATIONS
    return ok; /* the ablations: these two sizes only */
#endif
    /* 3. GFLOP/s against size for the faster variants. */
    static const int sizes[] = {256, 512, 1024, 2048, 3072, 4096, 6144, 8192};
    int sweep[MATMUL_VARIANT_COUNT], nsweep = 0;
    for (int s = 0; s < nsel; ++s)
        if (matmul_variants[selected[s]].sweep && !matmul_variants[selected[s]].slow)
            sweep[nsweep++] = selected[s];
    o->csv = open_results(outdir, "sizes.csv");
    for (int i = 0; i < TUT_COUNT(sizes); ++i) {
        const size_t bytes = problem_bytes(sizes[i], sizes[i], sizes[i]);
        if (!tut_device_fits(2 * bytes, (size_t)256 << 20)) {
            char need[32];
            printf("\n== %d^3 skipped: needs %s (twice that with padded copies), more than this "
                   "GPU has free\n", sizes[i], tut_format_bytes((double)bytes, need, sizeof need));
            continue;
        }
        ok &= run_problem(sizes[i], sizes[i], sizes[i], INPUT_RANDOM, sweep, nsweep, o);
    }
    tut_csv_close(o->csv);
    /* 4. Precision at 2048^3, inputs in [0, 1) (no cancellation: relative errors mean something),
     * against float64 on sampled rows: FP32, TF32 and 3xTF32 side by side. */
    static const char *const precise[] = {"cublas",     "kahan",      "pipelined",
                                          "cublas_tf32", "wmma_tf32", "mma_tf32",
                                          "mma_3xtf32", "wgmma_tf32", "wgmma_3xtf32"};
    int prec[MATMUL_VARIANT_COUNT], nprec = 0;
    for (int s = 0; s < nsel; ++s)
        for (int p = 0; p < TUT_COUNT(precise); ++p)
            if (strcmp(matmul_variants[selected[s]].name, precise[p]) == 0)
                prec[nprec++] = selected[s];
    const int reps = o->reps;
    o->reps = 1; /* the errors are what this run is for */
    o->csv = open_results(outdir, "precision_2048.csv");
    ok &= run_problem(2048, 2048, 2048, INPUT_POSITIVE, prec, nprec, o);
    tut_csv_close(o->csv);
    o->reps = reps;
#ifndef MATMUL_ABLATIONS
    /* 5. What step 13 relies on: TMA rounds to TF32 through a TF32 tensor map (9.0 only). */
    if (matmul_hopper(tut_current_device()))
        ok &= wgmma_tma_rounding(outdir) == 0;
#endif
    return ok;
}

/* "all|cublas|naive_strided|...|tensor_cores": the --variant choices, from the table's names,
 * and one group: the tensor-core variants with both cuBLAS baselines. */
static const char *variant_choices(void)
{
    static char choices[1024];
    size_t used = (size_t)snprintf(choices, sizeof choices, "all");
    for (int i = 0; i < MATMUL_VARIANT_COUNT && used < sizeof choices; ++i)
        used += (size_t)snprintf(choices + used, sizeof choices - used, "|%s",
                                 matmul_variants[i].name);
#ifndef MATMUL_ABLATIONS
    if (used < sizeof choices)
        snprintf(choices + used, sizeof choices - used, "|tensor_cores");
#endif
    return choices;
}

int main(int argc, char **argv)
{
    unsigned long long m = 0, n = 0, k = 0, reps = 10, seed = TUT_DEFAULT_SEED, ld_extra = 0;
    unsigned long long crowd_sms = 0;
    double reference_macs = FULL_REFERENCE_MAX_MACS;
    int variant = 0, no_check = 0, bench = 0, pitfall = 0, tile = 0;
#ifndef MATMUL_ABLATIONS
    int tma_rounding = 0;
    unsigned long long k_parts = 0, launch_number = 0;
#endif
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--m", TUT_OPT_SIZE, &m, "rows of A and C", 1, MAX_DIM, NULL},
        {"--k", TUT_OPT_SIZE, &k, "columns of A, rows of B", 1, MAX_DIM, NULL},
        {"--n", TUT_OPT_SIZE, &n, "columns of B and C", 1, MAX_DIM, NULL},
        {"--variant", TUT_OPT_CHOICE, &variant, "kernel to run", 0, 0, variant_choices()},
        {"--reps", TUT_OPT_SIZE, &reps,
         "timed batches of back-to-back calls (median reported); 1: one call", 1, 1000, NULL},
        {"--no-check", TUT_OPT_FLAG, &no_check, "skip the CPU/cuBLAS check", 0, 0, NULL},
        {"--seed", TUT_OPT_SIZE, &seed, "seed of the random inputs", 0, 1.8e19, NULL},
        {"--reference-macs", TUT_OPT_DOUBLE, &reference_macs,
         "above this many multiply-adds the CPU computes sampled rows and cuBLAS is the "
         "reference for the rest (default 1.2e9)", 0, 1e30, NULL},
        {"--ld-extra", TUT_OPT_SIZE, &ld_extra,
         "run on copies whose leading dimensions are this many floats longer than the rows "
         "(a multiple of 4)", 0, 1024, NULL},
        {"--crowd-sms", TUT_OPT_SIZE, &crowd_sms,
         "a test: hold this many SMs (at most all but two) with a spinning kernel for 50 ms "
         "while step 13's checked call starts, so that its blocks start at different times",
         0, 4096, NULL},
        {"--bench", TUT_OPT_FLAG, &bench, "the benchmark: 4096^3, the documents' sizes, a sweep",
         0, 0, NULL},
        {"--pitfall", TUT_OPT_CHOICE, &pitfall,
         "the documents' kernel: both (TPB = 2 and 3 as written, then fixed), or one alone "
         "(buggy: TPB = 3 for compute-sanitizer)", 0, 0,
         "none|both|buggy|fixed"},
        {"--outdir", TUT_OPT_STRING, &outdir, "write CSV results into this folder", 0, 0, NULL},
        {"--tile", TUT_OPT_CHOICE, &tile,
         "the pipelined kernel's configuration at every size (auto: chosen from the GPU's "
         "limits and the size)", 0, 0, "auto|128x256|128x128|64x128|64x128_s2"},
#ifndef MATMUL_ABLATIONS
        {"--k-parts", TUT_OPT_SIZE, &k_parts,
         "step 13 (wgmma_tf32, wgmma_3xtf32) cuts K into this many parts at every size (0, "
         "the default: as many as pays, counted from the size and the GPU; 1: never)", 0, 64,
         NULL},
        {"--launch-number", TUT_OPT_SIZE, &launch_number,
         "a test: step 13 numbers its launches that cut K on from this one, as if it had run "
         "(2147483646: the second such launch starts the numbers again and must zero the "
         "flags)", 0, WGMMA_LAST_LAUNCH, NULL},
        {"--tma-rounding", TUT_OPT_FLAG, &tma_rounding,
         "what TMA writes into shared memory through an FP32 and a TF32 tensor map (step 13 "
         "relies on the rounding; needs 9.0)", 0, 0, NULL},
#endif
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
#ifndef MATMUL_ABLATIONS
    if (tma_rounding &&
        (custom || bench || pitfall || variant || tile || k_parts || launch_number)) {
        fprintf(stderr, "matmul_demo: --tma-rounding runs alone (only --outdir goes with it)\n");
        return 2;
    }
#endif
    if (crowd_sms && no_check) {
        fprintf(stderr, "matmul_demo: --crowd-sms tests the checked call: not with --no-check\n");
        return 2;
    }
    if (ld_extra % 4 != 0) {
        fprintf(stderr, "matmul_demo: --ld-extra must be a multiple of 4 (float4 rows must stay "
                        "16-byte aligned), got %llu\n", ld_extra);
        return 2;
    }
    const size_t custom_bytes = custom ? problem_bytes(m, n, k) : 0;

    tut_select_device(TUT_NEED_NOTHING);
    if (custom && !tut_device_fits(2 * custom_bytes, (size_t)256 << 20)) {
        char need[32];
        fprintf(stderr, "matmul: %llu x %llu times %llu x %llu needs %s (twice that with padded "
                "copies): more than this GPU has free\n", m, k, k, n,
                tut_format_bytes((double)custom_bytes, need, sizeof need));
        return 2;
    }
    if (pitfall)
        return tut_finish(run_pitfall_demo(pitfall == 2, pitfall == 3));
#ifndef MATMUL_ABLATIONS
    if (tma_rounding)
        return wgmma_tma_rounding(outdir);
#endif

    const tut_device_info *dev = tut_current_device();
    if (dev->emulated[0])
        printf("Launch choices below follow the limits of a %s; every time is this GPU's own.\n",
               dev->emulated);
    pipelined_print_copy_path();
    if (tile > 0) { /* the choices after auto, in the order of pipelined_tile */
        const pipelined_tile t = (pipelined_tile)(tile - 1);
        if (!pipelined_set_tile(t)) {
            printf("pipelined_%s does not fit this GPU (shared memory per block): skipped\n",
                   pipelined_tile_name(t));
            return TUT_EXIT_SKIP;
        }
        printf("pipelined: the %s configuration at every size (--tile)\n",
               pipelined_tile_name(t));
    }
#ifndef MATMUL_ABLATIONS
    if (k_parts) {
        wgmma_tf32_set_k_parts((int)k_parts);
        printf("wgmma_tf32, wgmma_3xtf32: --k-parts %llu, at every size\n", k_parts);
    }
    if (launch_number) {
        wgmma_tf32_set_launch_number((unsigned)launch_number);
        printf("wgmma_tf32, wgmma_3xtf32: the launches that cut K numbered on from %llu\n",
               launch_number);
    }
#endif

    run_options o = {.check = !no_check,
                     .reps = (int)reps,
                     .seed = seed,
                     .full_reference_max_macs = reference_macs,
                     .ld_extra = (int)ld_extra,
                     .crowd_sms = (int)crowd_sms,
                     .csv = NULL};
    int selected[MATMUL_VARIANT_COUNT], nsel = 0;
    const int tensor_group = variant == MATMUL_VARIANT_COUNT + 1; /* --variant tensor_cores */
    for (int i = 0; i < MATMUL_VARIANT_COUNT; ++i) {
        const matmul_variant *v = &matmul_variants[i];
        if (variant == 0 || variant == i + 1 ||
            (tensor_group && (i == 0 || v->tf32 || v->tensor_cores)))
            selected[nsel++] = i;
    }
    int ok = 1;

    if (custom) {
        o.csv = open_results(outdir, "custom.csv");
        ok = run_problem((int)m, (int)n, (int)k, INPUT_RANDOM, selected, nsel, &o);
        tut_csv_close(o.csv);
    } else if (!bench) {
        /* The documents' examples. */
        ok &= run_pitfall_demo(0, 0);
        o.reps = 3;
        ok &= run_problem(4, 4, 4, INPUT_ARANGE_ONES, selected, nsel, &o);
        ok &= run_problem(5, 7, 23, INPUT_ARANGE_ONES, selected, nsel, &o);
        o.csv = open_results(outdir, "precision.csv");
        ok &= run_problem(1000, 1000, 1000, INPUT_POSITIVE, selected, nsel, &o);
        tut_csv_close(o.csv);
    } else {
        ok &= run_bench(selected, nsel, &o, outdir);
    }
    cublas_matmul_destroy();
#ifndef MATMUL_ABLATIONS
    wgmma_release();
#endif
    return tut_finish(ok);
}
