/* view.h - the state of the step-through window as plain data, and the
 * pure update functions that change it (keys, time, clicks).
 *
 * "Update never draws, draw never mutates": nothing here touches SDL or
 * cairo, so the whole state machine is unit-tested without a window.
 * Effects that need the window or the file system for pictures (saving SVG
 * or PNG, full screen, quitting) are not performed here: an action sets a
 * bit in `requests` and the window loop carries it out, then reports back
 * with sn_view_message().
 *
 * Invariants: sched, layout-independent data (trace, keys, prefix sums)
 * always describe the same network on n wires; 0 <= step <= layers; path
 * is NULL or follows element `follow` through every step of the trace. */
#ifndef SN_VIEW_H
#define SN_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/input.h"
#include "core/schedule.h"
#include "core/status.h"
#include "session/race.h"
#include "render/palette.h"

/* Largest n the window accepts (the diagram materializes every comparator). */
#define SN_VIEW_MAX_N 4096u
/* At most this many values ((layers + 1) * n) are recorded for stepping. */
#define SN_VIEW_MAX_STATES ((uint64_t)1 << 26)
/* The 0-1 chart (Z) counts all 2^n inputs per layer up to this n: a few
 * milliseconds when the network changes. */
#define SN_VIEW_ZERO_ONE_MAX_N 20u
/* Speeds of playback in layers per second, slowest first. */
#define SN_VIEW_SPEEDS 8
/* Length of the swap animation at normal speed, in milliseconds. */
#define SN_VIEW_ANIM_MS 320.0

typedef enum sn_action {
    SN_ACT_NONE = 0,
    SN_ACT_RIGHT, /* one layer forward */
    SN_ACT_LEFT,  /* one layer back (replays the recorded trace) */
    SN_ACT_PLAY,  /* play / pause */
    SN_ACT_FASTER,
    SN_ACT_SLOWER,
    SN_ACT_HOME,
    SN_ACT_END,
    SN_ACT_RANDOM,  /* a new random permutation */
    SN_ACT_REVERSE, /* n..1 */
    SN_ACT_BITS,    /* a random 0-1 input */
    SN_ACT_COUNTER, /* the checker's counterexample, if any */
    SN_ACT_GEN1,    /* SN_ACT_GEN1 + i: generator i of sn_view_generators */
    SN_ACT_GEN2,
    SN_ACT_GEN3,
    SN_ACT_GEN4,
    SN_ACT_GEN5,
    SN_ACT_GEN6,
    SN_ACT_BEST,   /* best:n from the library; again: best-depth:n and back */
    SN_ACT_N_DOWN, /* halve n (a library network: n - 1) */
    SN_ACT_N_UP,   /* double n (a library network: n + 1) */
    SN_ACT_RELOAD, /* read the network file of the command line again */
    SN_ACT_SAVE_SVG,
    SN_ACT_SAVE_PNG,
    SN_ACT_GPU,
    SN_ACT_HELP,
    SN_ACT_FULLSCREEN,
    SN_ACT_THEME,    /* light <-> dark */
    SN_ACT_FIT,      /* reset zoom and pan */
    SN_ACT_UNFOLLOW, /* stop following an element */
    SN_ACT_QUIT,
    SN_ACT_EDIT,      /* edit mode on / off */
    SN_ACT_UNDO,      /* edit mode: undo the last edit */
    SN_ACT_REDO,      /* edit mode: redo it */
    SN_ACT_DELETE,    /* edit mode: delete the selected comparator */
    SN_ACT_SELECT,    /* edit mode: select the next comparator (Tab) */
    SN_ACT_SAVE_NET,  /* save the network (Ctrl+S) */
    SN_ACT_STRUCTURE, /* labelled structure blocks on / off (W: why it sorts) */
    SN_ACT_ZERO_ONE,  /* the 0-1 chart and wire states on / off (Z) */
    SN_ACT_PAGE_DOWN, /* a clicker's "next": a layer forward (a lesson: its next step) */
    SN_ACT_PAGE_UP,   /* a clicker's "back" */
    SN_ACT_DOWN,      /* one layer forward, in a lesson too */
    SN_ACT_UP,        /* one layer back, in a lesson too */
    SN_ACT_FONT_UP,   /* all text larger (Ctrl +) */
    SN_ACT_FONT_DOWN, /* all text smaller (Ctrl -) */
    SN_ACT_MUTE,      /* sound on / off (M) */
    SN_ACT_RACE,      /* edit mode: race the computer's search (C; again: stop it) */
    SN_ACT_RACE_LOAD, /* edit mode: the computer's best into the editor (L) */
    SN_ACT_COUNT
} sn_action;

/* Effects for the window loop (bits of sn_view.requests). */
enum {
    SN_REQ_SAVE_SVG = 1u << 0,
    SN_REQ_SAVE_PNG = 1u << 1,
    SN_REQ_FULLSCREEN = 1u << 2,
    SN_REQ_QUIT = 1u << 3
};

/* Script / key names ("right", "space", "f11", "[", ...) -> action;
 * SN_ACT_NONE if unknown. */
sn_action sn_action_parse(const char *name);
const char *sn_action_name(sn_action a);

/* The generators of keys 1-6, in order. */
extern const sn_algo sn_view_generators[6];

/* What G found: the verdict and the device it ran on. */
typedef struct sn_view_gpu_result {
    bool identical;
    char verdict[160]; /* "identical" or "differs after layer 3, wire 5: expected 4, got 7" */
    char device[160];  /* the device's full name ("pthread-skylake... (Portable Computing ...)") */
    char device_short[48]; /* "OpenCL (CPU, pocl)", "OpenCL (GPU, NVIDIA)" */
} sn_view_gpu_result;

/* Runs the current network on a compute device and compares with the
 * reference (the window loop installs one when OpenCL is built). Returns
 * SN_OK when a verdict was reached; otherwise out->verdict says why. */
typedef sn_status (*sn_view_gpu_fn)(void *ctx, const sn_schedule *s, sn_key_type t,
                                    const uint32_t *input, sn_view_gpu_result *out);

/* The live verdict of edit mode (the 0-1 checker on a worker thread). */
typedef enum sn_view_verdict {
    SN_VERDICT_NONE = 0, /* not in edit mode */
    SN_VERDICT_CHECKING,
    SN_VERDICT_SORTS,
    SN_VERDICT_FAILS,  /* counterexample in cex */
    SN_VERDICT_UNKNOWN /* the checker could not decide (why in verdict_why) */
} sn_view_verdict;

struct sn_network;
struct sn_verdict;

/* The comparator a mouse drag would add or move, drawn while it lasts. */
typedef struct sn_view_preview {
    bool on, move; /* a drag in progress: adding (a to b) or moving */
    uint32_t a, b; /* wires */
    double x;      /* layout x of the drop point */
} sn_view_preview;

/* The front-end a view serves: the window (SDL, the default) or the page
 * (src/web, set by its engine). What differs is what its keys do: the page
 * downloads where the window saves, has no OpenCL, sound or quitting. */
typedef enum sn_view_front { SN_FRONT_WINDOW = 0, SN_FRONT_PAGE } sn_view_front;

struct sn_frame;
struct sn_box;
struct sn_scene;
struct sn_view;
struct sn_view_status;

/* A picture of a view other than its network's own: the merge-split
 * blocks of dist:P,NET (session/dist_view.h). The view steps it with its
 * own keys; the frame (session/frame_build.h, headless/frame.h) and the
 * status line ask it, knowing nothing of what it shows. */
typedef struct sn_view_picture {
    /* shown now? (not while editing, not past its limits) */
    bool (*shown)(const struct sn_view *v);
    /* its counts and verdict in place of the network's (st filled first) */
    void (*status)(const struct sn_view *v, struct sn_view_status *st);
    /* the view's picture, bars pane and status line in area (device
     * pixels), as the frame's one view */
    sn_status (*scene)(struct sn_frame *f, const struct sn_view *v, const struct sn_box *area,
                       double win_h, double s, bool compact, const char *progress,
                       struct sn_scene *sc);
    /* the picture alone at scale 1 (what S saves), sc reset to its size */
    sn_status (*whole)(const struct sn_view *v, struct sn_scene *sc);
} sn_view_picture;

typedef struct sn_view {
    /* the network */
    sn_schedule *sched; /* owned */
    char *file;         /* network file of the command line (owned), or NULL */
    char name[128];     /* shown name */
    uint32_t n;
    size_t layers;
    uint64_t generation; /* bumped whenever network, trace or path changes */
    uint64_t net_id;     /* bumped whenever the network changes */

    /* the input and its trace */
    sn_key_type type;
    sn_input_kind input_kind;
    uint64_t seed;                /* of the last random input */
    char bits[SN_VIEW_MAX_N + 1]; /* text of a BITS input */
    uint32_t *input;              /* [n] raw keys (owned) */
    sn_trace *trace;              /* FULL, with the original index as payload (owned) */
    size_t *cmp_before;           /* [layers + 1] comparisons done before step k */
    size_t *swap_before;          /* [layers + 1] swaps done before step k */
    uint64_t rng;                 /* source of new seeds for R and 0 */

    /* playback */
    size_t step; /* values after `step` layers */
    bool playing;
    unsigned speed;    /* index into the speed table */
    double play_ms;    /* time accumulated towards the next step */
    double anim_ms;    /* swap animation time left (0: settled) */
    double anim_total; /* its length */
    size_t anim_layer; /* layer whose swaps are animating */
    bool anim_back;    /* animating a step backwards */

    /* following an element */
    long follow;    /* original index followed, or -1 */
    uint32_t *path; /* [layers + 1] its wire at every step, or NULL */

    /* camera over the network pane: 1 = fit */
    double zoom, pan_x, pan_y; /* pan in fractions of the pane size */

    bool help;
    sn_view_front front;   /* which front-end shows it (its help lists those keys) */
    sn_theme_id theme;     /* T cycles light, dark, contrast */
    double font_scale;     /* Ctrl +/-: every text size times this */
    bool sound;            /* comparisons play tones (M toggles) */
    bool structure;        /* draw the structure blocks */
    bool zero_one;         /* draw the 0-1 chart and wire states */
    uint32_t dist_keys;    /* dist:P,NET: keys a rank of its picture (0: none; dist_view.h) */
    const sn_view_picture *picture; /* a picture other than the network's, or NULL */
    bool gpu_built;        /* OpenCL part present */
    sn_view_gpu_fn gpu_fn; /* G runs this (NULL: G explains why it cannot) */
    void *gpu_ctx;
    sn_view_gpu_result gpu;   /* for the network and input of gpu_generation */
    uint64_t gpu_generation;  /* data_generation the verdict belongs to; 0: none */
    uint64_t data_generation; /* bumped whenever network or input changes */

    /* edit mode: every version of the network, for unlimited undo / redo;
     * the shown network is hist[hist_pos] (empty history: not editing yet) */
    bool edit;
    struct sn_network **hist; /* owned, each owned */
    size_t hist_count, hist_cap, hist_pos;
    size_t saved_pos;          /* version that is on disk (or loaded); SIZE_MAX: none */
    long sel_layer, sel_index; /* selected comparator, or -1 */
    bool quit_armed;           /* Q pressed once with unsaved edits */
    sn_view_preview preview;   /* set by the window while the mouse drags */
    struct sn_verdict *worker; /* owned; made on first use */
    sn_view_verdict verdict;   /* for verdict_net */
    uint64_t verdict_net;      /* net_id the verdict belongs to */
    double verdict_progress;   /* while CHECKING */
    char cex[65];              /* FAILS: the smallest failing 0-1 input */
    uint64_t failing;          /* FAILS: failing 0-1 inputs */
    size_t *redundant;         /* comparator indices that never swap (owned) */
    size_t redundant_count;
    char verdict_why[256]; /* UNKNOWN: why */
    /* edit mode's race against the computer's search (race.h) */
    struct sn_race *race;         /* owned; made on first use */
    bool race_shown;              /* the race panel is on (until E ends edit mode) */
    sn_race_snap race_snap;       /* the last snapshot taken (sn_view_tick) */
    struct sn_network *race_best; /* its best network (owned), or NULL */
    uint64_t race_seed;           /* the next race's seed */

    char message[512]; /* the line under the status line */
    bool message_error;
    unsigned long message_seq; /* counts sn_view_message calls (a script's verbs
                                  look whether theirs set an error) */
    unsigned requests;         /* SN_REQ_* for the window loop */
} sn_view;

/* Does v show a picture other than its network's now? */
static inline bool sn_view_picture_shown(const sn_view *v)
{
    return v->picture && v->picture->shown(v);
}

/* Initial input when creating a view. */
typedef struct sn_view_input {
    sn_input_kind kind;
    uint64_t seed;
    const char *text; /* LIST / BITS (borrowed) */
    sn_key_type type;
} sn_view_input;

/* A view of network `spec` (a name such as "bitonic:16" or a file, as
 * sn_schedule_load; a dist:P,NET name is session/dist_view.h's sn_view_open) on the given input. A file spec is remembered for
 * reload. On failure diag explains and v is left empty (safe to clean). */
sn_status sn_view_init(sn_view *v, const char *spec, const sn_view_input *in, sn_diag *diag);
/* The same for a schedule already made (consumed, even on failure): spec
 * names it in messages; file, when not NULL, is remembered for reload
 * and saving. */
sn_status sn_view_init_schedule(sn_view *v, sn_schedule *s, const char *spec, const char *file,
                                const sn_view_input *in, sn_diag *diag);
void sn_view_cleanup(sn_view *v);

/* Apply one action. Returns true when anything visible changed. */
bool sn_view_action(sn_view *v, sn_action a);

/* Advance time by dt milliseconds (playback and animations). Returns true
 * when anything visible changed. */
bool sn_view_tick(sn_view *v, double dt_ms);

/* true while something moves by itself (playing or animating): the window
 * must keep drawing; otherwise it may sleep until the next event. */
bool sn_view_busy(const sn_view *v);

/* Follow the element that sits on wire `wire` at the current step (or at
 * step `step` when step <= layers); following it again stops following. */
void sn_view_follow_wire(sn_view *v, uint32_t wire, size_t step);

/* Zoom by factor f around (fx, fy) given as fractions of the pane (0..1),
 * and pan by (dx, dy) fractions of the pane. */
void sn_view_zoom(sn_view *v, double f, double fx, double fy);
void sn_view_pan(sn_view *v, double dx, double dy);

/* Set the message line (printf-style); error messages are shown in red. */
void sn_view_message(sn_view *v, bool error, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- edit mode. Every edit makes a new version (the old one is kept for
 * undo), re-records the trace on the same input and starts the verdict;
 * a failed edit changes nothing and says why in the message line. Outside
 * edit mode they refuse ("press E first"). */

/* Add comparator (a, b) (a receives the minimum; a > b is reversed) into
 * the earliest layer >= col where both wires are free; col < 0: right
 * after the last layer that uses wire a or b. Selects it. */
bool sn_view_edit_add(sn_view *v, uint32_t a, uint32_t b, long col);
/* Delete comparator `index` (from 0) of layer `layer` (from 0). */
bool sn_view_edit_delete(sn_view *v, size_t layer, size_t index);
/* Move it to column col (before layer col of the current network). */
bool sn_view_edit_move(sn_view *v, size_t layer, size_t index, size_t col);
/* Select a comparator (layer < 0: none). */
bool sn_view_edit_select(sn_view *v, long layer, long index);
/* Save the network to path (format from the extension: .json, .sn, else
 * bracket), atomically; path NULL: to the file it came from or was last
 * saved to, else to a new sortnet-NAME.txt in the current directory. The
 * saved file becomes the view's file. */
bool sn_view_save(sn_view *v, const char *path);
/* true when the shown network has edits that are not saved. */
bool sn_view_unsaved(const sn_view *v);
/* Block until the verdict of the current network is known (scripted runs
 * do this after every step, so the same script gives the same frames). */
void sn_view_settle(sn_view *v);
/* "sorts", "does NOT sort: counterexample 0110 (B plays it)",
 * "checking… 40%", "not checked: why"; "" outside edit mode. */
const char *sn_view_verdict_text(const sn_view *v, char *buf, size_t cap);
/* "5 comparators, best known 5; 3 layers" (no "best known" past the table). */
const char *sn_view_size_text(const sn_view *v, char *buf, size_t cap);
/* ---- the race (edit mode): the computer's search for the same n on a
 * thread of its own (race.h), its best shown in a panel beside the
 * student's network. A new network of another n stops it (the panel then
 * says so); leaving edit mode stops it and hides the panel. */

/* Start a race (stopping one that runs): from scratch, or from the shown
 * network with from_student. It ends by itself at the best known size
 * for n, or runs until stopped where none is known. */
bool sn_view_race_start(sn_view *v, bool from_student);
/* Stop the running race (the panel and its best stay). */
bool sn_view_race_stop(sn_view *v);
/* Block until the running race reaches its goal (scripted runs: a wait
 * on a condition); refuses, with a message, a race that may not end: one
 * on more than SN_VIEW_RACE_WAIT_MAX_N wires, where the best known size
 * takes the search seconds (docs/search.md: n <= 12 within 60 s on a
 * loaded machine, 13 and up minutes or more). */
#define SN_VIEW_RACE_WAIT_MAX_N 12u
bool sn_view_race_wait(sn_view *v);
/* Load the computer's best into the editor as a new version (undoable). */
bool sn_view_race_load(sn_view *v);
/* "the computer", "you", "a tie", "nobody yet" ("" without a race), and
 * why in detail (may be NULL). */
const char *sn_view_race_ahead(const sn_view *v, char *detail, size_t cap);

/* Is comparator `index` (in layer order) redundant by the current verdict? */
bool sn_view_is_redundant(const sn_view *v, size_t index);

/* Current state: keys after `step` layers ([n], borrowed). */
const uint32_t *sn_view_values(const sn_view *v);
/* Original index of the element on each wire at the current step. */
const uint32_t *sn_view_payload(const sn_view *v);
/* Swap flags of layer k in layout order (borrowed) or NULL. */
const uint8_t *sn_view_swaps(const sn_view *v, size_t k);
/* Playback speed in layers per second. */
double sn_view_speed(const sn_view *v);
/* "random (seed 7)", "reversed", "0-1 (0110...)", "given", "sorted". */
const char *sn_view_input_text(const sn_view *v, char *buf, size_t cap);
/* The parts of the status line, each in a long and a short form so the
 * window can shorten what it must ("after layer 3 of 10", "3/10"). Layers
 * count from 1 for people: step k shows the values after layer k. */
typedef struct sn_view_status {
    char layer[48], layer_short[24];   /* "after layer 3 of 10", "3/10" */
    char counts[64], counts_short[32]; /* "24 comparisons, 9 swaps", "24 cmp 9 sw" */
    char input[96], input_short[40];   /* "random (seed 7)", "0-1 (0110...)" */
    char result[16];                   /* at the last layer "sorted" or "NOT sorted", else "" */
    char gpu[160], gpu_short[64];      /* "OpenCL (CPU, pocl): identical", "OpenCL: identical" */
} sn_view_status;
void sn_view_status_parts(const sn_view *v, sn_view_status *st);
/* The status line as one text (the parts joined; without the message). */
const char *sn_view_status_text(const sn_view *v, char *buf, size_t cap);
/* After the last layer: is the output in order? *first gets the first i
 * with out[i] > out[i + 1] (n when sorted). */
bool sn_view_output_sorted(const sn_view *v, uint32_t *first);
/* Is out[i] out of order at the last step (greater than its right
 * neighbour, or smaller than its left one)? false before the last layer. */
bool sn_view_out_of_order(const sn_view *v, uint32_t i);
/* Replace the input of the shown network with `in` (random: its seed;
 * LIST / BITS: its text) and re-record. On failure (SN_EPARSE for a bad
 * list, diag says why) nothing changes. */
sn_status sn_view_set_input(sn_view *v, const sn_view_input *in, sn_diag *diag);
/* Move to step k (0..layers), animated when it is one layer away. */
bool sn_view_step_to(sn_view *v, size_t k, bool animate);

#endif
