/* session.c - the one session behind the window, the headless backend and
 * the page (session.h): every gesture and rule once. */
#include "session/session.h"

#include <math.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h"   /* for: sn_key_format */
#include "core/library.h" /* for: sn_library_best_size */
#include "render/palette.h"

/* --dump-state lists the network up to this many comparators. */
#define DUMP_MAX_CMP 100000u
/* A press becomes a drag past this many window points. */
#define DRAG_POINTS 4.0

void sn_session_init(sn_session *s, sn_view_front front)
{
    memset(s, 0, sizeof *s);
    s->front = front;
    s->pending_wire = -1;
    s->scale = 1.0;
}

static void frames_destroy(sn_frame **frames)
{
    for (size_t i = 0; i < SN_GROUP_MAX; i++) {
        sn_frame_destroy(frames[i]);
        frames[i] = NULL;
    }
}

static bool frames_create(sn_frame **frames)
{
    for (size_t i = 0; i < SN_GROUP_MAX; i++) {
        frames[i] = sn_frame_create();
        if (!frames[i]) {
            frames_destroy(frames);
            return false;
        }
    }
    return true;
}

void sn_session_cleanup(sn_session *s)
{
    if (s->open)
        sn_group_cleanup(&s->group);
    frames_destroy(s->frames);
    sn_lesson_free(s->lesson);
    sn_exercise_state_clear(&s->exercise);
    sn_session_init(s, s->front);
}

static void reset_pointer(sn_session *s)
{
    s->down = s->dragging = s->edit_down = false;
    s->pending_wire = -1;
}

/* New views are shown with new frames (the views reuse ids): they serve
 * this front-end and get the backend's hook. */
static void adopt(sn_session *s, sn_frame **frames)
{
    frames_destroy(s->frames);
    memcpy(s->frames, frames, sizeof s->frames);
    s->open = true;
    s->shown++;
    for (size_t i = 0; i < s->group.count; i++) {
        s->group.view[i].front = s->front;
        if (s->install)
            s->install(&s->group.view[i]);
    }
    reset_pointer(s);
}

sn_status sn_session_show(sn_session *s, sn_group *g, bool keep_lesson, sn_diag *diag)
{
    sn_frame *frames[SN_GROUP_MAX] = {NULL, NULL, NULL};
    if (!frames_create(frames)) {
        sn_group_cleanup(g);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    if (s->open)
        sn_group_cleanup(&s->group);
    s->group = *g;
    if (!keep_lesson) {
        sn_lesson_free(s->lesson);
        s->lesson = NULL;
        s->lesson_step = 0;
        sn_exercise_state_clear(&s->exercise);
    }
    adopt(s, frames);
    return SN_OK;
}

sn_status sn_session_lesson_go(sn_session *s, size_t i, sn_diag *diag)
{
    sn_status st;
    sn_frame *frames[SN_GROUP_MAX] = {NULL, NULL, NULL};
    if (!s->lesson)
        st = sn_diag_set(diag, SN_EINVAL, 0, 0, "no lesson is open");
    else if (i >= s->lesson->count)
        st = sn_diag_set(diag, SN_EINVAL, 0, 0, "%s: step %zu of %zu: no such step",
                         s->lesson->file, i + 1, s->lesson->count);
    else if (!frames_create(frames))
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    else
        st = sn_lesson_apply(s->lesson, i, &s->group, diag);
    if (st != SN_OK) {
        frames_destroy(frames);
        if (s->open)
            sn_view_message(sn_session_main(s), true, "%s", sn_diag_text(diag, st));
        return st;
    }
    s->lesson_step = i;
    adopt(s, frames);
    /* the step shows without its exercise when that cannot be made (out
     * of memory: the lesson's check made it before) */
    sn_status es = sn_session_exercise_enter(s, diag);
    if (es != SN_OK)
        sn_view_message(sn_session_main(s), true, "%s", sn_diag_text(diag, es));
    return SN_OK;
}

sn_status sn_session_lesson_open(sn_session *s, sn_lesson *l, sn_diag *diag)
{
    sn_lesson *old = s->lesson;
    size_t old_step = s->lesson_step;
    s->lesson = l;
    sn_status st = sn_session_lesson_go(s, 0, diag);
    if (st != SN_OK) {
        s->lesson = old;
        s->lesson_step = old_step;
        sn_lesson_free(l);
        return st;
    }
    sn_lesson_free(old);
    return SN_OK;
}

void sn_session_lesson_close(sn_session *s)
{
    sn_lesson_free(s->lesson);
    s->lesson = NULL;
    s->lesson_step = 0;
    s->progress[0] = '\0';
    s->shown++;
}

/* ---- actions and time */

bool sn_session_action(sn_session *s, sn_action a)
{
    if (!s->open)
        return false;
    if (s->lesson) {
        sn_diag d;
        sn_diag_clear(&d);
        if (a == SN_ACT_RIGHT || a == SN_ACT_PAGE_DOWN) {
            if (s->lesson_step + 1 < s->lesson->count)
                sn_session_lesson_go(s, s->lesson_step + 1, &d); /* a failure is in the message */
            else
                sn_view_message(sn_session_main(s), false, "the end of the lesson (Left goes back)");
            return true;
        }
        if (a == SN_ACT_LEFT || a == SN_ACT_PAGE_UP) {
            if (s->lesson_step == 0)
                return false;
            sn_session_lesson_go(s, s->lesson_step - 1, &d);
            return true;
        }
    }
    if (s->pending_wire >= 0) { /* any key ends a two-click add */
        s->pending_wire = -1;
        sn_session_main(s)->preview.on = false;
    }
    return sn_group_action(&s->group, a);
}

bool sn_session_tick(sn_session *s, double dt_ms)
{
    return s->open && dt_ms >= 0 && sn_group_tick(&s->group, dt_ms);
}

bool sn_session_busy(const sn_session *s)
{
    return s->open && sn_group_busy(&s->group);
}

void sn_session_settle(sn_session *s)
{
    if (s->open)
        sn_group_settle(&s->group);
}

void sn_session_resize(sn_session *s, double w, double h, double scale)
{
    s->w = w;
    s->h = h;
    s->scale = scale > 0 ? scale : 1.0;
}

/* ---- the pointer: edit mode's gestures, click-to-follow, panning */

static bool edit_hit(sn_session *s, double x, double y, sn_frame_hit *h)
{
    return sn_frame_edit_hit(s->frames[0], sn_session_main(s), s->w, s->h, s->scale, x, y, h);
}

/* true when edit mode takes a press at (x, y): one view shown, in edit
 * mode, the press on a wire or a comparator (off them a drag pans). */
static bool edit_press(sn_session *s, double x, double y)
{
    if (!sn_session_main(s)->edit || s->group.count != 1 || !edit_hit(s, x, y, &s->press))
        return false;
    if (!s->press.wire_hit && s->press.layer < 0)
        return false;
    s->edit_down = true;
    return true;
}

/* The drag's preview: the comparator moving, or the one being added. */
static void edit_motion(sn_session *s, double x, double y)
{
    sn_view *v = sn_session_main(s);
    sn_frame_hit h;
    v->preview.on = false;
    if (!edit_hit(s, x, y, &h))
        return;
    const sn_frame_hit *p = &s->press;
    if (p->layer >= 0 && v->hist_count) {
        size_t count = 0;
        const sn_comparator *c = sn_network_layer(v->hist[v->hist_pos], (size_t)p->layer, &count);
        if ((size_t)p->index < count)
            v->preview = (sn_view_preview){true, true, c[p->index].a, c[p->index].b, h.x};
    } else if (p->wire_hit && h.wire != p->wire) {
        v->preview = (sn_view_preview){true, false, p->wire, h.wire, p->x};
    }
}

/* A click on a wire: the first or the second of a two-click add. */
static void two_click(sn_session *s, sn_view *v, const sn_frame_hit *p)
{
    if (s->pending_wire >= 0 && (uint32_t)s->pending_wire != p->wire) {
        uint32_t a = (uint32_t)s->pending_wire;
        s->pending_wire = -1;
        sn_view_edit_add(v, a, p->wire, (long)s->pending_col);
    } else if (s->pending_wire >= 0) {
        s->pending_wire = -1;
        sn_view_message(v, false, "no comparator added (the same wire twice)");
    } else {
        s->pending_wire = (long)p->wire;
        s->pending_col = p->col;
        s->pending_x = p->x;
        sn_view_edit_select(v, -1, -1);
        sn_view_message(v, false, "wire %u: click another wire to add a comparator (it gets the "
                                  "minimum)",
                        p->wire);
    }
}

static void edit_release(sn_session *s, double x, double y, bool dragged)
{
    sn_view *v = sn_session_main(s);
    s->edit_down = false;
    v->preview.on = false;
    sn_frame_hit h;
    bool in = edit_hit(s, x, y, &h);
    const sn_frame_hit *p = &s->press;
    if (p->layer >= 0) {
        s->pending_wire = -1;
        if (!dragged || !in || !sn_view_edit_move(v, (size_t)p->layer, (size_t)p->index, h.col))
            sn_view_edit_select(v, p->layer, p->index);
    } else if (p->wire_hit && in && h.wire_hit && h.wire != p->wire) {
        s->pending_wire = -1; /* a drag from wire to wire */
        sn_view_edit_add(v, p->wire, h.wire, (long)p->col);
    } else if (!dragged && p->wire_hit && in && h.wire_hit) {
        two_click(s, v, p);
    } else if (!dragged) {
        s->pending_wire = -1;
        sn_view_edit_select(v, -1, -1);
    }
    /* the first wire of a two-click add: a dot where it was clicked (the
     * drag's preview of a comparator from that wire to itself) */
    if (s->pending_wire >= 0)
        v->preview = (sn_view_preview){true, false, (uint32_t)s->pending_wire,
                                       (uint32_t)s->pending_wire, s->pending_x};
}

/* The view drawn at (x, y) (several: its row). */
static size_t view_at(sn_session *s, double x, double y)
{
    for (size_t i = 0; i < s->group.count; i++) {
        sn_box b;
        if (sn_frame_area(s->frames[i], &b) && x >= b.x && y >= b.y && x < b.x + b.w &&
            y < b.y + b.h)
            return i;
    }
    return 0;
}

static void follow(sn_session *s, double x, double y)
{
    uint32_t wire;
    size_t step, i = view_at(s, x, y);
    sn_view *v = &s->group.view[i];
    if (sn_frame_pick(s->frames[i], v, s->w, s->h, s->scale, x, y, &wire, &step))
        sn_view_follow_wire(v, wire, step);
}

static void pan(sn_session *s, double dx, double dy)
{
    sn_panes p;
    size_t i = view_at(s, s->down_x, s->down_y);
    sn_frame_panes(s->frames[i], &s->group.view[i], s->w, s->h, s->scale, &p);
    if (p.fitted.w > 0 && p.fitted.h > 0)
        sn_view_pan(&s->group.view[i], dx / p.fitted.w, dy / p.fitted.h);
}

bool sn_session_pointer(sn_session *s, sn_pointer_kind kind, double x, double y)
{
    if (!s->open || s->w <= 0 || !isfinite(x) || !isfinite(y))
        return false;
    switch (kind) {
    case SN_POINTER_PRESS:
        s->down = true;
        s->dragging = false;
        s->down_x = s->last_x = x;
        s->down_y = s->last_y = y;
        edit_press(s, x, y);
        return false;
    case SN_POINTER_MOVE:
        if (!s->down)
            return false;
        if (!s->dragging && fabs(x - s->down_x) + fabs(y - s->down_y) > DRAG_POINTS * s->scale)
            s->dragging = true;
        if (s->edit_down) {
            if (s->dragging)
                edit_motion(s, x, y);
            return s->dragging;
        }
        if (!s->dragging)
            return false;
        pan(s, x - s->last_x, y - s->last_y);
        s->last_x = x;
        s->last_y = y;
        return true;
    case SN_POINTER_RELEASE:
        if (!s->down)
            return false;
        s->down = false;
        if (s->edit_down)
            edit_release(s, x, y, s->dragging);
        else if (!s->dragging)
            follow(s, x, y);
        return true;
    case SN_POINTER_CANCEL:
        if (!s->down)
            return false;
        s->down = s->dragging = false;
        if (s->edit_down) {
            s->edit_down = false;
            sn_session_main(s)->preview.on = false;
        }
        return true;
    case SN_POINTER_DOUBLE:
        s->down = s->dragging = s->edit_down = false;
        sn_view_action(sn_session_main(s), SN_ACT_FIT);
        return true;
    }
    return false;
}

bool sn_session_wheel(sn_session *s, double x, double y, double notches)
{
    if (!s->open || s->w <= 0 || !isfinite(x) || !isfinite(y) || !isfinite(notches))
        return false;
    sn_panes p;
    size_t i = view_at(s, x, y);
    sn_frame_panes(s->frames[i], &s->group.view[i], s->w, s->h, s->scale, &p);
    if (x < p.net.x || y < p.net.y || x > p.net.x + p.net.w || y > p.net.y + p.net.h ||
        p.fitted.w <= 0 || p.fitted.h <= 0)
        return false;
    sn_view_zoom(&s->group.view[i], pow(1.2, notches), (x - p.fitted.x) / p.fitted.w,
                 (y - p.fitted.y) / p.fitted.h);
    return true;
}

/* ---- scripts */

/* One script event (positions in window points); the virtual time it
 * asks to wait. Clicks and drags are the pointer's own events. */
static double script_event(sn_session *s, const sn_script_event *ev)
{
    sn_view *v = sn_session_main(s);
    double k = s->scale, x = ev->x * k, y = ev->y * k;
    switch (ev->kind) {
    case SN_SCRIPT_ACTION: sn_session_action(s, ev->act); return 0;
    case SN_SCRIPT_WAIT: return ev->ms;
    case SN_SCRIPT_CLICK:
        sn_session_pointer(s, SN_POINTER_PRESS, x, y);
        sn_session_pointer(s, SN_POINTER_RELEASE, x, y);
        return 0;
    case SN_SCRIPT_DCLICK: sn_session_pointer(s, SN_POINTER_DOUBLE, x, y); return 0;
    case SN_SCRIPT_WHEEL: sn_session_wheel(s, x, y, ev->z); return 0;
    case SN_SCRIPT_DRAG:
        sn_session_pointer(s, SN_POINTER_PRESS, x, y);
        sn_session_pointer(s, SN_POINTER_MOVE, x + ev->dx * k, y + ev->dy * k);
        sn_session_pointer(s, SN_POINTER_RELEASE, x + ev->dx * k, y + ev->dy * k);
        return 0;
    case SN_SCRIPT_ADD: sn_view_edit_add(v, (uint32_t)ev->i, (uint32_t)ev->j, ev->k); return 0;
    case SN_SCRIPT_DEL: sn_view_edit_delete(v, (size_t)ev->i, (size_t)ev->j); return 0;
    case SN_SCRIPT_MOVE: sn_view_edit_move(v, (size_t)ev->i, (size_t)ev->j, (size_t)ev->k); return 0;
    case SN_SCRIPT_SELECT: sn_view_edit_select(v, ev->i, ev->j); return 0;
    case SN_SCRIPT_SAVE: sn_view_save(v, ev->path); return 0;
    case SN_SCRIPT_RACE:
        switch ((sn_script_race)ev->i) {
        case SN_SCRIPT_RACE_START: sn_view_race_start(v, false); break;
        case SN_SCRIPT_RACE_FROM: sn_view_race_start(v, true); break;
        case SN_SCRIPT_RACE_STOP: sn_view_race_stop(v); break;
        case SN_SCRIPT_RACE_WAIT: sn_view_race_wait(v); break;
        case SN_SCRIPT_RACE_LOAD: sn_view_race_load(v); break;
        }
        return 0;
    case SN_SCRIPT_ANSWER: sn_session_answer(s, ev->path); return 0;
    case SN_SCRIPT_HINT: sn_session_hint(s); return 0;
    }
    return 0;
}

bool sn_session_script_step(sn_session *s, const char *text, const sn_script_event *ev,
                            double *wait_ms, char *why, size_t cap)
{
    *wait_ms = 0;
    if (!s->open)
        return true;
    /* the step may change the group (a lesson's step of 3 networks after
     * one of 1): only the views there before have a count to compare */
    unsigned long seq[SN_GROUP_MAX] = {0};
    size_t before = s->group.count;
    for (size_t i = 0; i < before; i++)
        seq[i] = s->group.view[i].message_seq;
    *wait_ms = script_event(s, ev);
    for (size_t i = 0; sn_script_can_fail(ev) && i < s->group.count && i < before; i++) {
        const sn_view *v = &s->group.view[i];
        if (v->message_seq == seq[i] || !v->message_error)
            continue;
        int len = (int)(ev->len > 60 ? 60 : ev->len);
        const char *tok = text + ev->col - 1;
        /* an edit verb's message begins with the verb already */
        if (strncmp(v->message, tok, (size_t)len) == 0)
            snprintf(why, cap, "--script column %lu: %s", ev->col, v->message);
        else
            snprintf(why, cap, "--script column %lu, '%.*s': %s", ev->col, len, tok, v->message);
        return false;
    }
    return true;
}

/* ---- what the backends show */

const sn_frame_extra *sn_session_extra(sn_session *s, sn_frame_extra *x)
{
    if (!s->lesson)
        return NULL;
    const sn_lesson_step *st = &s->lesson->steps[s->lesson_step];
    x->title = st->title;
    const char *ex = sn_session_exercise_caption(s, st->caption);
    x->caption = ex ? ex : st->caption;
    snprintf(s->progress, sizeof s->progress, "step %zu of %zu", s->lesson_step + 1,
             s->lesson->count);
    x->progress = s->progress;
    return x;
}

sn_status sn_session_scene(sn_session *s, sn_scene *sc)
{
    if (!s->open || !(s->w >= 1 && s->h >= 1))
        return SN_EINVAL;
    sn_frame_extra x;
    return sn_frame_scene_group(s->frames, &s->group, sn_session_extra(s, &x), s->w, s->h,
                                s->scale, sc);
}

/* ---- the state dump */

/* A view's result at its step: "-" before the last layer. */
static const char *result_of(const sn_view *v)
{
    return v->step < v->layers ? "-" : sn_view_output_sorted(v, NULL) ? "sorted" : "NOT sorted";
}

static void dump_values(FILE *f, const sn_view *v)
{
    char buf[64];
    const uint32_t *vals = sn_view_values(v);
    for (uint32_t i = 0; i < v->n; i++) {
        sn_key_format(v->type, vals[i], buf, sizeof buf);
        fprintf(f, "%s%s", i ? "," : "", buf);
    }
}

/* Edit mode's part: the verdict and the network itself, one bracket layer
 * after another on one line. */
static bool dump_edit(FILE *f, const sn_view *v)
{
    char buf[256];
    fprintf(f, "edit: %s\nunsaved: %s\n", v->edit ? "on" : "off",
            sn_view_unsaved(v) ? "yes" : "no");
    fprintf(f, "size: %zu\nbest_known: %zu\n", v->cmp_before[v->layers],
            sn_library_best_size(v->n));
    sn_view_verdict_text(v, buf, sizeof buf);
    fprintf(f, "verdict: %s\n", buf[0] ? buf : "-");
    bool current = v->edit && v->verdict_net == v->net_id;
    fprintf(f, "counterexample: %s\n", current && v->verdict == SN_VERDICT_FAILS ? v->cex : "-");
    fprintf(f, "redundant: ");
    size_t shown = 0;
    for (size_t i = 0; current && i < v->redundant_count; i++)
        fprintf(f, "%s%zu", shown++ ? "," : "", v->redundant[i]);
    fprintf(f, "%s\nselected: ", shown ? "" : "-");
    if (v->sel_layer >= 0)
        fprintf(f, "%ld,%ld\n", v->sel_layer, v->sel_index);
    else
        fprintf(f, "-\n");
    const sn_race_snap *r = &v->race_snap;
    char ahead[96];
    const char *who = sn_view_race_ahead(v, ahead, sizeof ahead);
    fprintf(f, "race: %s\n", sn_race_state_name(r->state));
    if (r->have_best)
        fprintf(f, "race_best: %zu comparators, %zu layers\n", r->size, r->depth);
    else
        fprintf(f, "race_best: -\n");
    fprintf(f, "race_ahead: %s\n", who[0] ? who : "-");
    fprintf(f, "net:");
    if (v->cmp_before[v->layers] > DUMP_MAX_CMP) {
        fprintf(f, " (%zu comparators: too many to list)\n", v->cmp_before[v->layers]);
        return true;
    }
    sn_comparator *c = NULL;
    size_t cap = 0;
    for (size_t k = 0; k < v->layers; k++) {
        size_t count = sn_schedule_layer_size(v->sched, k);
        if (count > cap) {
            sn_free(c);
            c = sn_calloc(count, sizeof *c);
            if (!c)
                return false; /* out of memory: no state that lacks the network */
            cap = count;
        }
        sn_schedule_layer_pairs(v->sched, k, c, count);
        fprintf(f, " [");
        for (size_t i = 0; i < count; i++)
            fprintf(f, "%s(%u,%u)", i ? "," : "", c[i].a, c[i].b);
        fprintf(f, "]");
    }
    sn_free(c);
    fprintf(f, "\n");
    return true;
}

bool sn_session_dump(const sn_session *s, FILE *f, const char *backend_lines)
{
    if (!s->open)
        return true;
    const sn_view *v = &s->group.view[0];
    char buf[128];
    fprintf(f, "network: %s\nn: %u\nlayers: %zu\nstep: %zu\n", v->name, v->n, v->layers, v->step);
    fprintf(f, "comparisons: %zu\nswaps: %zu\ninput: %s\n", v->cmp_before[v->step],
            v->swap_before[v->step], sn_view_input_text(v, buf, sizeof buf));
    fprintf(f, "values: ");
    dump_values(f, v);
    fprintf(f, "\nfollow: %ld\nzoom: %g\npan: %.3g,%.3g\nplaying: %d\nhelp: %d\ntheme: %s\n",
            v->follow, v->zoom, v->pan_x, v->pan_y, v->playing || s->group.playing, v->help,
            sn_theme_get(v->theme)->name);
    fprintf(f, "message: %s%s\n", v->message_error ? "error: " : "", v->message);
    fprintf(f, "result: %s\n", result_of(v));
    fprintf(f, "font_scale: %g\nsound: %s\n", v->font_scale, v->sound ? "on" : "off");
    if (backend_lines)
        fputs(backend_lines, f);
    fprintf(f, "networks: %zu\n", s->group.count);
    /* the others side by side: network, step, result and values on one line */
    for (size_t i = 1; i < s->group.count; i++) {
        const sn_view *w = &s->group.view[i];
        fprintf(f, "view%zu: %s step %zu of %zu, %zu swaps, %s, values ", i + 1, w->name, w->step,
                w->layers, w->swap_before[w->step], result_of(w));
        dump_values(f, w);
        fprintf(f, "\n");
    }
    if (s->lesson)
        fprintf(f, "lesson_step: %zu of %zu\nlesson_title: %s\n", s->lesson_step + 1,
                s->lesson->count, s->lesson->steps[s->lesson_step].title);
    sn_session_exercise_dump(s, f);
    return dump_edit(f, v);
}
