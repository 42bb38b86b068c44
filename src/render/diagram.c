/* diagram.c - the diagram's scene, built from a finished layout: every
 * primitive's place, colour and tag, with no cairo.
 *
 * Invariant: primitives of one kind and class come in unbroken runs of
 * one style (all wires, all plain comparator segments, all their dots,
 * ...), so a painter batches them into a few paths: a 28 160-comparator
 * network is ~170 paths in SVG, not tens of thousands of styled elements.
 * Text is never shrunk below the layout's sizes: what the layout thinned
 * (label_every) or could not place (block labels) is said in notes. */
#include "render/diagram.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check_api.h"
#include "core/input.h" /* for: sn_key_format */

enum { CLS_PLAIN, CLS_SWAP, CLS_NOSWAP, CLS_HIGHLIGHT, CLS_COUNT };

typedef struct view {
    double x0, y0, x1, y1; /* visible rectangle, grown by a margin */
} view;

/* What every part needs. */
typedef struct ctx {
    sn_scene *sc;
    const sn_layout *lo;
    const sn_theme *th;
    const sn_draw_state *st;
} ctx;

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

static sn_rgba rgb(sn_rgb c)
{
    return sn_rgba_of(c, 1.0);
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

static void bands(const ctx *C, const view *v, size_t k0, size_t k1)
{
    const sn_layout *lo = C->lo;
    if (lo->n == 0)
        return;
    double y0 = lo->wire_y[0] - lo->pitch / 2, y1 = lo->wire_y[lo->n - 1] + lo->pitch / 2;
    y0 = fmax(y0, v->y0);
    y1 = fmin(y1, v->y1);
    if (y1 <= y0)
        return;
    sn_scene_style f = sn_scene_fill(rgb(C->th->band));
    for (size_t k = k0; k < k1; k++)
        if (k % 2 == 1) {
            sn_scene_tag t = {SN_ROLE_BAND, -1, (int32_t)k, -1};
            sn_scene_rect(C->sc, lo->layer[k].x0, y0, lo->layer[k].x1 - lo->layer[k].x0, y1 - y0, 0,
                          &f, t);
        }
}

static void stages(const ctx *C, const view *v)
{
    const sn_layout *lo = C->lo;
    if (lo->stage_count == 0 || lo->block_count > 0)
        return;
    sn_scene_style s = sn_scene_stroke(rgb(C->th->stage), 1.0 * lo->scale);
    for (size_t g = 0; g < lo->stage_count; g++) {
        const sn_layout_stage *p = &lo->stage[g];
        if (p->x1 < v->x0 || p->x0 > v->x1)
            continue;
        sn_scene_rect(C->sc, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0, 4 * lo->scale, &s,
                      sn_scene_tag_of(SN_ROLE_STAGE));
    }
}

/* Structure block outlines: the outer levels bolder. */
static void blocks(const ctx *C, const view *v)
{
    const sn_layout *lo = C->lo;
    for (size_t g = 0; g < lo->block_count; g++) {
        const sn_layout_block *b = &lo->block[g];
        if (b->x1 < v->x0 || b->x0 > v->x1 || b->y1 < v->y0 || b->y0 > v->y1)
            continue;
        sn_scene_style s = sn_scene_stroke(rgb(b->depth == 0 ? C->th->step : C->th->stage),
                                           (b->depth == 0   ? 1.6
                                            : b->depth == 1 ? 1.2
                                                            : 0.9) *
                                               lo->scale);
        sn_scene_rect(C->sc, b->x0, b->y0, b->x1 - b->x0, b->y1 - b->y0, 3 * lo->scale, &s,
                      sn_scene_tag_of(SN_ROLE_BLOCK));
    }
}

/* The followed element's route; SN_ENOMEM when its points could not be
 * allocated (the picture then lacks it). */
static sn_status path(const ctx *C, const uint32_t *route)
{
    const sn_layout *lo = C->lo;
    for (size_t k = 0; k <= lo->layer_count; k++)
        if (route[k] >= lo->n)
            return SN_OK; /* not a valid path: ignore it rather than read out of range */
    size_t cap = 2 * lo->layer_count + 2, count = 0, bytes;
    sn_point *pts = sn_mul_size(cap, sizeof *pts, &bytes) ? sn_malloc(bytes) : NULL;
    if (!pts)
        return SN_ENOMEM;
    pts[count++] = (sn_point){lo->wire_x0, lo->wire_y[route[0]]};
    for (size_t k = 0; k < lo->layer_count; k++) {
        if (route[k + 1] == route[k])
            continue;
        long c = sn_layout_find(lo, k, route[k], route[k + 1]);
        if (c < 0) {
            sn_free(pts);
            return SN_OK;
        }
        pts[count++] = (sn_point){lo->cmp[c].x, lo->wire_y[route[k]]};
        pts[count++] = (sn_point){lo->cmp[c].x, lo->wire_y[route[k + 1]]};
    }
    pts[count++] = (sn_point){lo->wire_x1, lo->wire_y[route[lo->layer_count]]};
    sn_scene_style s = sn_scene_stroke(sn_rgba_of(C->th->highlight, 0.6), 2.4 * lo->dot_r);
    s.cap = SN_CAP_ROUND;
    s.join = SN_JOIN_ROUND;
    sn_scene_tag t = sn_scene_tag_wire(SN_ROLE_PATH, route[0]);
    sn_scene_poly(C->sc, pts, count, false, &s, t);
    sn_free(pts);
    return SN_OK;
}

static void wires(const ctx *C, const view *v, uint32_t w0, uint32_t w1)
{
    const sn_layout *lo = C->lo;
    double x0 = fmax(lo->wire_x0, v->x0), x1 = fmin(lo->wire_x1, v->x1);
    if (x1 <= x0)
        return;
    sn_scene_style s = sn_scene_stroke(rgb(C->th->wire), lo->wire_w);
    for (uint32_t i = w0; i < w1; i++)
        sn_scene_line(C->sc, x0, lo->wire_y[i], x1, lo->wire_y[i], &s,
                      sn_scene_tag_wire(SN_ROLE_WIRE, i));
}

static bool cmp_visible(const sn_layout_cmp *c, const view *v)
{
    return c->y1 >= v->y0 && c->y0 <= v->y1 && c->x >= v->x0 && c->x <= v->x1;
}

static sn_scene_tag cmp_tag(const sn_layout_cmp *c, size_t i)
{
    sn_scene_tag t = {SN_ROLE_COMPARATOR, (int32_t)c->a, (int32_t)c->layer, (int64_t)i};
    return t;
}

/* Segments of class cls, then dots, then arrow heads. */
static void comparators(const ctx *C, const view *v, size_t k0, size_t k1, int cls, sn_rgb color)
{
    const sn_layout *lo = C->lo;
    sn_scene_style seg = sn_scene_stroke(rgb(color), lo->cmp_w * (cls == CLS_PLAIN ? 1.0 : 1.25));
    seg.flags = SN_STYLE_HAIRLINE_MIN;
    if (cls == CLS_NOSWAP) {
        seg.dash_on = 3.0 * lo->scale;
        seg.dash_off = 2.5 * lo->scale;
    }
    bool arrows = false;
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (!cmp_visible(c, v) || cmp_class(lo, C->st, i) != cls)
                continue;
            sn_scene_line(C->sc, c->x, c->y0, c->x, c->y1, &seg, cmp_tag(c, i));
            arrows = arrows || c->a > c->b;
        }
    }
    double r = lo->dot_r * (cls == CLS_PLAIN ? 1.0 : 1.15);
    sn_scene_style dot = sn_scene_fill(rgb(color));
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (!cmp_visible(c, v) || cmp_class(lo, C->st, i) != cls)
                continue;
            /* a reversed comparator gets an arrow head at b instead of a dot */
            sn_scene_tag t = cmp_tag(c, i);
            sn_scene_circle(C->sc, c->x, lo->wire_y[c->a], r, &dot, t);
            if (c->a < c->b) {
                t.wire = (int32_t)c->b;
                sn_scene_circle(C->sc, c->x, lo->wire_y[c->b], r, &dot, t);
            }
        }
    }
    if (!arrows)
        return;
    double ah = 2.6 * r, aw = 1.25 * r; /* arrow head length, half width */
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (c->a < c->b || !cmp_visible(c, v) || cmp_class(lo, C->st, i) != cls)
                continue;
            /* the max goes to wire b; the tip sits on it */
            double ya = lo->wire_y[c->a], yb = lo->wire_y[c->b];
            double dir = yb < ya ? -1.0 : 1.0;
            sn_point tri[3] = {{c->x, yb}, {c->x - aw, yb - dir * ah}, {c->x + aw, yb - dir * ah}};
            sn_scene_tag t = cmp_tag(c, i);
            t.wire = (int32_t)c->b;
            sn_scene_poly(C->sc, tri, 3, true, &dot, t);
        }
    }
}

static void wire_labels(const ctx *C, const view *v, uint32_t w0, uint32_t w1)
{
    const sn_layout *lo = C->lo;
    if (lo->label_x < v->x0 || w0 >= w1)
        return;
    char buf[16];
    for (uint32_t i = w0; i < w1; i++) {
        if (!sn_layout_labelled(lo, i))
            continue;
        snprintf(buf, sizeof buf, "%u", (unsigned)i);
        sn_scene_text(C->sc, lo->label_x, lo->wire_y[i], buf, lo->font_size, SN_FONT_REGULAR,
                      SN_TEXT_RIGHT | SN_TEXT_MIDDLE, rgb(C->th->text),
                      sn_scene_tag_wire(SN_ROLE_WIRE_LABEL, i));
    }
}

/* The selected outputs: a ring in the highlight colour at each wire's end. */
static void selected(const ctx *C)
{
    const sn_layout *lo = C->lo;
    const sn_draw_state *st = C->st;
    double r = fmax(2.5 * lo->dot_r, 0.3 * lo->pitch);
    sn_scene_style s = sn_scene_stroke(rgb(C->th->highlight), fmax(lo->wire_w * 2, r / 3));
    for (size_t i = 0; i < st->selected_count; i++) {
        uint32_t w = st->selected[i];
        if (w < lo->n)
            sn_scene_circle(C->sc, lo->wire_x1, lo->wire_y[w], r, &s,
                            sn_scene_tag_wire(SN_ROLE_SELECTED, w));
    }
}

/* Block labels: a pill in the background colour on the outline's edge,
 * the text in the text colour. */
static void block_labels(const ctx *C, const view *v)
{
    const sn_layout *lo = C->lo;
    for (size_t g = 0; g < lo->block_count; g++) {
        const sn_layout_block *b = &lo->block[g];
        if (!b->labelled || b->lx > v->x1 || b->lx + b->lw < v->x0)
            continue;
        sn_scene_style pill =
            sn_scene_stroke(rgb(b->depth == 0 ? C->th->step : C->th->stage), 0.8 * lo->scale);
        pill.fill = rgb(C->th->background);
        sn_scene_tag t = sn_scene_tag_of(SN_ROLE_BLOCK_LABEL);
        sn_scene_rect(C->sc, b->lx, b->ly - b->lh / 2, b->lw, b->lh, b->lh / 2 - 0.01, &pill, t);
        sn_scene_text(C->sc, b->lx + b->lw / 2, b->ly, b->label, lo->label_font, SN_FONT_BOLD,
                      SN_TEXT_CENTER | SN_TEXT_MIDDLE, rgb(C->th->text), t);
    }
}

/* One wire state marker of side m centred at (x, y): hollow for "only 0",
 * solid for "only 1", half filled for "either". */
static void zo_marker(const ctx *C, double x, double y, double m, unsigned state, sn_scene_tag t)
{
    const sn_theme *th = C->th;
    double h = m / 2;
    sn_scene_style s = sn_scene_stroke(rgb(th->text), 0.8 * C->lo->scale);
    s.fill = rgb(state == SN_WIRE_CAN1 ? th->text : th->background);
    sn_scene_rect(C->sc, x - h, y - h, m, m, 0, &s, t);
    if (state == (SN_WIRE_CAN0 | SN_WIRE_CAN1)) {
        sn_point tri[3] = {{x - h, y - h}, {x + h, y + h}, {x - h, y + h}};
        sn_scene_style f = sn_scene_fill(rgb(th->text));
        sn_scene_poly(C->sc, tri, 3, true, &f, t);
    }
}

/* The 0-1 chart under the wires and the wire state markers. */
static void zero_one(const ctx *C, const view *v, uint32_t w0, uint32_t w1)
{
    const sn_layout *lo = C->lo;
    const sn_theme *th = C->th;
    const sn_draw_state *st = C->st;
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
            for (uint32_t i = w0; i < w1; i++) {
                sn_scene_tag t = {SN_ROLE_MARK, (int32_t)i, (int32_t)k, -1};
                zo_marker(C, x, lo->wire_y[i], m, sn_zero_one_state(z, k, h, i), t);
            }
        }
    }
    if (c->y0 > v->y1 || c->caption_y + lo->font_size < v->y0)
        return;
    /* frame: the baseline and the 2^n line */
    sn_scene_style frame = sn_scene_stroke(rgb(th->wire), 1.0 * lo->scale);
    sn_scene_tag ct = sn_scene_tag_of(SN_ROLE_CHART);
    sn_scene_line(C->sc, c->x0, c->y1, c->x1, c->y1, &frame, ct);
    frame.dash_on = frame.dash_off = 3 * lo->scale;
    sn_scene_line(C->sc, c->x0, c->y0, c->x1, c->y0, &frame, ct);
    double fs = lo->label_font > 0 ? lo->label_font : lo->font_size * 0.8;
    sn_rgba ink = rgb(th->text);
    sn_scene_tag cap = sn_scene_tag_of(SN_ROLE_CAPTION);
    if (!fits) {
        sn_scene_text(C->sc, c->x0, c->caption_y,
                      st->zo_note ? st->zo_note : "0-1 chart: no profile for this network", fs,
                      SN_FONT_REGULAR, SN_TEXT_LEFT, ink, cap);
        return;
    }
    double bw = c->bar_w, H = c->y1 - c->y0;
    for (size_t k = 0; k <= z->layers; k++) {
        double f = (double)z->sorted[k] / (double)z->inputs;
        double bh = fmax(H * f, 0.75 * lo->scale);
        bool cur = st->chart_step && k == st->step;
        sn_scene_style bs = sn_scene_fill(rgb(cur        ? th->highlight
                                              : f >= 1.0 ? th->comparator
                                                         : th->noswap));
        sn_scene_tag bt = {SN_ROLE_BAR, -1, (int32_t)k, -1};
        sn_scene_rect(C->sc, lo->step_x[k] - bw / 2, c->y1 - bh, bw, bh, 0, &bs, bt);
        if (cur) { /* the current step's share, above its bar */
            snprintf(buf, sizeof buf, f < 0.1 ? "%.1f%%" : "%.0f%%", 100 * f);
            /* centred on its bar, but inside the picture (the last bar of
             * a narrow layout sits at its right edge) */
            double half = sn_scene_text_width(buf, fs, SN_FONT_REGULAR) / 2;
            double tx = fmax(fmin(lo->step_x[k], lo->width - half - lo->scale), half + lo->scale);
            sn_scene_text(C->sc, tx, c->y1 - bh - 3 * lo->scale, buf, fs, SN_FONT_REGULAR,
                          SN_TEXT_CENTER, ink, bt);
        }
    }
    snprintf(buf, sizeof buf, "all %llu inputs", (unsigned long long)z->inputs);
    sn_scene_text(C->sc, c->x0, c->y0 - 3 * lo->scale, buf, fs, SN_FONT_REGULAR, SN_TEXT_LEFT, ink,
                  cap);
    /* (the final count: the window redraws only a strip per step). The
     * caption and the legend keep inside the picture (a phone's narrow
     * pane): the longest wording that fits, else the shortest */
    double right = lo->width - 2 * lo->scale, room = right - c->x0;
    uint64_t last = z->sorted[z->layers];
    const char *verdict = last == z->inputs ? "it sorts" : "it does NOT sort";
    unsigned long long lastu = (unsigned long long)last, all = (unsigned long long)z->inputs;
    for (int form = 0; form < 4; form++) {
        if (form == 0)
            snprintf(buf, sizeof buf, "sorted 0-1 inputs: %llu of %llu after %zu layer%s (%s)",
                     lastu, all, z->layers, z->layers == 1 ? "" : "s", verdict);
        else if (form == 1)
            snprintf(buf, sizeof buf, "sorted 0-1 inputs: %llu of %llu (%s)", lastu, all, verdict);
        else if (form == 2)
            snprintf(buf, sizeof buf, "sorted: %llu of %llu (%s)", lastu, all, verdict);
        else
            snprintf(buf, sizeof buf, "%s", verdict);
        if (sn_scene_text_width(buf, fs, SN_FONT_REGULAR) <= room)
            break;
    }
    sn_scene_text(C->sc, c->x0, c->caption_y, buf, fs, SN_FONT_REGULAR, SN_TEXT_LEFT, ink, cap);
    /* the markers' legend, drawn with the markers themselves */
    unsigned ones = st->zo_ones <= z->n ? st->zo_ones : z->n / 2;
    static const char *const what[2][3] = {{"only 0", "only 1", "either"}, {"0", "1", "0/1"}};
    int form = 0, words = 0;
    for (; form < 6; form++) {
        words = form % 2; /* short marker words at odd forms */
        if (form < 2)
            snprintf(buf, sizeof buf, "wires, for the inputs with %u ones:", ones);
        else if (form < 4)
            snprintf(buf, sizeof buf, "inputs with %u ones:", ones);
        else
            snprintf(buf, sizeof buf, "%u ones:", ones);
        double need = sn_scene_text_width(buf, fs, SN_FONT_REGULAR) + lo->mark;
        for (int i = 0; i < 3; i++)
            need += lo->mark * 3.1 + sn_scene_text_width(what[words][i], fs, SN_FONT_REGULAR);
        if (need - lo->mark * 1.5 <= room)
            break;
    }
    double y = c->caption_y + 1.3 * lo->font_size, x = c->x0;
    double mid = y - sn_scene_digit_height(fs) / 2;
    static const unsigned sts[3] = {SN_WIRE_CAN0, SN_WIRE_CAN1, SN_WIRE_CAN0 | SN_WIRE_CAN1};
    sn_scene_text(C->sc, x, y, buf, fs, SN_FONT_REGULAR, SN_TEXT_LEFT, ink, cap);
    x += sn_scene_text_width(buf, fs, SN_FONT_REGULAR) + lo->mark;
    for (int i = 0; i < 3; i++) {
        zo_marker(C, x + lo->mark / 2, mid, lo->mark, sts[i], cap);
        x += lo->mark * 1.6;
        sn_scene_text(C->sc, x, y, what[words][i], fs, SN_FONT_REGULAR, SN_TEXT_LEFT, ink, cap);
        x += sn_scene_text_width(what[words][i], fs, SN_FONT_REGULAR) + lo->mark * 1.5;
    }
}

/* The text of wire i's value: what the box behind it is sized for and
 * what is written on it ("?" where the key does not format). */
static void value_text(const sn_draw_state *st, uint32_t i, char *buf, size_t cap)
{
    if (sn_key_format(st->type, st->values[i], buf, cap) < 0)
        snprintf(buf, cap, "?");
}

static sn_status values(const ctx *C, const view *v, uint32_t w0, uint32_t w1)
{
    const sn_layout *lo = C->lo;
    const sn_theme *th = C->th;
    const sn_draw_state *st = C->st;
    if (st->step > lo->layer_count || lo->value_w <= 0)
        return SN_OK;
    double x = lo->step_x[st->step];
    double bw = lo->value_w, bh = lo->value_h;
    if (x + bw / 2 < v->x0 || x - bw / 2 > v->x1)
        return SN_OK;
    uint32_t *ranks = sn_calloc(lo->n ? lo->n : 1, sizeof *ranks);
    sn_status rs = ranks ? sn_draw_ranks(st->values, lo->n, st->type, ranks) : SN_ENOMEM;
    /* marker line through the shown step */
    sn_scene_style ms = sn_scene_stroke(rgb(th->step), 1.0 * lo->scale);
    ms.dash_on = ms.dash_off = 2.0 * lo->scale;
    sn_scene_tag mt = {SN_ROLE_STEP, -1, (int32_t)st->step, -1};
    sn_scene_line(C->sc, x, fmax(v->y0, lo->wire_y[0] - lo->pitch / 2), x,
                  fmin(v->y1, lo->wire_y[lo->n - 1] + lo->pitch / 2), &ms, mt);

    /* one fill per box (each has its rank colour), one stroke for all */
    double den = lo->n > 1 ? (double)(lo->n - 1) : 1.0;
    double r = 3 * lo->scale;
    for (uint32_t i = w0; i < w1; i++) {
        sn_scene_style f =
            sn_scene_fill(rgb(rs == SN_OK ? sn_palette_rank(ranks[i] / den) : th->background));
        sn_scene_tag t = {SN_ROLE_VALUE_BOX, (int32_t)i, (int32_t)st->step, -1};
        sn_scene_rect(C->sc, x - bw / 2, lo->wire_y[i] - bh / 2, bw, bh, r, &f, t);
    }
    sn_scene_style outline = sn_scene_stroke(rgb(th->wire), 0.8 * lo->scale);
    for (uint32_t i = w0; i < w1; i++) {
        sn_scene_tag t = {SN_ROLE_VALUE_BOX, (int32_t)i, (int32_t)st->step, -1};
        sn_scene_rect(C->sc, x - bw / 2, lo->wire_y[i] - bh / 2, bw, bh, r, &outline, t);
    }
    /* Rows closer than the text is tall (a fitted window of many wires)
     * leave each box a stripe thinner than its digits: a labelled value
     * then gets a box of its own around the text, in its rank colour, over
     * its neighbours' stripes, so the digits never stand on stripes of
     * other colours (or on the background above the first wire). Labelled
     * rows are at least a text height apart (label_every), so these boxes
     * never cover one another. */
    double vf = lo->value_font, pad = fmax(1.0, 1.5 * lo->scale);
    /* the text's box as sn_scene_text places it (MIDDLE: the digits
     * centred on the wire), with a little room around it */
    double above = sn_scene_font_ascent(vf) - sn_scene_digit_height(vf) / 2 + pad;
    double th_box = sn_scene_font_ascent(vf) + sn_scene_font_descent(vf) + 2 * pad;
    if (vf > 0 && th_box > bh) {
        for (uint32_t i = w0; i < w1; i++) {
            if (!sn_layout_labelled(lo, i))
                continue;
            sn_scene_style f =
                sn_scene_fill(rgb(rs == SN_OK ? sn_palette_rank(ranks[i] / den) : th->background));
            sn_scene_tag t = {SN_ROLE_VALUE_BOX, (int32_t)i, (int32_t)st->step, -1};
            /* the padding gives way at the picture's edges (the text
             * itself is inside: the layout leaves it room) */
            double y0 = fmax(0, lo->wire_y[i] - above);
            double y1 = fmin(lo->height, lo->wire_y[i] - above + th_box);
            /* bold digits run a little wider than the layout's box */
            char txt[48];
            value_text(st, i, txt, sizeof txt);
            double w = fmax(bw, sn_scene_text_width(txt, vf, SN_FONT_BOLD) + 2 * pad);
            sn_scene_rect(C->sc, x - w / 2, y0, w, y1 - y0, r, &f, t);
            sn_scene_rect(C->sc, x - w / 2, y0, w, y1 - y0, r, &outline, t);
        }
    }
    /* two runs: dark ink on light boxes, then light ink on dark ones */
    char buf[48];
    for (int pass = 0; pass < 2 && lo->value_font > 0; pass++) {
        for (uint32_t i = w0; i < w1; i++) {
            if (!sn_layout_labelled(lo, i))
                continue;
            sn_rgb ink = th->text;
            if (rs == SN_OK)
                ink = sn_palette_text_on(sn_palette_rank(ranks[i] / den));
            if ((rs == SN_OK ? (ink.r > 0.5 ? 1 : 0) : 0) != pass)
                continue;
            value_text(st, i, buf, sizeof buf);
            sn_scene_tag t = {SN_ROLE_VALUE, (int32_t)i, (int32_t)st->step, -1};
            sn_scene_text(C->sc, x, lo->wire_y[i], buf, lo->value_font, SN_FONT_BOLD,
                          SN_TEXT_CENTER | SN_TEXT_MIDDLE, rgb(ink), t);
        }
    }
    sn_free(ranks);
    return rs;
}

/* Notes: what the layout thinned or left out. */
static void notes(const ctx *C)
{
    const sn_layout *lo = C->lo;
    char buf[160];
    if (lo->label_every > 1) {
        snprintf(buf, sizeof buf,
                 "wire labels and values on every %u%s wire only: rows too close for "
                 "%.1f-unit text",
                 (unsigned)lo->label_every,
                 lo->label_every == 2   ? "nd"
                 : lo->label_every == 3 ? "rd"
                                        : "th",
                 lo->font_size);
        sn_scene_note(C->sc, SN_NOTE_LABELS_THINNED, lo->label_every, buf);
    }
    if (lo->value_w > 0 && lo->value_font <= 0)
        sn_scene_note(C->sc, SN_NOTE_TEXT_HIDDEN, 0,
                      "values: no room for readable text, the boxes' colours show the ranks");
    size_t omitted = 0;
    for (size_t g = 0; g < lo->block_count; g++)
        omitted += !lo->block[g].labelled;
    if (omitted) {
        snprintf(buf, sizeof buf,
                 "%zu of %zu structure blocks unlabelled: no room for their labels", omitted,
                 lo->block_count);
        sn_scene_note(C->sc, SN_NOTE_LABELS_OMITTED, (double)omitted, buf);
    }
}

sn_status sn_diagram_scene(sn_scene *sc, const sn_layout *lo, const sn_theme *th,
                           const sn_draw_state *st, const sn_rect *visible)
{
    sn_api_check(sc != NULL && lo != NULL && th != NULL);
    sn_api_check(st == NULL || st->step <= lo->layer_count);
    sn_api_check(st == NULL || st->path == NULL || st->path[st->step] < lo->n);
    ctx C = {sc, lo, th, st};
    view v = {0, 0, lo->width, lo->height};
    if (visible) {
        v.x0 = visible->x;
        v.y0 = visible->y;
        v.x1 = visible->x + visible->w;
        v.y1 = visible->y + visible->h;
        sn_scene_clip_push(sc, *visible, SN_ROLE_PANEL);
    }
    sn_scene_style bg = sn_scene_fill(rgb(th->background));
    sn_scene_rect(sc, v.x0, v.y0, v.x1 - v.x0, v.y1 - v.y0, 0, &bg,
                  sn_scene_tag_of(SN_ROLE_BACKGROUND));
    /* grow by what sticks out of a centre line: dots, arrows, value boxes */
    double grow = fmax(4 * lo->dot_r, lo->value_w);
    view g = {v.x0 - grow, v.y0 - grow, v.x1 + grow, v.y1 + grow};
    size_t k0, k1;
    uint32_t w0, w1;
    sn_layout_layers_in(lo, g.x0, g.x1, &k0, &k1);
    sn_layout_wires_in(lo, g.y0, g.y1, &w0, &w1);

    bands(&C, &v, k0, k1);
    stages(&C, &g);
    blocks(&C, &g);
    sn_status ps = SN_OK;
    if (st && st->path)
        ps = path(&C, st->path);
    wires(&C, &v, w0, w1);
    comparators(&C, &g, k0, k1, CLS_PLAIN, th->comparator);
    comparators(&C, &g, k0, k1, CLS_NOSWAP, th->noswap);
    comparators(&C, &g, k0, k1, CLS_SWAP, th->swap);
    comparators(&C, &g, k0, k1, CLS_HIGHLIGHT, th->highlight);
    wire_labels(&C, &g, w0, w1);
    if (lo->zero_one && st)
        zero_one(&C, &g, w0, w1);
    block_labels(&C, &g);
    if (st && st->selected)
        selected(&C);
    sn_status rs = SN_OK;
    if (st && st->values && lo->n > 0)
        rs = values(&C, &g, w0, w1);
    notes(&C);
    if (visible)
        sn_scene_clip_pop(sc);
    if (sn_scene_status(sc) != SN_OK)
        return SN_ENOMEM;
    return rs != SN_OK ? rs : ps;
}

double sn_diagram_scene_estimate(const sn_layout *lo, bool with_values)
{
    /* per comparator a segment and two dots; per wire a line and a label;
     * per layer a band; per block an outline and a label (two) */
    double p = 3.0 * (double)lo->cmp_count + 2.0 * lo->n + (double)lo->layer_count +
               3.0 * (double)lo->block_count + (double)lo->stage_count + 16;
    if (with_values)
        p += 3.0 * lo->n;
    if (lo->zero_one)
        p += 2.0 * (double)lo->n * (double)(lo->layer_count + 1) + (double)lo->layer_count + 16;
    return p;
}
