/* Variant 2, the library pipeline: cuRAND's host API fills an array with uniforms (Philox, the
 * generator cuRAND runs fastest), and CUB's DeviceReduce::TransformReduce maps each uniform u to
 * the pair (f(x), f(x)^2), x = a + (b - a) u, and sums the pairs. Two library calls per chunk and
 * no kernel of our own, but every sample goes through device memory (or L2) twice: written by
 * the generator, read back by the reduction. That traffic is what the fused variant removes. */
#include <stdio.h>
#include <stdlib.h>

#include <cub/device/device_reduce.cuh>
#if CUB_VERSION < 200400 /* CUDA 12.0-12.4: see reduce_uniforms */
#include <cub/iterator/transform_input_iterator.cuh>
#endif

#include "check_curand.h"
#include "tutorial.h"

#include "variants.h"

/* CUB's API is C++: the transform and the reduction are function objects. */
struct uniform_to_pair {
    mc_integrand integrand;
    float a, width;
    __device__ double2 operator()(float u) const
    {
        const double f = mc_eval(integrand, fmaf(width, u, a));
        return make_double2(f, f * f);
    }
};

struct add_pairs {
    __device__ double2 operator()(const double2 &x, const double2 &y) const
    {
        return make_double2(x.x + y.x, x.y + y.y);
    }
};

/* uniforms[0..n) -> one pair in *out. CUB added TransformReduce in CCCL 2.4 (CUDA 12.5); the
 * older CUB of CUDA 12.0-12.4 does the same with Reduce over an iterator that applies the
 * transform as it reads (cub::TransformInputIterator, which CCCL 3 removed). */
static cudaError_t reduce_uniforms(void *temp, size_t *temp_bytes, const float *uniforms,
                                   double2 *out, unsigned long long n, uniform_to_pair to_pair)
{
#if CUB_VERSION >= 200400
    return cub::DeviceReduce::TransformReduce(temp, *temp_bytes, uniforms, out, n, add_pairs(),
                                              to_pair, make_double2(0.0, 0.0));
#else
    const cub::TransformInputIterator<double2, uniform_to_pair, const float *> pairs(uniforms,
                                                                                      to_pair);
    return cub::DeviceReduce::Reduce(temp, *temp_bytes, pairs, out, n, add_pairs(),
                                     make_double2(0.0, 0.0));
#endif
}

void mc_library_create(mc_library_job *job, const mc_problem *p, unsigned long long chunk)
{
    job->p = *p;
    job->chunk = chunk < p->samples ? chunk : p->samples;
    job->chunks = (p->samples + job->chunk - 1) / job->chunk;
    if (job->chunks > (1ull << 24)) { /* 2^24 chunks: two library calls each, hours of launches */
        fprintf(stderr, "--chunk %llu is too small for %llu samples (%llu chunks, at most 2^24)\n",
                chunk, p->samples, job->chunks);
        exit(2);
    }
    CURAND_CHECK(curandCreateGenerator(&job->generator, CURAND_RNG_PSEUDO_PHILOX4_32_10));
    CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(job->generator, p->seed));
    job->uniforms = (float *)tut_device_alloc(tut_bytes(job->chunk, sizeof(float), "uniforms"),
                                              "uniforms");
    job->chunk_sums = (double2 *)tut_device_alloc(
        tut_bytes(job->chunks, sizeof(double2), "chunk sums"), "chunk sums");
    job->result = (double2 *)tut_device_alloc(sizeof(double2), "result");
    CUDA_CHECK(cudaMemset(job->uniforms, 0xFF, job->chunk * sizeof(float)));
    CUDA_CHECK(cudaMemset(job->chunk_sums, 0xFF, job->chunks * sizeof(double2)));
    CUDA_CHECK(cudaMemset(job->result, 0xFF, sizeof(double2)));
    /* Asking with a NULL buffer returns the scratch size CUB needs (the same for every chunk
     * of this length; the last, shorter one needs no more). */
    job->temp = NULL;
    job->temp_bytes = 0;
    const uniform_to_pair to_pair = {p->integrand, (float)p->a, (float)(p->b - p->a)};
    CUDA_CHECK(reduce_uniforms(NULL, &job->temp_bytes, job->uniforms, job->chunk_sums, job->chunk,
                               to_pair));
    job->temp = tut_device_alloc(job->temp_bytes, "CUB scratch");
}

void mc_library_run(mc_library_job *job)
{
    const uniform_to_pair to_pair = {job->p.integrand, (float)job->p.a,
                                     (float)(job->p.b - job->p.a)};
    /* Back to the start of the Philox sequence: every run draws the same numbers. */
    CURAND_CHECK(curandSetGeneratorOffset(job->generator, 0));
    for (unsigned long long c = 0; c < job->chunks; ++c) {
        const unsigned long long first = c * job->chunk;
        const unsigned long long len =
            job->p.samples - first < job->chunk ? job->p.samples - first : job->chunk;
        CURAND_CHECK(curandGenerateUniform(job->generator, job->uniforms, len));
        CUDA_CHECK(reduce_uniforms(job->temp, &job->temp_bytes, job->uniforms,
                                   job->chunk_sums + c, len, to_pair));
    }
    /* The chunk sums are reduced in a fixed order too (chunks can number in the thousands). */
    mc_reduce_partials(job->chunk_sums, (int)job->chunks, job->result);
}

/* The two halves alone, on one full chunk, for the benchmark's ceilings. */
void mc_library_generate_only(mc_library_job *job)
{
    CURAND_CHECK(curandGenerateUniform(job->generator, job->uniforms, job->chunk));
}

void mc_library_reduce_only(mc_library_job *job)
{
    const uniform_to_pair to_pair = {job->p.integrand, (float)job->p.a,
                                     (float)(job->p.b - job->p.a)};
    CUDA_CHECK(reduce_uniforms(job->temp, &job->temp_bytes, job->uniforms, job->chunk_sums,
                               job->chunk, to_pair));
}

void mc_library_destroy(mc_library_job *job)
{
    CURAND_CHECK(curandDestroyGenerator(job->generator));
    tut_device_free(job->uniforms);
    tut_device_free(job->chunk_sums);
    tut_device_free(job->result);
    tut_device_free(job->temp);
}
