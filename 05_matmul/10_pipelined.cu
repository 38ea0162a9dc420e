/* Step 10: cp.async for B, fragments double-buffered in registers, block rasterisation, and a
 * tile chosen from the GPU's limits and the matrix's size.
 *
 * Starting from 09_warptiled.cu (same warp tiling, 8 x 8 or 8 x 16 results per thread):
 *   - B goes from global to shared memory with cp.async (sm_80 and later): no registers on the
 *     way and no wait in the thread that issued it; with STAGES buffers the copy of strip
 *     s + STAGES - 1 is in flight while strip s is multiplied. A still goes through registers,
 *     because it is stored transposed (a_tile[k][m]) for float4 fragment reads.
 *   - The fragments of step k + 1 are read from shared memory while step k's FMAs run.
 *   - Blocks are numbered in groups of GROUP_ROWS block rows (block_position), so that the
 *     blocks resident at the same time share rows of A and columns of B in L2.
 *   - With a K strip of 32, A's transposed stores are spread over all 32 banks by flipping two
 *     bits of the column (a_column), where plain stores would queue 4 deep on the same banks.
 *   - launch_pipelined picks one of four configurations (launch_config.c). The largest,
 *     128 x 256 with a K strip of 32 and 8 x 16 results per thread (8 rows, 16 columns), is
 *     cuBLAS's shape: up to 255 registers and 99,328 bytes of shared memory per block, one
 *     block per SM, fewer shared loads per FMA than 8 x 8 and half the barriers of a strip of
 *     16 (16 x 8 per thread, the same loads, measured slower: ablations/candidate_configs.cu).
 *     The rule: the largest of 128 x 256, 128 x 128 (8 x 8 per thread, K strip 16) and
 *     64 x 128 that fits (128 x 256 does not on a T4 or a V100) and whose waves keep 90% of the
 *     SMs' slots busy; else 64 x 128.
 * What each idea buys is measured by the benchmark-only program matmul_ablations
 * (ablations/pipelined_configs.cu: one configuration per idea taken away;
 * docs/05_matmul_appendix.md).
 * cp.async needs compute capability 8.0. On an older GPU (or one emulated with TUT_EMULATE_GPU)
 * the kernel copies B with ordinary loads and stores: the same results, no asynchrony; the
 * program says which path it takes.
 * Like steps 8 and 9 it needs N and K multiples of 4 (the driver pads other sizes). */
#include <stdio.h>

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"

/* The block tile BM x BN, the K strip BK, the warp tile's rows WARP_M and the stages of B are
 * template parameters (one instantiation per configuration, launch_config.h). Fixed: */
#define WARP_N 64      /* warp tile columns, as in step 9 */
#define TM 8           /* results per thread along M */
/* A warp's 32 lanes: WARP_M / TM along M, the rest along N; a thread's results along N: */
#define LANES_M(WARP_M) ((WARP_M) / TM)          /* 4 (warp tile 32 x 64) or 8 (64 x 64) */
#define LANES_N(WARP_M) (32 / LANES_M(WARP_M))   /* 8 or 4 */
#define TN(WARP_M) (WARP_N / LANES_N(WARP_M))    /* 8 or 16 */
#define APAD 4         /* a_tile rows of BM + 4 floats, as in step 9 */
#define GROUP_ROWS 16  /* rasterisation: groups of 16 block rows */

/* How B reaches shared memory is chosen at run time (pipelined_async_copy: compute capability
 * 8.0, the emulated one under TUT_EMULATE_GPU) and passed to the kernel as the template
 * parameter ASYNC. cp.async exists in code compiled for sm_80 and later; code compiled for an
 * older architecture (the sm_75 cubin) holds only the plain path, whatever ASYNC says. */

/* 16 bytes from global `src` to shared `dst`, or 16 zero bytes when !in. */
template <bool ASYNC>
static __device__ __forceinline__ void copy16(float *dst, const float *src, int in)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (ASYNC) {
        const unsigned s = (unsigned)__cvta_generic_to_shared(dst);
        /* src-size 0: nothing is read, the 16 bytes are zero-filled. */
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src),
                     "r"(in ? 16 : 0)
                     : "memory");
        return;
    }
#endif
    *(float4 *)dst = in ? *(const float4 *)src : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
}

/* Closes the group of copies issued since the last commit. */
template <bool ASYNC>
static __device__ __forceinline__ void commit_copies(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (ASYNC)
        asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* Waits until at most PENDING groups of this thread's copies are still in flight. (Plain loads
 * and stores have landed when the next __syncthreads() returns: nothing to wait for.) */
template <bool ASYNC, int PENDING>
static __device__ __forceinline__ void wait_copies(void)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (ASYNC)
        asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
#endif
}

/* Rasterisation: block b of the launch takes block row first + b % rows of its group and block
 * column b / rows, so the blocks resident at one time share a few rows of A and a few columns
 * of B (kept in L2) instead of one row of A and all of B. */
static __device__ __forceinline__ void block_position(int *brow, int *bcol)
{
    const int per_group = GROUP_ROWS * (int)gridDim.x;
    const int b = blockIdx.y * (int)gridDim.x + blockIdx.x;
    const int first = b / per_group * GROUP_ROWS;
    const int rows = (int)gridDim.y - first < GROUP_ROWS ? (int)gridDim.y - first : GROUP_ROWS;
    *brow = first + b % per_group % rows;
    *bcol = b % per_group / rows;
}

/* Where column m of row k of the A tile is stored. With a K strip of 32, a warp stores a float4
 * column c of A (k = 4c .. 4c + 3) for 4 rows m and all 8 columns c at once. Stored at m, the
 * rows' 4-float pad moves odd columns c by 16 banks and no more: the 8 columns fall on 2 groups
 * of banks, 4 stores per bank. With bits 2-3 of m flipped by k / 8, each column gets a group of
 * its own: 32 different banks. The flipped bits are below 16, so a thread's fragment float4s
 * (4 * LANES_M floats apart) stay whole, at fixed offsets from
 * fragment_column(fragment_row, k). A strip of 16 (2 stores per bank) keeps m: there the flip
 * measured nothing and costs registers that the 8 x 8 configurations, at their cap of 128, do
 * not have. */
template <int BK>
static __device__ __forceinline__ int a_column(int m, int k)
{
    return pipelined_a_column(m, k, BK); /* launch_config.h: the CPU test checks it */
}

/* Where the fragments of row k start: the column of the thread's first row, fragment_row. */
template <int BK>
static __device__ __forceinline__ int fragment_column(int fragment_row, int k)
{
    return a_column<BK>(fragment_row, k);
}

/* A thread copies the float4 at column a_c of row a_r of the A strip and of the rows
 * THREADS / (BK / 4) further on; of B, column b_c of row b_r and so on (the kernel computes
 * a_r, a_c, b_r, b_c once). A's float4s of strip k0, global -> registers (zero outside A): */
template <int BM, int BK, int THREADS>
static __device__ __forceinline__ void load_a(float4 *next, const float *A, size_t lda, int M,
                                              int K, int row0, int k0, int a_r, int a_c)
{
#pragma unroll
    for (int l = 0; l < BM * BK / 4 / THREADS; ++l) {
        const int r = row0 + a_r + l * (THREADS / (BK / 4)), k = k0 + a_c;
        next[l] = (r < M && k < K) ? *(const float4 *)&A[(size_t)r * lda + k]
                                   : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
}

/* ... registers -> shared memory, transposed: a_tile[k][a_column(m, k)]. */
template <int BM, int BK, int THREADS>
static __device__ __forceinline__ void store_a(const float4 *next, float (*a_tile)[BM + APAD],
                                               int a_r, int a_c)
{
#pragma unroll
    for (int l = 0; l < BM * BK / 4 / THREADS; ++l) {
        const int r = a_r + l * (THREADS / (BK / 4)), c = a_c;
        a_tile[c + 0][a_column<BK>(r, c + 0)] = next[l].x;
        a_tile[c + 1][a_column<BK>(r, c + 1)] = next[l].y;
        a_tile[c + 2][a_column<BK>(r, c + 2)] = next[l].z;
        a_tile[c + 3][a_column<BK>(r, c + 3)] = next[l].w;
    }
}

/* Starts the copy of strip k0 of B into one stage; float4s outside B are zero-filled. */
template <int BN, int BK, int THREADS, bool ASYNC>
static __device__ __forceinline__ void copy_b(float (*b_stage)[BN], const float *B, size_t ldb,
                                              int N, int K, int col0, int k0, int b_r, int b_c)
{
#pragma unroll
    for (int l = 0; l < BK * BN / 4 / THREADS; ++l) {
        const int r = b_r + l * (THREADS / (BN / 4)), c = b_c;
        const int in = k0 + r < K && col0 + c < N;
        copy16<ASYNC>(&b_stage[r][c], in ? &B[(size_t)(k0 + r) * ldb + col0 + c] : B, in);
    }
}

/* The fragments of one k: TM values of A and TN of B, as float4s 4 * LANES apart (step 9). */
template <int WARP_M>
static __device__ __forceinline__ void load_fragments(float *a, float *b, const float *a_row,
                                                      const float *b_row)
{
#pragma unroll
    for (int g = 0; g < TM / 4; ++g) {
        const float4 v = *(const float4 *)&a_row[g * 4 * LANES_M(WARP_M)];
        a[4 * g + 0] = v.x;
        a[4 * g + 1] = v.y;
        a[4 * g + 2] = v.z;
        a[4 * g + 3] = v.w;
    }
#pragma unroll
    for (int g = 0; g < TN(WARP_M) / 4; ++g) {
        const float4 v = *(const float4 *)&b_row[g * 4 * LANES_N(WARP_M)];
        b[4 * g + 0] = v.x;
        b[4 * g + 1] = v.y;
        b[4 * g + 2] = v.z;
        b[4 * g + 3] = v.w;
    }
}

/* Threads of a block: one warp per WARP_M x WARP_N warp tile. */
#define PIPELINED_THREADS(BM, BN, WARP_M) ((BM) / (WARP_M) * ((BN) / WARP_N) * 32)

/* __launch_bounds__: THREADS per block, and as many blocks per SM as the 65,536 registers of an
 * SM hold at 2 per result (TM x TN accumulators, as many again for fragments and addresses):
 * 128 registers for 8 x 8 results, 255 for 8 x 16. STAGES: buffers of B. ASYNC: B by cp.async
 * (true) or by plain loads and stores (false). The tiles live in dynamic shared memory,
 * PIPELINED_SHARED_BYTES (above the 48 KiB a block gets unasked for 128 x 256; declaring the
 * smaller tiles' arrays statically instead measured the same). */
template <int BM, int BN, int BK, int WARP_M, int STAGES, bool ASYNC>
__global__ void __launch_bounds__(PIPELINED_THREADS(BM, BN, WARP_M),
                                  65536 / (PIPELINED_THREADS(BM, BN, WARP_M) * 2 * TM *
                                           TN(WARP_M)))
pipelined_kernel(int M, int N, int K, const float *__restrict__ A, size_t lda,
                 const float *__restrict__ B, size_t ldb, float *__restrict__ C, size_t ldc)
{
    enum {
        THREADS = PIPELINED_THREADS(BM, BN, WARP_M),
        N_LANES = LANES_N(WARP_M),      /* lanes along N: 8 or 4 */
        N_PER_THREAD = TN(WARP_M),      /* results per thread along N: 8 or 16 */
        A_LOADS = BM * BK / 4 / THREADS
    };
    /* A: two buffers, filled through registers (transposed). B: STAGES buffers, filled by
     * cp.async straight from global memory (no registers, no transpose). */
    extern __shared__ __align__(16) float pipelined_shared[];
    static_assert(4 * (2 * BK * (BM + APAD) + STAGES * BK * BN) ==
                      PIPELINED_SHARED_BYTES(BM, BN, BK, STAGES),
                  "the tiles below against launch_config.h's count");
    /* The lanes must tile the warp's 32 x 64 or 64 x 64 results exactly, in float4 columns. */
    static_assert(WARP_M % TM == 0 && 32 % LANES_M(WARP_M) == 0 &&
                      WARP_N % (4 * LANES_N(WARP_M)) == 0 && TN(WARP_M) % 4 == 0,
                  "WARP_M must give a whole number of lanes along M and float4 columns along N");
    float (*a_tile)[BK][BM + APAD] = (float (*)[BK][BM + APAD])pipelined_shared;
    float (*b_tile)[BK][BN] = (float (*)[BK][BN])(pipelined_shared + 2 * BK * (BM + APAD));

    const int tid = threadIdx.x;
    int brow, bcol;
    block_position(&brow, &bcol);
    const int row0 = brow * BM, col0 = bcol * BN;
    const int warp = tid / 32, lane = tid % 32;
    const int a_r = tid / (BK / 4), a_c = (tid % (BK / 4)) * 4;
    const int b_r = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;
    const int fragment_row = (warp / (BN / WARP_N)) * WARP_M + (lane / N_LANES) * 4;
    const int fragment_col = (warp % (BN / WARP_N)) * WARP_N + (lane % N_LANES) * 4;

    float acc[TM][N_PER_THREAD];
#pragma unroll
    for (int m = 0; m < TM; ++m)
#pragma unroll
        for (int n = 0; n < N_PER_THREAD; ++n)
            acc[m][n] = 0.0f;
    float4 a_next[A_LOADS];

    /* Prologue: strips 0 .. STAGES - 2 of B in flight (one commit group each, empty past the
     * end, so the group count stays the same for every thread), strip 0 of A in shared. */
    const int strips = (K + BK - 1) / BK;
#pragma unroll
    for (int s = 0; s < STAGES - 1; ++s) {
        if (s < strips)
            copy_b<BN, BK, THREADS, ASYNC>(b_tile[s], B, ldb, N, K, col0, s * BK, b_r, b_c);
        commit_copies<ASYNC>();
    }
    load_a<BM, BK, THREADS>(a_next, A, lda, M, K, row0, 0, a_r, a_c);
    store_a<BM, BK, THREADS>(a_next, a_tile[0], a_r, a_c);
    wait_copies<ASYNC, STAGES - 2>(); /* at most STAGES - 2 groups pending: strip 0 landed */
    __syncthreads();

    int stage = 0, fill = STAGES - 1; /* stage read now; stage the next copy goes to */
    for (int s = 0; s < strips; ++s) {
        const int cur = s & 1;
        const int more = s + 1 < strips; /* the same for every thread: barriers stay uniform */
        if (more)
            load_a<BM, BK, THREADS>(a_next, A, lda, M, K, row0, (s + 1) * BK, a_r, a_c);
        /* Stage `fill` held strip s - 1, read in the previous iteration, which ended in a
         * barrier: it is free. */
        if (s + STAGES - 1 < strips) {
            copy_b<BN, BK, THREADS, ASYNC>(b_tile[fill], B, ldb, N, K, col0,
                                           (s + STAGES - 1) * BK, b_r, b_c);
        }
        commit_copies<ASYNC>();

        /* Two register sets of fragments: step k + 1's are read while step k's FMAs run. */
        float a_frag[2][TM], b_frag[2][N_PER_THREAD];
        load_fragments<WARP_M>(a_frag[0], b_frag[0],
                           &a_tile[cur][0][fragment_column<BK>(fragment_row, 0)],
                           &b_tile[stage][0][fragment_col]);
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const int f = k & 1;
            if (k + 1 < BK)
                load_fragments<WARP_M>(a_frag[f ^ 1], b_frag[f ^ 1],
                                   &a_tile[cur][k + 1][fragment_column<BK>(fragment_row, k + 1)],
                                   &b_tile[stage][k + 1][fragment_col]);
#pragma unroll
            for (int m = 0; m < TM; ++m)
#pragma unroll
                for (int n = 0; n < N_PER_THREAD; ++n)
                    acc[m][n] += a_frag[f][m] * b_frag[f][n];
        }
        if (more)
            store_a<BM, BK, THREADS>(a_next, a_tile[cur ^ 1], a_r, a_c);
        wait_copies<ASYNC, STAGES - 2>(); /* strip s + 1 of B has landed (this thread's) */
        __syncthreads(); /* ... everyone's, and A's stores; stage `stage` is free again */
        stage = stage + 1 == STAGES ? 0 : stage + 1;
        fill = fill + 1 == STAGES ? 0 : fill + 1;
    }

#pragma unroll
    for (int m = 0; m < TM; ++m) {
        const int r = row0 + fragment_row + (m / 4) * 4 * LANES_M(WARP_M) + m % 4;
#pragma unroll
        for (int g = 0; g < N_PER_THREAD / 4; ++g) {
            const int c = col0 + fragment_col + g * 4 * N_LANES;
            if (r < M && c < N)
                *(float4 *)&C[(size_t)r * ldc + c] = make_float4(
                    acc[m][4 * g + 0], acc[m][4 * g + 1], acc[m][4 * g + 2], acc[m][4 * g + 3]);
        }
    }
}

/* Whether this run copies B with cp.async: read at each launch, since it is the device's. */
static bool async_copy(void)
{
    return pipelined_async_copy(tut_current_device()) != 0;
}

/* The four configurations launch_pipelined chooses from (pipelined_tile, launch_config.h): the
 * kernel this run launches for each (cp.async or plain instantiation), its block and its
 * shared memory. */
template <int BM, int BN, int BK, int WARP_M, int STAGES>
static matmul_kernel_info info_of(void)
{
    const bool async = async_copy();
    const matmul_kernel_info info = {
        .kernel = async ? (const void *)pipelined_kernel<BM, BN, BK, WARP_M, STAGES, true>
                        : (const void *)pipelined_kernel<BM, BN, BK, WARP_M, STAGES, false>,
        .threads = PIPELINED_THREADS(BM, BN, WARP_M),
        .dynamic_shared = PIPELINED_SHARED_BYTES(BM, BN, BK, STAGES),
        .copy = async ? "cp.async" : "plain loads"};
    return info;
}

template <int BM, int BN, int BK, int WARP_M, int STAGES>
static void launch_tile(const matmul_args *a)
{
    const dim3 grid((a->N + BN - 1) / BN, (a->M + BM - 1) / BM);
    const int threads = PIPELINED_THREADS(BM, BN, WARP_M);
    const size_t shared = PIPELINED_SHARED_BYTES(BM, BN, BK, STAGES);
    if (async_copy())
        pipelined_kernel<BM, BN, BK, WARP_M, STAGES, true><<<grid, threads, shared>>>(
            a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    else
        pipelined_kernel<BM, BN, BK, WARP_M, STAGES, false><<<grid, threads, shared>>>(
            a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

/* In the order of pipelined_tile: 128 x 256 (K strip 32, warp tile 64 x 64, 2 stages of B),
 * 128 x 128 (K strip 16, warp tile 32 x 64, 2 stages), 64 x 128 with 3 stages, with 2. */
static const matmul_info_fn tile_info[PIPELINED_TILE_COUNT] = {
    info_of<128, 256, 32, 64, 2>, info_of<128, 128, 16, 32, 2>, info_of<64, 128, 16, 32, 3>,
    info_of<64, 128, 16, 32, 2>};
static const matmul_launch_fn tile_launch[PIPELINED_TILE_COUNT] = {
    launch_tile<128, 256, 32, 64, 2>, launch_tile<128, 128, 16, 32, 2>,
    launch_tile<64, 128, 16, 32, 3>, launch_tile<64, 128, 16, 32, 2>};

/* What each candidate asks of an SM, asked of the runtime once (registers of the instantiation
 * this run launches), and the choice for an M x N result (launch_config.c). The shared memory
 * of each configuration that fits is granted here too. */
static int forced_tile = -1; /* pipelined_set_tile: a configuration whatever the size */

static pipelined_choice choose(int M, int N)
{
    static tut_kernel_use use[PIPELINED_TILE_COUNT];
    static int known = 0;
    if (!known) {
        for (int t = 0; t < PIPELINED_TILE_COUNT; ++t) {
            const matmul_kernel_info k = tile_info[t]();
            use[t] = tut_kernel_use_of(k.kernel, k.threads, k.dynamic_shared);
            /* Above 48 KiB a kernel must ask for its shared memory; the occupancy calculator
             * finds where it can have it (the same opt-in limit), and pipelined_choose passes
             * by a configuration that does not fit. */
            char why[200];
            if (tut_blocks_per_sm(tut_current_device(), use[t]) > 0)
                tut_allow_dynamic_shared(k.kernel, k.dynamic_shared, why, sizeof why);
        }
        known = 1;
    }
    if (forced_tile >= 0)
        return pipelined_take(tut_current_device(), (pipelined_tile)forced_tile, M, N, use);
    return pipelined_choose(tut_current_device(), M, N, use);
}

int pipelined_set_tile(int tile)
{
    forced_tile = tile;
    return tile < 0 || choose(1, 1).blocks_per_sm > 0;
}

void launch_pipelined(const matmul_args *a)
{
    tile_launch[choose(a->M, a->N).tile](a);
}

pipelined_choice pipelined_choice_for(int M, int N)
{
    return choose(M, N);
}

void pipelined_print_copy_path(void)
{
    const tut_device_info *dev = tut_current_device();
    if (!async_copy()) {
        printf("pipelined: B goes through plain loads and stores: cp.async needs compute "
               "capability 8.0, the GPU has %d.%d%s%s%s\n", dev->major, dev->minor,
               dev->emulated[0] ? " (the limits of a " : "", dev->emulated,
               dev->emulated[0] ? ")" : "");
        return;
    }
    /* Code the driver compiled from PTX older than compute_80 has the plain path only. */
    struct cudaFuncAttributes attr;
    CUDA_CHECK(cudaFuncGetAttributes(
        &attr, (const void *)pipelined_kernel<128, 128, 16, 32, 2, true>));
    if (attr.ptxVersion < 80)
        printf("pipelined: cp.async chosen (compute capability %d.%d), but this build's code for "
               "the GPU comes from compute_%d PTX, which has only plain loads: rebuild with "
               "-DCMAKE_CUDA_ARCHITECTURES=native\n", dev->major, dev->minor, attr.ptxVersion);
    else
        printf("pipelined: B copied with cp.async (compute capability %d.%d)\n", dev->major,
               dev->minor);
}
