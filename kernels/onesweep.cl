/* onesweep.cl - the onesweep LSD radix sort (Adinets and Merrill, 2022):
 * one pass over the keys for every digit's histogram, then per digit one
 * scatter kernel whose tiles find where their digits go by decoupled
 * look-back, with no separate count or scan kernels. Built after
 * kernels/sorts.cl in the same program (src/gpu/sorts.c): it takes that
 * file's tile ranking (rank_nv on NVIDIA GPUs, split_rank elsewhere), its
 * scans and the tile writer rx_place, and works on ordered keys like every
 * sort there.
 *
 * A pass of `bits`-bit digits (nd = 2^bits of them) at `shift`:
 * 1. the work-group takes its tile id from an atomic counter (start
 *    order, see below);
 * 2. it ranks its tile by digit in local memory as the classic scatter
 *    does (rank_nv, split_rank), which gives the tile's count of each
 *    digit, and each digit's first place in the output comes from the
 *    exclusive scan of hist[pass][*];
 * 3. work-item d publishes the tile's count of digit d in
 *    status[tile][d] with the flag OS_AGG (tile 0: OS_INC) as soon as the
 *    ranking has counted the tile (OS_EARLY), then, once the tile is
 *    ranked, looks back over the tiles before it: it reads the words of
 *    digit d of tiles tile-1 .. tile-OS_WIN at once and adds their counts
 *    in order until a tile whose word says OS_INC (an inclusive prefix:
 *    the count of all tiles up to it); a word with no flag yet stops the
 *    adding, and the next window starts at that word (read again until it
 *    has one); then it publishes its own inclusive prefix with OS_INC;
 * 4. the tile is written to its digits' places (rx_place).
 * (The portable path counts and publishes before its split sort.)
 * Value and flag share one 32-bit word (2 flag bits, 30 bits of count),
 * written by one atomic exchange, so a tile never reads a flag without its
 * count, and nothing else passes between work-groups within a kernel (the
 * keys written are read only by the next launch): no fences are needed.
 * Counts below 2^30: the host runs onesweep only for n < 2^30.
 *
 * Forward progress. OpenCL promises none between work-groups: a
 * work-group that waits for another that has not started could wait
 * forever, if the one it waits for can only start after it ends. So tile
 * ids are not group ids but come from an atomic counter, taken when a
 * work-group starts: every tile with a smaller id belongs to a work-group
 * that had already started (it took its id first), and a started
 * work-group holds its place on the device until it ends. A tile reads
 * and waits only for smaller ids (a window never reaches past tile 0, and
 * waits on its first word without a flag, the largest id it has not
 * taken yet), which by induction wait only for still smaller ones, and
 * tile 0 waits for nobody; so every wait ends. The status words
 * are read with atomics (volatile loads on NVIDIA's, which go to L2), so
 * the wait sees the other work-group's write.
 *
 * Status words. A pass reads the status of its own tiles, which must be
 * zero at its start: os_hist zeroes pass 0's, and each tile of pass p
 * zeroes its row of pass p+1's (the two alternate in one buffer of 2
 * rows per tile); pass p+1 starts only after pass p has ended. */

#define OS_AGG 0x40000000u /* the tile's own count of the digit */
#define OS_INC 0x80000000u /* the count of every tile up to this one */

#define OS_VAL 0x3FFFFFFFu
#define OS_FLAGS 0xC0000000u

/* the passes' tile counters before the histograms: up to 8 passes (4-bit
 * digits); src/gpu/sorts.c's OS_TICKETS must match */
#define OS_TICKETS 8

/* Variants, chosen at build time (SN_RADIX_CLOPTS=-DOS_...=v measures
 * them in one build; docs/gpu-speed.md has what each measured):
 * OS_HCOPIES: os_hist's local copies of the counters, a warp's by its
 *   index modulo OS_HCOPIES (fewer lanes on one counter);
 * OS_WIN: look-back words a work-item reads at once (tiles t-1 .. t-W);
 * OS_EARLY: the tile's counts published as soon as the ranking has
 *   counted (before its scan and local writes). */
#ifndef OS_HCOPIES
#define OS_HCOPIES 2
#endif
#ifndef OS_WIN
#define OS_WIN 4
#endif
#ifndef OS_EARLY
#define OS_EARLY 1
#endif
#if OS_WIN < 1 || OS_HCOPIES < 1
#error "OS_WIN and OS_HCOPIES are at least 1"
#endif

/* hist[OS_TICKETS + pass * nd + d] is digit d's count in pass `pass`;
 * hist[pass] the pass's tile counter; the host zeroes hist
 * (clEnqueueFillBuffer) before os_hist.
 *
 * Every digit's histogram in one pass over the keys: work-group g takes
 * chunks g, g + groups, ... of WG * RADIX_E keys (all of a work-item's
 * loads in flight at once), counts each pass's digit in local memory (two
 * copies, even and odd warps: fewer lanes on one counter) and adds the
 * counts to hist; and zeroes pass 0's status rows (status[0..zero)). */
__kernel void os_hist(__global const uint *k, uint n, uint bits, uint passes,
                      __global uint *hist, __global uint *status, uint zero)
{
    __local uint h[OS_HCOPIES * 1024]; /* 4 passes of 256 digits or 8 of 16, a copy each */
    uint lid = (uint)get_local_id(0), groups = (uint)get_num_groups(0);
    uint nd = 1u << bits, mask = nd - 1, words = passes * nd;
    __local uint *hw = h + ((lid >> 5) % OS_HCOPIES) * 1024;
    for (uint i = (uint)get_global_id(0); i < zero; i += groups * WG)
        status[i] = 0;
    for (uint i = lid; i < OS_HCOPIES * 1024; i += WG)
        h[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint c = (uint)get_group_id(0) * RT; c < n; c += groups * RT) {
        uint cnt = min((uint)RT, n - c), x[RADIX_E];
#pragma unroll
        for (uint e = 0; e < RADIX_E; e++)
            x[e] = e * WG + lid < cnt ? k[c + e * WG + lid] : 0u;
#pragma unroll
        for (uint e = 0; e < RADIX_E; e++) {
            if (e * WG + lid >= cnt)
                break;
            if (bits == 8) {
                atomic_inc(&hw[x[e] & 255u]);
                atomic_inc(&hw[256 + ((x[e] >> 8) & 255u)]);
                atomic_inc(&hw[512 + ((x[e] >> 16) & 255u)]);
                atomic_inc(&hw[768 + (x[e] >> 24)]);
            } else {
                for (uint p = 0; p < passes; p++)
                    atomic_inc(&hw[p * nd + ((x[e] >> (p * bits)) & mask)]);
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < words; i += WG) {
        uint v = 0;
        for (uint c = 0; c < OS_HCOPIES; c++)
            v += h[c * 1024 + i];
        if (v)
            atomic_add(&hist[OS_TICKETS + i], v);
    }
}

/* A look-back word read: on NVIDIA's a volatile load (ld.volatile, one
 * access at L2, which the other work-groups' atomics write), elsewhere an
 * atomic of OpenCL 1.2. Written with atomic_xchg (volatile stores on an
 * H200 measured the same: 1.9306 ms against 1.9291 at 2^26). */
inline uint os_read(__global uint *w)
{
#if SN_NV
    return *(volatile __global uint *)w;
#else
    return atomic_or(w, 0u);
#endif
}

inline void os_write(__global uint *w, uint v)
{
    atomic_xchg(w, v);
}

/* Work-item's digit d of tile `tile` (its count agg, published with
 * OS_AGG already; tile 0's with OS_INC): the count of digit d in the tiles
 * before (the look-back above), publishing the tile's own inclusive count.
 * st is the pass's status, tile-major (nd words a tile). */
inline uint os_lookback(__global uint *st, uint tile, uint d, uint nd, uint agg, bool pub)
{
    uint excl = 0;
    if (tile > 0) {
        if (pub)
            os_write(&st[tile * nd + d], OS_AGG | agg);
        /* tiles j, j-1, .., j-OS_WIN+1 read at once (before tile 0: an
         * inclusive 0), taken in order up to the first without a flag
         * (read again from there) or the first inclusive one */
        for (int j = (int)tile - 1; j >= 0;) {
            uint v[OS_WIN];
#pragma unroll
            for (int w = 0; w < OS_WIN; w++)
                v[w] = j - w >= 0 ? os_read(&st[(uint)(j - w) * nd + d]) : OS_INC;
            int took = 0;
            bool inc = false, wait = false;
#pragma unroll
            for (int w = 0; w < OS_WIN; w++) {
                if (inc || wait)
                    continue;
                if (!(v[w] & OS_FLAGS)) {
                    wait = true;
                    continue;
                }
                excl += v[w] & OS_VAL;
                took++;
#if SN_SORT_BUG & 16
                inc = true; /* planted: every word taken for an inclusive one */
#else
                inc = (v[w] & OS_INC) != 0;
#endif
            }
            if (inc)
                break;
            j -= took;
        }
    }
    if (tile > 0 || pub) /* else tile 0 published its counts as inclusive ones */
        os_write(&st[tile * nd + d], OS_INC | (excl + agg));
    return excl;
}

/* One pass of the onesweep scatter, from k (p) to ok (op). hist as
 * os_hist left it; status: 2 rows of nd words a tile (pass & 1 is this
 * pass's). tiles: how many there are (the ids the counter gives out). */
__attribute__((always_inline)) inline void os_scatter_body(
    __global const uint *k, __global const uint *p, __global uint *ok, __global uint *op, uint n,
    uint pass, uint bits, __global uint *hist, __global uint *status, uint tiles, const uint hp,
    __local uint *si, __local uint *dst0, __local uint *dtot, __local uint *tid,
    __local uint *sc, RX_PARAMS)
{
    uint lid = (uint)get_local_id(0), nd = 1u << bits, mask = nd - 1, shift = pass * bits;
    if (lid == 0)
        *tid = atomic_inc(&hist[pass]);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint t = *tid, off = t * RT, cnt = min((uint)RT, n - off);
    __global uint *st = status + (size_t)(pass & 1) * tiles * nd;
    __global uint *next = status + (size_t)((pass + 1) & 1) * tiles * nd;
    __global const uint *h = hist + OS_TICKETS + pass * nd;
    /* each digit's first place in the output: the scan of the histogram;
     * and the next pass's status row zeroed */
    uint s = 0;
#if SN_NV
    /* WG = 256: a digit a work-item. The histogram's load is issued here
     * and scanned after the ranking, so that the keys' loads go out at
     * once (scanned before the ranking: 0.451 ms a pass at 2^26 against
     * 0.449 on an H200) */
    uint hd = lid < nd ? h[lid] : 0u;
    if (lid < nd) {
        next[(size_t)t * nd + lid] = 0;
        dst0[lid] = 0; /* rank_nv takes each digit's first place off */
    }
    /* the tile's digit counts come from the ranking (counting them first
     * and publishing them before it, as CUB does, measured slower on an
     * H200: 0.570 and 2.047 ms at 2^24 and 2^26 against 0.543 and 1.930) */
    uint agg = rank_nv(k, off, cnt, shift, mask, nd, sk, si, hp, dst0, wc, wt, lid,
                       OS_EARLY ? st + (size_t)t * nd : (__global uint *)0, t > 0 ? OS_AGG : OS_INC);
    /* (rank_nv's last barrier came after its last use of wt) */
    uint first = nv_scan(hd, wt, lid);
    if (lid < nd)
        dst0[lid] += first + os_lookback(st, t, lid, nd, agg, !OS_EARLY);
#else
    uint carry = 0;
    for (uint d0 = 0; d0 < nd; d0 += WG) { /* WG digits at a time */
        uint d = d0 + lid;
        sc[lid] = d < nd ? h[d] : 0u;
        if (d < nd)
            next[(size_t)t * nd + d] = 0;
        uint total = scan_wg(sc, sc + WG, lid);
        if (d < nd)
            dst0[d] = carry + sc[lid];
        carry += total;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    /* the tile's counts first, so that the tiles after can go on while
     * this one sorts */
    for (uint d = lid; d < nd; d += WG)
        dtot[d] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint q = lid; q < cnt; q += WG)
        atomic_inc(&dtot[(k[off + q] >> shift) & mask]);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < nd; d += WG)
        os_write(&st[t * nd + d], (t > 0 ? OS_AGG : OS_INC) | dtot[d]);
    s = split_rank(k, off, cnt, shift, mask, bits, sk, si, hp, dst0, cs, ctmp, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint d = lid; d < nd; d += WG)
        dst0[d] += os_lookback(st, t, d, nd, dtot[d], false);
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    rx_place(p, ok, op, n, shift, mask, off, cnt, hp, sk + s * RTP, si + s * RTP, dst0, lid);
}

#if SN_NV
#define OS_SC 1 /* the histogram's scan goes through nv_scan */
#define OS_TOT 1 /* the counts come in registers */
#else
#define OS_SC (2 * WG)
#define OS_TOT 256
#endif
#define OS_LOCALS                                                                                  \
    RX_LOCALS;                                                                                     \
    __local uint dst0[256], dtot[OS_TOT], tid[1], sc[OS_SC]

__kernel void os_scatter(__global const uint *k, __global const uint *p, __global uint *ok,
                         __global uint *op, uint n, uint pass, uint bits, __global uint *hist,
                         __global uint *status, uint tiles, __local uint *si)
{
    OS_LOCALS;
    os_scatter_body(k, p, ok, op, n, pass, bits, hist, status, tiles, 0u, si, dst0, dtot, tid, sc,
                    RX_ARGS);
}

/* si: RTP words for the NVIDIA ranking, 2 RTP for the split sort */
__kernel void os_scatter_kv(__global const uint *k, __global const uint *p, __global uint *ok,
                            __global uint *op, uint n, uint pass, uint bits, __global uint *hist,
                            __global uint *status, uint tiles, __local uint *si)
{
    OS_LOCALS;
    os_scatter_body(k, p, ok, op, n, pass, bits, hist, status, tiles, 1u, si, dst0, dtot, tid, sc,
                    RX_ARGS);
}
