/* The body of the ablations' pipelined kernel, included once per configuration (as
 * warptiled_kernel.cuh is). pipelined_configs.cu defines, before each include, the names and
 * whatever differs from the 128 x 128 configuration (defaults below; all #undef'd at the end):
 *   PL_BM, PL_BN, PL_BK   block tile (rows of C, columns of C, K strip)
 *   PL_WM, PL_WN          warp tile; PL_THREADS / 32 warps cover the block tile
 *   PL_LANES_M            lanes along M (the other 32 / PL_LANES_M go along N)
 *   PL_MIN_BLOCKS         blocks per SM for __launch_bounds__ (caps the registers)
 *   PL_STAGES             shared-memory buffers of B (2 to 4), filled by cp.async (or plain
 *                         loads and stores where the GPU has no cp.async: template parameter)
 *   PL_FRAG_DB            1: the fragments of step k + 1 are read from shared memory while the
 *                         FMAs of step k run (two register sets); 0: read, then use
 *   PL_GROUP              block rasterisation: blocks walk groups of PL_GROUP block rows column
 *                         by column (1: plain row-major order)
 *   PL_A_MAP              which thread copies which float4 of the A strip (see below)
 *   PL_A_SWIZZLE          1: A's columns flipped by k as in 10_pipelined.cu (a_column: for a
 *                         K strip of 32, so that its transposed stores hit 32 banks); 0: not
 *   PL_PLAIN_ONLY         1: plain loads for B even where cp.async exists (to measure it)
 *   PL_DYNAMIC_SHARED     1: the tiles live in dynamic shared memory, for configurations above
 *                         the 48 KiB a block may declare statically (asked for at launch through
 *                         tut_allow_dynamic_shared, refused where the GPU allows less)
 *   PL_KERNEL, PL_LAUNCH, PL_INFO  the names (PL_INFO: the kernel and what it asks of an SM)
 * The warp tiling and the fragment layout are those of 09_warptiled.cu. */

/* What a configuration leaves undefined takes the 128 x 128 configuration's value. */
#ifndef PL_BM
#define PL_BM 128
#endif
#ifndef PL_BN
#define PL_BN 128
#endif
#ifndef PL_BK
#define PL_BK 16
#endif
#ifndef PL_WM
#define PL_WM 32
#endif
#ifndef PL_WN
#define PL_WN 64
#endif
#ifndef PL_LANES_M
#define PL_LANES_M 4
#endif
#ifndef PL_THREADS
#define PL_THREADS 256
#endif
#ifndef PL_MIN_BLOCKS
#define PL_MIN_BLOCKS 2
#endif
#ifndef PL_STAGES
#define PL_STAGES 2
#endif
#ifndef PL_FRAG_DB
#define PL_FRAG_DB 1
#endif
#ifndef PL_A_MAP
#define PL_A_MAP 0
#endif
#ifndef PL_GROUP
#define PL_GROUP 16
#endif
#ifndef PL_DYNAMIC_SHARED
#define PL_DYNAMIC_SHARED 0
#endif
#ifndef PL_A_SWIZZLE
#define PL_A_SWIZZLE 1
#endif
#ifndef PL_PLAIN_ONLY
#define PL_PLAIN_ONLY 0
#endif
#if !defined(PL_KERNEL) || !defined(PL_LAUNCH) || !defined(PL_INFO)
#error "define PL_KERNEL, PL_LAUNCH and PL_INFO before including pipelined_kernel.cuh"
#endif

#define PL_LANES_N (32 / PL_LANES_M)
#define PL_TM (PL_WM / PL_LANES_M) /* results per thread along M */
#define PL_TN (PL_WN / PL_LANES_N)
#define PL_A_LOADS (PL_BM * PL_BK / 4 / PL_THREADS) /* float4s of A per thread per strip */
#define PL_B_LOADS (PL_BK * PL_BN / 4 / PL_THREADS)
#define PL_A_ROW_STEP (PL_THREADS / (PL_BK / 4))   /* rows between one thread's A loads */
#define PL_B_ROW_STEP (PL_THREADS / (PL_BN / 4))
#define PL_SHARED_BYTES PIPELINED_SHARED_BYTES(PL_BM, PL_BN, PL_BK, PL_STAGES)
#define PL_A_COLUMN(m, k) (PL_A_SWIZZLE ? pipelined_a_column(m, k, PL_BK) : (m))

/* ASYNC: B by cp.async (true) or by plain loads and stores (false); see pl_copy16. */
template <bool ASYNC>
__global__ void __launch_bounds__(PL_THREADS, PL_MIN_BLOCKS)
PL_KERNEL(int M, int N, int K, const float *__restrict__ A, size_t lda,
          const float *__restrict__ B, size_t ldb, float *__restrict__ C, size_t ldc)
{
    /* A: two buffers, filled through registers (transposed: a_tile[k][m]). B: PL_STAGES
     * buffers, filled by cp.async straight from global memory (no registers, no transpose). */
#if PL_DYNAMIC_SHARED
    extern __shared__ __align__(16) float pl_dynamic_shared[];
    float (*a_tile)[PL_BK][PL_BM + PL_APAD] = (float (*)[PL_BK][PL_BM + PL_APAD])pl_dynamic_shared;
    float (*b_tile)[PL_BK][PL_BN] =
        (float (*)[PL_BK][PL_BN])(pl_dynamic_shared + 2 * PL_BK * (PL_BM + PL_APAD));
#else
    __shared__ __align__(16) float a_tile[2][PL_BK][PL_BM + PL_APAD];
    __shared__ __align__(16) float b_tile[PL_STAGES][PL_BK][PL_BN];
    static_assert(sizeof a_tile + sizeof b_tile == PL_SHARED_BYTES, "see launch_config.h");
#endif

    const int tid = threadIdx.x;

    /* Rasterisation: block b of the launch takes block row first + b % rows of its group and
     * block column b / rows, so the blocks resident at one time share a few rows of A and a few
     * columns of B (kept in L2) instead of one row of A and all of B. */
    int brow = blockIdx.y, bcol = blockIdx.x;
#if PL_GROUP > 1
    {
        const int per_group = PL_GROUP * (int)gridDim.x;
        const int b = blockIdx.y * (int)gridDim.x + blockIdx.x;
        const int first = b / per_group * PL_GROUP;
        const int rows = (int)gridDim.y - first < PL_GROUP ? (int)gridDim.y - first : PL_GROUP;
        brow = first + b % per_group % rows;
        bcol = b % per_group / rows;
    }
#endif
    const int row0 = brow * PL_BM, col0 = bcol * PL_BN;

    const int warp = tid / 32, lane = tid % 32;
    const int frag_row = (warp / (PL_BN / PL_WN)) * PL_WM + (lane / PL_LANES_N) * 4;
    const int frag_col = (warp % (PL_BN / PL_WN)) * PL_WN + (lane % PL_LANES_N) * 4;

#if PL_A_MAP
    /* Warp w copies rows 16 w .. 16 w + 15 of the A strip, half a warp per float4 column, one
     * column pair per load: its transposed stores then hit 32 different banks. */
#if PL_BM != 16 * (PL_THREADS / 32) || PL_BK != 8 * PL_A_LOADS
#error "PL_A_MAP needs PL_BM = 16 warps and PL_BK = 8 loads of A per thread"
#endif
    const int a_r = warp * 16 + lane % 16, a_c = (lane / 16) * 4;
#define PL_A_ROW(l) a_r
#define PL_A_COL(l) (a_c + (l) * 8)
#else
    /* Consecutive threads copy consecutive float4s of a row (the transposed stores of a warp
     * then fall on 16 banks, two ways each). */
    const int a_r = tid / (PL_BK / 4), a_c = (tid % (PL_BK / 4)) * 4;
#define PL_A_ROW(l) (a_r + (l) * PL_A_ROW_STEP)
#define PL_A_COL(l) a_c
#endif
    const int b_r = tid / (PL_BN / 4), b_c = (tid % (PL_BN / 4)) * 4;

    float acc[PL_TM][PL_TN];
#pragma unroll
    for (int m = 0; m < PL_TM; ++m)
#pragma unroll
        for (int n = 0; n < PL_TN; ++n)
            acc[m][n] = 0.0f;

    float4 a_next[PL_A_LOADS];
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);

#define PL_LOAD_A(k0)                                                                          \
    do {                                                                                       \
        _Pragma("unroll") for (int l = 0; l < PL_A_LOADS; ++l) {                               \
            const int r = row0 + PL_A_ROW(l), k = (k0) + PL_A_COL(l);                          \
            a_next[l] = (r < M && k < K) ? *(const float4 *)&A[(size_t)r * lda + k] : zero;    \
        }                                                                                      \
    } while (0)

#define PL_STORE_A(buf)                                                                        \
    do {                                                                                       \
        _Pragma("unroll") for (int l = 0; l < PL_A_LOADS; ++l) {                               \
            const int r = PL_A_ROW(l), c = PL_A_COL(l);                                        \
            a_tile[buf][c + 0][PL_A_COLUMN(r, c + 0)] = a_next[l].x;                           \
            a_tile[buf][c + 1][PL_A_COLUMN(r, c + 1)] = a_next[l].y;                           \
            a_tile[buf][c + 2][PL_A_COLUMN(r, c + 2)] = a_next[l].z;                           \
            a_tile[buf][c + 3][PL_A_COLUMN(r, c + 3)] = a_next[l].w;                           \
        }                                                                                      \
    } while (0)

    /* Starts the copy of strip k0 of B into stage `st`; float4s outside B are zero-filled. */
#define PL_COPY_B(st, k0)                                                                      \
    do {                                                                                       \
        _Pragma("unroll") for (int l = 0; l < PL_B_LOADS; ++l) {                               \
            const int k = (k0) + b_r + l * PL_B_ROW_STEP, c = col0 + b_c;                      \
            const int in = k < K && c < N;                                                     \
            pl_copy16<ASYNC>(&b_tile[st][b_r + l * PL_B_ROW_STEP][b_c],                        \
                             in ? &B[(size_t)k * ldb + c] : B, in);                            \
        }                                                                                      \
    } while (0)

    /* Fragment of step k of the current strip into register set f. */
#define PL_LOAD_FRAG(f, k)                                                                     \
    do {                                                                                       \
        _Pragma("unroll") for (int g = 0; g < PL_TM / 4; ++g) {                                \
            const float4 v = *(const float4 *)&a_tile[cur][k][PL_A_COLUMN(frag_row, k) +       \
                                                               g * 4 * PL_LANES_M];            \
            a_frag[f][4 * g + 0] = v.x;                                                        \
            a_frag[f][4 * g + 1] = v.y;                                                        \
            a_frag[f][4 * g + 2] = v.z;                                                        \
            a_frag[f][4 * g + 3] = v.w;                                                        \
        }                                                                                      \
        _Pragma("unroll") for (int g = 0; g < PL_TN / 4; ++g) {                                \
            const float4 v = *(const float4 *)&b_tile[stage][k][frag_col + g * 4 * PL_LANES_N];\
            b_frag[f][4 * g + 0] = v.x;                                                        \
            b_frag[f][4 * g + 1] = v.y;                                                        \
            b_frag[f][4 * g + 2] = v.z;                                                        \
            b_frag[f][4 * g + 3] = v.w;                                                        \
        }                                                                                      \
    } while (0)

    /* Prologue: strips 0 .. PL_STAGES - 2 of B in flight (one commit group each, empty past
     * the end, so the group count stays the same for every thread), strip 0 of A in shared. */
    const int strips = (K + PL_BK - 1) / PL_BK;
#pragma unroll
    for (int s = 0; s < PL_STAGES - 1; ++s) {
        if (s < strips)
            PL_COPY_B(s, s * PL_BK);
        pl_commit<ASYNC>();
    }
    PL_LOAD_A(0);
    PL_STORE_A(0);
    pl_wait<ASYNC, PL_STAGES - 2>(); /* at most PL_STAGES - 2 groups pending: strip 0 landed */
    __syncthreads();

    int stage = 0, fill = PL_STAGES - 1; /* stage read now; stage the next copy goes to */
    for (int s = 0; s < strips; ++s) {
        const int cur = s & 1;
        const int more = s + 1 < strips; /* the same for every thread: barriers stay uniform */
        if (more)
            PL_LOAD_A((s + 1) * PL_BK);
        /* Stage `fill` held strip s - 1, read in the previous iteration, which ended in a
         * barrier: it is free. */
        if (s + PL_STAGES - 1 < strips) {
            PL_COPY_B(fill, (s + PL_STAGES - 1) * PL_BK);
        }
        pl_commit<ASYNC>();

        float a_frag[PL_FRAG_DB + 1][PL_TM], b_frag[PL_FRAG_DB + 1][PL_TN];
#if PL_FRAG_DB
        PL_LOAD_FRAG(0, 0);
#endif
#pragma unroll
        for (int k = 0; k < PL_BK; ++k) {
#if PL_FRAG_DB
            const int f = k & 1;
            if (k + 1 < PL_BK)
                PL_LOAD_FRAG(f ^ 1, k + 1);
#else
            const int f = 0;
            PL_LOAD_FRAG(0, k);
#endif
#pragma unroll
            for (int m = 0; m < PL_TM; ++m)
#pragma unroll
                for (int n = 0; n < PL_TN; ++n)
                    acc[m][n] += a_frag[f][m] * b_frag[f][n];
        }
        if (more)
            PL_STORE_A(cur ^ 1);
        pl_wait<ASYNC, PL_STAGES - 2>(); /* strip s + 1 of B has landed (this thread's) */
        __syncthreads(); /* ... everyone's, and A's stores; stage `stage` is free again */
        stage = stage + 1 == PL_STAGES ? 0 : stage + 1;
        fill = fill + 1 == PL_STAGES ? 0 : fill + 1;
    }
#undef PL_LOAD_A
#undef PL_STORE_A
#undef PL_COPY_B
#undef PL_LOAD_FRAG
#undef PL_A_ROW
#undef PL_A_COL

#pragma unroll
    for (int m = 0; m < PL_TM; ++m) {
        const int r = row0 + frag_row + (m / 4) * 4 * PL_LANES_M + m % 4;
#pragma unroll
        for (int g = 0; g < PL_TN / 4; ++g) {
            const int c = col0 + frag_col + g * 4 * PL_LANES_N;
            if (r < M && c < N)
                *(float4 *)&C[(size_t)r * ldc + c] = make_float4(
                    acc[m][4 * g + 0], acc[m][4 * g + 1], acc[m][4 * g + 2], acc[m][4 * g + 3]);
        }
    }
}

/* The kernel this run launches (the cp.async or the plain-load instantiation), its block size
 * and its dynamic shared memory: what the driver checks against the GPU before running it. */
matmul_kernel_info PL_INFO(void)
{
    const bool async = pl_async() && !PL_PLAIN_ONLY;
    const matmul_kernel_info info = {
        .kernel = async ? (const void *)PL_KERNEL<true> : (const void *)PL_KERNEL<false>,
        .threads = PL_THREADS,
        .dynamic_shared = PL_DYNAMIC_SHARED ? PL_SHARED_BYTES : 0,
        .copy = async ? "cp.async" : "plain loads"};
    return info;
}

void PL_LAUNCH(const matmul_args *a)
{
    dim3 grid((a->N + PL_BN - 1) / PL_BN, (a->M + PL_BM - 1) / PL_BM);
    const size_t dynamic = PL_DYNAMIC_SHARED ? PL_SHARED_BYTES : 0;
    if (pl_async() && !PL_PLAIN_ONLY)
        PL_KERNEL<true><<<grid, PL_THREADS, dynamic>>>(a->M, a->N, a->K, a->A, a->lda, a->B,
                                                       a->ldb, a->C, a->ldc);
    else
        PL_KERNEL<false><<<grid, PL_THREADS, dynamic>>>(a->M, a->N, a->K, a->A, a->lda, a->B,
                                                        a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

#undef PL_LANES_N
#undef PL_BM
#undef PL_BN
#undef PL_BK
#undef PL_WM
#undef PL_WN
#undef PL_LANES_M
#undef PL_THREADS
#undef PL_MIN_BLOCKS
#undef PL_STAGES
#undef PL_FRAG_DB
#undef PL_GROUP
#undef PL_A_MAP
#undef PL_DYNAMIC_SHARED
#undef PL_A_SWIZZLE
#undef PL_PLAIN_ONLY
#undef PL_SHARED_BYTES
#undef PL_A_COLUMN
#undef PL_KERNEL
#undef PL_LAUNCH
#undef PL_INFO
#undef PL_TM
#undef PL_TN
#undef PL_A_LOADS
#undef PL_B_LOADS
#undef PL_A_ROW_STEP
#undef PL_B_ROW_STEP
