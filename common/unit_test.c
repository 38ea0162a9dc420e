#include "unit_test.h"

#include <stdio.h>
#include <string.h>

#include "compare.h"

static int failures = 0;

int tut_expect(int ok, const char *text, const char *file, int line)
{
    if (!ok) {
        const char *base = strrchr(file, '/');
        printf("  FAILED at %s:%d: %s\n", base ? base + 1 : file, line, text);
        ++failures;
    }
    return ok;
}

int tut_test_failures(void)
{
    return failures;
}

int tut_test_most_blocks_per_sm(const tut_device_info *dev, int threads, int regs, size_t shared)
{
    /* Registers go to warps in chunks of 256, warps to the SM's 4 schedulers, each with a quarter
     * of the registers; shared memory in chunks of 256 bytes on 7.x, 128 from 8.0. */
    const long warps_per_block = (threads + dev->warp_size - 1) / dev->warp_size;
    const long regs_per_warp = ((long)regs * dev->warp_size + 255) / 256 * 256;
    const long warps_per_scheduler = dev->regs_per_sm / 4 / regs_per_warp;
    const size_t chunk = dev->major <= 7 ? 256 : 128;
    const size_t block_shared = (shared + chunk - 1) / chunk * chunk + dev->reserved_shared_per_block;
    int best = 0;
    for (int b = 1; b <= dev->max_blocks_per_sm; ++b)
        if ((long)b * threads <= dev->max_threads_per_sm &&
            b * warps_per_block <= 4 * warps_per_scheduler &&
            (size_t)b * block_shared <= dev->shared_per_sm)
            best = b;
    return best;
}

int tut_run_test_groups(int argc, char **argv, const tut_test_group *groups, int count)
{
    int ran = 0;
    for (int g = 0; g < count; ++g) {
        if (argc > 1 && strcmp(argv[1], groups[g].name) != 0)
            continue;
        printf("[%s]\n", groups[g].name);
        groups[g].run();
        ++ran;
    }
    if (!ran) {
        fprintf(stderr, "unknown test group '%s'\n", argv[1]);
        return 2;
    }
    return tut_finish(failures == 0);
}
