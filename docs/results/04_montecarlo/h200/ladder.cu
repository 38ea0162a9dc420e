/* (2026-11-29: ladder.csv and ncu_ladder.csv, beside this file, were measured with it.)
 * A measurement, not a step of the chapter: where do the fused kernel's points go, instruction
 * by instruction? The chapter's counter loop (1/x on [1, 2], the shifted conversion, 1024-sample
 * streams, Philox of the counter (k, 0, s)) built up one per-sample instruction at a time, every
 * rung in the same shape (two calls a trip, at least five blocks of 256 per SM), timed beside
 * Philox alone, interleaved:
 *   fold      Philox, its four words XORed (Philox alone in this shape)
 *   fadd      + an FADD per sample of the raw word read as a float (no conversion)
 *   conv      + the shifted conversion (LEA.HI) and an FADD: sum of u
 *   map       + x = offset + width u (FFMA): sum of x
 *   rcp       + 1/x (MUFU.RCP): sum of f
 *   full      + the sum of squares (FFMA): the fused loop
 *   ident     full without the map (x = u: offset 0, width 1 only)
 *   convxor   Philox + the conversion, XORed (no float work)
 * and the full loop in other shapes. Build: nvcc -O3 -arch=native -o ladder ladder.cu ;
 * run: ./ladder [log2 samples] (every variant, CSV on stdout) or ./ladder <log2> <variant> (one
 * launch, for the profiler). Exit 0 if every checked estimate holds, 1 if not, 2 bad usage,
 * 77 no GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t e_ = (call);                                                               \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));        \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

#define STREAM_SAMPLES 1024u
#define ROUNDS 7
#define REPS 5

enum { FOLD, FADD, CONV, MAP, RCP, FULL, IDENT, CONVXOR };

typedef struct {
    unsigned lo[10], hi[10];
} round_keys;

static round_keys keys_of(unsigned long long seed)
{
    round_keys k;
    for (int r = 0; r < 10; ++r) {
        k.lo[r] = (unsigned)seed + (unsigned)r * 0x9E3779B9u;
        k.hi[r] = (unsigned)(seed >> 32) + (unsigned)r * 0xBB67AE85u;
    }
    return k;
}

static __device__ __forceinline__ uint4 philox(uint4 c, const round_keys &keys)
{
#pragma unroll
    for (int r = 0; r < 10; ++r) {
        const unsigned hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
        const unsigned hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
        c = make_uint4(hi1 ^ c.y ^ keys.lo[r], lo1, hi0 ^ c.w ^ keys.hi[r], lo0);
    }
    return c;
}

static __device__ __forceinline__ float rcp_approx(float x)
{
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}

static __device__ __forceinline__ double2 block_sum(double2 v)
{
    __shared__ double2 warp_totals[32];
    for (int o = 16; o > 0; o /= 2) {
        v.x += __shfl_down_sync(0xffffffffu, v.x, o);
        v.y += __shfl_down_sync(0xffffffffu, v.y, o);
    }
    if (threadIdx.x % 32 == 0)
        warp_totals[threadIdx.x / 32] = v;
    __syncthreads();
    v = make_double2(0.0, 0.0);
    if (threadIdx.x == 0)
        for (int w = 0; w < (int)blockDim.x / 32; ++w) {
            v.x += warp_totals[w].x;
            v.y += warp_totals[w].y;
        }
    return v;
}

template <int STAGE>
static __device__ __forceinline__ void add(unsigned r, float offset, float width, float *sum,
                                           float *sq, unsigned *all)
{
    const float u = __uint_as_float(0x3f800000u | (r >> 9));
    if (STAGE == FOLD)
        *all ^= r;
    else if (STAGE == CONVXOR)
        *all ^= __float_as_uint(u);
    else if (STAGE == FADD)
        *sum += __uint_as_float(r);
    else if (STAGE == CONV)
        *sum += u;
    else if (STAGE == MAP)
        *sum += fmaf(width, u, offset);
    else if (STAGE == RCP)
        *sum += rcp_approx(fmaf(width, u, offset));
    else {
        const float f = STAGE == IDENT ? rcp_approx(u) : rcp_approx(fmaf(width, u, offset));
        *sum += f;
        *sq = fmaf(f, f, *sq);
    }
}

template <int STAGE, int U, int T, int B>
__global__ void __launch_bounds__(T, B)
    ladder(unsigned long long streams, const __grid_constant__ round_keys keys, float offset,
           float width, double2 *partials)
{
    double2 acc = make_double2(0.0, 0.0);
    unsigned all = 0;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         s < streams; s += stride) {
        const unsigned s_lo = (unsigned)s, s_hi = (unsigned)(s >> 32);
        float sum[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
#pragma unroll U
        for (unsigned k = 0; k < STREAM_SAMPLES / 4; ++k) {
            const uint4 r = philox(make_uint4(k, 0, s_lo, s_hi), keys);
            add<STAGE>(r.x, offset, width, &sum[0], &sq[0], &all);
            add<STAGE>(r.y, offset, width, &sum[1], &sq[1], &all);
            add<STAGE>(r.z, offset, width, &sum[2], &sq[2], &all);
            add<STAGE>(r.w, offset, width, &sum[3], &sq[3], &all);
        }
        acc.x += (double)((sum[0] + sum[1]) + (sum[2] + sum[3]));
        acc.y += (double)((sq[0] + sq[1]) + (sq[2] + sq[3]));
    }
    acc.x += (double)all;
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

/* Philox alone as the chapter's earlier programs time it: four calls a trip, no minimum. */
__global__ void __launch_bounds__(256)
    philox_only(unsigned long long streams, const __grid_constant__ round_keys keys,
                double2 *partials)
{
    unsigned all = 0;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         s < streams; s += stride) {
        const unsigned s_lo = (unsigned)s, s_hi = (unsigned)(s >> 32);
#pragma unroll 4
        for (unsigned k = 0; k < STREAM_SAMPLES / 4; ++k) {
            const uint4 r = philox(make_uint4(k, 0, s_lo, s_hi), keys);
            all ^= r.x ^ r.y ^ r.z ^ r.w;
        }
    }
    if (all == 0x12345678u) /* never, in practice: keeps the work */
        partials[blockIdx.x] = make_double2(all, 0);
}

typedef struct {
    const char *name;
    const void *kernel;
    void (*run)(int, unsigned long long, const round_keys *, float, float, double2 *);
    int threads, estimate; /* estimate: a full loop, checked */
} candidate;

template <int S, int U, int T, int B>
static void run_ladder(int blocks, unsigned long long streams, const round_keys *keys,
                       float offset, float width, double2 *partials)
{
    ladder<S, U, T, B><<<blocks, T>>>(streams, *keys, offset, width, partials);
}

static void run_alone(int blocks, unsigned long long streams, const round_keys *keys, float o,
                      float w, double2 *partials)
{
    (void)o;
    (void)w;
    philox_only<<<blocks, 256>>>(streams, *keys, partials);
}

static int blocks_of(const candidate *c, int *per_sm, int *regs)
{
    int dev, sms;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, c->kernel, c->threads, 0));
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, c->kernel));
    *regs = a.numRegs;
    return *per_sm * sms;
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char **argv)
{
    const int log2n = argc > 1 ? atoi(argv[1]) : 32;
    const char *only = argc > 2 ? argv[2] : NULL; /* one candidate, once (for the profiler) */
    if (log2n < 20 || log2n > 36) {
        fprintf(stderr, "usage: ladder [log2 of the samples, 20..36] [candidate]\n");
        return 2;
    }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIPPED: no CUDA GPU\n");
        return 77;
    }
    const unsigned long long samples = 1ull << log2n, streams = samples / STREAM_SAMPLES;
    const round_keys keys = keys_of(0x5eed5eed12345ull);
#define L(S, name, U, T, B, E)                                                                 \
    {name, (const void *)ladder<S, U, T, B>, run_ladder<S, U, T, B>, T, E}
    const candidate cands[] = {
        {"philox_alone", (const void *)philox_only, run_alone, 256, 0},
        L(FOLD, "fold", 2, 256, 5, 0),
        L(FADD, "fadd", 2, 256, 5, 0),
        L(CONVXOR, "convxor", 2, 256, 5, 0),
        L(CONV, "conv", 2, 256, 5, 0),
        L(MAP, "map", 2, 256, 5, 0),
        L(RCP, "rcp", 2, 256, 5, 0),
        L(FULL, "full", 2, 256, 5, 1),
        L(IDENT, "ident", 2, 256, 5, 1),
        L(FULL, "full_u4_lb4", 4, 256, 4, 1),
        L(FULL, "full_u2_lb6", 2, 256, 6, 1),
        L(FULL, "full_u2_t128_lb10", 2, 128, 10, 1),
        L(FULL, "full_u3_lb5", 3, 256, 5, 1),
        L(IDENT, "ident_u4_lb4", 4, 256, 4, 1),
        L(CONV, "conv_u4_lb4", 4, 256, 4, 0),
    };
    const int nc = sizeof cands / sizeof cands[0];
    int blocks[32], per_sm[32], regs[32], max_blocks = 0;
    for (int c = 0; c < nc; ++c) {
        blocks[c] = blocks_of(&cands[c], &per_sm[c], &regs[c]);
        if (blocks[c] > max_blocks)
            max_blocks = blocks[c];
    }
    double2 *partials;
    CHECK(cudaMalloc(&partials, max_blocks * sizeof(double2)));
    double2 *host = (double2 *)malloc(max_blocks * sizeof(double2));
    if (only) {
        for (int c = 0; c < nc; ++c)
            if (!strcmp(cands[c].name, only)) {
                cands[c].run(blocks[c], streams, &keys, 0.0f, 1.0f, partials);
                CHECK(cudaGetLastError());
                CHECK(cudaDeviceSynchronize());
                return 0;
            }
        fprintf(stderr, "no candidate %s\n", only);
        return 2;
    }

    int ok = 1, first = -1;
    double est0 = 0;
    for (int c = 0; c < nc; ++c) {
        if (!cands[c].estimate)
            continue;
        CHECK(cudaMemset(partials, 0xFF, max_blocks * sizeof(double2)));
        cands[c].run(blocks[c], streams, &keys, 0.0f, 1.0f, partials);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(host, partials, blocks[c] * sizeof(double2), cudaMemcpyDeviceToHost));
        double s = 0, q = 0;
        for (int b = 0; b < blocks[c]; ++b) {
            s += host[b].x;
            q += host[b].y;
        }
        const double n = (double)samples, mean = s / n, var = q / n - mean * mean;
        const double se = sqrt(var / n);
        if (first < 0) {
            first = c;
            est0 = mean;
        }
        const double err = fabs(mean - log(2.0));
        const int good = isfinite(mean) && err <= 5 * se && fabs(mean - est0) <= 1e-9 * fabs(est0);
        ok &= good;
        fprintf(stderr, "%-18s estimate %.12f, %.2f standard errors from ln 2, vs %s %.2e: %s\n",
                cands[c].name, mean, err / se, cands[first].name, fabs(mean - est0) / est0,
                good ? "ok" : "FAIL");
    }

    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    double ms[32][ROUNDS];
    for (int c = 0; c < nc; ++c)
        cands[c].run(blocks[c], streams, &keys, 0.0f, 1.0f, partials);
    for (int r = 0; r < ROUNDS; ++r)
        for (int c = 0; c < nc; ++c) {
            CHECK(cudaEventRecord(e0));
            for (int i = 0; i < REPS; ++i)
                cands[c].run(blocks[c], streams, &keys, 0.0f, 1.0f, partials);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            CHECK(cudaGetLastError());
            float t;
            CHECK(cudaEventElapsedTime(&t, e0, e1));
            ms[c][r] = t / REPS;
        }
    printf("samples,variant,threads,regs,blocks_per_sm,ms_median,ms_min,ms_max,gsps,"
           "pct_philox_median,pct_philox_min,pct_philox_max,pct_fold_median\n");
    for (int c = 0; c < nc; ++c) {
        double pct[ROUNDS], pf[ROUNDS], t[ROUNDS];
        for (int r = 0; r < ROUNDS; ++r) {
            pct[r] = 100.0 * ms[0][r] / ms[c][r];
            pf[r] = 100.0 * ms[1][r] / ms[c][r];
            t[r] = ms[c][r];
        }
        /* median() sorts in place: t[0] and t[ROUNDS - 1] are then the min and the max */
        const double med = median(t, ROUNDS), pmed = median(pct, ROUNDS);
        const double fmed = median(pf, ROUNDS);
        printf("%llu,%s,%d,%d,%d,%.4f,%.4f,%.4f,%.1f,%.2f,%.2f,%.2f,%.2f\n", samples,
               cands[c].name, cands[c].threads, regs[c], per_sm[c], med, t[0], t[ROUNDS - 1],
               (double)samples / med * 1e-6, pmed, pct[0], pct[ROUNDS - 1], fmed);
    }
    printf("# check: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
