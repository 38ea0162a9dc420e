/* mkdir is POSIX, not C11. */
#define _POSIX_C_SOURCE 200809L

#include "csv.h"

#include "commit.h" /* TUT_GIT_COMMIT, written at build time (cmake/WriteCommit.cmake) */

#include <cuda_runtime_api.h>

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "device.h"

int tut_make_dirs(const char *path)
{
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = buf + 1; ; ++p) {
        const char c = *p;
        if (c == '/' || c == '\0') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return -1;
            *p = c;
        }
        if (c == '\0')
            break;
    }
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* Where a result came from: the commit built, the toolkit, the GPU (and its emulated limits). */
static void write_provenance(FILE *f)
{
    fprintf(f, "# commit: %s\n", TUT_GIT_COMMIT);
    int driver = 0;
    if (cudaDriverGetVersion(&driver) != cudaSuccess)
        driver = 0;
    fprintf(f, "# toolkit: CUDA %d.%d (driver supports %d.%d)\n", CUDART_VERSION / 1000,
            CUDART_VERSION % 1000 / 10, driver / 1000, driver % 1000 / 10);
    const tut_device_info *dev = tut_current_device();
    if (!dev->name[0])
        return;
    fprintf(f, "# device: %s, %d SMs, compute capability %d.%d\n", dev->name, dev->sm_count,
            dev->major, dev->minor);
    if (dev->emulated[0])
        fprintf(f, "# emulated: launch choices used a %s's limits; timings are of the GPU above\n",
                dev->emulated);
}

tut_csv *tut_csv_open(const char *dir, const char *name, const char *header)
{
    if (!dir)
        return NULL;
    tut_csv *csv = calloc(1, sizeof *csv);
    if (!csv) {
        fprintf(stderr, "error: out of host memory\n");
        exit(2);
    }
    snprintf(csv->path, sizeof csv->path, "%s/%s", dir, name);
    if (tut_make_dirs(dir) != 0 || !(csv->file = fopen(csv->path, "w"))) {
        fprintf(stderr, "error: cannot write %s: %s\n", csv->path, strerror(errno));
        exit(2);
    }
    char date[64];
    const time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(csv->file, "# date: %s\n", date);
    write_provenance(csv->file);
    fprintf(csv->file, "%s\n", header);
    return csv;
}

void tut_csv_comment(tut_csv *csv, const char *fmt, ...)
{
    if (!csv)
        return;
    va_list args;
    va_start(args, fmt);
    fputs("# ", csv->file);
    vfprintf(csv->file, fmt, args);
    fputc('\n', csv->file);
    va_end(args);
}

void tut_csv_row(tut_csv *csv, const char *fmt, ...)
{
    if (!csv)
        return;
    va_list args;
    va_start(args, fmt);
    vfprintf(csv->file, fmt, args);
    fputc('\n', csv->file);
    va_end(args);
}

void tut_csv_close(tut_csv *csv)
{
    if (!csv)
        return;
    if (fclose(csv->file) != 0) {
        fprintf(stderr, "error: writing %s failed: %s\n", csv->path, strerror(errno));
        exit(2);
    }
    printf("wrote %s\n", csv->path);
    free(csv);
}
