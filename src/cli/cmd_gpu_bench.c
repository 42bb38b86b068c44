/* cmd_gpu_bench.c - `sortnet gpu bench`: time sorting networks on an
 * OpenCL device (one launch per layer, and fused) against the CPU
 * reference executor and qsort, checking every output; a table on stdout,
 * CSV and an SVG plot on request. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cmd_gpu_batch.h"
#include "cmd_gpu_sort.h" // for: the GPU sorts' rows (--variants radix,merge,...)
#include "cmd_gpu.h"
#include "core/alloc.h"
#include "core/input.h" // for: sn_rand_next
#include "gpu/gpu.h"
#ifdef SN_HAVE_CAIRO
#include "render/plot.h"
#endif

#define BENCH_MAX_SIZES 64
#define BENCH_MAX_NETS 8

static void bench_help(void)
{
    printf("usage: sortnet gpu bench [NET...] [--sizes LIST] [--device P:D] [--type T]\n"
           "                         [--reps N] [--cpu-max N] [--csv FILE] [--plot FILE.svg]\n"
           "                         [--profile]\n\n"
           "Time sorting networks on an OpenCL device against the CPU. NET is a\n"
           "generator (default: bitonic oddeven-merge). For every network and size:\n"
           "  naive      one launch per layer, a work-item per element (left index)\n"
           "  closed     one launch per layer, a work-item per comparator (shifts)\n"
           "  fused      many layers per launch (generated kernels over tiles held in\n"
           "             registers on GPUs, one work-item per tile on CPUs); the launch\n"
           "             count is shown, and the time in copies: units of the device's\n"
           "             own copy of n keys, the memory floor of one pass\n"
           "  reference  the CPU reference executor (one thread)\n"
           "  qsort      the C library's qsort\n"
           "Times are medians of --reps runs after one warm-up: kernel time from OpenCL\n"
           "profiling events (first launch start to last launch end) and host-to-host\n"
           "time (upload, run, read back). Keys are uniformly random; every output is\n"
           "checked against qsort's (or for being sorted where qsort is skipped).\n\n"
           "Options:\n"
           "  --sizes LIST    comma-separated sizes: 1000, 2^20, or 2^A..2^B (every\n"
           "                  second power); default 2^10..2^24; sizes the device cannot\n"
           "                  hold are skipped with a note\n"
           "  --device P:D    platform and device index (`sortnet gpu list`)\n"
           "  --type T        i32 (default), u32 or f32\n"
           "  --reps N        timed runs per point (default 5)\n"
           "  --variants LIST which variants: of naive, closed, fused and the GPU sorts\n"
           "                  of `sortnet gpu sort` (transposition, transposition-local,\n"
           "                  rank, rank-global, merge, radix, radix4 = 4-bit digits,\n"
           "                  hybrid), e.g. fused,radix,merge; a sort's rows have\n"
           "                  network 'sort' (default: naive,closed,fused)\n"
           "  --cpu-max N     run the CPU baselines only up to N keys (default 2^24: above,\n"
           "                  they take long)\n"
           "  --csv FILE      device,network,variant,n,median_ms,keys_per_s (median_ms is\n"
           "                  the kernel time for device variants)\n"
           "  --plot FILE.svg keys per second against size, log-log (needs cairo;\n"
           "                  `sortnet gpu plot` draws it later from the CSV)\n"
           "  --profile       each timed launch's own kernel time on stderr (it waits\n"
           "                  for every launch: a tuning aid, see docs/gpu-speed.md)\n"
           "  --variant batch many small arrays at once (gpu batch): see\n"
           "                  `sortnet gpu bench --variant batch --help`\n"
           "  -h, --help      this text\n");
}

typedef struct bench_args {
    uint32_t sizes[BENCH_MAX_SIZES];
    size_t nsizes;
    const char *spec, *csv, *plot;
    sn_key_type type;
    uint64_t reps, cpu_max;
    bool profile;
    bool netv[3];      /* --variants: naive, closed, fused */
    char vbuf[256];    /* --variants' list, cut at the commas */
    const char *sortv[16]; /* --variants: the GPU sorts */
    size_t nsortv;
} bench_args;

enum { O_SIZES = 256, O_DEVICE, O_TYPE, O_REPS, O_CPU_MAX, O_CSV, O_PLOT, O_PROFILE, O_VARIANTS };

/* --variants LIST: the network variants to run and the GPU sorts. */
static int parse_variants(bench_args *a, const char *arg)
{
    if (snprintf(a->vbuf, sizeof a->vbuf, "%s", arg) >= (int)sizeof a->vbuf)
        return cli_error(CLI_USAGE, "--variants", "too long");
    a->netv[0] = a->netv[1] = a->netv[2] = false;
    a->nsortv = 0;
    for (char *tok = strtok(a->vbuf, ","); tok; tok = strtok(NULL, ",")) {
        int k = strcmp(tok, "naive") == 0    ? 0
                : strcmp(tok, "closed") == 0 ? 1
                : strcmp(tok, "fused") == 0  ? 2
                                             : -1;
        if (k >= 0)
            a->netv[k] = true;
        else if (gpu_sort_is_variant(tok) && a->nsortv < 16)
            a->sortv[a->nsortv++] = tok;
        else
            return cli_error(CLI_USAGE, "--variants",
                             "'%s' is not a variant (naive, closed, fused, or a sort of "
                             "`sortnet gpu sort`, radix4)",
                             tok);
    }
    if (!a->netv[0] && !a->netv[1] && !a->netv[2] && a->nsortv == 0)
        return cli_error(CLI_USAGE, "--variants", "'%s' names no variant", arg);
    return 0;
}

static bool parse_size(const char *s, uint64_t *out)
{
    if (s[0] == '2' && s[1] == '^') {
        uint64_t e;
        if (!cli_parse_u64(s + 2, 0, 31, &e))
            return false;
        *out = (uint64_t)1 << e;
        return true;
    }
    return cli_parse_u64(s, 1, (uint64_t)1 << 31, out);
}

static bool parse_sizes(const char *arg, uint32_t *sizes, size_t *count)
{
    char buf[512];
    if (strlen(arg) >= sizeof buf)
        return false;
    strcpy(buf, arg);
    *count = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *dots = strstr(tok, "..");
        uint64_t a, b;
        if (dots) {
            *dots = '\0';
            if (!parse_size(tok, &a) || !parse_size(dots + 2, &b) || a > b)
                return false;
            for (uint64_t x = a; x <= b; x *= 4) {
                if (*count == BENCH_MAX_SIZES)
                    return false;
                sizes[(*count)++] = (uint32_t)x;
            }
        } else {
            if (!parse_size(tok, &a) || *count == BENCH_MAX_SIZES)
                return false;
            sizes[(*count)++] = (uint32_t)a;
        }
    }
    return *count > 0;
}

static int take(void *ctx, int key, const char *name, const char *arg)
{
    bench_args *a = ctx;
    uint64_t v;
    (void)name;
    switch (key) {
    case O_SIZES:
        if (!parse_sizes(arg, a->sizes, &a->nsizes))
            return cli_error(CLI_USAGE, "--sizes",
                             "'%s' is not a list of sizes (e.g. 2^10..2^24 or 1000,2^20; each "
                             "1..2^31)",
                             arg);
        return 0;
    case O_DEVICE: a->spec = arg; return gpu_device_arg(arg);
    case O_TYPE:
        if (!sn_key_type_parse(arg, &a->type))
            return cli_error(CLI_USAGE, "--type", "'%s' is not i32, u32 or f32", arg);
        return 0;
    case O_REPS:
        if (!cli_parse_u64(arg, 1, 1000, &a->reps))
            return cli_error(CLI_USAGE, "--reps", "'%s' is not a number in 1..1000", arg);
        return 0;
    case O_CPU_MAX:
        if (!parse_size(arg, &v))
            return cli_error(CLI_USAGE, "--cpu-max", "'%s' is not a size", arg);
        a->cpu_max = v;
        return 0;
    case O_CSV: a->csv = arg; return 0;
    case O_PLOT: a->plot = arg; return 0;
    case O_VARIANTS: return parse_variants(a, arg);
    default: a->profile = true; return 0; /* O_PROFILE */
    }
}

static int parse_args(int argc, char **argv, bench_args *a, sn_algo *nets, size_t *nnets)
{
    static const struct option opts[] = {
        {"sizes", required_argument, NULL, O_SIZES},
        {"device", required_argument, NULL, O_DEVICE},
        {"type", required_argument, NULL, O_TYPE},
        {"reps", required_argument, NULL, O_REPS},
        {"cpu-max", required_argument, NULL, O_CPU_MAX},
        {"csv", required_argument, NULL, O_CSV},
        {"plot", required_argument, NULL, O_PLOT},
        {"profile", no_argument, NULL, O_PROFILE},
        {"variants", required_argument, NULL, O_VARIANTS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(a, 0, sizeof *a);
    parse_sizes("2^10..2^24", a->sizes, &a->nsizes);
    a->type = SN_KEY_I32;
    a->reps = 5;
    a->cpu_max = (uint64_t)1 << 24;
    a->netv[0] = a->netv[1] = a->netv[2] = true;
    int first, rc = gpu_options("gpu bench", argc, argv, "", opts, bench_help, take, a, &first);
    if (rc != 0)
        return rc;
    *nnets = 0;
    for (int i = first; i < argc; i++) {
        if (*nnets == BENCH_MAX_NETS)
            return cli_error(CLI_USAGE, "gpu bench", "at most %d networks", BENCH_MAX_NETS);
        if (!sn_algo_parse(argv[i], &nets[*nnets]) || !sn_algo_is_closed_form(nets[*nnets]))
            return cli_error(CLI_USAGE, "gpu bench",
                             "'%s' is not a closed-form generator (bitonic, oddeven-merge, "
                             "transposition)",
                             argv[i]);
        (*nnets)++;
    }
    if (*nnets == 0 && !a->netv[0] && !a->netv[1] && !a->netv[2])
        return 0; /* only GPU sorts */
    if (*nnets == 0) {
        nets[(*nnets)++] = SN_ALGO_BITONIC;
        nets[(*nnets)++] = SN_ALGO_ODDEVEN_MERGE;
    }
#ifndef SN_HAVE_CAIRO
    if (a->plot)
        return cli_error(CLI_NOENV, "--plot", "built without cairo: no plots (use --csv)");
#endif
    return 0;
}

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

static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

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
        return gpu_report("gpu bench", st, &b->d, NULL);
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
    *row =
        (bench_row){net, variants[vi].name, n, median(b->ta, reps), median(b->tb, reps), launches};
    if (vi == 0)
        *naive_ms = row->ms;
    printf("%-14s %10u %-10s %8zu %12.4f %12.4f %14.4g %8.2fx", net, n, row->variant, launches,
           row->ms, row->host_ms, n / (row->ms / 1e3),
           *naive_ms > 0 && row->ms > 0 ? *naive_ms / row->ms : 0.0);
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
            double t0 = wall_ms();
            if (which)
                qsort(b->work, n, 4, cmp_key);
            else
                sn_exec_run_threads(s, b->a->type, b->work, NULL, 1);
            b->ta[r] = wall_ms() - t0;
        }
        if (memcmp(b->work, b->sorted, (size_t)n * 4) != 0)
            return cli_error(CLI_NEGATIVE, "gpu bench", "%s %u: the CPU output is wrong", net, n);
        bench_row *row = &b->rows[b->nrows++];
        double m = median(b->ta, cr);
        *row = (bench_row){net, which ? "qsort" : "reference", n, m, m, 0};
        printf("%-14s %10u %-10s %8s %12s %12.4f %14.4g %8.2fx\n", net, n, row->variant, "-", "-",
               m, n / (m / 1e3), naive_ms > 0 && m > 0 ? naive_ms / m : 0.0);
        fflush(stdout);
    }
    return 0;
}

/* Every variant of network net at n keys. */
static int bench_point(bench *b, sn_algo alg, uint32_t n, uint64_t *seed)
{
    const bench_args *a = b->a;
    sn_schedule *s = NULL;
    sn_status st = sn_schedule_generate(alg, n, &s, &b->d);
    if (st != SN_OK)
        return gpu_report("gpu bench", st, &b->d, NULL);
    const char *net = sn_algo_name(alg);
    for (uint32_t i = 0; i < n; i++)
        b->input[i] = (uint32_t)sn_rand_next(seed);
    bool cpu = n <= a->cpu_max;
    if (cpu) {
        memcpy(b->sorted, b->input, (size_t)n * 4);
        qsort_type = a->type;
        qsort(b->sorted, n, 4, cmp_key);
    }
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
    for (uint32_t i = 0; i < n; i++)
        b->input[i] = (uint32_t)sn_rand_next(seed);
    bool cpu = n <= a->cpu_max;
    if (cpu) {
        memcpy(b->sorted, b->input, (size_t)n * 4);
        qsort_type = a->type;
        qsort(b->sorted, n, 4, cmp_key);
    }
    for (size_t vi = 0; vi < a->nsortv; vi++) {
        fprintf(stderr, "bench: sort %u %s ...\n", n, a->sortv[vi]);
        gpu_sort_point pt;
        int rc = gpu_sort_bench_point(b->g, cache, a->sortv[vi], a->type, b->input,
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
    size_t k = 0;
    for (const char *q = sn_gpu_device_name(b->g); *q && k + 1 < sizeof devq; q++)
        devq[k++] = *q == ',' ? ';' : *q; /* keep the columns */
    devq[k] = '\0';
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
            rc = gpu_report(path, st, &d, NULL);
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
        return gpu_report("gpu bench", st, &b->d, NULL);
    if (b->a->profile)
        sn_gpu_set_profile(b->g, print_profile, NULL);
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

int gpu_bench(int argc, char **argv)
{
    if (cmd_gpu_bench_wants_batch(argc, argv)) /* many small arrays: cmd_gpu_bench_batch.c */
        return cmd_gpu_bench_batch(argc, argv);
    bench_args a;
    sn_algo nets[BENCH_MAX_NETS];
    size_t nnets = 0;
    int rc = parse_args(argc, argv, &a, nets, &nnets);
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
    gpu_sort_bench_done(sort_cache);
    if (rc == 0 && a.csv)
        rc = write_csv(&b, a.csv);
#ifdef SN_HAVE_CAIRO
    if (rc == 0 && a.plot)
        rc = write_plot(&b, a.plot);
#endif
    bench_close(&b);
    return rc;
}
