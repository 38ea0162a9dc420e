/* CPU tests, no GPU needed: the reference on hand-made cases with known answers, the boundary
 * rule at the edges of int64, the stable sort, and the CSV reader's answers to good and bad files.
 *
 *   test_sessionize_cpu <data folder>        exit 0 when every case passes, 1 otherwise */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events_csv.h"
#include "session_boundary.h"
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
        int64_t got[SEED_EVENT_COUNT];
        sessionize_cpu(seed_user, seed_ts, SEED_EVENT_COUNT, SEED_TIMEOUT, got);
        if (!tut_check_i64("the document's 28 events", got, seed_expected_label,
                           SEED_EVENT_COUNT))
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
    snprintf(path, sizeof path, "%s/seed_events.csv", dir);
    event_table t;
    if (read_events_csv(path, &t, err, sizeof err) != 0) {
        printf("check CSV seed_events.csv: MISMATCH (%s)\n", err);
        ++failures;
    } else {
        int ok = t.n == SEED_EVENT_COUNT;
        ok = ok && tut_check_i64("CSV user_id", t.user, seed_user, SEED_EVENT_COUNT);
        ok = ok && tut_check_i64("CSV timestamp", t.ts, seed_ts, SEED_EVENT_COUNT);
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
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <folder with the test CSV files>\n", argv[0]);
        return 2;
    }
    reference_cases();
    sort_cases();
    csv_cases(argv[1]);
    printf("%d failure(s)\n", failures);
    return tut_finish(failures == 0);
}
