/* plot.h - benchmark results as a picture: keys per second against the
 * number of keys, log-log, one line per network and variant (`sortnet gpu
 * bench --plot`, `sortnet gpu plot`), and the CSV the results are kept in
 * (device,network,variant,n,median_ms,keys_per_s). */
#ifndef SN_PLOT_H
#define SN_PLOT_H

#include <cairo.h> /* for: cairo_t */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/status.h"

/* One measured point. */
typedef struct sn_plot_row {
    const char *network; /* borrowed */
    const char *variant; /* borrowed */
    uint32_t n;          /* keys */
    double ms;           /* median time; <= 0: not drawn */
} sn_plot_row;

/* The picture's size in points (SVG) or pixels (an image surface). */
#define SN_PLOT_WIDTH 900
#define SN_PLOT_HEIGHT 600

/* Draw rows[0..count) on cr (borrowed; SN_PLOT_WIDTH x SN_PLOT_HEIGHT from
 * the origin), titled with device (borrowed, may be NULL): a colour per
 * variant and a dash per network, each in order of first appearance, a
 * dot per point, axes in whole decades around the points. The caller's
 * cairo state is saved and restored. */
void sn_plot_draw(cairo_t *cr, const sn_plot_row *rows, size_t count, const char *device);

/* The same as an SVG into out (borrowed, not closed).
 * SN_EIO (diag says so) when writing failed or cairo reported an error. */
sn_status sn_plot_write_svg(FILE *out, const sn_plot_row *rows, size_t count, const char *device,
                            sn_diag *diag);

/* Rows read from CSV texts; the rows point into the texts it owns. */
typedef struct sn_plot_table {
    sn_plot_row *rows;
    size_t count, cap;
    const char *device; /* the first row's device, or NULL */
    char **texts;       /* owned */
    size_t ntexts;
} sn_plot_table;

void sn_plot_table_init(sn_plot_table *t);
void sn_plot_table_free(sn_plot_table *t); /* NULL is a no-op */

/* Append the rows of one CSV text (NUL-terminated, consumed: sn_free'd
 * with the table, also on failure) named `name` in messages. A header
 * line and empty lines are skipped; CRLF is accepted. A bad row is
 * SN_EPARSE with "NAME:LINE:COL: why" in diag (line and column set);
 * nothing of that text is added then. */
sn_status sn_plot_csv_parse(sn_plot_table *t, char *text, const char *name, sn_diag *diag);

#endif
