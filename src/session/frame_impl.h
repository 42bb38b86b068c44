/* frame_impl.h - the frame object's insides, shared by frame_build.c (the
 * layout, the scene and the hit tests, no cairo) and frame.c (the cairo
 * painting). Private to src/session and src/headless: nothing else includes it.
 *
 * Invariant: layout, zo and the painter's cache are only ever functions of
 * the view they were made for (net_id, the parts it shows, the camera). */
#ifndef SN_FRAME_IMPL_H
#define SN_FRAME_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/analysis.h"
#include "render/diagram.h"
#include "render/palette.h"
#include "session/frame_build.h"

/* Edit mode reserves room for this many new columns, and rescales only
 * when they are used up. */
#define SN_FRAME_EDIT_COLUMNS 2

struct sn_frame {
    sn_layout *layout;
    uint64_t layout_net;   /* net_id the layout was made for (0: none) */
    unsigned layout_parts; /* structure / zero_one the layout was made with */
    sn_zero_one zo;        /* profile of zo_net (zo.sorted NULL: none) */
    uint64_t zo_net;
    char zo_note[160];
    /* the painter's image of the static network (frame.c: a cairo
     * surface), opaque here, and how to release it */
    void *cache;
    void (*cache_release)(void *cache);
    /* everything the cached image shows depends on */
    struct {
        uint64_t net, path_gen, layout_gen;
        double zoom, pan_x, pan_y, x, y, w, h, z;
        sn_theme_id theme;
        bool edit;
        long follow;
        uint32_t ones;
    } key;
    uint64_t layout_gen; /* counts layouts made, so the cache knows its own */
    uint32_t *ranks;     /* scratch [n] */
    uint32_t ranks_cap;
    /* the box the layout was fitted to (0: natural size) and its text floor */
    double fit_w, fit_h, min_font;
    /* edit mode: the layout width the pane keeps (grows only when a new
     * column no longer fits), for the network of edit_n wires */
    double edit_w, edit_font; /* and the text size its layout asks for */
    double edit_rows;         /* and its rows' stretch (height to spare: a phone) */
    uint32_t edit_n;
    /* where the last frame put this view: its area, HiDPI factor, UI font
     * and text floor, and whether it was a row of several (compact) */
    bool have_area, compact;
    sn_box area;
    double area_s, area_font, area_floor;
    /* what the last frame showed, to redraw only what changes */
    uint64_t sig; /* everything but the step, animation and status text */
    size_t shown_step, shown_anim_layer;
    sn_scene *sc;  /* this view's bars and status as last painted */
    sn_scene *net; /* scratch: a diagram strip or the overlay */
    /* the race panel's drawing of the computer's best: its layout, for
     * the view's race_snap.gen and the box it was fitted to */
    sn_layout *race_lo;
    uint64_t race_gen;
    double race_w, race_h, race_font;
};

/* The layout if it is v's current one, else NULL. */
const sn_layout *sn_frame_current(const sn_frame *f, const sn_view *v);
/* The panes of v in area (the edit mode's kept width included). */
void sn_frame_panes_of(const sn_frame *f, const sn_view *v, sn_box area, double font, double floor,
                       bool compact, sn_panes *p);
const sn_theme *sn_frame_theme(const sn_view *v);
/* Ones of the current input when it is a 0-1 input, else n / 2. */
uint32_t sn_frame_ones(const sn_view *v);
/* What the diagram shows: nothing of the step (static: the cached
 * image), or the values and next layer of the current step. */
void sn_frame_diagram_state(sn_frame *f, const sn_view *v, const sn_layout *lo, bool step,
                            sn_draw_state *st, uint32_t sel[2]);
/* The panes of one view in area, with the layout fitted to its network
 * pane (the frame remembers where it put them). */
void sn_frame_place_view(sn_frame *f, const sn_view *v, sn_box area, double win_h, double s,
                         bool compact, sn_panes *p);
/* This view's bars and status line (or heading) into sc. */
sn_status sn_frame_view_scene(sn_frame *f, const sn_view *v, const sn_panes *p, bool compact,
                              const char *progress, sn_scene *sc);
/* The parts of a group's frame that are not one view's, as `parts` asks. */
enum { SN_FRAME_PART_CAPTION = 1, SN_FRAME_PART_STATUS = 2, SN_FRAME_PART_HELP = 4 };
double sn_frame_group_scene(const sn_group *g, const sn_frame_extra *x, double w, double h,
                            double s, sn_scene *sc, unsigned parts);
/* Row i of a group of several below the caption band. */
sn_box sn_frame_row_area(const sn_group *g, size_t i, double top, double w, double h, double fs);

#endif
