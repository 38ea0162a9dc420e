/* (2026-11-29: five_trial.csv, beside this file, was measured with it, on an H200.)
 * A measurement, not a step of the chapter: the trial that led to the chapter's packed
 * conversion (streams.h). The counter loop for 1/x on [1, 2] (the shifted conversion, the sums
 * of f and f^2), with four uniforms a Philox call or five (the fifth from the 23 bits the four
 * drop), in several shapes (U calls a trip, at least B blocks of 256 per SM), timed per sample
 * against Philox alone (four samples a call), interleaved, 7 rounds of 5 launches. Every
 * estimate is checked against ln 2 (within 5 standard errors). Build:
 * nvcc -O3 -arch=native -o five_trial five_trial.cu ; run: ./five_trial [log2 samples] (CSV on
 * stdout). Exit 0 if every estimate holds, 1 if not, 77 no GPU. */
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


static __device__ __forceinline__ void add(unsigned mant_bits, float offset, float width,
                                           float *sum, float *sq)
{
    const float u = __uint_as_float(0x3f800000u | mant_bits);
    const float f = rcp_approx(fmaf(width, u, offset));
    *sum += f;
    *sq = fmaf(f, f, *sq);
}

template <int FIVE, int U, int T, int B>
__global__ void __launch_bounds__(T, B)
    fused(unsigned long long streams, const __grid_constant__ round_keys keys, float offset,
          float width, double2 *partials)
{
    double2 acc = make_double2(0.0, 0.0);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         s < streams; s += stride) {
        const unsigned s_lo = (unsigned)s, s_hi = (unsigned)(s >> 32);
        float sum[5] = {0, 0, 0, 0, 0}, sq[5] = {0, 0, 0, 0, 0};
#pragma unroll U
        for (unsigned k = 0; k < 256; ++k) {
            const uint4 r = philox(make_uint4(k, 0, s_lo, s_hi), keys);
            add(r.x >> 9, offset, width, &sum[0], &sq[0]);
            add(r.y >> 9, offset, width, &sum[1], &sq[1]);
            add(r.z >> 9, offset, width, &sum[2], &sq[2]);
            add(r.w >> 9, offset, width, &sum[3], &sq[3]);
            if (FIVE)
                add((r.x + (r.y << 9) + (r.z << 18)) & 0x7fffffu, offset, width, &sum[4], &sq[4]);
        }
        acc.x += (double)((sum[0] + sum[1]) + (sum[2] + sum[3]) + sum[4]);
        acc.y += (double)((sq[0] + sq[1]) + (sq[2] + sq[3]) + sq[4]);
    }
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

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
        for (unsigned k = 0; k < 256; ++k) {
            const uint4 r = philox(make_uint4(k, 0, s_lo, s_hi), keys);
            all ^= r.x ^ r.y ^ r.z ^ r.w;
        }
    }
    if (all == 0x12345678u)
        partials[blockIdx.x] = make_double2(all, 0);
}

typedef void (*launch_fn)(int, unsigned long long, const round_keys *, double2 *);
typedef struct {
    const char *name;
    const void *kernel;
    launch_fn run;
    int threads, per_call; /* samples per Philox call; 0: Philox alone (4 words) */
} candidate;

template <int F, int U, int T, int B>
static void run_fused(int blocks, unsigned long long streams, const round_keys *k, double2 *p)
{
    fused<F, U, T, B><<<blocks, T>>>(streams, *k, 0.0f, 1.0f, p);
}
static void run_alone(int blocks, unsigned long long streams, const round_keys *k, double2 *p)
{
    philox_only<<<blocks, 256>>>(streams, *k, p);
}

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const int log2n = argc > 1 ? atoi(argv[1]) : 32;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0)
        return 77;
    const unsigned long long calls = (1ull << log2n) / 4, streams = calls / 256;
    const round_keys keys = keys_of(0x5eed5eed12345ull);
#define C(F, name, U, T, B) {name, (const void *)fused<F, U, T, B>, run_fused<F, U, T, B>, T, F ? 5 : 4}
    const candidate cands[] = {
        {"philox_alone", (const void *)philox_only, run_alone, 256, 0},
        C(0, "four_u2_lb5", 2, 256, 5),   C(0, "four_u4_lb3", 4, 256, 3),
        C(1, "five_u2_lb5", 2, 256, 5),   C(1, "five_u2_lb4", 2, 256, 4),
        C(1, "five_u4_lb4", 4, 256, 4),   C(1, "five_u4_lb3", 4, 256, 3),
        C(1, "five_u1_lb6", 1, 256, 6),   C(1, "five_u2_lb0", 2, 256, 1),
    };
    const int nc = sizeof cands / sizeof cands[0];
    int dev, sms, blocks[16], per_sm[16], regs[16];
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    for (int c = 0; c < nc; ++c) {
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[c], cands[c].kernel, cands[c].threads, 0));
        cudaFuncAttributes a;
        CHECK(cudaFuncGetAttributes(&a, cands[c].kernel));
        regs[c] = a.numRegs;
        blocks[c] = per_sm[c] * sms;
    }
    double2 *partials, host[8192];
    CHECK(cudaMalloc(&partials, 8192 * sizeof(double2)));
    int ok = 1;
    for (int c = 1; c < nc; ++c) {
        CHECK(cudaMemset(partials, 0xFF, 8192 * sizeof(double2)));
        cands[c].run(blocks[c], streams, &keys, partials);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(host, partials, blocks[c] * sizeof(double2), cudaMemcpyDeviceToHost));
        double s = 0, q = 0;
        for (int b = 0; b < blocks[c]; ++b) { s += host[b].x; q += host[b].y; }
        const double n = (double)calls * cands[c].per_call, mean = s / n;
        const double se = sqrt((q / n - mean * mean) / n), err = fabs(mean - log(2.0));
        const int good = isfinite(mean) && err <= 5 * se;
        ok &= good;
        fprintf(stderr, "%-14s n=%.0f estimate %.12f, %.2f se from ln 2: %s\n", cands[c].name, n,
                mean, err / se, good ? "ok" : "FAIL");
    }
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    double ns[16][ROUNDS]; /* ns per sample */
    for (int c = 0; c < nc; ++c)
        cands[c].run(blocks[c], streams, &keys, partials);
    for (int r = 0; r < ROUNDS; ++r)
        for (int c = 0; c < nc; ++c) {
            CHECK(cudaEventRecord(e0));
            for (int i = 0; i < REPS; ++i)
                cands[c].run(blocks[c], streams, &keys, partials);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float t;
            CHECK(cudaEventElapsedTime(&t, e0, e1));
            const double n = (double)calls * (cands[c].per_call ? cands[c].per_call : 4);
            ns[c][r] = t / REPS * 1e6 / n;
        }
    printf("log2_calls_x4,variant,per_call,regs,blocks_per_sm,gsps_median,pct_philox_median,pct_philox_min,pct_philox_max\n");
    for (int c = 0; c < nc; ++c) {
        double pct[ROUNDS], t[ROUNDS];
        for (int r = 0; r < ROUNDS; ++r) { pct[r] = 100.0 * ns[0][r] / ns[c][r]; t[r] = ns[c][r]; }
        qsort(pct, ROUNDS, sizeof(double), cmp);
        qsort(t, ROUNDS, sizeof(double), cmp);
        printf("%d,%s,%d,%d,%d,%.1f,%.2f,%.2f,%.2f\n", log2n, cands[c].name, cands[c].per_call, regs[c],
               per_sm[c], 1.0 / t[ROUNDS / 2], pct[ROUNDS / 2], pct[0], pct[ROUNDS - 1]);
    }
    printf("# check: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
