/* The estimator, its error bar, the exact integrals and the CPU reference (see estimator.h). */
#include "estimator.h"

#include <math.h>
#include <stdio.h>

#include "streams.h"
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
        return "the limits --a and --b must lie within [-1e6, 1e6]";
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

/* The bias of float sampling for 1/x on [a, b] (same sign, 0 outside): the samples are
 * x = fmaf(w, u, a) in float, with a and w = b - a rounded to float and u on a grid of steps
 * 2^-23 (the bits, shifted and packed uniforms) or offset by 2^-33 (curand's r 2^-32 + 2^-33:
 * taken as a grid of steps 2^-32; its rounding to float is to nearest, which moves no mean to first
 * order), so they integrate 1/x over the float range [a', a' + w'] on that grid instead of over
 * [a, b]:
 *   ends moved by rounding: |a' - a| / |a| + |a' + w' - b| / |b|;
 *   the grid (a Riemann sum of step h = w 2^-23, or w 2^-32): h / 2 |1/a - 1/b|.
 * Near the pole both grow like 1 / min(|a|, |b|): the ends, rounded to float steps of the width,
 * may even reach 0 (1/x = inf), and the grid leaves out the last step before the pole. */
static double ends_moved(double a, double b, double lo, double hi)
{
    if (lo * a <= 0.0 || hi * b <= 0.0)
        return INFINITY; /* a float limit on 0 or past it */
    return fabs(lo - a) / fabs(a) + fabs(hi - b) / fabs(b);
}

/* The grid step of u that the uniforms in the mask `uniforms` (1u << mc_uniform) draw on: the
 * coarsest of them. */
static double uniform_step(unsigned uniforms)
{
    return uniforms & ~(1u << MC_UNIFORM_CURAND) ? 0x1p-23 : 0x1p-32;
}

/* The largest bias among the uniforms in the mask. */
static double inv_sampling_bias(double a, double b, unsigned uniforms)
{
    const float af = (float)a, wf = (float)(b - a);
    /* curand and bits: x = a' + w' u; shifted and packed: x = (a' - w') + w' u with u in
     * [1, 2), its offset rounded to float once more (streams.h) */
    const float offset = af - wf;
    double moved = 0.0;
    if (uniforms & ((1u << MC_UNIFORM_CURAND) | (1u << MC_UNIFORM_BITS)))
        moved = ends_moved(a, b, af, (double)af + wf);
    if (uniforms & ((1u << MC_UNIFORM_SHIFTED) | (1u << MC_UNIFORM_PACKED)))
        moved = fmax(moved, ends_moved(a, b, (double)offset + wf, (double)offset + 2.0 * wf));
    const double h = (double)wf * uniform_step(uniforms);
    return moved + 0.5 * h * fabs(1.0 / a - 1.0 / b);
}

/* The standard error of the estimate of the integral of 1/x over [a, b] from n samples. */
static double inv_std_error(double a, double b, unsigned long long n)
{
    const double m = fmin(fabs(a), fabs(b)), big = fmax(fabs(a), fabs(b));
    const double integral = log(big / m), w = big - m;
    const double var = w * (1.0 / m - 1.0 / big) - integral * integral; /* w^2 Var f */
    return sqrt(fmax(var, 0.0) / (double)n);
}

/* A bound of inv_sampling_bias that is smooth in the near limit m (the far one fixed), for the
 * suggestion: each end moved by up to a float step of the larger of the far limit and the width
 * (the shifted uniform rounds a - w too), and the grid. */
static double inv_bias_bound(double m, double big, double step)
{
    const double w = big - m;
    return 2.0 * (big + w) * 0x1p-24 / m + 0.5 * w * step * (1.0 / m - 1.0 / big);
}

static int inv_bound_fits(double m, double big, unsigned long long n, double step)
{
    return inv_bias_bound(m, big, step) <= MC_SAMPLING_BIAS_SIGMAS * inv_std_error(m, big, n);
}

/* The smallest near limit m in [m0, big / 2] whose bound fits at n samples (0: none does). The
 * ratio bias / error falls as m grows (both go like 1/m and 1/sqrt(m)) until the range gets
 * narrow, where the error vanishes: so search up from m0 on a log grid, then bisect. */
static double inv_nearest_limit(double m0, double big, unsigned long long n, double step)
{
    const int steps = 400;
    const double lo = log(m0), hi = log(0.5 * big);
    double prev = lo;
    for (int i = 0; i <= steps; ++i) {
        const double t = lo + (hi - lo) * i / steps;
        if (inv_bound_fits(exp(t), big, n, step)) {
            double fail = prev, fit = t;
            for (int k = 0; k < 60 && i > 0; ++k) {
                const double mid = 0.5 * (fail + fit);
                if (inv_bound_fits(exp(mid), big, n, step))
                    fit = mid;
                else
                    fail = mid;
            }
            return exp(fit) * 1.001; /* printed with 3 digits: keep it on the safe side */
        }
        prev = t;
    }
    return 0.0;
}

int mc_sampling_problem(mc_integrand which, double a, double b, unsigned long long samples,
                        unsigned uniforms, char *why, size_t why_len)
{
    if (uniforms == 0)
        uniforms = (1u << MC_UNIFORM_COUNT) - 1u;
    /* The other integrands are bounded on their ranges: the same rounding moves their
     * integral by about 2^-23 of w max|f|, below their evaluation error (MC_EVAL_ULPS). */
    if (which != MC_INV || mc_range_problem(which, a, b) || samples < 2)
        return 0;
    const double bias = inv_sampling_bias(a, b, uniforms);
    const double step = uniform_step(uniforms);
    const double sigma = inv_std_error(a, b, samples);
    if (bias <= MC_SAMPLING_BIAS_SIGMAS * sigma)
        return 0;
    /* What works: the nearest limit to 0 whose bias bound is within the allowance at this
     * sample count, the far limit kept. */
    const double big = fmax(fabs(a), fabs(b));
    const double near = inv_nearest_limit(fmin(fabs(a), fabs(b)), big, samples, step);
    char works[200];
    if (near > 0.0)
        snprintf(works, sizeof works, "with %llu samples and the far limit at %g, keep the near "
                 "limit at |x| >= %.3g (%s %.3g)", samples, b < 0 ? a : b, near,
                 b < 0 ? "--b" : "--a", b < 0 ? -near : near);
    else
        snprintf(works, sizeof works, "draw fewer samples, or keep 0 farther away");
    if (isinf(bias))
        snprintf(why, why_len, "float samples of [%g, %g] reach x = 0, where 1/x is infinite "
                 "(the limits rounded to float: the near one is closer to 0 than half a float "
                 "step of the width %g); %s", a, b, b - a, works);
    else
        snprintf(why, why_len, "float samples cannot integrate 1/x over [%g, %g] this close to "
                 "the pole: their grid (steps of %.2g) and the limits rounded to float move the "
                 "result by up to %.2g, %.1f standard errors at %llu samples (at most %.1f "
                 "allowed); %s", a, b, (b - a) * step, bias, bias / sigma, samples,
                 MC_SAMPLING_BIAS_SIGMAS, works);
    return 1;
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

/* Below this many samples the standard error, itself estimated from the samples, judges nothing
 * (two samples that happen to be close give a tiny one): Hoeffding's bound judges instead. */
#define FEW_SAMPLES 100

/* The values f takes on [a, b] (a range mc_range_problem accepts: 1/x on one side of 0). */
static void f_range(mc_integrand which, double a, double b, double *lo, double *hi)
{
    switch (which) {
    case MC_INV: *lo = fmin(1.0 / a, 1.0 / b), *hi = fmax(1.0 / a, 1.0 / b); return;
    case MC_SQUARE:
        *hi = fmax(a * a, b * b);
        *lo = a <= 0.0 && b >= 0.0 ? 0.0 : fmin(a * a, b * b);
        return;
    case MC_SIN: *lo = -1.0, *hi = 1.0; return;
    case MC_CIRCLE: *lo = 0.0, *hi = 4.0; return;
    default: *lo = 1.0, *hi = 1.0; return;
    }
}

/* The mean of f^2 over [a, b], in closed form: with the exact integral, f's exact spread. */
static double mean_f2(mc_integrand which, double a, double b)
{
    const double w = b - a;
    switch (which) {
    case MC_INV: return (1.0 / a - 1.0 / b) / w;
    case MC_SQUARE: return (pow(b, 5.0) - pow(a, 5.0)) / (5.0 * w);
    case MC_SIN: return 0.5 - (sin(2.0 * b) - sin(2.0 * a)) / (4.0 * w);
    case MC_CIRCLE: return 16.0 * (1.0 - (b * b * b - a * a * a) / (3.0 * w));
    default: return 1.0;
    }
}

/* f's range wider than this many of its standard deviations times sqrt(n): the standard error
 * estimated from the samples is not to be trusted. On the CPU reference, 1/x over
 * [a, 1], 300 seeds: range / (sd sqrt n) of 0.3 to 100 judged 1 to 154 right runs wrong by 4
 * estimated standard errors (over [1e-4, 1] with 1000 samples, 26); below 0.2, none. */
#define WIDE_RANGE 0.2

int mc_report(const char *label, const mc_problem *p, const mc_sums *sums, double max_sigmas)
{
    const mc_result r = mc_finish(sums, p->a, p->b);
    const double exact = mc_exact(p->integrand, p->a, p->b);
    const double sig = mc_sigmas(&r, exact);
    /* NaN fails: every comparison with NaN is false. */
    int ok = sums->n == p->samples && sig <= max_sigmas;
    double bound = -1.0;
    if (sums->n < FEW_SAMPLES) {
        /* f in [lo, hi]: the mean of n samples strays t from its expectation with probability
         * at most 2 exp(-2 n t^2 / (hi - lo)^2) (Hoeffding): 1 run in 10^9 beyond the bound;
         * plus the GPU's fast 1/x and sine (integrands.h), far below it */
        double lo, hi;
        f_range(p->integrand, p->a, p->b, &lo, &hi);
        const double n = sums->n > 0 ? (double)sums->n : 1.0;
        bound = (p->b - p->a) * (hi - lo) * sqrt(log(2.0 / 1e-9) / (2.0 * n)) +
                1e-6 * (fabs(exact) + (p->b - p->a));
        ok = sums->n == p->samples && fabs(r.estimate - exact) <= bound;
    }
    double wide = -1.0;
    double lo, hi;
    f_range(p->integrand, p->a, p->b, &lo, &hi);
    const double w = p->b - p->a, mu = exact / w, n = (double)sums->n;
    const double sd = sqrt(fmax(0.0, mean_f2(p->integrand, p->a, p->b) - mu * mu));
    if (sums->n >= FEW_SAMPLES && sd > 0.0 && hi - lo > WIDE_RANGE * sd * sqrt(n)) {
        /* 1/x near its pole: the few samples near the pole carry most of the variance, most
         * runs draw none, and their estimated standard error is too small. Bernstein's bound
         * judges instead, from f's exact spread sd and |f - mean| <= m: the mean of n samples
         * strays t with probability at most 2 exp(-n t^2 / (2 sd^2 + 2 m t / 3)), set to 1 in
         * 10^9. (Not "either": a result scaled wrong, its sums and so its standard error with
         * it, stays within 4 of them.) */
        const double l = log(2.0 / 1e-9), m = fmax(hi - mu, mu - lo), c = 2.0 * m * l / 3.0;
        const double t = (c + sqrt(c * c + 8.0 * n * sd * sd * l)) / (2.0 * n);
        wide = w * t + 1e-6 * (fabs(exact) + w);
        ok = sums->n == p->samples && fabs(r.estimate - exact) <= wide;
    }
    printf("%-22s %-6s [%g, %g] n=%llu: %.9f  (doc (b-a)/(n-1): %.9f)  +- %.2e  exact %.9f  "
           "%.2f SE %s\n",
           label, mc_integrand_name(p->integrand), p->a, p->b, sums->n, r.estimate,
           r.doc_estimate, r.std_error, exact, sig, ok ? "ok" : "FAIL");
    if (bound >= 0.0)
        printf("  fewer than %d samples: judged by Hoeffding's bound, |error| <= %.3g\n",
               FEW_SAMPLES, bound);
    if (wide >= 0.0)
        printf("  f's range %.3g is wide next to its spread %.3g at %llu samples: judged by "
               "Bernstein's bound instead, |error| <= %.3g\n", hi - lo, sd, sums->n, wide);
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
