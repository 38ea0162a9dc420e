/* Result files that gnuplot reads directly: comma-separated, one header line naming the columns,
 * preceded by '#' comment lines that record when and on which GPU the numbers were taken.
 *
 *   tut_csv *csv = tut_csv_open(outdir, "bandwidth.csv", "n,variant,ms,gbps");
 *   tut_csv_row(csv, "%llu,%s,%.4f,%.1f", n, name, ms, gbps);
 *   tut_csv_close(csv);
 *
 * With outdir == NULL nothing is written and every call is a no-op, so a program writes results
 * only when asked (--outdir). A file that cannot be written is bad input: message, exit 2.
 * In gnuplot: set datafile separator ','; plot 'bandwidth.csv' using 'n':'gbps' ... */
#ifndef TUTORIAL_CSV_H
#define TUTORIAL_CSV_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    FILE *file;
    char path[1024];
} tut_csv;

tut_csv *tut_csv_open(const char *dir, const char *name, const char *header);
void tut_csv_comment(tut_csv *csv, const char *fmt, ...);
void tut_csv_row(tut_csv *csv, const char *fmt, ...);
void tut_csv_close(tut_csv *csv);

/* mkdir -p; returns 0 on success, -1 (errno set) on failure. */
int tut_make_dirs(const char *path);

#ifdef __cplusplus
}
#endif

#endif
