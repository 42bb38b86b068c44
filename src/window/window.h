/* window.h - the window of `sortnet view` (docs/design.md, "The session
 * and its backends"): SDL2's events mapped to the session, the frames the
 * run paints shown on the screen, tones for the layers stepped through.
 * src/cli/cmd_view.c parses the command line into sn_run_options. */
#ifndef SN_WINDOW_H
#define SN_WINDOW_H

#include "headless/run.h"

/* Run the session in a window until the user quits or the script ends;
 * with no display, a run that needs no person at a window (a script or a
 * screenshot) runs headless instead (sn_headless_run). Returns an exit
 * code of the command-line contract (0, 2 bad input, 3 no display) after
 * printing `sortnet: view: ...` for errors. */
int sn_window_run(const sn_run_options *o);

#endif
