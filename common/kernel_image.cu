// Does this build hold code the current GPU can run? The one CUDA source file of common/: a
// kernel that is never launched, compiled for the same architectures as every chapter, so that
// asking the runtime about it answers for the whole build. cudaFuncGetAttributes loads the
// module: it fails with cudaErrorNoKernelImageForDevice when no cubin fits the GPU and no PTX
// can be compiled for it, or cudaErrorUnsupportedPtxVersion when the driver is older than the
// PTX. Without this check a program gets that error at its first launch and exits 1 instead of
// skipping with the reason.
#include <cuda_runtime_api.h>

__global__ void tut_kernel_image_probe(int *unused)
{
    if (unused)
        *unused = 0;
}

extern "C" cudaError_t tut_kernel_image_status(void)
{
    struct cudaFuncAttributes attr;
    return cudaFuncGetAttributes(&attr, (const void *)tut_kernel_image_probe);
}
