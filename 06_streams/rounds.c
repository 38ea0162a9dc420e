#include "rounds.h"

#include <math.h>
#include <stdlib.h>

#include "memory.h"
#include "timer.h"

/* The median of every step-th sample from `first`, without disturbing the samples. */
static double median_of(const double *samples, int rounds, int first, int step, double *scratch)
{
    int n = 0;
    for (int r = first; r < rounds; r += step)
        scratch[n++] = samples[r];
    return tut_median(scratch, n);
}

round_stats round_stats_of(const double *samples, int rounds)
{
    round_stats s;
    double *scratch = (double *)tut_host_alloc(sizeof(double) * (size_t)rounds, "rounds");
    s.rounds = rounds;
    s.median = median_of(samples, rounds, 0, 1, scratch);
    s.min = scratch[0]; /* median_of sorted them */
    s.max = scratch[rounds - 1];
    if (rounds < 2) {
        s.halves_pct = 100.0;
    } else {
        const double even = median_of(samples, rounds, 0, 2, scratch);
        const double odd = median_of(samples, rounds, 1, 2, scratch);
        s.halves_pct = s.median > 0 ? 100.0 * fabs(odd - even) / s.median : 100.0;
    }
    free(scratch);
    return s;
}

int rounds_done(const round_stats *stats, int count, int rounds, int min_rounds, int max_rounds,
                double tolerance_pct, int *worst)
{
    int w = 0;
    for (int i = 1; i < count; ++i)
        if (stats[i].halves_pct > stats[w].halves_pct)
            w = i;
    if (worst)
        *worst = w;
    if (rounds >= max_rounds)
        return 1;
    return rounds >= min_rounds && count > 0 && stats[w].halves_pct <= tolerance_pct;
}

void shuffled_order(int *order, int count, tut_rng *rng)
{
    for (int i = 0; i < count; ++i)
        order[i] = i;
    for (int i = count - 1; i > 0; --i) {
        const int j = (int)tut_rng_below(rng, (uint64_t)i + 1);
        const int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
}
