/* scene_svg.h - a scene as SVG text, without cairo: the page's "download
 * SVG" (src/web) paints the same display list the window paints, into a
 * string. One element per primitive; clips become clipPath groups; text
 * names the scene's one font (DejaVu Sans) and sits at the box's left end
 * on its baseline, as the cairo painter draws it. */
#ifndef SN_SCENE_SVG_H
#define SN_SCENE_SVG_H

#include <stddef.h>

#include "core/status.h"
#include "render/scene.h"

/* The scene as a whole SVG document (UTF-8, NUL-terminated) of the
 * scene's size, into *out (sn_malloc'd: sn_free it) and its length into
 * *len (may be NULL). SN_ENOMEM when out of memory, SN_EINVAL when the
 * scene's own status is not SN_OK. */
sn_status sn_scene_svg(const sn_scene *sc, char **out, size_t *len);

#endif
