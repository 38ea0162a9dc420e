/* Measured ceilings and the roofline: how fast this GPU can possibly run a kernel, measured in the
 * same run as the kernel, and how close the kernel comes.
 *
 * A ceiling is one hardware limit measured by a kernel (or copy) that does nothing else: DRAM
 * copy bandwidth, shared-memory bandwidth, FP32 FMA throughput, 32-bit integer multiplies,
 * atomics, PCIe copies, back-to-back launches. Each is timed with tut_time_gpu_batched, the way
 * the chapters time their kernels, and reported as median, min and max over the batches.
 *
 *   tut_select_device(TUT_NEED_NOTHING);
 *   const tut_ceiling dram = tut_measure_ceiling(TUT_CEILING_DRAM_COPY);
 *   const double predicted_ms = tut_predicted_seconds(12.0 * n, 0, dram.value * 1e9, 0) * 1e3;
 *
 * The roofline half (below) is plain arithmetic, tested on the CPU: a kernel's bytes and
 * operations give its intensity; the measured ceilings give its roof, max(bytes / bandwidth,
 * operations / peak) the time it cannot beat, and measured time against it the ratio.
 * Link the chapter program with tutorial_ceilings (LIBRARIES tutorial_ceilings). */
#ifndef TUTORIAL_CEILINGS_H
#define TUTORIAL_CEILINGS_H

#include "csv.h"
#include "timer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TUT_CEILING_DRAM_COPY,          /* GB/s, bytes read + written: best of a float4 kernel and
                                       cudaMemcpy device to device */
    TUT_CEILING_DRAM_READ,          /* GB/s, bytes read: a float4 kernel that only reads (sums) */
    TUT_CEILING_SHARED_BANDWIDTH,   /* GB/s over all SMs: conflict-free 32-bit shared loads */
    TUT_CEILING_FP32_FMA,           /* GFLOP/s: fmaf, 2 flops each */
    TUT_CEILING_FP64_FMA,           /* GFLOP/s: fma on doubles, 2 flops each */
    TUT_CEILING_INT_MUL_LO,         /* G multiplies/s: 32-bit a * b (low half, IMAD) */
    TUT_CEILING_INT_MUL_WIDE,       /* G results/s: __umulhi and a * b of the same pair (one
                                       IMAD.WIDE; high and low count one result each) */
    TUT_CEILING_GLOBAL_ATOMIC,      /* G atomics/s: atomicAdd, each thread its own address */
    TUT_CEILING_GLOBAL_ATOMIC_SAME, /* G atomics/s: atomicAdd, every thread on one address */
    TUT_CEILING_SHARED_ATOMIC,      /* G atomics/s: atomicAdd on shared memory, no conflicts */
    TUT_CEILING_PCIE_H2D,           /* GB/s: cudaMemcpyAsync from pinned host memory */
    TUT_CEILING_PCIE_D2H,           /* GB/s: cudaMemcpyAsync to pinned host memory */
    TUT_CEILING_PCIE_BOTH,          /* GB/s: both at once, in two streams (bytes of both) */
    TUT_CEILING_LAUNCH,             /* us per empty kernel, launched back to back (lower is
                                       better: the only ceiling that is a time) */
    TUT_CEILING_COUNT
} tut_ceiling_kind;

typedef struct {
    tut_ceiling_kind kind;
    double value;       /* the median batch, in tut_ceiling_unit(kind) */
    double low, high;   /* the spread over batches, same unit: low <= value <= high (for
                           rates low is the slowest batch; for LAUNCH, a time, the fastest) */
    double work;        /* per call: bytes, operations or launches */
    tut_timing time;    /* per call, in ms */
    char method[96];    /* what gave the value ("float4 grid-stride copy, 256 MiB") */
} tut_ceiling;

/* ---- Names and units (CPU) -------------------------------------------------------------- */

/* "dram_copy", "dram_read", "shared_bandwidth", "fp32_fma", "fp64_fma", "int_mul_lo", "int_mul_wide", "global_atomic",
 * "global_atomic_same", "shared_atomic", "pcie_h2d", "pcie_d2h", "pcie_both", "launch". */
const char *tut_ceiling_name(tut_ceiling_kind kind);
/* "GB/s", "GFLOP/s", "G mul/s", "G atomics/s", "us". */
const char *tut_ceiling_unit(tut_ceiling_kind kind);
/* One line that says what was measured, for printing. */
const char *tut_ceiling_description(tut_ceiling_kind kind);
/* The kind named `name`, or -1. */
int tut_ceiling_from_name(const char *name);
/* The names joined by '|', for a TUT_OPT_CHOICE option ("dram_copy|shared_bandwidth|..."). */
const char *tut_ceiling_choices(void);
/* A ceiling's value per second in base units (bytes/s, flop/s, ops/s); for LAUNCH, seconds. */
double tut_ceiling_per_second(const tut_ceiling *c);

/* ---- Measuring (GPU; after tut_select_device) ------------------------------------------- */

/* Timed batches per ceiling (after 2 warm-up calls); each batch about 2 ms of calls. */
#define TUT_CEILING_BATCHES 7

/* Measures one ceiling: warm-up, then batches of back-to-back calls (about 0.05 s in all; PCIe
 * about 0.1 s). Sizes and grids come from the current device's limits. Exits 2 if the buffers
 * do not fit in device memory. */
tut_ceiling tut_measure_ceiling(tut_ceiling_kind kind);

/* Prints "  dram_copy           2985.1 GB/s (min 2970.3, max 2990.0)  float4 ..." to stdout. */
void tut_ceiling_print(const tut_ceiling *c);

/* A chapter's ceilings file: header "ceiling,unit,median,min,max,method". Write one row per
 * ceiling the chapter measured (method has its commas replaced). outdir NULL: no-ops. */
#define TUT_CEILINGS_CSV_HEADER "ceiling,unit,median,min,max,method"
tut_csv *tut_ceilings_csv_open(const char *outdir, const char *name);
void tut_ceilings_csv_row(tut_csv *csv, const tut_ceiling *c);

/* What every chapter does with the ceilings it measured: prints each (tut_ceiling_print) and
 * writes them, in this order, to <outdir>/<name> (outdir NULL: prints only). */
void tut_ceilings_report(const tut_ceiling *const *ceilings, int count, const char *outdir,
                         const char *name);

/* ---- The roofline (CPU arithmetic) ------------------------------------------------------ */

/* Operations per byte; 0 when bytes is 0. */
double tut_intensity(double bytes, double ops);

/* The time no kernel that moves `bytes` and does `ops` can beat: max(bytes / bandwidth,
 * ops / peak), in seconds; a term whose rate is <= 0 is left out. */
double tut_predicted_seconds(double bytes, double ops, double bandwidth_per_s, double peak_per_s);

/* The roof at `intensity`: min(peak, intensity * bandwidth), operations per second (peak <= 0:
 * the bandwidth line alone; bandwidth <= 0: the peak alone). */
double tut_roof(double intensity, double bandwidth_per_s, double peak_per_s);

/* One kernel on a roofline: what it moves and computes per call and how long a call took, with
 * the two ceilings that bound it (named so the plot and the reader can tell which roof). */
typedef struct {
    const char *kernel;        /* "float4" */
    double bytes;              /* bytes the kernel must move through the memory named below */
    double ops;                /* operations it must do (flops, multiplies, updates...) */
    const char *op_unit;       /* "flop", "mul", "update" */
    double seconds;            /* measured, per call (median) */
    const tut_ceiling *memory; /* the bandwidth roof (GB/s kind) */
    const tut_ceiling *compute;/* the compute roof (NULL: bandwidth only) */
} tut_roofline_point;

typedef struct {
    double intensity;      /* ops per byte */
    double achieved_gops;  /* ops / seconds / 1e9 */
    double achieved_gbps;  /* bytes / seconds / 1e9 */
    double roof_gops;      /* the roof at this intensity */
    double predicted_s;    /* tut_predicted_seconds with the two ceilings */
    double ratio;          /* predicted_s / seconds: 1 is at the roof */
    const char *bound;     /* the name of the ceiling that sets predicted_s */
} tut_roofline_figures;

tut_roofline_figures tut_roofline_figures_of(const tut_roofline_point *p);

/* A chapter's roofline file (what common/plots/roofline.gp draws), header:
 * kernel,bytes,ops,op_unit,intensity,achieved_gops,achieved_gbps,roof_gops,predicted_ms,
 * measured_ms,ratio,bound,memory_roof,memory_gbps,compute_roof,compute_gops */
tut_csv *tut_roofline_csv_open(const char *outdir, const char *name);
/* Writes p's row and returns its figures (also when csv is NULL, for printing). */
tut_roofline_figures tut_roofline_csv_row(tut_csv *csv, const tut_roofline_point *p);

/* "predicted 0.93 ms (bytes / dram_copy), measured 0.97 ms: 96.3% of the roof" to stdout. */
void tut_roofline_print(const tut_roofline_point *p);

#ifdef __cplusplus
}
#endif

#endif
