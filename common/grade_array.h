/* The graders' harness for array kernels: what every grader of "n elements in, n elements out"
 * repeats, written once (common/grade_array.cu).
 *
 * A grader describes its arrays, a host reference and how to run the student's code:
 *
 *   static const tut_array_spec arrays[] = {
 *       {"x", TUT_ARRAY_F32, TUT_ARRAY_IN, -1, 1}, {"y", TUT_ARRAY_F32, TUT_ARRAY_INOUT, -1, 1}};
 *   static void reference(tut_arrays *s, void *ctx) { ... want[1][i] = a * x[i] + y[i] ... }
 *   static void run(const tut_arrays *s, tut_launch how, void *ctx)
 *   {   saxpy_kernel<<<how.blocks, how.threads, 0, how.stream>>>(a, x, y, s->n);   }
 *   const tut_array_job job = {.label = "saxpy", .arrays = arrays, .array_count = 2,
 *                              .reference = reference, .run = run,
 *                              .kernel = (const void *)saxpy_kernel};
 *   tut_array_check(g, &job, n, blocks, threads);   // one size, one grid: 1 if right
 *
 * and each case is one call. For one size, tut_array_check draws the inputs from the grader's
 * seed (in the order of the specs), computes the reference, poisons every output (0xFF bytes:
 * NaN, or -1 as an integer) and a guard zone of TUT_ARRAY_GUARD_BYTES before and after every
 * array the student writes, runs the student's code, then checks every element (bit-exact, or
 * within atol + rtol * |want|; NaN never passes) and that both guard zones still hold the
 * poison: an element nobody writes, one written past the end or before the start, are caught,
 * with the index, the value found and the value expected (for I32 outputs, an unwritten element
 * whose expected value is -1 is not: the poison and the answer are the same bits). An input's allocation ends at its
 * last element, so that compute-sanitizer's memcheck reports a read past the end.
 *
 * Two ways to run the student's code:
 *  - a kernel (job.kernel set): run() launches it on the grid given (how.blocks x how.threads),
 *    on the legacy default stream (how.stream is 0), as the chapter's own programs do;
 *  - a launcher (job.kernel NULL: a host function of the student's that picks its own grid and
 *    launches on the stream it is given): run() calls it with how.stream, a stream the harness
 *    created (cudaStreamNonBlocking), and how.blocks = how.threads = 0. The inputs arrive on
 *    that stream late: a kernel of the harness holds the stream for a few milliseconds, then
 *    writes the inputs (until then they hold the poison). A launcher that launches on another
 *    stream (the default one, a stream of its own) reads the poison, and fails. Once the values
 *    pass, the call is recorded by stream capture (common/capture.h) on a fresh stream, for
 *    n > 0: it must queue something there, so a launcher that waits on the host before
 *    launching elsewhere fails too (the wait stops the capture with an error; a launch on the
 *    default stream leaves the stream empty).
 * Where the order of calls is the lesson (which stream waits for which), a grader adds its own
 * check of the structure in job.structure, run after the values passed (for example on a graph
 * recorded by stream capture of the same run() call).
 *
 * Sizes by design: tut_array_boundaries runs every boundary size of common/exercise.h
 * (tut_boundary_sizes: 1, 2, 3, and k*w - 1, k*w, k*w + 1 for the warp, the block, the grid's
 * threads and the job's own widths) on one wave of blocks and on a grid drawn from the seed, or,
 * for a launcher, with the launcher's own grid. */
#ifndef TUTORIAL_GRADE_ARRAY_H
#define TUTORIAL_GRADE_ARRAY_H

#include <stddef.h>

#include <cuda_runtime_api.h> /* cudaStream_t: a C header */

#include "exercise.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most arrays one job may have. */
#define TUT_ARRAY_MAX 8
/* Poisoned bytes before and after every array the student writes (OUT, INOUT): 64 floats, and
 * a multiple of 256 keeps each array as aligned as cudaMalloc's (float4 loads need 16 bytes). */
#define TUT_ARRAY_GUARD_BYTES 256

typedef enum { TUT_ARRAY_F32, TUT_ARRAY_F64, TUT_ARRAY_I32 } tut_array_type;

typedef enum {
    TUT_ARRAY_IN,    /* read only: drawn from the seed */
    TUT_ARRAY_OUT,   /* written only: poisoned before the run, checked after */
    TUT_ARRAY_INOUT  /* in place: drawn, then checked against the reference's new values */
} tut_array_role;

typedef struct {
    const char *name;    /* "x": printed in the verdicts ("saxpy y: mismatch at ...") */
    tut_array_type type;
    tut_array_role role;
    double lo, hi;       /* IN, INOUT: uniform in [lo, hi) (I32: integers lo to hi - 1) */
} tut_array_spec;

/* One size's arrays, all of n elements, in the order of the specs. */
typedef struct {
    size_t n;
    void *host[TUT_ARRAY_MAX]; /* the inputs as drawn (IN, INOUT); NULL for OUT */
    void *want[TUT_ARRAY_MAX]; /* OUT, INOUT: the reference writes the expected values here */
    void *dev[TUT_ARRAY_MAX];  /* on the GPU, between two guard zones: pass these to the code */
} tut_arrays;

/* How run() must run the student's code this time. */
typedef struct {
    unsigned blocks, threads; /* a kernel's grid; 0, 0 for a launcher */
    cudaStream_t stream;      /* 0 for a kernel; the harness's stream for a launcher */
} tut_launch;

typedef struct {
    const char *label;                /* "saxpy": the first word of every line it prints */
    const tut_array_spec *arrays;
    int array_count;                  /* at most TUT_ARRAY_MAX */
    /* Host: fills want[k] of every OUT and INOUT array from host[] (and ctx). */
    void (*reference)(tut_arrays *s, void *ctx);
    /* Runs the student's code once on s->dev[] (see how); the harness checks the launch. */
    void (*run)(const tut_arrays *s, tut_launch how, void *ctx);
    const void *kernel;               /* a kernel: its address (one wave from occupancy); NULL:
                                       * run() calls a launcher */
    double atol, rtol;                /* F32, F64: 0, 0 is bit-exact */
    /* Extra boundary widths (a vector width: "float4", 4; a tile) for tut_array_boundaries. */
    const tut_width *widths;
    int width_count;
    /* Optional, after the values passed: 1 if the structure is right (a hook for checks of
     * streams and events; it may call run() again, e.g. under stream capture). */
    int (*structure)(tut_grader *g, const tut_arrays *s, void *ctx);
    void *ctx;                        /* given to every callback */
} tut_array_job;

/* One size, one grid (a kernel) or the launcher (blocks = threads = 0): draw, reference, poison,
 * run, check values and guard zones. n may be 0 (nothing may be written). 1 if right. */
int tut_array_check(tut_grader *g, const tut_array_job *job, size_t n, unsigned blocks,
                    unsigned threads);

/* A grid drawn from the seed for a grid-stride kernel: 1 to 64 blocks of 32 to 256 threads
 * (a multiple of 32), so that most sizes need many strides. */
void tut_array_random_grid(tut_grader *g, unsigned *blocks, unsigned *threads);

/* One wave of job->kernel on this GPU: the block size up to 256 that keeps the most threads
 * resident, times the blocks every SM holds (the chapter's launch). */
void tut_array_wave(tut_grader *g, const tut_array_job *job, unsigned *blocks, unsigned *threads);

/* The boundary sizes by design (above), every one checked and named in its verdict line
 * ("boundary grid*2-1 (n = ...) -> FAIL"). A kernel: on one wave and on a drawn grid, the widths
 * warp, block, grid, the job's widths and each of them that is at most 8 (a vector width) times
 * the grid's threads; sizes up to 2 * (vector width) * grid + 2. A launcher: the widths warp,
 * 256, 1024 and one wave of 2048 threads per SM, and the job's; sizes up to 2 waves + 2. 1 if
 * all pass. */
int tut_array_boundaries(tut_grader *g, const tut_array_job *job);

/* The speed test of a memory-bound kernel: the largest power of two up to 2^28 elements whose
 * arrays fit (at least 2^24; else it skips, exit 77), checked once on one wave (a kernel) or by
 * the launcher, then timed against cudaMemcpy device to device of n elements of the first
 * array's type (which moves 2 elements per element) the same way, interleaved, best of several
 * batches. bytes_per_element: what the kernel must move per element (vector add of floats: 12).
 * Returns 1 if the kernel's GB/s reach `bar` times the copy's. */
int tut_array_speed(tut_grader *g, const tut_array_job *job, double bytes_per_element,
                    double bar);

#ifdef __cplusplus
}
#endif

#endif
