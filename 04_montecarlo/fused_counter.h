/* A fused Monte Carlo kernel from scratch (exercise ex04.3): draw with a bare Philox counter,
 * evaluate f, add up in registers, one pair per block. The same streams as the chapter's fused
 * variant (streams.h) with the uniform from the raw bits (MC_UNIFORM_BITS), so the CPU replay
 * (philox_host.c) checks it. */
#ifndef MC_FUSED_COUNTER_H
#define MC_FUSED_COUNTER_H

#include <cuda_runtime.h>

#include "estimator.h"

#define COUNTER_THREADS 256

/* Blocks for p->samples: one full wave on this GPU, no more than the streams. */
int mc_counter_blocks(unsigned long long samples);

/* partials: `blocks` device pairs; block b writes the (sum f, sum f^2) of its streams to
 * partials[b]. Issued on stream 0 and checked. */
void mc_counter_estimate_gpu(const mc_problem *p, int blocks, double2 *partials);

#endif
