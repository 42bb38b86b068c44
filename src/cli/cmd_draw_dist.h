/* cmd_draw_dist.h - `sortnet draw dist:P[,NET]`: the merge-split picture
 * (render/dist_scene.h) as SVG, PNG or PDF; cmd_draw.c parses the command
 * line and hands over here. */
#ifndef SN_CMD_DRAW_DIST_H
#define SN_CMD_DRAW_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/export.h"
#include "render/palette.h"

typedef struct draw_dist_opts {
    const char *spec;     /* "dist:..." (borrowed) */
    const char *out_path; /* -o */
    sn_export_format fmt;
    sn_theme_id theme;
    bool have_keys, have_seed, have_step, have_size;
    uint64_t keys, seed, step;
    double scale, width; /* --scale, --width (0: none) */
} draw_dist_opts;

/* The --help lines of dist:. */
void cli_draw_dist_help(void);
/* Do the options fit (dist: alone, --keys and --seed only with it, no
 * input or other picture options with it)? 0, or the exit code after
 * printing. */
int cli_draw_dist_args(const draw_dist_opts *o, const char *const *nets, size_t count, bool others);
/* Write the picture; the exit code. */
int cli_draw_dist(const draw_dist_opts *o);

#endif
