/* cmd_gpu_bench.c - `sortnet gpu bench`: time sorting networks on an
 * OpenCL device (one launch per layer, and fused) against the CPU
 * reference executor and qsort, checking every output; a table on stdout,
 * CSV and an SVG plot on request. The options are read in
 * cmd_gpu_bench_args.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_time.h"
#include "cmd_gpu_batch.h"
#include "cmd_gpu_bench.h"
#include "cmd_gpu_sort.h" // for: the GPU sorts' rows (--variants radix,merge,...)
#include "cmd_gpu.h"
#include "core/alloc.h"
#include "core/input.h" // for: sn_rand_next
#include "gpu/gpu.h"
#ifdef SN_HAVE_CAIRO
#include "render/plot.h"
#endif

typedef struct bench_row {
    const char *network;
    const char *variant;
    uint32_t n;
    double ms;      /* median: kernel time (device) or wall time (CPU) */
    double host_ms; /* device: median host-to-host; CPU: = ms */
    size_t launches;
} bench_row;

/* One run's state: the device, the buffers, the rows so far. */
typedef struct bench {
    const bench_args *a;
    sn_gpu *g;
    bench_row *rows;
    size_t nrows;
    uint32_t *input, *work, *sorted;
    sn_gpu_timing *tm;
    double *ta, *tb;
    sn_diag d;
} bench;

static sn_key_type qsort_type;
static int cmp_key(const void *a, const void *b)
{
    uint32_t x = sn_key_to_ordered(qsort_type, *(const uint32_t *)a);
    uint32_t y = sn_key_to_ordered(qsort_type, *(const uint32_t *)b);
    return x < y ? -1 : x > y;
}

static bool is_sorted_keys(sn_key_type t, const uint32_t *k, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (sn_key_to_ordered(t, k[i - 1]) > sn_key_to_ordered(t, k[i]))
            return false;
    return true;
}

static void print_profile(void *ctx, const char *what, size_t items, double ms)
{
    (void)ctx;
    fprintf(stderr, "profile: %s %zu work-items %.4f ms\n", what, items, ms);
}

static const struct {
    const char *name;
    sn_gpu_variant v;
} variants[] = {{"naive", SN_GPU_VARIANT_LEFT},
                {"closed", SN_GPU_VARIANT_SHIFT},
                {"fused", SN_GPU_VARIANT_FUSED}};

/* The vs_naive column: "-" where no naive row was timed (--variants). */
static void vs_naive(char *buf, size_t cap, double naive_ms, double ms)
{
    if (naive_ms > 0 && ms > 0)
        snprintf(buf, cap, "%.2fx", naive_ms / ms);
    else
        snprintf(buf, cap, "-");
}

/* Time variant vi of schedule s (network net) on the device into a row;
 * naive_ms: the naive row's time (0 before it). Returns 0 (a size the
 * device cannot hold is a note, no row) or an exit code. */
static int device_row(bench *b, const sn_schedule *s, const char *net, size_t vi, bool cpu,
                      double copy_ms, double *naive_ms)
{
    const bench_args *a = b->a;
    uint32_t n = sn_schedule_wires(s);
    size_t reps = (size_t)a->reps;
    fprintf(stderr, "bench: %s %u %s ...\n", net, n, variants[vi].name);
    memcpy(b->work, b->input, (size_t)n * 4);
    sn_status st = sn_gpu_time(b->g, s, variants[vi].v, a->type, b->work, reps + 1, b->tm, &b->d);
    if (st == SN_ELIMIT) {
        printf("%-14s %10u %-10s skipped: %s\n", net, n, variants[vi].name, b->d.text);
        sn_diag_clear(&b->d);
        return 0;
    }
    if (st != SN_OK)
        return cli_gpu_report("gpu bench", st, &b->d, NULL);
    if (cpu ? memcmp(b->work, b->sorted, (size_t)n * 4) != 0 : !is_sorted_keys(a->type, b->work, n))
        return cli_error(CLI_NEGATIVE, "gpu bench", "%s %u %s: the output is wrong", net, n,
                         variants[vi].name);
    for (size_t r = 0; r < reps; r++) {
        b->ta[r] = b->tm[r + 1].kernel_ms;
        b->tb[r] = b->tm[r + 1].host_ms;
    }
    size_t launches = sn_schedule_layer_count(s);
    sn_gpu_fused_info fi;
    if (variants[vi].v == SN_GPU_VARIANT_FUSED &&
        sn_gpu_fused_describe(b->g, s, SN_GPU_VARIANT_FUSED, false, a->type, &fi, &b->d) == SN_OK)
        launches = fi.passes;
    bench_row *row = &b->rows[b->nrows++];
    *row = (bench_row){
        net, variants[vi].name, n, cli_median(b->ta, reps), cli_median(b->tb, reps), launches};
    if (vi == 0)
        *naive_ms = row->ms;
    char vs[32];
    vs_naive(vs, sizeof vs, *naive_ms, row->ms);
    printf("%-14s %10u %-10s %8zu %12.4f %12.4f %14.4g %9s", net, n, row->variant, launches,
           row->ms, row->host_ms, n / (row->ms / 1e3), vs);
    /* the fused row in units of the device's own copy of n keys, next to
     * its pass count: how far each pass is from the memory floor */
    if (variants[vi].v == SN_GPU_VARIANT_FUSED && copy_ms > 0)
        printf("  (%.1f copies of %.4f ms)", row->ms / copy_ms, copy_ms);
    printf("\n");
    fflush(stdout);
    return 0;
}

/* The CPU baselines: the reference executor and qsort. */
static int cpu_rows(bench *b, const sn_schedule *s, const char *net, double naive_ms)
{
    uint32_t n = sn_schedule_wires(s);
    size_t cr = b->a->reps < 3 ? (size_t)b->a->reps : 3; /* CPU runs are long */
    for (int which = 0; which < 2; which++) {
        fprintf(stderr, "bench: %s %u %s ...\n", net, n, which ? "qsort" : "reference");
        for (size_t r = 0; r < cr; r++) {
            memcpy(b->work, b->input, (size_t)n * 4);
            double t0 = cli_now_ms();
            if (which)
                qsort(b->work, n, 4, cmp_key);
            else
                sn_exec_run_threads(s, b->a->type, b->work, NULL, 1);
            b->ta[r] = cli_now_ms() - t0;
        }
        if (memcmp(b->work, b->sorted, (size_t)n * 4) != 0)
            return cli_error(CLI_NEGATIVE, "gpu bench", "%s %u: the CPU output is wrong", net, n);
        bench_row *row = &b->rows[b->nrows++];
        double m = cli_median(b->ta, cr);
        *row = (bench_row){net, which ? "qsort" : "reference", n, m, m, 0};
        char vs[32];
        vs_naive(vs, sizeof vs, naive_ms, m);
        printf("%-14s %10u %-10s %8s %12s %12.4f %14.4g %9s\n", net, n, row->variant, "-", "-", m,
               n / (m / 1e3), vs);
        fflush(stdout);
    }
    return 0;
}

/* n random keys into b->input from *seed, and, when the CPU rows run at n
 * (--cpu-max), their qsorted order into b->sorted; returns whether they do. */
static bool bench_input(bench *b, uint32_t n, uint64_t *seed)
{
    for (uint32_t i = 0; i < n; i++)
        b->input[i] = (uint32_t)sn_rand_next(seed);
    bool cpu = n <= b->a->cpu_max;
    if (cpu) {
        memcpy(b->sorted, b->input, (size_t)n * 4);
        qsort_type = b->a->type;
        qsort(b->sorted, n, 4, cmp_key);
    }
    return cpu;
}

/* Every variant of network net at n keys. */
static int bench_point(bench *b, sn_algo alg, uint32_t n, uint64_t *seed)
{
    const bench_args *a = b->a;
    sn_schedule *s = NULL;
    sn_status st = sn_schedule_generate(alg, n, &s, &b->d);
    if (st != SN_OK)
        return cli_gpu_report("gpu bench", st, &b->d, NULL);
    const char *net = sn_algo_name(alg);
    bool cpu = bench_input(b, n, seed);
    double naive_ms = 0, copy_ms = 0;
    if (sn_gpu_copy_time(b->g, n, (size_t)a->reps, &copy_ms, &b->d) != SN_OK) {
        copy_ms = 0; /* only a yardstick: the rows go on without it */
        sn_diag_clear(&b->d);
    }
    int rc = 0;
    for (size_t vi = 0; vi < sizeof variants / sizeof variants[0] && rc == 0; vi++)
        if (a->netv[vi] && (variants[vi].v != SN_GPU_VARIANT_FUSED || alg != SN_ALGO_TRANSPOSITION))
            rc = device_row(b, s, net, vi, cpu, copy_ms, &naive_ms);
    if (rc == 0 && cpu)
        rc = cpu_rows(b, s, net, naive_ms);
    sn_schedule_destroy(s);
    return rc;
}

/* The GPU sorts of --variants at n keys, as rows of network "sort". */
static int sort_rows(bench *b, void **cache, uint32_t n, uint64_t *seed)
{
    const bench_args *a = b->a;
    bool cpu = bench_input(b, n, seed);
    for (size_t vi = 0; vi < a->nsortv; vi++) {
        fprintf(stderr, "bench: sort %u %s ...\n", n, a->sortv[vi]);
        gpu_sort_point pt;
        int rc = cli_gpu_sort_bench_point(b->g, cache, a->sortv[vi], a->type, b->input,
                                          cpu ? b->sorted : NULL, n, (size_t)a->reps, &pt);
        if (rc != CLI_OK)
            return rc;
        if (pt.skipped) {
            printf("%-14s %10u %-10s skipped: %s\n", "sort", n, a->sortv[vi], pt.why);
            continue;
        }
        bench_row *row = &b->rows[b->nrows++];
        *row = (bench_row){"sort", a->sortv[vi], n, pt.kernel_ms, pt.host_ms, pt.launches};
        printf("%-14s %10u %-10s %8zu %12.4f %12.4f %14.4g %9s\n", "sort", n, row->variant,
               row->launches, row->ms, row->host_ms, n / (row->ms / 1e3), "-");
        fflush(stdout);
    }
    return 0;
}

static int write_csv(const bench *b, const char *path)
{
    cli_out o;
    int rc = cli_out_open(&o, path);
    if (rc != 0)
        return rc;
    char devq[320];
    cli_gpu_csv_field(sn_gpu_device_name(b->g), devq, sizeof devq);
    fprintf(o.f, "device,network,variant,n,median_ms,keys_per_s\n");
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        fprintf(o.f, "%s,%s,%s,%u,%.6f,%.6g\n", devq, r->network, r->variant, r->n, r->ms,
                r->ms > 0 ? r->n / (r->ms / 1e3) : 0.0);
    }
    return cli_out_commit(&o);
}

#ifdef SN_HAVE_CAIRO
static int write_plot(const bench *b, const char *path)
{
    sn_plot_row *pr = sn_calloc(b->nrows ? b->nrows : 1, sizeof *pr);
    if (!pr)
        return cli_error(CLI_DEVICE, "--plot", "out of memory");
    for (size_t i = 0; i < b->nrows; i++)
        pr[i] = (sn_plot_row){b->rows[i].network, b->rows[i].variant, b->rows[i].n, b->rows[i].ms};
    cli_out o;
    int rc = cli_out_open(&o, path);
    if (rc == 0) {
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_plot_write_svg(o.f, pr, b->nrows, sn_gpu_device_name(b->g), &d);
        if (st != SN_OK) {
            cli_out_abort(&o);
            rc = cli_gpu_report(path, st, &d, NULL);
        } else {
            rc = cli_out_commit(&o);
        }
    }
    sn_free(pr);
    return rc;
}
#endif

/* Open the device and the buffers for up to nmax keys; prints the head. */
static int bench_open(bench *b, size_t nrows_max, uint32_t nmax)
{
    sn_status st = sn_gpu_open(b->a->spec, &b->g, &b->d);
    if (st != SN_OK)
        return cli_gpu_report("gpu bench", st, &b->d, NULL);
    if (b->a->profile)
        sn_gpu_set_profile(b->g, print_profile, NULL);
    sn_gpu_set_pinned(b->g, b->a->pinned);
    size_t reps = (size_t)b->a->reps;
    b->rows = sn_calloc(nrows_max, sizeof *b->rows);
    b->input = sn_malloc((size_t)nmax * 4 + 4);
    b->work = sn_malloc((size_t)nmax * 4 + 4);
    b->sorted = sn_malloc((size_t)nmax * 4 + 4);
    b->tm = sn_calloc(reps + 1, sizeof *b->tm);
    b->ta = sn_calloc(reps + 1, sizeof *b->ta);
    b->tb = sn_calloc(reps + 1, sizeof *b->tb);
    if (!b->rows || !b->input || !b->work || !b->sorted || !b->tm || !b->ta || !b->tb)
        return cli_error(CLI_DEVICE, "gpu bench", "out of memory for %u keys", nmax);
    printf("device: %s; %s keys, uniformly random; median of %u runs after a warm-up\n",
           sn_gpu_device_name(b->g), sn_key_type_name(b->a->type), (unsigned)reps);
    printf("CPU baselines up to %u keys%s\n",
           (unsigned)(b->a->cpu_max > UINT32_MAX ? UINT32_MAX : b->a->cpu_max),
           b->a->cpu_max < nmax ? " (larger sizes: --cpu-max; they take long)" : "");
    printf("%-14s %10s %-10s %8s %12s %12s %14s %9s\n", "network", "n", "variant", "launches",
           "kernel_ms", "host_ms", "keys_per_s", "vs_naive");
    return 0;
}

static void bench_close(bench *b)
{
    sn_free(b->rows);
    sn_free(b->input);
    sn_free(b->work);
    sn_free(b->sorted);
    sn_free(b->tm);
    sn_free(b->ta);
    sn_free(b->tb);
    sn_gpu_close(b->g);
}

int cmd_gpu_bench(int argc, char **argv)
{
    if (cmd_gpu_bench_wants_batch(argc, argv)) /* many small arrays: cmd_gpu_bench_batch.c */
        return cmd_gpu_bench_batch(argc, argv);
    bench_args a;
    sn_algo nets[BENCH_MAX_NETS];
    size_t nnets = 0;
    int rc = cli_gpu_bench_parse(argc, argv, &a, nets, &nnets);
    if (rc != 0)
        return rc < 0 ? CLI_OK : rc;
    uint32_t nmax = 0;
    for (size_t i = 0; i < a.nsizes; i++)
        if (a.sizes[i] > nmax)
            nmax = a.sizes[i];
    if (cli_memory_check("gpu bench", (uint64_t)nmax * 4 * 4))
        return CLI_USAGE;
    bench b;
    memset(&b, 0, sizeof b);
    b.a = &a;
    sn_diag_clear(&b.d);
    rc = bench_open(&b, (nnets * 5 + a.nsortv) * a.nsizes, nmax);
    uint64_t seed = 0x5eedu;
    for (size_t ni = 0; ni < nnets && rc == 0; ni++)
        for (size_t si = 0; si < a.nsizes && rc == 0; si++)
            rc = bench_point(&b, nets[ni], a.sizes[si], &seed);
    void *sort_cache = NULL;
    for (size_t si = 0; si < a.nsizes && rc == 0 && a.nsortv; si++)
        rc = sort_rows(&b, &sort_cache, a.sizes[si], &seed);
    cli_gpu_sort_bench_done(sort_cache);
    if (rc == 0 && a.csv)
        rc = write_csv(&b, a.csv);
#ifdef SN_HAVE_CAIRO
    if (rc == 0 && a.plot)
        rc = write_plot(&b, a.plot);
#endif
    bench_close(&b);
    return rc;
}
