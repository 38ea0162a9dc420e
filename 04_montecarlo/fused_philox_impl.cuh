/* The machinery of variant 3 (3_fused_philox.cu): the uniforms, the float lanes, the
 * stateless counter loops, the two kernels (the packed conversion has its own) and their host
 * launcher. Included by exactly one file:
 * 3_fused_philox.cu, which then defines sample_stream() (the exercise asks you to write it;
 * exercise/3_fused_philox.cu includes this same file). */
#ifndef MONTECARLO_FUSED_PHILOX_IMPL_CUH
#define MONTECARLO_FUSED_PHILOX_IMPL_CUH

#include <curand_kernel.h>

#include "tutorial.h"

#include "block_reduce.cuh"
#include "variants.h"

/* The conversions of one word each (packed, five a call, has a kernel of its own). */
static __device__ __forceinline__ float4 to_uniform4(uint4 r, mc_uniform uniform)
{
    if (uniform == MC_UNIFORM_CURAND) /* what curand_uniform4 does */
        return make_float4(mc_uniform_curand(r.x), mc_uniform_curand(r.y),
                           mc_uniform_curand(r.z), mc_uniform_curand(r.w));
    if (uniform == MC_UNIFORM_SHIFTED) /* in [1, 2): the caller's offset is a - width */
        return make_float4(mc_uniform_shifted(r.x), mc_uniform_shifted(r.y),
                           mc_uniform_shifted(r.z), mc_uniform_shifted(r.w));
    return make_float4(mc_uniform_bits(r.x), mc_uniform_bits(r.y), mc_uniform_bits(r.z),
                       mc_uniform_bits(r.w));
}

/* The next four uniforms of a stream, through cuRAND's state API. */
static __device__ __forceinline__ float4 next_uniform4(curandStatePhilox4_32_10_t *state,
                                                       mc_uniform uniform)
{
    if (uniform == MC_UNIFORM_CURAND)
        return curand_uniform4(state);
    return to_uniform4(curand4(state), uniform);
}

/* Adds f(x) and f(x)^2 for one uniform u into one float lane. */
static __device__ __forceinline__ void add_sample(float u, mc_integrand integrand, float a,
                                                  float width, float *sum, float *sum_sq)
{
    const float f = mc_eval(integrand, fmaf(width, u, a));
    *sum += f;
    *sum_sq = fmaf(f, f, *sum_sq);
}

/* The first `count` (1..4) of four uniforms, each into its own float lane: four independent
 * add chains keep the pipelines busy, and the CPU replay adds in the same order. */
static __device__ __forceinline__ void add_samples(float4 u, unsigned count,
                                                   mc_integrand integrand, float a, float width,
                                                   float sum[4], float sq[4])
{
    add_sample(u.x, integrand, a, width, &sum[0], &sq[0]);
    if (count > 1)
        add_sample(u.y, integrand, a, width, &sum[1], &sq[1]);
    if (count > 2)
        add_sample(u.z, integrand, a, width, &sum[2], &sq[2]);
    if (count > 3)
        add_sample(u.w, integrand, a, width, &sum[3], &sq[3]);
}

static __device__ __forceinline__ double2 lanes_to_double(const float sum[4], const float sq[4])
{
    return make_double2((double)((sum[0] + sum[1]) + (sum[2] + sum[3])),
                        (double)((sq[0] + sq[1]) + (sq[2] + sq[3])));
}

/* Stream s of the seed through cuRAND's state API: defined by the file that includes this one. */
static __device__ __forceinline__ double2 sample_stream(unsigned long long seed,
                                                        unsigned long long s, unsigned len,
                                                        mc_integrand integrand,
                                                        mc_uniform uniform, float a, float width);


/* Philox4x32-10 written out, for the counter loop below: the same rounds as
 * curand_Philox4x32_10 (and philox_host.c), but the ten round keys come ready-made from the host
 * as a kernel parameter. Kernel parameters live in the constant bank, which a LOP3 reads
 * directly: the keys then take no registers, where cuRAND's function (key += W each round) makes
 * the compiler keep all twenty in registers of every thread. Fewer registers, more warps per SM
 * (appendix, "The ceilings, the profiler and the tuning"). */
#define MC_PHILOX_ROUNDS 10
typedef struct {
    unsigned lo[MC_PHILOX_ROUNDS], hi[MC_PHILOX_ROUNDS]; /* seed + r * (W0, W1) */
} mc_round_keys;

static mc_round_keys mc_round_keys_of(unsigned long long seed)
{
    mc_round_keys k;
    for (int r = 0; r < MC_PHILOX_ROUNDS; ++r) {
        k.lo[r] = (unsigned)seed + (unsigned)r * 0x9E3779B9u; /* PHILOX_W32_0, W32_1 */
        k.hi[r] = (unsigned)(seed >> 32) + (unsigned)r * 0xBB67AE85u;
    }
    return k;
}

static __device__ __forceinline__ uint4 philox_with_round_keys(uint4 c, const mc_round_keys &keys)
{
#pragma unroll
    for (int r = 0; r < MC_PHILOX_ROUNDS; ++r) {
        const unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
        const unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
        c = make_uint4(hi1 ^ c.y ^ keys.lo[r], lo1, hi0 ^ c.w ^ keys.hi[r], lo0);
    }
    return c;
}

/* The same stream without the state: call k is Philox of the counter (k, 0, s), built in place.
 * The state API carries a position within the current 4 outputs and a 128-bit increment with
 * carries, which this loop needs neither of (k < 256 within a stream). Same numbers, fewer
 * instructions: the benchmark measures how many fewer. */
static __device__ __forceinline__ double2 sample_stream_counter(const mc_round_keys &keys,
                                                                unsigned long long s,
                                                                unsigned len,
                                                                mc_integrand integrand,
                                                                mc_uniform uniform, float a,
                                                                float width)
{
    const unsigned s_lo = (unsigned)s, s_hi = (unsigned)(s >> 32);
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const unsigned calls = len / 4;
    /* Four calls per trip: their Philox chains are independent, so the scheduler can overlap
     * one call's multiplies with another's floating-point tail (measured: +5%, docs page). */
#pragma unroll 4
    for (unsigned k = 0; k < calls; ++k) {
        const uint4 r = philox_with_round_keys(make_uint4(k, 0, s_lo, s_hi), keys);
        add_samples(to_uniform4(r, uniform), 4, integrand, a, width, sum, sq);
    }
    if (len % 4 != 0) {
        const uint4 r = philox_with_round_keys(make_uint4(calls, 0, s_lo, s_hi), keys);
        add_samples(to_uniform4(r, uniform), len % 4, integrand, a, width, sum, sq);
    }
    return lanes_to_double(sum, sq);
}

/* The packed conversion (streams.h): five uniforms a call, in five float lanes; the first four
 * are the shifted ones. Counter generator only. The CPU replay adds in the same order. */
static __device__ __forceinline__ void add_packed(uint4 r, unsigned count, mc_integrand integrand,
                                                  float a, float width,
                                                  float sum[MC_PACKED_PER_CALL],
                                                  float sq[MC_PACKED_PER_CALL])
{
#pragma unroll
    for (unsigned lane = 0; lane < MC_PACKED_PER_CALL; ++lane)
        if (lane < count)
            add_sample(mc_packed_uniform(r.x, r.y, r.z, r.w, lane), integrand, a, width,
                       &sum[lane], &sq[lane]);
}

/* Stream s through the counter loop, five uniforms a call: len / 5 full calls, then one call of
 * which the first len % 5 count (every full stream: 1024 = 204 x 5 + 4). */
static __device__ __forceinline__ double2 sample_stream_packed(const mc_round_keys &keys,
                                                               unsigned long long s,
                                                               unsigned len,
                                                               mc_integrand integrand, float a,
                                                               float width)
{
    const unsigned s_lo = (unsigned)s, s_hi = (unsigned)(s >> 32);
    float sum[MC_PACKED_PER_CALL] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    float sq[MC_PACKED_PER_CALL] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    const unsigned calls = len / MC_PACKED_PER_CALL;
#pragma unroll 4
    for (unsigned k = 0; k < calls; ++k)
        add_packed(philox_with_round_keys(make_uint4(k, 0, s_lo, s_hi), keys), MC_PACKED_PER_CALL,
                   integrand, a, width, sum, sq);
    if (len % MC_PACKED_PER_CALL != 0)
        add_packed(philox_with_round_keys(make_uint4(calls, 0, s_lo, s_hi), keys),
                   len % MC_PACKED_PER_CALL, integrand, a, width, sum, sq);
    return make_double2((double)(((sum[0] + sum[1]) + (sum[2] + sum[3])) + sum[4]),
                        (double)(((sq[0] + sq[1]) + (sq[2] + sq[3])) + sq[4]));
}

/* The kernel body for one integrand and one uniform conversion, both compile-time constants
 * after inlining, so the hot loop carries no switch. Threads take streams grid-stride. When
 * stream_sums is not NULL (the self-test) each stream's pair is kept too: one store per 1024
 * samples. */
static __device__ __forceinline__ void fused_body(const mc_problem p, const mc_round_keys &keys,
                                                  mc_integrand integrand,
                                                  mc_uniform uniform, mc_generator generator,
                                                  double2 *partials, double2 *stream_sums)
{
    const float a = (float)p.a, width = (float)(p.b - p.a);
    /* x = offset + width u: the shifted conversion's u is 1 more, so its offset is 1 width less */
    const float offset = mc_sample_offset(uniform, a, width);
    const unsigned long long streams = mc_stream_count(p.samples);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    double2 acc = make_double2(0.0, 0.0);
    for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         s < streams; s += stride) {
        const unsigned len = mc_stream_length(p.samples, s);
        const double2 part =
            uniform == MC_UNIFORM_PACKED
                ? sample_stream_packed(keys, s, len, integrand, offset, width)
            : generator == MC_GENERATOR_COUNTER
                ? sample_stream_counter(keys, s, len, integrand, uniform, offset, width)
                : sample_stream(p.seed, s, len, integrand, uniform, offset, width);
        if (stream_sums)
            stream_sums[s] = part;
        acc.x += part.x;
        acc.y += part.y;
    }
    acc = mc_block_sum(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

/* C has no templates: a switch over constants, with the body inlined into each case, gives one
 * specialised loop per (integrand, uniform, generator). */
#define FUSED_FOR_GENERATOR(I, U)                                                              \
    if (generator == MC_GENERATOR_COUNTER)                                                     \
        fused_body(p, keys, I, U, MC_GENERATOR_COUNTER, partials, stream_sums);                \
    else                                                                                       \
        fused_body(p, keys, I, U, MC_GENERATOR_STATE, partials, stream_sums);
#define FUSED_CASE(I)                                                                          \
    case I:                                                                                    \
        if (uniform == MC_UNIFORM_BITS) {                                                      \
            FUSED_FOR_GENERATOR(I, MC_UNIFORM_BITS)                                            \
        } else if (uniform == MC_UNIFORM_SHIFTED) {                                            \
            FUSED_FOR_GENERATOR(I, MC_UNIFORM_SHIFTED)                                         \
        } else {                                                                               \
            FUSED_FOR_GENERATOR(I, MC_UNIFORM_CURAND)                                          \
        }                                                                                      \
        break;

__global__ void __launch_bounds__(MC_FUSED_THREADS)
    fused_philox_kernel(const mc_problem p, const __grid_constant__ mc_round_keys keys,
                        mc_uniform uniform, mc_generator generator,
                        double2 *partials, double2 *stream_sums)
{
    switch (p.integrand) {
        FUSED_CASE(MC_INV)
        FUSED_CASE(MC_SQUARE)
        FUSED_CASE(MC_SIN)
        FUSED_CASE(MC_CIRCLE)
        FUSED_CASE(MC_ONE)
    default: break;
    }
}

/* The packed conversion in a kernel of its own, with launch bounds of its own; the kernel above
 * keeps its registers (a kernel's count is its hungriest path's). Naming a minimum of blocks per
 * SM in the launch bounds changes how the compiler spends registers: with none it chose 52 for
 * this loop, with one 76-78, and the 52-register code ran slower at every grid on an H200; the
 * minimum of 3 also caps the count at 80, so 3 blocks of 256 fit an SM of every GPU of
 * common/gpu_table.h (appendix, "Five samples a Philox call"). The grid still comes from the
 * GPU's limits (mc_fused_plan). */
#define PACKED_CASE(I)                                                                         \
    case I:                                                                                    \
        fused_body(p, keys, I, MC_UNIFORM_PACKED, MC_GENERATOR_COUNTER, partials,              \
                   stream_sums);                                                               \
        break;

__global__ void __launch_bounds__(MC_FUSED_THREADS, 3)
    fused_packed_kernel(const mc_problem p, const __grid_constant__ mc_round_keys keys,
                        double2 *partials, double2 *stream_sums)
{
    switch (p.integrand) {
        PACKED_CASE(MC_INV)
        PACKED_CASE(MC_SQUARE)
        PACKED_CASE(MC_SIN)
        PACKED_CASE(MC_CIRCLE)
        PACKED_CASE(MC_ONE)
    default: break;
    }
}

mc_launch mc_fused_plan(mc_uniform uniform, int blocks_per_sm, unsigned long long samples)
{
    static tut_kernel_use use[2];
    static int ready[2] = {0, 0};
    const int packed = uniform == MC_UNIFORM_PACKED;
    if (!ready[packed]) {
        const void *kernel =
            packed ? (const void *)fused_packed_kernel : (const void *)fused_philox_kernel;
        use[packed] = tut_kernel_use_of(kernel, MC_FUSED_THREADS, 0);
        ready[packed] = 1;
    }
    return mc_fused_launch(tut_current_device(), use[packed].regs_per_thread,
                           use[packed].static_shared, blocks_per_sm, samples);
}

void mc_fused_create(mc_fused_job *job, const mc_problem *p, mc_uniform uniform,
                     mc_generator generator, int blocks_per_sm, int keep_streams)
{
    if (uniform == MC_UNIFORM_PACKED && generator != MC_GENERATOR_COUNTER) {
        fprintf(stderr, "fused kernel: the packed uniforms run on the counter generator only\n");
        exit(2);
    }
    job->p = *p;
    job->uniform = uniform;
    job->generator = generator;
    const mc_launch plan = mc_fused_plan(uniform, blocks_per_sm, p->samples);
    if (plan.blocks < 1) {
        fprintf(stderr, "fused kernel: %s\n", plan.why);
        exit(1);
    }
    job->blocks = (int)plan.blocks;
    job->partials = (double2 *)tut_device_alloc(job->blocks * sizeof(double2), "partials");
    job->result = (double2 *)tut_device_alloc(sizeof(double2), "result");
    CUDA_CHECK(cudaMemset(job->partials, 0xFF, job->blocks * sizeof(double2)));
    CUDA_CHECK(cudaMemset(job->result, 0xFF, sizeof(double2)));
    job->stream_sums = NULL;
    if (keep_streams) {
        const size_t bytes = tut_bytes(mc_stream_count(p->samples), sizeof(double2), "streams");
        job->stream_sums = (double2 *)tut_device_alloc(bytes, "stream sums");
        CUDA_CHECK(cudaMemset(job->stream_sums, 0xFF, bytes)); /* NaN: a stream nobody drew */
    }
}

void mc_read_streams(const mc_fused_job *job, mc_pair *out)
{
    const size_t bytes = mc_stream_count(job->p.samples) * sizeof(double2);
    CUDA_CHECK(cudaMemcpy(out, job->stream_sums, bytes, cudaMemcpyDeviceToHost));
}

void mc_fused_run(mc_fused_job *job)
{
    if (job->uniform == MC_UNIFORM_PACKED)
        fused_packed_kernel<<<job->blocks, MC_FUSED_THREADS>>>(
            job->p, mc_round_keys_of(job->p.seed), job->partials, job->stream_sums);
    else
        fused_philox_kernel<<<job->blocks, MC_FUSED_THREADS>>>(
            job->p, mc_round_keys_of(job->p.seed), job->uniform, job->generator, job->partials,
            job->stream_sums);
    LAUNCH_CHECK();
    mc_reduce_partials(job->partials, job->blocks, job->result);
}

void mc_fused_destroy(mc_fused_job *job)
{
    tut_device_free(job->partials);
    tut_device_free(job->result);
    if (job->stream_sums)
        tut_device_free(job->stream_sums);
}

#endif
