/* Chapter 01: one function for the CPU and the GPU, and a math function inside a kernel.
 *
 * 1. business_logic(x, y, z) (business_logic.h) runs on the CPU and, unchanged, in a kernel,
 *    over the document's inputs; both must give the values the document printed.
 * 2. sinf over arange(10) - 5 in float32 inside a kernel, against the C library.
 * --cpu-only runs just the CPU side (it needs no GPU; the CPU tests use it). */
#include <math.h>
#include <stdio.h>

#include "business_logic.h"
#include "tutorial.h"

#define COUNT 3
static const double xs[COUNT] = {1, 10, 234}, ys[COUNT] = {2, 2, 4014}, zs[COUNT] = {3, 14, 2211};
/* What the document printed (Python float64). */
static const double expected[COUNT] = {-126.79644737231007, 416.28324559588634,
                                       -218912930.2987788};

__global__ void business_logic_kernel(double *result, const double *x, const double *y,
                                      const double *z, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        result[i] = business_logic(x[i], y[i], z[i]);
}

/* The document launches its sin kernel as f[1, 1]: one thread does every element. */
__global__ void sin_single_thread_kernel(float *r, const float *x, int n)
{
    for (int i = 0; i < n; ++i)
        r[i] = sinf(x[i]);
}

__global__ void sin_kernel(float *r, const float *x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        r[i] = sinf(x[i]);
}

static int cpu_side(void)
{
    double cpu[COUNT];
    for (int i = 0; i < COUNT; ++i)
        cpu[i] = business_logic(xs[i], ys[i], zs[i]);
    printf("CPU business_logic(1, 2, 3) = %.17g\n", cpu[0]);
    return tut_check_f64("CPU business_logic vs the document", cpu, expected, COUNT, 0, 1e-15,
                         NULL);
}

static int gpu_business_logic(void)
{
    const size_t bytes = COUNT * sizeof(double);
    double *d_x = (double *)tut_device_alloc(bytes, "x"), *d_y = (double *)tut_device_alloc(bytes, "y");
    double *d_z = (double *)tut_device_alloc(bytes, "z"), *d_r = (double *)tut_device_alloc(bytes, "r");
    CUDA_CHECK(cudaMemcpy(d_x, xs, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, ys, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_z, zs, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_r, 0xFF, bytes));
    /* One warp (of this GPU's size) covers the three inputs. */
    business_logic_kernel<<<1, tut_current_device()->warp_size>>>(d_r, d_x, d_y, d_z, COUNT);
    LAUNCH_CHECK();
    double gpu[COUNT];
    CUDA_CHECK(cudaMemcpy(gpu, d_r, bytes, cudaMemcpyDeviceToHost));
    printf("GPU results: [%.17g, %.17g, %.17g]\n", gpu[0], gpu[1], gpu[2]);
    /* nvcc may fuse a multiply and an add into one FMA (one rounding instead of two), so the GPU
     * may differ from the CPU in the last bit or so: compare to ~1e-15, not exactly. */
    const int ok = tut_check_f64("GPU business_logic vs the document", gpu, expected, COUNT, 0,
                                 1e-15, NULL);
    tut_device_free(d_x);
    tut_device_free(d_y);
    tut_device_free(d_z);
    tut_device_free(d_r);
    return ok;
}

static int gpu_sin(void)
{
    enum { N = 10 };
    float x[N], r[N];
    double want[N];
    for (int i = 0; i < N; ++i) {
        x[i] = (float)i - 5.0f; /* np.arange(10, dtype=np.float32) - 5 */
        want[i] = sin((double)x[i]);
    }
    float *d_x = (float *)tut_device_alloc(sizeof x, "x"), *d_r = (float *)tut_device_alloc(sizeof r, "r");
    CUDA_CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    int ok = 1;
    for (int variant = 0; variant < 2; ++variant) {
        CUDA_CHECK(cudaMemset(d_r, 0xFF, sizeof r));
        if (variant == 0)
            sin_single_thread_kernel<<<1, 1>>>(d_r, d_x, N);
        else
            sin_kernel<<<1, tut_current_device()->warp_size>>>(d_r, d_x, N); /* one warp */
        LAUNCH_CHECK();
        CUDA_CHECK(cudaMemcpy(r, d_r, sizeof r, cudaMemcpyDeviceToHost));
        /* CUDA's sinf is accurate to 2 ulp (about 2.4e-7 relative) over this range. */
        ok &= tut_check_f32_f64(variant == 0 ? "sinf, one thread [1, 1]" : "sinf, one per thread",
                                r, want, N, 1e-7, 3e-7, NULL);
    }
    printf("sin(arange(10) - 5) = [");
    for (int i = 0; i < N; ++i)
        printf("%s%.7f", i ? ", " : "", r[i]);
    printf("]\n");
    tut_device_free(d_x);
    tut_device_free(d_r);
    return ok;
}

int main(int argc, char **argv)
{
    int cpu_only = 0;
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--cpu-only", TUT_OPT_FLAG, &cpu_only, "run only the CPU side (no GPU needed)", 0, 0, NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "accepted for the tour; nothing is written", 0, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv, "Chapter 01: a __host__ __device__ function, and sinf in a kernel.",
                      opts, TUT_COUNT(opts));
    int ok = cpu_side();
    if (cpu_only)
        return tut_finish(ok);
    tut_select_device(TUT_NEED_NOTHING);
    ok &= gpu_business_logic();
    ok &= gpu_sin();
    return tut_finish(ok);
}
