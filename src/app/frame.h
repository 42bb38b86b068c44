/* frame.h - one frame of the window painted with cairo from a view: the
 * network pane (the diagram's scene), the bars pane, the status line and
 * the help overlay, placed by frame_scene.h. Reads the view, never
 * changes it.
 *
 * The frame keeps a draw-side cache (the layout of the current network and
 * an image of the static network at the current camera), which is why it is
 * an object; the cache is only ever a function of the view. */
#ifndef SN_FRAME_H
#define SN_FRAME_H

#include <cairo.h> /* for: cairo_t, cairo_surface_t */
#include <stdbool.h>

#include "core/status.h"
#include "render/layout.h"
#include "render/scene.h"
#include "frame_scene.h" /* for: sn_box, sn_panes, sn_frame_extra */
#include "group.h"
#include "view.h"

typedef struct sn_frame sn_frame;

sn_frame *sn_frame_create(void);
void sn_frame_destroy(sn_frame *f); /* NULL is a no-op */

/* The layout of v's network (made on first use after a change), or NULL
 * with diag set when it cannot be made. */
const sn_layout *sn_frame_layout(sn_frame *f, const sn_view *v, sn_diag *diag);

void sn_frame_panes(const sn_frame *f, const sn_view *v, double w, double h, double s, sn_panes *p);

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

/* The whole frame of g as sn_frame_draw_group paints it, as one scene in
 * device pixels (sc is reset to w x h): the diagrams at their steps over
 * what their panes show, bars, status lines, caption, help. For tests
 * (readability) and for painters other than cairo. */
sn_status sn_frame_scene_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                               double w, double h, double s, sn_scene *sc);

/* The area the last frame gave this view (false before the first). */
bool sn_frame_area(const sn_frame *f, sn_box *area);

/* Which wire and step are under device pixel (x, y)? In the bars pane the
 * bar drawn there in the last frame (the scene's tagged bars, at their
 * animated places; else the bar's slot) at the current step; in the
 * network pane the nearest wire and the step whose values sit left of x.
 * false when none. */
bool sn_frame_pick(sn_frame *f, const sn_view *v, double w, double h, double s, double x, double y,
                   uint32_t *wire, size_t *step);

/* What lies under device pixel (x, y) of the network pane, for edit mode:
 * the comparator is the one the picture draws there (the diagram's scene
 * and the window's overlay, last drawn first). */
typedef struct sn_frame_hit {
    bool wire_hit; /* a wire within half a pitch */
    uint32_t wire; /* the nearest wire */
    size_t col;    /* column: layers whose band ends left of x */
    double x;      /* layout x */
    long layer;    /* comparator under the point: its layer, or -1 */
    long index;    /* and its index in the layer */
} sn_frame_hit;

/* false when (x, y) is outside the network pane. */
bool sn_frame_edit_hit(sn_frame *f, const sn_view *v, double w, double h, double s, double x,
                       double y, sn_frame_hit *hit);

/* Write the diagram at the current step as SVG to `path` (the whole
 * network, values and path, at layout size). */
sn_status sn_frame_save_svg(sn_frame *f, const sn_view *v, const char *path, sn_diag *diag);

#endif
