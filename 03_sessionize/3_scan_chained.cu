/* Variant 3: the max-scan written by hand, in one pass over the data.
 *
 * Each block labels one tile of CHAINED_TILE consecutive events:
 *   1. each warp scans 32 events at a time with shuffles (warp_max_scan) and carries the running
 *      maximum across its CHAINED_ITEMS rows of 32;
 *   2. the block combines its warps through shared memory: each warp needs the max of the warps
 *      before it;
 *   3. across tiles, a chained (decoupled) look-back: each tile publishes its result in a status
 *      word, and reads its predecessors' words to learn the latest session start before it.
 * Bytes: 16 read + 8 written per event, the same as CUB's single pass. (The simpler three-phase
 * scan, per-tile maxima then their scan then a second pass, reads the inputs twice: 40 bytes.)
 *
 * The look-back is short for a max of indices: a tile that contains a session start already
 * knows its final answer (its latest start beats anything earlier), so a successor stops at the
 * nearest tile that holds a start. Only tiles inside one long session have to wait for a
 * predecessor's full prefix. Tiles are numbered in the order blocks start (an atomic counter),
 * so a block only waits for blocks already running: no deadlock whatever the scheduling. */
#include "scan_chained_kernel.cuh"

/* Inclusive max-scan across the 32 lanes of a warp: lane k returns the max of lanes 0..k.
 * Hillis-Steele: after the step with distance d, each lane holds the max of its last 2d values. */
__device__ static int64_t warp_max_scan(int64_t value)
{
    const int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d *= 2) {
        const int64_t other = __shfl_up_sync(FULL_WARP, value, d);
        if (lane >= d)
            value = max64(value, other);
    }
    return value;
}
