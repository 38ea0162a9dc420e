/* ceilings: measures this GPU's ceilings (ceilings.h), prints them and, with --outdir, writes
 * ceilings.csv. The tour runs it first, so every chapter's page can quote the roofs its kernels
 * are measured against; each chapter also measures the ones it needs in its own run.
 *
 *   ceilings                      every ceiling (about a second)
 *   ceilings --only fp32_fma      one of them */
#include "tutorial.h"

#include "ceilings.h"

int main(int argc, char **argv)
{
    int only = -1;
    const char *outdir = NULL;
    static char choices[600];
    snprintf(choices, sizeof choices, "all|%s", tut_ceiling_choices());
    int choice = 0; /* "all" */
    const tut_option opts[] = {
        {"--only", TUT_OPT_CHOICE, &choice, "measure one ceiling (default: all)", 0, 0, choices},
        {"--outdir", TUT_OPT_STRING, &outdir, "write ceilings.csv into this folder", 0, 0, NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "ceilings: measures the GPU's DRAM, shared-memory, FMA, integer-multiply, "
                      "atomic, PCIe and launch ceilings",
                      opts, TUT_COUNT(opts));
    only = choice - 1; /* the choices start with "all" */

    tut_select_device(TUT_NEED_NOTHING);
    tut_csv *csv = tut_ceilings_csv_open(outdir, "ceilings.csv");
    printf("ceilings (median of %d batches; min and max the slowest and fastest batch):\n",
           TUT_CEILING_BATCHES);
    for (int k = 0; k < TUT_CEILING_COUNT; ++k) {
        if (only >= 0 && k != only)
            continue;
        const tut_ceiling c = tut_measure_ceiling((tut_ceiling_kind)k);
        /* A rate of zero or a NaN is a broken measurement, not a ceiling. */
        if (!(c.value > 0) || !(c.low <= c.value && c.value <= c.high)) {
            fprintf(stderr, "%s: implausible value %g (min %g, max %g)\n", tut_ceiling_name(c.kind),
                    c.value, c.low, c.high);
            tut_csv_close(csv);
            printf("FAIL\n");
            return 1;
        }
        tut_ceiling_print(&c);
        tut_ceilings_csv_row(csv, &c);
    }
    tut_csv_close(csv);
    printf("PASS\n");
    return 0;
}
