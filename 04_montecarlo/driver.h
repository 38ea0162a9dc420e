/* What the driver (montecarlo.cu) and the benchmark (bench.cu) share: the parsed options. */
#ifndef MC_DRIVER_H
#define MC_DRIVER_H

#include "integrands.h"

/* An estimate passes when it lies within this many standard errors of the exact integral. A
 * correct estimator misses by more than 4 SE with probability 6e-5. */
#define MAX_SIGMAS 4.0

enum { VARIANT_ALL, VARIANT_STATES, VARIANT_LIBRARY, VARIANT_FUSED };

typedef struct {
    int integrand, variant, uniform, generator, check, bench;
    double a, b;
    unsigned long long samples, seed, chunk, blocks_per_sm;
    const char *outdir;
} options;

/* The default range of each integrand (inv's is the document's first one). */
static inline void default_range(mc_integrand which, double *a, double *b)
{
    *a = which == MC_INV ? 1.0 : 0.0;
    *b = which == MC_INV ? 2.0 : which == MC_SIN ? 3.14159265358979323846 : 1.0;
}

/* bench.cu: samples/s of every variant against the same-run library pipeline and generator,
 * and the convergence of the error with n; 1 if every timed configuration checked out. */
int bench(const options *o);

#endif
