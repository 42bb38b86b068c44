/* temp_signals.h - the headless run's fatal-signal handler for registered
 * temporaries (core/temp_file.h): a screenshot, a state dump, a GIF or a
 * video being written is removed when SIGINT, SIGTERM, SIGHUP or SIGQUIT
 * ends the run, and the exit stays 128 + the signal. */
#ifndef SN_HEADLESS_TEMP_SIGNALS_H
#define SN_HEADLESS_TEMP_SIGNALS_H

/* Catch those of the four signals still at their default action (once;
 * one ignored or handled by another part stays so). Call before making a
 * temporary with sn_temp_file_create. */
void sn_headless_catch_temp_signals(void);

#endif
