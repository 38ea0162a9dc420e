/* CPU tests of the id file (id_file.h) in a fresh folder under the build's temporary directory:
 * rank 0 writes, a rank reads; two rank 0s; a count that differs; another launch's file, stale
 * or not; a truncated file; nothing at all; the deadline's option and variable. No GPU, no NCCL:
 * the id is 128 bytes of anything, as NCCL's is. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "id_file.h"
#include "options.h"
#include "unit_test.h"

#define ID_SIZE 128

static char dir[512], path[600];
static char id[ID_SIZE];

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void fresh(const char *name)
{
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    for (int k = 0; k < ID_SIZE; ++k)
        id[k] = (char)(k * 7 + 3);
}

static void write_raw(const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    EXPECT(f && fwrite(data, 1, len, f) == len);
    if (f)
        fclose(f);
}

/* A reader's wait with a short deadline; the result, *took (seconds) and the message. */
static tut_id_result wait_for(const tut_id_stamp *mine, time_t not_before, double timeout,
                              char *got_id, char *why, double *took)
{
    tut_id_stamp found;
    const double t0 = now_s();
    const tut_id_result r = tut_id_wait(path, mine, not_before, timeout, got_id, ID_SIZE, &found,
                                        why, 1024);
    *took = now_s() - t0;
    return r;
}

static void test_format(void)
{
    tut_id_stamp s, back;
    tut_id_stamp_init(&s, 2, "77.2", 0);
    char data[1024];
    const long len = tut_id_format(&s, id, ID_SIZE, data, sizeof data);
    EXPECT(len > ID_SIZE && strncmp(data, "nccl-id ranks=2 launch=77.2 host=", 33) == 0);
    long at = 0;
    EXPECT(tut_id_parse(data, (size_t)len, ID_SIZE, &back, &at) == 0);
    EXPECT(back.ranks == 2 && strcmp(back.launch, "77.2") == 0 && back.pid == (long)getpid() &&
           strcmp(back.host, s.host) == 0 && memcmp(data + at, id, ID_SIZE) == 0);
    for (long cut = 0; cut < len; ++cut) /* every truncation is refused */
        EXPECT(tut_id_parse(data, (size_t)cut, ID_SIZE, &back, &at) == -1);
    EXPECT(tut_id_parse(data, (size_t)len + 1, ID_SIZE, &back, &at) == -1);
    EXPECT(tut_id_parse(id, ID_SIZE, ID_SIZE, &back, &at) == -1); /* a bare id */
    EXPECT(tut_id_parse(NULL, 0, ID_SIZE, &back, &at) == -1);
    /* the format before the rank count: refused */
    char old[256];
    const int old_len = snprintf(old, sizeof old, "nccl-id launch=77.2\n");
    memcpy(old + old_len, id, ID_SIZE);
    EXPECT(tut_id_parse(old, (size_t)old_len + ID_SIZE, ID_SIZE, &back, &at) == -1);
    /* no launcher: rank 0 draws a random name, the others know none */
    tut_id_stamp r0, r1, r0b;
    tut_id_stamp_init(&r0, 2, "", 0);
    tut_id_stamp_init(&r0b, 2, NULL, 0);
    tut_id_stamp_init(&r1, 2, "", 1);
    EXPECT(strncmp(r0.launch, TUT_ID_RANDOM_PREFIX, strlen(TUT_ID_RANDOM_PREFIX)) == 0);
    EXPECT(strcmp(r0.launch, r0b.launch) != 0 && r1.launch[0] == '\0');
    tut_id_stamp spaced;
    tut_id_stamp_init(&spaced, 2, "a b", 0);
    EXPECT(tut_id_format(&spaced, id, ID_SIZE, data, sizeof data) == -1);
}

static void test_write_read(void)
{
    fresh("ok");
    tut_id_stamp r0, r1, found;
    tut_id_stamp_init(&r0, 3, "77.2", 0);
    tut_id_stamp_init(&r1, 3, "77.2", 1);
    char why[1024], got[ID_SIZE];
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    double took = 0;
    EXPECT(wait_for(&r1, time(NULL) - 60, 5.0, got, why, &took) == TUT_ID_OK);
    EXPECT(memcmp(got, id, ID_SIZE) == 0 && took < 1.0);
    /* no temporary file is left beside it */
    char tmp[800];
    snprintf(tmp, sizeof tmp, "%s.%s.%ld.tmp", path, r0.host, (long)getpid());
    EXPECT(access(tmp, F_OK) != 0);
    /* one a dead process of the same host and pid left does not stop rank 0 */
    fresh("leftover");
    snprintf(tmp, sizeof tmp, "%s.%s.%ld.tmp", path, r0.host, (long)getpid());
    FILE *left = fopen(tmp, "wb");
    EXPECT(left != NULL);
    if (left)
        fclose(left);
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    EXPECT(access(tmp, F_OK) != 0 && tut_id_remove_own(path, &r0, ID_SIZE) == 1);
    fresh("ok");
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    /* only its writer removes it (a reader is another process) */
    r1.pid += 1;
    EXPECT(tut_id_remove_own(path, &r1, ID_SIZE) == 0 && access(path, F_OK) == 0);
    EXPECT(tut_id_remove_own(path, &r0, ID_SIZE) == 1 && access(path, F_OK) != 0);
    /* no launcher names the launch: the reader takes a fresh file of rank 0's random name */
    fresh("random");
    tut_id_stamp_init(&r0, 2, "", 0);
    tut_id_stamp_init(&r1, 2, "", 1);
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    EXPECT(wait_for(&r1, time(NULL) - 60, 5.0, got, why, &took) == TUT_ID_OK);
    EXPECT(tut_id_remove_own(path, &r0, ID_SIZE) == 1);
}

/* Two processes given rank 0: the second is refused at once and leaves the file alone. */
static void test_two_rank0(void)
{
    fresh("two");
    tut_id_stamp a, b, found;
    tut_id_stamp_init(&a, 2, "77.2", 0);
    tut_id_stamp_init(&b, 2, "77.2", 0);
    b.pid += 1; /* another process */
    char why[1024];
    EXPECT(tut_id_publish(path, &a, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    EXPECT(tut_id_publish(path, &b, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_TAKEN);
    EXPECT(strstr(why, "two processes were given rank 0") && found.pid == a.pid);
    EXPECT(tut_id_remove_own(path, &b, ID_SIZE) == 0 && access(path, F_OK) == 0);
    /* the file a's own link() made, reported as EEXIST (NFS resends a link whose reply was
     * lost): a's, so a wrote it; another id under a's name is still refused */
    EXPECT(tut_id_publish(path, &a, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    id[0] ^= 1;
    EXPECT(tut_id_publish(path, &a, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_TAKEN);
    id[0] ^= 1;
    /* with no launcher's name, a file that is there is refused too (whose it is, no one knows) */
    fresh("two-random");
    tut_id_stamp_init(&a, 2, "", 0);
    tut_id_stamp_init(&b, 2, "", 0);
    EXPECT(tut_id_publish(path, &a, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    EXPECT(tut_id_publish(path, &b, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_TAKEN);
    EXPECT(strstr(why, "already exists") && strstr(why, "remove it"));
    /* a file that is no id file at all */
    fresh("junk");
    write_raw("hello\n", 6);
    tut_id_stamp_init(&a, 2, "77.2", 0);
    EXPECT(tut_id_publish(path, &a, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_TAKEN);
    EXPECT(strstr(why, "not an id file") != NULL && found.ranks == 0);
}

/* Ranks given different counts: the reader refuses at once, naming both counts. */
static void test_count_mismatch(void)
{
    fresh("count");
    tut_id_stamp r0, r1, found;
    tut_id_stamp_init(&r0, 2, "77.2", 0);
    tut_id_stamp_init(&r1, 3, "77.2", 1);
    char why[1024], got[ID_SIZE];
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    double took = 0;
    EXPECT(wait_for(&r1, time(NULL) - 60, 5.0, got, why, &took) == TUT_ID_COUNT_MISMATCH);
    EXPECT(took < 1.0 && strstr(why, "for 2 ranks") && strstr(why, "one of 3"));
    fresh("count-random");
    tut_id_stamp_init(&r0, 3, "", 0);
    tut_id_stamp_init(&r1, 2, "", 1);
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    EXPECT(wait_for(&r1, time(NULL) - 60, 5.0, got, why, &took) == TUT_ID_COUNT_MISMATCH);
}

/* An earlier launch's file: rank 0 of a named launch replaces it; a reader waits for this
 * launch's and, at the deadline, says whose file it found. */
static void test_stale(void)
{
    fresh("stale");
    tut_id_stamp old, r0, r1, found;
    tut_id_stamp_init(&old, 2, "76.0", 0);
    tut_id_stamp_init(&r0, 2, "77.2", 0);
    tut_id_stamp_init(&r1, 2, "77.2", 1);
    char why[1024], got[ID_SIZE];
    EXPECT(tut_id_publish(path, &old, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    double took = 0;
    const tut_id_result r = wait_for(&r1, time(NULL) - 60, 0.3, got, why, &took);
    EXPECT(r == TUT_ID_OTHER_LAUNCH && took >= 0.3 && took < 2.0);
    EXPECT(strstr(why, "another launch's NCCL id") && strstr(why, "launch 76.0"));
    id[0] ^= 1;
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    EXPECT(wait_for(&r1, time(NULL) - 60, 5.0, got, why, &took) == TUT_ID_OK);
    EXPECT(memcmp(got, id, ID_SIZE) == 0);
    /* no launcher's name: a file from before this rank started (less a minute) is stale */
    fresh("stale-random");
    tut_id_stamp_init(&old, 2, "", 0);
    tut_id_stamp_init(&r1, 2, "", 1);
    EXPECT(tut_id_publish(path, &old, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_OK);
    EXPECT(wait_for(&r1, time(NULL) + 5, 0.3, got, why, &took) == TUT_ID_OTHER_LAUNCH);
}

static void test_truncated_and_missing(void)
{
    fresh("truncated");
    tut_id_stamp r0, r1, found;
    tut_id_stamp_init(&r0, 2, "77.2", 0);
    tut_id_stamp_init(&r1, 2, "77.2", 1);
    char data[1024], why[1024], got[ID_SIZE];
    const long len = tut_id_format(&r0, id, ID_SIZE, data, sizeof data);
    write_raw(data, (size_t)len - 5);
    double took = 0;
    EXPECT(wait_for(&r1, time(NULL) - 60, 0.3, got, why, &took) == TUT_ID_INCOMPLETE);
    EXPECT(strstr(why, "not a whole NCCL id file") && took < 2.0);
    fresh("missing");
    EXPECT(wait_for(&r1, time(NULL) - 60, 0.3, got, why, &took) == TUT_ID_TIMEOUT);
    EXPECT(took >= 0.3 && took < 2.0 && strstr(why, "no NCCL id in") &&
           strstr(why, "node-local /tmp") && strstr(why, path));
    /* a folder that does not exist: rank 0 cannot write, and says where */
    snprintf(path, sizeof path, "%s/no/such/folder/id", dir);
    EXPECT(tut_id_publish(path, &r0, id, ID_SIZE, &found, why, sizeof why) == TUT_ID_IO);
    EXPECT(strstr(why, "cannot create") != NULL);
}

static void test_timeout_setting(void)
{
    char why[256] = "";
    EXPECT(tut_id_timeout(10, "30", "T", 60, why, sizeof why) == 10); /* the option wins */
    EXPECT(tut_id_timeout(0, "30", "T", 60, why, sizeof why) == 30);
    EXPECT(tut_id_timeout(0, NULL, "T", 60, why, sizeof why) == 60);
    EXPECT(tut_id_timeout(0, "", "T", 60, why, sizeof why) == 60);
    EXPECT(tut_id_timeout(0, "0", "T", 60, why, sizeof why) == -1 && strstr(why, "T=0"));
    EXPECT(tut_id_timeout(0, "5s", "T", 60, why, sizeof why) == -1);
    EXPECT(tut_id_timeout(0, "-3", "T", 60, why, sizeof why) == -1);
}

int main(int argc, char **argv)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/tut-id-file-XXXXXX", base);
    if (!mkdtemp(dir)) {
        fprintf(stderr, "cannot make a folder under %s\n", base);
        return 2;
    }
    static const tut_test_group groups[] = {
        {"format", test_format},       {"write_read", test_write_read},
        {"two_rank0", test_two_rank0}, {"count_mismatch", test_count_mismatch},
        {"stale", test_stale},         {"truncated_and_missing", test_truncated_and_missing},
        {"timeout_setting", test_timeout_setting},
    };
    const int code = tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
    char command[700];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    if (system(command) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return code;
}
