/* Checking GPU results against a CPU reference.
 *
 * An element passes when |got - want| <= atol + rtol * |want|. NaN or infinity in `got` (where
 * `want` is finite) always fails: a plain `diff > tol` test lets NaN through, since every
 * comparison with NaN is false. Each check prints one line with the maximum absolute error and
 * the maximum and mean relative errors, and, when it fails, the first mismatches as
 * index / found / expected. It returns 1 for pass, 0 for fail; the program ends with
 *
 *   return tut_finish(ok);     // prints PASS or FAIL, returns exit code 0 or 1 */
#ifndef TUTORIAL_COMPARE_H
#define TUTORIAL_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t count;        /* elements compared */
    size_t mismatches;   /* elements outside tolerance (NaN included) */
    size_t first_bad;    /* index of the first mismatch (count if none) */
    double max_abs_err;  /* over all elements */
    double max_rel_err;  /* |got - want| / |want|, over elements with want != 0 */
    double mean_rel_err; /* mean of the same */
} tut_errors;

/* How many mismatches are printed at most. */
#define TUT_MAX_PRINTED_MISMATCHES 5

int tut_check_f64(const char *label, const double *got, const double *want, size_t n,
                  double atol, double rtol, tut_errors *errors);
int tut_check_f32(const char *label, const float *got, const float *want, size_t n, double atol,
                  double rtol, tut_errors *errors);
/* float results against a float64 reference: the usual case. */
int tut_check_f32_f64(const char *label, const float *got, const double *want, size_t n,
                      double atol, double rtol, tut_errors *errors);
/* Integers must match exactly. */
int tut_check_i32(const char *label, const int32_t *got, const int32_t *want, size_t n);
int tut_check_i64(const char *label, const int64_t *got, const int64_t *want, size_t n);
int tut_check_u32(const char *label, const uint32_t *got, const uint32_t *want, size_t n);
int tut_check_u64(const char *label, const uint64_t *got, const uint64_t *want, size_t n);

/* One scalar, e.g. a sum: same rule as the arrays. */
int tut_check_scalar(const char *label, double got, double want, double atol, double rtol);

/* Prints "PASS" or "FAIL" as the program's last line; returns the exit code (0 or 1). */
int tut_finish(int ok);

#ifdef __cplusplus
}
#endif

#endif
