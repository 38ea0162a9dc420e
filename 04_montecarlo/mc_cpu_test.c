/* CPU tests of the chapter's host code, run in CI without a GPU:
 *   exact      the closed-form integrals against Simpson's rule
 *   estimator  mean, the document's (b - a)/(n - 1), and the standard error on known sums
 *   reference  the CPU Monte Carlo within 4 standard errors for every integrand
 *   philox     Philox4x32-10 against the published known-answer vectors (Random123)
 *   packed     the packed conversion's fifth uniform: known values, and it takes each of its
 *              2^23 values once as the 23 bits no other uniform uses vary (independence)
 *   replay     the fused variant's streams: lengths, counts, estimates
 *   replay_power  the self-test's stream-by-stream replay check catches a stream drawn twice and
 *              a dropped sample, on the very problems `montecarlo --check` runs
 *   ranges     the option checks (b <= a, 0 inside 1/x's range, ...)
 *   config     every launch choice on every GPU of common/gpu_table.h
 *   registers  prints the table's fused-kernel registers (tests/registers_match.cmake) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tutorial.h"

#include "estimator.h"
#include "mc_config.h"
#include "philox_host.h"
#include "streams.h"
#include "unit_test.h"

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

/* 1/x near its pole: right runs are judged right, whatever their estimated standard error
 * (by 4 estimated standard errors alone, 1/x over [1e-6, 1] with 1000 samples judged about one
 * right run in three wrong); a result past Bernstein's bound (here 1e4 times the sum, whose
 * estimated standard error grows with it), and NaN, are still wrong. The
 * bound is wide there (about 1.4e4 for that case, the integral being 13.8): with so few
 * samples, nothing narrower holds. */
static int test_wide_range(void)
{
    const double near[2] = {1e-6, 1e-4};
    const unsigned long long sizes[2] = {1000, 10000};
    int ok = 1;
    for (int i = 0; i < 2; ++i)
        for (int k = 0; k < 2; ++k)
            for (unsigned long long seed = 1; seed <= 10; ++seed) {
                const mc_problem p = {MC_INV, near[i], 1.0, sizes[k], seed};
                mc_sums s = mc_cpu_sums(&p);
                ok &= mc_report("CPU, 1/x near 0", &p, &s, 4.0);
                const mc_sums far = {s.n, s.sum * 1e4, s.sum_sq * 1e8};
                const mc_sums nan = {s.n, NAN, s.sum_sq};
                if (mc_report("1e4 times the sum", &p, &far, 4.0) ||
                    mc_report("NaN", &p, &nan, 4.0)) {
                    printf("  FAILED: a wrong result judged right\n");
                    ok = 0;
                }
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
    /* The uniform conversions at their ends. */
    ok &= tut_check_scalar("curand uniform(0) = 2^-33", mc_uniform_curand(0), ldexp(1, -33), 0, 0);
    ok &= tut_check_scalar("curand uniform(2^32-1) = 1", mc_uniform_curand(0xffffffffu), 1.0, 0, 0);
    ok &= tut_check_scalar("bits uniform(0) = 0", mc_uniform_bits(0), 0.0, 0, 0);
    ok &= tut_check_scalar("bits uniform(2^32-1) = 1-2^-23", mc_uniform_bits(0xffffffffu),
                           1.0 - ldexp(1, -23), 0, 0);
    ok &= tut_check_scalar("shifted uniform(0) = 1", mc_uniform_shifted(0), 1.0, 0, 0);
    ok &= tut_check_scalar("shifted uniform(2^32-1) = 2-2^-23", mc_uniform_shifted(0xffffffffu),
                           2.0 - ldexp(1, -23), 0, 0);
    /* shifted's offset: x = (a - w) + w u is a + w (u - 1), with a - w rounded to float once */
    ok &= tut_check_scalar("shifted offset on [1, 2] = 0", mc_sample_offset(MC_UNIFORM_SHIFTED,
                                                                            1.0f, 1.0f), 0.0, 0, 0);
    ok &= tut_check_scalar("bits offset = a", mc_sample_offset(MC_UNIFORM_BITS, 2.0f, 1.0f), 2.0,
                           0, 0);
    return ok;
}

typedef uint32_t (*fifth_fn)(uint32_t x, uint32_t y, uint32_t z);

/* The 23 bits that packed's four shifted uniforms leave unused (x's low 9, y's low 9, z's low 5)
 * set to t, the other 105 bits of the call as given. */
static void set_free_bits(uint32_t t, uint32_t *x, uint32_t *y, uint32_t *z)
{
    *x = (*x & ~0x1ffu) | (t & 0x1ffu);
    *y = (*y & ~0x1ffu) | ((t >> 9) & 0x1ffu);
    *z = (*z & ~0x1fu) | (t >> 18);
}

/* 1 if, with the call's other bits fixed at (x, y, z), the fifth mantissa takes each of its 2^23
 * values exactly once as the free bits run through theirs: then, for uniform and independent
 * input bits, the fifth uniform is uniform and independent of the other four (which read none
 * of the free bits). */
static int fifth_is_bijection(fifth_fn fifth, uint32_t x, uint32_t y, uint32_t z)
{
    const uint32_t values = 1u << 23;
    unsigned char *seen = calloc(values / 8, 1);
    if (!seen) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    int ok = 1;
    for (uint32_t t = 0; t < values && ok; ++t) {
        uint32_t a = x, b = y, c = z;
        set_free_bits(t, &a, &b, &c);
        const uint32_t m = fifth(a, b, c);
        ok = m < values && !(seen[m / 8] & (1u << (m % 8)));
        if (ok)
            seen[m / 8] |= (unsigned char)(1u << (m % 8));
    }
    free(seen);
    return ok;
}

static uint32_t first_mantissa(uint32_t x, uint32_t y, uint32_t z)
{
    (void)y, (void)z;
    return x >> 9; /* the first shifted uniform's own bits: not free */
}

static uint32_t overlapping_fifth(uint32_t x, uint32_t y, uint32_t z)
{
    return (x + (y << 8) + (z << 18)) & 0x7fffffu; /* y shifted by 8: x's bit 8 and y's 0 meet */
}

/* A packed stream's (sum x^2, sum x^4) for x = u on [1, 2], written out here without
 * mc_packed_uniform: the lanes, the words each reads, the tail, the order of the adds. */
static mc_pair packed_squares_by_hand(unsigned long long seed, unsigned long long s, unsigned len)
{
    const uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    float sum[5] = {0, 0, 0, 0, 0}, sq[5] = {0, 0, 0, 0, 0};
    for (unsigned k = 0; 5 * k < len; ++k) {
        const uint32_t counter[4] = {k, 0, (uint32_t)s, (uint32_t)(s >> 32)};
        uint32_t r[4];
        mc_philox4x32_10(counter, key, r);
        const uint32_t mantissa[5] = {r[0] >> 9, r[1] >> 9, r[2] >> 9, r[3] >> 9,
                                      (r[0] + (r[1] << 9) + (r[2] << 18)) & 0x7fffffu};
        for (unsigned lane = 0; lane < 5 && 5 * k + lane < len; ++lane) {
            const uint32_t bits = 0x3f800000u | mantissa[lane];
            float u;
            memcpy(&u, &bits, sizeof u);
            const float f = u * u; /* x^2 at x = fmaf(1, u, 0) = u */
            sum[lane] += f;
            sq[lane] = fmaf(f, f, sq[lane]);
        }
    }
    const mc_pair pair = {(double)(((sum[0] + sum[1]) + (sum[2] + sum[3])) + sum[4]),
                          (double)(((sq[0] + sq[1]) + (sq[2] + sq[3])) + sq[4])};
    return pair;
}

static int test_packed(void)
{
    int ok = 1;
    ok &= tut_check_scalar("packed uniforms per call", mc_uniforms_per_call(MC_UNIFORM_PACKED), 5,
                           0, 0);
    ok &= tut_check_scalar("shifted uniforms per call", mc_uniforms_per_call(MC_UNIFORM_SHIFTED),
                           4, 0, 0);
    ok &= tut_check_scalar("fifth(0x1ff, 0, 0)", mc_fifth_mantissa(0x1ffu, 0, 0), 0x1ff, 0, 0);
    ok &= tut_check_scalar("fifth(0, 1, 0) = 2^9", mc_fifth_mantissa(0, 1, 0), 0x200, 0, 0);
    ok &= tut_check_scalar("fifth(0, 0, 1) = 2^18", mc_fifth_mantissa(0, 0, 1), 0x40000, 0, 0);
    ok &= tut_check_scalar("fifth(all ones)", mc_fifth_mantissa(~0u, ~0u, ~0u), 0x7bfdff, 0, 0);
    ok &= tut_check_scalar("fifth(0x12345678, 0x9abcdef0, 0x0fedcba9)",
                           mc_fifth_mantissa(0x12345678u, 0x9abcdef0u, 0x0fedcba9u), 0x163678, 0,
                           0);
    ok &= tut_check_scalar("packed offset on [1, 2] = 0",
                           mc_sample_offset(MC_UNIFORM_PACKED, 1.0f, 1.0f), 0.0, 0, 0);
    /* The fifth uniform's independence, at three settings of the other 105 bits. */
    tut_rng rng;
    tut_rng_seed(&rng, 11);
    int bijective = 1;
    for (int k = 0; k < 3; ++k) {
        const uint32_t x = (uint32_t)tut_rng_next(&rng), y = (uint32_t)tut_rng_next(&rng);
        const uint32_t z = (uint32_t)tut_rng_next(&rng);
        bijective &= fifth_is_bijection(mc_fifth_mantissa, x, y, z);
    }
    printf("fifth mantissa, each of 2^23 values once as the 23 free bits vary (3 settings of "
           "the rest): %s\n", bijective ? "ok" : "FAIL");
    ok &= bijective;
    /* The check can fail: a packing that reads another uniform's bits, or lets two free bits
     * meet, is not a bijection. */
    const int caught = !fifth_is_bijection(first_mantissa, 1, 2, 3) &&
                       !fifth_is_bijection(overlapping_fifth, 1, 2, 3);
    printf("the check refuses a fifth made of the first uniform's bits, and one with y shifted "
           "by 8: %s\n", caught ? "ok" : "FAIL");
    ok &= caught;
    /* The replay of packed streams against the same streams written out by hand (x^2 on [1, 2],
     * exact on both sides): every tail length 1-11, a full stream, two streams. */
    const unsigned lens[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 1023, 1024};
    const unsigned long long streams[] = {0, (1ull << 32) + 5};
    int same = 1;
    for (int i = 0; i < TUT_COUNT(streams); ++i)
        for (int l = 0; l < TUT_COUNT(lens); ++l) {
            const mc_problem p = {MC_SQUARE, 1.0, 2.0, 1ull << 20, 7};
            mc_pair replay, tol;
            mc_replay_stream(&p, MC_UNIFORM_PACKED, streams[i], lens[l], &replay, &tol);
            const mc_pair hand = packed_squares_by_hand(7, streams[i], lens[l]);
            same &= replay.sum == hand.sum && replay.sum_sq == hand.sum_sq && tol.sum == 0.0;
        }
    printf("packed replay = the streams written out by hand (x^2, 2 streams x 13 lengths): %s\n",
           same ? "ok" : "FAIL");
    ok &= same;
    /* For 1/x the tolerance grows with every sample, the fifth lane's included. */
    const mc_problem inv = {MC_INV, 1.0, 2.0, 1ull << 20, 7};
    mc_pair pair, tol4, tol5;
    mc_replay_stream(&inv, MC_UNIFORM_PACKED, 3, 4, &pair, &tol4);
    mc_replay_stream(&inv, MC_UNIFORM_PACKED, 3, 5, &pair, &tol5);
    const int grows = tol4.sum > 0.0 && tol5.sum > tol4.sum && tol5.sum_sq > tol4.sum_sq;
    printf("1/x, packed: the fifth sample adds to the tolerance (%.3g -> %.3g): %s\n", tol4.sum,
           tol5.sum, grows ? "ok" : "FAIL");
    ok &= grows;
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
        char label[32];
        snprintf(label, sizeof label, "replay, %s", mc_uniform_name((mc_uniform)u));
        ok &= mc_report(label, &p, &s, 4.0);
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

/* ---- sampling: ranges that float samples cannot integrate (mc_sampling_problem) ----------
 * 1/x near its pole: the range, whose float limits put a sample on x = 0 (montecarlo
 * printed inf), and ranges whose sample grid (steps of w 2^-23: the bits uniform never comes
 * within one step of the far end) biases the result by many standard errors. Each refusal says
 * what works, and what it says works is accepted. The bounded integrands are never refused.
 * curand's uniform (steps of 2^-32, montecarlo's states and library variants) is held to its own
 * grid: [1, 2] at 1e12 and 2e12 samples passes with it (bias ~6e-11), and at 2e12 is refused with
 * bits (~3e-8, 0.3 standard errors), where only fewer samples help. */
static int test_sampling(void)
{
    struct {
        mc_integrand f;
        double a, b;
        unsigned long long n;
        const char *want; /* a phrase of the message, or NULL when accepted */
        unsigned uniforms; /* 1u << mc_uniform of those drawn with (0: all) */
    } cases[] = {
        {MC_INV, -100, -1e-6, 1ull << 28, "reach x = 0", 0},
        {MC_INV, 1e-6, 100, 1ull << 28, "reach x = 0", 0}, /* shifted: a - w rounds to -100 */
        {MC_INV, 1e-3, 100, 1ull << 28, "standard errors", 0},
        {MC_INV, -100, -1e-3, 1ull << 28, "standard errors", 0},
        {MC_INV, 1e-4, 1000, 1000000, "standard errors", 0},
        {MC_INV, 1, 2, 1ull << 34, NULL, 0},
        {MC_INV, 2, 3, 1ull << 30, NULL, 0},
        {MC_INV, -2, -1, 1000000, NULL, 0},
        {MC_INV, 1e-6, 1e-5, 1000000, NULL, 0},
        {MC_INV, -100, -1, 1ull << 28, NULL, 0},
        {MC_SQUARE, -1e6, 1e6, 1ull << 34, NULL, 0},
        {MC_SIN, -3.14159, 3.14159, 1ull << 34, NULL, 0},
        {MC_CIRCLE, -1, 1, 1ull << 34, NULL, 0},
        {MC_ONE, 1e-6, 1e6, 1ull << 34, NULL, 0},
        {MC_INV, -1, 1, 1000, NULL, 0}, /* mc_range_problem's to refuse, not this check's */
        {MC_INV, 1, 2, 1000000000000ull, NULL, 1u << MC_UNIFORM_CURAND},
        {MC_INV, 1, 2, 2000000000000ull, NULL, 1u << MC_UNIFORM_CURAND},
        {MC_INV, 1, 2, 2000000000000ull, "standard errors", 1u << MC_UNIFORM_BITS},
        {MC_INV, 1, 2, 2000000000000ull, "standard errors", 0},
        {MC_INV, 1e-6, 100, 1ull << 28, "reach x = 0", 1u << MC_UNIFORM_SHIFTED},
        {MC_INV, -100, -1e-6, 1ull << 28, "reach x = 0", 1u << MC_UNIFORM_CURAND},
    };
    int ok = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char why[600] = "";
        const int refused = mc_sampling_problem(cases[i].f, cases[i].a, cases[i].b, cases[i].n,
                                                cases[i].uniforms, why, sizeof why);
        int good = cases[i].want ? refused && strstr(why, cases[i].want) != NULL : !refused;
        /* The range the message offers must be accepted. */
        const char *flag = strstr(why, cases[i].a < 0 ? "(--b " : "(--a ");
        if (refused && flag) {
            const double near = atof(flag + 5);
            const double a = cases[i].a < 0 ? cases[i].a : near;
            const double b = cases[i].a < 0 ? near : cases[i].b;
            char again[600];
            const int still = mc_sampling_problem(cases[i].f, a, b, cases[i].n,
                                                  cases[i].uniforms, again, sizeof again);
            printf("  offered [%g, %g]: %s\n", a, b, still ? again : "accepted");
            good &= !still;
        } else if (refused && !strstr(why, "draw fewer samples")) {
            good = 0; /* every refusal of these says what works */
        }
        printf("%-6s [%g, %g], %llu samples, uniforms %#x: %s  %s\n",
               mc_integrand_name(cases[i].f), cases[i].a, cases[i].b, cases[i].n,
               cases[i].uniforms, refused ? why : "accepted", good ? "ok" : "FAIL");
        ok &= good;
    }
    return ok;
}

/* ---- replay_power ---------------------------------------------------------------------------
 * The self-test (montecarlo --check, check_replay) compares every stream's pair from the GPU
 * with the replay's: equal for x^2, the circle and 1, within the replay's rounding bound for 1/x
 * and sin. Here, on the CPU, the same problems (seed, sizes, ranges) with the two bugs the
 * mutants plant: stream 1 drawn from stream 0's subsequence, and the last sample dropped. Both
 * must be caught; so must every other stream drawn twice and every stream's last sample dropped,
 * by at least one integrand. For comparison, the old check (totals within 1e-6 n + 2e-6 relative)
 * is scored on the same cases. */
#define CHECK_SEED TUT_DEFAULT_SEED /* montecarlo's default --seed */

/* Caught when a stream's pair moved by more than both tolerances allow. */
static int caught(mc_pair x, mc_pair tol_x, mc_pair y, mc_pair tol_y)
{
    return fabs(x.sum - y.sum) > tol_x.sum + tol_y.sum ||
           fabs(x.sum_sq - y.sum_sq) > tol_x.sum_sq + tol_y.sum_sq;
}

static int old_check_catches(double moved, double total, unsigned long long n)
{
    return fabs(moved) > 1e-6 * (double)n + 2e-6 * fabs(total);
}

static int test_replay_power(void)
{
    /* check_all's second range of each integrand (montecarlo.cu), where the replay runs */
    const double ranges[MC_INTEGRAND_COUNT][2] = {
        {2.0, 3.0}, {-1.0, 2.0}, {-1.0, 3.0}, {-0.5, 0.9}, {-3.0, 7.5}};
    const unsigned long long sizes[] = {1000003, 65537}; /* --check, and --check --samples 4K */
    int ok = 1;
    for (int z = 0; z < 2; ++z) {
        const unsigned long long n = sizes[z], count = mc_stream_count(n);
        /* per stream: caught by some integrand (duplicate of the stream before; last dropped) */
        unsigned char *dup_any = calloc(count, 1), *drop_any = calloc(count, 1);
        mc_pair *cpu = malloc(count * sizeof *cpu), *tol = malloc(count * sizeof *tol);
        if (!dup_any || !drop_any || !cpu || !tol) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
        printf("n = %llu (%llu streams): cases caught, new check / old check\n", n, count);
        printf("  %-14s %-26s %-26s %s\n", "problem", "stream s = stream s-1",
               "last sample of s dropped", "the mutants' cases");
        for (int i = 0; i < MC_INTEGRAND_COUNT; ++i) {
            for (int u = 0; u < MC_UNIFORM_COUNT; ++u) {
                const mc_problem p = {(mc_integrand)i, ranges[i][0], ranges[i][1], n, CHECK_SEED};
                const mc_sums total = mc_replay_streams(&p, (mc_uniform)u, cpu, tol);
                unsigned long long dup_new = 0, dup_old = 0, drop_new = 0, drop_old = 0;
                int mutant_dup = 0, mutant_drop = 0;
                for (unsigned long long s = 0; s < count; ++s) {
                    const unsigned len = mc_stream_length(n, s);
                    if (s > 0) { /* stream s drawn from subsequence s - 1, as the mutant does */
                        mc_pair twice, twice_tol;
                        mc_replay_stream(&p, (mc_uniform)u, s - 1, len, &twice, &twice_tol);
                        const int c = caught(twice, twice_tol, cpu[s], tol[s]);
                        dup_new += c;
                        dup_any[s] |= c;
                        dup_old += old_check_catches(twice.sum - cpu[s].sum, total.sum, n);
                        if (s == 1)
                            mutant_dup = c;
                    }
                    mc_pair shorter, shorter_tol;
                    mc_replay_stream(&p, (mc_uniform)u, s, len - 1, &shorter, &shorter_tol);
                    const int c = caught(shorter, shorter_tol, cpu[s], tol[s]);
                    drop_new += c;
                    drop_any[s] |= c;
                    drop_old += old_check_catches(shorter.sum - cpu[s].sum, total.sum, n);
                    if (s == count - 1)
                        mutant_drop = c;
                }
                char name[32];
                snprintf(name, sizeof name, "%s %s", mc_integrand_name(p.integrand),
                         mc_uniform_name((mc_uniform)u));
                char dup[32], drop[32];
                snprintf(dup, sizeof dup, "%llu/%llu / %llu", dup_new, count - 1, dup_old);
                snprintf(drop, sizeof drop, "%llu/%llu / %llu", drop_new, count, drop_old);
                printf("  %-14s %-26s %-26s %s, %s\n", name, dup, drop,
                       mutant_dup ? "stream 1 = 0 caught" : "stream 1 = 0 MISSED",
                       mutant_drop ? "last sample caught" : "last sample MISSED");
                /* A constant f cannot tell streams apart: its job is counting samples. */
                if (p.integrand != MC_ONE)
                    ok &= mutant_dup;
                /* Every integrand whose f is exact must catch the mutants' cases. */
                if (MC_EVAL_EXACT(p.integrand))
                    ok &= mutant_drop;
                if (p.integrand == MC_ONE)
                    ok &= drop_new == count; /* every dropped sample: exactly 1 less */
            }
        }
        unsigned long long dup_all = 0, drop_all = 0;
        for (unsigned long long s = 1; s < count; ++s)
            dup_all += dup_any[s];
        for (unsigned long long s = 0; s < count; ++s)
            drop_all += drop_any[s];
        printf("  by some integrand: %llu of %llu duplicated streams, %llu of %llu dropped "
               "samples\n", dup_all, count - 1, drop_all, count);
        ok &= dup_all == count - 1 && drop_all == count;
        free(tol);
        free(cpu);
        free(drop_any);
        free(dup_any);
    }
    return ok;
}

/* ---- config ---------------------------------------------------------------------------------
 * Registers per thread of the chapter's kernels, from `nvcc -Xptxas -v` of its sources (CUDA
 * 13.0, -O3; the numbers `cuobjdump --dump-resource-usage` reports for the built binary), for
 * each architecture of the default build. Every GPU is checked with every build's numbers (a
 * conservative superset); the table shows the build each GPU runs (sm_80 code runs on 8.6 and
 * 8.9; the V100, CUDA 12 builds only, with sm_70, is shown with sm_75's). */
typedef struct {
    const char *arch;
    int cc; /* 10 * major + minor of the oldest GPU that runs this code */
    int fused, reduce_values, reduce_partials, states_setup, states_sample, philox_only,
        philox_sum, fused_packed;
} kernel_registers;

static const kernel_registers compiled[] = {
    {"sm_75", 75, 74, 28, 24, 63, 26, 40, 42, 76},  {"sm_80", 80, 75, 26, 22, 31, 25, 30, 32, 72},
    {"sm_90", 90, 69, 24, 21, 31, 25, 30, 32, 78},  {"sm_100", 100, 64, 24, 22, 31, 26, 30, 31, 72},
    {"sm_120", 120, 64, 26, 22, 40, 26, 38, 35, 76},
};

static const kernel_registers *native_build(const tut_device_info *dev)
{
    const int cc = 10 * dev->major + dev->minor;
    const kernel_registers *best = &compiled[0];
    for (int k = 0; k < TUT_COUNT(compiled); ++k)
        if (compiled[k].cc <= cc && compiled[k].cc / 10 == dev->major)
            best = &compiled[k];
    return best;
}
#define BLOCK_SUM_SHARED 512 /* mc_block_sum's 32 double2 */


static int expect(const char *gpu, const char *what, int condition)
{
    if (!condition)
        printf("  FAILED on %s: %s\n", gpu, what);
    return condition;
}

static int check_gpu(const tut_device_info *dev, const kernel_registers *k, int print)
{
    const char *gpu = dev->name;
    int ok = 1;
    const unsigned long long n = 1ull << 32;
    const mc_launch fused = mc_fused_launch(dev, k->fused, BLOCK_SUM_SHARED, 0, n);
    const int best = tut_test_most_blocks_per_sm(dev, MC_FUSED_THREADS, k->fused, BLOCK_SUM_SHARED);
    ok &= expect(gpu, "fused: fits", best >= 1 && fused.blocks_per_sm >= 1);
    ok &= expect(gpu, "fused: the most blocks per SM that fit", fused.blocks_per_sm == best);
    ok &= expect(gpu, "fused: every SM", fused.blocks == (long long)best * dev->sm_count);
    ok &= expect(gpu, "fused: more than fit asked, the most that fit",
                 mc_fused_launch(dev, k->fused, BLOCK_SUM_SHARED, 64, n).blocks_per_sm == best);
    ok &= expect(gpu, "fused: 2 per SM asked, 2 given",
                 mc_fused_launch(dev, k->fused, BLOCK_SUM_SHARED, 2, n).blocks ==
                     2ll * dev->sm_count);
    ok &= expect(gpu, "fused: 4096 samples, one block",
                 mc_fused_launch(dev, k->fused, BLOCK_SUM_SHARED, 0, 4096).blocks == 1);
    /* packed's kernel of its own (launch bounds of at least 3 blocks of 256: 80 registers or
     * fewer) */
    const mc_launch packed = mc_fused_launch(dev, k->fused_packed, BLOCK_SUM_SHARED, 0, n);
    const int packed_best =
        tut_test_most_blocks_per_sm(dev, MC_FUSED_THREADS, k->fused_packed, BLOCK_SUM_SHARED);
    ok &= expect(gpu, "packed: the most blocks per SM that fit, on every SM",
                 packed_best >= 1 && packed.blocks_per_sm == packed_best &&
                     packed.blocks == (long long)packed_best * dev->sm_count);
    ok &= expect(gpu, "packed: at least 3 blocks of 256 per SM where 768 threads fit",
                 dev->max_threads_per_sm < 768 || packed.blocks_per_sm >= 3);
    int sweep[5], skipped;
    const int entries = mc_fused_sweep(fused.blocks_per_sm, sweep, &skipped);
    char sweep_text[32] = "";
    for (int e = 0; e < entries; ++e) {
        ok &= expect(gpu, "sweep entry fits", sweep[e] >= 1 && sweep[e] <= best);
        ok &= expect(gpu, "sweep ascending", e == 0 || sweep[e] > sweep[e - 1]);
        snprintf(sweep_text + strlen(sweep_text), sizeof sweep_text - strlen(sweep_text), "%s%d",
                 e ? "," : "", sweep[e]);
    }
    ok &= expect(gpu, "sweep ends at the most that fit", sweep[entries - 1] == best);
    const int candidates[] = {1, 2, 3, 4};
    int too_many = 0;
    for (int c = 0; c < 4; ++c) {
        int kept = 0;
        for (int e = 0; e < entries; ++e)
            kept |= sweep[e] == candidates[c];
        too_many += candidates[c] > best;
        ok &= expect(gpu, "sweep: 1, 2, 3 and 4 kept where they fit",
                     kept == (candidates[c] <= best));
    }
    ok &= expect(gpu, "sweep: the others counted as skipped", skipped == too_many);

    const mc_launch reduce = mc_full_wave(dev, MC_REDUCE_THREADS, k->reduce_values,
                                          BLOCK_SUM_SHARED);
    ok &= expect(gpu, "reduce_values: one full wave",
                 reduce.blocks == (long long)tut_test_most_blocks_per_sm(dev, MC_REDUCE_THREADS,
                                                                k->reduce_values,
                                                                BLOCK_SUM_SHARED) *
                                      dev->sm_count);
    const int partials = mc_partials_threads(dev, k->reduce_partials, BLOCK_SUM_SHARED);
    ok &= expect(gpu, "reduce_partials: 1024 threads", partials == 1024);
    ok &= expect(gpu, "states kernels fit",
                 tut_test_most_blocks_per_sm(dev, MC_STATES_THREADS, k->states_setup, 0) >= 1 &&
                     tut_test_most_blocks_per_sm(dev, MC_STATES_THREADS, k->states_sample, 0) >= 1);
    const mc_launch wide = mc_full_wave(dev, MC_CEILING_THREADS, k->philox_only, 0);
    const mc_launch lo = mc_full_wave(dev, MC_CEILING_THREADS, k->philox_sum, 0);
    ok &= expect(gpu, "Philox ceilings: one full wave",
                 wide.blocks == (long long)tut_test_most_blocks_per_sm(dev, MC_CEILING_THREADS,
                                                              k->philox_only, 0) *
                                    dev->sm_count &&
                     lo.blocks == (long long)tut_test_most_blocks_per_sm(dev, MC_CEILING_THREADS,
                                                                k->philox_sum, 0) *
                                      dev->sm_count);
    ok &= expect(gpu, "fused: at least 3 blocks of 256 per SM where 768 threads fit",
                 dev->max_threads_per_sm < 768 ||
                     mc_fused_launch(dev, k->fused, BLOCK_SUM_SHARED, 0, n).blocks_per_sm >= 3);
    /* The benchmark's memory: the largest chunk, and 2^24 states. */
    ok &= expect(gpu, "library chunk 2^28 fits",
                 mc_library_bytes(1ull << 28, n) + ((size_t)256 << 20) <= dev->total_bytes);
    ok &= expect(gpu, "2^24 states fit",
                 mc_states_bench_samples(dev->total_bytes, (size_t)256 << 20) == 1ull << 24);
    if (print)
        printf("  %-8s %-6s | %d x %3d = %4lld (%-9s) | %-8s | %6d | %5lld | %4d | %5lld\n", gpu,
               k->arch, fused.blocks_per_sm, dev->sm_count, fused.blocks, fused.limiter,
               sweep_text, packed.blocks_per_sm, reduce.blocks, partials, wide.blocks);
    return ok;
}

/* The table's fused-kernel registers, one line per architecture, for
 * tests/registers_match.cmake to compare with the built program's. */
static int print_registers(void)
{
    for (int k = 0; k < TUT_COUNT(compiled); ++k)
        printf("%s fused %d packed %d\n", compiled[k].arch, compiled[k].fused,
               compiled[k].fused_packed);
    return 1;
}

static int test_config(void)
{
    printf("  %-8s %-6s | %-27s | %-8s | %-6s | %-5s | %-4s | %s\n", "GPU", "build",
           "fused: per SM x SMs (2^32)", "sweep", "packed", "reduce", "sum", "ceiling");
    int ok = 1;
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        const tut_device_info *dev = tut_gpu_profile_at(i);
        for (int k = 0; k < TUT_COUNT(compiled); ++k)
            ok &= check_gpu(dev, &compiled[k], 0);
        ok &= check_gpu(dev, native_build(dev), 1);
    }
    /* Memory limits: 2^24 states need 872 MiB; a 512 MiB GPU gets 2^23. */
    ok &= expect("-", "states on 512 MiB: 2^22",
                 mc_states_bench_samples((size_t)512 << 20, (size_t)256 << 20) == 1ull << 22);
    ok &= expect("-", "states on 256 MiB: none",
                 mc_states_bench_samples((size_t)256 << 20, (size_t)256 << 20) == 0);
    /* One block of 1024 threads that cannot fit: 255 registers each. */
    ok &= expect("-", "partials: 255 registers, 256 threads",
                 mc_partials_threads(tut_gpu_profile("T4"), 255, BLOCK_SUM_SHARED) == 256);
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
    else if (!strcmp(group, "wide_range"))
        ok = test_wide_range();
    else if (!strcmp(group, "philox"))
        ok = test_philox();
    else if (!strcmp(group, "packed"))
        ok = test_packed();
    else if (!strcmp(group, "replay"))
        ok = test_replay();
    else if (!strcmp(group, "replay_power"))
        ok = test_replay_power();
    else if (!strcmp(group, "ranges"))
        ok = test_ranges();
    else if (!strcmp(group, "sampling"))
        ok = test_sampling();
    else if (!strcmp(group, "config"))
        ok = test_config();
    else if (!strcmp(group, "registers"))
        ok = print_registers();
    else {
        fprintf(stderr, "usage: montecarlo_cpu_test exact|estimator|reference|wide_range|philox|"
                        "packed|replay|replay_power|ranges|sampling|config|registers\n");
        return 2;
    }
    return tut_finish(ok);
}
