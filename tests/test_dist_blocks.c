/* test_dist_blocks.c - the distributed sort's names and values
 * (render/dist_blocks.c) where they refuse: a spec that is not dist:P,NET
 * or names a network too long to keep, blocks of no key or of a network
 * without wires, out of memory at every allocation of the blocks (each
 * run ends in SN_ENOMEM, leaks nothing, and leaves the blocks empty), and
 * the empty blocks' answers. test_dist_scene has the picture. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "render/dist_scene.h"
#include "sn_test.h"

static void test_spec_refusals(void)
{
    sn_dist_spec ds;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_dist_spec_parse("bitonic:4", &ds, &d) == SN_EPARSE);
    CHECK(strstr(d.text, "'bitonic:4' is not dist:P,NET") != NULL);
    CHECK(sn_dist_spec_parse(NULL, &ds, &d) == SN_EPARSE);
    CHECK(strstr(d.text, "'' is not dist:P,NET") != NULL);
    /* a network name longer than the spec keeps */
    char spec[sizeof ds.net + 32];
    int k = snprintf(spec, sizeof spec, "dist:4,");
    memset(spec + k, 'a', sizeof ds.net);
    spec[(size_t)k + sizeof ds.net] = '\0';
    CHECK(sn_dist_spec_parse(spec, &ds, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "the network's name is too long") != NULL);
    /* one character shorter fits */
    spec[(size_t)k + sizeof ds.net - 1] = '\0';
    CHECK(sn_dist_spec_parse(spec, &ds, &d) == SN_OK && strlen(ds.net) == sizeof ds.net - 1);
}

static void test_blocks_refusals(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_schedule_load("bitonic:4", &s, &d) == SN_OK);
    sn_dist_blocks b;
    CHECK(sn_dist_blocks_make(s, 0, 1, &b, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "needs ranks and keys") != NULL);
    CHECK(b.blocks == NULL && b.ranks == 0);
    sn_schedule_destroy(s);
    /* a network without wires: no rank */
    s = NULL;
    sn_network *none = sn_network_create(0);
    CHECK(none && sn_schedule_from_network(none, &s) == SN_OK);
    sn_diag_clear(&d);
    CHECK(s && sn_dist_blocks_make(s, 3, 1, &b, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "needs ranks and keys") != NULL);
    sn_schedule_destroy(s);
    /* empty blocks: freeing them (and NULL) is a no-op, the broken rank 0 */
    sn_dist_blocks_free(NULL);
    memset(&b, 0, sizeof b);
    CHECK(sn_dist_broken(&b, 0) == 0);
    sn_dist_blocks_free(&b);
}

/* The k-th allocation of sn_dist_blocks_make failing, k = 1, 2, ... until a
 * run makes fewer: each failing run says out of memory, leaks nothing and
 * leaves the blocks zeroed. */
static void test_blocks_oom(void)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load("bitonic:4", &s, NULL) == SN_OK);
    if (!s)
        return;
    size_t base = sn_alloc_live(), failures = 0;
    for (size_t k = 1; k < 1000; k++) {
        sn_dist_blocks b;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_dist_blocks_make(s, 3, 7, &b, &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < k) {
            CHECK(st == SN_OK && b.ranks == 4 && b.keys == 3 && b.blocks != NULL);
            sn_dist_blocks_free(&b);
            CHECK(sn_alloc_live() == base);
            break;
        }
        failures++;
        CHECKF(st == SN_ENOMEM && strstr(d.text, "out of memory for 12 keys"),
               "allocation %zu: %s: %s", k, sn_status_str(st), d.text);
        CHECK(b.blocks == NULL && b.slices == NULL && b.changed == NULL && b.cmp_first == NULL);
        CHECKF(sn_alloc_live() == base, "allocation %zu failing: a leak", k);
    }
    CHECK(failures >= 5);
    sn_schedule_destroy(s);
}

int main(void)
{
    test_spec_refusals();
    test_blocks_refusals();
    test_blocks_oom();
    return sn_test_finish("test_dist_blocks");
}
