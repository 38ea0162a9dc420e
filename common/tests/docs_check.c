/* docs_check: every measured number the docs quote must be in a committed CSV, and every lesson
 * page within its budget.
 *
 *   docs_check [--budget | --no-budget] README.md docs/*.md
 *
 * A measured number is written as a Markdown link to the CSV that holds it, with the row and the
 * column in the link's title, in double quotes (it may hold parentheses; a title in other quotes
 * fails, as its number would go unchecked):
 *
 *   [4090 GB/s](results/01_vecadd/bandwidth.csv "kernel=float4, n=268435456: GBps")
 *
 * The rows whose cells equal every key=value (numerically where both are numbers) must be exactly
 * one; its column, scaled by an optional "*100" or "/1000" after the column name, must equal the
 * first number of the link text within the rounding shown (97.1 means 97.05 to 97.15). Paths are
 * relative to the Markdown file, as on any Markdown viewer. The docs must also speak of the
 * repository alone: no paths outside it; a relative link must lead to a file of it, and a link to
 * page.md#anchor to one of that page's headings.
 *
 * The pages' rules (docs/README.md, "Conventions"; each failure prints file:line and the fix):
 *  - labels: no internal label in any file given: "seed 001", "(000", "001)", "the 001
 *    document", a 16-hex-digit file hash, "the lead", "issue 22", or "session" naming a run of
 *    the authors ("this session's", "an earlier session", ...; a user's session is not one);
 *  - the budget of a lesson page (00_basics.md, 0N_<chapter>.md, 05_matmul_2.md, ...: a file
 *    named NN_<name>.md that is not an _appendix or _exercises page): at most 1,800 words and at
 *    most 8 numbers linked to CSV files. The words are the plain count: everything outside ```
 *    fences (a fence opens and closes at a line whose first non-blank characters are ```),
 *    tables, headings, inline code and the text of links included, a link's address and title
 *    not (a word: a run of non-blank characters holding a letter or digit; "[text](address)" is
 *    read as "[text]"). The numbers are the links this check verifies against their CSV (a
 *    ".csv" address with a title), not plain links to a CSV file. Every run prints a table of
 *    each lesson page's words and numbers, pass or fail;
 *  - lesson pages: `# title`, then `**Assumes:**`, then `**Sources:**` beginning the first three
 *    paragraphs; the last non-empty line exactly
 *    "Previous: [title](file) · Next: [title](file)", both files present; A's Next is B exactly
 *    when B's Previous is A; and where the README.md of the same folder is given, its numbered
 *    list of lesson pages is the order: the first page's Previous and the last one's Next are
 *    README.md, and every lesson page given is in that list (a page the list names may not exist
 *    yet: then its neighbours' links to it fail);
 *  - glossary: on every page of a folder holding glossary.md (but glossary.md itself), the first
 *    occurrence of a term (its `### heading` or a form of its `Forms:` line; case-insensitive,
 *    whole words, a space matching any run of blanks (a term may wrap), the longest form first
 *    ("default stream" is not a use of "stream", "dynamic shared memory" not one of "shared
 *    memory"), a hyphenated word is not its parts; not in code, headings or link addresses) must
 *    come at or after the page's first link to `glossary.md#<its anchor>`; a link to an anchor
 *    the glossary lacks fails;
 *  - taught before linked: a glossary entry names the page that teaches it with the first link
 *    after the words "Taught in" in its text ("Taught in [chapter 06](06_streams.md)", an
 *    #anchor allowed, an _appendix or _exercises page standing for its lesson page). A lesson
 *    page of the reading order (the numbered list of the README.md given, as above) that links
 *    `glossary.md#<anchor>` of a term taught by a page later in that order fails. An entry
 *    without "Taught in", or naming a page outside the order, is not checked.
 *
 * --budget checks the budget alone (and prints the table); --no-budget every rule but the budget
 * (the table is printed all the same, pages over it marked). ctest runs the two as
 * docs.lesson_budget and docs.numbers_match_results; `ctest -R docs.lesson_budget -V` shows the
 * table. --count prints the words and numbers of every page given, checking nothing (in the
 * format of tools/page_budget.py, which counts the same way and is tested to agree). Exit 0 if
 * every check holds, 1 if one fails, 2 for bad usage or unreadable files. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINE 8192
#define MAX_CELLS 64

static int checked = 0, failed = 0;

/* Which rules run: all of them, the budget of the lesson pages alone (--budget), or all but it
 * (--no-budget). */
enum rules { RULES_ALL, RULES_BUDGET, RULES_NO_BUDGET };
static enum rules rules = RULES_ALL;
static int page_numbers = 0; /* numbers linked to CSV files on the page check_markdown read */

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
static int has_heading(const char *page, const char *anchor);
static int ends_with(const char *s, const char *tail);

/* A relative link must lead to a file of the repository (a page, a result, a source file), and
 * a link to a page's #anchor to one of its headings. */
static void check_target(const char *md, int line, const char *dir, const char *start,
                         const char *end)
{
    char target[4096], path[8192], anchor[512] = "";
    snprintf(target, sizeof target, "%.*s", (int)(end - start), start);
    char *cut = strpbrk(target, " #");
    if (cut && *cut == '#')
        sscanf(cut + 1, "%511[^ ]", anchor);
    if (cut)
        *cut = '\0';
    if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
        return;
    if (!target[0]) { /* #anchor of this page */
        if (anchor[0] && !has_heading(md, anchor))
            fail(md, line, anchor, "this page has no heading of that anchor");
        return;
    }
    snprintf(path, sizeof path, "%s%s", dir, target);
    FILE *f = fopen(path, "r");
    if (!f)
        return fail(md, line, target, "the link leads to no file of the repository");
    fclose(f);
    if (anchor[0] && ends_with(target, ".md") && !has_heading(path, anchor)) {
        char what[4700];
        snprintf(what, sizeof what, "%s#%s", target, anchor);
        fail(md, line, what, "that page has no heading of this anchor (GitHub's slug of it)");
    }
}

/* Paths that lead out of the repository, which a reader of the docs does not have. */
static const char *const outside[] = {"shared/reference", "../shared", "/work/", "the issue's"};

/* The ')' that ends the link whose address starts at `paren` (just after "]("), NULL if none:
 * the first ')' after the address, or, when a quoted title follows the address, the first one
 * after the title's closing quote (a title may hold parentheses: "... (best chunk): ratio"). */
static const char *link_end(const char *paren)
{
    const char *end = strchr(paren, ')');
    const char *space = strchr(paren, ' ');
    if (!end || !space || space > end)
        return end;
    const char *q1 = space;
    while (*q1 == ' ')
        q1++;
    const char *q2 = *q1 == '"' ? strchr(q1 + 1, '"') : NULL;
    const char *after = q2 ? strchr(q2 + 1, ')') : NULL;
    return after ? after : end;
}

/* Reads a page's links: counts its numbers linked to CSV files (page_numbers) and, when `verify`,
 * checks each against its CSV, and every other link and path. */
static void check_markdown(const char *md, int verify)
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
    page_numbers = 0;
    for (char *p = text; *p; p++) {
        if (*p == '\n')
            line++;
        for (size_t k = 0; verify && k < sizeof outside / sizeof outside[0]; k++)
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
        char *inner = memchr(p + 1, '[', (size_t)(close - p - 1));
        if (inner) /* "[0, 1) ... [text](...)": the link starts at the last '[' */
            continue;
        char *paren = close + 2;
        char *end = (char *)link_end(paren);
        char *space = strchr(paren, ' ');
        if (!end)
            continue;
        if (!space || space > end || space - paren < 4 || strncmp(space - 4, ".csv", 4) != 0) {
            if (verify)
                check_target(md, line, dir, paren, end);
            continue;
        }
        char *q1 = strchr(space, '"');
        char *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
        if (!q1 || !q2 || q2 > end) {
            /* A title the check cannot read ('single quotes', (parentheses)): the number would
             * go unchecked. */
            if (verify) {
                char link_text[512];
                snprintf(link_text, sizeof link_text, "%.*s", (int)(close - p - 1), p + 1);
                fail(md, line, link_text, "a link to a CSV file with a title: write the title "
                     "in double quotes, \"column=value: column\", so that the number is checked");
            }
            continue;
        }
        page_numbers++;
        if (!verify)
            continue;
        char link_text[512], path[4096], title[1024];
        snprintf(link_text, sizeof link_text, "%.*s", (int)(close - p - 1), p + 1);
        snprintf(path, sizeof path, "%s%.*s", dir, (int)(space - paren), paren);
        snprintf(title, sizeof title, "%.*s", (int)(q2 - q1 - 1), q1 + 1);
        check_link(md, line, link_text, path, title);
    }
    free(text);
}

/* ---------------------------------------------------------------------------------------------
 * The pages' rules: labels, lesson pages (words, header, prev/next chain), glossary links. */

#define MAX_PAGES 128
#define MAX_TERMS 128
#define MAX_FORMS 512
#define WORD_LIMIT 1800  /* words of a lesson page, by the plain count (count_words) */
#define NUMBER_LIMIT 8   /* numbers linked to CSV files on a lesson page */

struct page {
    char dir[4096], base[256], prev[256], next[256];
    int lesson, nav_line;
};
static struct page pages[MAX_PAGES];
static int npages = 0; /* lesson pages whose Previous/Next line was read */
struct budget_row {
    char path[4096];
    int words, numbers;
};
static struct budget_row budget[MAX_PAGES]; /* every lesson page given, for the table */
static int nbudget = 0;
static char readmes[MAX_PAGES][4096]; /* README.md files given, for the reading order */
static int nreadmes = 0;

struct form {
    char text[128];
    int term;
};
static char term_anchor[MAX_TERMS][128];
static char term_taught[MAX_TERMS][256]; /* the lesson page that teaches it, "" if none named */
static struct form forms[MAX_FORMS];
static int nterms = 0, nforms = 0;
static char glossary_dir[4096] = "";
static int glossary_loaded = 0;

static void fail_at(const char *md, int line, const char *msg)
{
    printf("%s:%d: %s\n", md, line, msg);
    failed++;
}

static int line_of(const char *text, const char *at)
{
    int line = 1;
    for (const char *p = text; p < at; p++)
        line += *p == '\n';
    return line;
}

/* strncasecmp is POSIX, not C11. */
static int prefix_nocase(const char *s, const char *prefix, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)s[i]) != tolower((unsigned char)prefix[i]) || !s[i])
            return 1;
    return 0;
}

static int word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void split_path(const char *path, char *dir, size_t dir_size, char *base, size_t base_size)
{
    const char *slash = strrchr(path, '/');
    if (slash) {
        snprintf(dir, dir_size, "%.*s", (int)(slash - path + 1), path);
        snprintf(base, base_size, "%s", slash + 1);
    } else {
        snprintf(dir, dir_size, "%s", "");
        snprintf(base, base_size, "%s", path);
    }
}

static int ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), k = strlen(tail);
    return n >= k && strcmp(s + n - k, tail) == 0;
}

/* 00_basics.md, 01_vecadd.md, 05_matmul_2.md: NN_<name>.md, not an appendix or exercises page. */
static int is_lesson(const char *base)
{
    return isdigit((unsigned char)base[0]) && isdigit((unsigned char)base[1]) && base[2] == '_' &&
           ends_with(base, ".md") && !ends_with(base, "_appendix.md") &&
           !ends_with(base, "_exercises.md");
}

/* GitHub's anchor of a heading: lower case, spaces to '-', other punctuation dropped. */
static void slug(const char *heading, char *out, size_t size)
{
    size_t n = 0;
    for (const char *p = heading; *p && n + 1 < size; p++) {
        if (*p == ' ')
            out[n++] = '-';
        else if (word_char(*p) || *p == '-' || (unsigned char)*p >= 0x80)
            out[n++] = (char)tolower((unsigned char)*p);
    }
    out[n] = '\0';
}

/* Whether a Markdown page has a heading (outside ``` fences) whose anchor is `anchor`. */
static int has_heading(const char *page, const char *anchor)
{
    char *text = read_file(page);
    if (!text)
        return 0;
    int found = 0, fence = 0;
    for (char *line = text, *eol; line && *line && !found; line = eol ? eol + 1 : NULL) {
        eol = strchr(line, '\n');
        if (eol)
            *eol = '\0';
        if (strncmp(line, "```", 3) == 0)
            fence = !fence;
        if (fence || line[0] != '#')
            continue;
        char heading[1024], id[1024];
        snprintf(heading, sizeof heading, "%s", line + strspn(line, "#"));
        slug(trim(heading), id, sizeof id);
        found = strcmp(id, anchor) == 0;
    }
    free(text);
    return found;
}

static void add_form(const char *text, int term)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    char *t = trim(buf);
    if (!*t || nforms >= MAX_FORMS)
        return;
    snprintf(forms[nforms].text, sizeof forms[nforms].text, "%s", t);
    forms[nforms++].term = term;
}

static int longer_first(const void *a, const void *b)
{
    return (int)strlen(((const struct form *)b)->text) -
           (int)strlen(((const struct form *)a)->text);
}

/* An _appendix or _exercises page stands for its lesson page: 05_matmul_appendix.md is read
 * with 05_matmul.md. */
static void lesson_of(char *base)
{
    const char *tails[2] = {"_appendix.md", "_exercises.md"};
    for (int k = 0; k < 2; k++)
        if (ends_with(base, tails[k]))
            strcpy(base + strlen(base) - strlen(tails[k]), ".md");
}

/* The page an entry names after "Taught in" (the entry: from its ### line to the next one):
 * the first link's file, without its #anchor; "" if the entry names none. */
static void taught_in(const char *entry, char *out)
{
    out[0] = '\0';
    const char *end = strstr(entry + 4, "\n### ");
    if (!end)
        end = entry + strlen(entry);
    const char *t = strstr(entry, "Taught in");
    if (!t || t > end)
        return;
    const char *l = strstr(t, "](");
    if (!l || l > end)
        return;
    size_t k = 0;
    for (const char *p = l + 2; *p && *p != ')' && *p != '#' && *p != ' ' && k < 255; p++)
        out[k++] = *p;
    out[k] = '\0';
    if (strncmp(out, "./", 2) == 0)
        memmove(out, out + 2, strlen(out) - 1);
    lesson_of(out);
}

/* Reads dir/glossary.md once per folder; returns 0 if the folder has none. */
static int load_glossary(const char *dir)
{
    if (glossary_loaded && strcmp(dir, glossary_dir) == 0)
        return nterms > 0;
    glossary_loaded = 1;
    snprintf(glossary_dir, sizeof glossary_dir, "%s", dir);
    nterms = nforms = 0;
    char path[8192];
    snprintf(path, sizeof path, "%sglossary.md", dir);
    char *text = read_file(path);
    if (!text)
        return 0;
    char *whole = malloc(strlen(text) + 1);
    if (!whole) {
        free(text);
        return 0;
    }
    memcpy(whole, text, strlen(text) + 1);
    int fence = 0;
    for (char *line = text, *eol; line && *line; line = eol ? eol + 1 : NULL) {
        eol = strchr(line, '\n');
        if (eol)
            *eol = '\0';
        if (strncmp(line, "```", 3) == 0)
            fence = !fence;
        if (fence)
            continue;
        if (strncmp(line, "### ", 4) == 0 && nterms < MAX_TERMS) {
            char *heading = trim(line + 4);
            slug(heading, term_anchor[nterms], sizeof term_anchor[nterms]);
            taught_in(whole + (line - text), term_taught[nterms]);
            add_form(heading, nterms++);
        } else if (strncmp(line, "Forms:", 6) == 0 && nterms > 0) {
            for (char *f = line + 6, *comma; f; f = comma ? comma + 1 : NULL) {
                comma = strchr(f, ',');
                if (comma)
                    *comma = '\0';
                add_form(f, nterms - 1);
            }
        }
    }
    free(text);
    free(whole);
    qsort(forms, (size_t)nforms, sizeof forms[0], longer_first);
    return nterms > 0;
}

struct glossary_link {
    size_t at;
    char anchor[128];
};

/* Blanks (to spaces, keeping newlines) what no rule reads: ``` fences, and link addresses
 * always; inline code, headings and bare URLs too when `prose_only`. Records the links to
 * glossary.md#anchor (the position of their '['). */
static char *masked(const char *text, int prose_only, struct glossary_link *links, int *nlinks)
{
    const size_t n = strlen(text);
    char *m = malloc(n + 1);
    memcpy(m, text, n + 1);
    int fence = 0;
    size_t open = (size_t)-1;
    if (nlinks)
        *nlinks = 0;
    for (size_t i = 0; i < n; i++) {
        const int line_start = i == 0 || text[i - 1] == '\n';
        if (line_start) {
            size_t j = i;
            while (j < n && j < i + 3 && text[j] == ' ')
                j++;
            const int is_fence = strncmp(text + j, "```", 3) == 0;
            if (is_fence || fence || (prose_only && text[j] == '#')) {
                if (is_fence)
                    fence = !fence;
                while (i < n && text[i] != '\n')
                    m[i++] = ' ';
                continue;
            }
        }
        if (text[i] == '`' && prose_only) {
            const char *close = strchr(text + i + 1, '`');
            if (close) {
                for (; text + i <= close; i++)
                    if (text[i] != '\n')
                        m[i] = ' ';
                i--;
            }
            continue;
        }
        if (text[i] == '[')
            open = i;
        if (text[i] == ']' && text[i + 1] == '(') {
            size_t j = i + 2;
            int depth = 1;
            while (j < n && depth > 0 && text[j] != '\n') {
                depth += (text[j] == '(') - (text[j] == ')');
                j++;
            }
            const char *hash = memchr(text + i + 2, '#', j - i - 2);
            if (links && open != (size_t)-1 && hash && hash - text >= 11 &&
                strncmp(hash - 11, "glossary.md", 11) == 0 && *nlinks < 256) {
                size_t k = 0;
                for (const char *a = hash + 1; word_char(*a) || *a == '-'; a++)
                    if (k + 1 < sizeof links[0].anchor)
                        links[*nlinks].anchor[k++] = *a;
                links[*nlinks].anchor[k] = '\0';
                links[(*nlinks)++].at = open;
            }
            for (size_t k = i + 1; k < j; k++)
                m[k] = ' ';
            i = j - 1;
            open = (size_t)-1;
            continue;
        }
        if (prose_only && (strncmp(text + i, "http://", 7) == 0 ||
                           strncmp(text + i, "https://", 8) == 0)) {
            while (i < n && !isspace((unsigned char)text[i]))
                m[i++] = ' ';
            i--;
        }
    }
    return m;
}

/* Matches `form` at p: case-insensitive, a space in the form matches any run of blanks (the
 * line may wrap inside a term); returns the length matched in the text, 0 if none. */
static size_t match_form(const char *p, const char *form)
{
    const char *q = p;
    for (const char *f = form; *f; f++) {
        if (*f == ' ') {
            if (!isspace((unsigned char)*q))
                return 0;
            while (isspace((unsigned char)*q))
                q++;
        } else if (tolower((unsigned char)*q) == tolower((unsigned char)*f)) {
            q++;
        } else {
            return 0;
        }
    }
    return word_char(*q) || *q == '-' ? 0 : (size_t)(q - p);
}

static void check_glossary_links(const char *md, const char *text)
{
    static struct glossary_link links[256];
    int nlinks;
    char *m = masked(text, 1, links, &nlinks);
    size_t first_link[MAX_TERMS], first_use[MAX_TERMS];
    size_t use_len[MAX_TERMS];
    for (int t = 0; t < nterms; t++)
        first_link[t] = first_use[t] = (size_t)-1;
    char msg[1024];
    for (int l = 0; l < nlinks; l++) {
        int t = 0;
        while (t < nterms && strcmp(term_anchor[t], links[l].anchor) != 0)
            t++;
        if (t == nterms) {
            snprintf(msg, sizeof msg, "glossary.md has no entry #%s: link one of its ### headings",
                     links[l].anchor);
            fail_at(md, line_of(text, text + links[l].at), msg);
        } else if (links[l].at < first_link[t]) {
            first_link[t] = links[l].at;
        }
    }
    for (size_t i = 0; m[i]; i++) {
        if (i > 0 && (word_char(m[i - 1]) || m[i - 1] == '-')) /* "multi-stream" is no stream */
            continue;
        for (int f = 0; f < nforms; f++) {
            const size_t len = match_form(m + i, forms[f].text);
            if (!len)
                continue;
            const int t = forms[f].term;
            if (first_use[t] == (size_t)-1) {
                first_use[t] = i;
                use_len[t] = len;
            }
            i += len - 1;
            break;
        }
    }
    for (int t = 0; t < nterms; t++) {
        if (first_use[t] == (size_t)-1 || first_link[t] <= first_use[t])
            continue;
        char use[256]; /* the words as written, a line break inside read as one space */
        size_t k = 0;
        for (size_t c = 0; c < use_len[t] && k + 1 < sizeof use; c++) {
            const char ch = text[first_use[t] + c];
            if (!isspace((unsigned char)ch))
                use[k++] = ch;
            else if (k > 0 && use[k - 1] != ' ')
                use[k++] = ' ';
        }
        use[k] = '\0';
        snprintf(msg, sizeof msg,
                 "the first use of the glossary term \"%s\" is not linked: write "
                 "[%s](glossary.md#%s) here, or link the term earlier",
                 use, use, term_anchor[t]);
        fail_at(md, line_of(text, text + first_use[t]), msg);
    }
    free(m);
}

/* Internal labels: the names the authors used among themselves, which a reader cannot follow. */
static void check_labels(const char *md, const char *text)
{
    static const char *const runs[] = {"this session's", "earlier session", "later session",
                                       "session's run", "lead's session", "helper session"};
    char *m = masked(text, 0, NULL, NULL);
    for (size_t i = 0; m[i]; i++) {
        const char prev = i > 0 ? m[i - 1] : ' ';
        const char *p = m + i, *label = NULL;
        /* A 16-hex-digit file hash ("003_6aba1fc19fb61a72.txt": after an underscore too). */
        size_t k = 0;
        while (isdigit((unsigned char)p[k]) || (p[k] >= 'a' && p[k] <= 'f'))
            k++;
        if (k == 16 && !word_char(p[16]) && !isalnum((unsigned char)prev))
            label = "a file hash: name the document by its short name";
        if (word_char(prev) && !label)
            continue;
        /* 000 to 009 standing alone: "seed 001", "(000, 001)", "the 001 document". */
        if (p[0] == '0' && p[1] == '0' && isdigit((unsigned char)p[2]) && !word_char(p[3]) &&
            !(p[3] == '.' && isdigit((unsigned char)p[4])) && prev != '.' && prev != ',' &&
            prev != '-')
            label = "a source document's number (seed 00N, (000, 001)): name it by its short "
                    "name (docs/README.md, \"Sources\")";
        if (prefix_nocase(p, "the lead", 8) == 0 && !isalpha((unsigned char)p[8]))
            label = "\"the lead\": say what was run and where (\"the H100 run of <date>\")";
        size_t w = prefix_nocase(p, "issues ", 7) == 0 ? 7 : prefix_nocase(p, "issue ", 6) == 0 ? 6 : 0;
        if (w && p[w] == '#')
            w++;
        if (w && p[w] == '2' && isdigit((unsigned char)p[w + 1]) && !word_char(p[w + 2]))
            label = "an issue number: say what the change is, not where it was asked for";
        for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++)
            if (prefix_nocase(p, runs[r], strlen(runs[r])) == 0 && !word_char(p[strlen(runs[r])]))
                label = "\"session\" naming a run of the authors: say \"the H100 run of <date>\"";
        if (label) {
            size_t len = 0; /* the label as written: up to the end of its word group */
            while (p[len] && p[len] != '\n' && len < 24 && !(len >= 3 && !word_char(p[len]) &&
                                                             !word_char(p[len - 1])))
                len++;
            char msg[512];
            snprintf(msg, sizeof msg, "internal label \"%.*s\": %s", (int)len, text + i, label);
            fail_at(md, line_of(text, text + i), msg);
        }
    }
    free(m);
}

/* The length of the blank at p (0 if none): what Python's str.split() splits at, so that the
 * count is the one any plain script gets: ASCII blanks, the separators \x1c-\x1f, and the
 * Unicode spaces in UTF-8 (no-break space, the en to hair spaces, the line and paragraph
 * separators, narrow no-break, medium mathematical and ideographic space, U+0085, U+1680). */
static int blank_at(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    if (*u == ' ' || (*u >= '\t' && *u <= '\r') || (*u >= 0x1c && *u <= 0x1f))
        return 1;
    if (u[0] == 0xC2 && (u[1] == 0x85 || u[1] == 0xA0))
        return 2;
    if (u[0] == 0xE1 && u[1] == 0x9A && u[2] == 0x80)
        return 3;
    if (u[0] == 0xE2 && u[1] == 0x80 && (u[2] <= 0x8A || u[2] == 0xA8 || u[2] == 0xA9 ||
                                         u[2] == 0xAF) && u[2] >= 0x80)
        return 3;
    if ((u[0] == 0xE2 && u[1] == 0x81 && u[2] == 0x9F) ||
        (u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80))
        return 3;
    return 0;
}

/* The plain word count of a page: everything outside ``` fences (a line whose first non-blank
 * characters are ``` opens or closes one, and is not counted), tables, headings, inline code and
 * link text included; "[text](address "title")" is read as "[text]" (the address and title are
 * no words, a title may hold ')'; the text after the ')' joins the ']', as "[GB/s](x)." reads
 * "[GB/s]."; inside inline code nothing is a link). A word: a run of non-blanks holding an ASCII
 * letter or digit. */
static int count_words(const char *text)
{
    const size_t n = strlen(text);
    char *prose = malloc(n + 2);
    if (!prose)
        return -1;
    size_t k = 0;
    int fence = 0;
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\r\n"); /* \r\n, \r and \n each end a line */
        const char *q = line;
        for (int b; q < line + len && (b = blank_at(q)) > 0;)
            q += b;
        const int is_fence = strncmp(q, "```", 3) == 0 && q + 3 <= line + len;
        if (is_fence)
            fence = !fence;
        else if (!fence) {
            memcpy(prose + k, line, len);
            k += len;
        }
        prose[k++] = '\n';
        line += len;
        line += line[0] == '\r' && line[1] == '\n' ? 2 : line[0] ? 1 : 0;
    }
    prose[k] = '\0';
    /* "](address "title")" becomes "]" (link_end: across lines too); inline code, from one
     * backtick to the next, is kept whole: Numba's `f[blocks, threads](a, b)` is no link. */
    size_t w = 0;
    for (size_t r = 0; r < k; r++) {
        prose[w++] = prose[r];
        if (prose[r] == '`') {
            const char *tick = strchr(prose + r + 1, '`');
            if (tick) {
                const size_t to = (size_t)(tick - prose);
                memmove(prose + w, prose + r + 1, to - r);
                w += to - r;
                r = to;
            }
        } else if (prose[r] == ']' && prose[r + 1] == '(') {
            const char *close = link_end(prose + r + 2);
            if (close)
                r = (size_t)(close - prose);
        }
    }
    prose[w] = '\0';
    int words = 0;
    for (const char *p = prose; *p;) {
        for (int b; (b = blank_at(p)) > 0;)
            p += b;
        int has_alnum = 0;
        while (*p && !blank_at(p)) {
            has_alnum |= (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                         (*p >= '0' && *p <= '9');
            p++;
        }
        words += has_alnum;
    }
    free(prose);
    return words;
}

/* Parses "Previous: [title](file) · Next: [title](file)"; returns 1 and the files if it is one. */
static int parse_nav(const char *line, char *prev, char *next)
{
    const char *p = line;
    char *files[2] = {prev, next};
    const char *lead[2] = {"Previous: [", " \xC2\xB7 Next: ["};
    for (int k = 0; k < 2; k++) {
        if (strncmp(p, lead[k], strlen(lead[k])) != 0)
            return 0;
        const char *close = strstr(p, "](");
        if (!close || close == p + strlen(lead[k]))
            return 0;
        const char *end = strchr(close + 2, ')');
        if (!end || end == close + 2 || end - close - 2 >= 255)
            return 0;
        snprintf(files[k], 256, "%.*s", (int)(end - close - 2), close + 2);
        if (strpbrk(files[k], " \"#"))
            return 0;
        p = end + 1;
    }
    return *p == '\0';
}

/* The budget of a lesson page: its words and its numbers linked to CSV files (page_numbers,
 * from check_markdown), a row of the table; over either limit fails unless --no-budget. */
static void check_budget(const char *md, const char *text)
{
    char msg[1024];
    const int words = count_words(text);
    if (nbudget < MAX_PAGES) {
        struct budget_row *row = &budget[nbudget++];
        snprintf(row->path, sizeof row->path, "%s", md);
        row->words = words;
        row->numbers = page_numbers;
    }
    if (rules == RULES_NO_BUDGET)
        return;
    if (words > WORD_LIMIT) {
        snprintf(msg, sizeof msg, "%d words outside code fences (at most %d): keep the lesson's "
                 "one track; move studies, tables and inventories to the appendix page", words,
                 WORD_LIMIT);
        fail_at(md, 1, msg);
    }
    if (page_numbers > NUMBER_LIMIT) {
        snprintf(msg, sizeof msg, "%d numbers linked to CSV files (at most %d): keep the "
                 "lesson's one measurement; move the others to the appendix or a results page",
                 page_numbers, NUMBER_LIMIT);
        fail_at(md, 1, msg);
    }
}

/* Prints every lesson page's words and numbers, pass or fail. */
static void print_budget(void)
{
    if (nbudget == 0)
        return;
    int over_words = 0, over_numbers = 0;
    printf("Lesson pages: words outside code fences (at most %d), numbers linked to CSV files "
           "(at most %d)\n  words  numbers  page\n", WORD_LIMIT, NUMBER_LIMIT);
    for (int i = 0; i < nbudget; i++) {
        const struct budget_row *r = &budget[i];
        over_words += r->words > WORD_LIMIT;
        over_numbers += r->numbers > NUMBER_LIMIT;
        const int w = r->words > WORD_LIMIT, k = r->numbers > NUMBER_LIMIT;
        printf("  %5d  %7d  %s%s\n", r->words, r->numbers, r->path,
               w && k ? "  OVER: words, numbers" : w ? "  OVER: words" : k ? "  OVER: numbers" : "");
    }
    printf("%d lesson pages: %d over %d words, %d over %d numbers\n", nbudget, over_words,
           WORD_LIMIT, over_numbers, NUMBER_LIMIT);
}

static void check_lesson(const char *md, const char *text, struct page *pg)
{
    char msg[1024];
    /* The first three non-empty lines, and the last one. */
    const char *want[3] = {"# ", "**Assumes:**", "**Sources:**"};
    const char *what[3] = {"a `# title`", "a line `**Assumes:** ...` (what the reader must know, "
                           "with links to the pages that teach it)",
                           "a line `**Sources:** ...` (the documents the page ports)"};
    int seen = 0, line = 0, last_line = 0; /* seen: paragraphs of the header found */
    const char *last = NULL;
    for (const char *p = text; *p;) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        line++;
        const char *q = p;
        while (q < eol && isspace((unsigned char)*q))
            q++;
        const int paragraph_start = !last || last_line < line - 1;
        if (q < eol) {
            if (seen < 3 && paragraph_start) {
                if (strncmp(q, want[seen], strlen(want[seen])) != 0) {
                    snprintf(msg, sizeof msg, "paragraph %d of a lesson page must be %s",
                             seen + 1, what[seen]);
                    fail_at(md, line, msg);
                    seen = 3;
                } else {
                    seen++;
                }
            }
            last = p;
            last_line = line;
        }
        p = *eol ? eol + 1 : eol;
    }
    char nav[1024] = "";
    if (last) {
        const char *eol = strchr(last, '\n');
        snprintf(nav, sizeof nav, "%.*s", (int)(eol ? eol - last : (long)strlen(last)), last);
        const char *t = trim(nav);
        memmove(nav, t, strlen(t) + 1);
    }
    if (!parse_nav(nav, pg->prev, pg->next)) {
        fail_at(md, last_line, "the last non-empty line must be exactly \"Previous: [title](file)"
                               " \xC2\xB7 Next: [title](file)\" (a middle dot between)");
        return;
    }
    pg->nav_line = last_line;
    char *files[2] = {pg->prev, pg->next};
    for (int k = 0; k < 2; k++) {
        char path[8192];
        snprintf(path, sizeof path, "%s%s", pg->dir, files[k]);
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
        } else {
            snprintf(msg, sizeof msg, "%s links to %s, which does not exist: link a page of the "
                     "reading order", k ? "Next" : "Previous", files[k]);
            fail_at(md, last_line, msg);
        }
        if (strncmp(files[k], "./", 2) == 0)
            memmove(files[k], files[k] + 2, strlen(files[k]) - 1);
    }
    npages++;
}

static void check_page_rules(const char *md)
{
    char *text = read_file(md);
    if (!text)
        return;
    struct page pg = {0};
    split_path(md, pg.dir, sizeof pg.dir, pg.base, sizeof pg.base);
    if (is_lesson(pg.base))
        check_budget(md, text);
    if (rules == RULES_BUDGET) {
        free(text);
        return;
    }
    check_labels(md, text);
    int known = 0;
    for (int r = 0; r < nreadmes; r++)
        known |= strcmp(readmes[r], md) == 0;
    if (strcmp(pg.base, "README.md") == 0 && !known && nreadmes < MAX_PAGES)
        snprintf(readmes[nreadmes++], sizeof readmes[0], "%s", md);
    if (is_lesson(pg.base)) {
        pg.lesson = 1;
        const int before = npages;
        check_lesson(md, text, &pg);
        if (npages > before && npages <= MAX_PAGES)
            pages[npages - 1] = pg;
    }
    if (strcmp(pg.base, "glossary.md") != 0 && load_glossary(pg.dir))
        check_glossary_links(md, text);
    free(text);
}

static struct page *find_page(const char *dir, const char *base)
{
    for (int i = 0; i < npages && i < MAX_PAGES; i++)
        if (strcmp(pages[i].dir, dir) == 0 && strcmp(pages[i].base, base) == 0)
            return &pages[i];
    return NULL;
}

/* The numbered list of README.md: its items' first links to lesson pages, in order. */
static int reading_order(const char *readme, char order[][256], int max)
{
    char *text = read_file(readme);
    if (!text)
        return 0;
    int n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *p = line;
        while (*p == ' ')
            p++;
        char *q = p;
        while (isdigit((unsigned char)*q))
            q++;
        if (q == p || q[0] != '.' || q[1] != ' ')
            continue;
        for (char *l = strstr(q, "]("); l && n < max; l = strstr(l + 2, "](")) {
            char target[256];
            size_t k = 0;
            for (char *t = l + 2; *t && *t != ')' && *t != ' ' && *t != '#' && k < 255; t++)
                target[k++] = *t;
            target[k] = '\0';
            if (is_lesson(target)) {
                int dup = 0;
                for (int i = 0; i < n; i++)
                    dup |= strcmp(order[i], target) == 0;
                if (!dup)
                    snprintf(order[n++], 256, "%s", target);
                break;
            }
        }
    }
    free(text);
    return n;
}

/* A lesson page at position k of the reading order links no term that a later page teaches. */
static void check_taught_order(const char *path, const char *dir, char order[][256], int n, int k)
{
    char *text = read_file(path);
    if (!text || !load_glossary(dir)) {
        free(text);
        return;
    }
    static struct glossary_link links[256];
    int nlinks;
    free(masked(text, 1, links, &nlinks));
    int reported[MAX_TERMS] = {0};
    char msg[1024];
    for (int l = 0; l < nlinks; l++) {
        int t = 0;
        while (t < nterms && strcmp(term_anchor[t], links[l].anchor) != 0)
            t++;
        if (t == nterms || reported[t] || !term_taught[t][0])
            continue;
        int j = 0;
        while (j < n && strcmp(order[j], term_taught[t]) != 0)
            j++;
        if (j == n || j <= k)
            continue;
        reported[t] = 1;
        snprintf(msg, sizeof msg, "glossary.md#%s is taught in %s, which comes after this page in "
                 "the reading order: teach the term here (and say so in its \"Taught in\" link), "
                 "or do not use it yet", term_anchor[t], term_taught[t]);
        fail_at(path, line_of(text, text + links[l].at), msg);
    }
    free(text);
}

static void check_chain(void)
{
    char msg[1024], path[8192];
    for (int i = 0; i < npages && i < MAX_PAGES; i++) {
        const struct page *a = &pages[i];
        snprintf(path, sizeof path, "%s%s", a->dir, a->base);
        const struct page *b = find_page(a->dir, a->next);
        if (b && strcmp(b->prev, a->base) != 0) {
            snprintf(msg, sizeof msg, "Next is %s, but %s's Previous is %s: make them agree",
                     a->next, a->next, b->prev);
            fail_at(path, a->nav_line, msg);
        }
    }
    for (int r = 0; r < nreadmes; r++) {
        char dir[4096], base[256], order[64][256];
        split_path(readmes[r], dir, sizeof dir, base, sizeof base);
        const int n = reading_order(readmes[r], order, 64);
        if (n == 0)
            continue;
        for (int i = 0; i < npages && i < MAX_PAGES; i++) {
            const struct page *pg = &pages[i];
            if (strcmp(pg->dir, dir) != 0)
                continue;
            snprintf(path, sizeof path, "%s%s", pg->dir, pg->base);
            int k = 0;
            while (k < n && strcmp(order[k], pg->base) != 0)
                k++;
            if (k == n) {
                snprintf(msg, sizeof msg, "this lesson page is not in the reading order (the "
                         "numbered list of %s): add it there", readmes[r]);
                fail_at(path, pg->nav_line, msg);
                continue;
            }
            check_taught_order(path, pg->dir, order, n, k);
            const char *want_prev = k == 0 ? "README.md" : order[k - 1];
            const char *want_next = k == n - 1 ? "README.md" : order[k + 1];
            if (strcmp(pg->prev, want_prev) != 0 || strcmp(pg->next, want_next) != 0) {
                snprintf(msg, sizeof msg, "Previous/Next are %s/%s, the reading order of %s "
                         "says %s/%s", pg->prev, pg->next, readmes[r], want_prev, want_next);
                fail_at(path, pg->nav_line, msg);
            }
        }
    }
}


int main(int argc, char **argv)
{
    int first = 1;
    if (argc > 2 && strcmp(argv[1], "--count") == 0) {
        for (int i = 2; i < argc; i++) { /* the plain count of any page, lesson or not */
            char *text = read_file(argv[i]);
            if (!text) {
                fprintf(stderr, "error: cannot read %s\n", argv[i]);
                return 2;
            }
            check_markdown(argv[i], 0);
            printf("%5d words  %3d CSV-linked numbers  %s\n", count_words(text), page_numbers,
                   argv[i]);
            free(text);
        }
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--budget") == 0)
        rules = RULES_BUDGET, first = 2;
    else if (argc > 1 && strcmp(argv[1], "--no-budget") == 0)
        rules = RULES_NO_BUDGET, first = 2;
    if (argc <= first || argv[first][0] == '-') {
        fprintf(stderr, "usage: docs_check [--budget | --no-budget | --count] FILE.md...\n");
        return 2;
    }
    for (int i = first; i < argc; i++) {
        check_markdown(argv[i], rules != RULES_BUDGET);
        check_page_rules(argv[i]);
    }
    if (rules != RULES_BUDGET)
        check_chain();
    print_budget();
    if (rules == RULES_BUDGET) {
        printf("%d pages checked for the lesson budget, %d failed\n", argc - first, failed);
        return failed ? 1 : 0;
    }
    printf("%d pages checked (%d lesson pages with a Previous/Next line)\n", argc - first, npages);
    printf("%d numbers checked against their CSV files, %d failed\n", checked, failed);
    return failed ? 1 : 0;
}
