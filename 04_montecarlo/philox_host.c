/* Philox4x32-10 on the CPU and the replay of the fused variant (see philox_host.h). */
#include "philox_host.h"

#include <math.h>

#include "integrands.h"

/* The round multipliers and the Weyl key increments of Philox4x32 (the golden ratio and
 * sqrt(3) - 1 in 32-bit fixed point), as in curand_philox4x32_x.h. */
#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

void mc_philox4x32_10(const uint32_t counter[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c0 = counter[0], c1 = counter[1], c2 = counter[2], c3 = counter[3];
    uint32_t k0 = key[0], k1 = key[1];
    for (int round = 0; round < 10; ++round) {
        const uint64_t p0 = (uint64_t)PHILOX_M0 * c0;
        const uint64_t p1 = (uint64_t)PHILOX_M1 * c2;
        const uint32_t hi0 = (uint32_t)(p0 >> 32), lo0 = (uint32_t)p0;
        const uint32_t hi1 = (uint32_t)(p1 >> 32), lo1 = (uint32_t)p1;
        c0 = hi1 ^ c1 ^ k0;
        c1 = lo1;
        c2 = hi0 ^ c3 ^ k1;
        c3 = lo0;
        k0 += PHILOX_W0;
        k1 += PHILOX_W1;
    }
    out[0] = c0;
    out[1] = c1;
    out[2] = c2;
    out[3] = c3;
}

/* Uniform `lane` (0..3, or 4 for packed's fifth) of a Philox call's words r. */
static float to_uniform(const uint32_t r[4], unsigned lane, mc_uniform kind)
{
    if (kind == MC_UNIFORM_PACKED)
        return mc_packed_uniform(r[0], r[1], r[2], r[3], lane);
    return kind == MC_UNIFORM_BITS      ? mc_uniform_bits(r[lane])
           : kind == MC_UNIFORM_SHIFTED ? mc_uniform_shifted(r[lane])
                                        : mc_uniform_curand(r[lane]);
}

/* One float ulp of |x| (the spacing of floats at x). */
static double ulp_of(float x)
{
    const float a = fabsf(x);
    return (double)nextafterf(a, INFINITY) - (double)a;
}

/* How far the GPU's f may be from the CPU's f at this sample. */
static double eval_error(mc_integrand which, float f)
{
    if (MC_EVAL_EXACT(which))
        return 0.0;
    if (which == MC_SIN)
        return MC_SIN_ABS_ERROR + 2.0 * ulp_of(f);
    return MC_EVAL_ULPS * ulp_of(f);
}

/* Unit roundoff of float: a rounded result is within U * |result| of the exact one. */
#define FLOAT_U 5.9604644775390625e-08 /* 2^-24 */

/* Both sides add b into a sum and round; if their inputs were up to `in` apart, their results are
 * up to (in + 2 U |sum|) / (1 - U) apart (each rounding is within U of its own result). */
static double after_add(double in, float sum)
{
    return (in + 2.0 * FLOAT_U * fabs((double)sum)) / (1.0 - FLOAT_U);
}

void mc_replay_stream(const mc_problem *p, mc_uniform uniform, unsigned long long s, unsigned len,
                      mc_pair *pair, mc_pair *tol)
{
    const uint32_t key[2] = {(uint32_t)p->seed, (uint32_t)(p->seed >> 32)};
    const float a = (float)p->a, width = (float)(p->b - p->a);
    const float offset = mc_sample_offset(uniform, a, width);
    /* One float lane per uniform of a Philox call (four, or five packed), exactly as the
     * kernel. */
    const unsigned per_call = mc_uniforms_per_call(uniform);
    const int packed = uniform == MC_UNIFORM_PACKED;
    float sum[5] = {0, 0, 0, 0, 0}, sq[5] = {0, 0, 0, 0, 0};
    double bound_sum[5] = {0, 0, 0, 0, 0}, bound_sq[5] = {0, 0, 0, 0, 0};
    for (unsigned k = 0; per_call * k < len; ++k) {
        const uint32_t counter[4] = {k, 0, (uint32_t)s, (uint32_t)(s >> 32)};
        uint32_t r[4];
        mc_philox4x32_10(counter, key, r);
        for (unsigned lane = 0; lane < per_call && per_call * k + lane < len; ++lane) {
            const float x = fmaf(width, to_uniform(r, lane, uniform), offset);
            const float f = mc_eval(p->integrand, x);
            sum[lane] += f;
            sq[lane] = fmaf(f, f, sq[lane]);
            const double d = eval_error(p->integrand, f);
            if (d > 0.0) {
                bound_sum[lane] = after_add(bound_sum[lane] + d, sum[lane]);
                bound_sq[lane] = after_add(bound_sq[lane] + (2.0 * fabs((double)f) + d) * d,
                                           sq[lane]);
            }
        }
    }
    /* (lanes 0 + 1) + (2 + 3), then + lane 4 when packed */
    const float sum01 = sum[0] + sum[1], sum23 = sum[2] + sum[3], sum03 = sum01 + sum23;
    const float sq01 = sq[0] + sq[1], sq23 = sq[2] + sq[3], sq03 = sq01 + sq23;
    pair->sum = (double)(packed ? sum03 + sum[4] : sum03);
    pair->sum_sq = (double)(packed ? sq03 + sq[4] : sq03);
    if (!tol)
        return;
    tol->sum = tol->sum_sq = 0.0;
    if (MC_EVAL_EXACT(p->integrand))
        return; /* the same operations on the same numbers: the same bits */
    const double b_sum = after_add(after_add(bound_sum[0] + bound_sum[1], sum01) +
                                       after_add(bound_sum[2] + bound_sum[3], sum23),
                                   sum03);
    const double b_sq = after_add(after_add(bound_sq[0] + bound_sq[1], sq01) +
                                      after_add(bound_sq[2] + bound_sq[3], sq23),
                                  sq03);
    tol->sum = packed ? after_add(b_sum + bound_sum[4], sum03 + sum[4]) : b_sum;
    tol->sum_sq = packed ? after_add(b_sq + bound_sq[4], sq03 + sq[4]) : b_sq;
}

mc_sums mc_replay_streams(const mc_problem *p, mc_uniform uniform, mc_pair *out, mc_pair *tol)
{
    const unsigned long long streams = mc_stream_count(p->samples);
    mc_sums total = {p->samples, 0.0, 0.0};
    for (unsigned long long s = 0; s < streams; ++s) {
        mc_pair pair;
        mc_replay_stream(p, uniform, s, mc_stream_length(p->samples, s), &pair,
                         tol ? &tol[s] : NULL);
        if (out)
            out[s] = pair;
        total.sum += pair.sum;
        total.sum_sq += pair.sum_sq;
    }
    return total;
}

mc_sums mc_replay_fused(const mc_problem *p, mc_uniform uniform)
{
    return mc_replay_streams(p, uniform, NULL, NULL);
}

mc_stream_check mc_compare_streams(const mc_pair *gpu, const mc_pair *cpu, const mc_pair *tol,
                                   unsigned long long count)
{
    mc_stream_check c = {count, 0, count, 0.0, 0.0};
    for (unsigned long long s = 0; s < count; ++s) {
        const double ds = fabs(gpu[s].sum - cpu[s].sum), dq = fabs(gpu[s].sum_sq - cpu[s].sum_sq);
        /* Written so that NaN fails: every comparison with NaN is false. */
        const int ok = ds <= tol[s].sum && dq <= tol[s].sum_sq;
        if (!ok) {
            if (c.mismatches == 0)
                c.first_bad = s;
            ++c.mismatches;
        }
        c.max_diff = fmax(c.max_diff, fmax(ds, dq));
        c.max_tol = fmax(c.max_tol, fmax(tol[s].sum, tol[s].sum_sq));
        if (ds != ds || dq != dq)
            c.max_diff = NAN;
    }
    return c;
}

int mc_total_matches_streams(double total, const mc_pair *streams, unsigned long long count,
                             int squares)
{
    double sum = 0.0, magnitude = 0.0;
    for (unsigned long long s = 0; s < count; ++s) {
        const double x = squares ? streams[s].sum_sq : streams[s].sum;
        sum += x;
        magnitude += fabs(x);
    }
    /* Each side within (count - 1) 2^-53 sum |x| of the exact sum, to first order: twice that,
     * and twice again for the higher orders and the zeros a tree adds. */
    const double bound = 4.0 * (double)(count > 0 ? count - 1 : 0) * 0x1p-53 * magnitude;
    return fabs(total - sum) <= bound;
}
