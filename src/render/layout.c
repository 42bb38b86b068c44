/* layout.c - diagram geometry as numbers: wires, layer bands, sub-columns.
 *
 * Invariant of a finished layout: cmp[] holds the comparators layer by
 * layer, each layer in the order of sn_schedule_layer_pairs (or of the
 * network's layer), so per-layer swap flags index it directly;
 * two comparators of one layer with intersecting closed spans have
 * different `sub`; every x is inside its layer's band by at least
 * PAD - DOT; bands and step_x increase strictly with the layer index. */
#include "render/layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "render/scene.h" /* for: sn_scene_text_width (the font metrics) */

static double snap(double v)
{
    return floor(v) + 0.5;
}

static unsigned digits_of(uint64_t v)
{
    unsigned d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

/* (min wire, index) pairs, by min wire: wires of a layer are disjoint, so
 * the order is total. */
static int cmp_by_min(const void *x, const void *y)
{
    const sn_comparator *p = x, *q = y;
    return (p->a > q->a) - (p->a < q->a);
}

void sn_layout_destroy(sn_layout *lo)
{
    if (!lo)
        return;
    sn_free(lo->block);
    sn_free(lo->wire_y);
    sn_free(lo->step_x);
    sn_free(lo->layer);
    sn_free(lo->cmp);
    sn_free(lo->stage);
    sn_free(lo);
}

/* Sub-columns of one layer: greedy colouring of an interval graph in order
 * of left end is optimal. `order` lists the comparators by min wire;
 * `last` has room for count entries (the worst case: all spans meet). */
static uint32_t assign_subcols(sn_layout_cmp *c, const sn_comparator *order, size_t count,
                               uint32_t *last)
{
    uint32_t used = 0;
    for (size_t i = 0; i < count; i++) {
        /* order[i].a = min wire, .b = index into c */
        sn_layout_cmp *x = &c[order[i].b];
        uint32_t lo = order[i].a;
        uint32_t hi = x->a < x->b ? x->b : x->a;
        uint32_t j = 0;
        while (j < used && last[j] >= lo)
            j++;
        if (j == used)
            used++;
        last[j] = hi;
        x->sub = j;
    }
    return used ? used : 1;
}

/* Does a comparator cross the line between wires we - 1 and we anywhere
 * in [x0, x1]? */
static bool crossed(const sn_layout *lo, uint32_t we, double x0, double x1)
{
    if (we == 0 || we >= lo->n)
        return false;
    size_t k0, k1;
    sn_layout_layers_in(lo, x0, x1, &k0, &k1);
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            uint32_t a = c->a < c->b ? c->a : c->b, b = c->a < c->b ? c->b : c->a;
            if (a < we && we <= b && c->x >= x0 && c->x <= x1)
                return true;
        }
    }
    return false;
}

/* Is the label box of b clear of every label placed before it (by gap)? */
static bool clear_of_labels(const sn_layout *lo, size_t count, const sn_layout_block *b, double gap)
{
    for (size_t j = 0; j < count; j++) {
        const sn_layout_block *o = &lo->block[j];
        if (!o->labelled)
            continue;
        if (b->lx < o->lx + o->lw + gap && o->lx < b->lx + b->lw + gap &&
            fabs(b->ly - o->ly) < (b->lh + o->lh) / 2 + gap / 2)
            return false;
        /* the same words side by side on one line read as one label
         * printed twice ("sort 16 sort 16"), whoever they belong to */
        double twice = fmax(b->lw, o->lw);
        if (strcmp(b->label, o->label) == 0 && fabs(b->ly - o->ly) < b->lh &&
            b->lx < o->lx + o->lw + twice && o->lx < b->lx + b->lw + twice)
            return false;
    }
    return true;
}

/* Does [x0, x1] meet a column of value boxes? The window (value_step < 0)
 * has one at every step, an export at value_step only. */
static bool in_value_column(const sn_layout *lo, const sn_layout_opts *o, double x0, double x1)
{
    if (!o->show_values || lo->value_w <= 0)
        return false;
    double half = lo->value_w / 2 + 2 * lo->scale;
    if (o->value_step >= 0) {
        if ((size_t)o->value_step > lo->layer_count)
            return false;
        double c = lo->step_x[o->value_step];
        return x0 < c + half && c - half < x1;
    }
    /* first step with step_x + half > x0 (step_x increases) */
    size_t l = 0, h = lo->layer_count + 1;
    while (l < h) {
        size_t m = l + (h - l) / 2;
        if (lo->step_x[m] + half <= x0)
            l = m + 1;
        else
            h = m;
    }
    return l <= lo->layer_count && lo->step_x[l] - half < x1;
}

/* Does the label box of b meet a deeper block's outline region (a block
 * inside it, whose own label would be confused with b's)? */
static bool over_inner_block(const sn_layout *lo, const sn_layout_block *b)
{
    for (size_t j = 0; j < lo->block_count; j++) {
        const sn_layout_block *o = &lo->block[j];
        if (o->depth <= b->depth)
            continue;
        if (b->lx < o->x1 && o->x0 < b->lx + b->lw && b->ly - b->lh / 2 < o->y1 &&
            o->y0 < b->ly + b->lh / 2)
            return true;
    }
    return false;
}

/* Outline and label place of every block (see sn_layout_block). Labels
 * keep a gap of 0.8 of their size from each other, stay out of every value
 * column and the chart's caption, and never shrink: a block whose label
 * finds no place stays unlabelled (the diagram's scene says how many). */
static void place_blocks(sn_layout *lo, const sn_layout_opts *o, const sn_block *src, double s)
{
    bool window = o->show_values && o->value_step < 0;
    double top = lo->wire_y[0] - lo->pitch / 2;
    double gap = fmax(2 * s, 0.8 * lo->label_font);
    /* the chart's "all 2^n inputs" caption, above its top left corner */
    double cap_x1 = lo->chart.x0 + 16 * 0.64 * lo->label_font, cap_y0 = 0, cap_y1 = 0;
    if (lo->zero_one) {
        cap_y1 = lo->chart.y0;
        cap_y0 = cap_y1 - 3 * s - 1.2 * lo->label_font;
    }
    for (size_t g = 0; g < lo->block_count; g++) {
        sn_layout_block *b = &lo->block[g];
        const sn_block *k = &src[g];
        double x0 = lo->layer[k->first_layer].x0, x1 = lo->layer[k->last_layer].x1;
        double y0 = top + k->first_wire * lo->pitch, y1 = top + (k->last_wire + 1) * lo->pitch;
        double ins = (1.5 + 2.0 * k->depth) * s;
        double ix = fmin(ins, 0.3 * (x1 - x0)), iy = fmin(ins, 0.3 * (y1 - y0));
        b->x0 = x0 + ix;
        b->x1 = x1 - ix;
        b->y0 = y0 + iy;
        b->y1 = y1 - iy;
        b->depth = k->depth;
        memcpy(b->label, k->label, sizeof b->label);
    }
    /* labels, once every outline is known (over_inner_block reads them) */
    for (size_t g = 0; g < lo->block_count; g++) {
        sn_layout_block *b = &lo->block[g];
        const sn_block *k = &src[g];
        b->lh = lo->label_font * 1.3;
        b->lw = sn_scene_text_width(b->label, lo->label_font, SN_FONT_BOLD) + 0.6 * lo->label_font;
        b->labelled = false;
        /* candidates: along the top edge from the left, then along the
         * bottom edge; then centred on the block but wider than it; then
         * the lines between wires inside the block, nearest its edges
         * first, where no deeper block would claim the label */
        double pad = 2 * s, room = b->x1 - b->x0 - 2 * pad - b->lw;
        int slides = room > 0 ? 1 + (int)fmin(8, floor(room / (b->lw / 3))) : 0;
        uint32_t span = k->last_wire - k->first_wire + 1;
        int inner = span > 2 ? (int)fmin(6, span - 1) : 0;
        int total = 2 * slides + 2 + inner * (slides ? slides : 1);
        for (int c = 0; c < total && !b->labelled; c++) {
            uint32_t we; /* the label sits on the line above wire we */
            double lx = (b->x0 + b->x1 - b->lw) / 2, nudge = 0;
            bool edge = c < 2 * slides + 2;
            if (edge) {
                int e = c < 2 * slides ? c / slides : c - 2 * slides;
                if (c < 2 * slides && slides > 1)
                    lx = b->x0 + pad + room * (c % slides) / (slides - 1);
                we = e == 0 ? k->first_wire : k->last_wire + 1;
                /* nudged towards its own block, so a label on a line two
                 * blocks share says whose it is - except in the window,
                 * whose value boxes at every step would then hide half of it */
                nudge = window ? 0 : fmax(0, lo->pitch / 2 - b->lh / 2 - 1.5 * s);
                if (e == 1)
                    nudge = -nudge;
            } else {
                int ci = c - (2 * slides + 2), per = slides ? slides : 1;
                int line = ci / per, i = line / 2 + 1;
                we = line % 2 == 0 ? k->first_wire + (uint32_t)i : k->last_wire + 1 - (uint32_t)i;
                if (slides > 1)
                    lx = b->x0 + pad + room * (ci % per) / (slides - 1);
            }
            /* value boxes sit on the wires: a label between two rows
             * clears them when the rows are far enough apart */
            double need = (b->lh + lo->value_h) / 2; /* centre to a wire's box */
            bool vclash = lo->value_h > 0 && ((we > 0 && lo->pitch / 2 + nudge < need) ||
                                              (we < lo->n && lo->pitch / 2 - nudge < need));
            if (lx < lo->wire_x0 || lx + b->lw > lo->wire_x1 ||
                (vclash && in_value_column(lo, o, lx - gap / 2, lx + b->lw + gap / 2)))
                continue;
            b->lx = lx;
            b->ly = top + we * lo->pitch + nudge;
            if (b->ly - b->lh / 2 < 0 || b->ly + b->lh / 2 > lo->height)
                continue;
            if (lo->zero_one && lx < cap_x1 && b->ly + b->lh / 2 > cap_y0 &&
                b->ly - b->lh / 2 < cap_y1)
                continue;
            if (crossed(lo, we, lx - lo->dot_r - s, lx + b->lw + lo->dot_r + s))
                continue;
            if (!edge && over_inner_block(lo, b))
                continue;
            b->labelled = clear_of_labels(lo, g, b, gap);
        }
    }
}

static void stretch_x(sn_layout *lo, double f);

/* Positions for a given scale, layers spread apart by stretch (>= 1). */
static void place(sn_layout *lo, const sn_layout_opts *o, const sn_block *blocks, double s,
                  double stretch, double vfont)
{
    uint32_t n = lo->n;
    double font = fmax(SN_LAYOUT_FONT * s, o->min_font > 0 ? o->min_font : 0);
    unsigned lchars = digits_of(n > 0 ? n - 1 : 0);
    double label_w = lchars * SN_LAYOUT_DIGIT * font;
    lo->scale = s;
    lo->font_size = font;
    lo->dot_r = SN_LAYOUT_DOT * s;
    lo->cmp_w = SN_LAYOUT_CMP_W * s;
    lo->wire_w = SN_LAYOUT_WIRE_W * s;
    lo->pitch = SN_LAYOUT_PITCH * s * (lo->row_stretch > 1 ? lo->row_stretch : 1);
    /* rows closer than the text is tall: label every k-th wire only */
    /* (a text box is ascent + descent high: rows closer than that would
     * overlap their neighbours' labels) */
    double text_h = sn_scene_font_ascent(font) + sn_scene_font_descent(font);
    lo->label_every = 1;
    if (text_h + 1 > lo->pitch) /* (+ 1: wires are snapped to half units) */
        lo->label_every = (uint32_t)ceil((text_h + 1) / lo->pitch);
    lo->label_font = fmax(font * SN_LAYOUT_BLOCK_FONT, o->min_font > 0 ? o->min_font : 0);
    lo->label_x = SN_LAYOUT_MARGIN * s + label_w;
    lo->wire_x0 = lo->label_x + SN_LAYOUT_LABEL_GAP * s;
    double vgap = 0;
    lo->value_w = lo->value_h = 0;
    lo->value_font = font;
    if (o->show_values) {
        unsigned vchars = o->value_chars ? o->value_chars : digits_of(n);
        /* vfont < 0: no room for the text at its floor, the boxes are
         * colour chips */
        lo->value_font = vfont < 0 ? 0 : vfont > 0 ? fmin(vfont, font) : font;
        lo->value_w = vchars * SN_LAYOUT_DIGIT * lo->value_font + 2 * SN_LAYOUT_VALUE_PAD * s;
        /* boxes never overlap the next row's, whatever the text size */
        lo->value_h = fmin((vfont < 0 ? font : lo->value_font) + 5 * s, SN_LAYOUT_PITCH * s * 0.92);
        vgap = lo->value_w + 2 * SN_LAYOUT_VALUE_GAP * s;
    }
    /* gap[k] = room before layer k (k = layer_count: after the last) */
    size_t L = lo->layer_count;
    double x = lo->wire_x0;
    for (size_t k = 0; k <= L; k++) {
        bool values_here = o->show_values && (o->value_step < 0 || (size_t)o->value_step == k);
        double gap = (k == 0 || k == L) ? SN_LAYOUT_LEAD * s : 0;
        if (lo->stage_count && k > 0 && k < L && lo->layer[k].stage != lo->layer[k - 1].stage)
            gap += (lo->block_count ? 2.5 : 1.0) * SN_LAYOUT_STAGE_GAP * s;
        if (values_here && vgap > gap)
            gap = vgap;
        lo->step_x[k] = x + gap / 2;
        x += gap;
        if (k == L)
            break;
        sn_layout_layer *Lk = &lo->layer[k];
        Lk->x0 = x;
        Lk->x1 = x + (2 * SN_LAYOUT_PAD + (Lk->subcols - 1) * SN_LAYOUT_SUBCOL) * s;
        for (size_t i = Lk->first; i < Lk->first + Lk->count; i++)
            lo->cmp[i].x = snap(x + (SN_LAYOUT_PAD + lo->cmp[i].sub * SN_LAYOUT_SUBCOL) * s);
        x = Lk->x1;
    }
    lo->wire_x1 = x;
    lo->width = x + SN_LAYOUT_MARGIN * s;
    /* the first and last wires' labels stay inside the picture, however
     * small the pitch against the text floor (half a unit for snapping) */
    double vm = fmax(SN_LAYOUT_MARGIN * s, 0.6 * font - lo->pitch / 2 + 1.0);
    double top = vm + lo->pitch / 2;
    for (uint32_t i = 0; i < n; i++)
        lo->wire_y[i] = snap(top + i * lo->pitch);
    lo->height = 2 * vm + n * lo->pitch;
    for (size_t i = 0; i < lo->cmp_count; i++) {
        sn_layout_cmp *c = &lo->cmp[i];
        uint32_t a = c->a < c->b ? c->a : c->b, b = c->a < c->b ? c->b : c->a;
        c->y0 = lo->wire_y[a];
        c->y1 = lo->wire_y[b];
    }
    for (size_t g = 0; g < lo->stage_count; g++) {
        sn_layout_stage *st = &lo->stage[g];
        st->x0 = lo->layer[st->first_layer].x0 + 1.5 * s;
        st->x1 = lo->layer[st->first_layer + st->layer_count - 1].x1 - 1.5 * s;
        st->y0 = top - lo->pitch / 2 + 2 * s;
        st->y1 = top + (n ? n - 1 : 0) * lo->pitch + lo->pitch / 2 - 2 * s;
    }
    lo->mark = SN_LAYOUT_MARK * s;
    if (lo->zero_one) {
        sn_layout_chart *c = &lo->chart;
        double minstep = lo->wire_x1 - lo->wire_x0;
        for (size_t k = 0; k < L; k++)
            minstep = fmin(minstep, lo->step_x[k + 1] - lo->step_x[k]);
        c->bar_w = fmin(fmax(0.6 * minstep, 2 * s), 14 * s);
        c->x0 = lo->wire_x0;
        c->x1 = lo->wire_x1;
        /* room above the chart for its "all 2^n inputs" line, clear of
         * the text on the last wire (frame: issue 28, lesson 02 step 8) */
        c->y0 = fmax(lo->height - vm + 14 * s,
                     lo->height - vm - lo->pitch / 2 + 0.6 * font + 1.2 * lo->label_font + 3 * s);
        c->y1 = c->y0 + SN_LAYOUT_CHART_H * s;
        c->caption_y = c->y1 + 1.4 * font;
        /* two caption lines, as wide as they need at the scale's own text
         * size: where a floor makes the text larger (edit mode on a phone)
         * the caption takes its shorter forms instead, since a width that
         * grew with the floor made the frame zoom out and raise the floor
         * again, with no end */
        lo->height = c->caption_y + 1.8 * font + SN_LAYOUT_MARGIN * s;
        lo->width = fmax(lo->width, lo->wire_x0 + 36 * SN_LAYOUT_BLOCK_FONT * SN_LAYOUT_FONT * s);
    }
    if (stretch > 1)
        stretch_x(lo, stretch);
    if (lo->block_count)
        place_blocks(lo, o, blocks, s);
}

/* Spread everything right of the wire starts by f (layers, steps, stage
 * outlines, the chart; blocks are placed afterwards); text, dots and boxes
 * keep their size. */
static void stretch_x(sn_layout *lo, double f)
{
    double x0 = lo->wire_x0;
#define SX(v) ((v) = x0 + ((v)-x0) * f)
    for (size_t k = 0; k <= lo->layer_count; k++)
        SX(lo->step_x[k]);
    for (size_t k = 0; k < lo->layer_count; k++) {
        SX(lo->layer[k].x0);
        SX(lo->layer[k].x1);
    }
    for (size_t i = 0; i < lo->cmp_count; i++)
        lo->cmp[i].x = snap(x0 + (lo->cmp[i].x - x0) * f);
    for (size_t g = 0; g < lo->stage_count; g++) {
        SX(lo->stage[g].x0);
        SX(lo->stage[g].x1);
    }
    if (lo->zero_one) {
        SX(lo->chart.x1);
        lo->chart.bar_w *= fmin(f, 2.0);
    }
    double old_x1 = lo->wire_x1;
    SX(lo->wire_x1);
    lo->width += lo->wire_x1 - old_x1;
#undef SX
}

/* Fit into opts' box: the scale that makes the height fit (or the width,
 * when that binds first), then the layers spread over the unused width. */
static void fit(sn_layout *lo, const sn_layout_opts *o, const sn_block *blocks)
{
    /* the scale at which the height fits (text has a floor, so a few
     * passes correct for what it adds under the wires) */
    place(lo, o, blocks, 1.0, 1.0, 0);
    double s = o->fit_h / lo->height;
    for (int pass = 0; pass < 3; pass++) {
        place(lo, o, blocks, s, 1.0, 0);
        double f = o->fit_h / lo->height;
        if (f > 0.995 && f <= 1.0)
            break;
        s *= f > 1 ? fmin(f, 1.0 + (f - 1) * 0.98) : f;
    }
    /* Too wide at that scale (many layers, or a value column before each
     * at the text floor): the values' text gives way first (their colours
     * still show the ranks; the bars below show them large), then the
     * drawing, down to half the height; a network deeper than that stays
     * wider than the pane and the window scales it down whole. */
    double vfont = lo->value_font, s_min = s * 0.5, s_fit = s;
    /* while the text is above its floor anyway, everything shrinks alike */
    double s_text = o->min_font > 0 ? o->min_font / SN_LAYOUT_FONT : 0;
    for (int pass = 0; pass < 8 && lo->width > o->fit_w && s > s_text; pass++) {
        s = fmax(s_text, s * o->fit_w / lo->width);
        place(lo, o, blocks, s, 1.0, 0);
    }
    s_min = fmin(s_min, s);
    /* the values' text never goes below the floor: past it, it is hidden
     * (vfont -1) and the diagram's scene says so */
    double vfloor = o->min_font > 0 ? o->min_font : 4 * s;
    for (int pass = 0; pass < 24 && lo->width > o->fit_w; pass++) {
        double f = o->fit_w / lo->width;
        if (f <= 0.98 && vfont > vfloor) {
            vfont = fmax(vfloor, vfont * fmax(f, 0.5));
        } else if (f <= 0.98 && vfont > 0 && o->min_font > 0 && o->show_values) {
            vfont = -1;
        } else {
            /* text keeps its size, so the rest must shrink more than f */
            double ns = fmax(s_min, s * fmax(0.5, 1 - 2 * (1 - f)) * 0.999);
            if (ns >= s)
                break;
            s = ns;
        }
        place(lo, o, blocks, s, 1.0, vfont);
    }
    /* The values' text hidden: a narrow, tall box (a phone held upright)
     * has height to spare, so a smaller drawing (down to half the scale
     * the height gave) whose rows still hold the text on every wire keeps
     * the values readable; the largest such scale */
    if (vfont < 0 && o->min_font > 0 && o->show_values && s_min < s_fit) {
        double lo_s = s_min, hi_s = s_fit, best = 0;
        for (int pass = 0; pass < 14; pass++) {
            double t = pass == 0 ? lo_s : (lo_s + hi_s) / 2;
            place(lo, o, blocks, t, 1.0, vfloor);
            bool ok = lo->width <= o->fit_w && lo->label_every <= 1 && lo->value_font > 0;
            if (pass == 0 && !ok)
                break;
            if (ok) {
                best = t;
                lo_s = t;
            } else {
                hi_s = t;
            }
        }
        if (best > 0) {
            s = best;
            vfont = vfloor;
        }
        place(lo, o, blocks, s, 1.0, vfont);
    }
    double used = lo->wire_x1 - lo->wire_x0;
    double room = o->fit_w - (lo->width - used);
    double stretch = used > 0 && room > used ? fmin(room / used, SN_LAYOUT_STRETCH_MAX) : 1.0;
    if (stretch > 1)
        place(lo, o, blocks, s, stretch, vfont);
    /* Height to spare: the width bound the scale (a deep network, or a
     * phone held upright, where rows 13 px apart were too close for a
     * finger in edit mode): the rows spread apart, at most
     * SN_LAYOUT_ROW_STRETCH_MAX times their pitch; a label on more wires,
     * larger targets, nothing wider. A few passes: the margins and the
     * chart under the wires follow the pitch a little. */
    double rows = lo->n * lo->pitch;
    for (int pass = 0; pass < 3 && rows > 0 && lo->height < o->fit_h * 0.99; pass++) {
        double f = 1 + (o->fit_h - lo->height) / rows;
        double rs = fmin(fmax(lo->row_stretch, 1) * f, SN_LAYOUT_ROW_STRETCH_MAX);
        if (rs <= fmax(lo->row_stretch, 1) * 1.01)
            break;
        lo->row_stretch = rs;
        place(lo, o, blocks, s, stretch, vfont);
        rows = lo->n * lo->pitch;
    }
    while (lo->row_stretch > 1 && lo->height > o->fit_h) { /* (a chart's text has a floor) */
        lo->row_stretch = fmax(1, lo->row_stretch * fmax(0.9, o->fit_h / lo->height));
        place(lo, o, blocks, s, stretch, vfont);
    }
}

static sn_status build(const sn_schedule *s, const sn_network *net, const sn_layout_opts *opts,
                       sn_layout **out, sn_diag *diag)
{
    sn_layout_opts o = {1.0, 0, false, 0, -1, false, false, 0, 0, 0, 0};
    if (opts)
        o = *opts;
    if (!(o.scale > 0) || !isfinite(o.scale))
        o.scale = 1.0;
    *out = NULL;
    sn_block *blocks = NULL; /* before the first goto nomem, which frees it */
    sn_layout *lo = sn_calloc(1, sizeof *lo);
    if (!lo)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the layout");
    uint32_t n = s ? sn_schedule_wires(s) : sn_network_wires(net);
    size_t L = s ? sn_schedule_layer_count(s) : sn_network_layer_count(net);
    lo->n = n;
    lo->layer_count = L;
    size_t total = 0, maxc = 0;
    lo->layer = sn_calloc(L ? L : 1, sizeof *lo->layer);
    lo->step_x = sn_calloc(L + 1, sizeof *lo->step_x);
    lo->wire_y = sn_calloc(n ? n : 1, sizeof *lo->wire_y);
    if (!lo->layer || !lo->step_x || !lo->wire_y)
        goto nomem;
    for (size_t k = 0; k < L; k++) {
        size_t c = 0;
        if (s)
            c = sn_schedule_layer_size(s, k);
        else
            (void)sn_network_layer(net, k, &c);
        lo->layer[k].first = total;
        lo->layer[k].count = c;
        if (!sn_add_size(total, c, &total))
            goto nomem;
        if (c > maxc)
            maxc = c;
    }
    lo->cmp_count = total;
    lo->cmp = sn_calloc(total ? total : 1, sizeof *lo->cmp);
    sn_comparator *buf = sn_calloc(maxc ? maxc : 1, sizeof *buf);
    uint32_t *last = sn_calloc(maxc ? maxc : 1, sizeof *last);
    if (!lo->cmp || !buf || !last) {
        sn_free(buf);
        sn_free(last);
        goto nomem;
    }
    size_t groups = 0;
    for (size_t k = 0; k < L; k++) {
        sn_layout_layer *Lk = &lo->layer[k];
        if (s) {
            (void)sn_schedule_layer_pairs(s, k, buf, Lk->count);
        } else {
            size_t c;
            memcpy(buf, sn_network_layer(net, k, &c), Lk->count * sizeof *buf);
        }
        for (size_t i = 0; i < Lk->count; i++) {
            sn_layout_cmp *c = &lo->cmp[Lk->first + i];
            c->a = buf[i].a;
            c->b = buf[i].b;
            c->layer = (uint32_t)k;
            buf[i].a = c->a < c->b ? c->a : c->b;
            buf[i].b = (uint32_t)i;
        }
        qsort(buf, Lk->count, sizeof *buf, cmp_by_min);
        Lk->subcols = assign_subcols(&lo->cmp[Lk->first], buf, Lk->count, last);
        Lk->stage = s ? sn_schedule_layer_stage(s, k) : (uint32_t)k;
        if (k == 0 || Lk->stage != lo->layer[k - 1].stage)
            groups++;
    }
    sn_free(buf);
    sn_free(last);
    /* One stage, or one per layer, outlines nothing the bands don't show. */
    if (groups > 1 && groups < L) {
        lo->stage = sn_calloc(groups, sizeof *lo->stage);
        if (!lo->stage)
            goto nomem;
        lo->stage_count = groups;
        size_t g = 0;
        for (size_t k = 0; k < L; k++) {
            if (k > 0 && lo->layer[k].stage == lo->layer[k - 1].stage) {
                lo->stage[g - 1].layer_count++;
                continue;
            }
            lo->stage[g].first_layer = k;
            lo->stage[g].layer_count = 1;
            g++;
        }
    }
    lo->zero_one = o.zero_one;
    if (o.structure && s) {
        size_t count = 0;
        if (sn_structure_blocks(s, &blocks, &count, NULL) != SN_OK)
            goto nomem;
        /* whole depths, outermost first, while they fit the cap */
        size_t keep = 0;
        while (keep < count && keep < SN_LAYOUT_BLOCK_MAX) {
            size_t e = keep;
            while (e < count && blocks[e].depth == blocks[keep].depth)
                e++;
            if (e > SN_LAYOUT_BLOCK_MAX && keep > 0)
                break;
            keep = e < SN_LAYOUT_BLOCK_MAX ? e : SN_LAYOUT_BLOCK_MAX;
        }
        lo->block = sn_calloc(keep ? keep : 1, sizeof *lo->block);
        if (!lo->block)
            goto nomem;
        lo->block_count = keep;
    }
    if (o.fit_w > 0 && o.fit_h > 0 && isfinite(o.fit_w) && isfinite(o.fit_h)) {
        fit(lo, &o, blocks);
    } else {
        if (o.row_stretch > 1 && isfinite(o.row_stretch))
            lo->row_stretch = fmin(o.row_stretch, SN_LAYOUT_ROW_STRETCH_MAX);
        place(lo, &o, blocks, o.scale, 1.0, 0);
    }
    if (!(o.fit_w > 0 && o.fit_h > 0) && o.width > 0 && isfinite(o.width) && lo->width > 0) {
        /* text has a floor (min_font) and does not shrink with the rest:
         * a few passes, by the secant of width against scale, until the
         * picture is no wider than asked (then exactly that wide) */
        double s0 = o.scale, w0 = lo->width, s1 = o.scale * o.width / lo->width;
        for (int pass = 0; pass < 8; pass++) {
            place(lo, &o, blocks, s1, 1.0, 0);
            if (lo->width <= o.width && lo->width > o.width * 0.995)
                break;
            double slope = (lo->width - w0) / (s1 - s0);
            double next =
                slope > 0 ? s1 + (o.width * 0.998 - lo->width) / slope : s1 * o.width / lo->width;
            s0 = s1;
            w0 = lo->width;
            s1 = next > 0 ? next : s1 * 0.5;
        }
        if (lo->width > o.width)
            place(lo, &o, blocks, s1 * o.width / lo->width * 0.99, 1.0, 0);
        lo->width = o.width;
    }
    sn_free(blocks);
    *out = lo;
    return SN_OK;
nomem:
    sn_free(blocks);
    sn_layout_destroy(lo);
    return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the layout");
}

sn_status sn_layout_create(const sn_schedule *s, const sn_layout_opts *opts, sn_layout **out,
                           sn_diag *diag)
{
    if (!s || !out)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "no schedule to lay out");
    return build(s, NULL, opts, out, diag);
}

sn_status sn_layout_create_network(const sn_network *net, const sn_layout_opts *opts,
                                   sn_layout **out, sn_diag *diag)
{
    if (!net || !out)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "no network to lay out");
    return build(NULL, net, opts, out, diag);
}

void sn_layout_layers_in(const sn_layout *lo, double x0, double x1, size_t *first, size_t *end)
{
    /* first layer with band.x1 >= x0 */
    size_t l = 0, h = lo->layer_count;
    while (l < h) {
        size_t m = l + (h - l) / 2;
        if (lo->layer[m].x1 < x0)
            l = m + 1;
        else
            h = m;
    }
    *first = l;
    /* first layer with band.x0 > x1 */
    h = lo->layer_count;
    while (l < h) {
        size_t m = l + (h - l) / 2;
        if (lo->layer[m].x0 <= x1)
            l = m + 1;
        else
            h = m;
    }
    *end = l;
}

void sn_layout_wires_in(const sn_layout *lo, double y0, double y1, uint32_t *first, uint32_t *end)
{
    double half = lo->pitch / 2;
    uint32_t l = 0, h = lo->n;
    while (l < h) {
        uint32_t m = l + (h - l) / 2;
        if (lo->wire_y[m] < y0 - half)
            l = m + 1;
        else
            h = m;
    }
    *first = l;
    h = lo->n;
    while (l < h) {
        uint32_t m = l + (h - l) / 2;
        if (lo->wire_y[m] <= y1 + half)
            l = m + 1;
        else
            h = m;
    }
    *end = l;
}

long sn_layout_hit(const sn_layout *lo, double x, double y, double tol)
{
    size_t k0, k1;
    sn_layout_layers_in(lo, x - tol, x + tol, &k0, &k1);
    for (size_t k = k0; k < k1; k++) {
        const sn_layout_layer *L = &lo->layer[k];
        for (size_t i = L->first; i < L->first + L->count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (fabs(c->x - x) <= tol && y >= c->y0 - tol && y <= c->y1 + tol)
                return (long)i;
        }
    }
    return -1;
}

long sn_layout_find(const sn_layout *lo, size_t k, uint32_t u, uint32_t v)
{
    if (k >= lo->layer_count)
        return -1;
    const sn_layout_layer *L = &lo->layer[k];
    for (size_t i = L->first; i < L->first + L->count; i++) {
        const sn_layout_cmp *c = &lo->cmp[i];
        if ((c->a == u && c->b == v) || (c->a == v && c->b == u))
            return (long)i;
    }
    return -1;
}
