/* run.h - `sortnet view` as a run of the session (docs/design.md, "The
 * session and its backends"): the networks or lesson of the command line,
 * a script played in virtual time, frames painted by cairo into memory,
 * screenshots, recordings, the state dump and the frame statistics.
 *
 * The headless backend is this run with no host: nothing shown, nothing
 * read from a keyboard, no SDL (sn_headless_run). The window (src/window)
 * is the same run with a host that maps SDL's events to the session and
 * shows each painted frame, so a script gives the same pixels in both.
 * src/cli/cmd_view.c parses the command line into sn_run_options. */
#ifndef SN_HEADLESS_RUN_H
#define SN_HEADLESS_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include <cairo.h> /* for: cairo_surface_t */

#include "headless/record.h"
#include "session/session.h"

typedef struct sn_run_options {
    const char *net;        /* network spec (default "bitonic:16") */
    const char *more[2];    /* up to two more networks side by side, or NULL */
    const char *lesson;     /* --lesson FILE, or NULL */
    const char *link;       /* --link TEXT (session/link.h): what to show, or NULL */
    bool stay;              /* --stay: after the script, stay open for live use */
    bool sound;             /* --sound: tones from the start (M toggles) */
    double font_scale;      /* --font-scale (0: 1) */
    sn_view_input input;    /* initial input */
    const char *script;     /* --script, or NULL */
    const char *screenshot; /* --screenshot FILE, or NULL */
    const char *record;     /* --record DIR | FILE.gif | FILE.mp4 | FILE.webm, or NULL */
    const char *dump_state; /* --dump-state FILE ("-" = stdout), or NULL */
    bool stats;             /* --stats: frame-time percentiles on exit */
    bool discard;           /* --discard: a script may end with unsaved edits */
    sn_theme_id theme;      /* --theme */
    int width, height;      /* --size (window points); 0 = default */
    double start_seconds;   /* monotonic time when the process started */
} sn_run_options;

/* The frame's size when --size does not say (window points). */
#define SN_RUN_WIDTH 1280
#define SN_RUN_HEIGHT 800

/* Monotonic seconds (for start_seconds). */
double sn_run_now(void);

/* Whether the options ask for a person at a window: no script and no
 * screenshot (a live session), --stay or --sound. The others run
 * headless as well as in a window. */
bool sn_run_needs_window(const sn_run_options *o);

/* Run the options with no window: exit code of the command-line contract
 * (0, 2 bad input or a failed script step, 3 a live session without a
 * window, 5 out of memory) after printing `sortnet: view: ...`. */
int sn_headless_run(const sn_run_options *o);

/* ---- the run, shared with the window */

typedef struct sn_runner sn_runner;

/* What a window adds to a run (every member may be NULL; ctx is theirs). */
typedef struct sn_run_host {
    void *ctx;
    /* the keyboard and the mouse, waiting for them when idle; true when
     * anything changed */
    bool (*events)(void *ctx, sn_runner *r, bool idle);
    /* the surface of the frame about to be painted, sized to the window
     * (sn_runner_use_surface); false: no frame this time */
    bool (*prepare)(void *ctx, sn_runner *r);
    /* show the frame just painted (dirty: the boxes that changed, nd = 0:
     * all of it) */
    void (*present)(void *ctx, sn_runner *r, const sn_box *dirty, size_t nd);
    /* whether a frame may be painted in part (the host's surface keeps the
     * last frame) */
    bool (*partial)(void *ctx, sn_runner *r);
    /* what the session asks of the window (SN_REQ_FULLSCREEN) */
    void (*requests)(void *ctx, sn_runner *r, unsigned requests);
    /* after each frame's tick: the tones of the layers just stepped */
    void (*stepped)(void *ctx, sn_runner *r);
    /* wait out the rest of a frame (spent: ms of its work) */
    void (*pace)(void *ctx, sn_runner *r, double spent_ms);
} sn_run_host;

struct sn_runner {
    const sn_run_options *opt;
    const sn_run_host *host;
    sn_session session;
    cairo_surface_t *surf; /* the frame's pixels (owned unless lent) */
    bool surf_lent;        /* the host's own pixels (its window's surface) */
    int dw, dh;            /* device pixels */
    double scale;          /* device pixels per window point */
    sn_record *rec;        /* --record, or NULL */
    double vtime_ms;       /* the session's time (virtual when scripted) */
    sn_script_event *script;
    size_t nscript;
    bool scripted; /* virtual time: --script or --screenshot */
    bool quit;
    int rc;
    bool script_failed; /* a script step failed: rc is 2, the rest not run */
    /* frame statistics (--stats) */
    double *times; /* [2 * cap_times]: wall ms, then this thread's CPU ms, per frame */
    size_t ntimes, cap_times;
    double first_frame_s;
    unsigned long frames_drawn;
    char how[64]; /* how frames reach the screen ("window surface, vsync") */
};

/* Print `sortnet: view: ...` and return code. */
int sn_run_fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Start: the networks of the command line (or the lesson's first step)
 * and the script; with OpenCL built, G verifies on the default device.
 * 0 or an exit code (the message printed). */
int sn_runner_start(sn_runner *r, const sn_run_options *o);
/* Paint into the host's pixels from now on (NULL: a surface of the
 * runner's own at the run's size); the frame's size follows. */
void sn_runner_use_surface(sn_runner *r, cairo_surface_t *lent, int dw, int dh, double scale);
/* The loop: until the script ends (and without --stay), the session asks
 * to quit or a step fails. Returns the exit code so far. */
int sn_runner_loop(sn_runner *r, const sn_run_host *host);
/* Write the current frame as PNG to path through a temporary beside it
 * (a device or FIFO in place); false with why. */
bool sn_runner_write_png(sn_runner *r, const char *path, char *why, size_t cap);
/* The end: the recording closed, the state dumped, unsaved edits named,
 * the statistics printed; everything freed. backend_lines: the host's
 * lines of the state dump (sound, window). Returns the exit code. */
int sn_runner_finish(sn_runner *r, int rc, const char *backend_lines);

#endif
