/* export.c - SVG/PNG/PDF via cairo stream surfaces, TikZ as text.
 *
 * Cairo writes through write_stream() into the caller's FILE; the first
 * short write is remembered and turns the whole export into SN_EIO, so a
 * full disk never yields a "successful" truncated picture. */
#include "render/export.h"

#include <cairo-pdf.h> /* for: cairo_pdf_surface_create_for_stream */
#include <cairo-svg.h> /* for: cairo_svg_surface_create_for_stream */
#include <cairo.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h" /* for: sn_key_format */
#include "render/scene_cairo.h"

sn_export_format sn_export_format_from_path(const char *path)
{
    if (strcmp(path, "-") == 0)
        return SN_EXPORT_SVG;
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (!dot || (slash && dot < slash) || strlen(dot) != 4)
        return SN_EXPORT_UNKNOWN;
    char ext[4];
    for (int i = 0; i < 3; i++)
        ext[i] = (char)tolower((unsigned char)dot[1 + i]);
    ext[3] = '\0';
    if (strcmp(ext, "svg") == 0)
        return SN_EXPORT_SVG;
    if (strcmp(ext, "png") == 0)
        return SN_EXPORT_PNG;
    if (strcmp(ext, "pdf") == 0)
        return SN_EXPORT_PDF;
    if (strcmp(ext, "tex") == 0)
        return SN_EXPORT_TEX;
    return SN_EXPORT_UNKNOWN;
}

const char *sn_export_format_name(sn_export_format f)
{
    switch (f) {
    case SN_EXPORT_SVG: return "svg";
    case SN_EXPORT_PNG: return "png";
    case SN_EXPORT_PDF: return "pdf";
    case SN_EXPORT_TEX: return "tex";
    default: return "unknown";
    }
}

typedef struct stream {
    FILE *f;
    bool failed;
    int err; /* errno of the failed write: the cause in the message */
} stream;

static sn_status write_error(int err, sn_diag *diag)
{
    return sn_diag_set(diag, SN_EIO, 0, 0, "write error: %s", strerror(err ? err : EIO));
}

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int length)
{
    stream *s = closure;
    /* ferror too: glibc's fwrite on an unbuffered stream may report every
     * byte written when the write under it failed (errno still says why) */
    if (s->failed || fwrite(data, 1, length, s->f) != length || ferror(s->f)) {
        if (!s->failed)
            s->err = errno;
        s->failed = true;
        return CAIRO_STATUS_WRITE_ERROR;
    }
    return CAIRO_STATUS_SUCCESS;
}

/* Destroy cr after drawing: cairo's own error first, then the drawing's
 * status rs. */
static sn_status drawn(cairo_t *cr, sn_status rs, sn_diag *diag)
{
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    if (cs != CAIRO_STATUS_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "cairo: %s", cairo_status_to_string(cs));
    if (rs != SN_OK)
        return sn_diag_set(diag, rs, 0, 0, "drawing failed: %s", sn_status_str(rs));
    return SN_OK;
}

static sn_status draw_on(cairo_surface_t *surf, const sn_layout *lo, const sn_theme *th,
                         const sn_draw_state *st, sn_diag *diag)
{
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "cairo: %s",
                           cairo_status_to_string(cairo_surface_status(surf)));
    cairo_t *cr = cairo_create(surf);
    return drawn(cr, sn_draw(cr, lo, th, st, NULL), diag);
}

static sn_status finish(cairo_surface_t *surf, stream *s, sn_status rs, sn_diag *diag)
{
    cairo_surface_finish(surf);
    cairo_status_t cs = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (rs != SN_OK)
        return rs;
    if (s->failed)
        return write_error(s->err, diag);
    errno = 0;
    if (fflush(s->f) != 0 || ferror(s->f))
        return write_error(errno, diag);
    if (cs != CAIRO_STATUS_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "cairo: %s", cairo_status_to_string(cs));
    return SN_OK;
}

/* ---- TikZ: the same layout written as text */

static void tex_color(FILE *f, const char *name, sn_rgb c)
{
    fprintf(f, "\\definecolor{%s}{rgb}{%.4f,%.4f,%.4f}\n", name, c.r, c.g, c.b);
}

static const char *tex_class(const sn_layout *lo, const sn_draw_state *st, size_t i)
{
    if (!st)
        return "sncmp";
    if (st->highlight_cmp >= 0 && (size_t)st->highlight_cmp == i)
        return "snhl";
    const sn_layout_cmp *c = &lo->cmp[i];
    if (c->layer != st->step) /* (so step < layer_count) */
        return "sncmp";
    bool swap;
    if (st->swaps)
        swap = st->swaps[i - lo->layer[c->layer].first] != 0;
    else if (st->values)
        swap = sn_key_to_ordered(st->type, st->values[c->a]) >
               sn_key_to_ordered(st->type, st->values[c->b]);
    else
        return "sncmp";
    return swap ? "snswap" : "snnoswap";
}

/* The followed element's route, as in draw.c's draw_path. */
static void tex_path(FILE *f, const sn_layout *lo, const uint32_t *path)
{
    for (size_t k = 0; k <= lo->layer_count; k++)
        if (path[k] >= lo->n)
            return;
    fprintf(f,
            "\\draw[snhlc,opacity=0.6,line width=%.2fpt,line cap=round,line join=round] "
            "(%.2f,%.2f)",
            2.4 * lo->dot_r, lo->wire_x0, lo->wire_y[path[0]]);
    for (size_t k = 0; k < lo->layer_count; k++) {
        if (path[k + 1] == path[k])
            continue;
        long c = sn_layout_find(lo, k, path[k], path[k + 1]);
        if (c < 0)
            break;
        fprintf(f, " -- (%.2f,%.2f) -- (%.2f,%.2f)", lo->cmp[c].x, lo->wire_y[path[k]],
                lo->cmp[c].x, lo->wire_y[path[k + 1]]);
    }
    fprintf(f, " -- (%.2f,%.2f);\n", lo->wire_x1, lo->wire_y[path[lo->layer_count]]);
}

/* A block label for LaTeX: the arrows (UTF-8) become math arrows. */
static void tex_label(FILE *f, const char *label)
{
    for (const char *p = label; *p; p++) {
        if (strncmp(p, "\xe2\x86\x91", 3) == 0) {
            fputs("$\\uparrow$", f);
            p += 2;
        } else if (strncmp(p, "\xe2\x86\x93", 3) == 0) {
            fputs("$\\downarrow$", f);
            p += 2;
        } else {
            fputc(*p, f);
        }
    }
}

/* Structure blocks: outlines (depth 0 bolder) and their labels. */
static void tex_blocks(FILE *f, const sn_layout *lo)
{
    double sc = lo->scale;
    for (size_t g = 0; g < lo->block_count; g++) {
        const sn_layout_block *b = &lo->block[g];
        fprintf(f,
                "\\draw[%s,line width=%.2fpt,rounded corners=%.2fpt] (%.2f,%.2f) rectangle "
                "(%.2f,%.2f);\n",
                b->depth == 0 ? "snstep" : "snstage", (b->depth == 0 ? 1.6 : 1.0) * sc, 3 * sc,
                b->x0, b->y0, b->x1, b->y1);
    }
    for (size_t g = 0; g < lo->block_count; g++) {
        const sn_layout_block *b = &lo->block[g];
        if (!b->labelled)
            continue;
        fprintf(f,
                "\\node[draw=%s,fill=snbg,text=sntext,rounded corners=%.2fpt,line width=%.2fpt,"
                "inner sep=0pt,minimum width=%.2fpt,minimum height=%.2fpt,"
                "font=\\sffamily\\bfseries\\fontsize{%.1f}{%.1f}\\selectfont] at (%.2f,%.2f) {",
                b->depth == 0 ? "snstep" : "snstage", b->lh / 2, 0.8 * sc, b->lw, b->lh,
                lo->label_font, lo->label_font * 1.2, b->lx + b->lw / 2, b->ly);
        tex_label(f, b->label);
        fputs("};\n", f);
    }
}

/* The 0-1 chart and the wire state markers, as draw.c's draw_zero_one. */
static void tex_zero_one(FILE *f, const sn_layout *lo, const sn_draw_state *st)
{
    const sn_zero_one *z = st->zo;
    const sn_layout_chart *c = &lo->chart;
    double sc = lo->scale, m = lo->mark;
    if (!z || z->n != lo->n || z->layers != lo->layer_count)
        return;
    uint32_t h = st->zo_ones <= z->n ? st->zo_ones : z->n / 2;
    for (size_t k = 0; k <= z->layers; k++) {
        if (st->values && k == st->step && lo->value_w > 0)
            continue;
        for (uint32_t i = 0; i < z->n; i++) {
            unsigned s = sn_zero_one_state(z, k, h, i);
            double x = lo->step_x[k], y = lo->wire_y[i];
            fprintf(f,
                    "\\filldraw[draw=sntext,fill=%s,line width=%.2fpt] (%.2f,%.2f) rectangle "
                    "(%.2f,%.2f);\n",
                    s == SN_WIRE_CAN1 ? "sntext" : "snbg", 0.8 * sc, x - m / 2, y - m / 2,
                    x + m / 2, y + m / 2);
            if (s == (SN_WIRE_CAN0 | SN_WIRE_CAN1))
                fprintf(f, "\\fill[sntext] (%.2f,%.2f) -- (%.2f,%.2f) -- (%.2f,%.2f) -- cycle;\n",
                        x - m / 2, y - m / 2, x + m / 2, y + m / 2, x - m / 2, y + m / 2);
        }
    }
    fprintf(f, "\\draw[snwire,line width=%.2fpt] (%.2f,%.2f) -- (%.2f,%.2f);\n", sc, c->x0, c->y1,
            c->x1, c->y1);
    fprintf(f,
            "\\draw[snwire,line width=%.2fpt,dash pattern=on %.2fpt off %.2fpt] (%.2f,%.2f) -- "
            "(%.2f,%.2f);\n",
            sc, 3 * sc, 3 * sc, c->x0, c->y0, c->x1, c->y0);
    for (size_t k = 0; k <= z->layers; k++) {
        double fr = (double)z->sorted[k] / (double)z->inputs;
        double bh = fmax((c->y1 - c->y0) * fr, 0.75 * sc);
        fprintf(f, "\\fill[%s] (%.2f,%.2f) rectangle (%.2f,%.2f);\n",
                fr >= 1.0 ? "sncmpc" : "snnoswapc", lo->step_x[k] - c->bar_w / 2, c->y1 - bh,
                lo->step_x[k] + c->bar_w / 2, c->y1);
    }
    fprintf(
        f,
        "\\node[anchor=base west,inner sep=0pt,text=sntext,font=\\sffamily\\fontsize{%.1f}{%.1f}"
        "\\selectfont] at (%.2f,%.2f) {sorted 0-1 inputs: %llu of %llu after %zu layers (%s); "
        "marks for the inputs with %u ones: white only 0, black only 1, half either};\n",
        lo->label_font, lo->label_font * 1.2, c->x0, c->caption_y,
        (unsigned long long)z->sorted[z->layers], (unsigned long long)z->inputs, z->layers,
        z->sorted[z->layers] == z->inputs ? "it sorts" : "it does NOT sort", h);
}

static sn_status export_tex(stream *s, const sn_layout *lo, const sn_theme *th,
                            const sn_draw_state *st, sn_diag *diag)
{
    FILE *f = s->f;
    double sc = lo->scale;
    errno = 0; /* what a failing write sets is the cause in the message */
    fprintf(f, "%% sorting network diagram written by sortnet; compile with pdflatex.\n"
               "%% Copy the tikzpicture into a paper that loads tikz and xcolor.\n"
               "\\documentclass{article}\n\\usepackage{tikz}\n\\pagestyle{empty}\n");
    fprintf(f,
            /* LaTeX copies paperwidth into pdfpagewidth at
             * begin{document}, so both are set */
            "\\paperwidth=%.2fpt \\paperheight=%.2fpt\n"
            "\\pdfpagewidth=%.2fpt \\pdfpageheight=%.2fpt\n"
            "\\hoffset=-1in \\voffset=-1in \\oddsidemargin=0pt \\topmargin=0pt\n"
            "\\headheight=0pt \\headsep=0pt \\parindent=0pt\n"
            "\\textwidth=%.2fpt \\textheight=%.2fpt\n",
            lo->width, lo->height, lo->width, lo->height, lo->width, lo->height);
    tex_color(f, "snbg", th->background);
    tex_color(f, "snband", th->band);
    tex_color(f, "snstage", th->stage);
    tex_color(f, "snwire", th->wire);
    tex_color(f, "sncmpc", th->comparator);
    tex_color(f, "sntext", th->text);
    tex_color(f, "snswapc", th->swap);
    tex_color(f, "snnoswapc", th->noswap);
    tex_color(f, "snhlc", th->highlight);
    tex_color(f, "snstep", th->step);
    fprintf(f, "\\begin{document}\n%% --- picture\n");
    fprintf(f,
            "\\begin{tikzpicture}[x=1pt,y=-1pt,\n"
            "  sncmp/.style={draw=sncmpc,fill=sncmpc,line width=%.2fpt},\n"
            "  snswap/.style={draw=snswapc,fill=snswapc,line width=%.2fpt},\n"
            "  snnoswap/.style={draw=snnoswapc,fill=snnoswapc,line width=%.2fpt},\n"
            "  snhl/.style={draw=snhlc,fill=snhlc,line width=%.2fpt},\n"
            "  snlabel/.style={anchor=east,inner sep=0pt,text=sntext,"
            "font=\\sffamily\\fontsize{%.1f}{%.1f}\\selectfont}]\n",
            lo->cmp_w, lo->cmp_w * 1.25, lo->cmp_w * 1.25, lo->cmp_w * 1.25, lo->font_size,
            lo->font_size * 1.2);
    fprintf(f, "\\fill[snbg] (0,0) rectangle (%.2f,%.2f);\n", lo->width, lo->height);
    if (lo->n > 0) {
        double y0 = lo->wire_y[0] - lo->pitch / 2, y1 = lo->wire_y[lo->n - 1] + lo->pitch / 2;
        for (size_t k = 1; k < lo->layer_count; k += 2)
            fprintf(f, "\\fill[snband] (%.2f,%.2f) rectangle (%.2f,%.2f);\n", lo->layer[k].x0, y0,
                    lo->layer[k].x1, y1);
    }
    for (size_t g = 0; lo->block_count == 0 && g < lo->stage_count; g++)
        fprintf(f,
                "\\draw[snstage,line width=%.2fpt,rounded corners=%.2fpt] (%.2f,%.2f) "
                "rectangle (%.2f,%.2f);\n",
                sc, 4 * sc, lo->stage[g].x0, lo->stage[g].y0, lo->stage[g].x1, lo->stage[g].y1);
    tex_blocks(f, lo);
    if (st && st->path)
        tex_path(f, lo, st->path);
    for (uint32_t i = 0; i < lo->n; i++)
        fprintf(f, "\\draw[snwire,line width=%.2fpt] (%.2f,%.2f) -- (%.2f,%.2f);\n", lo->wire_w,
                lo->wire_x0, lo->wire_y[i], lo->wire_x1, lo->wire_y[i]);
    for (size_t i = 0; i < lo->cmp_count; i++) {
        const sn_layout_cmp *c = &lo->cmp[i];
        const char *cls = tex_class(lo, st, i);
        bool plain = strcmp(cls, "sncmp") == 0;
        double r = lo->dot_r * (plain ? 1.0 : 1.15);
        double ya = lo->wire_y[c->a], yb = lo->wire_y[c->b];
        fprintf(f, "\\draw[%s%s] (%.2f,%.2f) -- (%.2f,%.2f);\n", cls,
                strcmp(cls, "snnoswap") == 0 ? ",dash pattern=on 3pt off 2.5pt" : "", c->x, c->y0,
                c->x, c->y1);
        fprintf(f, "\\fill[%s] (%.2f,%.2f) circle[radius=%.2fpt];\n", cls, c->x, ya, r);
        if (c->a < c->b) {
            fprintf(f, "\\fill[%s] (%.2f,%.2f) circle[radius=%.2fpt];\n", cls, c->x, yb, r);
        } else {
            /* the max goes to wire b, above a (b < a): the tip on it */
            double ah = 2.6 * r, aw = 1.25 * r;
            fprintf(f, "\\fill[%s] (%.2f,%.2f) -- (%.2f,%.2f) -- (%.2f,%.2f) -- cycle;\n", cls,
                    c->x, yb, c->x - aw, yb + ah, c->x + aw, yb + ah);
        }
    }
    for (uint32_t i = 0; i < lo->n; i++)
        fprintf(f, "\\node[snlabel] at (%.2f,%.2f) {%u};\n", lo->label_x, lo->wire_y[i],
                (unsigned)i);
    if (st && lo->zero_one)
        tex_zero_one(f, lo, st);
    sn_status rs = SN_OK;
    if (st && st->values && lo->n > 0 && st->step <= lo->layer_count && lo->value_w > 0) {
        uint32_t *ranks = sn_calloc(lo->n, sizeof *ranks);
        rs = ranks ? sn_draw_ranks(st->values, lo->n, st->type, ranks) : SN_ENOMEM;
        double x = lo->step_x[st->step], den = lo->n > 1 ? lo->n - 1.0 : 1.0;
        fprintf(f,
                "\\draw[snstep,line width=%.2fpt,dash pattern=on %.2fpt off %.2fpt] "
                "(%.2f,%.2f) -- (%.2f,%.2f);\n",
                sc, 2 * sc, 2 * sc, x, lo->wire_y[0] - lo->pitch / 2, x,
                lo->wire_y[lo->n - 1] + lo->pitch / 2);
        char buf[48];
        for (uint32_t i = 0; rs == SN_OK && i < lo->n; i++) {
            sn_rgb fill = sn_palette_rank(ranks[i] / den), ink = sn_palette_text_on(fill);
            sn_key_format(st->type, st->values[i], buf, sizeof buf);
            fprintf(f,
                    "\\node[draw=snwire,line width=%.2fpt,rounded corners=%.2fpt,"
                    "fill={rgb,255:red,%d;green,%d;blue,%d},"
                    "text={rgb,255:red,%d;green,%d;blue,%d},inner sep=0pt,"
                    "minimum width=%.2fpt,minimum height=%.2fpt,"
                    "font=\\sffamily\\bfseries\\fontsize{%.1f}{%.1f}\\selectfont] "
                    "at (%.2f,%.2f) {%s};\n",
                    0.8 * sc, 3 * sc, (int)lround(fill.r * 255), (int)lround(fill.g * 255),
                    (int)lround(fill.b * 255), (int)lround(ink.r * 255), (int)lround(ink.g * 255),
                    (int)lround(ink.b * 255), lo->value_w, lo->value_h, lo->value_font,
                    lo->value_font * 1.2, x, lo->wire_y[i], buf);
        }
        sn_free(ranks);
    }
    fprintf(f, "\\end{tikzpicture}\n%% --- end of picture\n\\end{document}\n");
    if (rs != SN_OK)
        return sn_diag_set(diag, rs, 0, 0, "drawing failed: %s", sn_status_str(rs));
    if (fflush(f) != 0 || ferror(f))
        return write_error(errno, diag);
    return SN_OK;
}

/* ---- several diagrams stacked, each under a title line */

/* Height of a title line over each diagram. */
static double stack_title_h(const sn_layout *lo)
{
    return round(SN_LAYOUT_FONT * 2.2 * (lo->scale > 0 ? lo->scale : 1));
}

static sn_status draw_stack(cairo_surface_t *surf, const sn_layout *const *lo,
                            const sn_draw_state *const *st, const char *const *titles, size_t count,
                            const sn_theme *th, sn_diag *diag)
{
    if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "cairo: %s",
                           cairo_status_to_string(cairo_surface_status(surf)));
    cairo_t *cr = cairo_create(surf);
    cairo_set_source_rgb(cr, th->background.r, th->background.g, th->background.b);
    cairo_paint(cr);
    sn_status rs = SN_OK;
    double y = 0;
    for (size_t i = 0; i < count; i++) {
        double th_ = stack_title_h(lo[i]);
        /* the title line: a one-line scene, painted like the diagrams */
        sn_scene *ts = sn_scene_create(lo[i]->width, th_);
        if (!ts) {
            rs = SN_ENOMEM;
            break;
        }
        sn_scene_text(ts, SN_LAYOUT_MARGIN * lo[i]->scale, y + th_ * 0.72,
                      titles && titles[i] ? titles[i] : "", lo[i]->font_size * 1.15, SN_FONT_BOLD,
                      SN_TEXT_LEFT, sn_rgba_of(th->text, 1), sn_scene_tag_of(SN_ROLE_TITLE));
        /* a title scene out of memory is that, not a bad argument */
        sn_status tr = sn_scene_status(ts) != SN_OK ? SN_ENOMEM : sn_scene_paint(ts, cr, NULL);
        sn_scene_destroy(ts);
        if (rs == SN_OK && tr != SN_OK)
            rs = tr;
        cairo_save(cr);
        cairo_translate(cr, 0, y + th_);
        sn_status r = sn_draw(cr, lo[i], th, st[i], NULL);
        cairo_restore(cr);
        if (rs == SN_OK)
            rs = r;
        y += th_ + lo[i]->height;
    }
    return drawn(cr, rs, diag);
}

/* ---- SVG, PDF and PNG, of one diagram or a stack */

/* What a surface shows: one diagram (lo, st) or, when count > 0, a stack
 * of them under their titles. */
typedef struct picture {
    const sn_layout *lo;
    const sn_draw_state *st;
    const sn_layout *const *los;
    const sn_draw_state *const *sts;
    const char *const *titles;
    size_t count;
    const sn_theme *th;
    const sn_scene *sc; /* or, when not NULL, a finished scene */
} picture;

static sn_status draw_picture(cairo_surface_t *surf, const picture *p, sn_diag *diag)
{
    if (p->sc) {
        if (cairo_surface_status(surf) != CAIRO_STATUS_SUCCESS)
            return sn_diag_set(diag, SN_EIO, 0, 0, "cairo: %s",
                               cairo_status_to_string(cairo_surface_status(surf)));
        cairo_t *cr = cairo_create(surf);
        return drawn(cr, sn_scene_paint(p->sc, cr, NULL), diag);
    }
    return p->count ? draw_stack(surf, p->los, p->sts, p->titles, p->count, p->th, diag)
                    : draw_on(surf, p->lo, p->th, p->st, diag);
}

static sn_status export_png(stream *s, double pw, double ph, const picture *p, sn_diag *diag)
{
    double w = ceil(pw), h = ceil(ph);
    if (w > SN_EXPORT_PNG_MAX_SIDE || h > SN_EXPORT_PNG_MAX_SIDE ||
        w * h > SN_EXPORT_PNG_MAX_PIXELS)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "a %.0fx%.0f pixel PNG is too large (at most %d per side, %.0f "
                           "in all); use --width or --scale, or SVG/PDF",
                           w, h, SN_EXPORT_PNG_MAX_SIDE, SN_EXPORT_PNG_MAX_PIXELS);
    cairo_surface_t *surf =
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)fmax(w, 1), (int)fmax(h, 1));
    /* the picture is rarely a whole number of pixels high or wide: the
     * last row and column would blend with the surface's black */
    if (cairo_surface_status(surf) == CAIRO_STATUS_SUCCESS) {
        cairo_t *bg = cairo_create(surf);
        cairo_set_source_rgb(bg, p->th->background.r, p->th->background.g, p->th->background.b);
        cairo_paint(bg);
        cairo_destroy(bg);
    }
    sn_status rs = draw_picture(surf, p, diag);
    if (rs == SN_OK) {
        cairo_status_t cs = cairo_surface_write_to_png_stream(surf, write_stream, s);
        if (cs != CAIRO_STATUS_SUCCESS && !s->failed)
            rs = sn_diag_set(diag, cs == CAIRO_STATUS_NO_MEMORY ? SN_ENOMEM : SN_EIO, 0, 0,
                             "cairo: %s", cairo_status_to_string(cs));
    }
    return finish(surf, s, rs, diag);
}

/* p as an SVG, PDF or PNG picture of w x h on s. */
static sn_status export_surface(sn_export_format fmt, stream *s, double w, double h,
                                const picture *p, sn_diag *diag)
{
    cairo_surface_t *surf;
    switch (fmt) {
    case SN_EXPORT_SVG:
        surf = cairo_svg_surface_create_for_stream(write_stream, s, w, h);
        if (cairo_surface_status(surf) == CAIRO_STATUS_SUCCESS)
            cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
        return finish(surf, s, draw_picture(surf, p, diag), diag);
    case SN_EXPORT_PDF:
        surf = cairo_pdf_surface_create_for_stream(write_stream, s, w, h);
        if (cairo_surface_status(surf) == CAIRO_STATUS_SUCCESS)
            cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR, "sortnet");
        return finish(surf, s, draw_picture(surf, p, diag), diag);
    case SN_EXPORT_PNG: return export_png(s, w, h, p, diag);
    default: return sn_diag_set(diag, SN_EINVAL, 0, 0, "unknown picture format");
    }
}

double sn_export_estimate(uint32_t n, size_t size, size_t layers, bool values, size_t blocks)
{
    /* as sn_diagram_scene_estimate: a segment and two dots per comparator,
     * a line and a label per wire, a band per layer, two per block */
    return 3.0 * (double)size + 2.0 * n + (double)layers + 3.0 * (double)blocks +
           (values ? 3.0 * n : 0) + 16;
}

sn_status sn_export_check(sn_export_format fmt, const sn_layout *const *lo, size_t count,
                          bool values, double width, double height, bool force, sn_diag *diag)
{
    double prims = 0;
    for (size_t i = 0; i < count; i++)
        prims += sn_diagram_scene_estimate(lo[i], values);
    if (!force && prims > SN_EXPORT_MAX_PRIMS)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "about %.0f drawing elements, more than the limit of %.0f for any "
                           "picture (the %s would be about %.0f MB); draw a smaller network, or "
                           "use --force to write it anyway",
                           prims, SN_EXPORT_MAX_PRIMS, sn_export_format_name(fmt),
                           ceil(prims * 35 / 1e6));
    double w = ceil(width), h = ceil(height);
    if (fmt == SN_EXPORT_PNG && (w > SN_EXPORT_PNG_MAX_SIDE || h > SN_EXPORT_PNG_MAX_SIDE ||
                                 w * h > SN_EXPORT_PNG_MAX_PIXELS))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "a %.0fx%.0f pixel PNG is too large (at most %d per side, %.0f "
                           "in all); use --width or --scale, or SVG/PDF",
                           w, h, SN_EXPORT_PNG_MAX_SIDE, SN_EXPORT_PNG_MAX_PIXELS);
    return SN_OK;
}

sn_status sn_export_write(FILE *out, sn_export_format fmt, const sn_layout *lo, const sn_theme *th,
                          const sn_draw_state *st, sn_diag *diag)
{
    stream s = {out, false, 0};
    if (fmt == SN_EXPORT_TEX)
        return export_tex(&s, lo, th, st, diag);
    picture p = {lo, st, NULL, NULL, NULL, 0, th, NULL};
    return export_surface(fmt, &s, fmax(lo->width, 1), fmax(lo->height, 1), &p, diag);
}

void sn_export_stack_size(const sn_layout *const *lo, const char *const *titles, size_t count,
                          double *width, double *height)
{
    /* as wide as the widest diagram or title line */
    double w = 1, h = 0;
    for (size_t i = 0; i < count; i++) {
        double tw = sn_scene_text_width(titles && titles[i] ? titles[i] : "",
                                        lo[i]->font_size * 1.15, SN_FONT_BOLD);
        w = fmax(w, fmax(lo[i]->width, tw + 2 * SN_LAYOUT_MARGIN * lo[i]->scale));
        h += stack_title_h(lo[i]) + lo[i]->height;
    }
    *width = w;
    *height = fmax(h, 1);
}

sn_status sn_export_write_stack(FILE *out, sn_export_format fmt, const sn_layout *const *lo,
                                const sn_draw_state *const *st, const char *const *titles,
                                size_t count, const sn_theme *th, sn_diag *diag)
{
    if (count == 0)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "no diagram to stack");
    double w, h;
    sn_export_stack_size(lo, titles, count, &w, &h);
    h = fmax(h, 1);
    if (fmt == SN_EXPORT_TEX)
        return sn_diag_set(diag, SN_EUNSUPPORTED, 0, 0,
                           "TikZ holds one network: draw each to its own .tex, or use "
                           ".svg, .png or .pdf for several side by side");
    stream s = {out, false, 0};
    picture p = {NULL, NULL, lo, st, titles, count, th, NULL};
    return export_surface(fmt, &s, w, h, &p, diag);
}

sn_status sn_export_write_scene(FILE *out, sn_export_format fmt, const sn_scene *sc,
                                const sn_theme *th, sn_diag *diag)
{
    if (fmt == SN_EXPORT_TEX)
        return sn_diag_set(diag, SN_EUNSUPPORTED, 0, 0,
                           "this picture has no TikZ form: use .svg, .png or .pdf");
    double w, h;
    sn_scene_size(sc, &w, &h);
    stream s = {out, false, 0};
    picture p = {NULL, NULL, NULL, NULL, NULL, 0, th, sc};
    return export_surface(fmt, &s, fmax(w, 1), fmax(h, 1), &p, diag);
}
