/* scene.c - the display list: builders, reading, hit tests, text metrics
 * and the readability check. Pure C (no cairo, no threads, no printing),
 * so it builds for wasm32.
 *
 * Invariant: prims[] only grows between resets; styles[] holds each
 * distinct style once in a row (a new style is interned only when it
 * differs from the last one used), and every prim's style index is valid;
 * strings live in one pool, each NUL-terminated. */
#include "render/scene.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check_api.h"
#include "render/font_metrics.h"

struct sn_scene {
    double w, h;
    sn_prim *prims;
    size_t count, cap;
    sn_scene_style *styles;
    size_t style_count, style_cap;
    char *pool;
    size_t pool_len, pool_cap;
    sn_point *pts;
    size_t pt_count, pt_cap;
    sn_status status;
};

/* Grow *buf (elements of size elem) to hold need elements. */
static bool grow(void **buf, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    size_t nc = *cap ? *cap : 64, bytes;
    while (nc < need) {
        if (nc > SIZE_MAX / 2)
            return false;
        nc *= 2;
    }
    if (!sn_mul_size(nc, elem, &bytes))
        return false;
    void *nb = sn_realloc(*buf, bytes);
    if (!nb)
        return false;
    *buf = nb;
    *cap = nc;
    return true;
}

sn_scene *sn_scene_create(double w, double h)
{
    sn_scene *sc = sn_calloc(1, sizeof *sc);
    if (!sc)
        return NULL;
    sc->w = w;
    sc->h = h;
    sc->status = SN_OK;
    return sc;
}

void sn_scene_destroy(sn_scene *sc)
{
    if (!sc)
        return;
    sn_free(sc->prims);
    sn_free(sc->styles);
    sn_free(sc->pool);
    sn_free(sc->pts);
    sn_free(sc);
}

void sn_scene_reset(sn_scene *sc, double w, double h)
{
    sc->w = w;
    sc->h = h;
    sc->count = sc->style_count = sc->pool_len = sc->pt_count = 0;
    sc->status = SN_OK;
}

void sn_scene_size(const sn_scene *sc, double *w, double *h)
{
    *w = sc->w;
    *h = sc->h;
}

sn_status sn_scene_status(const sn_scene *sc)
{
    return sc->status;
}

sn_scene_style sn_scene_stroke(sn_rgba c, double width)
{
    sn_scene_style s;
    memset(&s, 0, sizeof s);
    s.stroke = c;
    s.width = width;
    return s;
}

sn_scene_style sn_scene_fill(sn_rgba c)
{
    sn_scene_style s;
    memset(&s, 0, sizeof s);
    s.fill = c;
    return s;
}

static bool same_rgba(sn_rgba a, sn_rgba b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

static bool same_style(const sn_scene_style *a, const sn_scene_style *b)
{
    return same_rgba(a->fill, b->fill) && same_rgba(a->stroke, b->stroke) && a->width == b->width &&
           a->dash_on == b->dash_on && a->dash_off == b->dash_off && a->cap == b->cap &&
           a->join == b->join && a->flags == b->flags;
}

/* Index of st, interned against the last style used. */
static bool intern(sn_scene *sc, const sn_scene_style *st, uint32_t *out)
{
    static const sn_scene_style none = {{0, 0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0, 0, 0, 0};
    if (!st)
        st = &none;
    if (sc->style_count && same_style(&sc->styles[sc->style_count - 1], st)) {
        *out = (uint32_t)(sc->style_count - 1);
        return true;
    }
    if (sc->style_count >= UINT32_MAX ||
        !grow((void **)&sc->styles, &sc->style_cap, sc->style_count + 1, sizeof *sc->styles))
        return false;
    sc->styles[sc->style_count] = *st;
    *out = (uint32_t)sc->style_count++;
    return true;
}

/* A new primitive (zeroed but for kind, style and tag), or NULL. */
static sn_prim *add(sn_scene *sc, sn_prim_kind kind, const sn_scene_style *st, sn_scene_tag tag)
{
    if (sc->status != SN_OK)
        return NULL;
    uint32_t si;
    if (!intern(sc, st, &si) ||
        !grow((void **)&sc->prims, &sc->cap, sc->count + 1, sizeof *sc->prims)) {
        sc->status = SN_ENOMEM;
        return NULL;
    }
    sn_prim *p = &sc->prims[sc->count++];
    memset(p, 0, sizeof *p);
    p->kind = (uint8_t)kind;
    p->style = si;
    p->tag = tag;
    return p;
}

static size_t index_of(const sn_scene *sc, const sn_prim *p)
{
    return p ? (size_t)(p - sc->prims) : SIZE_MAX;
}

/* Copy text into the pool: its offset and length in *first, *count. */
static bool pool_add(sn_scene *sc, const char *text, size_t *first, size_t *count)
{
    size_t len = strlen(text);
    if (!grow((void **)&sc->pool, &sc->pool_cap, sc->pool_len + len + 1, 1)) {
        sc->status = SN_ENOMEM;
        return false;
    }
    memcpy(sc->pool + sc->pool_len, text, len + 1);
    *first = sc->pool_len;
    *count = len;
    sc->pool_len += len + 1;
    return true;
}

size_t sn_scene_line(sn_scene *sc, double x0, double y0, double x1, double y1,
                     const sn_scene_style *st, sn_scene_tag tag)
{
    sn_prim *p = add(sc, SN_PRIM_LINE, st, tag);
    if (p) {
        p->x0 = x0;
        p->y0 = y0;
        p->x1 = x1;
        p->y1 = y1;
    }
    return index_of(sc, p);
}

size_t sn_scene_rect(sn_scene *sc, double x, double y, double w, double h, double r,
                     const sn_scene_style *st, sn_scene_tag tag)
{
    sn_prim *p = add(sc, SN_PRIM_RECT, st, tag);
    if (p) {
        p->x0 = x;
        p->y0 = y;
        p->x1 = x + w;
        p->y1 = y + h;
        p->r = r;
    }
    return index_of(sc, p);
}

size_t sn_scene_poly(sn_scene *sc, const sn_point *pts, size_t count, bool closed,
                     const sn_scene_style *st, sn_scene_tag tag)
{
    if (sc->status != SN_OK)
        return SIZE_MAX;
    if (!grow((void **)&sc->pts, &sc->pt_cap, sc->pt_count + count, sizeof *sc->pts)) {
        sc->status = SN_ENOMEM;
        return SIZE_MAX;
    }
    sn_prim *p = add(sc, SN_PRIM_POLY, st, tag);
    if (!p)
        return SIZE_MAX;
    memcpy(sc->pts + sc->pt_count, pts, count * sizeof *pts);
    p->first = sc->pt_count;
    p->count = count;
    p->r = closed ? 1 : 0;
    /* bounding box, for hit tests and checks */
    p->x0 = p->y0 = INFINITY;
    p->x1 = p->y1 = -INFINITY;
    for (size_t i = 0; i < count; i++) {
        p->x0 = fmin(p->x0, pts[i].x);
        p->y0 = fmin(p->y0, pts[i].y);
        p->x1 = fmax(p->x1, pts[i].x);
        p->y1 = fmax(p->y1, pts[i].y);
    }
    sc->pt_count += count;
    return index_of(sc, p);
}

size_t sn_scene_circle(sn_scene *sc, double x, double y, double r, const sn_scene_style *st,
                       sn_scene_tag tag)
{
    sn_prim *p = add(sc, SN_PRIM_CIRCLE, st, tag);
    if (p) {
        p->x0 = x;
        p->y0 = y;
        p->x1 = x;
        p->y1 = y;
        p->r = r;
    }
    return index_of(sc, p);
}

size_t sn_scene_text(sn_scene *sc, double x, double y, const char *text, double size,
                     sn_font_weight weight, unsigned align, sn_rgba ink, sn_scene_tag tag)
{
    sn_scene_style st = sn_scene_fill(ink);
    sn_prim *p = add(sc, SN_PRIM_TEXT, &st, tag);
    if (!p)
        return SIZE_MAX;
    if (!pool_add(sc, text, &p->first, &p->count)) {
        sc->count--;
        return SIZE_MAX;
    }
    double w = sn_scene_text_width(text, size, weight);
    double base = y;
    if (align & SN_TEXT_MIDDLE)
        base = y + sn_scene_digit_height(size) / 2;
    else if (align & SN_TEXT_TOP)
        base = y + sn_scene_font_ascent(size);
    double x0 = x;
    if ((align & 3) == SN_TEXT_CENTER)
        x0 = x - w / 2;
    else if ((align & 3) == SN_TEXT_RIGHT)
        x0 = x - w;
    p->weight = (uint8_t)weight;
    p->size = size;
    p->base = base;
    p->x0 = x0;
    p->x1 = x0 + w;
    p->y0 = base - sn_scene_font_ascent(size);
    p->y1 = base + sn_scene_font_descent(size);
    return index_of(sc, p);
}

size_t sn_scene_clip_push(sn_scene *sc, sn_rect r, sn_role role)
{
    sn_prim *p = add(sc, SN_PRIM_CLIP_PUSH, NULL, sn_scene_tag_of(role));
    if (p) {
        p->x0 = r.x;
        p->y0 = r.y;
        p->x1 = r.x + r.w;
        p->y1 = r.y + r.h;
    }
    return index_of(sc, p);
}

size_t sn_scene_clip_pop(sn_scene *sc)
{
    return index_of(sc, add(sc, SN_PRIM_CLIP_POP, NULL, sn_scene_tag_of(SN_ROLE_NONE)));
}

size_t sn_scene_note(sn_scene *sc, sn_note_kind kind, double count, const char *text)
{
    sn_prim *p = add(sc, SN_PRIM_NOTE, NULL, sn_scene_tag_of(SN_ROLE_NONE));
    if (!p)
        return SIZE_MAX;
    if (!pool_add(sc, text, &p->first, &p->count)) {
        sc->count--;
        return SIZE_MAX;
    }
    p->note = (uint16_t)kind;
    p->size = count;
    return index_of(sc, p);
}

size_t sn_scene_count(const sn_scene *sc)
{
    return sc->count;
}

const sn_prim *sn_scene_at(const sn_scene *sc, size_t i)
{
    sn_api_check(sc != NULL && i < sc->count);
    return &sc->prims[i];
}

const sn_scene_style *sn_scene_style_of(const sn_scene *sc, const sn_prim *p)
{
    return &sc->styles[p->style];
}

const char *sn_scene_str(const sn_scene *sc, const sn_prim *p)
{
    if (p->kind != SN_PRIM_TEXT && p->kind != SN_PRIM_NOTE)
        return "";
    return sc->pool + p->first;
}

const sn_point *sn_scene_points(const sn_scene *sc, const sn_prim *p)
{
    return sc->pts + p->first;
}

const sn_prim *sn_scene_find_note(const sn_scene *sc, sn_note_kind kind)
{
    for (size_t i = 0; i < sc->count; i++)
        if (sc->prims[i].kind == SN_PRIM_NOTE && sc->prims[i].note == kind)
            return &sc->prims[i];
    return NULL;
}

/* ---- metrics */

/* Next code point of UTF-8 text at *s (advanced); malformed bytes count
 * as one character each. */
static uint32_t next_cp(const unsigned char **s)
{
    const unsigned char *p = *s;
    uint32_t c = *p++;
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (more)
        c &= 0x3Fu >> more;
    for (; more > 0 && (*p & 0xC0) == 0x80; more--)
        c = (c << 6) | (*p++ & 0x3Fu);
    *s = p;
    return c;
}

static unsigned advance_units(uint32_t c, int bold)
{
    if (c >= 32 && c < 127)
        return sn_font_advance[bold][c - 32];
    for (size_t i = 0; i < sizeof sn_font_extra / sizeof *sn_font_extra; i++)
        if (sn_font_extra[i] == c)
            return sn_font_advance[bold][SN_FONT_ASCII_COUNT + i];
    return sn_font_advance[bold]['M' - 32];
}

double sn_scene_text_width(const char *text, double size, sn_font_weight weight)
{
    unsigned long units = 0;
    int bold = weight == SN_FONT_BOLD;
    for (const unsigned char *s = (const unsigned char *)text; *s;)
        units += advance_units(next_cp(&s), bold);
    return (double)units * size / SN_FONT_UPEM;
}

double sn_scene_font_ascent(double size)
{
    return size * SN_FONT_ASCENT / SN_FONT_UPEM;
}

double sn_scene_font_descent(double size)
{
    return size * SN_FONT_DESCENT / SN_FONT_UPEM;
}

double sn_scene_digit_height(double size)
{
    return size * 1493.0 / SN_FONT_UPEM; /* DejaVu Sans: the digits' height */
}

size_t sn_scene_text_fit(const char *text, double size, sn_font_weight weight, double max_w,
                         char *out, size_t out_size)
{
    static const char ell[] = "\xe2\x80\xa6"; /* … */
    if (out_size == 0)
        return 0;
    out[0] = '\0';
    size_t len = strlen(text);
    int bold = weight == SN_FONT_BOLD;
    double scale = size / SN_FONT_UPEM;
    bool whole = sn_scene_text_width(text, size, weight) <= max_w;
    double room = whole ? max_w : max_w - sn_scene_text_width(ell, size, weight);
    if (room < 0)
        return 0;
    /* the longest prefix (at a character boundary) that fits room and out */
    size_t keep = 0;
    double w = 0;
    const unsigned char *p = (const unsigned char *)text;
    size_t tail = whole ? 1 : sizeof ell; /* NUL, or "…" and NUL */
    while (*p) {
        const unsigned char *q = p;
        double cw = advance_units(next_cp(&q), bold) * scale;
        size_t next = (size_t)(q - (const unsigned char *)text);
        if (w + cw > room + 1e-9 || next + tail > out_size)
            break;
        w += cw;
        keep = next;
        p = q;
    }
    if (whole && keep == len) {
        memcpy(out, text, len + 1);
        return len;
    }
    memcpy(out, text, keep);
    if (keep + sizeof ell <= out_size) {
        memcpy(out + keep, ell, sizeof ell);
        return keep + sizeof ell - 1;
    }
    out[keep] = '\0';
    return keep;
}

size_t sn_scene_text_wrap(const char *text, double size, sn_font_weight weight, double max_w,
                          size_t *starts, size_t *lens, size_t max_lines)
{
    int bold = weight == SN_FONT_BOLD;
    double scale = size / SN_FONT_UPEM;
    size_t lines = 0, i = 0, n = strlen(text);
    while (i < n) {
        while (i < n && text[i] == ' ')
            i++;
        if (i >= n)
            break;
        /* grow the line while it fits; remember the last space */
        size_t j = i, brk = 0;
        double w = 0;
        bool have_brk = false;
        while (j < n) {
            const unsigned char *q = (const unsigned char *)text + j;
            double cw = advance_units(next_cp(&q), bold) * scale;
            size_t nj = (size_t)(q - (const unsigned char *)text);
            if (w + cw > max_w + 1e-9 && j > i)
                break;
            if (text[j] == ' ') {
                brk = j;
                have_brk = true;
            }
            w += cw;
            j = nj;
        }
        size_t end = j;
        if (j < n && have_brk && text[j] != ' ')
            end = brk; /* break at the last space */
        size_t e = end;
        while (e > i && text[e - 1] == ' ')
            e--;
        if (lines < max_lines) {
            starts[lines] = i;
            lens[lines] = e - i;
        }
        lines++;
        i = end;
    }
    return lines;
}

/* ---- hit test */

static double seg_dist(double px, double py, double x0, double y0, double x1, double y1)
{
    double dx = x1 - x0, dy = y1 - y0, l2 = dx * dx + dy * dy;
    double t = l2 > 0 ? ((px - x0) * dx + (py - y0) * dy) / l2 : 0;
    t = fmax(0, fmin(1, t));
    return hypot(px - (x0 + t * dx), py - (y0 + t * dy));
}

static bool prim_near(const sn_prim *p, double x, double y, double tol)
{
    switch (p->kind) {
    case SN_PRIM_LINE: return seg_dist(x, y, p->x0, p->y0, p->x1, p->y1) <= tol;
    case SN_PRIM_CIRCLE: return hypot(x - p->x0, y - p->y0) <= p->r + tol;
    case SN_PRIM_RECT:
    case SN_PRIM_POLY:
    case SN_PRIM_TEXT:
        return x >= p->x0 - tol && x <= p->x1 + tol && y >= p->y0 - tol && y <= p->y1 + tol;
    default: return false;
    }
}

#define CLIP_DEPTH 32

long sn_scene_hit(const sn_scene *sc, double x, double y, double tol, sn_role role)
{
    /* forwards, tracking whether the point is inside the clips; the last
     * match wins (it was drawn on top) */
    bool inside[CLIP_DEPTH + 1];
    size_t depth = 0;
    inside[0] = true;
    long hit = -1;
    for (size_t i = 0; i < sc->count; i++) {
        const sn_prim *p = &sc->prims[i];
        if (p->kind == SN_PRIM_CLIP_PUSH) {
            bool in = x >= p->x0 && x <= p->x1 && y >= p->y0 && y <= p->y1;
            if (depth < CLIP_DEPTH) {
                inside[depth + 1] = inside[depth] && in;
            }
            depth++;
            continue;
        }
        if (p->kind == SN_PRIM_CLIP_POP) {
            if (depth)
                depth--;
            continue;
        }
        if (!inside[depth < CLIP_DEPTH ? depth : CLIP_DEPTH])
            continue;
        if (role != SN_ROLE_NONE ? p->tag.role != role
                                 : (p->tag.role == SN_ROLE_BACKGROUND ||
                                    p->tag.role == SN_ROLE_PANEL || p->tag.role == SN_ROLE_NONE))
            continue;
        if (prim_near(p, x, y, tol))
            hit = (long)i;
    }
    return hit;
}

/* ---- readability */

typedef struct box {
    double x0, y0, x1, y1;
} box;

static bool overlap(box a, box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

static const char *role_name(sn_role r)
{
    static const char *const names[SN_ROLE_COUNT] = {
        "none",    "background", "band",   "stage",      "block",      "block label",
        "step",    "path",       "wire",   "wire label", "comparator", "value box",
        "value",   "mark",       "chart",  "bar",        "selected",   "label",
        "caption", "title",      "status", "panel"};
    return (unsigned)r < SN_ROLE_COUNT ? names[r] : "?";
}

typedef struct reporter {
    char *buf;
    size_t size, used;
    size_t problems;
} reporter;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void
problem(reporter *r, const char *fmt, ...)
{
    r->problems++;
    if (!r->buf || r->size == 0 || r->used + 1 >= r->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(r->buf + r->used, r->size - r->used, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    r->used += (size_t)k;
    if (r->used >= r->size)
        r->used = r->size - 1;
    else if (r->used + 1 < r->size) {
        r->buf[r->used++] = '\n';
        r->buf[r->used] = '\0';
    }
}

/* Is an opaque or crossing primitive in the way of text of role tr? Value
 * boxes and block label pills hide what they cover; comparators cross it.
 * A value's own box and a block label's own pill are not in the way. */
static bool obstacle(const sn_prim *p, sn_role tr)
{
    if (p->kind == SN_PRIM_RECT && p->tag.role == SN_ROLE_VALUE_BOX)
        return tr != SN_ROLE_VALUE;
    if (p->kind == SN_PRIM_RECT && p->tag.role == SN_ROLE_BLOCK_LABEL)
        return tr != SN_ROLE_BLOCK_LABEL;
    if (p->kind == SN_PRIM_LINE && p->tag.role == SN_ROLE_COMPARATOR)
        return tr == SN_ROLE_BLOCK_LABEL || tr == SN_ROLE_WIRE_LABEL;
    return false;
}

size_t sn_scene_check_readable(const sn_scene *sc, double min_font, double tol, char *report,
                               size_t report_size)
{
    reporter r = {report, report_size, 0, 0};
    if (report && report_size)
        report[0] = '\0';
    /* the clip each text is under */
    box clip[CLIP_DEPTH + 1];
    size_t depth = 0;
    clip[0] = (box){0, 0, sc->w, sc->h};
    size_t ntext = 0;
    for (size_t i = 0; i < sc->count; i++)
        ntext += sc->prims[i].kind == SN_PRIM_TEXT;
    box *tb = sn_calloc(ntext ? ntext : 1, sizeof *tb);
    size_t *ti = sn_calloc(ntext ? ntext : 1, sizeof *ti);
    if (!tb || !ti) {
        sn_free(tb);
        sn_free(ti);
        problem(&r, "out of memory for the check");
        return r.problems;
    }
    size_t k = 0;
    for (size_t i = 0; i < sc->count; i++) {
        const sn_prim *p = &sc->prims[i];
        if (p->kind == SN_PRIM_CLIP_PUSH) {
            box c = clip[depth < CLIP_DEPTH ? depth : CLIP_DEPTH];
            box n = {fmax(c.x0, p->x0), fmax(c.y0, p->y0), fmin(c.x1, p->x1), fmin(c.y1, p->y1)};
            depth++;
            if (depth <= CLIP_DEPTH)
                clip[depth] = n;
            continue;
        }
        if (p->kind == SN_PRIM_CLIP_POP) {
            if (depth)
                depth--;
            continue;
        }
        if (p->kind != SN_PRIM_TEXT)
            continue;
        const char *s = sc->pool + p->first;
        box b = {p->x0 + tol, p->y0 + tol, p->x1 - tol, p->y1 - tol};
        box c = clip[depth < CLIP_DEPTH ? depth : CLIP_DEPTH];
        if (p->size < min_font)
            problem(&r, "%s \"%s\" at (%.1f, %.1f): size %.2f below %.2f", role_name(p->tag.role),
                    s, p->x0, p->base, p->size, min_font);
        if (b.x0 < c.x0 || b.y0 < c.y0 || b.x1 > c.x1 || b.y1 > c.y1)
            problem(&r,
                    "%s \"%s\" box (%.1f, %.1f)-(%.1f, %.1f) outside its clip (%.1f, %.1f)-(%.1f, "
                    "%.1f)",
                    role_name(p->tag.role), s, p->x0, p->y0, p->x1, p->y1, c.x0, c.y0, c.x1, c.y1);
        tb[k] = b;
        ti[k++] = i;
    }
    /* every pair of text boxes (sorted by x0, a sweep) */
    for (size_t a = 1; a < k; a++) { /* insertion sort by x0: boxes come nearly sorted */
        box bb = tb[a];
        size_t ii = ti[a], j = a;
        while (j > 0 && tb[j - 1].x0 > bb.x0) {
            tb[j] = tb[j - 1];
            ti[j] = ti[j - 1];
            j--;
        }
        tb[j] = bb;
        ti[j] = ii;
    }
    /* (labels of one kind on one baseline closer than SN_SCENE_WORD_GAP
     * of their size read as one: "sort 16 sort 16") */
    double maxsize = 0;
    for (size_t a = 0; a < k; a++)
        maxsize = fmax(maxsize, sc->prims[ti[a]].size);
    /* (and the same words twice on one baseline within a label's width
     * read as one label printed twice) */
    double reach = SN_SCENE_WORD_GAP * maxsize;
    for (size_t a = 0; a < k; a++)
        reach = fmax(reach, tb[a].x1 - tb[a].x0);
    for (size_t a = 0; a < k; a++)
        for (size_t b = a + 1; b < k && tb[b].x0 < tb[a].x1 + reach; b++) {
            const sn_prim *p = &sc->prims[ti[a]], *q = &sc->prims[ti[b]];
            if (overlap(tb[a], tb[b])) {
                problem(&r, "%s \"%s\" at (%.1f, %.1f) overlaps %s \"%s\" at (%.1f, %.1f)",
                        role_name(p->tag.role), sc->pool + p->first, p->x0, p->base,
                        role_name(q->tag.role), sc->pool + q->first, q->x0, q->base);
            } else if (p->tag.role == q->tag.role && fabs(p->base - q->base) < 0.5 &&
                       p->count == q->count && p->count > 0 &&
                       memcmp(sc->pool + p->first, sc->pool + q->first, p->count) == 0 &&
                       tb[b].x0 < tb[a].x1 + (tb[a].x1 - tb[a].x0)) {
                problem(&r,
                        "%s \"%s\" at (%.1f, %.1f) is printed twice side by side (again at "
                        "(%.1f, %.1f))",
                        role_name(p->tag.role), sc->pool + p->first, p->x0, p->base, q->x0,
                        q->base);
            } else if (p->tag.role == q->tag.role && fabs(p->base - q->base) < 0.5 &&
                       tb[b].x0 < tb[a].x1 + SN_SCENE_WORD_GAP * fmin(p->size, q->size) &&
                       tb[a].x0 < tb[b].x1 + SN_SCENE_WORD_GAP * fmin(p->size, q->size)) {
                problem(&r, "%s \"%s\" at (%.1f, %.1f) runs into \"%s\" at (%.1f, %.1f)",
                        role_name(p->tag.role), sc->pool + p->first, p->x0, p->base,
                        sc->pool + q->first, q->x0, q->base);
            }
        }
    /* nothing drawn is cut off by the picture's edge */
    for (size_t i = 0; i < sc->count; i++) {
        const sn_prim *o = &sc->prims[i];
        if (o->kind != SN_PRIM_LINE && o->kind != SN_PRIM_RECT && o->kind != SN_PRIM_CIRCLE &&
            o->kind != SN_PRIM_POLY)
            continue;
        double g = o->kind == SN_PRIM_CIRCLE ? o->r : 0;
        if (fmin(o->x0, o->x1) - g < -0.5 || fmin(o->y0, o->y1) - g < -0.5 ||
            fmax(o->x0, o->x1) + g > sc->w + 0.5 || fmax(o->y0, o->y1) + g > sc->h + 0.5)
            problem(&r, "a %s at (%.1f, %.1f)-(%.1f, %.1f) leaves the %.1f x %.1f picture",
                    role_name(o->tag.role), o->x0, o->y0, o->x1, o->y1, sc->w, sc->h);
    }
    /* text against what hides or crosses it */
    for (size_t i = 0; i < sc->count; i++) {
        const sn_prim *o = &sc->prims[i];
        if (o->kind != SN_PRIM_RECT && o->kind != SN_PRIM_LINE)
            continue;
        box ob = {fmin(o->x0, o->x1), fmin(o->y0, o->y1), fmax(o->x0, o->x1), fmax(o->y0, o->y1)};
        for (size_t a = 0; a < k && tb[a].x0 < ob.x1; a++) {
            const sn_prim *p = &sc->prims[ti[a]];
            box b = tb[a];
            if (!obstacle(o, (sn_role)p->tag.role) || !(b.x1 > ob.x0) ||
                !(b.y0 < ob.y1 && ob.y0 < b.y1))
                continue;
            problem(&r, "%s \"%s\" at (%.1f, %.1f) is covered or crossed by a %s at (%.1f, %.1f)",
                    role_name(p->tag.role), sc->pool + p->first, p->x0, p->base,
                    role_name(o->tag.role), o->x0, o->y0);
        }
    }
    sn_free(tb);
    sn_free(ti);
    return r.problems;
}
