/* structure.c - the labelled blocks of a generated network's construction.
 *
 * Everything is read off the schedule itself: each layer's shape (the
 * generator's block size and distance, sn_schedule_layer_shape) and stage
 * say which merge or round it belongs to, so layers left empty by dropping
 * wires >= n never need to be guessed. A group is "the blocks of m wires
 * over layers L0..L1"; a block of a group is kept when a comparator of
 * those layers has both ends inside it, and its direction (for the classic
 * bitonic form) is that of the comparators inside it. */
#include "core/structure.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/construct.h" /* for: sn_construct_blocks (balanced splits) */

typedef struct ctx {
    const sn_schedule *s;
    uint32_t n;
    sn_block *blocks;
    size_t count, cap;
    sn_comparator *pairs; /* scratch: one layer */
    size_t pairs_cap;
    uint8_t *mark; /* scratch per block of a group: 1 inside, 2 descending */
} ctx;

/* log2 of a power of two (every size here is one) */
static uint32_t log2_of(uint32_t pow2)
{
    return pow2 ? (uint32_t)__builtin_ctz(pow2) : 0;
}

static sn_status push(ctx *c, const sn_block *b)
{
    if (c->count == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 64, bytes;
        sn_block *nb = NULL;
        if (sn_mul_size(cap, sizeof *nb, &bytes))
            nb = sn_realloc(c->blocks, bytes);
        if (!nb)
            return SN_ENOMEM;
        c->blocks = nb;
        c->cap = cap;
    }
    c->blocks[c->count++] = *b;
    return SN_OK;
}

/* Blocks of m wires over layers l0..l1 at `depth`. The label is
 * "<word> <m>" ("<word> <m/2>+<m/2>" when halves) with, when arrows, the
 * direction of the block: down when its comparators in layers dir0..l1
 * (its final merge) are reversed. */
static sn_status group(ctx *c, size_t l0, size_t dir0, size_t l1, uint32_t m, uint32_t depth,
                       const char *word, bool halves, bool arrows)
{
    uint32_t nb = (c->n + m - 1) / m;
    memset(c->mark, 0, nb);
    for (size_t k = l0; k <= l1; k++) {
        size_t cnt = sn_schedule_layer_pairs(c->s, k, c->pairs, c->pairs_cap);
        for (size_t i = 0; i < cnt && i < c->pairs_cap; i++) {
            uint32_t a = c->pairs[i].a, b = c->pairs[i].b;
            if (a / m != b / m)
                continue;
            c->mark[a / m] |= (uint8_t)(1u | (a > b && k >= dir0 ? 2u : 0u));
        }
    }
    for (uint32_t b = 0; b < nb; b++) {
        if (!c->mark[b])
            continue;
        sn_block blk;
        memset(&blk, 0, sizeof blk);
        blk.first_layer = (uint32_t)l0;
        blk.last_layer = (uint32_t)l1;
        blk.first_wire = b * m;
        blk.last_wire = (b + 1) * m - 1 < c->n ? (b + 1) * m - 1 : c->n - 1;
        blk.depth = depth;
        const char *arrow = !arrows ? "" : (c->mark[b] & 2u) ? " \xe2\x86\x93" : " \xe2\x86\x91";
        if (halves)
            snprintf(blk.label, sizeof blk.label, "%s %u+%u%s", word, m / 2, m / 2, arrow);
        else
            snprintf(blk.label, sizeof blk.label, "%s %u%s", word, m, arrow);
        sn_status st = push(c, &blk);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

/* Size of the merge a layer belongs to: bitonic p, odd-even merge 2p. */
static uint32_t merge_size(sn_layer_form f)
{
    return f.algo == SN_ALGO_ODDEVEN_MERGE ? 2 * f.p : f.p;
}

/* Layers [*l0, *l1] whose merge size is in [lo, hi]: contiguous in a
 * Batcher schedule. false when none. */
static bool layers_with(const sn_schedule *s, uint32_t lo, uint32_t hi, size_t *l0, size_t *l1)
{
    size_t L = sn_schedule_layer_count(s);
    bool any = false;
    for (size_t k = 0; k < L; k++) {
        uint32_t m = merge_size(sn_schedule_layer_shape(s, k));
        if (m < lo || m > hi)
            continue;
        if (!any)
            *l0 = k;
        *l1 = k;
        any = true;
    }
    return any;
}

/* Bitonic (both forms) and odd-even merge: sort m = two sorts of m/2 and a
 * merge of m; bitonic merges hold half-cleaners. */
static sn_status batcher(ctx *c, sn_algo algo, uint32_t N)
{
    bool classic = algo == SN_ALGO_BITONIC_CLASSIC, oem = algo == SN_ALGO_ODDEVEN_MERGE;
    uint32_t K = log2_of(N);
    sn_status st = SN_OK;
    size_t l0 = 0, l1 = 0, m0 = 0, m1 = 0; /* set by layers_with when it answers true */
    for (uint32_t m = 4; st == SN_OK && m != 0 && m <= N; m <<= 1) {
        uint32_t depth = K - log2_of(m);
        if (!layers_with(c->s, m, m, &m0, &m1))
            continue; /* every layer of this merge was dropped */
        if (m < N && layers_with(c->s, 2, m, &l0, &l1))
            st = group(c, l0, m0, l1, m, depth - 1, "sort", false, classic);
        if (st == SN_OK)
            st = group(c, m0, m0, m1, m, depth, "merge", oem, classic);
    }
    if (oem)
        return st;
    size_t L = sn_schedule_layer_count(c->s);
    for (size_t k = 0; st == SN_OK && k < L; k++) {
        sn_layer_form f = sn_schedule_layer_shape(c->s, k);
        bool cleaner = classic ? f.q <= f.p / 2 : f.q < f.p / 2;
        if (cleaner && 2 * f.q >= 4)
            st = group(c, k, k, k, 2 * f.q, K - log2_of(f.p) + 1, "half-cleaner", false, false);
    }
    return st;
}

/* One block over all wires per run of layers of one stage (those with
 * shape q != 0 only for pairwise's second phase), numbered from 1; the
 * first phase of pairwise is one block "pairs". */
static sn_status rounds(ctx *c, bool pairwise)
{
    size_t L = sn_schedule_layer_count(c->s), k = 0;
    uint32_t r = 0;
    sn_status st = SN_OK;
    while (st == SN_OK && k < L) {
        size_t e = k;
        bool first_phase = pairwise && sn_schedule_layer_shape(c->s, k).q == 0;
        while (e + 1 < L && (first_phase ? sn_schedule_layer_shape(c->s, e + 1).q == 0
                                         : sn_schedule_layer_stage(c->s, e + 1) ==
                                               sn_schedule_layer_stage(c->s, k)))
            e++;
        sn_block blk;
        memset(&blk, 0, sizeof blk);
        blk.first_layer = (uint32_t)k;
        blk.last_layer = (uint32_t)e;
        blk.last_wire = c->n - 1;
        if (first_phase)
            snprintf(blk.label, sizeof blk.label, "pairs");
        else
            snprintf(blk.label, sizeof blk.label, "round %u", ++r);
        st = push(c, &blk);
        k = e + 1;
    }
    return st;
}

/* The balanced splits' blocks come from their construction. */
static void split_block(void *user, const char *word, uint32_t w0, uint32_t w1, size_t l0,
                        size_t l1, uint32_t depth, uint32_t a, uint32_t b)
{
    ctx *c = user;
    sn_block blk;
    memset(&blk, 0, sizeof blk);
    blk.first_layer = (uint32_t)l0;
    blk.last_layer = (uint32_t)l1;
    blk.first_wire = w0;
    blk.last_wire = w1;
    blk.depth = depth;
    if (strcmp(word, "merge+") == 0)
        snprintf(blk.label, sizeof blk.label, "merge %u+%u", a, b);
    else
        snprintf(blk.label, sizeof blk.label, "%s %u", word, a + b);
    if (push(c, &blk) != SN_OK)
        c->n = 0; /* reported as out of memory below */
}

static int block_order(const void *x, const void *y)
{
    const sn_block *p = x, *q = y;
    uint32_t a[5] = {p->depth, p->first_layer, p->first_wire, p->last_layer, p->last_wire};
    uint32_t b[5] = {q->depth, q->first_layer, q->first_wire, q->last_layer, q->last_wire};
    for (int i = 0; i < 5; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

sn_status sn_structure_blocks(const sn_schedule *s, sn_block **out, size_t *count, sn_diag *diag)
{
    if (!s || !out || !count)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_structure_blocks: no schedule");
    *out = NULL;
    *count = 0;
    ctx c;
    memset(&c, 0, sizeof c);
    c.s = s;
    c.n = sn_schedule_wires(s);
    sn_algo algo = sn_schedule_algo(s);
    uint32_t N = 1;
    while (N < c.n && N < (1u << 31))
        N <<= 1;
    size_t L = sn_schedule_layer_count(s);
    for (size_t k = 0; k < L; k++) {
        size_t sz = sn_schedule_layer_size(s, k);
        c.pairs_cap = sz > c.pairs_cap ? sz : c.pairs_cap;
    }
    c.pairs = sn_calloc(c.pairs_cap ? c.pairs_cap : 1, sizeof *c.pairs);
    c.mark = sn_calloc(c.n ? c.n : 1, 1);
    sn_status st = (c.pairs && c.mark) ? SN_OK : SN_ENOMEM;
    if (st == SN_OK && c.n >= 2) {
        switch (algo) {
        case SN_ALGO_BITONIC:
        case SN_ALGO_BITONIC_CLASSIC:
        case SN_ALGO_ODDEVEN_MERGE: st = batcher(&c, algo, N); break;
        case SN_ALGO_PAIRWISE: st = rounds(&c, true); break;
        case SN_ALGO_ODDEVEN_SPLIT:
        case SN_ALGO_BITONIC_SPLIT:
            st = sn_construct_blocks(algo, c.n, split_block, &c);
            if (c.n == 0)
                st = SN_ENOMEM;
            break;
        case SN_ALGO_TRANSPOSITION: st = rounds(&c, false); break;
        default: break; /* bubble, insertion, files: no blocks */
        }
    }
    sn_free(c.pairs);
    sn_free(c.mark);
    if (st != SN_OK) {
        sn_free(c.blocks);
        return sn_diag_set(diag, st, 0, 0, "%s: out of memory for the structure blocks",
                           sn_schedule_name(s));
    }
    if (c.count)
        qsort(c.blocks, c.count, sizeof *c.blocks, block_order);
    *out = c.blocks;
    *count = c.count;
    return SN_OK;
}
