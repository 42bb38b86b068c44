/* test_oom.c - out of memory at every allocation (as SQLite's OOM tests,
 * issue 36): each call below runs again and again with its 1st, 2nd, 3rd
 * ... allocation failing until a run completes. Every run that met a
 * failure ends in SN_ENOMEM (or a status the call documents for it), hands
 * out nothing, and leaks nothing (sn_alloc_live is back where it was); no
 * run crashes. The readers (bracket, JSON, sn, the library, generators,
 * key files), the executor (traces), the checker (every method, one
 * thread, so the allocations come in one order), the 0-1 profile, every
 * transform, the standard form, the mergers and constructions, and the
 * writers. The layout's loop is in test_layout. */
#define _GNU_SOURCE /* for: open_memstream */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/check.h"
#include "core/construct.h"
#include "core/exec.h"
#include "core/format.h"
#include "core/input.h"
#include "core/schedule.h"
#include "core/structure.h"
#include "core/transform.h"
#include "sn_test.h"

/* One call under test: returns its status and frees what it made on
 * success (the loop checks that nothing is left either way). */
typedef sn_status (*op_fn)(const void *arg, sn_diag *d);

/* Fail allocation 1, 2, ... of op(arg) until a run makes no more
 * allocations than the countdown (it met no failure). Returns how many
 * allocations a whole run makes. */
static size_t every_allocation(const char *name, op_fn op, const void *arg)
{
    size_t base = sn_alloc_live();
    for (size_t k = 1; k < 100000; k++) {
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = op(arg, &d);
        size_t made = sn_alloc_fail_after(0);
        size_t live = sn_alloc_live();
        CHECKF(live == base, "%s, allocation %zu failing: %zu block(s) leaked", name, k,
               live - base);
        if (made < k) { /* no allocation failed: the run must succeed */
            CHECKF(st == SN_OK, "%s: %s (%s) with no failure", name, sn_status_str(st), d.text);
            printf("%s: %zu allocations, each failed once\n", name, made);
            return made;
        }
        /* (an empty message is fine: the CLI then says sn_status_str's) */
        CHECKF(st == SN_ENOMEM, "%s, allocation %zu failing: %s: %s", name, k, sn_status_str(st),
               d.text);
    }
    CHECKF(0, "%s: the loop did not end", name);
    return 0;
}

/* ---- the readers */

static sn_status parse_text(const void *arg, sn_diag *d)
{
    const char *text = arg;
    sn_network *net = NULL;
    sn_status st = sn_network_parse(text, strlen(text), SN_FORMAT_UNKNOWN, &net, d);
    CHECK((st == SN_OK) == (net != NULL));
    sn_network_destroy(net);
    return st;
}

static sn_status load_spec(const void *arg, sn_diag *d)
{
    sn_schedule *s = NULL;
    sn_status st = sn_schedule_load(arg, &s, d);
    CHECK((st == SN_OK) == (s != NULL));
    sn_schedule_destroy(s);
    return st;
}

static sn_status keys_text(const void *arg, sn_diag *d)
{
    const char *text = arg;
    uint32_t *keys = NULL;
    size_t count = 0;
    sn_status st = sn_keys_parse("k.txt", text, strlen(text), SN_KEY_I32, false, &keys, &count, d);
    sn_free(keys);
    return st;
}

/* ---- the executor, the checker, analyses on a network */

/* The input is made before the countdown starts (prepare): only the call
 * under test meets the failures. */
typedef struct net_arg {
    const char *spec;
    sn_trace_mode mode;
    sn_check_method method;
    sn_schedule *s;
    sn_network *net;
} net_arg;

static sn_schedule *schedule_of(const char *spec)
{
    sn_schedule *s = NULL;
    sn_diag d;
    if (sn_schedule_load(spec, &s, &d) != SN_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.text);
        return NULL;
    }
    return s;
}

static sn_network *network_of(const char *spec)
{
    sn_schedule *s = schedule_of(spec);
    sn_network *net = NULL;
    sn_diag d;
    if (s && sn_schedule_to_network(s, &net, &d) != SN_OK)
        net = NULL;
    sn_schedule_destroy(s);
    return net;
}

static void prepare(net_arg *a)
{
    a->s = schedule_of(a->spec);
    a->net = network_of(a->spec);
    CHECKF(a->s && a->net, "%s", a->spec);
}

static void release(net_arg *a)
{
    sn_schedule_destroy(a->s);
    sn_network_destroy(a->net);
    a->s = NULL;
    a->net = NULL;
}

static sn_status trace(const void *arg, sn_diag *d)
{
    const net_arg *a = arg;
    const sn_schedule *s = a->s;
    uint32_t n = sn_schedule_wires(s), keys[64], payload[64];
    for (uint32_t i = 0; i < n; i++) {
        keys[i] = (n - i) * 7919u % 101u;
        payload[i] = i;
    }
    sn_trace *tr = NULL;
    sn_status st = sn_trace_record(s, SN_KEY_U32, keys, payload, a->mode, &tr, d);
    CHECK((st == SN_OK) == (tr != NULL));
    sn_trace_destroy(tr);
    return st;
}

static sn_status check(const void *arg, sn_diag *d)
{
    const net_arg *a = arg;
    const sn_network *net = a->net;
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.threads = 1;
    opt.method = a->method;
    sn_check_result res;
    memset(&res, 0, sizeof res);
    sn_status st = sn_check_run(net, &opt, &res, d);
    if (st == SN_OK)
        sn_check_result_free(&res);
    return st;
}

static sn_status zero_one(const void *arg, sn_diag *d)
{
    const sn_schedule *s = ((const net_arg *)arg)->s;
    sn_zero_one zo;
    memset(&zo, 0, sizeof zo);
    sn_status st = sn_zero_one_profile(s, 24, 1, &zo, d);
    sn_zero_one_free(&zo);
    return st;
}

static sn_status blocks(const void *arg, sn_diag *d)
{
    const sn_schedule *s = ((const net_arg *)arg)->s;
    sn_block *b = NULL;
    size_t count = 0;
    sn_status st = sn_structure_blocks(s, &b, &count, d);
    sn_free(b);
    return st;
}

static sn_status prune(const void *arg, sn_diag *d)
{
    const sn_network *net = ((const net_arg *)arg)->net;
    sn_network *out = NULL;
    size_t removed = 0;
    sn_status st = sn_transform_prune(net, &out, &removed, d);
    sn_network_destroy(out);
    return st;
}

/* ---- the other transforms, the standard form and the constructors */

static sn_status transform_all(const void *arg, sn_diag *d)
{
    const sn_network *net = ((const net_arg *)arg)->net;
    uint32_t n = sn_network_wires(net);
    sn_network *out = NULL;
    sn_status st = sn_transform_reflect(net, &out, d);
    sn_network_destroy(out);
    out = NULL;
    if (st == SN_OK)
        st = sn_transform_cut(net, n / 2, true, &out, d);
    sn_network_destroy(out);
    out = NULL;
    if (st == SN_OK)
        st = sn_transform_concat(net, net, &out, d);
    sn_network_destroy(out);
    out = NULL;
    uint32_t perm[64];
    for (uint32_t i = 0; i < n && i < 64; i++)
        perm[i] = n - 1 - i;
    if (st == SN_OK)
        st = sn_transform_permute(net, perm, &out, d);
    sn_network_destroy(out);
    out = NULL;
    if (st == SN_OK)
        st = sn_transform_compact(net, &out, d);
    sn_network_destroy(out);
    out = NULL;
    if (st == SN_OK)
        st = sn_network_to_standard(net, &out);
    sn_network_destroy(out);
    return st;
}

static sn_status construct_all(const void *arg, sn_diag *d)
{
    (void)arg;
    sn_network *out = NULL;
    sn_status st = sn_construct_merge(3, 5, &out, d);
    sn_network_destroy(out);
    out = NULL;
    if (st == SN_OK)
        st = sn_construct_bitonic_merge(6, &out, d);
    sn_network_destroy(out);
    out = NULL;
    if (st == SN_OK)
        st = sn_construct_half_cleaner(6, &out, d);
    sn_network_destroy(out);
    static const sn_algo algos[] = {SN_ALGO_ODDEVEN_SPLIT,  SN_ALGO_BITONIC_SPLIT,
                                    SN_ALGO_BOSE_NELSON,    SN_ALGO_HIBBARD,
                                    SN_ALGO_MERGE_EXCHANGE, SN_ALGO_BALANCED};
    for (size_t i = 0; st == SN_OK && i < sizeof algos / sizeof algos[0]; i++) {
        sn_network *net = sn_network_create(7);
        st = net ? sn_construct_sort(algos[i], net, d) : SN_ENOMEM;
        sn_network_destroy(net);
    }
    return st;
}

/* ---- the writers */

typedef struct write_arg {
    net_arg net;
    sn_format format;
} write_arg;

static sn_status write_net(const void *arg, sn_diag *d)
{
    const write_arg *a = arg;
    const sn_network *net = a->net.net;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    sn_status st = m ? sn_network_write(net, a->format, m, d) : SN_EIO;
    if (m)
        fclose(m);
    free(buf); /* open_memstream's, not the hook's */
    return st;
}

int main(void)
{
    static const char *const texts[] = {
        "[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n",
        "[(0,1),(2,3)] [(0,2),(1,3)]\n\n[(1,2)]\n",
        "Inputs: 4\n\n0 1\n2 3\n\n0 2\n1 3\n\n1 2\n",
        "{\"N\": 4, \"L\": 5, \"D\": 3, \"nw\": [[[0,1],[2,3]],[[0,2],[1,3]],[[1,2]]]}\n",
        "{\"N\": 4, \"nw\": [[0,1],[2,3],[0,2],[1,3],[1,2]]}\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (i >= 3 && !sn_format_have_json())
            break;
        char name[32];
        snprintf(name, sizeof name, "parse text %zu", i);
        every_allocation(name, parse_text, texts[i]);
    }
    static const char *const specs[] = {
        "bitonic:16",     "oddeven-merge:12", "pairwise:9",        "bubble:6",
        "best:16",        "best-depth:10",    "merge:4,4",         "bitonic-merge:8",
        "half-cleaner:8", "empty:4",          "bitonic-classic:8",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        every_allocation(specs[i], load_spec, specs[i]);
    const char *dir = sn_test_networks_dir();
    if (dir) {
        static const char *const files[] = {"best/Sort_10_29_8.json", "sn/10i-09s-29c-0.sn"};
        for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, files[i]);
            FILE *f = fopen(path, "rb");
            if (!f)
                continue; /* the file names differ: the texts above cover it */
            fclose(f);
            if (strstr(path, ".json") && !sn_format_have_json())
                continue;
            every_allocation(files[i], load_spec, path);
        }
    }
    every_allocation("keys", keys_text, "5, 1 4\n# a comment\n2 3\n");

    net_arg traces[] = {
        {"bitonic:16", SN_TRACE_FULL, 0, NULL, NULL},
        {"bitonic:16", SN_TRACE_DIGEST, 0, NULL, NULL},
        {"best:10", SN_TRACE_FULL, 0, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        prepare(&traces[i]);
        every_allocation(traces[i].spec, trace, &traces[i]);
        release(&traces[i]);
    }

    net_arg checks[] = {
        {"bitonic:8", 0, SN_CHECK_AUTO, NULL, NULL},
        {"bubble:6", 0, SN_CHECK_BRUTEFORCE, NULL, NULL},
        {"best:12", 0, SN_CHECK_REDUCE, NULL, NULL},
        {"oddeven-merge:16", 0, SN_CHECK_AUTO, NULL, NULL},
        {"empty:5", 0, SN_CHECK_AUTO, NULL, NULL},
        {"bitonic:32", 0, SN_CHECK_SPLIT, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        char name[64];
        snprintf(name, sizeof name, "check %s (method %d)", checks[i].spec, (int)checks[i].method);
        prepare(&checks[i]);
        every_allocation(name, check, &checks[i]);
        release(&checks[i]);
    }
    net_arg other[] = {{"bitonic:8", 0, 0, NULL, NULL},
                       {"bitonic:16", 0, 0, NULL, NULL},
                       {"bubble:6", 0, 0, NULL, NULL}};
    for (size_t i = 0; i < 3; i++)
        prepare(&other[i]);
    every_allocation("0-1 profile", zero_one, &other[0]);
    every_allocation("structure blocks", blocks, &other[1]);
    every_allocation("prune", prune, &other[2]);
    every_allocation("reflect, cut, concat, permute, compact, standard form", transform_all,
                     &other[0]);
    every_allocation("reflect, cut, concat, permute, compact, standard form (bubble)",
                     transform_all, &other[2]);
    every_allocation("the mergers and explicit constructions", construct_all, NULL);
    for (size_t i = 0; i < 3; i++)
        release(&other[i]);
    write_arg writes[] = {
        {{"best:10", 0, 0, NULL, NULL}, SN_FORMAT_BRACKET},
        {{"best:10", 0, 0, NULL, NULL}, SN_FORMAT_SN},
        {{"best:10", 0, 0, NULL, NULL}, SN_FORMAT_JSON},
        {{"bubble:5", 0, 0, NULL, NULL}, SN_FORMAT_JSON},
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        if (writes[i].format == SN_FORMAT_JSON && !sn_format_have_json())
            continue;
        char name[64];
        snprintf(name, sizeof name, "write %s as %s", writes[i].net.spec,
                 sn_format_name(writes[i].format));
        prepare(&writes[i].net);
        every_allocation(name, write_net, &writes[i]);
        release(&writes[i].net);
    }
    return sn_test_finish("test_oom");
}
