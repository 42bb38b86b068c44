/* view.c - the window's state machine: network, input, trace, playback,
 * camera and messages, changed only through actions and time.
 *
 * Every change that can fail (loading a file, generating a network,
 * recording a trace) builds the new parts first and swaps them in only on
 * success, so a failed action leaves the previous view intact and explains
 * itself in the message line. */
#include "session/view.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <sys/stat.h> // for: stat (a free default file name)

#include "core/alloc.h"
#include "core/check_api.h"
#include "core/check.h"
#include "core/format.h"
#include "core/library.h"
#include "session/edit.h"
#include "session/verdict.h"

const sn_algo sn_view_generators[6] = {SN_ALGO_BITONIC,       SN_ALGO_ODDEVEN_MERGE,
                                       SN_ALGO_TRANSPOSITION, SN_ALGO_PAIRWISE,
                                       SN_ALGO_BUBBLE,        SN_ALGO_INSERTION};

static const double speeds[SN_VIEW_SPEEDS] = {0.5, 1, 2, 4, 8, 16, 32, 64};
#define DEFAULT_SPEED 2u

static const struct {
    const char *name;
    sn_action act;
} names[] = {
    {"right", SN_ACT_RIGHT},
    {"left", SN_ACT_LEFT},
    {"space", SN_ACT_PLAY},
    {"plus", SN_ACT_FASTER},
    {"+", SN_ACT_FASTER},
    {"minus", SN_ACT_SLOWER},
    {"-", SN_ACT_SLOWER},
    {"home", SN_ACT_HOME},
    {"end", SN_ACT_END},
    {"r", SN_ACT_RANDOM},
    {"v", SN_ACT_REVERSE},
    {"0", SN_ACT_BITS},
    {"b", SN_ACT_COUNTER},
    {"1", SN_ACT_GEN1},
    {"2", SN_ACT_GEN2},
    {"3", SN_ACT_GEN3},
    {"4", SN_ACT_GEN4},
    {"5", SN_ACT_GEN5},
    {"6", SN_ACT_GEN6},
    {"7", SN_ACT_BEST},
    {"[", SN_ACT_N_DOWN},
    {"]", SN_ACT_N_UP},
    {"o", SN_ACT_RELOAD},
    {"s", SN_ACT_SAVE_SVG},
    {"p", SN_ACT_SAVE_PNG},
    {"g", SN_ACT_GPU},
    {"h", SN_ACT_HELP},
    {"f1", SN_ACT_HELP},
    {"?", SN_ACT_HELP},
    {"f11", SN_ACT_FULLSCREEN},
    {"t", SN_ACT_THEME},
    {"fit", SN_ACT_FIT},
    {"escape", SN_ACT_UNFOLLOW},
    {"q", SN_ACT_QUIT},
    {"e", SN_ACT_EDIT},
    {"undo", SN_ACT_UNDO},
    {"ctrl+z", SN_ACT_UNDO},
    {"redo", SN_ACT_REDO},
    {"ctrl+y", SN_ACT_REDO},
    {"delete", SN_ACT_DELETE},
    {"tab", SN_ACT_SELECT},
    {"ctrl+s", SN_ACT_SAVE_NET},
    {"w", SN_ACT_STRUCTURE},
    {"z", SN_ACT_ZERO_ONE},
    {"pagedown", SN_ACT_PAGE_DOWN},
    {"pageup", SN_ACT_PAGE_UP},
    {"down", SN_ACT_DOWN},
    {"up", SN_ACT_UP},
    {"ctrl+plus", SN_ACT_FONT_UP},
    {"ctrl+minus", SN_ACT_FONT_DOWN},
    {"m", SN_ACT_MUTE},
    {"c", SN_ACT_RACE},
    {"l", SN_ACT_RACE_LOAD},
};

sn_action sn_action_parse(const char *name)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, name) == 0)
            return names[i].act;
    return SN_ACT_NONE;
}

const char *sn_action_name(sn_action a)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].act == a)
            return names[i].name;
    return "none";
}

#ifdef SN_API_CHECKS
/* The view's invariant (view.h), checked where a caller enters: a network
 * of 1..SN_VIEW_MAX_N wires, the step within it, the shown version within
 * the edit history. */
static bool view_ok(const sn_view *v)
{
    return v && v->sched && v->n >= 1 && v->n <= SN_VIEW_MAX_N && v->step <= v->layers &&
           (v->hist_count == 0 || v->hist_pos < v->hist_count) && v->hist_count <= v->hist_cap;
}
#endif

void sn_view_message(sn_view *v, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->message, sizeof v->message, fmt, ap);
    va_end(ap);
    v->message_error = error;
    v->message_seq++;
}

static void set_diag_message(sn_view *v, sn_status st, const sn_diag *d, const char *what)
{
    sn_view_message(v, true, "%s: %s", what, sn_diag_text(d, st));
}

/* ---- the trace of the current input */

typedef struct recorded {
    sn_trace *trace;
    size_t *cmp_before, *swap_before;
} recorded;

static void recorded_free(recorded *r)
{
    sn_trace_destroy(r->trace);
    sn_free(r->cmp_before);
    sn_free(r->swap_before);
}

static sn_status record(const sn_schedule *s, sn_key_type t, const uint32_t *input, recorded *r,
                        sn_diag *d)
{
    memset(r, 0, sizeof *r);
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    /* The window keeps every layer's array (keys and payload) to step back:
     * bound it before allocating, as a 4096-wire file may have millions of
     * layers. */
    if ((uint64_t)(L + 1) * n > SN_VIEW_MAX_STATES)
        return sn_diag_set(d, SN_ELIMIT, 0, 0,
                           "%s: %u wires x %zu layers is too much to step through in the window "
                           "(at most %llu values; try `sortnet run --trace` or `sortnet draw`)",
                           sn_schedule_name(s), n, L, (unsigned long long)SN_VIEW_MAX_STATES);
    uint32_t *ident = sn_calloc(n ? n : 1, sizeof *ident);
    r->cmp_before = sn_calloc(L + 1, sizeof *r->cmp_before);
    r->swap_before = sn_calloc(L + 1, sizeof *r->swap_before);
    if (!ident || !r->cmp_before || !r->swap_before) {
        sn_free(ident);
        recorded_free(r);
        return sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory recording the trace");
    }
    for (uint32_t i = 0; i < n; i++)
        ident[i] = i;
    sn_status st = sn_trace_record(s, t, input, ident, SN_TRACE_FULL, &r->trace, d);
    sn_free(ident);
    if (st != SN_OK) {
        r->trace = NULL;
        recorded_free(r);
        return st;
    }
    for (size_t k = 0; k < L; k++) {
        r->cmp_before[k + 1] = r->cmp_before[k] + sn_schedule_layer_size(s, k);
        r->swap_before[k + 1] = r->swap_before[k] + sn_trace_swap_count(r->trace, k);
    }
    return SN_OK;
}

static void install_trace(sn_view *v, recorded *r)
{
    sn_trace_destroy(v->trace);
    sn_free(v->cmp_before);
    sn_free(v->swap_before);
    v->trace = r->trace;
    v->cmp_before = r->cmp_before;
    v->swap_before = r->swap_before;
    v->generation++;
    v->data_generation++; /* a GPU verdict belongs to the old data */
}

static void compute_path(sn_view *v)
{
    sn_free(v->path);
    v->path = NULL;
    if (v->follow < 0 || (uint32_t)v->follow >= v->n) {
        v->follow = -1;
        return;
    }
    v->path = sn_calloc(v->layers + 1, sizeof *v->path);
    if (!v->path) {
        v->follow = -1;
        return;
    }
    for (size_t k = 0; k <= v->layers; k++) {
        const uint32_t *p = sn_trace_payload(v->trace, k);
        for (uint32_t i = 0; i < v->n; i++)
            if (p[i] == (uint32_t)v->follow)
                v->path[k] = i;
    }
    v->generation++;
}

static void reset_playback(sn_view *v)
{
    v->step = 0;
    v->playing = false;
    v->play_ms = 0;
    v->anim_ms = 0;
}

/* ---- inputs */

static sn_status make_input(const sn_view *v, uint32_t n, sn_input_kind kind, uint64_t seed,
                            const char *bits, uint32_t **out, sn_diag *d)
{
    uint32_t *keys = sn_calloc(n ? n : 1, sizeof *keys);
    if (!keys)
        return sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory");
    sn_input_spec spec = {kind, seed, bits};
    sn_status st = sn_input_make(&spec, v->type, n, keys, d);
    if (st != SN_OK) {
        sn_free(keys);
        return st;
    }
    *out = keys;
    return SN_OK;
}

/* Replace the input (keys consumed) and re-record; false (message set) on
 * failure, with the old state kept. */
static bool set_input(sn_view *v, uint32_t *keys, sn_input_kind kind)
{
    sn_diag d;
    sn_diag_clear(&d);
    recorded r;
    sn_status st = record(v->sched, v->type, keys, &r, &d);
    if (st != SN_OK) {
        sn_free(keys);
        set_diag_message(v, st, &d, "input");
        return false;
    }
    sn_free(v->input);
    v->input = keys;
    v->input_kind = kind;
    install_trace(v, &r);
    reset_playback(v);
    compute_path(v);
    return true;
}

/* A random 0-1 input that is not sorted yet (for n >= 2): a sorted one
 * (0...01...1) would make the demo seem to do nothing. */
static void random_bits(sn_view *v, uint32_t n, char *out)
{
    for (int tries = 0;; tries++) {
        for (uint32_t i = 0; i < n; i++)
            out[i] = (char)('0' + (sn_rand_next(&v->rng) >> 63));
        out[n] = '\0';
        const char *one = strchr(out, '1');
        if (n < 2 || (one && strchr(one, '0')))
            return;
        if (tries == 16) { /* n = 2 draws 3 sorted inputs in 4: just make one */
            uint32_t i = (uint32_t)(sn_rand_next(&v->rng) % (n - 1));
            out[i] = '1';
            out[i + 1] = '0';
            return;
        }
    }
}

/* An input of the current kind for a network on n wires (a given list of
 * another length becomes a random permutation). */
static sn_status input_for(sn_view *v, uint32_t n, sn_input_kind *kind, uint32_t **keys, sn_diag *d)
{
    if (*kind == SN_INPUT_LIST && v->input && v->n == n) {
        *keys = sn_calloc(n ? n : 1, sizeof **keys);
        if (!*keys)
            return sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory");
        memcpy(*keys, v->input, n * sizeof **keys);
        return SN_OK;
    }
    if (*kind == SN_INPUT_LIST)
        *kind = SN_INPUT_RANDOM;
    if (*kind == SN_INPUT_BITS && strlen(v->bits) != n)
        random_bits(v, n, v->bits);
    return make_input(v, n, *kind, v->seed, v->bits, keys, d);
}

/* ---- networks */

static void edit_reset(sn_view *v);
static bool edit_begin(sn_view *v);
static void verdict_start(sn_view *v);
static void race_new_network(sn_view *v);
static bool race_poll(sn_view *v);

/* Install schedule s (consumed): new input of the same kind, fresh trace.
 * An edited version (edited) keeps the camera and stays at the end when
 * the view was there; another network starts a new edit history. On
 * failure the old network stays and the message says why. */
static bool set_schedule(sn_view *v, sn_schedule *s, bool edited)
{
    sn_diag d;
    sn_diag_clear(&d);
    uint32_t n = sn_schedule_wires(s);
    if (n > SN_VIEW_MAX_N || n == 0) {
        sn_view_message(v, true, "%s: %u wires; the window shows 1 to %u (try `sortnet draw`)",
                        sn_schedule_name(s), n, SN_VIEW_MAX_N);
        sn_schedule_destroy(s);
        return false;
    }
    sn_input_kind kind = v->input_kind;
    char old_bits[sizeof v->bits];
    memcpy(old_bits, v->bits, sizeof old_bits);
    uint32_t *keys = NULL;
    sn_status st = input_for(v, n, &kind, &keys, &d);
    recorded r;
    if (st == SN_OK)
        st = record(s, v->type, keys, &r, &d);
    if (st != SN_OK) {
        memcpy(v->bits, old_bits, sizeof old_bits);
        set_diag_message(v, st, &d, sn_schedule_name(s));
        sn_free(keys);
        sn_schedule_destroy(s);
        return false;
    }
    bool at_end = v->step == v->layers;
    size_t old_step = v->step;
    sn_schedule_destroy(v->sched);
    v->sched = s;
    v->net_id++;
    v->n = n;
    v->layers = sn_schedule_layer_count(s);
    snprintf(v->name, sizeof v->name, "%s", sn_schedule_name(s));
    sn_free(v->input);
    v->input = keys;
    v->input_kind = kind;
    install_trace(v, &r);
    reset_playback(v);
    if (edited) {
        v->step = at_end || old_step > v->layers ? v->layers : old_step;
    } else {
        v->zoom = 1;
        v->pan_x = v->pan_y = 0;
    }
    if (v->follow >= 0 && (uint32_t)v->follow >= n)
        v->follow = -1;
    compute_path(v);
    if (!edited) {
        edit_reset(v);
        if (v->edit)
            edit_begin(v);
        race_new_network(v);
    }
    return true;
}

/* A new network would drop unsaved edits: refuse and say so. */
static bool guard_unsaved(sn_view *v)
{
    if (!sn_view_unsaved(v))
        return false;
    sn_view_message(v, true,
                    "unsaved edits: save them (Ctrl+S) or undo them (Ctrl+Z) before "
                    "switching the network");
    return true;
}

static bool generate(sn_view *v, sn_algo algo, uint32_t n)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    if (guard_unsaved(v))
        return false;
    sn_status st = sn_schedule_generate(algo, n, &s, &d);
    if (st != SN_OK) {
        sn_view_message(v, true, "%s:%u: %s", sn_algo_name(algo), n,
                        sn_diag_text(&d, st));
        return false;
    }
    unsigned long seq = v->message_seq;
    if (!set_schedule(v, s, false))
        return false;
    if (v->message_seq == seq) /* else a stopped race said so, naming the network */
        sn_view_message(v, false, "%s", v->name);
    return true;
}

/* A network by its command-line name (sn_schedule_load), e.g. "best:12". */
static bool load_named(sn_view *v, const char *spec)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    if (guard_unsaved(v))
        return false;
    sn_status st = sn_schedule_load(spec, &s, &d);
    if (st != SN_OK) {
        sn_view_message(v, true, "%s", sn_diag_text(&d, st));
        return false;
    }
    unsigned long seq = v->message_seq;
    if (!set_schedule(v, s, false))
        return false;
    if (v->message_seq == seq) /* else a stopped race said so, naming the network */
        sn_view_message(v, false, "%s", v->name);
    return true;
}

/* "best" or "best-depth" when the view shows best:N or best-depth:N (the
 * shipped library), else NULL. */
static const char *library_family(const sn_view *v)
{
    if (strncmp(v->name, "best:", 5) == 0)
        return "best";
    if (strncmp(v->name, "best-depth:", 11) == 0)
        return "best-depth";
    return NULL;
}

/* 7: the best-known network for this n; on best:n, best-depth:n (and back),
 * so a class sees the size record next to the depth record. */
static bool best_known(sn_view *v)
{
    const char *family = library_family(v);
    char spec[64];
    snprintf(spec, sizeof spec, "%s:%u",
             family && strcmp(family, "best") == 0 ? "best-depth" : "best", v->n);
    load_named(v, spec);
    return true;
}

static bool reload(sn_view *v)
{
    if (!v->file) {
        sn_view_message(v, true,
                        "O reloads a network file given on the command line; "
                        "this view was started with a generator name");
        return false;
    }
    if (guard_unsaved(v))
        return false;
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_load(v->file, &s, &d);
    if (st != SN_OK) {
        sn_view_message(v, true, "reload failed, keeping the old network: %s",
                        sn_diag_text(&d, st));
        return false;
    }
    unsigned long seq = v->message_seq;
    if (!set_schedule(v, s, false))
        return false;
    if (v->message_seq == seq) /* else a stopped race said so, naming the network */
        sn_view_message(v, false, "reloaded %s", v->file);
    return true;
}

/* "bitonic:16", "empty:4": a name, not a file (sn_schedule_load reads a
 * NAME: spec as a file only when it contains '/'). */
static bool is_generator_name(const char *spec)
{
    const char *p = spec;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '-' || *p == '_')
        p++;
    return p > spec && *p == ':' && !strchr(spec, '/');
}

sn_status sn_view_init(sn_view *v, const char *spec, const sn_view_input *in, sn_diag *diag)
{
    sn_schedule *s = NULL;
    sn_status st = sn_schedule_load(spec, &s, diag);
    if (st != SN_OK) {
        memset(v, 0, sizeof *v);
        return st;
    }
    bool file = strcmp(spec, "-") != 0 && !is_generator_name(spec);
    return sn_view_init_schedule(v, s, spec, file ? spec : NULL, in, diag);
}

sn_status sn_view_init_schedule(sn_view *v, sn_schedule *s, const char *spec, const char *file,
                                const sn_view_input *in, sn_diag *diag)
{
    memset(v, 0, sizeof *v);
    v->follow = -1;
    v->sel_layer = v->sel_index = -1;
    v->saved_pos = SIZE_MAX;
    v->zoom = 1;
    v->font_scale = 1;
    v->theme = SN_THEME_LIGHT;
    v->speed = DEFAULT_SPEED;
    v->type = in ? in->type : SN_KEY_I32;
    v->input_kind = in ? in->kind : SN_INPUT_RANDOM;
    v->seed = in ? in->seed : 1;
    v->rng = v->seed ^ 0x5DEECE66Dull;
#ifdef SN_HAVE_OPENCL
    v->gpu_built = true;
#endif
    sn_status st;
    uint32_t n = sn_schedule_wires(s);
    if (n == 0 || n > SN_VIEW_MAX_N) {
        sn_schedule_destroy(s);
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%s: %u wires; the window shows 1 to %u (try `sortnet draw`)", spec, n,
                           SN_VIEW_MAX_N);
    }
    if (file) {
        v->file = sn_strdup(file);
        if (!v->file) {
            sn_schedule_destroy(s);
            return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
        }
    }
    uint32_t *keys = NULL;
    if (in && (in->kind == SN_INPUT_LIST || in->kind == SN_INPUT_BITS)) {
        if (in->kind == SN_INPUT_BITS && in->text && strlen(in->text) <= SN_VIEW_MAX_N)
            snprintf(v->bits, sizeof v->bits, "%s", in->text);
        st = make_input(v, n, in->kind, v->seed, in->text, &keys, diag);
    } else {
        st = make_input(v, n, v->input_kind, v->seed, NULL, &keys, diag);
    }
    recorded r;
    if (st == SN_OK)
        st = record(s, v->type, keys, &r, diag);
    if (st != SN_OK) {
        sn_free(keys);
        sn_schedule_destroy(s);
        sn_free(v->file);
        v->file = NULL;
        return st;
    }
    v->sched = s;
    v->net_id++;
    v->n = n;
    v->layers = sn_schedule_layer_count(s);
    snprintf(v->name, sizeof v->name, "%s", sn_schedule_name(s));
    v->input = keys;
    install_trace(v, &r);
    sn_view_message(v, false, "Right: next layer   Space: play   R: new random input");
    /* nothing to step through yet: start building it */
    if (v->layers == 0 && n >= 2)
        sn_view_action(v, SN_ACT_EDIT);
    return SN_OK;
}

void sn_view_cleanup(sn_view *v)
{
    edit_reset(v);
    sn_free(v->hist);
    sn_verdict_destroy(v->worker);
    sn_race_destroy(v->race); /* stops and joins its search */
    sn_network_destroy(v->race_best);
    sn_schedule_destroy(v->sched);
    sn_trace_destroy(v->trace);
    sn_free(v->cmp_before);
    sn_free(v->swap_before);
    sn_free(v->input);
    sn_free(v->path);
    sn_free(v->file);
    memset(v, 0, sizeof *v);
    v->follow = -1;
    v->sel_layer = v->sel_index = -1;
    v->saved_pos = SIZE_MAX;
}

/* ---- edit mode */

static void verdict_clear(sn_view *v)
{
    sn_free(v->redundant);
    v->redundant = NULL;
    v->redundant_count = 0;
    v->cex[0] = '\0';
    v->failing = 0;
    v->verdict_why[0] = '\0';
    v->verdict_progress = 0;
}

/* Forget the edit history (the shown network stays). */
static void edit_reset(sn_view *v)
{
    sn_verdict_cancel(v->worker);
    for (size_t i = 0; i < v->hist_count; i++)
        sn_network_destroy(v->hist[i]);
    v->hist_count = v->hist_pos = 0;
    v->saved_pos = SIZE_MAX;
    v->sel_layer = v->sel_index = -1;
    v->quit_armed = false;
    v->verdict = SN_VERDICT_NONE;
    verdict_clear(v);
}

/* Push net (consumed) as the newest version, dropping the redo part. */
static bool hist_push(sn_view *v, sn_network *net)
{
    if (v->hist_count == v->hist_cap) {
        size_t cap = v->hist_cap ? v->hist_cap * 2 : 16, bytes;
        sn_network **g = NULL;
        if (sn_mul_size(cap, sizeof *g, &bytes))
            g = sn_realloc(v->hist, bytes);
        if (!g) {
            sn_network_destroy(net);
            return false;
        }
        v->hist = g;
        v->hist_cap = cap;
    }
    size_t at = v->hist_count ? v->hist_pos + 1 : 0;
    for (size_t i = at; i < v->hist_count; i++)
        sn_network_destroy(v->hist[i]);
    if (v->saved_pos != SIZE_MAX && v->saved_pos >= at)
        v->saved_pos = SIZE_MAX; /* the saved version was undone and is gone */
    v->hist[at] = net;
    v->hist_count = at + 1;
    v->hist_pos = at;
    return true;
}

/* The shown schedule as a network of its own (closed forms materialized),
 * or NULL with the message saying why `what` cannot go on. */
static sn_network *materialize(sn_view *v, const char *what)
{
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_to_network(v->sched, &net, &d);
    if (st != SN_OK) {
        set_diag_message(v, st, &d, what);
        return NULL;
    }
    return net;
}

/* The shown network as the first version of a new history. */
static bool edit_begin(sn_view *v)
{
    if (v->hist_count)
        return true;
    sn_network *net = materialize(v, "edit mode");
    if (!net)
        return false;
    if (!hist_push(v, net)) {
        sn_view_message(v, true, "edit mode: out of memory");
        return false;
    }
    v->saved_pos = 0;
    verdict_start(v);
    return true;
}

/* Check the shown version on the worker thread (cancelling the last one). */
static void verdict_start(sn_view *v)
{
    verdict_clear(v);
    v->verdict_net = v->net_id;
    v->verdict = SN_VERDICT_CHECKING;
    if (!v->worker)
        v->worker = sn_verdict_create();
    /* the copy is made only for a worker, which consumes it (even when it
     * cannot start the job): no worker, no copy to leak */
    sn_network *copy = v->worker && v->hist_count ? sn_network_clone(v->hist[v->hist_pos]) : NULL;
    if (!copy || sn_verdict_start(v->worker, copy, v->net_id) != SN_OK) {
        v->verdict = SN_VERDICT_UNKNOWN;
        snprintf(v->verdict_why, sizeof v->verdict_why, "could not start the checker");
    }
}

/* Take the worker's result if it is there (or wait for it). */
static bool verdict_poll(sn_view *v, bool wait)
{
    if (v->verdict != SN_VERDICT_CHECKING)
        return false;
    sn_verdict_result r;
    if (!sn_verdict_take(v->worker, wait, &r)) {
        double p = sn_verdict_progress(v->worker);
        bool changed = p != v->verdict_progress;
        v->verdict_progress = p;
        return changed;
    }
    if (r.id != v->verdict_net) { /* cannot happen: a new job cancels the old */
        sn_check_result_free(&r.check);
        return false;
    }
    if (r.status != SN_OK) {
        v->verdict = SN_VERDICT_UNKNOWN;
        snprintf(v->verdict_why, sizeof v->verdict_why, "%s", r.why);
        return true;
    }
    v->verdict = r.check.sorts ? SN_VERDICT_SORTS : SN_VERDICT_FAILS;
    if (!r.check.sorts) {
        uint32_t n = v->n < sizeof v->cex ? v->n : (uint32_t)sizeof v->cex - 1;
        for (uint32_t i = 0; i < n; i++)
            v->cex[i] = (char)('0' + (r.check.counterexample[i] ? 1 : 0));
        v->cex[n] = '\0';
        v->failing = r.check.failing_count;
    }
    v->redundant = r.check.redundant; /* taken over */
    v->redundant_count = r.check.redundant_count;
    r.check.redundant = NULL;
    sn_check_result_free(&r.check);
    return true;
}

void sn_view_settle(sn_view *v)
{
    sn_api_check(view_ok(v));
    verdict_poll(v, true);
}

/* Show version hist_pos: a new explicit schedule on the same input. */
static bool show_version(sn_view *v)
{
    sn_network *copy = sn_network_clone(v->hist[v->hist_pos]);
    sn_schedule *s = NULL;
    char name[sizeof v->name];
    snprintf(name, sizeof name, "%s", v->name);
    if (!copy || sn_network_set_name(copy, name) != SN_OK) {
        sn_network_destroy(copy);
        sn_view_message(v, true, "edit: out of memory");
        return false;
    }
    if (sn_schedule_from_network(copy, &s) != SN_OK) { /* copy consumed, even so */
        sn_view_message(v, true, "edit: out of memory");
        return false;
    }
    if (!set_schedule(v, s, true))
        return false;
    v->quit_armed = false;
    verdict_start(v);
    return true;
}

static bool editing(sn_view *v, const char *what)
{
    if (v->edit && v->hist_count)
        return true;
    sn_view_message(v, true, "%s: edit mode is off (press E first; a script starts with e)", what);
    return false;
}

/* Make result (consumed) the newest version and show it. */
static bool apply(sn_view *v, sn_network *result)
{
    if (sn_network_equal(result, v->hist[v->hist_pos])) {
        sn_network_destroy(result);
        return false; /* nothing changed: no version to undo */
    }
    size_t pos = v->hist_pos;
    if (!hist_push(v, result)) {
        sn_view_message(v, true, "edit: out of memory");
        return false;
    }
    if (!show_version(v)) {
        /* the view still shows the old one; the version it could not
         * show goes (else Ctrl+Y would bring back the failed edit) */
        sn_network_destroy(v->hist[pos + 1]);
        v->hist_count = pos + 1;
        v->hist_pos = pos;
        return false;
    }
    return true;
}

static bool edit_failed(sn_view *v, const char *what, sn_status st, const sn_diag *d)
{
    sn_view_message(v, true, "%s: %s; nothing changed", what,
                    sn_diag_text(d, st));
    return false;
}

static void select_cmp(sn_view *v, size_t layer, size_t index)
{
    v->sel_layer = (long)layer;
    v->sel_index = (long)index;
}

bool sn_view_edit_add(sn_view *v, uint32_t a, uint32_t b, long col)
{
    sn_api_check(view_ok(v));
    char what[64];
    snprintf(what, sizeof what, "add:%u,%u", a, b);
    if (!editing(v, what))
        return false;
    const sn_network *cur = v->hist[v->hist_pos];
    sn_network *res = NULL;
    size_t layer = 0, index = 0;
    sn_diag d;
    sn_diag_clear(&d);
    size_t c = 0;
    if (col >= 0)
        c = (size_t)col;
    else if (a < v->n && b < v->n)
        c = sn_edit_after_last(cur, a, b);
    sn_status st = sn_edit_insert(cur, a, b, c, &res, &layer, &index, &d);
    if (st != SN_OK)
        return edit_failed(v, what, st, &d);
    if (!apply(v, res))
        return false;
    select_cmp(v, layer, index);
    sn_view_message(v, false, "added (%u,%u)%s in layer %zu", a, b, a > b ? " (reversed)" : "",
                    layer + 1);
    return true;
}

bool sn_view_edit_delete(sn_view *v, size_t layer, size_t index)
{
    sn_api_check(view_ok(v));
    char what[64];
    snprintf(what, sizeof what, "del:%zu,%zu", layer, index);
    if (!editing(v, what))
        return false;
    sn_network *res = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_comparator c = {0, 0};
    size_t count = 0;
    if (layer < sn_network_layer_count(v->hist[v->hist_pos])) {
        const sn_comparator *cs = sn_network_layer(v->hist[v->hist_pos], layer, &count);
        if (index < count)
            c = cs[index];
    }
    sn_status st = sn_edit_delete(v->hist[v->hist_pos], layer, index, &res, &d);
    if (st != SN_OK)
        return edit_failed(v, what, st, &d);
    if (!apply(v, res))
        return false;
    v->sel_layer = v->sel_index = -1;
    sn_view_message(v, false, "deleted (%u,%u) of layer %zu", c.a, c.b, layer + 1);
    return true;
}

bool sn_view_edit_move(sn_view *v, size_t layer, size_t index, size_t col)
{
    sn_api_check(view_ok(v));
    char what[64];
    snprintf(what, sizeof what, "move:%zu,%zu,%zu", layer, index, col);
    if (!editing(v, what))
        return false;
    sn_network *res = NULL;
    size_t nl = 0, ni = 0;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_edit_move(v->hist[v->hist_pos], layer, index, col, &res, &nl, &ni, &d);
    if (st != SN_OK)
        return edit_failed(v, what, st, &d);
    if (!apply(v, res)) {
        select_cmp(v, layer, index);
        return false;
    }
    select_cmp(v, nl, ni);
    sn_view_message(v, false, "moved to layer %zu", nl + 1);
    return true;
}

bool sn_view_edit_select(sn_view *v, long layer, long index)
{
    sn_api_check(view_ok(v));
    if (layer < 0) {
        bool had = v->sel_layer >= 0;
        v->sel_layer = v->sel_index = -1;
        return had;
    }
    if (!editing(v, "select"))
        return false;
    size_t count = 0;
    if ((size_t)layer < v->layers)
        sn_network_layer(v->hist[v->hist_pos], (size_t)layer, &count);
    if (index < 0 || (size_t)index >= count) {
        if ((size_t)layer >= v->layers)
            sn_view_message(v, true,
                            "select:%ld,%ld: there is no layer %ld: the network has %zu (script "
                            "verbs number them 0 to %ld)",
                            layer, index, layer + 1, v->layers, (long)v->layers - 1);
        else
            sn_view_message(v, true,
                            "select:%ld,%ld: layer %ld has no comparator %ld: it has %zu (script "
                            "verbs number them 0 to %ld)",
                            layer, index, layer + 1, index + 1, count, (long)count - 1);
        return false;
    }
    select_cmp(v, (size_t)layer, (size_t)index);
    const sn_comparator *c = sn_network_layer(v->hist[v->hist_pos], (size_t)layer, &count);
    sn_view_message(v, false, "selected (%u,%u) of layer %ld: Delete removes it, a drag moves it",
                    c[index].a, c[index].b, layer + 1);
    return true;
}

/* Tab: the next comparator in layer order (wrapping). */
static bool select_next(sn_view *v)
{
    if (!editing(v, "select"))
        return false;
    if (v->layers == 0) {
        sn_view_message(v, true, "select: there are no comparators yet");
        return false;
    }
    size_t layer = 0, index = 0, count = 0;
    if (v->sel_layer >= 0) {
        layer = (size_t)v->sel_layer;
        index = (size_t)v->sel_index + 1;
        sn_network_layer(v->hist[v->hist_pos], layer, &count);
        if (index >= count) {
            index = 0;
            layer = (layer + 1) % v->layers;
        }
    }
    return sn_view_edit_select(v, (long)layer, (long)index);
}

static bool undo_redo(sn_view *v, bool redo)
{
    if (!editing(v, redo ? "redo" : "undo"))
        return false;
    if (redo ? v->hist_pos + 1 >= v->hist_count : v->hist_pos == 0) {
        sn_view_message(v, false, "nothing to %s", redo ? "redo" : "undo");
        return false;
    }
    size_t pos = v->hist_pos;
    v->hist_pos = redo ? pos + 1 : pos - 1;
    if (!show_version(v)) {
        v->hist_pos = pos;
        return false;
    }
    v->sel_layer = v->sel_index = -1;
    sn_view_message(v, false, "%s (version %zu of %zu)", redo ? "redone" : "undone",
                    v->hist_pos + 1, v->hist_count);
    return true;
}

bool sn_view_unsaved(const sn_view *v)
{
    return v->hist_count > 0 && v->hist_pos != v->saved_pos;
}

/* "sortnet-empty-4.txt", or the first free "-2", "-3" ... */
static void default_file(const sn_view *v, char *out, size_t cap)
{
    char base[sizeof v->name];
    size_t j = 0;
    for (const char *p = v->name; *p && j + 1 < sizeof base; p++) {
        char c = *p;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '-' || c == '_';
        base[j++] = ok ? c : '-';
    }
    base[j] = '\0';
    for (int i = 1; i < 1000; i++) {
        if (i == 1)
            snprintf(out, cap, "sortnet-%s.txt", base);
        else
            snprintf(out, cap, "sortnet-%s-%d.txt", base, i);
        struct stat sb;
        if (stat(out, &sb) != 0)
            return;
    }
}

bool sn_view_save(sn_view *v, const char *path)
{
    sn_api_check(view_ok(v));
    char def[300];
    if (!path) {
        path = v->file;
        if (!path) {
            default_file(v, def, sizeof def);
            path = def;
        }
    }
    sn_network *owned = v->hist_count ? NULL : materialize(v, "not saved");
    const sn_network *net = v->hist_count ? v->hist[v->hist_pos] : owned;
    if (!net)
        return false;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_edit_save(net, path, &d);
    sn_network_destroy(owned);
    if (st != SN_OK) {
        sn_view_message(v, true, "not saved: %s", sn_diag_text(&d, st));
        return false;
    }
    if (!v->file || strcmp(v->file, path) != 0) {
        char *copy = sn_strdup(path);
        if (copy) {
            sn_free(v->file);
            v->file = copy;
        }
    }
    const char *base = strrchr(path, '/');
    snprintf(v->name, sizeof v->name, "%.127s", base ? base + 1 : path);
    sn_schedule_set_name(v->sched, v->name);
    if (v->hist_count)
        v->saved_pos = v->hist_pos;
    v->quit_armed = false;
    sn_view_message(v, false, "saved %s (%s)", path, sn_format_name(sn_edit_format_for(path)));
    return true;
}

static bool toggle_edit(sn_view *v)
{
    if (v->edit) {
        v->edit = false;
        v->preview.on = false;
        bool raced = sn_race_stop(v->race);
        race_poll(v);
        v->race_shown = false;
        sn_view_message(v, false, "edit mode off%s%s",
                        sn_view_unsaved(v) ? " (the edits are not saved: Ctrl+S)" : "",
                        raced ? "; the race is stopped" : "");
        return true;
    }
    v->edit = true;
    if (!edit_begin(v)) {
        v->edit = false;
        return true;
    }
    if (v->verdict == SN_VERDICT_NONE)
        verdict_start(v);
    if (v->front == SN_FRONT_PAGE) /* a finger cannot always drag: two taps do it too */
        sn_view_message(v, false,
                        "edit mode: tap a wire, then another, to add a comparator; tap one to "
                        "select it; E ends");
    else
        sn_view_message(v, false,
                        "edit mode: drag from wire to wire to add a comparator, click one to "
                        "select; E ends");
    return true;
}

const char *sn_view_verdict_text(const sn_view *v, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (!v->edit || v->verdict_net != v->net_id)
        return buf;
    switch (v->verdict) {
    case SN_VERDICT_NONE: break;
    case SN_VERDICT_CHECKING:
        snprintf(buf, cap, "checking\xE2\x80\xA6 %.0f%%", v->verdict_progress * 100);
        break;
    case SN_VERDICT_SORTS: snprintf(buf, cap, "sorts"); break;
    case SN_VERDICT_FAILS:
        snprintf(buf, cap, "does NOT sort: counterexample %s (B plays it)", v->cex);
        break;
    case SN_VERDICT_UNKNOWN: snprintf(buf, cap, "not checked: %s", v->verdict_why); break;
    }
    return buf;
}

const char *sn_view_size_text(const sn_view *v, char *buf, size_t cap)
{
    size_t size = v->cmp_before[v->layers], best = sn_library_best_size(v->n);
    if (best > 0)
        snprintf(buf, cap, "%zu comparator%s, best known %zu; %zu layer%s", size,
                 size == 1 ? "" : "s", best, v->layers, v->layers == 1 ? "" : "s");
    else
        snprintf(buf, cap, "%zu comparator%s; %zu layer%s", size, size == 1 ? "" : "s", v->layers,
                 v->layers == 1 ? "" : "s");
    return buf;
}

bool sn_view_is_redundant(const sn_view *v, size_t index)
{
    if (!v->edit || v->verdict_net != v->net_id)
        return false;
    size_t lo = 0, hi = v->redundant_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v->redundant[mid] < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < v->redundant_count && v->redundant[lo] == index;
}

/* ---- the race */

/* Take the race's snapshot (and a copy of a new best). true when what the
 * panel shows changed (a new best, a new state, another whole second). */
static bool race_poll(sn_view *v)
{
    if (!v->race)
        return false;
    sn_race_snap old = v->race_snap;
    sn_network *best = NULL;
    sn_race_poll(v->race, &v->race_snap, old.gen, &best);
    if (best) {
        sn_network_destroy(v->race_best);
        v->race_best = best;
    } else if (v->race_snap.gen != old.gen && !v->race_snap.have_best) {
        sn_network_destroy(v->race_best); /* a new race: nothing found yet */
        v->race_best = NULL;
    }
    bool changed = v->race_snap.gen != old.gen || v->race_snap.state != old.state ||
                   floor(v->race_snap.elapsed_s) != floor(old.elapsed_s);
    if (changed && old.state == SN_RACE_RUNNING && v->race_snap.state == SN_RACE_DONE) {
        char when[32];
        if (v->race_snap.found_s < 0.1)
            snprintf(when, sizeof when, "under 0.1 s");
        else
            snprintf(when, sizeof when, "%.1f s", v->race_snap.found_s);
        sn_view_message(v, false,
                        "the computer reached %zu comparators (best known) in %s: L loads its "
                        "network",
                        v->race_snap.size, when);
    }
    if (changed && old.state == SN_RACE_RUNNING && v->race_snap.state == SN_RACE_FAILED)
        sn_view_message(v, true, "race: %s", v->race_snap.why);
    return changed;
}

/* Another network was loaded: a race for another n stops. */
static void race_new_network(sn_view *v)
{
    if (!v->race || v->race_snap.n == v->n)
        return;
    if (sn_race_stop(v->race)) {
        race_poll(v);
        sn_view_message(v, false,
                        "%s: the race on %u wires is stopped (n changed; C starts one on %u)",
                        v->name, v->race_snap.n, v->n);
    }
}

bool sn_view_race_start(sn_view *v, bool from_student)
{
    sn_api_check(view_ok(v));
    if (!editing(v, "race"))
        return false;
    if (!v->race && !(v->race = sn_race_create())) {
        sn_view_message(v, true, "race: out of memory");
        return false;
    }
    size_t goal = sn_library_best_size(v->n);
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_race_start(v->race, v->n, from_student ? v->hist[v->hist_pos] : NULL, goal, 0,
                                 ++v->race_seed, &d);
    if (st != SN_OK) {
        race_poll(v);
        sn_view_message(v, true, "race: %s", sn_diag_text(&d, st));
        return false;
    }
    v->race_shown = true;
    if (goal)
        sn_view_message(v, false,
                        "race: the computer searches %u wires%s for the best known %zu "
                        "comparators; C stops it, L loads its network",
                        v->n, from_student ? " from your network" : "", goal);
    else
        sn_view_message(v, false,
                        "race: the computer searches %u wires%s until C stops it; L loads its "
                        "network",
                        v->n, from_student ? " from your network" : "");
    /* a race that has ended already (a small n) is announced by the poll */
    v->race_snap.state = SN_RACE_RUNNING;
    race_poll(v);
    return true;
}

bool sn_view_race_stop(sn_view *v)
{
    sn_api_check(view_ok(v));
    if (!sn_race_stop(v->race)) {
        race_poll(v);
        if (v->race_snap.state == SN_RACE_OFF) {
            sn_view_message(v, true, "race stop: no race is running (C starts one in edit mode)");
            return false;
        }
        sn_view_message(v, false, "race stop: the race has ended already (%s)",
                        sn_race_state_name(v->race_snap.state));
        return true;
    }
    race_poll(v);
    sn_view_message(v, false, "race stopped after %.0f s: the computer's best %s",
                    v->race_snap.elapsed_s,
                    v->race_snap.have_best ? "stays (L loads it)" : "was not found yet");
    return true;
}

bool sn_view_race_wait(sn_view *v)
{
    sn_api_check(view_ok(v));
    if (v->race && v->race_snap.state == SN_RACE_RUNNING &&
        (v->race_snap.goal == 0 || v->race_snap.n > SN_VIEW_RACE_WAIT_MAX_N)) {
        sn_view_message(v, true,
                        "race wait: on %u wires the computer may take minutes or never reach "
                        "the best known size; race:wait waits up to %u wires (race:stop ends "
                        "a race)",
                        v->race_snap.n, SN_VIEW_RACE_WAIT_MAX_N);
        return false;
    }
    sn_race_wait(v->race);
    race_poll(v);
    if (v->race_snap.state != SN_RACE_DONE) {
        sn_view_message(v, true, "race wait: %s",
                        v->race_snap.state == SN_RACE_OFF ? "no race was started (race starts one)"
                        : v->race_snap.state == SN_RACE_FAILED ? v->race_snap.why
                                                               : "the race was stopped");
        return false;
    }
    return true;
}

bool sn_view_race_load(sn_view *v)
{
    sn_api_check(view_ok(v));
    if (!editing(v, "race load"))
        return false;
    race_poll(v);
    if (!v->race_best) {
        sn_view_message(v, true, "race load: the computer has no network yet%s",
                        v->race_snap.state == SN_RACE_OFF ? " (C starts the race)" : "");
        return false;
    }
    if (sn_network_wires(v->race_best) != v->n) {
        sn_view_message(v, true, "race load: the computer's network has %u wires, yours %u",
                        sn_network_wires(v->race_best), v->n);
        return false;
    }
    if (sn_network_equal(v->race_best, v->hist[v->hist_pos])) {
        sn_view_message(v, false, "race load: the editor holds the computer's network already");
        return true;
    }
    sn_network *copy = sn_network_clone(v->race_best);
    if (!copy) {
        sn_view_message(v, true, "race load: out of memory");
        return false;
    }
    if (!apply(v, copy))
        return false;
    v->sel_layer = v->sel_index = -1;
    sn_view_message(v, false,
                    "loaded the computer's network: %zu comparator%s, %zu layer%s (Ctrl+Z undoes)",
                    v->race_snap.size, v->race_snap.size == 1 ? "" : "s", v->race_snap.depth,
                    v->race_snap.depth == 1 ? "" : "s");
    return true;
}

const char *sn_view_race_ahead(const sn_view *v, char *detail, size_t cap)
{
    if (detail && cap)
        detail[0] = '\0';
    const sn_race_snap *r = &v->race_snap;
    if (!v->race_shown || r->state == SN_RACE_OFF)
        return "";
    bool mine = v->edit && v->verdict_net == v->net_id && v->verdict == SN_VERDICT_SORTS;
    size_t size = v->cmp_before[v->layers], depth = v->layers;
    if (!r->have_best && !mine)
        return "nobody yet";
    if (!r->have_best) {
        if (detail)
            snprintf(detail, cap, "yours sorts, the computer has none yet");
        return "you";
    }
    if (!mine) {
        if (detail)
            snprintf(detail, cap, "yours does not sort yet");
        return "the computer";
    }
    if (size != r->size || depth != r->depth) {
        bool you = size < r->size || (size == r->size && depth < r->depth);
        if (detail) {
            if (size != r->size)
                snprintf(detail, cap, "%zu against %zu comparators", you ? size : r->size,
                         you ? r->size : size);
            else
                snprintf(detail, cap, "same size, %zu against %zu layers", you ? depth : r->depth,
                         you ? r->depth : depth);
        }
        return you ? "you" : "the computer";
    }
    if (detail)
        snprintf(detail, cap, "%zu comparators, %zu layers each", size, depth);
    return "a tie";
}

/* ---- stepping */

static double anim_length(const sn_view *v)
{
    double interval = 1000.0 / speeds[v->speed];
    double len = SN_VIEW_ANIM_MS;
    return v->playing && len > 0.7 * interval ? 0.7 * interval : len;
}

bool sn_view_step_to(sn_view *v, size_t k, bool animate)
{
    sn_api_check(view_ok(v));
    if (k > v->layers || k == v->step)
        return false;
    if (animate && (k == v->step + 1 || k + 1 == v->step)) {
        v->anim_back = k < v->step;
        v->anim_layer = v->anim_back ? k : v->step;
        v->anim_total = anim_length(v);
        v->anim_ms = v->anim_total;
    } else {
        v->anim_ms = 0;
    }
    v->step = k;
    return true;
}

/* The counterexample as the input: stepping shows where it goes wrong. */
static bool play_counterexample(sn_view *v, const char *bits, uint64_t failing)
{
    sn_diag d;
    sn_diag_clear(&d);
    uint32_t *keys = NULL;
    if (make_input(v, v->n, SN_INPUT_BITS, 0, bits, &keys, &d) != SN_OK) {
        set_diag_message(v, SN_EINVAL, &d, "input");
        return false;
    }
    memcpy(v->bits, bits, v->n + 1);
    if (!set_input(v, keys, SN_INPUT_BITS))
        return false;
    sn_view_message(v, true,
                    "does NOT sort: counterexample %s (one of %llu failing 0-1 inputs); "
                    "End shows the unsorted output",
                    bits, (unsigned long long)failing);
    return true;
}

static bool counterexample(sn_view *v)
{
    if (v->edit && v->verdict_net == v->net_id) {
        verdict_poll(v, false);
        if (v->verdict == SN_VERDICT_CHECKING) { /* never freeze the window */
            sn_view_message(v, false,
                            "still checking (%.0f%%): B plays the counterexample "
                            "once there is one",
                            v->verdict_progress * 100);
            return true;
        }
        if (v->verdict == SN_VERDICT_FAILS) {
            char bits[sizeof v->cex];
            memcpy(bits, v->cex, sizeof bits);
            play_counterexample(v, bits, v->failing);
            return true;
        }
        if (v->verdict == SN_VERDICT_SORTS) {
            sn_view_message(v, false, "this network sorts: the 0-1 checker proved it");
            return true;
        }
    }
    sn_network *net = materialize(v, "checker");
    if (!net)
        return false;
    sn_diag d;
    sn_diag_clear(&d);
    sn_check_result res;
    memset(&res, 0, sizeof res);
    sn_status st = sn_check_run(net, NULL, &res, &d);
    sn_network_destroy(net);
    if (st != SN_OK) {
        set_diag_message(v, st, &d, "checker");
        return false;
    }
    bool changed = false;
    if (res.sorts) {
        sn_view_message(v, false, "this network sorts: the 0-1 checker proved it (%s, %.2f s)",
                        sn_check_method_name(res.method), res.seconds);
    } else {
        char bits[SN_VIEW_MAX_N + 1];
        for (uint32_t i = 0; i < v->n; i++)
            bits[i] = (char)('0' + (res.counterexample[i] ? 1 : 0));
        bits[v->n] = '\0';
        changed = play_counterexample(v, bits, res.failing_count);
    }
    sn_check_result_free(&res);
    return changed || true;
}

static bool new_input(sn_view *v, sn_input_kind kind)
{
    sn_diag d;
    sn_diag_clear(&d);
    uint64_t seed = v->seed;
    if (kind == SN_INPUT_RANDOM)
        seed = sn_rand_next(&v->rng) % 1000000;
    if (kind == SN_INPUT_BITS)
        random_bits(v, v->n, v->bits);
    uint32_t *keys = NULL;
    sn_status st = make_input(v, v->n, kind, seed, v->bits, &keys, &d);
    if (st != SN_OK) {
        set_diag_message(v, st, &d, "input");
        return true;
    }
    if (set_input(v, keys, kind)) {
        v->seed = seed;
        char buf[96];
        sn_view_message(v, false, "new input: %s", sn_view_input_text(v, buf, sizeof buf));
    }
    return true;
}

sn_status sn_view_set_input(sn_view *v, const sn_view_input *in, sn_diag *diag)
{
    const char *text = in->text ? in->text : "";
    if (in->kind == SN_INPUT_BITS && strlen(text) > SN_VIEW_MAX_N)
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "expected %u digits 0 or 1, got %zu", v->n,
                           strlen(text));
    uint32_t *keys = NULL;
    sn_status st = make_input(v, v->n, in->kind, in->seed, text, &keys, diag);
    if (st != SN_OK)
        return st;
    recorded r;
    st = record(v->sched, v->type, keys, &r, diag);
    if (st != SN_OK) {
        sn_free(keys);
        return st;
    }
    sn_free(v->input);
    v->input = keys;
    v->input_kind = in->kind;
    if (in->kind == SN_INPUT_RANDOM)
        v->seed = in->seed;
    if (in->kind == SN_INPUT_BITS)
        snprintf(v->bits, sizeof v->bits, "%s", text);
    install_trace(v, &r);
    reset_playback(v);
    compute_path(v);
    return SN_OK;
}

static bool change_n(sn_view *v, bool up)
{
    sn_algo algo = sn_schedule_algo(v->sched);
    const char *family = library_family(v);
    if (family) {
        /* The library has every n in its range: step by one. */
        char spec[64];
        snprintf(spec, sizeof spec, "%s:%u", family, up ? v->n + 1 : v->n - 1);
        load_named(v, spec);
        return true;
    }
    if (algo == SN_ALGO_EXPLICIT) {
        sn_view_message(v, true,
                        "[ and ] change n of a generated or best-known network; "
                        "press 1-7 first");
        return true;
    }
    uint32_t n = up ? v->n * 2 : v->n / 2;
    if (n < 2 || n > SN_VIEW_MAX_N) {
        sn_view_message(v, true, "n stays %u: the window shows 2 to %u wires", v->n, SN_VIEW_MAX_N);
        return true;
    }
    generate(v, algo, n);
    return true;
}

/* G: run the current network and input on the device through the hook and
 * keep the verdict for the status line. */
static void view_gpu_check(sn_view *v)
{
    if (!v->gpu_fn) {
        sn_view_message(v, true, "GPU check: %s",
                        v->gpu_built ? "no OpenCL device could be opened"
                                     : "not built with OpenCL");
        return;
    }
    sn_view_gpu_result r;
    memset(&r, 0, sizeof r);
    sn_status st = v->gpu_fn(v->gpu_ctx, v->sched, v->type, v->input, &r);
    if (st != SN_OK) {
        sn_view_message(v, true, "GPU check failed: %s", r.verdict);
        return;
    }
    v->gpu = r;
    v->gpu_generation = v->data_generation;
    /* the status line has the verdict; this line says what it cannot */
    if (r.identical)
        sn_view_message(v, false, "the same network and input on %s gave bit-identical arrays",
                        r.device);
    else
        sn_view_message(v, true, "%s: %s", r.device, r.verdict);
}

/* W: the structure blocks; says so when the network has none to show. */
static void toggle_structure(sn_view *v)
{
    v->structure = !v->structure;
    sn_algo a = sn_schedule_algo(v->sched);
    if (!v->structure)
        sn_view_message(v, false, "structure blocks off");
    else if (a == SN_ALGO_EXPLICIT || a == SN_ALGO_BUBBLE || a == SN_ALGO_INSERTION)
        sn_view_message(v, false,
                        "%s has no recursive structure to outline: try 1-4 (bitonic, odd-even "
                        "merge, transposition, pairwise)",
                        v->name);
    else
        sn_view_message(v, false, "why it sorts: the blocks of its construction (W hides them)");
}

/* Z: the 0-1 chart and wire states (counted for n <= SN_VIEW_ZERO_ONE_MAX_N). */
static void toggle_zero_one(sn_view *v)
{
    v->zero_one = !v->zero_one;
    if (!v->zero_one)
        sn_view_message(v, false, "0-1 chart off");
    else if (v->n > SN_VIEW_ZERO_ONE_MAX_N)
        sn_view_message(v, false,
                        "the 0-1 chart counts all 2^n inputs for n <= %u in the window "
                        "(`sortnet info --layers` for up to 24); [ halves n",
                        SN_VIEW_ZERO_ONE_MAX_N);
    else
        sn_view_message(v, false,
                        "0-1 principle: the bars count the sorted 0-1 inputs per layer, the marks "
                        "show what each wire can hold (Z hides it)");
}

bool sn_view_action(sn_view *v, sn_action a)
{
    sn_api_check(view_ok(v));
    if (a != SN_ACT_QUIT)
        v->quit_armed = false;
    switch (a) {
    case SN_ACT_NONE: return false;
    case SN_ACT_PAGE_DOWN:
    case SN_ACT_DOWN:
    case SN_ACT_RIGHT: v->playing = false; return sn_view_step_to(v, v->step + 1, true);
    case SN_ACT_PAGE_UP:
    case SN_ACT_UP:
    case SN_ACT_LEFT:
        v->playing = false;
        return v->step > 0 && sn_view_step_to(v, v->step - 1, true);
    case SN_ACT_PLAY:
        if (!v->playing && v->step == v->layers)
            sn_view_step_to(v, 0, false); /* play again from the start */
        v->playing = !v->playing;
        v->play_ms = 0;
        sn_view_message(v, false, v->playing ? "playing at %g layers/s (+/- to change)" : "paused",
                        speeds[v->speed]);
        return true;
    case SN_ACT_FASTER:
    case SN_ACT_SLOWER:
        if (a == SN_ACT_FASTER && v->speed + 1 < SN_VIEW_SPEEDS)
            v->speed++;
        if (a == SN_ACT_SLOWER && v->speed > 0)
            v->speed--;
        sn_view_message(v, false, "speed: %g layers per second", speeds[v->speed]);
        return true;
    case SN_ACT_HOME: v->playing = false; return sn_view_step_to(v, 0, false);
    case SN_ACT_END: v->playing = false; return sn_view_step_to(v, v->layers, false);
    case SN_ACT_RANDOM: return new_input(v, SN_INPUT_RANDOM);
    case SN_ACT_REVERSE: return new_input(v, SN_INPUT_REVERSE);
    case SN_ACT_BITS: return new_input(v, SN_INPUT_BITS);
    case SN_ACT_COUNTER: return counterexample(v);
    case SN_ACT_GEN1:
    case SN_ACT_GEN2:
    case SN_ACT_GEN3:
    case SN_ACT_GEN4:
    case SN_ACT_GEN5:
    case SN_ACT_GEN6: generate(v, sn_view_generators[a - SN_ACT_GEN1], v->n); return true;
    case SN_ACT_BEST: return best_known(v);
    case SN_ACT_N_DOWN: return change_n(v, false);
    case SN_ACT_N_UP: return change_n(v, true);
    case SN_ACT_RELOAD: reload(v); return true;
    case SN_ACT_SAVE_SVG: v->requests |= SN_REQ_SAVE_SVG; return false;
    case SN_ACT_SAVE_PNG: v->requests |= SN_REQ_SAVE_PNG; return false;
    case SN_ACT_FULLSCREEN: v->requests |= SN_REQ_FULLSCREEN; return true;
    case SN_ACT_QUIT:
        if (sn_view_unsaved(v) && !v->quit_armed) {
            v->quit_armed = true;
            sn_view_message(v, true,
                            "unsaved edits: Q again quits without saving them, Ctrl+S saves");
            return true;
        }
        v->requests |= SN_REQ_QUIT;
        return false;
    case SN_ACT_EDIT: return toggle_edit(v);
    case SN_ACT_UNDO: return undo_redo(v, false) || true;
    case SN_ACT_REDO: return undo_redo(v, true) || true;
    case SN_ACT_DELETE:
        if (!editing(v, "delete"))
            return true;
        if (v->sel_layer < 0) {
            sn_view_message(v, true, "delete: nothing selected (click a comparator, or Tab)");
            return true;
        }
        sn_view_edit_delete(v, (size_t)v->sel_layer, (size_t)v->sel_index);
        return true;
    case SN_ACT_SELECT: select_next(v); return true;
    case SN_ACT_SAVE_NET: sn_view_save(v, NULL); return true;
    case SN_ACT_GPU: view_gpu_check(v); return true;
    case SN_ACT_HELP: v->help = !v->help; return true;
    case SN_ACT_THEME:
        v->theme = (sn_theme_id)((v->theme + 1) % SN_THEME_COUNT);
        sn_view_message(v, false, "theme: %s (T: next)", sn_theme_get(v->theme)->name);
        return true;
    case SN_ACT_FONT_UP:
    case SN_ACT_FONT_DOWN:
        v->font_scale =
            a == SN_ACT_FONT_UP ? fmin(v->font_scale * 1.2, 3.0) : fmax(v->font_scale / 1.2, 0.6);
        sn_view_message(v, false, "text size %.0f%% (Ctrl + / Ctrl -)", v->font_scale * 100);
        return true;
    case SN_ACT_MUTE:
        if (v->front == SN_FRONT_PAGE) {
            sn_view_message(v, false, "the page plays no sound (the window does: M)");
            return true;
        }
        v->sound = !v->sound;
        sn_view_message(v, false, "sound %s (M)", v->sound ? "on" : "off");
        return true;
    case SN_ACT_STRUCTURE: toggle_structure(v); return true;
    case SN_ACT_ZERO_ONE: toggle_zero_one(v); return true;
    case SN_ACT_RACE:
        if (v->race_snap.state == SN_RACE_RUNNING && v->race_shown)
            sn_view_race_stop(v);
        else
            sn_view_race_start(v, false);
        return true;
    case SN_ACT_RACE_LOAD: sn_view_race_load(v); return true;
    case SN_ACT_FIT:
        v->zoom = 1;
        v->pan_x = v->pan_y = 0;
        return true;
    case SN_ACT_UNFOLLOW:
        if (v->help) {
            v->help = false;
            return true;
        }
        if (v->follow < 0)
            return false;
        v->follow = -1;
        compute_path(v);
        return true;
    case SN_ACT_COUNT: break;
    }
    return false;
}

bool sn_view_tick(sn_view *v, double dt_ms)
{
    sn_api_check(view_ok(v));
    bool changed = verdict_poll(v, false);
    changed |= race_poll(v);
    if (v->anim_ms > 0) {
        v->anim_ms = v->anim_ms > dt_ms ? v->anim_ms - dt_ms : 0;
        changed = true;
    }
    if (v->playing) {
        double interval = 1000.0 / speeds[v->speed];
        v->play_ms += dt_ms;
        while (v->playing && v->play_ms >= interval) {
            v->play_ms -= interval;
            sn_view_step_to(v, v->step + 1, true);
            changed = true;
            if (v->step >= v->layers) {
                v->playing = false;
                uint32_t first;
                if (sn_view_output_sorted(v, &first))
                    sn_view_message(v, false, "done: sorted");
                else
                    sn_view_message(v, true, "done: NOT sorted (first out of order at wire %u)",
                                    first);
            }
        }
    }
    return changed;
}

bool sn_view_busy(const sn_view *v)
{
    return v->playing || v->anim_ms > 0 || v->verdict == SN_VERDICT_CHECKING;
}

void sn_view_follow_wire(sn_view *v, uint32_t wire, size_t step)
{
    if (wire >= v->n)
        return;
    if (step > v->layers)
        step = v->step;
    long e = (long)sn_trace_payload(v->trace, step)[wire];
    v->follow = e == v->follow ? -1 : e;
    compute_path(v);
    if (v->follow >= 0) {
        char buf[32];
        sn_key_format(v->type, v->input[e], buf, sizeof buf);
        sn_view_message(v, false, "following value %s (input position %ld); Esc stops", buf, e);
    } else {
        sn_view_message(v, false, "stopped following");
    }
}

void sn_view_zoom(sn_view *v, double f, double fx, double fy)
{
    if (!isfinite(f) || !isfinite(fx) || !isfinite(fy) || f <= 0)
        return; /* a script may say wheel:1,1,nan */
    double z = v->zoom * f;
    if (z < 1)
        z = 1; /* never smaller than the fitted picture */
    if (z > 64)
        z = 64;
    f = z / v->zoom;
    /* keep the point under (fx, fy) fixed: pan is the pane offset of the
     * picture's origin in pane fractions */
    v->pan_x = fx - (fx - v->pan_x) * f;
    v->pan_y = fy - (fy - v->pan_y) * f;
    v->zoom = z;
    if (z == 1)
        v->pan_x = v->pan_y = 0;
}

void sn_view_pan(sn_view *v, double dx, double dy)
{
    if (v->zoom <= 1 || !isfinite(dx) || !isfinite(dy))
        return;
    v->pan_x += dx;
    v->pan_y += dy;
    /* the picture (zoom panes wide) must still cover the pane */
    double lo = 1 - v->zoom;
    v->pan_x = fmin(0, fmax(lo, v->pan_x));
    v->pan_y = fmin(0, fmax(lo, v->pan_y));
}

const uint32_t *sn_view_values(const sn_view *v)
{
    return sn_trace_state(v->trace, v->step);
}

const uint32_t *sn_view_payload(const sn_view *v)
{
    return sn_trace_payload(v->trace, v->step);
}

const uint8_t *sn_view_swaps(const sn_view *v, size_t k)
{
    if (k >= v->layers)
        return NULL;
    size_t count;
    return sn_trace_swaps(v->trace, k, &count);
}

double sn_view_speed(const sn_view *v)
{
    return speeds[v->speed];
}

const char *sn_view_input_text(const sn_view *v, char *buf, size_t cap)
{
    sn_input_spec spec = {v->input_kind, v->seed, v->bits};
    return sn_input_describe(&spec, buf, cap);
}

/* Keys in the order the executor sorts them. */
static bool key_greater(const sn_view *v, uint32_t x, uint32_t y)
{
    return sn_key_to_ordered(v->type, x) > sn_key_to_ordered(v->type, y);
}

bool sn_view_output_sorted(const sn_view *v, uint32_t *first)
{
    const uint32_t *out = sn_trace_state(v->trace, v->layers);
    for (uint32_t i = 0; out && i + 1 < v->n; i++) {
        if (key_greater(v, out[i], out[i + 1])) {
            if (first)
                *first = i;
            return false;
        }
    }
    if (first)
        *first = v->n;
    return true;
}

bool sn_view_out_of_order(const sn_view *v, uint32_t i)
{
    if (v->step != v->layers || i >= v->n)
        return false;
    const uint32_t *out = sn_trace_state(v->trace, v->layers);
    return (i + 1 < v->n && key_greater(v, out[i], out[i + 1])) ||
           (i > 0 && key_greater(v, out[i - 1], out[i]));
}

void sn_view_status_parts(const sn_view *v, sn_view_status *st)
{
    sn_api_check(view_ok(v));
    memset(st, 0, sizeof *st);
    if (v->step == 0) {
        snprintf(st->layer, sizeof st->layer, "input, %zu layer%s to go", v->layers,
                 v->layers == 1 ? "" : "s");
        snprintf(st->layer_short, sizeof st->layer_short, "0/%zu", v->layers);
    } else {
        snprintf(st->layer, sizeof st->layer, "after layer %zu of %zu", v->step, v->layers);
        snprintf(st->layer_short, sizeof st->layer_short, "%zu/%zu", v->step, v->layers);
    }
    size_t cmps = v->cmp_before[v->step], swaps = v->swap_before[v->step];
    snprintf(st->counts, sizeof st->counts, "%zu comparison%s, %zu swap%s", cmps,
             cmps == 1 ? "" : "s", swaps, swaps == 1 ? "" : "s");
    snprintf(st->counts_short, sizeof st->counts_short, "%zu cmp, %zu sw", cmps, swaps);
    sn_view_input_text(v, st->input, sizeof st->input);
    if (v->input_kind == SN_INPUT_BITS)
        snprintf(st->input_short, sizeof st->input_short, "0-1 (%.8s%s)", v->bits,
                 v->n > 8 ? "..." : "");
    else if (v->input_kind == SN_INPUT_RANDOM)
        snprintf(st->input_short, sizeof st->input_short, "seed %llu", (unsigned long long)v->seed);
    else
        snprintf(st->input_short, sizeof st->input_short, "%.39s", st->input);
    if (v->step == v->layers)
        snprintf(st->result, sizeof st->result, "%s",
                 sn_view_output_sorted(v, NULL) ? "sorted" : "NOT sorted");
    if (v->gpu_generation && v->gpu_generation == v->data_generation) {
        snprintf(st->gpu, sizeof st->gpu, "%s: %s", v->gpu.device_short,
                 v->gpu.identical ? "identical" : "differs");
        snprintf(st->gpu_short, sizeof st->gpu_short, "OpenCL: %s",
                 v->gpu.identical ? "identical" : "differs");
    } else {
        if (v->front == SN_FRONT_PAGE) /* the page: no OpenCL to speak of */
            st->gpu[0] = '\0';
        else
            snprintf(st->gpu, sizeof st->gpu, "%s",
                     v->gpu_built ? "OpenCL: not checked (G)" : "OpenCL: not built");
        snprintf(st->gpu_short, sizeof st->gpu_short, "%s", v->gpu_built ? "G: check" : "");
    }
    if (v->picture && v->picture->status && !v->edit)
        v->picture->status(v, st); /* e.g. the counts and verdict of the blocks */
}

const char *sn_view_status_text(const sn_view *v, char *buf, size_t cap)
{
    sn_view_status st;
    sn_view_status_parts(v, &st);
    snprintf(buf, cap, "%s   n = %u   %s   %s   %s%s%s%s%s", v->name, v->n, st.layer, st.counts,
             st.input, st.result[0] ? "   " : "", st.result, st.gpu[0] ? "   " : "", st.gpu);
    return buf;
}
