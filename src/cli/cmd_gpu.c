/* cmd_gpu.c - `sortnet gpu list|verify|bench`: the OpenCL executor from the
 * command line. verify runs the schedule on a device and proves the result
 * bit-identical to the CPU reference, or names the first layer and index
 * where they part (exit 1). No OpenCL platform: exit 3. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/format.h" // for: sn_file_read_all (--kernel FILE.cl)
#include "gpu/gpu.h"

/* Largest kernel file accepted by --kernel. */
#define KERNEL_FILE_MAX ((size_t)1 << 20)

static void gpu_help(void)
{
    printf("usage: sortnet gpu list [--device P:D]\n"
           "       sortnet gpu verify NET [options]\n"
           "       sortnet gpu bench ...   (not yet implemented: issue 7)\n\n"
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
           "                          [--kernel FILE.cl] [--json]\n\n"
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
           "                      with shifts and masks)\n"
           "  --inject-fault L:I  flip a bit of element I after layer L on the device:\n"
           "                      the report must name layer L\n"
           "  --kernel FILE.cl    run your own layer kernel instead of ours, checked\n"
           "                      layer by layer (see docs/student-kernel.md)\n"
           "  --json              {\"identical\",\"device\",\"layers\",\"first_mismatch\"}\n"
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
    }
    return "";
}

static int gpu_verify(int argc, char **argv)
{
    enum { O_DEVICE = 256, O_PAYLOAD, O_PER_LAYER, O_VARIANT, O_FAULT, O_KERNEL, O_JSON };
    static const struct option opts[] = {
        {"device", required_argument, NULL, O_DEVICE},
        {"payload", no_argument, NULL, O_PAYLOAD},
        {"per-layer", no_argument, NULL, O_PER_LAYER},
        {"variant", required_argument, NULL, O_VARIANT},
        {"inject-fault", required_argument, NULL, O_FAULT},
        {"kernel", required_argument, NULL, O_KERNEL},
        {"json", no_argument, NULL, O_JSON},
        {"input", required_argument, NULL, 'i'},
        {"random", required_argument, NULL, 'i'},
        {"bits", required_argument, NULL, 'i'},
        {"type", required_argument, NULL, 'i'},
        {"reverse", no_argument, NULL, 'i'},
        {"sorted", no_argument, NULL, 'i'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *spec = NULL, *kernel_file = NULL;
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
                                 "'%s' is not a variant (auto, pairs, left, xor, div, shift)",
                                 optarg);
            break;
        case O_FAULT:
            if (!parse_fault(optarg, &vo.inject_layer, &vo.inject_index))
                return cli_error(CLI_USAGE, "--inject-fault", "'%s' is not LAYER:INDEX (e.g. 3:5)",
                                 optarg);
            vo.inject = true;
            break;
        case O_KERNEL: kernel_file = optarg; break;
        case O_JSON: json = true; break;
        case 'i': {
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

    int rc = CLI_OK;
    sn_schedule *s = NULL;
    uint32_t *keys = NULL;
    char *source = NULL;
    sn_gpu *g = NULL;
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
    sn_status st = sn_gpu_open(spec, &g, &d);
    if (st != SN_OK) {
        rc = report_error("gpu verify", st, &d, NULL);
        goto done;
    }
    sn_gpu_report rep;
    st = sn_gpu_verify(g, s, in.type, keys, with_payload, &vo, &rep, &d);
    if (st != SN_OK) {
        rc = report_error(st == SN_EPARSE && kernel_file ? kernel_file : "gpu verify", st, &d,
                          sn_gpu_build_log(g));
        goto done;
    }
    rc = rep.identical ? CLI_OK : CLI_NEGATIVE;
    char exp[64], act[64];
    if (!rep.identical) {
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
        json_string(sn_gpu_device_name(g));
        printf(",\"layers\":%zu,\"first_mismatch\":", rep.layers);
        if (rep.identical) {
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
    printf("device: %s; kernel: %s\n", sn_gpu_device_name(g),
           kernel_file ? kernel_file : sn_gpu_variant_name(v));
    printf("compared: %s\n", method_text(rep.method));
    if (vo.inject)
        printf("injected fault: element %u flipped after layer %zu\n", vo.inject_index,
               vo.inject_layer);
    if (rep.identical)
        printf("identical\n");
    else
        printf("differs: first at layer %zu (counting from 0), %s %u: expected %s, actual %s\n",
               rep.layer, rep.in_payload ? "payload of wire" : "wire", rep.index, exp, act);
done:
    sn_gpu_close(g);
    sn_free(source);
    sn_free(keys);
    sn_schedule_destroy(s);
    return rc;
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
    if (strcmp(sub, "bench") == 0) {
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
                printf("usage: sortnet gpu bench ...\n\nNot yet implemented: the benchmark "
                       "is issue 7.\n");
                return CLI_OK;
            }
        return cli_error(CLI_USAGE, "gpu bench", "not yet implemented (issue 7)");
    }
    return cli_error(CLI_USAGE, "gpu", "unknown command '%s' (list, verify or bench)", sub);
}
