/* The float64 CPU reference every GPU result is checked against, and the tolerance it is checked
 * with. Plain C, so the CPU test program links it without a GPU. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "matmul.h"

/* i-k-j order: the inner loop walks a row of B and a row of C with unit stride, which is what
 * the CPU's caches and vector units want (the i-j-k order strides down a column of B). */
void cpu_matmul_f64(int M, int N, int K, const float *A, const float *B, double *C, int row_begin,
                    int row_end)
{
    (void)M;
    for (int i = row_begin; i < row_end; ++i) {
        double *c = C + (size_t)(i - row_begin) * N;
        memset(c, 0, sizeof(double) * (size_t)N);
        for (int k = 0; k < K; ++k) {
            const double a = A[(size_t)i * K + k];
            const float *b = B + (size_t)k * N;
            for (int j = 0; j < N; ++j)
                c[j] += a * b[j];
        }
    }
}

/* A float32 dot product of K terms, each at most max_abs_input^2, summed in any order, stays
 * within about sqrt(K) * eps * (size of the terms) of the exact value in practice; the worst
 * case grows like K * eps. We allow 8 K eps: several times what a correct kernel shows (the
 * precision table in the docs), and far below what a lost or doubled term costs. */
double matmul_atol(int K, double max_abs_input)
{
    return 8.0 * (double)K * FLT_EPSILON * max_abs_input * max_abs_input;
}

/* ---- TF32 (steps 11-12) ------------------------------------------------------------------ */

static uint32_t bits_of(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float float_of(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* TF32 keeps the sign, the 8 exponent bits and the top 10 of the 23 mantissa bits. Rounding to
 * nearest (ties away from zero, as cvt.rna.tf32.f32) adds half of the dropped part's unit and
 * drops the 13 low bits; infinities and NaN are left alone (a NaN stays a NaN). */
float matmul_round_tf32(float x)
{
    if (!isfinite(x))
        return x;
    return float_of((bits_of(x) + 0x1000u) & 0xffffe000u);
}

/* The same with ties to even, as TMA rounds through a TF32 tensor map (step 13): adds just under
 * half of the dropped part's unit, and one more when the kept part is odd. */
float matmul_round_tf32_even(float x)
{
    if (!isfinite(x))
        return x;
    const uint32_t u = bits_of(x);
    return float_of((u + 0xfffu + ((u >> 13) & 1u)) & 0xffffe000u);
}

float matmul_truncate_tf32(float x)
{
    if (!isfinite(x))
        return x;
    return float_of(bits_of(x) & 0xffffe000u);
}

/* A TF32 product of K terms against the exact one, element by element:
 *   inputs: a' = a (1 + da), |da| <= u = 2^-10 (truncated: the worst any conversion does; cvt.rna
 *           rounds to nearest, 2^-11; cuBLAS does not say how it converts);
 *   product of the converted inputs: exact in the tensor core (10 + 10 bits fit in FP32's 23);
 *   sum: K terms in FP32, each addition off by at most 2^-23 relative (truncating adders) of the
 *        partial sum, which is at most the sum of |terms|: gamma = K 2^-23 / (1 - K 2^-23).
 * So |c - exact| <= ((1 + u)^2 (1 + gamma) - 1) (|A| |B|)_ij: about 2^-9 + K 2^-23. A lost or
 * doubled term is a whole |a_ik b_kj|, caught wherever it stands out of the bound's share of
 * (|A||B|)_ij: at every size the tests run (tests/matmul_cpu_test.c). */
double matmul_tf32_bound(int K)
{
    const double u = ldexp(1.0, -10), k_u = (double)K * ldexp(1.0, -23);
    const double gamma = k_u < 0.5 ? k_u / (1.0 - k_u) : 1.0;
    return (1.0 + u) * (1.0 + u) * (1.0 + gamma) - 1.0;
}

int matmul_check_scaled(const char *label, const float *got, const double *want64,
                        const float *want32, const float *scale, size_t n, double bound,
                        tut_errors *out)
{
    tut_errors e = {n, 0, n, 0.0, 0.0, 0.0};
    double rel_sum = 0.0, worst = 0.0;
    size_t rel_count = 0;
    for (size_t i = 0; i < n; ++i) {
        const double want = want64 ? want64[i] : (double)want32[i];
        const double err = fabs((double)got[i] - want), allowed = bound * (double)scale[i];
        if (!(err <= allowed)) { /* NaN in got, want or scale fails too */
            if (e.mismatches < 5)
                printf("  %s mismatch at [%zu]: found %.9g, expected %.9g, allowed error %.3g\n",
                       label, i, (double)got[i], want, allowed);
            if (e.mismatches == 0)
                e.first_bad = i;
            ++e.mismatches;
        }
        if (isnan(err) || err > e.max_abs_err)
            e.max_abs_err = err;
        if (allowed > 0.0 && err / allowed > worst)
            worst = err / allowed;
        if (want != 0.0 && !isnan(err)) {
            const double rel = err / fabs(want);
            rel_sum += rel;
            ++rel_count;
            if (rel > e.max_rel_err)
                e.max_rel_err = rel;
        }
    }
    e.mean_rel_err = rel_count ? rel_sum / (double)rel_count : 0.0;
    printf("check %s: %zu values, max abs err %.3g, max rel err %.3g, mean rel err %.3g, "
           "largest error %.2g of its bound: %s", label, n, e.max_abs_err, e.max_rel_err,
           e.mean_rel_err, worst, e.mismatches ? "MISMATCH" : "ok");
    if (e.mismatches)
        printf(" (%zu of %zu outside %.3g x (|A||B|)_ij)", e.mismatches, n, bound);
    printf("\n");
    if (out)
        *out = e;
    return e.mismatches == 0;
}
