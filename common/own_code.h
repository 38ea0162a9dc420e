/* Whether the student's own file carries a library's device code: for the cases of the
 * exercises whose lesson a library would skip (ex03.2, ex04.1: CUB's warp and block
 * primitives; ex07.3: cub::DeviceReduce, thrust). Grader-only.
 *
 * Each .cu file of a program carries its device code as a fat binary, which the CUDA runtime
 * registers at start-up (__cudaRegisterFatBinary, called from code nvcc writes into every
 * file). A grader linked with
 *
 *   target_link_options(<grader> PRIVATE "LINKER:--wrap=__cudaRegisterFatBinary")
 *
 * keeps each fat binary as it goes by, with no GPU needed. The student's is the one that names
 * the student's source file (in its line table: every chapter program is compiled with
 * -lineinfo). CUB or thrust code in it, called or inlined, leaves its traces there: the
 * library's files in the line table (.../cub/warp/warp_scan.cuh) and its functions' names
 * (_ZN3cub..., _ZN6thrust...). The grader's own files may use the library: they are other fat
 * binaries (whole-program compilation, the default; with -rdc the device link would join every
 * file's code into one). No cuobjdump is needed. */
#ifndef TUTORIAL_OWN_CODE_H
#define TUTORIAL_OWN_CODE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    OWN_CODE_OWN = 0,        /* the student's device code holds no library's */
    OWN_CODE_LIBRARY = 1,    /* it holds CUB's or thrust's (why[] says which trace) */
    OWN_CODE_UNREADABLE = 2  /* no fat binary names the file, or its code is compressed */
} own_code_verdict;

/* The verdict on one fat binary (its bytes: header and entries) for the source file named
 * `source` ("dot_fast.cu", a base name): UNREADABLE if the bytes do not name it or hold no
 * uncompressed ELF. why[] gets the trace found, or the reason. */
own_code_verdict own_code_scan(const unsigned char *fatbin, size_t size, const char *source,
                               char *why, size_t why_len);

/* The verdict on the fat binaries this program registered (the grader must be linked with the
 * --wrap above): LIBRARY if one that names `source` holds a library's code, OWN if at least one
 * names it and none does, else UNREADABLE. */
own_code_verdict own_code_check(const char *source, char *why, size_t why_len);

/* A grader's case on it, printed: 1 if the student's file `source` holds no library code; 0 if
 * it does (FAIL: the trace found, then `lesson`, what the exercise asks instead); exits 77
 * (SKIPPED, with the reason) where its code cannot be read. */
int own_code_grade(const char *source, const char *lesson);

#ifdef __cplusplus
}
#endif

#endif
