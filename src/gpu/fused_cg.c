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
#include "gpu/srcbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "gpu/kernels.h"

/* "((v >> js) & m) << gs" for each run, OR'ed (or "0u") */
static void runs_expr(sn_srcbuf *b, const char *v, const uint32_t *runs, uint32_t nr,
                      unsigned vbits)
{
    bool any = false;
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t js = runs[3 * r], len = runs[3 * r + 1], gs = runs[3 * r + 2];
        if (js >= vbits || len == 0)
            continue;
        if (js + len > vbits)
            len = vbits - js;
        sn_srcbuf_add(b, "%s((%s >> %uu) & 0x%xu) << %uu)", any ? " | (" : "(", v, js,
                      (unsigned)((1ull << len) - 1u), gs);
        any = true;
    }
    if (!any)
        sn_srcbuf_add(b, "0u");
}

/* One pass being generated. */
typedef struct pass_cg {
    sn_srcbuf *b;
    const uint32_t *d;
    unsigned t, eb, cb; /* tile bits, register bits, column bits */
    uint32_t E, W, Ec, TL,
        P; /* registers, work-items, registers and elements per column, columns */
    bool hp, check, wide;
    int kt;
    uint32_t ab, am; /* the tile's mirror complement (am == 0: none) */
} pass_cg;

/* global bits of local index j */
static uint32_t tile_global(const uint32_t *d, uint32_t j)
{
    uint32_t x = 0, nr = d[H_NRUNS];
    for (uint32_t r = 0; r < nr; r++) {
        uint32_t js = d[H_RUNS + 3 * r], len = d[H_RUNS + 3 * r + 1], gs = d[H_RUNS + 3 * r + 2];
        x |= ((j >> js) & (uint32_t)((1ull << len) - 1u)) << gs;
    }
    return x;
}

/* Per-work-item bases for global indices v | lit (v's and lit's bits
 * disjoint), with the tile's complement folded in: v_1 where lit holds the
 * mirror's bit, v_0 where v decides; element lit is then k<v>_s[lit], an
 * immediate offset from one pointer. */
static void emit_bases(pass_cg *c, const char *v)
{
    sn_srcbuf *b = c->b;
    if (c->am)
        sn_srcbuf_add(
            b, "    const uint %s_0 = ((%s >> %uu) & 1u) ? %s ^ 0x%xu : %s, %s_1 = %s ^ 0x%xu;\n",
            v, v, c->ab, v, c->am, v, v, v, c->am);
    else
        sn_srcbuf_add(b, "    const uint %s_0 = %s, %s_1 = %s;\n", v, v, v, v);
    sn_srcbuf_add(b, "    __global uint *k%s_0 = keys + %s_0, *k%s_1 = keys + %s_1;\n", v, v, v, v);
    sn_srcbuf_add(b, "    (void)k%s_0; (void)k%s_1;\n", v, v);
    if (c->hp)
        sn_srcbuf_add(b, "    __global uint *p%s_0 = pay + %s_0, *p%s_1 = pay + %s_1;\n", v, v, v,
                      v);
}

static int base_of(const pass_cg *c, uint32_t lit)
{
    return c->am && ((lit >> c->ab) & 1u) ? 1 : 0;
}

static void emit_gload(pass_cg *c, const char *v, uint32_t lit, uint32_t i)
{
    int s = base_of(c, lit);
    if (c->check) {
        sn_srcbuf_add(c->b,
                      "    rk[%u] = %s_%d + %uu < N ? to_ordered(%d, k%s_%d[%u]) : SENTINEL;\n", i,
                      v, s, lit, c->kt, v, s, lit);
        if (c->hp)
            sn_srcbuf_add(c->b, "    rp[%u] = %s_%d + %uu < N ? p%s_%d[%u] : 0u;\n", i, v, s, lit,
                          v, s, lit);
    } else {
        sn_srcbuf_add(c->b, "    rk[%u] = to_ordered(%d, k%s_%d[%u]);\n", i, c->kt, v, s, lit);
        if (c->hp)
            sn_srcbuf_add(c->b, "    rp[%u] = p%s_%d[%u];\n", i, v, s, lit);
    }
}

static void emit_gstore(pass_cg *c, const char *v, uint32_t lit, const char *ks, const char *ps)
{
    int s = base_of(c, lit);
    if (c->check)
        sn_srcbuf_add(c->b, "    if (%s_%d + %uu < N)", v, s, lit);
    sn_srcbuf_add(c->b, "    { k%s_%d[%u] = from_ordered(%d, %s);", v, s, lit, c->kt, ks);
    if (c->hp)
        sn_srcbuf_add(c->b, " p%s_%d[%u] = %s;", v, s, lit, ps);
    sn_srcbuf_add(c->b, " }\n");
}

/* local offset expression of element w + i * W of a column */
static void lofs(const pass_cg *c, uint32_t i, char *buf, size_t size)
{
    if (c->wide)
        snprintf(buf, size, "lw + %uu", i * c->W + i * c->W / 32);
    else
        snprintf(buf, size, "lpad(w + %uu)", i * c->W);
}

/* A register round's layout: register i of the round sits at local
 * (column) offset (cpl[i] ? pc<r> : pw<r>) + lit[i]. */
typedef struct round_cg {
    unsigned idx;
    const uint32_t *r;
    uint32_t lit[256];
    bool cpl[256];
    /* a work-item's offsets differ between columns (the complemented
     * mirror's bit is a column bit): another work-item may still read the
     * last column where this one writes the first */
    bool colvar;
} round_cg;

static void round_layout(const pass_cg *c, const uint32_t *r, unsigned idx, round_cg *o)
{
    o->idx = idx;
    o->r = r;
    uint32_t cr = r[R_CR], cmask = r[R_CMASK];
    for (uint32_t i = 0; i < c->E; i++) {
        uint32_t pl = r[R_TABL(c->E) + i], l = pl - pl / 33; /* lpad's inverse */
        uint32_t m = l & (c->TL - 1u);
        o->lit[i] = m + m / 32;
        o->cpl[i] = cmask && ((i >> cr) & 1u);
    }
    o->colvar = cmask && c->cb && cr >= c->eb - c->cb && cr < c->eb;
}

static void emit_reg_to_local(pass_cg *c, const round_cg *a, uint32_t q)
{
    if (q == 0 && a->colvar)
        sn_srcbuf_add(c->b, "    barrier(CLK_LOCAL_MEM_FENCE);\n");
    for (uint32_t i = q * c->Ec; i < (q + 1) * c->Ec; i++) {
        sn_srcbuf_add(c->b, "    lk[%s%u + %uu] = rk[%u];\n", a->cpl[i] ? "pc" : "pw", a->idx,
                      a->lit[i], i);
        if (c->hp)
            sn_srcbuf_add(c->b, "    lp[%s%u + %uu] = rp[%u];\n", a->cpl[i] ? "pc" : "pw", a->idx,
                          a->lit[i], i);
    }
}

static void emit_local_to_reg(pass_cg *c, const round_cg *a, uint32_t q)
{
    for (uint32_t i = q * c->Ec; i < (q + 1) * c->Ec; i++) {
        sn_srcbuf_add(c->b, "    rk[%u] = lk[%s%u + %uu];\n", i, a->cpl[i] ? "pc" : "pw", a->idx,
                      a->lit[i]);
        if (c->hp)
            sn_srcbuf_add(c->b, "    rp[%u] = lp[%s%u + %uu];\n", i, a->cpl[i] ? "pc" : "pw",
                          a->idx, a->lit[i]);
    }
}

#define BARRIER(c) sn_srcbuf_add((c)->b, "    barrier(CLK_LOCAL_MEM_FENCE);\n")

/* column q of the tile from global memory into local memory, in the
 * load layout (work-item w takes w + i * W) */
/* column q of the tile from global memory into registers q * Ec.. (the
 * load layout: work-item w takes w + i * W), then into local memory */
static void emit_load_column(pass_cg *c, uint32_t q)
{
    for (uint32_t i = 0; i < c->Ec; i++)
        emit_gload(c, "xw", tile_global(c->d, i * c->W + q * c->TL), q * c->Ec + i);
}

static void emit_column_to_local(pass_cg *c, uint32_t q)
{
    char lo[48];
    for (uint32_t i = 0; i < c->Ec; i++) {
        lofs(c, i, lo, sizeof lo);
        sn_srcbuf_add(c->b, "    lk[%s] = rk[%u];\n", lo, q * c->Ec + i);
        if (c->hp)
            sn_srcbuf_add(c->b, "    lp[%s] = rp[%u];\n", lo, q * c->Ec + i);
    }
}

static void emit_store_column(pass_cg *c, uint32_t q)
{
    char lo[48], ks[64], ps[64];
    for (uint32_t i = 0; i < c->Ec; i++) {
        lofs(c, i, lo, sizeof lo);
        snprintf(ks, sizeof ks, "lk[%s]", lo);
        snprintf(ps, sizeof ps, "lp[%s]", lo);
        emit_gstore(c, "xw", tile_global(c->d, i * c->W + q * c->TL), ks, ps);
    }
}

/* Odd-even carry layers codes[0..k) (local codes kind 2: (j, j + 2^u)
 * for j with bit u set, both in one block of 2^wb; u falling by one, the
 * last s) as one register round with halos, instead of one trip through
 * local memory each. Work-item w takes the stride-2^s subsequence
 * res = w mod 2^s, positions v = vb * RE .. + RE (vb = w >> s, RE = E),
 * plus RH = E / 2 on each side: local index (v << s) | res. The layers
 * move an element at most 2^k - 1 < RH positions of v in all, so the RE in
 * the middle come out exact and go back; every pair is known here (a left
 * has bit u - s of v set, and RH is a multiple of 2^k). Blocks of Bv =
 * 2^(wb - s) positions: if Bv <= RE they cut the middle at fixed places
 * (pairs across are left out) and the halos lie in other blocks; if Bv >
 * RE a halo lies wholly in another block exactly when the middle starts
 * (ends) one. A halo in another block holds the smallest (largest) key:
 * a comparator reaching it never swaps, as the schedule drops it. */
static void emit_carry_round(pass_cg *c, const uint32_t *codes, unsigned k, unsigned idx)
{
    sn_srcbuf *b = c->b;
    uint32_t RE = c->E, RH = c->E / 2, RN = 2 * c->E;
    unsigned s = (codes[k - 1] >> 8) & 0xffu, wb = codes[0] & 0xffu;
    uint32_t Bv = 1u << (wb - s);
    bool small = Bv <= RE;
    sn_srcbuf_add(b, "    /* carry round %u: %u layers at stride 2^%u, blocks of %u */\n", idx, k,
                  s, Bv);
    sn_srcbuf_add(b, "    {\n    const uint vb = w >> %uu, lb = ((vb * %uu) << %uu) | (w & %uu);\n",
                  s, RE, s, (1u << s) - 1u);
    if (!small)
        sn_srcbuf_add(b,
                      "    const bool lo = ((vb * %uu) & %uu) == 0u, hi = (((vb + 1u) * %uu) & "
                      "%uu) == 0u;\n",
                      RE, Bv - 1u, RE, Bv - 1u);
    for (uint32_t j = 0; j < RN; j++) {
        bool in = j >= RH && j < RH + RE;
        int off = ((int)j - (int)RH) * (1 << s);
        char addr[64];
        snprintf(addr, sizeof addr, "lpad(lb + (uint)(%d))", off);
        if (in) {
            sn_srcbuf_add(b, "    rk[%u] = lk[%s];\n", j, addr);
            if (c->hp)
                sn_srcbuf_add(b, "    rp[%u] = lp[%s];\n", j, addr);
        } else if (small) {
            sn_srcbuf_add(b, "    rk[%u] = %s;\n", j, j < RH ? "0u" : "SENTINEL");
            if (c->hp)
                sn_srcbuf_add(b, "    rp[%u] = 0u;\n", j);
        } else {
            sn_srcbuf_add(b, "    rk[%u] = %s ? %s : lk[%s];\n", j, j < RH ? "lo" : "hi",
                          j < RH ? "0u" : "SENTINEL", addr);
            if (c->hp)
                sn_srcbuf_add(b, "    rp[%u] = %s ? 0u : lp[%s];\n", j, j < RH ? "lo" : "hi", addr);
        }
    }
    sn_srcbuf_add(b, "    barrier(CLK_LOCAL_MEM_FENCE);\n");
    for (unsigned li = 0; li < k; li++) {
        unsigned i = ((codes[li] >> 8) & 0xffu) - s;
        uint32_t q = 1u << i;
        for (uint32_t j = 0; j + q < RN; j++) {
            if (!((j >> i) & 1u))
                continue; /* lefts: bit i of v (of j: RH is a multiple of 2q) */
            /* small blocks: both ends in the middle and in one block
             * (vb * RE is a multiple of Bv) */
            if (small && (j < RH || j + q >= RH + RE || (j - RH) / Bv != (j + q - RH) / Bv))
                continue;
            sn_srcbuf_add(b, "    CX(%u, %u)\n", j, j + q);
        }
    }
    for (uint32_t j = RH; j < RH + RE; j++) {
        int off = ((int)j - (int)RH) * (1 << s);
        sn_srcbuf_add(b, "    lk[lpad(lb + (uint)(%d))] = rk[%u];\n", off, j);
        if (c->hp)
            sn_srcbuf_add(b, "    lp[lpad(lb + (uint)(%d))] = rp[%u];\n", off, j);
    }
    sn_srcbuf_add(b, "    barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
}

/* Tuning knob SN_FUSED_CARRYREG: the most carry layers per register round
 * (0 or 1: each through local memory alone, as the interpreter does) */
static unsigned carry_round_max(const pass_cg *c)
{
    const char *e = getenv("SN_FUSED_CARRYREG");
    unsigned m = 0;
    for (uint32_t h = c->E / 2; h > 1; h >>= 1)
        m++; /* 2^m - 1 < RH = E / 2 */
    if (e && *e >= '0' && *e <= '9' && (unsigned)atoi(e) < m)
        m = (unsigned)atoi(e);
    return m;
}

/* The kernel of one pass: the interpreter's semantics with d = this pass.
 * The data moves between a register round's layout and the next through
 * local memory one column at a time (2^cb columns; one when the tile fits
 * local memory, which then also holds it whole for odd-even carry layers,
 * the "local" state). */
static void emit_pass(sn_srcbuf *b, const sn_fused_plan *p, size_t k, const uint32_t *d)
{
    pass_cg c = {b,     d,          d[H_T],    d[H_EBITS], d[H_CBITS], 0,
                 0,     0,          0,         0,          p->payload, p->n != (1ull << p->nbits),
                 false, (int)p->kt, d[H_ABIT], d[H_AMASK]};
    c.E = 1u << c.eb;
    c.W = 1u << (c.t - c.eb);
    c.P = 1u << c.cb;
    c.Ec = c.E >> c.cb;
    c.TL = 1u << (c.t - c.cb);
    c.wide = c.W % 32 == 0;
    if (c.ab > 31) {
        c.ab = 0;
        c.am = 0;
    }
    sn_srcbuf_add(b, "\n__kernel __attribute__((reqd_work_group_size(%u, 1, 1)))\n", c.W);
    sn_srcbuf_add(b, "void sn_cg%zu(__global uint *keys, __global uint *pay)\n{\n", k);
    sn_srcbuf_add(b, "    __local uint lk[%u];\n", c.TL + c.TL / 32);
    if (c.hp)
        sn_srcbuf_add(b, "    __local uint lp[%u];\n", c.TL + c.TL / 32);
    sn_srcbuf_add(b, "    const uint w = (uint)get_local_id(0), g = (uint)get_group_id(0);\n");
    /* twice E: carry rounds hold E positions and their halos */
    sn_srcbuf_add(b, "    uint rk[%u];\n", 2 * c.E);
    if (c.hp)
        sn_srcbuf_add(b, "    uint rp[%u];\n", 2 * c.E);
    sn_srcbuf_add(b, "    (void)pay;\n");
    /* base: the group id spread over the bits outside the tile */
    uint32_t universe = p->nbits >= 32 ? 0xffffffffu : (1u << p->nbits) - 1u;
    uint32_t gruns[3 * 32];
    unsigned ng = sn_fused_bit_runs(universe & ~d[H_BMASK], gruns, 32);
    sn_srcbuf_add(b, "    const uint base = ");
    runs_expr(b, "g", gruns, ng, 32);
    sn_srcbuf_add(b, ";\n    const uint xw = base | ");
    runs_expr(b, "w", d + H_RUNS, d[H_NRUNS], c.t - c.eb);
    sn_srcbuf_add(b, ";\n");
    emit_bases(&c, "xw");
    sn_srcbuf_add(b, "    const uint lw = lpad(w);\n    (void)lw;\n");

    enum { ST_GLOBAL, ST_LOCAL, ST_REGS } state = ST_GLOBAL;
    round_cg ra, rb; /* the previous and the current round */
    bool first_direct = d[H_FIRST_DIRECT], last_direct = d[H_LAST_DIRECT];
    uint32_t nr = d[H_NROUNDS];
    const uint32_t *r = d + d[H_ROUNDS];
    unsigned cmax = carry_round_max(&c);
    for (uint32_t ri = 0; ri < nr; ri++) {
        if (r[0] == 1) { /* odd-even carry layers on the whole tile (one column) */
            if (state == ST_GLOBAL) {
                emit_load_column(&c, 0);
                emit_column_to_local(&c, 0);
            } else if (state == ST_REGS)
                emit_reg_to_local(&c, &ra, 0);
            if (state != ST_LOCAL)
                BARRIER(&c);
            state = ST_LOCAL;
            /* the run of carry layers of one merge (u falling by one) */
            uint32_t codes[8];
            unsigned nk = 0;
            const uint32_t *rr = r;
            while (nk < cmax && nk < 8 && ri + nk < nr && rr[0] == 1 &&
                   (nk == 0 || ((rr[1] & 0xffu) == (codes[0] & 0xffu) &&
                                ((rr[1] >> 8) & 0xffu) + 1u == ((codes[nk - 1] >> 8) & 0xffu)))) {
                codes[nk++] = rr[1];
                rr += 2;
            }
            unsigned s0 = nk ? (codes[nk - 1] >> 8) & 0xffu : 0;
            if (nk >= 2 && c.cb == 0 && s0 + c.eb <= c.t) {
                emit_carry_round(&c, codes, nk, ri);
                ri += nk - 1;
                r = rr;
                continue;
            }
            sn_srcbuf_add(b, "    local_layer(lk, %s, %d, %uu, %uu, w, 0x%xu, 1);\n",
                          c.hp ? "lp" : "lk", c.hp ? 1 : 0, 1u << c.t, c.W, r[1]);
            BARRIER(&c);
            r += 2;
            continue;
        }
        round_layout(&c, r, ri, &rb);
        bool gload = ri == 0 && first_direct, gstore = ri + 1 == nr && last_direct;
        sn_srcbuf_add(b, "    /* round %u */\n    const uint wp%u = ", ri, ri);
        runs_expr(b, "w", r + R_RUNS, r[R_NWR], c.t - c.eb);
        sn_srcbuf_add(b, ";\n    const uint wc%u = wp%u ^ 0x%xu;\n", ri, ri, r[R_CMASK]);
        sn_srcbuf_add(b, "    const uint pw%u = lpad(wp%u), pc%u = lpad(wc%u);\n", ri, ri, ri, ri);
        sn_srcbuf_add(b, "    (void)pw%u; (void)pc%u;\n", ri, ri);
        char gw[16], gc[16], wpn[16], wcn[16];
        snprintf(gw, sizeof gw, "gw%u", ri);
        snprintf(gc, sizeof gc, "gc%u", ri);
        snprintf(wpn, sizeof wpn, "wp%u", ri);
        snprintf(wcn, sizeof wcn, "wc%u", ri);
        if (gload || gstore) {
            sn_srcbuf_add(b, "    const uint gw%u = base | ", ri);
            runs_expr(b, wpn, d + H_RUNS, d[H_NRUNS], 32);
            sn_srcbuf_add(b, ";\n    const uint gc%u = base | ", ri);
            runs_expr(b, wcn, d + H_RUNS, d[H_NRUNS], 32);
            sn_srcbuf_add(b, ";\n");
            emit_bases(&c, gw);
            emit_bases(&c, gc);
        }
        if (state == ST_GLOBAL) {
            if (gload) {
                for (uint32_t i = 0; i < c.E; i++)
                    emit_gload(&c, rb.cpl[i] ? gc : gw, r[R_TABR + i], i);
            } else {
                /* every load in flight at once: column q's loads land in
                 * the registers that receive column q, which stay
                 * untouched until column q crosses */
                const char *e = getenv("SN_FUSED_LOADALL"); /* tuning: 0 = column by column */
                bool all = !(e && e[0] == '0');
                for (uint32_t q = 0; all && q < c.P; q++)
                    emit_load_column(&c, q);
                for (uint32_t q = 0; q < c.P; q++) {
                    if (q > 0)
                        BARRIER(&c);
                    if (!all)
                        emit_load_column(&c, q);
                    emit_column_to_local(&c, q);
                    BARRIER(&c);
                    emit_local_to_reg(&c, &rb, q);
                }
            }
        } else if (state == ST_LOCAL) {
            emit_local_to_reg(&c, &rb, 0);
        } else {
            for (uint32_t q = 0; q < c.P; q++) {
                if (q > 0)
                    BARRIER(&c);
                emit_reg_to_local(&c, &ra, q);
                BARRIER(&c);
                emit_local_to_reg(&c, &rb, q);
            }
        }
        uint32_t nl = r[R_NL(c.E)];
        for (uint32_t li = 0; li < nl; li++) {
            uint32_t code = r[R_CODES(c.E) + li], bt = code & 7u;
            bool mirror = code & 8u;
            for (uint32_t i = 0; i < c.E; i++)
                if (!((i >> bt) & 1u))
                    sn_srcbuf_add(b, "    CX(%u, %u)\n", i,
                                  mirror ? i ^ ((2u << bt) - 1u) : i | (1u << bt));
        }
        if (gstore) {
            for (uint32_t i = 0; i < c.E; i++) {
                char ks[16], ps[16];
                snprintf(ks, sizeof ks, "rk[%u]", i);
                snprintf(ps, sizeof ps, "rp[%u]", i);
                emit_gstore(&c, rb.cpl[i] ? gc : gw, r[R_TABR + i], ks, ps);
            }
            sn_srcbuf_add(b, "}\n");
            return;
        }
        ra = rb;
        state = ST_REGS;
        r += R_CODES(c.E) + nl;
    }
    if (state == ST_REGS) {
        for (uint32_t q = 0; q < c.P; q++) {
            if (q > 0)
                BARRIER(&c);
            emit_reg_to_local(&c, &ra, q);
            BARRIER(&c);
            emit_store_column(&c, q);
        }
    } else if (state == ST_LOCAL) {
        emit_store_column(&c, 0);
    }
    sn_srcbuf_add(b, "}\n");
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
    sn_srcbuf b = {0};
    sn_srcbuf_add(&b, "%s\n/* ---- generated by src/gpu/fused_cg.c: %zu passes, n = %u */\n", lib,
                  p->tile_passes, p->n);
    if (p->n != (1ull << p->nbits))
        sn_srcbuf_add(&b, "#define N %uu\n", p->n);
    for (size_t i = 0; i < p->nsteps; i++)
        if (p->steps[i].layer == SN_STEP_TILE)
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
        if (p->steps[i].layer != SN_STEP_TILE)
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

sn_status sn_fused_codegen_launch(sn_gpu *g, const sn_gpu_bufs *b, cl_kernel k, size_t items,
                                  size_t wg, sn_diag *diag)
{
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &b->keys);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof(cl_mem), &b->pay);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clSetKernelArg(generated fused pass)", err);
    return sn_gpu_launch(g, k, items, wg, "sn_fused", diag);
}
