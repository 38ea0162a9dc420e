/* Giving a kernel the inputs it needs: zero-padded copies (sizes rounded up to a multiple, for
 * the kernels without bounds checks or with float4 rows) or pitched copies (cudaMallocPitch).
 * The copies are made before timing: the time of a variant is its kernel's alone. The copying
 * costs O(MK + KN + MN) against the product's O(MNK), and none is made when the sizes already
 * fit (every benchmark size is a multiple of 128). */
#ifndef MATMUL_LAYOUT_H
#define MATMUL_LAYOUT_H

#include "matmul.h"

typedef struct {
    matmul_args args;       /* what the kernel is launched with */
    int M, N;               /* the caller's sizes: the corner of args.C that is the result */
    float *A, *B, *C;       /* copies owned here (NULL: args point at the caller's matrices) */
} matmul_prepared;

/* Prepares dense row-major inputs (lda = K, ldb = N, ldc = N) for `layout`. With ld_extra > 0
 * (a multiple of 4) every operand is copied with rows that many floats longer than they need
 * (lda = K + ld_extra, ...), so that a kernel taking K for lda, or N for ldb or ldc, fails. */
void prepare_layout(const matmul_args *dense, matmul_layout layout, int ld_extra,
                    matmul_prepared *p);
/* Fills the result with NaN (bytes 0xFF), so that any element a kernel fails to write fails. */
void poison_result(const matmul_prepared *p);
/* Copies the M x N result into host memory, dense. */
void fetch_result(const matmul_prepared *p, float *c_host);
void release_layout(matmul_prepared *p);

#endif
