/* test_schedule.c - generators and schedules: layer invariants, closed forms
 * against sn_layer_partner, textbook sizes, and the 0-1 principle. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/schedule.h"
#include "sn_test.h"

static const sn_algo gens[] = {SN_ALGO_BITONIC,  SN_ALGO_ODDEVEN_MERGE, SN_ALGO_TRANSPOSITION,
                               SN_ALGO_PAIRWISE, SN_ALGO_BUBBLE,        SN_ALGO_INSERTION};
#define NGENS (sizeof gens / sizeof gens[0])

/* 0-1 principle with one bit per wire (independent of exec.c). */
static bool sorts_all_01(const sn_network *net)
{
    uint32_t n = sn_network_wires(net);
    size_t L = sn_network_layer_count(net);
    for (uint32_t x0 = 0; x0 < (1u << n); x0++) {
        uint32_t x = x0;
        for (size_t k = 0; k < L; k++) {
            size_t cnt;
            const sn_comparator *c = sn_network_layer(net, k, &cnt);
            for (size_t i = 0; i < cnt; i++) {
                uint32_t ba = (x >> c[i].a) & 1u, bb = (x >> c[i].b) & 1u;
                if (ba > bb)
                    x ^= (1u << c[i].a) | (1u << c[i].b);
            }
        }
        uint32_t ones = (uint32_t)__builtin_popcount(x);
        uint32_t want = ones ? (((1u << ones) - 1u) << (n - ones)) : 0;
        if (x != want)
            return false;
    }
    return true;
}

static void check_schedule(sn_algo algo, uint32_t n)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_status st = sn_schedule_generate(algo, n, &s, &d);
    CHECKF(st == SN_OK, "%s:%u: %s", sn_algo_name(algo), n, d.text);
    if (st != SN_OK)
        return;
    char name[64];
    /* a padded closed form differs from the balanced split: "-pad" */
    bool pad = sn_algo_is_closed_form(algo) && algo != SN_ALGO_TRANSPOSITION && (n & (n - 1)) != 0;
    snprintf(name, sizeof name, "%s%s:%u", sn_algo_name(algo), pad ? "-pad" : "", n);
    CHECKF(strcmp(sn_schedule_name(s), name) == 0, "%s, want %s", sn_schedule_name(s), name);
    CHECK(sn_schedule_wires(s) == n);
    CHECK(sn_schedule_algo(s) == algo);
    CHECK(sn_algo_is_closed_form(algo) == (sn_schedule_network(s) == NULL));
    size_t L = sn_schedule_layer_count(s), total = 0;
    sn_comparator *buf = sn_calloc(n + 1, sizeof *buf);
    uint8_t *used = sn_calloc(n + 1, 1);
    uint32_t prev_stage = 0;
    for (size_t k = 0; k < L; k++) {
        size_t cnt = sn_schedule_layer_pairs(s, k, buf, n + 1);
        CHECKF(cnt > 0, "%s layer %zu empty", name, k);
        CHECK(cnt == sn_schedule_layer_size(s, k));
        CHECK(cnt <= n / 2);
        memset(used, 0, n + 1);
        for (size_t i = 0; i < cnt && i <= n; i++) {
            CHECKF(buf[i].a < buf[i].b && buf[i].b < n, "%s layer %zu", name, k);
            if (buf[i].b >= n)
                continue;
            CHECK(!used[buf[i].a] && !used[buf[i].b]);
            used[buf[i].a] = used[buf[i].b] = 1;
            if (i > 0)
                CHECK(buf[i - 1].a < buf[i].a || !sn_algo_is_closed_form(algo));
        }
        if (sn_algo_is_closed_form(algo)) {
            sn_layer_form f = sn_schedule_layer_form(s, k);
            CHECK(f.algo == algo);
            size_t seen = 0;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t j = 0;
                bool has = sn_layer_partner(f, n, i, &j);
                CHECK(has == (used[i] != 0));
                if (has) {
                    uint32_t back = 0;
                    CHECK(j < n && j != i);
                    CHECK(sn_layer_partner(f, n, j, &back) && back == i);
                    if (j > i) {
                        CHECK(seen < cnt && buf[seen].a == i && buf[seen].b == j);
                        seen++;
                    }
                }
            }
            CHECK(seen == cnt);
        }
        uint32_t stage = sn_schedule_layer_stage(s, k);
        CHECK(stage >= prev_stage);
        prev_stage = stage;
        total += cnt;
    }
    CHECK(total == sn_schedule_size(s));
    sn_network *net = NULL;
    CHECK(sn_schedule_to_network(s, &net, &d) == SN_OK);
    if (net) {
        CHECK(sn_network_wires(net) == n && sn_network_layer_count(net) == L);
        CHECK(sn_network_size(net) == total);
        if (n <= 16)
            CHECKF(sorts_all_01(net), "%s does not sort", name);
        sn_network_destroy(net);
    }
    /* closed forms: the dropped padded network, counted independently */
    if (sn_algo_is_closed_form(algo) && algo != SN_ALGO_TRANSPOSITION) {
        uint32_t N = 1;
        while (N < n)
            N <<= 1;
        sn_schedule *full = NULL;
        CHECK(sn_schedule_generate(algo, N, &full, NULL) == SN_OK);
        sn_comparator *fb = sn_calloc(N + 1, sizeof *fb);
        size_t kept = 0;
        for (size_t k = 0; full && k < sn_schedule_layer_count(full); k++) {
            size_t cnt = sn_schedule_layer_pairs(full, k, fb, N + 1);
            for (size_t i = 0; i < cnt; i++)
                kept += fb[i].b < n;
        }
        CHECKF(kept == total, "%s: %zu kept vs %zu", name, kept, total);
        sn_free(fb);
        sn_schedule_destroy(full);
    }
    sn_free(buf);
    sn_free(used);
    sn_schedule_destroy(s);
}

static void check_pow2_sizes(void)
{
    for (uint32_t k = 1; k <= 10; k++) {
        uint32_t n = 1u << k;
        sn_schedule *s = NULL;
        CHECK(sn_schedule_generate(SN_ALGO_BITONIC, n, &s, NULL) == SN_OK);
        CHECK(sn_schedule_size(s) == ((size_t)n / 2) * k * (k + 1) / 2);
        CHECK(sn_schedule_layer_count(s) == (size_t)k * (k + 1) / 2);
        sn_schedule_destroy(s);
        CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, n, &s, NULL) == SN_OK);
        size_t want = k >= 2 ? (size_t)(k * k - k + 4) * (n >> 2) - 1 : 1;
        CHECKF(sn_schedule_size(s) == want, "oem:%u %zu", n, sn_schedule_size(s));
        CHECK(sn_schedule_layer_count(s) == (size_t)k * (k + 1) / 2);
        sn_schedule_destroy(s);
        CHECK(sn_schedule_generate(SN_ALGO_TRANSPOSITION, n, &s, NULL) == SN_OK);
        CHECK(sn_schedule_size(s) == (size_t)n * (n - 1) / 2);
        CHECK(sn_schedule_layer_count(s) == (n >= 3 ? n : 1));
        sn_schedule_destroy(s);
        CHECK(sn_schedule_generate(SN_ALGO_PAIRWISE, n, &s, NULL) == SN_OK);
        CHECK(sn_schedule_layer_count(s) == (size_t)k * (k + 1) / 2);
        sn_schedule_destroy(s);
    }
}

static void check_huge(void)
{
    /* 2^26 wires: O(depth) memory, sizes in O(depth) */
    sn_schedule *s = NULL;
    uint32_t n = 1u << 26;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, n, &s, NULL) == SN_OK);
    CHECK(sn_schedule_layer_count(s) == 26 * 27 / 2);
    CHECK(sn_schedule_size(s) == ((size_t)n / 2) * 26 * 27 / 2);
    CHECK(sn_schedule_layer_stage(s, sn_schedule_layer_count(s) - 1) == 25);
    sn_network *net = NULL;
    sn_diag d;
    CHECK(sn_schedule_to_network(s, &net, &d) == SN_ELIMIT && net == NULL);
    sn_schedule_destroy(s);
    CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, n - 5, &s, NULL) == SN_OK);
    CHECK(sn_schedule_layer_count(s) == 26 * 27 / 2);
    sn_schedule_destroy(s);
    CHECK(sn_schedule_generate(SN_ALGO_BUBBLE, (1u << 16) + 3, &s, &d) == SN_ELIMIT);
    CHECK(s == NULL && strlen(d.text) > 0);
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 0, &s, &d) == SN_EINVAL);
}

static void check_names(void)
{
    sn_algo a;
    for (size_t i = 0; i < NGENS; i++) {
        CHECK(sn_algo_parse(sn_algo_name(gens[i]), &a) && a == gens[i]);
    }
    CHECK(sn_algo_parse("oem", &a) && a == SN_ALGO_ODDEVEN_MERGE);
    CHECK(sn_algo_parse("oets", &a) && a == SN_ALGO_TRANSPOSITION);
    CHECK(!sn_algo_parse("bogus", &a));
    CHECK(strcmp(sn_algo_name(SN_ALGO_ODDEVEN_MERGE), "oddeven-merge") == 0);
    sn_network *net = sn_network_create(3);
    sn_schedule *s = NULL;
    CHECK(sn_network_add_asap(net, 0, 2, NULL) == SN_OK);
    CHECK(sn_network_set_name(net, "mine") == SN_OK);
    CHECK(sn_schedule_from_network(net, &s) == SN_OK);
    CHECK(strcmp(sn_schedule_name(s), "mine") == 0);
    CHECK(sn_schedule_set_name(s, "other") == SN_OK && strcmp(sn_schedule_name(s), "other") == 0);
    CHECK(sn_schedule_algo(s) == SN_ALGO_EXPLICIT && sn_schedule_size(s) == 1);
    CHECK(sn_schedule_network(s) == net);
    sn_schedule_destroy(s);
}

int main(void)
{
    for (size_t g = 0; g < NGENS; g++)
        for (uint32_t n = 1; n <= 70; n++)
            check_schedule(gens[g], n);
    check_pow2_sizes();
    check_huge();
    check_names();
    return sn_test_finish("test_schedule");
}
