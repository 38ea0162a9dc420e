/* CPU checks for the histogram's reference and its input, against counts made by hand.
 * No GPU needed: this runs in CI and guards everything the GPU tests compare against. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "tutorial.h"

typedef struct {
    char c;
    unsigned long long count;
} expected_count;

/* Checks every bin: the listed ones hold their counts, all others zero. */
static int check_counts(const char *label, const char *s, const expected_count *want, int nwant,
                        unsigned long long want_non_ascii)
{
    text_histogram h;
    text_histogram_cpu((const unsigned char *)s, strlen(s), &h);
    unsigned long long expect[TEXT_BINS] = {0};
    for (int i = 0; i < nwant; ++i)
        expect[(unsigned char)want[i].c] = want[i].count;
    int ok = 1;
    for (int b = 0; b < TEXT_BINS; ++b)
        if (h.bins[b] != expect[b]) {
            printf("  %s: bin %d ('%c') holds %llu, expected %llu\n", label, b,
                   (b >= 32 && b < 127) ? b : '?', h.bins[b], expect[b]);
            ok = 0;
        }
    if (h.non_ascii != want_non_ascii) {
        printf("  %s: non-ASCII %llu, expected %llu\n", label, h.non_ascii, want_non_ascii);
        ok = 0;
    }
    printf("%-40s %s\n", label, ok ? "ok" : "WRONG");
    return ok;
}

static int check_generator(void)
{
    const size_t n = (size_t)TEXT_DOCUMENT_BYTES;
    unsigned char *a = (unsigned char *)tut_host_alloc(n, "text a");
    unsigned char *b = (unsigned char *)tut_host_alloc(n, "text b");
    text_generate(a, n, TUT_DEFAULT_SEED);
    text_generate(b, n, TUT_DEFAULT_SEED);
    int ok = 1;
    if (memcmp(a, b, n) != 0) {
        printf("  the same seed gave different text\n");
        ok = 0;
    }
    text_generate(b, n, TUT_DEFAULT_SEED + 1);
    if (memcmp(a, b, n) == 0) {
        printf("  different seeds gave the same text\n");
        ok = 0;
    }
    /* A prefix is the same text cut short: sizes do not change the stream. */
    text_generate(b, 1000, TUT_DEFAULT_SEED);
    if (memcmp(a, b, 1000) != 0) {
        printf("  a shorter text is not a prefix of the longer one\n");
        ok = 0;
    }
    text_histogram h;
    text_histogram_cpu(a, n, &h);
    unsigned long long total = h.non_ascii, controls = 0;
    int top = 0, top_letter = 'a';
    for (int c = 0; c < TEXT_BINS; ++c) {
        total += h.bins[c];
        if (h.bins[c] > h.bins[top])
            top = c;
        if (c >= 'a' && c <= 'z' && h.bins[c] > h.bins[top_letter])
            top_letter = c;
        if ((c < 32 && c != '\n') || c == 127)
            controls += h.bins[c];
    }
    size_t longest = 0, line = 0;
    for (size_t i = 0; i < n; ++i) {
        line = (a[i] == '\n') ? 0 : line + 1;
        if (line > longest)
            longest = line;
    }
    printf("  generated %zu bytes: ' ' %llu, 'e' %llu, '\\n' %llu, non-ASCII %llu, longest "
           "line %zu\n", n, h.bins[' '], h.bins['e'], h.bins['\n'], h.non_ascii, longest);
    if (total != n || top != ' ' || (top_letter != 'e' && top_letter != 't') || controls != 0 || h.non_ascii == 0 ||
        h.bins['\n'] == 0 || h.bins['.'] == 0 || h.bins['T'] == 0 || longest > 90) {
        printf("  the generated text does not look like English prose\n");
        ok = 0;
    }
    free(a);
    free(b);
    printf("%-40s %s\n", "generator: deterministic, English-like", ok ? "ok" : "WRONG");
    return ok;
}

static int check_file_round_trip(void)
{
    const char *s = "Numba \xc3\xa9t\xc3\xa9\n"; /* "Numba été" */
    char path[] = "atomics_text_test_XXXXXX";
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(s, 1, strlen(s), f) != strlen(s)) {
        printf("cannot write a temporary file here: skipping the file check\n");
        if (f)
            fclose(f);
        return 1;
    }
    fclose(f);
    size_t n = 0;
    unsigned char *back = text_load_file(path, &n);
    int ok = (n == strlen(s) && memcmp(back, s, n) == 0);
    free(back);
    remove(path);
    printf("%-40s %s\n", "file loader round trip", ok ? "ok" : "WRONG");
    return ok;
}

int main(void)
{
    int ok = 1;
    /* The document's string, counted by hand: 22 bytes. */
    const expected_count doc[] = {{'C', 1}, {'U', 1}, {'D', 1}, {'A', 1}, {' ', 3}, {'b', 2},
                                  {'y', 1}, {'N', 1}, {'u', 1}, {'m', 2}, {'a', 2}, {'E', 1},
                                  {'x', 1}, {'p', 1}, {'l', 1}, {'e', 1}, {'s', 1}};
    ok &= check_counts("\"CUDA by Numba Examples\"", "CUDA by Numba Examples", doc,
                       TUT_COUNT(doc), 0);
    ok &= check_counts("empty string", "", NULL, 0, 0);
    /* "café naïve": é and ï are two bytes each in UTF-8, both >= 128. */
    const expected_count utf8[] = {{'c', 1}, {'a', 2}, {'f', 1}, {' ', 1},
                                   {'n', 1}, {'v', 1}, {'e', 1}};
    ok &= check_counts("UTF-8 \"caf\\u00e9 na\\u00efve\"", "caf\xc3\xa9 na\xc3\xafve", utf8,
                       TUT_COUNT(utf8), 4);
    /* Bytes 1 and 127 are the edges of the bins, 0x80 and 0xFF those of the rest; the tail loop
     * (n % 4) is used. */
    const expected_count edges[] = {{1, 2}, {127, 1}, {'z', 2}};
    ok &= check_counts("edge bytes 1, 127, 0x80 and 0xFF", "\x01z\x7f\xff\x01z\x80\xff", edges,
                       TUT_COUNT(edges), 3);
    ok &= check_generator();
    ok &= check_file_round_trip();
    return tut_finish(ok);
}
