/* plot.c - benchmark rows as a log-log SVG through cairo, with the
 * renderer's font, and the CSV reader for rows measured elsewhere (a GPU
 * machine often has no cairo: `sortnet gpu plot` draws its CSV later).
 * The CSV is six plain fields without quoting, so a few lines of C read
 * it; a library would add a dependency for no gain. */
#include "render/plot.h"

#include <cairo-svg.h> // for: cairo_svg_surface_create_for_stream
#include <cairo.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "render/draw.h" // for: SN_DRAW_FONT

/* The picture's size and margins (points). */
#define PLOT_W ((double)SN_PLOT_WIDTH)
#define PLOT_H ((double)SN_PLOT_HEIGHT)
#define PLOT_L 90.0
#define PLOT_R 230.0 /* the legend */
#define PLOT_T 50.0
#define PLOT_B 60.0

/* LeakSanitizer's view of fontconfig's caches, as draw.c gives it to the
 * programs that draw diagrams; weak here, so a program that plots without
 * drawing a diagram (test_plot) has it too and one that does both links
 * draw.c's. Never called in ordinary builds. */
__attribute__((weak)) const char *__lsan_default_suppressions(void);
__attribute__((weak)) const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig\n";
}

/* the axes' ranges in decades */
typedef struct axes {
    double lx0, lx1, ly0, ly1;
} axes;

static double keys_per_s(const sn_plot_row *r)
{
    return r->ms > 0 ? r->n / (r->ms / 1e3) : 0;
}

static double px(const axes *a, double x)
{
    return PLOT_L + (log10(x) - a->lx0) / (a->lx1 - a->lx0) * (PLOT_W - PLOT_L - PLOT_R);
}

static double py(const axes *a, double y)
{
    return PLOT_H - PLOT_B - (log10(y) - a->ly0) / (a->ly1 - a->ly0) * (PLOT_H - PLOT_T - PLOT_B);
}

/* Whole decades around every drawn point (1..10 when there is none). */
static axes plot_axes(const sn_plot_row *rows, size_t count)
{
    double xmin = 1e300, xmax = 0, ymin = 1e300, ymax = 0;
    for (size_t i = 0; i < count; i++) {
        double x = rows[i].n, y = keys_per_s(&rows[i]);
        if (y <= 0)
            continue;
        xmin = fmin(xmin, x), xmax = fmax(xmax, x), ymin = fmin(ymin, y), ymax = fmax(ymax, y);
    }
    if (xmax <= 0)
        xmin = 1, xmax = 10, ymin = 1, ymax = 10;
    axes a = {floor(log10(xmin)), ceil(log10(xmax)), floor(log10(ymin)), ceil(log10(ymax))};
    if (a.lx1 <= a.lx0)
        a.lx1 = a.lx0 + 1;
    if (a.ly1 <= a.ly0)
        a.ly1 = a.ly0 + 1;
    return a;
}

/* Grid lines and labels at every decade, the title and the x label. */
static void draw_frame(cairo_t *cr, const axes *a, const char *device)
{
    char lab[160];
    cairo_set_line_width(cr, 1);
    for (double e = a->lx0; e <= a->lx1; e++) {
        double x = px(a, pow(10, e));
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, x, PLOT_T);
        cairo_line_to(cr, x, PLOT_H - PLOT_B);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(lab, sizeof lab, "1e%.0f", e);
        cairo_move_to(cr, x - 12, PLOT_H - PLOT_B + 18);
        cairo_show_text(cr, lab);
    }
    for (double e = a->ly0; e <= a->ly1; e++) {
        double y = py(a, pow(10, e));
        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, PLOT_L, y);
        cairo_line_to(cr, PLOT_W - PLOT_R, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(lab, sizeof lab, "1e%.0f", e);
        cairo_move_to(cr, PLOT_L - 40, y + 4);
        cairo_show_text(cr, lab);
    }
    cairo_move_to(cr, PLOT_L, PLOT_T - 20);
    snprintf(lab, sizeof lab, "keys per second (%.100s)", device ? device : "unknown device");
    cairo_show_text(cr, lab);
    cairo_move_to(cr, (PLOT_W - PLOT_R) / 2, PLOT_H - 15);
    cairo_show_text(cr, "keys (n)");
}

static bool same_series(const sn_plot_row *a, const sn_plot_row *b)
{
    return strcmp(a->network, b->network) == 0 && strcmp(a->variant, b->variant) == 0;
}

/* Row i's variant (or network) among the distinct ones, in order of first
 * appearance. */
static size_t name_rank(const sn_plot_row *rows, size_t i, bool variant)
{
#define NAME(k) (variant ? rows[k].variant : rows[k].network)
    size_t f = 0, rank = 0;
    while (strcmp(NAME(f), NAME(i)) != 0)
        f++;
    for (size_t k = 0; k < f; k++) {
        size_t j = 0;
        while (strcmp(NAME(j), NAME(k)) != 0)
            j++;
        rank += j == k;
    }
    return rank;
#undef NAME
}

/* The series of row i (rows i.. of its network and variant): its line,
 * a dot per point, and its legend entry number `series`. */
static void draw_series(cairo_t *cr, const axes *a, const sn_plot_row *rows, size_t count, size_t i,
                        size_t series)
{
    static const double pal[][3] = {{0.12, 0.47, 0.71}, {1.0, 0.5, 0.05},  {0.17, 0.63, 0.17},
                                    {0.84, 0.15, 0.16}, {0.58, 0.4, 0.74}, {0.55, 0.34, 0.29},
                                    {0.89, 0.47, 0.76}, {0.5, 0.5, 0.5}};
    static const double dashes[][2] = {{0, 0}, {6, 3}, {2, 3}, {9, 3}};
    size_t vi = name_rank(rows, i, true), ni = name_rank(rows, i, false);
    const double *c = pal[vi % 8];
    cairo_set_source_rgb(cr, c[0], c[1], c[2]);
    cairo_set_line_width(cr, 2);
    cairo_set_dash(cr, dashes[ni % 4], ni % 4 ? 2 : 0, 0);
    bool moved = false;
    for (size_t j = i; j < count; j++) {
        if (!same_series(&rows[j], &rows[i]) || rows[j].ms <= 0)
            continue;
        double x = px(a, (double)rows[j].n), y = py(a, keys_per_s(&rows[j]));
        if (!moved)
            cairo_move_to(cr, x, y);
        else
            cairo_line_to(cr, x, y);
        moved = true;
    }
    cairo_stroke(cr);
    for (size_t j = i; j < count; j++) {
        if (!same_series(&rows[j], &rows[i]) || rows[j].ms <= 0)
            continue;
        cairo_new_sub_path(cr);
        cairo_arc(cr, px(a, (double)rows[j].n), py(a, keys_per_s(&rows[j])), 2.5, 0,
                  6.283185307179586);
        cairo_fill(cr);
    }
    double ly = PLOT_T + 16 * (double)series;
    cairo_move_to(cr, PLOT_W - PLOT_R + 10, ly);
    cairo_line_to(cr, PLOT_W - PLOT_R + 40, ly);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_source_rgb(cr, 0, 0, 0);
    char lab[160];
    snprintf(lab, sizeof lab, "%.70s %.70s", rows[i].network, rows[i].variant);
    cairo_move_to(cr, PLOT_W - PLOT_R + 46, ly + 4);
    cairo_show_text(cr, lab);
}

typedef struct plot_stream {
    FILE *f;
    int err; /* errno of the first failed write: the cause in the message */
} plot_stream;

static cairo_status_t write_stream(void *closure, const unsigned char *data, unsigned int len)
{
    plot_stream *s = closure;
    if (s->err)
        return CAIRO_STATUS_WRITE_ERROR;
    /* ferror too: glibc's fwrite on an unbuffered stream may report every
     * byte written when the write under it failed (errno still says why) */
    if (fwrite(data, 1, len, s->f) == len && !ferror(s->f))
        return CAIRO_STATUS_SUCCESS;
    s->err = errno ? errno : EIO;
    return CAIRO_STATUS_WRITE_ERROR;
}

void sn_plot_draw(cairo_t *cr, const sn_plot_row *rows, size_t count, const char *device)
{
    cairo_save(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, 0, 0, PLOT_W, PLOT_H);
    cairo_fill(cr);
    cairo_select_font_face(cr, SN_DRAW_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 12);
    axes a = plot_axes(rows, count);
    draw_frame(cr, &a, device);
    size_t series = 0;
    for (size_t i = 0; i < count; i++) {
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = !same_series(&rows[j], &rows[i]);
        if (first)
            draw_series(cr, &a, rows, count, i, series++);
    }
    cairo_restore(cr);
}

sn_status sn_plot_write_svg(FILE *out, const sn_plot_row *rows, size_t count, const char *device,
                            sn_diag *diag)
{
    plot_stream s = {out, 0};
    cairo_surface_t *surf = cairo_svg_surface_create_for_stream(write_stream, &s, PLOT_W, PLOT_H);
    cairo_t *cr = cairo_create(surf);
    sn_plot_draw(cr, rows, count, device);
    cairo_status_t cs = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_finish(surf);
    if (cs == CAIRO_STATUS_SUCCESS)
        cs = cairo_surface_status(surf);
    cairo_surface_destroy(surf);
    if (s.err || (cs == CAIRO_STATUS_SUCCESS && (errno = 0, fflush(out) != 0 || ferror(out))))
        return sn_diag_set(diag, SN_EIO, 0, 0, "writing the plot failed: %s",
                           strerror(s.err   ? s.err
                                    : errno ? errno
                                            : EIO));
    if (cs != CAIRO_STATUS_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "drawing the plot failed: %s",
                           cairo_status_to_string(cs));
    return SN_OK;
}

/* ---- the CSV */

void sn_plot_table_init(sn_plot_table *t)
{
    memset(t, 0, sizeof *t);
}

void sn_plot_table_free(sn_plot_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->ntexts; i++)
        sn_free(t->texts[i]);
    sn_free(t->texts);
    sn_free(t->rows);
    memset(t, 0, sizeof *t);
}

/* "NAME:LINE:COL: why" as SN_EPARSE */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static sn_status
bad(sn_diag *diag, const char *name, size_t line, size_t col, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    return sn_diag_set(diag, SN_EPARSE, line, col, "%.500s:%zu:%zu: %s", name, line, col, why);
}

/* Split line (modified in place) at commas into exactly 6 fields. */
static sn_status split6(char *text, const char *name, size_t line, char **f, size_t *col,
                        sn_diag *diag)
{
    size_t nf = 0;
    for (char *p = text;;) {
        if (nf == 6)
            return bad(diag, name, line, (size_t)(p - text), "more than 6 comma-separated fields");
        f[nf] = p;
        col[nf++] = (size_t)(p - text) + 1;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    if (nf != 6)
        return bad(diag, name, line, strlen(f[nf - 1]) + col[nf - 1],
                   "expected 6 comma-separated fields "
                   "(device,network,variant,n,median_ms,keys_per_s), found %zu",
                   nf);
    return SN_OK;
}

/* One data line into *row (and *device); SN_EPARSE naming the column. */
static sn_status parse_row(char *text, const char *name, size_t line, sn_plot_row *row,
                           const char **device, sn_diag *diag)
{
    char *f[6];
    size_t col[6];
    sn_status st = split6(text, name, line, f, col, diag);
    if (st != SN_OK)
        return st;
    static const char *const what[3] = {"device", "network", "variant"};
    for (int i = 0; i < 3; i++)
        if (!f[i][0])
            return bad(diag, name, line, col[i], "empty %s", what[i]);
    char *end;
    errno = 0;
    unsigned long long n = strtoull(f[3], &end, 10);
    if (f[3][0] < '0' || f[3][0] > '9' || *end || errno || n < 1 || n > UINT32_MAX)
        return bad(diag, name, line, col[3],
                   "n must be a whole number from 1 to 2^32-1, not '%.40s'", f[3]);
    double v[2];
    for (int i = 0; i < 2; i++) {
        v[i] = strtod(f[4 + i], &end);
        if (end == f[4 + i] || *end || !(v[i] >= 0) || v[i] > 1e300)
            return bad(diag, name, line, col[4 + i], "%s must be a number >= 0, not '%.40s'",
                       i ? "keys_per_s" : "median_ms", f[4 + i]);
    }
    *row = (sn_plot_row){f[1], f[2], (uint32_t)n, v[0]};
    if (!*device)
        *device = f[0];
    return SN_OK;
}

static sn_status grow(sn_plot_table *t, sn_diag *diag)
{
    if (t->count < t->cap)
        return SN_OK;
    size_t nc = t->cap ? 2 * t->cap : 64;
    sn_plot_row *nr = sn_realloc(t->rows, nc * sizeof *nr);
    if (!nr)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for plot rows");
    t->rows = nr;
    t->cap = nc;
    return SN_OK;
}

sn_status sn_plot_csv_parse(sn_plot_table *t, char *text, const char *name, sn_diag *diag)
{
    char **nt = sn_realloc(t->texts, (t->ntexts + 1) * sizeof *nt);
    if (!nt) {
        sn_free(text);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory reading %s", name);
    }
    t->texts = nt;
    t->texts[t->ntexts++] = text;
    size_t count0 = t->count;
    const char *device0 = t->device;
    sn_status st = SN_OK;
    char *p = text;
    for (size_t line = 1; p && *p && st == SN_OK; line++) {
        char *nl = strchr(p, '\n'), *next = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        if (nl && nl > p && nl[-1] == '\r')
            nl[-1] = '\0';
        if (*p && strncmp(p, "device,network,", 15) != 0 && (st = grow(t, diag)) == SN_OK) {
            st = parse_row(p, name, line, &t->rows[t->count], &t->device, diag);
            t->count += st == SN_OK;
        }
        p = next;
    }
    if (st != SN_OK) { /* nothing of this text stays */
        t->count = count0;
        t->device = device0;
    }
    return st;
}
