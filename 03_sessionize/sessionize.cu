/* Sessionize click streams on the GPU: the driver.
 *
 *   sessionize                      the document's 28 events through every variant, then a
 *                                   random 1,000,003 events; every result checked
 *   sessionize --n 10000019 --shuffle --variant chained
 *   sessionize --input events.csv --output sessions.csv
 *   sessionize --input events.csv --cpu-only        (no GPU needed)
 *   sessionize --bench --outdir results             throughput vs size, against memcpy and CPU
 *
 * Exit codes: 0 pass, 1 wrong result, 2 bad usage or input, 77 no suitable GPU. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_csv.h"
#include "sessionize_bench.h"
#include "sessionize_cpu.h"
#include "sessionize_gpu.h"
#include "tutorial.h"

static const session_variant *const all_variants[] = {&cooperative_variant, &cub_scan_variant,
                                                      &chained_scan_variant, &single_pass_variant};
#define VARIANT_CHOICES "all|cooperative|cub|chained|single_pass"

static unsigned long long opt_n = 1000003;
static long long opt_timeout = DOC_TIMEOUT;
static long long opt_seed = (long long)TUT_DEFAULT_SEED;
static int opt_variant = 0, opt_shape = 0, opt_shuffle = 0, opt_cpu_only = 0, opt_bench = 0;
static int opt_skip_document = 0;
#define DEFAULT_BENCH_MAX 100000000ull
static unsigned long long opt_bench_max = DEFAULT_BENCH_MAX;
static const char *opt_input = NULL, *opt_output = NULL, *opt_outdir = NULL;
/* 0 when the GPU cannot launch cooperative kernels: the cooperative variant is left out. */
static int cooperative_ok = 1;

/* Whether variant k (of all_variants) runs: chosen by --variant, and possible on this GPU. */
static int variant_runs(int k)
{
    if (opt_variant != 0 && opt_variant != k + 1)
        return 0;
    return all_variants[k] != &cooperative_variant || cooperative_ok;
}

static void print_labels(const char *what, const int64_t *label, size_t n)
{
    printf("%s [", what);
    for (size_t i = 0; i < n; ++i)
        printf("%s%" PRId64, i ? ", " : "", label[i]);
    printf("]\n");
}

/* Poisons the labels (0xFF bytes = -1, never a valid session id), runs the variant and checks
 * every label against the reference. */
static int run_and_check(const session_variant *v, session_job *job, const int64_t *want,
                         int64_t *got, const char *what)
{
    CUDA_CHECK(cudaMemset(job->label, 0xFF, (size_t)job->n * sizeof(int64_t)));
    v->run(job);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaMemcpy(got, job->label, (size_t)job->n * sizeof(int64_t),
                          cudaMemcpyDeviceToHost));
    char label[128];
    snprintf(label, sizeof label, "%s %s", v->name, what);
    return tut_check_i64(label, got, want, (size_t)job->n);
}

/* Labels host events with every selected variant and checks each against the CPU reference.
 * Unsorted input is detected on the GPU and sorted there; user/ts are then replaced by the
 * sorted events (the order labels and output follow). label_out (host, n) gets the labels. */
static int label_on_gpu(int64_t *user, int64_t *ts, size_t n, const char *what,
                        int64_t *label_out)
{
    const size_t bytes = tut_bytes(n, sizeof(int64_t), "events");
    int64_t *d_user = (int64_t *)tut_device_alloc(bytes, "user ids");
    int64_t *d_ts = (int64_t *)tut_device_alloc(bytes, "timestamps");
    int64_t *d_label = (int64_t *)tut_device_alloc(bytes, "session ids");
    CUDA_CHECK(cudaMemcpy(d_user, user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ts, ts, bytes, cudaMemcpyHostToDevice));
    int ok = 1;

    /* The reference sorts on the CPU (qsort with the input row as tie-break: stable). */
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "reference labels");
    const int64_t unsorted = first_unsorted_gpu(d_user, d_ts, (int64_t)n);
    if (unsorted < (int64_t)n) {
        printf("%s: not sorted by (user_id, timestamp): event %" PRId64 " sorts before event %" PRId64
               " (counting from 0). Sorting on the GPU (stable radix sort); session ids refer to"
               " the sorted order\n", what, unsorted, unsorted - 1);
        int64_t *d_order = (int64_t *)tut_device_alloc(bytes, "sort order");
        sort_events_gpu(d_user, d_ts, (int64_t)n, d_order);
        int64_t *order = (int64_t *)tut_host_alloc(bytes, "sort order");
        int64_t *want_order = (int64_t *)tut_host_alloc(bytes, "reference order");
        sort_events_cpu(user, ts, n, want_order);
        CUDA_CHECK(cudaMemcpy(order, d_order, bytes, cudaMemcpyDeviceToHost));
        ok &= tut_check_i64("GPU sort order", order, want_order, n);
        free(want_order);
        free(order);
        tut_device_free(d_order);
    }
    sessionize_cpu(user, ts, n, opt_timeout, want);

    session_job job = {d_user, d_ts, (int64_t)n, opt_timeout, d_label, NULL};
    for (int k = 0; k < TUT_COUNT(all_variants); ++k) {
        if (!variant_runs(k))
            continue;
        job.temp = tut_device_alloc(all_variants[k]->temp_bytes(job.n), "scan scratch");
        ok &= run_and_check(all_variants[k], &job, want, label_out, what);
        tut_device_free(job.temp);
    }
    free(want);
    tut_device_free(d_label);
    tut_device_free(d_ts);
    tut_device_free(d_user);
    return ok;
}

/* The document's example, in its own order (its user 4 goes back in time once, which its labels
 * treat as "no timeout"), then the same events sorted. */
static int document_demo(void)
{
    int64_t user[DOC_EVENT_COUNT], ts[DOC_EVENT_COUNT], got[DOC_EVENT_COUNT];
    const size_t n = DOC_EVENT_COUNT;
    const size_t bytes = sizeof user;
    memcpy(user, doc_user, bytes);
    memcpy(ts, doc_ts, bytes);
    printf("The document's %zu events, timeout %d, labelled in the document's order:\n", n,
           DOC_TIMEOUT);
    int64_t *d_user = (int64_t *)tut_device_alloc(bytes, "user ids");
    int64_t *d_ts = (int64_t *)tut_device_alloc(bytes, "timestamps");
    int64_t *d_label = (int64_t *)tut_device_alloc(bytes, "session ids");
    CUDA_CHECK(cudaMemcpy(d_user, user, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ts, ts, bytes, cudaMemcpyHostToDevice));
    session_job job = {d_user, d_ts, (int64_t)n, DOC_TIMEOUT, d_label, NULL};
    int ok = 1;
    for (int k = 0; k < TUT_COUNT(all_variants); ++k) {
        if (!variant_runs(k))
            continue;
        job.temp = tut_device_alloc(all_variants[k]->temp_bytes(job.n), "scan scratch");
        ok &= run_and_check(all_variants[k], &job, doc_expected_label, got, "document's events");
        tut_device_free(job.temp);
    }
    print_labels("labels", got, n);
    tut_device_free(d_label);
    tut_device_free(d_ts);
    tut_device_free(d_user);

    /* The input check would have caught the backwards step: show what sorting gives. */
    const int64_t saved_timeout = opt_timeout;
    opt_timeout = DOC_TIMEOUT;
    ok &= label_on_gpu(user, ts, n, "the document's events", got);
    print_labels("sorted timestamps", ts, n);
    print_labels("labels", got, n);
    opt_timeout = saved_timeout;
    return ok;
}

/* What the hand-written kernels launch on this GPU (or on the one TUT_EMULATE_GPU names). */
static void print_launch_plans(int with_cooperative)
{
    const tut_device_info *dev = tut_current_device();
    const char *gpu = dev->emulated[0] ? dev->emulated : "this GPU";
    if (with_cooperative) {
        const session_launch c = cooperative_plan();
        printf("cooperative grid: %" PRId64 " blocks of %d threads = %d per SM (limited by %s) x "
               "%d SMs of %s: %" PRId64 " co-resident threads (grid-stride beyond that)\n",
               c.blocks, c.threads, c.blocks_per_sm, c.limiter, dev->sm_count, gpu,
               c.blocks * c.threads);
    }
    const session_launch s = chained_plan(CHAINED_TILE);
    printf("chained scan: one block of %d threads per tile of %d events; %d blocks per SM of %s "
           "(limited by %s)\n",
           s.threads, CHAINED_TILE, s.blocks_per_sm, gpu, s.limiter);
    const session_launch p = single_pass_plan(SINGLE_PASS_TILE);
    printf("single-pass scan: one block of %d threads per tile of %d events; %d blocks per SM of "
           "%s (limited by %s)\n",
           p.threads, SINGLE_PASS_TILE, p.blocks_per_sm, gpu, p.limiter);
}

/* --cpu-only: the reference alone, for CSV files on machines without a GPU. */
static int cpu_only(int64_t *user, int64_t *ts, size_t n)
{
    const size_t unsorted = first_unsorted_cpu(user, ts, n);
    if (unsorted < n) {
        printf("input not sorted by (user_id, timestamp): event %zu sorts before event %zu (counting"
               " from 0). Sorting on the CPU (stable); session ids refer to the sorted order\n",
               unsorted, unsorted - 1);
        sort_events_cpu(user, ts, n, NULL);
    }
    int64_t *label = (int64_t *)tut_host_alloc(tut_bytes(n, sizeof *label, "labels"), "labels");
    sessionize_cpu(user, ts, n, opt_timeout, label);
    size_t sessions = 0;
    for (size_t i = 0; i < n; ++i)
        sessions += label[i] == (int64_t)i;
    printf("%zu events, %zu sessions (CPU reference)\n", n, sessions);
    if (n <= 64)
        print_labels("labels", label, n);
    int rc = 0;
    char err[512];
    if (opt_output && write_sessions_csv(opt_output, user, ts, label, n, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        rc = 2;
    } else if (opt_output) {
        printf("wrote %s\n", opt_output);
    }
    free(label);
    return rc;
}

int main(int argc, char **argv)
{
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &opt_n, "random events to label (default 1000003)", 1, 4e9, NULL},
        {"--timeout", TUT_OPT_INT, &opt_timeout, "session timeout, same unit as the timestamps "
         "(default 3600)", 0, 1e12, NULL},
        {"--seed", TUT_OPT_INT, &opt_seed, "seed of the random events", 0, 9.2e18, NULL},
        {"--variant", TUT_OPT_CHOICE, &opt_variant, "which GPU variant(s)", 0, 0, VARIANT_CHOICES},
        {"--shape", TUT_OPT_CHOICE, &opt_shape, "random events: many users, or one long session",
         0, 0, "mixed|single"},
        {"--shuffle", TUT_OPT_FLAG, &opt_shuffle, "shuffle the random events (must be sorted)", 0,
         0, NULL},
        {"--skip-document", TUT_OPT_FLAG, &opt_skip_document, "skip the document's example", 0, 0, NULL},
        {"--input", TUT_OPT_STRING, &opt_input, "CSV file with header user_id,timestamp", 0, 0,
         NULL},
        {"--output", TUT_OPT_STRING, &opt_output, "write user_id,timestamp,session_id here", 0, 0,
         NULL},
        {"--cpu-only", TUT_OPT_FLAG, &opt_cpu_only, "label --input with the CPU reference only",
         0, 0, NULL},
        {"--bench", TUT_OPT_FLAG, &opt_bench, "throughput vs size for every variant", 0, 0, NULL},
        {"--bench-max", TUT_OPT_SIZE, &opt_bench_max, "largest benchmark size (default 1e8)",
         1e4, 4e9, NULL},
        {"--outdir", TUT_OPT_STRING, &opt_outdir, "write the benchmark CSVs here", 0, 0, NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "sessionize: split click streams into sessions (new user, or a gap over "
                      "the timeout)",
                      opts, TUT_COUNT(opts));
    if (opt_output && !opt_input) {
        fprintf(stderr, "--output needs --input (the file to label)\n");
        return 2;
    }
    if (opt_cpu_only && !opt_input) {
        fprintf(stderr, "--cpu-only needs --input\n");
        return 2;
    }

    /* The input is validated before any GPU is looked for: bad files exit 2 everywhere. */
    event_table table = {NULL, NULL, 0};
    if (opt_input) {
        char err[512];
        if (read_events_csv(opt_input, &table, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        printf("read %zu events from %s\n", table.n, opt_input);
        if (opt_cpu_only) {
            const int rc = cpu_only(table.user, table.ts, table.n);
            free_event_table(&table);
            return rc;
        }
    }

    /* Only --variant cooperative needs a cooperative launch; the others run without it. */
    tut_select_device(opt_variant == 1 ? TUT_NEED_COOPERATIVE_LAUNCH : TUT_NEED_NOTHING);
    cooperative_ok = tut_current_device()->cooperative_launch;
    if (opt_variant == 0 && !cooperative_ok)
        printf("this GPU cannot launch cooperative kernels (grid sync): the cooperative variant "
               "is left out, the scans run\n");
    print_launch_plans(variant_runs(0));

    int ok = 1;
    if (!opt_skip_document && !opt_input)
        ok &= document_demo();

    if (opt_bench) {
        /* The variants --variant selects that this GPU can run. */
        const session_variant *chosen[TUT_COUNT(all_variants)];
        int chosen_count = 0;
        for (int k = 0; k < TUT_COUNT(all_variants); ++k)
            if (variant_runs(k))
                chosen[chosen_count++] = all_variants[k];
        bench_config cfg = {chosen, chosen_count, opt_timeout, (uint64_t)opt_seed,
                            (int64_t)opt_bench_max, opt_bench_max == DEFAULT_BENCH_MAX,
                            opt_outdir};
        ok &= run_benchmark(&cfg);
    } else if (opt_input) {
        int64_t *label = (int64_t *)tut_host_alloc(tut_bytes(table.n, 8, "labels"), "labels");
        ok &= label_on_gpu(table.user, table.ts, table.n, opt_input, label);
        size_t sessions = 0;
        for (size_t i = 0; i < table.n; ++i)
            sessions += label[i] == (int64_t)i;
        printf("%zu events, %zu sessions\n", table.n, sessions);
        char err[512];
        if (ok && opt_output &&
            write_sessions_csv(opt_output, table.user, table.ts, label, table.n, err,
                               sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            free(label);
            free_event_table(&table);
            return 2;
        }
        if (ok && opt_output)
            printf("wrote %s\n", opt_output);
        free(label);
        free_event_table(&table);
    } else {
        const size_t n = (size_t)opt_n;
        const size_t bytes = tut_bytes(n, sizeof(int64_t), "events");
        if (!tut_device_fits(tut_bytes(bytes, 7, "GPU working set"), (size_t)256 << 20)) {
            fprintf(stderr, "%zu events do not fit in GPU memory; try a smaller --n\n", n);
            return 2;
        }
        int64_t *user = (int64_t *)tut_host_alloc(bytes, "user ids");
        int64_t *ts = (int64_t *)tut_host_alloc(bytes, "timestamps");
        int64_t *label = (int64_t *)tut_host_alloc(bytes, "labels");
        generate_events((uint64_t)opt_seed, opt_shape, opt_timeout, n, user, ts);
        if (opt_shuffle)
            shuffle_events((uint64_t)opt_seed, user, ts, n);
        char what[160];
        snprintf(what, sizeof what, "%zu %s events%s (seed %lld, timeout %lld)", n,
                 opt_shape ? "single-session" : "random", opt_shuffle ? ", shuffled" : "",
                 opt_seed, opt_timeout);
        printf("%s\n", what);
        ok &= label_on_gpu(user, ts, n, what, label);
        free(label);
        free(ts);
        free(user);
    }
    return tut_finish(ok);
}
