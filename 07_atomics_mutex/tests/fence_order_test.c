/* The fence-order check of ex07.2 (fence_order.h) on saved listings: the solution and correct
 * alternatives pass, fences on the wrong side or of block scope or missing fail, with the reason
 * that names the side. tests/mistakes/sass/ holds cuobjdump -sass of mutex_ledger.cu and its
 * variants for sm_90 and sm_75 (how each was made: its first lines; beside the corpus, so that
 * the student copy, which holds no solutions, leaves them out). No GPU, no cuobjdump needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fence_order.h"
#include "options.h"
#include "own_sass.h"
#include "unit_test.h"

#ifndef FENCE_SASS_DIR
#error "FENCE_SASS_DIR: the folder of the saved listings (CMakeLists.txt sets it)"
#endif

static const char *const kernels[] = {"deposit_every_thread", "deposit_one_per_block"};

static char *read_listing(const char *name)
{
    char path[512], why[600];
    snprintf(path, sizeof path, "%s/%s", FENCE_SASS_DIR, name);
    char *text = own_sass_load(path, why, sizeof why);
    if (!text) {
        fprintf(stderr, "%s\n", why);
        exit(2);
    }
    return text;
}

/* The verdict on one saved listing, and (if given) a phrase its reason must hold. */
static void expect_listing(const char *name, fence_order_verdict want, const char *phrase)
{
    char *text = read_listing(name);
    char why[640];
    const fence_order_verdict got = fence_order_check(text, kernels, TUT_COUNT(kernels), why,
                                                      sizeof why);
    printf("%-20s %s: %s\n", name, got == FENCE_ORDER_OK ? "ok" : "wrong", why);
    EXPECT(got == want);
    if (phrase)
        EXPECT(strstr(why, phrase) != NULL);
    free(text);
}

static void test_right(void)
{
    expect_listing("ok_90.sass", FENCE_ORDER_OK, "2 atomic(s) taking the lock");
    expect_listing("ok_75.sass", FENCE_ORDER_OK, NULL);
    expect_listing("sleep_75.sass", FENCE_ORDER_OK, NULL);
    /* The lock and unlock as calls: the functions are inside the kernels' listings. */
    expect_listing("noinline_90.sass", FENCE_ORDER_OK, NULL);
    /* The corpus's alternative (ex07.2_mutex_exchange_lock): atomicExch takes the lock. */
    expect_listing("exch_90.sass", FENCE_ORDER_OK, NULL);
    expect_listing("exch_75.sass", FENCE_ORDER_OK, NULL);
    /* Acquire and release orders instead of fences: CCTL.IVALL after the CAS, MEMBAR before
     * the strong store. */
    expect_listing("atomic_ref_90.sass", FENCE_ORDER_OK, NULL);
    expect_listing("atomic_ref_75.sass", FENCE_ORDER_OK, NULL);
}

static void test_wrong_side(void)
{
    expect_listing("wrong_90.sass", FENCE_ORDER_WRONG, "the acquire fence goes after");
    expect_listing("wrong_75.sass", FENCE_ORDER_WRONG, "the acquire fence goes after");
    expect_listing("wrong_acq_90.sass", FENCE_ORDER_WRONG, "the acquire fence goes after");
    expect_listing("wrong_rel_75.sass", FENCE_ORDER_WRONG, "the release fence goes before");
    expect_listing("block_90.sass", FENCE_ORDER_WRONG, "__threadfence_block");
    expect_listing("none_90.sass", FENCE_ORDER_WRONG, "before any fence");
    /* The acquire fence under a predicate (made by hand from ok_90.sass): only the threads
     * whose predicate holds run it, so it is no fence. */
    expect_listing("guarded_90.sass", FENCE_ORDER_WRONG, "a fence under a predicate");
}

static void test_edges(void)
{
    char why[640];
    /* Nothing to read: a binary without SASS (PTX only), or the kernels renamed. */
    EXPECT(fence_order_check("", kernels, TUT_COUNT(kernels), why, sizeof why) ==
           FENCE_ORDER_NO_SASS);
    char *text = read_listing("ok_90.sass");
    static const char *const other[] = {"no_such_kernel"};
    EXPECT(fence_order_check(text, other, 1, why, sizeof why) == FENCE_ORDER_NO_SASS);
    free(text);
    /* The kernels, but no lock in them (the skeleton). */
    const char *skeleton = "\tcode for sm_90\n\t\tFunction : _Z20deposit_every_threadP6ledgerPiPKj\n"
                           "        /*0080*/                   LDG.E R7, desc[UR4][R2.64] ;\n"
                           "        /*0090*/                   STG.E desc[UR4][R2.64], R9 ;\n";
    EXPECT(fence_order_check(skeleton, kernels, TUT_COUNT(kernels), why, sizeof why) ==
           FENCE_ORDER_WRONG);
    EXPECT(strstr(why, "no atomic takes the lock") != NULL);
    /* A guarded atomic, a fence after it, the ledger, a fence, the exchange: right. A load
     * between the exchange's fence and the exchange: wrong. */
    const char *guarded =
        "\t\tFunction : _Z21deposit_one_per_blockP6ledgerPiPKj\n"
        "        /*0110*/              @P1 ATOMG.E.CAS.STRONG.GPU PT, R4, [R2], R4, R5 ;\n"
        "        /*0120*/                   ISETP.NE.AND P0, PT, R4, RZ, PT ;\n"
        "        /*0130*/                   MEMBAR.SC.GPU ;\n"
        "        /*0140*/                   LDG.E R8, desc[UR8][R4.64] ;\n"
        "        /*0150*/                   STG.E desc[UR8][R4.64], R9 ;\n"
        "        /*0160*/                   MEMBAR.SC.GPU ;\n"
        "        /*0170*/                   ERRBAR;\n"
        "        /*0180*/                   ATOMG.E.EXCH.STRONG.GPU PT, RZ, desc[UR8][R2.64], RZ ;\n";
    EXPECT(fence_order_check(guarded, kernels, TUT_COUNT(kernels), why, sizeof why) ==
           FENCE_ORDER_OK);
    char late[1024];
    snprintf(late, sizeof late, "%s%s", guarded,
             "        /*0190*/                   LDG.E R8, desc[UR8][R4.64] ;\n"
             "        /*01a0*/                   ATOMG.E.EXCH.STRONG.GPU PT, RZ, desc[UR8][R2.64], RZ ;\n");
    EXPECT(fence_order_check(late, kernels, TUT_COUNT(kernels), why, sizeof why) ==
           FENCE_ORDER_WRONG);
    EXPECT(strstr(why, "/*0190*/ LDG.E") != NULL);
    /* @PT is always true: a fence under it is a fence. @P0 is a guard: it is not. */
    const char *always =
        "\t\tFunction : _Z21deposit_one_per_blockP6ledgerPiPKj\n"
        "        /*0110*/                   ATOMG.E.CAS.STRONG.GPU PT, R4, [R2], R4, R5 ;\n"
        "        /*0130*/               @PT MEMBAR.SC.GPU ;\n"
        "        /*0140*/                   LDG.E R8, desc[UR8][R4.64] ;\n"
        "        /*0150*/                   STG.E desc[UR8][R4.64], R9 ;\n"
        "        /*0160*/                   MEMBAR.SC.GPU ;\n"
        "        /*0180*/                   ATOMG.E.EXCH.STRONG.GPU PT, RZ, desc[UR8][R2.64], RZ ;\n";
    EXPECT(fence_order_check(always, kernels, TUT_COUNT(kernels), why, sizeof why) ==
           FENCE_ORDER_OK);
    char guard[1024];
    snprintf(guard, sizeof guard, "%s", always);
    char *release = strstr(guard, "                   MEMBAR.SC.GPU ;");
    static const char prefix[] = "               @P0 "; /* as wide as the 19 spaces */
    memcpy(release, prefix, strlen(prefix)); /* the release fence, now guarded */
    EXPECT(fence_order_check(guard, kernels, TUT_COUNT(kernels), why, sizeof why) ==
           FENCE_ORDER_WRONG);
    EXPECT(strstr(why, "the release fence goes before") != NULL);
    EXPECT(strstr(why, "a fence under a predicate") != NULL);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"right", test_right}, {"wrong_side", test_wrong_side}, {"edges", test_edges}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
