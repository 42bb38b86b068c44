/* test_scene.c - the scene (display list): builders and reading, the
 * metrics table against cairo's own measurement, the cairo painter
 * (pixels where the scene says), and the readability checker on the hard
 * cases of diagrams. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h" /* for: sn_schedule_load */
#include "core/schedule.h"
#include "render/diagram.h"
#include "render/layout.h"
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

/* The box the scene measured is where cairo puts the ink: text painted
 * on an image, its ink found column by column, lies inside the box (the
 * glyphs' side bearings keep it a little inside at both ends). */
static void test_text_painted_in_box(void)
{
    static const char *const texts[] = {"0123456789", "half-cleaner 16", "sort 8 \xe2\x86\x91",
                                        "merge 4+4"};
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
        for (int bold = 0; bold < 2; bold++) {
            int W = 400, H = 60;
            sn_scene *sc = sn_scene_create(W, H);
            sn_scene_style bg = sn_scene_fill((sn_rgba){1, 1, 1, 1});
            sn_scene_rect(sc, 0, 0, W, H, 0, &bg, sn_scene_tag_of(SN_ROLE_BACKGROUND));
            size_t i = sn_scene_text(
                sc, 200, 30, texts[t], 24, bold ? SN_FONT_BOLD : SN_FONT_REGULAR,
                SN_TEXT_CENTER | SN_TEXT_MIDDLE, black, sn_scene_tag_of(SN_ROLE_LABEL));
            const sn_prim *p = sn_scene_at(sc, i);
            cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
            cairo_t *cr = cairo_create(s);
            CHECK(sn_scene_paint(sc, cr, NULL) == SN_OK);
            cairo_surface_flush(s);
            unsigned char *d = cairo_image_surface_get_data(s);
            int stride = cairo_image_surface_get_stride(s);
            int ix0 = W, ix1 = -1, iy0 = H, iy1 = -1;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    uint32_t v = *(uint32_t *)(void *)(d + y * stride + x * 4) & 0xffffff;
                    if (v != 0xffffff) {
                        ix0 = x < ix0 ? x : ix0;
                        ix1 = x > ix1 ? x : ix1;
                        iy0 = y < iy0 ? y : iy0;
                        iy1 = y > iy1 ? y : iy1;
                    }
                }
            CHECKF(
                ix0 >= floor(p->x0) && ix1 + 1 <= ceil(p->x1) && iy0 >= floor(p->y0) &&
                    iy1 + 1 <= ceil(p->y1),
                "\"%s\" bold %d: ink (%d, %d)-(%d, %d) outside its box (%.1f, %.1f)-(%.1f, %.1f)",
                texts[t], bold, ix0, iy0, ix1 + 1, iy1 + 1, p->x0, p->y0, p->x1, p->y1);
            /* and fills it: the ink reaches within a quarter em of each end */
            CHECKF(ix0 - p->x0 < 6 && p->x1 - (ix1 + 1) < 6, "\"%s\": ink %d..%d in box %.1f..%.1f",
                   texts[t], ix0, ix1 + 1, p->x0, p->x1);
            cairo_destroy(cr);
            cairo_surface_destroy(s);
            sn_scene_destroy(sc);
        }
}

/* The window's way: fitted into a pane with a text floor. The values'
 * text never goes below the floor; where it would, it is hidden and the
 * scene says so. */
static void test_fitted_values(void)
{
    static const struct {
        const char *net;
        double w, h;
    } panes[] = {{"bitonic:1024", 1280, 720},
                 {"bitonic:64", 420, 600},
                 {"best:64", 420, 600},
                 {"bitonic:16", 1280, 720},
                 /* a third of a 720p window: rows of 2.4 units */
                 {"best:64", 880, 160}};
    char rep[1024];
    for (size_t i = 0; i < sizeof panes / sizeof *panes; i++) {
        sn_schedule *s = NULL;
        CHECK(sn_schedule_load(panes[i].net, &s, NULL) == SN_OK);
        if (!s)
            continue;
        uint32_t n = sn_schedule_wires(s);
        sn_layout_opts o = {1,     0,     true,       0,          -1,
                            false, false, panes[i].w, panes[i].h, SN_SCENE_MIN_FONT, 0};
        sn_layout *lo = NULL;
        CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
        uint32_t *vals = sn_calloc(n, sizeof *vals);
        for (uint32_t k = 0; k < n; k++)
            vals[k] = n - k;
        sn_draw_state st;
        sn_draw_state_init(&st);
        st.values = vals;
        st.step = 1;
        sn_scene *sc = sn_scene_create(lo->width, lo->height);
        CHECK(sn_diagram_scene(sc, lo, sn_theme_get(SN_THEME_DARK), &st, NULL) == SN_OK);
        size_t k = sn_scene_check_readable(sc, SN_SCENE_MIN_FONT, 0.01, rep, sizeof rep);
        CHECKF(k == 0, "%s in %gx%g: %zu problems:\n%s", panes[i].net, panes[i].w, panes[i].h, k,
               rep);
        CHECKF(lo->value_font >= SN_SCENE_MIN_FONT ||
                   (lo->value_font == 0 && sn_scene_find_note(sc, SN_NOTE_TEXT_HIDDEN)),
               "%s: value text %.2f", panes[i].net, lo->value_font);
        /* the label thinning is said too */
        CHECK(lo->label_every <= 1 || sn_scene_find_note(sc, SN_NOTE_LABELS_THINNED));
        /* every value's digits stand on a filled box of their own wire
         * (rows thinner than the text would otherwise put them on the
         * neighbours' colours, or on the background above wire 0) */
        size_t bare = 0;
        for (size_t a = 0; a < sn_scene_count(sc); a++) {
            const sn_prim *t = sn_scene_at(sc, a);
            if (t->kind != SN_PRIM_TEXT || t->tag.role != SN_ROLE_VALUE)
                continue;
            bool under = false;
            for (size_t b = 0; b < a && !under; b++) {
                const sn_prim *r = sn_scene_at(sc, b);
                under = r->kind == SN_PRIM_RECT && r->tag.role == SN_ROLE_VALUE_BOX &&
                        r->tag.wire == t->tag.wire && sn_scene_style_of(sc, r)->fill.a > 0 &&
                        r->x0 <= t->x0 + 0.01 && r->x1 >= t->x1 - 0.01 && r->y0 <= t->y0 + 0.01 &&
                        r->y1 >= t->y1 - 0.01;
            }
            if (!under && bare++ == 0)
                fprintf(stderr, "'%s' at (%.2f,%.2f)-(%.2f,%.2f) has no box of wire %d\n",
                        sn_scene_str(sc, t), t->x0, t->y0, t->x1, t->y1, (int)t->tag.wire);
        }
        CHECKF(bare == 0, "%s in %gx%g: %zu values' text outside their boxes", panes[i].net,
               panes[i].w, panes[i].h, bare);
        sn_scene_destroy(sc);
        sn_free(vals);
        sn_layout_destroy(lo);
        sn_schedule_destroy(s);
    }
}

static void test_fit_and_wrap(void)
{
    char out[64];
    const char *t = "does NOT sort: counterexample 1010";
    double w = sn_scene_text_width(t, 12, SN_FONT_REGULAR);
    CHECK(sn_scene_text_fit(t, 12, SN_FONT_REGULAR, w, out, sizeof out) == strlen(t));
    CHECK(strcmp(out, t) == 0);
    size_t k = sn_scene_text_fit(t, 12, SN_FONT_REGULAR, w / 2, out, sizeof out);
    CHECK(k > 3 && k < strlen(t) && strcmp(out + k - 3, "\xe2\x80\xa6") == 0);
    CHECK(strncmp(out, t, k - 3) == 0);
    CHECK(sn_scene_text_width(out, 12, SN_FONT_REGULAR) <= w / 2);
    CHECK(sn_scene_text_fit(t, 12, SN_FONT_REGULAR, 2, out, sizeof out) == 0 && out[0] == 0);
    /* never past out_size */
    k = sn_scene_text_fit(t, 12, SN_FONT_REGULAR, 1000, out, 8);
    CHECK(k < 8 && strlen(out) == k);
    /* UTF-8 kept whole */
    const char *u = "sort 8 \xe2\x86\x91 merge";
    k = sn_scene_text_fit(u, 12, SN_FONT_BOLD,
                          sn_scene_text_width("sort 8 \xe2\x86\x91", 12, SN_FONT_BOLD) +
                              sn_scene_text_width("\xe2\x80\xa6", 12, SN_FONT_BOLD) + 0.1,
                          out, sizeof out);
    CHECK(strcmp(out, "sort 8 \xe2\x86\x91\xe2\x80\xa6") == 0);
    size_t st[8], ln[8];
    const char *para = "the network sorts every input of 16 keys";
    double lw = sn_scene_text_width("the network sorts", 10, SN_FONT_REGULAR);
    size_t lines = sn_scene_text_wrap(para, 10, SN_FONT_REGULAR, lw, st, ln, 8);
    CHECK(lines == 3);
    CHECK(st[0] == 0 && ln[0] == strlen("the network sorts"));
    for (size_t i = 0; i < lines && i < 8; i++) {
        char line[64];
        snprintf(line, sizeof line, "%.*s", (int)ln[i], para + st[i]);
        CHECKF(sn_scene_text_width(line, 10, SN_FONT_REGULAR) <= lw + 1e-9, "line %zu '%s'", i,
               line);
        CHECK(line[0] != ' ' && line[strlen(line) - 1] != ' ');
    }
    CHECK(sn_scene_text_wrap(para, 10, SN_FONT_REGULAR, lw, st, ln, 1) == 3);
    CHECK(sn_scene_text_wrap("", 10, SN_FONT_REGULAR, lw, st, ln, 8) == 0);
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
    /* labels of one kind on one baseline: too close reads as one, the same
     * words side by side as one printed twice */
    sc = sn_scene_create(300, 40);
    sn_scene_tag bl = sn_scene_tag_of(SN_ROLE_BLOCK_LABEL);
    double w16 = sn_scene_text_width("sort 16", 10, SN_FONT_BOLD);
    sn_scene_text(sc, 10, 20, "sort 16", 10, SN_FONT_BOLD, SN_TEXT_LEFT, black, bl);
    sn_scene_text(sc, 10 + w16 + 8, 20, "sort 16", 10, SN_FONT_BOLD, SN_TEXT_LEFT, black, bl);
    sn_scene_text(sc, 200, 20, "merge 8", 10, SN_FONT_BOLD, SN_TEXT_LEFT, black, bl);
    sn_scene_text(sc, 200 + sn_scene_text_width("merge 8", 10, SN_FONT_BOLD) + 2, 20, "half", 10,
                  SN_FONT_BOLD, SN_TEXT_LEFT, black, bl);
    k = sn_scene_check_readable(sc, 9, 0, rep, sizeof rep);
    CHECKF(k == 2 && strstr(rep, "printed twice") && strstr(rep, "runs into"), "%zu:\n%s", k, rep);
    sn_scene_destroy(sc);
}

/* A diagram as `sortnet draw` makes it: net (a generator name), values
 * at `step` (-1: none), structure labels, the 0-1 chart, at `scale` or
 * fitted to `width`, text no smaller than SN_SCENE_MIN_FONT. */
typedef struct dcase {
    const char *net;
    long step; /* -2: the window's way, room for values at every step (each checked) */
    bool structure, zero_one;
    double scale, width;
    long window_step; /* with step -2: the step shown */
} dcase;

static sn_scene *diagram(const dcase *c, sn_layout **out_lo)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_schedule_load(c->net, &s, &d) != SN_OK) {
        CHECKF(false, "%s: %s", c->net, d.text);
        return NULL;
    }
    uint32_t n = sn_schedule_wires(s);
    bool window = c->step == -2;
    long step = window ? c->window_step : c->step;
    sn_layout_opts o = {c->scale,
                        c->width,
                        c->step >= 0 || window,
                        0,
                        window ? -1 : c->step,
                        c->structure,
                        c->zero_one,
                        0,
                        0,
                        SN_SCENE_MIN_FONT,
                        0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    uint32_t *vals = sn_calloc(n, sizeof *vals);
    for (uint32_t i = 0; i < n; i++)
        vals[i] = (i * 7919u + 13u) % (n * 10u); /* distinct-ish, up to 4-5 digits */
    sn_zero_one z;
    memset(&z, 0, sizeof z);
    sn_draw_state st;
    sn_draw_state_init(&st);
    if (step >= 0) {
        st.values = vals;
        st.step = (size_t)step;
    }
    if (c->zero_one) {
        CHECK(sn_zero_one_profile(s, 24, 1, &z, NULL) == SN_OK);
        st.zo = &z;
        st.zo_ones = n / 2;
    }
    sn_scene *sc = sn_scene_create(lo->width, lo->height);
    CHECK(sn_diagram_scene(sc, lo, sn_theme_get(SN_THEME_LIGHT), &st, NULL) == SN_OK);
    sn_zero_one_free(&z);
    sn_free(vals);
    sn_schedule_destroy(s);
    if (out_lo)
        *out_lo = lo;
    else
        sn_layout_destroy(lo);
    return sc;
}

/* The readability test: in each hard case no text box overlaps another or
 * what hides it, none leaves the picture, none is below the minimum. */
static void test_readable_diagrams(void)
{
    static const dcase cases[] = {
        {"bitonic:8", 2, false, false, 1, 0, 0},
        {"bitonic:64", 3, false, false, 1, 0, 0},
        {"bitonic:1024", 5, false, false, 1, 0, 0},
        {"bitonic:1024", 5, false, false, 0.25, 0, 0},
        {"bitonic:64", 0, false, false, 1, 800, 0},
        {"bitonic:32", 3, false, false, 1, 500, 0},
        {"bitonic:1024", -1, false, false, 1, 1000, 0},
        {"oddeven-merge:16", -1, true, false, 1, 300, 0},
        {"bitonic:16", 4, false, false, 2, 0, 0},
        {"bitonic:16", 4, true, false, 3, 0, 0},
        {"bitonic-classic:16", -1, true, false, 1, 0, 0},
        {"bitonic-classic:16", 4, true, false, 1, 0, 0},
        {"bitonic-classic:16", 4, true, true, 1, 0, 0},
        {"bitonic-classic:16", 4, true, false, 2, 0, 0},
        {"oddeven-merge:64", -1, true, false, 1, 0, 0},
        {"oddeven-merge:64", 6, true, false, 1, 0, 0},
        {"oddeven-merge:64", 6, true, false, 0.5, 0, 0},
        {"bitonic:64", 2, true, false, 1, 0, 0},
        {"pairwise:32", 3, true, false, 1, 0, 0},
        {"transposition:16", 3, true, false, 1, 0, 0},
        {"bubble:64", 10, false, false, 1, 0, 0},
        {"insertion:64", 10, false, false, 1, 0, 0},
        {"bitonic:8", 1, false, true, 1, 0, 0},
    };
    char rep[2048];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        dcase c = cases[i];
        /* the window's way: every step it can show */
        for (c.window_step = 0; c.window_step < 64; c.window_step++) {
            sn_layout *lo = NULL;
            sn_scene *sc = diagram(&c, &lo);
            if (!sc)
                break;
            size_t k = sn_scene_check_readable(sc, SN_SCENE_MIN_FONT, 0.01, rep, sizeof rep);
            CHECKF(k == 0,
                   "%s step %ld/%ld structure %d zero-one %d scale %g width %g: %zu problems:\n%s",
                   c.net, c.step, c.window_step, c.structure, c.zero_one, c.scale, c.width, k, rep);
            size_t L = lo->layer_count;
            sn_scene_destroy(sc);
            sn_layout_destroy(lo);
            if (c.step != -2 || (size_t)c.window_step >= L || k)
                break;
        }
    }
}

int main(void)
{
    test_metrics();
    test_build_and_read();
    test_paint();
    test_text_painted_in_box();
    test_checker();
    test_fit_and_wrap();
    test_fitted_values();
    test_readable_diagrams();
    /* cairo keeps its font caches for the life of the process: drop them,
     * so LeakSanitizer sees only what sortnet leaks */
    cairo_debug_reset_static_data();
    return sn_test_finish("test_scene");
}
