/* scene_cairo.c - the cairo painter of a scene: one switch over the list.
 *
 * Invariant: a batch is a run of consecutive primitives of one kind and
 * one style index (text: also one size and weight) and is painted with one
 * cairo fill or stroke; a clip push or pop ends the batch before it. */
#include "render/scene_cairo.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"

#define SN_PI 3.14159265358979323846

typedef struct painter {
    cairo_t *cr;
    const sn_scene *sc;
    bool image;                /* an image surface (pixels) */
    double px;                 /* one device pixel in user units */
    double vx0, vy0, vx1, vy1; /* visible rectangle */
    /* the open batch */
    int kind; /* -1: none */
    uint32_t style;
    const sn_scene_style *st; /* its style */
    size_t pending;
    bool squares; /* dots as squares */
    /* text batch */
    cairo_glyph_t *glyphs;
    size_t glyph_count, glyph_cap;
    double text_size;
    int text_weight;
} painter;

static void source(cairo_t *cr, sn_rgba c)
{
    if (c.a >= 1.0)
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
    else
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a);
}

/* Stroke style: width (at least a device pixel with HAIRLINE_MIN), cap,
 * join, dashes (dropped under two device pixels a period). */
static void stroke_style(painter *P, const sn_scene_style *s)
{
    cairo_t *cr = P->cr;
    double w = s->width;
    if ((s->flags & SN_STYLE_HAIRLINE_MIN) && w < P->px)
        w = P->px;
    cairo_set_line_width(cr, w);
    cairo_set_line_cap(cr, s->cap == SN_CAP_ROUND    ? CAIRO_LINE_CAP_ROUND
                           : s->cap == SN_CAP_SQUARE ? CAIRO_LINE_CAP_SQUARE
                                                     : CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr,
                        s->join == SN_JOIN_ROUND ? CAIRO_LINE_JOIN_ROUND : CAIRO_LINE_JOIN_MITER);
    double period = s->dash_on + s->dash_off;
    if (period > 0 && period >= 2 * P->px) {
        double d[2] = {s->dash_on, s->dash_off};
        cairo_set_dash(cr, d, 2, 0);
    } else {
        cairo_set_dash(cr, NULL, 0, 0);
    }
    source(cr, s->stroke);
}

/* Paint the open batch and close it. */
static void flush(painter *P)
{
    cairo_t *cr = P->cr;
    if (P->kind < 0)
        return;
    const sn_scene_style *s = P->st;
    if (P->kind == SN_PRIM_TEXT) {
        if (P->glyph_count) {
            source(cr, s->fill);
            cairo_show_glyphs(cr, P->glyphs, (int)P->glyph_count);
        }
        P->glyph_count = 0;
    } else if (P->pending) {
        bool dot = P->kind == SN_PRIM_CIRCLE && s->stroke.a <= 0;
        if (dot && !P->squares) {
            /* zero-length strokes with round caps: one short "M x y L x y"
             * each in SVG/PDF, a tenth of an arc's size */
            sn_scene_style d = *s;
            d.stroke = s->fill;
            d.cap = SN_CAP_ROUND;
            d.flags = 0;
            d.dash_on = d.dash_off = 0;
            stroke_style(P, &d);
            cairo_set_line_width(cr, 2 * P->text_size); /* text_size: the dots' radius */
            cairo_stroke(cr);
        } else {
            bool fill = s->fill.a > 0, stroke = s->stroke.a > 0 && !dot;
            if (P->kind == SN_PRIM_LINE || (P->kind == SN_PRIM_POLY && !fill))
                fill = false, stroke = true;
            if (fill) {
                source(cr, s->fill);
                if (stroke)
                    cairo_fill_preserve(cr);
                else
                    cairo_fill(cr);
            }
            if (stroke) {
                stroke_style(P, s);
                cairo_stroke(cr);
            }
            cairo_new_path(cr);
        }
    }
    cairo_set_dash(cr, NULL, 0, 0);
    P->pending = 0;
    P->kind = -1;
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

/* Is p's bounding box (grown by g) inside the visible rectangle? */
static bool visible(const painter *P, const sn_prim *p, double g)
{
    double x0 = fmin(p->x0, p->x1) - g, x1 = fmax(p->x0, p->x1) + g;
    double y0 = fmin(p->y0, p->y1) - g, y1 = fmax(p->y0, p->y1) + g;
    return x1 >= P->vx0 && x0 <= P->vx1 && y1 >= P->vy0 && y0 <= P->vy1;
}

static void add_text(painter *P, const sn_prim *p)
{
    cairo_t *cr = P->cr;
    if (P->glyph_count == 0) {
        cairo_select_font_face(cr, SN_SCENE_FONT, CAIRO_FONT_SLANT_NORMAL,
                               p->weight == SN_FONT_BOLD ? CAIRO_FONT_WEIGHT_BOLD
                                                         : CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, p->size);
    }
    cairo_glyph_t *gs = NULL;
    int count = 0;
    const char *text = sn_scene_str(P->sc, p);
    if (cairo_scaled_font_text_to_glyphs(cairo_get_scaled_font(cr), p->x0, p->base, text, -1, &gs,
                                         &count, NULL, NULL, NULL) != CAIRO_STATUS_SUCCESS)
        return;
    if (count == 0) { /* an empty text: nothing to batch (and no buffer yet) */
        cairo_glyph_free(gs);
        return;
    }
    size_t need = P->glyph_count + (size_t)count, bytes;
    if (need > P->glyph_cap) {
        size_t cap = need * 2;
        cairo_glyph_t *ng = NULL;
        if (sn_mul_size(cap, sizeof *ng, &bytes))
            ng = sn_realloc(P->glyphs, bytes);
        if (!ng) { /* out of memory: this text on its own */
            source(cr, sn_scene_style_of(P->sc, p)->fill);
            cairo_show_glyphs(cr, gs, count);
            cairo_glyph_free(gs);
            return;
        }
        P->glyphs = ng;
        P->glyph_cap = cap;
    }
    memcpy(P->glyphs + P->glyph_count, gs, (size_t)count * sizeof *gs);
    P->glyph_count = need;
    cairo_glyph_free(gs);
}

sn_status sn_scene_paint(const sn_scene *sc, cairo_t *cr, const sn_rect *vis)
{
    if (sn_scene_status(sc) != SN_OK)
        return SN_EINVAL;
    double w, h;
    sn_scene_size(sc, &w, &h);
    painter P;
    memset(&P, 0, sizeof P);
    P.cr = cr;
    P.sc = sc;
    P.kind = -1;
    P.image = cairo_surface_get_type(cairo_get_target(cr)) == CAIRO_SURFACE_TYPE_IMAGE;
    P.vx0 = vis ? vis->x : -INFINITY;
    P.vy0 = vis ? vis->y : -INFINITY;
    P.vx1 = vis ? vis->x + vis->w : INFINITY;
    P.vy1 = vis ? vis->y + vis->h : INFINITY;
    cairo_save(cr);
    {
        double dx = 1.0, dy = 0.0;
        cairo_device_to_user_distance(cr, &dx, &dy);
        P.px = hypot(dx, dy);
    }
    /* advances as the metrics table has them (no rounding to pixels) */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
    size_t depth = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        const sn_scene_style *s = sn_scene_style_of(sc, p);
        if (p->kind == SN_PRIM_NOTE)
            continue;
        if (p->kind == SN_PRIM_CLIP_PUSH) {
            flush(&P);
            cairo_save(cr);
            cairo_rectangle(cr, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
            cairo_clip(cr);
            depth++;
            continue;
        }
        if (p->kind == SN_PRIM_CLIP_POP) {
            flush(&P);
            if (depth) {
                cairo_restore(cr);
                depth--;
            }
            continue;
        }
        double grow = s->width + (p->kind == SN_PRIM_CIRCLE ? p->r : 0);
        if (!visible(&P, p, grow))
            continue;
        if (p->kind == SN_PRIM_TEXT && p->size < 4 * P.px)
            continue;
        bool same = P.kind == p->kind && P.style == p->style && P.pending < SN_SCENE_BATCH;
        if (same && p->kind == SN_PRIM_TEXT)
            same = P.text_size == p->size && P.text_weight == p->weight;
        if (same && p->kind == SN_PRIM_CIRCLE)
            same = P.text_size == p->r;
        if (!same) {
            flush(&P);
            P.kind = p->kind;
            P.style = p->style;
            P.st = s;
            P.text_size = p->kind == SN_PRIM_CIRCLE ? p->r : p->size;
            P.text_weight = p->weight;
            P.squares = p->kind == SN_PRIM_CIRCLE && P.image && p->r < P.px;
            cairo_new_path(cr);
        }
        P.pending++;
        switch ((sn_prim_kind)p->kind) {
        case SN_PRIM_LINE:
            cairo_move_to(cr, p->x0, p->y0);
            cairo_line_to(cr, p->x1, p->y1);
            break;
        case SN_PRIM_RECT:
            if (p->r > 0 && p->r >= 1.5 * P.px && 2 * p->r <= fmin(p->x1 - p->x0, p->y1 - p->y0))
                rounded_rect(cr, p->x0, p->y0, p->x1, p->y1, p->r);
            else
                cairo_rectangle(cr, p->x0, p->y0, p->x1 - p->x0, p->y1 - p->y0);
            break;
        case SN_PRIM_POLY: {
            const sn_point *pt = sn_scene_points(sc, p);
            for (size_t j = 0; j < p->count; j++)
                if (j == 0)
                    cairo_move_to(cr, pt[j].x, pt[j].y);
                else
                    cairo_line_to(cr, pt[j].x, pt[j].y);
            if (p->r != 0)
                cairo_close_path(cr);
            break;
        }
        case SN_PRIM_CIRCLE:
            if (s->stroke.a > 0) {
                cairo_new_sub_path(cr);
                cairo_arc(cr, p->x0, p->y0, p->r, 0, 2 * SN_PI);
            } else if (P.squares) {
                double q = p->r * 0.886; /* half side: (2q)^2 = pi r^2 */
                cairo_rectangle(cr, p->x0 - q, p->y0 - q, 2 * q, 2 * q);
            } else {
                cairo_move_to(cr, p->x0, p->y0);
                cairo_line_to(cr, p->x0, p->y0);
            }
            break;
        case SN_PRIM_TEXT: add_text(&P, p); break;
        default: break;
        }
    }
    flush(&P);
    while (depth--)
        cairo_restore(cr);
    cairo_restore(cr);
    sn_free(P.glyphs);
    return cairo_status(cr) == CAIRO_STATUS_SUCCESS ? SN_OK : SN_EIO;
}
