/* Step 16 (the TF32 study past step 13, not a lesson step): step 15 in clusters of 2 blocks that
 * share their strip of B, copied once from L2 for both (TMA multicast).
 *
 * Each block of steps 13-15 fetches, per strip of 32 along K, 32 KiB of A and 16 KiB of B from
 * L2: 3.2 GB at 4096^3 on the H100 (the appendix, "The tensor cores under Nsight Compute"),
 * against 2.4 GB for cuBLAS. Here the two blocks of a *cluster* (blocks that the GPU schedules
 * together on neighbouring SMs, and that may read and write each other's shared memory and
 * barriers) compute the two 256 x 128 tiles one above the other: the same 128 columns of C,
 * so the same strips of B. Each block's copying thread asks TMA for half of the strip (two of
 * its four 32 x 32 boxes) with .multicast::cluster: TMA reads the boxes from L2 once and writes
 * them into both blocks' stages, counting the bytes on both blocks' "full" barriers. A block
 * fetches 40 KiB per strip instead of 48.
 *
 * What changes against 15_wgmma_overlap.cu:
 *   - the launch asks for clusters of 1 x 2 blocks (cudaLaunchKernelEx); the grid's rows of
 *     blocks are rounded up to an even count (a block below the matrix loads zeros, stores
 *     nothing, and still copies its half of B for its partner);
 *   - a stage may be refilled only when the multiplying warps of BOTH blocks are done with it
 *     (the partner's TMA writes into it): "free" counts 16 arrivals, and each multiplying warp
 *     arrives on its own block's barrier and, through the cluster's shared-memory window (mapa),
 *     on its partner's;
 *   - the barriers are initialised before either block uses them, and no block exits while its
 *     partner may still arrive on its barriers: a cluster-wide barrier at the start and at the
 *     end (barrier.cluster). */
#include "wgmma_parts.cuh"

#define CLUSTER_ROWS 2 /* blocks per cluster, one above the other */

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

static __device__ __forceinline__ unsigned cluster_rank(void)
{
    unsigned rank;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    return rank;
}

/* Every thread of both blocks arrives, then waits for all the others. */
static __device__ __forceinline__ void cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release.aligned;\n"
                 "barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* The arrival on the barrier at the same place in block `rank`'s shared memory. */
static __device__ __forceinline__ void barrier_arrive_in(unsigned long long *bar, unsigned rank)
{
    unsigned remote;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote)
                 : "r"(shared_address(bar)), "r"(rank));
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote)
                 : "memory");
}

/* One box into the same place of both blocks' shared memory, counted on both blocks' barrier
 * at `bar`'s place. */
static __device__ __forceinline__ void tma_load_both(void *dst, const CUtensorMap *map, int col,
                                                     int row, unsigned long long *bar)
{
    const unsigned short both = (1u << CLUSTER_ROWS) - 1;
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(shared_address(dst)),
                 "l"(map), "r"(col), "r"(row), "r"(shared_address(bar)), "h"(both)
                 : "memory");
}

/* Which tile: the clusters in step 13's grouped order (GROUP_ROWS block rows = GROUP_ROWS / 2
 * rows of clusters), the two blocks of a cluster one above the other. */
static __device__ __forceinline__ void cluster_block_position(unsigned rank, int *row0, int *col0)
{
    const int pair_rows = (int)gridDim.y / CLUSTER_ROWS, group = GROUP_ROWS / CLUSTER_ROWS;
    const int per_group = group * (int)gridDim.x;
    const int b = (int)(blockIdx.y / CLUSTER_ROWS) * (int)gridDim.x + (int)blockIdx.x;
    const int first = b / per_group * group;
    const int rows = pair_rows - first < group ? pair_rows - first : group;
    *row0 = ((first + b % per_group % rows) * CLUSTER_ROWS + (int)rank) * WG_BM;
    *col0 = (b % per_group / rows) * WG_BN;
}

/* Step 14's copying loop, with this block's half of B multicast to both blocks. */
static __device__ __forceinline__ void copy_strips_shared_b(
    unsigned char *stages, unsigned long long *full, unsigned long long *free_, const float *A,
    size_t lda, const CUtensorMap *b_map, int M, int K, int row0, int col0, int strips,
    unsigned rank, int t)
{
    for (int s = 0; s < strips; ++s) {
        const int slot = s % WGMMA_STAGES;
        float4 x[A_LOADS];
        load_a_strip(x, A, lda, M, K, row0, s * WG_BK, t);
        barrier_wait(&free_[slot], (s / WGMMA_STAGES + 1) % 2);
        unsigned char *stage = stages + slot * WGMMA_STAGE_BYTES;
        if (t == 0) {
            /* All of B's bytes: this block's two boxes and its partner's. */
            barrier_expect_bytes(&full[slot], B_TILE_BYTES);
            for (int box = 2 * (int)rank; box < 2 * (int)rank + 2; ++box)
                tma_load_both(stage + A_TILE_BYTES + box * 4096, b_map, col0 + 32 * box,
                              s * WG_BK, &full[slot]);
        }
        store_a_strip(stage, x, t);
        fence_shared_for_async();
        barrier_arrive(&full[slot]);
    }
}

/* Step 15's strip, releasing the stage of strip s - 1 in both blocks. */
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
        for (unsigned r = 0; r < CLUSTER_ROWS; ++r)
            barrier_arrive_in(&free_[(s - 1) % WGMMA_STAGES], r);
}

#endif /* sm_90a */

__global__ void __launch_bounds__(WGMMA_THREADS, 1)
wgmma_multicast_kernel(const float *A, size_t lda, const __grid_constant__ CUtensorMap b_map,
                       int M, int N, int K, float *C, size_t ldc)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char shared_raw[];
    unsigned char *stages = aligned_stages(shared_raw);
    unsigned long long *full = (unsigned long long *)(stages + WGMMA_STAGES * WGMMA_STAGE_BYTES);
    unsigned long long *free_ = full + WGMMA_STAGES;

    const int group = threadIdx.x / WG_THREADS, warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
    const unsigned rank = cluster_rank();
    int row0, col0;
    cluster_block_position(rank, &row0, &col0);
    const int strips = (K + WG_BK - 1) / WG_BK;

    if (threadIdx.x == 0) {
        for (int s = 0; s < WGMMA_STAGES; ++s) {
            barrier_init(&full[s], WG_THREADS + 1);     /* each copying thread, + B's bytes */
            barrier_init(&free_[s], 8 * CLUSTER_ROWS); /* each multiplying warp of both blocks */
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync(); /* both blocks' barriers are ready before anyone uses them */

    if (group == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(COPY_REGISTERS));
        copy_strips_shared_b(stages, full, free_, A, lda, &b_map, M, K, row0, col0, strips, rank,
                             (int)threadIdx.x);
        cluster_sync(); /* the partner may still arrive on this block's barriers */
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
    cluster_sync();
#endif
}

/* The launch: a grid of block_rows (rounded up to even) x block_cols blocks in clusters of
 * 1 x 2. The cluster size is a launch attribute (cudaLaunchKernelEx), not a property of the
 * kernel, so that the occupancy questions the driver asks of every variant stay the plain ones. */
static cudaLaunchConfig_t cluster_launch(int block_rows, int block_cols,
                                         cudaLaunchAttribute *cluster)
{
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(block_cols, (block_rows + CLUSTER_ROWS - 1) / CLUSTER_ROWS * CLUSTER_ROWS);
    config.blockDim = dim3(WGMMA_THREADS);
    config.dynamicSmemBytes = WGMMA_SHARED_BYTES;
    cluster->id = cudaLaunchAttributeClusterDimension;
    cluster->val.clusterDim.x = 1;
    cluster->val.clusterDim.y = CLUSTER_ROWS;
    cluster->val.clusterDim.z = 1;
    config.attrs = cluster;
    config.numAttrs = 1;
    return config;
}

/* The CSV's config column says how many clusters the GPU runs at once: a cluster's two blocks
 * must sit in one GPC (a group of SMs), so where a GPC has an odd number of SMs one of them
 * stays idle. */
matmul_kernel_info info_wgmma_multicast(void)
{
    matmul_kernel_info info =
        matmul_info((const void *)wgmma_multicast_kernel, WGMMA_THREADS, WGMMA_SHARED_BYTES);
    static char config[64];
    if (!config[0]) {
        cudaLaunchAttribute cluster;
        const cudaLaunchConfig_t c = cluster_launch(CLUSTER_ROWS, 1, &cluster);
        int clusters = 0;
        if (cudaFuncSetAttribute(wgmma_multicast_kernel,
                                 cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)WGMMA_SHARED_BYTES) == cudaSuccess &&
            cudaOccupancyMaxActiveClusters(&clusters, wgmma_multicast_kernel, &c) == cudaSuccess)
            snprintf(config, sizeof config, "%d clusters of %d at a time", clusters,
                     CLUSTER_ROWS);
        else
            (void)cudaGetLastError(); /* the launch itself will say what is wrong */
    }
    info.copy = config[0] ? config : NULL;
    return info;
}

void launch_wgmma_multicast(const matmul_args *a)
{
    const CUtensorMap b_map = wgmma_tile_map(a->B, a->K, a->N, a->ldb, WG_BK, 32);
    cudaLaunchAttribute cluster;
    const cudaLaunchConfig_t config =
        cluster_launch((a->M + WG_BM - 1) / WG_BM, (a->N + WG_BN - 1) / WG_BN, &cluster);
    CUDA_CHECK(cudaLaunchKernelEx(&config, wgmma_multicast_kernel, a->A, a->lda, b_map, a->M,
                                  a->N, a->K, a->C, a->ldc));
    LAUNCH_CHECK();
}
