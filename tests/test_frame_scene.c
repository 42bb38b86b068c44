/* test_frame_scene.c - the window's frames read as scenes: for the hard
 * cases of issue 28 (64 and 1024 wires, three panes at 720p, font scale 2,
 * structure labels, the 0-1 chart, edit mode, a lesson's caption) no two
 * text boxes overlap, none is clipped by its pane and none is below the
 * frame's text floor, at every step. Oracle: the scene checker
 * (sn_scene_check_readable) over the scene the window paints. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headless/frame.h"
#include "session/frame_scene.h"
#include "session/group.h"
#include "session/lesson.h"
#include "render/scene.h"
#include "sn_test.h"
#include "session/view.h"

static sn_view_input rnd(uint64_t seed)
{
    sn_view_input in = {SN_INPUT_RANDOM, seed, NULL, SN_KEY_I32};
    return in;
}

/* The next layer's brackets under the bars read as separate lines: two
 * whose spans overlap lie at least two line widths apart, and brackets at
 * one depth never share a stretch of line. */
static size_t brackets_merged(const sn_scene *sc)
{
    size_t bad = 0, n = sn_scene_count(sc);
    for (size_t i = 0; i < n; i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        if (p->kind != SN_PRIM_POLY || p->r != 0 || p->tag.role != SN_ROLE_COMPARATOR)
            continue;
        const sn_point *a = sn_scene_points(sc, p);
        double w = sn_scene_style_of(sc, p)->width;
        for (size_t j = i + 1; j < n; j++) {
            const sn_prim *q = sn_scene_at(sc, j);
            if (q->kind != SN_PRIM_POLY || q->r != 0 || q->tag.role != SN_ROLE_COMPARATOR)
                continue;
            const sn_point *b = sn_scene_points(sc, q);
            double a0 = fmin(a[1].x, a[2].x), a1 = fmax(a[1].x, a[2].x);
            double b0 = fmin(b[1].x, b[2].x), b1 = fmax(b[1].x, b[2].x);
            bool overlap = a0 <= b1 + w && b0 <= a1 + w;
            double dy = fabs(a[1].y - b[1].y);
            if (overlap && dy < 2 * w)
                bad++;
        }
    }
    return bad;
}

/* HiDPI factor of the frames checked (device pixels per window point). */
static double hidpi = 1.0;

/* The frame of g (frames fr) at w x h readable? `what` names the case. */
static bool check_frame(sn_frame *const *fr, sn_group *g, const sn_frame_extra *x, double w,
                        double h, bool all_labels, const char *what)
{
    sn_scene *sc = sn_scene_create(w, h);
    CHECK(sc != NULL);
    CHECK(sn_frame_scene_group(fr, g, x, w, h, hidpi, sc) == SN_OK);
    double floor_px = SN_FRAME_MIN_TEXT * hidpi;
    char report[1024];
    size_t bad = sn_scene_check_readable(sc, floor_px, 0.5, report, sizeof report);
    CHECKF(bad == 0, "%s at step %zu: %zu problem(s):\n%s", what, g->step, bad, report);
    /* something was drawn at all: text of the status and of the bars */
    size_t texts = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++)
        texts += sn_scene_at(sc, i)->kind == SN_PRIM_TEXT;
    CHECKF(texts > 5, "%s: only %zu texts", what, texts);
    size_t merged = brackets_merged(sc);
    CHECKF(merged == 0, "%s at step %zu: %zu pairs of brackets run together", what, g->step,
           merged);
    /* where every row has room, no label is thinned out (font scale 2 once
     * left every other value box blank) */
    const sn_prim *thin = sn_scene_find_note(sc, SN_NOTE_LABELS_THINNED);
    CHECKF(!all_labels || !thin, "%s at step %zu: %s", what, g->step,
           thin ? sn_scene_str(sc, thin) : "");
    sn_scene_destroy(sc);
    return bad == 0 && merged == 0 && texts > 5 && (!all_labels || !thin);
}

/* Every step of the networks specs[0, count) at w x h (font scale fs,
 * then the actions acts, if any, before stepping). */
static void check_case(const char *const *specs, size_t count, double w, double h, double fs,
                       const sn_action *acts, size_t nacts, bool all_labels, const char *what)
{
    sn_group g;
    sn_diag d;
    sn_view_input in = rnd(1);
    CHECKF(sn_group_init(&g, specs, count, &in, &d) == SN_OK, "%s: %s", what, d.text);
    sn_frame *fr[SN_GROUP_MAX] = {NULL};
    for (size_t i = 0; i < count; i++) {
        g.view[i].font_scale = fs;
        fr[i] = sn_frame_create();
    }
    for (size_t i = 0; i < nacts; i++)
        sn_group_action(&g, acts[i]);
    sn_group_settle(&g);
    size_t L = sn_group_layers(&g);
    for (size_t k = 0; k <= L; k++) {
        sn_group_step_to(&g, k);
        if (!check_frame(fr, &g, NULL, w, h, all_labels, what))
            break; /* the first failing step says enough */
    }
    for (size_t i = 0; i < count; i++)
        sn_frame_destroy(fr[i]);
    sn_group_cleanup(&g);
}

static void test_hard_cases(void)
{
    const char *three[3] = {"bitonic:64", "oddeven-merge:64", "best:64"};
    check_case(three, 3, 1280, 720, 1, NULL, 0, false, "three panes of 64 at 1280x720");
    const char *b64[1] = {"bitonic:64"};
    check_case(b64, 1, 1280, 720, 1, NULL, 0, false, "bitonic:64 at 1280x720");
    const char *b1024[1] = {"bitonic:1024"};
    check_case(b1024, 1, 1280, 800, 1, NULL, 0, false, "bitonic:1024 at 1280x800");
    const char *b16[1] = {"bitonic:16"};
    check_case(b16, 1, 1280, 800, 2, NULL, 0, true, "bitonic:16 at font scale 2");
    const sn_action w[1] = {SN_ACT_STRUCTURE};
    const char *bc16[1] = {"bitonic-classic:16"};
    check_case(bc16, 1, 1280, 800, 1, w, 1, false, "bitonic-classic:16 with structure labels");
    const char *oem64[1] = {"oddeven-merge:64"};
    check_case(oem64, 1, 1280, 800, 1, w, 1, false, "oddeven-merge:64 with structure labels");
    const sn_action z[1] = {SN_ACT_ZERO_ONE};
    check_case(b16, 1, 1280, 800, 1, z, 1, false, "bitonic:16 with the 0-1 chart");
}

/* Edit mode: the EDIT line with the network's verdict. */
static void test_edit_frame(void)
{
    const char *spec[1] = {"bitonic:8"};
    const sn_action e[1] = {SN_ACT_EDIT};
    check_case(spec, 1, 1280, 720, 1, e, 1, true, "bitonic:8 in edit mode");
    /* a small window: the drawing is scaled down, its text sized for that */
    check_case(spec, 1, 640, 400, 1, e, 1, true, "bitonic:8 in edit mode at 640x400");
    const char *b16[1] = {"bitonic:16"};
    check_case(b16, 1, 640, 400, 1, e, 1, false, "bitonic:16 in edit mode at 640x400");
}

/* A lesson's caption over three panes (lesson 03's layout). */
static void test_caption(void)
{
    const char *three[3] = {"bitonic:16", "oddeven-merge:16", "best:16"};
    sn_group g;
    sn_diag d;
    sn_view_input in = rnd(1);
    CHECK(sn_group_init(&g, three, 3, &in, &d) == SN_OK);
    sn_frame *fr[3] = {sn_frame_create(), sn_frame_create(), sn_frame_create()};
    sn_frame_extra x = {"Three ways to sort 16",
                        "The same input goes through three networks at once. Watch how many "
                        "layers each needs, and which comparators do the work.",
                        "step 2 of 5"};
    check_frame(fr, &g, &x, 1280, 720, false, "three panes under a caption");
    for (int i = 0; i < 3; i++)
        sn_frame_destroy(fr[i]);
    sn_group_cleanup(&g);
}

/* Every step of every shipped lesson, at 720p, as the window shows it:
 * the caption band over one to three panes (lesson 03's three rows). */
static void test_lessons(void)
{
    for (const sn_lesson_source *src = sn_lesson_sources; src->name; src++) {
        sn_lesson *l = NULL;
        sn_diag d;
        CHECKF(sn_lesson_parse(src->text, src->name, &l, &d) == SN_OK, "%s: %s", src->name, d.text);
        if (!l)
            continue;
        sn_group g;
        memset(&g, 0, sizeof g);
        sn_frame *fr[SN_GROUP_MAX] = {sn_frame_create(), sn_frame_create(), sn_frame_create()};
        for (size_t i = 0; i < l->count; i++) {
            CHECKF(sn_lesson_apply(l, i, &g, &d) == SN_OK, "%s step %zu: %s", src->name, i + 1,
                   d.text);
            char progress[64], what[160];
            snprintf(progress, sizeof progress, "step %zu of %zu", i + 1, l->count);
            snprintf(what, sizeof what, "lesson %s step %zu", src->name, i + 1);
            sn_frame_extra x = {l->steps[i].title, l->steps[i].caption, progress};
            if (!check_frame(fr, &g, &x, 1280, 720, false, what))
                break;
        }
        for (int i = 0; i < SN_GROUP_MAX; i++)
            sn_frame_destroy(fr[i]);
        sn_group_cleanup(&g);
        sn_lesson_free(l);
    }
}

/* A phone held upright (the page's canvas on a 390 x 844 screen at HiDPI
 * 3: 1170 x 1788 device pixels): the 0-1 chart's caption and legend, the
 * structure labels, edit mode and a lesson stay inside their panes (the
 * caption "(it sorts)" once ran past the right edge). */
static void test_phone(void)
{
    double keep = hidpi;
    hidpi = 3.0;
    const sn_action z[1] = {SN_ACT_ZERO_ONE}, w[1] = {SN_ACT_STRUCTURE}, e[1] = {SN_ACT_EDIT};
    const char *b8[1] = {"bitonic:8"}, *b16[1] = {"bitonic:16"}, *best10[1] = {"best:10"};
    const char *b20[1] = {"best:20"}, *b64[1] = {"bitonic:64"};
    check_case(b8, 1, 1170, 1788, 1, z, 1, false, "bitonic:8 with the 0-1 chart on a phone");
    check_case(b16, 1, 1170, 1788, 1, z, 1, false, "bitonic:16 with the 0-1 chart on a phone");
    check_case(b20, 1, 1170, 1788, 1, z, 1, false, "best:20 with the 0-1 chart on a phone");
    check_case(b16, 1, 1170, 1788, 1, w, 1, false, "bitonic:16 with structure labels on a phone");
    check_case(best10, 1, 1170, 1788, 1, e, 1, false, "best:10 in edit mode on a phone");
    check_case(b64, 1, 1170, 1788, 1, NULL, 0, false, "bitonic:64 on a phone");
    /* the values on the wires keep their digits: the pane is narrow but
     * tall, so the drawing is made smaller rather than the values hidden */
    sn_group g;
    sn_diag d;
    sn_view_input in = rnd(1);
    CHECK(sn_group_init(&g, b8, 1, &in, &d) == SN_OK);
    sn_frame *fr[1] = {sn_frame_create()};
    sn_group_step_to(&g, 2);
    sn_scene *sc = sn_scene_create(1170, 1788);
    CHECK(sc && sn_frame_scene_group(fr, &g, NULL, 1170, 1788, hidpi, sc) == SN_OK);
    size_t digits = 0;
    for (size_t i = 0; sc && i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        if (p->kind == SN_PRIM_NOTE)
            CHECKF(strncmp(sn_scene_str(sc, p), "values:", 7) != 0, "bitonic:8 on a phone: %s",
                   sn_scene_str(sc, p));
        /* a value's text on the wires (in the network pane, above the bars) */
        digits += p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_VALUE && p->y1 < 1000;
    }
    CHECKF(digits == 8, "bitonic:8 on a phone: %zu values with digits on the wires", digits);
    sn_scene_destroy(sc);
    sn_frame_destroy(fr[0]);
    sn_group_cleanup(&g);
    hidpi = keep;
}

/* The window's help lists the window's keys (the page's are its own:
 * test_web_engine). */
static void test_window_help(void)
{
    const char *spec[1] = {"bitonic:8"};
    sn_group g;
    sn_diag d;
    sn_view_input in = rnd(1);
    CHECK(sn_group_init(&g, spec, 1, &in, &d) == SN_OK);
    sn_frame *fr[1] = {sn_frame_create()};
    sn_group_action(&g, SN_ACT_HELP);
    sn_scene *sc = sn_scene_create(1280, 720);
    CHECK(sc && sn_frame_scene_group(fr, &g, NULL, 1280, 720, 1, sc) == SN_OK);
    bool quit = false, save = false, download = false;
    for (size_t i = 0; sc && i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        if (p->kind != SN_PRIM_TEXT)
            continue;
        quit |= strstr(sn_scene_str(sc, p), "Q: quit") != NULL;
        save |= strcmp(sn_scene_str(sc, p), "save SVG / PNG screenshot") == 0;
        download |= strstr(sn_scene_str(sc, p), "download") != NULL;
    }
    CHECK(quit && save && !download);
    sn_scene_destroy(sc);
    sn_frame_destroy(fr[0]);
    sn_group_cleanup(&g);
}

int main(void)
{
    test_hard_cases();
    test_edit_frame();
    test_caption();
    test_lessons();
    test_window_help();
    /* the same on a HiDPI screen: twice the pixels, twice the floor */
    hidpi = 2.0;
    const char *three[3] = {"bitonic:64", "oddeven-merge:64", "best:64"};
    check_case(three, 3, 2560, 1440, 1, NULL, 0, false, "three panes of 64 at 2560x1440, HiDPI 2");
    const char *b16[1] = {"bitonic:16"};
    const sn_action e[1] = {SN_ACT_EDIT};
    check_case(b16, 1, 1280, 800, 1, e, 1, false, "bitonic:16 in edit mode at 1280x800, HiDPI 2");
    test_phone();
    return sn_test_finish("test_frame_scene");
}
