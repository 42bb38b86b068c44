/* search.c - the network search (search.h): a prefix, the prefix's distinct
 * unsorted 0-1 outputs as test vectors, and workers that evolve a postfix.
 *
 * Invariants: a worker's current postfix always passes every test vector
 * (it is repaired before it is kept), so prefix + postfix sorts (or
 * selects); test vectors are stored wire-major, one 64-bit word per wire
 * for 64 vectors, padded with the all-zero vector (sorted, so it passes
 * whatever comparators follow). A gene is one comparator (a < b), or with
 * `symmetric` the comparator and its mirror (n-1-b, n-1-a) when that
 * differs. Comparators never add inversions to a 0-1 vector, so the repair
 * (append a comparator that swaps on a failing vector) ends. */
#include "core/search.h"

#include <stdatomic.h>
#include <math.h>   // for: log2 (sizes of pattern sets)
#include <stdlib.h> // for: qsort
#include <string.h>
#include <time.h> // for: clock_gettime (monotonic elapsed time)

#include "core/alloc.h"
#include "core/analysis.h" // for: sn_network_to_standard
#include "core/check.h"

typedef struct gene {
    uint8_t a, b; /* a < b */
    uint8_t used; /* simulate(): one of its comparators swaps on a test vector */
} gene;

static gene mkgene(uint32_t a, uint32_t b)
{
    return (gene){(uint8_t)a, (uint8_t)b, 0};
}

/* The goal size: one step in ESCAPE_RATE may be accepted one comparator
 * worse (measured on 13 wires, docs/search.md). */
#define ESCAPE_RATE 200u

typedef struct genes {
    gene *g;
    size_t len, cap;
} genes;

typedef struct shared {
    const sn_search_options *opt;
    uint32_t n;
    uint64_t maskn;
    bool sym;
    bool layer_repair; /* repair with the comparator that adds the fewest layers */
    size_t nk;
    uint32_t k[2];
    sn_comparator *prefix;
    size_t prefix_len;
    uint32_t prefix_level[SN_SEARCH_MAX_WIRES]; /* per wire: the prefix's layer count on it */
    size_t words;
    uint64_t *tests;  /* n x words, wire-major */
    uint64_t *expect; /* selection: nk x words, the right output bits */
    size_t ntests;
    genes from;
    uint64_t restart_after;
    bool early; /* size goal: reject a mutant once it cannot be accepted */
    double t0;
    /* the best so far */
    atomic_flag lock;
    atomic_uint_fast64_t best_key;
    sn_network *best;
    atomic_int stop;
    atomic_uint_fast64_t iterations, restarts;
    sn_status err;
    sn_diag diag;
    unsigned members;
} shared;

/* States of the worker's current network after its first k * every genes
 * (slot k-1, k = 1..valid): a mutant equal to it up to gene lo starts its
 * simulation from slot lo / every instead of the test vectors. Filled as
 * simulations pass by (genes below lo are the current network's), cut back
 * to lo / every when a mutant is accepted. */
typedef struct snaps {
    uint64_t *s; /* max slots of n x words */
    size_t max, valid;
    size_t every; /* genes between two slots */
} snaps;

typedef struct worker {
    genes cur, cand;
    uint64_t *state; /* n x words */
    snaps snap;
    uint64_t rng;
    uint64_t key;
    uint64_t acc; /* the acceptance measure (accept()) of cur */
} worker;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint32_t rnd(uint64_t *s, uint32_t bound) /* in [0, bound), bound > 0 */
{
    return (uint32_t)(((splitmix(s) >> 32) * (uint64_t)bound) >> 32);
}

const char *sn_search_goal_name(sn_search_goal g)
{
    switch (g) {
    case SN_SEARCH_GOAL_DEPTH: return "depth";
    case SN_SEARCH_GOAL_BOTH: return "both";
    default: return "size";
    }
}

bool sn_search_goal_parse(const char *s, sn_search_goal *out)
{
    for (int g = SN_SEARCH_GOAL_SIZE; g <= SN_SEARCH_GOAL_BOTH; g++)
        if (s && strcmp(s, sn_search_goal_name((sn_search_goal)g)) == 0) {
            *out = (sn_search_goal)g;
            return true;
        }
    return false;
}

bool sn_search_default_symmetric(uint32_t n, sn_search_goal goal)
{
    /* depth, even n: 10 wires reached the optimal 7 layers in 6 of 8 seeds
     * within 10 s with mirror pairs, 1 of 8 without; size, 12 wires: with
     * them and a greedy prefix of 5 pairs, 39 comparators in a median 0.01 s
     * against 0.48 s (5 seeds, docs/search.md); 10, 11 and 14 wires were
     * slower with them */
    return goal == SN_SEARCH_GOAL_DEPTH ? n % 2 == 0 : n == 12;
}

void sn_search_options_init(sn_search_options *opt, uint32_t n)
{
    memset(opt, 0, sizeof *opt);
    opt->n = n;
    opt->threads = 1;
    opt->seed = 1;
    opt->prefix = SN_SEARCH_PREFIX_AUTO;
}

static bool genes_push(genes *v, gene g)
{
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        gene *p = sn_realloc(v->g, cap * sizeof *p);
        if (!p)
            return false;
        v->g = p;
        v->cap = cap;
    }
    v->g[v->len++] = g;
    return true;
}

static bool genes_copy(genes *dst, const genes *src)
{
    if (dst->cap < src->len) {
        size_t cap = dst->cap ? dst->cap : 64;
        while (cap < src->len)
            cap *= 2;
        gene *p = sn_realloc(dst->g, cap * sizeof *p);
        if (!p)
            return false;
        dst->g = p;
        dst->cap = cap;
    }
    if (src->len)
        memcpy(dst->g, src->g, src->len * sizeof *dst->g);
    dst->len = src->len;
    return true;
}

/* The comparators of a gene (1 or 2). */
static unsigned gene_cmps(const shared *sh, gene g, sn_comparator out[2])
{
    out[0] = (sn_comparator){g.a, g.b};
    if (!sh->sym)
        return 1;
    uint32_t ma = sh->n - 1 - g.b, mb = sh->n - 1 - g.a;
    if (ma == g.a && mb == g.b)
        return 1;
    out[1] = (sn_comparator){ma, mb};
    return 2;
}

static void apply(uint64_t *st, size_t words, uint32_t a, uint32_t b)
{
    uint64_t *x = st + (size_t)a * words, *y = st + (size_t)b * words;
    for (size_t i = 0; i < words; i++) {
        uint64_t p = x[i], q = y[i];
        x[i] = p & q;
        y[i] = p | q;
    }
}

/* The failing test vectors in word i of the state, as bits. */
static uint64_t fails(const shared *sh, const uint64_t *st, size_t i)
{
    size_t w = sh->words;
    if (sh->nk == 0) {
        uint64_t f = 0;
        for (uint32_t j = 0; j + 1 < sh->n; j++)
            f |= st[j * w + i] & ~st[(j + 1) * w + i];
        return f;
    }
    uint64_t o0 = st[sh->k[0] * w + i], e0 = sh->expect[i];
    if (sh->nk == 1)
        return o0 ^ e0;
    uint64_t o1 = st[sh->k[1] * w + i], e1 = sh->expect[w + i];
    return ((o0 & o1) ^ (e0 & e1)) | ((o0 | o1) ^ (e0 | e1));
}

/* The test vectors through v into st, marking each gene used when one of
 * its comparators swaps on some vector (prune() drops the others). Returns
 * false when the mutant cannot come out at limit comparators or fewer: the
 * comparators of its used genes (all that prune() keeps), plus one when a
 * test vector still fails (repair() appends at least one), are then already
 * over it, so repair, prune and measure are skipped (limit SIZE_MAX: never;
 * the goal size only, where the acceptance measure is the size); the
 * simulation stops as soon as the used genes are over it. *used_out: those
 * comparators and the prefix's (set when true is returned). sp (NULL: none)
 * the worker's snapshots of its current network, whose first lo genes v
 * shares: the simulation starts from the last slot at or before lo and
 * fills the slots it passes below lo. */
static bool simulate(const shared *sh, genes *v, uint64_t *st, size_t limit, size_t *used_out,
                     snaps *sp, size_t lo)
{
    size_t w = sh->words, used = sh->prefix_len, words = (size_t)sh->n * w, start = 0;
    size_t k = sp && sp->every ? lo / sp->every : 0;
    if (sp && k > sp->valid)
        k = sp->valid;
    if (k) {
        start = k * sp->every;
        memcpy(st, sp->s + (k - 1) * words, words * sizeof *st);
        for (size_t i = 0; i < start; i++) { /* the current network's genes: all swap */
            sn_comparator c[2];
            used += gene_cmps(sh, v->g[i], c);
        }
    } else {
        memcpy(st, sh->tests, words * sizeof *st);
    }
    for (size_t i = start; i < v->len; i++) {
        sn_comparator c[2];
        unsigned m = gene_cmps(sh, v->g[i], c);
        uint64_t swaps = 0;
        for (unsigned j = 0; j < m; j++) {
            uint64_t *x = st + (size_t)c[j].a * w, *y = st + (size_t)c[j].b * w;
            for (size_t q = 0; q < w; q++) {
                uint64_t p = x[q], r = y[q];
                swaps |= p & ~r;
                x[q] = p & r;
                y[q] = p | r;
            }
        }
        v->g[i].used = swaps != 0;
        used += swaps ? m : 0;
        if (sp && sp->every && i + 1 <= lo && (i + 1) % sp->every == 0 &&
            (i + 1) / sp->every == sp->valid + 1 && sp->valid < sp->max) {
            memcpy(sp->s + sp->valid * words, st, words * sizeof *st);
            sp->valid++;
        }
        if (used > limit) /* over already: the rest cannot bring it down */
            return false;
    }
    *used_out = used;
    if (limit == SIZE_MAX || used < limit)
        return true;
    if (used > limit)
        return false;
    for (size_t q = 0; q < w; q++)
        if (fails(sh, st, q))
            return false;
    return true;
}

/* The position of the r-th (from 0) set bit of x (r < popcount(x)). */
static uint32_t nth_bit(uint64_t x, uint32_t r)
{
    for (; r; r--)
        x &= x - 1;
    return (uint32_t)__builtin_ctzll(x);
}

/* A gene that swaps on the failing 0-1 vector x (bit j = wire j). With lv
 * (the layer count on each wire so far; the depth goals) the inversion whose
 * comparator lands in the earliest layer, ties broken at random: appended
 * there it adds the fewest layers. */
static gene repair_gene(const shared *sh, uint64_t x, const uint32_t *lv, uint64_t *rng)
{
    uint32_t n = sh->n;
    if (sh->nk) {
        uint32_t ones = (uint32_t)__builtin_popcountll(x);
        for (size_t t = 0; t < sh->nk; t++) {
            uint32_t k = sh->k[t];
            bool want = k >= n - ones, have = (x >> k) & 1;
            if (want == have)
                continue;
            uint32_t cand[SN_SEARCH_MAX_WIRES], m = 0;
            if (have) /* a 1 on k that belongs higher: a 0 above k */
                for (uint32_t j = k + 1; j < n; j++) {
                    if (!((x >> j) & 1))
                        cand[m++] = j;
                }
            else
                for (uint32_t j = 0; j < k; j++)
                    if ((x >> j) & 1)
                        cand[m++] = j;
            if (m) {
                uint32_t o = cand[rnd(rng, m)];
                return have ? mkgene(k, o) : mkgene(o, k);
            }
        }
    }
    if (lv) {
        uint32_t best_l = UINT32_MAX, ties = 0;
        gene best = {0, 0, 0};
        for (uint32_t a = 0; a + 1 < n; a++) {
            if (!((x >> a) & 1))
                continue;
            for (uint32_t b = a + 1; b < n; b++) {
                if ((x >> b) & 1)
                    continue;
                sn_comparator c[2];
                unsigned m = gene_cmps(sh, mkgene(a, b), c);
                uint32_t l = 0;
                for (unsigned j = 0; j < m; j++) {
                    uint32_t q = lv[c[j].a] > lv[c[j].b] ? lv[c[j].a] : lv[c[j].b];
                    l = q > l ? q : l;
                }
                if (l < best_l) {
                    best_l = l;
                    best = mkgene(a, b);
                    ties = 1;
                } else if (l == best_l && rnd(rng, ++ties) == 0) {
                    best = mkgene(a, b);
                }
            }
        }
        return best; /* x fails: it has an inversion */
    }
    /* a random inversion, uniformly: a < b, a holds 1, b holds 0 (counted,
     * not drawn until one fits: a vector with few inversions made that loop
     * most of a step's time, measured with perf on 13 wires) */
    uint64_t zeros = ~x & sh->maskn;
    uint32_t total = 0;
    for (uint64_t ones = x; ones; ones &= ones - 1) {
        uint32_t a = (uint32_t)__builtin_ctzll(ones);
        if (a + 1 < 64)
            total += (uint32_t)__builtin_popcountll(zeros >> (a + 1));
    }
    uint32_t r = rnd(rng, total); /* total >= 1: x fails */
    for (uint64_t ones = x;; ones &= ones - 1) {
        uint32_t a = (uint32_t)__builtin_ctzll(ones);
        uint64_t above = a + 1 < 64 ? zeros >> (a + 1) : 0;
        uint32_t c = (uint32_t)__builtin_popcountll(above);
        if (r < c)
            return mkgene(a, a + 1 + nth_bit(above, r));
        r -= c;
    }
}

static void levels(const shared *sh, const genes *v, uint32_t lv[SN_SEARCH_MAX_WIRES]);

static void level_push(uint32_t *lv, const sn_comparator *c, unsigned m)
{
    for (unsigned j = 0; j < m; j++) {
        uint32_t l = (lv[c[j].a] > lv[c[j].b] ? lv[c[j].a] : lv[c[j].b]) + 1;
        lv[c[j].a] = lv[c[j].b] = l;
    }
}

typedef enum repair_result { REPAIR_OK, REPAIR_OVER, REPAIR_NOMEM } repair_result;

/* Append genes to v (whose state st is) until every test vector passes.
 * used: the comparators of v's used genes and the prefix (simulate());
 * REPAIR_OVER once the repaired network would have more than limit
 * comparators (each appended gene swaps on a failing vector, so pruning
 * keeps it: exact, and the rest of a repair that cannot be accepted is
 * saved; SIZE_MAX: no limit). */
static repair_result repair(const shared *sh, genes *v, uint64_t *st, uint64_t *rng, size_t used,
                            size_t limit)
{
    size_t w = sh->words;
    uint32_t lvbuf[SN_SEARCH_MAX_WIRES], *lv = NULL;
    if (sh->layer_repair && sh->nk == 0) {
        levels(sh, v, lvbuf);
        lv = lvbuf;
    }
    for (;;) {
        size_t start = rnd(rng, (uint32_t)w), i;
        uint64_t f = 0;
        for (i = 0; i < w; i++) {
            f = fails(sh, st, (start + i) % w);
            if (f)
                break;
        }
        if (!f)
            return REPAIR_OK;
        size_t word = (start + i) % w;
        uint32_t t = nth_bit(f, rnd(rng, (uint32_t)__builtin_popcountll(f)));
        uint64_t x = 0;
        for (uint32_t j = 0; j < sh->n; j++)
            x |= ((st[j * w + word] >> t) & 1) << j;
        gene g = repair_gene(sh, x, lv, rng);
        g.used = 1;
        sn_comparator c[2];
        unsigned k = gene_cmps(sh, g, c);
        used += k;
        if (limit != SIZE_MAX && used > limit)
            return REPAIR_OVER;
        if (!genes_push(v, g))
            return REPAIR_NOMEM;
        for (unsigned j = 0; j < k; j++)
            apply(st, w, c[j].a, c[j].b);
        if (lv)
            level_push(lv, c, k);
    }
}

/* Drop the genes that simulate() found swapping on no test vector (exact
 * in one pass: a comparator that never swaps leaves every later state as it
 * was; the repair's genes, appended after, each swap on a failing vector).
 * The simulation's marks serve, so no second pass over the tests. */
static void prune(genes *v)
{
    size_t out = 0;
    for (size_t i = 0; i < v->len; i++)
        if (v->g[i].used)
            v->g[out++] = v->g[i];
    v->len = out;
}

/* The layer count on each wire after the prefix and v (comparators as early
 * as their wires allow). */
static void levels(const shared *sh, const genes *v, uint32_t lv[SN_SEARCH_MAX_WIRES])
{
    memcpy(lv, sh->prefix_level, sizeof sh->prefix_level);
    for (size_t i = 0; i < v->len; i++) {
        sn_comparator c[2];
        unsigned m = gene_cmps(sh, v->g[i], c);
        level_push(lv, c, m);
    }
}

/* Comparators and layers of the prefix + v. */
static void measure(const shared *sh, const genes *v, size_t *size, size_t *depth)
{
    uint32_t lv[SN_SEARCH_MAX_WIRES];
    levels(sh, v, lv);
    size_t s = sh->prefix_len;
    for (size_t i = 0; i < v->len; i++) {
        sn_comparator c[2];
        s += gene_cmps(sh, v->g[i], c);
    }
    uint32_t d = 0;
    for (uint32_t j = 0; j < sh->n; j++)
        d = lv[j] > d ? lv[j] : d;
    *size = s;
    *depth = d;
}

/* What a worker's step must not worsen: comparators (size), layers (depth)
 * or comparators + layers (both). (Layers and then the comparators in the
 * last layer, a slope towards emptying it, was tried for depth and measured
 * worse: it cuts the neutral drift.) */
static uint64_t accept_measure(const shared *sh, size_t size, size_t depth)
{
    switch (sh->opt->goal) {
    case SN_SEARCH_GOAL_DEPTH: return depth;
    case SN_SEARCH_GOAL_BOTH: return size + depth;
    default: return size;
    }
}

static uint64_t score(const shared *sh, size_t size, size_t depth)
{
    switch (sh->opt->goal) {
    case SN_SEARCH_GOAL_DEPTH: return ((uint64_t)depth << 32) | size;
    case SN_SEARCH_GOAL_BOTH: return ((uint64_t)(size + depth) << 32) | size;
    default: return ((uint64_t)size << 32) | depth;
    }
}

static sn_network *build(const shared *sh, const genes *v)
{
    sn_network *net = sn_network_create(sh->n);
    if (!net)
        return NULL;
    for (size_t i = 0; i < sh->prefix_len; i++)
        if (sn_network_add_asap(net, sh->prefix[i].a, sh->prefix[i].b, NULL) != SN_OK)
            goto fail;
    for (size_t i = 0; i < v->len; i++) {
        sn_comparator c[2];
        unsigned m = gene_cmps(sh, v->g[i], c);
        for (unsigned j = 0; j < m; j++)
            if (sn_network_add_asap(net, c[j].a, c[j].b, NULL) != SN_OK)
                goto fail;
    }
    return net;
fail:
    sn_network_destroy(net);
    return NULL;
}

static void fail_run(shared *sh, sn_status st, const char *why)
{
    while (atomic_flag_test_and_set(&sh->lock))
        ;
    if (sh->err == SN_OK) {
        sh->err = st;
        sn_diag_set(&sh->diag, st, 0, 0, "%s", why);
    }
    atomic_flag_clear(&sh->lock);
    atomic_store(&sh->stop, 1);
}

/* v beat the best when it was read: prove it and, if still better, keep it. */
static void offer(shared *sh, const genes *v, uint64_t key, uint64_t iteration, unsigned member)
{
    sn_network *net = build(sh, v);
    if (!net) {
        fail_run(sh, SN_ENOMEM, "out of memory");
        return;
    }
    sn_check_options co;
    sn_check_options_init(&co);
    co.threads = 1;
    co.force = true;
    sn_check_result res;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sh->nk ? sn_check_select(net, sh->k, sh->nk, &co, &res, &d)
                          : sn_check_run(net, &co, &res, &d);
    if (st != SN_OK) {
        sn_network_destroy(net);
        fail_run(sh, st, d.text[0] ? d.text : "the checker gave no verdict");
        return;
    }
    bool ok = res.sorts;
    sn_check_result_free(&res);
    if (!ok) {
        sn_network_destroy(net);
        fail_run(sh, SN_EINVAL, "internal error: a network the search found failed the checker");
        return;
    }
    while (atomic_flag_test_and_set(&sh->lock))
        ;
    if (key < atomic_load(&sh->best_key)) {
        sn_network_destroy(sh->best);
        sh->best = net;
        net = NULL;
        atomic_store(&sh->best_key, key);
        sn_search_event ev;
        ev.seconds = now_seconds() - sh->t0;
        ev.size = sn_network_size(sh->best);
        ev.depth = sn_network_layer_count(sh->best);
        ev.iteration = iteration;
        ev.worker = member;
        if (sh->opt->improved)
            sh->opt->improved(sh->best, &ev, sh->opt->user);
        const sn_search_options *o = sh->opt;
        if ((o->target_size || o->target_depth) && (!o->target_size || ev.size <= o->target_size) &&
            (!o->target_depth || ev.depth <= o->target_depth))
            atomic_store(&sh->stop, 1);
    }
    atomic_flag_clear(&sh->lock);
    sn_network_destroy(net);
}

/* 1 to 4 random mutations of v; *lo: the first gene they may have changed
 * (the genes before it are as they were). false when memory runs out. */
static bool mutate(const shared *sh, genes *v, uint64_t *rng, size_t *lo)
{
    *lo = v->len;
    uint32_t n = sh->n, times = 1;
    while (times < 4 && rnd(rng, 2))
        times++;
    for (uint32_t t = 0; t < times; t++) {
        uint32_t kind = rnd(rng, sh->sym ? 4 : 5);
        size_t len = v->len;
        if (len == 0)
            kind = 3;
        switch (kind) {
        case 0: { /* remove one */
            size_t i = rnd(rng, (uint32_t)len);
            memmove(v->g + i, v->g + i + 1, (len - i - 1) * sizeof *v->g);
            v->len--;
            *lo = i < *lo ? i : *lo;
            break;
        }
        case 1: { /* swap two: random ones, or one and the next that shares a wire */
            size_t i = rnd(rng, (uint32_t)len), j = rnd(rng, (uint32_t)len);
            if (rnd(rng, 2)) {
                gene x = v->g[i];
                for (j = i + 1; j < len; j++)
                    if (v->g[j].a == x.a || v->g[j].a == x.b || v->g[j].b == x.a ||
                        v->g[j].b == x.b)
                        break;
                if (j == len)
                    j = i;
            }
            gene g = v->g[i];
            v->g[i] = v->g[j];
            v->g[j] = g;
            j = i < j ? i : j;
            *lo = j < *lo ? j : *lo;
            break;
        }
        case 2: { /* replace one wire */
            size_t i = rnd(rng, (uint32_t)len);
            uint32_t w = rnd(rng, n), a = v->g[i].a, b = v->g[i].b;
            if (rnd(rng, 2))
                a = w;
            else
                b = w;
            *lo = i < *lo ? i : *lo;
            if (a == b) {
                memmove(v->g + i, v->g + i + 1, (len - i - 1) * sizeof *v->g);
                v->len--;
            } else {
                v->g[i] = a < b ? mkgene(a, b) : mkgene(b, a);
            }
            break;
        }
        case 3: { /* insert a random comparator somewhere */
            uint32_t a = rnd(rng, n), b = rnd(rng, n - 1);
            b += b >= a;
            gene g = a < b ? mkgene(a, b) : mkgene(b, a);
            if (!genes_push(v, g))
                return false;
            size_t i = rnd(rng, (uint32_t)v->len);
            memmove(v->g + i + 1, v->g + i, (v->len - 1 - i) * sizeof *v->g);
            v->g[i] = g;
            *lo = i < *lo ? i : *lo;
            break;
        }
        default: { /* reflect one: (a, b) -> (n-1-b, n-1-a) */
            size_t i = rnd(rng, (uint32_t)len);
            gene g = v->g[i];
            v->g[i] = mkgene(n - 1 - g.b, n - 1 - g.a);
            *lo = i < *lo ? i : *lo;
            break;
        }
        }
    }
    return true;
}

/* The worker's start: the --from network (or nothing), repaired, pruned. */
static bool restart(shared *sh, worker *w)
{
    if (!genes_copy(&w->cur, &sh->from))
        return false;
    size_t used;
    w->snap.valid = 0;
    simulate(sh, &w->cur, w->state, SIZE_MAX, &used, NULL, 0);
    if (repair(sh, &w->cur, w->state, &w->rng, used, SIZE_MAX) != REPAIR_OK)
        return false;
    prune(&w->cur);
    size_t s, d;
    measure(sh, &w->cur, &s, &d);
    w->key = score(sh, s, d);
    w->acc = accept_measure(sh, s, d);
    return true;
}

static bool should_stop(shared *sh)
{
    return atomic_load_explicit(&sh->stop, memory_order_relaxed) ||
           sn_cancel_requested(sh->opt->cancel);
}

static void work(void *ctx, sn_team *team, unsigned member)
{
    (void)team;
    shared *sh = ctx;
    const sn_search_options *o = sh->opt;
    worker w;
    memset(&w, 0, sizeof w);
    w.rng = o->seed ^ (0x5851f42d4c957f2dull * (member + 1));
    splitmix(&w.rng);
    w.state = sn_malloc((size_t)sh->n * sh->words * sizeof *w.state);
    /* snapshots every n/2 genes (at least 4: a slot costs a copy of n
     * words per word of tests, a gene 2 to 4 word operations), 64 slots at
     * most and 16 MiB at most */
    size_t bytes = (size_t)sh->n * sh->words * sizeof *w.state;
    w.snap.max = ((size_t)16 << 20) / bytes;
    w.snap.max = w.snap.max > 64 ? 64 : w.snap.max;
    w.snap.every = w.snap.max ? (sh->n / 2 > 4 ? sh->n / 2 : 4) : 0;
    w.snap.s = w.snap.max ? sn_malloc(w.snap.max * bytes) : NULL;
    if (!w.state || (w.snap.max && !w.snap.s) || !restart(sh, &w)) {
        fail_run(sh, SN_ENOMEM, "out of memory");
        goto done;
    }
    uint64_t it = 0, since = 0;
    if (w.key < atomic_load(&sh->best_key))
        offer(sh, &w.cur, w.key, it, member);
    while (!should_stop(sh)) {
        if (o->iterations && it >= o->iterations)
            break;
        if ((it & 63) == 0 && o->seconds > 0 && now_seconds() - sh->t0 >= o->seconds)
            break;
        it++;
        if (since >= sh->restart_after) {
            since = 0;
            atomic_fetch_add(&sh->restarts, 1);
            if (!restart(sh, &w)) {
                fail_run(sh, SN_ENOMEM, "out of memory");
                break;
            }
            continue;
        }
        since++;
        if (!genes_copy(&w.cand, &w.cur)) {
            fail_run(sh, SN_ENOMEM, "out of memory");
            break;
        }
        size_t lo;
        if (!mutate(sh, &w.cand, &w.rng, &lo)) {
            fail_run(sh, SN_ENOMEM, "out of memory");
            break;
        }
        /* the goal size: one step in ESCAPE_RATE may come out one comparator
         * larger (an uphill step, as SorterHunter's EscapeRate) */
        uint64_t slack = sh->early && rnd(&w.rng, ESCAPE_RATE) == 0;
        size_t limit = sh->early ? (size_t)(w.acc + slack) : SIZE_MAX, used;
        if (!simulate(sh, &w.cand, w.state, limit, &used, &w.snap, lo))
            continue;
        repair_result rr = repair(sh, &w.cand, w.state, &w.rng, used, limit);
        if (rr == REPAIR_OVER)
            continue;
        if (rr == REPAIR_NOMEM) {
            fail_run(sh, SN_ENOMEM, "out of memory");
            break;
        }
        prune(&w.cand);
        size_t s, d;
        measure(sh, &w.cand, &s, &d);
        uint64_t key = score(sh, s, d), acc = accept_measure(sh, s, d);
        /* accept on the goal's first measure alone: moves that keep it but
         * worsen the tie-breaker are the neutral drift the search lives on */
        if (acc > w.acc + slack)
            continue;
        if (key < w.key || acc < w.acc)
            since = 0;
        w.acc = acc;
        if (w.snap.every && w.snap.valid > lo / w.snap.every) /* the same genes up to lo */
            w.snap.valid = lo / w.snap.every;
        genes t = w.cur;
        w.cur = w.cand;
        w.cand = t;
        w.key = key;
        if (key < atomic_load(&sh->best_key))
            offer(sh, &w.cur, key, it, member);
    }
    atomic_fetch_add(&sh->iterations, it);
done:
    sn_free(w.snap.s);
    sn_free(w.state);
    sn_free(w.cur.g);
    sn_free(w.cand.g);
}

/* ---- the prefix and the test set: wire clusters with their 0-1 patterns ---- */

typedef struct cluster {
    uint64_t mask; /* its wires */
    uint64_t *v;   /* distinct patterns (bits on its wires only) */
    size_t count;
} cluster;

typedef struct clusters {
    cluster c[SN_SEARCH_MAX_WIRES];
    uint32_t owner[SN_SEARCH_MAX_WIRES]; /* cluster index of each wire */
    uint32_t count;
} clusters;

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static uint64_t apply_one(uint64_t z, uint32_t a, uint32_t b)
{
    if (((z >> a) & 1) && !((z >> b) & 1))
        z ^= (1ull << a) | (1ull << b);
    return z;
}

typedef enum join_result { JOIN_OK, JOIN_OVER, JOIN_NOMEM } join_result;

/* The patterns of the clusters touched by cmps, joined and pushed through
 * them (sorted, distinct) into *out (sn_malloc'd), their wires into *mask;
 * JOIN_OVER when the product exceeds `limit`, JOIN_NOMEM when memory runs
 * out. */
static join_result join(const clusters *cs, const sn_comparator *cmps, unsigned m, size_t limit,
                        uint64_t **out, size_t *count, uint64_t *mask)
{
    uint32_t idx[4], k = 0;
    for (unsigned j = 0; j < m; j++) {
        uint32_t w2[2] = {cmps[j].a, cmps[j].b};
        for (int e = 0; e < 2; e++) {
            uint32_t ci = cs->owner[w2[e]];
            bool seen = false;
            for (uint32_t q = 0; q < k; q++)
                seen |= idx[q] == ci;
            if (!seen)
                idx[k++] = ci;
        }
    }
    size_t total = 1;
    *mask = 0;
    for (uint32_t q = 0; q < k; q++) {
        if (!sn_mul_size(total, cs->c[idx[q]].count, &total) || total > limit)
            return JOIN_OVER;
        *mask |= cs->c[idx[q]].mask;
    }
    uint64_t *v = sn_malloc(total * sizeof *v);
    if (!v)
        return JOIN_NOMEM;
    for (size_t i = 0; i < total; i++) {
        size_t r = i;
        uint64_t z = 0;
        for (uint32_t q = 0; q < k; q++) {
            const cluster *c = &cs->c[idx[q]];
            z |= c->v[r % c->count];
            r /= c->count;
        }
        for (unsigned j = 0; j < m; j++)
            z = apply_one(z, cmps[j].a, cmps[j].b);
        v[i] = z;
    }
    qsort(v, total, sizeof *v, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < total; i++)
        if (u == 0 || v[u - 1] != v[i])
            v[u++] = v[i];
    *out = v;
    *count = u;
    return JOIN_OK;
}

/* Replace the clusters of `mask` by one holding v. */
static void commit(clusters *cs, uint64_t mask, uint64_t *v, size_t count)
{
    uint32_t keep = UINT32_MAX;
    for (uint32_t i = 0; i < cs->count;) {
        if (cs->c[i].mask & mask) {
            sn_free(cs->c[i].v);
            cs->c[i] = cs->c[--cs->count];
            continue;
        }
        i++;
    }
    keep = cs->count++;
    cs->c[keep] = (cluster){mask, v, count};
    for (uint32_t i = 0; i < cs->count; i++)
        for (uint32_t j = 0; j < SN_SEARCH_MAX_WIRES; j++)
            if ((cs->c[i].mask >> j) & 1)
                cs->owner[j] = i;
}

static double total_log(const clusters *cs) /* log2 of the product of the counts */
{
    double t = 0;
    for (uint32_t i = 0; i < cs->count; i++)
        t += log2((double)cs->c[i].count);
    return t;
}

static bool prefix_push(shared *sh, sn_comparator c)
{
    sn_comparator *p = sn_realloc(sh->prefix, (sh->prefix_len + 1) * sizeof *p);
    if (!p)
        return false;
    sh->prefix = p;
    p[sh->prefix_len++] = c;
    uint32_t l = (sh->prefix_level[c.a] > sh->prefix_level[c.b] ? sh->prefix_level[c.a]
                                                                : sh->prefix_level[c.b]) +
                 1;
    sh->prefix_level[c.a] = sh->prefix_level[c.b] = l;
    return true;
}

/* Apply cmps to the clusters and record them in the prefix. */
static sn_status add_prefix(shared *sh, clusters *cs, const sn_comparator *c, unsigned m,
                            sn_diag *diag)
{
    uint64_t *v, mask;
    size_t count;
    join_result jr = join(cs, c, m, (size_t)SN_SEARCH_MAX_TESTS * 4, &v, &count, &mask);
    if (jr == JOIN_NOMEM)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if (jr == JOIN_OVER)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "the prefix's wire groups hold more than %u patterns together",
                           SN_SEARCH_MAX_TESTS * 4);
    commit(cs, mask, v, count);
    for (unsigned j = 0; j < m; j++)
        if (!prefix_push(sh, c[j]))
            return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    return SN_OK;
}

/* One greedy step: the gene that leaves the fewest distinct outputs (ties
 * broken by the seed's random stream) into *found (false when none fits
 * or none leaves fewer). SN_ENOMEM when memory runs out. */
static sn_status greedy_step(shared *sh, clusters *cs, uint64_t *rng, gene *best, bool *found)
{
    double base = total_log(cs), best_t = 0;
    uint32_t ties = 0;
    for (uint32_t a = 0; a < sh->n; a++)
        for (uint32_t b = a + 1; b < sh->n; b++) {
            gene g = mkgene(a, b);
            sn_comparator c[2];
            unsigned m = gene_cmps(sh, g, c);
            uint64_t *v, mask;
            size_t count;
            if (sh->sym && m == 2 && c[1].a < a)
                continue; /* the mirror image of a gene seen already */
            join_result jr = join(cs, c, m, (size_t)SN_SEARCH_MAX_TESTS * 4, &v, &count, &mask);
            if (jr == JOIN_NOMEM)
                return SN_ENOMEM;
            if (jr == JOIN_OVER)
                continue;
            double t = base + log2((double)count);
            for (uint32_t i = 0; i < cs->count; i++)
                if (cs->c[i].mask & mask)
                    t -= log2((double)cs->c[i].count);
            sn_free(v);
            if (ties == 0 || t < best_t - 1e-9) {
                best_t = t;
                *best = g;
                ties = 1;
            } else if (t < best_t + 1e-9 && rnd(rng, ++ties) == 0) {
                *best = g;
            }
        }
    *found = ties > 0 && best_t < base - 1e-9;
    return SN_OK;
}

/* The prefix a search uses: AUTO is Green's layers from 14 wires on (on
 * 15 and 16 wires greedy stalled at 57 and 61 comparators in 150 s, Green's
 * layers reach 56 and 60 in seconds; from 17 to 32 wires they leave 300 to
 * 7600 test vectors where greedy leaves up to a million: docs/search.md),
 * greedy below. */
static sn_search_prefix prefix_kind(const sn_search_options *o)
{
    if (o->prefix != SN_SEARCH_PREFIX_AUTO)
        return o->prefix;
    return o->n >= 14 ? SN_SEARCH_PREFIX_GREEN : SN_SEARCH_PREFIX_GREEDY;
}

static sn_status make_tests(shared *sh, sn_diag *diag)
{
    const sn_search_options *o = sh->opt;
    clusters cs;
    memset(&cs, 0, sizeof cs);
    sn_status st = SN_OK;
    for (uint32_t j = 0; j < sh->n; j++) {
        cs.c[j].mask = 1ull << j;
        cs.c[j].v = sn_malloc(2 * sizeof(uint64_t));
        if (!cs.c[j].v) {
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
            goto done;
        }
        cs.c[j].v[0] = 0;
        cs.c[j].v[1] = 1ull << j;
        cs.c[j].count = 2;
        cs.owner[j] = j;
        cs.count++;
    }
    if (o->prefix == SN_SEARCH_PREFIX_NET) {
        size_t total = sn_network_size(o->prefix_net);
        for (size_t i = 0; i < total && st == SN_OK; i++) {
            sn_comparator c;
            sn_network_comparator(o->prefix_net, i, &c, NULL);
            st = add_prefix(sh, &cs, &c, 1, diag);
        }
    } else if (prefix_kind(o) == SN_SEARCH_PREFIX_GREEN) {
        uint32_t k = 0;
        while ((1u << k) < sh->n)
            k++;
        uint32_t layers = o->prefix_count && o->prefix_count < k ? (uint32_t)o->prefix_count : k;
        /* the cube's first n vertices (the n middle ones, a prefix that is
         * its own mirror image, was measured worse: 14 wires reached 51 in
         * 0 of 5 seeds within 60 s, against 3 of 5) */
        for (uint32_t j = 0; j < layers && st == SN_OK; j++)
            for (uint32_t i = 0; i < sh->n && st == SN_OK; i++)
                if (!((i >> j) & 1) && i + (1u << j) < sh->n) {
                    sn_comparator c = {i, i + (1u << j)};
                    st = add_prefix(sh, &cs, &c, 1, diag);
                }
    } else if (prefix_kind(o) == SN_SEARCH_PREFIX_GREEDY) {
        uint64_t rng = o->seed * 0x2545f4914f6cdd1dull + 7;
        /* automatic: n/2, and 10 (5 mirror pairs, as SorterHunter's sample
         * configuration) on 12 wires with mirror pairs (docs/search.md) */
        size_t want = o->prefix_count ? o->prefix_count : sh->sym && sh->n == 12 ? 10 : sh->n / 2;
        bool automatic = o->prefix_count == 0;
        while (st == SN_OK && (sh->prefix_len < want || (automatic && total_log(&cs) > 20.0 &&
                                                         sh->prefix_len < 4 * sh->n))) {
            gene g = {0, 0, 0}; /* greedy_step sets it when it finds one */
            bool found = false;
            if (greedy_step(sh, &cs, &rng, &g, &found) != SN_OK) {
                st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
                break;
            }
            if (!found)
                break;
            sn_comparator c[2];
            unsigned m = gene_cmps(sh, g, c);
            st = add_prefix(sh, &cs, c, m, diag);
        }
    }
    if (st != SN_OK)
        goto done;
    double lg = total_log(&cs);
    if (lg > 30.0) {
        st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                         "the prefix leaves about 2^%.0f 0-1 outputs; a search holds at most %u "
                         "(a longer prefix, e.g. --prefix greedy:%u, leaves fewer)",
                         lg, SN_SEARCH_MAX_TESTS, sh->n * 2);
        goto done;
    }
    /* everything into one cluster: the prefix's distinct outputs */
    uint64_t *v = NULL, mask = 0;
    size_t count = 0;
    if (cs.count > 1 || cs.c[0].count > SN_SEARCH_MAX_TESTS) {
        size_t total = 1;
        bool fits = true;
        for (uint32_t i = 0; i < cs.count && fits; i++)
            fits = sn_mul_size(total, cs.c[i].count, &total) && total <= SN_SEARCH_MAX_TESTS * 4u;
        if (!fits) {
            st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                             "the prefix leaves %.0f 0-1 outputs; a search holds at most %u "
                             "(a longer prefix leaves fewer)",
                             exp2(lg), SN_SEARCH_MAX_TESTS);
            goto done;
        }
        v = sn_malloc(total * sizeof *v);
        if (!v) {
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < total; i++) {
            size_t r = i;
            uint64_t z = 0;
            for (uint32_t q = 0; q < cs.count; q++) {
                z |= cs.c[q].v[r % cs.c[q].count];
                r /= cs.c[q].count;
            }
            v[i] = z;
        }
        count = total;
    } else {
        v = cs.c[0].v;
        count = cs.c[0].count;
        cs.c[0].v = NULL;
    }
    (void)mask;
    /* keep the unsorted ones */
    size_t u = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t z = v[i];
        bool sorted = z == 0 || (z | (z - 1)) == sh->maskn;
        if (!sorted)
            v[u++] = z;
    }
    if (u > SN_SEARCH_MAX_TESTS) {
        sn_free(v);
        st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                         "the prefix leaves %zu unsorted 0-1 outputs; a search holds at most %u "
                         "(a longer prefix leaves fewer)",
                         u, SN_SEARCH_MAX_TESTS);
        goto done;
    }
    sh->ntests = u;
    sh->words = u ? (u + 63) / 64 : 1;
    sh->tests = sn_calloc((size_t)sh->n * sh->words, sizeof *sh->tests);
    sh->expect = sn_calloc(2 * sh->words, sizeof *sh->expect);
    if (!sh->tests || !sh->expect) {
        sn_free(v);
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < u; i++) {
        size_t word = i / 64;
        uint64_t bit = 1ull << (i % 64);
        for (uint32_t j = 0; j < sh->n; j++)
            if ((v[i] >> j) & 1)
                sh->tests[j * sh->words + word] |= bit;
        uint32_t ones = (uint32_t)__builtin_popcountll(v[i]);
        for (size_t t = 0; t < sh->nk; t++)
            if (sh->k[t] >= sh->n - ones)
                sh->expect[t * sh->words + word] |= bit;
    }
    sn_free(v);
done:
    for (uint32_t i = 0; i < cs.count; i++)
        sn_free(cs.c[i].v);
    return st;
}

static void setup(void *ctx, unsigned members)
{
    ((shared *)ctx)->members = members;
}

sn_status sn_search_run(const sn_search_options *opt, sn_network **best, sn_search_stats *stats,
                        sn_diag *diag)
{
    *best = NULL;
    if (stats)
        memset(stats, 0, sizeof *stats);
    uint32_t n = opt->n;
    if (n < 2 || n > SN_SEARCH_MAX_WIRES)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "n = %u: a search takes 2 to %u wires", n,
                           SN_SEARCH_MAX_WIRES);
    if (opt->select_count > 2)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "at most 2 selected outputs");
    for (size_t t = 0; t < opt->select_count; t++)
        if (opt->select_k[t] >= n)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "output %u to select is not a wire of %u (0..%u)", opt->select_k[t],
                               n, n - 1);
    if (opt->prefix == SN_SEARCH_PREFIX_NET &&
        (!opt->prefix_net || sn_network_wires(opt->prefix_net) != n))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "the prefix network has %u wires; the search is for %u",
                           opt->prefix_net ? sn_network_wires(opt->prefix_net) : 0, n);
    if (opt->from && sn_network_wires(opt->from) != n)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "the network to start from has %u wires; the search is for %u",
                           sn_network_wires(opt->from), n);
    shared *sh = sn_calloc(1, sizeof *sh);
    if (!sh)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    sn_status st = SN_OK;
    sh->opt = opt;
    sh->n = n;
    sh->maskn = n == 64 ? ~0ull : (1ull << n) - 1;
    sh->sym = opt->symmetric;
    sh->layer_repair = opt->goal != SN_SEARCH_GOAL_SIZE;
    sh->nk = opt->select_count;
    sh->k[0] = opt->select_k[0];
    sh->k[1] = opt->select_k[1];
    sh->t0 = now_seconds();
    atomic_flag_clear(&sh->lock);
    atomic_init(&sh->best_key, UINT64_MAX);
    atomic_init(&sh->stop, 0);
    atomic_init(&sh->iterations, 0);
    atomic_init(&sh->restarts, 0);
    sn_diag_clear(&sh->diag);
    /* a quarter of 20000 + 2000 n, measured on 16 idle cores: 11 wires
     * reached 35 in a median 0.61 s instead of 1.17 s, 15 wires 56 in 1.76 s
     * instead of 3.3 s, 16 wires 60 in 5.7 s instead of 7.4 s (docs/search.md) */
    sh->restart_after = opt->restart_after ? opt->restart_after : 5000u + 500u * n;
    sh->early = opt->goal == SN_SEARCH_GOAL_SIZE;
    if (opt->from) {
        sn_network *std = NULL;
        if (sn_network_to_standard(opt->from, &std) != SN_OK) {
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
            goto done;
        }
        size_t total = sn_network_size(std);
        for (size_t i = 0; i < total; i++) {
            sn_comparator c;
            sn_network_comparator(std, i, &c, NULL);
            if (!genes_push(&sh->from, mkgene(c.a, c.b))) {
                sn_network_destroy(std);
                st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
                goto done;
            }
        }
        sn_network_destroy(std);
    }
    if ((st = make_tests(sh, diag)) != SN_OK)
        goto done;
    sn_parallel_team(opt->threads, setup, work, sh);
    if (sh->err != SN_OK) {
        st = sh->err;
        if (diag)
            *diag = sh->diag;
        goto done;
    }
    if (!sh->best) {
        st = sn_diag_set(diag, SN_EINTERRUPTED, 0, 0, "stopped before any network was found");
        goto done;
    }
    *best = sh->best;
    sh->best = NULL;
    if (stats) {
        stats->iterations = atomic_load(&sh->iterations);
        stats->restarts = atomic_load(&sh->restarts);
        stats->tests = sh->ntests;
        stats->prefix_size = sh->prefix_len;
        stats->workers = sh->members;
        stats->seconds = now_seconds() - sh->t0;
        stats->cancelled = sn_cancel_requested(opt->cancel);
    }
done:
    sn_network_destroy(sh->best);
    sn_free(sh->prefix);
    sn_free(sh->tests);
    sn_free(sh->expect);
    sn_free(sh->from.g);
    sn_free(sh);
    return st;
}
