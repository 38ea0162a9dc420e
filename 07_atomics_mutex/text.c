/* English-like text, files and the CPU histogram: see text.h. */
#include "text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

/* A vocabulary ranked roughly by frequency in English prose, so that word k is drawn with a
 * weight of 1/(k+1) (Zipf's law): "the" about once every 15 words, the last ones rarely. A few
 * UTF-8 words (bytes >= 128) sit among them so that every generated text exercises the
 * non-ASCII path of the kernels. */
static const char *const vocabulary[] = {
    "the", "and", "of", "to", "I", "a", "you", "my", "in", "that", "is", "not", "with", "me",
    "it", "for", "be", "his", "your", "this", "but", "he", "have", "as", "thou", "so", "him",
    "will", "what", "thy", "all", "her", "no", "by", "do", "shall", "if", "are", "we", "thee",
    "our", "on", "lord", "now", "good", "from", "sir", "come", "at", "they", "she", "or",
    "which", "would", "more", "was", "then", "how", "there", "their", "let", "love", "man",
    "here", "king", "them", "when", "one", "than", "make", "upon", "know", "like", "say", "may",
    "did", "should", "yet", "must", "why", "see", "had", "tis", "such", "where", "give", "these",
    "well", "were", "time", "speak", "mine", "heart", "night", "death", "world", "eyes", "life",
    "fair", "great", "café", "honour", "sweet", "father", "blood", "hand", "words", "naïve",
    "heaven", "nothing", "queen", "true", "never", "mistress", "husband", "fortune", "gentle",
    "über", "noble", "brother", "Romeo", "Juliet", "Hamlet", "London", "Verona", "señor",
    "duke", "madam", "daughter", "crown", "sword", "grief", "virtue", "reason", "whilst",
    "façade", "Zürich", "quickly", "jewel", "exquisite", "zephyr", "—", "“quoth”",
};
#define VOCABULARY_SIZE (sizeof(vocabulary) / sizeof(vocabulary[0]))

/* Word k is drawn from 16 random bits through this table: entry u holds the word whose slice
 * of the cumulative Zipf distribution contains u / 65536. */
#define PICK_BITS 16
static unsigned char pick_table[1 << PICK_BITS];
static int pick_table_ready = 0;

static void build_pick_table(void)
{
    double total = 0.0;
    for (size_t k = 0; k < VOCABULARY_SIZE; ++k)
        total += 1.0 / (double)(k + 1);
    size_t word = 0;
    double upper = 1.0 / total; /* cumulative probability up to and including `word` */
    for (size_t u = 0; u < (1u << PICK_BITS); ++u) {
        double x = ((double)u + 0.5) / (double)(1u << PICK_BITS);
        while (x > upper && word + 1 < VOCABULARY_SIZE) {
            ++word;
            upper += 1.0 / ((double)(word + 1) * total);
        }
        pick_table[u] = (unsigned char)word;
    }
    pick_table_ready = 1;
}

#define LINE_LIMIT 72

void text_generate(unsigned char *out, size_t n, uint64_t seed)
{
    if (!pick_table_ready)
        build_pick_table();
    tut_rng rng;
    tut_rng_seed(&rng, seed);
    size_t pos = 0, line = 0;
    int capital = 1; /* the next word starts a sentence */
    while (pos < n) {
        /* One 64-bit draw per word: 16 bits pick the word, 10 bits the punctuation after it. */
        uint64_t r = tut_rng_next(&rng);
        const char *word = vocabulary[pick_table[r & 0xFFFF]];
        unsigned punct = (unsigned)((r >> 16) & 1023);
        size_t len = strlen(word);
        if (line > 0) { /* separator: a space, or a newline once the line is long */
            unsigned char sep = (line + 1 + len > LINE_LIMIT) ? '\n' : ' ';
            out[pos++] = sep;
            line = (sep == '\n') ? 0 : line + 1;
            if (pos == n)
                break;
        }
        for (size_t i = 0; i < len && pos < n; ++i, ++line) {
            unsigned char c = (unsigned char)word[i];
            if (i == 0 && capital && c >= 'a' && c <= 'z')
                c = (unsigned char)(c - 'a' + 'A');
            out[pos++] = c;
        }
        capital = 0;
        if (pos < n && punct < 60) { /* ~6% of words end a sentence, ~5% take a comma */
            out[pos++] = '.';
            ++line;
            capital = 1;
        } else if (pos < n && punct < 110) {
            out[pos++] = (punct < 100) ? ',' : (punct < 105 ? ';' : '!');
            ++line;
        }
    }
}

unsigned char *text_load_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "error: cannot open input file '%s': %s\n", path, strerror(errno));
        exit(2);
    }
    size_t cap = 1 << 20, len = 0;
    unsigned char *buf = (unsigned char *)malloc(cap);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "error: out of host memory reading '%s'\n", path);
            fclose(f);
            exit(2);
        }
        len += fread(buf + len, 1, cap - len, f);
        if (len < cap)
            break;
        cap *= 2;
        unsigned char *grown = (unsigned char *)realloc(buf, cap);
        if (!grown)
            free(buf);
        buf = grown;
    }
    if (ferror(f)) { /* a directory opens but fails here with EISDIR */
        fprintf(stderr, "error: cannot read input file '%s': %s\n", path, strerror(errno));
        free(buf);
        fclose(f);
        exit(2);
    }
    fclose(f);
    *n = len;
    return buf;
}

void text_histogram_cpu(const unsigned char *text, size_t n, text_histogram *h)
{
    /* Count all 256 byte values; four tables so that runs of the same byte (spaces) do not
     * wait on each other's read-modify-write. */
    unsigned long long c[4][256];
    memset(c, 0, sizeof c);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        ++c[0][text[i]];
        ++c[1][text[i + 1]];
        ++c[2][text[i + 2]];
        ++c[3][text[i + 3]];
    }
    for (; i < n; ++i)
        ++c[0][text[i]];
    memset(h, 0, sizeof *h);
    for (int b = 0; b < 256; ++b) {
        unsigned long long total = c[0][b] + c[1][b] + c[2][b] + c[3][b];
        if (b < TEXT_BINS)
            h->bins[b] = total;
        else
            h->non_ascii += total;
    }
}
