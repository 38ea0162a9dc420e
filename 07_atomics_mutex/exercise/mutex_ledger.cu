/* EXERCISE ex07.2: the mutex, with its fences (mutex_ledger.h says what the ledger is;
 * docs/07_atomics_mutex_exercises.md).
 *
 * Write ledger_lock and ledger_unlock: a lock in global memory, 0 = free, 1 = taken.
 *   - lock: atomicCAS(mutex, 0, 1) writes 1 only where it reads 0, and returns what it read:
 *     exactly one of the threads that try at once sees 0 and owns the lock; the others retry.
 *   - unlock: give the lock back with an atomic store (atomicExch), never a plain one.
 *   - and the fences: what must the new owner not read from before it owned the lock, and what
 *     must be visible before anyone sees the lock free? (docs/07_atomics_mutex.md, "The mutex")
 * Everything else is given. The grader deposits random amounts from grids drawn from a new seed
 * (every thread taking the lock, then one thread per block taking it again and again) and
 * checks the ledger exactly, under compute-sanitizer too. Grade it (the loop:
 * docs/exercises.md):
 *     cmake --build build-exercises --target ex07.2
 * Until the TODOs are done the deposits race and most are lost; nothing waits forever. */
#include "mutex_ledger.h"
#include "tutorial.h"

__device__ void ledger_lock(int *mutex)
{
    /* TODO (ex07.2) 1: take the lock, then the fence that makes it an acquire. */
    (void)mutex;
}

__device__ void ledger_unlock(int *mutex)
{
    /* TODO (ex07.2) 2: the fence that makes it a release, then give the lock back. */
    (void)mutex;
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
