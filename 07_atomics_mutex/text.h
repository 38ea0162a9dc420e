/* Text for the histogram: an English-like generator, a file loader and the CPU reference.
 *
 * Plain C (compiled as C11 into the CPU test and linked into the CUDA programs). */
#ifndef ATOMICS_TEXT_H
#define ATOMICS_TEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One bin per ASCII code 0..127, as in the document; bytes >= 128 (the pieces of UTF-8
 * characters) have no bin and are counted apart. 64-bit counts: a bin of a 5 GiB file of
 * spaces would overflow 32 bits. */
#define TEXT_BINS 128

typedef struct {
    unsigned long long bins[TEXT_BINS];
    unsigned long long non_ascii; /* bytes >= 128 */
} text_histogram;

/* The size of the document's input (Shakespeare's complete works as UTF-8). */
#define TEXT_DOCUMENT_BYTES 5638519ull

/* Fills out[0..n) with English-like text: words drawn with a Zipf-like frequency from a small
 * vocabulary (a few UTF-8 words among them), commas, full stops followed by a capital, lines of
 * at most ~72 characters. The same seed gives the same bytes on every machine. */
void text_generate(unsigned char *out, size_t n, uint64_t seed);

/* Reads a whole file. On failure (missing, a directory, unreadable) prints the reason and exits
 * with 2. An empty file is valid input: *n = 0 and an empty histogram. Free with free(). */
unsigned char *text_load_file(const char *path, size_t *n);

/* The reference: one pass over the bytes, exact 64-bit counts. */
void text_histogram_cpu(const unsigned char *text, size_t n, text_histogram *h);

#ifdef __cplusplus
}
#endif

#endif
