/* getpid(), alarm(), sigaction() and the threads' signal masks are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "exercise.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "options.h"

/* ---------------------------------------------------------------- sizes */

size_t tut_grader_size(tut_grader *g, size_t lo, size_t hi)
{
    if (hi <= lo)
        return lo;
    return lo + (size_t)tut_rng_below(&g->rng, (uint64_t)(hi - lo) + 1);
}

size_t tut_grader_odd(tut_grader *g, size_t lo, size_t hi)
{
    size_t n = tut_grader_size(g, lo, hi) | 1u;
    return n > hi ? n - 2 : n;
}

int tut_grader_is_prime(size_t n)
{
    if (n < 2)
        return 0;
    for (size_t d = 2; d <= n / d; ++d)
        if (n % d == 0)
            return 0;
    return 1;
}

size_t tut_grader_prime(tut_grader *g, size_t lo, size_t hi)
{
    if (lo < 2)
        lo = 2;
    /* From a random start, the next prime up, wrapping to lo: primes are dense enough. */
    const size_t start = tut_grader_size(g, lo, hi);
    for (size_t n = start; n <= hi; ++n)
        if (tut_grader_is_prime(n))
            return n;
    for (size_t n = lo; n < start; ++n)
        if (tut_grader_is_prime(n))
            return n;
    fprintf(stderr, "grader error: no prime in [%zu, %zu]\n", lo, hi);
    exit(2);
}

size_t tut_grader_tile_edge(tut_grader *g, size_t tile, size_t max_k)
{
    const size_t k = tut_grader_size(g, 1, max_k ? max_k : 1);
    const size_t n = k * tile + tut_grader_size(g, 0, 2) - 1;
    return n ? n : 1;
}

/* ---------------------------------------------------------------- boundary sizes */

static size_t boundary_add(tut_boundary *out, size_t count, size_t cap, size_t max, size_t n,
                           const char *name, size_t k, long offset)
{
    if (n < 1 || n > max || count >= cap)
        return count;
    for (size_t i = 0; i < count; ++i)
        if (out[i].n == n)
            return count; /* the first name wins */
    out[count].n = n;
    if (k == 0)
        snprintf(out[count].name, sizeof out[count].name, "%s %zu", name, n);
    else if (offset == 0)
        snprintf(out[count].name, sizeof out[count].name, "%s*%zu", name, k);
    else
        snprintf(out[count].name, sizeof out[count].name, "%s*%zu%+ld", name, k, offset);
    return count + 1;
}

size_t tut_boundary_sizes(const tut_width *widths, int n_widths, size_t max, tut_boundary *out,
                          size_t cap)
{
    size_t count = 0;
    for (size_t n = 1; n <= 3; ++n)
        count = boundary_add(out, count, cap, max, n, "smallest", 0, 0);
    for (int i = 0; i < n_widths; ++i) {
        const size_t w = widths[i].width;
        if (w == 0 || w > max)
            continue;
        const size_t k_last = (max - 1) / w; /* the largest k with k*w + 1 <= max */
        const size_t ks[3] = {1, 2, k_last};
        for (int j = 0; j < 3; ++j) {
            const size_t k = ks[j];
            if (k == 0 || (j == 2 && k <= 2))
                continue;
            for (long off = -1; off <= 1; ++off)
                count = boundary_add(out, count, cap, max, k * w + (size_t)off, widths[i].name,
                                     k, off);
        }
        if (w <= 8) /* a vector width: every residue mod w */
            for (int j = 0; j < 3; j += 2)
                for (size_t r = 2; r < w; ++r)
                    if (ks[j] >= 1 && !(j == 2 && ks[j] <= 2))
                        count = boundary_add(out, count, cap, max, ks[j] * w + r,
                                             widths[i].name, ks[j], (long)r);
    }
    return count;
}

size_t tut_boundary_empty_parts(size_t n, size_t parts)
{
    if (parts == 0)
        return 0;
    const size_t chunk = (n + parts - 1) / parts;
    if (chunk == 0)
        return parts;
    const size_t used = (n + chunk - 1) / chunk;
    return parts - used;
}

static void watchdog_compose(const char *boundary, size_t n); /* the watchdog names it too */

/* The boundary running now, for the verdict line of a program that stops inside it. */
static const char *boundary_running = NULL;
static size_t boundary_running_n = 0;

static void boundary_stopped(void)
{
    if (boundary_running) {
        printf("boundary %s (n = %zu) -> FAIL (stopped inside it)\n", boundary_running,
               boundary_running_n);
        fflush(stdout);
    }
}

void tut_grader_boundary_begin(const char *name, size_t n)
{
    static int registered = 0;
    if (!registered)
        registered = atexit(boundary_stopped) == 0;
    boundary_running = name;
    boundary_running_n = n;
    watchdog_compose(name, n);
}

int tut_grader_boundary_verdict(const char *name, size_t n, int ok)
{
    boundary_running = NULL;
    watchdog_compose(NULL, 0);
    if (ok)
        printf("boundary %s (n = %zu): ok\n", name, n);
    else
        printf("boundary %s (n = %zu) -> FAIL\n", name, n);
    fflush(stdout);
    return ok;
}

int tut_grader_run_boundaries(tut_grader *g, const tut_boundary *sizes, size_t count,
                              tut_boundary_check check, void *ctx)
{
    int all = 1;
    for (size_t i = 0; i < count; ++i) {
        tut_grader_boundary_begin(sizes[i].name, sizes[i].n);
        all &= tut_grader_boundary_verdict(sizes[i].name, sizes[i].n,
                                           check(g, sizes[i].n, ctx));
    }
    return all;
}

/* ---------------------------------------------------------------- runs */

void tut_grader_poison(void *device_ptr, size_t bytes)
{
    if (bytes)
        CUDA_CHECK(cudaMemset(device_ptr, 0xFF, bytes));
}

void tut_grader_time_pair(tut_work_fn kernel, void *kernel_arg, tut_work_fn ceiling,
                          void *ceiling_arg, double *kernel_ms, double *ceiling_ms)
{
    enum { ROUNDS = 5, BATCHES = 5 };
    double best_kernel = INFINITY, best_ceiling = INFINITY;
    for (int r = 0; r < ROUNDS; ++r) {
        /* Alternate which goes first, so neither always follows the other's clock ramp. */
        for (int k = 0; k < 2; ++k) {
            const int kernel_turn = (k == 0) == (r % 2 == 0);
            const tut_timing t = kernel_turn
                                     ? tut_time_gpu_batched(kernel, kernel_arg, 2, BATCHES, 0)
                                     : tut_time_gpu_batched(ceiling, ceiling_arg, 2, BATCHES, 0);
            double *best = kernel_turn ? &best_kernel : &best_ceiling;
            if (t.min_ms < *best)
                *best = t.min_ms;
        }
    }
    *kernel_ms = best_kernel;
    *ceiling_ms = best_ceiling;
}

void tut_grader_time_pair_unless_far(tut_work_fn kernel, void *kernel_arg, tut_work_fn ceiling,
                                     void *ceiling_arg, double far, double *kernel_ms,
                                     double *ceiling_ms)
{
    *kernel_ms = tut_time_gpu(kernel, kernel_arg, 1, 3).min_ms;
    *ceiling_ms = tut_time_gpu(ceiling, ceiling_arg, 1, 3).min_ms;
    if (*kernel_ms > far * *ceiling_ms) {
        printf("first look: %.3f ms against the ceiling's %.3f ms: far more work than one pass\n",
               *kernel_ms, *ceiling_ms);
        return;
    }
    tut_grader_time_pair(kernel, kernel_arg, ceiling, ceiling_arg, kernel_ms, ceiling_ms);
}

int tut_grader_speed_verdict(const char *kernel, double kernel_rate, const char *ceiling,
                             double ceiling_rate, const char *unit, double bar)
{
    const double ratio = ceiling_rate > 0.0 ? kernel_rate / ceiling_rate : 0.0;
    const int ok = isfinite(ratio) && ratio >= bar;
    printf("speed: %s %.4g %s vs %s %.4g %s: ratio %.3f, bar %.3f -> %s\n", kernel, kernel_rate,
           unit, ceiling, ceiling_rate, unit, ratio, bar, ok ? "PASS" : "FAIL");
    return ok;
}

/* ---------------------------------------------------------------- predictions */

int tut_exercise_read_prediction(const char *path, double *value, char *why, size_t why_len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, why_len, "cannot open %s: %s", path, strerror(errno));
        return 0;
    }
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        char *p = line;
        while (isspace((unsigned char)*p))
            ++p;
        if (strncmp(p, "prediction", 10) != 0)
            continue;
        p += 10;
        while (isspace((unsigned char)*p))
            ++p;
        if (*p != '=')
            continue;
        ++p;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        char *end = p + strlen(p);
        while (end > p && isspace((unsigned char)end[-1]))
            *--end = '\0';
        while (isspace((unsigned char)*p))
            ++p;
        found = 1;
        if (strstr(p, "TODO") || *p == '\0') {
            snprintf(why, why_len, "%s: the prediction is still TODO: write your figure after "
                     "'prediction ='", path);
            fclose(f);
            return 0;
        }
        if (tut_parse_double(p, value) != 0) {
            snprintf(why, why_len, "%s: '%s' is not a number (write e.g. prediction = 1.5)", path,
                     p);
            fclose(f);
            return 0;
        }
    }
    fclose(f);
    if (!found)
        snprintf(why, why_len, "%s holds no line 'prediction = <number>'", path);
    return found;
}

int tut_exercise_prediction_ok(double predicted, double measured, double tolerance)
{
    return isfinite(predicted) && isfinite(measured) &&
           fabs(predicted - measured) <= tolerance * fabs(measured);
}

/* ---------------------------------------------------------------- the watchdog */

/* A kernel that never finishes (a __syncthreads() that some threads skip) hangs its case until
 * ctest kills the test, and ctest says only "Timeout". With TUT_CASE_TIME_LIMIT set (the tests
 * set it a little below their TIMEOUT), SIGALRM ends the run first and says why. A signal
 * handler may call only async-signal-safe functions (write, _exit: no printf), so the message
 * is built beforehand; it is rebuilt as boundaries begin and end, into the buffer the handler
 * is not reading, which then becomes the current one.
 * SIGALRM goes to any one thread that does not block it, and CUDA starts threads of its own.
 * The message must be written on the case's thread, the one that builds it (a compiler fence
 * orders the two only there): tut_exercise_main blocks SIGALRM before any CUDA call, so that the
 * driver's threads start with it blocked, and unblocks it on the case's thread once the GPU is
 * selected; a thread that takes it all the same (one started before main, as compute-sanitizer
 * starts, or started later) passes it on to the case's thread. */
static char watchdog_where[128];          /* "ex02.2, case primes"; empty: not armed */
static unsigned watchdog_seconds;
static char watchdog_text[2][1024];
static size_t watchdog_length[2];
static volatile sig_atomic_t watchdog_current;
static pthread_t case_thread;

static void watchdog_compose(const char *boundary, size_t n)
{
    if (watchdog_where[0] == '\0')
        return;
    const int next = !watchdog_current;
    char in[128] = "";
    if (boundary)
        snprintf(in, sizeof in, ", boundary %s (n = %zu)", boundary, n);
    const int length = snprintf(
        watchdog_text[next], sizeof watchdog_text[next],
        "%s%s: no result after %u s: a kernel that never finishes, or a run far slower than "
        "expected on this GPU.\n"
        "  A kernel never finishes most often through a __syncthreads() that some threads of the\n"
        "  block never reach (inside an if or after an early return), or a loop whose end never\n"
        "  comes. (The grader stops at " TUT_CASE_TIME_LIMIT_ENV
        ", a little before ctest's limit.)\n",
        watchdog_where, in, watchdog_seconds);
    watchdog_length[next] = length < (int)sizeof watchdog_text[next]
                                ? (size_t)length : sizeof watchdog_text[next] - 1;
    atomic_signal_fence(memory_order_seq_cst); /* the text is whole before the handler sees it */
    watchdog_current = next;
}

static void watchdog_fired(int signal_number)
{
    if (!pthread_equal(pthread_self(), case_thread)) {
        pthread_kill(case_thread, signal_number); /* both async-signal-safe, as write is */
        return;
    }
    const int current = watchdog_current;
    const ssize_t written = write(STDERR_FILENO, watchdog_text[current], watchdog_length[current]);
    (void)written;
    _exit(1); /* a wrong result */
}

/* SIGALRM blocked (1) or not (0) on the calling thread, and on the threads it starts from now. */
static void watchdog_block(int block)
{
    sigset_t alarm_only;
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &alarm_only, NULL);
}

/* 1 with *seconds set, 0 if the text is not a whole number of seconds from 1 to a day (read as
 * the seed is, options.h). */
static int parse_time_limit(const char *text, unsigned *seconds)
{
    unsigned long long value;
    if (tut_parse_size(text, &value) != 0 || value < 1 || value > 86400)
        return 0;
    *seconds = (unsigned)value;
    return 1;
}

/* The run stops with the message after `seconds` (what: "case primes"), once the case's thread
 * unblocks SIGALRM: a signal due before then waits for it. */
static void watchdog_arm(const tut_exercise *ex, const char *what, unsigned seconds)
{
    snprintf(watchdog_where, sizeof watchdog_where, "%s, %s", ex->id, what);
    watchdog_seconds = seconds;
    watchdog_compose(NULL, 0);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = watchdog_fired;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART; /* a thread that only forwards it resumes its system call */
    sigaction(SIGALRM, &action, NULL);
    alarm(seconds);
}

/* ---------------------------------------------------------------- the command line */

static uint64_t fresh_seed(void)
{
    /* A new seed each run, so that no hard-coded answer survives; printed, so any run can be
     * repeated. (Every other program in the suite uses a fixed seed.) */
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    uint64_t x = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^
                 ((uint64_t)getpid() << 32);
    /* splitmix64's finaliser, so that nearby times give unrelated seeds; kept below 2^53 so
     * that --seed (parsed as a size) reads it back exactly. */
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (x ^ (x >> 31)) >> 11;
}

static int usage_error(const char *program, const tut_exercise *ex, const char *message)
{
    fprintf(stderr, "%s: %s\nusage: %s --case <name> [--no-gpu] | --speed | --prediction <file> "
            "[--seed S] | --list\ncases:", program, message, program);
    for (int i = 0; i < ex->case_count; ++i)
        fprintf(stderr, " %s", ex->cases[i].name);
    fprintf(stderr, "\n");
    return 2;
}

static int run_prediction(tut_grader *g, const tut_exercise *ex, const char *path)
{
    double predicted = NAN;
    char why[640];
    const int have = tut_exercise_read_prediction(path, &predicted, why, sizeof why);
    if (!have)
        printf("prediction: %s\n", why);
    const double measured = ex->measure(g);
    printf("prediction: %s: predicted %.4g, measured %.4g on this GPU, tolerance %.0f%% -> %s\n",
           ex->prediction_what ? ex->prediction_what : "the figure", predicted, measured,
           100.0 * ex->prediction_tolerance,
           have && tut_exercise_prediction_ok(predicted, measured, ex->prediction_tolerance)
               ? "PASS" : "FAIL");
    return have && tut_exercise_prediction_ok(predicted, measured, ex->prediction_tolerance);
}

int tut_exercise_main(int argc, char **argv, const tut_exercise *ex)
{
    /* Before any CUDA call starts a thread: the watchdog's signal is for this one (above). */
    case_thread = pthread_self();
    watchdog_block(1);
    const char *program = argv[0];
    const char *case_name = NULL, *prediction = NULL, *seed_text = NULL;
    int speed = 0, list = 0, no_gpu = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (strcmp(a, "--case") == 0 && has_value)
            case_name = argv[++i];
        else if (strcmp(a, "--prediction") == 0 && has_value)
            prediction = argv[++i];
        else if (strcmp(a, "--seed") == 0 && has_value)
            seed_text = argv[++i];
        else if (strcmp(a, "--speed") == 0)
            speed = 1;
        else if (strcmp(a, "--list") == 0)
            list = 1;
        else if (strcmp(a, "--no-gpu") == 0)
            no_gpu = 1;
        else if (strcmp(a, "--help") == 0) {
            printf("%s: grader of %s (%s)\n", program, ex->id, ex->title);
            usage_error(program, ex, "help");
            return 0;
        } else {
            char message[300];
            snprintf(message, sizeof message, "unknown or incomplete option '%s'", a);
            return usage_error(program, ex, message);
        }
    }
    if (list) {
        for (int i = 0; i < ex->case_count; ++i)
            printf("%s\n", ex->cases[i].name);
        return 0;
    }
    if ((case_name != NULL) + speed + (prediction != NULL) != 1)
        return usage_error(program, ex, "give exactly one of --case, --speed, --prediction");

    const tut_grader_case *chosen = NULL;
    for (int i = 0; case_name && i < ex->case_count; ++i)
        if (strcmp(ex->cases[i].name, case_name) == 0)
            chosen = &ex->cases[i];
    if (case_name && !chosen) {
        char message[300];
        snprintf(message, sizeof message, "no case '%s'", case_name);
        return usage_error(program, ex, message);
    }
    if (speed && !ex->speed)
        return usage_error(program, ex, "this exercise has no speed test");
    if (prediction && !ex->measure)
        return usage_error(program, ex, "this exercise has no prediction");
    if (no_gpu && !case_name)
        return usage_error(program, ex, "--no-gpu runs a case only (a CPU case)");
    /* Any other case would meet g.dev == NULL: refused, not crashed. */
    if (no_gpu && !chosen->cpu) {
        fprintf(stderr, "%s: case %s needs a GPU; --no-gpu runs only the cases that make no CUDA "
                "call\n", program, chosen->name);
        return 2;
    }

    unsigned long long seed = 0;
    const char *env = getenv(TUT_EXERCISE_SEED_ENV);
    const char *given = seed_text ? seed_text : (env && *env ? env : NULL);
    if (given && tut_parse_size(given, &seed) != 0) {
        fprintf(stderr, "%s: the seed '%s'%s is not a non-negative integer\n", program, given,
                seed_text ? "" : " (" TUT_EXERCISE_SEED_ENV ")");
        return 2;
    }
    if (!given)
        seed = fresh_seed();
    unsigned time_limit = 0;
    const char *limit_text = getenv(TUT_CASE_TIME_LIMIT_ENV);
    if (limit_text && *limit_text && !parse_time_limit(limit_text, &time_limit)) {
        fprintf(stderr, "%s: " TUT_CASE_TIME_LIMIT_ENV "='%s' is not a whole number of seconds "
                "from 1 to 86400\n", program, limit_text);
        return 2;
    }
    /* Line by line: what a case printed before it hung is not left in the buffer when the
     * watchdog ends the run (_exit does not flush). */
    if (time_limit)
        setvbuf(stdout, NULL, _IOLBF, 0);
    printf("seed %llu (rerun: --seed %llu%s)\n", seed, seed, no_gpu ? " --no-gpu" : "");
    printf("%s: %s\n", ex->id, ex->title);
    fflush(stdout);

    if (time_limit) {
        char what[96];
        if (chosen)
            snprintf(what, sizeof what, "case %s", chosen->name);
        else
            snprintf(what, sizeof what, "timing for the %s", speed ? "speed test" : "prediction");
        watchdog_arm(ex, what, time_limit);
    }

    tut_grader g;
    g.seed = seed;
    tut_rng_seed(&g.rng, seed);
    if (no_gpu) {
        /* A CPU case (tutorial_exercise's CPU_CASES): arithmetic on the GPUs of the table, no
         * CUDA call, so it is graded on a machine without a GPU too. */
        g.dev = NULL;
        watchdog_block(0);
        printf("case %s (on the CPU)\n", chosen->name);
        const int ok = chosen->run(&g);
        alarm(0);
        printf("%s\n", ok ? "PASS" : "FAIL");
        return ok ? 0 : 1;
    }
    tut_select_device(ex->needs); /* exits 77 without a suitable GPU */
    g.dev = tut_current_device();
    watchdog_block(0); /* the driver's threads, started by now, keep it blocked */

    int ok;
    if (chosen) {
        printf("case %s\n", chosen->name);
        ok = chosen->run(&g);
    } else if (g.dev->emulated[0]) {
        /* Speeds and predicted figures are this GPU's, measured with the kernels configured for
         * another GPU's limits: neither would mean anything. */
        printf("skipped: emulated limits (%s): a %s measured under another GPU's limits means "
               "nothing\n", g.dev->emulated, speed ? "speed" : "figure");
        alarm(0); /* a skip stays a skip, however long the exit takes */
        return TUT_EXIT_SKIP;
    } else if (speed) {
        ok = ex->speed(&g, ex->speed_bar);
    } else {
        ok = run_prediction(&g, ex, prediction);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    alarm(0);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
