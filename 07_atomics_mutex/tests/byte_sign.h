/* A byte read as a signed char, seen in the compiled code (ex07.1's "signed_bytes" case;
 * docs/07_atomics_mutex_exercises.md). A histogram that reads a text byte through `char`
 * (`const char c = text[i]`, then block_bins[c]) turns every byte >= 128 into a negative bin
 * index, -128 .. -1: a write before the block's shared array. On compute capability 9.0 and
 * later (an H100, an H200), a block's shared variables start 1 KiB into its window, after memory
 * the system reserves, and the writes land there: the counts stay right and compute-sanitizer
 * stays quiet, so no run can show it. The machine code does, every time. In the SASS that
 * `cuobjdump -sass` prints, for each function named:
 *
 *   every value that the code sign-extends from a byte (a load LDG.S8 / LD.S8, or I2I.*.S8,
 *   PRMT with the sign-replicating selector 0x8880, SGXT of 8 bits) must be tested before the
 *   register is written again: an instruction whose result is a predicate (ISETP, LOP3 into a
 *   predicate, ...) must read it. The test is what keeps a negative value from indexing:
 *   `if (c < TEXT_BINS)` on an unsigned char compiles to a signed load and a test of its sign;
 *   on a char, the same test is always true, and the compiler drops it.
 *
 * The check follows the listing in order, not the branches. A test of a plain copy of the
 * register (MOV, IMAD.MOV) counts, and so does a test of an earlier extension of the same
 * register (a loop over the four bytes of a word extends each byte once for its test and once
 * more for its use). Reading the bytes as unsigned char, as the exercise's header asks, passes
 * (checked on sm_75 to sm_120 with nvcc 13.0, byte by byte or four bytes a load); code built
 * with -G does not: it extends the byte before its test on a path the check cannot follow. */
#ifndef ATOMICS_BYTE_SIGN_H
#define ATOMICS_BYTE_SIGN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    BYTE_SIGN_OK = 0,      /* every sign-extended byte tested, or none */
    BYTE_SIGN_WRONG = 1,   /* a sign-extended byte used untested (why[] says where) */
    BYTE_SIGN_NO_SASS = 2  /* the listing holds none of the functions: nothing to check */
} byte_sign_verdict;

/* Checks the listing `sass` (cuobjdump -sass output, every architecture in it) in the functions
 * whose (mangled) names contain `name`. why[] gets the reason of a WRONG or NO_SASS verdict,
 * and for OK a summary (how many sign-extended bytes were found, all tested). */
byte_sign_verdict byte_sign_check(const char *sass, const char *name, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
