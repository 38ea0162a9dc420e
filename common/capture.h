/* The graders' stream-capture recorder (common/capture.cu): the calls a student's code queues
 * on some streams, recorded instead of run, and read back as a graph of nodes (kernels, copies)
 * and their dependencies. A timer can only say that work overlapped or did not; the graph says
 * which stream waited for what, every run, whatever the schedule.
 *
 * Stream capture (cudaStreamBeginCapture ... cudaStreamEndCapture) keeps the work queued on a
 * capturing stream as nodes of a cudaGraph_t instead of running it; a stream that waits on an
 * event recorded in a capturing stream joins that capture. While a stream is recorded nothing
 * may wait for it on the host: cudaStreamSynchronize, cudaDeviceSynchronize or a synchronous
 * cudaMemcpy fails with a capture error (the student's CUDA_CHECK reports it and exits), which
 * is how a host wait inside the recorded calls shows. Queries that load kernels or read limits
 * belong before the recording. Grader-only. */
#ifndef TUTORIAL_CAPTURE_H
#define TUTORIAL_CAPTURE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TUT_NODE_KERNEL, /* a kernel launch */
    TUT_NODE_COPY,   /* a memory copy (cudaMemcpyAsync, cudaMemcpyPeerAsync, ...) */
    TUT_NODE_OTHER   /* a memset, an event record or wait, a host function, ... */
} tut_node_kind;

typedef struct {
    tut_node_kind kind;
    /* KERNEL: the function as launched (compare with (const void *)my_kernel), its grid and
     * block (x only), and its argument pointers as cudaKernelNodeParams gives them: args[i]
     * points at the value of argument i (valid until tut_graph_free). */
    const void *kernel;
    unsigned grid, block;
    void **args;
    /* COPY: the bytes its source ([0]) and its destination ([1]) span. */
    const char *begin[2], *end[2];
} tut_graph_node;

typedef struct {
    size_t count;
    tut_graph_node *node;   /* count nodes, in the graph's order */
    unsigned char *reach;   /* count x count: reach[a * count + b] is 1 if node b runs after
                             * node a (b depends on a, directly or through other nodes) */
    cudaGraph_t graph;      /* kept until tut_graph_free (the kernels' args live in it) */
} tut_graph;

/* 1 if node b runs after node a in g (b depends on a, directly or not). */
int tut_graph_after(const tut_graph *g, size_t a, size_t b);

/* Records issue(arg) with each of stream[0, count) in a capture of its own (one graph per
 * stream: out[s]), nothing run, in cudaStreamCaptureModeRelaxed. A call of issue that waits on
 * the host for a recorded stream, or that makes one stream wait for another's event, stops the
 * capture with an error (reported, and the program exits 1). Free with tut_graphs_free. */
void tut_capture_each(const cudaStream_t *stream, int count, void (*issue)(void *), void *arg,
                      tut_graph *out);

/* Records issue(arg) into ONE graph: a stream of the recorder's own (on the GPU current at the
 * call) begins the capture in cudaStreamCaptureModeGlobal and forks into every stream of
 * stream[0, count) (each waits for an event of the origin, so each joins the capture, its
 * next work depending on nothing else); issue runs; every stream then joins back into the
 * origin, and the capture ends. device[s] is the GPU of stream[s] (NULL: all on the current
 * one); the GPU current at the call is current again on return. Returns 1
 * with *out filled; 0 where the capture failed (why[] says how: a stream left out of the join,
 * a dependency on work outside the capture). A host wait inside issue fails in issue itself
 * (a capture error: CUDA_CHECK exits 1). Free with tut_graph_free. */
int tut_capture_joined(const cudaStream_t *stream, const int *device, int count,
                       void (*issue)(void *), void *arg, tut_graph *out, char *why, size_t len);

void tut_graph_free(tut_graph *g);
void tut_graphs_free(tut_graph *g, int count);

#ifdef __cplusplus
}
#endif

#endif
