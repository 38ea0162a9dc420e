/* The CPU reference against answers known without it: the documents' examples, a hand-worked
 * product, sampled rows equal to the full product, and the tolerance rule catching a lost term.
 * Runs in CI (no GPU). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "compare.h"
#include "matmul.h"
#include "rng.h"

/* arange(M*K) as M x K times ones K x N: row i is the sum of K integers from i*K, in every
 * column: the 4x4 case gives 6, 22, 38, 54 and the 5x23x7 case 253, 782, 1311, 1840, 2369. */
static int check_arange_ones(int M, int K, int N, const double *want_rows)
{
    float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N);
    double *C = malloc(sizeof(double) * M * N), *want = malloc(sizeof(double) * M * N);
    for (int i = 0; i < M * K; ++i)
        A[i] = (float)i;
    for (int i = 0; i < K * N; ++i)
        B[i] = 1.0f;
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j)
            want[i * N + j] = want_rows[i];
    cpu_matmul_f64(M, N, K, A, B, C, 0, M);
    char label[64];
    snprintf(label, sizeof label, "arange(%d) as %dx%d times ones %dx%d", M * K, M, K, K, N);
    const int ok = tut_check_f64(label, C, want, (size_t)M * N, 0.0, 0.0, NULL);
    free(A);
    free(B);
    free(C);
    free(want);
    return ok;
}

/* The 3xTF32 split as the GPU does it (12_mma_tf32.cu, split_tf32): big rounded to nearest,
 * small = x - big, which the tensor core then truncates to TF32. */
static void split3(float x, float *big, float *small)
{
    *big = matmul_round_tf32(x);
    *small = matmul_truncate_tf32(x - *big);
}

/* The TF32 rules on the CPU: rounding, the bound a TF32 product must meet (and a lost term or a
 * NaN must not), 3xTF32 within the FP32 tolerance and a 3xTF32 without a_small b_big outside. */
static int check_tf32_rules(void)
{
    int ok = 1;
    /* Rounding: 1 + 2^-11 is halfway between two TF32 values (ties away: up), 1 + 2^-12 rounds
     * down; truncation drops both; infinities and NaN are unchanged. */
    const float half = 1.0f + 0x1p-11f, below = 1.0f + 0x1p-12f;
    ok &= tut_check_scalar("tf32(1 + 2^-11)", matmul_round_tf32(half), 1.0 + 0x1p-10, 0, 0);
    ok &= tut_check_scalar("tf32(1 + 2^-12)", matmul_round_tf32(below), 1.0, 0, 0);
    ok &= tut_check_scalar("trunc(1 + 2^-11)", matmul_truncate_tf32(half), 1.0, 0, 0);
    ok &= tut_check_scalar("tf32(-3.14159274)", matmul_round_tf32(-3.14159274f), -3.140625, 0, 0);
    ok &= tut_check_scalar("tf32(inf)", matmul_round_tf32(INFINITY), INFINITY, 0, 0);
    ok &= tut_check_scalar("tf32(NaN) is NaN", isnan(matmul_round_tf32(NAN)), 1, 0, 0);
    /* Ties to even: 1 + 2^-11 goes down to 1 (kept part even), 1 + 3 2^-11 up to 1 + 2^-9 (odd). */
    ok &= tut_check_scalar("tf32_even(1 + 2^-11)", matmul_round_tf32_even(half), 1.0, 0, 0);
    ok &= tut_check_scalar("tf32_even(1 + 3 2^-11)", matmul_round_tf32_even(1.0f + 0x3p-11f),
                           1.0 + 0x1p-9, 0, 0);
    ok &= tut_check_scalar("tf32_even(1 + 2^-12)", matmul_round_tf32_even(below), 1.0, 0, 0);
    ok &= tut_check_scalar("tf32_even(FLT_MAX)", matmul_round_tf32_even(FLT_MAX), INFINITY, 0, 0);

    /* A product emulating the tensor cores (inputs truncated: the worst conversion, summed in
     * float) at the tests' odd sizes passes the bound; with one term lost, or one result NaN, it
     * fails. The same for 3xTF32 against the FP32 tolerance, and a two-term 3xTF32 fails it. */
    enum { M = 33, K = 65, N = 17 };
    static float a[M * K], b[K * N], abs_prod[M * N], c_tf32[M * N], c_lost[M * N];
    static float c3[M * N], c2[M * N];
    static double ref[M * N];
    tut_rng rng;
    tut_rng_seed(&rng, TUT_DEFAULT_SEED + 15);
    tut_rng_fill_f32(&rng, a, M * K, -1.0f, 1.0f);
    tut_rng_fill_f32(&rng, b, K * N, -1.0f, 1.0f);
    cpu_matmul_f64(M, N, K, a, b, ref, 0, M);
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            float t = 0.0f, lost = 0.0f, three = 0.0f, two = 0.0f, abs_sum = 0.0f;
            for (int k = 0; k < K; ++k) {
                const float x = a[i * K + k], y = b[k * N + j];
                const float p = matmul_truncate_tf32(x) * matmul_truncate_tf32(y);
                t += p;
                if (k != K / 3)
                    lost += p;
                float xb, xs, yb, ys;
                split3(x, &xb, &xs);
                split3(y, &yb, &ys);
                three += xs * yb + xb * ys + xb * yb;
                two += xb * ys + xb * yb;
                abs_sum += fabsf(x * y);
            }
            c_tf32[i * N + j] = t;
            c_lost[i * N + j] = lost;
            c3[i * N + j] = three;
            c2[i * N + j] = two;
            abs_prod[i * N + j] = abs_sum;
        }
    }
    const size_t n = (size_t)M * N;
    const double bound = matmul_tf32_bound(K) * (1.0 + K * 0x1p-23);
    ok &= matmul_check_scaled("emulated TF32 33x65x17 within its bound", c_tf32, ref, NULL,
                              abs_prod, n, bound, NULL);
    const int lost_passes = matmul_check_scaled("TF32 with one term lost (must mismatch)", c_lost,
                                                ref, NULL, abs_prod, n, bound, NULL);
    ok &= tut_check_scalar("the lost TF32 term is caught", !lost_passes, 1, 0, 0);
    c_tf32[7] = NAN;
    const int nan_passes = matmul_check_scaled("TF32 with a NaN (must mismatch)", c_tf32, ref,
                                               NULL, abs_prod, n, bound, NULL);
    ok &= tut_check_scalar("the NaN is caught", !nan_passes, 1, 0, 0);
    /* The bound itself: about 2^-9 + K 2^-23, a few parts in a thousand. */
    ok &= tut_check_scalar("tf32 bound at K = 65", matmul_tf32_bound(65), 0.00196, 1e-5, 0);

    const double atol = matmul_atol(K, 1.0), rtol = 4.0 * sqrt((double)K) * 1.1920929e-7;
    ok &= tut_check_f32_f64("emulated 3xTF32 within the FP32 tolerance", c3, ref, n, atol, rtol,
                            NULL);
    const int two_passes = tut_check_f32_f64("3xTF32 without a_small b_big (must mismatch)", c2,
                                             ref, n, atol, rtol, NULL);
    ok &= tut_check_scalar("the missing 3xTF32 term is caught", !two_passes, 1, 0, 0);
    return ok;
}

int main(void)
{
    int ok = 1;
    const double rows4[] = {6, 22, 38, 54};
    const double rows5[] = {253, 782, 1311, 1840, 2369};
    ok &= check_arange_ones(4, 4, 4, rows4);
    ok &= check_arange_ones(5, 23, 7, rows5);

    /* [1 2 3; 4 5 6] (2x3) times [7 8; 9 10; 11 12] (3x2) = [58 64; 139 154]. */
    const float A[] = {1, 2, 3, 4, 5, 6}, B[] = {7, 8, 9, 10, 11, 12};
    const double want[] = {58, 64, 139, 154};
    double C[4];
    cpu_matmul_f64(2, 2, 3, A, B, C, 0, 2);
    ok &= tut_check_f64("2x3 times 3x2 by hand", C, want, 4, 0.0, 0.0, NULL);

    /* One row computed alone equals that row of the full product (the sampled-row check). */
    enum { M = 37, K = 53, N = 29 };
    static float a[M * K], b[K * N];
    static double full[M * N], row[N];
    tut_rng rng;
    tut_rng_seed(&rng, TUT_DEFAULT_SEED);
    tut_rng_fill_f32(&rng, a, M * K, -1.0f, 1.0f);
    tut_rng_fill_f32(&rng, b, K * N, -1.0f, 1.0f);
    cpu_matmul_f64(M, N, K, a, b, full, 0, M);
    cpu_matmul_f64(M, N, K, a, b, row, 17, 18);
    ok &= tut_check_f64("row 17 alone", row, full + 17 * N, N, 0.0, 0.0, NULL);

    /* The tolerance: a float32 product passes, the same product with one term lost fails. */
    float got[N], lost[N];
    for (int j = 0; j < N; ++j) {
        float s = 0.0f, s_lost = 0.0f;
        for (int k = 0; k < K; ++k) {
            s += a[3 * K + k] * b[k * N + j];
            if (k != K / 2)
                s_lost += a[3 * K + k] * b[k * N + j];
        }
        got[j] = s;
        lost[j] = s_lost;
    }
    const double atol = matmul_atol(K, 1.0), rtol = 4.0 * sqrt((double)K) * 1.1920929e-7;
    ok &= tut_check_f32_f64("float32 row 3 within tolerance", got, full + 3 * N, N, atol, rtol,
                            NULL);
    const int lost_passes = tut_check_f32_f64("row 3 with one term lost (must mismatch)", lost,
                                              full + 3 * N, N, atol, rtol, NULL);
    ok &= tut_check_scalar("the lost term is caught", !lost_passes, 1, 0, 0);
    ok &= check_tf32_rules();
    return tut_finish(ok);
}
