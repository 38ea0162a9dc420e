/* CPU tests of the chapter's host code, run in CI without a GPU:
 *   exact      the closed-form integrals against Simpson's rule
 *   estimator  mean, the document's (b - a)/(n - 1), and the standard error on known sums
 *   reference  the CPU Monte Carlo within 4 standard errors for every integrand
 *   philox     Philox4x32-10 against the published known-answer vectors (Random123)
 *   replay     the fused variant's streams: lengths, counts, estimates
 *   ranges     the option checks (b <= a, 0 inside 1/x's range, ...) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tutorial.h"

#include "estimator.h"
#include "philox_host.h"
#include "streams.h"

static const double PI = 3.14159265358979323846;

/* Composite Simpson with m (even) intervals, on the float64 integrand. */
static double simpson(mc_integrand which, double a, double b, int m)
{
    /* f in float64 through the float evaluation would cost accuracy: redo it here. */
    double h = (b - a) / m, total = 0.0;
    for (int i = 0; i <= m; ++i) {
        const double x = a + i * h;
        double f;
        switch (which) {
        case MC_INV: f = 1.0 / x; break;
        case MC_SQUARE: f = x * x; break;
        case MC_SIN: f = sin(x); break;
        case MC_CIRCLE: f = 4.0 * sqrt(fmax(0.0, 1.0 - x * x)); break;
        default: f = 1.0; break;
        }
        total += f * (i == 0 || i == m ? 1.0 : (i % 2 ? 4.0 : 2.0));
    }
    return total * h / 3.0;
}

static int test_exact(void)
{
    int ok = 1;
    ok &= tut_check_scalar("ln 2 = exact(1/x, 1, 2)", mc_exact(MC_INV, 1, 2), log(2.0), 0, 1e-15);
    ok &= tut_check_scalar("ln 1.5 = exact(1/x, 2, 3)", mc_exact(MC_INV, 2, 3), log(1.5), 0, 1e-15);
    ok &= tut_check_scalar("pi = exact(circle, 0, 1)", mc_exact(MC_CIRCLE, 0, 1), PI, 0, 1e-15);
    ok &= tut_check_scalar("2 = exact(sin, 0, pi)", mc_exact(MC_SIN, 0, PI), 2.0, 0, 1e-15);
    ok &= tut_check_scalar("1/3 = exact(x^2, 0, 1)", mc_exact(MC_SQUARE, 0, 1), 1.0 / 3, 0, 1e-15);
    ok &= tut_check_scalar("-1 negative range of 1/x", mc_exact(MC_INV, -3, -1), -log(3.0), 0,
                           1e-15);
    const double ranges[][2] = {{1, 2}, {0.25, 7}, {-1, 2}, {-2, 3}, {-0.5, 0.9}, {-3, 7.5}};
    for (int i = 0; i < MC_INTEGRAND_COUNT; ++i) {
        for (int r = 0; r < 6; ++r) {
            const double a = ranges[r][0], b = ranges[r][1];
            if (mc_range_problem((mc_integrand)i, a, b))
                continue;
            /* The circle's square-root edge converges slowly under Simpson: loose tolerance. */
            const double rtol = i == MC_CIRCLE ? 1e-6 : 1e-10;
            char label[80];
            snprintf(label, sizeof label, "%s over [%g, %g] vs Simpson", mc_integrand_name(i), a,
                     b);
            ok &= tut_check_scalar(label, mc_exact((mc_integrand)i, a, b),
                                   simpson((mc_integrand)i, a, b, 2000000), 1e-9, rtol);
        }
    }
    return ok;
}

static int test_estimator(void)
{
    /* f = 1, 2, 3, 4 on [0, 2]: mean 2.5, sample variance 5/3. */
    const mc_sums s = {4, 10.0, 30.0};
    const mc_result r = mc_finish(&s, 0.0, 2.0);
    int ok = 1;
    ok &= tut_check_scalar("estimate (b-a)/n sum", r.estimate, 5.0, 0, 1e-15);
    ok &= tut_check_scalar("document (b-a)/(n-1) sum", r.doc_estimate, 20.0 / 3.0, 0, 1e-15);
    ok &= tut_check_scalar("standard error", r.std_error, 2.0 * sqrt(5.0 / 3.0 / 4.0), 0, 1e-15);
    ok &= tut_check_scalar("sigmas", mc_sigmas(&r, 5.5), 0.5 / r.std_error, 0, 1e-15);
    /* The constant integrand: no spread, the estimate must be exact. */
    const mc_sums c = {1000, 1000.0, 1000.0};
    const mc_result rc = mc_finish(&c, 1.0, 4.0);
    ok &= tut_check_scalar("constant: estimate", rc.estimate, 3.0, 0, 1e-15);
    ok &= tut_check_scalar("constant: error bar", rc.std_error, 0.0, 0, 0);
    ok &= tut_check_scalar("constant: sigmas", mc_sigmas(&rc, 3.0), 0.0, 0, 0);
    ok &= mc_sigmas(&rc, 3.1) > 1e300; /* off by anything: infinitely many error bars */
    const mc_sums nan_sums = {4, NAN, 30.0};
    const mc_result rn = mc_finish(&nan_sums, 0.0, 2.0);
    ok &= !(mc_sigmas(&rn, 5.0) <= 4.0); /* NaN never passes */
    printf("constant and NaN cases: %s\n", ok ? "ok" : "FAIL");
    return ok;
}

static int test_reference(void)
{
    int ok = 1;
    for (int i = 0; i < MC_INTEGRAND_COUNT; ++i) {
        mc_problem p = {(mc_integrand)i, 0.0, 1.0, 1000000, TUT_DEFAULT_SEED};
        if (i == MC_INV)
            p.a = 1.0, p.b = 2.0;
        if (i == MC_SIN)
            p.b = PI;
        const mc_sums s = mc_cpu_sums(&p);
        ok &= mc_report("CPU xoshiro256**", &p, &s, 4.0);
    }
    return ok;
}

static int test_philox(void)
{
    /* Known-answer vectors of Philox4x32-10 from Random123 (kat_vectors). */
    const uint32_t kat[3][10] = {
        {0, 0, 0, 0, 0, 0, 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8},
        {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0x408f276d,
         0x41c83b0e, 0xa20bc7c6, 0x6d5451fd},
        {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0, 0xd16cfe09,
         0x94fdcceb, 0x5001e420, 0x24126ea1},
    };
    int ok = 1;
    for (int v = 0; v < 3; ++v) {
        uint32_t out[4];
        mc_philox4x32_10(kat[v], kat[v] + 4, out);
        char label[48];
        snprintf(label, sizeof label, "Philox4x32-10 known answer %d", v);
        ok &= tut_check_u32(label, out, kat[v] + 6, 4);
    }
    /* The two uniform conversions at their ends. */
    ok &= tut_check_scalar("curand uniform(0) = 2^-33", mc_uniform_curand(0), ldexp(1, -33), 0, 0);
    ok &= tut_check_scalar("curand uniform(2^32-1) = 1", mc_uniform_curand(0xffffffffu), 1.0, 0, 0);
    ok &= tut_check_scalar("bits uniform(0) = 0", mc_uniform_bits(0), 0.0, 0, 0);
    ok &= tut_check_scalar("bits uniform(2^32-1) = 1-2^-23", mc_uniform_bits(0xffffffffu),
                           1.0 - ldexp(1, -23), 0, 0);
    return ok;
}

static int test_replay(void)
{
    int ok = 1;
    /* Stream lengths at the edges, including n past 2^32 (64-bit arithmetic). */
    const unsigned long long L = MC_STREAM_SAMPLES, big = (1ull << 40) + 5;
    ok &= mc_stream_count(L) == 1 && mc_stream_length(L, 0) == L;
    ok &= mc_stream_count(L + 1) == 2 && mc_stream_length(L + 1, 1) == 1;
    ok &= mc_stream_count(2) == 1 && mc_stream_length(2, 0) == 2;
    ok &= mc_stream_count(big) == (1ull << 30) + 1 && mc_stream_length(big, 1ull << 30) == 5;
    ok &= mc_stream_length(big, (1ull << 30) - 1) == L;
    printf("stream counts and lengths (n up to 2^40 + 5): %s\n", ok ? "ok" : "FAIL");
    /* With f = 1 the replay must count every sample exactly once. */
    const unsigned long long sizes[] = {2, 3, 5, 1023, 1025, 4097, 65537};
    for (int k = 0; k < 7; ++k) {
        const mc_problem p = {MC_ONE, 0.0, 1.0, sizes[k], 7};
        for (int u = 0; u < MC_UNIFORM_COUNT; ++u) {
            const mc_sums s = mc_replay_fused(&p, (mc_uniform)u);
            if (s.sum != (double)sizes[k] || s.sum_sq != (double)sizes[k]) {
                printf("replay counted %.17g samples, want %llu  FAIL\n", s.sum, sizes[k]);
                ok = 0;
            }
        }
    }
    printf("replay sample counts: %s\n", ok ? "ok" : "FAIL");
    /* The fused variant's streams give a correct estimate (here, on the CPU). */
    for (int u = 0; u < MC_UNIFORM_COUNT; ++u) {
        const mc_problem p = {MC_INV, 1.0, 2.0, 1000003, TUT_DEFAULT_SEED};
        const mc_sums s = mc_replay_fused(&p, (mc_uniform)u);
        ok &= mc_report(u ? "replay, bits" : "replay, curand", &p, &s, 4.0);
    }
    return ok;
}

static int test_ranges(void)
{
    struct {
        mc_integrand f;
        double a, b;
        const char *want; /* a word of the message, or NULL for valid */
    } cases[] = {
        {MC_INV, 1, 2, NULL},         {MC_INV, 2, 1, "greater"},       {MC_INV, 1, 1, "greater"},
        {MC_INV, -1, 1, "contains 0"}, {MC_INV, 0, 1, "contains 0"},   {MC_INV, -2, -1, NULL},      {MC_INV, 1e-7, 1, "1e-6"},
        {MC_CIRCLE, 0, 1, NULL},      {MC_CIRCLE, 0, 1.5, "-1 <= a"}, {MC_SIN, 0, 3.2, "pi"},
        {MC_SQUARE, -1e7, 1, "1e6"},  {MC_SQUARE, 1000, 1000.01, "narrow"},
    };
    int ok = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const char *msg = mc_range_problem(cases[i].f, cases[i].a, cases[i].b);
        const int good = cases[i].want ? (msg && strstr(msg, cases[i].want)) : msg == NULL;
        printf("%-6s [%g, %g]: %s  %s\n", mc_integrand_name(cases[i].f), cases[i].a, cases[i].b,
               msg ? msg : "valid", good ? "ok" : "FAIL");
        ok &= good;
    }
    return ok;
}

int main(int argc, char **argv)
{
    const char *group = argc > 1 ? argv[1] : "";
    int ok;
    if (!strcmp(group, "exact"))
        ok = test_exact();
    else if (!strcmp(group, "estimator"))
        ok = test_estimator();
    else if (!strcmp(group, "reference"))
        ok = test_reference();
    else if (!strcmp(group, "philox"))
        ok = test_philox();
    else if (!strcmp(group, "replay"))
        ok = test_replay();
    else if (!strcmp(group, "ranges"))
        ok = test_ranges();
    else {
        fprintf(stderr, "usage: montecarlo_cpu_test exact|estimator|reference|philox|replay|ranges\n");
        return 2;
    }
    return tut_finish(ok);
}
