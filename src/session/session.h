/* session.h - one session behind every front-end (docs/design.md, "The
 * session and its backends"): the networks shown (a group of views and
 * their frames), a lesson and its step, edit mode's pointer gestures,
 * click-to-follow, the wheel, actions, the script player and the state
 * dump, with no platform under it.
 *
 * The shape of microui's input calls and olive.c's one render function:
 * input goes in as plain numbers (a pointer event, a wheel, an action, a
 * tick, a script event), and out comes a scene (sn_session_scene) and a
 * state (the views, sn_session_dump). Three backends drive it: the SDL
 * window (src/window) maps SDL's events to it and shows what cairo paints
 * of it; the headless backend (src/headless) plays scripts and writes
 * screenshots, recordings and state dumps with no window; the page
 * (src/web) maps the browser's events to it.
 *
 * Positions are device pixels of the last frame (sn_session_resize says
 * its size); a script's positions are window points (times the scale).
 *
 * Invariants: when `open`, group holds 1..SN_GROUP_MAX views and frames[i]
 * is the frame of view i; lesson_step < lesson->count while a lesson is
 * shown; a failing call leaves the views shown as they were. */
#ifndef SN_SESSION_H
#define SN_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/status.h"
#include "render/scene.h"
#include "session/exercise.h"
#include "session/frame_build.h"
#include "session/group.h"
#include "session/lesson.h"
#include "session/script.h"
#include "session/view.h"

/* A pointer event: press, move and release of the (left) button or a
 * finger; cancel ends a press that does nothing (a second finger came
 * down: a pinch); double is a double click (fit). */
typedef enum sn_pointer_kind {
    SN_POINTER_PRESS = 0,
    SN_POINTER_MOVE,
    SN_POINTER_RELEASE,
    SN_POINTER_CANCEL,
    SN_POINTER_DOUBLE
} sn_pointer_kind;

typedef struct sn_session {
    bool open; /* views are shown */
    sn_group group;
    sn_frame *frames[SN_GROUP_MAX];
    sn_lesson *lesson; /* owned, or NULL */
    size_t lesson_step;
    char progress[48];          /* "step 3 of 12" */
    sn_exercise_state exercise; /* the lesson's exercises (session/exercise.h) */
    unsigned long shown;        /* bumped whenever the views are replaced */
    sn_view_front front;        /* which front-end every view serves */
    void (*install)(sn_view *); /* the backend's hook on each new view (the GPU), or NULL */
    double w, h, scale;         /* the last frame: device pixels, HiDPI factor */
    /* the pointer */
    bool down, dragging, edit_down;
    double down_x, down_y, last_x, last_y;
    sn_frame_hit press;
    long pending_wire; /* two-click add: the first wire clicked, or -1 */
    size_t pending_col;
    double pending_x; /* layout x of that click (its dot is drawn there) */
} sn_session;

/* An empty session for the given front-end (nothing shown yet). */
void sn_session_init(sn_session *s, sn_view_front front);
void sn_session_cleanup(sn_session *s);

static inline sn_view *sn_session_main(sn_session *s)
{
    return sn_group_main(&s->group);
}

/* Show group g, taken over (cleaned up on failure too), with new frames;
 * leaves any lesson unless keep_lesson. SN_ENOMEM with diag set changes
 * nothing shown. */
sn_status sn_session_show(sn_session *s, sn_group *g, bool keep_lesson, sn_diag *diag);

/* Show lesson l (taken over, freed on failure) at its step 0. On failure
 * the lesson shown before, if any, stays. */
sn_status sn_session_lesson_open(sn_session *s, sn_lesson *l, sn_diag *diag);
/* Show step i of the lesson. On failure (no such step, out of memory)
 * diag says why, the main view's message line too, and nothing changes. */
sn_status sn_session_lesson_go(sn_session *s, size_t i, sn_diag *diag);

/* Leave the lesson: its step's views stay shown as plain views. */
void sn_session_lesson_close(sn_session *s);

/* One action from a key, a button or a script: in a lesson Right / Left
 * (and a clicker's PgDn / PgUp) move between its steps; Down / Up step
 * layers; any key ends a two-click add. Effects for the backend stay in
 * the main view's requests. true when anything visible changed. */
bool sn_session_action(sn_session *s, sn_action a);
/* Advance time by dt milliseconds; true when anything visible changed. */
bool sn_session_tick(sn_session *s, double dt_ms);
/* true while something moves by itself (the backend keeps drawing). */
bool sn_session_busy(const sn_session *s);
/* Block until every edit verdict is known (scripted runs). */
void sn_session_settle(sn_session *s);

/* The size of the frames the backend shows: w x h device pixels at HiDPI
 * factor scale (device pixels per window point). */
void sn_session_resize(sn_session *s, double w, double h, double scale);

/* A pointer event at device pixel (x, y); true when anything changed.
 * Outside edit mode a click follows the element on that wire and a drag
 * pans. In edit mode (one view shown): press on a wire and release on
 * another adds a comparator; a click on a wire then a click on another
 * adds one too; a click on a comparator selects it, dragging it moves it;
 * a click elsewhere on the wires deselects. */
bool sn_session_pointer(sn_session *s, sn_pointer_kind kind, double x, double y);
/* Mouse wheel: zoom around device pixel (x, y) by notches (positive: in). */
bool sn_session_wheel(sn_session *s, double x, double y, double notches);

/* One script event; *wait_ms gets the virtual time it asks to wait. An
 * edit verb, edit key or save that leaves an error message (outside edit
 * mode, a layer that does not exist, a file that cannot be written) fails
 * the script: false, and why says "--script column C, 'TOKEN': message"
 * (text is the script the event came from). */
bool sn_session_script_step(sn_session *s, const char *text, const sn_script_event *ev,
                            double *wait_ms, char *why, size_t cap);

/* The lesson's parts of a frame (title, caption, progress) in x, or NULL
 * outside a lesson. */
const sn_frame_extra *sn_session_extra(sn_session *s, sn_frame_extra *x);
/* The whole frame of the last size as one scene (the display list cairo
 * paints in the window and the headless backend, the page's script in a
 * browser). */
sn_status sn_session_scene(sn_session *s, sn_scene *sc);

/* The state as text lines ("network: NAME", "step: 3", ...; the format of
 * `sortnet view --dump-state`), with the backend's own lines (sound,
 * window) after "sound:". false when out of memory (the dump is then
 * incomplete: do not keep it). */
bool sn_session_dump(const sn_session *s, FILE *f, const char *backend_lines);

#endif
