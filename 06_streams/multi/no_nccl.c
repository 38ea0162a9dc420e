/* What nccl_allreduce is in a build without NCCL (cmake/FindNCCL.cmake found none): it says
 * so and skips (exit 77), so that its tests and the tour give the reason instead of failing. */
#include <stdio.h>
#include <string.h>

#ifndef TUT_NCCL_REASON
#define TUT_NCCL_REASON "NCCL was not found"
#endif

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--help") == 0) {
        printf("usage: nccl_allreduce [--bench] [--id-file PATH] [--outdir DIR] ...\n"
               "this build has no NCCL (%s): every run skips\n", TUT_NCCL_REASON);
        return 0;
    }
    printf("SKIPPED: built without NCCL (%s); set NCCL_ROOT or install the nvidia-nccl wheel, "
           "then configure again\n", TUT_NCCL_REASON);
    return 77;
}
