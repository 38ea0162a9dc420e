/* Grader of ex02.5, the halo exchange across GPUs (multi/overlap_step.cu: heat_overlap_step).
 * Every case runs the rod in parts through the student's step from poisoned buffers (a halo
 * nobody sends stays NaN) and compares each point with the float64 CPU reference bit for bit.
 * The parts share one GPU (the logical mode: the split and the exchange are the same code
 * whatever the GPU of each part), except two_gpus, which needs two GPUs and skips on one.
 * late_edges delays the edge update of one part at a time, each in turn, so that a send or
 * an update that does not wait for its event reads an old value; overlap holds every interior
 * update until the sends of the step have landed, which only a send on the comm stream can do;
 * structure records two steps as a graph (stream capture, common/capture.h) and reads what
 * waits for what: the overlap whatever the timing, and whatever the step calls instead of the
 * hooks (the serial step, a host wait between the phases).
 * Every case also fails a step that launches a part's kernels while another GPU than the part's
 * is current (parts.cu counts them): the guide says such a launch fails, but a CUDA 13 driver
 * accepted it and every value was right; with one GPU it cannot happen. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "exercise.h"
#include "heat_reference.h"
#include "parts.h"
#include "tutorial.h"

static double draw_k(tut_grader *g) { return 0.05 + 0.45 * tut_rng_uniform(&g->rng); }

static long long draw_steps(tut_grader *g) { return (long long)tut_grader_size(g, 1, 40); }

/* The rod's start and its reference after `steps` steps (host arrays of n doubles). */
static void make_rod(tut_grader *g, size_t n, long long steps, double k, double *u, double *want)
{
    double *scratch = (double *)tut_host_alloc(n * sizeof(double), "scratch");
    heat_init_random(u, n, tut_rng_next(&g->rng));
    memcpy(want, u, n * sizeof(double));
    heat_reference(want, scratch, n, steps, k);
    free(scratch);
}

/* Creates the rod's parts and poisons both buffers of each (NaN), before the scatter writes
 * the points, the first halos and the walls. 0 with the reason printed if it cannot run. */
static int create_poisoned(heat_rod *r, size_t n, int parts, int gpus, double k)
{
    char why[320];
    if (!heat_rod_create(r, n, parts, gpus, k, 0, why, sizeof why)) {
        printf("cannot split %zu points into %d parts on %d GPU(s): %s\n", n, parts, gpus, why);
        return 0;
    }
    for (int p = 0; p < parts; ++p) {
        CUDA_CHECK(cudaSetDevice(r->part[p].device));
        for (int b = 0; b < 2; ++b)
            tut_grader_poison(r->part[p].buf[b], (r->part[p].count + 2) * sizeof(double));
    }
    return 1;
}

/* 1 if every launch of a part's kernels came with the part's GPU current. */
static int launched_on_own_gpu(const heat_rod *r)
{
    if (r->misplaced == 0)
        return 1;
    printf("FAIL: %d launch(es) of a part's kernels while another GPU than the part's was "
           "current: cudaSetDevice(the part's device) before its launches (the guide says "
           "such a launch fails; a CUDA 13 driver accepts it, so the values cannot show it)\n",
           r->misplaced);
    return 0;
}

/* One graded run: n points in `parts` parts on `gpus` GPUs; delay_ns > 0 delays the edges of
 * part `late` in every step. */
static int grade_rod_delayed(tut_grader *g, size_t n, int parts, int gpus, long long steps,
                             unsigned long long delay_ns, int late)
{
    const double k = draw_k(g);
    double *u = (double *)tut_host_alloc(n * sizeof(double), "start");
    double *want = (double *)tut_host_alloc(n * sizeof(double), "reference");
    double *got = (double *)tut_host_alloc(n * sizeof(double), "result");
    make_rod(g, n, steps, k, u, want);
    heat_rod r;
    int ok = create_poisoned(&r, n, parts, gpus, k);
    if (ok) {
        if (delay_ns > 0) {
            r.delay_part = late;
            r.delay_ns = delay_ns;
        }
        const heat_span last = heat_split_part(n, parts, parts - 1);
        printf("%zu points in %d part(s) of %zu .. %zu on %d GPU(s), %lld steps, k = %.6g",
               n, parts, last.count, heat_split_part(n, parts, 0).count, gpus, steps, k);
        if (delay_ns > 0)
            printf(", part %d's edges %.1f ms late every step", late, delay_ns * 1e-6);
        printf("\n");
        heat_rod_scatter(&r, u);
        heat_rod_run(&r, HEAT_MULTI_P2P, steps);
        heat_rod_gather(&r, steps, got);
        ok = tut_check_f64("halo exchange", got, want, n, 0.0, 0.0, NULL);
        ok = launched_on_own_gpu(&r) && ok;
        heat_rod_destroy(&r);
    }
    free(u);
    free(want);
    free(got);
    return ok;
}

static int grade_rod(tut_grader *g, size_t n, int parts, int gpus, long long steps)
{
    return grade_rod_delayed(g, n, parts, gpus, steps, 0, -1);
}

/* Each part late in turn, by LATE_NS a step (well past the host's time to queue a step): a part
 * that does not wait for one neighbour's sends reads an old halo when that neighbour alone is
 * late (a generated mutant that skipped part 0's sends survived delays of every other part,
 * which made part 1's other neighbour late too). */
#define LATE_NS 1000000ull
static int grade_rod_late(tut_grader *g, size_t n, int parts, int gpus, long long steps)
{
    int ok = 1;
    for (int late = 0; late < parts; ++late)
        ok &= grade_rod_delayed(g, n, parts, gpus, steps, LATE_NS, late);
    return ok;
}

static int draw_parts(tut_grader *g, int lo, int hi) { return (int)tut_grader_size(g, lo, hi); }

/* One part: nothing to exchange; the walls only. */
static int case_one_part(tut_grader *g)
{
    return grade_rod(g, tut_grader_odd(g, 3, 10001), 1, 1, draw_steps(g));
}

/* As many points as parts: every part one point, its edges the same point. */
static int case_parts_of_one(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 9);
    return grade_rod(g, (size_t)parts, parts, 1, draw_steps(g));
}

/* One point more than parts: the first part two points, the others one. */
static int case_one_more(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 9);
    return grade_rod(g, (size_t)parts + 1, parts, 1, draw_steps(g));
}

static int case_primes(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 7);
    return grade_rod(g, tut_grader_prime(g, 11, 100003), parts, 1, draw_steps(g));
}

/* Small parts (a short interior), one part's edges 1 ms late every step, each part in turn: a
 * send that does not wait for edges_done sends the old point, an update that does not wait for
 * a neighbour's `sent` reads an old halo. */
static int case_late_edges(tut_grader *g)
{
    const int parts = draw_parts(g, 3, 6);
    const size_t n = (size_t)parts * tut_grader_size(g, 3, 40) + tut_grader_size(g, 0, 2);
    return grade_rod_late(g, n, parts, 1, 30);
}

/* Two or more GPUs: two parts per GPU, so some neighbours share a GPU and some do not. */
static int case_two_gpus(tut_grader *g)
{
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    if (visible < 2) {
        printf("skipped: this case needs two GPUs (with one, every part's GPU is current, and "
               "a launch with the wrong GPU current cannot happen); this machine shows %d\n",
               visible);
        fflush(stdout);
        exit(TUT_EXIT_SKIP);
    }
    const int gpus = visible < 4 ? visible : 4;
    const size_t n = tut_grader_prime(g, 1009, 200003);
    return grade_rod(g, n, 2 * gpus, gpus, draw_steps(g)) &&
           grade_rod_late(g, n, gpus, gpus, 30);
}

/* The sends of one step must land while the interior still runs: every interior update is
 * held (a kernel spinning on a host flag) until the sends of the step have arrived, for up to
 * a second. A send queued behind the interior never arrives in that time. The hold is queued by
 * heat_launch_interior: a step that never calls it (the serial step) or that waits on the host
 * for it (the hold gives up after HOLD_TIMEOUT_NS, before the step returns) fails too. */
#define HOLD_TIMEOUT_NS 3000000000ull
static int case_overlap(tut_grader *g)
{
    const int parts = draw_parts(g, 2, 5);
    const size_t n = tut_grader_odd(g, 1001, 100001);
    const double k = draw_k(g);
    double *u = (double *)tut_host_alloc(n * sizeof(double), "start");
    double *want = (double *)tut_host_alloc(n * sizeof(double), "reference");
    make_rod(g, n, 1, k, u, want);
    /* flag[0]: the hold; flag[1 + p]: part p's hold began (1), was let go (2), gave up (3) */
    int *flag;
    const size_t flag_bytes = (1 + (size_t)parts) * sizeof(int);
    CUDA_CHECK(cudaHostAlloc((void **)&flag, flag_bytes, cudaHostAllocMapped));
    memset(flag, 0, flag_bytes);
    volatile int *seen = flag;
    heat_rod r;
    int ok = create_poisoned(&r, n, parts, 1, k);
    if (ok) {
        seen[0] = 1;
        int *device_flag;
        CUDA_CHECK(cudaHostGetDevicePointer((void **)&device_flag, flag, 0));
        r.hold = device_flag;
        r.hold_timeout_ns = HOLD_TIMEOUT_NS;
        printf("%zu points in %d parts, one step, every interior held until the sends land\n",
               n, parts);
        heat_rod_scatter(&r, u);
        heat_overlap_step(&r, 0);
        /* A step that waited on the host for its own held interior returned only once the hold
         * gave up: a host wait between the update and the sends. */
        int gave_up = 0;
        for (int p = 0; p < parts; ++p)
            gave_up += seen[1 + p] == 3;
        int landed = 0;
        const double t0 = tut_cpu_seconds();
        while (!landed && tut_cpu_seconds() - t0 < 1.0) {
            landed = 1;
            for (int p = 0; p < parts; ++p) {
                const cudaError_t e = cudaEventQuery(r.part[p].sent);
                if (e == cudaErrorNotReady)
                    landed = 0;
                else
                    CUDA_CHECK(e);
            }
        }
        /* the halos each part received, read while the interiors are held */
        for (int p = 0; ok && landed && p < parts; ++p) {
            const heat_part *part = &r.part[p];
            double halo[2];
            CUDA_CHECK(cudaMemcpy(&halo[0], part->buf[1], sizeof(double), cudaMemcpyDeviceToHost));
            CUDA_CHECK(cudaMemcpy(&halo[1], part->buf[1] + part->count + 1, sizeof(double),
                                  cudaMemcpyDeviceToHost));
            const double expect[2] = {p > 0 ? want[part->first - 1] : 0.0,
                                      p + 1 < parts ? want[part->first + part->count] : 0.0};
            for (int side = 0; side < 2; ++side)
                if (memcmp(&halo[side], &expect[side], sizeof(double)) != 0) {
                    printf("part %d's %s halo after the sends: found %.17g, expected %.17g\n", p,
                           side ? "right" : "left", halo[side], expect[side]);
                    ok = 0;
                }
        }
        seen[0] = 0;
        heat_rod_sync(&r);
        int held = 0;
        for (int p = 0; p < parts; ++p)
            held += seen[1 + p] != 0;
        if (gave_up) {
            printf("FAIL: the step returned only after %d held interior update(s) gave up "
                   "waiting (%.0f s): it waits on the host (cudaDeviceSynchronize, "
                   "cudaStreamSynchronize, a synchronous copy) between the update and the "
                   "sends, so nothing overlaps\n", gave_up, HOLD_TIMEOUT_NS * 1e-9);
            ok = 0;
        } else if (held < parts) {
            printf("FAIL: %d of %d parts updated their interior through heat_launch_interior: "
                   "the step must update the edge points (heat_launch_edges) and the interior "
                   "(heat_launch_interior) apart, so that the sends can leave between the two\n",
                   held, parts);
            ok = 0;
        } else if (!landed) {
            printf("FAIL: the sends of the step did not land while the interior update ran "
                   "(held for 1 s): are they on the compute stream, behind the interior?\n");
            ok = 0;
        } else if (ok) {
            printf("the sends landed while every interior was still running: overlapped\n");
        }
        ok = launched_on_own_gpu(&r) && ok;
        heat_rod_destroy(&r);
    }
    CUDA_CHECK(cudaFreeHost(flag));
    free(u);
    free(want);
    return ok;
}

/* ---- structure: the step recorded as a graph (common/capture.h) ---------------------------- */

/* cudaMemcpyPeerAsync cannot be recorded by a stream capture (the runtime refuses it with
 * cudaErrorStreamCaptureUnsupported), and the step's sends are peer copies. This grader is linked
 * with --wrap=cudaMemcpyPeerAsync (02_heat1d/CMakeLists.txt): every call of it, the student's
 * included, comes here. While its stream is being captured the copy is recorded as the same
 * bytes by cudaMemcpyAsync (cudaMemcpyDefault: the addresses say which GPU holds each, and in
 * this case every part is on one GPU); otherwise it is the runtime's own call, unchanged. */
extern "C" cudaError_t __real_cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src,
                                                  int src_device, size_t bytes,
                                                  cudaStream_t stream);
extern "C" cudaError_t __wrap_cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src,
                                                  int src_device, size_t bytes,
                                                  cudaStream_t stream)
{
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(stream, &status) == cudaSuccess &&
        status == cudaStreamCaptureStatusActive)
        return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, stream);
    return __real_cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, stream);
}

/* The kernels of a step (parts.cu), to tell them apart in the recorded graph. */
__global__ void heat_edges_kernel(const double *__restrict__ in, double *__restrict__ out,
                                  size_t count, double k);
__global__ void heat_span_kernel(const double *__restrict__ in, double *__restrict__ out,
                                 size_t lo, size_t hi, double k);

typedef enum { NODE_NONE, NODE_EDGES, NODE_INTERIOR, NODE_WHOLE, NODE_SEND } step_node_kind;

/* What a node of the recorded graph is to the rod: its kind, its step (0 or 1: step s writes
 * buf[1 - s % 2]), the part it updates or sends from, and the part a send goes to. */
typedef struct {
    step_node_kind kind;
    int step, part, to;
} step_node;

/* The part and buffer whose bytes [begin, end) lie in, or -1. */
static int part_of(const heat_rod *r, const char *begin, const char *end, int *buffer)
{
    for (int p = 0; p < r->parts; ++p)
        for (int b = 0; b < 2; ++b) {
            const char *base = (const char *)r->part[p].buf[b];
            if (begin >= base && end <= base + (r->part[p].count + 2) * sizeof(double) &&
                begin < end) {
                *buffer = b;
                return p;
            }
        }
    return -1;
}

static step_node classify(const heat_rod *r, const tut_graph_node *node)
{
    step_node what = {NODE_NONE, -1, -1, -1};
    int buffer = 0;
    if (node->kind == TUT_NODE_KERNEL && node->args) {
        /* by the function launched, or else by its shape: the edges <<<1, 2>>>, an update
         * r->threads wide; the grader's hooks (delay, hold) are <<<1, 1>>> */
        const int edges = node->kernel == (const void *)heat_edges_kernel ||
                          (node->grid == 1 && node->block == 2);
        const int span = !edges && (node->kernel == (const void *)heat_span_kernel ||
                                    (node->block > 2 && node->block == (unsigned)r->threads));
        if (!edges && !span)
            return what;
        const char *out = *(const char *const *)node->args[1];
        what.part = part_of(r, out, out + sizeof(double), &buffer);
        if (what.part < 0)
            return what;
        what.step = buffer == 1 ? 0 : 1;
        what.kind = edges ? NODE_EDGES
                          : *(const size_t *)node->args[2] == 2 ? NODE_INTERIOR : NODE_WHOLE;
    } else if (node->kind == TUT_NODE_COPY) {
        int from_buffer = 0;
        what.part = part_of(r, node->begin[0], node->end[0], &from_buffer);
        what.to = part_of(r, node->begin[1], node->end[1], &buffer);
        if (what.part < 0 || what.to < 0)
            return what;
        what.step = buffer == 1 ? 0 : 1;
        what.kind = NODE_SEND;
    }
    return what;
}

/* The grader's issue function: the events a step waits for, recorded inside the capture (an
 * event recorded outside it cannot be waited on there), then two steps of the student's. */
static void issue_two_steps(void *arg)
{
    heat_rod *r = (heat_rod *)arg;
    for (int p = 0; p < r->parts; ++p) {
        CUDA_CHECK(cudaSetDevice(r->part[p].device));
        CUDA_CHECK(cudaEventRecord(r->part[p].sent, r->part[p].comm));
        CUDA_CHECK(cudaEventRecord(r->part[p].edges_done, r->part[p].compute));
    }
    heat_overlap_step(r, 0);
    heat_overlap_step(r, 1);
}

/* Prints the first few problems found, and counts them all. */
static void problem(int *found, const char *text)
{
    if ((*found)++ < 6)
        printf("  FAIL: %s\n", text);
}

/* The overlap itself, read from the calls instead of a clock: two steps of the student's
 * recorded as one graph (every part's compute and comm stream in one capture, nothing run),
 * then for every step and part: its edge points updated by an edges kernel of their own, its
 * interior by an interior kernel; each send after its part's edge update and after no interior
 * update of the step, and no interior update after any send of the step (the two run side by
 * side); step 1's edge update of a part after the step-0 sends into its halos. A serial step
 * (one kernel, then the sends), a host wait between the phases (the capture stops with an
 * error), sends behind the interior on the compute stream, or edges_done recorded after the
 * interior all fail here, whatever the timing. */
#define STRUCTURE_MAX_PARTS 5
static int case_structure(tut_grader *g)
{
    const int parts = draw_parts(g, 2, STRUCTURE_MAX_PARTS);
    const size_t n = (size_t)parts * tut_grader_size(g, 3, 20000) + tut_grader_size(g, 0, 4);
    heat_rod r;
    char why[320];
    if (!heat_rod_create(&r, n, parts, 1, draw_k(g), 0, why, sizeof why)) {
        printf("cannot split %zu points into %d parts: %s\n", n, parts, why);
        return 0;
    }
    /* Load the kernels before the capture (a first launch may load them, not while recorded). */
    heat_launch_edges(&r, 0, 0);
    heat_launch_interior(&r, 0, 0);
    heat_launch_whole(&r, 0, 0);
    heat_rod_sync(&r);
    r.misplaced = 0;
    cudaStream_t streams[2 * STRUCTURE_MAX_PARTS];
    int devices[2 * STRUCTURE_MAX_PARTS];
    for (int p = 0; p < parts; ++p) {
        streams[2 * p] = r.part[p].compute;
        streams[2 * p + 1] = r.part[p].comm;
        devices[2 * p] = devices[2 * p + 1] = r.part[p].device;
    }
    printf("%zu points in %d parts: recording two steps of heat_overlap_step as one graph "
           "(stream capture: nothing runs; a host wait inside the step, cudaDeviceSynchronize, "
           "cudaStreamSynchronize or a synchronous copy, stops it with a capture error)\n",
           n, parts);
    fflush(stdout);
    tut_graph graph;
    if (!tut_capture_joined(streams, devices, 2 * parts, issue_two_steps, &r, &graph, why,
                            sizeof why)) {
        printf("FAIL: %s: the step waited on the host, or queued work on a stream other than "
               "its parts' compute and comm streams\n", why);
        heat_rod_destroy(&r);
        return 0;
    }
    step_node *what = (step_node *)tut_host_alloc((graph.count ? graph.count : 1) * sizeof *what,
                                                  "graph nodes");
    for (size_t i = 0; i < graph.count; ++i)
        what[i] = classify(&r, &graph.node[i]);
    int found = 0;
    char text[320];
    size_t sends[2] = {0, 0};
    for (int t = 0; t < 2; ++t)
        for (int p = 0; p < parts; ++p) {
            size_t edges = graph.count, interior = graph.count;
            int whole = 0;
            for (size_t i = 0; i < graph.count; ++i) {
                if (what[i].step != t || what[i].part != p)
                    continue;
                edges = what[i].kind == NODE_EDGES ? i : edges;
                interior = what[i].kind == NODE_INTERIOR ? i : interior;
                whole |= what[i].kind == NODE_WHOLE;
            }
            if (whole) {
                snprintf(text, sizeof text, "step %d, part %d: the whole part updated by one "
                         "kernel (heat_launch_whole: the serial step?): the edge points "
                         "(heat_launch_edges) and the interior (heat_launch_interior) go apart, "
                         "so that the sends leave between the two", t, p);
                problem(&found, text);
            }
            if (edges == graph.count) {
                snprintf(text, sizeof text, "step %d, part %d: no edge update of its own "
                         "(heat_launch_edges)", t, p);
                problem(&found, text);
            }
            if (interior == graph.count && r.part[p].count > 2) {
                snprintf(text, sizeof text, "step %d, part %d: no interior update of its own "
                         "(heat_launch_interior)", t, p);
                problem(&found, text);
            }
            for (size_t i = 0; i < graph.count; ++i) {
                if (what[i].kind != NODE_SEND || what[i].step != t || what[i].part != p)
                    continue;
                sends[t]++;
                if (edges < graph.count && !tut_graph_after(&graph, edges, i)) {
                    snprintf(text, sizeof text, "step %d: a send of part %d to part %d does not "
                             "wait for the part's edge update (edges_done)", t, p, what[i].to);
                    problem(&found, text);
                }
                for (size_t j = 0; j < graph.count; ++j) {
                    if (what[j].kind != NODE_INTERIOR || what[j].step != t)
                        continue;
                    if (tut_graph_after(&graph, j, i)) {
                        snprintf(text, sizeof text, "step %d: a send of part %d waits for the "
                                 "interior update of part %d (queued behind it: on the compute "
                                 "stream, or edges_done recorded after the interior): no "
                                 "overlap", t, p, what[j].part);
                        problem(&found, text);
                    }
                    if (tut_graph_after(&graph, i, j)) {
                        snprintf(text, sizeof text, "step %d: the interior update of part %d "
                                 "waits for a send of part %d: they must run side by side", t,
                                 what[j].part, p);
                        problem(&found, text);
                    }
                }
                /* step 1's edge update of the receiver reads the halo this send fills */
                for (size_t j = 0; t == 0 && j < graph.count; ++j)
                    if (what[j].kind == NODE_EDGES && what[j].step == 1 &&
                        what[j].part == what[i].to && !tut_graph_after(&graph, i, j)) {
                        snprintf(text, sizeof text, "step 1: the edge update of part %d does "
                                 "not wait for the halo part %d sent it in step 0 (its `sent`)",
                                 what[i].to, p);
                        problem(&found, text);
                    }
            }
        }
    for (int t = 0; t < 2; ++t)
        if (sends[t] != 2 * (size_t)(parts - 1)) {
            snprintf(text, sizeof text, "step %d: %zu sends between the parts' buffers, "
                     "expected %d (one to each neighbour)", t, sends[t], 2 * (parts - 1));
            problem(&found, text);
        }
    if (found > 6)
        printf("  ... %d problems in all\n", found);
    const int ok = found == 0;
    printf("%s: two steps recorded: %zu nodes, %zu and %zu sends\n",
           ok ? "structure ok" : "structure WRONG", graph.count, sends[0], sends[1]);
    free(what);
    tut_graph_free(&graph);
    heat_rod_destroy(&r);
    return ok;
}

static const tut_grader_case cases[] = {
    {"one_part", case_one_part},     {"parts_of_one", case_parts_of_one},
    {"one_more", case_one_more},     {"primes", case_primes},
    {"late_edges", case_late_edges}, {"overlap", case_overlap},
    {"structure", case_structure},   {"two_gpus", case_two_gpus},
};

int main(int argc, char **argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1);
    const tut_exercise ex = {.id = "ex02.5",
                             .title = "the halo exchange across GPUs",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
