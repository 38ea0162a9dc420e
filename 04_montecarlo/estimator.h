/* The Monte Carlo estimator and its error bar, shared by every variant.
 *
 * Draw x_1..x_n uniformly on [a, b]; then (b - a) * mean(f(x_i)) estimates the integral, and
 * its standard error is (b - a) * s / sqrt(n), with s^2 the sample variance of f. A GPU variant
 * therefore returns only three numbers: n, sum f and sum f^2 (in float64). */
#ifndef MC_ESTIMATOR_H
#define MC_ESTIMATOR_H

#include <stdint.h>

#include "integrands.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned long long n; /* samples drawn */
    double sum;           /* sum of f(x_i) */
    double sum_sq;        /* sum of f(x_i)^2 */
} mc_sums;

typedef struct {
    double estimate;     /* (b - a) / n * sum: the usual, unbiased estimator */
    double doc_estimate; /* (b - a) / (n - 1) * sum: the document's normalisation */
    double std_error;    /* (b - a) * s / sqrt(n) */
} mc_result;

/* What to integrate, how many samples, and which random streams. */
typedef struct {
    mc_integrand integrand;
    double a, b;
    unsigned long long samples;
    unsigned long long seed;
} mc_problem;

mc_result mc_finish(const mc_sums *sums, double a, double b);

/* |estimate - exact| / std_error (0 when both are 0: the constant integrand has no spread). */
double mc_sigmas(const mc_result *r, double exact);

/* One line: estimate, the document's normalisation, standard error, exact value, error in
 * standard errors; returns 1 when within `max_sigmas` standard errors of the exact value. */
int mc_report(const char *label, const mc_problem *p, const mc_sums *sums, double max_sigmas);

/* The CPU reference: the same estimator with the suite's host generator (xoshiro256**), in
 * float64 throughout. */
mc_sums mc_cpu_sums(const mc_problem *p);

#ifdef __cplusplus
}
#endif

#endif
