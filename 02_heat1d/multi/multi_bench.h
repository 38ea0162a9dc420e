/* Weak and strong scaling of the rod across GPUs (multi_bench.cu), printed like NVIDIA's
 * multi-gpu-programming-models and the FZJ-JSC tutorial-multi-gpu print theirs: one-GPU time,
 * G-GPU time, speedup, efficiency, per variant. */
#ifndef HEAT1D_MULTI_BENCH_H
#define HEAT1D_MULTI_BENCH_H

#include <stddef.h>

#include "parts.h"

typedef struct {
    size_t largest;      /* the largest rod per GPU (weak); the strong rod is twice it */
    long long steps;     /* 0: from the size, about 2^33 point updates per GPU, 50 .. 2000 */
    int reps;            /* timed runs, median */
    double k;
    int threads;
    int max_gpus;        /* 1, 2, 4 up to this */
    const char *outdir;  /* scaling.csv, or NULL */
} heat_bench_args;

/* The chapter's one-GPU kernel (2_launch_per_step.cu, one launch per step) on GPU 0 from the
 * rod u: the result every variant must equal (into out, if not NULL) and the time to scale
 * against, in ms per step (median of reps runs after one more; reps 0: that one run). */
double heat_one_gpu_kernel(const double *u, size_t n, long long steps, double k, int reps,
                           double *out);

/* `steps` steps of variant v on the rod as it is, timed by the host clock between two moments
 * when every GPU is idle, so that the host's queueing of every call counts too (events could
 * time all GPUs, as multi_time in 06_streams/multi does, by making them wait on each other's
 * events): ms per step, median of reps runs (reps >= 1) after a warm-up. */
double heat_time_rod(heat_rod *r, heat_multi_variant v, long long steps, int reps);

/* How many of n points differ from b in any bit; the first such index in *first (n if none). */
size_t heat_bits_differ(const double *a, const double *b, size_t n, size_t *first);

/* Steps for a rod of `per_gpu` points per GPU (steps == 0), made even. */
long long heat_bench_steps(size_t per_gpu, long long steps);

/* The sweeps; 1 if every strong-scaling result equalled the one-GPU kernel's bit for bit. */
int heat_bench_scaling(const heat_bench_args *a);

#endif
