/* The chapter's launch choices, as pure functions of a GPU's limits (tut_device_info) and of what
 * each kernel asks of an SM (tut_kernel_use: threads, registers, shared memory). Plain C, so the
 * CPU test (tests/launch_config_test.c) makes the same choices for every GPU of gpu_table.h that
 * the program makes on the GPU it runs on, or on the one TUT_EMULATE_GPU names.
 *
 * Most kernels of the chapter have one fixed configuration that fits every GPU this suite runs
 * on (the CPU test proves it); the choices made here are those that depend on the GPU:
 *   - step 10's tile (launch_pipelined): the largest of 128 x 256, 128 x 128 and 64 x 128 whose
 *     waves keep at least 90% of the SMs' slots busy at the occupancy the GPU allows, else the
 *     64 x 128 configuration that keeps the most blocks on an SM;
 *   - how step 10 copies B: cp.async from compute capability 8.0, plain loads before;
 *   - whether a configuration fits at all (step 10's 128 x 256 tile asks 99,328 bytes of shared
 *     memory per block, pipelined_bk32 66,560: more than a T4 block can have, and the first
 *     more than a V100's); one that does not is passed by or skipped with the reason. */
#ifndef MATMUL_LAUNCH_CONFIG_H
#define MATMUL_LAUNCH_CONFIG_H

#include <stddef.h>

#include "device.h"
#include "occupancy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Shared memory of one block of the pipelined kernel (10_pipelined.cu, and the ablations'
 * ablations/pipelined_kernel.cuh): two buffers of the A strip (bk x (bm + 4) floats, transposed
 * and padded) and `stages` buffers of the B strip (bk x bn floats). */
#define PIPELINED_SHARED_BYTES(bm, bn, bk, stages) \
    ((size_t)4 * (2 * (bk) * ((bm) + 4) + (stages) * (bk) * (bn)))

/* Where step 10 stores column m of row k of its transposed A tile (a K strip of bk): for a
 * strip of 32, m with bits 2-3 flipped by k / 8 (10_pipelined.cu says why), else m. Callable
 * from the kernels and from the CPU test, which checks that it spreads a warp's stores over
 * the 32 banks and keeps the fragments' float4s whole. */
#ifdef __CUDACC__
__host__ __device__
#endif
static inline int pipelined_a_column(int m, int k, int bk)
{
    return bk == 32 ? m ^ (((k >> 3) & 3) << 2) : m;
}

/* Steps 11-12, the tensor cores (TF32, compute capability 8.0). The WMMA kernel
 * (11_wmma_tf32.cu): 128 x 128 block tile, K strip 32, 256 threads, static shared memory
 * 128 x 36 + 32 x 132 floats. The mma.sync kernel (12_mma_tf32.cu, TF32 and 3xTF32): 128 x 128
 * block tile, K strip 16, 128 threads, MMA_STAGES stages of both strips (A's rows padded by 4
 * floats, B's by 8) in dynamic shared memory: 75,776 bytes, which every GPU of compute
 * capability 8.0 or later
 * gives a block (the smallest, sm_86/89/120, 99 KiB); 4 warps of 64 x 64 each. */
#define WMMA_BM 128
#define WMMA_BN 128
#define WMMA_BK 32
#define WMMA_THREADS 256
#define WMMA_SHARED_BYTES ((size_t)4 * (WMMA_BM * (WMMA_BK + 4) + WMMA_BK * (WMMA_BN + 4)))
#define MMA_BM 128
#define MMA_BN 128
#define MMA_BK 16
#define MMA_STAGES 4
#define MMA_THREADS 128
#define MMA_SHARED_BYTES \
    ((size_t)4 * MMA_STAGES * (MMA_BM * (MMA_BK + 4) + MMA_BK * (MMA_BN + 8)))

/* Step 13, wgmma fed by TMA (13_wgmma_tf32.cu, compute capability 9.0 only): 384 threads
 * (one warpgroup copying, two multiplying), WGMMA_STAGES stages of 48 KiB (a 256 x 32 strip of A
 * and a 32 x 128 strip of B; for 3xTF32 two 128 x 32 strips of A) in dynamic shared memory,
 * 1 KiB to align them, 2 barriers per stage, and for each multiplying warpgroup a buffer of
 * WGMMA_OUT_ROWS x WGMMA_OUT_STRIDE floats through which it stores its results:
 * 214,592 bytes, one block per SM. */
#define WGMMA_THREADS 384
#define WGMMA_STAGES 4
#define WGMMA_STAGE_BYTES 49152
#define WGMMA_OUT_ROWS 32
#define WGMMA_OUT_STRIDE 66
#define WGMMA_SHARED_BYTES                                                                  \
    ((size_t)WGMMA_STAGES * WGMMA_STAGE_BYTES + 1024 + 2 * WGMMA_STAGES * 8 +               \
     2 * WGMMA_OUT_ROWS * WGMMA_OUT_STRIDE * 4)

/* Step 13's TF32 kernel runs one unit of work a block (or a cluster of two) at a time: a tile
 * (products one tile wide, N <= 128) or a pair of tiles. With few units that leaves SMs idle
 * (16896 x 128: 66 tiles for 132 blocks; 512 x 512: 4 pairs for 66 clusters), and a count just
 * past a wave doubles the time (133 tiles, 81 pairs). Cutting K into S parts, each added into C
 * (zeroed first) by its own block or cluster, gives S times the units, each 1/S as long. A
 * unit's time is counted in strips: ceil(strips / S) plus WGMMA_SPLIT_COST_STRIPS for what every
 * unit pays whatever its length (filling the pipeline, adding its tile into C), and the units run
 * in ceil(S units / slots) rounds. Returns the S that takes the least time by that count (the
 * smallest S of equal time), with WGMMA_SPLIT_MIN_STRIPS strips a part on average at least and
 * no more parts than slots, if the count promises at least a tenth off the time of whole units;
 * else 1. (The kernel gives each part ceil(strips / S) strips and the last what is left, which
 * can be fewer but never none.) The two constants were measured again on an H200 once the kernel
 * zeroed C itself (docs/results/05_matmul/h200/tf32_split_k_cost.csv): with a cost of 8 strips
 * and parts of 4 strips at least the count picks the fastest part count measured at 14 shapes,
 * where the earlier 28 and 8 (set while a memset zeroed C) lost up to 11% (512^3 in 2 parts,
 * where 4 ran faster); at 18 other shapes (medians of three rounds) it took 1% to 24% less time
 * at 14, the same at 1 and up to 1.3% more at 3, each of which ran at a lower lowest clock (the
 * power cap; so did some wins: not measured apart). It is still a coarse guide: where whole TF32
 * units already filled half the slots the parts gave under half of what it promised, so its
 * tenth is a floor on the promise, not on the gain.
 * units: tiles or pairs; slots: the blocks or clusters the GPU holds at once; strips: K's strips
 * of 32. */
#define WGMMA_SPLIT_MIN_STRIPS 4
#define WGMMA_SPLIT_COST_STRIPS 8
int wgmma_k_splits(long long units, long long slots, long long strips);

/* The number of step 13's next launch that cuts K (flags_for in 13_wgmma_tf32.cu), given the
 * last one's (*last, 0 before the first): from 1 up to WGMMA_LAST_LAUNCH, the largest L whose
 * flag values 2 L and 2 L + 1 fit in an unsigned int; after it, 1 again, with *clear set to 1:
 * the flags still hold values up to 2 WGMMA_LAST_LAUNCH + 1 and must be zeroed before that
 * launch. Updates *last. */
#define WGMMA_LAST_LAUNCH 0x7fffffffu
unsigned wgmma_next_launch(unsigned *last, int *clear);

/* 1 if the GPU is a real compute capability 9.0 (an H100 or H200) and its limits, emulated or
 * not, are 9.0's: step 13 runs there (their code is sm_90a, which runs on a real 9.0 alone);
 * elsewhere "needs 9.0". */
int matmul_hopper(const tut_device_info *dev);

/* 1 if the GPU has TF32 tensor cores (compute capability 8.0, emulated if so): steps 11-12 run
 * there; elsewhere the driver skips them with "needs 8.0". */
int matmul_tensor_cores(const tut_device_info *dev);

/* The configurations launch_pipelined chooses from (10_pipelined.cu). */
typedef enum {
    PIPELINED_128X256,    /* 256 threads, K strip 32, 2 stages of B, 8 x 16 results per thread:
                             the largest (99,328 bytes of shared memory, up to 255 registers) */
    PIPELINED_128X128,    /* 256 threads, K strip 16, 2 stages of B, 8 x 8 results per thread */
    PIPELINED_64X128,     /* 128 threads, 3 stages: twice the blocks for the same matrix */
    PIPELINED_64X128_S2,  /* 128 threads, 2 stages: less shared memory, more blocks per SM */
    PIPELINED_TILE_COUNT
} pipelined_tile;

typedef struct {
    pipelined_tile tile;
    int block_rows, block_cols; /* of C, per block */
    long long blocks;           /* in the grid */
    int blocks_per_sm;          /* resident at once (occupancy.h), 0 if nothing fits */
    int async_copy;             /* 1: B by cp.async; 0: plain loads and stores */
} pipelined_choice;

/* The tile's name ("128x256", "128x128", "64x128", "64x128_s2") and its block size. */
const char *pipelined_tile_name(pipelined_tile tile);
int pipelined_tile_rows(pipelined_tile tile);
int pipelined_tile_cols(pipelined_tile tile);

/* 1 if B may be copied with cp.async on this GPU (compute capability 8.0, emulated if so). */
int pipelined_async_copy(const tut_device_info *dev);

/* The share of the resident slots (blocks per SM x SMs) that a grid's waves keep busy:
 * blocks / (waves x slots), waves = blocks / slots rounded up. 288 blocks for 132 slots: 3
 * waves, the last with 24 blocks: 0.73. */
double pipelined_wave_fill(long long blocks, long long slots);
#define PIPELINED_WAVE_FILL 0.9

/* Step 10's choice for an M x N result. use[t] is what one block of configuration t asks (the
 * program asks the runtime; the CPU test gives the registers the compiler reported):
 *   - the largest tile, 128 x 256, then 128 x 128, then the 64 x 128 configuration with the most
 *     blocks per SM (3 stages on a tie), that fits the GPU and whose waves keep at least
 *     PIPELINED_WAVE_FILL of the slots busy: a larger tile reuses each load more, but its
 *     blocks take longer, and in a last wave that leaves SMs idle they wait for them;
 *   - if none does, that 64 x 128 configuration, whose last wave ends soonest (measured on an
 *     H100 at 3072^3, where every tile's waves are 73% full: 64 x 128 was the fastest);
 *   - if it does not fit, the next larger that does; blocks_per_sm = 0 if none fits. */
pipelined_choice pipelined_choose(const tut_device_info *dev, int M, int N,
                                  const tut_kernel_use use[PIPELINED_TILE_COUNT]);

/* Configuration `tile` for an M x N result, whatever the size (matmul_demo --tile, so that the
 * tests run every configuration at small sizes too); blocks_per_sm = 0 if it does not fit. */
pipelined_choice pipelined_take(const tut_device_info *dev, pipelined_tile tile, int M, int N,
                                const tut_kernel_use use[PIPELINED_TILE_COUNT]);

/* "64x128_s2: 2 blocks/SM, cp.async" into buf; returns buf. */
const char *pipelined_choice_text(const pipelined_choice *c, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
