#include "compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

/* The element rule, shared by every floating-point check. */
static int element_ok(double got, double want, double atol, double rtol)
{
    if (isnan(got) || isnan(want))
        return 0; /* NaN never passes, not even against NaN */
    if (isinf(got) || isinf(want))
        return got == want;
    return fabs(got - want) <= atol + rtol * fabs(want);
}

typedef double (*element_at)(const void *array, size_t i);

static double at_f64(const void *a, size_t i) { return ((const double *)a)[i]; }
static double at_f32(const void *a, size_t i) { return (double)((const float *)a)[i]; }

static int check_real(const char *label, const void *got, element_at got_at, const void *want,
                      element_at want_at, size_t n, double atol, double rtol, tut_errors *out)
{
    tut_errors e = {n, 0, n, 0.0, 0.0, 0.0};
    size_t rel_count = 0;
    double rel_sum = 0.0;
    int saw_nan = 0;
    for (size_t i = 0; i < n; ++i) {
        const double g = got_at(got, i), w = want_at(want, i);
        const double abs_err = fabs(g - w);
        if (!element_ok(g, w, atol, rtol)) {
            if (e.mismatches < TUT_MAX_PRINTED_MISMATCHES)
                printf("  %s mismatch at [%zu]: found %.17g, expected %.17g\n", label, i, g, w);
            if (e.mismatches == 0)
                e.first_bad = i;
            ++e.mismatches;
        }
        if (isnan(abs_err))
            saw_nan = 1;
        else if (abs_err > e.max_abs_err)
            e.max_abs_err = abs_err;
        if (w != 0.0 && !isnan(abs_err)) {
            const double rel = abs_err / fabs(w);
            rel_sum += rel;
            ++rel_count;
            if (rel > e.max_rel_err)
                e.max_rel_err = rel;
        }
    }
    if (saw_nan)
        e.max_abs_err = NAN;
    e.mean_rel_err = rel_count ? rel_sum / (double)rel_count : 0.0;
    printf("check %s: %zu values, max abs err %.3g, max rel err %.3g, mean rel err %.3g: %s",
           label, n, e.max_abs_err, e.max_rel_err, e.mean_rel_err,
           e.mismatches ? "MISMATCH" : "ok");
    if (e.mismatches)
        printf(" (%zu of %zu outside atol %.3g + rtol %.3g)", e.mismatches, n, atol, rtol);
    printf("\n");
    if (out)
        *out = e;
    return e.mismatches == 0;
}

int tut_check_f64(const char *label, const double *got, const double *want, size_t n,
                  double atol, double rtol, tut_errors *errors)
{
    return check_real(label, got, at_f64, want, at_f64, n, atol, rtol, errors);
}

int tut_check_f32(const char *label, const float *got, const float *want, size_t n, double atol,
                  double rtol, tut_errors *errors)
{
    return check_real(label, got, at_f32, want, at_f32, n, atol, rtol, errors);
}

int tut_check_f32_f64(const char *label, const float *got, const double *want, size_t n,
                      double atol, double rtol, tut_errors *errors)
{
    return check_real(label, got, at_f32, want, at_f64, n, atol, rtol, errors);
}

int tut_check_scalar(const char *label, double got, double want, double atol, double rtol)
{
    const int ok = element_ok(got, want, atol, rtol);
    printf("check %s: found %.17g, expected %.17g, abs err %.3g: %s\n", label, got, want,
           fabs(got - want), ok ? "ok" : "MISMATCH");
    return ok;
}

/* The integer checks differ only in the element type: one macro writes the three. */
#define DEFINE_EXACT_CHECK(name, type, fmt)                                                     \
    int name(const char *label, const type *got, const type *want, size_t n)                 \
    {                                                                                         \
        size_t bad = 0;                                                                       \
        for (size_t i = 0; i < n; ++i) {                                                      \
            if (got[i] != want[i]) {                                                          \
                if (bad < TUT_MAX_PRINTED_MISMATCHES)                                         \
                    printf("  %s mismatch at [%zu]: found %" fmt ", expected %" fmt "\n",     \
                           label, i, got[i], want[i]);                                        \
                ++bad;                                                                        \
            }                                                                                 \
        }                                                                                     \
        printf("check %s: %zu values, %zu differ: %s\n", label, n, bad, bad ? "MISMATCH" : "ok"); \
        return bad == 0;                                                                      \
    }

DEFINE_EXACT_CHECK(tut_check_i32, int32_t, PRId32)
DEFINE_EXACT_CHECK(tut_check_i64, int64_t, PRId64)
DEFINE_EXACT_CHECK(tut_check_u32, uint32_t, PRIu32)
DEFINE_EXACT_CHECK(tut_check_u64, uint64_t, PRIu64)

int tut_finish(int ok)
{
    printf("%s\n", ok ? "PASS" : "FAIL");
    fflush(stdout);
    return ok ? 0 : 1;
}
