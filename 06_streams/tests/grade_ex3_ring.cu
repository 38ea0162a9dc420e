/* Grader of ex06.3, the pipeline through one set of device buffers per stream
 * (ring_pipeline.cu): issue_ring only, with exactly `streams` buffers of x, y and out, each of
 * the largest chunk's size (so that compute-sanitizer's memcheck sees any overrun), poisoned
 * before each run, on shapes drawn from the seed; every output element checked exactly. Case
 * "overlap" first records issue_ring stream by stream (stream capture: the calls are kept as a
 * graph per stream, nothing runs) and checks that each device buffer is copied to or from by
 * its own stream only (set s by stream s; every chunk on one stream is serial, however fast
 * the timer says it ran): a buffer that two streams share is a race whether or not this GPU's copy
 * engines happen to order it (on an H100 they did: the output alone missed it). Then it issues
 * 16 to 32 chunks on 3 to 6 streams while a grader kernel holds every SM
 * (rig_issue_with_sms_held), so that the copies go on while the kernels wait. That case is the
 * exercise's lesson (a failure caps the grade, CMakeLists.txt), as is the speed (the ring's
 * point is overlap). Then
 * --speed as ex06.1: the chapter's benchmark shape against the copy-in alone, bar 0.55 (the
 * reasons are in tests/grade_ex1_pipeline.cu: buffers reused in stream order cost nothing; 0.55,
 * not ex06.1's 0.50: the slow entry ring_sync_each_chunk reached within 15% of 0.50 on an H100,
 * docs/results/gpu-check/speed_distributions.h100.csv). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grade_streams.h"
#include "kernels.h"
#include "ring_pipeline.h"
#include "tutorial.h"

typedef struct {
    ring_pipeline ring;
    int32_t *d_x[STREAMS_MAX_STREAMS], *d_y[STREAMS_MAX_STREAMS], *d_out[STREAMS_MAX_STREAMS];
} ring_rig;

static void ring_create(ring_rig *rr, stream_rig *r, size_t chunks)
{
    memset(rr, 0, sizeof *rr);
    const size_t capacity = chunk_of(r->n, chunks, 0).count; /* the first chunks are the longest */
    const size_t bytes = capacity * sizeof(int32_t);
    for (int s = 0; s < r->streams; ++s) {
        rr->d_x[s] = (int32_t *)tut_device_alloc(bytes, "ring x");
        rr->d_y[s] = (int32_t *)tut_device_alloc(bytes, "ring y");
        rr->d_out[s] = (int32_t *)tut_device_alloc(bytes, "ring out");
        tut_grader_poison(rr->d_x[s], bytes);
        tut_grader_poison(rr->d_y[s], bytes);
        tut_grader_poison(rr->d_out[s], bytes);
    }
    ring_pipeline *ring = &rr->ring;
    ring->h_x = r->h_x;
    ring->h_y = r->h_y;
    ring->h_out = r->h_out;
    ring->n = r->n;
    ring->chunks = chunks;
    ring->streams = r->streams;
    ring->stream = r->stream;
    ring->d_x = rr->d_x;
    ring->d_y = rr->d_y;
    ring->d_out = rr->d_out;
    ring->capacity = capacity;
    ring->work = r->work;
    printf("device buffers: %d sets of %zu elements (the whole arrays: %zu)\n", r->streams,
           capacity, r->n);
}

static void ring_destroy(ring_rig *rr)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int s = 0; s < rr->ring.streams; ++s) {
        tut_device_free(rr->d_x[s]);
        tut_device_free(rr->d_y[s]);
        tut_device_free(rr->d_out[s]);
    }
}

static void issue_student(void *p) { issue_ring(&((const ring_rig *)p)->ring); }

/* Which buffer of the ring the bytes [begin, end) overlap: 3 * s + 0, 1, 2 for stream s's x, y,
 * out; -1 for none (host memory). */
static int ring_buffer_of(const ring_rig *rr, const char *begin, const char *end)
{
    const size_t bytes = rr->ring.capacity * sizeof(int32_t);
    for (int s = 0; s < rr->ring.streams; ++s) {
        const int32_t *const set[3] = {rr->d_x[s], rr->d_y[s], rr->d_out[s]};
        for (int k = 0; k < 3; ++k) {
            const char *base = (const char *)set[k];
            if (begin < base + bytes && end > base)
                return 3 * s + k;
        }
    }
    return -1;
}

/* Records issue_ring with every stream in capture mode (cudaStreamBeginCapture: the calls on
 * those streams are kept as one graph per stream instead of running), then reads the graphs:
 * 1 if they hold every chunk's three copies and kernel, and each device buffer is copied to or
 * from by one stream only, as ring_pipeline.h asks. */
static int check_buffer_owners(ring_rig *rr)
{
    ring_pipeline *ring = &rr->ring;
    chunk_kernels_configure(); /* its queries before the capture, not during it */
    printf("recording issue_ring stream by stream (stream capture: while it is recorded, "
           "issue_ring may not wait for the GPU, nor for another stream's event)\n");
    recorded_stream recorded[STREAMS_MAX_STREAMS];
    record_streams(ring->stream, ring->streams, issue_student, rr, recorded);
    int owner[3 * STREAMS_MAX_STREAMS];
    for (int b = 0; b < 3 * ring->streams; ++b)
        owner[b] = -1;
    static const char *const names[3] = {"d_x", "d_y", "d_out"};
    int shared = 0;
    size_t copies = 0, kernels = 0;
    for (int s = 0; s < ring->streams; ++s) { /* a stream issue_ring left unused recorded none */
        kernels += recorded[s].kernels;
        for (size_t i = 0; i < recorded[s].copies; ++i) {
            ++copies;
            const recorded_copy *copy = &recorded[s].copy[i];
            for (int e = 0; e < 2; ++e) {
                const int b = ring_buffer_of(rr, copy->begin[e], copy->end[e]);
                if (b < 0 || owner[b] == s)
                    continue;
                if (owner[b] < 0)
                    owner[b] = s;
                else if (shared++ < 3)
                    printf("  %s[%d] is copied by stream %d and by stream %d: one stream's copy "
                           "can overwrite it while the other's kernel still needs it\n",
                           names[b % 3], b / 3, owner[b], s);
            }
        }
    }
    recorded_streams_free(recorded, ring->streams);
    /* Buffer set s belongs to stream s (ring_pipeline.h): a set copied by another stream is a
     * chunk on the wrong stream (every chunk on stream 0 shares no buffer, yet runs serially). */
    int foreign = 0;
    for (int b = 0; b < 3 * ring->streams; ++b)
        if (owner[b] >= 0 && owner[b] != b / 3 && foreign++ < 3)
            printf("  %s[%d] is copied by stream %d: chunk c goes on stream c %% %d with buffer "
                   "set c %% %d\n", names[b % 3], b / 3, owner[b], ring->streams, ring->streams);
    /* Work queued elsewhere (a stream of its own) ran instead of being recorded: too few here. */
    const int complete = copies == 3 * ring->chunks && kernels == ring->chunks;
    printf("check   issue_ring: %zu copies and %zu kernels on the ring's streams for %zu chunks "
           "(3 and 1 each): %s\n", copies, kernels, ring->chunks,
           complete ? "ok" : "MISMATCH (every chunk's work goes on its stream, ring_pipeline.h)");
    printf("check   issue_ring: each device buffer copied by one stream only, its own: %s\n",
           shared || foreign ? "MISMATCH (ring_pipeline.h: buffer s belongs to stream s)" : "ok");
    return complete && shared == 0 && foreign == 0;
}

static int run_shape(tut_grader *g, const char *name, const rig_shape s)
{
    stream_rig r;
    rig_create(&r, s.n, s.streams, s.work, g->seed);
    ring_rig rr;
    ring_create(&rr, &r, s.chunks);
    const int overlap = strcmp(name, "overlap") == 0;
    const int owners_ok = overlap ? check_buffer_owners(&rr) : 1;
    rig_poison(&r);
    if (overlap)
        rig_issue_with_sms_held(&r, issue_student, &rr);
    else
        issue_ring(&rr.ring);
    const int ok = rig_check(&r, "  issue_ring: the output") & owners_ok;
    ring_destroy(&rr);
    rig_destroy(&r);
    return ok;
}

static int run_case(tut_grader *g, const char *name)
{
    rig_shape s;
    rig_case_shape(g, name, &s);
    return run_shape(g, name, s);
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
                                          run_shape(g, "boundaries", shapes[i].shape));
    }
    return ok;
}

static int case_primes(tut_grader *g) { return run_case(g, "primes"); }
static int case_one(tut_grader *g) { return run_case(g, "one"); }
static int case_random(tut_grader *g) { return run_case(g, "random"); }
static int case_overlap(tut_grader *g) { return run_case(g, "overlap"); }
static int case_many_streams(tut_grader *g) { return run_case(g, "many_streams"); }

static int speed(tut_grader *g, double bar)
{
    stream_rig r;
    size_t chunks = 0;
    rig_speed_setup(g, &r, &chunks);
    ring_rig rr;
    ring_create(&rr, &r, chunks);
    const int ok = rig_speed_verdict(&r, "issue_ring", issue_student, &rr, bar);
    ring_destroy(&rr);
    rig_destroy(&r);
    return ok;
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {{"primes", case_primes},
                                            {"one", case_one},
                                            {"random", case_random},
                                            {"overlap", case_overlap},
                                            {"many_streams", case_many_streams},
                                            {"boundaries", case_boundaries}};
    const tut_exercise ex = {.id = "ex06.3",
                             .title = "a pipeline through one buffer set per stream",
                             .cases = cases, .case_count = TUT_COUNT(cases), .speed = speed,
                             .speed_bar = TUT_SPEED_BAR_EX06_3};
    return tut_exercise_main(argc, argv, &ex);
}
