/* The default stream's rules, read off the GPU's own clock.
 *
 * Each experiment launches two "spin" kernels, A and B (one thread each, busy for --ms
 * milliseconds), in various streams, sometimes with a tiny kernel M in between, and every kernel
 * stamps its start and end with the GPU's global nanosecond timer. A rule that CUDA guarantees
 * ("B starts after A ends") is checked and decides the exit code; what is merely allowed ("A
 * and B may overlap") is reported, never required: another program on the GPU, or a GPU without
 * concurrent kernels, could serialise them.
 *
 * This file is built twice (CMakeLists.txt): streams_default_stream with the legacy default
 * stream, and streams_default_stream_per_thread with nvcc --default-stream per-thread, where
 * stream 0 means a per-thread stream that synchronises with nobody but cudaStreamLegacy. */
#include <stdio.h>
#include <string.h>

#include "tutorial.h"

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define BUILD_NAME "per-thread"
#define ZERO_IS_LEGACY 0
#else
#define BUILD_NAME "legacy"
#define ZERO_IS_LEGACY 1
#endif

__device__ unsigned long long global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* stamps[0] = start, stamps[1] = end, in GPU nanoseconds. */
__global__ void spin_kernel(unsigned long long ns, unsigned long long *stamps)
{
    const unsigned long long start = global_ns();
    while (global_ns() - start < ns) {
    }
    stamps[0] = start;
    stamps[1] = global_ns();
}

enum { MID_NONE, MID_STREAM_ZERO, MID_LEGACY, MID_EVENT };

typedef struct {
    const char *name;
    int same_stream; /* B in A's stream */
    int nonblocking; /* the two streams are created with cudaStreamNonBlocking */
    int middle;      /* what stands between A and B */
    int ordered;     /* 1: CUDA guarantees B after A (and M between); 0: they may overlap */
} experiment;

static void launch_spin(unsigned long long ns, unsigned long long *stamps, cudaStream_t s)
{
    spin_kernel<<<1, 1, 0, s>>>(ns, stamps);
    LAUNCH_CHECK();
}

/* Runs one experiment; returns 0 if a guaranteed order was broken. */
static int run_experiment(const experiment *e, int index, unsigned long long spin_ns,
                          unsigned long long *d_stamps, tut_csv *csv)
{
    cudaStream_t a, b;
    const unsigned flags = e->nonblocking ? cudaStreamNonBlocking : cudaStreamDefault;
    CUDA_CHECK(cudaStreamCreateWithFlags(&a, flags));
    CUDA_CHECK(cudaStreamCreateWithFlags(&b, flags));
    cudaEvent_t a_done;
    CUDA_CHECK(cudaEventCreateWithFlags(&a_done, cudaEventDisableTiming));
    CUDA_CHECK(cudaMemset(d_stamps, 0, 6 * sizeof(unsigned long long)));
    CUDA_CHECK(cudaDeviceSynchronize());

    launch_spin(spin_ns, d_stamps + 0, a);
    int has_mid = 1;
    switch (e->middle) {
    case MID_STREAM_ZERO: launch_spin(0, d_stamps + 2, 0); break; /* whatever 0 means here */
    case MID_LEGACY: launch_spin(0, d_stamps + 2, cudaStreamLegacy); break;
    case MID_EVENT:
        /* The explicit way to order two streams: B's stream waits for an event in A's. */
        CUDA_CHECK(cudaEventRecord(a_done, a));
        CUDA_CHECK(cudaStreamWaitEvent(b, a_done, 0));
        has_mid = 0;
        break;
    default: has_mid = 0;
    }
    launch_spin(spin_ns, d_stamps + 4, e->same_stream ? a : b);
    CUDA_CHECK(cudaDeviceSynchronize());

    unsigned long long t[6];
    CUDA_CHECK(cudaMemcpy(t, d_stamps, sizeof t, cudaMemcpyDeviceToHost));
    const unsigned long long origin = t[0] < t[4] ? t[0] : t[4];
    const unsigned long long last = t[1] > t[5] ? t[1] : t[5];
    const double total_ms = (double)(last - origin) * 1e-6;
    const int b_after_a = t[4] >= t[1];
    const int a_after_b = t[0] >= t[5];
    const int mid_between = !has_mid || (t[2] >= t[1] && t[4] >= t[3]);
    const int overlapped = !b_after_a && !a_after_b;

    int ok = 1;
    const char *verdict;
    if (e->ordered) {
        ok = b_after_a && mid_between;
        verdict = ok ? "ordered, as guaranteed" : "NOT ORDERED: a guarantee was broken";
    } else {
        verdict = overlapped ? "overlapped (allowed)" : "ran one after the other (also allowed)";
    }
    printf("  %-44s %7.2f ms  %s\n", e->name, total_ms, verdict);

    const char *names[3] = {"A", "M", "B"};
    for (int k = 0; k < 3; ++k) {
        if (k == 1 && !has_mid)
            continue;
        tut_csv_row(csv, "%s,%d,%s,%s,%.4f,%.4f,%d,%.4f", BUILD_NAME, index, e->name, names[k],
                    (double)(t[2 * k] - origin) * 1e-6, (double)(t[2 * k + 1] - origin) * 1e-6,
                    e->ordered, total_ms);
    }
    CUDA_CHECK(cudaEventDestroy(a_done));
    CUDA_CHECK(cudaStreamDestroy(a));
    CUDA_CHECK(cudaStreamDestroy(b));
    return ok;
}

int main(int argc, char **argv)
{
    static unsigned long long ms = 20;
    static const char *outdir = NULL;
    const tut_option opts[] = {
        {"--ms", TUT_OPT_SIZE, &ms, "how long each spin kernel runs, in milliseconds", 1, 2000,
         NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "write default_stream_<build>.csv here", 1, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "default_stream: which streams wait for which, read off the GPU clock",
                      opts, TUT_COUNT(opts));
    tut_select_device(TUT_NEED_NOTHING);

    const experiment experiments[] = {
        /* names without commas: they go into a CSV */
        {"A then B in one stream", 1, 0, MID_NONE, 1},
        {"A and B in two streams", 0, 0, MID_NONE, 0},
        {"stream 0 between (blocking streams)", 0, 0, MID_STREAM_ZERO, ZERO_IS_LEGACY},
        {"stream 0 between (non-blocking streams)", 0, 1, MID_STREAM_ZERO, 0},
        {"cudaStreamLegacy between (blocking streams)", 0, 0, MID_LEGACY, 1},
        {"event between (non-blocking streams)", 0, 1, MID_EVENT, 1},
    };

    unsigned long long *d_stamps =
        (unsigned long long *)tut_device_alloc(6 * sizeof(unsigned long long), "stamps");
    launch_spin(0, d_stamps, 0); /* load the module before anything is timed */
    CUDA_CHECK(cudaDeviceSynchronize());

    char file[64];
    snprintf(file, sizeof file, "default_stream_%s.csv",
             ZERO_IS_LEGACY ? "legacy" : "per_thread");
    tut_csv *csv = tut_csv_open(outdir, file, "build,index,experiment,kernel,start_ms,end_ms,ordered,"
                                              "total_ms");
    printf("build: stream 0 is the %s default stream; A and B spin %llu ms each "
           "(one after the other: ~%llu ms, overlapped: ~%llu ms)\n",
           BUILD_NAME, ms, 2 * ms, ms);
    int ok = 1;
    for (int i = 0; i < TUT_COUNT(experiments); ++i)
        ok &= run_experiment(&experiments[i], i, ms * 1000000ull, d_stamps, csv);
    tut_csv_close(csv);
    tut_device_free(d_stamps);
    return tut_finish(ok);
}
