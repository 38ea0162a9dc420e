#include "events_csv.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CSV_HEADER "user_id,timestamp"
#define UTF8_BOM "\xEF\xBB\xBF"
#define CSV_MAX_LINE 256 /* two int64 need at most 41 characters; the rest is slack for spaces */

/* Strips the line ending (\n or \r\n) and surrounding blanks, in place. */
static char *trim(char *s)
{
    size_t len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        s[--len] = '\0';
    while (isspace((unsigned char)*s))
        ++s;
    return s;
}

/* Parses one whole field as an int64; -1 with a message when it is not exactly that. */
static int parse_field(const char *path, size_t line, const char *name, char *text,
                       int64_t *out, char *err, size_t err_len)
{
    text = trim(text);
    if (*text == '\0') {
        snprintf(err, err_len, "%s:%zu: the %s field is empty", path, line, name);
        return -1;
    }
    char *end = NULL;
    errno = 0;
    const long long v = strtoll(text, &end, 10);
    if (end == text || *end != '\0') {
        snprintf(err, err_len, "%s:%zu: %s is not an integer: '%s'", path, line, name, text);
        return -1;
    }
    if (errno == ERANGE) {
        snprintf(err, err_len, "%s:%zu: %s is outside the int64 range: '%s'", path, line, name,
                 text);
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

static int grow(event_table *t, size_t *capacity)
{
    const size_t new_capacity = *capacity ? 2 * *capacity : 1024;
    int64_t *user = (int64_t *)realloc(t->user, new_capacity * sizeof *user);
    if (!user)
        return -1;
    t->user = user;
    int64_t *ts = (int64_t *)realloc(t->ts, new_capacity * sizeof *ts);
    if (!ts)
        return -1;
    t->ts = ts;
    *capacity = new_capacity;
    return 0;
}

int read_events_csv(const char *path, event_table *events, char *err, size_t err_len)
{
    event_table t = {NULL, NULL, 0};
    size_t capacity = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char buf[CSV_MAX_LINE];
    size_t line = 0;
    int ok = 1;
    while (ok && fgets(buf, sizeof buf, f)) {
        ++line;
        if (strchr(buf, '\n') == NULL && !feof(f)) {
            snprintf(err, err_len, "%s:%zu: line longer than %d characters", path, line,
                     CSV_MAX_LINE - 2);
            ok = 0;
            break;
        }
        char *text = buf;
        /* Spreadsheets ("CSV UTF-8") begin the file with a UTF-8 byte-order mark: skip it. */
        if (line == 1 && strncmp(text, UTF8_BOM, 3) == 0)
            text += 3;
        text = trim(text);
        if (line == 1) {
            if (strcmp(text, CSV_HEADER) != 0) {
                snprintf(err, err_len, "%s:1: expected the header '%s', found '%s'", path,
                         CSV_HEADER, text);
                ok = 0;
            }
            continue;
        }
        char *comma = strchr(text, ',');
        if (*text == '\0' || comma == NULL) {
            snprintf(err, err_len, "%s:%zu: expected 2 columns (user_id,timestamp), found %s",
                     path, line, *text ? "1" : "an empty line");
            ok = 0;
            break;
        }
        if (strchr(comma + 1, ',') != NULL) {
            snprintf(err, err_len, "%s:%zu: expected 2 columns (user_id,timestamp), found more",
                     path, line);
            ok = 0;
            break;
        }
        *comma = '\0';
        int64_t user, ts;
        if (parse_field(path, line, "user_id", text, &user, err, err_len) != 0 ||
            parse_field(path, line, "timestamp", comma + 1, &ts, err, err_len) != 0) {
            ok = 0;
            break;
        }
        if (t.n == capacity && grow(&t, &capacity) != 0) {
            snprintf(err, err_len, "%s:%zu: out of host memory after %zu events", path, line, t.n);
            ok = 0;
            break;
        }
        t.user[t.n] = user;
        t.ts[t.n] = ts;
        ++t.n;
    }
    if (ok && ferror(f)) {
        snprintf(err, err_len, "%s:%zu: read error", path, line + 1);
        ok = 0;
    }
    fclose(f);
    if (ok && line == 0) {
        snprintf(err, err_len, "%s:1: the file is empty (expected the header '%s')", path,
                 CSV_HEADER);
        ok = 0;
    } else if (ok && t.n == 0) {
        snprintf(err, err_len, "%s:2: no events after the header", path);
        ok = 0;
    }
    if (!ok) {
        free_event_table(&t);
        return -1;
    }
    *events = t;
    return 0;
}

void free_event_table(event_table *events)
{
    free(events->user);
    free(events->ts);
    events->user = events->ts = NULL;
    events->n = 0;
}

int write_sessions_csv(const char *path, const int64_t *user, const int64_t *ts,
                       const int64_t *label, size_t n, char *err, size_t err_len)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, err_len, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "user_id,timestamp,session_id\n");
    for (size_t i = 0; i < n; ++i)
        fprintf(f, "%" PRId64 ",%" PRId64 ",%" PRId64 "\n", user[i], ts[i], label[i]);
    if (fclose(f) != 0) {
        snprintf(err, err_len, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
