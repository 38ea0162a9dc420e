/* The CPU reference: the same operations in the same order as the GPU kernels, in float64. */
#include "heat_reference.h"

#include <string.h>

#include "rng.h"

void heat_reference(double *u, double *scratch, size_t n, long long steps, double k)
{
    double *cur = u, *next = scratch;
    for (long long s = 0; s < steps; ++s) {
        for (size_t i = 0; i < n; ++i) {
            const double left = i > 0 ? cur[i - 1] : 0.0;
            const double right = i + 1 < n ? cur[i + 1] : 0.0;
            next[i] = heat_point_update(left, cur[i], right, k);
        }
        double *t = cur;
        cur = next;
        next = t;
    }
    if (cur != u)
        memcpy(u, cur, n * sizeof *u);
}

void heat_init_spike(double *u, size_t n, double value)
{
    memset(u, 0, n * sizeof *u);
    u[n / 2] = value;
}

void heat_init_random(double *u, size_t n, uint64_t seed)
{
    tut_rng rng;
    tut_rng_seed(&rng, seed);
    tut_rng_fill_f64(&rng, u, n, 0.0, 100.0);
}

double heat_total(const double *u, size_t n)
{
    double sum = 0.0;
    for (size_t i = 0; i < n; ++i)
        sum += u[i];
    return sum;
}

size_t heat_argmax(const double *u, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; ++i)
        if (u[i] > u[best])
            best = i;
    return best;
}

double heat_wall_loss(const double *u, size_t n, double k)
{
    return k * (u[0] + u[n - 1]);
}
