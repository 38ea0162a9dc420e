/* The generator's own ceilings, measured in the same run as the fused kernel (bench.cu).
 *
 * The multiply ceiling comes from common/ceilings.h (INT_MUL_WIDE): chains of one IMAD.WIDE and
 * one LOP3 a step, the mix of a Philox round. But a Philox call is more than its 40 multiply
 * results (10 per sample): 2 three-input XORs per round, and the kernel then converts each word
 * to a float and adds it up. So two more ceilings, each the fused kernel's own counter loop
 * with less after the Philox call:
 *   philox_only_kernel         Philox alone, its four words XORed together (every word used, so
 *                              no multiply can be dropped);
 *   philox_uniform_sum_kernel  Philox + the cheapest conversion (streams.h, shifted) + a float
 *                              sum of the uniforms in four lanes: everything the fused kernel
 *                              does but the integrand and the sum of squares.
 * The fused kernel's ratio to each says where its time goes (its appendix: the tuning). */
#include <curand_kernel.h>

#include "tutorial.h"

#include "variants.h"

/* ---- The generator's own ceilings: the fused kernel's counter loop (fused_philox_impl.cuh),
 * with less after the Philox call. Thread t draws stream t: call k is Philox of (k, 0, t). */
static __device__ __forceinline__ uint4 stream_call(unsigned k, unsigned long long s, uint2 key)
{
    return curand_Philox4x32_10(make_uint4(k, 0, (unsigned)s, (unsigned)(s >> 32)), key);
}

__global__ void __launch_bounds__(MC_CEILING_THREADS)
    philox_only_kernel(unsigned calls, unsigned long long seed, unsigned *sink)
{
    const unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const uint2 key = make_uint2((unsigned)seed, (unsigned)(seed >> 32));
    unsigned all = 0;
#pragma unroll 4 /* as the fused kernel's loop */
    for (unsigned k = 0; k < calls; ++k) {
        const uint4 r = stream_call(k, s, key);
        all ^= r.x ^ r.y ^ r.z ^ r.w; /* every word used: no multiply can be dropped */
    }
    sink[s] = all;
}

__global__ void __launch_bounds__(MC_CEILING_THREADS)
    philox_uniform_sum_kernel(unsigned calls, unsigned long long seed, unsigned *sink)
{
    const unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    const uint2 key = make_uint2((unsigned)seed, (unsigned)(seed >> 32));
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll 4 /* as the fused kernel's loop */
    for (unsigned k = 0; k < calls; ++k) {
        const uint4 r = stream_call(k, s, key);
        sum[0] += mc_uniform_shifted(r.x); /* the cheapest conversion (streams.h) */
        sum[1] += mc_uniform_shifted(r.y);
        sum[2] += mc_uniform_shifted(r.z);
        sum[3] += mc_uniform_shifted(r.w);
    }
    sink[s] = __float_as_uint((sum[0] + sum[1]) + (sum[2] + sum[3]));
}

static const void *philox_kernel(mc_philox_work work)
{
    return work == MC_PHILOX_ONLY ? (const void *)philox_only_kernel
                                  : (const void *)philox_uniform_sum_kernel;
}

void mc_philox_ceiling_create(mc_philox_job *job, mc_philox_work work, unsigned calls)
{
    const tut_kernel_use use = tut_kernel_use_of(philox_kernel(work), MC_CEILING_THREADS, 0);
    const mc_launch plan = mc_full_wave(tut_current_device(), MC_CEILING_THREADS,
                                        use.regs_per_thread, use.static_shared);
    if (plan.blocks < 1) {
        fprintf(stderr, "Philox ceiling kernel: %s\n", plan.why);
        exit(1);
    }
    job->blocks = (int)plan.blocks;
    job->work = work;
    job->calls = calls;
    job->seed = 0x5eed5eed12345ull;
    job->sink = (unsigned *)tut_device_alloc(
        (size_t)job->blocks * MC_CEILING_THREADS * sizeof(unsigned), "Philox ceiling sink");
}

void mc_philox_ceiling_run(mc_philox_job *job)
{
    if (job->work == MC_PHILOX_ONLY)
        philox_only_kernel<<<job->blocks, MC_CEILING_THREADS>>>(job->calls, job->seed, job->sink);
    else
        philox_uniform_sum_kernel<<<job->blocks, MC_CEILING_THREADS>>>(job->calls, job->seed,
                                                                       job->sink);
    LAUNCH_CHECK();
}

double mc_philox_ceiling_samples(const mc_philox_job *job)
{
    return 4.0 * (double)job->blocks * MC_CEILING_THREADS * (double)job->calls;
}

void mc_philox_ceiling_destroy(mc_philox_job *job)
{
    tut_device_free(job->sink);
}
