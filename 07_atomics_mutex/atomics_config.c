/* Chapter 07's launch configurations from the GPU's limits: see atomics_config.h. */
#include "atomics_config.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static tut_kernel_use use_of(kernel_cost k, int threads, size_t dynamic_shared)
{
    tut_kernel_use use = {.threads = threads,
                          .regs_per_thread = k.regs,
                          .static_shared = k.static_shared,
                          .dynamic_shared = dynamic_shared};
    return use;
}

/* Resident blocks per SM, or 0 with the reason in why[] (why may be NULL). */
static int per_sm(const tut_device_info *dev, kernel_cost k, int threads, size_t dynamic_shared,
                  char *why, size_t len)
{
    char reason[192];
    const tut_kernel_use use = use_of(k, threads, dynamic_shared);
    if (!tut_kernel_fits(dev, use, reason, sizeof reason)) {
        if (why)
            snprintf(why, len, "%s", reason);
        return 0;
    }
    const int blocks = tut_blocks_per_sm(dev, use);
    if (blocks == 0 && why) /* fits a block, but not beside what the SM reserves */
        snprintf(why, len, "a block of %zu bytes of shared memory does not fit on a %.60s SM",
                 k.static_shared + dynamic_shared, dev->emulated[0] ? dev->emulated : dev->name);
    return blocks;
}

int atomics_wave_blocks(const tut_device_info *dev, kernel_cost k, int threads,
                        size_t dynamic_shared, char *why, size_t len)
{
    return per_sm(dev, k, threads, dynamic_shared, why, len) * dev->sm_count;
}

int histogram_safe_blocks(size_t n, int blocks)
{
    if (blocks < 1)
        blocks = 1;
    /* n / blocks < 2^31 keeps every 32-bit block counter far from overflow (a grid-stride share
     * exceeds n / blocks by less than one block's stride). */
    const size_t limit = (size_t)1 << 31;
    if (n / (size_t)blocks >= limit)
        blocks = (int)(n / limit + 1);
    return blocks;
}

size_t warp_private_shared_bytes(int copies)
{
    return (size_t)(WARP_PRIVATE_THREADS / 32) * (size_t)copies * (TEXT_BINS + 1) *
           sizeof(unsigned int);
}

int warp_private_default_copies(const tut_device_info *dev, kernel_cost k)
{
    int best_copies = 1, best = -1;
    for (int copies = 1; copies <= WARP_PRIVATE_MAX_DEFAULT_COPIES; copies *= 2) {
        const int blocks = per_sm(dev, k, WARP_PRIVATE_THREADS, warp_private_shared_bytes(copies),
                                  NULL, 0);
        if (blocks >= best) { /* ties go to more copies */
            best = blocks;
            best_copies = copies;
        }
    }
    return best_copies;
}

byte_pairs_config byte_pairs_choose(const tut_device_info *dev, kernel_cost wide,
                                    kernel_cost narrow)
{
    byte_pairs_config c;
    memset(&c, 0, sizeof c);
    char why[192];
    c.table_bytes = BYTE_PAIRS_WIDE_BYTES;
    c.blocks_per_sm = per_sm(dev, wide, BYTE_PAIRS_THREADS, c.table_bytes, why, sizeof why);
    if (c.blocks_per_sm > 0)
        return c;
    c.narrow = 1;
    c.table_bytes = BYTE_PAIRS_NARROW_BYTES;
    c.blocks_per_sm = per_sm(dev, narrow, BYTE_PAIRS_THREADS, c.table_bytes, c.note,
                             sizeof c.note);
    if (c.blocks_per_sm > 0)
        snprintf(c.note, sizeof c.note,
                 "byte_pairs: the table of 32-bit counters %.150s: using 16-bit counters (%zu "
                 "bytes), at most %d 16-byte loads per thread and block",
                 why, c.table_bytes, BYTE_PAIRS_NARROW_VECS);
    return c;
}

size_t byte_pairs_vecs_per_thread(size_t n, int blocks)
{
    const size_t threads = (size_t)(blocks > 0 ? blocks : 1) * BYTE_PAIRS_THREADS;
    return (n / 16 + threads - 1) / threads;
}

int byte_pairs_blocks(const byte_pairs_config *c, int sm_count, size_t n, int requested)
{
    int blocks = requested;
    if (blocks <= 0) {
        blocks = c->blocks_per_sm * sm_count;
        const size_t useful = n / BYTE_PAIRS_MIN_BYTES_PER_BLOCK; /* small texts: fuller blocks */
        if ((size_t)blocks > useful)
            blocks = useful > 0 ? (int)useful : 1;
    }
    if (c->narrow) {
        /* No thread may count more than BYTE_PAIRS_NARROW_VECS loads. */
        const size_t per_block = (size_t)BYTE_PAIRS_THREADS * BYTE_PAIRS_NARROW_VECS;
        const size_t least = (n / 16 + per_block - 1) / per_block;
        if ((size_t)blocks < least)
            blocks = (int)least;
    }
    return histogram_safe_blocks(n, blocks);
}

static tuning_entry *add_entry(tuning_entry *out, int *count, int max, const char *variant,
                               int copies, int blocks_per_sm, size_t shared)
{
    if (*count >= max)
        return NULL;
    tuning_entry *e = &out[(*count)++];
    memset(e, 0, sizeof *e);
    e->variant = variant;
    e->copies = copies;
    e->blocks_per_sm = blocks_per_sm;
    e->shared = shared;
    return e;
}

int histogram_tuning_plan(const tut_device_info *dev, const histogram_costs *costs,
                          tuning_entry *out, int max)
{
    int count = 0;
    static const int copies[] = {1, 2, 4, 8};
    for (int c = 0; c < (int)(sizeof copies / sizeof copies[0]); ++c) {
        const size_t shared = warp_private_shared_bytes(copies[c]);
        char why[192];
        const int resident = per_sm(dev, costs->warp_private, WARP_PRIVATE_THREADS, shared, why,
                                    sizeof why);
        if (resident == 0) {
            tuning_entry *e = add_entry(out, &count, max, "warp_private", copies[c], 0, shared);
            if (e)
                snprintf(e->skipped, sizeof e->skipped, "%s", why);
        }
        for (int k = 1; k <= resident; ++k)
            add_entry(out, &count, max, "warp_private", copies[c], k, shared);
    }

    static const char *const private_names[] = {"thread_private", "thread_private_atomic"};
    const kernel_cost private_costs[] = {costs->thread_private, costs->thread_private_atomic};
    for (int v = 0; v < 2; ++v) {
        char why[192];
        const int resident = per_sm(dev, private_costs[v], THREAD_PRIVATE_THREADS, 0, why,
                                    sizeof why);
        if (resident == 0) {
            tuning_entry *e = add_entry(out, &count, max, private_names[v],
                                        THREAD_PRIVATE_THREADS, 0, 0);
            if (e)
                snprintf(e->skipped, sizeof e->skipped, "%s", why);
        }
        for (int k = 1; k <= 2 * resident; ++k) /* beyond `resident`: a second wave */
            add_entry(out, &count, max, private_names[v], THREAD_PRIVATE_THREADS, k, 0);
    }

    const byte_pairs_config pairs =
        byte_pairs_choose(dev, costs->byte_pairs_wide, costs->byte_pairs_narrow);
    if (pairs.blocks_per_sm == 0) {
        tuning_entry *e = add_entry(out, &count, max, "byte_pairs", BYTE_PAIRS_THREADS, 0,
                                    pairs.table_bytes);
        if (e)
            snprintf(e->skipped, sizeof e->skipped, "%.190s", pairs.note);
    }
    /* The 16-bit table's grid is set by the text's length (byte_pairs_blocks): one entry. */
    const int first = pairs.narrow ? pairs.blocks_per_sm : 1;
    const int last = pairs.narrow ? pairs.blocks_per_sm : 2 * pairs.blocks_per_sm;
    for (int k = first; k <= last; ++k) {
        tuning_entry *e = add_entry(out, &count, max, "byte_pairs", BYTE_PAIRS_THREADS, k,
                                    pairs.table_bytes);
        if (e)
            e->narrow = pairs.narrow;
    }
    return count;
}

size_t histogram_cub_chunks(size_t n, size_t *chunk_bytes)
{
    if (n <= (size_t)INT_MAX) {
        *chunk_bytes = n;
        return n > 0 ? 1 : 0;
    }
    *chunk_bytes = HISTOGRAM_CUB_CHUNK;
    return (n + HISTOGRAM_CUB_CHUNK - 1) / HISTOGRAM_CUB_CHUNK;
}

dot_config dot_choose(const tut_device_info *dev, kernel_cost doc, kernel_cost fast,
                      int doc_blocks)
{
    dot_config c;
    memset(&c, 0, sizeof c);
    c.doc_blocks = doc_blocks;
    if (per_sm(dev, doc, DOT_DOC_THREADS, 0, c.why, sizeof c.why) == 0) {
        c.doc_blocks = 0;
        return c;
    }
    c.fast_per_sm = per_sm(dev, fast, DOT_FAST_THREADS, 0, c.why, sizeof c.why);
    c.fast_blocks = c.fast_per_sm * dev->sm_count;
    if (c.fast_per_sm == 0)
        return c;
    const int wanted[DOT_MAX_SWEEP] = {1, 2, 4, c.fast_per_sm, 2 * c.fast_per_sm};
    for (int i = 0; i < DOT_MAX_SWEEP; ++i) {
        /* Insert in order, once; more than two waves says nothing new. */
        const int k = wanted[i];
        int at = 0;
        while (at < c.nsweep && c.sweep[at] < k)
            ++at;
        if (k > 2 * c.fast_per_sm || (at < c.nsweep && c.sweep[at] == k))
            continue;
        memmove(&c.sweep[at + 1], &c.sweep[at], (size_t)(c.nsweep - at) * sizeof c.sweep[0]);
        c.sweep[at] = k;
        ++c.nsweep;
    }
    c.max_blocks = c.doc_blocks;
    if (2 * c.fast_blocks > c.max_blocks)
        c.max_blocks = 2 * c.fast_blocks;
    return c;
}

void race_default_grids(const tut_device_info *dev, race_grid out[RACE_GRIDS])
{
    const race_grid grids[RACE_GRIDS] = {
        {1, 1}, {10, 16}, {dev->sm_count, 256}, {1000, dev->max_threads_per_block}};
    memcpy(out, grids, sizeof grids);
}
