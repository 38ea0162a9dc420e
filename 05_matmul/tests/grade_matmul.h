/* What the graders of exercises ex05.1 to ex05.3 share: a kernel under test runs on problems whose
 * sizes come from the grader's seed, against a float64 CPU reference, and, for --speed, beside
 * cuBLAS FP32 on 4096^3 (tests/grade_matmul.cu). Grader-only code: the student never edits it. */
#ifndef GRADE_MATMUL_H
#define GRADE_MATMUL_H

#include "exercise.h"
#include "matmul.h"

typedef struct {
    const char *name;        /* "tiled", as the chapter's table calls it */
    matmul_launch_fn launch; /* the student's launcher */
    matmul_info_fn info;     /* its kernel, threads and dynamic shared memory (the poisoning's) */
    int pad;                 /* N and K are zero-padded to a multiple of this (4: float4 rows) */
    int tile_m, tile_n, tile_k; /* the block's tile of C and its K strip: edge sizes are drawn */
    int thread_m, thread_n;  /* a thread's block of C (8 x 8 in register blocking), 0: none */
} graded_matmul;

/* One correctness case of the exercise (--case): "one", "primes", "tile_edges", "boundaries"
 * (each of M, N and K in turn at the boundary sizes of its widths: the block's tile, a thread's
 * block of C, the float4 padding unit, every residue of a width of at most 8, the smallest
 * sizes; the other two at a partial second tile drawn from the seed), "strips" (several
 * blocks and strips, all of them partial: the sanitizers' case) or "random". Every problem
 * checks each element of the M x N result, and that nothing was written outside it (a poisoned
 * guard row below and guard columns to the right); shared memory is poisoned before each launch
 * (tut_grader_poison_shared_for the kernel of k->info, whose probe's count is printed) and the
 * inputs' rows hold NaN past their last column. Returns 1 if all pass. */
int grade_matmul_case(tut_grader *g, const graded_matmul *k, const char *case_name);

/* --speed: checks the kernel at 4096^3 (sampled CPU rows, and the whole result against cuBLAS),
 * then times it against cuBLAS FP32 (tut_grader_time_pair); 1 if its TFLOP/s reach bar x
 * cuBLAS's. */
int grade_matmul_speed(tut_grader *g, const graded_matmul *k, double bar);

#endif
