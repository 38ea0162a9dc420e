/* The documents' first shared-memory kernel (Numba's fast_matmul, TPB = 3 on 4 x 4), ported
 * line for line with its bugs, then fixed. First the question's own observation: the kernel as
 * written is right with TPB = 2 (4 is a multiple of 2: no thread lies outside the matrices) and
 * wrong with TPB = 3.
 *
 * Three bugs, each enough to break it when the size is not a multiple of TPB:
 *  1. The early return tests `x >= n && y >= n`: only threads outside in BOTH directions quit.
 *     Threads with one index outside go on, load A and B out of bounds and store C out of bounds.
 *  2. With `||` instead, the quitting threads would skip the __syncthreads() that the others
 *     reach: a barrier in divergent code, undefined behaviour (the tile elements they should
 *     have loaded are never written either).
 *  3. Loads are not guarded: the last strip reads past the end of A's rows and of B.
 * Run the buggy kernel under compute-sanitizer (memcheck) to see the out-of-bounds accesses
 * named with file and line; the docs quote that report. */
#include <stdio.h>

#include "tutorial.h"
#include "matmul.h"

#define FIXED_TPB 3

/* As in the document: square n x n, x is the row, y the column, bpg strips of TPB. TPB is a
 * compile-time constant in Numba too (it gives the shared arrays their shape). */
template <int TPB>
__global__ void document_fast_matmul_buggy(const float *A, const float *B, float *C, int n)
{
    __shared__ float sA[TPB][TPB];
    __shared__ float sB[TPB][TPB];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int bpg = gridDim.x;

    if (x >= n && y >= n) /* BUG 1: should be ||, and even then see BUG 2 */
        return;

    float tmp = 0.0f;
    for (int i = 0; i < bpg; ++i) {
        sA[tx][ty] = A[x * n + ty + i * TPB]; /* BUG 3: no bounds check */
        sB[tx][ty] = B[(tx + i * TPB) * n + y];
        __syncthreads(); /* BUG 2: not every thread of the block gets here */
        for (int j = 0; j < TPB; ++j)
            tmp += sA[tx][j] * sB[j][ty];
        __syncthreads();
    }
    C[x * n + y] = tmp; /* out of bounds for x == n or y == n */
}

/* The fix, for any M x K times K x N: every thread reaches every barrier, loads outside the
 * matrices put 0 in the tile, the number of strips follows K (not the grid), stores are guarded.
 * 04_tiled.cu is the same kernel with 16 x 16 tiles. */
__global__ void document_fast_matmul_fixed(const float *A, const float *B, float *C, int M, int N,
                                           int K)
{
    __shared__ float sA[FIXED_TPB][FIXED_TPB];
    __shared__ float sB[FIXED_TPB][FIXED_TPB];
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int tx = threadIdx.x, ty = threadIdx.y;

    float tmp = 0.0f;
    for (int k0 = 0; k0 < K; k0 += FIXED_TPB) {
        sA[tx][ty] = (x < M && k0 + ty < K) ? A[(size_t)x * K + k0 + ty] : 0.0f;
        sB[tx][ty] = (k0 + tx < K && y < N) ? B[(size_t)(k0 + tx) * N + y] : 0.0f;
        __syncthreads();
        for (int j = 0; j < FIXED_TPB; ++j)
            tmp += sA[tx][j] * sB[j][ty];
        __syncthreads();
    }
    if (x < M && y < N)
        C[(size_t)x * N + y] = tmp;
}

/* A = arange(M*K) (M x K), B = ones (K x N), like the documents; returns C on the host.
 * buggy_tpb: 2 or 3 runs the document's kernel with that TPB, 0 the fixed one (TPB = 3).
 *
 * Where the out-of-bounds reads land decides what the buggy kernel computes. Separate, exactly
 * sized allocations (packed = 0) are what compute-sanitizer checks: it reports every access
 * past an end. On a GPU the bytes just past a small allocation are often zeros, and zeros added
 * to the sums change nothing: the buggy kernel can print the right answer. With packed = 1 the
 * matrices sit back to back in one allocation, as a memory pool may place them (Numba's did
 * something of the kind): A, B, then FILLER values, then C. Now the reads past A's rows pick up
 * B and the reads past B pick up the filler, and the wrong rows are plain to see. */
#define FILLER 1000.0f

static void run_case(int M, int N, int K, int buggy_tpb, int packed, float *c_host)
{
    const size_t a_n = (size_t)M * K, b_n = (size_t)K * N, c_n = (size_t)M * N;
    const size_t gap = a_n + b_n; /* enough filler for any read the buggy kernel makes */
    float *a_host = (float *)tut_host_alloc(tut_bytes(a_n, sizeof(float), "A"), "A");
    float *b_host = (float *)tut_host_alloc(tut_bytes(b_n, sizeof(float), "B"), "B");
    float *filler = (float *)tut_host_alloc(tut_bytes(gap, sizeof(float), "filler"), "filler");
    for (size_t i = 0; i < a_n; ++i)
        a_host[i] = (float)i;
    for (size_t i = 0; i < b_n; ++i)
        b_host[i] = 1.0f;
    for (size_t i = 0; i < gap; ++i)
        filler[i] = FILLER;
    float *pool = NULL, *A, *B, *C;
    if (packed) {
        /* [A | B | filler | C | room for C's out-of-bounds stores] */
        pool = (float *)tut_device_alloc((a_n + b_n + gap + 2 * c_n) * sizeof(float), "pool");
        A = pool;
        B = A + a_n;
        C = B + b_n + gap;
        CUDA_CHECK(cudaMemcpy(B + b_n, filler, gap * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemset(C + c_n, 0, c_n * sizeof(float)));
    } else {
        A = (float *)tut_device_alloc(a_n * sizeof(float), "A");
        B = (float *)tut_device_alloc(b_n * sizeof(float), "B");
        C = (float *)tut_device_alloc(c_n * sizeof(float), "C");
    }
    CUDA_CHECK(cudaMemcpy(A, a_host, a_n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(B, b_host, b_n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(C, 0, c_n * sizeof(float))); /* the document started from zeros */
    const int tpb = buggy_tpb ? buggy_tpb : FIXED_TPB;
    dim3 block(tpb, tpb);
    dim3 grid((M + tpb - 1) / tpb, (N + tpb - 1) / tpb);
    if (buggy_tpb == 2) {
        document_fast_matmul_buggy<2><<<grid, block>>>(A, B, C, M);
    } else if (buggy_tpb == 3) {
        document_fast_matmul_buggy<3><<<grid, block>>>(A, B, C, M);
    } else {
        document_fast_matmul_fixed<<<grid, block>>>(A, B, C, M, N, K);
    }
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(c_host, C, c_n * sizeof(float), cudaMemcpyDeviceToHost));
    if (packed) {
        tut_device_free(pool);
    } else {
        tut_device_free(A);
        tut_device_free(B);
        tut_device_free(C);
    }
    free(a_host);
    free(b_host);
    free(filler);
}

static void print_matrix(const char *label, const float *c, int M, int N)
{
    printf("%s\n", label);
    for (int i = 0; i < M; ++i) {
        printf("  [");
        for (int j = 0; j < N; ++j)
            printf("%s%g", j ? ", " : "", c[(size_t)i * N + j]);
        printf("]\n");
    }
}

/* Row i of arange(M*K) times ones sums K consecutive integers starting at i*K. */
static int rows_are_right(const float *c, int M, int N, int K)
{
    for (int i = 0; i < M; ++i) {
        const double first = (double)i * K, want = K * first + (double)K * (K - 1) / 2;
        for (int j = 0; j < N; ++j)
            if (c[(size_t)i * N + j] != (float)want)
                return 0;
    }
    return 1;
}

/* Prints what the rows are and whether that is what this run must show ("wrong" is the
 * expected outcome of the kernel as written with TPB = 3); returns 1 if it is. */
static int check_rows(const char *what, const char *rows, int right, int want_right)
{
    const int ok = right == want_right;
    printf("check %s: the rows are %s%s%s, %s: %s\n", what, right ? "right (" : "wrong",
           right ? rows : "", right ? ")" : "",
           want_right ? "as they must be" : "as the question reports", ok ? "ok" : "FAIL");
    return ok;
}

int run_pitfall_demo(int buggy_only, int fixed_only)
{
    float c[4 * 4], c2[5 * 7];
    printf("The documents' fast_matmul on 4x4: A = arange(16), B = ones\n");
    printf("expected rows: 6, 22, 38, 54 (the Numba original with TPB = 3 printed [6,6,6,6],\n"
           "[3,3,22,22], [15,15,38,38], [27,27,54,54] on an H200)\n");
    int ok = 1;
    if (!fixed_only) {
        if (!buggy_only) {
            /* The question's observation, checked. The matrices are packed in one allocation
             * with filler after B, so that what TPB = 3 reads past them is not zeros. Never
             * under compute-sanitizer: TPB = 3 reads and writes out of bounds on purpose, and
             * memcheck would stop the kernel at the first (--pitfall buggy is that demo). */
            run_case(4, 4, 4, 2, 1, c);
            print_matrix("as written, TPB = 2 (2x2 blocks of 2x2 threads), packed:", c, 4, 4);
            ok &= check_rows("as written with TPB = 2", "6, 22, 38, 54", rows_are_right(c, 4, 4, 4),
                             1);
            run_case(4, 4, 4, 3, 1, c);
            print_matrix("as written, TPB = 3 (2x2 blocks of 3x3 threads), packed:", c, 4, 4);
            ok &= check_rows("as written with TPB = 3", "6, 22, 38, 54", rows_are_right(c, 4, 4, 4),
                             0);
        }
        run_case(4, 4, 4, 3, 0, c);
        print_matrix("as written, TPB = 3, separate exact allocations:", c, 4, 4);
        const int right = rows_are_right(c, 4, 4, 4);
        printf("  %s\n", right ? "right by luck: the out-of-bounds reads found zeros "
                                 "(run it under compute-sanitizer)"
                               : "WRONG");
        if (buggy_only)
            return right; /* a demonstration for the sanitizer, not a check */
    }
    run_case(4, 4, 4, 0, 1, c); /* packed: the fix must not read the filler either */
    print_matrix("fixed kernel, 4x4:", c, 4, 4);
    ok &= check_rows("fixed 4x4", "6, 22, 38, 54", rows_are_right(c, 4, 4, 4), 1);
    run_case(5, 7, 23, 0, 1, c2);
    print_matrix("fixed kernel, arange(115) as 5x23 times ones 23x7:", c2, 5, 7);
    ok &= check_rows("fixed 5x23x7", "253, 782, 1311, 1840, 2369", rows_are_right(c2, 5, 7, 23), 1);
    return ok;
}
