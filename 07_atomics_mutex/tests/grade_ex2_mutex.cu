/* Grader of ex07.2, the mutex with its fences (mutex_ledger.cu): ledger_deposit only. Random
 * 32-bit amounts (so the low word carries into the high one) are deposited by grids drawn from
 * the seed into a ledger that starts from a random balance; the ledger must come out exact (the
 * balance, the count, the largest deposit) and the lock free.
 *   every thread takes the lock: whole warps contend for it (safe since Volta: each thread
 *     makes progress on its own);
 *   one thread per block takes it again and again, many blocks per SM: the case that catches a
 *     lock without its fences, where the next round reads the ledger as the last one left it in
 *     this thread's registers or cache, not as the other blocks left it. */
#include <stdio.h>
#include <stdlib.h>

#include "exercise.h"
#include "mutex_ledger.h"
#include "tutorial.h"

static int run_deposits(tut_grader *g, int blocks, int threads, ledger_mode mode)
{
    const size_t count = (size_t)blocks * threads;
    unsigned int *amounts = (unsigned int *)tut_host_alloc(count * sizeof(unsigned int), "amounts");
    for (size_t i = 0; i < count; ++i)
        amounts[i] = (unsigned int)(tut_rng_next(&g->rng) >> 32);
    ledger start = {.low = (unsigned int)(tut_rng_next(&g->rng) >> 32),
                    .high = (unsigned int)tut_grader_size(g, 0, 1000),
                    .deposits = (unsigned int)tut_grader_size(g, 0, 1000), .largest = 0};
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

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"one", case_one}, {"warps", case_warps}, {"blocks", case_blocks}, {"random", case_random}};
    const tut_exercise ex = {.id = "ex07.2", .title = "the mutex with its fences",
                             .cases = cases, .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
