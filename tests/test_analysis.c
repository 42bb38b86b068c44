/* test_analysis.c - standard form and Knuth's untangling, checked with the
 * 0-1 principle by brute force; the 0-1 profile per layer against a plain
 * brute force; the structure blocks of every generator, exactly; the
 * classic bitonic generator proved by the checker. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/check.h"
#include "core/format.h"
#include "core/schedule.h"
#include "core/structure.h"
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

/* ---- the 0-1 profile against the simplest oracle: every input, one at a
 * time, one wire per byte */

/* state[(k * (n + 1) + h) * n + i]: SN_WIRE_* bits of wire i after k
 * layers over the inputs with h ones. */
static void oracle_profile(const sn_schedule *s, uint64_t *sorted, uint8_t *state)
{
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    sn_network *net = NULL;
    CHECK(sn_schedule_to_network(s, &net, NULL) == SN_OK);
    if (!net)
        return;
    memset(sorted, 0, (L + 1) * sizeof *sorted);
    memset(state, 0, (L + 1) * (n + 1) * n);
    uint8_t v[32];
    for (uint32_t x = 0; x < (1u << n); x++) {
        uint32_t h = (uint32_t)__builtin_popcount(x);
        for (uint32_t i = 0; i < n; i++)
            v[i] = (uint8_t)((x >> i) & 1u);
        for (size_t k = 0; k <= L; k++) {
            if (k > 0) {
                size_t cnt;
                const sn_comparator *c = sn_network_layer(net, k - 1, &cnt);
                for (size_t j = 0; j < cnt; j++) {
                    if (v[c[j].a] > v[c[j].b]) {
                        uint8_t t = v[c[j].a];
                        v[c[j].a] = v[c[j].b];
                        v[c[j].b] = t;
                    }
                }
            }
            bool ok = true;
            for (uint32_t i = 0; i + 1 < n; i++)
                ok = ok && v[i] <= v[i + 1];
            sorted[k] += ok;
            for (uint32_t i = 0; i < n; i++)
                state[(k * (n + 1) + h) * n + i] |= v[i] ? SN_WIRE_CAN1 : SN_WIRE_CAN0;
        }
    }
    sn_network_destroy(net);
}

/* Does z say the same as the oracle's states? */
static bool same_states(const sn_zero_one *z, const uint8_t *state)
{
    uint32_t n = z->n;
    for (size_t k = 0; k <= z->layers; k++)
        for (uint32_t h = 0; h <= n; h++)
            for (uint32_t i = 0; i < n; i++)
                if (sn_zero_one_state(z, k, h, i) != state[(k * (n + 1) + h) * n + i])
                    return false;
    return true;
}

static void test_zero_one_profile(void)
{
    for (int a = SN_ALGO_BITONIC; a < SN_ALGO_COUNT; a++) {
        for (uint32_t n = 2; n <= 12; n++) {
            sn_schedule *s = NULL;
            CHECK(sn_schedule_generate((sn_algo)a, n, &s, NULL) == SN_OK);
            if (!s)
                continue;
            size_t L = sn_schedule_layer_count(s);
            uint64_t *sorted = sn_calloc(L + 1, sizeof *sorted);
            uint8_t *state = sn_calloc((L + 1) * (n + 1) * n, 1);
            oracle_profile(s, sorted, state);
            for (unsigned threads = 1; threads <= 3; threads += 2) {
                sn_zero_one z;
                CHECK(sn_zero_one_profile(s, SN_ZERO_ONE_MAX_WIRES, threads, &z, NULL) == SN_OK);
                CHECK(z.n == n && z.layers == L && z.inputs == (1u << n));
                CHECKF(memcmp(z.sorted, sorted, (L + 1) * sizeof *sorted) == 0, "%s sorted counts",
                       sn_schedule_name(s));
                CHECKF(same_states(&z, state), "%s wire states", sn_schedule_name(s));
                /* sorted: wire i holds a 1 exactly for h >= n - i */
                for (uint32_t i = 0; i < n; i++)
                    CHECK(z.one_from[L * n + i] == (int16_t)(n - i) &&
                          z.zero_upto[L * n + i] == (int16_t)(n - i - 1));
                CHECK(z.sorted[0] == n + 1u && z.sorted[L] == (1u << n));
                sn_zero_one_free(&z);
            }
            sn_free(sorted);
            sn_free(state);
            sn_schedule_destroy(s);
        }
    }
    /* a broken network stops short: bitonic:8 without its last layer */
    sn_network *cut = sn_network_create(8);
    sn_schedule *full = NULL, *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, &full, NULL) == SN_OK);
    sn_comparator buf[8];
    for (size_t k = 0; k + 1 < sn_schedule_layer_count(full); k++) {
        size_t cnt = sn_schedule_layer_pairs(full, k, buf, 8);
        CHECK(sn_network_layer_add(cut, buf, cnt, NULL) == SN_OK);
    }
    CHECK(sn_schedule_from_network(cut, &s) == SN_OK);
    size_t L = sn_schedule_layer_count(s);
    uint64_t sorted[16];
    uint8_t state[16 * 9 * 8];
    oracle_profile(s, sorted, state);
    sn_zero_one z;
    CHECK(sn_zero_one_profile(s, 24, 0, &z, NULL) == SN_OK);
    CHECK(z.sorted[L] < 256 && z.sorted[L] == sorted[L]);
    CHECK(same_states(&z, state));
    sn_zero_one_free(&z);
    sn_schedule_destroy(s);
    sn_schedule_destroy(full);
    /* the limit: n = 25 is refused, and a smaller limit is honoured */
    sn_diag d;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 25, &s, NULL) == SN_OK);
    CHECK(sn_zero_one_profile(s, 99, 0, &z, &d) == SN_ELIMIT && strstr(d.text, "24"));
    sn_schedule_destroy(s);
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 21, &s, NULL) == SN_OK);
    CHECK(sn_zero_one_profile(s, 20, 0, &z, &d) == SN_ELIMIT && strstr(d.text, "20"));
    sn_schedule_destroy(s);
    /* n = 24 well under a second (the bound; generous for a
     * loaded machine or a sanitizer build) */
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 24, &s, NULL) == SN_OK);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK(sn_zero_one_profile(s, 24, 0, &z, NULL) == SN_OK);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("0-1 profile of bitonic:24: %.3f s\n", secs);
    CHECK(z.sorted[z.layers] == (1u << 24));
    for (uint32_t i = 0; i < 24; i++)
        CHECK(sn_zero_one_state(&z, z.layers, 24 - i, i) == SN_WIRE_CAN1 &&
              sn_zero_one_state(&z, z.layers, 23 - i, i) == SN_WIRE_CAN0);
    sn_zero_one_free(&z);
    sn_schedule_destroy(s);
}

/* ---- the classic bitonic sort: reversed comparators, proved for n <= 24 */

static void test_classic(void)
{
    for (uint32_t n = 1; n <= 24; n++) {
        sn_schedule *s = NULL, *ff = NULL;
        sn_network *net = NULL;
        CHECK(sn_schedule_generate(SN_ALGO_BITONIC_CLASSIC, n, &s, NULL) == SN_OK);
        CHECK(sn_schedule_generate(SN_ALGO_BITONIC, n, &ff, NULL) == SN_OK);
        CHECK(s && sn_schedule_to_network(s, &net, NULL) == SN_OK);
        if (!net) {
            sn_schedule_destroy(s);
            sn_schedule_destroy(ff);
            continue;
        }
        sn_check_result r;
        memset(&r, 0, sizeof r);
        CHECK(sn_check_run(net, NULL, &r, NULL) == SN_OK);
        CHECKF(r.sorts, "bitonic-classic:%u does not sort", n);
        /* as large and as deep as the flip-free form */
        CHECK(sn_schedule_size(s) == sn_schedule_size(ff));
        CHECK(sn_schedule_layer_count(s) == sn_schedule_layer_count(ff));
        CHECK(n < 4 || !sn_network_is_standard(net));
        CHECK(strstr(sn_schedule_name(s), "bitonic-classic:") == sn_schedule_name(s));
        sn_check_result_free(&r);
        sn_network_destroy(net);
        sn_schedule_destroy(s);
        sn_schedule_destroy(ff);
    }
    /* the textbook figure for n = 8: layer 0 alternates up and down */
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC_CLASSIC, 8, &s, NULL) == SN_OK);
    sn_comparator c[4];
    CHECK(sn_schedule_layer_pairs(s, 0, c, 4) == 4);
    CHECK(c[0].a == 0 && c[0].b == 1 && c[1].a == 3 && c[1].b == 2);
    CHECK(c[2].a == 4 && c[2].b == 5 && c[3].a == 7 && c[3].b == 6);
    sn_schedule_destroy(s);
    sn_algo a;
    CHECK(sn_algo_parse("bitonic-classic", &a) && a == SN_ALGO_BITONIC_CLASSIC);
}

/* ---- structure blocks, exactly */

typedef struct want_block {
    uint32_t l0, l1, w0, w1, depth;
    const char *label;
} want_block;

static void check_blocks(const char *spec, const want_block *want, size_t count)
{
    sn_schedule *s = NULL;
    CHECKF(sn_schedule_load(spec, &s, NULL) == SN_OK, "%s", spec);
    if (!s)
        return;
    sn_block *b = NULL;
    size_t got = 0;
    CHECK(sn_structure_blocks(s, &b, &got, NULL) == SN_OK);
    CHECKF(got == count, "%s: %zu blocks, expected %zu", spec, got, count);
    for (size_t i = 0; i < got && i < count; i++) {
        const want_block *w = &want[i];
        CHECKF(b[i].first_layer == w->l0 && b[i].last_layer == w->l1 && b[i].first_wire == w->w0 &&
                   b[i].last_wire == w->w1 && b[i].depth == w->depth &&
                   strcmp(b[i].label, w->label) == 0,
               "%s block %zu: {%u, %u, %u, %u, %u, \"%s\"}, expected {%u, %u, %u, %u, %u, \"%s\"}",
               spec, i, b[i].first_layer, b[i].last_layer, b[i].first_wire, b[i].last_wire,
               b[i].depth, b[i].label, w->l0, w->l1, w->w0, w->w1, w->depth, w->label);
    }
    sn_free(b);
    sn_schedule_destroy(s);
}

#define UP " \xe2\x86\x91"
#define DOWN " \xe2\x86\x93"
#define CHECK_BLOCKS(spec, ...)                                                                    \
    do {                                                                                           \
        static const want_block w_[] = {__VA_ARGS__};                                              \
        check_blocks(spec, w_, sizeof w_ / sizeof w_[0]);                                          \
    } while (0)

static void test_structure(void)
{
    CHECK_BLOCKS("bitonic:8", {0, 2, 0, 3, 0, "sort 4"}, {0, 2, 4, 7, 0, "sort 4"},
                 {3, 5, 0, 7, 0, "merge 8"}, {1, 2, 0, 3, 1, "merge 4"}, {1, 2, 4, 7, 1, "merge 4"},
                 {4, 4, 0, 3, 1, "half-cleaner 4"}, {4, 4, 4, 7, 1, "half-cleaner 4"});
    CHECK_BLOCKS("bitonic-classic:8", {0, 2, 0, 3, 0, "sort 4" UP}, {0, 2, 4, 7, 0, "sort 4" DOWN},
                 {3, 5, 0, 7, 0, "merge 8" UP}, {1, 2, 0, 3, 1, "merge 4" UP},
                 {1, 2, 4, 7, 1, "merge 4" DOWN}, {3, 3, 0, 7, 1, "half-cleaner 8"},
                 {4, 4, 0, 3, 1, "half-cleaner 4"}, {4, 4, 4, 7, 1, "half-cleaner 4"},
                 {1, 1, 0, 3, 2, "half-cleaner 4"}, {1, 1, 4, 7, 2, "half-cleaner 4"});
    /* n = 6: the padded network's blocks clipped to wires 0..5; the
     * straddling block ascends, its sibling descends */
    CHECK_BLOCKS("bitonic-classic:6", {0, 2, 0, 3, 0, "sort 4" DOWN}, {0, 2, 4, 5, 0, "sort 4" UP},
                 {3, 5, 0, 5, 0, "merge 8" UP}, {1, 2, 0, 3, 1, "merge 4" DOWN},
                 {1, 2, 4, 5, 1, "merge 4" UP}, {3, 3, 0, 5, 1, "half-cleaner 8"},
                 {4, 4, 0, 3, 1, "half-cleaner 4"}, {1, 1, 0, 3, 2, "half-cleaner 4"});
    CHECK_BLOCKS("bitonic-pad:6", {0, 2, 0, 3, 0, "sort 4"}, {0, 2, 4, 5, 0, "sort 4"},
                 {3, 5, 0, 5, 0, "merge 8"}, {1, 2, 0, 3, 1, "merge 4"}, {1, 2, 4, 5, 1, "merge 4"},
                 {4, 4, 0, 3, 1, "half-cleaner 4"});
    CHECK_BLOCKS("bitonic:4", {1, 2, 0, 3, 0, "merge 4"});
    CHECK_BLOCKS("bitonic-pad:3", {1, 2, 0, 2, 0, "merge 4"});
    /* the balanced split: halves of 3, each "sort 3" holding its "merge 3"
     * (a 2 + 1 merge), then "merge 6"; the blocks come from the
     * construction (core/construct.c) */
    CHECK_BLOCKS("bitonic:6", {0, 2, 0, 2, 0, "sort 3"}, {0, 2, 3, 5, 0, "sort 3"},
                 {3, 5, 0, 5, 0, "merge 6"}, {1, 2, 0, 2, 1, "merge 3"}, {1, 2, 3, 5, 1, "merge 3"});
    CHECK_BLOCKS("bitonic:3", {1, 2, 0, 2, 0, "merge 3"});
    CHECK_BLOCKS("oddeven-merge:8", {0, 2, 0, 3, 0, "sort 4"}, {0, 2, 4, 7, 0, "sort 4"},
                 {3, 5, 0, 7, 0, "merge 4+4"}, {1, 2, 0, 3, 1, "merge 2+2"},
                 {1, 2, 4, 7, 1, "merge 2+2"});
    CHECK_BLOCKS("oddeven-merge-pad:5", {0, 2, 0, 3, 0, "sort 4"}, {3, 5, 0, 4, 0, "merge 4+4"},
                 {1, 2, 0, 3, 1, "merge 2+2"});
    CHECK_BLOCKS("oddeven-merge:5", {0, 2, 2, 4, 0, "sort 3"}, {2, 4, 0, 4, 0, "merge 2+3"},
                 {1, 2, 2, 4, 1, "merge 1+2"});
    CHECK_BLOCKS("pairwise:8", {0, 2, 0, 7, 0, "pairs"}, {3, 3, 0, 7, 0, "round 1"},
                 {4, 5, 0, 7, 0, "round 2"});
    CHECK_BLOCKS("transposition:5", {0, 1, 0, 4, 0, "round 1"}, {2, 3, 0, 4, 0, "round 2"},
                 {4, 4, 0, 4, 0, "round 3"});
    /* no structure to show */
    sn_schedule *s = NULL;
    sn_block *b = NULL;
    size_t count = 1;
    CHECK(sn_schedule_generate(SN_ALGO_BUBBLE, 6, &s, NULL) == SN_OK);
    CHECK(sn_structure_blocks(s, &b, &count, NULL) == SN_OK && count == 0 && !b);
    sn_schedule_destroy(s);
    /* every block of every generator lies within the network and holds a
     * comparator; blocks of depth d + 1 lie inside one of depth d or beside
     * all of them */
    for (int a = SN_ALGO_BITONIC; a < SN_ALGO_COUNT; a++) {
        for (uint32_t n = 1; n <= 40; n++) {
            CHECK(sn_schedule_generate((sn_algo)a, n, &s, NULL) == SN_OK);
            CHECK(sn_structure_blocks(s, &b, &count, NULL) == SN_OK);
            for (size_t i = 0; i < count; i++) {
                CHECK(b[i].first_wire < b[i].last_wire && b[i].last_wire < n);
                CHECK(b[i].first_layer <= b[i].last_layer &&
                      b[i].last_layer < sn_schedule_layer_count(s));
                CHECK(i == 0 || b[i - 1].depth <= b[i].depth);
            }
            sn_free(b);
            sn_schedule_destroy(s);
        }
    }
}

int main(void)
{
    test_zero_one_profile();
    test_classic();
    test_structure();
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
