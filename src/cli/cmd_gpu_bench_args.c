/* cmd_gpu_bench_args.c - the options of `sortnet gpu bench` (its --help, the
 * size and variant lists) into a bench_args (cmd_gpu_bench.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_gpu.h"
#include "cmd_gpu_bench.h"
#include "cmd_gpu_sort.h" // for: cli_gpu_sort_is_variant

static void bench_help(void)
{
    printf("usage: sortnet gpu bench [NET...] [--sizes LIST] [--device P:D] [--type T]\n"
           "                         [--reps N] [--cpu-max N] [--csv FILE] [--plot FILE.svg]\n"
           "                         [--profile] [--pinned]\n\n"
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
           "  --pinned        keep the host arrays in pinned (page-locked) memory, as an\n"
           "                  application streaming keys to the GPU would: host_ms then\n"
           "                  times DMA transfers, without the driver's staging copy\n"
           "  --variant batch many small arrays at once (gpu batch): see\n"
           "                  `sortnet gpu bench --variant batch --help`\n"
           "  -h, --help      this text\n");
}

enum { O_SIZES = 256, O_DEVICE, O_TYPE, O_REPS, O_CPU_MAX, O_CSV, O_PLOT, O_PROFILE, O_VARIANTS, O_PINNED };

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
        else if (cli_gpu_sort_is_variant(tok) && a->nsortv < 16)
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
    case O_DEVICE: a->spec = arg; return cli_gpu_device_arg(arg);
    case O_TYPE:
        return cli_type_arg(arg, &a->type);
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
    case O_PINNED: a->pinned = true; return 0;
    default: a->profile = true; return 0; /* O_PROFILE */
    }
}

int cli_gpu_bench_parse(int argc, char **argv, bench_args *a, sn_algo *nets, size_t *nnets)
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
        {"pinned", no_argument, NULL, O_PINNED},
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
    int first, rc = cli_gpu_options("gpu bench", argc, argv, "", opts, bench_help, take, a, &first);
    if (rc != 0)
        return rc;
#ifndef SN_HAVE_CAIRO
    if (a->plot)
        return cli_error(CLI_NOENV, "--plot", "built without cairo: no plots (use --csv)");
#endif
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
    return 0;
}
