/* The measuring program of document_kernel.h100.log (this folder), kept beside its log. It is not
 * part of the build: no CMakeLists.txt names it, no test runs it. The log came from this code
 * (before this comment was added), built and run on the H100 as
 *   nvcc -O2 -arch=native -o document_sessionize document_kernel_check.cu   (native: sm_90 there)
 *   timeout 60 ./document_sessionize
 * To repeat it on another GPU, build it the same way (or with -arch=sm_XY for that GPU). */
/* The Numba examples page's sessionize kernel, ported line by line (grid.sync() inside the
 * branch, the walk that writes the last index unconditionally), run on two inputs: users
 * 1,1,1,2 (one timestamp apart) and the document's 28 events. Prints the labels it gives beside
 * the right ones. Not part of the suite: a one-off confirmation for docs/03_sessionize_appendix.md.
 * Exit 0 when the run completed (whatever the labels), 1 on a CUDA error, 77 without a GPU. */
#include <cooperative_groups.h>
#include <stdio.h>
#include <stdlib.h>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define PAD 8

__global__ void document_sessionize(const long long *user_id, const long long *timestamp,
                                    long long size, long long session_timeout, double *results)
{
    cg::grid_group grid = cg::this_grid();
    const long long gid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (gid >= size)
        return;
    bool is_sess_boundary;
    if (gid != 0) {
        const bool new_user = user_id[gid] != user_id[gid - 1];
        const bool timed_out = timestamp[gid] - timestamp[gid - 1] > session_timeout;
        is_sess_boundary = new_user || timed_out;
    } else {
        is_sess_boundary = true;
    }
    if (is_sess_boundary) {
        results[gid] = (double)gid;
        grid.sync();
        long long look_ahead = 1;
        while (results[gid + look_ahead] == 0) {
            results[gid + look_ahead] = (double)gid;
            look_ahead += 1;
            if (gid + look_ahead == size - 1) {
                results[gid + look_ahead] = (double)gid;
                break;
            }
        }
    }
}

/* The right labels for the events in the order given (no sorting): each event takes the index
 * of the first event of its session; a session starts at a new user or after a gap > timeout. */
static void right_labels(const long long *user, const long long *ts, long long n,
                         long long timeout, long long *want)
{
    for (long long i = 0; i < n; i++)
        want[i] = i == 0 || user[i] != user[i - 1] || ts[i] - ts[i - 1] > timeout ? i : want[i - 1];
}

static void run(const char *name, const long long *user, const long long *ts, long long n)
{
    long long want[64];
    right_labels(user, ts, n, 3600, want);
    long long *d_user, *d_ts;
    double *d_res, res[64];
    CK(cudaMalloc((void **)&d_user, n * sizeof *d_user));
    CK(cudaMalloc((void **)&d_ts, n * sizeof *d_ts));
    CK(cudaMalloc((void **)&d_res, (n + PAD) * sizeof *d_res));
    CK(cudaMemcpy(d_user, user, n * sizeof *user, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_ts, ts, n * sizeof *ts, cudaMemcpyHostToDevice));
    /* np.zeros for the n labels; past the end (which the last boundary's walk reads), -1 so the
     * walk stops there instead of running on through memory Numba would not check either. */
    for (long long i = 0; i < n + PAD; i++)
        res[i] = i < n ? 0.0 : -1.0;
    CK(cudaMemcpy(d_res, res, (n + PAD) * sizeof *res, cudaMemcpyHostToDevice));
    long long timeout = 3600;
    void *args[] = {&d_user, &d_ts, &n, &timeout, &d_res};
    CK(cudaLaunchCooperativeKernel((const void *)document_sessionize, dim3(1), dim3(32), args, 0, 0));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(res, d_res, n * sizeof *res, cudaMemcpyDeviceToHost));
    int wrong = 0;
    printf("%s\n  index,user,timestamp,document_kernel_label,right_label\n", name);
    for (long long i = 0; i < n; i++) {
        printf("  %lld,%lld,%lld,%.0f,%lld%s\n", i, user[i], ts[i], res[i], want[i],
               res[i] == (double)want[i] ? "" : "  <- wrong");
        wrong += res[i] != (double)want[i];
    }
    printf("  %d of %lld labels wrong\n", wrong, n);
    CK(cudaFree(d_user));
    CK(cudaFree(d_ts));
    CK(cudaFree(d_res));
}

int main(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
        printf("SKIPPED: no CUDA GPU or driver found\n");
        return 77;
    }
    const long long u4[] = {1, 1, 1, 2}, t4[] = {1, 2, 3, 4};
    run("users 1,1,1,2", u4, t4, 4);
    const long long u28[] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
                             4, 4, 4, 4, 4, 4, 4, 4, 4};
    const long long t28[] = {1, 2, 3, 5000, 5001, 5002, 1, 2, 3, 1, 2, 5000, 5001, 10000,
                             10001, 10002, 10003, 15000, 150001, 1, 5000, 50001, 15000, 20000,
                             25000, 25001, 25002, 25003};
    run("the document's 28 events, in the document's order", u28, t28, 28);
    return 0;
}
