/* construct.c - explicit constructions of sorting and merging networks.
 *
 * Invariant: every comparator appended is standard (a < b) and goes into
 * the earliest layer its wires allow, so the depth of a construction is the
 * longest chain of comparators it emits. Recursions work on lists of wire
 * numbers (increasing, so "sorted along the list" is sorted on the wires),
 * which is how the odd-even and bitonic merges reach arbitrary sizes. */
#include "core/construct.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"

/* Where comparators go: into net (as early as possible), or, for the
 * structure blocks, nowhere: wdepth then tracks the layer each would get
 * (the same rule as sn_network_add_asap), [fmin, fmax] the layers of the
 * current recursion frame, and blk receives the blocks. */
typedef struct builder {
    sn_network *net;
    sn_diag *diag;
    sn_status st;
    uint32_t *wdepth;
    size_t fmin, fmax;
    sn_construct_block_fn blk;
    void *user;
} builder;

static void emit(builder *b, uint32_t x, uint32_t y)
{
    if (b->st == SN_OK && b->net)
        b->st = sn_network_add_asap(b->net, x < y ? x : y, x < y ? y : x, b->diag);
    if (b->wdepth) {
        size_t L = b->wdepth[x] > b->wdepth[y] ? b->wdepth[x] : b->wdepth[y];
        b->wdepth[x] = b->wdepth[y] = (uint32_t)L + 1;
        b->fmin = L < b->fmin ? L : b->fmin;
        b->fmax = L > b->fmax ? L : b->fmax;
    }
}

/* A recursion frame for the blocks: begin saves the outer frame's layer
 * range, end reports the block (when it has comparators and more than two
 * wires) and widens the outer range by this one. */
typedef struct frame {
    size_t fmin, fmax;
} frame;

static frame frame_begin(builder *b)
{
    frame f = {b->fmin, b->fmax};
    b->fmin = SIZE_MAX;
    b->fmax = 0;
    return f;
}

static void frame_end(builder *b, frame f, const char *word, uint32_t w0, uint32_t a, uint32_t m,
                      uint32_t depth)
{
    if (b->blk && b->fmin != SIZE_MAX && m > 2)
        b->blk(b->user, word, w0, w0 + m - 1, b->fmin, b->fmax, depth, a, m - a);
    if (b->fmin != SIZE_MAX) {
        b->fmin = f.fmin < b->fmin ? f.fmin : b->fmin;
        b->fmax = f.fmax > b->fmax ? f.fmax : b->fmax;
    } else {
        b->fmin = f.fmin;
        b->fmax = f.fmax;
    }
}

/* ---- Batcher's odd-even merge of two sorted lists of any sizes ---- */

/* Merge sorted L[0..a) with sorted R[0..b) (wire lists, every wire of L
 * below every wire of R); the result is sorted along L ++ R. tmp holds
 * a + b scratch entries, then about half as many per further level
 * (2 (a + b) + 2 per level in all). */
static void oem_merge(builder *bd, const uint32_t *L, uint32_t a, const uint32_t *R, uint32_t b,
                      uint32_t *tmp)
{
    if (a == 0 || b == 0 || bd->st != SN_OK)
        return;
    if (a == 1 && b == 1) {
        emit(bd, L[0], R[0]);
        return;
    }
    uint32_t *l = tmp, *r = tmp + (a + 1) / 2, *next = tmp + a + b;
    for (int odd = 0; odd < 2; odd++) {
        uint32_t na = 0, nb = 0;
        for (uint32_t i = (uint32_t)odd; i < a; i += 2)
            l[na++] = L[i];
        for (uint32_t i = (uint32_t)odd; i < b; i += 2)
            r[nb++] = R[i];
        oem_merge(bd, l, na, r, nb, next);
    }
    /* z_i (i odd) against z_i+1, along L ++ R; the last is left alone
     * when a + b is even (it is then the maximum already). */
    uint32_t m = a + b, last = (m % 2 == 0) ? m - 3 : m - 2;
    for (uint32_t i = 1; i <= last && i + 1 < m; i += 2)
        emit(bd, i < a ? L[i] : R[i - a], i + 1 < a ? L[i + 1] : R[i + 1 - a]);
}

/* level: 0 for the whole network; a sort below it is a block of depth
 * level - 1 holding its merge at depth level. */
static void oem_sort(builder *bd, uint32_t *w, uint32_t n, uint32_t *tmp, uint32_t level)
{
    if (n < 2 || bd->st != SN_OK)
        return;
    uint32_t a = n / 2;
    frame whole = frame_begin(bd);
    oem_sort(bd, w, a, tmp, level + 1);
    oem_sort(bd, w + a, n - a, tmp, level + 1);
    frame mf = frame_begin(bd);
    oem_merge(bd, w, a, w + a, n - a, tmp);
    frame_end(bd, mf, "merge+", w[0], a, n, level);
    if (level > 0)
        frame_end(bd, whole, "sort", w[0], a, n, level - 1);
    else
        frame_end(bd, whole, NULL, w[0], a, 0, 0);
}

/* ---- the bitonic merger of any size ---- */

/* The even/odd bitonic merger on positions P[0..m) of a V-shaped
 * (descending, then ascending) 0-1 sequence: merge the even and the odd
 * positions recursively, then compare positions (2i, 2i+1). Pairs go to
 * out as (lower position's wire, higher position's wire), possibly
 * reversed; *k counts them. */
static void vmerge(const uint32_t *P, uint32_t m, uint32_t *tmp, sn_comparator *out, size_t *k)
{
    if (m <= 1)
        return;
    if (m > 2) {
        uint32_t *sub = tmp, *next = tmp + m;
        for (int odd = 0; odd < 2; odd++) {
            uint32_t c = 0;
            for (uint32_t i = (uint32_t)odd; i < m; i += 2)
                sub[c++] = P[i];
            vmerge(sub, c, next, out, k);
        }
    }
    for (uint32_t i = 1; i < m; i += 2)
        out[(*k)++] = (sn_comparator){P[i - 1], P[i]};
}

/* Comparators of the bitonic merger: vmerge(m) makes floor(m/2) + the two
 * halves' counts; a bound: m * (bits of m). */
static size_t vmerge_bound(uint32_t m)
{
    size_t bits = 1;
    while ((1u << bits) < m && bits < 32)
        bits++;
    return (size_t)m * bits + 1;
}

/* Merge sorted wires W[0..a) with sorted W[a..m): the first part read
 * backwards then the second forwards is V-shaped, vmerge sorts along that
 * reading, and untangling (Knuth 5.3.4-16: a reversed comparator (x, y)
 * becomes (y, x) with x and y exchanged in every later one) makes every
 * comparator standard and leaves the result sorted along W. Local
 * positions 0..m-1 map to W at the end. */
static void bitonic_merge(builder *bd, const uint32_t *W, uint32_t a, uint32_t m)
{
    if (m < 2 || bd->st != SN_OK)
        return;
    size_t cap = vmerge_bound(m);
    uint32_t *P = sn_calloc((size_t)m * 4 + 80, sizeof *P);
    uint32_t *perm = sn_calloc((size_t)m * 2 + 2, sizeof *perm);
    sn_comparator *c = sn_calloc(cap, sizeof *c);
    if (!P || !perm || !c) {
        bd->st = sn_diag_set(bd->diag, SN_ENOMEM, 0, 0, "out of memory for a bitonic merge");
        goto done;
    }
    for (uint32_t i = 0; i < a; i++)
        P[i] = a - 1 - i;
    for (uint32_t i = a; i < m; i++)
        P[i] = i;
    size_t k = 0;
    vmerge(P, m, P + m, c, &k);
    uint32_t *inv = perm + m; /* perm: label now carried by a position */
    for (uint32_t i = 0; i < m; i++)
        perm[i] = inv[i] = i;
    for (size_t i = 0; i < k && bd->st == SN_OK; i++) {
        uint32_t x = perm[c[i].a], y = perm[c[i].b];
        if (x > y) { /* exchange labels x and y from here on */
            uint32_t px = inv[x], py = inv[y];
            perm[px] = y;
            perm[py] = x;
            inv[x] = py;
            inv[y] = px;
        }
        emit(bd, W[x < y ? x : y], W[x < y ? y : x]);
    }
done:
    sn_free(P);
    sn_free(perm);
    sn_free(c);
}

static void bitonic_sort(builder *bd, uint32_t *w, uint32_t n, uint32_t level)
{
    if (n < 2 || bd->st != SN_OK)
        return;
    uint32_t a = n / 2;
    frame whole = frame_begin(bd);
    bitonic_sort(bd, w, a, level + 1);
    bitonic_sort(bd, w + a, n - a, level + 1);
    frame mf = frame_begin(bd);
    bitonic_merge(bd, w, a, n);
    frame_end(bd, mf, "merge", w[0], a, n, level);
    if (level > 0)
        frame_end(bd, whole, "sort", w[0], a, n, level - 1);
    else
        frame_end(bd, whole, NULL, w[0], a, 0, 0);
}

/* ---- Bose and Nelson ---- */

static void bn_merge(builder *bd, uint32_t i, uint32_t li, uint32_t j, uint32_t lj)
{
    if (bd->st != SN_OK || li == 0 || lj == 0)
        return;
    if (li == 1 && lj == 1) {
        emit(bd, i, j);
    } else if (li == 1 && lj == 2) {
        emit(bd, i, j + 1);
        emit(bd, i, j);
    } else if (li == 2 && lj == 1) {
        emit(bd, i, j);
        emit(bd, i + 1, j);
    } else {
        uint32_t im = li / 2, jm = (li & 1u) ? lj / 2 : (lj + 1) / 2;
        bn_merge(bd, i, im, j, jm);
        bn_merge(bd, i + im, li - im, j + jm, lj - jm);
        bn_merge(bd, i + im, li - im, j, jm);
    }
}

static void bn_sort(builder *bd, uint32_t i, uint32_t len)
{
    if (len < 2 || bd->st != SN_OK)
        return;
    uint32_t mid = len / 2;
    bn_sort(bd, i, mid);
    bn_sort(bd, i + mid, len - mid);
    bn_merge(bd, i, mid, i + mid, len - mid);
}

/* ---- Hibbard ---- */

/* Hibbard's comparators one by one: (x, y) walks the bit patterns, from
 * (0, 1), until the top bit is done. The algorithm as his 1963 paper
 * gives it (the ALGOL there is a tangle of jumps; this is the same walk
 * as structured loops). */
static void hibbard(builder *bd, uint32_t n)
{
    if (n < 2)
        return;
    uint64_t top = 1, x = 0, y = 1, last = n - 1;
    while (top <= last)
        top <<= 1; /* 1 << bit length of n - 1 */
    for (;;) {
        emit(bd, (uint32_t)x, (uint32_t)y);
        if (bd->st != SN_OK)
            return;
        uint64_t bit = 1;
        while ((x & bit) && !(y & bit)) {
            x &= ~bit;
            bit <<= 1;
        }
        if (x & bit) { /* both bits set */
            y &= ~bit;
            continue;
        }
        if (!(y & bit)) { /* both clear */
            x |= bit;
            y |= bit;
            if (y > last)
                y &= ~bit;
            continue;
        }
        /* x's bit clear, y's set */
        bool next_pair = false;
        do {
            if (bit == top)
                return;
            x &= ~bit;
            y &= ~bit;
            bit <<= 1;
            if (y & bit) {
                x &= ~bit;
                next_pair = true;
                break;
            }
            x |= bit;
            y |= bit;
        } while (y > last);
        if (next_pair)
            continue;
        if (y < last)
            bit = 1;
        x &= ~bit;
        y |= bit;
    }
}

/* ---- merge exchange (Knuth 5.2.2M) and the periodic balanced network ---- */

static uint32_t ceil_log2(uint32_t n)
{
    uint32_t t = 0;
    while (t < 32 && ((uint64_t)1 << t) < n)
        t++;
    return t;
}

static void merge_exchange(builder *bd, uint32_t n)
{
    uint32_t t = ceil_log2(n);
    if (t == 0)
        return;
    for (uint64_t p = (uint64_t)1 << (t - 1); p > 0 && bd->st == SN_OK; p >>= 1) {
        uint64_t q = (uint64_t)1 << (t - 1), r = 0, d = p;
        for (;;) {
            for (uint64_t i = 0; i + d < n; i++)
                if ((i & p) == r)
                    emit(bd, (uint32_t)i, (uint32_t)(i + d));
            if (q == p)
                break;
            d = q - p;
            q >>= 1;
            r = p;
        }
    }
}

/* lg N blocks of lg N layers; whole layers, in order (not regrouped: the
 * periodic structure is the point of this network). */
static void balanced(builder *bd, uint32_t n, sn_comparator *buf)
{
    uint32_t t = ceil_log2(n);
    uint64_t N = (uint64_t)1 << t;
    for (uint32_t blk = 0; blk < t && bd->st == SN_OK; blk++) {
        for (uint32_t i = 0; i < t && bd->st == SN_OK; i++) {
            uint64_t g = N >> i;
            size_t k = 0;
            for (uint64_t s = 0; s < n; s += g)
                for (uint64_t j = 0; j < g / 2; j++)
                    if (s + g - 1 - j < n)
                        buf[k++] = (sn_comparator){(uint32_t)(s + j), (uint32_t)(s + g - 1 - j)};
            bd->st = sn_network_layer_add(bd->net, buf, k, bd->diag);
        }
    }
}

uint64_t sn_construct_size_bound(sn_algo algo, uint32_t n)
{
    uint64_t t = ceil_log2(n), N = (uint64_t)1 << t;
    switch (algo) {
    case SN_ALGO_BOSE_NELSON: {
        uint64_t b = 1; /* 3^t >= comparators of Bose-Nelson on 2^t wires */
        for (uint64_t i = 0; i < t && b < ((uint64_t)1 << 62); i++)
            b *= 3;
        return b;
    }
    case SN_ALGO_BALANCED: return t * t * (N / 2);
    default: return (N / 4) * t * (t + 1) + N;
    }
}

/* The wires 0..n-1 in order (the list the recursive constructions split),
 * or NULL when out of memory. */
static uint32_t *wires(uint32_t n)
{
    uint32_t *w = sn_calloc((size_t)n + 1, sizeof *w);
    for (uint32_t i = 0; w && i < n; i++)
        w[i] = i;
    return w;
}

sn_status sn_construct_sort(sn_algo algo, sn_network *net, sn_diag *diag)
{
    uint32_t n = sn_network_wires(net);
    builder bd = {net, diag, SN_OK, NULL, SIZE_MAX, 0, NULL, NULL};
    uint32_t *w = NULL, *tmp = NULL;
    sn_comparator *buf = NULL;
    bool lists = algo == SN_ALGO_ODDEVEN_SPLIT || algo == SN_ALGO_BITONIC_SPLIT;
    if (lists) {
        w = wires(n);
        tmp = sn_calloc(2 * (size_t)n + 80, sizeof *tmp);
        if (!w || !tmp)
            bd.st = SN_ENOMEM;
    }
    if (algo == SN_ALGO_BALANCED && !(buf = sn_calloc((size_t)n / 2 + 1, sizeof *buf)))
        bd.st = SN_ENOMEM;
    if (bd.st == SN_OK) {
        switch (algo) {
        case SN_ALGO_ODDEVEN_SPLIT: oem_sort(&bd, w, n, tmp, 0); break;
        case SN_ALGO_BITONIC_SPLIT: bitonic_sort(&bd, w, n, 0); break;
        case SN_ALGO_BOSE_NELSON: bn_sort(&bd, 0, n); break;
        case SN_ALGO_HIBBARD: hibbard(&bd, n); break;
        case SN_ALGO_MERGE_EXCHANGE: merge_exchange(&bd, n); break;
        case SN_ALGO_BALANCED: balanced(&bd, n, buf); break;
        default: bd.st = SN_EINVAL; break;
        }
    }
    sn_free(w);
    sn_free(tmp);
    sn_free(buf);
    if (bd.st == SN_ENOMEM)
        sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s:%u: out of memory", sn_algo_name(algo), n);
    return bd.st;
}

sn_status sn_construct_blocks(sn_algo algo, uint32_t n, sn_construct_block_fn fn, void *user)
{
    if (algo != SN_ALGO_ODDEVEN_SPLIT && algo != SN_ALGO_BITONIC_SPLIT)
        return SN_OK;
    builder bd = {NULL, NULL, SN_OK, NULL, SIZE_MAX, 0, fn, user};
    uint32_t *w = wires(n);
    uint32_t *tmp = sn_calloc(2 * (size_t)n + 80, sizeof *tmp);
    bd.wdepth = sn_calloc((size_t)n + 1, sizeof *bd.wdepth);
    if (!w || !tmp || !bd.wdepth)
        bd.st = SN_ENOMEM;
    if (bd.st == SN_OK && algo == SN_ALGO_ODDEVEN_SPLIT)
        oem_sort(&bd, w, n, tmp, 0);
    else if (bd.st == SN_OK)
        bitonic_sort(&bd, w, n, 0);
    sn_free(w);
    sn_free(tmp);
    sn_free(bd.wdepth);
    return bd.st;
}

/* A new network on n wires named `name`, or SN_ENOMEM / SN_ELIMIT. */
static sn_status fresh(uint32_t n, const char *name, sn_network **out, sn_diag *diag)
{
    *out = NULL;
    if (n > sn_limits_get().max_wires)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "%s: too many wires (at most %u)", name,
                           sn_limits_get().max_wires);
    sn_network *net = sn_network_create(n);
    if (!net || sn_network_set_name(net, name) != SN_OK) {
        sn_network_destroy(net);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory", name);
    }
    *out = net;
    return SN_OK;
}

static sn_status finish(builder *bd, sn_network **out)
{
    if (bd->st != SN_OK) {
        sn_network_destroy(bd->net);
        *out = NULL;
    }
    return bd->st;
}

sn_status sn_construct_merge(uint32_t a, uint32_t b, sn_network **out, sn_diag *diag)
{
    char name[48];
    snprintf(name, sizeof name, "merge:%u,%u", a, b);
    if ((uint64_t)a + b < 1 || (uint64_t)a + b > UINT32_MAX)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%s: needs 1 <= A + B < 2^32", name);
    sn_status st = fresh(a + b, name, out, diag);
    if (st != SN_OK)
        return st;
    builder bd = {*out, diag, SN_OK, NULL, SIZE_MAX, 0, NULL, NULL};
    uint32_t *w = wires(a + b);
    uint32_t *tmp = sn_calloc(2 * ((size_t)a + b) + 80, sizeof *tmp);
    if (!w || !tmp)
        bd.st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory", name);
    if (bd.st == SN_OK)
        oem_merge(&bd, w, a, w + a, b, tmp);
    sn_free(w);
    sn_free(tmp);
    return finish(&bd, out);
}

sn_status sn_construct_bitonic_merge(uint32_t n, sn_network **out, sn_diag *diag)
{
    char name[48];
    snprintf(name, sizeof name, "bitonic-merge:%u", n);
    sn_status st = fresh(n, name, out, diag);
    if (st != SN_OK)
        return st;
    builder bd = {*out, diag, SN_OK, NULL, SIZE_MAX, 0, NULL, NULL};
    uint32_t *w = wires(n);
    if (!w)
        bd.st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory", name);
    if (bd.st == SN_OK)
        bitonic_merge(&bd, w, n / 2, n);
    sn_free(w);
    return finish(&bd, out);
}

sn_status sn_construct_half_cleaner(uint32_t n, sn_network **out, sn_diag *diag)
{
    char name[48];
    snprintf(name, sizeof name, "half-cleaner:%u", n);
    sn_status st = fresh(n, name, out, diag);
    if (st != SN_OK)
        return st;
    builder bd = {*out, diag, SN_OK, NULL, SIZE_MAX, 0, NULL, NULL};
    uint32_t h = n - n / 2;
    for (uint32_t i = 0; i < n / 2 && bd.st == SN_OK; i++)
        emit(&bd, i, i + h);
    return finish(&bd, out);
}
