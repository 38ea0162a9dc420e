/* Grader of exercise 01.3: the occupancy-based launch helper one_wave_config() (one_wave.c).
 * Its choice is compared with a reference that tries every block size and every block count
 * against the GPU's limits (common/unit_test.h), on every GPU of common/gpu_table.h and on this
 * one, with kernels of many register and shared-memory appetites drawn from the seed; then a
 * grid-stride kernel launched with it must visit every element exactly once. */
#include <stdio.h>
#include <stdlib.h>

#include "launch_config.h"
#include "tutorial.h"
#include "unit_test.h"
#include "exercise.h"

/* The block size up to 256 (STREAMING_MAX_THREADS) that keeps the most threads resident, the
 * largest of equals; 0 if not even one warp fits. */
static unsigned reference_threads(const tut_device_info *dev, kernel_resources k)
{
    unsigned best = 0;
    long best_resident = 0;
    for (int t = dev->warp_size; t <= (int)STREAMING_MAX_THREADS && t <= dev->max_threads_per_block;
         t += dev->warp_size) {
        const long resident =
            (long)t * tut_test_most_blocks_per_sm(dev, t, k.regs_per_thread, k.static_shared);
        if (resident > 0 && resident >= best_resident) {
            best_resident = resident;
            best = (unsigned)t;
        }
    }
    return best;
}

static launch_config reference_config(const tut_device_info *dev, kernel_resources k, size_t items)
{
    launch_config c = {reference_threads(dev, k), 0, 0};
    if (c.threads == 0)
        return c;
    c.blocks_per_sm = tut_test_most_blocks_per_sm(dev, (int)c.threads, k.regs_per_thread,
                                                  k.static_shared);
    const size_t wave = (size_t)dev->sm_count * (size_t)c.blocks_per_sm;
    const size_t needed = items / c.threads + (items % c.threads != 0);
    c.blocks = needed < wave ? needed : wave;
    if (c.blocks == 0)
        c.blocks = 1;
    return c;
}

/* The student's choice for one GPU, kernel and amount of work, against the reference. */
static int check_choice(const tut_device_info *dev, kernel_resources k, size_t items)
{
    const launch_config got = one_wave_config(dev, k, items);
    const launch_config want = reference_config(dev, k, items);
    if (got.threads == want.threads && got.blocks == want.blocks &&
        got.blocks_per_sm == want.blocks_per_sm)
        return 1;
    printf("  mismatch on %s (%d SMs, %d threads/SM), kernel of %d registers/thread and %zu bytes "
           "of static shared memory, %zu items: found %zu blocks x %u threads (%d per SM), "
           "expected %zu blocks x %u threads (%d per SM)\n", dev->name, dev->sm_count,
           dev->max_threads_per_sm, k.regs_per_thread, k.static_shared, items, got.blocks,
           got.threads, got.blocks_per_sm, want.blocks, want.threads, want.blocks_per_sm);
    return 0;
}

/* A kernel's appetite drawn from the seed: 16 to 255 registers, and half the time some static
 * shared memory (up to 40 KiB). */
static kernel_resources random_kernel(tut_grader *g)
{
    kernel_resources k;
    k.regs_per_thread = (int)tut_grader_size(g, 16, 255);
    k.static_shared = tut_grader_size(g, 0, 1) ? tut_grader_size(g, 1, 40 * 1024) : 0;
    return k;
}

/* Work for a wave and more, less than a wave, a prime, one item. */
static size_t random_items(tut_grader *g, int which)
{
    switch (which % 4) {
    case 0: return (size_t)1 << tut_grader_size(g, 20, 30);
    case 1: return tut_grader_size(g, 2, 5000);
    case 2: return tut_grader_prime(g, 5001, 50000000);
    default: return 1;
    }
}

static int case_every_gpu(tut_grader *g)
{
    int ok = 1, checked = 0;
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        const tut_device_info *dev = tut_gpu_profile_at(i);
        const kernel_resources streaming = {16, 0};
        ok &= check_choice(dev, streaming, (size_t)1 << 28);
        ok &= check_choice(dev, streaming, 0); /* no work: still one block, never 0 */
        /* a kernel whose static shared memory fills no SM: not even one warp fits, so 0 threads
         * and 0 blocks, which the caller refuses (never a grid of 1 block of 0 threads) */
        const kernel_resources too_big = {16, (size_t)dev->shared_per_sm + 1};
        ok &= check_choice(dev, too_big, 1000);
        for (int j = 0; j < 8; ++j) {
            ok &= check_choice(dev, random_kernel(g), random_items(g, j));
            ++checked;
        }
    }
    printf("%d GPUs of the table, %d kernels each\n", tut_gpu_profile_count(), checked / tut_gpu_profile_count());
    return ok;
}

/* The boundaries by design, on every GPU of the table (no CUDA call: a CPU case): for the
 * streaming kernel and one drawn from the seed, items at the multiples -1, 0, +1 of the warp, of
 * the block the reference chooses and of one full wave of its threads (SMs x resident blocks x
 * threads), and the smallest counts: where `needed` rounds up and where it meets the wave. */
static int case_boundaries(tut_grader *g)
{
    int ok = 1;
    for (int i = 0; i < tut_gpu_profile_count(); ++i) {
        const tut_device_info *dev = tut_gpu_profile_at(i);
        const kernel_resources kernels[2] = {{16, 0}, random_kernel(g)};
        for (int j = 0; j < 2; ++j) {
            const launch_config want = reference_config(dev, kernels[j], 1);
            if (want.threads == 0)
                continue;
            const size_t wave_threads =
                (size_t)dev->sm_count * (size_t)want.blocks_per_sm * want.threads;
            const tut_width widths[] = {{"warp", (size_t)dev->warp_size},
                                        {"block", want.threads},
                                        {"wave", wave_threads}};
            tut_boundary sizes[64];
            const size_t count = tut_boundary_sizes(widths, TUT_COUNT(widths),
                                                    2 * wave_threads + 1, sizes,
                                                    TUT_COUNT(sizes));
            /* a line for each size that fails, one for each GPU and kernel that passes all */
            int all = 1;
            size_t largest = 0;
            for (size_t b = 0; b < count; ++b) {
                largest = sizes[b].n > largest ? sizes[b].n : largest;
                if (!check_choice(dev, kernels[j], sizes[b].n)) {
                    char name[320];
                    snprintf(name, sizeof name, "%s on %s", sizes[b].name, dev->name);
                    all = tut_grader_boundary_verdict(name, sizes[b].n, 0);
                }
            }
            if (all) {
                char name[320];
                snprintf(name, sizeof name, "%zu sizes of the %s kernel on %s", count,
                         j == 0 ? "streaming" : "drawn", dev->name);
                tut_grader_boundary_verdict(name, largest, 1);
            }
            ok &= all;
        }
    }
    printf("%d GPUs of the table: items at the warp, block and wave boundaries\n",
           tut_gpu_profile_count());
    return ok;
}

/* Kernels compiled here, with what the runtime says they use. */
__global__ void streaming_kernel(const float *a, float *b, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        b[i] = 2.0f * a[i];
}

__global__ void shared_kernel(const float *a, float *b, size_t n)
{
    __shared__ float stage[6144]; /* 24 KiB: shared memory limits the blocks per SM */
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        stage[(threadIdx.x * 7) % 6144] = a[i];
        __syncthreads();
        b[i] = stage[(threadIdx.x * 7) % 6144];
        __syncthreads();
    }
}

static kernel_resources resources_of(const void *kernel)
{
    const tut_kernel_use use = tut_kernel_use_of(kernel, 1, 0);
    kernel_resources k = {use.regs_per_thread, use.static_shared};
    return k;
}

static int case_this_gpu(tut_grader *g)
{
    const void *kernels[] = {(const void *)streaming_kernel, (const void *)shared_kernel};
    int ok = 1;
    for (int i = 0; i < 2; ++i) {
        const kernel_resources k = resources_of(kernels[i]);
        for (int j = 0; j < 4; ++j)
            ok &= check_choice(g->dev, k, random_items(g, j));
        /* On the real GPU (not emulated) the runtime's calculator must agree too. */
        const launch_config c = one_wave_config(g->dev, k, (size_t)1 << 28);
        if (!g->dev->emulated[0] && c.threads > 0) {
            int runtime_blocks = 0;
            CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runtime_blocks, kernels[i],
                                                                     (int)c.threads, 0));
            if (runtime_blocks != c.blocks_per_sm) {
                printf("  the runtime holds %d blocks of %u threads per SM, one_wave_config said "
                       "%d\n", runtime_blocks, c.threads, c.blocks_per_sm);
                ok = 0;
            }
        }
    }
    return ok;
}

__global__ void visit_kernel(unsigned *visits, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        atomicAdd(&visits[i], 1u);
}

/* The choice launched: a grid the GPU accepts, and every element visited exactly once. */
static int case_launch(tut_grader *g)
{
    const size_t n = tut_grader_prime(g, 100000, 20000000);
    const launch_config c = one_wave_config(g->dev, resources_of((const void *)visit_kernel), n);
    printf("n = %zu: %zu blocks x %u threads\n", n, c.blocks, c.threads);
    if (c.blocks == 0 || c.blocks > 0x7fffffffu || c.threads == 0 ||
        c.threads > (unsigned)g->dev->max_threads_per_block) {
        printf("  not a launchable grid: found %zu blocks x %u threads\n", c.blocks, c.threads);
        return 0;
    }
    const size_t bytes = tut_bytes(n, sizeof(unsigned), "visits");
    unsigned *d_visits = (unsigned *)tut_device_alloc(bytes, "visits");
    unsigned *visits = (unsigned *)tut_host_alloc(bytes, "visits");
    CUDA_CHECK(cudaMemset(d_visits, 0, bytes));
    visit_kernel<<<(unsigned)c.blocks, c.threads>>>(d_visits, n);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(visits, d_visits, bytes, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (size_t i = 0; i < n && ok; ++i)
        if (visits[i] != 1) {
            printf("  element %zu visited %u times, expected 1\n", i, visits[i]);
            ok = 0;
        }
    tut_device_free(d_visits);
    free(visits);
    return ok;
}

int main(int argc, char **argv)
{
    static const tut_grader_case cases[] = {
        {"every_gpu", case_every_gpu, 1}, /* CPU cases: .cpu = 1 */
        {"this_gpu", case_this_gpu},
        {"launch", case_launch},
        {"boundaries", case_boundaries, 1},
    };
    const tut_exercise ex = {.id = "ex01.3",
                             .title = "the occupancy-based launch helper",
                             .cases = cases,
                             .case_count = TUT_COUNT(cases)};
    return tut_exercise_main(argc, argv, &ex);
}
