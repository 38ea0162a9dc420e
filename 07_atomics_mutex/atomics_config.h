/* Every launch configuration of chapter 07, chosen from the GPU's limits.
 *
 * The choices are plain C functions of numbers: a program passes its GPU's limits
 * (tut_current_device(), which TUT_EMULATE_GPU may shrink to a smaller GPU's) and what each
 * compiled kernel asks of an SM (registers, static shared memory: kernel_cost_of() below reads
 * them from the runtime). The CPU test atomics_config_test passes every GPU of
 * common/gpu_table.h instead, with the register counts the compiler reports, and checks that
 * each choice fits and is the sensible one. */
#ifndef ATOMICS_CONFIG_H
#define ATOMICS_CONFIG_H

#include <stddef.h>

#include "device.h"
#include "occupancy.h"
#include "text.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a compiled kernel asks of an SM besides its launch parameters. */
typedef struct {
    int regs;             /* registers per thread */
    size_t static_shared; /* bytes of __shared__ arrays */
} kernel_cost;

/* The cost of a compiled kernel, asked of the runtime (the programs' side; needs a GPU). */
static inline kernel_cost kernel_cost_of(const void *kernel)
{
    const tut_kernel_use use = tut_kernel_use_of(kernel, 1, 0);
    const kernel_cost k = {use.regs_per_thread, use.static_shared};
    return k;
}

/* Block sizes fixed by the kernels' layouts. */
#define SIMPLE_THREADS 128         /* the global and shared histograms' default (the document's) */
#define WARP_PRIVATE_THREADS 512
#define THREAD_PRIVATE_THREADS 256 /* a multiple of 128, for its counter layout */
#define BYTE_PAIRS_THREADS 512
#define READ_CEILING_THREADS 256
#define DOT_DOC_THREADS 256        /* the document's; its tree reduction needs a power of 2 */
#define DOT_FAST_THREADS 256
#define DOT_DOC_BLOCKS (32 * 20)   /* the document's grid */

/* Resident blocks per SM x SMs: one full wave of blocks of `threads` threads and
 * `dynamic_shared` bytes. 0 if one block does not fit, with the reason in why[]. */
int atomics_wave_blocks(const tut_device_info *dev, kernel_cost k, int threads,
                        size_t dynamic_shared, char *why, size_t len);

/* ---- the histograms ----------------------------------------------------------------------- */

/* Blocks keep 32-bit counters in shared memory, so no block may see 2^31 bytes: returns `blocks`
 * (at least 1), raised where needed so that each block's share of n stays below 2^31. */
int histogram_safe_blocks(size_t n, int blocks);

/* Sub-histograms per warp of the warp-private kernel: `copies` x 129 words per warp. */
#define WARP_PRIVATE_MAX_DEFAULT_COPIES 4
size_t warp_private_shared_bytes(int copies);

/* Its default: the most copies, up to 4, that still reach the most resident blocks per SM that
 * any number of copies reaches (on an H100, 4; on a T4, whose SM has 64 KiB, 2). */
int warp_private_default_copies(const tut_device_info *dev, kernel_cost k);

/* The byte-pair table: a counter for each pair (x, y) of neighbouring bytes, x and y in 0..128
 * (128 = "not ASCII"). 32-bit counters take 66,564 bytes, more than some GPUs give a block (a
 * T4: 65,536); there 16-bit counters, two to a word, take half, and the grid is raised so that no
 * block counts more than 15 16-byte loads per thread: 512 x 15 x 8 = 61,440 pairs, so no 16-bit
 * counter can overflow. */
#define BYTE_PAIRS_SIDE (TEXT_BINS + 1)
#define BYTE_PAIRS_COUNTERS (BYTE_PAIRS_SIDE * BYTE_PAIRS_SIDE)
#define BYTE_PAIRS_WIDE_BYTES ((size_t)BYTE_PAIRS_COUNTERS * 4)
#define BYTE_PAIRS_NARROW_WORDS ((BYTE_PAIRS_COUNTERS + 1) / 2)
#define BYTE_PAIRS_NARROW_BYTES ((size_t)BYTE_PAIRS_NARROW_WORDS * 4)
#define BYTE_PAIRS_NARROW_VECS 15
#define BYTE_PAIRS_MIN_BYTES_PER_BLOCK ((size_t)128 << 10) /* below it, table upkeep dominates */

typedef struct {
    int narrow;          /* 0: 32-bit counters; 1: 16-bit counters */
    size_t table_bytes;  /* the dynamic shared memory asked */
    int blocks_per_sm;   /* resident blocks; 0 if neither table fits (the reason in note[]) */
    char note[320];      /* why the 16-bit table, when it is chosen */
} byte_pairs_config;

/* The 32-bit table where a block may have it (the (emulated) opt-in limit), else the 16-bit one.
 * `wide` and `narrow` are the two kernels' costs. */
byte_pairs_config byte_pairs_choose(const tut_device_info *dev, kernel_cost wide,
                                    kernel_cost narrow);

/* Its grid for n bytes: `requested` if > 0, else one wave, fewer for a small text (each block at
 * least BYTE_PAIRS_MIN_BYTES_PER_BLOCK); then raised for the 16-bit table's bound and for
 * histogram_safe_blocks. */
int byte_pairs_blocks(const byte_pairs_config *c, int sm_count, size_t n, int requested);

/* The most 16-byte loads one thread of that grid counts: ceil(n / 16 / (blocks x 512)). */
size_t byte_pairs_vecs_per_thread(size_t n, int blocks);

/* The costs of the histogram kernels (filled by histogram_costs_read() in histogram.h). */
typedef struct {
    kernel_cost global, shared, warp_private, thread_private, thread_private_atomic,
        byte_pairs_wide, byte_pairs_narrow, read_ceiling;
} histogram_costs;

/* One entry of the fast kernels' tuning sweep. */
typedef struct {
    const char *variant; /* "warp_private", "thread_private", "thread_private_atomic",
                            "byte_pairs" */
    int copies;          /* warp_private: sub-histograms per warp; the others: threads */
    int blocks_per_sm;   /* the grid is blocks_per_sm x SMs */
    size_t shared;       /* dynamic shared memory of a block */
    int narrow;          /* byte_pairs: the 16-bit table */
    char skipped[192];   /* "" if it runs, else why not */
} tuning_entry;

#define TUNING_MAX_ENTRIES 160

/* The sweep on this GPU: warp-private with 1, 2, 4 and 8 copies at 1 .. its resident blocks per
 * SM; the two thread-private kernels and byte pairs at 1 .. twice theirs (the second wave
 * shows what more blocks than fit at once cost); byte pairs with the 16-bit table once, since
 * the text's length sets its grid. A number of copies whose block does not fit is one skipped
 * entry with the reason. Returns the number of entries written. */
int histogram_tuning_plan(const tut_device_info *dev, const histogram_costs *costs,
                          tuning_entry *out, int max);

/* CUB's DeviceHistogram takes an int sample count: a text of more than INT_MAX bytes is cut into
 * chunks of HISTOGRAM_CUB_CHUNK bytes. Returns the number of chunks (0 for no text) and sets
 * *chunk_bytes to the size of every chunk but the last. */
#define HISTOGRAM_CUB_CHUNK ((size_t)1 << 30)
size_t histogram_cub_chunks(size_t n, size_t *chunk_bytes);

/* ---- the dot product ---------------------------------------------------------------------- */

#define DOT_MAX_SWEEP 5
typedef struct {
    int doc_blocks;            /* the document's kernels' grid */
    int fast_per_sm;           /* resident blocks of the fast kernels; 0: they do not fit */
    int fast_blocks;           /* one wave of them */
    int sweep[DOT_MAX_SWEEP];  /* the grid sweep, in blocks per SM: 1, 2, 4, one wave, two
                                  waves, without repeats, ascending */
    int nsweep;
    int max_blocks;            /* the largest grid of any launch: the block-sum buffer's size */
    char why[192];             /* why a kernel does not fit */
} dot_config;

dot_config dot_choose(const tut_device_info *dev, kernel_cost doc, kernel_cost fast,
                      int doc_blocks);

/* ---- the race and the mutex --------------------------------------------------------------- */

typedef struct {
    int blocks, threads;
} race_grid;

#define RACE_GRIDS 4
/* The document's grids (1 x 1, 10 x 16), one block of 256 threads per SM, and 1000 blocks of
 * the largest block the GPU allows. */
void race_default_grids(const tut_device_info *dev, race_grid out[RACE_GRIDS]);

#ifdef __cplusplus
}
#endif

#endif
