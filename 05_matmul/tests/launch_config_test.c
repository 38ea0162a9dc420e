/* The chapter's launch configurations on every GPU of gpu_table.h, without a GPU:
 *   1. every kernel fits each GPU (threads, registers, shared memory), or is one the driver skips
 *      there with a reason (pipelined_bk32 and the 128 x 256 tiles with a K strip of 32 on a T4
 *      or a V100, whose blocks have too little shared memory), with the registers the compiler
 *      reported
 *      for the code that GPU runs and with the most its __launch_bounds__ allow;
 *   2. step 10's tile choice (launch_pipelined) at every size the benchmark runs follows the
 *      rule: the largest tile that fits and whose waves keep 90% of its slots busy, else the
 *      64 x 128 configuration with the most blocks per SM; cp.async exactly from compute
 *      capability 8.0; on an H100 and a T4 the rule spelled out; and the swizzle of A;
 *   3. every benchmark size fits the GPU's memory, with room for padded copies;
 *   4. the tensor-core kernels: skipped below compute capability 8.0, fitting from there on;
 *   5. the wgmma kernels: run on compute capability 9.0 alone, one block per SM.
 * Prints a table per GPU. */
#include <stdio.h>
#include <string.h>

#include "gpu_table.h"
#include "launch_config.h"
#include "occupancy.h"
#include "compare.h"
#include "unit_test.h"


/* The cubins of the default build (cmake/Architectures.cmake, CUDA 13): sm_75, sm_80 (which
 * also runs on 8.6 and 8.9), sm_90, sm_100, sm_120. */
enum { SM75, SM80, SM90, SM100, SM120, CUBINS };
static const char *const cubin_names[CUBINS] = {"sm_75", "sm_80", "sm_90", "sm_100", "sm_120"};

/* Every kernel of the chapter: threads per block and static shared memory (from the sources;
 * the compiler reports the same), dynamic shared memory, registers per thread per cubin and the
 * most registers its __launch_bounds__ allow (255 without a bound). Registers are what ptxas
 * reported for this chapter's build (CUDA 13.0, -O3), i.e. `nvcc --resource-usage` on each
 * kernel file, the figures `cuobjdump --dump-resource-usage matmul_demo` prints, 2026-11-22
 * (the 128 x 256 rows with a K strip of 32: 2026-11-23).
 * For pipelined_*, the cp.async instantiation on sm_80 and later (the plain one for
 * pipelined_plain) and the plain one on sm_75; the two differ by at most 6 registers and both
 * stay under the cap (128, or 255 for the 128 x 256 tiles). */
typedef struct {
    const char *name;
    int threads;
    size_t static_shared, dynamic_shared;
    int regs[CUBINS];
    int cap;
} kernel_shape;

#define PL_SHARED(bm, bk, stages) PIPELINED_SHARED_BYTES(bm, 128, bk, stages)

static const kernel_shape kernels[] = {
    {"naive_strided", 256, 0, 0, {52, 32, 32, 32, 40}, 255},
    {"naive", 256, 0, 0, {52, 32, 32, 32, 40}, 255},
    {"kahan", 256, 0, 0, {51, 32, 32, 32, 40}, 255},
    {"row_shared", 256, 8192, 0, {64, 32, 40, 32, 36}, 255},
    {"tiled", 256, 2048, 0, {40, 32, 32, 40, 46}, 255},
    {"tiled_padded", 256, 2048, 0, {60, 32, 32, 40, 40}, 255},
    {"blocktile_1d", 512, 4096, 0, {68, 46, 50, 64, 49}, 128},
    {"blocktile_2d", 256, 8192, 0, {130, 130, 148, 128, 128}, 255},
    {"vectorized", 256, 8320, 0, {143, 143, 119, 125, 123}, 255},
    {"warptiled_bk8", 256, 16640, 0, {127, 127, 128, 128, 128}, 128},
    {"warptiled_bk16", 256, 33280, 0, {128, 128, 128, 128, 128}, 128},
    {"warptiled_w64x32_bk16", 256, 33280, 0, {128, 128, 128, 128, 128}, 128},
    {"warptiled_64x64_bk8", 128, 16640, 0, {216, 215, 227, 229, 229}, 255},
    {"warptiled_64x64_bk16", 128, 33280, 0, {239, 238, 241, 251, 251}, 255},
    {"warptiled_128x256", 256, 24832, 0, {214, 212, 219, 237, 231}, 255},
    {"pipelined_128x128", 256, PL_SHARED(128, 16, 2), 0, {128, 128, 122, 127, 127}, 128},
    {"pipelined_plain", 256, PL_SHARED(128, 16, 2), 0, {128, 128, 128, 122, 122}, 128},
    {"pipelined_128x128_s3", 256, PL_SHARED(128, 16, 3), 0, {128, 128, 122, 127, 127}, 128},
    {"pipelined_nofdb", 256, PL_SHARED(128, 16, 2), 0, {127, 127, 128, 128, 128}, 128},
    {"pipelined_rowmajor", 256, PL_SHARED(128, 16, 2), 0, {127, 127, 123, 127, 127}, 128},
    {"pipelined_amap", 256, PL_SHARED(128, 16, 2), 0, {128, 128, 122, 127, 127}, 128},
    {"pipelined_bk8", 256, PL_SHARED(128, 8, 4), 0, {127, 127, 128, 127, 127}, 128},
    {"pipelined_bk32", 256, 0, PL_SHARED(128, 32, 2), {128, 128, 128, 127, 127}, 128},
    {"pipelined_64x128", 128, PL_SHARED(64, 16, 3), 0, {126, 128, 122, 127, 127}, 128},
    {"pipelined_64x128_s2", 128, PL_SHARED(64, 16, 2), 0, {128, 128, 124, 128, 128}, 128},
    {"pipelined_128x256", 256, 0, PIPELINED_SHARED_BYTES(128, 256, 16, 2),
     {245, 247, 215, 217, 217}, 255},
    {"pipelined_128x256_bk8", 256, PIPELINED_SHARED_BYTES(128, 256, 8, 3), 0,
     {243, 243, 211, 223, 223}, 255},
    /* The ablations' 128 x 256 configuration, 16 x 8 results per thread, and the same without
     * the swizzle of A's columns. Step 10 now takes 8 x 16 (247-249 registers on sm_90): any
     * count from 129 to 255 gives the same one block of 256 threads per SM as these rows. */
    {"pipelined_128x256_bk32", 256, 0, PIPELINED_SHARED_BYTES(128, 256, 32, 2),
     {235, 235, 255, 255, 255}, 255},
    {"pipelined_128x256_noswizzle", 256, 0, PIPELINED_SHARED_BYTES(128, 256, 32, 2),
     {219, 218, 251, 251, 251}, 255},
};
#define KERNEL_COUNT ((int)(sizeof kernels / sizeof kernels[0]))

static const kernel_shape *kernel(const char *name)
{
    for (int i = 0; i < KERNEL_COUNT; ++i)
        if (strcmp(kernels[i].name, name) == 0)
            return &kernels[i];
    return NULL;
}

/* The cubin a GPU runs; -1 for the V100 (sm_70, in CUDA 12 builds only: not compiled here). */
static int cubin_of(const tut_device_info *gpu)
{
    switch (gpu->major) {
    case 7: return gpu->minor >= 5 ? SM75 : -1;
    case 8: return SM80;
    case 9: return SM90;
    case 10: return SM100;
    case 12: return SM120;
    default: return -1;
    }
}

static tut_kernel_use use_of(const kernel_shape *k, int regs)
{
    tut_kernel_use u = {.threads = k->threads,
                        .regs_per_thread = regs,
                        .static_shared = k->static_shared,
                        .dynamic_shared = k->dynamic_shared};
    return u;
}

/* The registers a kernel uses on this GPU: the compiler's figure, or the cap where unknown. */
static int regs_on(const tut_device_info *gpu, const kernel_shape *k)
{
    const int c = cubin_of(gpu);
    return c < 0 ? k->cap : k->regs[c];
}

/* 1. Every kernel fits, or is one with a K strip of 32 on a GPU whose blocks have too little shared
 * memory. */
static void check_kernels(const tut_device_info *gpu)
{
    int fewest = 1 << 30, skipped = 0;
    const char *fewest_name = "";
    for (int i = 0; i < KERNEL_COUNT; ++i) {
        const kernel_shape *k = &kernels[i];
        char why[200];
        const tut_kernel_use u = use_of(k, regs_on(gpu, k));
        const int fits = tut_kernel_fits(gpu, u, why, sizeof why);
        const int by_shared = k->static_shared + k->dynamic_shared <= gpu->shared_per_block_optin;
        EXPECT(fits == by_shared); /* shared memory is the only limit any kernel can miss */
        if (!fits) {
            const int bk32 = strcmp(k->name, "pipelined_bk32") == 0;
            EXPECT(bk32 || strncmp(k->name, "pipelined_128x256_", 18) == 0);
            printf("  %-22s skipped here: %s\n", k->name, why);
            EXPECT(strstr(why, bk32 ? "66560" : "99328") != NULL);
            ++skipped;
            continue;
        }
        const int per_sm = tut_blocks_per_sm(gpu, u);
        EXPECT(per_sm >= 1);
        /* The same with the most registers the compiler may use: still fits. */
        EXPECT(tut_blocks_per_sm(gpu, use_of(k, k->cap)) >= 1);
        if (per_sm < fewest) {
            fewest = per_sm;
            fewest_name = k->name;
        }
    }
    printf("  %s %d kernels fit; fewest blocks per SM: %d (%s)\n", skipped ? "the other" : "all",
           KERNEL_COUNT - skipped, fewest, fewest_name);
}

static tut_kernel_use pipelined_use(const tut_device_info *gpu, pipelined_tile t)
{
    static const char *names[PIPELINED_TILE_COUNT] = {
        [PIPELINED_128X256] = "pipelined_128x256_bk32",
        [PIPELINED_128X128] = "pipelined_128x128",
        [PIPELINED_64X128] = "pipelined_64x128",
        [PIPELINED_64X128_S2] = "pipelined_64x128_s2",
    };
    const kernel_shape *k = kernel(names[t]);
    return use_of(k, regs_on(gpu, k));
}

static long long grid_of(pipelined_tile t, int M, int N)
{
    const int r = pipelined_tile_rows(t), c = pipelined_tile_cols(t);
    return (long long)((M + r - 1) / r) * ((N + c - 1) / c);
}

/* 2. Step 10's choice at every size of the benchmark. */
static void check_pipelined(const tut_device_info *gpu)
{
    static const int sizes[][2] = {{256, 256},   {512, 512},   {1000, 1000}, {1024, 1024},
                                   {2048, 2048}, {3072, 3072}, {4096, 4096}, {6000, 4000},
                                   {6144, 6144}, {8192, 8192}};
    tut_kernel_use use[PIPELINED_TILE_COUNT];
    int per_sm[PIPELINED_TILE_COUNT];
    for (int t = 0; t < PIPELINED_TILE_COUNT; ++t) {
        use[t] = pipelined_use(gpu, (pipelined_tile)t);
        per_sm[t] = tut_blocks_per_sm(gpu, use[t]);
        /* Every configuration fits, but 128 x 256 where a block cannot have 99,328 bytes. */
        EXPECT(per_sm[t] >= 1 || (t == PIPELINED_128X256 && gpu->shared_per_block_optin < 99328));
        printf("  pipelined_%-9s %d blocks/SM (limited by %s)\n",
               pipelined_tile_name((pipelined_tile)t), per_sm[t],
               per_sm[t] ? tut_occupancy_limiter(gpu, use[t]) : "shared memory: does not fit");
    }
    const pipelined_tile small = per_sm[PIPELINED_64X128_S2] > per_sm[PIPELINED_64X128]
                                     ? PIPELINED_64X128_S2
                                     : PIPELINED_64X128;
    printf("  size        tile       blocks  waves  copy\n");
    for (int i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); ++i) {
        const int M = sizes[i][0], N = sizes[i][1];
        const pipelined_choice c = pipelined_choose(gpu, M, N, use);
        const long long resident = (long long)c.blocks_per_sm * gpu->sm_count;
        printf("  %4dx%-5d  %-9s  %6lld  %5.2f  %s\n", M, N, pipelined_tile_name(c.tile),
               c.blocks, (double)c.blocks / (double)resident,
               c.async_copy ? "cp.async" : "plain loads");
        EXPECT(c.blocks == grid_of(c.tile, M, N));
        EXPECT(c.blocks_per_sm == per_sm[c.tile]);
        EXPECT(c.async_copy == (gpu->major >= 8));
        /* A tile whose waves fill 90% of its slots, counted here in integers:
         * 10 blocks >= 9 waves x slots. */
        int fills[PIPELINED_TILE_COUNT];
        for (int t = 0; t < PIPELINED_TILE_COUNT; ++t) {
            const long long slots = (long long)per_sm[t] * gpu->sm_count;
            const long long g = grid_of((pipelined_tile)t, M, N);
            fills[t] = slots > 0 && 10 * g >= 9 * ((g + slots - 1) / slots) * slots;
        }
        if (c.tile == PIPELINED_128X256) {
            EXPECT(fills[PIPELINED_128X256]);
        } else if (c.tile == PIPELINED_128X128) {
            EXPECT(!fills[PIPELINED_128X256] && fills[PIPELINED_128X128]);
        } else {
            /* No larger tile fills its waves; the small one keeps the most blocks per SM. */
            EXPECT(c.tile == small);
            EXPECT(!fills[PIPELINED_128X256] && !fills[PIPELINED_128X128]);
        }
    }
}

/* The rule on an H100, spelled out: 128 x 256 (one block per SM) when its blocks fill at least
 * 90% of its waves of 132, else 128 x 128 (two per SM) when they fill 90% of waves of 264, else
 * 64 x 128 (four per SM). On a T4, 128 x 256 never fits. */
static void check_known_choices(void)
{
    const tut_device_info *h100 = tut_gpu_profile("H100");
    tut_kernel_use use[PIPELINED_TILE_COUNT];
    for (int t = 0; t < PIPELINED_TILE_COUNT; ++t)
        use[t] = pipelined_use(h100, (pipelined_tile)t);
    EXPECT(tut_blocks_per_sm(h100, use[PIPELINED_128X256]) == 1);
    EXPECT(tut_blocks_per_sm(h100, use[PIPELINED_128X128]) == 2);
    for (int n = 64; n <= 16384; n += 64) {
        const pipelined_choice c = pipelined_choose(h100, n, n, use);
        const double f256 = pipelined_wave_fill(grid_of(PIPELINED_128X256, n, n), 132);
        const double f128 = pipelined_wave_fill(grid_of(PIPELINED_128X128, n, n), 264);
        const pipelined_tile expected = f256 >= 0.9   ? PIPELINED_128X256
                                        : f128 >= 0.9 ? PIPELINED_128X128
                                                      : PIPELINED_64X128;
        EXPECT(c.tile == expected);
    }
    /* 2048^3: 128 blocks of 128 x 256 for 132 SMs (0.97 of one wave); 3072^3: 288 (0.73 of
     * three), 576 of 128 x 128 for 264 slots (0.73), so 64 x 128; 4096^3: 512 of 128 x 256
     * (0.97 of four); 1024^3: 32 of 128 x 256 (0.24): 64 x 128. */
    EXPECT(pipelined_choose(h100, 2048, 2048, use).tile == PIPELINED_128X256);
    EXPECT(pipelined_choose(h100, 3072, 3072, use).tile == PIPELINED_64X128);
    EXPECT(pipelined_choose(h100, 4096, 4096, use).tile == PIPELINED_128X256);
    EXPECT(pipelined_choose(h100, 1024, 1024, use).tile == PIPELINED_64X128);
    EXPECT(pipelined_wave_fill(288, 132) > 0.727 && pipelined_wave_fill(288, 132) < 0.728);
    EXPECT(pipelined_wave_fill(132, 132) == 1.0 && pipelined_wave_fill(0, 132) == 0.0);
    EXPECT(pipelined_wave_fill(9, 10) >= PIPELINED_WAVE_FILL); /* 90% exactly is enough */
    /* One 128 x 128 block per T4 SM (its 64 KiB of shared memory hold one block of 33,280
     * bytes), and no 128 x 256 one (99,328 bytes). */
    const tut_device_info *t4 = tut_gpu_profile("T4");
    EXPECT(tut_blocks_per_sm(t4, pipelined_use(t4, PIPELINED_128X256)) == 0);
    EXPECT(tut_blocks_per_sm(t4, pipelined_use(t4, PIPELINED_128X128)) == 1);
    EXPECT(strcmp(tut_occupancy_limiter(t4, pipelined_use(t4, PIPELINED_128X128)),
                  "shared memory") == 0);
    tut_kernel_use t4_use[PIPELINED_TILE_COUNT];
    for (int t = 0; t < PIPELINED_TILE_COUNT; ++t)
        t4_use[t] = pipelined_use(t4, (pipelined_tile)t);
    /* 1000^3 on a T4: 64 blocks of 128 x 128 for 40 slots fill 80% of two waves, 128 of 64 x 128
     * (two stages, two per SM) 80% of two waves of 80: 64 x 128. 4096^3: 1024 blocks of
     * 128 x 128, 26 waves, 98%; 8192^3 too (no 128 x 256). */
    EXPECT(pipelined_choose(t4, 1000, 1000, t4_use).tile == PIPELINED_64X128_S2);
    EXPECT(pipelined_choose(t4, 4096, 4096, t4_use).tile == PIPELINED_128X128);
    EXPECT(pipelined_choose(t4, 8192, 8192, t4_use).tile == PIPELINED_128X128);
    /* 512^3 on a T4: 16 blocks do not; 64 x 128 with 2 stages, 2 blocks per SM. */
    const pipelined_choice small = pipelined_choose(t4, 512, 512, t4_use);
    EXPECT(small.tile == PIPELINED_64X128_S2 && small.blocks_per_sm == 2 && !small.async_copy);
}

/* 4. The tensor-core kernels (steps 11-12): skipped below compute capability 8.0 (the driver says
 * "needs 8.0"), and from 8.0 on every one fits, the mma.sync kernel's 75,776 bytes of dynamic
 * shared memory included (the smallest opt-in of these GPUs is 99 KiB). Registers as reported
 * by the compiler (CUDA 13.0, nvcc --resource-usage); the sm_75 code is empty (never launched). */
static const kernel_shape tc_kernels[] = {
    {"wmma_tf32", WMMA_THREADS, WMMA_SHARED_BYTES, 0, {4, 144, 144, 128, 128}, 255},
    {"mma_tf32", MMA_THREADS, 0, MMA_SHARED_BYTES, {4, 212, 214, 206, 202}, 255},
    {"mma_3xtf32", MMA_THREADS, 0, MMA_SHARED_BYTES, {4, 255, 255, 255, 255}, 255},
};

static void check_tensor_cores(const tut_device_info *gpu)
{
    if (!matmul_tensor_cores(gpu)) {
        EXPECT(gpu->major < 8);
        printf("  tensor-core kernels skipped here: needs 8.0\n");
        return;
    }
    EXPECT(gpu->major >= 8);
    for (int i = 0; i < (int)(sizeof tc_kernels / sizeof tc_kernels[0]); ++i) {
        const kernel_shape *k = &tc_kernels[i];
        char why[200];
        EXPECT(tut_kernel_fits(gpu, use_of(k, regs_on(gpu, k)), why, sizeof why));
        EXPECT(tut_kernel_fits(gpu, use_of(k, k->cap), why, sizeof why));
        const int per_sm = tut_blocks_per_sm(gpu, use_of(k, regs_on(gpu, k)));
        EXPECT(per_sm >= 1);
        printf("  %-22s %d blocks/SM (limited by %s)\n", k->name, per_sm,
               tut_occupancy_limiter(gpu, use_of(k, regs_on(gpu, k))));
    }
}

/* 5. The wgmma kernel (step 13): runs on a real compute capability 9.0 GPU alone (sm_90a
 * code), one block per SM there (168 registers, as the compiler reports for sm_90a; 197,696 bytes
 * of shared memory); skipped on every other GPU, and on one that only emulates a 9.0. */
static void check_wgmma(const tut_device_info *profile)
{
    tut_device_info gpu = *profile; /* the profile as a real GPU of its kind */
    gpu.real_major = gpu.major;
    gpu.real_minor = gpu.minor;
    const int hopper = gpu.major == 9 && gpu.minor == 0;
    EXPECT(matmul_hopper(&gpu) == hopper);
    if (!hopper) {
        printf("  wgmma kernels skipped here: needs 9.0\n");
        return;
    }
    const tut_kernel_use use = {.threads = WGMMA_THREADS, .regs_per_thread = 168,
                                .static_shared = 0, .dynamic_shared = WGMMA_SHARED_BYTES};
    char why[200];
    EXPECT(tut_kernel_fits(&gpu, use, why, sizeof why));
    EXPECT(tut_blocks_per_sm(&gpu, use) == 1);
    printf("  %-22s %d block/SM (limited by %s)\n", "wgmma_tf32, 3xtf32",
           tut_blocks_per_sm(&gpu, use), tut_occupancy_limiter(&gpu, use));
    /* The split of K on this GPU's slots (step 13's launches ask tut_full_wave_blocks, the
     * same count; clusters of two: at most half of them, fewer where the GPCs hold fewer). The
     * split tests set their part counts (--k-parts) but tc.split_k_by_count, cut by the count
     * wherever 8 clusters fit; the other GPU tests run on the count (all.3x4099x1, one tile; and
     * all.1000x777x513, all.1x5000x130, tc.1x4097x1, tc.k65537, sampled_reference, documents). */
    const long long slots = (long long)tut_blocks_per_sm(&gpu, use) * gpu.sm_count;
    for (long long pairs = 8; pairs <= slots / 2; ++pairs)
        EXPECT(wgmma_k_splits(4, pairs, 256) > 1);              /* tc.split_k_by_count */
    EXPECT(wgmma_k_splits(1, slots, 129) > 1);                  /* all.3x4099x1 */
    printf("  %-22s tc.split_k_by_count in %d parts (%lld clusters), all.3x4099x1 in %d\n",
           "K cut into parts", wgmma_k_splits(4, slots / 2, 256), slots / 2,
           wgmma_k_splits(1, slots, 129));
    /* A B200 emulating this GPU (TUT_EMULATE_GPU): the limits say 9.0, the code cannot run. */
    gpu.real_major = 10;
    gpu.real_minor = 0;
    EXPECT(!matmul_hopper(&gpu));
}

/* Step 10's swizzle of A (pipelined_a_column) in its 128 x 256 configuration: 256 threads, K
 * strip 32, A tile rows of 128 + 4 floats; thread t stores the float4 at A row t / 8 + 32 l
 * (l = 0..3), columns 4 (t % 8) .. + 3, transposed. The most stores of one warp instruction that
 * fall on one bank (1: conflict-free). */
static int worst_store_conflict(int swizzle)
{
    int worst = 0;
    for (int warp = 0; warp < 8; ++warp)
        for (int l = 0; l < 4; ++l)
            for (int j = 0; j < 4; ++j) {
                int per_bank[32] = {0};
                for (int lane = 0; lane < 32; ++lane) {
                    const int t = 32 * warp + lane, r = t / 8 + 32 * l, k = 4 * (t % 8) + j;
                    const int m = swizzle ? pipelined_a_column(r, k, 32) : r;
                    const int bank = (k * (128 + 4) + m) % 32;
                    if (++per_bank[bank] > worst)
                        worst = per_bank[bank];
                }
            }
    return worst;
}

static void check_swizzle(void)
{
    /* Each row k: a permutation of the 128 columns that keeps float4s whole and moves a
     * thread's fragment float4s (16 floats apart, from a multiple of 4) together. */
    for (int k = 0; k < 32; ++k) {
        int seen[128] = {0};
        for (int m = 0; m < 128; ++m) {
            const int c = pipelined_a_column(m, k, 32);
            EXPECT(c >= 0 && c < 128);
            if (c >= 0 && c < 128)
                ++seen[c];
            EXPECT(c - m % 4 == pipelined_a_column(m - m % 4, k, 32)); /* float4s whole */
        }
        for (int c = 0; c < 128; ++c)
            EXPECT(seen[c] == 1);
        for (int m0 = 0; m0 < 128; m0 += 4)
            for (int g = 0; m0 + 16 * g < 128; ++g)
                EXPECT(pipelined_a_column(m0 + 16 * g, k, 32) ==
                       pipelined_a_column(m0, k, 32) + 16 * g);
    }
    /* Strips of 8 and 16 are stored as they are. */
    for (int m = 0; m < 128; ++m)
        EXPECT(pipelined_a_column(m, 13, 16) == m && pipelined_a_column(m, 7, 8) == m);
    /* Conflict-free with the swizzle; 4 stores per bank without it (the reason for it). */
    EXPECT(worst_store_conflict(1) == 1);
    EXPECT(worst_store_conflict(0) == 4);
    printf("step 10's swizzle of A: stores %d-way without it, %d-way with it\n",
           worst_store_conflict(0), worst_store_conflict(1));
}

/* Step 13's rule for cutting K into parts (wgmma_k_splits), over tiles (products one tile wide)
 * or pairs of tiles: the time of S parts in strips, ceil(S units / slots) rounds of
 * ceil(strips / S) + 8. */
static long long time_of(long long tiles, long long slots, long long strips, long long s)
{
    return (s * tiles + slots - 1) / slots * ((strips + s - 1) / s + WGMMA_SPLIT_COST_STRIPS);
}

/* Step 13's launch numbers where K is cut (wgmma_next_launch): 1, 2, ... up to the largest L
 * whose flag values 2 L and 2 L + 1 fit in 32 bits, then 1 again with the flags to clear. A
 * number that wrapped without the clear would find flags from earlier launches larger than its
 * own claim (2 L) and never zero C. */
static void check_launch_numbers(void)
{
    unsigned last = 0;
    int clear = -1;
    EXPECT(wgmma_next_launch(&last, &clear) == 1 && !clear && last == 1);
    EXPECT(wgmma_next_launch(&last, &clear) == 2 && !clear);
    EXPECT(2ull * WGMMA_LAST_LAUNCH + 1 == 0xffffffffull); /* 2 L + 1 fits, 2 (L + 1) would not */
    last = WGMMA_LAST_LAUNCH - 1;
    EXPECT(wgmma_next_launch(&last, &clear) == WGMMA_LAST_LAUNCH && !clear);
    EXPECT(wgmma_next_launch(&last, &clear) == 1 && clear && last == 1);
    EXPECT(wgmma_next_launch(&last, &clear) == 2 && !clear);
    last = 0xffffffffu; /* never reached; still a restart, not an overflow */
    EXPECT(wgmma_next_launch(&last, &clear) == 1 && clear);
}

static void check_k_splits(void)
{
    EXPECT(WGMMA_SPLIT_MIN_STRIPS == 4 && WGMMA_SPLIT_COST_STRIPS == 8);
    /* The shapes measured on an H200 (h200/tf32_split_k_shapes.csv, tf32_split_k_pairs_shapes.csv
     * and tf32_split_k_cost.csv): one tile wide, its 132 blocks alone; */
    EXPECT(wgmma_k_splits(66, 132, 128) == 2);    /* 16896 x 128 x 4096: half the SMs idle */
    EXPECT(wgmma_k_splits(33, 132, 32) == 4);     /* 8447 x 127 x 999: 132 parts of 8 strips */
    EXPECT(wgmma_k_splits(16, 132, 256) == 8);    /* 4096 x 128 x 8192: 128 parts of 32 */
    EXPECT(wgmma_k_splits(1, 132, 2048) == 128);  /* 256 x 128 x 65536: 128 parts of 16 */
    EXPECT(wgmma_k_splits(4, 132, 625) == 33);    /* 1000 x 64 x 20000 */
    EXPECT(wgmma_k_splits(133, 132, 128) == 4);   /* 34000 x 128 x 4096: 4 parts 3% past 2 */
    EXPECT(wgmma_k_splits(200, 132, 128) == 1);   /* 51200 x 128 x 4096: 3 parts were slower */
    /* in pairs, its 66 clusters of two. */
    EXPECT(wgmma_k_splits(4, 66, 2048) == 16);    /* 512 x 512 x 65536: 64 units */
    EXPECT(wgmma_k_splits(16, 66, 512) == 4);     /* 1024 x 1024 x 16384 */
    EXPECT(wgmma_k_splits(32, 66, 256) == 2);     /* 1024 x 2048 x 8192 */
    EXPECT(wgmma_k_splits(9, 66, 1024) == 7);     /* 768 x 768 x 32768 */
    EXPECT(wgmma_k_splits(81, 66, 256) == 4);     /* 2304 x 2304 x 8192: 81 pairs, past a wave */
    EXPECT(wgmma_k_splits(36, 66, 384) == 7);     /* 1536 x 1536 x 12288 */
    EXPECT(wgmma_k_splits(36, 66, 48) == 3);      /* 1536^3: 6% past whole pairs */
    EXPECT(wgmma_k_splits(4, 66, 16) == 4);       /* 512^3: 11% past 2 parts */
    EXPECT(wgmma_k_splits(9, 66, 24) == 6);       /* 768^3: 7% past 3 parts */
    EXPECT(wgmma_k_splits(144, 66, 94) == 2);     /* 3000^3: 1.6% past whole pairs */
    EXPECT(wgmma_k_splits(16, 66, 32) == 4);      /* 1000^3: 5 to 8 parts take 2 rounds */
    EXPECT(wgmma_k_splits(96, 66, 128) == 2);     /* 4096 x 1536 x 4096 */
    EXPECT(wgmma_k_splits(144, 66, 512) == 5);    /* 3072 x 3072 x 16384 */
    EXPECT(wgmma_k_splits(256, 66, 128) == 1);    /* 4096^3: 3.9 waves, no gain */
    EXPECT(wgmma_k_splits(1024, 66, 256) == 1);   /* 8192^3 */
    EXPECT(wgmma_k_splits(81, 66, 64) == 2);      /* 2049 x 2049 x 2048: 81 pairs, past a wave */
    /* The GPU tests' shapes (CMakeLists.txt): those that run on the count, then what the count
     * would pick for those that set theirs with --k-parts, and the limits. */
    EXPECT(wgmma_k_splits(1, 132, 129) == 26);    /* 3 x 1 x 4099, 1 x 1 x 4097: 25 of 5, 1 of 4 */
    EXPECT(wgmma_k_splits(12, 66, 25) == 5);      /* 1000 x 513 x 777 */
    EXPECT(wgmma_k_splits(1, 66, 157) == 32);     /* 1 x 130 x 5000 */
    EXPECT(wgmma_k_splits(1, 66, 2049) == 65);    /* 129 x 131 x 65537 (tc.k65537) */
    EXPECT(wgmma_k_splits(1, 132, 9) == 2);       /* 131 x 67 x 257 (sampled_reference) */
    EXPECT(wgmma_k_splits(2, 132, 9) == 2);       /* the same, 3xTF32's 128-row tiles */
    EXPECT(wgmma_k_splits(45, 132, 289) == 5);    /* 11519 x 68 x 9228: 225 units */
    EXPECT(wgmma_k_splits(45, 114, 289) == 5);    /* the same on 114 SMs (an H100 PCIe) */
    EXPECT(wgmma_k_splits(200, 132, 129) == 1);   /* 51193 x 100 x 4097: whole */
    EXPECT(wgmma_k_splits(3, 132, 19) == 4);      /* 513 x 65 x 600: 5, 5, 5, 4 */
    EXPECT(wgmma_k_splits(3, 132, 38) == 8);      /* 513 x 65 x 1200: 7 of 5, one of 3 */
    EXPECT(wgmma_k_splits(9, 66, 94) == 7);       /* 513 x 601 x 3001: 63 units */
    EXPECT(wgmma_k_splits(24, 66, 300) == 5);     /* 1000 x 1400 x 9583: 120 units */
    EXPECT(wgmma_k_splits(4, 66, 38) == 8);       /* 300 x 260 x 1200 */
    EXPECT(wgmma_k_splits(132, 132, 128) == 1);   /* a full wave: no gain */
    EXPECT(wgmma_k_splits(66, 132, 15) == 2);     /* parts of 8 and 7 */
    EXPECT(wgmma_k_splits(66, 132, 7) == 1);      /* parts under 4 strips */
    EXPECT(wgmma_k_splits(0, 132, 128) == 1 && wgmma_k_splits(66, 0, 128) == 1 &&
           wgmma_k_splits(66, 132, 0) == 1);
    /* Over a range of unit counts, GPU sizes and K: the parts are long enough and no more than
     * the slots; a cut promises a tenth off; no other S so allowed takes less time, nor a
     * smaller S as little; and whole units only where no S promises a tenth off. */
    const long long gpus[] = {1, 14, 27, 40, 58, 66, 78, 108, 114, 132, 144, 170, 200};
    for (int g = 0; g < (int)(sizeof gpus / sizeof gpus[0]); ++g)
        for (long long tiles = 1; tiles <= 300; tiles += 7)
            for (long long strips = 1; strips <= 600; strips += 37) {
                const long long slots = gpus[g];
                const long long s = wgmma_k_splits(tiles, slots, strips);
                const long long whole = time_of(tiles, slots, strips, 1);
                EXPECT(s >= 1 && s <= slots && (s == 1 || strips >= s * WGMMA_SPLIT_MIN_STRIPS));
                /* the kernel's parts: ceil(strips / S) each, the last what is left: never none */
                EXPECT((s - 1) * ((strips + s - 1) / s) < strips);
                EXPECT(s == 1 || 10 * time_of(tiles, slots, strips, s) <= 9 * whole);
                for (long long t = 2; s > 1 && t <= slots && strips >= t * WGMMA_SPLIT_MIN_STRIPS;
                     ++t) {
                    const long long tt = time_of(tiles, slots, strips, t);
                    EXPECT(time_of(tiles, slots, strips, s) <= tt);
                    EXPECT(t >= s || tt > time_of(tiles, slots, strips, s));
                }
                if (s == 1) { /* no allowed t promises a tenth off */
                    long long best = whole;
                    for (long long t = 2; t <= slots && strips >= t * WGMMA_SPLIT_MIN_STRIPS; ++t)
                        if (time_of(tiles, slots, strips, t) < best)
                            best = time_of(tiles, slots, strips, t);
                    EXPECT(10 * best > 9 * whole);
                }
            }
}

/* 3. The benchmark's largest problem (8192^3: 768 MiB) fits with room for padded copies. */
static void check_memory(const tut_device_info *gpu)
{
    const double bytes = 4.0 * 3.0 * 8192.0 * 8192.0;
    EXPECT(2.0 * bytes + 256.0 * 1024 * 1024 <= (double)gpu->total_bytes);
}

int main(void)
{
    /* The pipelined shared-memory formula against the compiler's figures. */
    EXPECT(PL_SHARED(128, 16, 2) == 33280 && PL_SHARED(128, 16, 3) == 41472);
    EXPECT(PL_SHARED(64, 16, 3) == 33280 && PL_SHARED(64, 16, 2) == 25088);
    EXPECT(PL_SHARED(128, 8, 4) == 24832 && PL_SHARED(128, 32, 2) == 66560);
    EXPECT(PIPELINED_SHARED_BYTES(128, 256, 32, 2) == 99328);
    /* The tensor-core kernels' shared memory against the compiler's figures. */
    EXPECT(WMMA_SHARED_BYTES == 35328 && MMA_SHARED_BYTES == 75776);
    EXPECT(WGMMA_SHARED_BYTES == 214592);
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        const tut_device_info *gpu = tut_gpu_profile_at(i);
        const int c = cubin_of(gpu);
        printf("\n%s (compute capability %d.%d, %d SMs, %zu KiB shared/SM, registers of %s)\n",
               gpu->name, gpu->major, gpu->minor, gpu->sm_count, gpu->shared_per_sm / 1024,
               c < 0 ? "the __launch_bounds__ caps" : cubin_names[c]);
        check_kernels(gpu);
        check_pipelined(gpu);
        check_tensor_cores(gpu);
        check_wgmma(gpu);
        check_memory(gpu);
    }
    check_known_choices();
    check_swizzle();
    check_k_splits();
    check_launch_numbers();
    printf("\n");
    return tut_finish(tut_test_failures() == 0);
}
