/* tutorial_gpu_probe: exits 0 if a CUDA GPU is usable here, 77 (skip) with the reason if not.
 * The sanitizer tests run it first, so that they skip cleanly on machines without a GPU. */
#include <stdio.h>

#include "device.h"

int main(void)
{
    char why[512];
    tut_device_info info;
    if (!tut_find_device(TUT_NEED_NOTHING, &info, why, sizeof why)) {
        printf("%s\n", why);
        return TUT_EXIT_SKIP;
    }
    printf("GPU %d: %s\n", info.id, info.name);
    return 0;
}
