/* debug_release_kernels.cu, compiled twice: with optimised device code and with -G. */
#ifndef MATMUL_DEBUG_RELEASE_H
#define MATMUL_DEBUG_RELEASE_H

typedef void (*dr_launch_fn)(int M, int N, int K, const float *A, const float *B, float *C);

void launch_naive_release(int M, int N, int K, const float *A, const float *B, float *C);
void launch_naive_debug(int M, int N, int K, const float *A, const float *B, float *C);
void launch_tiled_release(int M, int N, int K, const float *A, const float *B, float *C);
void launch_tiled_debug(int M, int N, int K, const float *A, const float *B, float *C);

#endif
