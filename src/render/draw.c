/* draw.c - the diagram on a borrowed cairo_t, from a finished layout.
 *
 * Paint order (back to front): background, layer bands, stage outlines or
 * structure blocks, step marker, followed-element path, wires, comparators
 * by colour class (segments, then dots and arrow heads), wire labels, the
 * 0-1 chart and wire markers, structure block labels, value boxes. Each
 * class is a few batched paths (BATCH elements each) and one style: a
 * 28 160-comparator network is ~170 paths in SVG, not tens of thousands
 * of styled elements. */
#include "render/draw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h" /* for: sn_key_format */

#define SN_PI 3.14159265358979323846

enum { CLS_PLAIN, CLS_SWAP, CLS_NOSWAP, CLS_HIGHLIGHT, CLS_COUNT };

typedef struct view {
    double x0, y0, x1, y1; /* visible rectangle, grown by a margin */
} view;

/* fontconfig (behind cairo's text) keeps its caches until exit, which
 * LeakSanitizer would report as leaks in sanitizer builds of every program
 * that draws; defined here, beside what those programs call, so each of
 * them links it. Never called in ordinary builds. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "print_suppressions=0";
}
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig\n";
}

void sn_draw_state_init(sn_draw_state *st)
{
    st->step = 0;
    st->values = NULL;
    st->type = SN_KEY_I32;
    st->swaps = NULL;
    st->path = NULL;
    st->highlight_cmp = -1;
    st->zo = NULL;
    st->zo_ones = 0;
    st->chart_step = false;
    st->zo_note = NULL;
    st->selected = NULL;
    st->selected_count = 0;
}

static void set_rgb(cairo_t *cr, sn_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

typedef struct rank_item {
    uint32_t key; /* ordered key */
    uint32_t index;
} rank_item;

static int rank_cmp(const void *x, const void *y)
{
    const rank_item *p = x, *q = y;
    if (p->key != q->key)
        return p->key < q->key ? -1 : 1;
    return (p->index > q->index) - (p->index < q->index);
}

sn_status sn_draw_ranks(const uint32_t *values, uint32_t n, sn_key_type t, uint32_t *ranks)
{
    rank_item *it = sn_calloc(n ? n : 1, sizeof *it);
    if (!it)
        return SN_ENOMEM;
    for (uint32_t i = 0; i < n; i++) {
        it[i].key = sn_key_to_ordered(t, values[i]);
        it[i].index = i;
    }
    qsort(it, n, sizeof *it, rank_cmp);
    uint32_t r = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0 || it[i].key != it[i - 1].key)
            r = i;
        ranks[it[i].index] = r;
    }
    sn_free(it);
    return SN_OK;
}

/* Class of comparator i of the layout under the given state. */
static int cmp_class(const sn_layout *lo, const sn_draw_state *st, size_t i)
{
    if (!st)
        return CLS_PLAIN;
    if (st->highlight_cmp >= 0 && (size_t)st->highlight_cmp == i)
        return CLS_HIGHLIGHT;
    const sn_layout_cmp *c = &lo->cmp[i];
    if (c->layer != st->step || st->step >= lo->layer_count)
        return CLS_PLAIN;
    if (st->swaps)
        return st->swaps[i - lo->layer[c->layer].first] ? CLS_SWAP : CLS_NOSWAP;
    if (st->values) {
        uint32_t va = sn_key_to_ordered(st->type, st->values[c->a]);
        uint32_t vb = sn_key_to_ordered(st->type, st->values[c->b]);
        return va > vb ? CLS_SWAP : CLS_NOSWAP;
    }
    return CLS_PLAIN;
}

static void draw_bands(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const view *v,
                       size_t k0, size_t k1)
{
    if (lo->n == 0)
        return;
    double y0 = lo->wire_y[0] - lo->pitch / 2, y1 = lo->wire_y[lo->n - 1] + lo->pitch / 2;
    y0 = fmax(y0, v->y0);
    y1 = fmin(y1, v->y1);
    if (y1 <= y0)
        return;
    cairo_new_path(cr);
    for (size_t k = k0; k < k1; k++)
        if (k % 2 == 1)
            cairo_rectangle(cr, lo->layer[k].x0, y0, lo->layer[k].x1 - lo->layer[k].x0, y1 - y0);
    set_rgb(cr, th->band);
    cairo_fill(cr);
}

static void rounded_rect(cairo_t *cr, double x0, double y0, double x1, double y1, double r)
{
    cairo_new_sub_path(cr);
    cairo_arc(cr, x1 - r, y0 + r, r, -SN_PI / 2, 0);
    cairo_arc(cr, x1 - r, y1 - r, r, 0, SN_PI / 2);
    cairo_arc(cr, x0 + r, y1 - r, r, SN_PI / 2, SN_PI);
    cairo_arc(cr, x0 + r, y0 + r, r, SN_PI, 3 * SN_PI / 2);
    cairo_close_path(cr);
}

static void draw_stages(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const view *v)
{
    if (lo->stage_count == 0 || lo->block_count > 0)
        return;
    cairo_new_path(cr);
    for (size_t g = 0; g < lo->stage_count; g++) {
        const sn_layout_stage *s = &lo->stage[g];
        if (s->x1 < v->x0 || s->x0 > v->x1)
            continue;
        rounded_rect(cr, s->x0, s->y0, s->x1, s->y1, 4 * lo->scale);
    }
    set_rgb(cr, th->stage);
    cairo_set_line_width(cr, 1.0 * lo->scale);
    cairo_stroke(cr);
}

/* Structure block outlines: the outer levels bolder, each depth in one
 * path. */
static void draw_blocks(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const view *v)
{
    size_t g = 0;
    while (g < lo->block_count) {
        uint32_t depth = lo->block[g].depth;
        cairo_new_path(cr);
        for (; g < lo->block_count && lo->block[g].depth == depth; g++) {
            const sn_layout_block *b = &lo->block[g];
            if (b->x1 < v->x0 || b->x0 > v->x1 || b->y1 < v->y0 || b->y0 > v->y1)
                continue;
            rounded_rect(cr, b->x0, b->y0, b->x1, b->y1, 3 * lo->scale);
        }
        set_rgb(cr, depth == 0 ? th->step : th->stage);
        cairo_set_line_width(cr, (depth == 0 ? 1.6 : depth == 1 ? 1.2 : 0.9) * lo->scale);
        cairo_stroke(cr);
    }
}

static void draw_path(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const uint32_t *path)
{
    for (size_t k = 0; k <= lo->layer_count; k++)
        if (path[k] >= lo->n)
            return; /* not a valid path: ignore it rather than read out of range */
    cairo_new_path(cr);
    cairo_move_to(cr, lo->wire_x0, lo->wire_y[path[0]]);
    for (size_t k = 0; k < lo->layer_count; k++) {
        if (path[k + 1] == path[k])
            continue;
        long c = sn_layout_find(lo, k, path[k], path[k + 1]);
        if (c < 0)
            return;
        cairo_line_to(cr, lo->cmp[c].x, lo->wire_y[path[k]]);
        cairo_line_to(cr, lo->cmp[c].x, lo->wire_y[path[k + 1]]);
    }
    cairo_line_to(cr, lo->wire_x1, lo->wire_y[path[lo->layer_count]]);
    cairo_set_source_rgba(cr, th->highlight.r, th->highlight.g, th->highlight.b, 0.6);
    cairo_set_line_width(cr, 2.4 * lo->dot_r);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_stroke(cr);
}

/* Line width w (user units), but at least one device pixel: zoomed far
 * out, thinner comparators antialias to nothing and a dense network would
 * look empty instead of dense. (Wires keep their width: a thousand of them
 * in a few hundred pixels would otherwise fill the picture grey.) */
static void set_line_width(cairo_t *cr, double w)
{
    double px = 1.0, py = 0.0;
    cairo_device_to_user_distance(cr, &px, &py);
    double one = hypot(px, py);
    cairo_set_line_width(cr, w > one ? w : one);
}

/* Dash the next strokes (on, off in user units) - unless a dash period
 * would be under two device pixels: such dashes are invisible, and a
 * zoomed-out window would pay for millions of them per frame. */
static void set_dash(cairo_t *cr, double on, double off)
{
    double dx = on + off, dy = 0;
    cairo_user_to_device_distance(cr, &dx, &dy);
    if (hypot(dx, dy) < 2.0)
        return;
    double dash[2] = {on, off};
    cairo_set_dash(cr, dash, 2, 0);
}

static void draw_wires(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const view *v,
                       uint32_t w0, uint32_t w1)
{
    double x0 = fmax(lo->wire_x0, v->x0), x1 = fmin(lo->wire_x1, v->x1);
    if (x1 <= x0)
        return;
    cairo_new_path(cr);
    for (uint32_t i = w0; i < w1; i++) {
        cairo_move_to(cr, x0, lo->wire_y[i]);
        cairo_line_to(cr, x1, lo->wire_y[i]);
    }
    set_rgb(cr, th->wire);
    cairo_set_line_width(cr, lo->wire_w);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_stroke(cr);
}

static bool cmp_visible(const sn_layout_cmp *c, const view *v)
{
    return c->y1 >= v->y0 && c->y0 <= v->y1 && c->x >= v->x0 && c->x <= v->x1;
}

/* Segments of class cls in one path, then dots and arrow heads in another. */
/* Paths are flushed every BATCH elements: one path of 28 000 subpaths
 * makes SVG renderers (librsvg, browsers) slow out of proportion, while
 * chunks of a few hundred keep the file small and rendering linear. */
#define BATCH 512

static void flush(cairo_t *cr, bool fill, size_t *pending, bool force)
{
    if (*pending == 0 || (!force && *pending < BATCH))
        return;
    if (fill)
        cairo_fill(cr);
    else
        cairo_stroke(cr);
    *pending = 0;
}

/* Segments of class cls, then dots, then arrow heads, each batched. */
static void draw_class(cairo_t *cr, const sn_layout *lo, const sn_draw_state *st, const view *v,
                       size_t k0, size_t k1, int cls, sn_rgb color)
{
    set_rgb(cr, color);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    set_line_width(cr, lo->cmp_w * (cls == CLS_PLAIN ? 1.0 : 1.25));
    if (cls == CLS_NOSWAP)
        set_dash(cr, 3.0 * lo->scale, 2.5 * lo->scale);
    size_t pending = 0;
    bool arrows = false;
    cairo_new_path(cr);
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (!cmp_visible(c, v) || cmp_class(lo, st, i) != cls)
                continue;
            cairo_move_to(cr, c->x, c->y0);
            cairo_line_to(cr, c->x, c->y1);
            arrows = arrows || c->a > c->b;
            pending++;
            flush(cr, false, &pending, false);
        }
    }
    flush(cr, false, &pending, true);
    cairo_set_dash(cr, NULL, 0, 0);

    /* Dots are zero-length strokes with round caps: one short "M x y L x y"
     * each in SVG/PDF (a tenth of an arc's size). On pixels, a dot under
     * two pixels across is a square of the same area instead:
     * indistinguishable, and much faster to fill when a whole bitonic:1024
     * is squeezed into a PNG. */
    double r = lo->dot_r * (cls == CLS_PLAIN ? 1.0 : 1.15);
    double dx = r, dy = 0;
    cairo_user_to_device_distance(cr, &dx, &dy);
    bool squares = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE &&
                   sqrt(dx * dx + dy * dy) < 1.0;
    double q = r * 0.886; /* half side: (2q)^2 = pi r^2 */
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_width(cr, 2 * r);
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (!cmp_visible(c, v) || cmp_class(lo, st, i) != cls)
                continue;
            /* a reversed comparator gets an arrow head at b instead of a dot */
            double ys[2] = {lo->wire_y[c->a], lo->wire_y[c->b]};
            for (int e = 0; e < (c->a < c->b ? 2 : 1); e++) {
                if (squares) {
                    cairo_rectangle(cr, c->x - q, ys[e] - q, 2 * q, 2 * q);
                } else {
                    cairo_move_to(cr, c->x, ys[e]);
                    cairo_line_to(cr, c->x, ys[e]);
                }
            }
            pending++;
            flush(cr, squares, &pending, false);
        }
    }
    flush(cr, squares, &pending, true);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    if (!arrows)
        return;
    double ah = 2.6 * r, aw = 1.25 * r; /* arrow head length, half width */
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (c->a < c->b || !cmp_visible(c, v) || cmp_class(lo, st, i) != cls)
                continue;
            /* the max goes to wire b; the tip sits on it */
            double ya = lo->wire_y[c->a], yb = lo->wire_y[c->b];
            double dir = yb < ya ? -1.0 : 1.0;
            cairo_move_to(cr, c->x, yb);
            cairo_line_to(cr, c->x - aw, yb - dir * ah);
            cairo_line_to(cr, c->x + aw, yb - dir * ah);
            cairo_close_path(cr);
            pending++;
            flush(cr, true, &pending, false);
        }
    }
    flush(cr, true, &pending, true);
}

static void select_font(cairo_t *cr, const sn_layout *lo, cairo_font_weight_t weight)
{
    cairo_select_font_face(cr, SN_DRAW_FONT, CAIRO_FONT_SLANT_NORMAL, weight);
    cairo_set_font_size(cr, lo->font_size);
}

/* Offset from a row's centre to the text baseline, from the digit height
 * (not per-string extents), so every label on a row shares a baseline. */
static double baseline_offset(cairo_t *cr)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, "0", &e);
    return -e.y_bearing - e.height / 2;
}

/* Text this small in device pixels is unreadable: skip it (a 1024-wire
 * network squeezed into a PNG would spend its time on invisible glyphs). */
static bool legible(cairo_t *cr, double font_size)
{
    double dx = font_size, dy = 0;
    cairo_user_to_device_distance(cr, &dx, &dy);
    return sqrt(dx * dx + dy * dy) >= 4.0;
}

/* Text of one colour gathered into one glyph run, shown with a single
 * cairo_show_glyphs: one SVG group for all wire labels instead of one
 * styled group per label. Falls back to cairo_show_text when out of
 * memory. */
typedef struct glyph_run {
    cairo_glyph_t *g;
    size_t n, cap;
} glyph_run;

/* Add text with its left end of baseline at (x, y). */
static void run_add(cairo_t *cr, glyph_run *r, double x, double y, const char *text)
{
    cairo_glyph_t *gs = NULL;
    int count = 0;
    cairo_scaled_font_t *sf = cairo_get_scaled_font(cr);
    if (cairo_scaled_font_text_to_glyphs(sf, x, y, text, -1, &gs, &count, NULL, NULL, NULL) !=
        CAIRO_STATUS_SUCCESS)
        return;
    size_t need = r->n + (size_t)count;
    if (need > r->cap) {
        size_t cap = need * 2, bytes;
        cairo_glyph_t *ng = NULL;
        if (sn_mul_size(cap, sizeof *ng, &bytes))
            ng = sn_realloc(r->g, bytes);
        if (!ng) {
            cairo_move_to(cr, x, y);
            cairo_show_text(cr, text);
            cairo_glyph_free(gs);
            return;
        }
        r->g = ng;
        r->cap = cap;
    }
    memcpy(r->g + r->n, gs, (size_t)count * sizeof *gs);
    r->n = need;
    cairo_glyph_free(gs);
}

static void run_show(cairo_t *cr, glyph_run *r, sn_rgb ink)
{
    if (r->n) {
        set_rgb(cr, ink);
        cairo_show_glyphs(cr, r->g, (int)r->n);
    }
    sn_free(r->g);
    r->g = NULL;
    r->n = r->cap = 0;
}

static double advance(cairo_t *cr, const char *text)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    return e.x_advance;
}

static void draw_labels(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const view *v,
                        uint32_t w0, uint32_t w1)
{
    if (lo->label_x < v->x0 || w0 >= w1 || !legible(cr, lo->font_size))
        return;
    select_font(cr, lo, CAIRO_FONT_WEIGHT_NORMAL);
    double base = baseline_offset(cr);
    glyph_run run = {NULL, 0, 0};
    char buf[16];
    for (uint32_t i = w0; i < w1; i++) {
        if (!sn_layout_labelled(lo, i))
            continue;
        snprintf(buf, sizeof buf, "%u", (unsigned)i);
        run_add(cr, &run, lo->label_x - advance(cr, buf), lo->wire_y[i] + base, buf);
    }
    run_show(cr, &run, th->text);
}

/* The selected outputs (sn_draw_state.selected): a ring in the highlight
 * colour around the end of each such wire. */
static void draw_selected(cairo_t *cr, const sn_layout *lo, const sn_theme *th,
                          const sn_draw_state *st)
{
    double r = fmax(2.5 * lo->dot_r, 0.3 * lo->pitch);
    for (size_t i = 0; i < st->selected_count; i++) {
        uint32_t w = st->selected[i];
        if (w >= lo->n)
            continue;
        cairo_new_sub_path(cr);
        cairo_arc(cr, lo->wire_x1, lo->wire_y[w], r, 0, 2 * SN_PI);
    }
    set_rgb(cr, th->highlight);
    cairo_set_line_width(cr, fmax(lo->wire_w * 2, r / 3));
    cairo_stroke(cr);
}

/* Block labels: a pill in the background colour on the outline's edge,
 * the text in the outline's colour. */
static void draw_block_labels(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const view *v)
{
    if (lo->block_count == 0 || !legible(cr, lo->label_font))
        return;
    cairo_select_font_face(cr, SN_DRAW_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, lo->label_font);
    double base = baseline_offset(cr);
    for (size_t g = 0; g < lo->block_count; g++) {
        const sn_layout_block *b = &lo->block[g];
        if (!b->labelled || b->lx > v->x1 || b->lx + b->lw < v->x0)
            continue;
        rounded_rect(cr, b->lx, b->ly - b->lh / 2, b->lx + b->lw, b->ly + b->lh / 2,
                     b->lh / 2 - 0.01);
        set_rgb(cr, th->background);
        cairo_fill_preserve(cr);
        set_rgb(cr, b->depth == 0 ? th->step : th->stage);
        cairo_set_line_width(cr, 0.8 * lo->scale);
        cairo_stroke(cr);
        set_rgb(cr, th->text);
        cairo_move_to(cr, b->lx + (b->lw - advance(cr, b->label)) / 2, b->ly + base);
        cairo_show_text(cr, b->label);
    }
}

/* One wire state marker of side m centred at (x, y): hollow for "only 0",
 * solid for "only 1", half filled for "either". */
static void zo_marker(cairo_t *cr, const sn_theme *th, double x, double y, double m, unsigned st,
                      double lw)
{
    double h = m / 2;
    cairo_rectangle(cr, x - h, y - h, m, m);
    set_rgb(cr, st == SN_WIRE_CAN1 ? th->text : th->background);
    cairo_fill_preserve(cr);
    set_rgb(cr, th->text);
    cairo_set_line_width(cr, lw);
    cairo_stroke(cr);
    if (st == (SN_WIRE_CAN0 | SN_WIRE_CAN1)) {
        cairo_move_to(cr, x - h, y - h);
        cairo_line_to(cr, x + h, y + h);
        cairo_line_to(cr, x - h, y + h);
        cairo_close_path(cr);
        cairo_fill(cr);
    }
}

/* The 0-1 chart under the wires and the wire state markers. */
static void draw_zero_one(cairo_t *cr, const sn_layout *lo, const sn_theme *th,
                          const sn_draw_state *st, const view *v, uint32_t w0, uint32_t w1)
{
    const sn_layout_chart *c = &lo->chart;
    const sn_zero_one *z = st->zo;
    bool fits = z && z->n == lo->n && z->layers == lo->layer_count;
    char buf[256];
    if (fits) {
        /* markers: on every wire at every step */
        uint32_t h = st->zo_ones <= z->n ? st->zo_ones : z->n / 2;
        double m = lo->mark;
        for (size_t k = 0; k <= z->layers; k++) {
            double x = lo->step_x[k];
            if ((st->values && k == st->step && lo->value_w > 0) || x + m < v->x0 || x - m > v->x1)
                continue;
            for (uint32_t i = w0; i < w1; i++)
                zo_marker(cr, th, x, lo->wire_y[i], m, sn_zero_one_state(z, k, h, i),
                          0.8 * lo->scale);
        }
    }
    if (c->y0 > v->y1 || c->caption_y + lo->font_size < v->y0)
        return;
    /* frame: the baseline and the 2^n line */
    cairo_new_path(cr);
    cairo_move_to(cr, c->x0, c->y1);
    cairo_line_to(cr, c->x1, c->y1);
    set_rgb(cr, th->wire);
    cairo_set_line_width(cr, 1.0 * lo->scale);
    cairo_stroke(cr);
    cairo_move_to(cr, c->x0, c->y0);
    cairo_line_to(cr, c->x1, c->y0);
    set_dash(cr, 3 * lo->scale, 3 * lo->scale);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    select_font(cr, lo, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, lo->label_font > 0 ? lo->label_font : lo->font_size * 0.8);
    double base = baseline_offset(cr);
    if (fits) {
        double bw = c->bar_w, H = c->y1 - c->y0;
        for (size_t k = 0; k <= z->layers; k++) {
            double f = (double)z->sorted[k] / (double)z->inputs;
            double bh = fmax(H * f, 0.75 * lo->scale);
            cairo_rectangle(cr, lo->step_x[k] - bw / 2, c->y1 - bh, bw, bh);
            bool cur = st->chart_step && k == st->step;
            set_rgb(cr, cur ? th->highlight : f >= 1.0 ? th->comparator : th->noswap);
            cairo_fill(cr);
            if (cur) { /* the current step's share, above its bar */
                snprintf(buf, sizeof buf, f < 0.1 ? "%.1f%%" : "%.0f%%", 100 * f);
                cairo_move_to(cr, lo->step_x[k] - advance(cr, buf) / 2, c->y1 - bh - 3 * lo->scale);
                cairo_show_text(cr, buf);
            }
        }
        snprintf(buf, sizeof buf, "all %llu inputs", (unsigned long long)z->inputs);
        set_rgb(cr, th->text);
        cairo_move_to(cr, c->x0, c->y0 - 3 * lo->scale);
        cairo_show_text(cr, buf);
        /* (the final count: the window redraws only a strip per step) */
        uint64_t last = z->sorted[z->layers];
        snprintf(buf, sizeof buf, "sorted 0-1 inputs: %llu of %llu after %zu layer%s (%s)",
                 (unsigned long long)last, (unsigned long long)z->inputs, z->layers,
                 z->layers == 1 ? "" : "s", last == z->inputs ? "it sorts" : "it does NOT sort");
        cairo_move_to(cr, c->x0, c->caption_y);
        cairo_show_text(cr, buf);
        /* the markers' legend, drawn with the markers themselves */
        snprintf(buf, sizeof buf, "wires, for the inputs with %u ones:",
                 st->zo_ones <= z->n ? st->zo_ones : z->n / 2);
        double y = c->caption_y + 1.3 * lo->font_size, x = c->x0;
        static const char *const what[3] = {"only 0", "only 1", "either"};
        static const unsigned sts[3] = {SN_WIRE_CAN0, SN_WIRE_CAN1, SN_WIRE_CAN0 | SN_WIRE_CAN1};
        set_rgb(cr, th->text);
        cairo_move_to(cr, x, y);
        cairo_show_text(cr, buf);
        x += advance(cr, buf) + lo->mark;
        for (int i = 0; i < 3; i++) {
            zo_marker(cr, th, x + lo->mark / 2, y - base, lo->mark, sts[i], 0.8 * lo->scale);
            x += lo->mark * 1.6;
            set_rgb(cr, th->text);
            cairo_move_to(cr, x, y);
            cairo_show_text(cr, what[i]);
            x += advance(cr, what[i]) + lo->mark * 1.5;
        }
        return;
    }
    set_rgb(cr, th->text);
    cairo_move_to(cr, c->x0, c->caption_y);
    cairo_show_text(cr, st->zo_note ? st->zo_note : "0-1 chart: no profile for this network");
}

static sn_status draw_values(cairo_t *cr, const sn_layout *lo, const sn_theme *th,
                             const sn_draw_state *st, const view *v, uint32_t w0, uint32_t w1)
{
    if (st->step > lo->layer_count || lo->value_w <= 0)
        return SN_OK;
    double x = lo->step_x[st->step];
    double bw = lo->value_w, bh = lo->value_h;
    if (x + bw / 2 < v->x0 || x - bw / 2 > v->x1)
        return SN_OK;
    uint32_t *ranks = sn_calloc(lo->n ? lo->n : 1, sizeof *ranks);
    sn_status rs = ranks ? sn_draw_ranks(st->values, lo->n, st->type, ranks) : SN_ENOMEM;
    /* marker line through the shown step */
    cairo_new_path(cr);
    cairo_move_to(cr, x, fmax(v->y0, lo->wire_y[0] - lo->pitch / 2));
    cairo_line_to(cr, x, fmin(v->y1, lo->wire_y[lo->n - 1] + lo->pitch / 2));
    set_rgb(cr, th->step);
    cairo_set_line_width(cr, 1.0 * lo->scale);
    set_dash(cr, 2.0 * lo->scale, 2.0 * lo->scale);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);

    /* one fill per box (each has its rank colour), one stroke for all;
     * corners too small to see rounded are square (cairo fills those
     * without tessellating: the window draws this column every frame) */
    double den = lo->n > 1 ? (double)(lo->n - 1) : 1.0;
    double r = 3 * lo->scale, rx = r, ry = 0;
    cairo_user_to_device_distance(cr, &rx, &ry);
    bool round_ = sqrt(rx * rx + ry * ry) >= 1.5 && r * 2 < bh;
    for (uint32_t i = w0; i < w1; i++) {
        sn_rgb fill = rs == SN_OK ? sn_palette_rank(ranks[i] / den) : th->background;
        if (round_)
            rounded_rect(cr, x - bw / 2, lo->wire_y[i] - bh / 2, x + bw / 2,
                         lo->wire_y[i] + bh / 2, r);
        else
            cairo_rectangle(cr, x - bw / 2, lo->wire_y[i] - bh / 2, bw, bh);
        set_rgb(cr, fill);
        cairo_fill(cr);
    }
    for (uint32_t i = w0; i < w1; i++) {
        if (round_)
            rounded_rect(cr, x - bw / 2, lo->wire_y[i] - bh / 2, x + bw / 2,
                         lo->wire_y[i] + bh / 2, r);
        else
            cairo_rectangle(cr, x - bw / 2, lo->wire_y[i] - bh / 2, bw, bh);
    }
    set_rgb(cr, th->wire);
    cairo_set_line_width(cr, 0.8 * lo->scale);
    cairo_stroke(cr);

    if (legible(cr, lo->value_font)) {
        select_font(cr, lo, CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, lo->value_font);
        double base = baseline_offset(cr);
        /* two runs: dark ink on light boxes, light ink on dark ones */
        glyph_run dark = {NULL, 0, 0}, light = {NULL, 0, 0};
        sn_rgb black = {0, 0, 0}, white = {1, 1, 1};
        char buf[48];
        for (uint32_t i = w0; i < w1; i++) {
            if (!sn_layout_labelled(lo, i))
                continue;
            sn_rgb ink = th->text;
            if (rs == SN_OK)
                ink = sn_palette_text_on(sn_palette_rank(ranks[i] / den));
            if (sn_key_format(st->type, st->values[i], buf, sizeof buf) < 0)
                snprintf(buf, sizeof buf, "?");
            double y = lo->wire_y[i] + base, tx = x - advance(cr, buf) / 2;
            if (rs != SN_OK) {
                set_rgb(cr, ink);
                cairo_move_to(cr, tx, y);
                cairo_show_text(cr, buf);
            } else {
                run_add(cr, ink.r > 0.5 ? &light : &dark, tx, y, buf);
            }
        }
        run_show(cr, &dark, black);
        run_show(cr, &light, white);
    }
    sn_free(ranks);
    return rs;
}

sn_status sn_draw(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const sn_draw_state *st,
                  const sn_rect *visible)
{
    view v = {0, 0, lo->width, lo->height};
    cairo_save(cr);
    if (visible) {
        v.x0 = visible->x;
        v.y0 = visible->y;
        v.x1 = visible->x + visible->w;
        v.y1 = visible->y + visible->h;
        cairo_rectangle(cr, visible->x, visible->y, visible->w, visible->h);
        cairo_clip(cr);
    }
    set_rgb(cr, th->background);
    cairo_rectangle(cr, v.x0, v.y0, v.x1 - v.x0, v.y1 - v.y0);
    cairo_fill(cr);
    /* grow by what sticks out of a centre line: dots, arrows, value boxes */
    double grow = fmax(4 * lo->dot_r, lo->value_w);
    view g = {v.x0 - grow, v.y0 - grow, v.x1 + grow, v.y1 + grow};
    size_t k0, k1;
    uint32_t w0, w1;
    sn_layout_layers_in(lo, g.x0, g.x1, &k0, &k1);
    sn_layout_wires_in(lo, g.y0, g.y1, &w0, &w1);

    draw_bands(cr, lo, th, &v, k0, k1);
    draw_stages(cr, lo, th, &g);
    draw_blocks(cr, lo, th, &g);
    if (st && st->path)
        draw_path(cr, lo, th, st->path);
    draw_wires(cr, lo, th, &v, w0, w1);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    draw_class(cr, lo, st, &g, k0, k1, CLS_PLAIN, th->comparator);
    draw_class(cr, lo, st, &g, k0, k1, CLS_NOSWAP, th->noswap);
    draw_class(cr, lo, st, &g, k0, k1, CLS_SWAP, th->swap);
    draw_class(cr, lo, st, &g, k0, k1, CLS_HIGHLIGHT, th->highlight);
    draw_labels(cr, lo, th, &g, w0, w1);
    if (lo->zero_one && st)
        draw_zero_one(cr, lo, th, st, &g, w0, w1);
    draw_block_labels(cr, lo, th, &g);
    if (st && st->selected)
        draw_selected(cr, lo, th, st);
    sn_status rs = SN_OK;
    if (st && st->values && lo->n > 0)
        rs = draw_values(cr, lo, th, st, &g, w0, w1);
    cairo_restore(cr);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        return SN_EIO;
    return rs;
}
