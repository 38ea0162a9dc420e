/* The grader's own machine code, as `cuobjdump -sass` lists it (the student's kernels are
 * compiled into the grader): for the cases that read the compiled code instead of running it
 * (ex07.1's signed_bytes, ex07.2's fences). Grader-only. */
#ifndef ATOMICS_OWN_SASS_H
#define ATOMICS_OWN_SASS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The SASS listing of this program (malloc'ed, NUL-terminated), read with the cuobjdump of
 * $TUT_CUOBJDUMP, else the toolkit's that CMake found (TUT_CUOBJDUMP_PATH), else one on PATH.
 * NULL with the reason in why[] where it cannot be read (no cuobjdump, no binary, cuobjdump
 * failed): the caller skips (77), saying so. `tool` gets the cuobjdump used (may be NULL). */
char *own_sass_read(char *tool, size_t tool_len, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
