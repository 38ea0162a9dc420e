/* The exercise graders' helpers: one small program per exercise (grade_exNN_k) that runs the
 * student's code only, on sizes drawn from a printed seed, and answers with an exit code.
 *
 *   static int case_primes(tut_grader *g) { size_t n = tut_grader_prime(g, 3, 100000); ... }
 *   static const tut_grader_case cases[] = {{"one", case_one}, {"primes", case_primes}};
 *   int main(int argc, char **argv)
 *   {
 *       const tut_exercise ex = {.id = "ex01.2", .title = "float4 kernel with its tail",
 *                                .cases = cases, .case_count = TUT_COUNT(cases),
 *                                .speed = speed, .speed_bar = 0.6};
 *       return tut_exercise_main(argc, argv, &ex);
 *   }
 *
 * Command line (the tests that tutorial_exercise() adds call these):
 *   --case <name>         one correctness case: 0 pass, 1 wrong result, 2 usage, 77 no GPU
 *   --speed               correctness at the benchmark size, then the timed comparison with the
 *                         chapter's ceiling or library: 1 below the bar; 77 under TUT_EMULATE_GPU
 *   --prediction <file>   `prediction = <number>` in the file against the figure measured here;
 *                         77 under TUT_EMULATE_GPU, as --speed
 *   --no-gpu              with --case: run it without selecting a GPU (g->dev is NULL): for a
 *                         case that makes no CUDA call (tutorial_exercise's CPU_CASES, marked
 *                         .cpu = 1 in the case list), so that it is graded on a machine without
 *                         a GPU too; any other case is refused (exit 2)
 *   --seed S              the sizes and inputs; else env TUT_EXERCISE_SEED (the grade report
 *                         sets it: one seed per run), else a new one each run. Printed first as
 *                         "seed S (rerun: --seed S)".
 *   --list                the cases, one a line
 * Env TUT_CASE_TIME_LIMIT=<seconds> (tutorial_exercise's tests set it a little below their
 * TIMEOUT): a run that has no result by then prints the likely causes (a kernel that never
 * finishes, or a run far slower than expected), naming the exercise, the case (or the timing)
 * and the boundary running, and exits 1; not a whole number from 1 to 86400: exit 2. The time
 * counts from the start, but a limit reached while the GPU is still being selected takes effect
 * only once the case begins (a hang in CUDA's start-up is left to ctest's limit).
 * A case returns 1 (pass) or 0 (wrong: it has printed index, found, expected, e.g. through
 * compare.h's checks). Outputs are poisoned before each run (tut_grader_poison) so that an
 * element nobody writes is caught, and NaN never passes. */
#ifndef TUTORIAL_EXERCISE_H
#define TUTORIAL_EXERCISE_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "options.h" /* TUT_COUNT */
#include "rng.h"
#include "speed_bars.h" /* every exercise's .speed_bar */
#include "timer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The environment variable that fixes the seed of every grader (as --seed does for one). */
#define TUT_EXERCISE_SEED_ENV "TUT_EXERCISE_SEED"
/* The environment variable that stops a run that has no result after that many seconds. */
#define TUT_CASE_TIME_LIMIT_ENV "TUT_CASE_TIME_LIMIT"

typedef struct {
    uint64_t seed;               /* printed; rerun with --seed */
    tut_rng rng;                 /* seeded with seed: draw sizes and inputs from it */
    const tut_device_info *dev;  /* the selected GPU (its limits, emulated if so); NULL in a
                                  * case run with --no-gpu */
} tut_grader;

typedef struct {
    const char *name;            /* --case <name>; the test is <id>.<name> */
    int (*run)(tut_grader *g);   /* 1 pass, 0 wrong */
    int cpu;                     /* 1: makes no CUDA call, so --no-gpu may run it (the case is
                                  * in tutorial_exercise's CPU_CASES); 0 (leave it out): needs a
                                  * GPU, and --no-gpu refuses it */
} tut_grader_case;

typedef struct {
    const char *id;              /* "ex01.2" */
    const char *title;
    unsigned needs;              /* TUT_NEED_... for tut_select_device */
    const tut_grader_case *cases;
    int case_count;
    /* --speed: checks the result at the benchmark size, times the kernel and the ceiling
     * (tut_grader_time_pair) and returns tut_grader_speed_verdict(...); NULL if none. */
    int (*speed)(tut_grader *g, double bar);
    double speed_bar;            /* the ratio the kernel must reach (see the chapter's page) */
    /* --prediction: measures the predicted figure on this GPU (NaN: could not measure, fails). */
    double (*measure)(tut_grader *g);
    const char *prediction_what; /* "vecadd time / copy time at n = 2^28" */
    double prediction_tolerance; /* relative: 0.2 passes a prediction within 20% of the figure */
} tut_exercise;

/* Parses the command line, prints the seed, selects the GPU (exit 77 without one) and runs what
 * was asked; returns the exit code (0, 1, 2 or 77). */
int tut_exercise_main(int argc, char **argv, const tut_exercise *ex);

/* ---- Sizes drawn from the seed ----------------------------------------------------------- */

/* Uniform in [lo, hi] (lo <= hi). */
size_t tut_grader_size(tut_grader *g, size_t lo, size_t hi);
/* An odd size in [lo, hi] (the range must hold one). */
size_t tut_grader_odd(tut_grader *g, size_t lo, size_t hi);
/* A prime in [lo, hi] (the range must hold one; lo >= 2). */
size_t tut_grader_prime(tut_grader *g, size_t lo, size_t hi);
/* k * tile - 1, k * tile or k * tile + 1 for a k in [1, max_k], never 0: the edges of a tile. */
size_t tut_grader_tile_edge(tut_grader *g, size_t tile, size_t max_k);
/* 1 if n is prime (for the CPU tests and the graders' own checks). */
int tut_grader_is_prime(size_t n);

/* ---- Boundary sizes: by design, in every run, beside the seeded ones ------------------------ */

/* A width the student's code depends on: a block, a tile, a vector width (float4: 4), a chunk
 * count, one full wave (SMs x resident blocks x threads, from the occupancy API of this GPU), a
 * warp (32). Its name goes into each boundary's name. */
typedef struct {
    const char *name;   /* "block", "tile", "float4", "wave" */
    size_t width;       /* 0: left out */
} tut_width;

/* One boundary size and what it is the boundary of: "smallest 1", "block*2-1", "float4*1+3". */
typedef struct {
    size_t n;
    char name[48];
} tut_boundary;

/* Fills out[] (at most cap entries) with the boundary sizes of the widths, all in [1, max], each
 * once (the first name wins), in this order: the smallest sizes 1, 2, 3; then for each width w
 * (in the order given) k*w - 1, k*w, k*w + 1 for k = 1, 2 and the largest k with k*w + 1 <= max;
 * and for a width of at most 8 (a vector width: the code branches on n mod w) k*w + r for every
 * residue r, at k = 1 and at the largest k. Returns how many it wrote (never more than cap). */
size_t tut_boundary_sizes(const tut_width *widths, int n_widths, size_t max, tut_boundary *out,
                          size_t cap);

/* How many parts of `chunk` items a split of n items into `parts` leaves empty when each part
 * holds ceil(n / parts) items (the usual split): parts - ceil(n / chunk). For a grader that wants
 * a split with empty last parts: e.g. n = parts - 1 items with one item per part. */
size_t tut_boundary_empty_parts(size_t n, size_t parts);

/* Runs check(g, n, ctx) for every boundary size, printing "boundary <name> (n = N): ok" or
 * "boundary <name> (n = N) -> FAIL" (the line a grade's why: quotes). Returns 1 if all passed. */
typedef int (*tut_boundary_check)(tut_grader *g, size_t n, void *ctx);
int tut_grader_run_boundaries(tut_grader *g, const tut_boundary *sizes, size_t count,
                              tut_boundary_check check, void *ctx);

/* For a grader whose boundary is not a size (a split, a count, an index): begin says which
 * boundary runs now (should the program stop inside it, through CUDA_CHECK's exit, its verdict
 * line is printed on the way out: "boundary <name> (n = N) -> FAIL (stopped inside it)"), and
 * verdict prints its line (as tut_grader_run_boundaries does) and returns ok. `name` must live
 * until the verdict. */
void tut_grader_boundary_begin(const char *name, size_t n);
int tut_grader_boundary_verdict(const char *name, size_t n, int ok);

/* ---- Runs ------------------------------------------------------------------------------- */

/* Fills `bytes` of device memory with 0xFF bytes: NaN as float or double, -1 as an integer. */
void tut_grader_poison(void *device_ptr, size_t bytes);

/* Best-of-several timing of the exercise's work and the ceiling's, the same way and interleaved
 * (rounds of tut_time_gpu_batched, each the other's neighbour in time): the fastest batch of
 * each, in ms per call. */
void tut_grader_time_pair(tut_work_fn kernel, void *kernel_arg, tut_work_fn ceiling,
                          void *ceiling_arg, double *kernel_ms, double *ceiling_ms);

/* tut_grader_time_pair after a first look, the fastest of 3 calls of each: where the kernel took
 * more than `far` times the ceiling's time there (a kernel that does many times the work it must,
 * as a loop that visits each element again and again), it says so and keeps those times instead
 * of the long timing. */
void tut_grader_time_pair_unless_far(tut_work_fn kernel, void *kernel_arg, tut_work_fn ceiling,
                                     void *ceiling_arg, double far, double *kernel_ms,
                                     double *ceiling_ms);

/* Prints "speed: <kernel> <x> <unit> vs <ceiling> <y> <unit>: ratio R, bar B -> PASS|FAIL" and
 * returns 1 if x / y >= bar. Rates: higher is faster (GB/s, TFLOP/s, items per second). */
int tut_grader_speed_verdict(const char *kernel, double kernel_rate, const char *ceiling,
                             double ceiling_rate, const char *unit, double bar);

/* ---- Predictions ------------------------------------------------------------------------- */

/* Reads `prediction = <number>` from a text file (other lines and # comments ignored). Returns
 * 1 with *value set, else 0 with the reason in why[] (missing file, still TODO, no number). */
int tut_exercise_read_prediction(const char *path, double *value, char *why, size_t why_len);

/* 1 if |predicted - measured| <= tolerance * |measured| (and both are finite). */
int tut_exercise_prediction_ok(double predicted, double measured, double tolerance);

/* ---- Stale shared memory (common/exercise_gpu.cu) ------------------------------------------ */

/* Fills the shared memory of every SM with 0xFF bytes (NaN as float or double, -1 as an integer):
 * a kernel of blocks holding as much dynamic shared memory as this GPU allows, several per SM.
 * A grader calls it just before the student's kernel, so that a kernel that reads shared memory
 * it never wrote reads NaN (in practice: the hardware promises nothing about stale contents, but
 * keeps them between kernels) instead of whatever an earlier kernel left there, perhaps the
 * right values. A probe kernel then reads the whole of each SM's shared memory without writing
 * it and prints a note if it found a word that is not poison; then the poison runs again, last.
 * Waits for the GPU. */
void tut_grader_poison_shared(void);

/* The same for the kernel the grader launches next (its address as launched, its threads per
 * block and dynamic shared memory), made effective by design: the kernel gets the poison's
 * shared memory carveout (the largest), so that the SM is not reconfigured between the two;
 * the poison and then a probe of the kernel's shape (threads, shared memory per block, as many
 * blocks as fit on every SM) are queued on the legacy stream, and the caller launches the
 * kernel right after, on the legacy stream or a blocking one, with nothing in between. After
 * the kernel (and a synchronisation), tut_grader_poison_shared_seen prints how many of the
 * words the probe read were poisoned and returns 1 if all were (0: stale shared memory may go
 * unseen in this run; not the student's fault, so graders only print it). A NULL or unknown
 * kernel falls back to tut_grader_poison_shared. */
void tut_grader_poison_shared_for(const void *kernel, int threads, size_t dynamic_shared);
int tut_grader_poison_shared_seen(void);

#ifdef __cplusplus
}
#endif

#endif
