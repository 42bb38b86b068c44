/* cmd_dist_signal.c - what `dist sort` says when its job is ended by a
 * signal: interrupted (the user's Ctrl-C or kill to mpirun, or to the
 * process itself) or a rank that died, told apart by the ranks of this
 * host.
 *
 * Open MPI's mpirun answers both the same way: it sends SIGTERM to every
 * rank left. What differs is the ranks: when one died, mpirun has already
 * reaped it (that is how it noticed) before it sends SIGTERM; when mpirun
 * was interrupted, every rank is alive when the SIGTERM arrives. So at the
 * start the ranks swap their PIDs and host names, and rank 0's handler
 * looks for a rank of its host that is gone (kill(pid, 0) answers ESRCH,
 * or /proc says zombie). The other ranks wait in their handler (at most 2
 * s) until rank 0 is gone, so that their own ending is never read as a
 * death. A rank on another host cannot be looked at: with ranks on other
 * hosts and none of this host gone, the line says both causes. */
#include "cmd_dist_signal.h"

#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "core/alloc.h"
#include "mpi/dist.h"

/* Filled before the handlers are set, read only by them. */
static int me;                      /* this rank */
static pid_t *local_pids;           /* the PIDs of this host's other ranks */
static int nlocal;                  /* how many */
static pid_t rank0_pid;             /* rank 0's PID when on this host, else 0 */
static bool all_local;              /* every rank on this host */
static bool launched;               /* by mpirun (not a process on its own) */
static volatile sig_atomic_t phase; /* 0 sorting, 1 finished (report out) */

static void say(const char *m)
{
    ssize_t r = write(2, m, strlen(m));
    (void)r;
}

/* Whether the process pid has ended (gone, or a zombie not yet reaped):
 * async-signal-safe (kill, open, read, close). */
static bool ended(pid_t pid)
{
    if (kill(pid, 0) != 0)
        return errno == ESRCH;
    char path[40], buf[256];
    /* "/proc/PID/stat" by hand: no snprintf in a signal handler */
    char digits[16];
    int k = 0;
    for (long v = (long)pid; v > 0 && k < 15; v /= 10)
        digits[k++] = (char)('0' + v % 10);
    memcpy(path, "/proc/", 6);
    int j = 6;
    while (k > 0)
        path[j++] = digits[--k];
    memcpy(path + j, "/stat", 6);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    /* "PID (comm) S ...": the state after the last ')' */
    char *p = NULL;
    for (char *q = buf; *q; q++)
        if (*q == ')')
            p = q;
    return p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
}

static void on_end_signal(int sig)
{
    int code = 128 + sig;
    sn_dist_output_abandon();
    if (me == 0) {
        bool died = false;
        for (int i = 0; i < nlocal && !died; i++)
            died = ended(local_pids[i]);
        const char *finished = phase ? " after the sort had finished (its report is complete)" : "";
        if (died) {
            say("sortnet: dist sort: the job was ended by mpirun: a rank died or failed (mpirun "
                "names it)\n");
            code = CLI_DEVICE;
        } else if (!launched) {
            say("sortnet: dist sort: interrupted by ");
            say(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
            say(finished);
            say("\n");
        } else if (all_local) {
            say("sortnet: dist sort: interrupted: mpirun was sent a signal and ended the job");
            say(finished);
            say("\n");
        } else {
            say("sortnet: dist sort: the job was ended by mpirun: interrupted, or a rank on another "
                "host died or failed (mpirun names it)\n");
        }
    } else if (rank0_pid > 0) {
        /* rank 0 decides: this rank's end must not look like a death */
        struct timespec ts = {0, 10 * 1000 * 1000};
        for (int i = 0; i < 200 && !ended(rank0_pid); i++)
            nanosleep(&ts, NULL);
    }
    _exit(code);
}

static const int end_signals[] = {SIGTERM, SIGINT, SIGHUP};

void cli_dist_signals_begin(int rank, int ranks, bool by_mpirun)
{
    struct {
        int32_t pid;
        uint64_t host;
    } mine = {(int32_t)getpid(), 1469598103934665603ULL}, *all = NULL;
    char name[256] = "";
    gethostname(name, sizeof name - 1);
    for (const char *c = name; *c; c++) /* FNV-1a of the host name */
        mine.host = (mine.host ^ (uint8_t)*c) * 1099511628211ULL;
    if (ranks > 1 && by_mpirun) {
        all = sn_calloc((size_t)ranks, sizeof *all);
        local_pids = sn_calloc((size_t)ranks, sizeof *local_pids);
        if (!all || !local_pids) { /* a few bytes a rank: the job cannot go on */
            cli_error(CLI_DEVICE, "dist sort", "out of memory");
            MPI_Abort(MPI_COMM_WORLD, CLI_DEVICE);
        }
        MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE,
                      MPI_COMM_WORLD);
    }
    me = rank;
    launched = by_mpirun;
    all_local = true;
    if (all) {
        for (int i = 0; i < ranks; i++) {
            if (all[i].host != mine.host) {
                all_local = false;
                continue;
            }
            if (i == 0 && rank != 0)
                rank0_pid = (pid_t)all[i].pid;
            if (i != rank)
                local_pids[nlocal++] = (pid_t)all[i].pid;
        }
        sn_free(all);
    }
    for (size_t i = 0; i < sizeof end_signals / sizeof *end_signals; i++) {
        struct sigaction cur;
        /* one ignored (a background job's SIGINT) stays ignored */
        if (sigaction(end_signals[i], NULL, &cur) == 0 && cur.sa_handler == SIG_IGN)
            continue;
        cli_catch_signal(end_signals[i], on_end_signal, 0, NULL);
    }
}

void cli_dist_signals_finished(void)
{
    phase = 1;
}

void cli_dist_signals_end(void)
{
    for (size_t i = 0; i < sizeof end_signals / sizeof *end_signals; i++) {
        struct sigaction cur;
        if (sigaction(end_signals[i], NULL, &cur) == 0 && cur.sa_handler == on_end_signal)
            signal(end_signals[i], SIG_DFL);
    }
    sn_free(local_pids);
    local_pids = NULL;
    nlocal = 0;
}
