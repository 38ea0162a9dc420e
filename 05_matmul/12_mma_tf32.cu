/* Step 12: TF32 tensor cores driven by hand (mma.sync), fed by ldmatrix and a cp.async
 * pipeline; then 3xTF32, which gets FP32 accuracy back out of the same instruction.
 *
 * Starting from 11_wmma_tf32.cu (same 128 x 128 block tile), everything WMMA hid is written out:
 *   - mma.sync.m16n8k8 (PTX): one warp multiplies a 16 x 8 piece of A by an 8 x 8 piece of B
 *     into a 16 x 8 piece of C. Each lane holds 4 values of A, 2 of B and 4 of C, at positions
 *     the PTX manual fixes (load_a_fragment, load_b_fragment, store_tile say which).
 *   - ldmatrix: one instruction gives every lane its 4 values of A straight from shared memory
 *     (A's rows padded by 4 floats, so the 8 rows it reads at once hit 32 different banks).
 *     B's 2 values per lane are two plain 32-bit loads (rows padded by 8: conflict-free too).
 *   - cp.async with MMA_STAGES buffers: the strips s + 1 .. s + MMA_STAGES - 1 are on their way
 *     from global memory while strip s is multiplied; one barrier per strip.
 *   - Inputs rounded to TF32 once per block, in shared memory, by the thread that copied them.
 * 3xTF32 (TERMS = 3): each input x becomes big = tf32(x) plus small = x - big (which the tensor
 * core truncates to TF32), and the product a b is computed as a_small b_big + a_big b_small +
 * a_big b_big (a_small b_small, at most 2^-22 |a b| and far less on average, is left out),
 * summed outside the tensor core: three tensor-core products in place of one, accurate to FP32
 * levels (docs/05_matmul_3.md, "3xTF32: FP32 accuracy from TF32 tensor cores").
 * Needs compute capability 8.0 (the driver skips it below, saying so; the sm_75 code of the
 * kernel is empty). Like step 8 it needs N and K multiples of 4 (cp.async copies 16 bytes; the
 * driver pads other sizes); any M, N, K within that: copies outside the matrices zero-fill. */
#include "tutorial.h"
#include "launch_config.h"
#include "matmul.h"

/* The block tile, the K strip and the pipeline depth: MMA_* in launch_config.h, which also gives
 * the shared memory they need (the launch choices are checked on every GPU of the table). Four
 * warps in 2 x 2, each computing a 64 x 64 piece of the block tile: 32 mma.sync per k step for
 * 4 ldmatrix and 16 loads of B (with 8 warps of 64 x 32, measured slower: fewer mma per load). */
#define WARPS_M 2
#define WARPS_N 2
#define A_PAD 4 /* floats after each row of the A strip: ldmatrix reads conflict-free */
#define B_PAD 8 /* floats after each row of the B strip: fragment loads conflict-free */
#define A_ROW (MMA_BK + A_PAD)
#define B_ROW (MMA_BN + B_PAD)
#define A_STAGE_FLOATS (MMA_BM * A_ROW)
#define B_STAGE_FLOATS (MMA_BK * B_ROW)
#define WARP_M (MMA_BM / WARPS_M)  /* 64 rows of C per warp */
#define WARP_N (MMA_BN / WARPS_N)  /* 64 columns */
#define TILES_M (WARP_M / 16)      /* mma tiles of 16 x 8 per warp: 4 x 8 */
#define TILES_N (WARP_N / 8)
#define GROUP_ROWS 8 /* block rasterisation: groups of 8 block rows (see block_position) */
#define A_COPIES (MMA_BM * MMA_BK / 4 / MMA_THREADS) /* float4s per thread per strip */
#define B_COPIES (MMA_BK * MMA_BN / 4 / MMA_THREADS)
#define A_ROW_STEP (MMA_THREADS / (MMA_BK / 4))       /* rows between a thread's copies */
#define B_ROW_STEP (MMA_THREADS / (MMA_BN / 4))

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800

static __device__ __forceinline__ unsigned shared_address(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* 16 bytes from global to shared memory, without passing through registers; 16 zero bytes
 * instead when `in` is 0 (src-size 0: nothing is read). */
static __device__ __forceinline__ void copy16_async(float *dst, const float *src, int in)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared_address(dst)),
                 "l"(src), "r"(in ? 16 : 0)
                 : "memory");
}

static __device__ __forceinline__ void commit_copies(void)
{
    asm volatile("cp.async.commit_group;\n" ::: "memory");
}

/* Waits until at most PENDING groups of this thread's copies are still in flight. */
template <int PENDING>
static __device__ __forceinline__ void wait_copies(void)
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
}

/* x rounded to the nearest TF32 (10 mantissa bits; ties away from zero), infinities and NaN
 * unchanged: what cvt.rna.tf32.f32 does, in fewer instructions (sm_80/90 run that one as
 * several). Adding half a unit of the 13 dropped bits carries into the kept ones exactly when
 * the dropped part is half a unit or more. matmul_round_tf32 (cpu_reference.c) is the same on
 * the CPU. */
static __device__ __forceinline__ float round_tf32(float x)
{
    const unsigned bits = __float_as_uint(x);
    return isfinite(x) ? __uint_as_float((bits + 0x1000u) & 0xffffe000u) : x;
}

/* 3xTF32: x = big + small + rest. big is x rounded to TF32 (without the check for infinities:
 * see the docs), small = x - big is exact in FP32 and given to the tensor core as it is: the
 * tensor core reads the top 19 bits of a 32-bit value (sign, exponent, 10 mantissa bits) and
 * ignores the rest, so small is truncated to TF32 there: |rest| < 2^-10 |small| <= 2^-21 |x|.
 * A NaN stays a NaN in small (x - big), so it still reaches C. */
static __device__ __forceinline__ void split_tf32(float x, unsigned *big, unsigned *small)
{
    *big = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
    *small = __float_as_uint(x - __uint_as_float(*big));
}

/* Step 12: each thread rounds to TF32 the values it copied into a stage, once they have landed
 * (after its cp.async wait; the barrier that follows shows them to the other warps): each value
 * is rounded once per block, not once per warp that reads it. (Given unrounded, the tensor core
 * would truncate them: faster, but every product then errs the same way, towards zero, and the
 * errors add up instead of cancelling.) */
static __device__ __forceinline__ void round_own_copies(float *a_stage, float *b_stage,
                                                        int tid)
{
#pragma unroll
    for (int l = 0; l < A_COPIES; ++l) {
        float4 *p = (float4 *)(a_stage + (tid / (MMA_BK / 4) + l * A_ROW_STEP) * A_ROW +
                               (tid % (MMA_BK / 4)) * 4);
        const float4 v = *p;
        *p = make_float4(round_tf32(v.x), round_tf32(v.y), round_tf32(v.z), round_tf32(v.w));
    }
#pragma unroll
    for (int l = 0; l < B_COPIES; ++l) {
        float4 *p = (float4 *)(b_stage + (tid / (MMA_BN / 4) + l * B_ROW_STEP) * B_ROW +
                               (tid % (MMA_BN / 4)) * 4);
        const float4 v = *p;
        *p = make_float4(round_tf32(v.x), round_tf32(v.y), round_tf32(v.z), round_tf32(v.w));
    }
}

/* The A fragment of a 16 x 8 piece whose top-left element is at `tile` (rows A_ROW floats apart):
 * lane l gets a[0] = (g, t), a[1] = (g + 8, t), a[2] = (g, t + 4), a[3] = (g + 8, t + 4) with
 * g = l / 4, t = l % 4. ldmatrix.x4 reads four 8 x 4 matrices of 32-bit values (it thinks of
 * them as 8 x 8 of 16 bits), lanes 8i .. 8i + 7 giving the row addresses of matrix i, and hands
 * lane l word l % 4 of row l / 4 of each: exactly that layout. */
static __device__ __forceinline__ void load_a_fragment(unsigned a[4], const float *tile, int lane)
{
    const float *row = tile + (lane % 16) * A_ROW + (lane / 16) * 4;
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                 : "r"(shared_address(row)));
}

/* The B fragment of an 8 x 8 piece at `tile` (rows B_ROW floats apart): b[0] = (t, g),
 * b[1] = (t + 4, g). Rows B_ROW = 136 floats apart put the 32 lanes on 32 different banks. */
static __device__ __forceinline__ void load_b_fragment(float b[2], const float *tile, int lane)
{
    const int g = lane / 4, t = lane % 4;
    b[0] = tile[t * B_ROW + g];
    b[1] = tile[(t + 4) * B_ROW + g];
}

/* c += a b on the tensor cores: A 16 x 8 and B 8 x 8 in TF32, C 16 x 8 in FP32. */
static __device__ __forceinline__ void mma_tf32(float c[4], const unsigned a[4],
                                                const unsigned b[2])
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
        "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* Starts copying strip k0 of A (BM x BK) and of B (BK x BN) into one stage of shared memory.
 * Thread tid copies float4 tid % (BK / 4) of row tid / (BK / 4) of A and of the rows
 * A_ROW_STEP, 2 A_ROW_STEP, ... further on; the same for B. Out-of-matrix float4s zero-fill
 * (K and N are multiples of 4: a float4 is wholly inside or outside). */
static __device__ __forceinline__ void copy_strip(float *a_stage, float *b_stage, const float *A,
                                                  size_t lda, const float *B, size_t ldb, int M,
                                                  int N, int K, int row0, int col0, int k0,
                                                  int tid)
{
#pragma unroll
    for (int l = 0; l < A_COPIES; ++l) {
        const int r = tid / (MMA_BK / 4) + l * A_ROW_STEP, c = (tid % (MMA_BK / 4)) * 4;
        const int in = row0 + r < M && k0 + c < K;
        copy16_async(a_stage + r * A_ROW + c, in ? A + (size_t)(row0 + r) * lda + k0 + c : A, in);
    }
#pragma unroll
    for (int l = 0; l < B_COPIES; ++l) {
        const int r = tid / (MMA_BN / 4) + l * B_ROW_STEP, c = (tid % (MMA_BN / 4)) * 4;
        const int in = k0 + r < K && col0 + c < N;
        copy16_async(b_stage + r * B_ROW + c, in ? B + (size_t)(k0 + r) * ldb + col0 + c : B, in);
    }
}

/* Step 12: one strip of K already in shared memory (and rounded to TF32: round_own_copies),
 * multiplied into the warp's accumulators: MMA_BK / 8 steps of TILES_M x TILES_N mma.sync. */
static __device__ __forceinline__ void multiply_strip(float acc[TILES_M][TILES_N][4],
                                                      const float *a_warp, const float *b_warp,
                                                      int lane)
{
#pragma unroll
    for (int k = 0; k < MMA_BK; k += 8) {
        unsigned b[TILES_N][2];
#pragma unroll
        for (int n = 0; n < TILES_N; ++n) {
            float v[2];
            load_b_fragment(v, b_warp + k * B_ROW + n * 8, lane);
            b[n][0] = __float_as_uint(v[0]);
            b[n][1] = __float_as_uint(v[1]);
        }
#pragma unroll
        for (int m = 0; m < TILES_M; ++m) {
            unsigned a[4];
            load_a_fragment(a, a_warp + m * 16 * A_ROW + k, lane);
#pragma unroll
            for (int n = 0; n < TILES_N; ++n)
                mma_tf32(acc[m][n], a, b[n]);
        }
    }
}

/* Step 12: the same strip in 3xTF32. Every value is split (split_tf32) as it is read, and for
 * each 16 x 8 tile the three products of a k step go into a fresh accumulator that is then added
 * to the warp's in FP32: the tensor core's own additions truncate (round towards zero), which
 * would cost 3xTF32 its accuracy if the long running sums stayed inside it (the docs). The
 * small products go first: they are the smallest terms. */
static __device__ __forceinline__ void multiply_strip_3x(float acc[TILES_M][TILES_N][4],
                                                         const float *a_warp,
                                                         const float *b_warp, int lane)
{
#pragma unroll
    for (int k = 0; k < MMA_BK; k += 8) {
        unsigned b_big[TILES_N][2], b_small[TILES_N][2];
#pragma unroll
        for (int n = 0; n < TILES_N; ++n) {
            float v[2];
            load_b_fragment(v, b_warp + k * B_ROW + n * 8, lane);
            split_tf32(v[0], &b_big[n][0], &b_small[n][0]);
            split_tf32(v[1], &b_big[n][1], &b_small[n][1]);
        }
#pragma unroll
        for (int m = 0; m < TILES_M; ++m) {
            unsigned a_big[4], a_small[4];
            load_a_fragment(a_big, a_warp + m * 16 * A_ROW + k, lane);
            for (int i = 0; i < 4; ++i)
                split_tf32(__uint_as_float(a_big[i]), &a_big[i], &a_small[i]);
#pragma unroll
            for (int n = 0; n < TILES_N; ++n) {
                float part[4] = {0.0f, 0.0f, 0.0f, 0.0f};
                mma_tf32(part, a_small, b_big[n]);
                mma_tf32(part, a_big, b_small[n]);
                mma_tf32(part, a_big, b_big[n]);
                for (int i = 0; i < 4; ++i)
                    acc[m][n][i] += part[i];
            }
        }
    }
}

/* Which tile of C this block computes: blocks taken in groups of GROUP_ROWS block rows, column
 * by column, so that the blocks resident at one time share a few rows of A and columns of B in
 * L2 (the tensor cores eat operands ten times faster than step 10's FMAs). */
static __device__ __forceinline__ void block_position(int *row0, int *col0)
{
    const int per_group = GROUP_ROWS * (int)gridDim.x;
    const int b = blockIdx.y * (int)gridDim.x + blockIdx.x;
    const int first = b / per_group * GROUP_ROWS;
    const int rows = (int)gridDim.y - first < GROUP_ROWS ? (int)gridDim.y - first : GROUP_ROWS;
    *row0 = (first + b % per_group % rows) * MMA_BM;
    *col0 = (b % per_group / rows) * MMA_BN;
}

/* The warp's accumulators into C: lane l holds, for each 16 x 8 tile, (g, 2t), (g, 2t + 1),
 * (g + 8, 2t), (g + 8, 2t + 1). N is a multiple of 4, so a pair is wholly inside or outside. */
static __device__ __forceinline__ void store_tile(float acc[TILES_M][TILES_N][4], float *C,
                                                  size_t ldc, int M, int N, int row, int col,
                                                  int lane)
{
    const int g = lane / 4, t = lane % 4;
#pragma unroll
    for (int m = 0; m < TILES_M; ++m) {
#pragma unroll
        for (int n = 0; n < TILES_N; ++n) {
            const int r = row + m * 16 + g, c = col + n * 8 + 2 * t;
            if (c < N) {
                if (r < M)
                    *(float2 *)&C[(size_t)r * ldc + c] = make_float2(acc[m][n][0], acc[m][n][1]);
                if (r + 8 < M)
                    *(float2 *)&C[(size_t)(r + 8) * ldc + c] =
                        make_float2(acc[m][n][2], acc[m][n][3]);
            }
        }
    }
}

#endif /* __CUDA_ARCH__ >= 800 */

/* TERMS = 1: TF32 (mma_tf32); TERMS = 3: 3xTF32 (mma_3xtf32). */
template <int TERMS>
__global__ void __launch_bounds__(MMA_THREADS, 2)
mma_tf32_kernel(int M, int N, int K, const float *__restrict__ A, size_t lda,
                const float *__restrict__ B, size_t ldb, float *__restrict__ C, size_t ldc)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    /* MMA_STAGES stages of [A strip | B strip]: more than 48 KiB, so dynamic shared memory. */
    extern __shared__ __align__(16) float stages[];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0, col0;
    block_position(&row0, &col0);
    const int warp_row = (warp / WARPS_N) * WARP_M, warp_col = (warp % WARPS_N) * WARP_N;

    float acc[TILES_M][TILES_N][4];
#pragma unroll
    for (int m = 0; m < TILES_M; ++m)
#pragma unroll
        for (int n = 0; n < TILES_N; ++n)
            for (int i = 0; i < 4; ++i)
                acc[m][n][i] = 0.0f;

    const int strips = (K + MMA_BK - 1) / MMA_BK;
    /* Prologue: strips 0 .. STAGES - 2 on their way, one commit group each (empty past the end,
     * so that every thread counts the same groups). */
#pragma unroll
    for (int s = 0; s < MMA_STAGES - 1; ++s) {
        float *stage = stages + s * (A_STAGE_FLOATS + B_STAGE_FLOATS);
        if (s < strips)
            copy_strip(stage, stage + A_STAGE_FLOATS, A, lda, B, ldb, M, N, K, row0, col0,
                       s * MMA_BK, tid);
        commit_copies();
    }

    for (int s = 0; s < strips; ++s) {
        /* Strip s has landed (this thread's copies; the barrier: everyone's). The barrier also
         * says every warp is done with strip s - 1, whose stage is refilled next. */
        wait_copies<MMA_STAGES - 2>();
        float *stage = stages + (s % MMA_STAGES) * (A_STAGE_FLOATS + B_STAGE_FLOATS);
        if (TERMS == 1)
            round_own_copies(stage, stage + A_STAGE_FLOATS, tid);
        __syncthreads();
        const int next = s + MMA_STAGES - 1;
        if (next < strips) {
            float *fill = stages + (next % MMA_STAGES) * (A_STAGE_FLOATS + B_STAGE_FLOATS);
            copy_strip(fill, fill + A_STAGE_FLOATS, A, lda, B, ldb, M, N, K, row0, col0,
                       next * MMA_BK, tid);
        }
        commit_copies();

        if (TERMS == 3)
            multiply_strip_3x(acc, stage + warp_row * A_ROW, stage + A_STAGE_FLOATS + warp_col,
                              lane);
        else
            multiply_strip(acc, stage + warp_row * A_ROW, stage + A_STAGE_FLOATS + warp_col,
                           lane);
    }
    store_tile(acc, C, ldc, M, N, row0 + warp_row, col0 + warp_col, lane);
#endif
}

static matmul_kernel_info info_of(const void *kernel)
{
    const matmul_kernel_info info = {
        .kernel = kernel, .threads = MMA_THREADS, .dynamic_shared = MMA_SHARED_BYTES};
    return info;
}

matmul_kernel_info info_mma_tf32(void)
{
    return info_of((const void *)mma_tf32_kernel<1>);
}

matmul_kernel_info info_mma_3xtf32(void)
{
    return info_of((const void *)mma_tf32_kernel<3>);
}

template <int TERMS>
static void launch(const matmul_args *a)
{
    dim3 grid((a->N + MMA_BN - 1) / MMA_BN, (a->M + MMA_BM - 1) / MMA_BM);
    mma_tf32_kernel<TERMS><<<grid, MMA_THREADS, MMA_SHARED_BYTES>>>(
        a->M, a->N, a->K, a->A, a->lda, a->B, a->ldb, a->C, a->ldc);
    LAUNCH_CHECK();
}

void launch_mma_tf32(const matmul_args *a)
{
    launch<1>(a);
}

void launch_mma_3xtf32(const matmul_args *a)
{
    launch<3>(a);
}
