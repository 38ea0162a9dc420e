/* The graders' GPU helper (exercise.h): stale shared memory made NaN. */
#include "exercise.h"

#include "check.h"

#include <stdio.h>

#include <cuda_runtime.h>

static __global__ void poison_shared_kernel(size_t words)
{
    extern __shared__ unsigned long long stale[];
    for (size_t i = threadIdx.x; i < words; i += blockDim.x)
        stale[i] = ~0ull;
    /* Keep the stores: the compiler must not drop writes nobody reads. */
    __syncthreads();
    if (threadIdx.x == 0 && stale[words - 1] != ~0ull)
        __trap();
}

/* Launches the poison with `bytes` of dynamic shared memory per block; 0 if the GPU (or a
 * sanitizer that runs the grader) refuses it, with the error cleared. */
static int poison_with(int blocks, int bytes)
{
    const void *kernel = (const void *)poison_shared_kernel;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) !=
        cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    const size_t words = (size_t)bytes / sizeof(unsigned long long);
    poison_shared_kernel<<<blocks, 256, words * sizeof(unsigned long long)>>>(words);
    if (cudaGetLastError() != cudaSuccess)
        return 0;
    return 1;
}

/* The probe: reads `words` of its own shared memory, which it never writes, and counts those
 * that do not hold the poison. What a kernel of the same shape (threads, shared memory per
 * block, carveout) launched next would read where it reads before it writes. */
static __global__ void probe_shared_kernel(size_t words, unsigned long long *counts)
{
    extern __shared__ unsigned int unwritten[];
    unsigned long long clean = 0;
    for (size_t i = threadIdx.x; i < words; i += blockDim.x)
        clean += unwritten[i] != ~0u;
    atomicAdd(&counts[0], clean);
    if (threadIdx.x == 0)
        atomicAdd(&counts[1], (unsigned long long)words);
}

/* The probe's counters (0: words not poisoned, 1: words read): a global of the module rather
 * than a cudaMalloc, so that nothing is left to free at exit (memcheck's leak check would count
 * it against the student's grade); probe_counts is its device address, NULL until first needed. */
static __device__ unsigned long long probe_counts_global[2];
static unsigned long long *probe_counts;

/* Zeroes the probe's counters: before the poison, so that no other work (a memset may be a
 * kernel) runs between the poison and the probe. */
static void probe_reset(void)
{
    if (!probe_counts)
        CUDA_CHECK(cudaGetSymbolAddress((void **)&probe_counts, probe_counts_global));
    CUDA_CHECK(cudaMemset(probe_counts, 0, 2 * sizeof(unsigned long long)));
}

/* Queues the probe: as many blocks of `threads` threads and `bytes` of shared memory as fit on
 * every SM at once, with the carveout of the largest shared memory. 0 if it cannot run. */
static int probe_with(int threads, size_t bytes)
{
    const void *kernel = (const void *)probe_shared_kernel;
    int device = 0, sms = 0, per_sm = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (bytes < sizeof(unsigned int) || threads <= 0)
        return 0;
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) !=
            cudaSuccess ||
        cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, probe_shared_kernel, threads,
                                                      bytes) != cudaSuccess ||
        per_sm < 1) {
        (void)cudaGetLastError();
        return 0;
    }
    probe_shared_kernel<<<per_sm * sms, threads, bytes>>>(bytes / sizeof(unsigned int),
                                                          probe_counts);
    if (cudaGetLastError() != cudaSuccess)
        return 0;
    return 1;
}

/* Queues the poison (no wait): 0 if every launch was refused. */
static int poison_queue(void)
{
    int device = 0, sms = 0, per_block = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CUDA_CHECK(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    /* The largest carveout of shared memory, then the largest block the GPU allows; several
     * blocks per SM, one resident at a time, so that every SM gets its turn. Where that is
     * refused, the 48 KiB every GPU allows; where even that is, nothing (the grader's checks
     * still run, without this help). */
    (void)cudaFuncSetAttribute((const void *)poison_shared_kernel,
                               cudaFuncAttributePreferredSharedMemoryCarveout,
                               cudaSharedmemCarveoutMaxShared);
    (void)cudaGetLastError();
    return poison_with(4 * sms, per_block) || poison_with(8 * sms, 48 * 1024);
}

/* 1 if the probe just run saw the poison in every word it read; prints a note if it did not
 * (`always`: prints the count either way). Synchronises. */
static int probe_report(int always)
{
    unsigned long long counts[2] = {0, 0};
    CUDA_CHECK(cudaMemcpy(counts, probe_counts, sizeof counts, cudaMemcpyDeviceToHost));
    const int seen = counts[1] > 0 && counts[0] == 0;
    if (always || !seen)
        printf("%s: the probe read %llu words of unwritten shared memory, %llu of them "
               "poisoned%s\n", seen ? "poisoned shared memory" : "note", counts[1],
               counts[1] - counts[0],
               seen ? "" : ": stale shared memory may go unseen in this run (the other checks "
                           "still apply)");
    return seen;
}

void tut_grader_poison_shared(void)
{
    int device = 0, per_block = 0;
    CUDA_CHECK(cudaGetDevice(&device));
    CUDA_CHECK(cudaDeviceGetAttribute(&per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    probe_reset();
    if (!poison_queue()) {
        printf("note: shared memory not poisoned (the launch was refused)\n");
        CUDA_CHECK(cudaDeviceSynchronize());
        return;
    }
    if (probe_with(256, (size_t)per_block) || probe_with(256, 48 * 1024)) {
        /* The whole of each SM's shared memory, as the poison left it. */
        (void)probe_report(0);
    }
    /* The poison again, the grader's last work before the student's code, whose kernel (with a
     * carveout of its own) then follows the poison itself. Found by experiment, not promised:
     * with the probe last, three corpus entries that read stale shared memory found zeros on an
     * H100 where the probe had just read the poison; with the poison last they found it. */
    if (!poison_queue())
        printf("note: shared memory not poisoned the second time (the launch was refused)\n");
    CUDA_CHECK(cudaDeviceSynchronize());
}

/* The kernel that the probe stands in for, while its run is pending. */
static int probe_pending;

void tut_grader_poison_shared_for(const void *kernel, int threads, size_t dynamic_shared)
{
    cudaFuncAttributes attr;
    if (!kernel || cudaFuncGetAttributes(&attr, kernel) != cudaSuccess) {
        (void)cudaGetLastError();
        tut_grader_poison_shared();
        return;
    }
    /* Nothing of the grader's left in the queue: the poison, the probe and the kernel follow
     * one another. */
    probe_reset();
    CUDA_CHECK(cudaDeviceSynchronize());
    /* One carveout for the poison, the probe and the kernel: a change of carveout between two
     * kernels may give the next one shared memory that the poison never reached. */
    if (cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                             cudaSharedmemCarveoutMaxShared) != cudaSuccess) {
        (void)cudaGetLastError();
        printf("note: the kernel's shared memory carveout could not be set\n");
    }
    probe_pending = 0;
    if (!poison_queue()) {
        printf("note: shared memory not poisoned (the launch was refused)\n");
        return;
    }
    /* The kernel's own shape, and nothing in between: the probe reads the poison as the kernel
     * will find it, and the kernel, launched next on the same stream, runs right after. */
    probe_pending = probe_with(threads, attr.sharedSizeBytes + dynamic_shared);
    if (!probe_pending)
        printf("note: the shared memory probe could not run\n");
}

int tut_grader_poison_shared_seen(void)
{
    if (!probe_pending)
        return 0;
    probe_pending = 0;
    return probe_report(1);
}
