/* A small, fast, portable host random generator (xoshiro256**, seeded through splitmix64), so
 * that every program draws the same inputs from the same printed seed on every machine. rand()
 * is neither portable nor good enough; seeds never come from the clock. */
#ifndef TUTORIAL_RNG_H
#define TUTORIAL_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t s[4];
} tut_rng;

/* The seed every program uses unless told otherwise (--seed). */
#define TUT_DEFAULT_SEED 20261122ull

void tut_rng_seed(tut_rng *rng, uint64_t seed);
uint64_t tut_rng_next(tut_rng *rng);
double tut_rng_uniform(tut_rng *rng);                 /* [0, 1), 53 random bits */
uint64_t tut_rng_below(tut_rng *rng, uint64_t bound); /* [0, bound), unbiased; bound > 0 */
void tut_rng_fill_f32(tut_rng *rng, float *x, size_t n, float lo, float hi);
void tut_rng_fill_f64(tut_rng *rng, double *x, size_t n, double lo, double hi);

#ifdef __cplusplus
}
#endif

#endif
