/* test_dist_scene.c - the merge-split picture (render/dist_scene.h): the
 * "dist:" names, the values (the final blocks are qsort of all keys split
 * in P blocks; every layer's blocks are a direct merge-split of the step
 * before; a network that does not sort leaves a broken boundary, which the
 * picture marks) and the scene (readable, no two blocks overlapping, for
 * P = 2..16 and K = 1..8). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h" /* for: sn_schedule_load, sn_network_parse */
#include "core/schedule.h"
#include "render/dist_scene.h"
#include "render/scene.h"
#include "sn_test.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static sn_schedule *load(const char *spec)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_load(spec, &s, &d);
    CHECKF(st == SN_OK, "%s: %s", spec, d.text);
    return st == SN_OK ? s : NULL;
}

static sn_schedule *parse(const char *text)
{
    sn_network *net = NULL;
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_network_parse(text, strlen(text), SN_FORMAT_BRACKET, &net, &d);
    CHECKF(st == SN_OK, "%s", d.text);
    if (st != SN_OK)
        return NULL;
    CHECK(sn_schedule_from_network(net, &s) == SN_OK);
    return s;
}

static void test_spec(void)
{
    sn_dist_spec ds;
    sn_diag d;
    CHECK(sn_dist_spec_is("dist:4"));
    CHECK(!sn_dist_spec_is("bitonic:4"));
    CHECK(!sn_dist_spec_is(NULL));
    CHECK(sn_dist_spec_parse("dist:4", &ds, &d) == SN_OK);
    CHECK(ds.ranks == 4 && ds.keys == SN_DIST_DEFAULT_KEYS && !ds.keys_given);
    CHECK(strcmp(ds.net, "best:4") == 0);
    CHECK(sn_dist_spec_parse("dist:1", &ds, &d) == SN_OK && strcmp(ds.net, "empty:1") == 0);
    CHECK(sn_dist_spec_parse("dist:8,bitonic:8", &ds, &d) == SN_OK);
    CHECK(ds.ranks == 8 && strcmp(ds.net, "bitonic:8") == 0);
    CHECK(sn_dist_spec_parse("dist:8,bitonic", &ds, &d) == SN_OK);
    CHECK(strcmp(ds.net, "bitonic:8") == 0);
    CHECK(sn_dist_spec_parse("dist:5,best", &ds, &d) == SN_OK && strcmp(ds.net, "best:5") == 0);
    /* NET may hold commas of its own */
    CHECK(sn_dist_spec_parse("dist:6x3,merge:2,4", &ds, &d) == SN_OK);
    CHECK(ds.ranks == 6 && ds.keys == 3 && ds.keys_given && strcmp(ds.net, "merge:2,4") == 0);
    static const char *const bad[] = {
        "dist:",    "dist:x",  "dist:0",         "dist:4x0,best:4",           "dist:4,",
        "dist:4;b", "dist:-4", "dist:4x,best:4", "dist:99999999999999999999", "dist:65",
        "dist:4x17"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sn_diag_clear(&d);
        sn_status st = sn_dist_spec_parse(bad[i], &ds, &d);
        CHECKF(st == SN_EPARSE || st == SN_ELIMIT, "%s parsed", bad[i]);
        CHECKF(strstr(d.text, bad[i]) != NULL, "%s: message '%s' does not name it", bad[i], d.text);
    }
}

static void test_merge_split(void)
{
    uint32_t x[] = {1, 4, 9}, y[] = {2, 3, 10}, lo[3], hi[3];
    sn_dist_merge_split(x, y, 3, lo, hi);
    CHECK(lo[0] == 1 && lo[1] == 2 && lo[2] == 3);
    CHECK(hi[0] == 4 && hi[1] == 9 && hi[2] == 10);
    /* the other way round: the first argument keeps the smaller half */
    sn_dist_merge_split(y, x, 3, lo, hi);
    CHECK(lo[0] == 1 && lo[1] == 2 && lo[2] == 3 && hi[2] == 10);
    uint32_t a[] = {5}, b[] = {2};
    sn_dist_merge_split(a, b, 1, lo, hi);
    CHECK(lo[0] == 2 && hi[0] == 5);
}

/* Every step against a direct computation, and the end against qsort. */
static void check_values(const sn_schedule *s, uint32_t K, uint64_t seed, bool sorts)
{
    sn_dist_blocks b;
    sn_diag d;
    CHECK(sn_dist_blocks_make(s, K, seed, &b, &d) == SN_OK);
    uint32_t P = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s), n = (size_t)P * K;
    CHECK(b.ranks == P && b.keys == K && b.layers == L);
    uint32_t *want = sn_calloc(n, sizeof *want), *all = sn_calloc(2 * K, sizeof *all);
    sn_comparator pairs[64];
    /* step 0: each slice sorted; the keys are 1..P*K */
    memcpy(want, b.slices, n * sizeof *want);
    qsort(want, n, sizeof *want, cmp_u32);
    for (size_t i = 0; i < n; i++)
        CHECK(want[i] == i + 1);
    memcpy(want, b.slices, n * sizeof *want);
    for (uint32_t r = 0; r < P; r++)
        qsort(want + (size_t)r * K, K, sizeof *want, cmp_u32);
    CHECK(memcmp(want, sn_dist_block(&b, 0, 0), n * sizeof *want) == 0);
    for (size_t k = 0; k < L; k++) {
        /* want = step k's blocks; merge-split by qsort of both blocks */
        size_t m = sn_schedule_layer_pairs(s, k, pairs, 64);
        for (size_t i = 0; i < m; i++) {
            uint32_t *x = want + (size_t)pairs[i].a * K, *y = want + (size_t)pairs[i].b * K;
            memcpy(all, x, K * sizeof *all);
            memcpy(all + K, y, K * sizeof *all);
            qsort(all, 2 * K, sizeof *all, cmp_u32);
            memcpy(x, all, K * sizeof *all);
            memcpy(y, all + K, K * sizeof *all);
        }
        CHECKF(memcmp(want, sn_dist_block(&b, k + 1, 0), n * sizeof *want) == 0,
               "%s K=%u: layer %zu differs from the direct merge-split", sn_schedule_name(s), K,
               k + 1);
        for (uint32_t r = 0; r < P; r++) {
            const uint32_t *blk = sn_dist_block(&b, k + 1, r);
            for (uint32_t i = 1; i < K; i++)
                CHECK(blk[i - 1] < blk[i]);
        }
    }
    if (sorts) { /* qsort of all keys, split in P blocks */
        memcpy(want, b.slices, n * sizeof *want);
        qsort(want, n, sizeof *want, cmp_u32);
        CHECKF(memcmp(want, sn_dist_block(&b, L, 0), n * sizeof *want) == 0,
               "%s K=%u seed %llu: the final blocks are not the sorted keys", sn_schedule_name(s),
               K, (unsigned long long)seed);
        CHECK(sn_dist_broken(&b, L) == P - 1);
    }
    sn_free(want);
    sn_free(all);
    sn_dist_blocks_free(&b);
}

static void test_values(void)
{
    static const char *const nets[] = {"best:2",          "best:3",          "best:4",
                                       "best:5",          "best:8",          "best:11",
                                       "best:16",         "bitonic:8",       "bitonic:6",
                                       "oddeven-merge:7", "transposition:5", "bitonic-classic:8"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        sn_schedule *s = load(nets[i]);
        if (!s)
            continue;
        for (uint32_t K = 1; K <= 8; K += (K < 4 ? 1 : 4))
            for (uint64_t seed = 1; seed <= 3; seed++)
                check_values(s, K, seed, true);
        sn_schedule_destroy(s);
    }
}

/* best:4 without its last layer (1,2) does not sort: some keys leave a
 * boundary broken, and the picture marks it. */
static void test_broken(void)
{
    sn_schedule *s = parse("[(0,2),(1,3)]\n[(0,1),(2,3)]\n");
    if (!s)
        return;
    int broken_seeds = 0;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        check_values(s, 3, seed, false);
        sn_dist_blocks b;
        sn_diag d;
        CHECK(sn_dist_blocks_make(s, 3, seed, &b, &d) == SN_OK);
        uint32_t r = sn_dist_broken(&b, b.layers);
        if (r + 1 < b.ranks) {
            broken_seeds++;
            CHECK(sn_dist_block(&b, b.layers, r)[2] > sn_dist_block(&b, b.layers, r + 1)[0]);
            sn_dist_scene_opts o = {SIZE_MAX, false, 1, "broken"};
            double w, h;
            sn_dist_scene_size(s, &b, &o, &w, &h);
            sn_scene *sc = sn_scene_create(w, h);
            CHECK(sn_dist_scene(sc, s, &b, sn_theme_get(SN_THEME_LIGHT), &o, 0, 0) == SN_OK);
            const sn_prim *note = sn_scene_find_note(sc, SN_NOTE_INFO);
            CHECK(note && strstr(sn_scene_str(sc, note), "broken boundary"));
            /* the mark on that boundary is a cross */
            bool cross = false;
            for (size_t i = 0; i < sn_scene_count(sc); i++) {
                const sn_prim *p = sn_scene_at(sc, i);
                if (p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_MARK &&
                    p->tag.wire == (int32_t)r)
                    cross = strcmp(sn_scene_str(sc, p), "\xE2\x9C\x97") == 0;
            }
            CHECK(cross);
            sn_scene_destroy(sc);
        }
        sn_dist_blocks_free(&b);
    }
    CHECK(broken_seeds > 0);
    sn_schedule_destroy(s);
}

/* Value boxes (rectangles of role SN_ROLE_VALUE_BOX): none overlaps another. */
static size_t box_overlaps(const sn_scene *sc)
{
    size_t count = 0, bad = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++)
        count += sn_scene_at(sc, i)->tag.role == SN_ROLE_VALUE_BOX;
    const sn_prim **bx = sn_calloc(count ? count : 1, sizeof *bx);
    size_t k = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++)
        if (sn_scene_at(sc, i)->tag.role == SN_ROLE_VALUE_BOX)
            bx[k++] = sn_scene_at(sc, i);
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; j < k; j++)
            if (bx[i]->x0 < bx[j]->x1 && bx[j]->x0 < bx[i]->x1 && bx[i]->y0 < bx[j]->y1 &&
                bx[j]->y0 < bx[i]->y1)
                bad++;
    sn_free(bx);
    return bad;
}

static void test_readable(void)
{
    char rep[2048];
    for (uint32_t P = 1; P <= 16; P++) {
        char spec[32];
        snprintf(spec, sizeof spec, P == 1 ? "empty:1" : "best:%u", P);
        sn_schedule *s = load(spec);
        if (!s)
            continue;
        for (uint32_t K = 1; K <= 8; K++) {
            sn_dist_blocks b;
            sn_diag d;
            CHECK(sn_dist_blocks_make(s, K, 7, &b, &d) == SN_OK);
            /* the whole picture (draw) and the window's at a middle step */
            for (int pass = 0; pass < 2; pass++) {
                sn_dist_scene_opts o = {pass ? b.layers / 2 : SIZE_MAX, pass == 1, 1,
                                        "dist:16,best:16: 16 ranks \xC3\x97 8 keys"};
                double w, h;
                sn_dist_scene_size(s, &b, &o, &w, &h);
                sn_scene *sc = sn_scene_create(w, h);
                CHECK(sn_dist_scene(sc, s, &b, sn_theme_get(SN_THEME_LIGHT), &o, 0, 0) == SN_OK);
                size_t probs =
                    sn_scene_check_readable(sc, SN_SCENE_MIN_FONT, 0.01, rep, sizeof rep);
                CHECKF(probs == 0, "P=%u K=%u pass %d: %zu problems:\n%s", P, K, pass, probs, rep);
                CHECKF(box_overlaps(sc) == 0, "P=%u K=%u: value boxes overlap", P, K);
                /* every rank labelled, every key of every shown block drawn */
                size_t labels = 0, values = 0;
                for (size_t i = 0; i < sn_scene_count(sc); i++) {
                    const sn_prim *p = sn_scene_at(sc, i);
                    labels += p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_WIRE_LABEL;
                    values += p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_VALUE;
                }
                size_t shown = (pass ? b.layers / 2 : b.layers) + 2;
                CHECK(labels == P);
                CHECKF(values == shown * P * K, "P=%u K=%u: %zu values", P, K, values);
                sn_scene_destroy(sc);
            }
            sn_dist_blocks_free(&b);
        }
        sn_schedule_destroy(s);
    }
}

/* A reversed comparator (a > b) gets an arrow head on a, pointing at a
 * from the link's side (b's side), so one reads which rank keeps the
 * smaller half. */
static void test_arrows(void)
{
    sn_schedule *s = load("bitonic-classic:8");
    if (!s)
        return;
    sn_dist_blocks b;
    sn_diag d;
    CHECK(sn_dist_blocks_make(s, 2, 1, &b, &d) == SN_OK);
    sn_dist_scene_opts o = {SIZE_MAX, false, 1, NULL};
    double w, h;
    sn_dist_scene_size(s, &b, &o, &w, &h);
    sn_scene *sc = sn_scene_create(w, h);
    CHECK(sn_dist_scene(sc, s, &b, sn_theme_get(SN_THEME_LIGHT), &o, 0, 0) == SN_OK);
    size_t arrows = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        if (p->kind != SN_PRIM_POLY || p->tag.role != SN_ROLE_COMPARATOR)
            continue;
        arrows++;
        /* the link of the same comparator: its other end is b's row */
        const sn_point *pt = sn_scene_points(sc, p);
        for (size_t j = 0; j < sn_scene_count(sc); j++) {
            const sn_prim *l = sn_scene_at(sc, j);
            if (l->kind != SN_PRIM_LINE || l->tag.role != SN_ROLE_COMPARATOR ||
                l->tag.cmp != p->tag.cmp)
                continue;
            double ya = pt[0].y, yb = fabs(l->y0 - ya) < 0.01 ? l->y1 : l->y0;
            CHECK(fabs(l->y0 - ya) < 0.01 || fabs(l->y1 - ya) < 0.01); /* the tip on a */
            CHECKF((pt[1].y - ya) * (yb - ya) > 0, "comparator %lld: the arrow points away",
                   (long long)p->tag.cmp);
        }
    }
    CHECK(arrows > 0);
    sn_scene_destroy(sc);
    sn_dist_blocks_free(&b);
    sn_schedule_destroy(s);
}

int main(void)
{
    test_spec();
    test_merge_split();
    test_values();
    test_broken();
    test_arrows();
    test_readable();
    return sn_test_finish("test_dist_scene");
}
