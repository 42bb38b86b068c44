/* frame_build.h - the window's frame without cairo: the layout of a view's
 * network fitted to its pane, the whole frame as a scene (the display list
 * that cairo paints in the window and the page's script paints in a
 * browser), and the hit tests that map a device pixel back to a wire, a
 * step or a comparator. frame.h adds the cairo painting on top.
 *
 * The frame keeps a cache (the layout of the current network, the 0-1
 * profile and, when painted by frame.c, an image of the static network),
 * which is why it is an object; the cache is only ever a function of the
 * view. */
#ifndef SN_FRAME_BUILD_H
#define SN_FRAME_BUILD_H

#include <stdbool.h>

#include "core/status.h"
#include "render/layout.h"
#include "render/scene.h"
#include "session/frame_scene.h" /* for: sn_box, sn_panes, sn_frame_extra */
#include "session/group.h"
#include "session/view.h"

typedef struct sn_frame sn_frame;

sn_frame *sn_frame_create(void);
void sn_frame_destroy(sn_frame *f); /* NULL is a no-op */

/* The layout of v's network (made on first use after a change), or NULL
 * with diag set when it cannot be made. */
const sn_layout *sn_frame_layout(sn_frame *f, const sn_view *v, sn_diag *diag);

void sn_frame_panes(const sn_frame *f, const sn_view *v, double w, double h, double s, sn_panes *p);

/* The whole frame of g as sn_frame_draw_group paints it, as one scene in
 * device pixels (sc is reset to w x h): the diagrams at their steps over
 * what their panes show, bars, status lines, caption, help. For tests
 * (readability) and for painters other than cairo. */
sn_status sn_frame_scene_group(sn_frame *const *frames, const sn_group *g, const sn_frame_extra *x,
                               double w, double h, double s, sn_scene *sc);

/* The diagram of v at its current step, whole, at its layout's size (what
 * sn_frame_save_svg writes, as a scene: the page's SVG download). sc is
 * reset to the layout's size. */
sn_status sn_frame_scene_diagram(sn_frame *f, const sn_view *v, sn_scene *sc, sn_diag *diag);

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

#endif
