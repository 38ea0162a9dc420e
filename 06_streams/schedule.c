#include "schedule.h"

#include <math.h>

int shrinking_schedule(size_t n, size_t k, chunk_range *out)
{
    if (k == 0 || k > n)
        return -1;
    /* weight of chunk i: r^i with r^(k-1) = 1/16 */
    const double r = k > 1 ? pow(1.0 / 16.0, 1.0 / (double)(k - 1)) : 1.0;
    double total = 0.0, w = 1.0;
    for (size_t i = 0; i < k; ++i, w *= r)
        total += w;
    /* 1 element each, then n - k shared by weight (floors); the fewer than k left over go one
     * each to the first chunks, so that the sizes never grow and sum to n. */
    size_t sum = 0;
    w = 1.0;
    for (size_t i = 0; i < k; ++i, w *= r) {
        out[i].count = 1 + (size_t)((double)(n - k) * w / total);
        sum += out[i].count;
    }
    for (size_t i = 0; sum > n; i = (i + 1) % k) /* never taken unless rounding overshoots */
        if (out[k - 1 - i].count > 1) {
            --out[k - 1 - i].count;
            --sum;
        }
    for (size_t i = 0; sum < n; i = (i + 1) % k) {
        ++out[i].count;
        ++sum;
    }
    size_t offset = 0;
    for (size_t i = 0; i < k; ++i) {
        out[i].offset = offset;
        offset += out[i].count;
    }
    return 0;
}
