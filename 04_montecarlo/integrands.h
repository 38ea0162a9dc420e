/* The functions this chapter integrates, their exact integrals, and the ranges where each is
 * defined. Shared by the CUDA kernels and the C reference, so both evaluate the same thing.
 *
 * On the GPU the hot loops use the fast hardware approximations (rcp.approx, __sinf): their error
 * (a few ulp, ~1e-7 relative) is far below a Monte Carlo standard error at any sample count this
 * chapter draws (~1e-6 at 2^34 samples), and an exact division or sine costs several times more.
 * The docs page measures and discusses the choice.
 *
 * The other integrands are written so that the GPU and the C compiler do exactly the same float
 * operations: every product that could be fused into an FMA is either an explicit fmaf() on both
 * sides or, on the GPU, __fmul_rn (which nvcc never fuses). sqrtf is correctly rounded on both
 * (nvcc's default -prec-sqrt=true). So x^2, 4 sqrt(1 - x^2) and 1 give the same bits on the CPU
 * replay as on the GPU, and the self-test can demand equality; only 1/x and sin need the bound
 * of MC_EVAL_ULPS / MC_SIN_ABS_ERROR below. */
#ifndef MC_INTEGRANDS_H
#define MC_INTEGRANDS_H

#include <math.h>
#include <stddef.h>

#ifdef __CUDACC__
#define MC_HD __host__ __device__ __forceinline__
#else
#define MC_HD static inline
#endif

typedef enum {
    MC_INV = 0, /* 1/x: the document's integrand */
    MC_SQUARE,  /* x^2 */
    MC_SIN,     /* sin x */
    MC_CIRCLE,  /* 4 sqrt(1 - x^2): over [0, 1] its integral is pi */
    MC_ONE,     /* 1: every sample counts exactly once, so the sum must equal n (a test) */
    MC_INTEGRAND_COUNT
} mc_integrand;

#ifdef __CUDA_ARCH__
/* 1/x as one MUFU.RCP instruction: rcp.approx.ftz.f32, at most 1 ulp off (PTX ISA). The
 * __fdividef(1.0f, x) it replaces compiled (sm_90, CUDA 13.0) to five instructions, four of
 * them rescaling subnormal x, which cannot occur here: mc_range_problem keeps |a|, |b| >= 1e-6
 * and 0 outside [a, b], and mc_sampling_problem refuses a range whose float samples could
 * reach 0 (the limits rounded to float within half a float step of the width from 0), so every
 * sample lies on one side of 0, within a few float steps of [a, b]. */
static __device__ __forceinline__ float mc_fast_rcp(float x)
{
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
#endif

/* How far the GPU's f may be from the C library's, per sample: rcp.approx.ftz.f32 is within 1 ulp
 * of 1/x (PTX ISA), 1.0f / x within 0.5 ulp; __sinf within 2^-21.41 absolute on [-pi, pi] (CUDA
 * C++ Programming Guide), sinf within 1 ulp. Taken with a margin: 4 ulp, and 2^-20 + 2 ulp. */
#define MC_EVAL_ULPS 4.0
#define MC_SIN_ABS_ERROR 9.5367431640625e-07 /* 2^-20 */

/* 1 when the GPU's f is bit for bit the C library's (see above). */
#define MC_EVAL_EXACT(which) ((which) != MC_INV && (which) != MC_SIN)

/* Names as the --integrand option spells them, in enum order. */
#define MC_INTEGRAND_CHOICES "inv|square|sin|circle|one"

MC_HD float mc_eval(mc_integrand which, float x)
{
    switch (which) {
#ifdef __CUDA_ARCH__
    case MC_INV: return mc_fast_rcp(x);
    case MC_SIN: return __sinf(x);
    case MC_SQUARE: return __fmul_rn(x, x); /* never fused into the sum that follows */
#else
    case MC_INV: return 1.0f / x;
    case MC_SIN: return sinf(x);
    case MC_SQUARE: return x * x;
#endif
    case MC_CIRCLE: return 4.0f * sqrtf(fmaxf(0.0f, fmaf(-x, x, 1.0f)));
    case MC_ONE: return 1.0f;
    default: return 0.0f;
    }
}

#ifdef __cplusplus
extern "C" {
#endif

/* The exact integral over [a, b], in float64. */
double mc_exact(mc_integrand which, double a, double b);

/* NULL when [a, b] is a valid range for the integrand, otherwise why not (b <= a, 0 inside the
 * range of 1/x, leaving [-1, 1] for the circle or [-pi, pi] for sin, where __sinf is accurate,
 * limits beyond +-1e6 or a range too narrow to be sampled in float). */
const char *mc_range_problem(mc_integrand which, double a, double b);

/* How far float sampling may move the estimate, in standard errors of the estimate. */
#define MC_SAMPLING_BIAS_SIGMAS 0.2

/* 1 (with why[]: the reason and a range that works) when float samples cannot integrate the
 * integrand over [a, b] with `samples` samples: for 1/x near its pole, when the samples could
 * reach x = 0 or their grid (steps of (b - a) 2^-23 for the bits and shifted uniforms, (b - a)
 * 2^-32 for curand's) and the limits rounded to float bias the result by more than
 * MC_SAMPLING_BIAS_SIGMAS standard errors. `uniforms`: the uniforms the runs draw with, a mask
 * of 1u << mc_uniform (streams.h; 0: all of them). 0 for a range that mc_range_problem refuses
 * (it says why) and for the bounded integrands. */
int mc_sampling_problem(mc_integrand which, double a, double b, unsigned long long samples,
                        unsigned uniforms, char *why, size_t why_len);

const char *mc_integrand_name(mc_integrand which);
const char *mc_integrand_formula(mc_integrand which);

#ifdef __cplusplus
}
#endif

#endif
