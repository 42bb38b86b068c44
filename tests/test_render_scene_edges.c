/* test_render_scene_edges.c - the scene's less travelled paths, checked by
 * what they give: the SVG painter's numbers, escapes, caps and clips, a
 * failed scene refused by both painters, text fitting and wrapping at
 * their edges, hit tests by primitive kind, and the readability check's
 * problems (text crossed by a comparator, a box past the picture's edge,
 * a report buffer too small) and its own out-of-memory path. test_scene
 * has the rest. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "render/diagram.h"
#include "render/layout.h"
#include "render/scene.h"
#include "render/scene_cairo.h"
#include "render/scene_svg.h"
#include "sn_test.h"

static const sn_rgba ink = {0, 0, 0, 1};

static char *svg_of(const sn_scene *sc)
{
    char *svg = NULL;
    size_t len = 0;
    CHECK(sn_scene_svg(sc, &svg, &len) == SN_OK && svg && strlen(svg) == len);
    return svg;
}

static void test_svg(void)
{
    sn_scene *sc = sn_scene_create(100, 50);
    CHECK(sc != NULL);
    if (!sc)
        return;
    sn_scene_style sq = sn_scene_stroke(ink, 1);
    sq.cap = SN_CAP_SQUARE;
    /* a NaN becomes 0, a small negative rounds to 0 (not "-0") */
    sn_scene_line(sc, NAN, -0.0001, 10, 5, &sq, sn_scene_tag_of(SN_ROLE_WIRE));
    sn_scene_text(sc, 5, 20,
                  "a>b\x01"
                  "c\td",
                  10, SN_FONT_REGULAR, SN_TEXT_LEFT, ink, sn_scene_tag_of(SN_ROLE_LABEL));
    /* a corner radius too large for the box: drawn square */
    sn_scene_style f = sn_scene_fill(ink);
    sn_scene_rect(sc, 1, 1, 4, 4, 3, &f, sn_scene_tag_of(SN_ROLE_BLOCK));
    /* clips: one closed, a stray pop, one left open */
    sn_scene_clip_push(sc, (sn_rect){0, 0, 50, 50}, SN_ROLE_PANEL);
    sn_scene_clip_pop(sc);
    sn_scene_clip_pop(sc);
    sn_scene_clip_push(sc, (sn_rect){0, 0, 20, 20}, SN_ROLE_PANEL);
    sn_scene_circle(sc, 5, 5, 2, &f, sn_scene_tag_of(SN_ROLE_COMPARATOR));
    char *svg = svg_of(sc);
    if (svg) {
        CHECK(strstr(svg, "x1=\"0\" y1=\"0\" x2=\"10\" y2=\"5\"") != NULL);
        CHECK(strstr(svg, "-0\"") == NULL && strstr(svg, "nan") == NULL);
        CHECK(strstr(svg, ">a&gt;b c\td</text>") != NULL);
        CHECK(strstr(svg, "stroke-linecap=\"square\"") != NULL);
        size_t open = 0, close = 0;
        for (const char *p = svg; (p = strstr(p, "<g ")) != NULL; p++)
            open++;
        for (const char *p = svg; (p = strstr(p, "</g>")) != NULL; p++)
            close++;
        CHECK(open == 2 && close == 2);
    }
    sn_free(svg);
    sn_scene_destroy(sc);

    /* a scene that ran out of memory is refused by both painters */
    sc = sn_scene_create(10, 10);
    CHECK(sc != NULL);
    if (!sc)
        return;
    sn_alloc_fail_after(1);
    size_t at = sn_scene_line(sc, 0, 0, 1, 1, &sq, sn_scene_tag_of(SN_ROLE_WIRE));
    sn_alloc_fail_after(0);
    CHECK(at == SIZE_MAX && sn_scene_status(sc) == SN_ENOMEM);
    /* every later builder refuses too */
    CHECK(sn_scene_line(sc, 0, 0, 1, 1, &sq, sn_scene_tag_of(SN_ROLE_WIRE)) == SIZE_MAX);
    sn_point pts[2] = {{0, 0}, {1, 1}};
    CHECK(sn_scene_poly(sc, pts, 2, false, &sq, sn_scene_tag_of(SN_ROLE_PATH)) == SIZE_MAX);
    char *out = (char *)1;
    size_t len = 5;
    CHECK(sn_scene_svg(sc, &out, &len) == SN_EINVAL && out == NULL && len == 0);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 10, 10);
    cairo_t *cr = cairo_create(s);
    CHECK(sn_scene_paint(sc, cr, NULL) == SN_EINVAL);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    sn_scene_destroy(sc);
}

static void test_text(void)
{
    char out[64];
    /* no room at all for the output */
    CHECK(sn_scene_text_fit("abc", 10, SN_FONT_REGULAR, 100, out, 0) == 0);
    /* text that fits the width but not the output: cut, no ellipsis */
    size_t n = sn_scene_text_fit("abc", 10, SN_FONT_REGULAR, 100, out, 3);
    CHECK(n == 2 && strcmp(out, "ab") == 0);
    /* too wide: cut with the ellipsis, as much as the output holds */
    n = sn_scene_text_fit("abcdefgh", 10, SN_FONT_REGULAR, 30, out, 6);
    CHECK(n == 5 && strcmp(out, "ab\xe2\x80\xa6") == 0);
    /* characters outside the table are as wide as 'M' */
    CHECK(fabs(sn_scene_text_width("\xe4\xb8\xad", 10, SN_FONT_REGULAR) -
               sn_scene_text_width("M", 10, SN_FONT_REGULAR)) < 1e-9);

    size_t starts[8], lens[8];
    /* spaces only: no line */
    CHECK(sn_scene_text_wrap("    ", 10, SN_FONT_REGULAR, 50, starts, lens, 8) == 0);
    /* trailing spaces before a break are left out of the line */
    double w = sn_scene_text_width("aaa", 10, SN_FONT_REGULAR);
    size_t lines = sn_scene_text_wrap("aaa   bbb", 10, SN_FONT_REGULAR, w * 1.5, starts, lens, 8);
    CHECK(lines == 2 && lens[0] == 3 && starts[1] == 6 && lens[1] == 3);
    /* a break inside a word goes back to its last space */
    lines = sn_scene_text_wrap("aa bbbbbb", 10, SN_FONT_REGULAR, w * 1.6, starts, lens, 8);
    CHECK(lines >= 2 && lens[0] == 2 && starts[1] == 3);
}

static void test_hits(void)
{
    sn_scene *sc = sn_scene_create(100, 100);
    if (!sc)
        return;
    sn_scene_style f = sn_scene_fill(ink);
    sn_scene_text(sc, 10, 10, "t", 10, SN_FONT_REGULAR, SN_TEXT_LEFT | SN_TEXT_MIDDLE, ink,
                  sn_scene_tag_of(SN_ROLE_LABEL));
    sn_scene_text(sc, 50, 50, "u", 10, SN_FONT_BOLD, SN_TEXT_RIGHT | SN_TEXT_TOP, ink,
                  sn_scene_tag_of(SN_ROLE_LABEL));
    sn_scene_note(sc, SN_NOTE_INFO, 0, "a note");
    /* a clip that nothing is inside */
    sn_scene_clip_push(sc, (sn_rect){80, 80, 10, 10}, SN_ROLE_PANEL);
    sn_scene_circle(sc, 20, 20, 3, &f, sn_scene_tag_of(SN_ROLE_SELECTED));
    sn_scene_clip_pop(sc);
    CHECK(sn_scene_hit(sc, 20, 20, 1, SN_ROLE_SELECTED) == -1);
    CHECK(sn_scene_hit(sc, 11, 10, 2, SN_ROLE_LABEL) == 0);
    /* a note is never hit, and a line has no string */
    CHECK(sn_scene_hit(sc, 0, 0, 1000, SN_ROLE_NONE) != 2);
    const sn_prim *p = sn_scene_at(sc, 3);
    CHECK(p && strcmp(sn_scene_str(sc, p), "") == 0);
    sn_scene_destroy(sc);
}

static void test_readable(void)
{
    sn_scene *sc = sn_scene_create(100, 50);
    if (!sc)
        return;
    sn_scene_style st = sn_scene_stroke(ink, 1);
    sn_scene_text(sc, 10, 20, "wire 3", 10, SN_FONT_REGULAR, SN_TEXT_LEFT, ink,
                  sn_scene_tag_of(SN_ROLE_WIRE_LABEL));
    /* a comparator through the label */
    sn_scene_line(sc, 20, 0, 20, 40, &st, sn_scene_tag_of(SN_ROLE_COMPARATOR));
    /* a line past the picture's right edge */
    sn_scene_line(sc, 50, 45, 130, 45, &st, sn_scene_tag_of(SN_ROLE_WIRE));
    char report[512];
    size_t k = sn_scene_check_readable(sc, 5, 0.5, report, sizeof report);
    CHECKF(k == 2, "%zu problems: %s", k, report);
    CHECK(strstr(report, "is covered or crossed by a comparator") != NULL);
    CHECK(strstr(report, "leaves the 100.0 x 50.0 picture") != NULL);
    /* a report buffer of a few bytes: counted, cut, terminated */
    char tiny[8];
    CHECK(sn_scene_check_readable(sc, 5, 0.5, tiny, sizeof tiny) == 2);
    CHECK(strlen(tiny) < sizeof tiny);
    /* no buffer: counted only */
    CHECK(sn_scene_check_readable(sc, 5, 0.5, NULL, 0) == 2);
    /* out of memory for the check's own tables: one problem saying so */
    sn_alloc_fail_after(1);
    k = sn_scene_check_readable(sc, 5, 0.5, report, sizeof report);
    sn_alloc_fail_after(0);
    CHECK(k == 1 && strstr(report, "out of memory for the check") != NULL);
    sn_scene_destroy(sc);
}

static size_t count_role(const sn_scene *sc, sn_role role)
{
    size_t k = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++)
        k += sn_scene_at(sc, i)->tag.role == role;
    return k;
}

/* The diagram's scene: a followed path that leaves the wires or jumps
 * where no comparator is drawn is left out; the 0-1 chart's caption gives
 * the verdict; a network without wires draws its frame only. */
static void test_diagram(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("bitonic:4", &s, &d) == SN_OK);
    sn_zero_one z;
    memset(&z, 0, sizeof z);
    CHECK(s && sn_zero_one_profile(s, 16, 1, &z, &d) == SN_OK);
    sn_layout_opts o = {0.5, 0, false, 0, -1, false, true, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(s && sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    if (lo) {
        CHECK(lo->layer_count == 3);
        sn_draw_state st;
        sn_draw_state_init(&st);
        const uint32_t off[4] = {0, 0, 7, 0}, jump[4] = {0, 3, 3, 3}, ok[4] = {0, 1, 1, 1};
        const uint32_t *paths[3] = {off, jump, ok};
        for (int i = 0; i < 3; i++) {
            st.path = paths[i];
            sn_scene *sc = sn_scene_create(lo->width, lo->height);
            CHECK(sc && sn_diagram_scene(sc, lo, sn_theme_get(SN_THEME_LIGHT), &st, NULL) == SN_OK);
            CHECKF(sc && count_role(sc, SN_ROLE_PATH) == (i == 2 ? 1u : 0u), "path %d", i);
            sn_scene_destroy(sc);
        }
        st.path = NULL;
        st.zo = &z;
        st.zo_ones = 2;
        sn_scene *sc = sn_scene_create(lo->width, lo->height);
        CHECK(sc && sn_diagram_scene(sc, lo, sn_theme_get(SN_THEME_LIGHT), &st, NULL) == SN_OK);
        /* the chart's caption: the verdict over all 16 0-1 inputs */
        bool caption = false;
        for (size_t i = 0; sc && i < sn_scene_count(sc); i++) {
            const sn_prim *p = sn_scene_at(sc, i);
            if (p->kind == SN_PRIM_TEXT && p->tag.role == SN_ROLE_CAPTION &&
                strstr(sn_scene_str(sc, p), "16 of 16") && strstr(sn_scene_str(sc, p), "it sorts"))
                caption = true;
        }
        CHECK(caption);
        sn_scene_destroy(sc);
        CHECK(sn_diagram_scene_estimate(lo, true) > sn_diagram_scene_estimate(lo, false) - 1);
    }
    sn_layout_destroy(lo);
    sn_zero_one_free(&z);
    sn_schedule_destroy(s);

    sn_network *none = sn_network_create(0);
    sn_layout *l0 = NULL;
    CHECK(none && sn_layout_create_network(none, NULL, &l0, NULL) == SN_OK);
    if (l0) {
        sn_scene *sc = sn_scene_create(l0->width, l0->height);
        sn_draw_state st;
        sn_draw_state_init(&st);
        CHECK(sc && sn_diagram_scene(sc, l0, sn_theme_get(SN_THEME_DARK), &st, NULL) == SN_OK);
        CHECK(sc && count_role(sc, SN_ROLE_WIRE) == 0 && count_role(sc, SN_ROLE_BACKGROUND) == 1);
        sn_scene_destroy(sc);
    }
    sn_layout_destroy(l0);
    sn_network_destroy(none);
}

int main(void)
{
    test_diagram();
    test_svg();
    test_text();
    test_hits();
    test_readable();
    return sn_test_finish("test_render_scene_edges");
}
