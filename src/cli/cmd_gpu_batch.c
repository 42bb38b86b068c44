/* cmd_gpu_batch.c - `sortnet gpu batch NET --arrays M`: M independent arrays
 * of n keys sorted at once on an OpenCL device (gpu/batch.h), verified
 * array by array against the reference executor (its bench, `gpu bench
 * --variant batch`, is cmd_gpu_bench_batch.c). Exit codes: 0 identical,
 * 1 a mismatch, 2 bad usage, 3 no OpenCL platform, 5 the device failed. */
#include "cmd_gpu_batch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd_gpu.h"
#include "core/alloc.h"
#include "core/input.h" // for: sn_rand_next, sn_key_format
#include "gpu/batch.h"

static void batch_help(void)
{
    printf("usage: sortnet gpu batch NET --arrays M [--layout rows|columns] [--type T]\n"
           "                         [--payload] [--keys random|dups|bits] [--seed S]\n"
           "                         [--device P:D] [--inject-fault A:W] [--json]\n"
           "                         [--input-file FILE [--binary]]\n\n"
           "Sort M independent arrays of n keys at once (n = NET's wires, 1..%u; any\n"
           "network: a generator, best:N, a file): one work-item per array, the whole\n"
           "network in registers, as the straight-line kernels `sortnet gen NET --format\n"
           "opencl` writes. Then compare every array with the CPU reference executor and\n"
           "print identical, or the first mismatch (array, wire). Arrays the network\n"
           "leaves unsorted (a network that does not sort) are counted too.\n\n"
           "  --arrays M        number of arrays (1..2^32-1; 2^K allowed)\n"
           "  --layout L        rows (default): arrays one after another (a*n + w);\n"
           "                    columns: interleaved (w*M + a)\n"
           "  --type T          keys i32 (default), u32 or f32 (IEEE totalOrder)\n"
           "  --payload         a payload (each key's original wire) moves with the keys\n"
           "  --keys K          random (default) 32-bit keys, dups (few distinct values,\n"
           "                    f32 with -0.0, +0.0, infinities and NaNs) or bits (0/1)\n"
           "  --seed S          random seed (default 1)\n"
           "  --input-file FILE the arrays from a file (- reads stdin), one after another,\n"
           "                    n keys each: values separated by commas, blanks or\n"
           "                    newlines, # comments; M = keys / n unless --arrays\n"
           "                    is given (then it must match)\n"
           "  --binary          the file holds raw little-endian 4-byte keys\n"
           "  --device P:D      platform and device index (`sortnet gpu list`)\n"
           "  --inject-fault A:W  corrupt array A's wire W on the device after the kernel\n"
           "                    (shows that a mismatch is caught)\n"
           "  --json            one JSON object on stdout\n"
           "  -h, --help        this text\n",
           SN_BATCH_MAX_WIRES);
}

/* "1000" or "2^20" */
int cli_gpu_batch_arrays_arg(const char *s, uint64_t *out)
{
    uint64_t e;
    bool ok;
    if (strncmp(s, "2^", 2) == 0) {
        ok = cli_parse_u64(s + 2, 0, 31, &e);
        if (ok)
            *out = (uint64_t)1 << e;
    } else {
        ok = cli_parse_u64(s, 1, UINT32_MAX, out);
    }
    return ok ? 0 : cli_error(CLI_USAGE, "--arrays", "'%s' is not a count in 1..2^32-1", s);
}

enum keys_mode { KEYS_RANDOM, KEYS_DUPS, KEYS_BITS };

static void fill_keys(sn_key_type t, enum keys_mode mode, uint64_t seed, uint32_t *k, size_t count)
{
    static const uint32_t f32[] = {0x80000000u, 0x00000000u, 0x3fc00000u, 0xff800000u,
                                   0x7f800000u, 0x7fc00000u, 0xffc00000u, 0xbf800000u};
    static const uint32_t ints[] = {0, 1, 2, 0xffffffffu, 0x80000000u, 0x7fffffffu, 7, 2};
    for (size_t i = 0; i < count; i++) {
        uint64_t r = sn_rand_next(&seed);
        if (mode == KEYS_RANDOM)
            k[i] = (uint32_t)r;
        else if (mode == KEYS_DUPS)
            k[i] = t == SN_KEY_F32 ? f32[r % 8] : ints[r % 8];
        else
            k[i] = t == SN_KEY_F32 ? (r & 1 ? 0x3f800000u : 0) : (uint32_t)(r & 1);
    }
}

/* Per array: 0..n-1, the wire each key started on. */
static void fill_payload(sn_batch_layout l, uint32_t n, uint64_t m, uint32_t *p)
{
    for (uint64_t a = 0; a < m; a++)
        for (uint32_t w = 0; w < n; w++)
            p[sn_batch_index(l, n, m, a, w)] = w;
}

static int fail(const char *what, sn_status st, const sn_diag *d)
{
    return cli_error(cli_status_exit(st), what, "%s", sn_diag_text(d, st));
}

typedef struct batch_args {
    const char *net, *device;
    const char *file; /* --input-file */
    bool binary, keys_given;
    uint64_t arrays;
    sn_batch_layout layout;
    sn_key_type type;
    bool payload, json, inject;
    enum keys_mode keys;
    uint64_t seed, inj_array, inj_wire;
} batch_args;

enum {
    O_ARRAYS = 256,
    O_LAYOUT,
    O_TYPE,
    O_PAYLOAD,
    O_KEYS,
    O_SEED,
    O_DEVICE,
    O_INJECT,
    O_JSON,
    O_FILE,
    O_BINARY
};

/* --inject-fault ARRAY:WIRE */
static bool parse_inject(const char *arg, batch_args *a)
{
    const char *colon = strchr(arg, ':');
    char buf[32];
    size_t len = colon ? (size_t)(colon - arg) : 0;
    if (!colon || len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, arg, len);
    buf[len] = '\0';
    return cli_parse_u64(buf, 0, UINT32_MAX, &a->inj_array) &&
           cli_parse_u64(colon + 1, 0, SN_BATCH_MAX_WIRES, &a->inj_wire);
}

/* One option of gpu batch (gpu_take_fn). */
static int take(void *ctx, int key, const char *name, const char *arg)
{
    batch_args *a = ctx;
    (void)name;
    switch (key) {
    case O_ARRAYS: return cli_gpu_batch_arrays_arg(arg, &a->arrays);
    case O_LAYOUT:
        if (!sn_batch_layout_parse(arg, &a->layout))
            return cli_error(CLI_USAGE, "--layout", "'%s' is not rows or columns", arg);
        return 0;
    case O_TYPE: return cli_type_arg(arg, &a->type);
    case O_PAYLOAD: a->payload = true; return 0;
    case O_FILE: a->file = arg; return 0;
    case O_BINARY: a->binary = true; return 0;
    case O_KEYS:
        a->keys_given = true;
        if (strcmp(arg, "random") == 0)
            a->keys = KEYS_RANDOM;
        else if (strcmp(arg, "dups") == 0)
            a->keys = KEYS_DUPS;
        else if (strcmp(arg, "bits") == 0)
            a->keys = KEYS_BITS;
        else
            return cli_error(CLI_USAGE, "--keys", "'%s' is not random, dups or bits", arg);
        return 0;
    case O_SEED:
        a->keys_given = true;
        if (!cli_parse_u64(arg, 0, UINT64_MAX, &a->seed))
            return cli_error(CLI_USAGE, "--seed", "'%s' is not a number", arg);
        return 0;
    case O_DEVICE: a->device = arg; return cli_gpu_device_arg(arg);
    case O_INJECT:
        if (!parse_inject(arg, a))
            return cli_error(CLI_USAGE, "--inject-fault", "'%s' is not ARRAY:WIRE (e.g. 3:0)", arg);
        a->inject = true;
        return 0;
    default: a->json = true; return 0; /* O_JSON */
    }
}

static int parse_batch(int argc, char **argv, batch_args *a)
{
    static const struct option opts[] = {{"arrays", 1, NULL, O_ARRAYS},
                                         {"layout", 1, NULL, O_LAYOUT},
                                         {"type", 1, NULL, O_TYPE},
                                         {"payload", 0, NULL, O_PAYLOAD},
                                         {"keys", 1, NULL, O_KEYS},
                                         {"seed", 1, NULL, O_SEED},
                                         {"device", 1, NULL, O_DEVICE},
                                         {"inject-fault", 1, NULL, O_INJECT},
                                         {"json", 0, NULL, O_JSON},
                                         {"input-file", 1, NULL, O_FILE},
                                         {"binary", 0, NULL, O_BINARY},
                                         {"help", 0, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int first, rc = cli_gpu_options("gpu batch", argc, argv, "", opts, batch_help, take, a, &first);
    if (rc != 0)
        return rc;
    if (first != argc - 1)
        return cli_error(CLI_USAGE, "gpu batch", "expected one network (see --help)");
    if (a->arrays == 0 && !a->file)
        return cli_error(CLI_USAGE, "gpu batch", "--arrays M is required (or --input-file FILE)");
    if (a->binary && !a->file)
        return cli_error(CLI_USAGE, "--binary", "goes with --input-file (raw 4-byte keys)");
    if (a->file && a->keys_given)
        return cli_error(CLI_USAGE, "--input-file",
                         "the keys come from the file: drop --keys and --seed");
#ifndef SN_HAVE_JANSSON
    if (a->json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    a->net = argv[first];
    return 0;
}

/* Load NET as a schedule and a network of 1..SN_BATCH_MAX_WIRES wires. */
static int load_net(const char *spec, sn_schedule **s, sn_network **net)
{
    int rc = cli_load_network(spec, s, net);
    if (rc)
        return rc;
    uint32_t n = sn_network_wires(*net);
    if (n < 1 || n > SN_BATCH_MAX_WIRES)
        return cli_error(CLI_USAGE, spec,
                         "n = %u: gpu batch holds each array in registers, n must be 1..%u", n,
                         SN_BATCH_MAX_WIRES);
    return 0;
}

static void print_key(sn_key_type t, uint32_t bits, bool payload)
{
    char buf[64];
    if (payload)
        snprintf(buf, sizeof buf, "%u", bits);
    else
        sn_key_format(t, bits, buf, sizeof buf);
    fputs(buf, stdout);
}

#ifdef SN_HAVE_JANSSON
static void report_json(const batch_args *a, const sn_gpu *g, const sn_network *net,
                        const sn_batch_report *r, double ms)
{
    json_t *o = json_object();
    json_object_set_new(o, "identical", json_boolean(r->identical));
    json_object_set_new(o, "device", json_string(sn_gpu_device_name(g)));
    json_object_set_new(o, "network", json_string(a->net));
    json_object_set_new(o, "n", json_integer(sn_network_wires(net)));
    json_object_set_new(o, "arrays", json_integer((json_int_t)a->arrays));
    json_object_set_new(o, "layout", json_string(sn_batch_layout_name(a->layout)));
    json_object_set_new(o, "type", json_string(sn_key_type_name(a->type)));
    json_object_set_new(o, "payload", json_boolean(a->payload));
    json_object_set_new(o, "kernel_ms", json_real(ms));
    json_object_set_new(o, "unsorted", json_integer((json_int_t)r->unsorted));
    json_t *m = json_null();
    if (!r->identical) {
        m = json_object();
        json_object_set_new(m, "array", json_integer((json_int_t)r->array));
        json_object_set_new(m, "wire", json_integer(r->wire));
        json_object_set_new(m, "in_payload", json_boolean(r->in_payload));
        json_object_set_new(m, "expected", cli_json_value(a->type, r->expected, r->in_payload));
        json_object_set_new(m, "actual", cli_json_value(a->type, r->actual, r->in_payload));
    }
    json_object_set_new(o, "first_mismatch", m);
    cli_json_print(o, JSON_COMPACT | JSON_REAL_PRECISION(9));
}
#endif

static void report(const batch_args *a, const sn_gpu *g, const sn_network *net,
                   const sn_batch_report *r, double ms)
{
#ifdef SN_HAVE_JANSSON
    if (a->json) {
        report_json(a, g, net, r, ms);
        return;
    }
#else
    (void)g;
    (void)net;
#endif
    if (r->identical) {
        printf("identical: all %llu arrays match the reference executor (kernel %.4f ms)\n",
               (unsigned long long)a->arrays, ms);
    } else {
        printf("DIFFERENT: first mismatch at array %llu, wire %u%s: expected ",
               (unsigned long long)r->array, r->wire, r->in_payload ? " (payload)" : "");
        print_key(a->type, r->expected, r->in_payload);
        printf(", device has ");
        print_key(a->type, r->actual, r->in_payload);
        printf("\n");
    }
    if (r->unsorted)
        printf("note: %llu of %llu arrays are not sorted (first: array %llu)%s\n",
               (unsigned long long)r->unsorted, (unsigned long long)a->arrays,
               (unsigned long long)r->first_unsorted,
               r->identical ? ": the network does not sort them (the device agrees with the "
                              "reference)"
                            : "");
}

int cmd_gpu_batch(int argc, char **argv)
{
    batch_args a;
    memset(&a, 0, sizeof a);
    a.layout = SN_BATCH_ROWS;
    a.type = SN_KEY_I32;
    a.keys = KEYS_RANDOM;
    a.seed = 1;
    int rc = parse_batch(argc, argv, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_gpu *g = NULL;
    sn_batch_kernel *k = NULL;
    uint32_t *in = NULL, *keys = NULL, *pay = NULL, *file_keys = NULL;
    size_t file_count = 0;
    if ((rc = load_net(a.net, &s, &net)) != 0)
        goto done;
    uint32_t n = sn_network_wires(net);
    if (a.file) {
        if ((rc = cli_keys_read(a.file, a.binary, a.type, &file_keys, &file_count)) != 0)
            goto done;
        const char *name = strcmp(a.file, "-") == 0 ? "<stdin>" : a.file;
        if (file_count % n != 0 || (a.arrays && file_count != a.arrays * n)) {
            rc = a.arrays ? cli_error(CLI_USAGE, name,
                                      "%zu keys, but --arrays %llu of %s's n = %u need %llu",
                                      file_count, (unsigned long long)a.arrays, a.net, n,
                                      (unsigned long long)a.arrays * n)
                          : cli_error(CLI_USAGE, name,
                                      "%zu keys are not whole arrays of %s's n = %u (%zu left "
                                      "over)",
                                      file_count, a.net, n, file_count % n);
            goto done;
        }
        a.arrays = file_count / n;
    }
    size_t words = (size_t)a.arrays * n;
    if ((rc = cli_memory_check("gpu batch", (uint64_t)words * 4 * (a.payload ? 3 : 2))) != 0)
        goto done;
    in = sn_malloc(words * 4);
    keys = sn_malloc(words * 4);
    pay = a.payload ? sn_malloc(words * 4) : NULL;
    if (!in || !keys || (a.payload && !pay)) {
        rc = cli_error(CLI_DEVICE, "gpu batch", "out of memory for %zu keys", words);
        goto done;
    }
    if (file_keys) /* the file's arrays one after another, placed in the layout */
        for (uint64_t ar = 0; ar < a.arrays; ar++)
            for (uint32_t w = 0; w < n; w++)
                in[sn_batch_index(a.layout, n, a.arrays, ar, w)] = file_keys[ar * n + w];
    else
        fill_keys(a.type, a.keys, a.seed, in, words);
    memcpy(keys, in, words * 4);
    if (pay)
        fill_payload(a.layout, n, a.arrays, pay);
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_gpu_open(a.device, &g, &d);
    if (st == SN_OK)
        st = sn_batch_kernel_create(g, net, a.type, a.payload, 1, &k, &d);
    if (st != SN_OK) {
        rc = fail("gpu batch", st, &d);
        goto done;
    }
    if (!a.json) {
        printf("device: %s\nnetwork: %s: n = %u, %zu comparators, %zu layers\n",
               sn_gpu_device_name(g), a.net, n, sn_network_size(net), sn_network_layer_count(net));
        printf("arrays: %llu, %s layout (kernel sn_batch_%s", (unsigned long long)a.arrays,
               sn_batch_layout_name(a.layout), sn_batch_layout_name(a.layout));
        if (a.layout == SN_BATCH_ROWS)
            printf(", work-groups of %u through local memory", sn_batch_kernel_wg(k));
        if (a.file)
            printf("); %s keys from %s%s\n", sn_key_type_name(a.type),
                   strcmp(a.file, "-") == 0 ? "<stdin>" : a.file,
                   a.payload ? ", with payload" : "");
        else
            printf("); %s keys, %s (seed %llu)%s\n", sn_key_type_name(a.type),
                   a.keys == KEYS_RANDOM ? "random"
                   : a.keys == KEYS_DUPS ? "duplicates"
                                         : "0/1",
                   (unsigned long long)a.seed, a.payload ? ", with payload" : "");
    }
    sn_batch_run run = {a.layout, a.arrays, 1, a.inject, a.inj_array, (uint32_t)a.inj_wire};
    double ms = 0;
    if ((st = sn_batch_sort(k, &run, keys, pay, &ms, &d)) != SN_OK) {
        rc = fail("gpu batch", st, &d);
        goto done;
    }
    sn_batch_report r;
    sn_batch_compare(s, a.type, a.layout, a.arrays, in, keys, pay, &r);
    report(&a, g, net, &r, ms);
    rc = r.identical ? CLI_OK : CLI_NEGATIVE;
done:
    sn_batch_kernel_destroy(k);
    sn_gpu_close(g);
    sn_free(in);
    sn_free(keys);
    sn_free(pay);
    sn_free(file_keys);
    sn_network_destroy(net);
    sn_schedule_destroy(s);
    return rc;
}
