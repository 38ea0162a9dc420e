/* atomics_race_mutex: the document's first lesson. blocks x threads threads each add one to the
 * same counter:
 *   race          x[0] = x[0] + 1: read, add, write; concurrent threads read the same old value
 *                 and their writes overwrite each other, so most increments are lost
 *   atomicAdd     the read-add-write done as one indivisible operation (in L2): exact
 *   mutex/thread  every thread takes a lock around the plain add (the document's 4.5): exact,
 *                 slow, and a deadlock on GPUs before Volta (see mutex.cuh)
 *   mutex/block   the block counts its threads, then one thread takes the lock (--rounds
 *                 times: a longer test of the lock): exact
 * The exact counters must equal blocks x threads (x rounds); the race's count is printed and
 * written to race.csv with --outdir, not checked beyond 1 <= count <= blocks x threads. */
#include <stdio.h>

#include "atomics_config.h"
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

__global__ void add_one_mutex_per_block(unsigned long long *x, int *mutex, int rounds)
{
    int ones = __syncthreads_count(1); /* the block's contribution: blockDim.x */
    if (threadIdx.x == 0) {
        for (int r = 0; r < rounds; ++r) {
            mutex_lock(mutex);
            x[0] = x[0] + (unsigned long long)ones;
            mutex_unlock(mutex);
        }
    }
}

typedef enum { RACE, ATOMIC, MUTEX_EACH_THREAD, MUTEX_PER_BLOCK } add_kind;
static const char *const kind_names[] = {"race (x = x + 1)", "atomicAdd", "mutex, every thread",
                                         "mutex, one per block"};

static unsigned long long run_add(add_kind kind, int blocks, int threads, int rounds,
                                  unsigned long long *d_x, int *d_mutex)
{
    CUDA_CHECK(cudaMemset(d_x, 0, sizeof *d_x));
    CUDA_CHECK(cudaMemset(d_mutex, 0, sizeof *d_mutex));
    switch (kind) {
    case RACE: add_one_race<<<blocks, threads>>>(d_x); break;
    case ATOMIC: add_one_atomic<<<blocks, threads>>>(d_x); break;
    case MUTEX_EACH_THREAD: add_one_mutex_each_thread<<<blocks, threads>>>(d_x, d_mutex); break;
    case MUTEX_PER_BLOCK:
        add_one_mutex_per_block<<<blocks, threads>>>(d_x, d_mutex, rounds);
        break;
    }
    LAUNCH_CHECK();
    unsigned long long x = 0;
    CUDA_CHECK(cudaMemcpy(&x, d_x, sizeof x, cudaMemcpyDeviceToHost));
    return x;
}

static int run_grid(int blocks, int threads, int rounds, unsigned long long *d_x, int *d_mutex,
                    tut_csv *csv)
{
    const unsigned long long want = (unsigned long long)blocks * threads;
    int ok = 1;
    char fields[4][32] = {"", "", "", ""}; /* the CSV's columns; empty where skipped */
    printf("\n%d blocks x %d threads: expected %llu\n", blocks, threads, want);
    for (int k = RACE; k <= MUTEX_PER_BLOCK; ++k) {
        /* Every thread spinning on one lock costs a round trip to L2 per try: keep it small. */
        if (k == MUTEX_EACH_THREAD && want > 100000) {
            printf("  %-22s skipped above 100000 threads (each one queues for the lock)\n",
                   kind_names[k]);
            continue;
        }
        unsigned long long got = run_add((add_kind)k, blocks, threads, rounds, d_x, d_mutex);
        snprintf(fields[k], sizeof fields[k], "%llu", got);
        if (k == MUTEX_PER_BLOCK && rounds > 1) {
            char label[64];
            snprintf(label, sizeof label, "  %-22s", "mutex, per block, x rounds");
            ok &= tut_check_scalar(label, (double)got, (double)want * rounds, 0.0, 0.0);
        } else if (k == RACE) {
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
    tut_csv_row(csv, "%d,%d,%d,%llu,%s,%s,%s,%s", blocks, threads, rounds, want, fields[RACE],
                fields[ATOMIC], fields[MUTEX_EACH_THREAD], fields[MUTEX_PER_BLOCK]);
    return ok;
}

int main(int argc, char **argv)
{
    unsigned long long blocks = 0, threads = 0, rounds = 1;
    const char *outdir = NULL;
    const tut_option opts[] = {
        {"--blocks", TUT_OPT_SIZE, &blocks, "blocks (default: the document's 10, then more)", 1,
         1 << 20, NULL},
        {"--threads", TUT_OPT_SIZE, &threads, "threads per block (default 16)", 1, 1024, NULL},
        {"--rounds", TUT_OPT_SIZE, &rounds,
         "times each block's one thread takes the lock (mutex, one per block)", 1, 10000, NULL},
        {"--outdir", TUT_OPT_STRING, &outdir, "write race.csv (the counts) into this folder", 1,
         0, NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "atomics_race_mutex: a data race, atomicAdd and a mutex on one counter",
                      opts, TUT_COUNT(opts));
    tut_select_device(TUT_NEED_NOTHING);
    const tut_device_info *dev = tut_current_device();
    if (threads > (unsigned long long)dev->max_threads_per_block) {
        fprintf(stderr, "error: --threads %llu: a block of this GPU has at most %d threads\n",
                threads, dev->max_threads_per_block);
        return 2;
    }

    unsigned long long *d_x = (unsigned long long *)tut_device_alloc(sizeof *d_x, "counter");
    int *d_mutex = (int *)tut_device_alloc(sizeof *d_mutex, "mutex");
    tut_csv *csv = tut_csv_open(outdir, "race.csv",
                                "blocks,threads,rounds,expected,race,atomic,mutex_each_thread,"
                                "mutex_per_block");
    tut_csv_comment(csv, "the counter after blocks x threads threads each added one (the mutex "
                         "per block: `rounds` times); empty: skipped");
    int ok = 1;
    if (blocks || threads) {
        ok &= run_grid(blocks ? (int)blocks : 10, threads ? (int)threads : 16, (int)rounds, d_x,
                       d_mutex, csv);
    } else {
        /* The document's grids, then ones where the race loses nearly everything: one block of
         * 256 per SM, then 1000 of the largest block (race_default_grids). */
        race_grid grids[RACE_GRIDS];
        race_default_grids(dev, grids);
        for (int g = 0; g < RACE_GRIDS; ++g)
            ok &= run_grid(grids[g].blocks, grids[g].threads, (int)rounds, d_x, d_mutex, csv);
    }
    tut_csv_close(csv);
    tut_device_free(d_x);
    tut_device_free(d_mutex);
    return tut_finish(ok);
}
