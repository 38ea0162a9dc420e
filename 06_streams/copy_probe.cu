/* Benchmark only (not a step of the chapter): where the chunked pipeline of `add` loses time
 * against the copy-in bound.
 *
 * The bound is the copy-in of every input byte with nothing else running: x then y, one copy
 * each on one stream ("bound_2copies"), and the same bytes as one copy of a buffer holding both
 * ("bound_1copy"); the ratio uses the faster of the two. The probes, each alone on the GPU:
 *   in_K          the 2K chunk copy-ins of the pipeline (x_i, y_i), on one stream
 *   in_K_2s       the same, chunks alternating between 2 streams (as the pipeline issues them)
 *   in_K+out      the 2K copy-ins on one stream while K copy-outs of the result run on a
 *                 second stream (the other copy engine): the time until the last copy-in ends
 *   in_K_il       K copy-ins of x_i and y_i together, kept interleaved by chunk in one buffer
 *   out_K         the K copy-outs alone
 * and the whole pipeline (copy-in, add kernel, copy-out per chunk, chunks round-robin on the
 * streams) with each schedule: uniform chunks (the chapter's), shrinking chunks (geometric, the
 * last 1/16 of the first: the work after the last copy-in is short), and interleaved inputs.
 * Every configuration is timed in rounds, all configurations once per round in a rotated order
 * (A B C .. then B C .. A, ...), each sample one fork/join run between two events, after a
 * warm-up run each; median, min and max over the rounds. Every pipeline's result is checked
 * against the CPU. Exit 0 pass, 1 wrong result (or a CUDA error, common/check.h), 2 bad usage or
 * sizes that do not fit, 77 no GPU. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunks.h"
#include "kernels.h"
#include "schedule.h"
#include "tutorial.h"

#define MAX_CHUNKS 64
#define MAX_STREAMS 8
#define MAX_CONFIGS 32

typedef enum { UNIFORM, SHRINKING } schedule;

/* Chunk sizes of n elements into k chunks: uniform (chunks.h: the first n % k one larger) or
 * shrinking (schedule.h: geometric, the last about 1/16 of the first; every chunk at least 1). */
static void chunk_sizes(size_t n, int k, schedule s, size_t *off, size_t *cnt)
{
    chunk_range r[MAX_CHUNKS];
    for (int i = 0; i < k; ++i)
        r[i] = chunk_of(n, (size_t)k, (size_t)i);
    if (s == SHRINKING && shrinking_schedule(n, (size_t)k, r) != 0) {
        fprintf(stderr, "copy_probe: %d shrinking chunks of %zu elements\n", k, n);
        exit(2);
    }
    for (int i = 0; i < k; ++i) {
        off[i] = r[i].offset;
        cnt[i] = r[i].count;
    }
}

typedef enum { BOUND_2COPIES, BOUND_1COPY, IN, IN_2S, IN_OUT, IN_IL, OUT, PIPELINE } kind;

typedef struct {
    char name[48];
    kind what;
    int chunks, streams, interleaved;
    schedule sched;
    double ms[1024];
    int samples;
} config;

typedef struct {
    size_t n;
    int32_t *h_x, *h_y, *h_xy, *h_out; /* pinned; h_xy: x_i then y_i for each chunk */
    int32_t *d_x, *d_y, *d_xy, *d_out;
    cudaStream_t s[MAX_STREAMS];
    cudaEvent_t start, stop, in_done, joined[MAX_STREAMS];
} rig;

/* The interleaved buffers follow one chunk schedule: rebuilt when it changes. */
static void fill_interleaved(rig *g, int k, schedule s)
{
    size_t off[MAX_CHUNKS], cnt[MAX_CHUNKS];
    chunk_sizes(g->n, k, s, off, cnt);
    for (int i = 0; i < k; ++i) {
        memcpy(g->h_xy + 2 * off[i], g->h_x + off[i], cnt[i] * sizeof(int32_t));
        memcpy(g->h_xy + 2 * off[i] + cnt[i], g->h_y + off[i], cnt[i] * sizeof(int32_t));
    }
}

/* Queues one run of c; returns after recording stop. */
static void issue(rig *g, const config *c)
{
    const size_t B = sizeof(int32_t);
    size_t off[MAX_CHUNKS], cnt[MAX_CHUNKS];
    const int k = c->chunks > 0 ? c->chunks : 1;
    chunk_sizes(g->n, k, c->sched, off, cnt);
    const int ns = c->streams;
    CUDA_CHECK(cudaEventRecord(g->start, g->s[0]));
    for (int i = 1; i < ns; ++i)
        CUDA_CHECK(cudaStreamWaitEvent(g->s[i], g->start, 0));
    switch (c->what) {
    case BOUND_2COPIES:
        CUDA_CHECK(cudaMemcpyAsync(g->d_x, g->h_x, g->n * B, cudaMemcpyHostToDevice, g->s[0]));
        CUDA_CHECK(cudaMemcpyAsync(g->d_y, g->h_y, g->n * B, cudaMemcpyHostToDevice, g->s[0]));
        break;
    case BOUND_1COPY:
        CUDA_CHECK(cudaMemcpyAsync(g->d_xy, g->h_xy, 2 * g->n * B, cudaMemcpyHostToDevice,
                                   g->s[0]));
        break;
    case IN:
    case IN_2S:
    case IN_OUT:
        for (int i = 0; i < k; ++i) {
            cudaStream_t s = g->s[c->what == IN_2S ? i % ns : 0];
            CUDA_CHECK(cudaMemcpyAsync(g->d_x + off[i], g->h_x + off[i], cnt[i] * B,
                                       cudaMemcpyHostToDevice, s));
            CUDA_CHECK(cudaMemcpyAsync(g->d_y + off[i], g->h_y + off[i], cnt[i] * B,
                                       cudaMemcpyHostToDevice, s));
            if (c->what == IN_OUT)
                CUDA_CHECK(cudaMemcpyAsync(g->h_out + off[i], g->d_out + off[i], cnt[i] * B,
                                           cudaMemcpyDeviceToHost, g->s[1]));
        }
        break;
    case IN_IL:
        for (int i = 0; i < k; ++i)
            CUDA_CHECK(cudaMemcpyAsync(g->d_xy + 2 * off[i], g->h_xy + 2 * off[i], 2 * cnt[i] * B,
                                       cudaMemcpyHostToDevice, g->s[0]));
        break;
    case OUT:
        for (int i = 0; i < k; ++i)
            CUDA_CHECK(cudaMemcpyAsync(g->h_out + off[i], g->d_out + off[i], cnt[i] * B,
                                       cudaMemcpyDeviceToHost, g->s[0]));
        break;
    case PIPELINE:
        for (int i = 0; i < k; ++i) {
            cudaStream_t s = g->s[i % ns];
            const int32_t *x, *y;
            if (c->interleaved) {
                CUDA_CHECK(cudaMemcpyAsync(g->d_xy + 2 * off[i], g->h_xy + 2 * off[i],
                                           2 * cnt[i] * B, cudaMemcpyHostToDevice, s));
                x = g->d_xy + 2 * off[i];
                y = x + cnt[i];
            } else {
                CUDA_CHECK(cudaMemcpyAsync(g->d_x + off[i], g->h_x + off[i], cnt[i] * B,
                                           cudaMemcpyHostToDevice, s));
                CUDA_CHECK(cudaMemcpyAsync(g->d_y + off[i], g->h_y + off[i], cnt[i] * B,
                                           cudaMemcpyHostToDevice, s));
                x = g->d_x + off[i];
                y = g->d_y + off[i];
            }
            launch_chunk_kernel(x, y, g->d_out + off[i], cnt[i], 0, s); /* the chapter's add */
            CUDA_CHECK(cudaMemcpyAsync(g->h_out + off[i], g->d_out + off[i], cnt[i] * B,
                                       cudaMemcpyDeviceToHost, s));
        }
        break;
    }
    if (c->what == IN_OUT)
        CUDA_CHECK(cudaEventRecord(g->in_done, g->s[0])); /* the last copy-in has ended */
    for (int i = 1; i < ns; ++i) {
        CUDA_CHECK(cudaEventRecord(g->joined[i], g->s[i]));
        CUDA_CHECK(cudaStreamWaitEvent(g->s[0], g->joined[i], 0));
    }
    CUDA_CHECK(cudaEventRecord(g->stop, g->s[0]));
}

static double run_once(rig *g, const config *c)
{
    issue(g, c);
    CUDA_CHECK(cudaEventSynchronize(g->stop));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, g->start, c->what == IN_OUT ? g->in_done : g->stop));
    return ms;
}

static double median_of(const config *c, double *lo, double *hi)
{
    double v[1024];
    memcpy(v, c->ms, (size_t)c->samples * sizeof(double));
    const double median = tut_median(v, c->samples); /* sorts v */
    *lo = v[0];
    *hi = v[c->samples - 1];
    return median;
}

/* `name` may hold one %d: the chunk count. */
static int add_config(config *cs, int *count, const char *name, kind what, int chunks,
                      int streams, int interleaved, schedule sched)
{
    if (*count >= MAX_CONFIGS)
        return -1;
    config *c = &cs[(*count)++];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, name, chunks);
    c->what = what;
    c->chunks = chunks;
    c->streams = streams;
    c->interleaved = interleaved;
    c->sched = sched;
    return 0;
}

/* The result of the last pipeline run against the CPU: the number of wrong elements; the first
 * wrong one's index in *first (n if none). */
static size_t count_wrong(const rig *g, size_t *first)
{
    size_t wrong = 0;
    *first = g->n;
    for (size_t i = 0; i < g->n; ++i)
        if (g->h_out[i] != (int32_t)((uint32_t)g->h_x[i] + (uint32_t)g->h_y[i])) {
            if (!wrong++)
                *first = i;
        }
    return wrong;
}

/* A whole number in [lo, hi], or -1 (12abc, 1e99, 2.5). */
static int parse_size(const char *s, double lo, double hi, double *out)
{
    char *end;
    const double v = strtod(s, &end);
    if (end == s || *end || !(v >= lo && v <= hi) || v != floor(v))
        return -1;
    *out = v;
    return 0;
}

static void usage(FILE *to)
{
    fprintf(to, "usage: copy_probe [--n N (2-1e9)] [--chunks K (2-%d)] [--rounds R (1-1000)] "
                "[--check]\n", MAX_CHUNKS);
}

int main(int argc, char **argv)
{
    double n_d = 20000000, rounds_d = 7, chunks_d = 16;
    int check_only = 0;
    for (int i = 1; i < argc; ++i) {
        const char *name = argv[i];
        double lo = 0, hi = 0, *to = NULL;
        if (!strcmp(name, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(name, "--check")) {
            check_only = 1;
            continue;
        } else if (!strcmp(name, "--n")) {
            lo = 2, hi = 1e9, to = &n_d;
        } else if (!strcmp(name, "--chunks")) {
            lo = 2, hi = MAX_CHUNKS, to = &chunks_d;
        } else if (!strcmp(name, "--rounds")) {
            lo = 1, hi = 1000, to = &rounds_d;
        } else {
            fprintf(stderr, "copy_probe: unknown option '%s'\n", name);
            usage(stderr);
            return 2;
        }
        if (i + 1 >= argc || parse_size(argv[i + 1], lo, hi, to) != 0) {
            fprintf(stderr,
                    "copy_probe: %s must be a whole number between %.0f and %.0f (got '%s')\n",
                    name, lo, hi, i + 1 < argc ? argv[i + 1] : "nothing");
            return 2;
        }
        ++i;
    }
    rig g;
    memset(&g, 0, sizeof g);
    g.n = (size_t)n_d;
    const int K = (int)chunks_d, rounds = (int)rounds_d;
    if ((size_t)K > g.n) {
        fprintf(stderr, "copy_probe: --chunks %d is more than --n %zu\n", K, g.n);
        return 2;
    }
    tut_select_device(TUT_NEED_NOTHING); /* exits 77 without a GPU */
    const tut_device_info *dev = tut_current_device();
    chunk_kernels_configure(); /* the add kernel's block size, from this GPU's limits */
    printf("copy_probe: %s, %d copy engines, n = %zu ints (%.1f MB per array), %d chunks\n",
           dev->name, dev->async_engines, g.n, g.n * 4.0 / 1e6, K);

    const size_t bytes = g.n * sizeof(int32_t);
    /* Sizes that do not fit end with exit 2 and the sizes asked and free (memory.h). */
    g.h_x = (int32_t *)tut_pinned_alloc(bytes, "x");
    g.h_y = (int32_t *)tut_pinned_alloc(bytes, "y");
    g.h_xy = (int32_t *)tut_pinned_alloc(2 * bytes, "x and y interleaved");
    g.h_out = (int32_t *)tut_pinned_alloc(bytes, "out");
    g.d_x = (int32_t *)tut_device_alloc(bytes, "x");
    g.d_y = (int32_t *)tut_device_alloc(bytes, "y");
    g.d_xy = (int32_t *)tut_device_alloc(2 * bytes, "x and y interleaved");
    g.d_out = (int32_t *)tut_device_alloc(bytes, "out");
    uint64_t state = 12345;
    for (size_t i = 0; i < g.n; ++i) { /* seeded signed values, wrapping sums included */
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        g.h_x[i] = (int32_t)(state >> 32);
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        g.h_y[i] = (int32_t)(state >> 32);
    }
    for (int i = 0; i < MAX_STREAMS; ++i) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&g.s[i], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreate(&g.joined[i]));
    }
    CUDA_CHECK(cudaEventCreate(&g.start));
    CUDA_CHECK(cudaEventCreate(&g.stop));
    CUDA_CHECK(cudaEventCreate(&g.in_done));

    static config cs[MAX_CONFIGS];
    int count = 0;
    const int fewer = K / 2 >= 2 ? K / 2 : 2;
    add_config(cs, &count, "bound_2copies", BOUND_2COPIES, 1, 1, 0, UNIFORM);
    add_config(cs, &count, "bound_1copy", BOUND_1COPY, 1, 1, 1, UNIFORM);
    add_config(cs, &count, "in_%d", IN, K, 1, 0, UNIFORM);
    add_config(cs, &count, "in_%d_2s", IN_2S, K, 2, 0, UNIFORM);
    add_config(cs, &count, "in_%d+out", IN_OUT, K, 2, 0, UNIFORM);
    add_config(cs, &count, "in_%d_il", IN_IL, K, 1, 1, UNIFORM);
    add_config(cs, &count, "out_%d", OUT, K, 1, 0, UNIFORM);
    const int first_pipeline = count;
    add_config(cs, &count, "pipe_uniform_%dx2", PIPELINE, K, 2, 0, UNIFORM);
    add_config(cs, &count, "pipe_shrinking_%dx2", PIPELINE, K, 2, 0, SHRINKING);
    add_config(cs, &count, "pipe_uniform_il_%dx2", PIPELINE, K, 2, 1, UNIFORM);
    add_config(cs, &count, "pipe_shrinking_il_%dx2", PIPELINE, K, 2, 1, SHRINKING);
    add_config(cs, &count, "pipe_uniform_%dx2", PIPELINE, fewer, 2, 0, UNIFORM);
    add_config(cs, &count, "pipe_shrinking_%dx2", PIPELINE, fewer, 2, 0, SHRINKING);
    if (K >= 5)
        add_config(cs, &count, "pipe_uniform_5x5", PIPELINE, 5, 5, 0, UNIFORM);

    /* Correctness first: each pipeline once on a poisoned output and poisoned device inputs (a
     * chunk it fails to copy in must not find the last pipeline's inputs there), checked element
     * by element. The interleaved buffers follow the schedule of the run, so each is filled
     * before. */
    int failed = 0;
    for (int c = first_pipeline; c < count; ++c) {
        if (cs[c].interleaved)
            fill_interleaved(&g, cs[c].chunks, cs[c].sched);
        memset(g.h_out, 0xA5, bytes);
        /* The poison must land before the run: the streams are non-blocking, so a plain
         * cudaMemset (legacy default stream, asynchronous for device memory) is not ordered
         * with them and could overwrite results the pipeline has already written. */
        CUDA_CHECK(cudaMemsetAsync(g.d_out, 0xFF, bytes, g.s[0]));
        CUDA_CHECK(cudaMemsetAsync(g.d_x, 0xA5, bytes, g.s[0]));
        CUDA_CHECK(cudaMemsetAsync(g.d_y, 0xA5, bytes, g.s[0]));
        CUDA_CHECK(cudaMemsetAsync(g.d_xy, 0xA5, 2 * bytes, g.s[0]));
        CUDA_CHECK(cudaStreamSynchronize(g.s[0]));
        (void)run_once(&g, &cs[c]);
        CUDA_CHECK(cudaDeviceSynchronize());
        size_t first;
        const size_t wrong = count_wrong(&g, &first);
        if (wrong)
            printf("check %-24s %zu wrong (first at %zu: %d, not %d)\n", cs[c].name, wrong,
                   first, (int)g.h_out[first],
                   (int32_t)((uint32_t)g.h_x[first] + (uint32_t)g.h_y[first]));
        else
            printf("check %-24s 0 wrong\n", cs[c].name);
        failed |= wrong != 0;
    }
    if (failed) {
        printf("FAIL: a pipeline's result differs from the CPU's\n");
        return 1;
    }
    if (check_only) {
        printf("PASS (--check: not timed)\n");
        return 0;
    }

    /* Timing: the interleaved configurations all use K chunks uniform or shrinking; the
     * buffer is refilled when the schedule changes (outside the timed window). */
    for (int c = 0; c < count; ++c) { /* warm-up */
        if (cs[c].interleaved)
            fill_interleaved(&g, cs[c].chunks, cs[c].sched);
        (void)run_once(&g, &cs[c]);
    }
    for (int r = 0; r < rounds; ++r)
        for (int j = 0; j < count; ++j) {
            config *c = &cs[(j + r) % count];
            if (c->interleaved)
                fill_interleaved(&g, c->chunks, c->sched);
            c->ms[c->samples++] = run_once(&g, c);
        }

    double lo, hi;
    const double b2 = median_of(&cs[0], &lo, &hi), b1 = median_of(&cs[1], &lo, &hi);
    const double bound = b1 < b2 ? b1 : b2;
    printf("\n%-24s %9s %9s %9s %8s  (bound = %.4f ms: the faster of bound_2copies and "
           "bound_1copy; %d rounds)\n", "config", "median_ms", "min_ms", "max_ms", "x_bound",
           bound, rounds);
    printf("CSV config,median_ms,min_ms,max_ms,x_bound,chunks,streams,rounds\n");
    for (int c = 0; c < count; ++c) {
        const double m = median_of(&cs[c], &lo, &hi);
        printf("%-24s %9.4f %9.4f %9.4f %8.3f\n", cs[c].name, m, lo, hi, m / bound);
        printf("CSV %s,%.4f,%.4f,%.4f,%.4f,%d,%d,%d\n", cs[c].name, m, lo, hi, m / bound,
               cs[c].chunks, cs[c].streams, rounds);
    }
    printf("(in_%d+out: until the last copy-in ends, copy-outs running beside it)\n", K);
    printf("PASS\n");
    return 0;
}
