/* The graders' shared rig for chapter 06 (tests/grade_streams.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        /* Many chunks in flight on several streams at once: a chunk's copy-in lands while the
         * chunk before it, in another stream, is still being computed or copied out, so a
         * buffer that two streams share is overwritten while one of them still reads it. */
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
