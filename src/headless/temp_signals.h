/* temp_signals.h - the fatal-signal handler for registered temporaries
 * (core/temp_file.h): a screenshot, a state dump, a GIF or a video of the
 * headless run, or a file the command line writes (src/cli/cli_out.c),
 * is removed when SIGINT, SIGTERM, SIGHUP or SIGQUIT ends the process,
 * and the exit stays 128 + the signal. Its own library (sn_temp_signals),
 * built with or without cairo. */
#ifndef SN_HEADLESS_TEMP_SIGNALS_H
#define SN_HEADLESS_TEMP_SIGNALS_H

/* Catch those of the four signals still at their default action (once;
 * one ignored or handled by another part stays so). Call before making a
 * temporary with sn_temp_file_create. */
void sn_headless_catch_temp_signals(void);

#endif
