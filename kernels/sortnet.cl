/* sortnet.cl - one comparator layer of a sorting network per launch, in the
 * styles of the classic GPU sorting write-ups, plus the digest reduction.
 *
 * Invariant shared with the CPU reference (src/core/exec.h, schedule.h):
 * a comparator (a, b) leaves the minimum on a and swaps only when the key on
 * a is strictly greater than the key on b, comparing "ordered keys" (the
 * bijection sn_key_to_ordered), so equal keys never move and the payload
 * follows deterministically. The closed-form kernels compute exactly the
 * comparators of sn_layer_partner(): padded size N = next power of two >= n,
 * every comparator touching a wire >= n dropped.
 *
 * Common arguments: keys (raw 32-bit words), pay (payload; a dummy buffer
 * when hp == 0), kt (0 = i32, 1 = u32, 2 = f32), hp (payload present),
 * n (wires), p and q (the layer's closed-form parameters), lim (work-items
 * that do work; the launch is rounded up to whole work-groups). */

/* to_ordered comes from keys.cl, built in front of this file. */

inline void cmpx(__global uint *keys, __global uint *pay, uint kt, uint hp, uint a, uint b)
{
    uint x = keys[a];
    uint y = keys[b];
    if (to_ordered(kt, x) > to_ordered(kt, y)) {
        keys[a] = y;
        keys[b] = x;
        if (hp) {
            uint t = pay[a];
            pay[a] = pay[b];
            pay[b] = t;
        }
    }
}

/* Any network: this layer's pairs (uploaded once with all other layers)
 * start at pairs[base]; one work-item per comparator. */
__kernel void sn_pairs(__global uint *keys, __global uint *pay, uint kt, uint hp,
                       __global const uint2 *pairs, uint base, uint count)
{
    uint t = (uint)get_global_id(0);
    if (t >= count)
        return;
    uint2 c = pairs[base + t];
    cmpx(keys, pay, kt, hp, c.x, c.y);
}

/* ---- bitonic (flip-free): q == p/2 is the mirror step i ^ (p - 1),
 * otherwise the half-cleaner i ^ q. */

/* One work-item per element; the left (smaller) index of a pair works. */
__kernel void sn_bitonic_left(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                              uint p, uint q, uint lim)
{
    uint i = (uint)get_global_id(0);
    if (i >= lim)
        return;
    uint partner = (q == p / 2) ? (i ^ (p - 1)) : (i ^ q);
    if (partner < n && i < partner)
        cmpx(keys, pay, kt, hp, i, partner);
}

/* The xor-partner kernel of the write-ups: every element computes its
 * partner by xor and the right one of each pair leaves at once. */
__kernel void sn_bitonic_xor(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                             uint p, uint q, uint lim)
{
    uint i = (uint)get_global_id(0);
    if (i >= lim)
        return;
    uint mask = (q == p / 2) ? (p - 1) : q;
    uint partner = i ^ mask;
    if (partner < i)
        return;
    if (partner >= n)
        return;
    cmpx(keys, pay, kt, hp, i, partner);
}

/* One work-item per comparator: t -> left index with division and modulo
 * (the left index has bit q clear). */
__kernel void sn_bitonic_div(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                             uint p, uint q, uint lim)
{
    uint t = (uint)get_global_id(0);
    if (t >= lim)
        return;
    uint left = (t / q) * (2 * q) + t % q;
    uint partner = (q == p / 2) ? (left ^ (p - 1)) : (left ^ q);
    if (partner < n)
        cmpx(keys, pay, kt, hp, left, partner);
}

/* The same with shifts and masks (q is a power of two). */
__kernel void sn_bitonic_shift(__global uint *keys, __global uint *pay, uint kt, uint hp,
                               uint n, uint p, uint q, uint lim)
{
    uint t = (uint)get_global_id(0);
    if (t >= lim)
        return;
    uint lq = 31 - clz(q);
    uint left = ((t >> lq) << (lq + 1)) | (t & (q - 1));
    uint partner = (q == p / 2) ? (left ^ (p - 1)) : (left ^ q);
    if (partner < n)
        cmpx(keys, pay, kt, hp, left, partner);
}

/* ---- Batcher's odd-even merge: p = merge size, q = stride k, r = k % p.
 * i compares with i + k when i >= r, (i - r) mod 2k < k, i + k < n and
 * i, i + k lie in the same block of 2p. */

__kernel void sn_oem_left(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                          uint p, uint q, uint lim)
{
    uint i = (uint)get_global_id(0);
    if (i >= lim)
        return;
    uint r = q % p;
    if (i < r || (i - r) % (2 * q) >= q)
        return;
    uint j = i + q;
    if (j >= n || i / (2 * p) != j / (2 * p))
        return;
    cmpx(keys, pay, kt, hp, i, j);
}

__kernel void sn_oem_div(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                         uint p, uint q, uint lim)
{
    uint t = (uint)get_global_id(0);
    if (t >= lim)
        return;
    uint left = q % p + (t / q) * (2 * q) + t % q;
    uint right = left + q;
    if (right >= n || left / (2 * p) != right / (2 * p))
        return;
    cmpx(keys, pay, kt, hp, left, right);
}

__kernel void sn_oem_shift(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                           uint p, uint q, uint lim)
{
    uint t = (uint)get_global_id(0);
    if (t >= lim)
        return;
    uint lq = 31 - clz(q);
    uint lp = 31 - clz(p);
    uint left = (q & (p - 1)) + ((t >> lq) << (lq + 1)) + (t & (q - 1));
    uint right = left + q;
    if (right >= n || (left >> (lp + 1)) != (right >> (lp + 1)))
        return;
    cmpx(keys, pay, kt, hp, left, right);
}

/* ---- odd-even transposition: (i, i + 1) for i = p (mod 2). */

__kernel void sn_trans_left(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                            uint p, uint q, uint lim)
{
    uint i = (uint)get_global_id(0);
    (void)q;
    if (i >= lim)
        return;
    if ((i & 1u) == (p & 1u) && i + 1 < n)
        cmpx(keys, pay, kt, hp, i, i + 1);
}

__kernel void sn_trans_div(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                           uint p, uint q, uint lim)
{
    uint t = (uint)get_global_id(0);
    (void)q;
    if (t >= lim)
        return;
    uint left = 2 * t + p % 2;
    if (left + 1 < n)
        cmpx(keys, pay, kt, hp, left, left + 1);
}

__kernel void sn_trans_shift(__global uint *keys, __global uint *pay, uint kt, uint hp, uint n,
                             uint p, uint q, uint lim)
{
    uint t = (uint)get_global_id(0);
    (void)q;
    if (t >= lim)
        return;
    uint left = (t << 1) | (p & 1u);
    if (left + 1 < n)
        cmpx(keys, pay, kt, hp, left, left + 1);
}

/* ---- digest: sum (mod 2^64) of mix(i, keys[i]), mix = splitmix64's
 * finalizer of (i << 32 | key) exactly as sn_digest_mix in exec.h. Each
 * work-group writes one partial sum to out[slot * groups + group]; the host
 * adds the partials (addition mod 2^64 is order-independent). The local
 * size must be a power of two. */

inline ulong digest_mix(uint i, uint bits)
{
    ulong z = ((ulong)i << 32) | (ulong)bits;
    z += 0x9E3779B97F4A7C15UL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
    return z ^ (z >> 31);
}

__kernel void sn_digest(__global const uint *keys, uint n, __global ulong *out, uint slot,
                        __local ulong *scratch)
{
    size_t lid = get_local_id(0);
    size_t lsz = get_local_size(0);
    ulong s = 0;
    for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
        s += digest_mix((uint)i, keys[i]);
    scratch[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t w = lsz / 2; w > 0; w /= 2) {
        if (lid < w)
            scratch[lid] += scratch[lid + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[(size_t)slot * get_num_groups(0) + get_group_id(0)] = scratch[0];
}

/* Fault injection for the verifier's self-test: flip the lowest bit of one
 * key, so the value surely differs from the reference's. */
__kernel void sn_inject(__global uint *keys, uint index)
{
    if (get_global_id(0) == 0)
        keys[index] ^= 1u;
}
