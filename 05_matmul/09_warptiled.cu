/* Step 9: warp tiling and double buffering (step 10, 10_pipelined.cu, goes further).
 *
 * Starting from 08_vectorized.cu:
 *   - Warp tiling. Each thread still computes 8 x 8 results, but as four 4 x 4 pieces spread
 *     over its warp's 32 x 64 tile (fragment_row/fragment_col below), so every fragment read
 *     from shared memory is conflict-free: one wavefront per float4 load.
 *   - Double buffering. Two shared-memory buffers per operand: while the block multiplies strip
 *     s from one, each thread's loads for strip s + 1 are already in flight into registers and
 *     are stored into the other buffer afterwards. Global-memory latency hides behind 16 k-steps
 *     of 64 FMAs each, and one __syncthreads() per strip is enough.
 *   - __launch_bounds__(256, 2): at most 128 registers per thread, so that two blocks (16 warps)
 *     fit on an SM whose shared memory holds them too (an H100's does; a T4's holds one block:
 *     tests/launch_config_test.c).
 * Other tile shapes (K strip 8, warp tile 64 x 32, 8 x 16 per thread, 128 x 256 blocks) are
 * measured by the benchmark-only program matmul_ablations (ablations/warptiled_configs.cu).
 * Like step 8 it needs N and K multiples of 4 (the driver pads other sizes). */
#include "tutorial.h"
#include "matmul.h"

#define BM 128         /* block tile: rows of C */
#define BN 128         /* columns of C */
#define BK 16          /* K strip */
#define THREADS 256    /* 8 warps, each computing a WARP_M x WARP_N piece */
#define WARP_M 32
#define WARP_N 64
#define LANES_M 4      /* a warp's lanes: 4 along M, 8 along N */
#define LANES_N (32 / LANES_M)
#define TM (WARP_M / LANES_M) /* results per thread: 8 x 8 */
#define TN (WARP_N / LANES_N)
#define APAD 4         /* a_tile rows of BM + 4 floats: the transposed stores spread over banks */
#define A_LOADS (BM * BK / 4 / THREADS) /* float4s of the A strip per thread: 2 */
#define B_LOADS (BK * BN / 4 / THREADS) /* and of B: 2 */

/* One strip of A and B on its way from global memory, in registers. */
typedef struct {
    float4 a[A_LOADS], b[B_LOADS];
} strip_regs;

/* Which float4s of a strip a thread copies: the float4 at column a_c of row a_r of the A strip,
 * then the rows A_ROW_STEP further on (coalesced rows of 64 bytes); of B, column b_c of row b_r
 * and so on (512 contiguous bytes per warp). The kernel computes a_r, a_c, b_r, b_c once. */
#define A_ROW_STEP (THREADS / (BK / 4))
#define B_ROW_STEP (THREADS / (BN / 4))
typedef struct {
    int a_r, a_c, b_r, b_c;
} copy_map;

/* Global -> registers: the float4s of strip k0 this thread copies, zero outside the matrices
 * (K and N are multiples of 4, so a float4 is wholly inside or wholly outside). */
static __device__ __forceinline__ strip_regs load_strip(const float *A, size_t lda, const float *B,
                                                        size_t ldb, int M, int N, int K, int row0,
                                                        int col0, int k0, copy_map m)
{
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    strip_regs s;
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
        const int r = row0 + m.a_r + l * A_ROW_STEP, k = k0 + m.a_c;
        s.a[l] = (r < M && k < K) ? *(const float4 *)&A[(size_t)r * lda + k] : zero;
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l) {
        const int k = k0 + m.b_r + l * B_ROW_STEP, c = col0 + m.b_c;
        s.b[l] = (k < K && c < N) ? *(const float4 *)&B[(size_t)k * ldb + c] : zero;
    }
    return s;
}

/* Registers -> one shared buffer, A transposed (a_tile[k][m]) so that fragments of A are float4
 * reads like those of B. */
static __device__ __forceinline__ void store_strip(const strip_regs *s,
                                                   float (*a_tile)[BM + APAD],
                                                   float (*b_tile)[BN], copy_map m)
{
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
        const int r = m.a_r + l * A_ROW_STEP, c = m.a_c;
        a_tile[c + 0][r] = s->a[l].x;
        a_tile[c + 1][r] = s->a[l].y;
        a_tile[c + 2][r] = s->a[l].z;
        a_tile[c + 3][r] = s->a[l].w;
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l)
        *(float4 *)&b_tile[m.b_r + l * B_ROW_STEP][m.b_c] = s->b[l];
}

/* TM (or TN) values from a shared row into registers, as float4s 4 * LANES apart. */
template <int COUNT, int LANES>
static __device__ __forceinline__ void load_fragment(float *frag, const float *row)
{
#pragma unroll
    for (int g = 0; g < COUNT / 4; ++g) {
        const float4 v = *(const float4 *)&row[g * 4 * LANES];
        frag[4 * g + 0] = v.x;
        frag[4 * g + 1] = v.y;
        frag[4 * g + 2] = v.z;
        frag[4 * g + 3] = v.w;
    }
}

__global__ void __launch_bounds__(THREADS, 2)
warptiled_kernel(int M, int N, int K, const float *__restrict__ A, size_t lda,
                 const float *__restrict__ B, size_t ldb, float *__restrict__ C, size_t ldc)
{
    __shared__ __align__(16) float a_tile[2][BK][BM + APAD];
    __shared__ __align__(16) float b_tile[2][BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    /* Warp w owns a WARP_M x WARP_N piece of the block tile. Lane l owns the rows
     * 4 (l / LANES_N) + 0..3, repeated every 4 LANES_M rows, and the columns 4 (l % LANES_N) +
     * 0..3, repeated every 4 LANES_N columns. For one k a warp then reads LANES_M distinct float4s
     * of A and LANES_N of B, each group contiguous (at most 128 bytes): every fragment read is
     * one conflict-free wavefront, the rest broadcasts. */
    const int warp = tid / 32, lane = tid % 32;
    const copy_map map = {.a_r = tid / (BK / 4), .a_c = (tid % (BK / 4)) * 4,
                          .b_r = tid / (BN / 4), .b_c = (tid % (BN / 4)) * 4};
    const int fragment_row = (warp / (BN / WARP_N)) * WARP_M + (lane / LANES_N) * 4;
    const int fragment_col = (warp % (BN / WARP_N)) * WARP_N + (lane % LANES_N) * 4;

    float acc[TM][TN];
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < TN; ++n)
            acc[m][n] = 0.0f;

    const int strips = (K + BK - 1) / BK;
    strip_regs next = load_strip(A, lda, B, ldb, M, N, K, row0, col0, 0, map);
    store_strip(&next, a_tile[0], b_tile[0], map);
    __syncthreads();

    for (int s = 0; s < strips; ++s) {
        const int cur = s & 1;
        const int more = s + 1 < strips; /* the same for every thread: barriers stay uniform */
        /* Issue the next strip's global loads now; they complete while we compute below. */
        if (more)
            next = load_strip(A, lda, B, ldb, M, N, K, row0, col0, (s + 1) * BK, map);
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            load_fragment<TM, LANES_M>(a, &a_tile[cur][k][fragment_row]);
            load_fragment<TN, LANES_N>(b, &b_tile[cur][k][fragment_col]);
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < TN; ++n)
                    acc[m][n] += a[m] * b[n];
        }
        /* The other buffer was last read in the previous iteration, which ended in a barrier,
         * so it is free: fill it, then one barrier makes it visible and retires `cur`. */
        if (more)
            store_strip(&next, a_tile[cur ^ 1], b_tile[cur ^ 1], map);
        __syncthreads();
    }

#pragma unroll
    for (int m = 0; m < TM; ++m) {
        const int r = row0 + fragment_row + (m / 4) * 4 * LANES_M + m % 4;
#pragma unroll
        for (int g = 0; g < TN / 4; ++g) {
            const int c = col0 + fragment_col + g * 4 * LANES_N;
            if (r < M && c < N)
                *(float4 *)&C[(size_t)r * ldc + c] = make_float4(
                    acc[m][4 * g + 0], acc[m][4 * g + 1], acc[m][4 * g + 2], acc[m][4 * g + 3]);
        }
    }
}

matmul_kernel_info info_warptiled(void)
{
    return matmul_info((const void *)warptiled_kernel, THREADS, 0);
}

void launch_warptiled(const matmul_args *a)
{
    dim3 grid((a->N + BN - 1) / BN, (a->M + BM - 1) / BM);
    warptiled_kernel<<<grid, THREADS>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C,
                                        a->ldc);
    LAUNCH_CHECK();
}
