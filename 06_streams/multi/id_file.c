/* The id file of a one-process-per-GPU launch: id_file.h says what each function does. */
#define _POSIX_C_SOURCE 200809L
#include "id_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER_MAX 512

static int is_random(const char *launch)
{
    return strncmp(launch, TUT_ID_RANDOM_PREFIX, strlen(TUT_ID_RANDOM_PREFIX)) == 0;
}

/* A launch name that never repeats: the clock's nanoseconds, the pid and /dev/urandom. */
static void random_launch(char *out, size_t len)
{
    unsigned long long bits = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&bits, sizeof bits, 1, f) != 1)
        bits = 0;
    if (f)
        fclose(f);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    bits ^= (unsigned long long)now.tv_nsec * 0x9E3779B97F4A7C15ull ^
            ((unsigned long long)now.tv_sec << 20) ^ (unsigned long long)getpid();
    snprintf(out, len, "%s%016llx", TUT_ID_RANDOM_PREFIX, bits);
}

void tut_id_stamp_init(tut_id_stamp *s, int ranks, const char *launch_token, int rank)
{
    memset(s, 0, sizeof *s);
    s->ranks = ranks;
    if (launch_token && launch_token[0])
        snprintf(s->launch, sizeof s->launch, "%s", launch_token);
    else if (rank == 0)
        random_launch(s->launch, sizeof s->launch);
    if (gethostname(s->host, sizeof s->host - 1) != 0 || !s->host[0])
        snprintf(s->host, sizeof s->host, "unknown");
    for (char *c = s->host; *c; ++c) /* one word: the header is split at spaces */
        if (*c == ' ' || *c == '\n')
            *c = '_';
    s->pid = (long)getpid();
}

long tut_id_format(const tut_id_stamp *s, const void *id, size_t id_size, char *out, size_t len)
{
    if (!s->launch[0] || strpbrk(s->launch, " \n"))
        return -1;
    const int head = snprintf(out, len, "nccl-id ranks=%d launch=%s host=%s pid=%ld\n", s->ranks,
                              s->launch, s->host, s->pid);
    if (head < 0 || (size_t)head >= len || (size_t)head >= HEADER_MAX || len - (size_t)head < id_size)
        return -1;
    memcpy(out + head, id, id_size);
    return (long)(head + id_size);
}

int tut_id_parse(const char *data, size_t len, size_t id_size, tut_id_stamp *s, long *id_at)
{
    const char *newline = data ? memchr(data, '\n', len < HEADER_MAX ? len : HEADER_MAX) : NULL;
    if (!newline)
        return -1;
    char head[HEADER_MAX];
    const size_t head_len = (size_t)(newline - data);
    memcpy(head, data, head_len);
    head[head_len] = '\0';
    tut_id_stamp got;
    memset(&got, 0, sizeof got);
    int used = 0;
    if (sscanf(head, "nccl-id ranks=%d launch=%127s host=%63s pid=%ld%n", &got.ranks, got.launch,
               got.host, &got.pid, &used) != 4 || (size_t)used != head_len || got.ranks < 1)
        return -1;
    if (len != head_len + 1 + id_size)
        return -1;
    *s = got;
    *id_at = (long)(head_len + 1);
    return 0;
}

/* Reads the whole file (at most len bytes) into data; its size, or -1 if it cannot be opened. */
static long read_all(const char *path, char *data, size_t len, time_t *mtime)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    struct stat st;
    *mtime = fstat(fileno(f), &st) == 0 ? st.st_mtime : 0;
    const size_t got = fread(data, 1, len, f);
    fclose(f);
    return (long)got;
}

/* "launch L, N ranks, written by pid P on host H" */
static void describe(const tut_id_stamp *s, char *out, size_t len)
{
    snprintf(out, len, "launch %s, %d rank%s, written by pid %ld on host %s", s->launch, s->ranks,
             s->ranks == 1 ? "" : "s", s->pid, s->host);
}

/* Writes data to a new file beside path, then links it to path (fails if path exists). */
static int create_exclusive(const char *path, const char *data, size_t len, char *why,
                            size_t why_len)
{
    /* A name no other live process uses, on a file system several hosts share too (a pid
     * alone repeats across hosts); one left by a dead process of the same host and pid is
     * overwritten */
    char tmp[4096], host[64] = "";
    if (gethostname(host, sizeof host - 1) != 0)
        snprintf(host, sizeof host, "unknown");
    for (char *c = host; *c; ++c)
        if (*c == '/')
            *c = '_';
    if (snprintf(tmp, sizeof tmp, "%s.%s.%ld.tmp", path, host, (long)getpid()) >=
        (int)sizeof tmp) {
        snprintf(why, why_len, "the path %s is too long", path);
        return -1;
    }
    const int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        snprintf(why, why_len, "cannot create %s (%s)", tmp, strerror(errno));
        return -1;
    }
    const ssize_t wrote = write(fd, data, len);
    const int synced = fsync(fd) == 0;
    close(fd);
    if (wrote != (ssize_t)len || !synced) {
        snprintf(why, why_len, "cannot write %s (%s)", tmp, strerror(errno));
        unlink(tmp);
        return -1;
    }
    const int linked = link(tmp, path);
    const int link_errno = errno;
    unlink(tmp);
    if (linked == 0)
        return 0;
    if (link_errno == EEXIST)
        return 1;
    /* A file system without hard links: create the path itself exclusively. A reader may then
     * see it half written, and waits (tut_id_parse refuses it) until it is whole. */
    const int fd2 = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd2 < 0) {
        if (errno == EEXIST)
            return 1;
        snprintf(why, why_len, "cannot create %s (%s)", path, strerror(errno));
        return -1;
    }
    const ssize_t wrote2 = write(fd2, data, len);
    close(fd2);
    if (wrote2 != (ssize_t)len) {
        snprintf(why, why_len, "cannot write %s (%s)", path, strerror(errno));
        unlink(path);
        return -1;
    }
    return 0;
}

tut_id_result tut_id_publish(const char *path, const tut_id_stamp *mine, const void *id,
                             size_t id_size, tut_id_stamp *found, char *why, size_t why_len)
{
    char data[HEADER_MAX + 1024];
    memset(found, 0, sizeof *found);
    const long len = tut_id_format(mine, id, id_size, data, sizeof data);
    if (len < 0) {
        snprintf(why, why_len, "the launch's name (%s) does not fit in the id file", mine->launch);
        return TUT_ID_IO;
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
        const int made = create_exclusive(path, data, (size_t)len, why, why_len);
        if (made < 0)
            return TUT_ID_IO;
        if (made == 0)
            return TUT_ID_OK;
        char there[HEADER_MAX + 1024], who[512];
        time_t mtime = 0;
        long id_at = 0;
        const long got = read_all(path, there, sizeof there, &mtime);
        if (got >= 0 && tut_id_parse(there, (size_t)got, id_size, found, &id_at) == 0) {
            describe(found, who, sizeof who);
            if (strcmp(found->launch, mine->launch) == 0 && strcmp(found->host, mine->host) == 0 &&
                found->pid == mine->pid && memcmp(there + id_at, id, id_size) == 0)
                return TUT_ID_OK; /* our own file: on NFS a link() whose reply was lost is
                                     sent again and then fails with EEXIST */
            if (strcmp(found->launch, mine->launch) == 0) {
                snprintf(why, why_len, "%s already holds this launch's NCCL id (%s): two "
                         "processes were given rank 0. Every rank needs its own number "
                         "(SLURM_PROCID, OMPI_COMM_WORLD_RANK, PMI_RANK): start them all with one "
                         "srun or mpirun. (If no other process is running, an earlier run given "
                         "the same launch name left the file: remove it.)", path, who);
                return TUT_ID_TAKEN;
            }
            if (!is_random(mine->launch) && !is_random(found->launch) && attempt == 0) {
                /* the launcher names both launches and they differ: an earlier launch's file */
                fprintf(stderr, "rank 0: replacing %s, an earlier launch's id file (%s)\n", path,
                        who);
                /* Moved aside (rename is atomic) and read again before it is deleted: what was
                 * read above may since have been replaced by another rank 0 of this launch,
                 * whose file goes back, and this one is the second rank 0. */
                char aside[4200];
                snprintf(aside, sizeof aside, "%s.%s.%ld.old", path, mine->host, mine->pid);
                if (rename(path, aside) != 0) {
                    if (errno == ENOENT)
                        continue;
                    snprintf(why, why_len, "cannot remove the earlier launch's %s (%s)", path,
                             strerror(errno));
                    return TUT_ID_IO;
                }
                tut_id_stamp moved;
                const long got_aside = read_all(aside, there, sizeof there, &mtime);
                if (got_aside >= 0 &&
                    tut_id_parse(there, (size_t)got_aside, id_size, &moved, &id_at) == 0 &&
                    strcmp(moved.launch, mine->launch) == 0) {
                    (void)link(aside, path);
                    unlink(aside);
                    *found = moved;
                    describe(found, who, sizeof who);
                    snprintf(why, why_len, "%s already holds this launch's NCCL id (%s): two "
                             "processes were given rank 0. Every rank needs its own number: "
                             "start them all with one srun or mpirun", path, who);
                    return TUT_ID_TAKEN;
                }
                unlink(aside);
                continue;
            }
        } else {
            snprintf(who, sizeof who, "not an id file of this program, or a half-written one");
            memset(found, 0, sizeof *found);
        }
        snprintf(why, why_len, "%s already exists (%s): another rank 0 is using it now, or an "
                 "earlier run left it. If no run is using it, remove it; or give each launch its "
                 "own --id-file", path, who);
        return TUT_ID_TAKEN;
    }
    snprintf(why, why_len, "%s keeps coming back: another rank 0 of another launch is writing "
             "it; give each launch its own --id-file", path);
    return TUT_ID_TAKEN;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

tut_id_result tut_id_wait(const char *path, const tut_id_stamp *mine, time_t not_before,
                          double timeout_s, void *id, size_t id_size, tut_id_stamp *found,
                          char *why, size_t why_len)
{
    const double deadline = now_s() + timeout_s;
    const struct timespec pause = {.tv_sec = 0, .tv_nsec = 10000000};
    enum { NOTHING, FOREIGN, PARTIAL } seen = NOTHING;
    long partial_size = 0;
    int told = 0;
    memset(found, 0, sizeof *found);
    char who[512] = "";
    for (;;) {
        char data[HEADER_MAX + 1024];
        time_t mtime = 0;
        long id_at = 0;
        tut_id_stamp s;
        const long got = read_all(path, data, sizeof data, &mtime);
        if (got >= 0 && tut_id_parse(data, (size_t)got, id_size, &s, &id_at) == 0) {
            *found = s;
            describe(&s, who, sizeof who);
            const int ours = mine->launch[0] ? strcmp(s.launch, mine->launch) == 0
                                             : is_random(s.launch) && mtime >= not_before;
            if (ours && s.ranks != mine->ranks) {
                snprintf(why, why_len, "%s is this launch's NCCL id file for %d rank%s (%s), but "
                         "this rank was started as one of %d: every rank must be given the same "
                         "count. Start them all with one srun or mpirun (one -n)", path, s.ranks,
                         s.ranks == 1 ? "" : "s", who, mine->ranks);
                return TUT_ID_COUNT_MISMATCH;
            }
            if (ours) {
                memcpy(id, data + id_at, id_size);
                return TUT_ID_OK;
            }
            seen = FOREIGN;
            if (!told++)
                fprintf(stderr, "%s holds another launch's id (%s; this launch: %s): waiting for "
                        "this launch's rank 0 to replace it\n", path, who,
                        mine->launch[0] ? mine->launch : "unnamed, so only files written after "
                                                         "this rank started count");
        } else if (got >= 0 && seen != FOREIGN) {
            seen = PARTIAL;
            partial_size = got;
        }
        if (now_s() >= deadline)
            break;
        nanosleep(&pause, NULL);
    }
    if (seen == FOREIGN) {
        snprintf(why, why_len, "after %.0f s %s still holds another launch's NCCL id (%s; this "
                 "launch: %s): this launch's rank 0 did not write it (has it failed? see its "
                 "message), or an earlier run left the file. Remove it, or give each launch its "
                 "own --id-file", timeout_s, path, who, mine->launch[0] ? mine->launch : "unnamed");
        return TUT_ID_OTHER_LAUNCH;
    }
    if (seen == PARTIAL) {
        snprintf(why, why_len, "after %.0f s %s is not a whole NCCL id file (%ld bytes): another "
                 "program's file, or rank 0 died while writing it. Remove it and start again",
                 timeout_s, path, partial_size);
        return TUT_ID_INCOMPLETE;
    }
    snprintf(why, why_len, "no NCCL id in %s after %.0f s: rank 0 did not write it there. Did "
             "rank 0 start, or did it exit (see its message)? Is %s on a file system every node "
             "sees (not a node-local /tmp), and the same directory on every node?", path,
             timeout_s, path);
    return TUT_ID_TIMEOUT;
}

int tut_id_remove_own(const char *path, const tut_id_stamp *mine, size_t id_size)
{
    char data[HEADER_MAX + 1024];
    time_t mtime = 0;
    long id_at = 0;
    tut_id_stamp s;
    const long got = read_all(path, data, sizeof data, &mtime);
    if (got < 0 || tut_id_parse(data, (size_t)got, id_size, &s, &id_at) != 0 ||
        strcmp(s.launch, mine->launch) != 0 || strcmp(s.host, mine->host) != 0 ||
        s.pid != mine->pid)
        return 0;
    return unlink(path) == 0;
}

double tut_id_timeout(double option, const char *env_text, const char *env_name,
                      double fallback, char *why, size_t why_len)
{
    if (option > 0)
        return option;
    if (!env_text || !*env_text)
        return fallback;
    char *end = NULL;
    errno = 0;
    const long v = strtol(env_text, &end, 10);
    if (errno || *end || v < 1 || v > 86400) {
        snprintf(why, why_len, "%s=%s: give whole seconds from 1 to 86400", env_name, env_text);
        return -1;
    }
    return (double)v;
}
