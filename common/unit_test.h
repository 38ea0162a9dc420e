/* The CPU unit tests' checks, in one place.
 *
 *   static void test_sizes(void) { EXPECT(tut_bytes(3, 4, "x") == 12); }
 *   int main(int argc, char **argv)
 *   {
 *       static const tut_test_group groups[] = {{"sizes", test_sizes}};
 *       return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
 *   }
 *
 * EXPECT prints a failed condition with its file and line and counts it; the test goes on, so
 * one run shows every failure. Not part of tutorial.h: chapter programs check with compare.h. */
#ifndef TUTORIAL_UNIT_TEST_H
#define TUTORIAL_UNIT_TEST_H

#include <stddef.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counts and prints a failed check (ok == 0); returns ok. */
int tut_expect(int ok, const char *text, const char *file, int line);

/* How many checks have failed so far. */
int tut_test_failures(void);

/* The most blocks of `threads` threads (with `regs` registers each and `shared` bytes of shared
 * memory) that one SM of `dev` holds, found by trying every count against the limits: a reference
 * for tests that a chapter's launch choice takes the most that fit. */
int tut_test_most_blocks_per_sm(const tut_device_info *dev, int threads, int regs, size_t shared);

typedef struct {
    const char *name;
    void (*run)(void);
} tut_test_group;

/* Runs the group named by argv[1], or every group with none; prints PASS or FAIL and returns the
 * exit code: 0 all passed, 1 a check failed, 2 no group of that name. */
int tut_run_test_groups(int argc, char **argv, const tut_test_group *groups, int count);

#ifdef __cplusplus
}
#endif

#define EXPECT(cond) tut_expect((cond) != 0, #cond, __FILE__, __LINE__)

#endif
