/* CPU tests of the launch arithmetic (launch_math.h): no GPU needed. */
#include <stdint.h>
#include <stdio.h>

#include "compare.h"
#include "launch_math.h"
#include "unit_test.h"


int main(void)
{
    EXPECT(blocks_to_cover(1, 256) == 1);
    EXPECT(blocks_to_cover(256, 256) == 1); /* the document's n // 256 + 1 would give 2 */
    EXPECT(blocks_to_cover(257, 256) == 2);
    EXPECT(blocks_to_cover(100000, 256) == 391);
    EXPECT(blocks_to_cover(0, 256) == 0);
    /* Past 2^31 elements: the block count still fits, and nothing wraps around. */
    EXPECT(blocks_to_cover((size_t)1 << 33, 256) == (size_t)1 << 25);
    EXPECT(blocks_to_cover(((size_t)1 << 31) + 5, 1024) == ((size_t)1 << 21) + 1);

    /* Every element covered, no block without work. */
    for (size_t n = 1; n < 5000; n += 7) {
        const size_t b = blocks_to_cover(n, 128);
        EXPECT(b * 128 >= n && (b - 1) * 128 < n);
    }

    /* Grid-stride grids: one wave at most, enough for small n, never zero. */
    EXPECT(grid_stride_blocks((size_t)1 << 28, 256, 132, 8) == 132 * 8);
    EXPECT(grid_stride_blocks(1000, 256, 132, 8) == 4);
    EXPECT(grid_stride_blocks(0, 256, 132, 8) == 1);

    /* float4 split: whole vectors plus a tail of 0..3, summing back to n. */
    for (size_t n = 0; n < 100; ++n) {
        EXPECT(4 * float4_count(n) + float4_tail(n) == n);
        EXPECT(float4_tail(n) < 4);
    }
    EXPECT(float4_count(((size_t)1 << 32) + 3) == (size_t)1 << 30);
    return tut_finish(tut_test_failures() == 0);
}
