/* test_check.c - the 0-1 checker against independent oracles: every
 * generator proven for n = 1..24 (brute force) and 32/48/64 (reduction),
 * every network of the shipped library (assets/networks), networks broken
 * on purpose (counterexample re-run through the reference executor), brute
 * force and reduction agreeing, and a direct one-input-at-a-time simulation
 * for the verdict, smallest failing input, failing count and redundant
 * comparators. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check.h"
#include "core/exec.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "sn_test.h"

static sn_network *gen(sn_algo algo, uint32_t n)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_diag d;
    if (sn_schedule_generate(algo, n, &s, &d) != SN_OK)
        return NULL;
    if (sn_schedule_to_network(s, &net, &d) != SN_OK)
        net = NULL;
    sn_schedule_destroy(s);
    return net;
}

static sn_status check(const sn_network *net, sn_check_method m, sn_check_result *res)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.method = m;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_check_run(net, &opt, res, &d);
    if (st != SN_OK)
        fprintf(stderr, "  check(%s, n=%u): %s: %s\n", sn_check_method_name(m),
                sn_network_wires(net), sn_status_str(st), d.text);
    return st;
}

/* ---- the direct oracle: one 0-1 input at a time (small n) */

typedef struct oracle {
    bool sorts;
    uint64_t min_failing, failing;
    uint8_t *swapped; /* per comparator */
} oracle;

static void flat(const sn_network *net, sn_comparator **cmp, size_t *m)
{
    *m = sn_network_size(net);
    *cmp = sn_calloc(*m ? *m : 1, sizeof **cmp);
    for (size_t j = 0; j < *m; j++)
        sn_network_comparator(net, j, &(*cmp)[j], NULL);
}

static void oracle_run(const sn_network *net, oracle *o)
{
    uint32_t n = sn_network_wires(net);
    sn_comparator *cmp;
    size_t m;
    flat(net, &cmp, &m);
    o->swapped = sn_calloc(m ? m : 1, 1);
    o->failing = 0;
    o->min_failing = UINT64_MAX;
    uint8_t v[32];
    for (uint64_t x = 0; x < ((uint64_t)1 << n); x++) {
        for (uint32_t i = 0; i < n; i++)
            v[i] = (uint8_t)((x >> i) & 1u);
        for (size_t j = 0; j < m; j++) {
            if (v[cmp[j].a] > v[cmp[j].b]) {
                v[cmp[j].a] = 0;
                v[cmp[j].b] = 1;
                o->swapped[j] = 1;
            }
        }
        bool ok = true;
        for (uint32_t i = 0; i + 1 < n; i++)
            ok = ok && v[i] <= v[i + 1];
        if (!ok) {
            o->failing++;
            if (x < o->min_failing)
                o->min_failing = x;
        }
    }
    o->sorts = o->failing == 0;
    sn_free(cmp);
}

/* res agrees with the oracle in every field the oracle knows */
static void check_against_oracle(const sn_network *net, const sn_check_result *res,
                                 const char *what)
{
    oracle o;
    oracle_run(net, &o);
    CHECKF(res->sorts == o.sorts, "%s: verdict", what);
    CHECKF(res->failing_count == o.failing, "%s: failing %llu vs %llu", what,
           (unsigned long long)res->failing_count, (unsigned long long)o.failing);
    if (!o.sorts)
        CHECKF(res->counterexample_index == o.min_failing, "%s: smallest failing %llu vs %llu",
               what, (unsigned long long)res->counterexample_index,
               (unsigned long long)o.min_failing);
    size_t m = sn_network_size(net), k = 0, r = 0;
    for (size_t j = 0; j < m; j++)
        r += !o.swapped[j];
    CHECKF(res->redundant_count == r, "%s: %zu redundant vs %zu", what, res->redundant_count, r);
    for (size_t j = 0; j < m && k < res->redundant_count; j++)
        if (!o.swapped[j])
            CHECKF(res->redundant[k++] == j, "%s: redundant comparator %zu", what, j);
    sn_free(o.swapped);
}

/* The counterexample really fails: run it (as integers) through the
 * reference executor on an explicit schedule. */
static void check_counterexample(const sn_network *net, const sn_check_result *res,
                                 const char *what)
{
    uint32_t n = sn_network_wires(net);
    CHECKF(!res->sorts && res->counterexample && res->output, "%s: no counterexample", what);
    if (res->sorts || !res->counterexample)
        return;
    sn_schedule *s = NULL;
    CHECK(sn_schedule_from_network(sn_network_clone(net), &s) == SN_OK);
    uint32_t keys[64];
    for (uint32_t i = 0; i < n; i++)
        keys[i] = sn_key_from_ordered(SN_KEY_I32, 0x80000000u + res->counterexample[i]);
    sn_exec_run(s, SN_KEY_I32, keys, NULL);
    bool sorted = true;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = sn_key_to_ordered(SN_KEY_I32, keys[i]) - 0x80000000u;
        CHECKF(v == res->output[i], "%s: output[%u]", what, i);
        if (i + 1 < n && keys[i] != keys[i + 1] && (int32_t)keys[i] > (int32_t)keys[i + 1])
            sorted = false;
    }
    CHECKF(!sorted, "%s: the counterexample is sorted by the executor", what);
    uint32_t f = res->first_unsorted;
    CHECKF(f + 1 < n && res->output[f] > res->output[f + 1], "%s: first unsorted", what);
    for (uint32_t i = 0; i < f; i++)
        CHECK(res->output[i] <= res->output[i + 1]);
    sn_schedule_destroy(s);
}

/* ---- broken networks: built from a flat comparator list "as early as
 * possible", which keeps the order of comparators sharing a wire */

static sn_network *from_list(uint32_t n, const sn_comparator *cmp, size_t m)
{
    sn_network *net = sn_network_create(n);
    for (size_t j = 0; j < m; j++)
        if (sn_network_add_asap(net, cmp[j].a, cmp[j].b, NULL) != SN_OK) {
            sn_network_destroy(net);
            return NULL;
        }
    return net;
}

/* Variants of net: comparator j removed, j reversed, j exchanged with a
 * later one of another layer. */
static sn_network *broken(const sn_network *net, int kind, size_t j, size_t j2)
{
    sn_comparator *cmp;
    size_t m;
    flat(net, &cmp, &m);
    sn_network *out = NULL;
    if (kind == 0) {
        memmove(cmp + j, cmp + j + 1, (m - j - 1) * sizeof *cmp);
        out = from_list(sn_network_wires(net), cmp, m - 1);
    } else if (kind == 1) {
        uint32_t t = cmp[j].a;
        cmp[j].a = cmp[j].b;
        cmp[j].b = t;
        out = from_list(sn_network_wires(net), cmp, m);
    } else {
        sn_comparator t = cmp[j];
        cmp[j] = cmp[j2];
        cmp[j2] = t;
        out = from_list(sn_network_wires(net), cmp, m);
    }
    sn_free(cmp);
    return out;
}

static void test_generators_bruteforce(void)
{
    static const sn_algo algos[] = {SN_ALGO_BITONIC,  SN_ALGO_ODDEVEN_MERGE, SN_ALGO_TRANSPOSITION,
                                    SN_ALGO_PAIRWISE, SN_ALGO_BUBBLE,        SN_ALGO_INSERTION};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        for (uint32_t n = 1; n <= 24; n++) {
            sn_network *net = gen(algos[a], n);
            CHECKF(net != NULL, "%s:%u generated", sn_algo_name(algos[a]), n);
            if (!net)
                continue;
            sn_check_result res;
            if (check(net, SN_CHECK_BRUTEFORCE, &res) == SN_OK) {
                CHECKF(res.sorts, "%s:%u sorts", sn_algo_name(algos[a]), n);
                CHECK(res.method == SN_CHECK_BRUTEFORCE);
                CHECK(res.failing_count == 0 && res.counterexample == NULL);
                if (n <= 12) {
                    char what[64];
                    snprintf(what, sizeof what, "%s:%u", sn_algo_name(algos[a]), n);
                    check_against_oracle(net, &res, what);
                }
                sn_check_result_free(&res);
            } else {
                CHECKF(0, "%s:%u checked", sn_algo_name(algos[a]), n);
            }
            sn_network_destroy(net);
        }
    }
}

/* Transposition, bubble and insertion are left out: their chains of
 * adjacent comparators join the wires one by one while the patterns stay
 * unsorted, so the sets grow like 2^n and the reduction refuses them (auto
 * falls back to brute force up to n ~ 36). */
static void test_generators_reduce(void)
{
    static const sn_algo algos[] = {SN_ALGO_BITONIC, SN_ALGO_ODDEVEN_MERGE, SN_ALGO_PAIRWISE};
    static const uint32_t sizes[] = {32, 48, 64};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            sn_network *net = gen(algos[a], sizes[k]);
            CHECK(net != NULL);
            if (!net)
                continue;
            sn_check_result res;
            sn_status st = check(net, SN_CHECK_REDUCE, &res);
            CHECKF(st == SN_OK, "%s:%u reduced", sn_algo_name(algos[a]), sizes[k]);
            if (st == SN_OK) {
                CHECKF(res.sorts, "%s:%u sorts", sn_algo_name(algos[a]), sizes[k]);
                CHECK(res.method == SN_CHECK_REDUCE);
                printf("  reduce %s:%u: %.3f s, largest set %zu\n", sn_algo_name(algos[a]),
                       sizes[k], res.seconds, res.max_patterns);
                sn_check_result_free(&res);
            }
            sn_network_destroy(net);
        }
    }
}

/* Both methods: identical verdict, smallest failing input, count, and
 * redundant comparators. */
static void check_agree(const sn_network *net, const char *what)
{
    sn_check_result bf, rd;
    if (check(net, SN_CHECK_BRUTEFORCE, &bf) != SN_OK) {
        CHECKF(0, "%s: brute force", what);
        return;
    }
    if (check(net, SN_CHECK_REDUCE, &rd) != SN_OK) {
        CHECKF(0, "%s: reduce", what);
        sn_check_result_free(&bf);
        return;
    }
    CHECKF(bf.sorts == rd.sorts, "%s: verdicts differ", what);
    CHECKF(bf.failing_count == rd.failing_count, "%s: failing %llu vs %llu", what,
           (unsigned long long)bf.failing_count, (unsigned long long)rd.failing_count);
    if (!bf.sorts && !rd.sorts)
        CHECKF(bf.counterexample_index == rd.counterexample_index, "%s: counterexamples", what);
    CHECKF(bf.redundant_count == rd.redundant_count, "%s: redundant %zu vs %zu", what,
           bf.redundant_count, rd.redundant_count);
    for (size_t i = 0; i < bf.redundant_count && i < rd.redundant_count; i++)
        CHECK(bf.redundant[i] == rd.redundant[i]);
    sn_check_result_free(&bf);
    sn_check_result_free(&rd);
}

static void test_broken(const sn_network *net, const char *name, bool oracle_ok)
{
    size_t m = sn_network_size(net);
    if (m < 2)
        return;
    /* a handful of positions spread over the network */
    size_t pos[] = {0, m / 3, m / 2, (2 * m) / 3, m - 1};
    for (int kind = 0; kind < 3; kind++) {
        for (size_t p = 0; p < sizeof pos / sizeof pos[0]; p++) {
            size_t j = pos[p], j2 = j;
            if (kind == 2) {
                /* exchange with a comparator of a later layer */
                size_t lj, l2;
                sn_comparator cj;
                sn_network_comparator(net, j, &cj, &lj);
                for (j2 = j + 1; j2 < m; j2++) {
                    sn_network_comparator(net, j2, &cj, &l2);
                    if (l2 > lj + 1)
                        break;
                }
                if (j2 >= m)
                    continue;
            }
            sn_network *b = broken(net, kind, j, j2);
            CHECK(b != NULL);
            if (!b)
                continue;
            char what[160];
            snprintf(what, sizeof what, "%s %s %zu/%zu", name,
                     kind == 0   ? "without"
                     : kind == 1 ? "reversed"
                                 : "exchanged",
                     j, j2);
            sn_check_result res;
            if (check(b, SN_CHECK_AUTO, &res) == SN_OK) {
                if (oracle_ok)
                    check_against_oracle(b, &res, what);
                if (!res.sorts)
                    check_counterexample(b, &res, what);
                /* reversing the last comparator of a sorting network
                 * always breaks it: an input that made it swap now ends
                 * with its two wires out of order */
                if (kind == 1 && j == m - 1)
                    CHECKF(!res.sorts, "%s: still sorts", what);
                sn_check_result_free(&res);
            } else {
                CHECKF(0, "%s: checked", what);
            }
            if (sn_network_wires(b) <= 24)
                check_agree(b, what);
            sn_network_destroy(b);
        }
    }
}

static void test_broken_generated(void)
{
    static const sn_algo algos[] = {SN_ALGO_BITONIC, SN_ALGO_ODDEVEN_MERGE, SN_ALGO_PAIRWISE,
                                    SN_ALGO_INSERTION};
    static const uint32_t sizes[] = {5, 8, 13, 16, 22};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            sn_network *net = gen(algos[a], sizes[k]);
            if (!net)
                continue;
            char name[64];
            snprintf(name, sizeof name, "%s:%u", sn_algo_name(algos[a]), sizes[k]);
            test_broken(net, name, sizes[k] <= 16);
            sn_network_destroy(net);
        }
    }
    /* at n = 64 only the reduction can tell; the counterexample is still
     * re-run through the executor */
    sn_network *net = gen(SN_ALGO_ODDEVEN_MERGE, 64);
    if (net) {
        sn_network *b = broken(net, 1, sn_network_size(net) - 1, 0);
        sn_check_result res;
        if (b && check(b, SN_CHECK_AUTO, &res) == SN_OK) {
            CHECK(!res.sorts && res.method == SN_CHECK_REDUCE);
            check_counterexample(b, &res, "oddeven-merge:64 last reversed");
            sn_check_result_free(&res);
        }
        sn_network_destroy(b);
        b = broken(net, 0, sn_network_size(net) / 2, 0);
        if (b && check(b, SN_CHECK_AUTO, &res) == SN_OK) {
            CHECK(!res.sorts);
            check_counterexample(b, &res, "oddeven-merge:64 without the middle one");
            sn_check_result_free(&res);
        }
        sn_network_destroy(b);
        sn_network_destroy(net);
    }
}

static void test_agree_generated(void)
{
    static const sn_algo algos[] = {SN_ALGO_BITONIC,  SN_ALGO_ODDEVEN_MERGE, SN_ALGO_TRANSPOSITION,
                                    SN_ALGO_PAIRWISE, SN_ALGO_BUBBLE,        SN_ALGO_INSERTION};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++) {
        for (uint32_t n = 1; n <= 20; n += 3) {
            sn_network *net = gen(algos[a], n);
            if (!net)
                continue;
            char what[64];
            snprintf(what, sizeof what, "%s:%u", sn_algo_name(algos[a]), n);
            check_agree(net, what);
            sn_network_destroy(net);
        }
    }
    /* a network with a redundant comparator and one that leaves a wire
     * alone (never joined: the reduction multiplies the clusters) */
    sn_network *net = sn_network_create(6);
    sn_comparator c1[] = {{0, 1}, {2, 3}};
    sn_comparator c2[] = {{0, 1}}, c3[] = {{1, 2}};
    CHECK(sn_network_layer_add(net, c1, 2, NULL) == SN_OK);
    CHECK(sn_network_layer_add(net, c2, 1, NULL) == SN_OK);
    CHECK(sn_network_layer_add(net, c3, 1, NULL) == SN_OK);
    check_agree(net, "hand-made 6");
    sn_check_result res;
    if (check(net, SN_CHECK_REDUCE, &res) == SN_OK) {
        check_against_oracle(net, &res, "hand-made 6");
        CHECK(res.redundant_count == 1 && res.redundant[0] == 2);
        sn_check_result_free(&res);
    }
    sn_network_destroy(net);
}

static sn_network *load(const char *path)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_diag d;
    if (sn_schedule_load(path, &s, &d) != SN_OK) {
        fprintf(stderr, "  %s\n", d.text);
        return NULL;
    }
    if (sn_schedule_to_network(s, &net, &d) != SN_OK)
        net = NULL;
    sn_schedule_destroy(s);
    return net;
}

/* Prove one library network; with ctx->break_them it is also broken on
 * purpose. */
struct library_ctx {
    bool break_them;
    size_t proven;
};

static void prove_library(const char *path, const char *name, void *arg)
{
    struct library_ctx *ctx = arg;
    sn_network *net = load(path);
    CHECKF(net != NULL, "%s loads", path);
    if (!net)
        return;
    sn_check_result res;
    if (check(net, SN_CHECK_AUTO, &res) == SN_OK) {
        CHECKF(res.sorts, "%s sorts", path);
        sn_check_result_free(&res);
        ctx->proven++;
    } else {
        CHECKF(0, "%s checked", path);
    }
    /* the best networks of 17..24 inputs with 13 layers: break them too */
    size_t len = strlen(name);
    uint32_t wires = sn_network_wires(net);
    if (ctx->break_them && wires >= 17 && wires <= 24 && len > 3 &&
        strcmp(name + len - 3, "_13") == 0)
        test_broken(net, name, false);
    if (ctx->break_them && sn_network_wires(net) <= 12)
        test_broken(net, name, true);
    sn_network_destroy(net);
}

/* The shipped library's networks on up to 24 inputs sort (and the small
 * ones, broken, do not): the brute-force range, against the oracles of
 * this test. Every library network, up to 64 inputs, is proven through the
 * real binary in cli_library. */
static void visit_small(const char *spec, const char *name, void *arg)
{
    sn_library_info e;
    size_t i = sn_library_find(name);
    if (sn_library_get(i, &e) && e.n <= 24 && e.kind == SN_LIBRARY_SORTER)
        prove_library(spec, name, arg);
}

static void test_library(void)
{
    struct library_ctx ctx = {true, 0};
    size_t small = 0;
    sn_library_info e;
    for (size_t i = 0; sn_library_get(i, &e); i++)
        small += e.n <= 24 && e.kind == SN_LIBRARY_SORTER;
    sn_test_each_library(visit_small, &ctx);
    printf("  library networks on up to 24 inputs proven: %zu of %zu\n", ctx.proven, small);
    CHECK(small >= 40 && ctx.proven == small);
}

static void test_limits(void)
{
    sn_check_result res;
    sn_check_options opt;
    sn_diag d;
    /* 2^40 inputs by brute force: refused with an estimate */
    sn_network *net = gen(SN_ALGO_ODDEVEN_MERGE, 40);
    sn_check_options_init(&opt);
    opt.method = SN_CHECK_BRUTEFORCE;
    CHECK(sn_check_run(net, &opt, &res, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "inputs") != NULL && strstr(d.text, " s ") != NULL);
    /* auto proves it through the reduction */
    opt.method = SN_CHECK_AUTO;
    CHECK(sn_check_run(net, &opt, &res, &d) == SN_OK && res.sorts && res.method == SN_CHECK_REDUCE);
    sn_check_result_free(&res);
    sn_network_destroy(net);
    /* n > 64: the reduction refuses clearly */
    net = gen(SN_ALGO_ODDEVEN_MERGE, 65);
    opt.method = SN_CHECK_REDUCE;
    CHECK(sn_check_run(net, &opt, &res, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "64") != NULL);
    sn_network_destroy(net);
    /* cancel */
    sn_cancel stop;
    atomic_init(&stop, 1);
    net = gen(SN_ALGO_BITONIC, 20);
    opt.method = SN_CHECK_BRUTEFORCE;
    opt.cancel = &stop;
    CHECK(sn_check_run(net, &opt, &res, &d) == SN_EINTERRUPTED);
    opt.method = SN_CHECK_REDUCE;
    CHECK(sn_check_run(net, &opt, &res, &d) == SN_EINTERRUPTED);
    sn_network_destroy(net);
    /* n = 0 and n = 1 sort trivially, both methods */
    for (uint32_t n = 0; n <= 1; n++) {
        net = sn_network_create(n);
        for (int m = 1; m <= 2; m++) {
            CHECK(check(net, (sn_check_method)m, &res) == SN_OK && res.sorts);
            sn_check_result_free(&res);
        }
        sn_network_destroy(net);
    }
    /* threads: 1 and many give the same answer */
    net = gen(SN_ALGO_PAIRWISE, 18);
    sn_network *b = broken(net, 0, 40, 0);
    sn_check_result r1, r7;
    sn_check_options_init(&opt);
    opt.method = SN_CHECK_BRUTEFORCE;
    opt.threads = 1;
    CHECK(sn_check_run(b, &opt, &r1, &d) == SN_OK);
    opt.threads = 7;
    CHECK(sn_check_run(b, &opt, &r7, &d) == SN_OK);
    CHECK(!r1.sorts && r1.counterexample_index == r7.counterexample_index &&
          r1.failing_count == r7.failing_count && r1.redundant_count == r7.redundant_count);
    sn_check_result_free(&r1);
    sn_check_result_free(&r7);
    /* quick */
    bool sorts = false;
    size_t *red = NULL, nred = 0;
    CHECK(sn_check_quick(net, &sorts, &red, &nred, &d) == SN_OK && sorts);
    sn_free(red);
    sn_network_destroy(b);
    sn_network_destroy(net);
}

/* Networks that sort but that a method cannot prove come back undecided
 * (SN_ELIMIT) with the reason, decided from cheap facts before the work;
 * those whose pattern sets grow like 2^n reach the split and are proven. */
static void test_undecided(void)
{
    sn_check_result res;
    sn_diag d;
    sn_check_options opt;
    sn_check_options_init(&opt);
    /* insertion:1000: the split peels one wire per level (O(n^3) bytes
     * nested): refused before the first part is built, in a handful of
     * allocations (the old path made thousands and held 1.2 GB) */
    sn_network *net = gen(SN_ALGO_INSERTION, 1000);
    CHECK(net != NULL);
    sn_alloc_fail_after(0);
    sn_status st = sn_check_run(net, &opt, &res, &d);
    size_t allocs = sn_alloc_fail_after(0);
    CHECKF(st == SN_ELIMIT, "insertion:1000: %s: %s", sn_status_str(st), d.text);
    CHECKF(allocs < 40, "insertion:1000: %zu allocations before refusing", allocs);
    CHECK(strstr(d.text, "split again") != NULL && strstr(d.text, "GiB") != NULL);
    CHECK(sn_check_bruteforce_seconds(net, 2) > 1e280);
    sn_network_destroy(net);
    /* pairwise:100 sorts, its parts do not by themselves: undecided,
     * never "does not sort" */
    net = gen(SN_ALGO_PAIRWISE, 100);
    st = sn_check_run(net, &opt, &res, &d);
    CHECKF(st == SN_ELIMIT && strstr(d.text, "does not sort") == NULL, "pairwise:100: %s", d.text);
    sn_network_destroy(net);
    /* insertion:64: the reduction's probe stops early (the full one held
     * 585 MB before refusing), and the split proves it */
    net = gen(SN_ALGO_INSERTION, 64);
    st = sn_check_run(net, &opt, &res, &d);
    CHECKF(st == SN_OK && res.sorts && res.method == SN_CHECK_SPLIT, "insertion:64: %s: %s",
           sn_status_str(st), d.text);
    if (st == SN_OK)
        sn_check_result_free(&res);
    /* a broken insertion:64 is still caught, with a real counterexample */
    sn_network *b = broken(net, 1, sn_network_size(net) - 1, 0);
    st = sn_check_run(b, &opt, &res, &d);
    CHECKF(st == SN_OK && !res.sorts, "broken insertion:64: %s", d.text);
    if (st == SN_OK) {
        check_counterexample(b, &res, "insertion:64 last reversed");
        sn_check_result_free(&res);
    }
    sn_network_destroy(b);
    sn_network_destroy(net);
    /* the estimate grows with n and with the comparators */
    sn_network *n30 = gen(SN_ALGO_BITONIC, 30), *n31 = gen(SN_ALGO_BITONIC, 31);
    CHECK(sn_check_bruteforce_seconds(n31, 1) > 2.0 * sn_check_bruteforce_seconds(n30, 1));
    CHECK(sn_check_bruteforce_seconds(n30, 1) > sn_check_bruteforce_seconds(n30, 4));
    sn_network_destroy(n30);
    sn_network_destroy(n31);
}

/* Every allocation failure is reported, never a crash or a leak. */
static void test_alloc_failures(void)
{
    sn_network *net = gen(SN_ALGO_ODDEVEN_MERGE, 12);
    for (int m = 1; m <= 2; m++) {
        for (size_t k = 1; k < 400; k++) {
            sn_check_options opt;
            sn_check_options_init(&opt);
            opt.method = (sn_check_method)m;
            opt.threads = 2;
            sn_check_result res;
            sn_diag d;
            sn_alloc_fail_after(k);
            sn_status st = sn_check_run(net, &opt, &res, &d);
            sn_alloc_fail_after(0);
            CHECK(st == SN_OK || st == SN_ENOMEM);
            if (st == SN_OK) {
                CHECK(res.sorts);
                sn_check_result_free(&res);
                break;
            }
        }
    }
    sn_network_destroy(net);
}

int main(void)
{
    test_limits();
    test_undecided();
    test_alloc_failures();
    test_agree_generated();
    test_generators_bruteforce();
    test_generators_reduce();
    test_broken_generated();
    test_library();
    return sn_test_finish("test_check");
}
