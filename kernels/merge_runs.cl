/* merge_runs.cl - one pass of the stable merge of sorted runs on the
 * device (src/gpu/sort_stage.c, sn_stage_merge_device): a block larger
 * than one device sort (2^31 keys: the sorts' 32-bit indices) is sorted in
 * runs that stay on the device, then merged here pass by pass, each pass
 * merging pairs of neighbouring runs of `run` keys (the last may be
 * short) from (ik, ip) into (ok, op). Keys compare as unsigned (the
 * ordered form); the earlier run first on ties, so the merge is stable and
 * the payload (hp) lands where the host merge puts it.
 *
 * Indices are 64-bit (ulong): a block may hold 2^33 keys and more. Work-item
 * t of a pass takes piece t % pieces of pair t / pieces: outputs [from, to)
 * of that pair's merge, at most `per` of them, found by merge path (the
 * co-rank of its first output, a binary search over the two runs), then
 * merged sequentially. */

__kernel void mr_merge(__global const uint *ik, __global const uint *ip, __global uint *ok,
                       __global uint *op, ulong n, ulong run, ulong per, ulong pieces, uint hp)
{
    ulong t = get_global_id(0), pair = t / pieces, piece = t % pieces;
    ulong lo = pair * 2 * run;
    if (lo >= n)
        return;
    ulong mid = min(lo + run, n), hi = min(mid + run, n);
    ulong na = mid - lo, nb = hi - mid;
    ulong x = piece * per, end = min(x + per, na + nb);
    if (x >= end)
        return;
    __global const uint *a = ik + lo, *b = ik + mid;
    /* how many of the first x outputs come from a (a first on ties) */
    ulong l = x > nb ? x - nb : 0, h = min(x, na);
    while (l < h) {
        ulong i = l + (h - l) / 2;
        if (a[i] <= b[x - i - 1])
            l = i + 1;
        else
            h = i;
    }
    ulong i = l, j = x - l;
    for (; x < end; x++) {
        uint va = i < na ? a[i] : 0, vb = j < nb ? b[j] : 0;
        bool ta = j >= nb || (i < na && va <= vb);
        ok[lo + x] = ta ? va : vb;
        if (hp)
            op[lo + x] = ta ? ip[lo + i] : ip[mid + j];
        i += ta ? 1 : 0;
        j += ta ? 0 : 1;
    }
}
