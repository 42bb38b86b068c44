/* exec.c - the CPU reference executor, digests and the trace.
 *
 * Keys are first mapped to an internal signed form,
 * (int32)(sn_key_to_ordered(t, bits) ^ 0x80000000): its signed order is
 * the key order, it is the identity for i32 (no conversion pass), and
 * signed 32-bit min/max is what SIMD units have (SSE2 has no unsigned
 * compare). One path serves i32, u32 and f32.
 *
 * Closed-form layers are executed as "runs": contiguous stretches where
 * lo[j] is compared with hi[j] (or with hi[-j] for the bitonic mirror
 * step), which GCC/Clang vector extensions turn into branchless SIMD
 * min/max. Bitonic and odd-even merge layers whose comparators stay inside
 * aligned windows of a block (2^15 wires) are run window by window, so the
 * many small-stride layers touch memory that is already in cache, and
 * consecutive layers that leave the block run several per pass, swept or
 * on closure blocks (see "phases" below); bitonic layers
 * that stay inside one vector run fused in registers. Explicit schedules
 * and runs with payload or swap flags take a plain scalar path. Every path
 * swaps only when the min wire's key is strictly greater. */
#include "core/exec.h"

#include <string.h>

#include "core/alloc.h"
#include "core/check_api.h"

/* ---- key types -------------------------------------------------------- */

const char *sn_key_type_name(sn_key_type t)
{
    switch (t) {
    case SN_KEY_I32: return "i32";
    case SN_KEY_U32: return "u32";
    case SN_KEY_F32: return "f32";
    }
    return "unknown";
}

bool sn_key_type_parse(const char *s, sn_key_type *out)
{
    static const char *const names[] = {"i32", "u32", "f32"};
    if (!s)
        return false;
    for (int i = 0; i < 3; i++) {
        if (strcmp(s, names[i]) == 0) {
            if (out)
                *out = (sn_key_type)i;
            return true;
        }
    }
    return false;
}

/* raw bits <-> internal signed form; each mapping is an involution. */
static void to_internal(sn_key_type t, uint32_t *keys, uint32_t n)
{
    if (t == SN_KEY_I32)
        return;
    for (uint32_t i = 0; i < n; i++)
        keys[i] = sn_key_to_ordered(t, keys[i]) ^ 0x80000000u;
}

static void from_internal(sn_key_type t, uint32_t *keys, uint32_t n)
{
    if (t == SN_KEY_I32)
        return;
    for (uint32_t i = 0; i < n; i++)
        keys[i] = sn_key_from_ordered(t, keys[i] ^ 0x80000000u);
}

/* ---- vector kernels --------------------------------------------------- */

#if defined(__AVX2__)
#define VW 8
typedef int32_t vec __attribute__((vector_size(32)));
#define SHUF_XOR(v, m)                                                                             \
    __builtin_shufflevector(v, v, 0 ^ (m), 1 ^ (m), 2 ^ (m), 3 ^ (m), 4 ^ (m), 5 ^ (m), 6 ^ (m),   \
                            7 ^ (m))
#define REVERSE(v) __builtin_shufflevector(v, v, 7, 6, 5, 4, 3, 2, 1, 0)
#define LOWMASK(b)                                                                                 \
    ((vec){(0 & (b)) ? 0 : -1, (1 & (b)) ? 0 : -1, (2 & (b)) ? 0 : -1, (3 & (b)) ? 0 : -1,         \
           (4 & (b)) ? 0 : -1, (5 & (b)) ? 0 : -1, (6 & (b)) ? 0 : -1, (7 & (b)) ? 0 : -1})
#else
#define VW 4
typedef int32_t vec __attribute__((vector_size(16)));
#define SHUF_XOR(v, m) __builtin_shufflevector(v, v, 0 ^ (m), 1 ^ (m), 2 ^ (m), 3 ^ (m))
#define REVERSE(v) __builtin_shufflevector(v, v, 3, 2, 1, 0)
#define LOWMASK(b)                                                                                 \
    ((vec){(0 & (b)) ? 0 : -1, (1 & (b)) ? 0 : -1, (2 & (b)) ? 0 : -1, (3 & (b)) ? 0 : -1})
#endif

/* Aligned window (in wires) that local layers run in: fits in L2. The
 * tests shrink it (sn_exec_opts.block_log) to reach every path at small n. */
#define BLOCK_LOG 15

static inline vec vload(const int32_t *p)
{
    vec v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void vstore(int32_t *p, vec v)
{
    memcpy(p, &v, sizeof v);
}

/* One in-register layer: lane l meets lane l ^ m; lanes with bit `b` clear
 * keep the minimum. */
#define VSTEP(v, m, b)                                                                             \
    do {                                                                                           \
        vec w_ = SHUF_XOR(v, m);                                                                   \
        vec sel_ = (v > w_) ^ LOWMASK(b);                                                          \
        v = (v & sel_) | (w_ & ~sel_);                                                             \
    } while (0)

/* The last log2(VW) half-cleaners of a bitonic merge with p > VW. */
static inline vec vec_tail(vec v)
{
#if VW == 8
    VSTEP(v, 4, 4);
#endif
    VSTEP(v, 2, 2);
    VSTEP(v, 1, 1);
    return v;
}

/* The bitonic merges p = 2..VW (flip-free): sorts the vector. */
static inline vec vec_prefix(vec v)
{
    VSTEP(v, 1, 1);
    VSTEP(v, 3, 2);
    VSTEP(v, 1, 1);
#if VW == 8
    VSTEP(v, 7, 4);
    VSTEP(v, 2, 2);
    VSTEP(v, 1, 1);
#endif
    return v;
}

/* ---- runs ------------------------------------------------------------- */

/* What a run does: FAST = plain SIMD; COUNT = SIMD and count swaps;
 * SCALAR = one comparator at a time, moving payload / recording flags. */
enum { MODE_FAST, MODE_COUNT, MODE_SCALAR };

typedef struct ctx {
    int32_t *a;
    uint32_t *pay;  /* may be NULL */
    uint8_t *flags; /* may be NULL: else one per comparator, in pair order */
    size_t nflag;   /* comparators seen so far (index into flags) */
    size_t swaps;
    int mode;
    /* Only comparators whose min wire is in [mlo, mhi) run: how threads
     * split one layer (a layer's comparators are disjoint, so any split
     * gives the same bits). [0, UINT32_MAX) when single-threaded. */
    uint32_t mlo, mhi;
} ctx;

#define CTX(a, pay, flags, mode) {(int32_t *)(a), (pay), (flags), 0, 0, (mode), 0, UINT32_MAX}

static inline void ce_scalar(ctx *c, uint32_t i, uint32_t j)
{
    int32_t x = c->a[i], y = c->a[j];
    bool sw = x > y;
    if (sw) {
        c->a[i] = y;
        c->a[j] = x;
        if (c->pay) {
            uint32_t t = c->pay[i];
            c->pay[i] = c->pay[j];
            c->pay[j] = t;
        }
    }
    if (c->flags)
        c->flags[c->nflag] = sw;
    c->nflag++;
    c->swaps += sw;
}

/* lo[j] against hi[j] (dir > 0) or against hi[-j] (dir < 0), j < len;
 * lo and hi are wire indices. */
static void run(ctx *c, uint32_t lo, uint32_t hi, uint32_t len, int dir)
{
    /* the j whose min wire lo + j lies in [mlo, mhi) */
    uint32_t j = c->mlo > lo ? c->mlo - lo : 0;
    if ((uint64_t)lo + len > c->mhi)
        len = c->mhi > lo ? c->mhi - lo : 0;
    if (j >= len)
        return;
    if (c->mode == MODE_SCALAR) {
        for (; j < len; j++)
            ce_scalar(c, lo + j, dir > 0 ? hi + j : hi - j);
        return;
    }
    int32_t *restrict L = c->a + lo;
    vec cnt = {0};
    if (dir > 0) {
        int32_t *restrict H = c->a + hi;
        for (; j + VW <= len; j += VW) {
            vec x = vload(L + j), y = vload(H + j), m = x > y;
            vstore(L + j, (y & m) | (x & ~m));
            vstore(H + j, (x & m) | (y & ~m));
            cnt -= m;
        }
        for (; j < len; j++) {
            int32_t x = L[j], y = H[j];
            L[j] = x > y ? y : x;
            H[j] = x > y ? x : y;
            c->swaps += x > y;
        }
    } else {
        /* H + j - VW + 1 .. H + j, reversed: pairs with L[j .. j + VW) */
        int32_t *restrict H = c->a + hi;
        for (; j + VW <= len; j += VW) {
            int32_t *hp = H - j - (VW - 1);
            vec x = vload(L + j), y = REVERSE(vload(hp)), m = x > y;
            vstore(L + j, (y & m) | (x & ~m));
            vstore(hp, REVERSE((x & m) | (y & ~m)));
            cnt -= m;
        }
        for (; j < len; j++) {
            int32_t x = L[j], y = *(H - j);
            L[j] = x > y ? y : x;
            *(H - j) = x > y ? x : y;
            c->swaps += x > y;
        }
    }
    if (c->mode == MODE_COUNT)
        for (int l = 0; l < VW; l++)
            c->swaps += (size_t)cnt[l];
}

/* Window (wires) a closed-form layer's comparators stay inside, aligned;
 * 0 when they do not stay in aligned windows (transposition). */
static uint64_t layer_window(sn_layer_form f)
{
    switch (f.algo) {
    case SN_ALGO_BITONIC: return f.q == f.p / 2 ? f.p : 2 * (uint64_t)f.q;
    case SN_ALGO_ODDEVEN_MERGE: return 2 * (uint64_t)f.p;
    default: return 0;
    }
}

/* Odd-even merge layer (p, q), q < p, in the window [base, base + 2p):
 * runs (lo, lo + q) of length q for lo = base + q, base + 3q, ... while
 * lo + q < base + 2p. Runs of q < VW wires would be scalar one by one
 * (at q = 1 half the array are runs of one comparator), so in MODE_FAST
 * the stretch from base + q on goes VW wires at a time, shifted by q:
 * there lane i meets lane i + q for the lanes with bit q clear, one
 * in-register step. Returns false once a run reaches e or mhi (nothing
 * further right runs). */
static bool oem_window(ctx *c, uint64_t base, uint64_t p, uint64_t q, uint64_t e)
{
    uint64_t lo = base + q, stop = base + 2 * p;
    uint64_t vs = lo, ve = lo; /* [vs, ve): the vector stretch */
    if (c->mode == MODE_FAST && q < VW) {
        uint64_t lim = stop - q; /* the last run's partner ends below it */
        if (lim > e)
            lim = e;
        if (lim > c->mhi)
            lim = c->mhi;
        if (c->mlo > lo)
            vs = lo + (c->mlo - lo + VW - 1) / VW * VW;
        ve = lim > vs ? vs + (lim - vs) / VW * VW : vs;
    }
    /* a thread's share starts at mlo: skip the runs wholly left of it (the
     * window can be the whole array, and walking it from its start made
     * every share cost as much as all of them) */
    if (c->mlo > lo)
        lo += (c->mlo - lo) / (2 * q) * (2 * q);
    for (; lo + q < stop; lo += 2 * q) {
        if (lo == vs && ve > vs) {
            for (uint64_t v = vs; v < ve; v += VW) {
                vec x = vload(c->a + v);
                switch (q) {
                case 1: VSTEP(x, 1, 1); break;
                case 2: VSTEP(x, 2, 2); break;
#if VW == 8
                case 4: VSTEP(x, 4, 4); break;
#endif
                default: break;
                }
                vstore(c->a + v, x);
            }
            lo = ve - 2 * q; /* the loop steps on to ve */
            continue;
        }
        if (lo + q >= e || lo >= c->mhi)
            return false;
        uint64_t len = e - (lo + q) < q ? e - (lo + q) : q;
        run(c, (uint32_t)lo, (uint32_t)(lo + q), (uint32_t)len, 1);
    }
    return true;
}

/* Apply closed-form layer f to the comparators inside [s, e), where s is a
 * multiple of layer_window(f) and e <= n: every comparator there has both
 * wires in [s, s + window), and those with max wire >= e are skipped (e is
 * either a window boundary or n, where dropping is the definition). Runs
 * come in increasing order of their min wire, as sn_schedule_layer_pairs. */
static void apply_window(ctx *c, sn_layer_form f, uint32_t s, uint32_t e)
{
    uint64_t p = f.p, q = f.q;
    switch (f.algo) {
    case SN_ALGO_BITONIC:
        if (q == p / 2) {
            for (uint64_t base = s; base < e && base < c->mhi; base += p) {
                uint64_t hi0 = base + p - 1, j0 = hi0 >= e ? hi0 - e + 1 : 0;
                if (j0 >= p / 2)
                    break;
                run(c, (uint32_t)(base + j0), (uint32_t)(hi0 - j0), (uint32_t)(p / 2 - j0), -1);
            }
        } else {
            for (uint64_t base = s; base + q < e && base < c->mhi; base += 2 * q) {
                uint64_t len = e - (base + q) < q ? e - (base + q) : q;
                run(c, (uint32_t)base, (uint32_t)(base + q), (uint32_t)len, 1);
            }
        }
        break;
    case SN_ALGO_ODDEVEN_MERGE:
        if (q == p) {
            for (uint64_t base = s; base + q < e && base < c->mhi; base += 2 * q) {
                uint64_t len = e - (base + q) < q ? e - (base + q) : q;
                run(c, (uint32_t)base, (uint32_t)(base + q), (uint32_t)len, 1);
            }
            break;
        }
        for (uint64_t base = s; base < e; base += 2 * p)
            if (!oem_window(c, base, p, q, e))
                return;
        break;
    case SN_ALGO_TRANSPOSITION: {
        /* pairs (i, i + 1), i of the layer's parity, min wire in [mlo, mhi) */
        if (c->mlo > s)
            s = c->mlo;
        if ((uint64_t)c->mhi + 1 < e)
            e = c->mhi + 1;
        uint64_t i = s + ((f.p - s) & 1u);
        if (c->mode == MODE_FAST) {
            /* VW/2 adjacent pairs per vector, starting on the parity */
            for (; i + VW <= e; i += VW) {
                vec v = vload(c->a + i);
                VSTEP(v, 1, 1);
                vstore(c->a + i, v);
            }
        }
        for (; i + 1 < e; i += 2)
            ce_scalar(c, (uint32_t)i, (uint32_t)i + 1);
        break;
    }
    default: break;
    }
}

static void apply_explicit(ctx *c, const sn_network *net, size_t k)
{
    size_t count = 0;
    const sn_comparator *cmp = sn_network_layer(net, k, &count);
    int mode = c->mode;
    c->mode = MODE_SCALAR;
    for (size_t i = 0; i < count; i++)
        ce_scalar(c, cmp[i].a, cmp[i].b);
    c->mode = mode;
}

static void apply_layer(ctx *c, const sn_schedule *s, size_t k)
{
    const sn_network *net = sn_schedule_network(s);
    if (net)
        apply_explicit(c, net, k);
    else
        apply_window(c, sn_schedule_layer_form(s, k), 0, sn_schedule_wires(s));
}

/* Layers [k0, k1) of a bitonic schedule that all fit in one vector: the
 * sort prefix (merges 2..VW) or one merge's tail. Returns 1 for prefix,
 * 2 for tail, 0 if neither (then they run through apply_window). */
static int vector_pattern(const sn_schedule *s, size_t k0, size_t k1)
{
    size_t lg = 0;
    while (((size_t)1 << lg) < VW)
        lg++;
    sn_layer_form f0 = sn_schedule_layer_form(s, k0);
    if (f0.p <= VW) {
        if (k1 - k0 != lg * (lg + 1) / 2 || f0.p != 2)
            return 0;
        return sn_schedule_layer_form(s, k1 - 1).p == VW ? 1 : 0;
    }
    if (k1 - k0 != lg || f0.q != VW / 2)
        return 0;
    return sn_schedule_layer_form(s, k1 - 1).p == f0.p ? 2 : 0;
}

/* Layers [k0, k1), all local to windows of g->block wires, over [s, e). */
static void run_local(ctx *c, const sn_schedule *s, size_t k0, size_t k1, uint32_t bs, uint32_t be)
{
    bool bitonic = sn_schedule_algo(s) == SN_ALGO_BITONIC && c->mode == MODE_FAST;
    size_t k = k0;
    while (k < k1) {
        sn_layer_form f = sn_schedule_layer_form(s, k);
        if (bitonic && layer_window(f) <= VW) {
            size_t j = k;
            while (j < k1 && layer_window(sn_schedule_layer_form(s, j)) <= VW)
                j++;
            int pat = vector_pattern(s, k, j);
            uint32_t v = bs;
            if (pat) {
                for (; v + VW <= be; v += VW) {
                    vec x = vload(c->a + v);
                    vstore(c->a + v, pat == 1 ? vec_prefix(x) : vec_tail(x));
                }
            }
            for (size_t t = k; t < j; t++)
                apply_window(c, sn_schedule_layer_form(s, t), v, be);
            k = j;
            continue;
        }
        apply_window(c, f, bs, be);
        k++;
    }
}

/* ---- phases: how a closed-form schedule's layers are grouped
 *
 * Local layers (comparators inside aligned windows of `block` wires) run
 * block by block, a group of consecutive ones per pass over the array.
 * The others ("global") are grouped into sweeps: a layer whose partners
 * are at most d wires apart (odd-even merge (p, q): q; bitonic: q, or p
 * for the mirror step) only needs the layers before it done up to d wires
 * to the right, so consecutive global layers whose distances add up to at
 * most `sweep_max` run in one pass: a frontier moves left to right in
 * segments, each layer's frontier trailing the one before by its
 * distance, and the band between them stays in cache. Odd-even merge's
 * large merges end in log2(block) + 1 such layers (q = block .. 1): one
 * pass instead of one each. A global layer farther apart than that runs
 * alone, in one pass, unless it starts a group on closure blocks
 * (block_group_end). Every comparator still runs after those of the
 * layers before it that share a wire with it, so the result is the
 * layer-by-layer one, bit for bit. */

typedef struct geom {
    uint32_t block;     /* wires of a local window */
    uint64_t sweep_max; /* a sweep's distances add up to at most this (0: no sweeps) */
    uint64_t seg;       /* a sweep's step */
    uint64_t chunk;     /* wires of a closure block's chunks */
    int bits_max;       /* a closure block has at most 2^bits_max chunks (0: none) */
} geom;

static geom geom_make(unsigned block_log, bool no_sweep, uint32_t n, unsigned nt)
{
    if (block_log == 0 || block_log > 30)
        block_log = BLOCK_LOG;
    geom g = {(uint32_t)1 << block_log, (uint64_t)2 << block_log, ((uint64_t)1 << block_log) / 8,
              ((uint64_t)1 << block_log) / 32, 7};
    if (g.seg == 0)
        g.seg = 1;
    if (g.chunk == 0)
        g.chunk = 1;
    /* each thread's share must hold the triangles at both its ends */
    if (no_sweep || (nt > 1 && (uint64_t)n / nt < 4 * g.sweep_max))
        g.sweep_max = 0;
    if (no_sweep)
        g.bits_max = 0;
    return g;
}

/* Farthest apart a closed-form layer's two wires can be. */
static uint64_t layer_dist(sn_layer_form f)
{
    switch (f.algo) {
    case SN_ALGO_BITONIC: return f.q == f.p / 2 ? f.p : f.q;
    case SN_ALGO_ODDEVEN_MERGE: return f.q;
    case SN_ALGO_TRANSPOSITION: return 1;
    default: return UINT64_MAX;
    }
}

/* Whether closed-form layer k's comparators leave aligned block windows. */
static bool layer_is_global(const sn_schedule *s, size_t k, uint32_t block)
{
    uint64_t w = layer_window(sn_schedule_layer_form(s, k));
    return w == 0 || w > block;
}

/* The wire bits in which a closed-form layer's two wires can differ:
 * bitonic's xor step q: q; odd-even merge (p, p): p; (p, q < p): the
 * bits from q up to 2p (w + q carries, inside the 2p window); UINT64_MAX
 * for the others (the mirror step and transposition change low bits). */
static uint64_t layer_mask(sn_layer_form f)
{
    switch (f.algo) {
    case SN_ALGO_BITONIC: return f.q == f.p / 2 ? UINT64_MAX : f.q;
    case SN_ALGO_ODDEVEN_MERGE: return f.q == f.p ? f.p : 2 * (uint64_t)f.p - f.q;
    default: return UINT64_MAX;
    }
}

static int popcount64(uint64_t x)
{
    int c = 0;
    for (; x; x &= x - 1)
        c++;
    return c;
}

/* Closure blocks: when the layers [k, j) pair only wires that differ in
 * the bits of U, all above the chunk size, the wires B | x + i (x any
 * subset of U, i < chunk) for a base B with no bit of U or below the
 * chunk are closed under them: 2^|U| chunks that the group runs on in
 * cache, layer after layer, one pass for the group. Bitonic's xor steps
 * have one bit each (7 consecutive ones per pass); odd-even merge's first
 * r layers of a merge share r bits. Returns the end of the longest such
 * group from k, and U. */
static size_t block_group_end(const sn_schedule *s, size_t k, size_t kend, const geom *g,
                              uint64_t *umask)
{
    uint64_t U = 0;
    size_t j = k;
    while (j < kend && g->bits_max && layer_is_global(s, j, g->block)) {
        uint64_t m = layer_mask(sn_schedule_layer_form(s, j));
        if (m == UINT64_MAX || (m & (g->chunk - 1)) || popcount64(U | m) > g->bits_max)
            break;
        U |= m;
        j++;
    }
    *umask = U;
    return j;
}

enum { PH_LOCAL, PH_GLOBAL, PH_SWEEP, PH_BLOCKS };

/* The phase of a closed-form run that starts at layer k (< kend): the
 * local layers from k up to the next global one (PH_LOCAL), one global
 * layer (PH_GLOBAL), a sweep of several (PH_SWEEP) or a group on closure
 * blocks (PH_BLOCKS, *umask its bits), whichever covers more layers.
 * Returns its end. */
static size_t phase_end(const sn_schedule *s, size_t k, size_t kend, const geom *g, int *kind,
                        uint64_t *umask)
{
    size_t j = k + 1;
    if (!layer_is_global(s, k, g->block)) {
        *kind = PH_LOCAL;
        while (j < kend && !layer_is_global(s, j, g->block))
            j++;
        return j;
    }
    uint64_t sum = layer_dist(sn_schedule_layer_form(s, k));
    while (j < kend && sum <= g->sweep_max && layer_is_global(s, j, g->block)) {
        uint64_t d = layer_dist(sn_schedule_layer_form(s, j));
        if (d > g->sweep_max - sum)
            break;
        sum += d;
        j++;
    }
    size_t jb = block_group_end(s, k, kend, g, umask);
    if (jb > j && jb - k > 1) {
        *kind = PH_BLOCKS;
        return jb;
    }
    *kind = j - k > 1 ? PH_SWEEP : PH_GLOBAL;
    return j;
}

/* The comparators of closed-form layer f whose min wire is in [lo, hi). */
static void layer_range(ctx *c, sn_layer_form f, uint32_t n, uint64_t lo, uint64_t hi)
{
    if (hi > n)
        hi = n;
    if (lo >= hi)
        return;
    uint64_t w = layer_window(f);
    c->mlo = (uint32_t)lo;
    c->mhi = (uint32_t)hi;
    apply_window(c, f, (uint32_t)(w ? lo - lo % w : lo), n);
    c->mlo = 0;
    c->mhi = UINT32_MAX;
}

/* Sweep layers [k0, k1) over the min wires [a, b). Layer k's frontier
 * trails by R_k = d_{k0+1} + ... + d_k (the wires it touches are then
 * done by layer k - 1). Where a neighbour's share lies to the left
 * (inner_left), layer k keeps L_k = d_{k0} + ... + d_{k-1} wires off a
 * (the neighbour's earlier layers still reach into them); to the right
 * (inner_right) it stops R_k short of b: sweep_boundary does the rest. */
/* The lags of a sweep's layer k: R_k = d_{k0+1} + ... + d_k behind the
 * frontier, L_k = d_{k0} + ... + d_{k-1} ahead; call for k = k0, k0+1, ...
 * in turn with the same lag (zeroed first). */
typedef struct lag {
    uint64_t R, L, dprev;
} lag;

static sn_layer_form lag_next(const sn_schedule *s, size_t k0, size_t k, lag *g)
{
    sn_layer_form f = sn_schedule_layer_form(s, k);
    uint64_t d = layer_dist(f);
    if (k > k0) {
        g->R += d;
        g->L += g->dprev;
    }
    g->dprev = d;
    return f;
}

static void sweep_region(ctx *c, const sn_schedule *s, size_t k0, size_t k1, uint64_t a, uint64_t b,
                         bool inner_left, bool inner_right, uint64_t seg)
{
    uint32_t n = sn_schedule_wires(s);
    for (uint64_t F = a;; F += seg) {
        bool more = false;
        lag g = {0, 0, 0};
        for (size_t k = k0; k < k1; k++) {
            sn_layer_form f = lag_next(s, k0, k, &g);
            uint64_t R = g.R, L = g.L;
            uint64_t lo_lim = inner_left ? a + L : a, hi_lim = inner_right ? b - R : b;
            uint64_t lo = F > R ? F - R : 0, hi = F + seg > R ? F + seg - R : 0;
            if (lo < lo_lim)
                lo = lo_lim;
            if (hi < hi_lim)
                more = true;
            else
                hi = hi_lim;
            layer_range(c, f, n, lo, hi);
        }
        if (!more)
            return;
    }
}

/* The triangle at the border x of two threads' shares, after both swept:
 * layer k's min wires in [x - R_k, x + L_k), layer by layer. */
static void sweep_boundary(ctx *c, const sn_schedule *s, size_t k0, size_t k1, uint64_t x)
{
    uint32_t n = sn_schedule_wires(s);
    lag g = {0, 0, 0};
    for (size_t k = k0; k < k1; k++) {
        sn_layer_form f = lag_next(s, k0, k, &g);
        layer_range(c, f, n, x - g.R, x + g.L);
    }
}

/* Layers [k0, k1) on the closure block with base B (see block_group_end):
 * each layer on all the block's chunks before the next. */
static void run_block(ctx *c, const sn_schedule *s, size_t k0, size_t k1, uint64_t B, uint64_t U,
                      uint64_t chunk)
{
    uint32_t n = sn_schedule_wires(s);
    for (size_t k = k0; k < k1; k++) {
        sn_layer_form f = sn_schedule_layer_form(s, k);
        uint64_t x = 0;
        do {
            if ((B | x) < n)
                layer_range(c, f, n, B | x, (B | x) + chunk);
            x = (x - U) & U; /* the next subset of U */
        } while (x);
    }
}

/* The closure blocks t, t + nt, ... (in the order of their bases). */
static void run_blocks(ctx *c, const sn_schedule *s, size_t k0, size_t k1, uint64_t U,
                       uint64_t chunk, unsigned t, unsigned nt)
{
    uint32_t n = sn_schedule_wires(s);
    uint64_t M = U | (chunk - 1); /* the bits a base keeps clear */
    uint64_t i = 0;
    for (uint64_t B = 0; B < n; B = ((B | M) + 1) & ~M, i++)
        if (i % nt == t)
            run_block(c, s, k0, k1, B, U, chunk);
}

/* Run every layer of a closed-form schedule, blocking local layers and
 * sweeping global ones; false when *cancel was set. */
static bool run_closed(ctx *c, const sn_schedule *s, const geom *g, const sn_cancel *cancel)
{
    size_t L = sn_schedule_layer_count(s);
    uint32_t n = sn_schedule_wires(s);
    for (size_t k = 0, j; k < L; k = j) {
        if (sn_cancel_requested(cancel))
            return false;
        int kind;
        uint64_t U;
        j = phase_end(s, k, L, g, &kind, &U);
        if (kind == PH_GLOBAL)
            apply_window(c, sn_schedule_layer_form(s, k), 0, n);
        else if (kind == PH_BLOCKS)
            run_blocks(c, s, k, j, U, g->chunk, 0, 1);
        else if (kind == PH_SWEEP)
            sweep_region(c, s, k, j, 0, n, false, false, g->seg);
        else
            for (uint64_t b = 0; b < n; b += g->block)
                run_local(c, s, k, j, (uint32_t)b, (uint32_t)(b + g->block < n ? b + g->block : n));
    }
    return true;
}

/* ---- threads --------------------------------------------------------
 *
 * For large n the layers [k0, k1) run on several threads that walk the
 * same sequence of phases, with a barrier after each: a group of
 * consecutive local layers (whole block windows dealt out to the threads),
 * one global layer (its comparators dealt out by min wire, in chunks), or
 * a sweep (each thread sweeps its share of the min wires, then, after a
 * barrier, the triangle at the left border of its share). A layer's
 * comparators touch disjoint wires and each runs after those of the
 * earlier layers that share a wire with it, so who runs which comparator
 * cannot change a bit of the result: the output is the single-threaded
 * one. Swap flags need the comparators in order, so they stay on one
 * thread. A cancel flag is read by thread 0 before each barrier and the
 * phase to stop after published through stop_at, so that every thread
 * stops after the same barrier. */

typedef struct par {
    const sn_schedule *s;
    sn_key_type type;
    uint32_t *keys, *pay;
    uint32_t n;
    size_t k0, k1;
    int mode;
    bool convert; /* raw bits in and out (else already internal) */
    unsigned nt;  /* threads, the caller included */
    unsigned block_log;
    bool no_sweep;
    geom g;
    const sn_cancel *cancel; /* may be NULL */
    atomic_size_t stop_at;   /* the phase after which all stop (SIZE_MAX: none) */
    size_t swaps[SN_EXEC_THREADS_MAX];
} par;

/* Comparators of explicit layer k with index in [i0, i1). */
static void explicit_part(ctx *c, const sn_network *net, size_t k, size_t i0, size_t i1)
{
    size_t count = 0;
    const sn_comparator *cmp = sn_network_layer(net, k, &count);
    for (size_t i = i0; i < i1 && i < count; i++)
        ce_scalar(c, cmp[i].a, cmp[i].b);
}

/* Thread t's share of global closed-form layer f: min-wire chunks t,
 * t + nt, ...; enough chunks that uneven layers (a bitonic mirror step has
 * all its min wires in the lower half of each window) still spread. */
static void global_part(ctx *c, sn_layer_form f, uint32_t n, unsigned t, unsigned nt)
{
    uint64_t chunk = ((uint64_t)n + 8 * nt - 1) / (8 * nt);
    if (chunk < 4096)
        chunk = 4096;
    for (uint64_t lo = t * chunk; lo < n; lo += nt * chunk)
        layer_range(c, f, n, lo, lo + chunk);
}

/* Thread t's share of the phase that starts at layer k; returns its end. */
static size_t closed_phase(ctx *c, par *p, sn_team *team, size_t k, unsigned t)
{
    int kind;
    uint64_t U;
    size_t j = phase_end(p->s, k, p->k1, &p->g, &kind, &U);
    if (kind == PH_GLOBAL) {
        global_part(c, sn_schedule_layer_form(p->s, k), p->n, t, p->nt);
    } else if (kind == PH_BLOCKS) {
        run_blocks(c, p->s, k, j, U, p->g.chunk, t, p->nt);
    } else if (kind == PH_SWEEP) {
        uint64_t a = (uint64_t)p->n * t / p->nt, b = (uint64_t)p->n * (t + 1) / p->nt;
        sweep_region(c, p->s, k, j, a, b, t > 0, t + 1 < p->nt, p->g.seg);
        sn_team_barrier(team);
        if (t > 0)
            sweep_boundary(c, p->s, k, j, a);
    } else {
        uint64_t blk = p->g.block;
        for (uint64_t b = (uint64_t)t * blk; b < p->n; b += (uint64_t)p->nt * blk)
            run_local(c, p->s, k, j, (uint32_t)b, (uint32_t)(b + blk < p->n ? b + blk : p->n));
    }
    return j;
}

/* Member t of the team (sn_parallel_team). */
static void par_work(void *arg, sn_team *team, unsigned t)
{
    par *p = arg;
    ctx c = CTX(p->keys, p->pay, NULL, p->mode);
    uint32_t lo = (uint32_t)((uint64_t)p->n * t / p->nt);
    uint32_t hi = (uint32_t)((uint64_t)p->n * (t + 1) / p->nt);
    const sn_network *net = sn_schedule_network(p->s);
    if (p->convert)
        to_internal(p->type, p->keys + lo, hi - lo);
    sn_team_barrier(team);
    for (size_t k = p->k0, phase = 0; k < p->k1; phase++) {
        if (net) {
            size_t m = sn_schedule_layer_size(p->s, k);
            explicit_part(&c, net, k, m * t / p->nt, m * (t + 1) / p->nt);
            k++;
        } else {
            k = closed_phase(&c, p, team, k, t);
        }
        if (t == 0 && sn_cancel_requested(p->cancel))
            atomic_store(&p->stop_at, phase);
        sn_team_barrier(team);
        if (atomic_load(&p->stop_at) <= phase)
            break;
    }
    if (p->convert)
        from_internal(p->type, p->keys + lo, hi - lo);
    p->swaps[t] = c.swaps;
}

/* The team's size is known: the geometry and the swap counts follow it. */
static void par_setup(void *arg, unsigned members)
{
    par *p = arg;
    p->nt = members;
    p->g = geom_make(p->block_log, p->no_sweep, p->n, p->nt);
    memset(p->swaps, 0, sizeof p->swaps);
}

unsigned sn_exec_threads_auto(uint32_t n)
{
    if (n < SN_EXEC_PARALLEL_MIN)
        return 1;
    unsigned cpus = sn_parallel_cpus();
    return cpus > SN_EXEC_THREADS_MAX ? SN_EXEC_THREADS_MAX : cpus;
}

/* Layers [k0, k1) on nt threads (the caller is one of them); keys are raw
 * bits when convert, else internal. Falls back to fewer threads (one at
 * least: the caller) when threads cannot be started. Returns the swaps;
 * *stopped (may be NULL): whether p->cancel stopped the run. */
static size_t run_parallel(par *p, unsigned nt, bool *stopped)
{
    atomic_init(&p->stop_at, SIZE_MAX);
    unsigned members = sn_parallel_team(nt, par_setup, par_work, p);
    size_t swaps = 0;
    for (unsigned t = 0; t < members; t++)
        swaps += p->swaps[t];
    if (stopped)
        *stopped = atomic_load(&p->stop_at) != SIZE_MAX;
    return swaps;
}

bool sn_exec_run_opts(const sn_schedule *s, sn_key_type t, uint32_t *keys, uint32_t *payload,
                      const sn_exec_opts *o)
{
    sn_api_check(s != NULL && (keys != NULL || sn_schedule_wires(s) == 0));
    uint32_t n = sn_schedule_wires(s);
    unsigned nt = o && o->threads ? o->threads : sn_exec_threads_auto(n);
    const sn_cancel *cancel = o ? o->cancel : NULL;
    unsigned block_log = o ? o->block_log : 0;
    if (nt > SN_EXEC_THREADS_MAX)
        nt = SN_EXEC_THREADS_MAX;
    if (nt > 1 && n > 1) {
        par p = {.s = s,
                 .type = t,
                 .keys = keys,
                 .pay = payload,
                 .n = n,
                 .k0 = 0,
                 .k1 = sn_schedule_layer_count(s),
                 .mode = payload ? MODE_SCALAR : MODE_FAST,
                 .convert = true,
                 .block_log = block_log,
                 .no_sweep = o && o->no_sweep,
                 .cancel = cancel};
        bool stopped = false;
        run_parallel(&p, nt, &stopped);
        return !stopped;
    }
    ctx c = CTX(keys, payload, NULL, payload ? MODE_SCALAR : MODE_FAST);
    to_internal(t, keys, n);
    bool done = true;
    if (sn_schedule_network(s)) {
        for (size_t k = 0; done && k < sn_schedule_layer_count(s); k++) {
            done = !sn_cancel_requested(cancel);
            if (done)
                apply_layer(&c, s, k);
        }
    } else {
        geom g = geom_make(block_log, o && o->no_sweep, n, 1);
        done = run_closed(&c, s, &g, cancel);
    }
    from_internal(t, keys, n);
    return done;
}

void sn_exec_run_threads(const sn_schedule *s, sn_key_type t, uint32_t *keys, uint32_t *payload,
                         unsigned threads)
{
    sn_exec_opts o = {.threads = threads};
    sn_exec_run_opts(s, t, keys, payload, &o);
}

void sn_exec_run(const sn_schedule *s, sn_key_type t, uint32_t *keys, uint32_t *payload)
{
    sn_exec_run_threads(s, t, keys, payload, 0);
}

/* One layer on keys already in internal form. */
static size_t exec_layer_internal(const sn_schedule *s, size_t k, uint32_t *keys, uint32_t *payload,
                                  uint8_t *swapped)
{
    if (k >= sn_schedule_layer_count(s))
        return 0;
    ctx c = CTX(keys, payload, swapped, (payload || swapped) ? MODE_SCALAR : MODE_COUNT);
    apply_layer(&c, s, k);
    return c.swaps;
}

size_t sn_exec_layer(const sn_schedule *s, size_t k, sn_key_type t, uint32_t *keys,
                     uint32_t *payload, uint8_t *swapped)
{
    sn_api_check(s != NULL && (keys != NULL || sn_schedule_wires(s) == 0));
    sn_api_check(k < sn_schedule_layer_count(s));
    uint32_t n = sn_schedule_wires(s);
    unsigned nt = sn_exec_threads_auto(n);
    if (nt > 1 && !swapped && k < sn_schedule_layer_count(s)) {
        par p = {.s = s,
                 .type = t,
                 .keys = keys,
                 .pay = payload,
                 .n = n,
                 .k0 = k,
                 .k1 = k + 1,
                 .mode = payload ? MODE_SCALAR : MODE_COUNT,
                 .convert = true};
        return run_parallel(&p, nt, NULL);
    }
    to_internal(t, keys, n);
    size_t swaps = exec_layer_internal(s, k, keys, payload, swapped);
    from_internal(t, keys, n);
    return swaps;
}

/* ---- digest ----------------------------------------------------------- */

uint64_t sn_digest(const uint32_t *keys, uint32_t n)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += sn_digest_mix(i, keys[i]);
    return sum;
}

/* Digest of an array held in internal form. */
static uint64_t digest_internal(sn_key_type t, const uint32_t *keys, uint32_t n)
{
    if (t == SN_KEY_I32)
        return sn_digest(keys, n);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += sn_digest_mix(i, sn_key_from_ordered(t, keys[i] ^ 0x80000000u));
    return sum;
}

/* ---- trace ------------------------------------------------------------ */

struct sn_trace {
    sn_trace_mode mode;
    sn_key_type type;
    uint32_t n;
    size_t layers;
    uint32_t *states;   /* FULL: (L+1)*n; DIGEST: 2*n (first, final) */
    uint32_t *payloads; /* same shape as states, or NULL */
    uint64_t *digests;  /* L+1 */
    size_t *swap_count; /* L */
    uint8_t *flags;     /* FULL: all swap flags, layer k at flag_off[k] */
    size_t *flag_off;   /* FULL: L+1 */
};

void sn_trace_destroy(sn_trace *tr)
{
    if (!tr)
        return;
    sn_free(tr->states);
    sn_free(tr->payloads);
    sn_free(tr->digests);
    sn_free(tr->swap_count);
    sn_free(tr->flags);
    sn_free(tr->flag_off);
    sn_free(tr);
}

sn_status sn_trace_record(const sn_schedule *s, sn_key_type t, const uint32_t *input,
                          const uint32_t *payload_in, sn_trace_mode mode, sn_trace **out,
                          sn_diag *diag)
{
    if (!out || !s || (!input && sn_schedule_wires(s) > 0))
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "trace: missing schedule or input");
    *out = NULL;
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s), words = 0, nstates;
    bool full_fits = sn_mul_size(L + 1, n, &words) && words <= SN_TRACE_FULL_MAX;
    if (mode == SN_TRACE_AUTO)
        mode = full_fits ? SN_TRACE_FULL : SN_TRACE_DIGEST;
    if (mode == SN_TRACE_FULL && !sn_mul_size(L + 1, n, &words))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "trace: %u wires x %zu layers is too large", n,
                           L);
    nstates = mode == SN_TRACE_FULL ? words : 2 * (size_t)n;

    sn_trace *tr = sn_calloc(1, sizeof *tr);
    uint32_t *work = NULL, *wpay = NULL;
    sn_status st = SN_ENOMEM;
    if (!tr)
        goto fail;
    tr->mode = mode;
    tr->type = t;
    tr->n = n;
    tr->layers = L;
    tr->states = sn_calloc(nstates + 1, sizeof *tr->states);
    tr->digests = sn_calloc(L + 1, sizeof *tr->digests);
    tr->swap_count = sn_calloc(L + 1, sizeof *tr->swap_count);
    work = sn_calloc((size_t)n + 1, sizeof *work);
    if (!tr->states || !tr->digests || !tr->swap_count || !work)
        goto fail;
    if (payload_in) {
        tr->payloads = sn_calloc(nstates + 1, sizeof *tr->payloads);
        wpay = sn_calloc((size_t)n + 1, sizeof *wpay);
        if (!tr->payloads || !wpay)
            goto fail;
        memcpy(wpay, payload_in, (size_t)n * sizeof *wpay);
    }
    if (mode == SN_TRACE_FULL) {
        size_t total = sn_schedule_size(s);
        tr->flags = sn_calloc(total + 1, 1);
        tr->flag_off = sn_calloc(L + 1, sizeof *tr->flag_off);
        if (!tr->flags || !tr->flag_off)
            goto fail;
        for (size_t k = 0; k < L; k++)
            tr->flag_off[k + 1] = tr->flag_off[k] + sn_schedule_layer_size(s, k);
    }

    memcpy(work, input, (size_t)n * sizeof *work);
    memcpy(tr->states, input, (size_t)n * sizeof *work);
    if (wpay)
        memcpy(tr->payloads, wpay, (size_t)n * sizeof *wpay);
    tr->digests[0] = sn_digest(input, n);
    to_internal(t, work, n);
    for (size_t k = 0; k < L; k++) {
        uint8_t *fl = mode == SN_TRACE_FULL ? tr->flags + tr->flag_off[k] : NULL;
        tr->swap_count[k] = exec_layer_internal(s, k, work, wpay, fl);
        if (mode == SN_TRACE_FULL) {
            uint32_t *dst = tr->states + (k + 1) * (size_t)n;
            memcpy(dst, work, (size_t)n * sizeof *dst);
            from_internal(t, dst, n);
            tr->digests[k + 1] = sn_digest(dst, n);
            if (wpay)
                memcpy(tr->payloads + (k + 1) * (size_t)n, wpay, (size_t)n * sizeof *wpay);
        } else {
            tr->digests[k + 1] = digest_internal(t, work, n);
        }
    }
    if (mode == SN_TRACE_DIGEST) {
        memcpy(tr->states + n, work, (size_t)n * sizeof *work);
        from_internal(t, tr->states + n, n);
        if (wpay)
            memcpy(tr->payloads + n, wpay, (size_t)n * sizeof *wpay);
    }
    sn_free(work);
    sn_free(wpay);
    *out = tr;
    return SN_OK;
fail:
    sn_free(work);
    sn_free(wpay);
    sn_trace_destroy(tr);
    return sn_diag_set(diag, st, 0, 0, "trace of %s: out of memory", sn_schedule_name(s));
}

sn_trace_mode sn_trace_mode_of(const sn_trace *tr)
{
    return tr->mode;
}

uint32_t sn_trace_wires(const sn_trace *tr)
{
    return tr->n;
}

size_t sn_trace_layer_count(const sn_trace *tr)
{
    return tr->layers;
}

sn_key_type sn_trace_key_type(const sn_trace *tr)
{
    return tr->type;
}

/* Index of step k's state in states/payloads, or SIZE_MAX if not kept. */
static size_t state_slot(const sn_trace *tr, size_t step)
{
    if (step > tr->layers)
        return SIZE_MAX;
    if (tr->mode == SN_TRACE_FULL)
        return step;
    if (step == 0)
        return 0;
    return step == tr->layers ? 1 : SIZE_MAX;
}

const uint32_t *sn_trace_state(const sn_trace *tr, size_t step)
{
    sn_api_check(tr != NULL && step <= tr->layers);
    size_t slot = state_slot(tr, step);
    return slot == SIZE_MAX ? NULL : tr->states + slot * (size_t)tr->n;
}

const uint32_t *sn_trace_payload(const sn_trace *tr, size_t step)
{
    size_t slot = state_slot(tr, step);
    if (!tr->payloads || slot == SIZE_MAX)
        return NULL;
    return tr->payloads + slot * (size_t)tr->n;
}

uint64_t sn_trace_digest(const sn_trace *tr, size_t step)
{
    sn_api_check(tr != NULL && step <= tr->layers);
    return step <= tr->layers ? tr->digests[step] : 0;
}

const uint8_t *sn_trace_swaps(const sn_trace *tr, size_t layer, size_t *count)
{
    sn_api_check(tr != NULL && layer < tr->layers);
    if (count)
        *count = 0;
    if (tr->mode != SN_TRACE_FULL || layer >= tr->layers)
        return NULL;
    if (count)
        *count = tr->flag_off[layer + 1] - tr->flag_off[layer];
    return tr->flags + tr->flag_off[layer];
}

size_t sn_trace_swap_count(const sn_trace *tr, size_t layer)
{
    sn_api_check(tr != NULL && layer < tr->layers);
    return layer < tr->layers ? tr->swap_count[layer] : 0;
}
