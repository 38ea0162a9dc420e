/* thread_ids: the thread hierarchy in 1D and 2D (docs/00_basics.md, section 2).
 *
 * 1D: a grid of 2 blocks of 4 threads prints each thread's blockIdx.x, threadIdx.x and global
 * index. 2D: each thread of a dim3 grid of dim3 blocks computes its (row, col) and writes its
 * linear index into a width x height array; the host checks every element for 16 x 16 and
 * 32 x 32 blocks on sizes that are not multiples of either. Exit 0 pass, 1 fail, 77 no GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h" /* CHECK(call) and skip_without_gpu(), which first_kernel.cu writes out */

__global__ void print_ids_1d(void)
{
    const int global = blockIdx.x * blockDim.x + threadIdx.x;
    printf("  blockIdx.x = %d  threadIdx.x = %d  global index = %d\n", blockIdx.x, threadIdx.x,
           global);
}

__global__ void print_ids_2d(void)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    printf("  blockIdx (%d, %d)  threadIdx (%d, %d)  row %d, col %d\n", blockIdx.x, blockIdx.y,
           threadIdx.x, threadIdx.y, row, col);
}

/* Element (row, col) of a row-major width x height array is out[row * width + col]. x runs along
 * a row (columns), so neighbouring threads of a warp touch neighbouring elements. */
__global__ void write_ids_2d(int *out, int width, int height)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < height && col < width)
        out[row * width + col] = row * width + col;
}

/* Runs the 2D kernel on width x height with block x block threads; returns the wrong count. */
static int check_2d(int width, int height, int block)
{
    const size_t bytes = (size_t)width * height * sizeof(int);
    int *out = (int *)malloc(bytes), *d_out;
    if (!out) {
        fprintf(stderr, "out of host memory\n");
        exit(1);
    }
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemset(d_out, 0xFF, bytes)); /* -1 everywhere: an unwritten element shows */
    const dim3 threads(block, block);
    const dim3 blocks((width + block - 1) / block, (height + block - 1) / block);
    write_ids_2d<<<blocks, threads>>>(d_out, width, height);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int i = 0; i < width * height; i++)
        if (out[i] != i && wrong++ < 3)
            printf("  element (row %d, col %d) holds %d, expected %d\n", i / width, i % width,
                   out[i], i);
    printf("2D: %4d x %-4d array, blocks of %2d x %2d, grid of %3u x %3u blocks: %s\n", width,
           height, block, block, blocks.x, blocks.y, wrong ? "WRONG" : "every element right");
    CHECK(cudaFree(d_out));
    free(out);
    return wrong;
}

int main(void)
{
    skip_without_gpu();
    printf("1D: print_ids_1d<<<2, 4>>>() (the lines may come in any order)\n");
    print_ids_1d<<<2, 4>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("2D: print_ids_2d<<<dim3(2, 2), dim3(3, 2)>>>()\n");
    print_ids_2d<<<dim3(2, 2), dim3(3, 2)>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    const int sizes[][2] = {{37, 29}, {1000, 999}, {1, 1}, {4099, 3}};
    int wrong = 0;
    for (int s = 0; s < 4; s++) {
        wrong += check_2d(sizes[s][0], sizes[s][1], 16);
        wrong += check_2d(sizes[s][0], sizes[s][1], 32);
    }
    printf(wrong ? "FAIL\n" : "PASS\n");
    return wrong ? 1 : 0;
}
