/* test_check_edges.c - the checker's modes at their edges: method names,
 * refused arguments of the selection check, the brute force past 64
 * wires, and out of memory at every allocation of the selection and the
 * merging checks (one thread, so the allocations come in one order), and
 * the split's refusals (cancelled, nothing joins all wires).
 * test_check has the verdicts themselves. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "sn_test.h"

static sn_network *load(const char *spec)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_diag d;
    if (sn_schedule_load(spec, &s, &d) == SN_OK)
        sn_schedule_to_network(s, &net, &d);
    sn_schedule_destroy(s);
    CHECKF(net != NULL, "%s", spec);
    return net;
}

static void test_names(void)
{
    CHECK(strcmp(sn_check_method_name(SN_CHECK_SPLIT), "split") == 0);
    CHECK(strcmp(sn_check_method_name(SN_CHECK_REDUCE), "reduce") == 0);
    CHECK(strcmp(sn_check_method_name((sn_check_method)17), "?") == 0);
}

static void test_select_refusals(void)
{
    sn_network *net = load("bitonic:8");
    sn_network *wide = sn_network_create(41), *w40 = sn_network_create(40);
    if (!net || !wide || !w40) {
        sn_network_destroy(net);
        sn_network_destroy(wide);
        sn_network_destroy(w40);
        return;
    }
    sn_check_result res;
    sn_diag d;
    const uint32_t k[3] = {3, 4, 5}, same[2] = {3, 3}, past[1] = {8};
    CHECK(sn_check_select(net, k, 0, NULL, &res, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "--select takes one output or a pair") != NULL);
    CHECK(sn_check_select(net, k, 3, NULL, &res, &d) == SN_EINVAL);
    CHECK(sn_check_select(net, past, 1, NULL, &res, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "--select 8: outputs are numbered 0..7 for 8 wires") != NULL);
    CHECK(sn_check_select(net, same, 2, NULL, &res, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "the pair needs two outputs") != NULL);
    CHECK(sn_check_select(wide, k, 1, NULL, &res, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "at most 40 wires") != NULL);
    /* 2^40 inputs on one thread: refused without force, with the estimate */
    sn_check_options o;
    sn_check_options_init(&o);
    o.threads = 1;
    CHECK(sn_check_select(w40, k, 1, &o, &res, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "refusing without --force") != NULL);

    /* brute force cannot go past 64 wires */
    sn_network *big = sn_network_create(65);
    o.method = SN_CHECK_BRUTEFORCE;
    CHECK(big && sn_check_run(big, &o, &res, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "brute force over 2^65 inputs is impossible") != NULL);
    sn_network_destroy(big);
    sn_network_destroy(net);
    sn_network_destroy(wide);
    sn_network_destroy(w40);
}

typedef struct sel_case {
    const char *spec;
    uint32_t k[2];
    size_t nk;
    bool selects;
    bool merge; /* the merging check at k[0] instead */
} sel_case;

/* Out of memory at every allocation of a selection or merging check. */
static void test_oom(void)
{
    static const sel_case cases[] = {
        {"bitonic:8", {3, 0}, 1, true, false},
        {"bitonic:8", {3, 4}, 2, true, false},
        {"bubble:5", {2, 0}, 1, true, false},
        /* the merge network of two 4s does not select from any input */
        {"merge:4,4", {2, 0}, 1, false, false},
        {"merge:4,4", {4, 0}, 1, true, true},
        {"half-cleaner:8", {4, 0}, 1, false, true},
    };
    sn_check_options o;
    sn_check_options_init(&o);
    o.threads = 1;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sn_network *net = load(cases[i].spec);
        if (!net)
            continue;
        size_t base = sn_alloc_live();
        for (size_t k = 1;; k++) {
            sn_check_result res;
            sn_diag d;
            sn_diag_clear(&d);
            sn_alloc_fail_after(k);
            sn_status st = cases[i].merge
                               ? sn_check_merge(net, cases[i].k[0], &res, &d)
                               : sn_check_select(net, cases[i].k, cases[i].nk, &o, &res, &d);
            size_t made = sn_alloc_fail_after(0);
            if (made < k) {
                CHECKF(st == SN_OK, "case %zu: %s: %s", i, sn_status_str(st), d.text);
                CHECKF(res.sorts == cases[i].selects, "case %zu: verdict %d", i, res.sorts);
                CHECK(res.sorts == (res.counterexample == NULL));
                sn_check_result_free(&res);
                break;
            }
            CHECKF(st == SN_ENOMEM, "case %zu, allocation %zu: %s", i, k, sn_status_str(st));
            CHECKF(sn_alloc_live() == base, "case %zu, allocation %zu: a leak", i, k);
            if (k > 1000) {
                CHECK(0);
                break;
            }
        }
        CHECK(sn_alloc_live() == base);
        sn_network_destroy(net);
    }
}

/* The split past 64 wires: a cancel flag set before it starts stops it;
 * a network with no comparator joining all wires cannot be split. */
static void test_split_refusals(void)
{
    sn_network *big = load("bitonic:128");
    sn_network *none = sn_network_create(70);
    if (!big || !none) {
        sn_network_destroy(big);
        sn_network_destroy(none);
        return;
    }
    sn_check_options o;
    sn_check_options_init(&o);
    o.threads = 1;
    sn_cancel stop;
    atomic_init(&stop, 1);
    o.cancel = &stop;
    sn_check_result res;
    sn_diag d;
    CHECK(sn_check_run(big, &o, &res, &d) == SN_EINTERRUPTED);
    CHECK(strstr(d.text, "stopped on request") != NULL);
    o.cancel = NULL;
    CHECK(sn_check_run(none, &o, &res, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "joins all 70 wires, and none does") != NULL);
    /* method split on 64 wires or fewer: nothing to split, auto decides */
    sn_network *small = load("bitonic:8");
    o.method = SN_CHECK_SPLIT;
    CHECK(small && sn_check_run(small, &o, &res, &d) == SN_OK && res.sorts);
    CHECK(res.method == SN_CHECK_BRUTEFORCE);
    sn_check_result_free(&res);
    sn_network_destroy(small);
    sn_network_destroy(big);
    sn_network_destroy(none);
}

/* Auto on 64 wires where nothing decides: pairs, then the first 31 pairs
 * joined in a chain in one layer, so the reduction's set at layer 2 would
 * grow to 3^31 patterns (its probe and then the full reduction refuse), the
 * split finds no comparator joining all wires (the last pair stays
 * apart), and brute force over 2^64 inputs would take far more than a
 * minute: SN_ELIMIT saying each, no verdict, nothing leaked. */
static void test_auto_undecided(void)
{
    sn_network *net = sn_network_create(64);
    CHECK(net != NULL);
    if (!net)
        return;
    for (uint32_t i = 0; i < 32; i++)
        CHECK(sn_network_add_asap(net, 2 * i, 2 * i + 1, NULL) == SN_OK);
    for (uint32_t i = 0; i < 30; i++)
        CHECK(sn_network_add_asap(net, 2 * i + 1, 2 * i + 2, NULL) == SN_OK);
    CHECK(sn_network_layer_count(net) == 2);
    sn_check_options o;
    sn_check_options_init(&o);
    o.threads = 1;
    sn_check_result r;
    sn_diag d;
    sn_diag_clear(&d);
    size_t base = sn_alloc_live();
    sn_status st = sn_check_run(net, &o, &r, &d);
    CHECKF(st == SN_ELIMIT, "%s: %s", sn_status_str(st), d.text);
    CHECKF(strstr(d.text, "the reduction would hold more than 8388608 patterns at layer 2") &&
               strstr(d.text, "the split needs a comparator that joins all 64 wires") &&
               strstr(d.text, "brute force would take more than a minute"),
           "%s", d.text);
    CHECK(r.counterexample == NULL && r.redundant == NULL);
    sn_check_result_free(&r);
    CHECK(sn_alloc_live() == base);
    sn_network_destroy(net);
}

/* Brute force asked (and forced) on 65 wires: refused, force or not, as
 * impossible (one machine word carries a wire's bits). */
static void test_bruteforce_too_wide(void)
{
    sn_network *net = sn_network_create(65);
    CHECK(net && sn_network_add_asap(net, 0, 64, NULL) == SN_OK);
    sn_check_options o;
    sn_check_options_init(&o);
    o.method = SN_CHECK_BRUTEFORCE;
    o.force = true;
    o.threads = 1;
    sn_check_result r;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(net && sn_check_run(net, &o, &r, &d) == SN_ELIMIT);
    CHECKF(strstr(d.text, "brute force over 2^65 inputs is impossible (n <= 64)") != NULL, "%s",
           d.text);
    sn_check_result_free(&r);
    sn_network_destroy(net);
}

/* The split on 66 wires (two bitonic halves and their merge) out of
 * memory at each of its allocations, k = 1, 2, ... until a run makes
 * fewer: each failing run ends in SN_ENOMEM, hands out no verdict and
 * leaks nothing; the run that meets no failure proves it sorts. */
static void test_split_oom(void)
{
    sn_network *net = load("bitonic:66");
    if (!net)
        return;
    sn_check_options o;
    sn_check_options_init(&o);
    o.threads = 1;
    size_t base = sn_alloc_live(), failed = 0;
    for (size_t k = 1; k < 5000; k++) {
        sn_check_result res;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_check_run(net, &o, &res, &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < k) {
            CHECKF(st == SN_OK && res.sorts && res.method == SN_CHECK_SPLIT, "%s: %s",
                   sn_status_str(st), d.text);
            sn_check_result_free(&res);
            break;
        }
        failed++;
        CHECKF(st == SN_ENOMEM, "allocation %zu: %s: %s", k, sn_status_str(st), d.text);
        CHECK(res.counterexample == NULL);
        sn_check_result_free(&res);
        CHECKF(sn_alloc_live() == base, "allocation %zu failing: a leak", k);
    }
    CHECK(failed > 10);
    printf("split of bitonic:66: %zu allocations, each failed once\n", failed);
    sn_network_destroy(net);
}

/* A selection check lists the comparators that never swap: bitonic:8 with
 * (0,1) again at the end (its outputs are sorted by then) selects output 3,
 * and that last comparator is its one redundant comparator; out of memory
 * at each allocation of the check (the list's included): SN_ENOMEM and no
 * leak. */
static void test_select_redundant(void)
{
    sn_network *net = load("bitonic:8");
    if (!net)
        return;
    CHECK(sn_network_add_asap(net, 0, 1, NULL) == SN_OK);
    size_t last = sn_network_size(net) - 1;
    sn_check_options o;
    sn_check_options_init(&o);
    o.threads = 1;
    const uint32_t k[1] = {3};
    size_t base = sn_alloc_live(), failed = 0;
    for (size_t a = 1; a < 1000; a++) {
        sn_check_result res;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(a);
        sn_status st = sn_check_select(net, k, 1, &o, &res, &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < a) {
            CHECKF(st == SN_OK && res.sorts, "%s: %s", sn_status_str(st), d.text);
            CHECKF(res.redundant_count == 1 && res.redundant && res.redundant[0] == last,
                   "%zu redundant", res.redundant_count);
            sn_check_result_free(&res);
            break;
        }
        failed++;
        CHECKF(st == SN_ENOMEM, "allocation %zu: %s", a, sn_status_str(st));
        CHECKF(sn_alloc_live() == base, "allocation %zu failing: a leak", a);
    }
    CHECK(failed >= 3);
    sn_network_destroy(net);
}

/* The quick check passes the checker's refusal on: 70 wires with no
 * comparator joining them all cannot be split (SN_ELIMIT, its reason). */
static void test_quick_refusal(void)
{
    sn_network *net = sn_network_create(70);
    CHECK(net && sn_network_add_asap(net, 0, 1, NULL) == SN_OK);
    bool sorts = true;
    size_t *redundant = NULL, count = 0;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(net && sn_check_quick(net, &sorts, &redundant, &count, &d) == SN_ELIMIT);
    CHECKF(strstr(d.text, "joins all 70 wires") != NULL, "%s", d.text);
    CHECK(redundant == NULL && count == 0);
    sn_network_destroy(net);
}

int main(void)
{
    test_quick_refusal();
    test_select_redundant();
    test_split_oom();
    test_bruteforce_too_wide();
    test_auto_undecided();
    test_split_refusals();
    test_names();
    test_select_refusals();
    test_oom();
    return sn_test_finish("test_check_edges");
}
