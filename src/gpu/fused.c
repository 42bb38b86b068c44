/* fused.c - plans and runs the fused variants: many layers per launch.
 *
 * The layers of a bitonic or odd-even merge schedule each touch a set of
 * global bit positions (a cleaner i ^ 2^b: {b}; a bitonic mirror
 * i ^ (2^(b+1) - 1): {b}, with the bits below it complemented; an odd-even
 * carry layer i + 2^lo inside blocks of 2^(hi+1): lo..hi). A tile pass is
 * a run of consecutive layers whose bits, together with the low
 * "coalescing" bits, fit in a tile of t bits; each work-group loads one
 * tile (the indices agreeing outside those bits), runs the layers in
 * local memory and registers, and writes it back (kernels/fused.cl says
 * how the tile stays closed under a mirror). The odd-even carry layers
 * that span more than a tile run as window passes over overlapping
 * windows (below); only where no window fits (too little local memory,
 * 2^30 keys and more) does such a layer run as one closed-form launch.
 *
 * The plan is made in named steps (sn_fused_plan_make): plan_setup fixes
 * the tile, window and coalescing sizes from the device and the tuning
 * record; plan_layers turns layers into bit sets; plan_groups packs them
 * into passes; plan_passes writes each pass: window runs, single layers,
 * and tile passes (header, layers, register rounds) into the descriptor
 * words that the interpreting kernel reads and fused_cg.c compiles.
 *
 * Invariant: the passes apply exactly the schedule's layers in order, each
 * comparator exactly as the reference does, so the final array is
 * bit-identical; only the intermediate states inside a pass are never
 * materialised. */
#include "gpu/gpu_internal.h"
#include "gpu/fused_desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "gpu/kernels.h"

#define DIRECT_BITS 5 /* a warp's 32 work-items on consecutive words */

enum { ZL_CLEAN = 0, ZL_MIRROR = 1, ZL_CARRY = 2 };

typedef struct zl {
    int kind;
    unsigned lo, hi; /* bits lo..hi (cleaner, mirror: lo == hi) */
} zl;

typedef struct group {
    size_t first, count;
    uint32_t set; /* bits used (before filling) */
    int cand;     /* the complementing mirror's bit, or -1 */
    bool alone;   /* fits no tile */
} group;

static unsigned popc(uint32_t x)
{
    unsigned c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

static unsigned log2u(uint32_t x)
{
    unsigned l = 0;
    while ((1u << l) < x)
        l++;
    return l;
}

static uint32_t need_of(const zl *l)
{
    if (l->kind == ZL_CARRY)
        return (uint32_t)((2ull << l->hi) - (1ull << l->lo));
    return 1u << l->lo;
}

/* Greedy grouping of consecutive layers into sets of at most cap bits
 * (starting from init), with at most one mirror that complements bits
 * outside its group. Returns the number of groups written to out. */
static size_t pack(const zl *ls, size_t nl, uint32_t init, unsigned cap, uint32_t universe,
                   group *out)
{
    size_t ng = 0, start = 0;
    uint32_t cur = init;
    int cand = -1;
    for (size_t i = 0; i < nl; i++) {
        uint32_t need = need_of(&ls[i]);
        uint32_t q = cur | need;
        bool ok = popc(q) <= cap;
        bool compl = false;
        if (ls[i].kind == ZL_MIRROR) {
            uint32_t low = ((1u << ls[i].lo) - 1u) & universe;
            compl = (low & ~q) != 0;
            if (compl &&cand >= 0)
                ok = false;
        }
        if (ok) {
            cur = q;
            if (compl )
                cand = (int)ls[i].lo;
            continue;
        }
        if (i > start)
            out[ng++] = (group){start, i - start, cur, cand, false};
        start = i;
        cur = init | need;
        cand = -1;
        if (popc(cur) > cap) {
            out[ng++] = (group){i, 1, need, -1, true};
            start = i + 1;
            cur = init;
            continue;
        }
        if (ls[i].kind == ZL_MIRROR && ((((1u << ls[i].lo) - 1u) & universe) & ~cur))
            cand = (int)ls[i].lo;
    }
    if (nl > start)
        out[ng++] = (group){start, nl - start, cur, cand, false};
    return ng;
}

/* Fill set up to cap bits with the lowest unused bits of universe. */
static uint32_t fill(uint32_t set, unsigned cap, uint32_t universe)
{
    for (unsigned b = 0; b < 32 && popc(set) < cap; b++)
        if (((universe >> b) & 1u) && !((set >> b) & 1u))
            set |= 1u << b;
    return set;
}

/* Fill set up to cap bits with the highest unused bits of universe: the
 * work-item id then spreads over the low bits (consecutive addresses). */
static uint32_t fill_high(uint32_t set, unsigned cap, uint32_t universe)
{
    for (int b = 31; b >= 0 && popc(set) < cap; b--)
        if (((universe >> b) & 1u) && !((set >> b) & 1u))
            set |= 1u << b;
    return set;
}

unsigned sn_fused_bit_runs(uint32_t mask, uint32_t *runs, unsigned max)
{
    unsigned nr = 0, pos = 0;
    for (unsigned b = 0; b < 32;) {
        if (!((mask >> b) & 1u)) {
            b++;
            continue;
        }
        unsigned len = 0;
        while (b + len < 32 && ((mask >> (b + len)) & 1u))
            len++;
        if (nr == max)
            return max + 1;
        runs[3 * nr] = pos;
        runs[3 * nr + 1] = len;
        runs[3 * nr + 2] = b;
        nr++;
        pos += len;
        b += len;
    }
    return nr;
}

static unsigned rank_in(uint32_t set, unsigned bit)
{
    return popc(set & ((1u << bit) - 1u));
}

/* growable word array */
typedef struct words {
    uint32_t *w;
    size_t len, cap;
    bool oom;
} words;

static size_t push(words *v, uint32_t x)
{
    if (v->len == v->cap) {
        size_t nc = v->cap ? v->cap * 2 : 1024;
        uint32_t *nw = sn_realloc(v->w, nc * sizeof *nw);
        if (!nw) {
            v->oom = true;
            return v->len;
        }
        v->w = nw;
        v->cap = nc;
    }
    v->w[v->len] = x;
    return v->len++;
}

void sn_fused_plan_free(sn_fused_plan *p)
{
    sn_fused_codegen_free(p);
    sn_free(p->desc);
    sn_free(p->steps);
    memset(p, 0, sizeof *p);
}

static bool mode_serial(const sn_gpu *g, sn_gpu_variant v)
{
    if (v == SN_GPU_VARIANT_FUSED_SERIAL)
        return true;
    if (v == SN_GPU_VARIANT_FUSED_LOCAL)
        return false;
    return strcmp(g->info.type, "CPU") == 0;
}

/* Low index bits kept in every tile: 3 on GPUs (a warp reads whole
 * 32-byte sectors; measured best on an H200), 4 on CPUs. */
#define COALESCE_BITS_GPU 3
#define COALESCE_BITS_CPU 4

/* Elements per GPU work-item in local-memory tiles: 2^5 in registers
 * without payload (a tile of 2^13 with the 256 work-items NVIDIA allows,
 * five layers per register round: 19 passes instead of 22 at 2^24, 1.17x
 * on an H200), 2^4 with payload (twice the registers per element, and
 * 2^13 tiles of keys and payload exceed 48 KiB of local memory anyway).
 * The interpreting kernel is built with the same value (E_BITS). */
static unsigned elem_bits(bool payload)
{
    return payload ? 4 : 5;
}

/* whether layer x (local bits) runs in a register round of 2^eb keys;
 * creg: carry layers whose bits lo..hi fit the round may (generated
 * kernels: H200, odd-even merge of 2^24 keys, 1.586 ms instead of 1.693) */
static bool in_regs(const zl *x, bool creg, unsigned eb)
{
    return x->kind != ZL_CARRY || (creg && x->hi - x->lo < eb);
}

/* Window passes: odd-even carry layers that fit no tile
 *
 * A merge of blocks larger than a tile ends in carry layers (i, i + q),
 * q = 2^a, ..., 1, whose pairs cross every aligned tile boundary. Such a
 * run keeps the index bits below its smallest q, so it runs on strided
 * subsequences, and there on overlapping windows (kernels/fused.cl,
 * sn_fused_window): a window of 2^w positions takes up to w - 2 layers,
 * its first layer's q (in subsequence positions) at most 2^(w-3), so the
 * halo it shares with each neighbour costs at most a third more reads
 * (H200: one window of halves for a run of w - 1 layers, twice the reads,
 * took as long as two passes). The halo is the first layer's q, not the
 * sum of the layers' q, and windows start at -q modulo 2q: a merge's input
 * is two sorted halves, and from such a start no value that reaches the
 * middle comes from further out (tests/test_halo.c checks the rule against
 * the reference, and that a smaller halo or shifted windows break it). The
 * run is cut from its smallest q upwards: the last chunk (q down to 1) is
 * contiguous, the others keep 2^c consecutive low indices per work-group
 * for whole memory sectors. */

/* Work-items per interpreted window on GPUs (one on CPUs). */
#define WINDOW_WG_GPU 256
/* GPU windows of strided positions: 2^5 consecutive keys (a 128-byte
 * line) per position where that leaves room for the chunk's layers, else
 * the coalescing bits of the tiles. */
#define WINDOW_WIDE_COLS 5

/* Window size: the largest padded window local memory holds, at most
 * the tuning's (by default 2^13 keys on GPUs, 2^14 on CPUs, one
 * work-item); 0: no windows (the carry layers then run one launch each). */
static unsigned window_bits(const sn_gpu *g, const sn_gpu_tuning *tu, bool serial, bool payload)
{
    if (!tu->windows)
        return 0;
    unsigned w = serial ? SN_TUNE_WINDOW_BITS_CPU : SN_TUNE_WINDOW_BITS_GPU;
    if (tu->window_bits)
        w = tu->window_bits < SN_TUNE_TILE_BITS_MAX ? tu->window_bits : SN_TUNE_TILE_BITS_MAX;
    unsigned bpe = payload ? 8 : 4;
    while (w >= 3 && (((size_t)1 << w) + ((size_t)1 << w) / 32) * bpe + 64 > g->info.local_mem)
        w--;
    return w >= 3 ? w : 0;
}

static size_t window_wg(const sn_gpu *g, bool serial)
{
    size_t w = serial ? 1 : WINDOW_WG_GPU;
    if (w > g->info.max_work_group)
        w = g->info.max_work_group;
    return w ? w : 1;
}

/* A window chunk: carry layers with q = 2^b .. 2^(b + k - 1) (in index
 * bits; b: the chunk's lowest), on windows of 2^w positions of 2^c
 * consecutive keys. */
typedef struct wchunk {
    unsigned b, c, w, k;
} wchunk;

/* Cut the carry layers whose lo bits run bot..top into window chunks,
 * smallest q first; returns how many (at most 32). */
static unsigned window_chunks(unsigned bot, unsigned top, unsigned wt, unsigned cbits,
                              unsigned cwide, wchunk *ch)
{
    unsigned nch = 0;
    for (unsigned bb = bot; bb <= top && nch < 32;) {
        unsigned c = bb < cbits ? bb : cbits;
        if (c + 3 > wt)
            c = wt - 3;
        /* the rest fits a window of 2^cwide columns: take those (whole
         * 128-byte lines; H200, odd-even merge of 2^24 keys: 1.492 and
         * 1.487 ms against 1.541 and 1.537 with 2^3) */
        unsigned cw = bb < cwide ? bb : cwide;
        if (cw > c && cw + 3 <= wt && wt - cw - 2 >= top - bb + 1)
            c = cw;
        unsigned w = wt - c, k = w - 2;
        if (k > top - bb + 1)
            k = top - bb + 1;
        ch[nch++] = (wchunk){bb, c, w, k};
        bb += k;
    }
    return nch;
}

/* Plan the carry layers ls[first .. first + count) (q halving, one merge)
 * as window passes, appended to p->steps. */
static void plan_windows(sn_fused_plan *p, const zl *ls, size_t first, size_t count, unsigned wt,
                         unsigned cbits, unsigned cwide)
{
    unsigned top = ls[first].lo, lp = ls[first].hi;
    unsigned bot = top + 1u - (unsigned)count;
    wchunk ch[32];
    unsigned nch = window_chunks(bot, top, wt, cbits, cwide, ch);
    for (unsigned i = nch; i-- > 0;) { /* largest q first: the schedule's order */
        sn_fused_step *st = &p->steps[p->nsteps++];
        unsigned hi = ch[i].b + ch[i].k - 1;
        st->layer = SN_STEP_WINDOW;
        st->wb = ch[i].b;
        st->wc = ch[i].c;
        st->ww = ch[i].w;
        st->wlp = lp;
        st->wlq = hi;
        st->wnl = ch[i].k;
        st->whalo = 1u << (ch[i].k - 1); /* the first layer's q in y: a carry layer */
        uint64_t ny = ((uint64_t)p->n >> ch[i].b) + 1u;
        uint64_t mid = ((uint64_t)1 << ch[i].w) - 2u * st->whalo;
        st->wgroups = (size_t)(((ny + mid - 1) / mid) << (ch[i].b - ch[i].c));
        p->window_passes++;
    }
}

/* Generated odd-even tile passes are packed with one more low bit than
 * the windows' c: a merge's tile pass holds bits {0..c} and a run of high
 * bits, so a warp reads 64 bytes of each 128-byte line instead of 32
 * (H200, 2^24 keys: 0.040 to 0.042 ms a pass instead of 0.053 to 0.056;
 * 1.42 ms in all instead of 1.49, 2^26 5.94 instead of 6.27). That leaves the
 * pass's last carry layer to the windows; oe_narrow gives it back, with
 * bit c dropped, wherever the windows would otherwise take one more pass. */

/* whether carry layer x comes right after layer y in one merge */
static bool carry_next(const zl *y, const zl *x)
{
    if (x->kind != ZL_CARRY)
        return false;
    if (y->kind == ZL_CARRY)
        return y->hi == x->hi && y->lo == x->lo + 1;
    return y->kind == ZL_CLEAN && y->lo == x->hi && x->lo + 1 == x->hi;
}

static size_t oe_narrow(const zl *ls, group *gs, size_t ng, unsigned c, unsigned t, unsigned wt,
                        unsigned cwide)
{
    size_t o = 0;
    for (size_t gi = 0; gi < ng; gi++) {
        group G = gs[gi];
        const zl *y = &ls[G.first + G.count - 1], *x = gi + 1 < ng ? &ls[gs[gi + 1].first] : NULL;
        if (!G.alone && x && gs[gi + 1].alone && carry_next(y, x)) {
            size_t R = 1; /* the windows' run of carry layers */
            while (gi + 1 + R < ng && gs[gi + 1 + R].alone &&
                   carry_next(&ls[gs[gi + R].first], &ls[gs[gi + 1 + R].first]))
                R++;
            uint32_t U = (1u << c) - 1u;
            for (size_t i = 0; i <= G.count; i++)
                U |= need_of(&ls[G.first + i]);
            wchunk ch[32];
            unsigned top = x->lo, bot = top + 1u - (unsigned)R;
            unsigned now = window_chunks(bot, top, wt, c, cwide, ch);
            unsigned then = R > 1 ? window_chunks(bot, top - 1, wt, c, cwide, ch) : 0;
            if (popc(U) <= t && then < now) {
                G.count++;
                G.set = U;
                gs[o++] = G;
                gi++; /* its first window layer is now the pass's */
                continue;
            }
        }
        gs[o++] = G;
    }
    return o;
}

/* What a plan's passes share: the schedule's sizes and the device's
 * choices, fixed before the layers are grouped. */
typedef struct plan_ctx {
    sn_algo a;
    size_t L;
    bool cg;           /* generated kernels */
    unsigned t, eb;    /* tile bits, register bits per work-item */
    unsigned c;        /* coalescing low bits in every tile */
    unsigned first_t;  /* the first pass's own tile bits (0: none) */
    unsigned first_eb; /* ... and its register bits */
    unsigned wt;       /* window bits (0: no windows) */
    unsigned cwide;    /* columns of a strided window */
    bool oew;          /* odd-even tile passes one low bit wider (oe_narrow) */
    uint32_t universe; /* the index bits of the padded array */
} plan_ctx;

/* The fused variants take bitonic and odd-even merge schedules only. */
static sn_status plan_check(const sn_schedule *s, sn_gpu_variant v, sn_diag *diag)
{
    sn_algo a = sn_schedule_algo(s);
    if (sn_schedule_network(s) || (a != SN_ALGO_BITONIC && a != SN_ALGO_ODDEVEN_MERGE))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "variant '%s' fuses bitonic and oddeven-merge schedules; '%s' runs "
                           "with one launch per layer (--variant auto)",
                           sn_gpu_variant_name(v), sn_schedule_name(s));
    return SN_OK;
}

/* whether a padded tile of 2^t keys (bytes per element bpe) exceeds
 * local memory */
static bool tile_too_big(const sn_gpu *g, unsigned t, unsigned bpe)
{
    return (((size_t)1 << t) + ((size_t)1 << t) / 32) * bpe + 64 > g->info.local_mem;
}

/* The tile of a CPU pass: one work-item's, at most 64 KiB of keys. */
static unsigned serial_tile_bits(const sn_gpu_tuning *tu, unsigned nb)
{
    unsigned t = SN_TUNE_TILE_BITS_CPU;
    if (tu->tile_bits && tu->tile_bits < t)
        t = tu->tile_bits;
    return t > nb ? nb : t;
}

/* The tile of a GPU pass: the largest that local memory and the
 * work-group size allow; then, for generated bitonic passes without
 * payload, a bigger tile held in registers as 2^col_bits columns of
 * that one. Measured on an H200 (u32, kernel time): register tiles of
 * 2^14 with 2^6 elements per work-item (256 work-items, 80 registers, two
 * work-groups per SM) take 16 passes at 2^24 and 9 at 2^20 instead of 19
 * and 11: 0.92 ms instead of 0.95, 0.112 ms instead of 0.131. Tiles of
 * 2^15 take 14 and 8 passes but leave one work-group per SM, whose
 * loads, exchanges and stores do not overlap: 1.2-1.3 ms. */
static void gpu_tile_bits(const sn_gpu *g, const sn_gpu_tuning *tu, plan_ctx *x, sn_key_type kt,
                          bool payload, sn_fused_plan *p)
{
    unsigned eb = elem_bits(payload), nb = p->nbits < eb ? eb : p->nbits;
    unsigned t = SN_TUNE_TILE_BITS_GPU;
    if (tu->tile_bits && tu->tile_bits < t)
        t = tu->tile_bits < eb ? eb : tu->tile_bits;
    while (t > eb && tile_too_big(g, t, payload ? 8 : 4))
        t--;
    /* generated kernels state their work-group size, so the compiler
     * fits their registers to it: only the device's limit applies */
    size_t wgmax = x->cg ? g->info.max_work_group : g->fused_wg_max[payload ? 1 : 0][(int)kt];
    while (t > eb && ((size_t)1 << (t - eb)) > wgmax)
        t--;
    if (t > nb)
        t = nb;
    unsigned tb = tu->reg_tile_bits, ebb = tu->reg_elem_bits;
    if (tb > nb)
        tb = nb;
    if (x->cg && !payload && x->a == SN_ALGO_BITONIC && tb > t && tb - t + 3 <= ebb &&
        tb >= ebb + 5 && tb <= 24 && ((size_t)1 << (tb - ebb)) <= g->info.max_work_group) {
        p->col_bits = tb - t;
        t = tb;
        eb = ebb;
    }
    p->nbits = nb;
    x->t = t;
    x->eb = eb;
}

/* Register tiles: the first pass, which sorts whole tiles, over a smaller
 * local-memory tile of its own. H200, 2^24: that pass took 0.250 ms over
 * tiles of 2^14 and 0.129 ms over 2^12 with 2^5 keys per work-item, for
 * one more pass in all: 0.856 ms instead of 0.919 (2^26: 3.75 instead of
 * 4.07; 2^23 0.399 instead of 0.412; 2^22 a tie; 2^21 0.146 instead of
 * 0.162). At 2^20 the extra pass costs more than it saves (0.146 instead
 * of 0.119-0.130), hence first_tile_from. */
static void first_tile(const sn_gpu_tuning *tu, const sn_fused_plan *p, plan_ctx *x)
{
    x->first_eb = p->col_bits ? 5 : x->eb;
    x->first_t = 0;
    if (!p->col_bits || p->nbits < tu->first_tile_from)
        return;
    unsigned f = tu->first_tile_bits;
    if (f && f < x->t - p->col_bits && f >= x->first_eb + 5)
        x->first_t = f;
}

/* Everything fixed before the layers are grouped: tiles, windows, the
 * low bits every tile keeps. */
static void plan_setup(const sn_gpu *g, const sn_gpu_tuning *tu, const sn_schedule *s,
                       sn_gpu_variant v, bool payload, sn_key_type kt, plan_ctx *x,
                       sn_fused_plan *p)
{
    memset(x, 0, sizeof *x);
    x->a = sn_schedule_algo(s);
    x->L = sn_schedule_layer_count(s);
    p->n = sn_schedule_wires(s);
    p->nbits = log2u(p->n);
    p->serial = mode_serial(g, v);
    x->cg = !p->serial && sn_gpu_generates(g);
    x->eb = elem_bits(payload);
    if (p->serial)
        x->t = serial_tile_bits(tu, p->nbits);
    else
        gpu_tile_bits(g, tu, x, kt, payload, p);
    p->tile_bits = x->t;
    p->kt = kt;
    p->payload = payload;
    p->ebits = x->eb;
    unsigned nb = p->nbits;
    x->universe = nb >= 32 ? 0xffffffffu : (1u << nb) - 1u;
    x->c = p->serial ? COALESCE_BITS_CPU : COALESCE_BITS_GPU;
    if (x->c > x->t)
        x->c = x->t;
    first_tile(tu, p, x);
    /* below 2^30 keys: the window kernel counts positions in int */
    bool oem = x->a == SN_ALGO_ODDEVEN_MERGE;
    x->wt = oem && p->n < (1u << 30) ? window_bits(g, tu, p->serial, payload) : 0;
    if (x->wt > (nb > 3 ? nb : 3)) /* no window larger than the array */
        x->wt = nb > 3 ? nb : 3;
    p->win_bits = x->wt;
    p->win_wg = window_wg(g, p->serial);
    x->oew = x->wt && x->cg && oem && x->c + 1 < x->t;
    x->cwide = p->serial ? x->c : WINDOW_WIDE_COLS;
}

/* The schedule's layers as index-bit sets (zl). */
static void plan_layers(const sn_schedule *s, const plan_ctx *x, zl *ls)
{
    for (size_t k = 0; k < x->L; k++) {
        sn_layer_form f = sn_schedule_layer_form(s, k);
        unsigned lq = log2u(f.q), lp = log2u(f.p);
        if (x->a == SN_ALGO_BITONIC)
            ls[k] = (zl){f.q * 2 == f.p ? ZL_MIRROR : ZL_CLEAN, lq, lq};
        else
            ls[k] = f.q == f.p ? (zl){ZL_CLEAN, lp, lp} : (zl){ZL_CARRY, lq, lp};
    }
}

/* Group the layers into passes (gs), the first with its own tile when
 * there is one; returns the count. */
static size_t plan_groups(const zl *ls, const plan_ctx *x, group *gs)
{
    uint32_t init = x->c ? (1u << x->c) - 1u : 0;
    uint32_t tinit = x->oew ? (2u << x->c) - 1u : init;
    size_t ng = pack(ls, x->L, tinit, x->first_t ? x->first_t : x->t, x->universe, gs);
    if (x->first_t && ng > 1) { /* the rest with the big tile */
        size_t done0 = gs[0].count;
        ng = 1 + pack(ls + done0, x->L - done0, tinit, x->t, x->universe, gs + 1);
        for (size_t gi = 1; gi < ng; gi++)
            gs[gi].first += done0;
    }
    if (x->oew) {
        size_t g0 = x->first_t ? 1 : 0; /* the first pass keeps its own tile */
        ng = g0 + oe_narrow(ls, gs + g0, ng - g0, x->c, x->t, x->wt, x->cwide);
    }
    return ng;
}

/* A tile pass being written into the descriptor words. */
typedef struct tile_w {
    words *v;
    size_t off;       /* the pass's first word */
    unsigned gt, geb; /* its tile bits and register bits per work-item */
    unsigned gcb;     /* its column bits */
    uint32_t B;       /* the tile's global bits */
    uint32_t lu;      /* the tile's local bits */
    size_t nrounds;
    bool last_direct;
} tile_w;

/* The header: tile bits, the complementing mirror, the bit runs, and
 * the global bits of each work-item's elements for the loads. */
static sn_status tile_header(tile_w *w, const group *G, const plan_ctx *x, sn_diag *diag)
{
    words *v = w->v;
    size_t off = w->off;
    v->w[off + H_T] = w->gt;
    v->w[off + H_EBITS] = w->geb;
    v->w[off + H_CBITS] = w->gcb;
    v->w[off + H_BMASK] = w->B;
    v->w[off + H_ABIT] = 32;
    if (G->cand >= 0) {
        uint32_t am = ((1u << G->cand) - 1u) & x->universe & ~w->B;
        if (am) {
            v->w[off + H_ABIT] = (uint32_t)G->cand;
            v->w[off + H_AMASK] = am;
        }
    }
    unsigned nr = sn_fused_bit_runs(w->B, v->w + off + H_RUNS, MAX_RUNS);
    if (nr > MAX_RUNS)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "fused plan: tile of too many runs");
    v->w[off + H_NRUNS] = nr;
    /* global bits of local index i << (t - eb), for the GPU kernel's
     * loads: its work-item w holds w + i * 2^(t - eb) */
    for (uint32_t i = 0; i < (1u << w->geb) && i < E_MAX; i++) {
        uint32_t j = w->gt >= w->geb ? i << (w->gt - w->geb) : 0, xg = 0;
        for (unsigned r = 0; r < nr; r++) {
            uint32_t js = v->w[off + H_RUNS + 3 * r], len = v->w[off + H_RUNS + 3 * r + 1];
            xg |= ((j >> js) & ((1u << len) - 1u)) << v->w[off + H_RUNS + 3 * r + 2];
        }
        v->w[off + H_TAB + i] = xg;
    }
    return SN_OK;
}

/* local bits of register index ii of a round over rset */
static uint32_t round_local(uint32_t rset, uint32_t ii)
{
    uint32_t l = 0;
    for (unsigned k2 = 0, b = 0; b < 32; b++)
        if ((rset >> b) & 1u) {
            if ((ii >> k2) & 1u)
                l |= 1u << b;
            k2++;
        }
    return l;
}

/* One register round (kind 0) over the layers loc[R->first ..] of the
 * run at loc. */
static sn_status tile_round(tile_w *w, const group *R, const zl *loc, sn_diag *diag)
{
    words *v = w->v;
    uint32_t rset = fill_high(R->set, w->geb, w->lu);
    /* a round whose R avoids the low local bits loads from (first round)
     * or stores to (last) global memory directly, coalesced. Also where
     * the tile lacks some of the low global bits: a warp then reads as
     * many sectors as through local memory, minus one round trip (H200,
     * same run: 0.914 ms instead of 0.930 at 2^24). */
    bool direct = (rset & ((1u << DIRECT_BITS) - 1u)) == 0 && w->gt >= DIRECT_BITS + w->geb;
    if (w->nrounds == 0)
        v->w[w->off + H_FIRST_DIRECT] = direct;
    w->last_direct = direct;
    uint32_t cmask = 0, cr = 31; /* 31: no complement (i < 32) */
    if (R->cand >= 0) {
        cmask = ((1u << R->cand) - 1u) & w->lu & ~rset;
        if (cmask)
            cr = rank_in(rset, (unsigned)R->cand);
    }
    push(v, 0);
    push(v, cr);
    push(v, cmask);
    unsigned nrb = 0;
    for (unsigned b = 0; b < 32 && nrb < E_MAX_BITS; b++)
        if ((rset >> b) & 1u) {
            push(v, b);
            nrb++;
        }
    for (; nrb < E_MAX_BITS; nrb++)
        push(v, 0); /* never a register index bit (i < 2^eb) */
    /* runs of the local bits outside R: where the work-item id's bits go
     * (id bit positions counted from 0) */
    uint32_t wr[3 * R_MAX_RUNS] = {0};
    unsigned nwr = sn_fused_bit_runs(w->lu & ~rset, wr, R_MAX_RUNS);
    if (nwr > R_MAX_RUNS)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "fused plan: round of too many runs");
    push(v, nwr);
    for (int q = 0; q < 3 * R_MAX_RUNS; q++)
        push(v, wr[q]);
    /* global bits of each register's R part */
    for (uint32_t ii = 0; ii < (1u << w->geb); ii++) {
        uint32_t l = round_local(rset, ii), xg = 0;
        for (unsigned b = 0, jb = 0; b < 32; b++)
            if ((w->B >> b) & 1u) {
                if ((l >> jb) & 1u)
                    xg |= 1u << b;
                jb++;
            }
        push(v, xg);
    }
    /* padded local offset of each register's R part (kernels/fused.cl:
     * lpad(l) = l + l / 32) */
    for (uint32_t ii = 0; ii < (1u << w->geb); ii++) {
        uint32_t l = round_local(rset, ii);
        push(v, l + (l >> 5));
    }
    push(v, (uint32_t)R->count);
    for (size_t li = 0; li < R->count; li++) {
        const zl *xl = &loc[R->first + li];
        /* carry: register bits lo..hi are consecutive ranks */
        push(v, rank_in(rset, xl->lo) | (xl->kind == ZL_MIRROR ? 8u : 0u) |
                    (xl->kind == ZL_CARRY ? 16u | rank_in(rset, xl->hi) << 8 : 0u));
    }
    w->nrounds++;
    return SN_OK;
}

/* The rounds of a tile pass over its layers loc[0 .. count): register
 * rounds, and (interpreted, or too wide for a round) carry layers alone
 * through local memory (kind 1). */
static sn_status tile_rounds(tile_w *w, const zl *loc, size_t count, bool creg, group *rs,
                             sn_diag *diag)
{
    for (size_t i = 0; i < count;) {
        if (!in_regs(&loc[i], creg, w->geb)) {
            w->last_direct = false;
            push(w->v, 1);
            push(w->v, (uint32_t)ZL_CARRY << 24 | loc[i].lo << 8 | (loc[i].hi + 1));
            w->nrounds++;
            i++;
            continue;
        }
        size_t j = i;
        while (j < count && in_regs(&loc[j], creg, w->geb))
            j++;
        /* columns: the top col_bits local bits stay in registers */
        uint32_t qmask = w->gcb ? w->lu & ~((1u << (w->gt - w->gcb)) - 1u) : 0;
        size_t nrg = pack(loc + i, j - i, qmask, w->geb, w->lu, rs);
        for (size_t ri = 0; ri < nrg; ri++) {
            sn_status st = tile_round(w, &rs[ri], loc + i, diag);
            if (st != SN_OK)
                return st;
        }
        i = j;
    }
    return SN_OK;
}

/* One tile pass over group G (gi: its index), appended to p->steps and
 * the descriptor words v. loc and rs: scratch of the schedule's size. */
static sn_status plan_tile_pass(sn_fused_plan *p, const plan_ctx *x, const zl *ls, const group *G,
                                size_t gi, words *v, zl *loc, group *rs, sn_diag *diag)
{
    sn_fused_step *step = &p->steps[p->nsteps++];
    bool own = x->first_t && gi == 0; /* the first pass's own tile */
    tile_w w = {
        v, v->len, own ? x->first_t : x->t, own ? x->first_eb : x->eb, own ? 0 : p->col_bits, 0, 0,
        0, false};
    step->tile_bits = w.gt;
    step->ebits = w.geb;
    w.B = fill(G->set, w.gt, x->universe);
    w.lu = (1u << w.gt) - 1u;
    step->layer = SN_STEP_TILE;
    step->off = (uint32_t)w.off;
    p->tile_passes++;
    for (int h = 0; h < H_WORDS; h++)
        push(v, 0);
    if (v->oom)
        return SN_ENOMEM;
    sn_status st = tile_header(&w, G, x, diag);
    if (st != SN_OK)
        return st;
    /* the layers in local coordinates */
    for (size_t i = 0; i < G->count; i++) {
        const zl *xl = &ls[G->first + i];
        loc[i] = (zl){xl->kind, rank_in(w.B, xl->lo), rank_in(w.B, xl->hi)};
    }
    v->w[w.off + H_NFLAT] = (uint32_t)G->count;
    v->w[w.off + H_FLAT] = (uint32_t)(v->len - w.off);
    for (size_t i = 0; i < G->count; i++) {
        uint32_t cw = loc[i].kind == ZL_CARRY ? loc[i].hi + 1 : 0;
        push(v, (uint32_t)loc[i].kind << 24 | loc[i].lo << 8 | cw);
    }
    size_t rounds_at = v->len;
    if ((st = tile_rounds(&w, loc, G->count, x->cg, rs, diag)) != SN_OK)
        return st;
    if (v->oom)
        return SN_ENOMEM;
    v->w[w.off + H_NROUNDS] = (uint32_t)w.nrounds;
    v->w[w.off + H_LAST_DIRECT] = w.last_direct;
    p->direct_first += v->w[w.off + H_FIRST_DIRECT] && w.nrounds;
    p->direct_last += w.last_direct;
    if (w.nrounds == 0)
        v->w[w.off + H_FIRST_DIRECT] = 0;
    v->w[w.off + H_ROUNDS] = (uint32_t)(rounds_at - w.off);
    return SN_OK;
}

/* The passes of the groups gs[0 .. ng): window runs, single layers that
 * fit no tile, tile passes. */
static sn_status plan_passes(sn_fused_plan *p, const plan_ctx *x, const zl *ls, const group *gs,
                             size_t ng, words *v, zl *loc, group *rs, sn_diag *diag)
{
    for (size_t gi = 0; gi < ng; gi++) {
        const group *G = &gs[gi];
        if (x->wt && G->alone && ls[G->first].kind == ZL_CARRY) {
            size_t gj = gi + 1; /* the run: one merge, q halving */
            while (gj < ng && gs[gj].alone && ls[gs[gj].first].kind == ZL_CARRY &&
                   ls[gs[gj].first].hi == ls[G->first].hi &&
                   ls[gs[gj].first].lo + 1 == ls[gs[gj - 1].first].lo)
                gj++;
            plan_windows(p, ls, G->first, gj - gi, x->wt, x->c, x->cwide);
            gi = gj - 1;
            continue;
        }
        if (G->alone) {
            sn_fused_step *step = &p->steps[p->nsteps++];
            step->tile_bits = x->t;
            step->ebits = x->eb;
            step->layer = (int64_t)G->first;
            step->off = 0;
            p->global_layers++;
            continue;
        }
        sn_status st = plan_tile_pass(p, x, ls, G, gi, v, loc, rs, diag);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

sn_status sn_fused_plan_make(const sn_gpu *g, const sn_gpu_tuning *tu, const sn_schedule *s,
                             sn_gpu_variant v, bool payload, sn_key_type kt, sn_fused_plan *p,
                             sn_diag *diag)
{
    memset(p, 0, sizeof *p);
    sn_status st = plan_check(s, v, diag);
    if (st != SN_OK)
        return st;
    plan_ctx x;
    plan_setup(g, tu, s, v, payload, kt, &x, p);
    if (x.L == 0)
        return SN_OK;
    zl *ls = sn_calloc(x.L, sizeof *ls), *loc = sn_calloc(x.L, sizeof *loc);
    group *gs = sn_calloc(x.L, sizeof *gs), *rs = sn_calloc(x.L, sizeof *rs);
    p->steps = sn_calloc(x.L, sizeof *p->steps);
    words v0 = {0};
    if (!ls || !gs || !rs || !loc || !p->steps) {
        st = SN_ENOMEM;
    } else {
        plan_layers(s, &x, ls);
        size_t ng = plan_groups(ls, &x, gs);
        st = plan_passes(p, &x, ls, gs, ng, &v0, loc, rs, diag);
    }
    if (st == SN_OK && v0.oom)
        st = SN_ENOMEM;
    if (st == SN_ENOMEM)
        sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory planning fused passes");
    if (st == SN_OK) {
        p->desc = v0.w;
        p->desc_words = v0.len;
        v0.w = NULL;
    }
    sn_free(v0.w);
    sn_free(ls);
    sn_free(gs);
    sn_free(rs);
    sn_free(loc);
    if (st != SN_OK)
        sn_fused_plan_free(p);
    return st;
}

sn_status sn_fused_build(sn_gpu *g, bool payload, sn_key_type t, sn_diag *diag)
{
    int hp = payload ? 1 : 0, kt = (int)t;
    if (g->fprog[hp][kt])
        return SN_OK;
    unsigned eb = elem_bits(payload);
    const char *src = sn_kernel_source_find("fused");
    if (!src)
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "kernels/fused.cl was not embedded");
    char opts[128];
    snprintf(opts, sizeof opts, "-DHP=%d -DKT=%d -DE_BITS=%u", hp, kt, eb);
    cl_program prog;
    sn_status st = sn_gpu_build_source_opts(g, src, opts, false, &prog, diag);
    if (st != SN_OK)
        return st;
    g->fprog[hp][kt] = prog;
    cl_int err;
    g->kf_pass[hp][kt] = clCreateKernel(prog, "sn_fused_pass", &err);
    if (err == CL_SUCCESS)
        g->kf_serial[hp][kt] = clCreateKernel(prog, "sn_fused_serial", &err);
    if (err == CL_SUCCESS)
        g->kf_window[hp][kt] = clCreateKernel(prog, "sn_fused_window", &err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clCreateKernel(sn_fused_*)", err);
    size_t w = 0;
    err = clGetKernelWorkGroupInfo(g->kf_pass[hp][kt], g->device, CL_KERNEL_WORK_GROUP_SIZE,
                                   sizeof w, &w, NULL);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clGetKernelWorkGroupInfo(sn_fused_pass)", err);
    g->fused_wg_max[hp][kt] = w;
    return SN_OK;
}

/* A window pass from the arrays of *cur to the other pair (b's own or its
 * tmp_*), then *cur names the written ones. */
static sn_status window_launch(sn_gpu *g, const sn_gpu_bufs *b, sn_gpu_bufs *cur,
                               const sn_fused_plan *p, size_t si, sn_key_type t, sn_diag *diag)
{
    const sn_fused_step *st = &p->steps[si];
    bool in_tmp = cur->keys == b->tmp_keys;
    cl_mem ok = in_tmp ? b->keys : b->tmp_keys, op = in_tmp ? b->pay : b->tmp_pay;
    if (p->cg_k && p->cg_k[si]) { /* generated (fused_cg.c): the arrays in and out */
        cl_kernel k = p->cg_k[si];
        cl_int err = clSetKernelArg(k, 2, sizeof(cl_mem), &ok);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(k, 3, sizeof(cl_mem), &op);
        if (err != CL_SUCCESS)
            return sn_gpu_cl_fail(diag, "clSetKernelArg(generated window pass)", err);
        sn_status s = sn_fused_codegen_launch(g, cur, k, st->wgroups * st->wwg, st->wwg, diag);
        cur->keys = ok;
        cur->pay = op;
        return s;
    }
    cl_kernel k = g->kf_window[b->payload ? 1 : 0][(int)t];
    cl_uint a[10] = {
        (cl_uint)t, b->payload ? 1u : 0u, b->n, st->wb, st->wc, st->ww, st->wlp, st->wlq, st->wnl,
        st->whalo};
    size_t lbytes = (((size_t)1 << p->win_bits) + ((size_t)1 << p->win_bits) / 32) * 4;
    cl_int err = clSetKernelArg(k, 0, sizeof(cl_mem), &cur->keys);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 1, sizeof(cl_mem), &cur->pay);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 2, sizeof(cl_mem), &ok);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 3, sizeof(cl_mem), &op);
    for (cl_uint i = 0; i < 10 && err == CL_SUCCESS; i++)
        err = clSetKernelArg(k, 4 + i, sizeof a[i], &a[i]);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 14, lbytes, NULL);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(k, 15, b->payload ? lbytes : 4, NULL);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clSetKernelArg(sn_fused_window)", err);
    sn_status s = sn_gpu_launch(g, k, st->wgroups * p->win_wg, p->win_wg, "sn_fused_window", diag);
    cur->keys = ok;
    cur->pay = op;
    return s;
}

/* After an odd number of window passes the result lies in tmp_*: copy it
 * home. */
static sn_status window_home(sn_gpu *g, const sn_gpu_bufs *b, const sn_gpu_bufs *cur, sn_diag *diag)
{
    if (cur->keys == b->keys)
        return SN_OK;
    for (int i = 0; i < (b->payload ? 2 : 1); i++) {
        cl_event ev = NULL;
        cl_int err = clEnqueueCopyBuffer(g->queue, i ? cur->pay : cur->keys, i ? b->pay : b->keys,
                                         0, 0, (size_t)b->n * 4, 0, NULL, g->record ? &ev : NULL);
        if (err != CL_SUCCESS)
            return sn_gpu_cl_fail(diag, "clEnqueueCopyBuffer(fused window result)", err);
        sn_gpu_record(g, ev, "copy", b->n); /* timed with the passes */
    }
    return SN_OK;
}

sn_status sn_fused_enqueue(sn_gpu *g, const sn_gpu_bufs *b, const sn_schedule *s,
                           const sn_fused_plan *p, sn_key_type t, sn_diag *diag)
{
    cl_uint kt = (cl_uint)t, hp = b->payload ? 1u : 0u, n = b->n;
    size_t T = (size_t)1 << p->tile_bits;
    size_t groups = (size_t)1 << (p->nbits - p->tile_bits);
    int hpi = b->payload ? 1 : 0;
    cl_kernel kk = p->serial ? g->kf_serial[hpi][(int)t] : g->kf_pass[hpi][(int)t];
    size_t wg = p->serial ? 1 : T >> p->ebits;
    size_t lbytes = p->serial ? T * 4 : (T + T / 32) * 4;
    /* the interpreting kernel's arguments but the arrays and the
     * descriptor offset are the same for every pass: set once */
    cl_int err = CL_SUCCESS;
    if (!p->cg_k) {
        err = clSetKernelArg(kk, 2, sizeof kt, &kt);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kk, 3, sizeof hp, &hp);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kk, 4, sizeof n, &n);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kk, 5, sizeof(cl_mem), &b->desc);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kk, 7, lbytes, NULL);
        if (err == CL_SUCCESS)
            err = clSetKernelArg(kk, 8, hp ? lbytes : 4, NULL);
        if (err != CL_SUCCESS)
            return sn_gpu_cl_fail(diag, "clSetKernelArg(sn_fused)", err);
    }
    sn_gpu_bufs cur = *b; /* the arrays that hold the data now */
    for (size_t i = 0; i < p->nsteps; i++) {
        const sn_fused_step *stp = &p->steps[i];
        sn_status st;
        if (stp->layer >= 0)
            st =
                sn_gpu_enqueue_layer(g, &cur, s, SN_GPU_VARIANT_SHIFT, t, (size_t)stp->layer, diag);
        else if (stp->layer == SN_STEP_WINDOW)
            st = window_launch(g, b, &cur, p, i, t, diag);
        else if (p->cg_k)
            st = sn_fused_codegen_launch(g, &cur, p->cg_k[i], (size_t)1 << (p->nbits - stp->ebits),
                                         (size_t)1 << (stp->tile_bits - stp->ebits), diag);
        else {
            cl_uint off = stp->off;
            err = clSetKernelArg(kk, 0, sizeof(cl_mem), &cur.keys);
            if (err == CL_SUCCESS)
                err = clSetKernelArg(kk, 1, sizeof(cl_mem), &cur.pay);
            if (err == CL_SUCCESS)
                err = clSetKernelArg(kk, 6, sizeof off, &off);
            if (err != CL_SUCCESS)
                return sn_gpu_cl_fail(diag, "clSetKernelArg(sn_fused)", err);
            st = sn_gpu_launch(g, kk, groups * wg, wg, "sn_fused", diag);
        }
        if (st != SN_OK)
            return st;
    }
    return window_home(g, b, &cur, diag);
}
