/* group.c - networks side by side, stepped in lockstep (see group.h).
 *
 * Invariant: for every view i, view[i].step == min(step, view[i].layers)
 * whenever the group has more than one view; with one view the group's
 * step simply mirrors the view's. */
#include "session/group.h"

#include "session/dist_view.h" /* for: sn_view_open (a dist: name) */

#include <stdio.h>
#include <string.h>

sn_status sn_group_init(sn_group *g, const char *const *specs, size_t count,
                        const sn_view_input *in, sn_diag *diag)
{
    memset(g, 0, sizeof *g);
    if (count < 1 || count > SN_GROUP_MAX)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%zu networks: the window shows 1 to %d", count,
                           SN_GROUP_MAX);
    for (size_t i = 0; i < count; i++) {
        sn_status st = sn_view_open(&g->view[i], specs[i], in, diag);
        if (st != SN_OK) {
            sn_view_cleanup(&g->view[i]);
            sn_group_cleanup(g);
            return st;
        }
        g->count = i + 1;
        if (g->view[i].n != g->view[0].n) {
            sn_status bad =
                sn_diag_set(diag, SN_EINVAL, 0, 0,
                            "%s has %u wires but %s has %u: networks side by side need the same n",
                            g->view[i].name, g->view[i].n, g->view[0].name, g->view[0].n);
            sn_group_cleanup(g);
            return bad;
        }
    }
    if (count > 1)
        for (size_t i = 0; i < count; i++)
            sn_view_message(&g->view[i], false,
                            "%zu networks on the same input: Right steps all of them", count);
    return SN_OK;
}

void sn_group_cleanup(sn_group *g)
{
    for (size_t i = 0; i < g->count; i++)
        sn_view_cleanup(&g->view[i]);
    memset(g, 0, sizeof *g);
}

size_t sn_group_layers(const sn_group *g)
{
    size_t m = 0;
    for (size_t i = 0; i < g->count; i++)
        if (g->view[i].layers > m)
            m = g->view[i].layers;
    return m;
}

void sn_group_step_to(sn_group *g, size_t k)
{
    size_t L = sn_group_layers(g);
    g->step = k < L ? k : L;
    for (size_t i = 0; i < g->count; i++) {
        sn_view *v = &g->view[i];
        v->playing = false;
        sn_view_step_to(v, g->step < v->layers ? g->step : v->layers, false);
        v->anim_ms = 0;
    }
}

/* Global step forward or back by one: the views that move animate. */
static bool lockstep(sn_group *g, bool forward)
{
    size_t L = sn_group_layers(g);
    if (forward ? g->step >= L : g->step == 0)
        return false;
    g->step = forward ? g->step + 1 : g->step - 1;
    for (size_t i = 0; i < g->count; i++) {
        sn_view *v = &g->view[i];
        v->playing = false;
        size_t want = g->step < v->layers ? g->step : v->layers;
        sn_view_step_to(v, want, true);
    }
    return true;
}

/* "done: bitonic:16 sorted, oddeven-merge:16 sorted" */
static void done_message(sn_group *g)
{
    char buf[sizeof g->view[0].message];
    size_t len = 0;
    bool all = true;
    len += (size_t)snprintf(buf, sizeof buf, "done:");
    for (size_t i = 0; i < g->count && len < sizeof buf; i++) {
        bool ok = sn_view_output_sorted(&g->view[i], NULL);
        all = all && ok;
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s %s %s", i ? "," : "",
                                g->view[i].name, ok ? "sorted" : "NOT sorted");
    }
    sn_view_message(sn_group_main(g), !all, "%s", buf);
}

static bool refuse(sn_group *g, sn_action a)
{
    sn_view_message(sn_group_main(g), true,
                    "%s changes one network: with %zu side by side, start `sortnet view` on one",
                    sn_action_name(a), g->count);
    return true;
}

static bool broadcast(sn_group *g, sn_action a)
{
    bool changed = false;
    for (size_t i = 0; i < g->count; i++)
        changed |= sn_view_action(&g->view[i], a);
    return changed;
}

bool sn_group_action(sn_group *g, sn_action a)
{
    if (g->count == 1) {
        bool changed = sn_view_action(&g->view[0], a);
        g->step = g->view[0].step;
        return changed;
    }
    switch (a) {
    case SN_ACT_RIGHT:
    case SN_ACT_PAGE_DOWN:
    case SN_ACT_DOWN:
        g->playing = false;
        if (!lockstep(g, true))
            return false;
        if (g->step == sn_group_layers(g))
            done_message(g);
        return true;
    case SN_ACT_LEFT:
    case SN_ACT_PAGE_UP:
    case SN_ACT_UP: g->playing = false; return lockstep(g, false);
    case SN_ACT_HOME:
        g->playing = false;
        sn_group_step_to(g, 0);
        return true;
    case SN_ACT_END:
        g->playing = false;
        sn_group_step_to(g, sn_group_layers(g));
        done_message(g);
        return true;
    case SN_ACT_PLAY:
        if (g->playing) {
            g->playing = false;
            sn_view_message(sn_group_main(g), false, "paused");
            return true;
        }
        if (g->step >= sn_group_layers(g))
            sn_group_step_to(g, 0);
        g->playing = true;
        g->play_ms = 0;
        sn_view_message(sn_group_main(g), false, "playing at %g layers/s (+/- to change)",
                        sn_view_speed(sn_group_main(g)));
        return true;
    case SN_ACT_RANDOM:
    case SN_ACT_REVERSE:
    case SN_ACT_BITS:
        g->playing = false;
        broadcast(g, a);
        sn_group_step_to(g, 0);
        return true;
    case SN_ACT_COUNTER:
    case SN_ACT_GEN1:
    case SN_ACT_GEN2:
    case SN_ACT_GEN3:
    case SN_ACT_GEN4:
    case SN_ACT_GEN5:
    case SN_ACT_GEN6:
    case SN_ACT_BEST:
    case SN_ACT_N_DOWN:
    case SN_ACT_N_UP:
    case SN_ACT_RELOAD:
    case SN_ACT_EDIT:
    case SN_ACT_UNDO:
    case SN_ACT_REDO:
    case SN_ACT_DELETE:
    case SN_ACT_SELECT:
    case SN_ACT_RACE:
    case SN_ACT_RACE_LOAD:
    case SN_ACT_SAVE_NET: return refuse(g, a);
    case SN_ACT_HELP:
    case SN_ACT_SAVE_SVG:
    case SN_ACT_SAVE_PNG:
    case SN_ACT_FULLSCREEN:
    case SN_ACT_QUIT: return sn_view_action(sn_group_main(g), a);
    case SN_ACT_FASTER:
    case SN_ACT_SLOWER:
    case SN_ACT_THEME:
    case SN_ACT_FONT_UP:
    case SN_ACT_FONT_DOWN:
    case SN_ACT_MUTE:
    case SN_ACT_STRUCTURE:
    case SN_ACT_ZERO_ONE:
    case SN_ACT_FIT:
    case SN_ACT_UNFOLLOW:
    case SN_ACT_GPU: return broadcast(g, a) || true;
    case SN_ACT_NONE:
    case SN_ACT_COUNT: break;
    }
    return false;
}

bool sn_group_tick(sn_group *g, double dt_ms)
{
    if (g->count == 1) {
        bool changed = sn_view_tick(&g->view[0], dt_ms);
        g->step = g->view[0].step;
        return changed;
    }
    bool changed = false;
    for (size_t i = 0; i < g->count; i++)
        changed |= sn_view_tick(&g->view[i], dt_ms);
    if (!g->playing)
        return changed;
    double interval = 1000.0 / sn_view_speed(sn_group_main(g));
    g->play_ms += dt_ms;
    while (g->playing && g->play_ms >= interval) {
        g->play_ms -= interval;
        lockstep(g, true);
        changed = true;
        if (g->step >= sn_group_layers(g)) {
            g->playing = false;
            done_message(g);
        }
    }
    return changed;
}

bool sn_group_busy(const sn_group *g)
{
    if (g->playing)
        return true;
    for (size_t i = 0; i < g->count; i++)
        if (sn_view_busy(&g->view[i]))
            return true;
    return false;
}

void sn_group_settle(sn_group *g)
{
    for (size_t i = 0; i < g->count; i++)
        sn_view_settle(&g->view[i]);
}
