/* warps: warp and lane numbers, and a divergent branch (docs/00_basics.md, section 3).
 *
 * A block of 64 threads is two warps of 32. Each thread records its warp and lane, then takes a
 * branch on its lane (even or odd: the warp diverges) and one on its warp (no divergence). In
 * each branch __activemask() records which lanes of the warp are running that branch together.
 * The host checks the numbering, the branch each lane took, and that no mask mixes lanes of the
 * two sides of a branch. Exit 0 pass, 1 fail, 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

#define THREADS 64

struct record { int warp, lane, side; unsigned lane_mask, warp_mask; };

__global__ void warp_kernel(struct record *out)
{
    const int t = threadIdx.x;
    struct record r;
    r.warp = t / warpSize; /* threads 0-31 are warp 0, 32-63 warp 1 */
    r.lane = t % warpSize; /* the thread's place in its warp */
    if (r.lane % 2 == 0) { /* even and odd lanes of one warp differ: the warp diverges */
        r.side = 0;
        r.lane_mask = __activemask();
    } else {
        r.side = 1;
        r.lane_mask = __activemask();
    }
    if (r.warp == 0) /* every lane of a warp agrees: no divergence */
        r.warp_mask = __activemask();
    else
        r.warp_mask = __activemask();
    out[t] = r;
}

int main(void)
{
    skip_without_gpu();
    struct record h[THREADS], *d;
    CHECK(cudaMalloc(&d, sizeof h));
    warp_kernel<<<1, THREADS>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));

    const unsigned even = 0x55555555u; /* bits 0, 2, 4, ...: the even lanes */
    int wrong = 0;
    for (int t = 0; t < THREADS; t++) {
        const struct record r = h[t];
        const unsigned self = 1u << r.lane;
        const unsigned other_side = r.side == 0 ? ~even : even;
        const int ok = r.warp == t / 32 && r.lane == t % 32 && r.side == r.lane % 2 &&
                       (r.lane_mask & self) && !(r.lane_mask & other_side) &&
                       (r.warp_mask & self);
        if (t % 16 == 0 || t % 16 == 1 || !ok)
            printf("thread %2d: warp %d lane %2d, branch %s, lanes together there 0x%08x, "
                   "in the warp-wide branch 0x%08x%s\n", t, r.warp, r.lane,
                   r.side ? "odd " : "even", r.lane_mask, r.warp_mask, ok ? "" : "  WRONG");
        wrong += !ok;
    }
    printf(wrong ? "FAIL\n" : "PASS\n");
    return wrong ? 1 : 0;
}
