/* frame.c - paint one frame of the window from the view: the scene that
 * frame_scene.c builds (bars, status, captions, help, what the window adds
 * on the network) and the network diagram (render/diagram.c), both painted
 * by the scene painter. Nothing is placed here.
 *
 * The network pane is painted in two passes: the static network (wires,
 * comparators, the followed path) is rendered once into an image cached
 * for as long as everything it shows stays the same; every frame blits it
 * and paints, from the same diagram builder, only the narrow strip that
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
#include "render/diagram.h"
#include "render/draw.h"
#include "render/palette.h"
#include "render/scene_cairo.h"

/* Edit mode reserves room for this many new columns, and rescales only
 * when they are used up. */
#define SN_FRAME_EDIT_COLUMNS 2

struct sn_frame {
    sn_layout *layout;
    uint64_t layout_net;   /* net_id the layout was made for (0: none) */
    unsigned layout_parts; /* structure / zero_one the layout was made with */
    sn_zero_one zo;        /* profile of zo_net (zo.sorted NULL: none) */
    uint64_t zo_net;
    char zo_note[160];
    cairo_surface_t *cache;
    /* everything the cached image shows depends on */
    struct {
        uint64_t net, path_gen, layout_gen;
        double zoom, pan_x, pan_y, x, y, w, h, z;
        sn_theme_id theme;
        bool edit;
        long follow;
        uint32_t ones;
    } key;
    uint64_t layout_gen; /* counts layouts made, so the cache knows its own */
    uint32_t *ranks;     /* scratch [n] */
    uint32_t ranks_cap;
    /* the box the layout was fitted to (0: natural size) and its text floor */
    double fit_w, fit_h, min_font;
    /* edit mode: the layout width the pane keeps (grows only when a new
     * column no longer fits), for the network of edit_n wires */
    double edit_w, edit_font; /* and the text size its layout asks for */
    uint32_t edit_n;
    /* where the last frame put this view: its area, HiDPI factor, UI font
     * and text floor, and whether it was a row of several (compact) */
    bool have_area, compact;
    sn_box area;
    double area_s, area_font, area_floor;
    /* what the last frame showed, to redraw only what changes */
    uint64_t sig; /* everything but the step, animation and status text */
    size_t shown_step, shown_anim_layer;
    sn_scene *sc;  /* this view's bars and status as last painted */
    sn_scene *net; /* scratch: a diagram strip or the overlay */
};

sn_frame *sn_frame_create(void)
{
    sn_frame *f = sn_calloc(1, sizeof(sn_frame));
    if (!f)
        return NULL;
    f->sc = sn_scene_create(0, 0);
    f->net = sn_scene_create(0, 0);
    if (!f->sc || !f->net) {
        sn_frame_destroy(f);
        return NULL;
    }
    return f;
}

void sn_frame_destroy(sn_frame *f)
{
    if (!f)
        return;
    sn_layout_destroy(f->layout);
    if (f->cache)
        cairo_surface_destroy(f->cache);
    sn_free(f->ranks);
    sn_zero_one_free(&f->zo);
    sn_scene_destroy(f->sc);
    sn_scene_destroy(f->net);
    sn_free(f);
}

const sn_layout *sn_frame_layout(sn_frame *f, const sn_view *v, sn_diag *diag)
{
    unsigned parts = (v->structure ? 1u : 0u) | (v->zero_one ? 2u : 0u);
    if (f->layout && f->layout_net == v->net_id && f->layout_parts == parts && f->layout->n == v->n)
        return f->layout;
    sn_layout_destroy(f->layout);
    f->layout = NULL;
    f->layout_net = 0;
    f->layout_gen++; /* the cached picture belongs to the old layout */
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

/* The layout if it is v's current one, else NULL. */
static const sn_layout *current_layout(const sn_frame *f, const sn_view *v)
{
    return f->layout && f->layout_net == v->net_id ? f->layout : NULL;
}

static void panes_of(const sn_frame *f, const sn_view *v, sn_box area, double font, double floor,
                     bool compact, sn_panes *p)
{
    sn_frame_panes_in(v, current_layout(f, v), area, font, floor, compact,
                      v->edit && f->edit_n == v->n ? f->edit_w : 0, p);
}

void sn_frame_panes(const sn_frame *f, const sn_view *v, double w, double h, double s, sn_panes *p)
{
    if (f->have_area)
        panes_of(f, v, f->area, f->area_font, f->area_floor, f->compact, p);
    else
        panes_of(f, v, (sn_box){0, 0, w, h}, sn_frame_ui_font(v, h, s),
                 sn_frame_text_floor(v, h, s), false, p);
}

/* (Re)make the layout for the fit box and text floor when they changed. */
static void layout_for(sn_frame *f, const sn_view *v, double w, double h, double floor_px)
{
    if (fabs(w - f->fit_w) > 0.5 || fabs(h - f->fit_h) > 0.5 || floor_px != f->min_font) {
        f->fit_w = w;
        f->fit_h = h;
        f->min_font = floor_px;
        f->layout_net = 0; /* remade below */
    }
    sn_diag d;
    sn_frame_layout(f, v, &d);
}

/* Fit the layout to the network pane (the drawing uses the width it has).
 * Text there is as large as the frame's floor asks (font scale included)
 * where the rows hold it on every wire; where they do not, as large as
 * they hold down to the readable minimum, so no row loses its label
 * before it must. Half a line of room stays above and below for the
 * text on the first and last wire. */
static void fit_layout(sn_frame *f, const sn_view *v, const sn_panes *p, double floor_px,
                       double min_px)
{
    if (v->edit) {
        /* edit mode keeps the natural proportions and a width that grows
         * only when a new column no longer fits: a comparator dropped in
         * lands where the grid of columns was, and stays there. Its text
         * is sized (in layout units) to reach the floor at the scale that
         * width gives, and changes only when that scale does. */
        for (int pass = 0; pass < 4; pass++) {
            layout_for(f, v, 0, 0, f->edit_font);
            const sn_layout *lo = current_layout(f, v);
            if (!lo || lo->height <= 0)
                return;
            /* a column: its value boxes and a layer band of two sub-columns */
            double col = lo->value_w + lo->scale * (2 * SN_LAYOUT_VALUE_GAP + 2 * SN_LAYOUT_PAD +
                                                    2 * SN_LAYOUT_SUBCOL);
            double need = lo->width + sn_frame_edit_room(v, lo);
            if (f->edit_n == v->n && need <= f->edit_w)
                return; /* it still fits: nothing moves */
            /* the whole pane at the scale its height allows, or room for a
             * few more columns, whichever is wider */
            f->edit_w = fmax(need + SN_FRAME_EDIT_COLUMNS * col, p->net.w * lo->height / p->net.h);
            f->edit_n = v->n;
            double z = fmin(p->net.w / f->edit_w, p->net.h / lo->height);
            double want = z > 0 ? ceil(floor_px / z) : 0;
            if (fabs(want - f->edit_font) < 0.5 || (want <= SN_LAYOUT_FONT && f->edit_font == 0))
                return;
            f->edit_font = want;
            f->edit_n = 0; /* the text changed the layout: fit it again */
        }
        return;
    }
    f->edit_font = 0;
    f->edit_n = 0;
    double w = p->net.w, h = fmax(p->net.h - min_px * 1.2, 1);
    layout_for(f, v, w, h, floor_px);
    /* a text box is ascent + descent high (plus the half unit wires snap by) */
    double em_h = sn_scene_font_ascent(1) + sn_scene_font_descent(1);
    const sn_layout *lo = current_layout(f, v);
    for (int pass = 0; pass < 2 && lo && lo->label_every > 1 && f->min_font > min_px; pass++) {
        double fit = floor(fmax(min_px, (lo->pitch - 0.5) / em_h));
        if (fit >= f->min_font)
            break;
        layout_for(f, v, w, h, fit);
        lo = current_layout(f, v);
    }
}

static const sn_theme *theme_of(const sn_view *v)
{
    return sn_theme_get(v->theme);
}

static void set_rgb(cairo_t *cr, sn_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
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

/* What the diagram shows: nothing of the step (static: the cached
 * image), or the values and next layer of the current step. */
static void diagram_state(sn_frame *f, const sn_view *v, const sn_layout *lo, bool step,
                          sn_draw_state *st, uint32_t sel[2])
{
    sn_draw_state_init(st);
    st->step = step ? v->step : lo->layer_count;
    st->path = v->path;
    if (step) {
        st->values = sn_view_values(v);
        st->type = v->type;
        st->swaps = sn_view_swaps(v, v->step);
        st->chart_step = true;
    }
    if (v->zero_one && lo->zero_one) {
        st->zo = frame_zero_one(f, v);
        st->zo_ones = frame_ones(v);
        st->zo_note = f->zo_note;
    }
    st->selected = sel;
    st->selected_count =
        sn_library_selected_outputs(sn_schedule_name(v->sched), sn_schedule_wires(v->sched), sel);
}

/* The strip of the network pane that changes with step k (layout units):
 * the value column before layer k and layer k itself. */
static void step_strip(const sn_layout *lo, size_t k, double *x0, double *x1)
{
    *x0 = lo->step_x[k] - lo->value_w / 2 - 2;
    *x1 = k < lo->layer_count ? lo->layer[k].x1 + 1 : lo->step_x[k] + lo->value_w / 2 + 2;
}

/* ---- the network pane */

static sn_status paint_net_cache(sn_frame *f, const sn_view *v, const sn_layout *lo,
                                 const sn_panes *p, double z, double ox, double oy)
{
    int w = (int)ceil(p->net.w), h = (int)ceil(p->net.h);
    bool same = f->cache && f->key.net == v->net_id && f->key.layout_gen == f->layout_gen &&
                f->key.zoom == v->zoom && f->key.pan_x == v->pan_x && f->key.pan_y == v->pan_y &&
                f->key.x == p->net.x && f->key.y == p->net.y && f->key.w == p->net.w &&
                f->key.h == p->net.h && f->key.z == z && f->key.theme == v->theme &&
                f->key.edit == v->edit && f->key.follow == v->follow &&
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
    uint32_t sel[2];
    diagram_state(f, v, lo, false, &st, sel);
    sn_rect vis = {(p->net.x - ox) / z, (p->net.y - oy) / z, p->net.w / z, p->net.h / z};
    sn_status rs = sn_draw(cr, lo, th, &st, &vis);
    cairo_destroy(cr);
    f->key.net = v->net_id;
    f->key.layout_gen = f->layout_gen;
    f->key.zoom = v->zoom;
    f->key.pan_x = v->pan_x;
    f->key.pan_y = v->pan_y;
    f->key.x = p->net.x;
    f->key.y = p->net.y;
    f->key.w = p->net.w;
    f->key.h = p->net.h;
    f->key.z = z;
    f->key.theme = v->theme;
    f->key.edit = v->edit;
    f->key.follow = v->follow;
    f->key.path_gen = v->generation;
    f->key.ones = frame_ones(v);
    return rs;
}

static sn_status paint_net(sn_frame *f, const sn_view *v, cairo_t *cr, const sn_panes *p)
{
    sn_diag d;
    const sn_layout *lo = sn_frame_layout(f, v, &d);
    if (!lo)
        return SN_ENOMEM;
    double ox, oy;
    double z = sn_frame_net_transform(lo, v, p, &ox, &oy);
    sn_status rs = paint_net_cache(f, v, lo, p, z, ox, oy);
    if (rs != SN_OK && !f->cache)
        return rs;
    cairo_save(cr);
    cairo_rectangle(cr, p->net.x, p->net.y, p->net.w, p->net.h);
    cairo_clip(cr);
    cairo_set_source_surface(cr, f->cache, p->net.x, p->net.y);
    cairo_paint(cr);
    cairo_translate(cr, ox, oy);
    cairo_scale(cr, z, z);
    double x0, x1;
    step_strip(lo, v->step, &x0, &x1);
    double vy0 = (p->net.y - oy) / z, vy1 = (p->net.y + p->net.h - oy) / z;
    x0 = fmax(x0, (p->net.x - ox) / z);
    x1 = fmin(x1, (p->net.x + p->net.w - ox) / z);
    if (x1 > x0) {
        sn_draw_state st;
        uint32_t sel[2];
        diagram_state(f, v, lo, true, &st, sel);
        sn_rect strip = {x0, vy0, x1 - x0, vy1 - vy0};
        rs = sn_draw(cr, lo, theme_of(v), &st, &strip);
    }
    sn_scene_reset(f->net, lo->width, lo->height);
    sn_frame_scene_net_overlay(f->net, v, lo, z);
    if (sn_scene_count(f->net) > 0) {
        sn_status ro = sn_scene_paint(f->net, cr, NULL);
        if (rs == SN_OK)
            rs = ro;
    }
    cairo_restore(cr);
    return rs;
}

/* The ranks of v's values in f->ranks (NULL when out of memory). */
static const uint32_t *frame_ranks(sn_frame *f, const sn_view *v)
{
    uint32_t n = v->n;
    if (f->ranks_cap < n) {
        sn_free(f->ranks);
        f->ranks = sn_calloc(n, sizeof *f->ranks);
        f->ranks_cap = f->ranks ? n : 0;
        if (!f->ranks)
            return NULL;
    }
    if (sn_draw_ranks(sn_view_values(v), n, v->type, f->ranks) != SN_OK)
        return NULL;
    return f->ranks;
}

/* The panes of one view in area, with the layout fitted to its network
 * pane (the frame remembers where it put them). */
static void place_view(sn_frame *f, const sn_view *v, sn_box area, double win_h, double s,
                       bool compact, sn_panes *p)
{
    double fs = sn_frame_ui_font(v, win_h, s), floor_px = sn_frame_text_floor(v, win_h, s);
    f->have_area = true;
    f->area = area;
    f->area_s = s;
    f->area_font = fs;
    f->area_floor = floor_px;
    f->compact = compact;
    panes_of(f, v, area, fs, floor_px, compact, p);
    fit_layout(f, v, p, floor_px, round(SN_FRAME_MIN_TEXT * s));
    panes_of(f, v, area, fs, floor_px, compact, p); /* fitted box of the new layout */
}

/* This view's bars and status line (or heading) into sc. */
static sn_status view_scene(sn_frame *f, const sn_view *v, const sn_panes *p, bool compact,
                            const char *progress, sn_scene *sc)
{
    const uint32_t *ranks = v->n ? frame_ranks(f, v) : NULL;
    if (v->n && !ranks)
        return SN_ENOMEM;
    sn_frame_scene_bars(sc, v, current_layout(f, v), p, ranks);
    if (compact)
        sn_frame_scene_heading(sc, v, p);
    else
        sn_frame_scene_status(sc, v, p, progress);
    return sn_scene_status(sc);
}

/* One view in area: the panes, the layout fitted to its network pane,
 * then network, bars and status line (compact: its heading). */
static sn_status paint_view_in(sn_frame *f, const sn_view *v, cairo_t *cr, sn_box area,
                               double win_h, double s, bool compact, const char *progress, double w,
                               double h)
{
    sn_panes p;
    place_view(f, v, area, win_h, s, compact, &p);
    sn_status rs = current_layout(f, v) ? paint_net(f, v, cr, &p) : SN_ENOMEM;
    sn_scene_reset(f->sc, w, h);
    sn_status rb = view_scene(f, v, &p, compact, progress, f->sc);
    if (rb == SN_OK)
        rb = sn_scene_paint(f->sc, cr, NULL);
    return rs != SN_OK ? rs : rb;
}

/* A fingerprint of what a view shows apart from the step, its animation
 * and the status text: when it is unchanged, only those need drawing. */
static uint64_t view_sig(const sn_view *v, sn_box area, const sn_frame_extra *x)
{
    double parts[] = {(double)v->net_id,
                      (double)v->generation,
                      (double)v->data_generation,
                      v->zoom,
                      v->pan_x,
                      v->pan_y,
                      (double)v->theme,
                      v->font_scale,
                      (double)v->edit,
                      (double)v->follow,
                      (double)v->help,
                      (double)v->structure,
                      (double)v->zero_one,
                      (double)v->sel_layer,
                      (double)v->sel_index,
                      (double)v->preview.on,
                      v->preview.x,
                      (double)v->verdict,
                      (double)v->n,
                      area.x,
                      area.y,
                      area.w,
                      area.h,
                      (double)(uintptr_t)(x ? x->caption : NULL)};
    uint64_t h = 1469598103934665603ull;
    const unsigned char *b = (const unsigned char *)parts;
    for (size_t i = 0; i < sizeof parts; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* The boxes of view v that change when only its step (and animation)
 * changed since the frame shown: its status line, bars, and the strip of
 * the network pane around the old and the new step. Each pane holds all
 * it draws, so these boxes hold every change. */
static size_t changed_boxes(sn_frame *f, const sn_view *v, sn_box *out)
{
    sn_panes p;
    panes_of(f, v, f->area, f->area_font, f->area_floor, f->compact, &p);
    size_t n = 0;
    out[n++] = p.status;
    out[n++] = p.bars;
    const sn_layout *lo = f->layout;
    if (!lo)
        return n;
    double ox, oy;
    double z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
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

/* The parts of a group's frame that are not one view's, as `parts` asks:
 * the caption band, the common status line of several, the help. The
 * caption band's height either way. */
enum { PART_CAPTION = 1, PART_STATUS = 2, PART_HELP = 4 };
static double group_scene(const sn_group *g, const sn_frame_extra *x, double w, double h, double s,
                          sn_scene *sc, unsigned parts)
{
    const sn_view *v0 = &g->view[0];
    double fs = sn_frame_ui_font(v0, h, s), floor_px = sn_frame_text_floor(v0, h, s);
    double top = sn_frame_scene_caption(parts & PART_CAPTION ? sc : NULL, v0, x, w, fs, floor_px);
    if ((parts & PART_STATUS) && g->count > 1) {
        double sh = sn_frame_group_status_h(fs);
        sn_frame_scene_group_status(sc, g, (sn_box){0, h - sh, w, sh}, fs, floor_px,
                                    x ? x->progress : NULL);
    }
    if ((parts & PART_HELP) && v0->help)
        sn_frame_scene_help(sc, v0, w, h, fs, floor_px);
    return top;
}

/* Row i of a group of several below the caption band. */
static sn_box row_area(const sn_group *g, size_t i, double top, double w, double h, double fs)
{
    double row_h = (h - top - sn_frame_group_status_h(fs)) / (double)g->count;
    return (sn_box){0, top + row_h * (double)i, w, row_h};
}

sn_status sn_frame_draw_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                              cairo_t *cr, double w, double h, double s, sn_box *dirty,
                              size_t *ndirty)
{
    const sn_view *v0 = &g->view[0];
    const sn_theme *th = theme_of(v0);
    double fs = sn_frame_ui_font(v0, h, s);
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
        double status_h = sn_frame_group_status_h(fs);
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
    sn_scene *top_sc = sn_scene_create(w, h);
    if (!top_sc) {
        cairo_restore(cr);
        return SN_ENOMEM;
    }
    double top = group_scene(g, x, w, h, s, top_sc, PART_CAPTION);
    sn_status rs = sn_scene_paint(top_sc, cr, NULL);
    const char *progress = x ? x->progress : NULL;
    if (g->count == 1) {
        sn_status r = paint_view_in(frames[0], v0, cr, (sn_box){0, top, w, h - top}, h, s, false,
                                    progress, w, h);
        if (rs == SN_OK)
            rs = r;
    } else {
        /* rows of networks, then one status line for all of them */
        double pad = round(fs * 0.6);
        for (size_t i = 0; i < g->count; i++) {
            sn_box area = row_area(g, i, top, w, h, fs);
            if (i > 0) {
                set_rgb(cr, th->stage);
                cairo_rectangle(cr, pad, area.y - 1, w - 2 * pad, 1);
                cairo_fill(cr);
            }
            sn_status r = paint_view_in(frames[i], &g->view[i], cr, area, h, s, true, NULL, w, h);
            if (rs == SN_OK)
                rs = r;
        }
    }
    sn_scene_reset(top_sc, w, h);
    group_scene(g, x, w, h, s, top_sc, PART_STATUS | PART_HELP);
    sn_status rt = sn_scene_paint(top_sc, cr, NULL);
    if (rs == SN_OK)
        rs = rt;
    sn_scene_destroy(top_sc);
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
    sn_status rs = paint_view_in(f, v, cr, (sn_box){0, 0, w, h}, h, s, false, NULL, w, h);
    if (v->help) {
        sn_scene *sc = sn_scene_create(w, h);
        if (sc) {
            sn_frame_scene_help(sc, v, w, h, sn_frame_ui_font(v, h, s),
                                sn_frame_text_floor(v, h, s));
            sn_scene_paint(sc, cr, NULL);
            sn_scene_destroy(sc);
        }
    }
    cairo_restore(cr);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        return SN_EIO;
    return rs;
}

/* One view's whole picture in device pixels into sc: the network pane
 * (the diagram at the current step over all the pane shows, and the
 * window's overlay), then its bars and status. */
static sn_status view_full_scene(sn_frame *f, const sn_view *v, sn_box area, double win_h, double s,
                                 bool compact, const char *progress, sn_scene *sc)
{
    sn_panes p;
    place_view(f, v, area, win_h, s, compact, &p);
    const sn_layout *lo = current_layout(f, v);
    if (!lo)
        return SN_ENOMEM;
    double ox, oy;
    double z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
    sn_scene_reset(f->net, lo->width, lo->height);
    sn_draw_state st;
    uint32_t sel[2];
    diagram_state(f, v, lo, true, &st, sel);
    sn_rect vis = {(p.net.x - ox) / z, (p.net.y - oy) / z, p.net.w / z, p.net.h / z};
    sn_status rs = sn_diagram_scene(f->net, lo, theme_of(v), &st, &vis);
    sn_frame_scene_net_overlay(f->net, v, lo, z);
    sn_scene_clip_push(sc, (sn_rect){p.net.x, p.net.y, p.net.w, p.net.h}, SN_ROLE_PANEL);
    sn_frame_scene_append(sc, f->net, z, ox, oy);
    sn_scene_clip_pop(sc);
    sn_status rb = view_scene(f, v, &p, compact, progress, sc);
    return rs != SN_OK ? rs : rb;
}

sn_status sn_frame_scene_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                               double w, double h, double s, sn_scene *sc)
{
    const sn_view *v0 = &g->view[0];
    double fs = sn_frame_ui_font(v0, h, s);
    sn_scene_reset(sc, w, h);
    sn_scene_style bg = sn_scene_fill(sn_rgba_of(theme_of(v0)->background, 1));
    sn_scene_rect(sc, 0, 0, w, h, 0, &bg, sn_scene_tag_of(SN_ROLE_BACKGROUND));
    double top = group_scene(g, x, w, h, s, sc, PART_CAPTION);
    const char *progress = x ? x->progress : NULL;
    sn_status rs = SN_OK;
    for (size_t i = 0; i < g->count; i++) {
        sn_box area = g->count == 1 ? (sn_box){0, top, w, h - top} : row_area(g, i, top, w, h, fs);
        sn_status r = view_full_scene(frames[i], &g->view[i], area, h, s, g->count > 1,
                                      g->count == 1 ? progress : NULL, sc);
        if (rs == SN_OK)
            rs = r;
    }
    group_scene(g, x, w, h, s, sc, PART_STATUS | PART_HELP);
    return rs != SN_OK ? rs : sn_scene_status(sc);
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
        /* the bar as it was drawn (animated places included) */
        long i = f->have_area ? sn_scene_hit(f->sc, x, y, 0, SN_ROLE_BAR) : -1;
        if (i >= 0) {
            *wire = (uint32_t)sn_scene_at(f->sc, (size_t)i)->tag.wire;
        } else {
            double k = floor((x - p.bars.x) / (p.bars.w / v->n));
            if (k < 0 || k >= v->n)
                return false;
            *wire = (uint32_t)k;
        }
        *step = v->step;
        return true;
    }
    if (!lo || x < p.net.x || x >= p.net.x + p.net.w || y < p.net.y || y >= p.net.y + p.net.h)
        return false;
    double ox, oy;
    double z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
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

/* The comparator drawn under layout point (x, y) within tol, asking the
 * picture itself: the diagram and the window's overlay around the point,
 * the last drawn first; -1 when none. */
static long scene_cmp_hit(sn_frame *f, const sn_view *v, const sn_layout *lo, double x, double y,
                          double tol)
{
    sn_scene_reset(f->net, lo->width, lo->height);
    sn_draw_state st;
    uint32_t sel[2];
    diagram_state(f, v, lo, true, &st, sel);
    sn_rect around = {x - tol, y - tol, 2 * tol, 2 * tol};
    if (sn_diagram_scene(f->net, lo, theme_of(v), &st, &around) != SN_OK)
        return sn_layout_hit(lo, x, y, tol); /* out of memory: the geometry */
    sn_frame_scene_net_overlay(f->net, v, lo, 1);
    long k = sn_scene_hit(f->net, x, y, tol, SN_ROLE_COMPARATOR);
    if (k < 0)
        return -1;
    int64_t c = sn_scene_at(f->net, (size_t)k)->tag.cmp;
    return c >= 0 && (size_t)c < lo->cmp_count ? (long)c : -1;
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
    double z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
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
    long i = scene_cmp_hit(f, v, lo, lx, ly, tol);
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
    uint32_t sel[2];
    diagram_state(f, v, lo, true, &st, sel);
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
