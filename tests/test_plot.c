/* test_plot.c - the bench plot (src/render/plot.c): points and lines land
 * where the log-log axes put them, in the colour of their variant; an SVG
 * write error is reported; the CSV reader takes good rows, names the
 * line and column of a bad one and then keeps nothing of that file. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "render/plot.h"
#include "sn_test.h"

/* The colour at (x, y) of an RGB24 image surface, 0..255 each. */
static void pixel(cairo_surface_t *s, int x, int y, int rgb[3])
{
    const unsigned char *d = cairo_image_surface_get_data(s);
    uint32_t v;
    memcpy(&v, d + y * cairo_image_surface_get_stride(s) + x * 4, 4);
    rgb[0] = (int)((v >> 16) & 255);
    rgb[1] = (int)((v >> 8) & 255);
    rgb[2] = (int)(v & 255);
}

static bool near(const int rgb[3], int r, int g, int b)
{
    return abs(rgb[0] - r) < 40 && abs(rgb[1] - g) < 40 && abs(rgb[2] - b) < 40;
}

/* Two series: "fused" 10^6 keys/s at n = 10^3 and 10^7 at 10^4 (axes
 * 10^3..10^4 by 10^6..10^7: the points at the plot's corners), and
 * "naive" flat at 10^6 keys/s. The first is the first colour (blue), the
 * second the second (orange), and the area away from them stays white. */
static void test_draw(void)
{
    sn_plot_row rows[] = {
        {"bitonic", "fused", 1000, 1.0},   /* 1e6 keys/s */
        {"bitonic", "fused", 10000, 1.0},  /* 1e7 keys/s */
        {"bitonic", "naive", 1000, 1.0},   /* 1e6 */
        {"bitonic", "naive", 10000, 10.0}, /* 1e6 */
    };
    cairo_surface_t *s =
        cairo_image_surface_create(CAIRO_FORMAT_RGB24, SN_PLOT_WIDTH, SN_PLOT_HEIGHT);
    cairo_t *cr = cairo_create(s);
    sn_plot_draw(cr, rows, 2, "test device"); /* the fused series alone first */
    CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
    cairo_surface_flush(s);
    /* plot area: x 90..670, y 50..540 (margins L 90, R 230, T 50, B 60) */
    int rgb[3];
    pixel(s, 380, 295, rgb); /* the middle of the rising line */
    CHECKF(near(rgb, 31, 120, 181), "fused line at the middle: %d,%d,%d", rgb[0], rgb[1], rgb[2]);
    pixel(s, 600, 500, rgb); /* below the line, inside the plot */
    CHECKF(near(rgb, 255, 255, 255), "empty area: %d,%d,%d", rgb[0], rgb[1], rgb[2]);
    sn_plot_draw(cr, rows, 4, "test device");
    cairo_surface_flush(s);
    pixel(s, 380, 540, rgb); /* the flat naive line on the bottom axis */
    CHECKF(near(rgb, 255, 128, 13), "naive line: %d,%d,%d", rgb[0], rgb[1], rgb[2]);
    pixel(s, 380, 295, rgb);
    CHECKF(near(rgb, 31, 120, 181), "fused line drawn again: %d,%d,%d", rgb[0], rgb[1], rgb[2]);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

static void test_svg(void)
{
    sn_plot_row rows[] = {{"oddeven-merge", "closed", 1024, 0.5}};
    sn_diag d;
    FILE *f = tmpfile();
    CHECK(f && sn_plot_write_svg(f, rows, 1, "dev", &d) == SN_OK);
    if (f) {
        long len = ftell(f);
        CHECKF(len > 1000, "SVG of %ld bytes", len);
        char head[64] = "";
        rewind(f);
        CHECK(fread(head, 1, sizeof head - 1, f) > 0 && strstr(head, "<?xml") != NULL);
        fclose(f);
    }
    /* nothing to draw is still a picture (empty axes) */
    f = tmpfile();
    CHECK(f && sn_plot_write_svg(f, NULL, 0, NULL, &d) == SN_OK);
    if (f)
        fclose(f);
    /* a full disk: the write error comes back */
    f = fopen("/dev/full", "w");
    if (f) {
        setvbuf(f, NULL, _IONBF, 0);
        sn_status st = sn_plot_write_svg(f, rows, 1, "dev", &d);
        CHECKF(st == SN_EIO, "write to /dev/full: status %d (%s)", (int)st, d.text);
        fclose(f);
    }
}

static char *dup(const char *s)
{
    char *p = sn_malloc(strlen(s) + 1);
    if (p)
        strcpy(p, s);
    return p;
}

static void test_csv(void)
{
    sn_plot_table t;
    sn_plot_table_init(&t);
    sn_diag d;
    const char *good = "device,network,variant,n,median_ms,keys_per_s\r\n"
                       "GPU X,bitonic,fused,1024,0.5,2.048e+06\r\n\r\n"
                       "GPU X,bitonic,naive,2048,1,2.048e+06\n";
    CHECK(sn_plot_csv_parse(&t, dup(good), "a.csv", &d) == SN_OK);
    CHECK(t.count == 2 && t.device && strcmp(t.device, "GPU X") == 0);
    CHECK(t.count == 2 && t.rows[1].n == 2048 && t.rows[1].ms == 1.0 &&
          strcmp(t.rows[1].variant, "naive") == 0);
    static const struct {
        const char *text, *msg;
        unsigned long line, col;
    } bad[] = {
        {"d,b,f,10,1,1\nd,b,f,10,1\n", "expected 6", 2, 11},
        {"d,b,f,10,1,1,7\n", "more than 6", 1, 13},
        {"d,,f,10,1,1\n", "empty network", 1, 3},
        {"d,b,f,0,1,1\n", "n must be", 1, 7},
        {"d,b,f,12x,1,1\n", "n must be", 1, 7},
        {"d,b,f,10,-1,1\n", "median_ms", 1, 10},
        {"d,b,f,10,1,nan\n", "keys_per_s", 1, 12},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sn_status st = sn_plot_csv_parse(&t, dup(bad[i].text), "b.csv", &d);
        CHECKF(st == SN_EPARSE && strstr(d.text, bad[i].msg) && strncmp(d.text, "b.csv:", 6) == 0 &&
                   d.line == bad[i].line && d.column == bad[i].col,
               "case %zu: status %d, %lu:%lu %s", i, (int)st, d.line, d.column, d.text);
        CHECKF(t.count == 2, "case %zu: a bad file left %zu rows", i, t.count);
    }
    sn_plot_table_free(&t);
    sn_plot_table_free(NULL);
}

int main(void)
{
    test_draw();
    test_svg();
    test_csv();
    return sn_test_finish("test_plot");
}
