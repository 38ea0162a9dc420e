/* tutorial_setup_check: what users otherwise file bug reports about, in one screen.
 *
 * Toolkit and driver versions and whether they fit; the GPU and its compute capability; whether
 * this build holds native code for it or the driver will compile PTX at start (JIT); cooperative
 * launch; compute-sanitizer and gnuplot. Exit 0 when all is well, 77 with the reason when there
 * is no usable GPU, 1 when something found needs fixing (a driver older than the toolkit). The
 * tour runs it first. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "device.h"

#ifndef TUT_SANITIZER_PATH
#define TUT_SANITIZER_PATH ""
#endif
#ifndef TUT_GNUPLOT_PATH
#define TUT_GNUPLOT_PATH ""
#endif

static void version(int v, char *buf, size_t len)
{
    snprintf(buf, len, "%d.%d", v / 1000, v % 1000 / 10);
}

static int found(const char *what, const char *path, const char *consequence)
{
    const int ok = path[0] && access(path, X_OK) == 0;
    if (ok)
        printf("  %-18s %s\n", what, path);
    else
        printf("  %-18s not found (%s)\n", what, consequence);
    return ok;
}

int main(void)
{
    int ok = 1;
    char built[16], runtime_s[16], driver_s[16];
    int runtime = 0, driver = 0;
    version(CUDART_VERSION, built, sizeof built);
    if (cudaRuntimeGetVersion(&runtime) != cudaSuccess)
        runtime = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess)
        driver = 0;
    version(runtime, runtime_s, sizeof runtime_s);
    version(driver, driver_s, sizeof driver_s);

    printf("Setup check\n");
    printf("  %-18s CUDA %s (runtime library %s)\n", "toolkit", built, runtime_s);
    if (driver == 0) {
        printf("  %-18s none found (no NVIDIA driver is installed or loaded)\n", "driver");
    } else if (driver >= runtime) {
        printf("  %-18s supports CUDA %s: fits\n", "driver", driver_s);
    } else if (driver / 1000 == runtime / 1000) {
        printf("  %-18s supports CUDA %s, older than the toolkit: native code runs (minor-version "
               "compatibility), but the driver may refuse this toolkit's PTX\n",
               "driver", driver_s);
    } else {
        printf("  %-18s supports CUDA %s, too old for CUDA %s: update the driver\n", "driver",
               driver_s, built);
        ok = 0;
    }
    const int min_cc = tut_build_min_cc();
    printf("  %-18s %s", "built for", tut_build_archs()[0] ? tut_build_archs() : "(unknown)");
    if (min_cc > 0)
        printf(" (oldest GPU: compute capability %d.%d)", min_cc / 10, min_cc % 10);
    printf("\n");
    found("compute-sanitizer", TUT_SANITIZER_PATH, "the sanitizer tests will be skipped");
    found("gnuplot", TUT_GNUPLOT_PATH, "plots will be skipped");

    char why[768];
    tut_device_info dev;
    if (!tut_find_device(TUT_NEED_NOTHING, &dev, why, sizeof why)) {
        printf("SKIPPED: %s\n", why);
        return TUT_EXIT_SKIP;
    }
    printf("  %-18s %s, compute capability %d.%d, %d SMs, %.1f GiB\n", "GPU", dev.name,
           dev.real_major, dev.real_minor, dev.sm_count, (double)dev.total_bytes / (1u << 30));
    switch (tut_archs_code_for(tut_build_archs(), dev.real_major, dev.real_minor)) {
    case TUT_CODE_NATIVE:
        printf("  %-18s native code for compute capability %d.%d\n", "code", dev.real_major,
               dev.real_minor);
        break;
    case TUT_CODE_PTX:
        printf("  %-18s PTX only: the driver compiles it at each program's start (JIT); for "
               "native code and full speed rebuild with -DCMAKE_CUDA_ARCHITECTURES=%d%d\n",
               "code", dev.real_major, dev.real_minor);
        break;
    default:
        printf("  %-18s runs (the architecture list does not say whether natively)\n", "code");
    }
    printf("  %-18s %s\n", "cooperative launch", dev.cooperative_launch ? "yes" : "no");
    printf("  %-18s %zu KiB per block (opt-in), %zu KiB per SM, %d threads and %d blocks per SM\n",
           "limits", dev.shared_per_block_optin / 1024, dev.shared_per_sm / 1024,
           dev.max_threads_per_sm, dev.max_blocks_per_sm);
    if (dev.emulated[0])
        printf("  %-18s %s=%s: limits and feature choices are a %s's; timings are not\n",
               "emulation", TUT_EMULATE_ENV, dev.emulated, dev.emulated);
    printf(ok ? "Setup OK\n" : "Setup has a problem: see above\n");
    return ok ? 0 : 1;
}
