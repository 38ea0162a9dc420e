#include "rng.h"

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

void tut_rng_seed(tut_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; ++i)
        rng->s[i] = splitmix64(&seed);
}

uint64_t tut_rng_next(tut_rng *rng)
{
    uint64_t *s = rng->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double tut_rng_uniform(tut_rng *rng)
{
    return (double)(tut_rng_next(rng) >> 11) * 0x1.0p-53;
}

uint64_t tut_rng_below(tut_rng *rng, uint64_t bound)
{
    /* Rejection of the top partial range keeps every value equally likely. */
    const uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
    uint64_t r;
    do
        r = tut_rng_next(rng);
    while (r >= limit);
    return r % bound;
}

void tut_rng_fill_f32(tut_rng *rng, float *x, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; ++i)
        x[i] = lo + (hi - lo) * (float)((tut_rng_next(rng) >> 40) * 0x1.0p-24);
}

void tut_rng_fill_f64(tut_rng *rng, double *x, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; ++i)
        x[i] = lo + (hi - lo) * tut_rng_uniform(rng);
}
