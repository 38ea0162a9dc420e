/* CPU tests, no GPU needed: the reference on hand-made cases with known answers, the boundary
 * rule at the edges of int64, the stable sort, the CSV reader's answers to good and bad files,
 * and the inputs of the GPU tests (that they hold the boundaries the kernels can get wrong).
 *
 *   test_sessionize_cpu <data folder> [reference|csv|inputs]   (all groups when none is named)
 *
 * Exit 0 when every case passes, 1 otherwise. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_csv.h"
#include "session_boundary.h"
#include "sessionize_config.h"
#include "sessionize_cpu.h"
#include "tutorial.h"

#define MAX_CASE 16

static int failures = 0;

static void expect_labels(const char *name, const int64_t *user, const int64_t *ts, size_t n,
                          int64_t timeout, const int64_t *want)
{
    int64_t got[MAX_CASE];
    sessionize_cpu(user, ts, n, timeout, got);
    if (!tut_check_i64(name, got, want, n))
        ++failures;
}

static void expect_true(const char *name, int condition)
{
    printf("check %s: %s\n", name, condition ? "ok" : "MISMATCH");
    if (!condition)
        ++failures;
}

static void reference_cases(void)
{
    {
        const int64_t u[] = {42}, t[] = {-5}, want[] = {0};
        expect_labels("one event", u, t, 1, 3600, want);
    }
    {
        const int64_t u[] = {1, 1, 1, 1}, t[] = {0, 100, 3700, 7300}, want[] = {0, 0, 0, 0};
        expect_labels("one user, one session", u, t, 4, 3600, want);
    }
    {
        const int64_t u[] = {1, 2, 3, 3, 3}, t[] = {0, 0, 0, 3601, 7203};
        const int64_t want[] = {0, 1, 2, 3, 4};
        expect_labels("every event its own session", u, t, 5, 3600, want);
    }
    {
        const int64_t u[] = {1, 1, 1, 2, 2}, t[] = {5, 5, 5, 5, 5}, want[] = {0, 0, 0, 3, 3};
        expect_labels("equal timestamps", u, t, 5, 3600, want);
    }
    {
        /* A gap of exactly the timeout stays (the rule is '>'); one more starts a session. */
        const int64_t u[] = {1, 1, 1, 1}, t[] = {0, 3600, 7201, 10801}, want[] = {0, 0, 2, 2};
        expect_labels("gap of exactly the timeout", u, t, 4, 3600, want);
    }
    {
        const int64_t u[] = {-7, -7, -7, -1}, t[] = {-10000, -9000, 0, -5};
        const int64_t want[] = {0, 0, 2, 3};
        expect_labels("negative ids and timestamps", u, t, 4, 3600, want);
    }
    {
        /* INT64_MIN to INT64_MAX is a gap of 2^64 - 1: a plain subtraction wraps to -1. */
        const int64_t u[] = {1, 1, 1, 1};
        const int64_t t[] = {INT64_MIN, INT64_MAX - 1, INT64_MAX, INT64_MIN};
        const int64_t want[] = {0, 1, 1, 1};
        expect_labels("timestamps at the ends of int64", u, t, 4, 3600, want);
    }
    {
        const int64_t u[] = {1, 1, 1, 1}, t[] = {10, 10, 11, 11}, want[] = {0, 0, 2, 2};
        expect_labels("timeout 0", u, t, 4, 0, want);
    }
    {
        /* Time going backwards (the document's user 4) is not a timeout. */
        const int64_t u[] = {4, 4, 4}, t[] = {50001, 15000, 20000}, want[] = {0, 0, 2};
        expect_labels("backwards step", u, t, 3, 3600, want);
    }
    {
        int64_t got[DOC_EVENT_COUNT];
        sessionize_cpu(doc_user, doc_ts, DOC_EVENT_COUNT, DOC_TIMEOUT, got);
        if (!tut_check_i64("the document's 28 events", got, doc_expected_label,
                           DOC_EVENT_COUNT))
            ++failures;
    }
    expect_true("gap_exceeds(INT64_MIN, INT64_MAX, INT64_MAX - 1)",
                gap_exceeds(INT64_MIN, INT64_MAX, INT64_MAX - 1));
    expect_true("gap_exceeds(INT64_MIN, INT64_MAX, INT64_MAX): 2^64-1 > 2^63-1",
                gap_exceeds(INT64_MIN, INT64_MAX, INT64_MAX));
    expect_true("!gap_exceeds(0, INT64_MAX, INT64_MAX)", !gap_exceeds(0, INT64_MAX, INT64_MAX));
    expect_true("!gap_exceeds(INT64_MAX, INT64_MIN, 0)", !gap_exceeds(INT64_MAX, INT64_MIN, 0));
}

static void sort_cases(void)
{
    int64_t u[] = {9, 9, 2, 9, 2, 2}, t[] = {30, 10, 5000, 20, 1, 1}, order[6];
    const int64_t want_u[] = {2, 2, 2, 9, 9, 9}, want_t[] = {1, 1, 5000, 10, 20, 30};
    const int64_t want_order[] = {4, 5, 2, 1, 3, 0}; /* rows 4 and 5 tie: input order kept */
    expect_true("first_unsorted_cpu finds row 1", first_unsorted_cpu(u, t, 6) == 1);
    sort_events_cpu(u, t, 6, order);
    int ok = tut_check_i64("sorted users", u, want_u, 6);
    ok &= tut_check_i64("sorted timestamps", t, want_t, 6);
    ok &= tut_check_i64("stable order", order, want_order, 6);
    if (!ok)
        ++failures;
    expect_true("sorted events are sorted", first_unsorted_cpu(u, t, 6) == 6);

    /* Random events from the generator come out sorted; shuffled and re-sorted they match. */
    enum { N = 100003 };
    int64_t *user = malloc(N * sizeof *user), *ts = malloc(N * sizeof *ts);
    int64_t *user2 = malloc(N * sizeof *user2), *ts2 = malloc(N * sizeof *ts2);
    if (!user || !ts || !user2 || !ts2) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    generate_events(TUT_DEFAULT_SEED, EVENTS_MIXED, 3600, N, user, ts);
    expect_true("generated events are sorted", first_unsorted_cpu(user, ts, N) == N);
    memcpy(user2, user, N * sizeof *user);
    memcpy(ts2, ts, N * sizeof *ts);
    shuffle_events(1, user2, ts2, N);
    expect_true("shuffled events are not sorted", first_unsorted_cpu(user2, ts2, N) < N);
    sort_events_cpu(user2, ts2, N, NULL);
    ok = tut_check_i64("re-sorted users", user2, user, N);
    ok &= tut_check_i64("re-sorted timestamps", ts2, ts, N);
    if (!ok)
        ++failures;
    free(user);
    free(ts);
    free(user2);
    free(ts2);
}

/* A bad file must fail with its line number and the problem in the message. */
static void expect_csv_error(const char *dir, const char *file, const char *fragment)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    event_table t;
    const int rc = read_events_csv(path, &t, err, sizeof err);
    const int ok = rc != 0 && strstr(err, fragment) != NULL;
    printf("check CSV %s: %s (%s)\n", file, ok ? "ok" : "MISMATCH", rc ? err : "accepted");
    if (!ok)
        ++failures;
    if (rc == 0)
        free_event_table(&t);
}

static void csv_cases(const char *dir)
{
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/document_events.csv", dir);
    event_table t;
    if (read_events_csv(path, &t, err, sizeof err) != 0) {
        printf("check CSV document_events.csv: MISMATCH (%s)\n", err);
        ++failures;
    } else {
        int ok = t.n == DOC_EVENT_COUNT;
        ok = ok && tut_check_i64("CSV user_id", t.user, doc_user, DOC_EVENT_COUNT);
        ok = ok && tut_check_i64("CSV timestamp", t.ts, doc_ts, DOC_EVENT_COUNT);
        if (!ok)
            ++failures;
        free_event_table(&t);
    }
    expect_csv_error(dir, "bad_not_a_number.csv", ":4: timestamp is not an integer: 'abc'");
    expect_csv_error(dir, "bad_missing_column.csv", ":3: expected 2 columns");
    expect_csv_error(dir, "bad_extra_column.csv", ":2: expected 2 columns (user_id,timestamp), found more");
    expect_csv_error(dir, "bad_out_of_range.csv", ":2: timestamp is outside the int64 range");
    expect_csv_error(dir, "bad_empty.csv", ":1: the file is empty");
    expect_csv_error(dir, "bad_header_only.csv", ":2: no events after the header");
    expect_csv_error(dir, "bad_header.csv", ":1: expected the header 'user_id,timestamp'");
    expect_csv_error(dir, "no_such_file.csv", "cannot open");

    /* Spreadsheets write "CSV UTF-8" with a byte-order mark (EF BB BF) and CRLF line ends. */
    snprintf(path, sizeof path, "%s/bom_events.csv", dir);
    if (read_events_csv(path, &t, err, sizeof err) != 0) {
        printf("check CSV bom_events.csv: MISMATCH (%s)\n", err);
        ++failures;
    } else {
        const int64_t want_u[] = {5, 5, 5, 6}, want_t[] = {100, 3700, 7301, 1};
        int ok = t.n == 4;
        ok = ok && tut_check_i64("BOM CSV user_id", t.user, want_u, 4);
        ok = ok && tut_check_i64("BOM CSV timestamp", t.ts, want_t, 4);
        printf("check CSV bom_events.csv (byte-order mark, CRLF): %s\n", ok ? "ok" : "MISMATCH");
        if (!ok)
            ++failures;
        free_event_table(&t);
    }
    /* A mark anywhere but at the start of the file is still an error. */
    expect_csv_error(dir, "bad_bom_in_row.csv", ":3: user_id is not an integer");
}

/* ---- The GPU tests' inputs ------------------------------------------------------------------
 * A GPU test can only catch a bug its input exercises. These are the random inputs the GPU tests
 * label (CMakeLists.txt: random.n*, timeout0, unsorted.shuffled, single_session.*), made here
 * with the same seed; each must hold the boundaries that the bugs it is meant to catch need. */
typedef struct {
    size_t sessions;
    int last_starts;      /* the last event starts a session */
    int gap_at_timeout;   /* a gap of exactly the timeout (> 0) inside a session */
    int equal_times;      /* two events of one user at the same time */
    int start_in_row;     /* an event whose session started earlier in its row of 32: an empty
                           * warp scan (the exercise skeleton) labels it wrongly */
    int start_at_warp;    /* a start at a multiple of 256 (a warp's first event), not event 0 */
    int tile_head_carry;  /* a tile whose first events belong to a session of the tile before */
    int64_t carried;      /* the largest label a tile takes from before it (0: none) */
} input_facts;

static input_facts facts_of(const int64_t *user, const int64_t *ts, size_t n, int64_t timeout)
{
    input_facts f = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t latest = 0;      /* latest start so far */
    int64_t prev_tile_start = 0; /* did the tile before this one hold a start (> 0)? */
    int64_t tile_start = 0;
    for (size_t i = 0; i < n; ++i) {
        const int start = session_starts_at(user, ts, (int64_t)i, timeout);
        if (i % CHAINED_TILE == 0) {
            prev_tile_start = tile_start;
            tile_start = 0;
            if (i > 0 && !start && prev_tile_start)
                f.tile_head_carry = 1;
            if (i > 0 && !start && latest > f.carried)
                f.carried = latest;
        }
        if (start) {
            ++f.sessions;
            latest = (int64_t)i;
            if (i > 0)
                tile_start = 1;
            if (i > 0 && i % 256 == 0)
                f.start_at_warp = 1;
        } else {
            if (latest > 0 && (size_t)latest / 32 == i / 32)
                f.start_in_row = 1;
            if (user[i] == user[i - 1] && ts[i] == ts[i - 1])
                f.equal_times = 1;
            if (timeout > 0 && user[i] == user[i - 1] && ts[i] - ts[i - 1] == timeout)
                f.gap_at_timeout = 1;
        }
        if (i == n - 1)
            f.last_starts = start;
    }
    return f;
}

static void expect_fact(const char *input, const char *fact, int holds)
{
    char name[160];
    snprintf(name, sizeof name, "%s: %s", input, fact);
    expect_true(name, holds);
}

static void input_cases(void)
{
    enum { MAX_N = 9999991 };
    int64_t *user = malloc(MAX_N * sizeof *user), *ts = malloc(MAX_N * sizeof *ts);
    if (!user || !ts) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    static const struct {
        const char *test;
        size_t n;
        int64_t timeout;
        int shape;
    } inputs[] = {
        {"random.n2", 2, 3600, EVENTS_MIXED},
        {"random.n31", 31, 3600, EVENTS_MIXED},
        {"random.n4097", 4097, 3600, EVENTS_MIXED},
        {"random.timeout0", 300007, 0, EVENTS_MIXED},
        {"random.n1000003", 1000003, 3600, EVENTS_MIXED},
        {"random.n9999991", 9999991, 3600, EVENTS_MIXED},
        {"single_session.cooperative", 100003, 3600, EVENTS_SINGLE_SESSION},
    };
    printf("%-28s %9s %9s %5s %5s %5s %5s %5s %5s %9s\n", "input (default seed)", "events",
           "sessions", "last", "=tmo", "=time", "row", "warp", "tile", "carried");
    for (int k = 0; k < TUT_COUNT(inputs); ++k) {
        const size_t n = inputs[k].n;
        generate_events(TUT_DEFAULT_SEED, inputs[k].shape, inputs[k].timeout, n, user, ts);
        const input_facts f = facts_of(user, ts, n, inputs[k].timeout);
        printf("%-28s %9zu %9zu %5d %5d %5d %5d %5d %5d %9lld\n", inputs[k].test, n, f.sessions,
               f.last_starts, f.gap_at_timeout, f.equal_times, f.start_in_row, f.start_at_warp,
               f.tile_head_carry, (long long)f.carried);
        const char *name = inputs[k].test;
        expect_fact(name, "sorted", first_unsorted_cpu(user, ts, n) == n);
        if (n <= 31) /* boundaries at both ends */
            expect_fact(name, "the last event starts a session", f.last_starts);
        if (n == 31) {
            expect_fact(name, "at least 8 sessions", f.sessions >= 8);
            expect_fact(name, "a gap of exactly the timeout", f.gap_at_timeout);
            expect_fact(name, "equal timestamps", f.equal_times);
        }
        if (n >= 31) /* an empty warp scan (the exercise skeleton) fails on it */
            expect_fact(name, "a start inside a row of 32", f.start_in_row);
        if (n > CHAINED_TILE && inputs[k].shape == EVENTS_MIXED) {
            expect_fact(name, "a start at a warp's first event", f.start_at_warp);
            expect_fact(name, "a tile whose head continues the tile before", f.tile_head_carry);
        }
        if (inputs[k].shape == EVENTS_SINGLE_SESSION) {
            expect_fact(name, "one long session after the lead", f.sessions == SINGLE_LEAD + 1);
            expect_fact(name, "tiles carry a start that is not 0", f.carried == SINGLE_LEAD);
        }
    }
    free(user);
    free(ts);
}

int main(int argc, char **argv)
{
    const char *group = argc == 3 ? argv[2] : "all";
    const int all = strcmp(group, "all") == 0;
    if (argc < 2 || argc > 3 || !(all || !strcmp(group, "reference") || !strcmp(group, "csv") ||
                                  !strcmp(group, "inputs"))) {
        fprintf(stderr, "usage: %s <folder with the test CSV files> [reference|csv|inputs]\n",
                argv[0]);
        return 2;
    }
    if (all || !strcmp(group, "reference")) {
        reference_cases();
        sort_cases();
    }
    if (all || !strcmp(group, "csv"))
        csv_cases(argv[1]);
    if (all || !strcmp(group, "inputs"))
        input_cases();
    printf("%d failure(s)\n", failures);
    return tut_finish(failures == 0);
}
