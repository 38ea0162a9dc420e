/* The grader's own SASS listing (own_sass.h). */
#define _POSIX_C_SOURCE 200809L
#include "own_sass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The cuobjdump that reads this binary: $TUT_CUOBJDUMP, else the toolkit's that CMake found
 * (TUT_CUOBJDUMP_PATH), else one on PATH. 0 if none. */
static int find_cuobjdump(char *path, size_t len)
{
    const char *env = getenv("TUT_CUOBJDUMP");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return access(path, X_OK) == 0;
    }
#ifdef TUT_CUOBJDUMP_PATH
    snprintf(path, len, "%s", TUT_CUOBJDUMP_PATH);
    if (access(path, X_OK) == 0)
        return 1;
#endif
    const char *dirs = getenv("PATH");
    while (dirs && *dirs) {
        const size_t n = strcspn(dirs, ":");
        snprintf(path, len, "%.*s/cuobjdump", (int)n, dirs);
        if (n > 0 && access(path, X_OK) == 0)
            return 1;
        dirs += n + (dirs[n] == ':');
    }
    return 0;
}

char *own_sass_read(char *tool_out, size_t tool_len, char *why, size_t why_len)
{
    char tool[1024], self[1024], command[2200];
    if (!find_cuobjdump(tool, sizeof tool)) {
        snprintf(why, why_len, "no cuobjdump (the CUDA toolkit's; set TUT_CUOBJDUMP=<path>)");
        return NULL;
    }
    if (tool_out && tool_len)
        snprintf(tool_out, tool_len, "%s", tool);
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(why, why_len, "cannot find this grader's own binary (/proc/self/exe)");
        return NULL;
    }
    self[n] = '\0';
    if (strchr(tool, '\'') || strchr(self, '\'')) {
        snprintf(why, why_len, "a quote in the path of cuobjdump or of the grader");
        return NULL;
    }
    /* cuobjdump -sass runs nvdisasm, which sits beside it in the toolkit. */
    if (!getenv("NVDISASM_PATH")) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s", tool);
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
            setenv("NVDISASM_PATH", dir, 0);
        }
    }
    snprintf(command, sizeof command, "'%s' -sass '%s' 2>&1", tool, self);
    fflush(stdout);
    FILE *pipe = popen(command, "r");
    if (!pipe) {
        snprintf(why, why_len, "cannot run cuobjdump");
        return NULL;
    }
    size_t size = 0, capacity = 1 << 20;
    char *sass = (char *)malloc(capacity);
    while (sass) {
        if (size + 4096 + 1 > capacity) {
            char *bigger = (char *)realloc(sass, capacity *= 2);
            if (!bigger)
                free(sass);
            sass = bigger;
        }
        if (!sass)
            break;
        const size_t got = fread(sass + size, 1, 4096, pipe);
        size += got;
        if (got == 0)
            break;
    }
    const int status = pclose(pipe);
    if (!sass) {
        fprintf(stderr, "out of memory reading cuobjdump's listing\n");
        exit(2);
    }
    sass[size] = '\0';
    if (status != 0) {
        snprintf(why, why_len, "cuobjdump -sass failed: %.300s", sass);
        free(sass);
        return NULL;
    }
    return sass;
}

char *own_sass_load(const char *path, char *why, size_t why_len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_len, "cannot open %s", path);
        return NULL;
    }
    char *text = NULL;
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        text = (char *)malloc((size_t)size + 1);
    if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
        snprintf(why, why_len, "cannot read %s", path);
        free(text);
        fclose(f);
        return NULL;
    }
    text[size] = '\0';
    fclose(f);
    return text;
}

void own_sass_walk(const char *sass, own_sass_visit visit, void *user)
{
    char arch[32] = "", function[160] = "";
    const own_sass_place at = {.arch = arch, .function = function};
    int inside = 0; /* a function's header read since the last "code for" line */
    for (const char *line = sass; line && *line;) {
        const char *next = strchr(line, '\n');
        const size_t len = next ? (size_t)(next - line) : strlen(line);
        char buf[512];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        const char *header = strstr(buf, "Function : ");
        const char *code_for = strstr(buf, "code for ");
        if (header || code_for) {
            inside = 0;
            if (code_for) {
                snprintf(arch, sizeof arch, "%s", code_for + 9);
                function[0] = '\0';
            } else {
                snprintf(function, sizeof function, "%s", header + 11);
                function[strcspn(function, " \t\r")] = '\0';
                inside = 1;
                visit(user, &at, NULL);
            }
        } else if (inside && strchr(buf, ';')) {
            visit(user, &at, buf);
        }
        line = next ? next + 1 : NULL;
    }
}

typedef struct {
    const char *function, *prefix, *part;
    int found;  /* -1 until a function named is seen */
    int active; /* in a function named */
} count_state;

static void count_line(void *user, const own_sass_place *at, const char *line)
{
    count_state *s = (count_state *)user;
    if (!line) {
        s->active = strstr(at->function, s->function) != NULL;
        if (s->active && s->found < 0)
            s->found = 0;
        return;
    }
    if (!s->active)
        return;
    /* The address in a comment, a guard (@P0) perhaps, then the opcode (LDG.E.128) and its
     * operands up to the semicolon. */
    const char *p = strstr(line, "*/");
    p = p ? p + 2 : line;
    while (*p == ' ' || *p == '\t')
        ++p;
    if (*p == '@')
        p += strcspn(p, " \t");
    while (*p == ' ' || *p == '\t')
        ++p;
    const size_t op_len = strcspn(p, " \t;");
    char opcode[64];
    snprintf(opcode, sizeof opcode, "%.*s", (int)(op_len < 63 ? op_len : 63), p);
    if (strncmp(opcode, s->prefix, strlen(s->prefix)) == 0 && strstr(opcode, s->part))
        ++s->found;
}

int own_sass_count(const char *sass, const char *function, const char *prefix, const char *part)
{
    count_state s = {.function = function, .prefix = prefix, .part = part, .found = -1};
    own_sass_walk(sass, count_line, &s);
    return s.found;
}
