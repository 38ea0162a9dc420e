/* The GPU half of ceilings.h: one small kernel (or copy) per ceiling, each doing nothing but the
 * thing it measures, timed with tut_time_gpu_batched like the chapters' kernels.
 *
 * The compute kernels give every thread CHAINS independent values to update, so that a warp
 * always has work whose inputs are ready (enough to hide each instruction's latency), and run a
 * full wave of blocks (the occupancy calculator's blocks per SM times the SMs). Their results are
 * written out, so the compiler cannot drop the loop. */
#include "ceilings.h"

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime.h>

#include "check.h"
#include "device.h"
#include "memory.h"
#include "occupancy.h"

#define THREADS 256
#define CHAINS 8
#define WARMUP 2
#define BATCHES TUT_CEILING_BATCHES
#define MUL_CONSTANT 0xD2511F53u /* any odd constant: Philox's first multiplier */
#define MIX_CONSTANT 0x9E3779B9u /* keeps 0 from being a fixed point of the multiply chain */

/* ---- Kernels ---------------------------------------------------------------------------- */

/* The DRAM kernels issue LOADS_IN_FLIGHT independent 16-byte loads per thread before using any
 * of them: with one load per loop trip a thread waits a full DRAM latency per float4, and a wave
 * of threads keeps too few bytes in flight to reach the bandwidth (measured on an H100: the
 * one-load copy stayed 6% under cudaMemcpy and the one-load sum under the chapters' best
 * reductions). */
#define LOADS_IN_FLIGHT 4

__global__ void ceiling_copy_kernel(const float4 *__restrict__ in, float4 *__restrict__ out,
                                    size_t count)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += LOADS_IN_FLIGHT * stride) {
        float4 v[LOADS_IN_FLIGHT];
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; ++k)
            if (i + k * stride < count)
                v[k] = in[i + k * stride];
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; ++k)
            if (i + k * stride < count)
                out[i + k * stride] = v[k];
    }
}

/* Reads only: each thread sums its float4s (four sums, so the adds never wait on each other)
 * and writes one float, a rounding error next to the bytes read. */
__global__ void ceiling_read_kernel(const float4 *__restrict__ in, size_t count, float *sink)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    float4 sum = make_float4(0, 0, 0, 0);
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += LOADS_IN_FLIGHT * stride) {
        float4 v[LOADS_IN_FLIGHT];
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; ++k)
            v[k] = i + k * stride < count ? in[i + k * stride] : make_float4(0, 0, 0, 0);
#pragma unroll
        for (int k = 0; k < LOADS_IN_FLIGHT; ++k) {
            sum.x += v[k].x;
            sum.y += v[k].y;
            sum.z += v[k].z;
            sum.w += v[k].w;
        }
    }
    sink[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = sum.x + sum.y + sum.z + sum.w;
}

/* Every thread reads CHAINS words of the block's table per step. `volatile` makes each read a
 * real load (the table does not change, so the compiler would otherwise load it once); the
 * words a warp reads are 32 consecutive floats, one per bank: no conflicts. */
__global__ void __launch_bounds__(THREADS) ceiling_shared_load_kernel(unsigned steps, float *sink)
{
    __shared__ float table[CHAINS * THREADS];
    for (int j = 0; j < CHAINS; ++j)
        table[threadIdx.x + j * THREADS] = (float)(threadIdx.x + j);
    __syncthreads();
    const volatile float *words = table;
    float sum[CHAINS] = {0};
#pragma unroll 4
    for (unsigned i = 0; i < steps; ++i) {
#pragma unroll
        for (int j = 0; j < CHAINS; ++j)
            sum[j] += words[threadIdx.x + j * THREADS];
    }
    float all = 0;
    for (int j = 0; j < CHAINS; ++j)
        all += sum[j];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = all;
}

/* a and b are parameters, so the compiler cannot fold the chain of multiply-adds. */
__global__ void __launch_bounds__(THREADS)
    ceiling_fma_kernel(unsigned steps, float a, float b, float *sink)
{
    float x[CHAINS];
    for (int j = 0; j < CHAINS; ++j)
        x[j] = (float)(threadIdx.x + j);
    /* Unrolled 16 times: 128 FFMAs to one loop counter's 3 instructions (IADD3, ISETP, BRA),
     * which take issue slots too (unrolled 4 times, they cost about 9% of the peak). */
#pragma unroll 16
    for (unsigned i = 0; i < steps; ++i) {
#pragma unroll
        for (int j = 0; j < CHAINS; ++j)
            x[j] = fmaf(x[j], a, b);
    }
    float all = 0;
    for (int j = 0; j < CHAINS; ++j)
        all += x[j];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = all;
}

__global__ void __launch_bounds__(THREADS)
    ceiling_dfma_kernel(unsigned steps, double a, double b, double *sink)
{
    double x[CHAINS];
    for (int j = 0; j < CHAINS; ++j)
        x[j] = (double)(threadIdx.x + j);
#pragma unroll 4
    for (unsigned i = 0; i < steps; ++i) {
#pragma unroll
        for (int j = 0; j < CHAINS; ++j)
            x[j] = fma(x[j], a, b);
    }
    double all = 0;
    for (int j = 0; j < CHAINS; ++j)
        all += x[j];
    sink[blockIdx.x * blockDim.x + threadIdx.x] = all;
}

/* x = lo(M x) ^ K: one IMAD and one LOP3 a step (with + instead of ^ the compiler would fold a
 * chain of multiply-adds into one). wide: x = hi(M x) ^ lo(M x) ^ K, one IMAD.WIDE.U32 (both
 * halves) and one LOP3: the mix of a Philox round. */
__global__ void __launch_bounds__(THREADS)
    ceiling_multiply_kernel(unsigned steps, int wide, unsigned *sink)
{
    const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x[CHAINS];
    for (int j = 0; j < CHAINS; ++j)
        x[j] = (thread * CHAINS + j) * MIX_CONSTANT + 1u;
    /* Unrolled 16 times: IMAD and LOP3 already fill every issue slot, so the loop counter's
     * instructions would otherwise cost a few percent of the ceiling. */
    if (wide) {
#pragma unroll 16
        for (unsigned i = 0; i < steps; ++i) {
#pragma unroll
            for (int j = 0; j < CHAINS; ++j)
                x[j] = __umulhi(MUL_CONSTANT, x[j]) ^ (MUL_CONSTANT * x[j]) ^ MIX_CONSTANT;
        }
    } else {
#pragma unroll 16
        for (unsigned i = 0; i < steps; ++i) {
#pragma unroll
            for (int j = 0; j < CHAINS; ++j)
                x[j] = (MUL_CONSTANT * x[j]) ^ MIX_CONSTANT;
        }
    }
    unsigned all = 0;
    for (int j = 0; j < CHAINS; ++j)
        all ^= x[j];
    sink[thread] = all;
}

/* same == 0: step i of thread t adds to counters[t + (i % 4) * threads], every address its own
 * (4 MiB or so: they stay in L2, where global atomics are done). same == 1: every thread adds to
 * counters[0]. The result is unused, so each is a fire-and-forget reduction (RED). */
__global__ void __launch_bounds__(THREADS)
    ceiling_global_atomic_kernel(unsigned steps, int same, unsigned *counters)
{
    const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned threads = gridDim.x * blockDim.x;
    for (unsigned i = 0; i < steps; ++i)
        atomicAdd(&counters[same ? 0 : thread + (i % 4) * threads], 1u);
}

/* Each lane adds to its own bank's word; the block's counts are written out at the end. */
__global__ void __launch_bounds__(THREADS)
    ceiling_shared_atomic_kernel(unsigned steps, unsigned *sink)
{
    __shared__ unsigned counts[4 * THREADS];
    for (int j = 0; j < 4; ++j)
        counts[threadIdx.x + j * THREADS] = 0;
    __syncthreads();
    for (unsigned i = 0; i < steps; ++i)
        atomicAdd(&counts[threadIdx.x + (i % 4) * THREADS], 1u);
    __syncthreads();
    sink[blockIdx.x * blockDim.x + threadIdx.x] = counts[threadIdx.x] + counts[3 * THREADS - 1];
}

__global__ void ceiling_empty_kernel(void) {}

/* ---- Jobs: what one timed call does ------------------------------------------------------ */

typedef struct {
    tut_ceiling_kind kind;
    int blocks;
    unsigned steps;
    void *a, *b;         /* device buffers; for PCIe a is pinned host memory, b device */
    void *c, *d;         /* PCIE_BOTH's second pair: c device, d pinned host */
    size_t bytes;        /* one buffer */
    cudaStream_t up, down;
} ceiling_job;

static int full_wave(const void *kernel)
{
    return tut_full_wave_blocks(kernel, "ceilings", THREADS, 0);
}

static void run_job(void *arg)
{
    ceiling_job *job = (ceiling_job *)arg;
    switch (job->kind) {
    case TUT_CEILING_DRAM_COPY:
        if (job->steps == 0) /* steps picks kernel (1) or cudaMemcpy (0) */
            CUDA_CHECK(cudaMemcpyAsync(job->b, job->a, job->bytes, cudaMemcpyDeviceToDevice, 0));
        else {
            ceiling_copy_kernel<<<job->blocks, THREADS>>>((const float4 *)job->a, (float4 *)job->b,
                                                          job->bytes / sizeof(float4));
            LAUNCH_CHECK();
        }
        break;
    case TUT_CEILING_DRAM_READ:
        ceiling_read_kernel<<<job->blocks, THREADS>>>((const float4 *)job->a,
                                                      job->bytes / sizeof(float4), (float *)job->b);
        LAUNCH_CHECK();
        break;
    case TUT_CEILING_SHARED_BANDWIDTH:
        ceiling_shared_load_kernel<<<job->blocks, THREADS>>>(job->steps, (float *)job->a);
        LAUNCH_CHECK();
        break;
    case TUT_CEILING_FP32_FMA:
        ceiling_fma_kernel<<<job->blocks, THREADS>>>(job->steps, 0.999f, 0.001f, (float *)job->a);
        LAUNCH_CHECK();
        break;
    case TUT_CEILING_FP64_FMA:
        ceiling_dfma_kernel<<<job->blocks, THREADS>>>(job->steps, 0.999, 0.001, (double *)job->a);
        LAUNCH_CHECK();
        break;
    case TUT_CEILING_INT_MUL_LO:
    case TUT_CEILING_INT_MUL_WIDE:
        ceiling_multiply_kernel<<<job->blocks, THREADS>>>(
            job->steps, job->kind == TUT_CEILING_INT_MUL_WIDE, (unsigned *)job->a);
        LAUNCH_CHECK();
        break;
    case TUT_CEILING_GLOBAL_ATOMIC:
    case TUT_CEILING_GLOBAL_ATOMIC_SAME:
        ceiling_global_atomic_kernel<<<job->blocks, THREADS>>>(
            job->steps, job->kind == TUT_CEILING_GLOBAL_ATOMIC_SAME, (unsigned *)job->a);
        LAUNCH_CHECK();
        break;
    case TUT_CEILING_SHARED_ATOMIC:
        ceiling_shared_atomic_kernel<<<job->blocks, THREADS>>>(job->steps, (unsigned *)job->a);
        LAUNCH_CHECK();
        break;
    case TUT_CEILING_PCIE_H2D:
        CUDA_CHECK(cudaMemcpyAsync(job->b, job->a, job->bytes, cudaMemcpyHostToDevice, 0));
        break;
    case TUT_CEILING_PCIE_D2H:
        CUDA_CHECK(cudaMemcpyAsync(job->a, job->b, job->bytes, cudaMemcpyDeviceToHost, 0));
        break;
    case TUT_CEILING_PCIE_BOTH:
        /* Two blocking streams: the timer's events on stream 0 wait for both copies. */
        CUDA_CHECK(cudaMemcpyAsync(job->b, job->a, job->bytes, cudaMemcpyHostToDevice, job->up));
        CUDA_CHECK(cudaMemcpyAsync(job->d, job->c, job->bytes, cudaMemcpyDeviceToHost, job->down));
        break;
    case TUT_CEILING_LAUNCH:
        ceiling_empty_kernel<<<1, 32>>>();
        LAUNCH_CHECK();
        break;
    default:
        break;
    }
}

/* Times the job and turns `work` per call into the ceiling's value (rate or, for LAUNCH, us). */
static tut_ceiling time_job(ceiling_job *job, double work, double unit_per_second)
{
    tut_ceiling c;
    c.kind = job->kind;
    c.work = work;
    c.time = tut_time_gpu_batched(run_job, job, WARMUP, BATCHES, 0);
    c.method[0] = '\0';
    if (job->kind == TUT_CEILING_LAUNCH) {
        c.value = c.time.median_ms * 1e-3 / unit_per_second;
        c.low = c.time.min_ms * 1e-3 / unit_per_second;
        c.high = c.time.max_ms * 1e-3 / unit_per_second;
    } else {
        c.value = work / (c.time.median_ms * 1e-3) / unit_per_second;
        c.low = work / (c.time.max_ms * 1e-3) / unit_per_second;
        c.high = work / (c.time.min_ms * 1e-3) / unit_per_second;
    }
    return c;
}

/* Two device buffers of equal size, larger than the L2 many times over, halved until they fit. */
static size_t copy_buffer_bytes(void)
{
    const tut_device_info *dev = tut_current_device();
    size_t bytes = (size_t)256 << 20;
    while (bytes < 8 * dev->l2_bytes)
        bytes *= 2;
    while (bytes > ((size_t)16 << 20) && !tut_device_fits(2 * bytes, (size_t)64 << 20))
        bytes /= 2;
    return bytes;
}

static tut_ceiling measure_dram_copy(void)
{
    char size[32];
    ceiling_job job = {.kind = TUT_CEILING_DRAM_COPY, .blocks = full_wave((const void *)ceiling_copy_kernel)};
    job.bytes = copy_buffer_bytes();
    job.a = tut_device_alloc(job.bytes, "DRAM ceiling source");
    job.b = tut_device_alloc(job.bytes, "DRAM ceiling destination");
    CUDA_CHECK(cudaMemset(job.a, 0, job.bytes));
    job.steps = 1;
    tut_ceiling kernel = time_job(&job, 2.0 * (double)job.bytes, 1e9);
    job.steps = 0;
    tut_ceiling library = time_job(&job, 2.0 * (double)job.bytes, 1e9);
    tut_device_free(job.a);
    tut_device_free(job.b);
    tut_format_bytes((double)job.bytes, size, sizeof size);
    tut_ceiling best = kernel.value >= library.value ? kernel : library;
    snprintf(best.method, sizeof best.method, "%s (copy kernel %.1f; cudaMemcpy %.1f), %s",
             kernel.value >= library.value ? "float4 grid-stride copy kernel" : "cudaMemcpy D2D",
             kernel.value, library.value, size);
    return best;
}

static tut_ceiling measure_dram_read(void)
{
    char size[32];
    ceiling_job job = {.kind = TUT_CEILING_DRAM_READ,
                       .blocks = full_wave((const void *)ceiling_read_kernel)};
    job.bytes = copy_buffer_bytes();
    job.a = tut_device_alloc(job.bytes, "DRAM read ceiling source");
    job.b = tut_device_alloc((size_t)job.blocks * THREADS * sizeof(float), "DRAM read sums");
    CUDA_CHECK(cudaMemset(job.a, 0, job.bytes));
    tut_ceiling c = time_job(&job, (double)job.bytes, 1e9);
    tut_format_bytes((double)job.bytes, size, sizeof size);
    snprintf(c.method, sizeof c.method, "float4 grid-stride sum, %s", size);
    tut_device_free(job.a);
    tut_device_free(job.b);
    return c;
}

/* A compute kernel on a full wave: `per_thread_step` units of work per thread and step. */
static tut_ceiling measure_compute(tut_ceiling_kind kind, const void *kernel, unsigned steps,
                                   double per_thread_step, const char *method)
{
    ceiling_job job = {.kind = kind, .blocks = full_wave(kernel), .steps = steps};
    job.a = tut_device_alloc((size_t)job.blocks * THREADS * sizeof(double), "ceiling sink");
    const double work = (double)job.blocks * THREADS * steps * per_thread_step;
    tut_ceiling c = time_job(&job, work, 1e9);
    snprintf(c.method, sizeof c.method, "%s, %d blocks x %d threads", method, job.blocks, THREADS);
    tut_device_free(job.a);
    return c;
}

static tut_ceiling measure_global_atomic(tut_ceiling_kind kind)
{
    const int same = kind == TUT_CEILING_GLOBAL_ATOMIC_SAME;
    ceiling_job job = {.kind = kind, .blocks = full_wave((const void *)ceiling_global_atomic_kernel),
                       .steps = same ? 4u : 64u};
    const size_t counters = 4 * (size_t)job.blocks * THREADS;
    job.a = tut_device_alloc(counters * sizeof(unsigned), "atomic counters");
    CUDA_CHECK(cudaMemset(job.a, 0, counters * sizeof(unsigned)));
    tut_ceiling c = time_job(&job, (double)job.blocks * THREADS * job.steps, 1e9);
    snprintf(c.method, sizeof c.method, "atomicAdd(%s, 1), %d blocks x %d threads",
             same ? "&one_counter" : "&own_counter", job.blocks, THREADS);
    tut_device_free(job.a);
    return c;
}

static tut_ceiling measure_pcie(tut_ceiling_kind kind)
{
    char size[32];
    ceiling_job job = {.kind = kind, .bytes = (size_t)64 << 20};
    if (!tut_device_fits(2 * job.bytes, (size_t)64 << 20))
        job.bytes = (size_t)8 << 20;
    job.a = tut_pinned_alloc(job.bytes, "pinned host buffer");
    job.b = tut_device_alloc(job.bytes, "device buffer");
    const int both = kind == TUT_CEILING_PCIE_BOTH;
    if (both) {
        job.d = tut_pinned_alloc(job.bytes, "second pinned host buffer");
        job.c = tut_device_alloc(job.bytes, "second device buffer");
        CUDA_CHECK(cudaStreamCreate(&job.up));
        CUDA_CHECK(cudaStreamCreate(&job.down));
    }
    tut_ceiling c = time_job(&job, (both ? 2.0 : 1.0) * (double)job.bytes, 1e9);
    tut_format_bytes((double)job.bytes, size, sizeof size);
    snprintf(c.method, sizeof c.method, "cudaMemcpyAsync of %s%s", size,
             both ? " each way, two streams" : "");
    if (both) {
        CUDA_CHECK(cudaStreamDestroy(job.up));
        CUDA_CHECK(cudaStreamDestroy(job.down));
        tut_pinned_free(job.d);
        tut_device_free(job.c);
    }
    tut_pinned_free(job.a);
    tut_device_free(job.b);
    return c;
}

tut_ceiling tut_measure_ceiling(tut_ceiling_kind kind)
{
    switch (kind) {
    case TUT_CEILING_DRAM_COPY:
        return measure_dram_copy();
    case TUT_CEILING_DRAM_READ:
        return measure_dram_read();
    case TUT_CEILING_SHARED_BANDWIDTH:
        return measure_compute(kind, (const void *)ceiling_shared_load_kernel, 256,
                               CHAINS * sizeof(float), "volatile 32-bit shared loads");
    case TUT_CEILING_FP32_FMA:
        return measure_compute(kind, (const void *)ceiling_fma_kernel, 1024, CHAINS * 2.0,
                               "fmaf chains");
    case TUT_CEILING_FP64_FMA:
        return measure_compute(kind, (const void *)ceiling_dfma_kernel, 256, CHAINS * 2.0,
                               "fma chains on doubles");
    case TUT_CEILING_INT_MUL_LO:
        return measure_compute(kind, (const void *)ceiling_multiply_kernel, 1024, CHAINS,
                               "x = lo(M x) ^ K chains");
    case TUT_CEILING_INT_MUL_WIDE:
        return measure_compute(kind, (const void *)ceiling_multiply_kernel, 1024, CHAINS * 2.0,
                               "x = hi(M x) ^ lo(M x) ^ K chains");
    case TUT_CEILING_GLOBAL_ATOMIC:
    case TUT_CEILING_GLOBAL_ATOMIC_SAME:
        return measure_global_atomic(kind);
    case TUT_CEILING_SHARED_ATOMIC:
        return measure_compute(kind, (const void *)ceiling_shared_atomic_kernel, 256, 1.0,
                               "atomicAdd on shared memory");
    case TUT_CEILING_PCIE_H2D:
    case TUT_CEILING_PCIE_D2H:
    case TUT_CEILING_PCIE_BOTH:
        return measure_pcie(kind);
    case TUT_CEILING_LAUNCH: {
        ceiling_job job = {.kind = kind};
        tut_ceiling c = time_job(&job, 1.0, 1e-6);
        snprintf(c.method, sizeof c.method, "empty kernel of 1 block x 32 threads launched back to back");
        return c;
    }
    default:
        fprintf(stderr, "tut_measure_ceiling: unknown ceiling %d\n", (int)kind);
        exit(2);
    }
}
