/* cmd_gpu_verify.c - `sortnet gpu verify NET`: run NET on an OpenCL device
 * and prove the result bit-identical to the CPU reference executor, or
 * name the first layer and index where they part (exit 1). A user's own
 * kernel (--kernel) runs in a process of its own. */
#include <math.h> // for: isfinite (--timeout)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_time.h"
#include "cmd_gpu.h"
#include "core/alloc.h"
#include "core/format.h" // for: sn_file_read_all (--kernel FILE.cl)
#include "gpu/gpu.h"

/* Largest kernel file accepted by --kernel. */
#define KERNEL_FILE_MAX ((size_t)1 << 20)
/* --kernel: each layer's time limit unless --timeout says otherwise, the
 * largest one accepted, and the limit on opening the device and building
 * the kernel (a compiler can hang too; a cold pocl cache takes seconds). */
#define KERNEL_TIMEOUT_DEFAULT_S 10.0
#define KERNEL_TIMEOUT_MAX_S 86400.0
#define KERNEL_SETUP_LIMIT_S 120.0

static void verify_help(void)
{
    printf("usage: sortnet gpu verify NET [--device P:D] [INPUT] [--payload] [--per-layer]\n"
           "                          [--variant V] [--inject-fault LAYER:INDEX]\n"
           "                          [--kernel FILE.cl [--timeout SECONDS]] [--json]\n"
           "                          [--save-source FILE.cl]\n\n"
           "Run NET on an OpenCL device and compare with the CPU reference executor,\n"
           "bit for bit: every layer's full array when (layers + 1) * n <= 2^24 (the\n"
           "device snapshots each layer, one wait at the end), otherwise a 64-bit\n"
           "digest of every layer's array, reduced on the device, and always the final\n"
           "array. Prints \"identical\" (exit 0) or the first layer after which they\n"
           "differ (layers count from 1: \"after layer 1\" is after the first), the\n"
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
           "  --inject-fault L:I  flip a bit of element I after layer L (1 to the layer\n"
           "                      count) on the device: the report must name layer L\n"
           "  --kernel FILE.cl    run your own layer kernel instead of ours, checked\n"
           "                      layer by layer (see docs/student-kernel.md), in a\n"
           "                      process of its own: a crash is reported with its\n"
           "                      layer (exit 1), a build error with the build log\n"
           "                      naming FILE.cl (exit 2)\n"
           "  --timeout SECONDS   with --kernel: a layer that takes longer is stopped\n"
           "                      and reported (exit 1); default 10, 0 = no limit\n"
           "  --save-source FILE  with a fused variant on a device that generates its\n"
           "                      kernels (GPUs): write their OpenCL C source to FILE\n"
           "  --json              {\"identical\",\"device\",\"layers\",\"first_mismatch\",\n"
           "                      \"fault\"} (fault: why a --kernel run gave no verdict);\n"
           "                      \"layer\" fields count from 0, first_mismatch's\n"
           "                      \"after_layer\" from 1\n"
           "  -h, --help          this text\n",
           cli_input_help);
}

typedef struct verify_args {
    const char *spec, *kernel_file, *timeout_arg, *save_source;
    double timeout;
    bool json, with_payload, progress;
    sn_gpu_verify_opts vo;
    cli_input in;
} verify_args;

enum {
    O_DEVICE = 256,
    O_PAYLOAD,
    O_PER_LAYER,
    O_VARIANT,
    O_FAULT,
    O_KERNEL,
    O_TIMEOUT,
    O_JSON,
    O_SAVE
};

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
    *layer = (size_t)l; /* as given: counted from 1 (0 is rejected by the caller) */
    *index = (uint32_t)i;
    return true;
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

static int take(void *ctx, int key, const char *name, const char *arg)
{
    verify_args *a = ctx;
    switch (key) {
    case O_DEVICE: a->spec = arg; return cli_gpu_device_arg(arg);
    case O_PAYLOAD: a->with_payload = true; return 0;
    case O_PER_LAYER: a->vo.per_layer = true; return 0;
    case O_VARIANT:
        if (!sn_gpu_variant_parse(arg, &a->vo.variant))
            return cli_error(CLI_USAGE, "--variant",
                             "'%s' is not a variant (auto, pairs, left, xor, div, shift, fused, "
                             "fused-local, fused-serial)",
                             arg);
        return 0;
    case O_FAULT:
        if (!parse_fault(arg, &a->vo.inject_layer, &a->vo.inject_index))
            return cli_error(CLI_USAGE, "--inject-fault", "'%s' is not LAYER:INDEX (e.g. 3:5)",
                             arg);
        if (a->vo.inject_layer == 0)
            return cli_error(CLI_USAGE, "--inject-fault",
                             "'%s': layers count from 1 (the fault goes after layer L)", arg);
        a->vo.inject_layer--; /* the library counts from 0 */
        a->vo.inject = true;
        return 0;
    case O_KERNEL: a->kernel_file = arg; return 0;
    case O_TIMEOUT:
        if (!parse_timeout(arg, &a->timeout))
            return cli_error(CLI_USAGE, "--timeout",
                             "'%s' is not a number of seconds from 0 (no limit) to %.0f", arg,
                             KERNEL_TIMEOUT_MAX_S);
        a->timeout_arg = arg;
        return 0;
    case O_JSON: a->json = true; return 0;
    case O_SAVE: a->save_source = arg; return 0;
    default: {
        int r = cli_input_option(&a->in, name, arg);
        return r > 1 ? r : 0;
    }
    }
}

static int parse_args(int argc, char **argv, verify_args *a, int *first)
{
    static const struct option opts[] = {
        {"device", required_argument, NULL, O_DEVICE},
        {"payload", no_argument, NULL, O_PAYLOAD},
        {"per-layer", no_argument, NULL, O_PER_LAYER},
        {"variant", required_argument, NULL, O_VARIANT},
        {"inject-fault", required_argument, NULL, O_FAULT},
        {"kernel", required_argument, NULL, O_KERNEL},
        {"timeout", required_argument, NULL, O_TIMEOUT},
        {"json", no_argument, NULL, O_JSON},
        {"save-source", required_argument, NULL, O_SAVE},
        CLI_INPUT_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(a, 0, sizeof *a);
    a->timeout = KERNEL_TIMEOUT_DEFAULT_S;
    cli_input_init(&a->in);
    int rc = cli_gpu_options("gpu verify", argc, argv, "", opts, verify_help, take, a, first);
    if (rc != 0)
        return rc;
    if (*first >= argc)
        return cli_error(CLI_USAGE, "gpu verify", "no network given (e.g. bitonic:16)");
    if (*first + 1 < argc)
        return cli_error(CLI_USAGE, "gpu verify", "unexpected argument '%s'", argv[*first + 1]);
    if (a->timeout_arg && !a->kernel_file)
        return cli_error(CLI_USAGE, "--timeout",
                         "only with --kernel (sortnet's own kernels run without a time limit)");
    if (a->save_source && (a->kernel_file || !sn_gpu_variant_is_fused(a->vo.variant)))
        return cli_error(CLI_USAGE, "--save-source",
                         "only with a fused variant (--variant fused, fused-local)");
#ifndef SN_HAVE_JANSSON
    if (a->json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    return 0;
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

/* What came out of a run, for the report. */
typedef struct verdict {
    sn_gpu_report rep;
    sn_gpu_outcome iso;
    const char *device;
    bool fault;
    char fault_line[sizeof(((sn_diag *)0)->text) + 256];
} verdict;

#ifdef SN_HAVE_JANSSON
static json_t *json_fault(const verdict *v)
{
    const sn_gpu_outcome *o = &v->iso;
    json_t *f = json_object();
    json_object_set_new(f, "kind",
                        json_string(o->fault == SN_GPU_FAULT_TIMEOUT ? "timeout"
                                    : o->fault == SN_GPU_FAULT_ERROR ? "device error"
                                                                     : "crash"));
    json_object_set_new(f, "layer", o->in_layer ? json_integer((json_int_t)o->layer) : json_null());
    if (o->fault == SN_GPU_FAULT_TIMEOUT)
        json_object_set_new(f, "seconds", json_real(o->limit_s));
    else if (o->signal)
        json_object_set_new(f, "signal", json_integer(o->signal));
    else if (o->fault == SN_GPU_FAULT_CRASH)
        json_object_set_new(f, "exit_status", json_integer(o->exit_status));
    json_object_set_new(f, "message", json_string(v->fault_line));
    return f;
}

static int print_json(const verify_args *a, const verdict *v)
{
    const sn_gpu_report *r = &v->rep;
    json_t *o = json_object();
    json_object_set_new(o, "identical", json_boolean(r->identical));
    json_object_set_new(o, "device", json_string(v->device));
    json_object_set_new(o, "layers", json_integer((json_int_t)r->layers));
    json_t *m = json_null();
    if (!r->identical && !v->fault) {
        m = json_object();
        json_object_set_new(m, "layer", json_integer((json_int_t)r->layer));
        json_object_set_new(m, "after_layer", json_integer((json_int_t)r->layer + 1));
        json_object_set_new(m, "index", json_integer(r->index));
        json_object_set_new(m, "expected", cli_json_value(a->in.type, r->expected, r->in_payload));
        json_object_set_new(m, "actual", cli_json_value(a->in.type, r->actual, r->in_payload));
        if (r->in_payload)
            json_object_set_new(m, "payload", json_true());
    }
    json_object_set_new(o, "first_mismatch", m);
    json_object_set_new(o, "fault", v->fault ? json_fault(v) : json_null());
    return cli_json_print(o, JSON_COMPACT);
}
#endif

/* The fused variant's passes, one line. */
static void print_fused(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, const verify_args *a)
{
    sn_gpu_fused_info fi;
    sn_diag d;
    if (sn_gpu_fused_describe(g, s, v, a->with_payload, a->in.type, &fi, &d) != SN_OK)
        return;
    char how[96];
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

static void print_text(const verify_args *a, const verdict *v, sn_gpu *g, const sn_schedule *s)
{
    const sn_gpu_report *r = &v->rep;
    char desc[96];
    printf("%s: %u wires, %zu layers, %s keys, input %s%s\n", sn_schedule_name(s),
           sn_schedule_wires(s), r->layers, sn_key_type_name(a->in.type),
           sn_input_describe(&a->in.spec, desc, sizeof desc),
           a->with_payload ? ", with payload" : "");
    sn_gpu_variant var = a->vo.variant;
    if (!a->kernel_file && sn_gpu_resolve_variant(s, a->vo.variant, &var, NULL) != SN_OK)
        var = a->vo.variant;
    printf("device: %s; kernel: %s\n", v->device,
           a->kernel_file ? a->kernel_file : sn_gpu_variant_name(var));
    printf("compared: %s\n", method_text(r->method));
    if (g && sn_gpu_variant_is_fused(var))
        print_fused(g, s, var, a);
    if (a->vo.inject)
        printf("injected fault: element %u flipped after layer %zu\n", a->vo.inject_index,
               a->vo.inject_layer + 1);
    if (v->fault) {
        printf("%s\n", v->fault_line);
        if (v->iso.fault == SN_GPU_FAULT_TIMEOUT && v->iso.in_layer)
            printf("the device process was stopped; --timeout SECONDS gives each layer more time "
                   "(0: no limit)\n");
        return;
    }
    if (r->identical) {
        printf("identical\n");
        return;
    }
    char exp[64], act[64];
    if (r->in_payload) {
        snprintf(exp, sizeof exp, "%u", r->expected);
        snprintf(act, sizeof act, "%u", r->actual);
    } else {
        sn_key_format(a->in.type, r->expected, exp, sizeof exp);
        sn_key_format(a->in.type, r->actual, act, sizeof act);
    }
    printf("differs: first after layer %zu, %s %u: expected %s, actual %s\n", r->layer + 1,
           r->in_payload ? "payload of wire" : "wire", r->index, exp, act);
}

/* --save-source: the generated kernels' source to a file. */
static int save_source(sn_gpu *g, const sn_schedule *s, const verify_args *a)
{
    char *src = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_gpu_fused_source(g, s, a->vo.variant, a->with_payload, a->in.type, &src, &d);
    if (st != SN_OK)
        return cli_gpu_report("--save-source", st, &d, NULL);
    if (!src)
        return cli_error(CLI_USAGE, "--save-source",
                         "%s interprets the fused plan on this device: nothing is generated",
                         sn_gpu_variant_name(a->vo.variant));
    cli_out o;
    int rc = cli_out_open(&o, a->save_source);
    if (rc == 0) {
        fputs(src, o.f);
        rc = cli_out_commit(&o);
    }
    sn_free(src);
    return rc;
}

/* Runs of at least this many wires say on stderr how long each phase
 * took, as it ends (a billion keys take a minute; smaller runs, those of
 * the tests among them, stay quiet). */
#define PROGRESS_MIN_WIRES ((uint32_t)1 << 24)

static void progress_line(void *ctx, const char *phase, double seconds, unsigned threads)
{
    (void)ctx;
    if (threads)
        fprintf(stderr, "sortnet: gpu verify: %s: %.2f s (%u thread%s)\n", phase, seconds, threads,
                threads == 1 ? "" : "s");
    else
        fprintf(stderr, "sortnet: gpu verify: %s: %.2f s\n", phase, seconds);
}

/* A student's kernel runs in a process of its own: this one must not
 * open OpenCL at all (a runtime does not survive fork). */
static int run_isolated(const verify_args *a, const sn_schedule *s, const uint32_t *keys,
                        verdict *v)
{
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu_isolation iso = {a->spec, a->timeout, KERNEL_SETUP_LIMIT_S, a->kernel_file};
    sn_status st = sn_gpu_verify_isolated(&iso, s, a->in.type, keys, a->with_payload, &a->vo,
                                          &v->rep, &v->iso, &d);
    if (st == SN_EBUILD || st == SN_EPARSE) { /* the user's kernel: bad input */
        cli_gpu_report(a->kernel_file, st, &d, v->iso.build_log);
        return CLI_USAGE;
    }
    if (st != SN_OK)
        return cli_gpu_report("gpu verify", st, &d, v->iso.build_log);
    v->device = v->iso.device[0] ? v->iso.device : "(unknown: the device process ended first)";
    v->fault = v->iso.fault != SN_GPU_FAULT_NONE;
    if (v->fault)
        cli_gpu_fault_text(&v->iso, &d, v->fault_line, sizeof v->fault_line);
    return 0;
}

static int run_here(const verify_args *a, const sn_schedule *s, const uint32_t *keys, sn_gpu **g,
                    verdict *v)
{
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_gpu_open(a->spec, g, &d);
    if (st != SN_OK)
        return cli_gpu_report("gpu verify", st, &d, NULL);
    st = sn_gpu_verify_progress(*g, s, a->in.type, keys, a->with_payload, &a->vo,
                                a->progress ? progress_line : NULL, NULL, &v->rep, &d);
    if (st != SN_OK)
        return cli_gpu_report("gpu verify", st, &d, sn_gpu_build_log(*g));
    v->device = sn_gpu_device_name(*g);
    return a->save_source ? save_source(*g, s, a) : 0;
}

/* --inject-fault's place within NET, in the numbers people gave. */
static int check_inject(const verify_args *a, const sn_schedule *s)
{
    size_t L = sn_schedule_layer_count(s);
    uint32_t n = sn_schedule_wires(s);
    if (a->vo.inject && (a->vo.inject_layer >= L || a->vo.inject_index >= n))
        return cli_error(CLI_USAGE, "--inject-fault",
                         "cannot inject a fault after layer %zu, index %u: %s has %zu layers "
                         "(1..%zu) and %u wires (0..%u)",
                         a->vo.inject_layer + 1, a->vo.inject_index, sn_schedule_name(s), L, L, n,
                         n ? n - 1 : 0);
    return 0;
}

int cmd_gpu_verify(int argc, char **argv)
{
    verify_args a;
    int first, rc = parse_args(argc, argv, &a, &first);
    if (rc != 0)
        return rc < 0 ? CLI_OK : rc;
    sn_schedule *s = NULL;
    uint32_t *keys = NULL;
    char *source = NULL;
    sn_gpu *g = NULL;
    verdict v;
    memset(&v, 0, sizeof v);
    if ((rc = cli_input_load_net(&a.in, argv[first], &s)) != 0 ||
        (rc = cli_input_finish(&a.in, false)) != 0 || (rc = check_inject(&a, s)) != 0)
        goto done;
    a.progress = sn_schedule_wires(s) >= PROGRESS_MIN_WIRES;
    double t0 = cli_now_ms();
    if ((rc = cli_input_make(&a.in, sn_schedule_wires(s), &keys)) != 0)
        goto done;
    if (a.progress) {
        char desc[96];
        fprintf(stderr, "sortnet: gpu verify: making the input (%s): %.2f s\n",
                sn_input_describe(&a.in.spec, desc, sizeof desc), (cli_now_ms() - t0) / 1000.0);
    }
    if (a.kernel_file) {
        size_t len = 0;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_file_read_all(a.kernel_file, KERNEL_FILE_MAX, &source, &len, &d);
        if (st != SN_OK) { /* d names the file already */
            rc = cli_error(cli_status_exit(st), "--kernel", "%s", sn_diag_text(&d, st));
            goto done;
        }
        a.vo.user_source = source;
    }
    rc = a.kernel_file ? run_isolated(&a, s, keys, &v) : run_here(&a, s, keys, &g, &v);
    if (rc != 0)
        goto done;
    rc = v.rep.identical ? CLI_OK : CLI_NEGATIVE;
#ifdef SN_HAVE_JANSSON
    if (a.json) {
        int jrc = print_json(&a, &v);
        rc = jrc ? jrc : rc;
        goto done;
    }
#endif
    print_text(&a, &v, g, s);
done:
    sn_gpu_close(g);
    sn_gpu_outcome_clear(&v.iso);
    sn_free(source);
    sn_free(keys);
    sn_schedule_destroy(s);
    return rc;
}
