/* CPU test of chapter 07's launch choices (atomics_config.c) on every GPU of common/gpu_table.h,
 * and on an H100 emulating a T4 (TUT_EMULATE_GPU=T4, what the GPU tests *_as_t4 run): each
 * default and each sweep entry either fits or is skipped with its reason, and each choice is
 * the sensible one (the most resident blocks, a grid that fills every SM, the largest table
 * that fits). No GPU needed. Run one group: atomics_config_test waves|warp_private|byte_pairs|
 * tuning|cub_chunks|dot|race. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "atomics_config.h"
#include "tutorial.h"
#include "unit_test.h"


/* ---- what each kernel asks of an SM: registers per thread from `ptxas -v` (the same numbers as
 * `cuobjdump --dump-resource-usage`) for this chapter's sources, CUDA 13.0, Release, for each
 * architecture the default build holds native code for; static shared memory in bytes. A GPU
 * runs the cubin of its major version: 7.x sm_75 (a V100 runs sm_70 code in CUDA 12 builds, not
 * measured: sm_75's is used), 8.x sm_80, 9.0 sm_90, 10.0 sm_100, 12.0 sm_120. Where two kernels
 * share a launch configuration the larger numbers are given (dot_fast: fast_atomic and
 * fast_2pass; dot_doc: partial, mutex, atomic; race: the mutex per block). */
typedef struct {
    int arch;
    histogram_costs h;
    kernel_cost dot_doc, dot_fast, race;
} arch_costs;

static const arch_costs costs_by_arch[] = {
    /* clang-format off */
    {75, {.global = {10, 0}, .shared = {12, 512}, .warp_private = {33, 0},
          .thread_private = {35, 32768}, .thread_private_atomic = {58, 32768},
          .byte_pairs_wide = {33, 0}, .byte_pairs_narrow = {40, 0}, .read_ceiling = {38, 0}},
     .dot_doc = {16, 1024}, .dot_fast = {42, 104}, .race = {10, 0}},
    {80, {.global = {9, 0}, .shared = {12, 512}, .warp_private = {29, 0},
          .thread_private = {34, 32768}, .thread_private_atomic = {56, 32768},
          .byte_pairs_wide = {30, 0}, .byte_pairs_narrow = {32, 0}, .read_ceiling = {32, 0}},
     .dot_doc = {15, 1024}, .dot_fast = {32, 104}, .race = {14, 0}},
    {90, {.global = {11, 0}, .shared = {14, 512}, .warp_private = {29, 0},
          .thread_private = {36, 32768}, .thread_private_atomic = {40, 32768},
          .byte_pairs_wide = {32, 0}, .byte_pairs_narrow = {32, 0}, .read_ceiling = {32, 0}},
     .dot_doc = {16, 1024}, .dot_fast = {34, 104}, .race = {14, 0}},
    {100, {.global = {11, 0}, .shared = {20, 512}, .warp_private = {32, 0},
           .thread_private = {40, 32768}, .thread_private_atomic = {40, 32768},
           .byte_pairs_wide = {31, 0}, .byte_pairs_narrow = {32, 0}, .read_ceiling = {32, 0}},
     .dot_doc = {17, 1024}, .dot_fast = {46, 104}, .race = {14, 0}},
    {120, {.global = {12, 0}, .shared = {20, 512}, .warp_private = {36, 0},
           .thread_private = {40, 32768}, .thread_private_atomic = {46, 32768},
           .byte_pairs_wide = {32, 0}, .byte_pairs_narrow = {39, 0}, .read_ceiling = {34, 0}},
     .dot_doc = {20, 1024}, .dot_fast = {46, 104}, .race = {14, 0}},
    /* clang-format on */
};

static const arch_costs *costs_for(const tut_device_info *dev)
{
    const int want = dev->major <= 7 ? 75 : dev->major == 8 ? 80 : dev->major * 10;
    for (int i = 0; i < TUT_COUNT(costs_by_arch); ++i)
        if (costs_by_arch[i].arch == want)
            return &costs_by_arch[i];
    printf("  no register counts for compute capability %d.%d\n", dev->major, dev->minor);
    EXPECT(!"register counts for this compute capability");
    return &costs_by_arch[0];
}

/* ---- the GPUs: every profile, then an H100 with a T4's limits (what TUT_EMULATE_GPU=T4 makes
 * the GPU tests *_as_t4 choose on the H100s that run them). */
static tut_device_info h100_as_t4;

static int gpu_count(void)
{
    return tut_gpu_profile_count() + 1;
}

static const tut_device_info *gpu_at(int i)
{
    if (i < tut_gpu_profile_count())
        return tut_gpu_profile_at(i);
    h100_as_t4 = *tut_gpu_profile("H100");
    h100_as_t4.real_major = h100_as_t4.major;
    h100_as_t4.real_minor = h100_as_t4.minor;
    snprintf(h100_as_t4.name, sizeof h100_as_t4.name, "H100");
    tut_apply_profile(&h100_as_t4, tut_gpu_profile("T4"));
    snprintf(h100_as_t4.name, sizeof h100_as_t4.name, "H100asT4");
    return &h100_as_t4;
}

static tut_kernel_use use_of(kernel_cost k, int threads, size_t dynamic_shared)
{
    tut_kernel_use u = {.threads = threads,
                        .regs_per_thread = k.regs,
                        .static_shared = k.static_shared,
                        .dynamic_shared = dynamic_shared};
    return u;
}

/* A wave is the most resident blocks on every SM: per SM exactly what the calculator allows,
 * at least one. Returns blocks per SM. */
static int check_wave(const tut_device_info *dev, kernel_cost k, int threads, size_t shared)
{
    char why[192];
    const int blocks = atomics_wave_blocks(dev, k, threads, shared, why, sizeof why);
    const int per_sm = tut_blocks_per_sm(dev, use_of(k, threads, shared));
    EXPECT(per_sm >= 1);
    EXPECT(blocks == per_sm * dev->sm_count);
    return blocks / dev->sm_count;
}

static void test_waves(void)
{
    printf("  %-9s %4s | blocks per SM: %6s %6s %6s %6s %6s %6s\n", "GPU", "SMs", "global",
           "shared", "thread", "tp_atm", "ceil", "race");
    for (int i = 0; i < gpu_count(); ++i) {
        const tut_device_info *d = gpu_at(i);
        const arch_costs *c = costs_for(d);
        const int g = check_wave(d, c->h.global, SIMPLE_THREADS, 0);
        const int s = check_wave(d, c->h.shared, SIMPLE_THREADS, 0);
        const int t = check_wave(d, c->h.thread_private, THREAD_PRIVATE_THREADS, 0);
        const int ta = check_wave(d, c->h.thread_private_atomic, THREAD_PRIVATE_THREADS, 0);
        const int r = check_wave(d, c->h.read_ceiling, READ_CEILING_THREADS, 0);
        const int race = check_wave(d, c->race, d->max_threads_per_block, 0);
        /* The block sizes the tests ask of the simple kernels fit too. */
        check_wave(d, c->h.shared, 96, 0);
        check_wave(d, c->h.shared, 160, 0);
        check_wave(d, c->h.shared, 1024, 0);
        /* 128-thread blocks of a dozen registers: the threads of an SM decide. */
        EXPECT(s == d->max_threads_per_sm / SIMPLE_THREADS || s == d->max_blocks_per_sm);
        printf("  %-9s %4d | %20d %6d %6d %6d %6d %6d\n", d->name, d->sm_count, g, s, t, ta, r,
               race);
    }
    /* Known answers, by hand: an H100 holds 16 blocks of 128 threads (2048 threads), a T4 8;
     * the thread-private kernel's 32 KiB of counters: 6 per H100 SM (33 KiB with the reserve,
     * into 228), 2 per T4 SM (64 KiB), and so on the H100 with a T4's limits. */
    const tut_device_info *h100 = tut_gpu_profile("H100"), *t4 = tut_gpu_profile("T4");
    EXPECT(check_wave(h100, costs_for(h100)->h.shared, SIMPLE_THREADS, 0) == 16);
    EXPECT(check_wave(t4, costs_for(t4)->h.shared, SIMPLE_THREADS, 0) == 8);
    EXPECT(check_wave(h100, costs_for(h100)->h.thread_private, THREAD_PRIVATE_THREADS, 0) == 6);
    EXPECT(check_wave(t4, costs_for(t4)->h.thread_private, THREAD_PRIVATE_THREADS, 0) == 2);
    const tut_device_info *emulated = gpu_at(tut_gpu_profile_count());
    EXPECT(check_wave(emulated, costs_for(emulated)->h.thread_private, THREAD_PRIVATE_THREADS,
                      0) == 2);
    /* No block ever sees 2^31 bytes. */
    const size_t sizes[] = {0, 1, 5638519, (size_t)1 << 31, ((size_t)1 << 32) + 3,
                            (size_t)64 << 30};
    const int grids[] = {1, 7, 640, 16896};
    for (int i = 0; i < TUT_COUNT(sizes); ++i)
        for (int g = 0; g < TUT_COUNT(grids); ++g) {
            const int blocks = histogram_safe_blocks(sizes[i], grids[g]);
            EXPECT(blocks >= grids[g] && sizes[i] / (size_t)blocks < ((size_t)1 << 31));
            EXPECT(blocks == grids[g] || sizes[i] / (size_t)(blocks - 1) >= ((size_t)1 << 31));
        }
}

static void test_warp_private(void)
{
    printf("  %-9s %6s %8s %10s   (blocks per SM with 1, 2, 4, 8 copies)\n", "GPU", "copies",
           "blk/SM", "shared");
    for (int i = 0; i < gpu_count(); ++i) {
        const tut_device_info *d = gpu_at(i);
        const kernel_cost k = costs_for(d)->h.warp_private;
        const int copies = warp_private_default_copies(d, k);
        const int chosen = check_wave(d, k, WARP_PRIVATE_THREADS,
                                      warp_private_shared_bytes(copies));
        int per[4];
        for (int c = 1, j = 0; c <= 8; c *= 2, ++j) {
            per[j] = tut_blocks_per_sm(
                d, use_of(k, WARP_PRIVATE_THREADS, warp_private_shared_bytes(c)));
            /* Sensible: no default-eligible number of copies keeps more blocks resident, and
             * none larger keeps as many. */
            if (c <= WARP_PRIVATE_MAX_DEFAULT_COPIES) {
                EXPECT(per[j] <= chosen);
                if (c > copies)
                    EXPECT(per[j] < chosen);
            }
        }
        EXPECT(copies >= 1 && copies <= WARP_PRIVATE_MAX_DEFAULT_COPIES);
        printf("  %-9s %6d %8d %10zu   (%d, %d, %d, %d)\n", d->name, copies, chosen,
               warp_private_shared_bytes(copies), per[0], per[1], per[2], per[3]);
    }
    EXPECT(warp_private_shared_bytes(8) == 66048); /* the entry a T4 block cannot hold */
    EXPECT(warp_private_default_copies(tut_gpu_profile("H100"),
                                       costs_for(tut_gpu_profile("H100"))->h.warp_private) == 4);
    EXPECT(warp_private_default_copies(tut_gpu_profile("T4"),
                                       costs_for(tut_gpu_profile("T4"))->h.warp_private) == 2);
}

static void test_byte_pairs(void)
{
    /* The table's sizes, and the 16-bit table's bound: no counter can pass 65,535. */
    EXPECT(BYTE_PAIRS_WIDE_BYTES == 66564 && BYTE_PAIRS_NARROW_BYTES == 33284);
    EXPECT(2 * BYTE_PAIRS_NARROW_WORDS >= BYTE_PAIRS_COUNTERS);
    EXPECT((long)BYTE_PAIRS_THREADS * BYTE_PAIRS_NARROW_VECS * 8 <= 65535);
    const size_t sizes[] = {0,         1,          15,         16,
                            127,       4099,       12289,      1000003,
                            5638519,   (size_t)1 << 30, ((size_t)1 << 30) + 3,
                            ((size_t)1 << 32) + 3, (size_t)64 << 30};
    const int requests[] = {0, 1, 2, 7, 1 << 20};
    printf("  %-9s %6s %7s %7s %10s %10s %10s\n", "GPU", "table", "bytes", "blk/SM",
           "5.6 MB", "1 GiB", "4 GiB+3");
    for (int i = 0; i < gpu_count(); ++i) {
        const tut_device_info *d = gpu_at(i);
        const arch_costs *c = costs_for(d);
        const byte_pairs_config p = byte_pairs_choose(d, c->h.byte_pairs_wide,
                                                      c->h.byte_pairs_narrow);
        char why[192];
        const int wide_fits =
            tut_blocks_per_sm(d, use_of(c->h.byte_pairs_wide, BYTE_PAIRS_THREADS,
                                        BYTE_PAIRS_WIDE_BYTES)) > 0;
        /* The largest table that fits; and it does fit. */
        EXPECT(p.narrow == !wide_fits);
        EXPECT(p.blocks_per_sm >= 1);
        EXPECT(p.blocks_per_sm == check_wave(d, p.narrow ? c->h.byte_pairs_narrow
                                                         : c->h.byte_pairs_wide,
                                             BYTE_PAIRS_THREADS, p.table_bytes));
        EXPECT(p.narrow ? (strstr(p.note, "16-bit") && strstr(p.note, "66564") &&
                           strstr(p.note, "65536") != NULL)
                        : p.note[0] == '\0');
        /* The 16-bit table needs no opt-in anywhere. */
        EXPECT(BYTE_PAIRS_NARROW_BYTES + c->h.byte_pairs_narrow.static_shared <=
               d->shared_per_block);
        (void)why;
        for (int s = 0; s < TUT_COUNT(sizes); ++s)
            for (int r = 0; r < TUT_COUNT(requests); ++r) {
                const int blocks = byte_pairs_blocks(&p, d->sm_count, sizes[s], requests[r]);
                EXPECT(blocks >= 1 && blocks >= requests[r]);
                EXPECT(sizes[s] / (size_t)blocks < ((size_t)1 << 31));
                if (p.narrow)
                    EXPECT(byte_pairs_vecs_per_thread(sizes[s], blocks) <=
                           BYTE_PAIRS_NARROW_VECS);
                if (!p.narrow && requests[r] == 0 && sizes[s] >= ((size_t)1 << 30))
                    EXPECT(blocks == p.blocks_per_sm * d->sm_count); /* a large text: one wave */
            }
        printf("  %-9s %4d-bit %7zu %7d %10d %10d %10d\n", d->name, p.narrow ? 16 : 32,
               p.table_bytes, p.blocks_per_sm, byte_pairs_blocks(&p, d->sm_count, 5638519, 0),
               byte_pairs_blocks(&p, d->sm_count, (size_t)1 << 30, 0),
               byte_pairs_blocks(&p, d->sm_count, ((size_t)1 << 32) + 3, 0));
        if (p.narrow)
            printf("            %s\n", p.note);
    }
    /* A T4 block cannot hold the 32-bit table; an H100's, an A100's and an L4's can. */
    EXPECT(byte_pairs_choose(tut_gpu_profile("T4"), costs_for(tut_gpu_profile("T4"))->h.byte_pairs_wide,
                             costs_for(tut_gpu_profile("T4"))->h.byte_pairs_narrow).narrow == 1);
    const char *wide_gpus[] = {"A100", "L4", "RTX4090", "H100", "B200", "RTX5090"};
    for (int i = 0; i < TUT_COUNT(wide_gpus); ++i) {
        const tut_device_info *d = tut_gpu_profile(wide_gpus[i]);
        EXPECT(byte_pairs_choose(d, costs_for(d)->h.byte_pairs_wide,
                                 costs_for(d)->h.byte_pairs_narrow).narrow == 0);
    }
    /* The uniform_as_t4 test: 1,000,003 bytes of one letter asked of one block gets 9 blocks,
     * 14 loads per thread: 57,344 pairs of "ee" at most in one 16-bit counter. */
    const byte_pairs_config t4 = byte_pairs_choose(gpu_at(tut_gpu_profile_count()),
                                                   costs_by_arch[2].h.byte_pairs_wide,
                                                   costs_by_arch[2].h.byte_pairs_narrow);
    EXPECT(t4.narrow == 1 && byte_pairs_blocks(&t4, 40, 1000003, 1) == 9);
    EXPECT(byte_pairs_vecs_per_thread(1000003, 9) == 14);
}

static void test_tuning(void)
{
    tuning_entry plan[TUNING_MAX_ENTRIES];
    for (int i = 0; i < gpu_count(); ++i) {
        const tut_device_info *d = gpu_at(i);
        const arch_costs *c = costs_for(d);
        const int count = histogram_tuning_plan(d, &c->h, plan, TUNING_MAX_ENTRIES);
        EXPECT(count > 0 && count < TUNING_MAX_ENTRIES);
        int runs = 0, seen_copies = 0;
        printf("  %-9s", d->name);
        for (int e = 0; e < count; ++e) {
            const tuning_entry *p = &plan[e];
            kernel_cost k = c->h.warp_private;
            int threads = WARP_PRIVATE_THREADS;
            if (strcmp(p->variant, "thread_private") == 0) {
                k = c->h.thread_private;
                threads = THREAD_PRIVATE_THREADS;
            } else if (strcmp(p->variant, "thread_private_atomic") == 0) {
                k = c->h.thread_private_atomic;
                threads = THREAD_PRIVATE_THREADS;
            } else if (strcmp(p->variant, "byte_pairs") == 0) {
                k = p->narrow ? c->h.byte_pairs_narrow : c->h.byte_pairs_wide;
                threads = BYTE_PAIRS_THREADS;
            } else {
                EXPECT(strcmp(p->variant, "warp_private") == 0);
                EXPECT(p->shared == warp_private_shared_bytes(p->copies));
                if (p->blocks_per_sm <= 1 || p->skipped[0])
                    seen_copies |= p->copies;
            }
            const int resident = tut_blocks_per_sm(d, use_of(k, threads, p->shared));
            if (p->skipped[0]) {
                /* Skipped only what does not fit, with the sizes in the reason. */
                EXPECT(resident == 0 && p->blocks_per_sm == 0);
                EXPECT(strstr(p->skipped, "bytes") != NULL);
                printf("  [skip %s %d: %s]", p->variant, p->copies, p->skipped);
                continue;
            }
            ++runs;
            EXPECT(p->blocks_per_sm >= 1);
            /* Within one wave for warp_private, two for the others. */
            EXPECT(p->blocks_per_sm <=
                   (strcmp(p->variant, "warp_private") == 0 ? resident : 2 * resident));
        }
        EXPECT(seen_copies == (1 | 2 | 4 | 8)); /* every number of copies: timed or skipped */
        printf("  %d entries timed\n", runs);
    }
    /* A T4 skips warp_private with 8 copies: 66,048 bytes against its 65,536. */
    const tut_device_info *t4 = tut_gpu_profile("T4");
    const int count = histogram_tuning_plan(t4, &costs_for(t4)->h, plan, TUNING_MAX_ENTRIES);
    int skipped = 0;
    for (int e = 0; e < count; ++e)
        if (plan[e].skipped[0]) {
            ++skipped;
            EXPECT(plan[e].copies == 8 && strstr(plan[e].skipped, "66048") &&
                   strstr(plan[e].skipped, "65536"));
        }
    EXPECT(skipped == 1);
}

static void test_cub_chunks(void)
{
    const size_t sizes[] = {0,
                            1,
                            16384,
                            (size_t)INT_MAX,
                            (size_t)INT_MAX + 1,
                            (size_t)3 << 30,
                            ((size_t)1 << 32) + 3,
                            (size_t)64 << 30};
    for (int i = 0; i < TUT_COUNT(sizes); ++i) {
        size_t chunk = 0;
        const size_t chunks = histogram_cub_chunks(sizes[i], &chunk);
        printf("  n = %12zu: %3zu call(s) of %zu bytes\n", sizes[i], chunks, chunk);
        EXPECT(chunk <= (size_t)INT_MAX);
        EXPECT(sizes[i] <= (size_t)INT_MAX ? chunks == (sizes[i] > 0) : chunks > 1);
        /* The chunks cover the text exactly: all but the last full, the last not empty. */
        if (chunks > 0) {
            EXPECT((chunks - 1) * chunk < sizes[i] && sizes[i] <= chunks * chunk);
        }
    }
}

static void test_dot(void)
{
    printf("  %-9s %8s %8s %8s  sweep (blocks per SM)\n", "GPU", "doc", "fast/SM", "fast");
    for (int i = 0; i < gpu_count(); ++i) {
        const tut_device_info *d = gpu_at(i);
        const arch_costs *c = costs_for(d);
        const dot_config cfg = dot_choose(d, c->dot_doc, c->dot_fast, DOT_DOC_BLOCKS);
        EXPECT(cfg.doc_blocks == DOT_DOC_BLOCKS);
        EXPECT(cfg.fast_per_sm == check_wave(d, c->dot_fast, DOT_FAST_THREADS, 0));
        EXPECT(cfg.fast_blocks == cfg.fast_per_sm * d->sm_count);
        check_wave(d, c->dot_doc, DOT_DOC_THREADS, 0);
        EXPECT(cfg.nsweep >= 2 && cfg.sweep[0] == 1);
        int has_wave = 0, has_two = 0;
        printf("  %-9s %8d %8d %8d ", d->name, cfg.doc_blocks, cfg.fast_per_sm, cfg.fast_blocks);
        for (int k = 0; k < cfg.nsweep; ++k) {
            printf(" %d", cfg.sweep[k]);
            EXPECT(k == 0 || cfg.sweep[k] > cfg.sweep[k - 1]);
            EXPECT(cfg.sweep[k] <= 2 * cfg.fast_per_sm);
            has_wave |= cfg.sweep[k] == cfg.fast_per_sm;
            has_two |= cfg.sweep[k] == 2 * cfg.fast_per_sm;
        }
        printf("\n");
        EXPECT(has_wave && has_two);
        EXPECT(cfg.max_blocks >= cfg.doc_blocks &&
               cfg.max_blocks >= cfg.sweep[cfg.nsweep - 1] * d->sm_count);
    }
    /* A grid asked of the document's kernels is kept; their buffer grows with it. */
    const tut_device_info *h100 = tut_gpu_profile("H100");
    const dot_config big = dot_choose(h100, costs_for(h100)->dot_doc, costs_for(h100)->dot_fast,
                                      1 << 20);
    EXPECT(big.doc_blocks == 1 << 20 && big.max_blocks == 1 << 20);
}

static void test_race(void)
{
    for (int i = 0; i < gpu_count(); ++i) {
        const tut_device_info *d = gpu_at(i);
        race_grid grids[RACE_GRIDS];
        race_default_grids(d, grids);
        printf("  %-9s", d->name);
        for (int g = 0; g < RACE_GRIDS; ++g) {
            printf("  %d x %d", grids[g].blocks, grids[g].threads);
            char why[192];
            EXPECT(tut_kernel_fits(d, use_of(costs_for(d)->race, grids[g].threads, 0), why,
                                   sizeof why));
        }
        printf("\n");
        /* The document's two grids; one block per SM; the largest block the GPU allows. */
        EXPECT(grids[0].blocks == 1 && grids[0].threads == 1);
        EXPECT(grids[1].blocks == 10 && grids[1].threads == 16);
        EXPECT(grids[2].blocks == d->sm_count);
        EXPECT(grids[3].threads == d->max_threads_per_block);
    }
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"waves", test_waves},         {"warp_private", test_warp_private},
        {"byte_pairs", test_byte_pairs}, {"tuning", test_tuning},
        {"cub_chunks", test_cub_chunks}, {"dot", test_dot},
        {"race", test_race},
    };
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
