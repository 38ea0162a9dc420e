/* The heat equation across GPUs (docs/06_streams_3.md): the rod split over G GPUs (or over P
 * parts on fewer GPUs, even one), a halo exchange every step, by peer copies or NCCL, with and
 * without overlap. Every variant is checked against the one-GPU kernel of 2_launch_per_step.cu
 * bit for bit (memcmp) and against the float64 CPU reference; --bench measures weak and strong
 * scaling on 1, 2 and 4 GPUs against that one-GPU kernel. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat1d.h"
#include "heat_reference.h"
#include "multi_bench.h"
#include "parts.h"
#include "tutorial.h"

typedef struct {
    unsigned long long points, seed, bench_points;
    long long steps, gpus, parts, threads, reps, bench_steps;
    double k;
    int init, variant, bench;
    const char *outdir;
} options;

enum { INIT_SPIKE, INIT_RANDOM };
#define VARIANT_ALL HEAT_MULTI_VARIANTS /* --variant all: the index after the last variant */

/* Makes a rod of n points in `parts` parts on `gpus` GPUs for variant v: 1; 0 with the reason
 * if the variant cannot run here (skipped), -1 if NCCL failed; exits 2 on bad input. */
static int make_rod(heat_rod *r, size_t n, int parts, int gpus, const options *o,
                    heat_multi_variant v, char *why, size_t len)
{
    if (!heat_rod_create(r, n, parts, gpus, o->k, (int)o->threads, why, len)) {
        fprintf(stderr, "error: %s\n", why);
        exit(2);
    }
    if (v == HEAT_MULTI_NCCL || v == HEAT_MULTI_NCCL_SERIAL) {
        const int made = heat_nccl_init(r, why, len);
        if (made <= 0) {
            heat_rod_destroy(r);
            return made;
        }
    }
    return 1;
}

/* Every asked variant on the rod: bit for bit against the one-GPU kernel, within 1e-12 of the
 * CPU reference (the chapter's check); returns 1 if all that ran passed; *ran: how many ran. */
static int check_variants(const options *o, int parts, int gpus, int *ran)
{
    const size_t n = (size_t)o->points, bytes = tut_bytes(n, sizeof(double), "rod");
    double *u = (double *)tut_host_alloc(bytes, "start");
    double *want = (double *)tut_host_alloc(bytes, "reference");
    double *scratch = (double *)tut_host_alloc(bytes, "scratch");
    double *one = (double *)tut_host_alloc(bytes, "one-GPU result");
    double *got = (double *)tut_host_alloc(bytes, "result");
    if (o->init == INIT_RANDOM)
        heat_init_random(u, n, o->seed);
    else
        heat_init_spike(u, n, 10000.0);
    memcpy(want, u, bytes);
    heat_reference(want, scratch, n, o->steps, o->k);
    double scale = 0.0;
    for (size_t i = 0; i < n; ++i)
        scale = fmax(scale, fabs(want[i]));
    const double one_ms = heat_one_gpu_kernel(u, n, o->steps, o->k, (int)o->reps, one);
    size_t first;
    int ok = tut_check_f64("one-GPU kernel", one, want, n, 1e-12 * scale, 1e-12, NULL);
    printf("one-GPU kernel (2_launch_per_step.cu): %zu points, %lld steps, %.4f ms/step\n", n,
           o->steps, one_ms);
    *ran = 0;
    for (int v = 0; v < HEAT_MULTI_VARIANTS; ++v) {
        if (o->variant != VARIANT_ALL && o->variant != v)
            continue;
        heat_rod r;
        char why[320];
        const int made = make_rod(&r, n, parts, gpus, o, (heat_multi_variant)v, why, sizeof why);
        if (made < 0) {
            printf("%s: FAILED: %s\n", heat_multi_names[v], why);
            ok = 0;
            continue;
        }
        if (made == 0) {
            printf("%s: skipped: %s\n", heat_multi_names[v], why);
            continue;
        }
        heat_rod_scatter(&r, u);
        heat_rod_run(&r, (heat_multi_variant)v, o->steps);
        heat_rod_gather(&r, o->steps, got);
        const size_t differ = heat_bits_differ(got, one, n, &first);
        printf("%s: %d parts on %d GPU(s) (%d peer pair(s), %d staged): %zu of %zu points "
               "bit-identical to the one-GPU kernel", heat_multi_names[v], parts, gpus,
               r.peer_pairs, r.staged_pairs, n - differ, n);
        if (differ)
            printf(" (first difference at %zu: %.17g, one GPU %.17g)", first, got[first],
                   one[first]);
        printf("\n");
        ok &= differ == 0;
        ok &= tut_check_f64(heat_multi_names[v], got, want, n, 1e-12 * scale, 1e-12, NULL);
        if (o->reps > 0 && o->steps > 0) {
            heat_rod_scatter(&r, u);
            printf("%s: %.4f ms/step (one GPU %.4f)\n", heat_multi_names[v],
                   heat_time_rod(&r, (heat_multi_variant)v, o->steps, (int)o->reps), one_ms);
        }
        heat_rod_destroy(&r);
        ++*ran;
    }
    free(u);
    free(want);
    free(scratch);
    free(one);
    free(got);
    return ok;
}

int main(int argc, char **argv)
{
    setenv("NCCL_NVLS_ENABLE", "0", 1); /* never NVLink multicast (docs/06_streams_2.md) */
    options o = {.points = 1000003, .seed = 29, .bench_points = 1ull << 27, .steps = 200,
                 .gpus = 0, .parts = 0, .threads = 0, .reps = 3, .bench_steps = 0, .k = 0.25,
                 .init = INIT_RANDOM, .variant = VARIANT_ALL, .bench = 0, .outdir = NULL};
    const tut_option opts[] = {
        {"--points", TUT_OPT_SIZE, &o.points, "points on the rod (at least 2)", 2, 1e12, NULL},
        {"--steps", TUT_OPT_INT, &o.steps, "time steps", 0, 1e9, NULL},
        {"--k", TUT_OPT_DOUBLE, &o.k, "alpha dt / dx^2; stable for 0 < k <= 0.5", 1, 0, NULL},
        {"--init", TUT_OPT_CHOICE, &o.init, "start: the hot middle, or random", 0, 0,
         "spike|random"},
        {"--seed", TUT_OPT_SIZE, &o.seed, "seed of the random start", 0, 1.8e19, NULL},
        {"--gpus", TUT_OPT_INT, &o.gpus, "GPUs to use (0: every visible one)", 0, 1024, NULL},
        {"--parts", TUT_OPT_INT, &o.parts,
         "parts of the rod (0: one per GPU; more: several per GPU)", 0, 4096, NULL},
        {"--variant", TUT_OPT_CHOICE, &o.variant, "the halo exchange", 0, 0,
         "p2p|p2p_serial|nccl|nccl_serial|all"},
        {"--threads", TUT_OPT_INT, &o.threads, "threads per block (0: the default)", 0, 4096,
         NULL},
        {"--reps", TUT_OPT_INT, &o.reps, "timed runs (median; 0: check only)", 0, 1000, NULL},
        {"--bench", TUT_OPT_FLAG, &o.bench, "weak and strong scaling on 1, 2, 4 GPUs", 0, 0,
         NULL},
        {"--bench-points", TUT_OPT_SIZE, &o.bench_points,
         "--bench: the largest rod per GPU (weak) and half the strong rod", 1024, 1e12, NULL},
        {"--bench-steps", TUT_OPT_INT, &o.bench_steps, "--bench: steps (0: from the size)", 0,
         1e9, NULL},
        {"--outdir", TUT_OPT_STRING, &o.outdir, "write CSV results into this folder", 0, 0,
         NULL},
    };
    tut_parse_or_exit(argc, argv,
                      "multi_heat1d: the heat equation across GPUs, checked bit for bit against "
                      "one GPU",
                      opts, TUT_COUNT(opts));
    /* Checked before any GPU is touched, so bad input exits 2 on any machine. */
    if (!(o.k > 0.0 && o.k <= 0.5)) {
        fprintf(stderr, "error: --k %g is outside the stable range 0 < k <= 0.5\n", o.k);
        return 2;
    }
    if (o.parts > 0 && o.points < (unsigned long long)o.parts) {
        fprintf(stderr, "error: --points %llu is fewer than the %lld parts: every part needs "
                        "at least one point\n", o.points, o.parts);
        return 2;
    }
    if (o.parts > 0 && o.gpus > o.parts) {
        fprintf(stderr, "error: --parts %lld is fewer than --gpus %lld: every GPU needs a "
                        "part\n", o.parts, o.gpus);
        return 2;
    }
    tut_select_device(TUT_NEED_NOTHING);
    int visible = 0;
    CUDA_CHECK(cudaGetDeviceCount(&visible));
    const int gpus = o.gpus > 0 ? (int)o.gpus : visible;
    const int parts = o.parts > 0 ? (int)o.parts : gpus;
    char why[320];
    int skip = 0;
    if (!heat_split_check((size_t)o.points, parts, gpus, visible, &skip, why, sizeof why)) {
        printf("%s: %s\n", skip ? "skipped" : "error", why);
        if (skip)
            printf("SKIP\n");
        return skip ? TUT_EXIT_SKIP : 2;
    }
    printf("%d visible GPU(s); %llu points in %d part(s) on %d GPU(s), %lld steps, k = %g, "
           "%s start (seed %llu); NCCL %s\n", visible, o.points, parts, gpus, o.steps, o.k,
           o.init == INIT_RANDOM ? "random" : "spike", o.seed,
           heat_nccl_built() ? "built" : "not built");
    int ran = 0;
    int ok = check_variants(&o, parts, gpus, &ran);
    if (o.bench) { /* even after a failed check: the P2P scaling may still be measured */
        const heat_bench_args bench = {.largest = (size_t)o.bench_points,
                                       .steps = o.bench_steps, .reps = o.reps > 0 ? (int)o.reps : 1,
                                       .k = o.k, .threads = (int)o.threads,
                                       .max_gpus = o.gpus > 0 ? (int)o.gpus : visible,
                                       .outdir = o.outdir};
        ok &= heat_bench_scaling(&bench);
    }
    if (ok && ran == 0 && o.variant != VARIANT_ALL) {
        printf("SKIP (%s could not run here)\n", heat_multi_names[o.variant]);
        return TUT_EXIT_SKIP;
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
