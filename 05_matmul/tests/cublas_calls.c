/* cuBLAS calls counted through the linker's --wrap (cublas_calls.h). */
#include "cublas_calls.h"

#include <stdio.h>

#include <cublas_v2.h>

static int calls;
static const char *first_call;

static void count(const char *name)
{
    if (calls++ == 0)
        first_call = name;
}

cublasStatus_t __real_cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t __wrap_cublasCreate_v2(cublasHandle_t *handle)
{
    count("cublasCreate");
    return __real_cublasCreate_v2(handle);
}

/* The legacy API (cublas.h), declared here: cublas.h and cublas_v2.h cannot both be included. */
cublasStatus_t __real_cublasInit(void);
cublasStatus_t __wrap_cublasInit(void)
{
    count("cublasInit");
    return __real_cublasInit();
}

void __real_cublasSgemm(char transa, char transb, int m, int n, int k, float alpha,
                        const float *A, int lda, const float *B, int ldb, float beta, float *C,
                        int ldc);
void __wrap_cublasSgemm(char transa, char transb, int m, int n, int k, float alpha,
                        const float *A, int lda, const float *B, int ldb, float beta, float *C,
                        int ldc)
{
    count("cublasSgemm (the legacy API)");
    __real_cublasSgemm(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

/* cublasXt (cublasXt.h: a product spread over the GPUs): its handle, declared here. */
typedef struct cublasXtContext *xt_handle;
cublasStatus_t __real_cublasXtCreate(xt_handle *handle);
cublasStatus_t __wrap_cublasXtCreate(xt_handle *handle)
{
    count("cublasXtCreate");
    return __real_cublasXtCreate(handle);
}

/* cuBLASLt (cublasLt.h: cublasLtMatmul, with its own handle), declared here. */
typedef struct cublasLtContext *lt_handle;
cublasStatus_t __real_cublasLtCreate(lt_handle *handle);
cublasStatus_t __wrap_cublasLtCreate(lt_handle *handle)
{
    count("cublasLtCreate");
    return __real_cublasLtCreate(handle);
}

int cublas_calls(void)
{
    return calls;
}

int cublas_calls_grade(const char *launcher, const char *lesson)
{
    if (calls == 0) {
        printf("  %s: no cuBLAS call (no handle created, no legacy call)\n", launcher);
        return 1;
    }
    printf("FAIL: %s calls cuBLAS (%s, %d call(s) in all): the product came from the library, "
           "not from your kernel. %s\n", launcher, first_call, calls, lesson);
    return 0;
}

int cublas_calls_grade_speed(int before, int own, const char *launcher, const char *lesson)
{
    const int theirs = calls - before - own;
    if (theirs <= 0)
        return 1;
    printf("FAIL: %s calls cuBLAS at the speed test's size (%d call(s) beyond the grader's own "
           "handle): the product came from the library, not from your kernel. %s\n", launcher,
           theirs, lesson);
    return 0;
}
