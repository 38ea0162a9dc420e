/* The rod split over parts, and the halo each part needs, in plain C (tested on the CPU).
 *
 * n points go to `parts` contiguous parts of near-equal size: the first n % parts parts hold
 * one point more. Parts go to GPUs in contiguous runs, so neighbours share a GPU where they can.
 * Each part keeps count + 2 doubles:
 *
 *     [0]            the left halo: the last point of the part on its left (0.0 at the wall)
 *     [1 .. count]   its own points, rod points first .. first + count - 1
 *     [count + 1]    the right halo: the first point of the part on its right (0.0 at the wall)
 *
 * so that one update rule serves every point, the walls included: the one-GPU kernel reads 0.0
 * beyond a wall, and so does a part whose wall halo holds 0.0. After each step part p sends its
 * point [1] to the right halo of part p - 1 and its point [count] to the left halo of part
 * p + 1. A rod of fewer points than parts is refused (every part holds at least one point). */
#ifndef HEAT1D_SPLIT_H
#define HEAT1D_SPLIT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t first; /* the part's first point in the rod */
    size_t count; /* its points, at least 1 */
} heat_span;

/* Part p (0 <= p < parts) of n points, for 1 <= parts <= n. */
heat_span heat_split_part(size_t n, int parts, int p);

/* The GPU of part p when `parts` parts go to `gpus` GPUs (1 <= gpus <= parts): part p on GPU
 * p * gpus / parts, so each GPU holds parts / gpus or one more, neighbours together. */
int heat_split_device(int parts, int gpus, int p);

/* 1 if n points can be split into `parts` parts on `gpus` GPUs of `visible`; else 0 with the
 * reason in why[]. *skip is 1 when only the machine is short (fewer GPUs than asked: exit 77),
 * 0 when the request itself is wrong (exit 2). */
int heat_split_check(size_t n, int parts, int gpus, int visible, int *skip, char *why,
                     size_t len);

/* Where part p's halo sends go: the index in its own buffer of the point it sends left (to part
 * p - 1) and right (to part p + 1), and the index in the receiver's buffer it lands at. */
typedef struct {
    size_t from;  /* in the sender's buffer */
    size_t to;    /* in the receiver's buffer */
    int receiver; /* the receiving part; -1 at a wall (nothing to send) */
} heat_halo_send;
heat_halo_send heat_halo_left(size_t n, int parts, int p);
heat_halo_send heat_halo_right(size_t n, int parts, int p);

/* The split scheme on the CPU: u (n points) advanced `steps` steps by `parts` parts, each its
 * own buffer of count + 2 doubles, halos exchanged after every step through heat_halo_left and
 * heat_halo_right. Equal to heat_reference bit for bit when the halos are right. 0 if memory
 * ran out. */
int heat_split_reference(double *u, size_t n, int parts, long long steps, double k);

#ifdef __cplusplus
}
#endif

#endif
