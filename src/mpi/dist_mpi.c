/* dist_mpi.c - starting MPI, agreeing on failures, the clock: what the
 * distributed sort and the distributed proof share. */
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h> // for: PR_SET_PDEATHSIG (the watched process)
#endif
#include <sys/resource.h> // for: getrlimit (RLIMIT_AS)
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "mpi/dist.h"
#include "gpu/gpu.h" /* for: sn_gpu_devices (the device a rank takes) */

bool sn_dist_launched(void)
{
    /* Open MPI's mpirun, or a PMI/PMIx launcher (srun, hydra) */
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

static void finalize(void)
{
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin)
        MPI_Finalize();
}

/* ---- MPI_Init under an address-space limit ----
 * Open MPI's MPI_Init that fails (ulimit -v: a segment or its daemon that
 * cannot be mapped) aborts the process itself with _exit(1), the exit of a
 * negative verdict, leaving only its own text. So under a finite
 * RLIMIT_AS (only then: a normal run pays nothing) the process forks
 * first: the child goes on as sortnet and says through a pipe when
 * MPI_Init returned; the parent (the PID mpirun knows) passes signals on
 * and exits as the child did, or, when the child ended before MPI_Init
 * returned, returns SN_ENOMEM naming the limit (the caller says it, exit
 * 5) without MPI. */
static volatile sig_atomic_t watched_pid;

static void pass_on(int sig)
{
    if (watched_pid > 0)
        kill((pid_t)watched_pid, sig);
}

static const int passed_on[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};
#define N_PASSED ((int)(sizeof passed_on / sizeof passed_on[0]))

/* The parent's side: returns only when the child ended before MPI_Init
 * returned on its own (not by a signal passed on): SN_ENOMEM and the cause
 * in diag, signals as they were; otherwise it ends as the child did. */
static sn_status watch(pid_t child, int rd, rlim_t limit, sn_diag *diag)
{
    struct sigaction saved[N_PASSED];
    watched_pid = child;
    for (int i = 0; i < N_PASSED; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = pass_on;
        sigaction(passed_on[i], &sa, &saved[i]);
    }
    char c = 0;
    ssize_t r;
    while ((r = read(rd, &c, 1)) < 0 && errno == EINTR)
        ;
    close(rd);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    bool ended_by_us = false;
    for (int i = 0; i < N_PASSED; i++)
        ended_by_us |= WIFSIGNALED(status) && WTERMSIG(status) == passed_on[i];
    ended_by_us |= WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    if (r != 1 && !ended_by_us) {
        for (int i = 0; i < N_PASSED; i++)
            sigaction(passed_on[i], &saved[i], NULL);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0,
                           "MPI could not start: the address space is limited to %llu MiB "
                           "(ulimit -v), too little for MPI_Init",
                           (unsigned long long)(limit >> 20));
    }
    if (WIFSIGNALED(status)) {
        signal(WTERMSIG(status), SIG_DFL);
        raise(WTERMSIG(status));
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

/* -1: no watch (no limit, or fork failed), or -2 in the parent when the
 * child could not start MPI (*st, diag); else the pipe's end to tell */
static int watched_init(sn_status *st, sn_diag *diag)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return -1;
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t parent = getpid(), child = fork();
    if (child < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (child > 0) {
        close(fd[1]);
        *st = watch(child, fd[0], rl.rlim_cur, diag);
        return -2;
    }
    close(fd[0]);
    /* the parent killed (mpirun's SIGKILL): this process goes too */
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)
        _exit(1);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return fd[1];
}

sn_status sn_dist_init(sn_diag *diag)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (inited)
        return SN_OK;
    sn_status wst = SN_OK;
    int tell = watched_init(&wst, diag);
    if (tell == -2)
        return wst;
    int ok = MPI_Init(NULL, NULL) == MPI_SUCCESS;
    if (tell >= 0) {
        ssize_t w = write(tell, "1", 1);
        (void)w;
        close(tell);
    }
    if (!ok)
        return sn_diag_set(diag, SN_EIO, 0, 0, "MPI could not start (MPI_Init failed)");
    atexit(finalize);
    /* errors come back to us (so a failure is agreed on and reported), not
     * an abort with MPI's own message */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    return SN_OK;
}

int sn_dist_rank(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int sn_dist_size(void)
{
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

sn_status sn_dist_agree(sn_status st, sn_diag *diag)
{
    int me = sn_dist_rank(), mine = st == SN_OK ? INT32_MAX : me, first = INT32_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == INT32_MAX)
        return SN_OK;
    int code = (int)st;
    MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
    MPI_Bcast(diag->text, (int)sizeof diag->text, MPI_CHAR, first, MPI_COMM_WORLD);
    diag->text[sizeof diag->text - 1] = '\0';
    if (first != 0 && me != first && diag->text[0] != '\0' && strncmp(diag->text, "rank ", 5)) {
        /* say which rank failed when it was not rank 0 */
        char buf[sizeof diag->text + 32];
        snprintf(buf, sizeof buf, "rank %d: %s", first, diag->text);
        snprintf(diag->text, sizeof diag->text, "%.1000s", buf);
    }
    return (sn_status)code;
}

void sn_dist_abort(int code)
{
    MPI_Abort(MPI_COMM_WORLD, code);
}

double sn_dist_now(void)
{
    return MPI_Wtime();
}

int sn_dist_local(int *local_rank)
{
    MPI_Comm node;
    int size = 1, lr = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, sn_dist_rank(), MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &lr);
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
    if (local_rank)
        *local_rank = lr;
    return size;
}

bool sn_dist_device_pick(int local_rank, bool any_device, char spec[32], const char **type)
{
    sn_gpu_device_info *devs = NULL;
    size_t nd = 0, ng = 0, pick = SIZE_MAX;
    sn_diag dd;
    if (sn_gpu_devices(&devs, &nd, &dd) == SN_OK) {
        for (size_t i = 0; i < nd; i++)
            ng += strcmp(devs[i].type, "GPU") == 0;
        for (size_t i = 0, g = 0; i < nd && ng; i++)
            if (strcmp(devs[i].type, "GPU") == 0 && g++ == (size_t)local_rank % ng)
                pick = i;
        if (pick == SIZE_MAX && any_device && nd)
            pick = sn_gpu_device_default(devs, nd);
    }
    if (pick != SIZE_MAX) {
        snprintf(spec, 32, "%u:%u", devs[pick].platform, devs[pick].device);
        if (type)
            *type = devs[pick].type;
    }
    sn_free(devs);
    return pick != SIZE_MAX;
}
