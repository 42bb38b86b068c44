/* frame_scene.h - where the window's frame puts everything, as a scene
 * (render/scene.h) in device pixels: the panes, the bars with their value
 * labels and the next layer's brackets, the status lines, a lesson's
 * caption band and the help box. frame.c paints what this builds.
 *
 * Pure numbers: no cairo, no SDL, no threads (the page compiles it with
 * the platform-free view.c). Text is measured only here, with the scene's
 * metrics table, so wrapping and shortening never happen while painting.
 *
 * Invariants: every primitive of a pane lies inside that pane (each pane
 * is a clip of role SN_ROLE_PANEL); no text is smaller than the frame's
 * text floor (sn_frame_text_floor); text boxes do not overlap. Where a
 * label does not fit it is left out (every k-th value label, a shorter
 * status item) and a scene note says so. */
#ifndef SN_FRAME_SCENE_H
#define SN_FRAME_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/layout.h"
#include "render/scene.h"
#include "session/group.h"
#include "session/view.h"

typedef struct sn_box {
    double x, y, w, h; /* device pixels */
} sn_box;

/* Where things are in a frame of w x h device pixels at HiDPI factor s. */
typedef struct sn_panes {
    double font;   /* UI text size in pixels */
    double floor;  /* no text smaller than this (device pixels) */
    sn_box net;    /* the network pane */
    sn_box fitted; /* the fitted (zoom 1) picture inside the net pane */
    sn_box bars;   /* the bars pane */
    sn_box status; /* the status line(s) (compact: the row's heading) */
    double edit_w; /* edit mode: layout width the pane is fitted to (0: none) */
    sn_box race;   /* edit mode: the race panel, right of the bars (w 0: none) */
} sn_panes;

/* What a lesson adds to a frame (all borrowed, each may be NULL). */
typedef struct sn_frame_extra {
    const char *title;    /* the step's title, over the caption */
    const char *caption;  /* one to three sentences in large type across the top */
    const char *progress; /* "step 3 of 12", on the status line */
} sn_frame_extra;

/* The readable minimum of window text at HiDPI factor 1 (device pixels):
 * the text floor is never below it (times s and the font scale). */
#define SN_FRAME_MIN_TEXT 12.0

/* UI text size for a window win_h device pixels high at HiDPI factor s. */
double sn_frame_ui_font(const sn_view *v, double win_h, double s);
/* The smallest text the frame shows: 12 px at 720p (times s and the font
 * scale), larger on larger windows. */
double sn_frame_text_floor(const sn_view *v, double win_h, double s);

/* Panes of v inside area with UI font `font` and text floor `floor`: one
 * view (status at the bottom) or a compact row of several (a heading line
 * on top, network left, bars right). lo (may be NULL) gives the fitted
 * box; edit_w > 0 is the width the edit mode keeps (see frame.c). */
void sn_frame_panes_in(const sn_view *v, const sn_layout *lo, sn_box area, double font,
                       double floor, bool compact, double edit_w, sn_panes *p);

/* Layout -> device transform of the network pane: scale, and the device
 * point of layout (0, 0) in *ox, *oy. */
double sn_frame_net_transform(const sn_layout *lo, const sn_view *v, const sn_panes *p, double *ox,
                              double *oy);

/* Room for new comparators right of the last layer in edit mode (layout
 * units; 0 outside edit mode). */
double sn_frame_edit_room(const sn_view *v, const sn_layout *lo);

/* The bars pane of v into sc: the bars (SN_ROLE_BAR, wire i) at their
 * animated places, value labels (SN_ROLE_VALUE), the outputs out of order,
 * the followed element and the next layer's comparators as brackets
 * (SN_ROLE_COMPARATOR). ranks[n]: rank of each value (borrowed). All of it
 * inside p->bars. */
void sn_frame_scene_bars(sn_scene *sc, const sn_view *v, const sn_layout *lo, const sn_panes *p,
                         const uint32_t *ranks);

/* The status line(s) of a single view (not compact) into p->status. */
void sn_frame_scene_status(sn_scene *sc, const sn_view *v, const sn_panes *p, const char *progress);
/* The heading line of a compact row (its numbers). */
void sn_frame_scene_heading(sn_scene *sc, const sn_view *v, const sn_panes *p);
/* The common status line of a group of several, in box b. */
void sn_frame_scene_group_status(sn_scene *sc, const sn_group *g, sn_box b, double font,
                                 double floor, const char *progress);

/* Height of a lesson's caption band across a w-wide window (0: none);
 * with sc, also its primitives. */
double sn_frame_scene_caption(sn_scene *sc, const sn_view *v, const sn_frame_extra *x, double w,
                              double font, double floor);

/* The box of the race panel's small drawing of the computer's network
 * (w or h 0: no room for one). */
sn_box sn_frame_race_drawing_box(const sn_view *v, const sn_panes *p);
/* The race panel into p->race: the computer's best (size, layers, time),
 * the student's network and its verdict, who is ahead, the keys; and
 * `drawing` (the computer's network as a diagram scene in layout units,
 * lw x lh; may be NULL) scaled into sn_frame_race_drawing_box. */
void sn_frame_scene_race(sn_scene *sc, const sn_view *v, const sn_panes *p, const sn_scene *drawing,
                         double lw, double lh);

/* The keys in a box over a w x h frame. */
void sn_frame_scene_help(sn_scene *sc, const sn_view *v, double w, double h, double font,
                         double floor);

/* What the window adds on the network (layout units, for the net pane's
 * transform): the glow of the comparators that swapped while a step
 * animates, and edit mode's marks (wires drawn on into the room for new
 * comparators, redundant comparators faded, the selected one haloed, the
 * one being dragged). */
void sn_frame_scene_net_overlay(sn_scene *sc, const sn_view *v, const sn_layout *lo, double z);

/* Append src to dst scaled by z and moved by (ox, oy): dst = ox + z * src
 * (a diagram in layout units into the frame's device pixels). */
void sn_frame_scene_append(sn_scene *dst, const sn_scene *src, double z, double ox, double oy);

/* Height of the common status line of a group. */
double sn_frame_group_status_h(double font);

#endif
