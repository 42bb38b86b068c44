/* draw.h - turn a layout into cairo calls on a cairo_t the caller owns:
 * the window (an image surface per frame) and every export use this.
 *
 * Drawing never changes the layout and keeps no state between calls. Each
 * kind of element goes into one cairo path (all wires, all plain
 * comparators, all dots, ...), so vector outputs stay small and large
 * networks draw fast; with a visible rectangle only what meets it is
 * emitted. */
#ifndef SN_DRAW_H
#define SN_DRAW_H

#include <cairo.h> /* for: cairo_t */
#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/exec.h"
#include "core/status.h"
#include "render/layout.h"
#include "render/palette.h"

/* What to show on top of the bare network; all parts optional. */
typedef struct sn_draw_state {
    size_t step; /* values are those after `step` layers (0..layers) */
    /* [n] raw keys at that step (borrowed), or NULL. Drawn in boxes at
     * step_x[step], coloured by rank, only when the layout was made with
     * show_values (and room at that step: value_step == step or -1). */
    const uint32_t *values;
    sn_key_type type; /* of values */
    /* Flags for the comparators of layer `step` (the next one), in layout
     * order; NULL: derived from values (swap iff value on a > value on b). */
    const uint8_t *swaps;
    const uint32_t *path; /* [layers + 1] wire of a followed element at each
                             step (borrowed), or NULL */
    long highlight_cmp;   /* comparator index to highlight, or -1 */
    /* The 0-1 profile (borrowed, or NULL), drawn when the layout has room
     * for it (zero_one): the chart of sorted inputs per step (the bar at
     * `step` highlighted when chart_step), and on every wire at every step
     * a marker for what it can hold over the inputs with zo_ones ones (not
     * at `step` when values are shown there). zo_note (borrowed, or NULL)
     * is shown in the chart instead when there is no profile. */
    const sn_zero_one *zo;
    uint32_t zo_ones;
    bool chart_step;
    const char *zo_note;
    /* Outputs a selection network selects (borrowed, or NULL; e.g. a
     * median network's middle output): a ring at the end of each wire. */
    const uint32_t *selected;
    size_t selected_count;
} sn_draw_state;

/* No values, no path, no highlight. */
void sn_draw_state_init(sn_draw_state *st);

typedef struct sn_rect {
    double x, y, w, h; /* layout units */
} sn_rect;

/* Draw the diagram (state may be NULL: just the network), with the
 * layout's structure blocks when it has them (instead of stage outlines). visible == NULL
 * draws everything; otherwise only what meets that rectangle, whose
 * background is filled. The caller's cairo state (transform, clip) is
 * respected and restored. SN_ENOMEM if ranking the values failed (the
 * values are then drawn uncoloured), SN_EIO if cairo is in an error state
 * afterwards. */
sn_status sn_draw(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const sn_draw_state *state,
                  const sn_rect *visible);

/* The font every picture uses (fonts-dejavu-core). */
#define SN_DRAW_FONT "DejaVu Sans"

/* Rank of every value: ranks[i] = number of values strictly smaller than
 * values[i] (equal keys share a rank). SN_ENOMEM on allocation failure. */
sn_status sn_draw_ranks(const uint32_t *values, uint32_t n, sn_key_type t, uint32_t *ranks);

#endif
