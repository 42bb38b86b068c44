/* check_modes.c - the checker's other questions: merging (two sorted
 * parts), selection (output K holds the K-th smallest), and sorting on
 * more than 64 wires by splitting the network where its two halves meet.
 *
 * Merging: by the 0-1 principle restricted to inputs whose parts are each
 * sorted (a 0-1 sorted part is 0^i 1^(a-i)), (a+1)(b+1) inputs decide it,
 * for any n. Selection: every output is a monotone function of the inputs,
 * so output K holds the K-th smallest for all inputs iff it does for all
 * 0-1 inputs (threshold each input at every value); all 2^n are run
 * bit-sliced, 64 per word. Splitting: if the layers before the first one
 * that joins everything keep two wire sets S and T apart, the network
 * sorts when its parts on S and on T sort (checked recursively) and the
 * rest merges every input sorted along S and along T (the merging check):
 * a sorted part passes its sorting network unchanged, so each merge input
 * the rest fails is an input the whole network fails. */
#include "core/check_impl.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

/* Run the flat comparator list on byte values v (0/1), in place. */
static void run_bytes(const sn_comparator *cmp, size_t ncmp, uint8_t *v)
{
    for (size_t j = 0; j < ncmp; j++) {
        uint8_t *a = &v[cmp[j].a], *b = &v[cmp[j].b];
        if (*a > *b) {
            uint8_t t = *a;
            *a = *b;
            *b = t;
        }
    }
}

static uint32_t first_descent(const uint8_t *v, uint32_t n)
{
    for (uint32_t i = 0; i + 1 < n; i++)
        if (v[i] > v[i + 1])
            return i;
    return 0;
}

/* The flat comparator list of net: layers [k0, k1). */
static sn_comparator *flatten(const sn_network *net, size_t k0, size_t k1, size_t *count)
{
    size_t total = sn_network_layer_offset(net, k1) - sn_network_layer_offset(net, k0), j = 0;
    sn_comparator *c = sn_calloc(total + 1, sizeof *c);
    for (size_t k = k0; c && k < k1; k++) {
        size_t cnt;
        const sn_comparator *l = sn_network_layer(net, k, &cnt);
        memcpy(c + j, l, cnt * sizeof *l);
        j += cnt;
    }
    *count = total;
    return c;
}

static sn_status set_failure(sn_check_result *res, const uint8_t *in, uint32_t n,
                             const sn_comparator *cmp, size_t ncmp)
{
    res->counterexample = sn_calloc(n ? n : 1, 1);
    res->output = sn_calloc(n ? n : 1, 1);
    if (!res->counterexample || !res->output)
        return SN_ENOMEM;
    memcpy(res->counterexample, in, n);
    memcpy(res->output, in, n);
    run_bytes(cmp, ncmp, res->output);
    res->first_unsorted = first_descent(res->output, n);
    res->counterexample_index = 0;
    for (uint32_t i = 0; i < n && n <= 64; i++)
        res->counterexample_index |= (uint64_t)in[i] << i;
    return SN_OK;
}

/* Count the merge inputs (S and T given as wire lists, each sorted along
 * its list) that cmp[0..ncmp) does not sort; the first one (in the order
 * of i zeros on S, then j zeros on T) goes to *bad (n bytes) when bad is
 * not NULL. Bit-sliced: 64 inputs (i, j) per word, one word per wire
 * (v holds n words). */
static uint64_t merge_failures(const sn_comparator *cmp, size_t ncmp, uint32_t n, const uint32_t *S,
                               uint32_t a, const uint32_t *T, uint32_t b, uint64_t *v, uint8_t *bad,
                               bool *found, const sn_cancel *cancel, bool *stopped)
{
    uint64_t fails = 0, total = (uint64_t)(a + 1) * (b + 1);
    uint32_t li[64], lj[64];
    for (uint64_t base = 0; base < total; base += 64) {
        /* the merge of two halves of thousands of wires runs for minutes:
         * a request to stop is looked at every 64 words */
        if ((base & 4095) == 0 && sn_cancel_requested(cancel)) {
            *stopped = true;
            return fails;
        }
        uint32_t lanes = total - base < 64 ? (uint32_t)(total - base) : 64;
        for (uint32_t l = 0; l < lanes; l++) {
            li[l] = (uint32_t)((base + l) / (b + 1));
            lj[l] = (uint32_t)((base + l) % (b + 1));
        }
        for (uint32_t w = 0; w < a; w++) {
            uint64_t m = 0;
            for (uint32_t l = 0; l < lanes; l++)
                m |= (uint64_t)(w >= li[l]) << l;
            v[S[w]] = m;
        }
        for (uint32_t w = 0; w < b; w++) {
            uint64_t m = 0;
            for (uint32_t l = 0; l < lanes; l++)
                m |= (uint64_t)(w >= lj[l]) << l;
            v[T[w]] = m;
        }
        for (size_t j = 0; j < ncmp; j++) {
            uint64_t x = v[cmp[j].a], y = v[cmp[j].b];
            v[cmp[j].a] = x & y;
            v[cmp[j].b] = x | y;
        }
        uint64_t unsorted = 0;
        for (uint32_t w = 0; w + 1 < n; w++)
            unsorted |= v[w] & ~v[w + 1];
        if (!unsorted)
            continue;
        fails += (uint64_t)__builtin_popcountll(unsorted);
        if (bad && !*found) {
            uint32_t l = (uint32_t)__builtin_ctzll(unsorted);
            for (uint32_t w = 0; w < a; w++)
                bad[S[w]] = w >= li[l];
            for (uint32_t w = 0; w < b; w++)
                bad[T[w]] = w >= lj[l];
            *found = true;
        }
    }
    return fails;
}

sn_status sn_check_merge(const sn_network *net, uint32_t a, sn_check_result *res, sn_diag *diag)
{
    memset(res, 0, sizeof *res);
    uint32_t n = sn_network_wires(net);
    if (a > n)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "--merge %u: the first part cannot be larger than the %u wires", a, n);
    double t0 = check_now();
    size_t ncmp;
    sn_comparator *cmp = flatten(net, 0, sn_network_layer_count(net), &ncmp);
    uint32_t *w = sn_calloc((size_t)n + 1, sizeof *w);
    uint64_t *v = sn_calloc((size_t)n + 1, sizeof *v);
    uint8_t *bad = sn_calloc((size_t)n + 1, 1);
    sn_status st = (cmp && w && v && bad) ? SN_OK : SN_ENOMEM;
    if (st == SN_OK) {
        for (uint32_t i = 0; i < n; i++)
            w[i] = i;
        bool found = false;
        res->n = n;
        bool stopped = false; /* (no cancel here: never stops) */
        res->failing_count =
            merge_failures(cmp, ncmp, n, w, a, w + a, n - a, v, bad, &found, NULL, &stopped);
        res->sorts = res->failing_count == 0;
        res->inputs = (uint64_t)(a + 1) * (uint64_t)(n - a + 1);
        res->method = SN_CHECK_BRUTEFORCE; /* every input of the question */
        res->redundant_unknown = true;
        if (found)
            st = set_failure(res, bad, n, cmp, ncmp);
        res->seconds = check_now() - t0;
    }
    sn_free(cmp);
    sn_free(w);
    sn_free(v);
    sn_free(bad);
    if (st != SN_OK) {
        sn_check_result_free(res);
        return sn_diag_set(diag, st, 0, 0, "out of memory");
    }
    return SN_OK;
}

/* ---- selection, bit-sliced ---- */

typedef struct sel_job {
    const sn_comparator *cmp;
    size_t ncmp;
    uint32_t n, k[2];
    size_t nk;
    uint64_t hi0, hi1; /* words [hi0, hi1): high bits of the input */
    uint64_t fails, min_fail;
    uint8_t *swapped; /* ncmp bytes, this job's */
} sel_job;

/* Lanes (6 low input bits) with at least t ones, t = 0..7. */
static uint64_t lanes_at_least(uint32_t t)
{
    uint64_t m = 0;
    for (uint32_t l = 0; l < 64; l++)
        if ((uint32_t)__builtin_popcount(l) >= t)
            m |= (uint64_t)1 << l;
    return m;
}

static void *sel_worker(void *arg)
{
    sel_job *jb = arg;
    uint32_t n = jb->n, low = n < 6 ? n : 6;
    uint64_t *v = sn_calloc(n, sizeof *v), *sw = sn_calloc(jb->ncmp + 1, sizeof *sw);
    uint64_t at_least[8], valid = low == 6 ? ~(uint64_t)0 : (((uint64_t)1 << (1u << low)) - 1);
    if (!v || !sw) {
        sn_free(v);
        sn_free(sw);
        jb->fails = UINT64_MAX; /* reported as out of memory */
        return NULL;
    }
    for (uint32_t t = 0; t < 8; t++)
        at_least[t] = lanes_at_least(t);
    for (uint64_t hi = jb->hi0; hi < jb->hi1; hi++) {
        for (uint32_t w = 0; w < n; w++) {
            if (w < low) {
                uint64_t m = 0;
                for (uint32_t l = 0; l < 64; l++)
                    m |= (uint64_t)((l >> w) & 1u) << l;
                v[w] = m;
            } else {
                v[w] = ((hi >> (w - low)) & 1u) ? ~(uint64_t)0 : 0;
            }
        }
        for (size_t j = 0; j < jb->ncmp; j++) {
            uint64_t x = v[jb->cmp[j].a], y = v[jb->cmp[j].b];
            sw[j] |= x & ~y;
            v[jb->cmp[j].a] = x & y;
            v[jb->cmp[j].b] = x | y;
        }
        uint32_t H = (uint32_t)__builtin_popcountll(hi);
        uint64_t e[2] = {0, 0}, o[2] = {0, 0}; /* nk is 1 or 2: set for every q read */
        for (size_t q = 0; q < jb->nk; q++) {
            /* the K-th smallest is 1 iff ones >= n - K */
            uint32_t need = n - jb->k[q];
            e[q] = need <= H ? ~(uint64_t)0 : (need - H > 7 ? 0 : at_least[need - H]);
            o[q] = v[jb->k[q]];
        }
        uint64_t bad = jb->nk == 1
                           ? (e[0] ^ o[0])
                           : (((e[0] & e[1]) ^ (o[0] & o[1])) | ((e[0] | e[1]) ^ (o[0] | o[1])));
        bad &= valid;
        if (bad) {
            uint64_t x = (hi << low) | (uint64_t)__builtin_ctzll(bad);
            if (jb->fails == 0 || x < jb->min_fail)
                jb->min_fail = x;
            jb->fails += (uint64_t)__builtin_popcountll(bad);
        }
    }
    for (size_t j = 0; j < jb->ncmp; j++)
        jb->swapped[j] = sw[j] != 0;
    sn_free(v);
    sn_free(sw);
    return NULL;
}

static sn_status select_args(uint32_t n, const uint32_t *k, size_t nk, sn_diag *diag)
{
    if (nk < 1 || nk > 2)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "--select takes one output or a pair");
    for (size_t q = 0; q < nk; q++)
        if (k[q] >= n)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "--select %u: outputs are numbered 0..%u for %u wires", k[q],
                               n ? n - 1 : 0, n);
    if (nk == 2 && k[0] == k[1])
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "--select %u,%u: the pair needs two outputs",
                           k[0], k[1]);
    if (n > 40)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "--select on %u wires runs all 2^%u 0-1 inputs: impossible (at most "
                           "40 wires)",
                           n, n);
    return SN_OK;
}

static sn_status select_finish(sel_job *jobs, unsigned t, const sn_comparator *cmp, size_t ncmp,
                               uint32_t n, sn_check_result *res)
{
    uint8_t *swapped = sn_calloc(ncmp + 1, 1);
    if (!swapped)
        return SN_ENOMEM;
    res->failing_count = 0;
    uint64_t minx = 0;
    for (unsigned i = 0; i < t; i++) {
        if (jobs[i].fails == UINT64_MAX) {
            sn_free(swapped);
            return SN_ENOMEM;
        }
        if (jobs[i].fails && (res->failing_count == 0 || jobs[i].min_fail < minx))
            minx = jobs[i].min_fail;
        res->failing_count += jobs[i].fails;
        for (size_t j = 0; j < ncmp; j++)
            swapped[j] |= jobs[i].swapped[j];
    }
    sn_status st = SN_OK;
    size_t count = 0;
    for (size_t j = 0; j < ncmp; j++)
        count += !swapped[j];
    if (count && !(res->redundant = sn_calloc(count, sizeof *res->redundant)))
        st = SN_ENOMEM;
    for (size_t j = 0; st == SN_OK && j < ncmp; j++)
        if (!swapped[j])
            res->redundant[res->redundant_count++] = j;
    sn_free(swapped);
    res->sorts = res->failing_count == 0;
    if (st == SN_OK && !res->sorts) {
        uint8_t in[64];
        for (uint32_t i = 0; i < n; i++)
            in[i] = (uint8_t)((minx >> i) & 1u);
        st = set_failure(res, in, n, cmp, ncmp);
    }
    return st;
}

/* Worker w of sn_parallel_workers (ctx: the sel_job array). */
static void sel_run(void *ctx, unsigned worker)
{
    sel_worker(&((sel_job *)ctx)[worker]);
}

sn_status sn_check_select(const sn_network *net, const uint32_t *k, size_t nk,
                          const sn_check_options *opt, sn_check_result *res, sn_diag *diag)
{
    memset(res, 0, sizeof *res);
    uint32_t n = sn_network_wires(net);
    sn_status st = select_args(n, k, nk, diag);
    if (st != SN_OK)
        return st;
    unsigned threads = opt && opt->threads ? opt->threads : sn_parallel_cpus();
    size_t ncmp;
    double t0 = check_now();
    uint32_t low = n < 6 ? n : 6;
    uint64_t words = (uint64_t)1 << (n - low);
    double est = ldexp(1.0, (int)n) * ((double)sn_network_size(net) + 8.0) / (1.0e11 * threads);
    if (est > 60.0 && !(opt && opt->force))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "--select runs all 2^%u = %.3g 0-1 inputs: about %.3g s on %u "
                           "thread(s); refusing without --force",
                           n, ldexp(1.0, (int)n), est, threads);
    if (threads > words)
        threads = (unsigned)words;
    sn_comparator *cmp = flatten(net, 0, sn_network_layer_count(net), &ncmp);
    sel_job *jobs = sn_calloc(threads, sizeof *jobs);
    uint8_t *sw = sn_calloc((size_t)threads * (ncmp + 1), 1);
    st = (cmp && jobs && sw) ? SN_OK : SN_ENOMEM;
    for (unsigned i = 0; st == SN_OK && i < threads; i++) {
        jobs[i] = (sel_job){cmp,
                            ncmp,
                            n,
                            {k[0], nk > 1 ? k[1] : 0},
                            nk,
                            words * i / threads,
                            words * (i + 1) / threads,
                            0,
                            0,
                            sw + (size_t)i * (ncmp + 1)};
    }
    if (st == SN_OK)
        sn_parallel_workers(threads, sel_run, jobs);
    res->n = n;
    res->inputs = (uint64_t)1 << n;
    res->method = SN_CHECK_BRUTEFORCE;
    if (st == SN_OK)
        st = select_finish(jobs, threads, cmp, ncmp, n, res);
    res->seconds = check_now() - t0;
    sn_free(cmp);
    sn_free(jobs);
    sn_free(sw);
    if (st != SN_OK) {
        sn_check_result_free(res);
        return sn_diag_set(diag, st, 0, 0, "out of memory");
    }
    return SN_OK;
}

/* ---- sorting beyond 64 wires: the split ---- */

/* Union-find over wires. */
static uint32_t find(uint32_t *p, uint32_t x)
{
    while (p[x] != x)
        x = p[x] = p[p[x]];
    return x;
}

/* Split the flat list cmp[0..ncmp) (of a network on n wires): the two
 * wire sets just before the comparator that first joins all wires (side[w]
 * 0 or 1), and which comparators come "after" that join (rest[j] = 1): a
 * comparator across the sets, or one touching a wire that such a
 * comparator touched before. The others touch only wires untouched by the
 * join so far, so they commute with every earlier joined one: the network
 * is the same as its parts (rest 0, each inside one set) followed by the
 * rest. false when the comparators never join all wires. */
static bool find_split(const sn_comparator *cmp, size_t ncmp, uint32_t n, uint8_t *side,
                       uint8_t *rest, uint32_t *parent)
{
    uint32_t sets = n;
    size_t join = ncmp;
    for (uint32_t i = 0; i < n; i++)
        parent[i] = i;
    for (size_t j = 0; j < ncmp && sets > 1; j++) {
        uint32_t x = find(parent, cmp[j].a), y = find(parent, cmp[j].b);
        if (x == y)
            continue;
        if (sets == 2) {
            join = j; /* the sets before it are the two sides */
            break;
        }
        parent[x] = y;
        sets--;
    }
    if (join == ncmp)
        return false;
    uint32_t r0 = find(parent, cmp[join].a);
    for (uint32_t i = 0; i < n; i++) {
        side[i] = find(parent, i) != r0;
        parent[i] = 0; /* reused: 1 = touched by the join */
    }
    for (size_t j = 0; j < ncmp; j++) {
        uint32_t x = cmp[j].a, y = cmp[j].b;
        rest[j] = side[x] != side[y] || parent[x] || parent[y];
        if (rest[j])
            parent[x] = parent[y] = 1;
    }
    return true;
}

/* The parts' comparators (rest 0) on the wires with side[w] == s,
 * renumbered 0.. in increasing order, in the layers they had (the
 * reduction's pattern sets stay small on Batcher's own layering). */
static sn_status part_network(const sn_network *net, const uint8_t *side, const uint8_t *rest,
                              uint8_t s, uint32_t *map, sn_network **out, sn_diag *diag)
{
    uint32_t m = 0, n = sn_network_wires(net);
    for (uint32_t i = 0; i < n; i++)
        map[i] = side[i] == s ? m++ : UINT32_MAX;
    sn_network *p = sn_network_create(m);
    sn_comparator *buf = sn_calloc((size_t)n / 2 + 1, sizeof *buf);
    if (!p || !buf) {
        sn_network_destroy(p);
        sn_free(buf);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    sn_status st = SN_OK;
    size_t j = 0;
    for (size_t k = 0; k < sn_network_layer_count(net) && st == SN_OK; k++) {
        size_t cnt, c = 0;
        const sn_comparator *l = sn_network_layer(net, k, &cnt);
        for (size_t i = 0; i < cnt; i++, j++)
            if (!rest[j] && side[l[i].a] == s)
                buf[c++] = (sn_comparator){map[l[i].a], map[l[i].b]};
        st = sn_network_layer_add(p, buf, c, diag);
    }
    sn_free(buf);
    if (st != SN_OK) {
        sn_network_destroy(p);
        return st;
    }
    *out = p;
    return SN_OK;
}

typedef struct split_ctx {
    const sn_network *net;
    const sn_comparator *cmp; /* the whole network, flat */
    size_t ncmp;
    uint32_t n;
    uint8_t *side, *rest;
    const sn_check_options *opt;
    size_t held; /* bytes held by this split and those around it */
} split_ctx;

/* Check the part on side s; on failure try its counterexample with the
 * other side all 1s and all 0s on the whole network. *verdict: 1 sorts,
 * 0 a counterexample of the whole network is in res, -1 undecided. */
static sn_status check_part(const split_ctx *x, uint8_t s, sn_check_result *res, int *verdict,
                            sn_diag *diag)
{
    uint32_t n = x->n;
    uint32_t *map = sn_calloc((size_t)n + 1, sizeof *map);
    sn_network *p = NULL;
    sn_status st = map ? part_network(x->net, x->side, x->rest, s, map, &p, diag) : SN_ENOMEM;
    sn_check_result pr;
    memset(&pr, 0, sizeof pr);
    if (st == SN_OK) {
        st = check_split(p, x->opt, &pr, diag, x->held);
        if (st == SN_ELIMIT && diag && strncmp(diag->text, "the split", 9) != 0) {
            sn_diag inner = *diag;
            sn_diag_set(diag, st, 0, 0, "the split's part on %u wires cannot be checked: %s",
                        sn_network_wires(p), inner.text);
        }
    }
    *verdict = -1;
    if (st == SN_OK && pr.sorts)
        *verdict = 1;
    if (st == SN_OK && !pr.sorts) {
        uint8_t *in = sn_calloc((size_t)n + 1, 1), *v = sn_calloc((size_t)n + 1, 1);
        st = in && v ? SN_OK : SN_ENOMEM;
        for (int fill = 1; st == SN_OK && fill >= 0 && *verdict < 0; fill--) {
            for (uint32_t i = 0; i < n; i++)
                in[i] = x->side[i] == s ? pr.counterexample[map[i]] : (uint8_t)fill;
            memcpy(v, in, n);
            run_bytes(x->cmp, x->ncmp, v);
            if (first_descent(v, n) || (n > 1 && v[0] > v[1])) {
                st = set_failure(res, in, n, x->cmp, x->ncmp);
                res->failing_count = 1; /* at least */
                *verdict = 0;
            }
        }
        if (st == SN_OK && *verdict < 0)
            st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                             "the split needs parts that sort by themselves, and its part on %u "
                             "wires does not (the rest of the network may still sort)",
                             sn_network_wires(p));
        sn_free(in);
        sn_free(v);
    }
    sn_check_result_free(&pr);
    sn_network_destroy(p);
    sn_free(map);
    return st;
}

/* The rest must merge every input sorted along each side. */
static sn_status split_merge(const split_ctx *x, sn_check_result *res)
{
    uint32_t n = x->n, a = 0, b = 0;
    uint32_t *S = sn_calloc((size_t)n + 1, sizeof *S), *T = sn_calloc((size_t)n + 1, sizeof *T);
    uint64_t *v = sn_calloc((size_t)n + 1, sizeof *v);
    uint8_t *bad = sn_calloc((size_t)n + 1, 1);
    sn_comparator *rest = sn_calloc(x->ncmp + 1, sizeof *rest);
    sn_status st = (S && T && v && bad && rest) ? SN_OK : SN_ENOMEM;
    if (st == SN_OK) {
        size_t nrest = 0;
        for (size_t j = 0; j < x->ncmp; j++)
            if (x->rest[j])
                rest[nrest++] = x->cmp[j];
        for (uint32_t i = 0; i < n; i++) {
            if (x->side[i])
                T[b++] = i;
            else
                S[a++] = i;
        }
        bool found = false, stopped = false;
        res->failing_count =
            merge_failures(rest, nrest, n, S, a, T, b, v, bad, &found, x->opt->cancel, &stopped);
        res->inputs += (uint64_t)(a + 1) * (b + 1);
        res->sorts = res->failing_count == 0;
        if (stopped)
            st = SN_EINTERRUPTED;
        else if (found)
            st = set_failure(res, bad, n, x->cmp, x->ncmp);
    }
    sn_free(S);
    sn_free(T);
    sn_free(v);
    sn_free(bad);
    sn_free(rest);
    return st;
}

sn_status check_split(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                      sn_diag *diag, size_t held)
{
    uint32_t n = sn_network_wires(net);
    sn_check_options o = *opt;
    o.method = SN_CHECK_AUTO;
    if (n <= 24) /* brute force: milliseconds */
        return sn_check_run(net, &o, res, diag);
    if (n <= 64) {
        /* a part: splitting it further is cheaper than the reduction on
         * most networks; where the split cannot decide, the reduction
         * (or brute force) does */
        sn_status st = check_split_once(net, opt, res, diag, held);
        if (st != SN_ELIMIT)
            return st;
        return check_run(net, &o, res, diag, false);
    }
    return check_split_once(net, opt, res, diag, held);
}

/* Bytes one split of a network holds while its parts are checked: the
 * flat list, its rest marks and a part network. */
static size_t split_need(size_t ncmp, uint32_t n)
{
    return ncmp * (2 * sizeof(sn_comparator) + 1) + (size_t)n * 16;
}

/* Before descending: what the nested splits of part s would hold, guessed
 * from the ratio r of its size to this one's (the same ratio at every
 * level: need / (1 - r) in all). Exact for halving networks, about 1.5
 * times too much for one that peels off a wire per level (insertion:n):
 * only a guess far past the limit refuses here, the exact count below
 * decides the rest. */
static double split_nested_guess(const sn_comparator *cmp, size_t ncmp, const uint8_t *side,
                                 const uint8_t *rest, uint32_t n, uint8_t s, uint32_t *wires)
{
    size_t pc = 0;
    uint32_t pw = 0;
    for (uint32_t i = 0; i < n; i++)
        pw += side[i] == s;
    for (size_t j = 0; j < ncmp; j++)
        pc += !rest[j] && side[cmp[j].a] == s;
    *wires = pw;
    if (pw <= 24)
        return 0.0;
    double r = (double)split_need(pc, pw) / (double)split_need(ncmp, n);
    return r < 1.0 ? (double)split_need(pc, pw) / (1.0 - r) : INFINITY;
}

sn_status check_split_once(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                           sn_diag *diag, size_t held)
{
    uint32_t n = sn_network_wires(net);
    memset(res, 0, sizeof *res);
    if (sn_cancel_requested(opt->cancel)) /* each nested split looks: one level's work at most */
        return sn_diag_set(diag, SN_EINTERRUPTED, 0, 0, "stopped on request");
    /* held meanwhile: the flat list, its rest marks and a part network
     * (each split nests its parts' splits: a network that splits off one
     * wire at a time, like insertion:n, nests n deep, O(n^3) bytes) */
    size_t ncmp = sn_network_size(net);
    size_t need = split_need(ncmp, n);
    if (need > SPLIT_MEMORY_MAX || held > SPLIT_MEMORY_MAX - need)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "the split's nested parts would hold more than %zu MiB (at %u wires "
                           "and %zu comparators, %zu MiB held around it)",
                           SPLIT_MEMORY_MAX >> 20, n, ncmp, held >> 20);
    double t0 = check_now();
    split_ctx x = {net, NULL, 0, n, sn_calloc(n, 1), NULL, opt, held + need};
    uint32_t *parent = sn_calloc(n, sizeof *parent);
    x.cmp = flatten(net, 0, sn_network_layer_count(net), &x.ncmp);
    x.rest = sn_calloc(x.ncmp + 1, 1);
    sn_status st = x.side && parent && x.cmp && x.rest ? SN_OK : SN_ENOMEM;
    if (st == SN_OK && !find_split(x.cmp, x.ncmp, n, x.side, x.rest, parent))
        st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                         "the split needs a comparator that joins all %u wires, and none does", n);
    for (uint8_t s = 0; st == SN_OK && s < 2; s++) {
        /* refuse before any part is built when the nesting is hopeless */
        uint32_t pw;
        double guess = split_nested_guess(x.cmp, x.ncmp, x.side, x.rest, n, s, &pw);
        if ((double)held + (double)need + guess > 2.0 * (double)SPLIT_MEMORY_MAX)
            st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                             "the split's part on %u of %u wires would split again and again, "
                             "its nested parts holding about %.3g GiB (limit %zu MiB)",
                             pw, n, ((double)held + (double)need + guess) / 1073741824.0,
                             SPLIT_MEMORY_MAX >> 20);
    }
    int v0 = 1, v1 = 1;
    if (st == SN_OK)
        st = check_part(&x, 0, res, &v0, diag);
    if (st == SN_OK && v0 == 1)
        st = check_part(&x, 1, res, &v1, diag);
    if (st == SN_OK && v0 == 1 && v1 == 1) {
        st = split_merge(&x, res);
        if (st == SN_EINTERRUPTED)
            st = sn_diag_set(diag, SN_EINTERRUPTED, 0, 0, "stopped on request");
    } else if (st == SN_OK)
        res->sorts = false;
    res->n = n;
    res->method = SN_CHECK_SPLIT;
    res->redundant_unknown = true;
    res->seconds = check_now() - t0;
    sn_free(x.side);
    sn_free(x.rest);
    sn_free((void *)x.cmp);
    sn_free(parent);
    if (st != SN_OK)
        sn_check_result_free(res);
    return st;
}
