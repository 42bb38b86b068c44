/* test_app.c - the window's state machine, script parser and frame drawing,
 * all without a window. Oracles: the CPU reference executor layer by layer
 * (sn_exec_layer on a copy), qsort order, and the layout's coordinates for
 * pixel checks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h> // for: WIFEXITED
#include <unistd.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "core/format.h"
#include "session/edit.h"
#include "headless/frame.h"
#include "render/draw.h"
#include "render/palette.h"
#include "session/script.h"
#include "sn_test.h"
#include "session/view.h"

static bool sorted(sn_key_type t, const uint32_t *k, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (sn_key_to_ordered(t, k[i - 1]) > sn_key_to_ordered(t, k[i]))
            return false;
    return true;
}

static sn_view_input rnd(uint64_t seed)
{
    sn_view_input in = {SN_INPUT_RANDOM, seed, NULL, SN_KEY_I32};
    return in;
}

/* Stepping forward and back shows exactly the executor's states. */
static void test_stepping(const char *spec)
{
    sn_view v;
    sn_view_input in = rnd(7);
    sn_diag d;
    CHECK(sn_view_init(&v, spec, &in, &d) == SN_OK);
    uint32_t n = v.n;
    uint32_t *ref = malloc(((size_t)v.layers + 1) * n * sizeof *ref);
    memcpy(ref, sn_view_values(&v), n * sizeof *ref);
    CHECK(memcmp(ref, v.input, n * sizeof *ref) == 0);
    for (size_t k = 0; k < v.layers; k++) {
        memcpy(ref + (k + 1) * n, ref + k * n, n * sizeof *ref);
        sn_exec_layer(v.sched, k, SN_KEY_I32, ref + (k + 1) * n, NULL, NULL);
    }
    size_t swaps = 0;
    for (size_t k = 0; k < v.layers; k++) {
        CHECK(sn_view_action(&v, SN_ACT_RIGHT));
        CHECKF(v.step == k + 1, "%s: step %zu", spec, v.step);
        CHECKF(memcmp(sn_view_values(&v), ref + (k + 1) * n, n * sizeof *ref) == 0,
               "%s: state after layer %zu", spec, k + 1);
        for (uint32_t i = 0; i < n; i++) /* swaps counted independently */
            swaps += ref[k * n + i] != ref[(k + 1) * n + i];
        CHECK(v.swap_before[v.step] * 2 == swaps);
    }
    CHECK(!sn_view_action(&v, SN_ACT_RIGHT)); /* at the end: nothing happens */
    CHECK(sorted(SN_KEY_I32, sn_view_values(&v), n));
    for (size_t k = v.layers; k-- > 0;) {
        CHECK(sn_view_action(&v, SN_ACT_LEFT));
        CHECK(v.step == k);
        CHECKF(memcmp(sn_view_values(&v), ref + k * n, n * sizeof *ref) == 0,
               "%s: back to step %zu", spec, k);
    }
    CHECK(!sn_view_action(&v, SN_ACT_LEFT));
    CHECK(sn_view_action(&v, SN_ACT_END) && v.step == v.layers);
    CHECK(sn_view_action(&v, SN_ACT_HOME) && v.step == 0);
    free(ref);
    sn_view_cleanup(&v);
}

static void test_play(void)
{
    sn_view v;
    sn_view_input in = rnd(3);
    sn_diag d;
    CHECK(sn_view_init(&v, "oddeven-merge:16", &in, &d) == SN_OK);
    double s0 = sn_view_speed(&v);
    sn_view_action(&v, SN_ACT_FASTER);
    CHECK(sn_view_speed(&v) > s0);
    sn_view_action(&v, SN_ACT_SLOWER);
    CHECK(sn_view_speed(&v) == s0);
    CHECK(!sn_view_busy(&v));
    sn_view_action(&v, SN_ACT_PLAY);
    CHECK(v.playing && sn_view_busy(&v));
    /* one interval brings exactly one layer */
    sn_view_tick(&v, 1000.0 / s0 + 0.01);
    CHECK(v.step == 1);
    CHECK(v.anim_ms > 0); /* and its swap animation */
    int guard = 0;
    while (sn_view_busy(&v) && guard++ < 100000)
        sn_view_tick(&v, 1000.0 / 60);
    CHECK(v.step == v.layers && !v.playing);
    CHECK(sorted(SN_KEY_I32, sn_view_values(&v), v.n));
    /* Space at the end plays again from the start */
    sn_view_action(&v, SN_ACT_PLAY);
    CHECK(v.step == 0 && v.playing);
    sn_view_action(&v, SN_ACT_PLAY);
    CHECK(!v.playing);
    sn_view_cleanup(&v);
}

static void test_inputs(void)
{
    sn_view v;
    sn_view_input in = rnd(11);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:16", &in, &d) == SN_OK);
    sn_view_action(&v, SN_ACT_RIGHT);
    sn_view_action(&v, SN_ACT_REVERSE);
    CHECK(v.step == 0 && v.input_kind == SN_INPUT_REVERSE);
    for (uint32_t i = 0; i < v.n; i++)
        CHECK((int32_t)v.input[i] == (int32_t)(v.n - i));
    sn_view_action(&v, SN_ACT_BITS);
    CHECK(v.input_kind == SN_INPUT_BITS && strlen(v.bits) == v.n);
    for (uint32_t i = 0; i < v.n; i++)
        CHECK(v.input[i] == (uint32_t)(v.bits[i] - '0'));
    sn_view_action(&v, SN_ACT_RANDOM);
    CHECK(v.input_kind == SN_INPUT_RANDOM);
    /* a permutation of 1..n */
    uint8_t seen[17] = {0};
    for (uint32_t i = 0; i < v.n; i++) {
        int32_t x = (int32_t)v.input[i];
        CHECK(x >= 1 && x <= 16);
        if (x >= 1 && x <= 16)
            seen[x]++;
    }
    for (int x = 1; x <= 16; x++)
        CHECK(seen[x] == 1);
    sn_view_action(&v, SN_ACT_END);
    CHECK(sorted(SN_KEY_I32, sn_view_values(&v), v.n));
    sn_view_cleanup(&v);
}

static void test_generators(void)
{
    sn_view v;
    sn_view_input in = rnd(5);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:8", &in, &d) == SN_OK);
    for (int g = 0; g < 6; g++) {
        CHECK(sn_view_action(&v, (sn_action)(SN_ACT_GEN1 + g)));
        CHECKF(sn_schedule_algo(v.sched) == sn_view_generators[g] ||
                   sn_schedule_algo(v.sched) == SN_ALGO_EXPLICIT,
               "generator %d", g);
        char want[64];
        snprintf(want, sizeof want, "%s:8", sn_algo_name(sn_view_generators[g]));
        CHECKF(strcmp(v.name, want) == 0, "name %s, want %s", v.name, want);
        CHECK(v.n == 8 && v.step == 0);
        sn_view_action(&v, SN_ACT_END);
        CHECKF(sorted(SN_KEY_I32, sn_view_values(&v), v.n), "%s sorts", v.name);
    }
    sn_view_action(&v, SN_ACT_GEN1);
    CHECK(sn_view_action(&v, SN_ACT_N_UP) && v.n == 16);
    CHECK(strcmp(v.name, "bitonic:16") == 0);
    CHECK(v.layers == 10); /* bitonic: log n (log n + 1) / 2 */
    sn_view_action(&v, SN_ACT_N_DOWN);
    sn_view_action(&v, SN_ACT_N_DOWN);
    sn_view_action(&v, SN_ACT_N_DOWN);
    CHECK(v.n == 2);
    sn_view_action(&v, SN_ACT_N_DOWN); /* refused */
    CHECK(v.n == 2 && v.message_error);
    /* a 0-1 input survives a change of n as a 0-1 input of the new length */
    sn_view_action(&v, SN_ACT_BITS);
    sn_view_action(&v, SN_ACT_N_UP);
    CHECK(v.n == 4 && v.input_kind == SN_INPUT_BITS && strlen(v.bits) == 4);
    sn_view_cleanup(&v);
}

/* 7: the best-known network for this n from the library; again: the depth
 * record; [ / ] step n by one on it, within the library's 2..64. */
static void test_best_known(void)
{
    sn_view v;
    sn_view_input in = rnd(5);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:16", &in, &d) == SN_OK);
    CHECK(sn_action_parse("7") == SN_ACT_BEST);
    CHECK(sn_view_action(&v, SN_ACT_BEST));
    CHECKF(strcmp(v.name, "best:16") == 0 && v.layers == 10 && !v.message_error, "%s", v.name);
    sn_view_action(&v, SN_ACT_END);
    CHECK(sorted(SN_KEY_I32, sn_view_values(&v), v.n));
    sn_view_action(&v, SN_ACT_BEST);
    CHECKF(strcmp(v.name, "best-depth:16") == 0 && v.layers == 9, "%s", v.name);
    sn_view_action(&v, SN_ACT_N_UP);
    CHECKF(strcmp(v.name, "best-depth:17") == 0 && v.n == 17 && v.layers == 10, "%s", v.name);
    sn_view_action(&v, SN_ACT_BEST);
    CHECKF(strcmp(v.name, "best:17") == 0, "%s", v.name);
    sn_view_action(&v, SN_ACT_N_DOWN);
    sn_view_action(&v, SN_ACT_N_DOWN);
    CHECKF(strcmp(v.name, "best:15") == 0 && v.n == 15, "%s", v.name);
    sn_view_cleanup(&v);
    /* the ends of the library: refused, the network stays */
    CHECK(sn_view_init(&v, "best:2", &in, &d) == SN_OK);
    sn_view_action(&v, SN_ACT_N_DOWN);
    CHECK(v.n == 2 && v.message_error && strstr(v.message, "2..64") != NULL);
    sn_view_cleanup(&v);
    CHECK(sn_view_init(&v, "oddeven-merge:100", &in, &d) == SN_OK);
    sn_view_action(&v, SN_ACT_BEST);
    CHECK(v.n == 100 && v.message_error && strstr(v.message, "best:100") != NULL);
    CHECK(strcmp(v.name, "oddeven-merge:100") == 0);
    sn_view_cleanup(&v);
}

static char *write_temp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/sn_test_app_%ld.txt", (long)getpid());
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_reload_and_counterexample(void)
{
    /* a network on 4 wires that does not sort (the last comparator missing) */
    const char *bad = "[(0,1),(2,3)]\n[(0,2),(1,3)]\n";
    char *path = write_temp(bad);
    sn_view v;
    sn_view_input in = rnd(9);
    sn_diag d;
    CHECK(sn_view_init(&v, path, &in, &d) == SN_OK);
    CHECK(v.file && v.n == 4 && v.layers == 2);
    CHECK(sn_view_action(&v, SN_ACT_COUNTER));
    CHECKF(strstr(v.message, "NOT sort") != NULL, "message: %s", v.message);
    CHECK(v.input_kind == SN_INPUT_BITS);
    sn_view_action(&v, SN_ACT_END);
    CHECK(!sorted(SN_KEY_I32, sn_view_values(&v), v.n));
    for (uint32_t i = 0; i < v.n; i++)
        CHECK(v.input[i] <= 1);

    /* a file that fails to load keeps the old network and says why */
    FILE *f = fopen(path, "w");
    fputs("[(0,1),(2,3)]\n[(0,2),(1,x)]\n", f);
    fclose(f);
    sn_view_action(&v, SN_ACT_RELOAD);
    CHECK(v.message_error && v.n == 4 && v.layers == 2);
    CHECKF(strstr(v.message, ":2:") != NULL, "names the line: %s", v.message);
    /* a good file reloads */
    f = fopen(path, "w");
    fputs("[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n", f);
    fclose(f);
    sn_view_action(&v, SN_ACT_RELOAD);
    CHECK(!v.message_error && v.layers == 3 && v.step == 0);
    sn_view_action(&v, SN_ACT_COUNTER);
    CHECKF(strstr(v.message, "sorts") != NULL, "message: %s", v.message);
    sn_view_cleanup(&v);
    remove(path);

    /* a generator name cannot be reloaded */
    CHECK(sn_view_init(&v, "bubble:6", &in, &d) == SN_OK);
    CHECK(!v.file);
    sn_view_action(&v, SN_ACT_RELOAD);
    CHECK(v.message_error && v.n == 6);
    sn_view_action(&v, SN_ACT_GPU);
    CHECK(strstr(v.message, "GPU") != NULL);
    sn_view_cleanup(&v);

    CHECK(sn_view_init(&v, "/nonexistent/net.txt", &in, &d) != SN_OK);
    sn_view_cleanup(&v);
}

static void test_follow(void)
{
    sn_view v;
    sn_view_input in = rnd(21);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:16", &in, &d) == SN_OK);
    sn_view_action(&v, SN_ACT_RIGHT);
    uint32_t wire = 5;
    uint32_t value = sn_view_values(&v)[wire];
    sn_view_follow_wire(&v, wire, v.layers + 1);
    CHECK(v.follow >= 0 && v.path);
    if (v.path) {
        CHECK(v.path[1] == wire);
        for (size_t k = 0; k <= v.layers; k++) /* distinct keys: the value is on path[k] */
            CHECK(sn_trace_state(v.trace, k)[v.path[k]] == value);
    }
    sn_view_follow_wire(&v, wire, v.layers + 1); /* again: stop */
    CHECK(v.follow < 0 && !v.path);
    sn_view_cleanup(&v);
}

static void test_camera(void)
{
    sn_view v;
    sn_view_input in = rnd(1);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:8", &in, &d) == SN_OK);
    sn_view_zoom(&v, 0.5, 0.5, 0.5);
    CHECK(v.zoom == 1 && v.pan_x == 0); /* never below fit */
    sn_view_zoom(&v, 2, 0.5, 0.5);
    CHECK(v.zoom == 2 && fabs(v.pan_x + 0.5) < 1e-12); /* the centre stays put */
    sn_view_pan(&v, 10, -10);
    CHECK(v.pan_x == 0 && v.pan_y == -1); /* clamped to cover the pane */
    sn_view_action(&v, SN_ACT_FIT);
    CHECK(v.zoom == 1 && v.pan_x == 0 && v.pan_y == 0);
    sn_view_cleanup(&v);
}

static void test_script(void)
{
    sn_script_event *ev;
    size_t n;
    sn_diag d;
    CHECK(sn_script_parse("right right space wait:500 p [ ] 0 f11 click:10,20 wheel:5,6,-2", &ev,
                          &n, &d) == SN_OK);
    CHECK(n == 11);
    if (n == 11) {
        CHECK(ev[0].kind == SN_SCRIPT_ACTION && ev[0].act == SN_ACT_RIGHT);
        CHECK(ev[2].act == SN_ACT_PLAY);
        CHECK(ev[3].kind == SN_SCRIPT_WAIT && ev[3].ms == 500);
        CHECK(ev[4].act == SN_ACT_SAVE_PNG);
        CHECK(ev[5].act == SN_ACT_N_DOWN && ev[6].act == SN_ACT_N_UP);
        CHECK(ev[7].act == SN_ACT_BITS && ev[8].act == SN_ACT_FULLSCREEN);
        CHECK(ev[9].kind == SN_SCRIPT_CLICK && ev[9].x == 10 && ev[9].y == 20);
        CHECK(ev[10].kind == SN_SCRIPT_WHEEL && ev[10].z == -2);
    }
    sn_free(ev);
    CHECK(sn_script_parse("right,left", &ev, &n, &d) == SN_OK && n == 2);
    sn_free(ev);
    CHECK(sn_script_parse("", &ev, &n, &d) == SN_OK && n == 0);
    sn_free(ev);
    CHECK(sn_script_parse("right jump", &ev, &n, &d) == SN_EPARSE);
    CHECK(d.column == 7);
    CHECK(sn_script_parse("wait:x", &ev, &n, &d) == SN_EPARSE);
    CHECK(sn_script_parse("click:1", &ev, &n, &d) == SN_EPARSE);
    /* the edit verbs */
    CHECK(sn_script_parse("e add:0,1 add:3,2,4 del:1,0 move:2,1,0 select:0,0 save:/tmp/a.json "
                          "undo ctrl+y ctrl+s delete tab",
                          &ev, &n, &d) == SN_OK);
    CHECK(n == 12);
    if (n == 12) {
        CHECK(ev[0].act == SN_ACT_EDIT);
        CHECK(ev[1].kind == SN_SCRIPT_ADD && ev[1].i == 0 && ev[1].j == 1 && ev[1].k == -1);
        CHECK(ev[2].kind == SN_SCRIPT_ADD && ev[2].i == 3 && ev[2].j == 2 && ev[2].k == 4);
        CHECK(ev[3].kind == SN_SCRIPT_DEL && ev[3].i == 1 && ev[3].j == 0);
        CHECK(ev[4].kind == SN_SCRIPT_MOVE && ev[4].i == 2 && ev[4].j == 1 && ev[4].k == 0);
        CHECK(ev[5].kind == SN_SCRIPT_SELECT);
        CHECK(ev[6].kind == SN_SCRIPT_SAVE && strcmp(ev[6].path, "/tmp/a.json") == 0);
        CHECK(ev[7].act == SN_ACT_UNDO && ev[8].act == SN_ACT_REDO);
        CHECK(ev[9].act == SN_ACT_SAVE_NET && ev[10].act == SN_ACT_DELETE);
        CHECK(ev[11].act == SN_ACT_SELECT);
        /* where each token is, for the message of a step that fails */
        CHECK(ev[0].col == 1 && ev[0].len == 1 && ev[2].col == 11 && ev[2].len == 9);
        /* which steps fail a script when they leave an error message: the
         * edit verbs, save: and the edit keys, not keys that inform */
        for (size_t i = 0; i < 12; i++)
            CHECKF(sn_script_can_fail(&ev[i]), "step %zu", i);
    }
    sn_free(ev);
    CHECK(sn_script_parse("b o 1 right wait:10 click:1,2 p s", &ev, &n, &d) == SN_OK && n == 8);
    for (size_t i = 0; i < n; i++)
        CHECKF(sn_script_can_fail(&ev[i]) == (i >= 6), "step %zu", i);
    sn_free(ev);
    static const char *const bad[] = {"add:1", "add:a,b",  "add:1,2,3,4", "del:-1,0", "add:1.5,2",
                                      "del:0", "move:1,2", "select:1",    "save:",    "add:1,1e10"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[64];
        snprintf(text, sizeof text, "e right %s", bad[i]);
        CHECKF(sn_script_parse(text, &ev, &n, &d) == SN_EPARSE && d.column == 9, "%s", bad[i]);
    }
    for (int a = SN_ACT_NONE + 1; a < SN_ACT_COUNT; a++)
        CHECK((int)sn_action_parse(sn_action_name((sn_action)a)) == a);
}

/* Colour of the pixel (x, y) of an RGB24 surface. */
static sn_rgb pixel(cairo_surface_t *s, int x, int y)
{
    const unsigned char *data = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t p;
    memcpy(&p, data + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
    sn_rgb c = {((p >> 16) & 255) / 255.0, ((p >> 8) & 255) / 255.0, (p & 255) / 255.0};
    return c;
}

static bool near(sn_rgb a, sn_rgb b)
{
    return fabs(a.r - b.r) < 0.06 && fabs(a.g - b.g) < 0.06 && fabs(a.b - b.b) < 0.06;
}

/* The highlighted layer is where the layout says: at step k the comparators
 * of layer k are drawn in the swap / no-swap colours at the layout's x,
 * and the same comparators in plain colour at other steps. */
static void test_frame_pixels(void)
{
    sn_view v;
    sn_view_input in = rnd(4);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:16", &in, &d) == SN_OK);
    sn_frame *f = sn_frame_create();
    const int W = 1280, H = 800;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    const sn_theme *th = sn_theme_get(SN_THEME_LIGHT);
    int checked = 0;
    for (size_t k = 0; k < v.layers; k += 3) {
        sn_view_action(&v, SN_ACT_HOME);
        for (size_t i = 0; i < k; i++)
            sn_view_action(&v, SN_ACT_RIGHT);
        v.anim_ms = 0; /* settled */
        cairo_t *cr = cairo_create(s);
        CHECK(sn_frame_draw(f, &v, cr, W, H, 1.0) == SN_OK);
        cairo_destroy(cr);
        cairo_surface_flush(s);
        const sn_layout *lo = sn_frame_layout(f, &v, &d);
        sn_panes p;
        sn_frame_panes(f, &v, W, H, 1.0, &p);
        double z = p.fitted.w / lo->width;
        const uint8_t *sw = sn_view_swaps(&v, k);
        for (size_t L = 0; L < lo->layer_count; L++) {
            const sn_layout_layer *ly = &lo->layer[L];
            const sn_layout_cmp *c = &lo->cmp[ly->first];
            /* a point on the segment, halfway between two wires */
            double wy = (lo->wire_y[c->a < c->b ? c->a : c->b]) + lo->pitch / 2;
            int px = (int)floor(p.fitted.x + c->x * z);
            int py = (int)floor(p.fitted.y + wy * z);
            sn_rgb got = pixel(s, px, py);
            sn_rgb want = L == k ? (sw[0] ? th->swap : th->noswap) : th->comparator;
            if (L == k && !sw[0])
                continue; /* dashed: the sample may fall into a gap */
            CHECKF(near(got, want), "step %zu layer %zu at (%d,%d): %.2f %.2f %.2f", k, L, px, py,
                   got.r, got.g, got.b);
            checked++;
        }
    }
    CHECK(checked > 20);
    /* the help overlay draws on top and the dark theme changes the background */
    sn_view_action(&v, SN_ACT_THEME);
    cairo_t *cr = cairo_create(s);
    CHECK(sn_frame_draw(f, &v, cr, W, H, 1.0) == SN_OK);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    CHECK(near(pixel(s, 1, 1), sn_theme_get(SN_THEME_DARK)->background));
    /* picking a bar follows that wire's element */
    sn_panes p;
    sn_frame_panes(f, &v, W, H, 1.0, &p);
    uint32_t wire;
    size_t step;
    CHECK(sn_frame_pick(f, &v, W, H, 1.0, p.bars.x + p.bars.w * (3.5 / 16), p.bars.y + 5, &wire,
                        &step));
    CHECK(wire == 3 && step == v.step);
    cairo_surface_destroy(s);
    sn_frame_destroy(f);
    sn_view_cleanup(&v);
}

/* The window's screenshot is the frame the state machine and frame drawer
 * give for the same keys (so the pixel checks above hold for the window):
 * run the real binary headless and compare pixel by pixel. */
static void test_screenshot_matches(void)
{
    const char *bin = getenv("SORTNET");
    if (!bin || !*bin) {
        printf("test_app: SORTNET unset, screenshot comparison skipped\n");
        return;
    }
    char png[64], errf[64], cmd[1024];
    snprintf(png, sizeof png, "/tmp/sn_test_app_%ld.png", (long)getpid());
    snprintf(errf, sizeof errf, "/tmp/sn_test_app_%ld.err", (long)getpid());
    snprintf(cmd, sizeof cmd,
             "SDL_VIDEODRIVER=offscreen '%s' view bitonic:16 --size 800x600 --random 3 "
             "--script 'right right right' --screenshot %s 2>%s",
             bin, png, errf);
    int rc = system(cmd);
    char err[1024] = "";
    FILE *ef = fopen(errf, "r");
    if (ef) {
        err[fread(err, 1, sizeof err - 1, ef)] = '\0';
        fclose(ef);
    }
    remove(errf);
    /* Only SDL without its offscreen driver (SDL's own words, as in
     * tests/lib.sh has_offscreen) passes over the comparison; any other
     * exit 3 (no window, no renderer) or a crash is a failure. */
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 3 &&
        strstr(err, "cannot open a display (offscreen not available)")) {
        printf("test_app: SDL has no offscreen video driver, screenshot comparison not run\n");
        return;
    }
    CHECKF(rc == 0, "sortnet view --screenshot: %s %d: %s", WIFEXITED(rc) ? "exit" : "status",
           WIFEXITED(rc) ? WEXITSTATUS(rc) : rc, err);
    cairo_surface_t *shot = cairo_image_surface_create_from_png(png);
    remove(png);
    CHECK(cairo_surface_status(shot) == CAIRO_STATUS_SUCCESS);
    if (cairo_surface_status(shot) != CAIRO_STATUS_SUCCESS)
        return;
    CHECK(cairo_image_surface_get_width(shot) == 800);
    CHECK(cairo_image_surface_get_height(shot) == 600);
    sn_view v;
    sn_view_input in = rnd(3);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:16", &in, &d) == SN_OK);
    for (int i = 0; i < 3; i++)
        sn_view_action(&v, SN_ACT_RIGHT);
    v.anim_ms = 0;
    sn_frame *f = sn_frame_create();
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 800, 600);
    cairo_t *cr = cairo_create(s);
    CHECK(sn_frame_draw(f, &v, cr, 800, 600, 1.0) == SN_OK);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    long differ = 0;
    for (int y = 0; y < 600; y++)
        for (int x = 0; x < 800; x++)
            if (!near(pixel(s, x, y), pixel(shot, x, y)))
                differ++;
    CHECKF(differ == 0, "%ld pixels differ between the screenshot and the frame", differ);
    cairo_surface_destroy(s);
    cairo_surface_destroy(shot);
    sn_frame_destroy(f);
    sn_view_cleanup(&v);
}

/* The bracket text of a network: "[(0,1),(2,3)] [(1,2)]". */
static const char *layers_text(const sn_network *net, char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < sn_network_layer_count(net); k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        used += (size_t)snprintf(buf + used, cap - used, "%s[", k ? " " : "");
        for (size_t i = 0; i < count && used < cap; i++)
            used +=
                (size_t)snprintf(buf + used, cap - used, "%s(%u,%u)", i ? "," : "", c[i].a, c[i].b);
        if (used < cap)
            used += (size_t)snprintf(buf + used, cap - used, "]");
    }
    return buf;
}

/* out (consumed) has exactly the layers want. */
static void check_layers(sn_network *out, const char *want, const char *what)
{
    char buf[256];
    CHECKF(out && strcmp(layers_text(out, buf, sizeof buf), want) == 0, "%s: %s", what,
           out ? buf : "no network");
    sn_network_destroy(out);
}

static sn_network *parse_net(const char *text)
{
    sn_network *net = NULL;
    sn_diag d;
    CHECK(sn_network_parse(text, strlen(text), SN_FORMAT_BRACKET, &net, &d) == SN_OK);
    return net;
}

/* The pure edit operations: where an insert goes, what delete and move
 * leave behind, and the refusals that change nothing. */
static void test_edit_ops(void)
{
    char buf[256];
    sn_diag d;
    sn_network *net = parse_net("[(0,1),(2,3)]\n[(0,2)]\n[(1,2)]\n");
    sn_network *out = NULL;
    size_t layer = 99, index = 99;
    /* the earliest layer from column 0 with wires 1 and 3 free is layer 1 */
    CHECK(sn_edit_free_layer(net, 1, 3, 0) == 1);
    CHECK(sn_edit_insert(net, 1, 3, 0, &out, &layer, &index, &d) == SN_OK);
    CHECK(layer == 1 && index == 1);
    check_layers(out, "[(0,1),(2,3)] [(0,2),(1,3)] [(1,2)]", "insert");
    /* from column 2 on: layer 2 uses wire 1, so a layer of its own there */
    CHECK(sn_edit_free_layer(net, 1, 3, 2) == 3);
    CHECK(sn_edit_insert(net, 3, 1, 2, &out, &layer, &index, &d) == SN_OK); /* reversed */
    CHECK(layer == 2 && index == 0);
    check_layers(out, "[(0,1),(2,3)] [(0,2)] [(3,1)] [(1,2)]", "reversed, own layer");
    /* from the column after the last layer (or beyond): a new last layer */
    CHECK(sn_edit_insert(net, 3, 1, 7, &out, &layer, &index, &d) == SN_OK);
    CHECK(layer == 3);
    check_layers(out, "[(0,1),(2,3)] [(0,2)] [(1,2)] [(3,1)]", "reversed at the end");
    /* kept in order of the upper wire inside a layer */
    CHECK(sn_edit_insert(net, 3, 0, 3, &out, &layer, &index, &d) == SN_OK);
    CHECK(sn_edit_after_last(net, 0, 3) == 2 && sn_edit_after_last(net, 3, 3) == 1);
    sn_network_destroy(out);
    sn_network *three = parse_net("[(1,2)]\n[(3,4)]\n");
    CHECK(sn_edit_insert(three, 0, 3, 0, &out, &layer, &index, &d) == SN_OK);
    CHECK(layer == 0 && index == 0);
    check_layers(out, "[(0,3),(1,2)] [(3,4)]", "order");
    sn_network_destroy(three);
    /* delete: a layer left empty goes away */
    CHECK(sn_edit_delete(net, 1, 0, &out, &d) == SN_OK);
    check_layers(out, "[(0,1),(2,3)] [(1,2)]", "delete");
    CHECK(sn_edit_delete(net, 0, 1, &out, &d) == SN_OK);
    check_layers(out, "[(0,1)] [(0,2)] [(1,2)]", "delete from layer 0");
    /* move (2,3) of layer 1 to column 0: its layer empties and goes, and
     * layer 0 has room for it */
    sn_network *chain = parse_net("[(0,1)]\n[(2,3)]\n[(1,2)]\n");
    CHECK(sn_edit_move(chain, 1, 0, 0, &out, &layer, &index, &d) == SN_OK);
    CHECK(layer == 0 && index == 1);
    check_layers(out, "[(0,1),(2,3)] [(1,2)]", "move");
    sn_network_destroy(chain);
    /* move (0,2) of layer 1 to the end: the emptied layer goes, the column
     * counted before the move still means "after the last layer" */
    CHECK(sn_edit_move(net, 1, 0, 3, &out, &layer, &index, &d) == SN_OK);
    CHECK(layer == 2);
    check_layers(out, "[(0,1),(2,3)] [(1,2)] [(0,2)]", "move to the end");
    /* refusals: a clear message, no network */
    out = (sn_network *)1;
    CHECK(sn_edit_insert(net, 2, 2, 0, &out, NULL, NULL, &d) == SN_EINVAL && out == NULL);
    CHECK(strstr(d.text, "two different wires") != NULL);
    CHECK(sn_edit_insert(net, 0, 4, 0, &out, NULL, NULL, &d) == SN_EINVAL && out == NULL);
    CHECKF(strstr(d.text, "wire 4 does not exist") != NULL, "%s", d.text);
    CHECK(sn_edit_delete(net, 3, 0, &out, &d) == SN_EINVAL && out == NULL);
    /* messages count layers and comparators from 1, as the status line;
     * the range the script verbs take is said too */
    CHECKF(strstr(d.text, "no layer 4: the network has 3 (script verbs number them 0 to 2)") !=
               NULL,
           "%s", d.text);
    CHECK(sn_edit_delete(net, 1, 1, &out, &d) == SN_EINVAL && out == NULL);
    CHECKF(strstr(d.text, "layer 2 has no comparator 2: it has 1") != NULL, "%s", d.text);
    CHECK(sn_edit_move(net, 0, 5, 1, &out, NULL, NULL, &d) == SN_EINVAL && out == NULL);
    CHECKF(strcmp(layers_text(net, buf, sizeof buf), "[(0,1),(2,3)] [(0,2)] [(1,2)]") == 0,
           "the original never changes: %s", buf);
    CHECK(sn_edit_format_for("a/b.json") == SN_FORMAT_JSON);
    CHECK(sn_edit_format_for("x.sn") == SN_FORMAT_SN);
    CHECK(sn_edit_format_for("x.txt") == SN_FORMAT_BRACKET);
    CHECK(sn_edit_format_for("dir.json/x") == SN_FORMAT_BRACKET);
    sn_network_destroy(net);
}

/* Run the counterexample bits through the reference executor: unsorted. */
static bool cex_fails(const sn_view *v)
{
    uint32_t keys[64];
    for (uint32_t i = 0; i < v->n; i++)
        keys[i] = (uint32_t)(v->cex[i] - '0');
    for (size_t k = 0; k < v->layers; k++)
        sn_exec_layer(v->sched, k, SN_KEY_U32, keys, NULL, NULL);
    return !sorted(SN_KEY_U32, keys, v->n);
}

/* The view's edit mode: build, verdict, undo / redo, refusals, saving. */
static void test_edit_view(void)
{
    sn_view v;
    sn_view_input in = rnd(5);
    sn_diag d;
    char buf[256];
    CHECK(sn_view_init(&v, "empty:4", &in, &d) == SN_OK);
    CHECK(v.edit && v.layers == 0 && !sn_view_unsaved(&v)); /* empty:N starts editing */
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_FAILS);
    static const uint32_t adds[5][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {1, 2}};
    for (int i = 0; i < 5; i++)
        CHECK(sn_view_edit_add(&v, adds[i][0], adds[i][1], -1));
    CHECK(v.layers == 3 && v.cmp_before[3] == 5 && v.hist_count == 6 && sn_view_unsaved(&v));
    CHECK(v.sel_layer == 2 && v.sel_index == 0);
    /* the third layer is "layer 3" in what people read */
    CHECKF(strcmp(v.message, "added (1,2) in layer 3") == 0, "%s", v.message);
    CHECK(sn_view_edit_select(&v, 1, 0));
    CHECKF(strstr(v.message, "selected (0,2) of layer 2") == v.message, "%s", v.message);
    CHECK(!sn_view_edit_select(&v, 5, 0));
    CHECKF(strstr(v.message, "select:5,0: there is no layer 6: the network has 3") == v.message,
           "%s", v.message);
    sn_view_settle(&v);
    CHECKF(v.verdict == SN_VERDICT_SORTS, "verdict %d", (int)v.verdict);
    CHECK(strcmp(sn_view_verdict_text(&v, buf, sizeof buf), "sorts") == 0);
    CHECKF(strcmp(sn_view_size_text(&v, buf, sizeof buf),
                  "5 comparators, best known 5; 3 layers") == 0,
           "%s", buf);
    /* refusals change nothing */
    uint64_t id = v.net_id;
    CHECK(!sn_view_edit_add(&v, 1, 1, -1) && v.message_error && strstr(v.message, "different"));
    CHECK(!sn_view_edit_add(&v, 0, 4, -1) && strstr(v.message, "wire 4 does not exist"));
    CHECK(!sn_view_edit_delete(&v, 3, 0) && strstr(v.message, "del:3,0: there is no layer 4"));
    CHECK(!sn_view_edit_delete(&v, 2, 1) && strstr(v.message, "nothing changed"));
    CHECK(!sn_view_edit_move(&v, 0, 2, 0));
    CHECK(!sn_view_edit_select(&v, 1, 7));
    CHECK(v.net_id == id && v.hist_count == 6 && v.hist_pos == 5);
    /* delete the last comparator: does NOT sort, and the counterexample
     * really fails */
    CHECK(sn_view_edit_delete(&v, 2, 0));
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_FAILS && strlen(v.cex) == 4 && cex_fails(&v));
    sn_view_verdict_text(&v, buf, sizeof buf);
    CHECKF(strstr(buf, "does NOT sort: counterexample ") == buf, "%s", buf);
    /* B plays the counterexample */
    CHECK(sn_view_action(&v, SN_ACT_COUNTER) && v.input_kind == SN_INPUT_BITS);
    CHECK(strcmp(v.bits, v.cex) == 0);
    /* undo brings the sorting network back, redo the broken one */
    CHECK(sn_view_action(&v, SN_ACT_UNDO) && v.layers == 3 && v.hist_pos == 5);
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_SORTS);
    CHECK(sn_view_action(&v, SN_ACT_REDO) && v.layers == 2);
    sn_view_action(&v, SN_ACT_REDO); /* nothing to redo */
    CHECK(strstr(v.message, "nothing to redo") && v.hist_pos == 6);
    for (int i = 0; i < 10; i++)
        sn_view_action(&v, SN_ACT_UNDO);
    CHECK(v.hist_pos == 0 && v.layers == 0 && !sn_view_unsaved(&v));
    for (int i = 0; i < 5; i++)
        sn_view_action(&v, SN_ACT_REDO);
    CHECK(v.hist_pos == 5 && v.layers == 3);
    /* a new edit drops what could be redone */
    CHECK(sn_view_edit_add(&v, 3, 0, 0)); /* reversed, into the first free layer from 0 */
    CHECK(v.hist_count == 7 && v.sel_layer == 2);
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_FAILS); /* (3,0) puts the minimum on wire 3 */
    sn_view_action(&v, SN_ACT_UNDO);
    /* select, Tab and Delete */
    CHECK(sn_view_edit_select(&v, 1, 1) && v.sel_layer == 1 && v.sel_index == 1);
    sn_view_action(&v, SN_ACT_SELECT);
    CHECK(v.sel_layer == 2 && v.sel_index == 0);
    sn_view_action(&v, SN_ACT_SELECT); /* wraps */
    CHECK(v.sel_layer == 0 && v.sel_index == 0);
    CHECK(sn_view_action(&v, SN_ACT_DELETE) && v.layers == 3 && v.cmp_before[3] == 4);
    CHECK(v.sel_layer == -1);
    sn_view_action(&v, SN_ACT_DELETE);
    CHECK(v.message_error && strstr(v.message, "nothing selected"));
    /* redundant comparators: a second (0,1) never swaps */
    sn_view_action(&v, SN_ACT_UNDO);
    CHECK(sn_view_edit_add(&v, 0, 1, 3));
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_SORTS && v.redundant_count == 1);
    CHECK(sn_view_is_redundant(&v, 5) && !sn_view_is_redundant(&v, 4));
    /* quitting asks again while edits are unsaved; saving clears that */
    sn_view_action(&v, SN_ACT_QUIT);
    CHECK(!(v.requests & SN_REQ_QUIT) && v.quit_armed);
    char path[64];
    snprintf(path, sizeof path, "/tmp/sn_test_edit_%ld.json", (long)getpid());
    CHECK(sn_view_save(&v, path) && !sn_view_unsaved(&v) && strcmp(v.file, path) == 0);
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load(path, &s, &d) == SN_OK && sn_schedule_size(s) == 6);
    sn_schedule_destroy(s);
    remove(path);
    CHECK(!sn_view_save(&v, "/nonexistent-dir/x.txt") && v.message_error);
    sn_view_action(&v, SN_ACT_QUIT);
    CHECK(v.requests & SN_REQ_QUIT);
    v.requests = 0;
    /* E off: edits are refused, the network stays */
    sn_view_action(&v, SN_ACT_EDIT);
    CHECK(!v.edit && !sn_view_edit_add(&v, 0, 1, -1) && strstr(v.message, "press E"));
    sn_view_cleanup(&v);

    /* any network can be edited: a closed form becomes explicit */
    CHECK(sn_view_init(&v, "bitonic:8", &in, &d) == SN_OK);
    CHECK(!v.edit);
    sn_view_action(&v, SN_ACT_EDIT);
    CHECK(v.edit && v.hist_count == 1);
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_SORTS);
    CHECK(sn_view_edit_delete(&v, 0, 0));
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_FAILS && cex_fails(&v));
    /* switching networks with unsaved edits is refused */
    sn_view_action(&v, SN_ACT_GEN2);
    CHECK(v.message_error && strstr(v.message, "unsaved edits") && v.layers == 6);
    sn_view_action(&v, SN_ACT_UNDO);
    sn_view_action(&v, SN_ACT_GEN2); /* nothing unsaved: allowed, still editing */
    CHECK(strcmp(v.name, "oddeven-merge:8") == 0 && v.edit && v.hist_count == 1);
    /* an edit cancels a running check; cleanup joins the worker */
    CHECK(sn_view_edit_add(&v, 0, 7, -1));
    CHECK(sn_view_edit_add(&v, 1, 6, -1));
    sn_view_cleanup(&v);
}

/* Out of memory at every allocation of opening an edit session and
 * checking it (as SQLite's OOM tests): each run either opens or fails
 * with SN_ENOMEM, and nothing leaks. The run whose failure is the
 * checker's worker once leaked the network copy made for it (issue 36). */
static void test_edit_oom(void)
{
    sn_view_input in = rnd(5);
    size_t base = sn_alloc_live();
    bool worker_failed = false;
    for (size_t k = 1; k < 10000; k++) {
        sn_view v;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_view_init(&v, "empty:4", &in, &d);
        if (st == SN_OK) {
            sn_view_settle(&v);
            if (strstr(v.verdict_why, "could not start the checker"))
                worker_failed = true;
            sn_view_cleanup(&v);
        } else {
            CHECKF(st == SN_ENOMEM, "countdown %zu: %s", k, d.text);
        }
        size_t made = sn_alloc_fail_after(0);
        CHECKF(sn_alloc_live() == base, "countdown %zu: %zu block(s) leaked", k,
               sn_alloc_live() - base);
        if (st == SN_OK && made < k)
            break; /* every allocation has failed once */
    }
    CHECK(worker_failed); /* the path of the fixed leak was taken */
}

/* ---- out of memory in the middle of an action */

typedef struct oom_case {
    const char *spec; /* the view it starts from */
    const char *what;
    void (*prepare)(sn_view *v); /* before the countdown (NULL: nothing) */
    void (*op)(sn_view *v);      /* the action under the countdown */
} oom_case;

static void op_gen3(sn_view *v)
{
    sn_view_action(v, SN_ACT_GEN3);
}
static void op_n_up(sn_view *v)
{
    sn_view_action(v, SN_ACT_N_UP);
}
static void op_best(sn_view *v)
{
    sn_view_action(v, SN_ACT_BEST);
}
static void op_random(sn_view *v)
{
    sn_view_action(v, SN_ACT_RANDOM);
}
static void op_reverse(sn_view *v)
{
    sn_view_action(v, SN_ACT_REVERSE);
}
static void op_bits(sn_view *v)
{
    sn_view_action(v, SN_ACT_BITS);
}
static void op_counter(sn_view *v)
{
    sn_view_action(v, SN_ACT_COUNTER);
}
static void op_edit(sn_view *v)
{
    sn_view_action(v, SN_ACT_EDIT);
}
static void op_add(sn_view *v)
{
    sn_view_edit_add(v, 0, 3, -1);
}
static void op_delete(sn_view *v)
{
    sn_view_edit_delete(v, 0, 0);
}
static void op_move(sn_view *v)
{
    sn_view_edit_move(v, 0, 0, 2);
}
static void op_undo(sn_view *v)
{
    sn_view_action(v, SN_ACT_UNDO);
}
static void op_redo(sn_view *v)
{
    sn_view_action(v, SN_ACT_REDO);
}
static void op_race_load(sn_view *v)
{
    sn_view_race_load(v);
}
static void prep_edit(sn_view *v)
{
    sn_view_action(v, SN_ACT_EDIT);
}
static void prep_added(sn_view *v)
{
    sn_view_edit_add(v, 0, 1, -1);
}
static void prep_undone(sn_view *v)
{
    sn_view_edit_add(v, 0, 1, -1);
    sn_view_action(v, SN_ACT_UNDO);
}
static void prep_raced(sn_view *v)
{
    if (sn_view_race_start(v, false))
        sn_view_race_wait(v);
}

/* What an action may change: the network, its version, the input, the
 * modes. */
static void signature(const sn_view *v, char *buf, size_t cap)
{
    char in[128];
    snprintf(buf, cap, "%.100s|%zu/%zu|%u|%.100s|%.100s|%d%d%d|%d|%zu", v->name, v->hist_pos,
             v->hist_count, v->n, sn_view_input_text(v, in, sizeof in),
             v->input_kind == SN_INPUT_BITS ? v->bits : "-", v->edit, v->zero_one, v->structure,
             (int)v->race_snap.state, v->layers);
}

/* Every allocation of each action fails in turn (as SQLite's OOM tests):
 * the view ends either as the action without failure leaves it or as it
 * was before with "out of memory" on the message line, it still steps
 * through its network, and nothing leaks. */
static void test_view_oom(void)
{
    static const oom_case cases[] = {
        {"bitonic:8", "key 3", NULL, op_gen3},
        {"bitonic:8", "]", NULL, op_n_up},
        {"bitonic:8", "key 7", NULL, op_best},
        {"bitonic:8", "R", NULL, op_random},
        {"bitonic:8", "V", NULL, op_reverse},
        {"bitonic:8", "0", NULL, op_bits},
        {"bitonic:8", "B", NULL, op_counter},
        {"bitonic:8", "E", NULL, op_edit},
        {"bitonic:4", "add", prep_edit, op_add},
        {"bitonic:4", "delete", prep_edit, op_delete},
        {"bitonic:4", "move", prep_edit, op_move},
        {"empty:4", "redo", prep_undone, op_redo},
        {"empty:4", "undo", prep_added, op_undo},
        {"empty:4", "race load", prep_raced, op_race_load},
    };
    sn_view_input in = rnd(3);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const oom_case *oc = &cases[c];
        char before[512], after[512], got[512];
        size_t base = sn_alloc_live();
        bool failed_once = false;
        for (size_t k = 0; k < 100000; k++) { /* k = 0: the reference run */
            sn_view v;
            sn_diag d;
            sn_diag_clear(&d);
            if (sn_view_init(&v, oc->spec, &in, &d) != SN_OK) {
                CHECKF(false, "%s: %s", oc->spec, d.text);
                break;
            }
            if (oc->prepare)
                oc->prepare(&v);
            sn_view_settle(&v);
            signature(&v, k == 0 ? before : got, sizeof before);
            if (k > 0)
                CHECKF(strcmp(got, before) == 0, "%s: the start differs: %s", oc->what, got);
            unsigned long seq = v.message_seq;
            sn_alloc_fail_after(k);
            oc->op(&v);
            size_t made = sn_alloc_fail_after(0);
            sn_view_settle(&v);
            signature(&v, k == 0 ? after : got, sizeof after);
            if (k > 0 && made >= k) {
                failed_once = true;
                bool done = strcmp(got, after) == 0;
                bool said = strcmp(got, before) == 0 && v.message_seq != seq && v.message_error &&
                            strstr(v.message, "out of memory");
                CHECKF(done || said, "%s, allocation %zu failing: %s (message '%s')", oc->what, k,
                       got, v.message);
            }
            /* still whole: it steps to the end and back */
            sn_view_step_to(&v, v.layers, false);
            CHECKF(v.step == v.layers, "%s, allocation %zu failing: step %zu of %zu", oc->what, k,
                   v.step, v.layers);
            CHECK(sn_view_values(&v) != NULL);
            sn_view_step_to(&v, 0, false);
            sn_view_cleanup(&v);
            CHECKF(sn_alloc_live() == base, "%s, allocation %zu failing: %zu block(s) leaked",
                   oc->what, k, sn_alloc_live() - base);
            if (k > 0 && made < k)
                break; /* every allocation of the action has failed once */
        }
        CHECKF(failed_once, "%s: no allocation to fail", oc->what);
    }
}

/* The view's rarer answers: Tab with nothing to select, a followed wire
 * beyond a smaller n, switching over unsaved edits, inputs set from
 * outside, the zoom's limits, playing a network that does not sort to the
 * end, stopping a race that is not running. */
static void test_view_edges(void)
{
    sn_view v;
    sn_diag d;
    sn_view_input in = rnd(4);
    CHECK(sn_view_init(&v, "empty:4", &in, &d) == SN_OK);
    sn_view_action(&v, SN_ACT_SELECT);
    CHECK(v.message_error && strstr(v.message, "no comparators yet"));
    CHECK(!sn_view_race_stop(&v) && v.message_error && strstr(v.message, "no race is running"));
    CHECK(sn_view_race_start(&v, false) && sn_view_race_wait(&v));
    CHECK(sn_view_race_stop(&v) && !v.message_error &&
          strstr(v.message, "has ended already (done)"));
    /* unsaved edits keep the best-known key and a reload from switching */
    CHECK(sn_view_edit_add(&v, 0, 1, -1) && sn_view_unsaved(&v));
    sn_view_action(&v, SN_ACT_BEST);
    CHECK(strcmp(v.name, "empty:4") == 0 && v.message_error && strstr(v.message, "unsaved edits"));
    sn_view_cleanup(&v);

    CHECK(sn_view_init(&v, "bitonic:8", &in, &d) == SN_OK);
    /* H: the help drawn over the frame (sn_frame_draw, as the page and
     * the tests paint) changes the picture */
    sn_frame *f = sn_frame_create();
    cairo_surface_t *plain = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 640, 400);
    cairo_surface_t *help = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 640, 400);
    cairo_t *cr = cairo_create(plain);
    CHECK(sn_frame_draw(f, &v, cr, 640, 400, 1.0) == SN_OK);
    cairo_destroy(cr);
    sn_view_action(&v, SN_ACT_HELP);
    CHECK(v.help);
    cr = cairo_create(help);
    CHECK(sn_frame_draw(f, &v, cr, 640, 400, 1.0) == SN_OK);
    cairo_destroy(cr);
    cairo_surface_flush(plain);
    cairo_surface_flush(help);
    CHECK(memcmp(cairo_image_surface_get_data(plain), cairo_image_surface_get_data(help),
                 (size_t)cairo_image_surface_get_stride(plain) * 400) != 0);
    cairo_surface_destroy(plain);
    cairo_surface_destroy(help);
    sn_frame_destroy(f);
    sn_view_action(&v, SN_ACT_HELP);
    /* a followed value past the new n is dropped */
    sn_view_follow_wire(&v, 7, 0);
    CHECK(v.follow == (long)sn_view_payload(&v)[7]);
    sn_view_follow_wire(&v, 8, 0); /* no such wire: nothing changes */
    CHECK(v.follow >= 0);
    CHECK(sn_view_action(&v, SN_ACT_N_DOWN) && v.n == 4 && v.follow == -1);
    /* the zoom stays within 1 to 64 times, and ignores what is not a number */
    sn_view_zoom(&v, 1e6, 0.5, 0.5);
    CHECK(v.zoom == 64);
    sn_view_zoom(&v, NAN, 0.5, 0.5);
    CHECK(v.zoom == 64);
    sn_view_zoom(&v, 1e-9, 0.5, 0.5);
    CHECK(v.zoom == 1);
    /* an input from outside: bits too long refused; a seed kept */
    char many[SN_VIEW_MAX_N + 8];
    memset(many, '1', sizeof many - 1);
    many[sizeof many - 1] = '\0';
    sn_view_input bits = {SN_INPUT_BITS, 0, many, SN_KEY_I32};
    CHECK(sn_view_set_input(&v, &bits, &d) == SN_EPARSE && strstr(d.text, "digits 0 or 1"));
    sn_view_input seeded = rnd(77);
    CHECK(sn_view_set_input(&v, &seeded, &d) == SN_OK && v.seed == 77);
    sn_view_cleanup(&v);

    /* played to the end, a network that does not sort says where */
    static const char text[] = "[(0,1)]\n[(1,2)]\n";
    sn_network *net = NULL;
    sn_schedule *s = NULL;
    CHECK(sn_network_parse(text, sizeof text - 1, SN_FORMAT_BRACKET, &net, &d) == SN_OK);
    CHECK(net && sn_schedule_from_network(net, &s) == SN_OK);
    sn_view_input rev = {SN_INPUT_REVERSE, 0, NULL, SN_KEY_I32};
    if (s && sn_view_init_schedule(&v, s, "two", NULL, &rev, &d) == SN_OK) {
        sn_view_action(&v, SN_ACT_PLAY);
        for (int i = 0; i < 600 && v.playing; i++)
            sn_view_tick(&v, 1000.0 / 60);
        CHECKF(!v.playing && v.message_error &&
                   strcmp(v.message, "done: NOT sorted (first out of order at wire 0)") == 0,
               "%s", v.message);
        sn_view_cleanup(&v);
    } else {
        CHECKF(false, "[(0,1)] [(1,2)]: %s", d.text);
    }
}

/* Edit mode's hit test finds wires, columns and comparators where the
 * layout puts them, including the drop room right of the last layer. */
static void test_edit_hit(void)
{
    sn_view v;
    sn_view_input in = rnd(2);
    sn_diag d;
    CHECK(sn_view_init(&v, "empty:4", &in, &d) == SN_OK);
    CHECK(sn_view_edit_add(&v, 0, 1, -1) && sn_view_edit_add(&v, 2, 3, -1));
    CHECK(sn_view_edit_add(&v, 1, 2, -1));
    sn_frame *f = sn_frame_create();
    const double W = 1280, H = 720;
    const sn_layout *lo = sn_frame_layout(f, &v, &d);
    sn_panes p;
    sn_frame_panes(f, &v, W, H, 1.0, &p);
    double z = p.fitted.h / lo->height; /* fitted box: the layout plus the drop room */
    sn_frame_hit h;
    /* the middle of comparator (2,3) of layer 0 */
    const sn_layout_cmp *c = &lo->cmp[lo->layer[0].first + 1];
    CHECK(sn_frame_edit_hit(f, &v, W, H, 1.0, p.fitted.x + c->x * z,
                            p.fitted.y + (c->y0 + c->y1) / 2 * z, &h));
    CHECK(h.layer == 0 && h.index == 1 && h.col == 0);
    /* wire 3 a pitch right of the last wire end: no comparator, column 2 */
    CHECK(sn_frame_edit_hit(f, &v, W, H, 1.0, p.fitted.x + (lo->wire_x1 + lo->pitch) * z,
                            p.fitted.y + lo->wire_y[3] * z + 2, &h));
    CHECK(h.wire_hit && h.wire == 3 && h.layer == -1 && h.col == 2);
    /* between layers 0 and 1 on wire 0 */
    CHECK(sn_frame_edit_hit(f, &v, W, H, 1.0, p.fitted.x + lo->step_x[1] * z,
                            p.fitted.y + lo->wire_y[0] * z, &h));
    CHECK(h.wire == 0 && h.col == 1 && h.layer == -1);
    /* the bars pane is not the network */
    CHECK(!sn_frame_edit_hit(f, &v, W, H, 1.0, p.bars.x + 5, p.bars.y + 5, &h));
    sn_frame_destroy(f);
    sn_view_cleanup(&v);
}

/* A click on a bar while a step animates follows the element drawn
 * there, not the one whose slot it is (the pick asks the frame's scene). */
static void test_pick_animated_bar(void)
{
    sn_view v;
    sn_view_input in = {SN_INPUT_REVERSE, 0, NULL, SN_KEY_I32}; /* every comparator swaps */
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:8", &in, &d) == SN_OK);
    const double W = 1280, H = 720;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)W, (int)H);
    cairo_t *cr = cairo_create(s);
    sn_frame *f = sn_frame_create();
    CHECK(sn_view_action(&v, SN_ACT_RIGHT) && v.anim_ms > 0);
    sn_view_tick(&v, v.anim_total * 0.3); /* the bars have left their slots */
    CHECK(v.anim_ms > 0);
    CHECK(sn_frame_draw(f, &v, cr, W, H, 1.0) == SN_OK);
    sn_group g;
    memset(&g, 0, sizeof g);
    g.view[0] = v;
    g.count = 1;
    sn_scene *sc = sn_scene_create(W, H);
    sn_frame *tmp = sn_frame_create();
    CHECK(sn_frame_scene_group(&tmp, &g, NULL, W, H, 1.0, sc) == SN_OK);
    sn_panes p;
    sn_frame_panes(f, &v, W, H, 1.0, &p);
    size_t tried = 0;
    for (size_t i = 0; i < sn_scene_count(sc); i++) {
        const sn_prim *q = sn_scene_at(sc, i);
        if (q->kind != SN_PRIM_RECT || q->tag.role != SN_ROLE_BAR || q->tag.wire < 0)
            continue;
        double cx = (q->x0 + q->x1) / 2, cy = (q->y0 + q->y1) / 2;
        uint32_t slot = (uint32_t)floor((cx - p.bars.x) / (p.bars.w / v.n));
        if (slot == (uint32_t)q->tag.wire)
            continue; /* a bar that has not moved says nothing */
        uint32_t wire;
        size_t step;
        CHECK(sn_frame_pick(f, &v, W, H, 1.0, cx, cy, &wire, &step));
        CHECKF(wire == (uint32_t)q->tag.wire, "picked %u, drawn there: %d (slot %u)", wire,
               q->tag.wire, slot);
        tried++;
    }
    CHECK(tried >= 2);
    sn_scene_destroy(sc);
    sn_frame_destroy(tmp);
    sn_frame_destroy(f);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    sn_view_cleanup(&v);
}

/* Device x of comparator `index` of layer `layer` as the last frame drew it. */
static double cmp_device_x(sn_frame *f, const sn_view *v, double W, double H, size_t layer,
                           size_t index)
{
    sn_diag d;
    const sn_layout *lo = sn_frame_layout(f, v, &d);
    sn_panes p;
    sn_frame_panes(f, v, W, H, 1.0, &p);
    double ox, oy, z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
    return ox + lo->cmp[lo->layer[layer].first + index].x * z;
}

/* A comparator dragged from wire a to wire b at device x, as the window
 * does it (press: wire and column; release: the other wire), then a frame. */
static void drag_add(sn_frame *f, sn_view *v, cairo_t *cr, double W, double H, double x, uint32_t a,
                     uint32_t b)
{
    sn_diag d;
    const sn_layout *lo = sn_frame_layout(f, v, &d);
    sn_panes p;
    sn_frame_panes(f, v, W, H, 1.0, &p);
    double ox, oy, z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
    sn_frame_hit press, rel;
    CHECK(sn_frame_edit_hit(f, v, W, H, 1.0, x, oy + lo->wire_y[a] * z, &press));
    CHECK(sn_frame_edit_hit(f, v, W, H, 1.0, x, oy + lo->wire_y[b] * z, &rel));
    CHECK(press.wire_hit && rel.wire_hit && press.wire == a && rel.wire == b);
    CHECK(sn_view_edit_add(v, press.wire, rel.wire, (long)press.col));
    CHECK(sn_frame_draw(f, v, cr, W, H, 1.0) == SN_OK);
}

/* Right of the last layer, where a new column is dropped (device x). */
static double drop_x(sn_frame *f, const sn_view *v, double W, double H)
{
    sn_diag d;
    const sn_layout *lo = sn_frame_layout(f, v, &d);
    sn_panes p;
    sn_frame_panes(f, v, W, H, 1.0, &p);
    double ox, oy, z = sn_frame_net_transform(lo, v, &p, &ox, &oy);
    return ox + (lo->wire_x1 + lo->pitch) * z;
}

/* Adding comparators by mouse keeps the drawing where it was: a second
 * comparator dropped where the first one shows joins its layer, so
 * (0,1),(2,3) | (0,2),(1,3) | (1,2) make 3 layers, not 5 (issue 28). */
static void test_edit_stable(void)
{
    sn_view v;
    sn_view_input in = rnd(2);
    sn_diag d;
    CHECK(sn_view_init(&v, "empty:4", &in, &d) == SN_OK);
    CHECK(v.edit); /* empty:N opens in edit mode */
    const double W = 1280, H = 720;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)W, (int)H);
    cairo_t *cr = cairo_create(s);
    sn_frame *f = sn_frame_create();
    CHECK(sn_frame_draw(f, &v, cr, W, H, 1.0) == SN_OK);
    drag_add(f, &v, cr, W, H, drop_x(f, &v, W, H), 0, 1);
    double x0 = cmp_device_x(f, &v, W, H, 0, 0);
    drag_add(f, &v, cr, W, H, x0, 2, 3);
    CHECK(fabs(cmp_device_x(f, &v, W, H, 0, 0) - x0) < 0.01);
    drag_add(f, &v, cr, W, H, drop_x(f, &v, W, H), 0, 2);
    CHECKF(fabs(cmp_device_x(f, &v, W, H, 0, 0) - x0) < 0.01, "layer 1 moved layer 0");
    double x1 = cmp_device_x(f, &v, W, H, 1, 0);
    drag_add(f, &v, cr, W, H, x1, 1, 3);
    drag_add(f, &v, cr, W, H, drop_x(f, &v, W, H), 1, 2);
    CHECKF(fabs(cmp_device_x(f, &v, W, H, 0, 0) - x0) < 0.01 &&
               fabs(cmp_device_x(f, &v, W, H, 1, 0) - x1) < 0.01,
           "adding moved the drawing");
    CHECKF(v.layers == 3, "%zu layers", v.layers);
    sn_frame_destroy(f);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    sn_view_cleanup(&v);
}

/* W and Z: toggles, the layout follows them, the frame draws them. */
static void test_structure_and_zero_one_keys(void)
{
    CHECK(sn_action_parse("w") == SN_ACT_STRUCTURE && sn_action_parse("z") == SN_ACT_ZERO_ONE);
    CHECK(strcmp(sn_action_name(SN_ACT_STRUCTURE), "w") == 0);
    sn_view v;
    sn_view_input in = rnd(2);
    sn_diag d;
    CHECK(sn_view_init(&v, "bitonic:8", &in, &d) == SN_OK);
    sn_frame *f = sn_frame_create();
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1280, 720);
    CHECK(!v.structure && !v.zero_one);
    CHECK(sn_frame_layout(f, &v, &d)->block_count == 0);
    CHECK(sn_view_action(&v, SN_ACT_STRUCTURE) && v.structure);
    CHECK(strstr(v.message, "why it sorts") != NULL);
    const sn_layout *lo = sn_frame_layout(f, &v, &d);
    CHECK(lo->block_count == 7 && !lo->zero_one);
    CHECK(sn_view_action(&v, SN_ACT_ZERO_ONE) && v.zero_one);
    lo = sn_frame_layout(f, &v, &d);
    CHECK(lo->block_count == 7 && lo->zero_one);
    for (size_t k = 0; k <= v.layers; k++) {
        cairo_t *cr = cairo_create(s);
        CHECK(sn_frame_draw(f, &v, cr, 1280, 720, 1.0) == SN_OK);
        cairo_destroy(cr);
        sn_view_action(&v, SN_ACT_RIGHT);
        v.anim_ms = 0;
    }
    /* the panes give the network more room while either is shown */
    sn_panes with, without;
    sn_frame_panes(f, &v, 1280, 720, 1.0, &with);
    sn_view_action(&v, SN_ACT_STRUCTURE);
    sn_view_action(&v, SN_ACT_ZERO_ONE);
    CHECK(!v.structure && !v.zero_one);
    sn_frame_panes(f, &v, 1280, 720, 1.0, &without);
    CHECK(with.net.h > without.net.h);
    CHECK(sn_frame_layout(f, &v, &d)->block_count == 0);
    /* over the window's 0-1 limit: no chart, the message line says why */
    CHECK(sn_view_action(&v, SN_ACT_ZERO_ONE));
    CHECK(sn_view_action(&v, SN_ACT_N_UP) && sn_view_action(&v, SN_ACT_N_UP) && v.n == 32);
    CHECK(!sn_frame_layout(f, &v, &d)->zero_one);
    sn_view_action(&v, SN_ACT_ZERO_ONE);
    CHECK(sn_view_action(&v, SN_ACT_ZERO_ONE) && strstr(v.message, "n <= 20") != NULL);
    cairo_t *cr = cairo_create(s);
    CHECK(sn_frame_draw(f, &v, cr, 1280, 720, 1.0) == SN_OK);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    sn_frame_destroy(f);
    sn_view_cleanup(&v);
}

int main(void)
{
    test_stepping("bitonic:16");
    test_stepping("oddeven-merge:12");
    test_stepping("pairwise:9");
    test_stepping("insertion:7");
    test_play();
    test_inputs();
    test_generators();
    test_best_known();
    test_reload_and_counterexample();
    test_follow();
    test_camera();
    test_script();
    test_edit_ops();
    test_edit_view();
    test_edit_oom();
    test_view_oom();
    test_view_edges();
    test_edit_hit();
    test_edit_stable();
    test_pick_animated_bar();
    test_structure_and_zero_one_keys();
    test_frame_pixels();
    test_screenshot_matches();
    return sn_test_finish("test_app");
}
