/* The rod across GPUs: one part per GPU, or several parts per GPU (the logical mode that lets
 * one GPU run the split and the halo exchange), each with its own buffers, streams and events.
 *
 * A step of the overlapped variants, per part (docs/06_streams_3.md):
 *   compute stream: wait for the `sent` events of the part and its neighbours (last step's
 *                   halos have landed, and its own edge points have left), update the two edge
 *                   points (heat_launch_edges), record `edges_done`, update the interior
 *                   (heat_launch_interior);
 *   comm stream:    wait for `edges_done`, send the edge points to the neighbours' halos,
 *                   record `sent`.
 * Step s reads buf[s % 2] and writes buf[1 - s % 2]. */
#ifndef HEAT1D_PARTS_H
#define HEAT1D_PARTS_H

#include <stddef.h>

#include <cuda_runtime.h>

#include "split.h"

typedef struct {
    int device;                 /* the GPU it lives on */
    size_t first, count;        /* its points of the rod: [first, first + count) */
    double *buf[2];             /* count + 2 doubles each (split.h: halo, points, halo) */
    cudaStream_t compute, comm; /* the update; the halo sends */
    cudaEvent_t edges_done;     /* recorded on compute after the edge points' update */
    cudaEvent_t sent;           /* recorded on comm after the halo sends */
    unsigned blocks;            /* the most blocks of a launch: one thread per point up to
                                 * 2^20 blocks, as the one-GPU kernel (heat_config_step) */
} heat_part;

typedef enum {
    HEAT_MULTI_P2P,           /* peer copies, overlapped with the interior */
    HEAT_MULTI_P2P_SERIAL,    /* peer copies after the whole update, on the compute stream */
    HEAT_MULTI_NCCL,          /* ncclSend/ncclRecv, overlapped */
    HEAT_MULTI_NCCL_SERIAL,   /* ncclSend/ncclRecv after the whole update */
    HEAT_MULTI_VARIANTS,      /* how many */
} heat_multi_variant;

/* The names, in the enum's order: "p2p|p2p_serial|nccl|nccl_serial". */
extern const char *const heat_multi_names[HEAT_MULTI_VARIANTS];

typedef struct {
    size_t n;          /* points of the whole rod */
    int parts, gpus;   /* parts, and the GPUs (0 .. gpus - 1) they go to */
    double k;
    int threads;       /* per block, from the first GPU's limits (heat_config.h) */
    heat_part *part;
    int peer_pairs;    /* neighbouring parts on different GPUs with peer access enabled */
    int staged_pairs;  /* ... without (the runtime stages the copy through the host) */
    void *nccl;        /* the NCCL communicators, when made (nccl_step.cu) */
    /* Test hooks (the grader): part delay_part (-1: none) runs a kernel of delay_ns nanoseconds
     * before its edge points, so a send that does not wait for them reads the old values; with
     * hold set (1 + parts ints of mapped host memory), part p's interior update is followed by
     * a kernel that spins until hold[0] is 0 (or hold_timeout_ns passes) and says in hold[1 + p]
     * that it began (1), was let go (2) or gave up waiting (3). */
    int delay_part;
    unsigned long long delay_ns;
    volatile int *hold;
    unsigned long long hold_timeout_ns;
    /* Launches of a part's kernels made while another GPU than the part's was current (the
     * launch helpers count them; the grader fails a step that makes any). */
    int misplaced;
} heat_rod;

/* Allocates the parts of an n-point rod on GPUs 0 .. gpus - 1 (each part's GPU from
 * heat_split_device), their streams and events; enables peer access between neighbouring GPUs
 * where cudaDeviceCanAccessPeer allows it. Checks with heat_split_check first (returns 0 with
 * the reason). Needs tut_select_device to have run. */
int heat_rod_create(heat_rod *r, size_t n, int parts, int gpus, double k, int threads,
                    char *why, size_t len);
void heat_rod_destroy(heat_rod *r);

/* Copies the rod u (n points) into buf[0] of every part, halos included, and sets the wall
 * halos of buf[1] to 0.0. The other halos of buf[1] are left as they are (a grader poisons
 * them: only the sends may fill them). */
void heat_rod_scatter(heat_rod *r, const double *u);
/* Copies the rod after `steps` steps (in buf[steps % 2]) into u. Synchronises. */
void heat_rod_gather(const heat_rod *r, long long steps, double *u);
/* Waits for every part's streams. */
void heat_rod_sync(const heat_rod *r);

/* Launch on part p's compute stream, reading buf[in], writing buf[1 - in]: the edge points
 * ([1] and [count]), the interior ([2 .. count - 1]), all of them ([1 .. count]). The GPU of
 * part p must be current (a launch while another is counts in r->misplaced). */
void heat_launch_edges(heat_rod *r, int p, int in);
void heat_launch_interior(heat_rod *r, int p, int in);
void heat_launch_whole(heat_rod *r, int p, int in);

/* Part p's compute stream waits for the last `sent` of part p and of its neighbours: the halos
 * it reads have landed, and the edge points it overwrites were sent (the serial and NCCL steps;
 * overlap_step.cu writes the same loop out, as the exercise asks). */
void heat_wait_for_sends(heat_rod *r, int p);

/* One step of each variant. heat_overlap_step is overlap_step.cu (exercise ex02.5). */
void heat_overlap_step(heat_rod *r, long long s);
void heat_serial_step(heat_rod *r, long long s);

/* NCCL (nccl_step.cu): 1 if this build has it. heat_nccl_init makes the communicators (one
 * rank per part) and returns 1; 0 with the reason where they cannot be (no NCCL in this build;
 * several parts on one GPU: NCCL takes one GPU per rank); -1 with the reason if NCCL failed. */
int heat_nccl_built(void);
int heat_nccl_init(heat_rod *r, char *why, size_t len);
void heat_nccl_step(heat_rod *r, long long s, int overlap);
void heat_nccl_destroy(heat_rod *r);

/* `steps` steps of variant v from step 0 (the rod scattered); NCCL variants need
 * heat_nccl_init. Returns without waiting. */
void heat_rod_run(heat_rod *r, heat_multi_variant v, long long steps);

#endif
