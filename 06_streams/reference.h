/* What every variant computes, done on the CPU: the inputs and the expected output.
 *
 * out[i] = mix^work(x[i] + y[i]), in 32-bit unsigned arithmetic (wrapping, so no input can
 * overflow into undefined behaviour), where mix(v) = v * MIX_MUL + MIX_ADD. With work = 0 it is
 * the document's vector add. The GPU applies mix `work` times to each element, one dependent
 * multiply-add after another, which makes the kernel as slow as we like; the CPU composes the
 * `work` affine maps into one (a power by squaring) and applies that, so the check stays cheap
 * for any work. Plain C: the host tests check it against brute force. */
#ifndef STREAMS_REFERENCE_H
#define STREAMS_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The multiplier and increment of Numerical Recipes' LCG: odd multiplier, so mix is a bijection. */
#define MIX_MUL 1664525u
#define MIX_ADD 1013904223u

/* v -> mul * v + add (mod 2^32). */
typedef struct {
    uint32_t mul;
    uint32_t add;
} affine_map;

/* The map v -> MIX_MUL * v + MIX_ADD applied `times` times, as one affine map. */
affine_map mix_power(unsigned long long times);

/* The output for n elements, by the composed map (fast). */
void reference_output(const int32_t *x, const int32_t *y, int32_t *out, size_t n,
                      unsigned long long work);

/* One element the slow way, as the GPU does it (for the tests). */
uint32_t mix_brute_force(uint32_t v, unsigned long long work);

/* The document's inputs (x = 0..n-1, y = 2x) when `random` is 0; else x and y uniform in
 * [-2^30, 2^30) from `seed`, so the sum never overflows int32. */
void fill_inputs(int32_t *x, int32_t *y, size_t n, int random, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif
