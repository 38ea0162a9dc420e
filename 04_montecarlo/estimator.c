/* The estimator, its error bar, the exact integrals and the CPU reference (see estimator.h). */
#include "estimator.h"

#include <math.h>
#include <stdio.h>

#include "tutorial.h"

static const double PI = 3.14159265358979323846;

double mc_exact(mc_integrand which, double a, double b)
{
    switch (which) {
    case MC_INV: return log(fabs(b)) - log(fabs(a)); /* a and b have the same sign */
    case MC_SQUARE: return (b * b * b - a * a * a) / 3.0;
    case MC_SIN: return cos(a) - cos(b);
    case MC_CIRCLE: {
        /* 4 * antiderivative of sqrt(1 - x^2) = 2 (x sqrt(1 - x^2) + asin x) */
        const double fa = a * sqrt(1.0 - a * a) + asin(a);
        const double fb = b * sqrt(1.0 - b * b) + asin(b);
        return 2.0 * (fb - fa);
    }
    case MC_ONE: return b - a;
    default: return NAN;
    }
}

const char *mc_range_problem(mc_integrand which, double a, double b)
{
    if (!(b > a))
        return "the upper limit --b must be greater than the lower limit --a";
    if (fabs(a) > 1e6 || fabs(b) > 1e6)
        return "the limits must lie within [-1e6, 1e6]";
    if (b - a < 1e-4 * fmax(fabs(a), fabs(b)))
        return "the range is too narrow for float samples (b - a < 1e-4 max(|a|, |b|))";
    switch (which) {
    case MC_INV:
        if (a <= 0.0 && b >= 0.0)
            return "the range contains 0, where 1/x is not integrable";
        if (fmin(fabs(a), fabs(b)) < 1e-6)
            return "1/x needs |a|, |b| >= 1e-6 (its variance grows like 1/|a|)";
        break;
    case MC_CIRCLE:
        if (a < -1.0 || b > 1.0)
            return "the circle integrand 4 sqrt(1 - x^2) needs -1 <= a < b <= 1";
        break;
    case MC_SIN:
        if (a < -PI || b > PI)
            return "sin needs -pi <= a < b <= pi (where the fast __sinf is accurate)";
        break;
    default: break;
    }
    return NULL;
}

const char *mc_integrand_name(mc_integrand which)
{
    static const char *names[] = {"inv", "square", "sin", "circle", "one"};
    return (which >= 0 && which < MC_INTEGRAND_COUNT) ? names[which] : "?";
}

const char *mc_integrand_formula(mc_integrand which)
{
    static const char *formulas[] = {"1/x", "x^2", "sin(x)", "4*sqrt(1-x^2)", "1"};
    return (which >= 0 && which < MC_INTEGRAND_COUNT) ? formulas[which] : "?";
}

mc_result mc_finish(const mc_sums *s, double a, double b)
{
    mc_result r = {NAN, NAN, NAN};
    if (s->n < 2)
        return r;
    const double n = (double)s->n;
    const double mean = s->sum / n;
    /* Sample variance from the two sums. The subtraction cancels when the spread is tiny
     * next to the mean; the sums are float64, so it keeps ~16 - log10(mean^2 / var) digits,
     * plenty for an error bar. Clamped at 0 against rounding (the constant integrand). */
    double var = (s->sum_sq - n * mean * mean) / (n - 1.0);
    if (var < 0.0)
        var = 0.0;
    r.estimate = (b - a) * mean;
    r.doc_estimate = (b - a) / (n - 1.0) * s->sum;
    r.std_error = (b - a) * sqrt(var / n);
    return r;
}

double mc_sigmas(const mc_result *r, double exact)
{
    const double err = fabs(r->estimate - exact);
    if (r->std_error > 0.0)
        return err / r->std_error;
    /* No spread (the constant integrand): the estimate must be exact up to rounding. */
    return err <= 1e-12 * fmax(1.0, fabs(exact)) ? 0.0 : INFINITY;
}

int mc_report(const char *label, const mc_problem *p, const mc_sums *sums, double max_sigmas)
{
    const mc_result r = mc_finish(sums, p->a, p->b);
    const double exact = mc_exact(p->integrand, p->a, p->b);
    const double sig = mc_sigmas(&r, exact);
    /* NaN fails: every comparison with NaN is false. */
    const int ok = sums->n == p->samples && sig <= max_sigmas;
    printf("%-22s %-6s [%g, %g] n=%llu: %.9f  (doc (b-a)/(n-1): %.9f)  +- %.2e  exact %.9f  "
           "%.2f SE %s\n",
           label, mc_integrand_name(p->integrand), p->a, p->b, sums->n, r.estimate,
           r.doc_estimate, r.std_error, exact, sig, ok ? "ok" : "FAIL");
    if (sums->n != p->samples)
        printf("  drew %llu samples, asked for %llu\n", sums->n, p->samples);
    return ok;
}

/* The integrands in float64, for the reference. */
static double eval_f64(mc_integrand which, double x)
{
    switch (which) {
    case MC_INV: return 1.0 / x;
    case MC_SQUARE: return x * x;
    case MC_SIN: return sin(x);
    case MC_CIRCLE: return 4.0 * sqrt(fmax(0.0, 1.0 - x * x));
    case MC_ONE: return 1.0;
    default: return NAN;
    }
}

mc_sums mc_cpu_sums(const mc_problem *p)
{
    tut_rng rng;
    tut_rng_seed(&rng, p->seed);
    mc_sums s = {0, 0.0, 0.0};
    const double width = p->b - p->a;
    for (unsigned long long i = 0; i < p->samples; ++i) {
        const double x = p->a + width * tut_rng_uniform(&rng);
        const double f = eval_f64(p->integrand, x);
        s.sum += f;
        s.sum_sq += f * f;
    }
    s.n = p->samples;
    return s;
}
