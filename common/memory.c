#include "memory.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "check.h"

const char *tut_format_bytes(double bytes, char *buf, size_t len)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 6) {
        bytes /= 1024.0;
        ++u;
    }
    snprintf(buf, len, u ? "%.2f %s" : "%.0f %s", bytes, units[u]);
    return buf;
}

size_t tut_bytes(size_t count, size_t elem_size, const char *what)
{
    if (elem_size != 0 && count > SIZE_MAX / elem_size) {
        fflush(stdout);
        fprintf(stderr, "error: %s: %zu elements of %zu bytes do not fit in memory\n", what,
                count, elem_size);
        exit(2);
    }
    return count * elem_size;
}

size_t tut_device_free_bytes(void)
{
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return free_bytes;
}

int tut_device_fits(size_t bytes, size_t reserve)
{
    const size_t free_bytes = tut_device_free_bytes();
    return free_bytes >= reserve && bytes <= free_bytes - reserve;
}

static void out_of_memory(const char *where, const char *what, size_t bytes, size_t free_bytes)
{
    char asked[32], avail[32];
    fflush(stdout);
    fprintf(stderr, "error: cannot allocate %s for %s on the %s", tut_format_bytes((double)bytes,
            asked, sizeof asked), what, where);
    if (free_bytes)
        fprintf(stderr, " (%s free)", tut_format_bytes((double)free_bytes, avail, sizeof avail));
    fprintf(stderr, "; try a smaller size\n");
    exit(2);
}

void *tut_device_alloc(size_t bytes, const char *what)
{
    void *p = NULL;
    cudaError_t err = cudaMalloc(&p, bytes ? bytes : 1);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError(); /* not sticky, but leave no trace for the next check */
        out_of_memory("GPU", what, bytes, tut_device_free_bytes());
    }
    tut_check_cuda(err, "cudaMalloc", __FILE__, __LINE__);
    return p;
}

void *tut_host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        out_of_memory("host", what, bytes, 0);
    return p;
}

void *tut_pinned_alloc(size_t bytes, const char *what)
{
    void *p = NULL;
    cudaError_t err = cudaMallocHost(&p, bytes ? bytes : 1);
    if (err == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        out_of_memory("host (pinned)", what, bytes, 0);
    }
    tut_check_cuda(err, "cudaMallocHost", __FILE__, __LINE__);
    return p;
}

void tut_device_free(void *p)
{
    if (p)
        CUDA_CHECK(cudaFree(p));
}

void tut_pinned_free(void *p)
{
    if (p)
        CUDA_CHECK(cudaFreeHost(p));
}
