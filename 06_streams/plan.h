/* What the pipeline chooses on a GPU, from that GPU's limits (tut_device_info, common/device.h):
 * the per-chunk kernels' block size, how many streams and chunks, the bound, the sweeps.
 * Plain C: the host tests check every choice on every GPU of common/gpu_table.h, and
 * TUT_EMULATE_GPU=T4 makes streams_pipeline choose what it would on a T4.
 *
 *   pipeline_plan plan = plan_pipeline(tut_current_device(), n);   // plan.chunks, plan.streams */
#ifndef STREAMS_PLAN_H
#define STREAMS_PLAN_H

#include <stddef.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The per-chunk kernels' largest block. The kernels stream through memory (or spin on
 * registers): bigger blocks gain nothing, and 256 fills an SM of every GPU in the table. */
#define CHUNK_KERNEL_MAX_THREADS 256u

/* The block size, a multiple of the warp size up to CHUNK_KERNEL_MAX_THREADS, that keeps the
 * most threads of a kernel resident on an SM (the largest of equals); 0 if none fits. */
unsigned chunk_kernel_threads(const tut_device_info *dev, int regs_per_thread,
                              size_t static_shared);

/* Fill and drain: with C chunks and S stages that can run at once, a pipeline takes about
 * bound x (1 + (S - 1) / C) when its stages are equally long (the worst case). The plan takes
 * enough chunks to keep that within an eighth of the bound. */
#define FILL_DRAIN_CHUNKS_PER_STAGE 8

typedef struct {
    int copy_engines;   /* dev->async_engines */
    int stages_at_once; /* 3 with two copy engines (copy-in, kernel, copy-out); 2 with one */
    int streams;        /* stages_at_once + 1 (see plan_pipeline) */
    size_t chunks;      /* FILL_DRAIN_CHUNKS_PER_STAGE x (stages_at_once - 1), at most n */
} pipeline_plan;

/* The benchmark's pipeline for n elements on dev. One stream per stage that can run at once,
 * plus one: with as many streams as stages, chunk c + S waits in its stream for chunk c's
 * copy-out, which leaves the copy-in engine no slack; one more stream gives it a chunk of slack.
 * Copy engines: two move data both ways at once; one makes the copies take turns; more than
 * two add nothing here (one direction each). */
pipeline_plan plan_pipeline(const tut_device_info *dev, size_t n);

/* The fastest any pipeline of these stages can be: the slowest stage alone, or, with a single
 * copy engine, the two copies one after the other if that is longer than the kernel. */
double pipeline_bound(double copy_in_ms, double kernel_ms, double copy_out_ms, int copy_engines);

/* The fill-and-drain model: bound x (1 + (S - 1) / C) for S equal stages and C chunks. */
double fill_drain_ratio(int stages_at_once, size_t chunks);

/* One entry of a benchmark sweep; skipped[] is "" or why it does not run here. */
typedef struct {
    size_t chunks;
    int streams;
    char skipped[112];
} sweep_entry;

enum { SWEEP_MAX = 12 };

/* chunks 1, 2, 4, ..., 64 and the plan's own, each on min(chunks, plan streams) streams;
 * entries with more chunks than n elements are skipped. Returns the number of entries. */
int chunk_sweep(const pipeline_plan *plan, size_t n, sweep_entry *out);

/* 1, 2, 3, 4, 8 and 16 streams over the plan's chunks, except the plan's own stream count
 * (in the chunk sweep already); entries with more streams than chunks are skipped. */
int stream_sweep(const pipeline_plan *plan, sweep_entry *out);

#ifdef __cplusplus
}
#endif

#endif
