/* p2p_matrix: how fast one GPU's memory reaches another's (docs/06_streams_2.md, "Peer to
 * peer"). For every ordered pair of visible GPUs, the bandwidth of a cudaMemcpyPeerAsync of
 * --bytes with peer access on, with it off (the driver stages the copy), and staged by hand
 * through pinned host memory; both directions at once with peer access on; the time of a
 * 4-byte copy (latency) on and off; and, beside them, what the machine says the links are:
 * `nvidia-smi topo -m`, the NVLink speeds (`nvidia-smi nvlink -s`) and the PCIe generation and
 * width, when nvidia-smi is there, and the CUDA P2P attributes. Every copy's destination is
 * poisoned first and checked after. With one GPU it measures what one has (its own copy, the
 * host link) and says there are no pairs. CSV: p2p_matrix.csv in --outdir.
 * Exit 0 right, 1 wrong, 2 bad usage, 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "multi_gpu.h"
#include "multi_kernels.h"
#include "tutorial.h"

#define MAX_G 16
#define STAGE_CHUNK ((size_t)4 << 20)

static unsigned long long bytes_opt = 64ull << 20;
static unsigned long long min_gpus = 1;
static int no_smi = 0;
static const char *outdir = NULL;

/* ---- What the machine says about its links ------------------------------------------------ */

typedef struct {
    char bus_id[32];
    char link_to[MAX_G][16]; /* the topo -m cell toward each GPU: "NV18", "SYS", "PIX", ... */
    double nvlink_gbps;      /* the sum of its NVLinks' stated speeds, one direction; 0: none */
    int nvlinks;             /* how many NVLinks that sum counts */
    double pcie_gbps;        /* its PCIe link at its top generation and width, one direction */
} gpu_links;

/* Runs a command, returns its output (at most `len` - 1 bytes) or "" if it failed. */
static void capture(const char *command, char *out, size_t len)
{
    out[0] = '\0';
    FILE *p = no_smi ? NULL : popen(command, "r");
    if (!p)
        return;
    const size_t got = fread(out, 1, len - 1, p);
    out[got] = '\0';
    if (pclose(p) != 0)
        out[0] = '\0';
}

/* "00000000:18:00.0" and "0000:18:00.0" are the same GPU: compare from the bus number on. */
static int same_bus(const char *a, const char *b)
{
    const size_t la = strlen(a), lb = strlen(b);
    return la >= 7 && lb >= 7 && strcasecmp(a + la - 7, b + lb - 7) == 0;
}

static void read_links(int gpus, gpu_links *links, tut_csv *csv)
{
    static char text[65536];
    int smi_index[MAX_G];
    for (int g = 0; g < gpus; ++g) {
        CUDA_CHECK(cudaDeviceGetPCIBusId(links[g].bus_id, sizeof links[g].bus_id, g));
        smi_index[g] = -1;
    }
    capture("nvidia-smi --query-gpu=index,pci.bus_id --format=csv,noheader 2>/dev/null", text,
            sizeof text);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int index = -1;
        char bus[64] = "";
        if (sscanf(line, "%d, %63s", &index, bus) == 2)
            for (int g = 0; g < gpus; ++g)
                if (same_bus(bus, links[g].bus_id))
                    smi_index[g] = index;
    }
    capture("nvidia-smi topo -m 2>/dev/null", text, sizeof text);
    printf("nvidia-smi topo -m:\n%s\n", text[0] ? text : "  (not available)\n");
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        int row = -1;
        if (sscanf(line, "GPU%d", &row) != 1 || strncmp(line, "GPU", 3) != 0)
            continue;
        char cells[64][16], *save = NULL;
        int n = 0;
        for (char *cell = strtok_r(line, " \t", &save); cell && n < 64;
             cell = strtok_r(NULL, " \t", &save))
            snprintf(cells[n++], sizeof cells[0], "%s", cell);
        for (int a = 0; a < gpus; ++a)
            if (smi_index[a] == row)
                for (int b = 0; b < gpus; ++b)
                    if (smi_index[b] >= 0 && smi_index[b] + 1 < n)
                        snprintf(links[a].link_to[b], sizeof links[a].link_to[b], "%s",
                                 cells[smi_index[b] + 1]);
    }
    for (int g = 0; g < gpus; ++g) {
        char command[256];
        snprintf(command, sizeof command, "nvidia-smi nvlink -s -i %.31s 2>/dev/null",
                 links[g].bus_id);
        capture(command, text, sizeof text);
        links[g].nvlink_gbps = 0.0;
        links[g].nvlinks = 0;
        for (char *at = strstr(text, "Link "); at; at = strstr(at + 1, "Link ")) {
            double speed = 0.0;
            char *colon = strchr(at, ':');
            if (colon && sscanf(colon + 1, " %lf GB/s", &speed) == 1 && speed > 0) {
                links[g].nvlink_gbps += speed;
                links[g].nvlinks++;
            }
        }
        snprintf(command, sizeof command, "nvidia-smi --query-gpu=pcie.link.gen.max,"
                 "pcie.link.width.max --format=csv,noheader,nounits -i %.31s 2>/dev/null",
                 links[g].bus_id);
        capture(command, text, sizeof text);
        int gen = 0, width = 0;
        links[g].pcie_gbps = sscanf(text, "%d, %d", &gen, &width) == 2
                                 ? tut_multi_pcie_gbps(gen, width) : 0.0;
        printf("GPU %d (%s): NVLink %.1f GB/s per direction stated (%d links), PCIe gen %d x%d "
               "= %.1f GB/s per direction stated%s\n", g, links[g].bus_id, links[g].nvlink_gbps,
               links[g].nvlinks, gen, width, links[g].pcie_gbps,
               text[0] ? "" : " (nvidia-smi not available: unknown)");
        tut_csv_comment(csv, "GPU %d %s: NVLink %.2f GB/s stated per direction (%d links), PCIe "
                        "gen %d x%d %.2f GB/s", g, links[g].bus_id, links[g].nvlink_gbps,
                        links[g].nvlinks, gen, width, links[g].pcie_gbps);
    }
    for (int a = 0; a < gpus; ++a)
        for (int b = 0; b < gpus; ++b) {
            int access = 0, rank = 0, atomics = 0;
            if (a == b)
                continue;
            CUDA_CHECK(cudaDeviceGetP2PAttribute(&access, cudaDevP2PAttrAccessSupported, a, b));
            CUDA_CHECK(cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, a, b));
            CUDA_CHECK(cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported,
                                                 a, b));
            printf("  %d -> %d: link %s, peer access %s, performance rank %d, native atomics %s\n",
                   a, b, links[a].link_to[b][0] ? links[a].link_to[b] : "?",
                   access ? "possible" : "impossible", rank, atomics ? "yes" : "no");
        }
}

/* The stated speed of `bonded` of a GPU's NVLinks (topo -m's NV<n> for a pair): its links'
 * mean speed times n, at most all of them. On an NVSwitch machine every pair reads NV<all>:
 * the GPU's total. */
static double nvlink_pair_gbps(const gpu_links *l, int bonded)
{
    if (l->nvlinks < 1)
        return 0.0;
    return l->nvlink_gbps / l->nvlinks * (bonded < l->nvlinks ? bonded : l->nvlinks);
}

/* The stated one-direction limit of the path a -> b, and its name. */
static double stated_gbps(const gpu_links *links, int a, int b, const char **name)
{
    const char *cell = links[a].link_to[b];
    int bonded = 0;
    if (sscanf(cell, "NV%d", &bonded) == 1 && bonded > 0 && links[a].nvlink_gbps > 0 &&
        links[b].nvlink_gbps > 0) {
        *name = "nvlink";
        const double from = nvlink_pair_gbps(&links[a], bonded);
        const double to = nvlink_pair_gbps(&links[b], bonded);
        return from < to ? from : to;
    }
    *name = links[a].pcie_gbps > 0 ? "pcie" : "unknown";
    return links[a].pcie_gbps < links[b].pcie_gbps ? links[a].pcie_gbps : links[b].pcie_gbps;
}

/* ---- The copies ----------------------------------------------------------------------------- */

typedef enum { COPY_PEER, COPY_STAGED, COPY_BOTH_WAYS, COPY_H2D, COPY_D2H } copy_kind;

typedef struct {
    copy_kind kind;
    int src, dst;
    size_t bytes;
    float *buf[MAX_G][2];          /* per GPU: a source and a destination */
    float *host[2];                /* pinned staging buffers, STAGE_CHUNK each */
    float *host_big;               /* pinned, --bytes: the h2d / d2h rows */
    cudaStream_t stream[MAX_G];
    cudaEvent_t down[MAX_G][2], up[MAX_G][2]; /* staging: slot k % 2 is down (recorded on the
                                               * source's GPU) / up again (the destination's) */
} copies;

/* One copy of c->bytes of the kind asked; the destination is c->buf[dst][1]. */
static void copy_work(void *arg)
{
    copies *c = (copies *)arg;
    float *from = c->buf[c->src][0], *to = c->buf[c->dst][1];
    switch (c->kind) {
    case COPY_PEER: /* on the destination's stream: it pulls */
        CUDA_CHECK(cudaSetDevice(c->dst));
        CUDA_CHECK(cudaMemcpyPeerAsync(to, c->dst, from, c->src, c->bytes, c->stream[c->dst]));
        break;
    case COPY_BOTH_WAYS:
        CUDA_CHECK(cudaSetDevice(c->dst));
        CUDA_CHECK(cudaMemcpyPeerAsync(to, c->dst, from, c->src, c->bytes, c->stream[c->dst]));
        CUDA_CHECK(cudaSetDevice(c->src));
        CUDA_CHECK(cudaMemcpyPeerAsync(c->buf[c->src][1], c->src, c->buf[c->dst][0], c->dst,
                                       c->bytes, c->stream[c->src]));
        break;
    case COPY_STAGED: /* down from src into slot k % 2, up into dst; two slots in flight */
        for (size_t at = 0, k = 0; at < c->bytes; at += STAGE_CHUNK, ++k) {
            const size_t n = c->bytes - at < STAGE_CHUNK ? c->bytes - at : STAGE_CHUNK;
            const int slot = (int)(k % 2);
            CUDA_CHECK(cudaSetDevice(c->src));
            CUDA_CHECK(cudaStreamWaitEvent(c->stream[c->src], c->up[c->dst][slot], 0));
            CUDA_CHECK(cudaMemcpyAsync(c->host[slot], (char *)from + at, n,
                                       cudaMemcpyDeviceToHost, c->stream[c->src]));
            CUDA_CHECK(cudaEventRecord(c->down[c->src][slot], c->stream[c->src]));
            CUDA_CHECK(cudaSetDevice(c->dst));
            CUDA_CHECK(cudaStreamWaitEvent(c->stream[c->dst], c->down[c->src][slot], 0));
            CUDA_CHECK(cudaMemcpyAsync((char *)to + at, c->host[slot], n,
                                       cudaMemcpyHostToDevice, c->stream[c->dst]));
            CUDA_CHECK(cudaEventRecord(c->up[c->dst][slot], c->stream[c->dst]));
        }
        break;
    case COPY_H2D:
        CUDA_CHECK(cudaSetDevice(c->dst));
        CUDA_CHECK(cudaMemcpyAsync(to, c->host_big, c->bytes, cudaMemcpyHostToDevice,
                                   c->stream[c->dst]));
        break;
    case COPY_D2H:
        CUDA_CHECK(cudaSetDevice(c->src));
        CUDA_CHECK(cudaMemcpyAsync(c->host_big, from, c->bytes, cudaMemcpyDeviceToHost,
                                   c->stream[c->src]));
        break;
    }
}

#define SEED 20240601ull

/* Elements of dst (device `on`) that differ from GPU `from`'s pattern. */
static unsigned long long count_wrong(const float *dst, int on, int from, size_t n,
                                      unsigned long long *d_wrong)
{
    unsigned long long wrong = 0;
    CUDA_CHECK(cudaSetDevice(on));
    CUDA_CHECK(cudaMemset(d_wrong, 0, sizeof wrong));
    multi_check_whole_sum(dst, n, SEED + (unsigned long long)from, 1, d_wrong, 0);
    CUDA_CHECK(cudaMemcpy(&wrong, d_wrong, sizeof wrong, cudaMemcpyDeviceToHost));
    return wrong;
}

/* Poisons the destination(s), times the copy (5 batches of `calls` after 2 untimed), then
 * checks the destination(s) against the source's pattern: *wrong += elements wrong. The
 * source of GPU g holds the pattern of tag g; the host buffer, the pattern of tag MAX_G. */
static tut_timing timed_copy(copies *c, unsigned long long **d_wrong, unsigned long long *wrong,
                             int calls)
{
    const size_t n = c->bytes / sizeof(float);
    const int a = c->kind == COPY_H2D ? c->dst : c->src, b = c->kind == COPY_D2H ? c->src : c->dst;
    /* Poisoned, and the poison landed: the copies run on non-blocking streams, which the
     * legacy default stream (cudaMemset's) does not order. */
    CUDA_CHECK(cudaSetDevice(b));
    CUDA_CHECK(cudaMemset(c->buf[b][1], 0xFF, c->bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaSetDevice(a));
    CUDA_CHECK(cudaMemset(c->buf[a][1], 0xFF, c->bytes));
    CUDA_CHECK(cudaDeviceSynchronize());
    if (c->kind == COPY_D2H)
        memset(c->host_big, 0xFF, c->bytes);
    const int device[2] = {a, b};
    const cudaStream_t stream[2] = {c->stream[a], c->stream[b]};
    const tut_timing t = multi_time(copy_work, c, stream, device, a == b ? 1 : 2, 2, 5, calls);
    switch (c->kind) {
    case COPY_PEER:
    case COPY_STAGED:
        *wrong += count_wrong(c->buf[c->dst][1], c->dst, c->src, n, d_wrong[c->dst]);
        break;
    case COPY_BOTH_WAYS:
        *wrong += count_wrong(c->buf[c->dst][1], c->dst, c->src, n, d_wrong[c->dst]);
        *wrong += count_wrong(c->buf[c->src][1], c->src, c->dst, n, d_wrong[c->src]);
        break;
    case COPY_H2D:
        *wrong += count_wrong(c->buf[c->dst][1], c->dst, MAX_G, n, d_wrong[c->dst]);
        break;
    case COPY_D2H: /* back to the GPU to be checked there, then the host pattern again */
        CUDA_CHECK(cudaSetDevice(c->src));
        CUDA_CHECK(cudaMemcpy(c->buf[c->src][1], c->host_big, c->bytes, cudaMemcpyHostToDevice));
        *wrong += count_wrong(c->buf[c->src][1], c->src, c->src, n, d_wrong[c->src]);
        for (size_t i = 0; i < n; ++i)
            c->host_big[i] = multi_whole_value(SEED + MAX_G, 0, i);
        break;
    }
    return t;
}

/* ---- The matrix ----------------------------------------------------------------------------- */

typedef struct {
    copies *c;
    const gpu_links *links;
    tut_csv *csv;
    unsigned long long **d_wrong;
    unsigned long long wrong;
    double gbps[MAX_G][MAX_G];
} matrix;

/* Times one row of the CSV and returns the bandwidth (GB/s, both directions for both_ways). */
static double measure(matrix *m, const char *mode, copy_kind kind, int src, int dst, size_t bytes)
{
    copies *c = m->c;
    c->kind = kind;
    c->src = src < 0 ? dst : src;
    c->dst = dst < 0 ? src : dst;
    c->bytes = bytes;
    const unsigned long long before = m->wrong;
    const tut_timing t = timed_copy(c, m->d_wrong, &m->wrong, bytes <= 64 ? 100 : 3);
    const double moved = (double)bytes * (kind == COPY_BOTH_WAYS ? 2 : 1);
    const double gbps = moved / (t.median_ms * 1e-3) / 1e9;
    const char *link = "hbm";
    double stated = 0.0;
    if (kind == COPY_H2D || kind == COPY_D2H || kind == COPY_STAGED) {
        link = "pcie";
        stated = m->links[c->src].pcie_gbps < m->links[c->dst].pcie_gbps
                     ? m->links[c->src].pcie_gbps : m->links[c->dst].pcie_gbps;
    } else if (src != dst) {
        stated = stated_gbps(m->links, src, dst, &link) * (kind == COPY_BOTH_WAYS ? 2 : 1);
    }
    tut_csv_row(m->csv, "%s,%d,%d,%zu,%.5f,%.5f,%.5f,%.3f,%.3f,%s,%.2f,%.4f,%s", mode, src, dst,
                bytes, t.median_ms, t.min_ms, t.max_ms, gbps, t.median_ms * 1e3, link, stated,
                stated > 0 ? gbps / stated : 0.0, m->wrong == before ? "exact" : "WRONG");
    return kind == COPY_PEER && bytes <= 64 ? t.median_ms * 1e3 : gbps;
}

static void print_matrix(const char *title, int gpus, double v[MAX_G][MAX_G], const char *unit)
{
    printf("\n%s (%s; rows: from, columns: to)\n     ", title, unit);
    for (int b = 0; b < gpus; ++b)
        printf(" %9d", b);
    printf("\n");
    for (int a = 0; a < gpus; ++a) {
        printf("%4d ", a);
        for (int b = 0; b < gpus; ++b)
            printf(" %9.2f", v[a][b]);
        printf("\n");
    }
}

static const tut_option options[] = {
    {"--bytes", TUT_OPT_SIZE, &bytes_opt, "bytes per copy", 1024, 4e9, NULL},
    {"--min-gpus", TUT_OPT_SIZE, &min_gpus, "skip (exit 77) with fewer GPUs", 1, MAX_G, NULL},
    {"--no-smi", TUT_OPT_FLAG, &no_smi, "do not ask nvidia-smi about the links", 0, 0, NULL},
    {"--outdir", TUT_OPT_STRING, &outdir, "where p2p_matrix.csv goes", 0, 0, NULL},
};

int main(int argc, char **argv)
{
    tut_parse_or_exit(argc, argv, "p2p_matrix: bandwidth and latency between every pair of GPUs",
                      options, TUT_COUNT(options));
    if (bytes_opt % sizeof(float)) {
        fprintf(stderr, "--bytes must be a multiple of 4, not %llu\n", bytes_opt);
        return 2;
    }
    char why[256];
    int gpus = tut_multi_device_count(why, sizeof why);
    if (gpus == 0) {
        printf("SKIPPED: %s\n", why);
        return TUT_EXIT_SKIP;
    }
    if (gpus < (int)min_gpus) {
        printf("SKIPPED: needs %llu GPUs, this machine shows %d\n", min_gpus, gpus);
        return TUT_EXIT_SKIP;
    }
    tut_select_device(TUT_NEED_NOTHING);
    gpus = gpus > MAX_G ? MAX_G : gpus;
    tut_csv *csv = tut_csv_open(outdir, "p2p_matrix.csv",
                                "mode,src,dst,bytes,ms,ms_min,ms_max,GBps,us_per_copy,link,"
                                "stated_GBps,fraction_of_stated,checked");
    tut_csv_comment(csv, "%d GPUs; src or dst -1: the host; stated: per direction (both_ways: "
                    "twice), from nvidia-smi; NVLink: the pair's NV<n> of topo -m times the "
                    "mean speed of a link", gpus);
    gpu_links links[MAX_G];
    memset(links, 0, sizeof links);
    read_links(gpus, links, csv);
    const size_t bytes = bytes_opt;
    copies c = {.bytes = bytes};
    unsigned long long *d_wrong[MAX_G];
    for (int g = 0; g < gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream[g], cudaStreamNonBlocking));
        for (int k = 0; k < 2; ++k)
            c.buf[g][k] = (float *)tut_device_alloc(bytes, "copy buffer");
        d_wrong[g] = (unsigned long long *)tut_device_alloc(sizeof **d_wrong, "wrong");
        for (int k = 0; k < 2; ++k) {
            CUDA_CHECK(cudaEventCreateWithFlags(&c.down[g][k], cudaEventDisableTiming));
            CUDA_CHECK(cudaEventCreateWithFlags(&c.up[g][k], cudaEventDisableTiming));
        }
        multi_fill_whole(c.buf[g][0], bytes / sizeof(float), SEED + (unsigned long long)g, 0, 0);
        CUDA_CHECK(cudaDeviceSynchronize()); /* before any non-blocking stream reads it */
    }
    CUDA_CHECK(cudaSetDevice(0));
    for (int k = 0; k < 2; ++k)
        CUDA_CHECK(cudaHostAlloc((void **)&c.host[k], STAGE_CHUNK, cudaHostAllocPortable));
    CUDA_CHECK(cudaHostAlloc((void **)&c.host_big, bytes, cudaHostAllocPortable));
    for (size_t i = 0; i < bytes / sizeof(float); ++i)
        c.host_big[i] = multi_whole_value(SEED + MAX_G, 0, i);
    matrix m = {.c = &c, .links = links, .csv = csv, .d_wrong = d_wrong};
    const int pairs = tut_multi_enable_peers(gpus, NULL);
    printf("\n%d GPU%s, %d ordered pair%s with peer access; copies of %zu bytes\n", gpus,
           gpus == 1 ? "" : "s", pairs, pairs == 1 ? "" : "s", bytes);
    if (gpus == 1)
        printf("one GPU: no pairs; its own copy and its host link only\n");
    double h2d[MAX_G][MAX_G] = {{0}}, latency[MAX_G][MAX_G] = {{0}};
    for (int g = 0; g < gpus; ++g) { /* the host link, measured: what staging can reach */
        h2d[g][0] = measure(&m, "h2d", COPY_H2D, -1, g, bytes);
        h2d[g][1] = measure(&m, "d2h", COPY_D2H, g, -1, bytes);
        printf("GPU %d: pinned host -> GPU %.2f GB/s, GPU -> host %.2f GB/s\n", g, h2d[g][0],
               h2d[g][1]);
    }
    for (int a = 0; a < gpus; ++a)
        for (int b = 0; b < gpus; ++b) {
            m.gbps[a][b] = measure(&m, "peer", COPY_PEER, a, b, bytes);
            latency[a][b] = measure(&m, "peer_latency", COPY_PEER, a, b, 4);
        }
    print_matrix("peer access on: cudaMemcpyPeerAsync", gpus, m.gbps, "GB/s");
    print_matrix("peer access on: one 4-byte copy", gpus, latency, "us");
    for (int a = 0; a < gpus; ++a)
        for (int b = 0; b < gpus; ++b)
            m.gbps[a][b] = a == b ? 0.0 : measure(&m, "peer_both_ways", COPY_BOTH_WAYS, a, b, bytes);
    print_matrix("peer access on, both directions at once (sum)", gpus, m.gbps, "GB/s");
    for (int a = 0; a < gpus; ++a)
        for (int b = 0; b < gpus; ++b)
            m.gbps[a][b] = measure(&m, "staged", COPY_STAGED, a, b, bytes);
    print_matrix("staged by hand through pinned host memory", gpus, m.gbps, "GB/s");
    tut_multi_disable_peers(gpus);
    for (int a = 0; a < gpus; ++a)
        for (int b = 0; b < gpus; ++b) {
            m.gbps[a][b] = measure(&m, "no_peer", COPY_PEER, a, b, bytes);
            latency[a][b] = measure(&m, "no_peer_latency", COPY_PEER, a, b, 4);
        }
    print_matrix("peer access off: cudaMemcpyPeerAsync (the driver stages it)", gpus, m.gbps,
                 "GB/s");
    print_matrix("peer access off: one 4-byte copy", gpus, latency, "us");
    for (int g = 0; g < gpus; ++g) {
        CUDA_CHECK(cudaSetDevice(g));
        CUDA_CHECK(cudaDeviceSynchronize());
        for (int k = 0; k < 2; ++k)
            tut_device_free(c.buf[g][k]);
        tut_device_free(d_wrong[g]);
        CUDA_CHECK(cudaStreamDestroy(c.stream[g]));
        for (int k = 0; k < 2; ++k) {
            CUDA_CHECK(cudaEventDestroy(c.down[g][k]));
            CUDA_CHECK(cudaEventDestroy(c.up[g][k]));
        }
    }
    CUDA_CHECK(cudaSetDevice(0));
    for (int k = 0; k < 2; ++k)
        CUDA_CHECK(cudaFreeHost(c.host[k]));
    CUDA_CHECK(cudaFreeHost(c.host_big));
    tut_csv_close(csv);
    printf("\nevery copy checked: %s\n%s\n", m.wrong ? "WRONG" : "exact", m.wrong ? "FAIL" : "PASS");
    return m.wrong ? 1 : 0;
}
