/* The CPU reference against answers known without it: the documents' examples, a hand-worked
 * product, sampled rows equal to the full product, and the tolerance rule catching a lost term.
 * Runs in CI (no GPU). */
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
    return tut_finish(ok);
}
