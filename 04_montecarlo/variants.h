/* The three GPU variants behind one shape: create (allocate), run (issue the GPU work on stream
 * 0, leaving the two sums in device memory), read (copy them back), destroy. The driver
 * (montecarlo.cu) checks each against the exact integral and the CPU, then times `run`. */
#ifndef MC_VARIANTS_H
#define MC_VARIANTS_H

#include <cuda_runtime.h>
#include <curand.h>

#include "estimator.h"
#include "streams.h"

/* ---- reduce.cu: the reductions the variants share */
#define MC_REDUCE_THREADS 256
/* values[0..n) -> per-block pairs (sum f, sum f^2) -> one pair in *out. */
void mc_reduce_values(const float *values, size_t n, double2 *partials, int blocks, double2 *out);
/* partials[0..count) -> one pair in *out (one block, a fixed order: repeatable). */
void mc_reduce_partials(const double2 *partials, int count, double2 *out);
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
/* Device bytes the variant needs for n samples. */
size_t mc_states_bytes(unsigned long long n);

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
#define MC_FUSED_THREADS 256
typedef struct {
    mc_problem p;
    mc_uniform uniform;
    mc_generator generator;
    int blocks;
    double2 *partials, *result;
} mc_fused_job;
/* blocks_per_sm <= 0: as many as fit (occupancy API); the grid never exceeds the streams. */
void mc_fused_create(mc_fused_job *job, const mc_problem *p, mc_uniform uniform,
                     mc_generator generator, int blocks_per_sm);
void mc_fused_run(mc_fused_job *job);
void mc_fused_destroy(mc_fused_job *job);
/* Resident blocks of MC_FUSED_THREADS per SM, from the occupancy API. */
int mc_fused_max_blocks_per_sm(void);

#endif
