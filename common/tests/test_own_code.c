/* own_code.h's reading of a fat binary, on made-up bytes: the student's file is found by its
 * name as a file name only, a library's trace in it is reported, compressed code is unreadable,
 * nothing else counts as a library. The graders' cases run it on their real device code. */
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "own_code.h"
#include "unit_test.h"

/* Bytes as a fat binary holds them: strings with NULs between, an ELF header among them. */
static size_t blob(unsigned char *out, size_t cap, const char *const *parts, int count)
{
    size_t n = 0;
    for (int i = 0; i < count; ++i) {
        const size_t len = strlen(parts[i]) + 1;
        if (n + len > cap)
            break;
        memcpy(out + n, parts[i], len);
        n += len;
    }
    return n;
}

static own_code_verdict scan(const char *const *parts, int count, const char *source, char *why)
{
    unsigned char bytes[2048];
    const size_t n = blob(bytes, sizeof bytes, parts, count);
    const own_code_verdict v = own_code_scan(bytes, n, source, why, 640);
    printf("  %d: %s\n", (int)v, why);
    return v;
}

static void test_scan(void)
{
    char why[640];
    const char *own[] = {"\177ELF\2\1\1", "/build/07_atomics_mutex/dot_fast.cu",
                         "_Z15dot_fast_kernelPKfS0_mPf", "/usr/include/cuda/std/__cmath"};
    EXPECT(scan(own, 4, "dot_fast.cu", why) == OWN_CODE_OWN);
    /* the grader's file, whose name ends with the student's: not the student's */
    const char *other[] = {"\177ELF\2\1\1", "/build/04_montecarlo/tests/grade_ex1_sum_pairs.cu",
                           "/usr/local/cuda/include/cccl/cub/device/device_reduce.cuh"};
    EXPECT(scan(other, 3, "sum_pairs.cu", why) == OWN_CODE_UNREADABLE);
    EXPECT(strstr(why, "does not name sum_pairs.cu") != NULL);
    /* the line table's file name alone, after a NUL (a directory kept apart) */
    const char *inlined[] = {"\177ELF", "sum_pairs.cu", "/usr/local/cuda/include/cccl/cub/warp",
                             "warp_reduce.cuh"};
    EXPECT(scan(inlined, 4, "sum_pairs.cu", why) == OWN_CODE_LIBRARY);
    EXPECT(strstr(why, "cccl/cub/warp") != NULL);
    const char *named[] = {"\177ELF", "/x/3_scan_chained.cu",
                           "_ZN3cub17CUB_300001_SM_9008WarpScanIiLi32EE12InclusiveScanEii"};
    EXPECT(scan(named, 3, "3_scan_chained.cu", why) == OWN_CODE_LIBRARY);
    EXPECT(strstr(why, "namespace cub::") != NULL);
    const char *thrust[] = {"\177ELF", "/x/dot_fast.cu",
                            "_ZN6thrust20THRUST_300001_SM_9008cuda_cub4core13_kernel_agent"};
    EXPECT(scan(thrust, 3, "dot_fast.cu", why) == OWN_CODE_LIBRARY);
    EXPECT(strstr(why, "thrust") != NULL);
    /* a name that holds "cub" without being the namespace: a student's own cube */
    const char *cube[] = {"\177ELF", "/x/dot_fast.cu", "_Z11cube_kernelPf", "/x/cubes/dot.h"};
    EXPECT(scan(cube, 4, "dot_fast.cu", why) == OWN_CODE_OWN);
    /* the student's own file in a folder named cub or thrust: not the library */
    const char *folder[] = {"\177ELF", "/home/u/cub/thrust/dot_fast.cu", "_Z8dot_fastPKf"};
    EXPECT(scan(folder, 3, "dot_fast.cu", why) == OWN_CODE_OWN);
    /* the toolkit's CUB of CUDA 12 (include/cub/), and a CCCL checkout's (cub/cub/) */
    const char *cuda12[] = {"\177ELF", "/x/dot_fast.cu", "/usr/local/cuda/include/cub/warp"};
    EXPECT(scan(cuda12, 3, "dot_fast.cu", why) == OWN_CODE_LIBRARY);
    const char *checkout[] = {"\177ELF", "/x/dot_fast.cu", "/home/u/cccl-main/cub/cub/block"};
    EXPECT(scan(checkout, 3, "dot_fast.cu", why) == OWN_CODE_LIBRARY);
    /* cooperative groups: cg::reduce and cg::inclusive_scan by their mangled names */
    const char *groups[] = {"\177ELF", "/x/sum_pairs.cu",
                            "_ZN18cooperative_groups4__v16reduceIfNS0_16thread_block_tileILj32EvEE"};
    EXPECT(scan(groups, 3, "sum_pairs.cu", why) == OWN_CODE_LIBRARY);
    EXPECT(strstr(why, "reduce") != NULL);
    const char *gscan[] = {"\177ELF", "/x/3_scan_chained.cu",
                           "_ZN18cooperative_groups4__v114inclusive_scanIiNS0_16thread_block"};
    EXPECT(scan(gscan, 3, "3_scan_chained.cu", why) == OWN_CODE_LIBRARY);
    EXPECT(strstr(why, "inclusive_scan") != NULL);
    /* their _async and _update forms: the reduction and the atomic in one call */
    const char *gasync[] = {"\177ELF", "/x/dot_fast.cu",
                            "_ZN18cooperative_groups4__v119reduce_update_asyncINS0_16thread_b"};
    EXPECT(scan(gasync, 3, "dot_fast.cu", why) == OWN_CODE_LIBRARY);
    EXPECT(strstr(why, "reduce_update_async") != NULL);
    const char *gupdate[] = {"\177ELF", "/x/dot_fast.cu",
                             "_ZN18cooperative_groups4__v121exclusive_scan_updateIi"};
    EXPECT(scan(gupdate, 3, "dot_fast.cu", why) == OWN_CODE_LIBRARY);
    /* the details namespace's helpers and tiled_partition stay the student's */
    const char *details[] = {"\177ELF", "/x/dot_fast.cu",
                             "_ZN18cooperative_groups4__v17details4tile",
                             "_ZN18cooperative_groups4__v115tiled_partition"};
    EXPECT(scan(details, 4, "dot_fast.cu", why) == OWN_CODE_OWN);
    /* a tile's own shuffles, libcu++'s reduce.h and the student's own scan.h: the lesson's */
    const char *tools[] = {"\177ELF", "/x/sum_pairs.cu",
                           "_ZN18cooperative_groups4__v117this_thread_blockEv",
                           "/usr/local/cuda/include/cooperative_groups/details", "sync.h",
                           "/usr/local/cuda/include/cccl/cuda/std/__numeric", "reduce.h",
                           "/x/scan.h"};
    EXPECT(scan(tools, 8, "sum_pairs.cu", why) == OWN_CODE_OWN);
    /* compressed: the name in the entry's header, no ELF to read */
    const char *packed[] = {"\x50\xed\x55\xba", "/x/dot_fast.cu", "\x28\xb5\x2f\xfd"};
    EXPECT(scan(packed, 3, "dot_fast.cu", why) == OWN_CODE_UNREADABLE);
    EXPECT(strstr(why, "compressed") != NULL);
}

/* This program's device code (the common library's, if any) names no dot_fast.cu. */
static void test_unregistered(void)
{
    char why[640];
    EXPECT(own_code_check("dot_fast.cu", why, sizeof why) == OWN_CODE_UNREADABLE);
    printf("  %s\n", why);
    EXPECT(strstr(why, "--wrap=__cudaRegisterFatBinary") != NULL);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {{"scan", test_scan},
                                            {"unregistered", test_unregistered}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
