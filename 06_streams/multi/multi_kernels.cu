/* The kernels and the timer of the multi-GPU programs: multi_kernels.h says what each does. */
#include "multi_kernels.h"

#include <stdlib.h>

#include "check.h"
#include "multi_grid.h"
#include "timer.h"

#define THREADS 256

/* A grid that fills the current device: its SM count times the blocks of `kernel` that fit on
 * one SM (occupancy API), at most what n needs (multi_grid.h). Asked once per device and kernel:
 * the ring launches its reductions by the hundred per all-reduce. The table is not locked: every
 * program here drives its GPUs from one host thread (one thread per GPU would need a lock). */
typedef struct {
    const void *kernel;
    int device, sms, per_sm;
} grid_entry;

static int grid_for(const void *kernel, size_t n)
{
    static grid_entry known[256];
    static int known_count = 0;
    int device = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    for (int k = 0; k < known_count; ++k)
        if (known[k].kernel == kernel && known[k].device == device)
            return multi_grid_blocks(known[k].sms, known[k].per_sm, n, THREADS);
    int sms = 0, per_sm = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, THREADS, 0));
    const grid_entry entry = {.kernel = kernel, .device = device, .sms = sms, .per_sm = per_sm};
    if (known_count < 256)
        known[known_count++] = entry;
    return multi_grid_blocks(sms, per_sm, n, THREADS);
}

__host__ __device__ static float whole_value(unsigned long long seed, int tag, size_t i)
{
    unsigned long long h = seed ^ (0x9E3779B97F4A7C15ull * (unsigned long long)(tag + 1)) ^
                           (0xD1B54A32D192ED03ull * (unsigned long long)i);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return (float)((int)(h % 17ull) - 8);
}

float multi_whole_value(unsigned long long seed, int tag, size_t i)
{
    return whole_value(seed, tag, i);
}

__global__ void fill_whole_kernel(float *x, size_t n, unsigned long long seed, int tag)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        x[i] = whole_value(seed, tag, i);
}

__global__ void check_whole_sum_kernel(const float *x, size_t n, unsigned long long seed,
                                       int tags, unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        float expected = 0.0f;
        for (int t = 0; t < tags; ++t)
            expected += whole_value(seed, t, i);
        mine += !(x[i] == expected); /* NaN is never equal */
    }
    if (mine)
        atomicAdd(wrong, mine);
}

__global__ void count_different_kernel(const float *a, const float *b, size_t n,
                                       unsigned long long *wrong)
{
    unsigned long long mine = 0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        mine += __float_as_uint(a[i]) != __float_as_uint(b[i]);
    if (mine)
        atomicAdd(wrong, mine);
}

__global__ void add_kernel(const float *a, const float *b, float *out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = a[i] + b[i];
}

/* One partial sum per block (shared-memory tree), then the same kernel in one block over the
 * partials when `y` is NULL. */
__global__ void dot_kernel(const float *x, const float *y, const double *partials_in, size_t n,
                           double *out)
{
    __shared__ double sums[THREADS];
    double sum = 0.0;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        sum += partials_in ? partials_in[i] : (double)x[i] * y[i];
    sums[threadIdx.x] = sum;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            sums[threadIdx.x] += sums[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = sums[0];
}

void multi_fill_whole(float *x, size_t n, unsigned long long seed, int tag, cudaStream_t stream)
{
    fill_whole_kernel<<<grid_for((const void *)fill_whole_kernel, n), THREADS, 0, stream>>>(
        x, n, seed, tag);
    LAUNCH_CHECK();
}

void multi_check_whole_sum(const float *x, size_t n, unsigned long long seed, int tags,
                           unsigned long long *wrong, cudaStream_t stream)
{
    check_whole_sum_kernel<<<grid_for((const void *)check_whole_sum_kernel, n), THREADS, 0,
                             stream>>>(x, n, seed, tags, wrong);
    LAUNCH_CHECK();
}

void multi_count_different(const float *a, const float *b, size_t n, unsigned long long *wrong,
                           cudaStream_t stream)
{
    count_different_kernel<<<grid_for((const void *)count_different_kernel, n), THREADS, 0,
                             stream>>>(a, b, n, wrong);
    LAUNCH_CHECK();
}

void multi_add(const float *a, const float *b, float *out, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return;
    add_kernel<<<grid_for((const void *)add_kernel, n), THREADS, 0, stream>>>(a, b, out, n);
    LAUNCH_CHECK();
}

int multi_dot_blocks(void) { return grid_for((const void *)dot_kernel, (size_t)1 << 40); }

void multi_dot(const float *x, const float *y, size_t n, double *partials, double *result,
               cudaStream_t stream)
{
    const int blocks = multi_dot_blocks();
    dot_kernel<<<blocks, THREADS, 0, stream>>>(x, y, NULL, n, partials);
    LAUNCH_CHECK();
    dot_kernel<<<1, THREADS, 0, stream>>>(NULL, NULL, partials, (size_t)blocks, result);
    LAUNCH_CHECK();
}

/* ---- The timer ----------------------------------------------------------------------------- */

typedef struct {
    cudaEvent_t start, stop, end[64];
    int device[64];
} batch_events;

static multi_watch_fn watch_fn = NULL;
static void *watch_arg = NULL;

void multi_set_watch(multi_watch_fn watch, void *arg)
{
    watch_fn = watch;
    watch_arg = arg;
}

static void wait_for(cudaEvent_t event)
{
    if (!watch_fn) {
        CUDA_CHECK(cudaEventSynchronize(event));
        return;
    }
    const double t0 = tut_cpu_seconds();
    cudaError_t state;
    while ((state = cudaEventQuery(event)) == cudaErrorNotReady)
        watch_fn(watch_arg, tut_cpu_seconds() - t0);
    CUDA_CHECK(state);
}

static float time_batch(multi_work_fn work, void *arg, const cudaStream_t *stream, int gpus,
                        int calls, batch_events *ev)
{
    CUDA_CHECK(cudaSetDevice(ev->device[0]));
    CUDA_CHECK(cudaEventRecord(ev->start, stream[0]));
    for (int g = 1; g < gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(ev->device[g]));
        CUDA_CHECK(cudaStreamWaitEvent(stream[g], ev->start, 0));
    }
    for (int c = 0; c < calls; ++c)
        work(arg);
    for (int g = 1; g < gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(ev->device[g]));
        CUDA_CHECK(cudaEventRecord(ev->end[g], stream[g]));
    }
    CUDA_CHECK(cudaSetDevice(ev->device[0]));
    for (int g = 1; g < gpus; ++g)
        CUDA_CHECK(cudaStreamWaitEvent(stream[0], ev->end[g], 0));
    CUDA_CHECK(cudaEventRecord(ev->stop, stream[0]));
    wait_for(ev->stop);
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, ev->start, ev->stop));
    return ms;
}

static void events_create(batch_events *ev, const int *device, int gpus)
{
    for (int g = 0; g < gpus; ++g)
        ev->device[g] = device ? device[g] : g;
    CUDA_CHECK(cudaSetDevice(ev->device[0]));
    CUDA_CHECK(cudaEventCreate(&ev->start));
    CUDA_CHECK(cudaEventCreate(&ev->stop));
    for (int g = 1; g < gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(ev->device[g]));
        CUDA_CHECK(cudaEventCreateWithFlags(&ev->end[g], cudaEventDisableTiming));
    }
}

static void events_destroy(batch_events *ev, int gpus)
{
    CUDA_CHECK(cudaEventDestroy(ev->start));
    CUDA_CHECK(cudaEventDestroy(ev->stop));
    for (int g = 1; g < gpus; ++g)
        CUDA_CHECK(cudaEventDestroy(ev->end[g]));
    CUDA_CHECK(cudaSetDevice(ev->device[0]));
}

tut_timing multi_time(multi_work_fn work, void *arg, const cudaStream_t *stream,
                      const int *device, int gpus, int warmup, int batches, int calls)
{
    batch_events ev;
    gpus = gpus > 64 ? 64 : gpus;
    events_create(&ev, device, gpus);
    if (warmup > 0)
        (void)time_batch(work, arg, stream, gpus, warmup, &ev);
    batches = batches < 1 ? 1 : batches > 64 ? 64 : batches;
    calls = calls < 1 ? 1 : calls;
    double per_call[64];
    for (int b = 0; b < batches; ++b)
        per_call[b] = time_batch(work, arg, stream, gpus, calls, &ev) / calls;
    tut_timing t = {.min_ms = per_call[0], .max_ms = per_call[0], .reps = batches};
    for (int b = 1; b < batches; ++b) {
        t.min_ms = per_call[b] < t.min_ms ? per_call[b] : t.min_ms;
        t.max_ms = per_call[b] > t.max_ms ? per_call[b] : t.max_ms;
    }
    t.median_ms = tut_median(per_call, batches);
    events_destroy(&ev, gpus);
    return t;
}

int multi_calls_for(multi_work_fn work, void *arg, const cudaStream_t *stream,
                    const int *device, int gpus, double target_ms)
{
    batch_events ev;
    gpus = gpus > 64 ? 64 : gpus;
    events_create(&ev, device, gpus);
    const float one = time_batch(work, arg, stream, gpus, 1, &ev);
    events_destroy(&ev, gpus);
    const double calls = one > 0 ? target_ms / one : 1000.0;
    return calls < 1 ? 1 : calls > 1000 ? 1000 : (int)calls;
}
