/* test_session.c - the session behind every front-end (src/session), with
 * no platform at all: no SDL, no cairo, no browser (it links the session
 * and the core only). Edit mode's gestures (a drag from wire to wire, two
 * clicks, a click that selects, a drag that moves), the rules with several
 * views, lesson steps, the script player's failures, the state dump, and
 * an out-of-memory countdown over lesson steps and edit gestures: every
 * failure leaves a whole session (its frames too: the window's lesson step
 * once dereferenced a frame it had not checked) and nothing leaked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "session/session.h"
#include "sn_test.h"

/* empty:4 at 640x400, scale 1: the wires lie at y = 48, 87, 126, 165 and
 * the room to drop a new comparator at x = 330 (tests/cli_edit.sh). */
#define W 640.0
#define H 400.0
#define ROOM 330.0
static const double wire_y[4] = {48, 87, 126, 165};

static sn_scene *scene;

/* The frame as a backend shows it (the hit tests read the last one). */
static sn_status frame(sn_session *s)
{
    sn_session_resize(s, W, H, 1.0);
    return sn_session_scene(s, scene);
}

static sn_status show(sn_session *s, const char *const *specs, size_t count)
{
    sn_view_input in = {SN_INPUT_RANDOM, 1, NULL, SN_KEY_I32};
    sn_group g;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_group_init(&g, specs, count, &in, &d);
    if (st == SN_OK)
        st = sn_session_show(s, &g, false, &d);
    if (st == SN_OK)
        st = frame(s);
    return st;
}

static void click(sn_session *s, double x, double y)
{
    sn_session_pointer(s, SN_POINTER_PRESS, x, y);
    sn_session_pointer(s, SN_POINTER_RELEASE, x, y);
}

static void drag(sn_session *s, double x, double y, double x2, double y2)
{
    sn_session_pointer(s, SN_POINTER_PRESS, x, y);
    sn_session_pointer(s, SN_POINTER_MOVE, x2, y2);
    sn_session_pointer(s, SN_POINTER_RELEASE, x2, y2);
}

/* The shown network's comparators in layer order, "(0,1)(2,3)". */
static const char *net_text(sn_session *s, char *buf, size_t cap)
{
    sn_view *v = sn_session_main(s);
    size_t len = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < v->layers; k++) {
        sn_comparator c[8];
        size_t count = sn_schedule_layer_size(v->sched, k);
        sn_schedule_layer_pairs(v->sched, k, c, count < 8 ? count : 8);
        for (size_t i = 0; i < count && i < 8; i++)
            len += (size_t)snprintf(buf + len, cap - len, "(%u,%u)", c[i].a, c[i].b);
    }
    return buf;
}

static void test_gestures(void)
{
    sn_session s;
    sn_session_init(&s, SN_FRONT_WINDOW);
    const char *spec = "empty:4";
    CHECK(show(&s, &spec, 1) == SN_OK);
    CHECK(sn_session_main(&s)->edit);
    char buf[256];
    /* a drag from wire 0 to wire 1: its preview while it lasts, then (0,1) */
    sn_session_pointer(&s, SN_POINTER_PRESS, ROOM, wire_y[0]);
    sn_session_pointer(&s, SN_POINTER_MOVE, ROOM, wire_y[1]);
    CHECK(sn_session_main(&s)->preview.on);
    sn_session_pointer(&s, SN_POINTER_RELEASE, ROOM, wire_y[1]);
    CHECK(!sn_session_main(&s)->preview.on);
    CHECKF(strcmp(net_text(&s, buf, sizeof buf), "(0,1)") == 0, "drag: %s", buf);
    frame(&s);
    /* two clicks: wire 2, then wire 3 adds (2,3); the first shows its dot */
    click(&s, ROOM, wire_y[2]);
    CHECK(s.pending_wire == 2 && sn_session_main(&s)->preview.on);
    CHECKF(strstr(sn_session_main(&s)->message, "click another wire") != NULL, "message %s",
           sn_session_main(&s)->message);
    click(&s, ROOM, wire_y[3]);
    CHECK(s.pending_wire == -1);
    CHECKF(strstr(net_text(&s, buf, sizeof buf), "(2,3)") != NULL, "two clicks: %s", buf);
    frame(&s);
    /* the same wire twice adds nothing; a key between two clicks ends it */
    click(&s, ROOM, wire_y[1]);
    click(&s, ROOM, wire_y[1]);
    CHECK(strstr(sn_session_main(&s)->message, "the same wire twice") != NULL);
    click(&s, ROOM, wire_y[0]);
    CHECK(sn_session_action(&s, SN_ACT_ZERO_ONE));
    CHECK(s.pending_wire == -1 && !sn_session_main(&s)->preview.on);
    sn_view_edit_select(sn_session_main(&s), -1, -1);
    frame(&s);
    size_t size = sn_session_main(&s)->cmp_before[sn_session_main(&s)->layers];
    CHECK(size == 2);
    /* a cancelled press (a pinch) does nothing */
    sn_session_pointer(&s, SN_POINTER_PRESS, ROOM, wire_y[0]);
    sn_session_pointer(&s, SN_POINTER_MOVE, ROOM, wire_y[2]);
    CHECK(sn_session_pointer(&s, SN_POINTER_CANCEL, ROOM, wire_y[2]));
    CHECK(sn_session_main(&s)->cmp_before[sn_session_main(&s)->layers] == size);
    /* a double click fits */
    sn_session_main(&s)->zoom = 2;
    CHECK(sn_session_pointer(&s, SN_POINTER_DOUBLE, 10, 10));
    CHECK(sn_session_main(&s)->zoom == 1);
    /* the wheel zooms inside the network's pane only */
    CHECK(sn_session_wheel(&s, ROOM, wire_y[1], 1));
    CHECK(sn_session_main(&s)->zoom > 1);
    CHECK(!sn_session_wheel(&s, -5, -5, 1));
    sn_session_cleanup(&s);

    /* several views: edit mode is refused, so no gesture edits */
    sn_session_init(&s, SN_FRONT_PAGE);
    const char *two[] = {"bitonic:4", "oddeven:4"};
    CHECK(show(&s, two, 2) == SN_OK);
    CHECK(s.group.view[1].front == SN_FRONT_PAGE);
    sn_session_action(&s, SN_ACT_EDIT);
    CHECK(!sn_session_main(&s)->edit);
    click(&s, ROOM, wire_y[0]);
    CHECK(s.pending_wire == -1);
    sn_session_cleanup(&s);
}

static sn_lesson *shipped(const char *name)
{
    const sn_lesson_source *src = sn_lesson_shipped(name);
    CHECK(src != NULL);
    sn_lesson *l = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    if (src && sn_lesson_parse(src->text, src->name, &l, &d) != SN_OK)
        fprintf(stderr, "lesson %s: %s\n", name, d.text);
    return l;
}

static void test_lessons_and_scripts(void)
{
    sn_session s;
    sn_session_init(&s, SN_FRONT_WINDOW);
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_session_lesson_go(&s, 0, &d) == SN_EINVAL); /* no lesson yet */
    sn_lesson *l = shipped("01-comparators-and-0-1");
    CHECK(l && sn_session_lesson_open(&s, l, &d) == SN_OK);
    CHECK(s.open && s.lesson_step == 0);
    CHECK(!sn_session_action(&s, SN_ACT_LEFT)); /* nothing before step 1 */
    unsigned long shown = s.shown;
    CHECK(sn_session_action(&s, SN_ACT_RIGHT));
    CHECK(s.lesson_step == 1 && s.shown == shown + 1);
    CHECK(sn_session_action(&s, SN_ACT_PAGE_UP) && s.lesson_step == 0);
    CHECK(sn_session_lesson_go(&s, s.lesson->count, &d) == SN_EINVAL);
    CHECKF(strstr(d.text, "no such step") != NULL, "%s", d.text);
    CHECK(strstr(sn_session_main(&s)->message, "no such step") != NULL);
    CHECK(sn_session_lesson_go(&s, s.lesson->count - 1, &d) == SN_OK);
    CHECK(sn_session_action(&s, SN_ACT_RIGHT));
    CHECK(strstr(sn_session_main(&s)->message, "end of the lesson") != NULL);
    sn_frame_extra x;
    CHECK(sn_session_extra(&s, &x) && strstr(x.progress, "of") != NULL);
    CHECK(frame(&s) == SN_OK && sn_scene_count(scene) > 0);

    /* the script player: a step that fails names its column and token */
    sn_script_event *ev = NULL;
    size_t n = 0;
    const char *text = "right add:0,1";
    CHECK(sn_script_parse(text, &ev, &n, &d) == SN_OK && n == 2);
    const char *spec = "bitonic:8";
    CHECK(show(&s, &spec, 1) == SN_OK && !s.lesson);
    char why[600];
    double wait;
    CHECK(sn_session_script_step(&s, text, &ev[0], &wait, why, sizeof why));
    CHECK(sn_session_main(&s)->step == 1 && wait == 0);
    CHECK(!sn_session_script_step(&s, text, &ev[1], &wait, why, sizeof why));
    CHECKF(strstr(why, "--script column 7") && strstr(why, "edit mode is off"), "%s", why);
    sn_free(ev);

    /* the state dump */
    char *dump = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&dump, &len);
    CHECK(f && sn_session_dump(&s, f, "window: test\n"));
    if (f)
        fclose(f);
    CHECKF(dump && strstr(dump, "network: bitonic:8\n") && strstr(dump, "step: 1\n") &&
               strstr(dump, "window: test\nnetworks: 1\n") && strstr(dump, "\nnet: [(0,1)"),
           "dump:\n%s", dump ? dump : "(none)");
    free(dump);
    sn_session_cleanup(&s);
}

/* One round of lesson steps and edit gestures; every call may fail for
 * want of memory, none may leave the session broken. */
static void round_trip(sn_session *s, sn_lesson *l)
{
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_session_lesson_open(s, l, &d) != SN_OK)
        return; /* l freed */
    for (size_t i = 0; i < 2 * s->lesson->count; i++) {
        sn_session_action(s, i < s->lesson->count ? SN_ACT_RIGHT : SN_ACT_LEFT);
        frame(s);
    }
    sn_session_action(s, SN_ACT_DOWN);
    sn_session_lesson_go(s, 1, &d);
    const char *spec = "empty:4";
    if (show(s, &spec, 1) != SN_OK)
        return;
    drag(s, ROOM, wire_y[0], ROOM, wire_y[1]);
    frame(s);
    click(s, ROOM, wire_y[2]);
    click(s, ROOM, wire_y[3]);
    frame(s);
    sn_session_action(s, SN_ACT_UNDO);
    sn_session_action(s, SN_ACT_REDO);
    frame(s);
}

static void test_out_of_memory(void)
{
    size_t base = sn_alloc_live();
    sn_session s;
    sn_session_init(&s, SN_FRONT_WINDOW);
    sn_alloc_fail_after(0);
    round_trip(&s, shipped("01-comparators-and-0-1"));
    sn_session_cleanup(&s);
    size_t total = sn_alloc_fail_after(0);
    CHECKF(total > 100, "a round makes %zu allocations", total);
    CHECK(sn_alloc_live() == base);
    size_t failed = 0;
    for (size_t k = 1; k <= total; k++) {
        sn_lesson *l = shipped("01-comparators-and-0-1");
        sn_session_init(&s, SN_FRONT_WINDOW);
        sn_alloc_fail_after(k);
        round_trip(&s, l);
        size_t made = sn_alloc_fail_after(0);
        if (made >= k)
            failed++;
        /* whole: the views shown have their frames; a lesson's step exists */
        if (s.open) {
            CHECKF(s.group.count >= 1 && s.group.count <= SN_GROUP_MAX, "k=%zu: %zu views", k,
                   s.group.count);
            for (size_t i = 0; i < SN_GROUP_MAX; i++)
                CHECKF(s.frames[i] != NULL, "k=%zu: frame %zu missing", k, i);
            CHECK(!s.lesson || s.lesson_step < s.lesson->count);
            CHECKF(frame(&s) == SN_OK, "k=%zu: the frame after the failure", k);
            char *dump = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&dump, &len);
            if (f) {
                CHECKF(sn_session_dump(&s, f, NULL), "k=%zu: the dump", k);
                fclose(f);
            }
            free(dump);
        }
        sn_session_cleanup(&s);
        CHECKF(sn_alloc_live() == base, "k=%zu: %zu blocks leaked", k, sn_alloc_live() - base);
    }
    CHECKF(failed > total / 2, "only %zu of %zu rounds met their failure", failed, total);
}

int main(void)
{
    scene = sn_scene_create(W, H);
    CHECK(scene != NULL);
    test_gestures();
    test_lessons_and_scripts();
    test_out_of_memory();
    sn_scene_destroy(scene);
    return sn_test_finish("test_session");
}
