/* The graders of ex05.1 to ex05.3 (tests/grade_matmul.h): problems drawn from the seed, each
 * checked element by element against float64 on the CPU, with guards around the result that
 * the kernel must not touch, NaN in the inputs' rows past their last column (a load without its
 * bounds check brings it in) and poisoned shared memory (a tile slot left unwritten shows); and
 * the speed test beside cuBLAS FP32. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_cublas.h"
#include "grade_matmul.h"
#include "tutorial.h"

#define SPEED_SIZE 4096
#define SPEED_SAMPLED_ROWS 8

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

/* C rows [row_begin, row_end) = A B in float64; A is M x K, B is K x N, both dense. */
static void reference_rows(int N, int K, const float *A, const float *B, double *C, int row_begin,
                           int row_end)
{
    for (int i = row_begin; i < row_end; ++i) {
        double *c = C + (size_t)(i - row_begin) * N;
        memset(c, 0, sizeof(double) * (size_t)N);
        for (int k = 0; k < K; ++k) {
            const double a = A[(size_t)i * K + k];
            for (int j = 0; j < N; ++j)
                c[j] += a * (double)B[(size_t)k * N + j];
        }
    }
}

/* The chapter's rule (cpu_reference.c, matmul_atol) for inputs in [-1, 1): a K-term FP32 sum
 * stays well within 8 K eps of the exact value, and a lost or doubled term costs far more. */
static double atol_for(int K) { return 8.0 * K * FLT_EPSILON; }
static double rtol_for(int K) { return 4.0 * sqrt((double)K) * FLT_EPSILON; }

static float *random_matrix(tut_rng *rng, int rows, int cols)
{
    float *m = (float *)tut_host_alloc(tut_bytes((size_t)rows * cols, sizeof(float), "matrix"),
                                       "matrix");
    tut_rng_fill_f32(rng, m, (size_t)rows * cols, -1.0f, 1.0f);
    return m;
}

/* A rows x cols dense host matrix into device memory of padded_rows x ld floats: zeros up to
 * padded_rows x padded_cols (the matrix the kernel is told of), NaN in the columns past
 * padded_cols, so that a load past the end of a row that a zero of the other operand would
 * otherwise hide makes the result NaN. The last row ends where the allocation ends: a load past
 * it is compute-sanitizer's. */
static float *to_device(const float *host, int rows, int cols, int padded_rows, int padded_cols,
                        size_t ld)
{
    const size_t bytes = (size_t)padded_rows * ld * sizeof(float);
    float *d = (float *)tut_device_alloc(bytes, "grader matrix");
    tut_grader_poison(d, bytes);
    CUDA_CHECK(cudaMemset2D(d, ld * sizeof(float), 0, (size_t)padded_cols * sizeof(float),
                            (size_t)padded_rows));
    CUDA_CHECK(cudaMemcpy2D(d, ld * sizeof(float), host, (size_t)cols * sizeof(float),
                            (size_t)cols * sizeof(float), (size_t)rows, cudaMemcpyHostToDevice));
    return d;
}

static int is_poison(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits == 0xFFFFFFFFu;
}

/* One problem: M x K times K x N; leading dimensions ld_extra floats longer than the padded
 * rows. C gets one guard row below the result and ld - N guard columns to its right (beyond
 * the padding, which a float4 kernel may write); both must stay poisoned. */
static int run_problem(tut_grader *g, const graded_matmul *k, int M, int N, int K, int ld_extra)
{
    const int Kp = round_up(K, k->pad), Np = round_up(N, k->pad);
    const size_t lda = (size_t)Kp + ld_extra, ldb = (size_t)Np + ld_extra, ldc = ldb;
    float *a_host = random_matrix(&g->rng, M, K);
    float *b_host = random_matrix(&g->rng, K, N);
    float *A = to_device(a_host, M, K, M, Kp, lda);
    float *B = to_device(b_host, K, N, Kp, Np, ldb);
    const size_t c_floats = (size_t)(M + 1) * ldc;
    float *C = (float *)tut_device_alloc(c_floats * sizeof(float), "grader C");
    tut_grader_poison(C, c_floats * sizeof(float));

    const matmul_args args = {.M = M, .N = Np, .K = Kp, .A = A, .B = B, .C = C,
                              .lda = lda, .ldb = ldb, .ldc = ldc};
    printf("%s: %d x %d times %d x %d (lda %zu, ldb %zu, ldc %zu)\n", k->name, M, K, K, N, lda,
           ldb, ldc);
    const matmul_kernel_info info = k->info();
    tut_grader_poison_shared_for(info.kernel, info.threads, info.dynamic_shared);
    k->launch(&args);
    CUDA_CHECK(cudaDeviceSynchronize());
    (void)tut_grader_poison_shared_seen(); /* prints what the kernel found unwritten */

    float *c_all = (float *)tut_host_alloc(c_floats * sizeof(float), "result");
    CUDA_CHECK(cudaMemcpy(c_all, C, c_floats * sizeof(float), cudaMemcpyDeviceToHost));
    float *got = (float *)tut_host_alloc((size_t)M * N * sizeof(float), "result corner");
    for (int r = 0; r < M; ++r)
        memcpy(got + (size_t)r * N, c_all + (size_t)r * ldc, (size_t)N * sizeof(float));
    double *want = (double *)tut_host_alloc((size_t)M * N * sizeof(double), "reference");
    reference_rows(N, K, a_host, b_host, want, 0, M);

    char label[96];
    snprintf(label, sizeof label, "  %s %dx%dx%d", k->name, M, K, N);
    int ok = tut_check_f32_f64(label, got, want, (size_t)M * N, atol_for(K), rtol_for(K), NULL);

    /* The guards: a store without its row or column check lands here. */
    size_t outside = 0, first = 0;
    for (size_t i = 0; i < c_floats; ++i) {
        const size_t r = i / ldc, c = i % ldc;
        if ((r == (size_t)M || c >= (size_t)Np) && !is_poison(c_all[i]) && outside++ == 0)
            first = i;
    }
    if (outside) {
        printf("  %s wrote %zu elements outside the %d x %d result, the first at row %zu, "
               "column %zu (found %g, expected untouched): a store's bounds check is missing\n",
               k->name, outside, M, N, first / ldc, first % ldc, (double)c_all[first]);
        ok = 0;
    }
    free(a_host);
    free(b_host);
    free(c_all);
    free(got);
    free(want);
    tut_device_free(A);
    tut_device_free(B);
    tut_device_free(C);
    return ok;
}

static int size_in(tut_grader *g, int lo, int hi) { return (int)tut_grader_size(g, lo, hi); }

/* One dimension (0: M, 1: N, 2: K) at its boundary sizes, the others fixed. */
typedef struct {
    const graded_matmul *k;
    int dim;
    int fixed[3];
} matmul_boundary_job;

static int matmul_boundary_check(tut_grader *g, size_t n, void *ctx)
{
    const matmul_boundary_job *j = (const matmul_boundary_job *)ctx;
    int mnk[3] = {j->fixed[0], j->fixed[1], j->fixed[2]};
    mnk[j->dim] = (int)n;
    return run_problem(g, j->k, mnk[0], mnk[1], mnk[2], 0);
}

static int grade_matmul_boundaries(tut_grader *g, const graded_matmul *k)
{
    static const char *const dims[3] = {"M", "N", "K"};
    const int tiles[3] = {k->tile_m, k->tile_n, k->tile_k};
    const int threads[3] = {k->thread_m, k->thread_n, 0};
    const int pads[3] = {0, k->pad > 1 ? k->pad : 0, k->pad > 1 ? k->pad : 0};
    matmul_boundary_job job = {.k = k, .dim = 0, .fixed = {0, 0, 0}};
    for (int d = 0; d < 3; ++d) /* a second tile, partial */
        job.fixed[d] = tiles[d] + size_in(g, 1, tiles[d] - 1);
    int ok = 1;
    for (int d = 0; d < 3; ++d) {
        char tile_name[16], thread_name[24], pad_name[24];
        snprintf(tile_name, sizeof tile_name, "%s tile", dims[d]);
        snprintf(thread_name, sizeof thread_name, "%s per thread", dims[d]);
        snprintf(pad_name, sizeof pad_name, "%s float4", dims[d]);
        const tut_width widths[] = {{tile_name, (size_t)tiles[d]},
                                    {thread_name, (size_t)threads[d]},
                                    {pad_name, (size_t)pads[d]}};
        tut_boundary sizes[64];
        const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths),
                                                2 * (size_t)tiles[d] + 1, sizes,
                                                TUT_COUNT(sizes));
        for (size_t i = 0; i < count && sizes[i].name[0] == 's'; ++i) {
            char name[48]; /* "smallest 1" -> "M smallest 1" */
            snprintf(name, sizeof name, "%s %.40s", dims[d], sizes[i].name);
            memcpy(sizes[i].name, name, sizeof name);
        }
        job.dim = d;
        printf("%s at %zu boundary sizes, the others %d x %d x %d\n", dims[d], count,
               job.fixed[0], job.fixed[1], job.fixed[2]);
        ok &= tut_grader_run_boundaries(g, sizes, count, matmul_boundary_check, &job);
    }
    return ok;
}

int grade_matmul_case(tut_grader *g, const graded_matmul *k, const char *case_name)
{
    int ok = 1;
    const int pad_unit = k->pad > 1 ? k->pad : 1; /* N and K padded to multiples of this */
    if (strcmp(case_name, "one") == 0) {
        /* Dimensions of 1: one element, one dot product, an outer product, one row. */
        ok &= run_problem(g, k, 1, 1, 1, 0);
        ok &= run_problem(g, k, 1, 1, size_in(g, 2, 300), 0);
        ok &= run_problem(g, k, size_in(g, 2, 2 * k->tile_m + 1), size_in(g, 2, 2 * k->tile_n + 1),
                          1, 0);
        ok &= run_problem(g, k, 1, size_in(g, 2, 2 * k->tile_n + 1), size_in(g, 2, 100), 0);
    } else if (strcmp(case_name, "primes") == 0) {
        for (int p = 0; p < 3; ++p)
            ok &= run_problem(g, k, (int)tut_grader_prime(g, 2, 400),
                              (int)tut_grader_prime(g, 2, 400), (int)tut_grader_prime(g, 2, 400),
                              0);
    } else if (strcmp(case_name, "tile_edges") == 0) {
        /* One tile less one, one tile, one tile plus one (and multiples): the edges. */
        for (int p = 0; p < 3; ++p)
            ok &= run_problem(g, k, (int)tut_grader_tile_edge(g, (size_t)k->tile_m, 3),
                              (int)tut_grader_tile_edge(g, (size_t)k->tile_n, 3),
                              (int)tut_grader_tile_edge(g, (size_t)k->tile_k, 6), 0);
    } else if (strcmp(case_name, "strips") == 0) {
        /* The sanitizers' case: 3 or 4 blocks each way and 4 to 6 strips of K, the last block
         * and strip of each partial even after N and K are padded, so that every barrier stands
         * between two strips' tiles and every bounds check is needed. First dense rows (a load
         * past the last row's end leaves the allocation: memcheck), then longer ones (it reads
         * the NaN past each row's end: the result). */
        for (int p = 0; p < 2; ++p)
            ok &= run_problem(g, k, k->tile_m * size_in(g, 2, 3) + size_in(g, 1, k->tile_m - 1),
                              k->tile_n * size_in(g, 2, 3) + size_in(g, 1, k->tile_n - pad_unit),
                              k->tile_k * size_in(g, 3, 5) + size_in(g, 1, k->tile_k - pad_unit),
                              p * pad_unit);
    } else if (strcmp(case_name, "boundaries") == 0) {
        ok &= grade_matmul_boundaries(g, k);
    } else if (strcmp(case_name, "random") == 0) {
        /* Any size, leading dimensions longer than the rows (as a sub-matrix has: a kernel that
         * takes K for lda fails), a tall and a wide matrix. */
        for (int p = 0; p < 2; ++p)
            ok &= run_problem(g, k, size_in(g, 1, 600), size_in(g, 1, 600), size_in(g, 1, 600),
                              pad_unit * size_in(g, 1, 3));
        ok &= run_problem(g, k, size_in(g, 1000, 3000), size_in(g, 1, 9), size_in(g, 1, 40),
                          pad_unit);
        ok &= run_problem(g, k, size_in(g, 1, 9), size_in(g, 1000, 3000), size_in(g, 1, 40), 0);
    } else {
        fprintf(stderr, "grade_matmul: no case '%s'\n", case_name);
        return 0;
    }
    return ok;
}

/* ---- speed -------------------------------------------------------------------------------- */

typedef struct {
    const graded_matmul *k;
    matmul_args args;
    cublasHandle_t handle;
} speed_job;

static void run_student(void *p)
{
    const speed_job *j = (const speed_job *)p;
    j->k->launch(&j->args);
}

/* cuBLAS is column-major: C^T = B^T A^T on the same arrays is row-major C = A B (see
 * cublas_matmul.cu). Plain FP32 (pedantic math): the fair yardstick for FP32 kernels. */
static void run_cublas(void *p)
{
    const speed_job *j = (const speed_job *)p;
    const matmul_args *a = &j->args;
    const float one = 1.0f, zero = 0.0f;
    CUBLAS_CHECK(cublasSgemm(j->handle, CUBLAS_OP_N, CUBLAS_OP_N, a->N, a->M, a->K, &one, a->B,
                             (int)a->ldb, a->A, (int)a->lda, &zero, a->C, (int)a->ldc));
}

int grade_matmul_speed(tut_grader *g, const graded_matmul *k, double bar)
{
    const int n = SPEED_SIZE;
    const size_t elems = (size_t)n * n;
    float *a_host = random_matrix(&g->rng, n, n);
    float *b_host = random_matrix(&g->rng, n, n);
    float *A = to_device(a_host, n, n, n, n, n);
    float *B = to_device(b_host, n, n, n, n, n);
    float *C = (float *)tut_device_alloc(elems * sizeof(float), "C");
    float *C_cublas = (float *)tut_device_alloc(elems * sizeof(float), "cuBLAS C");
    speed_job job = {.k = k,
                     .args = {.M = n, .N = n, .K = n, .A = A, .B = B, .C = C,
                              .lda = (size_t)n, .ldb = (size_t)n, .ldc = (size_t)n},
                     .handle = NULL};
    CUBLAS_CHECK(cublasCreate(&job.handle));
    CUBLAS_CHECK(cublasSetMathMode(job.handle, CUBLAS_PEDANTIC_MATH));
    speed_job lib = job;
    lib.args.C = C_cublas;

    /* Correct first: sampled rows against float64, every element against cuBLAS. */
    printf("%s at %d^3: checking\n", k->name, n);
    tut_grader_poison(C, elems * sizeof(float));
    run_student(&job);
    run_cublas(&lib);
    CUDA_CHECK(cudaDeviceSynchronize());
    float *got = (float *)tut_host_alloc(elems * sizeof(float), "result");
    float *lib_got = (float *)tut_host_alloc(elems * sizeof(float), "cuBLAS result");
    CUDA_CHECK(cudaMemcpy(got, C, elems * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(lib_got, C_cublas, elems * sizeof(float), cudaMemcpyDeviceToHost));
    double *want_row = (double *)tut_host_alloc((size_t)n * sizeof(double), "reference row");
    int ok = 1;
    for (int s = 0; s < SPEED_SAMPLED_ROWS && ok; ++s) {
        const int row = s == 0 ? 0 : s == 1 ? n - 1 : size_in(g, 0, n - 1);
        reference_rows(n, n, a_host, b_host, want_row, row, row + 1);
        char label[96];
        snprintf(label, sizeof label, "  %s row %d", k->name, row);
        ok &= tut_check_f32_f64(label, got + (size_t)row * n, want_row, (size_t)n, atol_for(n),
                                rtol_for(n), NULL);
    }
    if (ok) {
        char label[96];
        snprintf(label, sizeof label, "  %s vs cuBLAS, every element", k->name);
        ok &= tut_check_f32(label, got, lib_got, elems, 2.0 * atol_for(n), 2.0 * rtol_for(n),
                            NULL);
    }
    if (ok) {
        double kernel_ms = 0.0, cublas_ms = 0.0;
        tut_grader_time_pair(run_student, &job, run_cublas, &lib, &kernel_ms, &cublas_ms);
        const double tflop = 2.0 * n * (double)n * n * 1e-12;
        ok = tut_grader_speed_verdict(k->name, tflop / (kernel_ms * 1e-3), "cuBLAS FP32",
                                      tflop / (cublas_ms * 1e-3), "TFLOP/s", bar);
    }
    CUBLAS_CHECK(cublasDestroy(job.handle));
    free(a_host);
    free(b_host);
    free(got);
    free(lib_got);
    free(want_row);
    tut_device_free(A);
    tut_device_free(B);
    tut_device_free(C);
    tut_device_free(C_cublas);
    return ok;
}
