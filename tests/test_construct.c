/* test_construct.c - the constructions (core/construct.c) and the checker's
 * other questions (merging, selection, the split beyond 64 wires).
 *
 * Oracles: the size recurrences of the balanced split, computed here
 * independently; libsortnetwork's sizes and depths from the table;
 * the 0-1 checker; and a byte-at-a-time simulation of every counterexample
 * the checker reports. */
#include <stdlib.h>
#include <string.h>

#include "core/check.h"
#include "core/construct.h"
#include "core/format.h"
#include "core/library.h"
#include "core/network.h"
#include "core/schedule.h"
#include "core/transform.h"
#include "sn_test.h"

static bool sanitized(void)
{
    const char *s = getenv("SN_SANITIZED");
    return s && strcmp(s, "1") == 0;
}

/* The network a command-line name gives ("bitonic:10"), or NULL. */
static sn_network *load(const char *spec)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_diag d;
    if (sn_schedule_load(spec, &s, &d) != SN_OK) {
        fprintf(stderr, "%s: %s\n", spec, d.text);
        return NULL;
    }
    if (sn_schedule_to_network(s, &net, &d) != SN_OK)
        net = NULL;
    sn_schedule_destroy(s);
    return net;
}

/* ---- independent recurrences of the balanced split ---- */

/* Batcher's odd-even merge of sizes a and b. */
static uint64_t oem_merge_size(uint64_t a, uint64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    if (a == 1 && b == 1)
        return 1;
    return oem_merge_size((a + 1) / 2, (b + 1) / 2) + oem_merge_size(a / 2, b / 2) +
           (a + b - 1) / 2;
}

static uint64_t oem_sort_size(uint64_t n)
{
    return n < 2
               ? 0
               : oem_sort_size(n / 2) + oem_sort_size(n - n / 2) + oem_merge_size(n / 2, n - n / 2);
}

/* The bitonic merger of m: floor(m/2) comparators, then both halves. */
static uint64_t bitonic_merge_size(uint64_t m)
{
    return m < 2 ? 0 : m / 2 + bitonic_merge_size((m + 1) / 2) + bitonic_merge_size(m / 2);
}

static uint64_t bitonic_sort_size(uint64_t n)
{
    return n < 2 ? 0
                 : bitonic_sort_size(n / 2) + bitonic_sort_size(n - n / 2) + bitonic_merge_size(n);
}

static uint32_t clog2(uint32_t n)
{
    uint32_t t = 0;
    while ((1u << t) < n)
        t++;
    return t;
}

/* Layer k's comparators, sorted, for comparing networks layer by layer. */
static int cmp_pair(const void *x, const void *y)
{
    const sn_comparator *p = x, *q = y;
    return p->a != q->a ? (p->a < q->a ? -1 : 1) : (p->b < q->b ? -1 : p->b > q->b);
}

static bool same_layers(const sn_network *x, const sn_network *y)
{
    if (sn_network_wires(x) != sn_network_wires(y) ||
        sn_network_layer_count(x) != sn_network_layer_count(y))
        return false;
    for (size_t k = 0; k < sn_network_layer_count(x); k++) {
        size_t cx, cy;
        const sn_comparator *lx = sn_network_layer(x, k, &cx), *ly = sn_network_layer(y, k, &cy);
        if (cx != cy)
            return false;
        sn_comparator *a = malloc(cx * sizeof *a + 1), *b = malloc(cx * sizeof *b + 1);
        memcpy(a, lx, cx * sizeof *a);
        memcpy(b, ly, cx * sizeof *b);
        qsort(a, cx, sizeof *a, cmp_pair);
        qsort(b, cx, sizeof *b, cmp_pair);
        bool eq = memcmp(a, b, cx * sizeof *a) == 0;
        free(a);
        free(b);
        if (!eq)
            return false;
    }
    return true;
}

/* For every n in 2..256: no larger than the recurrence (equal, in fact),
 * no deeper than ceil(lg n)(ceil(lg n)+1)/2, never larger nor deeper than
 * the padded form; powers of two: the very network of the closed form. */
static void test_balanced_split(void)
{
    for (uint32_t n = 2; n <= 256; n++) {
        char spec[48];
        uint32_t t = clog2(n);
        const char *fam[2] = {"oddeven-merge", "bitonic"};
        for (int f = 0; f < 2; f++) {
            snprintf(spec, sizeof spec, "%s:%u", fam[f], n);
            sn_network *net = load(spec);
            snprintf(spec, sizeof spec, "%s-pad:%u", fam[f], n);
            sn_network *pad = load(spec);
            CHECK(net && pad);
            if (!net || !pad) {
                sn_network_destroy(net);
                sn_network_destroy(pad);
                continue;
            }
            uint64_t rec = f == 0 ? oem_sort_size(n) : bitonic_sort_size(n);
            CHECKF(sn_network_size(net) == rec, "%s:%u: %zu comparators, recurrence %llu", fam[f],
                   n, sn_network_size(net), (unsigned long long)rec);
            CHECKF(sn_network_layer_count(net) <= t * (t + 1) / 2, "%s:%u: %zu layers", fam[f], n,
                   sn_network_layer_count(net));
            CHECK(sn_network_size(net) <= sn_network_size(pad));
            CHECK(sn_network_layer_count(net) <= sn_network_layer_count(pad));
            if ((n & (n - 1)) == 0) {
                sn_network *split = sn_network_create(n);
                CHECK(sn_construct_sort(f == 0 ? SN_ALGO_ODDEVEN_SPLIT : SN_ALGO_BITONIC_SPLIT,
                                        split, NULL) == SN_OK);
                /* the same comparators; odd-even merge's recursion lets a few
                 * of them run a layer earlier (the same depth) */
                sn_network *early = NULL;
                CHECK(sn_transform_compact(pad, &early, NULL) == SN_OK);
                CHECKF(same_layers(split, f == 0 ? early : pad) &&
                           sn_network_layer_count(split) == sn_network_layer_count(pad),
                       "%s:%u: the balanced split is not the closed form", fam[f], n);
                sn_network_destroy(early);
                sn_network_destroy(split);
            }
            sn_network_destroy(net);
            sn_network_destroy(pad);
        }
    }
    /* the table: libsortnetwork's comparators / layers */
    static const struct {
        const char *spec;
        size_t size, depth;
    } table[] = {{"oddeven-merge:10", 31, 9},     {"bitonic:10", 33, 9},
                 {"oddeven-merge:17", 74, 12},    {"bitonic:17", 85, 12},
                 {"oddeven-merge:65", 565, 23},   {"bitonic:65", 679, 23},
                 {"oddeven-merge:100", 1077, 28}, {"bitonic:100", 1194, 28}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        sn_network *net = load(table[i].spec);
        CHECK(net);
        if (net)
            CHECKF(sn_network_size(net) <= table[i].size &&
                       sn_network_layer_count(net) <= table[i].depth,
                   "%s: %zu / %zu, libsortnetwork %zu / %zu", table[i].spec, sn_network_size(net),
                   sn_network_layer_count(net), table[i].size, table[i].depth);
        sn_network_destroy(net);
    }
}

/* The closed formulas at n = 2^t that `gen --help` gives. */
static void test_formulas(void)
{
    for (uint32_t t = 1; t <= 9; t++) {
        uint64_t n = (uint64_t)1 << t, pow3 = 1;
        for (uint32_t i = 0; i < t; i++)
            pow3 *= 3;
        struct {
            const char *gen;
            uint64_t size, depth; /* depth 0: not checked */
        } f[] = {{"merge-exchange", ((t * t - t + 4) << t) / 4 - 1, t * (t + 1) / 2},
                 {"bose-nelson", pow3 - n, 0},
                 {"hibbard", pow3 - n, 0},
                 {"balanced", (uint64_t)t * t * n / 2, (uint64_t)t * t},
                 {"bitonic", n * t * (t + 1) / 4, t * (t + 1) / 2}};
        for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
            char spec[48];
            snprintf(spec, sizeof spec, "%s:%llu", f[i].gen, (unsigned long long)n);
            sn_network *net = load(spec);
            CHECKF(net && sn_network_size(net) == f[i].size &&
                       (!f[i].depth || sn_network_layer_count(net) == f[i].depth),
                   "%s: %zu / %zu, formula %llu / %llu", spec, net ? sn_network_size(net) : 0,
                   net ? sn_network_layer_count(net) : 0, (unsigned long long)f[i].size,
                   (unsigned long long)f[i].depth);
            sn_network_destroy(net);
        }
    }
}

static bool proves(const sn_network *net, sn_check_method m)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.method = m;
    sn_check_result res;
    sn_diag d;
    if (sn_check_run(net, &opt, &res, &d) != SN_OK) {
        fprintf(stderr, "%s: %s\n", sn_network_name(net), d.text);
        return false;
    }
    bool ok = res.sorts;
    sn_check_result_free(&res);
    return ok;
}

/* Every generator sorts: brute force at n = 2..24, the reduction at 32,
 * 48 and 64 (fewer under the sanitizers). */
static void test_generators_sort(void)
{
    static const char *const gens[] = {"oddeven-merge", "bitonic",           "bose-nelson",
                                       "hibbard",       "merge-exchange",    "balanced",
                                       "pairwise",      "oddeven-merge-pad", "bitonic-pad"};
    uint32_t bf_max = sanitized() ? 14 : 24;
    /* the older generators (the last three) are proven up to 24 by
     * test_check; here up to 20 */
    size_t proven = 0;
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        for (uint32_t n = 2; n <= 64; n++) {
            bool bf = n <= (g >= 6 && bf_max > 20 ? 20 : bf_max);
            if (!bf && n != 32 && n != 48 && n != 64)
                continue;
            if (!bf && sanitized() && n != 32)
                continue;
            char spec[48];
            snprintf(spec, sizeof spec, "%s:%u", gens[g], n);
            sn_network *net = load(spec);
            CHECK(net);
            if (!net)
                continue;
            bool ok = proves(net, bf ? SN_CHECK_BRUTEFORCE : SN_CHECK_REDUCE);
            CHECKF(ok, "%s does not sort", spec);
            proven += ok;
            sn_network_destroy(net);
        }
    }
    printf("  generator networks proven: %zu\n", proven);
}

/* Run v through net, byte by byte (the oracle for counterexamples). */
static void simulate(const sn_network *net, uint8_t *v)
{
    for (size_t k = 0; k < sn_network_layer_count(net); k++) {
        size_t cnt;
        const sn_comparator *l = sn_network_layer(net, k, &cnt);
        for (size_t i = 0; i < cnt; i++)
            if (v[l[i].a] > v[l[i].b]) {
                uint8_t t = v[l[i].a];
                v[l[i].a] = v[l[i].b];
                v[l[i].b] = t;
            }
    }
}

static bool is_sorted01(const uint8_t *v, uint32_t n)
{
    for (uint32_t i = 0; i + 1 < n; i++)
        if (v[i] > v[i + 1])
            return false;
    return true;
}

/* net without its comparator number `drop` (network order). */
static sn_network *without(const sn_network *net, size_t drop)
{
    sn_network *c = sn_network_create(sn_network_wires(net));
    size_t j = 0;
    for (size_t k = 0; k < sn_network_layer_count(net); k++) {
        size_t cnt;
        const sn_comparator *l = sn_network_layer(net, k, &cnt);
        for (size_t i = 0; i < cnt; i++, j++)
            if (j != drop)
                CHECK(sn_network_add_asap(c, l[i].a, l[i].b, NULL) == SN_OK);
    }
    return c;
}

static void test_merging(void)
{
    sn_check_result res;
    for (uint32_t a = 0; a <= 12; a++) {
        for (uint32_t b = 0; b <= 12; b++) {
            if (a + b == 0)
                continue;
            sn_network *net = NULL;
            CHECK(sn_construct_merge(a, b, &net, NULL) == SN_OK);
            if (!net)
                continue;
            CHECK(sn_check_merge(net, a, &res, NULL) == SN_OK && res.sorts);
            CHECK(res.inputs == (uint64_t)(a + 1) * (b + 1));
            sn_check_result_free(&res);
            /* a merge with a comparator taken out: a real counterexample */
            if (sn_network_size(net) > 0) {
                sn_network *broken = without(net, sn_network_size(net) / 2);
                CHECK(sn_check_merge(broken, a, &res, NULL) == SN_OK);
                CHECKF(!res.sorts, "merge:%u,%u minus one comparator still merges", a, b);
                if (!res.sorts) {
                    uint8_t v[32];
                    memcpy(v, res.counterexample, a + b);
                    CHECK(is_sorted01(v, a) && is_sorted01(v + a, b));
                    simulate(broken, v);
                    CHECK(!is_sorted01(v, a + b) && memcmp(v, res.output, a + b) == 0);
                }
                sn_check_result_free(&res);
                sn_network_destroy(broken);
            }
            sn_network_destroy(net);
        }
    }
    for (uint32_t n = 1; n <= 40; n++) {
        sn_network *net = NULL;
        CHECK(sn_construct_bitonic_merge(n, &net, NULL) == SN_OK);
        CHECKF(net && sn_check_merge(net, n / 2, &res, NULL) == SN_OK && res.sorts,
               "bitonic-merge:%u does not merge", n);
        CHECK(net && sn_network_size(net) == bitonic_merge_size(n));
        sn_check_result_free(&res);
        sn_network_destroy(net);
    }
    /* a half-cleaner alone is no merger (n >= 4), but is one layer */
    sn_network *hc = NULL;
    CHECK(sn_construct_half_cleaner(8, &hc, NULL) == SN_OK);
    CHECK(hc && sn_network_layer_count(hc) == 1 && sn_network_size(hc) == 4);
    CHECK(hc && sn_check_merge(hc, 4, &res, NULL) == SN_OK && !res.sorts);
    sn_check_result_free(&res);
    sn_network_destroy(hc);
    /* merging far beyond 64 wires */
    sn_network *big = load("merge:100,156");
    CHECK(big && sn_check_merge(big, 100, &res, NULL) == SN_OK && res.sorts);
    sn_check_result_free(&res);
    sn_network_destroy(big);
}

/* The split: sorting networks of 128 and 256 wires, and broken ones. */
static void test_split(void)
{
    const char *specs[] = {"oddeven-merge:128", "bitonic:256", "bitonic:100", "oddeven-merge:200",
                           "bitonic-pad:300"};
    size_t count = sanitized() ? 2 : sizeof specs / sizeof specs[0];
    sn_check_result res;
    sn_diag d;
    for (size_t i = 0; i < count; i++) {
        sn_network *net = load(specs[i]);
        CHECK(net);
        if (!net)
            continue;
        sn_status st = sn_check_run(net, NULL, &res, &d);
        CHECKF(st == SN_OK && res.sorts && res.method == SN_CHECK_SPLIT, "%s: %s", specs[i],
               st == SN_OK ? "not proved" : d.text);
        sn_check_result_free(&res);
        /* the last comparator of the final merge, and one early in a part */
        size_t drops[2] = {sn_network_size(net) - 1, 3};
        for (int k = 0; k < 2; k++) {
            sn_network *broken = without(net, drops[k]);
            st = sn_check_run(broken, NULL, &res, &d);
            uint32_t n = sn_network_wires(net);
            if (st == SN_OK) {
                CHECKF(!res.sorts, "%s minus comparator %zu sorts?", specs[i], drops[k]);
                uint8_t *v = malloc(n);
                memcpy(v, res.counterexample, n);
                simulate(broken, v);
                CHECKF(!is_sorted01(v, n), "%s: the counterexample sorts", specs[i]);
                free(v);
                sn_check_result_free(&res);
            } else {
                CHECKF(st == SN_ELIMIT && k == 1, "%s minus %zu: %s", specs[i], drops[k], d.text);
            }
            sn_network_destroy(broken);
        }
        sn_network_destroy(net);
    }
    /* no split: undecided, the reason given (the CLI adds the estimate) */
    sn_network *t = load("transposition:70");
    CHECK(t && sn_check_run(t, NULL, &res, &d) == SN_ELIMIT && strstr(d.text, "split"));
    CHECK(t && sn_check_bruteforce_seconds(t, 1) > 1e10);
    sn_network_destroy(t);
}

/* Selection: the library's median networks select; with a comparator
 * removed they do not, and the counterexample shows it. */
static void test_select(void)
{
    uint32_t max_n = sanitized() ? 15 : 25;
    size_t proven = 0;
    sn_check_result res;
    sn_diag d;
    for (uint32_t n = 3; n <= max_n; n++) {
        size_t e = sn_library_median(n);
        CHECKF(e != SN_LIBRARY_NONE, "no median:%u", n);
        if (e == SN_LIBRARY_NONE)
            continue;
        sn_library_info info;
        CHECK(sn_library_get(e, &info) && info.kind == SN_LIBRARY_MEDIAN && !info.best_size);
        sn_network *net = NULL;
        CHECK(sn_library_network(e, NULL, &net, &d) == SN_OK);
        uint32_t k[2] = {(n - 1) / 2, n / 2};
        size_t nk = n % 2 ? 1 : 2;
        CHECKF(sn_check_select(net, k, nk, NULL, &res, &d) == SN_OK && res.sorts,
               "median:%u does not select", n);
        proven += res.sorts;
        sn_check_result_free(&res);
        /* a median network is not a sorter (for n = 3 it is) */
        CHECK(n == 3 || sn_check_run(net, NULL, &res, &d) != SN_OK || !res.sorts);
        if (n > 3)
            sn_check_result_free(&res);
        size_t drops[2] = {0, sn_network_size(net) - 1};
        for (int q = 0; q < 2; q++) {
            sn_network *broken = without(net, drops[q]);
            CHECK(sn_check_select(broken, k, nk, NULL, &res, &d) == SN_OK);
            CHECKF(!res.sorts, "median:%u minus comparator %zu still selects", n, drops[q]);
            if (!res.sorts) {
                uint8_t v[64];
                uint32_t ones = 0;
                memcpy(v, res.counterexample, n);
                for (uint32_t i = 0; i < n; i++)
                    ones += v[i];
                simulate(broken, v);
                /* the K-th smallest of the input is 1 iff ones >= n - K */
                bool good = true;
                if (nk == 1)
                    good = v[k[0]] == (ones >= n - k[0]);
                else
                    good = v[k[0]] + v[k[1]] == (ones >= n - k[0]) + (ones >= n - k[1]);
                CHECKF(!good, "median:%u: the counterexample selects", n);
            }
            sn_check_result_free(&res);
            sn_network_destroy(broken);
        }
        sn_network_destroy(net);
    }
    printf("  median networks proven: %zu\n", proven);
    /* bad requests */
    sn_network *net = load("median:9");
    uint32_t bad[2] = {9, 4};
    CHECK(net && sn_check_select(net, bad, 1, NULL, &res, &d) == SN_EINVAL);
    bad[0] = 4;
    CHECK(net && sn_check_select(net, bad, 2, NULL, &res, &d) == SN_EINVAL);
    /* a sorting network selects every output */
    sn_network *s = load("best:9");
    for (uint32_t q = 0; s && q < 9; q++) {
        CHECK(sn_check_select(s, &q, 1, NULL, &res, &d) == SN_OK && res.sorts);
        sn_check_result_free(&res);
    }
    sn_network_destroy(s);
    sn_network_destroy(net);
    CHECK(sn_schedule_load("median:2", &(sn_schedule *){NULL}, &d) == SN_EINVAL);
}

/* The mergers' refusals: no wire at all, more than 2^32 - 1 wires, more
 * wires than the limit (each names the call and hands out nothing). */
static void test_merge_refusals(void)
{
    sn_network *net = (sn_network *)1;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_construct_merge(0, 0, &net, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "merge:0,0: needs 1 <= A + B < 2^32") != NULL);
    CHECK(sn_construct_merge(UINT32_MAX, 1, &net, &d) == SN_EINVAL);
    uint32_t big = sn_limits_get().max_wires + 1;
    net = (sn_network *)1;
    CHECK(sn_construct_merge(big - 1, 1, &net, &d) == SN_ELIMIT && net == NULL);
    CHECK(strstr(d.text, "too many wires (at most") != NULL);
    net = (sn_network *)1;
    CHECK(sn_construct_bitonic_merge(big, &net, &d) == SN_ELIMIT && net == NULL);
    CHECK(strstr(d.text, "bitonic-merge:") != NULL);
    CHECK(sn_construct_half_cleaner(big, &net, &d) == SN_ELIMIT && net == NULL);
}

int main(void)
{
    test_balanced_split();
    test_formulas();
    test_generators_sort();
    test_merging();
    test_split();
    test_select();
    test_merge_refusals();
    return sn_test_finish("test_construct");
}
