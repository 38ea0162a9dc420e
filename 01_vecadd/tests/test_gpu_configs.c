/* CPU test: vecadd's launch configurations (launch_config.h) on every GPU of common/gpu_table.h.
 * No GPU needed. For each GPU it prints what vecadd would launch, and checks that each choice
 * fits and is the sensible one there: full occupancy, a grid that gives every SM the same full
 * load, no grid beyond gridDim.x's limit, and the same choice as emulating that GPU on an H100. */
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

static long resident_threads(const tut_device_info *dev, kernel_resources k, unsigned threads)
{
    return (long)resident_blocks(dev, k, threads) * (long)threads;
}

/* Brute force over every block size (a multiple of the warp size) up to max_threads: none keeps
 * more threads resident than `threads`, and none larger keeps as many. */
static int is_best_up_to(const tut_device_info *dev, kernel_resources k, unsigned threads,
                         unsigned max_threads)
{
    const long mine = resident_threads(dev, k, threads);
    if (mine <= 0 || threads % (unsigned)dev->warp_size != 0 || threads > max_threads)
        return 0;
    const unsigned warp = (unsigned)dev->warp_size;
    for (unsigned t = warp; t <= max_threads && t <= (unsigned)dev->max_threads_per_block;
         t += warp) {
        const long other = resident_threads(dev, k, t);
        if (other > mine || (other == mine && t > threads))
            return 0;
    }
    return 1;
}

/* A config that keeps every thread slot of every SM busy and fits the GPU. */
static int full_occupancy(const tut_device_info *dev, kernel_resources k, launch_config c)
{
    char why[160];
    tut_kernel_use use = {.threads = (int)c.threads, .regs_per_thread = k.regs_per_thread};
    return tut_kernel_fits(dev, use, why, sizeof why) && c.blocks_per_sm > 0 &&
           c.blocks_per_sm * (int)c.threads == dev->max_threads_per_sm;
}

static void check_gpu(const tut_device_info *dev)
{
    const char *gpu = dev->name;
    const size_t wave_n = (size_t)1 << 28, above_2g = 2147483659u, largest = (size_t)1 << 36;

    /* 1. The document's manual launch: 256 threads, covering n exactly. */
    const launch_config manual = manual_config(dev, regs(REGS_F64), 100000);
    EXPECT(manual.threads == DOCUMENT_THREADS && manual.blocks == 391, gpu);
    EXPECT(full_occupancy(dev, regs(REGS_F64), manual), gpu);

    /* 2. forall: the calculator's best block, and it fills the SM: 1024 threads where an SM
     * holds a multiple of 1024, 768 on the 1536-thread SMs (two blocks; 1024 would leave 512
     * idle). */
    const launch_config forall = forall_config(dev, regs(REGS_F64), 100000);
    EXPECT(is_best_up_to(dev, regs(REGS_F64), forall.threads, 1024), gpu);
    EXPECT(full_occupancy(dev, regs(REGS_F64), forall), gpu);
    EXPECT(forall.threads == (dev->max_threads_per_sm % 1024 == 0 ? 1024u : 768u), gpu);
    EXPECT(forall.blocks * forall.threads >= 100000 &&
               (forall.blocks - 1) * forall.threads < 100000, gpu);

    /* 3. The streaming kernels: 256-thread blocks at full occupancy, on every GPU. */
    const kernel_resources streaming[] = {regs(REGS_F32), regs(REGS_GRID_STRIDE),
                                          regs(REGS_FLOAT4)};
    for (int s = 0; s < 3; ++s) {
        const launch_config c = one_wave_config(dev, streaming[s], wave_n);
        EXPECT(c.threads == STREAMING_MAX_THREADS, gpu);
        EXPECT(is_best_up_to(dev, streaming[s], c.threads, STREAMING_MAX_THREADS), gpu);
        EXPECT(full_occupancy(dev, streaming[s], c), gpu);
        /* One wave: every SM gets exactly as many blocks as it holds. */
        EXPECT(c.blocks == (size_t)dev->sm_count * (size_t)c.blocks_per_sm, gpu);
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

    /* 5. A kernel heavy in registers: the choice still fits and is the best there is. */
    const int heavy[] = {64, 128, 255};
    for (int h = 0; h < 3; ++h) {
        const launch_config f = forall_config(dev, regs(heavy[h]), 100000);
        const launch_config w = one_wave_config(dev, regs(heavy[h]), wave_n);
        EXPECT(is_best_up_to(dev, regs(heavy[h]), f.threads, 1024), gpu);
        EXPECT(is_best_up_to(dev, regs(heavy[h]), w.threads, STREAMING_MAX_THREADS), gpu);
        EXPECT(w.blocks == (size_t)dev->sm_count * (size_t)w.blocks_per_sm, gpu);
    }

    const launch_config wave = one_wave_config(dev, regs(REGS_FLOAT4), wave_n);
    printf("%-8s %4d %6d | %4u x %d/SM | %4u x %d/SM | %4u x %d/SM = %5zu blocks\n", gpu,
           dev->sm_count, dev->max_threads_per_sm, manual.threads, manual.blocks_per_sm,
           forall.threads, forall.blocks_per_sm, wave.threads, wave.blocks_per_sm, wave.blocks);
}

/* What vecadd chooses under TUT_EMULATE_GPU=<name> on an H100 is what it chooses on <name>
 * (for every GPU no bigger than the H100 in the limits these configurations read). */
static void check_emulation(const tut_device_info *profile)
{
    const tut_device_info *h100 = tut_gpu_profile("H100");
    if (profile->sm_count > h100->sm_count)
        return; /* a bigger GPU: the emulation keeps the H100's SM count */
    tut_device_info emulated = *h100;
    tut_apply_profile(&emulated, profile);
    const launch_config a = forall_config(&emulated, regs(REGS_F64), 100000);
    const launch_config b = forall_config(profile, regs(REGS_F64), 100000);
    EXPECT(a.threads == b.threads && a.blocks_per_sm == b.blocks_per_sm, profile->name);
    const launch_config c = one_wave_config(&emulated, regs(REGS_FLOAT4), (size_t)1 << 28);
    const launch_config d = one_wave_config(profile, regs(REGS_FLOAT4), (size_t)1 << 28);
    EXPECT(c.threads == d.threads && c.blocks == d.blocks, profile->name);
}

int main(void)
{
    printf("vecadd's launch configurations (registers per thread: f64 %d, float4 %d)\n",
           REGS_F64, REGS_FLOAT4);
    printf("%-8s %4s %6s | %-11s | %-11s | %s\n", "GPU", "SMs", "thr/SM", "manual f64",
           "forall f64", "streaming kernels: one wave at n = 2^28");
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        check_gpu(tut_gpu_profile_at(i));
        check_emulation(tut_gpu_profile_at(i));
    }
    return tut_finish(failures == 0);
}
