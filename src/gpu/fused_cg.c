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
#include "core/srcbuf.h"

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
 * plus RH = E / 2 on each side: local index (v << s) | res. The first
 * layer's stride 2^(k-1) is at most RH and the middle starts at a multiple
 * of 2^k, so the RE in the middle come out exact and go back: the halo
 * rule of the window passes (fused.c, tests/test_halo.c), which holds for
 * windows so aligned because a merge's input is two sorted halves. Every
 * pair is known here (a left has bit u - s of v set, and vb * RE is a
 * multiple of 2^k). Blocks of Bv =
 * 2^(wb - s) positions: if Bv <= RE they cut the middle at fixed places
 * (pairs across are left out) and the halos lie in other blocks; if Bv >
 * RE a halo lies wholly in another block exactly when the middle starts
 * (ends) one. A halo in another block holds the smallest (largest) key:
 * a comparator reaching it never swaps, as the schedule drops it. */
static void emit_carry_round(pass_cg *c, const uint32_t *codes, unsigned k, unsigned idx, int gsh)
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
            if (!(((j - RH) >> i) & 1u))
                continue; /* lefts: bit i of v, i.e. of j - RH (vb * RE: a multiple of 2q) */
            /* small blocks: both ends in the middle and in one block
             * (vb * RE is a multiple of Bv) */
            if (small && (j < RH || j + q >= RH + RE || (j - RH) / Bv != (j + q - RH) / Bv))
                continue;
            sn_srcbuf_add(b, "    CX(%u, %u)\n", j, j + q);
        }
    }
    if (gsh >= 0) { /* the pass's last round: the middle straight to global memory */
        sn_srcbuf_add(b, "    const uint gl = base | ");
        runs_expr(b, "lb", c->d + H_RUNS, c->d[H_NRUNS], c->t);
        sn_srcbuf_add(b, ";\n");
        emit_bases(c, "gl");
        for (uint32_t j = RH; j < RH + RE; j++) {
            char ks[16], ps[16];
            snprintf(ks, sizeof ks, "rk[%u]", j);
            snprintf(ps, sizeof ps, "rp[%u]", j);
            emit_gstore(c, "gl", (j - RH) << gsh, ks, ps);
        }
        sn_srcbuf_add(b, "    }\n");
        return;
    }
    for (uint32_t j = RH; j < RH + RE; j++) {
        int off = ((int)j - (int)RH) * (1 << s);
        sn_srcbuf_add(b, "    lk[lpad(lb + (uint)(%d))] = rk[%u];\n", off, j);
        if (c->hp)
            sn_srcbuf_add(b, "    lp[lpad(lb + (uint)(%d))] = rp[%u];\n", off, j);
    }
    sn_srcbuf_add(b, "    barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
}

/* A pass that ends in a carry round of stride 2^s (local) can store it
 * straight from registers when the work-items' residues (local bits below
 * s, at least the three lowest) are the low global bits and local bits s
 * up to the top are one run of global bits: element j of a run then lies
 * at a literal offset from the work-item's base, and a warp writes whole
 * 32-byte sectors. Returns that offset's shift, or -1. */
static int carry_gstore_shift(const pass_cg *c, unsigned s)
{
    const uint32_t *d = c->d;
    if (c->am || s < 3 || d[H_NRUNS] == 0 || d[H_RUNS + 2] != 0 || d[H_RUNS + 1] < 3)
        return -1;
    for (uint32_t r = 0; r < d[H_NRUNS]; r++) {
        uint32_t js = d[H_RUNS + 3 * r], len = d[H_RUNS + 3 * r + 1], gs = d[H_RUNS + 3 * r + 2];
        if (js <= s && s < js + len)
            return js + len == c->t ? (int)(s + gs - js) : -1;
    }
    return -1;
}

/* The most carry layers per register round: k with 2^(k-1) <= RH (5 for
 * 2^5 registers; H200, odd-even merge of 2^24 keys: 1.555 ms against 1.580
 * with 4, the bound 2^k - 1 <= RH that holds for any input, not only a
 * merge's). */
static unsigned carry_round_max(const pass_cg *c)
{
    unsigned m = 1;
    for (uint32_t h = c->E / 2; h > 1; h >>= 1)
        m++; /* 2^(m-1) <= RH = E / 2 */
    return m;
}

/* Where a pass's data is between rounds. */
typedef enum { ST_GLOBAL, ST_LOCAL, ST_REGS } pass_state;

/* The walk over a pass's rounds. */
typedef struct pass_walk {
    pass_state state;
    round_cg ra, rb; /* the previous and the current register round */
    uint32_t ri, nr; /* the round, of nr */
    const uint32_t *r;
    bool first_direct, last_direct;
    unsigned cmax; /* carry layers per carry round */
} pass_walk;

/* The kernel's head: arrays, registers, and the work-item's base index
 * (the group id spread over the bits outside the tile). */
static void emit_pass_head(pass_cg *c, const sn_fused_plan *p, size_t k)
{
    sn_srcbuf *b = c->b;
    const uint32_t *d = c->d;
    sn_srcbuf_add(b, "\n__kernel __attribute__((reqd_work_group_size(%u, 1, 1)))\n", c->W);
    sn_srcbuf_add(b, "void sn_cg%zu(__global uint *keys, __global uint *pay)\n{\n", k);
    sn_srcbuf_add(b, "    __local uint lk[%u];\n", c->TL + c->TL / 32);
    if (c->hp)
        sn_srcbuf_add(b, "    __local uint lp[%u];\n", c->TL + c->TL / 32);
    sn_srcbuf_add(b, "    const uint w = (uint)get_local_id(0), g = (uint)get_group_id(0);\n");
    /* twice E: carry rounds hold E positions and their halos */
    sn_srcbuf_add(b, "    uint rk[%u];\n", 2 * c->E);
    if (c->hp)
        sn_srcbuf_add(b, "    uint rp[%u];\n", 2 * c->E);
    sn_srcbuf_add(b, "    (void)pay;\n");
    uint32_t universe = p->nbits >= 32 ? 0xffffffffu : (1u << p->nbits) - 1u;
    uint32_t gruns[3 * 32];
    unsigned ng = sn_fused_bit_runs(universe & ~d[H_BMASK], gruns, 32);
    sn_srcbuf_add(b, "    const uint base = ");
    runs_expr(b, "g", gruns, ng, 32);
    sn_srcbuf_add(b, ";\n    const uint xw = base | ");
    runs_expr(b, "w", d + H_RUNS, d[H_NRUNS], c->t - c->eb);
    sn_srcbuf_add(b, ";\n");
    emit_bases(c, "xw");
    sn_srcbuf_add(b, "    const uint lw = lpad(w);\n    (void)lw;\n");
}

/* Odd-even carry layers on the whole tile (one column), from round
 * w->ri on: a carry round of several, or one layer through local memory.
 * Returns true when the pass ended (its last round stored from
 * registers). */
static bool emit_carry_layers(pass_cg *c, pass_walk *w)
{
    sn_srcbuf *b = c->b;
    if (w->state == ST_GLOBAL) {
        emit_load_column(c, 0);
        emit_column_to_local(c, 0);
    } else if (w->state == ST_REGS)
        emit_reg_to_local(c, &w->ra, 0);
    if (w->state != ST_LOCAL)
        BARRIER(c);
    w->state = ST_LOCAL;
    /* the run of carry layers of one merge (u falling by one) */
    uint32_t codes[8];
    unsigned nk = 0;
    const uint32_t *rr = w->r;
    while (nk < w->cmax && nk < 8 && w->ri + nk < w->nr && rr[0] == 1 &&
           (nk == 0 || ((rr[1] & 0xffu) == (codes[0] & 0xffu) &&
                        ((rr[1] >> 8) & 0xffu) + 1u == ((codes[nk - 1] >> 8) & 0xffu)))) {
        codes[nk++] = rr[1];
        rr += 2;
    }
    unsigned s0 = nk ? (codes[nk - 1] >> 8) & 0xffu : 0;
    if (nk >= 2 && c->cb == 0 && s0 + c->eb <= c->t) {
        int gsh = w->ri + nk == w->nr ? carry_gstore_shift(c, s0) : -1;
        emit_carry_round(c, codes, nk, w->ri, gsh);
        if (gsh >= 0) {
            sn_srcbuf_add(b, "}\n");
            return true;
        }
        w->ri += nk;
        w->r = rr;
        return false;
    }
    sn_srcbuf_add(b, "    local_layer(lk, %s, %d, %uu, %uu, w, 0x%xu, 1);\n", c->hp ? "lp" : "lk",
                  c->hp ? 1 : 0, 1u << c->t, c->W, w->r[1]);
    BARRIER(c);
    w->r += 2;
    w->ri++;
    return false;
}

/* A register round's indices: its work-item part, complemented, padded,
 * and (loading or storing straight from registers) global. */
static void emit_round_indices(pass_cg *c, const uint32_t *r, uint32_t ri, bool global)
{
    sn_srcbuf *b = c->b;
    const uint32_t *d = c->d;
    sn_srcbuf_add(b, "    /* round %u */\n    const uint wp%u = ", ri, ri);
    runs_expr(b, "w", r + R_RUNS, r[R_NWR], c->t - c->eb);
    sn_srcbuf_add(b, ";\n    const uint wc%u = wp%u ^ 0x%xu;\n", ri, ri, r[R_CMASK]);
    sn_srcbuf_add(b, "    const uint pw%u = lpad(wp%u), pc%u = lpad(wc%u);\n", ri, ri, ri, ri);
    sn_srcbuf_add(b, "    (void)pw%u; (void)pc%u;\n", ri, ri);
    if (!global)
        return;
    char gw[16], gc[16], wpn[16], wcn[16];
    snprintf(gw, sizeof gw, "gw%u", ri);
    snprintf(gc, sizeof gc, "gc%u", ri);
    snprintf(wpn, sizeof wpn, "wp%u", ri);
    snprintf(wcn, sizeof wcn, "wc%u", ri);
    sn_srcbuf_add(b, "    const uint gw%u = base | ", ri);
    runs_expr(b, wpn, d + H_RUNS, d[H_NRUNS], 32);
    sn_srcbuf_add(b, ";\n    const uint gc%u = base | ", ri);
    runs_expr(b, wcn, d + H_RUNS, d[H_NRUNS], 32);
    sn_srcbuf_add(b, ";\n");
    emit_bases(c, gw);
    emit_bases(c, gc);
}

/* The data into the round's registers: from global memory (straight, or
 * every column's loads in flight at once, then through local memory
 * column by column), from local memory, or from the previous round's
 * registers through local memory. */
static void emit_round_fill(pass_cg *c, const pass_walk *w, bool gload, const char *gw,
                            const char *gc)
{
    const uint32_t *r = w->r;
    if (w->state == ST_GLOBAL && gload) {
        for (uint32_t i = 0; i < c->E; i++)
            emit_gload(c, w->rb.cpl[i] ? gc : gw, r[R_TABR + i], i);
    } else if (w->state == ST_GLOBAL) {
        /* column q's loads land in the registers that receive column q,
         * which stay untouched until column q crosses (H200, 2^24: 0.909
         * ms against 0.922 loading each column just before it crosses) */
        for (uint32_t q = 0; q < c->P; q++)
            emit_load_column(c, q);
        for (uint32_t q = 0; q < c->P; q++) {
            if (q > 0)
                BARRIER(c);
            emit_column_to_local(c, q);
            BARRIER(c);
            emit_local_to_reg(c, &w->rb, q);
        }
    } else if (w->state == ST_LOCAL) {
        emit_local_to_reg(c, &w->rb, 0);
    } else {
        for (uint32_t q = 0; q < c->P; q++) {
            if (q > 0)
                BARRIER(c);
            emit_reg_to_local(c, &w->ra, q);
            BARRIER(c);
            emit_local_to_reg(c, &w->rb, q);
        }
    }
}

/* The round's layers on registers with literal indices. */
static void emit_round_layers(pass_cg *c, const uint32_t *r)
{
    uint32_t nl = r[R_NL(c->E)];
    for (uint32_t li = 0; li < nl; li++) {
        uint32_t code = r[R_CODES(c->E) + li], bt = code & 7u;
        bool mirror = code & 8u;
        if (code & 16u) { /* carry (i, i + 2^bt), i with bit bt, in blocks of 2^(ht+1) */
            uint32_t ht = (code >> 8) & 0xffu;
            for (uint32_t i = 0; i < c->E; i++)
                if (((i >> bt) & 1u) && (i >> (ht + 1)) == ((i + (1u << bt)) >> (ht + 1)))
                    sn_srcbuf_add(c->b, "    CX(%u, %u)\n", i, i + (1u << bt));
            continue;
        }
        for (uint32_t i = 0; i < c->E; i++)
            if (!((i >> bt) & 1u))
                sn_srcbuf_add(c->b, "    CX(%u, %u)\n", i,
                              mirror ? i ^ ((2u << bt) - 1u) : i | (1u << bt));
    }
}

/* A register round. Returns true when the pass ended (the last round
 * stored straight from registers). */
static bool emit_register_round(pass_cg *c, pass_walk *w)
{
    const uint32_t *r = w->r;
    uint32_t ri = w->ri;
    round_layout(c, r, ri, &w->rb);
    bool gload = ri == 0 && w->first_direct, gstore = ri + 1 == w->nr && w->last_direct;
    char gw[16], gc[16];
    snprintf(gw, sizeof gw, "gw%u", ri);
    snprintf(gc, sizeof gc, "gc%u", ri);
    emit_round_indices(c, r, ri, gload || gstore);
    emit_round_fill(c, w, gload, gw, gc);
    emit_round_layers(c, r);
    if (gstore) {
        for (uint32_t i = 0; i < c->E; i++) {
            char ks[16], ps[16];
            snprintf(ks, sizeof ks, "rk[%u]", i);
            snprintf(ps, sizeof ps, "rp[%u]", i);
            emit_gstore(c, w->rb.cpl[i] ? gc : gw, r[R_TABR + i], ks, ps);
        }
        sn_srcbuf_add(c->b, "}\n");
        return true;
    }
    w->ra = w->rb;
    w->state = ST_REGS;
    w->r += R_CODES(c->E) + r[R_NL(c->E)];
    w->ri++;
    return false;
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
    emit_pass_head(&c, p, k);
    pass_walk w;
    memset(&w, 0, sizeof w);
    w.state = ST_GLOBAL;
    w.first_direct = d[H_FIRST_DIRECT];
    w.last_direct = d[H_LAST_DIRECT];
    w.nr = d[H_NROUNDS];
    w.r = d + d[H_ROUNDS];
    w.cmax = carry_round_max(&c);
    while (w.ri < w.nr) {
        bool ended = w.r[0] == 1 ? emit_carry_layers(&c, &w) : emit_register_round(&c, &w);
        if (ended)
            return;
    }
    if (w.state == ST_REGS) {
        for (uint32_t q = 0; q < c.P; q++) {
            if (q > 0)
                BARRIER(&c);
            emit_reg_to_local(&c, &w.ra, q);
            BARRIER(&c);
            emit_store_column(&c, q);
        }
    } else if (w.state == ST_LOCAL) {
        emit_store_column(&c, 0);
    }
    sn_srcbuf_add(b, "}\n");
}

/* Window passes (odd-even carry layers of merges larger than a tile)
 *
 * The interpreting kernel (kernels/fused.cl: sn_fused_window) runs each
 * layer of a window through local memory with a barrier and index
 * arithmetic per element; on an H200 its passes took 3 to 6 copies of the
 * array each. Generated, a window pass is: the window from global into
 * local memory (coalesced), register rounds, the middle back to global.
 * Window coordinates as in sn_fused_window: y = x >> b, a window holds
 * positions ly = 0 .. W - 1 (y = A + ly, A = window * S - q0) of 2^c
 * columns (x's low bits), local index l = (ly << c) | column; its layers
 * have strides q0 = 2^(nl - 1), ..., 1 in y, and only the middle S = W -
 * 2 * q0 positions are written back (exact, as for the interpreter).
 * H200, odd-even merge of 2^24 keys, 14 window passes: 0.044 to 0.067 ms
 * each instead of 0.11 to 0.23, 1.68 ms in all instead of 3.15.
 *
 * A round takes up to `e` consecutive layers, strides s * 2^(e-1) .. s:
 * each work-item holds a run of E' positions of stride s in one column
 * (its middle) and RH = E' / 2 more on each side. The layers move a value
 * at most 2^e - 1 <= RH positions of the run, so the middle comes out
 * exactly as layer-by-layer would leave it, and goes back. (This bound
 * holds for any input. The tighter one of the carry rounds, RH >= the
 * first stride, needs middles that start at multiples of twice that
 * stride, and the middles of a window's first round start at the stride
 * itself, modulo twice it.) Outside the window a run reads the smallest
 * key on the left and the largest on the right: a comparator reaching them
 * never swaps, which is the interpreter's "pairs across the window's edge
 * are left out". Which positions are lefts (bit i of y set) is known
 * here: A = -q0 modulo 2 * q0. Merge blocks (2^B positions) do not align
 * with windows: a run that spans no block boundary runs its comparators
 * plainly, one that does tests each pair. */

/* padded local index of element i (w + i * WG) of a window's load and
 * store layout; lw = lpad(w), literal offsets when WG is a multiple of 32 */
static void window_lidx(char *buf, size_t size, uint32_t i, uint32_t WG)
{
    if (WG % 32 == 0)
        snprintf(buf, size, "lw + %uu", i * WG + i * WG / 32);
    else
        snprintf(buf, size, "lpad(w + %uu)", i * WG);
}

/* registers per work-item of a generated window: 2^5 keys (2^4 with
 * payload), so a round holds 2 * E' of them with its halos */
static uint32_t window_elems(const sn_fused_plan *p, uint32_t W)
{
    uint32_t E = p->payload ? 16 : 32;
    return E < W ? E : W;
}

/* "lefts": bit i of y = A + ly set, with ly = (run start) + s * j and A /
 * s = -(q0 / s) modulo 2^(i + 1) (the run start is a multiple of 2^(i+1)
 * positions of stride s) */
static bool window_left(uint32_t q0s, unsigned i, int j)
{
    int64_t m = (int64_t)1 << (i + 1);
    int64_t v = ((j - (int64_t)q0s) % m + m) % m;
    return v >= ((int64_t)1 << i);
}

/* One window pass being generated. */
typedef struct win_cg {
    sn_srcbuf *b;
    bool hp;
    int kt;
    uint32_t n;               /* the array's keys */
    unsigned bb, c, nl, B;    /* y = x >> bb, 2^c columns, layers, blocks of 2^B */
    uint32_t C, W, TL, q0, S; /* columns, positions, keys, halo, middle */
    uint32_t E, WG, WR;       /* registers, work-items, positions per load row */
    unsigned emax;            /* layers per round */
} win_cg;

static void window_setup(win_cg *x, const sn_fused_plan *p, const sn_fused_step *st,
                         unsigned window_round)
{
    x->hp = p->payload;
    x->kt = (int)p->kt;
    x->n = p->n;
    x->bb = st->wb;
    x->c = st->wc;
    x->nl = st->wnl;
    x->B = st->wlp - st->wb + 1;
    x->C = 1u << x->c;
    x->W = 1u << st->ww;
    x->TL = x->W << x->c;
    x->q0 = st->whalo;
    x->S = x->W - 2 * x->q0;
    x->E = window_elems(p, x->W);
    x->WG = x->TL / x->E;
    x->WR = x->WG >> x->c;
    x->emax = 0;
    while ((2u << x->emax) - 1u <= x->E / 2)
        x->emax++; /* 2^emax - 1 <= E / 2 */
    /* the tuning's limit: fewer layers per round (shorter runs, several
     * per work-item) */
    if (window_round && window_round < x->emax)
        x->emax = window_round;
}

/* The kernel's head and the window from global into local memory:
 * plainly where the whole window lies inside the array, else with the
 * smallest key before it and the largest past its end. */
static void window_load(const win_cg *x, size_t k)
{
    sn_srcbuf *b = x->b;
    unsigned zbits = x->bb - x->c;
    sn_srcbuf_add(b,
                  "\n/* window pass: %u carry layers, y = x >> %u, %u columns, %u positions, "
                  "middle %u, blocks of 2^%u */\n",
                  x->nl, x->bb, x->C, x->W, x->S, x->B);
    sn_srcbuf_add(b, "__kernel __attribute__((reqd_work_group_size(%u, 1, 1)))\n", x->WG);
    sn_srcbuf_add(b,
                  "void sn_cw%zu(__global const uint *keys, __global const uint *pay, __global "
                  "uint *okeys, __global uint *opay)\n{\n",
                  k);
    sn_srcbuf_add(b, "    __local uint lk[%u];\n", x->TL + x->TL / 32);
    if (x->hp)
        sn_srcbuf_add(b, "    __local uint lp[%u];\n", x->TL + x->TL / 32);
    sn_srcbuf_add(b, "    uint rk[%u];\n", 2 * x->E);
    if (x->hp)
        sn_srcbuf_add(b, "    uint rp[%u];\n", 2 * x->E);
    sn_srcbuf_add(b, "    (void)pay; (void)opay;\n");
    sn_srcbuf_add(b, "    const uint w = (uint)get_local_id(0), g = (uint)get_group_id(0);\n");
    sn_srcbuf_add(b, "    const uint z0 = (g & %uu) << %uu, wc = w & %uu, wr = w >> %uu;\n",
                  (1u << zbits) - 1u, x->c, x->C - 1u, x->c);
    sn_srcbuf_add(b, "    const int A = (int)((g >> %uu) * %uu) - %d, y0 = A + (int)wr;\n", zbits,
                  x->S, (int)x->q0);
    /* element i of the load and store layout: l = w + i * WG, ly = wr + i * WR */
    char li[64];
    if (x->WG % 32 == 0)
        sn_srcbuf_add(b, "    const uint lw = lpad(w);\n");
    /* every position of the window in the array: no checks */
    sn_srcbuf_add(
        b, "    const bool inside = A >= 0 && ((((uint)A + %uu) << %uu) | z0 | %uu) < %uu;\n",
        x->W - 1u, x->bb, x->C - 1u, x->n);
    sn_srcbuf_add(b,
                  "    if (inside) {\n        __global const uint *kx = keys + (((uint)y0 << "
                  "%uu) | z0 | wc);\n",
                  x->bb);
    if (x->hp)
        sn_srcbuf_add(b, "        __global const uint *px = pay + (((uint)y0 << %uu) | z0 | wc);\n",
                      x->bb);
    for (uint32_t i = 0; i < x->E; i++) {
        window_lidx(li, sizeof li, i, x->WG);
        sn_srcbuf_add(b, "        lk[%s] = to_ordered(%d, kx[%u]);\n", li, x->kt,
                      (i * x->WR) << x->bb);
        if (x->hp)
            sn_srcbuf_add(b, "        lp[%s] = px[%u];\n", li, (i * x->WR) << x->bb);
    }
    sn_srcbuf_add(b, "    } else {\n");
    for (uint32_t i = 0; i < x->E; i++) {
        window_lidx(li, sizeof li, i, x->WG);
        /* before the array: the smallest key; past its end: the largest */
        sn_srcbuf_add(
            b,
            "        { const int y = y0 + %d; const uint x = ((uint)y << %uu) | z0 | wc;\n"
            "          uint v = 0u, pv = 0u;\n"
            "          if (y >= 0) { v = SENTINEL; if (x < %uu) { v = to_ordered(%d, "
            "keys[x]);%s } }\n"
            "          lk[%s] = v;",
            (int)(i * x->WR), x->bb, x->n, x->kt, x->hp ? " pv = pay[x];" : "", li);
        if (x->hp)
            sn_srcbuf_add(b, " lp[%s] = pv;", li);
        sn_srcbuf_add(b, " (void)pv; }\n");
    }
    sn_srcbuf_add(b, "    }\n    barrier(CLK_LOCAL_MEM_FENCE);\n");
}

/* Run r's registers from local memory: its middle, and halos that read
 * the smallest (largest) key outside the window. */
static void window_run_load(const win_cg *x, uint32_t r, uint32_t Ep, uint32_t RH, uint32_t sC)
{
    sn_srcbuf *b = x->b;
    uint32_t RN = 2 * Ep;
    for (uint32_t j = 0; j < RN; j++) {
        int jj = (int)j - (int)RH, reg = (int)(r * RN + j);
        if (jj >= 0 && jj < (int)Ep) {
            sn_srcbuf_add(b, "    rk[%d] = lk[lpad((uint)(L%u + %d))];\n", reg, r, jj * (int)sC);
            if (x->hp)
                sn_srcbuf_add(b, "    rp[%d] = lp[lpad((uint)(L%u + %d))];\n", reg, r,
                              jj * (int)sC);
        } else {
            /* int arithmetic: a negative offset (a halo left of the window)
             * is meant, and printed with %d */
            // cppcheck-suppress signConversionCond
            int off = jj * (int)sC;
            sn_srcbuf_add(b,
                          "    { const uint l_ = (uint)(L%u + %d); rk[%d] = l_ < %uu ? "
                          "lk[lpad(l_)] : %s;",
                          r, off, reg, x->TL, jj < 0 ? "0u" : "SENTINEL");
            if (x->hp)
                sn_srcbuf_add(b, " rp[%d] = l_ < %uu ? lp[lpad(l_)] : 0u;", reg, x->TL);
            sn_srcbuf_add(b, " }\n");
        }
    }
}

/* Run r's comparators, layers top-1 .. ab (strides s * 2^i): plain where
 * the run spans no merge block boundary, else each pair tested. */
static void window_run_layers(const win_cg *x, uint32_t r, unsigned top, unsigned ab, uint32_t Ep,
                              uint32_t RH)
{
    sn_srcbuf *b = x->b;
    uint32_t s = 1u << ab, RN = 2 * Ep;
    sn_srcbuf_add(b, "    if (((yb%u - %d) >> %u) == ((yb%u + %d) >> %u)) {\n", r, (int)(s * RH),
                  x->B, r, (int)(s * (Ep + RH) - 1), x->B);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            sn_srcbuf_add(b, "    } else {\n");
        for (unsigned a = top; a-- > ab;) {
            unsigned i = a - ab;
            int d = 1 << i;
            for (int jj = -(int)RH; jj + d < (int)(Ep + RH); jj++) {
                if (!window_left(x->q0 >> ab, i, jj))
                    continue;
                int r1 = (int)(r * RN) + jj + (int)RH;
                if (pass == 0)
                    sn_srcbuf_add(b, "    CX(%d, %d)\n", r1, r1 + d);
                else /* both ends in one block of 2^B */
                    sn_srcbuf_add(b, "    if (((uint)(yb%u + %d) & %uu) < %uu) CX(%d, %d)\n", r,
                                  jj * (int)s, (uint32_t)((1ull << x->B) - 1u),
                                  (uint32_t)((1ull << x->B) - (uint64_t)s * (uint64_t)d), r1,
                                  r1 + d);
            }
        }
    }
    sn_srcbuf_add(b, "    }\n");
}

/* One register round: layers top-1 .. ab, from local memory and back. */
static void window_round(const win_cg *x, unsigned top, unsigned ab)
{
    sn_srcbuf *b = x->b;
    unsigned e = top - ab;
    uint32_t s = 1u << ab, Ep = x->W >> ab < x->E ? x->W >> ab : x->E, RH = Ep / 2;
    uint32_t R = x->E / Ep, sC = s << x->c, RN = 2 * Ep;
    sn_srcbuf_add(b, "    /* round: strides %u..%u, runs of %u, halos of %u, %u per work-item */\n",
                  s << (e - 1), s, Ep, RH, R);
    sn_srcbuf_add(b, "    {\n");
    for (uint32_t r = 0; r < R; r++) {
        /* run u = w + WG * r: column, residue modulo s, run index */
        sn_srcbuf_add(b,
                      "    const uint u%u = w + %uu;\n"
                      "    const int L%u = (int)((u%u & %uu) + (u%u >> %uu) * %uu), yb%u = A + "
                      "(L%u >> %u);\n",
                      r, x->WG * r, r, r, sC - 1u, r, x->c + ab, Ep * sC, r, r, x->c);
        window_run_load(x, r, Ep, RH, sC);
    }
    sn_srcbuf_add(b, "    barrier(CLK_LOCAL_MEM_FENCE);\n");
    for (uint32_t r = 0; r < R; r++)
        window_run_layers(x, r, top, ab, Ep, RH);
    for (uint32_t r = 0; r < R; r++)
        for (uint32_t jj = 0; jj < Ep; jj++) {
            uint32_t reg = r * RN + jj + RH;
            sn_srcbuf_add(b, "    lk[lpad((uint)(L%u + %d))] = rk[%u];\n", r, (int)(jj * sC), reg);
            if (x->hp)
                sn_srcbuf_add(b, "    lp[lpad((uint)(L%u + %d))] = rp[%u];\n", r, (int)(jj * sC),
                              reg);
        }
    sn_srcbuf_add(b, "    barrier(CLK_LOCAL_MEM_FENCE);\n    }\n");
}

/* The middle rows back, to the other array. */
static void window_store(const win_cg *x)
{
    sn_srcbuf *b = x->b;
    char li[64];
    sn_srcbuf_add(b,
                  "    if (inside) {\n        __global uint *ko = okeys + (((uint)y0 << %uu) | z0 "
                  "| wc);\n",
                  x->bb);
    if (x->hp)
        sn_srcbuf_add(b, "        __global uint *po = opay + (((uint)y0 << %uu) | z0 | wc);\n",
                      x->bb);
    for (uint32_t i = 0; i < x->E; i++) {
        window_lidx(li, sizeof li, i, x->WG);
        sn_srcbuf_add(b, "        if (wr + %uu - %uu < %uu) { ko[%u] = from_ordered(%d, lk[%s]);",
                      i * x->WR, x->q0, x->S, (i * x->WR) << x->bb, x->kt, li);
        if (x->hp)
            sn_srcbuf_add(b, " po[%u] = lp[%s];", (i * x->WR) << x->bb, li);
        sn_srcbuf_add(b, " }\n");
    }
    sn_srcbuf_add(b, "    } else {\n");
    for (uint32_t i = 0; i < x->E; i++) {
        window_lidx(li, sizeof li, i, x->WG);
        sn_srcbuf_add(b,
                      "        if (wr + %uu - %uu < %uu) { const uint x = ((uint)(y0 + %d) << %uu) "
                      "| z0 | wc; if (x < %uu) { okeys[x] = from_ordered(%d, lk[%s]);",
                      i * x->WR, x->q0, x->S, (int)(i * x->WR), x->bb, x->n, x->kt, li);
        if (x->hp)
            sn_srcbuf_add(b, " opay[x] = lp[%s];", li);
        sn_srcbuf_add(b, " } }\n");
    }
    sn_srcbuf_add(b, "    }\n}\n");
}

static void emit_window(sn_srcbuf *b, const sn_fused_plan *p, size_t k, sn_fused_step *st,
                        unsigned window_round_max)
{
    win_cg x;
    x.b = b;
    window_setup(&x, p, st, window_round_max);
    st->wwg = x.WG;
    window_load(&x, k);
    /* rounds, from the largest stride down */
    for (unsigned top = x.nl; top > 0;) {
        unsigned e = top < x.emax ? top : x.emax, ab = top - e; /* strides 2^(top-1) .. 2^ab */
        window_round(&x, top, ab);
        top = ab;
    }
    window_store(&x);
}

sn_status sn_fused_source(const sn_fused_plan *p, const sn_gpu_tuning *tu, char **out,
                          sn_diag *diag)
{
    *out = NULL;
    const char *lib = sn_kernel_source_find("fused");
    if (!lib)
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "kernels/fused.cl was not embedded");
    sn_srcbuf b = {0};
    /* (the generated text is kept as it was measured: "----" included) */
    sn_srcbuf_add(
        &b,
        "%s\n/* ---- generated by src/gpu/fused_cg.c: %zu tile and %zu window passes, n = %u */\n",
        lib, p->tile_passes, p->window_passes, p->n);
    if (p->n != (1ull << p->nbits))
        sn_srcbuf_add(&b, "#define N %uu\n", p->n);
    for (size_t i = 0; i < p->nsteps; i++) {
        if (p->steps[i].layer == SN_STEP_TILE)
            emit_pass(&b, p, i, p->desc + p->steps[i].off);
        else if (p->steps[i].layer == SN_STEP_WINDOW)
            emit_window(&b, p, i, &p->steps[i], tu->window_round);
    }
    if (b.oom) {
        sn_free(b.s);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory generating fused kernels");
    }
    *out = b.s;
    return SN_OK;
}

/* The generated program's kernels, one per tile and window pass. */
static sn_status codegen_kernels(sn_fused_plan *p, sn_diag *diag)
{
    p->cg_k = sn_calloc(p->nsteps, sizeof *p->cg_k);
    if (!p->cg_k)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for fused kernels");
    for (size_t i = 0; i < p->nsteps; i++) {
        if (p->steps[i].layer != SN_STEP_TILE && p->steps[i].layer != SN_STEP_WINDOW)
            continue;
        char name[32];
        snprintf(name, sizeof name, p->steps[i].layer == SN_STEP_TILE ? "sn_cg%zu" : "sn_cw%zu", i);
        cl_int err;
        p->cg_k[i] = clCreateKernel(p->cg_prog, name, &err);
        if (err != CL_SUCCESS)
            return sn_gpu_cl_fail(diag, "clCreateKernel(generated fused pass)", err);
    }
    return SN_OK;
}

sn_status sn_fused_codegen(sn_gpu *g, const sn_gpu_tuning *tu, sn_fused_plan *p, sn_diag *diag)
{
    if (p->serial || p->tile_passes + p->window_passes == 0)
        return SN_OK;
    char *src = NULL;
    sn_status st = sn_fused_source(p, tu, &src, diag);
    if (st != SN_OK)
        return st;
    char opts[160];
    snprintf(opts, sizeof opts, "-DSN_CODEGEN=1 -DHP=%d -DKT=%d -DE_BITS=%u", p->payload ? 1 : 0,
             (int)p->kt, p->ebits);
    cl_program prog;
    st = sn_gpu_build_source_opts(g, src, opts, false, &prog, diag);
    sn_free(src);
    if (st != SN_OK)
        return st;
    p->cg_prog = prog;
    return codegen_kernels(p, diag);
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
