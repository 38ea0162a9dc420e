/* The table of variants the driver runs, in the chapter's order: what each is called, how it is
 * launched and what layout of its inputs it needs. matmul.cu built with MATMUL_ABLATIONS (the
 * program matmul_ablations) runs the second table instead: the ablations of steps 9 and 10.
 * The --variant choices are built from the names here (matmul.cu), so there is no second list
 * to keep in step. */
#ifndef MATMUL_VARIANTS_H
#define MATMUL_VARIANTS_H

#include "matmul.h"
#ifdef MATMUL_ABLATIONS
#include "ablations/ablations.h"
#endif

typedef struct {
    const char *name;
    matmul_launch_fn launch;
    matmul_layout layout;
    int tf32;  /* TF32 inputs: checked against the TF32 bound (matmul_tf32_bound), reported as
                  a share of cuBLAS TF32 (which must come before them in the table) */
    int tensor_cores; /* needs TF32 tensor cores (compute capability 8.0): skipped below */
    int hopper; /* needs compute capability 9.0 (wgmma, TMA; code built for sm_90a alone) */
    int slow;  /* the early steps: skipped by the size sweep */
    int sweep; /* drawn in the GFLOP/s-vs-size plot */
    /* The kernel and block the driver checks against the GPU before running it (a configuration
     * that does not fit is skipped with the reason; tests/launch_config_test.c proves which fit
     * on each GPU of gpu_table.h). NULL for cuBLAS, and for launch_pipelined, which chooses
     * among configurations that fit (launch_config.c). */
    matmul_info_fn info;
    /* Into how many parts its last launch cut K (the CSV's config column says it); NULL where
     * it never does. */
    int (*k_parts)(void);
} matmul_variant;

/* The layouts (matmul_layout): any size; cudaMallocPitch rows; sizes padded to 16 (no bounds
 * checks); N and K padded to 4 (float4 rows). */
#define DENSE {.pad_m = 1, .pad_n = 1, .pad_k = 1, .pitched = 0}
#define PITCHED {.pad_m = 1, .pad_n = 1, .pad_k = 1, .pitched = 1}
#define TILES_OF_16 {.pad_m = 16, .pad_n = 16, .pad_k = 16, .pitched = 0}
#define FLOAT4_ROWS {.pad_m = 1, .pad_n = 4, .pad_k = 4, .pitched = 0}

#ifndef MATMUL_ABLATIONS
/* The chapter's steps (matmul_demo). */
static const matmul_variant matmul_variants[] = {
    /* cuBLAS first: the others are reported as a percentage of it. */
    {.name = "cublas", .launch = launch_cublas_fp32,
     .layout = DENSE, .sweep = 1},
    {.name = "naive_strided", .launch = launch_naive_strided,
     .layout = DENSE, .slow = 1, .info = info_naive_strided},
    {.name = "naive", .launch = launch_naive,
     .layout = DENSE, .slow = 1, .sweep = 1, .info = info_naive},
    {.name = "kahan", .launch = launch_kahan,
     .layout = DENSE, .slow = 1, .info = info_kahan},
    {.name = "row_shared", .launch = launch_row_shared,
     .layout = PITCHED, .slow = 1, .info = info_row_shared},
    {.name = "tiled", .launch = launch_tiled,
     .layout = DENSE, .sweep = 1, .info = info_tiled},
    {.name = "tiled_padded", .launch = launch_tiled_padded,
     .layout = TILES_OF_16, .info = info_tiled_padded},
    {.name = "blocktile_1d", .launch = launch_blocktile_1d,
     .layout = DENSE, .info = info_blocktile_1d},
    {.name = "blocktile_2d", .launch = launch_blocktile_2d,
     .layout = DENSE, .sweep = 1, .info = info_blocktile_2d},
    {.name = "vectorized", .launch = launch_vectorized,
     .layout = FLOAT4_ROWS, .sweep = 1, .info = info_vectorized},
    {.name = "warptiled", .launch = launch_warptiled,
     .layout = FLOAT4_ROWS, .sweep = 1, .info = info_warptiled},
    {.name = "pipelined", .launch = launch_pipelined,
     .layout = FLOAT4_ROWS, .sweep = 1},
    /* The tensor cores: cuBLAS TF32 first, the TF32 kernels are reported as a share of it;
     * 3xTF32 has FP32's accuracy and is reported as a share of cuBLAS FP32. */
    {.name = "cublas_tf32", .launch = launch_cublas_tf32,
     .layout = DENSE, .tf32 = 1, .sweep = 1},
    {.name = "wmma_tf32", .launch = launch_wmma_tf32,
     .layout = FLOAT4_ROWS, .tf32 = 1, .tensor_cores = 1, .info = info_wmma_tf32},
    {.name = "mma_tf32", .launch = launch_mma_tf32,
     .layout = FLOAT4_ROWS, .tf32 = 1, .tensor_cores = 1, .sweep = 1, .info = info_mma_tf32},
    {.name = "mma_3xtf32", .launch = launch_mma_3xtf32,
     .layout = FLOAT4_ROWS, .tensor_cores = 1, .sweep = 1, .info = info_mma_3xtf32},
    {.name = "wgmma_tf32", .launch = launch_wgmma_tf32, .layout = FLOAT4_ROWS, .tf32 = 1,
     .tensor_cores = 1, .hopper = 1, .sweep = 1, .info = info_wgmma_tf32,
     .k_parts = wgmma_tf32_k_parts},
    {.name = "wgmma_3xtf32", .launch = launch_wgmma_3xtf32, .layout = FLOAT4_ROWS,
     .tensor_cores = 1, .hopper = 1, .sweep = 1, .info = info_wgmma_3xtf32,
     .k_parts = wgmma_tf32_k_parts},
};
#else
/* The benchmark-only program matmul_ablations: steps 9 and 10 beside their configurations with
 * one idea changed (ablations/). */
static const matmul_variant matmul_variants[] = {
    {.name = "cublas", .launch = launch_cublas_fp32, .layout = DENSE},
    {.name = "warptiled", .launch = launch_warptiled,
     .layout = FLOAT4_ROWS, .info = info_warptiled},
    {.name = "warptiled_bk8", .launch = launch_warptiled_bk8,
     .layout = FLOAT4_ROWS, .info = info_warptiled_bk8},
    {.name = "warptiled_bk16", .launch = launch_warptiled_bk16,
     .layout = FLOAT4_ROWS, .info = info_warptiled_bk16},
    {.name = "warptiled_w64x32_bk16", .launch = launch_warptiled_w64x32_bk16,
     .layout = FLOAT4_ROWS, .info = info_warptiled_w64x32_bk16},
    {.name = "warptiled_64x64_bk8", .launch = launch_warptiled_64x64_bk8,
     .layout = FLOAT4_ROWS, .info = info_warptiled_64x64_bk8},
    {.name = "warptiled_64x64_bk16", .launch = launch_warptiled_64x64_bk16,
     .layout = FLOAT4_ROWS, .info = info_warptiled_64x64_bk16},
    {.name = "warptiled_128x256", .launch = launch_warptiled_128x256,
     .layout = FLOAT4_ROWS, .info = info_warptiled_128x256},
    {.name = "pipelined", .launch = launch_pipelined, .layout = FLOAT4_ROWS},
    {.name = "pipelined_128x128", .launch = launch_pipelined_128x128,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x128},
    {.name = "pipelined_plain", .launch = launch_pipelined_plain,
     .layout = FLOAT4_ROWS, .info = info_pipelined_plain},
    {.name = "pipelined_128x128_s3", .launch = launch_pipelined_128x128_s3,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x128_s3},
    {.name = "pipelined_nofdb", .launch = launch_pipelined_nofdb,
     .layout = FLOAT4_ROWS, .info = info_pipelined_nofdb},
    {.name = "pipelined_rowmajor", .launch = launch_pipelined_rowmajor,
     .layout = FLOAT4_ROWS, .info = info_pipelined_rowmajor},
    {.name = "pipelined_amap", .launch = launch_pipelined_amap,
     .layout = FLOAT4_ROWS, .info = info_pipelined_amap},
    {.name = "pipelined_bk8", .launch = launch_pipelined_bk8,
     .layout = FLOAT4_ROWS, .info = info_pipelined_bk8},
    {.name = "pipelined_bk32", .launch = launch_pipelined_bk32,
     .layout = FLOAT4_ROWS, .info = info_pipelined_bk32},
    {.name = "pipelined_64x128", .launch = launch_pipelined_64x128,
     .layout = FLOAT4_ROWS, .info = info_pipelined_64x128},
    {.name = "pipelined_64x128_s2", .launch = launch_pipelined_64x128_s2,
     .layout = FLOAT4_ROWS, .info = info_pipelined_64x128_s2},
    {.name = "pipelined_128x256", .launch = launch_pipelined_128x256,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x256},
    {.name = "pipelined_128x256_bk8", .launch = launch_pipelined_128x256_bk8,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x256_bk8},
    {.name = "pipelined_128x256_bk32", .launch = launch_pipelined_128x256_bk32,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x256_bk32},
    {.name = "pipelined_128x256_noswizzle", .launch = launch_pipelined_128x256_noswizzle,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x256_noswizzle},
    {.name = "pipelined_128x256_bk32_g8", .launch = launch_pipelined_128x256_bk32_g8,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x256_bk32_g8},
    {.name = "pipelined_128x256_bk32_t8x16", .launch = launch_pipelined_128x256_bk32_t8x16,
     .layout = FLOAT4_ROWS, .info = info_pipelined_128x256_bk32_t8x16},
};
#endif

#undef DENSE
#undef PITCHED
#undef TILES_OF_16
#undef FLOAT4_ROWS

#define MATMUL_VARIANT_COUNT ((int)(sizeof(matmul_variants) / sizeof(matmul_variants[0])))

#endif
