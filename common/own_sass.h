/* The grader's own machine code, as `cuobjdump -sass` lists it (the student's kernels are
 * compiled into the grader): for the cases that read the compiled code instead of running it
 * (ex01.2's vector_loads, ex07.1's signed_bytes, ex07.2's fences). Grader-only. */
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

/* In the listing, the instructions of the functions whose (mangled) names contain `function`
 * whose opcode begins with `prefix` and holds `part` (prefix "LDG", part ".128": the 128-bit
 * global loads); -1 if the listing holds no such function. */
int own_sass_count(const char *sass, const char *function, const char *prefix, const char *part);

#ifdef __cplusplus
}
#endif

#endif
