/* fused.c - plans and runs the fused variants: many layers per launch.
 *
 * The layers of a bitonic or odd-even merge schedule each touch a set of
 * global bit positions (a cleaner i ^ 2^b: {b}; a bitonic mirror
 * i ^ (2^(b+1) - 1): {b}, with the bits below it complemented; an odd-even
 * carry layer i + 2^lo inside blocks of 2^(hi+1): lo..hi). A pass is a run
 * of consecutive layers whose bits, together with the low "coalescing"
 * bits, fit in a tile of t bits; each work-group loads one tile (the
 * indices agreeing outside those bits), runs the layers in local memory
 * and registers, and writes it back (kernels/fused.cl says how the tile
 * stays closed under a mirror). A layer that fits no tile (an odd-even
 * carry layer spanning more than t bits) runs as one closed-form launch.
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

/* Load and store straight from registers whenever a round's register
 * bits avoid the low local bits, also where the tile lacks some of the low
 * global bits: a warp then reads as many sectors as it would through local
 * memory, minus one round trip (H200, same run: 0.914 ms instead of 0.930
 * at 2^24). Tuning knob SN_FUSED_DIRECT=0: only where the tile holds the
 * low five global bits. */
static bool direct_any(void)
{
    const char *e = getenv("SN_FUSED_DIRECT");
    return !(e && e[0] == '0');
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

/* Tuning knob for experiments: SN_FUSED_COALESCE=c low bits kept in every
 * tile (default 5 on GPUs: 32 consecutive words, 4 on CPUs). */
static unsigned coalesce_bits(bool serial)
{
    const char *e = getenv("SN_FUSED_COALESCE");
    if (e && *e >= '0' && *e <= '9')
        return (unsigned)atoi(e);
    return serial ? 4 : 3; /* 3: measured best on an H200 (32-byte sectors) */
}

/* Elements per GPU work-item: 2^5 in registers without payload (a tile
 * of 2^13 with the 256 work-items NVIDIA allows, five layers per register
 * round: 19 passes instead of 22 at 2^24, 1.17x on an H200), 2^4 with
 * payload (twice the registers per element, and 2^13 tiles of keys and
 * payload exceed 48 KiB of local memory anyway). Tuning knob:
 * SN_FUSED_EBITS=4|5, read by the build, the plan and the enqueue alike,
 * so set it before the first run. */
static unsigned elem_bits(bool payload)
{
    const char *e = getenv("SN_FUSED_EBITS");
    if (e && (e[0] == '4' || e[0] == '5') && e[1] == '\0')
        return (unsigned)(e[0] - '0');
    return payload ? 4 : 5;
}

/* Generated kernels only (fused_cg.c), bitonic without payload: tiles
 * larger than local memory, held in registers as 2^p columns that cross
 * local memory one at a time. Measured on an H200 (u32, kernel time):
 * tiles of 2^14 with 2^6 elements per work-item (256 work-items, 80
 * registers, two work-groups per SM) take 16 passes at 2^24 and 9 at 2^20
 * instead of 19 and 11: 0.92 ms instead of 0.95, 0.112 ms instead of
 * 0.131. Tiles of 2^15 take 14 and 8 passes but leave one work-group per
 * SM, whose loads, exchanges and stores do not overlap: 1.2-1.3 ms.
 * Tuning knobs SN_FUSED_BIGTILE=bits (0: off) and SN_FUSED_BIGEBITS. */
static unsigned big_tile_bits(void)
{
    const char *e = getenv("SN_FUSED_BIGTILE");
    if (e && *e >= '0' && *e <= '9')
        return (unsigned)atoi(e);
    return 14;
}

static unsigned big_elem_bits(void)
{
    const char *e = getenv("SN_FUSED_BIGEBITS");
    if (e && *e >= '4' && *e <= '8' && e[1] == '\0')
        return (unsigned)(e[0] - '0');
    return 6;
}

/* Generated kernels: odd-even carry layers whose bits lo..hi are all
 * register bits of a round run there, with no halo (H200, odd-even merge
 * of 2^24 keys: 1.586 ms instead of 1.693; the first pass 0.180 ms instead
 * of 0.272). Tuning knob SN_FUSED_CARRYINREG=0: every carry layer through
 * local memory (in carry rounds). */
static bool carry_regs(void)
{
    const char *e = getenv("SN_FUSED_CARRYINREG");
    return !(e && e[0] == '0');
}

/* whether layer x (local bits) runs in a register round of 2^eb keys;
 * creg: carry layers may (generated kernels, carry_regs()) */
static bool in_regs(const zl *x, bool creg, unsigned eb)
{
    return x->kind != ZL_CARRY || (creg && x->hi - x->lo < eb);
}

/* ---- window passes: odd-even carry layers that fit no tile
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

/* Window size: SN_FUSED_WTILE=bits (0: no windows; the carry layers then
 * run one launch each), by default the largest padded tile local memory
 * holds, at most 2^13 keys (GPUs) or 2^14 (CPUs, one work-item). */
static unsigned window_bits(const sn_gpu *g, bool serial, bool payload)
{
    const char *e = getenv("SN_FUSED_WTILE");
    unsigned w = serial ? 14 : 13;
    if (e && *e >= '0' && *e <= '9')
        w = (unsigned)atoi(e) < 20 ? (unsigned)atoi(e) : 20;
    unsigned bpe = payload ? 8 : 4;
    while (w >= 3 && (((size_t)1 << w) + ((size_t)1 << w) / 32) * bpe + 64 > g->info.local_mem)
        w--;
    return w >= 3 ? w : 0;
}

/* Work-items per window: SN_FUSED_WWG (default 256 on GPUs, 1 on CPUs) */
static size_t window_wg(const sn_gpu *g, bool serial)
{
    const char *e = getenv("SN_FUSED_WWG");
    size_t w = serial ? 1 : 256;
    if (e && atoi(e) > 0)
        w = (size_t)atoi(e);
    if (w > g->info.max_work_group)
        w = g->info.max_work_group;
    return w ? w : 1;
}

/* GPU windows of strided positions: 2^5 consecutive keys (a 128-byte
 * line) per position where that leaves room for the chunk's layers, else
 * the coalescing bits of the tiles. Tuning knob SN_FUSED_WCOLS=c. */
static unsigned window_wide_cols(void)
{
    const char *e = getenv("SN_FUSED_WCOLS");
    return e && *e >= '0' && *e <= '9' ? (unsigned)atoi(e) : 5;
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
 * bit c dropped, wherever the windows would otherwise take one more pass.
 * Tuning knob SN_FUSED_OEWIDE=0: c low bits in every pass. */
static bool oe_wide(void)
{
    const char *e = getenv("SN_FUSED_OEWIDE");
    return !(e && e[0] == '0');
}

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

sn_status sn_fused_plan_make(const sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                             sn_key_type kt, sn_fused_plan *p, sn_diag *diag)
{
    memset(p, 0, sizeof *p);
    sn_algo a = sn_schedule_algo(s);
    if (sn_schedule_network(s) || (a != SN_ALGO_BITONIC && a != SN_ALGO_ODDEVEN_MERGE))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "variant '%s' fuses bitonic and oddeven-merge schedules; '%s' runs "
                           "with one launch per layer (--variant auto)",
                           sn_gpu_variant_name(v), sn_schedule_name(s));
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    bool serial = mode_serial(g, v);
    bool cg = !serial && sn_fused_codegen_wanted(g); /* generated kernels */
    p->serial = serial;
    unsigned eb = elem_bits(payload);
    unsigned nb = log2u(n);
    unsigned t;
    const char *te = getenv("SN_FUSED_TILE"); /* tuning knob: largest tile bits */
    if (serial) {
        t = 14; /* 64 KiB of keys: a core's L2 */
        if (te && *te >= '0' && *te <= '9' && atoi(te) >= 1 && atoi(te) <= 14)
            t = (unsigned)atoi(te);
        if (t > nb)
            t = nb;
    } else {
        if (nb < eb)
            nb = eb;
        unsigned bpe = payload ? 8 : 4;
        t = 13;
        if (te && *te >= '0' && *te <= '9' && atoi(te) >= (int)eb && atoi(te) <= 13)
            t = (unsigned)atoi(te);
        while (t > eb && (((size_t)1 << t) + ((size_t)1 << t) / 32) * bpe + 64 > g->info.local_mem)
            t--;
        /* generated kernels state their work-group size, so the compiler
         * fits their registers to it: only the device's limit applies */
        size_t wgmax = cg ? g->info.max_work_group : g->fused_wg_max[payload ? 1 : 0][(int)kt];
        while (t > eb && ((size_t)1 << (t - eb)) > wgmax)
            t--;
        if (t > nb)
            t = nb;
        /* a bigger tile in columns of 2^t (the local memory's) */
        unsigned tb = big_tile_bits(), ebb = big_elem_bits();
        if (tb > nb)
            tb = nb;
        if (cg && !payload && a == SN_ALGO_BITONIC && tb > t && tb - t + 3 <= ebb &&
            tb >= ebb + 5 && tb <= 24 && ((size_t)1 << (tb - ebb)) <= g->info.max_work_group) {
            p->col_bits = tb - t;
            t = tb;
            eb = ebb;
        }
    }
    p->tile_bits = t;
    p->kt = kt;
    p->payload = payload;
    p->nbits = nb;
    p->n = n;
    p->ebits = eb;
    if (L == 0)
        return SN_OK;
    uint32_t universe = nb >= 32 ? 0xffffffffu : (1u << nb) - 1u;
    unsigned c = coalesce_bits(serial);
    if (c > t)
        c = t;
    uint32_t init = c ? (1u << c) - 1u : 0;

    zl *ls = sn_calloc(L, sizeof *ls);
    group *gs = sn_calloc(L, sizeof *gs);
    group *rs = sn_calloc(L, sizeof *rs);
    zl *loc = sn_calloc(L, sizeof *loc);
    p->steps = sn_calloc(L, sizeof *p->steps);
    words v0 = {0};
    sn_status st = SN_OK;
    if (!ls || !gs || !rs || !loc || !p->steps) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory planning fused passes");
        goto done;
    }
    for (size_t k = 0; k < L; k++) {
        sn_layer_form f = sn_schedule_layer_form(s, k);
        unsigned lq = log2u(f.q), lp = log2u(f.p);
        if (a == SN_ALGO_BITONIC)
            ls[k] = (zl){f.q * 2 == f.p ? ZL_MIRROR : ZL_CLEAN, lq, lq};
        else
            ls[k] = f.q == f.p ? (zl){ZL_CLEAN, lp, lp} : (zl){ZL_CARRY, lq, lp};
    }
    /* generated big tiles: the first pass, which sorts whole tiles, in a
     * smaller local-memory tile of its own (SN_FUSED_FIRSTTILE=bits, 0:
     * off). H200, 2^24: that pass took 0.250 ms over tiles of 2^14 and
     * 0.129 ms over 2^12 with 2^5 keys per work-item, for one more pass in
     * all: 0.856 ms instead of 0.919 (2^26: 3.75 instead of 4.07; 2^23
     * 0.399 instead of 0.412; 2^22 a tie; 2^21 0.146 instead of 0.162). At
     * 2^20 the extra pass costs more than it saves (0.146 instead of
     * 0.119-0.130), so the default starts at 2^21. */
    unsigned first_t = 0, first_eb = p->col_bits ? 5 : eb;
    /* generated odd-even: the knob only (H200, 2^24: first tiles of 2^11
     * and 2^12 add a pass; 1.433-1.462 ms against 1.432-1.433) */
    if (p->col_bits || (cg && a == SN_ALGO_ODDEVEN_MERGE)) {
        const char *e = getenv("SN_FUSED_FIRSTTILE");
        first_t = e && *e >= '0' && *e <= '9' ? (unsigned)atoi(e)
                  : nb >= 21 && p->col_bits   ? 12
                                              : 0;
        if (first_t >= t - p->col_bits || first_t < first_eb + 5)
            first_t = 0;
    }
    /* odd-even carry layers that fit no tile: window passes (below 2^30
     * keys: the kernel counts positions in int) */
    unsigned wt =
        a == SN_ALGO_ODDEVEN_MERGE && n < (1u << 30) ? window_bits(g, serial, payload) : 0;
    if (wt > (nb > 3 ? nb : 3)) /* no window larger than the array */
        wt = nb > 3 ? nb : 3;
    p->win_bits = wt;
    p->win_wg = window_wg(g, serial);
    bool oew = wt && cg && a == SN_ALGO_ODDEVEN_MERGE && c + 1 < t && oe_wide();
    unsigned cwide = serial ? c : window_wide_cols();
    uint32_t tinit = oew ? (2u << c) - 1u : init;
    size_t ng = pack(ls, L, tinit, first_t ? first_t : t, universe, gs);
    if (first_t && ng > 1) { /* the rest with the big tile */
        size_t done0 = gs[0].count;
        ng = 1 + pack(ls + done0, L - done0, tinit, t, universe, gs + 1);
        for (size_t gi = 1; gi < ng; gi++)
            gs[gi].first += done0;
    }
    if (oew) {
        size_t g0 = first_t ? 1 : 0; /* the first pass keeps its own tile */
        ng = g0 + oe_narrow(ls, gs + g0, ng - g0, c, t, wt, cwide);
    }
    for (size_t gi = 0; gi < ng; gi++) {
        const group *G = &gs[gi];
        if (wt && G->alone && ls[G->first].kind == ZL_CARRY) {
            size_t gj = gi + 1; /* the run: one merge, q halving */
            while (gj < ng && gs[gj].alone && ls[gs[gj].first].kind == ZL_CARRY &&
                   ls[gs[gj].first].hi == ls[G->first].hi &&
                   ls[gs[gj].first].lo + 1 == ls[gs[gj - 1].first].lo)
                gj++;
            plan_windows(p, ls, G->first, gj - gi, wt, c, cwide);
            gi = gj - 1;
            continue;
        }
        sn_fused_step *step = &p->steps[p->nsteps++];
        step->tile_bits = t;
        step->ebits = eb;
        if (G->alone) {
            step->layer = (int64_t)G->first;
            step->off = 0;
            p->global_layers++;
            continue;
        }
        /* the first pass may take a smaller tile of its own (first_t) */
        bool own = first_t && gi == 0;
        unsigned gt = own ? first_t : t, geb = own ? first_eb : eb, gcb = own ? 0 : p->col_bits;
        step->tile_bits = gt;
        step->ebits = geb;
        uint32_t B = fill(G->set, gt, universe);
        size_t off = v0.len;
        step->layer = SN_STEP_TILE;
        step->off = (uint32_t)off;
        p->tile_passes++;
        for (int h = 0; h < H_WORDS; h++)
            push(&v0, 0);
        if (v0.oom)
            break;
        v0.w[off + H_T] = gt;
        v0.w[off + H_EBITS] = geb;
        v0.w[off + H_CBITS] = gcb;
        v0.w[off + H_BMASK] = B;
        v0.w[off + H_ABIT] = 32;
        if (G->cand >= 0) {
            uint32_t am = ((1u << G->cand) - 1u) & universe & ~B;
            if (am) {
                v0.w[off + H_ABIT] = (uint32_t)G->cand;
                v0.w[off + H_AMASK] = am;
            }
        }
        unsigned nr = sn_fused_bit_runs(B, v0.w + off + H_RUNS, MAX_RUNS);
        if (nr > MAX_RUNS) {
            st = sn_diag_set(diag, SN_EINVAL, 0, 0, "fused plan: tile of too many runs");
            goto done;
        }
        v0.w[off + H_NRUNS] = nr;
        /* global bits of local index i << (t - eb), for the GPU
         * kernel's loads: its work-item w holds w + i * 2^(t - eb) */
        for (uint32_t i = 0; i < (1u << geb) && i < E_MAX; i++) {
            uint32_t j = gt >= geb ? i << (gt - geb) : 0, x = 0;
            for (unsigned r = 0; r < nr; r++) {
                uint32_t js = v0.w[off + H_RUNS + 3 * r], len = v0.w[off + H_RUNS + 3 * r + 1];
                x |= ((j >> js) & ((1u << len) - 1u)) << v0.w[off + H_RUNS + 3 * r + 2];
            }
            v0.w[off + H_TAB + i] = x;
        }
        /* the layers in local coordinates */
        for (size_t i = 0; i < G->count; i++) {
            const zl *x = &ls[G->first + i];
            loc[i] = (zl){x->kind, rank_in(B, x->lo), rank_in(B, x->hi)};
        }
        v0.w[off + H_NFLAT] = (uint32_t)G->count;
        v0.w[off + H_FLAT] = (uint32_t)(v0.len - off);
        for (size_t i = 0; i < G->count; i++) {
            uint32_t w = loc[i].kind == ZL_CARRY ? loc[i].hi + 1 : 0;
            push(&v0, (uint32_t)loc[i].kind << 24 | loc[i].lo << 8 | w);
        }
        /* register rounds (GPU kernel): carry layers alone in local memory,
         * but in generated kernels those that fit the round's register
         * bits (lo..hi at most geb bits) run in registers like the others */
        uint32_t lu = (1u << gt) - 1u;
        bool creg = cg && carry_regs();
        size_t rounds_at = v0.len, nrounds = 0;
        bool last_direct = false;
        for (size_t i = 0; i < G->count;) {
            if (!in_regs(&loc[i], creg, geb)) {
                last_direct = false;
                push(&v0, 1);
                push(&v0, (uint32_t)ZL_CARRY << 24 | loc[i].lo << 8 | (loc[i].hi + 1));
                nrounds++;
                i++;
                continue;
            }
            size_t j = i;
            while (j < G->count && in_regs(&loc[j], creg, geb))
                j++;
            /* columns: the top col_bits local bits stay in registers */
            uint32_t qmask = gcb ? lu & ~((1u << (gt - gcb)) - 1u) : 0;
            size_t nrg = pack(loc + i, j - i, qmask, geb, lu, rs);
            for (size_t ri = 0; ri < nrg; ri++) {
                const group *R = &rs[ri];
                uint32_t rset = fill_high(R->set, geb, lu);
                /* a round whose R avoids the low local bits can load from
                 * (first round) or store to (last) global memory directly,
                 * coalesced, when those bits are the tile's low global bits */
                bool direct =
                    (rset & ((1u << DIRECT_BITS) - 1u)) == 0 && gt >= DIRECT_BITS + geb &&
                    (direct_any() || (B & ((1u << DIRECT_BITS) - 1u)) == (1u << DIRECT_BITS) - 1u);
                if (nrounds == 0)
                    v0.w[off + H_FIRST_DIRECT] = direct;
                last_direct = direct;
                uint32_t cmask = 0, cr = 31; /* 31: no complement (i < 32) */
                if (R->cand >= 0) {
                    cmask = ((1u << R->cand) - 1u) & lu & ~rset;
                    if (cmask)
                        cr = rank_in(rset, (unsigned)R->cand);
                }
                push(&v0, 0);
                push(&v0, cr);
                push(&v0, cmask);
                unsigned nrb = 0;
                for (unsigned b = 0; b < 32 && nrb < E_MAX_BITS; b++)
                    if ((rset >> b) & 1u) {
                        push(&v0, b);
                        nrb++;
                    }
                for (; nrb < E_MAX_BITS; nrb++)
                    push(&v0, 0); /* never a register index bit (i < 2^eb) */
                /* runs of the local bits outside R: where the work-item
                 * id's bits go (id bit positions counted from 0) */
                uint32_t wr[3 * R_MAX_RUNS] = {0};
                unsigned nwr = sn_fused_bit_runs(lu & ~rset, wr, R_MAX_RUNS);
                if (nwr > R_MAX_RUNS) {
                    st = sn_diag_set(diag, SN_EINVAL, 0, 0, "fused plan: round of too many runs");
                    goto done;
                }
                push(&v0, nwr);
                for (int q = 0; q < 3 * R_MAX_RUNS; q++)
                    push(&v0, wr[q]);
                /* global bits of each register's R part */
                for (uint32_t ii = 0; ii < (1u << geb); ii++) {
                    uint32_t l = 0, x = 0;
                    for (unsigned k2 = 0, b = 0; b < 32; b++)
                        if ((rset >> b) & 1u) {
                            if ((ii >> k2) & 1u)
                                l |= 1u << b;
                            k2++;
                        }
                    for (unsigned b = 0, jb = 0; b < 32; b++)
                        if ((B >> b) & 1u) {
                            if ((l >> jb) & 1u)
                                x |= 1u << b;
                            jb++;
                        }
                    push(&v0, x);
                }
                /* padded local offset of each register's R part
                 * (kernels/fused.cl: lpad(l) = l + l / 32) */
                for (uint32_t ii = 0; ii < (1u << geb); ii++) {
                    uint32_t l = 0;
                    for (unsigned k2 = 0, b = 0; b < 32; b++)
                        if ((rset >> b) & 1u) {
                            if ((ii >> k2) & 1u)
                                l |= 1u << b;
                            k2++;
                        }
                    push(&v0, l + (l >> 5));
                }
                push(&v0, (uint32_t)R->count);
                for (size_t li = 0; li < R->count; li++) {
                    const zl *x = &loc[i + R->first + li];
                    /* carry: register bits lo..hi are consecutive ranks */
                    push(&v0, rank_in(rset, x->lo) | (x->kind == ZL_MIRROR ? 8u : 0u) |
                                  (x->kind == ZL_CARRY ? 16u | rank_in(rset, x->hi) << 8 : 0u));
                }
                nrounds++;
            }
            i = j;
        }
        if (v0.oom)
            break;
        v0.w[off + H_NROUNDS] = (uint32_t)nrounds;
        v0.w[off + H_LAST_DIRECT] = last_direct;
        p->direct_first += v0.w[off + H_FIRST_DIRECT] && nrounds;
        p->direct_last += last_direct;
        if (nrounds == 0)
            v0.w[off + H_FIRST_DIRECT] = 0;
        v0.w[off + H_ROUNDS] = (uint32_t)(rounds_at - off);
    }
    if (v0.oom) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory planning fused passes");
        goto done;
    }
    p->desc = v0.w;
    p->desc_words = v0.len;
    v0.w = NULL;
done:
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
    int len = snprintf(opts, sizeof opts, "-DHP=%d -DKT=%d -DE_BITS=%u", hp, kt, eb);
    /* NVIDIA only, tuning knobs: SN_FUSED_MAXRREG=N caps the registers (so
     * that 512 work-items, a tile of 2^13, fit); with SN_FUSED_DUMP the
     * build log reports registers and spills */
    if (strstr(g->info.vendor, "NVIDIA") && len > 0 && (size_t)len < sizeof opts) {
        const char *rr = getenv("SN_FUSED_MAXRREG");
        if (rr && atoi(rr) > 0)
            len += snprintf(opts + len, sizeof opts - (size_t)len, " -cl-nv-maxrregcount=%d",
                            atoi(rr));
        if (getenv("SN_FUSED_DUMP") && len > 0 && (size_t)len < sizeof opts)
            snprintf(opts + len, sizeof opts - (size_t)len, " -cl-nv-verbose");
    }
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
    /* SN_FUSED_DUMP=FILE: write the device's program binary (PTX on
     * NVIDIA), to look for register spills; best effort. */
    const char *dump = getenv("SN_FUSED_DUMP");
    size_t bsz = 0;
    if (dump &&
        clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bsz, &bsz, NULL) == CL_SUCCESS &&
        bsz) {
        unsigned char *bin = sn_malloc(bsz);
        FILE *f = bin ? fopen(dump, "wb") : NULL;
        if (f && clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL) == CL_SUCCESS)
            fwrite(bin, 1, bsz, f);
        if (f)
            fclose(f);
        sn_free(bin);
        char logname[512];
        snprintf(logname, sizeof logname, "%s.log", dump);
        FILE *lf = fopen(logname, "w");
        if (lf) {
            fprintf(lf, "options: %s\nwork-group max: %zu\n%s\n", opts, w, sn_gpu_build_log(g));
            fclose(lf);
        }
    }
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
