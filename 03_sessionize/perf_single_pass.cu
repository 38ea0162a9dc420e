/* The single-pass kernel (4_single_pass.cu) in the configuration this build was compiled with
 * (SINGLE_PASS_THREADS, SINGLE_PASS_ROWS, SINGLE_PASS_MIN_BLOCKS: -D overrides of
 * sessionize_config.h), checked and timed against the device copy of the same bytes in the same
 * process, interleaved (copy, kernel, copy, kernel, ...). Not part of the lesson: a measuring tool
 * for choosing the configuration.
 *
 *   sessionize_perf --check                  odd sizes around this build's tile, both shapes,
 *                                            against the CPU reference (0 pass, 1 wrong, 77 no GPU)
 *   sessionize_perf --bench [--n N] [--reps R] [--csv FILE]
 *                                            RESULT line: kernel and copy ms median (min-max) over
 *                                            R rounds, GB/s, % of the copy (median of rounds)
 *   --prefetch                               perf_prefetch.cu's kernel instead (the next tile's
 *                                            loads in flight during this one's scan; blk/SM in
 *                                            the RESULT line is then the one-pass kernel's) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sessionize_cpu.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

#define PERF_TIMEOUT 1800 /* seconds: the document's 30 minutes */
#define PERF_BYTES_PER_EVENT 24.0 /* 16 read + 8 written; the copy moves the same */

extern const session_variant prefetch_variant; /* perf_prefetch.cu */
/* The kernel measured: 4_single_pass.cu's, or with --prefetch perf_prefetch.cu's. */
static const session_variant *kernel = &single_pass_variant;
static const char *kernel_suffix = "";

static void config_line(int64_t n)
{
    const session_launch p = single_pass_plan(n);
    printf("config threads=%d rows=%d min_blocks=%d tile=%d: %d blocks/SM (limited by %s), "
           "%" PRId64 " blocks\n", SINGLE_PASS_THREADS, SINGLE_PASS_ROWS, SINGLE_PASS_MIN_BLOCKS,
           SINGLE_PASS_TILE, p.blocks_per_sm, p.limiter, p.blocks);
}

/* Labels n events of `shape` on the GPU and compares them with the CPU's. */
static int check_one(int64_t n, int shape, uint64_t seed)
{
    const size_t bytes = (size_t)n * sizeof(int64_t);
    int64_t *user = (int64_t *)tut_host_alloc(bytes, "user");
    int64_t *ts = (int64_t *)tut_host_alloc(bytes, "ts");
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "want");
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "got");
    generate_events(seed, shape, PERF_TIMEOUT, (size_t)n, user, ts);
    sessionize_cpu(user, ts, (size_t)n, PERF_TIMEOUT, want);
    int64_t *d_user = (int64_t *)tut_device_alloc(bytes, "user");
    int64_t *d_ts = (int64_t *)tut_device_alloc(bytes, "ts");
    int64_t *d_label = (int64_t *)tut_device_alloc(bytes, "labels");
    void *d_temp = tut_device_alloc(kernel->temp_bytes(n), "scratch");
    CUDA_CHECK(cudaMemcpy(d_user, user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ts, ts, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_label, 0xFF, bytes)); /* -1: never a valid label */
    const session_job job = {d_user, d_ts, n, PERF_TIMEOUT, d_label, d_temp};
    kernel->run(&job);
    CUDA_CHECK(cudaMemcpy(got, d_label, bytes, cudaMemcpyDeviceToHost));
    int64_t bad = -1;
    for (int64_t i = 0; i < n && bad < 0; ++i)
        if (got[i] != want[i])
            bad = i;
    if (bad >= 0)
        printf("  WRONG n=%" PRId64 " shape %d: event %" PRId64 ": ours %" PRId64 ", CPU %" PRId64
               "\n", n, shape, bad, got[bad], want[bad]);
    tut_device_free(d_user);
    tut_device_free(d_ts);
    tut_device_free(d_label);
    tut_device_free(d_temp);
    free(user);
    free(ts);
    free(want);
    free(got);
    return bad < 0;
}

static int check_all(uint64_t seed)
{
    const int64_t t = SINGLE_PASS_TILE;
    const int64_t sizes[] = {1, 2, 3, 31, 63, 64, 65, t - 1, t, t + 1, 2 * t - 1, 2 * t + 1,
                             4 * t + 1, 1000003, 9999991};
    int ok = 1, count = 0;
    for (int s = 0; s < TUT_COUNT(sizes); ++s, ++count)
        ok &= check_one(sizes[s], EVENTS_MIXED, seed + s);
    ok &= check_one(3000017, EVENTS_SINGLE_SESSION, seed);
    ++count;
    printf("%s: %d inputs (sizes around the tile of %d, one long session) against the CPU\n",
           ok ? "PASS" : "FAIL", count, SINGLE_PASS_TILE);
    return ok;
}

static void run_kernel(void *arg) { kernel->run((const session_job *)arg); }

static int bench(int64_t n, int reps, uint64_t seed, const char *csv)
{
    if (reps < 1 || reps > 32)
        reps = 3;
    const size_t bytes = (size_t)n * sizeof(int64_t);
    int64_t *user = (int64_t *)tut_host_alloc(bytes, "user");
    int64_t *ts = (int64_t *)tut_host_alloc(bytes, "ts");
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "want");
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "got");
    generate_events(seed, EVENTS_MIXED, PERF_TIMEOUT, (size_t)n, user, ts);
    sessionize_cpu(user, ts, (size_t)n, PERF_TIMEOUT, want);
    /* As the chapter's benchmark: one allocation holds both inputs (ts 16-byte aligned), the
     * copy reads 12 n bytes from it and writes them elsewhere: 24 n bytes, the kernel's. */
    const int64_t ts_offset = n + (n & 1);
    int64_t *d_events =
        (int64_t *)tut_device_alloc(2 * (size_t)ts_offset * sizeof(int64_t), "events");
    int64_t *d_label = (int64_t *)tut_device_alloc(bytes, "labels");
    void *d_copy = tut_device_alloc(bytes + bytes / 2, "copy destination");
    void *d_temp = tut_device_alloc(kernel->temp_bytes(n), "scratch");
    CUDA_CHECK(cudaMemcpy(d_events, user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_events + ts_offset, ts, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_label, 0xFF, bytes));
    session_job job = {d_events, d_events + ts_offset, n, PERF_TIMEOUT, d_label, d_temp};
    kernel->run(&job);
    CUDA_CHECK(cudaMemcpy(got, d_label, bytes, cudaMemcpyDeviceToHost));
    int ok = memcmp(got, want, bytes) == 0;
    if (!ok)
        printf("  WRONG at n=%" PRId64 "\n", n);
    tut_copy_job copy = {d_copy, d_events, (size_t)n * 12};
    double k_ms[32], c_ms[32], ratio[32], k_lo = 1e30, k_hi = 0, c_lo = 1e30, c_hi = 0;
    for (int r = 0; r < reps; ++r) {
        const tut_timing c = tut_time_gpu_batched(tut_copy_work, &copy, 2, 7, 0);
        const tut_timing k = tut_time_gpu_batched(run_kernel, &job, 2, 7, 0);
        c_ms[r] = c.median_ms;
        k_ms[r] = k.median_ms;
        ratio[r] = c.median_ms / k.median_ms;
        k_lo = k.min_ms < k_lo ? k.min_ms : k_lo;
        k_hi = k.max_ms > k_hi ? k.max_ms : k_hi;
        c_lo = c.min_ms < c_lo ? c.min_ms : c_lo;
        c_hi = c.max_ms > c_hi ? c.max_ms : c_hi;
    }
    const double k_med = tut_median(k_ms, reps), c_med = tut_median(c_ms, reps);
    double r_sorted[32];
    memcpy(r_sorted, ratio, sizeof(double) * reps);
    const double r_med = tut_median(r_sorted, reps);
    double r_lo = 1e30, r_hi = 0;
    for (int r = 0; r < reps; ++r) {
        r_lo = ratio[r] < r_lo ? ratio[r] : r_lo;
        r_hi = ratio[r] > r_hi ? ratio[r] : r_hi;
    }
    const session_launch p = single_pass_plan(n);
    printf("RESULT t%d_r%d_m%d%s limited_by=%s blk/SM=%d n=%" PRId64 " kernel %.4f ms (%.4f-%.4f) "
           "%.0f GB/s | copy %.4f ms (%.4f-%.4f) %.0f GB/s | %.1f%% of copy (%.1f-%.1f) over %d "
           "rounds%s\n", SINGLE_PASS_THREADS, SINGLE_PASS_ROWS, SINGLE_PASS_MIN_BLOCKS,
           kernel_suffix, p.limiter, p.blocks_per_sm, n, k_med, k_lo, k_hi,
           PERF_BYTES_PER_EVENT * n / k_med * 1e-6,
           c_med, c_lo, c_hi, PERF_BYTES_PER_EVENT * n / c_med * 1e-6, 100 * r_med, 100 * r_lo,
           100 * r_hi, reps, ok ? "" : " WRONG");
    FILE *f = csv ? fopen(csv, "a") : NULL;
    if (f) {
        fprintf(f, "t%d_r%d_m%d%s,%d,%" PRId64 ",%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%.2f,%d\n",
                SINGLE_PASS_THREADS, SINGLE_PASS_ROWS, SINGLE_PASS_MIN_BLOCKS, kernel_suffix,
                p.blocks_per_sm, n,
                k_med, k_lo, k_hi, c_med, c_lo, c_hi, 100 * r_med, 100 * r_lo, 100 * r_hi, ok);
        fclose(f);
    }
    tut_device_free(d_events);
    tut_device_free(d_label);
    tut_device_free(d_copy);
    tut_device_free(d_temp);
    free(user);
    free(ts);
    free(want);
    free(got);
    return ok;
}

int main(int argc, char **argv)
{
    int check = 0, do_bench = 0, reps = 3;
    long long n = 100000000;
    const char *csv = NULL;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--check"))
            check = 1;
        else if (!strcmp(argv[i], "--bench"))
            do_bench = 1;
        else if (!strcmp(argv[i], "--n") && i + 1 < argc)
            n = strtoll(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
            csv = argv[++i];
        else if (!strcmp(argv[i], "--prefetch")) {
            kernel = &prefetch_variant;
            kernel_suffix = "_pf";
        }
        else
            check = do_bench = -1;
    }
    if (check < 0 || (!check && !do_bench) || n < 1 || n > 400000000) {
        fprintf(stderr, "usage: sessionize_perf --check | --bench [--n N, 1 to 4e8] [--reps R] "
                        "[--csv FILE] [--prefetch]\n");
        return 2;
    }
    tut_select_device(TUT_NEED_NOTHING);
    config_line(n);
    int ok = 1;
    if (check)
        ok &= check_all(TUT_DEFAULT_SEED);
    if (do_bench)
        ok &= bench((int64_t)n, reps, TUT_DEFAULT_SEED, csv);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
