/* The GPU's SM clock while timed work runs, and what holds it down, read through NVML (the
 * library behind nvidia-smi, installed with the driver). A ratio of two timings means little if
 * the clock moved between them: a matrix product on the tensor cores can draw enough power that
 * the GPU lowers its clock a few hundred MHz within a second (nvidia-smi calls the reason
 * "SW Power Cap"), and whichever kernel runs in that state looks slower.
 *
 *   gpu_clocks_open(device);                  once; 0 if NVML is missing (then nothing is read)
 *   gpu_clock_sample s;
 *   if (gpu_clocks_read(&s)) ... s.sm_mhz, s.limited
 *
 * NVML is loaded at run time (dlopen), so the program runs, and skips as it should, on a
 * machine without a driver; the clocks are then reported as 0 (unknown). */
#ifndef MATMUL_GPU_CLOCKS_H
#define MATMUL_GPU_CLOCKS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    unsigned sm_mhz; /* the SM clock now */
    int limited;     /* 1: held below its maximum by the power cap or a thermal/hardware slowdown */
} gpu_clock_sample;

/* Finds the NVML device of CUDA device `cuda_device` (by PCI bus id, "0000:00:06.0").
 * Returns 1 if clocks can be read, 0 if not (no NVML, or no such device). */
int gpu_clocks_open(int cuda_device);

/* Reads the current SM clock and its limiting reasons; 0 if clocks cannot be read. */
int gpu_clocks_read(gpu_clock_sample *s);

/* The largest SM clock the GPU may run at (MHz), 0 if unknown. */
unsigned gpu_clocks_max_sm_mhz(void);

#ifdef __cplusplus
}
#endif

#endif
