/* The GPU's global timer, for the kernels of the tests and graders that hold a stream or an SM
 * for a while (a late input, a crowd of blocks, a stream kept busy): %globaltimer counts
 * nanoseconds, the same count on every SM of the GPU, so a wait measured with it does not
 * depend on the SM clock (which the GPU raises and lowers as it likes).
 *
 * The lessons read the timer themselves (06_streams/default_stream.cu, the wait in
 * 05_matmul/13_wgmma_tf32.cu), so that each stays one file; this header is for the tests' code,
 * which would otherwise repeat these lines. */
#ifndef TUTORIAL_GLOBAL_TIMER_CUH
#define TUTORIAL_GLOBAL_TIMER_CUH

/* Nanoseconds on the GPU's global timer. */
static __device__ __forceinline__ unsigned long long tut_global_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Keeps the calling thread busy for ns nanoseconds (at most 2^63 - 1). The difference is read
 * signed: should the timer step back, the wait goes on rather than end at once. */
static __device__ __forceinline__ void tut_spin_ns(unsigned long long ns)
{
    const unsigned long long start = tut_global_ns();
    while ((long long)(tut_global_ns() - start) < (long long)ns) {
    }
}

#endif
