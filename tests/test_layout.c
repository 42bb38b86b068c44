/* test_layout.c - diagram geometry: exact positions for a tiny network,
 * and invariants (no overlaps inside a sub-column, everything inside its
 * band, optimal sub-column counts) for every generator and the real
 * networks of the shipped library (assets/networks); structure block
 * outlines and label places, and the 0-1 chart's room. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "render/layout.h"
#include "render/palette.h"
#include "sn_test.h"

static bool near(double a, double b)
{
    return fabs(a - b) < 1e-9;
}

static uint32_t lo_of(const sn_layout_cmp *c)
{
    return c->a < c->b ? c->a : c->b;
}
static uint32_t hi_of(const sn_layout_cmp *c)
{
    return c->a < c->b ? c->b : c->a;
}

/* Independent oracle: the largest set of pairwise-intersecting closed
 * integer intervals is the most intervals covering one wire. */
static uint32_t max_cover(const sn_layout_cmp *c, size_t count, uint32_t n)
{
    uint32_t best = 0;
    for (uint32_t w = 0; w < n; w++) {
        uint32_t k = 0;
        for (size_t i = 0; i < count; i++)
            if (lo_of(&c[i]) <= w && w <= hi_of(&c[i]))
                k++;
        if (k > best)
            best = k;
    }
    return best ? best : 1;
}

static void check_invariants(const sn_layout *lo, const sn_schedule *s, const char *what)
{
    size_t L = sn_schedule_layer_count(s);
    CHECKF(lo->n == sn_schedule_wires(s), "%s", what);
    CHECKF(lo->layer_count == L, "%s", what);
    CHECKF(lo->cmp_count == sn_schedule_size(s), "%s", what);
    for (uint32_t i = 0; i + 1 < lo->n; i++)
        CHECKF(fabs(lo->wire_y[i + 1] - lo->wire_y[i] - lo->pitch) <= 1.0, "%s wire %u", what, i);
    if (lo->n) {
        CHECKF(lo->wire_y[0] - lo->pitch / 2 >= 0, "%s", what);
        CHECKF(lo->wire_y[lo->n - 1] + lo->pitch / 2 <= lo->height, "%s", what);
    }
    CHECKF(lo->label_x < lo->wire_x0 && lo->wire_x1 <= lo->width, "%s", what);
    sn_comparator *pairs = NULL;
    size_t cap = 0;
    double prev_x1 = lo->wire_x0;
    for (size_t k = 0; k < L; k++) {
        const sn_layout_layer *ly = &lo->layer[k];
        CHECKF(ly->x0 >= prev_x1 - 1e-9 && ly->x1 > ly->x0, "%s layer %zu", what, k);
        CHECKF(lo->step_x[k] <= ly->x0 + 1e-9 && lo->step_x[k] >= prev_x1 - 1e-9, "%s step %zu",
               what, k);
        prev_x1 = ly->x1;
        /* the order is that of sn_schedule_layer_pairs (swap flags rely on it) */
        size_t m = sn_schedule_layer_size(s, k);
        CHECKF(ly->count == m, "%s layer %zu", what, k);
        if (m > cap) {
            sn_free(pairs);
            cap = m;
            pairs = sn_calloc(cap, sizeof *pairs);
        }
        sn_schedule_layer_pairs(s, k, pairs, m);
        for (size_t i = 0; i < m; i++) {
            const sn_layout_cmp *c = &lo->cmp[ly->first + i];
            CHECKF(c->a == pairs[i].a && c->b == pairs[i].b && c->layer == k,
                   "%s layer %zu cmp %zu", what, k, i);
            CHECKF(c->sub < ly->subcols, "%s", what);
            /* inside the band, dots and arrow heads included */
            double r = 1.25 * 1.15 * lo->dot_r;
            CHECKF(c->x - r > ly->x0 && c->x + r < ly->x1, "%s layer %zu cmp %zu", what, k, i);
            CHECKF(near(c->y0, lo->wire_y[lo_of(c)]) && near(c->y1, lo->wire_y[hi_of(c)]), "%s",
                   what);
            for (size_t j = 0; j < i; j++) {
                const sn_layout_cmp *d = &lo->cmp[ly->first + j];
                bool meet = lo_of(c) <= hi_of(d) && lo_of(d) <= hi_of(c);
                if (meet)
                    CHECKF(c->sub != d->sub, "%s layer %zu: cmps %zu and %zu share a column", what,
                           k, j, i);
                if (c->sub != d->sub)
                    CHECKF(fabs(c->x - d->x) >= SN_LAYOUT_SUBCOL * lo->scale - 1.0, "%s", what);
            }
        }
        uint32_t opt = max_cover(&lo->cmp[ly->first], ly->count, lo->n);
        CHECKF(ly->subcols == opt, "%s layer %zu: %u sub-columns, optimum %u", what, k, ly->subcols,
               opt);
    }
    CHECKF(lo->step_x[L] >= prev_x1 && lo->step_x[L] <= lo->wire_x1, "%s", what);
    for (size_t g = 0; g < lo->stage_count; g++) {
        const sn_layout_stage *st = &lo->stage[g];
        const sn_layout_layer *a = &lo->layer[st->first_layer];
        const sn_layout_layer *b = &lo->layer[st->first_layer + st->layer_count - 1];
        CHECKF(st->x0 >= a->x0 && st->x1 <= b->x1 && st->x0 < st->x1, "%s stage %zu", what, g);
        for (size_t k = st->first_layer; k < st->first_layer + st->layer_count; k++)
            CHECKF(lo->layer[k].stage == a->stage, "%s", what);
        if (g > 0)
            CHECKF(lo->stage[g - 1].x1 < st->x0, "%s stages %zu overlap", what, g);
    }
    sn_free(pairs);
}

/* Hand-derived from the constants in layout.h, scale 1, no values:
 * label width 0.64*12 = 7.68, so label_x = 19.68, wire_x0 = 27.68, first
 * band at 37.68; a band is 2*9 + 11*(subcols-1) wide; x = snap(x0 + 9 +
 * 11*sub); wire i at snap(24 + 24 i). */
static void test_tiny(void)
{
    sn_network *net = sn_network_create(4);
    sn_comparator l0[] = {{0, 2}, {1, 3}}, l1[] = {{0, 1}, {2, 3}}, l2[] = {{1, 2}},
                  l3[] = {{3, 0}};
    CHECK(sn_network_layer_add(net, l0, 2, NULL) == SN_OK);
    CHECK(sn_network_layer_add(net, l1, 2, NULL) == SN_OK);
    CHECK(sn_network_layer_add(net, l2, 1, NULL) == SN_OK);
    CHECK(sn_network_layer_add(net, l3, 1, NULL) == SN_OK);
    sn_layout *lo = NULL;
    CHECK(sn_layout_create_network(net, NULL, &lo, NULL) == SN_OK);
    if (!lo) {
        sn_network_destroy(net);
        return;
    }
    CHECK(lo->n == 4 && lo->layer_count == 4 && lo->cmp_count == 6 && lo->stage_count == 0);
    CHECK(near(lo->label_x, 19.68) && near(lo->wire_x0, 27.68));
    const double wy[] = {24.5, 48.5, 72.5, 96.5};
    for (int i = 0; i < 4; i++)
        CHECK(near(lo->wire_y[i], wy[i]));
    CHECK(lo->layer[0].subcols == 2 && lo->layer[1].subcols == 1);
    CHECK(lo->layer[2].subcols == 1 && lo->layer[3].subcols == 1);
    CHECK(near(lo->layer[0].x0, 37.68) && near(lo->layer[0].x1, 66.68));
    CHECK(near(lo->layer[1].x0, 66.68) && near(lo->layer[1].x1, 84.68));
    CHECK(near(lo->layer[3].x1, 120.68));
    const double cx[] = {46.5, 57.5, 75.5, 75.5, 93.5, 111.5};
    const uint32_t sub[] = {0, 1, 0, 0, 0, 0};
    for (int i = 0; i < 6; i++)
        CHECKF(near(lo->cmp[i].x, cx[i]) && lo->cmp[i].sub == sub[i], "cmp %d x %g", i,
               lo->cmp[i].x);
    CHECK(lo->cmp[5].a == 3 && lo->cmp[5].b == 0);
    CHECK(near(lo->cmp[5].y0, 24.5) && near(lo->cmp[5].y1, 96.5));
    CHECK(near(lo->step_x[0], 32.68) && near(lo->step_x[1], 66.68));
    CHECK(near(lo->step_x[4], 125.68));
    CHECK(near(lo->wire_x1, 130.68) && near(lo->width, 142.68) && near(lo->height, 120));

    /* hit testing and lookup */
    CHECK(sn_layout_hit(lo, 46.5, 60, 2) == 0);
    CHECK(sn_layout_hit(lo, 57.5, 30, 2) == -1);
    CHECK(sn_layout_hit(lo, 111.0, 60, 2) == 5);
    CHECK(sn_layout_find(lo, 3, 0, 3) == 5 && sn_layout_find(lo, 1, 3, 2) == 3);
    CHECK(sn_layout_find(lo, 1, 1, 2) == -1 && sn_layout_find(lo, 9, 1, 2) == -1);

    /* range queries agree with brute force */
    for (double x0 = 0; x0 < 140; x0 += 7.3)
        for (double w = 0; w < 60; w += 13.1) {
            size_t f, e;
            sn_layout_layers_in(lo, x0, x0 + w, &f, &e);
            for (size_t k = 0; k < lo->layer_count; k++) {
                bool meets = lo->layer[k].x1 >= x0 && lo->layer[k].x0 <= x0 + w;
                CHECKF(meets == (k >= f && k < e), "x0 %g w %g layer %zu", x0, w, k);
            }
            uint32_t a, b;
            sn_layout_wires_in(lo, x0, x0 + w, &a, &b);
            for (uint32_t i = 0; i < lo->n; i++) {
                bool in = lo->wire_y[i] >= x0 - 12 && lo->wire_y[i] <= x0 + w + 12;
                CHECKF(in == (i >= a && i < b), "y0 %g wire %u", x0, i);
            }
        }
    sn_layout_destroy(lo);

    /* values: every gap holds a value box between the bands */
    sn_layout_opts o = {1.0, 0, true, 2, -1, false, false, 0, 0, 0, 0};
    CHECK(sn_layout_create_network(net, &o, &lo, NULL) == SN_OK);
    if (lo) {
        double vw = 2 * 0.64 * 12 + 2 * 5;
        CHECK(near(lo->value_w, vw) && near(lo->value_h, 17));
        for (size_t k = 0; k <= lo->layer_count; k++) {
            double left = k ? lo->layer[k - 1].x1 : lo->wire_x0;
            double right = k < lo->layer_count ? lo->layer[k].x0 : lo->wire_x1;
            CHECK(near(lo->step_x[k], (left + right) / 2));
            CHECK(lo->step_x[k] - vw / 2 > left && lo->step_x[k] + vw / 2 < right);
        }
        CHECK(lo->value_h < lo->pitch);
        sn_layout_destroy(lo);
    }
    /* --width: rescaled exactly */
    sn_layout_opts ow = {1.0, 500, false, 0, -1, false, false, 0, 0, 0, 0};
    CHECK(sn_layout_create_network(net, &ow, &lo, NULL) == SN_OK);
    if (lo) {
        CHECK(near(lo->width, 500) && fabs(lo->scale - 500 / 142.68) < 1e-9);
        CHECK(fabs(lo->height - 120 * lo->scale) < 1e-9);
        sn_layout_destroy(lo);
    }
    /* allocation failures: a clean SN_ENOMEM, never a crash or a leak
     * (sn_alloc_live back where it was), with every option's allocations:
     * plain, values at every step, and a generated network's structure
     * blocks with the 0-1 chart */
    sn_schedule *gen = NULL;
    sn_diag gd;
    CHECK(sn_schedule_load("bitonic:16", &gen, &gd) == SN_OK);
    sn_layout_opts oom_opts[3] = {{1.0, 0, false, 0, -1, false, false, 0, 0, 0, 0},
                                  {1.0, 0, true, 0, -1, false, false, 0, 0, 0, 0},
                                  {1.0, 0, true, 0, 3, true, true, 400, 300, 6, 0}};
    size_t base = sn_alloc_live();
    for (int which = 0; which < 3; which++) {
        for (size_t nth = 1;; nth++) {
            sn_alloc_fail_after(nth);
            sn_status st = which < 2 ? sn_layout_create_network(net, &oom_opts[which], &lo, NULL)
                                     : sn_layout_create(gen, &oom_opts[which], &lo, NULL);
            sn_alloc_fail_after(0);
            if (st == SN_OK) {
                sn_layout_destroy(lo);
                break;
            }
            CHECKF(st == SN_ENOMEM && lo == NULL, "options %d, allocation %zu: %d", which, nth,
                   (int)st);
            CHECKF(sn_alloc_live() == base, "options %d, allocation %zu: a leak", which, nth);
            if (nth > 1000) {
                FAIL("allocation failure loop did not end");
                break;
            }
        }
    }
    sn_schedule_destroy(gen);
    sn_network_destroy(net);
}

static void test_generators(void)
{
    const sn_algo algos[] = {SN_ALGO_BITONIC,  SN_ALGO_ODDEVEN_MERGE, SN_ALGO_TRANSPOSITION,
                             SN_ALGO_PAIRWISE, SN_ALGO_BUBBLE,        SN_ALGO_INSERTION};
    for (size_t a = 0; a < sizeof algos / sizeof algos[0]; a++)
        for (uint32_t n = 1; n <= 40; n += (n < 17 ? 1 : 7)) {
            sn_schedule *s = NULL;
            if (sn_schedule_generate(algos[a], n, &s, NULL) != SN_OK) {
                CHECKF(0, "generate %s:%u", sn_algo_name(algos[a]), n);
                continue;
            }
            char what[64];
            snprintf(what, sizeof what, "%s:%u", sn_algo_name(algos[a]), n);
            for (int v = 0; v < 2; v++) {
                sn_layout_opts o = {v ? 1.7 : 1.0, 0, v == 1, 0, -1, false, false, 0, 0, 0, 0};
                sn_layout *lo = NULL;
                CHECKF(sn_layout_create(s, &o, &lo, NULL) == SN_OK, "%s", what);
                if (lo)
                    check_invariants(lo, s, what);
                sn_layout_destroy(lo);
            }
            sn_schedule_destroy(s);
        }
    /* the big one the window must handle */
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 1024, &s, NULL) == SN_OK);
    sn_layout *lo = NULL;
    CHECK(s && sn_layout_create(s, NULL, &lo, NULL) == SN_OK);
    if (lo) {
        CHECK(lo->cmp_count == 28160);
        /* each bitonic merge of size p needs p-1 sub-columns in all */
        size_t total = 0;
        for (size_t k = 0; k < lo->layer_count; k++)
            total += lo->layer[k].subcols;
        CHECKF(total == 2036, "%zu sub-columns", total);
    }
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
}

static void lay_out_library(const char *path, const char *name, void *ctx)
{
    int *tested = ctx;
    (void)name;
    sn_schedule *s = NULL;
    sn_diag dg;
    sn_diag_clear(&dg);
    if (sn_schedule_load(path, &s, &dg) != SN_OK) {
        CHECKF(0, "cannot load %s: %s", path, dg.text);
        return;
    }
    sn_layout *lo = NULL;
    CHECKF(sn_layout_create(s, NULL, &lo, NULL) == SN_OK, "%s", path);
    if (lo)
        check_invariants(lo, s, name);
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
    (*tested)++;
}

/* Every network of the shipped library. */
static void test_library(void)
{
    int tested = 0;
    int visited = sn_test_each_library(lay_out_library, &tested);
    printf("laid out %d of the library's %d networks\n", tested, visited);
    CHECK(tested >= 120 && tested == visited);
}

/* Block outlines exactly where the layout's rules put them, and every
 * placed label on a line between wires, inside the picture, clear of the
 * other labels and of every comparator crossing that line. */
static void check_blocks(const char *spec, size_t min_labelled)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load(spec, &s, NULL) == SN_OK);
    sn_layout_opts o = {1.0, 0, false, 0, -1, true, false, 0, 0, 0, 0};
    sn_layout *lo = NULL, *plain = NULL;
    sn_block *b = NULL;
    size_t count = 0, labelled = 0;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    CHECK(sn_structure_blocks(s, &b, &count, NULL) == SN_OK);
    CHECKF(lo->block_count == count, "%s: %zu blocks laid out, %zu listed", spec, lo->block_count,
           count);
    double top = lo->wire_y[0] - lo->pitch / 2;
    for (size_t g = 0; g < lo->block_count && g < count; g++) {
        const sn_layout_block *x = &lo->block[g];
        double ins = 1.5 + 2.0 * b[g].depth;
        double x0 = lo->layer[b[g].first_layer].x0, x1 = lo->layer[b[g].last_layer].x1;
        double y0 = top + b[g].first_wire * lo->pitch, y1 = top + (b[g].last_wire + 1) * lo->pitch;
        CHECKF(near(x->x0, x0 + fmin(ins, 0.3 * (x1 - x0))) &&
                   near(x->x1, x1 - fmin(ins, 0.3 * (x1 - x0))) &&
                   near(x->y0, y0 + fmin(ins, 0.3 * (y1 - y0))) &&
                   near(x->y1, y1 - fmin(ins, 0.3 * (y1 - y0))),
               "%s block %zu outline", spec, g);
        CHECK(strcmp(x->label, b[g].label) == 0 && x->depth == b[g].depth);
        if (!x->labelled)
            continue;
        labelled++;
        /* between two wires: the box stays off every wire line */
        for (uint32_t i = 0; i < lo->n; i++)
            CHECKF(fabs(lo->wire_y[i] - x->ly) >= x->lh / 2, "%s label %zu on wire %u", spec, g, i);
        CHECK(x->lx >= lo->wire_x0 && x->lx + x->lw <= lo->wire_x1);
        CHECK(x->ly - x->lh / 2 >= 0 && x->ly + x->lh / 2 <= lo->height);
        for (size_t h = 0; h < g; h++) {
            const sn_layout_block *o2 = &lo->block[h];
            if (o2->labelled)
                CHECKF(x->lx >= o2->lx + o2->lw || o2->lx >= x->lx + x->lw ||
                           fabs(x->ly - o2->ly) >= (x->lh + o2->lh) / 2,
                       "%s labels %zu and %zu overlap", spec, h, g);
        }
        for (size_t i = 0; i < lo->cmp_count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            bool spans = c->y0 < x->ly && x->ly < c->y1;
            CHECKF(!spans || c->x + lo->dot_r < x->lx || c->x - lo->dot_r > x->lx + x->lw,
                   "%s label %zu crosses comparator %zu", spec, g, i);
        }
    }
    CHECKF(labelled >= min_labelled, "%s: %zu labels placed, expected at least %zu", spec, labelled,
           min_labelled);
    /* without structure the same network has no blocks and its stage
     * outlines; with it, the stages stand further apart */
    o.structure = false;
    CHECK(sn_layout_create(s, &o, &plain, NULL) == SN_OK);
    CHECK(plain->block_count == 0 && plain->width <= lo->width);
    sn_layout_destroy(plain);
    sn_free(b);
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
}

static void test_structure(void)
{
    check_blocks("bitonic:8", 5);
    check_blocks("bitonic-classic:16", 12);
    check_blocks("bitonic:16", 12);
    check_blocks("oddeven-merge:12", 4);
    check_blocks("pairwise:16", 3);
    check_blocks("transposition:6", 3);
    check_blocks("bubble:6", 0);
    /* bitonic:8: every depth-0 block is labelled */
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load("bitonic:8", &s, NULL) == SN_OK);
    sn_layout_opts o = {1.0, 0, false, 0, -1, true, false, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    for (size_t g = 0; g < lo->block_count; g++)
        CHECKF(lo->block[g].depth > 0 || lo->block[g].labelled, "bitonic:8 %s unlabelled",
               lo->block[g].label);
    sn_layout_destroy(lo);
    /* the window's 4096 wires: the block count is capped, outer depths
     * first, whole depths only */
    sn_schedule_destroy(s);
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 1024, &s, NULL) == SN_OK);
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    CHECK(lo->block_count > 0 && lo->block_count <= SN_LAYOUT_BLOCK_MAX);
    CHECK(lo->block[lo->block_count - 1].depth >= lo->block[0].depth);
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
}

/* The 0-1 chart: below the wires, as wide as they are, a bar per step. */
static void test_zero_one_room(void)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, 8, &s, NULL) == SN_OK);
    sn_layout_opts o = {1.0, 0, false, 0, -1, false, true, 0, 0, 0, 0};
    sn_layout *lo = NULL, *plain = NULL;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    o.zero_one = false;
    CHECK(sn_layout_create(s, &o, &plain, NULL) == SN_OK);
    const sn_layout_chart *c = &lo->chart;
    CHECK(lo->zero_one && !plain->zero_one);
    CHECK(c->y0 > lo->wire_y[lo->n - 1] + lo->pitch / 2 && c->y1 - c->y0 == SN_LAYOUT_CHART_H);
    CHECK(c->caption_y > c->y1 && lo->height > c->caption_y + lo->font_size);
    CHECK(c->x0 == lo->wire_x0 && c->x1 == lo->wire_x1);
    CHECK(lo->height > plain->height && lo->wire_x1 == plain->wire_x1);
    CHECK(c->bar_w >= 2 && c->bar_w <= 14 && lo->mark == SN_LAYOUT_MARK);
    /* bars do not touch: the narrowest gap between steps holds one */
    for (size_t k = 0; k < lo->layer_count; k++)
        CHECK(lo->step_x[k + 1] - lo->step_x[k] >= c->bar_w);
    sn_layout_destroy(lo);
    sn_layout_destroy(plain);
    sn_schedule_destroy(s);
}

/* Refused arguments, a scale that is no number, and a value column asked
 * for past the last step (no room is made for it). */
static void test_edges(void)
{
    sn_layout *lo = (sn_layout *)1;
    sn_diag d;
    CHECK(sn_layout_create(NULL, NULL, &lo, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no schedule to lay out") != NULL);
    CHECK(sn_layout_create_network(NULL, NULL, &lo, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no network to lay out") != NULL);
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load("bitonic:8", &s, &d) == SN_OK);
    if (!s)
        return;
    CHECK(sn_layout_create(s, NULL, NULL, &d) == SN_EINVAL);
    sn_layout *one = NULL, *nan = NULL, *neg = NULL;
    sn_layout_opts o = {1.0, 0, false, 0, -1, false, false, 0, 0, 0, 0};
    CHECK(sn_layout_create(s, &o, &one, NULL) == SN_OK);
    o.scale = NAN;
    CHECK(sn_layout_create(s, &o, &nan, NULL) == SN_OK);
    o.scale = -2;
    CHECK(sn_layout_create(s, &o, &neg, NULL) == SN_OK);
    CHECK(one && nan && neg && nan->width == one->width && neg->height == one->height);
    sn_layout_destroy(nan);
    sn_layout_destroy(neg);
    /* values at step 99 of a 6-layer network: boxes nowhere */
    sn_layout *past = NULL;
    sn_layout_opts ov = {1.0, 0, true, 0, 99, true, false, 0, 0, 0, 0};
    CHECK(sn_layout_create(s, &ov, &past, NULL) == SN_OK);
    CHECK(past && one && past->layer_count == one->layer_count);
    sn_layout_destroy(past);
    sn_layout_destroy(one);
    sn_schedule_destroy(s);
}

/* Options that are not numbers to use: a scale, a fit box or a width of
 * infinity (or NaN) is read as not given, so the layout is the default
 * one; no network at all is refused. A rank past 1 takes the top colour. */
static void test_odd_options(void)
{
    sn_network *net = sn_network_create(4);
    CHECK(net && sn_network_add_asap(net, 0, 3, NULL) == SN_OK);
    sn_layout *plain = NULL;
    CHECK(net && sn_layout_create_network(net, NULL, &plain, NULL) == SN_OK && plain);
    const sn_layout_opts odd[] = {
        {INFINITY, 0, false, 0, -1, false, false, 0, 0, 0, 0},
        {1.0, 0, false, 0, -1, false, false, INFINITY, INFINITY, 0, 0},
        {1.0, 0, false, 0, -1, false, false, 100, NAN, 0, 0},
        {1.0, INFINITY, false, 0, -1, false, false, 0, 0, 0, 0},
    };
    for (size_t i = 0; plain && i < sizeof odd / sizeof odd[0]; i++) {
        sn_layout *lo = NULL;
        CHECK(sn_layout_create_network(net, &odd[i], &lo, NULL) == SN_OK && lo);
        CHECKF(lo && lo->width == plain->width && lo->height == plain->height && lo->scale == 1.0,
               "options %zu: %g x %g", i, lo ? lo->width : 0, lo ? lo->height : 0);
        sn_layout_destroy(lo);
    }
    sn_layout_destroy(plain);
    sn_network_destroy(net);
    sn_layout *lo = (sn_layout *)1;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_layout_create_network(NULL, NULL, &lo, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no network to lay out") != NULL);
    sn_rgb top = sn_palette_rank(1.0), past = sn_palette_rank(7.5);
    CHECK(top.r == past.r && top.g == past.g && top.b == past.b);
}

int main(void)
{
    test_edges();
    test_structure();
    test_zero_one_room();
    test_tiny();
    test_generators();
    test_library();
    test_odd_options();
    return sn_test_finish("test_layout");
}
