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
 * (8 x 1.03 + 8) / 32 = 0.51 bytes per point-step instead of 16. The price is some redundant
 * work on the halos (2 halo / tile) and a __syncthreads() per step; the limit becomes
 * shared-memory bandwidth.
 *
 * The tile and halo are chosen from the GPU's limits (heat_config.h): a band of 2 (tile + 2 halo)
 * doubles must fit one block's shared memory, and enough blocks must fit an SM to hide latency. */
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

/* The default tile and halo for this GPU (heat_config.h), for `threads` per block (0: default). */
int heat_temporal_default(int threads, int *tile, int *halo, char *why, size_t len)
{
    return heat_default_temporal(tut_current_device(),
                                 heat_cost_of((const void *)heat_temporal_kernel), threads, *halo,
                                 tile, halo, why, len);
}

/* A block per tile of job->tile points; its band of 2 (tile + 2 halo) doubles must fit this
 * GPU's shared memory, which beyond 48 KB the kernel must be allowed to ask for. */
int heat_temporal_prepare(heat_job *job, char *why, size_t len)
{
    const void *kernel = (const void *)heat_temporal_kernel;
    return heat_config_temporal(tut_current_device(), heat_cost_of(kernel), job->n, job->threads,
                                job->tile, job->halo, &job->launch, why, len) &&
           tut_allow_dynamic_shared(kernel, job->launch.shared_bytes, why, len);
}

double *heat_run_temporal(const heat_job *job)
{
    const heat_launch *l = &job->launch;
    double *in = job->a, *out = job->b;
    for (long long done = 0; done < job->steps; done += l->halo) {
        const long long left = job->steps - done;
        const int steps = (int)(left < l->halo ? left : l->halo);
        const int halo = l->halo;
        heat_temporal_kernel<<<(unsigned)l->blocks, l->threads, l->shared_bytes>>>(
            in, out, job->n, l->tile, halo, steps, job->k);
        LAUNCH_CHECK();
        double *t = in;
        in = out;
        out = t;
    }
    return in; /* the buffer the last launch wrote (a itself when steps == 0) */
}
