/* check_reduce.c - the exact reduction for large n (n <= 64): reachable
 * 0-1 patterns per cluster of wires.
 *
 * Invariant: the wires are partitioned into clusters; before layer L, the
 * inputs restricted to a cluster's wires that the first L layers can turn
 * into pattern p are exactly those counted in the cluster's set entry for
 * p (cnt of them, the smallest being minin). Two clusters never share a
 * comparator so far, so the reachable patterns of the whole network are
 * the product of the clusters' sets - that is what makes it exact.
 *
 * A layer joins clusters by its comparators: the product of the joined
 * sets is enumerated, each combination pushed through the layer's
 * comparators on those wires, and the results deduplicated in a hash set
 * (smallest input kept, counts added). Batcher's networks merge two sorted
 * halves, so sets stay near (n/2 + 1)^2. Once one cluster spans all wires,
 * its patterns are transposed 64 at a time into bit-sliced words and
 * pushed through the rest of the network (two word operations per
 * comparator per 64 patterns); a pattern fails when its output is not
 * ascending. Patterns are 64-bit masks over the global wire numbers. */
#include "core/check_impl.h"

#include <math.h>
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"

/* Without force: the most combinations one layer may enumerate, and the
 * largest set kept (24 bytes an entry + the hash table). */
#define MAX_PRODUCT_DEFAULT ((double)(1u << 28))
#define MAX_SET_DEFAULT ((size_t)1 << 23)
#define MAX_SET_FORCE ((size_t)0xFFFFFFF0u) /* 32-bit hash slots */

typedef struct pset {
    uint64_t *pat, *minin, *cnt;
    size_t len, cap;
    uint32_t *table; /* index + 1 into the arrays; 0 = empty */
    size_t tmask;
} pset;

typedef struct cluster {
    uint64_t wires;
    pset set;
} cluster;

static void pset_free(pset *s)
{
    sn_free(s->pat);
    sn_free(s->minin);
    sn_free(s->cnt);
    sn_free(s->table);
    memset(s, 0, sizeof *s);
}

static sn_status pset_grow(pset *s, size_t cap)
{
    if (cap <= s->cap)
        return SN_OK;
    size_t bytes;
    if (!sn_mul_size(cap, sizeof(uint64_t), &bytes))
        return SN_ENOMEM;
    uint64_t *p = sn_realloc(s->pat, bytes);
    if (!p)
        return SN_ENOMEM;
    s->pat = p;
    p = sn_realloc(s->minin, bytes);
    if (!p)
        return SN_ENOMEM;
    s->minin = p;
    p = sn_realloc(s->cnt, bytes);
    if (!p)
        return SN_ENOMEM;
    s->cnt = p;
    s->cap = cap;
    return SN_OK;
}

static size_t hash_slot(uint64_t pat, size_t mask)
{
    pat ^= pat >> 31;
    pat *= 0x9E3779B97F4A7C15ull;
    pat ^= pat >> 29;
    return (size_t)pat & mask;
}

static sn_status table_resize(pset *s, size_t slots)
{
    uint32_t *t = sn_calloc(slots, sizeof *t);
    if (!t)
        return SN_ENOMEM;
    sn_free(s->table);
    s->table = t;
    s->tmask = slots - 1;
    for (size_t i = 0; i < s->len; i++) {
        size_t h = hash_slot(s->pat[i], s->tmask);
        while (t[h])
            h = (h + 1) & s->tmask;
        t[h] = (uint32_t)(i + 1);
    }
    return SN_OK;
}

/* Add (pat, minin, cnt): a new entry, or merged into the existing one. */
static sn_status pset_insert(pset *s, uint64_t pat, uint64_t minin, uint64_t cnt, size_t max_len)
{
    if (!s->table || (s->len + 1) * 2 > s->tmask + 1) {
        sn_status st = table_resize(s, s->table ? (s->tmask + 1) * 2 : 64);
        if (st != SN_OK)
            return st;
    }
    size_t h = hash_slot(pat, s->tmask);
    for (;;) {
        uint32_t e = s->table[h];
        if (!e)
            break;
        if (s->pat[e - 1] == pat) {
            if (minin < s->minin[e - 1])
                s->minin[e - 1] = minin;
            s->cnt[e - 1] += cnt;
            return SN_OK;
        }
        h = (h + 1) & s->tmask;
    }
    if (s->len >= max_len)
        return SN_ELIMIT;
    if (s->len == s->cap) {
        sn_status st = pset_grow(s, s->cap ? s->cap * 2 : 64);
        if (st != SN_OK)
            return st;
    }
    s->pat[s->len] = pat;
    s->minin[s->len] = minin;
    s->cnt[s->len] = cnt;
    s->len++;
    s->table[h] = (uint32_t)s->len;
    return SN_OK;
}

/* Transpose a 64x64 bit matrix in place: bit c of a[r] <-> bit r of a[c]. */
static void transpose64(uint64_t a[64])
{
    uint64_t m = 0x00000000FFFFFFFFull;
    for (unsigned j = 32; j; j >>= 1, m ^= m << j) {
        for (unsigned k = 0; k < 64; k = ((k | j) + 1) & ~j) {
            uint64_t t = ((a[k] >> j) ^ a[k | j]) & m;
            a[k] ^= t << j;
            a[k | j] ^= t;
        }
    }
}

/* Streaming: the patterns A x B (or A alone), 64 at a time, transposed
 * into bit-sliced words and pushed through comparators [c0, ncmp) on all
 * threads. Each thread keeps its own failing count, smallest failing
 * input and swap flags, merged at the end. */
typedef struct stream_job {
    check_ctx *c;
    const pset *A, *B; /* B NULL: A alone */
    uint64_t total, nblocks, chunk, nchunks;
    size_t c0;
    const uint8_t *swapped; /* flags known before streaming (read-only) */
    atomic_uint_fast64_t next;
} stream_job;

typedef struct stream_thread {
    stream_job *job;
    unsigned id;
    uint8_t *found; /* per comparator from c0: seen to swap */
    uint64_t failing, min_failing;
} stream_thread;

static void entry_at(const stream_job *jb, uint64_t t, uint64_t *pat, uint64_t *minin,
                     uint64_t *cnt)
{
    if (!jb->B) {
        *pat = jb->A->pat[t];
        *minin = jb->A->minin[t];
        *cnt = jb->A->cnt[t];
        return;
    }
    size_t i = (size_t)(t / jb->B->len), e = (size_t)(t % jb->B->len);
    *pat = jb->A->pat[i] | jb->B->pat[e];
    *minin = jb->A->minin[i] + jb->B->minin[e];
    *cnt = jb->A->cnt[i] * jb->B->cnt[e];
}

static void *stream_worker(void *arg)
{
    stream_thread *t = arg;
    stream_job *jb = t->job;
    check_ctx *c = jb->c;
    const uint32_t n = c->n;
    const size_t nops = c->ncmp - jb->c0;
    const sn_comparator *ops = c->cmp + jb->c0;
    size_t watching = 0;
    for (size_t j = 0; j < nops; j++)
        watching += !jb->swapped[jb->c0 + j];
    uint64_t w[64];
    for (;;) {
        if (check_cancelled(c))
            break;
        uint64_t k = atomic_fetch_add(&jb->next, 1);
        if (k >= jb->nchunks)
            break;
        uint64_t b1 = (k + 1) * jb->chunk < jb->nblocks ? (k + 1) * jb->chunk : jb->nblocks;
        for (uint64_t blk = k * jb->chunk; blk < b1; blk++) {
            uint64_t t0 = blk * 64u;
            unsigned cnt = jb->total - t0 < 64 ? (unsigned)(jb->total - t0) : 64u;
            memset(w, 0, sizeof w);
            if (jb->B) {
                size_t i = (size_t)(t0 / jb->B->len), e = (size_t)(t0 % jb->B->len);
                for (unsigned l = 0; l < cnt; l++) {
                    w[l] = jb->A->pat[i] | jb->B->pat[e];
                    if (++e == jb->B->len) {
                        e = 0;
                        i++;
                    }
                }
            } else {
                memcpy(w, jb->A->pat + t0, cnt * sizeof *w);
            }
            transpose64(w);
            uint64_t valid = cnt == 64 ? ~(uint64_t)0 : ((uint64_t)1 << cnt) - 1;
            if (watching) {
                for (size_t j = 0; j < nops; j++) {
                    uint64_t x = w[ops[j].a], y = w[ops[j].b];
                    if (!t->found[j] && !jb->swapped[jb->c0 + j] && (x & ~y & valid)) {
                        t->found[j] = 1;
                        watching--;
                    }
                    w[ops[j].a] = x & y;
                    w[ops[j].b] = x | y;
                }
            } else {
                for (size_t j = 0; j < nops; j++) {
                    uint64_t x = w[ops[j].a], y = w[ops[j].b];
                    w[ops[j].a] = x & y;
                    w[ops[j].b] = x | y;
                }
            }
            uint64_t bad = 0;
            for (uint32_t i = 0; i + 1 < n; i++)
                bad |= w[i] & ~w[i + 1];
            bad &= valid;
            while (bad) {
                uint64_t pat, minin, num;
                entry_at(jb, t0 + (uint64_t)__builtin_ctzll(bad), &pat, &minin, &num);
                bad &= bad - 1;
                t->failing += num;
                if (minin < t->min_failing)
                    t->min_failing = minin;
            }
        }
        if (t->id == 0) {
            double f = (double)jb->c0 + (double)nops * (double)k / (double)jb->nchunks;
            check_progress(c, c->ncmp ? f / (double)c->ncmp : 1.0);
        }
    }
    return NULL;
}

/* Worker w of sn_parallel_workers (ctx: the stream_thread array). The hot
 * loop stays in stream_worker, compiled as before the seam. */
static void stream_run(void *ctx, unsigned worker)
{
    stream_worker(&((stream_thread *)ctx)[worker]);
}

static sn_status stream(check_ctx *c, const pset *A, const pset *B, size_t c0, bool force,
                        check_outcome *out, sn_diag *diag)
{
    stream_job jb;
    memset(&jb, 0, sizeof jb);
    jb.c = c;
    jb.A = A;
    jb.B = B;
    jb.c0 = c0;
    jb.swapped = out->swapped;
    double total = (double)A->len * (B ? (double)B->len : 1.0);
    /* the same cost model as brute force: ~1.5e11 comparator-patterns/s */
    double est = total * ((double)(c->ncmp - c0) + 40.0) / (1.5e11 * (double)c->threads);
    double max_est = c->reduce_max_stream_seconds > 0.0 ? c->reduce_max_stream_seconds : 60.0;
    if (!force && (est > max_est || total > 1.8e19))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "the reduction would push 2^%.1f patterns through %zu comparators "
                           "(about %.3g s on %u thread(s)); refusing without force",
                           log2(total), c->ncmp - c0, est, c->threads);
    jb.total = (uint64_t)total;
    if (B && jb.total / B->len != A->len)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "too many patterns");
    jb.nblocks = (jb.total + 63) / 64;
    jb.chunk = 64;
    jb.nchunks = (jb.nblocks + jb.chunk - 1) / jb.chunk;
    atomic_init(&jb.next, 0);
    unsigned nt = c->threads;
    if ((uint64_t)nt > jb.nchunks)
        nt = jb.nchunks ? (unsigned)jb.nchunks : 1u;
    size_t nops = c->ncmp - c0;
    stream_thread *th = sn_calloc(nt, sizeof *th);
    sn_status st = th ? SN_OK : SN_ENOMEM;
    for (unsigned i = 0; st == SN_OK && i < nt; i++) {
        th[i].job = &jb;
        th[i].id = i;
        th[i].min_failing = UINT64_MAX;
        th[i].found = sn_calloc(nops ? nops : 1, 1);
        if (!th[i].found)
            st = SN_ENOMEM;
    }
    if (st == SN_OK) {
        sn_parallel_workers(nt, stream_run, th);
        if (check_cancelled(c))
            st = SN_EINTERRUPTED;
    }
    if (st == SN_OK) {
        for (unsigned i = 0; i < nt; i++) {
            out->failing_count += th[i].failing;
            if (th[i].min_failing < out->min_failing)
                out->min_failing = th[i].min_failing;
            for (size_t j = 0; j < nops; j++)
                out->swapped[c0 + j] |= th[i].found[j];
        }
        out->inputs += jb.total;
    }
    for (unsigned i = 0; th && i < nt; i++)
        sn_free(th[i].found);
    sn_free(th);
    if (st == SN_EINTERRUPTED)
        return sn_diag_set(diag, st, 0, 0, "stopped on request");
    if (st != SN_OK)
        return sn_diag_set(diag, st, 0, 0, "out of memory");
    return SN_OK;
}

typedef struct reduce_state {
    check_ctx *c;
    check_outcome *out;
    cluster *cl;
    size_t ncl;
    double max_product;
    size_t max_set;
    size_t *members; /* scratch, n entries */
    size_t *idx;     /* odometer, n entries */
    sn_comparator *gcmp;
    size_t *gcmp_index; /* global index of each group comparator */
} reduce_state;

/* Replace clusters members[0..k) by one cluster: their product pushed
 * through comparators gcmp[0..g). The result goes into *dst. */
static sn_status combine(reduce_state *r, size_t k, size_t g, size_t layer, cluster *dst,
                         sn_diag *diag)
{
    check_ctx *c = r->c;
    double product = 1.0;
    uint64_t wires = 0;
    for (size_t m = 0; m < k; m++) {
        product *= (double)r->cl[r->members[m]].set.len;
        wires |= r->cl[r->members[m]].wires;
    }
    if (product > r->max_product)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "the reduction would combine 2^%.1f patterns at layer %zu (limit "
                           "2^%.0f without force)",
                           log2(product), layer + 1, log2(r->max_product));
    memset(dst, 0, sizeof *dst);
    dst->wires = wires;
    size_t *idx = r->idx;
    memset(idx, 0, k * sizeof *idx);
    const pset *last = &r->cl[r->members[k - 1]].set;
    uint64_t done = 0;
    for (;;) {
        /* the combination of members 0..k-2, then every entry of the last */
        uint64_t pat = 0, minin = 0, cnt = 1;
        for (size_t m = 0; m + 1 < k; m++) {
            const pset *s = &r->cl[r->members[m]].set;
            pat |= s->pat[idx[m]];
            minin += s->minin[idx[m]];
            cnt *= s->cnt[idx[m]];
        }
        for (size_t e = 0; e < last->len; e++) {
            uint64_t p = pat | last->pat[e];
            for (size_t j = 0; j < g; j++) {
                uint64_t ba = (p >> r->gcmp[j].a) & 1u, bb = (p >> r->gcmp[j].b) & 1u;
                if (ba & ~bb) {
                    p ^= ((uint64_t)1 << r->gcmp[j].a) | ((uint64_t)1 << r->gcmp[j].b);
                    r->out->swapped[r->gcmp_index[j]] = 1;
                }
            }
            sn_status st =
                pset_insert(&dst->set, p, minin + last->minin[e], cnt * last->cnt[e], r->max_set);
            if (st != SN_OK) {
                pset_free(&dst->set);
                if (st == SN_ELIMIT)
                    return sn_diag_set(diag, st, 0, 0,
                                       "the reduction would hold more than %zu patterns at "
                                       "layer %zu (limit without force)",
                                       r->max_set, layer + 1);
                return sn_diag_set(diag, st, 0, 0, "out of memory");
            }
        }
        done += last->len;
        if ((done & ~(uint64_t)0xFFFFF) != ((done - last->len) & ~(uint64_t)0xFFFFF) &&
            check_cancelled(c)) {
            pset_free(&dst->set);
            return sn_diag_set(diag, SN_EINTERRUPTED, 0, 0, "stopped on request");
        }
        /* advance the odometer over members 0..k-2 */
        size_t m = k - 1;
        while (m > 0) {
            m--;
            if (++idx[m] < r->cl[r->members[m]].set.len)
                break;
            idx[m] = 0;
            if (m == 0) {
                m = SIZE_MAX;
                break;
            }
        }
        if (k == 1 || m == SIZE_MAX)
            break;
    }
    r->out->inputs += done;
    /* the hash table is only needed while building */
    sn_free(dst->set.table);
    dst->set.table = NULL;
    dst->set.tmask = 0;
    if (dst->set.len > r->out->max_patterns)
        r->out->max_patterns = dst->set.len;
    return SN_OK;
}

/* Process one group of clusters: members[0..k), comparators from layer L
 * whose wires lie in them. Replaces the members by the combined cluster. */
static sn_status layer_group(reduce_state *r, size_t k, size_t g, size_t layer, sn_diag *diag)
{
    cluster merged;
    sn_status st = combine(r, k, g, layer, &merged, diag);
    if (st != SN_OK)
        return st;
    /* the first member's slot holds the result, the others die */
    for (size_t m = 0; m < k; m++)
        pset_free(&r->cl[r->members[m]].set);
    r->cl[r->members[0]] = merged;
    for (size_t m = 1; m < k; m++)
        r->cl[r->members[m]].wires = 0; /* marks a dead slot */
    return SN_OK;
}

static void compact(reduce_state *r)
{
    size_t j = 0;
    for (size_t i = 0; i < r->ncl; i++)
        if (r->cl[i].wires)
            r->cl[j++] = r->cl[i];
    r->ncl = j;
}

/* Within a layer, clusters are joined two at a time in comparator order;
 * each join applies every comparator of the layer that lies inside the
 * joined wires (they touch disjoint wires, so they commute). The join that
 * leaves one cluster spanning everything is not materialized: its product
 * is streamed through the rest of the network, starting again at this
 * layer (re-applying a comparator changes nothing: it is idempotent). */
static sn_status reduce_layers(reduce_state *r, size_t *cl_of, uint8_t *applied, sn_diag *diag)
{
    check_ctx *c = r->c;
    size_t alive = r->ncl;
    for (size_t L = 0; L < c->nlayers; L++) {
        if (alive == 1)
            return stream(c, &r->cl[0].set, NULL, c->layer_off[L], c->force, r->out, diag);
        if (check_cancelled(c))
            return sn_diag_set(diag, SN_EINTERRUPTED, 0, 0, "stopped on request");
        check_progress(c, c->ncmp ? (double)c->layer_off[L] / (double)c->ncmp : 1.0);
        for (size_t i = 0; i < r->ncl; i++)
            for (uint64_t w = r->cl[i].wires; w; w &= w - 1)
                cl_of[__builtin_ctzll(w)] = i;
        size_t c0 = c->layer_off[L], c1 = c->layer_off[L + 1];
        memset(applied, 0, c1 - c0);
        for (size_t j = c0; j < c1; j++) {
            if (applied[j - c0])
                continue;
            size_t x = cl_of[c->cmp[j].a], y = cl_of[c->cmp[j].b];
            if (x != y && alive == 2)
                return stream(c, &r->cl[x].set, &r->cl[y].set, c0, c->force, r->out, diag);
            size_t k = 0, g = 0;
            r->members[k++] = x;
            uint64_t wires = r->cl[x].wires;
            if (x != y) {
                r->members[k++] = y;
                wires |= r->cl[y].wires;
            }
            for (size_t i = j; i < c1; i++) {
                if (!applied[i - c0] && ((wires >> c->cmp[i].a) & 1u) &&
                    ((wires >> c->cmp[i].b) & 1u)) {
                    applied[i - c0] = 1;
                    r->gcmp[g] = c->cmp[i];
                    r->gcmp_index[g++] = i;
                }
            }
            sn_status st = layer_group(r, k, g, L, diag);
            if (st != SN_OK)
                return st;
            for (uint64_t w = wires; w; w &= w - 1)
                cl_of[__builtin_ctzll(w)] = x;
            alive -= k - 1;
        }
        compact(r);
    }
    /* Clusters never joined (a network that leaves wires apart): the
     * outputs are the product of their sets. */
    while (alive > 2) {
        r->members[0] = 0;
        r->members[1] = 1;
        sn_status st = layer_group(r, 2, 0, c->nlayers, diag);
        if (st != SN_OK)
            return st;
        compact(r);
        alive--;
    }
    return stream(c, &r->cl[0].set, alive == 2 ? &r->cl[1].set : NULL, c->ncmp, c->force, r->out,
                  diag);
}

sn_status check_reduce(check_ctx *c, check_outcome *out, sn_diag *diag)
{
    if (c->n > 64)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "the reduction handles n <= 64 wires (this network has %u)", c->n);
    out->failing_count = 0;
    out->min_failing = UINT64_MAX;
    out->inputs = 0;
    out->max_patterns = 0;
    if (c->n == 0)
        return SN_OK;
    reduce_state r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.out = out;
    r.max_product = c->force                    ? INFINITY
                    : c->reduce_max_product > 0 ? c->reduce_max_product
                                                : MAX_PRODUCT_DEFAULT;
    r.max_set = c->force ? MAX_SET_FORCE : c->reduce_max_set ? c->reduce_max_set : MAX_SET_DEFAULT;
    size_t n = c->n;
    r.cl = sn_calloc(n, sizeof *r.cl);
    r.members = sn_calloc(n, sizeof *r.members);
    r.idx = sn_calloc(n, sizeof *r.idx);
    r.gcmp = sn_calloc(n, sizeof *r.gcmp);
    r.gcmp_index = sn_calloc(n, sizeof *r.gcmp_index);
    size_t *cl_of = sn_calloc(n, sizeof *cl_of);
    uint8_t *applied = sn_calloc(n, 1);
    sn_status st = SN_OK;
    if (!r.cl || !r.members || !r.idx || !r.gcmp || !r.gcmp_index || !cl_of || !applied) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
        goto done;
    }
    /* each wire alone: patterns 0 (input 0) and 1 (input 1 << i) */
    for (size_t i = 0; i < n; i++) {
        cluster *k = &r.cl[r.ncl];
        k->wires = (uint64_t)1 << i;
        r.ncl++; /* counted first, so a partial set is freed below */
        if (pset_grow(&k->set, 2) != SN_OK) {
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
            goto done;
        }
        k->set.pat[0] = 0;
        k->set.minin[0] = 0;
        k->set.cnt[0] = 1;
        k->set.pat[1] = k->wires;
        k->set.minin[1] = k->wires;
        k->set.cnt[1] = 1;
        k->set.len = 2;
    }
    if (out->max_patterns < 2)
        out->max_patterns = 2;
    st = reduce_layers(&r, cl_of, applied, diag);
done:
    for (size_t i = 0; r.cl && i < r.ncl; i++)
        pset_free(&r.cl[i].set);
    sn_free(r.cl);
    sn_free(r.members);
    sn_free(r.idx);
    sn_free(r.gcmp);
    sn_free(r.gcmp_index);
    sn_free(cl_of);
    sn_free(applied);
    return st;
}
