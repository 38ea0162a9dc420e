/* CPU tests of the limits in one place: the GPU table, emulation, the occupancy calculator and
 * what an architecture list holds code for. No GPU needed. */
#include <stdio.h>
#include <string.h>

#include "gpu_table.h"
#include "occupancy.h"
#include "tutorial.h"
#include "unit_test.h"


static tut_kernel_use use(int threads, int regs, size_t shared)
{
    tut_kernel_use u = {.threads = threads, .regs_per_thread = regs, .dynamic_shared = shared};
    return u;
}

/* Every profile is complete and self-consistent. */
static void test_table(void)
{
    EXPECT(tut_gpu_profile_count() >= 8);
    for (int i = 0; i < tut_gpu_profile_count(); i++) {
        const tut_device_info *p = tut_gpu_profile_at(i);
        printf("  %-8s cc %2d.%d  %3d SMs  %4d threads/SM  %2d blocks/SM  %6zu B shared/block\n",
               p->name, p->major, p->minor, p->sm_count, p->max_threads_per_sm,
               p->max_blocks_per_sm, p->shared_per_block_optin);
        EXPECT(p->sm_count > 0 && p->warp_size == 32 && p->max_threads_per_block == 1024);
        EXPECT(p->max_threads_per_sm >= 1024 && p->max_blocks_per_sm >= 16);
        EXPECT(p->shared_per_block == 48 * 1024);
        EXPECT(p->shared_per_block_optin >= 64 * 1024);
        EXPECT(p->shared_per_sm >= p->shared_per_block_optin + p->reserved_shared_per_block);
        EXPECT(p->l2_bytes > 0 && p->total_bytes > 0);
        EXPECT(tut_gpu_profile(p->name) == p);
    }
    EXPECT(tut_gpu_profile("t4") == tut_gpu_profile("T4"));
    EXPECT(tut_gpu_profile("RTX 4090") == tut_gpu_profile("rtx4090"));
    EXPECT(tut_gpu_profile("GTX480") == NULL);
    EXPECT(tut_gpu_profile_at(-1) == NULL && tut_gpu_profile_at(tut_gpu_profile_count()) == NULL);
}

/* Known answers of the occupancy calculator (worked by hand from the table's limits). */
static void test_occupancy(void)
{
    const tut_device_info *t4 = tut_gpu_profile("T4"), *h100 = tut_gpu_profile("H100");
    const tut_device_info *l4 = tut_gpu_profile("L4"), *a100 = tut_gpu_profile("A100");
    /* 256 threads, 32 registers, no shared memory: threads decide. */
    EXPECT(tut_blocks_per_sm(t4, use(256, 32, 0)) == 4);
    EXPECT(tut_blocks_per_sm(h100, use(256, 32, 0)) == 8);
    EXPECT(tut_blocks_per_sm(l4, use(256, 32, 0)) == 6);
    EXPECT(strcmp(tut_occupancy_limiter(h100, use(256, 32, 0)), "threads") == 0);
    /* 32-thread blocks: the block limit decides (16 on a T4, 24 on an L4, 32 on an H100). */
    EXPECT(tut_blocks_per_sm(t4, use(32, 16, 0)) == 16);
    EXPECT(tut_blocks_per_sm(l4, use(32, 16, 0)) == 24);
    EXPECT(tut_blocks_per_sm(h100, use(32, 16, 0)) == 32);
    /* Registers: 128 per thread x 256 threads = 32768 = half the file. */
    EXPECT(tut_blocks_per_sm(h100, use(256, 128, 0)) == 2);
    EXPECT(strcmp(tut_occupancy_limiter(h100, use(256, 128, 0)), "registers") == 0);
    /* 48 registers: 1536 per warp; each of the 4 schedulers' 16384 holds 10 warps: 40 warps,
     * 20 blocks of 64 threads (not 65536 / 1536 = 42 warps; measured against the runtime). */
    EXPECT(tut_blocks_per_sm(h100, use(64, 48, 0)) == 20);
    /* 255 registers round up to 256 per thread: 1024 threads need 262144 > 65536. */
    EXPECT(tut_blocks_per_sm(h100, use(1024, 255, 0)) == 0);
    /* Shared memory: 33 KiB blocks. A T4 SM (64 KiB) holds 1, an A100 4, an H100 6. */
    EXPECT(tut_blocks_per_sm(t4, use(256, 32, 33 * 1024)) == 1);
    EXPECT(tut_blocks_per_sm(a100, use(256, 32, 33 * 1024)) == 4);
    EXPECT(tut_blocks_per_sm(h100, use(256, 32, 33 * 1024)) == 6);
    /* The byte-pair histogram table of 66,564 bytes fits an H100 block, not a T4 block. */
    char why[160];
    EXPECT(tut_kernel_fits(h100, use(1024, 32, 66564), why, sizeof why));
    EXPECT(!tut_kernel_fits(t4, use(1024, 32, 66564), why, sizeof why));
    printf("  T4, 66564 bytes: %s\n", why);
    EXPECT(strstr(why, "66564") && strstr(why, "65536") && strstr(why, "T4"));
    EXPECT(tut_blocks_per_sm(t4, use(1024, 32, 66564)) == 0);
    /* The largest block an H100 allows, exactly, fits once; one byte more does not. */
    EXPECT(tut_blocks_per_sm(h100, use(128, 32, 227 * 1024)) == 1);
    EXPECT(tut_blocks_per_sm(h100, use(128, 32, 227 * 1024 + 1)) == 0);
    EXPECT(!tut_kernel_fits(h100, use(1025, 32, 0), why, sizeof why));
    EXPECT(!tut_kernel_fits(h100, use(0, 32, 0), why, sizeof why));
}

/* Emulation takes the smaller of each limit and labels the result. */
static void test_emulation(void)
{
    tut_device_info real = *tut_gpu_profile("H100");
    real.real_major = real.major;
    real.real_minor = real.minor;
    snprintf(real.name, sizeof real.name, "NVIDIA H100 80GB HBM3");
    tut_device_info d = real;
    tut_apply_profile(&d, tut_gpu_profile("T4"));
    EXPECT(d.major == 7 && d.minor == 5 && d.real_major == 9 && d.real_minor == 0);
    EXPECT(d.sm_count == 40 && d.max_threads_per_sm == 1024 && d.max_blocks_per_sm == 16);
    EXPECT(d.shared_per_block_optin == 64 * 1024 && d.shared_per_sm == 64 * 1024);
    EXPECT(d.reserved_shared_per_block == 0); /* a T4's accounting: its 64 KiB block fits */
    EXPECT(tut_blocks_per_sm(&d, use(256, 32, 64 * 1024)) == 1);
    EXPECT(strcmp(d.emulated, "T4") == 0 && strstr(d.name, "H100") && strstr(d.name, "T4"));
    EXPECT(!tut_device_has_cc(&d, 8, 0) && tut_device_has_cc(&d, 7, 5));
    /* A bigger GPU than the real one: never above what the real GPU has. */
    d = real;
    tut_apply_profile(&d, tut_gpu_profile("RTX5090"));
    EXPECT(d.sm_count == 132 && d.major == 9 && d.minor == 0);
    EXPECT(d.max_threads_per_sm == 1536 && d.shared_per_block_optin == 99 * 1024);
}

static void test_archs(void)
{
    const char *cuda13 = "75-real,80-real,90-real,100-real,120-real,120-virtual";
    EXPECT(tut_archs_code_for(cuda13, 7, 5) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for(cuda13, 8, 6) == TUT_CODE_NATIVE); /* sm_80 runs on 8.6 */
    EXPECT(tut_archs_code_for(cuda13, 8, 9) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for(cuda13, 9, 0) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for(cuda13, 10, 3) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for(cuda13, 12, 1) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for(cuda13, 11, 0) == TUT_CODE_NONE); /* 11.x < 12.0: PTX cannot */
    EXPECT(tut_archs_code_for(cuda13, 13, 0) == TUT_CODE_PTX);  /* a future GPU: PTX */
    EXPECT(tut_archs_code_for(cuda13, 7, 0) == TUT_CODE_NONE);
    EXPECT(tut_archs_min_cc(cuda13) == 75);
    const char *old = "75-virtual;90-real";
    EXPECT(tut_archs_code_for(old, 8, 0) == TUT_CODE_PTX);
    EXPECT(tut_archs_code_for(old, 9, 0) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for(old, 7, 5) == TUT_CODE_PTX);
    EXPECT(tut_archs_code_for("90", 9, 0) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for("90", 10, 0) == TUT_CODE_PTX);
    EXPECT(tut_archs_code_for("90-real", 10, 0) == TUT_CODE_NONE);
    EXPECT(tut_archs_code_for("90a-real", 9, 0) == TUT_CODE_NATIVE);
    EXPECT(tut_archs_code_for("90a", 10, 0) == TUT_CODE_NONE); /* arch-specific: 9.0 only */
    EXPECT(tut_archs_code_for("86-real", 8, 0) == TUT_CODE_NONE);
    EXPECT(tut_archs_code_for("native", 9, 0) == TUT_CODE_UNKNOWN);
    EXPECT(tut_archs_min_cc("native") == 0);
    EXPECT(tut_archs_min_cc("70-real;75-real;80-real;90-real;90-virtual") == 70);
    EXPECT(tut_archs_code_for("", 9, 0) == TUT_CODE_NONE);
    /* The build's own list covers the oldest GPU it claims. */
    const int min = tut_build_min_cc();
    printf("  this build: %s (oldest %d.%d)\n", tut_build_archs(), min / 10, min % 10);
    if (min > 0)
        EXPECT(tut_archs_code_for(tut_build_archs(), min / 10, min % 10) != TUT_CODE_NONE);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"table", test_table},
        {"occupancy", test_occupancy},
        {"emulation", test_emulation},
        {"archs", test_archs},
    };
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
