/* exercise.c - make exercises from a seed and grade answers (exercise.h).
 *
 * Invariant: every fact an answer is graded against comes from the core's
 * own tools at the time it is needed (the executor, sn_check_run,
 * sn_check_merge) on the very network the student sees; the generator
 * only picks networks and inputs, with splitmix64 seeded by (kind, seed,
 * n), so a seed gives the same exercise natively and in the page. */
#include "core/exercise.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check.h"
#include "core/construct.h"
#include "core/exec.h"
#include "core/library.h"
#include "core/schedule.h"

static const char *const kind_names[SN_EXERCISE_KINDS] = {
    "predict", "counterexample", "complete", "redundant", "depth", "merger"};

const char *sn_exercise_kind_name(sn_exercise_kind k)
{
    return (unsigned)k < SN_EXERCISE_KINDS ? kind_names[k] : "?";
}

bool sn_exercise_kind_parse(const char *name, sn_exercise_kind *out)
{
    for (unsigned k = 0; k < SN_EXERCISE_KINDS; k++)
        if (strcmp(name, kind_names[k]) == 0) {
            *out = (sn_exercise_kind)k;
            return true;
        }
    return false;
}

uint32_t sn_exercise_default_n(sn_exercise_kind k)
{
    return k == SN_EXERCISE_MERGER ? 8 : 6;
}

void sn_exercise_free(sn_exercise *e)
{
    if (!e)
        return;
    sn_network_destroy(e->net);
    sn_free(e->input);
    sn_free(e->expect);
    sn_free(e->redundant);
    sn_free(e);
}

/* ---- the generator's randomness: splitmix64, the same everywhere */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t rng_below(uint64_t *s, uint32_t m)
{
    return m ? (uint32_t)(rng_next(s) % m) : 0;
}

/* ---- networks as flat comparator lists */

static sn_status flatten(const sn_network *net, sn_comparator **out, size_t *count, sn_diag *diag)
{
    size_t size = sn_network_size(net), at = 0;
    *out = sn_calloc(size ? size : 1, sizeof **out);
    if (!*out)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (size_t k = 0; k < sn_network_layer_count(net); k++) {
        size_t c = 0;
        const sn_comparator *l = sn_network_layer(net, k, &c);
        memcpy(*out + at, l, c * sizeof *l);
        at += c;
    }
    *count = size;
    return SN_OK;
}

static int by_top_wire(const void *x, const void *y)
{
    const sn_comparator *a = x, *b = y;
    return a->a != b->a ? (a->a < b->a ? -1 : 1) : (a->b < b->b ? -1 : a->b > b->b);
}

/* net with each layer's comparators top wire first, the order a student
 * counts them in (the same network: a layer's comparators touch disjoint
 * wires). Consumes net. */
static sn_status tidy(sn_network *net, sn_network **out, sn_diag *diag)
{
    *out = NULL;
    sn_network *t = sn_network_create(sn_network_wires(net));
    sn_comparator *buf = sn_calloc(sn_network_wires(net), sizeof *buf);
    sn_status st = t && buf ? SN_OK : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (size_t k = 0; st == SN_OK && k < sn_network_layer_count(net); k++) {
        size_t c = 0;
        const sn_comparator *l = sn_network_layer(net, k, &c);
        memcpy(buf, l, c * sizeof *l);
        qsort(buf, c, sizeof *buf, by_top_wire);
        st = sn_network_layer_add(t, buf, c, diag);
    }
    if (st == SN_OK && sn_network_name(net) && sn_network_name(net)[0])
        st = sn_network_set_name(t, sn_network_name(net));
    sn_free(buf);
    sn_network_destroy(net);
    if (st != SN_OK) {
        sn_network_destroy(t);
        return st;
    }
    *out = t;
    return SN_OK;
}

/* Comparators list[0..count) in order, each in the earliest layer it can
 * go (the same behaviour: a comparator still follows every earlier one on
 * its wires); one_per_layer puts each in a layer of its own. */
static sn_status build(uint32_t n, const sn_comparator *list, size_t count, bool one_per_layer,
                       sn_network **out, sn_diag *diag)
{
    sn_network *net = sn_network_create(n);
    if (!net)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (size_t i = 0; i < count; i++) {
        sn_status st = one_per_layer ? sn_network_layer_add(net, &list[i], 1, diag)
                                     : sn_network_add_asap(net, list[i].a, list[i].b, diag);
        if (st != SN_OK) {
            sn_network_destroy(net);
            return st;
        }
    }
    return tidy(net, out, diag);
}

/* A sorting network on n wires picked by the seed: the best known one or
 * one of the classic constructions, every comparator in standard form. */
static sn_status base_sorter(uint64_t *rng, uint32_t n, sn_network **out, sn_diag *diag)
{
    static const sn_algo algos[] = {SN_ALGO_ODDEVEN_SPLIT, SN_ALGO_BOSE_NELSON,
                                    SN_ALGO_MERGE_EXCHANGE, SN_ALGO_HIBBARD};
    uint32_t pick = rng_below(rng, 5);
    size_t lib = sn_library_best(n, false);
    sn_network *net = NULL;
    sn_status st;
    if (pick == 4 && lib != SN_LIBRARY_NONE) {
        st = sn_library_network(lib, NULL, &net, diag);
    } else {
        net = sn_network_create(n);
        st = net ? sn_construct_sort(algos[pick % 4], net, diag)
                 : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    if (st != SN_OK) {
        sn_network_destroy(net);
        return st;
    }
    return tidy(net, out, diag);
}

/* base_sorter's comparators as one list in layer order (owned by the
 * caller), for the exercises that take comparators out of a sorter. */
static sn_status base_sorter_list(uint64_t *rng, uint32_t n, sn_comparator **list, size_t *count,
                                  sn_diag *diag)
{
    sn_network *base = NULL;
    sn_status st = base_sorter(rng, n, &base, diag);
    if (st == SN_OK)
        st = flatten(base, list, count, diag);
    sn_network_destroy(base);
    return st;
}

/* ---- running the network (the executor) */

/* keys[0..n) through layers [from, from + layers) of net. */
static sn_status run_layers_from(const sn_network *net, size_t from, size_t layers, uint32_t *keys,
                                 sn_diag *diag)
{
    sn_network *copy = sn_network_clone(net);
    sn_schedule *s = NULL;
    if (!copy || sn_schedule_from_network(copy, &s) != SN_OK)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    size_t L = sn_schedule_layer_count(s);
    for (size_t k = from; k < from + layers && k < L; k++)
        sn_exec_layer(s, k, SN_KEY_U32, keys, NULL, NULL);
    sn_schedule_destroy(s);
    return SN_OK;
}

/* keys[0..n) after the first `layers` layers of net. */
static sn_status run_layers(const sn_network *net, size_t layers, uint32_t *keys, sn_diag *diag)
{
    return run_layers_from(net, 0, layers, keys, diag);
}

static bool sorted(const uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (v[i - 1] > v[i])
            return false;
    return true;
}

static void fmt_values(char *buf, size_t cap, const uint32_t *v, uint32_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n && len < cap; i++) {
        int w = snprintf(buf + len, cap - len, "%s%u", i ? "," : "", v[i]);
        if (w < 0)
            return;
        len += (size_t)w;
    }
}

static void fmt_bits(char *buf, size_t cap, const uint32_t *v, uint32_t n)
{
    size_t i = 0;
    for (; i < n && i + 1 < cap; i++)
        buf[i] = (char)('0' + (v[i] ? 1 : 0));
    buf[i] = '\0';
}

/* The smallest failing 0-1 input of net into cex[0..n); false when it
 * sorts. */
static sn_status find_failing(const sn_network *net, uint32_t *cex, bool *fails, sn_diag *diag)
{
    sn_check_result res;
    sn_status st = sn_check_run(net, NULL, &res, diag);
    if (st != SN_OK)
        return st;
    *fails = !res.sorts;
    for (uint32_t i = 0; *fails && i < res.n; i++)
        cex[i] = res.counterexample[i];
    sn_check_result_free(&res);
    return SN_OK;
}

/* A 0-1 input on which comparator `index` (layer order) swaps, into bits;
 * false when it never swaps. */
static sn_status swap_witness(const sn_network *net, size_t index, uint32_t *bits, bool *found,
                              sn_diag *diag)
{
    uint32_t n = sn_network_wires(net);
    size_t layer = 0, j = 0;
    sn_comparator c;
    *found = false;
    if (!sn_network_comparator(net, index, &c, &layer))
        return SN_OK;
    j = index - sn_network_layer_offset(net, layer);
    uint8_t *sw = sn_calloc(n, 1);
    sn_network *copy = sw ? sn_network_clone(net) : NULL;
    sn_schedule *s = NULL;
    if (!copy || sn_schedule_from_network(copy, &s) != SN_OK) { /* copy consumed either way */
        sn_free(sw);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    uint32_t keys[SN_EXERCISE_MAX_N];
    for (uint64_t x = 0; x < ((uint64_t)1 << n) && !*found; x++) {
        for (uint32_t i = 0; i < n; i++)
            keys[i] = (uint32_t)(x >> i) & 1u;
        for (size_t k = 0; k < layer; k++)
            sn_exec_layer(s, k, SN_KEY_U32, keys, NULL, NULL);
        uint32_t before[SN_EXERCISE_MAX_N];
        memcpy(before, keys, n * sizeof *keys);
        sn_exec_layer(s, layer, SN_KEY_U32, keys, NULL, sw);
        if (sw[j]) {
            *found = true;
            for (uint32_t i = 0; i < n; i++)
                bits[i] = (uint32_t)(x >> i) & 1u;
        }
    }
    sn_free(sw);
    sn_schedule_destroy(s);
    return SN_OK;
}

/* v = a random permutation of 1..n (Fisher-Yates). */
static void shuffle(uint64_t *rng, uint32_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        v[i] = i + 1;
    for (uint32_t i = n - 1; i > 0; i--) {
        uint32_t j = rng_below(rng, i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* ---- making each kind */

static sn_status make_predict(sn_exercise *e, uint64_t *rng, sn_diag *diag)
{
    sn_status st = base_sorter(rng, e->n, &e->net, diag);
    if (st != SN_OK)
        return st;
    size_t L = sn_network_layer_count(e->net);
    uint32_t after[SN_EXERCISE_MAX_N];
    /* an input and a layer where something moves (a layer that swaps
     * nothing teaches little); the last draw stands if none does */
    for (int tries = 0; tries < 64; tries++) {
        shuffle(rng, e->input, e->n);
        e->at = rng_below(rng, (uint32_t)L);
        uint32_t before[SN_EXERCISE_MAX_N];
        memcpy(before, e->input, e->n * sizeof *before);
        if ((st = run_layers(e->net, e->at, before, diag)) != SN_OK)
            return st;
        memcpy(after, before, e->n * sizeof *after);
        if ((st = run_layers_from(e->net, e->at, 1, after, diag)) != SN_OK)
            return st;
        memcpy(e->expect, after, e->n * sizeof *after);
        bool moved = memcmp(after, before, e->n * sizeof *after) != 0;
        if (moved)
            break;
    }
    snprintf(e->question, sizeof e->question,
             "Predict: what are the values, top wire first, after layer %zu?", e->at + 1);
    snprintf(e->hint, sizeof e->hint,
             "Look at layer %zu only: each comparator swaps its two values when the upper one "
             "is larger, and wires it does not touch keep theirs.",
             e->at + 1);
    return SN_OK;
}

static sn_status make_counterexample(sn_exercise *e, uint64_t *rng, sn_diag *diag)
{
    sn_comparator *list = NULL;
    size_t count = 0;
    sn_status st = base_sorter_list(rng, e->n, &list, &count, diag);
    if (st != SN_OK)
        return st;
    /* drop one comparator, starting at a random one, until it fails */
    uint32_t start = rng_below(rng, (uint32_t)count);
    for (size_t t = 0; t < count && st == SN_OK; t++) {
        size_t drop = (start + t) % count;
        sn_comparator keep = list[drop];
        memmove(list + drop, list + drop + 1, (count - drop - 1) * sizeof *list);
        sn_network *net = NULL;
        st = build(e->n, list, count - 1, false, &net, diag);
        memmove(list + drop + 1, list + drop, (count - drop - 1) * sizeof *list);
        list[drop] = keep;
        if (st != SN_OK)
            break;
        uint32_t cex[SN_EXERCISE_MAX_N];
        bool fails = false;
        st = find_failing(net, cex, &fails, diag);
        if (st == SN_OK && fails) {
            e->net = net;
            break;
        }
        sn_network_destroy(net);
    }
    sn_free(list);
    if (st == SN_OK && !e->net) /* every sorter here has a comparator it needs */
        st = sn_diag_set(diag, SN_EINVAL, 0, 0, "no counterexample exercise on %u wires", e->n);
    if (st != SN_OK)
        return st;
    for (uint32_t i = 0; i < e->n; i++)
        e->input[i] = e->n - i;
    e->at = sn_network_layer_count(e->net);
    snprintf(e->question, sizeof e->question,
             "This network does not sort. Give an input it fails on (%u values, or %u bits "
             "such as 0110).",
             e->n, e->n);
    snprintf(e->hint, sizeof e->hint,
             "Try inputs of 0s and 1s (the 0-1 principle): the 0-1 panel (Z) shows two wires "
             "that can still end out of order.");
    return SN_OK;
}

static sn_status make_complete(sn_exercise *e, uint64_t *rng, sn_diag *diag)
{
    sn_comparator *list = NULL;
    size_t count = 0;
    sn_status st = base_sorter_list(rng, e->n, &list, &count, diag);
    if (st != SN_OK)
        return st;
    uint32_t most = count / 3 < 3 ? (uint32_t)(count / 3) : 3;
    size_t drop = 1 + rng_below(rng, most ? most : 1);
    e->given = count - drop;
    st = build(e->n, list, e->given, false, &e->net, diag);
    sn_free(list);
    if (st != SN_OK)
        return st;
    e->best = sn_library_best_size(e->n);
    /* an input the given part leaves unsorted, when a few draws find one */
    for (int tries = 0; tries < 64; tries++) {
        shuffle(rng, e->input, e->n);
        uint32_t out[SN_EXERCISE_MAX_N];
        memcpy(out, e->input, e->n * sizeof *out);
        if ((st = run_layers(e->net, sn_network_layer_count(e->net), out, diag)) != SN_OK)
            return st;
        if (!sorted(out, e->n))
            break;
    }
    e->at = sn_network_layer_count(e->net);
    if (e->best)
        snprintf(e->question, sizeof e->question,
                 "Add comparators until this network sorts (edit mode, E). The best known "
                 "network on %u wires has %zu comparators; this one has %zu.",
                 e->n, e->best, e->given);
    else
        snprintf(e->question, sizeof e->question,
                 "Add comparators until this network sorts (edit mode, E); it has %zu.",
                 e->given);
    snprintf(e->hint, sizeof e->hint,
             "The 0-1 panel (Z) shows which wires can still hold a 1 above a 0 at the end; a "
             "comparator on such a pair fixes it.");
    return SN_OK;
}

static sn_status make_redundant(sn_exercise *e, uint64_t *rng, sn_diag *diag)
{
    sn_network *base = NULL;
    sn_comparator *list = NULL, *grown = NULL;
    size_t count = 0;
    sn_status st = base_sorter(rng, e->n, &base, diag);
    if (st == SN_OK)
        st = flatten(base, &list, &count, diag);
    sn_network_destroy(base);
    if (st == SN_OK && !(grown = sn_calloc(count + 3, sizeof *grown)))
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    /* a sorter with one to three comparators slipped in; the analysis
     * says which comparators never swap (at least one, at most four) */
    for (int tries = 0; tries < 32 && st == SN_OK; tries++) {
        size_t extra = 1 + rng_below(rng, 3), len = count;
        memcpy(grown, list, count * sizeof *list);
        for (size_t x = 0; x < extra; x++) {
            uint32_t a = rng_below(rng, e->n), b = rng_below(rng, e->n - 1);
            b += b >= a;
            size_t pos = rng_below(rng, (uint32_t)len + 1);
            memmove(grown + pos + 1, grown + pos, (len - pos) * sizeof *grown);
            grown[pos] = (sn_comparator){a < b ? a : b, a < b ? b : a};
            len++;
        }
        sn_network *net = NULL;
        bool sorts = false;
        size_t *red = NULL, rc = 0;
        st = build(e->n, grown, len, false, &net, diag);
        if (st == SN_OK)
            st = sn_check_quick(net, &sorts, &red, &rc, diag);
        if (st == SN_OK && ((rc >= 1 && rc <= 4) || tries == 31) && rc >= 1) {
            sn_network_destroy(e->net);
            e->net = net;
            sn_free(e->redundant);
            e->redundant = red;
            e->redundant_count = rc;
            break;
        }
        sn_network_destroy(net);
        sn_free(red);
    }
    sn_free(list);
    sn_free(grown);
    if (st == SN_OK && !e->net)
        st = sn_diag_set(diag, SN_EINVAL, 0, 0, "no redundant exercise on %u wires", e->n);
    if (st != SN_OK)
        return st;
    for (uint32_t i = 0; i < e->n; i++)
        e->input[i] = e->n - i;
    e->at = 0;
    snprintf(e->question, sizeof e->question,
             "Which comparators never swap, on any input? Number them from 0 in layer order, "
             "top to bottom (e.g. 2,5).");
    snprintf(e->hint, sizeof e->hint,
             "A comparator never swaps when its upper wire can never hold a 1 while its lower "
             "wire holds a 0: follow the 0-1 panel (Z) up to it.");
    return SN_OK;
}

static sn_status make_depth(sn_exercise *e, uint64_t *rng, sn_diag *diag)
{
    size_t m = e->n + rng_below(rng, e->n);
    sn_comparator *list = sn_calloc(m, sizeof *list);
    if (!list)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (size_t i = 0; i < m; i++) {
        sn_comparator c;
        do {
            uint32_t a = rng_below(rng, e->n), b = rng_below(rng, e->n - 1);
            b += b >= a;
            c = (sn_comparator){a < b ? a : b, a < b ? b : a};
        } while (i && c.a == list[i - 1].a && c.b == list[i - 1].b);
        list[i] = c;
    }
    sn_network *packed = NULL;
    sn_status st = build(e->n, list, m, true, &e->net, diag);
    if (st == SN_OK)
        st = build(e->n, list, m, false, &packed, diag);
    sn_free(list);
    if (st != SN_OK)
        return st;
    e->depth = sn_network_layer_count(packed);
    sn_network_destroy(packed);
    for (uint32_t i = 0; i < e->n; i++)
        e->input[i] = e->n - i;
    e->at = 0;
    snprintf(e->question, sizeof e->question,
             "These %zu comparators run one at a time. In how many layers could they run, each "
             "as early as it can?",
             m);
    snprintf(e->hint, sizeof e->hint,
             "Comparators on four different wires can share a layer; a comparator must come "
             "after the last earlier one on either of its wires.");
    return SN_OK;
}

static sn_status make_merger(sn_exercise *e, uint64_t *rng, sn_diag *diag)
{
    e->half = e->n >= 4 ? 2 + rng_below(rng, e->n - 3) : 1;
    sn_network *merge = NULL;
    sn_comparator *list = NULL;
    size_t count = 0;
    sn_status st = sn_construct_merge(e->half, e->n - e->half, &merge, diag);
    if (st == SN_OK)
        st = flatten(merge, &list, &count, diag);
    if (st != SN_OK) {
        sn_network_destroy(merge);
        return st;
    }
    /* half the seeds: the merge with one comparator left out */
    if (count > 1 && rng_below(rng, 2)) {
        size_t drop = rng_below(rng, (uint32_t)count);
        memmove(list + drop, list + drop + 1, (count - drop - 1) * sizeof *list);
        sn_network_destroy(merge);
        merge = NULL;
        st = build(e->n, list, count - 1, false, &merge, diag);
    }
    sn_free(list);
    sn_check_result res;
    if (st == SN_OK && (st = sn_check_merge(merge, e->half, &res, diag)) == SN_OK) {
        e->merges = res.sorts;
        sn_check_result_free(&res);
    }
    if (st != SN_OK) {
        sn_network_destroy(merge);
        return st;
    }
    e->net = merge;
    for (uint32_t i = 0; i < e->n; i++) /* two sorted runs */
        e->input[i] = i < e->half ? 2 * i + 1 : 2 * (i - e->half) + 2;
    e->at = 0;
    snprintf(e->question, sizeof e->question,
             "Wires 0 to %u and wires %u to %u each hold sorted values. Does this network "
             "always merge them into one sorted list? (yes or no)",
             e->half - 1, e->half, e->n - 1);
    snprintf(e->hint, sizeof e->hint,
             "By the 0-1 principle, %u inputs decide it: each half is some 0s then 1s. Try "
             "those that put a 1 high in one half and a 0 low in the other.",
             (e->half + 1) * (e->n - e->half + 1));
    return SN_OK;
}

sn_status sn_exercise_make(sn_exercise_kind kind, uint64_t seed, uint32_t n, sn_exercise **out,
                           sn_diag *diag)
{
    *out = NULL;
    if ((unsigned)kind >= SN_EXERCISE_KINDS)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "no such exercise kind");
    if (n == 0)
        n = sn_exercise_default_n(kind);
    if (n < SN_EXERCISE_MIN_N || n > SN_EXERCISE_MAX_N || (kind == SN_EXERCISE_MERGER && n < 4))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "n=%u: an exercise has %u to %u wires (a merger at least 4)", n,
                           SN_EXERCISE_MIN_N, SN_EXERCISE_MAX_N);
    sn_exercise *e = sn_calloc(1, sizeof *e);
    if (!e)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    e->kind = kind;
    e->seed = seed;
    e->n = n;
    e->input = sn_calloc(n, sizeof *e->input);
    if (kind == SN_EXERCISE_PREDICT)
        e->expect = sn_calloc(n, sizeof *e->expect);
    if (!e->input || (kind == SN_EXERCISE_PREDICT && !e->expect)) {
        sn_exercise_free(e);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    uint64_t rng = seed ^ ((uint64_t)kind << 56) ^ ((uint64_t)n << 40) ^ 0x5EED5EED5EEDull;
    sn_status st;
    switch (kind) {
    case SN_EXERCISE_PREDICT: st = make_predict(e, &rng, diag); break;
    case SN_EXERCISE_COUNTEREXAMPLE: st = make_counterexample(e, &rng, diag); break;
    case SN_EXERCISE_COMPLETE: st = make_complete(e, &rng, diag); break;
    case SN_EXERCISE_REDUNDANT: st = make_redundant(e, &rng, diag); break;
    case SN_EXERCISE_DEPTH: st = make_depth(e, &rng, diag); break;
    default: st = make_merger(e, &rng, diag); break;
    }
    if (st != SN_OK) {
        sn_exercise_free(e);
        return st;
    }
    char name[64];
    snprintf(name, sizeof name, "%s seed %llu", kind_names[kind], (unsigned long long)seed);
    if (sn_network_set_name(e->net, name) != SN_OK) {
        sn_exercise_free(e);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    *out = e;
    return SN_OK;
}

/* ---- reading answers */

static const char *skip_blanks(const char *c)
{
    while (*c == ' ' || *c == '\t')
        c++;
    return c;
}

/* Whole numbers from 0 separated by commas or blanks, at most max; -1
 * when something else is there. */
static long read_numbers(const char *text, uint32_t *out, size_t max, unsigned long limit)
{
    size_t got = 0;
    const char *c = skip_blanks(text);
    while (*c) {
        if (!isdigit((unsigned char)*c) || got == max)
            return -1;
        char *end;
        errno = 0;
        unsigned long v = strtoul(c, &end, 10);
        if (errno || v > limit)
            return -1;
        out[got++] = (uint32_t)v;
        c = skip_blanks(end);
        if (*c == ',' || *c == ';')
            c = skip_blanks(c + 1);
    }
    return (long)got;
}

/* n values or n bits into v. */
static sn_status read_input(const sn_exercise *e, const char *answer, uint32_t *v, sn_diag *diag)
{
    const char *a = skip_blanks(answer);
    size_t len = strlen(a);
    while (len && (a[len - 1] == ' ' || a[len - 1] == '\t'))
        len--;
    if (len == e->n && strspn(a, "01") == len) {
        for (uint32_t i = 0; i < e->n; i++)
            v[i] = (uint32_t)(a[i] - '0');
        return SN_OK;
    }
    uint32_t buf[SN_EXERCISE_MAX_N + 1];
    long got = read_numbers(a, buf, SN_EXERCISE_MAX_N + 1, 2147483647ul);
    if (got != (long)e->n)
        return sn_diag_set(diag, SN_EPARSE, 0, 0,
                           "answer '%.60s': expected %u whole numbers from 0 (one per wire, top "
                           "first, e.g. %s) or %u bits",
                           answer, e->n, e->n == 3 ? "3,1,2" : "3,1,2,...", e->n);
    memcpy(v, buf, e->n * sizeof *v);
    return SN_OK;
}

static void grade_init(sn_exercise_grade *g)
{
    memset(g, 0, sizeof *g);
    g->show_step = SIZE_MAX;
}

static sn_status grade_predict(const sn_exercise *e, const char *answer, sn_exercise_grade *g,
                               sn_diag *diag)
{
    uint32_t v[SN_EXERCISE_MAX_N];
    sn_status st = read_input(e, answer, v, diag);
    if (st != SN_OK)
        return st;
    char want[200];
    fmt_values(want, sizeof want, e->expect, e->n);
    g->show_input = true;
    memcpy(g->show, e->input, e->n * sizeof *e->input);
    g->show_step = e->at + 1;
    uint32_t i = 0;
    while (i < e->n && v[i] == e->expect[i])
        i++;
    g->right = i == e->n;
    if (g->right) {
        snprintf(g->explain, sizeof g->explain, "Right: after layer %zu the values are %s.",
                 e->at + 1, want);
        return SN_OK;
    }
    /* the first wire that differs, and why it holds what it holds */
    size_t count = 0;
    const sn_comparator *l = sn_network_layer(e->net, e->at, &count);
    uint32_t before[SN_EXERCISE_MAX_N];
    memcpy(before, e->input, e->n * sizeof *before);
    if ((st = run_layers(e->net, e->at, before, diag)) != SN_OK)
        return st;
    char why[240];
    snprintf(why, sizeof why, "no comparator of layer %zu touches it, so it keeps %u", e->at + 1,
             before[i]);
    for (size_t k = 0; k < count; k++)
        if (l[k].a == i || l[k].b == i) {
            uint32_t x = before[l[k].a], y = before[l[k].b];
            snprintf(why, sizeof why,
                     "comparator (%u,%u) meets %u and %u and puts the %s, %u, on wire %u", l[k].a,
                     l[k].b, x, y, l[k].a == i ? "smaller" : "larger",
                     l[k].a == i ? (x < y ? x : y) : (x < y ? y : x), i);
        }
    snprintf(g->explain, sizeof g->explain,
             "Not quite: after layer %zu the values are %s. Wire %u: %s.", e->at + 1, want, i,
             why);
    return SN_OK;
}

static sn_status grade_counterexample(const sn_exercise *e, const char *answer,
                                      sn_exercise_grade *g, sn_diag *diag)
{
    uint32_t v[SN_EXERCISE_MAX_N], out[SN_EXERCISE_MAX_N];
    sn_status st = read_input(e, answer, v, diag);
    if (st != SN_OK)
        return st;
    memcpy(out, v, e->n * sizeof *v);
    if ((st = run_layers(e->net, sn_network_layer_count(e->net), out, diag)) != SN_OK)
        return st;
    char in_t[200], out_t[200];
    fmt_values(in_t, sizeof in_t, v, e->n);
    fmt_values(out_t, sizeof out_t, out, e->n);
    g->right = !sorted(out, e->n);
    g->show_input = true;
    if (g->right) {
        memcpy(g->show, v, e->n * sizeof *v);
        snprintf(g->explain, sizeof g->explain, "Right: %s comes out %s, not sorted.", in_t,
                 out_t);
        return SN_OK;
    }
    bool fails = false;
    uint32_t cex[SN_EXERCISE_MAX_N], cout[SN_EXERCISE_MAX_N];
    if ((st = find_failing(e->net, cex, &fails, diag)) != SN_OK)
        return st;
    memcpy(cout, cex, e->n * sizeof *cex);
    if ((st = run_layers(e->net, sn_network_layer_count(e->net), cout, diag)) != SN_OK)
        return st;
    char c_t[40], co_t[40];
    fmt_bits(c_t, sizeof c_t, cex, e->n);
    fmt_bits(co_t, sizeof co_t, cout, e->n);
    memcpy(g->show, cex, e->n * sizeof *cex);
    snprintf(g->explain, sizeof g->explain,
             "Not this one: %s comes out sorted (%s). The network fails on %s, which comes out "
             "%s.",
             in_t, out_t, c_t, co_t);
    return SN_OK;
}

/* Whether the given comparators (e->net's) appear in net in their order. */
static sn_status keeps_given(const sn_exercise *e, const sn_network *net, bool *keeps,
                             sn_comparator *missing, sn_diag *diag)
{
    sn_comparator *given = NULL, *have = NULL;
    size_t gc = 0, hc = 0;
    sn_status st = flatten(e->net, &given, &gc, diag);
    if (st == SN_OK)
        st = flatten(net, &have, &hc, diag);
    if (st == SN_OK) {
        size_t i = 0;
        for (size_t j = 0; j < hc && i < gc; j++)
            if (have[j].a == given[i].a && have[j].b == given[i].b)
                i++;
        *keeps = i == gc;
        if (!*keeps)
            *missing = given[i];
    }
    sn_free(given);
    sn_free(have);
    return st;
}

sn_status sn_exercise_check_network(const sn_exercise *e, const sn_network *net,
                                    sn_exercise_grade *g, sn_diag *diag)
{
    grade_init(g);
    if (e->kind != SN_EXERCISE_COMPLETE)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "a %s exercise is not answered with a network",
                           kind_names[e->kind]);
    if (sn_network_wires(net) != e->n)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "the answer has %u wires, the exercise %u",
                           sn_network_wires(net), e->n);
    bool keeps = false;
    sn_comparator miss = {0, 0};
    sn_status st = keeps_given(e, net, &keeps, &miss, diag);
    if (st != SN_OK)
        return st;
    g->size = sn_network_size(net);
    if (!keeps) {
        snprintf(g->explain, sizeof g->explain,
                 "The given comparators must stay, in their order: (%u,%u) is gone. Add "
                 "comparators; do not remove or move them.",
                 miss.a, miss.b);
        return SN_OK;
    }
    bool fails = false;
    uint32_t cex[SN_EXERCISE_MAX_N], out[SN_EXERCISE_MAX_N];
    if ((st = find_failing(net, cex, &fails, diag)) != SN_OK)
        return st;
    if (fails) {
        memcpy(out, cex, e->n * sizeof *cex);
        if ((st = run_layers(net, sn_network_layer_count(net), out, diag)) != SN_OK)
            return st;
        char c_t[40], o_t[40];
        fmt_bits(c_t, sizeof c_t, cex, e->n);
        fmt_bits(o_t, sizeof o_t, out, e->n);
        g->show_input = true;
        memcpy(g->show, cex, e->n * sizeof *cex);
        snprintf(g->explain, sizeof g->explain,
                 "It does not sort yet: %s comes out %s. Find the wires where a 1 ends above a "
                 "0 and add a comparator there.",
                 c_t, o_t);
        return SN_OK;
    }
    g->right = true;
    g->extra = e->best && g->size > e->best ? g->size - e->best : 0;
    if (!e->best)
        snprintf(g->explain, sizeof g->explain, "Right: it sorts, with %zu comparators.",
                 g->size);
    else if (g->extra)
        snprintf(g->explain, sizeof g->explain,
                 "Right: it sorts, with %zu comparators; the best known has %zu (%zu fewer).",
                 g->size, e->best, g->extra);
    else
        snprintf(g->explain, sizeof g->explain,
                 "Right: it sorts, with %zu comparators, as few as the best known network.",
                 g->size);
    return SN_OK;
}

/* complete's text: "(a,b),(c,d)" appended to the given network. */
static sn_status grade_complete_text(const sn_exercise *e, const char *answer,
                                     sn_exercise_grade *g, sn_diag *diag)
{
    sn_network *net = sn_network_clone(e->net);
    if (!net)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    const char *c = skip_blanks(answer);
    sn_status st = SN_OK;
    while (*c && st == SN_OK) {
        unsigned a, b;
        int used = 0;
        if (sscanf(c, " ( %u , %u )%n", &a, &b, &used) != 2 || used == 0 || a >= e->n ||
            b >= e->n || a == b) {
            st = sn_diag_set(diag, SN_EPARSE, 0, 0,
                             "answer '%.60s': expected comparators to add, e.g. (0,1),(2,3), "
                             "wires 0 to %u",
                             answer, e->n - 1);
            break;
        }
        st = sn_network_add_asap(net, a, b, diag);
        c = skip_blanks(c + used);
        if (*c == ',')
            c = skip_blanks(c + 1);
    }
    if (st == SN_OK)
        st = sn_exercise_check_network(e, net, g, diag);
    sn_network_destroy(net);
    return st;
}

static sn_status grade_redundant(const sn_exercise *e, const char *answer, sn_exercise_grade *g,
                                 sn_diag *diag)
{
    size_t size = sn_network_size(e->net);
    uint32_t got[64];
    long k = 0;
    const char *a = skip_blanks(answer);
    if (strcmp(a, "-") != 0 && strcmp(a, "none") != 0)
        k = read_numbers(a, got, 64, size ? size - 1 : 0);
    if (k < 0)
        return sn_diag_set(diag, SN_EPARSE, 0, 0,
                           "answer '%.60s': expected comparator numbers from 0 to %zu in layer "
                           "order (e.g. 2,5), or - for none",
                           answer, size ? size - 1 : 0);
    bool marked[4096] = {false};
    for (long i = 0; i < k && got[i] < 4096; i++)
        marked[got[i]] = true;
    bool never[4096] = {false};
    for (size_t i = 0; i < e->redundant_count; i++)
        if (e->redundant[i] < 4096)
            never[e->redundant[i]] = true;
    char want[200] = "";
    for (size_t i = 0; i < e->redundant_count; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%zu", i ? "," : "",
                 e->redundant[i]);
    /* the first mistake explains: a comparator marked that swaps (with an
     * input on which it does), or one left out that never swaps */
    for (size_t i = 0; i < size && i < 4096; i++) {
        if (marked[i] == never[i])
            continue;
        if (marked[i]) {
            uint32_t bits[SN_EXERCISE_MAX_N];
            bool found = false;
            sn_status st = swap_witness(e->net, i, bits, &found, diag);
            if (st != SN_OK)
                return st;
            char b_t[40];
            fmt_bits(b_t, sizeof b_t, bits, e->n);
            g->show_input = true;
            memcpy(g->show, bits, e->n * sizeof *bits);
            snprintf(g->explain, sizeof g->explain,
                     "Not quite: comparator %zu swaps on input %s. The ones that never swap: "
                     "%s.",
                     i, b_t, want);
        } else {
            snprintf(g->explain, sizeof g->explain,
                     "Not quite: comparator %zu never swaps too. The ones that never swap: %s.",
                     i, want);
        }
        return SN_OK;
    }
    g->right = true;
    snprintf(g->explain, sizeof g->explain,
             "Right: %s never swap%s; removing them leaves a network that does the same.", want,
             e->redundant_count == 1 ? "s" : "");
    return SN_OK;
}

sn_status sn_exercise_check(const sn_exercise *e, const char *answer, sn_exercise_grade *g,
                            sn_diag *diag)
{
    grade_init(g);
    const char *a = skip_blanks(answer);
    switch (e->kind) {
    case SN_EXERCISE_PREDICT: return grade_predict(e, a, g, diag);
    case SN_EXERCISE_COUNTEREXAMPLE: return grade_counterexample(e, a, g, diag);
    case SN_EXERCISE_COMPLETE: return grade_complete_text(e, a, g, diag);
    case SN_EXERCISE_REDUNDANT: return grade_redundant(e, a, g, diag);
    case SN_EXERCISE_DEPTH: {
        uint32_t d[2];
        if (read_numbers(a, d, 1, 1000000ul) != 1)
            return sn_diag_set(diag, SN_EPARSE, 0, 0,
                               "answer '%.60s': expected a number of layers, e.g. 4", answer);
        g->right = d[0] == e->depth;
        snprintf(g->explain, sizeof g->explain,
                 "%s: they fit in %zu layers, each comparator in the first layer after the last "
                 "earlier one on its wires.",
                 g->right ? "Right" : "Not quite", e->depth);
        return SN_OK;
    }
    default: break;
    }
    bool yes = strcmp(a, "yes") == 0 || strcmp(a, "y") == 0;
    if (!yes && strcmp(a, "no") != 0 && strcmp(a, "n") != 0)
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "answer '%.60s': expected yes or no", answer);
    g->right = yes == e->merges;
    if (e->merges) {
        snprintf(g->explain, sizeof g->explain,
                 "%s: it merges. All %u inputs of 0s and 1s with sorted halves come out sorted, "
                 "and by the 0-1 principle so does every input with sorted halves.",
                 g->right ? "Right" : "Not quite", (e->half + 1) * (e->n - e->half + 1));
        return SN_OK;
    }
    sn_check_result res;
    sn_status st = sn_check_merge(e->net, e->half, &res, diag);
    if (st != SN_OK)
        return st;
    uint32_t in[SN_EXERCISE_MAX_N], out[SN_EXERCISE_MAX_N];
    for (uint32_t i = 0; i < e->n; i++)
        in[i] = out[i] = res.counterexample ? res.counterexample[i] : 0;
    sn_check_result_free(&res);
    if ((st = run_layers(e->net, sn_network_layer_count(e->net), out, diag)) != SN_OK)
        return st;
    char i_t[40], o_t[40];
    fmt_bits(i_t, sizeof i_t, in, e->n);
    fmt_bits(o_t, sizeof o_t, out, e->n);
    g->show_input = true;
    memcpy(g->show, in, e->n * sizeof *in);
    snprintf(g->explain, sizeof g->explain,
             "%s: it does not merge. %s has sorted halves and comes out %s.",
             g->right ? "Right" : "Not quite", i_t, o_t);
    return SN_OK;
}
