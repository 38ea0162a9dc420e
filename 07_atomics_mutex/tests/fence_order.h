/* The order of the fences around the lock, read from the compiled code (ex07.2's "fences" case;
 * docs/07_atomics_mutex_exercises.md). A test cannot force a misplaced fence to show: the ledger
 * comes out right on most runs whichever side of the lock the fence is on. The machine code
 * shows it every time. In the SASS that `cuobjdump -sass` prints, for each function named:
 *
 *   the acquire: after every atomic that takes the lock (an ATOM or ATOMG whose result is read:
 *     atomicCAS or atomicExch in the spin loop), the next global memory instruction must be a
 *     fence of GPU or system scope (MEMBAR.SC.GPU, MEMBAR.ALL.GPU, ...; CCTL.IVALL, the L1
 *     invalidation that an acquire compiles to, counts too), not a load of the ledger;
 *   the release: before every atomic that gives it back (an ATOM or ATOMG whose result is
 *     dropped, a RED, or a strong store: atomicExch(mutex, 0), a release store), the last global
 *     memory instruction must be such a MEMBAR, not a store of the ledger.
 *
 * A block-scope fence (__threadfence_block: MEMBAR.SC.CTA) is no fence here: other blocks take
 * the lock; nor is a fence under a predicate (@P0 MEMBAR.SC.GPU: only some threads run it; @PT,
 * always true, is no guard). The check reads instruction order in the listing, which is the
 * order the code takes through the lock (the compiler keeps loads and stores on their side of a
 * fence). It does not follow branches: a compiler that laid the CAS's retry out after the
 * function's EXIT, its fence behind it, would have a right lock reported wrong (no saved
 * listing, sm_75 or sm_90 from nvcc 13.0, lays the lock out so). */
#ifndef ATOMICS_FENCE_ORDER_H
#define ATOMICS_FENCE_ORDER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FENCE_ORDER_OK = 0,      /* fences on the right sides of every lock and unlock */
    FENCE_ORDER_WRONG = 1,   /* a fence missing or on the wrong side (why[] says where) */
    FENCE_ORDER_NO_SASS = 2  /* the listing holds none of the functions: nothing to check */
} fence_order_verdict;

/* Checks the listing `sass` (cuobjdump -sass output, every architecture in it) in the functions
 * whose (mangled) names contain one of names[0..count-1]. why[] gets the reason of a WRONG or
 * NO_SASS verdict, and for OK a summary (how many locks and unlocks were checked). */
fence_order_verdict fence_order_check(const char *sass, const char *const *names, int count,
                                      char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
