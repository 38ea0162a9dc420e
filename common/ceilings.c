/* The CPU half of ceilings.h: the ceilings' names and units, the roofline arithmetic and the
 * CSV rows. The measurements are in ceilings_gpu.cu. */
#include "ceilings.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    const char *unit;
    double unit_per_second; /* the unit in base units: GB/s -> 1e9 bytes/s; us -> 1e-6 s */
    const char *description;
} ceiling_about;

/* Indexed by tut_ceiling_kind; the test checks that every kind has its row. */
static const ceiling_about about[TUT_CEILING_COUNT] = {
    [TUT_CEILING_DRAM_COPY] = {"dram_copy", "GB/s", 1e9,
                               "DRAM copy, bytes read + written (best of a kernel and cudaMemcpy)"},
    [TUT_CEILING_DRAM_READ] = {"dram_read", "GB/s", 1e9, "DRAM reads alone (a kernel that sums)"},
    [TUT_CEILING_SHARED_BANDWIDTH] = {"shared_bandwidth", "GB/s", 1e9,
                                      "shared-memory loads, conflict-free, all SMs"},
    [TUT_CEILING_FP32_FMA] = {"fp32_fma", "GFLOP/s", 1e9, "FP32 fused multiply-adds, 2 flops each"},
    [TUT_CEILING_FP64_FMA] = {"fp64_fma", "GFLOP/s", 1e9, "FP64 fused multiply-adds, 2 flops each"},
    [TUT_CEILING_INT_MUL_LO] = {"int_mul_lo", "G mul/s", 1e9, "32-bit integer multiplies, low half"},
    [TUT_CEILING_INT_MUL_WIDE] = {"int_mul_wide", "G mul/s", 1e9,
                                  "32x32->64-bit multiplies, high and low half one result each"},
    [TUT_CEILING_GLOBAL_ATOMIC] = {"global_atomic", "G atomics/s", 1e9,
                                   "global atomicAdd, every thread its own address"},
    [TUT_CEILING_GLOBAL_ATOMIC_SAME] = {"global_atomic_same", "G atomics/s", 1e9,
                                        "global atomicAdd, every thread the same address"},
    [TUT_CEILING_SHARED_ATOMIC] = {"shared_atomic", "G atomics/s", 1e9,
                                   "shared-memory atomicAdd, every lane its own bank"},
    [TUT_CEILING_PCIE_H2D] = {"pcie_h2d", "GB/s", 1e9, "host to device copy, pinned memory"},
    [TUT_CEILING_PCIE_D2H] = {"pcie_d2h", "GB/s", 1e9, "device to host copy, pinned memory"},
    [TUT_CEILING_PCIE_BOTH] = {"pcie_both", "GB/s", 1e9,
                               "both directions at once (two streams), bytes of both"},
    [TUT_CEILING_LAUNCH] = {"launch", "us", 1e-6, "empty kernel launched back to back, per launch"},
};

static int valid(tut_ceiling_kind kind)
{
    return (int)kind >= 0 && kind < TUT_CEILING_COUNT;
}

const char *tut_ceiling_name(tut_ceiling_kind kind)
{
    return valid(kind) ? about[kind].name : "unknown";
}

const char *tut_ceiling_unit(tut_ceiling_kind kind)
{
    return valid(kind) ? about[kind].unit : "";
}

const char *tut_ceiling_description(tut_ceiling_kind kind)
{
    return valid(kind) ? about[kind].description : "";
}

int tut_ceiling_from_name(const char *name)
{
    for (int k = 0; k < TUT_CEILING_COUNT; ++k)
        if (name && strcmp(name, about[k].name) == 0)
            return k;
    return -1;
}

const char *tut_ceiling_choices(void)
{
    static char choices[512];
    if (!choices[0])
        for (int k = 0; k < TUT_CEILING_COUNT; ++k) {
            if (k)
                strcat(choices, "|");
            strcat(choices, about[k].name);
        }
    return choices;
}

double tut_ceiling_per_second(const tut_ceiling *c)
{
    return valid(c->kind) ? c->value * about[c->kind].unit_per_second : 0.0;
}

void tut_ceiling_print(const tut_ceiling *c)
{
    printf("  %-19s %10.1f %-11s (min %.1f, max %.1f)  %s\n", tut_ceiling_name(c->kind), c->value,
           tut_ceiling_unit(c->kind), c->low, c->high, c->method);
}

tut_csv *tut_ceilings_csv_open(const char *outdir, const char *name)
{
    return tut_csv_open(outdir, name, TUT_CEILINGS_CSV_HEADER);
}

void tut_ceilings_csv_row(tut_csv *csv, const tut_ceiling *c)
{
    char method[sizeof c->method];
    snprintf(method, sizeof method, "%s", c->method);
    for (char *p = method; *p; ++p)
        if (*p == ',')
            *p = ';'; /* a comma would start a new column */
    tut_csv_row(csv, "%s,%s,%.6g,%.6g,%.6g,%s", tut_ceiling_name(c->kind),
                tut_ceiling_unit(c->kind), c->value, c->low, c->high, method);
}

void tut_ceilings_report(const tut_ceiling *const *ceilings, int count, const char *outdir,
                         const char *name)
{
    for (int i = 0; i < count; ++i)
        tut_ceiling_print(ceilings[i]);
    tut_csv *csv = tut_ceilings_csv_open(outdir, name);
    for (int i = 0; i < count; ++i)
        tut_ceilings_csv_row(csv, ceilings[i]);
    tut_csv_close(csv);
}

/* ---- The roofline ---------------------------------------------------------------------- */

double tut_intensity(double bytes, double ops)
{
    return bytes > 0 ? ops / bytes : 0.0;
}

double tut_predicted_seconds(double bytes, double ops, double bandwidth_per_s, double peak_per_s)
{
    const double memory_s = bandwidth_per_s > 0 ? bytes / bandwidth_per_s : 0.0;
    const double compute_s = peak_per_s > 0 ? ops / peak_per_s : 0.0;
    return memory_s > compute_s ? memory_s : compute_s;
}

double tut_roof(double intensity, double bandwidth_per_s, double peak_per_s)
{
    if (bandwidth_per_s <= 0)
        return peak_per_s > 0 ? peak_per_s : 0.0; /* no memory roof: the peak alone */
    const double memory_roof = intensity * bandwidth_per_s;
    return peak_per_s > 0 && peak_per_s < memory_roof ? peak_per_s : memory_roof;
}

tut_roofline_figures tut_roofline_figures_of(const tut_roofline_point *p)
{
    const double bandwidth = p->memory ? tut_ceiling_per_second(p->memory) : 0.0;
    const double peak = p->compute ? tut_ceiling_per_second(p->compute) : 0.0;
    const double memory_s = bandwidth > 0 ? p->bytes / bandwidth : 0.0;
    const double compute_s = peak > 0 ? p->ops / peak : 0.0;
    tut_roofline_figures f;
    f.intensity = tut_intensity(p->bytes, p->ops);
    f.achieved_gops = p->seconds > 0 ? p->ops / p->seconds / 1e9 : 0.0;
    f.achieved_gbps = p->seconds > 0 ? p->bytes / p->seconds / 1e9 : 0.0;
    f.roof_gops = tut_roof(f.intensity, bandwidth, peak) / 1e9;
    f.predicted_s = tut_predicted_seconds(p->bytes, p->ops, bandwidth, peak);
    f.ratio = p->seconds > 0 ? f.predicted_s / p->seconds : 0.0;
    if (compute_s > memory_s)
        f.bound = tut_ceiling_name(p->compute->kind);
    else
        f.bound = p->memory ? tut_ceiling_name(p->memory->kind) : "none";
    return f;
}

tut_csv *tut_roofline_csv_open(const char *outdir, const char *name)
{
    return tut_csv_open(outdir, name,
                        "kernel,bytes,ops,op_unit,intensity,achieved_gops,achieved_gbps,roof_gops,"
                        "predicted_ms,measured_ms,ratio,bound,memory_roof,memory_gbps,compute_roof,"
                        "compute_gops");
}

tut_roofline_figures tut_roofline_csv_row(tut_csv *csv, const tut_roofline_point *p)
{
    const tut_roofline_figures f = tut_roofline_figures_of(p);
    /* With no compute roof the plot still needs a number: 0 means "none". */
    tut_csv_row(csv, "%s,%.6g,%.6g,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.4f,%s,%s,%.6g,%s,%.6g",
                p->kernel, p->bytes, p->ops, p->op_unit, f.intensity, f.achieved_gops,
                f.achieved_gbps, f.roof_gops, f.predicted_s * 1e3, p->seconds * 1e3, f.ratio,
                f.bound, p->memory ? tut_ceiling_name(p->memory->kind) : "none",
                p->memory ? p->memory->value : 0.0,
                p->compute ? tut_ceiling_name(p->compute->kind) : "none",
                p->compute ? p->compute->value : 0.0);
    return f;
}

void tut_roofline_print(const tut_roofline_point *p)
{
    const tut_roofline_figures f = tut_roofline_figures_of(p);
    printf("  %s: predicted %.4g ms (the %s roof), measured %.4g ms: %.1f%% of the roof\n",
           p->kernel, f.predicted_s * 1e3, f.bound, p->seconds * 1e3, 100.0 * f.ratio);
}
