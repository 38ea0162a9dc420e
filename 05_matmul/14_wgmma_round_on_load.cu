/* Step 14 (the TF32 study past step 13, not a lesson step): A rounded to TF32 on its way into
 * shared memory, so that the call has no pass over A.
 *
 * Step 13 hands our A to the tensor cores through TMA, which cannot round; so each call first
 * runs split_kernel, a pass that reads A and writes a rounded copy (at 4096^3 about a tenth of
 * the call's time on an H100: the appendix, "Step 13 in detail"). Rounding the strips in shared
 * memory after TMA has landed them costs a second read and write of every strip in a shared
 * memory that the tensor cores' operand reads already keep busy (a trial reached 62% of cuBLAS
 * TF32 against 84% with the pass). Here the copying warpgroup loads A's strip itself, 16-byte
 * loads from global memory into registers, rounds each value and stores it in the 128-byte
 * swizzle that wgmma's descriptor expects: shared memory sees one write per value, as with TMA,
 * and A is read once from memory, where the pass read it twice and wrote it once.
 *
 * What changes against 13_wgmma_tf32.cu (TF32 only):
 *   - the copying warpgroup keeps 88 registers (not 40): each of its 128 threads holds 16 float4
 *     of a strip (256 rows x 32) in flight, loaded before it waits for the stage to be free;
 *   - the "full" barrier counts 129 arrivals: each copying thread once its stores are fenced for
 *     the tensor cores (fence.proxy.async), and thread 0 once more when it announces the bytes of
 *     B, which TMA still copies;
 *   - the edges: a float4 outside the matrix is zero (what TMA's fill did); K is a multiple of 4
 *     (the driver's float4 layout pads it), so a float4 is wholly inside or wholly outside.
 * The multiplying warpgroups are step 13's. Needs compute capability 9.0 and sm_90a code. */
#include "wgmma_parts.cuh"

__global__ void __launch_bounds__(WGMMA_THREADS, 1)
wgmma_round_on_load_kernel(const float *A, size_t lda, const __grid_constant__ CUtensorMap b_map,
                           int M, int N, int K, float *C, size_t ldc)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char shared_raw[];
    unsigned char *stages = aligned_stages(shared_raw);
    unsigned long long *full = (unsigned long long *)(stages + WGMMA_STAGES * WGMMA_STAGE_BYTES);
    unsigned long long *free_ = full + WGMMA_STAGES;

    const int group = threadIdx.x / WG_THREADS, warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
    int row0, col0;
    block_position(&row0, &col0);
    const int strips = (K + WG_BK - 1) / WG_BK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < WGMMA_STAGES; ++s) {
            barrier_init(&full[s], WG_THREADS + 1); /* each copying thread, + B's bytes */
            barrier_init(&free_[s], 8);             /* one arrival per multiplying warp */
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    if (group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(COPY_REGISTERS));
        copy_strips(stages, full, free_, A, lda, &b_map, M, K, row0, col0, strips,
                    (int)threadIdx.x);
        return;
    }

    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(MULTIPLY_REGISTERS));
    const int mg = group - 1; /* which 64 columns of the block tile */
    float acc[2 * 64];        /* rows h * 128 .. of the tile: acc + h * 64 */
#pragma unroll
    for (int i = 0; i < 2 * 64; ++i)
        acc[i] = 0.0f;

    for (int s = 0; s < strips; ++s) {
        const int slot = s % WGMMA_STAGES;
        barrier_wait(&full[slot], (s / WGMMA_STAGES) % 2);
        const unsigned char *stage = stages + slot * WGMMA_STAGE_BYTES;
        unsigned frag[4][4];
        load_b_fragments(frag, (const float *)(stage + A_TILE_BYTES), mg, warp, lane);
        wgmma_fence();
#pragma unroll
        for (int j = 0; j < WG_BK / 8; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h)
                wgmma_tf32(acc + h * 64, frag[j], tile_descriptor(stage + h * WGMMA_N * 128 + 32 * j));
        wgmma_commit();
        wgmma_wait<0>();
        accumulators_written(acc, 2 * 64);
        if (lane == 0)
            barrier_arrive(&free_[slot]);
    }
#pragma unroll
    for (int h = 0; h < 2; ++h)
        store_tile(acc + h * 64, C, ldc, M, N, row0 + h * WGMMA_N, col0 + 64 * mg, warp, lane);
#endif
}

matmul_kernel_info info_wgmma_round_on_load(void)
{
    return matmul_info((const void *)wgmma_round_on_load_kernel, WGMMA_THREADS,
                       WGMMA_SHARED_BYTES);
}

void launch_wgmma_round_on_load(const matmul_args *a)
{
    const CUtensorMap b_map = wgmma_tile_map(a->B, a->K, a->N, a->ldb, WG_BK, 32);
    const dim3 grid((a->N + WG_BN - 1) / WG_BN, (a->M + WG_BM - 1) / WG_BM);
    wgmma_round_on_load_kernel<<<grid, WGMMA_THREADS, WGMMA_SHARED_BYTES>>>(
        a->A, a->lda, b_map, a->M, a->N, a->K, a->C, a->ldc);
    LAUNCH_CHECK();
}
