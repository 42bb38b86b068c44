/* test_scene.c - the scene (display list): builders and reading, the
 * metrics table against cairo's own measurement, the cairo painter
 * (pixels where the scene says), and the readability checker on the hard
 * cases of diagrams. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/scene.h"
#include "render/scene_cairo.h"
#include "sn_test.h"

static const sn_rgba black = {0, 0, 0, 1}, red = {1, 0, 0, 1};

/* Cairo's advance of text, metric hinting off as the painter paints. */
static double cairo_advance(cairo_t *cr, const char *text, double size, bool bold)
{
    cairo_select_font_face(cr, SN_SCENE_FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

static void test_metrics(void)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 4, 4);
    cairo_t *cr = cairo_create(s);
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
    static const char *const texts[] = {
        "0123456789",
        "sort 16 \xe2\x86\x91",
        "merge 4+4",
        "half-cleaner 8",
        "round 3",
        "sorted 0-1 inputs: 12 of 256 after 3 layers (it does NOT sort)",
        "-2147483648",
        "The Quick Brown Fox, (jumps) [over] {lazy} dogs!?",
        "\xe2\x86\x93 \xc3\x97 \xe2\x80\xa6"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        for (int bold = 0; bold < 2; bold++)
            for (double size = 9; size <= 30; size += 7) {
                double want = cairo_advance(cr, texts[i], size, bold);
                double got =
                    sn_scene_text_width(texts[i], size, bold ? SN_FONT_BOLD : SN_FONT_REGULAR);
                CHECKF(fabs(got - want) <= 0.02 * want,
                       "\"%s\" bold %d size %.0f: table %.2f, cairo %.2f", texts[i], bold, size,
                       got, want);
            }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    CHECK(fabs(sn_scene_font_ascent(10) + sn_scene_font_descent(10) - 11.64) < 0.01);
}

static void test_build_and_read(void)
{
    sn_scene *sc = sn_scene_create(100, 50);
    CHECK(sc != NULL);
    sn_scene_style w = sn_scene_stroke(black, 2);
    size_t a = sn_scene_line(sc, 10, 10, 90, 10, &w, sn_scene_tag_wire(SN_ROLE_WIRE, 0));
    size_t b = sn_scene_line(sc, 10, 30, 90, 30, &w, sn_scene_tag_wire(SN_ROLE_WIRE, 1));
    sn_scene_style f = sn_scene_fill(red);
    sn_scene_rect(sc, 40, 20, 10, 20, 0, &f, sn_scene_tag_of(SN_ROLE_VALUE_BOX));
    sn_point tri[3] = {{0, 0}, {4, 0}, {2, 3}};
    size_t c = sn_scene_poly(sc, tri, 3, true, &f, sn_scene_tag_of(SN_ROLE_COMPARATOR));
    sn_scene_clip_push(sc, (sn_rect){0, 0, 100, 50}, SN_ROLE_PANEL);
    size_t t = sn_scene_text(sc, 50, 20, "12", 10, SN_FONT_BOLD, SN_TEXT_CENTER | SN_TEXT_MIDDLE,
                             black, sn_scene_tag_of(SN_ROLE_VALUE));
    sn_scene_clip_pop(sc);
    sn_scene_note(sc, SN_NOTE_LABELS_THINNED, 2, "every 2nd");
    CHECK(sn_scene_status(sc) == SN_OK);
    CHECK(a == 0 && b == 1 && c == 3 && t == 5);
    CHECK(sn_scene_count(sc) == 8);
    /* consecutive primitives of one style share its index (painters batch them) */
    CHECK(sn_scene_at(sc, a)->style == sn_scene_at(sc, b)->style);
    const sn_prim *p = sn_scene_at(sc, t);
    CHECK(strcmp(sn_scene_str(sc, p), "12") == 0);
    double tw = sn_scene_text_width("12", 10, SN_FONT_BOLD);
    CHECK(fabs(p->x0 - (50 - tw / 2)) < 1e-9 && fabs(p->x1 - (50 + tw / 2)) < 1e-9);
    CHECK(fabs((p->base - sn_scene_digit_height(10) / 2) - 20) < 1e-9);
    CHECK(sn_scene_points(sc, sn_scene_at(sc, c))[2].y == 3);
    const sn_prim *n = sn_scene_find_note(sc, SN_NOTE_LABELS_THINNED);
    CHECK(n && n->size == 2 && strcmp(sn_scene_str(sc, n), "every 2nd") == 0);
    CHECK(sn_scene_find_note(sc, SN_NOTE_LABELS_OMITTED) == NULL);
    /* hit tests: the topmost primitive */
    CHECK(sn_scene_hit(sc, 20, 11, 1.5, SN_ROLE_NONE) == (long)a);
    CHECK(sn_scene_hit(sc, 45, 30, 0, SN_ROLE_NONE) == 2); /* the box is drawn over wire 1 */
    CHECK(sn_scene_hit(sc, 45, 30, 0, SN_ROLE_WIRE) == (long)b);
    CHECK(sn_scene_hit(sc, 5, 45, 1, SN_ROLE_NONE) == -1);
    CHECK(sn_scene_check_readable(sc, 9, 0, NULL, 0) == 0);
    sn_scene_reset(sc, 10, 10);
    CHECK(sn_scene_count(sc) == 0);
    sn_scene_destroy(sc);
    sn_scene_destroy(NULL);
}

static void test_paint(void)
{
    sn_scene *sc = sn_scene_create(60, 40);
    sn_scene_style bg = sn_scene_fill((sn_rgba){1, 1, 1, 1});
    sn_scene_rect(sc, 0, 0, 60, 40, 0, &bg, sn_scene_tag_of(SN_ROLE_BACKGROUND));
    sn_scene_style w = sn_scene_stroke(black, 2);
    sn_scene_line(sc, 0, 10, 60, 10, &w, sn_scene_tag_wire(SN_ROLE_WIRE, 0));
    sn_scene_style f = sn_scene_fill(red);
    sn_scene_circle(sc, 30, 30, 4, &f, sn_scene_tag_of(SN_ROLE_COMPARATOR));
    sn_scene_clip_push(sc, (sn_rect){0, 0, 20, 40}, SN_ROLE_PANEL);
    sn_scene_rect(sc, 0, 20, 60, 4, 0, &f, sn_scene_tag_of(SN_ROLE_BAR)); /* clipped at x = 20 */
    sn_scene_clip_pop(sc);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 60, 40);
    cairo_t *cr = cairo_create(s);
    CHECK(sn_scene_paint(sc, cr, NULL) == SN_OK);
    cairo_surface_flush(s);
    unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
#define PX(x, y) (*(uint32_t *)(void *)(d + (y)*stride + (x)*4) & 0xffffff)
    CHECK(PX(30, 10) == 0x000000);
    CHECK(PX(30, 5) == 0xffffff);
    CHECK(PX(30, 30) == 0xff0000);
    CHECK(PX(10, 22) == 0xff0000);
    CHECK(PX(40, 22) == 0xffffff);
#undef PX
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    sn_scene_destroy(sc);
}

static void test_checker(void)
{
    sn_scene *sc = sn_scene_create(100, 40);
    sn_scene_tag t = sn_scene_tag_of(SN_ROLE_LABEL);
    sn_scene_text(sc, 10, 20, "hello", 10, SN_FONT_REGULAR, SN_TEXT_LEFT, black, t);
    CHECK(sn_scene_check_readable(sc, 9, 0, NULL, 0) == 0);
    sn_scene_text(sc, 20, 22, "world", 10, SN_FONT_REGULAR, SN_TEXT_LEFT, black, t); /* overlaps */
    sn_scene_text(sc, 95, 30, "cut", 10, SN_FONT_REGULAR, SN_TEXT_LEFT, black, t);   /* outside */
    sn_scene_text(sc, 10, 38, "tiny", 5, SN_FONT_REGULAR, SN_TEXT_LEFT, black, t);   /* too small */
    char rep[512];
    size_t k = sn_scene_check_readable(sc, 9, 0, rep, sizeof rep);
    CHECKF(k == 3, "%zu problems:\n%s", k, rep);
    CHECK(strstr(rep, "overlaps") && strstr(rep, "outside") && strstr(rep, "below"));
    sn_scene_destroy(sc);
}

int main(void)
{
    test_metrics();
    test_build_and_read();
    test_paint();
    test_checker();
    return sn_test_finish("test_scene");
}
