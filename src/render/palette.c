/* palette.c - theme colours and the viridis rank palette. */
#include "render/palette.h"

#include <math.h>
#include <string.h>

#define RGB(h)                                                                                     \
    {                                                                                              \
        ((h) >> 16 & 0xff) / 255.0, ((h) >> 8 & 0xff) / 255.0, ((h)&0xff) / 255.0                  \
    }

static const sn_theme themes[] = {
    {"light", RGB(0xffffff), RGB(0xeef1f6), RGB(0x8d99aa), RGB(0x6b7280), RGB(0x111111),
     RGB(0x374151), RGB(0xd55e00), RGB(0x0072b2), RGB(0xe69f00), RGB(0x6b7280)},
    {"dark", RGB(0x1b1d23), RGB(0x262a33), RGB(0x5f6b7d), RGB(0x7d8594), RGB(0xe8eaed),
     RGB(0xc3c8d0), RGB(0xff8a3d), RGB(0x3a8fd6), RGB(0xf0c05a), RGB(0x9aa3b0)},
    /* every foreground at least 7:1 against white (WCAG AAA) but the
     * highlight, which marks with thickness too */
    {"contrast", RGB(0xffffff), RGB(0xe4e4e4), RGB(0x000000), RGB(0x000000), RGB(0x000000),
     RGB(0x000000), RGB(0xb02000), RGB(0x0033aa), RGB(0xc07000), RGB(0x000000)},
};

const sn_theme *sn_theme_get(sn_theme_id id)
{
    return id < SN_THEME_COUNT ? &themes[id] : &themes[0];
}

bool sn_theme_parse(const char *name, sn_theme_id *out)
{
    for (int i = 0; i < SN_THEME_COUNT; i++) {
        if (strcmp(name, themes[i].name) == 0) {
            *out = (sn_theme_id)i;
            return true;
        }
    }
    return false;
}

/* viridis sampled at 9 points (matplotlib's, public domain) */
static const sn_rgb viridis[] = {
    RGB(0x440154), RGB(0x472d7b), RGB(0x3b528b), RGB(0x2c728e), RGB(0x21918c),
    RGB(0x28ae80), RGB(0x5ec962), RGB(0xaddc30), RGB(0xfde725),
};

sn_rgb sn_palette_rank(double t)
{
    if (!(t > 0))
        t = 0;
    if (t > 1)
        t = 1;
    double x = t * 8;
    int i = (int)x;
    if (i >= 8)
        return viridis[8];
    double f = x - i;
    sn_rgb a = viridis[i], b = viridis[i + 1];
    sn_rgb c = {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
    return c;
}

static double lin(double v)
{
    return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

double sn_palette_luminance(sn_rgb c)
{
    return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

sn_rgb sn_palette_text_on(sn_rgb c)
{
    /* contrast against black (L+0.05)/0.05 vs white 1.05/(L+0.05) */
    double l = sn_palette_luminance(c);
    sn_rgb black = {0, 0, 0}, white = {1, 1, 1};
    return (l + 0.05) * (l + 0.05) > 0.0525 ? black : white;
}
