/* dist_scene.c - the merge-split picture: where each block, link and
 * label goes (see dist_scene.h), from the values of dist_blocks.c.
 *
 * Invariant: geometry is one function of the scale (geo_make), used both
 * for the size and for the scene, so the size reported is the size drawn. */
#include "render/dist_scene.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the geometry */

#define DIST_LINK_W 0.16 /* merge-split line width / font */
#define DIST_DOT 0.27    /* its dots' radius / font */

typedef struct geo {
    double f, m;                      /* value font, margin */
    double title_h, head_h, legend_h; /* bands */
    double legend_f;                  /* legend text size */
    double box_w, box_h, pitch, label_w;
    double top;                           /* y of the first row's top, from the picture's top */
    size_t ncols;                         /* layers + 2: slices, local sort, each layer */
    size_t c_lo, c_hi;                    /* the columns shown: [c_lo, c_hi) */
    double col_x[SN_DIST_MAX_LAYERS + 2]; /* left edge of column c (picture x) */
    double col_w[SN_DIST_MAX_LAYERS + 2];
    double mark_x, mark_w, right; /* the boundary marks' column; the rows' end */
    double sub_w;                 /* distance between merge-split sub-columns */
    double w, h;
    bool reversed; /* the network has a > b comparators (arrows) */
} geo;

/* Sub-column of each pair of a layer: pairs whose closed rank spans meet
 * get different ones (greedy, in order). Returns how many it used. */
static unsigned assign_subs(const sn_comparator *pairs, size_t m, unsigned *sub)
{
    uint64_t used[SN_DIST_MAX_RANKS]; /* ranks spanned in each sub-column */
    unsigned count = 0;
    for (size_t i = 0; i < m; i++) {
        uint32_t lo = pairs[i].a < pairs[i].b ? pairs[i].a : pairs[i].b;
        uint32_t hi = pairs[i].a < pairs[i].b ? pairs[i].b : pairs[i].a;
        uint64_t span = (hi >= 63 ? ~0ull : ((2ull << hi) - 1)) & ~((1ull << lo) - 1);
        unsigned j = 0;
        while (j < count && (used[j] & span))
            j++;
        if (j == count)
            used[count++] = 0;
        used[j] |= span;
        sub[i] = j;
    }
    return count;
}

static const char *column_head(size_t c, char *buf, size_t cap)
{
    if (c == 0)
        return "keys";
    if (c == 1)
        return "local sort";
    snprintf(buf, cap, "layer %zu", c - 1);
    return buf;
}

static void legend_line(const sn_dist_blocks *b, const geo *g, int i, char *buf, size_t cap)
{
    const char *keys = b->keys == 1 ? "key" : "keys";
    switch (i) {
    case 0:
        snprintf(buf, cap, "Each row is a rank holding %u %s; each column, its block after a step.",
                 b->keys, keys);
        break;
    case 1:
        snprintf(buf, cap,
                 "A link is a merge-split: the two ranks merge their blocks, and the upper");
        break;
    case 2:
        snprintf(buf, cap, "one keeps the %u smallest %s%s.", b->keys, keys,
                 g->reversed ? " (at an arrow: the one it points to)" : "");
        break;
    default:
        snprintf(buf, cap,
                 "\xE2\x9C\x93 between two ranks: rank r's largest \xE2\x89\xA4 rank r+1's "
                 "smallest; \xE2\x9C\x97: not.");
        break;
    }
}

#define LEGEND_LINES 4

/* Everything's place at the options' scale (pairs: scratch of P/2+1). */
static void geo_make(const sn_schedule *s, const sn_dist_blocks *b, const sn_dist_scene_opts *o,
                     const sn_dist_fit *fit, sn_comparator *pairs, geo *g)
{
    static const sn_dist_fit whole = {0, 0, false, 0};
    if (!fit)
        fit = &whole;
    memset(g, 0, sizeof *g);
    double z = o->scale > 0 ? o->scale : 1;
    double f = SN_DIST_FONT * z;
    g->f = f;
    g->m = round(f * 1.1);
    g->title_h = o->title ? round(f * 2.4) : 0;
    g->head_h = round(f * 1.9);
    g->legend_f = f * (fit->legend > 0 ? fit->legend : 0.85);
    g->legend_h = round(g->legend_f * 1.45 * LEGEND_LINES + f * 0.8);
    char buf[64];
    snprintf(buf, sizeof buf, "%u", b->ranks * b->keys);
    g->box_w = ceil(sn_scene_text_width(buf, f, SN_FONT_REGULAR) + f * 0.9);
    g->box_h = round(f * 1.75);
    g->pitch = g->box_h + round(f * (fit->tight ? 0.55 : 1.2));
    snprintf(buf, sizeof buf, "rank %u", b->ranks - 1);
    g->label_w = ceil(sn_scene_text_width(buf, f, SN_FONT_REGULAR));
    g->sub_w = round(f * 1.1);
    g->top = g->m + g->title_h + g->head_h;
    g->ncols = b->layers + 2;
    g->c_lo = fit->cols ? (fit->first_col < g->ncols ? fit->first_col : g->ncols - 1) : 0;
    g->c_hi = fit->cols && fit->cols < g->ncols - g->c_lo ? g->c_lo + fit->cols : g->ncols;
    double x = g->m + g->label_w + round(f * 0.9);
    double block = b->keys * g->box_w;
    for (size_t c = 0; c < g->ncols; c++) {
        if (c < g->c_lo || c >= g->c_hi) {
            /* not shown: no room (a layer's links still decide the arrows) */
            if (c >= 2) {
                size_t m = sn_schedule_layer_pairs(s, c - 2, pairs, b->ranks / 2 + 1);
                for (size_t i = 0; i < m; i++)
                    g->reversed = g->reversed || pairs[i].a > pairs[i].b;
            }
            g->col_x[c] = x;
            g->col_w[c] = 0;
            continue;
        }
        if (c == 1) {
            x += round(f * 2.0); /* the local sort: no link */
        } else if (c >= 2) {
            size_t m = sn_schedule_layer_pairs(s, c - 2, pairs, b->ranks / 2 + 1);
            unsigned sub[SN_DIST_MAX_RANKS];
            unsigned subs = assign_subs(pairs, m, sub);
            for (size_t i = 0; i < m; i++)
                g->reversed = g->reversed || pairs[i].a > pairs[i].b;
            x += round(f * 1.2) + subs * g->sub_w;
        }
        const char *head = column_head(c, buf, sizeof buf);
        double hw = ceil(sn_scene_text_width(head, f, SN_FONT_BOLD) + f * 0.6);
        g->col_x[c] = x;
        g->col_w[c] = fmax(block, hw);
        x += g->col_w[c];
    }
    g->mark_x = x + round(f * 0.6);
    g->mark_w = ceil(sn_scene_text_width("\xE2\x9C\x97", f, SN_FONT_BOLD) + f * 0.4);
    g->right = g->mark_x + g->mark_w;
    double w = g->right + g->m;
    if (o->title)
        w = fmax(w, ceil(sn_scene_text_width(o->title, f * 1.1, SN_FONT_BOLD)) + 2 * g->m);
    for (int i = 0; i < LEGEND_LINES; i++) {
        char line[160];
        legend_line(b, g, i, line, sizeof line);
        w = fmax(w, ceil(sn_scene_text_width(line, g->legend_f, SN_FONT_REGULAR)) + 2 * g->m);
    }
    g->w = w;
    g->h = g->top + (b->ranks - 1) * g->pitch + g->box_h + g->legend_h + g->m;
}

/* Rows' centres and the x of the blocks in column c (picture units). */
static double row_y(const geo *g, double y0, uint32_t r)
{
    return y0 + g->top + r * g->pitch + g->box_h / 2;
}

static double block_x(const geo *g, double x0, size_t c, uint32_t keys)
{
    return x0 + g->col_x[c] + (g->col_w[c] - keys * g->box_w) / 2;
}

void sn_dist_scene_size(const sn_schedule *s, const sn_dist_blocks *b, const sn_dist_scene_opts *o,
                        double *w, double *h)
{
    sn_dist_scene_size_fit(s, b, o, NULL, w, h);
}

void sn_dist_scene_size_fit(const sn_schedule *s, const sn_dist_blocks *b,
                            const sn_dist_scene_opts *o, const sn_dist_fit *fit, double *w,
                            double *h)
{
    sn_comparator pairs[SN_DIST_MAX_RANKS / 2 + 1];
    geo g;
    if (b->ranks == 0 || b->ranks > SN_DIST_MAX_RANKS || b->layers > SN_DIST_MAX_LAYERS) {
        *w = *h = 0;
        return;
    }
    geo_make(s, b, o, fit, pairs, &g);
    *w = g.w;
    *h = g.h;
}

double sn_dist_scene_estimate(uint32_t ranks, uint32_t keys, size_t layers, size_t size)
{
    return 2.0 * (double)ranks * keys * (double)(layers + 2) + 4.0 * (double)size + 4.0 * ranks +
           2.0 * (double)layers + 32;
}

/* The block of rank r in column c (its values when shown, else an empty
 * outline). */
static void draw_block(sn_scene *sc, const sn_dist_blocks *b, const geo *g, const sn_theme *th,
                       const uint32_t *vals, double x, double yc, uint32_t r, int32_t layer,
                       bool changed)
{
    double y = yc - g->box_h / 2, inset = fmax(0.5, g->f * 0.06);
    uint32_t n = b->ranks * b->keys;
    sn_scene_tag tag = {SN_ROLE_VALUE_BOX, (int32_t)r, layer, -1};
    if (!vals) {
        sn_scene_style out = sn_scene_stroke(sn_rgba_of(th->stage, 1), fmax(1, g->f * 0.08));
        sn_scene_rect(sc, x + inset, y, b->keys * g->box_w - 2 * inset, g->box_h, g->f * 0.2, &out,
                      sn_scene_tag_of(SN_ROLE_STAGE));
        return;
    }
    for (uint32_t i = 0; i < b->keys; i++) {
        double t = n > 1 ? (double)(vals[i] - 1) / (n - 1) : 0.5;
        sn_rgb c = sn_palette_rank(t);
        sn_scene_style fill = sn_scene_fill(sn_rgba_of(c, 1));
        double bx = x + i * g->box_w;
        sn_scene_rect(sc, bx + inset, y, g->box_w - 2 * inset, g->box_h, g->f * 0.15, &fill, tag);
        char buf[16];
        snprintf(buf, sizeof buf, "%u", vals[i]);
        sn_scene_tag vt = tag;
        vt.role = SN_ROLE_VALUE;
        sn_scene_text(sc, bx + g->box_w / 2, yc, buf, g->f, SN_FONT_REGULAR,
                      SN_TEXT_CENTER | SN_TEXT_MIDDLE, sn_rgba_of(sn_palette_text_on(c), 1), vt);
    }
    if (changed) {
        double pad = g->f * 0.22;
        sn_scene_style ring = sn_scene_stroke(sn_rgba_of(th->highlight, 1), g->f * 0.18);
        sn_scene_rect(sc, x - pad + inset, y - pad, b->keys * g->box_w + 2 * pad - 2 * inset,
                      g->box_h + 2 * pad, g->f * 0.3, &ring,
                      (sn_scene_tag){SN_ROLE_SELECTED, (int32_t)r, layer, -1});
    }
}

sn_status sn_dist_scene(sn_scene *sc, const sn_schedule *s, const sn_dist_blocks *b,
                        const sn_theme *th, const sn_dist_scene_opts *o, double x0, double y0)
{
    return sn_dist_scene_fit(sc, s, b, th, o, NULL, x0, y0);
}

sn_status sn_dist_scene_fit(sn_scene *sc, const sn_schedule *s, const sn_dist_blocks *b,
                            const sn_theme *th, const sn_dist_scene_opts *o, const sn_dist_fit *fit,
                            double x0, double y0)
{
    sn_comparator pairs[SN_DIST_MAX_RANKS / 2 + 1];
    geo g;
    if (b->ranks == 0 || b->ranks > SN_DIST_MAX_RANKS || b->layers > SN_DIST_MAX_LAYERS ||
        sn_schedule_wires(s) != b->ranks)
        return SN_EINVAL;
    geo_make(s, b, o, fit, pairs, &g);
    size_t L = b->layers, step = o->step < L ? o->step : L;
    double f = g.f;
    sn_scene_style bg = sn_scene_fill(sn_rgba_of(th->background, 1));
    sn_scene_rect(sc, x0, y0, g.w, g.h, 0, &bg, sn_scene_tag_of(SN_ROLE_BACKGROUND));
    double rows_bottom = row_y(&g, y0, b->ranks - 1) + g.box_h / 2 + round(f * 0.45);
    /* the current column's band */
    if (o->highlight && step + 1 >= g.c_lo && step + 1 < g.c_hi) {
        size_t c = step + 1;
        sn_scene_style band = sn_scene_fill(sn_rgba_of(th->band, 1));
        double pad = round(f * 0.5);
        sn_scene_rect(sc, x0 + g.col_x[c] - pad, y0 + g.top - g.head_h, g.col_w[c] + 2 * pad,
                      rows_bottom - (y0 + g.top - g.head_h), f * 0.3, &band,
                      (sn_scene_tag){SN_ROLE_BAND, -1, (int32_t)step, -1});
    }
    /* the rank lines, behind everything else of the rows */
    sn_scene_style wire = sn_scene_stroke(sn_rgba_of(th->wire, 1), fmax(1, f * 0.08));
    for (uint32_t r = 0; r < b->ranks; r++) {
        double y = row_y(&g, y0, r);
        sn_scene_line(sc, x0 + g.col_x[g.c_lo] - round(f * 0.4), y, x0 + g.mark_x, y, &wire,
                      sn_scene_tag_wire(SN_ROLE_WIRE, r));
    }
    /* column headings and rank labels */
    sn_rgba ink = sn_rgba_of(th->text, 1);
    char buf[64];
    for (size_t c = g.c_lo; c < g.c_hi; c++) {
        bool cur = o->highlight && c == step + 1;
        sn_scene_text(sc, x0 + g.col_x[c] + g.col_w[c] / 2, y0 + g.top - round(f * 0.75),
                      column_head(c, buf, sizeof buf), f, cur ? SN_FONT_BOLD : SN_FONT_REGULAR,
                      SN_TEXT_CENTER, cur ? sn_rgba_of(th->highlight, 1) : ink,
                      (sn_scene_tag){SN_ROLE_LABEL, -1, (int32_t)c - 1, -1});
    }
    for (uint32_t r = 0; r < b->ranks; r++) {
        snprintf(buf, sizeof buf, "rank %u", r);
        sn_scene_text(sc, x0 + g.m + g.label_w, row_y(&g, y0, r), buf, f, SN_FONT_REGULAR,
                      SN_TEXT_RIGHT | SN_TEXT_MIDDLE, ink,
                      sn_scene_tag_wire(SN_ROLE_WIRE_LABEL, r));
    }
    /* the merge-splits of each layer, in the gap before its column */
    for (size_t k = g.c_lo < 2 ? 0 : g.c_lo - 2; k + 2 < g.c_hi; k++) {
        size_t c = k + 2, m = sn_schedule_layer_pairs(s, k, pairs, b->ranks / 2 + 1);
        unsigned sub[SN_DIST_MAX_RANKS];
        unsigned subs = assign_subs(pairs, m, sub);
        double gap1 = g.col_x[c - 1] + g.col_w[c - 1];
        /* centre the sub-columns in the gap */
        double lead = ((g.col_x[c] - gap1) - subs * g.sub_w) / 2;
        bool cur = o->highlight && k + 1 == step;
        sn_rgb col = cur ? th->highlight : th->comparator;
        sn_scene_style line =
            sn_scene_stroke(sn_rgba_of(col, 1), f * DIST_LINK_W * (cur ? 1.6 : 1));
        sn_scene_style dot = sn_scene_fill(sn_rgba_of(col, 1));
        for (size_t i = 0; i < m; i++) {
            double x = x0 + gap1 + lead + (sub[i] + 0.5) * g.sub_w;
            uint32_t a = pairs[i].a, bb = pairs[i].b;
            double ya = row_y(&g, y0, a), yb = row_y(&g, y0, bb);
            sn_scene_tag t = {SN_ROLE_COMPARATOR, (int32_t)a, (int32_t)k,
                              (int64_t)(b->cmp_first[k] + i)};
            sn_scene_line(sc, x, ya, x, yb, &line, t);
            double r = f * DIST_DOT * (cur ? 1.25 : 1);
            sn_scene_circle(sc, x, yb, r, &dot, t);
            if (a > bb) { /* an arrow head on a: the rank that keeps the smaller half */
                double hl = f * 0.55, hw = f * 0.38, dir = ya > yb ? 1 : -1;
                sn_point tri[3] = {{x, ya}, {x - hw, ya - dir * hl}, {x + hw, ya - dir * hl}};
                sn_scene_poly(sc, tri, 3, true, &dot, t);
            } else {
                sn_scene_circle(sc, x, ya, r, &dot, t);
            }
        }
    }
    /* the blocks: the slices, the local sort and every layer's */
    for (size_t c = g.c_lo; c < g.c_hi; c++) {
        size_t st = c == 0 ? 0 : c - 1;
        bool shown = c == 0 || st <= step;
        for (uint32_t r = 0; r < b->ranks; r++) {
            const uint32_t *vals = !shown   ? NULL
                                   : c == 0 ? b->slices + (size_t)r * b->keys
                                            : sn_dist_block(b, st, r);
            bool changed =
                o->highlight && c > 0 && st == step && st > 0 && b->changed[st * b->ranks + r];
            draw_block(sc, b, &g, th, vals, block_x(&g, x0, c, b->keys), row_y(&g, y0, r), r,
                       c == 0 ? -1 : (int32_t)st, changed);
        }
    }
    /* the boundaries after the last layer, once it is shown */
    if (step == L && g.c_hi == g.ncols) {
        uint32_t broken = sn_dist_broken(b, L);
        for (uint32_t r = 0; r + 1 < b->ranks; r++) {
            bool ok = sn_dist_block(b, L, r)[b->keys - 1] < sn_dist_block(b, L, r + 1)[0];
            sn_rgb c = ok ? (sn_rgb){0.0, 0.55, 0.25} : th->swap;
            double y = (row_y(&g, y0, r) + row_y(&g, y0, r + 1)) / 2;
            sn_scene_text(sc, x0 + g.mark_x + g.mark_w / 2, y, ok ? "\xE2\x9C\x93" : "\xE2\x9C\x97",
                          f, SN_FONT_BOLD, SN_TEXT_CENTER | SN_TEXT_MIDDLE, sn_rgba_of(c, 1),
                          sn_scene_tag_wire(SN_ROLE_MARK, r));
        }
        if (broken + 1 < b->ranks) {
            snprintf(buf, sizeof buf, "broken boundary: rank %u > rank %u", broken, broken + 1);
            sn_scene_note(sc, SN_NOTE_INFO, broken, buf);
        }
    }
    /* title and legend */
    if (o->title)
        sn_scene_text(sc, x0 + g.m, y0 + g.m + round(f * 1.2), o->title, f * 1.1, SN_FONT_BOLD,
                      SN_TEXT_LEFT | SN_TEXT_MIDDLE, ink, sn_scene_tag_of(SN_ROLE_TITLE));
    double ly = rows_bottom + round(f * 0.8);
    for (int i = 0; i < LEGEND_LINES; i++) {
        char line[160];
        legend_line(b, &g, i, line, sizeof line);
        if (i == LEGEND_LINES - 1 && step < L)
            continue; /* no marks yet */
        sn_scene_text(sc, x0 + g.m, ly + g.legend_f * 1.45 * i, line, g.legend_f, SN_FONT_REGULAR,
                      SN_TEXT_LEFT | SN_TEXT_TOP, ink, sn_scene_tag_of(SN_ROLE_CAPTION));
    }
    return sn_scene_status(sc);
}
