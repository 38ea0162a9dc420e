/* The benchmark-only program matmul_ablations: the configurations of steps 9 and 10 with one
 * idea changed at a time (warptiled_configs.cu, pipelined_configs.cu). Their kernels are built
 * from the macro bodies warptiled_kernel.cuh and pipelined_kernel.cuh; the teaching versions are
 * 09_warptiled.cu and 10_pipelined.cu. */
#ifndef MATMUL_ABLATIONS_H
#define MATMUL_ABLATIONS_H

#include "matmul.h"

#ifdef __cplusplus
extern "C" {
#endif

/* warptiled_configs.cu: N, K % 4 == 0 */
void launch_warptiled_bk8(const matmul_args *a);
void launch_warptiled_bk16(const matmul_args *a);
void launch_warptiled_w64x32_bk16(const matmul_args *a);
void launch_warptiled_64x64_bk8(const matmul_args *a);
void launch_warptiled_64x64_bk16(const matmul_args *a);
void launch_warptiled_128x256(const matmul_args *a);
matmul_kernel_info info_warptiled_bk8(void);
matmul_kernel_info info_warptiled_bk16(void);
matmul_kernel_info info_warptiled_w64x32_bk16(void);
matmul_kernel_info info_warptiled_64x64_bk8(void);
matmul_kernel_info info_warptiled_64x64_bk16(void);
matmul_kernel_info info_warptiled_128x256(void);

/* pipelined_configs.cu: N, K % 4 == 0; each configuration's kernel and block (the
 * instantiation this run launches: cp.async or plain loads). */
void launch_pipelined_128x128(const matmul_args *a);
void launch_pipelined_128x128_s3(const matmul_args *a);
void launch_pipelined_nofdb(const matmul_args *a);
void launch_pipelined_rowmajor(const matmul_args *a);
void launch_pipelined_amap(const matmul_args *a);
void launch_pipelined_bk8(const matmul_args *a);
void launch_pipelined_bk32(const matmul_args *a);
void launch_pipelined_plain(const matmul_args *a);
void launch_pipelined_64x128(const matmul_args *a);
void launch_pipelined_64x128_s2(const matmul_args *a);
void launch_pipelined_128x256(const matmul_args *a);
void launch_pipelined_128x256_bk8(const matmul_args *a);
void launch_pipelined_128x256_bk32(const matmul_args *a);
void launch_pipelined_128x256_noswizzle(const matmul_args *a);
/* candidate_configs.cu: the 128 x 256 configuration (K strip 32) with one idea changed. */
void launch_pipelined_128x256_bk32_g8(const matmul_args *a);
void launch_pipelined_128x256_bk32_t8x16(const matmul_args *a);
matmul_kernel_info info_pipelined_128x128(void);
matmul_kernel_info info_pipelined_128x128_s3(void);
matmul_kernel_info info_pipelined_nofdb(void);
matmul_kernel_info info_pipelined_rowmajor(void);
matmul_kernel_info info_pipelined_amap(void);
matmul_kernel_info info_pipelined_bk8(void);
matmul_kernel_info info_pipelined_bk32(void);
matmul_kernel_info info_pipelined_plain(void);
matmul_kernel_info info_pipelined_64x128(void);
matmul_kernel_info info_pipelined_64x128_s2(void);
matmul_kernel_info info_pipelined_128x256(void);
matmul_kernel_info info_pipelined_128x256_bk8(void);
matmul_kernel_info info_pipelined_128x256_bk32(void);
matmul_kernel_info info_pipelined_128x256_noswizzle(void);
/* candidate_configs.cu */
matmul_kernel_info info_pipelined_128x256_bk32_g8(void);
matmul_kernel_info info_pipelined_128x256_bk32_t8x16(void);

#ifdef __cplusplus
}
#endif

#endif
