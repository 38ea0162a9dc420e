#include "sessionize_cpu.h"

#include <stdlib.h>

#include "session_boundary.h"
#include "tutorial.h"

/* The document's data. Its timestamps were datetime64[ns] cast to int64 and its timeout 3600 was
 * meant as seconds: the comparison is on raw numbers, so we keep both raw. User 4's times go
 * backwards once (50001 then 15000): the document's labels treat that as "no timeout". */
const int64_t doc_user[DOC_EVENT_COUNT] = {
    1, 1, 1, 1, 1, 1,
    2, 2, 2,
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 4,
};
const int64_t doc_ts[DOC_EVENT_COUNT] = {
    1, 2, 3, 5000, 5001, 5002,
    1, 2, 3,
    1, 2, 5000, 5001, 10000, 10001, 10002, 10003, 15000, 150001,
    1, 5000, 50001, 15000, 20000, 25000, 25001, 25002, 25003,
};
const int64_t doc_expected_label[DOC_EVENT_COUNT] = {
    0, 0, 0, 3, 3, 3, 6, 6, 6, 9, 9, 11, 11, 13, 13, 13, 13, 17, 18, 19, 20, 21, 21, 23, 24, 24, 24, 24,
};

void sessionize_cpu(const int64_t *user, const int64_t *ts, size_t n, int64_t timeout,
                    int64_t *label)
{
    int64_t current = 0;
    for (size_t i = 0; i < n; ++i) {
        if (session_starts_at(user, ts, (int64_t)i, timeout))
            current = (int64_t)i;
        label[i] = current;
    }
}

static int event_less(int64_t u1, int64_t t1, int64_t u2, int64_t t2)
{
    return u1 < u2 || (u1 == u2 && t1 < t2);
}

size_t first_unsorted_cpu(const int64_t *user, const int64_t *ts, size_t n)
{
    for (size_t i = 1; i < n; ++i)
        if (event_less(user[i], ts[i], user[i - 1], ts[i - 1]))
            return i;
    return n;
}

typedef struct {
    int64_t user, ts, row;
} event_row;

/* qsort is not stable: the input row breaks ties, which makes it so. */
static int compare_rows(const void *a, const void *b)
{
    const event_row *x = (const event_row *)a, *y = (const event_row *)b;
    if (x->user != y->user)
        return x->user < y->user ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

void sort_events_cpu(int64_t *user, int64_t *ts, size_t n, int64_t *order)
{
    if (n == 0)
        return;
    event_row *rows = (event_row *)tut_host_alloc(tut_bytes(n, sizeof *rows, "sort rows"),
                                                  "sort rows");
    for (size_t i = 0; i < n; ++i) {
        rows[i].user = user[i];
        rows[i].ts = ts[i];
        rows[i].row = (int64_t)i;
    }
    qsort(rows, n, sizeof *rows, compare_rows);
    for (size_t i = 0; i < n; ++i) {
        user[i] = rows[i].user;
        ts[i] = rows[i].ts;
        if (order)
            order[i] = rows[i].row;
    }
    free(rows);
}

void generate_events(uint64_t seed, int shape, int64_t timeout, size_t n, int64_t *user,
                     int64_t *ts)
{
    tut_rng rng;
    tut_rng_seed(&rng, seed);
    /* Negative ids and times too: nothing in the rule assumes they are positive. */
    int64_t current_user = -(int64_t)tut_rng_below(&rng, 1u << 20);
    int64_t t = -(int64_t)tut_rng_below(&rng, 1u << 30);
    size_t left_for_user = 0;
    /* A timeout of 0 still needs gaps that do and do not exceed it. */
    const uint64_t span = timeout > 0 ? (uint64_t)timeout : 1;
    /* Small inputs must hold every kind of boundary too (31 events of one session test nothing):
     * users of 1 to n/8 events (4 at least, 80 at most, about 40 on average for large n), and
     * below DENSE_EVENTS the gap kinds in larger shares and a session start at the last event. */
    const uint64_t max_run = n / 8 < 4 ? 4 : n / 8 > 80 ? 80 : n / 8;
    const int dense = n < DENSE_EVENTS;
    const uint64_t past = dense ? 25 : 10, exact = dense ? 45 : 13, equal = dense ? 65 : 18;
    /* The single session starts after a few one-event sessions: at an index that is not 0 and
     * not a multiple of 32, so its label is a value a scan must carry, not the scan's 0. */
    const size_t lead = n > SINGLE_LEAD ? SINGLE_LEAD : n - 1;
    for (size_t i = 0; i < n; ++i) {
        if (shape == EVENTS_SINGLE_SESSION) {
            if (i < lead) {
                user[i] = (int64_t)i - 100;
                ts[i] = 0;
                continue;
            }
            user[i] = 7;
            /* Gaps of at most half the timeout: never a new session. */
            ts[i] = (int64_t)(i - lead) * (timeout / 2 < 1000 ? timeout / 2 : 1000);
            continue;
        }
        if (dense && n > 1 && i == n - 1)
            left_for_user = 0; /* a boundary at the last element */
        if (left_for_user == 0) {
            current_user += 1 + (int64_t)tut_rng_below(&rng, 1000);
            t = (int64_t)tut_rng_below(&rng, 1u << 30) - (1 << 29);
            left_for_user = 1 + (size_t)tut_rng_below(&rng, max_run);
        } else {
            const uint64_t r = tut_rng_below(&rng, 100);
            uint64_t gap;
            if (r < past)
                gap = span + 1 + tut_rng_below(&rng, 10 * span); /* past the timeout */
            else if (r < exact)
                gap = (uint64_t)timeout; /* exactly the timeout: same session */
            else if (r < equal)
                gap = 0; /* equal timestamps */
            else
                gap = tut_rng_below(&rng, span); /* inside the timeout */
            t += (int64_t)gap;
        }
        --left_for_user;
        user[i] = current_user;
        ts[i] = t;
    }
}

void shuffle_events(uint64_t seed, int64_t *user, int64_t *ts, size_t n)
{
    tut_rng rng;
    tut_rng_seed(&rng, seed ^ 0x5eed5eedull);
    for (size_t i = n; i > 1; --i) {
        const size_t j = (size_t)tut_rng_below(&rng, i);
        const int64_t u = user[i - 1], t = ts[i - 1];
        user[i - 1] = user[j];
        ts[i - 1] = ts[j];
        user[j] = u;
        ts[j] = t;
    }
}
