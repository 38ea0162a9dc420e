/* The body of the ablations' warp-tiled kernel, included once per configuration: a C-style way
 * to build one kernel with several sets of compile-time constants, so that one benchmark run
 * compares them. warptiled_configs.cu defines, before each include (all #undef'd at the end):
 *   WT_BM, WT_BN, WT_BK   block tile (rows of C, columns of C, K strip)
 *   WT_WM, WT_WN          warp tile; WT_THREADS / 32 warps cover the block tile
 *   WT_LANES_M            lanes along M (the other 32 / WT_LANES_M go along N)
 *   WT_MIN_BLOCKS         blocks per SM for __launch_bounds__ (caps the registers)
 *   WT_KERNEL, WT_LAUNCH, WT_INFO  the names
 * Each thread computes TM x TN results as (TM/4) x (TN/4) pieces of 4 x 4, the pieces of a
 * warp's lanes interleaved so that fragment reads are conflict-free (see below). */

#define WT_LANES_N (32 / WT_LANES_M)
#define WT_TM (WT_WM / WT_LANES_M) /* results per thread along M */
#define WT_TN (WT_WN / WT_LANES_N)
#define WT_A_LOADS (WT_BM * WT_BK / 4 / WT_THREADS) /* float4s of A per thread per strip */
#define WT_B_LOADS (WT_BK * WT_BN / 4 / WT_THREADS)
#define WT_A_ROW_STEP (WT_THREADS / (WT_BK / 4))   /* rows between one thread's A loads */
#define WT_B_ROW_STEP (WT_THREADS / (WT_BN / 4))

__global__ void __launch_bounds__(WT_THREADS, WT_MIN_BLOCKS)
WT_KERNEL(int M, int N, int K, const float *__restrict__ A, size_t lda,
          const float *__restrict__ B, size_t ldb, float *__restrict__ C, size_t ldc)
{
    /* Two buffers of each tile: the block computes from one while the next strip goes into the
     * other. A is stored transposed (a_tile[k][m]) so fragments of A are float4 reads too. */
    __shared__ __align__(16) float a_tile[2][WT_BK][WT_BM + WT_APAD];
    __shared__ __align__(16) float b_tile[2][WT_BK][WT_BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * WT_BM, col0 = blockIdx.x * WT_BN;

    /* Warp tiling: warp w owns a WT_WM x WT_WN piece of the block tile. Lane l owns the rows
     * 4 (l / WT_LANES_N) + 0..3, repeated every 4 WT_LANES_M rows, and the columns
     * 4 (l % WT_LANES_N) + 0..3, repeated every 4 WT_LANES_N columns. For one k, a warp then
     * reads WT_LANES_M distinct float4s of A and WT_LANES_N of B, each group contiguous (at most
     * 128 bytes): every fragment read is one conflict-free wavefront, the rest broadcasts. */
    const int warp = tid / 32, lane = tid % 32;
    const int frag_row = (warp / (WT_BN / WT_WN)) * WT_WM + (lane / WT_LANES_N) * 4;
    const int frag_col = (warp % (WT_BN / WT_WN)) * WT_WN + (lane % WT_LANES_N) * 4;

    /* Which float4s of the A and B strips this thread copies (coalesced rows of 16 or 32
     * bytes for A, 512 contiguous bytes per warp for B). */
    const int a_r = tid / (WT_BK / 4), a_c = (tid % (WT_BK / 4)) * 4;
    const int b_r = tid / (WT_BN / 4), b_c = (tid % (WT_BN / 4)) * 4;

    float acc[WT_TM][WT_TN];
#pragma unroll
    for (int m = 0; m < WT_TM; ++m)
#pragma unroll
        for (int n = 0; n < WT_TN; ++n)
            acc[m][n] = 0.0f;

    float4 a_next[WT_A_LOADS], b_next[WT_B_LOADS]; /* the next strip, on its way to shared */
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

    /* Global -> registers, zero-filling float4s outside the matrices (K and N are multiples of
     * 4, so a float4 is wholly inside or wholly outside). */
#define WT_LOAD_STRIP(k0)                                                                      \
    do {                                                                                       \
        _Pragma("unroll") for (int l = 0; l < WT_A_LOADS; ++l) {                               \
            const int r = row0 + a_r + l * WT_A_ROW_STEP, k = (k0) + a_c;                      \
            a_next[l] = (r < M && k < K) ? *(const float4 *)&A[(size_t)r * lda + k] : zero;    \
        }                                                                                      \
        _Pragma("unroll") for (int l = 0; l < WT_B_LOADS; ++l) {                               \
            const int k = (k0) + b_r + l * WT_B_ROW_STEP, c = col0 + b_c;                      \
            b_next[l] = (k < K && c < N) ? *(const float4 *)&B[(size_t)k * ldb + c] : zero;    \
        }                                                                                      \
    } while (0)

    /* Registers -> shared buffer `buf`, A transposed. */
#define WT_STORE_STRIP(buf)                                                                    \
    do {                                                                                       \
        _Pragma("unroll") for (int l = 0; l < WT_A_LOADS; ++l) {                               \
            const int r = a_r + l * WT_A_ROW_STEP;                                             \
            a_tile[buf][a_c + 0][r] = a_next[l].x;                                             \
            a_tile[buf][a_c + 1][r] = a_next[l].y;                                             \
            a_tile[buf][a_c + 2][r] = a_next[l].z;                                             \
            a_tile[buf][a_c + 3][r] = a_next[l].w;                                             \
        }                                                                                      \
        _Pragma("unroll") for (int l = 0; l < WT_B_LOADS; ++l)                                 \
            *(float4 *)&b_tile[buf][b_r + l * WT_B_ROW_STEP][b_c] = b_next[l];                 \
    } while (0)

    const int strips = (K + WT_BK - 1) / WT_BK;
    WT_LOAD_STRIP(0);
    WT_STORE_STRIP(0);
    __syncthreads();

    for (int s = 0; s < strips; ++s) {
        const int cur = s & 1;
        const int more = s + 1 < strips; /* the same for every thread: barriers stay uniform */
        /* Issue the next strip's global loads now; they complete while we compute below. */
        if (more)
            WT_LOAD_STRIP((s + 1) * WT_BK);
#pragma unroll
        for (int k = 0; k < WT_BK; ++k) {
            float a[WT_TM], b[WT_TN];
#pragma unroll
            for (int g = 0; g < WT_TM / 4; ++g) {
                const float4 v = *(const float4 *)&a_tile[cur][k][frag_row + g * 4 * WT_LANES_M];
                a[4 * g + 0] = v.x;
                a[4 * g + 1] = v.y;
                a[4 * g + 2] = v.z;
                a[4 * g + 3] = v.w;
            }
#pragma unroll
            for (int g = 0; g < WT_TN / 4; ++g) {
                const float4 v = *(const float4 *)&b_tile[cur][k][frag_col + g * 4 * WT_LANES_N];
                b[4 * g + 0] = v.x;
                b[4 * g + 1] = v.y;
                b[4 * g + 2] = v.z;
                b[4 * g + 3] = v.w;
            }
#pragma unroll
            for (int m = 0; m < WT_TM; ++m)
#pragma unroll
                for (int n = 0; n < WT_TN; ++n)
                    acc[m][n] += a[m] * b[n];
        }
        /* The other buffer was last read in the previous iteration, which ended in a barrier,
         * so it is free: fill it, then one barrier makes it visible and retires `cur`. */
        if (more)
            WT_STORE_STRIP(cur ^ 1);
        __syncthreads();
    }
#undef WT_LOAD_STRIP
#undef WT_STORE_STRIP

#pragma unroll
    for (int m = 0; m < WT_TM; ++m) {
        const int r = row0 + frag_row + (m / 4) * 4 * WT_LANES_M + m % 4;
#pragma unroll
        for (int g = 0; g < WT_TN / 4; ++g) {
            const int c = col0 + frag_col + g * 4 * WT_LANES_N;
            if (r < M && c < N)
                *(float4 *)&C[(size_t)r * ldc + c] = make_float4(
                    acc[m][4 * g + 0], acc[m][4 * g + 1], acc[m][4 * g + 2], acc[m][4 * g + 3]);
        }
    }
}

matmul_kernel_info WT_INFO(void)
{
    return matmul_info((const void *)WT_KERNEL, WT_THREADS, 0);
}

void WT_LAUNCH(const matmul_args *a)
{
    dim3 grid((a->N + WT_BN - 1) / WT_BN, (a->M + WT_BM - 1) / WT_BM);
    WT_KERNEL<<<grid, WT_THREADS>>>(a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

#undef WT_LANES_N
#undef WT_BM
#undef WT_BN
#undef WT_BK
#undef WT_WM
#undef WT_WN
#undef WT_LANES_M
#undef WT_THREADS
#undef WT_MIN_BLOCKS
#undef WT_KERNEL
#undef WT_LAUNCH
#undef WT_INFO
#undef WT_TM
#undef WT_TN
#undef WT_A_LOADS
#undef WT_B_LOADS
#undef WT_A_ROW_STEP
#undef WT_B_ROW_STEP
