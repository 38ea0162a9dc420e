/* Bytes first. Labelling n events reads user_id and timestamp (16 B) and writes session_id (8 B):
 * 24 B per event, 2.4 GB for 10^8 events. The neighbour i-1 that the boundary test also reads
 * is the previous element of the same arrays, so it comes from cache, not from DRAM. The ceiling
 * is a device-to-device copy of 12 B per event (12 read + 12 written: the same 24 B), timed in
 * the same run. Arithmetic is a few integer operations per event: the kernels are memory-bound
 * and "fraction of memcpy" is the figure of merit.
 *
 * One set of 10^8 random events is made once; each size uses its prefix (a prefix of sorted
 * events is sorted, and its labels are the prefix of the full labels). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "sessionize_bench.h"
#include "sessionize_cpu.h"
#include "tutorial.h"

#define BYTES_PER_EVENT 24.0

typedef struct {
    void *dst;
    const void *src;
    size_t bytes;
} copy_job;

static void copy_work(void *arg)
{
    const copy_job *c = (const copy_job *)arg;
    CUDA_CHECK(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
}

/* tut_time_gpu takes one argument: the variant being timed is kept here. */
static const session_variant *bench_current_variant = NULL;

static void variant_work(void *arg)
{
    bench_current_variant->run((const session_job *)arg);
}

static double cpu_reference_ms(const int64_t *user, const int64_t *ts, size_t n, int64_t timeout,
                               int64_t *label, int reps)
{
    double t[5];
    for (int r = 0; r < reps; ++r) {
        const double t0 = tut_cpu_seconds();
        sessionize_cpu(user, ts, n, timeout, label);
        t[r] = 1e3 * (tut_cpu_seconds() - t0);
    }
    return tut_median(t, reps);
}

/* Checks the variant on the first n events (poisoned labels first), then times it. */
static int check_and_time(const session_variant *v, session_job *job, const int64_t *want,
                          int64_t *got, int reps, double *ms)
{
    CUDA_CHECK(cudaMemset(job->label, 0xFF, (size_t)job->n * sizeof(int64_t)));
    v->run(job);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, job->label, (size_t)job->n * sizeof(int64_t),
                          cudaMemcpyDeviceToHost));
    char what[96];
    snprintf(what, sizeof what, "%s n=%" PRId64, v->name, job->n);
    if (!tut_check_i64(what, got, want, (size_t)job->n))
        return 0;
    bench_current_variant = v;
    *ms = tut_time_gpu(variant_work, job, 2, reps).median_ms;
    return 1;
}

typedef struct {
    int64_t n;
    double cpu_ms, memcpy_gbps, ms[8];
} summary_row;

/* Sizes 10^4, 3*10^4, 10^5, ... up to max_n (max_n itself last). */
static int bench_sizes(int64_t max_n, int64_t *sizes)
{
    int count = 0;
    for (int64_t decade = 10000; decade <= max_n; decade *= 10) {
        sizes[count++] = decade;
        if (3 * decade < max_n)
            sizes[count++] = 3 * decade;
    }
    if (sizes[count - 1] != max_n)
        sizes[count++] = max_n;
    return count;
}

static int single_session_case(const bench_config *cfg, tut_csv *csv, int64_t *d_user,
                               int64_t *d_ts, int64_t *d_label, void *d_temp)
{
    /* The per-session walk's worst case: one user, one session. The scans do not care. */
    const int64_t n = cfg->max_n < (1 << 20) ? cfg->max_n : (1 << 20);
    const size_t bytes = (size_t)n * sizeof(int64_t);
    int64_t *user = (int64_t *)tut_host_alloc(bytes, "user ids");
    int64_t *ts = (int64_t *)tut_host_alloc(bytes, "timestamps");
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "reference");
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "labels");
    generate_events(cfg->seed, EVENTS_SINGLE_SESSION, cfg->timeout, (size_t)n, user, ts);
    sessionize_cpu(user, ts, (size_t)n, cfg->timeout, want);
    CUDA_CHECK(cudaMemcpy(d_user, user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ts, ts, bytes, cudaMemcpyHostToDevice));
    int ok = 1;
    printf("\nOne session of %" PRId64 " events (the serial walk's worst case):\n", n);
    for (int k = 0; k < cfg->variant_count; ++k) {
        session_job job = {d_user, d_ts, n, cfg->timeout, d_label, d_temp};
        double ms = 0;
        const int reps = k == 0 ? 3 : 20;
        if (!check_and_time(cfg->variants[k], &job, want, got, reps, &ms)) {
            ok = 0;
            continue;
        }
        printf("  %-12s %10.3f ms  %8.3f Gevents/s\n", cfg->variants[k]->name, ms,
               (double)n / ms * 1e-6);
        tut_csv_row(csv, "%" PRId64 ",%s,%.5f,%.4f", n, cfg->variants[k]->name, ms,
                    (double)n / ms * 1e-6);
    }
    free(got);
    free(want);
    free(ts);
    free(user);
    return ok;
}

int run_benchmark(const bench_config *cfg)
{
    const int64_t max_n = cfg->max_n;
    const size_t bytes = tut_bytes((size_t)max_n, sizeof(int64_t), "events");
    /* events (2 arrays) + labels + copy destination (1.5 arrays) + scratch */
    if (!tut_device_fits(tut_bytes(bytes, 5, "bench working set"), (size_t)512 << 20)) {
        fprintf(stderr, "--bench-max %" PRId64 " does not fit in GPU memory\n", max_n);
        exit(2);
    }
    printf("\nBenchmark: random events (seed %" PRIu64 ", timeout %" PRId64 "), up to %" PRId64
           "; %.0f bytes moved per event\n", cfg->seed, cfg->timeout, max_n, BYTES_PER_EVENT);
    int64_t *user = (int64_t *)tut_host_alloc(bytes, "user ids");
    int64_t *ts = (int64_t *)tut_host_alloc(bytes, "timestamps");
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "reference labels");
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "labels");
    generate_events(cfg->seed, EVENTS_MIXED, cfg->timeout, (size_t)max_n, user, ts);
    sessionize_cpu(user, ts, (size_t)max_n, cfg->timeout, want);

    /* One allocation holds both inputs, so the memcpy ceiling reads from the same memory. */
    int64_t *d_events = (int64_t *)tut_device_alloc(2 * bytes, "events");
    int64_t *d_user = d_events, *d_ts = d_events + max_n;
    int64_t *d_label = (int64_t *)tut_device_alloc(bytes, "session ids");
    void *d_copy = tut_device_alloc(bytes + bytes / 2, "memcpy destination");
    size_t temp_bytes = 0;
    for (int k = 0; k < cfg->variant_count; ++k) {
        const size_t b = cfg->variants[k]->temp_bytes(max_n);
        temp_bytes = b > temp_bytes ? b : temp_bytes;
    }
    /* Scratch sizes grow with n, so the largest covers every prefix. */
    void *d_temp = tut_device_alloc(temp_bytes, "scan scratch");
    CUDA_CHECK(cudaMemcpy(d_user, user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ts, ts, bytes, cudaMemcpyHostToDevice));

    tut_csv *csv = tut_csv_open(cfg->outdir, "throughput.csv",
                                "n,variant,ms,gevents_per_s,gbps,fraction_of_memcpy,speedup_vs_cpu");
    int64_t sizes[32];
    const int size_count = bench_sizes(max_n, sizes);
    summary_row last = {0, 0, 0, {0}};
    int ok = 1;
    printf("%12s %-12s %10s %10s %9s %8s %9s\n", "n", "variant", "ms", "Gevents/s", "GB/s",
           "memcpy", "x CPU");
    for (int s = 0; s < size_count; ++s) {
        const int64_t n = sizes[s];
        const int reps = n >= 10000000 ? 10 : 30;
        summary_row row = {n, 0, 0, {0}};
        row.cpu_ms = cpu_reference_ms(user, ts, (size_t)n, cfg->timeout, got, n >= 30000000 ? 3 : 5);
        copy_job copy = {d_copy, d_events, (size_t)n * 12};
        const double copy_ms = tut_time_gpu(copy_work, &copy, 2, reps).median_ms;
        row.memcpy_gbps = BYTES_PER_EVENT * (double)n / copy_ms * 1e-6;
        printf("%12" PRId64 " %-12s %10.4f %10.3f %9.1f %8s %9s\n", n, "memcpy", copy_ms,
               (double)n / copy_ms * 1e-6, row.memcpy_gbps, "1.00", "");
        printf("%12" PRId64 " %-12s %10.4f %10.3f %9.1f %8s %9s\n", n, "cpu", row.cpu_ms,
               (double)n / row.cpu_ms * 1e-6, BYTES_PER_EVENT * (double)n / row.cpu_ms * 1e-6, "",
               "1.0");
        tut_csv_row(csv, "%" PRId64 ",memcpy,%.5f,%.4f,%.2f,1.0,", n, copy_ms,
                    (double)n / copy_ms * 1e-6, row.memcpy_gbps);
        tut_csv_row(csv, "%" PRId64 ",cpu,%.5f,%.4f,%.2f,%.4f,1.0", n, row.cpu_ms,
                    (double)n / row.cpu_ms * 1e-6, BYTES_PER_EVENT * (double)n / row.cpu_ms * 1e-6,
                    BYTES_PER_EVENT * (double)n / row.cpu_ms * 1e-6 / row.memcpy_gbps);
        for (int k = 0; k < cfg->variant_count; ++k) {
            session_job job = {d_user, d_ts, n, cfg->timeout, d_label, d_temp};
            double ms = 0;
            if (!check_and_time(cfg->variants[k], &job, want, got, reps, &ms)) {
                ok = 0;
                continue;
            }
            row.ms[k] = ms;
            const double gbps = BYTES_PER_EVENT * (double)n / ms * 1e-6;
            printf("%12" PRId64 " %-12s %10.4f %10.3f %9.1f %8.2f %9.1f\n", n,
                   cfg->variants[k]->name, ms, (double)n / ms * 1e-6, gbps,
                   gbps / row.memcpy_gbps, row.cpu_ms / ms);
            tut_csv_row(csv, "%" PRId64 ",%s,%.5f,%.4f,%.2f,%.4f,%.2f", n, cfg->variants[k]->name,
                        ms, (double)n / ms * 1e-6, gbps, gbps / row.memcpy_gbps, row.cpu_ms / ms);
        }
        last = row;
    }
    tut_csv_close(csv);

    tut_csv *worst = tut_csv_open(cfg->outdir, "single_session.csv", "n,variant,ms,gevents_per_s");
    ok &= single_session_case(cfg, worst, d_user, d_ts, d_label, d_temp);
    tut_csv_close(worst);

    printf("\nSummary at n = %" PRId64 " (memcpy of the same bytes: %.0f GB/s; CPU reference "
           "%.1f ms, one thread):\n", last.n, last.memcpy_gbps, last.cpu_ms);
    printf("  %-12s %10s %10s %12s %10s\n", "variant", "ms", "Gevents/s", "of memcpy", "x CPU");
    for (int k = 0; k < cfg->variant_count; ++k) {
        if (last.ms[k] <= 0)
            continue;
        const double gbps = BYTES_PER_EVENT * (double)last.n / last.ms[k] * 1e-6;
        printf("  %-12s %10.4f %10.3f %11.0f%% %10.0f\n", cfg->variants[k]->name, last.ms[k],
               (double)last.n / last.ms[k] * 1e-6, 100.0 * gbps / last.memcpy_gbps,
               last.cpu_ms / last.ms[k]);
    }
    tut_device_free(d_temp);
    tut_device_free(d_copy);
    tut_device_free(d_label);
    tut_device_free(d_events);
    free(got);
    free(want);
    free(ts);
    free(user);
    return ok;
}
