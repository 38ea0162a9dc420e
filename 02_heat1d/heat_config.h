/* Every launch configuration of chapter 02, chosen from a GPU's limits, in plain C.
 *
 * A variant's prepare function (1_cooperative.cu ... 5_temporal_blocking.cu) asks these functions
 * for its launch with the registers and static shared memory the compiler gave its kernel
 * (cudaFuncGetAttributes); the CPU test (tests/heat_config_test.c) asks them with the same
 * numbers for every GPU of common/gpu_table.h. So what an H100 chooses, what a T4 would choose
 * (and what an H100 chooses under TUT_EMULATE_GPU=T4) and what the test checks is one code path.
 *
 * Each heat_config_* function returns 1 and fills *launch, or 0 with the reason in why[]
 * ("needs 66560 bytes of shared memory; a T4 block can have at most 65536"). threads = 0 means
 * the variant's default. */
#ifndef HEAT1D_CONFIG_H
#define HEAT1D_CONFIG_H

#include <stddef.h>

#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the compiler gave a kernel: registers per thread and static __shared__ bytes. */
typedef struct {
    int regs_per_thread;
    size_t static_shared;
} heat_kernel_cost;

/* One variant's launch. */
typedef struct {
    int threads;         /* per block */
    size_t blocks;       /* in the grid */
    size_t shared_bytes; /* dynamic shared memory per block */
    int blocks_per_sm;   /* such blocks one SM holds at once (common/occupancy.h) */
    int tile, halo;      /* temporal blocking: points per block, steps per launch */
} heat_launch;

/* Threads per block of the many-block variants unless --threads says otherwise. */
#define HEAT_DEFAULT_THREADS 256
/* Temporal blocking: the halo, and the largest tile, chosen by default (the best of the
 * benchmark's sweep; docs/02_heat1d_appendix.md, "Tile and halo"). */
#define HEAT_DEFAULT_HALO 32
#define HEAT_LARGEST_DEFAULT_TILE 2048

/* 1_cooperative.cu: every block resident at once, so the grid is the blocks one SM holds (the
 * occupancy calculator) times the SMs, or fewer if the rod needs fewer. */
int heat_config_cooperative(const tut_device_info *dev, heat_kernel_cost cost, size_t n,
                            int threads, heat_launch *launch, char *why, size_t len);

/* 2_launch_per_step.cu: one thread per point, up to 2^20 blocks (a grid-stride loop does the
 * rest). */
int heat_config_step(const tut_device_info *dev, heat_kernel_cost cost, size_t n, int threads,
                     heat_launch *launch, char *why, size_t len);

/* 3_shared_block.cu: one block holding both buffers (2 n doubles) in dynamic shared memory. The
 * most points that fit one block of this GPU: */
size_t heat_shared_block_capacity_on(const tut_device_info *dev, heat_kernel_cost cost);
int heat_config_shared_block(const tut_device_info *dev, heat_kernel_cost cost, size_t n,
                             int threads, heat_launch *launch, char *why, size_t len);

/* 4_block_registers.cu: one block of up to max_threads threads (its __launch_bounds__), each
 * holding points_per_thread points. */
size_t heat_block_registers_capacity_on(const tut_device_info *dev, int points_per_thread,
                                        int max_threads);
int heat_config_block_registers(const tut_device_info *dev, heat_kernel_cost cost, size_t n,
                                int points_per_thread, int max_threads, heat_launch *launch,
                                char *why, size_t len);

/* 5_temporal_blocking.cu: a block per tile, two bands of tile + 2 halo doubles each. */
size_t heat_temporal_band_bytes(int tile, int halo);
int heat_config_temporal(const tut_device_info *dev, heat_kernel_cost cost, size_t n, int threads,
                         int tile, int halo, heat_launch *launch, char *why, size_t len);

/* The work and traffic of the temporal kernel (the roofline, docs/02_heat1d_appendix.md): each
 * launch advances `halo` steps (the last one the rest), each block updates width - 2s points at
 * its step s (width = tile + 2 halo), halo points included; each update reads three doubles of
 * shared memory and writes one (32 bytes) and does four FP64 instructions (DFMA, DADD, DMUL,
 * DADD). DRAM: per launch, each block reads its band and writes its tile. */
#define HEAT_SHARED_BYTES_PER_UPDATE 32.0
#define HEAT_FP64_INSTRUCTIONS_PER_UPDATE 4.0
typedef struct {
    double updates;      /* point updates done, redundant halo updates included */
    double useful;       /* n x steps */
    double shared_bytes; /* loaded from and stored to shared memory, band loads and stores too */
    double dram_bytes;   /* read from and written to global memory */
} heat_traffic;
heat_traffic heat_temporal_traffic(size_t n, const heat_launch *launch, long long steps);

/* The default tile for a halo (0: HEAT_DEFAULT_HALO): the largest power of two up to
 * HEAT_LARGEST_DEFAULT_TILE whose blocks keep at least half of an SM's thread slots resident;
 * if none does, the largest that fits at all. Returns 0 (why[]) if not even a 64-point tile
 * fits. */
int heat_default_temporal(const tut_device_info *dev, heat_kernel_cost cost, int threads,
                          int halo, int *tile_out, int *halo_out, char *why, size_t len);

/* The benchmark sweeps: (tile, halo) pairs on the large rod, threads of the shared variant on
 * the document's rod. An entry that does not fit a GPU is skipped there, with its reason. */
typedef struct {
    int tile, halo;
} heat_tile_halo;
extern const heat_tile_halo heat_temporal_sweep[];
extern const int heat_temporal_sweep_count;
extern const int heat_shared_sweep_threads[];
extern const int heat_shared_sweep_count;

#ifdef __cplusplus
}
#endif

#endif
