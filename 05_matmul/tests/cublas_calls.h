/* Whether the student's launcher computed the product with cuBLAS (ex05.2's and ex05.3's
 * own_kernel case). cuBLAS does the product at its own speed, above every bar, so neither the
 * values nor the speed can tell; but every use of it starts with a handle (cublasCreate,
 * cublasXtCreate for cublasXt, cublasLtCreate for cuBLASLt) or, in the legacy API, with
 * cublasInit or a call without one (cublasSgemm of cublas.h). The graders are linked with --wrap
 * of those five
 * (05_matmul/CMakeLists.txt): each call, from any file,
 * passes through cublas_calls.c and is counted. A case process of the grader calls none (its
 * own cuBLAS, the speed's yardstick, runs in --speed only, where its one handle is subtracted).
 * Grader-only. */
#ifndef MATMUL_CUBLAS_CALLS_H
#define MATMUL_CUBLAS_CALLS_H

#ifdef __cplusplus
extern "C" {
#endif

/* The calls counted so far in this process. */
int cublas_calls(void);

/* The case's verdict, printed: 1 if no cuBLAS call was counted; 0 (FAIL, saying what was
 * called and what the exercise asks: `lesson`) if one was. */
int cublas_calls_grade(const char *launcher, const char *lesson);

/* The speed test's verdict, after it ran (its product is larger than every case's, so a launcher
 * that calls cuBLAS only for large products is seen there): `before` is cublas_calls() before
 * the test, `own` the calls the grader's yardstick made itself (its one handle); 1 if the
 * launcher made none beyond those, 0 (FAIL, as above) if it did. */
int cublas_calls_grade_speed(int before, int own, const char *launcher, const char *lesson);

#ifdef __cplusplus
}
#endif

#endif
