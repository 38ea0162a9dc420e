/* Timing in interleaved rounds, until the figures are stable: the statistics and the rule to
 * stop, in plain C (the host tests check them without a GPU; timing.cu does the timing).
 *
 * In each round every configuration is timed once, in a new random order, so a slow moment of
 * the machine (clocks, the host, another process) falls on all of them alike rather than on the
 * one being timed. A configuration is stable when the median of its odd-numbered rounds and
 * the median of its even-numbered rounds agree within a tolerance: two interleaved halves of
 * one measurement give the same answer. Rounds continue, up to a limit, until every
 * configuration is stable. */
#ifndef STREAMS_ROUNDS_H
#define STREAMS_ROUNDS_H

#include "rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    double median, min, max; /* over the rounds, in ms */
    double halves_pct;       /* 100 |median(odd rounds) - median(even rounds)| / median */
    int rounds;
} round_stats;

/* The statistics of one configuration's samples, in round order (rounds >= 1). With a single
 * round there are no halves to compare: halves_pct is 100. */
round_stats round_stats_of(const double *samples, int rounds);

/* 1 when timing may stop after `rounds` rounds: at max_rounds, or from min_rounds on once every
 * configuration's halves agree within tolerance_pct. *worst (if not NULL) gets the index of the
 * configuration whose halves differ most. */
int rounds_done(const round_stats *stats, int count, int rounds, int min_rounds, int max_rounds,
                double tolerance_pct, int *worst);

/* order[0..count) = a random permutation of 0..count-1 (Fisher-Yates). */
void shuffled_order(int *order, int count, tut_rng *rng);

#ifdef __cplusplus
}
#endif

#endif
