/* draw.c - the diagram on a borrowed cairo_t: its scene, painted.
 *
 * Placement lives in diagram.c (pure numbers), painting in scene_cairo.c;
 * this file only joins them for callers that hold a cairo_t. */
#include "render/draw.h"

#include "core/check_api.h"
#include "render/scene_cairo.h"

/* fontconfig (behind cairo's text) keeps its caches until exit, which
 * LeakSanitizer would report as leaks in sanitizer builds of every program
 * that draws; defined here, beside what those programs call, so each of
 * them links it. Never called in ordinary builds. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "print_suppressions=0";
}
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig\n";
}

sn_status sn_draw(cairo_t *cr, const sn_layout *lo, const sn_theme *th, const sn_draw_state *st,
                  const sn_rect *visible)
{
    sn_api_check(cr != NULL && lo != NULL && th != NULL);
    sn_api_check(st == NULL || st->step <= lo->layer_count);
    sn_scene *sc = sn_scene_create(lo->width, lo->height);
    if (!sc)
        return SN_ENOMEM;
    sn_status rs = sn_diagram_scene(sc, lo, th, st, visible);
    sn_status ps = SN_OK;
    if (sn_scene_status(sc) == SN_OK)
        ps = sn_scene_paint(sc, cr, visible);
    sn_scene_destroy(sc);
    if (ps != SN_OK || cairo_status(cr) != CAIRO_STATUS_SUCCESS)
        return SN_EIO;
    return rs;
}
