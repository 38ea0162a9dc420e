/* The fused estimate with a bare Philox counter. Thread-by-stream: a thread takes streams
 * grid-stride (streams.h: stream s is Philox subsequence s of the seed, MC_STREAM_SAMPLES
 * samples); its k-th Philox call encrypts the counter (k, 0, s mod 2^32, s / 2^32) under the key
 * (seed mod 2^32, seed / 2^32) and gives four uniforms. Each uniform goes into its own float
 * lane (four independent add chains), each stream's lanes go to a double, and the block sums its
 * threads' doubles. No memory traffic but one pair per block: the limit is the integer
 * multiplier, 10 multiply results per sample (docs/04_montecarlo.md, section 4). */
#include <curand_kernel.h>

#include "fused_counter.h"
#include "streams.h"
#include "tutorial.h"

#define FULL_WARP 0xffffffffu

static __device__ __forceinline__ void add_sample(float u, mc_integrand integrand, float a,
                                                  float width, float *sum, float *sum_sq)
{
    const float f = mc_eval(integrand, fmaf(width, u, a));
    *sum += f;
    *sum_sq = fmaf(f, f, *sum_sq);
}

/* Stream s: `len` samples, four float lanes, returned as (sum f, sum f^2) in double. The
 * integrand is a constant after inlining into one case of the kernel's switch. */
static __device__ __forceinline__ double2 counter_stream(unsigned long long seed,
                                                         unsigned long long s, unsigned len,
                                                         mc_integrand integrand, float a,
                                                         float width)
{
    const uint2 key = make_uint2((unsigned)seed, (unsigned)(seed >> 32));
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (unsigned k = 0; 4 * k < len; ++k) {
        const uint4 r = curand_Philox4x32_10(make_uint4(k, 0, (unsigned)s, (unsigned)(s >> 32)),
                                             key);
        const unsigned left = len - 4 * k; /* only the last stream of all can end early */
        add_sample(mc_uniform_bits(r.x), integrand, a, width, &sum[0], &sq[0]);
        if (left > 1)
            add_sample(mc_uniform_bits(r.y), integrand, a, width, &sum[1], &sq[1]);
        if (left > 2)
            add_sample(mc_uniform_bits(r.z), integrand, a, width, &sum[2], &sq[2]);
        if (left > 3)
            add_sample(mc_uniform_bits(r.w), integrand, a, width, &sum[3], &sq[3]);
    }
    return make_double2((double)((sum[0] + sum[1]) + (sum[2] + sum[3])),
                        (double)((sq[0] + sq[1]) + (sq[2] + sq[3])));
}

/* Thread 0 gets the block's total (warp shuffles, then one pair per warp in shared memory). */
static __device__ double2 block_total(double2 v)
{
    __shared__ double2 warp_totals[32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) {
        v.x += __shfl_down_sync(FULL_WARP, v.x, offset);
        v.y += __shfl_down_sync(FULL_WARP, v.y, offset);
    }
    if (lane == 0)
        warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (int)(blockDim.x / 32) ? warp_totals[lane] : make_double2(0.0, 0.0);
        for (int offset = 16; offset > 0; offset /= 2) {
            v.x += __shfl_down_sync(FULL_WARP, v.x, offset);
            v.y += __shfl_down_sync(FULL_WARP, v.y, offset);
        }
    }
    return v;
}

static __device__ __forceinline__ void counter_body(const mc_problem p, mc_integrand integrand,
                                                    double2 *partials)
{
    const float a = (float)p.a, width = (float)(p.b - p.a);
    const unsigned long long streams = mc_stream_count(p.samples);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    double2 acc = make_double2(0.0, 0.0);
    for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         s < streams; s += stride) {
        const double2 part = counter_stream(p.seed, s, mc_stream_length(p.samples, s),
                                            integrand, a, width);
        acc.x += part.x;
        acc.y += part.y;
    }
    acc = block_total(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

__global__ void __launch_bounds__(COUNTER_THREADS) counter_kernel(const mc_problem p,
                                                                  double2 *partials)
{
    switch (p.integrand) { /* one loop per integrand, no switch inside it */
    case MC_INV: counter_body(p, MC_INV, partials); break;
    case MC_SQUARE: counter_body(p, MC_SQUARE, partials); break;
    case MC_SIN: counter_body(p, MC_SIN, partials); break;
    case MC_CIRCLE: counter_body(p, MC_CIRCLE, partials); break;
    default: counter_body(p, MC_ONE, partials); break;
    }
}

int mc_counter_blocks(unsigned long long samples)
{
    static int wave = 0;
    if (wave == 0)
        wave = tut_full_wave_blocks((const void *)counter_kernel, "counter_kernel",
                                    COUNTER_THREADS, 0);
    const unsigned long long needed =
        (mc_stream_count(samples) + COUNTER_THREADS - 1) / COUNTER_THREADS;
    return needed < (unsigned long long)wave ? (int)needed : wave;
}

void mc_counter_estimate_gpu(const mc_problem *p, int blocks, double2 *partials)
{
    counter_kernel<<<blocks, COUNTER_THREADS>>>(*p, partials);
    LAUNCH_CHECK();
}
