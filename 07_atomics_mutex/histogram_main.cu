/* atomics_histogram: the document's text histogram, from a CPU loop to faster than CUB.
 *
 *   atomics_histogram                  the document's string, then English-like text of the
 *                                      document's size (5,638,519 bytes): every variant checked
 *                                      against the CPU, then timed
 *   atomics_histogram --file book.txt  the same on any file
 *   atomics_histogram --bench          1 GiB of text, the block-count sweep, the fast kernels'
 *                                      tuning, a read-bandwidth ceiling; --outdir DIR for CSVs */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histogram.h"
#include "text.h"
#include "tutorial.h"

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

/* One timed call runs the histogram `batch` times back to back, so that launch gaps and the
 * event overhead vanish in the average even for a 10-microsecond kernel. */
typedef struct {
    const hist_variant *variant; /* NULL: CUB */
    histogram_job job;
    const histogram_cub_plan *cub;
    int batch;
} timed_run;

static void run_once(const timed_run *r)
{
    if (r->variant)
        r->variant->run(&r->job);
    else
        histogram_cub_run(r->cub);
}

static void run_batch(void *arg)
{
    const timed_run *r = (const timed_run *)arg;
    for (int i = 0; i < r->batch; ++i)
        run_once(r);
}

/* Median milliseconds of one histogram: a first call sizes the batch to ~5 ms per timing. */
static double time_histogram(timed_run *r, int reps)
{
    r->batch = 1;
    tut_timing first = tut_time_gpu(run_batch, r, 1, 1);
    int batch = (int)(5.0 / (first.median_ms > 1e-3 ? first.median_ms : 1e-3));
    r->batch = batch < 1 ? 1 : (batch > 1000 ? 1000 : batch);
    tut_timing t = tut_time_gpu(run_batch, r, 1, r->batch > 1 ? reps : (reps + 1) / 2);
    return t.median_ms / r->batch;
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
    if (n > 0 && n <= 0x7FFFFFFF) {
        histogram_cub_plan plan;
        histogram_cub_create(&plan, d_text, n);
        int counts[TEXT_BINS];
        CUDA_CHECK(cudaMemset(plan.counts, 0xFF, sizeof counts));
        histogram_cub_run(&plan);
        CUDA_CHECK(cudaMemcpy(counts, plan.counts, sizeof counts, cudaMemcpyDeviceToHost));
        for (int b = 0; b < TEXT_BINS; ++b)
            got[b] = (unsigned long long)(long long)counts[b];
        snprintf(label, sizeof label, "  %-22s n=%zu", "cub", n);
        ok &= compare_bins(label, got, n, want);
        histogram_cub_destroy(&plan);
    }
    return ok;
}

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

typedef struct {
    const unsigned char *text;
    size_t n;
    unsigned int *sink;
    int blocks;
} read_job;

static void run_read_ceiling(void *arg)
{
    const read_job *r = (const read_job *)arg;
    read_ceiling_kernel<<<r->blocks, 256>>>((const uint4 *)r->text, r->n / 16, r->sink);
    LAUNCH_CHECK();
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
                          double cpu_ms, int reps, const char *outdir, const char *csv_name)
{
    const int nrows = NVARIANTS + 2;
    const char *names[NVARIANTS + 2];
    double ms[NVARIANTS + 2];
    names[0] = "cpu";
    ms[0] = cpu_ms;
    for (int v = 0; v < NVARIANTS; ++v) {
        timed_run r = {&variants[v], {d_text, n, d_bins, 0, 0, 0}, NULL, 1};
        names[v + 1] = variants[v].name;
        ms[v + 1] = time_histogram(&r, v == 0 && n > (1u << 28) ? 3 : reps);
    }
    histogram_cub_plan plan;
    histogram_cub_create(&plan, d_text, n);
    timed_run r = {NULL, {NULL, 0, NULL, 0, 0, 0}, &plan, 1};
    names[nrows - 1] = "cub";
    ms[nrows - 1] = time_histogram(&r, reps);
    histogram_cub_destroy(&plan);

    double best = ms[1];
    for (int i = 1; i < nrows; ++i)
        best = ms[i] < best ? ms[i] : best;
    tut_csv *csv = tut_csv_open(outdir, csv_name, "variant,ms,gbps,times_slower_than_best,"
                                                  "fraction_of_cub");
    tut_csv_comment(csv, "%zu bytes of text", n);
    printf("\n%-22s %12s %10s %14s %10s   (%zu bytes)\n", "variant", "ms", "GB/s",
           "x slower/best", "% of CUB", n);
    for (int i = 0; i < nrows; ++i) {
        double gbps = n / (ms[i] * 1e6);
        double of_cub = ms[nrows - 1] / ms[i];
        printf("%-22s %12.4f %10.1f %14.1f %9.1f%%\n", names[i], ms[i], gbps, ms[i] / best,
               100.0 * of_cub);
        tut_csv_row(csv, "%s,%.6f,%.2f,%.3f,%.4f", names[i], ms[i], gbps, ms[i] / best, of_cub);
    }
    tut_csv_close(csv);
}

/* The document's sweep: grids of k x SMs blocks, the global and the shared kernel. */
static void sweep_blocks(const unsigned char *d_text, size_t n, unsigned long long *d_bins,
                         int reps, const char *outdir)
{
    static const int multiples[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128};
    const int sms = tut_current_device()->sm_count;
    tut_csv *csv = tut_csv_open(outdir, "histogram_sweep.csv",
                                "sm_multiple,blocks,global_ms,shared_ms");
    tut_csv_comment(csv, "%zu bytes of text, 128 threads per block", n);
    printf("\nblock sweep, %zu bytes: blocks = k x %d SMs\n%6s %8s %12s %12s\n", n, sms, "k",
           "blocks", "global ms", "shared ms");
    int best_g = 0, best_s = 0;
    double ms_g[TUT_COUNT(multiples)], ms_s[TUT_COUNT(multiples)];
    for (int i = 0; i < TUT_COUNT(multiples); ++i) {
        int blocks = multiples[i] * sms;
        timed_run g = {&variants[0], {d_text, n, d_bins, blocks, 128, 0}, NULL, 1};
        timed_run s = {&variants[1], {d_text, n, d_bins, blocks, 128, 0}, NULL, 1};
        ms_g[i] = time_histogram(&g, reps);
        ms_s[i] = time_histogram(&s, reps);
        best_g = ms_g[i] < ms_g[best_g] ? i : best_g;
        best_s = ms_s[i] < ms_s[best_s] ? i : best_s;
        printf("%6d %8d %12.4f %12.4f\n", multiples[i], blocks, ms_g[i], ms_s[i]);
        tut_csv_row(csv, "%d,%d,%.6f,%.6f", multiples[i], blocks, ms_g[i], ms_s[i]);
    }
    printf("best: global at %d x SMs (%.4f ms), shared at %d x SMs (%.4f ms)\n",
           multiples[best_g], ms_g[best_g], multiples[best_s], ms_s[best_s]);
    tut_csv_close(csv);
}

/* The fast kernels' knobs: sub-histograms per warp, resident blocks per SM. */
static void tune_fast(const unsigned char *d_text, size_t n, unsigned long long *d_bins,
                      int reps, const char *outdir)
{
    const int sms = tut_current_device()->sm_count;
    tut_csv *csv = tut_csv_open(outdir, "histogram_tuning.csv",
                                "variant,copies,blocks_per_sm,blocks,ms,gbps");
    tut_csv_comment(csv, "%zu bytes of text", n);
    printf("\ntuning, %zu bytes\n%-22s %6s %8s %8s %10s %10s\n", n, "variant", "copies",
           "blk/SM", "blocks", "ms", "GB/s");
    static const int copies[] = {1, 2, 4, 8};
    for (int c = 0; c < TUT_COUNT(copies); ++c) {
        int per_sm = histogram_warp_private_blocks_per_sm(copies[c]);
        for (int k = 1; k <= per_sm; ++k) {
            timed_run r = {&variants[2], {d_text, n, d_bins, k * sms, 0, copies[c]}, NULL, 1};
            double ms = time_histogram(&r, reps);
            printf("%-22s %6d %8d %8d %10.4f %10.1f\n", "warp_private", copies[c], k, k * sms,
                   ms, n / (ms * 1e6));
            tut_csv_row(csv, "warp_private,%d,%d,%d,%.6f,%.2f", copies[c], k, k * sms, ms,
                        n / (ms * 1e6));
        }
    }
    int per_sm = histogram_thread_private_blocks_per_sm();
    for (int v = 3; v <= 4; ++v)
        for (int k = 1; k <= 2 * per_sm; ++k) { /* beyond per_sm: a second wave of blocks */
            timed_run r = {&variants[v], {d_text, n, d_bins, k * sms, 0, 0}, NULL, 1};
            double ms = time_histogram(&r, reps);
            printf("%-22s %6d %8d %8d %10.4f %10.1f\n", variants[v].name,
                   THREAD_PRIVATE_THREADS, k, k * sms, ms, n / (ms * 1e6));
            tut_csv_row(csv, "%s,%d,%d,%d,%.6f,%.2f", variants[v].name, THREAD_PRIVATE_THREADS,
                        k, k * sms, ms, n / (ms * 1e6));
        }
    per_sm = histogram_byte_pairs_blocks_per_sm();
    for (int k = 1; k <= 2 * per_sm; ++k) {
        timed_run r = {&variants[5], {d_text, n, d_bins, k * sms, 0, 0}, NULL, 1};
        double ms = time_histogram(&r, reps);
        printf("%-22s %6d %8d %8d %10.4f %10.1f\n", variants[5].name, BYTE_PAIRS_THREADS, k,
               k * sms, ms, n / (ms * 1e6));
        tut_csv_row(csv, "%s,%d,%d,%d,%.6f,%.2f", variants[5].name, BYTE_PAIRS_THREADS, k,
                    k * sms, ms, n / (ms * 1e6));
    }
    unsigned int *sink = (unsigned int *)tut_device_alloc(sizeof(unsigned int), "sink");
    read_job rj = {d_text, n, sink, 8 * sms};
    tut_timing t = tut_time_gpu(run_read_ceiling, &rj, 2, reps);
    printf("%-22s %6s %8d %8d %10.4f %10.1f   (reads the bytes, counts nothing)\n",
           "read_ceiling", "-", 8, 8 * sms, t.median_ms, n / (t.median_ms * 1e6));
    tut_csv_row(csv, "read_ceiling,0,8,%d,%.6f,%.2f", 8 * sms, t.median_ms,
                n / (t.median_ms * 1e6));
    tut_device_free(sink);
    tut_csv_close(csv);
}

int main(int argc, char **argv)
{
    unsigned long long n = 0, seed = TUT_DEFAULT_SEED, blocks = 0, threads = 0, reps = 10;
    const char *file = NULL, *outdir = NULL;
    int bench = 0, uniform = 0;
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

    /* The input, before any GPU work, so that a bad file exits 2 everywhere. */
    unsigned char *text = NULL;
    char source[512];
    if (file) {
        size_t len = 0;
        text = text_load_file(file, &len);
        n = len;
        snprintf(source, sizeof source, "file %s", file);
    } else {
        if (!n_given)
            n = bench ? (1ull << 30) : TEXT_DOCUMENT_BYTES;
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

    tut_select_device(7, 0, TUT_NEED_NOTHING);
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
                      bench ? "histogram_speedup_large.csv" : "histogram_speedup.csv");
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
                          "histogram_speedup.csv");
            sweep_blocks(d_text, small, d_bins, (int)reps, outdir);
        }
    }
    tut_device_free(d_text);
    tut_device_free(d_bins);
    free(text);
    return tut_finish(ok);
}
