/* plain_heat1d.cu: chapter 02's first program, on the CUDA runtime API alone.
 * The heat equation of the Numba CUDA examples: a rod of 1001 points, all 0 but the middle one
 * at 10000, the walls held at 0, k = 0.25, 10000 time steps, one kernel launch per step. A launch
 * starts only after the one before it has finished: the launch boundary is the barrier.
 *   plain_heat1d [--points N] [--steps S]
 * Exit codes: 0 pass, 1 wrong result or CUDA error, 2 bad usage, 77 no GPU or no code for it. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* CHECK(call) and skip_without_gpu(), as docs/00_basics_2.md, section 7, teaches them (one
 * definition). */
#include "../01_vecadd/basics/check.h"

/* One point, one step: it moves towards the mean of its neighbours; beyond a wall reads 0. */
__host__ __device__ double heat_point(const double *u, int i, int n, double k)
{
    double left = i > 0 ? u[i - 1] : 0.0, right = i < n - 1 ? u[i + 1] : 0.0;
    return u[i] + k * (left - 2.0 * u[i] + right);
}

__global__ void heat_step(const double *u, double *u_next, int n, double k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        u_next[i] = heat_point(u, i, n, k);
}

int main(int argc, char **argv)
{
    long n = 1001, steps = 10000;
    const double k = 0.25; /* the scheme is stable for 0 < k <= 1/2 */
    for (int i = 1; i < argc; i++) {
        char *end = NULL;
        const int help = !strcmp(argv[i], "--help"); /* before argv[i + 1] is read as a value */
        long *opt = !strcmp(argv[i], "--points") ? &n : !strcmp(argv[i], "--steps") ? &steps : NULL;
        if (opt && i + 1 < argc) *opt = strtol(argv[++i], &end, 10);
        if (!opt || !end || *end || n < 2 || n > 10000000 || steps < 0 || steps > 1000000) {
            fprintf(help ? stdout : stderr,
                    "usage: plain_heat1d [--points 2..10000000] [--steps 0..1000000]\n");
            return help ? 0 : 2;
        }
    }
    skip_without_gpu(); /* after the arguments: bad usage is refused even without a GPU */
    size_t bytes = n * sizeof(double);
    double *host = (double *)calloc(3 * n, sizeof(double)), *u = host, *v = host + n;
    double *gpu = host + 2 * n;
    if (!host) { fprintf(stderr, "out of host memory\n"); return 1; }
    u[n / 2] = 10000.0; /* the hot middle */

    double *d_u, *d_v; /* two rods: a step reads one and writes the other, then they swap */
    CHECK(cudaMalloc(&d_u, bytes));
    CHECK(cudaMalloc(&d_v, bytes));
    CHECK(cudaMemcpy(d_u, u, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_v, 0xFF, bytes)); /* NaN: a point no thread writes fails the check */
    int threads = 256, blocks = (int)((n + threads - 1) / threads);
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    heat_step<<<1, 1>>>(d_u, d_v, 0, k); /* warm-up, writes nothing: the first launch loads code */
    CHECK(cudaGetLastError()); /* no code for this GPU shows here, even with --steps 0 */
    CHECK(cudaEventRecord(start));
    for (long s = 0; s < steps; s++) {
        heat_step<<<blocks, threads>>>(d_u, d_v, (int)n, k);
        CHECK(cudaGetLastError());
        double *t = d_u; d_u = d_v; d_v = t; /* this step's new rod is the next step's old one */
    }
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(gpu, d_u, bytes, cudaMemcpyDeviceToHost));

    for (long s = 0; s < steps; s++) { /* the same steps on the CPU */
        for (int i = 0; i < n; i++) v[i] = heat_point(u, i, (int)n, k);
        double *t = u; u = v; v = t;
    }
    /* The GPU may fuse a multiply and an add (one rounding instead of two), so allow 1e-12 of
     * the heat put in. NaN fails: every comparison with NaN is false. */
    long wrong = 0, hottest = 0;
    for (int i = 0; i < n; i++) {
        if (!(fabs(gpu[i] - u[i]) <= 1e-12 * 10000.0)) wrong++;
        if (gpu[i] > gpu[hottest]) hottest = i;
    }
    printf("%ld points, %ld steps: %d blocks x %d threads, %.2f us per step\n", n, steps, blocks,
           threads, steps ? 1e3 * ms / steps : 0.0);
    printf("max %.10f at index %ld\n%ld of %ld points wrong\n%s\n", gpu[hottest], hottest, wrong,
           n, wrong ? "FAIL" : "PASS");
    CHECK(cudaEventDestroy(start)); CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_u)); CHECK(cudaFree(d_v));
    free(host);
    return wrong ? 1 : 0;
}
