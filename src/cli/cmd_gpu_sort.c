/* cmd_gpu_sort.c - `sortnet gpu sort ALGO:N`: the classic GPU sorts
 * (src/gpu/sorts.h) on an OpenCL device, verified against the stable
 * reference (keys and, with --payload, the original indices), and their
 * rows in `sortnet gpu bench`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> // for: isatty (progress)

#include "cli.h"
#include "cli_time.h"
#include "cmd_gpu.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/input.h"
#include "cmd_gpu_sort.h"
#include "gpu/sorts.h"

#define REPS_MAX 100

static void sort_help(void)
{
    printf("usage: sortnet gpu sort ALGO:N [INPUT] [--device P:D] [--payload] [--json]\n"
           "                        [--digit-bits 4|8] [--full-rounds]\n"
           "                        [--nearly-sorted PCT[,DIST]] [--reps R] [--force]\n"
           "                        [--output FILE [--binary]]\n"
           "       sortnet gpu sort ALGO --input-file FILE [--binary] [options]\n\n"
           "Sort N keys (any N from 0 to 2^31) on an OpenCL device with one of the classic\n"
           "GPU sorts and compare the output with the reference, a stable sort in the\n"
           "key order of the networks (with --payload, the original indices too). Prints\n"
           "\"identical\" (exit 0) or the first differing index, expected and actual\n"
           "value (exit 1). Every algorithm is stable. With --input-file, --input or\n"
           "--bits, ALGO alone takes N from the keys (ALGO:N must match them). ALGO:\n"
           "  transposition        odd-even transposition: a launch per phase, a device\n"
           "                       flag read back each round; stops after a round that\n"
           "                       moves nothing (prints the rounds taken); O(n^2)\n"
           "  transposition-local  each work-group's block sorted by transposition in\n"
           "                       local memory, then transposition rounds over blocks\n"
           "                       (a merge-split of two neighbouring blocks)\n"
           "  rank                 rank (counting) sort: each key counts the keys before\n"
           "                       it, read in local-memory tiles; O(n^2)\n"
           "  rank-global          the same, reading global memory\n"
           "  merge                tiles: each work-item's keys sorted in registers, then\n"
           "                       merged in local memory by merge path; then merge\n"
           "                       path (co-rank) over the whole array\n"
           "  radix                LSD radix sort: per digit a histogram per tile, a\n"
           "                       scan, and a scatter from the tile sorted by digit in\n"
           "                       local memory (one sweep with warp shuffles on NVIDIA\n"
           "                       GPUs, 2-bit split scans elsewhere), coalesced; on\n"
           "                       NVIDIA GPUs as onesweep: one histogram pass for all\n"
           "                       digits, then a scatter per digit that finds its\n"
           "                       places by look-back (SN_RADIX_ONESWEEP=0/1 chooses)\n"
           "  hybrid               bitonic network tiles, then merge path\n\n"
           "Host to host: the keys (and payload) travel between ordinary host memory and\n"
           "the device in chunks through pinned staging buffers made once, the host's\n"
           "cores copying one chunk while the device copies the one before; the radix\n"
           "sort's histogram pass (onesweep) starts on each chunk as it arrives. The\n"
           "report splits host to host into upload, sort and download.\n"
           "SN_GPU_STAGE_CHUNK=K sets the keys a chunk (default 2^24; 0: the arrays\n"
           "written and read whole, without staging), SN_GPU_STAGE_THREADS=T the threads\n"
           "that copy (default: every core), SN_GPU_STAGE_SLOTS=S the pinned buffers\n"
           "(2 to 8, default 3). More keys than one device sort takes are sorted in runs\n"
           "(SN_GPU_SORT_RUN=K sets the run) merged on the device where they and the\n"
           "merge fit there, else on the host (SN_GPU_STAGE_MERGE=0: on the host).\n\n%s"
           "Options:\n"
           "  --device P:D         platform and device index (`sortnet gpu list`)\n"
           "  --payload            carry the original index along and compare it too\n"
           "  --digit-bits B       radix: digits of 4 or 8 bits (default 8)\n"
           "  --full-rounds        transposition: all n phases (the network's n layers),\n"
           "                       no early exit\n"
           "  --nearly-sorted P[,D] the input: 1..N sorted, then P%% of the keys swapped\n"
           "                       in pairs, each with a key at most D places away\n"
           "                       (default: anywhere)\n"
           "  --reps R             sort R times from the same input, report the median\n"
           "                       times (default 1), verify the last\n"
           "  --force              run an O(n^2) sort (transposition, transposition-local,\n"
           "                       rank, rank-global) estimated to take more than %.0f s;\n"
           "                       the estimate (rounds from how far keys must travel,\n"
           "                       or n^2 comparisons, at conservative rates for the\n"
           "                       device type) is printed before long runs, and long\n"
           "                       transposition runs show their rounds on stderr\n"
           "  --output FILE        write the sorted keys (only when identical to the\n"
           "                       reference) to FILE, one per line, or raw little-endian\n"
           "                       4-byte keys with --binary; - is stdout\n"
           "  --json               {\"identical\",\"device\",\"algorithm\",\"n\",\"kernel_ms\",\n"
           "                       \"host_ms\",\"reference_ms\",\"rounds\",\"launches\",\n"
           "                       \"upload_ms\",\"sort_ms\",\"download_ms\",\"setup_ms\",\"runs\",\n"
           "                       \"merge\" ({\"on\": \"device\"|\"host\",\"ms\"}, null for one\n"
           "                       run),\"first_mismatch\"} (the phases: the last run's)\n"
           "  -h, --help           this text\n",
           cli_input_help, GPU_SORT_LIMIT_S);
}

/* "ALGO:N" with N decimal or 2^K; "ALGO" alone when the keys give N
 * (from_keys: --input-file, --input, --bits; *sized false). */
static int parse_target(const char *arg, bool from_keys, sn_sort_algo *a, uint64_t *n, bool *sized)
{
    const char *colon = strchr(arg, ':');
    char name[32];
    size_t len = colon ? (size_t)(colon - arg) : strlen(arg);
    if (len >= sizeof name)
        len = sizeof name - 1;
    memcpy(name, arg, len);
    name[len] = '\0';
    if (!sn_sort_algo_parse(name, a))
        return cli_error(CLI_USAGE, "gpu sort",
                         "'%s' is not a sort (transposition, transposition-local, rank, "
                         "rank-global, merge, radix, hybrid)",
                         name);
    *sized = colon != NULL;
    if (!colon && from_keys)
        return 0;
    if (!colon)
        return cli_error(CLI_USAGE, "gpu sort",
                         "'%s': give the size as ALGO:N (e.g. %s:1000), or the keys with "
                         "--input-file FILE",
                         arg, name);
    const char *s = colon + 1;
    uint64_t e;
    bool ok = (s[0] == '2' && s[1] == '^') ? cli_parse_u64(s + 2, 0, 31, &e) && (*n = 1ull << e, 1)
                                           : cli_parse_u64(s, 0, (uint64_t)1 << 31, n);
    if (!ok)
        return cli_error(CLI_USAGE, "gpu sort", "'%s' is not a size from 0 to 2^31", s);
    return 0;
}

/* --nearly-sorted PCT[,DIST] */
static bool parse_nearly(const char *s, double *pct, uint64_t *dist)
{
    char *end;
    *pct = strtod(s, &end);
    if (end == s || *pct < 0 || *pct > 100)
        return false;
    *dist = 0;
    if (*end == ',')
        return cli_parse_u64(end + 1, 1, UINT32_MAX, dist);
    return *end == '\0';
}

/* 1..n sorted (as keys of type t), then pct% of the keys swapped in pairs,
 * each with a partner at most dist places away (0: anywhere). */
static void make_nearly(const cli_input *in, uint32_t n, double pct, uint64_t dist, uint32_t *k)
{
    sn_input_spec sorted = {SN_INPUT_SORTED, 0, NULL};
    sn_diag d;
    sn_input_make(&sorted, in->type, n, k, &d);
    uint64_t st = 1, swaps = (uint64_t)((double)n * pct / 200.0);
    for (uint64_t c = 0; n > 1 && c < swaps; c++) {
        uint32_t i = (uint32_t)(sn_rand_next(&st) % n), j;
        if (dist == 0 || dist >= n) {
            j = (uint32_t)(sn_rand_next(&st) % n);
        } else {
            uint64_t off = 1 + sn_rand_next(&st) % dist;
            j = i + off < n ? (uint32_t)(i + off) : (uint32_t)(i >= off ? i - off : 0);
        }
        uint32_t x = k[i];
        k[i] = k[j];
        k[j] = x;
    }
}

typedef struct sort_run {
    sn_gpu_sort_opts o;
    uint64_t n, reps;
    bool payload, json, force;
    const char *output; /* --output FILE: the sorted keys */
    double pct;
    uint64_t dist;
    bool nearly;
    const char *device;
    cli_input in;
} sort_run;

#ifdef SN_HAVE_JANSSON
static int report_json(const sort_run *r, const char *device, const sn_gpu_sort_stats *s,
                       const double ms[3], const sn_sort_mismatch *m)
{
    bool tr = r->o.algo == SN_SORT_TRANSPOSITION || r->o.algo == SN_SORT_TRANSPOSITION_LOCAL;
    json_t *o = json_object();
    json_object_set_new(o, "identical", json_boolean(m->identical));
    json_object_set_new(o, "device", json_string(device));
    json_object_set_new(o, "algorithm", json_string(sn_sort_algo_name(r->o.algo)));
    json_object_set_new(o, "n", json_integer((json_int_t)r->n));
    json_object_set_new(o, "kernel_ms", json_real(ms[0]));
    json_object_set_new(o, "host_ms", json_real(ms[1]));
    json_object_set_new(o, "reference_ms", json_real(ms[2]));
    json_object_set_new(o, "rounds", tr ? json_integer((json_int_t)s->rounds) : json_null());
    json_object_set_new(o, "launches", json_integer((json_int_t)s->launches));
    json_object_set_new(o, "upload_ms", json_real(s->upload_ms));
    json_object_set_new(o, "sort_ms", json_real(s->sort_ms));
    json_object_set_new(o, "download_ms", json_real(s->download_ms));
    json_object_set_new(o, "setup_ms", json_real(s->setup_ms));
    json_object_set_new(o, "runs", json_integer((json_int_t)s->runs));
    json_object_set_new(o, "merge",
                        s->runs > 1 ? json_pack("{s:s,s:f}", "on",
                                                s->merged_on_device ? "device" : "host", "ms",
                                                s->merge_ms)
                                    : json_null());
    json_t *fm = json_null();
    if (!m->identical) {
        fm = json_object();
        json_object_set_new(fm, "index", json_integer((json_int_t)m->index));
        json_object_set_new(fm, "expected", cli_json_value(r->o.type, m->expected, m->in_payload));
        json_object_set_new(fm, "actual", cli_json_value(r->o.type, m->actual, m->in_payload));
        if (m->in_payload)
            json_object_set_new(fm, "payload", json_true());
    }
    json_object_set_new(o, "first_mismatch", fm);
    return cli_json_print(o, JSON_COMPACT | JSON_REAL_PRECISION(9));
}
#endif

/* The text report; ms: the kernel, host-to-host and reference times. */
static void report_text(const sort_run *r, const char *device, const sn_gpu_sort_stats *s,
                        const double ms[3], const sn_sort_mismatch *m)
{
    const char *name = sn_sort_algo_name(r->o.algo);
    char desc[96];
    if (r->nearly)
        snprintf(desc, sizeof desc, "nearly sorted (%g%% out of place%s)", r->pct,
                 r->dist ? ", near their place" : "");
    else
        sn_input_describe(&r->in.spec, desc, sizeof desc);
    printf("%s%s: %llu keys, %s, input %s%s\n", name,
           r->o.algo == SN_SORT_RADIX
               ? (r->o.radix_bits == 4 ? " (4-bit digits)" : " (8-bit digits)")
               : "",
           (unsigned long long)r->n, sn_key_type_name(r->o.type), desc,
           r->payload ? ", with payload" : "");
    printf("device: %s\n", device);
    printf("kernel time %.4f ms (%llu launches), host to host %.3f ms%s; reference (stable "
           "radix sort on the host) %.1f ms\n",
           ms[0], (unsigned long long)s->launches, ms[1], r->reps > 1 ? " (medians)" : "", ms[2]);
    printf("host to host: upload %.3f ms, sort %.3f ms, download %.3f ms", s->upload_ms,
           s->sort_ms, s->download_ms);
    if (s->runs > 1)
        printf(", %s merge of %llu runs %.3f ms", s->merged_on_device ? "device" : "host",
               (unsigned long long)s->runs, s->merge_ms);
    printf("%s; device buffers and staging made before the clock: %.1f ms\n",
           r->reps > 1 ? " (the last rep)" : "", s->setup_ms);
    if (r->o.algo == SN_SORT_TRANSPOSITION)
        printf("rounds: %llu (of two phases; %s; the network transposition:%llu has %llu "
               "layers)\n",
               (unsigned long long)s->rounds,
               r->o.full_rounds ? "all of them, no early exit"
                                : "the last one found nothing to move",
               (unsigned long long)r->n, (unsigned long long)r->n);
    else if (r->o.algo == SN_SORT_TRANSPOSITION_LOCAL)
        printf("rounds: %llu over blocks (after the blocks were sorted in local memory; the "
               "last found nothing to move)\n",
               (unsigned long long)s->rounds);
    if (m->identical) {
        printf("identical\n");
        return;
    }
    char exp[64], act[64];
    if (m->in_payload) {
        snprintf(exp, sizeof exp, "%u", m->expected);
        snprintf(act, sizeof act, "%u", m->actual);
    } else {
        sn_key_format(r->o.type, m->expected, exp, sizeof exp);
        sn_key_format(r->o.type, m->actual, act, sizeof act);
    }
    printf("differs: first at %s %zu: expected %s, actual %s\n",
           m->in_payload ? "the payload of index" : "index", m->index, exp, act);
}

/* The verdict as JSON or text; 0, or 2 when stdout failed. */
static int report(const sort_run *r, const char *device, const sn_gpu_sort_stats *s,
                  const double ms[3], const sn_sort_mismatch *m)
{
#ifdef SN_HAVE_JANSSON
    if (r->json)
        return report_json(r, device, s, ms, m);
#endif
    report_text(r, device, s, ms, m);
    return 0;
}

/* Sort r->reps times from input, verify the last output. */
static int sort_and_verify(const sort_run *r, const uint32_t *input)
{
    size_t n = (size_t)r->n, words = n ? n : 1;
    /* The transposition sorts' estimate needs each key's place: the
     * reference runs with the original indices then too. */
    bool tr = r->o.algo == SN_SORT_TRANSPOSITION || r->o.algo == SN_SORT_TRANSPOSITION_LOCAL;
    bool idx = r->payload || tr;
    uint32_t *keys = sn_malloc(words * 4), *pay = r->payload ? sn_malloc(words * 4) : NULL;
    uint32_t *rk = sn_malloc(words * 4), *rp = idx ? sn_malloc(words * 4) : NULL;
    uint32_t *ip = idx ? sn_malloc(words * 4) : NULL;
    double *kt = sn_calloc(r->reps, sizeof *kt), *ht = sn_calloc(r->reps, sizeof *ht);
    sn_gpu *g = NULL;
    sn_gpu_sorter *so = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    int rc = CLI_OK;
    gpu_sort_progress pr = {isatty(fileno(stderr)) != 0, false, cli_now_ms(), 0};
    if (!keys || !rk || !kt || !ht || (r->payload && !pay) || (idx && (!rp || !ip))) {
        rc = cli_error(CLI_DEVICE, "gpu sort", "out of memory for %zu keys", n);
        goto done;
    }
    for (size_t i = 0; i < n && ip; i++)
        ip[i] = (uint32_t)i;
    sn_status st = sn_gpu_open(r->device, &g, &d);
    if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), "gpu sort", "%s", sn_diag_text(&d, st));
        goto done;
    }
    double t0 = cli_now_ms();
    if ((st = sn_sort_reference(r->o.type, input, ip, n, rk, rp, &d)) != SN_OK) {
        rc = cli_error(cli_status_exit(st), "gpu sort", "%s", d.text);
        goto done;
    }
    double ms[3] = {0, 0, cli_now_ms() - t0}, est = 0;
    if ((rc = cli_gpu_sort_check_cost(g, &r->o, r->n, r->force, rp, &est)) != 0)
        goto done;
    st = sn_gpu_sorter_create(g, &so, &d);
    if (st == SN_OK && tr && est > GPU_SORT_PROGRESS_S)
        sn_gpu_sorter_set_progress(so, cli_gpu_sort_progress_rounds, &pr);
    sn_gpu_sort_stats s;
    memset(&s, 0, sizeof s);
    for (uint64_t rep = 0; st == SN_OK && rep < r->reps; rep++) {
        memcpy(keys, input, n * 4);
        if (pay)
            memcpy(pay, ip, n * 4);
        st = sn_gpu_sort(so, &r->o, keys, pay, n, &s, &d);
        kt[rep] = s.kernel_ms;
        ht[rep] = s.host_ms;
    }
    if (pr.shown && pr.tty)
        fputc('\n', stderr);
    if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), "gpu sort", "%s", sn_diag_text(&d, st));
        goto done;
    }
    ms[0] = cli_median(kt, r->reps);
    ms[1] = cli_median(ht, r->reps);
    sn_sort_mismatch m = sn_sort_compare(rk, r->payload ? rp : NULL, keys, pay, n);
    if (r->output && !m.identical)
        fprintf(stderr,
                "sortnet: --output: %s not written: the device's output differs from the "
                "reference\n",
                r->output);
    else if (r->output && (rc = cli_keys_write(r->output, r->in.binary, r->o.type, keys, n)) != 0)
        goto done;
    rc = report(r, sn_gpu_device_name(g), &s, ms, &m);
    if (rc == 0)
        rc = m.identical ? CLI_OK : CLI_NEGATIVE;
done:
    sn_gpu_sorter_destroy(so);
    sn_gpu_close(g);
    sn_free(keys);
    sn_free(pay);
    sn_free(rk);
    sn_free(rp);
    sn_free(ip);
    sn_free(kt);
    sn_free(ht);
    return rc;
}

enum { O_DEVICE = 256, O_PAYLOAD, O_JSON, O_DIGITS, O_FULL, O_NEARLY, O_REPS, O_FORCE, O_OUTPUT };

/* One option of gpu sort (gpu_take_fn). */
static int take(void *ctx, int key, const char *name, const char *arg)
{
    sort_run *r = ctx;
    uint64_t v;
    switch (key) {
    case O_DEVICE: r->device = arg; return cli_gpu_device_arg(arg);
    case O_PAYLOAD: r->payload = true; return 0;
    case O_JSON: r->json = true; return 0;
    case O_DIGITS:
        if (!cli_parse_u64(arg, 4, 8, &v) || (v != 4 && v != 8))
            return cli_error(CLI_USAGE, "--digit-bits", "'%s' is not 4 or 8", arg);
        r->o.radix_bits = (unsigned)v;
        return 0;
    case O_FULL: r->o.full_rounds = true; return 0;
    case O_NEARLY:
        if (!parse_nearly(arg, &r->pct, &r->dist))
            return cli_error(CLI_USAGE, "--nearly-sorted",
                             "'%s' is not PCT[,DIST] (a percentage 0..100, a distance >= 1)", arg);
        r->nearly = true;
        return 0;
    case O_REPS:
        if (!cli_parse_u64(arg, 1, REPS_MAX, &r->reps))
            return cli_error(CLI_USAGE, "--reps", "'%s' is not a number in 1..%d", arg, REPS_MAX);
        return 0;
    case O_FORCE: r->force = true; return 0;
    case O_OUTPUT: r->output = arg; return 0;
    default: {
        int rc = cli_input_option(&r->in, name, arg);
        return rc > 1 ? rc : 0;
    }
    }
}

/* Options of gpu sort into r; 0, -1 after --help, or an exit code (printed). */
static int parse_options(int argc, char **argv, sort_run *r)
{
    static const struct option opts[] = {
        {"device", required_argument, NULL, O_DEVICE},
        {"payload", no_argument, NULL, O_PAYLOAD},
        {"json", no_argument, NULL, O_JSON},
        {"digit-bits", required_argument, NULL, O_DIGITS},
        {"full-rounds", no_argument, NULL, O_FULL},
        {"nearly-sorted", required_argument, NULL, O_NEARLY},
        {"reps", required_argument, NULL, O_REPS},
        {"force", no_argument, NULL, O_FORCE},
        {"output", required_argument, NULL, O_OUTPUT},
        CLI_INPUT_LONGOPTS,
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int first, rc = cli_gpu_options("gpu sort", argc, argv, "", opts, sort_help, take, r, &first);
    if (rc != 0)
        return rc;
    if (first >= argc)
        return cli_error(CLI_USAGE, "gpu sort", "no sort given (e.g. radix:1000000)");
    if (first + 1 < argc)
        return cli_error(CLI_USAGE, "gpu sort", "unexpected argument '%s'", argv[first + 1]);
    bool sized = false;
    bool listed = r->in.spec.kind == SN_INPUT_LIST || r->in.spec.kind == SN_INPUT_BITS;
    if ((rc = parse_target(argv[first], r->in.file || listed, &r->o.algo, &r->n, &sized)) != 0)
        return rc;
    if ((rc = cli_input_finish(&r->in, r->output != NULL)) != 0)
        return rc;
    if (r->in.file) {
        if (sized && r->n != r->in.count)
            return cli_error(CLI_USAGE, r->in.spec.text,
                             "%zu keys, but %s asks for %llu (write %s alone to take n from the "
                             "file)",
                             r->in.count, argv[first], (unsigned long long)r->n,
                             sn_sort_algo_name(r->o.algo));
        if (r->in.count > (uint64_t)1 << 31)
            return cli_error(CLI_USAGE, r->in.spec.text, "%zu keys: gpu sort takes at most 2^31",
                             r->in.count);
        r->n = r->in.count;
    } else if (listed && !sized) { /* n from --input or --bits (a bad list: its own error) */
        size_t count = strlen(r->in.spec.text);
        if (r->in.spec.kind == SN_INPUT_LIST &&
            sn_input_list_count(r->in.spec.text, &count, NULL) != SN_OK)
            count = 1;
        r->n = count;
    }
    if (r->o.radix_bits && r->o.algo != SN_SORT_RADIX)
        return cli_error(CLI_USAGE, "--digit-bits", "only with radix");
    if (r->o.full_rounds && r->o.algo != SN_SORT_TRANSPOSITION)
        return cli_error(CLI_USAGE, "--full-rounds", "only with transposition");
    if (r->nearly && r->in.given)
        return cli_error(CLI_USAGE, "--nearly-sorted", "is an input: give one input option");
#ifndef SN_HAVE_JANSSON
    if (r->json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    return 0;
}

int cmd_gpu_sort(int argc, char **argv)
{
    sort_run r;
    memset(&r, 0, sizeof r);
    r.reps = 1;
    cli_input_init(&r.in);
    int rc = parse_options(argc, argv, &r);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    r.o.type = r.in.type;
    /* input, device output, reference and its work arrays, payloads (the
     * transposition sorts' estimate keeps the original indices too) */
    bool idx =
        r.payload || r.o.algo == SN_SORT_TRANSPOSITION || r.o.algo == SN_SORT_TRANSPOSITION_LOCAL;
    uint64_t words = r.n * (idx ? 8 : 4);
    if (cli_memory_check("gpu sort", words * 4))
        return CLI_USAGE;
    uint32_t *input = NULL;
    if (r.nearly) {
        input = sn_malloc(r.n ? (size_t)r.n * 4 : 4);
        if (!input)
            return cli_error(CLI_DEVICE, "gpu sort", "out of memory for %llu keys",
                             (unsigned long long)r.n);
        make_nearly(&r.in, (uint32_t)r.n, r.pct, r.dist, input);
    } else if ((rc = cli_input_make(&r.in, (uint32_t)r.n, &input)) != 0) {
        return rc;
    }
    rc = sort_and_verify(&r, input);
    sn_free(input);
    return rc;
}
