/* The benchmark: every variant, checked then timed, over sizes from 10^4 up, beside the two
 * numbers that frame it: a device-to-device memcpy moving the same bytes (the ceiling) and the
 * single-threaded CPU reference (the baseline). */
#ifndef SESSIONIZE_BENCH_H
#define SESSIONIZE_BENCH_H

#include <stdint.h>

#include "sessionize_gpu.h"

typedef struct {
    const session_variant *const *variants;
    int variant_count;
    int64_t timeout;
    uint64_t seed;
    int64_t max_n;
    int max_n_is_default; /* 1: a smaller size may replace it where it does not fit */
    const char *outdir; /* NULL: print only */
} bench_config;

/* Returns 1 when every variant was right at every size. */
int run_benchmark(const bench_config *cfg);

#endif
