/* scene.h - a picture as a flat list of primitives (the display list):
 * computed once, in layout units, with no cairo, and painted by any
 * painter (cairo in scene_cairo.h for the window, PNG, SVG and PDF; the
 * page's script later). Tests read the same list to check readability.
 *
 * Usage:
 *
 *     sn_scene *sc = sn_scene_create(width, height);   // picture size
 *     sn_scene_style w = sn_scene_stroke(sn_rgba_of(th->wire, 1), 1.0);
 *     sn_scene_line(sc, x0, y, x1, y, &w, sn_scene_tag_wire(SN_ROLE_WIRE, 3));
 *     sn_scene_clip_push(sc, (sn_rect){x, y, w, h}, SN_ROLE_PANEL);
 *     sn_scene_text(sc, x, y, "12", 12.0, SN_FONT_BOLD,
 *                   SN_TEXT_CENTER | SN_TEXT_MIDDLE, ink, tag);  // box from the metrics
 *     sn_scene_clip_pop(sc);
 *     sn_scene_note(sc, SN_NOTE_LABELS_THINNED, "wire labels: every 2nd wire");
 *     if (sn_scene_status(sc) != SN_OK) ...                    // sticky, like cairo
 *     for (size_t i = 0; i < sn_scene_count(sc); i++) {
 *         const sn_prim *p = sn_scene_at(sc, i);
 *         const sn_scene_style *s = sn_scene_style_of(sc, p);
 *         const char *t = sn_scene_str(sc, p);                  // text primitives
 *     }
 *     sn_scene_paint(sc, cr, NULL);                             // scene_cairo.h
 *     sn_scene_destroy(sc);
 *
 * Coordinates: layout units, x right, y down, origin top-left (see
 * layout.h). Colours: every primitive carries RGBA (0..1) in its style;
 * painters resolve nothing (a theme is applied by whoever builds the
 * scene). Styles are interned: consecutive primitives that share a style
 * share its index, so a painter batches them into one path.
 *
 * Text: one font, DejaVu Sans (regular or bold). Its box is measured here
 * from the advance-width table in font_metrics.h (made from the TTFs by
 * tools/gen_font_metrics.py): width = sum of advances (no kerning: cairo's
 * toy text API does not kern either), height = ascent + descent. The
 * painter draws the text at the box's left end on its baseline, with
 * cairo's metric hinting off, so the box checked is the box painted.
 *
 * Readability: below SN_SCENE_MIN_FONT (layout units at scale 1, i.e.
 * pixels in a PNG) text is thinned or left out by whoever builds the
 * scene, never shrunk; what was left out is said by a note primitive
 * (SN_PRIM_NOTE: never painted). sn_scene_check_readable() checks a scene.
 *
 * Invariants: clip pushes and pops nest; a text primitive's box is
 * (x0, y0)-(x1, y1) with y0 = baseline - ascent, y1 = baseline + descent. */
#ifndef SN_SCENE_H
#define SN_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "render/palette.h"

/* Smallest text a diagram shows, in layout units at scale 1 (pixels in a
 * PNG at the default size): smaller labels are thinned (every k-th) or
 * left out, and the scene says so in a note. */
#define SN_SCENE_MIN_FONT 10.0

typedef struct sn_rect {
    double x, y, w, h; /* layout units */
} sn_rect;

typedef struct sn_rgba {
    double r, g, b, a; /* 0..1; a = 0: nothing */
} sn_rgba;

/* c with alpha a. */
static inline sn_rgba sn_rgba_of(sn_rgb c, double a)
{
    sn_rgba x = {c.r, c.g, c.b, a};
    return x;
}

typedef enum sn_prim_kind {
    SN_PRIM_LINE,      /* x0,y0 -> x1,y1, stroked */
    SN_PRIM_RECT,      /* x0,y0 (top-left) to x1,y1, radius r (rounded) */
    SN_PRIM_POLY,      /* points [first, first + count) of sn_scene_points;
                          closed (r != 0) polygons fill, open ones stroke */
    SN_PRIM_CIRCLE,    /* centre x0,y0, radius r (a dot when only filled) */
    SN_PRIM_TEXT,      /* box x0,y0-x1,y1; baseline at y = base, size, weight */
    SN_PRIM_CLIP_PUSH, /* clip to x0,y0-x1,y1 (intersected with the current) */
    SN_PRIM_CLIP_POP,
    SN_PRIM_NOTE /* not painted: text says what was left out and why */
} sn_prim_kind;

/* What a primitive stands for (hit tests, readability tests, styling by a
 * future painter). */
typedef enum sn_role {
    SN_ROLE_NONE = 0,
    SN_ROLE_BACKGROUND,
    SN_ROLE_BAND,        /* a layer's background band (layer) */
    SN_ROLE_STAGE,       /* a stage outline */
    SN_ROLE_BLOCK,       /* a structure block outline */
    SN_ROLE_BLOCK_LABEL, /* its label (text and pill) */
    SN_ROLE_STEP,        /* the shown step's marker line (layer = step) */
    SN_ROLE_PATH,        /* a followed element's route */
    SN_ROLE_WIRE,        /* (wire) */
    SN_ROLE_WIRE_LABEL,  /* (wire) */
    SN_ROLE_COMPARATOR,  /* segment, dot or arrow head (wire = a, layer, cmp) */
    SN_ROLE_VALUE_BOX,   /* (wire, layer = step) */
    SN_ROLE_VALUE,       /* the value's text (wire, layer = step) */
    SN_ROLE_MARK,        /* 0-1 wire state marker (wire, layer = step) */
    SN_ROLE_CHART,       /* 0-1 chart frame */
    SN_ROLE_BAR,         /* a bar (layer = step; wire in the window's bars) */
    SN_ROLE_SELECTED,    /* ring at a selected output (wire) */
    SN_ROLE_LABEL,       /* any other label */
    SN_ROLE_CAPTION,     /* caption or legend text */
    SN_ROLE_TITLE,       /* a title line */
    SN_ROLE_STATUS,      /* the window's status line */
    SN_ROLE_PANEL,       /* a pane or panel (and its clip) */
    SN_ROLE_COUNT
} sn_role;

/* Role plus the network element it stands for; -1 where it has none. */
typedef struct sn_scene_tag {
    sn_role role;
    int32_t wire;
    int32_t layer;
    int64_t cmp; /* comparator index in layout order */
} sn_scene_tag;

static inline sn_scene_tag sn_scene_tag_of(sn_role role)
{
    sn_scene_tag t = {role, -1, -1, -1};
    return t;
}
static inline sn_scene_tag sn_scene_tag_wire(sn_role role, uint32_t wire)
{
    sn_scene_tag t = {role, (int32_t)wire, -1, -1};
    return t;
}

typedef enum sn_cap { SN_CAP_BUTT = 0, SN_CAP_ROUND, SN_CAP_SQUARE } sn_cap;
typedef enum sn_join { SN_JOIN_MITER = 0, SN_JOIN_ROUND } sn_join;

/* Style flags. */
enum {
    /* stroke at least one device pixel wide (zoomed far out, thinner
     * comparators would antialias to nothing) */
    SN_STYLE_HAIRLINE_MIN = 1u << 0
};

typedef struct sn_scene_style {
    sn_rgba fill;             /* a == 0: not filled */
    sn_rgba stroke;           /* a == 0: not stroked */
    double width;             /* stroke width */
    double dash_on, dash_off; /* 0, 0: solid (painters may drop dashes
                                 under two device pixels) */
    uint8_t cap, join;        /* sn_cap, sn_join */
    uint32_t flags;           /* SN_STYLE_* */
} sn_scene_style;

/* A stroke-only or fill-only style (butt caps, miter joins, solid). */
sn_scene_style sn_scene_stroke(sn_rgba c, double width);
sn_scene_style sn_scene_fill(sn_rgba c);

typedef enum sn_font_weight { SN_FONT_REGULAR = 0, SN_FONT_BOLD = 1 } sn_font_weight;

/* Text anchor: one horizontal and one vertical flag. MIDDLE centres the
 * digits' height (0-9) on y, so labels on a row share a baseline. */
enum {
    SN_TEXT_LEFT = 0,
    SN_TEXT_CENTER = 1,
    SN_TEXT_RIGHT = 2,
    SN_TEXT_BASELINE = 0,
    SN_TEXT_MIDDLE = 4,
    SN_TEXT_TOP = 8 /* the box's top at y */
};

/* Notes: what a scene left out, for tests and for a painter that wants
 * to tell the user. */
typedef enum sn_note_kind {
    SN_NOTE_INFO = 0,
    SN_NOTE_LABELS_THINNED, /* only every k-th label shown (count = k) */
    SN_NOTE_LABELS_OMITTED, /* labels left out (count = how many) */
    SN_NOTE_TEXT_HIDDEN     /* a kind of text left out entirely (too small) */
} sn_note_kind;

typedef struct sn_prim {
    uint8_t kind;   /* sn_prim_kind */
    uint8_t weight; /* text: sn_font_weight */
    uint16_t note;  /* note: sn_note_kind */
    uint32_t style; /* index for sn_scene_style_of */
    sn_scene_tag tag;
    double x0, y0, x1, y1; /* see sn_prim_kind */
    double r;              /* rect corner radius, circle radius, poly closed */
    double size;           /* text: font size; note: count */
    double base;           /* text: baseline y */
    size_t first, count;   /* poly: points; text/note: string offset, length */
} sn_prim;

typedef struct sn_point {
    double x, y;
} sn_point;

typedef struct sn_scene sn_scene; /* opaque */

/* An empty scene of a w x h picture (layout units). NULL when out of
 * memory. */
sn_scene *sn_scene_create(double w, double h);
void sn_scene_destroy(sn_scene *sc); /* NULL is a no-op */
/* Empty it for reuse (keeps its memory, sets the new size). */
void sn_scene_reset(sn_scene *sc, double w, double h);
void sn_scene_size(const sn_scene *sc, double *w, double *h);
/* SN_ENOMEM once any add failed (that add and later ones are dropped). */
sn_status sn_scene_status(const sn_scene *sc);

/* Builders. Each returns the new primitive's index, or SIZE_MAX when out
 * of memory. style and strings are copied. */
size_t sn_scene_line(sn_scene *sc, double x0, double y0, double x1, double y1,
                     const sn_scene_style *st, sn_scene_tag tag);
/* Rectangle with top-left (x, y), size w x h; corner radius r (0: square;
 * painters may square corners under about a device pixel). */
size_t sn_scene_rect(sn_scene *sc, double x, double y, double w, double h, double r,
                     const sn_scene_style *st, sn_scene_tag tag);
size_t sn_scene_poly(sn_scene *sc, const sn_point *pts, size_t count, bool closed,
                     const sn_scene_style *st, sn_scene_tag tag);
size_t sn_scene_circle(sn_scene *sc, double x, double y, double r, const sn_scene_style *st,
                       sn_scene_tag tag);
/* Text (UTF-8) at anchor (x, y) per `align` (SN_TEXT_* flags), in colour
 * ink. Its box comes from sn_scene_text_width and the font's ascent and
 * descent. */
size_t sn_scene_text(sn_scene *sc, double x, double y, const char *text, double size,
                     sn_font_weight weight, unsigned align, sn_rgba ink, sn_scene_tag tag);
size_t sn_scene_clip_push(sn_scene *sc, sn_rect r, sn_role role);
size_t sn_scene_clip_pop(sn_scene *sc);
/* A note (never painted); count: see sn_note_kind. */
size_t sn_scene_note(sn_scene *sc, sn_note_kind kind, double count, const char *text);

/* Reading. */
size_t sn_scene_count(const sn_scene *sc);
const sn_prim *sn_scene_at(const sn_scene *sc, size_t i); /* i < count */
const sn_scene_style *sn_scene_style_of(const sn_scene *sc, const sn_prim *p);
const char *sn_scene_str(const sn_scene *sc, const sn_prim *p); /* text, note; "" otherwise */
const sn_point *sn_scene_points(const sn_scene *sc, const sn_prim *p); /* poly */
/* The first note of that kind, or NULL. */
const sn_prim *sn_scene_find_note(const sn_scene *sc, sn_note_kind kind);

/* The topmost (last drawn) primitive with that role (SN_ROLE_NONE: any
 * role but background, panel and notes) within tol of (x, y), inside the
 * clips it was drawn under; -1 when none. */
long sn_scene_hit(const sn_scene *sc, double x, double y, double tol, sn_role role);

/* Font metrics (DejaVu Sans). */
/* Advance width of UTF-8 text at font size `size`. Characters outside the
 * table count as wide as 'M' (a box that surely holds them). */
double sn_scene_text_width(const char *text, double size, sn_font_weight weight);
double sn_scene_font_ascent(double size);  /* above the baseline */
double sn_scene_font_descent(double size); /* below it, positive */
/* Height of the digits (where SN_TEXT_MIDDLE centres). */
double sn_scene_digit_height(double size);

/* Least gap between two labels of one role on one baseline, in ems: closer
 * ones read as one ("sort 16 sort 16"). */
#define SN_SCENE_WORD_GAP 0.5

/* text shortened to fit max_w at that size: whole if it fits, else cut at
 * a character boundary with "…" appended; "" when not even "…" fits.
 * Written to out (out_size bytes, NUL-terminated, cut further if out is
 * short); returns its length. For the window's status line and captions:
 * painters never measure. */
size_t sn_scene_text_fit(const char *text, double size, sn_font_weight weight, double max_w,
                         char *out, size_t out_size);
/* Break text into lines of at most max_w at that size, at spaces (a word
 * longer than a line is cut at a character). starts[i] and lens[i] give
 * line i (byte offset and length into text, spaces between lines left
 * out); at most max_lines are written. Returns the number of lines the
 * whole text needs (may be more than max_lines). */
size_t sn_scene_text_wrap(const char *text, double size, sn_font_weight weight, double max_w,
                          size_t *starts, size_t *lens, size_t max_lines);

/* Readability: is every text box at least min_font, clear of every other
 * text box (boxes may touch; each box is shrunk by tol on every side
 * before comparing) and of value boxes and label pills that would hide it
 * (block and wire labels: also of comparators crossing them), apart from
 * labels of its role on its baseline by SN_SCENE_WORD_GAP, and inside its
 * clip and the picture (and no line, box or dot cut by the picture's edge)? Returns the
 * number of problems; when report is not NULL, up to report_size bytes of
 * the first few, one per line. Text of role SN_ROLE_NONE is checked too. */
size_t sn_scene_check_readable(const sn_scene *sc, double min_font, double tol, char *report,
                               size_t report_size);

#endif
