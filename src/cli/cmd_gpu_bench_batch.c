/* cmd_gpu_bench_batch.c - `sortnet gpu bench --variant batch NET...`: time
 * M small sorts at once (gpu/batch.h) for each network, next to the
 * device's own copy of the same bytes (the memory floor) and next to the
 * first network of the same n, so that a network's comparator count shows
 * up as time. Every timed output is compared with the reference executor. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_time.h"
#include "cmd_gpu.h"
#include "cmd_gpu_batch.h"
#include "core/alloc.h"
#include "core/input.h" // for: sn_rand_next
#include "gpu/batch.h"

#define BENCH_MAX_NETS 8
/* the kernel timed again applying the network this many more times */
#define NET_EXTRA 16

static void bench_batch_help(void)
{
    printf("usage: sortnet gpu bench --variant batch NET... [--arrays M]\n"
           "                         [--layout rows|columns|both] [--type T] [--payload]\n"
           "                         [--reps N] [--device P:D] [--csv FILE]\n\n"
           "Time `sortnet gpu batch`: M arrays of n keys each (n = the network's wires,\n"
           "1..%u), one work-item per array, the network in registers. NET is any\n"
           "network (best:16 bitonic:16 oddeven-merge:16, a file, ...). For each network\n"
           "and layout: the kernel time (median of --reps runs after a warm-up, OpenCL\n"
           "profiling), keys per second, the time in copies (units of the device's own\n"
           "copy of the same bytes: the memory floor), and the time and the comparator\n"
           "count relative to the first network of the same n and layout, and net_ms,\n"
           "the network's own cost: the time %d more applications of it add to the\n"
           "kernel, per application (the comparators without the memory traffic).\n"
           "Keys are uniformly random; every sorting output is compared with the\n"
           "reference executor.\n\n"
           "  --arrays M      arrays per network (default 2^20; 2^K allowed)\n"
           "  --layout L      rows (default), columns or both\n"
           "  --type T        i32 (default), u32 or f32\n"
           "  --payload       move a payload with the keys\n"
           "  --reps N        timed runs (default 10)\n"
           "  --device P:D    platform and device index (`sortnet gpu list`)\n"
           "  --csv FILE      device,network,variant,n,median_ms,keys_per_s rows (n = all\n"
           "                  keys, M * array length; the network names the length;\n"
           "                  variant batch-rows, batch-columns, batch-copy for the\n"
           "                  copy of the same bytes, batch-network-rows|columns for\n"
           "                  net_ms; -kv with --payload)\n"
           "  -h, --help      this text\n",
           SN_BATCH_MAX_WIRES, NET_EXTRA);
}

bool cmd_gpu_bench_wants_batch(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--variant=batch") == 0)
            return true;
        if (strcmp(argv[i], "--variant") == 0 && i + 1 < argc && strcmp(argv[i + 1], "batch") == 0)
            return true;
    }
    return false;
}

typedef struct bb_args {
    const char *nets[BENCH_MAX_NETS];
    size_t nnets;
    uint64_t arrays, reps;
    int layouts; /* bit 0 rows, bit 1 columns */
    sn_key_type type;
    bool payload;
    const char *device, *csv;
} bb_args;

enum { O_VARIANT = 256, O_ARRAYS, O_LAYOUT, O_TYPE, O_PAYLOAD, O_REPS, O_DEVICE, O_CSV };

/* One option of gpu bench --variant batch (gpu_take_fn). */
static int take(void *ctx, int key, const char *name, const char *arg)
{
    bb_args *a = ctx;
    (void)name;
    switch (key) {
    case O_VARIANT: return 0; /* batch: that is why we are here */
    case O_ARRAYS: return cli_gpu_batch_arrays_arg(arg, &a->arrays);
    case O_LAYOUT:
        if (strcmp(arg, "both") == 0)
            a->layouts = 3;
        else if (strcmp(arg, "rows") == 0 || strcmp(arg, "columns") == 0)
            a->layouts = arg[0] == 'r' ? 1 : 2;
        else
            return cli_error(CLI_USAGE, "--layout", "'%s' is not rows, columns or both", arg);
        return 0;
    case O_TYPE:
        return cli_type_arg(arg, &a->type);
    case O_PAYLOAD: a->payload = true; return 0;
    case O_REPS:
        if (!cli_parse_u64(arg, 1, 1000, &a->reps))
            return cli_error(CLI_USAGE, "--reps", "'%s' is not a number in 1..1000", arg);
        return 0;
    case O_DEVICE: a->device = arg; return cli_gpu_device_arg(arg);
    default: a->csv = arg; return 0; /* O_CSV */
    }
}

static int parse(int argc, char **argv, bb_args *a)
{
    static const struct option opts[] = {
        {"variant", 1, NULL, O_VARIANT}, {"arrays", 1, NULL, O_ARRAYS},
        {"layout", 1, NULL, O_LAYOUT},   {"type", 1, NULL, O_TYPE},
        {"payload", 0, NULL, O_PAYLOAD}, {"reps", 1, NULL, O_REPS},
        {"device", 1, NULL, O_DEVICE},   {"csv", 1, NULL, O_CSV},
        {"help", 0, NULL, 'h'},          {NULL, 0, NULL, 0}};
    int first,
        rc = cli_gpu_options("gpu bench", argc, argv, "", opts, bench_batch_help, take, a, &first);
    if (rc != 0)
        return rc;
    for (int i = first; i < argc; i++) {
        if (a->nnets == BENCH_MAX_NETS)
            return cli_error(CLI_USAGE, "gpu bench", "at most %d networks", BENCH_MAX_NETS);
        a->nets[a->nnets++] = argv[i];
    }
    if (a->nnets == 0)
        return cli_error(CLI_USAGE, "gpu bench", "--variant batch needs networks, e.g. best:16");
    return 0;
}

typedef struct bb_row {
    const char *net;
    uint32_t n;
    int layout;
    size_t comps;
    double ms, copy_ms;
    double net_ms; /* the network's own cost per pass (NET_EXTRA more applied) */
} bb_row;

/* Median kernel time of a->reps runs (after a warm-up) of net built to
 * apply the network `repeat` times; keys and pay end as the last run's. */
static sn_status timed(sn_gpu *g, const bb_args *a, const sn_network *net, unsigned repeat,
                       sn_batch_layout l, uint32_t *keys, uint32_t *pay, double *median, sn_diag *d)
{
    double *ms = sn_calloc(a->reps + 1, sizeof *ms);
    if (!ms)
        return sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory");
    sn_batch_kernel *k = NULL;
    sn_status st = sn_batch_kernel_create(g, net, a->type, a->payload, repeat, &k, d);
    sn_batch_run run = {l, a->arrays, a->reps + 1, false, 0, 0};
    if (st == SN_OK)
        st = sn_batch_sort(k, &run, keys, pay, ms, d);
    sn_batch_kernel_destroy(k);
    *median = cli_median(ms + 1, (size_t)a->reps); /* ms[0]: the warm-up */
    sn_free(ms);
    return st;
}

static void fill_input(const bb_args *a, sn_batch_layout l, uint32_t n, uint32_t *in,
                       uint32_t *keys, uint32_t *pay)
{
    uint64_t seed = 0x5eed;
    size_t words = (size_t)a->arrays * n;
    for (size_t i = 0; i < words; i++)
        in[i] = keys[i] = (uint32_t)sn_rand_next(&seed);
    for (uint64_t x = 0; pay && x < a->arrays; x++)
        for (uint32_t w = 0; w < n; w++)
            pay[sn_batch_index(l, n, a->arrays, x, w)] = w;
}

/* One network in one layout: time it, compare its output with the
 * reference, time the copy of the same bytes, and time the kernel applying
 * the network NET_EXTRA + 1 times: the difference is the network's own cost
 * (the comparators), apart from the memory traffic. */
static int bench_one(sn_gpu *g, const bb_args *a, const char *spec, sn_batch_layout l, bb_row *row)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    uint32_t *in = NULL, *keys = NULL, *pay = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    int rc = cli_load_network(spec, &s, &net);
    if (rc)
        goto done;
    uint32_t n = sn_network_wires(net);
    size_t words = (size_t)a->arrays * n;
    if ((rc = cli_memory_check("gpu bench", (uint64_t)words * 4 * (a->payload ? 3 : 2))) != 0)
        goto done;
    in = sn_malloc(words * 4);
    keys = sn_malloc(words * 4);
    pay = a->payload ? sn_malloc(words * 4) : NULL;
    if (!in || !keys || (a->payload && !pay)) {
        rc = cli_error(CLI_DEVICE, "gpu bench", "out of memory for %zu keys", words);
        goto done;
    }
    fill_input(a, l, n, in, keys, pay);
    fprintf(stderr, "bench: %s, %llu arrays, %s ...\n", spec, (unsigned long long)a->arrays,
            sn_batch_layout_name(l));
    *row = (bb_row){spec, n, (int)l, sn_network_size(net), 0, 0, 0};
    sn_status st = timed(g, a, net, 1, l, keys, pay, &row->ms, &d);
    sn_batch_report r;
    if (st == SN_OK) {
        sn_batch_compare(s, a->type, l, a->arrays, in, keys, pay, &r);
        if (!r.identical) {
            rc = cli_error(CLI_NEGATIVE, spec,
                           "the device's output differs from the reference at array %llu, "
                           "wire %u (`sortnet gpu batch` shows it)",
                           (unsigned long long)r.array, r.wire);
            goto done;
        }
        st = sn_gpu_copy_time(g, (uint32_t)(words * (a->payload ? 2 : 1)), a->reps, &row->copy_ms,
                              &d);
    }
    double rep_ms = 0;
    if (st == SN_OK) {
        fill_input(a, l, n, in, keys, pay);
        st = timed(g, a, net, 1 + NET_EXTRA, l, keys, pay, &rep_ms, &d);
        row->net_ms = (rep_ms - row->ms) / NET_EXTRA;
    }
    if (st != SN_OK)
        rc = cli_error(cli_status_exit(st), spec, "%s", sn_diag_text(&d, st));
done:
    sn_free(in);
    sn_free(keys);
    sn_free(pay);
    sn_network_destroy(net);
    sn_schedule_destroy(s);
    return rc;
}

static void print_row(const bb_args *a, const bb_row *r, const bb_row *first)
{
    double keys = (double)a->arrays * r->n;
    printf("%-18s %4u %10llu %-7s %5zu %10.4f %8.2f %9.4f %6.2fx %7.2fx %9.4f %7.2fx %7.2fx\n",
           r->net, r->n, (unsigned long long)a->arrays,
           sn_batch_layout_name((sn_batch_layout)r->layout), r->comps, r->ms,
           keys / (r->ms / 1e3) / 1e9, r->copy_ms, r->copy_ms > 0 ? r->ms / r->copy_ms : 0.0,
           first->ms > 0 ? r->ms / first->ms : 0.0, r->net_ms,
           first->net_ms > 0 ? r->net_ms / first->net_ms : 0.0,
           first->comps ? (double)r->comps / (double)first->comps : 0.0);
    fflush(stdout);
}

static int write_csv(const bb_args *a, const sn_gpu *g, const bb_row *rows, size_t nrows)
{
    cli_out o;
    int rc = cli_out_open(&o, a->csv);
    if (rc)
        return rc;
    char dev[320];
    cli_gpu_csv_field(sn_gpu_device_name(g), dev, sizeof dev);
    fprintf(o.f, "device,network,variant,n,median_ms,keys_per_s\n");
    for (size_t i = 0; i < nrows; i++) {
        const bb_row *r = &rows[i];
        double keys = (double)a->arrays * r->n;
        const char *lay = sn_batch_layout_name((sn_batch_layout)r->layout);
        fprintf(o.f, "%s,%s,batch-%s%s,%.0f,%.6f,%.6g\n", dev, r->net, lay, a->payload ? "-kv" : "",
                keys, r->ms, r->ms > 0 ? keys / (r->ms / 1e3) : 0.0);
        bool seen = false; /* one copy row per array length */
        for (size_t j = 0; j < i; j++)
            seen = seen || rows[j].n == r->n;
        if (!seen)
            fprintf(o.f, "%s,copy:%u%s,batch-copy,%.0f,%.6f,%.6g\n", dev, r->n,
                    a->payload ? "-kv" : "", keys, r->copy_ms,
                    r->copy_ms > 0 ? keys / (r->copy_ms / 1e3) : 0.0);
        fprintf(o.f, "%s,%s,batch-network-%s%s,%.0f,%.6f,%.6g\n", dev, r->net, lay,
                a->payload ? "-kv" : "", keys, r->net_ms,
                r->net_ms > 0 ? keys / (r->net_ms / 1e3) : 0.0);
    }
    return cli_out_commit(&o);
}

int cmd_gpu_bench_batch(int argc, char **argv)
{
    bb_args a = {{NULL}, 0, (uint64_t)1 << 20, 10, 1, SN_KEY_I32, false, NULL, NULL};
    int rc = parse(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu *g = NULL;
    sn_status st = sn_gpu_open(a.device, &g, &d);
    if (st != SN_OK)
        return cli_error(cli_status_exit(st), "gpu bench", "%s", sn_diag_text(&d, st));
    bb_row rows[2 * BENCH_MAX_NETS];
    size_t nrows = 0;
    printf("device: %s\n%s keys%s, uniformly random; %llu arrays per network; median of %u\n"
           "runs after a warm-up (kernel time). copies: the time in units of copy_ms, the\n"
           "device's copy of the same bytes (the memory floor); vs_first: relative to the\n"
           "first network of the same n and layout; net_ms: the network's own cost, the\n"
           "time a kernel applying it %d more times adds, per application (comparators\n"
           "without memory traffic), with its ratio and the comparator ratio.\n",
           sn_gpu_device_name(g), sn_key_type_name(a.type), a.payload ? " with payload" : "",
           (unsigned long long)a.arrays, (unsigned)a.reps, NET_EXTRA);
    printf("%-18s %4s %10s %-7s %5s %10s %8s %9s %7s %8s %9s %8s %8s\n", "network", "n", "arrays",
           "layout", "comps", "kernel_ms", "Gkeys/s", "copy_ms", "copies", "vs_first", "net_ms",
           "net_vs", "comp_vs");
    for (int l = 0; l < 2 && rc == 0; l++) {
        if (!(a.layouts & (1 << l)))
            continue;
        for (size_t i = 0; i < a.nnets && rc == 0; i++) {
            bb_row *r = &rows[nrows];
            if ((rc = bench_one(g, &a, a.nets[i], (sn_batch_layout)l, r)) != 0)
                break;
            const bb_row *first = r;
            for (size_t j = 0; j < nrows; j++)
                if (rows[j].n == r->n && rows[j].layout == r->layout) {
                    first = &rows[j];
                    break;
                }
            print_row(&a, r, first);
            nrows++;
        }
    }
    if (rc == 0 && a.csv)
        rc = write_csv(&a, g, rows, nrows);
    sn_gpu_close(g);
    return rc;
}
