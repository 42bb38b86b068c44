/* gpu_plan.c - what the page's WebGPU runner (src/web/page/webgpu.js) gets
 * from the C core: the schedule's layers as the GPU runs them (closed forms
 * by their parameters, explicit layers as partner rows), which runs of
 * layers stay inside a workgroup's tile, the keys, and the reference's
 * per-layer digests and final array (sn_trace_record in DIGEST mode: the
 * digest of the CLI's trace and of `sortnet gpu verify`).
 *
 * Invariants: one static plan (a page holds one); every pointer returned
 * stays valid until the next snw_gpu_plan or snw_gpu_keys call that
 * replaces what it points to. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "core/format.h"
#include "core/input.h"
#include "core/schedule.h"
#include "web/engine.h"

#define IDLE 0xFFFFFFFFu
#define MAX_END 0x80000000u /* a partner row's flag: this wire is the comparator's max end */

static struct {
    sn_schedule *s;
    uint32_t n, tile;
    size_t layers;
    uint32_t *layer;   /* SNW_GPU_LAYER_STRIDE words a layer */
    uint32_t *pass;    /* SNW_GPU_PASS_STRIDE words a pass */
    size_t passes;     /* number of passes */
    uint32_t *partner; /* explicit layers: rows of n words */
    size_t rows;
    /* keys */
    sn_key_type type;
    bool payload;
    uint32_t *input, *input_pay; /* the keys made by snw_gpu_keys */
    uint32_t *state, *state_pay; /* snw_gpu_state's, or snw_gpu_cpu_run's */
    sn_trace *trace;
    uint32_t *digests; /* (layers + 1) * 2: low, high */
    char info[512];
    char key_text[64];
    char err[1200];
} G;

static void set_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(G.err, sizeof G.err, fmt, ap);
    va_end(ap);
}

const char *snw_gpu_error(void)
{
    return G.err;
}

static void drop_keys(void)
{
    sn_trace_destroy(G.trace);
    G.trace = NULL;
    sn_free(G.input);
    sn_free(G.input_pay);
    sn_free(G.state);
    sn_free(G.state_pay);
    sn_free(G.digests);
    G.input = G.input_pay = G.state = G.state_pay = G.digests = NULL;
}

static void drop_plan(void)
{
    drop_keys();
    sn_schedule_destroy(G.s);
    sn_free(G.layer);
    sn_free(G.pass);
    sn_free(G.partner);
    G.s = NULL;
    G.layer = G.pass = G.partner = NULL;
    G.n = 0;
    G.layers = G.passes = G.rows = 0;
}

/* Is closed-form layer f local to tiles of `tile` keys (a power of two)?
 * Conservative: true only when every comparator surely stays in a tile. */
static bool closed_local(sn_layer_form f, uint32_t tile)
{
    switch (f.algo) {
    case SN_ALGO_BITONIC: /* mirror: i ^ (p - 1) inside a block of p; else i ^ q */
        return f.q == f.p / 2 ? f.p <= tile : 2 * (uint64_t)f.q <= tile;
    case SN_ALGO_ODDEVEN_MERGE: /* (i, i + q) inside a block of 2p */
        return 2 * (uint64_t)f.p <= tile;
    case SN_ALGO_TRANSPOSITION: /* (i, i + 1), i even, never crosses an even boundary */
        return (f.p & 1u) == 0;
    default: return false;
    }
}

int snw_gpu_plan(const char *net, size_t len, int is_text, uint32_t tile)
{
    G.err[0] = '\0';
    if (tile < 2 || (tile & (tile - 1)) != 0) {
        set_error("tile of %u keys: not a power of two >= 2", tile);
        return 2;
    }
    sn_diag d;
    sn_diag_clear(&d);
    sn_schedule *s = NULL;
    sn_status st;
    if (is_text) {
        sn_network *nw = NULL;
        st = sn_network_parse(net ? net : "", len, SN_FORMAT_UNKNOWN, &nw, &d);
        if (st == SN_OK)
            st = sn_schedule_from_network(nw, &s);
    } else {
        char *name = sn_malloc(len + 1);
        if (!name) {
            set_error("out of memory");
            return 3;
        }
        memcpy(name, net ? net : "", len);
        name[len] = '\0';
        st = sn_schedule_load(name, &s, &d);
        if (st != SN_OK && !d.text[0])
            snprintf(d.text, sizeof d.text, "%s: not a network name", name);
        sn_free(name);
    }
    if (st != SN_OK) {
        set_error("%s", d.text[0] ? d.text : "cannot read the network");
        return st == SN_ENOMEM ? 3 : 2;
    }
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    size_t rows = 0;
    if (!sn_algo_is_closed_form(sn_schedule_algo(s)))
        rows = L;
    if (n == 0 || (rows && (uint64_t)rows * n > ((uint64_t)1 << 26))) {
        set_error(n == 0 ? "%s: no wires"
                         : "%s: %zu layers of %u wires is over the page's 2^26 partner entries",
                  sn_schedule_name(s), rows, n);
        sn_schedule_destroy(s);
        return n == 0 ? 2 : 3;
    }
    drop_plan();
    G.s = s;
    G.n = n;
    G.tile = tile;
    G.layers = L;
    G.rows = rows;
    G.layer = sn_calloc(L + 1, SNW_GPU_LAYER_STRIDE * sizeof(uint32_t));
    G.pass = sn_calloc(L + 1, SNW_GPU_PASS_STRIDE * sizeof(uint32_t));
    G.partner = rows ? sn_malloc(rows * n * sizeof(uint32_t)) : NULL;
    sn_comparator *pairs = rows ? sn_malloc(((size_t)n / 2 + 1) * sizeof *pairs) : NULL;
    if (!G.layer || !G.pass || (rows && (!G.partner || !pairs))) {
        sn_free(pairs);
        drop_plan();
        set_error("out of memory for the plan of %u wires", n);
        return 3;
    }
    for (size_t k = 0; k < L; k++) {
        uint32_t *l = G.layer + k * SNW_GPU_LAYER_STRIDE;
        sn_layer_form f = sn_schedule_layer_form(s, k);
        bool local = n <= tile;
        if (rows) {
            uint32_t *row = G.partner + k * n;
            for (uint32_t i = 0; i < n; i++)
                row[i] = IDLE;
            size_t c = sn_schedule_layer_pairs(s, k, pairs, (size_t)n / 2 + 1);
            bool all = true;
            for (size_t j = 0; j < c; j++) {
                row[pairs[j].a] = pairs[j].b;
                row[pairs[j].b] = pairs[j].a | MAX_END;
                all = all && pairs[j].a / tile == pairs[j].b / tile;
            }
            l[0] = SNW_GPU_PARTNERS;
            l[3] = (uint32_t)k;
            local = local || all;
        } else {
            l[0] = f.algo == SN_ALGO_BITONIC         ? SNW_GPU_BITONIC
                   : f.algo == SN_ALGO_ODDEVEN_MERGE ? SNW_GPU_ODDEVEN_MERGE
                                                     : SNW_GPU_TRANSPOSITION;
            l[1] = f.p;
            l[2] = f.q;
            local = local || closed_local(f, tile);
        }
        l[4] = local;
    }
    sn_free(pairs);
    /* passes: a run of two or more tile-local layers is one fused pass */
    size_t np = 0;
    for (size_t k = 0; k < L;) {
        size_t e = k + 1;
        if (G.layer[k * SNW_GPU_LAYER_STRIDE + 4])
            while (e < L && G.layer[e * SNW_GPU_LAYER_STRIDE + 4])
                e++;
        bool fused = e - k >= 2;
        if (!fused)
            e = k + 1;
        uint32_t *p = G.pass + np * SNW_GPU_PASS_STRIDE;
        p[0] = (uint32_t)k;
        p[1] = (uint32_t)(e - k);
        p[2] = fused;
        for (size_t j = k; j < e; j++)
            G.layer[j * SNW_GPU_LAYER_STRIDE + 5] = (uint32_t)np;
        np++;
        k = e;
    }
    G.passes = np;
    return 0;
}

uint32_t snw_gpu_n(void)
{
    return G.n;
}
size_t snw_gpu_layers(void)
{
    return G.layers;
}
const uint32_t *snw_gpu_layer_table(void)
{
    return G.layer;
}
size_t snw_gpu_pass_count(void)
{
    return G.passes;
}
const uint32_t *snw_gpu_passes(void)
{
    return G.pass;
}
const uint32_t *snw_gpu_partners(void)
{
    return G.partner;
}
size_t snw_gpu_partner_rows(void)
{
    return G.rows;
}

/* "special:SEED": random f32 bits among which NaNs of both signs and
 * several payloads, +-0, +-inf, denormals and repeated values. */
static void make_special(uint32_t *keys, uint32_t n, uint64_t seed)
{
    static const uint32_t odd[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u, 0x7fffffffu,
                                   0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x00000001u,
                                   0x80000001u, 0x3f800000u, 0xbf800000u};
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 1;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t x = sn_rand_next(&r);
        if ((x & 3u) == 0)
            keys[i] = odd[(x >> 8) % (sizeof odd / sizeof odd[0])];
        else if ((x & 7u) == 1)
            keys[i] = (uint32_t)(x >> 40) & 0xffu; /* small, often repeated */
        else
            keys[i] = (uint32_t)(x >> 32);
    }
}

/* Parse the input as the page's controls say it: "random:SEED",
 * "reverse", "sorted", "bits:0110", "list:3,1,2", "special:SEED". */
static int make_keys(const char *in, size_t len, sn_key_type t, uint32_t *keys)
{
    char buf[64];
    const char *colon = memchr(in, ':', len);
    size_t head = colon ? (size_t)(colon - in) : len;
    const char *arg = colon ? colon + 1 : in + len;
    size_t arg_len = len - head - (colon ? 1 : 0);
    sn_input_spec spec = {SN_INPUT_RANDOM, 1, NULL};
    char *text = NULL;
    bool random = head == 6 && memcmp(in, "random", 6) == 0;
    bool special = head == 7 && memcmp(in, "special", 7) == 0;
    if (random || special) {
        if (arg_len >= sizeof buf) {
            set_error("input: seed too long");
            return 2;
        }
        memcpy(buf, arg, arg_len);
        buf[arg_len] = '\0';
        char *end;
        unsigned long long seed = arg_len ? strtoull(buf, &end, 10) : 1;
        if (arg_len && (*end || buf[0] == '-')) {
            set_error("input: seed '%s' is not a number", buf);
            return 2;
        }
        if (special) {
            make_special(keys, G.n, seed);
            return 0;
        }
        sn_status st = sn_input_random(keys, G.n, t, seed, 1);
        if (st != SN_OK) {
            set_error("input: out of memory for %u random keys", G.n);
            return 3;
        }
        return 0;
    }
    if (head == 7 && memcmp(in, "reverse", 7) == 0 && !colon)
        spec.kind = SN_INPUT_REVERSE;
    else if (head == 6 && memcmp(in, "sorted", 6) == 0 && !colon)
        spec.kind = SN_INPUT_SORTED;
    else if ((head == 4 && memcmp(in, "bits", 4) == 0) ||
             (head == 4 && memcmp(in, "list", 4) == 0)) {
        spec.kind = in[0] == 'b' ? SN_INPUT_BITS : SN_INPUT_LIST;
        text = sn_malloc(arg_len + 1);
        if (!text) {
            set_error("out of memory");
            return 3;
        }
        memcpy(text, arg, arg_len);
        text[arg_len] = '\0';
        spec.text = text;
    } else {
        set_error("input '%.*s': expected random:SEED, special:SEED, reverse, sorted, bits:0110 or "
                  "list:3,1,2",
                  (int)(len > 40 ? 40 : len), in);
        return 2;
    }
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_input_make(&spec, t, G.n, keys, &d);
    sn_free(text);
    if (st != SN_OK) {
        set_error("input: %s", d.text);
        return st == SN_ENOMEM ? 3 : 2;
    }
    return 0;
}

int snw_gpu_keys(const char *input, size_t len, int type, int payload)
{
    G.err[0] = '\0';
    if (!G.s) {
        set_error("no network planned");
        return 2;
    }
    if (type < 0 || type > 2) {
        set_error("key type %d: expected 0 (i32), 1 (u32) or 2 (f32)", type);
        return 2;
    }
    drop_keys();
    G.type = (sn_key_type)type;
    G.payload = payload != 0;
    size_t bytes = (size_t)G.n * sizeof(uint32_t);
    G.input = sn_malloc(bytes);
    G.input_pay = G.payload ? sn_malloc(bytes) : NULL;
    G.digests = sn_calloc(G.layers + 1, 2 * sizeof(uint32_t));
    if (!G.input || (G.payload && !G.input_pay) || !G.digests) {
        drop_keys();
        set_error("out of memory for %u keys", G.n);
        return 3;
    }
    int rc = make_keys(input ? input : "", len, G.type, G.input);
    if (rc) {
        drop_keys();
        return rc;
    }
    for (uint32_t i = 0; G.payload && i < G.n; i++)
        G.input_pay[i] = i;
    return 0;
}

const uint32_t *snw_gpu_input(void)
{
    return G.input;
}
const uint32_t *snw_gpu_input_payload(void)
{
    return G.input_pay;
}

int snw_gpu_reference(void)
{
    G.err[0] = '\0';
    if (!G.input) {
        set_error("no keys made");
        return 2;
    }
    sn_trace_destroy(G.trace);
    G.trace = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st =
        sn_trace_record(G.s, G.type, G.input, G.input_pay, SN_TRACE_DIGEST, &G.trace, &d);
    if (st != SN_OK) {
        set_error("reference: %s", d.text[0] ? d.text : "out of memory");
        return st == SN_ENOMEM ? 3 : 2;
    }
    for (size_t k = 0; k <= G.layers; k++) {
        uint64_t h = sn_trace_digest(G.trace, k);
        G.digests[2 * k] = (uint32_t)h;
        G.digests[2 * k + 1] = (uint32_t)(h >> 32);
    }
    return 0;
}

const uint32_t *snw_gpu_digests(void)
{
    return G.trace ? G.digests : NULL;
}
const uint32_t *snw_gpu_final(void)
{
    return G.trace ? sn_trace_state(G.trace, G.layers) : NULL;
}
const uint32_t *snw_gpu_final_payload(void)
{
    return G.trace ? sn_trace_payload(G.trace, G.layers) : NULL;
}

/* A working copy of the input (and payload) into G.state; 0 ok. */
static int fresh_state(void)
{
    size_t bytes = (size_t)G.n * sizeof(uint32_t);
    if (!G.state)
        G.state = sn_malloc(bytes);
    if (G.payload && !G.state_pay)
        G.state_pay = sn_malloc(bytes);
    if (!G.state || (G.payload && !G.state_pay)) {
        set_error("out of memory for %u keys", G.n);
        return 3;
    }
    memcpy(G.state, G.input, bytes);
    if (G.payload)
        memcpy(G.state_pay, G.input_pay, bytes);
    return 0;
}

const uint32_t *snw_gpu_state(size_t step)
{
    G.err[0] = '\0';
    if (!G.input || step > G.layers) {
        set_error(G.input ? "step %zu: the network has %zu layers" : "no keys made", step,
                  G.layers);
        return NULL;
    }
    if (fresh_state())
        return NULL;
    for (size_t k = 0; k < step; k++)
        sn_exec_layer(G.s, k, G.type, G.state, G.state_pay, NULL);
    return G.state;
}
const uint32_t *snw_gpu_state_payload(void)
{
    return G.payload ? G.state_pay : NULL;
}

int snw_gpu_cpu_run(void)
{
    G.err[0] = '\0';
    if (!G.input) {
        set_error("no keys made");
        return 2;
    }
    int rc = fresh_state();
    if (rc == 0)
        sn_exec_run(G.s, G.type, G.state, G.state_pay);
    return rc;
}

const char *snw_gpu_key_text(uint32_t bits)
{
    sn_key_format(G.type, bits, G.key_text, sizeof G.key_text);
    return G.key_text;
}

const char *snw_gpu_info(void)
{
    size_t fused = 0, fused_layers = 0;
    for (size_t i = 0; i < G.passes; i++)
        if (G.pass[i * SNW_GPU_PASS_STRIDE + 2]) {
            fused++;
            fused_layers += G.pass[i * SNW_GPU_PASS_STRIDE + 1];
        }
    /* counting a closed form's comparators is O(n * layers): not at 2^24 */
    long long size =
        G.s && (G.rows || G.n <= ((uint32_t)1 << 16)) ? (long long)sn_schedule_size(G.s) : -1;
    char name[200];
    const char *nm = G.s ? sn_schedule_name(G.s) : "";
    size_t j = 0;
    for (; nm[j] && j + 1 < sizeof name; j++) /* JSON-safe: the name may come from a file */
        name[j] = (nm[j] == '"' || nm[j] == '\\' || (unsigned char)nm[j] < 0x20) ? '_' : nm[j];
    name[j] = '\0';
    snprintf(G.info, sizeof G.info,
             "{\"name\":\"%s\",\"n\":%u,\"layers\":%zu,\"size\":%lld,\"passes\":%zu,"
             "\"fused_passes\":%zu,\"fused_layers\":%zu,\"tile\":%u,\"partner_rows\":%zu,"
             "\"type\":\"%s\",\"payload\":%s}",
             name, G.n, G.layers, size, G.passes, fused, fused_layers, G.tile, G.rows,
             sn_key_type_name(G.type), G.payload ? "true" : "false");
    return G.info;
}
