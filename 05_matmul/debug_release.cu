/* matmul_debug_release: the matmul optimisation blog found that its steps showed their speed only
 * once it built in Release mode instead of Debug. Measured here: the naive and the tiled kernel
 * (debug_release_kernels.cu) compiled twice into this one program, with optimised device code as
 * every program of the suite is, and with -G (device debug code), checked against a float64 CPU
 * product and timed the same way in the same run (batches of back-to-back calls between CUDA
 * events, median batch). The blog's 1000 x 1000, inputs uniform in [0, 1).
 *
 *   matmul_debug_release [--m 1000 --k 1000 --n 1000] [--reps 10] [--outdir DIR]
 *
 * Writes debug_release.csv: per kernel and build the time, GFLOP/s, the time over the same
 * kernel's optimised build (debug_over_release) and the naive kernel's time over this one in the
 * same build (speedup_vs_naive: what the tiling step buys in that build). */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "tutorial.h"
#include "matmul.h"
#include "debug_release.h"

typedef struct {
    const char *variant, *build;
    dr_launch_fn launch;
} dr_kernel;

static const dr_kernel kernels[] = {
    {"naive", "release", launch_naive_release}, {"naive", "debug", launch_naive_debug},
    {"tiled", "release", launch_tiled_release}, {"tiled", "debug", launch_tiled_debug},
};
#define NKERNELS ((int)(sizeof kernels / sizeof kernels[0]))

typedef struct {
    const dr_kernel *kernel;
    int M, N, K;
    const float *A, *B;
    float *C;
} dr_job;

static void dr_work(void *arg)
{
    const dr_job *j = (const dr_job *)arg;
    j->kernel->launch(j->M, j->N, j->K, j->A, j->B, j->C);
}

int main(int argc, char **argv)
{
    unsigned long long m = 1000, n = 1000, k = 1000, reps = 10;
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--m", TUT_OPT_SIZE, &m, "rows of A and C", 1, 16384, NULL},
        {"--k", TUT_OPT_SIZE, &k, "columns of A, rows of B", 1, 16384, NULL},
        {"--n", TUT_OPT_SIZE, &n, "columns of B and C", 1, 16384, NULL},
        {"--reps", TUT_OPT_SIZE, &reps, "timed batches (median reported)", 1, 1000, NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "write debug_release.csv into this folder", 0, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "matmul_debug_release: the same kernels with and without -G, timed",
                      opts, TUT_COUNT(opts));
    tut_select_device(TUT_NEED_NOTHING);
    const int M = (int)m, N = (int)n, K = (int)k;
    const size_t a_n = (size_t)M * K, b_n = (size_t)K * N, c_n = (size_t)M * N;
    float *a = (float *)tut_host_alloc(tut_bytes(a_n, sizeof(float), "A"), "A");
    float *b = (float *)tut_host_alloc(tut_bytes(b_n, sizeof(float), "B"), "B");
    float *c = (float *)tut_host_alloc(tut_bytes(c_n, sizeof(float), "C"), "C");
    double *want = (double *)tut_host_alloc(tut_bytes(c_n, sizeof(double), "reference"), "ref");
    tut_rng rng;
    tut_rng_seed(&rng, TUT_DEFAULT_SEED);
    tut_rng_fill_f32(&rng, a, a_n, 0.0f, 1.0f);
    tut_rng_fill_f32(&rng, b, b_n, 0.0f, 1.0f);
    printf("%d x %d times %d x %d, inputs uniform in [0, 1), seed %llu\n", M, K, K, N,
           (unsigned long long)TUT_DEFAULT_SEED);
    cpu_matmul_f64(M, N, K, a, b, want, 0, M);

    float *A = (float *)tut_device_alloc(a_n * sizeof(float), "A");
    float *B = (float *)tut_device_alloc(b_n * sizeof(float), "B");
    float *C = (float *)tut_device_alloc(c_n * sizeof(float), "C");
    CUDA_CHECK(cudaMemcpy(A, a, a_n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B, b, b_n * sizeof(float), cudaMemcpyHostToDevice));

    tut_csv *csv = tut_csv_open(outdir, "debug_release.csv",
                                "m,n,k,variant,build,ms,min_ms,max_ms,gflops,debug_over_release,"
                                "speedup_vs_naive,passed");
    const double atol = matmul_atol(K, 1.0), rtol = 4.0 * sqrt((double)K) * FLT_EPSILON;
    double ms[NKERNELS];
    int ok = 1;
    printf("%-6s %-8s %10s %10s %18s %16s\n", "kernel", "build", "ms", "GFLOP/s",
           "debug / release", "naive / this");
    for (int i = 0; i < NKERNELS; ++i) {
        dr_job job = {.kernel = &kernels[i], .M = M, .N = N, .K = K, .A = A, .B = B, .C = C};
        char label[64];
        snprintf(label, sizeof label, "%s (%s)", kernels[i].variant, kernels[i].build);
        CUDA_CHECK(cudaMemset(C, 0xFF, c_n * sizeof(float))); /* NaN: unwritten elements fail */
        dr_work(&job);
        CUDA_CHECK(cudaMemcpy(c, C, c_n * sizeof(float), cudaMemcpyDeviceToHost));
        const int passed = tut_check_f32_f64(label, c, want, c_n, atol, rtol, NULL);
        ok &= passed;
        const tut_timing t = tut_time_gpu_batched(dr_work, &job, 1, (int)reps, 0);
        ms[i] = t.median_ms;
        /* Rows come in pairs (release, debug) per kernel, and the naive pair first. */
        const double over_release = ms[i] / ms[i & ~1];
        const double vs_naive = ms[i & 1] / ms[i];
        const double gflops = 2.0 * M * N * K / (t.median_ms * 1e6);
        printf("%-6s %-8s %10.4f %10.1f %17.2fx %15.2fx\n", kernels[i].variant, kernels[i].build,
               t.median_ms, gflops, over_release, vs_naive);
        tut_csv_row(csv, "%d,%d,%d,%s,%s,%.5f,%.5f,%.5f,%.1f,%.2f,%.2f,%d", M, N, K,
                    kernels[i].variant, kernels[i].build, t.median_ms, t.min_ms, t.max_ms, gflops,
                    over_release, vs_naive, passed);
    }
    tut_csv_close(csv);
    tut_device_free(A);
    tut_device_free(B);
    tut_device_free(C);
    free(a);
    free(b);
    free(c);
    free(want);
    return tut_finish(ok);
}
