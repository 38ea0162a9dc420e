/* CPU tests of the graders' helpers (common/exercise.h): sizes drawn from a seed, the prediction
 * file's parser, the prediction's tolerance, the speed verdict, the watchdog of a case that
 * never finishes (TUT_CASE_TIME_LIMIT). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exercise.h"
#include "unit_test.h"

static void test_sizes(void)
{
    tut_grader g;
    tut_rng_seed(&g.rng, 12345);
    for (int i = 0; i < 1000; ++i) {
        const size_t n = tut_grader_size(&g, 10, 20);
        EXPECT(n >= 10 && n <= 20);
        const size_t odd = tut_grader_odd(&g, 3, 101);
        EXPECT(odd % 2 == 1 && odd >= 3 && odd <= 101);
        const size_t p = tut_grader_prime(&g, 1000, 2000);
        EXPECT(tut_grader_is_prime(p) && p >= 1000 && p <= 2000);
        const size_t edge = tut_grader_tile_edge(&g, 32, 10);
        const size_t r = edge % 32;
        EXPECT(edge >= 31 && edge <= 321 && (r == 0 || r == 1 || r == 31));
    }
    EXPECT(tut_grader_size(&g, 7, 7) == 7);
    EXPECT(!tut_grader_is_prime(0) && !tut_grader_is_prime(1) && tut_grader_is_prime(2) &&
           tut_grader_is_prime(1000003) && !tut_grader_is_prime(1000001));
    /* The same seed draws the same sizes: a printed seed reruns a failure exactly. */
    tut_grader a, b;
    tut_rng_seed(&a.rng, 99);
    tut_rng_seed(&b.rng, 99);
    EXPECT(tut_grader_prime(&a, 2, 1u << 30) == tut_grader_prime(&b, 2, 1u << 30));
}


static int has_size(const tut_boundary *b, size_t count, size_t n, const char *name)
{
    for (size_t i = 0; i < count; ++i)
        if (b[i].n == n)
            return name == NULL || strcmp(b[i].name, name) == 0;
    return 0;
}

static void test_boundaries(void)
{
    enum { CAP = 128 };
    tut_boundary b[CAP];
    const tut_width widths[] = {{"block", 256}, {"float4", 4}, {"warp", 32}, {"none", 0}};
    const size_t max = 10000;
    const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths), max, b, CAP);
    EXPECT(count > 20 && count < CAP);
    /* The smallest sizes, every multiple +/- 1 of every width at k = 1, 2 and the last k. */
    EXPECT(has_size(b, count, 1, "smallest 1") && has_size(b, count, 2, "smallest 2") &&
           has_size(b, count, 3, "smallest 3"));
    EXPECT(has_size(b, count, 255, "block*1-1") && has_size(b, count, 256, "block*1") &&
           has_size(b, count, 257, "block*1+1") && has_size(b, count, 511, "block*2-1") &&
           has_size(b, count, 513, "block*2+1"));
    EXPECT(has_size(b, count, 39 * 256 - 1, "block*39-1") && has_size(b, count, 39 * 256, NULL) &&
           has_size(b, count, 39 * 256 + 1, NULL) && !has_size(b, count, 40 * 256, NULL));
    EXPECT(has_size(b, count, 31, "warp*1-1") && has_size(b, count, 64, "warp*2") &&
           has_size(b, count, 9999, NULL) && !has_size(b, count, 10000, NULL));
    /* Every residue mod 4 near the start and near the end. */
    for (size_t r = 0; r < 4; ++r) {
        EXPECT(has_size(b, count, 4 + r, NULL));
        EXPECT(has_size(b, count, 2499 * 4 + r, NULL));
    }
    EXPECT(has_size(b, count, 6, "float4*1+2") && has_size(b, count, 7, "float4*2-1"));
    /* Each size once, all in [1, max], every name says what it is the boundary of. */
    for (size_t i = 0; i < count; ++i) {
        EXPECT(b[i].n >= 1 && b[i].n <= max && b[i].name[0] != '\0');
        for (size_t j = 0; j < i; ++j)
            EXPECT(b[i].n != b[j].n);
    }
    /* The cap holds; a width past max adds nothing but its smallest sizes; max 1. */
    EXPECT(tut_boundary_sizes(widths, TUT_COUNT(widths), max, b, 5) == 5);
    const tut_width wide[] = {{"wave", 1u << 20}};
    EXPECT(tut_boundary_sizes(wide, 1, 1000, b, CAP) == 3);
    EXPECT(tut_boundary_sizes(wide, 1, 1, b, CAP) == 1 && b[0].n == 1);
    EXPECT(tut_boundary_sizes(wide, 1, (1u << 20) + 1, b, CAP) == 6);
    EXPECT(has_size(b, 6, (1u << 20) + 1, "wave*1+1"));
    /* The splits: ceil(n / parts) per part leaves parts empty at the end. */
    EXPECT(tut_boundary_empty_parts(10, 4) == 0);  /* 3 3 3 1 */
    EXPECT(tut_boundary_empty_parts(9, 8) == 3);   /* 2 2 2 2 1 0 0 0 */
    EXPECT(tut_boundary_empty_parts(3, 8) == 5);
    EXPECT(tut_boundary_empty_parts(0, 8) == 8);
    EXPECT(tut_boundary_empty_parts(5, 0) == 0);
}

/* Everything the child writes into fd until it closes it (at most len - 1 bytes), as a string;
 * closes fd. */
static void read_all(int fd, char *out, size_t len)
{
    size_t used = 0;
    ssize_t got;
    while (used + 1 < len && (got = read(fd, out + used, len - 1 - used)) > 0)
        used += (size_t)got;
    out[used] = '\0';
    close(fd);
}

/* What a child process that runs `body` prints on stdout (up to len - 1 bytes). */
static void output_of(void (*body)(void), char *out, size_t len)
{
    int fds[2];
    out[0] = '\0';
    if (pipe(fds) != 0)
        return;
    fflush(stdout);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        body();
        exit(3);
    }
    close(fds[1]);
    read_all(fds[0], out, len);
    waitpid(pid, NULL, 0);
}

static void stops_inside(void)
{
    tut_grader_boundary_begin("block*2-1", 511);
    exit(1); /* as CUDA_CHECK does */
}

static void passes_then_exits(void)
{
    tut_grader_boundary_begin("block*2", 512);
    tut_grader_boundary_verdict("block*2", 512, 1);
    exit(0);
}

static void test_boundary_verdicts(void)
{
    char out[512];
    output_of(stops_inside, out, sizeof out);
    EXPECT(strstr(out, "boundary block*2-1 (n = 511) -> FAIL") != NULL);
    output_of(passes_then_exits, out, sizeof out);
    EXPECT(strstr(out, "boundary block*2 (n = 512): ok") != NULL && strstr(out, "FAIL") == NULL);
}

static int read_text(const char *text, double *value, char *why, size_t len)
{
    char path[] = "/tmp/tut_prediction_XXXXXX";
    FILE *f = fdopen(mkstemp(path), "w");
    fputs(text, f);
    fclose(f);
    const int ok = tut_exercise_read_prediction(path, value, why, len);
    remove(path);
    return ok;
}

static void test_prediction_file(void)
{
    double v = 0.0;
    char why[512];
    EXPECT(read_text("# a comment\nprediction = 1.5\n", &v, why, sizeof why) && v == 1.5);
    EXPECT(read_text("  prediction=2e3   # bytes\n", &v, why, sizeof why) && v == 2000.0);
    EXPECT(!read_text("prediction = TODO\n", &v, why, sizeof why) && strstr(why, "TODO"));
    EXPECT(!read_text("prediction = \n", &v, why, sizeof why) && strstr(why, "TODO"));
    EXPECT(!read_text("prediction = fast\n", &v, why, sizeof why) && strstr(why, "not a number"));
    EXPECT(!read_text("prediction = nan\n", &v, why, sizeof why));
    EXPECT(!read_text("my guess: 1.5\n", &v, why, sizeof why) && strstr(why, "no line"));
    EXPECT(!tut_exercise_read_prediction("/nonexistent/x.txt", &v, why, sizeof why) &&
           strstr(why, "cannot open"));
}

static void test_tolerance(void)
{
    EXPECT(tut_exercise_prediction_ok(1.5, 1.62, 0.2));
    EXPECT(!tut_exercise_prediction_ok(1.0, 1.62, 0.2));
    EXPECT(!tut_exercise_prediction_ok(NAN, 1.62, 0.2));
    EXPECT(!tut_exercise_prediction_ok(1.5, NAN, 0.2));
    EXPECT(tut_grader_speed_verdict("k", 90.0, "c", 100.0, "GB/s", 0.6));
    EXPECT(!tut_grader_speed_verdict("k", 50.0, "c", 100.0, "GB/s", 0.6));
    EXPECT(!tut_grader_speed_verdict("k", NAN, "c", 100.0, "GB/s", 0.6));
    EXPECT(!tut_grader_speed_verdict("k", 50.0, "c", 0.0, "GB/s", 0.6));
}

/* 3 s, whatever signal interrupts the sleep: as long as a kernel that never finishes, here. */
static void sleep_3_s(void)
{
    struct timespec left = {.tv_sec = 3, .tv_nsec = 0};
    while (nanosleep(&left, &left) != 0 && errno == EINTR)
        continue;
}

/* A case that takes 3 s, inside its second boundary. */
static int slow_case(tut_grader *g)
{
    (void)g;
    tut_grader_boundary_begin("smallest 1", 1);
    tut_grader_boundary_verdict("smallest 1", 1, 1);
    tut_grader_boundary_begin("block*1+1", 257);
    printf("launched\n"); /* not flushed: the watchdog's _exit must not lose it */
    sleep_3_s();
    return tut_grader_boundary_verdict("block*1+1", 257, 1);
}

/* A case that takes 3 s after its boundary, outside any: the watchdog must not name it. */
static int slow_after_boundary_case(tut_grader *g)
{
    (void)g;
    tut_grader_boundary_begin("smallest 1", 1);
    tut_grader_boundary_verdict("smallest 1", 1, 1);
    sleep_3_s();
    return 1;
}

/* An odd number, of different lengths, so that each of the watchdog's two buffers is rewritten
 * with every message in turn. */
static const char *const boundary_names[] = {"a", "a longer one", "a name longer again",
                                             "a boundary whose name is longer",
                                             "a boundary whose name is the longest of all"};

static void *raise_alarm_soon(void *unused)
{
    (void)unused;
    struct timespec wait = {.tv_sec = 0, .tv_nsec = 20 * 1000 * 1000};
    nanosleep(&wait, NULL);
    raise(SIGALRM); /* on this thread: the process's SIGALRM may go to any thread (CUDA's) */
    return NULL;
}

/* A case whose SIGALRM comes to another thread while the case's thread rebuilds the message,
 * boundary after boundary. Its output is full first (the test reads it late), so that whichever
 * thread writes the message waits for room while the other goes on. */
static int alarm_elsewhere_case(tut_grader *g)
{
    (void)g;
    char dots[1024];
    memset(dots, '.', sizeof dots);
    const int flags = fcntl(STDERR_FILENO, F_GETFL);
    fcntl(STDERR_FILENO, F_SETFL, flags | O_NONBLOCK);
    for (size_t chunk = sizeof dots; chunk > 0; chunk /= 2)
        while (write(STDERR_FILENO, dots, chunk) == (ssize_t)chunk)
            continue;
    fcntl(STDERR_FILENO, F_SETFL, flags);
    pthread_t other;
    if (pthread_create(&other, NULL, raise_alarm_soon, NULL) != 0)
        return 0;
    for (;;)
        for (size_t i = 0; i < TUT_COUNT(boundary_names); ++i)
            tut_grader_boundary_begin(boundary_names[i], i);
}

/* Runs a made-up grader (ex99.1, --case <name> --no-gpu) in a child process with
 * TUT_CASE_TIME_LIMIT=limit (NULL: unset); returns its exit code (-1: ended by a signal), with
 * its output (stdout and stderr, read from read_after_ms on) in out and the seconds it ran in
 * *seconds. */
static int run_case(const char *name, const char *limit, long read_after_ms, char *out,
                    size_t len, double *seconds)
{
    static const tut_grader_case cases[] = {
        {.name = "slow", .run = slow_case, .cpu = 1},
        {.name = "after", .run = slow_after_boundary_case, .cpu = 1},
        {.name = "elsewhere", .run = alarm_elsewhere_case, .cpu = 1}};
    int fds[2];
    out[0] = '\0';
    if (pipe(fds) != 0)
        return -2;
    fflush(stdout);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
        if (limit)
            setenv(TUT_CASE_TIME_LIMIT_ENV, limit, 1);
        else
            unsetenv(TUT_CASE_TIME_LIMIT_ENV);
        const tut_exercise ex = {.id = "ex99.1", .title = "cases that take 3 s",
                                 .cases = cases, .case_count = TUT_COUNT(cases)};
        char *argv[] = {"grade_ex99_1", "--case", (char *)name, "--no-gpu", "--seed", "1", NULL};
        exit(tut_exercise_main(6, argv, &ex));
    }
    close(fds[1]);
    struct timespec wait = {.tv_sec = read_after_ms / 1000,
                            .tv_nsec = read_after_ms % 1000 * 1000 * 1000};
    nanosleep(&wait, NULL);
    read_all(fds[0], out, len);
    int status = 0;
    waitpid(pid, &status, 0);
    clock_gettime(CLOCK_MONOTONIC, &end);
    *seconds = (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* What the diagnosis says after "no result after N s" (common/exercise.c, watchdog_compose). */
#define WATCHDOG_CAUSES                                                                         \
    " s: a kernel that never finishes, or a run far slower than expected on this GPU.\n"        \
    "  A kernel never finishes most often through a __syncthreads() that some threads of the\n" \
    "  block never reach (inside an if or after an early return), or a loop whose end never\n"  \
    "  comes. (The grader stops at TUT_CASE_TIME_LIMIT, a little before ctest's limit.)\n"

static void test_watchdog(void)
{
    char out[4096];
    double seconds = 0.0;
    /* The limit passes: exit 1 (a wrong result) after about 1 s, the diagnosis naming the
     * exercise, the case and the boundary running, and the lines printed before it. */
    EXPECT(run_case("slow", "1", 0, out, sizeof out, &seconds) == 1);
    EXPECT(seconds > 0.9 && seconds < 2.0);
    EXPECT(strstr(out, "ex99.1, case slow, boundary block*1+1 (n = 257): no result after 1"
                       WATCHDOG_CAUSES) != NULL);
    EXPECT(strstr(out, "case slow (on the CPU)\nboundary smallest 1 (n = 1): ok\nlaunched\n") !=
           NULL);
    EXPECT(strstr(out, "PASS") == NULL);
    printf("limit 1 s: exit after %.2f s, the grader said:\n%s", seconds, out);
    /* Stopped after its boundary's verdict: the diagnosis names no boundary. */
    EXPECT(run_case("after", "1", 0, out, sizeof out, &seconds) == 1);
    EXPECT(strstr(out, "ex99.1, case after: no result after 1" WATCHDOG_CAUSES) != NULL);
    EXPECT(strstr(out, "boundary smallest 1 (n = 1): no result") == NULL);
    /* SIGALRM on another thread while the case's rebuilds the message: the message is whole,
     * written on the case's thread (written on the other, it would be rewritten as it goes). */
    static char full[1 << 20];
    int whole = 0;
    const int runs = 12;
    for (int i = 0; i < runs; ++i) {
        const int code = run_case("elsewhere", "30", 100, full, sizeof full, &seconds);
        const char *message = strstr(full, "ex99.1, case elsewhere, ");
        int ok = 0;
        for (size_t b = 0; b < TUT_COUNT(boundary_names) && code == 1 && message; ++b) {
            char expected[512];
            snprintf(expected, sizeof expected, "ex99.1, case elsewhere, boundary %s (n = %zu): "
                     "no result after 30" WATCHDOG_CAUSES, boundary_names[b], b);
            ok |= strcmp(message, expected) == 0;
        }
        whole += ok;
        if (!ok && whole == i)
            printf("SIGALRM on another thread: exit %d, the grader said: %s\n", code,
                   message ? message : "(no diagnosis)");
    }
    printf("SIGALRM on another thread: %d of %d messages whole\n", whole, runs);
    EXPECT(whole == runs);
    /* A value that is not a whole number of seconds from 1 to a day: exit 2 before the case. */
    static const char *const malformed[] = {"abc", "0", "-5", "1.5", "12abc", " 5", "86401",
                                            "99999999999999999999"};
    for (size_t i = 0; i < TUT_COUNT(malformed); ++i) {
        char expected[128];
        snprintf(expected, sizeof expected, "TUT_CASE_TIME_LIMIT='%s' is not a whole number",
                 malformed[i]);
        EXPECT(run_case("slow", malformed[i], 0, out, sizeof out, &seconds) == 2);
        EXPECT(strstr(out, expected) != NULL && strstr(out, "case slow") == NULL);
    }
}

static void test_watchdog_unset(void)
{
    char out[4096];
    double seconds = 0.0;
    /* No limit: the case takes its 3 s and passes. */
    EXPECT(run_case("slow", NULL, 0, out, sizeof out, &seconds) == 0);
    EXPECT(seconds > 2.9 && strstr(out, "PASS") != NULL && strstr(out, "no result") == NULL);
    /* A limit it keeps within: the same. */
    EXPECT(run_case("slow", "30", 0, out, sizeof out, &seconds) == 0);
    EXPECT(seconds > 2.9 && strstr(out, "PASS") != NULL && strstr(out, "no result") == NULL);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"sizes", test_sizes}, {"boundaries", test_boundaries},
        {"boundary_verdicts", test_boundary_verdicts},
        {"prediction_file", test_prediction_file},
        {"tolerance", test_tolerance}, {"watchdog", test_watchdog},
        {"watchdog_unset", test_watchdog_unset}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
