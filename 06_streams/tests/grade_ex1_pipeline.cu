/* Grader of ex06.1, the pipeline loop (pipeline.cu): issue_depth_first only, over pinned arrays
 * and blocking streams (tests/grade_streams.cu), on shapes drawn from the seed (one element,
 * primes, any n, chunks and streams, up to 128 streams), every output element checked exactly;
 * then --speed: the chapter's benchmark pipeline (20M elements, the plan's chunks and streams,
 * a kernel 0.8 x as long as the copy-in) against the copy-in alone.
 *
 * The bar: on the H100 the chapter's depth-first pipeline with its kernel as long as the copy-in
 * ran at 1 / 1.16 = 0.86 of that bound (docs/results/06_streams/variants.csv, mix, depth, 16
 * chunks, 4 streams), and this grader measured 0.86; 0.50 leaves a margin of 1.7x. The same
 * work without overlap (serial, or every chunk on one stream) reaches about 1 / 2.3 = 0.44 and
 * fails. */
#include <stdio.h>
#include <string.h>

#include "grade_streams.h"
#include "kernels.h"
#include "pipeline.h"
#include "tutorial.h"

static pipeline pipeline_over(stream_rig *r, size_t chunks)
{
    pipeline p;
    memset(&p, 0, sizeof p);
    p.h_x = r->h_x;
    p.h_y = r->h_y;
    p.h_out = r->h_out;
    p.d_x = r->d_x;
    p.d_y = r->d_y;
    p.d_out = r->d_out;
    p.n = r->n;
    p.chunks = chunks;
    p.streams = r->streams;
    p.stream = r->stream;
    p.work = r->work;
    p.marks = NULL;
    return p;
}

static void issue_student(void *p) { issue_depth_first((const pipeline *)p); }

static int run_shape(tut_grader *g, const rig_shape s)
{
    stream_rig r;
    rig_create(&r, s.n, s.streams, s.work, g->seed);
    rig_poison(&r);
    tut_grader_poison(r.d_x, r.n * sizeof(int32_t)); /* a missing copy-in computes on these */
    tut_grader_poison(r.d_y, r.n * sizeof(int32_t));
    pipeline p = pipeline_over(&r, s.chunks);
    issue_depth_first(&p);
    const int ok = rig_check(&r, "  issue_depth_first: the output");
    rig_destroy(&r);
    return ok;
}

static int run_case(tut_grader *g, const char *name)
{
    rig_shape s;
    rig_case_shape(g, name, &s);
    return run_shape(g, s);
}

/* The boundary shapes (grade_streams.h), each named in its verdict line. */
static int case_boundaries(tut_grader *g)
{
    rig_boundary shapes[256];
    const size_t count = rig_boundary_shapes(g, shapes, TUT_COUNT(shapes));
    int ok = 1;
    for (size_t i = 0; i < count; ++i) {
        tut_grader_boundary_begin(shapes[i].name, shapes[i].shape.n);
        ok &= tut_grader_boundary_verdict(shapes[i].name, shapes[i].shape.n,
                                          run_shape(g, shapes[i].shape));
    }
    return ok;
}

static int case_primes(tut_grader *g) { return run_case(g, "primes"); }
static int case_one(tut_grader *g) { return run_case(g, "one"); }
static int case_random(tut_grader *g) { return run_case(g, "random"); }
static int case_many_streams(tut_grader *g) { return run_case(g, "many_streams"); }

/* The element range [first, first + count) of `array` (n elements) that [begin, end) covers
 * exactly; 0 if it is not inside the array or not whole elements. */
static int span_in(const int32_t *array, size_t n, const char *begin, const char *end,
                   size_t *first, size_t *count)
{
    const char *base = (const char *)array;
    if (begin < base || end > base + n * sizeof(int32_t) || end < begin ||
        (size_t)(begin - base) % sizeof(int32_t) || (size_t)(end - begin) % sizeof(int32_t))
        return 0;
    *first = (size_t)(begin - base) / sizeof(int32_t);
    *count = (size_t)(end - begin) / sizeof(int32_t);
    return 1;
}

/* "streams": what the speed test sees only through a timer, read from the calls themselves.
 * issue_depth_first is recorded with every stream in capture mode (cudaStreamBeginCapture: the
 * calls are kept as one graph per stream, nothing runs), and each graph must hold exactly the
 * work of its chunks, c % streams == s: the copies of x and y of chunk c in, its kernel, its
 * output out, each copy over the chunk's slice only. A pipeline on one stream, a copy of the
 * whole array, a synchronous cudaMemcpy or a cudaStreamSynchronize per chunk (both illegal while
 * a stream is recorded: the capture reports them) cannot pass, however the timer falls. */
static int case_streams(tut_grader *g)
{
    rig_shape shape;
    rig_case_shape(g, "primes", &shape);
    stream_rig r;
    rig_create(&r, shape.n, shape.streams, shape.work, g->seed);
    pipeline p = pipeline_over(&r, shape.chunks);
    chunk_kernels_configure(); /* its queries before the capture, not during it */
    printf("  %zu elements, %zu chunks, %d streams: recording issue_depth_first stream by stream "
           "(while it is recorded it may not wait for the GPU: a cudaStreamSynchronize or a "
           "synchronous cudaMemcpy stops it with a capture error)\n",
           shape.n, shape.chunks, shape.streams);
    recorded_stream recorded[STREAMS_MAX_STREAMS];
    record_streams(r.stream, r.streams, issue_student, &p, recorded);
    /* seen[3 c + k]: chunk c's copy k (x in, y in, out back) found on its own stream */
    unsigned char *seen = (unsigned char *)tut_host_alloc(3 * shape.chunks, "copies seen");
    memset(seen, 0, 3 * shape.chunks);
    size_t kernels_right = 0, kernels_total = 0, copies_total = 0, misplaced = 0;
    for (int s = 0; s < r.streams; ++s) {
        const size_t kernels = recorded[s].kernels;
        size_t own = 0;
        for (size_t c = (size_t)s; c < shape.chunks; c += (size_t)r.streams)
            ++own;
        for (size_t i = 0; i < recorded[s].copies; ++i) {
            ++copies_total;
            const char *const *begin = recorded[s].copy[i].begin;
            const char *const *end = recorded[s].copy[i].end;
            /* which copy of which chunk: host and device sides over the same slice */
            const int32_t *const host[3] = {r.h_x, r.h_y, r.h_out};
            const int32_t *const device[3] = {r.d_x, r.d_y, r.d_out};
            int found = 0;
            for (int k = 0; k < 3 && !found; ++k) {
                const int from_host = k < 2; /* x and y go in; out comes back */
                size_t f0, n0, f1, n1;
                if (!span_in(host[k], r.n, begin[from_host ? 0 : 1], end[from_host ? 0 : 1],
                             &f0, &n0) ||
                    !span_in(device[k], r.n, begin[from_host ? 1 : 0], end[from_host ? 1 : 0],
                             &f1, &n1) || f0 != f1 || n0 != n1)
                    continue;
                for (size_t c = (size_t)s; c < shape.chunks; c += (size_t)r.streams) {
                    const chunk_range cr = chunk_of(r.n, shape.chunks, c);
                    if (cr.offset == f0 && cr.count == n0 && cr.count > 0) {
                        seen[3 * c + k] += 1;
                        found = 1;
                        break;
                    }
                }
            }
            if (!found && misplaced++ < 3)
                printf("  stream %d holds a copy of %zu bytes that is no copy of one of its "
                       "chunks' slices (chunk c goes on stream c %% %d)\n", s,
                       (size_t)(end[0] - begin[0]), r.streams);
        }
        kernels_total += kernels;
        kernels_right += kernels == own ? own : 0;
        if (kernels != own)
            printf("  stream %d: %zu kernels, %zu wanted (one per chunk c with c %% %d == %d)\n",
                   s, kernels, own, r.streams, s);
    }
    recorded_streams_free(recorded, r.streams);
    size_t missing = 0, twice = 0;
    for (size_t c = 0; c < shape.chunks; ++c) {
        if (chunk_of(r.n, shape.chunks, c).count == 0)
            continue; /* an empty chunk may copy nothing */
        for (int k = 0; k < 3; ++k) {
            missing += seen[3 * c + k] == 0;
            twice += seen[3 * c + k] > 1;
        }
    }
    free(seen);
    rig_destroy(&r);
    const int ok = kernels_right == kernels_total && kernels_total == shape.chunks &&
                   misplaced == 0 && missing == 0 && twice == 0;
    printf("check   issue_depth_first: %zu copies and %zu kernels recorded on the %d streams for "
           "%zu chunks; %zu copies missing from their chunk's stream, %zu twice, %zu misplaced: "
           "%s\n", copies_total, kernels_total, shape.streams, shape.chunks, missing, twice,
           misplaced, ok ? "ok" : "MISMATCH (every chunk's copies and kernel go on stream c % "
           "streams, each copy over the chunk's slice: pipeline.h)");
    return ok;
}

static int speed(tut_grader *g, double bar)
{
    stream_rig r;
    size_t chunks = 0;
    rig_speed_setup(g, &r, &chunks);
    pipeline p = pipeline_over(&r, chunks);
    const int ok = rig_speed_verdict(&r, "issue_depth_first", issue_student, &p, bar);
    rig_destroy(&r);
    return ok;
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {{"primes", case_primes},
                                            {"one", case_one},
                                            {"random", case_random},
                                            {"many_streams", case_many_streams},
                                            {"boundaries", case_boundaries},
                                            {"streams", case_streams}};
    const tut_exercise ex = {.id = "ex06.1", .title = "the pipeline loop over chunks and streams",
                             .cases = cases, .case_count = TUT_COUNT(cases), .speed = speed,
                             .speed_bar = TUT_SPEED_BAR_EX06_1};
    return tut_exercise_main(argc, argv, &ex);
}
