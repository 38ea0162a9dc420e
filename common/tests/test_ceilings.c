/* CPU tests of ceilings.h: the names and units of every ceiling, the roofline arithmetic and the
 * rows it writes. Usage: test_ceilings <group>. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceilings.h"
#include "tutorial.h"
#include "unit_test.h"

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b)) + 1e-300;
}

static void test_names(void)
{
    for (int k = 0; k < TUT_CEILING_COUNT; ++k) {
        const char *name = tut_ceiling_name((tut_ceiling_kind)k);
        EXPECT(name && strcmp(name, "unknown") != 0);
        EXPECT(strlen(tut_ceiling_unit((tut_ceiling_kind)k)) > 0);
        EXPECT(strlen(tut_ceiling_description((tut_ceiling_kind)k)) > 10);
        EXPECT(tut_ceiling_from_name(name) == k);
        /* No name is another's prefix twice over: each appears once among the choices. */
        EXPECT(tut_choice_index(tut_ceiling_choices(), name) == k);
        for (int j = 0; j < k; ++j)
            EXPECT(strcmp(name, tut_ceiling_name((tut_ceiling_kind)j)) != 0);
    }
    EXPECT(tut_ceiling_from_name("dram") == -1);
    EXPECT(tut_ceiling_from_name("") == -1);
    EXPECT(tut_ceiling_from_name(NULL) == -1);
    EXPECT(strcmp(tut_ceiling_name(TUT_CEILING_COUNT), "unknown") == 0);
    EXPECT(strcmp(tut_ceiling_unit(TUT_CEILING_DRAM_COPY), "GB/s") == 0);
    EXPECT(strcmp(tut_ceiling_unit(TUT_CEILING_FP32_FMA), "GFLOP/s") == 0);
    EXPECT(strcmp(tut_ceiling_unit(TUT_CEILING_LAUNCH), "us") == 0);

    tut_ceiling c = {.kind = TUT_CEILING_DRAM_COPY, .value = 3000.0};
    EXPECT(close_to(tut_ceiling_per_second(&c), 3e12));
    c.kind = TUT_CEILING_LAUNCH;
    c.value = 2.5;
    EXPECT(close_to(tut_ceiling_per_second(&c), 2.5e-6));
}

static void test_arithmetic(void)
{
    /* vecadd: 12 bytes and 1 flop per element. */
    EXPECT(close_to(tut_intensity(12.0, 1.0), 1.0 / 12.0));
    EXPECT(tut_intensity(0.0, 5.0) == 0.0);
    /* Memory-bound: 12 GB at 3 TB/s is 4 ms; 1 GFLOP at 60 TFLOP/s is 16.7 us. */
    EXPECT(close_to(tut_predicted_seconds(12e9, 1e9, 3e12, 60e12), 4e-3));
    /* Compute-bound: 1 MB and 6 TFLOP. */
    EXPECT(close_to(tut_predicted_seconds(1e6, 6e12, 3e12, 60e12), 0.1));
    /* A missing rate leaves its term out. */
    EXPECT(close_to(tut_predicted_seconds(3e9, 1e20, 3e12, 0.0), 1e-3));
    EXPECT(close_to(tut_predicted_seconds(1e20, 6e12, 0.0, 60e12), 0.1));
    /* The roof: the bandwidth slope below the ridge (20 flop/byte), the peak above it. */
    EXPECT(close_to(tut_roof(1.0, 3e12, 60e12), 3e12));
    EXPECT(close_to(tut_roof(20.0, 3e12, 60e12), 60e12));
    EXPECT(close_to(tut_roof(100.0, 3e12, 60e12), 60e12));
    EXPECT(close_to(tut_roof(100.0, 3e12, 0.0), 300e12));
    EXPECT(close_to(tut_roof(0.01, 0.0, 60e12), 60e12)); /* no memory roof: the peak */
    EXPECT(tut_roof(1.0, 0.0, 0.0) == 0.0);
}

static void test_figures(void)
{
    const tut_ceiling dram = {.kind = TUT_CEILING_DRAM_COPY, .value = 3000.0};
    const tut_ceiling fma = {.kind = TUT_CEILING_FP32_FMA, .value = 60000.0};
    /* 2^28 floats of vecadd in 1.1 ms: 3221 MB and 268 Mflop; the roof says 1.0737 ms. */
    const double n = 268435456.0;
    tut_roofline_point p = {.kernel = "float4", .bytes = 12.0 * n, .ops = n, .op_unit = "flop",
                            .seconds = 1.1e-3, .memory = &dram, .compute = &fma};
    tut_roofline_figures f = tut_roofline_figures_of(&p);
    EXPECT(close_to(f.intensity, 1.0 / 12.0));
    EXPECT(close_to(f.predicted_s, 12.0 * n / 3e12));
    EXPECT(close_to(f.ratio, 12.0 * n / 3e12 / 1.1e-3));
    EXPECT(f.ratio > 0.97 && f.ratio < 0.98);
    EXPECT(close_to(f.achieved_gbps, 12.0 * n / 1.1e-3 / 1e9));
    EXPECT(close_to(f.achieved_gops, n / 1.1e-3 / 1e9));
    EXPECT(close_to(f.roof_gops, 3000.0 / 12.0));
    EXPECT(strcmp(f.bound, "dram_copy") == 0);

    /* Compute-bound: the bound is the FMA ceiling, the roof its peak. */
    p.bytes = 1e6;
    p.ops = 6e10;
    p.seconds = 2e-3;
    f = tut_roofline_figures_of(&p);
    EXPECT(strcmp(f.bound, "fp32_fma") == 0);
    EXPECT(close_to(f.predicted_s, 1e-3));
    EXPECT(close_to(f.ratio, 0.5));
    EXPECT(close_to(f.roof_gops, 60000.0));

    /* Bandwidth only. */
    p.compute = NULL;
    f = tut_roofline_figures_of(&p);
    EXPECT(strcmp(f.bound, "dram_copy") == 0);
    EXPECT(close_to(f.predicted_s, 1e6 / 3e12));

    /* A time of zero (never measured) gives no ratio, not infinity. */
    p.seconds = 0.0;
    f = tut_roofline_figures_of(&p);
    EXPECT(f.ratio == 0.0 && f.achieved_gops == 0.0);
}

/* The rows written are the figures, in the header's columns; a comma in a method is replaced. */
static void test_csv_rows(void)
{
    const char *dir = "ceilings_test_out"; /* in the test's working directory */
    char path[256], line[512];
    /* An earlier run's files must not stand in for files this run did not write. */
    snprintf(path, sizeof path, "%s/ceilings.csv", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/roofline.csv", dir);
    remove(path);
    tut_ceiling dram = {.kind = TUT_CEILING_DRAM_COPY, .value = 3000.0, .low = 2990.0,
                        .high = 3010.0};
    snprintf(dram.method, sizeof dram.method, "copy, 256 MiB");
    const tut_ceiling *measured[] = {&dram};
    tut_ceilings_report(measured, 1, dir, "ceilings.csv"); /* prints it, writes the file */

    tut_csv *csv = tut_roofline_csv_open(dir, "roofline.csv");
    const tut_roofline_point p = {.kernel = "copy", .bytes = 3e9, .ops = 1e9, .op_unit = "flop",
                                  .seconds = 2e-3, .memory = &dram, .compute = NULL};
    tut_roofline_csv_row(csv, &p);
    tut_csv_close(csv);

    int rows = 0;
    snprintf(path, sizeof path, "%s/ceilings.csv", dir);
    FILE *f = fopen(path, "r");
    EXPECT(f != NULL);
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (rows == 0)
            EXPECT(strncmp(line, TUT_CEILINGS_CSV_HEADER, strlen(TUT_CEILINGS_CSV_HEADER)) == 0);
        else
            EXPECT(strcmp(line, "dram_copy,GB/s,3000,2990,3010,copy; 256 MiB\n") == 0);
        ++rows;
    }
    if (f)
        fclose(f);
    EXPECT(rows == 2);

    snprintf(path, sizeof path, "%s/roofline.csv", dir);
    f = fopen(path, "r");
    EXPECT(f != NULL);
    rows = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (rows == 1)
            EXPECT(strcmp(line, "copy,3e+09,1e+09,flop,0.333333,500,1500,1000,1,2,0.5000,"
                                "dram_copy,dram_copy,3000,none,0\n") == 0);
        ++rows;
    }
    if (f)
        fclose(f);
    EXPECT(rows == 2);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"names", test_names},
        {"arithmetic", test_arithmetic},
        {"figures", test_figures},
        {"csv", test_csv_rows},
    };
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
