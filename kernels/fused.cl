/* fused.cl - fused passes: many layers of a bitonic or odd-even merge sort
 * per launch, on a tile of 2^t elements held in local memory.
 *
 * A pass is described by the host (src/gpu/fused.c) in a word array:
 *  - the tile: a set B of t global bit positions. Work-group g takes every
 *    index x whose bits outside B spell g; local index j (t bits) is x's
 *    bits on B. A bitonic "mirror" layer (partner x ^ (2^(a+1) - 1)) flips
 *    bits outside B too; so where bit a of x is set, the bits outside B
 *    below a are complemented (amask). The tile is then closed under every
 *    layer of the pass, and in local coordinates a layer is again a
 *    cleaner (j ^ 2^u), a mirror (j ^ (2^(u+1) - 1)) or an odd-even carry
 *    layer (j + 2^u inside blocks of 2^w).
 *  - rounds: GPU work-items hold E = 2^E_BITS elements in registers
 *    (E_BITS 4 or 5, a build option), spelled by E_BITS local bits R
 *    (the rest of j from the work-item id, complemented below a mirror in
 *    the same way); the layers whose bits lie in R run there without
 *    barriers. Carry layers run straight in local memory.
 * Speed: on an H200 a pass is bound by instructions per element (an
 * L2-resident 2^22 runs at the same rate per element as 2^24 from DRAM),
 * so the host precomputes what it can (padded local offsets, the tile's
 * global bits) and the no-mirror cases skip the complement.
 * Exactness: every comparator is the reference's (min on the lower global
 * index, swap only when strictly greater on ordered keys). Wires >= n hold
 * the largest ordered key 0xffffffff: a comparator (a, b) with b >= n never
 * swaps, so those wires never move and are never written back - exactly
 * the schedule's rule of dropping comparators that touch a wire >= n. */

#ifndef E_BITS
#define E_BITS 4
#endif
#define E (1u << E_BITS)
#define SENTINEL 0xffffffffu

/* header words of a pass */
#define H_T 0
#define H_BMASK 1
#define H_AMASK 2
#define H_ABIT 3
#define H_NRUNS 4
#define H_RUNS 5 /* 8 runs of (jshift, len, gshift) */
#define H_NFLAT 29
#define H_FLAT 30
#define H_NROUNDS 31
#define H_ROUNDS 32
#define H_TAB 33 /* 32 words: global bits of local index i << (t - E_BITS) */
/* register round: kind 0, cr, cmask, 5 R bits (unused ones 0), nwr, 6
 * runs of (shift, len, pos) spreading the work-item id over the bits
 * outside R, 2 x E words of R parts, nl, codes */
#define R_NWR 8
#define R_MAX_RUNS 6
#define R_RUNS 9
#define R_TABR 27       /* E words: global bits of each register's R part */
#define R_TABL (27 + E) /* E words: padded local offset of each register's R part */
#define R_NL (27 + 2 * E)
#define R_CODES (28 + 2 * E)
#define H_FIRST_DIRECT 65
#define H_LAST_DIRECT 66

#ifndef HP
#define HP 1
#endif
#ifndef KT
#define KT 1
#endif

/* to_ordered / from_ordered come from keys.cl, built in front of this file. */

/* local memory index with one pad word per 32 (fewer bank conflicts) */
inline uint lpad(uint l)
{
    return l + (l >> 5);
}

/* global index of local index j in the tile whose outside bits are base */
inline uint global_index(__global const uint *d, uint j, uint base)
{
    uint x = base;
    uint nr = d[H_NRUNS];
    for (uint r = 0; r < nr; r++) {
        uint js = d[H_RUNS + 3 * r], len = d[H_RUNS + 3 * r + 1], gs = d[H_RUNS + 3 * r + 2];
        x |= ((j >> js) & ((1u << len) - 1u)) << gs;
    }
    uint ab = d[H_ABIT];
    if (ab < 32 && ((x >> ab) & 1u))
        x ^= d[H_AMASK];
    return x;
}

/* global index xw | tb, complemented below the tile's mirror where bit ab
 * is set; c is a literal at every call, so the no-mirror case costs
 * nothing (the kernels are bound by instructions per element) */
inline uint gidx(uint xw, uint tb, uint ab, uint am, bool c)
{
    uint x = xw | tb;
    if (c)
        x ^= ((x >> ab) & 1u) ? am : 0u;
    return x;
}

/* spread the bits of v over the zero bits of mask, lowest first */
inline uint deposit_outside(uint v, uint mask)
{
    uint x = 0;
    for (uint b = 0; v != 0 && b < 32; b++)
        if (!((mask >> b) & 1u)) {
            x |= (v & 1u) << b;
            v >>= 1;
        }
    return x;
}

/* One layer in local memory (codes of fused.c: kind << 24 | u << 8 | w):
 * kind 0 cleaner (j, j | 2^u), 1 mirror (j, j ^ (2^(u+1) - 1)), 2 carry
 * (j, j + 2^u) for j with bit u set, both in one block of 2^w. */
inline void local_layer(__local uint *lk, __local uint *lp, uint hp, uint T, uint W, uint w,
                        uint code, uint padded)
{
    uint kind = code >> 24, u = (code >> 8) & 0xffu, wb = code & 0xffu;
    uint bit = 1u << u;
    for (uint m = w; m < T / 2; m += W) {
        uint j = ((m >> u) << (u + 1)) | (m & (bit - 1u));
        uint a, b;
        if (kind == 0) {
            a = j;
            b = j | bit;
        } else if (kind == 1) {
            a = j;
            b = j ^ ((bit << 1) - 1u);
        } else {
            a = j | bit;
            b = a + bit;
            if ((a >> wb) != (b >> wb))
                continue;
        }
        uint ia = padded ? lpad(a) : a, ib = padded ? lpad(b) : b;
        uint x = lk[ia], y = lk[ib];
        if (x > y) {
            lk[ia] = y;
            lk[ib] = x;
            if (hp) {
                uint z = lp[ia];
                lp[ia] = lp[ib];
                lp[ib] = z;
            }
        }
    }
}

#if !HP
/* without payload a comparator is min and max: no branch */
#define CX(i, k)                                                                                   \
    {                                                                                              \
        uint x_ = rk[i], y_ = rk[k];                                                               \
        rk[i] = min(x_, y_);                                                                       \
        rk[k] = max(x_, y_);                                                                       \
    }
#else
#define CX(i, k)                                                                                   \
    {                                                                                              \
        uint x_ = rk[i], y_ = rk[k];                                                               \
        if (x_ > y_) {                                                                             \
            rk[i] = y_;                                                                            \
            rk[k] = x_;                                                                            \
            CXP(i, k)                                                                              \
        }                                                                                          \
    }
#endif
#if HP
#define CXP(i, k)                                                                                  \
    {                                                                                              \
        uint z_ = rp[i];                                                                           \
        rp[i] = rp[k];                                                                             \
        rp[k] = z_;                                                                                \
    }
#else
#define CXP(i, k)
#endif

/* unrolled by hand: register arrays must only see constant indices */
#define CXC(i, b)                                                                                  \
    if (!((i) & (1u << (b))))                                                                      \
    CX(i, (i) | (1u << (b)))
#define CXM(i, b)                                                                                  \
    if (!((i) & (1u << (b))))                                                                      \
    CX(i, (i) ^ ((2u << (b)) - 1u))
#define ALL16(M, b, o)                                                                             \
    M(o + 0, b)                                                                                    \
    M(o + 1, b)                                                                                    \
    M(o + 2, b)                                                                                    \
    M(o + 3, b)                                                                                    \
    M(o + 4, b) M(o + 5, b) M(o + 6, b) M(o + 7, b) M(o + 8, b) M(o + 9, b) M(o + 10, b)           \
        M(o + 11, b) M(o + 12, b) M(o + 13, b) M(o + 14, b) M(o + 15, b)
#if E_BITS == 5
#define ALLE(M, b) ALL16(M, b, 0u) ALL16(M, b, 16u)
#else
#define ALLE(M, b) ALL16(M, b, 0u)
#endif
#define CLEAN(b) ALLE(CXC, b)
#define MIRROR(b) ALLE(CXM, b)

#ifndef SN_CODEGEN /* generated programs (src/gpu/fused_cg.c) need only the helpers above */
/* One pass on the GPU: 2^t / E work-items per group, E elements each.
 * Built once per payload flag and key type (-DHP, -DKT), so neither costs
 * a branch; the descriptor is read through the constant cache. */
__kernel void sn_fused_pass(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                            __constant uint *desc, uint off, __local uint *lk, __local uint *lp)
{
    __constant uint *d = desc + off;
    uint t = d[H_T];
    uint W = (uint)get_local_size(0);
    uint w = (uint)get_local_id(0);
    (void)kt;
    (void)hp;
    /* global index of local index w | i * W: base | xw | tab[i] */
    uint base = 0;
    {
        uint v = (uint)get_group_id(0), mask = d[H_BMASK];
        for (uint b = 0; v != 0 && b < 32; b++)
            if (!((mask >> b) & 1u)) {
                base |= (v & 1u) << b;
                v >>= 1;
            }
    }
    uint xw = base;
    uint nruns = d[H_NRUNS];
#pragma unroll
    for (uint r = 0; r < 8; r++)
        if (r < nruns)
            xw |= ((w >> d[H_RUNS + 3 * r]) & ((1u << d[H_RUNS + 3 * r + 1]) - 1u))
                  << d[H_RUNS + 3 * r + 2];
    uint ab = d[H_ABIT], am = d[H_AMASK];
    if (ab > 31) {
        ab = 0;
        am = 0;
    }
    uint first_direct = d[H_FIRST_DIRECT], last_direct = d[H_LAST_DIRECT];
    if (!first_direct) {
        uint ktmp[E];
        if (am) {
#pragma unroll
            for (uint i = 0; i < E; i++) {
                uint x = gidx(xw, d[H_TAB + i], ab, am, true);
                ktmp[i] = x < n ? to_ordered(KT, keys[x]) : SENTINEL;
            }
        } else {
#pragma unroll
            for (uint i = 0; i < E; i++) {
                uint x = gidx(xw, d[H_TAB + i], ab, am, false);
                ktmp[i] = x < n ? to_ordered(KT, keys[x]) : SENTINEL;
            }
        }
#pragma unroll
        for (uint i = 0; i < E; i++)
            lk[lpad(w + i * W)] = ktmp[i];
#if HP
#pragma unroll
        for (uint i = 0; i < E; i++) {
            uint x = gidx(xw, d[H_TAB + i], ab, am, true);
            lp[lpad(w + i * W)] = x < n ? pay[x] : 0u;
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    uint nr = d[H_NROUNDS];
    __constant uint *r = d + d[H_ROUNDS];
    for (uint ri = 0; ri < nr; ri++) {
        if (r[0] == 1) {
            local_layer(lk, lp, HP, 1u << t, W, w, r[1], 1);
            barrier(CLK_LOCAL_MEM_FENCE);
            r += 2;
            continue;
        }
        uint cr = r[1], cmask = r[2];
        uint wpart = 0;
        uint nwr = r[R_NWR];
#pragma unroll
        for (uint k = 0; k < R_MAX_RUNS; k++)
            if (k < nwr)
                wpart |= ((w >> r[R_RUNS + 3 * k]) & ((1u << r[R_RUNS + 3 * k + 1]) - 1u))
                         << r[R_RUNS + 3 * k + 2];
        uint wc = wpart ^ cmask;
        uint ofs[E];
        uint rk[E];
#if HP
        uint rp[E];
#endif
        /* lpad(a | b) = lpad(a) + lpad(b) for disjoint a, b: the R part
         * comes padded from the host; cmask == 0 when no mirror
         * complements (then cr = 31 and wc == wpart) */
        uint pw = lpad(wpart), pc = lpad(wc);
        if (cmask) {
#pragma unroll
            for (uint i = 0; i < E; i++)
                ofs[i] = r[R_TABL + i] + (((i >> cr) & 1u) ? pc : pw);
        } else {
#pragma unroll
            for (uint i = 0; i < E; i++)
                ofs[i] = r[R_TABL + i] + pw;
        }
        bool gload = ri == 0 && first_direct, gstore = ri + 1 == nr && last_direct;
        uint gw = base, gwc = base; /* global bits of wpart, wpart ^ cmask */
        if (gload || gstore) {
#pragma unroll
            for (uint k = 0; k < 8; k++)
                if (k < nruns) {
                    uint js = d[H_RUNS + 3 * k], lm = (1u << d[H_RUNS + 3 * k + 1]) - 1u;
                    uint gs = d[H_RUNS + 3 * k + 2];
                    gw |= ((wpart >> js) & lm) << gs;
                    gwc |= ((wc >> js) & lm) << gs;
                }
        }
        if (gload) {
#pragma unroll
            for (uint i = 0; i < E; i++) {
                uint x = r[R_TABR + i] | (((i >> cr) & 1u) ? gwc : gw);
                x ^= ((x >> ab) & 1u) ? am : 0u;
                rk[i] = x < n ? to_ordered(KT, keys[x]) : SENTINEL;
#if HP
                rp[i] = x < n ? pay[x] : 0u;
#endif
            }
        } else {
#pragma unroll
            for (uint i = 0; i < E; i++) {
                rk[i] = lk[ofs[i]];
#if HP
                rp[i] = lp[ofs[i]];
#endif
            }
        }
        uint nl = r[R_NL];
        for (uint li = 0; li < nl; li++) {
            switch (r[R_CODES + li]) {
            case 0: CLEAN(0); break;
            case 1: CLEAN(1); break;
            case 2: CLEAN(2); break;
            case 3: CLEAN(3); break;
#if E_BITS == 5
            case 4: CLEAN(4); break;
            case 12: MIRROR(4); break;
#endif
            case 8: MIRROR(0); break;
            case 9: MIRROR(1); break;
            case 10: MIRROR(2); break;
            case 11: MIRROR(3); break;
            default: break;
            }
        }
        if (gstore) {
#pragma unroll
            for (uint i = 0; i < E; i++) {
                uint x = r[R_TABR + i] | (((i >> cr) & 1u) ? gwc : gw);
                x ^= ((x >> ab) & 1u) ? am : 0u;
                if (x < n) {
                    keys[x] = from_ordered(KT, rk[i]);
#if HP
                    pay[x] = rp[i];
#endif
                }
            }
        } else {
            /* (gstore is the last round: no barrier needed after it) */
#pragma unroll
            for (uint i = 0; i < E; i++) {
                lk[ofs[i]] = rk[i];
#if HP
                lp[ofs[i]] = rp[i];
#endif
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        r += R_CODES + nl;
    }
    if (last_direct)
        return;

#pragma unroll
    for (uint i = 0; i < E; i++) {
        uint x = gidx(xw, d[H_TAB + i], ab, am, true);
        uint l = lpad(w + i * W);
        if (x < n) {
            keys[x] = from_ordered(KT, lk[l]);
#if HP
            pay[x] = lp[l];
#endif
        }
    }
}

inline void serial_cx(__local uint *lk, __local uint *lp, uint a, uint b)
{
    uint x = lk[a], y = lk[b];
    if (x > y) {
        lk[a] = y;
        lk[b] = x;
        uint z = lp[a];
        lp[a] = lp[b];
        lp[b] = z;
    }
}

/* One pass on a CPU (pocl): one work-item per tile runs the layers over
 * its block in plain loops - barriers are not free there, and the tile
 * stays in the core's cache. */
__kernel void sn_fused_serial(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                              __global const uint *desc, uint off, __local uint *lk,
                              __local uint *lp)
{
    __global const uint *d = desc + off;
    uint T = 1u << d[H_T];
    uint base = deposit_outside((uint)get_group_id(0), d[H_BMASK]);
    for (uint m = 0; m < T; m++) {
        uint x = global_index(d, m, base);
        lk[m] = x < n ? to_ordered(kt, keys[x]) : SENTINEL;
        if (hp)
            lp[m] = x < n ? pay[x] : 0u;
    }
    uint nf = d[H_NFLAT];
    __global const uint *f = d + d[H_FLAT];
    for (uint li = 0; li < nf; li++) {
        uint code = f[li];
        uint kind = code >> 24, u = (code >> 8) & 0xffu, wb = code & 0xffu;
        uint bit = 1u << u;
        /* plain loops over contiguous runs: without payload a comparator
         * is min/max, which the CPU compiler vectorises */
        if (kind == 2) {
            uint blk = 1u << wb;
            for (uint b0 = 0; b0 < T; b0 += blk)
                for (uint st = b0 + bit; st + bit < b0 + blk; st += 2 * bit)
                    if (hp)
                        for (uint i = 0; i < bit; i++)
                            serial_cx(lk, lp, st + i, st + bit + i);
                    else
                        for (uint i = 0; i < bit; i++) {
                            uint x = lk[st + i], y = lk[st + bit + i];
                            lk[st + i] = min(x, y);
                            lk[st + bit + i] = max(x, y);
                        }
        } else if (kind == 1) {
            for (uint b0 = 0; b0 < T; b0 += 2 * bit)
                if (hp)
                    for (uint i = 0; i < bit; i++)
                        serial_cx(lk, lp, b0 + i, b0 + 2 * bit - 1 - i);
                else
                    for (uint i = 0; i < bit; i++) {
                        uint x = lk[b0 + i], y = lk[b0 + 2 * bit - 1 - i];
                        lk[b0 + i] = min(x, y);
                        lk[b0 + 2 * bit - 1 - i] = max(x, y);
                    }
        } else {
            for (uint b0 = 0; b0 < T; b0 += 2 * bit)
                if (hp)
                    for (uint i = 0; i < bit; i++)
                        serial_cx(lk, lp, b0 + i, b0 + bit + i);
                else
                    for (uint i = 0; i < bit; i++) {
                        uint x = lk[b0 + i], y = lk[b0 + bit + i];
                        lk[b0 + i] = min(x, y);
                        lk[b0 + bit + i] = max(x, y);
                    }
        }
    }
    for (uint m = 0; m < T; m++) {
        uint x = global_index(d, m, base);
        if (x < n) {
            keys[x] = from_ordered(kt, lk[m]);
            if (hp)
                pay[x] = lp[m];
        }
    }
}
/* Odd-even merge carry layers that fit no tile (src/gpu/fused.c, "window
 * passes"): the layers q = 2^lq0, 2^(lq0-1), ... (nl of them, each the
 * comparators (i, i + q) with bit lq of i - q clear, inside blocks of
 * 2^(lp+1))
 * keep the low b index bits, so they act on the strided subsequences
 * "index = y * 2^b + z" as the same layers with q >> b. A work-group takes
 * 2^c consecutive z and a window of 2^w consecutive y that overlaps its
 * neighbours by a halo of Q = (first q) >> b on each side: the window
 * starts at an odd multiple of Q, so the first layer's pairs lie wholly
 * inside or outside it, and each later layer q' can spoil at most q'
 * positions at each edge, less than Q in all; the work-group writes back
 * only the 2^w - 2Q positions in the middle, and the windows' middles tile
 * the array. The windows overlap, so they read one array (keys, pay) and
 * write another (okeys, opay): every element is written exactly once.
 * Positions before the array hold the smallest ordered key and
 * those past its end the largest, so a comparator reaching them never
 * swaps - exactly the schedule's rule of dropping them. */
__kernel void sn_fused_window(__global const uint *keys, __global const uint *pay,
                              __global uint *okeys, __global uint *opay, uint kt, uint hp, uint n,
                              uint b, uint c, uint w, uint lp, uint lq0, uint nl, uint halo,
                              __local uint *lk, __local uint *lpy)
{
    (void)kt;
    (void)hp;
    uint W = 1u << w, C = 1u << c, cm = C - 1u;
    uint S = W - 2u * halo; /* the middle, written back */
    uint zbits = b - c;
    uint g = (uint)get_group_id(0);
    uint z0 = (g & ((1u << zbits) - 1u)) << c;
    int A = (int)((g >> zbits) * S) - (int)halo; /* the window's first y */
    uint lid = (uint)get_local_id(0), wg = (uint)get_local_size(0);
    uint tot = W << c;
    /* one work-item (CPUs): unpadded, and the layers as plain loops */
    bool pad = wg > 1;
#define WIX(l) (pad ? lpad(l) : (l))
    for (uint l = lid; l < tot; l += wg) {
        int y = A + (int)(l >> c);
        uint v = 0u, pv = 0u;
        if (y >= 0) {
            uint x = ((uint)y << b) | z0 | (l & cm);
            v = SENTINEL;
            if ((uint)y < (n >> b) + 1u && x < n) {
                v = to_ordered(KT, keys[x]);
#if HP
                pv = pay[x];
#endif
            }
        }
        lk[WIX(l)] = v;
#if HP
        lpy[WIX(l)] = pv;
#else
        (void)pv;
#endif
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint lpc = lp - b; /* block of 2^(lpc + 1) in y */
    for (uint k = 0; k < nl; k++) {
        uint lq = lq0 - b - k, q = 1u << lq;
        uint r = lq < lpc ? q : 0u; /* the merge's first layer starts at 0 */
        /* lefts: y >= r with bit lq of y - r clear, i.e. the window's ly
         * with bit lq of ly + delta clear */
        uint delta = (uint)(A - (int)r) & (2u * q - 1u);
        if (!pad) {
            /* the lefts come in runs ly = u - delta, u in [u0, u0 + q),
             * each wholly inside or outside one block: with their 2^c
             * columns, q * 2^c consecutive words against the next q * 2^c */
            uint qc = q << c;
            for (uint u0 = 0; u0 + q < W + delta; u0 += 2u * q) {
                uint lo = u0 > delta ? u0 - delta : 0u;
                uint hi = min(u0 + q - delta, W - q);
                if (u0 + q <= delta || lo >= hi)
                    continue;
                int y = A + (int)lo;
                int ye = A + (int)hi - 1;
                if (ye < 0 || ((uint)ye >> (lpc + 1)) != (((uint)ye + q) >> (lpc + 1)))
                    continue;
                uint l1 = (y < 0 ? (uint)(-A) : lo) << c, l2 = hi << c;
                for (uint l = l1; l < l2; l++) {
                    uint x = lk[l], yk = lk[l + qc];
#if HP
                    if (x > yk) {
                        lk[l] = yk;
                        lk[l + qc] = x;
                        uint zp = lpy[l];
                        lpy[l] = lpy[l + qc];
                        lpy[l + qc] = zp;
                    }
#else
                    lk[l] = min(x, yk);
                    lk[l + qc] = max(x, yk);
#endif
                }
            }
        }
        for (uint m = lid; pad; m += wg) {
            uint t = m >> c;
            uint u = ((t >> lq) << (lq + 1)) | (t & (q - 1u));
            if (u + q >= W + delta)
                break;
            if (u < delta)
                continue;
            uint ly = u - delta;
            int y = A + (int)ly;
            if (y < 0 || ((uint)y >> (lpc + 1)) != (((uint)y + q) >> (lpc + 1)))
                continue;
            uint ia = lpad((ly << c) | (m & cm)), ib = lpad(((ly + q) << c) | (m & cm));
            uint x = lk[ia], yk = lk[ib];
            if (x > yk) {
                lk[ia] = yk;
                lk[ib] = x;
#if HP
                uint zp = lpy[ia];
                lpy[ia] = lpy[ib];
                lpy[ib] = zp;
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint l = lid; l < tot; l += wg) {
        uint ly = l >> c;
        if (ly < halo || ly >= halo + S)
            continue;
        uint y = (uint)(A + (int)ly);
        uint x = (y << b) | z0 | (l & cm);
        if (y < (n >> b) + 1u && x < n) {
            okeys[x] = from_ordered(KT, lk[WIX(l)]);
#if HP
            opay[x] = lpy[WIX(l)];
#endif
        }
    }
}
#undef WIX
#endif /* SN_CODEGEN */
