/* cmd_gpu.c - `sortnet gpu list|verify|bench`: the OpenCL executor from the
 * command line. verify runs the schedule on a device and proves the result
 * bit-identical to the CPU reference, or names the first layer and index
 * where they part (exit 1). No OpenCL platform: exit 3. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <getopt.h>
#include <math.h> // for: isfinite (--timeout)
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef SN_HAVE_CAIRO
#include <cairo-svg.h>
#include <cairo.h>
#endif

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/format.h" // for: sn_file_read_all (--kernel FILE.cl)
#include "core/input.h"  // for: sn_rand_next
#include "gpu/gpu.h"
#include "cmd_gpu_sort.h" // for: the GPU sorts' bench rows (--variants radix,merge,...)

/* Largest kernel file accepted by --kernel. */
#define KERNEL_FILE_MAX ((size_t)1 << 20)
/* --kernel: each layer's time limit unless --timeout says otherwise, the
 * largest one accepted, and the limit on opening the device and building
 * the kernel (a compiler can hang too; a cold pocl cache takes seconds). */
#define KERNEL_TIMEOUT_DEFAULT_S 10.0
#define KERNEL_TIMEOUT_MAX_S 86400.0
#define KERNEL_SETUP_LIMIT_S 120.0

static void gpu_help(void)
{
    printf("usage: sortnet gpu list [--device P:D]\n"
           "       sortnet gpu verify NET [options]\n"
           "       sortnet gpu bench [NET...] [options]\n"
           "       sortnet gpu plot FILE.csv... -o FILE.svg\n"
           "       sortnet gpu sort ALGO:N [options]   (radix, merge, ...: verified)\n\n"
           "Run sorting networks on an OpenCL device (a GPU, or pocl on the CPU) and\n"
           "prove the output identical to the CPU reference executor.\n"
           "`sortnet gpu COMMAND --help` describes a command. Exit codes: 0 identical,\n"
           "1 the device's output differs, 2 bad usage or input, 3 no OpenCL platform.\n");
}

static void list_help(void)
{
    printf("usage: sortnet gpu list [--device P:D]\n\n"
           "List the OpenCL platforms and devices: type, compute units, global and\n"
           "local memory, largest buffer and maximum work-group size. The device used\n"
           "by default (the first GPU, else the first CPU device) is marked with '*';\n"
           "with --device P:D that one is marked instead.\n");
}

static void verify_help(void)
{
    printf("usage: sortnet gpu verify NET [--device P:D] [INPUT] [--payload] [--per-layer]\n"
           "                          [--variant V] [--inject-fault LAYER:INDEX]\n"
           "                          [--kernel FILE.cl [--timeout SECONDS]] [--json]\n\n"
           "Run NET on an OpenCL device and compare with the CPU reference executor,\n"
           "bit for bit: every layer's full array when (layers + 1) * n <= 2^24 (the\n"
           "device snapshots each layer, one wait at the end), otherwise a 64-bit\n"
           "digest of every layer's array, reduced on the device, and always the final\n"
           "array. Prints \"identical\" (exit 0) or the first layer (counting from 0),\n"
           "index, expected and actual value (exit 1).\n\n%s"
           "Options:\n"
           "  --device P:D        platform and device index (`sortnet gpu list`)\n"
           "  --payload           carry the original index along and compare it too\n"
           "  --per-layer         read the whole array back after every layer\n"
           "  --variant V         kernel style: auto (default), pairs (explicit pair\n"
           "                      list), left (a work-item per element: am I the left\n"
           "                      index?), xor (bitonic: if partner < pos return), div\n"
           "                      (a work-item per comparator, / and %%), shift (the same\n"
           "                      with shifts and masks), fused (many layers per\n"
           "                      launch: tiles in local memory and registers on GPUs,\n"
           "                      one work-item per tile on CPUs; fused-local and\n"
           "                      fused-serial force one kind; bitonic and\n"
           "                      oddeven-merge only; compares the final array only)\n"
           "  --inject-fault L:I  flip a bit of element I after layer L on the device:\n"
           "                      the report must name layer L\n"
           "  --kernel FILE.cl    run your own layer kernel instead of ours, checked\n"
           "                      layer by layer (see docs/student-kernel.md), in a\n"
           "                      process of its own: a crash is reported with its\n"
           "                      layer (exit 1), a build error with the build log\n"
           "                      naming FILE.cl (exit 2)\n"
           "  --timeout SECONDS   with --kernel: a layer that takes longer is stopped\n"
           "                      and reported (exit 1); default 10, 0 = no limit\n"
           "  --json              {\"identical\",\"device\",\"layers\",\"first_mismatch\",\n"
           "                      \"fault\"} (fault: why a --kernel run gave no verdict)\n"
           "  -h, --help          this text\n",
           cli_input_help);
}

static void print_mib(uint64_t bytes)
{
    if (bytes >= ((uint64_t)1 << 30))
        printf("%.1f GiB", (double)bytes / (1024.0 * 1024.0 * 1024.0));
    else if (bytes >= ((uint64_t)1 << 20))
        printf("%.1f MiB", (double)bytes / (1024.0 * 1024.0));
    else
        printf("%.1f KiB", (double)bytes / 1024.0);
}

/* Print a diagnostic; a build log (several lines) goes out whole. */
static int report_error(const char *what, sn_status st, const sn_diag *d, const char *log)
{
    const char *nl = strchr(d->text, '\n');
    if (log && *log && nl) {
        fprintf(stderr, "sortnet: %s: %.*s\n%s\n", what, (int)(nl - d->text), d->text, log);
    } else {
        fprintf(stderr, "sortnet: %s: %s\n", what, d->text[0] ? d->text : sn_status_str(st));
    }
    return cli_status_exit(st);
}

static int gpu_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *spec = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': spec = optarg; break;
        case 'h': list_help(); return CLI_OK;
        case ':': return cli_error(CLI_USAGE, "gpu list", "%s needs an argument", argv[optind - 1]);
        default: return cli_error(CLI_USAGE, "gpu list", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return cli_error(CLI_USAGE, "gpu list", "unexpected argument '%s'", argv[optind]);
    uint32_t wp = 0, wd = 0;
    if (spec && !sn_gpu_device_parse(spec, &wp, &wd))
        return cli_error(CLI_USAGE, "--device", "'%s' is not a device: expected P:D, e.g. 0:0",
                         spec);
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu_device_info *devs = NULL;
    size_t count = 0;
    sn_status st = sn_gpu_devices(&devs, &count, &d);
    if (st != SN_OK)
        return report_error("gpu list", st, &d, NULL);
    /* The default pick, as sn_gpu_open makes it. */
    size_t pick = count;
    for (size_t i = 0; i < count && !spec; i++)
        if (strcmp(devs[i].type, "GPU") == 0) {
            pick = i;
            break;
        }
    for (size_t i = 0; i < count && !spec && pick == count; i++)
        if (strcmp(devs[i].type, "CPU") == 0)
            pick = i;
    if (!spec && pick == count && count)
        pick = 0;
    uint32_t last_platform = UINT32_MAX;
    bool found = !spec;
    for (size_t i = 0; i < count; i++) {
        const sn_gpu_device_info *x = &devs[i];
        bool mark = spec ? (x->platform == wp && x->device == wd) : i == pick;
        found = found || mark;
        if (x->platform != last_platform) {
            printf("platform %u: %s\n", x->platform, x->platform_name);
            last_platform = x->platform;
        }
        printf("%c device %u:%u: %s (%s, %s)\n", mark ? '*' : ' ', x->platform, x->device, x->name,
               x->type, x->version);
        printf("    compute units %u, global memory ", x->compute_units);
        print_mib(x->global_mem);
        printf(" (largest buffer ");
        print_mib(x->max_alloc);
        printf("), local memory ");
        print_mib(x->local_mem);
        printf(", max work-group size %zu\n", x->max_work_group);
    }
    if (!count)
        printf("no OpenCL devices (the platforms report none)\n");
    sn_free(devs);
    if (!found)
        return cli_error(CLI_USAGE, "--device", "no OpenCL device %s", spec);
    return CLI_OK;
}

static bool parse_fault(const char *s, size_t *layer, uint32_t *index)
{
    const char *colon = strchr(s, ':');
    if (!colon)
        return false;
    char buf[32];
    size_t len = (size_t)(colon - s);
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    uint64_t l, i;
    if (!cli_parse_u64(buf, 0, SIZE_MAX, &l) || !cli_parse_u64(colon + 1, 0, UINT32_MAX, &i))
        return false;
    *layer = (size_t)l;
    *index = (uint32_t)i;
    return true;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

/* A key as a JSON value: a number, or a string for NaN and infinities. */
static void json_key(sn_key_type t, uint32_t bits, bool payload)
{
    char buf[64];
    if (payload)
        snprintf(buf, sizeof buf, "%u", bits);
    else
        sn_key_format(t, bits, buf, sizeof buf);
    bool number = buf[0] && strpbrk(buf, "naifNAIF") == NULL;
    if (number)
        fputs(buf, stdout);
    else
        json_string(buf);
}

static const char *method_text(sn_gpu_method m)
{
    switch (m) {
    case SN_GPU_CHECK_STATES: return "every layer's full array, one wait for all layers";
    case SN_GPU_CHECK_DIGESTS:
        return "per-layer digests reduced on the device, then the final array";
    case SN_GPU_CHECK_LOCKSTEP: return "the full array read back after every layer";
    case SN_GPU_CHECK_FINAL:
        return "the final array only (a fused pass runs several layers in one launch, so no "
               "per-layer state exists to compare)";
    }
    return "";
}

/* --timeout SECONDS: a number in [0, KERNEL_TIMEOUT_MAX_S] (0: no limit). */
static bool parse_timeout(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < 0 || v > KERNEL_TIMEOUT_MAX_S)
        return false;
    *out = v;
    return true;
}

/* What a signal that ended the device process most often means. */
static const char *signal_hint(int sig)
{
    switch (sig) {
    case SIGSEGV: return "most often an out-of-bounds write";
    case SIGBUS: return "most often an out-of-bounds or misaligned access";
    case SIGFPE: return "most often an integer division by zero";
    case SIGILL: return "an illegal instruction";
    case SIGABRT: return "the OpenCL runtime aborted";
    case SIGKILL: return "killed from outside, or out of memory";
    default: return "see `kill -l`";
    }
}

/* The verdict for a device process that gave none (a crash, a time-out, a
 * failed device call: its details in d), as one line into buf. */
static void fault_text(const sn_gpu_outcome *o, const sn_diag *d, char *buf, size_t cap)
{
    char where[96];
    if (o->in_layer)
        snprintf(where, sizeof where, "during layer %zu", o->layer);
    else
        snprintf(where, sizeof where, "before layer 0 (opening the device, building your kernel)");
    if (o->fault == SN_GPU_FAULT_TIMEOUT && o->in_layer)
        snprintf(buf, cap, "your kernel did not finish layer %zu within %g s (an endless loop?)",
                 o->layer, o->limit_s);
    else if (o->fault == SN_GPU_FAULT_TIMEOUT)
        snprintf(buf, cap, "opening the device and building your kernel did not finish within %g s",
                 o->limit_s);
    else if (o->fault == SN_GPU_FAULT_ERROR)
        snprintf(buf, cap, "your kernel failed on the device during layer %zu%s: %s", o->layer,
                 /* how GPUs report an illegal address */
                 strstr(d->text, "CL_OUT_OF_RESOURCES") ||
                         strstr(d->text, "CL_INVALID_COMMAND_QUEUE")
                     ? " (most often an out-of-bounds access)"
                     : "",
                 d->text);
    else if (o->signal)
        snprintf(buf, cap, "your kernel crashed the device process (signal %d: %s) %s", o->signal,
                 signal_hint(o->signal), where);
    else
        snprintf(buf, cap,
                 "your kernel crashed the device process (it exited with status %d and no "
                 "verdict: a sanitizer or the OpenCL runtime stopped it) %s",
                 o->exit_status, where);
}

static int gpu_verify(int argc, char **argv)
{
    enum {
        O_DEVICE = 256,
        O_PAYLOAD,
        O_PER_LAYER,
        O_VARIANT,
        O_FAULT,
        O_KERNEL,
        O_TIMEOUT,
        O_JSON
    };
    static const struct option opts[] = {
        {"device", required_argument, NULL, O_DEVICE},
        {"payload", no_argument, NULL, O_PAYLOAD},
        {"per-layer", no_argument, NULL, O_PER_LAYER},
        {"variant", required_argument, NULL, O_VARIANT},
        {"inject-fault", required_argument, NULL, O_FAULT},
        {"kernel", required_argument, NULL, O_KERNEL},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"json", no_argument, NULL, O_JSON},
        CLI_INPUT_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *spec = NULL, *kernel_file = NULL, *timeout_arg = NULL;
    double timeout = KERNEL_TIMEOUT_DEFAULT_S;
    bool json = false, with_payload = false;
    sn_gpu_verify_opts vo;
    memset(&vo, 0, sizeof vo);
    cli_input in;
    cli_input_init(&in);
    int c, idx = 0;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
        switch (c) {
        case O_DEVICE: spec = optarg; break;
        case O_PAYLOAD: with_payload = true; break;
        case O_PER_LAYER: vo.per_layer = true; break;
        case O_VARIANT:
            if (!sn_gpu_variant_parse(optarg, &vo.variant))
                return cli_error(CLI_USAGE, "--variant",
                                 "'%s' is not a variant (auto, pairs, left, xor, div, shift, "
                                 "fused, fused-local, fused-serial)",
                                 optarg);
            break;
        case O_FAULT:
            if (!parse_fault(optarg, &vo.inject_layer, &vo.inject_index))
                return cli_error(CLI_USAGE, "--inject-fault", "'%s' is not LAYER:INDEX (e.g. 3:5)",
                                 optarg);
            vo.inject = true;
            break;
        case O_KERNEL: kernel_file = optarg; break;
        case O_TIMEOUT:
            if (!parse_timeout(optarg, &timeout))
                return cli_error(CLI_USAGE, "--timeout",
                                 "'%s' is not a number of seconds from 0 (no limit) to %.0f",
                                 optarg, KERNEL_TIMEOUT_MAX_S);
            timeout_arg = optarg;
            break;
        case O_JSON: json = true; break;
        case CLI_OPT_INPUT: {
            int r = cli_input_option(&in, opts[idx].name, optarg);
            if (r > 1)
                return r;
            break;
        }
        case 'h': verify_help(); return CLI_OK;
        case ':':
            return cli_error(CLI_USAGE, "gpu verify", "%s needs an argument", argv[optind - 1]);
        default: return cli_error(CLI_USAGE, "gpu verify", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_error(CLI_USAGE, "gpu verify", "no network given (e.g. bitonic:16)");
    if (optind + 1 < argc)
        return cli_error(CLI_USAGE, "gpu verify", "unexpected argument '%s'", argv[optind + 1]);
    if (spec) {
        uint32_t p, dv;
        if (!sn_gpu_device_parse(spec, &p, &dv))
            return cli_error(CLI_USAGE, "--device", "'%s' is not a device: expected P:D", spec);
    }
    if (timeout_arg && !kernel_file)
        return cli_error(CLI_USAGE, "--timeout",
                         "only with --kernel (sortnet's own kernels run without a time limit)");

    int rc = CLI_OK;
    sn_schedule *s = NULL;
    uint32_t *keys = NULL;
    char *source = NULL;
    sn_gpu *g = NULL;
    sn_gpu_outcome iso_out;
    memset(&iso_out, 0, sizeof iso_out);
    sn_diag d;
    sn_diag_clear(&d);
    if ((rc = cli_load(argv[optind], &s)) != 0)
        goto done;
    uint32_t n = sn_schedule_wires(s);
    if ((rc = cli_input_make(&in, n, &keys)) != 0)
        goto done;
    if (kernel_file) {
        size_t len = 0;
        sn_status st = sn_file_read_all(kernel_file, KERNEL_FILE_MAX, &source, &len, &d);
        if (st != SN_OK) {
            rc = report_error(kernel_file, st, &d, NULL);
            goto done;
        }
        vo.user_source = source;
    }
    sn_gpu_report rep;
    sn_status st;
    const char *device;
    if (kernel_file) {
        /* A student's kernel runs in a process of its own: this one must not
         * open OpenCL at all (a runtime does not survive fork). */
        sn_gpu_isolation iso = {spec, timeout, KERNEL_SETUP_LIMIT_S, kernel_file};
        st = sn_gpu_verify_isolated(&iso, s, in.type, keys, with_payload, &vo, &rep, &iso_out, &d);
        if (st != SN_OK) {
            rc = report_error(st == SN_EPARSE ? kernel_file : "gpu verify", st, &d,
                              iso_out.build_log);
            goto done;
        }
        device = iso_out.device[0] ? iso_out.device : "(unknown: the device process ended first)";
    } else {
        st = sn_gpu_open(spec, &g, &d);
        if (st != SN_OK) {
            rc = report_error("gpu verify", st, &d, NULL);
            goto done;
        }
        st = sn_gpu_verify(g, s, in.type, keys, with_payload, &vo, &rep, &d);
        if (st != SN_OK) {
            rc = report_error("gpu verify", st, &d, sn_gpu_build_log(g));
            goto done;
        }
        device = sn_gpu_device_name(g);
    }
    rc = rep.identical ? CLI_OK : CLI_NEGATIVE;
    bool fault = iso_out.fault != SN_GPU_FAULT_NONE;
    char fault_line[sizeof d.text + 256] = "";
    if (fault)
        fault_text(&iso_out, &d, fault_line, sizeof fault_line);
    char exp[64], act[64];
    if (!rep.identical && !fault) {
        if (rep.in_payload) {
            snprintf(exp, sizeof exp, "%u", rep.expected);
            snprintf(act, sizeof act, "%u", rep.actual);
        } else {
            sn_key_format(in.type, rep.expected, exp, sizeof exp);
            sn_key_format(in.type, rep.actual, act, sizeof act);
        }
    }
    if (json) {
        printf("{\"identical\":%s,\"device\":", rep.identical ? "true" : "false");
        json_string(device);
        printf(",\"layers\":%zu,\"first_mismatch\":", rep.layers);
        if (rep.identical || fault) {
            printf("null");
        } else {
            printf("{\"layer\":%zu,\"index\":%u,\"expected\":", rep.layer, rep.index);
            json_key(in.type, rep.expected, rep.in_payload);
            printf(",\"actual\":");
            json_key(in.type, rep.actual, rep.in_payload);
            if (rep.in_payload)
                printf(",\"payload\":true");
            printf("}");
        }
        printf(",\"fault\":");
        if (!fault) {
            printf("null");
        } else {
            printf("{\"kind\":\"%s\",\"layer\":", iso_out.fault == SN_GPU_FAULT_TIMEOUT ? "timeout"
                                                  : iso_out.fault == SN_GPU_FAULT_ERROR
                                                      ? "device error"
                                                      : "crash");
            if (iso_out.in_layer)
                printf("%zu", iso_out.layer);
            else
                printf("null");
            if (iso_out.fault == SN_GPU_FAULT_TIMEOUT)
                printf(",\"seconds\":%g", iso_out.limit_s);
            else if (iso_out.signal)
                printf(",\"signal\":%d", iso_out.signal);
            else if (iso_out.fault == SN_GPU_FAULT_CRASH)
                printf(",\"exit_status\":%d", iso_out.exit_status);
            printf(",\"message\":");
            json_string(fault_line);
            printf("}");
        }
        printf("}\n");
        goto done;
    }
    char desc[96];
    printf("%s: %u wires, %zu layers, %s keys, input %s%s\n", sn_schedule_name(s), n, rep.layers,
           sn_key_type_name(in.type), cli_input_describe(&in, desc, sizeof desc),
           with_payload ? ", with payload" : "");
    sn_gpu_variant v = vo.variant;
    if (!kernel_file && v == SN_GPU_VARIANT_AUTO) {
        sn_algo a = sn_schedule_algo(s);
        v = (sn_algo_is_closed_form(a) && !sn_schedule_network(s)) ? SN_GPU_VARIANT_SHIFT
                                                                   : SN_GPU_VARIANT_PAIRS;
    }
    printf("device: %s; kernel: %s\n", device, kernel_file ? kernel_file : sn_gpu_variant_name(v));
    printf("compared: %s\n", method_text(rep.method));
    if (g && sn_gpu_variant_is_fused(v)) {
        sn_gpu_fused_info fi;
        char how[96];
        if (sn_gpu_fused_describe(g, s, v, with_payload, in.type, &fi, &d) == SN_OK) {
            if (fi.serial)
                snprintf(how, sizeof how, "one work-item per tile");
            else if (fi.columns > 1)
                snprintf(how, sizeof how, "registers, %u columns through local memory",
                         (unsigned)fi.columns);
            else
                snprintf(how, sizeof how, "local memory + registers");
            printf("fused: %zu layers in %zu launches (global passes):", fi.layers, fi.passes);
            const char *sep = " ";
            if (fi.tile_passes || !fi.window_passes) {
                printf(" %zu tile passes (tiles of 2^%u, %s%s; %zu load and %zu store straight "
                       "from registers)",
                       fi.tile_passes, fi.tile_bits, how, fi.generated ? ", generated kernels" : "",
                       fi.direct_loads, fi.direct_stores);
                sep = " + ";
            }
            if (fi.window_passes) {
                printf("%s%zu window passes (windows of 2^%u keys, overlapping for the carry "
                       "layers of merges larger than a window)",
                       sep, fi.window_passes, (unsigned)fi.window_bits);
                sep = " + ";
            }
            printf("%s%zu layers that fit no tile\n", sep, fi.global_layers);
        }
    }
    if (vo.inject)
        printf("injected fault: element %u flipped after layer %zu\n", vo.inject_index,
               vo.inject_layer);
    if (fault) {
        printf("%s\n", fault_line);
        if (iso_out.fault == SN_GPU_FAULT_TIMEOUT && iso_out.in_layer)
            printf("the device process was stopped; --timeout SECONDS gives each layer more time "
                   "(0: no limit)\n");
    } else if (rep.identical)
        printf("identical\n");
    else
        printf("differs: first at layer %zu (counting from 0), %s %u: expected %s, actual %s\n",
               rep.layer, rep.in_payload ? "payload of wire" : "wire", rep.index, exp, act);
done:
    sn_gpu_close(g);
    sn_gpu_outcome_clear(&iso_out);
    sn_free(source);
    sn_free(keys);
    sn_schedule_destroy(s);
    return rc;
}

/* ---- bench */

static void bench_help(void)
{
    printf("usage: sortnet gpu bench [NET...] [--sizes LIST] [--device P:D] [--type T]\n"
           "                         [--reps N] [--cpu-max N] [--csv FILE] [--plot FILE.svg]\n\n"
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
           "  -h, --help      this text\n");
}

#define BENCH_MAX_SIZES 64
#define BENCH_MAX_NETS 8

typedef struct bench_row {
    const char *network;
    const char *variant;
    uint32_t n;
    double ms;      /* median: kernel time (device) or wall time (CPU) */
    double host_ms; /* device: median host-to-host; CPU: = ms */
    size_t launches;
} bench_row;

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

#ifdef SN_HAVE_CAIRO
static cairo_status_t plot_write(void *closure, const unsigned char *data, unsigned int len)
{
    return fwrite(data, 1, len, (FILE *)closure) == len ? CAIRO_STATUS_SUCCESS
                                                        : CAIRO_STATUS_WRITE_ERROR;
}

/* Row i's variant (or network) among the distinct ones, in order of first
 * appearance. */
static size_t name_rank(const bench_row *rows, size_t i, bool variant)
{
#define NAME(k) (variant ? rows[k].variant : rows[k].network)
    size_t f = 0, rank = 0;
    while (strcmp(NAME(f), NAME(i)) != 0)
        f++;
    for (size_t k = 0; k < f; k++) {
        size_t j = 0;
        while (strcmp(NAME(j), NAME(k)) != 0)
            j++;
        rank += j == k;
    }
    return rank;
#undef NAME
}

/* keys per second against n, log-log, one line per network and variant */
static void plot_rows(FILE *f, const bench_row *rows, size_t nrows, const char *device)
{
    const double W = 900, H = 600, L = 90, R = 230, T = 50, B = 60;
    cairo_surface_t *surf = cairo_svg_surface_create_for_stream(plot_write, f, W, H);
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    for (size_t i = 0; i < nrows; i++) {
        double x = rows[i].n, y = rows[i].ms > 0 ? rows[i].n / (rows[i].ms / 1e3) : 0;
        if (y <= 0)
            continue;
        xmin = fmin(xmin, x), xmax = fmax(xmax, x), ymin = fmin(ymin, y), ymax = fmax(ymax, y);
    }
    if (xmax <= 0) {
        xmin = 1, xmax = 10, ymin = 1, ymax = 10;
    }
    double lx0 = floor(log10(xmin)), lx1 = ceil(log10(xmax));
    double ly0 = floor(log10(ymin)), ly1 = ceil(log10(ymax));
    if (lx1 <= lx0)
        lx1 = lx0 + 1;
    if (ly1 <= ly0)
        ly1 = ly0 + 1;
#define PX(x) (L + (log10(x) - lx0) / (lx1 - lx0) * (W - L - R))
#define PY(y) (H - B - (log10(y) - ly0) / (ly1 - ly0) * (H - T - B))
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    cairo_set_line_width(cr, 1);
    char lab[160];
    for (double e = lx0; e <= lx1; e++) {
        double x = PX(pow(10, e));
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, x, T);
        cairo_line_to(cr, x, H - B);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(lab, sizeof lab, "1e%.0f", e);
        cairo_move_to(cr, x - 12, H - B + 18);
        cairo_show_text(cr, lab);
    }
    for (double e = ly0; e <= ly1; e++) {
        double y = PY(pow(10, e));
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, L, y);
        cairo_line_to(cr, W - R, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(lab, sizeof lab, "1e%.0f", e);
        cairo_move_to(cr, L - 40, y + 4);
        cairo_show_text(cr, lab);
    }
    cairo_move_to(cr, L, T - 20);
    snprintf(lab, sizeof lab, "keys per second (%.100s)", device);
    cairo_show_text(cr, lab);
    cairo_move_to(cr, (W - R) / 2, H - 15);
    cairo_show_text(cr, "keys (n)");
    static const double pal[][3] = {{0.12, 0.47, 0.71}, {1.0, 0.5, 0.05},  {0.17, 0.63, 0.17},
                                    {0.84, 0.15, 0.16}, {0.58, 0.4, 0.74}, {0.55, 0.34, 0.29},
                                    {0.89, 0.47, 0.76}, {0.5, 0.5, 0.5}};
    /* a colour per variant and a dash per network, each in order of first
     * appearance, and a dot per point (a series of one point shows too) */
    static const double dashes[][2] = {{0, 0}, {6, 3}, {2, 3}, {9, 3}};
    size_t series = 0;
    for (size_t i = 0; i < nrows; i++) {
        bool first = true;
        for (size_t j = 0; j < i; j++)
            if (strcmp(rows[j].network, rows[i].network) == 0 &&
                strcmp(rows[j].variant, rows[i].variant) == 0)
                first = false;
        if (!first)
            continue;
        size_t vi = name_rank(rows, i, true), ni = name_rank(rows, i, false);
        const double *c = pal[vi % 8];
        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        cairo_set_line_width(cr, 2);
        cairo_set_dash(cr, dashes[ni % 4], ni % 4 ? 2 : 0, 0);
        bool moved = false;
        for (size_t j = i; j < nrows; j++) {
            if (strcmp(rows[j].network, rows[i].network) != 0 ||
                strcmp(rows[j].variant, rows[i].variant) != 0 || rows[j].ms <= 0)
                continue;
            double x = PX((double)rows[j].n), y = PY(rows[j].n / (rows[j].ms / 1e3));
            if (!moved)
                cairo_move_to(cr, x, y);
            else
                cairo_line_to(cr, x, y);
            moved = true;
        }
        cairo_stroke(cr);
        for (size_t j = i; j < nrows; j++) {
            if (strcmp(rows[j].network, rows[i].network) != 0 ||
                strcmp(rows[j].variant, rows[i].variant) != 0 || rows[j].ms <= 0)
                continue;
            cairo_new_sub_path(cr);
            cairo_arc(cr, PX((double)rows[j].n), PY(rows[j].n / (rows[j].ms / 1e3)), 2.5, 0,
                      6.283185307179586);
            cairo_fill(cr);
        }
        double ly = T + 16 * (double)series;
        cairo_move_to(cr, W - R + 10, ly);
        cairo_line_to(cr, W - R + 40, ly);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(lab, sizeof lab, "%s %s", rows[i].network, rows[i].variant);
        cairo_move_to(cr, W - R + 46, ly + 4);
        cairo_show_text(cr, lab);
        series++;
    }
#undef PX
#undef PY
    cairo_destroy(cr);
    cairo_surface_finish(surf);
    cairo_surface_destroy(surf);
}
#endif

static int gpu_bench(int argc, char **argv)
{
    enum { O_SIZES = 256, O_DEVICE, O_TYPE, O_REPS, O_CPU_MAX, O_CSV, O_PLOT, O_VARIANTS };
    static const struct option opts[] = {
        {"sizes", required_argument, NULL, O_SIZES},
        {"device", required_argument, NULL, O_DEVICE},
        {"type", required_argument, NULL, O_TYPE},
        {"reps", required_argument, NULL, O_REPS},
        {"cpu-max", required_argument, NULL, O_CPU_MAX},
        {"csv", required_argument, NULL, O_CSV},
        {"plot", required_argument, NULL, O_PLOT},
        {"variants", required_argument, NULL, O_VARIANTS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *vlist = NULL; /* --variants */
    uint32_t sizes[BENCH_MAX_SIZES];
    size_t nsizes = 0;
    parse_sizes("2^10..2^24", sizes, &nsizes);
    const char *spec = NULL, *csv = NULL, *plot = NULL;
    sn_key_type type = SN_KEY_I32;
    uint64_t reps = 5, cpu_max = (uint64_t)1 << 24;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case O_SIZES:
            if (!parse_sizes(optarg, sizes, &nsizes))
                return cli_error(CLI_USAGE, "--sizes",
                                 "'%s' is not a list of sizes (e.g. 2^10..2^24 or 1000,2^20; "
                                 "each 1..2^31)",
                                 optarg);
            break;
        case O_DEVICE: spec = optarg; break;
        case O_TYPE:
            if (!sn_key_type_parse(optarg, &type))
                return cli_error(CLI_USAGE, "--type", "'%s' is not i32, u32 or f32", optarg);
            break;
        case O_REPS:
            if (!cli_parse_u64(optarg, 1, 1000, &reps))
                return cli_error(CLI_USAGE, "--reps", "'%s' is not a number in 1..1000", optarg);
            break;
        case O_CPU_MAX: {
            uint64_t v;
            if (!parse_size(optarg, &v))
                return cli_error(CLI_USAGE, "--cpu-max", "'%s' is not a size", optarg);
            cpu_max = v;
            break;
        }
        case O_CSV: csv = optarg; break;
        case O_PLOT: plot = optarg; break;
        case O_VARIANTS: vlist = optarg; break;
        case 'h': bench_help(); return CLI_OK;
        case ':':
            return cli_error(CLI_USAGE, "gpu bench", "%s needs an argument", argv[optind - 1]);
        default: return cli_error(CLI_USAGE, "gpu bench", "unknown option '%s'", argv[optind - 1]);
        }
    }
    sn_algo nets[BENCH_MAX_NETS];
    size_t nnets = 0;
    for (int i = optind; i < argc; i++) {
        if (nnets == BENCH_MAX_NETS)
            return cli_error(CLI_USAGE, "gpu bench", "at most %d networks", BENCH_MAX_NETS);
        if (!sn_algo_parse(argv[i], &nets[nnets]) || !sn_algo_is_closed_form(nets[nnets]))
            return cli_error(CLI_USAGE, "gpu bench",
                             "'%s' is not a closed-form generator (bitonic, oddeven-merge, "
                             "transposition)",
                             argv[i]);
        nnets++;
    }
    if (nnets == 0) {
        nets[nnets++] = SN_ALGO_BITONIC;
        nets[nnets++] = SN_ALGO_ODDEVEN_MERGE;
    }
    char vbuf[256] = "naive,closed,fused", *sortv[16];
    size_t nsortv = 0;
    bool netv[3] = {!vlist, !vlist, !vlist};
    if (vlist && snprintf(vbuf, sizeof vbuf, "%s", vlist) >= (int)sizeof vbuf)
        return cli_error(CLI_USAGE, "--variants", "too long");
    for (char *tok = vlist ? strtok(vbuf, ",") : NULL; tok; tok = strtok(NULL, ",")) {
        int k = strcmp(tok, "naive") == 0    ? 0
                : strcmp(tok, "closed") == 0 ? 1
                : strcmp(tok, "fused") == 0  ? 2
                                             : -1;
        if (k >= 0)
            netv[k] = true;
        else if (gpu_sort_is_variant(tok) && nsortv < 16)
            sortv[nsortv++] = tok;
        else
            return cli_error(CLI_USAGE, "--variants",
                             "'%s' is not a variant (naive, closed, "
                             "fused, or a sort of `sortnet gpu sort`, radix4)",
                             tok);
    }
#ifndef SN_HAVE_CAIRO
    if (plot)
        return cli_error(CLI_NOENV, "--plot", "built without cairo: no plots (use --csv)");
#endif
    if (spec) {
        uint32_t p, dv;
        if (!sn_gpu_device_parse(spec, &p, &dv))
            return cli_error(CLI_USAGE, "--device", "'%s' is not a device: expected P:D", spec);
    }
    uint32_t nmax = 0;
    for (size_t i = 0; i < nsizes; i++)
        if (sizes[i] > nmax)
            nmax = sizes[i];
    if (cli_memory_check("gpu bench", (uint64_t)nmax * 4 * 4))
        return CLI_USAGE;

    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu *g = NULL;
    sn_status st = sn_gpu_open(spec, &g, &d);
    if (st != SN_OK)
        return report_error("gpu bench", st, &d, NULL);
    size_t maxrows = nnets * nsizes * 5 + nsortv * nsizes;
    bench_row *rows = sn_calloc(maxrows, sizeof *rows);
    uint32_t *input = sn_malloc((size_t)nmax * 4 + 4);
    uint32_t *work = sn_malloc((size_t)nmax * 4 + 4);
    uint32_t *sorted = sn_malloc((size_t)nmax * 4 + 4);
    sn_gpu_timing *tm = sn_calloc(reps + 1, sizeof *tm);
    double *a = sn_calloc(reps + 1, sizeof *a), *b = sn_calloc(reps + 1, sizeof *b);
    int rc = CLI_OK;
    size_t nrows = 0;
    if (!rows || !input || !work || !sorted || !tm || !a || !b) {
        rc = cli_error(CLI_USAGE, "gpu bench", "out of memory for %u keys", nmax);
        goto done;
    }
    const char *dev = sn_gpu_device_name(g);
    printf("device: %s; %s keys, uniformly random; median of %u runs after a warm-up\n", dev,
           sn_key_type_name(type), (unsigned)reps);
    printf("CPU baselines up to %u keys%s\n",
           (unsigned)(cpu_max > UINT32_MAX ? UINT32_MAX : cpu_max),
           cpu_max < nmax ? " (larger sizes: --cpu-max; they take long)" : "");
    printf("%-14s %10s %-10s %8s %12s %12s %14s %9s\n", "network", "n", "variant", "launches",
           "kernel_ms", "host_ms", "keys_per_s", "vs_naive");
    static const struct {
        const char *name;
        sn_gpu_variant v;
    } variants[] = {{"naive", SN_GPU_VARIANT_LEFT},
                    {"closed", SN_GPU_VARIANT_SHIFT},
                    {"fused", SN_GPU_VARIANT_FUSED}};
    uint64_t seed = 0x5eedu;
    for (size_t ni = 0; ni < nnets; ni++) {
        for (size_t si = 0; si < nsizes; si++) {
            uint32_t n = sizes[si];
            sn_schedule *s = NULL;
            if ((st = sn_schedule_generate(nets[ni], n, &s, &d)) != SN_OK) {
                rc = report_error("gpu bench", st, &d, NULL);
                goto done;
            }
            const char *net = sn_algo_name(nets[ni]);
            for (uint32_t i = 0; i < n; i++)
                input[i] = (uint32_t)sn_rand_next(&seed);
            bool cpu = n <= cpu_max;
            if (cpu) {
                memcpy(sorted, input, (size_t)n * 4);
                qsort_type = type;
                qsort(sorted, n, 4, cmp_key);
            }
            double naive_ms = 0, copy_ms = 0;
            if (sn_gpu_copy_time(g, n, reps, &copy_ms, &d) != SN_OK) {
                copy_ms = 0; /* only a yardstick: the rows go on without it */
                sn_diag_clear(&d);
            }
            for (size_t vi = 0; vi < sizeof variants / sizeof variants[0]; vi++) {
                if (!netv[vi] ||
                    (variants[vi].v == SN_GPU_VARIANT_FUSED && nets[ni] == SN_ALGO_TRANSPOSITION))
                    continue;
                fprintf(stderr, "bench: %s %u %s ...\n", net, n, variants[vi].name);
                memcpy(work, input, (size_t)n * 4);
                st = sn_gpu_time(g, s, variants[vi].v, type, work, reps + 1, tm, &d);
                if (st == SN_ELIMIT) {
                    printf("%-14s %10u %-10s skipped: %s\n", net, n, variants[vi].name, d.text);
                    sn_diag_clear(&d);
                    continue;
                }
                if (st != SN_OK) {
                    sn_schedule_destroy(s);
                    rc = report_error("gpu bench", st, &d, NULL);
                    goto done;
                }
                bool ok =
                    cpu ? memcmp(work, sorted, (size_t)n * 4) == 0 : is_sorted_keys(type, work, n);
                if (!ok) {
                    sn_schedule_destroy(s);
                    rc = cli_error(CLI_NEGATIVE, "gpu bench", "%s %u %s: the output is wrong", net,
                                   n, variants[vi].name);
                    goto done;
                }
                for (size_t r = 0; r < reps; r++) {
                    a[r] = tm[r + 1].kernel_ms;
                    b[r] = tm[r + 1].host_ms;
                }
                size_t launches = sn_schedule_layer_count(s);
                if (variants[vi].v == SN_GPU_VARIANT_FUSED) {
                    sn_gpu_fused_info fi;
                    if (sn_gpu_fused_describe(g, s, SN_GPU_VARIANT_FUSED, false, type, &fi, &d) ==
                        SN_OK)
                        launches = fi.passes;
                }
                bench_row *row = &rows[nrows++];
                *row = (bench_row){net,     variants[vi].name, n, median(a, reps), median(b, reps),
                                   launches};
                if (vi == 0)
                    naive_ms = row->ms;
                printf("%-14s %10u %-10s %8zu %12.4f %12.4f %14.4g %8.2fx", net, n, row->variant,
                       launches, row->ms, row->host_ms, n / (row->ms / 1e3),
                       naive_ms > 0 && row->ms > 0 ? naive_ms / row->ms : 0.0);
                /* the fused row in units of the device's own copy of n
                 * keys, next to its pass count: how far each pass is from
                 * the memory floor */
                if (variants[vi].v == SN_GPU_VARIANT_FUSED && copy_ms > 0)
                    printf("  (%.1f copies of %.4f ms)", row->ms / copy_ms, copy_ms);
                printf("\n");
                fflush(stdout);
            }
            if (cpu) {
                for (int which = 0; which < 2; which++) {
                    fprintf(stderr, "bench: %s %u %s ...\n", net, n, which ? "qsort" : "reference");
                    size_t cr = reps < 3 ? reps : 3; /* CPU runs are long */
                    for (size_t r = 0; r < cr; r++) {
                        memcpy(work, input, (size_t)n * 4);
                        double t0 = wall_ms();
                        if (which)
                            qsort(work, n, 4, cmp_key);
                        else
                            sn_exec_run(s, type, work, NULL);
                        a[r] = wall_ms() - t0;
                    }
                    if (memcmp(work, sorted, (size_t)n * 4) != 0) {
                        sn_schedule_destroy(s);
                        rc = cli_error(CLI_NEGATIVE, "gpu bench", "%s %u: the CPU output is wrong",
                                       net, n);
                        goto done;
                    }
                    bench_row *row = &rows[nrows++];
                    double m = median(a, cr);
                    *row = (bench_row){net, which ? "qsort" : "reference", n, m, m, 0};
                    printf("%-14s %10u %-10s %8s %12s %12.4f %14.4g %8.2fx\n", net, n, row->variant,
                           "-", "-", m, n / (m / 1e3), naive_ms > 0 && m > 0 ? naive_ms / m : 0.0);
                    fflush(stdout);
                }
            }
            sn_schedule_destroy(s);
        }
    }
    void *sort_cache = NULL;
    for (size_t vi = 0; vi < nsortv && rc == CLI_OK; vi++) {
        for (size_t si = 0; si < nsizes; si++) {
            uint32_t n = sizes[si];
            for (uint32_t i = 0; i < n; i++)
                input[i] = (uint32_t)sn_rand_next(&seed);
            if (n <= cpu_max) {
                memcpy(sorted, input, (size_t)n * 4);
                qsort_type = type;
                qsort(sorted, n, 4, cmp_key);
            }
            fprintf(stderr, "bench: sort %u %s ...\n", n, sortv[vi]);
            gpu_sort_point pt;
            rc = gpu_sort_bench_point(g, &sort_cache, sortv[vi], type, input,
                                      n <= cpu_max ? sorted : NULL, n, reps, &pt);
            if (rc != CLI_OK)
                break;
            if (pt.skipped) {
                printf("%-14s %10u %-10s skipped: %s\n", "sort", n, sortv[vi], pt.why);
                continue;
            }
            bench_row *row = &rows[nrows++];
            *row = (bench_row){"sort", sortv[vi], n, pt.kernel_ms, pt.host_ms, pt.launches};
            printf("%-14s %10u %-10s %8zu %12.4f %12.4f %14.4g %9s\n", "sort", n, row->variant,
                   row->launches, row->ms, row->host_ms, n / (row->ms / 1e3), "-");
            fflush(stdout);
        }
    }
    gpu_sort_bench_done(sort_cache);
    if (rc != CLI_OK)
        goto done;
    if (csv) {
        cli_out o;
        if ((rc = cli_out_open(&o, csv)) != 0)
            goto done;
        fprintf(o.f, "device,network,variant,n,median_ms,keys_per_s\n");
        for (size_t i = 0; i < nrows; i++) {
            char devq[320];
            size_t k = 0;
            for (const char *q = dev; *q && k + 1 < sizeof devq; q++)
                devq[k++] = *q == ',' ? ';' : *q; /* keep the columns */
            devq[k] = '\0';
            fprintf(o.f, "%s,%s,%s,%u,%.6f,%.6g\n", devq, rows[i].network, rows[i].variant,
                    rows[i].n, rows[i].ms, rows[i].ms > 0 ? rows[i].n / (rows[i].ms / 1e3) : 0.0);
        }
        if ((rc = cli_out_commit(&o)) != 0)
            goto done;
    }
#ifdef SN_HAVE_CAIRO
    if (plot) {
        cli_out o;
        if ((rc = cli_out_open(&o, plot)) != 0)
            goto done;
        plot_rows(o.f, rows, nrows, dev);
        if ((rc = cli_out_commit(&o)) != 0)
            goto done;
    }
#endif
done:
    sn_free(rows);
    sn_free(input);
    sn_free(work);
    sn_free(sorted);
    sn_free(tm);
    sn_free(a);
    sn_free(b);
    sn_gpu_close(g);
    return rc;
}

/* ---- plot: bench CSV files to an SVG (GPU machines often lack cairo) */

static void plot_help(void)
{
    printf("usage: sortnet gpu plot FILE.csv... -o FILE.svg\n\n"
           "Draw keys per second against size (log-log, one line per network and\n"
           "variant, as `gpu bench --plot` does) from CSV files written by\n"
           "`sortnet gpu bench --csv`: for results measured on a machine built without\n"
           "cairo, such as a GPU box. Rows with the same columns from elsewhere (e.g.\n"
           "bench/gpu_anchors.py --csv: torch.sort, cupy.sort) are drawn too.\n\n"
           "Columns: device,network,variant,n,median_ms,keys_per_s; a header line and\n"
           "empty lines are skipped. The title names the first row's device.\n\n"
           "Options:\n"
           "  -o, --output FILE.svg  the picture (written to a temporary name, renamed)\n"
           "  -h, --help             this text\n");
}

#ifdef SN_HAVE_CAIRO
#define PLOT_FILE_MAX ((size_t)64 << 20)

/* Split one CSV line (NUL-terminated, modified in place) into 6 fields
 * and check them; on error prints FILE:LINE:COL and returns 2. */
static int plot_row(const char *path, size_t line, char *text, bench_row *row, char **device)
{
    char *f[6];
    size_t col[6], nf = 0;
    for (char *p = text;;) {
        if (nf == 6) {
            char where[600];
            snprintf(where, sizeof where, "%.500s:%zu:%zu", path, line, (size_t)(p - text));
            return cli_error(CLI_USAGE, where, "more than 6 comma-separated fields");
        }
        f[nf] = p;
        col[nf++] = (size_t)(p - text) + 1;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    char where[600];
    if (nf != 6) {
        snprintf(where, sizeof where, "%.500s:%zu:%zu", path, line,
                 strlen(f[nf - 1]) + col[nf - 1]);
        return cli_error(CLI_USAGE, where,
                         "expected 6 comma-separated fields "
                         "(device,network,variant,n,median_ms,keys_per_s), found %zu",
                         nf);
    }
    for (int i = 0; i < 3; i++)
        if (!f[i][0]) {
            snprintf(where, sizeof where, "%.500s:%zu:%zu", path, line, col[i]);
            return cli_error(CLI_USAGE, where, "empty %s",
                             i == 0   ? "device"
                             : i == 1 ? "network"
                                      : "variant");
        }
    uint64_t n;
    if (!cli_parse_u64(f[3], 1, UINT32_MAX, &n)) {
        snprintf(where, sizeof where, "%.500s:%zu:%zu", path, line, col[3]);
        return cli_error(CLI_USAGE, where, "n must be a whole number from 1 to 2^32-1, not '%.40s'",
                         f[3]);
    }
    double v[2];
    for (int i = 0; i < 2; i++) {
        char *end;
        v[i] = strtod(f[4 + i], &end);
        if (end == f[4 + i] || *end || !(v[i] >= 0) || v[i] > 1e300) {
            snprintf(where, sizeof where, "%.500s:%zu:%zu", path, line, col[4 + i]);
            return cli_error(CLI_USAGE, where, "%s must be a number >= 0, not '%.40s'",
                             i ? "keys_per_s" : "median_ms", f[4 + i]);
        }
    }
    *row = (bench_row){f[1], f[2], (uint32_t)n, v[0], v[0], 0};
    if (!*device)
        *device = f[0];
    return 0;
}
#endif

static int gpu_plot(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    int c;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'h': plot_help(); return CLI_OK;
        case ':': return cli_error(CLI_USAGE, "gpu plot", "%s needs an argument", argv[optind - 1]);
        default: return cli_error(CLI_USAGE, "gpu plot", "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return cli_error(CLI_USAGE, "gpu plot", "no CSV file given (see --help)");
    if (!out)
        return cli_error(CLI_USAGE, "gpu plot", "no output given: -o FILE.svg");
#ifndef SN_HAVE_CAIRO
    return cli_error(CLI_NOENV, "gpu plot", "built without cairo: no plots");
#else
    int nfiles = argc - optind, rc = 0;
    char **bufs = sn_calloc((size_t)nfiles, sizeof *bufs);
    bench_row *rows = NULL;
    size_t nrows = 0, cap = 0;
    char *device = NULL;
    if (!bufs)
        return cli_error(CLI_USAGE, "gpu plot", "out of memory");
    for (int fi = 0; fi < nfiles && rc == 0; fi++) {
        const char *path = argv[optind + fi];
        size_t len = 0;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_file_read_all(path, PLOT_FILE_MAX, &bufs[fi], &len, &d);
        if (st != SN_OK) { /* d names the file */
            fprintf(stderr, "sortnet: %s\n", d.text[0] ? d.text : sn_status_str(st));
            rc = cli_status_exit(st);
            break;
        }
        char *p = bufs[fi];
        for (size_t line = 1; p && *p && rc == 0; line++) {
            char *nl = strchr(p, '\n'), *next = nl ? nl + 1 : NULL;
            if (nl)
                *nl = '\0';
            if (nl && nl > p && nl[-1] == '\r')
                nl[-1] = '\0';
            if (*p && strncmp(p, "device,network,", 15) != 0) {
                if (nrows == cap) {
                    size_t nc = cap ? 2 * cap : 64;
                    bench_row *nr = sn_realloc(rows, nc * sizeof *nr);
                    if (!nr) {
                        rc = cli_error(CLI_USAGE, path, "out of memory");
                        break;
                    }
                    rows = nr;
                    cap = nc;
                }
                rc = plot_row(path, line, p, &rows[nrows], &device);
                nrows += rc == 0;
            }
            p = next;
        }
    }
    if (rc == 0 && nrows == 0)
        rc = cli_error(CLI_USAGE, argv[optind], "no rows to plot");
    if (rc == 0) {
        cli_out o;
        if ((rc = cli_out_open(&o, out)) == 0) {
            plot_rows(o.f, rows, nrows, device);
            rc = cli_out_commit(&o);
        }
    }
    for (int fi = 0; fi < nfiles; fi++)
        sn_free(bufs[fi]);
    sn_free(bufs);
    sn_free(rows);
    return rc;
#endif
}

int cmd_gpu(int argc, char **argv)
{
    if (argc < 2) {
        gpu_help();
        return cli_error(CLI_USAGE, "gpu", "which command? list, verify or bench");
    }
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
        gpu_help();
        return CLI_OK;
    }
    if (strcmp(sub, "list") == 0)
        return gpu_list(argc - 1, argv + 1);
    if (strcmp(sub, "verify") == 0)
        return gpu_verify(argc - 1, argv + 1);
    if (strcmp(sub, "bench") == 0)
        return gpu_bench(argc - 1, argv + 1);
    if (strcmp(sub, "plot") == 0)
        return gpu_plot(argc - 1, argv + 1);
    if (strcmp(sub, "sort") == 0)
        return cmd_gpu_sort(argc - 1, argv + 1);
    return cli_error(CLI_USAGE, "gpu", "unknown command '%s' (list, verify, bench, plot or sort)",
                     sub);
}
