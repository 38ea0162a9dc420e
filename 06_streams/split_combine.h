/* ex06.5, split and combine across devices (docs/06_streams_2.md, "Exercise"): a dot product
 * cut into parts, part k on device[k] and stream[k], combined on the GPU of part 0, which reads
 * every part's partial sums directly (peer access). The rig (buffers, streams, events: each on
 * its part's device) comes from the caller; split_kernels.cu launches the two kernels. */
#ifndef SPLIT_COMBINE_H
#define SPLIT_COMBINE_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#define SPLIT_MAX_PARTS 16

typedef struct {
    int parts;
    int device[SPLIT_MAX_PARTS];          /* the GPU of part k (several parts may share one) */
    cudaStream_t stream[SPLIT_MAX_PARTS]; /* created on device[k] */
    cudaEvent_t done[SPLIT_MAX_PARTS];    /* created on device[k] */
    float *x[SPLIT_MAX_PARTS], *y[SPLIT_MAX_PARTS]; /* on device[k]: room for the largest part */
    double *partials[SPLIT_MAX_PARTS];    /* on device[k]: blocks[k] partial sums */
    int blocks[SPLIT_MAX_PARTS];          /* partial_dot's grid on device[k] */
    double *result;                       /* on device[0]: the combined sum */
} split_rig;

/* What the combining kernel reads: every part's partial sums, wherever they are. */
typedef struct {
    const double *partials[SPLIT_MAX_PARTS];
    int blocks[SPLIT_MAX_PARTS];
    int parts;
} combine_args;

/* The exercise: x . y over n floats in pinned host memory. Part k takes its share of the
 * elements (the first n % parts parts one more than the others), on device[k] and stream[k];
 * the GPU of part 0 adds every part's partial sums into result; returns that sum. */
double split_dot(split_rig *rig, const float *x, const float *y, size_t n);

/* Given (split_kernels.cu), each on the device current at the call:
 * partials[b] = block b's share of x . y (blocks blocks) on `stream`; */
void launch_partial_dot(const float *x, const float *y, size_t count, double *partials,
                        int blocks, cudaStream_t stream);
/* *result = the sum of every part's partials, one block, on `stream`; */
void launch_combine(const combine_args *args, double *result, cudaStream_t stream);
/* the grid of partial_dot that fills `device` (its SMs times the blocks that fit on one). */
int partial_dot_blocks(int device);
/* For the grader: how many launches since the last call went out with another GPU current than
 * the one holding their buffers, or had the combine read a GPU whose memory the current one had
 * no peer access to (then turned on, so that the combine does not fault); the first described in
 * `first` (may be NULL). A driver may run such a launch and get the right sum: the sum cannot
 * show these, the buffers' devices (cudaPointerGetAttributes) can. */
int split_launch_faults(char *first, size_t size);
/* For the grader: the element count of the last partial_dot launched into `partials` since the
 * last split_launch_faults call; SIZE_MAX if none was. */
size_t split_launched_count(const double *partials);

#endif
