/* The matrix-multiply chapter's shared declarations: one problem description, and one launcher
 * per kernel variant. Every matrix is row-major: element (i, j) of A lives at A[i * lda + j].
 *
 *   C (M x N) = A (M x K) * B (K x N)
 *
 * The leading dimensions (lda, ldb, ldc: elements from one row to the next) equal K, N and N for
 * plain cudaMalloc'd matrices; they are larger for pitched (cudaMallocPitch) or padded copies. */
#ifndef MATMUL_H
#define MATMUL_H

#include <stddef.h>

#include "compare.h"
#include "launch_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int M, N, K;
    const float *A; /* device, M x K */
    const float *B; /* device, K x N */
    float *C;       /* device, M x N */
    size_t lda, ldb, ldc;
} matmul_args;

typedef void (*matmul_launch_fn)(const matmul_args *args);

/* What the driver checks against the GPU's limits (occupancy.h) before it runs a variant (and
 * skips it, saying why, where it does not fit): the kernel this run launches, its threads per
 * block, its dynamic shared memory (above 48 KiB it must be asked for: tut_allow_dynamic_shared).
 * Each kernel file has one info_<variant> function per launcher. */
typedef struct {
    const void *kernel;
    int threads;
    size_t dynamic_shared;
    const char *copy; /* pipelined_*: how B is copied, "cp.async" or "plain loads"; else NULL */
    int cluster; /* blocks per cluster it is launched in (wgmma_tf32: 2); 0: no clusters */
} matmul_kernel_info;

typedef matmul_kernel_info (*matmul_info_fn)(void);

/* How many clusters of k->cluster blocks of the kernel the GPU holds at once, as the driver
 * counts them (cudaOccupancyMaxActiveClusters); 0 where none fits or the driver cannot say. The
 * driver's check before a run (matmul.cu) and the launch of wgmma_tf32 ask the same question. */
int matmul_clusters_resident(const matmul_kernel_info *k);

static inline matmul_kernel_info matmul_info(const void *kernel, int threads, size_t dynamic_shared)
{
    matmul_kernel_info info;
    info.kernel = kernel;
    info.threads = threads;
    info.dynamic_shared = dynamic_shared;
    info.copy = NULL;
    info.cluster = 0;
    return info;
}

/* What a variant needs from its inputs; the driver (matmul.cu) prepares copies that satisfy it. */
typedef struct {
    int pad_m, pad_n, pad_k; /* sizes rounded up to these multiples (1 = any size), zero-filled */
    int pitched;             /* rows allocated with cudaMallocPitch */
} matmul_layout;

/* One launcher per kernel file. Each checks its launch (LAUNCH_CHECK). */
void launch_naive_strided(const matmul_args *a);   /* 01_naive.cu: threadIdx.x walks rows */
void launch_naive(const matmul_args *a);           /* 01_naive.cu: threadIdx.x walks columns */
void launch_kahan(const matmul_args *a);           /* 02_kahan.cu */
void launch_row_shared(const matmul_args *a);      /* 03_row_shared.cu (the blog, pitched) */
void launch_tiled(const matmul_args *a);           /* 04_tiled.cu: 16x16 tiles, zero-fill */
void launch_tiled_padded(const matmul_args *a);    /* 05_tiled_padded.cu: sizes % 16 == 0 */
void launch_blocktile_1d(const matmul_args *a);    /* 06_blocktile_1d.cu */
void launch_blocktile_2d(const matmul_args *a);    /* 07_blocktile_2d.cu */
void launch_vectorized(const matmul_args *a);      /* 08_vectorized.cu: N, K % 4 == 0 */
void launch_warptiled(const matmul_args *a);       /* 09_warptiled.cu: N, K % 4 == 0 */
void launch_pipelined(const matmul_args *a);       /* 10_pipelined.cu: N, K % 4 == 0 */
void launch_wmma_tf32(const matmul_args *a);       /* 11_wmma_tf32.cu: N, K % 4 == 0 */
void launch_mma_tf32(const matmul_args *a);        /* 12_mma_tf32.cu: N, K % 4 == 0 */
void launch_mma_3xtf32(const matmul_args *a);      /* 12_mma_tf32.cu: N, K % 4 == 0 */
void launch_wgmma_tf32(const matmul_args *a);      /* 13_wgmma_tf32.cu: sm_90a, N, K % 4 == 0 */
void launch_wgmma_3xtf32(const matmul_args *a);    /* 13_wgmma_tf32.cu: sm_90a, N, K % 4 == 0 */
void wgmma_release(void); /* frees step 13's 3xTF32 split copies of A */
/* launch_wgmma_tf32 and launch_wgmma_3xtf32 cut K into parts where their tiles (or pairs of
 * tiles) leave SMs idle, as many as wgmma_k_splits counts; from now on into `parts` whatever the
 * count (matmul_demo --k-parts, 1 to 64), or as counted again (0). wgmma_tf32_k_parts: the parts
 * the last launch of either used (1: whole tiles). */
void wgmma_tf32_set_k_parts(int parts);
int wgmma_tf32_k_parts(void);
/* A test of the launch numbers' wrap (matmul_demo --launch-number), before any launch that cuts
 * K (later, a number below the last would leave every claim failing, and the launch would trap):
 * the next launch that cuts K takes the number after `last`, as if `last` such launches had
 * run (wgmma_next_launch). */
void wgmma_tf32_set_launch_number(unsigned last);
/* matmul_demo --tma-rounding: what TMA writes into shared memory through an FP32 and a TF32
 * tensor map (step 13 relies on the second rounding to nearest); writes tma_rounding.csv into
 * outdir when given. 0 as relied on, 1 not, 77 off a 9.0 GPU. */
int wgmma_tma_rounding(const char *outdir);
/* Their kernels and blocks (matmul_kernel_info). */
matmul_kernel_info info_wmma_tf32(void);
matmul_kernel_info info_mma_tf32(void);
matmul_kernel_info info_mma_3xtf32(void);
matmul_kernel_info info_wgmma_tf32(void);
matmul_kernel_info info_wgmma_3xtf32(void);
matmul_kernel_info info_naive_strided(void);
matmul_kernel_info info_naive(void);
matmul_kernel_info info_kahan(void);
matmul_kernel_info info_row_shared(void);
matmul_kernel_info info_tiled(void);
matmul_kernel_info info_tiled_padded(void);
matmul_kernel_info info_blocktile_1d(void);
matmul_kernel_info info_blocktile_2d(void);
matmul_kernel_info info_vectorized(void);
matmul_kernel_info info_warptiled(void);
/* The configuration launch_pipelined takes for an M x N result on this GPU (launch_config.h),
 * and one line, for the whole run, about how B is copied (cp.async or plain loads). */
pipelined_choice pipelined_choice_for(int M, int N);
void pipelined_print_copy_path(void);
/* From now on launch_pipelined takes configuration `tile` (a pipelined_tile) whatever the size;
 * -1: it chooses again. Returns 0 if that configuration does not fit this GPU. */
int pipelined_set_tile(int tile);

/* cublas_matmul.cu: cuBLAS SGEMM on row-major data, plain FP32 (pedantic) or TF32 tensor cores. */
void cublas_matmul_init(void);
void cublas_matmul_destroy(void);
void launch_cublas_fp32(const matmul_args *a);
void launch_cublas_tf32(const matmul_args *a);

/* pitfall.cu: the documents' first shared-memory kernel (TPB = 3), as written and fixed. */
int run_pitfall_demo(int buggy_only, int fixed_only);

/* cpu_reference.c: C = A * B in float64, rows [row_begin, row_end) only (all rows: 0, M). */
void cpu_matmul_f64(int M, int N, int K, const float *A, const float *B, double *C,
                    int row_begin, int row_end);

/* The tolerance for an FP32 result with a K-term dot product: |error| <= atol + rtol |want|. */
double matmul_atol(int K, double max_abs_input);

/* TF32 on the CPU: x rounded to nearest (ties away, as cvt.rna.tf32.f32; or ties to even, as
 * TMA through a TF32 tensor map) or truncated to TF32's 10 mantissa bits; infinities and NaN
 * unchanged. */
float matmul_round_tf32(float x);
float matmul_round_tf32_even(float x);
float matmul_truncate_tf32(float x);
/* The bound of a TF32 product with K-term dot products: |c - exact| <= bound (|A||B|)_ij
 * (cpu_reference.c derives it). */
double matmul_tf32_bound(int K);
/* Checks |got - want| <= bound * scale[i] element by element (scale: |A||B|), against a float64
 * (want64) or a float (want32, when want64 is NULL) reference; NaN fails. Prints one line like
 * compare.h's checks, fills *e (may be NULL); returns 1 if every element passes. */
int matmul_check_scaled(const char *label, const float *got, const double *want64,
                        const float *want32, const float *scale, size_t n, double bound,
                        tut_errors *e);

#ifdef __cplusplus
}
#endif

#endif
