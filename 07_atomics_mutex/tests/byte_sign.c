/* A byte read as a signed char, read from cuobjdump's SASS listing (byte_sign.h). */
#include "byte_sign.h"
#include "own_sass.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char opcode[64];
    char operands[160];
    char text[256]; /* address and instruction, for messages */
} sass_line;

typedef struct {
    sass_line *lines;
    int count, capacity;
    const char *name; /* the functions checked: those whose names contain it */
    char function[160];
    char arch[32];
    int active;   /* in a function named */
    int checked;  /* a named function was seen */
    int signed_bytes;
    int wrong;
    char *why;
    size_t why_len;
} scan_state;

/* The register operand i (0: the first) of `operands`, as "R12", or "" (a predicate, an
 * immediate, an address, none). Operands are separated by commas. */
static void operand(const char *operands, int i, char *out, size_t len)
{
    const char *p = operands;
    for (int k = 0; k < i && p; ++k) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    out[0] = '\0';
    if (!p)
        return;
    while (*p == ' ')
        ++p;
    size_t n = strcspn(p, ",;");
    while (n > 0 && p[n - 1] == ' ')
        --n;
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
}

static int is_predicate(const char *op)
{
    if (*op == '!')
        ++op;
    return op[0] == 'P' && (op[1] == 'T' || isdigit((unsigned char)op[1])) &&
           !isalnum((unsigned char)op[2]);
}

/* 1 if register `reg` ("R2") is read by the operands after the first (the first is written,
 * except in a store or an atomic, which read it too: `all`). Matches R2, R2.reuse, -R2, [R2],
 * [R2+0x4], R2.64, not R20. */
static int reads(const char *operands, const char *reg, int all)
{
    const char *p = operands;
    if (!all) {
        p = strchr(operands, ',');
        if (!p)
            return 0;
    }
    const size_t len = strlen(reg);
    for (const char *q = strstr(p, reg); q; q = strstr(q + 1, reg)) {
        const int starts = q == p || !isalnum((unsigned char)q[-1]);
        const int ends = !isdigit((unsigned char)q[len]);
        if (starts && ends)
            return 1;
    }
    return 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* 1 if the instruction writes a value sign-extended from a byte into its first operand. */
static int sign_extends_byte(const sass_line *l)
{
    const int load = starts_with(l->opcode, "LDG.") || starts_with(l->opcode, "LD.") ||
                     starts_with(l->opcode, "LDS.") || starts_with(l->opcode, "LDL.");
    if (load || starts_with(l->opcode, "I2I."))
        return strstr(l->opcode, ".S8") != NULL;
    if (starts_with(l->opcode, "PRMT"))
        return strstr(l->operands, "0x8880") != NULL;
    if (starts_with(l->opcode, "SGXT")) {
        char third[32];
        operand(l->operands, 2, third, sizeof third);
        return strcmp(third, "0x8") == 0;
    }
    return 0;
}

/* A store or an atomic reads its first operand (an address) rather than writing it. */
static int reads_first(const sass_line *l)
{
    return starts_with(l->opcode, "ST") || starts_with(l->opcode, "ATOM") ||
           starts_with(l->opcode, "RED");
}

/* The operands after the first (what an instruction reads), without .reuse flags. */
static void sources_of(const sass_line *l, char *out, size_t len)
{
    const char *p = strchr(l->operands, ',');
    size_t k = 0;
    for (p = p ? p : ""; *p && k + 1 < len; ++p) {
        if (strncmp(p, ".reuse", 6) == 0)
            p += 5;
        else if (*p != ' ')
            out[k++] = *p;
    }
    out[k] = '\0';
}

/* 1 if line i sign-extends the same register as an earlier line k whose value was tested,
 * with that register not written in between: the same value again (a vectorised loop extends
 * each byte of a word once for its test and once more for its use). Loads are not matched:
 * memory may change between two loads. */
static int same_as_tested(const scan_state *s, int i, const unsigned char *tested)
{
    const sass_line *def = &s->lines[i];
    if (starts_with(def->opcode, "LD"))
        return 0;
    char mine[160], source[32];
    sources_of(def, mine, sizeof mine);
    operand(def->operands, 1, source, sizeof source);
    source[strcspn(source, ". ")] = '\0';
    if (source[0] != 'R' || strcmp(source, "RZ") == 0)
        return 0;
    for (int k = i - 1; k >= 0; --k) {
        const sass_line *l = &s->lines[k];
        char first[32], theirs[160];
        operand(l->operands, 0, first, sizeof first);
        first[strcspn(first, ". ")] = '\0';
        if (tested[k] && strcmp(l->opcode, def->opcode) == 0) {
            sources_of(l, theirs, sizeof theirs);
            if (strcmp(theirs, mine) == 0)
                return 1;
        }
        if (!reads_first(l) && strcmp(first, source) == 0)
            return 0; /* the register was written: another value */
    }
    return 0;
}

static void check_function(scan_state *s)
{
    unsigned char *was_tested = (unsigned char *)calloc(s->count ? (size_t)s->count : 1, 1);
    if (!was_tested) {
        fprintf(stderr, "byte_sign: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < s->count && !s->wrong; ++i) {
        const sass_line *def = &s->lines[i];
        if (!sign_extends_byte(def))
            continue;
        char reg[32];
        operand(def->operands, 0, reg, sizeof reg);
        if (reg[0] != 'R' || strcmp(reg, "RZ") == 0)
            continue;
        reg[strcspn(reg, ". ")] = '\0';
        ++s->signed_bytes;
        /* The registers holding the value: reg, and its plain copies (MOV, IMAD.MOV) until
         * each is written again. */
        char held[8][32];
        int holders = 1;
        snprintf(held[0], sizeof held[0], "%s", reg);
        int tested = same_as_tested(s, i, was_tested), used = 0;
        for (int j = i + 1; j < s->count && !tested && holders > 0; ++j) {
            const sass_line *l = &s->lines[j];
            char first[32];
            operand(l->operands, 0, first, sizeof first);
            const int move = strcmp(l->opcode, "MOV") == 0 || starts_with(l->opcode, "IMAD.MOV");
            int read = 0;
            for (int h = 0; h < holders; ++h)
                read |= reads(l->operands, held[h], reads_first(l));
            if (read) {
                if (is_predicate(first))
                    tested = 1;
                else if (!move)
                    used = 1;
            }
            first[strcspn(first, ". ")] = '\0';
            if (reads_first(l) || is_predicate(first))
                continue;
            for (int h = 0; h < holders; ++h)
                if (strcmp(first, held[h]) == 0) { /* written again: that copy is gone */
                    snprintf(held[h], sizeof held[h], "%s", held[holders - 1]);
                    --holders;
                    break;
                }
            if (read && move && first[0] == 'R' && holders < 8)
                snprintf(held[holders++], sizeof held[0], "%s", first);
        }
        was_tested[i] = (unsigned char)tested;
        if (!tested && used) {
            s->wrong = 1;
            snprintf(s->why, s->why_len, "%s, %s: the byte loaded by %s is sign-extended (read "
                     "as a signed char) and used with no test of its sign: a byte >= 128 "
                     "becomes a negative bin index, a write before block_bins (read it as "
                     "unsigned char)", s->arch[0] ? s->arch : "SASS", s->function, def->text);
        }
    }
    free(was_tested);
    s->count = 0;
}

static void add_line(scan_state *s, const char *line)
{
    const char *open = strstr(line, "/*");
    const char *close = open ? strstr(open, "*/") : NULL;
    if (!close)
        return;
    const char *p = close + 2;
    while (*p == ' ' || *p == '\t')
        ++p;
    if (*p == '@') /* a guard: the instruction may not run, but it reads what it reads */
        p += strcspn(p, " \t");
    while (*p == ' ' || *p == '\t')
        ++p;
    const size_t len = strcspn(p, " \t;");
    if (len == 0 || len >= 64)
        return;
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 256;
        s->lines = (sass_line *)realloc(s->lines, (size_t)s->capacity * sizeof *s->lines);
        if (!s->lines) {
            fprintf(stderr, "byte_sign: out of memory\n");
            exit(2);
        }
    }
    sass_line *l = &s->lines[s->count++];
    snprintf(l->opcode, sizeof l->opcode, "%.*s", (int)len, p);
    const char *operands = p + len;
    while (*operands == ' ' || *operands == '\t')
        ++operands;
    const size_t operands_len = strcspn(operands, ";");
    snprintf(l->operands, sizeof l->operands, "%.*s",
             (int)(operands_len < sizeof l->operands ? operands_len : sizeof l->operands - 1),
             operands);
    char *end = l->operands + strlen(l->operands);
    while (end > l->operands && end[-1] == ' ')
        *--end = '\0';
    snprintf(l->text, sizeof l->text, "%.*s %s %s",
             (int)(close + 2 - open < 15 ? close + 2 - open : 15), open, l->opcode, l->operands);
}

/* own_sass_walk's visit: at a function's header, the function before it is checked (if it was
 * one named) and the new one recorded; its lines are collected. */
static void visit_line(void *user, const own_sass_place *at, const char *line)
{
    scan_state *s = (scan_state *)user;
    if (line) {
        if (s->active)
            add_line(s, line);
        return;
    }
    if (s->active)
        check_function(s);
    snprintf(s->arch, sizeof s->arch, "%s", at->arch);
    snprintf(s->function, sizeof s->function, "%s", at->function);
    s->active = strstr(s->function, s->name) != NULL;
    s->checked |= s->active;
}

byte_sign_verdict byte_sign_check(const char *sass, const char *name, char *why, size_t why_len)
{
    scan_state s = {.name = name, .why = why, .why_len = why_len};
    if (why_len)
        why[0] = '\0';
    own_sass_walk(sass, visit_line, &s);
    if (s.active)
        check_function(&s);
    free(s.lines);
    if (!s.checked) {
        snprintf(why, why_len, "the listing holds no function named %s (no SASS in the binary, "
                 "or the kernel renamed)", name);
        return BYTE_SIGN_NO_SASS;
    }
    if (s.wrong)
        return BYTE_SIGN_WRONG;
    snprintf(why, why_len, "%d sign-extended byte(s) in the compiled kernel, each tested for "
             "its sign before use", s.signed_bytes);
    return BYTE_SIGN_OK;
}
