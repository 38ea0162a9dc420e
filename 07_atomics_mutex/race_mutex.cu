/* atomics_race_mutex: the document's first lesson. blocks x threads threads each add one to the
 * same counter:
 *   race          x[0] = x[0] + 1: read, add, write; concurrent threads read the same old value
 *                 and their writes overwrite each other, so most increments are lost
 *   atomicAdd     the read-add-write done as one indivisible operation (in L2): exact
 *   mutex/thread  every thread takes a lock around the plain add (the document's 4.5): exact,
 *                 slow, and a deadlock on GPUs before Volta (see mutex.cuh)
 *   mutex/block   the block counts its threads, then one thread takes the lock: exact
 * The exact counters must equal blocks x threads; the race's count is printed, not checked. */
#include <stdio.h>

#include "mutex.cuh"
#include "tutorial.h"

__global__ void add_one_race(unsigned long long *x)
{
    x[0] = x[0] + 1; /* the data race, on purpose */
}

__global__ void add_one_atomic(unsigned long long *x)
{
    atomicAdd(x, 1ull);
}

__global__ void add_one_mutex_each_thread(unsigned long long *x, int *mutex)
{
    mutex_lock(mutex);
    x[0] = x[0] + 1; /* one thread at a time: the plain add is safe */
    mutex_unlock(mutex);
}

__global__ void add_one_mutex_per_block(unsigned long long *x, int *mutex)
{
    int ones = __syncthreads_count(1); /* the block's contribution: blockDim.x */
    if (threadIdx.x == 0) {
        mutex_lock(mutex);
        x[0] = x[0] + (unsigned long long)ones;
        mutex_unlock(mutex);
    }
}

typedef enum { RACE, ATOMIC, MUTEX_EACH_THREAD, MUTEX_PER_BLOCK } add_kind;
static const char *const kind_names[] = {"race (x = x + 1)", "atomicAdd", "mutex, every thread",
                                         "mutex, one per block"};

static unsigned long long run_add(add_kind kind, int blocks, int threads,
                                  unsigned long long *d_x, int *d_mutex)
{
    CUDA_CHECK(cudaMemset(d_x, 0, sizeof *d_x));
    CUDA_CHECK(cudaMemset(d_mutex, 0, sizeof *d_mutex));
    switch (kind) {
    case RACE: add_one_race<<<blocks, threads>>>(d_x); break;
    case ATOMIC: add_one_atomic<<<blocks, threads>>>(d_x); break;
    case MUTEX_EACH_THREAD: add_one_mutex_each_thread<<<blocks, threads>>>(d_x, d_mutex); break;
    case MUTEX_PER_BLOCK: add_one_mutex_per_block<<<blocks, threads>>>(d_x, d_mutex); break;
    }
    LAUNCH_CHECK();
    unsigned long long x = 0;
    CUDA_CHECK(cudaMemcpy(&x, d_x, sizeof x, cudaMemcpyDeviceToHost));
    return x;
}

static int run_grid(int blocks, int threads, unsigned long long *d_x, int *d_mutex)
{
    const unsigned long long want = (unsigned long long)blocks * threads;
    int ok = 1;
    printf("\n%d blocks x %d threads: expected %llu\n", blocks, threads, want);
    for (int k = RACE; k <= MUTEX_PER_BLOCK; ++k) {
        /* Every thread spinning on one lock costs a round trip to L2 per try: keep it small. */
        if (k == MUTEX_EACH_THREAD && want > 100000) {
            printf("  %-22s skipped above 100000 threads (each one queues for the lock)\n",
                   kind_names[k]);
            continue;
        }
        unsigned long long got = run_add((add_kind)k, blocks, threads, d_x, d_mutex);
        if (k == RACE) {
            /* Anything from 1 to `want` can come out; outside that range something else broke. */
            int sane = got >= 1 && got <= want;
            printf("  %-22s %llu  (%.1f%% of the increments survived)%s\n", kind_names[k], got,
                   100.0 * (double)got / (double)want, sane ? "" : "  IMPOSSIBLE");
            ok &= sane;
        } else {
            char label[64];
            snprintf(label, sizeof label, "  %-22s", kind_names[k]);
            ok &= tut_check_scalar(label, (double)got, (double)want, 0.0, 0.0);
        }
    }
    return ok;
}

int main(int argc, char **argv)
{
    unsigned long long blocks = 0, threads = 0;
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--blocks", TUT_OPT_SIZE, &blocks, "blocks (default: the document's 10, then more)", 1,
         1 << 20, NULL},
        {"--threads", TUT_OPT_SIZE, &threads, "threads per block (default 16)", 1, 1024, NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "accepted for the tour; nothing is written", 0, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "atomics_race_mutex: a data race, atomicAdd and a mutex on one counter",
                      opts, TUT_COUNT(opts));
    tut_select_device(7, 0, TUT_NEED_NOTHING);

    unsigned long long *d_x = (unsigned long long *)tut_device_alloc(sizeof *d_x, "counter");
    int *d_mutex = (int *)tut_device_alloc(sizeof *d_mutex, "mutex");
    int ok = 1;
    if (blocks || threads) {
        ok &= run_grid(blocks ? (int)blocks : 10, threads ? (int)threads : 16, d_x, d_mutex);
    } else {
        /* The document's grids, then ones where the race loses nearly everything. */
        static const int grids[][2] = {{1, 1}, {10, 16}, {132, 256}, {1000, 1024}};
        for (int g = 0; g < TUT_COUNT(grids); ++g)
            ok &= run_grid(grids[g][0], grids[g][1], d_x, d_mutex);
    }
    tut_device_free(d_x);
    tut_device_free(d_mutex);
    return tut_finish(ok);
}
