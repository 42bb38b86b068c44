/* test_web_engine.c - the page's engine (src/web/engine.h) natively: what
 * the browser tests do in chromium, without a browser. Stepping against the
 * reference executor's trace, edit mode by clicks at the wires the scene
 * draws, the live verdict (in the caller and through a stand-in for the
 * page's worker), bad input, a lesson to its end, every export, the
 * packing of the scene. */
#include <jansson.h> /* for: json_loads (the state and the catalogue are JSON) */
#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check.h"
#include "core/exec.h"
#include "core/format.h"
#include "core/input.h"
#include "core/schedule.h"
#include "render/scene.h"
#include "render/scene_svg.h"
#include "session/session.h"
#include "sn_test.h"
#include "web/verdict_web.h"
#include "web/engine.h"
#include "web/engine_exercise.h" /* for: snw_json_string */

#define LEN(s) (s), strlen(s)

static int open_net(const char *spec, const char *input)
{
    return snw_open(LEN(spec), LEN(input));
}

static int act(const char *name)
{
    return snw_action(LEN(name));
}

/* The state, parsed (json_decref it). */
static json_t *state(void)
{
    json_error_t e;
    json_t *j = json_loads(snw_state(), 0, &e);
    CHECKF(j != NULL, "snw_state is not JSON: %s: %s", e.text, snw_state());
    return j;
}

static const char *str_of(json_t *j, const char *key)
{
    const char *s = json_string_value(json_object_get(j, key));
    return s ? s : "(none)";
}

static long long int_of(json_t *j, const char *key)
{
    return json_integer_value(json_object_get(j, key));
}

static void settle(void)
{
    for (int i = 0; i < 1000 && snw_busy(); i++)
        snw_tick(50);
}

/* One primitive of the packed scene. */
static const double *prim(size_t i)
{
    return snw_scene_prims() + i * SNW_PRIM_STRIDE;
}

/* The y and x extent of wire w as the last frame draws it (its longest
 * SN_ROLE_WIRE line); false when none. */
static bool wire_line(uint32_t w, double *y, double *x0, double *x1)
{
    double best = -1;
    for (size_t i = 0; i < snw_scene_count(); i++) {
        const double *p = prim(i);
        if (p[0] != SN_PRIM_LINE || p[2] != SN_ROLE_WIRE || p[3] != w)
            continue;
        double len = fabs(p[8] - p[6]);
        if (len > best) {
            best = len;
            *y = p[7];
            *x0 = fmin(p[6], p[8]);
            *x1 = fmax(p[6], p[8]);
        }
    }
    return best >= 0;
}

static void click_at(double x, double y)
{
    snw_pointer(0, x, y);
    snw_pointer(2, x, y);
}

/* Add comparator (a, b) by two clicks, right of the last layer. */
static void click_add(uint32_t a, uint32_t b)
{
    CHECK(snw_frame(900, 600, 1) == 0);
    double ya, yb, x0, x1, u0, u1;
    CHECKF(wire_line(a, &ya, &x0, &x1) && wire_line(b, &yb, &u0, &u1), "wires %u, %u drawn", a, b);
    double x = x0 + (x1 - x0) * 0.97;
    click_at(x, ya);
    json_t *s = state();
    CHECKF(int_of(s, "pending_wire") == a, "after the first click: pending %lld",
           int_of(s, "pending_wire"));
    json_decref(s);
    /* the first wire's dot is drawn where it was clicked */
    CHECK(snw_frame(900, 600, 1) == 0);
    bool dot = false;
    for (size_t i = 0; i < snw_scene_count(); i++) {
        const double *p = prim(i);
        if (p[0] == SN_PRIM_CIRCLE && p[2] == SN_ROLE_LABEL && fabs(p[7] - ya) < 1 &&
            fabs(p[6] - x) < 8)
            dot = true;
    }
    CHECK(dot);
    click_at(x, yb);
}

/* The network shown, parsed back from its bracket export. */
static sn_network *shown(void)
{
    const char *text = snw_export(LEN("bracket"));
    CHECK(text != NULL);
    sn_network *net = NULL;
    sn_diag d;
    if (text)
        CHECKF(sn_network_parse(text, strlen(text), SN_FORMAT_BRACKET, &net, &d) == SN_OK,
               "bracket export parses back: %s", d.text);
    return net;
}

static void test_stepping(void)
{
    CHECK(open_net("bitonic:8", "list:8,7,6,5,4,3,2,1") == 0);
    for (int i = 0; i < 3; i++)
        CHECK(act("right") == 1);
    settle();
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("bitonic:8", &s, &d) == SN_OK);
    uint32_t in[8];
    sn_input_spec spec = {SN_INPUT_LIST, 0, "8,7,6,5,4,3,2,1"};
    CHECK(sn_input_make(&spec, SN_KEY_I32, 8, in, &d) == SN_OK);
    sn_trace *tr = NULL;
    CHECK(sn_trace_record(s, SN_KEY_I32, in, NULL, SN_TRACE_FULL, &tr, &d) == SN_OK);
    json_t *st = state();
    CHECK(int_of(st, "step") == 3);
    CHECK(strcmp(str_of(st, "name"), "bitonic:8") == 0);
    json_t *vals = json_object_get(st, "values");
    CHECK(json_array_size(vals) == 8);
    const uint32_t *ref = tr ? sn_trace_state(tr, 3) : NULL;
    for (size_t i = 0; ref && i < 8; i++)
        CHECKF(json_integer_value(json_array_get(vals, i)) == (int32_t)ref[i],
               "wire %zu after 3 layers: %lld, the trace says %d", i,
               json_integer_value(json_array_get(vals, i)), (int32_t)ref[i]);
    CHECK(json_is_null(json_object_get(st, "sorted")));
    json_decref(st);
    /* step_to the end: sorted */
    CHECK(snw_step_to(1000) == 0);
    st = state();
    CHECK(int_of(st, "step") == int_of(st, "layers"));
    CHECK(json_is_true(json_object_get(st, "sorted")));
    json_decref(st);
    sn_trace_destroy(tr);
    sn_schedule_destroy(s);
}

static void test_scene_packing(void)
{
    CHECK(open_net("bitonic:8", "reverse") == 0);
    CHECK(snw_frame(1280, 720, 1) == 0);
    size_t count = snw_scene_count();
    CHECK(count > 50);
    size_t styles = snw_scene_style_count(), strings = snw_scene_strings_len(), points = 0;
    for (size_t i = 0; i < count; i++)
        if (prim(i)[0] == SN_PRIM_POLY)
            points = (size_t)fmax((double)points, prim(i)[14] + prim(i)[15]);
    bool name_seen = false;
    for (size_t i = 0; i < count; i++) {
        const double *p = prim(i);
        CHECKF(p[1] >= 0 && p[1] < (double)styles, "primitive %zu: style %g of %zu", i, p[1],
               styles);
        if (p[0] == SN_PRIM_TEXT) {
            CHECK(p[14] + p[15] <= (double)strings);
            const char *t = snw_scene_strings() + (size_t)p[14];
            if (p[2] == SN_ROLE_STATUS && p[15] == 9 && memcmp(t, "bitonic:8", 9) == 0)
                name_seen = true;
        }
    }
    CHECK(name_seen); /* the status line names the network */
    /* a style carries the colours the scene gave: alpha in 0..1 */
    for (size_t i = 0; i < styles; i++) {
        const double *s = snw_scene_styles() + i * SNW_STYLE_STRIDE;
        CHECK(s[3] >= 0 && s[3] <= 1 && s[7] >= 0 && s[7] <= 1);
    }
    /* the same frame again: the same list */
    size_t again = snw_scene_count();
    CHECK(snw_frame(1280, 720, 1) == 0);
    CHECK(snw_scene_count() == again);
    (void)points;
    CHECK(snw_frame(0, 720, 1) == 2);
    CHECK(strstr(snw_error(), "frame") != NULL);
}

/* The page's worker, stood in for: remembers the job. */
static uint32_t job_id;
static char job_text[4096];
static int starter(uint32_t id, const char *text, size_t len)
{
    job_id = id;
    snprintf(job_text, sizeof job_text, "%.*s", (int)len, text);
    return 1;
}

static void test_edit_by_clicks(void)
{
    CHECK(open_net("empty:4", "") == 0);
    json_t *st = state();
    CHECK(json_is_true(json_object_get(st, "edit")));
    json_decref(st);
    static const uint32_t net[5][2] = {{0, 1}, {2, 3}, {0, 2}, {1, 3}, {1, 2}};
    for (size_t i = 0; i < 5; i++) {
        click_add(net[i][0], net[i][1]);
        st = state();
        CHECKF(int_of(st, "size") == (long long)i + 1, "after click pair %zu: %lld comparators", i,
               int_of(st, "size"));
        json_decref(st);
    }
    snw_tick(0); /* no worker: the verdict is checked here */
    st = state();
    CHECKF(strcmp(str_of(st, "verdict_kind"), "sorts") == 0, "verdict %s", str_of(st, "verdict"));
    CHECK(strcmp(str_of(st, "verdict"), "sorts") == 0);
    CHECK(json_is_true(json_object_get(st, "can_undo")));
    json_decref(st);
    /* click on the last comparator (1,2) drawn: it is selected; delete it */
    CHECKF(snw_frame(900, 600, 1) == 0, "frame: %s", snw_error());
    bool clicked = false;
    for (size_t i = 0; i < snw_scene_count() && !clicked; i++) {
        const double *p = prim(i);
        if (p[0] == SN_PRIM_LINE && p[2] == SN_ROLE_COMPARATOR && p[5] == 4) {
            click_at((p[6] + p[8]) / 2, (p[7] + p[9]) / 2);
            clicked = true;
        }
    }
    CHECK(clicked);
    st = state();
    json_t *sel = json_object_get(st, "selected");
    CHECKF(json_array_size(sel) == 2, "a comparator is selected: %s", snw_state());
    json_decref(st);
    /* the deletion's verdict through the stand-in worker */
    sn_verdict_set_starter(starter);
    job_id = 0;
    CHECK(act("delete") == 1);
    CHECK(job_id != 0);
    st = state();
    CHECK(int_of(st, "size") == 4);
    CHECK(strcmp(str_of(st, "verdict_kind"), "checking") == 0);
    json_decref(st);
    const char *answer = snw_check_text(job_text, strlen(job_text));
    CHECKF(strncmp(answer, "v1 ok 0 4 ", 10) == 0, "answer %s", answer);
    CHECK(snw_verdict_deliver(job_id + 1000, answer, strlen(answer)) == 0); /* not its job */
    CHECK(snw_verdict_deliver(job_id, answer, strlen(answer)) == 1);
    sn_verdict_set_starter(NULL);
    st = state();
    CHECKF(strcmp(str_of(st, "verdict_kind"), "fails") == 0, "verdict %s", str_of(st, "verdict"));
    /* the same counterexample as the checker gives */
    sn_network *n4 = shown();
    sn_check_options opt;
    sn_check_options_init(&opt);
    sn_check_result res;
    sn_diag d;
    memset(&res, 0, sizeof res);
    CHECK(n4 && sn_check_run(n4, &opt, &res, &d) == SN_OK && !res.sorts);
    char cex[8] = "";
    for (uint32_t i = 0; res.counterexample && i < 4; i++)
        cex[i] = (char)('0' + res.counterexample[i]);
    CHECKF(strcmp(str_of(st, "cex"), cex) == 0, "cex %s, sn_check_run: %s", str_of(st, "cex"), cex);
    CHECK(strstr(str_of(st, "verdict"), cex) != NULL);
    CHECK(int_of(st, "failing") == (long long)res.failing_count);
    sn_check_result_free(&res);
    sn_network_destroy(n4);
    json_decref(st);
    /* the worker's text keeps n: an empty network and idle wires do not sort */
    sn_verdict_set_starter(starter);
    const char *idle[2][2] = {{"empty:4", NULL}, {NULL, "Inputs: 4\n\n0 1\n\n0 2\n\n1 2\n"}};
    for (int k = 0; k < 2; k++) {
        job_id = 0;
        if (idle[k][0])
            CHECK(open_net(idle[k][0], "") == 0);
        else
            CHECK(snw_open_text(LEN(idle[k][1]), LEN("idle.sn"), LEN("")) == 0 && act("e") == 1);
        CHECK(job_id != 0);
        const char *ans = snw_check_text(job_text, strlen(job_text));
        CHECK(snw_verdict_deliver(job_id, ans, strlen(ans)) == 1);
        json_t *si = state();
        CHECKF(strcmp(str_of(si, "verdict_kind"), "fails") == 0, "%s: %s (worker's text %s)",
               idle[k][0] ? idle[k][0] : "idle.sn", str_of(si, "verdict"), job_text);
        json_decref(si);
    }
    sn_verdict_set_starter(NULL);
    CHECK(open_net("empty:4", "") == 0);
    for (size_t i = 0; i < 5; i++)
        click_add(net[i][0], net[i][1]);
    CHECK(act("delete") == 1);
    /* undo brings the sorting network back */
    CHECK(act("undo") == 1);
    snw_tick(0);
    st = state();
    CHECK(int_of(st, "size") == 5);
    CHECK(strcmp(str_of(st, "verdict_kind"), "sorts") == 0);
    json_decref(st);
    /* a drag from wire 3 to wire 0 adds one too (the window's way) */
    CHECK(snw_frame(900, 600, 1) == 0);
    double y0 = 0, y3 = 0, x0 = 0, x1 = 0, u0 = 0, u1 = 0;
    CHECK(wire_line(0, &y0, &x0, &x1) && wire_line(3, &y3, &u0, &u1));
    double x = x0 + (x1 - x0) * 0.97;
    snw_pointer(0, x, y3);
    CHECK(snw_pointer(1, x, (y3 + y0) / 2) == 1);
    snw_pointer(1, x, y0);
    snw_pointer(2, x, y0);
    st = state();
    CHECK(int_of(st, "size") == 6);
    json_decref(st);
    /* a cancelled press (a second finger: a pinch) adds nothing, and the
     * release after it is not a click */
    snw_pointer(0, x, y3);
    snw_pointer(1, x, y0);
    CHECK(snw_pointer(3, 0, 0) == 1);
    CHECK(snw_pointer(3, 0, 0) == 0);
    CHECK(snw_pointer(2, x, y0) == 0);
    snw_pointer(0, x, y3); /* a tap on wire 3, cancelled: not the first of a two-click add */
    snw_pointer(3, 0, 0);
    snw_pointer(0, x, y0);
    snw_pointer(2, x, y0);
    st = state();
    CHECK(int_of(st, "size") == 6);
    json_decref(st);
}

static void test_bad_input(void)
{
    CHECK(open_net("bitonic:4", "sorted") == 0);
    json_t *before = state();
    /* malformed text: file:line:column, the network stays */
    const char *bad = "[(0,1)]\n[(1,x)]\n";
    CHECK(snw_open_text(LEN(bad), LEN("bad.txt"), LEN("")) == 2);
    CHECKF(strncmp(snw_error(), "bad.txt:2:", 10) == 0, "error: %s", snw_error());
    CHECK(snw_open_text(LEN("[(0,1)]\n[(1,"), "", 0, "", 0) == 2);
    CHECKF(strncmp(snw_error(), "pasted:", 7) == 0, "error: %s", snw_error());
    json_t *after = state();
    CHECK(strcmp(str_of(after, "name"), str_of(before, "name")) == 0);
    CHECK(int_of(after, "size") == int_of(before, "size"));
    json_decref(after);
    /* names the page does not know, n over its limit, bad values */
    CHECK(open_net("nosuch:8", "") == 2);
    CHECK(strstr(snw_error(), "nosuch") != NULL);
    CHECK(open_net("net.txt", "") == 2);
    CHECK(strstr(snw_error(), "not a network name") != NULL);
    CHECK(open_net("bitonic:2048", "") == 2);
    CHECKF(strstr(snw_error(), "1024") != NULL, "error: %s", snw_error());
    CHECK(open_net("bitonic:4", "list:1,2,x,4") == 2);
    CHECKF(strstr(snw_error(), "'x'") != NULL, "error: %s", snw_error());
    CHECK(open_net("bitonic:4", "list:1,2") == 2);
    CHECKF(strncmp(snw_error(), "input: ", 7) == 0, "error: %s", snw_error());
    CHECK(open_net("bitonic:4", "sideways") == 2);
    CHECKF(strstr(snw_error(), "'sideways' is not an input") != NULL, "error: %s", snw_error());
    CHECK(open_net("", "") == 2);
    CHECKF(strstr(snw_error(), "empty network name") != NULL, "error: %s", snw_error());
    CHECK(snw_open_text(LEN("[(0,1)]\n"), LEN("two.txt"), LEN("bits:011")) == 2);
    CHECKF(strncmp(snw_error(), "input: ", 7) == 0, "error: %s", snw_error());
    CHECK(snw_set_input(LEN("list:1,2,3")) == 2);
    CHECKF(strncmp(snw_error(), "input: ", 7) == 0, "error: %s", snw_error());
    CHECK(snw_set_input(LEN("random:abc")) == 2);
    CHECK(snw_set_input(LEN("bits:0110")) == 0);
    after = state();
    CHECK(strcmp(str_of(after, "name"), str_of(before, "name")) == 0);
    json_t *vals = json_object_get(after, "values");
    CHECK(json_integer_value(json_array_get(vals, 1)) == 1);
    json_decref(after);
    json_decref(before);
    CHECK(act("nosuch") == 2);
    CHECK(snw_lesson_go(0) == 2); /* no lesson */
    /* JSON text: read here when jansson is built in; else said clearly */
    const char *js = "{\"N\":2,\"nw\":[[0,1]]}";
    int rc = snw_open_text(LEN(js), LEN("net.json"), LEN(""));
    if (sn_format_have_json())
        CHECK(rc == 0);
    else
        CHECK(rc == 2 && strstr(snw_error(), "jansson") != NULL);
    /* pasted text in another format opens, on the given input */
    const char *sn = "Inputs: 3\n\n0 1\n\n1 2\n\n0 1\n";
    CHECK(snw_open_text(LEN(sn), "", 0, LEN("reverse")) == 0);
    json_t *s3 = state();
    CHECK(int_of(s3, "n") == 3 && int_of(s3, "size") == 3);
    CHECK(strcmp(str_of(s3, "name"), "pasted") == 0);
    json_decref(s3);
}

/* Every text the engine hands the page goes through one JSON string
 * writer: quotes, backslashes and control characters escaped, and bytes
 * that are not well-formed UTF-8 (a stray byte, a sequence cut short, an
 * overlong form, a surrogate, past U+10FFFF) each become U+FFFD, so that
 * JSON.parse always succeeds; well-formed sequences pass as they are. */
static void test_json_strings(void)
{
    static const struct {
        const char *in, *out;
    } cs[] = {
        {"a\"b\\c", "\"a\\\"b\\\\c\""},
        {"\n\t\r\x01\x1f", "\"\\n\\t\\r\\u0001\\u001f\""},
        {"\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80", "\"\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\""},
        {"\xFF", "\"\xEF\xBF\xBD\""},
        {"x\xC3", "\"x\xEF\xBF\xBD\""},
        {"\xE0\x80\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"\xED\xA0\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"\xF0\x80\x80\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"\xF4\x90\x80\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""},
        {"\xF4\x8F\xBF\xBF", "\"\xF4\x8F\xBF\xBF\""},
    };
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        sn_textbuf b = {0};
        snw_json_string(&b, cs[i].in);
        CHECKF(b.len == strlen(cs[i].out) && memcmp(b.s, cs[i].out, b.len) == 0,
               "case %zu: %.*s", i, (int)b.len, b.s);
        sn_textbuf_free(&b);
    }
    /* an error message with a byte that is not UTF-8 still gives a state
     * that parses */
    CHECK(open_net("bitonic:4", "\xFFjunk") == 2);
    json_t *st = state();
    CHECK(st != NULL);
    json_decref(st);
    /* the page's allocator for the texts it hands over */
    char *m = snw_alloc(0);
    CHECK(m != NULL);
    snw_free(m);
}

static void test_lesson(void)
{
    CHECK(snw_lesson_open(NULL, 0, LEN("01")) == 0);
    json_t *st = state();
    json_t *l = json_object_get(st, "lesson");
    CHECK(json_is_object(l));
    long long count = json_integer_value(json_object_get(l, "count"));
    CHECK(count > 1);
    json_decref(st);
    for (long long i = 1; i < count; i++) {
        CHECK(act("right") == 1);
        CHECK(snw_frame(1280, 720, 1) == 0);
        st = state();
        l = json_object_get(st, "lesson");
        CHECK(json_integer_value(json_object_get(l, "step")) == i);
        CHECK(strlen(json_string_value(json_object_get(l, "caption"))) > 0);
        json_decref(st);
    }
    CHECK(act("right") == 1);
    st = state();
    CHECKF(strstr(str_of(st, "message"), "end of the lesson") != NULL, "message %s",
           str_of(st, "message"));
    json_decref(st);
    CHECK(snw_lesson_go((size_t)count) == 2);
    CHECK(snw_lesson_go(0) == 0);
    const char *bad = "title: x\n\nstep: one\nnet: bitonic:4\ntext: c\nkeys: nosuchkey\n";
    CHECK(snw_lesson_open(LEN(bad), LEN("my.lesson")) == 2);
    CHECKF(strncmp(snw_error(), "my.lesson:", 10) == 0, "error: %s", snw_error());
    st = state(); /* the old lesson stays */
    CHECK(json_is_object(json_object_get(st, "lesson")));
    json_decref(st);
    /* opening a network leaves the lesson */
    CHECK(open_net("best:5", "") == 0);
    st = state();
    CHECK(json_is_null(json_object_get(st, "lesson")));
    json_decref(st);
}

static void test_exports(void)
{
    CHECK(open_net("best:6", "random:3") == 0);
    sn_network *net = shown();
    CHECK(net && sn_network_wires(net) == 6);
    const char *sn = snw_export(LEN("sn"));
    sn_network *back = NULL;
    sn_diag d;
    CHECK(sn && sn_network_parse(sn, strlen(sn), SN_FORMAT_SN, &back, &d) == SN_OK);
    CHECK(back && net && sn_network_size(back) == sn_network_size(net));
    sn_network_destroy(back);
    back = NULL;
    const char *js = snw_export(LEN("json"));
    CHECK(js && strstr(js, "\"N\": 6") != NULL);
    if (js && sn_format_have_json()) {
        CHECK(sn_network_parse(js, strlen(js), SN_FORMAT_JSON, &back, &d) == SN_OK);
        CHECK(back && net && sn_network_size(back) == sn_network_size(net));
        sn_network_destroy(back);
    }
    sn_network_destroy(net);
    CHECK(snw_step_to(2) == 0);
    const char *svg = snw_export(LEN("svg"));
    CHECK(svg && strncmp(svg, "<?xml", 5) == 0 && strstr(svg, "<svg xmlns=") != NULL);
    CHECK(svg && strstr(svg, "</svg>\n") != NULL && strstr(svg, "<text") != NULL);
    CHECK(snw_export(LEN("png")) == NULL);
    CHECK(strstr(snw_error(), "png") != NULL);
}

/* "input_spec" says the input as snw_set_input takes it, after opening,
 * a key (R), and a lesson step that gives its own values: the page's
 * Input control shows it (it once said "random, seed 1" there). */
static void test_input_spec(void)
{
    static const char *const specs[] = {"random:7", "reverse", "sorted", "bits:01101001",
                                        "list:3,1,2,8,7,6,5,4"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        CHECK(open_net("bitonic:8", specs[i]) == 0);
        json_t *st = state();
        CHECKF(strcmp(str_of(st, "input_spec"), specs[i]) == 0, "%s: input_spec %s", specs[i],
               str_of(st, "input_spec"));
        json_decref(st);
    }
    /* a bare list of numbers is a list */
    CHECK(open_net("bitonic:8", "3,1,2,8,-7,6,5,4") == 0);
    json_t *st = state();
    CHECKF(strcmp(str_of(st, "input_spec"), "list:3,1,2,8,-7,6,5,4") == 0, "bare list: %s",
           str_of(st, "input_spec"));
    json_decref(st);
    CHECK(act("r") == 1);
    st = state();
    CHECKF(strncmp(str_of(st, "input_spec"), "random:", 7) == 0 &&
               strcmp(str_of(st, "input_spec"), "random:7") != 0,
           "after R: %s", str_of(st, "input_spec"));
    json_decref(st);
    /* lesson 02 gives its input: a list that sets the same values again */
    CHECK(snw_lesson_open(NULL, 0, LEN("02")) == 0);
    st = state();
    char spec[4096];
    snprintf(spec, sizeof spec, "%s", str_of(st, "input_spec"));
    json_decref(st);
    CHECKF(strncmp(spec, "list:", 5) == 0, "lesson 02: input_spec %s", spec);
    CHECK(snw_step_to(0) == 0);
    st = state();
    json_t *before = json_deep_copy(json_object_get(st, "values"));
    json_decref(st);
    CHECK(snw_set_input(LEN(spec)) == 0);
    CHECK(snw_step_to(0) == 0);
    st = state();
    CHECK(json_equal(before, json_object_get(st, "values")));
    CHECK(strcmp(str_of(st, "input_spec"), spec) == 0);
    json_decref(st);
    json_decref(before);
}

/* Is `text` one of the last frame's texts (a part of one, with `part`)? */
static bool frame_says(const char *text, bool part)
{
    const char *str = snw_scene_strings();
    for (size_t i = 0; i < snw_scene_count(); i++) {
        const double *p = prim(i);
        if (p[0] != SN_PRIM_TEXT)
            continue;
        size_t off = (size_t)p[14], len = (size_t)p[15];
        char buf[512];
        if (len >= sizeof buf)
            continue;
        memcpy(buf, str + off, len);
        buf[len] = '\0';
        if (part ? strstr(buf, text) != NULL : strcmp(buf, text) == 0)
            return true;
    }
    return false;
}

/* The help (H) lists the page's keys, not the window's: downloads for S
 * and P, O opens a file, Ctrl+S downloads the network; no OpenCL (G),
 * sound (M), reloading or quitting. */
static void test_help_keys(void)
{
    CHECK(open_net("bitonic:8", "random:1") == 0);
    CHECK(act("h") == 1);
    CHECK(snw_frame(1280, 720, 1) == 0);
    CHECK(frame_says("download the diagram as SVG / PNG", false));
    CHECK(frame_says("open a network file (or drop one here)", false));
    CHECK(frame_says("Ctrl+S", false));
    CHECK(!frame_says("OpenCL", true));
    CHECK(!frame_says("quit", true));
    CHECK(!frame_says("sound", true));
    CHECK(!frame_says("reload", true));
    /* M: no sound to toggle in the page, and it says so */
    CHECK(act("m") == 1);
    json_t *st = state();
    CHECKF(strstr(str_of(st, "message"), "no sound") != NULL, "after M: %s", str_of(st, "message"));
    json_decref(st);
    CHECK(act("e") == 1);
    st = state();
    CHECKF(strstr(str_of(st, "message"), "tap a wire, then another") != NULL, "after E: %s",
           str_of(st, "message"));
    json_decref(st);
    CHECK(act("e") == 1);
    /* a lesson's views serve the page too */
    CHECK(snw_lesson_open(NULL, 0, LEN("02")) == 0);
    CHECK(act("h") == 1);
    CHECK(snw_frame(390 * 3, 596 * 3, 3) == 0);
    CHECK(frame_says("download the diagram as SVG / PNG", false));
    CHECK(!frame_says("quit", true));
    CHECK(act("h") == 1);
}

static void test_catalog_and_answers(void)
{
    json_error_t e;
    json_t *c = json_loads(snw_catalog(), 0, &e);
    CHECKF(c != NULL, "catalogue: %s", e.text);
    CHECK(json_array_size(json_object_get(c, "generators")) >= 10);
    CHECK(json_array_size(json_object_get(c, "lessons")) >= 3);
    CHECK(json_integer_value(json_object_get(c, "max_n")) == 1024);
    CHECK(json_array_size(json_object_get(c, "actions")) > 20);
    json_decref(c);
    /* answers parse back */
    const char *a = snw_check_text(LEN("[(0,1)]\n"));
    CHECKF(strcmp(a, "v1 ok 1 2 0 - -") == 0, "answer %s", a);
    a = snw_check_text(LEN("[(0,1),(2,3)]\n[(0,1)]\n"));
    sn_verdict_result r;
    CHECKF(sn_verdict_parse_answer(a, strlen(a), &r), "answer %s", a);
    CHECK(r.status == SN_OK && !r.check.sorts && r.check.n == 4);
    CHECK(r.check.redundant_count == 1 && r.check.redundant && r.check.redundant[0] == 2);
    sn_check_result_free(&r.check);
    a = snw_check_text(LEN("[(0,"));
    CHECK(strncmp(a, "v1 error ", 9) == 0);
    CHECK(!sn_verdict_parse_answer(LEN("v1 ok 0 4 1 01x0 -"), &r));
    CHECK(!sn_verdict_parse_answer(LEN("hello"), &r));
}

/* The SVG painter on its own: XML specials escaped, clips balanced (an
 * unclosed one closed, a stray pop dropped), notes never painted. */
static void test_scene_svg(void)
{
    sn_scene *sc = sn_scene_create(100, 50);
    CHECK(sc != NULL);
    if (!sc)
        return;
    sn_scene_style st = sn_scene_stroke((sn_rgba){1, 0, 0, 0.5}, 2);
    st.dash_on = 3;
    st.dash_off = 2;
    sn_scene_clip_pop(sc);
    sn_scene_clip_push(sc, (sn_rect){0, 0, 50, 50}, SN_ROLE_PANEL);
    sn_scene_line(sc, 0, 1, 10, 1, &st, sn_scene_tag_of(SN_ROLE_WIRE));
    sn_scene_text(sc, 5, 20, "a<b&\"c'", 12, SN_FONT_BOLD, SN_TEXT_LEFT, (sn_rgba){0, 0, 0, 1},
                  sn_scene_tag_of(SN_ROLE_LABEL));
    sn_scene_note(sc, SN_NOTE_INFO, 0, "never painted");
    sn_point pts[3] = {{0, 0}, {4, 0}, {2, 3}};
    sn_scene_style f = sn_scene_fill((sn_rgba){0, 0, 1, 1});
    sn_scene_poly(sc, pts, 3, true, &f, sn_scene_tag_of(SN_ROLE_COMPARATOR));
    char *svg = NULL;
    size_t len = 0;
    CHECK(sn_scene_svg(sc, &svg, &len) == SN_OK && svg && strlen(svg) == len);
    if (svg) {
        CHECK(strstr(svg, ">a&lt;b&amp;&quot;c&apos;</text>") != NULL);
        CHECK(strstr(svg, "font-weight=\"bold\"") != NULL);
        CHECK(strstr(svg, "stroke-dasharray=\"3 2\"") != NULL);
        CHECK(strstr(svg, "stroke-opacity=\"0.5\"") != NULL);
        CHECK(strstr(svg, "<polygon points=\"0,0 4,0 2,3\"") != NULL);
        CHECK(strstr(svg, "never painted") == NULL);
        size_t open = 0, close = 0;
        for (const char *p = svg; (p = strstr(p, "<g ")) != NULL; p++)
            open++;
        for (const char *p = svg; (p = strstr(p, "</g>")) != NULL; p++)
            close++;
        CHECKF(open == 1 && close == 1, "%zu groups opened, %zu closed", open, close);
        CHECK(strcmp(svg + len - 7, "</svg>\n") == 0);
    }
    sn_free(svg);
    sn_scene_destroy(sc);
}

/* The page's out-of-memory countdown over lesson steps and edit gestures:
 * every call may fail for want of memory (2 or 3, or a message in the
 * state), none may crash or leave the engine without a frame or a state. */
static void oom_round(void)
{
    if (snw_lesson_open(NULL, 0, LEN("01")) == 0) {
        for (int i = 0; i < 6; i++) {
            act(i < 3 ? "right" : "left");
            snw_frame(900, 600, 1);
        }
        snw_lesson_go(1);
    }
    if (open_net("empty:4", "") != 0)
        return;
    if (snw_frame(900, 600, 1) != 0)
        return;
    double ya, yb, x0, x1;
    if (!wire_line(0, &ya, &x0, &x1) || !wire_line(1, &yb, &x0, &x1))
        return;
    double x = x0 + (x1 - x0) * 0.97;
    click_at(x, ya);
    click_at(x, yb);
    snw_frame(900, 600, 1);
    snw_pointer(0, x, ya);
    snw_pointer(1, x, yb);
    snw_pointer(2, x, yb);
    act("undo");
    act("redo");
}

static void test_out_of_memory(void)
{
    sn_alloc_fail_after(0);
    oom_round();
    size_t total = sn_alloc_fail_after(0);
    CHECKF(total > 100, "a round makes %zu allocations", total);
    for (size_t k = 1; k <= total; k += 1) {
        sn_alloc_fail_after(k);
        oom_round();
        sn_alloc_fail_after(0);
        /* whole: a frame, a state that parses, a view */
        CHECKF(snw_frame(900, 600, 1) == 0, "k=%zu: the frame after the failure: %s", k,
               snw_error());
        json_t *st = state();
        CHECKF(st && int_of(st, "views") >= 1, "k=%zu: %s", k, snw_state());
        json_decref(st);
    }
}

/* For the same script the page's scene is the window's: the session the
 * window and the headless backend drive, fed the same events, builds the
 * same list of primitives as the page's engine. The session serves the
 * page's front-end here: that choice alone changes words (the help's
 * keys, the status line's OpenCL part, a hint), never the plumbing. */
static void test_scene_as_window(void)
{
    static const char *const script[] = {"right", "right", "z", "w", "t", "left", "e"};
    CHECK(open_net("bitonic:8", "random:5") == 0);
    sn_session s;
    sn_session_init(&s, SN_FRONT_PAGE);
    const char *spec = "bitonic:8";
    sn_view_input in = {SN_INPUT_RANDOM, 5, NULL, SN_KEY_I32};
    sn_group g;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_group_init(&g, &spec, 1, &in, &d) == SN_OK);
    CHECK(sn_session_show(&s, &g, false, &d) == SN_OK);
    sn_scene *sc = sn_scene_create(900, 600);
    CHECK(sc != NULL);
    for (size_t k = 0; k <= sizeof script / sizeof script[0]; k++) {
        if (k > 0) {
            act(script[k - 1]);
            sn_session_action(&s, sn_action_parse(script[k - 1]));
        }
        settle();
        sn_session_settle(&s);
        for (int i = 0; i < 1000 && sn_session_busy(&s); i++)
            sn_session_tick(&s, 50);
        CHECK(snw_frame(900, 600, 1) == 0);
        sn_session_resize(&s, 900, 600, 1);
        CHECK(sc && sn_session_scene(&s, sc) == SN_OK);
        if (!sc)
            break;
        size_t n = snw_scene_count();
        CHECKF(n == sn_scene_count(sc), "after %zu keys: %zu primitives, the window's %zu", k, n,
               sn_scene_count(sc));
        for (size_t i = 0; i < n && i < sn_scene_count(sc); i++) {
            const double *p = prim(i);
            const sn_prim *q = sn_scene_at(sc, i);
            bool same = p[0] == q->kind && p[2] == (double)q->tag.role && p[6] == q->x0 &&
                        p[7] == q->y0 && p[8] == q->x1 && p[9] == q->y1 && p[11] == q->size;
            if (same && (q->kind == SN_PRIM_TEXT || q->kind == SN_PRIM_NOTE)) {
                const char *t = sn_scene_str(sc, q);
                same = strlen(t) == (size_t)p[15] &&
                       memcmp(snw_scene_strings() + (size_t)p[14], t, strlen(t)) == 0;
            }
            if (!same) {
                CHECKF(same, "after %zu keys: primitive %zu differs (kind %g/%d at %g,%g / %g,%g)",
                       k, i, p[0], q->kind, p[6], p[7], q->x0, q->y0);
                break;
            }
        }
    }
    sn_scene_destroy(sc);
    sn_session_cleanup(&s);
}

int main(void)
{
    test_scene_svg();
    test_catalog_and_answers();
    test_stepping();
    test_scene_packing();
    test_edit_by_clicks();
    test_bad_input();
    test_json_strings();
    test_lesson();
    test_exports();
    test_help_keys();
    test_input_spec();
    test_scene_as_window();
    test_out_of_memory();
    return sn_test_finish("test_web_engine");
}
