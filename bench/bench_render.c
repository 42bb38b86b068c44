/* bench_render.c - bitonic:1024 (28 160 comparators) to SVG and PNG, and
 * a window-sized partial redraw, and the scene they all build first; CPU seconds of this process
 * (the machine is shared, wall time is noise) and ratios against the layout computation measured in
 * the same run (target: each export under 1 s). */
#include <cairo.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bench_cli.h"
#include "core/schedule.h"
#include "render/draw.h"
#include "render/export.h"
#include "render/layout.h"
#include "render/scene.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* best of `reps` runs of an export into a temporary file; *bytes = size */
static double time_export(sn_export_format f, const sn_layout *lo, const sn_theme *th, int reps,
                          long *bytes, long *paths)
{
    double best = 1e30;
    for (int r = 0; r < reps; r++) {
        FILE *out = tmpfile();
        if (!out)
            return -1;
        double t0 = now();
        sn_status st = sn_export_write(out, f, lo, th, NULL, NULL);
        double t = now() - t0;
        if (st != SN_OK) {
            fclose(out);
            return -1;
        }
        *bytes = ftell(out);
        if (paths) {
            rewind(out);
            char buf[1 << 16];
            size_t got, keep = 0;
            *paths = 0;
            /* count "<path" across buffer boundaries */
            while ((got = fread(buf + keep, 1, sizeof buf - 1 - keep, out)) > 0) {
                size_t len = keep + got;
                buf[len] = '\0';
                for (char *p = buf; (p = strstr(p, "<path")) != NULL; p++)
                    (*paths)++;
                keep = len >= 4 ? 4 : len;
                memmove(buf, buf + len - keep, keep);
                buf[keep] = '\0';
                if (strstr(buf, "<path"))
                    (*paths)--;
            }
        }
        fclose(out);
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    bench_cli(argc, argv,
              "usage: bench_render\n\n"
              "bitonic:1024 (28 160 comparators) to SVG and PNG, and a window-sized\n"
              "partial redraw: CPU seconds of this process and ratios against the\n"
              "layout computation measured in the same run (target: each export under\n"
              "1 s). Takes no arguments.\n",
              NULL, 0, 0, NULL);
    sn_schedule *s = NULL;
    if (sn_schedule_generate(SN_ALGO_BITONIC, 1024, &s, NULL) != SN_OK) {
        fprintf(stderr, "bench_render: cannot generate bitonic:1024\n");
        return 1;
    }
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    int reps = 3;
    double t_layout = 1e30;
    sn_layout *lo = NULL;
    for (int r = 0; r < reps; r++) {
        sn_layout_destroy(lo);
        double t0 = now();
        sn_layout_create(s, NULL, &lo, NULL);
        double t = now() - t0;
        if (t < t_layout)
            t_layout = t;
    }
    /* A PNG of all 1024 wires: 2048 px wide is already ~2 px per wire;
     * 4096 shows what cairo's PNG encoder (libpng, all filters tried per
     * row) costs on 18 Mpx. */
    sn_layout_opts po = {1.0, 2048, false, 0, -1, false, false, 0, 0, 0, 0},
                   pb = {1.0, 4096, false, 0, -1, false, false, 0, 0, 0, 0};
    sn_layout *lp = NULL, *lb = NULL;
    sn_layout_create(s, &po, &lp, NULL);
    sn_layout_create(s, &pb, &lb, NULL);
    if (!lo || !lp || !lb) {
        fprintf(stderr, "bench_render: layout failed\n");
        return 1;
    }
    long svg_bytes = 0, svg_paths = 0, png_bytes = 0, png4_bytes = 0, pdf_bytes = 0;
    double t_svg = time_export(SN_EXPORT_SVG, lo, th, reps, &svg_bytes, &svg_paths);
    double t_png = time_export(SN_EXPORT_PNG, lp, th, reps, &png_bytes, NULL);
    double t_png4 = time_export(SN_EXPORT_PNG, lb, th, reps, &png4_bytes, NULL);
    double t_pdf = time_export(SN_EXPORT_PDF, lo, th, reps, &pdf_bytes, NULL);

    /* the diagram's scene alone (what every export and the window build
     * before painting) */
    double t_scene = 1e30;
    size_t prims = 0;
    for (int r = 0; r < reps; r++) {
        sn_scene *sc = sn_scene_create(lo->width, lo->height);
        double t0 = now();
        sn_diagram_scene(sc, lo, th, NULL, NULL);
        double t = now() - t0;
        prims = sn_scene_count(sc);
        sn_scene_destroy(sc);
        if (t < t_scene)
            t_scene = t;
    }

    /* the window: a 1280x800 view of the full-size layout, middle of it */
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1280, 800);
    cairo_t *cr = cairo_create(surf);
    sn_rect vis = {lo->width / 2, lo->height / 2, 1280, 800};
    cairo_translate(cr, -vis.x, -vis.y);
    double t_view = 1e30;
    for (int r = 0; r < 10; r++) {
        double t0 = now();
        sn_draw(cr, lo, th, NULL, &vis);
        cairo_surface_flush(surf);
        double t = now() - t0;
        if (t < t_view)
            t_view = t;
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surf);

    printf("bench_render: bitonic:1024, %zu comparators, %zu layers, best of %d\n", lo->cmp_count,
           lo->layer_count, reps);
    printf("%-34s %10s %10s  %s\n", "what", "seconds", "x layout", "size");
    printf("%-34s %10.4f %10.1f  %.0fx%.0f units\n", "layout (baseline)", t_layout, 1.0, lo->width,
           lo->height);
    printf("%-34s %10.4f %10.1f  %zu primitives\n", "scene, full size", t_scene, t_scene / t_layout,
           prims);
    printf("%-34s %10.4f %10.1f  %ld bytes, %ld <path> elements\n", "SVG, full size", t_svg,
           t_svg / t_layout, svg_bytes, svg_paths);
    printf("%-34s %10.4f %10.1f  %ld bytes, %.0fx%.0f px\n", "PNG, --width 2048", t_png,
           t_png / t_layout, png_bytes, lp->width, lp->height);
    printf("%-34s %10.4f %10.1f  %ld bytes, %.0fx%.0f px\n", "PNG, --width 4096", t_png4,
           t_png4 / t_layout, png4_bytes, lb->width, lb->height);
    printf("%-34s %10.4f %10.1f  %ld bytes\n", "PDF, full size", t_pdf, t_pdf / t_layout,
           pdf_bytes);
    printf("%-34s %10.4f %10.1f  (window redraw, culled)\n", "1280x800 visible rect", t_view,
           t_view / t_layout);
    printf("target: SVG (full size) and PNG (2048 px) under 1 s each: %s\n",
           t_svg < 1 && t_png < 1 && t_svg >= 0 && t_png >= 0 ? "met" : "NOT met");
    sn_layout_destroy(lo);
    sn_layout_destroy(lp);
    sn_layout_destroy(lb);
    sn_schedule_destroy(s);
    return 0;
}
