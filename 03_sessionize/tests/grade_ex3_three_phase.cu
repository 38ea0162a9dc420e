/* Grader of ex03.3, three passes with a carry across tiles (scan_three_phase.cu: phases 1 and 2,
 * tile_latest_kernel and tile_carry_kernel): every label from poisoned output and scratch
 * against the CPU reference. Every input spans two tiles or more and has a session that starts
 * after event 0 in one tile and goes on into a later one: without the carry its labels are
 * wrong. `many_tiles` has more tiles than one round of phase 2 (CARRY_THREADS x CARRY_ITEMS);
 * `carry_rounds` runs phase 2 alone over several rounds. The sanitizers run the first case and
 * `carry_rounds`.
 * Speed: 3 x 10^7 events against a device-to-device copy of the 24 bytes per event a single
 * pass moves. Three passes move 40 bytes per event, so 60% is the most they can reach; the bar,
 * 25%, is what a sound solution clears with room to spare (0.42 in the grade report of the
 * solutions on an H100, docs/results/gpu-check/grade-solutions.h100.log). */
#include "scan_three_phase.h"
#include "sessionize_cpu.h"
#include "sessionize_grading.h"
#include "tutorial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEED_EVENTS 30000000
#define SPEED_BAR TUT_SPEED_BAR_EX03_3 /* common/speed_bars.h */

static int check_crossing(tut_grader *g, int64_t (*draw)(tut_grader *g))
{
    graded_events e;
    if (!grading_events_such_that(g, draw, grading_crosses_rows, THREE_PHASE_TILE, &e))
        return 0;
    const int ok = grading_check_variant(&three_phase_variant, &e);
    grading_events_free(&e);
    return ok;
}

static int64_t draw_two_tiles(tut_grader *g)
{
    return (int64_t)tut_grader_size(g, THREE_PHASE_TILE + 1, 3 * THREE_PHASE_TILE);
}
/* (k + 1) tiles, one event less or one more: always two tiles or more. */
static int64_t draw_tile_edge(tut_grader *g)
{
    return (int64_t)tut_grader_tile_edge(g, THREE_PHASE_TILE, 40) + THREE_PHASE_TILE;
}
static int64_t draw_prime(tut_grader *g)
{
    return (int64_t)tut_grader_prime(g, 2 * THREE_PHASE_TILE + 1, 1000003);
}
static int64_t draw_many_tiles(tut_grader *g)
{
    const size_t round = (size_t)CARRY_THREADS * CARRY_ITEMS * THREE_PHASE_TILE;
    return (int64_t)tut_grader_odd(g, round + 1, round + round / 4);
}

static int case_two_tiles(tut_grader *g) { return check_crossing(g, draw_two_tiles); }
static int case_tile_edges(tut_grader *g) { return check_crossing(g, draw_tile_edge); }
static int case_primes(tut_grader *g) { return check_crossing(g, draw_prime); }
static int case_many_tiles(tut_grader *g) { return check_crossing(g, draw_many_tiles); }

/* A few one-event sessions, then one session over many tiles: every tile's carry is its start. */
static int case_long_session(tut_grader *g)
{
    const int64_t n = (int64_t)tut_grader_odd(g, 3 * THREE_PHASE_TILE, 300 * THREE_PHASE_TILE);
    graded_events e = grading_events(g, EVENTS_SINGLE_SESSION, n, -1);
    const int ok = grading_check_variant(&three_phase_variant, &e);
    grading_events_free(&e);
    return ok;
}

/* Phase 2 alone, over 2 to 4 rounds of CARRY_THREADS x CARRY_ITEMS tiles (about 16 million
 * events' worth, as a few kilobytes): tile maxima drawn from the seed, sparse, so that long runs
 * of tiles without a start cross the rounds' edges (the first tile of rounds 1 and 2 has none);
 * every carry against the CPU's. The sanitizers run it too: reusing the scan's shared memory in
 * the next round before every thread is done with it is a race that only a second round has
 * (tile_carry_kernel: scan_three_phase.h). */

/* Phase 2 alone on `tiles` tile maxima drawn from the seed (sparse starts, none at the first
 * tile of a round), every carry against the CPU's. */
static int check_carries(tut_grader *g, int64_t tiles)
{
    const int64_t round = (int64_t)CARRY_THREADS * CARRY_ITEMS;
    const size_t bytes = tut_bytes((size_t)tiles, sizeof(int64_t), "tiles");
    int64_t *latest = (int64_t *)tut_host_alloc(bytes, "tile maxima");
    int64_t *want = (int64_t *)tut_host_alloc(bytes, "carries");
    int64_t *got = (int64_t *)tut_host_alloc(bytes, "carries");
    int64_t before = 0;
    for (int64_t t = 0; t < tiles; ++t) {
        const int start = t % round != 0 && tut_grader_size(g, 0, 63) == 0;
        latest[t] = start ? t * THREE_PHASE_TILE + (int64_t)tut_grader_size(g, 1, THREE_PHASE_TILE - 1)
                          : 0;
        want[t] = before;
        before = latest[t] > before ? latest[t] : before;
    }
    printf("phase 2 alone: %lld tiles (%lld rounds of %lld)\n", (long long)tiles,
           (long long)((tiles + round - 1) / round), (long long)round);
    int64_t *d_latest = (int64_t *)tut_device_alloc(bytes, "tile maxima");
    int64_t *d_carry = (int64_t *)tut_device_alloc(bytes, "carries");
    CUDA_CHECK(cudaMemcpy(d_latest, latest, bytes, cudaMemcpyHostToDevice));
    tut_grader_poison(d_carry, bytes);
    tut_grader_poison_shared();
    tile_carry_kernel<<<1, CARRY_THREADS>>>(d_latest, tiles, d_carry);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(got, d_carry, bytes, cudaMemcpyDeviceToHost));
    const int ok = tut_check_i64("carries", got, want, (size_t)tiles);
    tut_device_free(d_latest);
    tut_device_free(d_carry);
    free(latest);
    free(want);
    free(got);
    return ok;
}

static int case_carry_rounds(tut_grader *g)
{
    const int64_t round = (int64_t)CARRY_THREADS * CARRY_ITEMS;
    const int64_t tiles =
        (int64_t)tut_grader_size(g, 2, 4) * round + (int64_t)tut_grader_size(g, 0, 2) - 1;
    return check_carries(g, tiles);
}

static int check_carries_size(tut_grader *g, size_t tiles, void *ctx)
{
    (void)ctx;
    return check_carries(g, (int64_t)tiles);
}

/* Every size both ways: mixed sessions, then one session over everything. */
static int check_both_shapes(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    graded_events mixed = grading_events(g, EVENTS_MIXED, (int64_t)n, -1);
    int ok = grading_check_variant(&three_phase_variant, &mixed);
    grading_events_free(&mixed);
    graded_events single = grading_events(g, EVENTS_SINGLE_SESSION, (int64_t)n, -1);
    ok &= grading_check_variant(&three_phase_variant, &single);
    grading_events_free(&single);
    return ok;
}

/* The boundaries by design. Events: the warp, a thread's THREE_PHASE_ITEMS, the tile, their
 * multiples -1, 0, +1 up to four tiles, the smallest inputs (one tile, partly empty). Phase 2
 * alone, in tiles: the warp, CARRY_THREADS, one round (CARRY_THREADS x CARRY_ITEMS tiles), their
 * multiples -1, 0, +1 up to two rounds, every residue mod CARRY_ITEMS. */
static int case_boundaries(tut_grader *g)
{
    const tut_width event_widths[] = {{"warp", (size_t)g->dev->warp_size},
                                      {"thread items", THREE_PHASE_ITEMS},
                                      {"tile", THREE_PHASE_TILE}};
    tut_boundary sizes[96];
    size_t count = tut_boundary_sizes(event_widths, TUT_COUNT(event_widths),
                                      4 * (size_t)THREE_PHASE_TILE + 1, sizes, TUT_COUNT(sizes));
    int ok = tut_grader_run_boundaries(g, sizes, count, check_both_shapes, NULL);
    const size_t round = (size_t)CARRY_THREADS * CARRY_ITEMS;
    const tut_width tile_widths[] = {{"carry items", CARRY_ITEMS},
                                     {"carry warp tiles", (size_t)g->dev->warp_size},
                                     {"carry threads", CARRY_THREADS},
                                     {"carry round", round}};
    count = tut_boundary_sizes(tile_widths, TUT_COUNT(tile_widths), 2 * round + 1, sizes,
                               TUT_COUNT(sizes));
    for (size_t i = 0; i < count; ++i) {
        char name[80];
        snprintf(name, sizeof name, "phase 2 tiles %s", sizes[i].name);
        memcpy(sizes[i].name, name, sizeof sizes[i].name - 1);
        sizes[i].name[sizeof sizes[i].name - 1] = '\0';
    }
    ok &= tut_grader_run_boundaries(g, sizes, count, check_carries_size, NULL);
    return ok;
}

static int speed(tut_grader *g, double bar)
{
    return grading_speed(g, &three_phase_variant, SPEED_EVENTS, bar);
}

static const tut_grader_case cases[] = {
    {"two_tiles", case_two_tiles},
    {"tile_edges", case_tile_edges},
    {"primes", case_primes},
    {"long_session", case_long_session},
    {"many_tiles", case_many_tiles},
    {"carry_rounds", case_carry_rounds},
    {"boundaries", case_boundaries},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex03.3",
                             .title = "three passes with a carry across tiles",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases),
                             .speed = speed,
                             .speed_bar = SPEED_BAR};
    return tut_exercise_main(argc, argv, &ex);
}
