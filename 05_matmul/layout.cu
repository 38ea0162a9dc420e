/* Padded and pitched copies of the operands: see layout.h. */
#include "tutorial.h"
#include "layout.h"

static int round_up(int x, int m) { return (x + m - 1) / m * m; }

/* rows x cols floats from a dense matrix into a zeroed one with `ld` floats per row. */
static float *padded_copy(const float *src, int rows, int cols, int padded_rows, size_t ld,
                          const char *what)
{
    const size_t bytes = tut_bytes(tut_bytes((size_t)padded_rows, ld, what), sizeof(float), what);
    float *dst = (float *)tut_device_alloc(bytes, what);
    CUDA_CHECK(cudaMemset(dst, 0, bytes));
    if (src)
        CUDA_CHECK(cudaMemcpy2D(dst, ld * sizeof(float), src, (size_t)cols * sizeof(float),
                                (size_t)cols * sizeof(float), (size_t)rows,
                                cudaMemcpyDeviceToDevice));
    return dst;
}

static float *pitched_copy(const float *src, int rows, int cols, size_t *ld)
{
    float *dst = NULL;
    size_t pitch = 0;
    CUDA_CHECK(cudaMallocPitch((void **)&dst, &pitch, (size_t)cols * sizeof(float), (size_t)rows));
    *ld = pitch / sizeof(float); /* the pitch is a multiple of the alignment, hence of 4 */
    if (src)
        CUDA_CHECK(cudaMemcpy2D(dst, pitch, src, (size_t)cols * sizeof(float),
                                (size_t)cols * sizeof(float), (size_t)rows,
                                cudaMemcpyDeviceToDevice));
    return dst;
}

void prepare_layout(const matmul_args *dense, matmul_layout layout, int ld_extra,
                    matmul_prepared *p)
{
    const int M = dense->M, N = dense->N, K = dense->K;
    p->args = *dense;
    p->M = M;
    p->N = N;
    p->A = p->B = p->C = NULL;
    if (layout.pitched) {
        p->A = pitched_copy(dense->A, M, K, &p->args.lda);
        p->B = pitched_copy(dense->B, K, N, &p->args.ldb);
        p->C = pitched_copy(NULL, M, N, &p->args.ldc);
    } else {
        const int Mp = round_up(M, layout.pad_m), Np = round_up(N, layout.pad_n);
        const int Kp = round_up(K, layout.pad_k);
        if (Mp == M && Np == N && Kp == K && ld_extra == 0)
            return; /* already fits: run on the caller's matrices */
        const size_t lda = (size_t)Kp + ld_extra, ldb = (size_t)Np + ld_extra;
        p->A = padded_copy(dense->A, M, K, Mp, lda, "padded A");
        p->B = padded_copy(dense->B, K, N, Kp, ldb, "padded B");
        p->C = padded_copy(NULL, M, N, Mp, ldb, "padded C");
        p->args.M = Mp;
        p->args.N = Np;
        p->args.K = Kp;
        p->args.lda = lda;
        p->args.ldb = ldb;
        p->args.ldc = ldb;
    }
    p->args.A = p->A;
    p->args.B = p->B;
    p->args.C = p->C;
}

void poison_result(const matmul_prepared *p)
{
    CUDA_CHECK(cudaMemset2D(p->args.C, p->args.ldc * sizeof(float), 0xFF,
                            (size_t)p->args.N * sizeof(float), (size_t)p->args.M));
}

void fetch_result(const matmul_prepared *p, float *c_host)
{
    CUDA_CHECK(cudaMemcpy2D(c_host, (size_t)p->N * sizeof(float), p->args.C,
                            p->args.ldc * sizeof(float), (size_t)p->N * sizeof(float),
                            (size_t)p->M, cudaMemcpyDeviceToHost));
}

void release_layout(matmul_prepared *p)
{
    tut_device_free(p->A);
    tut_device_free(p->B);
    tut_device_free(p->C);
    p->A = p->B = p->C = NULL;
}
