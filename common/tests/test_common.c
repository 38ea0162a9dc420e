/* Unit tests of common/, run by ctest on every machine (no GPU needed).
 * Usage: test_common <group>; each group is a ctest test of its own. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "tutorial.h"
#include "unit_test.h"


static void test_sizes(void)
{
    unsigned long long v = 0;
    EXPECT(tut_parse_size("100000", &v) == 0 && v == 100000);
    EXPECT(tut_parse_size("0", &v) == 0 && v == 0);
    EXPECT(tut_parse_size("64K", &v) == 0 && v == 65536);
    EXPECT(tut_parse_size("1M", &v) == 0 && v == 1048576);
    EXPECT(tut_parse_size("2g", &v) == 0 && v == 2147483648ull);
    EXPECT(tut_parse_size("2^28", &v) == 0 && v == 268435456);
    EXPECT(tut_parse_size("2^0", &v) == 0 && v == 1);
    EXPECT(tut_parse_size("1e8", &v) == 0 && v == 100000000);
    EXPECT(tut_parse_size("3E2", &v) == 0 && v == 300);
    EXPECT(tut_parse_size("18446744073709551615", &v) == 0 && v == 18446744073709551615ull);
    /* Rejected: empty, signs, junk, fractions, overflow. */
    EXPECT(tut_parse_size("", &v) != 0);
    EXPECT(tut_parse_size("-5", &v) != 0);
    EXPECT(tut_parse_size("+5", &v) != 0);
    EXPECT(tut_parse_size("12x", &v) != 0);
    EXPECT(tut_parse_size("1.5M", &v) != 0);
    EXPECT(tut_parse_size("M", &v) != 0);
    EXPECT(tut_parse_size("1MM", &v) != 0);
    EXPECT(tut_parse_size("2^", &v) != 0);
    EXPECT(tut_parse_size("2^64", &v) != 0);
    EXPECT(tut_parse_size("18446744073709551616", &v) != 0);
    EXPECT(tut_parse_size("20000000000T", &v) != 0);
    EXPECT(tut_parse_size("1e20", &v) != 0);
    EXPECT(tut_parse_size(" 5", &v) != 0);
}

static void test_numbers(void)
{
    long long i = 0;
    double d = 0;
    EXPECT(tut_parse_int("-42", &i) == 0 && i == -42);
    EXPECT(tut_parse_int("7", &i) == 0 && i == 7);
    EXPECT(tut_parse_int("7.5", &i) != 0);
    EXPECT(tut_parse_int("", &i) != 0);
    EXPECT(tut_parse_int("99999999999999999999", &i) != 0);
    EXPECT(tut_parse_double("0.25", &d) == 0 && d == 0.25);
    EXPECT(tut_parse_double("-1e-3", &d) == 0 && d == -1e-3);
    EXPECT(tut_parse_double("nan", &d) != 0);
    EXPECT(tut_parse_double("inf", &d) != 0);
    EXPECT(tut_parse_double("1e999", &d) != 0);
    EXPECT(tut_parse_double("abc", &d) != 0);
    EXPECT(tut_parse_double("1.0x", &d) != 0);
    EXPECT(tut_choice_index("naive|tiled|best", "naive") == 0);
    EXPECT(tut_choice_index("naive|tiled|best", "best") == 2);
    EXPECT(tut_choice_index("naive|tiled|best", "tile") == -1);
    EXPECT(tut_choice_index("naive|tiled|best", "") == -1);
}

static void test_options(void)
{
    unsigned long long n = 10;
    long long steps = 0;
    double k = 0.25;
    const char *out = NULL;
    int verbose = 0, variant = 0;
    const tut_option opts[] = {
        {"--n", TUT_OPT_SIZE, &n, "elements", 1, 1e9, NULL},
        {"--steps", TUT_OPT_INT, &steps, "steps", 0, 1e6, NULL},
        {"--k", TUT_OPT_DOUBLE, &k, "coefficient", 0, 0.5, NULL},
        {"--out", TUT_OPT_STRING, &out, "file", 0, 0, NULL},
        {"--verbose", TUT_OPT_FLAG, &verbose, "talk", 0, 0, NULL},
        {"--variant", TUT_OPT_CHOICE, &variant, "kernel", 0, 0, "a|bb|c"},
    };
    char err[256];
    char *ok_args[] = {"prog", "--n", "2^10", "--steps=5", "--k", "0.5", "--out", "x.csv",
                       "--verbose", "--variant=c"};
    EXPECT(tut_parse_args(TUT_COUNT(ok_args), ok_args, opts, TUT_COUNT(opts), err, sizeof err) == 0);
    EXPECT(n == 1024 && steps == 5 && k == 0.5 && out && strcmp(out, "x.csv") == 0);
    EXPECT(verbose == 1 && variant == 2);

    char *help[] = {"prog", "--n", "5", "--help"};
    EXPECT(tut_parse_args(4, help, opts, TUT_COUNT(opts), err, sizeof err) == 1);

    /* Each of these must be refused with a message naming the option. */
    char *bad[][3] = {
        {"prog", "--bogus", "1"}, {"prog", "--n", "0"},        {"prog", "--n", "2G"},
        {"prog", "--n", "-1"},    {"prog", "--n", "ten"},      {"prog", "--k", "0.6"},
        {"prog", "--k", "nan"},   {"prog", "--steps", "-1"},   {"prog", "--variant", "b"},
        {"prog", "--out", ""},    {"prog", "--verbose=1", ""},
    };
    for (int t = 0; t < TUT_COUNT(bad); ++t) {
        const int argc = bad[t][2][0] ? 3 : 2;
        err[0] = '\0';
        const int rc = tut_parse_args(argc, bad[t], opts, TUT_COUNT(opts), err, sizeof err);
        printf("  %s %s -> %s\n", bad[t][1], argc == 3 ? bad[t][2] : "", err);
        EXPECT(rc == -1 && strlen(err) > 0);
    }
    char *missing[] = {"prog", "--n"};
    EXPECT(tut_parse_args(2, missing, opts, TUT_COUNT(opts), err, sizeof err) == -1);
    EXPECT(strstr(err, "needs a value") != NULL);
}

static void test_compare(void)
{
    const double want[] = {1.0, -2.0, 0.0, 1e10};
    double got[] = {1.0 + 1e-12, -2.0, 1e-14, 1e10 * (1 + 1e-13)};
    tut_errors e;
    EXPECT(tut_check_f64("close", got, want, 4, 1e-12, 1e-12, &e) == 1);
    EXPECT(e.mismatches == 0 && e.first_bad == 4);
    EXPECT(e.max_rel_err > 0 && e.max_rel_err < 1e-11);

    got[1] = -2.1; /* one real mismatch */
    EXPECT(tut_check_f64("one off", got, want, 4, 1e-12, 1e-12, &e) == 0);
    EXPECT(e.mismatches == 1 && e.first_bad == 1);
    EXPECT(fabs(e.max_rel_err - 0.05) < 1e-12);
    EXPECT(fabs(e.max_abs_err - 0.1) < 1e-12);

    got[1] = NAN; /* NaN never passes, whatever the tolerance */
    EXPECT(tut_check_f64("nan", got, want, 4, 1e300, 1e300, &e) == 0);
    EXPECT(e.mismatches == 1 && isnan(e.max_abs_err));
    const double nan_want[] = {NAN};
    const double nan_got[] = {NAN};
    EXPECT(tut_check_f64("nan vs nan", nan_got, nan_want, 1, 1, 1, NULL) == 0);
    const double inf_got[] = {INFINITY};
    const double one[] = {1.0};
    EXPECT(tut_check_f64("inf", inf_got, one, 1, 1e300, 1e300, NULL) == 0);

    const float fgot[] = {1.0f, 2.0000002f, 3.0f};
    const double fwant[] = {1.0, 2.0, 3.0};
    EXPECT(tut_check_f32_f64("f32 vs f64", fgot, fwant, 3, 0, 1e-6, &e) == 1);
    EXPECT(tut_check_f32_f64("f32 vs f64 strict", fgot, fwant, 3, 0, 1e-9, &e) == 0);
    const float f32want[] = {1.0f, 2.0f, 3.0f};
    EXPECT(tut_check_f32("f32", fgot, f32want, 3, 0, 1e-6, NULL) == 1);

    /* Mean relative error: (0 + 0.1 + 0.3) / 3 over the non-zero references. */
    const double mw[] = {1.0, 1.0, 1.0, 0.0};
    const double mg[] = {1.0, 1.1, 1.3, 0.0};
    EXPECT(tut_check_f64("mean", mg, mw, 4, 1, 0, &e) == 1);
    EXPECT(fabs(e.mean_rel_err - 0.4 / 3) < 1e-12 && fabs(e.max_rel_err - 0.3) < 1e-12);

    const int32_t ia[] = {1, 2, 3}, ib[] = {1, 2, 4};
    EXPECT(tut_check_i32("ints equal", ia, ia, 3) == 1);
    EXPECT(tut_check_i32("ints differ", ia, ib, 3) == 0);
    const int64_t la[] = {1ll << 40}, lb[] = {(1ll << 40) + 1};
    EXPECT(tut_check_i64("longs differ", la, lb, 1) == 0);
    const uint32_t ua[] = {7}, ub[] = {7};
    EXPECT(tut_check_u32("uints", ua, ub, 1) == 1);
    const uint64_t wa[] = {1ull << 40, 5}, wb[] = {1ull << 40, 6};
    EXPECT(tut_check_u64("u64 equal", wa, wa, 2) == 1);
    EXPECT(tut_check_u64("u64 differ", wa, wb, 2) == 0);
    EXPECT(tut_check_f64("empty", NULL, NULL, 0, 0, 0, NULL) == 1);

    EXPECT(tut_check_scalar("scalar", 0.69314, log(2.0), 1e-4, 0) == 1);
    EXPECT(tut_check_scalar("scalar off", 0.7, log(2.0), 1e-4, 0) == 0);
    EXPECT(tut_check_scalar("scalar nan", NAN, log(2.0), 1, 1) == 0);
}

static void test_csv(void)
{
    const char *dir = "csv_test_out/nested/dir";
    remove("csv_test_out/nested/dir/table.csv"); /* an earlier run's file proves nothing */
    EXPECT(tut_csv_open(NULL, "x.csv", "a,b") == NULL); /* no outdir: nothing written */
    tut_csv_row(NULL, "%d", 1);                       /* and every call is a no-op */
    tut_csv_close(NULL);

    tut_csv *csv = tut_csv_open(dir, "table.csv", "n,value");
    EXPECT(csv != NULL);
    tut_csv_comment(csv, "seed %d", 42);
    tut_csv_row(csv, "%d,%.2f", 1, 0.5);
    tut_csv_row(csv, "%d,%.2f", 2, 1.5);
    tut_csv_close(csv);

    FILE *f = fopen("csv_test_out/nested/dir/table.csv", "r");
    EXPECT(f != NULL);
    if (!f)
        return;
    char line[256];
    int comments = 0, rows = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            ++comments;
        else if (strcmp(line, "n,value\n") == 0)
            header = 1;
        else if (strcmp(line, "1,0.50\n") == 0 || strcmp(line, "2,1.50\n") == 0)
            ++rows;
    }
    fclose(f);
    EXPECT(comments >= 2 && header == 1 && rows == 2); /* date + seed comments */
}

static void test_rng(void)
{
    tut_rng a, b;
    tut_rng_seed(&a, 1);
    tut_rng_seed(&b, 1);
    for (int i = 0; i < 100; ++i)
        EXPECT(tut_rng_next(&a) == tut_rng_next(&b));
    tut_rng_seed(&b, 2);
    EXPECT(tut_rng_next(&a) != tut_rng_next(&b));

    /* Uniform draws: in range, and a mean near 1/2 (1e6 draws: sigma = 0.00029). */
    tut_rng_seed(&a, TUT_DEFAULT_SEED);
    double sum = 0, lo = 1, hi = 0;
    for (int i = 0; i < 1000000; ++i) {
        const double u = tut_rng_uniform(&a);
        sum += u;
        lo = u < lo ? u : lo;
        hi = u > hi ? u : hi;
    }
    EXPECT(lo >= 0.0 && hi < 1.0 && fabs(sum / 1e6 - 0.5) < 0.002);

    int counts[7] = {0};
    for (int i = 0; i < 70000; ++i)
        ++counts[tut_rng_below(&a, 7)];
    for (int i = 0; i < 7; ++i)
        EXPECT(counts[i] > 9000 && counts[i] < 11000);

    float f[1000];
    tut_rng_fill_f32(&a, f, 1000, -2.0f, 3.0f);
    for (int i = 0; i < 1000; ++i)
        EXPECT(f[i] >= -2.0f && f[i] < 3.0f);
    double d[1000];
    tut_rng_fill_f64(&a, d, 1000, 5.0, 6.0);
    for (int i = 0; i < 1000; ++i)
        EXPECT(d[i] >= 5.0 && d[i] < 6.0);
}

static void test_timer(void)
{
    double v[] = {5, 1, 4, 2, 3};
    EXPECT(tut_median(v, 5) == 3);
    double w[] = {4, 1, 3, 2};
    EXPECT(tut_median(w, 4) == 2.5);
    double one[] = {7};
    EXPECT(tut_median(one, 1) == 7);
    const double t0 = tut_cpu_seconds();
    volatile double x = 0;
    for (int i = 0; i < 1000000; ++i)
        x += i;
    const double t1 = tut_cpu_seconds();
    EXPECT(t1 >= t0 && t1 - t0 < 10);
}

static void test_memory(void)
{
    char buf[32];
    EXPECT(strcmp(tut_format_bytes(512, buf, sizeof buf), "512 B") == 0);
    EXPECT(strcmp(tut_format_bytes(1536, buf, sizeof buf), "1.50 KiB") == 0);
    EXPECT(strcmp(tut_format_bytes(3.0 * (1u << 30), buf, sizeof buf), "3.00 GiB") == 0);
    EXPECT(tut_bytes(1000, 8, "x") == 8000);
    EXPECT(tut_bytes(0, 8, "x") == 0);
    void *p = tut_host_alloc(16, "sixteen bytes");
    EXPECT(p != NULL);
    free(p);
}

/* With no GPU the finder must say why; with one, its limits must be sane. */
static void test_device(void)
{
    char why[768] = "";
    tut_device_info info;
    if (tut_find_device(TUT_NEED_NOTHING, &info, why, sizeof why)) {
        printf("  found GPU %s, %d SMs, cc %d.%d\n", info.name, info.sm_count, info.major,
               info.minor);
        EXPECT(info.sm_count > 0 && info.major >= 3 && info.total_bytes > 0 && info.name[0]);
        EXPECT(info.warp_size == 32 && info.max_threads_per_block >= 1024);
        EXPECT(info.max_threads_per_sm >= 1024 && info.max_blocks_per_sm >= 16);
        EXPECT(info.regs_per_sm >= 65536 && info.shared_per_block == 48 * 1024);
        EXPECT(info.shared_per_block_optin >= info.shared_per_block);
        EXPECT(info.shared_per_sm >= info.shared_per_block_optin);
        EXPECT(tut_archs_code_for(tut_build_archs(), info.real_major, info.real_minor) !=
               TUT_CODE_NONE);
    } else {
        /* No GPU, or one this build cannot run on: each must be said. */
        printf("  no GPU: %s\n", why);
        EXPECT(strncmp(why, "no CUDA GPU or driver found (cudaGetDeviceCount: ", 49) == 0 ||
               strncmp(why, "the driver (CUDA ", 17) == 0 || strstr(why, "compute capability"));
    }
    /* The reasons, from made-up answers of the runtime: no driver installed (version 0), a
     * driver older than the runtime, no device, no device with CUDA_VISIBLE_DEVICES set (it
     * may hide them), a driver whose kernel module and library differ and a system not ready
     * (a GPU and a driver are there). */
    tut_no_gpu_reason(cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
                      "CUDA driver version is insufficient for CUDA runtime version", 0, 13000,
                      NULL, why, sizeof why);
    printf("  no driver: %s\n", why);
    EXPECT(strcmp(why, "no CUDA GPU or driver found (cudaGetDeviceCount: "
                       "cudaErrorInsufficientDriver: CUDA driver version is insufficient for "
                       "CUDA runtime version)") == 0);
    tut_no_gpu_reason(cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver", "insufficient",
                      12020, 13000, NULL, why, sizeof why);
    printf("  old driver: %s\n", why);
    EXPECT(strncmp(why, "the driver (CUDA 12.2) is older than this toolkit's runtime (CUDA 13.0): "
                        "update the driver", 90) == 0);
    tut_no_gpu_reason(cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected",
                      13000, 13000, NULL, why, sizeof why);
    EXPECT(strcmp(why, "no CUDA GPU or driver found (cudaGetDeviceCount: cudaErrorNoDevice: no "
                       "CUDA-capable device is detected)") == 0);
    tut_no_gpu_reason(cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected",
                      13000, 13000, "-1", why, sizeof why);
    printf("  hidden: %s\n", why);
    EXPECT(strcmp(why, "no CUDA GPU or driver found (cudaGetDeviceCount: cudaErrorNoDevice: no "
                       "CUDA-capable device is detected; CUDA_VISIBLE_DEVICES=\"-1\" hides every "
                       "GPU it does not name)") == 0);
    tut_no_gpu_reason(cudaErrorSystemDriverMismatch, "cudaErrorSystemDriverMismatch",
                      "system has unsupported display driver / cuda driver combination", 13000,
                      13000, NULL, why, sizeof why);
    printf("  mismatch: %s\n", why);
    EXPECT(strncmp(why, "the NVIDIA driver's kernel module and its library differ", 56) == 0);
    tut_no_gpu_reason(cudaErrorSystemNotReady, "cudaErrorSystemNotReady",
                      "system not yet initialized", 13000, 13000, NULL, why, sizeof why);
    printf("  not ready: %s\n", why);
    EXPECT(strncmp(why, "the GPUs are not ready (on an NVSwitch machine: start "
                        "nvidia-fabricmanager) (cudaGetDeviceCount: cudaErrorSystemNotReady: "
                        "system not yet initialized)", 200) == 0);
    tut_no_gpu_reason(0, "cudaSuccess", "no error", 13000, 13000, NULL, why, sizeof why);
    EXPECT(strcmp(why, "no CUDA GPU or driver found (cudaGetDeviceCount: no devices)") == 0);
}

int main(int argc, char **argv)
{
    static const tut_test_group groups[] = {
        {"sizes", test_sizes}, {"numbers", test_numbers}, {"options", test_options},
        {"compare", test_compare}, {"csv", test_csv},     {"rng", test_rng},
        {"timer", test_timer}, {"memory", test_memory},   {"device", test_device},
    };
    return tut_run_test_groups(argc, argv, groups, TUT_COUNT(groups));
}
