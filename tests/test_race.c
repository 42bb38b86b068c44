/* test_race.c - edit mode's race (src/session/race.c and its view hooks): the
 * state machine (off, running, done, stopped, failed), bad starts, a new
 * start stopping the old race, the view's verbs (start, wait, load as an
 * undoable edit, who is ahead, n changing, edit mode ending), the script
 * verbs, and the race panel read as a scene (readable, inside its pane).
 * Every wait is on a condition (sn_race_wait: the search reaching its
 * goal), never on the clock; a race without a goal is stopped, never
 * waited for. Run under ASan, the races destroyed while running show that
 * stopping joins the search and frees it. With no thread to be had (the
 * seam's fault switch) the race fails at once instead of searching in the
 * caller, and the edit mode's verdict worker (verdict.c, the race's
 * sibling) checks in the caller and gives the verdict it gives on a thread. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check.h"
#include "core/format.h"   // for: sn_schedule_load
#include "core/parallel.h" // for: sn_parallel_fail_after (no thread can start)
#include "headless/frame.h"
#include "session/frame_scene.h"
#include "session/group.h"
#include "session/race.h"
#include "render/scene.h"
#include "session/script.h"
#include "sn_test.h"
#include "session/verdict.h"
#include "session/view.h"

static bool sorts(const sn_network *net)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    sn_check_result res;
    memset(&res, 0, sizeof res);
    sn_diag d;
    sn_diag_clear(&d);
    bool ok = sn_check_run(net, &opt, &res, &d) == SN_OK && res.sorts;
    sn_check_result_free(&res);
    return ok;
}

static sn_network *load(const char *spec)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_schedule_load(spec, &s, &d) != SN_OK)
        return NULL;
    sn_schedule_to_network(s, &net, &d);
    sn_schedule_destroy(s);
    return net;
}

static void test_states(void)
{
    sn_race *r = sn_race_create();
    CHECK(r != NULL);
    sn_race_snap snap;
    sn_network *best = NULL;
    sn_race_poll(r, &snap, 0, &best);
    CHECK(snap.state == SN_RACE_OFF && !snap.have_best && best == NULL);
    CHECK(!sn_race_wait(r) && !sn_race_stop(r));
    sn_diag d;
    sn_diag_clear(&d);
    /* bad starts change nothing */
    CHECK(sn_race_start(r, 1, NULL, 0, 1, 1, &d) == SN_EINVAL && strstr(d.text, "2 to 24"));
    CHECK(sn_race_start(r, 25, NULL, 0, 1, 1, &d) == SN_EINVAL &&
          strstr(d.text, "sortnet search 25"));
    sn_network *five = load("bubble:5");
    CHECK(five != NULL);
    CHECK(sn_race_start(r, 6, five, 0, 1, 1, &d) == SN_EINVAL && strstr(d.text, "5 wires"));
    sn_race_poll(r, &snap, 0, NULL);
    CHECK(snap.state == SN_RACE_OFF);
    /* the optimum for n = 4..6 from scratch, by condition */
    static const size_t optimum[] = {5, 9, 12};
    uint64_t gen = 0;
    for (uint32_t n = 4; n <= 6; n++) {
        CHECK(sn_race_start(r, n, NULL, optimum[n - 4], 1, n, &d) == SN_OK);
        CHECK(sn_race_wait(r));
        sn_race_poll(r, &snap, gen, &best);
        CHECKF(snap.state == SN_RACE_DONE && snap.have_best && snap.size == optimum[n - 4] &&
                   snap.n == n && snap.goal == optimum[n - 4],
               "n = %u: %s, %zu comparators", n, sn_race_state_name(snap.state), snap.size);
        CHECK(snap.gen != gen && best != NULL && sn_network_wires(best) == n && sorts(best));
        CHECK(best && sn_network_size(best) == snap.size && snap.found_s <= snap.elapsed_s);
        gen = snap.gen;
        sn_network_destroy(best);
        /* polled again with its gen: no copy */
        sn_race_poll(r, &snap, gen, &best);
        CHECK(best == NULL && snap.gen == gen);
        CHECK(!sn_race_stop(r)); /* it ended by itself */
    }
    /* from a given network (bubble sort's 10 comparators) to the optimum 9 */
    CHECK(sn_race_start(r, 5, five, 9, 1, 7, &d) == SN_OK);
    CHECK(sn_race_wait(r));
    sn_race_poll(r, &snap, 0, NULL);
    CHECK(snap.state == SN_RACE_DONE && snap.size == 9 && snap.from_student);
    /* no goal: it runs until stopped, and waiting for it is refused */
    CHECK(sn_race_start(r, 16, NULL, 0, 1, 1, &d) == SN_OK);
    CHECK(!sn_race_wait(r));
    sn_race_poll(r, &snap, 0, NULL);
    CHECK(snap.state == SN_RACE_RUNNING && snap.goal == 0);
    CHECK(sn_race_stop(r));
    sn_race_poll(r, &snap, 0, NULL);
    CHECK(snap.state == SN_RACE_STOPPED);
    /* a new start stops the running race first */
    CHECK(sn_race_start(r, 16, NULL, 0, 1, 1, &d) == SN_OK);
    CHECK(sn_race_start(r, 4, NULL, 5, 1, 1, &d) == SN_OK);
    CHECK(sn_race_wait(r));
    sn_race_poll(r, &snap, 0, NULL);
    CHECK(snap.state == SN_RACE_DONE && snap.n == 4 && snap.size == 5);
    /* destroyed while it runs: stopped and joined (ASan: nothing leaks) */
    CHECK(sn_race_start(r, 16, NULL, 0, 2, 1, &d) == SN_OK);
    sn_race_destroy(r);
    sn_network_destroy(five);
    CHECK(strcmp(sn_race_state_name(SN_RACE_FAILED), "failed") == 0);
}

static size_t size_of(const sn_view *v)
{
    return v->cmp_before[v->layers];
}

static void test_view(void)
{
    sn_view v;
    sn_diag d;
    sn_view_input in = {SN_INPUT_RANDOM, 1, NULL, SN_KEY_I32};
    CHECK(sn_view_init(&v, "bitonic:8", &in, &d) == SN_OK);
    /* outside edit mode the race refuses */
    CHECK(!sn_view_race_start(&v, false) && v.message_error && strstr(v.message, "press E"));
    CHECK(!v.race_shown && sn_view_race_ahead(&v, NULL, 0)[0] == '\0');
    sn_view_cleanup(&v);

    CHECK(sn_view_init(&v, "empty:5", &in, &d) == SN_OK);
    CHECK(v.edit); /* an empty network opens in edit mode */
    CHECK(!sn_view_race_load(&v) && strstr(v.message, "no network yet"));
    CHECK(!sn_view_race_wait(&v) && strstr(v.message, "no race"));
    CHECK(sn_view_race_start(&v, false) && v.race_shown && !v.message_error);
    CHECK(sn_view_race_wait(&v));
    CHECK(v.race_snap.state == SN_RACE_DONE && v.race_snap.size == 9 && v.race_best);
    sn_view_settle(&v);
    char detail[96];
    CHECK(strcmp(sn_view_race_ahead(&v, detail, sizeof detail), "the computer") == 0);
    /* loaded into the editor: a new version, which sorts, and undoes */
    size_t versions = v.hist_count;
    CHECK(sn_view_race_load(&v) && size_of(&v) == 9 && v.hist_count == versions + 1);
    sn_view_settle(&v);
    CHECK(v.verdict == SN_VERDICT_SORTS);
    char buf[128];
    CHECK(strcmp(sn_view_verdict_text(&v, buf, sizeof buf), "sorts") == 0);
    CHECK(strcmp(sn_view_race_ahead(&v, detail, sizeof detail), "a tie") == 0);
    CHECK(sn_view_race_load(&v) && !v.message_error && strstr(v.message, "already"));
    CHECK(sn_view_action(&v, SN_ACT_UNDO) && size_of(&v) == 0);
    sn_view_cleanup(&v);

    /* the key toggles: C starts, C again stops, C again starts anew (16
     * wires: the best known 60 is minutes of search away, if reached) */
    CHECK(sn_view_init(&v, "empty:16", &in, &d) == SN_OK);
    CHECK(sn_view_action(&v, SN_ACT_RACE) && v.race_snap.state == SN_RACE_RUNNING);
    uint64_t gen = v.race_snap.gen;
    CHECK(sn_view_action(&v, SN_ACT_RACE) && v.race_snap.state == SN_RACE_STOPPED);
    CHECK(v.race_shown && strstr(v.message, "race stopped"));
    CHECK(sn_view_action(&v, SN_ACT_RACE) && v.race_snap.state == SN_RACE_RUNNING);
    CHECK(v.race_snap.gen != gen);
    /* leaving edit mode stops the race and hides the panel */
    sn_view_action(&v, SN_ACT_EDIT);
    CHECK(!v.edit && !v.race_shown && v.race_snap.state == SN_RACE_STOPPED);
    CHECK(strstr(v.message, "the race is stopped"));
    sn_view_cleanup(&v);

    /* more wires than a race takes */
    CHECK(sn_view_init(&v, "empty:25", &in, &d) == SN_OK);
    CHECK(!sn_view_race_start(&v, false) && v.message_error && strstr(v.message, "2 to 24"));
    CHECK(!v.race_shown);
    sn_view_cleanup(&v);
    /* another network of the same n keeps the race; another n stops it
     * (16 wires: the best known 60 is minutes away, if reached at all) */
    CHECK(sn_view_init(&v, "empty:16", &in, &d) == SN_OK);
    CHECK(sn_view_race_start(&v, false) && v.race_snap.goal == 60);
    CHECK(!sn_view_race_wait(&v) && strstr(v.message, "up to 12 wires"));
    CHECK(v.race_snap.state == SN_RACE_RUNNING);
    CHECK(sn_view_action(&v, SN_ACT_BEST) && v.n == 16 && v.edit);
    CHECK(v.race_snap.state == SN_RACE_RUNNING && v.race_shown);
    CHECK(sn_view_action(&v, SN_ACT_N_DOWN) && v.n == 15);
    CHECK(v.race_snap.state == SN_RACE_STOPPED && v.race_snap.n == 16);
    /* the message says so (the new network's name alone once hid it) */
    CHECKF(!v.message_error && strncmp(v.message, "best:15: ", 9) == 0 &&
               strstr(v.message, "the race on 16 wires is stopped (n changed; C starts one on 15)"),
           "%s", v.message);
    /* its network, if it found one before it stopped, does not fit 15 wires */
    CHECK(!sn_view_race_load(&v) && v.message_error && size_of(&v) == 56);
    /* cleaned up while a race runs: joined, nothing leaks */
    CHECK(sn_view_race_start(&v, true) && v.race_snap.n == 15 && v.race_snap.from_student);
    sn_view_cleanup(&v);
}

static void test_script(void)
{
    sn_script_event *ev = NULL;
    size_t n = 0;
    sn_diag d;
    CHECK(sn_script_parse("race race:from race:stop race:wait race:load c l", &ev, &n, &d) ==
          SN_OK);
    CHECK(n == 7);
    for (size_t i = 0; ev && i < 5; i++)
        CHECKF(ev[i].kind == SN_SCRIPT_RACE && ev[i].i == (long)i && sn_script_can_fail(&ev[i]),
               "step %zu", i);
    CHECK(ev && ev[5].act == SN_ACT_RACE && ev[6].act == SN_ACT_RACE_LOAD);
    CHECK(ev && sn_script_can_fail(&ev[5]) && sn_script_can_fail(&ev[6]));
    sn_free(ev);
    CHECK(sn_script_parse("e race:go", &ev, &n, &d) == SN_EPARSE && d.column == 3);
    CHECK(sn_script_parse("racer", &ev, &n, &d) == SN_EPARSE);
}

/* The race panel as the window paints it: readable, inside its pane,
 * saying what it should. */
static void test_panel(void)
{
    const char *spec[1] = {"empty:6"};
    sn_group g;
    sn_diag d;
    sn_view_input in = {SN_INPUT_RANDOM, 1, NULL, SN_KEY_I32};
    CHECK(sn_group_init(&g, spec, 1, &in, &d) == SN_OK);
    sn_view *v = &g.view[0];
    CHECK(sn_view_race_start(v, false) && sn_view_race_wait(v));
    sn_view_edit_add(v, 0, 1, -1);
    sn_group_settle(&g);
    sn_frame *fr[1] = {sn_frame_create()};
    static const double sizes[][2] = {{1280, 800}, {1280, 720}, {640, 400}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        double w = sizes[k][0], h = sizes[k][1];
        sn_scene *sc = sn_scene_create(w, h);
        CHECK(sc && sn_frame_scene_group(fr, &g, NULL, w, h, 1, sc) == SN_OK);
        char report[1024];
        size_t bad =
            sc ? sn_scene_check_readable(sc, SN_FRAME_MIN_TEXT, 0.5, report, sizeof report) : 1;
        CHECKF(bad == 0, "race panel at %gx%g: %zu problem(s):\n%s", w, h, bad, report);
        sn_panes p;
        sn_frame_panes(fr[0], v, w, h, 1, &p);
        CHECK(p.race.w > 0 && p.race.x >= p.bars.x + p.bars.w);
        bool title = false, ahead = false, drawn = false;
        for (size_t i = 0; sc && i < sn_scene_count(sc); i++) {
            const sn_prim *q = sn_scene_at(sc, i);
            bool inside = q->x0 >= p.race.x - 1 && q->x1 <= p.race.x + p.race.w + 1 &&
                          q->y0 >= p.race.y - 1 && q->y1 <= p.race.y + p.race.h + 1;
            if (q->kind == SN_PRIM_TEXT) {
                const char *s = sn_scene_str(sc, q);
                title |= strstr(s, "Race") == s && inside;
                ahead |= strstr(s, "Ahead: the computer") == s && inside;
            }
            drawn |= q->tag.role == SN_ROLE_COMPARATOR && inside && q->kind == SN_PRIM_LINE;
        }
        drawn |= h < 500; /* a small window has no room for the drawing */
        CHECKF(title && ahead && drawn, "race panel at %gx%g: title %d ahead %d drawing %d", w, h,
               title, ahead, drawn);
        sn_scene_destroy(sc);
    }
    sn_frame_destroy(fr[0]);
    sn_group_cleanup(&g);
}

/* No thread can start: a race without a goal would search in the caller
 * until stopped, and nothing could stop it; it fails at once instead. Its
 * search's own team may still lack threads: fewer workers, the same goal. */
static void test_no_thread(void)
{
    sn_race *r = sn_race_create();
    CHECK(r != NULL);
    sn_diag d;
    sn_diag_clear(&d);
    sn_race_snap snap;
    sn_parallel_fail_after(1);
    CHECK(sn_race_start(r, 16, NULL, 0, 2, 1, &d) == SN_EIO && strstr(d.text, "no thread"));
    sn_race_poll(r, &snap, 0, NULL);
    CHECK(snap.state == SN_RACE_FAILED && strstr(snap.why, "no thread"));
    CHECK(!sn_race_wait(r) && !sn_race_stop(r));
    /* the race's thread starts, none of its search's workers does */
    sn_parallel_fail_after(2);
    CHECK(sn_race_start(r, 5, NULL, 9, 3, 5, &d) == SN_OK);
    CHECK(sn_race_wait(r));
    size_t tried = sn_parallel_fail_after(0);
    sn_race_poll(r, &snap, 0, NULL);
    CHECKF(snap.state == SN_RACE_DONE && snap.size == 9, "%s, %zu comparators",
           sn_race_state_name(snap.state), snap.size);
    CHECKF(tried >= 2, "%zu thread starts", tried); /* the race's, then its team's */
    sn_race_destroy(r);
}

/* A verdict job of net's copy: its result (the caller frees .check). */
static bool verdict_of(sn_verdict *w, const sn_network *net, uint64_t id, bool wait,
                       sn_verdict_result *out)
{
    memset(out, 0, sizeof *out);
    sn_network *copy = sn_network_clone(net);
    return copy && sn_verdict_start(w, copy, id) == SN_OK && sn_verdict_pending(w) &&
           sn_verdict_take(w, wait, out);
}

/* The verdict with no thread: the check runs in sn_verdict_start, so the
 * first poll (no wait) finds it done, with the threaded run's answer. */
static void test_verdict_no_thread(void)
{
    sn_verdict *w = sn_verdict_create();
    CHECK(w != NULL);
    const char *specs[] = {"bitonic:16", "bubble:12"};
    for (size_t i = 0; w && i < sizeof specs / sizeof *specs; i++) {
        sn_network *net = load(specs[i]);
        CHECK(net != NULL);
        if (!net)
            continue;
        /* take one comparator out of the second: it fails */
        sn_network *use = net;
        if (i == 1) {
            use = sn_network_create(12);
            sn_comparator c;
            for (size_t k = 1; use && sn_network_comparator(net, k, &c, NULL); k++)
                CHECK(sn_network_add_asap(use, c.a, c.b, NULL) == SN_OK);
        }
        sn_verdict_result a, b;
        CHECK(verdict_of(w, use, 1, true, &a));
        sn_parallel_fail_after(1);
        CHECK(verdict_of(w, use, 2, false, &b)); /* done before the first poll */
        CHECK(sn_parallel_fail_after(0) >= 1);
        CHECK(!sn_verdict_pending(w));
        CHECKF(a.status == SN_OK && b.status == SN_OK && a.id == 1 && b.id == 2, "%s: %s / %s",
               specs[i], a.why, b.why);
        CHECKF(a.check.sorts == (i == 0) && b.check.sorts == a.check.sorts &&
                   b.check.failing_count == a.check.failing_count &&
                   b.check.counterexample_index == a.check.counterexample_index &&
                   b.check.redundant_count == a.check.redundant_count,
               "%s: sorts %d / %d, failing %llu / %llu", specs[i], a.check.sorts, b.check.sorts,
               (unsigned long long)a.check.failing_count,
               (unsigned long long)b.check.failing_count);
        sn_check_result_free(&a.check);
        sn_check_result_free(&b.check);
        if (use != net)
            sn_network_destroy(use);
        sn_network_destroy(net);
    }
    sn_verdict_destroy(w);
}

int main(void)
{
    test_states();
    test_view();
    test_script();
    test_panel();
    test_no_thread();
    test_verdict_no_thread();
    return sn_test_finish("test_race");
}
