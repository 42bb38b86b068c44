/* app.h - the step-through window of `sortnet view`: SDL2 window, input,
 * the frame loop, scripted sessions, screenshots and frame statistics.
 * src/cli/cmd_view.c parses the command line into sn_app_options. */
#ifndef SN_APP_H
#define SN_APP_H

#include <stdbool.h>

#include "view.h"

typedef struct sn_app_options {
    const char *net;        /* network spec (default "bitonic:16") */
    const char *more[2];    /* up to two more networks side by side, or NULL */
    const char *lesson;     /* --lesson FILE, or NULL */
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
} sn_app_options;

/* Run the window until the user quits or the script ends. Returns an exit
 * code of the command-line contract (0, 2 bad input, 3 no display) after
 * printing `sortnet: view: ...` for errors. */
int sn_app_run(const sn_app_options *o);

/* Monotonic seconds (for start_seconds). */
double sn_app_now(void);

#endif
