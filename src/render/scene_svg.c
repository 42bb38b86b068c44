/* scene_svg.c - the SVG painter of a scene: one switch over the list,
 * writing text into a growing buffer (no cairo, no file: the page hands
 * the string to the browser as a download).
 *
 * Invariant: the buffer always holds a NUL-terminated prefix of the
 * document; once an append fails, `failed` is set and nothing more is
 * written (the caller gets SN_ENOMEM). Clip groups nest as the scene's
 * pushes and pops do; groups still open at the end are closed. */
#include "render/scene_svg.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/textbuf.h"

#define SN_PI 3.14159265358979323846

/* A number as SVG wants it: short, no exponent for the sizes a scene has. */
static void num(sn_textbuf *b, double v)
{
    if (!isfinite(v))
        v = 0;
    char tmp[48];
    int n = snprintf(tmp, sizeof tmp, "%.3f", v);
    if (n <= 0)
        return;
    size_t len = (size_t)n;
    while (len > 1 && tmp[len - 1] == '0')
        len--;
    if (len > 1 && tmp[len - 1] == '.')
        len--;
    if (len == 2 && tmp[0] == '-' && tmp[1] == '0')
        sn_textbuf_str(b, "0");
    else
        sn_textbuf_put(b, tmp, len);
}

/* attr="number" */
static void attr(sn_textbuf *b, const char *name, double v)
{
    sn_textbuf_printf(b, " %s=\"", name);
    num(b, v);
    sn_textbuf_str(b, "\"");
}

static void colour(sn_textbuf *b, const char *what, sn_rgba c)
{
    int r = (int)lround(fmin(fmax(c.r, 0), 1) * 255);
    int g = (int)lround(fmin(fmax(c.g, 0), 1) * 255);
    int bl = (int)lround(fmin(fmax(c.b, 0), 1) * 255);
    sn_textbuf_printf(b, " %s=\"#%02x%02x%02x\"", what, (unsigned)r, (unsigned)g, (unsigned)bl);
    if (c.a < 1) {
        sn_textbuf_printf(b, " %s-opacity=\"", what);
        num(b, fmax(c.a, 0));
        sn_textbuf_str(b, "\"");
    }
}

/* Text with the five XML specials escaped (the scene's strings are UTF-8
 * already; control characters, which XML 1.0 forbids, become spaces). */
static void text_escaped(sn_textbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '&': sn_textbuf_str(b, "&amp;"); break;
        case '<': sn_textbuf_str(b, "&lt;"); break;
        case '>': sn_textbuf_str(b, "&gt;"); break;
        case '"': sn_textbuf_str(b, "&quot;"); break;
        case '\'': sn_textbuf_str(b, "&apos;"); break;
        default:
            if (c < 0x20 && c != '\t' && c != '\n')
                sn_textbuf_str(b, " ");
            else
                sn_textbuf_put(b, (const char *)&s[i], 1);
        }
    }
}

/* The paint attributes of a shape with style s (fill, stroke or both). */
static void paint(sn_textbuf *b, const sn_scene_style *s, bool fill, bool stroke)
{
    if (fill && s->fill.a > 0)
        colour(b, "fill", s->fill);
    else
        sn_textbuf_str(b, " fill=\"none\"");
    if (stroke && s->stroke.a > 0) {
        colour(b, "stroke", s->stroke);
        attr(b, "stroke-width", s->width);
        if (s->cap == SN_CAP_ROUND)
            sn_textbuf_str(b, " stroke-linecap=\"round\"");
        else if (s->cap == SN_CAP_SQUARE)
            sn_textbuf_str(b, " stroke-linecap=\"square\"");
        if (s->join == SN_JOIN_ROUND)
            sn_textbuf_str(b, " stroke-linejoin=\"round\"");
        if (s->dash_on + s->dash_off > 0) {
            sn_textbuf_str(b, " stroke-dasharray=\"");
            num(b, s->dash_on);
            sn_textbuf_str(b, " ");
            num(b, s->dash_off);
            sn_textbuf_str(b, "\"");
        }
    }
}

static void prim(sn_textbuf *b, const sn_scene *sc, const sn_prim *p, size_t *clips)
{
    const sn_scene_style *s = sn_scene_style_of(sc, p);
    switch ((sn_prim_kind)p->kind) {
    case SN_PRIM_LINE:
        sn_textbuf_str(b, "<line");
        attr(b, "x1", p->x0);
        attr(b, "y1", p->y0);
        attr(b, "x2", p->x1);
        attr(b, "y2", p->y1);
        paint(b, s, false, true);
        sn_textbuf_str(b, "/>\n");
        break;
    case SN_PRIM_RECT:
        sn_textbuf_str(b, "<rect");
        attr(b, "x", p->x0);
        attr(b, "y", p->y0);
        attr(b, "width", p->x1 - p->x0);
        attr(b, "height", p->y1 - p->y0);
        if (p->r > 0 && 2 * p->r <= fmin(p->x1 - p->x0, p->y1 - p->y0))
            attr(b, "rx", p->r);
        paint(b, s, true, true);
        sn_textbuf_str(b, "/>\n");
        break;
    case SN_PRIM_POLY: {
        const sn_point *pt = sn_scene_points(sc, p);
        bool closed = p->r != 0;
        sn_textbuf_str(b, closed ? "<polygon points=\"" : "<polyline points=\"");
        for (size_t j = 0; j < p->count; j++) {
            if (j)
                sn_textbuf_str(b, " ");
            num(b, pt[j].x);
            sn_textbuf_str(b, ",");
            num(b, pt[j].y);
        }
        sn_textbuf_str(b, "\"");
        paint(b, s, closed, true);
        sn_textbuf_str(b, "/>\n");
        break;
    }
    case SN_PRIM_CIRCLE:
        sn_textbuf_str(b, "<circle");
        attr(b, "cx", p->x0);
        attr(b, "cy", p->y0);
        attr(b, "r", p->r);
        paint(b, s, true, true);
        sn_textbuf_str(b, "/>\n");
        break;
    case SN_PRIM_TEXT:
        sn_textbuf_str(b, "<text");
        attr(b, "x", p->x0);
        attr(b, "y", p->base);
        attr(b, "font-size", p->size);
        if (p->weight == SN_FONT_BOLD)
            sn_textbuf_str(b, " font-weight=\"bold\"");
        colour(b, "fill", s->fill);
        sn_textbuf_str(b, ">");
        text_escaped(b, sn_scene_str(sc, p), p->count);
        sn_textbuf_str(b, "</text>\n");
        break;
    case SN_PRIM_CLIP_PUSH:
        sn_textbuf_printf(b, "<clipPath id=\"c%zu\"><rect", *clips);
        attr(b, "x", p->x0);
        attr(b, "y", p->y0);
        attr(b, "width", p->x1 - p->x0);
        attr(b, "height", p->y1 - p->y0);
        sn_textbuf_printf(b, "/></clipPath>\n<g clip-path=\"url(#c%zu)\">\n", *clips);
        (*clips)++;
        break;
    case SN_PRIM_CLIP_POP: sn_textbuf_str(b, "</g>\n"); break;
    case SN_PRIM_NOTE: break; /* never painted */
    }
}

sn_status sn_scene_svg(const sn_scene *sc, char **out, size_t *len)
{
    *out = NULL;
    if (len)
        *len = 0;
    if (sn_scene_status(sc) != SN_OK)
        return SN_EINVAL;
    double w, h;
    sn_scene_size(sc, &w, &h);
    sn_textbuf b = SN_TEXTBUF_INIT;
    sn_textbuf_str(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sn_textbuf_str(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
    attr(&b, "width", w);
    attr(&b, "height", h);
    sn_textbuf_str(&b, " viewBox=\"0 0 ");
    num(&b, w);
    sn_textbuf_str(&b, " ");
    num(&b, h);
    sn_textbuf_str(&b, "\" font-family=\"DejaVu Sans, sans-serif\">\n");
    size_t depth = 0, clips = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        if (p->kind == SN_PRIM_CLIP_POP) {
            if (depth == 0)
                continue; /* unbalanced: nothing to close */
            depth--;
        } else if (p->kind == SN_PRIM_CLIP_PUSH) {
            depth++;
        }
        prim(&b, sc, p, &clips);
    }
    while (depth--)
        sn_textbuf_str(&b, "</g>\n");
    sn_textbuf_str(&b, "</svg>\n");
    if (b.failed) {
        sn_free(b.s);
        return SN_ENOMEM;
    }
    *out = b.s;
    if (len)
        *len = b.len;
    return SN_OK;
}
