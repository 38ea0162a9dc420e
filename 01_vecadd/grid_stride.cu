/* Chapter 01: the grid-stride loop.
 *
 * The document launches a grid of 2 blocks x 4 threads (8 threads) over 32 items. A kernel with
 * one item per thread covers only items 0..7; a grid-stride loop lets thread t take items t,
 * t + 8, t + 16, t + 24. With a grid of [1, 1] the loop becomes an ordinary serial loop: a handy
 * way to debug a kernel's logic.
 *
 * Each item records which thread handled it; the host checks that every item was handled
 * exactly by the thread the loop promises (item % threads_in_grid). */
#include <stdio.h>
#include <stdlib.h>

#include "tutorial.h"

/* One item per thread, as if the grid were big enough: items past the grid are never touched. */
__global__ void one_item_per_thread_kernel(int n, int *owner)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        owner[i] = i;
}

__global__ void grid_stride_print_kernel(int n, int *owner, int print)
{
    const int thread = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x; /* threads in the whole grid */
    for (int i = thread; i < n; i += stride) {
        if (print)
            printf("item %2d handled by thread %d (block %d, threadIdx %d)\n", i, thread,
                   blockIdx.x, threadIdx.x);
        owner[i] = thread;
    }
}

/* Counts items whose owner is not the expected thread (-1 expected means "nobody"). */
static long check_owners(const int *owner, int n, int threads, int covered_by_one_pass)
{
    long bad = 0;
    for (int i = 0; i < n; ++i) {
        const int expected = covered_by_one_pass ? (i < threads ? i : -1) : i % threads;
        if (owner[i] != expected) {
            if (bad < 5)
                printf("  item %d: owner %d, expected %d\n", i, owner[i], expected);
            ++bad;
        }
    }
    return bad;
}

int main(int argc, char **argv)
{
    unsigned long long n = 32, blocks = 2, threads = 4;
    int quiet = 0;
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &n, "number of items (default 32)", 1, 1 << 28, NULL},
        {"--blocks", TUT_OPT_SIZE, &blocks, "blocks in the grid (default 2)", 1, 65535, NULL},
        {"--threads", TUT_OPT_SIZE, &threads, "threads per block (default 4)", 1, 1024, NULL},
        {"--quiet", TUT_OPT_FLAG, &quiet, "do not print one line per item", 0, 0, NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "accepted for the tour; nothing is written", 0, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv, "Chapter 01: a grid-stride loop over more items than threads.",
                      opts, TUT_COUNT(opts));
    tut_select_device(TUT_NEED_NOTHING);
    if (threads > (unsigned long long)tut_current_device()->max_threads_per_block) {
        fprintf(stderr, "error: --threads %llu: a block of this GPU can have at most %d\n",
                threads, tut_current_device()->max_threads_per_block);
        return 2;
    }
    const int grid_threads = (int)(blocks * threads);
    printf("grid [%llu, %llu] = %d threads, %llu items\n", blocks, threads, grid_threads, n);

    const size_t bytes = tut_bytes(n, sizeof(int), "owners");
    int *owner = (int *)tut_host_alloc(bytes, "owners");
    int *d_owner = (int *)tut_device_alloc(bytes, "owners");

    /* Without the loop: only the first grid_threads items are handled. */
    CUDA_CHECK(cudaMemset(d_owner, 0xFF, bytes)); /* every int = -1: "nobody" */
    one_item_per_thread_kernel<<<(unsigned)blocks, (unsigned)threads>>>((int)n, d_owner);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(owner, d_owner, bytes, cudaMemcpyDeviceToHost));
    long handled = 0;
    for (unsigned long long i = 0; i < n; ++i)
        handled += owner[i] >= 0;
    printf("one item per thread: %ld of %llu items handled\n", handled, n);
    int ok = check_owners(owner, (int)n, grid_threads, 1) == 0;

    /* With the grid-stride loop: every item, each by thread item % grid_threads. */
    CUDA_CHECK(cudaMemset(d_owner, 0xFF, bytes));
    grid_stride_print_kernel<<<(unsigned)blocks, (unsigned)threads>>>((int)n, d_owner, !quiet);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(owner, d_owner, bytes, cudaMemcpyDeviceToHost)); /* also flushes printf */
    const long bad = check_owners(owner, (int)n, grid_threads, 0);
    printf("grid-stride loop: %lld of %llu items handled by the expected thread\n",
           (long long)n - bad, n);
    ok &= bad == 0;

    tut_device_free(d_owner);
    free(owner);
    return tut_finish(ok);
}
