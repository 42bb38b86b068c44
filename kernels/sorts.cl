/* sorts.cl - the classic GPU sorts beside the networks (`sortnet gpu sort`):
 * odd-even transposition (global rounds with an early-exit flag, and a
 * block form in local memory), rank sort (global and tiled), merge sort
 * (local tiles, then merge path), LSD radix sort (local split sort by digit,
 * histograms, scan, coalesced scatter) and a hybrid (bitonic tiles, then
 * merge path).
 *
 * Every kernel sorts "ordered keys" (kernels/keys.cl: their unsigned order is
 * the key order of i32, u32 and f32 alike) and moves the payload with them
 * when hp != 0; every sort is stable, so with the original index as payload
 * the output is exactly the reference's stable sort.
 *
 * Built with -DWG=work-group size (a power of two, at least 64), -DSN_NV=1
 * on NVIDIA GPUs of compute capability 7.0 or later, and, in
 * tests only, -DSN_SORT_BUG=MASK to plant a bug in the kernels of the
 * algorithms in MASK (1 transposition, 2 transposition-local, 4 rank, 8
 * merge, 16 radix, 32 hybrid; see sorts.c). */
#ifndef WG
#define WG 256
#endif
#ifndef SN_NV
#define SN_NV 0 /* 1: an NVIDIA GPU with warp barriers and shuffles (see rank_nv) */
#endif
#ifndef SN_SORT_BUG
#define SN_SORT_BUG 0
#endif
#ifndef MERGE_E
#define MERGE_E 16 /* keys per work-item in merge tiles and merge chunks (the host may set it) */
#endif
#define MT (WG * MERGE_E)
#ifndef TILE_E
#define TILE_E MERGE_E /* keys per work-item in a keys-only merge tile (the host may set it) */
#endif
#define E_MAX (TILE_E > MERGE_E ? TILE_E : MERGE_E)
#ifndef RADIX_E
#define RADIX_E 8 /* keys per work-item in a radix tile (the host may set it) */
#endif
#define RT (WG * RADIX_E)
#define RTP (RT + RT / 32)
#define HYB_E (MERGE_E > 16 ? MERGE_E / 2 : 8) /* keys per work-item in a bitonic tile: MT divides 2 HT */
#define HT (WG * HYB_E)
#define TB (2 * WG) /* transposition-local block */
/* a local index with a pad word every 32: consecutive words of one
 * work-item fall in distinct banks */
#define LP(q) ((q) + ((q) >> 5))
/* Merge passes write each work-item's keys from its registers (measured
 * faster at 16 keys a work-item on the H200 and on pocl, much slower at 32
 * on the H200) instead of through local memory. */
#define MS_DIRECT (MERGE_E <= 16)

/* ---- key mapping */

__kernel void sort_to_ordered(__global uint *k, uint n, uint kt)
{
    uint i = (uint)get_global_id(0);
    if (i < n)
        k[i] = to_ordered(kt, k[i]);
}

__kernel void sort_from_ordered(__global uint *k, uint n, uint kt)
{
    uint i = (uint)get_global_id(0);
    if (i < n)
        k[i] = from_ordered(kt, k[i]);
}

/* ---- searches: how many of a[0..len) are < x (lower) or <= x (upper) */

inline uint lower_l(__local const uint *a, uint len, uint x)
{
    uint lo = 0, hi = len;
    while (lo < hi) {
        uint m = (lo + hi) >> 1;
        if (a[m] < x) lo = m + 1; else hi = m;
    }
    return lo;
}

inline uint upper_l(__local const uint *a, uint len, uint x)
{
    uint lo = 0, hi = len;
    while (lo < hi) {
        uint m = (lo + hi) >> 1;
        if (a[m] <= x) lo = m + 1; else hi = m;
    }
    return lo;
}

/* ---- 1. odd-even transposition: one launch per phase; a phase compares
 * (i, i+1) for every i of its parity. flag[slot] is set when a key moved, so
 * the host can stop after a round (both phases) that moved nothing. */

__kernel void tr_phase(__global uint *k, __global uint *p, uint n, uint parity, uint hp,
                       __global uint *flag, uint slot)
{
    uint i = 2 * (uint)get_global_id(0) + parity;
#if SN_SORT_BUG & 1
    if (i + 2 >= n) /* planted: the last pair is never compared */
        return;
#endif
    if (i + 1 >= n)
        return;
    uint a = k[i], b = k[i + 1];
    if (a > b) {
        k[i] = b;
        k[i + 1] = a;
        if (hp) {
            uint t = p[i];
            p[i] = p[i + 1];
            p[i + 1] = t;
        }
        if (!flag[slot]) /* most swaps then only read the flag: fewer stores to one word */
            flag[slot] = 1u;
    }
}

/* ---- 2. transposition in local memory ("the assembly lane"): each
 * work-group first sorts its block of TB keys by odd-even transposition in
 * local memory (stopping when a round moves nothing); then the global
 * rounds are odd-even transposition over blocks, where a "compare-exchange"
 * of two neighbouring sorted blocks is a stable merge-split in local memory. */

__kernel void trl_block(__global uint *k, __global uint *p, uint n, uint hp)
{
    __local uint lk[TB], lp[TB];
    __local int moved;
    uint off = (uint)get_group_id(0) * TB, lid = (uint)get_local_id(0);
    uint cnt = min((uint)TB, n - off);
    for (uint i = lid; i < cnt; i += WG) {
        lk[i] = k[off + i];
        if (hp) lp[i] = p[off + i];
    }
    for (uint round = 0; round < cnt; round++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid == 0) moved = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint parity = 0; parity < 2; parity++) {
            uint i = 2 * lid + parity;
            if (i + 1 < cnt && lk[i] > lk[i + 1]) {
                uint t = lk[i]; lk[i] = lk[i + 1]; lk[i + 1] = t;
                if (hp) { t = lp[i]; lp[i] = lp[i + 1]; lp[i + 1] = t; }
                moved = 1;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (!moved)
            break;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < cnt; i += WG) {
        k[off + i] = lk[i];
        if (hp) p[off + i] = lp[i];
    }
}

/* Blocks 2j+parity and 2j+parity+1 (sorted) are merged in local memory and
 * written back: the smaller half to the left block. */
__kernel void trl_merge_split(__global uint *k, __global uint *p, uint n, uint parity, uint hp,
                              __global uint *flag, uint slot)
{
    __local uint lk[2 * TB], lp[2 * TB], ok[2 * TB], op[2 * TB];
    uint lid = (uint)get_local_id(0);
    ulong off64 = ((ulong)2 * get_group_id(0) + parity) * TB;
    if (off64 + TB >= n)
        return; /* no right block: the whole group leaves */
    uint off = (uint)off64;
    uint lb = min((uint)TB, n - off - TB), cnt = TB + lb;
    if (k[off + TB - 1] <= k[off + TB])
        return; /* already in order: nothing moves */
    for (uint i = lid; i < cnt; i += WG) {
        lk[i] = k[off + i];
        if (hp) lp[i] = p[off + i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < cnt; i += WG) {
        uint x = lk[i], pos;
        if (i < TB) {
#if SN_SORT_BUG & 2
            pos = i + lower_l(lk + TB, lb - 1, x); /* planted: ignores the last key */
#else
            pos = i + lower_l(lk + TB, lb, x);
#endif
        } else {
            pos = (i - TB) + upper_l(lk, TB, x);
        }
        ok[pos] = x;
        if (hp) op[pos] = lp[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < cnt; i += WG) {
        k[off + i] = ok[i];
        if (hp) p[off + i] = op[i];
    }
    if (lid == 0)
        flag[slot] = 1u;
}

/* ---- 3. rank sort: key i goes to the number of keys that precede it
 * (smaller, or equal with a smaller index): a stable permutation. */

__kernel void rank_global(__global const uint *k, __global const uint *p, __global uint *ok,
                          __global uint *op, uint n, uint hp)
{
    uint i = (uint)get_global_id(0);
    if (i >= n)
        return;
    uint x = k[i], c = 0;
#if SN_SORT_BUG & 4
    for (uint j = 1; j < n; j++) { /* planted: key 0 is never counted */
#else
    for (uint j = 0; j < n; j++) {
#endif
        uint y = k[j];
        c += (y < x) | ((y == x) & (j < i));
    }
    ok[c] = x;
    if (hp) op[c] = p[i];
}

/* The same, the keys read through local memory a tile of WG at a time. */
__kernel void rank_tiled(__global const uint *k, __global const uint *p, __global uint *ok,
                         __global uint *op, uint n, uint hp)
{
    __local uint tile[WG];
    uint i = (uint)get_global_id(0), lid = (uint)get_local_id(0);
    uint x = i < n ? k[i] : 0u, c = 0;
    for (uint base = 0; base < n; base += WG) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (base + lid < n)
            tile[lid] = k[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        uint len = min((uint)WG, n - base);
#if SN_SORT_BUG & 4
        uint j0 = base == 0 ? 1 : 0; /* planted: key 0 is never counted */
#else
        uint j0 = 0;
#endif
        for (uint j = j0; j < len; j++) {
            uint y = tile[j];
            c += (y < x) | ((y == x) & (base + j < i));
        }
    }
    if (i < n) {
        ok[c] = x;
        if (hp) op[c] = p[i];
    }
}

/* ---- 4. merge sort, first step: each work-group sorts a tile of MT keys.
 * Every work-item sorts its MERGE_E keys in registers (odd-even
 * transposition that swaps only strictly greater neighbours: stable), then
 * log2(WG) rounds of merge path in local memory: in the round of runs of w,
 * work-item lid makes outputs [lid*E, lid*E + E) of its pair's merge,
 * starting where a co-rank search along its diagonal says, so each key is
 * found by one search per work-item instead of one per key. Keys carry their
 * place in the tile and the payload is gathered by it at the end; the tile
 * is padded with the largest key at the largest places, which a stable sort
 * leaves last. Local arrays are indexed through LP. */
#define MTP (MT + MT / 32)
#define TILE_MTP (WG * TILE_E + WG * TILE_E / 32)

/* Merge path: of the first d outputs of the stable merge of runs
 * a = s[LP(a0)..) and b = s[LP(b0)..) of one local array, la and lb long
 * (a first on ties), how many come from a. ms_partition searches the same
 * way in global memory. */
inline uint corank_lp(__local const uint *s, uint a0, uint la, uint b0, uint lb, uint d)
{
    uint lo = d > lb ? d - lb : 0, hi = min(d, la);
    while (lo < hi) {
        uint m = (lo + hi + 1) >> 1;
        if (s[LP(a0 + m - 1)] <= s[LP(b0 + d - m)]) lo = m; else hi = m - 1;
    }
    return lo;
}

/* Merge E outputs of runs a = [a0, a0 + la) and b = [b0, b0 + lb) of (sk, si)
 * into registers, from a's ia-th and b's ib-th key on (ties from a); the
 * places si only with payload (hp). */
#define MERGE_INTO(x, xi, E, sk, si, a0, la, b0, lb, ia, ib)                                         \
    do {                                                                                       \
        uint av_ = ia < (la) ? sk[LP((a0) + ia)] : 0u, bv_ = ib < (lb) ? sk[LP((b0) + ib)] : 0u; \
        _Pragma("unroll") for (uint e_ = 0; e_ < E_MAX; e_++) {                            \
            if (e_ >= (E))                                                                     \
                break;                                                                         \
            bool ta_ = ib >= (lb) || (ia < (la) && av_ <= bv_);                                \
            if (ta_) {                                                                         \
                x[e_] = av_;                                                                   \
                if (hp) xi[e_] = si[LP((a0) + ia)];                                            \
                ia++;                                                                          \
                av_ = ia < (la) ? sk[LP((a0) + ia)] : 0u;                                      \
            } else {                                                                           \
                x[e_] = bv_;                                                                   \
                if (hp) xi[e_] = si[LP((b0) + ib)];                                            \
                ib++;                                                                          \
                bv_ = ib < (lb) ? sk[LP((b0) + ib)] : 0u;                                      \
            }                                                                                  \
        }                                                                                      \
    } while (0)

__attribute__((always_inline)) inline void ms_tile_body(__global const uint *k, __global const uint *p, __global uint *ok,
                         __global uint *op, uint n, const uint hp, __local uint *ak,
                         __local uint *ai, const uint E)
{
    /* loops run to E_MAX, a constant, and skip past E: so they unroll
     * before E is known (the body is inlined with E a constant) and the
     * arrays stay in registers */
    uint lid = (uint)get_local_id(0), off = (uint)get_group_id(0) * (E * WG);
    uint cnt = min(E * WG, n - off), q0 = lid * E;
    uint x[E_MAX], xi[E_MAX];
    /* all of a work-item's loads are issued before the first store, so
     * that they wait on global memory together */
#pragma unroll
    for (uint e = 0; e < E_MAX; e++) {
        uint i = e * WG + lid;
        if (e < E)
            x[e] = i < cnt ? k[off + i] : 0xFFFFFFFFu;
    }
#pragma unroll
    for (uint e = 0; e < E_MAX; e++) {
        if (e < E) {
            ak[LP(e * WG + lid)] = x[e];
            if (hp) ai[LP(e * WG + lid)] = e * WG + lid;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint e = 0; e < E_MAX; e++) {
        if (e < E) {
            x[e] = ak[LP(q0 + e)];
            xi[e] = q0 + e;
        }
    }
#pragma unroll
#if SN_SORT_BUG & 8
    for (uint r = 2; r < E_MAX; r++) { /* planted: two rounds short */
#else
    for (uint r = 0; r < E_MAX; r++) {
#endif
#pragma unroll
        for (uint e = r & 1; e + 1 < E_MAX; e += 2) {
            if (r < E && e + 1 < E && x[e] > x[e + 1]) {
                uint t = x[e]; x[e] = x[e + 1]; x[e + 1] = t;
                t = xi[e]; xi[e] = xi[e + 1]; xi[e + 1] = t;
            }
        }
    }
    /* runs of w in registers go to local memory; the last round (w = the
     * tile) only stores the sorted tile */
    for (uint w = E;; w <<= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (uint e = 0; e < E_MAX; e++) {
            if (e < E) {
                ak[LP(q0 + e)] = x[e];
                if (hp) ai[LP(q0 + e)] = xi[e];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (w == E * WG)
            break;
        uint base = q0 & ~(2 * w - 1), d = q0 - base;
        uint ia = corank_lp(ak, base, w, base + w, w, d), ib = d - ia;
        MERGE_INTO(x, xi, E, ak, ai, base, w, base + w, w, ia, ib);
    }
    for (uint i = lid; i < cnt; i += WG) {
        ok[off + i] = ak[LP(i)];
        if (hp) op[off + i] = p[off + ai[LP(i)]];
    }
}

/* Each sort's tile kernels come twice: keys only (hp a constant 0, so the
 * places' registers and code go away and more work-groups fit a compute
 * unit) and with payload (_kv). The host picks one by the run; both take
 * the same arguments (hp, and the places' local array: a word when there
 * is no payload). */
__kernel void ms_tile(__global const uint *k, __global const uint *p, __global uint *ok,
                      __global uint *op, uint n, uint hp, __local uint *ai)
{
    __local uint ak[TILE_MTP];
    ms_tile_body(k, p, ok, op, n, 0u, ak, ai, TILE_E);
}

__kernel void ms_tile_kv(__global const uint *k, __global const uint *p, __global uint *ok,
                         __global uint *op, uint n, uint hp, __local uint *ai /* MTP words */)
{
    __local uint ak[MTP];
    ms_tile_body(k, p, ok, op, n, 1u, ak, ai, MERGE_E);
}

/* Merge path: runs of w (sorted) are merged in pairs; output chunk c is
 * [c*MT, c*MT + MT) of its pair (MT divides 2w). ms_partition finds, for
 * every chunk at once, how many of its pair's first run come before the
 * chunk (a co-rank along the chunk's diagonal), so no work-group of
 * ms_merge waits on a search in global memory. By default (PG = 1) one
 * work-item does a binary search. With PG > 1 (a tuning knob) the search
 * is PG-ary: each round the chunk's PG work-items probe PG evenly spaced
 * points of the range (the test holds on a prefix of them) and keep the
 * piece after the last that holds, so it takes log_PG(w) reads in a row,
 * not log2(w); the kernel is all latency, but PG = 32 costs bandwidth
 * instead (docs/gpu-sorts.md). */
#ifndef PG
#define PG 1 /* work-items a chunk (the host sets it) */
#endif
__kernel void ms_partition(__global const uint *k, __global uint *bounds, uint n, uint w,
                           uint chunks)
{
#if PG == 1
    uint c = (uint)get_global_id(0);
    if (c >= chunks)
        return;
#else
    __local uint cut[WG / PG];
    uint lid = (uint)get_local_id(0), j = lid % PG, g = lid / PG;
    uint c = (uint)get_group_id(0) * (WG / PG) + g;
#endif
    bool live = c < chunks;
    uint out0 = live ? c * MT : 0, base = out0 & ~(2 * w - 1);
    uint la = min(w, n - base);
    uint lb = n - base > w ? min(w, n - base - w) : 0;
    uint d = out0 - base, lo = d > lb ? d - lb : 0, hi = min(d, la);
    __global const uint *a = k + base, *b = k + base + la;
#if PG == 1
    while (lo < hi) { /* as in corank_lp */
        uint m = (lo + hi + 1) >> 1;
        if (a[m - 1] <= b[d - m]) lo = m; else hi = m - 1;
    }
    bounds[c] = lo;
#else
    /* every range is at most w wide and shrinks alike: one round count for all */
    for (uint bound = w; bound > 0; bound = (bound + PG) / PG - 1) {
        uint step = (hi - lo + PG) / PG, m = lo + (j + 1) * step;
        if (j == 0)
            cut[g] = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (live && m <= hi && a[m - 1] <= b[d - m]) /* as in corank_lp */
            atomic_max(&cut[g], j + 1);
        barrier(CLK_LOCAL_MEM_FENCE);
        uint held = cut[g];
        hi = min(hi, lo + (held + 1) * step - 1);
        lo += held * step;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (live && j == 0)
        bounds[c] = lo;
#endif
}

/* Work-group c loads the slices of both runs its chunk needs (from the
 * partition) into local memory; each work-item finds its own MERGE_E
 * outputs' start by a co-rank search in local memory and merges them into
 * registers (with their place in the slice, for the payload), then writes
 * them out (MS_DIRECT), or sends the chunk back through local memory so
 * that the writes are coalesced. */
__attribute__((always_inline)) inline void ms_merge_body(__global const uint *k, __global const uint *p, __global uint *ok,
                          __global uint *op, uint n, uint w, const uint hp,
                          __global const uint *bounds, __local uint *sk, __local uint *si)
{
    uint lid = (uint)get_local_id(0), c = (uint)get_group_id(0);
    uint out0 = c * MT;
    uint base = out0 & ~(2 * w - 1);
    uint la = min(w, n - base);
    uint lb = n - base > w ? min(w, n - base - w) : 0;
    uint d0 = out0 - base, d1 = min(d0 + MT, la + lb);
    /* the next chunk starts where this one ends, unless this one ends its pair */
    uint a0 = bounds[c], a1 = d1 == la + lb ? la : bounds[c + 1];
    uint b0 = d0 - a0, b1 = d1 - a1;
    uint na = a1 - a0, nb = b1 - b0;
    /* place i of the slice (a's part, then b's) in the input */
#define SLICE(i) ((i) < na ? base + a0 + (i) : base + la + b0 + ((i) - na))
    uint t0 = lid * MERGE_E, x[MERGE_E], xi[MERGE_E];
    /* loads first, then stores (as in ms_tile); na + nb <= MT */
#pragma unroll
    for (uint e = 0; e < MERGE_E; e++) {
        uint i = e * WG + lid;
        x[e] = i < na + nb ? k[SLICE(i)] : 0u;
    }
#pragma unroll
    for (uint e = 0; e < MERGE_E; e++) {
        uint i = e * WG + lid;
        if (i < na + nb) {
            sk[LP(i)] = x[e];
            if (hp) si[LP(i)] = i;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t0 < na + nb) {
        uint ia = corank_lp(sk, 0, na, na, nb, t0), ib = t0 - ia;
        MERGE_INTO(x, xi, MERGE_E, sk, si, 0, na, na, nb, ia, ib);
    }
#if MS_DIRECT
    /* each work-item's outputs straight from its registers, a 16-byte
     * store at a time where whole (out0 + t0 is a multiple of MERGE_E) */
#if MERGE_E % 4 == 0
    if (t0 + MERGE_E <= na + nb && !hp) {
        __global uint4 *o4 = (__global uint4 *)(ok + out0 + t0);
#pragma unroll
        for (uint e = 0; e < MERGE_E; e += 4)
            o4[e / 4] = (uint4)(x[e], x[e + 1], x[e + 2], x[e + 3]);
        return;
    }
#endif
#pragma unroll
    for (uint e = 0; e < MERGE_E; e++) {
        if (t0 + e < na + nb) {
            ok[out0 + t0 + e] = x[e];
            if (hp)
                op[out0 + t0 + e] = p[SLICE(xi[e])];
        }
    }
    return;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint e = 0; e < MERGE_E; e++) {
        if (t0 + e < na + nb) {
            sk[LP(t0 + e)] = x[e];
            if (hp) si[LP(t0 + e)] = xi[e];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < na + nb; i += WG) {
        ok[out0 + i] = sk[LP(i)];
        if (hp) {
            uint j = si[LP(i)];
            op[out0 + i] = p[SLICE(j)];
        }
    }
#undef SLICE
}

__kernel void ms_merge(__global const uint *k, __global const uint *p, __global uint *ok,
                       __global uint *op, uint n, uint w, uint hp, __global const uint *bounds,
                       __local uint *si)
{
    __local uint sk[MTP];
    ms_merge_body(k, p, ok, op, n, w, 0u, bounds, sk, si);
}

__kernel void ms_merge_kv(__global const uint *k, __global const uint *p, __global uint *ok,
                          __global uint *op, uint n, uint w, uint hp, __global const uint *bounds,
                          __local uint *si /* MTP words */)
{
    __local uint sk[MTP];
    ms_merge_body(k, p, ok, op, n, w, 1u, bounds, sk, si);
}

/* ---- 5. LSD radix sort, one pass per digit of `bits` bits at `shift`:
 * rx_count: every tile's digit histogram, stored digit-major
 * (counts[d * tiles + t]) so that one exclusive scan of the whole array
 * gives each (digit, tile) its first output position; rx_scatter: the tile
 * sorted by digit in local memory (stable splits by 2 bits), then each key
 * written to its digit's place: neighbouring work-items write neighbouring
 * addresses, because the sort grouped equal digits together. */

__kernel void rx_count(__global const uint *k, uint n, uint shift, uint bits,
                       __global uint *counts, uint tiles)
{
    __local uint h[256];
    uint lid = (uint)get_local_id(0), t = (uint)get_group_id(0), nd = 1u << bits;
    uint mask = nd - 1, off = t * RT, cnt = min((uint)RT, n - off);
#if SN_NV
    /* every load in flight at once (on pocl the plain loop is faster) */
    uint x[RADIX_E];
#pragma unroll
    for (uint e = 0; e < RADIX_E; e++)
        x[e] = e * WG + lid < cnt ? k[off + e * WG + lid] : 0u;
#endif
    for (uint d = lid; d < nd; d += WG)
        h[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#if SN_NV
#pragma unroll
    for (uint e = 0; e < RADIX_E; e++)
        if (e * WG + lid < cnt)
            atomic_inc(&h[(x[e] >> shift) & mask]);
#else
    for (uint i = lid; i < cnt; i += WG)
        atomic_inc(&h[(k[off + i] >> shift) & mask]);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < nd; d += WG)
        counts[d * tiles + t] = h[d];
}

/* Exclusive scan of v[0..WG) in local memory (Hillis-Steele in place over
 * a second buffer); returns the total. Every work-item must call it. */
inline uint scan_wg(__local uint *v, __local uint *tmp, uint lid)
{
    uint x = v[lid];
    tmp[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG; d <<= 1) {
        uint y = lid >= d ? tmp[lid - d] : 0u;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += y;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint total = tmp[WG - 1];
    v[lid] = tmp[lid] - x;
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

/* The same for four 16-bit counters packed in a ulong (no lane overflows:
 * a tile holds at most RT < 2^16 keys). */
inline ulong scan_wg4(__local ulong *v, __local ulong *tmp, uint lid)
{
    ulong x = v[lid];
    tmp[lid] = x;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = 1; d < WG; d <<= 1) {
        ulong y = lid >= d ? tmp[lid - d] : 0ul;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += y;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    ulong total = tmp[WG - 1];
    v[lid] = tmp[lid] - x;
    barrier(CLK_LOCAL_MEM_FENCE);
    return total;
}

#if SN_NV
/* NVIDIA GPUs of compute capability 7.0 and later (the host defines SN_NV
 * only there): warp primitives through inline PTX, which NVIDIA's OpenCL
 * compiler accepts. Other devices take the portable split sort. */
#define NW (WG / 32) /* warps in a work-group */
/* __syncwarp: the warp's lanes meet, and see each other's local memory */
inline void nv_syncwarp(void)
{
    asm volatile("bar.warp.sync 0xffffffff;" ::: "memory");
}

inline uint nv_shfl(uint v, uint lane)
{
    uint r;
    asm volatile("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(lane));
    return r;
}

inline uint nv_shfl_up(uint v, uint delta)
{
    uint r;
    asm volatile("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
    return r;
}

/* Exclusive scan of one value a work-item over the work-group: within
 * each warp by shuffles, then over the warps' totals (wt: NW words). */
inline uint nv_scan(uint v, __local uint *wt, uint lid)
{
    uint lane = lid & 31, w = lid >> 5, s = v, before = 0;
    for (uint d = 1; d < 32; d <<= 1) {
        uint y = nv_shfl_up(s, d);
        if (lane >= d)
            s += y;
    }
    if (lane == 31)
        wt[w] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = 0; i < w; i++)
        before += wt[i];
    return before + s - v;
}

/* A digit's row of NW warp counters, one word longer, so that the
 * work-items reading their digits' rows (below) hit distinct banks. */
#define WCP (NW + 1)

/* Sort the tile by digit into (tk, ti) (key, place in the tile) in one
 * sweep, and turn dst0[d] (where digit d's keys of this tile go) into
 * where the tile's key at place q of digit d goes, less q. Warp w's lanes
 * take the warp-striped places w*32*E + e*32 + lane, so (e, lane) runs in
 * the tiles' order and the loads are coalesced. For each e, the lanes
 * holding the same digit find each other by an atomic or of their bits
 * into the warp's word for that digit (256 words a warp, in tk, which is
 * not used until the tile is placed), read back after the warp meets;
 * the lowest of them adds their number to the warp's counter of that
 * digit, getting the count before them, and a shuffle hands it to the
 * others: a key's rank among the warp's keys of its digit is that count
 * plus its lanes of the same digit below it. The lowest then clears the
 * word for the next e. (PTX match.any, the instruction made for finding
 * the lanes, took 1.7 times as long on the H200.) Work-item d then owns
 * digit d's row of counters: the digits' totals are scanned over the
 * work-group and each (digit, warp) gets its first place. Needs WG >= nd
 * and a tile of at least NW * 256 words. */
#if RTP < NW * 256
#error "the NVIDIA ranking keeps 256 words a warp in the tile: RADIX_E must be 8 or more"
#endif
/* Returns, to work-item d < nd, the tile's count of digit d (what the
 * onesweep scatter publishes, kernels/onesweep.cl); with pub, it also
 * stores it, or'ed with pubflag, to pub[d] as soon as it is known (the
 * onesweep scatter's early publication; the classic scatter passes 0). */
__attribute__((always_inline)) inline uint rank_nv(__global const uint *k, uint off, uint cnt, uint shift, uint mask, uint nd,
                    __local uint *tk, __local uint *ti, uint hp, __local uint *dst0, __local uint *wc,
                    __local uint *wt, uint lid, __global uint *pub, uint pubflag)
{
    uint lane = lid & 31, w = lid >> 5, x[RADIX_E], rank[RADIX_E];
#pragma unroll
    for (uint e = 0; e < RADIX_E; e++) {
        uint q = w * 32 * RADIX_E + e * 32 + lane;
        x[e] = q < cnt ? k[off + q] : 0xFFFFFFFFu;
    }
    for (uint i = lid; i < nd * WCP; i += WG)
        wc[i] = 0;
    for (uint i = lid; i < NW * 256; i += WG)
        tk[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint e = 0; e < RADIX_E; e++) {
        uint d = (x[e] >> shift) & mask;
        __local uint *bin = tk + w * 256 + d;
        atomic_or(bin, 1u << lane);
        nv_syncwarp();
        uint m = *bin, leader = popcount((m & (0u - m)) - 1u), old = 0;
        if (lane == leader)
            old = atomic_add(&wc[d * WCP + w], popcount(m));
        old = nv_shfl(old, leader);
        if (lane == leader)
            *bin = 0;
        nv_syncwarp();
#if SN_SORT_BUG & 16
        rank[e] = old; /* planted: lanes of one digit share a rank */
#else
        rank[e] = old + popcount(m & ((1u << lane) - 1u));
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint row[NW], tot = 0;
#pragma unroll
    for (uint v = 0; v < NW; v++) {
        row[v] = lid < nd ? wc[lid * WCP + v] : 0u;
        tot += row[v];
    }
    uint own = tot - (lid == mask ? (uint)RT - cnt : 0u); /* the padding has the last digit */
    if (pub && lid < nd)
        atomic_xchg(&pub[lid], pubflag | own);
    uint first = nv_scan(tot, wt, lid); /* digit lid's first place in the sorted tile */
    if (lid < nd) {
        dst0[lid] -= first;
#pragma unroll
        for (uint v = 0; v < NW; v++) {
            wc[lid * WCP + v] = first;
            first += row[v];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint e = 0; e < RADIX_E; e++) {
        uint d = (x[e] >> shift) & mask, pos = wc[d * WCP + w] + rank[e];
        tk[LP(pos)] = x[e];
        if (hp) ti[LP(pos)] = w * 32 * RADIX_E + e * 32 + lane;
    }
    return own;
}
#endif

/* The local arrays of a radix tile: the keys (sk: one tile for the
 * NVIDIA ranking, two for the split sort's ping-pong), and each way's own. */
#if SN_NV
#if WG != 256
#error "the NVIDIA ranking needs work-groups of 256 (a digit a work-item)"
#endif
#define RX_PARAMS __local uint *sk, __local uint *wc, __local uint *wt
#define RX_LOCALS __local uint sk[RTP], wc[256 * WCP], wt[NW]
#define RX_ARGS sk, wc, wt
#else
#define RX_PARAMS __local uint *sk, __local ulong *cs, __local ulong *ctmp
#define RX_LOCALS                                                                                  \
    __local uint sk[2 * RTP];                                                                      \
    __local ulong cs[WG], ctmp[WG]
#define RX_ARGS sk, cs, ctmp
#endif

#if !SN_NV
/* The portable ranking: the tile (keys from off, cnt of them) loaded into
 * sk and sorted by digit there by stable splits of 2 bits of the digit at a
 * time (one work-group scan of four packed counters each; work-item lid
 * owns positions [lid*RADIX_E, +RADIX_E), distinct banks through LP), with
 * the places in the tile in si when hp; then dst0[d] less where digit d's
 * run starts in the sorted tile. Returns which of the two tiles of sk (and
 * si) holds the result. */
__attribute__((always_inline)) inline uint split_rank(__global const uint *k, uint off, uint cnt, uint shift, uint mask, uint bits,
                       __local uint *sk, __local uint *si, uint hp, __local uint *dst0,
                       __local ulong *cs, __local ulong *ctmp, uint lid)
{
    uint s = 0;
    /* padding past n gets the largest key: a stable sort leaves it last */
    for (uint i = lid; i < RT; i += WG) {
        sk[LP(i)] = i < cnt ? k[off + i] : 0xFFFFFFFFu;
        if (hp) si[LP(i)] = i;
    }
#if SN_SORT_BUG & 16
    for (uint b = 2; b < bits; b += 2, s ^= 1) { /* planted: the digit's low bits are not sorted */
#else
    for (uint b = 0; b < bits; b += 2, s ^= 1) {
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
        uint q0 = lid * RADIX_E, x[RADIX_E], xi[RADIX_E];
        ulong c = 0;
        for (uint e = 0; e < RADIX_E; e++) {
            x[e] = sk[(s) * RTP + LP(q0 + e)];
            if (hp) xi[e] = si[s * RTP + LP(q0 + e)];
            c += 1ul << (16 * ((x[e] >> (shift + b)) & 3u));
        }
        cs[lid] = c;
        ulong tot = scan_wg4(cs, ctmp, lid), pre = cs[lid];
        uint t0 = (uint)(tot & 0xFFFFu), t1 = (uint)((tot >> 16) & 0xFFFFu);
        uint t2 = (uint)((tot >> 32) & 0xFFFFu);
        for (uint e = 0; e < RADIX_E; e++) {
            uint v = (x[e] >> (shift + b)) & 3u;
            uint base = (v > 0 ? t0 : 0u) + (v > 1 ? t1 : 0u) + (v > 2 ? t2 : 0u);
            uint dst = base + (uint)((pre >> (16 * v)) & 0xFFFFu);
            pre += 1ul << (16 * v);
            sk[(s ^ 1) * RTP + LP(dst)] = x[e];
            if (hp) si[(s ^ 1) * RTP + LP(dst)] = xi[e];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* the sorted tile: where each digit's run starts (the key before has
     * another digit), so that a key's place is its digit's place plus its
     * distance from the run's start */
    for (uint q = lid; q < cnt; q += WG) {
        uint d = (sk[(s) * RTP + LP(q)] >> shift) & mask;
        if (q == 0 || ((sk[(s) * RTP + LP(q - 1)] >> shift) & mask) != d)
            dst0[d] -= q;
    }
    return s;
}
#endif

/* Write the sorted tile (keys tk, places ti) to its digits' places: the
 * key at q of digit d goes to dst0[d] + q, so neighbouring work-items write
 * neighbouring addresses; the payload is gathered from the tile's place. */
__attribute__((always_inline)) inline void rx_place(__global const uint *p, __global uint *ok, __global uint *op, uint n, uint shift,
                     uint mask, uint off, uint cnt, uint hp, __local const uint *tk,
                     __local const uint *ti, __local const uint *dst0, uint lid)
{
    for (uint q = lid; q < cnt; q += WG) {
        uint x = tk[LP(q)], dst = dst0[(x >> shift) & mask] + q;
        if (dst >= n) /* only if the tile was not sorted by digit (a bug) */
            continue;
        ok[dst] = x;
        if (hp) op[dst] = p[off + ti[LP(q)]];
    }
}

/* offs: the scan of the counts, less each block's scanned sum when the
 * host left adding it to this kernel (fold: bsum[i / (4 WG)] is added to
 * offs[i], as scan_add would; it saves a pass over the counts). */
__attribute__((always_inline)) inline void rx_scatter_body(__global const uint *k, __global const uint *p, __global uint *ok,
                            __global uint *op, uint n, uint shift, uint bits,
                            __global const uint *offs, uint tiles, const uint hp,
                            __global const uint *bsum, uint fold,
                            __local uint *si, __local uint *dst0, RX_PARAMS)
{
    uint lid = (uint)get_local_id(0), t = (uint)get_group_id(0), nd = 1u << bits;
    uint mask = nd - 1, off = t * RT, cnt = min((uint)RT, n - off);
    /* where each digit of this tile goes: its place in the digit-major scan */
    for (uint d = lid; d < nd; d += WG) {
        uint i = d * tiles + t;
        dst0[d] = offs[i] + (fold ? bsum[i / (4 * WG)] : 0u);
    }
    uint s = 0; /* which of the split sort's two tiles holds the keys */
#if SN_NV
    rank_nv(k, off, cnt, shift, mask, nd, sk, si, hp, dst0, wc, wt, lid, (__global uint *)0, 0u);
#else
    s = split_rank(k, off, cnt, shift, mask, bits, sk, si, hp, dst0, cs, ctmp, lid);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    rx_place(p, ok, op, n, shift, mask, off, cnt, hp, sk + s * RTP, si + s * RTP, dst0, lid);
}

__kernel void rx_scatter(__global const uint *k, __global const uint *p, __global uint *ok,
                         __global uint *op, uint n, uint shift, uint bits,
                         __global const uint *offs, uint tiles, uint hp, __local uint *si,
                         __global const uint *bsum, uint fold)
{
    RX_LOCALS;
    __local uint dst0[256];
    rx_scatter_body(k, p, ok, op, n, shift, bits, offs, tiles, 0u, bsum, fold, si, dst0, RX_ARGS);
}

/* si: RTP words for the NVIDIA ranking, 2 RTP for the split sort */
__kernel void rx_scatter_kv(__global const uint *k, __global const uint *p, __global uint *ok,
                            __global uint *op, uint n, uint shift, uint bits,
                            __global const uint *offs, uint tiles, uint hp, __local uint *si,
                            __global const uint *bsum, uint fold)
{
    RX_LOCALS;
    __local uint dst0[256];
    rx_scatter_body(k, p, ok, op, n, shift, bits, offs, tiles, 1u, bsum, fold, si, dst0, RX_ARGS);
}

/* Exclusive scan of v[0..len) into out, a block of 4*WG per work-group;
 * each block's total goes to sums[group] (scanned and added by the host's
 * recursion with scan_add). */
__kernel void scan_block(__global const uint *v, __global uint *out, uint len,
                         __global uint *sums)
{
    __local uint part[WG], tmp[WG];
    uint lid = (uint)get_local_id(0), base = (uint)get_group_id(0) * 4 * WG + lid * 4;
    uint x[4], s = 0;
    for (uint e = 0; e < 4; e++) {
        x[e] = base + e < len ? v[base + e] : 0u;
        s += x[e];
    }
    part[lid] = s;
    uint total = scan_wg(part, tmp, lid);
    uint run = part[lid];
    for (uint e = 0; e < 4; e++) {
        if (base + e < len)
            out[base + e] = run;
        run += x[e];
    }
    if (lid == 0)
        sums[get_group_id(0)] = total;
}

__kernel void scan_add(__global uint *out, uint len, __global const uint *sums)
{
    uint i = (uint)get_global_id(0);
    if (i < len)
        out[i] += sums[i / (4 * WG)];
}

/* ---- 6. hybrid, first step: each work-group sorts a tile of HT keys in
 * local memory with the bitonic network (the flip-free form the fused
 * passes run: the first layer of each merge compares i with its mirror,
 * the others i with i + j), comparing (key, index) so the network is
 * stable; the payload is gathered by the index at the end. Then merge path
 * (ms_merge) from runs of HT. */

__kernel void hy_tile(__global const uint *k, __global const uint *p, __global uint *ok,
                      __global uint *op, uint n, uint hp)
{
    __local uint lk[HT], li[HT];
    uint lid = (uint)get_local_id(0), off = (uint)get_group_id(0) * HT;
    uint cnt = min((uint)HT, n - off);
    for (uint i = lid; i < HT; i += WG) {
        lk[i] = i < cnt ? k[off + i] : 0xFFFFFFFFu;
        li[i] = i; /* padding has the largest indices: it sorts last */
    }
    for (uint size = 2; size <= HT; size <<= 1) {
        for (uint h = size >> 1; h > 0; h >>= 1) {
#if SN_SORT_BUG & 32
            if (h == 1 && size > 2) /* planted: each merge's last layer is left out */
                break;
#endif
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint t = lid; t < HT / 2; t += WG) {
                uint i = ((t & ~(h - 1)) << 1) | (t & (h - 1));
                uint j = h == (size >> 1) ? i ^ (size - 1) : i + h;
                uint x = lk[i], y = lk[j], xi = li[i], yi = li[j];
                if (x > y || (x == y && xi > yi)) {
                    lk[i] = y; lk[j] = x;
                    li[i] = yi; li[j] = xi;
                }
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < cnt; i += WG) {
        ok[off + i] = lk[i];
        if (hp) op[off + i] = p[off + li[i]];
    }
}
