/* Bytes first. Labelling n events reads user_id and timestamp (16 B) and writes session_id (8 B):
 * 24 B per event, 2.4 GB for 10^8 events. The neighbour i-1 that the boundary test also reads
 * is the previous element of the same arrays, so it comes from cache, not from DRAM. The ceiling
 * is a device-to-device copy of 12 B per event (12 read + 12 written: the same 24 B), timed in
 * the same run. Arithmetic is a few integer operations per event: the kernels are memory-bound
 * and "fraction of memcpy" is the figure of merit.
 *
 * One set of 10^8 random events is made once; each size uses its prefix (a prefix of sorted
 * events is sorted, and its labels are the prefix of the full labels).
 *
 * Every GPU figure (variants and memcpy alike) is timed the same way: batches of back-to-back
 * calls between one pair of events, after warm-up (tut_time_gpu_batched), so the launch latency
 * is not inside each call's time; the median over the batches is reported with the min and max. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "ceilings.h"
#include "sessionize_bench.h"
#include "sessionize_config.h"
#include "sessionize_cpu.h"
#include "tutorial.h"

#define BYTES_PER_EVENT 24.0
#define WARMUP 2
#define BATCHES 7 /* of about 2 ms or more each (tut_time_gpu_batched picks the calls) */

/* tut_time_gpu takes one argument: the variant being timed is kept here. */
static const session_variant *bench_current_variant = NULL;

static void variant_work(void *arg)
{
    bench_current_variant->run((const session_job *)arg);
}

typedef struct {
    const int64_t *user, *ts;
    size_t n;
    int64_t timeout;
    int64_t *label;
} cpu_job;

/* The CPU reference, run `runs` times: median, min and max of the wall times. */
static tut_timing time_cpu(const cpu_job *c, int runs)
{
    double ms[BATCHES];
    runs = runs < 1 ? 1 : runs > BATCHES ? BATCHES : runs;
    for (int r = 0; r < runs; ++r) {
        const double t0 = tut_cpu_seconds();
        sessionize_cpu(c->user, c->ts, c->n, c->timeout, c->label);
        ms[r] = 1e3 * (tut_cpu_seconds() - t0);
    }
    tut_timing t;
    t.reps = runs;
    t.median_ms = tut_median(ms, runs); /* sorts ms */
    t.min_ms = ms[0];
    t.max_ms = ms[runs - 1];
    return t;
}

/* Checks the variant on the first n events (poisoned labels first), then times it. */
static int check_and_time(const session_variant *v, session_job *job, const int64_t *want,
                          int64_t *got, tut_timing *t)
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
    *t = tut_time_gpu_batched(variant_work, job, WARMUP, BATCHES, 0);
    return 1;
}

typedef struct {
    int64_t n;
    double cpu_ms, memcpy_gbps, memcpy_ms, ms[8];
} summary_row;

/* The roofline at the largest size (ceilings.h): every variant against the DRAM copy ceiling,
 * all counted as the 24 bytes per event the problem must move and one "event" operation each;
 * the same-size memcpy is a point too. Prints the prediction beside each measurement. */
static void write_roofline(const bench_config *cfg, const summary_row *last,
                           const tut_ceiling *dram)
{
    tut_csv *csv = tut_roofline_csv_open(cfg->outdir, "roofline.csv");
    tut_csv_comment(csv, "n = %" PRId64 " events; bytes: the 24 per event the problem must move "
                         "(read user_id and timestamp, write session_id); ops: events; "
                         "measured_ms: median of the throughput run", last->n);
    printf("\nRoofline at n = %" PRId64 " (bytes / the DRAM copy ceiling, %s):\n", last->n,
           dram->method);
    const double bytes = BYTES_PER_EVENT * (double)last->n;
    tut_roofline_point copy = {.kernel = "memcpy", .bytes = bytes, .ops = (double)last->n,
                               .op_unit = "event", .seconds = last->memcpy_ms * 1e-3,
                               .memory = dram, .compute = NULL};
    tut_roofline_csv_row(csv, &copy);
    printf("  %-12s ", "memcpy");
    tut_roofline_print(&copy);
    for (int k = 0; k < cfg->variant_count; ++k) {
        if (last->ms[k] <= 0)
            continue;
        tut_roofline_point p = {.kernel = cfg->variants[k]->name, .bytes = bytes,
                                .ops = (double)last->n, .op_unit = "event",
                                .seconds = last->ms[k] * 1e-3, .memory = dram, .compute = NULL};
        tut_roofline_csv_row(csv, &p);
        printf("  %-12s ", cfg->variants[k]->name);
        tut_roofline_print(&p);
    }
    tut_csv_close(csv);
}

/* One CSV row: the timing with its spread, and the rates from the median. */
static void throughput_row(tut_csv *csv, int64_t n, const char *variant, tut_timing t,
                           double memcpy_gbps, double cpu_ms)
{
    const double gbps = BYTES_PER_EVENT * (double)n / t.median_ms * 1e-6;
    char ratio[32] = "", speedup[32] = "";
    if (memcpy_gbps > 0)
        snprintf(ratio, sizeof ratio, "%.4f", gbps / memcpy_gbps);
    if (cpu_ms > 0)
        snprintf(speedup, sizeof speedup, "%.2f", cpu_ms / t.median_ms);
    tut_csv_row(csv, "%" PRId64 ",%s,%.5f,%.5f,%.5f,%.4f,%.2f,%s,%s", n, variant, t.median_ms,
                t.min_ms, t.max_ms, (double)n / t.median_ms * 1e-6, gbps, ratio, speedup);
}

static void print_row(int64_t n, const char *variant, tut_timing t, double memcpy_gbps,
                      double cpu_ms)
{
    const double gbps = BYTES_PER_EVENT * (double)n / t.median_ms * 1e-6;
    printf("%12" PRId64 " %-12s %10.4f %10.4f %10.4f %10.3f %9.1f", n, variant, t.median_ms,
           t.min_ms, t.max_ms, (double)n / t.median_ms * 1e-6, gbps);
    if (memcpy_gbps > 0)
        printf(" %8.2f", gbps / memcpy_gbps);
    else
        printf(" %8s", "");
    if (cpu_ms > 0)
        printf(" %9.1f", cpu_ms / t.median_ms);
    printf("\n");
}

static int single_session_case(const bench_config *cfg, tut_csv *csv, int64_t *d_user,
                               int64_t *d_ts, int64_t *d_label, void *d_temp)
{
    /* The per-session walk's worst case: one long session. The scans do not care. */
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
    printf("\nOne long session: %" PRId64 " events, the first %d of them one-event sessions (the "
           "serial walk's worst case):\n", n, SINGLE_LEAD);
    for (int k = 0; k < cfg->variant_count; ++k) {
        session_job job = {d_user, d_ts, n, cfg->timeout, d_label, d_temp};
        tut_timing t;
        if (!check_and_time(cfg->variants[k], &job, want, got, &t)) {
            ok = 0;
            continue;
        }
        printf("  %-12s %10.3f ms (min %.3f, max %.3f)  %8.3f Gevents/s  %8.2f ns per event\n",
               cfg->variants[k]->name, t.median_ms, t.min_ms, t.max_ms,
               (double)n / t.median_ms * 1e-6, t.median_ms * 1e6 / (double)n);
        tut_csv_row(csv, "%" PRId64 ",%s,%.5f,%.5f,%.5f,%.4f,%.3f", n, cfg->variants[k]->name,
                    t.median_ms, t.min_ms, t.max_ms, (double)n / t.median_ms * 1e-6,
                    t.median_ms * 1e6 / (double)n);
    }
    free(got);
    free(want);
    free(ts);
    free(user);
    return ok;
}

int run_benchmark(const bench_config *cfg)
{
    int64_t max_n = cfg->max_n;
    /* events (2 arrays) + labels + copy destination (1.5 arrays) + scratch */
    if (!tut_device_fits(sessionize_bench_bytes(max_n), SESSIONIZE_BENCH_SPARE)) {
        const int64_t fits = sessionize_bench_max_that_fits(max_n, tut_device_free_bytes());
        if (!cfg->max_n_is_default || fits == 0) {
            fprintf(stderr, "--bench-max %" PRId64 " does not fit in GPU memory\n", max_n);
            exit(2);
        }
        printf("the default --bench-max %" PRId64 " does not fit in this GPU's free memory: "
               "measuring up to %" PRId64 " events\n", max_n, fits);
        max_n = fits;
    }
    const size_t bytes = tut_bytes((size_t)max_n, sizeof(int64_t), "events");
    /* The chapter's roof, measured first (ceilings.h): the best of a copy kernel and memcpy. */
    const tut_ceiling dram = tut_measure_ceiling(TUT_CEILING_DRAM_COPY);
    const tut_ceiling *measured[] = {&dram};
    tut_ceilings_report(measured, 1, cfg->outdir, "ceilings.csv");
    printf("\nBenchmark: random events (seed %" PRIu64 ", timeout %" PRId64 "), up to %" PRId64
           "; %.0f bytes moved per event\n", cfg->seed, cfg->timeout, max_n, BYTES_PER_EVENT);
    int64_t *user = (int64_t *)tut_host_alloc(bytes, "user ids");
    int64_t *ts = (int64_t *)tut_host_alloc(bytes, "timestamps");
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "reference labels");
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "labels");
    generate_events(cfg->seed, EVENTS_MIXED, cfg->timeout, (size_t)max_n, user, ts);
    sessionize_cpu(user, ts, (size_t)max_n, cfg->timeout, want);

    /* One allocation holds both inputs, so the memcpy ceiling reads from the same memory. The
     * timestamps start at an even element: 16-byte aligned, as 4_single_pass.cu's loads need. */
    const int64_t ts_offset = max_n + (max_n & 1);
    int64_t *d_events = (int64_t *)tut_device_alloc(
        tut_bytes(2 * (size_t)ts_offset, sizeof(int64_t), "events"), "events");
    int64_t *d_user = d_events, *d_ts = d_events + ts_offset;
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
                                "n,variant,ms,min_ms,max_ms,gevents_per_s,gbps,fraction_of_memcpy,"
                                "speedup_vs_cpu");
    tut_csv_comment(csv, "24 bytes moved per event; ms per call: median (min_ms, max_ms) of %d "
                         "batches of back-to-back calls of 2 ms or more, after warm-up; cpu: "
                         "single runs (3 from 3*10^7 events); rates and ratios from the medians",
                    BATCHES);
    int64_t sizes[40];
    const int size_count = sessionize_bench_sizes(max_n, sizes);
    summary_row last = {0, 0, 0, 0, {0}};
    int ok = 1;
    printf("%12s %-12s %10s %10s %10s %10s %9s %8s %9s\n", "n", "variant", "ms", "min", "max",
           "Gevents/s", "GB/s", "memcpy", "x CPU");
    for (int s = 0; s < size_count; ++s) {
        const int64_t n = sizes[s];
        summary_row row = {n, 0, 0, 0, {0}};
        cpu_job cpu = {user, ts, (size_t)n, cfg->timeout, got};
        const tut_timing cpu_t = time_cpu(&cpu, n >= 30000000 ? 3 : BATCHES);
        row.cpu_ms = cpu_t.median_ms;
        tut_copy_job copy = {d_copy, d_events, (size_t)n * 12};
        const tut_timing copy_t = tut_time_gpu_batched(tut_copy_work, &copy, WARMUP, BATCHES, 0);
        row.memcpy_gbps = BYTES_PER_EVENT * (double)n / copy_t.median_ms * 1e-6;
        row.memcpy_ms = copy_t.median_ms;
        print_row(n, "memcpy", copy_t, row.memcpy_gbps, 0);
        print_row(n, "cpu", cpu_t, row.memcpy_gbps, row.cpu_ms);
        throughput_row(csv, n, "memcpy", copy_t, row.memcpy_gbps, 0);
        throughput_row(csv, n, "cpu", cpu_t, row.memcpy_gbps, row.cpu_ms);
        for (int k = 0; k < cfg->variant_count; ++k) {
            session_job job = {d_user, d_ts, n, cfg->timeout, d_label, d_temp};
            tut_timing t;
            if (!check_and_time(cfg->variants[k], &job, want, got, &t)) {
                ok = 0;
                continue;
            }
            row.ms[k] = t.median_ms;
            print_row(n, cfg->variants[k]->name, t, row.memcpy_gbps, row.cpu_ms);
            throughput_row(csv, n, cfg->variants[k]->name, t, row.memcpy_gbps, row.cpu_ms);
        }
        last = row;
    }
    tut_csv_close(csv);

    tut_csv *worst = tut_csv_open(cfg->outdir, "single_session.csv",
                                  "n,variant,ms,min_ms,max_ms,gevents_per_s,ns_per_event");
    tut_csv_comment(worst, "ms per call: median (min_ms, max_ms) of %d batches of back-to-back "
                           "calls, after warm-up", BATCHES);
    ok &= single_session_case(cfg, worst, d_user, d_ts, d_label, d_temp);
    tut_csv_close(worst);

    printf("\nSummary at n = %" PRId64 " (memcpy of the same bytes: %.0f GB/s; CPU reference "
           "%.1f ms, one thread):\n", last.n, last.memcpy_gbps, last.cpu_ms);
    /* Predict, then measure: at the copy's rate, the bytes alone take as long as the copy. */
    printf("  model: %.0f B x %" PRId64 " events / %.0f GB/s (the copy, this run) = %.4f ms\n",
           BYTES_PER_EVENT, last.n, last.memcpy_gbps,
           BYTES_PER_EVENT * (double)last.n / last.memcpy_gbps * 1e-6);
    printf("  %-12s %10s %10s %12s %10s\n", "variant", "ms", "Gevents/s", "of memcpy", "x CPU");
    for (int k = 0; k < cfg->variant_count; ++k) {
        if (last.ms[k] <= 0)
            continue;
        const double gbps = BYTES_PER_EVENT * (double)last.n / last.ms[k] * 1e-6;
        printf("  %-12s %10.4f %10.3f %11.0f%% %10.0f\n", cfg->variants[k]->name, last.ms[k],
               (double)last.n / last.ms[k] * 1e-6, 100.0 * gbps / last.memcpy_gbps,
               last.cpu_ms / last.ms[k]);
    }
    write_roofline(cfg, &last, &dram);
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
