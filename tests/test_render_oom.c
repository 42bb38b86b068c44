/* test_render_oom.c - out of memory at every allocation of the render
 * layer's builders (as test_oom does for the core): the diagram's scene
 * with everything a state can ask for (values, a followed path, the 0-1
 * chart, selected outputs, a visible part), drawing it on cairo, and the
 * scene as SVG text. Every run that meets a failure ends in SN_ENOMEM
 * (the scene's status says so too) and leaves nothing allocated. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/analysis.h"
#include "core/format.h"
#include "core/schedule.h"
#include "render/diagram.h"
#include "render/draw.h"
#include "render/layout.h"
#include "render/scene_svg.h"
#include "sn_test.h"

typedef struct fixture {
    sn_layout *lo;
    sn_draw_state st;
    uint32_t values[8];
    uint32_t path[64];
    uint32_t selected[2];
    sn_zero_one zo;
    sn_rect visible;
    bool clip;
} fixture;

/* values after `step` layers of lo, and the route of the element that
 * starts on wire `from`, by running the layout's comparators */
static void run_layers(fixture *f, size_t step, uint32_t from)
{
    const sn_layout *lo = f->lo;
    uint32_t v[8] = {7, 3, 5, 1, 6, 0, 4, 2};
    uint32_t at = from;
    f->path[0] = at;
    for (size_t k = 0; k < lo->layer_count; k++) {
        if (k == step)
            memcpy(f->values, v, sizeof v);
        for (size_t i = 0; i < lo->cmp_count; i++) {
            const sn_layout_cmp *c = &lo->cmp[i];
            if (c->layer != k || v[c->a] <= v[c->b])
                continue;
            uint32_t t = v[c->a];
            v[c->a] = v[c->b];
            v[c->b] = t;
            if (at == c->a || at == c->b)
                at = at == c->a ? c->b : c->a;
        }
        f->path[k + 1] = at;
    }
    if (step >= lo->layer_count)
        memcpy(f->values, v, sizeof v);
}

typedef sn_status (*op_fn)(const fixture *f);

static sn_status op_scene(const fixture *f)
{
    sn_scene *sc = sn_scene_create(f->lo->width, f->lo->height);
    if (!sc)
        return SN_ENOMEM;
    sn_status st = sn_diagram_scene(sc, f->lo, sn_theme_get(SN_THEME_LIGHT), &f->st,
                                    f->clip ? &f->visible : NULL);
    sn_status ss = sn_scene_status(sc);
    CHECK(ss == SN_OK || st == SN_ENOMEM);
    sn_scene_destroy(sc);
    return st;
}

static sn_status op_draw(const fixture *f)
{
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 64, 64);
    cairo_t *cr = cairo_create(surf);
    sn_status st = sn_draw(cr, f->lo, sn_theme_get(SN_THEME_DARK), &f->st, NULL);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    return st;
}

static sn_status op_svg(const fixture *f)
{
    sn_scene *sc = sn_scene_create(f->lo->width, f->lo->height);
    if (!sc)
        return SN_ENOMEM;
    sn_status st = sn_diagram_scene(sc, f->lo, sn_theme_get(SN_THEME_CONTRAST), &f->st, NULL);
    if (st == SN_OK) {
        char *svg = NULL;
        size_t len = 0;
        st = sn_scene_svg(sc, &svg, &len);
        CHECK((st == SN_OK) == (svg != NULL));
        if (svg)
            CHECK(strlen(svg) == len && strstr(svg, "</svg>") != NULL);
        sn_free(svg);
    }
    sn_scene_destroy(sc);
    return st;
}

/* Fail allocation 1, 2, ... of op until a run meets no failure; returns
 * how many allocations a whole run makes. Past the first `strict` ones a
 * failure may also end in SN_OK (the cairo painter's batch of glyphs:
 * out of memory, it paints each text on its own). */
static size_t every_allocation(const char *name, op_fn op, const fixture *f, size_t strict)
{
    size_t base = sn_alloc_live();
    for (size_t k = 1; k < 100000; k++) {
        sn_alloc_fail_after(k);
        sn_status st = op(f);
        size_t made = sn_alloc_fail_after(0);
        CHECKF(sn_alloc_live() == base, "%s, allocation %zu failing: %zu block(s) leaked", name, k,
               sn_alloc_live() - base);
        if (made < k) {
            CHECKF(st == SN_OK, "%s: %s with no failure", name, sn_status_str(st));
            printf("%s: %zu allocations, each failed once\n", name, made);
            return made;
        }
        CHECKF(st == SN_ENOMEM || (k > strict && st == SN_OK), "%s, allocation %zu failing: %s",
               name, k, sn_status_str(st));
    }
    CHECKF(0, "%s: the loop did not end", name);
    return 0;
}

int main(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("bitonic:8", &s, &d) == SN_OK);
    fixture f;
    memset(&f, 0, sizeof f);
    sn_layout_opts o = {1.0, 0, true, 0, -1, true, true, 0, 0, 0, 0};
    CHECK(s && sn_layout_create(s, &o, &f.lo, NULL) == SN_OK);
    CHECK(s && sn_zero_one_profile(s, 16, 1, &f.zo, &d) == SN_OK);
    if (!f.lo || !s) {
        sn_layout_destroy(f.lo);
        sn_schedule_destroy(s);
        return sn_test_finish("test_render_oom");
    }
    CHECK(f.lo->layer_count < 63);
    sn_draw_state_init(&f.st);
    f.st.step = 2;
    run_layers(&f, f.st.step, 0);
    f.st.values = f.values;
    f.st.type = SN_KEY_U32;
    f.st.path = f.path;
    f.st.highlight_cmp = 3;
    f.st.zo = &f.zo;
    f.st.zo_ones = 3;
    f.st.chart_step = true;
    f.selected[0] = 3;
    f.selected[1] = 4;
    f.st.selected = f.selected;
    f.st.selected_count = 2;
    size_t built = every_allocation("the whole diagram's scene", op_scene, &f, SIZE_MAX);
    f.clip = true;
    f.visible = (sn_rect){f.lo->width / 3, 0, f.lo->width / 2, f.lo->height / 2};
    every_allocation("a part of it", op_scene, &f, SIZE_MAX);
    f.clip = false;
    /* sn_draw: the scene's allocations come first, then the painter's */
    CHECK(every_allocation("drawn on cairo", op_draw, &f, built) > built);
    every_allocation("as SVG text", op_svg, &f, SIZE_MAX);
    /* the network alone, no state */
    sn_zero_one_free(&f.zo);
    memset(&f.zo, 0, sizeof f.zo);
    f.st.zo = NULL;
    f.st.zo_note = "no profile here";
    every_allocation("without a profile", op_scene, &f, SIZE_MAX);
    sn_layout_destroy(f.lo);
    sn_schedule_destroy(s);
    return sn_test_finish("test_render_oom");
}
