/* (2026-11-29: occupancy_candidates.csv was measured with this program; the comment below is
 * the FP64 trial's it started from: its candidates are now the counter loop with U calls per
 * trip and at least B blocks per SM, u<U>_lb<B>.)
 * A measurement, not a step of the chapter: does the fused kernel lose its last points to Philox
 * alone because its float sums share the FMA pipe with Philox's integer multiplies?
 *
 * The chapter's fused kernel (fused_philox_impl.cuh, counter loop, 1/x on [1, 2], the shifted
 * conversion) adds each sample into float lanes: one FADD and one FFMA per sample, on the FMA
 * pipe, whose heavy half also runs every IMAD.WIDE of Philox. The candidates here keep the same
 * streams, the same Philox calls and the same 1/x, and move the two sums to the FP64 pipe
 * (a float-to-double conversion, a DADD and a DFMA per sample), which Philox does not use:
 *   float4     the chapter's loop, copied: four float lanes per stream, then a double per stream
 *   double1    one double pair (sum, sum of squares) per stream
 *   double2    two double pairs per stream (words x, y into one, z, w into the other)
 * and Philox alone (its four words XORed together), the chapter's ceiling. Each is checked
 * (the three estimates agree to 1e-9 relative and lie within 5 standard errors of ln 2), then
 * timed in the same process, interleaved, ROUNDS rounds of REPS launches after a warm-up.
 *
 * Build: nvcc -O3 -arch=native -o occupancy_candidates occupancy_candidates.cu ;
 * run: ./occupancy_candidates [log2 samples]
 * Output: CSV on stdout (variant, registers, blocks per SM, ms median/min/max, G samples/s,
 * percent of Philox alone median/min/max over the rounds). */
#include <math.h>
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
#define STREAM_SAMPLES 1024u /* 256 Philox calls per stream, as the chapter */
#define ROUNDS 5
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

/* 1/x of the shifted uniform u = 1.m in [1, 2): x = offset + width u, offset = a - width (as the
 * chapter: both kernel parameters, 0 and 1 for [1, 2]). */
static __device__ __forceinline__ float f_of(unsigned r, float offset, float width)
{
    const float u = __uint_as_float(0x3f800000u | (r >> 9));
    return rcp_approx(fmaf(width, u, offset));
}

static __device__ __forceinline__ double2 block_sum(double2 v)
{
    __shared__ double2 warp_totals[THREADS / 32];
    for (int o = 16; o > 0; o /= 2) {
        v.x += __shfl_down_sync(0xffffffffu, v.x, o);
        v.y += __shfl_down_sync(0xffffffffu, v.y, o);
    }
    if (threadIdx.x % 32 == 0)
        warp_totals[threadIdx.x / 32] = v;
    __syncthreads();
    v = make_double2(0.0, 0.0);
    if (threadIdx.x == 0)
        for (int w = 0; w < THREADS / 32; ++w) {
            v.x += warp_totals[w].x;
            v.y += warp_totals[w].y;
        }
    return v;
}

/* The chapter's counter loop (four float lanes per stream), UNROLL calls per trip, at least MINB
 * blocks per SM (0: no minimum). */
template <int UNROLL, int MINB>
__global__ void __launch_bounds__(THREADS, MINB)
    fused(unsigned long long streams, const __grid_constant__ round_keys keys, float offset,
          float width, double2 *partials)
{
    double2 acc = make_double2(0.0, 0.0);
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long s = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
         s < streams; s += stride) {
        const unsigned s_lo = (unsigned)s, s_hi = (unsigned)(s >> 32);
        float sum[4] = {0, 0, 0, 0}, sq[4] = {0, 0, 0, 0};
#pragma unroll UNROLL
        for (unsigned k = 0; k < STREAM_SAMPLES / 4; ++k) {
            const uint4 r = philox(make_uint4(k, 0, s_lo, s_hi), keys);
            const float f[4] = {f_of(r.x, offset, width), f_of(r.y, offset, width),
                                f_of(r.z, offset, width), f_of(r.w, offset, width)};
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                sum[i] += f[i];
                sq[i] = fmaf(f[i], f[i], sq[i]);
            }
        }
        acc.x += (double)((sum[0] + sum[1]) + (sum[2] + sum[3]));
        acc.y += (double)((sq[0] + sq[1]) + (sq[2] + sq[3]));
    }
    acc = block_sum(acc);
    if (threadIdx.x == 0)
        partials[blockIdx.x] = acc;
}

__global__ void __launch_bounds__(THREADS)
    philox_only(unsigned long long streams, const __grid_constant__ round_keys keys,
                unsigned *sink)
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
    sink[(size_t)blockIdx.x * blockDim.x + threadIdx.x] = all;
}

typedef struct {
    const char *name;
    const void *kernel;
    void (*run)(int, unsigned long long, const round_keys *, double2 *); /* NULL: Philox alone */
} candidate;

template <int U, int B>
static void run_fused(int blocks, unsigned long long streams, const round_keys *keys,
                      double2 *partials)
{
    fused<U, B><<<blocks, THREADS>>>(streams, *keys, 0.0f, 1.0f, partials);
}

static int blocks_of(const void *kernel, int *per_sm, int *regs)
{
    int dev, sms;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(per_sm, kernel, THREADS, 0));
    cudaFuncAttributes a;
    CHECK(cudaFuncGetAttributes(&a, kernel));
    *regs = a.numRegs;
    return *per_sm * sms;
}

static void launch(const candidate *c, int blocks, unsigned long long streams,
                   const round_keys *keys, double2 *partials, unsigned *sink)
{
    if (c->run)
        c->run(blocks, streams, keys, partials);
    else
        philox_only<<<blocks, THREADS>>>(streams, *keys, sink);
    CHECK(cudaGetLastError());
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
    if (log2n < 20 || log2n > 36) {
        fprintf(stderr, "usage: occupancy_candidates [log2 of the samples, 20..36]\n");
        return 2;
    }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIPPED: no CUDA GPU\n");
        return 77;
    }
    const unsigned long long samples = 1ull << log2n, streams = samples / STREAM_SAMPLES;
    const round_keys keys = keys_of(0x5eed5eed12345ull);
#define C(U, B) {"u" #U "_lb" #B, (const void *)fused<U, B>, run_fused<U, B>}
    const candidate cands[] = {{"philox_alone", (const void *)philox_only, NULL},
                               C(4, 4), C(4, 0), C(2, 0), C(2, 4), C(2, 5), C(1, 5), C(1, 6),
                               C(8, 3)};
    const int nc = sizeof cands / sizeof cands[0];
    int blocks[16], per_sm[16], regs[16], max_blocks = 0;
    for (int c = 0; c < nc; ++c) {
        blocks[c] = blocks_of(cands[c].kernel, &per_sm[c], &regs[c]);
        if (blocks[c] > max_blocks)
            max_blocks = blocks[c];
    }
    double2 *partials;
    unsigned *sink;
    CHECK(cudaMalloc(&partials, max_blocks * sizeof(double2)));
    CHECK(cudaMalloc(&sink, (size_t)max_blocks * THREADS * sizeof(unsigned)));
    double2 *host = (double2 *)malloc(max_blocks * sizeof(double2));

    /* The check: every candidate's estimate and its standard error. */
    int ok = 1;
    double est[16] = {0};
    for (int c = 1; c < nc; ++c) {
        launch(&cands[c], blocks[c], streams, &keys, partials, sink);
        CHECK(cudaMemcpy(host, partials, blocks[c] * sizeof(double2), cudaMemcpyDeviceToHost));
        double s = 0, q = 0;
        for (int b = 0; b < blocks[c]; ++b) {
            s += host[b].x;
            q += host[b].y;
        }
        const double n = (double)samples, mean = s / n, var = q / n - mean * mean;
        const double se = sqrt(var / n);
        est[c] = mean;
        const double err = fabs(mean - log(2.0));
        const int good = isfinite(mean) && err <= 5 * se &&
                         fabs(mean - est[1]) <= 1e-9 * fabs(est[1]);
        ok &= good;
        fprintf(stderr, "%-8s estimate %.10f, ln 2 %.10f, %.2f standard errors away, vs u4_lb4 "
                "%.2e relative: %s\n", cands[c].name, mean, log(2.0), err / se,
                fabs(mean - est[1]) / fabs(est[1]), good ? "ok" : "FAIL");
    }

    /* Interleaved rounds: warm-up, then REPS launches per candidate and round. */
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    double ms[16][ROUNDS];
    for (int c = 0; c < nc; ++c)
        launch(&cands[c], blocks[c], streams, &keys, partials, sink);
    for (int r = 0; r < ROUNDS; ++r)
        for (int c = 0; c < nc; ++c) {
            CHECK(cudaEventRecord(e0));
            for (int i = 0; i < REPS; ++i)
                launch(&cands[c], blocks[c], streams, &keys, partials, sink);
            CHECK(cudaEventRecord(e1));
            CHECK(cudaEventSynchronize(e1));
            float t;
            CHECK(cudaEventElapsedTime(&t, e0, e1));
            ms[c][r] = t / REPS;
        }
    printf("variant,regs,blocks_per_sm,ms_median,ms_min,ms_max,gsps,pct_philox_median,"
           "pct_philox_min,pct_philox_max\n");
    for (int c = 0; c < nc; ++c) {
        double pct[ROUNDS], t[ROUNDS];
        for (int r = 0; r < ROUNDS; ++r) {
            pct[r] = 100.0 * ms[0][r] / ms[c][r];
            t[r] = ms[c][r];
        }
        const double med = median(t, ROUNDS), lo = t[0], hi = t[ROUNDS - 1];
        const double pmed = median(pct, ROUNDS);
        printf("%s,%d,%d,%.4f,%.4f,%.4f,%.1f,%.2f,%.2f,%.2f\n", cands[c].name, regs[c],
               per_sm[c], med, lo, hi, (double)samples / med * 1e-6, pmed, pct[0],
               pct[ROUNDS - 1]);
    }
    printf("# check: %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
