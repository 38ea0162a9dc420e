/* The three readers of a SASS listing share one walker (common/own_sass.h's own_sass_walk):
 * ex07.1's signed-byte check (byte_sign.h), ex07.2's fence order (fence_order.h) and the
 * instruction count of ex01.2's vector_loads (own_sass_count). On every saved listing of
 * tests/mistakes/sass/, each gives the answer it gave when each walked the listing itself: the
 * verdict, a hash of its reason and the counts below were recorded from those walkers. Then the
 * walker's own rules on a small listing. No GPU, no cuobjdump needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "byte_sign.h"
#include "fence_order.h"
#include "options.h"
#include "own_sass.h"
#include "unit_test.h"

#ifndef FENCE_SASS_DIR
#error "FENCE_SASS_DIR: the folder of the saved listings (CMakeLists.txt sets it)"
#endif

typedef struct {
    const char *listing;
    int byte_sign;           /* byte_sign_verdict for histogram_shared_kernel */
    unsigned byte_sign_why;  /* FNV-1a of its reason */
    int fence_order;         /* fence_order_verdict for the two ledger kernels */
    unsigned fence_order_why;
    int counts[6];           /* own_sass_count of the queries below */
} recorded;

static const struct {
    const char *function, *prefix, *part;
} queries[6] = {{"histogram_shared_kernel", "LDG", ".S8"}, {"histogram_shared_kernel", "ATOMS", ""},
                {"deposit", "ATOM", ""}, {"deposit", "MEMBAR", ".GPU"}, {"", "LDG", ""},
                {"no_such_kernel", "LDG", ""}};

static const recorded answers[] = {
    {"atomic_ref_75.sass", 2, 0xa110aacau, 0, 0x6af0fff0u, {-1, -1, 2, 2, 10, -1}},
    {"atomic_ref_90.sass", 2, 0xa110aacau, 0, 0x6af0fff0u, {-1, -1, 2, 2, 10, -1}},
    {"block_90.sass", 2, 0xa110aacau, 1, 0x58eec533u, {-1, -1, 4, 0, 10, -1}},
    {"exch_75.sass", 2, 0xa110aacau, 0, 0x6af0fff0u, {-1, -1, 4, 4, 10, -1}},
    {"exch_90.sass", 2, 0xa110aacau, 0, 0x6af0fff0u, {-1, -1, 4, 4, 10, -1}},
    {"guarded_90.sass", 2, 0xa110aacau, 1, 0xba7a9ae1u, {-1, -1, 4, 4, 10, -1}},
    {"histogram_ok_75.sass", 0, 0x917f586bu, 2, 0xd32ba58fu, {1, 1, -1, -1, 1, -1}},
    {"histogram_ok_90.sass", 0, 0x917f586bu, 2, 0xd32ba58fu, {1, 1, -1, -1, 1, -1}},
    {"histogram_signed4_90.sass", 1, 0x337e046eu, 2, 0xd32ba58fu, {1, 5, -1, -1, 2, -1}},
    {"histogram_signed_75.sass", 1, 0x0b9d25d3u, 2, 0xd32ba58fu, {1, 1, -1, -1, 1, -1}},
    {"histogram_signed_90.sass", 1, 0x109e6e2fu, 2, 0xd32ba58fu, {1, 1, -1, -1, 1, -1}},
    {"histogram_uchar4_75.sass", 0, 0x2ce45313u, 2, 0xd32ba58fu, {1, 5, -1, -1, 2, -1}},
    {"histogram_uchar4_90.sass", 0, 0x2ce45313u, 2, 0xd32ba58fu, {1, 5, -1, -1, 2, -1}},
    {"noinline_90.sass", 2, 0xa110aacau, 0, 0x6af0fff0u, {-1, -1, 4, 4, 30, -1}},
    {"none_90.sass", 2, 0xa110aacau, 1, 0xb83b44b7u, {-1, -1, 4, 0, 10, -1}},
    {"ok_75.sass", 2, 0xa110aacau, 0, 0x6af0fff0u, {-1, -1, 4, 4, 10, -1}},
    {"ok_90.sass", 2, 0xa110aacau, 0, 0x6af0fff0u, {-1, -1, 4, 4, 10, -1}},
    {"sleep_75.sass", 2, 0xa110aacau, 0, 0x89dfb442u, {-1, -1, 6, 4, 10, -1}},
    {"wrong_75.sass", 2, 0xa110aacau, 1, 0x6426fa48u, {-1, -1, 4, 4, 10, -1}},
    {"wrong_90.sass", 2, 0xa110aacau, 1, 0x7c771e18u, {-1, -1, 4, 4, 10, -1}},
    {"wrong_acq_90.sass", 2, 0xa110aacau, 1, 0x7ad5080cu, {-1, -1, 4, 4, 10, -1}},
    {"wrong_rel_75.sass", 2, 0xa110aacau, 1, 0x230c523bu, {-1, -1, 4, 4, 10, -1}},
};

static unsigned fnv1a(const char *s)
{
    unsigned long h = 2166136261u;
    for (; *s; ++s)
        h = ((h ^ (unsigned char)*s) * 16777619u) & 0xffffffffu;
    return (unsigned)h;
}

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

static void test_same_answers(void)
{
    static const char *const ledger[] = {"deposit_every_thread", "deposit_one_per_block"};
    for (int i = 0; i < TUT_COUNT(answers); ++i) {
        const recorded *r = &answers[i];
        char *text = read_listing(r->listing);
        char why[640];
        const int sign = (int)byte_sign_check(text, "histogram_shared_kernel", why, sizeof why);
        const unsigned sign_why = fnv1a(why);
        const int fence = (int)fence_order_check(text, ledger, 2, why, sizeof why);
        const unsigned fence_why = fnv1a(why);
        int counts_match = 1;
        for (int q = 0; q < TUT_COUNT(queries); ++q)
            counts_match &= own_sass_count(text, queries[q].function, queries[q].prefix,
                                           queries[q].part) == r->counts[q];
        printf("%-26s byte_sign %d, fence_order %d, counts %s\n", r->listing, sign, fence,
               counts_match ? "as recorded" : "CHANGED");
        EXPECT(sign == r->byte_sign && sign_why == r->byte_sign_why);
        EXPECT(fence == r->fence_order && fence_why == r->fence_order_why);
        EXPECT(counts_match);
        free(text);
    }
}

typedef struct {
    char seen[1024];
} trace;

static void record(void *user, const own_sass_place *at, const char *line)
{
    trace *t = (trace *)user;
    char item[160];
    if (line)
        snprintf(item, sizeof item, "%s/%s:%.12s|", at->arch, at->function, strstr(line, "/*"));
    else
        snprintf(item, sizeof item, "%s/%s|", at->arch, at->function);
    strncat(t->seen, item, sizeof t->seen - strlen(t->seen) - 1);
}

/* Headers come with line NULL; an instruction line is one with a semicolon inside a function;
 * a "code for" line ends the function (the lines up to the next header are no one's). */
static void test_walk(void)
{
    const char *listing = "\tcode for sm_75\n"
                          "\t\tFunction : _Z3onePi\n"
                          "        /*0000*/                   MOV R1, c[0x0][0x28] ;\n"
                          "        /* 0x000fe40000000f00 */\n"
                          "        /*0010*/                   EXIT ;\n"
                          "\tcode for sm_90\n"
                          "        /*0000*/                   NOP ;\n"
                          "\t\tFunction : _Z3twoPi   \r\n"
                          "        /*0000*/                   EXIT ;";
    trace t = {""};
    own_sass_walk(listing, record, &t);
    printf("%s\n", t.seen);
    EXPECT(strcmp(t.seen, "sm_75/_Z3onePi|sm_75/_Z3onePi:/*0000*/    |"
                          "sm_75/_Z3onePi:/*0010*/    |sm_90/_Z3twoPi|"
                          "sm_90/_Z3twoPi:/*0000*/    |") == 0);
    trace none = {""};
    own_sass_walk("", record, &none);
    own_sass_walk(NULL, record, &none);
    EXPECT(none.seen[0] == '\0');
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {{"same_answers", test_same_answers},
                                            {"walk", test_walk}};
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
