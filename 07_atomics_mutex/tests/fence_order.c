/* The fences around the lock, read from cuobjdump's SASS listing (fence_order.h). */
#include "fence_order.h"
#include "own_sass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
    OP_OTHER,   /* arithmetic, branches, shared or constant memory, a block-scope fence */
    OP_MEMORY,  /* a plain load or store of global (or generic) memory: the ledger's */
    OP_FENCE,   /* MEMBAR of GPU or system scope */
    OP_NARROW,  /* MEMBAR of block scope (__threadfence_block): no fence for a lock */
    OP_GUARDED, /* a fence or CCTL.IVALL under a predicate (@P0, @!P1): only some threads run
                 * it (if (threadIdx.x == 0) __threadfence();), so it is no fence either */
    OP_INVALIDATE, /* CCTL.IVALL: what an acquire compiles to after its atomic */
    OP_TAKE,    /* an atomic whose result is read: the lock's CAS or exchange */
    OP_GIVE     /* an atomic whose result is dropped, a reduction, a strong store: the unlock */
} op_kind;

typedef struct {
    op_kind kind;
    char text[256]; /* address and instruction, for messages */
} sass_op;

typedef struct {
    sass_op *ops;
    int count, capacity;
    const char *const *names; /* the functions checked: those whose names contain one */
    int name_count;
    char function[160];
    char arch[32];
    int active;    /* in a function named */
    int checked;   /* a named function was seen */
    int takes, gives;
    int wrong;
    char *why;
    size_t why_len;
} scan_state;

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The opcode's first word (ATOMG of ATOMG.E.CAS...) is one of the words of `list`. */
static int base_is(const char *opcode, const char *const *list, int n)
{
    const size_t len = strcspn(opcode, ".");
    for (int i = 0; i < n; ++i)
        if (strlen(list[i]) == len && strncmp(opcode, list[i], len) == 0)
            return 1;
    return 0;
}

/* "PT, R4, [R2], R4, R5": the register an atomic writes its result to (after the predicate). */
static void atomic_destination(const char *operands, char *out, size_t out_len)
{
    const char *p = operands;
    while (*p == ' ')
        ++p;
    if (*p == 'P') { /* PT or P0..P6: the predicate result comes first */
        p = strchr(p, ',');
        p = p ? p + 1 : operands + strlen(operands);
        while (*p == ' ')
            ++p;
    }
    const size_t len = strcspn(p, " ,;");
    snprintf(out, out_len, "%.*s", (int)(len < out_len ? len : out_len - 1), p);
}

static op_kind classify(const char *opcode, const char *operands)
{
    static const char *const fences[] = {"MEMBAR"};
    static const char *const atomics[] = {"ATOM", "ATOMG"};
    static const char *const reductions[] = {"RED", "REDG"};
    static const char *const stores[] = {"ST", "STG"};
    static const char *const loads[] = {"LD", "LDG"};
    if (base_is(opcode, fences, 1))
        return strstr(opcode, ".GPU") || strstr(opcode, ".SYS") || strstr(opcode, ".GL")
                   ? OP_FENCE : OP_NARROW;
    if (starts_with(opcode, "CCTL.IVALL"))
        return OP_INVALIDATE;
    if (base_is(opcode, atomics, 2)) {
        char dest[16];
        atomic_destination(operands, dest, sizeof dest);
        return strcmp(dest, "RZ") == 0 ? OP_GIVE : OP_TAKE;
    }
    if (base_is(opcode, reductions, 2))
        return OP_GIVE;
    if (base_is(opcode, stores, 2))
        return strstr(opcode, ".STRONG") ? OP_GIVE : OP_MEMORY;
    if (base_is(opcode, loads, 2))
        return OP_MEMORY;
    return OP_OTHER;
}

/* narrow: bit 1, a block-scope fence stood between the two; bit 2, a guarded fence did. */
static void say_wrong(scan_state *s, const char *fmt, const char *a, const char *b, int narrow)
{
    if (s->wrong)
        return; /* the first reason is the one printed */
    s->wrong = 1;
    char detail[400];
    snprintf(detail, sizeof detail, fmt, a, b);
    snprintf(s->why, s->why_len, "%s, %s: %s%s%s", s->arch[0] ? s->arch : "SASS", s->function,
             detail, (narrow & 1) ? " (a block-scope fence, __threadfence_block, stood between "
                                    "them: it orders nothing for the other blocks, which take "
                                    "the same lock)"
                                  : "",
             (narrow & 2) ? " (a fence under a predicate, @P MEMBAR, stood between them: only "
                            "the threads whose predicate holds run it)"
                          : "");
}

static int neutral(op_kind kind)
{
    return kind == OP_OTHER || kind == OP_NARROW || kind == OP_GUARDED;
}

/* Bit 1 for a block-scope fence, bit 2 for a guarded one (say_wrong's `narrow`). */
static int passed_over(op_kind kind)
{
    return (kind == OP_NARROW ? 1 : 0) | (kind == OP_GUARDED ? 2 : 0);
}

/* The rules of fence_order.h over one function's instructions. */
static void check_function(scan_state *s)
{
    for (int i = 0; i < s->count; ++i) {
        const sass_op *op = &s->ops[i];
        if (op->kind == OP_TAKE) {
            ++s->takes;
            /* (another take after it is the spin loop's retry, laid out twice: look past it) */
            int j = i + 1, narrow = 0;
            for (; j < s->count && (neutral(s->ops[j].kind) || s->ops[j].kind == OP_TAKE); ++j)
                narrow |= passed_over(s->ops[j].kind);
            if (j == s->count)
                say_wrong(s, "no fence follows the atomic that takes the lock (%s)%s", op->text,
                          "", narrow);
            else if (s->ops[j].kind != OP_FENCE && s->ops[j].kind != OP_INVALIDATE)
                say_wrong(s, "after the atomic that takes the lock (%s) comes %s before any "
                          "fence: the ledger may be read as it was before this thread owned "
                          "the lock (the acquire fence goes after the lock is taken)",
                          op->text, s->ops[j].text, narrow);
        } else if (op->kind == OP_GIVE) {
            ++s->gives;
            int k = i - 1, narrow = 0;
            for (; k >= 0 && (neutral(s->ops[k].kind) || s->ops[k].kind == OP_INVALIDATE); --k)
                narrow |= passed_over(s->ops[k].kind);
            if (k < 0)
                say_wrong(s, "no fence comes before the atomic that gives the lock back (%s)%s",
                          op->text, "", narrow);
            else if (s->ops[k].kind != OP_FENCE)
                say_wrong(s, "before the atomic that gives the lock back (%s) comes %s after "
                          "the last fence: another thread may own the lock before it sees "
                          "this write (the release fence goes before the lock is given back)",
                          op->text, s->ops[k].text, narrow);
        }
    }
    s->count = 0;
}

static void add_op(scan_state *s, const char *line)
{
    /* A line of the listing: the address in a comment, the instruction up to its semicolon,
     * the encoding in a comment. */
    const char *open = strstr(line, "/*");
    const char *close = open ? strstr(open, "*/") : NULL;
    if (!close)
        return;
    const char *p = close + 2;
    while (*p == ' ' || *p == '\t')
        ++p;
    char guard[8] = "";
    if (*p == '@') { /* a predicate guard: @P0, @!P1 (@PT: always true, no guard) */
        const size_t guard_len = strcspn(p, " \t");
        snprintf(guard, sizeof guard, "%.*s", (int)(guard_len < sizeof guard ? guard_len
                                                                             : sizeof guard - 1), p);
        if (strcmp(guard, "@PT") == 0)
            guard[0] = '\0';
        p += guard_len;
        while (*p == ' ' || *p == '\t')
            ++p;
    }
    char opcode[64];
    const size_t len = strcspn(p, " \t;");
    if (len == 0 || len >= sizeof opcode)
        return;
    memcpy(opcode, p, len);
    opcode[len] = '\0';
    const char *operands = p + len;
    const size_t operands_len = strcspn(operands, ";");
    char operand_text[128];
    snprintf(operand_text, sizeof operand_text, "%.*s",
             (int)(operands_len < sizeof operand_text ? operands_len : sizeof operand_text - 1),
             operands);
    if (s->count == s->capacity) {
        s->capacity = s->capacity ? 2 * s->capacity : 256;
        s->ops = (sass_op *)realloc(s->ops, (size_t)s->capacity * sizeof *s->ops);
        if (!s->ops) {
            fprintf(stderr, "fence_order: out of memory\n");
            exit(2);
        }
    }
    sass_op *op = &s->ops[s->count++];
    op->kind = classify(opcode, operand_text);
    if (guard[0] && (op->kind == OP_FENCE || op->kind == OP_INVALIDATE))
        op->kind = OP_GUARDED;
    /* The address and the instruction, for the messages. */
    char address[16] = "";
    snprintf(address, sizeof address, "%.*s", (int)(close + 2 - open < 15 ? close + 2 - open : 15),
             open);
    char *end = operand_text + strlen(operand_text);
    while (end > operand_text && end[-1] == ' ')
        *--end = '\0';
    snprintf(op->text, sizeof op->text, "%s %s%s%s%s", address, guard, guard[0] ? " " : "",
             opcode, operand_text);
}

/* own_sass_walk's visit: at a function's header, the function before it is checked (if it was
 * one named) and the new one recorded; its instructions are collected. */
static void visit_line(void *user, const own_sass_place *at, const char *line)
{
    scan_state *s = (scan_state *)user;
    if (line) {
        if (s->active)
            add_op(s, line);
        return;
    }
    if (s->active)
        check_function(s);
    snprintf(s->arch, sizeof s->arch, "%s", at->arch);
    snprintf(s->function, sizeof s->function, "%s", at->function);
    s->active = 0;
    for (int i = 0; i < s->name_count; ++i)
        if (strstr(s->function, s->names[i]))
            s->active = 1;
    s->checked |= s->active;
}

fence_order_verdict fence_order_check(const char *sass, const char *const *names, int count,
                                      char *why, size_t why_len)
{
    scan_state s = {.names = names, .name_count = count, .why = why, .why_len = why_len};
    if (why_len)
        why[0] = '\0';
    own_sass_walk(sass, visit_line, &s);
    if (s.active)
        check_function(&s);
    free(s.ops);
    if (!s.checked) {
        snprintf(why, why_len, "the listing holds none of the functions to check (no SASS in "
                 "the binary, or the kernels renamed)");
        return FENCE_ORDER_NO_SASS;
    }
    if (s.wrong)
        return FENCE_ORDER_WRONG;
    if (s.takes == 0 || s.gives == 0) {
        snprintf(why, why_len, "%s", s.takes == 0
                 ? "no atomic takes the lock (an atomicCAS or atomicExch whose result the spin "
                   "loop reads)"
                 : "no atomic gives the lock back (atomicExch(mutex, 0) or a release store)");
        return FENCE_ORDER_WRONG;
    }
    snprintf(why, why_len, "%d atomic(s) taking the lock, each followed by a fence; %d giving "
             "it back, each after a fence", s.takes, s.gives);
    return FENCE_ORDER_OK;
}
