/* temp_file.c - registered temporaries, removed by a fatal signal's
 * handler (see temp_file.h). The core includes no <signal.h>
 * (docs/design.md, "Threads in one place"): the handlers are the
 * front ends' (cli_out.c, headless/temp_signals.c). */
#include "core/temp_file.h"

#include <errno.h>
#include <limits.h> // for: PATH_MAX
#include <stdio.h>
#include <stdlib.h> // for: mkstemp
#include <string.h>
#include <sys/stat.h> // for: fchmod, umask
#include <unistd.h>

#include "core/format.h" // for: sn_file_temp_template

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The temporaries being written, for a signal handler: fixed storage
 * filled before the file exists, so sn_temp_file_unlink_all only reads it
 * (no allocation, no stdio: unlink is async-signal-safe). A slot is in use
 * while temp_used[i] is set; it is set before mkstemp fills in the name, so
 * a signal at any moment after that sees the file's name (or a name that
 * does not exist yet: unlinking it does nothing). */
enum { TEMP_SLOTS = 8 };
static char temp_name[TEMP_SLOTS][PATH_MAX];
static volatile int temp_used[TEMP_SLOTS]; /* read by a signal handler */

void sn_temp_file_unlink_all(void)
{
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (temp_used[i])
            unlink(temp_name[i]);
}

int sn_temp_file_create(const char *target, char *name, size_t cap, int *slot)
{
    *slot = -1;
    char templ[PATH_MAX + 1];
    sn_file_temp_template(target, templ, sizeof templ);
    if (strlen(templ) >= PATH_MAX || strlen(templ) >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = -1, e = ENFILE;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        if (temp_used[i])
            continue;
        memcpy(temp_name[i], templ, strlen(templ) + 1);
        temp_used[i] = 1;
        fd = mkstemp(temp_name[i]);
        e = errno;
        if (fd >= 0) {
            *slot = i;
            memcpy(name, temp_name[i], strlen(temp_name[i]) + 1);
        } else {
            temp_used[i] = 0;
        }
        break;
    }
    if (fd >= 0) {
        /* mkstemp creates 0600; give the file the mode a plain fopen would */
        mode_t mask = umask(0);
        umask(mask);
        (void)fchmod(fd, 0666 & ~mask);
    }
    errno = e;
    return fd;
}

void sn_temp_file_release(int slot)
{
    if (slot >= 0 && slot < TEMP_SLOTS)
        temp_used[slot] = 0;
}

void sn_temp_file_discard(int slot)
{
    if (slot < 0 || slot >= TEMP_SLOTS || !temp_used[slot])
        return;
    unlink(temp_name[slot]);
    temp_used[slot] = 0; /* after the removal: a signal before it still removes */
}
