/* The ledger under a mutex (mutex_ledger.h): the solution of exercise ex07.2. The lock is the
 * chapter's (mutex.cuh), written out here because writing it is the exercise. */
#include "mutex_ledger.h"
#include "tutorial.h"

__device__ void ledger_lock(int *mutex)
{
    /* atomicCAS writes 1 only where it reads 0 and returns what it read: one winner. */
    while (atomicCAS(mutex, 0, 1) != 0) {
    }
    /* Acquire: no read of the ledger below may be served from before we owned the lock (and
     * the compiler may not keep a value from the last time in a register). */
    __threadfence();
}

__device__ void ledger_unlock(int *mutex)
{
    /* Release: every write to the ledger is visible before anyone can see the lock free. */
    __threadfence();
    atomicExch(mutex, 0);
}

/* The update the lock protects: plain loads and stores, safe only one thread at a time. */
__device__ void ledger_add(ledger *book, unsigned int amount)
{
    const unsigned int low = book->low + amount;
    book->high += low < amount; /* the carry out of the low word */
    book->low = low;
    book->deposits += 1;
    if (amount > book->largest)
        book->largest = amount;
}

__global__ void deposit_every_thread(ledger *book, int *mutex, const unsigned int *amounts)
{
    const unsigned int amount = amounts[blockIdx.x * blockDim.x + threadIdx.x];
    ledger_lock(mutex);
    ledger_add(book, amount);
    ledger_unlock(mutex);
}

__global__ void deposit_one_per_block(ledger *book, int *mutex, const unsigned int *amounts)
{
    if (threadIdx.x != 0)
        return;
    const unsigned int *mine = amounts + (size_t)blockIdx.x * blockDim.x;
    for (unsigned int t = 0; t < blockDim.x; ++t) {
        ledger_lock(mutex);
        ledger_add(book, mine[t]);
        ledger_unlock(mutex);
    }
}

void ledger_deposit(ledger *book, int *mutex, const unsigned int *amounts, int blocks,
                    int threads, ledger_mode mode)
{
    if (mode == LOCK_EVERY_THREAD)
        deposit_every_thread<<<blocks, threads>>>(book, mutex, amounts);
    else
        deposit_one_per_block<<<blocks, threads>>>(book, mutex, amounts);
    LAUNCH_CHECK();
}
