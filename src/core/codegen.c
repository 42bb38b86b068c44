/* codegen.c - a network as straight-line C99 or OpenCL C (see codegen.h).
 *
 * Invariant of the output: the comparators appear in the network's own
 * order, layer by layer, each as one SN_CX / SN_CXP line on the variables
 * of its two wires, so the code does exactly what sn_exec_run does; the
 * only other statements load the keys into x0..x(n-1) (f32: as ordered
 * keys) and store them back. Written here by hand because no library turns
 * a comparator list into code. */
#include "core/codegen.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

/* ---- a growable string */

typedef struct cg_buf {
    char *s;
    size_t len, cap;
    bool oom;
} cg_buf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
add(cg_buf *b, const char *fmt, ...)
{
    while (!b->oom) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = true;
            return;
        }
        if (b->s && b->len + (size_t)k < b->cap) {
            b->len += (size_t)k;
            return;
        }
        size_t nc = (b->cap ? b->cap * 2 : 8192) + (size_t)k;
        char *ns = sn_realloc(b->s, nc);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
}

/* ---- names */

const char *sn_codegen_lang_name(sn_codegen_lang l)
{
    return l == SN_CODEGEN_OPENCL ? "opencl" : "c";
}

bool sn_codegen_lang_parse(const char *s, sn_codegen_lang *out)
{
    if (!s)
        return false;
    if (strcmp(s, "c") == 0 || strcmp(s, "C") == 0) {
        *out = SN_CODEGEN_C;
        return true;
    }
    if (strcmp(s, "opencl") == 0 || strcmp(s, "cl") == 0) {
        *out = SN_CODEGEN_OPENCL;
        return true;
    }
    return false;
}

void sn_codegen_opts_init(sn_codegen_opts *o)
{
    memset(o, 0, sizeof *o);
}

static const char *label_of(const sn_network *net, const sn_codegen_opts *o)
{
    const char *l = o->label ? o->label : sn_network_name(net);
    return l && *l ? l : "network";
}

static bool is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* "best:16" -> "best", "dir/my-net.json" -> "my_net": the file's base name
 * without extension, or a generator's name, as an identifier part. */
static void stem_of(const char *label, char *out, size_t cap)
{
    const char *base = strrchr(label, '/');
    base = base ? base + 1 : label;
    size_t len = strcspn(base, ":");
    const char *dot = strrchr(base, '.');
    if (dot && dot > base && (size_t)(dot - base) < len)
        len = (size_t)(dot - base);
    size_t k = 0;
    for (size_t i = 0; i < len && k + 1 < cap; i++) {
        unsigned char c = (unsigned char)base[i];
        out[k++] = isalnum(c) ? (char)tolower(c) : '_';
    }
    out[k] = '\0';
    if (k == 0)
        snprintf(out, cap, "net");
}

sn_status sn_codegen_name(const sn_network *net, const sn_codegen_opts *o, char *buf, size_t cap,
                          sn_diag *diag)
{
    int k;
    if (o->name) {
        if (!is_identifier(o->name))
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "'%s' is not a C identifier (letters, digits, _)", o->name);
        k = snprintf(buf, cap, "%s", o->name);
    } else {
        char stem[64];
        stem_of(label_of(net, o), stem, sizeof stem);
        static const char *const suffix[] = {"", "_u32", "_f32"};
        k = snprintf(buf, cap, "sort%u_%s%s%s", sn_network_wires(net), stem, suffix[o->type],
                     o->payload ? "_kv" : "");
    }
    if (k < 0 || (size_t)k >= cap)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "function name too long");
    return SN_OK;
}

/* The local tile's row stride: odd, so that work-items reading their own
 * rows hit distinct local memory banks. */
static unsigned tile_stride(uint32_t n)
{
    return n | 1u;
}

unsigned sn_codegen_rows_wg(const sn_network *net, const sn_codegen_opts *o)
{
    if (o->wg)
        return o->wg;
    uint64_t row = (uint64_t)tile_stride(sn_network_wires(net)) * 4;
    unsigned wg = 256;
    while (wg > 1 && wg * row > 20480)
        wg /= 2;
    return wg;
}

/* ---- pieces shared by both languages */

typedef struct cg_ctx {
    cg_buf b;
    const sn_network *net;
    const sn_codegen_opts *o;
    uint32_t n;
    bool cl;
    const char *fn; /* function name */
    const char *kt; /* key type in memory: int32_t / int / float ... */
    const char *rt; /* register type: the key type, or the ordered key for f32 */
    const char *pt; /* payload type */
} cg_ctx;

static void emit_header(cg_ctx *c)
{
    const sn_codegen_opts *o = c->o;
    size_t L = sn_network_layer_count(c->net), size = sn_network_size(c->net);
    add(&c->b, "/* %s - sorting network %s as %s, generated by %s.\n", c->fn, label_of(c->net, o),
        c->cl ? "OpenCL C" : "C99", o->generator ? o->generator : "sortnet");
    add(&c->b, " *\n * n = %u wire%s, size = %zu comparator%s, depth = %zu layer%s.\n", c->n,
        c->n == 1 ? "" : "s", size, size == 1 ? "" : "s", L, L == 1 ? "" : "s");
    switch (o->proof) {
    case SN_PROOF_SORTS:
        add(&c->b, " * Proved to sort every input by sortnet's exhaustive 0-1 checker");
        break;
    case SN_PROOF_FAILS:
        add(&c->b, " * DOES NOT SORT: sortnet's 0-1 checker found an input it leaves unsorted");
        break;
    default: add(&c->b, " * Not checked: this network's sorting was not proved"); break;
    }
    add(&c->b, o->proof_note ? "\n *   (%s).\n" : ".\n", o->proof_note ? o->proof_note : "");
    add(&c->b,
        " *\n * Keys: %s, ascending (wire 0 receives the smallest)%s.\n"
        " * Comparator (a, b) leaves the minimum on wire a and the maximum on wire b\n"
        " * and swaps only when wire a's key is strictly greater, so equal keys never\n"
        " * move: the same result, bit for bit, as sortnet's reference executor.%s\n",
        c->kt,
        o->type == SN_KEY_F32 ? " in IEEE 754 totalOrder:\n * -NaN < -inf < ... < -0.0 < +0.0 < "
                                "... < +inf < +NaN (compared as ordered bit patterns)"
                              : "",
        o->payload ? "\n * Each payload value (uint32_t) travels with its key." : "");
    if (c->cl)
        add(&c->b,
            " *\n * %s(v): one array in private memory.\n"
            " * %s_rows(keys, %sm): m arrays one after another (array a's wire w at\n"
            " *   keys[a * %u + w]); local size exactly %s_WG, global size m rounded\n"
            " *   up to a multiple of it.\n"
            " * %s_columns(keys, %sm): m arrays interleaved (array a's wire w at\n"
            " *   keys[w * m + a]); any local size, global size >= m.\n",
            c->fn, c->fn, o->payload ? "pay, " : "", c->n, c->fn, c->fn, o->payload ? "pay, " : "");
    add(&c->b, " */\n");
}

static void emit_macros(cg_ctx *c)
{
    const char *minmax = c->cl ? "const T sn_lo = min(a, b); (b) = max(a, b); (a) = sn_lo;"
                               : "const T sn_lo = (b) < (a) ? (b) : (a); "
                                 "(b) = (b) < (a) ? (a) : (b); (a) = sn_lo;";
    add(&c->b,
        "\n/* compare-exchange of variables a, b of type T: the minimum to a, the maximum\n"
        " * to b (min/max pairs, no branches) */\n"
        "#ifndef SN_CX\n#define SN_CX(T, a, b) do { %s } while (0)\n#endif\n",
        minmax);
    if (c->o->payload)
        add(&c->b,
            "/* ... moving payloads pa, pb along; a swap happens only when a > b */\n"
            "#ifndef SN_CXP\n"
            "#define SN_CXP(T, a, b, pa, pb) do { const int sn_s = (b) < (a); \\\n"
            "    const T sn_k = sn_s ? (b) : (a); const %s sn_p = sn_s ? (pb) : (pa); \\\n"
            "    (b) = sn_s ? (a) : (b); (pb) = sn_s ? (pa) : (pb); (a) = sn_k; (pa) = sn_p; \\\n"
            "    } while (0)\n#endif\n",
            c->pt);
    if (c->o->type != SN_KEY_F32)
        return;
    /* the bijection of sn_key_to_ordered, without branches */
    add(&c->b, "/* f32 bits <-> ordered keys whose unsigned order is totalOrder */\n");
    if (c->cl) {
        add(&c->b, "#ifndef SN_ORD\n#define SN_ORD(b) ((b) ^ ((0u - ((b) >> 31)) | 0x80000000u))\n"
                   "#define SN_UNORD(o) ((o) ^ ((((o) >> 31) - 1u) | 0x80000000u))\n#endif\n");
    } else {
        add(&c->b, "#ifndef SN_F32_ORDERED\n#define SN_F32_ORDERED\n"
                   "static inline uint32_t sn_f32_ord(float f)\n{\n"
                   "    uint32_t b;\n    memcpy(&b, &f, sizeof b);\n"
                   "    return b ^ ((0u - (b >> 31)) | 0x80000000u);\n}\n"
                   "static inline float sn_f32_unord(uint32_t o)\n{\n"
                   "    uint32_t b = o ^ (((o >> 31) - 1u) | 0x80000000u);\n    float f;\n"
                   "    memcpy(&f, &b, sizeof f);\n    return f;\n}\n#endif\n");
    }
}

/* Load x<w> (and p<w>) from `src` (an expression with %u for the wire) as
 * raw key bits or typed keys; `raw` says the source already holds uint bits
 * (OpenCL f32 tiles). */
static void emit_loads(cg_ctx *c, const char *ind, const char *kfmt, const char *pfmt, bool raw)
{
    bool f32 = c->o->type == SN_KEY_F32;
    for (uint32_t w = 0; w < c->n; w++) {
        char src[128];
        snprintf(src, sizeof src, kfmt, w);
        if (!f32)
            add(&c->b, "%s%s x%u = %s;\n", ind, c->rt, w, src);
        else if (c->cl)
            add(&c->b, "%s%s x%u = SN_ORD(%s%s%s);\n", ind, c->rt, w, raw ? "" : "as_uint(", src,
                raw ? "" : ")");
        else
            add(&c->b, "%s%s x%u = sn_f32_ord(%s);\n", ind, c->rt, w, src);
        if (c->o->payload) {
            snprintf(src, sizeof src, pfmt, w);
            add(&c->b, "%s%s p%u = %s;\n", ind, c->pt, w, src);
        }
    }
}

static void emit_stores(cg_ctx *c, const char *ind, const char *kfmt, const char *pfmt, bool raw)
{
    bool f32 = c->o->type == SN_KEY_F32;
    for (uint32_t w = 0; w < c->n; w++) {
        char dst[128];
        snprintf(dst, sizeof dst, kfmt, w);
        if (!f32)
            add(&c->b, "%s%s = x%u;\n", ind, dst, w);
        else if (c->cl)
            add(&c->b, "%s%s = %sSN_UNORD(x%u)%s;\n", ind, dst, raw ? "" : "as_float(", w,
                raw ? "" : ")");
        else
            add(&c->b, "%s%s = sn_f32_unord(x%u);\n", ind, dst, w);
        if (c->o->payload) {
            snprintf(dst, sizeof dst, pfmt, w);
            add(&c->b, "%s%s = p%u;\n", ind, dst, w);
        }
    }
}

/* The network itself: one line per comparator, a comment per layer. */
static void emit_network(cg_ctx *c, const char *ind)
{
    size_t L = sn_network_layer_count(c->net);
    for (size_t k = 0; k < L; k++) {
        size_t cnt;
        const sn_comparator *cm = sn_network_layer(c->net, k, &cnt);
        add(&c->b, "%s/* layer %zu: %zu comparator%s */\n", ind, k + 1, cnt, cnt == 1 ? "" : "s");
        for (size_t i = 0; i < cnt; i++) {
            uint32_t a = cm[i].a, b = cm[i].b;
            if (c->o->payload)
                add(&c->b, "%sSN_CXP(%s, x%u, x%u, p%u, p%u);\n", ind, c->rt, a, b, a, b);
            else
                add(&c->b, "%sSN_CX(%s, x%u, x%u);\n", ind, c->rt, a, b);
        }
    }
}

/* In the kernels: the network F_REPEAT times (1 unless defined at build
 * time), a benchmarking knob that times the network's own cost apart from
 * the memory traffic (sortnet gpu bench --variant batch). */
static void emit_repeated_network(cg_ctx *c, const char *ind)
{
    add(&c->b, "%sfor (uint sn_r = 0; sn_r < %s_REPEAT; sn_r++) {\n", ind, c->fn);
    char in2[32];
    snprintf(in2, sizeof in2, "%s    ", ind);
    emit_network(c, in2);
    add(&c->b, "%s}\n", ind);
}

/* The one-array function, in either language. */
static void emit_function(cg_ctx *c)
{
    char params[96];
    snprintf(params, sizeof params, "%s *v%s%s%s", c->kt, c->o->payload ? ", " : "",
             c->o->payload ? c->pt : "", c->o->payload ? " *p" : "");
    /* a prototype first, for builds with -Wmissing-prototypes */
    add(&c->b, "\nvoid %s(%s);\nvoid %s(%s)\n{\n", c->fn, params, c->fn, params);
    emit_loads(c, "    ", "v[%u]", "p[%u]", false);
    emit_network(c, "    ");
    emit_stores(c, "    ", "v[%u]", "p[%u]", false);
    add(&c->b, "}\n");
}

/* Kernel parameters: keys, payload, m. */
static void emit_params(cg_ctx *c)
{
    add(&c->b, "(__global %s *keys, %sconst uint m)\n{\n", c->kt,
        c->o->payload ? "__global uint *pay, " : "");
}

static void emit_rows_copy(cg_ctx *c, bool load)
{
    unsigned S = tile_stride(c->n);
    const char *conv = "";
    if (c->o->type == SN_KEY_F32)
        conv = load ? "as_uint" : "as_float";
    /* full groups: a loop of constant trip count, unrolled, so that each
     * work-item has all its loads in flight at once; the last group: a
     * plain loop over the words it has */
    add(&c->b,
        "    if (words == %s_WG * %uu) {\n        #pragma unroll\n"
        "        for (uint j = 0; j < %uu; j++) {\n"
        "            const uint i = t + j * %s_WG;\n",
        c->fn, c->n, c->n, c->fn);
    for (int full = 1; full >= 0; full--) {
        const char *ind = "        ";
        if (!full)
            add(&c->b,
                "        }\n    } else {\n        for (uint i = t; i < words; i += %s_WG) {\n",
                c->fn);
        if (load) {
            add(&c->b, "%s    sn_kt[i / %uu * %uu + i %% %uu] = %s(gk[i]);\n", ind, c->n, S, c->n,
                conv);
            if (c->o->payload)
                add(&c->b, "%s    sn_pt[i / %uu * %uu + i %% %uu] = gp[i];\n", ind, c->n, S, c->n);
        } else {
            add(&c->b, "%s    gk[i] = %s(sn_kt[i / %uu * %uu + i %% %uu]);\n", ind, conv, c->n, S,
                c->n);
            if (c->o->payload)
                add(&c->b, "%s    gp[i] = sn_pt[i / %uu * %uu + i %% %uu];\n", ind, c->n, S, c->n);
        }
    }
    add(&c->b, "        }\n    }\n");
}

static void emit_rows_kernel(cg_ctx *c)
{
    unsigned S = tile_stride(c->n);
    const char *tt = c->o->type == SN_KEY_F32 ? "uint" : c->kt; /* tile type: raw bits for f32 */
    add(&c->b,
        "\n/* m arrays one after another. A work-group's arrays are one contiguous block:\n"
        " * it is loaded into local memory with consecutive work-items reading\n"
        " * consecutive words (coalesced), each work-item sorts its own row in\n"
        " * registers (rows %u words apart, an odd stride, so no bank conflicts), and\n"
        " * the block is stored back the same coalesced way. */\n"
        "#ifndef %s_WG\n#define %s_WG %u\n#endif\n"
        "__kernel __attribute__((reqd_work_group_size(%s_WG, 1, 1)))\nvoid %s_rows",
        S, c->fn, c->fn, sn_codegen_rows_wg(c->net, c->o), c->fn, c->fn);
    emit_params(c);
    add(&c->b, "    __local %s sn_kt[%s_WG * %uu];\n", tt, c->fn, S);
    if (c->o->payload)
        add(&c->b, "    __local uint sn_pt[%s_WG * %uu];\n", c->fn, S);
    add(&c->b,
        "    const size_t first = get_group_id(0) * (size_t)%s_WG; /* its first array */\n"
        "    const uint t = (uint)get_local_id(0);\n"
        "    const size_t left = first < m ? (size_t)m - first : 0;\n"
        "    const uint words = (uint)(left < %s_WG ? left : %s_WG) * %uu;\n"
        "    __global %s *gk = keys + first * %uu;\n",
        c->fn, c->fn, c->fn, c->n, c->kt, c->n);
    if (c->o->payload)
        add(&c->b, "    __global uint *gp = pay + first * %uu;\n", c->n);
    emit_rows_copy(c, true);
    add(&c->b, "    barrier(CLK_LOCAL_MEM_FENCE);\n    if (first + t < m) {\n");
    char kf[64], pf[64];
    snprintf(kf, sizeof kf, "sn_kt[t * %uu + %%u]", S);
    snprintf(pf, sizeof pf, "sn_pt[t * %uu + %%u]", S);
    emit_loads(c, "        ", kf, pf, true);
    emit_repeated_network(c, "        ");
    emit_stores(c, "        ", kf, pf, true);
    add(&c->b, "    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n");
    emit_rows_copy(c, false);
    add(&c->b, "}\n");
}

static void emit_columns_kernel(cg_ctx *c)
{
    add(&c->b,
        "\n/* m arrays interleaved: work-item a reads keys[w * m + a], so neighbouring\n"
        " * work-items read neighbouring words (coalesced) for every wire w. */\n"
        "__kernel void %s_columns",
        c->fn);
    emit_params(c);
    add(&c->b,
        "    const size_t a = get_global_id(0);\n    if (a >= m)\n        return;\n"
        "    __global %s *k = keys + a;\n",
        c->kt);
    if (c->o->payload)
        add(&c->b, "    __global uint *q = pay + a;\n");
    emit_loads(c, "    ", "k[(size_t)%uu * m]", "q[(size_t)%uu * m]", false);
    emit_repeated_network(c, "    ");
    emit_stores(c, "    ", "k[(size_t)%uu * m]", "q[(size_t)%uu * m]", false);
    add(&c->b, "}\n");
}

sn_status sn_codegen(const sn_network *net, const sn_codegen_opts *o, char **out, size_t *len,
                     sn_diag *diag)
{
    *out = NULL;
    if (len)
        *len = 0;
    uint32_t n = sn_network_wires(net);
    if (n == 0)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "a network with no wires has nothing to sort");
    if (sn_network_size(net) > SN_CODEGEN_MAX_COMPARATORS)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%zu comparators: straight-line code is limited to %zu",
                           sn_network_size(net), SN_CODEGEN_MAX_COMPARATORS);
    char fn[160];
    sn_status st = sn_codegen_name(net, o, fn, sizeof fn, diag);
    if (st != SN_OK)
        return st;
    static const char *const c_types[] = {"int32_t", "uint32_t", "float"};
    static const char *const cl_types[] = {"int", "uint", "float"};
    cg_ctx c = {{NULL, 0, 0, false}, net, o, n, o->lang == SN_CODEGEN_OPENCL, fn, NULL, NULL, NULL};
    c.kt = c.cl ? cl_types[o->type] : c_types[o->type];
    c.rt = o->type == SN_KEY_F32 ? (c.cl ? "uint" : "uint32_t") : c.kt;
    c.pt = c.cl ? "uint" : "uint32_t";
    emit_header(&c);
    if (!c.cl)
        add(&c.b, "#include <stdint.h>\n%s", o->type == SN_KEY_F32 ? "#include <string.h>\n" : "");
    emit_macros(&c);
    if (c.cl)
        add(&c.b,
            "\n/* %s_N: the wires of this network.\n"
            " * %s_REPEAT: how many times the kernels apply it (1; a benchmarking\n"
            " * knob: 17 adds 16 networks' time, as sorting again changes nothing) */\n"
            "#define %s_N %u\n#ifndef %s_REPEAT\n#define %s_REPEAT 1\n#endif\n",
            fn, fn, fn, n, fn, fn);
    emit_function(&c);
    if (c.cl) {
        emit_rows_kernel(&c);
        emit_columns_kernel(&c);
    }
    if (c.b.oom || !c.b.s) {
        sn_free(c.b.s);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the generated code");
    }
    *out = c.b.s;
    if (len)
        *len = c.b.len;
    return SN_OK;
}
