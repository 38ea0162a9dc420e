/* Grader of ex07.1, the shared-memory histogram (histogram_shared.cu): histogram_shared only,
 * on texts whose sizes, grids and block sizes come from the seed, every bin checked exactly
 * against the CPU's count (text.c). Block sizes include odd ones (a kernel that assumes 128
 * threads fails), texts include bytes >= 128 (which have no bin) and one repeated letter (every
 * thread of the block on one counter). Shared memory is poisoned before each launch: a bin that
 * was never zeroed shows. The sanitizers run the first case; one_letter (the atomic: lost
 * updates show at once) and racecheck's test (the barriers) are the exercise's lesson (a
 * failure caps the grade, CMakeLists.txt). signed_bytes reads the compiled kernel for a byte
 * read as a signed char, which no run on an H100 or H200 shows (byte_sign.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_sign.h"
#include "exercise.h"
#include "histogram.h"
#include "own_sass.h"
#include "tutorial.h"

typedef enum { TEXT_ENGLISH, TEXT_ANY_BYTES, TEXT_ONE_LETTER } text_kind;

static int run_histogram(tut_grader *g, size_t n, text_kind kind, int blocks, int threads)
{
    unsigned char *text = (unsigned char *)tut_host_alloc(n ? n : 1, "text");
    if (kind == TEXT_ENGLISH) {
        text_generate(text, n, tut_rng_next(&g->rng));
    } else if (kind == TEXT_ANY_BYTES) {
        for (size_t i = 0; i < n; ++i)
            text[i] = (unsigned char)(tut_rng_next(&g->rng) >> 56);
    } else {
        memset(text, 'a' + (int)tut_grader_size(g, 0, 25), n);
    }
    text_histogram want;
    text_histogram_cpu(text, n, &want);
    unsigned char *d_text = (unsigned char *)tut_device_alloc(n ? n : 1, "text");
    unsigned long long *d_bins =
        (unsigned long long *)tut_device_alloc(TEXT_BINS * sizeof(unsigned long long), "bins");
    if (n)
        CUDA_CHECK(cudaMemcpy(d_text, text, n, cudaMemcpyHostToDevice));
    tut_grader_poison(d_bins, TEXT_BINS * sizeof(unsigned long long));

    const histogram_job job = {.text = d_text, .n = n, .bins = d_bins, .blocks = blocks,
                               .threads = threads, .copies = 0};
    static const char *const kinds[] = {"English-like text", "bytes 0..255", "one letter"};
    printf("  %zu bytes of %s, %d blocks x %d threads%s\n", n, kinds[kind], blocks,
           threads ? threads : SIMPLE_THREADS, blocks ? "" : " (blocks: the launcher's choice)");
    tut_grader_poison_shared();
    histogram_shared(&job);
    CUDA_CHECK(cudaDeviceSynchronize());
    unsigned long long got[TEXT_BINS];
    CUDA_CHECK(cudaMemcpy(got, d_bins, sizeof got, cudaMemcpyDeviceToHost));
    char label[96];
    snprintf(label, sizeof label, "  histogram_shared, %zu bytes: the 128 bins", n);
    const int ok = tut_check_u64(label, (const uint64_t *)got, (const uint64_t *)want.bins,
                                 TEXT_BINS);
    free(text);
    tut_device_free(d_text);
    tut_device_free(d_bins);
    return ok;
}

/* A block size that is not a multiple of 32, nor of 128, and at most the GPU's. */
static int odd_threads(tut_grader *g, int hi)
{
    const int max = g->dev->max_threads_per_block < hi ? g->dev->max_threads_per_block : hi;
    return (int)tut_grader_prime(g, 33, (size_t)max);
}

static int case_primes(tut_grader *g)
{
    /* Small enough for the sanitizers: this case runs under them too. */
    int ok = 1;
    for (int r = 0; r < 2; ++r)
        ok &= run_histogram(g, tut_grader_prime(g, 1000, 40000), TEXT_ENGLISH,
                            (int)tut_grader_prime(g, 2, 13), odd_threads(g, 300));
    return ok;
}

static int case_one(tut_grader *g)
{
    /* Empty text (all bins 0), one letter, three letters on a grid far larger than the text. */
    return run_histogram(g, 0, TEXT_ENGLISH, 3, 64) &
           run_histogram(g, 1, TEXT_ONE_LETTER, 1, 1) &
           run_histogram(g, 3, TEXT_ONE_LETTER, (int)tut_grader_size(g, 2, 50),
                         (int)tut_grader_size(g, 1, 256));
}

static int case_bytes(tut_grader *g)
{
    /* Bytes >= 128 have no bin: counting them would write past the 128 counters. */
    return run_histogram(g, tut_grader_size(g, 100000, 3000000), TEXT_ANY_BYTES, 0, 0) &
           run_histogram(g, tut_grader_odd(g, 1001, 99999), TEXT_ANY_BYTES,
                         (int)tut_grader_size(g, 1, 40), odd_threads(g, 1024));
}

static int case_one_letter(tut_grader *g)
{
    /* Every thread of every block on the same counter: lost updates show at once. */
    return run_histogram(g, tut_grader_size(g, 500000, 2000000), TEXT_ONE_LETTER, 1,
                         odd_threads(g, 1024)) &
           run_histogram(g, tut_grader_size(g, 500000, 2000000), TEXT_ONE_LETTER, 0, 0);
}

static int case_random(tut_grader *g)
{
    /* The launcher's own grid (one wave) and block size, then any grid, on English-like text. */
    return run_histogram(g, tut_grader_size(g, 1, 20000000), TEXT_ENGLISH, 0, 0) &
           run_histogram(g, tut_grader_size(g, 1, 5000000), TEXT_ENGLISH,
                         (int)tut_grader_size(g, 1, 2000), 32 * (int)tut_grader_size(g, 1, 8));
}

/* ---- The boundaries by design ------------------------------------------------------------ */

typedef struct {
    text_kind kind;
    int blocks, threads; /* 0: the launcher's */
} histogram_boundary_job;

static int histogram_size_check(tut_grader *g, size_t n, void *ctx)
{
    const histogram_boundary_job *j = (const histogram_boundary_job *)ctx;
    return run_histogram(g, n, j->kind, j->blocks, j->threads);
}

static int histogram_threads_check(tut_grader *g, size_t threads, void *ctx)
{
    const histogram_boundary_job *j = (const histogram_boundary_job *)ctx;
    return run_histogram(g, tut_grader_odd(g, 10001, 99999), j->kind, j->blocks, (int)threads);
}

/* Block sizes at the multiples -1, 0, +1 of the warp and of the 128 bins (the loops that zero and
 * flush the block's bins step by blockDim.x), up to this GPU's largest block; text sizes at the
 * multiples -1, 0, +1 of the warp, the launcher's block (SIMPLE_THREADS) and one full wave of
 * this GPU's threads (SMs x threads per SM), the smallest texts; and the exact-count boundary:
 * more than 2^24 copies of one letter counted in one block, where a float counter (exact up to
 * 2^24 only) stops counting. */
static int case_boundaries(tut_grader *g)
{
    const size_t max_threads = (size_t)g->dev->max_threads_per_block;
    const tut_width thread_widths[] = {{"threads warp", (size_t)g->dev->warp_size},
                                       {"threads bins", TEXT_BINS},
                                       {"threads most", max_threads}};
    tut_boundary sizes[96];
    size_t count = tut_boundary_sizes(thread_widths, TUT_COUNT(thread_widths), max_threads,
                                      sizes, TUT_COUNT(sizes));
    histogram_boundary_job job = {TEXT_ANY_BYTES, (int)tut_grader_size(g, 2, 40), 0};
    int ok = tut_grader_run_boundaries(g, sizes, count, histogram_threads_check, &job);

    const size_t wave = (size_t)g->dev->sm_count * (size_t)g->dev->max_threads_per_sm;
    const tut_width size_widths[] = {{"warp", (size_t)g->dev->warp_size},
                                     {"block", SIMPLE_THREADS}, {"wave", wave}};
    count = tut_boundary_sizes(size_widths, TUT_COUNT(size_widths), 2 * wave + 1, sizes,
                               TUT_COUNT(sizes));
    job.kind = TEXT_ENGLISH;
    job.blocks = 0;
    ok &= tut_grader_run_boundaries(g, sizes, count, histogram_size_check, &job);

    /* Once per run: 2^24 + an odd number of one letter, one block of the largest size. */
    const size_t past_float = ((size_t)1 << 24) + tut_grader_odd(g, 1, 4095);
    tut_grader_boundary_begin("one letter past 2^24 in one block", past_float);
    ok &= tut_grader_boundary_verdict(
        "one letter past 2^24 in one block", past_float,
        run_histogram(g, past_float, TEXT_ONE_LETTER, 1, (int)max_threads));
    return ok;
}

/* A byte read as a signed char (`const char c = text[i]`) indexes block_bins[-128 .. -1] for the
 * bytes >= 128. On an H100 or H200 those writes land in shared memory the system reserves
 * before the block's own: every count right, compute-sanitizer quiet. The compiled kernel shows
 * it every time (byte_sign.h): a byte sign-extended and used with no test of its sign. The
 * counts of a text of any bytes first, then the check. Skips (77, with the reason) where
 * cuobjdump is missing or the binary holds no SASS. */
static void skip_signed_bytes(const char *why)
{
    printf("SKIPPED: the compiled kernel cannot be read here: %s\n", why);
    fflush(stdout);
    exit(TUT_EXIT_SKIP);
}

static int case_signed_bytes(tut_grader *g)
{
    /* First the counts, on bytes 0..255 (a kernel that counts nothing has nothing to read). */
    if (!run_histogram(g, tut_grader_odd(g, 1001, 99999), TEXT_ANY_BYTES,
                       (int)tut_grader_size(g, 1, 40), odd_threads(g, 1024)))
        return 0;
    char tool[1024], why[640];
    char *sass = own_sass_read(tool, sizeof tool, why, sizeof why);
    if (!sass)
        skip_signed_bytes(why);
    const byte_sign_verdict verdict = byte_sign_check(sass, "histogram_shared_kernel", why,
                                                      sizeof why);
    free(sass);
    if (verdict == BYTE_SIGN_NO_SASS)
        skip_signed_bytes(why);
    if (verdict == BYTE_SIGN_WRONG)
        printf("FAIL: %s\n", why);
    printf("  the text's bytes in the compiled kernel (%s -sass): %s\n  %s\n", tool,
           verdict == BYTE_SIGN_OK ? "read as unsigned, or tested for their sign" : "WRONG",
           why);
    return verdict == BYTE_SIGN_OK;
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {{"primes", case_primes},
                                            {"one", case_one},
                                            {"bytes", case_bytes},
                                            {"one_letter", case_one_letter},
                                            {"random", case_random},
                                            {"boundaries", case_boundaries},
                                            {"signed_bytes", case_signed_bytes}};
    const tut_exercise ex = {.id = "ex07.1", .title = "shared-memory histogram",
                             .cases = cases, .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
