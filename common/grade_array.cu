/* The graders' harness for array kernels (grade_array.h): draw, reference, poison, run, check. */
#include "grade_array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "capture.h"
#include "global_timer.cuh"
#include "tutorial.h"

/* How long a launcher's stream is held before its inputs arrive: far longer than a launch takes
 * to start, so a kernel on another stream runs on the poison. */
#define HOLD_NS 5000000ull

static size_t type_size(tut_array_type t)
{
    return t == TUT_ARRAY_F64 ? sizeof(double) : sizeof(float); /* I32: 4 bytes too */
}

/* The guard zone on each side of an array: none for an input, whose allocation ends at its last
 * element so that compute-sanitizer's memcheck sees a read past the end. */
static size_t guard_of(const tut_array_spec *a)
{
    return a->role == TUT_ARRAY_IN ? 0 : TUT_ARRAY_GUARD_BYTES;
}

typedef struct {
    tut_arrays s;
    void *base[TUT_ARRAY_MAX];    /* device allocations: guard, n elements, guard */
    void *staged[TUT_ARRAY_MAX];  /* device copies of the inputs (a launcher's late arrival) */
    void *got[TUT_ARRAY_MAX];     /* host: guard, n elements, guard, as read back */
} arrays_run;

static void fill_input(tut_grader *g, const tut_array_spec *a, void *host, size_t n)
{
    if (a->type == TUT_ARRAY_F32) {
        tut_rng_fill_f32(&g->rng, (float *)host, n, (float)a->lo, (float)a->hi);
    } else if (a->type == TUT_ARRAY_F64) {
        tut_rng_fill_f64(&g->rng, (double *)host, n, a->lo, a->hi);
    } else {
        const long long lo = (long long)a->lo, span = (long long)a->hi - lo;
        int *x = (int *)host;
        for (size_t i = 0; i < n; ++i)
            x[i] = (int)(lo + (long long)tut_rng_below(&g->rng, (uint64_t)(span > 0 ? span : 1)));
    }
}

static void arrays_alloc(tut_grader *g, const tut_array_job *job, size_t n, int staged,
                         arrays_run *r)
{
    if (job->array_count < 1 || job->array_count > TUT_ARRAY_MAX) {
        fprintf(stderr, "%s: %d arrays (1 to %d)\n", job->label, job->array_count, TUT_ARRAY_MAX);
        exit(2); /* bad usage: the grader itself is wrong */
    }
    memset(r, 0, sizeof *r);
    r->s.n = n;
    for (int k = 0; k < job->array_count; ++k) {
        const tut_array_spec *a = &job->arrays[k];
        const size_t elem = type_size(a->type);
        const size_t bytes = tut_bytes(n ? n : 1, elem, a->name);
        const size_t guarded = bytes + 2 * guard_of(a);
        if (a->role != TUT_ARRAY_OUT) {
            r->s.host[k] = tut_host_alloc(bytes, a->name);
            fill_input(g, a, r->s.host[k], n);
        }
        if (a->role != TUT_ARRAY_IN) {
            r->s.want[k] = tut_host_alloc(bytes, "reference");
            r->got[k] = tut_host_alloc(guarded, "result");
        }
        r->base[k] = tut_device_alloc(guarded, a->name);
        r->s.dev[k] = (char *)r->base[k] + guard_of(a);
        if (staged && r->s.host[k]) {
            r->staged[k] = tut_device_alloc(bytes, a->name);
            CUDA_CHECK(cudaMemcpy(r->staged[k], r->s.host[k], n * elem, cudaMemcpyHostToDevice));
        }
    }
    job->reference(&r->s, job->ctx);
}

static void arrays_free(const tut_array_job *job, arrays_run *r)
{
    for (int k = 0; k < job->array_count; ++k) {
        tut_device_free(r->base[k]);
        if (r->staged[k])
            tut_device_free(r->staged[k]);
        free(r->s.host[k]);
        free(r->s.want[k]);
        free(r->got[k]);
    }
}

/* Every array poisoned, guards included; then the inputs written (a kernel) or left poisoned
 * for the late arrival (a launcher). */
static void arrays_prepare(const tut_array_job *job, arrays_run *r, int late)
{
    for (int k = 0; k < job->array_count; ++k) {
        const tut_array_spec *a = &job->arrays[k];
        const size_t bytes = r->s.n * type_size(a->type);
        tut_grader_poison(r->base[k], bytes + 2 * guard_of(a));
        if (r->s.host[k] && !late && bytes)
            CUDA_CHECK(cudaMemcpy(r->s.dev[k], r->s.host[k], bytes, cudaMemcpyHostToDevice));
    }
}

static __global__ void hold_kernel(unsigned long long ns)
{
    const unsigned long long start = tut_global_ns();
    do
        __nanosleep(10000);
    while (tut_global_ns() - start < ns);
}

/* The first element of got[] (n elements, the guards around them) that differs from the poison,
 * or (size_t)-1. */
static size_t guard_hit(const unsigned char *bytes, size_t from, size_t to)
{
    for (size_t i = from; i < to; ++i)
        if (bytes[i] != 0xFF)
            return i;
    return (size_t)-1;
}

static int check_array(const tut_array_job *job, const arrays_run *r, int k)
{
    const tut_array_spec *a = &job->arrays[k];
    const size_t n = r->s.n, elem = type_size(a->type), G = TUT_ARRAY_GUARD_BYTES;
    const unsigned char *raw = (const unsigned char *)r->got[k];
    char label[96];
    snprintf(label, sizeof label, "%s %s", job->label, a->name);
    int ok = 1;
    if (n) {
        const void *got = raw + G;
        if (a->type == TUT_ARRAY_F32)
            ok = tut_check_f32(label, (const float *)got, (const float *)r->s.want[k], n,
                               job->atol, job->rtol, NULL);
        else if (a->type == TUT_ARRAY_F64)
            ok = tut_check_f64(label, (const double *)got, (const double *)r->s.want[k], n,
                               job->atol, job->rtol, NULL);
        else
            ok = tut_check_i32(label, (const int32_t *)got, (const int32_t *)r->s.want[k], n);
    }
    const size_t before = guard_hit(raw, 0, G);
    const size_t after = guard_hit(raw, G + n * elem, 2 * G + n * elem);
    if (before != (size_t)-1) {
        printf("  %s wrote before the start: %s[-%zu] changed (n = %zu; the %zu bytes before "
               "it must stay untouched)\n", job->label, a->name, (G - before + elem - 1) / elem,
               n, G);
        ok = 0;
    }
    if (after != (size_t)-1) {
        const size_t at = n + (after - G - n * elem) / elem;
        unsigned bits = 0;
        memcpy(&bits, raw + G + at * elem, elem < sizeof bits ? elem : sizeof bits);
        printf("  %s wrote past the end: %s[%zu] changed (n = %zu; found bits %08x, expected "
               "ffffffff, untouched)\n", job->label, a->name, at, n, bits);
        ok = 0;
    }
    return ok;
}

/* A launcher's call once more, recorded by stream capture on a stream of the harness (nothing
 * runs): its work must be queued on the stream it is given. A launcher that waits on the host
 * (cudaDeviceSynchronize) and then launches on the default stream gets the late inputs, so the
 * values pass; here the stream it was given holds nothing, and the host wait stops the capture
 * with an error. n = 0: nothing to queue. */
typedef struct {
    const tut_array_job *job;
    const tut_arrays *s;
    cudaStream_t stream;
} launcher_call;

static void issue_launcher(void *arg)
{
    const launcher_call *c = (const launcher_call *)arg;
    const tut_launch how = {0, 0, c->stream};
    c->job->run(c->s, how, c->job->ctx);
}

static int launcher_on_its_stream(const tut_array_job *job, const arrays_run *r)
{
    if (r->s.n == 0)
        return 1;
    printf("%s: n = %zu, the launcher's call recorded by stream capture (a host wait inside it "
           "stops the capture with an error)\n", job->label, r->s.n);
    fflush(stdout);
    launcher_call call = {job, &r->s, NULL};
    CUDA_CHECK(cudaStreamCreateWithFlags(&call.stream, cudaStreamNonBlocking));
    tut_graph graph;
    tut_capture_each(&call.stream, 1, issue_launcher, &call, &graph);
    const size_t nodes = graph.count;
    tut_graph_free(&graph);
    CUDA_CHECK(cudaDeviceSynchronize()); /* work queued on another stream ran for real */
    CUDA_CHECK(cudaStreamDestroy(call.stream));
    if (nodes == 0)
        printf("  %s queued nothing on the stream it was given (n = %zu): its kernel went to "
               "another stream (the default one?), which orders nothing after the caller's "
               "work on that stream\n", job->label, r->s.n);
    return nodes > 0;
}

/* Runs the code once on r's arrays: a kernel on blocks x threads on the legacy stream, or the
 * launcher on a stream held until the inputs arrive (then its call recorded, above). Then reads
 * every written array back and checks it. */
static int run_and_check(tut_grader *g, const tut_array_job *job, arrays_run *r,
                         unsigned blocks, unsigned threads)
{
    const int launcher = job->kernel == NULL;
    arrays_prepare(job, r, launcher);
    tut_launch how = {blocks, threads, 0};
    if (launcher) {
        printf("%s: n = %zu, the launcher on a stream whose inputs arrive late\n", job->label,
               r->s.n);
        CUDA_CHECK(cudaStreamCreateWithFlags(&how.stream, cudaStreamNonBlocking));
        hold_kernel<<<1, 1, 0, how.stream>>>(HOLD_NS);
        LAUNCH_CHECK();
        for (int k = 0; k < job->array_count; ++k)
            if (r->staged[k] && r->s.n)
                CUDA_CHECK(cudaMemcpyAsync(r->s.dev[k], r->staged[k],
                                           r->s.n * type_size(job->arrays[k].type),
                                           cudaMemcpyDeviceToDevice, how.stream));
    } else {
        printf("%s: n = %zu, %u blocks x %u threads\n", job->label, r->s.n, blocks, threads);
    }
    job->run(&r->s, how, job->ctx);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaDeviceSynchronize());
    if (launcher)
        CUDA_CHECK(cudaStreamDestroy(how.stream));
    int ok = 1;
    for (int k = 0; k < job->array_count; ++k) {
        if (job->arrays[k].role == TUT_ARRAY_IN)
            continue;
        const size_t bytes = r->s.n * type_size(job->arrays[k].type) + 2 * TUT_ARRAY_GUARD_BYTES;
        CUDA_CHECK(cudaMemcpy(r->got[k], r->base[k], bytes, cudaMemcpyDeviceToHost));
        ok = check_array(job, r, k) && ok;
    }
    if (ok && launcher)
        ok = launcher_on_its_stream(job, r);
    if (ok && job->structure)
        ok = job->structure(g, &r->s, job->ctx);
    return ok;
}

int tut_array_check(tut_grader *g, const tut_array_job *job, size_t n, unsigned blocks,
                    unsigned threads)
{
    arrays_run r;
    arrays_alloc(g, job, n, job->kernel == NULL, &r);
    const int ok = run_and_check(g, job, &r, blocks, threads);
    arrays_free(job, &r);
    return ok;
}

void tut_array_random_grid(tut_grader *g, unsigned *blocks, unsigned *threads)
{
    *blocks = (unsigned)tut_grader_size(g, 1, 64);
    *threads = 32u * (unsigned)tut_grader_size(g, 1, 8);
}

void tut_array_wave(tut_grader *g, const tut_array_job *job, unsigned *blocks, unsigned *threads)
{
    tut_kernel_use use = tut_kernel_use_of(job->kernel, 1, 0);
    use.threads = tut_best_block_size(g->dev, use, 256);
    *threads = (unsigned)use.threads;
    *blocks = (unsigned)(g->dev->sm_count * tut_blocks_per_sm(g->dev, use));
}

/* ---------------------------------------------------------------- boundaries */

typedef struct {
    const tut_array_job *job;
    unsigned blocks, threads;
} boundary_grid;

static int boundary_check(tut_grader *g, size_t n, void *ctx)
{
    const boundary_grid *b = (const boundary_grid *)ctx;
    return tut_array_check(g, b->job, n, b->blocks, b->threads);
}

/* Every boundary size of widths[] up to max, each checked on b's grid (or the launcher's). */
static int boundaries_on(tut_grader *g, boundary_grid *b, const tut_width *widths, int count,
                         size_t max)
{
    tut_boundary sizes[128];
    const size_t n_sizes = tut_boundary_sizes(widths, count, max, sizes, TUT_COUNT(sizes));
    if (b->blocks)
        printf("%s boundaries on %u blocks x %u threads: %zu sizes up to %zu\n", b->job->label,
               b->blocks, b->threads, n_sizes, max);
    else
        printf("%s boundaries, the launcher's own grid: %zu sizes up to %zu\n", b->job->label,
               n_sizes, max);
    return tut_grader_run_boundaries(g, sizes, n_sizes, boundary_check, b);
}

/* The widths, in this order (the first name of a size wins): `first`, the job's own, then the
 * widest vector width of the job's (at most 8) times `grid` (0: none). */
static int boundaries_with(tut_grader *g, boundary_grid *b, const tut_width *first, int n_first,
                           size_t grid, size_t max)
{
    const tut_array_job *job = b->job;
    tut_width widths[16];
    int count = 0;
    size_t vector = 1;
    for (int i = 0; i < n_first && count < 15; ++i)
        widths[count++] = first[i];
    for (int i = 0; i < job->width_count && count < 15; ++i) {
        widths[count++] = job->widths[i];
        if (job->widths[i].width > vector && job->widths[i].width <= 8)
            vector = job->widths[i].width;
    }
    if (grid && vector > 1)
        widths[count++] = (tut_width){"vector*grid", vector * grid};
    return boundaries_on(g, b, widths, count, max ? max : 2 * vector * grid + 2);
}

/* A kernel on one grid: the warp, the block, the grid's threads, the job's widths. */
static int kernel_boundaries(tut_grader *g, boundary_grid *b)
{
    const size_t grid = (size_t)b->blocks * b->threads;
    const tut_width first[] = {
        {"warp", (size_t)g->dev->warp_size}, {"block", b->threads}, {"grid", grid}};
    return boundaries_with(g, b, first, TUT_COUNT(first), grid, 0);
}

int tut_array_boundaries(tut_grader *g, const tut_array_job *job)
{
    if (job->kernel == NULL) {
        const size_t wave = (size_t)g->dev->sm_count * 2048;
        const tut_width first[] = {{"warp", (size_t)g->dev->warp_size}, {"block256", 256},
                                   {"block1024", 1024}, {"wave", wave}};
        boundary_grid b = {job, 0, 0};
        return boundaries_with(g, &b, first, TUT_COUNT(first), 0, 2 * wave + 2);
    }
    boundary_grid wave = {job, 0, 0}, drawn = {job, 0, 0};
    tut_array_wave(g, job, &wave.blocks, &wave.threads);
    tut_array_random_grid(g, &drawn.blocks, &drawn.threads);
    const int ok = kernel_boundaries(g, &wave);
    return kernel_boundaries(g, &drawn) && ok;
}

/* ---------------------------------------------------------------- speed */

typedef struct {
    const tut_array_job *job;
    const arrays_run *r;
    unsigned blocks, threads;
} speed_run;

static void time_code(void *arg)
{
    const speed_run *s = (const speed_run *)arg;
    const tut_launch how = {s->blocks, s->threads, 0};
    s->job->run(&s->r->s, how, s->job->ctx);
    LAUNCH_CHECK();
}

/* The copy the speed is measured against: array 0 into the first array the kernel writes, n
 * elements of the smaller of their two types (arrays of different types hold n elements each).
 * Returns the bytes per element; *out gets the array copied into. */
static size_t copy_element_size(const tut_array_job *job, int *out)
{
    *out = 0;
    while (*out < job->array_count - 1 && job->arrays[*out].role == TUT_ARRAY_IN)
        ++*out;
    const size_t in_size = type_size(job->arrays[0].type),
                 out_size = type_size(job->arrays[*out].type);
    return in_size < out_size ? in_size : out_size;
}

static void time_copy(void *arg)
{
    const speed_run *s = (const speed_run *)arg;
    int out;
    const size_t size = copy_element_size(s->job, &out);
    CUDA_CHECK(cudaMemcpyAsync(s->r->s.dev[out], s->r->s.dev[0], s->r->s.n * size,
                               cudaMemcpyDeviceToDevice, 0));
}

int tut_array_speed(tut_grader *g, const tut_array_job *job, double bytes_per_element,
                    double bar)
{
    size_t per_element = 0;
    for (int k = 0; k < job->array_count; ++k)
        per_element += type_size(job->arrays[k].type);
    size_t n = (size_t)1 << 28;
    while (n > ((size_t)1 << 24) && !tut_device_fits(per_element * n, 256u << 20))
        n /= 2;
    if (!tut_device_fits(per_element * n, 256u << 20)) {
        printf("skipped: %d arrays of 2^24 elements do not fit in this GPU's free memory\n",
               job->array_count);
        exit(TUT_EXIT_SKIP);
    }
    speed_run s = {job, NULL, 0, 0};
    if (job->kernel)
        tut_array_wave(g, job, &s.blocks, &s.threads);
    arrays_run r;
    arrays_alloc(g, job, n, job->kernel == NULL, &r);
    s.r = &r;
    int ok = run_and_check(g, job, &r, s.blocks, s.threads);
    if (ok) {
        double code_ms, copy_ms;
        tut_grader_time_pair_unless_far(time_code, &s, time_copy, &s, 30.0, &code_ms, &copy_ms);
        int out;
        const double copy_bytes = 2.0 * (double)copy_element_size(job, &out);
        ok = tut_grader_speed_verdict(job->label, bytes_per_element * n / code_ms * 1e-6,
                                      "cudaMemcpy", copy_bytes * n / copy_ms * 1e-6, "GB/s", bar);
    }
    arrays_free(job, &r);
    return ok;
}
