/* shared_memory: registers, shared memory and a barrier (docs/00_basics.md, section 4).
 *
 * Each block reverses its own piece of an array: every thread loads one element (global memory
 * -> a register -> the block's shared memory), the block waits at a barrier, then every thread
 * writes the element its mirror thread loaded. The last piece is shorter (n is odd). The host
 * checks every element. Exit 0 pass, 1 fail, 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>

#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

#define BLOCK 256

__global__ void reverse_pieces_kernel(const float *in, float *out, int n)
{
    __shared__ float piece[BLOCK]; /* one copy per block, seen by all its threads */
    const int start = blockIdx.x * BLOCK;
    const int len = min(BLOCK, n - start); /* the last piece may be short */
    const int t = threadIdx.x;
    if (t < len) {
        const float v = in[start + t]; /* a local variable: lives in a register */
        piece[t] = v;
    }
    __syncthreads(); /* every thread of the block waits here until all have stored */
    if (t < len)
        out[start + t] = piece[len - 1 - t]; /* an element another thread loaded */
}

int main(void)
{
    skip_without_gpu();
    const int n = 100003; /* 390 full pieces of 256 and one of 163 */
    const size_t bytes = n * sizeof(float);
    float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes), *d_in, *d_out;
    srand(7);
    for (int i = 0; i < n; i++)
        in[i] = (float)rand() / RAND_MAX;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0xFF, bytes)); /* NaN: an element nobody writes fails */
    const int blocks = (n + BLOCK - 1) / BLOCK;
    reverse_pieces_kernel<<<blocks, BLOCK>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));

    int wrong = 0;
    for (int i = 0; i < n; i++) {
        const int start = i / BLOCK * BLOCK;
        const int len = n - start < BLOCK ? n - start : BLOCK;
        const float expected = in[start + (len - 1 - (i - start))];
        if (!(out[i] == expected) && wrong++ < 5)
            printf("out[%d] = %g, expected %g\n", i, out[i], expected);
    }
    printf("%d blocks of %d threads reversed their pieces of n = %d: %d wrong\n", blocks, BLOCK,
           n, wrong);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    free(in);
    free(out);
    printf(wrong ? "FAIL\n" : "PASS\n");
    return wrong ? 1 : 0;
}
