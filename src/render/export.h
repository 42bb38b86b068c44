/* export.h - a laid-out diagram as a file: SVG, PNG and PDF through cairo
 * surfaces writing to a stream, and TikZ source (for pdflatex) written as
 * text from the same layout, so every format shows the same geometry. */
#ifndef SN_EXPORT_H
#define SN_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"
#include "render/draw.h"
#include "render/layout.h"
#include "render/palette.h"
#include "render/scene.h"

typedef enum sn_export_format {
    SN_EXPORT_UNKNOWN = 0,
    SN_EXPORT_SVG,
    SN_EXPORT_PNG,
    SN_EXPORT_PDF,
    SN_EXPORT_TEX
} sn_export_format;

/* Format from a file name's extension (.svg .png .pdf .tex, any case);
 * "-" (stdout) is SVG; SN_EXPORT_UNKNOWN otherwise. */
sn_export_format sn_export_format_from_path(const char *path);
const char *sn_export_format_name(sn_export_format f); /* "svg", ... */

/* Largest PNG accepted, in pixels per side and in total. */
#define SN_EXPORT_PNG_MAX_SIDE 32767
#define SN_EXPORT_PNG_MAX_PIXELS ((double)(1u << 28))

/* Most drawing elements (scene primitives) a picture may hold in any
 * format: past it an SVG runs to tens of megabytes and a PNG to minutes. */
#define SN_EXPORT_MAX_PRIMS 1000000.0

/* About how many drawing elements a diagram of n wires, `size`
 * comparators and `layers` layers makes (values: with value boxes; blocks:
 * structure blocks), before any layout is made. */
double sn_export_estimate(uint32_t n, size_t size, size_t layers, bool values, size_t blocks);

/* The one limit check of every format, before anything is written: more
 * than SN_EXPORT_MAX_PRIMS elements (unless force) or a PNG past the
 * pixel limits (never: cairo cannot make it) gives SN_ELIMIT and a diag
 * naming the limit. count diagrams, stacked (titles add height_extra in
 * all); values: drawn with values. */
sn_status sn_export_check(sn_export_format fmt, const sn_layout *const *lo, size_t count,
                          bool values, double width, double height, bool force, sn_diag *diag);

/* Write the diagram (state may be NULL) to `out` (borrowed, not closed).
 * SN_ELIMIT when a PNG would be too large (diag says the size), SN_EIO on a
 * write or cairo error, SN_EINVAL for SN_EXPORT_UNKNOWN. */
sn_status sn_export_write(FILE *out, sn_export_format fmt, const sn_layout *lo, const sn_theme *th,
                          const sn_draw_state *state, sn_diag *diag);

/* Several diagrams stacked top to bottom, each under its title line (for
 * comparing networks on the same input): SVG, PNG or PDF; TikZ gives
 * SN_EUNSUPPORTED. Arrays of count entries, all borrowed; st[i] may be
 * NULL, and titles may be NULL (or titles[i]): untitled, the line stays. */
sn_status sn_export_write_stack(FILE *out, sn_export_format fmt, const sn_layout *const *lo,
                                const sn_draw_state *const *st, const char *const *titles,
                                size_t count, const sn_theme *th, sn_diag *diag);

/* A finished scene (e.g. dist_scene.h's picture), at its size, as SVG, PNG
 * or PDF (the PNG's edge filled with th's background); TikZ gives
 * SN_EUNSUPPORTED. Errors as sn_export_write. */
sn_status sn_export_write_scene(FILE *out, sn_export_format fmt, const sn_scene *sc,
                                const sn_theme *th, sn_diag *diag);

/* The size of that stack: as wide as the widest diagram or title line,
 * as high as all of them with their title lines. */
void sn_export_stack_size(const sn_layout *const *lo, const char *const *titles, size_t count,
                          double *width, double *height);

#endif
