/* The speed bars have margin (common/speed_bars.h): every bar at least 15% below the slowest
 * ratio its solution reached and at least 15% above the fastest ratio a correct-but-slow corpus
 * entry reached, in the distributions tools/speedbars.sh measured on a GPU
 * (docs/results/gpu-check/speed_distributions.h100.csv, committed by the lead).
 *
 *   test_speed_bars fixture <folder>   the check itself, on made-up distributions: each bad
 *                                      one must draw its own complaint, and no other
 *   test_speed_bars live <csv> [runs]  common/speed_bars.h against the measured ones; runs: the
 *                                      fewest runs a submission may have (default 5)
 *
 * The CSV: `#` lines, then a header naming at least exercise, submission, kind (solution or
 * slow), run and ratio (empty: the run gave none, which fails), then one row per run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "speed_bars.h"

#define MIN_RUNS 5 /* the fewest runs of a submission, unless `live` is given another */

typedef struct {
    const char *id;
    double bar;
} bar_entry;

typedef struct {
    char exercise[32], submission[128], kind[16], ratio[32];
} run_row;

/* The problems the check reports, by kind: the fixture's bad cases each expect their own. */
typedef enum {
    NO_PROBLEM,     /* (a case that expects none) */
    UNREADABLE,     /* the file, or its header */
    NO_BAR,         /* an exercise measured, but common/speed_bars.h has no bar for it */
    BAD_KIND,       /* a kind neither solution nor slow */
    NO_RATIO,       /* a run without a ratio: it failed before timing */
    FEW_RUNS,       /* a submission measured fewer times than the fewest allowed */
    NEVER_MEASURED, /* a bar whose solution has no run with a ratio */
    NEAR_SOLUTION,  /* a bar within the margin of the solution's slowest ratio */
    NEAR_SLOW,      /* a bar within the margin of a slow entry's fastest ratio */
    PROBLEM_KINDS
} problem;

static const char *const problem_names[PROBLEM_KINDS] = {
    [NO_PROBLEM] = "no problem",          [UNREADABLE] = "unreadable file",
    [NO_BAR] = "no bar",                  [BAD_KIND] = "bad kind",
    [NO_RATIO] = "a run without a ratio", [FEW_RUNS] = "too few runs",
    [NEVER_MEASURED] = "never measured",  [NEAR_SOLUTION] = "too close to the solution",
    [NEAR_SLOW] = "too close to a slow entry",
};

/* The ratio of a run: 1 with it in *ratio, 0 if the run gave none (empty, not a number). */
static int run_ratio(const run_row *r, double *ratio)
{
    char *end = NULL;
    *ratio = strtod(r->ratio, &end);
    return r->ratio[0] != '\0' && *end == '\0' && isfinite(*ratio) && *ratio >= 0.0;
}

/* Splits one CSV line (no quoted fields) into at most max fields; returns how many. */
static int split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    line[strcspn(line, "\r\n")] = '\0';
    while (n < max) {
        fields[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

/* Reads the runs; 0 with a message if the file or its header is unusable. */
static int read_runs(const char *path, run_row **rows, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("cannot open %s\n", path);
        return 0;
    }
    char line[1024];
    int col[5] = {-1, -1, -1, -1, -1}, header = 0, capacity = 0;
    static const char *const names[5] = {"exercise", "submission", "kind", "run", "ratio"};
    *rows = NULL;
    *count = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *fields[32];
        const int n = split(line, fields, 32);
        if (!header) {
            for (int i = 0; i < n; ++i)
                for (int k = 0; k < 5; ++k)
                    if (strcmp(fields[i], names[k]) == 0)
                        col[k] = i;
            for (int k = 0; k < 5; ++k)
                if (col[k] < 0) {
                    printf("%s: the header has no column '%s'\n", path, names[k]);
                    fclose(f);
                    return 0;
                }
            header = 1;
            continue;
        }
        if (*count == capacity) {
            capacity = capacity ? 2 * capacity : 64;
            *rows = (run_row *)realloc(*rows, (size_t)capacity * sizeof **rows);
            if (!*rows) {
                fclose(f);
                return 0;
            }
        }
        run_row *r = &(*rows)[(*count)++];
        memset(r, 0, sizeof *r);
        const char *get[4] = {"", "", "", ""};
        const int want[4] = {col[0], col[1], col[2], col[4]};
        for (int k = 0; k < 4; ++k)
            if (want[k] < n)
                get[k] = fields[want[k]];
        snprintf(r->exercise, sizeof r->exercise, "%s", get[0]);
        snprintf(r->submission, sizeof r->submission, "%s", get[1]);
        snprintf(r->kind, sizeof r->kind, "%s", get[2]);
        snprintf(r->ratio, sizeof r->ratio, "%s", get[3]);
    }
    fclose(f);
    if (!header)
        printf("%s: no header line\n", path);
    return header;
}

/* The check: returns the number of problems found (each printed), and counts them by kind in
 * found[] (zeroed here). */
static int check_distributions(const char *path, const bar_entry *bars, int bar_count,
                               double margin, int min_runs, int found[PROBLEM_KINDS])
{
    memset(found, 0, PROBLEM_KINDS * sizeof found[0]);
    run_row *rows = NULL;
    int count = 0;
    if (!read_runs(path, &rows, &count)) {
        ++found[UNREADABLE];
        return 1;
    }
    for (int i = 0; i < count; ++i) {
        int known = 0;
        for (int b = 0; b < bar_count; ++b)
            known |= strcmp(rows[i].exercise, bars[b].id) == 0;
        if (!known) {
            printf("  %s: measured, but common/speed_bars.h has no bar for it\n",
                   rows[i].exercise);
            ++found[NO_BAR];
        }
        if (strcmp(rows[i].kind, "solution") != 0 && strcmp(rows[i].kind, "slow") != 0) {
            printf("  %s %s: kind '%s' is neither solution nor slow\n", rows[i].exercise,
                   rows[i].submission, rows[i].kind);
            ++found[BAD_KIND];
        }
        double ratio;
        if (!run_ratio(&rows[i], &ratio)) {
            printf("  %s %s: a run without a ratio ('%s'): it failed before timing\n",
                   rows[i].exercise, rows[i].submission, rows[i].ratio);
            ++found[NO_RATIO];
        }
    }
    /* Every submission measured often enough (counted at its first row). */
    for (int i = 0; i < count; ++i) {
        int first = 1, same = 0;
        for (int k = 0; k < count; ++k) {
            const int match = strcmp(rows[k].exercise, rows[i].exercise) == 0 &&
                              strcmp(rows[k].submission, rows[i].submission) == 0;
            same += match;
            first &= !(match && k < i);
        }
        if (first && same < min_runs) {
            printf("  %s %s: %d run(s), fewer than %d\n", rows[i].exercise, rows[i].submission,
                   same, min_runs);
            ++found[FEW_RUNS];
        }
    }
    /* The margins, from the runs that gave a ratio (a failed run is reported above, once). */
    for (int b = 0; b < bar_count; ++b) {
        double worst_solution = INFINITY, worst_slow = -INFINITY;
        int solution_runs = 0, slow_runs = 0;
        for (int i = 0; i < count; ++i) {
            double ratio;
            if (strcmp(rows[i].exercise, bars[b].id) != 0 || !run_ratio(&rows[i], &ratio))
                continue;
            if (strcmp(rows[i].kind, "solution") == 0) {
                ++solution_runs;
                worst_solution = fmin(worst_solution, ratio);
            } else if (strcmp(rows[i].kind, "slow") == 0) {
                ++slow_runs;
                worst_slow = fmax(worst_slow, ratio);
            }
        }
        const double bar = bars[b].bar;
        if (solution_runs == 0) {
            printf("  %s: bar %.3f, but its solution was never measured\n", bars[b].id, bar);
            ++found[NEVER_MEASURED];
            continue;
        }
        const double highest = (1.0 - margin) * worst_solution;
        const double lowest = slow_runs ? (1.0 + margin) * worst_slow : 0.0;
        const int near_solution = bar > highest, near_slow = bar < lowest;
        const char *verdict = near_solution && near_slow ? "TOO CLOSE to both"
                              : near_solution           ? "TOO CLOSE to the solution"
                              : near_slow               ? "TOO CLOSE to a slow entry"
                                                        : "ok";
        char slow_text[32] = "none";
        if (slow_runs)
            snprintf(slow_text, sizeof slow_text, "%.3f", worst_slow);
        printf("  %s: bar %.3f; the solution's slowest ratio %.3f (%d runs), the slow entries' "
               "fastest %s (%d runs): a bar with %.0f%% margin lies in [%.3f, %.3f] -> %s\n",
               bars[b].id, bar, worst_solution, solution_runs, slow_text, slow_runs,
               100.0 * margin, lowest, highest, verdict);
        found[NEAR_SOLUTION] += near_solution;
        found[NEAR_SLOW] += near_slow;
    }
    free(rows);
    int problems = 0;
    for (int k = 0; k < PROBLEM_KINDS; ++k)
        problems += found[k];
    return problems;
}

/* The fixture: made-up distributions for the made-up exercises ex90.1 .. ex90.3. */
static int run_fixture(const char *folder)
{
    static const bar_entry bars[] = {{"ex90.1", 0.50}, {"ex90.2", 0.50}, {"ex90.3", 10.0}};
    /* Each bad case must fail for its own reason, and for no other: a check that rejected it
     * for the wrong reason (a failed run read as a ratio of 0, say) would otherwise pass. */
    static const struct {
        const char *file;
        problem want;
    } cases[] = {
        {"good.csv", NO_PROBLEM},              /* solution 0.80..0.85, slow 0.39..0.41 */
        {"near_solution.csv", NEAR_SOLUTION},  /* a solution run at 0.55: 0.5 is within 15% */
        {"near_slow.csv", NEAR_SLOW},          /* a slow run at 0.497 against a bar of 0.500 */
        {"failed_run.csv", NO_RATIO},          /* a solution run without a ratio */
        {"few_runs.csv", FEW_RUNS},            /* a submission measured 3 times */
        {"unknown_exercise.csv", NO_BAR},      /* a measured exercise without a bar */
    };
    int wrong = 0;
    for (size_t i = 0; i < TUT_COUNT(cases); ++i) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", folder, cases[i].file);
        printf("%s:\n", cases[i].file);
        int found[PROBLEM_KINDS];
        const int problems = check_distributions(path, bars, (int)TUT_COUNT(bars),
                                                 TUT_SPEED_BAR_MARGIN, MIN_RUNS, found);
        const problem want = cases[i].want;
        /* found[NO_PROBLEM] is always 0: a good case passes only with no problem at all. */
        const int as_expected =
            problems == found[want] && (want == NO_PROBLEM || found[want] > 0);
        printf("  -> %d problem(s), expected %s only: %s\n", problems, problem_names[want],
               as_expected ? "as expected" : "WRONG");
        if (!as_expected)
            for (int k = 1; k < PROBLEM_KINDS; ++k)
                if (found[k])
                    printf("     found %d x %s\n", found[k], problem_names[k]);
        wrong += !as_expected;
    }
    return wrong;
}

int main(int argc, char **argv)
{
    int min_runs = MIN_RUNS;
    const int live = argc >= 3 && strcmp(argv[1], "live") == 0;
    if (live && argc == 4) {
        char *end = NULL;
        const long runs = strtol(argv[3], &end, 10);
        if (*argv[3] == '\0' || *end != '\0' || runs < 1 || runs > 1000) {
            fprintf(stderr, "%s: runs '%s' is not a count from 1 to 1000\n", argv[0], argv[3]);
            return 2;
        }
        min_runs = (int)runs;
    }
    if (!(argc == 3 && strcmp(argv[1], "fixture") == 0) && !(live && argc <= 4)) {
        fprintf(stderr, "usage: %s fixture <folder> | live <csv> [runs]\n", argv[0]);
        return 2;
    }
    int failures = 0;
    if (strcmp(argv[1], "fixture") == 0) {
        failures = run_fixture(argv[2]);
    } else {
#define TUT_BAR_ENTRY(id, bar) {id, bar},
        static const bar_entry bars[] = {TUT_SPEED_BARS(TUT_BAR_ENTRY)};
#undef TUT_BAR_ENTRY
        printf("%s against common/speed_bars.h (margin %.0f%%, at least %d runs each):\n",
               argv[2], 100.0 * TUT_SPEED_BAR_MARGIN, min_runs);
        int found[PROBLEM_KINDS];
        failures = check_distributions(argv[2], bars, (int)TUT_COUNT(bars),
                                       TUT_SPEED_BAR_MARGIN, min_runs, found);
    }
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
