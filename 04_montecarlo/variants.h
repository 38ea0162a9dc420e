/* The three GPU variants behind one shape: create (allocate), run (issue the GPU work on stream
 * 0, leaving the two sums in device memory), read (copy them back), destroy. The driver
 * (montecarlo.cu) checks each against the exact integral and the CPU, then times `run`. */
#ifndef MC_VARIANTS_H
#define MC_VARIANTS_H

#include <cuda_runtime.h>
#include <curand.h>

#include "estimator.h"
#include "mc_config.h"
#include "streams.h"

/* ---- reduce.cu: the reductions the variants share */
/* values[0..n) -> per-block pairs (sum f, sum f^2) -> one pair in *out. */
void mc_reduce_values(const float *values, size_t n, double2 *partials, int blocks, double2 *out);
/* partials[0..count) -> one pair in *out (one block, a fixed order: repeatable). */
void mc_reduce_partials(const double2 *partials, int count, double2 *out);
/* The grid of reduce_values_kernel on this GPU: one full wave (mc_config.h). */
int mc_reduce_values_blocks(void);
/* Copies the pair back and labels it with the sample count. */
mc_sums mc_read_sums(const double2 *device_pair, unsigned long long n);

/* ---- 1_curand_states.cu: the faithful port. One XORWOW state per sample, one sample per
 * thread, f(x) written to an array, then reduced. */
typedef struct {
    mc_problem p;
    void *states; /* curandState[n], 48 bytes each */
    float *values;
    double2 *partials, *result;
    int reduce_blocks;
} mc_states_job;
void mc_states_create(mc_states_job *job, const mc_problem *p);
void mc_states_setup(mc_states_job *job);  /* curand_init for every state: the expensive part */
void mc_states_sample(mc_states_job *job); /* draw, evaluate, store, reduce */
void mc_states_destroy(mc_states_job *job);

/* ---- 2_curand_host_cub.cu: the library pipeline. cuRAND's host API (Philox) fills an array
 * of uniforms, CUB's TransformReduce maps them to (f, f^2) and sums; chunk by chunk, so n is
 * not bounded by memory and a small chunk can stay in L2. */
typedef struct {
    mc_problem p;
    curandGenerator_t generator;
    float *uniforms; /* one chunk */
    unsigned long long chunk, chunks;
    void *temp;
    size_t temp_bytes;
    double2 *chunk_sums, *result;
} mc_library_job;
void mc_library_create(mc_library_job *job, const mc_problem *p, unsigned long long chunk);
void mc_library_run(mc_library_job *job);
void mc_library_generate_only(mc_library_job *job); /* one chunk: the generator alone */
void mc_library_reduce_only(mc_library_job *job);   /* one chunk: the reduction alone */
void mc_library_destroy(mc_library_job *job);

/* ---- 3_fused_philox.cu: generate, evaluate and sum in registers; one pair per block. */
typedef struct {
    mc_problem p;
    mc_uniform uniform;
    mc_generator generator;
    int blocks;
    double2 *partials, *result;
    double2 *stream_sums; /* NULL, or one pair per stream (the self-test compares them) */
} mc_fused_job;
/* blocks_per_sm <= 0: as many as fit (mc_config.h); the grid never exceeds the streams.
 * keep_streams: also write every stream's pair to job->stream_sums (for mc_read_streams). */
void mc_fused_create(mc_fused_job *job, const mc_problem *p, mc_uniform uniform,
                     mc_generator generator, int blocks_per_sm, int keep_streams);
void mc_fused_run(mc_fused_job *job);
void mc_fused_destroy(mc_fused_job *job);
/* Each stream's (sum f, sum f^2) of the last run, into out[mc_stream_count(samples)]. */
void mc_read_streams(const mc_fused_job *job, mc_pair *out);
/* The fused kernel's launch on this GPU for `samples` (mc_config.h): packed's kernel, or the
 * other conversions'. */
mc_launch mc_fused_plan(mc_uniform uniform, int blocks_per_sm, unsigned long long samples);

/* ---- ceiling.cu: the generator's own ceilings, closer to what the fused kernel does. Philox
 * alone (its four words XORed together), and Philox + the bits conversion + the sum of the
 * uniforms in four float lanes; each thread draws `calls` Philox calls of its own stream, the
 * counter loop of the fused kernel without the integrand and the squares. */
typedef enum { MC_PHILOX_ONLY = 0, MC_PHILOX_UNIFORM_SUM, MC_PHILOX_CEILING_COUNT } mc_philox_work;
typedef struct {
    int blocks;           /* one full wave of MC_CEILING_THREADS */
    mc_philox_work work;
    unsigned calls;       /* Philox calls per thread: 4 samples each */
    unsigned long long seed;
    unsigned *sink;
} mc_philox_job;
void mc_philox_ceiling_create(mc_philox_job *job, mc_philox_work work, unsigned calls);
void mc_philox_ceiling_run(mc_philox_job *job);
double mc_philox_ceiling_samples(const mc_philox_job *job); /* uniforms one run draws */
void mc_philox_ceiling_destroy(mc_philox_job *job);

#endif
