/* dist_frame.c - the window's dist view, its picture: the merge-split
 * picture (render/dist_scene.h) of the view's network at the view's step,
 * fitted to the network and bars panes, above the view's status line;
 * where the whole picture's text would fall below the window's floor, its
 * rows close up and then only the columns that fit are shown, up to the
 * current step's. The
 * blocks are computed again for every frame: P * K keys over the layers, a
 * few microseconds, and always those of the view's current network and
 * seed. */
#include "session/dist_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/dist_scene.h"
#include "session/frame_impl.h"

/* The picture's title: what it is, and at the end whether it sorted. */
static void title_of(const sn_view *v, const sn_dist_blocks *b, char *buf, size_t cap)
{
    size_t size = sn_schedule_size(v->sched);
    int len = snprintf(buf, cap, "dist:%u,%s: %u rank%s \xC3\x97 %u key%s, %zu merge-split%s", v->n,
                       sn_schedule_name(v->sched), v->n, v->n == 1 ? "" : "s", b->keys,
                       b->keys == 1 ? "" : "s", size, size == 1 ? "" : "s");
    size_t at = len > 0 && (size_t)len < cap ? (size_t)len : 0;
    uint32_t broken = sn_dist_broken(b, b->layers);
    if (v->step < b->layers)
        return;
    if (broken + 1 < b->ranks)
        snprintf(buf + at, cap - at, ": NOT sorted (rank %u > rank %u)", broken, broken + 1);
    else
        snprintf(buf + at, cap - at, ": sorted");
}

/* The picture of v with fitting fit (NULL: none) at scale z with its
 * top-left corner at (x, y). */
static sn_status picture(const sn_view *v, const sn_dist_blocks *b, sn_scene *sc,
                         const sn_dist_fit *fit, double z, double x, double y, const char *title)
{
    sn_dist_scene_opts o = {v->step, true, z, title};
    return sn_dist_scene_fit(sc, v->sched, b, sn_frame_theme(v), &o, fit, x, y);
}

/* The scale that fits the picture into pw x ph (up to three times s);
 * *w, *h: its size drawn at that scale (each part is rounded at the
 * scale it is drawn at, so that differs a little from the size at scale 1
 * times the scale). */
static double fit_scale(const sn_view *v, const sn_dist_blocks *b, const sn_dist_scene_opts *o,
                        const sn_dist_fit *fit, double pw, double ph, double s, double *w,
                        double *h)
{
    sn_dist_scene_opts oz = *o;
    oz.scale = 1;
    sn_dist_scene_size_fit(v->sched, b, &oz, fit, w, h);
    double z = fmin(3.0 * s, fmin(pw / *w, ph / *h));
    for (int i = 0; i < 8; i++) {
        oz.scale = z;
        sn_dist_scene_size_fit(v->sched, b, &oz, fit, w, h);
        if (*w <= pw && *h <= ph)
            break;
        z *= fmin(pw / *w, ph / *h) * 0.999;
    }
    return z;
}

/* The fitting that keeps the text at the window's floor where the whole
 * picture would put it below: first the rows closer together, then only
 * as many columns as fit, ending with the current step's (the columns
 * before it show what the step changed). The legend is as large as the
 * values. Returns the scale; *w, *h: the size drawn. */
static double fit_window(const sn_view *v, const sn_dist_blocks *b, const sn_dist_scene_opts *o,
                         sn_dist_fit *fit, double pw, double ph, double s, double floor_px,
                         double *w, double *h)
{
    *fit = (sn_dist_fit){0, 0, false, 1};
    double z = fit_scale(v, b, o, fit, pw, ph, s, w, h);
    if (z * SN_DIST_FONT >= floor_px)
        return z;
    fit->tight = true;
    z = fit_scale(v, b, o, fit, pw, ph, s, w, h);
    if (z * SN_DIST_FONT >= floor_px)
        return z;
    sn_dist_scene_opts oz = *o;
    oz.scale = floor_px / SN_DIST_FONT; /* the text at the floor */
    size_t ncols = b->layers + 2, cur = (v->step < b->layers ? v->step : b->layers) + 1;
    double wf = 0, hf = 0;
    for (size_t cols = ncols - 1; cols >= 1; cols--) {
        fit->cols = cols;
        fit->first_col = cur + 1 > cols ? cur + 1 - cols : 0;
        sn_dist_scene_size_fit(v->sched, b, &oz, fit, &wf, &hf);
        if (wf <= pw || cols == 1)
            break;
    }
    z = fit_scale(v, b, o, fit, pw, ph, s, w, h);
    if (z < oz.scale && wf <= pw && hf <= ph) { /* what rounding took off */
        *w = wf;
        *h = hf;
        return oz.scale;
    }
    return z;
}

static sn_status view_scene(sn_frame *f, const sn_view *v, const sn_box *area, double win_h,
                            double s, bool compact, const char *progress, sn_scene *sc)
{
    sn_panes p;
    sn_frame_place_view(f, v, *area, win_h, s, compact, &p);
    /* the network and bars panes together */
    double x0 = fmin(p.net.x, p.bars.x), y0 = fmin(p.net.y, p.bars.y);
    double x1 = fmax(p.net.x + p.net.w, p.bars.x + p.bars.w);
    double y1 = fmax(p.net.y + p.net.h, p.bars.y + p.bars.h);
    sn_dist_blocks b;
    sn_diag d;
    sn_status rs = sn_dist_blocks_make(v->sched, v->dist_keys, v->seed, &b, &d);
    if (rs == SN_OK) {
        char title[256];
        title_of(v, &b, title, sizeof title);
        sn_dist_scene_opts o = {v->step, true, 1, title};
        sn_dist_fit how;
        double w, h;
        /* as large as the panes allow (up to three times), centred */
        double z = fit_window(v, &b, &o, &how, x1 - x0, y1 - y0, s, p.floor, &w, &h);
        double ox = x0 + round(((x1 - x0) - w) / 2), oy = y0 + round(((y1 - y0) - h) / 2);
        sn_scene_clip_push(sc, (sn_rect){x0, y0, x1 - x0, y1 - y0}, SN_ROLE_PANEL);
        rs = picture(v, &b, sc, &how, z, ox, oy, title);
        sn_scene_clip_pop(sc);
        if (z * SN_DIST_FONT < p.floor)
            sn_scene_note(sc, SN_NOTE_INFO, z * SN_DIST_FONT,
                          "dist: the blocks' text is below the window's text floor (a larger "
                          "window, fewer keys or fewer ranks)");
    }
    sn_dist_blocks_free(&b);
    if (compact)
        sn_frame_scene_heading(sc, v, &p);
    else
        sn_frame_scene_status(sc, v, &p, progress);
    return rs != SN_OK ? rs : sn_scene_status(sc);
}

static sn_status whole(const sn_view *v, sn_scene *sc)
{
    sn_dist_blocks b;
    sn_diag d;
    sn_status rs = sn_dist_blocks_make(v->sched, v->dist_keys, v->seed, &b, &d);
    if (rs != SN_OK)
        return rs;
    char title[256];
    title_of(v, &b, title, sizeof title);
    sn_dist_scene_opts o = {v->step, true, 1, title};
    double w, h;
    sn_dist_scene_size(v->sched, &b, &o, &w, &h);
    sn_scene_reset(sc, w, h);
    rs = picture(v, &b, sc, NULL, 1, 0, 0, title);
    sn_dist_blocks_free(&b);
    return rs;
}

const sn_view_picture sn_dist_picture = {sn_dist_view_on, sn_dist_view_status, view_scene, whole};
