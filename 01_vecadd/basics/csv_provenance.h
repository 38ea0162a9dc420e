/* csv_provenance.h: the lines a basics program's CSV begins with, so that every figure quoted
 * from it names where it came from: the commit built, the date, the toolkit (and the driver,
 * where asked) and the GPU. One definition for device_limits, coalescing and unified_memory. */
#ifndef BASICS_CSV_PROVENANCE_H
#define BASICS_CSV_PROVENANCE_H
#include <stdio.h>
#include <time.h>
#include "check.h"
/* TUT_GIT_COMMIT: the commit built, which the CMake build writes into commit.h. Compiled by hand
 * with nvcc (as part 1 of the basics does), there is no such file: the CSV then says so. */
#if defined(__has_include)
#if __has_include("commit.h")
#include "commit.h"
#endif
#endif
#ifndef TUT_GIT_COMMIT
#define TUT_GIT_COMMIT "unknown (built without CMake)"
#endif

static void write_csv_provenance(FILE *f, int device, int with_driver)
{
    cudaDeviceProp p;
    int runtime = 0, driver = 0;
    CHECK(cudaGetDeviceProperties(&p, device));
    CHECK(cudaRuntimeGetVersion(&runtime));
    char date[32];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(f, "# commit: %s\n# date: %s\n# toolkit: CUDA %d.%d", TUT_GIT_COMMIT, date,
            runtime / 1000, runtime % 1000 / 10);
    if (with_driver) {
        CHECK(cudaDriverGetVersion(&driver));
        fprintf(f, " (driver supports %d.%d)", driver / 1000, driver % 1000 / 10);
    }
    fprintf(f, "\n# device: %s, %d SMs, compute capability %d.%d\n", p.name,
            p.multiProcessorCount, p.major, p.minor);
}
#endif
