/* A measurement, not a step of the chapter: how fast can the single-pass kernel's memory traffic
 * alone go on this GPU, in three shapes, against the chapter's copy (a device-to-device memcpy of
 * the same 24 bytes per event)?
 *   tile_regs   the single-pass kernel's shape without its scan: one block per tile of 2048
 *               events (256 threads x 4 rows x a pair), every 16-byte load of the tile into
 *               registers first, then the 16-byte stores (label = user ^ ts)
 *   grid_stride a full wave of blocks, each thread looping over pairs: load, store, next
 *   grid_stride4  the same, four pairs per thread and trip, every load before any store
 *   tile_bulk   one block per tile, its two 16 KiB segments (user, ts) fetched by one thread with
 *               two bulk asynchronous copies (cp.async.bulk, Hopper's TMA) into shared memory,
 *               counted in on an mbarrier; then every thread reads its pairs from shared memory
 *               and stores; no registers hold bytes in flight, so more tiles per SM can be
 *               in flight (tile_bulk_2048: 2048 events a tile, 32 KiB of shared memory;
 *               tile_bulk_1024: 1024 events, 16 KiB)
 * Each is checked (every label against the host), then timed interleaved with the memcpy, ROUNDS
 * rounds of REPS runs after a warm-up. CSV on stdout.
 * Build: nvcc -O3 -arch=sm_90 -o stream_probe stream_probe.cu ; run: ./stream_probe [events] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));        \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define THREADS 256
#define ROWS 4
#define TILE (THREADS * ROWS * 2) /* events */
#define ROUNDS 5
#define REPS 10

static __device__ __forceinline__ void load_rows(const int64_t *__restrict__ user,
                                                 const int64_t *__restrict__ ts, int64_t n,
                                                 int64_t base, longlong2 u[ROWS], longlong2 t[ROWS])
{
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
    for (int k = 0; k < ROWS; ++k) {
        const int64_t i = base + warp * (64 * ROWS) + 64 * k + 2 * lane;
        if (i + 1 < n) {
            u[k] = *(const longlong2 *)(user + i);
            t[k] = *(const longlong2 *)(ts + i);
        } else {
            u[k] = make_longlong2(i < n ? user[i] : 0, 0);
            t[k] = make_longlong2(i < n ? ts[i] : 0, 0);
        }
    }
}

/* TICKET 0: tile = blockIdx.x; 1: tile = an atomicAdd ticket, taken before the loads (the
 * chapter's order); 2: the loads of tile blockIdx.x issued while the ticket is on its way, done
 * again for the ticket's tile if the two differ. */
template <int TICKET>
__global__ void __launch_bounds__(THREADS, 4)
    tile_regs_t(const int64_t *__restrict__ user, const int64_t *__restrict__ ts, int64_t n,
                int64_t *__restrict__ label, unsigned long long *counter)
{
    __shared__ long long tile_id;
    longlong2 u[ROWS], t[ROWS];
    int64_t tile = blockIdx.x;
    if (TICKET == 2)
        load_rows(user, ts, n, tile * TILE, u, t);
    if (TICKET) {
        if (threadIdx.x == 0)
            tile_id = (long long)atomicAdd(counter, 1ull);
        __syncthreads();
        tile = tile_id;
    }
    if (TICKET != 2 || tile != (int64_t)blockIdx.x)
        load_rows(user, ts, n, tile * TILE, u, t);
    const int64_t base = tile * TILE;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
    for (int k = 0; k < ROWS; ++k) {
        const int64_t i = base + warp * (64 * ROWS) + 64 * k + 2 * lane;
        const longlong2 l = make_longlong2(u[k].x ^ t[k].x, u[k].y ^ t[k].y);
        if (i + 1 < n)
            *(longlong2 *)(label + i) = l;
        else if (i < n)
            label[i] = l.x;
    }
}

__global__ void __launch_bounds__(THREADS, 4)
    tile_regs(const int64_t *__restrict__ user, const int64_t *__restrict__ ts, int64_t n,
              int64_t *__restrict__ label)
{
    const int64_t base = (int64_t)blockIdx.x * TILE;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    longlong2 u[ROWS], t[ROWS];
#pragma unroll
    for (int k = 0; k < ROWS; ++k) {
        const int64_t i = base + warp * (64 * ROWS) + 64 * k + 2 * lane;
        if (i + 1 < n) {
            u[k] = *(const longlong2 *)(user + i);
            t[k] = *(const longlong2 *)(ts + i);
        } else {
            u[k] = make_longlong2(i < n ? user[i] : 0, 0);
            t[k] = make_longlong2(i < n ? ts[i] : 0, 0);
        }
    }
#pragma unroll
    for (int k = 0; k < ROWS; ++k) {
        const int64_t i = base + warp * (64 * ROWS) + 64 * k + 2 * lane;
        const longlong2 l = make_longlong2(u[k].x ^ t[k].x, u[k].y ^ t[k].y);
        if (i + 1 < n)
            *(longlong2 *)(label + i) = l;
        else if (i < n)
            label[i] = l.x;
    }
}

__global__ void __launch_bounds__(THREADS)
    grid_stride(const int64_t *__restrict__ user, const int64_t *__restrict__ ts, int64_t n,
                int64_t *__restrict__ label)
{
    const int64_t pairs = n / 2, stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t p = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; p < pairs; p += stride) {
        const longlong2 u = ((const longlong2 *)user)[p], t = ((const longlong2 *)ts)[p];
        ((longlong2 *)label)[p] = make_longlong2(u.x ^ t.x, u.y ^ t.y);
    }
    if (n % 2 && blockIdx.x == 0 && threadIdx.x == 0)
        label[n - 1] = user[n - 1] ^ ts[n - 1];
}

static __device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

/* Four pairs per thread and trip, every load before any store. */
__global__ void __launch_bounds__(THREADS)
    grid_stride4(const int64_t *__restrict__ user, const int64_t *__restrict__ ts, int64_t n,
                 int64_t *__restrict__ label)
{
    const int64_t pairs = n / 2, stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t p0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; p0 < pairs;
         p0 += 4 * stride) {
        longlong2 u[4], t[4];
#pragma unroll
        for (int j = 0; j < 4; ++j)
            if (p0 + j * stride < pairs) {
                u[j] = ((const longlong2 *)user)[p0 + j * stride];
                t[j] = ((const longlong2 *)ts)[p0 + j * stride];
            }
#pragma unroll
        for (int j = 0; j < 4; ++j)
            if (p0 + j * stride < pairs)
                ((longlong2 *)label)[p0 + j * stride] =
                    make_longlong2(u[j].x ^ t[j].x, u[j].y ^ t[j].y);
    }
    if (n % 2 && blockIdx.x == 0 && threadIdx.x == 0)
        label[n - 1] = user[n - 1] ^ ts[n - 1];
}

template <int T>
__global__ void __launch_bounds__(THREADS)
    tile_bulk(const int64_t *__restrict__ user, const int64_t *__restrict__ ts, int64_t n,
              int64_t *__restrict__ label)
{
    __shared__ __align__(128) int64_t su[T], st[T];
    __shared__ __align__(8) unsigned long long bar;
    const int64_t base = (int64_t)blockIdx.x * T;
    const int64_t count = n - base < T ? n - base : T;
    const int64_t even = count & ~(int64_t)1; /* 16-byte multiples; an odd last event: plain */
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(&bar)));
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0 && even == 0)
        asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(&bar)) : "memory");
    if (threadIdx.x == 0 && even > 0) {
        const unsigned bytes = (unsigned)(even * 8);
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                         smem_addr(&bar)),
                     "r"(2 * bytes)
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], "
                     "[%1], %2, [%3];" ::"r"(smem_addr(su)),
                     "l"(user + base), "r"(bytes), "r"(smem_addr(&bar))
                     : "memory");
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], "
                     "[%1], %2, [%3];" ::"r"(smem_addr(st)),
                     "l"(ts + base), "r"(bytes), "r"(smem_addr(&bar))
                     : "memory");
    }
    asm volatile("{\n .reg .pred done;\n"
                 "wait_%=:\n"
                 " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
                 " @!done bra wait_%=;\n}" ::"r"(smem_addr(&bar))
                 : "memory");
    for (int p = threadIdx.x; 2 * p < even; p += THREADS) {
        const longlong2 u = ((const longlong2 *)su)[p], t = ((const longlong2 *)st)[p];
        ((longlong2 *)(label + base))[p] = make_longlong2(u.x ^ t.x, u.y ^ t.y);
    }
    if (count % 2 && threadIdx.x == 0)
        label[base + count - 1] = user[base + count - 1] ^ ts[base + count - 1];
}

typedef struct {
    const char *name;
    const void *kernel;
    int tile; /* events per block, one block per tile; 0: a full wave */
} variant;

static const variant variants[] = {
    {"tile_regs", (const void *)tile_regs, TILE},
    {"grid_stride", (const void *)grid_stride, 0},
    {"grid_stride4", (const void *)grid_stride4, 0},
    {"tile_bulk_2048", (const void *)tile_bulk<2048>, 2048},
    {"tile_bulk_1024", (const void *)tile_bulk<1024>, 1024},
    {"tile4_block_index", (const void *)tile_regs_t<0>, TILE},
    {"tile4_ticket", (const void *)tile_regs_t<1>, TILE},
    {"tile4_ticket_speculative", (const void *)tile_regs_t<2>, TILE},
};
#define NV 8
/* The tile4_ variants: 4 blocks per SM, as the chapter's kernel (its 56 registers), forced with
 * 48 KiB of dynamic shared memory that they do not use. */
#define FORCE4_SHARED (48 * 1024)
static unsigned long long *g_counter;

static void run(int v, int blocks, const int64_t *u, const int64_t *t, int64_t n, int64_t *l)
{
    if (v == 0)
        tile_regs<<<blocks, THREADS>>>(u, t, n, l);
    else if (v == 1)
        grid_stride<<<blocks, THREADS>>>(u, t, n, l);
    else if (v == 2)
        grid_stride4<<<blocks, THREADS>>>(u, t, n, l);
    else if (v == 3)
        tile_bulk<2048><<<blocks, THREADS>>>(u, t, n, l);
    else if (v == 4)
        tile_bulk<1024><<<blocks, THREADS>>>(u, t, n, l);
    else {
        CHECK(cudaMemsetAsync(g_counter, 0, sizeof *g_counter));
        if (v == 5)
            tile_regs_t<0><<<blocks, THREADS, FORCE4_SHARED>>>(u, t, n, l, g_counter);
        else if (v == 6)
            tile_regs_t<1><<<blocks, THREADS, FORCE4_SHARED>>>(u, t, n, l, g_counter);
        else
            tile_regs_t<2><<<blocks, THREADS, FORCE4_SHARED>>>(u, t, n, l, g_counter);
    }
    CHECK(cudaGetLastError());
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const int64_t n = argc > 1 ? atoll(argv[1]) : 100000000;
    if (n < 1) {
        fprintf(stderr, "usage: stream_probe [events >= 1]\n");
        return 2;
    }
    int devs = 0, dev = 0, sms = 0;
    if (cudaGetDeviceCount(&devs) != cudaSuccess || devs == 0) {
        printf("SKIPPED: no CUDA GPU\n");
        return 77;
    }
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int64_t *h = (int64_t *)malloc(2 * n * sizeof(int64_t)), *hl = (int64_t *)malloc(n * 8);
    uint64_t x = 88172645463325252ull;
    for (int64_t i = 0; i < 2 * n; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        h[i] = (int64_t)x;
    }
    int64_t *d, *dl, *dcopy;
    CHECK(cudaMalloc(&d, 2 * n * sizeof(int64_t)));
    CHECK(cudaMalloc(&dl, n * sizeof(int64_t)));
    CHECK(cudaMalloc(&dcopy, (size_t)n * 12 + 16));
    CHECK(cudaMemcpy(d, h, 2 * n * sizeof(int64_t), cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&g_counter, sizeof *g_counter));
    const int64_t *du = d, *dt = d + n;
    int blocks[NV], per_sm[NV], ok = 1;
    for (int v = 0; v < NV; ++v) {
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[v], variants[v].kernel,
                                                            THREADS, v >= 5 ? FORCE4_SHARED : 0));
        const int tile = variants[v].tile;
        blocks[v] = tile ? (int)((n + tile - 1) / tile) : per_sm[v] * sms;
        CHECK(cudaMemset(dl, 0xFF, n * 8));
        run(v, blocks[v], du, dt, n, dl);
        CHECK(cudaMemcpy(hl, dl, n * 8, cudaMemcpyDeviceToHost));
        int64_t bad = 0;
        for (int64_t i = 0; i < n; ++i)
            bad += hl[i] != (h[i] ^ h[n + i]);
        fprintf(stderr, "%-15s %d blocks/SM: %lld wrong labels\n", variants[v].name, per_sm[v],
                (long long)bad);
        ok &= bad == 0;
    }
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    double ms[NV + 1][ROUNDS];
    for (int r = -1; r < ROUNDS; ++r) /* round -1: the warm-up */
        for (int v = 0; v <= NV; ++v) {
            CHECK(cudaEventRecord(e0));
            for (int i = 0; i < REPS; ++i) {
                if (v == NV)
                    CHECK(cudaMemcpyAsync(dcopy, d, (size_t)n * 12, cudaMemcpyDeviceToDevice));
                else
                    run(v, blocks[v], du, dt, n, dl);
            }
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float t;
            CHECK(cudaEventElapsedTime(&t, e0, e1));
            if (r >= 0)
                ms[v][r] = t / REPS;
        }
    printf("variant,blocks_per_sm,ms_median,ms_min,ms_max,tbps,pct_copy_median,pct_copy_min,"
           "pct_copy_max\n");
    for (int v = 0; v <= NV; ++v) {
        double t[ROUNDS], pct[ROUNDS];
        for (int r = 0; r < ROUNDS; ++r) {
            t[r] = ms[v][r];
            pct[r] = 100.0 * ms[NV][r] / ms[v][r];
        }
        qsort(t, ROUNDS, sizeof(double), cmp);
        qsort(pct, ROUNDS, sizeof(double), cmp);
        printf("%s,%d,%.4f,%.4f,%.4f,%.3f,%.2f,%.2f,%.2f\n", v == NV ? "memcpy" : variants[v].name,
               v == NV ? 0 : per_sm[v], t[ROUNDS / 2], t[0], t[ROUNDS - 1],
               24.0 * n / (t[ROUNDS / 2] * 1e-3) * 1e-12, pct[ROUNDS / 2], pct[0],
               pct[ROUNDS - 1]);
    }
    printf("# check: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
