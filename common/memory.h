/* Allocation that fails with a clear message instead of a crash or a NULL dereference.
 *
 * Asking for more than the GPU (or host) can give is a problem with the input (exit 2), not a
 * bug in the program: the message names what was being allocated, the size asked for and, on the
 * GPU, the size free. Sizes are computed with tut_bytes(), which refuses to overflow. */
#ifndef TUTORIAL_MEMORY_H
#define TUTORIAL_MEMORY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* count * elem_size, or exit(2) with a message if that does not fit in size_t. */
size_t tut_bytes(size_t count, size_t elem_size, const char *what);

void *tut_device_alloc(size_t bytes, const char *what); /* cudaMalloc */
void *tut_host_alloc(size_t bytes, const char *what);   /* malloc */
void *tut_pinned_alloc(size_t bytes, const char *what); /* cudaMallocHost (page-locked) */
void tut_device_free(void *p);
void tut_pinned_free(void *p);

/* Free device memory right now, in bytes (0 when there is no GPU). */
size_t tut_device_free_bytes(void);

/* 1 if `bytes` fit in free device memory with `reserve` bytes to spare, else 0. Programs use it
 * to refuse (exit 2) or tests to skip (exit 77) before allocating. */
int tut_device_fits(size_t bytes, size_t reserve);

/* Formats a byte count as "1.50 GiB" into buf; returns buf. */
const char *tut_format_bytes(double bytes, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif
