/* first_kernel: host and device, a kernel and its launch (docs/00_basics.md, section 1).
 *
 * The host (the CPU) fills an array, copies it to the device (the GPU), launches a kernel that
 * squares every element, copies the result back and checks it. Exit 0 if every element is
 * right, 1 if one is wrong, 77 if there is no GPU to run on. */
#include <stdio.h>
#include <stdlib.h>

/* The errors that say this machine cannot run this build, not that the program is wrong:
 * what each means (the call skips, exit 77); NULL for any other error. */
static const char *cannot_run_here(cudaError_t err)
{
    switch (err) {
    case cudaErrorNoKernelImageForDevice: return "this build has no code for this GPU";
    case cudaErrorUnsupportedPtxVersion:
        return "the driver is too old for this build's PTX: update the driver";
    case cudaErrorInsufficientDriver:
        return "the driver is too old for this CUDA toolkit: update the driver";
    default: return NULL;
    }
}

/* Every CUDA call returns an error code; this checks it and names the call, file and line.
 * (docs/00_basics_2.md, section 7; the other programs include the same lines from check.h.) */
#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t err_ = (call);                                                        \
        if (cannot_run_here(err_)) {                                                      \
            printf("SKIPPED: %s (%s)\n", cannot_run_here(err_), #call);                   \
            exit(77);                                                                     \
        }                                                                                 \
        if (err_ != cudaSuccess) {                                                        \
            fprintf(stderr, "CUDA error: %s\n  at %s:%d\n  %s: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorName(err_), cudaGetErrorString(err_));          \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* A kernel: runs on the device, once per thread. Each thread squares one element. */
__global__ void square_kernel(const float *x, float *y, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0)
        printf("device: thread 0 of block 0 says hello (grid of %d blocks x %d threads)\n",
               gridDim.x, blockDim.x);
    if (i < n) /* the last block may have threads past the end of the array */
        y[i] = x[i] * x[i];
}

int main(void)
{
    /* No GPU, or no driver: say so and skip (exit 77). A driver too old for this toolkit gets
     * the same error; cudaDriverGetVersion tells it apart (it gives 0 when none is installed). */
    int devices = 0, driver = 0, runtime = 0;
    const cudaError_t err = cudaGetDeviceCount(&devices);
    if (err != cudaSuccess || devices == 0) {
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        if (err == cudaErrorInsufficientDriver && driver > 0 && driver < runtime)
            printf("SKIPPED: the driver (CUDA %d.%d) is older than this toolkit's runtime "
                   "(CUDA %d.%d): update the driver\n", driver / 1000, driver % 1000 / 10,
                   runtime / 1000, runtime % 1000 / 10);
        else
            printf("SKIPPED: no CUDA GPU or driver found (cudaGetDeviceCount: %s: %s)\n",
                   cudaGetErrorName(err), cudaGetErrorString(err));
        return 77;
    }
    const int n = 1000; /* not a multiple of the block size, on purpose */
    const size_t bytes = n * sizeof(float);

    /* Host memory, filled with random values from a fixed seed. */
    float *x = (float *)malloc(bytes), *y = (float *)malloc(bytes);
    if (!x || !y) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    srand(42);
    for (int i = 0; i < n; i++)
        x[i] = (float)rand() / RAND_MAX * 2.0f - 1.0f;

    /* Device memory: a separate address space; the host copies in and out. cudaMalloc(void **p,
     * size_t bytes) writes the device address into *p. &d_x is a float **, which C would want
     * cast to (void **); nvcc compiles .cu files as C++, and cuda_runtime.h adds a template
     * cudaMalloc for any T **, so no cast is needed. */
    float *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, bytes));
    CHECK(cudaMalloc(&d_y, bytes));
    CHECK(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice));

    /* The launch: enough blocks of 256 threads to cover n (rounded up). */
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    square_kernel<<<blocks, threads>>>(d_x, d_y, n);
    CHECK(cudaGetLastError());      /* a bad launch is reported here */
    CHECK(cudaDeviceSynchronize()); /* an error inside the kernel is reported here */
    CHECK(cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost));

    /* The CPU computes the same squares; one IEEE multiply rounds the same on both sides. */
    int wrong = 0;
    for (int i = 0; i < n; i++)
        if (!(y[i] == x[i] * x[i])) { /* written so that NaN counts as wrong */
            if (wrong++ < 5)
                printf("y[%d] = %g, expected %g\n", i, y[i], x[i] * x[i]);
        }
    printf("host: launched %d blocks x %d threads for n = %d; %d wrong\n", blocks, threads, n,
           wrong);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    free(x);
    free(y);
    printf(wrong ? "FAIL\n" : "PASS\n");
    return wrong ? 1 : 0;
}
