/* The split arithmetic: see split.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat_reference.h"
#include "split.h"

heat_span heat_split_part(size_t n, int parts, int p)
{
    const size_t base = n / (size_t)parts, extra = n % (size_t)parts, up = (size_t)p;
    const heat_span span = {.first = up * base + (up < extra ? up : extra),
                            .count = base + (up < extra ? 1 : 0)};
    return span;
}

int heat_split_device(int parts, int gpus, int p)
{
    return (int)((long long)p * gpus / parts);
}

int heat_split_check(size_t n, int parts, int gpus, int visible, int *skip, char *why,
                     size_t len)
{
    *skip = 0;
    if (gpus < 1 || parts < 1) {
        snprintf(why, len, "--gpus and --parts must be at least 1 (got %d and %d)", gpus, parts);
        return 0;
    }
    if (parts < gpus) {
        snprintf(why, len, "--parts %d is fewer than --gpus %d: every GPU needs a part", parts,
                 gpus);
        return 0;
    }
    if (n < (size_t)parts) {
        snprintf(why, len, "--points %zu is fewer than the %d parts: every part needs at least "
                           "one point", n, parts);
        return 0;
    }
    if (gpus > visible) {
        *skip = 1;
        snprintf(why, len, "%d GPUs asked, this machine shows %d (CUDA_VISIBLE_DEVICES?)", gpus,
                 visible);
        return 0;
    }
    return 1;
}

heat_halo_send heat_halo_left(size_t n, int parts, int p)
{
    heat_halo_send send = {.from = 1, .to = 0, .receiver = -1};
    if (p > 0) {
        send.receiver = p - 1;
        send.to = heat_split_part(n, parts, p - 1).count + 1; /* its right halo */
    }
    return send;
}

heat_halo_send heat_halo_right(size_t n, int parts, int p)
{
    heat_halo_send send = {.from = heat_split_part(n, parts, p).count, .to = 0, .receiver = -1};
    if (p + 1 < parts)
        send.receiver = p + 1; /* its left halo, index 0 */
    return send;
}

int heat_split_reference(double *u, size_t n, int parts, long long steps, double k)
{
    double **cur = (double **)calloc((size_t)parts, sizeof *cur);
    double **next = (double **)calloc((size_t)parts, sizeof *next);
    int ok = cur && next;
    for (int p = 0; ok && p < parts; ++p) {
        const heat_span s = heat_split_part(n, parts, p);
        cur[p] = (double *)calloc(s.count + 2, sizeof(double)); /* halos start at 0.0 */
        next[p] = (double *)calloc(s.count + 2, sizeof(double));
        ok = cur[p] && next[p];
        if (ok) {
            memcpy(cur[p] + 1, u + s.first, s.count * sizeof(double));
            if (s.first > 0)
                cur[p][0] = u[s.first - 1];
            if (s.first + s.count < n)
                cur[p][s.count + 1] = u[s.first + s.count];
        }
    }
    for (long long t = 0; ok && t < steps; ++t) {
        for (int p = 0; p < parts; ++p) {
            const size_t count = heat_split_part(n, parts, p).count;
            for (size_t i = 1; i <= count; ++i)
                next[p][i] = heat_point_update(cur[p][i - 1], cur[p][i], cur[p][i + 1], k);
        }
        for (int p = 0; p < parts; ++p) {
            const heat_halo_send sends[2] = {heat_halo_left(n, parts, p),
                                             heat_halo_right(n, parts, p)};
            for (int side = 0; side < 2; ++side)
                if (sends[side].receiver >= 0)
                    next[sends[side].receiver][sends[side].to] = next[p][sends[side].from];
        }
        for (int p = 0; p < parts; ++p) {
            double *swap = cur[p];
            cur[p] = next[p];
            next[p] = swap;
        }
    }
    for (int p = 0; ok && p < parts; ++p) {
        const heat_span s = heat_split_part(n, parts, p);
        memcpy(u + s.first, cur[p] + 1, s.count * sizeof(double));
    }
    for (int p = 0; cur && next && p < parts; ++p) {
        free(cur[p]);
        free(next[p]);
    }
    free(cur);
    free(next);
    return ok;
}
