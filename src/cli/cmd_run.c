/* cmd_run.c - `sortnet run NET [input] [--trace] [--payload] [--json]
 * [--output FILE]`: run a network on one input with the CPU reference
 * executor and show the result, optionally the state after every layer;
 * exit 1 when the output is not sorted. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "cli_time.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/exec.h"
#ifdef SN_HAVE_JANSSON
#include <jansson.h>
#endif

/* Arrays longer than this are summarized in text output unless --full. */
#define RUN_PRINT_MAX 256

static void help(void)
{
    printf("usage: sortnet run NET [INPUT] [--trace] [--payload] [--full] [--json]\n"
           "                      [--output FILE [--binary]]\n\n"
           "Run NET on one input with the CPU reference executor. Exit 0 when the\n"
           "output is sorted, 1 when it is not (the network does not sort this\n"
           "input), 2 for bad usage or input.\n\n%s\n"
           "  --trace      show the array after every layer (and the swaps it made):\n"
           "               \"start:\" is the input, \"after layer K:\" the array after\n"
           "               layer K, layers counted from 1; for large n, a 64-bit\n"
           "               digest of every layer's array\n"
           "  --payload    also show where each output element came from (input index)\n"
           "  --full       print whole arrays even when n > %d\n"
           "  --output FILE  write the output keys to FILE (- for stdout), one per line,\n"
           "               or raw little-endian 4-byte keys with --binary; written to a\n"
           "               temporary file and renamed, never left half written\n"
           "  --json       one JSON object: {\"n\",\"input\",\"output\",\"sorted\",\"layers\"};\n"
           "               with --trace, layers[k-1] is the array after layer k (JSON\n"
           "               arrays count from 0)\n"
           "  -h, --help   this text\n",
           cli_input_help, RUN_PRINT_MAX);
}

static bool is_sorted(sn_key_type t, const uint32_t *k, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (sn_key_to_ordered(t, k[i - 1]) > sn_key_to_ordered(t, k[i]))
            return false;
    return true;
}

static void print_array(const char *label, sn_key_type t, const uint32_t *k, uint32_t n, bool full)
{
    printf("%s", label);
    if (n <= RUN_PRINT_MAX || full) {
        cli_print_keys(stdout, t, k, n);
    } else {
        cli_print_keys(stdout, t, k, 8);
        printf(",... (%u keys; --full prints all)", n);
    }
}

static void print_payload(const char *label, const uint32_t *p, uint32_t n, bool full)
{
    printf("%s", label);
    uint32_t shown = (n <= RUN_PRINT_MAX || full) ? n : 8;
    for (uint32_t i = 0; i < shown; i++)
        printf("%s%u", i ? "," : "", p[i]);
    if (shown < n)
        printf(",...");
    putchar('\n');
}

#ifdef SN_HAVE_JANSSON
static json_t *json_keys(sn_key_type t, const uint32_t *k, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < n; i++)
        json_array_append_new(a, cli_json_key(t, k[i]));
    return a;
}

static int print_json(const sn_trace *tr, bool trace, bool payload)
{
    sn_key_type t = sn_trace_key_type(tr);
    uint32_t n = sn_trace_wires(tr);
    size_t L = sn_trace_layer_count(tr);
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer(n));
    json_object_set_new(o, "input", json_keys(t, sn_trace_state(tr, 0), n));
    json_object_set_new(o, "output", json_keys(t, sn_trace_state(tr, L), n));
    json_object_set_new(o, "sorted", json_boolean(is_sorted(t, sn_trace_state(tr, L), n)));
    if (payload) {
        json_t *p = json_array();
        const uint32_t *pl = sn_trace_payload(tr, L);
        for (uint32_t i = 0; pl && i < n; i++)
            json_array_append_new(p, json_integer(pl[i]));
        json_object_set_new(o, "payload", p);
    }
    if (trace) {
        json_t *layers = json_array();
        for (size_t k = 1; k <= L; k++) {
            const uint32_t *st = sn_trace_state(tr, k);
            if (st) {
                json_array_append_new(layers, json_keys(t, st, n));
            } else {
                char hex[24];
                snprintf(hex, sizeof hex, "%016llx", (unsigned long long)sn_trace_digest(tr, k));
                json_array_append_new(layers, json_string(hex));
            }
        }
        json_object_set_new(o, "layers", layers);
    }
    return cli_json_print(o, JSON_COMPACT);
}
#endif

static void print_text(const sn_schedule *s, const cli_input *in, const sn_trace *tr, bool trace,
                       bool payload, bool full, double seconds)
{
    sn_key_type t = sn_trace_key_type(tr);
    uint32_t n = sn_trace_wires(tr);
    size_t L = sn_trace_layer_count(tr);
    char desc[128], label[48];
    /* Every label is padded to the width of "after layer D: " so arrays
     * line up; layers are counted from 1 for people, the input is "start". */
    int width = snprintf(NULL, 0, "%zu", L);
    int lw = (int)sizeof "after layer : " - 1 + width;
    printf("%-*s%s (%u input%s, %zu layer%s)\n", lw, "network:", sn_schedule_name(s), n,
           n == 1 ? "" : "s", L, L == 1 ? "" : "s");
    printf("%-*s%s, %s keys\n", lw, "input:", sn_input_describe(&in->spec, desc, sizeof desc),
           sn_key_type_name(t));
    snprintf(label, sizeof label, "%-*s", lw, "start:");
    print_array(label, t, sn_trace_state(tr, 0), n, full);
    printf("\n");
    if (trace) {
        for (size_t k = 1; k <= L; k++) {
            const uint32_t *st = sn_trace_state(tr, k);
            snprintf(label, sizeof label, "after layer %*zu: ", width, k);
            if (st)
                print_array(label, t, st, n, full);
            else
                printf("%sdigest %016llx", label, (unsigned long long)sn_trace_digest(tr, k));
            size_t sw = sn_trace_swap_count(tr, k - 1);
            printf("   (%zu swap%s)\n", sw, sw == 1 ? "" : "s");
        }
    }
    const uint32_t *out = sn_trace_state(tr, L);
    snprintf(label, sizeof label, "%-*s", lw, "output:");
    print_array(label, t, out, n, full);
    printf("\n");
    if (payload && sn_trace_payload(tr, L)) {
        snprintf(label, sizeof label, "%-*s", lw, "from:");
        print_payload(label, sn_trace_payload(tr, L), n, full);
    }
    size_t swaps = 0;
    for (size_t k = 0; k < L; k++)
        swaps += sn_trace_swap_count(tr, k);
    printf("%-*s%s, %zu swaps", lw, "result:", is_sorted(t, out, n) ? "sorted" : "NOT sorted",
           swaps);
    if (seconds >= 0.01)
        printf(", %.2f s", seconds);
    printf("\n");
}

int cmd_run(int argc, char **argv)
{
    static const struct option opts[] = {CLI_INPUT_LONGOPTS,        {"trace", 0, NULL, 't'},
                                         {"payload", 0, NULL, 'p'}, {"full", 0, NULL, 'f'},
                                         {"json", 0, NULL, 'j'},    {"output", 1, NULL, 'o'},
                                         {"help", 0, NULL, 'h'},    {NULL, 0, NULL, 0}};
    cli_input in;
    cli_input_init(&in);
    bool trace = false, payload = false, full = false, json = false;
    const char *output = NULL;
    int c, idx = 0, rc;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
        switch (c) {
        case CLI_OPT_INPUT:
            if ((rc = cli_input_option(&in, opts[idx].name, optarg)) > 1)
                return rc;
            break;
        case 't': trace = true; break;
        case 'p': payload = true; break;
        case 'f': full = true; break;
        case 'j': json = true; break;
        case 'o': output = optarg; break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("run", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "run", "expected one network (see --help)");
#ifndef SN_HAVE_JANSSON
    if (json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    sn_schedule *s = NULL;
    if ((rc = cli_input_load_net(&in, argv[optind], &s)) != 0)
        return rc;
    uint32_t n = sn_schedule_wires(s), *keys = NULL, *pay = NULL;
    sn_trace *tr = NULL;
    if ((rc = cli_input_finish(&in, output != NULL)) != 0) /* --binary's use */
        goto done;
    if ((rc = cli_input_make(&in, n, &keys)) != 0)
        goto done;
    if (payload) {
        if (!(pay = sn_calloc(n ? n : 1, sizeof *pay))) {
            rc = cli_error(CLI_DEVICE, "run", "out of memory for %u payload values", n);
            goto done;
        }
        for (uint32_t i = 0; i < n; i++)
            pay[i] = i;
    }
    sn_diag d;
    sn_diag_clear(&d);
    double t0 = cli_now_ms();
    /* Without --trace only the final array matters: DIGEST mode keeps no
     * per-layer arrays. */
    sn_status st =
        sn_trace_record(s, in.type, keys, pay, trace ? SN_TRACE_AUTO : SN_TRACE_DIGEST, &tr, &d);
    double secs = (cli_now_ms() - t0) / 1e3;
    if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), "run", "%s", sn_diag_text(&d, st));
        goto done;
    }
    const uint32_t *out = sn_trace_state(tr, sn_trace_layer_count(tr));
    /* The file first: a failed write is an error, not a verdict. */
    if (output && (rc = cli_keys_write(output, in.binary, in.type, out, n)) != 0)
        goto done;
#ifdef SN_HAVE_JANSSON
    if (json)
        rc = print_json(tr, trace, payload);
    else
#endif
        print_text(s, &in, tr, trace, payload, full, secs);
    if (rc == 0 && !is_sorted(in.type, out, n))
        rc = CLI_NEGATIVE;
done:
    sn_trace_destroy(tr);
    sn_free(keys);
    sn_free(pay);
    sn_schedule_destroy(s);
    return rc;
}
