/* How the fused variant splits n samples into independent random streams, and how it turns
 * 32 random bits into a uniform float. Shared by the kernel (3_fused_philox.cu) and the CPU
 * replay (philox_host.c), so the replay draws exactly the numbers the GPU draws.
 *
 * Stream s holds samples [s * MC_STREAM_SAMPLES, min(n, (s + 1) * MC_STREAM_SAMPLES)). It is
 * Philox subsequence s of the seed: its k-th Philox call encrypts the 128-bit counter
 * (k, 0, s mod 2^32, s / 2^32) under the 64-bit key `seed`, giving 4 uniforms (5 packed).
 * Different s means a different counter for every call, so no two streams ever share a number,
 * whatever n (up to 2^64 streams of 2^66 samples each), and the estimate does not depend on the
 * grid size. */
#ifndef MC_STREAMS_H
#define MC_STREAMS_H

#include <stdint.h>
#include <string.h>

#include "integrands.h"

/* Samples per stream, a multiple of 4. Also how many samples a thread adds up in float before
 * moving the total to a double: 1024 floats of similar size lose ~sqrt(1024) * 2^-24 ~ 2e-6
 * relative at worst-typical, far under the error bar. */
#define MC_STREAM_SAMPLES 1024ull

typedef enum {
    MC_UNIFORM_CURAND = 0, /* curand_uniform4: u = r * 2^-32 + 2^-33, in (0, 1] */
    MC_UNIFORM_BITS,       /* 23 bits as a float mantissa: u = 1.m - 1, in [0, 1) */
    MC_UNIFORM_SHIFTED,    /* the same without the - 1: u = 1.m in [1, 2), x = (a - w) + w u */
    MC_UNIFORM_PACKED,     /* shifted, five per Philox call: a fifth from the bits the four drop */
    MC_UNIFORM_COUNT
} mc_uniform;
#define MC_UNIFORM_CHOICES "curand|bits|shifted|packed"
/* The conversions of one 32-bit word each (all before packed): what cuRAND's state API path and
 * its exercise take. Packed runs on the counter generator only. */
#define MC_UNIFORM_PER_WORD ((int)MC_UNIFORM_PACKED)

/* One stream's (sum f, sum f^2): its float lane sums, converted to double (exactly). The fused
 * kernel can write one per stream, and the self-test compares them with the CPU replay's. */
typedef struct {
    double sum, sum_sq;
} mc_pair;

/* Two ways to drive the same Philox streams on the GPU; both draw identical numbers. */
typedef enum {
    MC_GENERATOR_STATE = 0, /* cuRAND's device API: curandStatePhilox4_32_10_t, curand4 */
    MC_GENERATOR_COUNTER,   /* Philox's rounds written out, on a counter we build */
    MC_GENERATOR_COUNT
} mc_generator;
#define MC_GENERATOR_CHOICES "state|counter"

MC_HD unsigned long long mc_stream_count(unsigned long long n)
{
    return (n + MC_STREAM_SAMPLES - 1) / MC_STREAM_SAMPLES;
}

MC_HD unsigned mc_stream_length(unsigned long long n, unsigned long long s)
{
    const unsigned long long first = s * MC_STREAM_SAMPLES;
    const unsigned long long left = n - first;
    return (unsigned)(left < MC_STREAM_SAMPLES ? left : MC_STREAM_SAMPLES);
}

/* mc_one_point: the float 1.m for a 23-bit mantissa m, in [1, 2).
 *
 * mc_uniform_shifted: the bits trick without its subtraction, 1.m, a uniform on [1, 2). The
 * sample x = a + w (u - 1) is then one fmaf(w, u, a - w), with a - w rounded to float once per
 * launch: one floating-point instruction per sample fewer, on the pipe that the integer
 * multiplies also use (appendix, the tuning). Its samples differ from the bits mode's only by
 * that rounding of a - w (none when a - w is a float, as for [1, 2]).
 *
 * The bits trick: 0x3f800000 | (r >> 9) is the float 1.m with the top 23 bits of r as its
 * mantissa; subtracting 1 leaves a uniform on [0, 1) in steps of 2^-23. A shift, an OR and a
 * subtraction, where the conversion of curand_uniform needs an integer-to-float instruction
 * that runs at an eighth of the FMA rate. */
MC_HD float mc_one_point(uint32_t mantissa)
{
    const uint32_t bits = 0x3f800000u | mantissa; /* sign 0, exponent 0: 1.m */
    float one_to_two;
#ifdef __CUDA_ARCH__
    one_to_two = __uint_as_float(bits);
#else
    memcpy(&one_to_two, &bits, sizeof one_to_two);
#endif
    return one_to_two;
}

MC_HD float mc_uniform_shifted(uint32_t r)
{
    return mc_one_point(r >> 9);
}

/* Packed: the four shifted uniforms of a Philox call use the top 23 bits of each word and drop
 * 36 (the low 9 of each). A fifth uniform takes 23 of them: its mantissa is
 * (x + (y << 9) + (z << 18)) mod 2^23, with x, y, z the call's first three words. Read from the
 * lowest bit up, bit j of that sum takes in bit j of x (j < 9), bit j - 9 of y (9 <= j < 18) or
 * bit j - 18 of z (j >= 18: z's bits 0-4), each a bit no other uniform uses, added to bits the
 * other uniforms use and to the carry from below. So with every other bit of the call fixed,
 * each of the 2^23 mantissas comes from exactly one choice of those 23 bits (mc_cpu_test checks
 * it): if Philox's bits are independent and uniform, so are the five uniforms. One Philox call
 * then gives five samples, not four: 8 multiply results a sample instead of 10, for four
 * integer instructions a call (two LEAs, a mask and the exponent's OR, where each shifted
 * uniform takes one LEA.HI). */
MC_HD uint32_t mc_fifth_mantissa(uint32_t x, uint32_t y, uint32_t z)
{
    return (x + (y << 9) + (z << 18)) & 0x7fffffu;
}

/* Uniforms a Philox call gives under each conversion. */
#define MC_PACKED_PER_CALL 5u
MC_HD unsigned mc_uniforms_per_call(mc_uniform uniform)
{
    return uniform == MC_UNIFORM_PACKED ? MC_PACKED_PER_CALL : 4u;
}

/* Packed uniform `lane` (0..4) of a Philox call's words x, y, z, w: the shifted conversion of
 * each word, then the fifth. The kernel and the CPU replay both take their numbers from here. */
MC_HD float mc_packed_uniform(uint32_t x, uint32_t y, uint32_t z, uint32_t w, unsigned lane)
{
    const uint32_t word = lane == 0 ? x : lane == 1 ? y : lane == 2 ? z : w;
    return lane < 4 ? mc_uniform_shifted(word) : mc_one_point(mc_fifth_mantissa(x, y, z));
}

MC_HD float mc_uniform_bits(uint32_t r)
{
    return mc_uniform_shifted(r) - 1.0f;
}

/* The x = offset + width u of each conversion: a for curand and bits, a - width for shifted and
 * packed. */
MC_HD float mc_sample_offset(mc_uniform uniform, float a, float width)
{
    return uniform == MC_UNIFORM_SHIFTED || uniform == MC_UNIFORM_PACKED ? a - width : a;
}

MC_HD const char *mc_uniform_name(mc_uniform uniform)
{
    return uniform == MC_UNIFORM_CURAND    ? "curand"
           : uniform == MC_UNIFORM_BITS    ? "bits"
           : uniform == MC_UNIFORM_SHIFTED ? "shifted"
                                           : "packed";
}

/* What curand_uniform does (curand_uniform.h): r * 2^-32 + 2^-33, in float. */
MC_HD float mc_uniform_curand(uint32_t r)
{
    return (float)r * 2.3283064365386963e-10f + 1.1641532182693481e-10f;
}

#endif
