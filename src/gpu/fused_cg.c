/* fused_cg.c - compiles a fused plan into straight-line OpenCL C: one
 * kernel per tile pass, with every descriptor word of the pass written in
 * as a literal.
 *
 * The interpreting kernel (sn_fused_pass in kernels/fused.cl) reads the
 * same descriptor at run time: its loops over bit runs, table lookups and
 * the switch over layer codes cost instructions for every element, and on
 * a GPU a pass is bound by exactly those. Here the host unrolls all of it:
 * what is left per element is the address arithmetic that depends on the
 * work-item, the loads and stores, and min/max on registers with literal
 * indices. The semantics are the interpreter's, statement for statement
 * (same tile, same rounds, same comparators), so the result is the same
 * bit-identical array; tests/test_gpu.c runs both against the reference.
 *
 * A program is built per plan (per network, size, key type and payload
 * flag); NVIDIA's driver caches the binaries across runs. */
#include "gpu/gpu_internal.h"
#include "gpu/fused_desc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "gpu/kernels.h"

typedef struct sbuf {
    char *s;
    size_t len, cap;
    bool oom;
} sbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
out(sbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = b->cap - b->len;
        int k = b->s ? vsnprintf(b->s + b->len, room, fmt, ap) : -1;
        va_end(ap);
        if (b->s && k < 0) {
            b->oom = true;
            return;
        }
        if (b->s && (size_t)k < room) {
            b->len += (size_t)k;
            return;
        }
        size_t nc = b->cap ? b->cap * 2 : 1 << 16;
        while (b->s && nc - b->len <= (size_t)k)
            nc *= 2;
        char *ns = sn_realloc(b->s, nc);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
}

/* "((v >> js) & m) << gs" for each run, OR'ed (or "0u") */
static void runs_expr(sbuf *b, const char *v, const uint32_t *runs, uint32_t nr, unsigned vbits)
{
    bool any = false;
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t js = runs[3 * r], len = runs[3 * r + 1], gs = runs[3 * r + 2];
        if (js >= vbits || len == 0)
            continue;
        if (js + len > vbits)
            len = vbits - js;
        out(b, "%s((%s >> %uu) & 0x%xu) << %uu)", any ? " | (" : "(", v, js,
            (unsigned)((1ull << len) - 1u), gs);
        any = true;
    }
    if (!any)
        out(b, "0u");
}

/* the address of register i's element in global memory, into x */
static void emit_gaddr(sbuf *b, const char *xw, uint32_t lit, uint32_t ab, uint32_t am)
{
    out(b, "        x = %s | 0x%xu;\n", xw, lit);
    if (am)
        out(b, "        x ^= ((x >> %uu) & 1u) ? 0x%xu : 0u;\n", ab, am);
}

static void emit_load(sbuf *b, int i, bool hp, bool check, int kt)
{
    if (check) {
        out(b, "        rk[%d] = x < N ? to_ordered(%d, keys[x]) : SENTINEL;\n", i, kt);
        if (hp)
            out(b, "        rp[%d] = x < N ? pay[x] : 0u;\n", i);
    } else {
        out(b, "        rk[%d] = to_ordered(%d, keys[x]);\n", i, kt);
        if (hp)
            out(b, "        rp[%d] = pay[x];\n", i);
    }
}

static void emit_store(sbuf *b, const char *ks, const char *ps, bool hp, bool check, int kt)
{
    out(b, "        %s{ keys[x] = from_ordered(%d, %s);", check ? "if (x < N) " : "", kt, ks);
    if (hp)
        out(b, " pay[x] = %s;", ps);
    out(b, " }\n");
}

/* The kernel of one pass: the interpreter's body with d = this pass. */
static void emit_pass(sbuf *b, const sn_fused_plan *p, size_t k, const uint32_t *d)
{
    unsigned eb = p->ebits, t = d[H_T];
    uint32_t E = 1u << eb, W = 1u << (t - eb), T = 1u << t;
    bool hp = p->payload, check = p->n != (1ull << p->nbits);
    int kt = (int)p->kt;
    uint32_t ab = d[H_ABIT], am = d[H_AMASK];
    if (ab > 31) {
        ab = 0;
        am = 0;
    }
    uint32_t nruns = d[H_NRUNS];
    const uint32_t *runs = d + H_RUNS;
    bool first_direct = d[H_FIRST_DIRECT], last_direct = d[H_LAST_DIRECT];
    out(b, "\n__kernel __attribute__((reqd_work_group_size(%u, 1, 1)))\n", W);
    out(b, "void sn_cg%zu(__global uint *keys, __global uint *pay)\n{\n", k);
    out(b, "    __local uint lk[%u];\n", T + T / 32);
    if (hp)
        out(b, "    __local uint lp[%u];\n", T + T / 32);
    out(b, "    const uint w = (uint)get_local_id(0), g = (uint)get_group_id(0);\n");
    out(b, "    uint rk[%u];\n", E);
    if (hp)
        out(b, "    uint rp[%u];\n", E);
    out(b, "    uint x;\n    (void)pay;\n");
    /* base: the group id spread over the bits outside the tile (within
     * the padded size: the group count is 2^(nbits - t)) */
    uint32_t universe = p->nbits >= 32 ? 0xffffffffu : (1u << p->nbits) - 1u;
    uint32_t outside = universe & ~d[H_BMASK], gruns[3 * 32], ng = 0, gb = 0;
    for (unsigned bt = 0; bt < 32;) {
        if (!((outside >> bt) & 1u)) {
            bt++;
            continue;
        }
        unsigned len = 0;
        while (bt + len < 32 && ((outside >> (bt + len)) & 1u))
            len++;
        gruns[3 * ng] = gb;
        gruns[3 * ng + 1] = len;
        gruns[3 * ng + 2] = bt;
        ng++;
        gb += len;
        bt += len;
    }
    out(b, "    const uint base = ");
    runs_expr(b, "g", gruns, ng, 32);
    out(b, ";\n    const uint xw = base | ");
    runs_expr(b, "w", runs, nruns, t - eb);
    out(b, ";\n    (void)xw;\n");
    /* local offset of w + i * W, padded */
    bool wide = W % 32 == 0;
    out(b, "    const uint lw = lpad(w);\n    (void)lw;\n");
#define LOFS(i) (wide ? (i)*W + (i)*W / 32 : 0)
    if (!first_direct) {
        out(b, "    {\n");
        for (uint32_t i = 0; i < E; i++) {
            emit_gaddr(b, "xw", d[H_TAB + i], ab, am);
            emit_load(b, (int)i, hp, check, kt);
        }
        for (uint32_t i = 0; i < E; i++) {
            if (wide)
                out(b, "        lk[lw + %uu] = rk[%u];\n", LOFS(i), i);
            else
                out(b, "        lk[lpad(w + %uu)] = rk[%u];\n", i * W, i);
            if (hp && wide)
                out(b, "        lp[lw + %uu] = rp[%u];\n", LOFS(i), i);
            else if (hp)
                out(b, "        lp[lpad(w + %uu)] = rp[%u];\n", i * W, i);
        }
        out(b, "    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n");
    }
    uint32_t nr = d[H_NROUNDS];
    const uint32_t *r = d + d[H_ROUNDS];
    for (uint32_t ri = 0; ri < nr; ri++) {
        if (r[0] == 1) {
            out(b, "    local_layer(lk, %s, %d, %uu, %uu, w, 0x%xu, 1);\n", hp ? "lp" : "lk",
                hp ? 1 : 0, T, W, r[1]);
            out(b, "    barrier(CLK_LOCAL_MEM_FENCE);\n");
            r += 2;
            continue;
        }
        uint32_t cr = r[R_CR], cmask = r[R_CMASK];
        bool gload = ri == 0 && first_direct, gstore = ri + 1 == nr && last_direct;
        out(b, "    {\n        const uint wpart = ");
        runs_expr(b, "w", r + R_RUNS, r[R_NWR], t - eb);
        out(b, ";\n        const uint wc = wpart ^ 0x%xu;\n", cmask);
        out(b, "        const uint pw = lpad(wpart), pc = lpad(wc);\n");
        out(b, "        (void)pw; (void)pc;\n");
        if (gload || gstore) {
            out(b, "        const uint gw = base | ");
            runs_expr(b, "wpart", runs, nruns, 32);
            out(b, ";\n        const uint gwc = base | ");
            runs_expr(b, "wc", runs, nruns, 32);
            out(b, ";\n        (void)gwc;\n");
        }
        for (uint32_t i = 0; i < E; i++) {
            bool c = cmask && ((i >> cr) & 1u);
            if (gload) {
                emit_gaddr(b, c ? "gwc" : "gw", r[R_TABR + i], ab, am);
                emit_load(b, (int)i, hp, check, kt);
            } else {
                out(b, "        rk[%u] = lk[%s + %uu];\n", i, c ? "pc" : "pw", r[R_TABL(E) + i]);
                if (hp)
                    out(b, "        rp[%u] = lp[%s + %uu];\n", i, c ? "pc" : "pw",
                        r[R_TABL(E) + i]);
            }
        }
        uint32_t nl = r[R_NL(E)];
        for (uint32_t li = 0; li < nl; li++) {
            uint32_t code = r[R_CODES(E) + li], bt = code & 7u;
            bool mirror = code & 8u;
            for (uint32_t i = 0; i < E; i++)
                if (!((i >> bt) & 1u))
                    out(b, "        CX(%u, %u)\n", i,
                        mirror ? i ^ ((2u << bt) - 1u) : i | (1u << bt));
        }
        for (uint32_t i = 0; i < E; i++) {
            bool c = cmask && ((i >> cr) & 1u);
            char ks[16], ps[16];
            snprintf(ks, sizeof ks, "rk[%u]", i);
            snprintf(ps, sizeof ps, "rp[%u]", i);
            if (gstore) {
                emit_gaddr(b, c ? "gwc" : "gw", r[R_TABR + i], ab, am);
                emit_store(b, ks, ps, hp, check, kt);
            } else {
                out(b, "        lk[%s + %uu] = rk[%u];\n", c ? "pc" : "pw", r[R_TABL(E) + i], i);
                if (hp)
                    out(b, "        lp[%s + %uu] = rp[%u];\n", c ? "pc" : "pw", r[R_TABL(E) + i],
                        i);
            }
        }
        out(b, "    }\n");
        if (!gstore)
            out(b, "    barrier(CLK_LOCAL_MEM_FENCE);\n");
        r += R_CODES(E) + nl;
    }
    if (!last_direct) {
        for (uint32_t i = 0; i < E; i++) {
            char ks[48], ps[48];
            if (wide) {
                snprintf(ks, sizeof ks, "lk[lw + %uu]", LOFS(i));
                snprintf(ps, sizeof ps, "lp[lw + %uu]", LOFS(i));
            } else {
                snprintf(ks, sizeof ks, "lk[lpad(w + %uu)]", i * W);
                snprintf(ps, sizeof ps, "lp[lpad(w + %uu)]", i * W);
            }
            emit_gaddr(b, "xw", d[H_TAB + i], ab, am);
            emit_store(b, ks, ps, hp, check, kt);
        }
    }
#undef LOFS
    out(b, "}\n");
}

bool sn_fused_codegen_wanted(const sn_gpu *g)
{
    const char *e = getenv("SN_FUSED_CODEGEN"); /* 0: interpret; 1: generate (also on CPUs) */
    if (e && (e[0] == '0' || e[0] == '1') && e[1] == '\0')
        return e[0] == '1';
    return strcmp(g->info.type, "CPU") != 0;
}

sn_status sn_fused_codegen(sn_gpu *g, sn_fused_plan *p, sn_diag *diag)
{
    if (p->serial || p->tile_passes == 0)
        return SN_OK;
    const char *lib = sn_kernel_source_find("fused");
    if (!lib)
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "kernels/fused.cl was not embedded");
    sbuf b = {0};
    out(&b, "%s\n/* ---- generated by src/gpu/fused_cg.c: %zu passes, n = %u */\n", lib,
        p->tile_passes, p->n);
    if (p->n != (1ull << p->nbits))
        out(&b, "#define N %uu\n", p->n);
    for (size_t i = 0; i < p->nsteps; i++)
        if (p->steps[i].layer < 0)
            emit_pass(&b, p, i, p->desc + p->steps[i].off);
    if (b.oom) {
        sn_free(b.s);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory generating fused kernels");
    }
    char opts[160];
    int len = snprintf(opts, sizeof opts, "-DSN_CODEGEN=1 -DHP=%d -DKT=%d -DE_BITS=%u",
                       p->payload ? 1 : 0, (int)p->kt, p->ebits);
    const char *rr = getenv("SN_FUSED_MAXRREG");
    if (strstr(g->info.vendor, "NVIDIA") && rr && atoi(rr) > 0 && len > 0 &&
        (size_t)len < sizeof opts)
        snprintf(opts + len, sizeof opts - (size_t)len, " -cl-nv-maxrregcount=%d", atoi(rr));
    const char *dump = getenv("SN_FUSED_CGDUMP"); /* tuning: the source and build log */
    size_t ol = strlen(opts);
    if (dump && strstr(g->info.vendor, "NVIDIA") && ol + 16 < sizeof opts)
        memcpy(opts + ol, " -cl-nv-verbose", 16);
    if (dump) {
        FILE *f = fopen(dump, "w");
        if (f) {
            fwrite(b.s, 1, b.len, f);
            fclose(f);
        }
    }
    cl_program prog;
    sn_status st = sn_gpu_build_source_opts(g, b.s, opts, false, &prog, diag);
    sn_free(b.s);
    if (st != SN_OK)
        return st;
    if (dump) {
        char logname[512];
        snprintf(logname, sizeof logname, "%s.log", dump);
        FILE *lf = fopen(logname, "w");
        if (lf) {
            fprintf(lf, "options: %s\n%s\n", opts, sn_gpu_build_log(g));
            fclose(lf);
        }
    }
    p->cg_prog = prog;
    p->cg_k = sn_calloc(p->nsteps, sizeof *p->cg_k);
    if (!p->cg_k)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for fused kernels");
    for (size_t i = 0; i < p->nsteps; i++) {
        if (p->steps[i].layer >= 0)
            continue;
        char name[32];
        snprintf(name, sizeof name, "sn_cg%zu", i);
        cl_int err;
        p->cg_k[i] = clCreateKernel(prog, name, &err);
        if (err != CL_SUCCESS)
            return sn_gpu_cl_fail(diag, "clCreateKernel(generated fused pass)", err);
    }
    return SN_OK;
}

void sn_fused_codegen_free(sn_fused_plan *p)
{
    if (p->cg_k)
        for (size_t i = 0; i < p->nsteps; i++)
            if (p->cg_k[i])
                clReleaseKernel(p->cg_k[i]);
    sn_free(p->cg_k);
    p->cg_k = NULL;
    if (p->cg_prog)
        clReleaseProgram(p->cg_prog);
    p->cg_prog = NULL;
}
