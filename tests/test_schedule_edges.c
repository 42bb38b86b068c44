/* test_schedule_edges.c - the schedule's API at its edges: every
 * generator's name and description, refused arguments, indices past the
 * last layer, the limits when a schedule is listed as a network, and out
 * of memory at every allocation of listing it (closed form and explicit).
 * test_schedule has the generators' networks themselves. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "core/structure.h"
#include "sn_test.h"

static void test_names(void)
{
    CHECK(strcmp(sn_algo_name((sn_algo)SN_ALGO_COUNT), "unknown") == 0);
    CHECK(strcmp(sn_algo_name((sn_algo)-1), "unknown") == 0);
    static const struct {
        sn_algo algo;
        uint32_t n;
        const char *words;
    } says[] = {
        {SN_ALGO_BOSE_NELSON, 8, "Bose and Nelson"},
        {SN_ALGO_HIBBARD, 8, "Hibbard"},
        {SN_ALGO_MERGE_EXCHANGE, 8, "Algorithm 5.2.2M"},
        {SN_ALGO_BALANCED, 8, "lg n identical blocks"},
        {SN_ALGO_BALANCED, 6, "padded to the next power of two"},
        {SN_ALGO_BITONIC, 6, "padded to the next power of two"},
        {SN_ALGO_BITONIC, 8, "closed form"},
        {SN_ALGO_EXPLICIT, 8, "a network read from a file"},
        {(sn_algo)SN_ALGO_COUNT, 8, "a network read from a file"},
    };
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        CHECKF(strstr(sn_algo_describe(says[i].algo, says[i].n), says[i].words) != NULL,
               "%s:%u: %s", sn_algo_name(says[i].algo), says[i].n,
               sn_algo_describe(says[i].algo, says[i].n));
    for (int a = 0; a < SN_ALGO_COUNT; a++) {
        sn_algo back;
        CHECK(sn_algo_parse(sn_algo_name((sn_algo)a), NULL));
        CHECK(sn_algo_parse(sn_algo_name((sn_algo)a), &back));
        CHECK(strlen(sn_algo_describe((sn_algo)a, 5)) > 10);
    }
    sn_algo a = SN_ALGO_EXPLICIT;
    CHECK(!sn_algo_parse(NULL, &a) && a == SN_ALGO_EXPLICIT);
    CHECK(!sn_algo_parse("nonsense", &a));
    CHECK(sn_algo_parse("periodic-balanced", &a) && a == SN_ALGO_BALANCED);
    CHECK(!sn_algo_resolve("nonsense", 8, &a));
    CHECK(sn_algo_resolve("bitonic", 6, NULL));
    CHECK(sn_algo_resolve("oddeven-merge", 6, &a) && a == SN_ALGO_ODDEVEN_SPLIT);
    CHECK(sn_algo_resolve("bitonic-pad", 6, &a) && a == SN_ALGO_BITONIC);
}

static void test_partner(void)
{
    uint32_t j = 77;
    sn_layer_form bit = {SN_ALGO_BITONIC, 4, 2};
    CHECK(sn_layer_partner(bit, 8, 0, &j) && j == 3);
    CHECK(sn_layer_partner(bit, 8, 0, NULL));
    j = 77;
    CHECK(!sn_layer_partner(bit, 8, 8, &j) && j == 77); /* a wire past n */
    CHECK(!sn_layer_partner((sn_layer_form){SN_ALGO_BITONIC, 4, 0}, 8, 1, &j));
    CHECK(!sn_layer_partner((sn_layer_form){SN_ALGO_BITONIC, 1, 1}, 8, 1, &j));
    CHECK(!sn_layer_partner((sn_layer_form){SN_ALGO_ODDEVEN_MERGE, 2, 0}, 8, 1, &j));
    CHECK(!sn_layer_partner((sn_layer_form){SN_ALGO_ODDEVEN_MERGE, 0, 1}, 8, 1, &j));
    /* transposition, odd round: wire 0 rests; even round: 0 meets 1 */
    CHECK(!sn_layer_partner((sn_layer_form){SN_ALGO_TRANSPOSITION, 1, 0}, 8, 0, &j));
    CHECK(sn_layer_partner((sn_layer_form){SN_ALGO_TRANSPOSITION, 0, 0}, 8, 0, &j) && j == 1);
    /* the last wire of an even round on an odd n has no partner */
    CHECK(!sn_layer_partner((sn_layer_form){SN_ALGO_TRANSPOSITION, 0, 0}, 7, 6, &j));
    CHECK(!sn_layer_partner((sn_layer_form){SN_ALGO_PAIRWISE, 2, 1}, 8, 0, &j));
}

static void test_refusals(void)
{
    sn_schedule *s = (sn_schedule *)1;
    sn_diag d;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, NULL, &d) == SN_EINVAL);
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 0, &s, &d) == SN_EINVAL && s == NULL);
    CHECK(strstr(d.text, "bitonic needs n >= 1 (got 0)") != NULL);
    CHECK(sn_schedule_generate(SN_ALGO_EXPLICIT, 4, &s, &d) == SN_EINVAL);
    CHECK(sn_schedule_generate((sn_algo)SN_ALGO_COUNT, 4, &s, &d) == SN_EINVAL);
    CHECK(sn_schedule_generate(SN_ALGO_TRANSPOSITION, (1u << 31) + 1, &s, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "at most 2^31 wires") != NULL);

    /* from a network: no output destroys the network (nothing leaks) */
    size_t base = sn_alloc_live();
    sn_network *net = sn_network_create(3);
    CHECK(net && sn_schedule_from_network(net, NULL) == SN_EINVAL);
    CHECK(sn_alloc_live() == base);
    CHECK(sn_schedule_from_network(NULL, &s) == SN_EINVAL && s == NULL);

    /* an explicit generator past the comparator limit names the closed
     * form of the split generators */
    sn_limits saved = sn_limits_get(), l = saved;
    l.max_comparators = 10;
    sn_limits_set(l);
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC_SPLIT, 12, &s, &d) == SN_ELIMIT);
    CHECK(d.limit == SN_LIMIT_COMPARATORS);
    CHECK(strstr(d.text, "bitonic-pad:N is the closed form") != NULL);
    CHECK(sn_schedule_generate(SN_ALGO_HIBBARD, 12, &s, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "closed form") == NULL);
    sn_limits_set(saved);
}

static void test_past_the_end(void)
{
    sn_schedule *c = NULL, *e = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, &c, NULL) == SN_OK);
    CHECK(sn_schedule_generate(SN_ALGO_BUBBLE, 5, &e, NULL) == SN_OK);
    if (!c || !e) {
        sn_schedule_destroy(c);
        sn_schedule_destroy(e);
        return;
    }
    size_t lc = sn_schedule_layer_count(c), le = sn_schedule_layer_count(e);
    CHECK(lc == 6);
    sn_comparator buf[8];
    CHECK(sn_schedule_layer_size(c, lc) == 0 && sn_schedule_layer_size(e, le) == 0);
    CHECK(sn_schedule_layer_pairs(c, lc, buf, 8) == 0);
    CHECK(sn_schedule_layer_pairs(e, le, buf, 8) == 0);
    CHECK(sn_schedule_layer_stage(c, lc) == 0 && sn_schedule_layer_stage(e, le + 3) == 0);
    sn_layer_form f = sn_schedule_layer_form(e, 2);
    CHECK(f.algo == SN_ALGO_EXPLICIT && f.p == 2);
    f = sn_schedule_layer_form(c, lc + 1);
    CHECK(f.algo == SN_ALGO_EXPLICIT && f.p == lc + 1);
    f = sn_schedule_layer_shape(c, lc + 1);
    CHECK(f.algo == SN_ALGO_EXPLICIT);
    /* a buffer too small: the count is the whole layer's, the buffer holds
     * its first comparators */
    CHECK(sn_schedule_layer_pairs(c, 0, buf, 2) == 4);
    CHECK(buf[0].a == 0 && buf[0].b == 1 && buf[1].a == 2 && buf[1].b == 3);
    CHECK(sn_schedule_layer_pairs(c, 0, NULL, 0) == 4);
    CHECK(sn_schedule_layer_pairs(e, 0, buf, 0) == sn_schedule_layer_size(e, 0));
    CHECK(sn_schedule_to_network(c, NULL, NULL) == SN_EINVAL);

    /* listing a closed form is held to the limits: each names its limit */
    sn_limits saved = sn_limits_get(), l;
    sn_diag d;
    sn_network *net = (sn_network *)1;
    l = saved;
    l.max_wires = 4;
    sn_limits_set(l);
    CHECK(sn_schedule_to_network(c, &net, &d) == SN_ELIMIT && net == NULL);
    CHECK(d.limit == SN_LIMIT_WIRES && strstr(d.text, "too large to list") != NULL);
    l = saved;
    l.max_comparators = 10;
    sn_limits_set(l);
    CHECK(sn_schedule_to_network(c, &net, &d) == SN_ELIMIT && d.limit == SN_LIMIT_COMPARATORS);
    l = saved;
    l.max_layers = 3;
    sn_limits_set(l);
    CHECK(sn_schedule_to_network(c, &net, &d) == SN_ELIMIT && d.limit == SN_LIMIT_LAYERS);
    sn_limits_set(saved);

    /* out of memory at every allocation of listing either kind */
    const sn_schedule *both[2] = {c, e};
    size_t base = sn_alloc_live();
    for (int w = 0; w < 2; w++) {
        for (size_t k = 1;; k++) {
            sn_alloc_fail_after(k);
            net = NULL;
            sn_status st = sn_schedule_to_network(both[w], &net, &d);
            size_t made = sn_alloc_fail_after(0);
            if (made < k) {
                CHECK(st == SN_OK && net != NULL);
                CHECK(net && sn_network_size(net) == sn_schedule_size(both[w]));
                sn_network_destroy(net);
                break;
            }
            CHECKF(st == SN_ENOMEM && net == NULL && strstr(d.text, "out of memory"),
                   "schedule %d, allocation %zu: %s", w, k, sn_status_str(st));
            CHECK(sn_alloc_live() == base);
            if (k > 1000) {
                CHECK(0);
                break;
            }
        }
    }
    sn_schedule_destroy(c);
    sn_schedule_destroy(e);
}

/* The analyses' refusals and edges: no network, a 0-1 profile asked
 * past its layers or wires, and what each wire state prints as. */
static void test_analysis_edges(void)
{
    sn_network *out = (sn_network *)1;
    sn_network *net = sn_network_create(2);
    CHECK(sn_network_to_standard(NULL, &out) == SN_EINVAL);
    CHECK(net && sn_network_to_standard(net, NULL) == SN_EINVAL);
    sn_network_destroy(net);
    sn_zero_one_free(NULL);
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("bitonic:4", &s, &d) == SN_OK);
    sn_zero_one z;
    memset(&z, 0, sizeof z);
    CHECK(sn_zero_one_profile(NULL, 16, 1, &z, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no schedule") != NULL);
    CHECK(s && sn_zero_one_profile(s, 16, 1, &z, &d) == SN_OK);
    if (s && z.n == 4) {
        CHECK(sn_zero_one_state(&z, z.layers + 1, 2, 0) == 0);
        CHECK(sn_zero_one_state(&z, 0, 2, 4) == 0);
        CHECK(sn_zero_one_state(&z, 0, 5, 0) == 0);
        /* sorted: with 2 ones the top wire holds only 0, the bottom only 1 */
        CHECK(sn_zero_one_state(&z, z.layers, 2, 0) == SN_WIRE_CAN0);
        CHECK(sn_zero_one_state(&z, z.layers, 2, 3) == SN_WIRE_CAN1);
    }
    CHECK(sn_zero_one_char(SN_WIRE_CAN0) == '0' && sn_zero_one_char(SN_WIRE_CAN1) == '1');
    CHECK(sn_zero_one_char(SN_WIRE_CAN0 | SN_WIRE_CAN1) == '*' && sn_zero_one_char(0) == '-');
    sn_zero_one_free(&z);
    sn_block *b = NULL;
    size_t count = 0;
    CHECK(sn_structure_blocks(NULL, &b, &count, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no schedule") != NULL);
    CHECK(s && sn_structure_blocks(s, NULL, &count, &d) == SN_EINVAL);
    sn_schedule_destroy(s);
}

int main(void)
{
    test_analysis_edges();
    test_names();
    test_partner();
    test_refusals();
    test_past_the_end();
    return sn_test_finish("test_schedule_edges");
}
