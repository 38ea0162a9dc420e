/* Grader of ex06.2, fork and join (fork_join.cu): fork_streams and join_streams only, on
 * non-blocking streams (which the legacy default stream does not order), with kernels that spin
 * for a known time:
 *   fork: the origin stream spins twice, then sets a flag; after the fork, a kernel in each
 *         stream reads the flag: each must see it set, so none started before the origin's work
 *         ended. The caller's event is handed over still pending (recorded between the two
 *         spins), as a caller that forks again soon after a fork does: a fork that does not
 *         record it waits only for the first spin (where the streams have connections of their
 *         own: below), and one that waits on the host for the event before recording it makes
 *         the host wait;
 *   join: each stream spins, then sets its own flag; after the join, a kernel in the origin
 *         counts the flags: all must be set, and an event recorded in the origin after the join
 *         must complete only once every stream is idle. The spins are a shuffle drawn from the
 *         seed, and one stream spins LONGEST_EXTRA_MS past all the others: the first stream,
 *         then the last, then one drawn from the seed, so that no join that waits for one
 *         stream only (the last one queued, say) can pass;
 * and neither call may make the host wait for the spinning (it fails that if, twice, it took
 * half the shortest spin or more and returned with a spin over: host_waited). The stream
 * counts come from the seed, and fork and join also run at every count from 2 to
 * GUARD_MOST_STREAMS. A guard (below) that trips counts only if it trips again.
 *   guard: the handle just before streams[0] and the one just after streams[count - 1] are a
 *         guard stream, not the origin (a loop from -1 or to <= count reads them): after the
 *         fork, a kernel in the guard must see the origin's flag still unset; in the join, the
 *         guard spins GUARD_EXTRA_MS past the longest stream and must still be busy when the
 *         origin's event after the join completes. Only while the origin, the guard and the
 *         streams each have a connection of their own to the GPU (the driver opens 8 by
 *         default, CUDA_DEVICE_MAX_CONNECTIONS; streams beyond share them, and work in one
 *         waits behind work in another: on an H100 a fork to 8 streams made the guard's read
 *         wait for the origin with the solution), so for 6 streams or fewer, and only where the
 *         grader's own fork and join pass the same checks on the same streams first (a lower
 *         CUDA_DEVICE_MAX_CONNECTIONS, or MPS, can share connections sooner). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "exercise.h"
#include "fork_join.h"
#include "global_timer.cuh"
#include "tutorial.h"

#define SPIN_MS 20.0
#define LONGEST_EXTRA_MS 10.0
#define GUARD_EXTRA_MS 100.0
#define GUARD_MOST_STREAMS 6 /* origin + guard + 6 streams: the driver's 8 default connections */
#define MAX_STREAMS 32

__global__ void spin_then_set(int *flag, unsigned long long ns)
{
    tut_spin_ns(ns);
    __threadfence();
    *(volatile int *)flag = 1;
}

__global__ void read_flag(const int *flag, int *seen) { *seen = *(const volatile int *)flag; }

__global__ void count_flags(const int *flags, int count, int *total)
{
    int sum = 0;
    for (int i = 0; i < count; ++i)
        sum += ((const volatile int *)flags)[i];
    *total = sum;
}

typedef struct {
    cudaStream_t origin;
    cudaStream_t guard;                   /* what streams[-1] reads: keep it next to stream[] */
    cudaStream_t stream[MAX_STREAMS + 1]; /* stream[count] is the guard too */
    cudaEvent_t event, stop;
    cudaEvent_t spun[MAX_STREAMS]; /* the grader's, before the call: after each stream's spin
                                      (join), after the origin's first spin (fork) */
    int count;
    int *flags; /* device: FLAGS ints: the streams', the total, the guard's two, the origin's
                   first spin's */
} rig;

enum { FLAGS = MAX_STREAMS + 4, TOTAL = MAX_STREAMS, GUARD_SEEN = MAX_STREAMS + 1,
       GUARD_DONE = MAX_STREAMS + 2, ORIGIN_FIRST = MAX_STREAMS + 3 };
static_assert(offsetof(rig, stream) == offsetof(rig, guard) + sizeof(cudaStream_t),
              "streams[-1] must be the guard");

static void rig_create(rig *r, int count)
{
    r->count = count;
    CUDA_CHECK(cudaStreamCreateWithFlags(&r->origin, cudaStreamNonBlocking));
    CUDA_CHECK(cudaStreamCreateWithFlags(&r->guard, cudaStreamNonBlocking));
    for (int s = 0; s < count; ++s)
        CUDA_CHECK(cudaStreamCreateWithFlags(&r->stream[s], cudaStreamNonBlocking));
    r->stream[count] = r->guard;
    CUDA_CHECK(cudaEventCreateWithFlags(&r->event, cudaEventDisableTiming));
    CUDA_CHECK(cudaEventCreateWithFlags(&r->stop, cudaEventDisableTiming));
    for (int s = 0; s < count; ++s)
        CUDA_CHECK(cudaEventCreateWithFlags(&r->spun[s], cudaEventDisableTiming));
    r->flags = (int *)tut_device_alloc(FLAGS * sizeof(int), "flags");
}

/* Waits for the GPU, then sets every flag to 0. */
static void rig_clear_flags(rig *r)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemset(r->flags, 0, FLAGS * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* Loads every kernel of the test before it starts: with lazy loading (CUDA_MODULE_LOADING=LAZY,
 * the default since CUDA 12.2) a kernel's first launch loads it, and loading waits for the
 * kernels already running, which would order the streams for the student. */
static void load_kernels(rig *r)
{
    spin_then_set<<<1, 1, 0, r->origin>>>(r->flags, 0);
    LAUNCH_CHECK();
    read_flag<<<1, 1, 0, r->origin>>>(r->flags, r->flags + 1);
    LAUNCH_CHECK();
    count_flags<<<1, 1, 0, r->origin>>>(r->flags, 1, r->flags + 2);
    LAUNCH_CHECK();
    rig_clear_flags(r);
}

static void rig_destroy(rig *r)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    for (int s = 0; s < r->count; ++s)
        CUDA_CHECK(cudaStreamDestroy(r->stream[s]));
    CUDA_CHECK(cudaStreamDestroy(r->guard));
    CUDA_CHECK(cudaStreamDestroy(r->origin));
    CUDA_CHECK(cudaEventDestroy(r->event));
    CUDA_CHECK(cudaEventDestroy(r->stop));
    for (int s = 0; s < r->count; ++s)
        CUDA_CHECK(cudaEventDestroy(r->spun[s]));
    tut_device_free(r->flags);
}

/* A fork or join must not make the host wait for the GPU. A call waited only if it took half
 * the shortest spin or more AND a spin was over when it returned (`spun`: cudaEventQuery, right
 * after the call, of the grader's events recorded before the call: after the origin's first
 * spin for a fork, the first stream's found complete after its spin for a join; events, not
 * streams, so that work the call itself queued after its wait does not hide the wait): a call that
 * waited for a spin returns with it over, while a host that was merely slower than half a spin
 * (another program on the CPU) returns with every spin going. */
static int host_waited(double host_ms, double shortest_spin_ms, cudaError_t spun)
{
    if (spun != cudaErrorNotReady)
        CUDA_CHECK(spun);
    return host_ms >= 0.5 * shortest_spin_ms && spun != cudaErrorNotReady;
}

/* The verdict on a call that waited (host_waited) once: it fails only if the same call, run again
 * on the same streams (again(r): 1 if it waited again), waits again; a call with a
 * synchronisation in it waits every time, a host stalled once by something else seldom twice. */
static int host_returned_at_once(const char *what, double host_ms, int waited,
                                 int (*again)(rig *), rig *r)
{
    if (!waited || !again(r))
        return 1;
    printf("FAIL: %s took %.2f ms on the host while the GPU spun for %.0f ms, and returned with "
           "a spin over, twice: it waited for the GPU (a synchronisation?), which a fork or join "
           "must not do\n", what, host_ms, SPIN_MS);
    return 0;
}

/* The origin's work before a fork: a spin, the grader's spun[0] and then the caller's event
 * recorded (so the fork gets it pending, and once it is complete spun[0] is too), then a second
 * spin that sets `flag`. */
static void origin_spins_twice(rig *r, int *flag)
{
    spin_then_set<<<1, 1, 0, r->origin>>>(r->flags + ORIGIN_FIRST,
                                            (unsigned long long)(SPIN_MS * 1e6));
    LAUNCH_CHECK();
    CUDA_CHECK(cudaEventRecord(r->spun[0], r->origin));
    CUDA_CHECK(cudaEventRecord(r->event, r->origin));
    spin_then_set<<<1, 1, 0, r->origin>>>(flag, (unsigned long long)(SPIN_MS * 1e6));
    LAUNCH_CHECK();
}

/* Each stream s spins ms[s] milliseconds (ms NULL: SPIN_MS each) and sets flags[s]; the
 * grader's spun[s] is recorded after it. */
static void streams_spin(rig *r, const double *ms)
{
    for (int s = 0; s < r->count; ++s) {
        const double spin_ms = ms ? ms[s] : SPIN_MS;
        spin_then_set<<<1, 1, 0, r->stream[s]>>>(r->flags + s,
                                                   (unsigned long long)(spin_ms * 1e6));
        LAUNCH_CHECK();
        CUDA_CHECK(cudaEventRecord(r->spun[s], r->stream[s]));
    }
}

/* The student's fork, timed on the host (*host_ms) after origin_spins_twice: 1 if it waited for
 * the GPU (host_waited, on the origin's first spin). */
static int student_fork_waited(rig *r, double *host_ms)
{
    const double t0 = tut_cpu_seconds();
    fork_streams(r->origin, r->stream, r->count, r->event);
    *host_ms = (tut_cpu_seconds() - t0) * 1e3;
    return host_waited(*host_ms, SPIN_MS, cudaEventQuery(r->spun[0]));
}

/* The student's join, timed on the host (*host_ms) after streams_spin: 1 if it waited for the
 * GPU (host_waited, on the first stream's spin found over). */
static int student_join_waited(rig *r, double *host_ms)
{
    const double t0 = tut_cpu_seconds();
    join_streams(r->origin, r->stream, r->count, r->event);
    *host_ms = (tut_cpu_seconds() - t0) * 1e3;
    cudaError_t spun = cudaErrorNotReady; /* cudaSuccess if some spin was over already */
    for (int s = 0; s < r->count && spun == cudaErrorNotReady; ++s)
        spun = cudaEventQuery(r->spun[s]);
    return host_waited(*host_ms, SPIN_MS, spun);
}

/* The student's fork once more after the origin's spins: 1 if the host waited for them. */
static int fork_waits_again(rig *r)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    origin_spins_twice(r, r->flags + TOTAL);
    double host_ms;
    const int waited = student_fork_waited(r, &host_ms);
    rig_clear_flags(r);
    return waited;
}

/* The student's join once more after a spin in every stream: 1 if the host waited for one. */
static int join_waits_again(rig *r)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    streams_spin(r, NULL);
    double host_ms;
    const int waited = student_join_waited(r, &host_ms);
    rig_clear_flags(r);
    return waited;
}

typedef void (*fork_join_fn)(cudaStream_t origin, const cudaStream_t *streams, int count,
                             cudaEvent_t event);

/* The grader's own fork and join, for guard_usable. */
static void grader_fork(cudaStream_t origin, const cudaStream_t *streams, int count,
                        cudaEvent_t event)
{
    CUDA_CHECK(cudaEventRecord(event, origin));
    for (int s = 0; s < count; ++s)
        CUDA_CHECK(cudaStreamWaitEvent(streams[s], event, 0));
}

static void grader_join(cudaStream_t origin, const cudaStream_t *streams, int count,
                        cudaEvent_t event)
{
    for (int s = 0; s < count; ++s) {
        CUDA_CHECK(cudaEventRecord(event, streams[s]));
        CUDA_CHECK(cudaStreamWaitEvent(origin, event, 0));
    }
}

/* A fork, the guard alone watching: 1 if the guard's read after it waited for the origin's
 * spin. Leaves the flags 0. */
static int fork_trips_guard(rig *r, fork_join_fn fork)
{
    rig_clear_flags(r);
    spin_then_set<<<1, 1, 0, r->origin>>>(r->flags, (unsigned long long)(SPIN_MS * 1e6));
    LAUNCH_CHECK();
    fork(r->origin, r->stream, r->count, r->event);
    read_flag<<<1, 1, 0, r->guard>>>(r->flags, r->flags + GUARD_SEEN);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaDeviceSynchronize());
    int seen = -1;
    CUDA_CHECK(cudaMemcpy(&seen, r->flags + GUARD_SEEN, sizeof seen, cudaMemcpyDeviceToHost));
    rig_clear_flags(r);
    return seen != 0;
}

/* A join after a spin of SPIN_MS in every stream (streams_spin_first; 0: none), the guard
 * spinning GUARD_EXTRA_MS longer: 1 if the origin's event after the join waited for the guard.
 * Leaves the flags 0. */
static int join_trips_guard(rig *r, fork_join_fn join, int streams_spin_first)
{
    CUDA_CHECK(cudaDeviceSynchronize());
    const double stream_spin_ms = streams_spin_first ? SPIN_MS : 0.0;
    if (streams_spin_first)
        streams_spin(r, NULL);
    spin_then_set<<<1, 1, 0, r->guard>>>(
        r->flags + GUARD_DONE, (unsigned long long)((stream_spin_ms + GUARD_EXTRA_MS) * 1e6));
    LAUNCH_CHECK();
    join(r->origin, r->stream, r->count, r->event);
    CUDA_CHECK(cudaEventRecord(r->stop, r->origin));
    CUDA_CHECK(cudaEventSynchronize(r->stop));
    const cudaError_t guard = cudaStreamQuery(r->guard);
    if (guard != cudaErrorNotReady)
        CUDA_CHECK(guard);
    rig_clear_flags(r);
    return guard != cudaErrorNotReady;
}

/* 1 if the guard can be trusted on this rig: 6 streams or fewer, no lower connection count
 * asked for, and the grader's own fork, then its own join, pass the guard's checks on these
 * streams (where connections are shared, they do not, whatever the code). Leaves the flags 0. */
static int guard_usable(rig *r)
{
    const char *connections = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
    if (r->count > GUARD_MOST_STREAMS ||
        (connections && atoi(connections) < r->count + 2))
        return 0;
    const int usable = !fork_trips_guard(r, grader_fork) && !join_trips_guard(r, grader_join, 0);
    if (!usable)
        printf("  (the guard around the streams is off for %d streams: the grader's own fork or "
               "join fails its checks here, as where streams share the GPU's connections)\n",
               r->count);
    return usable;
}

static int test_fork(int count)
{
    rig r;
    rig_create(&r, count);
    load_kernels(&r);
    const int guarded = guard_usable(&r);
    int *seen = r.flags + 1; /* flags[0] is the origin's */
    CUDA_CHECK(cudaMemset(seen, 0xFF, count * sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    origin_spins_twice(&r, r.flags);
    double host_ms;
    const int waited = student_fork_waited(&r, &host_ms);
    for (int s = 0; s < count; ++s) {
        read_flag<<<1, 1, 0, r.stream[s]>>>(r.flags, seen + s);
        LAUNCH_CHECK();
    }
    if (guarded) {
        read_flag<<<1, 1, 0, r.guard>>>(r.flags, r.flags + GUARD_SEEN);
        LAUNCH_CHECK();
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    int got[MAX_STREAMS], want[MAX_STREAMS], guard_seen = -1;
    CUDA_CHECK(cudaMemcpy(got, seen, count * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&guard_seen, r.flags + GUARD_SEEN, sizeof guard_seen,
                          cudaMemcpyDeviceToHost));
    for (int s = 0; s < count; ++s)
        want[s] = 1;
    char label[96];
    snprintf(label, sizeof label, "  fork to %d streams: the origin's flag as each stream saw it",
             count);
    int ok = tut_check_i32(label, got, want, (size_t)count);
    if (!ok)
        printf("  (0: that stream's kernel ran before the origin's work had finished: was the "
               "event recorded in the origin first?)\n");
    /* a fork that made the host wait also delays the guard's read: that verdict first */
    const int at_once = host_returned_at_once("fork_streams", host_ms, waited, fork_waits_again,
                                              &r);
    ok &= at_once;
    /* a guard that tripped counts only if the grader's own fork and join still pass its checks
     * on these streams now and the student's fork trips it again (another program busy on the
     * GPU or the CPU can delay the guard's read once) */
    if (at_once && guarded && guard_seen != 0 && guard_usable(&r) &&
        fork_trips_guard(&r, fork_streams)) {
        printf("FAIL: the stream just before streams[0] or just after streams[%d] waited for the "
               "origin: fork_streams went past the array (a loop from -1, or to <= count?)\n",
               count - 1);
        ok = 0;
    }
    rig_destroy(&r);
    return ok;
}

/* Stream `longest` spins SPIN_MS + count + LONGEST_EXTRA_MS ms; the others SPIN_MS + 0, 1, ...
 * count - 1 ms in an order drawn from the seed. */
static int test_join(tut_grader *g, int count, int longest)
{
    rig r;
    rig_create(&r, count);
    load_kernels(&r);
    const int guarded = guard_usable(&r);
    int *total = r.flags + TOTAL; /* flags[0..count) are the streams' */
    CUDA_CHECK(cudaMemset(total, 0xFF, sizeof(int)));
    CUDA_CHECK(cudaDeviceSynchronize());
    double spin_ms[MAX_STREAMS];
    for (int s = 0; s < count; ++s)
        spin_ms[s] = SPIN_MS + s;
    for (int s = count - 1; s > 0; --s) { /* Fisher-Yates */
        const int t = (int)tut_grader_size(g, 0, (size_t)s);
        const double swap = spin_ms[s];
        spin_ms[s] = spin_ms[t];
        spin_ms[t] = swap;
    }
    spin_ms[longest] = SPIN_MS + count + LONGEST_EXTRA_MS;
    printf("  join of %d streams: stream %d spins longest (%.0f ms)\n", count, longest,
           spin_ms[longest]);
    streams_spin(&r, spin_ms);
    /* the guard, outside the array: the join must not wait for it */
    if (guarded) {
        spin_then_set<<<1, 1, 0, r.guard>>>(
            r.flags + GUARD_DONE,
            (unsigned long long)((spin_ms[longest] + GUARD_EXTRA_MS) * 1e6));
        LAUNCH_CHECK();
    }
    double host_ms;
    const int waited = student_join_waited(&r, &host_ms);
    count_flags<<<1, 1, 0, r.origin>>>(r.flags, count, total);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaEventRecord(r.stop, r.origin));
    CUDA_CHECK(cudaEventSynchronize(r.stop));
    const cudaError_t guard = guarded ? cudaStreamQuery(r.guard) : cudaErrorNotReady;
    if (guard != cudaErrorNotReady)
        CUDA_CHECK(guard);
    int busy = 0;
    for (int s = 0; s < count; ++s) {
        const cudaError_t e = cudaStreamQuery(r.stream[s]);
        if (e == cudaErrorNotReady) {
            if (busy++ == 0)
                printf("  stream %d was still busy when the origin's event after the join "
                       "completed\n", s);
        } else {
            CUDA_CHECK(e);
        }
    }
    int got = -1;
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    char label[96];
    snprintf(label, sizeof label, "  join of %d streams: flags set when the origin counted", count);
    int ok = tut_check_scalar(label, (double)got, (double)count, 0.0, 0.0);
    ok &= busy == 0;
    /* a join that made the host wait for the GPU also waits for the guard: that verdict first */
    const int at_once = host_returned_at_once("join_streams", host_ms, waited, join_waits_again,
                                              &r);
    ok &= at_once;
    /* as in the fork: only if the student's join trips it again */
    if (at_once && guard != cudaErrorNotReady && guard_usable(&r) &&
        join_trips_guard(&r, join_streams, 1)) {
        printf("FAIL: the origin waited for the stream just before streams[0] or just after "
               "streams[%d], which spun %.0f ms longer: join_streams went past the array (a "
               "loop from -1, or to <= count?)\n", count - 1, GUARD_EXTRA_MS);
        ok = 0;
    }
    rig_destroy(&r);
    return ok;
}

static int case_one(tut_grader *g)
{
    const int ok = test_fork(1);
    return test_join(g, 1, 0) & ok;
}

/* The seed's count, then every count from 2 to the guard's most: a fork past the array is
 * caught at each count the guard watches, not only at those the seed draws. */
static int case_fork(tut_grader *g)
{
    int ok = test_fork((int)tut_grader_prime(g, 2, 7));
    for (int count = 2; count <= GUARD_MOST_STREAMS; ++count)
        ok &= test_fork(count);
    return ok;
}

/* The longest spin on the first stream, on the last, and on one drawn from the seed. */
static int case_join(tut_grader *g)
{
    const int count = (int)tut_grader_prime(g, 2, 7);
    int ok = test_join(g, count, 0);
    ok &= test_join(g, count, count - 1);
    const int drawn = (int)tut_grader_size(g, 0, (size_t)count - 1);
    ok &= test_join(g, count, drawn);
    for (int c = 2; c <= GUARD_MOST_STREAMS; ++c) /* every count the guard watches, as in fork */
        ok &= test_join(g, c, c - 1);
    return ok;
}

static int case_many(tut_grader *g)
{
    const int count = (int)tut_grader_size(g, 16, MAX_STREAMS);
    const int ok = test_fork(count);
    const int longest = (int)tut_grader_size(g, 1, (size_t)count - 2); /* neither end */
    return test_join(g, count, longest) & ok;
}

/* The boundaries by design: stream counts at the multiples -1, 0, +1 of the hardware's default
 * 8 queues (CUDA_DEVICE_MAX_CONNECTIONS), every residue mod 8, the smallest counts and the
 * grader's most; each a fork, and a join whose longest spin is on the last stream. */
static int case_boundaries(tut_grader *g)
{
    const tut_width widths[] = {{"queues", 8}, {"most", MAX_STREAMS}};
    tut_boundary counts[64];
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), MAX_STREAMS, counts,
                                            TUT_COUNT(counts));
    int ok = 1;
    for (size_t i = 0; i < count; ++i) {
        const int streams = (int)counts[i].n;
        tut_grader_boundary_begin(counts[i].name, counts[i].n);
        const int right = test_fork(streams) & test_join(g, streams, streams - 1);
        ok &= tut_grader_boundary_verdict(counts[i].name, counts[i].n, right);
    }
    return ok;
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"one", case_one},   {"fork", case_fork}, {"join", case_join},
        {"many", case_many}, {"boundaries", case_boundaries}};
    const tut_exercise ex = {.id = "ex06.2", .title = "fork and join streams with an event",
                             .cases = cases, .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
