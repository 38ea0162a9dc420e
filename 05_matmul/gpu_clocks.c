/* dlopen and dlsym are POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "gpu_clocks.h"

#include <dlfcn.h>
#include <stddef.h>

#include <cuda_runtime_api.h>

/* The few NVML declarations used here (nvml.h is not part of every toolkit install). Every
 * NVML call returns 0 (NVML_SUCCESS) on success. */
typedef struct nvml_device *nvml_device;
#define NVML_CLOCK_SM 1
/* Reasons the clock is below its maximum (nvmlClocksEventReasons): the ones that mean "the GPU
 * slowed itself down" (not "idle", not a clock setting someone chose). */
#define NVML_REASON_SW_POWER_CAP 0x4ull
#define NVML_REASON_HW_SLOWDOWN 0x8ull
#define NVML_REASON_SW_THERMAL 0x20ull
#define NVML_REASON_HW_THERMAL 0x40ull
#define NVML_REASON_HW_POWER_BRAKE 0x80ull
#define NVML_REASONS_LIMITED                                                                  \
    (NVML_REASON_SW_POWER_CAP | NVML_REASON_HW_SLOWDOWN | NVML_REASON_SW_THERMAL |            \
     NVML_REASON_HW_THERMAL | NVML_REASON_HW_POWER_BRAKE)

typedef int (*nvml_init_fn)(void);
typedef int (*nvml_by_bus_id_fn)(const char *bus_id, nvml_device *device);
typedef int (*nvml_clock_fn)(nvml_device device, int clock_type, unsigned *mhz);
typedef int (*nvml_reasons_fn)(nvml_device device, unsigned long long *reasons);

static struct {
    int ready;
    nvml_device device;
    nvml_clock_fn clock;
    nvml_clock_fn max_clock;
    nvml_reasons_fn reasons;
} nvml;

/* A function pointer from dlsym: POSIX guarantees the conversion; ISO C only allows it this way. */
static void *symbol(void *lib, const char *name) { return dlsym(lib, name); }

int gpu_clocks_open(int cuda_device)
{
    nvml.ready = 0;
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return 0;
    nvml_init_fn init;
    nvml_by_bus_id_fn by_bus_id;
    *(void **)&init = symbol(lib, "nvmlInit_v2");
    *(void **)&by_bus_id = symbol(lib, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&nvml.clock = symbol(lib, "nvmlDeviceGetClockInfo");
    *(void **)&nvml.max_clock = symbol(lib, "nvmlDeviceGetMaxClockInfo");
    /* The newer name first; drivers before 535 have only the older one. */
    *(void **)&nvml.reasons = symbol(lib, "nvmlDeviceGetCurrentClocksEventReasons");
    if (!nvml.reasons)
        *(void **)&nvml.reasons = symbol(lib, "nvmlDeviceGetCurrentClocksThrottleReasons");
    if (!init || !by_bus_id || !nvml.clock || !nvml.max_clock || init() != 0)
        return 0;
    char bus_id[32];
    if (cudaDeviceGetPCIBusId(bus_id, (int)sizeof bus_id, cuda_device) != cudaSuccess)
        return 0;
    if (by_bus_id(bus_id, &nvml.device) != 0)
        return 0;
    nvml.ready = 1;
    return 1;
}

int gpu_clocks_read(gpu_clock_sample *s)
{
    s->sm_mhz = 0;
    s->limited = 0;
    if (!nvml.ready || nvml.clock(nvml.device, NVML_CLOCK_SM, &s->sm_mhz) != 0)
        return 0;
    unsigned long long reasons = 0;
    if (nvml.reasons && nvml.reasons(nvml.device, &reasons) == 0)
        s->limited = (reasons & NVML_REASONS_LIMITED) != 0;
    return 1;
}

unsigned gpu_clocks_max_sm_mhz(void)
{
    unsigned mhz = 0;
    if (!nvml.ready || nvml.max_clock(nvml.device, NVML_CLOCK_SM, &mhz) != 0)
        return 0;
    return mhz;
}
