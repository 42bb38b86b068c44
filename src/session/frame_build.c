/* frame_build.c - the window's frame without cairo: the layout fitted to
 * each view's network pane, the panes, the whole frame as a scene, and the
 * hit tests that ask that scene what lies under a pixel. frame.c paints
 * with cairo on top of this; the page (src/web) paints the scene itself.
 * Nothing here includes cairo or SDL, so it builds for wasm32. */
#include "session/frame_impl.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/library.h" /* for: sn_library_selected_outputs */

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
    sn_layout_destroy(f->race_lo);
    if (f->cache && f->cache_release)
        f->cache_release(f->cache);
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
    o.row_stretch = v->edit ? f->edit_rows : 0;
    if (sn_layout_create(v->sched, &o, &f->layout, diag) != SN_OK) {
        f->layout = NULL;
        return NULL;
    }
    f->layout_net = v->net_id;
    f->layout_parts = parts;
    return f->layout;
}

/* The layout if it is v's current one, else NULL. */
const sn_layout *sn_frame_current(const sn_frame *f, const sn_view *v)
{
    return f->layout && f->layout_net == v->net_id ? f->layout : NULL;
}

void sn_frame_panes_of(const sn_frame *f, const sn_view *v, sn_box area, double font, double floor,
                       bool compact, sn_panes *p)
{
    sn_frame_panes_in(v, sn_frame_current(f, v), area, font, floor, compact,
                      v->edit && f->edit_n == v->n ? f->edit_w : 0, p);
}

void sn_frame_panes(const sn_frame *f, const sn_view *v, double w, double h, double s, sn_panes *p)
{
    if (f->have_area)
        sn_frame_panes_of(f, v, f->area, f->area_font, f->area_floor, f->compact, p);
    else
        sn_frame_panes_of(f, v, (sn_box){0, 0, w, h}, sn_frame_ui_font(v, h, s),
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
            const sn_layout *lo = sn_frame_current(f, v);
            if (!lo || lo->height <= 0)
                return;
            /* a column: its value boxes and a layer band of two sub-columns */
            double col = lo->value_w + lo->scale * (2 * SN_LAYOUT_VALUE_GAP + 2 * SN_LAYOUT_PAD +
                                                    2 * SN_LAYOUT_SUBCOL);
            double need = lo->width + sn_frame_edit_room(v, lo);
            if (f->edit_n == v->n && need <= f->edit_w)
                return; /* it still fits: nothing moves */
            /* the height and pitch without the rows' stretch */
            double rs = fmax(lo->row_stretch, 1), pitch = lo->pitch / rs;
            double h0 = lo->height - lo->n * (lo->pitch - pitch);
            /* the whole pane at the scale its height allows, or room for a
             * few more columns, whichever is wider */
            f->edit_w = fmax(need + SN_FRAME_EDIT_COLUMNS * col, p->net.w * h0 / p->net.h);
            f->edit_n = v->n;
            /* the width binds (a phone held upright, a deep network): the
             * rows spread over the height to spare, so a finger can tell
             * wires apart (they were 13 px apart for 8 wires on a phone) */
            double zw = p->net.w / f->edit_w, spare = p->net.h / zw - h0;
            double want_rows = lo->n && spare > 0.02 * h0
                                   ? fmin(1 + spare / (lo->n * pitch), SN_LAYOUT_ROW_STRETCH_MAX)
                                   : 0;
            double z = fmin(zw, p->net.h / (h0 + lo->n * pitch * (fmax(want_rows, 1) - 1)));
            double want = z > 0 ? ceil(floor_px / z) : 0;
            bool rows_same = fabs(fmax(want_rows, 1) - rs) < 0.01;
            bool font_same =
                fabs(want - f->edit_font) < 0.5 || (want <= SN_LAYOUT_FONT && f->edit_font == 0);
            if (rows_same && font_same)
                return;
            if (!font_same)
                f->edit_font = want;
            if (!rows_same)
                f->layout_net = 0; /* remade with the new rows */
            f->edit_rows = want_rows;
            f->edit_n = 0; /* the text or the rows changed the layout: fit it again */
        }
        layout_for(f, v, 0, 0, f->edit_font); /* the passes ran out: the last one's */
        return;
    }
    f->edit_font = 0;
    f->edit_rows = 0;
    f->edit_n = 0;
    double w = p->net.w, h = fmax(p->net.h - min_px * 1.2, 1);
    layout_for(f, v, w, h, floor_px);
    /* a text box is ascent + descent high (plus the half unit wires snap by) */
    double em_h = sn_scene_font_ascent(1) + sn_scene_font_descent(1);
    const sn_layout *lo = sn_frame_current(f, v);
    for (int pass = 0; pass < 2 && lo && lo->label_every > 1 && f->min_font > min_px; pass++) {
        double fit = floor(fmax(min_px, (lo->pitch - 0.5) / em_h));
        if (fit >= f->min_font)
            break;
        layout_for(f, v, w, h, fit);
        lo = sn_frame_current(f, v);
    }
}

const sn_theme *sn_frame_theme(const sn_view *v)
{
    return sn_theme_get(v->theme);
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
uint32_t sn_frame_ones(const sn_view *v)
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
void sn_frame_diagram_state(sn_frame *f, const sn_view *v, const sn_layout *lo, bool step,
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
        st->zo_ones = sn_frame_ones(v);
        st->zo_note = f->zo_note;
    }
    st->selected = sel;
    st->selected_count =
        sn_library_selected_outputs(sn_schedule_name(v->sched), sn_schedule_wires(v->sched), sel);
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
void sn_frame_place_view(sn_frame *f, const sn_view *v, sn_box area, double win_h, double s,
                         bool compact, sn_panes *p)
{
    double fs = sn_frame_ui_font(v, win_h, s), floor_px = sn_frame_text_floor(v, win_h, s);
    f->have_area = true;
    f->area = area;
    f->area_s = s;
    f->area_font = fs;
    f->area_floor = floor_px;
    f->compact = compact;
    sn_frame_panes_of(f, v, area, fs, floor_px, compact, p);
    fit_layout(f, v, p, floor_px, round(SN_FRAME_MIN_TEXT * s));
    sn_frame_panes_of(f, v, area, fs, floor_px, compact, p); /* fitted box of the new layout */
}

/* The race panel of v into sc, with the computer's best drawn small (its
 * layout fitted to the panel's drawing box, remade when either changes). */
static void race_scene(sn_frame *f, const sn_view *v, const sn_panes *p, sn_scene *sc)
{
    if (p->race.w <= 0)
        return;
    sn_box d = sn_frame_race_drawing_box(v, p);
    if (!v->race_best || d.w <= 0) {
        sn_frame_scene_race(sc, v, p, NULL, 0, 0);
        return;
    }
    if (!f->race_lo || f->race_gen != v->race_snap.gen || fabs(f->race_w - d.w) > 0.5 ||
        fabs(f->race_h - d.h) > 0.5 || f->race_font != p->floor) {
        sn_layout_destroy(f->race_lo);
        f->race_lo = NULL;
        sn_layout_opts o;
        memset(&o, 0, sizeof o);
        o.scale = 1.0;
        o.fit_w = d.w;
        o.fit_h = d.h;
        o.min_font = p->floor + 1; /* a margin: the scaled text stays above the floor */
        /* the drawing is scaled into the box: where the layout came out
         * larger, its text is made larger so that it still meets the floor */
        for (int pass = 0; pass < 3; pass++) {
            sn_diag dg;
            sn_diag_clear(&dg);
            sn_layout_destroy(f->race_lo);
            if (sn_layout_create_network(v->race_best, &o, &f->race_lo, &dg) != SN_OK) {
                f->race_lo = NULL;
                break;
            }
            double z = fmin(d.w / f->race_lo->width, d.h / f->race_lo->height);
            if (z * o.min_font >= p->floor + 0.5)
                break;
            o.min_font = ceil(p->floor / z * 1.05) + 1;
        }
        f->race_gen = v->race_snap.gen;
        f->race_w = d.w;
        f->race_h = d.h;
        f->race_font = p->floor;
    }
    const sn_layout *lo = f->race_lo;
    if (!lo) {
        sn_frame_scene_race(sc, v, p, NULL, 0, 0);
        return;
    }
    sn_scene_reset(f->net, lo->width, lo->height);
    sn_draw_state st;
    sn_draw_state_init(&st);
    st.step = lo->layer_count;
    sn_diagram_scene(f->net, lo, sn_frame_theme(v), &st, NULL);
    sn_frame_scene_race(sc, v, p, f->net, lo->width, lo->height);
}

/* This view's bars and status line (or heading) into sc. */
sn_status sn_frame_view_scene(sn_frame *f, const sn_view *v, const sn_panes *p, bool compact,
                              const char *progress, sn_scene *sc)
{
    const uint32_t *ranks = v->n ? frame_ranks(f, v) : NULL;
    if (v->n && !ranks)
        return SN_ENOMEM;
    sn_frame_scene_bars(sc, v, sn_frame_current(f, v), p, ranks);
    if (compact)
        sn_frame_scene_heading(sc, v, p);
    else
        sn_frame_scene_status(sc, v, p, progress);
    race_scene(f, v, p, sc);
    return sn_scene_status(sc);
}

/* The parts of a group's frame that are not one view's, as `parts` asks:
 * the caption band, the common status line of several, the help. The
 * caption band's height either way. */
double sn_frame_group_scene(const sn_group *g, const sn_frame_extra *x, double w, double h,
                            double s, sn_scene *sc, unsigned parts)
{
    const sn_view *v0 = &g->view[0];
    double fs = sn_frame_ui_font(v0, h, s), floor_px = sn_frame_text_floor(v0, h, s);
    double top =
        sn_frame_scene_caption(parts & SN_FRAME_PART_CAPTION ? sc : NULL, v0, x, w, fs, floor_px);
    if ((parts & SN_FRAME_PART_STATUS) && g->count > 1) {
        double sh = sn_frame_group_status_h(fs);
        sn_frame_scene_group_status(sc, g, (sn_box){0, h - sh, w, sh}, fs, floor_px,
                                    x ? x->progress : NULL);
    }
    if ((parts & SN_FRAME_PART_HELP) && v0->help)
        sn_frame_scene_help(sc, v0, w, h, fs, floor_px);
    return top;
}

/* Row i of a group of several below the caption band. */
sn_box sn_frame_row_area(const sn_group *g, size_t i, double top, double w, double h, double fs)
{
    double row_h = (h - top - sn_frame_group_status_h(fs)) / (double)g->count;
    return (sn_box){0, top + row_h * (double)i, w, row_h};
}

/* One view's whole picture in device pixels into sc: the network pane
 * (the diagram at the current step over all the pane shows, and the
 * window's overlay), then its bars and status. */
static sn_status view_full_scene(sn_frame *f, const sn_view *v, sn_box area, double win_h, double s,
                                 bool compact, const char *progress, sn_scene *sc)
{
    if (sn_view_picture_shown(v))
        return v->picture->scene(f, v, &area, win_h, s, compact, progress, sc);
    sn_panes p;
    sn_frame_place_view(f, v, area, win_h, s, compact, &p);
    const sn_layout *lo = sn_frame_current(f, v);
    if (!lo)
        return SN_ENOMEM;
    double ox, oy;
    double z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
    sn_scene_reset(f->net, lo->width, lo->height);
    sn_draw_state st;
    uint32_t sel[2];
    sn_frame_diagram_state(f, v, lo, true, &st, sel);
    sn_rect vis = {(p.net.x - ox) / z, (p.net.y - oy) / z, p.net.w / z, p.net.h / z};
    sn_status rs = sn_diagram_scene(f->net, lo, sn_frame_theme(v), &st, &vis);
    sn_frame_scene_net_overlay(f->net, v, lo, z);
    sn_scene_clip_push(sc, (sn_rect){p.net.x, p.net.y, p.net.w, p.net.h}, SN_ROLE_PANEL);
    sn_frame_scene_append(sc, f->net, z, ox, oy);
    sn_scene_clip_pop(sc);
    sn_status rb = sn_frame_view_scene(f, v, &p, compact, progress, sc);
    return rs != SN_OK ? rs : rb;
}

sn_status sn_frame_scene_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                               double w, double h, double s, sn_scene *sc)
{
    const sn_view *v0 = &g->view[0];
    double fs = sn_frame_ui_font(v0, h, s);
    sn_scene_reset(sc, w, h);
    sn_scene_style bg = sn_scene_fill(sn_rgba_of(sn_frame_theme(v0)->background, 1));
    sn_scene_rect(sc, 0, 0, w, h, 0, &bg, sn_scene_tag_of(SN_ROLE_BACKGROUND));
    double top = sn_frame_group_scene(g, x, w, h, s, sc, SN_FRAME_PART_CAPTION);
    const char *progress = x ? x->progress : NULL;
    sn_status rs = SN_OK;
    for (size_t i = 0; i < g->count; i++) {
        sn_box area =
            g->count == 1 ? (sn_box){0, top, w, h - top} : sn_frame_row_area(g, i, top, w, h, fs);
        sn_status r = view_full_scene(frames[i], &g->view[i], area, h, s, g->count > 1,
                                      g->count == 1 ? progress : NULL, sc);
        if (rs == SN_OK)
            rs = r;
    }
    sn_frame_group_scene(g, x, w, h, s, sc, SN_FRAME_PART_STATUS | SN_FRAME_PART_HELP);
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
    sn_frame_diagram_state(f, v, lo, true, &st, sel);
    sn_rect around = {x - tol, y - tol, 2 * tol, 2 * tol};
    if (sn_diagram_scene(f->net, lo, sn_frame_theme(v), &st, &around) != SN_OK)
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

sn_status sn_frame_scene_diagram(sn_frame *f, const sn_view *v, sn_scene *sc, sn_diag *diag)
{
    if (sn_view_picture_shown(v))
        return v->picture->whole(v, sc);
    const sn_layout *lo = sn_frame_layout(f, v, diag);
    if (!lo)
        return SN_ENOMEM;
    sn_scene_reset(sc, lo->width, lo->height);
    sn_draw_state st;
    uint32_t sel[2];
    sn_frame_diagram_state(f, v, lo, true, &st, sel);
    sn_status rs = sn_diagram_scene(sc, lo, sn_frame_theme(v), &st, NULL);
    return rs != SN_OK ? rs : sn_scene_status(sc);
}

bool sn_frame_area(const sn_frame *f, sn_box *area)
{
    if (!f->have_area)
        return false;
    *area = f->area;
    return true;
}
