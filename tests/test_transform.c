/* test_transform.c - the network algebra (core/transform.h): every
 * transform round-trips through the checker: a cut of a sorting network
 * still sorts, a pruned network has no redundant comparators and computes
 * the same outputs, a reflected network sorts descending and sorts again
 * after normalizing; permute and compact keep the comparators; bad
 * arguments are refused with a message. Oracles: the 0-1 checker and a
 * byte-at-a-time simulation. */
#include <stdlib.h>
#include <string.h>

#include "core/analysis.h"
#include "core/check.h"
#include "core/format.h"
#include "core/transform.h"
#include "sn_test.h"

static sn_network *load(const char *spec)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_diag d;
    if (sn_schedule_load(spec, &s, &d) != SN_OK || sn_schedule_to_network(s, &net, &d) != SN_OK)
        net = NULL;
    sn_schedule_destroy(s);
    return net;
}

static bool sorts(const sn_network *net, size_t *redundant)
{
    sn_check_result res;
    sn_diag d;
    if (sn_check_run(net, NULL, &res, &d) != SN_OK) {
        fprintf(stderr, "%s: %s\n", sn_network_name(net), d.text);
        return false;
    }
    bool ok = res.sorts;
    if (redundant)
        *redundant = res.redundant_count;
    sn_check_result_free(&res);
    return ok;
}

/* Output of net on the 0-1 input x (wire i = bit i), as bits. */
static uint64_t run01(const sn_network *net, uint64_t x)
{
    for (size_t k = 0; k < sn_network_layer_count(net); k++) {
        size_t cnt;
        const sn_comparator *l = sn_network_layer(net, k, &cnt);
        for (size_t i = 0; i < cnt; i++) {
            uint64_t a = (x >> l[i].a) & 1u, b = (x >> l[i].b) & 1u;
            if (a > b)
                x ^= ((uint64_t)1 << l[i].a) | ((uint64_t)1 << l[i].b);
        }
    }
    return x;
}

static void test_cut(void)
{
    const char *specs[] = {"best:10",     "bitonic:12", "oddeven-merge:9",
                           "pairwise:11", "bubble:7",   "bose-nelson:13"};
    size_t cuts = 0;
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        sn_network *net = load(specs[s]);
        CHECK(net);
        for (uint32_t w = 0; net && w < sn_network_wires(net); w++) {
            for (int dir = 0; dir < 2; dir++) {
                sn_network *c = NULL;
                CHECK(sn_transform_cut(net, w, dir, &c, NULL) == SN_OK);
                if (!c)
                    continue;
                CHECK(sn_network_wires(c) == sn_network_wires(net) - 1);
                CHECK(sn_network_size(c) < sn_network_size(net));
                CHECKF(sorts(c, NULL), "%s cut at %u:%s does not sort", specs[s], w,
                       dir ? "max" : "min");
                cuts++;
                sn_network_destroy(c);
            }
        }
        sn_network_destroy(net);
    }
    printf("  cuts proven to sort: %zu\n", cuts);
    sn_network *net = load("bitonic:8"), *c = NULL;
    sn_diag d;
    CHECK(sn_transform_cut(net, 8, false, &c, &d) == SN_EINVAL && strstr(d.text, "0..7"));
    /* cutting down to one wire leaves nothing to compare */
    sn_network *two = load("bitonic:2");
    CHECK(sn_transform_cut(two, 1, true, &c, &d) == SN_OK && c && sn_network_wires(c) == 1 &&
          sn_network_size(c) == 0);
    sn_network_destroy(c);
    sn_network_destroy(two);
    sn_network_destroy(net);
}

static void test_prune(void)
{
    /* bitonic then bubble: bubble's comparators are all redundant */
    sn_network *b = load("bitonic:8"), *bub = load("bubble:8"), *cat = NULL, *p = NULL;
    CHECK(sn_transform_concat(b, bub, &cat, NULL) == SN_OK);
    size_t removed = 0, red = 1;
    CHECK(cat && sn_transform_prune(cat, &p, &removed, NULL) == SN_OK);
    CHECK(p && removed == sn_network_size(bub) && sorts(p, &red) && red == 0);
    CHECK(p && sn_network_size(p) == sn_network_size(b));
    sn_network_destroy(p);
    /* a network that does not sort: pruned, it computes the same outputs */
    sn_network *half = load("half-cleaner:6"), *twice = NULL;
    CHECK(sn_transform_concat(half, half, &twice, NULL) == SN_OK);
    CHECK(twice && sn_transform_prune(twice, &p, &removed, NULL) == SN_OK && removed == 3);
    for (uint64_t x = 0; p && x < 64; x++)
        CHECK(run01(p, x) == run01(twice, x));
    sn_network_destroy(p);
    sn_network_destroy(twice);
    sn_network_destroy(half);
    /* over 64 wires: refused */
    sn_network *big = load("bitonic:128");
    sn_diag d;
    CHECK(big && sn_transform_prune(big, &p, &removed, &d) == SN_ELIMIT && strstr(d.text, "64"));
    sn_network_destroy(big);
    sn_network_destroy(cat);
    sn_network_destroy(b);
    sn_network_destroy(bub);
    /* concat of different widths: refused */
    sn_network *x = load("bitonic:4"), *y = load("bitonic:5");
    CHECK(sn_transform_concat(x, y, &p, &d) == SN_EINVAL && strstr(d.text, "must match"));
    sn_network_destroy(x);
    sn_network_destroy(y);
}

static void test_reflect_normalize(void)
{
    const char *specs[] = {"oddeven-merge:10", "bitonic:16", "best:13", "pairwise:9"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        sn_network *net = load(specs[s]), *r = NULL, *n2 = NULL;
        CHECK(net && sn_transform_reflect(net, &r, NULL) == SN_OK);
        if (!r) {
            sn_network_destroy(net);
            continue;
        }
        uint32_t n = sn_network_wires(net);
        /* descending: every 0-1 input ends with its ones first */
        for (uint64_t x = 0; x < ((uint64_t)1 << n); x++) {
            uint64_t ones = (uint64_t)__builtin_popcountll(x), out = run01(r, x);
            CHECK(out == (((uint64_t)1 << ones) - 1));
        }
        CHECK(!sn_network_is_standard(r) && !sorts(r, NULL));
        CHECK(sn_network_to_standard(r, &n2) == SN_OK && sn_network_is_standard(n2));
        CHECKF(sorts(n2, NULL), "%s reflected and normalized does not sort", specs[s]);
        CHECK(sn_network_size(n2) == sn_network_size(net) &&
              sn_network_layer_count(n2) == sn_network_layer_count(net));
        sn_network_destroy(n2);
        sn_network_destroy(r);
        sn_network_destroy(net);
    }
}

static void test_permute_compact(void)
{
    sn_network *net = load("oddeven-merge:8"), *p = NULL, *back = NULL;
    uint32_t perm[8] = {7, 6, 5, 4, 3, 2, 1, 0}, bad[8] = {0, 1, 2, 3, 4, 5, 6, 6};
    CHECK(sn_transform_permute(net, perm, &p, NULL) == SN_OK);
    /* reversing the wires is the reflection */
    sn_network *r = NULL;
    CHECK(sn_transform_reflect(net, &r, NULL) == SN_OK && p && sn_network_equal(p, r));
    CHECK(p && sn_transform_permute(p, perm, &back, NULL) == SN_OK && sn_network_equal(back, net));
    sn_diag d;
    sn_network *q = NULL;
    CHECK(sn_transform_permute(net, bad, &q, &d) == SN_EINVAL && strstr(d.text, "repeats wire 6"));
    bad[7] = 9;
    CHECK(sn_transform_permute(net, bad, &q, &d) == SN_EINVAL && strstr(d.text, "entry 8"));
    sn_network_destroy(r);
    sn_network_destroy(back);
    sn_network_destroy(p);
    sn_network_destroy(net);
    /* compact: insertion sort's 2n-3 layers from one comparator a layer */
    net = sn_network_create(6);
    for (uint32_t i = 1; i < 6; i++)
        for (uint32_t j = i; j-- > 0;) {
            sn_comparator c = {j, j + 1};
            CHECK(sn_network_layer_add(net, &c, 1, NULL) == SN_OK);
        }
    CHECK(sn_network_layer_count(net) == 15);
    CHECK(sn_transform_compact(net, &p, NULL) == SN_OK && p);
    CHECK(p && sn_network_layer_count(p) == 9 && sn_network_size(p) == 15 && sorts(p, NULL));
    sn_network_destroy(p);
    sn_network_destroy(net);
}

int main(void)
{
    test_cut();
    test_prune();
    test_reflect_normalize();
    test_permute_compact();
    return sn_test_finish("test_transform");
}
