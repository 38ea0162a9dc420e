/* The fat binaries this program registers, and library code in the student's (own_code.h). */
#include "own_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"

/* The runtime's wrapper of a file's fat binary (fatbinary_section.h of the toolkit), and the
 * fat binary's header (fatbinary.h): what __cudaRegisterFatBinary receives. */
typedef struct {
    int magic;
    int version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} fatbin_wrapper;

#define WRAPPER_MAGIC 0x466243b1
#define FATBIN_MAGIC 0xba55ed50u
#define MOST_FATBINS 512

static struct {
    const unsigned char *bytes;
    size_t size;
} registered[MOST_FATBINS];
static int registered_count;

void **__real___cudaRegisterFatBinary(void *fat_cubin);

/* Every file's device code passes here at start-up (LINKER:--wrap=__cudaRegisterFatBinary). */
void **__wrap___cudaRegisterFatBinary(void *fat_cubin)
{
    const fatbin_wrapper *w = (const fatbin_wrapper *)fat_cubin;
    if (w && w->magic == WRAPPER_MAGIC && w->data && registered_count < MOST_FATBINS) {
        const unsigned char *bytes = (const unsigned char *)w->data;
        unsigned magic;
        unsigned short header_size;
        unsigned long long body_size;
        memcpy(&magic, bytes, sizeof magic);
        memcpy(&header_size, bytes + 6, sizeof header_size);
        memcpy(&body_size, bytes + 8, sizeof body_size);
        if (magic == FATBIN_MAGIC) {
            registered[registered_count].bytes = bytes;
            registered[registered_count].size = (size_t)header_size + (size_t)body_size;
            ++registered_count;
        }
    }
    return __real___cudaRegisterFatBinary(fat_cubin);
}

static int name_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-' || c == '.';
}

/* The offset of `text` in the bytes, from `from`; -1 if absent. whole: only where it stands
 * as a file name (after a '/' or a byte that cannot be in a name, before one that cannot). */
static long find(const unsigned char *bytes, size_t size, const char *text, int whole)
{
    const size_t len = strlen(text);
    for (size_t i = 0; len && i + len <= size; ++i) {
        if (bytes[i] != (unsigned char)text[0] || memcmp(bytes + i, text, len) != 0)
            continue;
        if (whole && ((i > 0 && bytes[i - 1] != '/' && name_char(bytes[i - 1])) ||
                      (i + len < size && name_char(bytes[i + len]))))
            continue;
        return (long)i;
    }
    return -1;
}

own_code_verdict own_code_scan(const unsigned char *fatbin, size_t size, const char *source,
                               char *why, size_t why_len)
{
    if (find(fatbin, size, source, 1) < 0) {
        snprintf(why, why_len, "this device code does not name %s", source);
        return OWN_CODE_UNREADABLE;
    }
    if (find(fatbin, size, "\177ELF", 0) < 0) {
        snprintf(why, why_len, "the device code of %s is compressed (build it with nvcc "
                 "--no-compress, without -G): it cannot be read", source);
        return OWN_CODE_UNREADABLE;
    }
    /* The library's headers in the line table (the toolkit's include/cub/ or include/cccl/cub/,
     * a CCCL checkout's cub/cub/: never a folder merely named cub, which may hold the student's
     * own file), its functions' mangled names (a namespace opens N<length><name>, a const
     * member NK<length><name>). */
    static const struct {
        const char *trace, *what;
    } traces[] = {{"include/cub/", "CUB (a file of cub/ in its line table)"},
                  {"cccl/cub/", "CUB (a file of cub/ in its line table)"},
                  {"/cub/cub/", "CUB (a file of cub/ in its line table)"},
                  {"include/thrust/", "thrust (a file of thrust/ in its line table)"},
                  {"cccl/thrust/", "thrust (a file of thrust/ in its line table)"},
                  {"/thrust/thrust/", "thrust (a file of thrust/ in its line table)"},
                  {"N3cub", "CUB (a function of namespace cub::)"},
                  {"NK3cub", "CUB (a function of namespace cub::)"},
                  {"N6thrust", "thrust (a function of namespace thrust::)"},
                  {"NK6thrust", "thrust (a function of namespace thrust::)"}};
    for (size_t t = 0; t < sizeof traces / sizeof traces[0]; ++t) {
        const long at = find(fatbin, size, traces[t].trace, 0);
        if (at >= 0) {
            /* the name or path around it, for the message */
            size_t begin = (size_t)at, end = (size_t)at;
            while (begin > 0 && (size_t)at - begin < 60 && fatbin[begin - 1] >= 0x21 &&
                   fatbin[begin - 1] < 0x7f)
                --begin;
            while (end < size && end - (size_t)at < 100 && fatbin[end] >= 0x21 &&
                   fatbin[end] < 0x7f)
                ++end;
            snprintf(why, why_len, "%s: %.*s", traces[t].what, (int)(end - begin),
                     (const char *)fatbin + begin);
            return OWN_CODE_LIBRARY;
        }
    }
    /* Cooperative groups' reduce and scan (cg::reduce, cg::inclusive_scan, cg::exclusive_scan,
     * and their _async and _update forms: cg::reduce_update_async does the reduction and the
     * atomic): their functions' mangled names, namespace cooperative_groups
     * (18cooperative_groups), its version namespace (4__v1), then the function's name, its
     * length first (6reduce, 19reduce_update_async). Not file names: libcu++ has a reduce.h of
     * its own, and a student may write one; cooperative groups' other functions
     * (this_thread_block, tiled_partition, a tile's shfl_down) are the lesson's own tools. */
    static const char *const group_functions[] = {"reduce", "inclusive_scan", "exclusive_scan"};
    for (long at = find(fatbin, size, "18cooperative_groups", 0); at >= 0;) {
        size_t next = (size_t)at + strlen("18cooperative_groups");
        if (next + 5 <= size && memcmp(fatbin + next, "4__v", 4) == 0 && fatbin[next + 4] >= '0' &&
            fatbin[next + 4] <= '9')
            next += 5;
        size_t len = 0, name = next;
        while (name < size && fatbin[name] >= '0' && fatbin[name] <= '9' && len < 1000)
            len = 10 * len + (size_t)(fatbin[name++] - '0');
        for (size_t f = 0; f < sizeof group_functions / sizeof group_functions[0]; ++f) {
            const size_t flen = strlen(group_functions[f]);
            if (name > next && len >= flen && name + len <= size &&
                memcmp(fatbin + name, group_functions[f], flen) == 0) {
                snprintf(why, why_len, "cooperative groups' %.*s (in place of the shuffles)",
                         (int)len, (const char *)fatbin + name);
                return OWN_CODE_LIBRARY;
            }
        }
        const long rest = find(fatbin + next, size - next, "18cooperative_groups", 0);
        at = rest < 0 ? -1 : (long)next + rest;
    }
    snprintf(why, why_len, "the device code of %s holds no CUB, thrust or cooperative groups' "
             "reduce or scan", source);
    return OWN_CODE_OWN;
}

own_code_verdict own_code_check(const char *source, char *why, size_t why_len)
{
    int named = 0;
    char reason[640] = "";
    for (int i = 0; i < registered_count; ++i) {
        const own_code_verdict v = own_code_scan(registered[i].bytes, registered[i].size,
                                                 source, reason, sizeof reason);
        if (v == OWN_CODE_LIBRARY) {
            snprintf(why, why_len, "%s", reason);
            return v;
        }
        if (v == OWN_CODE_OWN)
            ++named;
        else if (strstr(reason, "compressed")) {
            snprintf(why, why_len, "%s", reason);
            return v;
        }
    }
    if (named == 0) {
        snprintf(why, why_len, "none of the %d device code blocks this program registered "
                 "names %s (is the grader linked with --wrap=__cudaRegisterFatBinary, and "
                 "compiled with -lineinfo?)", registered_count, source);
        return OWN_CODE_UNREADABLE;
    }
    snprintf(why, why_len, "the device code of %s holds no CUB, thrust or cooperative groups' "
             "reduce or scan", source);
    return OWN_CODE_OWN;
}

int own_code_grade(const char *source, const char *lesson)
{
    char why[640];
    switch (own_code_check(source, why, sizeof why)) {
    case OWN_CODE_OWN:
        printf("  %s\n", why);
        return 1;
    case OWN_CODE_LIBRARY:
        printf("FAIL: the compiled code of %s holds a library's: %s. %s\n", source, why, lesson);
        return 0;
    default:
        printf("SKIPPED: the compiled code of %s cannot be read here: %s\n", source, why);
        fflush(stdout);
        exit(TUT_EXIT_SKIP);
    }
}
