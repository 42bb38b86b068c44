/* test_dist_view.c - the window's dist view (src/session/dist_view.h) without
 * a window: `view dist:P,NET` opens the view of NET with the merge-split
 * picture; at every step the frame (the scene the window and the page
 * paint) shows each rank, the blocks up to that step with the values the
 * picture computes, the current layer's merge-splits and changed blocks
 * marked, readably at 1280x800; a bad name fails with its reason; and the
 * page's engine opens dist: names too. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h" // for: sn_network_parse
#include "session/frame_build.h"
#include "session/group.h"
#include "session/dist_view.h"
#include "render/dist_scene.h"
#include "render/scene.h"
#include "sn_test.h"
#include "session/view.h"
#include "web/engine.h"

static size_t count_role(const sn_scene *sc, sn_prim_kind kind, sn_role role)
{
    size_t k = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        k += p->kind == kind && p->tag.role == role;
    }
    return k;
}

static bool has_text(const sn_scene *sc, const char *text)
{
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        if (p->kind == SN_PRIM_TEXT && strcmp(sn_scene_str(sc, p), text) == 0)
            return true;
    }
    return false;
}

/* wide: 1 a picture too wide for the window, shown a few columns at a
 * time; 0 shown whole; -1 either */
static void test_frames(const char *spec, uint32_t P, uint32_t K, int wide)
{
    sn_group g;
    sn_diag d;
    sn_diag_clear(&d);
    sn_view_input in = {SN_INPUT_RANDOM, 3, NULL, SN_KEY_I32};
    sn_status st = sn_group_init(&g, &spec, 1, &in, &d);
    CHECKF(st == SN_OK, "%s: %s", spec, d.text);
    if (st != SN_OK)
        return;
    sn_view *v = &g.view[0];
    CHECK(v->n == P && v->dist_keys == K && sn_dist_view_on(v));
    CHECKF(strncmp(v->name, "dist:", 5) == 0, "name %s", v->name);
    /* the values the picture computes for the view's seed */
    sn_dist_blocks b;
    CHECK(sn_dist_blocks_make(v->sched, K, v->seed, &b, &d) == SN_OK);
    sn_frame *f = sn_frame_create();
    sn_scene *sc = sn_scene_create(0, 0);
    char rep[2048];
    for (size_t step = 0; step <= v->layers; step++) {
        sn_group_step_to(&g, step);
        CHECK(v->step == step);
        CHECK(sn_frame_scene_group(&f, &g, NULL, 1280, 800, 1, sc) == SN_OK);
        char label[32];
        snprintf(label, sizeof label, "rank %u", P - 1);
        CHECK(has_text(sc, "rank 0") && has_text(sc, label));
        /* the slices and the columns up to the step carry their values;
         * where not all fit, the columns shown end with this step's */
        size_t values = count_role(sc, SN_PRIM_TEXT, SN_ROLE_VALUE);
        size_t cols = 0, done = 0;
        bool current = false;
        for (size_t j = 0; j < sn_scene_count(sc); j++) {
            const sn_prim *p = sn_scene_at(sc, j);
            if (p->kind != SN_PRIM_TEXT || p->tag.role != SN_ROLE_LABEL || p->tag.wire != -1)
                continue;
            cols++; /* a column heading: layer -1 the keys, 0 the local sort */
            done += p->tag.layer <= (int32_t)step;
            current = current || p->tag.layer == (int32_t)step;
        }
        CHECKF(current && cols >= (step == 0 ? 2u : 3u), "%s step %zu: %zu columns", spec, step,
               cols);
        CHECKF(wide < 0 || (cols < v->layers + 2) == (wide == 1), "%s step %zu: %zu columns of %zu",
               spec, step, cols, v->layers + 2);
        CHECKF(values == done * P * K, "%s step %zu: %zu values", spec, step, values);
        /* rank 0's block at this step, as text, in the column of this step */
        for (uint32_t i = 0; i < K; i++) {
            char want[16];
            snprintf(want, sizeof want, "%u", sn_dist_block(&b, step, 0)[i]);
            bool found = false;
            for (size_t j = 0; j < sn_scene_count(sc); j++) {
                const sn_prim *p = sn_scene_at(sc, j);
                found = found || (p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_VALUE &&
                                  p->tag.wire == 0 && p->tag.layer == (int32_t)step &&
                                  strcmp(sn_scene_str(sc, p), want) == 0);
            }
            CHECKF(found, "%s step %zu: rank 0 lacks %s", spec, step, want);
        }
        /* the changed blocks of this layer are ringed, and only those */
        size_t changed = 0;
        for (uint32_t r = 0; step > 0 && r < P; r++)
            changed += b.changed[step * P + r];
        CHECKF(count_role(sc, SN_PRIM_RECT, SN_ROLE_SELECTED) == changed,
               "%s step %zu: %zu rings, %zu changed", spec, step,
               count_role(sc, SN_PRIM_RECT, SN_ROLE_SELECTED), changed);
        /* the boundary marks once the last layer is shown */
        size_t marks = count_role(sc, SN_PRIM_TEXT, SN_ROLE_MARK);
        CHECK(marks == (step == v->layers ? P - 1 : 0));
        size_t probs = sn_scene_check_readable(sc, SN_SCENE_MIN_FONT, 0.01, rep, sizeof rep);
        CHECKF(probs == 0, "%s step %zu: %zu problems:\n%s", spec, step, probs, rep);
        /* and at the window's own floor (12 px, or 1/60 of its height) */
        probs = sn_scene_check_readable(sc, round(800.0 / 60), 0.01, rep, sizeof rep);
        CHECKF(probs == 0, "%s step %zu: %zu below the window's floor:\n%s", spec, step, probs,
               rep);
    }
    /* the status line counts merge-splits and says whether the blocks sorted */
    sn_view_status vs;
    sn_view_status_parts(v, &vs);
    char want[64];
    snprintf(want, sizeof want, "%zu merge-split", sn_schedule_size(v->sched));
    CHECKF(strstr(vs.counts, want) != NULL, "%s: status counts '%s'", spec, vs.counts);
    CHECKF(strcmp(vs.result, "sorted") == 0, "%s: status result '%s'", spec, vs.result);
    sn_group_step_to(&g, 0);
    sn_view_status_parts(v, &vs);
    CHECK(strncmp(vs.counts, "0 merge-splits, 0 blocks changed", 32) == 0);
    CHECK((vs.result[0] != 0) == (v->layers == 0));
    /* what S saves and the page downloads: the picture alone */
    CHECK(sn_frame_scene_diagram(f, v, sc, &d) == SN_OK);
    CHECK(has_text(sc, "rank 0") && count_role(sc, SN_PRIM_TEXT, SN_ROLE_STATUS) == 0);
    /* E: edit NET on its ordinary picture; E again: the blocks */
    sn_group_action(&g, SN_ACT_EDIT);
    CHECK(v->edit && !sn_dist_view_on(v));
    sn_group_action(&g, SN_ACT_EDIT);
    CHECK(!v->edit && sn_dist_view_on(v));
    /* R: new keys, a new picture */
    uint64_t seed = v->seed;
    sn_group_action(&g, SN_ACT_RANDOM);
    CHECK(v->seed != seed && sn_dist_view_on(v));
    sn_dist_blocks_free(&b);
    sn_scene_destroy(sc);
    sn_frame_destroy(f);
    sn_group_cleanup(&g);
}

static void test_bad(void)
{
    static const char *const bad[] = {"dist:3,bitonic:8", "dist:0", "dist:4x0",
                                      "dist:", "dist:4,nosuchnet:4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sn_view v;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_view_open(&v, bad[i], NULL, &d);
        CHECKF(st != SN_OK, "%s opened", bad[i]);
        CHECKF(d.text[0] != '\0', "%s: no message", bad[i]);
        sn_view_cleanup(&v);
    }
    sn_view v;
    sn_diag d;
    CHECK(sn_view_open(&v, "dist:3,bitonic:8", NULL, &d) != SN_OK);
    CHECKF(strstr(d.text, "8 wires") && strstr(d.text, "3 ranks"), "%s", d.text);
    sn_view_cleanup(&v);
}

/* A column heading's layer tag per column shown (-1: the keys), in order. */
static size_t headings(const sn_scene *sc, int32_t *layer, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        if (p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_LABEL && p->tag.wire == -1 && k < cap)
            layer[k++] = p->tag.layer;
    }
    return k;
}

/* sn_dist_scene_fit's column window at its edges: a first column past the
 * last shows the last; a window without the current step's column has no
 * band and, without the last column, no boundary marks; a reversed
 * comparator in a column not shown still puts the arrow in the legend. */
static void test_fit(void)
{
    static const char text[] = "[(1,0),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n";
    sn_network *net = NULL;
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_network_parse(text, sizeof text - 1, SN_FORMAT_BRACKET, &net, &d) == SN_OK);
    CHECK(net && sn_schedule_from_network(net, &s) == SN_OK);
    if (!s)
        return;
    sn_dist_blocks b;
    CHECK(sn_dist_blocks_make(s, 2, 5, &b, &d) == SN_OK);
    sn_scene *sc = sn_scene_create(0, 0);
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    int32_t cols[8];
    /* past the end: the last column alone (after layer 3), its marks */
    sn_dist_scene_opts o = {SIZE_MAX, true, 1, NULL};
    sn_dist_fit past = {99, 1, false, 0};
    CHECK(sn_dist_scene_fit(sc, s, &b, th, &o, &past, 0, 0) == SN_OK);
    CHECK(headings(sc, cols, 8) == 1 && cols[0] == 3);
    CHECK(count_role(sc, SN_PRIM_TEXT, SN_ROLE_MARK) == 3);
    CHECK(count_role(sc, SN_PRIM_RECT, SN_ROLE_BAND) == 1);
    /* the keys alone at the last step: no band, no marks, and the legend
     * still explains the arrow of layer 1 (not shown) */
    sn_scene_reset(sc, 0, 0);
    sn_dist_fit first = {0, 1, true, 1};
    CHECK(sn_dist_scene_fit(sc, s, &b, th, &o, &first, 0, 0) == SN_OK);
    CHECK(headings(sc, cols, 8) == 1 && cols[0] == -1);
    CHECK(count_role(sc, SN_PRIM_TEXT, SN_ROLE_MARK) == 0);
    CHECK(count_role(sc, SN_PRIM_RECT, SN_ROLE_BAND) == 0);
    CHECK(count_role(sc, SN_PRIM_POLY, SN_ROLE_COMPARATOR) == 0);
    bool arrow = false;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        arrow = arrow || (p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_CAPTION &&
                          strstr(sn_scene_str(sc, p), "at an arrow"));
    }
    CHECK(arrow);
    /* the size reported is the size drawn, and narrower than the whole */
    double w1, h1, w, h;
    sn_dist_scene_size_fit(s, &b, &o, &first, &w1, &h1);
    sn_dist_scene_size(s, &b, &o, &w, &h);
    CHECK(w1 < w && h1 < h);
    sn_scene_destroy(sc);
    sn_dist_blocks_free(&b);
    sn_schedule_destroy(s);
}

/* A window too small for even one column at its floor: one column (the
 * current step's) and a note that the blocks' text is below the floor. */
static void test_narrow(void)
{
    sn_group g;
    sn_diag d;
    const char *spec = "dist:16x16,best:16";
    sn_view_input in = {SN_INPUT_RANDOM, 3, NULL, SN_KEY_I32};
    CHECK(sn_group_init(&g, &spec, 1, &in, &d) == SN_OK);
    sn_group_step_to(&g, 2);
    sn_frame *f = sn_frame_create();
    sn_scene *sc = sn_scene_create(0, 0);
    CHECK(sn_frame_scene_group(&f, &g, NULL, 480, 320, 1, sc) == SN_OK);
    int32_t cols[4];
    CHECK(headings(sc, cols, 4) == 1 && cols[0] == 2);
    bool note = false;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        note = note || (p->kind == SN_PRIM_NOTE && strstr(sn_scene_str(sc, p), "text floor"));
    }
    CHECK(note);
    sn_group_cleanup(&g);
    /* too tall but not too wide (15 ranks in a wide window): the rows close
     * up, every column stays, the text at the floor */
    spec = "dist:15x2,best:15";
    CHECK(sn_group_init(&g, &spec, 1, &in, &d) == SN_OK);
    CHECK(sn_frame_scene_group(&f, &g, NULL, 1800, 800, 1, sc) == SN_OK);
    int32_t all[16];
    CHECKF(headings(sc, all, 16) == g.view[0].layers + 2, "%zu columns of %zu",
           headings(sc, all, 16), g.view[0].layers + 2);
    char rep[1024];
    size_t probs = sn_scene_check_readable(sc, round(800.0 / 60), 0.01, rep, sizeof rep);
    CHECKF(probs == 0, "dist:15x2 at 1800x800: %zu problems:\n%s", probs, rep);
    sn_scene_destroy(sc);
    sn_frame_destroy(f);
    sn_group_cleanup(&g);
}

/* The page's engine: dist: opens, steps and is painted like the window. */
static void test_page(void)
{
    const char *spec = "dist:4,best:4", *input = "random:1";
    CHECK(snw_open(spec, strlen(spec), input, strlen(input)) == 0);
    snw_step_to(2);
    CHECK(snw_frame(1280, 800, 1) == 0);
    const char *pool = snw_scene_strings();
    size_t len = snw_scene_strings_len();
    bool rank3 = false;
    for (size_t i = 0; i + 6 <= len && !rank3; i++)
        rank3 = memcmp(pool + i, "rank 3", 6) == 0;
    CHECK(rank3);
    const char *bad = "dist:3,bitonic:8";
    CHECK(snw_open(bad, strlen(bad), input, strlen(input)) != 0);
}

int main(void)
{
    test_frames("dist:4,best:4", 4, 4, 0);
    test_frames("dist:8x3,bitonic:8", 8, 3, 0);
    test_frames("dist:5x2", 5, 2, 0);
    test_frames("dist:1", 1, 4, 0);
    test_frames("dist:16x8,best:16", 16, 8, 1);
    test_frames("dist:16x1,best:16", 16, 1, -1); /* too tall: the rows close up */
    test_bad();
    test_fit();
    test_narrow();
    test_page();
    return sn_test_finish("test_dist_view");
}
