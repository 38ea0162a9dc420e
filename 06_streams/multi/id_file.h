/* The file that carries NCCL's unique id from rank 0 to the other ranks of one launch (one
 * process per GPU, started by srun or mpirun), and the rules that keep a wrong launch from
 * hanging: every wait has a deadline, and every refusal says what went wrong.
 *
 * The file: one text line, then the id's bytes:
 *     nccl-id ranks=<N> launch=<L> host=<H> pid=<P>\n<id_size bytes>
 * N: the rank count rank 0 was given; L: the launch's name (the launcher's, e.g. Slurm's
 * job.step, or "random-<hex>" that rank 0 drew when the launcher gives none: the other ranks
 * then know it only from this file); H and P: who wrote it (for the messages).
 *
 * Rank 0 creates the file exclusively (written under a temporary name, then link()ed to the
 * path, which fails if the path exists): no reader ever sees half a file, and a second process
 * that claims rank 0 is refused at once. Plain C (POSIX file calls, no CUDA, no NCCL): the CPU
 * tests (id_file_tests.c) run every case. */
#ifndef TUTORIAL_ID_FILE_H
#define TUTORIAL_ID_FILE_H

#include <stddef.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TUT_ID_RANDOM_PREFIX "random-"

typedef struct {
    int ranks;
    char launch[128]; /* the launcher's name of the launch, or random-<hex> */
    char host[64];
    long pid;
} tut_id_stamp;

typedef enum {
    TUT_ID_OK = 0,
    TUT_ID_TAKEN,          /* rank 0: the path already holds a file (another rank 0's) */
    TUT_ID_COUNT_MISMATCH, /* this launch's file, for another rank count */
    TUT_ID_OTHER_LAUNCH,   /* at the deadline: only another launch's file (stale or foreign) */
    TUT_ID_INCOMPLETE,     /* at the deadline: a file that is not a whole id file */
    TUT_ID_TIMEOUT,        /* at the deadline: no file at all */
    TUT_ID_IO              /* cannot write or read the path */
} tut_id_result;

/* A stamp for this process: ranks, the launcher's name of the launch ("" or NULL when it gives
 * none: rank 0 then draws a random one, the others leave it "" and cannot check it), this host
 * and pid. */
void tut_id_stamp_init(tut_id_stamp *s, int ranks, const char *launch_token, int rank);

/* The whole file in out[] (returns its length; -1 if out is too small or a field does not fit). */
long tut_id_format(const tut_id_stamp *s, const void *id, size_t id_size, char *out, size_t len);
/* Parses a file's data: 0 and *s, *id_at (where the id starts) for a whole file of exactly
 * id_size id bytes; -1 when it is not one (truncated, too long, another format). */
int tut_id_parse(const char *data, size_t len, size_t id_size, tut_id_stamp *s, long *id_at);

/* Rank 0: writes the file exclusively. TUT_ID_OK, or TUT_ID_TAKEN with *found (the file that is
 * there; found->ranks is 0 if unreadable) and why[]: another rank 0 of this launch, or a file an
 * earlier launch left (a file of another launcher-named launch is replaced: the launcher says
 * it is stale), or TUT_ID_IO with why[]. */
tut_id_result tut_id_publish(const char *path, const tut_id_stamp *mine, const void *id,
                             size_t id_size, tut_id_stamp *found, char *why, size_t why_len);

/* The other ranks: waits up to timeout_s for rank 0's file of this launch (polling every 10
 * ms), copies the id into id[] and returns TUT_ID_OK. A file of this launch for another rank
 * count: TUT_ID_COUNT_MISMATCH at once. Another launch's file (or, when no launcher names the
 * launch, a file older than not_before): passed over, the wait goes on (rank 0 replaces it);
 * at the deadline TUT_ID_OTHER_LAUNCH, TUT_ID_INCOMPLETE or TUT_ID_TIMEOUT. why[] names the path,
 * what was found and the likely cause. *found: the last file read. */
tut_id_result tut_id_wait(const char *path, const tut_id_stamp *mine, time_t not_before,
                          double timeout_s, void *id, size_t id_size, tut_id_stamp *found,
                          char *why, size_t why_len);

/* Rank 0, when the id is used up (or the launch failed): removes the file if it is still the
 * one `mine` wrote (same launch, host and pid). Returns 1 if removed. */
int tut_id_remove_own(const char *path, const tut_id_stamp *mine, size_t id_size);

/* The deadline in seconds: the option's value if given (> 0), else the environment variable
 * env_name (whole seconds, 1 .. 86400), else fallback. Returns -1 with why[] for a bad value. */
double tut_id_timeout(double option, const char *env_text, const char *env_name,
                      double fallback, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif

#endif
