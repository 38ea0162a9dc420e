/* docs_check: every measured number the docs quote must be in a committed CSV.
 *
 *   docs_check README.md docs/*.md
 *
 * A measured number is written as a Markdown link to the CSV that holds it, with the row and the
 * column in the link's title:
 *
 *   [4090 GB/s](results/01_vecadd/bandwidth.csv "kernel=float4, n=268435456: GBps")
 *
 * The rows whose cells equal every key=value (numerically where both are numbers) must be exactly
 * one; its column, scaled by an optional "*100" or "/1000" after the column name, must equal the
 * first number of the link text within the rounding shown (97.1 means 97.05 to 97.15). Paths are
 * relative to the Markdown file, as on any Markdown viewer. The docs must also speak of the
 * repository alone: no paths outside it. Exit 0 if every check holds, 1 if one fails, 2 for
 * unreadable files. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 8192
#define MAX_CELLS 64

static int checked = 0, failed = 0;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    const long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        free(text);
        return NULL;
    }
    text[size] = '\0';
    fclose(f);
    return text;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    if (*s == '"' && end > s + 1 && end[-1] == '"') { /* a quoted cell */
        end[-1] = '\0';
        s++;
    }
    return s;
}

/* Splits a CSV line at commas outside double quotes; returns the number of cells. */
static int split(char *line, char **cells)
{
    int n = 0, quoted = 0;
    char *start = line;
    for (char *p = line;; p++) {
        if (*p == '"')
            quoted = !quoted;
        if ((*p == ',' && !quoted) || *p == '\0' || *p == '\n' || *p == '\r') {
            const char end = *p;
            *p = '\0';
            if (n < MAX_CELLS)
                cells[n++] = trim(start);
            if (end != ',')
                break;
            start = p + 1;
        }
    }
    return n;
}

static int is_number(const char *s, double *value)
{
    char *end;
    if (!*s)
        return 0;
    *value = strtod(s, &end);
    return *end == '\0';
}

static int cell_matches(const char *cell, const char *want)
{
    double a, b;
    if (is_number(cell, &a) && is_number(want, &b))
        return a == b;
    return strcmp(cell, want) == 0;
}

static void fail(const char *md, int line, const char *text, const char *msg)
{
    printf("%s:%d: [%s]: %s\n", md, line, text, msg);
    failed++;
}

/* Checks one link: text, CSV path (already resolved), title. */
static void check_link(const char *md, int line, const char *text, const char *csv_path,
                       const char *title)
{
    char msg[1024];
    checked++;
    /* The number shown: the first one in the text that is not part of a word ("H100: 3.0 ms"
     * shows 3.0), with its sign and decimals. */
    const char *p = text;
    while (*p && !(isdigit((unsigned char)*p) &&
                   (p == text || !isalnum((unsigned char)p[-1]))))
        p++;
    if (!*p)
        return fail(md, line, text, "the link text holds no number");
    if (p > text && p[-1] == '-')
        p--;
    char *end;
    const double shown = strtod(p, &end);
    /* Decimals of the mantissa, and the exponent if written (2.12e-06: 2 decimals, 1e-8 units). */
    const char *e = p;
    while (e < end && *e != 'e' && *e != 'E')
        e++;
    const char *dot = memchr(p, '.', (size_t)(e - p));
    const int decimals = dot ? (int)(e - dot - 1) : 0;
    const int exponent = e < end ? atoi(e + 1) : 0;

    /* The title: "key=value, key=value: column[*k|/k]". */
    char sel[1024];
    snprintf(sel, sizeof sel, "%s", title);
    char *colon = strrchr(sel, ':');
    if (!colon)
        return fail(md, line, text, "the link title needs \"key=value, ...: column\"");
    *colon = '\0';
    char *column = trim(colon + 1);
    double scale = 1.0;
    char *op = strpbrk(column, "*/");
    if (op) {
        const double k = atof(op + 1);
        scale = *op == '*' ? k : 1.0 / k;
        *op = '\0';
        column = trim(column);
    }
    char *keys[16], *values[16];
    int npairs = 0;
    for (char *tok = strtok(sel, ","); tok && npairs < 16; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return fail(md, line, text, "a selector is not key=value");
        *eq = '\0';
        keys[npairs] = trim(tok);
        values[npairs] = trim(eq + 1);
        npairs++;
    }

    FILE *f = fopen(csv_path, "r");
    if (!f) {
        snprintf(msg, sizeof msg, "cannot read %s", csv_path);
        return fail(md, line, text, msg);
    }
    char header_line[MAX_LINE], row[MAX_LINE];
    char *header[MAX_CELLS], *cells[MAX_CELLS];
    int ncols = 0, matches = 0;
    double value = NAN;
    int key_col[16], col = -1;
    while (fgets(row, sizeof row, f)) {
        if (row[0] == '#' || row[0] == '\n')
            continue;
        if (ncols == 0) {
            memcpy(header_line, row, sizeof row);
            ncols = split(header_line, header);
            for (int k = 0; k < npairs; k++) {
                key_col[k] = -1;
                for (int c = 0; c < ncols; c++)
                    if (strcmp(header[c], keys[k]) == 0)
                        key_col[k] = c;
                if (key_col[k] < 0) {
                    fclose(f);
                    snprintf(msg, sizeof msg, "%s has no column '%s'", csv_path, keys[k]);
                    return fail(md, line, text, msg);
                }
            }
            for (int c = 0; c < ncols; c++)
                if (strcmp(header[c], column) == 0)
                    col = c;
            if (col < 0) {
                fclose(f);
                snprintf(msg, sizeof msg, "%s has no column '%s'", csv_path, column);
                return fail(md, line, text, msg);
            }
            continue;
        }
        const int n = split(row, cells);
        int ok = n == ncols;
        for (int k = 0; ok && k < npairs; k++)
            ok = cell_matches(cells[key_col[k]], values[k]);
        if (ok) {
            matches++;
            if (!is_number(cells[col], &value))
                value = NAN;
        }
    }
    fclose(f);
    if (matches != 1) {
        snprintf(msg, sizeof msg, "%d rows of %s match \"%s\" (exactly one must)", matches,
                 csv_path, title);
        return fail(md, line, text, msg);
    }
    const double scaled = value * scale;
    const double tolerance = 0.5 * pow(10.0, exponent - decimals) * (1 + 1e-9) + 1e-300;
    if (!(fabs(scaled - shown) <= tolerance)) { /* NaN fails too */
        snprintf(msg, sizeof msg, "the CSV says %.*f (%s: %s = %g)", decimals + 2, scaled,
                 csv_path, column, value);
        return fail(md, line, text, msg);
    }
}

/* A relative link must lead to a file of the repository (a page, a result, a source file). */
static void check_target(const char *md, int line, const char *dir, const char *start,
                         const char *end)
{
    char target[4096], path[8192];
    snprintf(target, sizeof target, "%.*s", (int)(end - start), start);
    char *cut = strpbrk(target, " #");
    if (cut)
        *cut = '\0';
    if (!target[0] || strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
        return;
    snprintf(path, sizeof path, "%s%s", dir, target);
    FILE *f = fopen(path, "r");
    if (f) {
        fclose(f);
        return;
    }
    fail(md, line, target, "the link leads to no file of the repository");
}

/* Paths that lead out of the repository, which a reader of the docs does not have. */
static const char *const outside[] = {"shared/reference", "../shared", "/work/", "the issue's"};

static void check_markdown(const char *md)
{
    char *text = read_file(md);
    if (!text) {
        fprintf(stderr, "error: cannot read %s\n", md);
        exit(2);
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", md);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';

    int line = 1;
    for (char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        for (size_t k = 0; k < sizeof outside / sizeof outside[0]; k++)
            if (strncmp(p, outside[k], strlen(outside[k])) == 0)
                fail(md, line, outside[k], "the docs must speak of the repository alone");
        if (*p == '`') { /* code is not a link: skip to the closing backtick */
            char *close = strchr(p + 1, '`');
            if (close) {
                for (char *q = p + 1; q < close; q++)
                    line += *q == '\n';
                p = close;
            }
            continue;
        }
        /* [text](path.csv "title") */
        if (*p != '[')
            continue;
        char *close = strchr(p, ']');
        if (!close || close[1] != '(')
            continue;
        char *paren = close + 2;
        char *end = strchr(paren, ')');
        char *space = strchr(paren, ' ');
        if (!end)
            continue;
        if (!space || space > end) {
            check_target(md, line, dir, paren, end);
            continue;
        }
        if (space - paren < 4 || strncmp(space - 4, ".csv", 4) != 0) {
            check_target(md, line, dir, paren, end);
            continue;
        }
        char *q1 = strchr(space, '"');
        char *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
        if (!q1 || !q2 || q2 > end)
            continue;
        char link_text[512], path[4096], title[1024];
        snprintf(link_text, sizeof link_text, "%.*s", (int)(close - p - 1), p + 1);
        snprintf(path, sizeof path, "%s%.*s", dir, (int)(space - paren), paren);
        snprintf(title, sizeof title, "%.*s", (int)(q2 - q1 - 1), q1 + 1);
        check_link(md, line, link_text, path, title);
    }
    free(text);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: docs_check FILE.md...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++)
        check_markdown(argv[i]);
    printf("%d numbers checked against their CSV files, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
