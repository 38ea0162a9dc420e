/* Grader of ex07.2, the mutex with its fences (mutex_ledger.cu): ledger_deposit only. Random
 * 32-bit amounts (so the low word carries into the high one) are deposited by grids drawn from
 * the seed into a ledger that starts from a random balance; the ledger must come out exact (the
 * balance, the count, the largest deposit) and the lock free.
 *   every thread takes the lock: whole warps contend for it (safe since Volta: each thread
 *     makes progress on its own);
 *   one thread per block takes it again and again, many blocks per SM: the case that catches a
 *     lock without its fences, where the next round reads the ledger as the last one left it in
 *     this thread's registers or cache, not as the other blocks left it;
 *   fences: what no run can force, read from the compiled kernels (fence_order.h): a fence
 *     after the atomic that takes the lock and one before the atomic that gives it back. A
 *     fence on the wrong side passes the runs above on most GPUs and most days. Skips (77,
 *     with the reason) where cuobjdump is missing or the binary holds no SASS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "fence_order.h"
#include "mutex_ledger.h"
#include "own_sass.h"
#include "tutorial.h"

/* The boundaries of the 32-bit words (case boundaries): when set, the ledger's low word starts
 * at forced_low and the first forced_count amounts are forced_amounts (deposited in that order
 * by one block with one thread taking the lock). */
static const unsigned int *forced_amounts = NULL;
static size_t forced_count = 0;
static unsigned int forced_low = 0;

static int run_deposits(tut_grader *g, int blocks, int threads, ledger_mode mode)
{
    const size_t count = (size_t)blocks * threads;
    unsigned int *amounts = (unsigned int *)tut_host_alloc(count * sizeof(unsigned int), "amounts");
    for (size_t i = 0; i < count; ++i)
        amounts[i] = (unsigned int)(tut_rng_next(&g->rng) >> 32);
    ledger start = {.low = (unsigned int)(tut_rng_next(&g->rng) >> 32),
                    .high = (unsigned int)tut_grader_size(g, 0, 1000),
                    .deposits = (unsigned int)tut_grader_size(g, 0, 1000), .largest = 0};
    if (forced_amounts) {
        start.low = forced_low;
        for (size_t i = 0; i < forced_count && i < count; ++i)
            amounts[i] = forced_amounts[i];
    }
    /* The CPU's ledger, in 64 bits. */
    unsigned long long balance = ((unsigned long long)start.high << 32) + start.low;
    unsigned int largest = start.largest;
    for (size_t i = 0; i < count; ++i) {
        balance += amounts[i];
        if (amounts[i] > largest)
            largest = amounts[i];
    }

    unsigned int *d_amounts = (unsigned int *)tut_device_alloc(count * sizeof(unsigned int),
                                                               "amounts");
    ledger *d_book = (ledger *)tut_device_alloc(sizeof(ledger), "ledger");
    int *d_mutex = (int *)tut_device_alloc(sizeof(int), "mutex");
    CUDA_CHECK(cudaMemcpy(d_amounts, amounts, count * sizeof(unsigned int),
                          cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_book, &start, sizeof start, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_mutex, 0, sizeof(int)));
    printf("  %d blocks x %d threads, %s: %zu deposits\n", blocks, threads,
           mode == LOCK_EVERY_THREAD ? "every thread takes the lock"
                                     : "one thread per block takes it for each of its block's",
           count);
    ledger_deposit(d_book, d_mutex, d_amounts, blocks, threads, mode);
    CUDA_CHECK(cudaDeviceSynchronize());
    ledger got;
    int mutex = -1;
    CUDA_CHECK(cudaMemcpy(&got, d_book, sizeof got, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&mutex, d_mutex, sizeof mutex, cudaMemcpyDeviceToHost));

    const uint64_t got_fields[4] = {((uint64_t)got.high << 32) + got.low, got.deposits,
                                    got.largest, (uint64_t)(unsigned int)mutex};
    const uint64_t want_fields[4] = {balance, start.deposits + (uint64_t)count, largest, 0};
    const int ok = tut_check_u64("  ledger: balance, deposits, largest, the lock (0: free)",
                                 got_fields, want_fields, 4);
    free(amounts);
    tut_device_free(d_amounts);
    tut_device_free(d_book);
    tut_device_free(d_mutex);
    return ok;
}

static int case_one(tut_grader *g)
{
    /* One deposit; one warp contending; two blocks taking turns. */
    return run_deposits(g, 1, 1, LOCK_EVERY_THREAD) & run_deposits(g, 1, 32, LOCK_EVERY_THREAD) &
           run_deposits(g, 2, (int)tut_grader_size(g, 2, 9), LOCK_ONE_PER_BLOCK);
}

static int case_warps(tut_grader *g)
{
    return run_deposits(g, (int)tut_grader_prime(g, 2, 31), (int)tut_grader_prime(g, 33, 257),
                        LOCK_EVERY_THREAD);
}

static int case_blocks(tut_grader *g)
{
    /* Between 2 and 8 blocks per SM of this GPU, each taking the lock 16 to 64 times. */
    const int sms = g->dev->sm_count;
    return run_deposits(g, (int)tut_grader_size(g, 2 * (size_t)sms, 8 * (size_t)sms),
                        (int)tut_grader_size(g, 16, 64), LOCK_ONE_PER_BLOCK);
}

static int case_random(tut_grader *g)
{
    /* Enough contention that a lock that does not lock loses deposits for certain. */
    const size_t sms = (size_t)g->dev->sm_count;
    if (tut_grader_size(g, 0, 1))
        return run_deposits(g, (int)tut_grader_size(g, 2, 200), (int)tut_grader_size(g, 32, 256),
                            LOCK_EVERY_THREAD);
    return run_deposits(g, (int)tut_grader_size(g, sms, 4 * sms), (int)tut_grader_size(g, 1, 64),
                        LOCK_ONE_PER_BLOCK);
}

/* The boundaries by design: threads per block at the multiples -1, 0, +1 of the warp (every
 * thread takes the lock); blocks at the multiples -1, 0, +1 of this GPU's SM count (one thread
 * per block takes it); the smallest of both; and the 32-bit words' edges, deposited in a known
 * order (one block, one thread taking the lock): a low word of 2^32 - 1 plus 1, a deposit of 0,
 * a low word of 0, a deposit of 2^32 - 1, a sum that wraps the low word to exactly 0. */
static int deposit_threads(tut_grader *g, size_t threads, void *ctx)
{
    (void)ctx;
    return run_deposits(g, (int)tut_grader_size(g, 2, 8), (int)threads, LOCK_EVERY_THREAD);
}

static int deposit_blocks(tut_grader *g, size_t blocks, void *ctx)
{
    (void)ctx;
    return run_deposits(g, (int)blocks, (int)tut_grader_size(g, 2, 16), LOCK_ONE_PER_BLOCK);
}

static int case_boundaries(tut_grader *g)
{
    const size_t warp = (size_t)g->dev->warp_size, sms = (size_t)g->dev->sm_count;
    const tut_width thread_widths[] = {{"threads warp", warp}};
    tut_boundary sizes[64];
    size_t count = tut_boundary_sizes(thread_widths, 1, 2 * warp + 1, sizes, TUT_COUNT(sizes));
    int ok = tut_grader_run_boundaries(g, sizes, count, deposit_threads, NULL);
    const tut_width block_widths[] = {{"blocks SMs", sms}};
    count = tut_boundary_sizes(block_widths, 1, 2 * sms + 1, sizes, TUT_COUNT(sizes));
    ok &= tut_grader_run_boundaries(g, sizes, count, deposit_blocks, NULL);

    static const struct {
        const char *name;
        unsigned int low;
        unsigned int amounts[4];
    } words[] = {
        {"low 2^32-1 plus 1, then 0", 0xFFFFFFFFu, {1, 0, 7, 0}},
        {"low 0 plus 0, then 2^32-1", 0, {0, 0xFFFFFFFFu, 1, 0}},
        {"low 5 plus 2^32-5: wraps to exactly 0", 5, {0xFFFFFFFBu, 0, 0xFFFFFFFFu, 0xFFFFFFFFu}},
        {"low 2^32-1 plus 2^32-1", 0xFFFFFFFFu, {0xFFFFFFFFu, 0, 1, 0xFFFFFFFEu}},
    };
    for (int i = 0; i < TUT_COUNT(words); ++i) {
        forced_low = words[i].low;
        forced_amounts = words[i].amounts;
        forced_count = 4;
        tut_grader_boundary_begin(words[i].name, 4);
        const int right = run_deposits(g, 1, 4 + (int)tut_grader_size(g, 0, 4), LOCK_ONE_PER_BLOCK);
        forced_amounts = NULL;
        ok &= tut_grader_boundary_verdict(words[i].name, 4, right);
    }
    return ok;
}

static void skip_fences(const char *why)
{
    printf("SKIPPED: the fence order cannot be read here: %s\n", why);
    fflush(stdout);
    exit(77);
}

static int case_fences(tut_grader *g)
{
    (void)g; /* the compiled code does not depend on the seed */
    char tool[1024], why[640];
    char *sass = own_sass_read(tool, sizeof tool, why, sizeof why);
    if (!sass)
        skip_fences(why);
    static const char *const kernels[] = {"deposit_every_thread", "deposit_one_per_block"};
    const fence_order_verdict verdict =
        fence_order_check(sass, kernels, TUT_COUNT(kernels), why, sizeof why);
    free(sass);
    if (verdict == FENCE_ORDER_NO_SASS)
        skip_fences(why);
    printf("  fences around the lock, from the compiled kernels (%s -sass): %s\n  %s\n", tool,
           verdict == FENCE_ORDER_OK ? "right" : "WRONG", why);
    return verdict == FENCE_ORDER_OK;
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"one", case_one},       {"warps", case_warps},   {"blocks", case_blocks},
        {"random", case_random}, {"fences", case_fences}, {"boundaries", case_boundaries}};
    const tut_exercise ex = {.id = "ex07.2", .title = "the mutex with its fences",
                             .cases = cases, .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
