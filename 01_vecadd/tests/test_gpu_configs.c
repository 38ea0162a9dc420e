/* CPU test: vecadd's launch configurations (launch_config.h) on every GPU of common/gpu_table.h.
 * No GPU needed. Each choice is compared with numbers worked out by hand below from the GPU's
 * published limits and the CUDA occupancy rules, never with the occupancy calculator that made
 * the choice (common/occupancy.c): a bug there must not be able to agree with itself. */
#include <stdio.h>
#include <string.h>

#include "gpu_table.h"
#include "launch_config.h"
#include "tutorial.h"

/* Registers per thread from ptxas (nvcc --resource-usage, CUDA 13.0, -O3; the numbers
 * `cuobjdump --dump-resource-usage build/01_vecadd/vecadd` prints), for sm_75 and sm_90; the
 * tests use the larger. None of the kernels has static shared memory. */
enum {
    REGS_F64 = 12,         /* vecadd_f64_kernel: 10 (sm_75), 12 (sm_90) */
    REGS_F32 = 12,         /* vecadd_f32_kernel: 8, 12 */
    REGS_GRID_STRIDE = 14, /* vecadd_f32_grid_stride_kernel: 10, 14 */
    REGS_FLOAT4 = 24,      /* vecadd_f32x4_kernel: 22, 24 */
};

/* The rules, as the CUDA occupancy calculator applies them (cuda_occupancy.h,
 * cudaOccMaxBlocksPerSMRegsLimit):
 *   an SM holds at most `threads per SM` threads and `blocks per SM` blocks;
 *   registers go to whole warps, in chunks of 256 (regs/thread x 32, rounded up); each of an
 *   SM's 4 sub-partitions has a quarter of its 65536 registers (16384) and holds the whole warps
 *   that fit in it, so an SM holds 4 x that many warps;
 *   a block fits only if its warps' registers fit in the 65536 a block may have (checked for
 *   the warps rounded up to a multiple of 4), and a thread has at most 255 registers.
 * Every GPU of the table has 65536 registers per SM, so the register limit is the same on all:
 *   regs/thread  regs/warp        warps per sub-partition  warps per SM  threads per SM
 *   12, 14       384, 448 -> 512  16384 / 512 = 32         128           8192: never the limit
 *   24           768              16384 / 768 = 21.3: 21   84            2688: never the limit
 *   36           1152 -> 1280     16384 / 1280 = 12.8: 12  48            1536
 *   64           2048             16384 / 2048 = 8         32            1024
 *   80           2560             16384 / 2560 = 6.4: 6    24            768
 *   128          4096             16384 / 4096 = 4         16            512
 *   255          8160 -> 8192     16384 / 8192 = 2         8             256
 * A block of more warps than an SM holds does not fit: 1024 threads of 128 registers (131072
 * registers), 800 threads (25 warps) of 80.
 * 36 and 80 registers are where the rounding shows: registers counted per thread (no chunks)
 * would give 36 registers 14 warps per sub-partition (56 per SM), and warps counted over the
 * whole SM instead of per sub-partition would give 80 registers 65536 / 2560 = 25 warps.
 * On the table's GPUs the 65536 registers a block may have never decide: a block within one SM's
 * 4 x 16384 is within them. The last check uses a GPU whose blocks may have fewer.
 * The kernels use no shared memory, so the shared-memory limits (a T4's 64 KiB...) play no part. */

/* A choice: threads per block, and blocks resident per SM. */
typedef struct {
    unsigned threads;
    int per_sm;
} choice;

/* One GPU, worked out by hand: the limits its numbers come from (checked against
 * common/gpu_table.h, so that a changed limit asks for this row to be worked out again), then
 * what vecadd must choose there for its own kernels (12 to 24 registers: no register limit). */
typedef struct {
    const char *gpu;
    int sms, threads_per_sm, blocks_per_sm;
    choice manual; /* 256 threads: threads per SM / 256 blocks */
    choice forall; /* the block up to 1024 that keeps the most threads, the larger of equals:
                    * 1024 where an SM holds a multiple of 1024, else 768 (two blocks of 1536) */
    choice wave;   /* the streaming kernels: the same, up to 256 */
    int wave_blocks; /* one wave: SMs x wave.per_sm */
} expected_gpu;

/* clang-format off */
static const expected_gpu expected[] = {
    {.gpu = "T4",      .sms = 40,  .threads_per_sm = 1024, .blocks_per_sm = 16,
     .manual = {256, 4}, .forall = {1024, 1}, .wave = {256, 4}, .wave_blocks = 160},
    {.gpu = "V100",    .sms = 80,  .threads_per_sm = 2048, .blocks_per_sm = 32,
     .manual = {256, 8}, .forall = {1024, 2}, .wave = {256, 8}, .wave_blocks = 640},
    {.gpu = "A100",    .sms = 108, .threads_per_sm = 2048, .blocks_per_sm = 32,
     .manual = {256, 8}, .forall = {1024, 2}, .wave = {256, 8}, .wave_blocks = 864},
    {.gpu = "A10",     .sms = 72,  .threads_per_sm = 1536, .blocks_per_sm = 16,
     .manual = {256, 6}, .forall = {768, 2},  .wave = {256, 6}, .wave_blocks = 432},
    {.gpu = "RTX3090", .sms = 82,  .threads_per_sm = 1536, .blocks_per_sm = 16,
     .manual = {256, 6}, .forall = {768, 2},  .wave = {256, 6}, .wave_blocks = 492},
    {.gpu = "L4",      .sms = 58,  .threads_per_sm = 1536, .blocks_per_sm = 24,
     .manual = {256, 6}, .forall = {768, 2},  .wave = {256, 6}, .wave_blocks = 348},
    {.gpu = "RTX4090", .sms = 128, .threads_per_sm = 1536, .blocks_per_sm = 24,
     .manual = {256, 6}, .forall = {768, 2},  .wave = {256, 6}, .wave_blocks = 768},
    {.gpu = "H100",    .sms = 132, .threads_per_sm = 2048, .blocks_per_sm = 32,
     .manual = {256, 8}, .forall = {1024, 2}, .wave = {256, 8}, .wave_blocks = 1056},
    {.gpu = "B200",    .sms = 148, .threads_per_sm = 2048, .blocks_per_sm = 32,
     .manual = {256, 8}, .forall = {1024, 2}, .wave = {256, 8}, .wave_blocks = 1184},
    {.gpu = "RTX5090", .sms = 170, .threads_per_sm = 1536, .blocks_per_sm = 24,
     .manual = {256, 6}, .forall = {768, 2},  .wave = {256, 6}, .wave_blocks = 1020},
};

/* Kernels heavy in registers: the register limit decides, the same on every GPU of the table
 * unless the SM holds fewer threads than the registers allow (36 registers: 1536 threads by
 * registers, more than a T4's 1024). The chooser keeps the block (up to 1024 for forall, 256 for
 * the streaming kernels) that keeps the most threads resident, the larger of equals. */
enum sm_size { SM_1024, SM_1536, SM_2048 }; /* threads per SM */
static const struct {
    int regs;
    choice forall[3], wave[3]; /* by enum sm_size */
} heavy[] = {
    /* 48 warps per SM by registers. 2048 and 1536 threads: 24 warps x 2 and 8 x 6 use all 48
     * (32 warps x 1 only 32); a T4 holds 32 warps: 1 x 1024, 4 x 256. Chunks of 1 register
     * would give 56 warps: 28 x 2 (896 threads) and 8 x 7 on a 2048-thread SM. */
    {.regs = 36,
     .forall = {[SM_1024] = {1024, 1}, [SM_1536] = {768, 2}, [SM_2048] = {768, 2}},
     .wave = {[SM_1024] = {256, 4}, [SM_1536] = {256, 6}, [SM_2048] = {256, 6}}},
    /* 32 warps: 1 x 1024 or 4 x 256 */
    {.regs = 64,
     .forall = {[SM_1024] = {1024, 1}, [SM_1536] = {1024, 1}, [SM_2048] = {1024, 1}},
     .wave = {[SM_1024] = {256, 4}, [SM_1536] = {256, 4}, [SM_2048] = {256, 4}}},
    /* 24 warps: one block of 24 (768 threads), or 3 x 8; 25 warps (800 threads) do not fit the
     * 6 per sub-partition. Warps counted over the whole SM (25) would give 800 x 1 and 160 x 5. */
    {.regs = 80,
     .forall = {[SM_1024] = {768, 1}, [SM_1536] = {768, 1}, [SM_2048] = {768, 1}},
     .wave = {[SM_1024] = {256, 3}, [SM_1536] = {256, 3}, [SM_2048] = {256, 3}}},
    /* 16 warps: 1 x 512 (1024 does not fit), 2 x 256 */
    {.regs = 128,
     .forall = {[SM_1024] = {512, 1}, [SM_1536] = {512, 1}, [SM_2048] = {512, 1}},
     .wave = {[SM_1024] = {256, 2}, [SM_1536] = {256, 2}, [SM_2048] = {256, 2}}},
    /* 8 warps: one block of 256 */
    {.regs = 255,
     .forall = {[SM_1024] = {256, 1}, [SM_1536] = {256, 1}, [SM_2048] = {256, 1}},
     .wave = {[SM_1024] = {256, 1}, [SM_1536] = {256, 1}, [SM_2048] = {256, 1}}},
};
/* clang-format on */

static int failures = 0;
#define EXPECT(cond, gpu)                                                                     \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            printf("  FAILED on %s: %s (line %d)\n", gpu, #cond, __LINE__);                   \
            ++failures;                                                                       \
        }                                                                                     \
    } while (0)

static kernel_resources regs(int n)
{
    kernel_resources k = {n, 0};
    return k;
}

/* A configuration against its expected choice: threads, blocks per SM, and the message. */
static void expect_choice(const char *gpu, const char *what, launch_config c, choice want)
{
    if (c.threads != want.threads || c.blocks_per_sm != want.per_sm) {
        printf("  FAILED on %s: %s chose %u threads x %d per SM, expected %u x %d\n", gpu, what,
               c.threads, c.blocks_per_sm, want.threads, want.per_sm);
        ++failures;
    }
}

static const expected_gpu *expected_for(const char *name)
{
    for (size_t i = 0; i < TUT_COUNT(expected); ++i)
        if (strcmp(expected[i].gpu, name) == 0)
            return &expected[i];
    return NULL;
}

/* The heavy table's column for an SM of this many threads; -1 for a size it has none of. */
static int sm_size_of(int threads_per_sm)
{
    switch (threads_per_sm) {
    case 1024: return SM_1024;
    case 1536: return SM_1536;
    case 2048: return SM_2048;
    default: return -1;
    }
}

static void check_gpu(const tut_device_info *dev, const expected_gpu *want)
{
    const char *gpu = dev->name;
    const size_t wave_n = (size_t)1 << 28, above_2g = 2147483659u, largest = (size_t)1 << 36;

    /* 0. The limits the row was worked out from. */
    EXPECT(dev->sm_count == want->sms && dev->max_threads_per_sm == want->threads_per_sm &&
               dev->max_blocks_per_sm == want->blocks_per_sm && dev->regs_per_sm == 65536 &&
               dev->regs_per_block == 65536 && dev->warp_size == 32,
           gpu);

    /* 1. The document's manual launch: 256 threads, covering n exactly. */
    const launch_config manual = manual_config(dev, regs(REGS_F64), 100000);
    expect_choice(gpu, "manual f64", manual, want->manual);
    EXPECT(manual.blocks == 391, gpu); /* 100000 / 256 = 390.6 */

    /* 2. forall: the block that keeps the most threads resident, covering n. */
    const launch_config forall = forall_config(dev, regs(REGS_F64), 100000);
    expect_choice(gpu, "forall f64", forall, want->forall);
    EXPECT(forall.blocks * forall.threads >= 100000 &&
               (forall.blocks - 1) * forall.threads < 100000, gpu);

    /* 3. The streaming kernels: one wave of 256-thread blocks, every SM full. */
    const kernel_resources streaming[] = {regs(REGS_F32), regs(REGS_GRID_STRIDE),
                                          regs(REGS_FLOAT4)};
    for (int s = 0; s < 3; ++s) {
        const launch_config c = one_wave_config(dev, streaming[s], wave_n);
        expect_choice(gpu, "one wave (streaming)", c, want->wave);
        EXPECT(c.blocks == (size_t)want->wave_blocks, gpu);
        /* Less work than a wave: just enough blocks, never zero. */
        EXPECT(one_wave_config(dev, streaming[s], 1000).blocks == 4, gpu);
        EXPECT(one_wave_config(dev, streaming[s], 1).blocks == 1, gpu);
    }
    /* The float4 kernel's wave is sized by its float4s (and tail), not its floats. */
    EXPECT(float4_items(wave_n) == wave_n / 4 && float4_items(5) == 2 && float4_items(3) == 3,
           gpu);
    EXPECT(one_wave_config(dev, regs(REGS_FLOAT4), float4_items(1000)).blocks == 1, gpu);

    /* 4. One thread per element stays within gridDim.x (2^31 - 1) up to --n's limit, 2^36. */
    const launch_config big = one_per_thread_config(dev, regs(REGS_F32), above_2g);
    EXPECT(big.blocks * big.threads >= above_2g && big.blocks <= 0x7fffffffu, gpu);
    EXPECT(one_per_thread_config(dev, regs(REGS_F32), largest).blocks <= 0x7fffffffu, gpu);

    /* 5. Kernels heavy in registers: the register limit decides. */
    const int column = sm_size_of(want->threads_per_sm);
    EXPECT(column >= 0, gpu);
    for (size_t h = 0; column >= 0 && h < TUT_COUNT(heavy); ++h) {
        char what[64];
        const launch_config f = forall_config(dev, regs(heavy[h].regs), 100000);
        const launch_config w = one_wave_config(dev, regs(heavy[h].regs), wave_n);
        snprintf(what, sizeof what, "forall, %d registers", heavy[h].regs);
        expect_choice(gpu, what, f, heavy[h].forall[column]);
        snprintf(what, sizeof what, "one wave, %d registers", heavy[h].regs);
        expect_choice(gpu, what, w, heavy[h].wave[column]);
        EXPECT(w.blocks == (size_t)want->sms * (size_t)heavy[h].wave[column].per_sm, gpu);
    }

    const launch_config wave = one_wave_config(dev, regs(REGS_FLOAT4), wave_n);
    printf("%-8s %4d %6d | %4u x %d/SM | %4u x %d/SM | %4u x %d/SM = %5zu blocks\n", gpu,
           dev->sm_count, dev->max_threads_per_sm, manual.threads, manual.blocks_per_sm,
           forall.threads, forall.blocks_per_sm, wave.threads, wave.blocks_per_sm, wave.blocks);
}

/* What vecadd chooses under TUT_EMULATE_GPU=<name> on an H100 is what it must choose on <name>
 * (for every GPU no bigger than the H100 in the limits these configurations read). */
static void check_emulation(const tut_device_info *profile, const expected_gpu *want)
{
    const tut_device_info *h100 = tut_gpu_profile("H100");
    if (profile->sm_count > h100->sm_count)
        return; /* a bigger GPU: the emulation keeps the H100's SM count */
    tut_device_info emulated = *h100;
    tut_apply_profile(&emulated, profile);
    expect_choice(profile->name, "forall f64, emulated on an H100",
                  forall_config(&emulated, regs(REGS_F64), 100000), want->forall);
    const launch_config c = one_wave_config(&emulated, regs(REGS_FLOAT4), (size_t)1 << 28);
    expect_choice(profile->name, "one wave, emulated on an H100", c, want->wave);
    EXPECT(c.blocks == (size_t)want->wave_blocks, profile->name);
}

/* The registers a block may have: a limit of its own (cudaDevAttrMaxRegistersPerBlock), which on
 * the table's GPUs never decides (see the rules above). Here an H100 whose blocks may have only
 * 32768 of the SM's 65536 registers, and a 64-register kernel (2048 per warp):
 *   a block: 32768 / 2048 = 16 warps at most (512 threads; 16 is a multiple of 4, so the
 *   hardware's rounding to 4 warps changes nothing); the SM: 32 warps, as in the heavy table.
 *   forall: 1024 threads (32 warps) no longer fits; 512 x 2 and 256 x 4 keep all 32 warps, the
 *   larger block wins: 512 x 2. Were the block allowed 65536, 1024 x 1 would win instead.
 *   one wave: 8 warps x 4 = 32 warps, as before: 256 x 4. */
static void check_block_register_limit(void)
{
    tut_device_info dev = *tut_gpu_profile("H100");
    dev.regs_per_block = 32768;
    const char *gpu = "H100 with 32768 registers per block";
    const choice forall = {512, 2}, wave = {256, 4};
    expect_choice(gpu, "forall, 64 registers", forall_config(&dev, regs(64), 100000), forall);
    expect_choice(gpu, "one wave, 64 registers", one_wave_config(&dev, regs(64), (size_t)1 << 28),
                  wave);
}

int main(void)
{
    printf("vecadd's launch configurations (registers per thread: f64 %d, float4 %d)\n",
           REGS_F64, REGS_FLOAT4);
    printf("%-8s %4s %6s | %-11s | %-11s | %s\n", "GPU", "SMs", "thr/SM", "manual f64",
           "forall f64", "streaming kernels: one wave at n = 2^28");
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        const tut_device_info *dev = tut_gpu_profile_at(i);
        const expected_gpu *want = expected_for(dev->name);
        if (!want) {
            printf("  FAILED: %s has no row worked out by hand in this test: add one\n",
                   dev->name);
            ++failures;
            continue;
        }
        check_gpu(dev, want);
        check_emulation(dev, want);
    }
    check_block_register_limit();
    return tut_finish(failures == 0);
}
