/* temp_file.c - registered temporaries, removed on a fatal signal (see
 * temp_file.h). */
#include "core/temp_file.h"

#include <errno.h>
#include <limits.h> // for: PATH_MAX
#include <signal.h>
#include <stdio.h>
#include <stdlib.h> // for: mkstemp
#include <string.h>
#include <sys/stat.h> // for: fchmod, umask
#include <unistd.h>

#include "core/format.h" // for: sn_file_temp_template

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* The temporaries being written, for the signal handler: fixed storage
 * filled before the file exists, so the handler only reads it (no
 * allocation, no stdio: unlink, signal and raise are async-signal-safe). A
 * slot is in use while temp_used[i] is set. */
enum { TEMP_SLOTS = 8 };
static char temp_name[TEMP_SLOTS][PATH_MAX];
static volatile sig_atomic_t temp_used[TEMP_SLOTS];
static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static int handlers_set;

static void on_fatal_signal(int sig)
{
    for (int i = 0; i < TEMP_SLOTS; i++)
        if (temp_used[i])
            unlink(temp_name[i]);
    /* the default action now: the exit is the signal's (130, 143); the
     * signal is blocked in its handler, so it lands when this returns */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Catch the fatal signals that are at their default action (one a command
 * handles itself, or one ignored, as a background job's SIGINT, stays so). */
static void catch_fatal_signals(void)
{
    if (handlers_set)
        return;
    handlers_set = 1;
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction cur;
        if (sigaction(fatal_signals[i], NULL, &cur) != 0 || cur.sa_handler != SIG_DFL ||
            (cur.sa_flags & SA_SIGINFO))
            continue;
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_fatal_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(fatal_signals[i], &sa, NULL);
    }
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
    catch_fatal_signals();
    /* the fatal signals blocked until the slot is marked: a signal sees
     * either no file or its name */
    sigset_t block, old;
    sigemptyset(&block);
    for (size_t i = 0; i < NFATAL; i++)
        sigaddset(&block, fatal_signals[i]);
    sigprocmask(SIG_BLOCK, &block, &old);
    int fd = -1, e = ENFILE;
    for (int i = 0; i < TEMP_SLOTS; i++) {
        if (temp_used[i])
            continue;
        memcpy(temp_name[i], templ, strlen(templ) + 1);
        fd = mkstemp(temp_name[i]);
        e = errno;
        if (fd >= 0) {
            temp_used[i] = 1;
            *slot = i;
            memcpy(name, temp_name[i], strlen(temp_name[i]) + 1);
        }
        break;
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
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
