/* palette.h - colours of the diagrams: light and dark themes and the rank
 * palette for values, chosen to read in grey print and for colour-blind
 * viewers (viridis for ranks: lightness rises monotonically; Okabe-Ito
 * vermillion/blue for swapped/unswapped comparators, which also differ in
 * line style). Pure data, no cairo. */
#ifndef SN_PALETTE_H
#define SN_PALETTE_H

#include <stdbool.h>

typedef struct sn_rgb {
    double r, g, b; /* 0..1 */
} sn_rgb;

/* contrast: black on white, thick pure colours, for projectors that wash
 * out pastel bands and grey lines. */
typedef enum sn_theme_id {
    SN_THEME_LIGHT = 0,
    SN_THEME_DARK,
    SN_THEME_CONTRAST,
    SN_THEME_COUNT
} sn_theme_id;

typedef struct sn_theme {
    const char *name; /* "light", "dark", "contrast" */
    sn_rgb background;
    sn_rgb band;  /* every other layer's background */
    sn_rgb stage; /* stage outlines */
    sn_rgb wire;
    sn_rgb comparator;
    sn_rgb text;      /* wire labels */
    sn_rgb swap;      /* comparators of the next layer that swap */
    sn_rgb noswap;    /* ... that leave their values in place */
    sn_rgb highlight; /* highlighted comparator and element path */
    sn_rgb step;      /* the marker line at the shown step */
} sn_theme;

/* A built-in theme (never NULL; unknown ids give the light theme). */
const sn_theme *sn_theme_get(sn_theme_id id);
/* "light" / "dark" / "contrast" -> theme; false if unknown. */
bool sn_theme_parse(const char *name, sn_theme_id *out);

/* Colour of rank position t in [0, 1] (clamped): 0 = smallest value. */
sn_rgb sn_palette_rank(double t);
/* Black or white, whichever reads better on c. */
sn_rgb sn_palette_text_on(sn_rgb c);
/* Relative luminance (WCAG, linearized sRGB) of c. */
double sn_palette_luminance(sn_rgb c);

#endif
