/* Step 15 (the TF32 study past step 13, not a lesson step): step 14 with one strip's wgmma
 * still running while the multiplying warps load the next strip's fragments of B.
 *
 * Steps 13 and 14 wait for all of a strip's wgmma (wgmma.wait_group 0) before they read the next
 * strip's fragments from shared memory, round them and issue the next wgmma: between two strips
 * the warpgroup's tensor-core work drains, and only the other multiplying warpgroup's wgmma keep
 * the tensor cores busy. Here each warp issues strip s, then waits until at most one group is
 * still running (wgmma.wait_group 1): strip s - 1's, which is then complete, so its stage is
 * released to the copying warpgroup one strip later than in step 14. The fragments of strip s
 * are read by the tensor cores while strip s + 1's are loaded: two sets of fragment registers,
 * used in turn (the loop takes two strips per turn, so that each set is a fixed array: a
 * register array indexed by a run-time value would go to local memory).
 * The copying warpgroup is step 14's (A rounded on its way into shared memory). */
#include "wgmma_parts.cuh"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

/* Strip s: waits until its stage is full, issues its wgmma with fragment set `frag`, then waits
 * until strip s - 1's group is complete and releases that strip's stage. */
static __device__ __forceinline__ void multiply_strip(float acc[2 * 64], unsigned frag[4][4],
                                                      unsigned char *stages,
                                                      unsigned long long *full,
                                                      unsigned long long *free_, int s, int mg,
                                                      int warp, int lane)
{
    const int slot = s % WGMMA_STAGES;
    barrier_wait(&full[slot], (s / WGMMA_STAGES) % 2);
    issue_strip(acc, frag, stages + slot * WGMMA_STAGE_BYTES, mg, warp, lane);
    wgmma_wait<1>();
    if (s > 0 && lane == 0)
        barrier_arrive(&free_[(s - 1) % WGMMA_STAGES]);
}

#endif /* sm_90a */

__global__ void __launch_bounds__(WGMMA_THREADS, 1)
wgmma_overlap_kernel(const float *A, size_t lda, const __grid_constant__ CUtensorMap b_map, int M,
                     int N, int K, float *C, size_t ldc)
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

    unsigned frag[2][4][4]; /* strip s uses set s % 2 */
    int s = 0;
    for (; s + 1 < strips; s += 2) {
        multiply_strip(acc, frag[0], stages, full, free_, s, mg, warp, lane);
        multiply_strip(acc, frag[1], stages, full, free_, s + 1, mg, warp, lane);
    }
    if (s < strips)
        multiply_strip(acc, frag[0], stages, full, free_, s, mg, warp, lane);
    wgmma_wait<0>();
    accumulators_written(acc, 2 * 64);
#pragma unroll
    for (int h = 0; h < 2; ++h)
        store_tile(acc + h * 64, C, ldc, M, N, row0 + h * WGMMA_N, col0 + 64 * mg, warp, lane);
#endif
}

matmul_kernel_info info_wgmma_overlap(void)
{
    return matmul_info((const void *)wgmma_overlap_kernel, WGMMA_THREADS, WGMMA_SHARED_BYTES);
}

void launch_wgmma_overlap(const matmul_args *a)
{
    const CUtensorMap b_map = wgmma_tile_map(a->B, a->K, a->N, a->ldb, WG_BK, 32);
    const dim3 grid((a->N + WG_BN - 1) / WG_BN, (a->M + WG_BM - 1) / WG_BM);
    wgmma_overlap_kernel<<<grid, WGMMA_THREADS, WGMMA_SHARED_BYTES>>>(
        a->A, a->lda, b_map, a->M, a->N, a->K, a->C, a->ldc);
    LAUNCH_CHECK();
}
