/* test_network.c - layers, validation, as-early-as-possible grouping,
 * equality and the allocation-failure paths of network.c. */
#include <string.h>

#include "core/alloc.h"
#include "core/network.h"
#include "sn_test.h"

static void test_validation(void)
{
    sn_network *net = sn_network_create(4);
    sn_diag d;
    CHECK(net != NULL);
    sn_comparator ok[] = {{0, 1}, {3, 2}};
    CHECK(sn_network_layer_add(net, ok, 2, &d) == SN_OK);
    sn_comparator range[] = {{0, 4}};
    CHECK(sn_network_layer_add(net, range, 1, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "out of range") != NULL);
    sn_comparator self[] = {{2, 2}};
    CHECK(sn_network_layer_add(net, self, 1, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "itself") != NULL);
    sn_comparator shared[] = {{0, 1}, {1, 2}};
    CHECK(sn_network_layer_add(net, shared, 2, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "wire 1 is used twice") != NULL);
    /* Failed adds leave the network unchanged. */
    CHECK(sn_network_layer_count(net) == 1);
    CHECK(sn_network_size(net) == 2);
    /* An empty layer is ignored. */
    CHECK(sn_network_layer_add(net, NULL, 0, &d) == SN_OK);
    CHECK(sn_network_layer_count(net) == 1);
    size_t count;
    const sn_comparator *l = sn_network_layer(net, 0, &count);
    CHECK(count == 2 && l[1].a == 3 && l[1].b == 2);
    CHECK(sn_network_layer(net, 1, &count) == NULL && count == 0);
    sn_network_destroy(net);
    sn_network_destroy(NULL);
}

static void test_asap(void)
{
    /* (0,1) (2,3) (1,2) (0,1) (2,3) (4,5): the last goes to layer 0. */
    sn_network *net = sn_network_create(6);
    uint32_t pairs[][2] = {{0, 1}, {2, 3}, {1, 2}, {0, 1}, {2, 3}, {4, 5}};
    for (size_t i = 0; i < 6; i++)
        CHECK(sn_network_add_asap(net, pairs[i][0], pairs[i][1], NULL) == SN_OK);
    CHECK(sn_network_layer_count(net) == 3);
    size_t c0, c1, c2;
    sn_network_layer(net, 0, &c0);
    sn_network_layer(net, 1, &c1);
    sn_network_layer(net, 2, &c2);
    CHECK(c0 == 3 && c1 == 1 && c2 == 2);
    CHECK(sn_network_layer_offset(net, 0) == 0);
    CHECK(sn_network_layer_offset(net, 1) == 3);
    CHECK(sn_network_layer_offset(net, 2) == 4);
    CHECK(sn_network_layer_offset(net, 3) == 6);
    sn_comparator c;
    size_t layer;
    CHECK(sn_network_comparator(net, 2, &c, &layer) && c.a == 4 && c.b == 5 && layer == 0);
    CHECK(sn_network_comparator(net, 3, &c, &layer) && c.a == 1 && c.b == 2 && layer == 1);
    CHECK(sn_network_comparator(net, 5, &c, &layer) && c.a == 2 && c.b == 3 && layer == 2);
    CHECK(!sn_network_comparator(net, 6, &c, &layer));
    CHECK(sn_network_add_asap(net, 5, 6, NULL) == SN_EINVAL);

    sn_network *copy = sn_network_clone(net);
    CHECK(copy && sn_network_equal(net, copy));
    sn_comparator extra = {0, 5};
    CHECK(sn_network_layer_add(copy, &extra, 1, NULL) == SN_OK);
    CHECK(!sn_network_equal(net, copy));
    sn_network_destroy(copy);
    sn_network_destroy(net);
}

/* Offsets and comparator lookup against counting layer by layer, on a
 * network grown by ASAP insertions into earlier layers across several
 * doublings of the layer capacity (mixed with whole layers appended). */
static void test_offsets_many_layers(void)
{
    const uint32_t n = 64;
    sn_network *net = sn_network_create(n);
    CHECK(net != NULL);
    uint64_t r = 12345;
    for (int i = 0; i < 20000 && net; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t a = (uint32_t)(r >> 33) % n, b = (uint32_t)(r >> 45) % n;
        if (a == b)
            continue;
        if (i % 97 == 0) {
            sn_comparator c = {a < b ? a : b, a < b ? b : a};
            CHECK(sn_network_layer_add(net, &c, 1, NULL) == SN_OK);
        } else {
            CHECK(sn_network_add_asap(net, a < b ? a : b, a < b ? b : a, NULL) == SN_OK);
        }
    }
    size_t layers = sn_network_layer_count(net), before = 0, bad = 0;
    CHECK(layers > 64);
    for (size_t k = 0; k <= layers; k++) {
        bad += sn_network_layer_offset(net, k) != before;
        size_t count = 0;
        const sn_comparator *l = sn_network_layer(net, k, &count);
        for (size_t j = 0; j < count; j++) {
            sn_comparator c;
            size_t at;
            bad += !sn_network_comparator(net, before + j, &c, &at) || at != k || c.a != l[j].a ||
                   c.b != l[j].b;
        }
        before += count;
    }
    CHECKF(bad == 0, "%zu offsets or lookups differ from counting", bad);
    CHECK(before == sn_network_size(net));
    CHECK(!sn_network_comparator(net, before, NULL, NULL));
    sn_network_destroy(net);
}

static void test_names_and_limits(void)
{
    sn_network *net = sn_network_create(3);
    CHECK(strcmp(sn_network_name(net), "") == 0);
    CHECK(sn_network_set_name(net, "tri") == SN_OK);
    CHECK(strcmp(sn_network_name(net), "tri") == 0);
    sn_network_destroy(net);

    sn_limits saved = sn_limits_get(), l = saved;
    l.max_wires = 8;
    l.max_comparators = 2;
    sn_limits_set(l);
    CHECK(sn_network_create(9) == NULL);
    net = sn_network_create(8);
    sn_diag d;
    CHECK(sn_network_add_asap(net, 0, 1, &d) == SN_OK);
    CHECK(sn_network_add_asap(net, 2, 3, &d) == SN_OK);
    CHECK(sn_network_add_asap(net, 4, 5, &d) == SN_ELIMIT);
    CHECK(sn_network_size(net) == 2);
    sn_network_destroy(net);
    sn_limits_set(saved);
}

/* Every allocation failure is reported cleanly, never crashes. */
static void test_alloc_failures(void)
{
    for (size_t k = 1; k < 200; k++) {
        sn_alloc_fail_after(k);
        sn_network *net = sn_network_create(40);
        sn_status st = net ? SN_OK : SN_ENOMEM;
        for (uint32_t i = 0; st == SN_OK && i < 39; i++)
            for (uint32_t j = i + 1; st == SN_OK && j < 40; j += 7)
                st = sn_network_add_asap(net, i, j, NULL);
        sn_network *copy = net && st == SN_OK ? sn_network_clone(net) : NULL;
        size_t made = sn_alloc_fail_after(0);
        sn_network_destroy(copy);
        sn_network_destroy(net);
        CHECK(st == SN_OK || st == SN_ENOMEM);
        if (st == SN_OK && copy && made < k)
            break; /* got through without hitting the failure */
    }
}

int main(void)
{
    test_offsets_many_layers();
    test_validation();
    test_asap();
    test_names_and_limits();
    test_alloc_failures();
    return sn_test_finish("test_network");
}
