/* CPU tests of the multi-GPU helpers (multi_gpu.h): the split over GPUs for any n and count
 * (n below the count, n = 1, primes), nccl-tests' bus bandwidth, the ring's schedule (simulated:
 * every chunk must end summed once over every rank, on every rank), the PCIe arithmetic and the
 * launcher's variables and the ranks on a node. No GPU needed. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "multi_gpu.h"
#include "options.h"
#include "unit_test.h"

static int near(double a, double b) { return a - b < 1e-9 && b - a < 1e-9; }

static void test_split(void)
{
    const size_t ns[] = {0, 1, 2, 3, 4, 5, 7, 13, 97, 4099, 1000003, (size_t)1 << 32,
                         ((size_t)1 << 33) + 7};
    const int parts[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 64};
    for (size_t a = 0; a < TUT_COUNT(ns); ++a)
        for (size_t b = 0; b < TUT_COUNT(parts); ++b) {
            const size_t n = ns[a];
            const int g = parts[b];
            size_t total = 0, smallest = SIZE_MAX, largest = 0;
            for (int k = 0; k < g; ++k) {
                const size_t count = tut_multi_split_count(n, g, k);
                /* contiguous: each part starts where the one before ends */
                EXPECT(tut_multi_split_offset(n, g, k) == total);
                total += count;
                smallest = count < smallest ? count : smallest;
                largest = count > largest ? count : largest;
                if (k > 0) /* the larger parts come first */
                    EXPECT(count <= tut_multi_split_count(n, g, k - 1));
            }
            EXPECT(total == n);
            EXPECT(largest - smallest <= 1);
            EXPECT(tut_multi_split_offset(n, g, g) == n);
            if (n < (size_t)g) /* fewer items than GPUs: the first n get one, the rest none */
                for (int k = 0; k < g; ++k)
                    EXPECT(tut_multi_split_count(n, g, k) == ((size_t)k < n ? 1u : 0u));
        }
    EXPECT(tut_multi_split_count(10, 0, 0) == 0);   /* no parts: nothing */
    EXPECT(tut_multi_split_count(10, 3, 3) == 0);   /* past the last part */
    EXPECT(tut_multi_split_count(10, 3, -1) == 0);
    EXPECT(tut_multi_split_count(10, 3, 0) == 4);   /* 4 + 3 + 3 */
    EXPECT(tut_multi_split_offset(10, 3, 2) == 7);
    EXPECT(tut_multi_split_count(1, 4, 0) == 1 && tut_multi_split_count(1, 4, 1) == 0);
}

static void test_busbw(void)
{
    /* nccl-tests (doc/PERFORMANCE.md): algbw = S / t; all-reduce busbw = algbw * 2(n-1)/n. */
    EXPECT(near(tut_multi_algbw_gbps(1000000000, 1.0), 1.0));
    EXPECT(near(tut_multi_algbw_gbps((size_t)1 << 30, 0.004), 268.435456));
    EXPECT(near(tut_multi_allreduce_busbw_gbps(1000000000, 1.0, 1), 0.0));
    EXPECT(near(tut_multi_allreduce_busbw_gbps(1000000000, 1.0, 2), 1.0));
    EXPECT(near(tut_multi_allreduce_busbw_gbps(1000000000, 1.0, 4), 1.5));
    EXPECT(near(tut_multi_allreduce_busbw_gbps(1000000000, 0.5, 8), 3.5));
    EXPECT(near(tut_multi_allreduce_busbw_gbps(1000000000, 0.0, 4), 0.0)); /* no time: none */
    EXPECT(near(tut_multi_allreduce_busbw_gbps(1000000000, 1.0, 0), 0.0));
    /* busbw is the rate of the bytes each rank's links carry: busbw * t = the ring's bytes */
    EXPECT(near(tut_multi_ring_bytes_per_rank(1024, 4), 1536.0));
    EXPECT(near(tut_multi_ring_bytes_per_rank(1000000000, 4) / 1e9,
                tut_multi_allreduce_busbw_gbps(1000000000, 1.0, 4)));
    EXPECT(near(tut_multi_ring_bytes_per_rank(1024, 1), 0.0));
}

/* Runs the ring's schedule on bit masks: mask[r][c] is the set of ranks whose input chunk c of
 * rank r holds. Steps are synchronous (what the events enforce piece by piece). */
static void test_ring_schedule(void)
{
    for (int g = 1; g <= 9; ++g) {
        uint32_t mask[9][9], next[9][9];
        for (int r = 0; r < g; ++r)
            for (int c = 0; c < g; ++c)
                mask[r][c] = 1u << r;
        for (int t = 0; t < 2 * (g - 1); ++t) {
            memcpy(next, mask, sizeof mask);
            for (int r = 0; r < g; ++r) {
                const int prev = (r + g - 1) % g, c = tut_multi_ring_chunk(r, t, g);
                EXPECT(c >= 0 && c < g);
                if (t < g - 1) { /* reduce-scatter: add what prev holds; no rank twice */
                    EXPECT((mask[r][c] & mask[prev][c]) == 0);
                    next[r][c] = mask[r][c] | mask[prev][c];
                } else {         /* all-gather: take prev's final chunk */
                    EXPECT(mask[prev][c] == (1u << g) - 1);
                    next[r][c] = mask[prev][c];
                }
            }
            memcpy(mask, next, sizeof mask);
            if (t == g - 2) /* after reduce-scatter rank r owns chunk r + 1, complete */
                for (int r = 0; r < g; ++r)
                    EXPECT(mask[r][(r + 1) % g] == (1u << g) - 1);
        }
        for (int r = 0; r < g; ++r)
            for (int c = 0; c < g; ++c)
                EXPECT(mask[r][c] == (1u << g) - 1);
    }
    EXPECT(tut_multi_ring_pieces(64u << 20, 16u << 20, 16) == 4);
    EXPECT(tut_multi_ring_pieces(1, 16u << 20, 16) == 1);
    EXPECT(tut_multi_ring_pieces((size_t)1 << 40, 16u << 20, 16) == 16);
    EXPECT(tut_multi_ring_pieces(100, 0, 16) == 1);
}

static void test_pcie(void)
{
    EXPECT(near(tut_multi_pcie_gbps(1, 1), 0.25));        /* 2.5 GT/s, 8b/10b */
    EXPECT(near(tut_multi_pcie_gbps(3, 16), 8.0 * 16 * 128 / 130 / 8));
    EXPECT(near(tut_multi_pcie_gbps(5, 16), 32.0 * 16 * 128 / 130 / 8)); /* 63.0 GB/s */
    EXPECT(tut_multi_pcie_gbps(7, 16) == 0.0 && tut_multi_pcie_gbps(0, 16) == 0.0);
    EXPECT(tut_multi_pcie_gbps(4, 0) == 0.0);
}

/* A fake environment: "NAME=value" pairs. */
static const char *const *fake_env;
static const char *fake_getenv(const char *name)
{
    const size_t len = strlen(name);
    for (const char *const *e = fake_env; *e; ++e)
        if (strncmp(*e, name, len) == 0 && (*e)[len] == '=')
            return *e + len + 1;
    return NULL;
}

static int launch_of(const char *const *env, tut_multi_launch *out)
{
    char why[256];
    fake_env = env;
    return tut_multi_launch_from(fake_getenv, out, why, sizeof why);
}

static void test_launcher(void)
{
    tut_multi_launch l;
    const char *none[] = {"HOME=/root", NULL};
    EXPECT(launch_of(none, &l) == 0);
    const char *slurm[] = {"SLURM_JOB_ID=77", "SLURM_STEP_ID=2", "SLURM_PROCID=5",
                           "SLURM_NTASKS=8", "SLURM_LOCALID=1", NULL};
    EXPECT(launch_of(slurm, &l) == 1 && l.rank == 5 && l.size == 8 && l.local_rank == 1 &&
           strcmp(l.launcher, "slurm") == 0 && strcmp(l.token, "77.2") == 0);
    /* a step of fewer tasks than the job: the step's count */
    const char *step[] = {"SLURM_JOB_ID=77", "SLURM_STEP_ID=3", "SLURM_PROCID=1",
                          "SLURM_STEP_NUM_TASKS=2", "SLURM_NTASKS=8", "SLURM_LOCALID=1", NULL};
    EXPECT(launch_of(step, &l) == 1 && l.rank == 1 && l.size == 2 &&
           strcmp(l.token, "77.3") == 0);
    /* sbatch -n 4 running the program itself: no job step, so no ranks: one process */
    const char *sbatch[] = {"SLURM_JOB_ID=77", "SLURM_PROCID=0", "SLURM_NTASKS=4",
                            "SLURM_LOCALID=0", NULL};
    EXPECT(launch_of(sbatch, &l) == 0);
    const char *ompi[] = {"OMPI_COMM_WORLD_RANK=3", "OMPI_COMM_WORLD_SIZE=4",
                          "OMPI_COMM_WORLD_LOCAL_RANK=3", "PMIX_NAMESPACE=prterun-h-123@1", NULL};
    EXPECT(launch_of(ompi, &l) == 1 && l.rank == 3 && l.size == 4 && l.local_rank == 3 &&
           strcmp(l.launcher, "openmpi") == 0 && strcmp(l.token, "prterun-h-123@1") == 0);
    const char *ompi4[] = {"OMPI_COMM_WORLD_RANK=0", "OMPI_COMM_WORLD_SIZE=2",
                           "OMPI_COMM_WORLD_LOCAL_RANK=0", "OMPI_MCA_ess_base_jobid=4242", NULL};
    EXPECT(launch_of(ompi4, &l) == 1 && strcmp(l.token, "4242") == 0);
    const char *pmi[] = {"PMI_RANK=0", "PMI_SIZE=2", "MPI_LOCALRANKID=0", NULL};
    EXPECT(launch_of(pmi, &l) == 1 && l.size == 2 && strcmp(l.launcher, "pmi") == 0 &&
           l.token[0] == '\0'); /* hydra names no launch */
    /* mpirun inside an allocation (even inside a step): every rank inherits SLURM_PROCID;
     * Open MPI's own variables win */
    const char *both[] = {"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2",
                          "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_MCA_ess_base_jobid=9",
                          "SLURM_JOB_ID=77", "SLURM_STEP_ID=0", "SLURM_PROCID=0",
                          "SLURM_NTASKS=2", "SLURM_LOCALID=0", NULL};
    EXPECT(launch_of(both, &l) == 1 && strcmp(l.launcher, "openmpi") == 0 && l.rank == 1 &&
           l.size == 2 && strcmp(l.token, "9") == 0);
    /* PMI_RANK without MPI_LOCALRANKID (a PMI plugin of srun): the Slurm step says the rest */
    const char *pmi_in_step[] = {"PMI_RANK=3", "PMI_SIZE=4", "SLURM_JOB_ID=77",
                                 "SLURM_STEP_ID=1", "SLURM_PROCID=3", "SLURM_NTASKS=4",
                                 "SLURM_LOCALID=3", NULL};
    EXPECT(launch_of(pmi_in_step, &l) == 1 && strcmp(l.launcher, "slurm") == 0 && l.rank == 3);
    const char *too_big[] = {"SLURM_STEP_ID=0", "SLURM_PROCID=4", "SLURM_NTASKS=4",
                             "SLURM_LOCALID=0", NULL};
    EXPECT(launch_of(too_big, &l) == -1);
    const char *no_local[] = {"SLURM_STEP_ID=0", "SLURM_PROCID=0", "SLURM_NTASKS=4", NULL};
    EXPECT(launch_of(no_local, &l) == -1);
    const char *no_size[] = {"SLURM_STEP_ID=0", "SLURM_PROCID=0", "SLURM_LOCALID=0", NULL};
    EXPECT(launch_of(no_size, &l) == -1);
    const char *not_number[] = {"SLURM_STEP_ID=0", "SLURM_PROCID=one", "SLURM_NTASKS=4",
                                "SLURM_LOCALID=0", NULL};
    EXPECT(launch_of(not_number, &l) == -1);
    const char *zero_size[] = {"PMI_RANK=0", "PMI_SIZE=0", "MPI_LOCALRANKID=0", NULL};
    EXPECT(launch_of(zero_size, &l) == -1);
    const char *negative[] = {"PMI_RANK=-1", "PMI_SIZE=2", "MPI_LOCALRANKID=0", NULL};
    EXPECT(launch_of(negative, &l) == -1);
    const char *local_above[] = {"SLURM_STEP_ID=0", "SLURM_PROCID=1", "SLURM_NTASKS=4",
                                 "SLURM_LOCALID=2", NULL};
    EXPECT(launch_of(local_above, &l) == -1);
}

/* The ranks on this node: each launcher's own count, Slurm's from its tasks-per-node list. */
static void test_local_size(void)
{
    EXPECT(tut_multi_slurm_tasks_on_node("2", 0) == 2);
    EXPECT(tut_multi_slurm_tasks_on_node("2(x3),1", 0) == 2);
    EXPECT(tut_multi_slurm_tasks_on_node("2(x3),1", 2) == 2);
    EXPECT(tut_multi_slurm_tasks_on_node("2(x3),1", 3) == 1);
    EXPECT(tut_multi_slurm_tasks_on_node("2(x3),1", 4) == 0);
    EXPECT(tut_multi_slurm_tasks_on_node("4,3,1", 1) == 3);
    EXPECT(tut_multi_slurm_tasks_on_node("2(3)", 0) == 0);
    EXPECT(tut_multi_slurm_tasks_on_node("x", 0) == 0);
    EXPECT(tut_multi_slurm_tasks_on_node(NULL, 0) == 0);
    tut_multi_launch l;
    const char *slurm[] = {"SLURM_JOB_ID=7", "SLURM_STEP_ID=0", "SLURM_PROCID=5",
                           "SLURM_STEP_NUM_TASKS=7", "SLURM_LOCALID=1", "SLURM_NODEID=1",
                           "SLURM_STEP_TASKS_PER_NODE=4,3", NULL};
    EXPECT(launch_of(slurm, &l) == 1 && l.local_size == 3);
    const char *unknown[] = {"SLURM_STEP_ID=0", "SLURM_PROCID=0", "SLURM_NTASKS=2",
                             "SLURM_LOCALID=0", NULL};
    EXPECT(launch_of(unknown, &l) == 1 && l.local_size == 0);
    const char *ompi[] = {"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=4",
                          "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_LOCAL_SIZE=2", NULL};
    EXPECT(launch_of(ompi, &l) == 1 && l.local_size == 2);
    const char *pmi[] = {"PMI_RANK=0", "PMI_SIZE=2", "MPI_LOCALRANKID=0", "MPI_LOCALNRANKS=2",
                         NULL};
    EXPECT(launch_of(pmi, &l) == 1 && l.local_size == 2);
}

/* Which GPU a rank takes, decided before any is touched. */
static void test_rank_device(void)
{
    char why[512] = "";
    tut_multi_launch l = {.rank = 1, .size = 2, .local_rank = 1, .local_size = 2};
    EXPECT(tut_multi_rank_device(&l, 2, "0,1", why, sizeof why) == 1);
    EXPECT(tut_multi_rank_device(&l, 8, NULL, why, sizeof why) == 1);
    EXPECT(tut_multi_rank_device(&l, 1, "3", why, sizeof why) == 0); /* --gpus-per-task=1 */
    l = (tut_multi_launch){.rank = 0, .size = 3, .local_rank = 0, .local_size = 3};
    EXPECT(tut_multi_rank_device(&l, 2, "0,1", why, sizeof why) == -1); /* every rank refuses */
    EXPECT(strstr(why, "runs 3 ranks") && strstr(why, "CUDA_VISIBLE_DEVICES=0,1") &&
           strstr(why, "--ntasks-per-node=2") && strstr(why, "--gpus-per-task=1"));
    l = (tut_multi_launch){.rank = 2, .size = 3, .local_rank = 2, .local_size = 0};
    EXPECT(tut_multi_rank_device(&l, 2, NULL, why, sizeof why) == -1); /* count unknown */
    EXPECT(strstr(why, "at least 3 ranks") && strstr(why, "(unset)"));
    l.local_rank = 1;
    EXPECT(tut_multi_rank_device(&l, 2, NULL, why, sizeof why) == 1);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"split", test_split},     {"busbw", test_busbw}, {"ring_schedule", test_ring_schedule},
        {"pcie", test_pcie},       {"launcher", test_launcher}, {"local_size", test_local_size},
        {"rank_device", test_rank_device},
    };
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
