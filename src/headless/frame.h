/* frame.h - one frame of the window painted with cairo from a view: the
 * network pane (the diagram's scene), the bars pane, the status line and
 * the help overlay, placed by frame_scene.h. Reads the view, never
 * changes it. The frame object, its layout, its scene and its hit tests
 * need no cairo: they are frame_build.h (included here). */
#ifndef SN_FRAME_H
#define SN_FRAME_H

#include <cairo.h> /* for: cairo_t, cairo_surface_t */
#include <stdbool.h>

#include "core/status.h"
#include "session/frame_build.h" /* for: sn_frame and everything without cairo */

/* Draw v into cr over a w x h device-pixel area at HiDPI factor s. */
sn_status sn_frame_draw(sn_frame *f, const sn_view *v, cairo_t *cr, double w, double h, double s);

/* Draw a group: one view as sn_frame_draw does, several as stacked rows
 * (each row: a line of its own numbers, its network, its bars) over one
 * status line; frames[i] draws g->view[i]. The caption band of x, when
 * given, takes the top and pushes everything down. */
/* With dirty (room for SN_FRAME_DIRTY_MAX boxes) and ndirty: when only
 * steps and animations changed since the last frame of these frames, only
 * the boxes that change are drawn (cr is clipped to them) and listed, for
 * the window to push just those; *ndirty = 0 means the whole frame. */
#define SN_FRAME_DIRTY_MAX 16
sn_status sn_frame_draw_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                              cairo_t *cr, double w, double h, double s, sn_box *dirty,
                              size_t *ndirty);

/* Write the diagram at the current step as SVG to `path` (the whole
 * network, values and path, at layout size). */
sn_status sn_frame_save_svg(sn_frame *f, const sn_view *v, const char *path, sn_diag *diag);

#endif
