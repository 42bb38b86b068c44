/* frame.c - paint one frame of the window from the view: the scene that
 * frame_scene.c builds (bars, status, captions, help, what the window adds
 * on the network) and the network diagram (render/diagram.c), both painted
 * by the scene painter. Nothing is placed here: frame_build.c fits the
 * layout, builds the scenes and answers the hit tests.
 *
 * The network pane is painted in two passes: the static network (wires,
 * comparators, the followed path) is rendered once into an image cached
 * for as long as everything it shows stays the same; every frame blits it
 * and paints, from the same diagram builder, only the narrow strip that
 * changes with the step (the value column and the next layer). A 28 160-
 * comparator network then costs a blit plus one layer per frame. */
#include "headless/frame.h"
#include "session/frame_impl.h"

#include <cairo-svg.h> /* for: cairo_svg_surface_create_for_stream */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "render/diagram.h"
#include "render/draw.h"
#include "render/palette.h"
#include "render/scene_cairo.h"

static void set_rgb(cairo_t *cr, sn_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* The frame's cache hook: the image of the static network is a cairo
 * surface that frame_build.c releases through this. */
static void release_cache(void *cache)
{
    cairo_surface_destroy(cache);
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
                (!v->zero_one || f->key.ones == sn_frame_ones(v)) &&
                (v->follow < 0 || f->key.path_gen == v->generation);
    if (same)
        return SN_OK;
    if (!f->cache || cairo_image_surface_get_width(f->cache) != w ||
        cairo_image_surface_get_height(f->cache) != h) {
        if (f->cache)
            cairo_surface_destroy(f->cache);
        f->cache = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
        f->cache_release = release_cache;
    }
    if (cairo_surface_status(f->cache) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(f->cache);
        f->cache = NULL;
        return SN_ENOMEM;
    }
    cairo_t *cr = cairo_create(f->cache);
    const sn_theme *th = sn_frame_theme(v);
    set_rgb(cr, th->background);
    cairo_paint(cr);
    cairo_translate(cr, ox - p->net.x, oy - p->net.y);
    cairo_scale(cr, z, z);
    sn_draw_state st;
    uint32_t sel[2];
    sn_frame_diagram_state(f, v, lo, false, &st, sel);
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
    f->key.ones = sn_frame_ones(v);
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
        sn_frame_diagram_state(f, v, lo, true, &st, sel);
        sn_rect strip = {x0, vy0, x1 - x0, vy1 - vy0};
        rs = sn_draw(cr, lo, sn_frame_theme(v), &st, &strip);
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

/* One view in area: the panes, the layout fitted to its network pane,
 * then network, bars and status line (compact: its heading). */
static sn_status paint_view_in(sn_frame *f, const sn_view *v, cairo_t *cr, sn_box area,
                               double win_h, double s, bool compact, const char *progress, double w,
                               double h)
{
    if (sn_view_picture_shown(v)) { /* a picture of its own (dist:): one scene, no cache */
        sn_scene_reset(f->sc, w, h);
        sn_status rd = v->picture->scene(f, v, &area, win_h, s, compact, progress, f->sc);
        sn_status rp = sn_scene_paint(f->sc, cr, NULL);
        return rd != SN_OK ? rd : rp;
    }
    sn_panes p;
    sn_frame_place_view(f, v, area, win_h, s, compact, &p);
    sn_status rs = sn_frame_current(f, v) ? paint_net(f, v, cr, &p) : SN_ENOMEM;
    sn_scene_reset(f->sc, w, h);
    sn_status rb = sn_frame_view_scene(f, v, &p, compact, progress, f->sc);
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
                      (double)v->race_shown,
                      (double)v->race_snap.gen,
                      (double)v->race_snap.state,
                      floor(v->race_snap.elapsed_s),
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
    sn_frame_panes_of(f, v, f->area, f->area_font, f->area_floor, f->compact, &p);
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

sn_status sn_frame_draw_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                              cairo_t *cr, double w, double h, double s, sn_box *dirty,
                              size_t *ndirty)
{
    const sn_view *v0 = &g->view[0];
    const sn_theme *th = sn_frame_theme(v0);
    double fs = sn_frame_ui_font(v0, h, s);
    cairo_save(cr);
    /* only what changed since the last frame, when that is just the step */
    size_t nd = 0;
    bool partial = dirty && ndirty && !v0->help;
    for (size_t i = 0; i < g->count && partial; i++) {
        sn_frame *f = frames[i];
        partial = f->have_area && f->sig == view_sig(&g->view[i], f->area, x) && f->layout &&
                  !sn_view_picture_shown(&g->view[i]) && f->layout_net == g->view[i].net_id &&
                  nd + 4 <= SN_FRAME_DIRTY_MAX - 1;
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
    double top = sn_frame_group_scene(g, x, w, h, s, top_sc, SN_FRAME_PART_CAPTION);
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
            sn_box area = sn_frame_row_area(g, i, top, w, h, fs);
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
    sn_frame_group_scene(g, x, w, h, s, top_sc, SN_FRAME_PART_STATUS | SN_FRAME_PART_HELP);
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
    const sn_theme *th = sn_frame_theme(v);
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

/* ---- SVG files: written through a stream of ours, so that a failure
 * names its cause (cairo's own file says only "error while writing") */

typedef struct svg_file {
    FILE *f;
    int err; /* errno of the first failed write */
} svg_file;

static cairo_status_t svg_write(void *closure, const unsigned char *data, unsigned int len)
{
    svg_file *o = closure;
    errno = 0;
    if (fwrite(data, 1, len, o->f) == len)
        return CAIRO_STATUS_SUCCESS;
    if (!o->err)
        o->err = errno ? errno : EIO;
    return CAIRO_STATUS_WRITE_ERROR;
}

/* An SVG surface writing to path (*out), or the cause in diag. */
static sn_status svg_open(const char *path, double w, double h, svg_file *o, cairo_surface_t **out,
                          sn_diag *diag)
{
    *out = NULL;
    o->err = 0;
    o->f = fopen(path, "wb");
    if (!o->f)
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", path, strerror(errno));
    /* a surface in an error state (no memory) draws nothing and says so
     * at svg_close */
    *out = cairo_svg_surface_create_for_stream(svg_write, o, w, h);
    return SN_OK;
}

/* Finish the file of svg_open; SN_EIO with the cause in diag. */
static sn_status svg_close(cairo_surface_t *s, svg_file *o, const char *path, sn_diag *diag)
{
    cairo_surface_finish(s);
    cairo_status_t cs = cairo_surface_status(s);
    cairo_surface_destroy(s);
    errno = 0;
    if (fclose(o->f) != 0 && !o->err)
        o->err = errno ? errno : EIO;
    if (o->err)
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", path, strerror(o->err));
    if (cs != CAIRO_STATUS_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: %s", path, cairo_status_to_string(cs));
    return SN_OK;
}

/* A view's picture of its own (the dist view's blocks) as an SVG file. */
static sn_status save_picture_svg(const sn_view *v, const char *path, sn_diag *diag)
{
    sn_scene *sc = sn_scene_create(0, 0);
    sn_status rs = sc ? v->picture->whole(v, sc) : SN_ENOMEM;
    if (rs != SN_OK) {
        sn_scene_destroy(sc);
        return sn_diag_set(diag, rs, 0, 0, "%s: %s", path, sn_status_str(rs));
    }
    double w, h;
    sn_scene_size(sc, &w, &h);
    svg_file o;
    cairo_surface_t *s;
    rs = svg_open(path, w, h, &o, &s, diag);
    if (rs != SN_OK) {
        sn_scene_destroy(sc);
        return rs;
    }
    cairo_t *cr = cairo_create(s);
    rs = sn_scene_paint(sc, cr, NULL);
    cairo_destroy(cr);
    sn_scene_destroy(sc);
    sn_status cs = svg_close(s, &o, path, diag);
    return cs != SN_OK ? cs : rs;
}

sn_status sn_frame_save_svg(sn_frame *f, const sn_view *v, const char *path, sn_diag *diag)
{
    if (sn_view_picture_shown(v))
        return save_picture_svg(v, path, diag);
    const sn_layout *lo = sn_frame_layout(f, v, diag);
    if (!lo)
        return SN_ENOMEM;
    svg_file o;
    cairo_surface_t *s;
    sn_status os = svg_open(path, lo->width, lo->height, &o, &s, diag);
    if (os != SN_OK)
        return os;
    cairo_t *cr = cairo_create(s);
    sn_draw_state st;
    uint32_t sel[2];
    sn_frame_diagram_state(f, v, lo, true, &st, sel);
    sn_status rs = sn_draw(cr, lo, sn_frame_theme(v), &st, NULL);
    cairo_destroy(cr);
    sn_status cs = svg_close(s, &o, path, diag);
    return cs != SN_OK ? cs : rs;
}
