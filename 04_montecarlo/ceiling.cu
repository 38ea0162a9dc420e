/* The fused kernel's ceiling, measured in the same run: how fast this GPU does the integer
 * multiplies Philox is made of.
 *
 * A Philox4x32-10 round takes two counter words through a 32 x 32 -> 64-bit multiply by a
 * constant, keeping both halves (__umulhi for the high word, mul.lo for the low: nvcc makes one
 * IMAD.WIDE.U32 of the pair), and mixes the halves with three-input XORs (LOP3). Ten rounds give
 * four uniforms: 40 multiply results (a high and a low half count one each), 10 per sample.
 *
 * multiply_wide_kernel does that, and nothing else: each thread carries CEILING_CHAINS
 * independent words (enough independent work to hide the multiply's latency) through `steps`
 * rounds of x = hi(M x) ^ lo(M x) ^ K, one IMAD.WIDE and one LOP3 per step, the mix of a Philox
 * round. Its rate in multiply results per second, divided by 10, is the samples per second a
 * Philox-bound kernel could reach. multiply_lo_kernel keeps only the low half (x = lo(M x) ^ K,
 * an IMAD and a LOP3): the rate of plain 32-bit multiplies, for comparison. (The SASS of both
 * loops was read with cuobjdump -sass: one IMAD.WIDE.U32 or IMAD and one LOP3 per step.) */
#include "tutorial.h"

#include "variants.h"

#define CEILING_CHAINS 8
#define PHILOX_M0 0xD2511F53u /* Philox4x32's first round multiplier */
#define MIX_KEY 0x9E3779B9u   /* any constant: it keeps 0 from being a fixed point */

static __device__ __forceinline__ void first_words(unsigned x[CEILING_CHAINS])
{
    const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int c = 0; c < CEILING_CHAINS; ++c)
        x[c] = (thread * CEILING_CHAINS + c) * MIX_KEY + 1u;
}

static __device__ __forceinline__ void keep(const unsigned x[CEILING_CHAINS], unsigned *sink)
{
    unsigned all = 0;
#pragma unroll
    for (int c = 0; c < CEILING_CHAINS; ++c)
        all ^= x[c];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = all; /* the results are used: not dead code */
}

__global__ void __launch_bounds__(MC_CEILING_THREADS)
    multiply_wide_kernel(unsigned steps, unsigned *sink)
{
    unsigned x[CEILING_CHAINS];
    first_words(x);
#pragma unroll 4
    for (unsigned i = 0; i < steps; ++i) {
#pragma unroll
        for (int c = 0; c < CEILING_CHAINS; ++c)
            x[c] = __umulhi(PHILOX_M0, x[c]) ^ (PHILOX_M0 * x[c]) ^ MIX_KEY;
    }
    keep(x, sink);
}

__global__ void __launch_bounds__(MC_CEILING_THREADS)
    multiply_lo_kernel(unsigned steps, unsigned *sink)
{
    unsigned x[CEILING_CHAINS];
    first_words(x);
#pragma unroll 4
    for (unsigned i = 0; i < steps; ++i) {
#pragma unroll
        for (int c = 0; c < CEILING_CHAINS; ++c)
            x[c] = (PHILOX_M0 * x[c]) ^ MIX_KEY; /* not + (a chain of M x + K folds into one) */
    }
    keep(x, sink);
}

static const void *ceiling_kernel(int wide)
{
    return wide ? (const void *)multiply_wide_kernel : (const void *)multiply_lo_kernel;
}

void mc_ceiling_create(mc_ceiling_job *job, int wide, unsigned steps)
{
    const tut_kernel_use use = tut_kernel_use_of(ceiling_kernel(wide), MC_CEILING_THREADS, 0);
    const mc_launch plan = mc_full_wave(tut_current_device(), MC_CEILING_THREADS,
                                        use.regs_per_thread, use.static_shared);
    if (plan.blocks < 1) {
        fprintf(stderr, "multiply ceiling kernel: %s\n", plan.why);
        exit(1);
    }
    job->blocks = (int)plan.blocks;
    job->wide = wide;
    job->steps = steps;
    job->sink = (unsigned *)tut_device_alloc(
        (size_t)job->blocks * MC_CEILING_THREADS * sizeof(unsigned), "multiply ceiling sink");
}

void mc_ceiling_run(mc_ceiling_job *job)
{
    if (job->wide)
        multiply_wide_kernel<<<job->blocks, MC_CEILING_THREADS>>>(job->steps, job->sink);
    else
        multiply_lo_kernel<<<job->blocks, MC_CEILING_THREADS>>>(job->steps, job->sink);
    LAUNCH_CHECK();
}

double mc_ceiling_results(const mc_ceiling_job *job)
{
    const double multiplies =
        (double)job->blocks * MC_CEILING_THREADS * CEILING_CHAINS * (double)job->steps;
    return job->wide ? 2.0 * multiplies : multiplies;
}

void mc_ceiling_destroy(mc_ceiling_job *job)
{
    tut_device_free(job->sink);
}
