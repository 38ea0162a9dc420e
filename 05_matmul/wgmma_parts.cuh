/* The pieces that steps 14 and 15 (the TF32 study past step 13) share with step 13: mbarriers,
 * TMA, the wgmma instruction and its descriptor, which column of B a fragment row holds, the
 * store of a result tile, the block order, and the host's tensor maps. 13_wgmma_tf32.cu keeps its
 * own copies so that a reader meets each piece where it is first used; its comments explain
 * them, these say only what differs. Everything here is static inline: each file that includes
 * it gets its own copy, and the sm_90a code only where __CUDA_ARCH_FEAT_SM90_ALL is defined
 * (CMakeLists.txt compiles these files for sm_90a alone). */
#ifndef WGMMA_PARTS_CUH
#define WGMMA_PARTS_CUH

#include <cuda.h> /* CUtensorMap and its enums; the driver function comes via the runtime */

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"

#define WG_THREADS 128  /* a warpgroup: 4 warps; warpgroup 0 copies, 1 and 2 multiply */
#define WG_BM 256       /* rows of C (of our A) per block: two wgmma of 128 per k step */
#define WG_BN 128       /* columns of C per block: 64 per multiplying warpgroup */
#define WG_BK 32        /* K strip: 32 floats = one 128-byte swizzled row */
#define WGMMA_N 128     /* rows of A per wgmma (its "N": our M) */
#define GROUP_ROWS 8    /* block rows taken together, for L2 */
#define A_TILE_BYTES (WG_BM * WG_BK * 4)
#define B_TILE_BYTES (WG_BK * WG_BN * 4) /* 4 boxes of 32 x 32 floats */

static_assert(A_TILE_BYTES + B_TILE_BYTES == WGMMA_STAGE_BYTES,
              "a stage holds the A strip and the B strip, as launch_config.h counts them");

/* Steps 14 on: the copying warpgroup loads A itself (16 float4 of a strip per thread), and keeps
 * more registers than step 13's 40; the multiplying ones keep the rest. */
#define A_LOADS (WG_BM * WG_BK / 4 / WG_THREADS)
#define COPY_REGISTERS 88      /* 64 for the loads in flight, the rest addresses */
#define MULTIPLY_REGISTERS 208 /* 128 accumulators, 2 x 16 fragments (step 15), addresses */

static_assert(COPY_REGISTERS * WG_THREADS + 2 * MULTIPLY_REGISTERS * WG_THREADS <=
                  168 * WGMMA_THREADS,
              "setmaxnreg: the three warpgroups' registers fit in what the block is launched "
              "with (168 per thread)");

/* x rounded to nearest TF32 (ties away; infinities and NaN unchanged). */
static __device__ __forceinline__ float round_tf32(float x)
{
    const unsigned bits = __float_as_uint(x);
    return isfinite(x) ? __uint_as_float((bits + 0x1000u) & 0xffffe000u) : x;
}

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)

static __device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void barrier_init(unsigned long long *bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)),
                 "r"(count));
}

static __device__ __forceinline__ void barrier_expect_bytes(unsigned long long *bar, int bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     shared_address(bar)),
                 "r"(bytes)
                 : "memory");
}

static __device__ __forceinline__ void barrier_arrive(unsigned long long *bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(bar))
                 : "memory");
}

static __device__ __forceinline__ void barrier_wait(unsigned long long *bar, int parity)
{
    asm volatile("{\n .reg .pred done;\n"
                 "wait_%=:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 " @!done bra wait_%=;\n}" ::"r"(shared_address(bar)),
                 "r"(parity)
                 : "memory");
}

/* Makes this thread's ordinary shared-memory stores visible to the async proxy (the tensor
 * cores' operand reads, TMA): each writing thread runs it before it arrives on the barrier that
 * the multiplying warps wait on. */
static __device__ __forceinline__ void fence_shared_for_async(void)
{
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

static __device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, int col,
                                                int row, unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(shared_address(dst)),
                 "l"(map), "r"(col), "r"(row), "r"(shared_address(bar))
                 : "memory");
}

/* A K-major tile in the 128-byte swizzle, 1024-byte aligned (13_wgmma_tf32.cu explains the
 * fields). */
static __device__ __forceinline__ unsigned long long tile_descriptor(const void *tile)
{
    const unsigned long long address = (shared_address(tile) & 0x3ffff) >> 4;
    return address | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

/* d (64 x 128, FP32) += a (64 x 8, TF32, registers) b (8 x 128, TF32, shared). */
static __device__ __forceinline__ void wgmma_tf32(float d[64], const unsigned a[4],
                                                  unsigned long long b)
{
    asm volatile(
        "{\n .reg .pred acc;\n setp.ne.b32 acc, 1, 0;\n" /* scale-d: add to d, always */
        "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
        "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
        "{%64, %65, %66, %67}, %68, acc, 1, 1;\n}"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
          "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
          "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
          "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
          "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
          "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
          "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
          "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]),
          "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]),
          "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));
}

static __device__ __forceinline__ void wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

static __device__ __forceinline__ void wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/* Waits until at most PENDING committed groups of this warp's wgmma are still running. */
template <int PENDING>
static __device__ __forceinline__ void wgmma_wait(void)
{
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(PENDING) : "memory");
}

/* Makes the compiler treat the accumulators as written (by the wgmma just waited for). */
static __device__ __forceinline__ void accumulators_written(float *d, int n)
{
    for (int i = 0; i < n; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* The column of B (0 .. 63 within a warpgroup's 64) that wgmma row r of warp `warp` stands for:
 * chosen so that the fragment loads are free of bank conflicts (13_wgmma_tf32.cu). */
static __device__ __forceinline__ int column_of_row(int warp, int r)
{
    const int chunk = 2 * (warp % 2) + r / 8 + 4 * ((r % 8) / 4);
    return (warp / 2) * 32 + chunk * 4 + r % 4;
}

/* Element (k, column) of the B stage: 4 TMA boxes of 32 rows (k) x 32 columns, swizzled. */
static __device__ __forceinline__ float b_element(const float *b_stage, int k, int column)
{
    const int chunk = (column % 32) / 4 ^ (k % 8);
    return b_stage[(column / 32) * 1024 + k * 32 + chunk * 4 + column % 4];
}

/* The TF32 fragments of the warp's 16 rows (columns of our B) for the 4 k steps of a strip,
 * rounded to nearest as they are loaded. */
static __device__ __forceinline__ void load_b_fragments(unsigned frag[4][4], const float *b_stage,
                                                        int group, int warp, int lane)
{
#pragma unroll
    for (int j = 0; j < WG_BK / 8; ++j) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int k = 8 * j + lane % 4 + 4 * (i / 2), r = lane / 4 + 8 * (i % 2);
            const float x = b_element(b_stage, k, 64 * group + column_of_row(warp, r));
            frag[j][i] = __float_as_uint(round_tf32(x));
        }
    }
}

/* The warpgroup's 64 x 128 (wgmma rows x columns) result into C (our columns x rows). */
static __device__ __forceinline__ void store_tile(const float d[64], float *C, size_t ldc, int M,
                                                  int N, int row0, int col0, int warp, int lane)
{
#pragma unroll
    for (int j = 0; j < WGMMA_N / 8; ++j) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int row = row0 + 8 * j + 2 * (lane % 4) + i % 2;
            const int col = col0 + column_of_row(warp, lane / 4 + 8 * (i / 2));
            if (row < M && col < N)
                C[(size_t)row * ldc + col] = d[4 * j + i];
        }
    }
}

/* Blocks in groups of GROUP_ROWS block rows, column by column, for L2 (13_wgmma_tf32.cu). */
static __device__ __forceinline__ void block_position(int *row0, int *col0)
{
    const int rows_of_blocks = (int)gridDim.y;
    const int per_group = GROUP_ROWS * (int)gridDim.x;
    const int b = blockIdx.y * (int)gridDim.x + blockIdx.x;
    const int first = b / per_group * GROUP_ROWS;
    const int rows = rows_of_blocks - first < GROUP_ROWS ? rows_of_blocks - first : GROUP_ROWS;
    *row0 = (first + b % per_group % rows) * WG_BM;
    *col0 = (b % per_group / rows) * WG_BN;
}

/* The stages, 1024-byte aligned (the swizzle repeats every 8 rows of 128 bytes), then the
 * barriers: "full" and "free", one of each per stage. */
static __device__ __forceinline__ unsigned char *aligned_stages(unsigned char *shared_raw)
{
    return shared_raw + ((1024 - (shared_address(shared_raw) & 1023)) & 1023);
}

/* ---- Step 14: A rounded on its way into shared memory (14_wgmma_round_on_load.cu) ---- */

/* Thread t of the copying warpgroup loads chunk t % 8 (16 bytes) of rows t / 8 + 16 i of the
 * strip: a warp reads 4 whole 128-byte rows per load, coalesced. */
static __device__ __forceinline__ void load_a_strip(float4 x[A_LOADS], const float *A, size_t lda,
                                                    int M, int K, int row0, int k0, int t)
{
    const int k = k0 + 4 * (t % 8);
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
        const int row = row0 + t / 8 + 16 * i;
        x[i] = row < M && k < K ? __ldg((const float4 *)(A + (size_t)row * lda + k))
                                : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    }
}

/* The same values, rounded to TF32, into the stage's A tile where TMA would have put them:
 * chunk c of row r at chunk c ^ (r % 8) of the row's 128 bytes (rows t / 8 + 16 i all have
 * r % 8 = (t / 8) % 8). A warp stores 4 whole rows: no bank conflict. */
static __device__ __forceinline__ void store_a_strip(unsigned char *a_tile, const float4 x[A_LOADS],
                                                     int t)
{
    const int chunk = (t % 8) ^ (t / 8 % 8);
#pragma unroll
    for (int i = 0; i < A_LOADS; ++i) {
        const int row = t / 8 + 16 * i;
        *(float4 *)(a_tile + row * 128 + chunk * 16) = make_float4(
            round_tf32(x[i].x), round_tf32(x[i].y), round_tf32(x[i].z), round_tf32(x[i].w));
    }
}

/* The copying warpgroup's loop: per strip, A through registers (rounded), B by TMA. */
static __device__ __forceinline__ void copy_strips(unsigned char *stages, unsigned long long *full,
                                                   unsigned long long *free_, const float *A,
                                                   size_t lda, const CUtensorMap *b_map, int M,
                                                   int K, int row0, int col0, int strips, int t)
{
    for (int s = 0; s < strips; ++s) {
        const int slot = s % WGMMA_STAGES;
        float4 x[A_LOADS];
        /* The loads first: they are in flight while the stage is still being read. */
        load_a_strip(x, A, lda, M, K, row0, s * WG_BK, t);
        barrier_wait(&free_[slot], (s / WGMMA_STAGES + 1) % 2);
        unsigned char *stage = stages + slot * WGMMA_STAGE_BYTES;
        if (t == 0) {
            barrier_expect_bytes(&full[slot], B_TILE_BYTES);
            for (int box = 0; box < WG_BN / 32; ++box)
                tma_load(stage + A_TILE_BYTES + box * 4096, b_map, col0 + 32 * box, s * WG_BK,
                         &full[slot]);
        }
        store_a_strip(stage, x, t);
        fence_shared_for_async();
        barrier_arrive(&full[slot]);
    }
}

/* ---- Step 15: one strip's wgmma in flight while the next strip's fragments load ---------- */

/* Issues the 8 wgmma of one strip (4 k steps x 2 halves of the tile's rows) for this
 * multiplying warpgroup, with the fragments of B loaded (and rounded) into `frag` first; commits
 * them as one group and returns without waiting. `frag` must stay untouched until the group is
 * complete: step 15 alternates between two sets. */
static __device__ __forceinline__ void issue_strip(float acc[2 * 64], unsigned frag[4][4],
                                                   const unsigned char *stage, int mg, int warp,
                                                   int lane)
{
    load_b_fragments(frag, (const float *)(stage + A_TILE_BYTES), mg, warp, lane);
    wgmma_fence();
#pragma unroll
    for (int j = 0; j < WG_BK / 8; ++j)
#pragma unroll
        for (int h = 0; h < 2; ++h)
            wgmma_tf32(acc + h * 64, frag[j], tile_descriptor(stage + h * WGMMA_N * 128 + 32 * j));
    wgmma_commit();
}

#endif /* sm_90a */

/* ---- Host side: the tensor map of B (13_wgmma_tf32.cu explains each argument) ------------- */

typedef CUresult (*wgmma_encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                    const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                    const cuuint32_t *, CUtensorMapInterleave,
                                    CUtensorMapSwizzle, CUtensorMapL2promotion,
                                    CUtensorMapFloatOOBfill);

static inline wgmma_encode_fn wgmma_tensor_map_encoder(void)
{
    static wgmma_encode_fn encode = NULL;
    if (!encode) {
        void *fn = NULL;
        cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
        CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                                    cudaEnableDefault, &found));
#else
        CUDA_CHECK(cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &fn, cudaEnableDefault,
                                           &found));
#endif
        if (found != cudaDriverEntryPointSuccess || !fn) {
            fprintf(stderr, "matmul_demo: the driver has no cuTensorMapEncodeTiled\n");
            exit(1);
        }
        encode = (wgmma_encode_fn)fn;
    }
    return encode;
}

/* A row-major rows x cols matrix (rows ld floats apart) in boxes of box_rows x box_cols,
 * 128-byte swizzled, zero outside the matrix. */
static inline CUtensorMap wgmma_tile_map(const float *base, int rows, int cols, size_t ld,
                                         int box_rows, int box_cols)
{
    CUtensorMap map;
    const cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    const cuuint64_t strides[1] = {(cuuint64_t)ld * sizeof(float)};
    const cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
    const cuuint32_t steps[2] = {1, 1};
    const CUresult r = wgmma_tensor_map_encoder()(
        &map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, (void *)base, dims, strides, box, steps,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "matmul_demo: cuTensorMapEncodeTiled failed (error %d) for a %d x %d "
                "matrix, rows %zu floats apart\n", (int)r, rows, cols, ld);
        exit(1);
    }
    return map;
}

#endif
