#include "plan.h"

#include <stdio.h>
#include <stdlib.h>

#include "chunks.h"
#include "occupancy.h"

unsigned chunk_kernel_threads(const tut_device_info *dev, int regs_per_thread,
                              size_t static_shared)
{
    const tut_kernel_use use = {.regs_per_thread = regs_per_thread,
                                .static_shared = static_shared};
    return (unsigned)tut_best_block_size(dev, use, CHUNK_KERNEL_MAX_THREADS);
}

pipeline_plan plan_pipeline(const tut_device_info *dev, size_t n)
{
    pipeline_plan plan;
    plan.copy_engines = dev->async_engines;
    const int copies_at_once = dev->async_engines < 2 ? dev->async_engines : 2;
    plan.stages_at_once = 1 + copies_at_once;
    plan.streams = plan.stages_at_once > 1 ? plan.stages_at_once + 1 : 1;
    plan.chunks = (size_t)FILL_DRAIN_CHUNKS_PER_STAGE * (size_t)(plan.stages_at_once - 1);
    if (plan.chunks < 1)
        plan.chunks = 1;
    if (plan.chunks > n)
        plan.chunks = n;
    if ((size_t)plan.streams > plan.chunks)
        plan.streams = (int)plan.chunks;
    return plan;
}

double pipeline_bound(double copy_in_ms, double kernel_ms, double copy_out_ms, int copy_engines)
{
    double bound = kernel_ms;
    if (copy_engines < 2) { /* one engine: the copies take turns */
        if (copy_in_ms + copy_out_ms > bound)
            bound = copy_in_ms + copy_out_ms;
        return bound;
    }
    if (copy_in_ms > bound)
        bound = copy_in_ms;
    if (copy_out_ms > bound)
        bound = copy_out_ms;
    return bound;
}

double fill_drain_ratio(int stages_at_once, size_t chunks)
{
    return 1.0 + (double)(stages_at_once - 1) / (double)(chunks ? chunks : 1);
}

static void add_entry(sweep_entry *out, int *count, size_t chunks, int streams)
{
    for (int i = 0; i < *count; ++i)
        if (out[i].chunks == chunks && out[i].streams == streams)
            return;
    if (*count >= SWEEP_MAX)
        return;
    sweep_entry *e = &out[(*count)++];
    e->chunks = chunks;
    e->streams = streams;
    e->skipped[0] = '\0';
}

/* For qsort: by chunks (the plan's own count may fall between two powers of two). */
static int by_chunks(const void *a, const void *b)
{
    const size_t x = ((const sweep_entry *)a)->chunks, y = ((const sweep_entry *)b)->chunks;
    return (x > y) - (x < y);
}

int chunk_sweep(const pipeline_plan *plan, size_t n, sweep_entry *out)
{
    int count = 0;
    for (size_t c = 1; c <= 64; c *= 2)
        add_entry(out, &count, c, c < (size_t)plan->streams ? (int)c : plan->streams);
    if (plan->chunks > 0)
        add_entry(out, &count, plan->chunks,
                  plan->chunks < (size_t)plan->streams ? (int)plan->chunks : plan->streams);
    qsort(out, (size_t)count, sizeof *out, by_chunks);
    for (int i = 0; i < count; ++i) {
        char why[200];
        if (pipeline_shape_check(n, out[i].chunks, (size_t)out[i].streams, why, sizeof why) != 0)
            snprintf(out[i].skipped, sizeof out[i].skipped, "skipped: %zu chunks of %zu elements "
                     "would leave some empty", out[i].chunks, n);
    }
    return count;
}

int stream_sweep(const pipeline_plan *plan, sweep_entry *out)
{
    static const int counts[] = {1, 2, 3, 4, 8, 16};
    int count = 0;
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; ++i) {
        if (counts[i] == plan->streams)
            continue;
        add_entry(out, &count, plan->chunks, counts[i]);
        if ((size_t)counts[i] > plan->chunks)
            snprintf(out[count - 1].skipped, sizeof out[count - 1].skipped,
                     "skipped: %d streams for %zu chunks would leave a stream without work",
                     counts[i], plan->chunks);
    }
    return count;
}
