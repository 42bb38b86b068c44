/* temp_file.h - a writer's temporary beside its target, registered so that
 * a fatal signal removes it (docs/limits.md, "What a failure leaves").
 *
 * Every writer writes a temporary beside the file it replaces and renames
 * it over the file when complete. Made here, the temporary's name is kept
 * in fixed storage until it is renamed or removed, and
 * sn_temp_file_unlink_all (async-signal-safe) removes every one: the front
 * ends call it from their handlers of SIGINT, SIGTERM, SIGHUP and SIGQUIT
 * before the process dies by the signal, so the exit stays 128 + the
 * signal (src/cli/cli_out.c, src/headless/temp_signals.c; the core itself
 * sets no handler). */
#ifndef SN_TEMP_FILE_H
#define SN_TEMP_FILE_H

#include <stddef.h>

/* Creates the temporary for target (sn_file_temp_template: a target name
 * too long for the suffix gets a short one in its folder), mode 0666 less
 * the umask as fopen would give. Returns its descriptor, its name in name
 * (cap bytes) and its slot in *slot; or -1 with errno (ENAMETOOLONG when
 * the name does not fit in name or PATH_MAX, ENFILE when every slot is in
 * use, else mkstemp's). */
int sn_temp_file_create(const char *target, char *name, size_t cap, int *slot);

/* The slot's temporary was renamed (or removed by the caller): a signal no
 * longer touches that name. A slot < 0 is ignored. */
void sn_temp_file_release(int slot);

/* Removes the slot's temporary and releases the slot (a failed write). */
void sn_temp_file_discard(int slot);

/* Unlinks every registered temporary; async-signal-safe (unlink only), for
 * a fatal signal's handler, which then lets the signal end the process. */
void sn_temp_file_unlink_all(void);

#endif
