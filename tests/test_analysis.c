/* test_analysis.c - standard form and Knuth's untangling, checked with the
 * 0-1 principle by brute force. */
#include <stdint.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/schedule.h"
#include "sn_test.h"

static bool sorts_all_01(const sn_network *net)
{
    uint32_t n = sn_network_wires(net);
    for (uint32_t x0 = 0; x0 < (1u << n); x0++) {
        uint32_t x = x0;
        for (size_t k = 0; k < sn_network_layer_count(net); k++) {
            size_t cnt;
            const sn_comparator *c = sn_network_layer(net, k, &cnt);
            for (size_t i = 0; i < cnt; i++)
                if (((x >> c[i].a) & 1u) > ((x >> c[i].b) & 1u))
                    x ^= (1u << c[i].a) | (1u << c[i].b);
        }
        uint32_t ones = (uint32_t)__builtin_popcount(x);
        if (x != (ones ? (((1u << ones) - 1u) << (n - ones)) : 0))
            return false;
    }
    return true;
}

/* The classic bitonic sort: descending comparators (max to the lower
 * wire) in the blocks where bit k of the index is set. */
static sn_network *classic_bitonic(uint32_t n)
{
    sn_network *net = sn_network_create(n);
    sn_comparator buf[64];
    for (uint32_t k = 2; k <= n; k <<= 1) {
        for (uint32_t j = k / 2; j >= 1; j >>= 1) {
            size_t cnt = 0;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t l = i ^ j;
                if (l > i)
                    buf[cnt++] = (i & k) == 0 ? (sn_comparator){i, l} : (sn_comparator){l, i};
            }
            CHECK(sn_network_layer_add(net, buf, cnt, NULL) == SN_OK);
        }
    }
    return net;
}

int main(void)
{
    for (uint32_t n = 8; n <= 16; n *= 2) {
        sn_network *net = classic_bitonic(n), *std = NULL;
        CHECK(!sn_network_is_standard(net));
        CHECK(sorts_all_01(net));
        CHECK(sn_network_to_standard(net, &std) == SN_OK);
        CHECK(std && sn_network_is_standard(std));
        CHECK(std && sorts_all_01(std));
        CHECK(std && sn_network_size(std) == sn_network_size(net));
        CHECK(std && sn_network_layer_count(std) == sn_network_layer_count(net));
        for (size_t k = 0; std && k < sn_network_layer_count(net); k++) {
            size_t a, b;
            (void)sn_network_layer(net, k, &a);
            (void)sn_network_layer(std, k, &b);
            CHECK(a == b);
        }
        CHECK(!sn_network_is_standard(net)); /* input unchanged */
        sn_network_destroy(std);
        sn_network_destroy(net);
    }
    /* a standard network converts to itself */
    for (uint32_t n = 1; n <= 12; n++) {
        sn_schedule *s = NULL;
        sn_network *net = NULL, *std = NULL;
        CHECK(sn_schedule_generate(SN_ALGO_PAIRWISE, n, &s, NULL) == SN_OK);
        CHECK(sn_schedule_to_network(s, &net, NULL) == SN_OK);
        CHECK(sn_network_is_standard(net));
        CHECK(sn_network_to_standard(net, &std) == SN_OK);
        CHECK(std && sn_network_equal(net, std));
        sn_network_destroy(std);
        sn_network_destroy(net);
        sn_schedule_destroy(s);
    }
    /* a single reversed comparator sorts 2 wires and becomes (0, 1) */
    sn_network *r = sn_network_create(2), *rs = NULL;
    CHECK(sn_network_add_asap(r, 1, 0, NULL) == SN_OK);
    CHECK(!sorts_all_01(r));
    CHECK(sn_network_to_standard(r, &rs) == SN_OK && sn_network_is_standard(rs));
    CHECK(rs && sorts_all_01(rs));
    sn_network_destroy(r);
    sn_network_destroy(rs);
    return sn_test_finish("test_analysis");
}
