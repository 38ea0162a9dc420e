/* atomics_histogram: the document's text histogram, from a CPU loop to CUB's speed and past it.
 *
 *   atomics_histogram                  the document's string, then English-like text of the
 *                                      document's size (5,638,519 bytes): every variant checked
 *                                      against the CPU, then timed beside CUB
 *   atomics_histogram --file book.txt  the same on any file
 *   atomics_histogram --bench          1 GiB of text, the block-count sweep, the fast kernels'
 *                                      tuning, a read-bandwidth ceiling; --outdir DIR for CSVs
 *   atomics_histogram --n 5G --if-fits beyond 2^32 bytes; skips (77) where the GPU is too small
 *
 * Every grid and block size comes from the GPU's limits (atomics_config.h), printed first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "histogram.h"
#include "text.h"
#include "tutorial.h"

/* ---- the roofline: every GPU variant against the DRAM read ceiling (common/ceilings.h),
 * measured in this run: a histogram reads each byte once and counts it (one "op"). The two
 * kernels that do one atomicAdd per byte also get the atomic ceiling of their memory as the
 * compute roof (global: every thread on one counter, the best case of a contended counter;
 * shared: conflict-free shared atomics), so the prediction says which of the two bounds them;
 * nothing but the bytes bounds the privatised kernels. Writes roofline_histogram.csv and
 * ceilings_histogram.csv. */
static void histogram_roofline(const char *outdir, size_t n, const char *const *names,
                               const tut_timing *t, int count)
{
    const tut_ceiling read = tut_measure_ceiling(TUT_CEILING_DRAM_READ);
    const tut_ceiling shared_atomic = tut_measure_ceiling(TUT_CEILING_SHARED_ATOMIC);
    const tut_ceiling global_atomic = tut_measure_ceiling(TUT_CEILING_GLOBAL_ATOMIC_SAME);
    printf("\nceilings, measured now:\n");
    const tut_ceiling *measured[] = {&read, &shared_atomic, &global_atomic};
    tut_ceilings_report(measured, TUT_COUNT(measured), outdir, "ceilings_histogram.csv");
    printf("the model: %.0f MB to read at %.0f GB/s: no histogram takes less than %.4f ms\n",
           (double)n * 1e-6, read.value, (double)n / tut_ceiling_per_second(&read) * 1e3);
    tut_csv *csv = tut_roofline_csv_open(outdir, "roofline_histogram.csv");
    tut_csv_comment(csv, "%zu bytes of text: 1 byte read and 1 count per byte", n);
    for (int i = 0; i < count; ++i) {
        if (strcmp(names[i], "cpu") == 0)
            continue;
        const tut_ceiling *atomics = strcmp(names[i], "global") == 0   ? &global_atomic
                                     : strcmp(names[i], "shared") == 0 ? &shared_atomic
                                                                       : NULL;
        const tut_roofline_point p = {.kernel = names[i], .bytes = (double)n, .ops = (double)n,
                                      .op_unit = "count", .seconds = t[i].median_ms * 1e-3,
                                      .memory = &read, .compute = atomics};
        tut_roofline_csv_row(csv, &p);
        tut_roofline_print(&p);
    }
    tut_csv_close(csv);
}

/* ---- the variants, each with the same job and the same timing */
typedef struct {
    const char *name;
    void (*run)(const histogram_job *job);
} hist_variant;

static const hist_variant variants[] = {
    {"global", histogram_global},
    {"shared", histogram_shared},
    {"warp_private", histogram_warp_private},
    {"thread_private", histogram_thread_private},
    {"thread_private_atomic", histogram_thread_private_atomic},
    {"byte_pairs", histogram_byte_pairs},
};
#define NVARIANTS TUT_COUNT(variants)

/* ---- a ceiling: the fastest this GPU reads the same bytes, doing nothing with them */
__global__ void read_ceiling_kernel(const uint4 *vec, size_t nvec, unsigned int *sink)
{
    unsigned int x = 0;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < nvec; i += 4 * stride) {
        uint4 a = __ldg(vec + i), b = __ldg(vec + i + stride);
        uint4 c = __ldg(vec + i + 2 * stride), d = __ldg(vec + i + 3 * stride);
        x ^= a.x ^ a.y ^ a.z ^ a.w ^ b.x ^ b.y ^ b.z ^ b.w ^ c.x ^ c.y ^ c.z ^ c.w ^ d.x ^ d.y ^
             d.z ^ d.w;
    }
    for (; i < nvec; i += stride) {
        uint4 a = __ldg(vec + i);
        x ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (x == 0x9E3779B9u) /* almost never true, but the compiler cannot drop the loads */
        *sink = x;
}

/* ---- timing: every kernel, CUB and the ceiling the same way (tut_time_gpu_batched)
 *
 * One timing covers `batch` calls back to back (sized so that it lasts about 5 ms), so that the
 * launch gaps and the events' own overhead vanish in the average even for a 10-microsecond
 * kernel; after a warm-up call, `reps` timings give the median, the fastest and the slowest,
 * each per call. */
typedef enum { RUN_VARIANT, RUN_CUB, RUN_READ_CEILING } run_kind;

typedef struct {
    run_kind kind;
    const hist_variant *variant; /* RUN_VARIANT */
    histogram_job job;           /* RUN_VARIANT; text and n for RUN_READ_CEILING too */
    const histogram_cub_plan *cub;
    unsigned int *sink;          /* RUN_READ_CEILING */
    int ceiling_blocks;
    int batch;
} timed_run;

static void run_once(void *arg)
{
    const timed_run *r = (const timed_run *)arg;
    switch (r->kind) {
    case RUN_VARIANT:
        r->variant->run(&r->job);
        break;
    case RUN_CUB:
        histogram_cub_run(r->cub);
        break;
    case RUN_READ_CEILING:
        read_ceiling_kernel<<<r->ceiling_blocks, READ_CEILING_THREADS>>>(
            (const uint4 *)r->job.text, r->job.n / 16, r->sink);
        LAUNCH_CHECK();
        break;
    }
}

/* Milliseconds of one call (median, min, max over the timings); r->batch is left as used. */
static tut_timing time_histogram(timed_run *r, int reps)
{
    const tut_timing first = tut_time_gpu(run_once, r, 1, 1);
    const int batch = (int)(5.0 / (first.median_ms > 1e-3 ? first.median_ms : 1e-3));
    r->batch = batch < 1 ? 1 : (batch > 1000 ? 1000 : batch);
    return tut_time_gpu_batched(run_once, r, 1, r->batch > 1 ? reps : (reps + 1) / 2,
                                r->batch);
}

static timed_run variant_run(int v, const unsigned char *d_text, size_t n,
                             unsigned long long *d_bins, int blocks, int threads, int copies)
{
    timed_run r;
    memset(&r, 0, sizeof r);
    r.kind = RUN_VARIANT;
    r.variant = &variants[v];
    const histogram_job job = {d_text, n, d_bins, blocks, threads, copies};
    r.job = job;
    return r;
}

static int variant_index(const char *name)
{
    for (int v = 0; v < NVARIANTS; ++v)
        if (strcmp(variants[v].name, name) == 0)
            return v;
    fprintf(stderr, "internal error: no histogram variant named %s\n", name);
    exit(1);
}

/* ---- checking: every variant, poisoned bins, against the CPU's exact counts */
static int compare_bins(const char *label, const unsigned long long *got, size_t n,
                        const text_histogram *want)
{
    unsigned long long sum = 0;
    for (int b = 0; b < TEXT_BINS; ++b)
        sum += got[b];
    int ok = tut_check_i64(label, (const int64_t *)got, (const int64_t *)want->bins, TEXT_BINS);
    if (sum > n || n - sum != want->non_ascii) {
        printf("  %s: the bins add up to %llu of %zu bytes; %llu bytes are non-ASCII\n", label,
               sum, n, want->non_ascii);
        ok = 0;
    }
    return ok;
}

static int check_variants(const unsigned char *d_text, size_t n, const text_histogram *want,
                          unsigned long long *d_bins, int blocks, int threads)
{
    int ok = 1;
    unsigned long long got[TEXT_BINS];
    char label[128];
    for (int v = 0; v < NVARIANTS; ++v) {
        histogram_job job = {d_text, n, d_bins, blocks, threads, 0};
        /* Poison: every bin a launcher forgets to zero or to write stays 0xFF..FF and fails. */
        CUDA_CHECK(cudaMemset(d_bins, 0xFF, TEXT_BINS * sizeof(unsigned long long)));
        variants[v].run(&job);
        CUDA_CHECK(cudaMemcpy(got, d_bins, sizeof got, cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "  %-22s n=%zu", variants[v].name, n);
        ok &= compare_bins(label, got, n, want);
    }
    if (n > 0) {
        histogram_cub_plan plan;
        histogram_cub_create(&plan, d_text, n);
        CUDA_CHECK(cudaMemset(plan.counts, 0xFF, plan.chunks * TEXT_BINS * sizeof(int)));
        histogram_cub_run(&plan);
        histogram_cub_read(&plan, got);
        snprintf(label, sizeof label, "  %-22s n=%zu", "cub", n);
        if (plan.chunks > 1)
            printf("  cub: %zu calls of at most %zu bytes (its sample count is an int), added "
                   "up on the host\n", plan.chunks, plan.chunk_bytes);
        ok &= compare_bins(label, got, n, want);
        histogram_cub_destroy(&plan);
    }
    return ok;
}

/* ---- the benchmark pieces */
static void write_letters(const char *outdir, const text_histogram *h, const char *source)
{
    tut_csv *csv = tut_csv_open(outdir, "histogram_letters.csv", "letter,lowercase,uppercase");
    tut_csv_comment(csv, "letter counts of %s", source);
    for (int k = 0; k < 26; ++k)
        tut_csv_row(csv, "%c,%llu,%llu", 'a' + k, h->bins['a' + k], h->bins['A' + k]);
    tut_csv_close(csv);
}

/* Times every variant and CUB on the text; prints and writes speedups against the best. */
static void time_variants(const unsigned char *d_text, size_t n, unsigned long long *d_bins,
                          double cpu_ms, int reps, const char *outdir, const char *csv_name,
                          int roofline)
{
    const int nrows = NVARIANTS + 2;
    const char *names[NVARIANTS + 2];
    tut_timing t[NVARIANTS + 2];
    int batch[NVARIANTS + 2];
    names[0] = "cpu"; /* one run of the CPU loop: no spread */
    t[0].median_ms = t[0].min_ms = t[0].max_ms = cpu_ms;
    batch[0] = 1;
    for (int v = 0; v < NVARIANTS; ++v) {
        timed_run r = variant_run(v, d_text, n, d_bins, 0, 0, 0);
        names[v + 1] = variants[v].name;
        t[v + 1] = time_histogram(&r, v == 0 && n > (1u << 28) ? 3 : reps);
        batch[v + 1] = r.batch;
    }
    histogram_cub_plan plan;
    histogram_cub_create(&plan, d_text, n);
    timed_run r;
    memset(&r, 0, sizeof r);
    r.kind = RUN_CUB;
    r.cub = &plan;
    names[nrows - 1] = "cub";
    t[nrows - 1] = time_histogram(&r, reps);
    batch[nrows - 1] = r.batch;
    histogram_cub_destroy(&plan);

    double best = t[1].median_ms;
    for (int i = 1; i < nrows; ++i)
        best = t[i].median_ms < best ? t[i].median_ms : best;
    tut_csv *csv = tut_csv_open(outdir, csv_name, "variant,ms,gbps,times_slower_than_best,"
                                                  "fraction_of_cub,ms_min,ms_max,batch");
    tut_csv_comment(csv, "%zu bytes of text", n);
    tut_csv_comment(csv, "ms: median of %d timings of `batch` calls back to back, per call; "
                         "ms_min, ms_max: the fastest and slowest timing (cpu: one run)", reps);
    if (plan.chunks > 1)
        tut_csv_comment(csv, "cub: %zu calls of at most %zu bytes each (an int sample count)",
                        plan.chunks, plan.chunk_bytes);
    printf("\n%-22s %10s %10s %10s %10s %12s %9s   (%zu bytes; ms per call: median, min, max)\n",
           "variant", "ms", "min", "max", "GB/s", "x slower/best", "% of CUB", n);
    for (int i = 0; i < nrows; ++i) {
        const double gbps = n / (t[i].median_ms * 1e6);
        const double of_cub = t[nrows - 1].median_ms / t[i].median_ms;
        printf("%-22s %10.4f %10.4f %10.4f %10.1f %12.1f %8.1f%%\n", names[i], t[i].median_ms,
               t[i].min_ms, t[i].max_ms, gbps, t[i].median_ms / best, 100.0 * of_cub);
        tut_csv_row(csv, "%s,%.6f,%.2f,%.3f,%.4f,%.6f,%.6f,%d", names[i], t[i].median_ms, gbps,
                    t[i].median_ms / best, of_cub, t[i].min_ms, t[i].max_ms, batch[i]);
    }
    tut_csv_close(csv);
    if (roofline)
        histogram_roofline(outdir, n, names, t, nrows);
}

/* The document's sweep: grids of k x SMs blocks, the global and the shared kernel. */
static void sweep_blocks(const unsigned char *d_text, size_t n, unsigned long long *d_bins,
                         int reps, const char *outdir)
{
    static const int multiples[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    const tut_device_info *dev = tut_current_device();
    const int sms = dev->sm_count;
    char why[192];
    const int wave = atomics_wave_blocks(dev, histogram_shared_cost(), SIMPLE_THREADS, 0, why,
                                         sizeof why);
    tut_csv *csv = tut_csv_open(outdir, "histogram_sweep.csv",
                                "sm_multiple,blocks,global_ms,shared_ms,global_ms_min,"
                                "global_ms_max,shared_ms_min,shared_ms_max");
    tut_csv_comment(csv, "%zu bytes of text, %d threads per block; one wave is %d x SMs", n,
                    SIMPLE_THREADS, wave / sms);
    printf("\nblock sweep, %zu bytes: blocks = k x %d SMs (one wave of the shared kernel: k = "
           "%d)\n%6s %8s %12s %12s\n", n, sms, wave / sms, "k", "blocks", "global ms",
           "shared ms");
    int best_g = 0, best_s = 0;
    double ms_g[TUT_COUNT(multiples)], ms_s[TUT_COUNT(multiples)];
    for (int i = 0; i < TUT_COUNT(multiples); ++i) {
        const int blocks = multiples[i] * sms;
        timed_run g = variant_run(variant_index("global"), d_text, n, d_bins, blocks,
                                  SIMPLE_THREADS, 0);
        timed_run s = variant_run(variant_index("shared"), d_text, n, d_bins, blocks,
                                  SIMPLE_THREADS, 0);
        const tut_timing tg = time_histogram(&g, reps), ts = time_histogram(&s, reps);
        ms_g[i] = tg.median_ms;
        ms_s[i] = ts.median_ms;
        best_g = ms_g[i] < ms_g[best_g] ? i : best_g;
        best_s = ms_s[i] < ms_s[best_s] ? i : best_s;
        printf("%6d %8d %12.4f %12.4f\n", multiples[i], blocks, ms_g[i], ms_s[i]);
        tut_csv_row(csv, "%d,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f", multiples[i], blocks, ms_g[i],
                    ms_s[i], tg.min_ms, tg.max_ms, ts.min_ms, ts.max_ms);
    }
    printf("best: global at %d x SMs (%.4f ms), shared at %d x SMs (%.4f ms)\n",
           multiples[best_g], ms_g[best_g], multiples[best_s], ms_s[best_s]);
    tut_csv_close(csv);
}

static void histogram_costs_read(histogram_costs *c)
{
    c->global = histogram_global_cost();
    c->shared = histogram_shared_cost();
    c->warp_private = histogram_warp_private_cost();
    c->thread_private = histogram_thread_private_cost(0);
    c->thread_private_atomic = histogram_thread_private_cost(1);
    c->byte_pairs_wide = histogram_byte_pairs_cost(0);
    c->byte_pairs_narrow = histogram_byte_pairs_cost(1);
    c->read_ceiling = kernel_cost_of((const void *)read_ceiling_kernel);
}

/* The fast kernels' knobs: sub-histograms per warp, resident blocks per SM (the plan from
 * histogram_tuning_plan: what does not fit this GPU is skipped, said in one line). */
static void tune_fast(const unsigned char *d_text, size_t n, unsigned long long *d_bins,
                      int reps, const char *outdir)
{
    const tut_device_info *dev = tut_current_device();
    const int sms = dev->sm_count;
    histogram_costs costs;
    histogram_costs_read(&costs);
    tuning_entry plan[TUNING_MAX_ENTRIES];
    const int entries = histogram_tuning_plan(dev, &costs, plan, TUNING_MAX_ENTRIES);
    tut_csv *csv = tut_csv_open(outdir, "histogram_tuning.csv",
                                "variant,copies,blocks_per_sm,blocks,ms,gbps,ms_min,ms_max");
    tut_csv_comment(csv, "%zu bytes of text", n);
    tut_csv_comment(csv, "copies: sub-histograms per warp (warp_private), else threads per "
                         "block; ms: median per call, ms_min/ms_max the fastest/slowest timing");
    printf("\ntuning, %zu bytes (ms per call: median, min, max)\n%-22s %6s %8s %8s %10s %10s "
           "%10s %10s\n", n, "variant", "copies", "blk/SM", "blocks", "ms", "min", "max",
           "GB/s");
    for (int e = 0; e < entries; ++e) {
        const tuning_entry *p = &plan[e];
        if (p->skipped[0]) {
            printf("%-22s %6d   skipped: %s\n", p->variant, p->copies, p->skipped);
            tut_csv_comment(csv, "skipped: %s, copies %d: %s", p->variant, p->copies,
                            p->skipped);
            continue;
        }
        const int v = variant_index(p->variant);
        const int requested = p->blocks_per_sm * sms;
        /* The grid the launcher will use (it may raise what it is asked for). */
        const int blocks =
            strcmp(p->variant, "byte_pairs") == 0
                ? byte_pairs_blocks(histogram_byte_pairs_config(), sms, n, requested)
                : histogram_safe_blocks(n, requested);
        timed_run r = variant_run(v, d_text, n, d_bins, requested, 0,
                                  strcmp(p->variant, "warp_private") == 0 ? p->copies : 0);
        const tut_timing t = time_histogram(&r, reps);
        printf("%-22s %6d %8d %8d %10.4f %10.4f %10.4f %10.1f%s\n", p->variant, p->copies,
               p->blocks_per_sm, blocks, t.median_ms, t.min_ms, t.max_ms,
               n / (t.median_ms * 1e6), p->narrow ? "   (16-bit table)" : "");
        tut_csv_row(csv, "%s,%d,%d,%d,%.6f,%.2f,%.6f,%.6f", p->variant, p->copies,
                    p->blocks_per_sm, blocks, t.median_ms, n / (t.median_ms * 1e6), t.min_ms,
                    t.max_ms);
    }
    /* The ceiling, timed the same way: one wave of 256-thread blocks. */
    char why[192];
    const int ceiling_blocks =
        atomics_wave_blocks(dev, costs.read_ceiling, READ_CEILING_THREADS, 0, why, sizeof why);
    timed_run r;
    memset(&r, 0, sizeof r);
    r.kind = RUN_READ_CEILING;
    r.job.text = d_text;
    r.job.n = n;
    r.sink = (unsigned int *)tut_device_alloc(sizeof(unsigned int), "sink");
    r.ceiling_blocks = ceiling_blocks;
    const tut_timing t = time_histogram(&r, reps);
    printf("%-22s %6s %8d %8d %10.4f %10.4f %10.4f %10.1f   (reads the bytes, counts nothing)\n",
           "read_ceiling", "-", ceiling_blocks / sms, ceiling_blocks, t.median_ms, t.min_ms,
           t.max_ms, n / (t.median_ms * 1e6));
    tut_csv_row(csv, "read_ceiling,0,%d,%d,%.6f,%.2f,%.6f,%.6f", ceiling_blocks / sms,
                ceiling_blocks, t.median_ms, n / (t.median_ms * 1e6), t.min_ms, t.max_ms);
    tut_device_free(r.sink);
    tut_csv_close(csv);
}

/* What this GPU's limits chose, in a few lines (and a --threads that does not fit: exit 2). */
static void print_choices(const tut_device_info *dev, int threads)
{
    char why[192];
    const int simple_threads = threads > 0 ? threads : SIMPLE_THREADS;
    const int simple = atomics_wave_blocks(dev, histogram_shared_cost(), simple_threads, 0, why,
                                           sizeof why);
    if (simple == 0 || atomics_wave_blocks(dev, histogram_global_cost(), simple_threads, 0, why,
                                           sizeof why) == 0) {
        fprintf(stderr, "error: --threads %d: %s\n", simple_threads, why);
        exit(2);
    }
    const int copies = warp_private_default_copies(dev, histogram_warp_private_cost());
    const int warp = atomics_wave_blocks(dev, histogram_warp_private_cost(),
                                         WARP_PRIVATE_THREADS, warp_private_shared_bytes(copies),
                                         why, sizeof why);
    const int thread = atomics_wave_blocks(dev, histogram_thread_private_cost(0),
                                           THREAD_PRIVATE_THREADS, 0, why, sizeof why);
    const byte_pairs_config *pairs = histogram_byte_pairs_config();
    const int sms = dev->sm_count;
    printf("launch choices for %s%s: global/shared %d x %d threads; warp_private %d copies, "
           "%d x %d; thread_private %d x %d; byte_pairs %d-bit table (%zu bytes), %d x %d "
           "(fewer for small texts)\n",
           dev->emulated[0] ? "the limits of a " : "this GPU", dev->emulated, simple,
           simple_threads, copies, warp, WARP_PRIVATE_THREADS, thread, THREAD_PRIVATE_THREADS,
           pairs->narrow ? 16 : 32, pairs->table_bytes, pairs->blocks_per_sm * sms,
           BYTE_PAIRS_THREADS);
    if (pairs->narrow)
        printf("note: %s\n", pairs->note);
}

int main(int argc, char **argv)
{
    unsigned long long n = 0, seed = TUT_DEFAULT_SEED, blocks = 0, threads = 0, reps = 10;
    const char *file = NULL, *outdir = NULL;
    int bench = 0, uniform = 0, if_fits = 0;
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &n, "bytes of generated text (default 5638519; 1G with --bench)",
         0, 64.0 * (1ull << 30), NULL},
        {"--file", TUT_OPT_STRING, &file, "count this file instead of generated text", 1, 0,
         NULL},
        {"--seed", TUT_OPT_SIZE, &seed, "seed of the generated text", 1, 0, NULL},
        {"--blocks", TUT_OPT_SIZE, &blocks, "grid size for the checks (0 = each kernel's own)",
         0, 1 << 24, NULL},
        {"--threads", TUT_OPT_SIZE, &threads,
         "block size of the global and shared kernels (0 = 128)", 0, 1024, NULL},
        {"--uniform", TUT_OPT_FLAG, &uniform,
         "text of one repeated letter: the worst case for contention and 8-bit counters", 0, 0,
         NULL},
        {"--reps", TUT_OPT_SIZE, &reps, "timed repetitions (median)", 1, 1000, NULL},
        {"--bench", TUT_OPT_FLAG, &bench, "1 GiB benchmark, block sweep and tuning", 0, 0, NULL},
        {"--if-fits", TUT_OPT_FLAG, &if_fits,
         "skip (exit 77) instead of failing (exit 2) when the text does not fit in GPU memory",
         0, 0, NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "write CSV results into this folder", 1, 0, NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "atomics_histogram: a 128-bin histogram of text with atomics, privatised "
                      "counters and CUB",
                      opts, TUT_COUNT(opts));
    int n_given = 0;
    for (int i = 1; i < argc; ++i)
        n_given |= (strncmp(argv[i], "--n", 3) == 0 && (argv[i][3] == 0 || argv[i][3] == '='));
    if (file && (n_given || uniform)) {
        fprintf(stderr, "error: --file reads its text: it takes no --n or --uniform\n");
        return 2;
    }

    /* A file is read before any GPU work, so that a bad file exits 2 everywhere; generated
     * text is made after the GPU is found and the text known to fit in its memory. */
    unsigned char *text = NULL;
    char source[512];
    if (file) {
        size_t len = 0;
        text = text_load_file(file, &len);
        n = len;
        snprintf(source, sizeof source, "file %s", file);
    } else if (!n_given) {
        n = bench ? (1ull << 30) : TEXT_DOCUMENT_BYTES;
    }

    tut_select_device(TUT_NEED_NOTHING);
    const tut_device_info *dev = tut_current_device();
    /* The text and CUB's work space, in the free memory of this GPU and within the memory of
     * the GPU whose limits are used (TUT_EMULATE_GPU). */
    const size_t reserve = (size_t)256 << 20;
    if (!tut_device_fits((size_t)n, reserve) || (size_t)n > dev->total_bytes - reserve) {
        char need[32], have[32], total[32];
        printf("%s: %llu bytes of text (%s) and CUB's work space do not fit in the GPU's memory "
               "(%s free, %s in all%s%s)\n", if_fits ? "SKIPPED" : "error", n,
               tut_format_bytes((double)n, need, sizeof need),
               tut_format_bytes((double)tut_device_free_bytes(), have, sizeof have),
               tut_format_bytes((double)dev->total_bytes, total, sizeof total),
               dev->emulated[0] ? " on a " : "", dev->emulated);
        return if_fits ? TUT_EXIT_SKIP : 2;
    }
    print_choices(dev, (int)threads);

    if (!file) {
        text = (unsigned char *)tut_host_alloc((size_t)n, "text");
        double t0 = tut_cpu_seconds();
        if (uniform) {
            memset(text, 'e', (size_t)n);
            snprintf(source, sizeof source, "%llu times the letter 'e'", n);
        } else {
            text_generate(text, (size_t)n, seed);
            snprintf(source, sizeof source, "generated English-like text, seed %llu", seed);
        }
        printf("generated %llu bytes: %s, in %.2f s\n", n, source, tut_cpu_seconds() - t0);
    }
    text_histogram want;
    double t0 = tut_cpu_seconds();
    text_histogram_cpu(text, (size_t)n, &want);
    double cpu_ms = 1e3 * (tut_cpu_seconds() - t0);
    printf("CPU histogram of %s: %.2f ms; ' ' %llu, 'e' %llu, non-ASCII bytes %llu\n", source,
           cpu_ms, want.bins[' '], want.bins['e'], want.non_ascii);

    int ok = 1;
    unsigned long long *d_bins = (unsigned long long *)tut_device_alloc(
        TEXT_BINS * sizeof(unsigned long long), "bins");

    if (!bench && !file && !n_given && !uniform) {
        /* The document's first example, on the GPU: 22 bytes, every variant. */
        const char *doc = "CUDA by Numba Examples";
        text_histogram doc_want;
        text_histogram_cpu((const unsigned char *)doc, strlen(doc), &doc_want);
        unsigned char *d_doc = (unsigned char *)tut_device_alloc(strlen(doc), "string");
        CUDA_CHECK(cudaMemcpy(d_doc, doc, strlen(doc), cudaMemcpyHostToDevice));
        printf("\"%s\":", doc);
        for (int b = 0; b < TEXT_BINS; ++b)
            if (doc_want.bins[b])
                printf(" '%c' %llu", b, doc_want.bins[b]);
        printf("\n");
        ok &= check_variants(d_doc, strlen(doc), &doc_want, d_bins, 0, 0);
        tut_device_free(d_doc);
    }

    unsigned char *d_text = (unsigned char *)tut_device_alloc((size_t)n, "text");
    CUDA_CHECK(cudaMemcpy(d_text, text, (size_t)n, cudaMemcpyHostToDevice));
    printf("checking every variant on %llu bytes\n", n);
    ok &= check_variants(d_text, (size_t)n, &want, d_bins, (int)blocks, (int)threads);
    if (!ok) {
        printf("a GPU histogram differs from the CPU: no timings\n");
    } else if (n >= 16 * 1024) {
        write_letters(outdir, &want, source);
        time_variants(d_text, (size_t)n, d_bins, cpu_ms, (int)reps, outdir,
                      bench ? "histogram_speedup_large.csv" : "histogram_speedup.csv", bench);
        if (bench) {
            tune_fast(d_text, (size_t)n, d_bins, (int)reps, outdir);
            /* The document's sweep and speedup chart, on text of the document's size. */
            size_t small = (size_t)TEXT_DOCUMENT_BYTES < n ? (size_t)TEXT_DOCUMENT_BYTES : n;
            text_histogram small_want;
            t0 = tut_cpu_seconds();
            text_histogram_cpu(text, small, &small_want);
            double small_cpu_ms = 1e3 * (tut_cpu_seconds() - t0);
            ok &= check_variants(d_text, small, &small_want, d_bins, 0, 0);
            write_letters(outdir, &small_want, "the first 5638519 bytes of the benchmark text");
            time_variants(d_text, small, d_bins, small_cpu_ms, (int)reps, outdir,
                          "histogram_speedup.csv", 0);
            sweep_blocks(d_text, small, d_bins, (int)reps, outdir);
        }
    }
    tut_device_free(d_text);
    tut_device_free(d_bins);
    free(text);
    return tut_finish(ok);
}
