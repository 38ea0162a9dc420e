/* Variant 1, the faithful port of the document's mc_integrate: one random-number state per
 * sample, one sample per thread, f(x) stored in an array, the array reduced afterwards.
 *
 * The Numba original builds its xoroshiro128+ states on the host (create_xoroshiro128p_states)
 * and copies them over; cuRAND's device API builds them on the GPU with curand_init. Either
 * way the states are the expensive part: curand_init(seed, subsequence = i, 0) must jump state
 * i ahead by i * 2^67 draws, so every state is different and none overlaps another, and for
 * XORWOW that jump is a product of precomputed 160x160-bit matrices, one per set bit of i:
 * thousands of instructions and table reads per state, to draw a single number from it. */
#include <curand_kernel.h>

#include "tutorial.h"

#include "variants.h"

/* Blocks of MC_STATES_THREADS (mc_config.h), one sample per thread. */
static_assert(sizeof(curandState) == MC_CURAND_STATE_BYTES, "mc_config.h counts 48-byte states");

__global__ void states_setup_kernel(curandState *states, size_t n, unsigned long long seed)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        curand_init(seed, i, 0, &states[i]);
}

/* One sample per thread, as the document's mc_integrator_kernel. */
__global__ void states_sample_kernel(curandState *states, size_t n, mc_integrand integrand,
                                     float a, float width, float *values)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    curandState state = states[i]; /* into registers: 48 bytes read ... */
    const float u = curand_uniform(&state);
    values[i] = mc_eval(integrand, fmaf(width, u, a));
    states[i] = state; /* ... and written back, so the next call draws new numbers */
}

static unsigned blocks_for(size_t n)
{
    return (unsigned)((n + MC_STATES_THREADS - 1) / MC_STATES_THREADS);
}

void mc_states_create(mc_states_job *job, const mc_problem *p)
{
    job->p = *p;
    job->states = tut_device_alloc(tut_bytes(p->samples, sizeof(curandState), "curand states"),
                                   "curand states");
    job->values = (float *)tut_device_alloc(tut_bytes(p->samples, sizeof(float), "f values"),
                                            "f values");
    job->reduce_blocks = mc_reduce_values_blocks(); /* one full wave (mc_config.h) */
    job->partials = (double2 *)tut_device_alloc(job->reduce_blocks * sizeof(double2), "partials");
    job->result = (double2 *)tut_device_alloc(sizeof(double2), "result");
    /* Poison: NaN everywhere, so a value or state no thread wrote cannot pass unnoticed. */
    CUDA_CHECK(cudaMemset(job->values, 0xFF, p->samples * sizeof(float)));
    CUDA_CHECK(cudaMemset(job->result, 0xFF, sizeof(double2)));
}

void mc_states_setup(mc_states_job *job)
{
    states_setup_kernel<<<blocks_for(job->p.samples), MC_STATES_THREADS>>>(
        (curandState *)job->states, job->p.samples, job->p.seed);
    LAUNCH_CHECK();
}

void mc_states_sample(mc_states_job *job)
{
    const float a = (float)job->p.a, width = (float)(job->p.b - job->p.a);
    states_sample_kernel<<<blocks_for(job->p.samples), MC_STATES_THREADS>>>(
        (curandState *)job->states, job->p.samples, job->p.integrand, a, width, job->values);
    LAUNCH_CHECK();
    mc_reduce_values(job->values, job->p.samples, job->partials, job->reduce_blocks, job->result);
}

void mc_states_destroy(mc_states_job *job)
{
    tut_device_free(job->states);
    tut_device_free(job->values);
    tut_device_free(job->partials);
    tut_device_free(job->result);
}
