/* atomics_dot: the document's dot product, finished on the CPU, then on the GPU with a mutex,
 * with a float atomicAdd, and fast; CUB's reduction over the same bytes is the yardstick.
 *
 *   partial      each block reduces in shared memory, the CPU adds the block sums (its first 4.6)
 *   mutex        ... and one thread per block adds its sum under the mutex (its second 4.6,
 *                typo fixed)
 *   atomic       ... the same with atomicAdd on a float
 *   fast_atomic  16-byte loads, warp shuffles, one float atomicAdd per block
 *   fast_2pass   the same, block sums to memory, the last block to finish adds them in double
 *   cub_sum      cub::DeviceReduce::Sum over a and b as one array: the same bytes read
 * And the document's own dot_mutex, whose reduction reads s_block[tid + 1] for s_block[tid + i],
 * run as a demonstration (never as a check): right on uniform input, wrong on any other.
 *
 *   atomics_dot               10^7 elements: the document's inputs, then random ones, checked
 *   atomics_dot --document    only the document's printed outputs beside ours (dot_document.csv)
 *   atomics_dot --bench       10^8 random elements, every variant timed against CUB */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_reduce.cuh>

#include "atomics_config.h"
#include "ceilings.h"
#include "mutex.cuh"
#include "tutorial.h"

#define DOC_THREADS DOT_DOC_THREADS /* the document's; the tree reductions need a power of 2 */
#define FAST_THREADS DOT_FAST_THREADS

/* ---- the document's kernels: grid-stride products, a shared-memory tree per block. The demo of
 * its printed outputs (document_demo) runs them as the document did: DOC_TYPO reads
 * s_block[tid + 1]; DOC_NUMBA_SUMS adds each thread's products in double, because Numba typed the
 * document's `s_thread = 0.0` as a float64 (the products stay float32, as a[i] * b[i] there). */
enum { DOC_TYPO = 1, DOC_NUMBA_SUMS = 2 };

__device__ float block_dot_tree(const float *a, const float *b, size_t n, int doc)
{
    __shared__ float s_block[DOC_THREADS];
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    const size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float s_thread = 0.0f;
    if (doc & DOC_NUMBA_SUMS) {
        double s = 0.0;
        for (size_t i = first; i < n; i += stride) {
            const float p = a[i] * b[i];
            s += p;
        }
        s_thread = (float)s; /* Numba's store into the float32 shared array */
    } else {
        for (size_t i = first; i < n; i += stride)
            s_thread += a[i] * b[i];
    }
    const int tid = threadIdx.x;
    s_block[tid] = s_thread;
    __syncthreads();
    for (int i = blockDim.x / 2; i > 0; i /= 2) {
        if (tid < i)
            s_block[tid] += s_block[tid + ((doc & DOC_TYPO) ? 1 : i)]; /* the document: tid + 1 */
        __syncthreads();
    }
    return s_block[0]; /* meaningful in thread 0 */
}

__global__ void dot_partial_kernel(const float *a, const float *b, size_t n, float *partial,
                                   int doc)
{
    float s = block_dot_tree(a, b, n, doc);
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s;
}

__global__ void dot_mutex_kernel(const float *a, const float *b, size_t n, float *c, int *mutex,
                                 int doc)
{
    float s = block_dot_tree(a, b, n, doc);
    if (threadIdx.x == 0) { /* one thread per block: see mutex.cuh */
        mutex_lock(mutex);
        *c += s;
        mutex_unlock(mutex);
    }
}

__global__ void dot_atomic_kernel(const float *a, const float *b, size_t n, float *c)
{
    float s = block_dot_tree(a, b, n, 0);
    if (threadIdx.x == 0)
        atomicAdd(c, s); /* float atomics: what the mutex pattern was once needed for */
}

/* ---- the fast version: few bytes in flight wasted, no shared-memory tree */
__device__ __forceinline__ float warp_sum(float s)
{
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xFFFFFFFFu, s, offset);
    return s; /* in lane 0 */
}

/* a and b must be 16-byte aligned (cudaMalloc is). Returns the block's sum in thread 0. */
__device__ float block_dot_fast(const float *a, const float *b, size_t n)
{
    __shared__ float warp_sums[FAST_THREADS / 32];
    const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
    const size_t n4 = n / 4;
    const size_t stride = (size_t)gridDim.x * FAST_THREADS;
    const size_t first = (size_t)blockIdx.x * FAST_THREADS + threadIdx.x;
    float s0 = 0.0f, s1 = 0.0f; /* two chains: shorter dependencies, smaller rounding */
    size_t i = first;
    for (; i + stride < n4; i += 2 * stride) { /* four 16-byte loads in flight per thread */
        float4 x0 = __ldg(a4 + i), y0 = __ldg(b4 + i);
        float4 x1 = __ldg(a4 + i + stride), y1 = __ldg(b4 + i + stride);
        s0 = fmaf(x0.x, y0.x, s0); s0 = fmaf(x0.y, y0.y, s0);
        s0 = fmaf(x0.z, y0.z, s0); s0 = fmaf(x0.w, y0.w, s0);
        s1 = fmaf(x1.x, y1.x, s1); s1 = fmaf(x1.y, y1.y, s1);
        s1 = fmaf(x1.z, y1.z, s1); s1 = fmaf(x1.w, y1.w, s1);
    }
    if (i < n4) {
        float4 x0 = __ldg(a4 + i), y0 = __ldg(b4 + i);
        s0 = fmaf(x0.x, y0.x, s0); s0 = fmaf(x0.y, y0.y, s0);
        s0 = fmaf(x0.z, y0.z, s0); s0 = fmaf(x0.w, y0.w, s0);
    }
    if (first < n % 4) /* the last 1-3 elements */
        s1 = fmaf(a[n4 * 4 + first], b[n4 * 4 + first], s1);
    float s = warp_sum(s0 + s1);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = s;
    __syncthreads();
    s = 0.0f;
    if (threadIdx.x < 32) {
        s = threadIdx.x < FAST_THREADS / 32 ? warp_sums[threadIdx.x] : 0.0f;
        s = warp_sum(s);
    }
    return s;
}

__global__ void __launch_bounds__(FAST_THREADS)
dot_fast_atomic_kernel(const float *a, const float *b, size_t n, float *c)
{
    float s = block_dot_fast(a, b, n);
    if (threadIdx.x == 0)
        atomicAdd(c, s);
}

/* Two passes in one launch: each block stores its sum; the last block to finish (counted with
 * an atomic ticket) adds all of them in double, in block order: the same result every run. */
__global__ void __launch_bounds__(FAST_THREADS)
dot_fast_2pass_kernel(const float *a, const float *b, size_t n, float *partial,
                      unsigned int *tickets, float *c)
{
    __shared__ int is_last;
    float s = block_dot_fast(a, b, n);
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = s;
        __threadfence(); /* the sum is visible to all before this block takes its ticket */
        is_last = (atomicAdd(tickets, 1u) == gridDim.x - 1);
    }
    __syncthreads();
    if (is_last) {
        __threadfence(); /* and seen by the last block after it learns it is last */
        double t = 0.0;
        for (int k = threadIdx.x; k < (int)gridDim.x; k += FAST_THREADS)
            t += (double)((volatile float *)partial)[k];
        for (int offset = 16; offset > 0; offset /= 2)
            t += __shfl_down_sync(0xFFFFFFFFu, t, offset);
        __shared__ double warp_totals[FAST_THREADS / 32];
        if (threadIdx.x % 32 == 0)
            warp_totals[threadIdx.x / 32] = t;
        __syncthreads();
        if (threadIdx.x == 0) {
            double total = 0.0;
            for (int w = 0; w < FAST_THREADS / 32; ++w)
                total += warp_totals[w];
            *c = (float)total;
            *tickets = 0; /* ready for the next launch */
        }
    }
}

/* ---- the roofline: every variant against the DRAM read ceiling (common/ceilings.h), measured
 * in this run. A dot product reads 8 bytes (a[i], b[i]) for 2 flops: far left of the ridge, so
 * the prediction is the bytes over the read bandwidth. Writes roofline_dot.csv and
 * ceilings_dot.csv. */
static void dot_roofline(const char *outdir, size_t n, size_t cub_n, const char *const *names,
                         const tut_timing *t, int count, int cub_index)
{
    const tut_ceiling read = tut_measure_ceiling(TUT_CEILING_DRAM_READ);
    const tut_ceiling fma = tut_measure_ceiling(TUT_CEILING_FP32_FMA);
    printf("\nceilings, measured now:\n");
    const tut_ceiling *measured[] = {&read, &fma};
    tut_ceilings_report(measured, TUT_COUNT(measured), outdir, "ceilings_dot.csv");
    tut_csv *csv = tut_roofline_csv_open(outdir, "roofline_dot.csv");
    tut_csv_comment(csv, "n = %zu floats: 8 bytes and 2 flops per element (cub_sum: 4 bytes and "
                         "1 flop per element of a and b as one array)", n);
    printf("the model: %.0f MB to read at %.0f GB/s: no dot product takes less than %.4f ms\n",
           8e-6 * (double)n, read.value, 8.0 * (double)n / tut_ceiling_per_second(&read) * 1e3);
    for (int v = 0; v < count; ++v) {
        const int cub = v == cub_index;
        const tut_roofline_point p = {.kernel = names[v],
                                      .bytes = cub ? 4.0 * (double)cub_n : 8.0 * (double)n,
                                      .ops = cub ? (double)cub_n : 2.0 * (double)n,
                                      .op_unit = "flop", .seconds = t[v].median_ms * 1e-3,
                                      .memory = &read, .compute = &fma};
        tut_roofline_csv_row(csv, &p);
        tut_roofline_print(&p);
    }
    tut_csv_close(csv);
}

/* ---- the host side: one context, every variant launched and read back the same way */
typedef enum { PARTIAL, MUTEX, ATOMIC, FAST_ATOMIC, FAST_2PASS, CUB_SUM, NVARIANTS } dot_variant;
static const char *const variant_names[] = {"partial+cpu", "mutex", "atomic", "fast_atomic",
                                            "fast_2pass", "cub_sum"};

typedef struct {
    const float *a, *b; /* device: a = buffer, b = buffer + padded n */
    size_t n;
    const float *buffer; /* a, padding, b, padding: what CUB sums */
    size_t buffer_n;
    int doc_blocks, fast_blocks;
    float *c, *partial;
    int *mutex;
    unsigned int *tickets;
    void *cub_temp;
    size_t cub_temp_bytes;
    int variant, doc, batch; /* doc: DOC_TYPO, DOC_NUMBA_SUMS (the document's kernels) */
} dot_context;

static void cub_sum(dot_context *x, void *temp, size_t *temp_bytes)
{
    CUDA_CHECK(cub::DeviceReduce::Sum(temp, *temp_bytes, x->buffer, x->c, (long long)x->buffer_n));
}

static void launch(dot_context *x)
{
    switch (x->variant) {
    case PARTIAL:
        dot_partial_kernel<<<x->doc_blocks, DOC_THREADS>>>(x->a, x->b, x->n, x->partial,
                                                           x->doc);
        break;
    case MUTEX:
        CUDA_CHECK(cudaMemsetAsync(x->c, 0, sizeof(float), 0));
        dot_mutex_kernel<<<x->doc_blocks, DOC_THREADS>>>(x->a, x->b, x->n, x->c, x->mutex,
                                                         x->doc);
        break;
    case ATOMIC:
        CUDA_CHECK(cudaMemsetAsync(x->c, 0, sizeof(float), 0));
        dot_atomic_kernel<<<x->doc_blocks, DOC_THREADS>>>(x->a, x->b, x->n, x->c);
        break;
    case FAST_ATOMIC:
        CUDA_CHECK(cudaMemsetAsync(x->c, 0, sizeof(float), 0));
        dot_fast_atomic_kernel<<<x->fast_blocks, FAST_THREADS>>>(x->a, x->b, x->n, x->c);
        break;
    case FAST_2PASS:
        dot_fast_2pass_kernel<<<x->fast_blocks, FAST_THREADS>>>(x->a, x->b, x->n, x->partial,
                                                                x->tickets, x->c);
        break;
    case CUB_SUM: {
        size_t bytes = x->cub_temp_bytes;
        cub_sum(x, x->cub_temp, &bytes);
        break;
    }
    }
    LAUNCH_CHECK();
}

static void launch_one(void *arg)
{
    launch((dot_context *)arg);
}

/* Runs the variant once (output poisoned first) and returns its result. */
static double run_dot(dot_context *x, int variant, int doc)
{
    const float nan = nanf("");
    x->variant = variant;
    x->doc = doc;
    CUDA_CHECK(cudaMemcpy(x->c, &nan, sizeof nan, cudaMemcpyHostToDevice));
    launch(x);
    if (variant == PARTIAL) { /* the document's way: the CPU adds the block sums */
        float *partial = (float *)tut_host_alloc(x->doc_blocks * sizeof(float), "partials");
        CUDA_CHECK(cudaMemcpy(partial, x->partial, x->doc_blocks * sizeof(float),
                              cudaMemcpyDeviceToHost));
        double s = 0.0;
        for (int k = 0; k < x->doc_blocks; ++k)
            s += partial[k];
        free(partial);
        return s;
    }
    float c = 0.0f;
    CUDA_CHECK(cudaMemcpy(&c, x->c, sizeof c, cudaMemcpyDeviceToHost));
    return c;
}

/* Every variant, CUB too, timed the same way (tut_time_gpu_batched): `batch` calls back to back
 * per timing (about 5 ms, so that launch gaps vanish), a warm-up call, then `reps` timings;
 * milliseconds per call (median, fastest, slowest). x->batch is left as used. */
static tut_timing time_dot(dot_context *x, int variant, int reps)
{
    x->variant = variant;
    x->doc = 0;
    const tut_timing first = tut_time_gpu(launch_one, x, 1, 1);
    const int batch = (int)(5.0 / (first.median_ms > 1e-3 ? first.median_ms : 1e-3));
    x->batch = batch < 1 ? 1 : (batch > 1000 ? 1000 : batch);
    return tut_time_gpu_batched(launch_one, x, 1, reps, x->batch);
}

/* The larger demand of two kernels that share a launch configuration. */
static kernel_cost costlier(kernel_cost a, kernel_cost b)
{
    kernel_cost c = a;
    c.regs = a.regs > b.regs ? a.regs : b.regs;
    c.static_shared = a.static_shared > b.static_shared ? a.static_shared : b.static_shared;
    return c;
}

static double dot_reference(const float *a, const float *b, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; ++i)
        s += (double)a[i] * (double)b[i];
    return s;
}

static void release(dot_context *x, float *buffer, float *a, float *b)
{
    free(a);
    free(b);
    tut_device_free(buffer);
    tut_device_free(x->partial);
    tut_device_free(x->c);
    tut_device_free(x->mutex);
    tut_device_free(x->tickets);
    tut_device_free(x->cub_temp);
}

/* NumPy's float32 sum (pairwise: blocks of up to 128 in eight running sums, halves above), so
 * that the CPU adds the block sums exactly as the document's dev_partial_c.copy_to_host().sum(). */
static float sum_like_numpy(const float *v, size_t n)
{
    if (n < 8) {
        float s = 0.0f;
        for (size_t i = 0; i < n; ++i)
            s += v[i];
        return s;
    }
    if (n <= 128) {
        float r[8];
        size_t i;
        for (int j = 0; j < 8; ++j)
            r[j] = v[j];
        for (i = 8; i < n - n % 8; i += 8)
            for (int j = 0; j < 8; ++j)
                r[j] += v[i + j];
        float s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i)
            s += v[i];
        return s;
    }
    size_t half = n / 2;
    half -= half % 8;
    return sum_like_numpy(v, half) + sum_like_numpy(v + half, n - half);
}

/* The document's block sums added on the CPU in float32 as NumPy adds them. */
static double partial_like_numpy(dot_context *x)
{
    run_dot(x, PARTIAL, DOC_NUMBA_SUMS);
    float *partial = (float *)tut_host_alloc(x->doc_blocks * sizeof(float), "partials");
    CUDA_CHECK(cudaMemcpy(partial, x->partial, x->doc_blocks * sizeof(float),
                          cudaMemcpyDeviceToHost));
    const float s = sum_like_numpy(partial, (size_t)x->doc_blocks);
    free(partial);
    return s;
}

/* The shortest decimal that reads back as the same value, as Python prints it: a float32 as
 * NumPy prints one (the document's partial sums), or a double (its .item() of the mutex's c). */
static void shortest_repr(double v, int as_float, char *out, size_t size)
{
    for (int digits = 1; digits <= 17; ++digits) {
        snprintf(out, size, "%.*g", digits, v);
        const double back = strtod(out, NULL);
        if (as_float ? (float)back == (float)v : back == v)
            return;
    }
}

/* The document's printed outputs beside ours: on its input (a = 1, b = 1/n; it printed 0.9999999
 * for the partial sums added by NumPy and 1.0000088214874268 for its dot_mutex with the typo),
 * then on random input, where the typo shows. The fixed kernels are checked (1e-5); the typo's
 * results are printed and written to dot_document.csv, never checked. Returns 1 if all pass. */
static int document_demo(dot_context *x, float *a, float *b, unsigned long long seed,
                         const char *outdir)
{
    const size_t n = x->n;
    tut_csv *csv = tut_csv_open(outdir, "dot_document.csv",
                                "input,kernel,n,blocks,result,exact,rel_error,document");
    tut_csv_comment(csv, "the document's dot products, %d blocks x %d threads, per-thread sums in "
                         "double as Numba compiled them; result: as Python prints it (partial: "
                         "a float32, mutex: a double); document: the value it printed (empty: "
                         "none)", x->doc_blocks, DOC_THREADS);
    int ok = 1;
    for (int input = 0; input < 2; ++input) {
        if (input == 0) { /* the document's input: a.b = 1, every thread's share equal */
            for (size_t i = 0; i < n; ++i) {
                a[i] = 1.0f;
                b[i] = (float)(1.0 / (double)n);
            }
        } else {
            tut_rng rng;
            tut_rng_seed(&rng, seed);
            tut_rng_fill_f32(&rng, a, n, 0.0f, 1.0f);
            tut_rng_fill_f32(&rng, b, n, 0.0f, 1.0f);
        }
        CUDA_CHECK(cudaMemcpy((void *)x->a, a, n * sizeof(float), cudaMemcpyHostToDevice));
        CUDA_CHECK(cudaMemcpy((void *)x->b, b, n * sizeof(float), cudaMemcpyHostToDevice));
        const double want = dot_reference(a, b, n);
        const char *name = input == 0 ? "document" : "random";
        if (input == 0)
            printf("the document's input (a = 1, b = 1/n, n = %zu): exact %.7f\n", n, want);
        else
            printf("random input, a and b uniform in [0, 1), seed %llu: exact %.6f\n", seed,
                   want);
        const char *doc0 = input == 0 ? "0.9999999" : "";
        const char *doc1 = input == 0 ? "1.0000088214874268" : "";
        const struct { const char *kernel, *label, *document; double got; int checked; } row[] = {
            {"partial_numpy", "partial sums, CPU adds in float32 (NumPy's order)", doc0,
             partial_like_numpy(x), 1},
            {"mutex_typo", "the document's dot_mutex (s_block[tid + 1])", doc1,
             run_dot(x, MUTEX, DOC_TYPO | DOC_NUMBA_SUMS), 0},
            {"mutex_fixed", "dot_mutex fixed (s_block[tid + i])", "",
             run_dot(x, MUTEX, DOC_NUMBA_SUMS), 1},
        };
        for (int r = 0; r < 3; ++r) {
            const double err = fabs(row[r].got - want) / want;
            char repr[32];
            shortest_repr(row[r].got, r == 0, repr, sizeof repr);
            printf("  %-50s %-18s (error %.2g%s)%s%s\n", row[r].label, repr, err,
                   row[r].checked ? ", checked" : ", a demonstration: not checked",
                   row[r].document[0] ? "; the document printed " : "", row[r].document);
            if (row[r].checked)
                ok &= err <= 1e-5;
            tut_csv_row(csv, "%s,%s,%zu,%d,%s,%.9g,%.3g,%s", name, row[r].kernel, n,
                        x->doc_blocks, repr, want, err, row[r].document);
        }
    }
    tut_csv_close(csv);
    return ok;
}

int main(int argc, char **argv)
{
    unsigned long long n = 0, seed = TUT_DEFAULT_SEED, blocks = DOT_DOC_BLOCKS, reps = 10;
    int bench = 0, no_typo = 0, document = 0;
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &n, "elements (default 1e7; 1e8 with --bench)", 1, 1e9, NULL},
        {"--seed", TUT_OPT_SIZE, &seed, "seed of the random inputs", 1, 0, NULL},
        {"--blocks", TUT_OPT_SIZE, &blocks, "grid of the document's kernels (its 32 x 20)", 1,
         1 << 20, NULL},
        {"--reps", TUT_OPT_SIZE, &reps, "timed repetitions (median)", 1, 1000, NULL},
        {"--bench", TUT_OPT_FLAG, &bench, "time every variant against CUB", 0, 0, NULL},
        {"--no-typo-demo", TUT_OPT_FLAG, &no_typo,
         "skip the document's dot_mutex (its typo is also a shared-memory race: racecheck "
         "rightly flags it)", 0, 0, NULL},
        {"--document", TUT_OPT_FLAG, &document,
         "only the document's outputs: its dot products on its input and on random input, with "
         "and without its typo (dot_document.csv)", 0, 0, NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "write CSV results into this folder", 1, 0, NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "atomics_dot: a dot product finished on the CPU, with a mutex, with "
                      "atomics, fast, and CUB",
                      opts, TUT_COUNT(opts));
    if (n == 0)
        n = bench ? 100000000ull : 10000000ull;
    if (bench && document) {
        fprintf(stderr, "error: --document and --bench are separate runs\n");
        return 2;
    }
    tut_select_device(TUT_NEED_NOTHING);
    const tut_device_info *dev = tut_current_device();

    /* a and b in one buffer, each padded to a multiple of 4 floats (16-byte aligned float4s). */
    dot_context x;
    memset(&x, 0, sizeof x);
    const size_t padded = ((size_t)n + 3) / 4 * 4;
    x.n = (size_t)n;
    x.buffer_n = 2 * padded;
    float *buffer = (float *)tut_device_alloc(tut_bytes(x.buffer_n, sizeof(float), "a, b"), "a, b");
    CUDA_CHECK(cudaMemset(buffer, 0, x.buffer_n * sizeof(float)));
    x.buffer = buffer;
    x.a = buffer;
    x.b = buffer + padded;
    /* The grids, from this GPU's limits (dot_choose in atomics_config.c). */
    const kernel_cost doc = costlier(
        costlier(kernel_cost_of((const void *)dot_partial_kernel),
                 kernel_cost_of((const void *)dot_mutex_kernel)),
        kernel_cost_of((const void *)dot_atomic_kernel));
    const kernel_cost fast = costlier(kernel_cost_of((const void *)dot_fast_atomic_kernel),
                                      kernel_cost_of((const void *)dot_fast_2pass_kernel));
    const dot_config config = dot_choose(dev, doc, fast, (int)blocks);
    if (config.doc_blocks == 0 || config.fast_per_sm == 0) {
        fprintf(stderr, "error: a dot kernel does not fit this GPU: %s\n", config.why);
        return 2;
    }
    printf("launch choices for %s%s: the document's kernels %d x %d threads; the fast ones "
           "%d x %d (%d per SM)\n", dev->emulated[0] ? "the limits of a " : "this GPU",
           dev->emulated, config.doc_blocks, DOC_THREADS, config.fast_blocks, FAST_THREADS,
           config.fast_per_sm);
    x.doc_blocks = config.doc_blocks;
    x.fast_blocks = config.fast_blocks;
    x.partial = (float *)tut_device_alloc(tut_bytes(config.max_blocks, sizeof(float), "sums"),
                                          "block sums");
    x.c = (float *)tut_device_alloc(sizeof(float), "result");
    x.mutex = (int *)tut_device_alloc(sizeof(int), "mutex");
    x.tickets = (unsigned int *)tut_device_alloc(sizeof(unsigned int), "tickets");
    CUDA_CHECK(cudaMemset(x.mutex, 0, sizeof(int)));
    CUDA_CHECK(cudaMemset(x.tickets, 0, sizeof(unsigned int)));
    cub_sum(&x, NULL, &x.cub_temp_bytes);
    x.cub_temp = tut_device_alloc(x.cub_temp_bytes, "CUB temp");

    float *a = (float *)tut_host_alloc(tut_bytes(n, sizeof(float), "a"), "a");
    float *b = (float *)tut_host_alloc(tut_bytes(n, sizeof(float), "b"), "b");
    int ok = 1;

    if (document) { /* the document's outputs only, then stop */
        ok = document_demo(&x, a, b, seed, outdir);
        release(&x, buffer, a, b);
        return tut_finish(ok);
    }
    if (!bench && !no_typo) /* the document's outputs first, on the way */
        ok &= document_demo(&x, a, b, seed, NULL);

    tut_rng rng;
    tut_rng_seed(&rng, seed);
    tut_rng_fill_f32(&rng, a, n, 0.0f, 1.0f);
    tut_rng_fill_f32(&rng, b, n, 0.0f, 1.0f);
    CUDA_CHECK(cudaMemcpy((void *)x.a, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy((void *)x.b, b, n * sizeof(float), cudaMemcpyHostToDevice));
    const double want = dot_reference(a, b, n);
    double sum_ab = 0.0;
    for (size_t i = 0; i < n; ++i)
        sum_ab += (double)a[i] + (double)b[i];
    printf("\nrandom input, a and b uniform in [0, 1), seed %llu, n = %llu: exact %.6f\n", seed,
           n, want);

    /* Every variant checked, relative error under 1e-5 against float64 (all terms >= 0). */
    double got[NVARIANTS];
    for (int v = 0; v < NVARIANTS; ++v) {
        char label[64];
        snprintf(label, sizeof label, "  %-12s", variant_names[v]);
        got[v] = run_dot(&x, v, 0);
        ok &= tut_check_scalar(label, got[v], v == CUB_SUM ? sum_ab : want, 0.0, 1e-5);
    }
    double again = run_dot(&x, FAST_2PASS, 0);
    if (again != got[FAST_2PASS]) {
        printf("  fast_2pass gave %.9g then %.9g: it should be deterministic\n", got[FAST_2PASS],
               again);
        ok = 0;
    }

    if (ok && n >= 1000000) {
        const double bytes = 8.0 * (double)n;
        const double cub_bytes = 4.0 * (double)x.buffer_n;
        tut_timing t[NVARIANTS];
        int batch[NVARIANTS];
        for (int v = 0; v < NVARIANTS; ++v) {
            t[v] = time_dot(&x, v, (int)reps);
            batch[v] = x.batch;
        }
        const double cub_gbps = cub_bytes / (t[CUB_SUM].median_ms * 1e6);
        tut_csv *csv = tut_csv_open(outdir, "dot_bandwidth.csv",
                                    "variant,blocks,ms,gbps,fraction_of_cub,ms_min,ms_max,batch,"
                                    "rel_error");
        tut_csv_comment(csv, "n = %llu floats; each variant reads a and b (8n bytes)", n);
        tut_csv_comment(csv, "ms: median of %llu timings of `batch` calls back to back, per call;"
                             " ms_min, ms_max: the fastest and slowest timing; rel_error: of the "
                             "checked result against the float64 sum", reps);
        printf("\n%-12s %8s %10s %10s %10s %10s %10s   (n = %llu, %.0f MB read; ms per call: "
               "median, min, max)\n", "variant", "blocks", "ms", "min", "max", "GB/s",
               "% of CUB", n, bytes / 1e6);
        for (int v = 0; v < NVARIANTS; ++v) {
            double gbps = (v == CUB_SUM ? cub_bytes : bytes) / (t[v].median_ms * 1e6);
            int nb = (v == FAST_ATOMIC || v == FAST_2PASS) ? x.fast_blocks
                     : v == CUB_SUM                        ? 0
                                                           : x.doc_blocks;
            printf("%-12s %8d %10.4f %10.4f %10.4f %10.1f %9.1f%%\n", variant_names[v], nb,
                   t[v].median_ms, t[v].min_ms, t[v].max_ms, gbps, 100.0 * gbps / cub_gbps);
            const double exact = v == CUB_SUM ? sum_ab : want;
            tut_csv_row(csv, "%s,%d,%.6f,%.2f,%.4f,%.6f,%.6f,%d,%.2e", variant_names[v], nb,
                        t[v].median_ms, gbps, gbps / cub_gbps, t[v].min_ms, t[v].max_ms,
                        batch[v], fabs(got[v] - exact) / exact);
        }
        /* The fast kernel's grid: k blocks per SM, up to two waves of resident blocks. */
        const int base = x.fast_blocks;
        for (int k = 0; k < config.nsweep && bench; ++k) {
            x.fast_blocks = config.sweep[k] * dev->sm_count;
            const tut_timing g = time_dot(&x, FAST_2PASS, (int)reps);
            const double gbps = bytes / (g.median_ms * 1e6);
            printf("%-12s %8d %10.4f %10.4f %10.4f %10.1f %9.1f%%   (grid sweep: %d per SM)\n",
                   "fast_2pass", x.fast_blocks, g.median_ms, g.min_ms, g.max_ms, gbps,
                   100.0 * gbps / cub_gbps, config.sweep[k]);
            tut_csv_row(csv, "fast_2pass_grid,%d,%.6f,%.2f,%.4f,%.6f,%.6f,%d,", x.fast_blocks,
                        g.median_ms, gbps, gbps / cub_gbps, g.min_ms, g.max_ms, x.batch);
        }
        x.fast_blocks = base;
        tut_csv_close(csv);
        dot_roofline(outdir, x.n, x.buffer_n, variant_names, t, NVARIANTS, CUB_SUM);
    }

    release(&x, buffer, a, b);
    return tut_finish(ok);
}
