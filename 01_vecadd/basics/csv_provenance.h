/* csv_provenance.h: the lines a basics program's CSV begins with, so that every figure quoted
 * from it names where it came from: the commit built, the date, the toolkit (and the driver,
 * where asked) and the GPU. One definition for device_limits, coalescing and unified_memory. */
#ifndef BASICS_CSV_PROVENANCE_H
#define BASICS_CSV_PROVENANCE_H
#include <stdio.h>
#include <time.h>
#include "check.h"
#include "commit.h" /* TUT_GIT_COMMIT: the commit built, written by the build for the CSV */

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
