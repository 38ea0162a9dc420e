/* EXERCISE ex04.2 (a Philox stream through the state API; docs/04_montecarlo_exercises.md),
 * skeleton of 3_fused_philox.cu: write sample_stream() below; the grader is
 * tests/grade_ex2_philox_stream.cu. The rest of variant 3 (uniforms, float lanes, the stateless
 * loop, the kernel, its launcher) is in fused_philox_impl.cuh, complete: read it. Grade it (the
 * loop: docs/exercises.md):
 *     cmake --build build-exercises --target ex04.2 */
#include "fused_philox_impl.cuh"

/* EXERCISE: stream s of the seed through cuRAND's state API, `len` (<= MC_STREAM_SAMPLES)
 * samples. Return (sum f, sum f^2) over the stream's samples, in float64. Nothing else in this
 * file needs to change.
 *
 * The CPU replay (mc_replay_fused in philox_host.c) does exactly this on the host, and
 * sample_stream_counter (fused_philox_impl.cuh) does it without the state: read them. The check
 * (montecarlo --check) compares your sums with the replay's, so follow the same recipe:
 *   1. curandStatePhilox4_32_10_t state; curand_init(seed, s, 0, &state);
 *      (subsequence s: the counter's upper 64 bits are s, so streams never overlap)
 *   2. four float lanes sum[4] and sq[4], zeroed;
 *   3. len / 4 times: add_samples(next_uniform4(&state, uniform), 4, ...);
 *   4. if len % 4 != 0, one more call, of which only the first len % 4 uniforms count;
 *   5. return lanes_to_double(sum, sq).
 * Questions: why four float lanes rather than one? Why is float enough inside one stream, and
 * what would go wrong with one float accumulator per thread over all of its 2^14 samples? */
static __device__ __forceinline__ double2 sample_stream(unsigned long long seed,
                                                        unsigned long long s, unsigned len,
                                                        mc_integrand integrand,
                                                        mc_uniform uniform, float a, float width)
{
    /* TODO (ex04.2): steps 1 to 5 above. Until then every sum is 0 and the checks fail. */
    (void)seed, (void)s, (void)len, (void)integrand, (void)uniform, (void)a, (void)width;
    (void)next_uniform4; /* the helper you will call */
    return make_double2(0.0, 0.0);
}
