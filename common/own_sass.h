/* The grader's own machine code, as `cuobjdump -sass` lists it (the student's kernels are
 * compiled into the grader): for the cases that read the compiled code instead of running it
 * (ex01.2's vector_loads, ex07.1's signed_bytes, ex07.2's fences). Grader-only.
 *
 * A listing holds, for each architecture, a line "code for sm_90", then each function: a line
 * "Function : <mangled name>" and its instructions, one a line: the address in a comment, a
 * guard perhaps (@P0), the opcode (LDG.E.128.CONSTANT), its operands up to the semicolon, the
 * encoding in a comment. own_sass_walk hands each line to a caller's function; own_sass_count,
 * ex07.1's byte_sign.c and ex07.2's fence_order.c read the listing through it. */
#ifndef TUTORIAL_OWN_SASS_H
#define TUTORIAL_OWN_SASS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The SASS listing of this program (malloc'ed, NUL-terminated), read with the cuobjdump of
 * $TUT_CUOBJDUMP, else the toolkit's that CMake found (TUT_CUOBJDUMP_PATH), else one on PATH.
 * NULL with the reason in why[] where it cannot be read (no cuobjdump, no binary, cuobjdump
 * failed): the caller skips (77), saying so. `tool` gets the cuobjdump used (may be NULL). */
char *own_sass_read(char *tool, size_t tool_len, char *why, size_t why_len);

/* A listing saved to a file (the tests' committed listings): malloc'ed, NUL-terminated; NULL
 * with the reason in why[] where it cannot be read. */
char *own_sass_load(const char *path, char *why, size_t why_len);

/* Where the walker stands: the architecture of the last "code for" line ("" before any) and
 * the function whose header was read last (its mangled name, up to the first blank). */
typedef struct {
    const char *arch;
    const char *function;
} own_sass_place;

/* Called by own_sass_walk at each function's header (line NULL), then for each of its
 * instruction lines (a line holding a semicolon, at most 511 characters of it). */
typedef void (*own_sass_visit)(void *user, const own_sass_place *at, const char *line);

/* Walks the listing `sass` function by function, in listing order. The lines between a "code
 * for" line and the next function header belong to no function and are not visited. */
void own_sass_walk(const char *sass, own_sass_visit visit, void *user);

/* In the listing, the instructions of the functions whose (mangled) names contain `function`
 * whose opcode begins with `prefix` and holds `part` (prefix "LDG", part ".128": the 128-bit
 * global loads); -1 if the listing holds no such function. */
int own_sass_count(const char *sass, const char *function, const char *prefix, const char *part);

#ifdef __cplusplus
}
#endif

#endif
