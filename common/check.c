#include "check.h"

#include <stdio.h>
#include <stdlib.h>

void tut_fail(const char *lib, const char *call, const char *file, int line,
              const char *name, const char *text)
{
    fflush(stdout);
    fprintf(stderr, "%s error: %s\n  at %s:%d\n  %s: %s\n", lib, call, file, line, name, text);
    exit(1);
}

void tut_check_cuda(cudaError_t err, const char *call, const char *file, int line)
{
    if (err != cudaSuccess)
        tut_fail("CUDA", call, file, line, cudaGetErrorName(err), cudaGetErrorString(err));
}
