/* CPU tests of the rod's split over parts and GPUs and of the halo arithmetic (multi/split.c):
 * every n up to 300 with every part count, sizes near the limits of size_t, the GPU of each
 * part, the refusals, and the split scheme on the CPU against the one-piece reference, bit for
 * bit. Needs no GPU. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat_reference.h"
#include "split.h"
#include "tutorial.h"
#include "unit_test.h"

/* The parts of n cover 0 .. n - 1 in order, each at least one point, sizes within one of
 * each other, the larger ones first. */
static int split_ok(size_t n, int parts)
{
    size_t next = 0, smallest = SIZE_MAX, largest = 0;
    int ok = 1, shrunk = 0;
    for (int p = 0; p < parts; ++p) {
        const heat_span s = heat_split_part(n, parts, p);
        ok &= s.first == next && s.count >= 1;
        if (p > 0 && s.count < heat_split_part(n, parts, p - 1).count)
            shrunk = 1;
        else if (shrunk && p > 0 && s.count > heat_split_part(n, parts, p - 1).count)
            ok = 0; /* grew again after shrinking */
        smallest = s.count < smallest ? s.count : smallest;
        largest = s.count > largest ? s.count : largest;
        next = s.first + s.count;
    }
    return ok && next == n && largest - smallest <= 1 && largest == (n + parts - 1) / parts;
}

static void test_every_small_split(void)
{
    for (size_t n = 1; n <= 300; ++n)
        for (int parts = 1; parts <= (int)n && parts <= 64; ++parts)
            if (!EXPECT(split_ok(n, parts)))
                printf("  n = %zu, parts = %d\n", n, parts);
}

static void test_large_splits(void)
{
    const size_t sizes[] = {(size_t)1 << 28, ((size_t)1 << 28) + 1, ((size_t)1 << 40) + 7,
                            1000000007, SIZE_MAX, SIZE_MAX - 1};
    const int parts[] = {1, 2, 3, 4, 7, 8, 64, 97, 4096};
    for (int i = 0; i < TUT_COUNT(sizes); ++i)
        for (int j = 0; j < TUT_COUNT(parts); ++j) {
            const heat_span last = heat_split_part(sizes[i], parts[j], parts[j] - 1);
            EXPECT(last.first + last.count == sizes[i]);
            EXPECT(heat_split_part(sizes[i], parts[j], 0).first == 0);
            if (sizes[i] < ((size_t)1 << 41)) /* split_ok computes n + parts - 1 */
                EXPECT(split_ok(sizes[i], parts[j]));
        }
    /* n = G: one point each; n = G + 1: the first part two */
    for (int g = 1; g <= 16; ++g) {
        for (int p = 0; p < g; ++p) {
            EXPECT(heat_split_part((size_t)g, g, p).count == 1);
            EXPECT(heat_split_part((size_t)g + 1, g, p).count == (p == 0 ? 2u : 1u));
        }
    }
    /* 10 points in 4 parts: 3 3 2 2, starting at 0 3 6 8 */
    const size_t first[4] = {0, 3, 6, 8}, count[4] = {3, 3, 2, 2};
    for (int p = 0; p < 4; ++p) {
        EXPECT(heat_split_part(10, 4, p).first == first[p]);
        EXPECT(heat_split_part(10, 4, p).count == count[p]);
    }
}

/* Each GPU holds parts / gpus or one more, in a contiguous run, in GPU order. */
static void test_devices(void)
{
    for (int parts = 1; parts <= 64; ++parts)
        for (int gpus = 1; gpus <= parts; ++gpus) {
            int held[64] = {0}, ok = 1, prev = 0;
            for (int p = 0; p < parts; ++p) {
                const int d = heat_split_device(parts, gpus, p);
                ok &= d >= 0 && d < gpus && d >= prev && d <= prev + 1;
                if (d >= 0 && d < 64)
                    held[d]++;
                prev = d;
            }
            for (int d = 0; d < gpus; ++d)
                ok &= held[d] == parts / gpus || held[d] == parts / gpus + 1;
            if (!EXPECT(ok && heat_split_device(parts, gpus, parts - 1) == gpus - 1))
                printf("  parts = %d, gpus = %d\n", parts, gpus);
        }
    EXPECT(heat_split_device(8, 2, 3) == 0 && heat_split_device(8, 2, 4) == 1);
}

static void test_refusals(void)
{
    char why[256];
    int skip = -1;
    EXPECT(heat_split_check(1000, 4, 4, 4, &skip, why, sizeof why) && skip == 0);
    EXPECT(heat_split_check(4, 4, 1, 1, &skip, why, sizeof why)); /* parts of one point */
    EXPECT(!heat_split_check(3, 4, 1, 1, &skip, why, sizeof why) && skip == 0);
    EXPECT(strstr(why, "--points 3 is fewer than the 4 parts") != NULL);
    EXPECT(!heat_split_check(1000, 2, 4, 8, &skip, why, sizeof why) && skip == 0);
    EXPECT(strstr(why, "--parts 2 is fewer than --gpus 4") != NULL);
    EXPECT(!heat_split_check(1000, 4, 4, 1, &skip, why, sizeof why) && skip == 1);
    EXPECT(strstr(why, "4 GPUs asked, this machine shows 1") != NULL);
    EXPECT(!heat_split_check(1000, 0, 1, 1, &skip, why, sizeof why) && skip == 0);
}

/* Every send goes to the neighbour's halo that stands for the sent point: the sender's point
 * `from` is rod point first + from - 1; the receiver's halo `to` is rod point
 * receiver.first + to - 1. At the walls nothing is sent. */
static void test_halos(void)
{
    for (size_t n = 1; n <= 120; ++n)
        for (int parts = 1; parts <= (int)n && parts <= 24; ++parts)
            for (int p = 0; p < parts; ++p) {
                const heat_span me = heat_split_part(n, parts, p);
                const heat_halo_send sends[2] = {heat_halo_left(n, parts, p),
                                                 heat_halo_right(n, parts, p)};
                EXPECT(sends[0].from == 1 && sends[1].from == me.count);
                EXPECT((sends[0].receiver < 0) == (p == 0));
                EXPECT((sends[1].receiver < 0) == (p == parts - 1));
                for (int side = 0; side < 2; ++side) {
                    if (sends[side].receiver < 0)
                        continue;
                    const heat_span to = heat_split_part(n, parts, sends[side].receiver);
                    const size_t sent = me.first + sends[side].from - 1;
                    /* halo 0 stands for to.first - 1, halo count + 1 for to.first + count */
                    const size_t lands = sends[side].to == 0 ? to.first - 1 : to.first + to.count;
                    EXPECT(sends[side].to == 0 || sends[side].to == to.count + 1);
                    if (!EXPECT(sent == lands))
                        printf("  n = %zu, parts = %d, part %d side %d\n", n, parts, p, side);
                }
            }
}

/* The split scheme on the CPU equals the one-piece reference bit for bit, for every part count,
 * rods of 1 to 1009 points (primes, parts of one point), random starts and k. */
static void test_split_reference(void)
{
    const size_t sizes[] = {1, 2, 3, 5, 8, 17, 97, 1000, 1009};
    const long long steps[] = {0, 1, 2, 7, 50};
    tut_rng rng;
    tut_rng_seed(&rng, 29);
    for (int i = 0; i < TUT_COUNT(sizes); ++i) {
        const size_t n = sizes[i];
        double *start = (double *)malloc(n * sizeof(double));
        double *want = (double *)malloc(n * sizeof(double));
        double *got = (double *)malloc(n * sizeof(double));
        double *scratch = (double *)malloc(n * sizeof(double));
        for (int parts = 1; parts <= (int)n && parts <= 12; ++parts)
            for (int j = 0; j < TUT_COUNT(steps); ++j) {
                const double k = 0.05 + 0.45 * tut_rng_uniform(&rng);
                heat_init_random(start, n, tut_rng_next(&rng));
                memcpy(want, start, n * sizeof(double));
                heat_reference(want, scratch, n, steps[j], k);
                memcpy(got, start, n * sizeof(double));
                EXPECT(heat_split_reference(got, n, parts, steps[j], k));
                if (!EXPECT(memcmp(got, want, n * sizeof(double)) == 0))
                    printf("  n = %zu, parts = %d, steps = %lld\n", n, parts, steps[j]);
            }
        free(start);
        free(want);
        free(got);
        free(scratch);
    }
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"every_small_split", test_every_small_split},
        {"large_splits", test_large_splits},
        {"devices", test_devices},
        {"refusals", test_refusals},
        {"halos", test_halos},
        {"split_reference", test_split_reference},
    };
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
