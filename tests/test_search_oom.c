/* test_search_oom.c - the search through its API at its failure paths:
 * out of memory at every allocation of a short search (one worker, a
 * fixed seed and iteration count, so the allocations come in one order),
 * each answered with SN_ENOMEM, never a crash or a leak, for the
 * greedy prefix, a given prefix, a start network and a selection; and the
 * goal names. test_search has the search's results. */
#include <string.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/network.h"
#include "core/search.h"
#include "sn_test.h"

static sn_network *parse(const char *t)
{
    sn_network *net = NULL;
    CHECK(sn_network_parse(t, strlen(t), SN_FORMAT_BRACKET, &net, NULL) == SN_OK);
    return net;
}

static void every_allocation(const char *name, const sn_search_options *o)
{
    size_t base = sn_alloc_live();
    for (size_t k = 1; k < 100000; k++) {
        sn_network *best = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_search_run(o, &best, NULL, &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < k) {
            CHECKF(st == SN_OK && best, "%s: %s: %s", name, sn_status_str(st), d.text);
            sn_network_destroy(best);
            CHECK(sn_alloc_live() == base);
            printf("%s: %zu allocations, each failed once\n", name, made);
            return;
        }
        /* an allocation failed: the search says so (SN_ENOMEM), whichever
         * allocation it was (the prefix's pattern groups, a worker's
         * network, a mutation, the checker's proof), and hands out nothing */
        CHECKF(st == SN_ENOMEM, "%s, allocation %zu: %s: %s", name, k, sn_status_str(st), d.text);
        CHECK((st == SN_OK) == (best != NULL));
        if (best)
            CHECKF(sn_network_wires(best) == o->n, "%s, allocation %zu", name, k);
        sn_network_destroy(best);
        CHECKF(sn_alloc_live() == base, "%s, allocation %zu: a leak", name, k);
    }
    CHECKF(0, "%s: the loop did not end", name);
}

int main(void)
{
    sn_search_options o;
    sn_search_options_init(&o, 6);
    o.threads = 1;
    o.seed = 7;
    o.iterations = 300;
    every_allocation("greedy prefix", &o);

    sn_network *prefix = parse("[(0,1),(2,3),(4,5)]\n");
    sn_network *from = parse("[(0,1),(2,3),(4,5)]\n[(0,2),(1,4),(3,5)]\n[(0,1),(2,3),(4,5)]\n"
                             "[(1,2),(3,4)]\n[(2,3)]\n[(1,2),(3,4)]\n");
    if (prefix && from) {
        o.prefix = SN_SEARCH_PREFIX_NET;
        o.prefix_net = prefix;
        every_allocation("a given prefix", &o);
        o.prefix = SN_SEARCH_PREFIX_NONE;
        o.prefix_net = NULL;
        o.from = from;
        o.goal = SN_SEARCH_GOAL_BOTH;
        every_allocation("from a network, size and depth", &o);
        o.from = NULL;
    }
    o.prefix = SN_SEARCH_PREFIX_GREEDY;
    o.goal = SN_SEARCH_GOAL_SIZE;
    o.select_k[0] = 2;
    o.select_k[1] = 3;
    o.select_count = 2;
    every_allocation("a selection (median pair)", &o);
    sn_network_destroy(prefix);
    sn_network_destroy(from);

    sn_search_goal g = SN_SEARCH_GOAL_SIZE;
    CHECK(sn_search_goal_parse("both", &g) && g == SN_SEARCH_GOAL_BOTH);
    CHECK(strcmp(sn_search_goal_name(SN_SEARCH_GOAL_DEPTH), "depth") == 0);
    CHECK(!sn_search_goal_parse("speed", &g));
    return sn_test_finish("test_search_oom");
}
