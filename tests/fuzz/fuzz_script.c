/* fuzz_script.c - libFuzzer target for `sortnet view --script KEYS`: the
 * script parser (sn_script_parse, src/session/script.c) and the window's state
 * machine that the keys and waits drive (sn_view_action, sn_view_tick),
 * without a window.
 *
 * Byte 0 picks the starting network (one of a few small generated ones,
 * never a file) and key type; the rest is the script text. Parsed events
 * must be well-formed (a known action, a wait within 0..3.6e6 ms). After
 * every action the view must keep its invariants
 * (0 <= step <= layers, n and layers agree with the schedule, the payload is
 * a permutation), and after "end" the values must be sorted, since every
 * network the view can switch to (keys 1-6) is a sorting network - unless
 * the edit verbs (e, add:, del:, move:, undo ...) changed it. Edits wait
 * for their verdict; nothing is saved (save: and ctrl+s are skipped). */
#include <stdio.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "fuzz_common.h"
#include "session/script.h"
#include "session/view.h"

#define MAX_ACTIONS 64

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

static void check_view(const sn_view *v, bool at_end)
{
    if (!v->sched || v->n != sn_schedule_wires(v->sched) ||
        v->layers != sn_schedule_layer_count(v->sched) || v->step > v->layers)
        abort();
    const uint32_t *val = sn_view_values(v), *pay = sn_view_payload(v);
    unsigned char *seen = calloc(v->n, 1);
    if (!val || !pay || !seen)
        abort();
    for (uint32_t i = 0; i < v->n; i++) {
        if (pay[i] >= v->n || seen[pay[i]])
            abort();
        seen[pay[i]] = 1;
        if (at_end && i > 0 &&
            sn_key_to_ordered(v->type, val[i - 1]) > sn_key_to_ordered(v->type, val[i])) {
            fprintf(stderr, "%s: not sorted after 'end' at wire %u\n", v->name, i);
            abort();
        }
    }
    free(seen);
}

/* Wait for edit mode's verdict, but only where the checker is quick (as
 * for 'b': transposition:40 takes seconds, minutes instrumented); a larger
 * check keeps running on its thread until the next edit cancels it. */
static void settle(sn_view *v)
{
    if (v->n <= 16)
        sn_view_settle(v);
}

/* The shown network is the one the view started with (never edited). */
static bool unedited(const sn_view *v)
{
    return v->hist_count == 0 || v->hist_pos == 0;
}

static bool edit(sn_view *v, const sn_script_event *e)
{
    switch (e->kind) {
    case SN_SCRIPT_ADD: return sn_view_edit_add(v, (uint32_t)e->i, (uint32_t)e->j, e->k);
    case SN_SCRIPT_DEL: return sn_view_edit_delete(v, (size_t)e->i, (size_t)e->j);
    case SN_SCRIPT_MOVE: return sn_view_edit_move(v, (size_t)e->i, (size_t)e->j, (size_t)e->k);
    case SN_SCRIPT_SELECT: return sn_view_edit_select(v, e->i, e->j);
    default: return false;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const nets[] = {"bitonic:8",  "oddeven-merge:5", "transposition:4",
                                       "pairwise:6", "bubble:3",        "insertion:1"};
    if (size < 1)
        return 0;
    char *script = fuzz_strdup(data + 1, size - 1);
    if (!script)
        return 0;
    sn_view v;
    memset(&v, 0, sizeof v);
    sn_view_input in = {SN_INPUT_RANDOM, data[0], NULL, (sn_key_type)(data[0] % 3)};
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_view_init(&v, nets[data[0] % 6], &in, &d) != SN_OK) {
        fprintf(stderr, "sn_view_init(%s): %s\n", nets[data[0] % 6], d.text);
        abort();
    }
    check_view(&v, false);
    sn_script_event *ev = NULL;
    size_t count = 0;
    sn_status st = sn_script_parse(script, &ev, &count, &d);
    if (st != SN_OK && (ev != NULL || count != 0 || d.text[0] == '\0'))
        abort(); /* a failure explains itself and hands out nothing */
    for (size_t i = 0; st == SN_OK && i < count && i < MAX_ACTIONS; i++) {
        switch (ev[i].kind) {
        case SN_SCRIPT_ACTION:
            /* 'b' runs the 0-1 checker, exponential in n and bounded only in
             * seconds (a release build refuses after about 3 s at n = 40);
             * instrumented, that is minutes. The checker is not what this
             * target tests, so keep it to small n. */
            /* the race starts a search on a thread (tests/test_race.c tests it) */
            if ((ev[i].act == SN_ACT_COUNTER && v.n > 16) || ev[i].act == SN_ACT_SAVE_NET ||
                ev[i].act == SN_ACT_RACE)
                break;
            if (ev[i].act <= SN_ACT_NONE || ev[i].act >= SN_ACT_COUNT ||
                sn_action_parse(sn_action_name(ev[i].act)) != ev[i].act)
                abort(); /* every action has a name that parses back to it */
            sn_view_action(&v, ev[i].act);
            settle(&v);
            v.requests = 0; /* the window loop would carry these out */
            check_view(&v, ev[i].act == SN_ACT_END && unedited(&v));
            break;
        case SN_SCRIPT_WAIT:
            if (!(ev[i].ms >= 0 && ev[i].ms <= 3.6e6))
                abort();
            sn_view_tick(&v, ev[i].ms);
            check_view(&v, false);
            break;
        case SN_SCRIPT_CLICK:
        case SN_SCRIPT_DCLICK:
        case SN_SCRIPT_WHEEL:
        case SN_SCRIPT_DRAG: break; /* window points need the frame layout (cairo): not here */
        case SN_SCRIPT_ADD:
        case SN_SCRIPT_DEL:
        case SN_SCRIPT_MOVE:
        case SN_SCRIPT_SELECT: {
            uint64_t id = v.net_id;
            size_t versions = v.hist_count;
            bool changed = edit(&v, &ev[i]);
            /* a refused edit changes nothing and says why */
            if (!changed && ev[i].kind != SN_SCRIPT_SELECT &&
                (v.net_id != id || v.hist_count != versions))
                abort();
            settle(&v);
            check_view(&v, false);
            break;
        }
        case SN_SCRIPT_SAVE: break; /* no files from a fuzzer */
        case SN_SCRIPT_ANSWER:
        case SN_SCRIPT_HINT: break; /* a lesson's exercise, which a bare view has not:
                                       the session's (test_exercise_session, fuzz_lesson) */
        case SN_SCRIPT_RACE: break; /* a search on a thread: tests/test_race.c */
        default: abort();
        }
    }
    sn_free(ev);
    sn_view_cleanup(&v);
    free(script);
    return 0;
}
