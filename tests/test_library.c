/* test_library.c - the shipped network library (core/library.h): every
 * entry builds with the n, size and depth its source lists; the table is
 * sorted; best:N and best-depth:N pick what their definitions say, for
 * every n = 2..64; "proven optimal" matches the published values; and the
 * names resolve (or fail clearly) through sn_schedule_load. That every
 * entry sorts is proven in test_check and, through the real binary, in
 * cli_library. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/library.h"
#include "core/network.h"
#include "core/schedule.h"
#include "sn_test.h"

/* Every entry builds as listed, and the table is in (n, size, depth) order
 * with unique stems. */
static void test_entries(void)
{
    size_t count = sn_library_count();
    CHECKF(count >= 120, "%zu entries", count);
    sn_library_info prev = {0}, e;
    for (size_t i = 0; sn_library_get(i, &e); i++) {
        sn_network *net = NULL;
        sn_diag d;
        CHECKF(sn_library_network(i, NULL, &net, &d) == SN_OK, "%s: %s", e.path, d.text);
        if (!net)
            continue;
        CHECKF(sn_network_wires(net) == e.n && sn_network_size(net) == e.size &&
                   sn_network_layer_count(net) == e.depth,
               "%s: built n=%u size=%zu depth=%zu, listed %u %u %u", e.path, sn_network_wires(net),
               sn_network_size(net), sn_network_layer_count(net), e.n, e.size, e.depth);
        char name[128];
        snprintf(name, sizeof name, "lib:%s", e.stem);
        CHECK(strcmp(sn_network_name(net), name) == 0);
        CHECK(sn_library_find(e.stem) == i);
        CHECK(strcmp(e.source, "SorterHunter") == 0 || strcmp(e.source, "libsortnetwork") == 0);
        if (i > 0)
            CHECKF(prev.n < e.n ||
                       (prev.n == e.n &&
                        (prev.size < e.size || (prev.size == e.size && prev.depth <= e.depth))),
                   "%s after %s: not in (n, size, depth) order", e.stem, prev.stem);
        prev = e;
        sn_network_destroy(net);
    }
    CHECK(!sn_library_get(count, &e));
    CHECK(sn_library_find("no-such-network") == SN_LIBRARY_NONE);
    sn_network *net = NULL;
    sn_diag d;
    CHECK(sn_library_network(count, NULL, &net, &d) == SN_EINVAL && net == NULL);
}

/* median:n: the median network with the fewest comparators (ties: fewest
 * layers) for n = 3..32, of kind median, never best:n; none elsewhere. */
static void test_median(void)
{
    size_t medians = 0;
    sn_library_info e;
    for (size_t i = 0; sn_library_get(i, &e); i++) {
        medians += e.kind == SN_LIBRARY_MEDIAN;
        CHECK(e.kind != SN_LIBRARY_MEDIAN ||
              (!e.best_size && !e.best_depth && strncmp(e.path, "median/", 7) == 0));
    }
    CHECKF(medians == 95, "%zu median networks", medians);
    for (uint32_t n = 1; n <= 34; n++) {
        size_t m = sn_library_median(n);
        if (n < 3 || n > 32) {
            CHECK(m == SN_LIBRARY_NONE);
            continue;
        }
        CHECK(m != SN_LIBRARY_NONE && sn_library_get(m, &e) && e.kind == SN_LIBRARY_MEDIAN);
        uint32_t size = e.size, depth = e.depth;
        for (size_t i = 0; sn_library_get(i, &e); i++)
            if (e.n == n && e.kind == SN_LIBRARY_MEDIAN)
                CHECKF(size < e.size || (size == e.size && depth <= e.depth),
                       "median:%u is not the smallest", n);
    }
    CHECK(strcmp(sn_library_kind_name(SN_LIBRARY_MEDIAN), "median") == 0 &&
          strcmp(sn_library_kind_name(SN_LIBRARY_SORTER), "sorter") == 0);
}

/* best:n has the fewest comparators of SorterHunter's networks on n inputs
 * (ties: fewest layers), best-depth:n the fewest layers (ties: fewest
 * comparators), checked against a scan written independently here. */
static void test_best(void)
{
    uint32_t lo, hi;
    sn_library_best_range(&lo, &hi);
    CHECKF(lo == 2 && hi == 64, "best:N covers %u..%u", lo, hi);
    for (uint32_t n = 1; n <= 66; n++) {
        uint32_t min_size = UINT32_MAX, min_depth = UINT32_MAX, size_of_min_depth = 0,
                 depth_of_min_size = 0;
        sn_library_info e;
        for (size_t i = 0; sn_library_get(i, &e); i++) {
            if (e.n != n || strcmp(e.source, "SorterHunter") != 0 || e.kind != SN_LIBRARY_SORTER)
                continue;
            if (e.size < min_size || (e.size == min_size && e.depth < depth_of_min_size))
                min_size = e.size, depth_of_min_size = e.depth;
            if (e.depth < min_depth || (e.depth == min_depth && e.size < size_of_min_depth))
                min_depth = e.depth, size_of_min_depth = e.size;
        }
        size_t b = sn_library_best(n, false), bd = sn_library_best(n, true);
        if (n < 2 || n > 64) {
            CHECKF(b == SN_LIBRARY_NONE && bd == SN_LIBRARY_NONE, "best:%u exists", n);
            continue;
        }
        CHECKF(b != SN_LIBRARY_NONE && bd != SN_LIBRARY_NONE, "no best:%u", n);
        if (b == SN_LIBRARY_NONE || bd == SN_LIBRARY_NONE)
            continue;
        sn_library_get(b, &e);
        CHECKF(e.n == n && e.size == min_size && e.depth == depth_of_min_size && e.best_size,
               "best:%u is %s", n, e.stem);
        sn_library_get(bd, &e);
        CHECKF(e.n == n && e.depth == min_depth && e.size == size_of_min_depth && e.best_depth,
               "best-depth:%u is %s", n, e.stem);
    }
    CHECK(sn_library_best_size(16) == 60 && sn_library_best_size(64) == 521);
    CHECK(sn_library_best_size(1) == 0 && sn_library_best_size(65) == 0);
    /* a few well-known records */
    sn_library_info e;
    sn_library_get(sn_library_best(16, false), &e);
    CHECK(e.size == 60 && e.depth == 10);
    sn_library_get(sn_library_best(16, true), &e);
    CHECK(e.size == 61 && e.depth == 9);
    sn_library_get(sn_library_best(10, false), &e);
    CHECK(e.size == 29 && e.depth == 8 && e.size_optimal && !e.depth_optimal);
    sn_library_get(sn_library_best(10, true), &e);
    CHECK(e.size == 31 && e.depth == 7 && !e.size_optimal && e.depth_optimal);
}

/* "proven optimal" only where the published bounds say so. */
static void test_optimal(void)
{
    sn_library_info e;
    size_t sizes = 0, depths = 0;
    for (size_t i = 0; sn_library_get(i, &e); i++) {
        if (e.size_optimal) {
            CHECKF(e.n <= 12 && e.best_size == (strcmp(e.source, "SorterHunter") == 0),
                   "%s marked size-optimal", e.stem);
            sizes++;
        }
        if (e.depth_optimal)
            depths++;
        if (e.n > 17)
            CHECKF(!e.size_optimal && !e.depth_optimal, "%s marked optimal", e.stem);
        /* every size record of n <= 12 and depth record of n <= 17 is proven */
        if (e.best_size && e.n <= 12)
            CHECKF(e.size_optimal, "best:%u not marked size-optimal", e.n);
        if (e.best_depth && e.n <= 17)
            CHECKF(e.depth_optimal, "best-depth:%u not marked depth-optimal", e.n);
    }
    CHECKF(sizes >= 11 && depths >= 16, "%zu size-optimal, %zu depth-optimal", sizes, depths);
    sn_library_get(sn_library_best(17, true), &e);
    CHECK(e.depth == 10 && e.depth_optimal);
    sn_library_get(sn_library_best(17, false), &e);
    CHECK(!e.size_optimal && !e.depth_optimal);
}

static void expect_error(const char *spec, const char *fragment)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_load(spec, &s, &d);
    CHECKF(st == SN_EINVAL && s == NULL, "load '%s': status %d", spec, (int)st);
    CHECKF(strstr(d.text, fragment) != NULL, "load '%s': '%s' lacks '%s'", spec, d.text, fragment);
    sn_schedule_destroy(s);
}

static void test_names(void)
{
    static const char *specs[] = {"best:2",           "best:16",       "best-depth:16",
                                  "best:64",          "best-depth:64", "lib:Sort_10_31_7",
                                  "lib:16i-10s-60c-0"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        sn_schedule *s = NULL;
        sn_diag d;
        CHECKF(sn_schedule_load(specs[i], &s, &d) == SN_OK, "%s: %s", specs[i], d.text);
        if (!s)
            continue;
        CHECK(strcmp(sn_schedule_name(s), specs[i]) == 0);
        CHECK(sn_schedule_algo(s) == SN_ALGO_EXPLICIT);
        sn_schedule_destroy(s);
    }
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("best-depth:16", &s, &d) == SN_OK && s && sn_schedule_size(s) == 61 &&
          sn_schedule_layer_count(s) == 9);
    sn_schedule_destroy(s);
    expect_error("best:1", "n = 2..64 only");
    expect_error("best:65", "oddeven-merge:65");
    expect_error("best-depth:0", "at least 1 wire");
    expect_error("best:", "expected the number of wires");
    expect_error("best:1x", "'1x' is not a number");
    expect_error("lib:", "no library network named ''");
    expect_error("lib:Sort_16_59_10", "`sortnet list`");
    expect_error("nosuch:3", "best:N");
}

/* A libsortnetwork entry (.sn, embedded as text and parsed) out of memory
 * at each allocation of loading it: SN_ENOMEM, nothing handed out, no
 * leak; then it loads with its lib: name. */
static void test_sn_entry_oom(void)
{
    size_t i = 0;
    sn_library_info info;
    while (sn_library_get(i, &info) && strcmp(info.source, "libsortnetwork") != 0)
        i++;
    CHECK(i < sn_library_count());
    if (i >= sn_library_count())
        return;
    size_t base = sn_alloc_live(), failed = 0;
    for (size_t k = 1; k < 1000; k++) {
        sn_network *net = (sn_network *)1;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_library_network(i, NULL, &net, &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < k) {
            char want[160];
            snprintf(want, sizeof want, "lib:%s", info.stem);
            CHECK(st == SN_OK && net && sn_network_wires(net) == info.n &&
                  strcmp(sn_network_name(net), want) == 0);
            sn_network_destroy(net);
            break;
        }
        failed++;
        CHECKF(st == SN_ENOMEM && net == NULL, "%s, allocation %zu: %s", info.path, k,
               sn_status_str(st));
        CHECKF(sn_alloc_live() == base, "%s, allocation %zu failing: a leak", info.path, k);
    }
    CHECK(failed > 0);
    CHECK(sn_alloc_live() == base);
}

int main(void)
{
    test_entries();
    test_best();
    test_median();
    test_optimal();
    test_names();
    test_sn_entry_oom();
    return sn_test_finish("test_library");
}
