/* temp_signals.c - see temp_signals.h. The core registers the temporaries
 * but sets no handler (it includes no <signal.h>); this one serves the
 * headless run and the command line's writers alike. */
#include "headless/temp_signals.h"

#include <signal.h>
#include <string.h>

#include "core/temp_file.h"

static const int fatal_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

static void on_fatal_signal(int sig)
{
    sn_temp_file_unlink_all();
    /* the default action now; blocked in its handler, the signal lands
     * when this returns */
    signal(sig, SIG_DFL);
    raise(sig);
}

void sn_headless_catch_temp_signals(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof *fatal_signals; i++) {
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
