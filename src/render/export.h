/* export.h - a laid-out diagram as a file: SVG, PNG and PDF through cairo
 * surfaces writing to a stream, and TikZ source (for pdflatex) written as
 * text from the same layout, so every format shows the same geometry. */
#ifndef SN_EXPORT_H
#define SN_EXPORT_H

#include <stdio.h>

#include "core/status.h"
#include "render/draw.h"
#include "render/layout.h"
#include "render/palette.h"

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

/* Write the diagram (state may be NULL) to `out` (borrowed, not closed).
 * SN_ELIMIT when a PNG would be too large (diag says the size), SN_EIO on a
 * write or cairo error, SN_EINVAL for SN_EXPORT_UNKNOWN. */
sn_status sn_export_write(FILE *out, sn_export_format fmt, const sn_layout *lo, const sn_theme *th,
                          const sn_draw_state *state, sn_diag *diag);

/* Several diagrams stacked top to bottom, each under its title line (for
 * comparing networks on the same input): SVG, PNG or PDF; TikZ gives
 * SN_EUNSUPPORTED. Arrays of count entries, all borrowed; st[i] may be
 * NULL. */
sn_status sn_export_write_stack(FILE *out, sn_export_format fmt, const sn_layout *const *lo,
                                const sn_draw_state *const *st, const char *const *titles,
                                size_t count, const sn_theme *th, sn_diag *diag);

#endif
