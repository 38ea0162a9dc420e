/* Step 13: Hopper's own tensor-core path. wgmma (warpgroup MMA: four warps, one
 * instruction, a 64 x 256 or 64 x 128 product) fed by TMA (the tensor memory accelerator: one
 * thread asks for a whole 2D tile, the SM's TMA unit fetches it, zero-fills what lies outside the
 * matrix and says when it has landed), with one warpgroup copying and two multiplying. TF32
 * (wgmma_tf32) and 3xTF32 (wgmma_3xtf32) on the same FP32 inputs as step 12.
 *
 * What changes against 12_mma_tf32.cu (mma.sync: one warp, 16 x 8 x 8, operands in registers):
 *   - wgmma.mma_async reads its B operand straight from shared memory through a 64-bit
 *     "matrix descriptor" (address, row-group stride, swizzle) and runs asynchronously: the
 *     warpgroup issues it, goes on, and waits (wgmma.wait_group) before touching the result.
 *   - TF32 wgmma wants both operands "K-major" (K the contiguous index), and our B (K x N,
 *     row-major) is N-major. So the roles are swapped: the kernel computes C^T = B^T A^T. wgmma's
 *     B operand is our A (M x K, K-major: TMA copies its tiles as they are); wgmma's A operand is
 *     our B, which it takes from registers, in mma.sync's fragment layout; which column of B
 *     each fragment row stands for is ours to choose (column_of_row). Each thread reads its
 *     values of B from shared memory (rounded to TF32 by TMA for TF32; split into big + small
 *     for 3xTF32) and hands them over in registers.
 *   - TMA writes every tile in the 128-byte swizzle (16-byte chunk c of row r lands at chunk
 *     c ^ (r % 8)) that wgmma's descriptor expects; the same swizzle makes our loads of B
 *     conflict-free once we choose which columns of B each thread holds (load_b_fragments).
 *   - Warp specialization: warpgroup 0 only copies (one thread issues TMA), warpgroups 1 and 2
 *     only multiply; mbarriers say "stage full" (TMA counts the bytes in) and "stage free" (each
 *     multiplying warp arrives when its wgmmas are done with it).
 *   - Pairs (TF32, N > 128): the blocks run in clusters of two that compute neighbouring tiles
 *     and share A's strip; each block's TMA copies half of it into both blocks (multicast), so
 *     each reads 32 KiB a strip from L2 instead of 48, meant to save energy and so clock under a
 *     power cap (the clock rose; the energy was not measured).
 *   - The results go to C through shared memory (store_tile), whole rows of C at a time, not as
 *     the single floats of two rows that wgmma leaves in each thread's registers.
 *   - Products with too few tiles (or pairs) to fill the GPU cut K into parts (wgmma_k_splits
 *     in launch_config.c): each block (or pair) sums its part of a tile's strips and adds it into
 *     C, so that more SMs work. The kernel zeroes those tiles of C itself as it starts
 *     (zero_quarter), with the copying warpgroup's idle warps.
 *   - TF32 keeps the tensor core fed (tf32_strip): one wgmma of 256 rows (m64n256k8) where two of
 *     128 were, and each strip's wgmmas left running while the warp waits for the next stage and
 *     loads its fragments into a second set of registers (wgmma.wait_group 1, not 0).
 * The TF32 rounding: the tensor core reads only the top 19 bits of an FP32 value (it truncates).
 * A tensor map whose element type is CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 makes TMA round each
 * value to the nearest TF32 (ties to even) as it copies it into shared memory, so for TF32 both
 * A and B arrive rounded, and no thread touches them: B's fragments go from shared memory to
 * wgmma as they are.
 * 3xTF32 (TERMS = 3) needs what rounding drops: B is copied as FP32 and split into big + small
 * as it is loaded (as in mma_3xtf32); A is split once per call by split_kernel into two
 * matrices, a_big (rounded to TF32) and a_small (= a - a_big), both copied by TMA; three wgmma
 * per k step, a_small b_big, a_big b_small and a_big b_big, each K strip summed in a fresh
 * accumulator and added to the running sum in FP32.
 * Needs compute capability 9.0 and code built for sm_90a (CMakeLists.txt builds this file for
 * sm_90a alone: wgmma and setmaxnreg exist there only); the driver skips it elsewhere, saying
 * why. The rows of A and B must start 16 bytes apart (TMA: lda and ldb multiples of 4; the
 * driver's float4 layout pads N and K to 4, and so lda and ldb); where K is cut, C's rows too
 * (zero_quarter writes float4s: N and ldc multiples of 4, C 16-byte aligned); any M, N, K within
 * that. K in parts keeps flags and a launch number between calls (flags_for): its launches
 * must run one after another, as the driver's do on the default stream, not side by side on
 * two streams, and not captured into a CUDA graph, which would replay one launch number. */
#include <string.h>

#include <cuda.h> /* CUtensorMap and its enums; the driver function comes via the runtime */

#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"

/* WGMMA_THREADS (3 warpgroups), WGMMA_STAGES, WGMMA_STAGE_BYTES, WGMMA_OUT_ROWS,
 * WGMMA_OUT_STRIDE and WGMMA_SHARED_BYTES are in launch_config.h, where the CPU test checks them
 * against every GPU of the table. */
#define WG_THREADS 128            /* a warpgroup: 4 warps; warpgroup 0 copies, 1 and 2 multiply */
#define WG_BN 128                 /* columns of C per block: 64 per multiplying warpgroup */
#define WG_BK 32                  /* K strip: 32 floats = one 128-byte swizzled row */
#define GROUP_ROWS 8              /* block rows taken together, for L2 (12_mma_tf32.cu) */
#define ZERO_QUARTERS 4 /* K in parts: a tile zeroed by quarters (zero_quarter), each its flag */
static_assert(ZERO_QUARTERS == 4 && WG_BN == 2 * 64,
              "zero_quarter and wait_until_zeroed: two halves of rows times two halves of "
              "columns, a column half being one multiplying warpgroup's 64 columns");

/* Rows of C (of A) per block: 256 for TF32 (one m64n256k8 per k step), 128 for 3xTF32 (whose
 * stages hold two tiles of A, and which keeps a second set of accumulators). */
#define WG_BM(terms) ((terms) == 1 ? 256 : 128)
#define A_TILE_BYTES(terms) (WG_BM(terms) * WG_BK * 4)
#define B_TILE_BYTES (WG_BK * WG_BN * 4)                      /* 4 boxes of 32 x 32 floats */

static_assert(64 * WG_THREADS + 216 * 2 * WG_THREADS <= 168 * WGMMA_THREADS,
              "setmaxnreg: the copying warpgroup's 64 and the multiplying ones' 216 registers "
              "fit in what the block is launched with (168 per thread, ptxas's figure)");
static_assert(A_TILE_BYTES(1) + B_TILE_BYTES == WGMMA_STAGE_BYTES &&
                  2 * A_TILE_BYTES(3) + B_TILE_BYTES == WGMMA_STAGE_BYTES,
              "a stage holds the A strip(s) and the B strip, as launch_config.h counts them");

/* x rounded to nearest TF32 (ties away; infinities and NaN unchanged): 12_mma_tf32.cu's rule,
 * for 3xTF32's split of A and of B's fragments. */
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

/* ---- mbarriers: "stage full" and "stage free" --------------------------------------------- */

static __device__ __forceinline__ void barrier_init(unsigned long long *bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)),
                 "r"(count));
}

/* The copying thread's arrival, announcing how many bytes TMA will count in. */
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

/* Waits until the barrier's phase of this parity has completed (a fresh barrier counts its
 * phase before the first as completed: parity 1 passes at once). try_wait's last operand, a
 * time in nanoseconds (here 10 ms, as CUTLASS's waits), lets the hardware suspend the thread
 * until the phase completes or that time passes, instead of returning at once to be asked
 * again: less spinning, and alone on an H200 at its power limit the TF32 kernel ran 0.5-1.7%
 * faster at 8192^3 (docs/results/05_matmul/h200/tf32_wait_hint_trial.csv). */
static __device__ __forceinline__ void barrier_wait(unsigned long long *bar, int parity)
{
    asm volatile("{\n .reg .pred done;\n"
                 "wait_%=:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1, 0x989680;\n"
                 " @!done bra wait_%=;\n}" ::"r"(shared_address(bar)),
                 "r"(parity)
                 : "memory");
}

/* ---- Clusters: TF32's blocks run in pairs ------------------------------------------------ */

/* This block's rank in its cluster (0 or 1), its cluster's index, and how many clusters run. */
static __device__ __forceinline__ unsigned cluster_rank(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}
static __device__ __forceinline__ int cluster_index(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r));
    return (int)r;
}
static __device__ __forceinline__ int cluster_count(void)
{
    unsigned r;
    asm volatile("mov.u32 %0, %%nclusterid.x;" : "=r"(r));
    return (int)r;
}

/* Every thread of both blocks of the pair: arrive (releasing what it wrote), then wait. */
static __device__ __forceinline__ void cluster_sync(void)
{
    asm volatile("barrier.cluster.arrive.release;\n\t"
                 "barrier.cluster.wait.acquire;" ::: "memory");
}

/* Arrives on the barrier at bar's offset in the other block of the pair (mapa: that block's
 * address of the same shared variable). What the arrival orders is this warp's reads of the
 * stage by wgmma, complete at wgmma.wait_group, before the other block's TMA refills it. */
static __device__ __forceinline__ void barrier_arrive_other(unsigned long long *bar,
                                                            unsigned rank)
{
    asm volatile("{\n .reg .b32 remote;\n"
                 " mapa.shared::cluster.u32 remote, %0, %1;\n"
                 " mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(
                     shared_address(bar)),
                 "r"(rank ^ 1)
                 : "memory");
}

/* ---- TMA: one 2D tile, global to shared, completion counted on a barrier ------------------ */

static __device__ __forceinline__ void tma_load(void *dst, const CUtensorMap *map, int col,
                                                int row, unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(shared_address(dst)),
                 "l"(map), "r"(col), "r"(row), "r"(shared_address(bar))
                 : "memory");
}

/* tma_load into the same offset of both blocks of the pair, each block's barrier at bar's
 * offset counting the bytes that land in it. */
static __device__ __forceinline__ void tma_load_both(void *dst, const CUtensorMap *map, int col,
                                                     int row, unsigned long long *bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(shared_address(dst)),
                 "l"(map), "r"(col), "r"(row), "r"(shared_address(bar)), "h"((unsigned short)3)
                 : "memory");
}

/* ---- wgmma ------------------------------------------------------------------------------- */

/* The descriptor of a K-major tile in the 128-byte swizzle: rows of 128 bytes, groups of 8 rows
 * 1024 bytes apart (bits 32-45, in 16-byte units), swizzle mode 1 = 128 bytes (bits 62-63), the
 * start address in 16-byte units (bits 0-13); the leading-dimension offset (bits 16-29) is set
 * to 1 and ignored by this layout. The tile starts 1024-byte aligned; k step j starts 32 j bytes in. */
static __device__ __forceinline__ unsigned long long tile_descriptor(const void *tile)
{
    const unsigned long long address = (shared_address(tile) & 0x3ffff) >> 4;
    return address | (1ull << 16) | ((1024ull >> 4) << 32) | (1ull << 62);
}

/* 3xTF32's wgmma: d (64 x 128, FP32) = a (64 x 8, TF32, registers) b (8 x 128, TF32,
 * shared) + (accumulate ? d : 0), for the warpgroup. Thread t of the warpgroup holds rows
 * 16 (t / 32) + (t % 32) / 4 (+ 8) of d, columns 8 j + 2 (t % 4) (+ 1) for j = 0 .. 15: 64
 * values. */
static __device__ __forceinline__ void wgmma_tf32(float d[64], const unsigned a[4],
                                                  unsigned long long b, int accumulate)
{
    asm volatile(
        "{\n .reg .pred acc;\n setp.ne.b32 acc, %69, 0;\n"
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
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(accumulate));
}

/* TF32's wgmma: as wgmma_tf32, 256 rows of A (our M) at once, d 64 x 256: d[64 h + i] is what
 * wgmma_tf32 would hold in d[i] for rows 128 h .. 128 h + 127. Always accumulates (d starts at
 * zero). One instruction in place of two: half the instructions, and the tensor core takes each
 * fragment of B once for the 256 rows. */
static __device__ __forceinline__ void wgmma_tf32_256(float d[128], const unsigned a[4],
                                                      unsigned long long b)
{
    asm volatile(
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, "
        "%12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
        "%24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "
        "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
        "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, "
        "%60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, "
        "%72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, "
        "%84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
        "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, "
        "%108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, "
        "%120, %121, %122, %123, %124, %125, %126, %127}, "
        "{%128, %129, %130, %131}, %132, 1, 1, 1;"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]),
          "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]),
          "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]),
          "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
          "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
          "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
          "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]),
          "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
          "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]),
          "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]),
          "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]),
          "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
          "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]),
          "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]),
          "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]),
          "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
          "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]),
          "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]),
          "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]),
          "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
          "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
          "+f"(d[126]), "+f"(d[127])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b));
}

/* Orders this thread's register writes before the wgmma that read them (the accumulators,
 * the fragments of B). */
static __device__ __forceinline__ void wgmma_fence(void)
{
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

static __device__ __forceinline__ void wgmma_commit(void)
{
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/* Waits for every committed wgmma of this warp, then makes the compiler treat d as written. */
static __device__ __forceinline__ void wgmma_wait_all(float *d, int n)
{
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    for (int i = 0; i < n; ++i)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* Waits until at most one committed group of this warp's wgmmas is still running: all but the
 * last. */
static __device__ __forceinline__ void wgmma_wait_all_but_last(void)
{
    asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
}

/* ---- Which columns of B (rows of wgmma's A) each thread holds ---------------------------- */

/* wgmma's A fragment (as mma.sync's, 12_mma_tf32.cu): lane l of warp w holds rows
 * 16 w + l / 4 (+ 8) and columns (k) l % 4 (+ 4). Row r of the multiplying warpgroup may stand
 * for any column of our B, as long as the store (store_tile) maps it back the same way. The
 * plain choice (row r = column r) makes the 8 lanes of one k read 8 consecutive floats, and
 * with the swizzle two of the four k rows hit the same 8 banks. This choice puts the lanes of
 * one k in 16-byte chunks {c, c + 4} of the swizzled 128-byte row: after the XOR with the row
 * (k % 8) the four k rows use four different pairs of chunks, all 32 banks, conflict-free.
 * Returns the column, 0 .. 63, within the warpgroup's 64: box (32 columns) w / 2, chunk
 * 2 (w % 2) + r / 8 + 4 ((r % 8) / 4), word r % 4. */
static __device__ __forceinline__ int column_of_row(int warp, int r)
{
    const int chunk = 2 * (warp % 2) + r / 8 + 4 * ((r % 8) / 4);
    return (warp / 2) * 32 + chunk * 4 + r % 4;
}

/* Element (k, column) of the B stage: 4 TMA boxes of 32 rows (k) x 32 columns, 128-byte
 * swizzled. */
static __device__ __forceinline__ float b_element(const float *b_stage, int k, int column)
{
    const int chunk = (column % 32) / 4 ^ (k % 8);
    return b_stage[(column / 32) * 1024 + k * 32 + chunk * 4 + column % 4];
}

/* The fragments of the warp's 16 rows (columns of our B) for k steps 0 .. 3 of the strip:
 * frag[j][i] holds (k = 8 j + l % 4 + 4 (i / 2), row l / 4 + 8 (i % 2)). TF32 (small == NULL):
 * the values as TMA rounded them. 3xTF32: B's FP32 values split into big and small parts. */
static __device__ __forceinline__ void load_b_fragments(unsigned big[4][4], unsigned small[4][4],
                                                        const float *b_stage, int group,
                                                        int warp, int lane)
{
#pragma unroll
    for (int j = 0; j < WG_BK / 8; ++j) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int k = 8 * j + lane % 4 + 4 * (i / 2), r = lane / 4 + 8 * (i % 2);
            const float x = b_element(b_stage, k, 64 * group + column_of_row(warp, r));
            big[j][i] = __float_as_uint(small ? round_tf32(x) : x);
            if (small)
                small[j][i] = __float_as_uint(round_tf32(x - __uint_as_float(big[j][i])));
        }
    }
}

/* The warpgroup's result (rows 0 .. BM - 1, 64 columns of C) into C, through shared memory, 32
 * rows at a time. wgmma leaves each thread two neighbouring rows of one column, and stores of
 * single floats straight from there would fill each 32-byte sector of C half; so the
 * warpgroup first writes the 32 rows to buf (rows of WGMMA_OUT_STRIDE = 66 floats: the 32
 * lanes of one write land in 32 different banks), meets at its own barrier (warpgroup_sync),
 * then each warp reads back one row of 64 floats, two neighbours a lane, and stores it whole.
 * Value i of column group j is wgmma row 16 w + l / 4 + 8 (i / 2) (our column, through
 * column_of_row) and wgmma column 8 j + 2 (l % 4) + i % 2 (our row). ADD = 1 adds into C
 * instead (a part of K): a template parameter, not an argument, because with a flag known only
 * at run time ptxas kept fewer of the loop's values in registers and spilled some to local
 * memory (05_matmul.cpu.wgmma_sass checks that there is none). */
static __device__ __forceinline__ void warpgroup_sync(int mg)
{
    asm volatile("bar.sync %0, 128;" ::"r"(1 + mg) : "memory"); /* barrier 0: __syncthreads */
}

template <int BM, int ADD>
static __device__ __forceinline__ void store_tile(const float *acc, float *C, size_t ldc, int M,
                                                  int N, int row0, int col0, int mg, int warp,
                                                  int lane, float *buf)
{
#pragma unroll
    for (int c = 0; c < BM / WGMMA_OUT_ROWS; ++c) { /* rows 32 c .. 32 c + 31 of the tile */
        warpgroup_sync(mg); /* the previous rows have been read back */
#pragma unroll
        for (int jj = 0; jj < WGMMA_OUT_ROWS / 8; ++jj) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                const int j = 4 * (c % 4) + jj, h = c / 4; /* acc + 64 h: rows 128 h .. */
                const int row = 8 * jj + 2 * (lane % 4) + i % 2;
                const int col = column_of_row(warp, lane / 4 + 8 * (i / 2));
                buf[row * WGMMA_OUT_STRIDE + col] = acc[64 * h + 4 * j + i];
            }
        }
        warpgroup_sync(mg);
#pragma unroll
        for (int k = 0; k < WGMMA_OUT_ROWS / 4; ++k) {
            const int r = 4 * k + warp, col = col0 + 2 * lane, row = row0 + WGMMA_OUT_ROWS * c + r;
            const float2 v = *(const float2 *)&buf[r * WGMMA_OUT_STRIDE + 2 * lane];
            if (row >= M)
                continue;
            float *out = C + (size_t)row * ldc + col;
            if (ADD) { /* a part of K's sum, added into C (atomicAdd: other parts add there too) */
                if (col + 1 < N && ldc % 2 == 0) {
                    atomicAdd((float2 *)out, v);
                } else {
                    if (col < N)
                        atomicAdd(out, v.x);
                    if (col + 1 < N)
                        atomicAdd(out + 1, v.y);
                }
            } else if (col + 1 < N && ldc % 2 == 0) {
                *(float2 *)out = v;
            } else {
                if (col < N)
                    out[0] = v.x;
                if (col + 1 < N)
                    out[1] = v.y;
            }
        }
    }
}

/* K cut into parts: every part adds its sum into C, whose tile must hold zeros first. Zeroing C
 * before the launch (cudaMemset2DAsync) would cost a second launch, so the kernel zeroes each
 * tile itself, with the three warps of the copying warpgroup that copy nothing (threads 32 to
 * 127), a quarter at a time (quarter q: the tile's rows half q / 2, columns half q % 2). As the
 * kernel starts they go through the block's units, and for each one their first thread claims
 * each quarter of the unit's tile in turn: the first claim of the launch wins, and that block's
 * three warps zero the quarter and then raise its flag. Each part starts at another quarter
 * (first_quarter), so the blocks that add into a tile share its zeroing. (With one block
 * zeroing whole tiles, the adds waited for the zeros: 1 to 2.6 us of calls of 14 to 18 us at
 * 512^3 to 1024^3, the appendix.) A multiplying warpgroup waits for the flags of the two
 * quarters its columns lie in before it adds (wait_until_zeroed).
 * A flag: 2 L once launch L has claimed the quarter, 2 L + 1 once its zeros are written. L
 * counts the launches from 1, so what an earlier launch left is smaller and the flags need no
 * clearing until L starts again (wgmma_next_launch).
 * atomicMax claims: it returns what the flag held, and only the first claim of launch L finds
 * less than 2 L. Every block that adds into a tile tries to claim each of its quarters too, so
 * the block that zeroes a quarter is always one that is running: no block ever waits for a
 * block that has not started (a grid need not be resident all at once, say beside another
 * program's kernels). */
static __device__ __forceinline__ void zeroing_warps_sync()
{
    asm volatile("bar.sync 3, 96;" ::: "memory"); /* barriers 1 and 2: warpgroup_sync */
}

/* The same barrier, which also tells each of the three warps' threads whether any of them gave
 * a nonzero x: here, whether their first thread's claim won. (bar.red and bar.sync may share
 * barrier 3 because the three warps never have one of each under way at once: every thread
 * passes them in the same order.) */
static __device__ __forceinline__ int zeroing_warps_any(int x)
{
    int any;
    asm volatile("{\n\t.reg .pred mine, all;\n\t"
                 "setp.ne.s32 mine, %1, 0;\n\t"
                 "bar.red.or.pred all, 3, 96, mine;\n\t"
                 "selp.s32 %0, 1, 0, all;\n\t}"
                 : "=r"(any)
                 : "r"(x)
                 : "memory");
    return any;
}

/* Quarter q of the BM x WG_BN tile at (row0, col0), whose flag is `flag`. */
template <int BM>
static __device__ __forceinline__ void zero_quarter(float *C, size_t ldc, int M, int N, int row0,
                                                    int col0, int q, unsigned *flag,
                                                    unsigned launch)
{
    const int t = threadIdx.x - 32; /* 0 .. 95 */
    constexpr int QUARTER_COLS = WG_BN / 2;
    row0 += q / 2 * (BM / 2);
    col0 += q % 2 * QUARTER_COLS;
    const int claimed = zeroing_warps_any(t == 0 && atomicMax(flag, 2 * launch) < 2 * launch);
    if (claimed) {
        constexpr int ROW_FLOAT4S = QUARTER_COLS / 4;
        for (int i = t; i < BM / 2 * ROW_FLOAT4S; i += 96) { /* float4s: flags_for checked */
            const int row = row0 + i / ROW_FLOAT4S, col = col0 + 4 * (i % ROW_FLOAT4S);
            if (row < M && col < N)
                *(float4 *)&C[(size_t)row * ldc + col] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
    }
    /* Every zero before the flag: the barrier orders the three warps' stores before their first
     * thread's, and a release store (st.release) makes what came before it visible to whoever
     * reads the flag with an acquire load. (A __threadfence would do it too, but with one in the
     * kernel ptxas compiles every atomicAdd into C as an atomic that returns the old value, which
     * is slower.) */
    zeroing_warps_sync();
    if (t == 0 && claimed)
        asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flag), "r"(2 * launch + 1)
                     : "memory");
}

/* The quarter a part's block zeroes first: the parts of a tile start apart (with two parts,
 * quarters 0 and 2), so that each zeroes what the others will not have claimed yet. */
static __device__ __forceinline__ int first_quarter(int part, int splits)
{
    return splits >= ZERO_QUARTERS ? part % ZERO_QUARTERS : part * ZERO_QUARTERS / splits;
}

/* Waits for the zeros of the two quarters of the tile (flags: the tile's four) that warpgroup
 * mg's 64 columns lie in (zero_quarter), which running blocks write as the kernel starts, so a
 * wait of ten seconds means a defect: __trap ends the launch with an error rather than hang. */
static __device__ __forceinline__ void wait_until_zeroed(const unsigned *flags, unsigned launch,
                                                         int mg)
{
    if (threadIdx.x % WG_THREADS == 0) {
        unsigned long long start, now;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start)); /* nanoseconds */
        for (int half = 0; half < 2; ++half) { /* quarters mg (top rows) and mg + 2 */
            const unsigned *flag = flags + mg + 2 * half;
            for (unsigned seen = 0; seen != 2 * launch + 1;) {
                asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(flag)
                             : "memory");
                asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
                if ((long long)(now - start) > 10000000000ll) /* signed: a clock stepping back */
                    __trap();
            }
        }
    }
    warpgroup_sync(mg); /* the warpgroup's adds after the flag */
}

/* Where tile t of C lies (tiles_y rows of tiles_x tiles): in groups of GROUP_ROWS tile rows,
 * column by column (as in 12_mma_tf32.cu), so that the tiles computed together share rows of A
 * and columns of B in L2. */
static __device__ __forceinline__ void tile_position(int t, int tiles_x, int tiles_y,
                                                     int tile_rows, int *row0, int *col0)
{
    const int per_group = GROUP_ROWS * tiles_x;
    const int first = t / per_group * GROUP_ROWS;
    const int rows = tiles_y - first < GROUP_ROWS ? tiles_y - first : GROUP_ROWS;
    *row0 = (first + t % per_group % rows) * tile_rows;
    *col0 = (t % per_group / rows) * WG_BN;
}

/* Where this block's tile of unit u lies: the tile u itself, or for a pair (units_x columns of
 * pairs) the pair's tile `rank`, pairs being two tiles wide. */
static __device__ __forceinline__ void unit_position(int u, int units_x, int tiles_y,
                                                     int tile_rows, int paired, unsigned rank,
                                                     int *row0, int *col0)
{
    tile_position(u, units_x, tiles_y, tile_rows, row0, col0);
    if (paired)
        *col0 = 2 * *col0 + (int)rank * WG_BN;
}

/* The first of the ZERO_QUARTERS flags (zero_quarter) of this block's tile of part-unit u, K
 * being cut into `splits` parts: the tile's index (a pair's two tiles apart) times four. */
static __device__ __forceinline__ int flag_index(int u, int splits, int paired, unsigned rank)
{
    return ZERO_QUARTERS * (paired ? 2 * (u / splits) + (int)rank : u / splits);
}

/* This warp is done with a stage (its wgmmas have read it): its copying thread may refill it.
 * For a pair, in both blocks: each block's TMA writes into both. */
static __device__ __forceinline__ void release_stage(unsigned long long *free_slot, int paired,
                                                     unsigned rank, int lane)
{
    if (lane == 0) {
        barrier_arrive(free_slot);
        if (paired)
            barrier_arrive_other(free_slot, rank);
    }
}

/* TF32: strip g of the block (counted over all its tiles) into acc, the tile's 256 x 64. Waits
 * for its stage, loads B's fragments into frag, issues the strip's four wgmma as one group and
 * goes on without waiting for them: it waits only for the group before (strip g - 1), and
 * releases that strip's stage, unless strip g is the tile's first (the tile before released
 * its last itself). So the tensor core works through strip g's wgmmas while the warp waits for
 * strip g + 1's stage and loads its fragments. frag must stay untouched until this strip's
 * group is done: the caller's loop below sees to it. */
static __device__ __forceinline__ void tf32_strip(float acc[128], unsigned frag[4][4],
                                                  const unsigned char *stages,
                                                  unsigned long long *full,
                                                  unsigned long long *free_, unsigned g,
                                                  int first_of_tile, int paired, unsigned rank,
                                                  int mg, int warp, int lane)
{
    const int slot = g % WGMMA_STAGES;
    barrier_wait(&full[slot], (g / WGMMA_STAGES) % 2);
    const unsigned char *stage = stages + slot * WGMMA_STAGE_BYTES;
    load_b_fragments(frag, NULL, (const float *)(stage + A_TILE_BYTES(1)), mg, warp, lane);
    wgmma_fence();
#pragma unroll
    for (int j = 0; j < WG_BK / 8; ++j) /* the 256 rows of A's strip, k step j */
        wgmma_tf32_256(acc, frag[j], tile_descriptor(stage + 32 * j));
    wgmma_commit();
    wgmma_wait_all_but_last();
    if (!first_of_tile)
        release_stage(&free_[(g - 1) % WGMMA_STAGES], paired, rank, lane);
}

#endif /* sm_90a */

/* TERMS = 1: TF32 (wgmma_tf32), a = our A, which TMA rounds to TF32. TERMS = 3: 3xTF32,
 * a = a_big, a_small its small parts (split_kernel, both).
 * A persistent grid: each block computes one tile after another. Its copying thread runs ahead
 * into the next tile while the multiplying warpgroups store the last one, so no SM waits for a
 * pipeline to fill between tiles. Strip g of the block (counted over all its tiles) uses stage
 * g % WGMMA_STAGES.
 * TF32 runs in clusters of two blocks (PAIRED = 1; 3xTF32 and a TF32 product one tile wide,
 * N <= 128, run unpaired), which compute two tiles side by side along N:
 * the same 256 x 32 strip of A, each its own strip of B. Each block's copying thread loads half
 * of the A strip (128 rows) and TMA multicasts it into both blocks' stages at the same offset,
 * so each block reads 32 KiB a strip through L2 instead of 48, meant to spend less energy on
 * it, which on a GPU held at its power limit buys clock. A stage may then be refilled only when the
 * multiplying warps of BOTH blocks are done with it: each warp arrives on its own block's "free"
 * barrier and on the other's, which count 16 arrivals. Unit u (a tile, or for PAIRED a pair of
 * tiles, the block of rank r taking the pair's tile r) goes to block (or cluster) u % count. */
template <int TERMS, int PAIRED>
__global__ void __launch_bounds__(WGMMA_THREADS, 1)
wgmma_tf32_kernel(const __grid_constant__ CUtensorMap a_map,
                  const __grid_constant__ CUtensorMap a_small_map,
                  const __grid_constant__ CUtensorMap b_map, int M, int N, int K, float *C,
                  size_t ldc, int splits, unsigned *zeroed, unsigned launch)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    constexpr int BM = WG_BM(TERMS);
    extern __shared__ unsigned char shared_raw[];
    /* Stages 1024-byte aligned (the swizzle repeats every 8 rows of 128 bytes), barriers after,
     * then the multiplying warpgroups' buffers for their stores. */
    unsigned char *stages = shared_raw + ((1024 - (shared_address(shared_raw) & 1023)) & 1023);
    unsigned long long *full = (unsigned long long *)(stages + WGMMA_STAGES * WGMMA_STAGE_BYTES);
    unsigned long long *free_ = full + WGMMA_STAGES;
    float *out_buf = (float *)(free_ + WGMMA_STAGES);

    const int group = threadIdx.x / WG_THREADS, warp = threadIdx.x / 32 % 4, lane = threadIdx.x % 32;
    const unsigned rank = PAIRED ? cluster_rank() : 0;
    const int first = PAIRED ? cluster_index() : (int)blockIdx.x;
    const int count = PAIRED ? cluster_count() : (int)gridDim.x;
    const int strips = (K + WG_BK - 1) / WG_BK;
    const int tiles_x = (N + WG_BN - 1) / WG_BN, tiles_y = (M + BM - 1) / BM;
    /* For PAIRED an odd tiles_x leaves the last pair's second tile past N: it runs the whole
     * pipeline on zeros (TMA fills what lies outside B) and stores nothing. */
    const int units_x = PAIRED ? (tiles_x + 1) / 2 : tiles_x;
    /* splits > 1 (launch_tf32, launch_3terms; wgmma_k_splits): unit u is part u % splits of
     * tile (or pair) u / splits's strips of K, its sum added into C once the tile is zeroed
     * (zero_quarter). With more than two parts the order of the adds varies from run to run, and
     * so may the last bits of C. */
    const int units = units_x * tiles_y * splits, per_split = (strips + splits - 1) / splits;

    if (threadIdx.x == 0) {
        for (int s = 0; s < WGMMA_STAGES; ++s) {
            barrier_init(&full[s], 1);  /* the copying thread's arrival (+ TMA's bytes) */
            barrier_init(&free_[s], PAIRED ? 16 : 8); /* each multiplying warp (of both) */
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    if (PAIRED)
        cluster_sync(); /* both blocks' barriers ready before a multicast or arrival comes */
    else
        __syncthreads();

    if (group == 0) {
        /* The copying warpgroup gives registers to the multiplying ones (with 40, ptxas
         * spilled the copying loop's values to memory, and with 56 under CUDA 12.4; 64 leave
         * the multiplying ones 216, with no spills under CUDA 12.4 or 13.0). */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 64;");
        if (threadIdx.x == 0) {
            unsigned g = 0;
            for (int u = first; u < units; u += count) {
                int row0, col0;
                unit_position(u / splits, units_x, tiles_y, BM, PAIRED, rank, &row0, &col0);
                const int s_end = min(strips, (u % splits + 1) * per_split);
                for (int s = u % splits * per_split; s < s_end; ++s, ++g) {
                    const int slot = g % WGMMA_STAGES;
                    barrier_wait(&free_[slot], (g / WGMMA_STAGES + 1) % 2);
                    unsigned char *stage = stages + slot * WGMMA_STAGE_BYTES;
                    barrier_expect_bytes(&full[slot], WGMMA_STAGE_BYTES);
                    if (PAIRED) /* this block's half of A, into both blocks */
                        tma_load_both(stage + rank * (BM / 2) * 128, &a_map, s * WG_BK,
                                      row0 + (int)rank * (BM / 2), &full[slot]);
                    else
                        tma_load(stage, &a_map, s * WG_BK, row0, &full[slot]);
                    if (TERMS == 3)
                        tma_load(stage + A_TILE_BYTES(TERMS), &a_small_map, s * WG_BK, row0,
                                 &full[slot]);
                    unsigned char *b_stage = stage + (TERMS == 3 ? 2 : 1) * A_TILE_BYTES(TERMS);
                    for (int box = 0; box < WG_BN / 32; ++box)
                        tma_load(b_stage + box * 4096, &b_map, col0 + 32 * box, s * WG_BK,
                                 &full[slot]);
                }
            }
        } else if (splits > 1 && warp > 0) { /* warps 1 to 3: the tiles of the block's units */
            for (int u = first; u < units; u += count) {
                int row0, col0;
                unit_position(u / splits, units_x, tiles_y, BM, PAIRED, rank, &row0, &col0);
                unsigned *flags = &zeroed[flag_index(u, splits, PAIRED, rank)];
                const int q0 = first_quarter(u % splits, splits);
                for (int k = 0; k < ZERO_QUARTERS; ++k) {
                    const int q = (q0 + k) % ZERO_QUARTERS;
                    zero_quarter<BM>(C, ldc, M, N, row0, col0, q, flags + q, launch);
                }
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 216;");
        const int mg = group - 1; /* which 64 columns of the block tile */
        float acc[BM * 64 / WG_THREADS]; /* its share of BM x 64; rows 128 h ..: acc + 64 h */
        float part[64]; /* 3xTF32: one strip's sum */
        unsigned g = 0;
        for (int u = first; u < units; u += count) {
            int row0, col0;
            unit_position(u / splits, units_x, tiles_y, BM, PAIRED, rank, &row0, &col0);
            /* this unit's strips of K: all of them, or its part */
            const int n = min(strips, (u % splits + 1) * per_split) - u % splits * per_split;
#pragma unroll
            for (int i = 0; i < BM * 64 / WG_THREADS; ++i)
                acc[i] = 0.0f;

            if constexpr (TERMS == 1) {
                /* Strip s + 1's fragments are loaded while strip s's wgmmas run, so they must
                 * land in other registers: PTX leaves a wgmma's result undefined if its
                 * registers are written while it runs, and the compiler does not know that our
                 * asm reads them late. The loop is unrolled by two strips, with the fragments
                 * never picked by a run-time index, so that the compiler can give the two
                 * strips different registers (the arrays even and odd say it to the reader; a
                 * C++ array is not a register). Picked through a pointer, the sets went through
                 * local memory into the same registers, overwritten under a running wgmma:
                 * wrong results (the appendix). 05_matmul.cpu.wgmma_sass reads the machine code
                 * to check. */
                unsigned even[4][4], odd[4][4];
                int s = 0;
                for (; s + 1 < n; s += 2) {
                    tf32_strip(acc, even, stages, full, free_, g++, s == 0, PAIRED, rank, mg,
                               warp, lane);
                    tf32_strip(acc, odd, stages, full, free_, g++, 0, PAIRED, rank, mg, warp,
                               lane);
                }
                if (s < n) /* the last of an odd number of strips */
                    tf32_strip(acc, even, stages, full, free_, g++, s == 0, PAIRED, rank, mg,
                               warp, lane);
                wgmma_wait_all(acc, 128); /* the tile's last strip */
                if (n > 0)
                    release_stage(&free_[(g - 1) % WGMMA_STAGES], PAIRED, rank, lane);
            } else {
                for (int s = 0; s < n; ++s, ++g) {
                    const int slot = g % WGMMA_STAGES;
                    barrier_wait(&full[slot], (g / WGMMA_STAGES) % 2);
                    const unsigned char *stage = stages + slot * WGMMA_STAGE_BYTES;
                    const unsigned char *a_small = stage + A_TILE_BYTES(3);
                    unsigned big[4][4], small[4][4];
                    load_b_fragments(big, small, (const float *)(stage + 2 * A_TILE_BYTES(3)),
                                     mg, warp, lane);
                    wgmma_fence();
#pragma unroll
                    for (int j = 0; j < WG_BK / 8; ++j) {
                        /* The small products first, into a fresh sum for this strip (as in
                         * mma_3xtf32). */
                        wgmma_tf32(part, big[j], tile_descriptor(a_small + 32 * j), j > 0);
                        wgmma_tf32(part, small[j], tile_descriptor(stage + 32 * j), 1);
                        wgmma_tf32(part, big[j], tile_descriptor(stage + 32 * j), 1);
                    }
                    wgmma_commit();
                    wgmma_wait_all(part, 64);
                    release_stage(&free_[slot], 0, 0, lane);
#pragma unroll
                    for (int i = 0; i < 64; ++i)
                        acc[i] += part[i];
                }
            }
            float *buf = out_buf + mg * WGMMA_OUT_ROWS * WGMMA_OUT_STRIDE;
            const int col = col0 + 64 * mg;
            if (splits == 1) {
                store_tile<BM, 0>(acc, C, ldc, M, N, row0, col, mg, warp, lane, buf);
            } else {
                wait_until_zeroed(&zeroed[flag_index(u, splits, PAIRED, rank)], launch, mg);
                store_tile<BM, 1>(acc, C, ldc, M, N, row0, col, mg, warp, lane, buf);
            }
        }
    }
    /* No block of a pair exits while the other may still multicast into it or arrive on its
     * barriers. */
    if (PAIRED)
        cluster_sync();
#endif
}

/* 3xTF32's preparation of A, once per call, 4 floats per thread and step (count is a multiple
 * of 4: rows of lda floats, lda a multiple of 4): a_big = a rounded to TF32, a_small = a - a_big
 * (exact in FP32). */
__global__ void split_kernel(const float4 *a, float4 *a_big, float4 *a_small, size_t count4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count4;
         i += (size_t)gridDim.x * blockDim.x) {
        const float4 x = a[i];
        const float4 big =
            make_float4(round_tf32(x.x), round_tf32(x.y), round_tf32(x.z), round_tf32(x.w));
        a_big[i] = big;
        /* an infinite or NaN x: its big part carries it, small is 0 */
        a_small[i] = make_float4(isfinite(x.x) ? x.x - big.x : 0.0f,
                                 isfinite(x.y) ? x.y - big.y : 0.0f,
                                 isfinite(x.z) ? x.z - big.z : 0.0f,
                                 isfinite(x.w) ? x.w - big.w : 0.0f);
    }
}

/* ---- What TMA writes into shared memory through an FP32 and a TF32 map (--tma-rounding) --- */

#define PROBE_ROWS 64
#define PROBE_COLS 32 /* one 128-byte swizzled row of floats */

/* Copies the map's first PROBE_ROWS x PROBE_COLS tile into shared memory with one TMA load, as
 * the kernel above does, and writes it back unswizzled, bit for bit. */
__global__ void tma_probe_kernel(const __grid_constant__ CUtensorMap map, unsigned *out)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(1024) unsigned tile[PROBE_ROWS * PROBE_COLS];
    __shared__ unsigned long long landed;
    if (threadIdx.x == 0) {
        barrier_init(&landed, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        barrier_expect_bytes(&landed, (int)sizeof tile);
        tma_load(tile, &map, 0, 0, &landed);
    }
    barrier_wait(&landed, 0);
    for (int i = threadIdx.x; i < PROBE_ROWS * PROBE_COLS; i += blockDim.x) {
        const int row = i / PROBE_COLS, col = i % PROBE_COLS;
        out[i] = tile[row * PROBE_COLS + ((col / 4) ^ (row % 8)) * 4 + col % 4];
    }
#endif
}

/* ---- Host side ---------------------------------------------------------------------------- */

/* cuTensorMapEncodeTiled is a driver function; the runtime hands it over, so the program needs
 * no link to libcuda (which a machine without a GPU lacks). */
typedef CUresult (*encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                                    const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                                    const cuuint32_t *, CUtensorMapInterleave,
                                    CUtensorMapSwizzle, CUtensorMapL2promotion,
                                    CUtensorMapFloatOOBfill);

static encode_tiled_fn tensor_map_encoder(void)
{
    static encode_tiled_fn encode = NULL;
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
        encode = (encode_tiled_fn)fn;
    }
    return encode;
}

/* The map of a row-major rows x cols matrix (rows ld floats apart) in boxes of box_rows x
 * box_cols, 128-byte swizzled, zero outside the matrix (OOB_FILL_NONE: fill with zeros, not NaN).
 * type: CU_TENSOR_MAP_DATA_TYPE_FLOAT32 copies the bits as they are;
 * CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 rounds each value to the nearest TF32 on its way (ties to
 * even; NaN stays NaN, infinities stay infinite). */
static CUtensorMap tile_map(const float *base, int rows, int cols, size_t ld, int box_rows,
                            int box_cols, CUtensorMapDataType type)
{
    CUtensorMap map;
    const cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
    const cuuint64_t strides[1] = {(cuuint64_t)ld * sizeof(float)};
    const cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows};
    const cuuint32_t steps[2] = {1, 1};
    const CUresult r = tensor_map_encoder()(
        &map, type, 2, (void *)base, dims, strides, box, steps,
        CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
        CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "matmul_demo: cuTensorMapEncodeTiled failed (error %d) for a %d x %d "
                "matrix, rows %zu floats apart\n", (int)r, rows, cols, ld);
        exit(1);
    }
    return map;
}

/* 3xTF32's split copies of A, kept between calls (grown when a larger A comes). */
static float *split_a = NULL;
static size_t split_floats = 0;

/* K in parts: a flag for each quarter of a block tile (zero_quarter), kept between calls (grown
 * when more tiles come, zeroed when allocated), and the number of the last launch that cut K. */
static unsigned *zero_flags = NULL;
static size_t zero_flag_count = 0;
static unsigned launch_number = 0;

void wgmma_release(void)
{
    if (split_a)
        CUDA_CHECK(cudaFree(split_a));
    split_a = NULL;
    split_floats = 0;
    if (zero_flags)
        CUDA_CHECK(cudaFree(zero_flags));
    zero_flags = NULL;
    zero_flag_count = 0;
}

static matmul_kernel_info info_of(const void *kernel, int cluster)
{
    const matmul_kernel_info info = {.kernel = kernel,
                                     .threads = WGMMA_THREADS,
                                     .dynamic_shared = WGMMA_SHARED_BYTES,
                                     .cluster = cluster};
    return info;
}

/* TF32: the kernel in pairs, which variant_fits (matmul.cu) checks, its shared memory and its
 * clusters; launch_tf32 runs the unpaired one (the same block) for products one tile wide. */
matmul_kernel_info info_wgmma_tf32(void)
{
    return info_of((const void *)wgmma_tf32_kernel<1, 1>, 2);
}

matmul_kernel_info info_wgmma_3xtf32(void)
{
    return info_of((const void *)wgmma_tf32_kernel<3, 0>, 0);
}

/* The slots of a persistent grid: how many blocks of an unpaired kernel the GPU holds at once
 * (occupancy.h, from the device's limits: one per SM on a 9.0 GPU, whose shared memory holds one
 * block's stages), and how many clusters of two blocks of TF32's paired kernel (asked of the
 * driver: a cluster's two blocks must find room in one GPC). Each asked once (the program uses
 * one GPU). A grid has as many blocks (clusters) as slots, or one per unit of work when there are
 * fewer. variant_fits (matmul.cu) has checked the kernels before any launch, so failing here is
 * a defect, not bad input. */
static int alone_slots(const void *kernel, const char *name, int *resident)
{
    char why[160];
    if (!*resident) {
        /* variant_fits asked for the variant's kernel (for TF32 the pairs'); for this one too */
        if (!tut_allow_dynamic_shared(kernel, WGMMA_SHARED_BYTES, why, sizeof why)) {
            fprintf(stderr, "matmul_demo: %s: %s\n", name, why);
            exit(1);
        }
        *resident = tut_full_wave_blocks(kernel, name, WGMMA_THREADS, WGMMA_SHARED_BYTES);
    }
    return *resident;
}

static int tf32_alone_slots(void)
{
    static int resident = 0;
    return alone_slots((const void *)wgmma_tf32_kernel<1, 0>, "wgmma_tf32", &resident);
}

static int pair_slots(void)
{
    static int resident = 0;
    if (!resident) {
        const matmul_kernel_info pairs_kernel = info_wgmma_tf32();
        resident = matmul_clusters_resident(&pairs_kernel);
        if (resident < 1) {
            fprintf(stderr, "matmul_demo: wgmma_tf32: no cluster of 2 blocks fits on this GPU\n");
            exit(1);
        }
    }
    return resident;
}

/* The parts K is cut into, for `units` tiles or pairs on `slots` blocks or clusters:
 * --k-parts's count (wgmma_tf32_set_k_parts), or wgmma_k_splits's; last_parts: what the last
 * launch (of TF32 or 3xTF32) used. */
static int forced_parts = 0, last_parts = 1;

void wgmma_tf32_set_k_parts(int parts) { forced_parts = parts; }

void wgmma_tf32_set_launch_number(unsigned last) { launch_number = last; }

int wgmma_tf32_k_parts(void) { return last_parts; }

/* For a launch in `parts` parts over `tiles` block tiles (a pair is two): the flags, and the
 * launch's number L, from 1 (0 where K is whole: no flag is read; wgmma_next_launch counts
 * them). The flags hold 2 L + 1 at most: after 2^31 - 1 launches they are cleared (on the
 * default stream, so after the last launch that used them) and L starts again from 1. */
static unsigned flags_for(const matmul_args *a, int parts, long long tiles)
{
    if (parts == 1)
        return 0;
    if (a->N % 4 != 0 || a->ldc % 4 != 0 || (size_t)a->C % 16 != 0) {
        /* zero_quarter writes float4s; the driver always has C in FLOAT4_ROWS (variants.h) */
        fprintf(stderr, "matmul_demo: K in parts needs C's rows in whole float4s (N = %d, ldc = "
                "%zu, C at %p: multiples of 4, 16-byte aligned)\n", a->N, a->ldc, (void *)a->C);
        exit(1);
    }
    const size_t flags = (size_t)tiles * ZERO_QUARTERS;
    if (flags > zero_flag_count) {
        if (zero_flags)
            CUDA_CHECK(cudaFree(zero_flags));
        CUDA_CHECK(cudaMalloc(&zero_flags, flags * sizeof(unsigned)));
        CUDA_CHECK(cudaMemset(zero_flags, 0, flags * sizeof(unsigned)));
        zero_flag_count = flags;
    }
    int clear;
    const unsigned launch = wgmma_next_launch(&launch_number, &clear);
    if (clear)
        CUDA_CHECK(cudaMemset(zero_flags, 0, zero_flag_count * sizeof(unsigned)));
    return launch;
}

static int parts_for(long long units, int slots, int K)
{
    last_parts = forced_parts > 0 ? forced_parts
                                  : wgmma_k_splits(units, slots, (K + WG_BK - 1) / WG_BK);
    return last_parts;
}

/* TF32's launch, TMA rounding A and B to TF32 as it copies them. In pairs: clusters of two
 * blocks (a launch attribute, so cudaLaunchKernelEx), as many clusters as the GPU holds at once,
 * or one per unit when there are fewer; each block copies half of A's strip. A product one tile
 * wide (N <= 128) has no neighbour to pair a tile with (the second block of each pair would
 * multiply zeros): its blocks run alone, each copying the whole strip. Where the tiles (or pairs)
 * leave SMs idle, K is cut into parts (parts_for): a unit is one part of a tile's (or
 * pair's) strips, and each adds its sum into C, which the kernel zeroes first (zero_quarter). */
static void launch_tf32(const matmul_args *a)
{
    const int tiles_x = (a->N + WG_BN - 1) / WG_BN, tiles_y = (a->M + WG_BM(1) - 1) / WG_BM(1);
    const int pairs = (tiles_x + 1) / 2 * tiles_y;
    const int splits = tiles_x == 1 ? parts_for(tiles_y, tf32_alone_slots(), a->K)
                                    : parts_for(pairs, pair_slots(), a->K);
    const unsigned launch = flags_for(a, splits, 2LL * pairs);
    const CUtensorMap b_map =
        tile_map(a->B, a->K, a->N, a->ldb, WG_BK, 32, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32);
    if (tiles_x == 1) {
        const int units = splits * tiles_y, slots = tf32_alone_slots();
        const CUtensorMap a_map = tile_map(a->A, a->M, a->K, a->lda, WG_BM(1), WG_BK,
                                           CU_TENSOR_MAP_DATA_TYPE_TFLOAT32);
        const int blocks = units < slots ? units : slots;
        wgmma_tf32_kernel<1, 0><<<blocks, WGMMA_THREADS, WGMMA_SHARED_BYTES>>>(
            a_map, a_map, b_map, a->M, a->N, a->K, a->C, a->ldc, splits, zero_flags,
            launch); /* a_small: not read */
        LAUNCH_CHECK();
        return;
    }
    const int units = splits * pairs, slots = pair_slots();
    cudaLaunchAttribute pair;
    pair.id = cudaLaunchAttributeClusterDimension;
    pair.val.clusterDim.x = 2;
    pair.val.clusterDim.y = 1;
    pair.val.clusterDim.z = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(2 * (units < slots ? units : slots), 1, 1);
    config.blockDim = dim3(WGMMA_THREADS, 1, 1);
    config.dynamicSmemBytes = WGMMA_SHARED_BYTES;
    config.attrs = &pair;
    config.numAttrs = 1;
    const CUtensorMap a_map = tile_map(a->A, a->M, a->K, a->lda, WG_BM(1) / 2, WG_BK,
                                       CU_TENSOR_MAP_DATA_TYPE_TFLOAT32);
    CUDA_CHECK(cudaLaunchKernelEx(&config, wgmma_tf32_kernel<1, 1>, a_map, a_map, b_map, a->M,
                                  a->N, a->K, a->C, a->ldc, splits, zero_flags, launch));
    LAUNCH_CHECK();
}

/* 3xTF32's launch: A split by split_kernel, B copied as FP32 and split as it is loaded; K cut
 * into parts where the tiles leave SMs idle, as for TF32. */
static void launch_3terms(const matmul_args *a)
{
    const int BM = WG_BM(3);
    const int tiles = ((a->N + WG_BN - 1) / WG_BN) * ((a->M + BM - 1) / BM);
    const CUtensorMap b_map =
        tile_map(a->B, a->K, a->N, a->ldb, WG_BK, 32, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
    const size_t count = (size_t)a->M * a->lda; /* a multiple of 4 */
    if (2 * count > split_floats) {
        wgmma_release();
        split_floats = 2 * count;
        CUDA_CHECK(cudaMalloc(&split_a, split_floats * sizeof(float)));
    }
    float *a_small = split_a + count;
    split_kernel<<<4 * tut_current_device()->sm_count, 256>>>(
        (const float4 *)a->A, (float4 *)split_a, (float4 *)a_small, count / 4);
    LAUNCH_CHECK();
    const CUtensorMap a_map =
        tile_map(split_a, a->M, a->K, a->lda, BM, WG_BK, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
    const CUtensorMap a_small_map =
        tile_map(a_small, a->M, a->K, a->lda, BM, WG_BK, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
    static int resident = 0;
    const int slots = alone_slots((const void *)wgmma_tf32_kernel<3, 0>, "wgmma_3xtf32", &resident);
    const int splits = parts_for(tiles, slots, a->K);
    const unsigned launch = flags_for(a, splits, tiles);
    const int units = splits * tiles;
    wgmma_tf32_kernel<3, 0><<<units < slots ? units : slots, WGMMA_THREADS, WGMMA_SHARED_BYTES>>>(
        a_map, a_small_map, b_map, a->M, a->N, a->K, a->C, a->ldc, splits, zero_flags, launch);
    LAUNCH_CHECK();
}

void launch_wgmma_tf32(const matmul_args *a)
{
    launch_tf32(a);
}

void launch_wgmma_3xtf32(const matmul_args *a)
{
    launch_3terms(a);
}

/* ---- --tma-rounding: the host side ------------------------------------------------------- */

/* The FP32 bits x after one of the CPU's conversions to TF32 (cpu_reference.c): the three
 * rules a conversion might follow. */
static unsigned tf32_bits(float (*rule)(float), unsigned x)
{
    float f;
    memcpy(&f, &x, sizeof f);
    f = rule(f);
    memcpy(&x, &f, sizeof x);
    return x;
}
static unsigned nearest_even(unsigned x)
{
    return tf32_bits(matmul_round_tf32_even, x);
}
static unsigned nearest_away(unsigned x)
{
    return tf32_bits(matmul_round_tf32, x);
}
static unsigned truncated(unsigned x)
{
    return tf32_bits(matmul_truncate_tf32, x);
}

static int is_nan_bits(unsigned x)
{
    return (x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu) != 0;
}

int wgmma_tma_rounding(const char *outdir)
{
    if (!matmul_hopper(tut_current_device())) {
        printf("tma_rounding skipped on this GPU: needs 9.0 (TMA, code for sm_90a)\n");
        return TUT_EXIT_SKIP;
    }
    enum { COUNT = PROBE_ROWS * PROBE_COLS, TIES = 256 };
    static unsigned in[COUNT], out[COUNT];
    tut_rng rng;
    tut_rng_seed(&rng, TUT_DEFAULT_SEED);
    for (int i = 0; i < COUNT; ++i) /* random bits: every exponent, NaN and infinity included */
        in[i] = (unsigned)tut_rng_next(&rng);
    for (int i = 0; i < TIES; ++i) /* exactly halfway between two TF32 values */
        in[i] = (in[i] & 0xffffe000u) | 0x1000u;
    /* zeros, denormals, the largest finite values (rounding up to infinity), infinities, NaN
     * (one with its payload in the low 13 bits alone: truncation would make it infinite), ties */
    const unsigned special[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x00001fffu,
                                0x007fffffu, 0x007ff000u, 0x7f7fffffu, 0xff7fffffu,
                                0x7f7ff000u, 0x7f800000u, 0xff800000u, 0x7fc00001u,
                                0x7f800001u, 0xff801000u, 0x3f801000u, 0x3f803000u};
    for (int i = 0; i < TUT_COUNT(special); ++i)
        in[TIES + i] = special[i];
    unsigned *d_in = (unsigned *)tut_device_alloc(sizeof in, "probe input");
    unsigned *d_out = (unsigned *)tut_device_alloc(sizeof out, "probe output");
    CUDA_CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    tut_csv *csv = tut_csv_open(outdir, "tma_rounding.csv",
                                "map,values,nan,unchanged,nearest_even,nearest_away,truncated,"
                                "ties,ties_to_even,passed");
    const CUtensorMapDataType types[2] = {CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                                          CU_TENSOR_MAP_DATA_TYPE_TFLOAT32};
    const char *names[2] = {"FLOAT32", "TFLOAT32"};
    int ok = 1;
    printf("TMA through a tensor map of each type, %d FP32 values (the first %d exact ties): how "
           "many land in shared memory as each rule has them (NaN: kept as NaN or not)\n"
           "%-9s %6s %10s %13s %13s %10s %13s\n", COUNT, TIES, "map",
           "NaN", "unchanged", "nearest_even", "nearest_away", "truncated", "ties_to_even");
    for (int t = 0; t < 2; ++t) {
        const CUtensorMap map = tile_map((const float *)d_in, PROBE_ROWS, PROBE_COLS,
                                         PROBE_COLS, PROBE_ROWS, PROBE_COLS, types[t]);
        CUDA_CHECK(cudaMemset(d_out, 0xff, sizeof out));
        tma_probe_kernel<<<1, 128>>>(map, d_out);
        LAUNCH_CHECK();
        CUDA_CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
        int nan = 0, same = 0, even = 0, away = 0, trunc = 0, ties = 0, ties_even = 0, wrong = 0;
        for (int i = 0; i < COUNT; ++i) {
            if (is_nan_bits(in[i])) { /* a NaN must stay a NaN, whatever its payload */
                nan += 1;
                wrong += !is_nan_bits(out[i]);
                continue;
            }
            same += out[i] == in[i];
            even += out[i] == nearest_even(in[i]);
            away += out[i] == nearest_away(in[i]);
            trunc += out[i] == truncated(in[i]);
            ties += i < TIES; /* the exact ties that are numbers */
            ties_even += i < TIES && out[i] == nearest_even(in[i]);
            /* step 13 needs: FP32 bits untouched, TF32 rounded to nearest even (infinities
             * stay: nearest_even keeps them) */
            wrong += out[i] != (t == 0 ? in[i] : nearest_even(in[i]));
        }
        printf("%-9s %6d %10d %13d %13d %10d %9d/%d%s\n", names[t], nan, same, even, away, trunc,
               ties_even, ties, wrong ? "  WRONG" : "");
        tut_csv_row(csv, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d", names[t], COUNT, nan, same, even, away,
                    trunc, ties, ties_even, !wrong);
        ok &= !wrong;
    }
    tut_csv_close(csv);
    tut_device_free(d_in);
    tut_device_free(d_out);
    printf("%s\n", ok ? "TMA copies FP32 as it is and rounds to nearest TF32 (ties to even)"
                      : "FAIL: TMA did not copy or round as step 13 relies on");
    return ok ? 0 : 1;
}
