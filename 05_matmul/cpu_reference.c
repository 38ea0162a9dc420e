/* The float64 CPU reference every GPU result is checked against, and the tolerance it is checked
 * with. Plain C, so the CPU test program links it without a GPU. */
#include <float.h>
#include <math.h>
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
