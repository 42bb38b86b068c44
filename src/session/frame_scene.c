/* frame_scene.c - the window's frame as a scene: where every box, bar and
 * line of text goes (see frame_scene.h). No cairo, no SDL, no threads.
 *
 * Each pane is a clip and nothing it holds reaches past it (a lifted bar
 * of the swap animation stays inside the bars pane: room is reserved above
 * the tallest bar), so a pane redrawn alone leaves nothing behind. Text is
 * never below the frame's floor: what has no room is thinned (every k-th
 * value label), shortened (status items) or left out, and said in a note. */
#include "session/frame_scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/library.h" /* for: sn_library_best, sn_library_best_size */

#define PI 3.14159265358979323846

static const sn_theme *theme_of(const sn_view *v)
{
    return sn_theme_get(v->theme);
}

static sn_rgba ink(sn_rgb c)
{
    return sn_rgba_of(c, 1);
}

static sn_font_weight weight(bool bold)
{
    return bold ? SN_FONT_BOLD : SN_FONT_REGULAR;
}

static double text_w(const char *s, double fs, bool bold)
{
    return sn_scene_text_width(s, fs, weight(bold));
}

/* Text of the frame (no element of the network behind it). */
static void put_text(sn_scene *sc, double x, double y, const char *s, double fs, bool bold,
                     unsigned align, sn_rgb c, sn_role role)
{
    if (s && s[0])
        sn_scene_text(sc, x, y, s, fs, weight(bold), align, ink(c), sn_scene_tag_of(role));
}

static void fill_rect(sn_scene *sc, sn_box b, sn_rgba c, sn_scene_tag tag)
{
    sn_scene_style st = sn_scene_fill(c);
    sn_scene_rect(sc, b.x, b.y, b.w, b.h, 0, &st, tag);
}

static void clip_box(sn_scene *sc, sn_box b)
{
    sn_scene_clip_push(sc, (sn_rect){b.x, b.y, b.w, b.h}, SN_ROLE_PANEL);
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

static sn_rgb error_red(const sn_view *v)
{
    return v->theme == SN_THEME_DARK ? (sn_rgb){1.0, 0.45, 0.4} : (sn_rgb){0.75, 0.1, 0.05};
}

static sn_rgb good_green(const sn_view *v)
{
    return v->theme == SN_THEME_DARK ? (sn_rgb){0.45, 0.85, 0.5} : (sn_rgb){0.1, 0.5, 0.15};
}

/* ---- sizes and panes */

double sn_frame_ui_font(const sn_view *v, double win_h, double s)
{
    return fmin(fmax(win_h / 42, 13 * s), 34 * s) * v->font_scale;
}

double sn_frame_text_floor(const sn_view *v, double win_h, double s)
{
    return round(fmax(SN_FRAME_MIN_TEXT * s, win_h / 60) * v->font_scale);
}

double sn_frame_edit_room(const sn_view *v, const sn_layout *lo)
{
    return v->edit ? 4 * lo->pitch : 0;
}

void sn_frame_panes_in(const sn_view *v, const sn_layout *lo, sn_box area, double font,
                       double floor, bool compact, double edit_w, sn_panes *p)
{
    double pad = round(font * 0.6);
    double x = area.x, y = area.y, w = area.w, h = area.h;
    p->font = font;
    p->floor = floor;
    p->edit_w = 0;
    p->race = (sn_box){0, 0, 0, 0};
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
        if (v->edit && v->race_shown) {
            /* the race panel takes the right of the bars' row */
            double rw = round(fmin(fmax((w - 2 * pad) * 0.42, font * 24), (w - 2 * pad) * 0.6));
            p->bars.w = fmax(p->bars.w - rw - pad, 1);
            p->race = (sn_box){p->bars.x + p->bars.w + pad, p->bars.y, rw, p->bars.h};
        }
    }
    p->fitted = p->net;
    if (lo && lo->width > 0 && lo->height > 0) {
        double lw = lo->width + sn_frame_edit_room(v, lo);
        if (v->edit && edit_w > lw) {
            lw = edit_w; /* the width edit mode keeps: adding never rescales */
            p->edit_w = edit_w;
        }
        double fit = fmin(p->net.w / lw, p->net.h / lo->height);
        double fw = lw * fit, fh = lo->height * fit;
        p->fitted =
            (sn_box){p->net.x + (p->net.w - fw) / 2, p->net.y + (p->net.h - fh) / 2, fw, fh};
        if (v->edit)
            p->fitted.x = p->net.x; /* grows to the right only */
    }
}

double sn_frame_net_transform(const sn_layout *lo, const sn_view *v, const sn_panes *p, double *ox,
                              double *oy)
{
    double lw = p->edit_w > 0 ? p->edit_w : lo->width + sn_frame_edit_room(v, lo);
    double z = p->fitted.w / lw * v->zoom;
    *ox = p->fitted.x + v->pan_x * p->fitted.w;
    *oy = p->fitted.y + v->pan_y * p->fitted.h;
    return z;
}

/* ---- the bars pane */

/* A label's horizontal extent. */
typedef struct span {
    double x0, x1;
} span;

/* Is [x0, x1] clear of every span in placed[0, n) (sorted by x0, disjoint)? */
static bool clear_of(const span *placed, size_t n, double x0, double x1)
{
    size_t lo = 0, hi = n; /* first span with x1 > x0 */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (placed[mid].x1 <= x0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo == n || placed[lo].x0 >= x1;
}

static void insert_span(span *placed, size_t *n, span s)
{
    size_t i = *n;
    while (i > 0 && placed[i - 1].x0 > s.x0) {
        placed[i] = placed[i - 1];
        i--;
    }
    placed[i] = s;
    (*n)++;
}

/* Value labels under the bars, travelling with them, at lf: every k-th
 * where the bars are too narrow, the outputs out of order (in red) first;
 * never overlapping, never past the pane's ends. */
static void bar_labels(sn_scene *sc, const sn_view *v, const sn_panes *p, const double *xs,
                       double base, double lf)
{
    const sn_theme *th = theme_of(v);
    const uint32_t *vals = sn_view_values(v);
    uint32_t n = v->n;
    double slot = p->bars.w / n;
    char buf[32];
    double widest = 0;
    for (uint32_t i = 0; i < n; i++) {
        sn_key_format(v->type, vals[i], buf, sizeof buf);
        widest = fmax(widest, text_w(buf, lf, true));
    }
    /* labels on one line read as one below half an em apart (the scene
     * checker's word gap): keep a little more */
    double gap = lf * SN_SCENE_WORD_GAP * 1.2;
    uint32_t every = (uint32_t)fmax(1, ceil((widest + gap) / slot));
    /* the grid of every k-th starts at the first bar whose label needs no
     * push away from the pane's left end (so the second does not clash) */
    uint32_t first = every > 1 ? (uint32_t)ceil(fmax(0, widest / 2 - slot / 2) / slot) : 0;
    span *placed = sn_calloc(n, sizeof *placed);
    if (!placed)
        return;
    size_t np = 0, skipped = 0;
    double y = base + lf * 0.2;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < n; i++) {
            bool bad = sn_view_out_of_order(v, i);
            if (bad != (pass == 0) || (!bad && (i < first || (i - first) % every != 0)))
                continue;
            sn_key_format(v->type, vals[i], buf, sizeof buf);
            double tw = text_w(buf, lf, true);
            double x = (xs[i] + slot / 2) - tw / 2;
            x = fmax(p->bars.x, fmin(x, p->bars.x + p->bars.w - tw));
            if (tw > p->bars.w || !clear_of(placed, np, x - gap, x + tw + gap)) {
                skipped += bad;
                continue;
            }
            insert_span(placed, &np, (span){x, x + tw});
            sn_scene_text(sc, x, y, buf, lf, SN_FONT_BOLD, SN_TEXT_LEFT | SN_TEXT_TOP,
                          ink(bad ? error_red(v) : th->text),
                          (sn_scene_tag){SN_ROLE_VALUE, (int32_t)i, (int32_t)v->step, -1});
        }
    }
    sn_free(placed);
    if (every > 1) {
        char note[96];
        snprintf(note, sizeof note, "bar values: every %u%s", every,
                 skipped ? " (some outputs out of order unlabelled)" : "");
        sn_scene_note(sc, SN_NOTE_LABELS_THINNED, every, note);
    }
}

/* The most sub-columns of any layer (brackets get room for them all, so
 * the bars do not move as the step changes). */
static uint32_t most_subcols(const sn_layout *lo)
{
    uint32_t m = 1;
    for (size_t k = 0; lo && k < lo->layer_count; k++)
        if (lo->layer[k].subcols > m)
            m = lo->layer[k].subcols;
    return m;
}

/* Bracket geometry under the bars: line width, spacing of sub-columns
 * (the least that reads as separate lines and the preferred). */
static void bracket_sizes(const sn_panes *p, double slot, double *lw, double *dy_min,
                          double *dy_pref)
{
    *lw = fmax(1, fmin(p->font * 0.1, slot * 0.3));
    *dy_min = fmax(3, 2 * *lw);
    *dy_pref = fmax(*dy_min, p->font * 0.4);
}

/* The next layer's comparators as brackets under the bars, from y0 down
 * over conn_h: swapping ones solid, the others dashed. Left out (and
 * noted) where brackets would not read as separate lines. */
static void bar_brackets(sn_scene *sc, const sn_view *v, const sn_layout *lo, const sn_panes *p,
                         const double *xs, double y0, double conn_h)
{
    const sn_theme *th = theme_of(v);
    double slot = p->bars.w / v->n;
    const sn_layout_layer *L = &lo->layer[v->step];
    const uint8_t *nsw = sn_view_swaps(v, v->step);
    double lw, dy_min, dy_pref;
    bracket_sizes(p, slot, &lw, &dy_min, &dy_pref);
    uint32_t subs = L->subcols ? L->subcols : 1;
    double dy = fmin(dy_pref, (conn_h - lw) / subs);
    if (dy < dy_min || slot < 3 * lw) {
        sn_scene_note(sc, SN_NOTE_TEXT_HIDDEN, 0,
                      "next layer's brackets under the bars: no room to draw them apart");
        return;
    }
    sn_scene_style solid = sn_scene_stroke(ink(th->swap), lw);
    sn_scene_style dashed = sn_scene_stroke(ink(th->noswap), lw);
    if (slot >= 6) {
        dashed.dash_on = fmin(p->font * 0.25, dy_min);
        dashed.dash_off = fmin(p->font * 0.2, dy_min * 0.8);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (size_t c = 0; c < L->count; c++) {
            bool s = nsw && nsw[c];
            if (s != (pass == 1))
                continue;
            const sn_layout_cmp *cm = &lo->cmp[L->first + c];
            double xa = xs[cm->a] + slot / 2, xb = xs[cm->b] + slot / 2;
            double yb = y0 + dy * (cm->sub + 1);
            sn_point pts[4] = {{xa, y0}, {xa, yb}, {xb, yb}, {xb, y0}};
            sn_scene_tag tag = {SN_ROLE_COMPARATOR, (int32_t)cm->a, (int32_t)v->step,
                                (int64_t)(L->first + c)};
            sn_scene_poly(sc, pts, 4, false, s ? &solid : &dashed, tag);
        }
    }
}

/* Where the bars pane puts its parts, top to bottom. */
typedef struct bars_geom {
    double slot, gap, top, base, lift, label_f, label_h, conn_h;
    bool labels;
} bars_geom;

static void bars_place(const sn_view *v, const sn_layout *lo, const sn_panes *p, bars_geom *g)
{
    uint32_t n = v->n ? v->n : 1;
    g->slot = p->bars.w / n;
    g->gap = g->slot >= 6 ? fmax(1, round(g->slot * 0.12)) : 0;
    g->label_f = fmax(fmin(p->font, g->slot * 0.45), p->floor);
    g->labels = p->bars.h > p->font * 4;
    g->label_h = g->labels ? g->label_f * 1.45 : 0;
    double lw, dy_min, dy_pref;
    bracket_sizes(p, g->slot, &lw, &dy_min, &dy_pref);
    g->conn_h = 0;
    if (lo && lo->layer_count && g->slot >= 3 * lw) /* else they never show */
        g->conn_h = fmin(p->bars.h * 0.28, dy_pref * most_subcols(lo) + lw);
    /* room above the tallest bar for the lift of a swap and the marker of
     * the followed element: nothing leaves the pane */
    g->lift = p->font * 0.8;
    g->top = p->bars.y + g->lift + p->font * 0.1;
    g->base = p->bars.y + p->bars.h - g->conn_h - g->label_h;
    if (g->base < g->top + 1)
        g->base = g->top + 1;
}

void sn_frame_scene_bars(sn_scene *sc, const sn_view *v, const sn_layout *lo, const sn_panes *p,
                         const uint32_t *ranks)
{
    const sn_theme *th = theme_of(v);
    uint32_t n = v->n;
    if (n == 0)
        return;
    bars_geom g;
    bars_place(v, lo, p, &g);
    double den = n > 1 ? (double)(n - 1) : 1.0;
    double t = ease(anim_t(v));
    const uint8_t *sw = v->anim_ms > 0 && lo && v->anim_layer < lo->layer_count
                            ? sn_view_swaps(v, v->anim_layer)
                            : NULL;
    clip_box(sc, p->bars);
    fill_rect(sc, (sn_box){p->bars.x, g.top, p->bars.w, g.base - g.top}, ink(th->band),
              sn_scene_tag_of(SN_ROLE_BACKGROUND));
    double *xs = sn_calloc(n, sizeof *xs);
    uint32_t *from = sn_calloc(n, sizeof *from);
    if (!xs || !from) {
        sn_free(xs);
        sn_free(from);
        sn_scene_clip_pop(sc);
        return;
    }
    /* previous position of each wire's element for the slide */
    for (uint32_t i = 0; i < n; i++)
        from[i] = i;
    if (sw) {
        const sn_layout_layer *L = &lo->layer[v->anim_layer];
        for (size_t c = 0; c < L->count; c++) {
            if (!sw[c])
                continue;
            const sn_layout_cmp *cm = &lo->cmp[L->first + c];
            from[cm->a] = cm->b;
            from[cm->b] = cm->a;
        }
    }
    double bw = fmax(g.slot - g.gap, 0.75);
    for (uint32_t i = 0; i < n; i++) {
        double bh = (g.base - g.top) * (ranks[i] + 1.0) / n;
        double x = p->bars.x + i * g.slot;
        double lift = 0;
        if (from[i] != i) {
            double x_from = p->bars.x + from[i] * g.slot;
            x = x_from + (x - x_from) * t;
            lift = sin(t * PI) * g.lift;
        }
        xs[i] = x;
        sn_scene_style st = sn_scene_fill(ink(sn_palette_rank(ranks[i] / den)));
        sn_scene_rect(sc, x + g.gap / 2, g.base - bh - lift, bw, bh, 0, &st,
                      (sn_scene_tag){SN_ROLE_BAR, (int32_t)i, (int32_t)v->step, -1});
    }
    /* after the last layer: the outputs out of order, outlined in red */
    if (v->step == v->layers) {
        double lw = fmax(2, fmin(p->font * 0.2, g.slot * 0.25));
        sn_scene_style st = sn_scene_stroke(ink(error_red(v)), lw);
        for (uint32_t i = 0; i < n; i++) {
            if (!sn_view_out_of_order(v, i))
                continue;
            double bh = (g.base - g.top) * (ranks[i] + 1.0) / n;
            sn_scene_rect(sc, p->bars.x + i * g.slot + g.gap / 2, g.base - bh, bw, bh, 0, &st,
                          (sn_scene_tag){SN_ROLE_BAR, (int32_t)i, (int32_t)v->step, -1});
        }
    }
    /* the followed element: outlined, a marker above it */
    if (v->path) {
        uint32_t i = v->path[v->step];
        double x = xs[i];
        double bh = (g.base - g.top) * (ranks[i] + 1.0) / n;
        sn_scene_style st = sn_scene_stroke(ink(th->highlight), fmax(2, p->font * 0.15));
        sn_scene_tag tag = {SN_ROLE_PATH, (int32_t)i, (int32_t)v->step, -1};
        sn_scene_rect(sc, x + g.gap / 2 - 1, g.base - bh - 1, bw + 2, bh + 2, 0, &st, tag);
        double ty = g.base - bh - p->font * 0.15;
        sn_point tri[3] = {{x + g.slot / 2, ty},
                           {x + g.slot / 2 - p->font * 0.4, ty - p->font * 0.6},
                           {x + g.slot / 2 + p->font * 0.4, ty - p->font * 0.6}};
        sn_scene_style fill = sn_scene_fill(ink(th->highlight));
        sn_scene_poly(sc, tri, 3, true, &fill, tag);
    }
    if (g.labels)
        bar_labels(sc, v, p, xs, g.base, g.label_f);
    if (lo && v->step < lo->layer_count && g.conn_h > 0)
        bar_brackets(sc, v, lo, p, xs, g.base + g.label_h + p->font * 0.1,
                     g.conn_h - p->font * 0.1);
    sn_free(xs);
    sn_free(from);
    sn_scene_clip_pop(sc);
}

/* ---- status lines */

/* s cut at a character boundary (plus an ellipsis) to fit maxw at fs;
 * "" when not even the ellipsis fits. */
static void fit_text(const char *s, double fs, bool bold, double maxw, char *out, size_t cap)
{
    snprintf(out, cap, "%s", s);
    if (text_w(out, fs, bold) <= maxw)
        return;
    size_t len = strlen(out);
    while (len > 0) {
        do
            len--;
        while (len > 0 && ((unsigned char)out[len] & 0xC0) == 0x80);
        while (len > 0 && out[len - 1] == ' ')
            len--;
        if (len + 4 > cap)
            continue;
        memcpy(out + len, "\xE2\x80\xA6", 4); /* U+2026 and the terminator */
        if (text_w(out, fs, bold) <= maxw)
            return;
    }
    out[0] = '\0';
}

/* One piece of a status line: its long and short text (short NULL: it
 * has none), colour and weight. */
typedef struct status_item {
    const char *l, *s;
    sn_rgb c;
    bool bold;
} status_item;

static bool item_shown(const status_item *it)
{
    return it->l && it->l[0];
}

/* Items left to right from x and `right` right-aligned at x + maxw, all on
 * baseline y, shortened until nothing overlaps: first the right part to
 * its short form, then the items from the last to the second, then the
 * right part goes, then the items from the last; what still does not fit
 * is cut with an ellipsis. */
static void scene_items(sn_scene *sc, double x, double y, double maxw, double fs,
                        const status_item *it, size_t n, const status_item *right)
{
    enum { MAXI = 8 };
    bool shrt[MAXI] = {false}, drop[MAXI] = {false};
    int rmode = right && item_shown(right) ? 0 : 2; /* 0 long, 1 short, 2 none */
    double gap = fs * 1.1;
    if (n > MAXI)
        n = MAXI;
    for (;;) {
        double total = 0;
        for (size_t i = 0; i < n; i++)
            if (!drop[i] && item_shown(&it[i]))
                total += text_w(shrt[i] && it[i].s ? it[i].s : it[i].l, fs, it[i].bold) + gap;
        if (rmode < 2)
            total += text_w(rmode == 1 && right->s ? right->s : right->l, fs, right->bold) + gap;
        if (total <= maxw + gap)
            break;
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
            if (!drop[i] && item_shown(&it[i])) {
                drop[i] = true;
                done = true;
            }
        if (!done)
            break; /* one item left: cut below */
    }
    double rx = x + maxw;
    if (rmode < 2) {
        const char *t = rmode == 1 && right->s ? right->s : right->l;
        rx -= text_w(t, fs, right->bold);
        put_text(sc, rx, y, t, fs, right->bold, SN_TEXT_LEFT, right->c, SN_ROLE_STATUS);
        rx -= gap;
    }
    for (size_t i = 0; i < n; i++) {
        if (drop[i] || !item_shown(&it[i]))
            continue;
        const char *t = shrt[i] && it[i].s ? it[i].s : it[i].l;
        char cut[512];
        fit_text(t, fs, it[i].bold, rx - x, cut, sizeof cut);
        if (!cut[0])
            break;
        put_text(sc, x, y, cut, fs, it[i].bold, SN_TEXT_LEFT, it[i].c, SN_ROLE_STATUS);
        x += text_w(cut, fs, it[i].bold) + gap;
        if (strcmp(cut, t) != 0)
            break;
    }
}

/* The result after the last layer: green "sorted", red "NOT sorted"; in
 * edit mode plainly about the input ("this input: sorted"), as the
 * network's verdict is what stands out there. */
static status_item result_item(const sn_view *v, const sn_view_status *st, char *buf, size_t cap)
{
    bool ok = strcmp(st->result, "sorted") == 0;
    if (v->edit && st->result[0]) {
        snprintf(buf, cap, "this input: %s", st->result);
        return (status_item){buf, NULL, theme_of(v)->text, false};
    }
    snprintf(buf, cap, "%s", st->result);
    return (status_item){buf, NULL, ok ? good_green(v) : error_red(v), true};
}

/* One view's numbers on one line: name, layer, counts, [input], result,
 * and the OpenCL verdict on the right. */
static void view_line(sn_scene *sc, const sn_view *v, double x, double y, double maxw, double fs,
                      bool with_input)
{
    const sn_theme *th = theme_of(v);
    sn_view_status st;
    sn_view_status_parts(v, &st);
    char name[sizeof v->name + 2];
    snprintf(name, sizeof name, "%s%s", v->name, sn_view_unsaved(v) ? "*" : "");
    char nline[32], result[64];
    snprintf(nline, sizeof nline, "n = %u", v->n);
    status_item it[6] = {
        {name, NULL, th->comparator, true},
        {st.layer, st.layer_short, th->text, false},
        {st.counts, st.counts_short, th->text, false},
        {with_input ? st.input : "", with_input ? st.input_short : NULL, th->text, false},
        result_item(v, &st, result, sizeof result),
        {nline, NULL, th->text, false},
    };
    status_item right = {st.gpu, st.gpu_short[0] ? st.gpu_short : NULL, th->wire, false};
    if (v->gpu_generation && v->gpu_generation == v->data_generation && !v->gpu.identical)
        right.c = error_red(v);
    scene_items(sc, x, y, maxw, fs, it, with_input ? 6 : 5, &right);
}

/* The line under it: the message (red for errors) and, on the right,
 * playback and the help key (and a lesson's progress). */
static void message_line(sn_scene *sc, const sn_view *v, double x, double y, double maxw, double fs,
                         const char *progress, bool playing)
{
    const sn_theme *th = theme_of(v);
    char right[160], right_s[80];
    snprintf(right, sizeof right, "%s%s%s   %g layers/s    %sH: help", progress ? progress : "",
             progress ? "    " : "", playing ? "playing" : "paused", sn_view_speed(v),
             v->edit ? "E: end editing   " : "");
    snprintf(right_s, sizeof right_s, "%s%sH: help", progress ? progress : "",
             progress ? "   " : "");
    status_item msg = {v->message, NULL, v->message_error ? error_red(v) : th->text, false};
    status_item r = {right, right_s, th->wire, false};
    scene_items(sc, x, y, maxw, fs, &msg, 1, &r);
}

/* What the network is worth against the library's best for its n:
 * "5 comparators (best known 5), 3 layers (best known 3)". */
static void edit_size_text(const sn_view *v, char *buf, size_t cap)
{
    size_t size = v->cmp_before[v->layers], best = sn_library_best_size(v->n);
    char bs[48] = "", bd[48] = "";
    if (best > 0)
        snprintf(bs, sizeof bs, " (best known %zu)", best);
    sn_library_info info;
    size_t i = sn_library_best(v->n, true);
    if (i != SN_LIBRARY_NONE && sn_library_get(i, &info))
        snprintf(bd, sizeof bd, " (best known %u)", info.depth);
    snprintf(buf, cap, "%zu comparator%s%s, %zu layer%s%s", size, size == 1 ? "" : "s", bs,
             v->layers, v->layers == 1 ? "" : "s", bd);
}

/* Edit mode's line: an EDIT tag, the network's verdict (what stands out:
 * green when it sorts, red when not) and its size and depth against the
 * best known. */
static void edit_line(sn_scene *sc, const sn_view *v, const sn_panes *p, double x, double y,
                      double maxw)
{
    const sn_theme *th = theme_of(v);
    double fs = p->font, tf = fmax(p->font * 0.85, p->floor);
    const char *tag = "EDIT";
    double tw = text_w(tag, tf, true);
    sn_scene_style st = sn_scene_fill(ink(th->highlight));
    double asc = sn_scene_font_ascent(tf), desc = sn_scene_font_descent(tf);
    double tx = tf * 0.35;
    sn_scene_rect(sc, x, y - asc - tf * 0.05, tw + 2 * tx, asc + desc + tf * 0.1, 0, &st,
                  sn_scene_tag_of(SN_ROLE_STATUS));
    put_text(sc, x + tx, y, tag, tf, true, SN_TEXT_LEFT, sn_palette_text_on(th->highlight),
             SN_ROLE_STATUS);
    double x1 = x + tw + 2 * tx + fs * 0.8;
    char verdict[200], vline[240], size[160];
    sn_view_verdict_text(v, verdict, sizeof verdict);
    vline[0] = '\0';
    if (verdict[0])
        snprintf(vline, sizeof vline, "this network: %s", verdict);
    edit_size_text(v, size, sizeof size);
    sn_rgb vc = v->verdict == SN_VERDICT_SORTS   ? good_green(v)
                : v->verdict == SN_VERDICT_FAILS ? error_red(v)
                                                 : th->wire;
    status_item it[2] = {{vline, NULL, vc, true}, {size, NULL, th->text, false}};
    if (!vline[0])
        it[0] = it[1], it[1] = (status_item){"", NULL, th->text, false};
    scene_items(sc, x1, y, x + maxw - x1, fs, it, 2, NULL);
}

void sn_frame_scene_status(sn_scene *sc, const sn_view *v, const sn_panes *p, const char *progress)
{
    const sn_theme *th = theme_of(v);
    clip_box(sc, p->status);
    fill_rect(sc, p->status, ink(th->band), sn_scene_tag_of(SN_ROLE_STATUS));
    double pad = p->font * 0.6;
    double y1 = p->status.y + p->font * 1.3, y2 = p->status.y + p->font * 2.65;
    double x = p->status.x + pad, w = p->status.w - 2 * pad;
    if (v->edit) {
        edit_line(sc, v, p, x, y2, w);
        y2 += p->font * 1.35;
    }
    view_line(sc, v, x, y1, w, p->font, true);
    message_line(sc, v, x, y2, w, fmax(p->font * 0.9, p->floor), progress, v->playing);
    sn_scene_clip_pop(sc);
}

void sn_frame_scene_heading(sn_scene *sc, const sn_view *v, const sn_panes *p)
{
    double pad = p->font * 0.6;
    clip_box(sc, p->status);
    view_line(sc, v, p->status.x + pad, p->status.y + p->font * 1.25, p->status.w - 2 * pad,
              p->font, false);
    sn_scene_clip_pop(sc);
}

double sn_frame_group_status_h(double font)
{
    return round(font * 3.2);
}

void sn_frame_scene_group_status(sn_scene *sc, const sn_group *g, sn_box b, double font,
                                 double floor, const char *progress)
{
    const sn_view *v0 = &g->view[0];
    const sn_theme *th = theme_of(v0);
    double pad = round(font * 0.6);
    clip_box(sc, b);
    fill_rect(sc, b, ink(th->band), sn_scene_tag_of(SN_ROLE_STATUS));
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
    scene_items(sc, b.x + pad, b.y + font * 1.3, b.w - 2 * pad, font, it, 4, NULL);
    message_line(sc, v0, b.x + pad, b.y + font * 2.65, b.w - 2 * pad, fmax(font * 0.9, floor),
                 progress, g->playing);
    sn_scene_clip_pop(sc);
}

/* ---- a lesson's caption */

/* Words of text wrapped to lines no wider than maxw at fs: the start and
 * length of each line, at most `max` lines. A word wider than maxw alone
 * gets a line of its own (cut by the caller). */
static size_t wrap(const char *text, double fs, double maxw, size_t *start, size_t *len, size_t max)
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
            if (best && text_w(buf, fs, false) > maxw)
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

double sn_frame_scene_caption(sn_scene *sc, const sn_view *v, const sn_frame_extra *x, double w,
                              double font, double floor)
{
    if (!x || !x->caption || !x->caption[0])
        return 0;
    const sn_theme *th = theme_of(v);
    double pad = round(font * 0.7), big = fmax(font * 1.45, floor);
    enum { MAXL = 6 };
    size_t st[MAXL], ln[MAXL];
    size_t lines = wrap(x->caption, big, w - 2 * pad, st, ln, MAXL);
    double title_h = x->title && x->title[0] ? big * 1.35 : 0;
    double h = round(pad * 1.4 + title_h + (double)lines * big * 1.3 + pad * 0.6);
    if (!sc)
        return h;
    sn_box band = {0, 0, w, h};
    clip_box(sc, band);
    fill_rect(sc, band, ink(th->band), sn_scene_tag_of(SN_ROLE_CAPTION));
    fill_rect(sc, (sn_box){0, h - 3, w, 3}, ink(th->highlight), sn_scene_tag_of(SN_ROLE_CAPTION));
    double y = pad + big;
    char buf[1024];
    if (title_h > 0) {
        fit_text(x->title, big, true, w - 2 * pad, buf, sizeof buf);
        put_text(sc, pad, y, buf, big, true, SN_TEXT_LEFT, th->comparator, SN_ROLE_TITLE);
        y += title_h;
    }
    for (size_t i = 0; i < lines; i++) {
        char line[1024];
        size_t l = ln[i] < sizeof line - 1 ? ln[i] : sizeof line - 1;
        memcpy(line, x->caption + st[i], l);
        line[l] = '\0';
        fit_text(line, big, false, w - 2 * pad, buf, sizeof buf);
        put_text(sc, pad, y, buf, big, false, SN_TEXT_LEFT, th->text, SN_ROLE_CAPTION);
        y += big * 1.3;
    }
    sn_scene_clip_pop(sc);
    return h;
}

/* ---- help */

/* Which front-ends list a line (the keys each one answers). */
enum { HELP_WINDOW = 1, HELP_PAGE = 2, HELP_BOTH = 3 };

typedef struct help_line {
    const char *key, *what; /* key NULL: the second column starts here */
    unsigned where;         /* HELP_* */
} help_line;

static const help_line help_all[] = {
    {"Right / Left", "one layer forward / back (lesson: steps)", HELP_BOTH},
    {"PgDn / PgUp", "the same (a clicker); Down / Up: layers", HELP_BOTH},
    {"Space", "play / pause", HELP_BOTH},
    {"+ / -", "faster / slower", HELP_BOTH},
    {"Home / End", "first / last layer", HELP_BOTH},
    {"R", "new random input", HELP_BOTH},
    {"V", "reversed input", HELP_BOTH},
    {"0", "random 0-1 input (0-1 principle)", HELP_BOTH},
    {"B", "counterexample, if it does not sort", HELP_BOTH},
    {"1 - 6", "bitonic, odd-even merge, transposition,", HELP_BOTH},
    {"", "pairwise, bubble, insertion", HELP_BOTH},
    {"7", "best known for this n (again: by depth)", HELP_BOTH},
    {"[ / ]", "n halved / doubled (best known: n -/+ 1)", HELP_BOTH},
    {"O", "reload the network file", HELP_WINDOW},
    {"O", "open a network file (or drop one here)", HELP_PAGE},
    {"S / P", "save SVG / PNG screenshot", HELP_WINDOW},
    {"S / P", "download the diagram as SVG / PNG", HELP_PAGE},
    {"G", "run it on OpenCL (GPU or CPU): identical?", HELP_WINDOW},
    {NULL, NULL, HELP_BOTH}, /* the second column starts here when the window is wide */
    {"W", "why it sorts: the structure blocks", HELP_BOTH},
    {"Z", "0-1 principle: sorted 0-1 inputs, wire states", HELP_BOTH},
    {"T", "light / dark / high-contrast theme", HELP_BOTH},
    {"Ctrl + / -", "all text larger / smaller", HELP_WINDOW},
    {"M", "sound: a tone per comparison", HELP_WINDOW},
    {"F11", "full screen", HELP_BOTH},
    {"Click", "follow a value (Esc stops)", HELP_BOTH},
    {"Wheel / drag", "zoom / pan; double-click fits", HELP_BOTH},
    {"E", "edit mode: build the network by hand", HELP_BOTH},
    {"  drag", "wire to wire adds a comparator (upward:", HELP_WINDOW},
    {"", "reversed); drag one to move it", HELP_WINDOW},
    {"  drag, 2 clicks", "wire to wire adds a comparator (upward:", HELP_PAGE},
    {"", "reversed); drag one to move it", HELP_PAGE},
    {"  click, Tab", "select a comparator; Delete removes it", HELP_BOTH},
    {"  Ctrl+Z / Y", "undo / redo      Ctrl+S: save the network", HELP_WINDOW},
    {"  C / L", "race the computer's search / load its best", HELP_WINDOW},
    {"  Ctrl+Z / Y", "undo / redo", HELP_PAGE},
    {"Ctrl+S", "download the network (bracket form)", HELP_PAGE},
    {"Enter", "a lesson's exercise: type the answer", HELP_WINDOW},
    {"H, F1, ?", "this help      Q: quit", HELP_WINDOW},
    {"H, F1, ?", "this help", HELP_PAGE},
};

#define HELP_ALL (sizeof help_all / sizeof help_all[0])

/* Widths of the key and description columns of lines[from, to). */
static void help_widths(const help_line *lines, double fs, size_t from, size_t to, double *kw,
                        double *dw)
{
    *kw = *dw = 0;
    for (size_t i = from; i < to; i++) {
        if (!lines[i].key)
            continue;
        *kw = fmax(*kw, text_w(lines[i].key, fs, true));
        *dw = fmax(*dw, text_w(lines[i].what, fs, false));
    }
}

/* lines[from, to) as rows from (x, y), keys then descriptions. */
static void help_rows(sn_scene *sc, const sn_theme *th, const help_line *lines, double fs,
                      double lh, size_t from, size_t to, double x, double y, double kw)
{
    double row = 0;
    for (size_t i = from; i < to; i++) {
        if (!lines[i].key)
            continue;
        double yy = y + lh * row++;
        put_text(sc, x, yy, lines[i].key, fs, true, SN_TEXT_LEFT, th->swap, SN_ROLE_LABEL);
        put_text(sc, x + kw + fs, yy, lines[i].what, fs, false, SN_TEXT_LEFT, th->comparator,
                 SN_ROLE_LABEL);
    }
}

void sn_frame_scene_help(sn_scene *sc, const sn_view *v, double w, double h, double font,
                         double floor)
{
    const sn_theme *th = theme_of(v);
    /* the keys of the front-end that shows v */
    unsigned mine = v->front == SN_FRONT_PAGE ? HELP_PAGE : HELP_WINDOW;
    help_line lines[HELP_ALL];
    memset(lines, 0, sizeof lines); /* only [0, count) is read; cppcheck cannot see that */
    size_t count = 0;
    for (size_t i = 0; i < HELP_ALL; i++)
        if (help_all[i].where & mine)
            lines[count++] = help_all[i];
    size_t split = 0;
    while (split < count && lines[split].key)
        split++;
    size_t rows1 = split, rows2 = count - split - 1;
    size_t tall = rows1 > rows2 ? rows1 : rows2;
    double fs = fmax(fmin(font * 1.05, (h * 0.8) / ((double)tall + 3) / 1.45), floor);
    double kw1, dw1, kw2, dw2;
    help_widths(lines, fs, 0, split, &kw1, &dw1);
    help_widths(lines, fs, split + 1, count, &kw2, &dw2);
    double cw1 = kw1 + dw1 + fs, cw2 = kw2 + dw2 + fs;
    bool two = cw1 + cw2 + 6 * fs <= w * 0.96;
    if (!two) {
        tall = rows1 + rows2;
        fs = fmax(fmin(font * 1.05, (h * 0.8) / ((double)tall + 3) / 1.45), floor);
        help_widths(lines, fs, 0, count, &kw1, &dw1);
        cw1 = kw1 + dw1 + fs;
    }
    double lh = fs * 1.45;
    double bw = two ? cw1 + cw2 + 6 * fs : cw1 + 3 * fs, bh = lh * ((double)tall + 2);
    double bx = (w - bw) / 2, by = (h - bh) / 2;
    fill_rect(sc, (sn_box){0, 0, w, h}, sn_rgba_of(th->background, 0.6),
              sn_scene_tag_of(SN_ROLE_PANEL));
    sn_scene_style box = sn_scene_fill(sn_rgba_of(th->background, 0.97));
    box.stroke = ink(th->stage);
    box.width = 2;
    sn_scene_rect(sc, bx, by, bw, bh, 0, &box, sn_scene_tag_of(SN_ROLE_PANEL));
    put_text(sc, bx + 1.5 * fs, by + lh * 1.1, "Keys", fs * 1.1, true, SN_TEXT_LEFT, th->comparator,
             SN_ROLE_TITLE);
    double y = by + lh * 2.1;
    help_rows(sc, th, lines, fs, lh, 0, two ? split : count, bx + 1.5 * fs, y, kw1);
    if (two)
        help_rows(sc, th, lines, fs, lh, split + 1, count, bx + 4.5 * fs + cw1, y, kw2);
}

/* ---- the race panel */

/* Text of the race panel: a little smaller than the status line. */
static double race_font(const sn_panes *p)
{
    return fmax(p->font * 0.9, p->floor);
}

#define RACE_LINES 5

static const char *plural(size_t k)
{
    return k == 1 ? "" : "s";
}

sn_box sn_frame_race_drawing_box(const sn_view *v, const sn_panes *p)
{
    (void)v;
    double fs = race_font(p), lh = fs * 1.4, pad = round(p->font * 0.5);
    sn_box r = p->race;
    double top = r.y + pad + lh * RACE_LINES;
    sn_box b = {r.x + pad, top, r.w - 2 * pad, r.y + r.h - pad - top};
    if (b.w < fs * 4 || b.h < fs * 3)
        return (sn_box){0, 0, 0, 0};
    return b;
}

/* Put s (or, where it does not fit, the shorter alt, or the shortest alt2)
 * at (x, y) within maxw; where none fits, a note says so. */
static void race_text3(sn_scene *sc, double x, double y, double maxw, const char *s,
                       const char *alt, const char *alt2, double fs, bool bold, sn_rgb c)
{
    if (text_w(s, fs, bold) > maxw)
        s = alt;
    if (s && alt2 && text_w(s, fs, bold) > maxw)
        s = alt2;
    if (!s || text_w(s, fs, bold) > maxw) {
        sn_scene_note(sc, SN_NOTE_LABELS_OMITTED, 1, "race panel: a line too long for the panel");
        return;
    }
    put_text(sc, x, y, s, fs, bold, SN_TEXT_LEFT, c, SN_ROLE_LABEL);
}

static void race_text(sn_scene *sc, double x, double y, double maxw, const char *s, const char *alt,
                      double fs, bool bold, sn_rgb c)
{
    race_text3(sc, x, y, maxw, s, alt, NULL, fs, bold, c);
}

void sn_frame_scene_race(sn_scene *sc, const sn_view *v, const sn_panes *p, const sn_scene *drawing,
                         double lw, double lh_units)
{
    sn_box r = p->race;
    if (r.w <= 0 || r.h <= 0)
        return;
    const sn_theme *th = theme_of(v);
    const sn_race_snap *rs = &v->race_snap;
    clip_box(sc, r);
    sn_scene_style box = sn_scene_fill(ink(th->band));
    box.stroke = ink(th->stage);
    box.width = 1;
    sn_scene_rect(sc, r.x + 0.5, r.y + 0.5, r.w - 1, r.h - 1, 0, &box,
                  sn_scene_tag_of(SN_ROLE_PANEL));
    double fs = race_font(p), lh = fs * 1.4, pad = round(p->font * 0.5);
    double x = r.x + pad, maxw = r.w - 2 * pad;
    double y = r.y + pad + sn_scene_font_ascent(fs);
    uint32_t n = rs->n ? rs->n : v->n;
    char a[240], b[200], c[120];
    snprintf(a, sizeof a, "Race on %u wires: you against the computer", n);
    snprintf(b, sizeof b, "Race, %u wires", n);
    race_text(sc, x, y, maxw, a, b, fs, true, th->text);
    y += lh;
    /* the computer */
    char state[120];
    switch (rs->state) {
    case SN_RACE_RUNNING:
        snprintf(state, sizeof state, "searching, %.0f s", floor(rs->elapsed_s));
        break;
    case SN_RACE_DONE:
        if (rs->found_s < 0.1)
            snprintf(state, sizeof state, "best known, in under 0.1 s");
        else
            snprintf(state, sizeof state, "best known, in %.1f s", rs->found_s);
        break;
    case SN_RACE_STOPPED:
        snprintf(state, sizeof state, "stopped after %.0f s", floor(rs->elapsed_s));
        break;
    case SN_RACE_FAILED: snprintf(state, sizeof state, "failed: %.80s", rs->why); break;
    case SN_RACE_OFF: snprintf(state, sizeof state, "not started"); break;
    }
    if (rs->n && rs->n != v->n) /* another network was loaded: its race stopped */
        snprintf(state, sizeof state, "stopped: n is %u now", v->n);
    if (rs->have_best) {
        snprintf(a, sizeof a, "Computer: %zu comparator%s, %zu layer%s (%s)", rs->size,
                 plural(rs->size), rs->depth, plural(rs->depth), state);
        snprintf(b, sizeof b, "Computer: %zu cmp, %zu layer%s (%s)", rs->size, rs->depth,
                 plural(rs->depth), state);
        snprintf(c, sizeof c, "Computer: %zu cmp, %zu layer%s", rs->size, rs->depth,
                 plural(rs->depth));
    } else {
        snprintf(a, sizeof a, "Computer: nothing yet (%s)", state);
        snprintf(b, sizeof b, "Computer: nothing yet");
        c[0] = '\0';
    }
    race_text3(sc, x, y, maxw, a, b, c[0] ? c : NULL, fs, false,
               rs->state == SN_RACE_FAILED ? error_red(v) : th->text);
    y += lh;
    /* the student */
    char verdict[160];
    sn_view_verdict_text(v, verdict, sizeof verdict);
    size_t size = v->cmp_before[v->layers];
    bool sorts = verdict[0] && v->verdict == SN_VERDICT_SORTS;
    bool fails = verdict[0] && v->verdict == SN_VERDICT_FAILS;
    snprintf(a, sizeof a, "You: %zu comparator%s, %zu layer%s, %s", size, plural(size), v->layers,
             plural(v->layers),
             sorts        ? "sorts"
             : fails      ? "does NOT sort"
             : verdict[0] ? verdict
                          : "not checked");
    snprintf(b, sizeof b, "You: %zu cmp, %zu layer%s", size, v->layers, plural(v->layers));
    race_text(sc, x, y, maxw, a, b, fs, false,
              sorts   ? good_green(v)
              : fails ? error_red(v)
                      : th->text);
    y += lh;
    /* who is ahead */
    char detail[96];
    const char *who = sn_view_race_ahead(v, detail, sizeof detail);
    if (detail[0])
        snprintf(a, sizeof a, "Ahead: %s (%s)", who, detail);
    else
        snprintf(a, sizeof a, "Ahead: %s", who);
    snprintf(b, sizeof b, "Ahead: %s", who);
    sn_rgb wc = strcmp(who, "you") == 0            ? good_green(v)
                : strcmp(who, "the computer") == 0 ? error_red(v)
                                                   : th->text;
    race_text(sc, x, y, maxw, a, b, fs, true, wc);
    y += lh;
    race_text(sc, x, y, maxw,
              rs->state == SN_RACE_RUNNING ? "L: load its network (Ctrl+Z undoes)   C: stop"
                                           : "L: load its network (Ctrl+Z undoes)   C: race again",
              "L: load   C: stop / again", fs, false, th->wire);
    /* the computer's network, small */
    sn_box d = sn_frame_race_drawing_box(v, p);
    if (drawing && d.w > 0 && lw > 0 && lh_units > 0) {
        double z = fmin(d.w / lw, d.h / lh_units);
        double ox = d.x + (d.w - lw * z) / 2, oy = d.y + (d.h - lh_units * z) / 2;
        clip_box(sc, d);
        sn_frame_scene_append(sc, drawing, z, ox, oy);
        sn_scene_clip_pop(sc);
    }
    sn_scene_clip_pop(sc);
}

/* ---- on the network (layout units) */

/* Mix of colours a and b: t = 0 gives a. */
static sn_rgb mix(sn_rgb a, sn_rgb b, double t)
{
    return (sn_rgb){a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t};
}

/* A comparator drawn anew in colour col over whatever is there: its
 * column cleared to the layer's background and the wires through it
 * redrawn, so a faded comparator really looks faded. */
static void redraw_cmp(sn_scene *sc, const sn_layout *lo, const sn_theme *th, size_t i, sn_rgb col)
{
    const sn_layout_cmp *c = &lo->cmp[i];
    sn_scene_tag tag = {SN_ROLE_COMPARATOR, (int32_t)c->a, (int32_t)c->layer, (int64_t)i};
    double r = lo->dot_r * 1.3;
    sn_scene_style bg = sn_scene_fill(ink(c->layer % 2 == 1 ? th->band : th->background));
    sn_scene_rect(sc, c->x - r, c->y0 - r, 2 * r, c->y1 - c->y0 + 2 * r, 0, &bg,
                  sn_scene_tag_of(SN_ROLE_BAND));
    uint32_t w0, w1;
    sn_layout_wires_in(lo, c->y0, c->y1, &w0, &w1);
    sn_scene_style wire = sn_scene_stroke(ink(th->wire), lo->wire_w);
    for (uint32_t k = w0; k < w1; k++)
        if (lo->wire_y[k] >= c->y0 - r && lo->wire_y[k] <= c->y1 + r)
            sn_scene_line(sc, c->x - r, lo->wire_y[k], c->x + r, lo->wire_y[k], &wire,
                          sn_scene_tag_wire(SN_ROLE_WIRE, k));
    sn_scene_style seg = sn_scene_stroke(ink(col), lo->cmp_w);
    sn_scene_line(sc, c->x, c->y0, c->x, c->y1, &seg, tag);
    sn_scene_style dot = sn_scene_fill(ink(col));
    double ya = lo->wire_y[c->a], yb = lo->wire_y[c->b];
    sn_scene_circle(sc, c->x, ya, lo->dot_r, &dot, tag);
    if (c->a < c->b) {
        sn_scene_circle(sc, c->x, yb, lo->dot_r, &dot, tag);
    } else { /* reversed: the arrow head at b, as the diagram draws it */
        double ah = 2.6 * lo->dot_r, aw = 1.25 * lo->dot_r, dir = yb < ya ? -1.0 : 1.0;
        sn_point pts[3] = {{c->x, yb}, {c->x - aw, yb - dir * ah}, {c->x + aw, yb - dir * ah}};
        sn_scene_poly(sc, pts, 3, true, &dot, tag);
    }
}

void sn_frame_scene_net_overlay(sn_scene *sc, const sn_view *v, const sn_layout *lo, double z)
{
    const sn_theme *th = theme_of(v);
    /* the comparators of the animated layer that swapped, glowing */
    if (v->anim_ms > 0 && v->anim_layer < lo->layer_count) {
        const uint8_t *sw = sn_view_swaps(v, v->anim_layer);
        const sn_layout_layer *L = &lo->layer[v->anim_layer];
        sn_scene_style glow = sn_scene_stroke(sn_rgba_of(th->swap, 0.85 * (1 - ease(anim_t(v)))),
                                              fmax(lo->cmp_w * 3.5, 5 / z));
        glow.cap = SN_CAP_ROUND;
        for (size_t i = 0; sw && i < L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[L->first + i];
            if (sw[i])
                sn_scene_line(sc, c->x, c->y0, c->x, c->y1, &glow,
                              (sn_scene_tag){SN_ROLE_COMPARATOR, (int32_t)c->a, (int32_t)c->layer,
                                             (int64_t)(L->first + i)});
        }
    }
    if (!v->edit)
        return;
    double room = sn_frame_edit_room(v, lo);
    sn_scene_style dash = sn_scene_stroke(ink(mix(th->wire, th->background, 0.55)), lo->wire_w);
    dash.dash_on = dash.dash_off = 3 * lo->scale;
    for (uint32_t i = 0; i < lo->n; i++)
        sn_scene_line(sc, lo->wire_x1, lo->wire_y[i], lo->wire_x1 + room - lo->pitch / 2,
                      lo->wire_y[i], &dash, sn_scene_tag_wire(SN_ROLE_WIRE, i));
    if (v->redundant_count && v->verdict_net == v->net_id)
        for (size_t i = 0; i < lo->cmp_count; i++)
            if (sn_view_is_redundant(v, i))
                redraw_cmp(sc, lo, th, i, mix(th->comparator, th->background, 0.7));
    if (v->sel_layer >= 0 && (size_t)v->sel_layer < lo->layer_count &&
        (size_t)v->sel_index < lo->layer[v->sel_layer].count) {
        size_t i = lo->layer[v->sel_layer].first + (size_t)v->sel_index;
        const sn_layout_cmp *c = &lo->cmp[i];
        sn_scene_style halo =
            sn_scene_stroke(sn_rgba_of(th->highlight, 0.45), fmax(lo->dot_r * 3.4, 8 / z));
        halo.cap = SN_CAP_ROUND;
        sn_scene_line(
            sc, c->x, c->y0, c->x, c->y1, &halo,
            (sn_scene_tag){SN_ROLE_COMPARATOR, (int32_t)c->a, (int32_t)c->layer, (int64_t)i});
    }
    if (v->preview.on && v->preview.a < lo->n && v->preview.b < lo->n) {
        double ya = lo->wire_y[v->preview.a], yb = lo->wire_y[v->preview.b], x = v->preview.x;
        sn_scene_style pl = sn_scene_stroke(ink(th->highlight), lo->cmp_w * 1.4);
        pl.dash_on = 4 * lo->scale;
        pl.dash_off = 3 * lo->scale;
        sn_scene_tag tag = sn_scene_tag_of(SN_ROLE_LABEL);
        sn_scene_line(sc, x, ya, x, yb, &pl, tag);
        sn_scene_style dot = sn_scene_fill(ink(th->highlight));
        sn_scene_circle(sc, x, ya, lo->dot_r * 1.2, &dot, tag);
        if (v->preview.a != v->preview.b)
            sn_scene_circle(sc, x, yb, lo->dot_r * 1.2, &dot, tag);
    }
}

void sn_frame_scene_append(sn_scene *dst, const sn_scene *src, double z, double ox, double oy)
{
    size_t n = sn_scene_count(src);
    sn_point pts[64];
    for (size_t i = 0; i < n; i++) {
        const sn_prim *p = sn_scene_at(src, i);
        sn_scene_style st = *sn_scene_style_of(src, p);
        st.width *= z;
        st.dash_on *= z;
        st.dash_off *= z;
        double x0 = ox + p->x0 * z, y0 = oy + p->y0 * z, x1 = ox + p->x1 * z, y1 = oy + p->y1 * z;
        switch ((sn_prim_kind)p->kind) {
        case SN_PRIM_LINE: sn_scene_line(dst, x0, y0, x1, y1, &st, p->tag); break;
        case SN_PRIM_RECT:
            sn_scene_rect(dst, x0, y0, x1 - x0, y1 - y0, p->r * z, &st, p->tag);
            break;
        case SN_PRIM_CIRCLE: sn_scene_circle(dst, x0, y0, p->r * z, &st, p->tag); break;
        case SN_PRIM_POLY: {
            const sn_point *q = sn_scene_points(src, p);
            size_t c = p->count < 64 ? p->count : 64;
            for (size_t k = 0; k < c; k++)
                pts[k] = (sn_point){ox + q[k].x * z, oy + q[k].y * z};
            sn_scene_poly(dst, pts, c, p->r != 0, &st, p->tag);
            break;
        }
        case SN_PRIM_TEXT:
            sn_scene_text(dst, x0, oy + p->base * z, sn_scene_str(src, p), p->size * z,
                          (sn_font_weight)p->weight, SN_TEXT_LEFT | SN_TEXT_BASELINE, st.fill,
                          p->tag);
            break;
        case SN_PRIM_CLIP_PUSH:
            sn_scene_clip_push(dst, (sn_rect){x0, y0, x1 - x0, y1 - y0}, p->tag.role);
            break;
        case SN_PRIM_CLIP_POP: sn_scene_clip_pop(dst); break;
        case SN_PRIM_NOTE:
            sn_scene_note(dst, (sn_note_kind)p->note, p->size, sn_scene_str(src, p));
            break;
        }
    }
}
