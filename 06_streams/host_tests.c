/* CPU tests, no GPU needed: the chunking arithmetic, the pipeline shape rules and the CPU
 * reference (the composed affine map against one round at a time). Exit 0 pass, 1 fail. */
#include <stdio.h>
#include <string.h>

#include "chunks.h"
#include "reference.h"
#include "tutorial.h"

static int failures = 0;

#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                     \
            printf(__VA_ARGS__);                                                            \
            printf("\n");                                                                   \
            ++failures;                                                                     \
        }                                                                                   \
    } while (0)

/* Chunks tile [0, n) in order, none empty, sizes differ by at most one. */
static void check_tiling(size_t n, size_t k)
{
    size_t next = 0, smallest = (size_t)-1, largest = 0;
    for (size_t i = 0; i < k; ++i) {
        const chunk_range r = chunk_of(n, k, i);
        EXPECT(r.offset == next, "n %zu k %zu chunk %zu starts at %zu, not %zu", n, k, i,
               r.offset, next);
        EXPECT(r.count >= 1, "n %zu k %zu chunk %zu is empty", n, k, i);
        next = r.offset + r.count;
        smallest = r.count < smallest ? r.count : smallest;
        largest = r.count > largest ? r.count : largest;
    }
    EXPECT(next == n, "n %zu k %zu: chunks end at %zu", n, k, next);
    EXPECT(largest - smallest <= 1, "n %zu k %zu: sizes %zu..%zu", n, k, smallest, largest);
    EXPECT(chunk_of(n, k, 0).count == largest, "n %zu k %zu: chunk 0 is not the longest", n, k);
}

static void test_chunks(void)
{
    for (size_t n = 1; n <= 200; ++n)
        for (size_t k = 1; k <= n && k <= 40; ++k)
            check_tiling(n, k);
    check_tiling(20000000, 5);   /* the document */
    check_tiling(20000001, 5);   /* its 20000000 // 5 would drop the last element */
    check_tiling(1000003, 7);
    check_tiling(1000003, 128);
    check_tiling((size_t)1 << 40, 3); /* offsets past 2^32 */
    check_tiling(((size_t)1 << 40) + 12345, 1000);
    const chunk_range last = chunk_of(20000001, 5, 4);
    EXPECT(last.offset == 16000001 && last.count == 4000000, "20000001/5 last chunk %zu+%zu",
           last.offset, last.count);
}

static void test_shapes(void)
{
    char why[200];
    EXPECT(pipeline_shape_check(20000000, 5, 5, why, sizeof why) == 0, "5x5 refused");
    EXPECT(pipeline_shape_check(7, 7, 7, why, sizeof why) == 0, "7x7 on 7 refused");
    EXPECT(pipeline_shape_check(1, 1, 1, why, sizeof why) == 0, "n=1 refused");
    EXPECT(pipeline_shape_check(100, 16, 4, why, sizeof why) == 0, "16 chunks on 4 refused");
    EXPECT(pipeline_shape_check(100, 3, 5, why, sizeof why) != 0 && strstr(why, "more than"),
           "more streams than chunks accepted");
    EXPECT(pipeline_shape_check(5, 7, 7, why, sizeof why) != 0 && strstr(why, "empty"),
           "more chunks than elements accepted");
    EXPECT(pipeline_shape_check(1000, 1000, STREAMS_MAX_STREAMS + 1, why, sizeof why) != 0,
           "too many streams accepted");
    EXPECT(pipeline_shape_check(1000, 10, 0, why, sizeof why) != 0, "0 streams accepted");
    EXPECT(pipeline_shape_check(0, 1, 1, why, sizeof why) != 0, "n=0 accepted");
}

static void test_reference(void)
{
    const affine_map id = mix_power(0);
    EXPECT(id.mul == 1u && id.add == 0u, "mix^0 is not the identity");
    const affine_map one = mix_power(1);
    EXPECT(one.mul == MIX_MUL && one.add == MIX_ADD, "mix^1 is not mix");
    tut_rng rng;
    tut_rng_seed(&rng, TUT_DEFAULT_SEED);
    for (unsigned long long work = 0; work <= 600; work += (work < 40 ? 1 : 37)) {
        const affine_map m = mix_power(work);
        for (int t = 0; t < 20; ++t) {
            const uint32_t v = (uint32_t)tut_rng_next(&rng);
            const uint32_t slow = mix_brute_force(v, work);
            EXPECT(m.mul * v + m.add == slow, "work %llu v %u: %u, brute force %u", work, v,
                   m.mul * v + m.add, slow);
        }
    }
    /* Known values: the add alone, and one round on 0 + 0. */
    int32_t x[4], y[4], out[4];
    fill_inputs(x, y, 4, 0, 0);
    EXPECT(x[3] == 3 && y[3] == 6, "arange inputs x[3] %d y[3] %d", x[3], y[3]);
    reference_output(x, y, out, 4, 0);
    EXPECT(out[0] == 0 && out[3] == 9, "add: out %d %d", out[0], out[3]);
    reference_output(x, y, out, 1, 1);
    EXPECT(out[0] == (int32_t)MIX_ADD, "one round on 0: %d", out[0]);
    /* Random inputs stay in [-2^30, 2^30): their sum cannot overflow int32. */
    int32_t rx[1000], ry[1000];
    fill_inputs(rx, ry, 1000, 1, 42);
    int in_range = 1, distinct = 0;
    for (int i = 0; i < 1000; ++i) {
        in_range &= rx[i] >= -(1 << 30) && rx[i] < (1 << 30) && ry[i] >= -(1 << 30) &&
                    ry[i] < (1 << 30);
        distinct += i > 0 && rx[i] != rx[i - 1];
    }
    EXPECT(in_range, "random inputs out of range");
    EXPECT(distinct > 990, "random inputs look constant");
}

int main(void)
{
    test_chunks();
    test_shapes();
    test_reference();
    printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
