/* A small, strict command-line parser.
 *
 *   static unsigned long long n = 100000;
 *   static int variant = 0;                       // index into "a|b|c"
 *   const tut_option opts[] = {
 *       {"--n", TUT_OPT_SIZE, &n, "number of elements", 1, 1e12, NULL},
 *       {"--variant", TUT_OPT_CHOICE, &variant, "which kernel", 0, 0, "a|b|c"},
 *   };
 *   tut_parse_or_exit(argc, argv, "vecadd: adds two vectors", opts, TUT_COUNT(opts));
 *
 * Options are written `--name value` or `--name=value`. Sizes accept 100000, 64K, 1M, 2G (powers
 * of two: K = 1024), 2^28 and 1e8. Unknown options, missing values, non-numbers, negative or
 * out-of-range values print the problem and the usage on stderr and exit 2; --help prints the
 * usage on stdout and exits 0. */
#ifndef TUTORIAL_OPTIONS_H
#define TUTORIAL_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TUT_OPT_FLAG,   /* int*: set to 1 when present, takes no value */
    TUT_OPT_SIZE,   /* unsigned long long*: a count, with suffixes */
    TUT_OPT_INT,    /* long long*: may be negative */
    TUT_OPT_DOUBLE, /* double*: finite */
    TUT_OPT_STRING, /* const char**: points into argv */
    TUT_OPT_CHOICE, /* int*: index of the value in `choices` ("a|b|c") */
} tut_opt_kind;

typedef struct {
    const char *name; /* with its dashes: "--n" */
    tut_opt_kind kind;
    void *value;
    const char *help;
    double min, max;     /* inclusive bounds for SIZE, INT and DOUBLE; none when min > max */
    const char *choices; /* CHOICE only */
} tut_option;

#define TUT_COUNT(array) ((int)(sizeof(array) / sizeof((array)[0])))

/* Returns 0 when parsed, 1 when --help was given, -1 on an error (described in err[]). */
int tut_parse_args(int argc, char **argv, const tut_option *opts, int nopts, char *err,
                   size_t err_len);

/* tut_parse_args, then usage + exit(0) for --help, message + usage + exit(2) on errors. */
void tut_parse_or_exit(int argc, char **argv, const char *summary, const tut_option *opts,
                       int nopts);

void tut_print_usage(FILE *to, const char *program, const char *summary,
                     const tut_option *opts, int nopts);

/* The value parsers, each 0 on success and -1 if the whole text is not a valid value. */
int tut_parse_size(const char *text, unsigned long long *out);
int tut_parse_int(const char *text, long long *out);
int tut_parse_double(const char *text, double *out);
/* The index of `text` in "a|b|c", or -1. */
int tut_choice_index(const char *choices, const char *text);

#ifdef __cplusplus
}
#endif

#endif
