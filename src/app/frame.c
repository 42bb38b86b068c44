/* frame.c - draw one frame of the window from the view.
 *
 * The network pane is drawn in two passes: the static network (wires,
 * comparators, the followed path) is rendered once into an image cached
 * for as long as network, camera and pane stay the same; every frame blits
 * it and redraws, with the same renderer, only the narrow strip that
 * changes with the step (the value column and the next layer). A 28 160-
 * comparator network then costs a blit plus one layer per frame. */
#include "frame.h"

#include <cairo-svg.h> /* for: cairo_svg_surface_create */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/library.h" /* for: sn_library_selected_outputs */
#include "render/draw.h"
#include "render/palette.h"

#define PI 3.14159265358979323846

struct sn_frame {
    sn_layout *layout;
    uint64_t layout_net;   /* net_id the layout was made for (0: none) */
    unsigned layout_parts; /* structure / zero_one the layout was made with */
    sn_zero_one zo;        /* profile of zo_net (zo.sorted NULL: none) */
    uint64_t zo_net;
    char zo_note[160];
    cairo_surface_t *cache;
    struct {
        uint64_t net, path_gen;
        double zoom, pan_x, pan_y, x, y, w, h;
        sn_theme_id theme;
        bool edit;
        long follow;
        uint32_t ones;
    } key;
    uint32_t *ranks; /* scratch [n] */
    uint32_t ranks_cap;
    double *xs; /* scratch [n]: each bar's x this frame */
    uint32_t xs_cap;
    /* the box the layout was fitted to (0: natural size) and its text floor */
    double fit_w, fit_h, min_font;
    /* where the last frame put this view: its area, HiDPI factor, UI font,
     * and whether it was a row of several (compact) */
    bool have_area, compact;
    sn_box area;
    double area_s, area_font;
    /* what the last frame showed, to redraw only what changes */
    uint64_t sig;  /* everything but the step, animation and status text */
    double text_floor; /* smallest text in this frame's panes (device px) */
    size_t shown_step, shown_anim_layer;
};

sn_frame *sn_frame_create(void)
{
    return sn_calloc(1, sizeof(sn_frame));
}

void sn_frame_destroy(sn_frame *f)
{
    if (!f)
        return;
    sn_layout_destroy(f->layout);
    if (f->cache)
        cairo_surface_destroy(f->cache);
    sn_free(f->ranks);
    sn_free(f->xs);
    sn_zero_one_free(&f->zo);
    sn_free(f);
}

const sn_layout *sn_frame_layout(sn_frame *f, const sn_view *v, sn_diag *diag)
{
    unsigned parts = (v->structure ? 1u : 0u) | (v->zero_one ? 2u : 0u);
    if (f->layout && f->layout_net == v->net_id && f->layout_parts == parts &&
        f->layout->n == v->n)
        return f->layout;
    sn_layout_destroy(f->layout);
    f->layout = NULL;
    f->layout_net = 0;
    f->key.net = 0; /* the cached picture belongs to the old layout */
    sn_layout_opts o;
    memset(&o, 0, sizeof o);
    o.scale = 1.0;
    o.show_values = true;
    o.value_step = -1; /* room at every step: stepping never moves the picture */
    o.structure = v->structure;
    /* no room for a chart the window does not count (the message line of
     * Z says why) */
    o.zero_one = v->zero_one && v->n <= SN_VIEW_ZERO_ONE_MAX_N;
    o.fit_w = f->fit_w;
    o.fit_h = f->fit_h;
    o.min_font = f->min_font;
    if (sn_layout_create(v->sched, &o, &f->layout, diag) != SN_OK) {
        f->layout = NULL;
        return NULL;
    }
    f->layout_net = v->net_id;
    f->layout_parts = parts;
    return f->layout;
}

/* Edit mode draws the wires on past the last layer: room to drop a new
 * comparator (a column after the last one), even on an empty network. */
static double edit_room(const sn_view *v, const sn_layout *lo)
{
    return v->edit ? 4 * lo->pitch : 0;
}

/* The 0-1 profile of v's network, computed once per network; NULL (and a
 * note for the chart) when it cannot be made. */
static const sn_zero_one *frame_zero_one(sn_frame *f, const sn_view *v)
{
    if (f->zo_net != v->net_id) {
        sn_zero_one_free(&f->zo);
        f->zo_net = v->net_id;
        f->zo_note[0] = '\0';
        sn_diag d;
        sn_diag_clear(&d);
        if (sn_zero_one_profile(v->sched, SN_VIEW_ZERO_ONE_MAX_N, 0, &f->zo, &d) != SN_OK)
            snprintf(f->zo_note, sizeof f->zo_note, "0-1 chart: %.140s", d.text);
    }
    return f->zo.sorted ? &f->zo : NULL;
}

/* Ones of the current input when it is a 0-1 input, else n / 2: the
 * markers show the inputs with as many ones as the one on screen. */
static uint32_t frame_ones(const sn_view *v)
{
    if (v->input_kind != SN_INPUT_BITS)
        return v->n / 2;
    uint32_t h = 0;
    for (uint32_t i = 0; i < v->n && v->bits[i]; i++)
        h += v->bits[i] == '1';
    return h;
}

/* A median network's selected outputs, ringed at the wires' ends. */
static void frame_selected(const sn_view *v, sn_draw_state *st, uint32_t sel[2])
{
    st->selected = sel;
    st->selected_count =
        sn_library_selected_outputs(sn_schedule_name(v->sched), sn_schedule_wires(v->sched), sel);
}

static void frame_zero_one_state(sn_frame *f, const sn_view *v, sn_draw_state *st)
{
    if (!v->zero_one || !f->layout || !f->layout->zero_one)
        return;
    st->zo = frame_zero_one(f, v);
    st->zo_ones = frame_ones(v);
    st->zo_note = f->zo_note;
}

static const sn_theme *theme_of(const sn_view *v)
{
    return sn_theme_get(v->theme);
}

/* UI text size for a window h device pixels high at HiDPI factor s. */
static double ui_font(const sn_view *v, double h, double s)
{
    return fmin(fmax(h / 42, 13 * s), 34 * s) * v->font_scale;
}

/* Panes inside area: one view over the whole window (status line at the
 * bottom), or a compact row of several (a caption line on top, the
 * network left and its bars right). */
static void panes_in(const sn_frame *f, const sn_view *v, sn_box area, double font, bool compact,
                     sn_panes *p)
{
    double pad = round(font * 0.6);
    double x = area.x, y = area.y, w = area.w, h = area.h;
    p->font = font;
    if (compact) {
        double cap = round(font * 1.7);
        p->status = (sn_box){x, y, w, cap};
        double body = fmax(h - cap - pad, 1);
        double net_w = round((w - 3 * pad) * 0.7);
        p->net = (sn_box){x + pad, y + cap, net_w, body};
        p->bars = (sn_box){x + 2 * pad + net_w, y + cap, w - 3 * pad - net_w, body};
    } else {
        /* edit mode adds a line: what the network is worth (size, verdict) */
        double status_h = round(font * (v->edit ? 4.55 : 3.2));
        p->status = (sn_box){x, y + h - status_h, w, status_h};
        double body = h - status_h - 2 * pad;
        /* the chart and the labels need the room more than the bars do */
        double net_h = round(body * (v->zero_one || v->structure ? 0.74 : 0.60));
        p->net = (sn_box){x + pad, y + pad, w - 2 * pad, net_h};
        p->bars = (sn_box){x + pad, y + pad + net_h + pad, w - 2 * pad, body - net_h - pad};
    }
    p->fitted = p->net;
    const sn_layout *lo = f->layout_net == v->net_id ? f->layout : NULL;
    if (lo && lo->width > 0 && lo->height > 0) {
        double lw = lo->width + edit_room(v, lo);
        double fit = fmin(p->net.w / lw, p->net.h / lo->height);
        double fw = lw * fit, fh = lo->height * fit;
        p->fitted =
            (sn_box){p->net.x + (p->net.w - fw) / 2, p->net.y + (p->net.h - fh) / 2, fw, fh};
    }
}

void sn_frame_panes(const sn_frame *f, const sn_view *v, double w, double h, double s, sn_panes *p)
{
    if (f->have_area)
        panes_in(f, v, f->area, f->area_font, f->compact, p);
    else
        panes_in(f, v, (sn_box){0, 0, w, h}, ui_font(v, h, s), false, p);
}

/* Text on the diagram never smaller than about 12 px at 720p, larger on
 * larger windows and with Ctrl +. */
static double label_floor(const sn_view *v, double win_h, double s)
{
    return round(fmax(12 * s, win_h / 60) * v->font_scale);
}

/* Fit the layout to the network pane (the drawing uses the width it has). */
static void fit_layout(sn_frame *f, const sn_view *v, const sn_panes *p, double floor_px)
{
    /* edit mode keeps the natural proportions: a comparator dragged in
     * lands where the grid of columns was, whatever the pane */
    double w = v->edit ? 0 : p->net.w, h = v->edit ? 0 : p->net.h;
    if (v->edit)
        floor_px = 0;
    if (fabs(w - f->fit_w) > 0.5 || fabs(h - f->fit_h) > 0.5 || floor_px != f->min_font) {
        f->fit_w = w;
        f->fit_h = h;
        f->min_font = floor_px;
        f->layout_net = 0; /* remade below */
    }
    sn_diag d;
    sn_frame_layout(f, v, &d);
}

/* Layout -> device transform of the network pane, and its inverse on the pane. */
static double net_transform(const sn_layout *lo, const sn_view *v, const sn_panes *p, double *ox,
                            double *oy)
{
    double z = p->fitted.w / (lo->width + edit_room(v, lo)) * v->zoom;
    *ox = p->fitted.x + v->pan_x * p->fitted.w;
    *oy = p->fitted.y + v->pan_y * p->fitted.h;
    return z;
}

static void set_rgb(cairo_t *cr, sn_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static void set_rgba(cairo_t *cr, sn_rgb c, double a)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, a);
}

static void font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, SN_DRAW_FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

static double text_w(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

/* Ease in and out on [0, 1]. */
static double ease(double t)
{
    t = fmin(1, fmax(0, t));
    return t * t * (3 - 2 * t);
}

/* Progress of the running animation in [0, 1] (1: settled). */
static double anim_t(const sn_view *v)
{
    if (v->anim_ms <= 0 || v->anim_total <= 0)
        return 1;
    return 1 - v->anim_ms / v->anim_total;
}

/* ---- the network pane */

static sn_status draw_net_cache(sn_frame *f, const sn_view *v, const sn_layout *lo,
                                const sn_panes *p, double z, double ox, double oy)
{
    int w = (int)ceil(p->net.w), h = (int)ceil(p->net.h);
    bool same = f->cache && f->key.net == v->net_id && f->key.zoom == v->zoom &&
                f->key.pan_x == v->pan_x && f->key.pan_y == v->pan_y && f->key.x == p->net.x &&
                f->key.y == p->net.y && f->key.w == p->net.w && f->key.h == p->net.h &&
                f->key.theme == v->theme && f->key.edit == v->edit && f->key.follow == v->follow &&
                (!v->zero_one || f->key.ones == frame_ones(v)) &&
                (v->follow < 0 || f->key.path_gen == v->generation);
    if (same)
        return SN_OK;
    if (!f->cache || cairo_image_surface_get_width(f->cache) != w ||
        cairo_image_surface_get_height(f->cache) != h) {
        if (f->cache)
            cairo_surface_destroy(f->cache);
        f->cache = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    }
    if (cairo_surface_status(f->cache) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(f->cache);
        f->cache = NULL;
        return SN_ENOMEM;
    }
    cairo_t *cr = cairo_create(f->cache);
    const sn_theme *th = theme_of(v);
    set_rgb(cr, th->background);
    cairo_paint(cr);
    cairo_translate(cr, ox - p->net.x, oy - p->net.y);
    cairo_scale(cr, z, z);
    sn_draw_state st;
    sn_draw_state_init(&st);
    st.step = lo->layer_count; /* no layer highlighted, no values */
    st.path = v->path;
    frame_zero_one_state(f, v, &st);
    uint32_t sel[2];
    frame_selected(v, &st, sel);
    sn_rect vis = {(p->net.x - ox) / z, (p->net.y - oy) / z, p->net.w / z, p->net.h / z};
    sn_status rs = sn_draw(cr, lo, th, &st, &vis);
    cairo_destroy(cr);
    f->key.net = v->net_id;
    f->key.zoom = v->zoom;
    f->key.pan_x = v->pan_x;
    f->key.pan_y = v->pan_y;
    f->key.x = p->net.x;
    f->key.y = p->net.y;
    f->key.w = p->net.w;
    f->key.h = p->net.h;
    f->key.theme = v->theme;
    f->key.edit = v->edit;
    f->key.follow = v->follow;
    f->key.path_gen = v->generation;
    f->key.ones = frame_ones(v);
    return rs;
}

/* The comparators of layer k that swapped, glowing while the step animates. */
static void draw_swap_glow(cairo_t *cr, const sn_view *v, const sn_layout *lo, double z)
{
    if (v->anim_ms <= 0 || v->anim_layer >= lo->layer_count)
        return;
    const uint8_t *sw = sn_view_swaps(v, v->anim_layer);
    if (!sw)
        return;
    const sn_layout_layer *L = &lo->layer[v->anim_layer];
    const sn_theme *th = theme_of(v);
    double a = 0.85 * (1 - ease(anim_t(v)));
    cairo_new_path(cr);
    for (size_t i = 0; i < L->count; i++) {
        if (!sw[i])
            continue;
        const sn_layout_cmp *c = &lo->cmp[L->first + i];
        cairo_move_to(cr, c->x, c->y0);
        cairo_line_to(cr, c->x, c->y1);
    }
    set_rgba(cr, th->swap, a);
    cairo_set_line_width(cr, fmax(lo->cmp_w * 3.5, 5 / z));
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_stroke(cr);
}

/* Mix of colours a and b: t = 0 gives a. */
static sn_rgb mix(sn_rgb a, sn_rgb b, double t)
{
    return (sn_rgb){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

/* A comparator drawn anew in colour c over whatever is there: its column
 * is cleared to the layer's background and the wires through it redrawn,
 * so a faded comparator really looks faded. */
static void redraw_cmp(cairo_t *cr, const sn_layout *lo, const sn_theme *th,
                       const sn_layout_cmp *c, sn_rgb col)
{
    double r = lo->dot_r * 1.3;
    sn_rgb bg = c->layer % 2 == 1 ? th->band : th->background;
    set_rgb(cr, bg);
    cairo_rectangle(cr, c->x - r, c->y0 - r, 2 * r, c->y1 - c->y0 + 2 * r);
    cairo_fill(cr);
    uint32_t w0, w1;
    sn_layout_wires_in(lo, c->y0, c->y1, &w0, &w1);
    cairo_new_path(cr);
    for (uint32_t i = w0; i < w1; i++) {
        if (lo->wire_y[i] < c->y0 - r || lo->wire_y[i] > c->y1 + r)
            continue;
        cairo_move_to(cr, c->x - r, lo->wire_y[i]);
        cairo_line_to(cr, c->x + r, lo->wire_y[i]);
    }
    set_rgb(cr, th->wire);
    cairo_set_line_width(cr, lo->wire_w);
    cairo_stroke(cr);
    set_rgb(cr, col);
    cairo_set_line_width(cr, lo->cmp_w);
    cairo_move_to(cr, c->x, c->y0);
    cairo_line_to(cr, c->x, c->y1);
    cairo_stroke(cr);
    double ya = lo->wire_y[c->a], yb = lo->wire_y[c->b];
    cairo_arc(cr, c->x, ya, lo->dot_r, 0, 2 * PI);
    cairo_fill(cr);
    if (c->a < c->b) {
        cairo_arc(cr, c->x, yb, lo->dot_r, 0, 2 * PI);
    } else { /* reversed: the arrow head at b, as the renderer draws it */
        double ah = 2.6 * lo->dot_r, aw = 1.25 * lo->dot_r, dir = yb < ya ? -1.0 : 1.0;
        cairo_move_to(cr, c->x, yb);
        cairo_line_to(cr, c->x - aw, yb - dir * ah);
        cairo_line_to(cr, c->x + aw, yb - dir * ah);
        cairo_close_path(cr);
    }
    cairo_fill(cr);
}

/* Edit mode on top of the network: redundant comparators faded, the
 * selected one haloed, and the comparator being dragged. */
static void draw_edit(cairo_t *cr, const sn_view *v, const sn_layout *lo, double z)
{
    if (!v->edit)
        return;
    const sn_theme *th = theme_of(v);
    double room = edit_room(v, lo);
    cairo_new_path(cr);
    for (uint32_t i = 0; i < lo->n; i++) {
        cairo_move_to(cr, lo->wire_x1, lo->wire_y[i]);
        cairo_line_to(cr, lo->wire_x1 + room - lo->pitch / 2, lo->wire_y[i]);
    }
    set_rgb(cr, mix(th->wire, th->background, 0.55));
    cairo_set_line_width(cr, lo->wire_w);
    double dash[2] = {3 * lo->scale, 3 * lo->scale};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    if (v->redundant_count && v->verdict_net == v->net_id)
        for (size_t i = 0; i < lo->cmp_count; i++)
            if (sn_view_is_redundant(v, i))
                redraw_cmp(cr, lo, th, &lo->cmp[i], mix(th->comparator, th->background, 0.7));
    if (v->sel_layer >= 0 && (size_t)v->sel_layer < lo->layer_count &&
        (size_t)v->sel_index < lo->layer[v->sel_layer].count) {
        const sn_layout_cmp *c = &lo->cmp[lo->layer[v->sel_layer].first + (size_t)v->sel_index];
        set_rgba(cr, th->highlight, 0.45);
        cairo_set_line_width(cr, fmax(lo->dot_r * 3.4, 8 / z));
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
        cairo_move_to(cr, c->x, c->y0);
        cairo_line_to(cr, c->x, c->y1);
        cairo_stroke(cr);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    }
    if (v->preview.on && v->preview.a < lo->n && v->preview.b < lo->n) {
        double ya = lo->wire_y[v->preview.a], yb = lo->wire_y[v->preview.b], x = v->preview.x;
        set_rgb(cr, th->highlight);
        cairo_set_line_width(cr, lo->cmp_w * 1.4);
        double pdash[2] = {4 * lo->scale, 3 * lo->scale};
        cairo_set_dash(cr, pdash, 2, 0);
        cairo_move_to(cr, x, ya);
        cairo_line_to(cr, x, yb);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_arc(cr, x, ya, lo->dot_r * 1.2, 0, 2 * PI);
        cairo_fill(cr);
        if (v->preview.a != v->preview.b)
            cairo_arc(cr, x, yb, lo->dot_r * 1.2, 0, 2 * PI);
        cairo_fill(cr);
    }
}

static sn_status draw_net(sn_frame *f, const sn_view *v, cairo_t *cr, const sn_panes *p)
{
    sn_diag d;
    const sn_layout *lo = sn_frame_layout(f, v, &d);
    if (!lo)
        return SN_ENOMEM;
    double ox, oy;
    double z = net_transform(lo, v, p, &ox, &oy);
    sn_status rs = draw_net_cache(f, v, lo, p, z, ox, oy);
    if (rs != SN_OK && !f->cache)
        return rs;
    cairo_save(cr);
    cairo_rectangle(cr, p->net.x, p->net.y, p->net.w, p->net.h);
    cairo_clip(cr);
    cairo_set_source_surface(cr, f->cache, p->net.x, p->net.y);
    cairo_paint(cr);

    cairo_translate(cr, ox, oy);
    cairo_scale(cr, z, z);
    size_t k = v->step;
    double x0 = lo->step_x[k] - lo->value_w / 2 - 2;
    double x1 = k < lo->layer_count ? lo->layer[k].x1 + 1 : lo->step_x[k] + lo->value_w / 2 + 2;
    double vy0 = (p->net.y - oy) / z, vy1 = (p->net.y + p->net.h - oy) / z;
    x0 = fmax(x0, (p->net.x - ox) / z);
    x1 = fmin(x1, (p->net.x + p->net.w - ox) / z);
    if (x1 > x0) {
        sn_draw_state st;
        sn_draw_state_init(&st);
        st.step = k;
        st.values = sn_view_values(v);
        st.type = v->type;
        st.swaps = sn_view_swaps(v, k);
        st.path = v->path;
        frame_zero_one_state(f, v, &st);
        uint32_t sel[2];
        frame_selected(v, &st, sel);
        st.chart_step = true;
        sn_rect strip = {x0, vy0, x1 - x0, vy1 - vy0};
        rs = sn_draw(cr, lo, theme_of(v), &st, &strip);
    }
    draw_swap_glow(cr, v, lo, z);
    draw_edit(cr, v, lo, z);
    cairo_restore(cr);
    return rs;
}

/* ---- the bars pane */

static sn_rgb error_red(const sn_view *v)
{
    return v->theme == SN_THEME_DARK ? (sn_rgb){1.0, 0.45, 0.4} : (sn_rgb){0.75, 0.1, 0.05};
}

static sn_rgb good_green(const sn_view *v)
{
    return v->theme == SN_THEME_DARK ? (sn_rgb){0.45, 0.85, 0.5} : (sn_rgb){0.1, 0.5, 0.15};
}


/* Value labels under the bars, travelling with them: never below the
 * text floor; where the bars are too narrow, every k-th one (and every
 * output out of order, in red). xs: each bar's x this frame, or NULL. */
static void draw_bar_labels(const sn_frame *f, const sn_view *v, cairo_t *cr, const sn_panes *p,
                            const double *xs, double base)
{
    const sn_theme *th = theme_of(v);
    const uint32_t *vals = sn_view_values(v);
    uint32_t n = v->n;
    double slot = p->bars.w / n;
    double fs = fmax(fmin(p->font, slot * 0.45), f->text_floor);
    font(cr, fs, true);
    char buf[32];
    double widest = 0;
    for (uint32_t i = 0; i < n; i++) {
        sn_key_format(v->type, vals[i], buf, sizeof buf);
        widest = fmax(widest, text_w(cr, buf));
    }
    uint32_t every = (uint32_t)fmax(1, ceil(widest * 1.2 / slot));
    for (uint32_t i = 0; i < n; i++) {
        if (i % every != 0 && !sn_view_out_of_order(v, i))
            continue;
        sn_key_format(v->type, vals[i], buf, sizeof buf);
        set_rgb(cr, sn_view_out_of_order(v, i) ? error_red(v) : th->text);
        double tw = text_w(cr, buf);
        double x = xs ? xs[i] : p->bars.x + i * slot;
        cairo_move_to(cr, x + (slot - tw) / 2, base + p->font * 1.15);
        cairo_show_text(cr, buf);
    }
}

/* The next layer's comparators as brackets under the bars, from y0 down
 * over conn_h: swapping ones solid, the others dashed. */
static void draw_bar_brackets(const sn_view *v, const sn_layout *lo, cairo_t *cr,
                              const sn_panes *p, double y0, double conn_h)
{
    const sn_theme *th = theme_of(v);
    double slot = p->bars.w / v->n;
    const sn_layout_layer *L = &lo->layer[v->step];
    const uint8_t *nsw = sn_view_swaps(v, v->step);
    double dy = (conn_h - p->font * 0.3) / (L->subcols ? L->subcols : 1);
    for (int pass = 0; pass < 2; pass++) {
        cairo_new_path(cr);
        for (size_t c = 0; c < L->count; c++) {
            bool s = nsw && nsw[c];
            if (s != (pass == 1))
                continue;
            const sn_layout_cmp *cm = &lo->cmp[L->first + c];
            double xa = p->bars.x + (cm->a + 0.5) * slot;
            double xb = p->bars.x + (cm->b + 0.5) * slot;
            double yb = y0 + dy * (cm->sub + 1);
            cairo_move_to(cr, xa, y0);
            cairo_line_to(cr, xa, yb);
            cairo_line_to(cr, xb, yb);
            cairo_line_to(cr, xb, y0);
        }
        set_rgb(cr, pass ? th->swap : th->noswap);
        cairo_set_line_width(cr, fmax(1, fmin(p->font * 0.16, slot * 0.3)));
        if (!pass && slot >= 6) {
            double dash[2] = {p->font * 0.25, p->font * 0.2};
            cairo_set_dash(cr, dash, 2, 0);
        }
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
}

static sn_status draw_bars(sn_frame *f, const sn_view *v, cairo_t *cr, const sn_panes *p)
{
    const sn_theme *th = theme_of(v);
    uint32_t n = v->n;
    if (n == 0)
        return SN_OK;
    if (f->ranks_cap < n) {
        sn_free(f->ranks);
        f->ranks = sn_calloc(n, sizeof *f->ranks);
        f->ranks_cap = f->ranks ? n : 0;
        if (!f->ranks)
            return SN_ENOMEM;
    }
    const uint32_t *vals = sn_view_values(v);
    sn_status rs = sn_draw_ranks(vals, n, v->type, f->ranks);
    if (rs != SN_OK)
        return rs;
    const sn_layout *lo = f->layout;
    double slot = p->bars.w / n;
    double gap = slot >= 6 ? fmax(1, round(slot * 0.12)) : 0;
    bool labels = p->bars.h > p->font * 4;
    double label_h = labels ? p->font * 1.5 : 0;
    /* connectors below the bars: depth from the layout's sub-columns */
    uint32_t subcols = (lo && v->step < lo->layer_count) ? lo->layer[v->step].subcols : 1;
    double conn_h = fmin(p->bars.h * 0.28, fmax(p->font * 0.8, 10.0 * subcols));
    double base = p->bars.y + p->bars.h - conn_h - label_h; /* bottom of the bars */
    double top = p->bars.y + p->font * 0.2;
    double den = n > 1 ? (double)(n - 1) : 1.0;
    double t = ease(anim_t(v));
    const uint8_t *sw = v->anim_ms > 0 ? sn_view_swaps(v, v->anim_layer) : NULL;

    cairo_save(cr);
    set_rgb(cr, th->band);
    cairo_rectangle(cr, p->bars.x, top, p->bars.w, base - top);
    cairo_fill(cr);

    /* previous position of each wire's element for the slide */
    double *from = NULL;
    if (sw && lo) {
        from = sn_calloc(n, sizeof *from);
        if (from) {
            for (uint32_t i = 0; i < n; i++)
                from[i] = i;
            const sn_layout_layer *L = &lo->layer[v->anim_layer];
            for (size_t c = 0; c < L->count; c++) {
                if (!sw[c])
                    continue;
                const sn_layout_cmp *cm = &lo->cmp[L->first + c];
                from[cm->a] = cm->b;
                from[cm->b] = cm->a;
            }
        }
    }
    if (f->xs_cap < n) {
        sn_free(f->xs);
        f->xs = sn_calloc(n, sizeof *f->xs);
        f->xs_cap = f->xs ? n : 0;
    }
    double *xs = f->xs; /* where each bar is this frame: its label goes with it */
    for (uint32_t i = 0; i < n; i++) {
        double frac = (f->ranks[i] + 1.0) / n;
        double bh = (base - top) * frac;
        double x = p->bars.x + i * slot;
        double lift = 0;
        if (from && from[i] != i) {
            double x_from = p->bars.x + from[i] * slot;
            x = x_from + (x - x_from) * t;
            lift = sin(t * PI) * p->font * 0.8;
        }
        if (xs)
            xs[i] = x;
        sn_rgb c = sn_palette_rank(f->ranks[i] / den);
        set_rgb(cr, c);
        cairo_rectangle(cr, x + gap / 2, base - bh - lift, fmax(slot - gap, 0.75), bh);
        cairo_fill(cr);
    }
    /* after the last layer: the outputs out of order, outlined in red */
    if (v->step == v->layers) {
        cairo_new_path(cr);
        for (uint32_t i = 0; i < n; i++) {
            if (!sn_view_out_of_order(v, i))
                continue;
            double bh = (base - top) * (f->ranks[i] + 1.0) / n;
            double x = p->bars.x + i * slot;
            cairo_rectangle(cr, x + gap / 2, base - bh, fmax(slot - gap, 0.75), bh);
        }
        set_rgb(cr, error_red(v));
        cairo_set_line_width(cr, fmax(2, fmin(p->font * 0.2, slot * 0.25)));
        cairo_stroke(cr);
    }
    /* the followed element */
    if (v->path) {
        uint32_t i = v->path[v->step];
        double x = xs ? xs[i] : p->bars.x + i * slot;
        double frac = (f->ranks[i] + 1.0) / n;
        double bh = (base - top) * frac;
        set_rgb(cr, th->highlight);
        cairo_set_line_width(cr, fmax(2, p->font * 0.15));
        cairo_rectangle(cr, x + gap / 2 - 1, base - bh - 1, fmax(slot - gap, 0.75) + 2, bh + 2);
        cairo_stroke(cr);
        cairo_move_to(cr, x + slot / 2, base - bh - p->font * 0.2);
        cairo_rel_line_to(cr, -p->font * 0.4, -p->font * 0.6);
        cairo_rel_line_to(cr, p->font * 0.8, 0);
        cairo_close_path(cr);
        cairo_fill(cr);
    }
    if (labels)
        draw_bar_labels(f, v, cr, p, xs, base);
    if (lo && v->step < lo->layer_count)
        draw_bar_brackets(v, lo, cr, p, base + label_h + p->font * 0.15, conn_h);
    sn_free(from);
    cairo_restore(cr);
    return SN_OK;
}

/* ---- status line and help */



/* Edit mode's line: an EDIT tag, size and depth against the best known,
 * and the live verdict (green: sorts, red: does not). */
static void draw_edit_status(const sn_view *v, cairo_t *cr, const sn_panes *p, double pad,
                             double y)
{
    const sn_theme *th = theme_of(v);
    char size[160], verdict[200];
    font(cr, p->font * 0.85, true);
    const char *tag = "EDIT";
    double tw = text_w(cr, tag), th_ = p->font * 1.1;
    set_rgb(cr, th->highlight);
    cairo_rectangle(cr, pad, y - p->font * 0.92, tw + p->font * 0.7, th_);
    cairo_fill(cr);
    set_rgb(cr, sn_palette_text_on(th->highlight));
    cairo_move_to(cr, pad + p->font * 0.35, y);
    cairo_show_text(cr, tag);
    double x = pad + tw + p->font * 1.4;
    font(cr, p->font, false);
    set_rgb(cr, th->text);
    sn_view_size_text(v, size, sizeof size);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, size);
    x += text_w(cr, size) + p->font * 1.5;
    sn_view_verdict_text(v, verdict, sizeof verdict);
    sn_rgb green = good_green(v);
    font(cr, p->font, true);
    if (v->verdict == SN_VERDICT_SORTS)
        set_rgb(cr, green);
    else if (v->verdict == SN_VERDICT_FAILS)
        set_rgb(cr, error_red(v));
    else
        set_rgb(cr, th->wire);
    cairo_save(cr);
    cairo_rectangle(cr, x, p->status.y, p->status.w - x - pad, p->status.h);
    cairo_clip(cr);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, verdict);
    cairo_restore(cr);
}

/* One piece of a status line: its long and short text (short NULL: it
 * has none), colour and weight. */
typedef struct status_item {
    const char *l, *s;
    sn_rgb c;
    bool bold;
} status_item;

/* Draw items left to right from x and `right` right-aligned at x + maxw,
 * all on baseline y, shortening until nothing overlaps: first the right
 * part to its short form, then the items from the last to the second,
 * then the right part goes, then items from the last; what still does not
 * fit is clipped. */
static void draw_items(cairo_t *cr, double x, double y, double maxw, double fs, status_item *it,
                       size_t n, const status_item *right)
{
    enum { MAXI = 8 };
    bool shrt[MAXI] = {false}, drop[MAXI] = {false};
    int rmode = right && right->l && right->l[0] ? 0 : 2; /* 0 long, 1 short, 2 none */
    double gap = fs * 1.1;
    if (n > MAXI)
        n = MAXI;
    for (int round_ = 0;; round_++) {
        double total = 0;
        for (size_t i = 0; i < n; i++) {
            if (drop[i] || !it[i].l || !it[i].l[0])
                continue;
            font(cr, fs, it[i].bold);
            total += text_w(cr, shrt[i] && it[i].s ? it[i].s : it[i].l) + gap;
        }
        if (rmode < 2) {
            font(cr, fs, right->bold);
            total += text_w(cr, rmode == 1 && right->s ? right->s : right->l) + gap;
        }
        if (total <= maxw + gap)
            break;
        /* the next reduction, in the order described above */
        if (rmode == 0 && right->s) {
            rmode = 1;
            continue;
        }
        bool done = false;
        for (size_t i = n; i-- > 1 && !done;)
            if (!shrt[i] && !drop[i] && it[i].s) {
                shrt[i] = true;
                done = true;
            }
        if (done)
            continue;
        if (rmode < 2) {
            rmode = 2;
            continue;
        }
        for (size_t i = n; i-- > 1 && !done;)
            if (!drop[i] && it[i].l && it[i].l[0]) {
                drop[i] = true;
                done = true;
            }
        if (!done)
            break; /* one item left: clipped below */
    }
    cairo_save(cr);
    cairo_rectangle(cr, x, y - fs * 1.3, maxw, fs * 2);
    cairo_clip(cr);
    double rx = x + maxw;
    if (rmode < 2) {
        const char *t = rmode == 1 && right->s ? right->s : right->l;
        font(cr, fs, right->bold);
        rx -= text_w(cr, t);
        set_rgb(cr, right->c);
        cairo_move_to(cr, rx, y);
        cairo_show_text(cr, t);
        rx -= gap;
    }
    cairo_rectangle(cr, x, y - fs * 1.3, rx - x, fs * 2);
    cairo_clip(cr);
    for (size_t i = 0; i < n; i++) {
        if (drop[i] || !it[i].l || !it[i].l[0])
            continue;
        const char *t = shrt[i] && it[i].s ? it[i].s : it[i].l;
        font(cr, fs, it[i].bold);
        set_rgb(cr, it[i].c);
        cairo_move_to(cr, x, y);
        cairo_show_text(cr, t);
        x += text_w(cr, t) + gap;
    }
    cairo_restore(cr);
}

/* The verdict after the last layer: green "sorted", red "NOT sorted". */
static sn_rgb result_colour(const sn_view *v, const sn_view_status *st)
{
    return strcmp(st->result, "sorted") == 0 ? good_green(v) : error_red(v);
}

/* One view's numbers on one line: name, layer, counts, [input], result,
 * and the OpenCL verdict on the right. */
static void draw_view_line(const sn_view *v, cairo_t *cr, double x, double y, double maxw,
                           double fs, bool with_input)
{
    const sn_theme *th = theme_of(v);
    sn_view_status st;
    sn_view_status_parts(v, &st);
    char name[sizeof v->name + 2];
    snprintf(name, sizeof name, "%s%s", v->name, sn_view_unsaved(v) ? "*" : "");
    char nline[32];
    snprintf(nline, sizeof nline, "n = %u", v->n);
    status_item it[6] = {
        {name, NULL, th->comparator, true},
        {st.layer, st.layer_short, th->text, false},
        {st.counts, st.counts_short, th->text, false},
        {with_input ? st.input : "", with_input ? st.input_short : NULL, th->text, false},
        {st.result, NULL, result_colour(v, &st), true},
        {nline, NULL, th->text, false},
    };
    status_item right = {st.gpu, st.gpu_short[0] ? st.gpu_short : NULL, th->wire, false};
    if (v->gpu_generation && v->gpu_generation == v->data_generation && !v->gpu.identical)
        right.c = error_red(v);
    draw_items(cr, x, y, maxw, fs, it, with_input ? 6 : 5, &right);
}

/* The line under it: the message (red for errors) and, on the right,
 * playback and the help key (and a lesson's progress). */
static void draw_message_line(const sn_view *v, cairo_t *cr, double x, double y, double maxw,
                              double fs, const char *progress, bool playing)
{
    const sn_theme *th = theme_of(v);
    char right[160], right_s[80];
    snprintf(right, sizeof right, "%s%s%s   %g layers/s    %sH: help",
             progress ? progress : "", progress ? "    " : "", playing ? "playing" : "paused",
             sn_view_speed(v), v->edit ? "E: end editing   " : "");
    snprintf(right_s, sizeof right_s, "%s%sH: help", progress ? progress : "",
             progress ? "   " : "");
    status_item msg = {v->message, NULL, v->message_error ? error_red(v) : th->text, false};
    status_item r = {right, right_s, th->wire, false};
    draw_items(cr, x, y, maxw, fs, &msg, 1, &r);
}

static void draw_status(const sn_view *v, cairo_t *cr, const sn_panes *p, const char *progress)
{
    const sn_theme *th = theme_of(v);
    set_rgb(cr, th->band);
    cairo_rectangle(cr, p->status.x, p->status.y, p->status.w, p->status.h);
    cairo_fill(cr);
    double pad = p->font * 0.6;
    double y1 = p->status.y + p->font * 1.3, y2 = p->status.y + p->font * 2.65;
    if (v->edit) {
        draw_edit_status(v, cr, p, pad, y2);
        y2 += p->font * 1.35;
    }
    double x = p->status.x + pad, w = p->status.w - 2 * pad;
    draw_view_line(v, cr, x, y1, w, p->font, true);
    draw_message_line(v, cr, x, y2, w, p->font * 0.9, progress, v->playing);
}

static const char *const help_lines[][2] = {
    {"Right / Left", "one layer forward / back (lesson: steps)"},
    {"PgDn / PgUp", "the same (a clicker); Down / Up: layers"},
    {"Space", "play / pause"},
    {"+ / -", "faster / slower"},
    {"Home / End", "first / last layer"},
    {"R", "new random input"},
    {"V", "reversed input"},
    {"0", "random 0-1 input (0-1 principle)"},
    {"B", "counterexample, if it does not sort"},
    {"1 - 6", "bitonic, odd-even merge, transposition,"},
    {"", "pairwise, bubble, insertion"},
    {"7", "best known for this n (again: by depth)"},
    {"[ / ]", "n halved / doubled (best known: n -/+ 1)"},
    {"O", "reload the network file"},
    {"S / P", "save SVG / PNG screenshot"},
    {"G", "run it on OpenCL (GPU or CPU): identical?"},
    {NULL, NULL}, /* the second column starts here when the window is wide */
    {"W", "why it sorts: the structure blocks"},
    {"Z", "0-1 principle: sorted 0-1 inputs, wire states"},
    {"T", "light / dark / high-contrast theme"},
    {"Ctrl + / -", "all text larger / smaller"},
    {"M", "sound: a tone per comparison"},
    {"F11", "full screen"},
    {"Click", "follow a value (Esc stops)"},
    {"Wheel / drag", "zoom / pan; double-click fits"},
    {"E", "edit mode: build the network by hand"},
    {"  drag", "wire to wire adds a comparator (upward:"},
    {"", "reversed); drag one to move it"},
    {"  click, Tab", "select a comparator; Delete removes it"},
    {"  Ctrl+Z / Y", "undo / redo      Ctrl+S: save the network"},
    {"H, F1, ?", "this help      Q: quit"},
};

#define HELP_LINES (sizeof help_lines / sizeof help_lines[0])

/* Widths of the key and description columns of help_lines[from, to). */
static void help_widths(cairo_t *cr, double fs, size_t from, size_t to, double *kw, double *dw)
{
    *kw = *dw = 0;
    for (size_t i = from; i < to; i++) {
        if (!help_lines[i][0])
            continue;
        font(cr, fs, true);
        *kw = fmax(*kw, text_w(cr, help_lines[i][0]));
        font(cr, fs, false);
        *dw = fmax(*dw, text_w(cr, help_lines[i][1]));
    }
}

/* help_lines[from, to) as rows from (x, y), keys then descriptions. */
static void help_rows(const sn_theme *th, cairo_t *cr, double fs, double lh, size_t from,
                      size_t to, double x, double y, double kw)
{
    double row = 0;
    for (size_t i = from; i < to; i++) {
        if (!help_lines[i][0])
            continue;
        double yy = y + lh * row++;
        font(cr, fs, true);
        set_rgb(cr, th->swap);
        cairo_move_to(cr, x, yy);
        cairo_show_text(cr, help_lines[i][0]);
        font(cr, fs, false);
        set_rgb(cr, th->comparator);
        cairo_move_to(cr, x + kw + fs, yy);
        cairo_show_text(cr, help_lines[i][1]);
    }
}

/* The keys in a box over the frame: two columns where the window is wide
 * enough for them at a readable size, else one. */
static void draw_help(const sn_view *v, cairo_t *cr, double w, double h, const sn_panes *p)
{
    const sn_theme *th = theme_of(v);
    size_t split = 0;
    while (split < HELP_LINES && help_lines[split][0])
        split++;
    size_t rows1 = split, rows2 = HELP_LINES - split - 1;
    size_t tall = rows1 > rows2 ? rows1 : rows2;
    double fs = fmin(p->font * 1.05, (h * 0.8) / ((double)tall + 3) / 1.45);
    double kw1, dw1, kw2, dw2;
    help_widths(cr, fs, 0, split, &kw1, &dw1);
    help_widths(cr, fs, split + 1, HELP_LINES, &kw2, &dw2);
    double cw1 = kw1 + dw1 + fs, cw2 = kw2 + dw2 + fs;
    bool two = cw1 + cw2 + 6 * fs <= w * 0.96;
    if (!two) {
        tall = rows1 + rows2;
        fs = fmin(p->font * 1.05, (h * 0.8) / ((double)tall + 3) / 1.45);
        help_widths(cr, fs, 0, HELP_LINES, &kw1, &dw1);
        cw1 = kw1 + dw1 + fs;
    }
    double lh = fs * 1.45;
    double bw = two ? cw1 + cw2 + 6 * fs : cw1 + 3 * fs, bh = lh * ((double)tall + 2);
    double bx = (w - bw) / 2, by = (h - bh) / 2;
    set_rgba(cr, th->background, 0.6);
    cairo_paint(cr);
    set_rgba(cr, th->background, 0.97);
    cairo_rectangle(cr, bx, by, bw, bh);
    cairo_fill_preserve(cr);
    set_rgb(cr, th->stage);
    cairo_set_line_width(cr, 2);
    cairo_stroke(cr);
    font(cr, fs * 1.1, true);
    set_rgb(cr, th->comparator);
    cairo_move_to(cr, bx + 1.5 * fs, by + lh * 1.1);
    cairo_show_text(cr, "Keys");
    double y = by + lh * 2.1;
    help_rows(th, cr, fs, lh, 0, two ? split : HELP_LINES, bx + 1.5 * fs, y, kw1);
    if (two)
        help_rows(th, cr, fs, lh, split + 1, HELP_LINES, bx + 4.5 * fs + cw1, y, kw2);
}

/* Words of text wrapped to lines no wider than maxw at the current font:
 * the start and length of each line, at most `max` lines. */
static size_t wrap(cairo_t *cr, const char *text, double maxw, size_t *start, size_t *len,
                   size_t max)
{
    size_t lines = 0, n = strlen(text), i = 0;
    char buf[1024];
    while (i < n && lines < max) {
        while (i < n && text[i] == ' ')
            i++;
        size_t best = 0, j = i;
        while (j <= n) {
            size_t e = j;
            while (e < n && text[e] != ' ')
                e++;
            size_t l = e - i < sizeof buf - 1 ? e - i : sizeof buf - 1;
            memcpy(buf, text + i, l);
            buf[l] = '\0';
            if (best && text_w(cr, buf) > maxw)
                break;
            best = l;
            j = e + 1;
            if (e >= n)
                break;
        }
        if (!best)
            break;
        start[lines] = i;
        len[lines++] = best;
        i += best;
    }
    return lines;
}

/* A lesson's caption in large type across the top: its height, drawing
 * only when draw is set. */
static double caption_band(const sn_view *v, cairo_t *cr, const sn_frame_extra *x, double w,
                           double fs, bool draw)
{
    if (!x || !x->caption || !x->caption[0])
        return 0;
    const sn_theme *th = theme_of(v);
    double pad = round(fs * 0.7), big = fs * 1.45;
    size_t st[6], ln[6];
    font(cr, big, false);
    size_t lines = wrap(cr, x->caption, w - 2 * pad, st, ln, 6);
    double title_h = x->title && x->title[0] ? big * 1.35 : 0;
    double h = round(pad * 1.4 + title_h + (double)lines * big * 1.3 + pad * 0.6);
    if (!draw)
        return h;
    set_rgb(cr, th->band);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_fill(cr);
    set_rgb(cr, th->highlight);
    cairo_rectangle(cr, 0, h - 3, w, 3);
    cairo_fill(cr);
    double y = pad + big;
    if (title_h > 0) {
        font(cr, big, true);
        set_rgb(cr, th->comparator);
        cairo_move_to(cr, pad, y);
        cairo_show_text(cr, x->title);
        y += title_h;
    }
    font(cr, big, false);
    set_rgb(cr, th->text);
    char buf[1024];
    for (size_t i = 0; i < lines; i++) {
        memcpy(buf, x->caption + st[i], ln[i]);
        buf[ln[i]] = '\0';
        cairo_move_to(cr, pad, y);
        cairo_show_text(cr, buf);
        y += big * 1.3;
    }
    return h;
}

/* One view in area: the panes, the layout fitted to its network pane,
 * then network, bars and (not compact) the status line. */
static sn_status draw_view_in(sn_frame *f, const sn_view *v, cairo_t *cr, sn_box area,
                              double win_h, double s, bool compact, const char *progress)
{
    double fs = ui_font(v, win_h, s);
    f->have_area = true;
    f->area = area;
    f->area_s = s;
    f->area_font = fs;
    f->compact = compact;
    sn_panes p;
    panes_in(f, v, area, fs, compact, &p);
    f->text_floor = label_floor(v, win_h, s);
    fit_layout(f, v, &p, f->text_floor);
    panes_in(f, v, area, fs, compact, &p); /* fitted box of the new layout */
    sn_status rs = f->layout ? draw_net(f, v, cr, &p) : SN_ENOMEM;
    sn_status rb = draw_bars(f, v, cr, &p);
    if (compact) {
        double pad = fs * 0.6;
        draw_view_line(v, cr, area.x + pad, area.y + fs * 1.25, area.w - 2 * pad, fs, false);
    } else {
        draw_status(v, cr, &p, progress);
    }
    return rs != SN_OK ? rs : rb;
}

/* A fingerprint of what a view shows apart from the step, its animation
 * and the status text: when it is unchanged, only those need drawing. */
static uint64_t view_sig(const sn_view *v, sn_box area, const sn_frame_extra *x)
{
    double parts[] = {(double)v->net_id, (double)v->generation, (double)v->data_generation,
                      v->zoom, v->pan_x, v->pan_y, (double)v->theme, v->font_scale,
                      (double)v->edit, (double)v->follow, (double)v->help, (double)v->structure,
                      (double)v->zero_one, (double)v->sel_layer, (double)v->sel_index,
                      (double)v->preview.on, v->preview.x, (double)v->verdict,
                      (double)v->n, area.x, area.y, area.w, area.h,
                      (double)(uintptr_t)(x ? x->caption : NULL)};
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)parts;
    for (size_t i = 0; i < sizeof parts; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* The boxes of view v that change when only its step (and animation)
 * changed since the frame shown: its status line, bars, and the strip of
 * the network pane around the old and the new step. */
static size_t changed_boxes(sn_frame *f, const sn_view *v, sn_box *out)
{
    sn_panes p;
    panes_in(f, v, f->area, f->area_font, f->compact, &p);
    size_t n = 0;
    out[n++] = p.status;
    out[n++] = (sn_box){p.bars.x - 2, p.bars.y - 2, p.bars.w + 4, p.bars.h + 4};
    const sn_layout *lo = f->layout;
    if (!lo)
        return n;
    double ox, oy;
    double z = net_transform(lo, v, &p, &ox, &oy);
    size_t ks[4] = {f->shown_step, v->step, f->shown_anim_layer, v->anim_layer};
    double x0 = INFINITY, x1 = -INFINITY;
    for (int i = 0; i < 4; i++) {
        size_t k = ks[i] <= lo->layer_count ? ks[i] : lo->layer_count;
        x0 = fmin(x0, lo->step_x[k] - lo->value_w / 2 - 4 * lo->dot_r);
        double right = k < lo->layer_count ? lo->layer[k].x1 : lo->step_x[k] + lo->value_w / 2;
        x1 = fmax(x1, right + 4 * lo->dot_r);
    }
    double dx0 = fmax(p.net.x, ox + x0 * z - 3), dx1 = fmin(p.net.x + p.net.w, ox + x1 * z + 3);
    if (dx1 > dx0)
        out[n++] = (sn_box){floor(dx0), p.net.y, ceil(dx1 - dx0) + 1, p.net.h};
    return n;
}

sn_status sn_frame_draw_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                              cairo_t *cr, double w, double h, double s, sn_box *dirty,
                              size_t *ndirty)
{
    const sn_view *v0 = &g->view[0];
    const sn_theme *th = theme_of(v0);
    double fs = ui_font(v0, h, s);
    cairo_save(cr);
    /* only what changed since the last frame, when that is just the step */
    size_t nd = 0;
    bool partial = dirty && ndirty && !v0->help;
    for (size_t i = 0; i < g->count && partial; i++) {
        sn_frame *f = frames[i];
        partial = f->have_area && f->sig == view_sig(&g->view[i], f->area, x) && f->layout &&
                  f->layout_net == g->view[i].net_id && nd + 4 <= SN_FRAME_DIRTY_MAX - 1;
        if (partial)
            nd += changed_boxes(f, &g->view[i], dirty + nd);
    }
    if (partial && g->count > 1) { /* the common status line */
        double status_h = round(fs * 3.2);
        dirty[nd++] = (sn_box){0, h - status_h, w, status_h};
    }
    if (partial) {
        for (size_t i = 0; i < nd; i++)
            cairo_rectangle(cr, dirty[i].x, dirty[i].y, dirty[i].w, dirty[i].h);
        cairo_clip(cr);
        *ndirty = nd;
    } else if (ndirty) {
        *ndirty = 0; /* everything */
    }
    set_rgb(cr, th->background);
    cairo_paint(cr);
    double top = caption_band(v0, cr, x, w, fs, true);
    const char *progress = x ? x->progress : NULL;
    sn_status rs = SN_OK;
    if (g->count == 1) {
        rs = draw_view_in(frames[0], v0, cr, (sn_box){0, top, w, h - top}, h, s, false, progress);
    } else {
        /* rows of networks, then one status line for all of them */
        double status_h = round(fs * 3.2), pad = round(fs * 0.6);
        double row_h = (h - top - status_h) / (double)g->count;
        for (size_t i = 0; i < g->count; i++) {
            sn_box area = {0, top + row_h * (double)i, w, row_h};
            if (i > 0) {
                set_rgb(cr, th->stage);
                cairo_rectangle(cr, pad, area.y - 1, w - 2 * pad, 1);
                cairo_fill(cr);
            }
            sn_status r = draw_view_in(frames[i], &g->view[i], cr, area, h, s, true, NULL);
            if (rs == SN_OK)
                rs = r;
        }
        sn_box sb = {0, h - status_h, w, status_h};
        set_rgb(cr, th->band);
        cairo_rectangle(cr, sb.x, sb.y, sb.w, sb.h);
        cairo_fill(cr);
        sn_view_status st;
        sn_view_status_parts(v0, &st);
        char layer[64], layer_s[32], nline[32];
        size_t L = sn_group_layers(g);
        if (g->step == 0)
            snprintf(layer, sizeof layer, "input, up to %zu layers to go", L);
        else
            snprintf(layer, sizeof layer, "after layer %zu of up to %zu", g->step, L);
        snprintf(layer_s, sizeof layer_s, "%zu/%zu", g->step, L);
        snprintf(nline, sizeof nline, "n = %u", v0->n);
        status_item it[4] = {
            {"same input:", NULL, th->comparator, true},
            {st.input, st.input_short, th->text, false},
            {layer, layer_s, th->text, false},
            {nline, NULL, th->text, false},
        };
        draw_items(cr, pad, sb.y + fs * 1.3, w - 2 * pad, fs, it, 4, NULL);
        draw_message_line(v0, cr, pad, sb.y + fs * 2.65, w - 2 * pad, fs * 0.9, progress,
                          g->playing);
    }
    if (v0->help) {
        sn_panes p;
        panes_in(frames[0], v0, (sn_box){0, 0, w, h}, fs, false, &p);
        draw_help(v0, cr, w, h, &p);
    }
    for (size_t i = 0; i < g->count; i++) {
        frames[i]->sig = view_sig(&g->view[i], frames[i]->area, x);
        frames[i]->shown_step = g->view[i].step;
        frames[i]->shown_anim_layer = g->view[i].anim_layer;
    }
    cairo_restore(cr);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        return SN_EIO;
    return rs;
}

sn_status sn_frame_draw(sn_frame *f, const sn_view *v, cairo_t *cr, double w, double h, double s)
{
    const sn_theme *th = theme_of(v);
    cairo_save(cr);
    set_rgb(cr, th->background);
    cairo_paint(cr);
    sn_status rs = draw_view_in(f, v, cr, (sn_box){0, 0, w, h}, h, s, false, NULL);
    if (v->help) {
        sn_panes p;
        panes_in(f, v, (sn_box){0, 0, w, h}, ui_font(v, h, s), false, &p);
        draw_help(v, cr, w, h, &p);
    }
    cairo_restore(cr);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        return SN_EIO;
    return rs;
}

bool sn_frame_pick(sn_frame *f, const sn_view *v, double w, double h, double s, double x, double y,
                   uint32_t *wire, size_t *step)
{
    sn_diag d;
    const sn_layout *lo = sn_frame_layout(f, v, &d);
    sn_panes p;
    sn_frame_panes(f, v, w, h, s, &p);
    if (v->n == 0)
        return false;
    if (x >= p.bars.x && x < p.bars.x + p.bars.w && y >= p.bars.y && y < p.bars.y + p.bars.h) {
        double i = floor((x - p.bars.x) / (p.bars.w / v->n));
        if (i < 0 || i >= v->n)
            return false;
        *wire = (uint32_t)i;
        *step = v->step;
        return true;
    }
    if (!lo || x < p.net.x || x >= p.net.x + p.net.w || y < p.net.y || y >= p.net.y + p.net.h)
        return false;
    double ox, oy;
    double z = net_transform(lo, v, &p, &ox, &oy);
    double lx = (x - ox) / z, ly = (y - oy) / z;
    uint32_t w0, w1;
    sn_layout_wires_in(lo, ly, ly, &w0, &w1);
    if (w0 >= w1)
        return false;
    uint32_t best = w0;
    for (uint32_t i = w0; i < w1; i++)
        if (fabs(lo->wire_y[i] - ly) < fabs(lo->wire_y[best] - ly))
            best = i;
    if (fabs(lo->wire_y[best] - ly) > lo->pitch / 2)
        return false;
    /* the values that wire holds at x: those after the last layer left of x */
    size_t k = 0;
    while (k < lo->layer_count && lo->layer[k].x1 <= lx)
        k++;
    *wire = best;
    *step = k;
    return true;
}

bool sn_frame_edit_hit(sn_frame *f, const sn_view *v, double w, double h, double s, double x,
                       double y, sn_frame_hit *hit)
{
    sn_diag d;
    const sn_layout *lo = sn_frame_layout(f, v, &d);
    sn_panes p;
    sn_frame_panes(f, v, w, h, s, &p);
    memset(hit, 0, sizeof *hit);
    hit->layer = hit->index = -1;
    if (!lo || v->n == 0 || x < p.net.x || x >= p.net.x + p.net.w || y < p.net.y ||
        y >= p.net.y + p.net.h)
        return false;
    double ox, oy;
    double z = net_transform(lo, v, &p, &ox, &oy);
    double lx = (x - ox) / z, ly = (y - oy) / z;
    hit->x = lx;
    uint32_t best = 0;
    for (uint32_t i = 1; i < lo->n; i++)
        if (fabs(lo->wire_y[i] - ly) < fabs(lo->wire_y[best] - ly))
            best = i;
    hit->wire = best;
    hit->wire_hit = fabs(lo->wire_y[best] - ly) <= lo->pitch / 2;
    size_t k = 0;
    while (k < lo->layer_count && lo->layer[k].x1 <= lx)
        k++;
    hit->col = k;
    /* a comparator within a few pixels, never farther than half a sub-column */
    double tol = fmin(fmax(6 / z, lo->cmp_w * 2), SN_LAYOUT_SUBCOL * lo->scale / 2);
    long i = sn_layout_hit(lo, lx, ly, tol);
    if (i >= 0) {
        hit->layer = (long)lo->cmp[i].layer;
        hit->index = i - (long)lo->layer[lo->cmp[i].layer].first;
    }
    return true;
}

sn_status sn_frame_save_svg(sn_frame *f, const sn_view *v, const char *path, sn_diag *diag)
{
    const sn_layout *lo = sn_frame_layout(f, v, diag);
    if (!lo)
        return SN_ENOMEM;
    cairo_surface_t *s = cairo_svg_surface_create(path, lo->width, lo->height);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(s);
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: cannot create the SVG file", path);
    }
    cairo_t *cr = cairo_create(s);
    sn_draw_state st;
    sn_draw_state_init(&st);
    st.step = v->step;
    st.values = sn_view_values(v);
    st.type = v->type;
    st.swaps = sn_view_swaps(v, v->step);
    st.path = v->path;
    frame_zero_one_state(f, v, &st);
    uint32_t sel[2];
    frame_selected(v, &st, sel);
    st.chart_step = true;
    sn_status rs = sn_draw(cr, lo, theme_of(v), &st, NULL);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    cairo_status_t cs = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (cs != CAIRO_STATUS_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", path, cairo_status_to_string(cs));
    return rs;
}

bool sn_frame_area(const sn_frame *f, sn_box *area)
{
    if (!f->have_area)
        return false;
    *area = f->area;
    return true;
}
