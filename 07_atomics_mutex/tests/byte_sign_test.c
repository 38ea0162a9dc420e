/* The signed-byte check of ex07.1 (byte_sign.h) on saved listings: the solution passes, the
 * corpus's signed char fails with the instruction named, on sm_90 and sm_75; and the
 * instruction count of common/own_sass.h. tests/mistakes/sass/
 * holds cuobjdump -sass of histogram_shared.cu and of ex07.1_signed_char.patch applied to it
 * (how each was made: its first lines). No GPU, no cuobjdump needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_sign.h"
#include "options.h"
#include "own_sass.h"
#include "unit_test.h"

#ifndef FENCE_SASS_DIR
#error "FENCE_SASS_DIR: the folder of the saved listings (CMakeLists.txt sets it)"
#endif

#define KERNEL "histogram_shared_kernel"

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

static void expect_listing(const char *name, byte_sign_verdict want, const char *phrase)
{
    char *text = read_listing(name);
    char why[640];
    const byte_sign_verdict got = byte_sign_check(text, KERNEL, why, sizeof why);
    printf("%-24s %s: %s\n", name, got == BYTE_SIGN_OK ? "ok" : "wrong", why);
    EXPECT(got == want);
    if (phrase)
        EXPECT(strstr(why, phrase) != NULL);
    free(text);
}

static void test_listings(void)
{
    /* The solution reads unsigned char: the compiler loads it sign-extended all the same and
     * tests the sign (c < 128), which the check sees. */
    expect_listing("histogram_ok_90.sass", BYTE_SIGN_OK, "each tested for its sign");
    expect_listing("histogram_ok_75.sass", BYTE_SIGN_OK, NULL);
    expect_listing("histogram_signed_90.sass", BYTE_SIGN_WRONG, "LDG.E.S8");
    expect_listing("histogram_signed_75.sass", BYTE_SIGN_WRONG, "no test of its sign");
    /* Four bytes a load (uchar4): each byte sign-extended once for its test and once more for
     * its use, the test sometimes on a copy (IMAD.MOV): the same value, tested. */
    expect_listing("histogram_uchar4_90.sass", BYTE_SIGN_OK, "each tested for its sign");
    expect_listing("histogram_uchar4_75.sass", BYTE_SIGN_OK, "each tested for its sign");
    expect_listing("histogram_signed4_90.sass", BYTE_SIGN_WRONG, "no test of its sign");
}

/* common/own_sass.h's count, which ex01.2's vector_loads uses, on the same listings. */
static void test_count(void)
{
    char *text = read_listing("histogram_ok_90.sass");
    EXPECT(own_sass_count(text, KERNEL, "LDG", ".S8") == 1);
    EXPECT(own_sass_count(text, KERNEL, "LDG", ".128") == 0);
    EXPECT(own_sass_count(text, KERNEL, "ATOMS", "") >= 1);
    EXPECT(own_sass_count(text, "no_such_kernel", "LDG", "") == -1);
    free(text);
    const char *guarded = "\t\tFunction : _Z19vecadd_f32x4_kernelPKfS0_Pfm\n"
                          "        /*0100*/               @P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64] ;\n"
                          "        /*0110*/                   LDCU.128 UR12, c[0x0][0x380] ;\n";
    EXPECT(own_sass_count(guarded, "vecadd_f32x4_kernel", "LDG", ".128") == 1);
    EXPECT(own_sass_count(guarded, "vecadd_f32x4_kernel", "LD.", ".128") == 0);
}

static void test_edges(void)
{
    char why[640];
    EXPECT(byte_sign_check("", KERNEL, why, sizeof why) == BYTE_SIGN_NO_SASS);
    /* A sign-extension by PRMT (a byte of a wider load, or __ldg of a char) used untested;
     * then the same with a test of the register (a predicate written from it). */
    const char *prmt = "\t\tFunction : _Z23histogram_shared_kernelPKhmPy\n"
                       "        /*0100*/                   LDG.E.U8.CONSTANT R2, desc[UR4][R2.64] ;\n"
                       "        /*0110*/                   PRMT R5, R2, 0x8880, RZ ;\n"
                       "        /*0120*/                   LEA R4, R5.reuse, R7, 0x2 ;\n"
                       "        /*0130*/                   ATOMS.POPC.INC.32 RZ, [R4+URZ] ;\n"
                       "        /*0140*/                   IMAD.WIDE R5, R9, 0x8, R6 ;\n";
    EXPECT(byte_sign_check(prmt, KERNEL, why, sizeof why) == BYTE_SIGN_WRONG);
    EXPECT(strstr(why, "/*0110*/ PRMT") != NULL);
    char tested[1024];
    snprintf(tested, sizeof tested, "%.*s%s%s", (int)(strstr(prmt, "        /*0120*/") - prmt),
             prmt, "        /*0118*/                   ISETP.GE.AND P0, PT, R5, RZ, PT ;\n",
             strstr(prmt, "        /*0120*/"));
    EXPECT(byte_sign_check(tested, KERNEL, why, sizeof why) == BYTE_SIGN_OK);
    /* R50 is not R5: a test of another register is no test. */
    char other[1024];
    snprintf(other, sizeof other, "%s", tested);
    char *r5 = strstr(other, "PT, R5, RZ");
    memcpy(r5, "PT, R50,RZ", 10);
    EXPECT(byte_sign_check(other, KERNEL, why, sizeof why) == BYTE_SIGN_WRONG);
    /* No byte read as signed at all (LDG.E.U8 only): nothing to test. */
    const char *unsigned_only = "\t\tFunction : _Z23histogram_shared_kernelPKhmPy\n"
                                "        /*0100*/                   LDG.E.U8 R2, desc[UR4][R2.64] ;\n"
                                "        /*0120*/                   LEA R4, R2, R7, 0x2 ;\n";
    EXPECT(byte_sign_check(unsigned_only, KERNEL, why, sizeof why) == BYTE_SIGN_OK);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"listings", test_listings}, {"count", test_count}, {"edges", test_edges}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
