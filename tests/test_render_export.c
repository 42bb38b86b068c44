/* test_render_export.c - the exports' less travelled paths, checked by
 * what they write: the TikZ source of a followed path and of the classes
 * a step gives its comparators, every format on a disk that fills part
 * way through (each ends in SN_EIO naming the cause), the stack's refusals
 * and the format names. test_draw has the pictures themselves. */
#define _GNU_SOURCE /* for: fopencookie, open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "render/export.h"
#include "full_disk.h"
#include "sn_test.h"

static sn_network *small(void)
{
    const char *t = "[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n";
    sn_network *net = NULL;
    CHECK(sn_network_parse(t, strlen(t), SN_FORMAT_BRACKET, &net, NULL) == SN_OK);
    return net;
}

/* The export as text (SVG or TikZ), or NULL; status into *st. */
static char *export_text(sn_export_format fmt, const sn_layout *lo, const sn_draw_state *state,
                         sn_status *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    sn_diag d;
    *st = sn_export_write(f, fmt, lo, sn_theme_get(SN_THEME_LIGHT), state, &d);
    fclose(f);
    return buf;
}

static size_t count_of(const char *s, const char *what)
{
    size_t k = 0;
    for (const char *p = s; (p = strstr(p, what)) != NULL; p++)
        k++;
    return k;
}

/* TikZ: the followed element's route, and the comparators of the step
 * under way in their classes (swap, no swap, highlighted) from the
 * caller's swap flags. */
static void test_tex_state(const sn_layout *lo)
{
    sn_draw_state st;
    sn_draw_state_init(&st);
    /* the element on wire 1 goes to 0 at the first layer and stays */
    const uint32_t path[4] = {1, 0, 0, 0};
    st.path = path;
    st.step = 1;
    const uint8_t swaps[2] = {1, 0};
    st.swaps = swaps;
    st.highlight_cmp = 4;
    sn_status s;
    char *tex = export_text(SN_EXPORT_TEX, lo, &st, &s);
    CHECK(s == SN_OK && tex);
    if (tex) {
        CHECK(count_of(tex, "\\draw[snhlc,opacity=0.6") == 1);
        /* one bend: down the comparator of layer 1 and on to the end */
        const char *p = strstr(tex, "\\draw[snhlc,opacity=0.6");
        const char *end = p ? strchr(p, '\n') : NULL;
        size_t legs = 0;
        for (const char *q = p; q && end && (q = strstr(q, " -- ")) != NULL && q < end; q++)
            legs++;
        CHECKF(legs == 3, "%zu legs in the path", legs);
        CHECK(strstr(tex, "[snswap]") != NULL || strstr(tex, "snswap,") != NULL ||
              count_of(tex, "snswap") >= 2);
        CHECK(count_of(tex, "snnoswap") >= 2);
        CHECK(count_of(tex, "snhl") >= 2);
    }
    free(tex);

    /* a path that leaves the network is not drawn */
    const uint32_t off[4] = {1, 9, 0, 0};
    st.path = off;
    tex = export_text(SN_EXPORT_TEX, lo, &st, &s);
    CHECK(s == SN_OK && tex && count_of(tex, "\\draw[snhlc,opacity=0.6") == 0);
    free(tex);
    /* a route that no comparator makes stops at its last good leg */
    const uint32_t jump[4] = {0, 3, 3, 3};
    st.path = jump;
    tex = export_text(SN_EXPORT_TEX, lo, &st, &s);
    CHECK(s == SN_OK && tex && count_of(tex, "\\draw[snhlc,opacity=0.6") == 1);
    free(tex);
}

/* Format fmt of lo onto a disk of `room` bytes (status into *st). */
static bool export_onto(sn_full_disk *k, size_t room, bool buffered, sn_export_format fmt,
                        const sn_layout *lo, sn_status *st, sn_diag *d)
{
    FILE *f = sn_full_disk_open(k, room, buffered);
    CHECK(f != NULL);
    if (!f)
        return false;
    sn_diag_clear(d);
    *st = sn_export_write(f, fmt, lo, sn_theme_get(SN_THEME_DARK), NULL, d);
    fclose(f);
    return true;
}

/* What differs between two runs of the same export, left out: cairo's
 * SVG surface numbers, a PDF's creation time */
static void unstamp(sn_full_disk *k, sn_export_format fmt)
{
    if (fmt == SN_EXPORT_SVG)
        sn_full_disk_mask_digits(k, "surface", false);
    else if (fmt == SN_EXPORT_PDF)
        sn_full_disk_mask_digits(k, "/CreationDate (D:", true);
}

/* The room after `room` for a file of `size` bytes: doubling, then one
 * byte short of it (the writer's last write failing), then room enough
 * (with slack for what unstamp leaves out) */
static size_t next_room(size_t room, size_t size)
{
    size_t next = room ? room * 2 : 1;
    if (room + 1 >= size)
        return size + 64;
    return next + 1 >= size ? size - 1 : next;
}

/* Every format into a disk that fills after `room` bytes, for rooms from
 * nothing to past the whole file (the same export with no limit; room
 * doubling, then one byte short of it, then room enough): a run that
 * cannot write it all ends in SN_EIO with the cause, having written a
 * beginning of the whole file and nothing else; a run with room enough
 * succeeds and writes exactly the whole file. Buffered (the failure shows
 * at the flush) and unbuffered (at the write). */
static void test_full_disk(const sn_layout *lo)
{
    const sn_export_format fs[] = {SN_EXPORT_SVG, SN_EXPORT_PNG, SN_EXPORT_PDF, SN_EXPORT_TEX};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        const char *name = sn_export_format_name(fs[i]);
        for (int buffered = 0; buffered < 2; buffered++) {
            sn_full_disk whole;
            sn_status st;
            sn_diag d;
            if (!export_onto(&whole, SN_FULL_DISK_NO_LIMIT, buffered, fs[i], lo, &st, &d))
                return;
            CHECKF(st == SN_OK && !whole.lost && whole.used > 0, "%s with no limit: %s", name,
                   d.text);
            size_t size = whole.used; /* the room enough: with slack for cairo's numbers */
            unstamp(&whole, fs[i]);
            size_t fails = 0;
            for (size_t room = 0;; room = next_room(room, size)) {
                sn_full_disk k;
                if (!export_onto(&k, room, buffered, fs[i], lo, &st, &d))
                    break;
                bool done = st == SN_OK;
                unstamp(&k, fs[i]);
                CHECKF(sn_full_disk_holds(&k, whole.data, whole.used, done),
                       "%s%s, room %zu (%s): %zu bytes that are not %s the %zu of the whole file",
                       name, buffered ? " buffered" : "", room, sn_status_str(st), k.used,
                       done ? "all" : "a beginning of", whole.used);
                sn_full_disk_free(&k);
                if (done)
                    break;
                fails++;
                CHECKF(st == SN_EIO && strstr(d.text, "No space left on device"),
                       "%s, %zu bytes of room: %s: %s", name, room, sn_status_str(st), d.text);
                if (room > size) {
                    CHECKF(0, "%s: failed with room %zu for its %zu bytes", name, room, size);
                    break;
                }
            }
            CHECKF(fails > 0, "%s never failed", name);
            sn_full_disk_free(&whole);
        }
    }
}

static void test_stack_refusals(const sn_layout *lo)
{
    const sn_layout *los[2] = {lo, lo};
    const sn_draw_state *sts[2] = {NULL, NULL};
    sn_diag d;
    FILE *f = fopen("/dev/null", "w");
    CHECK(f != NULL);
    if (!f)
        return;
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    CHECK(sn_export_write_stack(f, SN_EXPORT_SVG, los, sts, NULL, 0, th, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no diagram to stack") != NULL);
    CHECK(sn_export_write_stack(f, SN_EXPORT_TEX, los, sts, NULL, 2, th, &d) == SN_EUNSUPPORTED);
    /* no titles at all: a stack of untitled diagrams */
    CHECK(sn_export_write_stack(f, SN_EXPORT_SVG, los, sts, NULL, 2, th, &d) == SN_OK);
    const char *titles[2] = {"first", NULL};
    CHECK(sn_export_write_stack(f, SN_EXPORT_PDF, los, sts, titles, 2, th, &d) == SN_OK);
    fclose(f);
    double w = 0, h = 0, w1 = 0, h1 = 0;
    sn_export_stack_size(los, NULL, 2, &w, &h);
    sn_export_stack_size(los, NULL, 1, &w1, &h1);
    CHECK(w == w1 && h > 1.9 * h1);
}

/* The textbook bitonic form as TikZ: reversed comparators get their
 * arrow heads, the structure blocks' labels their arrows. */
static void test_tex_classic(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("bitonic-classic:8", &s, &d) == SN_OK);
    sn_layout_opts o = {1.0, 0, false, 0, -1, true, false, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(s && sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    if (lo) {
        sn_status st;
        char *tex = export_text(SN_EXPORT_TEX, lo, NULL, &st);
        CHECK(st == SN_OK && tex);
        /* one arrow head (a filled triangle) per reversed comparator */
        CHECK(tex && count_of(tex, "-- cycle;") >= 4);
        free(tex);
    }
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
}

/* A PNG past the pixel limits is refused before anything is drawn. */
static void test_png_limit(const sn_network *net)
{
    sn_layout_opts o = {1.0, 40000, false, 0, -1, false, false, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create_network(net, &o, &lo, NULL) == SN_OK);
    if (!lo)
        return;
    FILE *f = fopen("/dev/null", "w");
    sn_diag d;
    CHECK(f && sn_export_write(f, SN_EXPORT_PNG, lo, sn_theme_get(SN_THEME_LIGHT), NULL, &d) ==
                   SN_ELIMIT);
    CHECK(strstr(d.text, "pixel PNG is too large") != NULL);
    if (f)
        fclose(f);
    sn_layout_destroy(lo);
}

/* Out of memory at every allocation of every export of one diagram and
 * of a stack (with values): SN_ENOMEM or, where only the cairo painter's
 * batch of glyphs failed (it paints each text on its own), SN_OK; never
 * a leak. */
static void test_oom(const sn_network *net)
{
    sn_layout_opts o = {1.0, 0, true, 0, -1, false, false, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create_network(net, &o, &lo, NULL) == SN_OK);
    if (!lo)
        return;
    sn_draw_state st;
    sn_draw_state_init(&st);
    uint32_t values[4] = {4, 3, 2, 1};
    st.values = values;
    st.type = SN_KEY_U32;
    st.step = 1;
    const sn_layout *los[2] = {lo, lo};
    const sn_draw_state *sts[2] = {&st, NULL};
    const char *titles[2] = {"one", "two"};
    const sn_export_format fs[] = {SN_EXPORT_SVG, SN_EXPORT_PNG, SN_EXPORT_PDF, SN_EXPORT_TEX};
    size_t base = sn_alloc_live();
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
        for (int stack = 0; stack < 2; stack++) {
            if (stack && fs[i] == SN_EXPORT_TEX)
                continue;
            size_t failed = 0;
            for (size_t k = 1; k < 10000; k++) {
                FILE *f = fopen("/dev/null", "w");
                CHECK(f != NULL);
                if (!f)
                    break;
                sn_diag d;
                sn_alloc_fail_after(k);
                sn_status r =
                    stack ? sn_export_write_stack(f, fs[i], los, sts, titles, 2,
                                                  sn_theme_get(SN_THEME_LIGHT), &d)
                          : sn_export_write(f, fs[i], lo, sn_theme_get(SN_THEME_LIGHT), &st, &d);
                size_t made = sn_alloc_fail_after(0);
                fclose(f);
                CHECKF(sn_alloc_live() == base, "%s%s, allocation %zu: a leak",
                       sn_export_format_name(fs[i]), stack ? " stack" : "", k);
                if (made < k) {
                    CHECK(r == SN_OK);
                    break;
                }
                CHECKF(r == SN_ENOMEM || r == SN_OK, "%s%s, allocation %zu: %s",
                       sn_export_format_name(fs[i]), stack ? " stack" : "", k, sn_status_str(r));
                failed += r == SN_ENOMEM;
            }
            CHECKF(failed > 0, "%s: no allocation failure was reported",
                   sn_export_format_name(fs[i]));
        }
    }
    sn_layout_destroy(lo);
}

static void test_names(void)
{
    CHECK(strcmp(sn_export_format_name(SN_EXPORT_SVG), "svg") == 0);
    CHECK(strcmp(sn_export_format_name(SN_EXPORT_TEX), "tex") == 0);
    CHECK(strcmp(sn_export_format_name(SN_EXPORT_UNKNOWN), "unknown") == 0);
    CHECK(strcmp(sn_export_format_name((sn_export_format)99), "unknown") == 0);
    CHECK(sn_export_format_from_path("a.svgz") == SN_EXPORT_UNKNOWN);
    CHECK(sn_export_format_from_path("a.b/file") == SN_EXPORT_UNKNOWN);
    CHECK(sn_export_format_from_path("noext") == SN_EXPORT_UNKNOWN);
    /* a theme past the last is the first */
    CHECK(sn_theme_get((sn_theme_id)99) == sn_theme_get((sn_theme_id)0));
}

/* TikZ with the 0-1 chart: the markers at every step but the one whose
 * values are shown, a count of ones past n read as n/2, the highlighted
 * comparator; a profile of another network (wires or layers) is left
 * out, as is one on a layout without room for values. */
static void test_tex_zero_one(void)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load("bitonic:4", &s, NULL) == SN_OK);
    if (!s)
        return;
    sn_zero_one z;
    CHECK(sn_zero_one_profile(s, 24, 1, &z, NULL) == SN_OK);
    sn_layout_opts o = {1.0, 0, true, 0, 1, false, true, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK && lo && lo->zero_one);
    if (!lo) {
        sn_zero_one_free(&z);
        sn_schedule_destroy(s);
        return;
    }
    sn_draw_state st;
    sn_draw_state_init(&st);
    const uint32_t values[4] = {3, 1, 2, 0};
    st.values = values;
    st.type = SN_KEY_U32;
    st.step = 1;
    st.zo = &z;
    st.zo_ones = 99;
    st.highlight_cmp = 0;
    sn_status rs;
    char *tex = export_text(SN_EXPORT_TEX, lo, &st, &rs);
    CHECK(rs == SN_OK && tex);
    if (tex) {
        CHECK(strstr(tex, "marks for the inputs with 2 ones") != NULL);
        CHECK(strstr(tex, "it sorts") != NULL);
        /* a marker per wire at each step but step 1 (its values are shown) */
        CHECKF(count_of(tex, "\\filldraw[draw=sntext") == 4 * lo->layer_count, "%zu markers",
               count_of(tex, "\\filldraw[draw=sntext"));
        /* a value box on each wire at step 1 (the wire labels are 0..3 too) */
        CHECK(count_of(tex, "minimum width") == 4 && count_of(tex, "{3};") == 2);
        CHECK(strstr(tex, "\\draw[snhl]") != NULL);
    }
    free(tex);
    /* a profile that is not this layout's: no chart */
    sn_zero_one other = z;
    other.n = 3;
    st.zo = &other;
    tex = export_text(SN_EXPORT_TEX, lo, &st, &rs);
    CHECK(rs == SN_OK && tex && strstr(tex, "sorted 0-1 inputs") == NULL);
    free(tex);
    other = z;
    other.layers = z.layers - 1;
    tex = export_text(SN_EXPORT_TEX, lo, &st, &rs);
    CHECK(rs == SN_OK && tex && strstr(tex, "sorted 0-1 inputs") == NULL);
    free(tex);
    st.zo = NULL;
    tex = export_text(SN_EXPORT_TEX, lo, &st, &rs);
    CHECK(rs == SN_OK && tex && strstr(tex, "sorted 0-1 inputs") == NULL);
    free(tex);
    sn_layout_destroy(lo);
    /* values on a layout without room for them: no value boxes */
    o.show_values = false;
    o.zero_one = false;
    lo = NULL;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK && lo);
    if (lo) {
        tex = export_text(SN_EXPORT_TEX, lo, &st, &rs);
        CHECK(rs == SN_OK && tex && strstr(tex, "minimum width") == NULL);
        free(tex);
    }
    sn_layout_destroy(lo);
    sn_zero_one_free(&z);
    sn_schedule_destroy(s);
}

/* TikZ of a network of one wire with its value, and of one of no wires:
 * the frame and the picture, nothing to draw on. */
static void test_tex_tiny(void)
{
    for (uint32_t n = 0; n < 2; n++) {
        sn_network *net = sn_network_create(n);
        sn_layout_opts o = {1.0, 0, true, 0, 0, false, false, 0, 0, 0, 0};
        sn_layout *lo = NULL;
        CHECK(net && sn_layout_create_network(net, &o, &lo, NULL) == SN_OK && lo);
        if (lo) {
            sn_draw_state st;
            sn_draw_state_init(&st);
            const uint32_t values[1] = {42};
            st.values = values;
            st.type = SN_KEY_U32;
            sn_status rs;
            char *tex = export_text(SN_EXPORT_TEX, lo, &st, &rs);
            CHECK(rs == SN_OK && tex && strstr(tex, "\\end{document}") != NULL);
            CHECK(tex && count_of(tex, "\\draw[snwire") == n);
            CHECK(tex && count_of(tex, "{42};") == n);
            CHECK(tex && count_of(tex, "\\fill[snband]") == 0);
            free(tex);
        }
        sn_layout_destroy(lo);
        sn_network_destroy(net);
    }
}

/* A finished scene: no TikZ form; a PNG too high, or too many pixels in
 * all, refused before anything is drawn (and by the limit check alike). */
static void test_scene_limits(void)
{
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    FILE *f = fopen("/dev/null", "w");
    CHECK(f != NULL);
    if (!f)
        return;
    sn_diag d;
    sn_scene *tall = sn_scene_create(10, 40000), *big = sn_scene_create(20000, 20000);
    CHECK(tall && big);
    if (tall && big) {
        CHECK(sn_export_write_scene(f, SN_EXPORT_TEX, tall, th, &d) == SN_EUNSUPPORTED);
        CHECK(strstr(d.text, "this picture has no TikZ form") != NULL);
        CHECK(sn_export_write_scene(f, SN_EXPORT_PNG, tall, th, &d) == SN_ELIMIT);
        CHECK(strstr(d.text, "a 10x40000 pixel PNG is too large") != NULL);
        CHECK(sn_export_write_scene(f, SN_EXPORT_PNG, big, th, &d) == SN_ELIMIT);
        CHECK(strstr(d.text, "a 20000x20000 pixel PNG is too large") != NULL);
        /* the same sizes through the one limit check; an SVG of them is fine */
        CHECK(sn_export_check(SN_EXPORT_PNG, NULL, 0, false, 10, 40000, false, &d) == SN_ELIMIT);
        CHECK(sn_export_check(SN_EXPORT_PNG, NULL, 0, false, 20000, 20000, false, &d) == SN_ELIMIT);
        CHECK(strstr(d.text, "a 20000x20000 pixel PNG is too large") != NULL);
        CHECK(sn_export_check(SN_EXPORT_SVG, NULL, 0, false, 20000, 20000, false, &d) == SN_OK);
        CHECK(sn_export_check(SN_EXPORT_PNG, NULL, 0, false, 100, 100, false, &d) == SN_OK);
    }
    sn_scene_destroy(tall);
    sn_scene_destroy(big);
    fclose(f);
}

int main(void)
{
    sn_network *net = small();
    sn_layout *lo = NULL;
    CHECK(net && sn_layout_create_network(net, NULL, &lo, NULL) == SN_OK && lo);
    if (lo) {
        test_tex_state(lo);
        test_full_disk(lo);
        test_stack_refusals(lo);
        test_oom(net);
    }
    test_names();
    test_tex_classic();
    test_tex_zero_one();
    test_tex_tiny();
    test_scene_limits();
    if (net)
        test_png_limit(net);
    sn_layout_destroy(lo);
    sn_network_destroy(net);
    return sn_test_finish("test_render_export");
}
