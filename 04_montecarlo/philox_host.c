/* Philox4x32-10 on the CPU and the replay of the fused variant (see philox_host.h). */
#include "philox_host.h"

#include <math.h>

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

static float to_uniform(uint32_t r, mc_uniform kind)
{
    return kind == MC_UNIFORM_BITS ? mc_uniform_bits(r) : mc_uniform_curand(r);
}

mc_sums mc_replay_fused(const mc_problem *p, mc_uniform uniform)
{
    const uint32_t key[2] = {(uint32_t)p->seed, (uint32_t)(p->seed >> 32)};
    const float a = (float)p->a, width = (float)(p->b - p->a);
    const unsigned long long streams = mc_stream_count(p->samples);
    mc_sums total = {p->samples, 0.0, 0.0};
    for (unsigned long long s = 0; s < streams; ++s) {
        const unsigned len = mc_stream_length(p->samples, s);
        /* Four float lanes, one per output word of a Philox call, exactly as the kernel. */
        float sum[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
        for (unsigned k = 0; 4 * k < len; ++k) {
            const uint32_t counter[4] = {k, 0, (uint32_t)s, (uint32_t)(s >> 32)};
            uint32_t r[4];
            mc_philox4x32_10(counter, key, r);
            for (unsigned lane = 0; lane < 4 && 4 * k + lane < len; ++lane) {
                const float x = fmaf(width, to_uniform(r[lane], uniform), a);
                const float f = mc_eval(p->integrand, x);
                sum[lane] += f;
                sq[lane] = fmaf(f, f, sq[lane]);
            }
        }
        total.sum += (double)((sum[0] + sum[1]) + (sum[2] + sum[3]));
        total.sum_sq += (double)((sq[0] + sq[1]) + (sq[2] + sq[3]));
    }
    return total;
}
