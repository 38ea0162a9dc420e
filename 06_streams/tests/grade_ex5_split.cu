/* Grader of ex06.5, split and combine across devices (split_combine.cu): split_dot only, on a
 * rig the grader builds (every buffer, stream and event on its part's device), against a
 * float64 CPU sum. Partial sums and the result are poisoned (NaN) before each call.
 *   one       one part: the whole vector;
 *   primes    2 .. 7 parts on GPU 0, a prime n;
 *   few       more parts than elements (n < parts: some parts get none), and n = 1;
 *   late      parts start late (a kernel spins on their streams first), in several orders:
 *             every part but the first, each part alone (the last first, part 0 too: a combine
 *             on a stream of its own must wait for part 0 as for the others), a drawn part
 *             latest: a combine that does not wait for every part reads poisoned partials (the
 *             lesson), whichever parts it waits for;
 *   boundaries  the split's edges by design (tut_boundary_sizes over the part count): n = 1,
 *             n below the parts (some left empty), n = parts and parts +/- 1, 2 parts +/- 1,
 *             every residue, primes, for 2, 5 and SPLIT_MAX_PARTS parts on GPU 0;
 *   two_gpus  the parts spread over every GPU (up to 4), peer access off before the call: the
 *             wrong GPU current for a part's launch or peer access never turned on fails here.
 *             The sum may come out right even so (a driver may run a launch on the stream's
 *             GPU, or reach the other GPU's memory): the given launchers (split_kernels.cu)
 *             compare each launch's buffers' device (cudaPointerGetAttributes) with the current
 *             GPU, and test peer access before the combine. On one GPU neither can be seen:
 *             needs two GPUs whose memory each can reach; skips (77) with the reason otherwise.
 * Every call also checks the split itself: each part's partial_dot over the count the header
 * specifies (n / parts, one more for each of the first n % parts parts), its buffers holding x
 * and y from its first element on (another split can give the same sum). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "global_timer.cuh"
#include "split_combine.h"
#include "tutorial.h"

#define LATE_MS 20.0

__global__ void spin_kernel(unsigned long long ns)
{
    tut_spin_ns(ns);
}

static void rig_create(split_rig *r, int parts, const int *device, size_t n)
{
    memset(r, 0, sizeof *r);
    r->parts = parts;
    const size_t largest = n / parts + 1;
    for (int k = 0; k < parts; ++k) {
        r->device[k] = device[k];
        r->blocks[k] = partial_dot_blocks(device[k]);
        CUDA_CHECK(cudaSetDevice(device[k]));
        CUDA_CHECK(cudaStreamCreateWithFlags(&r->stream[k], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&r->done[k], cudaEventDisableTiming));
        r->x[k] = (float *)tut_device_alloc(largest * sizeof(float), "x part");
        r->y[k] = (float *)tut_device_alloc(largest * sizeof(float), "y part");
        r->partials[k] = (double *)tut_device_alloc(r->blocks[k] * sizeof(double), "partials");
        /* Load both kernels on this GPU now (lazy loading would wait for the late spins). */
        const combine_args none = {.parts = 0};
        launch_partial_dot(r->x[k], r->y[k], 0, r->partials[k], 1, r->stream[k]);
        launch_combine(&none, r->partials[k], r->stream[k]);
        CUDA_CHECK(cudaStreamSynchronize(r->stream[k]));
        CUDA_CHECK(cudaMemset(r->partials[k], 0xFF, r->blocks[k] * sizeof(double))); /* NaN */
        CUDA_CHECK(cudaDeviceSynchronize());
    }
    CUDA_CHECK(cudaSetDevice(device[0]));
    r->result = (double *)tut_device_alloc(sizeof(double), "result");
    CUDA_CHECK(cudaMemset(r->result, 0xFF, sizeof(double)));
    CUDA_CHECK(cudaDeviceSynchronize());
}

static void rig_destroy(split_rig *r)
{
    for (int k = 0; k < r->parts; ++k) {
        CUDA_CHECK(cudaSetDevice(r->device[k]));
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaStreamDestroy(r->stream[k]));
        CUDA_CHECK(cudaEventDestroy(r->done[k]));
        tut_device_free(r->x[k]);
        tut_device_free(r->y[k]);
        tut_device_free(r->partials[k]);
    }
    CUDA_CHECK(cudaSetDevice(r->device[0]));
    tut_device_free(r->result);
    CUDA_CHECK(cudaSetDevice(0));
}

/* 1 if part k got the share split_combine.h specifies: its partial_dot launched over
 * n / parts elements (one more for the first n % parts parts), its buffers holding x and y from
 * element first on. Prints the first difference. */
static int check_split(const split_rig *rig, const float *x, const float *y, size_t n, int k)
{
    const size_t parts = (size_t)rig->parts, uk = (size_t)k, extra = n % parts;
    const size_t first = uk * (n / parts) + (uk < extra ? uk : extra);
    const size_t count = n / parts + (uk < extra ? 1 : 0);
    const size_t launched = split_launched_count(rig->partials[k]);
    if (launched == SIZE_MAX) {
        printf("  part %d: no partial_dot launched into its partial sums (every part launches "
               "one, an empty part too: the combine reads its partials)\n", k);
        return 0;
    }
    if (launched != count) {
        printf("  part %d: partial_dot over %zu elements, the split gives it %zu (elements "
               "[%zu, %zu): n / parts each, one more for each of the first n %% parts parts)\n",
               k, launched, count, first, first + count);
        return 0;
    }
    if (count == 0)
        return 1;
    float *got = (float *)tut_host_alloc(count * sizeof(float), "part's copy");
    int ok = 1;
    for (int side = 0; side < 2 && ok; ++side) {
        const float *want = (side ? y : x) + first;
        CUDA_CHECK(cudaMemcpy(got, side ? rig->y[k] : rig->x[k], count * sizeof(float),
                              cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < count && ok; ++i)
            if (memcmp(&got[i], &want[i], sizeof(float)) != 0) {
                printf("  part %d: %s[%zu] on the GPU is %.9g, expected %s[%zu] = %.9g (its "
                       "share is elements [%zu, %zu))\n", k, side ? "y" : "x", i, got[i],
                       side ? "y" : "x", first + i, want[i], first, first + count);
                ok = 0;
            }
    }
    free(got);
    return ok;
}

/* One graded call: late_ms[k] > 0 queues a spin of that long on part k's stream before it. */
static int grade(tut_grader *g, size_t n, int parts, const int *device, const double *late_ms)
{
    float *x = (float *)tut_pinned_alloc((n ? n : 1) * sizeof(float), "x");
    float *y = (float *)tut_pinned_alloc((n ? n : 1) * sizeof(float), "y");
    tut_rng_fill_f32(&g->rng, x, n, -1.0f, 1.0f);
    tut_rng_fill_f32(&g->rng, y, n, -1.0f, 1.0f);
    split_rig rig;
    rig_create(&rig, parts, device, n);
    if (late_ms) {
        for (int k = 0; k < parts; ++k) { /* load the kernel first: loading waits for the GPU */
            CUDA_CHECK(cudaSetDevice(device[k]));
            spin_kernel<<<1, 1, 0, rig.stream[k]>>>(0);
            LAUNCH_CHECK();
            CUDA_CHECK(cudaDeviceSynchronize());
        }
        for (int k = 0; k < parts; ++k)
            if (late_ms[k] > 0.0) {
                CUDA_CHECK(cudaSetDevice(device[k]));
                spin_kernel<<<1, 1, 0, rig.stream[k]>>>((unsigned long long)(late_ms[k] * 1e6));
                LAUNCH_CHECK();
            }
    }
    int rig_gpus = 1; /* the GPUs the rig uses: 0 .. the highest named */
    for (int k = 0; k < parts; ++k)
        rig_gpus = device[k] + 1 > rig_gpus ? device[k] + 1 : rig_gpus;
    /* Not part 0's GPU (where the combine runs) when there is another: split_dot must choose. */
    CUDA_CHECK(cudaSetDevice((device[0] + 1) % rig_gpus));
    (void)split_launch_faults(NULL, 0);
    const double got = split_dot(&rig, x, y, n);
    int split_ok = 1;
    for (int k = 0; k < parts; ++k)
        split_ok &= check_split(&rig, x, y, n, k);
    char fault[256];
    const int faults = split_launch_faults(fault, sizeof fault);
    double want = 0.0, scale = 0.0;
    for (size_t i = 0; i < n; ++i) {
        want += (double)x[i] * y[i];
        scale += fabs((double)x[i] * y[i]);
    }
    rig_destroy(&rig);
    CUDA_CHECK(cudaFreeHost(x));
    CUDA_CHECK(cudaFreeHost(y));
    const int sum_ok = fabs(got - want) <= 1e-11 * scale + 1e-300 || (n == 0 && got == 0.0);
    if (faults) /* first: the line a grade's why: quotes */
        printf("  %s (%d launch%s like it)\n", fault, faults, faults == 1 ? "" : "es");
    printf("  n = %zu over %d part%s (GPUs", n, parts, parts == 1 ? "" : "s");
    for (int k = 0; k < parts; ++k)
        printf(" %d", device[k]);
    printf(")%s: %.15g, expected %.15g: %s\n", late_ms ? ", late parts (ms):" : "", got, want,
           sum_ok ? "right" : "WRONG");
    if (late_ms) {
        printf("   ");
        for (int k = 0; k < parts; ++k)
            printf(" %g", late_ms[k]);
        printf("\n");
    }
    const int ok = sum_ok && faults == 0 && split_ok;
    if (!ok && isnan(got))
        printf("  NaN: a partial sum was read before its part wrote it (the combine did not wait "
               "for every part), or a part was never run\n");
    return ok;
}

static const int on_gpu0[SPLIT_MAX_PARTS] = {0};

static int case_one(tut_grader *g)
{
    return grade(g, tut_grader_size(g, 1, 1000000), 1, on_gpu0, NULL);
}

static int case_primes(tut_grader *g)
{
    const int parts = 2 + (int)tut_rng_below(&g->rng, 6);
    return grade(g, tut_grader_prime(g, 1000, 3000000), parts, on_gpu0, NULL);
}

static int case_few(tut_grader *g)
{
    const int parts = 5 + (int)tut_rng_below(&g->rng, 8);
    return grade(g, tut_grader_size(g, 2, (size_t)parts - 1), parts, on_gpu0, NULL) &&
           grade(g, 1, parts, on_gpu0, NULL);
}

/* The parts late in several orders, so that a combine that waits for any subset of the parts
 * (the last one only, the first few, all but part 0 from a stream other than part 0's) reads a
 * part it did not wait for before that part has written it: every part but the first late; then
 * each part alone late, the last first and part 0 last; then a drawn part latest, the others
 * late by drawn shorter times. */
static int grade_late_orders(tut_grader *g, size_t n, int parts, const int *device)
{
    double late_ms[SPLIT_MAX_PARTS] = {0.0};
    for (int k = 0; k < parts; ++k)
        late_ms[k] = k > 0 ? LATE_MS : 0.0;
    int ok = grade(g, n, parts, device, late_ms);
    for (int alone = parts - 1; alone >= 0; --alone) {
        for (int k = 0; k < parts; ++k)
            late_ms[k] = k == alone ? LATE_MS : 0.0;
        ok &= grade(g, n, parts, device, late_ms);
    }
    const int latest = (int)tut_rng_below(&g->rng, (uint64_t)parts);
    for (int k = 0; k < parts; ++k)
        late_ms[k] = k == latest ? LATE_MS : 0.25 * LATE_MS * tut_rng_uniform(&g->rng);
    ok &= grade(g, n, parts, device, late_ms);
    return ok;
}

static int case_late(tut_grader *g)
{
    const int parts = 3 + (int)tut_rng_below(&g->rng, 4);
    return grade_late_orders(g, tut_grader_odd(g, 100001, 2000001), parts, on_gpu0);
}

/* The split's boundaries by design: for 2, 5 and SPLIT_MAX_PARTS parts, the sizes around the
 * part count and its multiples (1, 2, 3, parts - 1, parts, parts + 1, 2 parts +/- 1, ... and every
 * residue for a count of at most 8), n below the parts (the last parts left empty), and primes. */
static int case_boundaries(tut_grader *g)
{
    static const int part_counts[] = {2, 5, SPLIT_MAX_PARTS};
    static const size_t primes[] = {7, 13, 17, 31, 1009, 65537};
    int ok = 1;
    for (size_t c = 0; c < TUT_COUNT(part_counts); ++c) {
        const int parts = part_counts[c];
        const tut_width widths[] = {{"parts", (size_t)parts}};
        tut_boundary sizes[48];
        size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), 3 * (size_t)parts + 1,
                                          sizes, TUT_COUNT(sizes));
        for (size_t p = 0; p < TUT_COUNT(primes) && count < TUT_COUNT(sizes); ++p) {
            int seen = 0;
            for (size_t b = 0; b < count; ++b)
                seen |= sizes[b].n == primes[p];
            if (seen)
                continue;
            sizes[count].n = primes[p];
            snprintf(sizes[count].name, sizeof sizes[count].name, "prime %zu", primes[p]);
            count++;
        }
        for (size_t b = 0; b < count; ++b) {
            char name[96];
            snprintf(name, sizeof name, "%s over %d parts%s", sizes[b].name, parts,
                     sizes[b].n < (size_t)parts ? " (some left empty)" : "");
            tut_grader_boundary_begin(name, sizes[b].n);
            const int right = grade(g, sizes[b].n, parts, on_gpu0, NULL);
            ok &= tut_grader_boundary_verdict(name, sizes[b].n, right);
        }
    }
    return ok;
}

static int case_two_gpus(tut_grader *g)
{
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    const int gpus = visible < 4 ? visible : 4;
    for (int a = 0; a < gpus && gpus >= 2; ++a) /* part 0's GPU must reach every other */
        for (int b = 0; b < gpus; ++b) {
            int can = 1;
            if (a != b)
                CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
            if (!can) {
                printf("skipped: GPUs %d and %d cannot reach each other's memory (no peer "
                       "access): this case needs two that can\n", a, b);
                fflush(stdout);
                exit(TUT_EXIT_SKIP);
            }
        }
    if (gpus < 2) {
        printf("skipped: this case needs two GPUs; this machine shows %d (on one, a part's "
               "work on the wrong GPU or peer access never enabled cannot be seen)\n", visible);
        fflush(stdout);
        exit(TUT_EXIT_SKIP);
    }
    for (int a = 0; a < gpus; ++a) { /* off, so that a missing cudaDeviceEnablePeerAccess shows */
        CUDA_CHECK(cudaSetDevice(a));
        for (int b = 0; b < gpus; ++b) {
            const cudaError_t err = a == b ? cudaSuccess : cudaDeviceDisablePeerAccess(b);
            if (err == cudaErrorPeerAccessNotEnabled)
                (void)cudaGetLastError();
            else
                CUDA_CHECK(err);
        }
    }
    int device[SPLIT_MAX_PARTS];
    const int parts = 2 * gpus + 1; /* odd: some GPUs hold one part more */
    for (int k = 0; k < parts; ++k)
        device[k] = (k + 1) % gpus; /* part 0 on GPU 1: the combine is not on GPU 0 */
    return grade(g, tut_grader_prime(g, 100000, 3000000), parts, device, NULL) &&
           grade_late_orders(g, tut_grader_odd(g, 10001, 200001), parts, device);
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"one", case_one},   {"primes", case_primes},         {"few", case_few},
        {"late", case_late}, {"boundaries", case_boundaries}, {"two_gpus", case_two_gpus},
    };
    const tut_exercise ex = {.id = "ex06.5", .title = "split and combine across devices",
                             .cases = cases, .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
