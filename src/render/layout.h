/* layout.h - the geometry of a network diagram, computed once as plain
 * numbers (no cairo), shared by the window and every export format.
 *
 * Coordinates are "layout units": x to the right, y downwards, origin at
 * the top-left corner of the picture; at scale 1 one unit is one pixel in
 * PNG / the window and one point in PDF / SVG / TikZ.
 *
 * Rules:
 *  - wire i is the horizontal line y = wire_y[i] from wire_x0 to wire_x1;
 *  - layer k is a column, its band [x0, x1]; every comparator of the layer
 *    lies strictly inside the band (dots and arrow heads included);
 *  - inside a layer, two comparators whose closed wire spans [lo, hi]
 *    intersect (touching included, so no dot sits on another comparator's
 *    segment) get different sub-columns; sub-columns are assigned greedily
 *    in order of lo (interval-graph colouring), which uses the minimum
 *    number: the largest set of pairwise-intersecting spans;
 *  - step_x[k] (k = 0..layers) is where the values "after k layers" sit:
 *    in the gap before layer k (k = layers: after the last one); gaps
 *    are value_w + 2 VALUE_GAP wide where values have room, LEAD at both
 *    ends otherwise, 0 between layers, plus STAGE_GAP between outlined
 *    stages.
 * Wire y's and comparator x's are snapped to a half-unit grid (v = m + 0.5)
 * so one-pixel lines stay crisp at scale 1. */
#ifndef SN_LAYOUT_H
#define SN_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/schedule.h"
#include "core/status.h"
#include "core/structure.h"

/* Sizes at scale 1 (layout units). They are documented so tests can
 * derive exact positions independently. */
#define SN_LAYOUT_MARGIN 12.0    /* outer margin on every side */
#define SN_LAYOUT_PITCH 24.0     /* distance between wires */
#define SN_LAYOUT_SUBCOL 11.0    /* distance between sub-columns */
#define SN_LAYOUT_PAD 9.0        /* band edge to first/last sub-column */
#define SN_LAYOUT_FONT 12.0      /* text size */
#define SN_LAYOUT_DIGIT 0.64     /* digit advance / font size (DejaVu Sans) */
#define SN_LAYOUT_LABEL_GAP 8.0  /* wire label to wire start */
#define SN_LAYOUT_LEAD 10.0      /* wire start to first band (no values) */
#define SN_LAYOUT_STAGE_GAP 6.0  /* extra room between outlined stages */
#define SN_LAYOUT_VALUE_PAD 5.0  /* value box: horizontal text padding */
#define SN_LAYOUT_VALUE_GAP 4.0  /* value box to band edge */
#define SN_LAYOUT_DOT 3.4        /* dot radius */
#define SN_LAYOUT_CMP_W 1.8      /* comparator line width */
#define SN_LAYOUT_WIRE_W 1.0     /* wire line width */
#define SN_LAYOUT_BLOCK_FONT 0.8 /* block label size / font size */
#define SN_LAYOUT_BLOCK_MAX 600  /* structure blocks kept (outer depths first) */
#define SN_LAYOUT_CHART_H 84.0   /* 0-1 chart: height of the bars' area */
#define SN_LAYOUT_MARK 6.0       /* 0-1 wire state marker: side */

typedef struct sn_layout_opts {
    double scale;         /* size factor; <= 0 means 1 */
    double width;         /* > 0: rescale so the total width is this */
    bool show_values;     /* leave room for value boxes between layers */
    unsigned value_chars; /* widest value label in characters (0: from n) */
    long value_step;      /* with show_values: room for value boxes only at
                             this step (an export); -1: at every step (the
                             window, so stepping never moves the picture) */
    bool structure;       /* outline and label sn_structure_blocks (schedules
                             only) instead of the plain stage outlines */
    bool zero_one;        /* room for the 0-1 chart under the wires */
    /* fit_w, fit_h > 0: fit into that box (the window's pane): the wire
     * pitch follows the height, then the layers spread to use the whole
     * width (at most SN_LAYOUT_STRETCH_MAX times their natural spacing);
     * `width` and `scale` are then ignored. */
    double fit_w, fit_h;
    /* > 0: no text smaller than this (wire labels, values); where rows are
     * too close for it, only every label_every-th wire is labelled. */
    double min_font;
    /* > 1 (without fit_w, fit_h): rows this many times their natural pitch
     * apart, at most SN_LAYOUT_ROW_STRETCH_MAX (edit mode on a narrow, tall
     * pane: larger targets for a finger); a fitted layout finds its own. */
    double row_stretch;
} sn_layout_opts;

/* Most a fitted layout stretches its layers apart. */
#define SN_LAYOUT_STRETCH_MAX 6.0
/* Most a fitted layout spreads its rows apart (height to spare). */
#define SN_LAYOUT_ROW_STRETCH_MAX 3.0

typedef struct sn_layout_cmp {
    uint32_t a, b;  /* as in the network: a gets the min, b the max */
    uint32_t layer; /* layer index */
    uint32_t sub;   /* sub-column inside the layer */
    double x;       /* x of the vertical segment */
    double y0, y1;  /* y of wire min(a,b) and max(a,b): y0 < y1 */
} sn_layout_cmp;

typedef struct sn_layout_layer {
    double x0, x1;    /* background band */
    size_t first;     /* index of its first comparator in cmp[] */
    size_t count;     /* comparators, in the order of sn_schedule_layer_pairs */
    uint32_t subcols; /* sub-columns used (>= 1) */
    uint32_t stage;   /* sn_schedule_layer_stage (or the layer index) */
} sn_layout_layer;

typedef struct sn_layout_stage {
    double x0, y0, x1, y1; /* outline rectangle */
    size_t first_layer, layer_count;
} sn_layout_stage;

/* A structure block: its outline, and its label when one found room.
 * Labels sit on the outline's top or bottom edge, centred on the line
 * between two wires (so no wire crosses them), where no comparator crosses
 * that line, inside the picture and clear of every other label; a block
 * whose label finds no such place keeps its outline only. */
typedef struct sn_layout_block {
    double x0, y0, x1, y1; /* outline, inset by depth so nested ones show */
    uint32_t depth;
    bool labelled;
    double lx, ly, lw, lh; /* label box: left, centre line, width, height */
    char label[SN_BLOCK_LABEL];
} sn_layout_block;

/* Rectangle of the 0-1 chart (zero_one): bars at step_x[k] rise from y1
 * (none sorted) to y0 (all 2^n sorted); the caption goes below y1. */
typedef struct sn_layout_chart {
    double x0, y0, x1, y1;
    double caption_y; /* baseline of the caption line */
    double bar_w;     /* width of one bar */
} sn_layout_chart;

typedef struct sn_layout {
    uint32_t n; /* wires */
    size_t layer_count, cmp_count, stage_count;
    double scale;            /* effective scale (after fitting width) */
    double width, height;    /* total picture size */
    double wire_x0, wire_x1; /* horizontal extent of every wire */
    double label_x;          /* wire labels are right-aligned at this x */
    double font_size, dot_r, cmp_w, wire_w, pitch;
    double row_stretch;      /* pitch / the scale's natural pitch: > 1 where a fitted
                                layout had height to spare (0 or 1: none) */
    double value_w, value_h; /* value box size (0 without values) */
    double value_font;       /* text in value boxes (font_size, less where a fitted
                                layout has no room for more, never below min_font:
                                0 = no text, the boxes are colour chips) */
    double *wire_y;          /* [n] */
    double *step_x;          /* [layer_count + 1] */
    sn_layout_layer *layer;  /* [layer_count] */
    sn_layout_cmp *cmp;      /* [cmp_count], layer by layer */
    sn_layout_stage *stage;  /* [stage_count]; 0 when outlines say nothing */
    sn_layout_block *block;  /* [block_count] (structure), outer depths first */
    size_t block_count;
    double label_font; /* block label text size */
    bool zero_one;     /* chart and wire markers have room */
    sn_layout_chart chart;
    double mark; /* side of a 0-1 wire state marker */
    /* text on wire i (its label, its value) only when i % label_every == 0:
     * rows too close for min_font (>= 1) */
    uint32_t label_every;
} sn_layout;

/* Lay out schedule s (its comparators are materialized, so mind the
 * limits of network.h). opts may be NULL (defaults). *out is owned by the
 * caller: sn_layout_destroy. */
sn_status sn_layout_create(const sn_schedule *s, const sn_layout_opts *opts, sn_layout **out,
                           sn_diag *diag);
/* The same for an explicit network (borrowed; every layer is its own
 * stage, so no outlines). */
sn_status sn_layout_create_network(const sn_network *net, const sn_layout_opts *opts,
                                   sn_layout **out, sn_diag *diag);
void sn_layout_destroy(sn_layout *lo); /* NULL is a no-op */

/* Layers whose band meets [x0, x1]: *first and *end (exclusive), found by
 * binary search; *first == *end when none. */
void sn_layout_layers_in(const sn_layout *lo, double x0, double x1, size_t *first, size_t *end);
/* Wires whose y lies in [y0 - pitch/2, y1 + pitch/2]: [*first, *end). */
void sn_layout_wires_in(const sn_layout *lo, double y0, double y1, uint32_t *first, uint32_t *end);

/* Does wire i carry text (its label, its value)? See label_every. */
static inline bool sn_layout_labelled(const sn_layout *lo, uint32_t i)
{
    return lo->label_every <= 1 || i % lo->label_every == 0;
}

/* Comparator under point (x, y) within distance tol, or -1. */
long sn_layout_hit(const sn_layout *lo, double x, double y, double tol);

/* Comparator of layer k joining wires u and v (any order), or -1. */
long sn_layout_find(const sn_layout *lo, size_t k, uint32_t u, uint32_t v);

#endif
