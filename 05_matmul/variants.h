/* The table of variants the driver runs, in the chapter's order: what each is called, how it is
 * launched and what layout of its inputs it needs. */
#ifndef MATMUL_VARIANTS_H
#define MATMUL_VARIANTS_H

#include "matmul.h"

typedef struct {
    const char *name;
    matmul_launch_fn launch;
    matmul_layout layout;
    int tf32;   /* tensor-core TF32: less precise, its own tolerance, context only */
    int slow;   /* the early steps: skipped by the size sweep */
    int sweep;  /* drawn in the GFLOP/s-vs-size plot */
} matmul_variant;

/* The --variant choices: "all" first, then the table's names in order. */
#define MATMUL_VARIANT_CHOICES                                                                 \
    "all|cublas|naive_strided|naive|kahan|row_shared|tiled|tiled_padded|blocktile_1d|"         \
    "blocktile_2d|vectorized|warptiled_bk8|warptiled_bk16|warptiled_w64x32_bk16|"              \
    "warptiled_64x64_bk8|"                                                                     \
    "warptiled_64x64_bk16|warptiled_128x256|pipelined|pipelined_128x128|"                     \
    "pipelined_128x128_s3|pipelined_nofdb|pipelined_rowmajor|pipelined_amap|pipelined_bk8|"  \
    "pipelined_64x128|pipelined_64x128_s2|cublas_tf32"

static const matmul_variant matmul_variants[] = {
    /* cuBLAS first: the others are reported as a percentage of it. */
    {"cublas", launch_cublas_fp32, {1, 1, 1, 0}, 0, 0, 1},
    {"naive_strided", launch_naive_strided, {1, 1, 1, 0}, 0, 1, 0},
    {"naive", launch_naive, {1, 1, 1, 0}, 0, 1, 1},
    {"kahan", launch_kahan, {1, 1, 1, 0}, 0, 1, 0},
    {"row_shared", launch_row_shared, {1, 1, 1, 1}, 0, 1, 0},
    {"tiled", launch_tiled, {1, 1, 1, 0}, 0, 0, 1},
    {"tiled_padded", launch_tiled_padded, {16, 16, 16, 0}, 0, 0, 0},
    {"blocktile_1d", launch_blocktile_1d, {1, 1, 1, 0}, 0, 0, 0},
    {"blocktile_2d", launch_blocktile_2d, {1, 1, 1, 0}, 0, 0, 1},
    {"vectorized", launch_vectorized, {1, 4, 4, 0}, 0, 0, 1},
    {"warptiled_bk8", launch_warptiled_bk8, {1, 4, 4, 0}, 0, 0, 1},
    {"warptiled_bk16", launch_warptiled_bk16, {1, 4, 4, 0}, 0, 0, 1},
    {"warptiled_w64x32_bk16", launch_warptiled_w64x32_bk16, {1, 4, 4, 0}, 0, 0, 1},
    {"warptiled_64x64_bk8", launch_warptiled_64x64_bk8, {1, 4, 4, 0}, 0, 0, 1},
    {"warptiled_64x64_bk16", launch_warptiled_64x64_bk16, {1, 4, 4, 0}, 0, 0, 1},
    {"warptiled_128x256", launch_warptiled_128x256, {1, 4, 4, 0}, 0, 0, 1},
    {"pipelined", launch_pipelined, {1, 4, 4, 0}, 0, 0, 1},
    {"pipelined_128x128", launch_pipelined_128x128, {1, 4, 4, 0}, 0, 0, 0},
    {"pipelined_128x128_s3", launch_pipelined_128x128_s3, {1, 4, 4, 0}, 0, 0, 0},
    {"pipelined_nofdb", launch_pipelined_nofdb, {1, 4, 4, 0}, 0, 0, 0},
    {"pipelined_rowmajor", launch_pipelined_rowmajor, {1, 4, 4, 0}, 0, 0, 0},
    {"pipelined_amap", launch_pipelined_amap, {1, 4, 4, 0}, 0, 0, 0},
    {"pipelined_bk8", launch_pipelined_bk8, {1, 4, 4, 0}, 0, 0, 0},
    {"pipelined_64x128", launch_pipelined_64x128, {1, 4, 4, 0}, 0, 0, 0},
    {"pipelined_64x128_s2", launch_pipelined_64x128_s2, {1, 4, 4, 0}, 0, 0, 0},
    {"cublas_tf32", launch_cublas_tf32, {1, 1, 1, 0}, 1, 0, 1},
};

#define MATMUL_VARIANT_COUNT ((int)(sizeof(matmul_variants) / sizeof(matmul_variants[0])))

#endif
