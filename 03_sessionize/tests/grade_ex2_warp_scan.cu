/* Grader of ex03.2, the warp's max-scan with shuffles (3_scan_chained.cu: warp_max_scan), run
 * inside the chapter's single-pass chained scan (scan_chained_kernel.cuh): every label from
 * poisoned output against the CPU reference. Each input has a session that starts after event 0
 * and goes on within its row of 32 events, so a scan that does not carry the max along the warp
 * gives a wrong label; `lanes` puts a row's only start at every lane, lane 0 included; racecheck
 * and synccheck run the first case.
 * Speed: 3 x 10^7 events against a device-to-device copy of the 24 bytes per event the single
 * pass moves, timed the same way in the same run. On an H100 the chapter's chained scan reached
 * 74% of the copy at that size (docs/results/03_sessionize/throughput.csv); the bar, 45%, leaves
 * that a margin of 1.6 and fails a warp scan that is several times slower than five shuffles. */
#include "own_code.h"
#include "sessionize_config.h"
#include "sessionize_cpu.h"
#include "sessionize_grading.h"
#include "tutorial.h"

#define SPEED_EVENTS 30000000
#define SPEED_BAR TUT_SPEED_BAR_EX03_2 /* common/speed_bars.h */

static int check_crossing(tut_grader *g, int64_t (*draw)(tut_grader *g))
{
    graded_events e;
    if (!grading_events_such_that(g, draw, grading_continues_in_row, 32, &e))
        return 0;
    const int ok = grading_check_variant(&chained_scan_variant, &e);
    grading_events_free(&e);
    return ok;
}

static int64_t draw_prime(tut_grader *g) { return (int64_t)tut_grader_prime(g, 37, 30011); }
static int64_t draw_row(tut_grader *g) { return (int64_t)tut_grader_size(g, 3, 32); }
static int64_t draw_tile_edge(tut_grader *g)
{
    return (int64_t)tut_grader_tile_edge(g, CHAINED_TILE, 40);
}
static int64_t draw_large(tut_grader *g) { return (int64_t)tut_grader_odd(g, 1000001, 3000001); }

static int case_primes(tut_grader *g) { return check_crossing(g, draw_prime); }
static int case_one_row(tut_grader *g) { return check_crossing(g, draw_row); }
static int case_tile_edges(tut_grader *g) { return check_crossing(g, draw_tile_edge); }
static int case_large(tut_grader *g) { return check_crossing(g, draw_large); }

/* A few one-event sessions, then one session over many tiles: each row's labels come from the
 * scan of the row that holds the session's start. */
static int case_long_session(tut_grader *g)
{
    const int64_t n = (int64_t)tut_grader_odd(g, 3 * CHAINED_TILE, 300 * CHAINED_TILE);
    graded_events e = grading_events(g, EVENTS_SINGLE_SESSION, n, -1);
    const int ok = grading_check_variant(&chained_scan_variant, &e);
    grading_events_free(&e);
    return ok;
}

/* Rows of 32 events with one session start each, at a lane drawn from the seed, and row 1's at
 * lane 0, row 2's at lane 1, 2 or 3: each start's label must reach lane 31 of its row through
 * the scan. A scan that combines too few lanes (four steps, not five), or that never passes
 * lane 0 on, gives the lanes after the start the previous row's start. */
static int case_lanes(tut_grader *g)
{
    const int64_t rows = (int64_t)tut_grader_size(g, 8, 200);
    const int64_t n = rows * 32 + (int64_t)tut_grader_size(g, 0, 31);
    graded_events e;
    const size_t bytes = tut_bytes((size_t)n, sizeof(int64_t), "events");
    e.n = n;
    e.timeout = (int64_t)tut_grader_size(g, 1, 7200);
    e.user = (int64_t *)tut_host_alloc(bytes, "user ids");
    e.ts = (int64_t *)tut_host_alloc(bytes, "timestamps");
    e.want = (int64_t *)tut_host_alloc(bytes, "reference labels");
    int64_t start_lane = 0;
    for (int64_t i = 0; i < n; ++i) {
        const int64_t row = i / 32, lane = i % 32;
        if (lane == 0)
            start_lane = row == 1   ? 0
                         : row == 2 ? (int64_t)tut_grader_size(g, 1, 3)
                                    : (int64_t)tut_grader_size(g, 0, 31);
        e.user[i] = 1;
        const int64_t gap = lane == start_lane
                                ? e.timeout + 1 + (int64_t)tut_grader_size(g, 0, 100)
                                : (int64_t)tut_grader_size(g, 0, (size_t)e.timeout);
        e.ts[i] = i == 0 ? 0 : e.ts[i - 1] + gap;
    }
    sessionize_cpu(e.user, e.ts, (size_t)n, e.timeout, e.want);
    const int ok = grading_check_variant(&chained_scan_variant, &e);
    grading_events_free(&e);
    return ok;
}

/* One size both ways: mixed sessions, then one session over everything (every label the first
 * start's, carried along every row and tile). */
static int check_both_shapes(tut_grader *g, size_t n, void *ctx)
{
    (void)ctx;
    graded_events mixed = grading_events(g, EVENTS_MIXED, (int64_t)n, -1);
    int ok = grading_check_variant(&chained_scan_variant, &mixed);
    grading_events_free(&mixed);
    graded_events single = grading_events(g, EVENTS_SINGLE_SESSION, (int64_t)n, -1);
    ok &= grading_check_variant(&chained_scan_variant, &single);
    grading_events_free(&single);
    return ok;
}

/* The boundaries by design: a row of 32 (the warp), the block's CHAINED_TILE events, one wave of
 * tiles on this GPU (SMs x the blocks of CHAINED_THREADS an SM holds by its thread limit), their
 * multiples -1, 0, +1 and the smallest inputs. */
static int case_boundaries(tut_grader *g)
{
    const size_t wave = (size_t)g->dev->sm_count *
                        (size_t)(g->dev->max_threads_per_sm / CHAINED_THREADS) * CHAINED_TILE;
    const tut_width widths[] = {{"warp", (size_t)g->dev->warp_size},
                                {"tile", CHAINED_TILE}, {"wave of tiles", wave}};
    tut_boundary sizes[64];
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), wave + 1, sizes,
                                            TUT_COUNT(sizes));
    return tut_grader_run_boundaries(g, sizes, count, check_both_shapes, NULL);
}

static int speed(tut_grader *g, double bar)
{
    return grading_speed(g, &chained_scan_variant, SPEED_EVENTS, bar);
}

/* The shuffles written out, not a library's: cub::WarpScan (or cub::BlockScan) gives the same
 * labels at the same speed, with shuffles of its own, so no run can tell; the compiled code of
 * 3_scan_chained.cu can (own_code.h: CUB's files and names in it). The values first, so that
 * the skeleton fails. */
static int case_own_code(tut_grader *g)
{
    if (!check_crossing(g, draw_prime))
        return 0;
    return own_code_grade("3_scan_chained.cu",
                          "The exercise asks for the warp's max-scan by hand: five steps of "
                          "__shfl_up_sync in warp_max_scan, not cub::WarpScan or cub::BlockScan");
}

static const tut_grader_case cases[] = {
    {"primes", case_primes},
    {"one_row", case_one_row},
    {"tile_edges", case_tile_edges},
    {"long_session", case_long_session},
    {"large", case_large},
    {"lanes", case_lanes},
    {"boundaries", case_boundaries},
    {"own_code", case_own_code},
};

int main(int argc, char **argv)
{
    const tut_exercise ex = {.id = "ex03.2",
                             .title = "the warp max-scan with shuffles",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases),
                             .speed = speed,
                             .speed_bar = SPEED_BAR};
    return tut_exercise_main(argc, argv, &ex);
}
