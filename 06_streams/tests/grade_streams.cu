/* The graders' shared rig for chapter 06 (tests/grade_streams.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "global_timer.cuh"
#include "grade_streams.h"
#include "kernels.h"
#include "plan.h"
#include "reference.h"
#include "tutorial.h"

#define SPEED_N 20000000ull /* the chapter's benchmark: the document's 20M elements */
#define CALIBRATION_WORK 256
#define KERNEL_SHARE_OF_COPY_IN 0.8

int rig_case_shape(tut_grader *g, const char *case_name, rig_shape *s)
{
    if (strcmp(case_name, "one") == 0) {
        s->n = 1;
        s->chunks = 1;
        s->streams = 1;
        s->work = (unsigned)tut_grader_size(g, 0, 5);
    } else if (strcmp(case_name, "primes") == 0) {
        s->n = tut_grader_prime(g, 1000, 300000);
        s->chunks = tut_grader_prime(g, 2, 31);
        s->streams = (int)tut_grader_prime(g, 2, 7);
        s->work = (unsigned)tut_grader_prime(g, 2, 31);
    } else if (strcmp(case_name, "random") == 0) {
        s->n = tut_grader_size(g, 2, 3000000);
        s->chunks = tut_grader_size(g, 1, s->n < 64 ? s->n : 64);
        s->streams = (int)tut_grader_size(g, 1, s->chunks < 16 ? s->chunks : 16);
        s->work = (unsigned)tut_grader_size(g, 0, 40);
    } else if (strcmp(case_name, "overlap") == 0) {
        /* Many chunks on several streams, issued while the SMs are held (grade_ex3_ring.cu:
         * rig_issue_with_sms_held): every stream's first copy-in lands before any kernel runs,
         * so a buffer that two streams share is overwritten before one of them has read it. */
        s->n = tut_grader_size(g, 1000000, 2000000);
        s->chunks = tut_grader_size(g, 16, 32);
        s->streams = (int)tut_grader_size(g, 3, 6);
        s->work = (unsigned)tut_grader_size(g, 24, 48);
    } else if (strcmp(case_name, "many_streams") == 0) {
        s->n = tut_grader_size(g, 4096, 100000);
        s->chunks = tut_grader_size(g, 64, STREAMS_MAX_STREAMS);
        s->streams = (int)tut_grader_size(g, 32, s->chunks);
        s->work = 0;
    } else {
        return 0;
    }
    if (s->streams > (int)s->chunks)
        s->streams = (int)s->chunks;
    printf("n = %zu elements in %zu chunks on %d streams, work %u\n", s->n, s->chunks, s->streams,
           s->work);
    return 1;
}

void rig_create(stream_rig *r, size_t n, int streams, unsigned work, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->n = n;
    r->work = work;
    r->streams = streams;
    const size_t bytes = n * sizeof(int32_t);
    CUDA_CHECK(cudaMallocHost((void **)&r->h_x, bytes));
    CUDA_CHECK(cudaMallocHost((void **)&r->h_y, bytes));
    CUDA_CHECK(cudaMallocHost((void **)&r->h_out, bytes));
    r->want = (int32_t *)tut_host_alloc(bytes, "expected output");
    fill_inputs(r->h_x, r->h_y, n, 1, seed);
    reference_output(r->h_x, r->h_y, r->want, n, work);
    r->d_x = (int32_t *)tut_device_alloc(bytes, "x");
    r->d_y = (int32_t *)tut_device_alloc(bytes, "y");
    r->d_out = (int32_t *)tut_device_alloc(bytes, "out");
    for (int s = 0; s < streams; ++s)
        CUDA_CHECK(cudaStreamCreate(&r->stream[s]));
}

void rig_destroy(stream_rig *r)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int s = 0; s < r->streams; ++s)
        CUDA_CHECK(cudaStreamDestroy(r->stream[s]));
    CUDA_CHECK(cudaFreeHost(r->h_x));
    CUDA_CHECK(cudaFreeHost(r->h_y));
    CUDA_CHECK(cudaFreeHost(r->h_out));
    free(r->want);
    tut_device_free(r->d_x);
    tut_device_free(r->d_y);
    tut_device_free(r->d_out);
}

void rig_poison(stream_rig *r)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    memset(r->h_out, 0xFF, r->n * sizeof(int32_t));
    tut_grader_poison(r->d_out, r->n * sizeof(int32_t));
    CUDA_CHECK(cudaDeviceSynchronize());
}

int rig_check(const stream_rig *r, const char *label)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    return tut_check_i32(label, r->h_out, r->want, r->n);
}

void rig_copy_in(void *p)
{
    const stream_rig *r = (const stream_rig *)p;
    const size_t bytes = r->n * sizeof(int32_t);
    CUDA_CHECK(cudaMemcpyAsync(r->d_x, r->h_x, bytes, cudaMemcpyHostToDevice, 0));
    CUDA_CHECK(cudaMemcpyAsync(r->d_y, r->h_y, bytes, cudaMemcpyHostToDevice, 0));
}

void rig_kernel(void *p)
{
    const stream_rig *r = (const stream_rig *)p;
    launch_chunk_kernel(r->d_x, r->d_y, r->d_out, r->n, r->work, 0);
}

void rig_copy_out(void *p)
{
    const stream_rig *r = (const stream_rig *)p;
    CUDA_CHECK(cudaMemcpyAsync(r->h_out, r->d_out, r->n * sizeof(int32_t),
                               cudaMemcpyDeviceToHost, 0));
}

void rig_serial(void *p)
{
    rig_copy_in(p);
    rig_kernel(p);
    rig_copy_out(p);
}

static double best_ms(tut_work_fn work, void *arg)
{
    return tut_time_gpu_batched(work, arg, 1, 3, 1).min_ms;
}

/* Thread 0 of each block says it is resident (host memory), then waits until the host's word
 * (host memory, which only block 0 reads, every few microseconds, so that the hold does not
 * load the PCIe bus the pipeline's copies use) reaches it through `stop` (device memory), or
 * until limit_ns have passed: a grader whose issue function waits for its streams must not wait
 * for ever. The block's other threads wait at the barrier, taking their thread slots all along. */
static __device__ unsigned int hold_stop;

static __global__ void hold_sms_kernel(volatile unsigned int *resident,
                                       const volatile unsigned int *release,
                                       unsigned long long limit_ns)
{
    if (threadIdx.x == 0) {
        resident[blockIdx.x] = 1u;
        __threadfence_system();
        volatile unsigned int *stop = &hold_stop;
        const unsigned long long start = tut_global_ns();
        unsigned long long polled = start;
        while (*stop == 0u && tut_global_ns() - start < limit_ns) {
            if (blockIdx.x == 0 && tut_global_ns() - polled > 5000ull) {
                polled = tut_global_ns();
                if (*release != 0u)
                    *stop = 1u;
            }
        }
    }
    __syncthreads();
}

void rig_issue_with_sms_held(stream_rig *r, void (*issue)(void *), void *arg)
{
    const tut_device_info *dev = tut_current_device();
    const int threads = 128;
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hold_sms_kernel, threads, 0));
    const int blocks = per_sm * dev->sm_count;
    if (per_sm * threads < dev->max_threads_per_sm)
        printf("note: the hold takes %d of %d threads per SM: a chunk's kernel may still start\n",
               per_sm * threads, dev->max_threads_per_sm);

    /* How long the whole copy-in takes alone: the pipeline's first chunks land well within. */
    const double copy_in_ms = best_ms(rig_copy_in, r);
    const double hold_ms = 20.0 * copy_in_ms > 50.0 ? 20.0 * copy_in_ms : 50.0;

    unsigned int *flags = NULL; /* [0, blocks): resident; [blocks]: release */
    CUDA_CHECK(cudaHostAlloc((void **)&flags, ((size_t)blocks + 1) * sizeof(unsigned int),
                             cudaHostAllocMapped));
    memset(flags, 0, ((size_t)blocks + 1) * sizeof(unsigned int));
    unsigned int *d_flags = NULL;
    CUDA_CHECK(cudaHostGetDevicePointer((void **)&d_flags, flags, 0));
    cudaStream_t hold; /* non-blocking: the rig's streams must not wait for it */
    CUDA_CHECK(cudaStreamCreateWithFlags(&hold, cudaStreamNonBlocking));
    const unsigned int zero = 0u;
    CUDA_CHECK(cudaMemcpyToSymbol(hold_stop, &zero, sizeof zero));
    const unsigned long long limit_ns = (unsigned long long)((hold_ms + 2000.0) * 1e6);
    hold_sms_kernel<<<blocks, threads, 0, hold>>>(d_flags, d_flags + blocks, limit_ns);
    CUDA_CHECK(cudaGetLastError());

    /* Every block resident before the pipeline is issued (10 s at most). */
    const volatile unsigned int *seen = flags;
    int resident = 0;
    const double deadline = tut_cpu_seconds() + 10.0;
    while (resident < blocks && tut_cpu_seconds() < deadline) {
        resident = 0;
        for (int b = 0; b < blocks; ++b)
            resident += seen[b] != 0u;
    }
    printf("SMs held: %d of %d blocks of %d threads resident; the copy-in alone takes %.3f ms; "
           "the pipeline's kernels wait %.0f ms\n", resident, blocks, threads, copy_in_ms, hold_ms);
    if (resident < blocks)
        printf("note: not every block of the hold became resident: kernels may start early\n");

    issue(arg);
    const double until = tut_cpu_seconds() + 1e-3 * hold_ms;
    while (tut_cpu_seconds() < until) {
    }
    ((volatile unsigned int *)flags)[blocks] = 1u;
    CUDA_CHECK(cudaStreamSynchronize(hold));
    CUDA_CHECK(cudaStreamDestroy(hold));
    CUDA_CHECK(cudaFreeHost(flags));
}

void record_streams(const cudaStream_t *stream, int streams, void (*issue)(void *), void *arg,
                    recorded_stream *out)
{
    tut_graph graph[STREAMS_MAX_STREAMS];
    tut_capture_each(stream, streams, issue, arg, graph);
    for (int s = 0; s < streams; ++s) {
        recorded_stream *rec = &out[s];
        const size_t count = graph[s].count;
        rec->kernels = 0;
        rec->copies = 0;
        rec->copy = (recorded_copy *)tut_host_alloc((count ? count : 1) * sizeof *rec->copy,
                                                    "recorded copies");
        for (size_t i = 0; i < count; ++i) {
            const tut_graph_node *node = &graph[s].node[i];
            rec->kernels += node->kind == TUT_NODE_KERNEL;
            if (node->kind != TUT_NODE_COPY)
                continue;
            recorded_copy *copy = &rec->copy[rec->copies++];
            for (int side = 0; side < 2; ++side) {
                copy->begin[side] = node->begin[side];
                copy->end[side] = node->end[side];
            }
        }
    }
    tut_graphs_free(graph, streams);
}

void recorded_streams_free(recorded_stream *out, int streams)
{
    for (int s = 0; s < streams; ++s)
        free(out[s].copy);
}

void rig_speed_setup(tut_grader *g, stream_rig *r, size_t *chunks)
{
    const tut_device_info *dev = g->dev;
    if (dev->async_engines < 2) {
        printf("skipped: this GPU has %d copy engine(s): its copies take turns, so no pipeline "
               "can reach the copy-in alone\n", dev->async_engines);
        exit(TUT_EXIT_SKIP);
    }
    const pipeline_plan plan = plan_pipeline(dev, SPEED_N);
    rig_create(r, SPEED_N, plan.streams, 0, g->seed);
    *chunks = plan.chunks;
    /* A kernel 0.8 x as long as the copy-in: long enough that a pipeline which does not
     * overlap it with the copies is far from the bound, short enough that the copy-in stays
     * the bound (the chapter's "mix" kernel, calibrate_work in streams.cu). */
    const double copy_in = best_ms(rig_copy_in, r);
    const double target = KERNEL_SHARE_OF_COPY_IN * copy_in;
    const double base = best_ms(rig_kernel, r);
    /* A guess from a short run, then one correction from a run at the guess: at few rounds the
     * kernel still waits on memory, and the time per round looks smaller than it is. */
    double work = CALIBRATION_WORK;
    for (int pass = 0; pass < 2; ++pass) {
        r->work = (unsigned)(work + 0.5);
        const double per_round = (best_ms(rig_kernel, r) - base) / r->work;
        work = per_round > 0.0 ? (target - base) / per_round : 1.0;
        work = work < 1.0 ? 1.0 : work > 1e6 ? 1e6 : work;
    }
    r->work = (unsigned)(work + 0.5);
    reference_output(r->h_x, r->h_y, r->want, r->n, r->work);
    printf("speed: %zu elements, %zu chunks on %d streams; copy-in alone %.3f ms; kernel of %u "
           "rounds %.3f ms\n", r->n, *chunks, r->streams, copy_in, r->work,
           best_ms(rig_kernel, r));
}

int rig_speed_verdict(stream_rig *r, const char *name, void (*issue)(void *), void *arg,
                      double bar)
{
    rig_poison(r);
    issue(arg);
    char label[96];
    snprintf(label, sizeof label, "  %s at the benchmark size", name);
    if (!rig_check(r, label))
        return 0;
    double pipeline_ms = 0.0, copy_in_ms = 0.0;
    tut_grader_time_pair(issue, arg, rig_copy_in, r, &pipeline_ms, &copy_in_ms);
    const double g = 1e-6 * (double)r->n;
    return tut_grader_speed_verdict(name, g / pipeline_ms, "copy-in alone (the PCIe bound)",
                                    g / copy_in_ms, "G elements/s", bar);
}

static size_t boundary_shape_add(tut_grader *g, rig_boundary *out, size_t count, size_t cap,
                                 int streams, const char *chunks_name, size_t chunks,
                                 const char *n_name, size_t n)
{
    if (count >= cap || n < chunks || chunks < (size_t)streams)
        return count;
    rig_boundary *b = &out[count];
    b->shape.n = n;
    b->shape.chunks = chunks;
    b->shape.streams = streams;
    b->shape.work = (unsigned)tut_grader_size(g, 0, 5);
    /* What a split of ceil(n / chunks) per chunk would leave empty (chunk_of leaves none). */
    const size_t empty = tut_boundary_empty_parts(n, chunks);
    snprintf(b->name, sizeof b->name, "streams %d, chunks %s = %zu, n %s = %zu%s", streams,
             chunks_name, chunks, n_name, n, empty ? " (ceil split: last chunks empty)" : "");
    return count + 1;
}

size_t rig_boundary_shapes(tut_grader *g, rig_boundary *out, size_t cap)
{
    const tut_width queues[] = {{"queues", 8}}; /* CUDA_DEVICE_MAX_CONNECTIONS' default */
    tut_boundary stream_counts[16];
    const size_t stream_count = tut_boundary_sizes(queues, 1, 9, stream_counts, 16);
    size_t count = 0;
    for (size_t i = 0; i < stream_count; ++i) {
        const int streams = (int)stream_counts[i].n;
        const tut_width per_lap[] = {{"streams", (size_t)streams}};
        tut_boundary chunk_counts[16];
        const size_t chunk_count = tut_boundary_sizes(per_lap, 1, 2 * (size_t)streams + 1,
                                                      chunk_counts, 16);
        for (size_t j = 0; j < chunk_count; ++j) {
            const size_t chunks = chunk_counts[j].n;
            const char *cname = chunk_counts[j].name;
            const size_t ns[5] = {chunks, chunks + 1, 37 * chunks - 1, 37 * chunks,
                                  37 * chunks + 1};
            static const char *const nnames[5] = {"chunks", "chunks+1", "chunks*37-1",
                                                  "chunks*37", "chunks*37+1"};
            for (int k = 0; k < 5; ++k)
                count = boundary_shape_add(g, out, count, cap, streams, cname, chunks,
                                           nnames[k], ns[k]);
        }
    }
    return boundary_shape_add(g, out, count, cap, STREAMS_MAX_STREAMS, "max streams",
                              STREAMS_MAX_STREAMS, "chunks+1", STREAMS_MAX_STREAMS + 1);
}
