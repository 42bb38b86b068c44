/* test_search.c - the network search (core/search.h): small n reach the
 * optimum, every reported network is proved, a given prefix is kept, the
 * same seed on one thread gives the same trail, bad options are refused.
 * Iteration limits, never time limits, bound every run here. */
#include <string.h>

#include "core/check.h"
#include "core/search.h"
#include "sn_test.h"

#define TRAIL_MAX 256

typedef struct trail {
    size_t size[TRAIL_MAX], depth[TRAIL_MAX];
    size_t count;
    size_t unproved; /* reported networks the checker refutes */
    uint32_t k[2];
    size_t nk;
} trail;

static void on_improved(const sn_network *best, const sn_search_event *ev, void *user)
{
    trail *t = user;
    if (t->count < TRAIL_MAX) {
        t->size[t->count] = ev->size;
        t->depth[t->count] = ev->depth;
        t->count++;
    }
    CHECK(ev->size == sn_network_size(best));
    CHECK(ev->depth == sn_network_layer_count(best));
    sn_check_result res;
    sn_status st = t->nk ? sn_check_select(best, t->k, t->nk, NULL, &res, NULL)
                         : sn_check_run(best, NULL, &res, NULL);
    if (st != SN_OK || !res.sorts)
        t->unproved++;
    if (st == SN_OK)
        sn_check_result_free(&res);
}

static sn_network *run(sn_search_options *o, trail *t, sn_status *st_out)
{
    memset(t, 0, sizeof *t);
    t->nk = o->select_count;
    memcpy(t->k, o->select_k, sizeof t->k);
    o->improved = on_improved;
    o->user = t;
    sn_network *best = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_search_run(o, &best, NULL, &d);
    if (st_out)
        *st_out = st;
    return best;
}

/* Two runs with the same seed on one thread: the same network and the
 * same trail of improvements; frees both networks. */
static void check_same_trail(sn_network *nets[2], const trail t[2])
{
    CHECK(nets[0] && nets[1] && sn_network_equal(nets[0], nets[1]));
    CHECK(t[0].count == t[1].count);
    for (size_t i = 0; i < t[0].count && i < t[1].count; i++)
        CHECK(t[0].size[i] == t[1].size[i] && t[0].depth[i] == t[1].depth[i]);
    sn_network_destroy(nets[0]);
    sn_network_destroy(nets[1]);
}

static void test_optimum(void)
{
    static const size_t optimum[] = {0, 0, 1, 3, 5, 9, 12, 16, 19};
    for (uint32_t n = 3; n <= 8; n++) {
        for (int sym = 0; sym < (n % 2 ? 1 : 2); sym++) { /* mirror pairs: even n */
            sn_search_options o;
            sn_search_options_init(&o, n);
            o.symmetric = sym != 0;
            o.seed = 7;
            o.iterations = 300000;
            o.target_size = optimum[n];
            trail t;
            sn_status st;
            sn_network *best = run(&o, &t, &st);
            CHECKF(st == SN_OK && best, "n=%u: status %d", n, (int)st);
            if (!best)
                continue;
            CHECKF(sn_network_size(best) == optimum[n], "n=%u sym=%d: %zu comparators, not %zu", n,
                   sym, sn_network_size(best), optimum[n]);
            CHECK(t.count >= 1 && t.unproved == 0);
            for (size_t i = 1; i < t.count; i++)
                CHECK(t.size[i] < t.size[i - 1] ||
                      (t.size[i] == t.size[i - 1] && t.depth[i] < t.depth[i - 1]));
            sn_network_destroy(best);
        }
    }
}

static void test_depth_goal(void)
{
    /* the optimal depth for 6 wires is 5 */
    sn_search_options o;
    sn_search_options_init(&o, 6);
    o.goal = SN_SEARCH_GOAL_DEPTH;
    o.iterations = 200000;
    o.target_depth = 5;
    trail t;
    sn_network *best = run(&o, &t, NULL);
    CHECK(best && sn_network_layer_count(best) == 5 && t.unproved == 0);
    sn_network_destroy(best);
}

/* The depth goal on 8 wires: the optimal 6 layers (mirror pairs, the
 * layer-aware repair), the same trail twice for one seed. */
static void test_depth_goal_8(void)
{
    sn_network *nets[2];
    trail t[2];
    for (int r = 0; r < 2; r++) {
        sn_search_options o;
        sn_search_options_init(&o, 8);
        o.goal = SN_SEARCH_GOAL_DEPTH;
        o.symmetric = true;
        o.seed = 3;
        o.iterations = 100000;
        o.target_depth = 6;
        nets[r] = run(&o, &t[r], NULL);
        CHECK(nets[r] && sn_network_layer_count(nets[r]) == 6 && t[r].unproved == 0);
    }
    check_same_trail(nets, t);
}

/* Green's prefix: the hypercube layers of the next power of two, wires >= n
 * left out; the automatic prefix takes it from 14 wires on. */
static void test_green_prefix(void)
{
    static const struct {
        uint32_t n;
        sn_search_prefix prefix;
        size_t layers, size; /* prefix_count, the prefix's comparators */
    } cases[] = {
        {8, SN_SEARCH_PREFIX_GREEN, 0, 12}, {6, SN_SEARCH_PREFIX_GREEN, 0, 7},
        {8, SN_SEARCH_PREFIX_GREEN, 2, 8},  {14, SN_SEARCH_PREFIX_AUTO, 0, 25},
        {13, SN_SEARCH_PREFIX_AUTO, 0, 6},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sn_search_options o;
        sn_search_options_init(&o, cases[k].n);
        o.prefix = cases[k].prefix;
        o.prefix_count = cases[k].layers;
        o.iterations = cases[k].n > 8 ? 1 : 2000;
        sn_network *best = NULL;
        sn_search_stats st;
        sn_diag d;
        CHECK(sn_search_run(&o, &best, &st, &d) == SN_OK && best);
        CHECKF(st.prefix_size == cases[k].size, "n=%u case %zu: prefix of %zu, not %zu", cases[k].n,
               k, st.prefix_size, cases[k].size);
        if (best && cases[k].n == 8 && cases[k].layers == 0) {
            /* the first three layers are the cube's: i and i + 2^j, bit j of i clear */
            for (size_t l = 0; l < 3; l++) {
                size_t cnt;
                const sn_comparator *c = sn_network_layer(best, l, &cnt);
                size_t cube = 0;
                for (size_t i = 0; i < cnt; i++)
                    cube += c[i].b == c[i].a + (1u << l) && !((c[i].a >> l) & 1);
                CHECKF(cube == 4, "layer %zu holds %zu of the cube's 4 comparators", l + 1, cube);
            }
        }
        sn_network_destroy(best);
    }
}

static void test_prefix_kept(void)
{
    sn_network *p = sn_network_create(7);
    sn_comparator l1[] = {{0, 6}, {1, 5}, {2, 4}};
    CHECK(sn_network_layer_add(p, l1, 3, NULL) == SN_OK);
    CHECK(sn_network_add_asap(p, 0, 3, NULL) == SN_OK);
    CHECK(sn_network_add_asap(p, 3, 6, NULL) == SN_OK);
    sn_search_options o;
    sn_search_options_init(&o, 7);
    o.prefix = SN_SEARCH_PREFIX_NET;
    o.prefix_net = p;
    o.iterations = 3000;
    trail t;
    sn_network *best = run(&o, &t, NULL);
    CHECK(best && t.unproved == 0);
    /* the prefix's comparators appear in order, each in its own layer
     * (later comparators may share a prefix layer on other wires) */
    size_t j = 0, total = best ? sn_network_size(best) : 0;
    for (size_t i = 0; best && i < sn_network_size(p); i++) {
        sn_comparator x, y;
        size_t lx, ly;
        CHECK(sn_network_comparator(p, i, &x, &lx));
        bool found = false;
        while (!found && j < total) {
            CHECK(sn_network_comparator(best, j++, &y, &ly));
            found = x.a == y.a && x.b == y.b && lx == ly;
        }
        CHECKF(found, "prefix comparator %zu (%u,%u) kept in layer %zu", i, x.a, x.b, lx + 1);
    }
    sn_network_destroy(best);
    sn_network_destroy(p);
}

static void test_deterministic(void)
{
    sn_network *nets[2];
    trail t[2];
    for (int r = 0; r < 2; r++) {
        sn_search_options o;
        sn_search_options_init(&o, 8);
        o.seed = 12345;
        o.iterations = 5000;
        o.restart_after = 1000;
        nets[r] = run(&o, &t[r], NULL);
    }
    check_same_trail(nets, t);
}

static void test_from_and_select(void)
{
    /* start from bubble sort on 6 wires (15 comparators): must improve */
    sn_network *bubble = sn_network_create(6);
    for (uint32_t i = 0; i < 5; i++)
        for (uint32_t j = 0; j + 1 < 6 - i; j++)
            CHECK(sn_network_add_asap(bubble, j, j + 1, NULL) == SN_OK);
    sn_search_options o;
    sn_search_options_init(&o, 6);
    o.prefix = SN_SEARCH_PREFIX_NONE;
    o.from = bubble;
    o.iterations = 100000;
    o.target_size = 12;
    trail t;
    sn_network *best = run(&o, &t, NULL);
    CHECK(best && sn_network_size(best) == 12 && t.unproved == 0);
    CHECK(t.count >= 1 && t.size[0] <= 15);
    sn_network_destroy(best);
    sn_network_destroy(bubble);

    /* the median of 5 (output 2): 7 comparators suffice */
    sn_search_options_init(&o, 5);
    o.select_count = 1;
    o.select_k[0] = 2;
    o.iterations = 100000;
    o.target_size = 7;
    best = run(&o, &t, NULL);
    CHECK(best && sn_network_size(best) <= 7 && t.unproved == 0);
    sn_network_destroy(best);
}

static void test_bad_options(void)
{
    sn_network *best = NULL;
    sn_search_options o;
    sn_diag d;
    sn_search_options_init(&o, 1);
    CHECK(sn_search_run(&o, &best, NULL, &d) == SN_EINVAL && !best);
    sn_search_options_init(&o, 65);
    CHECK(sn_search_run(&o, &best, NULL, &d) == SN_EINVAL && !best);
    sn_network *p = sn_network_create(5);
    sn_search_options_init(&o, 6);
    o.prefix = SN_SEARCH_PREFIX_NET;
    o.prefix_net = p;
    CHECK(sn_search_run(&o, &best, NULL, &d) == SN_EINVAL && !best);
    CHECK(strstr(d.text, "5 wires") != NULL);
    sn_search_options_init(&o, 6);
    o.select_count = 1;
    o.select_k[0] = 6;
    CHECK(sn_search_run(&o, &best, NULL, &d) == SN_EINVAL && !best);
    sn_network_destroy(p);
}

static void test_cancelled_keeps_best(void)
{
    sn_cancel c;
    atomic_init(&c, 1); /* cancelled before it starts: the first network still comes */
    sn_search_options o;
    sn_search_options_init(&o, 8);
    o.cancel = &c;
    sn_network *best = NULL;
    sn_search_stats s;
    CHECK(sn_search_run(&o, &best, &s, NULL) == SN_OK && best && s.cancelled);
    sn_check_result res;
    CHECK(best && sn_check_run(best, NULL, &res, NULL) == SN_OK && res.sorts);
    if (best)
        sn_check_result_free(&res);
    sn_network_destroy(best);
}

/* The measured defaults: mirror pairs for the depth goal on even n and for
 * the size goal on 12 wires, where the automatic greedy prefix is 10
 * comparators (5 pairs) instead of n/2. */
static void test_defaults_12(void)
{
    CHECK(sn_search_default_symmetric(12, SN_SEARCH_GOAL_SIZE));
    CHECK(!sn_search_default_symmetric(11, SN_SEARCH_GOAL_SIZE));
    CHECK(!sn_search_default_symmetric(14, SN_SEARCH_GOAL_SIZE));
    CHECK(sn_search_default_symmetric(10, SN_SEARCH_GOAL_DEPTH));
    CHECK(!sn_search_default_symmetric(9, SN_SEARCH_GOAL_DEPTH));
    sn_search_options o;
    sn_search_options_init(&o, 12);
    CHECK(!o.symmetric);
    o.iterations = 1;
    size_t prefix[2];
    for (int sym = 0; sym < 2; sym++) {
        o.symmetric = sym;
        sn_network *best = NULL;
        sn_search_stats stats;
        CHECK(sn_search_run(&o, &best, &stats, NULL) == SN_OK && best);
        prefix[sym] = stats.prefix_size;
        sn_network_destroy(best);
    }
    CHECKF(prefix[0] == 6 && prefix[1] == 10, "greedy prefixes of %zu and %zu", prefix[0],
           prefix[1]);
}

int main(void)
{
    test_bad_options();
    test_optimum();
    test_depth_goal();
    test_defaults_12();
    test_depth_goal_8();
    test_green_prefix();
    test_prefix_kept();
    test_deterministic();
    test_from_and_select();
    test_cancelled_keeps_best();
    return sn_test_finish("test_search");
}
