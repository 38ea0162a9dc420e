#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Multiplies with an overflow check. */
static int mul_checked(unsigned long long a, unsigned long long b, unsigned long long *out)
{
    if (a != 0 && b > ULLONG_MAX / a)
        return -1;
    *out = a * b;
    return 0;
}

static int parse_digits(const char **p, unsigned long long *out)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    unsigned long long v = 0;
    while (isdigit((unsigned char)**p)) {
        const unsigned digit = (unsigned)(**p - '0');
        if (v > (ULLONG_MAX - digit) / 10)
            return -1;
        v = v * 10 + digit;
        ++*p;
    }
    *out = v;
    return 0;
}

int tut_parse_size(const char *text, unsigned long long *out)
{
    const char *p = text;
    unsigned long long base = 0, exponent = 0, value = 0;
    if (!text || parse_digits(&p, &base) != 0)
        return -1;
    if (*p == '^' || *p == 'e' || *p == 'E') { /* 2^28 or 1e8 */
        const unsigned long long radix = (*p == '^') ? base : 10;
        const unsigned long long mantissa = (*p == '^') ? 1 : base;
        ++p;
        if (parse_digits(&p, &exponent) != 0 || *p != '\0' || exponent > 64)
            return -1;
        value = mantissa;
        for (unsigned long long i = 0; i < exponent; ++i)
            if (mul_checked(value, radix, &value) != 0)
                return -1;
        *out = value;
        return 0;
    }
    unsigned long long scale = 1;
    switch (*p) {
    case '\0': break;
    case 'k': case 'K': scale = 1ull << 10; ++p; break;
    case 'm': case 'M': scale = 1ull << 20; ++p; break;
    case 'g': case 'G': scale = 1ull << 30; ++p; break;
    case 't': case 'T': scale = 1ull << 40; ++p; break;
    default: return -1;
    }
    if (*p != '\0' || mul_checked(base, scale, &value) != 0)
        return -1;
    *out = value;
    return 0;
}

int tut_parse_int(const char *text, long long *out)
{
    if (!text || !*text || isspace((unsigned char)*text))
        return -1;
    char *end = NULL;
    errno = 0;
    const long long v = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

int tut_parse_double(const char *text, double *out)
{
    if (!text || !*text || isspace((unsigned char)*text))
        return -1;
    char *end = NULL;
    errno = 0;
    const double v = strtod(text, &end);
    if (errno != 0 || *end != '\0' || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int tut_choice_index(const char *choices, const char *text)
{
    const size_t len = strlen(text);
    int index = 0;
    for (const char *c = choices; c && *c; ++index) {
        const char *bar = strchr(c, '|');
        const size_t n = bar ? (size_t)(bar - c) : strlen(c);
        if (n == len && strncmp(c, text, n) == 0)
            return index;
        c = bar ? bar + 1 : NULL;
    }
    return -1;
}

static int in_range(const tut_option *o, double v)
{
    return o->min > o->max || (v >= o->min && v <= o->max);
}

static int set_value(const tut_option *o, const char *text, char *err, size_t err_len)
{
    switch (o->kind) {
    case TUT_OPT_SIZE: {
        unsigned long long v;
        if (text[0] == '-') {
            snprintf(err, err_len, "%s must not be negative (got '%s')", o->name, text);
            return -1;
        }
        if (tut_parse_size(text, &v) != 0) {
            snprintf(err, err_len, "%s expects a size such as 1000, 64K, 1M, 2^20 or 1e6 (got '%s')",
                     o->name, text);
            return -1;
        }
        if (!in_range(o, (double)v)) {
            snprintf(err, err_len, "%s must be between %.0f and %.0f (got %s)", o->name, o->min,
                     o->max, text);
            return -1;
        }
        *(unsigned long long *)o->value = v;
        return 0;
    }
    case TUT_OPT_INT: {
        long long v;
        if (tut_parse_int(text, &v) != 0) {
            snprintf(err, err_len, "%s expects an integer (got '%s')", o->name, text);
            return -1;
        }
        if (!in_range(o, (double)v)) {
            snprintf(err, err_len, "%s must be between %.0f and %.0f (got %s)", o->name, o->min,
                     o->max, text);
            return -1;
        }
        *(long long *)o->value = v;
        return 0;
    }
    case TUT_OPT_DOUBLE: {
        double v;
        if (tut_parse_double(text, &v) != 0) {
            snprintf(err, err_len, "%s expects a finite number (got '%s')", o->name, text);
            return -1;
        }
        if (!in_range(o, v)) {
            snprintf(err, err_len, "%s must be between %g and %g (got %s)", o->name, o->min,
                     o->max, text);
            return -1;
        }
        *(double *)o->value = v;
        return 0;
    }
    case TUT_OPT_STRING:
        if (!*text) {
            snprintf(err, err_len, "%s expects a non-empty value", o->name);
            return -1;
        }
        *(const char **)o->value = text;
        return 0;
    case TUT_OPT_CHOICE: {
        const int index = tut_choice_index(o->choices, text);
        if (index < 0) {
            snprintf(err, err_len, "%s must be one of %s (got '%s')", o->name, o->choices, text);
            return -1;
        }
        *(int *)o->value = index;
        return 0;
    }
    case TUT_OPT_FLAG:
        break;
    }
    snprintf(err, err_len, "%s takes no value", o->name);
    return -1;
}

int tut_parse_args(int argc, char **argv, const tut_option *opts, int nopts, char *err,
                   size_t err_len)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
            return 1;
        const char *eq = strchr(arg, '=');
        const size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
        const tut_option *o = NULL;
        for (int k = 0; k < nopts; ++k)
            if (strlen(opts[k].name) == name_len && strncmp(opts[k].name, arg, name_len) == 0)
                o = &opts[k];
        if (!o) {
            snprintf(err, err_len, "unknown option '%s'", arg);
            return -1;
        }
        if (o->kind == TUT_OPT_FLAG) {
            if (eq) {
                snprintf(err, err_len, "%s takes no value", o->name);
                return -1;
            }
            *(int *)o->value = 1;
            continue;
        }
        const char *text = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!text) {
            snprintf(err, err_len, "%s needs a value", o->name);
            return -1;
        }
        if (set_value(o, text, err, err_len) != 0)
            return -1;
    }
    return 0;
}

void tut_print_usage(FILE *to, const char *program, const char *summary,
                     const tut_option *opts, int nopts)
{
    fprintf(to, "usage: %s [options]\n%s\n\noptions:\n", program, summary);
    for (int k = 0; k < nopts; ++k) {
        const tut_option *o = &opts[k];
        char value[160] = "";
        switch (o->kind) {
        case TUT_OPT_FLAG: break;
        case TUT_OPT_SIZE: snprintf(value, sizeof value, " N"); break;
        case TUT_OPT_INT: snprintf(value, sizeof value, " INT"); break;
        case TUT_OPT_DOUBLE: snprintf(value, sizeof value, " X"); break;
        case TUT_OPT_STRING: snprintf(value, sizeof value, " TEXT"); break;
        case TUT_OPT_CHOICE: snprintf(value, sizeof value, " {%s}", o->choices); break;
        }
        fprintf(to, "  %s%s\n      %s\n", o->name, value, o->help);
    }
    fprintf(to, "  --help\n      print this message and exit\n");
}

void tut_parse_or_exit(int argc, char **argv, const char *summary, const tut_option *opts,
                       int nopts)
{
    char err[512];
    const char *program = argc > 0 ? argv[0] : "program";
    const char *slash = strrchr(program, '/');
    if (slash)
        program = slash + 1;
    const int rc = tut_parse_args(argc, argv, opts, nopts, err, sizeof err);
    if (rc == 1) {
        tut_print_usage(stdout, program, summary, opts, nopts);
        exit(0);
    }
    if (rc < 0) {
        fprintf(stderr, "%s: error: %s\n\n", program, err);
        tut_print_usage(stderr, program, summary, opts, nopts);
        exit(2);
    }
}
