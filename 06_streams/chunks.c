#include "chunks.h"

#include <stdio.h>

chunk_range chunk_of(size_t n, size_t chunks, size_t index)
{
    const size_t base = n / chunks;
    const size_t longer = n % chunks; /* the first `longer` chunks hold base + 1 */
    chunk_range r;
    r.offset = index * base + (index < longer ? index : longer);
    r.count = base + (index < longer ? 1 : 0);
    return r;
}

int pipeline_shape_check(size_t n, size_t chunks, size_t streams, char *why, size_t why_len)
{
    if (n == 0) {
        snprintf(why, why_len, "n must be at least 1");
        return -1;
    }
    if (streams < 1 || streams > STREAMS_MAX_STREAMS) {
        snprintf(why, why_len, "--streams %zu: must be between 1 and %d", streams,
                 STREAMS_MAX_STREAMS);
        return -1;
    }
    if (chunks < 1) {
        snprintf(why, why_len, "--chunks %zu: must be at least 1", chunks);
        return -1;
    }
    if (streams > chunks) {
        snprintf(why, why_len,
                 "--streams %zu is more than --chunks %zu: a stream with no chunk is useless",
                 streams, chunks);
        return -1;
    }
    if (chunks > n) {
        snprintf(why, why_len, "--chunks %zu is more than the %zu elements: chunks would be empty",
                 chunks, n);
        return -1;
    }
    return 0;
}
