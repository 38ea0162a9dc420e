/* EXERCISE ex04.3 (the fused kernel with a bare Philox counter;
 * docs/04_montecarlo_exercises.md): write counter_stream() and counter_body() below; the rest is
 * complete. The grader is tests/grade_ex3_fused_counter.cu. Grade it (the loop:
 * docs/exercises.md):
 *     cmake --build build-exercises --target ex04.3
 *
 * The fused estimate with a bare Philox counter. Thread-by-stream: a thread takes streams
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
    /* TODO (ex04.3) 1: the stream's samples, exactly as the CPU replay draws them
     * (mc_replay_stream in philox_host.c):
     *   - key = (seed mod 2^32, seed / 2^32) as a uint2; four float lanes sum[4], sq[4] = 0;
     *   - call k = 0, 1, ... while 4 k < len: r = curand_Philox4x32_10(counter, key) with the
     *     counter (k, 0, s mod 2^32, s / 2^32) as a uint4;
     *   - its four words r.x .. r.w go to lanes 0 .. 3 through add_sample(mc_uniform_bits(word),
     *     ...), but only the first len - 4 k of them in the last call of a short stream;
     *   - return ((sum[0] + sum[1]) + (sum[2] + sum[3]), the same for sq), each as a double.
     * Why four float lanes, and why a double per stream rather than one float per thread? */
    (void)seed, (void)s, (void)len, (void)integrand, (void)a, (void)width;
    (void)add_sample;
    return make_double2(0.0, 0.0);
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
    /* TODO (ex04.3) 2: this thread takes streams s = its global index, then + the grid's size,
     * ... while s < mc_stream_count(p.samples); adds each stream's pair from
     * counter_stream(p.seed, s, mc_stream_length(p.samples, s), integrand, a, width), with
     * a = (float)p.a and width = (float)(p.b - p.a), into a double2; then the block's total
     * (block_total, every thread calls it) goes to partials[blockIdx.x] from thread 0. */
    (void)p, (void)integrand, (void)partials;
    (void)counter_stream;
    (void)block_total;
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
