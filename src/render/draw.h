/* draw.h - a diagram on a cairo_t the caller owns: the window (an image
 * surface per frame) and every export use this. It builds the diagram's
 * scene (diagram.h: where everything goes) and paints it (scene_cairo.h);
 * drawing never changes the layout and keeps no state between calls. */
#ifndef SN_DRAW_H
#define SN_DRAW_H

#include <cairo.h> /* for: cairo_t */
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "render/diagram.h" /* for: sn_draw_state, sn_draw_ranks */
#include "render/layout.h"
#include "render/palette.h"
#include "render/scene.h" /* for: sn_rect */

/* Draw the diagram (state may be NULL: just the network), with the
 * layout's structure blocks when it has them (instead of stage outlines). visible == NULL
 * draws everything; otherwise only what meets that rectangle, whose
 * background is filled. The caller's cairo state (transform, clip) is
 * respected and restored. SN_ENOMEM if ranking the values failed (the
 * values are then drawn uncoloured), the followed path could not be built
 * (it is then left out) or the scene could not be built, SN_EIO if cairo
 * is in an error state afterwards. */
sn_status sn_draw(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const sn_draw_state *state,
                  const sn_rect *visible);

/* The font every picture uses (fonts-dejavu-core). */
#define SN_DRAW_FONT "DejaVu Sans"

#endif
