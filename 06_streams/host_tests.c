/* CPU tests, no GPU needed: the chunking arithmetic, the pipeline shape rules, the CPU
 * reference (the composed affine map against one round at a time), the pipeline's choices on
 * every GPU of common/gpu_table.h (plan.h), and the statistics of interleaved timing rounds
 * (rounds.h). Exit 0 pass, 1 fail. */
#include <stdio.h>
#include <string.h>

#include "chunks.h"
#include "plan.h"
#include "reference.h"
#include "rounds.h"
#include "schedule.h"
#include "tutorial.h"

/* Registers per thread from ptxas (nvcc --resource-usage, CUDA 13.0, -O3; what
 * `cuobjdump --dump-resource-usage build/06_streams/streams_pipeline` prints), sm_75 and
 * sm_90; the tests use the larger. Neither kernel has shared memory. */
enum {
    REGS_ADD = 12, /* add_kernel: 8 (sm_75), 12 (sm_90) */
    REGS_MIX = 12, /* add_mix_kernel: 9, 12 */
};

static int failures = 0;

#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                     \
            printf(__VA_ARGS__);                                                            \
            printf("\n");                                                                   \
            ++failures;                                                                     \
        }                                                                                   \
    } while (0)

/* Chunks tile [0, n) in order, none empty, sizes differ by at most one. */
static void check_tiling(size_t n, size_t k)
{
    size_t next = 0, smallest = (size_t)-1, largest = 0;
    for (size_t i = 0; i < k; ++i) {
        const chunk_range r = chunk_of(n, k, i);
        EXPECT(r.offset == next, "n %zu k %zu chunk %zu starts at %zu, not %zu", n, k, i,
               r.offset, next);
        EXPECT(r.count >= 1, "n %zu k %zu chunk %zu is empty", n, k, i);
        next = r.offset + r.count;
        smallest = r.count < smallest ? r.count : smallest;
        largest = r.count > largest ? r.count : largest;
    }
    EXPECT(next == n, "n %zu k %zu: chunks end at %zu", n, k, next);
    EXPECT(largest - smallest <= 1, "n %zu k %zu: sizes %zu..%zu", n, k, smallest, largest);
    EXPECT(chunk_of(n, k, 0).count == largest, "n %zu k %zu: chunk 0 is not the longest", n, k);
}

static void test_chunks(void)
{
    for (size_t n = 1; n <= 200; ++n)
        for (size_t k = 1; k <= n && k <= 40; ++k)
            check_tiling(n, k);
    check_tiling(20000000, 5);   /* the document */
    check_tiling(20000001, 5);   /* its 20000000 // 5 would drop the last element */
    check_tiling(1000003, 7);
    check_tiling(1000003, 128);
    check_tiling((size_t)1 << 40, 3); /* offsets past 2^32 */
    check_tiling(((size_t)1 << 40) + 12345, 1000);
    const chunk_range last = chunk_of(20000001, 5, 4);
    EXPECT(last.offset == 16000001 && last.count == 4000000, "20000001/5 last chunk %zu+%zu",
           last.offset, last.count);
}

static void test_shapes(void)
{
    char why[200];
    EXPECT(pipeline_shape_check(20000000, 5, 5, why, sizeof why) == 0, "5x5 refused");
    EXPECT(pipeline_shape_check(7, 7, 7, why, sizeof why) == 0, "7x7 on 7 refused");
    EXPECT(pipeline_shape_check(1, 1, 1, why, sizeof why) == 0, "n=1 refused");
    EXPECT(pipeline_shape_check(100, 16, 4, why, sizeof why) == 0, "16 chunks on 4 refused");
    EXPECT(pipeline_shape_check(100, 3, 5, why, sizeof why) != 0 && strstr(why, "more than"),
           "more streams than chunks accepted");
    EXPECT(pipeline_shape_check(5, 7, 7, why, sizeof why) != 0 && strstr(why, "empty"),
           "more chunks than elements accepted");
    /* each limit exactly: one chunk more than elements, one stream more than chunks */
    EXPECT(pipeline_shape_check(5, 6, 1, why, sizeof why) != 0 && strstr(why, "empty"),
           "6 chunks of 5 elements accepted");
    EXPECT(pipeline_shape_check(100, 3, 4, why, sizeof why) != 0 && strstr(why, "more than"),
           "4 streams for 3 chunks accepted");
    EXPECT(pipeline_shape_check(5, 5, 1, why, sizeof why) == 0, "5 chunks of 5 elements refused");
    EXPECT(pipeline_shape_check(1000, 1000, STREAMS_MAX_STREAMS + 1, why, sizeof why) != 0,
           "too many streams accepted");
    EXPECT(pipeline_shape_check(1000, 10, 0, why, sizeof why) != 0, "0 streams accepted");
    EXPECT(pipeline_shape_check(0, 1, 1, why, sizeof why) != 0, "n=0 accepted");
}

static void test_reference(void)
{
    const affine_map id = mix_power(0);
    EXPECT(id.mul == 1u && id.add == 0u, "mix^0 is not the identity");
    const affine_map one = mix_power(1);
    EXPECT(one.mul == MIX_MUL && one.add == MIX_ADD, "mix^1 is not mix");
    tut_rng rng;
    tut_rng_seed(&rng, TUT_DEFAULT_SEED);
    for (unsigned long long work = 0; work <= 600; work += (work < 40 ? 1 : 37)) {
        const affine_map m = mix_power(work);
        for (int t = 0; t < 20; ++t) {
            const uint32_t v = (uint32_t)tut_rng_next(&rng);
            const uint32_t slow = mix_brute_force(v, work);
            EXPECT(m.mul * v + m.add == slow, "work %llu v %u: %u, brute force %u", work, v,
                   m.mul * v + m.add, slow);
        }
    }
    /* Known values: the add alone, and one round on 0 + 0. */
    int32_t x[4], y[4], out[4];
    fill_inputs(x, y, 4, 0, 0);
    EXPECT(x[3] == 3 && y[3] == 6, "arange inputs x[3] %d y[3] %d", x[3], y[3]);
    reference_output(x, y, out, 4, 0);
    EXPECT(out[0] == 0 && out[3] == 9, "add: out %d %d", out[0], out[3]);
    reference_output(x, y, out, 1, 1);
    EXPECT(out[0] == (int32_t)MIX_ADD, "one round on 0: %d", out[0]);
    /* Random inputs stay in [-2^30, 2^30): their sum cannot overflow int32. */
    int32_t rx[1000], ry[1000];
    fill_inputs(rx, ry, 1000, 1, 42);
    int in_range = 1, distinct = 0;
    for (int i = 0; i < 1000; ++i) {
        in_range &= rx[i] >= -(1 << 30) && rx[i] < (1 << 30) && ry[i] >= -(1 << 30) &&
                    ry[i] < (1 << 30);
        distinct += i > 0 && rx[i] != rx[i - 1];
    }
    EXPECT(in_range, "random inputs out of range");
    EXPECT(distinct > 990, "random inputs look constant");
}


/* The plan on one GPU: a shape that fits and makes sense there. */
static void check_plan(const tut_device_info *dev)
{
    const char *gpu = dev->name;
    const size_t n = 20000000;
    const pipeline_plan plan = plan_pipeline(dev, n);
    char why[200];
    /* Two copy engines (every GPU in the table): copy-in, kernel and copy-out at once. */
    EXPECT(plan.copy_engines == dev->async_engines, "%s: engines", gpu);
    EXPECT(plan.stages_at_once == (dev->async_engines >= 2 ? 3 : dev->async_engines + 1),
           "%s: %d stages at once with %d engines", gpu, plan.stages_at_once, dev->async_engines);
    EXPECT(plan.streams == plan.stages_at_once + 1, "%s: %d streams", gpu, plan.streams);
    EXPECT(pipeline_shape_check(n, plan.chunks, (size_t)plan.streams, why, sizeof why) == 0,
           "%s: the plan's shape is refused: %s", gpu, why);
    EXPECT(fill_drain_ratio(plan.stages_at_once, plan.chunks) <= 1.125 + 1e-12,
           "%s: fill and drain %.3fx", gpu, fill_drain_ratio(plan.stages_at_once, plan.chunks));

    /* The kernels' blocks: 256 threads, every thread slot of the SM busy, and the best any
     * block size up to 256 gives. */
    const int regs[2] = {REGS_ADD, REGS_MIX};
    int per_sm[2];
    for (int k = 0; k < 2; ++k) {
        const unsigned t = chunk_kernel_threads(dev, regs[k], 0);
        tut_kernel_use use = {.threads = (int)t, .regs_per_thread = regs[k]};
        per_sm[k] = tut_blocks_per_sm(dev, use);
        EXPECT(t == 256 && per_sm[k] * (int)t == dev->max_threads_per_sm,
               "%s: kernel %d: %u threads x %d per SM", gpu, k, t, per_sm[k]);
        for (unsigned other = 32; other <= 256; other += 32) {
            tut_kernel_use u = {.threads = (int)other, .regs_per_thread = regs[k]};
            EXPECT(tut_blocks_per_sm(dev, u) * (long)other <= per_sm[k] * (long)t,
                   "%s: %u threads keep more resident than %u", gpu, other, t);
        }
    }
    /* A kernel heavy in registers gets a block that fits, the best up to 256. */
    const unsigned heavy = chunk_kernel_threads(dev, 128, 0);
    tut_kernel_use hu = {.threads = (int)heavy, .regs_per_thread = 128};
    EXPECT(heavy > 0 && tut_kernel_fits(dev, hu, why, sizeof why), "%s: 128 registers", gpu);

    /* The sweeps: every entry runs at 20M and at the small benchmark's 100003; the plan's
     * shape is in the chunk sweep; streams = min(chunks, plan's). */
    sweep_entry e[SWEEP_MAX];
    const size_t sizes[] = {n, 100003};
    for (int i = 0; i < 2; ++i) {
        const pipeline_plan pl = plan_pipeline(dev, sizes[i]);
        const int count = chunk_sweep(&pl, sizes[i], e);
        int has_plan = 0;
        for (int k = 0; k < count; ++k) {
            EXPECT(!e[k].skipped[0], "%s: chunk sweep %zu skipped at n %zu", gpu, e[k].chunks,
                   sizes[i]);
            EXPECT(e[k].streams == (e[k].chunks < (size_t)pl.streams ? (int)e[k].chunks
                                                                     : pl.streams),
                   "%s: %zu chunks on %d streams", gpu, e[k].chunks, e[k].streams);
            has_plan |= e[k].chunks == pl.chunks && e[k].streams == pl.streams;
        }
        EXPECT(count == 7 && has_plan, "%s: chunk sweep of %d without the plan", gpu, count);
        const int scount = stream_sweep(&pl, e);
        EXPECT(scount == 5, "%s: %d stream counts", gpu, scount);
        for (int k = 0; k < scount; ++k)
            EXPECT(!e[k].skipped[0] && e[k].chunks == pl.chunks && e[k].streams != pl.streams,
                   "%s: stream sweep entry %d", gpu, k);
    }
    printf("  %-8s %d copy engines -> %d stages at once: %2zu chunks x %d streams (fill and "
           "drain <= %.3fx) | add, mix kernels: 256 threads x %d blocks per SM\n", gpu,
           plan.copy_engines, plan.stages_at_once, plan.chunks, plan.streams,
           fill_drain_ratio(plan.stages_at_once, plan.chunks), per_sm[0]);
}

static void test_plan(void)
{
    for (int i = 0; i < tut_gpu_profile_count(); ++i)
        check_plan(tut_gpu_profile_at(i));

    /* Other copy-engine counts than the table's: one engine (copies take turns), none, three. */
    tut_device_info one = *tut_gpu_profile("T4");
    one.async_engines = 1;
    pipeline_plan p = plan_pipeline(&one, 20000000);
    EXPECT(p.stages_at_once == 2 && p.streams == 3 && p.chunks == 8,
           "one engine: %d stages, %d streams, %zu chunks", p.stages_at_once, p.streams, p.chunks);
    printf("  1 copy engine -> %d stages at once: %zu chunks x %d streams\n", p.stages_at_once,
           p.chunks, p.streams);
    one.async_engines = 0;
    p = plan_pipeline(&one, 20000000);
    EXPECT(p.stages_at_once == 1 && p.streams == 1 && p.chunks == 1, "no engine: %zu x %d",
           p.chunks, p.streams);
    one.async_engines = 3;
    p = plan_pipeline(&one, 20000000);
    EXPECT(p.stages_at_once == 3 && p.streams == 4 && p.chunks == 16, "three engines");

    /* Small n: the plan and the sweeps shrink to what n allows, with a reason. */
    p = plan_pipeline(tut_gpu_profile("H100"), 5);
    EXPECT(p.chunks == 5 && p.streams == 4, "n 5: %zu chunks x %d", p.chunks, p.streams);
    sweep_entry e[SWEEP_MAX];
    const int count = chunk_sweep(&p, 5, e);
    int skipped = 0;
    for (int k = 0; k < count; ++k)
        if (e[k].skipped[0]) {
            ++skipped;
            EXPECT(e[k].chunks > 5 && strstr(e[k].skipped, "empty"), "n 5: %s", e[k].skipped);
        }
    EXPECT(count == 8 && skipped == 4, "n 5: %d entries, %d skipped", count, skipped);
    p = plan_pipeline(tut_gpu_profile("H100"), 2);
    const int scount = stream_sweep(&p, e);
    EXPECT(p.chunks == 2 && p.streams == 2 && scount == 5 && !e[0].skipped[0] &&
               strstr(e[1].skipped, "without work"),
           "n 2: stream sweep of 1, 3, 4, 8, 16 streams over 2 chunks");

    /* The bound: the slowest stage; with one engine the copies add up. */
    EXPECT(pipeline_bound(2.9, 0.08, 1.45, 2) == 2.9, "bound, two engines");
    EXPECT(pipeline_bound(2.9, 0.08, 1.45, 1) == 2.9 + 1.45, "bound, one engine");
    EXPECT(pipeline_bound(1.0, 5.0, 1.0, 1) == 5.0, "bound, kernel-bound, one engine");
    EXPECT(pipeline_bound(1.0, 0.5, 3.0, 2) == 3.0, "bound, copy-out");

    /* Emulating a T4 on an H100 plans what a T4 does. */
    tut_device_info h100 = *tut_gpu_profile("H100");
    tut_apply_profile(&h100, tut_gpu_profile("T4"));
    const pipeline_plan a = plan_pipeline(&h100, 20000000);
    const pipeline_plan b = plan_pipeline(tut_gpu_profile("T4"), 20000000);
    EXPECT(a.chunks == b.chunks && a.streams == b.streams, "emulated T4");
    EXPECT(chunk_kernel_threads(&h100, REGS_ADD, 0) == chunk_kernel_threads(tut_gpu_profile("T4"),
                                                                            REGS_ADD, 0),
           "emulated T4 block");
}

static void test_rounds(void)
{
    /* Median, min, max; the halves are rounds 0, 2, 4, ... and 1, 3, 5, ... */
    const double three[] = {3.0, 1.0, 2.0};
    round_stats s = round_stats_of(three, 3);
    EXPECT(s.median == 2.0 && s.min == 1.0 && s.max == 3.0 && s.rounds == 3, "3 samples");
    EXPECT(s.halves_pct == 75.0, "halves of {3, 2} and {1}: %g%%", s.halves_pct); /* 1.5 / 2 */
    EXPECT(three[0] == 3.0 && three[1] == 1.0, "the samples were reordered");
    s = round_stats_of(three, 1);
    EXPECT(s.median == 3.0 && s.halves_pct == 100.0, "one round: nothing to compare");

    /* The case: one round at 1.67x among steady ones moves neither the median nor the
     * halves much; a configuration whose odd and even rounds differ (a drift that interleaving
     * would spread, or two states) is not stable. */
    double steady[12], biased[12];
    for (int r = 0; r < 12; ++r) {
        steady[r] = 3.30 + 0.01 * (r % 3);
        biased[r] = r % 2 ? 3.3 : 3.6; /* odd and even rounds disagree by 9% */
    }
    steady[5] = 3.30 * 1.67;
    round_stats stats[2] = {round_stats_of(steady, 12), round_stats_of(steady, 12)};
    EXPECT(stats[0].median < 3.33 && stats[0].max > 5.5 && stats[0].halves_pct < 1.0,
           "one outlier: %g, %g%%", stats[0].median, stats[0].halves_pct);
    round_stats unstable[2] = {stats[0], round_stats_of(biased, 12)};
    int worst = -1;
    EXPECT(!rounds_done(stats, 2, 4, 10, 40, 2.0, &worst), "stopped before the minimum");
    EXPECT(!rounds_done(unstable, 2, 12, 10, 40, 2.0, &worst) && worst == 1,
           "unstable accepted (worst %d)", worst);
    EXPECT(rounds_done(unstable, 2, 40, 10, 40, 2.0, &worst), "did not stop at the maximum");
    EXPECT(rounds_done(stats, 2, 12, 10, 40, 2.0, &worst), "stable refused");

    /* Each round's order is a permutation, seeded, and changes from round to round. */
    tut_rng rng;
    tut_rng_seed(&rng, 7);
    int order[30], seen[30], changed = 0, previous[30];
    for (int round = 0; round < 5; ++round) {
        shuffled_order(order, 30, &rng);
        memset(seen, 0, sizeof seen);
        for (int i = 0; i < 30; ++i)
            seen[order[i]]++;
        for (int i = 0; i < 30; ++i)
            EXPECT(seen[i] == 1, "round %d: %d appears %d times", round, i, seen[i]);
        if (round > 0)
            changed += memcmp(order, previous, sizeof order) != 0;
        memcpy(previous, order, sizeof order);
    }
    EXPECT(changed == 4, "the order repeated");
}

/* The shrinking schedule (schedule.h): tiles [0, n) in order, no chunk empty, none longer than
 * the one before (a buffer sized for chunk 0 holds every chunk), k > n and k == 0 refused. */
static void check_shrinking(size_t n, size_t k)
{
    chunk_range c[64];
    EXPECT(shrinking_schedule(n, k, c) == 0, "shrinking n %zu k %zu refused", n, k);
    size_t next = 0;
    for (size_t i = 0; i < k; ++i) {
        EXPECT(c[i].offset == next, "shrinking n %zu k %zu chunk %zu starts at %zu, not %zu", n,
               k, i, c[i].offset, next);
        EXPECT(c[i].count >= 1, "shrinking n %zu k %zu chunk %zu is empty", n, k, i);
        EXPECT(i == 0 || c[i].count <= c[i - 1].count, "shrinking n %zu k %zu chunk %zu (%zu) "
               "longer than chunk %zu (%zu)", n, k, i, c[i].count, i - 1, c[i ? i - 1 : 0].count);
        next = c[i].offset + c[i].count;
    }
    EXPECT(next == n, "shrinking n %zu k %zu: chunks end at %zu", n, k, next);
}

static void test_shrinking(void)
{
    for (size_t n = 1; n <= 300; ++n)
        for (size_t k = 1; k <= n && k <= 64; ++k)
            check_shrinking(n, k);
    const size_t big[] = {1000003, 999983, 4099, 20000000, 20000001};
    for (size_t b = 0; b < sizeof big / sizeof big[0]; ++b)
        for (size_t k = 1; k <= 64; ++k)
            check_shrinking(big[b], k);
    chunk_range c[64];
    EXPECT(shrinking_schedule(5, 6, c) == -1, "shrinking: 6 chunks of 5 elements accepted");
    EXPECT(shrinking_schedule(5, 0, c) == -1, "shrinking: 0 chunks accepted");
    /* 20M in 8: the first chunk holds about 16 times the last (the probe's pipe_shrinking_8x2) */
    EXPECT(shrinking_schedule(20000000, 8, c) == 0 && c[0].count > 15 * c[7].count &&
               c[0].count < 17 * c[7].count,
           "shrinking 20M x 8: first %zu last %zu", c[0].count, c[7].count);
}

int main(void)
{
    test_chunks();
    test_shrinking();
    test_shapes();
    test_reference();
    test_plan();
    test_rounds();
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
