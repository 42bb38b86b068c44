/* test_draw.c - cairo drawing and the exports: pixels where the layout
 * says (PNG read back), partial redraws equal full ones inside the visible
 * rectangle, every format valid (xmllint/python, rsvg-convert, pdftoppm,
 * pdflatex when installed), write errors reported. */
#include <cairo.h>
#include <errno.h> // for: errno (mkdtemp's cause)
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "core/network.h"
#include "core/schedule.h"
#include "render/draw.h"
#include "render/export.h"
#include "render/layout.h"
#include "render/palette.h"
#include "sn_test.h"

static char tmpdir[] = "/tmp/sn_test_draw_XXXXXX";

static sn_network *tiny(void)
{
    /* 4 wires: overlapping layer, plain layer, a reversed comparator */
    sn_network *net = sn_network_create(4);
    sn_comparator l0[] = {{0, 2}, {1, 3}}, l1[] = {{0, 1}, {2, 3}}, l2[] = {{3, 0}};
    sn_network_layer_add(net, l0, 2, NULL);
    sn_network_layer_add(net, l1, 2, NULL);
    sn_network_layer_add(net, l2, 1, NULL);
    return net;
}

typedef struct px {
    cairo_surface_t *s;
    unsigned char *data;
    int w, h, stride;
} px;

static sn_rgb pixel(const px *p, double x, double y)
{
    int ix = (int)floor(x), iy = (int)floor(y);
    sn_rgb c = {-1, -1, -1};
    if (ix < 0 || iy < 0 || ix >= p->w || iy >= p->h)
        return c;
    uint32_t v;
    memcpy(&v, p->data + (size_t)iy * (size_t)p->stride + (size_t)ix * 4, 4);
    c.r = ((v >> 16) & 0xff) / 255.0;
    c.g = ((v >> 8) & 0xff) / 255.0;
    c.b = (v & 0xff) / 255.0;
    return c;
}

static bool same(sn_rgb a, sn_rgb b, double tol)
{
    return fabs(a.r - b.r) <= tol && fabs(a.g - b.g) <= tol && fabs(a.b - b.b) <= tol;
}

static bool dark(sn_rgb c)
{
    return sn_palette_luminance(c) < 0.25;
}

static sn_status export_file(const char *path, sn_export_format f, const sn_layout *lo,
                             const sn_theme *th, const sn_draw_state *st)
{
    FILE *out = fopen(path, "wb");
    if (!out)
        return SN_EIO;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status r = sn_export_write(out, f, lo, th, st, &d);
    if (fclose(out) != 0 && r == SN_OK)
        r = SN_EIO;
    if (r != SN_OK)
        fprintf(stderr, "export %s: %s\n", path, d.text);
    return r;
}

static bool read_png(const char *path, px *p)
{
    p->s = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(p->s) != CAIRO_STATUS_SUCCESS)
        return false;
    cairo_surface_flush(p->s);
    p->data = cairo_image_surface_get_data(p->s);
    p->w = cairo_image_surface_get_width(p->s);
    p->h = cairo_image_surface_get_height(p->s);
    p->stride = cairo_image_surface_get_stride(p->s);
    return true;
}

static void test_png_pixels(void)
{
    sn_network *net = tiny();
    sn_layout_opts o = {2.0, 0, false, 0, -1, false, false, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create_network(net, &o, &lo, NULL) == SN_OK);
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    char path[256];
    snprintf(path, sizeof path, "%s/tiny.png", tmpdir);
    CHECK(export_file(path, SN_EXPORT_PNG, lo, th, NULL) == SN_OK);
    px p;
    CHECK(read_png(path, &p));
    CHECK(p.w == (int)ceil(lo->width) && p.h == (int)ceil(lo->height));
    /* wires: dark on their y, between comparators */
    for (uint32_t i = 0; i < lo->n; i++) {
        double x = (lo->wire_x0 + lo->layer[0].x0) / 2;
        CHECKF(dark(pixel(&p, x, lo->wire_y[i])), "wire %u at %g", i, x);
        CHECKF(same(pixel(&p, x, lo->wire_y[i] + lo->pitch / 2), th->background, 0.01),
               "between wires %u", i);
    }
    for (size_t i = 0; i < lo->cmp_count; i++) {
        const sn_layout_cmp *c = &lo->cmp[i];
        sn_rgb at_a = pixel(&p, c->x, lo->wire_y[c->a]);
        CHECKF(same(at_a, th->comparator, 0.02), "dot of cmp %zu", i);
        CHECKF(dark(pixel(&p, c->x, (c->y0 + c->y1) / 2)), "segment of cmp %zu", i);
        /* beside the dot, off the segment: background or band, not ink */
        double side = c->x + 2.2 * lo->dot_r;
        if (c->sub + 1 == lo->layer[c->layer].subcols) {
            sn_rgb bg = c->layer % 2 ? th->band : th->background;
            CHECKF(same(pixel(&p, side, c->y0 + lo->pitch / 2), bg, 0.01), "beside cmp %zu", i);
        }
        if (c->a > c->b) {
            /* arrow head: ink just before the tip, no dot-sized blob beside it */
            double dir = lo->wire_y[c->b] < lo->wire_y[c->a] ? -1 : 1;
            CHECKF(dark(pixel(&p, c->x, lo->wire_y[c->b] - dir * 1.5 * lo->dot_r)), "arrow");
        }
    }
    /* alternate layers shaded */
    double ymid = (lo->wire_y[0] + lo->wire_y[1]) / 2;
    CHECK(same(pixel(&p, lo->layer[1].x0 + 2, ymid), th->band, 0.01));
    CHECK(same(pixel(&p, lo->layer[0].x0 + 2, ymid), th->background, 0.01));
    /* wire labels: some ink left of the wires on each wire's row */
    for (uint32_t i = 0; i < lo->n; i++) {
        bool ink = false;
        for (double x = 0; x < lo->label_x + 1; x += 1)
            for (double dy = -4; dy <= 4; dy += 1)
                ink = ink || dark(pixel(&p, x, lo->wire_y[i] + dy));
        CHECKF(ink, "label of wire %u", i);
    }
    cairo_surface_destroy(p.s);
    sn_layout_destroy(lo);

    /* dark theme: background and comparator colours follow */
    const sn_theme *dk = sn_theme_get(SN_THEME_DARK);
    CHECK(sn_layout_create_network(net, &o, &lo, NULL) == SN_OK);
    CHECK(export_file(path, SN_EXPORT_PNG, lo, dk, NULL) == SN_OK);
    CHECK(read_png(path, &p));
    CHECK(same(pixel(&p, 1, 1), dk->background, 0.01));
    CHECK(same(pixel(&p, lo->cmp[0].x, lo->cmp[0].y0), dk->comparator, 0.02));
    cairo_surface_destroy(p.s);
    sn_layout_destroy(lo);
    sn_network_destroy(net);
}

static void test_values(void)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, &s, NULL) == SN_OK);
    if (!s)
        return;
    uint32_t keys[8] = {5, 2, 7, 0, 3, 6, 1, 4};
    sn_layout_opts o = {2.0, 0, true, 1, 1, false, false, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    size_t step = 1;
    sn_exec_layer(s, 0, SN_KEY_I32, keys, NULL, NULL);
    sn_draw_state st;
    sn_draw_state_init(&st);
    st.step = step;
    st.values = keys;
    uint32_t path[64];
    uint32_t payload[8], tmp[8] = {5, 2, 7, 0, 3, 6, 1, 4};
    for (uint32_t i = 0; i < 8; i++)
        payload[i] = i;
    path[0] = 3;
    for (size_t k = 0; k < lo->layer_count; k++) {
        sn_exec_layer(s, k, SN_KEY_I32, tmp, payload, NULL);
        for (uint32_t i = 0; i < 8; i++)
            if (payload[i] == 3)
                path[k + 1] = i;
    }
    st.path = path;
    char pth[256];
    snprintf(pth, sizeof pth, "%s/values.png", tmpdir);
    CHECK(export_file(pth, SN_EXPORT_PNG, lo, th, &st) == SN_OK);
    px p;
    CHECK(read_png(pth, &p));
    /* value boxes filled with the rank colour (keys are 0..7: rank = key) */
    for (uint32_t i = 0; i < 8; i++) {
        double x = lo->step_x[step] - lo->value_w / 2 + 2.5 * lo->scale;
        sn_rgb want = sn_palette_rank(keys[i] / 7.0);
        CHECKF(same(pixel(&p, x, lo->wire_y[i]), want, 0.02), "value box of wire %u", i);
    }
    /* comparators of the next layer: swapped vs not, by the values */
    const sn_layout_layer *ly = &lo->layer[step];
    int nswap = 0, nkeep = 0;
    for (size_t i = ly->first; i < ly->first + ly->count; i++) {
        const sn_layout_cmp *c = &lo->cmp[i];
        bool swap = keys[c->a] > keys[c->b];
        sn_rgb at = pixel(&p, c->x, lo->wire_y[c->a]);
        CHECKF(same(at, swap ? th->swap : th->noswap, 0.03), "cmp %zu swap %d", i, swap);
        nswap += swap;
        nkeep += !swap;
    }
    CHECK(nswap > 0 && nkeep > 0); /* the input was chosen so both occur */
    cairo_surface_destroy(p.s);

    /* a partial redraw equals the full picture inside the visible rect */
    int w = (int)ceil(lo->width), h = (int)ceil(lo->height);
    cairo_surface_t *full = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_surface_t *part = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(full);
    CHECK(sn_draw(cr, lo, th, &st, NULL) == SN_OK);
    cairo_destroy(cr);
    cr = cairo_create(part);
    cairo_set_source_rgb(cr, 1, 0, 1);
    cairo_paint(cr);
    sn_rect vis = {floor(lo->width / 3), 40, floor(lo->width / 3), floor(lo->height / 2)};
    CHECK(sn_draw(cr, lo, th, &st, &vis) == SN_OK);
    cairo_destroy(cr);
    cairo_surface_flush(full);
    cairo_surface_flush(part);
    px a = {full, cairo_image_surface_get_data(full), w, h, cairo_image_surface_get_stride(full)};
    px b = {part, cairo_image_surface_get_data(part), w, h, cairo_image_surface_get_stride(part)};
    int bad_in = 0, bad_out = 0;
    sn_rgb magenta = {1, 0, 1};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            bool in = x >= vis.x && x < vis.x + vis.w && y >= vis.y && y < vis.y + vis.h;
            sn_rgb ca = pixel(&a, x, y), cb = pixel(&b, x, y);
            if (in && !same(ca, cb, 0.0))
                bad_in++;
            if (!in && !same(cb, magenta, 0.0))
                bad_out++;
        }
    CHECKF(bad_in == 0, "%d pixels differ inside the visible rect", bad_in);
    CHECKF(bad_out == 0, "%d pixels drawn outside the visible rect", bad_out);
    cairo_surface_destroy(full);
    cairo_surface_destroy(part);
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
}

static bool have(const char *tool)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", tool);
    return system(cmd) == 0;
}

static int run(const char *fmt, const char *a, const char *b)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    int r = system(cmd);
    return r == -1 ? -1 : WEXITSTATUS(r);
}

static long count_in_file(const char *path, const char *needle)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[65536];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (len + got + 1 > cap) {
            cap = 2 * (len + got + 1);
            buf = realloc(buf, cap);
        }
        memcpy(buf + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (!buf)
        return 0;
    buf[len] = '\0';
    long n = 0;
    for (char *p = buf; (p = strstr(p, needle)) != NULL; p++)
        n++;
    free(buf);
    return n;
}

static void test_exports(void)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 64, &s, NULL) == SN_OK);
    if (!s)
        return;
    uint32_t keys[64];
    for (uint32_t i = 0; i < 64; i++)
        keys[i] = (i * 37u) % 64u;
    sn_draw_state st;
    sn_draw_state_init(&st);
    st.step = 3;
    st.values = keys;
    sn_layout_opts o = {1.0, 0, true, 2, 3, false, false, 0, 0, 0, 0};
    sn_layout *lo = NULL;
    CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    char svg[256], pdf[256], tex[256], png[256];
    snprintf(svg, sizeof svg, "%s/b64.svg", tmpdir);
    snprintf(pdf, sizeof pdf, "%s/b64.pdf", tmpdir);
    snprintf(tex, sizeof tex, "%s/b64.tex", tmpdir);
    snprintf(png, sizeof png, "%s/b64.png", tmpdir);
    CHECK(export_file(svg, SN_EXPORT_SVG, lo, th, &st) == SN_OK);
    CHECK(export_file(pdf, SN_EXPORT_PDF, lo, th, &st) == SN_OK);
    CHECK(export_file(tex, SN_EXPORT_TEX, lo, th, &st) == SN_OK);
    CHECK(export_file(png, SN_EXPORT_PNG, lo, th, &st) == SN_OK);

    if (have("xmllint"))
        CHECK(run("xmllint --noout '%s'%s", svg, "") == 0);
    else if (have("python3"))
        CHECK(run("python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' "
                  "'%s'%s",
                  svg, "") == 0);
    else
        printf("note: neither xmllint nor python3: SVG not parsed\n");
    if (have("rsvg-convert"))
        CHECK(run("rsvg-convert -o '%s.r.png' '%s'", svg, svg) == 0);
    else
        printf("note: rsvg-convert missing: SVG not rendered\n");
    if (have("pdftoppm"))
        CHECK(run("pdftoppm -r 20 -png '%s' '%s.p' >/dev/null", pdf, pdf) == 0);
    else
        printf("note: pdftoppm missing: PDF not opened\n");
    if (have("pdflatex")) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && pdflatex -interaction=nonstopmode -halt-on-error b64.tex "
                 ">/dev/null 2>&1 && test -s b64.pdf",
                 tmpdir);
        CHECK(system(cmd) == 0);
    } else {
        printf("note: pdflatex not installed: the .tex export is not compiled (skipped)\n");
    }
    CHECK(count_in_file(tex, "\\begin{tikzpicture}") == 1);
    /* one stroke per class, not one styled element per comparator: the
     * 672 comparators of bitonic:64 must not show up as hundreds of paths */
    long paths = count_in_file(svg, "<path");
    CHECKF(paths > 0 && paths < 200, "%ld <path elements", paths);
    CHECK(count_in_file(svg, "<svg") == 1);
    px p;
    CHECK(read_png(png, &p));
    CHECK(p.w == (int)ceil(lo->width));
    cairo_surface_destroy(p.s);

    /* write errors surface as SN_EIO */
    FILE *full = fopen("/dev/full", "wb");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        const sn_export_format fs[] = {SN_EXPORT_SVG, SN_EXPORT_PNG, SN_EXPORT_PDF, SN_EXPORT_TEX};
        for (int i = 0; i < 4; i++) {
            sn_diag d;
            sn_diag_clear(&d);
            sn_status r = sn_export_write(full, fs[i], lo, th, &st, &d);
            CHECKF(r == SN_EIO, "format %d gave %d", i, (int)r);
            clearerr(full);
        }
        fclose(full);
    } else {
        printf("note: no /dev/full: write errors not tested\n");
    }
    CHECK(sn_export_write(stdout, SN_EXPORT_UNKNOWN, lo, th, &st, NULL) == SN_EINVAL);
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);

    CHECK(sn_export_format_from_path("a.svg") == SN_EXPORT_SVG);
    CHECK(sn_export_format_from_path("dir.x/A.PNG") == SN_EXPORT_PNG);
    CHECK(sn_export_format_from_path("-") == SN_EXPORT_SVG);
    CHECK(sn_export_format_from_path("a.pdf") == SN_EXPORT_PDF);
    CHECK(sn_export_format_from_path("a.tex") == SN_EXPORT_TEX);
    CHECK(sn_export_format_from_path("a.bmp") == SN_EXPORT_UNKNOWN);
    CHECK(sn_export_format_from_path("svg") == SN_EXPORT_UNKNOWN);
    CHECK(sn_export_format_from_path("a.svg/x") == SN_EXPORT_UNKNOWN);
}

static void test_palette(void)
{
    /* grey print: lightness strictly rises with rank */
    double prev = -1;
    for (int i = 0; i <= 32; i++) {
        double l = sn_palette_luminance(sn_palette_rank(i / 32.0));
        CHECKF(l > prev, "rank %d", i);
        prev = l;
    }
    /* text on every rank colour has a WCAG contrast of at least 4.5 */
    for (int i = 0; i <= 32; i++) {
        sn_rgb c = sn_palette_rank(i / 32.0), t = sn_palette_text_on(c);
        double lc = sn_palette_luminance(c), lt = sn_palette_luminance(t);
        double ratio = (fmax(lc, lt) + 0.05) / (fmin(lc, lt) + 0.05);
        CHECKF(ratio >= 4.5, "rank %d contrast %.2f", i, ratio);
    }
    sn_theme_id id;
    CHECK(sn_theme_parse("dark", &id) && id == SN_THEME_DARK);
    CHECK(!sn_theme_parse("purple", &id));
    for (int t = 0; t < 2; t++) {
        const sn_theme *th = sn_theme_get((sn_theme_id)t);
        double bg = sn_palette_luminance(th->background);
        double ink = sn_palette_luminance(th->comparator);
        CHECK((fmax(bg, ink) + 0.05) / (fmin(bg, ink) + 0.05) >= 7);
        /* swapped vs unswapped differ in grey too (plus the dash) */
        CHECK(fabs(sn_palette_luminance(th->swap) - sn_palette_luminance(th->noswap)) > 0.03);
    }
}

/* Structure outlines, the 0-1 chart's bars and the wire markers, read back
 * from PNGs where the layout puts them. */
static void test_structure_and_zero_one(void)
{
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    char path[256];
    for (int broken = 0; broken < 2; broken++) {
        sn_schedule *s = NULL;
        if (!broken) {
            CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, &s, NULL) == SN_OK);
        } else { /* bitonic:8 without its last layer */
            sn_schedule *full = NULL;
            sn_network *cut = sn_network_create(8);
            sn_comparator buf[8];
            CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, &full, NULL) == SN_OK);
            for (size_t k = 0; k + 1 < sn_schedule_layer_count(full); k++)
                CHECK(sn_network_layer_add(cut, buf, sn_schedule_layer_pairs(full, k, buf, 8),
                                           NULL) == SN_OK);
            sn_schedule_destroy(full);
            CHECK(sn_schedule_from_network(cut, &s) == SN_OK);
        }
        sn_zero_one z;
        CHECK(sn_zero_one_profile(s, 24, 1, &z, NULL) == SN_OK);
        sn_layout_opts o = {2.0, 0, false, 0, -1, !broken, true, 0, 0, 0, 0};
        sn_layout *lo = NULL;
        CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
        sn_draw_state st;
        sn_draw_state_init(&st);
        st.zo = &z;
        st.zo_ones = 4;
        snprintf(path, sizeof path, "%s/zo%d.png", tmpdir, broken);
        CHECK(export_file(path, SN_EXPORT_PNG, lo, th, &st) == SN_OK);
        px p;
        CHECK(read_png(path, &p));
        const sn_layout_chart *c = &lo->chart;
        size_t L = lo->layer_count;
        /* the last bar reaches the top (all 2^8 sorted) only when it sorts */
        sn_rgb top = pixel(&p, lo->step_x[L], c->y0 + 3);
        CHECKF(broken ? !same(top, th->comparator, 0.05) : same(top, th->comparator, 0.05),
               "last bar, broken = %d", broken);
        /* the first bar: 9 of 256 sorted, a thin bar at the baseline */
        CHECK(same(pixel(&p, lo->step_x[0], (c->y0 + c->y1) / 2), th->background, 0.02));
        CHECK(!same(pixel(&p, lo->step_x[0], c->y1 - 1), th->background, 0.05));
        /* markers after the last layer for the inputs with 4 ones: wires
         * 0-3 only 0 (hollow), 4-7 only 1 (solid) when it sorts */
        for (uint32_t i = 0; !broken && i < 8; i++) {
            sn_rgb mid = pixel(&p, lo->step_x[L], lo->wire_y[i]);
            CHECKF(i < 4 ? same(mid, th->background, 0.05) : same(mid, th->text, 0.05),
                   "marker of wire %u", i);
        }
        /* at the input every wire can hold either: half filled */
        double q = lo->mark / 4;
        CHECK(same(pixel(&p, lo->step_x[0] - q, lo->wire_y[2] + q), th->text, 0.05));
        CHECK(same(pixel(&p, lo->step_x[0] + q, lo->wire_y[2] - q), th->background, 0.05));
        if (!broken) {
            /* a depth-0 outline in the step colour, on the left edge */
            const sn_layout_block *b = &lo->block[0];
            CHECK(b->depth == 0);
            sn_rgb edge = pixel(&p, b->x0, (b->y0 + b->y1) / 2 + lo->pitch / 4);
            CHECKF(same(edge, th->step, 0.25), "outline %g %g %g", edge.r, edge.g, edge.b);
            CHECK(b->labelled);
        }
        cairo_surface_destroy(p.s);
        /* every format takes it */
        static const sn_export_format fmts[] = {SN_EXPORT_SVG, SN_EXPORT_PDF, SN_EXPORT_TEX};
        for (int f = 0; f < 3; f++) {
            snprintf(path, sizeof path, "%s/zo%d.%s", tmpdir, broken,
                     sn_export_format_name(fmts[f]));
            CHECK(export_file(path, fmts[f], lo, th, &st) == SN_OK);
        }
        sn_layout_destroy(lo);
        sn_zero_one_free(&z);
        sn_schedule_destroy(s);
    }
}

/* One size limit for every format (sn_export_check), before writing. */
static void test_limits(void)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BUBBLE, 900, &s, NULL) == SN_OK);
    size_t size = sn_schedule_size(s);
    /* three primitives a comparator: about 1.2 million */
    double est = sn_export_estimate(900, size, sn_schedule_layer_count(s), false, 0);
    CHECK(est > SN_EXPORT_MAX_PRIMS && est < 3.1 * (double)size + 5000);
    sn_layout *lo = NULL;
    CHECK(sn_layout_create(s, NULL, &lo, NULL) == SN_OK);
    const sn_layout *los[1] = {lo};
    static const sn_export_format fmts[] = {SN_EXPORT_SVG, SN_EXPORT_PDF, SN_EXPORT_TEX};
    for (int f = 0; f < 3; f++) {
        sn_diag d;
        sn_diag_clear(&d);
        CHECK(sn_export_check(fmts[f], los, 1, false, lo->width, lo->height, false, &d) ==
              SN_ELIMIT);
        CHECKF(strstr(d.text, "limit") && strstr(d.text, "--force"), "%s", d.text);
        CHECK(sn_export_check(fmts[f], los, 1, false, lo->width, lo->height, true, NULL) == SN_OK);
    }
    /* a PNG past the pixel limits: refused even with force */
    CHECK(sn_export_check(SN_EXPORT_PNG, los, 1, false, lo->width, lo->height, true, NULL) ==
          SN_ELIMIT);
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, &s, NULL) == SN_OK);
    CHECK(sn_layout_create(s, NULL, &lo, NULL) == SN_OK);
    los[0] = lo;
    CHECK(sn_export_check(SN_EXPORT_PNG, los, 1, true, lo->width, lo->height, false, NULL) ==
          SN_OK);
    sn_layout_destroy(lo);
    sn_schedule_destroy(s);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) { /* a broken /tmp, not a missing dependency: a failure */
        fprintf(stderr, "FAIL: cannot make a temporary directory %s: %s\n", tmpdir,
                strerror(errno));
        return 1;
    }
    test_structure_and_zero_one();
    test_palette();
    test_png_pixels();
    test_values();
    test_exports();
    test_limits();
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (sn_test_failures == 0 && system(cmd) != 0)
        printf("note: could not remove %s\n", tmpdir);
    return sn_test_finish("test_draw");
}
