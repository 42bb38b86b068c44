/* diagram.h - a network diagram as a scene (scene.h): where every wire,
 * comparator, label, value box and chart bar goes, from a finished layout
 * and what to show on it. Pure numbers (no cairo): the window, every
 * export and the page paint the list this builds, and the readability
 * tests read it. */
#ifndef SN_DIAGRAM_H
#define SN_DIAGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "core/analysis.h"
#include "core/exec.h"
#include "core/status.h"
#include "render/layout.h"
#include "render/palette.h"
#include "render/scene.h"

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

/* Append the diagram of lo (state may be NULL: just the network) to sc,
 * back to front: background, layer bands, stage outlines or structure
 * blocks, step marker, followed path, wires, comparators by class
 * (segments, dots, arrow heads), wire labels, the 0-1 chart and markers,
 * block labels, selected rings, value boxes and values. visible == NULL:
 * everything; otherwise only what meets that rectangle (grown by what
 * sticks out of a centre line), under a clip to it, over a background
 * filling it. Notes say what was thinned or left out (SN_NOTE_*).
 * SN_ENOMEM if ranking the values failed (they are then uncoloured), the
 * followed path could not be built (it is then left out) or the scene ran
 * out of memory (sn_scene_status). */
sn_status sn_diagram_scene(sn_scene *sc, const sn_layout *lo, const sn_theme *th,
                           const sn_draw_state *st, const sn_rect *visible);

/* About how many primitives sn_diagram_scene makes for lo (with values
 * when values is true): to refuse a picture before building it. */
double sn_diagram_scene_estimate(const sn_layout *lo, bool values);

/* Rank of every value: ranks[i] = number of values strictly smaller than
 * values[i] (equal keys share a rank). SN_ENOMEM on allocation failure. */
sn_status sn_draw_ranks(const uint32_t *values, uint32_t n, sn_key_type t, uint32_t *ranks);

#endif
