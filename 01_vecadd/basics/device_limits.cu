/* device_limits: what this GPU reports about itself (docs/00_basics.md, sections 2 and 4).
 *
 *   device_limits [--csv FILE]
 *
 * Prints the launch limits (threads per block, block and grid dimensions) and the sizes of the
 * memory hierarchy (registers, shared memory, L2, global memory), then checks that the launch
 * limits are the real ones: a launch at each limit works and one past it is refused. --csv also
 * writes the figures as quantity,value,unit,cuda_name rows. Exit 0 pass, 1 fail, 2 bad usage,
 * 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_provenance.h"

#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

__global__ void empty_kernel(void) {}

/* Launches empty_kernel; returns whether the launch was accepted (0 or 1). */
static int launches(dim3 grid, dim3 block, size_t shared_bytes)
{
    empty_kernel<<<grid, block, shared_bytes>>>();
    const cudaError_t err = cudaGetLastError(); /* also clears a refused launch's error */
    if (cannot_run_here(err))
        CHECK(err);
    CHECK(cudaDeviceSynchronize());
    return err == cudaSuccess;
}

/* One check: a launch at the limit must work, one past it must be refused. */
static int check_limit(const char *what, int at_limit, int past_limit)
{
    const int ok = at_limit && !past_limit;
    printf("  %-32s at the limit: %s, one past it: %s  %s\n", what,
           at_limit ? "runs" : "REFUSED", past_limit ? "RUNS" : "refused", ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    const char *csv = NULL;
    for (int a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--csv") == 0 && a + 1 < argc) {
            csv = argv[++a];
        } else {
            fprintf(stderr, "usage: device_limits [--csv FILE]\n");
            return strcmp(argv[a], "--help") == 0 ? 0 : 2;
        }
    }
    skip_without_gpu();
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    const struct { const char *quantity; double value; const char *unit, *cuda_name; } rows[] = {
        {"sm_count", (double)p.multiProcessorCount, "SMs", "multiProcessorCount"},
        {"warp_size", (double)p.warpSize, "threads", "warpSize"},
        {"max_threads_per_block", (double)p.maxThreadsPerBlock, "threads", "maxThreadsPerBlock"},
        {"max_block_x", (double)p.maxThreadsDim[0], "threads", "maxThreadsDim[0]"},
        {"max_block_y", (double)p.maxThreadsDim[1], "threads", "maxThreadsDim[1]"},
        {"max_block_z", (double)p.maxThreadsDim[2], "threads", "maxThreadsDim[2]"},
        {"max_grid_x", (double)p.maxGridSize[0], "blocks", "maxGridSize[0]"},
        {"max_grid_y", (double)p.maxGridSize[1], "blocks", "maxGridSize[1]"},
        {"max_grid_z", (double)p.maxGridSize[2], "blocks", "maxGridSize[2]"},
        {"max_threads_per_sm", (double)p.maxThreadsPerMultiProcessor, "threads",
         "maxThreadsPerMultiProcessor"},
        {"max_blocks_per_sm", (double)p.maxBlocksPerMultiProcessor, "blocks",
         "maxBlocksPerMultiProcessor"},
        {"regs_per_sm", (double)p.regsPerMultiprocessor, "registers", "regsPerMultiprocessor"},
        {"regs_per_block", (double)p.regsPerBlock, "registers", "regsPerBlock"},
        {"shared_per_block_kib", (double)p.sharedMemPerBlock / 1024.0, "KiB", "sharedMemPerBlock"},
        {"shared_per_block_optin_kib", (double)p.sharedMemPerBlockOptin / 1024.0, "KiB",
         "sharedMemPerBlockOptin"},
        {"shared_per_sm_kib", (double)p.sharedMemPerMultiprocessor / 1024.0, "KiB",
         "sharedMemPerMultiprocessor"},
        {"l2_mib", (double)p.l2CacheSize / 1048576.0, "MiB", "l2CacheSize"},
        {"global_gib", (double)p.totalGlobalMem / 1073741824.0, "GiB", "totalGlobalMem"},
    };
    const int nrows = sizeof rows / sizeof rows[0];
    printf("%s, compute capability %d.%d\n", p.name, p.major, p.minor);
    for (int r = 0; r < nrows; r++)
        printf("  %-28s %12.10g %-17s (cudaDeviceProp.%s)\n", rows[r].quantity, rows[r].value,
               rows[r].unit, rows[r].cuda_name);

    printf("The launch limits, tried:\n");
    const unsigned t = p.maxThreadsPerBlock, z = p.maxThreadsDim[2], gy = p.maxGridSize[1];
    int wrong = 0;
    wrong += check_limit("threads per block", launches(1, t, 0), launches(1, t + 1, 0));
    wrong += check_limit("block z dimension", launches(1, dim3(1, 1, z), 0),
                         launches(1, dim3(1, 1, z + 1), 0));
    wrong += check_limit("grid y dimension", launches(dim3(1, gy), 1, 0),
                         launches(dim3(1, gy + 1), 1, 0));
    wrong += check_limit("grid x dimension (past only)", 1,
                         launches(dim3((unsigned)p.maxGridSize[0] + 1u), 1, 0));
    wrong += check_limit("shared memory per block (bytes)", launches(1, 32, p.sharedMemPerBlock),
                         launches(1, 32, p.sharedMemPerBlock + 1));

    if (csv) {
        FILE *f = fopen(csv, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", csv);
            return 2;
        }
        write_csv_provenance(f, 0, 1);
        fprintf(f, "quantity,value,unit,cuda_name\n");
        for (int r = 0; r < nrows; r++)
            fprintf(f, "%s,%.10g,%s,%s\n", rows[r].quantity, rows[r].value, rows[r].unit,
                    rows[r].cuda_name);
        fclose(f);
        printf("wrote %s\n", csv);
    }
    printf(wrong ? "FAIL\n" : "PASS\n");
    return wrong ? 1 : 0;
}
