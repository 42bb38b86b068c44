/* scene_cairo.h - paint a scene (scene.h) on a cairo_t the caller owns:
 * the window's frame, PNG, SVG and PDF all come through here.
 *
 * Painting never measures or places: text is drawn at its box's left end
 * on its baseline, with metric hinting off, so cairo's glyphs fill the box
 * the scene measured. Runs of primitives that share a kind and a style go
 * into one path (at most SN_SCENE_BATCH each), so vector output stays
 * small. Device-pixel economies only: dots under a device pixel become
 * squares of the same area on image surfaces, dashes under two device
 * pixels are drawn solid, rounded corners under one are square, text
 * under 4 device pixels (a zoomed-out window) is skipped. */
#ifndef SN_SCENE_CAIRO_H
#define SN_SCENE_CAIRO_H

#include <cairo.h> /* for: cairo_t */

#include "core/status.h"
#include "render/scene.h"

/* Elements per batched path. */
#define SN_SCENE_BATCH 512

/* The font every picture uses (fonts-dejavu-core). */
#define SN_SCENE_FONT "DejaVu Sans"

/* Paint sc on cr (the caller's transform and clip are respected and its
 * state restored). visible (layout units) or NULL: primitives wholly
 * outside it are skipped. SN_EIO when cairo is in an error state after,
 * SN_EINVAL when the scene itself failed (sn_scene_status). */
sn_status sn_scene_paint(const sn_scene *sc, cairo_t *cr, const sn_rect *visible);

#endif
