/* The graders' stream-capture recorder (capture.h). */
#include "capture.h"

#include "check.h"
#include "memory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

/* The bytes one side of a recorded copy spans (a copy of `extent` from `pos` in `ptr`). */
static void copy_span(struct cudaPitchedPtr ptr, struct cudaPos pos, struct cudaExtent extent,
                      const char **begin, const char **end)
{
    const size_t slice = ptr.pitch * ptr.ysize;
    *begin = (const char *)ptr.ptr + pos.z * slice + pos.y * ptr.pitch + pos.x;
    *end = *begin + (extent.depth ? extent.depth - 1 : 0) * slice +
           (extent.height ? extent.height - 1 : 0) * ptr.pitch + extent.width;
}

static size_t index_of(cudaGraphNode_t *nodes, size_t count, cudaGraphNode_t node)
{
    for (size_t i = 0; i < count; ++i)
        if (nodes[i] == node)
            return i;
    return count;
}

/* The edges of the graph (from[i] -> to[i]); CUDA 13 gives each edge's data too. */
static size_t graph_edges(cudaGraph_t graph, cudaGraphNode_t **from, cudaGraphNode_t **to)
{
    size_t edges = 0;
#if CUDART_VERSION >= 13000
    CUDA_CHECK(cudaGraphGetEdges(graph, NULL, NULL, NULL, &edges));
#else
    CUDA_CHECK(cudaGraphGetEdges(graph, NULL, NULL, &edges));
#endif
    *from = (cudaGraphNode_t *)tut_host_alloc((edges ? edges : 1) * sizeof **from, "graph edges");
    *to = (cudaGraphNode_t *)tut_host_alloc((edges ? edges : 1) * sizeof **to, "graph edges");
    if (edges) {
#if CUDART_VERSION >= 13000
        CUDA_CHECK(cudaGraphGetEdges(graph, *from, *to, NULL, &edges));
#else
        CUDA_CHECK(cudaGraphGetEdges(graph, *from, *to, &edges));
#endif
    }
    return edges;
}

/* Reads graph (taken: freed by tut_graph_free) into out: its nodes and what runs after what. */
static void graph_read(cudaGraph_t graph, tut_graph *out)
{
    memset(out, 0, sizeof *out);
    out->graph = graph;
    size_t count = 0;
    if (graph)
        CUDA_CHECK(cudaGraphGetNodes(graph, NULL, &count));
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)tut_host_alloc((count ? count : 1) * sizeof *nodes,
                                                               "graph nodes");
    if (count)
        CUDA_CHECK(cudaGraphGetNodes(graph, nodes, &count));
    out->count = count;
    out->node = (tut_graph_node *)calloc(count ? count : 1, sizeof *out->node);
    out->reach = (unsigned char *)calloc(count ? count * count : 1, 1);
    if (!out->node || !out->reach) {
        fprintf(stderr, "out of host memory reading a graph of %zu nodes\n", count);
        exit(1);
    }
    for (size_t i = 0; i < count; ++i) {
        tut_graph_node *n = &out->node[i];
        enum cudaGraphNodeType type;
        CUDA_CHECK(cudaGraphNodeGetType(nodes[i], &type));
        n->kind = TUT_NODE_OTHER;
        if (type == cudaGraphNodeTypeKernel) {
            struct cudaKernelNodeParams params;
            CUDA_CHECK(cudaGraphKernelNodeGetParams(nodes[i], &params));
            n->kind = TUT_NODE_KERNEL;
            n->kernel = params.func;
            n->grid = params.gridDim.x;
            n->block = params.blockDim.x;
            n->args = params.kernelParams;
        } else if (type == cudaGraphNodeTypeMemcpy) {
            struct cudaMemcpy3DParms params;
            CUDA_CHECK(cudaGraphMemcpyNodeGetParams(nodes[i], &params));
            n->kind = TUT_NODE_COPY;
            copy_span(params.srcPtr, params.srcPos, params.extent, &n->begin[0], &n->end[0]);
            copy_span(params.dstPtr, params.dstPos, params.extent, &n->begin[1], &n->end[1]);
        }
    }
    /* Direct edges, then their closure (Warshall): the graphs here hold tens of nodes. */
    cudaGraphNode_t *from = NULL, *to = NULL;
    const size_t edges = count ? graph_edges(graph, &from, &to) : 0;
    for (size_t e = 0; e < edges; ++e) {
        const size_t a = index_of(nodes, count, from[e]), b = index_of(nodes, count, to[e]);
        if (a < count && b < count)
            out->reach[a * count + b] = 1;
    }
    for (size_t k = 0; k < count; ++k)
        for (size_t a = 0; a < count; ++a)
            if (out->reach[a * count + k])
                for (size_t b = 0; b < count; ++b)
                    out->reach[a * count + b] |= out->reach[k * count + b];
    free(from);
    free(to);
    free(nodes);
}

int tut_graph_after(const tut_graph *g, size_t a, size_t b)
{
    return a < g->count && b < g->count && g->reach[a * g->count + b];
}

void tut_capture_each(const cudaStream_t *stream, int count, void (*issue)(void *), void *arg,
                      tut_graph *out)
{
    for (int s = 0; s < count; ++s)
        CUDA_CHECK(cudaStreamBeginCapture(stream[s], cudaStreamCaptureModeRelaxed));
    issue(arg);
    for (int s = 0; s < count; ++s) {
        cudaGraph_t graph = NULL;
        CUDA_CHECK(cudaStreamEndCapture(stream[s], &graph));
        graph_read(graph, &out[s]);
    }
}

int tut_capture_joined(const cudaStream_t *stream, const int *device, int count,
                       void (*issue)(void *), void *arg, tut_graph *out, char *why, size_t len)
{
    memset(out, 0, sizeof *out);
    cudaStream_t origin;
    CUDA_CHECK(cudaStreamCreateWithFlags(&origin, cudaStreamNonBlocking));
    /* One event per stream and device: an event is recorded on its own device's streams. */
    cudaEvent_t fork, *join = (cudaEvent_t *)tut_host_alloc((count ? count : 1) * sizeof *join,
                                                            "join events");
    CUDA_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    int origin_device = 0;
    CUDA_CHECK(cudaGetDevice(&origin_device));
    for (int s = 0; s < count; ++s) {
        CUDA_CHECK(cudaSetDevice(device ? device[s] : origin_device));
        CUDA_CHECK(cudaEventCreateWithFlags(&join[s], cudaEventDisableTiming));
    }
    CUDA_CHECK(cudaSetDevice(origin_device));
    CUDA_CHECK(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
    CUDA_CHECK(cudaEventRecord(fork, origin));
    for (int s = 0; s < count; ++s)
        CUDA_CHECK(cudaStreamWaitEvent(stream[s], fork, 0));
    issue(arg);
    /* The join: every stream's last work before the end of the capture. A failure here (a
     * stream that left the capture) is the caller's to report, not a reason to exit. */
    cudaError_t err = cudaSuccess;
    for (int s = 0; s < count && err == cudaSuccess; ++s) {
        CUDA_CHECK(cudaSetDevice(device ? device[s] : origin_device));
        err = cudaEventRecord(join[s], stream[s]);
        if (err == cudaSuccess) {
            CUDA_CHECK(cudaSetDevice(origin_device));
            err = cudaStreamWaitEvent(origin, join[s], 0);
        }
    }
    CUDA_CHECK(cudaSetDevice(origin_device));
    cudaGraph_t graph = NULL;
    const cudaError_t end = cudaStreamEndCapture(origin, &graph);
    if (err == cudaSuccess)
        err = end;
    if (err != cudaSuccess) {
        snprintf(why, len, "the capture failed: %s (%s)", cudaGetErrorName(err),
                 cudaGetErrorString(err));
        (void)cudaGetLastError();
        if (graph)
            (void)cudaGraphDestroy(graph);
    } else {
        graph_read(graph, out);
    }
    for (int s = 0; s < count; ++s) {
        CUDA_CHECK(cudaSetDevice(device ? device[s] : origin_device));
        CUDA_CHECK(cudaEventDestroy(join[s]));
    }
    CUDA_CHECK(cudaSetDevice(origin_device));
    free(join);
    CUDA_CHECK(cudaEventDestroy(fork));
    CUDA_CHECK(cudaStreamDestroy(origin));
    return err == cudaSuccess;
}

void tut_graph_free(tut_graph *g)
{
    free(g->node);
    free(g->reach);
    if (g->graph)
        CUDA_CHECK(cudaGraphDestroy(g->graph));
    memset(g, 0, sizeof *g);
}

void tut_graphs_free(tut_graph *g, int count)
{
    for (int s = 0; s < count; ++s)
        tut_graph_free(&g[s]);
}
