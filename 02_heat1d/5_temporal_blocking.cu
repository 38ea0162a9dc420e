/* Variant 5, temporal blocking: several time steps per pass over memory, for rods too large for
 * one block.
 *
 * A step of the launch-per-step kernel reads and writes the whole rod: 16 bytes per point, so
 * it can go no faster than a device-to-device copy. Here each block loads a tile of `tile`
 * points plus `halo` points on each side into shared memory and advances it `halo` steps there.
 * Each step, the band of points that are still correct shrinks by one on each side (a point's
 * new value needs its neighbours' old ones), so after `halo` steps exactly the tile's own points
 * are correct, and only those are written back. Per launch a point costs
 * 8 (1 + 2 halo / tile) bytes read + 8 written for `halo` steps: with tile 2048 and halo 32,
 * about 1.0 byte per point-step instead of 16. The price is some redundant work on the halos
 * (2 halo / tile) and a __syncthreads() per step; the limit becomes shared-memory bandwidth. */
#include "heat1d.h"
#include "tutorial.h"

__global__ void heat_temporal_kernel(const double *__restrict__ in, double *__restrict__ out,
                                     size_t n, int tile, int halo, int steps, double k)
{
    extern __shared__ double band[]; /* two buffers of tile + 2 halo points */
    const int width = tile + 2 * halo;
    double *cur = band, *next = band + width;
    const long long origin = (long long)blockIdx.x * tile - halo; /* global index of band[0] */
    const long long end = (long long)n;

    for (int j = threadIdx.x; j < width; j += blockDim.x) {
        const long long g = origin + j;
        cur[j] = g >= 0 && g < end ? in[g] : 0.0; /* outside the rod: zero, as in the model */
    }
    __syncthreads();

    for (int s = 1; s <= steps; ++s) {
        /* Step s can update band[s .. width - s): the points whose neighbours are still valid. */
        for (int j = s + threadIdx.x; j < width - s; j += blockDim.x) {
            const long long g = origin + j;
            next[j] = g >= 0 && g < end ? heat_update_gpu(cur[j - 1], cur[j], cur[j + 1], k)
                                        : 0.0;
        }
        __syncthreads();
        double *t = cur;
        cur = next;
        next = t;
    }

    for (int j = halo + threadIdx.x; j < halo + tile; j += blockDim.x) {
        const long long g = origin + j;
        if (g < end)
            out[g] = cur[j];
    }
}

double *heat_run_temporal(const heat_job *job)
{
    const int threads = job->threads ? job->threads : 256;
    const size_t blocks = (job->n + job->tile - 1) / job->tile;
    const size_t bytes = 2 * (size_t)(job->tile + 2 * job->halo) * sizeof(double);
    CUDA_CHECK(cudaFuncSetAttribute(heat_temporal_kernel,
                                    cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
    double *in = job->a, *out = job->b;
    for (long long done = 0; done < job->steps; done += job->halo) {
        const long long left = job->steps - done;
        const int steps = (int)(left < job->halo ? left : job->halo);
        heat_temporal_kernel<<<(unsigned)blocks, threads, bytes>>>(in, out, job->n, job->tile,
                                                                   job->halo, steps, job->k);
        LAUNCH_CHECK();
        double *t = in;
        in = out;
        out = t;
    }
    return in; /* the buffer the last launch wrote (a itself when steps == 0) */
}
