#include "reference.h"

#include "rng.h"

/* second after first: v -> s.mul * (f.mul * v + f.add) + s.add */
static affine_map compose(affine_map first, affine_map second)
{
    affine_map m;
    m.mul = second.mul * first.mul;
    m.add = second.mul * first.add + second.add;
    return m;
}

affine_map mix_power(unsigned long long times)
{
    affine_map result = {1u, 0u}; /* identity */
    affine_map square = {MIX_MUL, MIX_ADD};
    while (times) {
        if (times & 1u)
            result = compose(result, square); /* powers of one map commute */
        square = compose(square, square);
        times >>= 1;
    }
    return result;
}

void reference_output(const int32_t *x, const int32_t *y, int32_t *out, size_t n,
                      unsigned long long work)
{
    const affine_map m = mix_power(work);
    for (size_t i = 0; i < n; ++i) {
        const uint32_t sum = (uint32_t)x[i] + (uint32_t)y[i];
        out[i] = (int32_t)(m.mul * sum + m.add);
    }
}

uint32_t mix_brute_force(uint32_t v, unsigned long long work)
{
    for (unsigned long long w = 0; w < work; ++w)
        v = v * MIX_MUL + MIX_ADD;
    return v;
}

void fill_inputs(int32_t *x, int32_t *y, size_t n, int random, uint64_t seed)
{
    if (!random) {
        for (size_t i = 0; i < n; ++i) {
            x[i] = (int32_t)(uint32_t)i; /* wraps past 2^31 like the GPU's arithmetic */
            y[i] = (int32_t)(2u * (uint32_t)i);
        }
        return;
    }
    tut_rng rng;
    tut_rng_seed(&rng, seed);
    const int32_t half = 1 << 30;
    for (size_t i = 0; i < n; ++i) {
        x[i] = (int32_t)tut_rng_below(&rng, 1ull << 31) - half;
        y[i] = (int32_t)tut_rng_below(&rng, 1ull << 31) - half;
    }
}
