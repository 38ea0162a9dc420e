/* A mutex in global memory, the document's Example 4.5 in CUDA C: 0 = free, 1 = taken.
 *
 *   lock:   atomicCAS(m, 0, 1) writes 1 only where it reads 0, and returns what it read, so
 *           exactly one of any number of contenders sees 0 and owns the lock; the others spin.
 *   unlock: atomicExch(m, 0), an atomic store, so that a spinning CAS never sees a torn value.
 *
 * The fences make the lock protect data, not only itself. Without the one after the CAS, the
 * new owner's reads of the protected data may be served from before the previous owner's
 * writes; without the one before the exchange, another thread may see the lock free before it
 * sees the data we wrote inside it. (In the CUDA memory model, fence + atomic on both sides is
 * the release/acquire pattern; cuda::atomic_ref with memory_order_acquire/release says the same
 * in one line.)
 *
 * Take it with ONE thread per block (or per warp). Threads of one warp spinning on the same lock
 * deadlock on GPUs before Volta: the warp runs its lanes in lockstep, the winner cannot leave the
 * loop while the losers spin, and so it never reaches the unlock. Since Volta each thread has
 * its own program counter and the scheduler guarantees progress, so it works, but every lane's
 * failed CAS is still a trip to L2: reduce within the block first, then lock once. */
#ifndef ATOMICS_MUTEX_CUH
#define ATOMICS_MUTEX_CUH

__device__ __forceinline__ void mutex_lock(int *mutex)
{
    while (atomicCAS(mutex, 0, 1) != 0) {
        /* spin; a short sleep would ease the pressure on L2 (__nanosleep, sm_70+) */
    }
    __threadfence(); /* acquire: nothing inside is read before we own the lock */
}

__device__ __forceinline__ void mutex_unlock(int *mutex)
{
    __threadfence(); /* release: everything written inside is visible before the lock is free */
    atomicExch(mutex, 0);
}

#endif
