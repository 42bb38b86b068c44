/* test_render_plot_errors.c - the benchmark plot's failure paths: out of
 * memory at every allocation of reading CSV texts (each ends in SN_ENOMEM
 * naming what, nothing leaks, the table keeps what it had), a disk that
 * fills while the SVG is written (SN_EIO with the cause, a beginning of
 * the whole SVG on the disk; the whole SVG with room enough), and axes for
 * points on one decade. test_plot has the picture itself. */
#define _GNU_SOURCE /* for: fopencookie */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "render/plot.h"
#include "full_disk.h"
#include "sn_test.h"

static const char *const csv = "device,network,variant,n,median_ms,keys_per_s\n"
                               "pocl,bitonic:16,fused,1024,0.5,2048000\n"
                               "pocl,bitonic:16,fused,4096,1.5,2730666\n"
                               "pocl,best:16,plain,1024,0.7,1462857\n";

static void test_csv_oom(void)
{
    size_t base = sn_alloc_live();
    for (size_t k = 1;; k++) {
        sn_plot_table t;
        sn_plot_table_init(&t);
        /* a first text read whole, then the second under the countdown */
        char *first = sn_strdup(csv), *second = sn_strdup(csv);
        CHECK(first && second);
        sn_diag d;
        CHECK(sn_plot_csv_parse(&t, first, "a.csv", &d) == SN_OK && t.count == 3);
        size_t had = t.count;
        sn_alloc_fail_after(k);
        sn_status st = sn_plot_csv_parse(&t, second, "b.csv", &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < k) {
            CHECK(st == SN_OK && t.count == 6);
            sn_plot_table_free(&t);
            CHECK(sn_alloc_live() == base);
            break;
        }
        CHECKF(st == SN_ENOMEM && strstr(d.text, "out of memory"), "allocation %zu: %s: %s", k,
               sn_status_str(st), d.text);
        CHECK(t.count == had && strcmp(t.device, "pocl") == 0);
        sn_plot_table_free(&t);
        CHECKF(sn_alloc_live() == base, "allocation %zu: a leak", k);
        if (k > 100) {
            CHECK(0);
            break;
        }
    }
    /* the first text's own table growth */
    sn_plot_table t;
    sn_plot_table_init(&t);
    char *text = sn_strdup(csv);
    sn_diag d;
    sn_alloc_fail_after(2);
    CHECK(sn_plot_csv_parse(&t, text, "c.csv", &d) == SN_ENOMEM);
    sn_alloc_fail_after(0);
    CHECK(strstr(d.text, "out of memory for plot rows") != NULL && t.count == 0);
    sn_plot_table_free(&t);
    text = sn_strdup(csv);
    sn_plot_table_init(&t);
    sn_alloc_fail_after(1);
    CHECK(sn_plot_csv_parse(&t, text, "c.csv", &d) == SN_ENOMEM);
    sn_alloc_fail_after(0);
    CHECK(strstr(d.text, "out of memory reading c.csv") != NULL);
    sn_plot_table_free(&t);
    CHECK(sn_alloc_live() == base);
}

/* The plot onto a disk of `room` bytes (status into *st, the bytes the
 * disk took into *size), cairo's surface numbers (id="surface12", which
 * count the surfaces the process made) then left out of them. */
static bool plot_onto(sn_full_disk *k, size_t room, bool buffered, size_t *size, sn_status *st,
                      sn_diag *d)
{
    static const sn_plot_row rows[] = {
        {"a", "x", 1000, 1.0}, {"a", "x", 10000, 5.0}, {"b", "y", 1000, 2.0}};
    FILE *f = sn_full_disk_open(k, room, buffered);
    CHECK(f != NULL);
    if (!f)
        return false;
    sn_diag_clear(d);
    *st = sn_plot_write_svg(f, rows, 3, "pocl", d);
    fclose(f);
    *size = k->used;
    sn_full_disk_mask_digits(k, "surface", false);
    return true;
}

/* The room after `room` for a file of `size` bytes: doubling, then one
 * byte short of it (the writer's last write failing), then room enough
 * (with slack for cairo's numbers) */
static size_t next_room(size_t room, size_t size)
{
    size_t next = room ? room * 2 : 1;
    if (room + 1 >= size)
        return size + 64;
    return next + 1 >= size ? size - 1 : next;
}

/* The plot into a disk that fills after `room` bytes, for rooms from
 * nothing to past the whole SVG (the same plot with no limit): a run that
 * cannot write it all ends in SN_EIO with the cause, having written a
 * beginning of the whole SVG and nothing else; a run with room enough
 * writes exactly the whole SVG. Buffered and unbuffered. */
static void test_full_disk(void)
{
    sn_full_disk whole;
    sn_status st;
    sn_diag d;
    size_t size, got;
    if (!plot_onto(&whole, SN_FULL_DISK_NO_LIMIT, false, &size, &st, &d))
        return;
    CHECKF(st == SN_OK && !whole.lost && whole.used > 0, "no limit: %s", d.text);
    size_t fails = 0;
    for (size_t room = 0;; room = next_room(room, size)) {
        for (int buffered = 0; buffered < 2; buffered++) {
            sn_full_disk k;
            if (!plot_onto(&k, room, buffered, &got, &st, &d))
                break;
            bool ok = st == SN_OK;
            CHECKF(sn_full_disk_holds(&k, whole.data, whole.used, ok),
                   "room %zu%s (%s): %zu bytes that are not %s the %zu of the whole SVG", room,
                   buffered ? " buffered" : "", sn_status_str(st), got,
                   ok ? "all" : "a beginning of", size);
            sn_full_disk_free(&k);
            if (!ok) {
                fails++;
                CHECKF(st == SN_EIO && strstr(d.text, "writing the plot failed: No space left"),
                       "room %zu: %s", room, d.text);
                CHECKF(room < size, "failed with room %zu for its %zu bytes", room, size);
            }
        }
        if (room > size)
            break;
    }
    CHECK(fails > 0);
    sn_full_disk_free(&whole);
}

/* Points all in one decade (or none drawable): the axes still span one. */
static void test_axes(void)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 90, 60);
    cairo_t *cr = cairo_create(s);
    sn_plot_row one[] = {{"a", "x", 1000, 1.0}, {"a", "x", 1000, 0.0}};
    sn_plot_draw(cr, one, 2, NULL);
    CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
    sn_plot_row none[] = {{"a", "x", 1000, -1.0}};
    sn_plot_draw(cr, none, 1, "dev");
    CHECK(cairo_status(cr) == CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

int main(void)
{
    test_csv_oom();
    test_full_disk();
    test_axes();
    return sn_test_finish("test_render_plot_errors");
}
