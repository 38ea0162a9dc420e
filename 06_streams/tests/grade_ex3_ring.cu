/* Grader of ex06.3, the pipeline through one set of device buffers per stream
 * (ring_pipeline.cu): issue_ring only, with exactly `streams` buffers of x, y and out, each of
 * the largest chunk's size (so that compute-sanitizer's memcheck sees any overrun), poisoned
 * before each run, on shapes drawn from the seed; every output element checked exactly. Case
 * "overlap" issues 16 to 32 chunks on 3 to 6 streams while a grader kernel holds every SM
 * (rig_issue_with_sms_held): the copies go on, the kernels wait, so a buffer that two streams
 * share is overwritten before the kernel that still has to read it runs, for certain. That
 * case is the exercise's lesson (a failure caps the grade, CMakeLists.txt), as is the speed
 * (the ring's point is overlap). Then
 * --speed as ex06.1: the chapter's benchmark shape against the copy-in alone, bar 0.50 (the
 * reasons are in tests/grade_ex1_pipeline.cu: buffers reused in stream order cost nothing). */
#include <stdio.h>
#include <string.h>

#include "grade_streams.h"
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

static int run_case(tut_grader *g, const char *name)
{
    rig_shape s;
    rig_case_shape(g, name, &s);
    stream_rig r;
    rig_create(&r, s.n, s.streams, s.work, g->seed);
    ring_rig rr;
    ring_create(&rr, &r, s.chunks);
    rig_poison(&r);
    if (strcmp(name, "overlap") == 0)
        rig_issue_with_sms_held(&r, issue_student, &rr);
    else
        issue_ring(&rr.ring);
    const int ok = rig_check(&r, "  issue_ring: the output");
    ring_destroy(&rr);
    rig_destroy(&r);
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
                                            {"many_streams", case_many_streams}};
    const tut_exercise ex = {.id = "ex06.3",
                             .title = "a pipeline through one buffer set per stream",
                             .cases = cases, .case_count = TUT_COUNT(cases), .speed = speed,
                             .speed_bar = 0.50};
    return tut_exercise_main(argc, argv, &ex);
}
