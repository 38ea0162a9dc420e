/* Variant 3, fused: each thread draws its samples from a counter-based generator (Philox4x32-10)
 * held in registers, evaluates f, and adds f and f^2 up on the spot; the block sums its threads'
 * totals and writes one pair. No sample array, no state array: the only memory traffic is 16
 * bytes per block, so the generator's arithmetic is the limit (the docs page counts it).
 *
 * Why Philox and not the per-thread XORWOW states of variant 1: a counter-based generator's
 * "state" is just (key, counter). Stream s starts by setting the counter's upper half to s,
 * three integer operations, instead of XORWOW's jump-ahead through matrix tables, so a thread
 * can start a fresh, independent stream whenever it likes. Each Philox call gives 4 uniforms
 * (5 with the packed conversion, streams.h).
 * streams.h says how the samples map to streams, so the CPU can replay them (philox_host.c). */
#include "fused_philox_impl.cuh"

/* Stream s of the seed through cuRAND's state API: `len` (<= MC_STREAM_SAMPLES) samples,
 * summed in four float lanes, returned in float64. */
static __device__ __forceinline__ double2 sample_stream(unsigned long long seed,
                                                        unsigned long long s, unsigned len,
                                                        mc_integrand integrand,
                                                        mc_uniform uniform, float a, float width)
{
    curandStatePhilox4_32_10_t state;
    curand_init(seed, s, 0, &state); /* counter = (0, 0, s): cheap, unlike XORWOW */
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}, sq[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const unsigned calls = len / 4;
    for (unsigned k = 0; k < calls; ++k)
        add_samples(next_uniform4(&state, uniform), 4, integrand, a, width, sum, sq);
    if (len % 4 != 0) /* only the last stream of all can be short */
        add_samples(next_uniform4(&state, uniform), len % 4, integrand, a, width, sum, sq);
    return lanes_to_double(sum, sq);
}
