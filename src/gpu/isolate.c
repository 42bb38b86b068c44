/* isolate.c - a user's layer kernel run in a child process, so that a crash
 * or an endless loop on the device ends in a verdict instead of taking
 * sortnet down or hanging it.
 *
 * The invariant: this process never touches OpenCL. It forks; the child
 * (its own process group, killed with its parent on Linux) opens the
 * device, builds the kernel and runs it layer by layer (sn_gpu_user_run),
 * writing to a pipe "ready (device name)", then for every layer "begin k"
 * and "done k + keys + payload", and last "end" or "error (status, text,
 * build log)". The parent steps the reference executor one layer behind and
 * compares, so the verdict and the first mismatch are its own. Every read
 * has a deadline (poll): the set-up's, then each layer's from the message
 * before it. On a deadline, a mismatch or the end, the child's group is sent
 * SIGKILL and reaped (bounded: a driver may hold a dying process for a
 * while); end of file before "end" or "error" is a crash, the layer known
 * from the last "begin"; so is a failed device call between "begin" and
 * "done" (how a GPU reports an out-of-bounds access). */
#include "gpu/gpu_internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h> // for: PR_SET_PDEATHSIG (the child dies with sortnet)
#endif

#include "core/alloc.h"

/* How long a killed child may take to be reaped before we give up on it. */
#define REAP_LIMIT_S 10.0
/* Largest error message (text and build log) accepted from the child. */
#define ERROR_MAX ((size_t)16 << 20)

enum { MSG_READY = 1, MSG_BEGIN, MSG_DONE, MSG_END, MSG_ERROR };

typedef struct msg_head {
    uint32_t type;
    uint32_t status; /* MSG_ERROR: the sn_status */
    uint64_t layer;  /* MSG_BEGIN, MSG_DONE */
    uint64_t len;    /* bytes that follow */
} msg_head;

/* A coverage build (SORTNET_COVERAGE, clang's profile runtime): _exit
 * skips the writing of the counts, so the child writes them itself before
 * it exits; and the parent lets a child that is not stuck exit on its own
 * (its pipe closed, its next write fails) instead of killing it mid-write.
 * Other builds never wait for the child. */
#ifdef SN_COVERAGE
int __llvm_profile_write_file(void);
#define COVERAGE 1
#else
#define COVERAGE 0
#endif

/* ---- the child */

typedef struct child_ctx {
    int fd;
    uint32_t n;
    bool lost; /* a write failed: the parent is gone or stopped listening */
} child_ctx;

static bool write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

/* One message: the header, then a and b (either may be empty). */
static sn_status send_msg(child_ctx *c, uint32_t type, uint32_t status, size_t layer, const void *a,
                          size_t alen, const void *b, size_t blen, sn_diag *diag)
{
    msg_head h = {type, status, layer, (uint64_t)alen + blen};
    if (write_all(c->fd, &h, sizeof h) && write_all(c->fd, a, alen) && write_all(c->fd, b, blen))
        return SN_OK;
    c->lost = true;
    return sn_diag_set(diag, SN_EIO, 0, 0, "the verifying process stopped listening");
}

static sn_status child_ready(void *ctx, const sn_gpu *g, sn_diag *diag)
{
    const char *name = sn_gpu_device_name(g);
    return send_msg(ctx, MSG_READY, 0, 0, name, strlen(name), NULL, 0, diag);
}

static sn_status child_begin(void *ctx, size_t k, sn_diag *diag)
{
    return send_msg(ctx, MSG_BEGIN, 0, k, NULL, 0, NULL, 0, diag);
}

static sn_status child_done(void *ctx, size_t k, const uint32_t *keys, const uint32_t *pay,
                            bool *stop, sn_diag *diag)
{
    child_ctx *c = ctx;
    *stop = false;
    size_t bytes = (size_t)c->n * 4;
    return send_msg(c, MSG_DONE, 0, k, keys, bytes, pay, bytes, diag);
}

static _Noreturn void child_main(int fd, pid_t parent, const sn_gpu_isolation *iso,
                                 const sn_schedule *s, sn_key_type t, const uint32_t *input,
                                 const sn_gpu_verify_opts *o)
{
    /* Its own group, so that a kill reaches whatever it starts; and on
     * Linux it dies with its parent (a Ctrl-C no longer reaches it through
     * the terminal's group). */
    setpgid(0, 0);
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    if (getppid() != parent)
        _exit(3);
    if (COVERAGE) /* a write to the closed pipe fails instead of killing */
        signal(SIGPIPE, SIG_IGN);
    child_ctx c = {fd, sn_schedule_wires(s), false};
    sn_user_hooks h = {&c, child_ready, child_begin, child_done};
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu *g = NULL;
    sn_status st = sn_gpu_open(iso->device, &g, &d);
    if (st == SN_OK)
        st = sn_gpu_user_run(g, s, t, input, o, &h, &d);
    if (st == SN_OK) {
        send_msg(&c, MSG_END, 0, 0, NULL, 0, NULL, 0, &d);
    } else if (!c.lost) {
        const char *log = g ? sn_gpu_build_log(g) : "";
        send_msg(&c, MSG_ERROR, (uint32_t)st, 0, d.text, strlen(d.text) + 1, log, strlen(log), &d);
    }
    /* No clean-up: the parent kills and reaps this process at once (a
     * coverage build's waits for it), and exit handlers and stdio buffers
     * are the parent's. */
#ifdef SN_COVERAGE
    (void)__llvm_profile_write_file();
#endif
    _exit(0);
}

/* ---- the parent */

static double now_s(void)
{
    return sn_gpu_now_ms() / 1e3;
}

enum { READ_OK = 0, READ_EOF, READ_TIMEOUT, READ_ERROR };

/* Read exactly len bytes before `deadline` (now_s() time; 0: none). */
static int read_full(int fd, void *buf, size_t len, double deadline)
{
    char *p = buf;
    while (len) {
        int ms = -1;
        if (deadline > 0) {
            double left = deadline - now_s();
            if (left <= 0)
                return READ_TIMEOUT;
            ms = left > 86400.0 ? 86400000 : (int)(left * 1000.0) + 1;
        }
        struct pollfd pfd = {fd, POLLIN, 0};
        int r = poll(&pfd, 1, ms);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return READ_ERROR;
        if (r == 0)
            continue; /* the deadline check above decides */
        ssize_t got = read(fd, p, len);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got < 0)
            return READ_ERROR;
        if (got == 0)
            return READ_EOF;
        p += got;
        len -= (size_t)got;
    }
    return READ_OK;
}

/* Kill the child's group and reap it; false if it could not be reaped
 * within REAP_LIMIT_S (a driver can hold a dying process). An exit status
 * already decided (a crash) stays what it was. */
static bool reap(pid_t pid, int *status, bool healthy)
{
    /* coverage builds: a healthy child (no crash, no time-out) exits on
     * its own once its pipe is closed; killed only if it does not */
    for (double until = now_s() + 30.0; COVERAGE && healthy && now_s() < until;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return true;
        if (r < 0 && errno != EINTR)
            break; /* (reaped already: the loop below says so) */
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL); /* in case the child had not made its group yet */
    double until = now_s() + REAP_LIMIT_S;
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return true;
        if (r < 0 && errno == ECHILD)
            return true; /* reaped already (SIGCHLD ignored): no status to read */
        if (r < 0 && errno != EINTR)
            return false;
        if (now_s() > until)
            return false;
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

static sn_status reap_fail(pid_t pid, sn_diag *diag)
{
    return sn_diag_set(diag, SN_EDEVICE, 0, 0,
                       "the device process (pid %ld) did not exit within %.0f s of SIGKILL: the "
                       "driver may still hold it",
                       (long)pid, REAP_LIMIT_S);
}

static sn_status protocol_error(sn_diag *diag, const msg_head *h)
{
    return sn_diag_set(diag, SN_EDEVICE, 0, 0,
                       "the device process sent an unexpected message (type %u, layer %llu, %llu "
                       "bytes)",
                       (unsigned)h->type, (unsigned long long)h->layer, (unsigned long long)h->len);
}

/* Whether h may come now: the child is ready (or not), working on layer
 * `next` of L, with n keys of `bytes` bytes. */
static bool head_ok(const msg_head *h, bool ready, size_t next, size_t L, size_t bytes)
{
    switch (h->type) {
    case MSG_READY: return !ready && h->len < sizeof(((sn_gpu_outcome *)0)->device);
    case MSG_BEGIN: return ready && h->layer == next && next < L && h->len == 0;
    case MSG_DONE: return ready && h->layer == next && next < L && h->len == 2 * (uint64_t)bytes;
    case MSG_END: return ready && next == L && h->len == 0;
    case MSG_ERROR:
        return h->len > 0 && h->len <= ERROR_MAX && h->status != SN_OK &&
               h->status <= (uint32_t)SN_STATUS_LAST;
    default: return false;
    }
}

/* The child's error: status, text (diag) and build log (out), both renamed. */
static sn_status take_error(int fd, const msg_head *h, const sn_gpu_isolation *iso, double deadline,
                            sn_gpu_outcome *out, sn_diag *diag)
{
    char *buf = sn_malloc((size_t)h->len + 1);
    if (!buf)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the device's message");
    if (read_full(fd, buf, (size_t)h->len, deadline) != READ_OK) {
        sn_free(buf);
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "the device process ended mid-message");
    }
    buf[h->len] = '\0';
    const char *text = buf, *log = buf + strnlen(buf, (size_t)h->len) + 1;
    if (log > buf + h->len)
        log = buf + h->len;
    const char *name = iso->source_name;
    char *t2 = name ? sn_gpu_log_rename(text, name) : NULL;
    sn_status st = sn_diag_set(diag, (sn_status)h->status, 0, 0, "%s", t2 ? t2 : text);
    sn_free(t2);
    if (*log)
        out->build_log = name ? sn_gpu_log_rename(log, name) : NULL;
    if (*log && !out->build_log) {
        size_t len = strlen(log);
        out->build_log = sn_malloc(len + 1);
        if (out->build_log)
            memcpy(out->build_log, log, len + 1);
    }
    sn_free(buf);
    return st;
}

/* The parent's side of one run: the pipe from the child, the reference
 * one layer behind it, and where the verdict goes. */
typedef struct parent {
    int fd;
    const sn_gpu_isolation *iso;
    size_t L, bytes;
    uint32_t n;
    sn_lockstep_ref *ref;
    uint32_t *dev; /* a layer's keys and payload, as they come */
    sn_gpu_report *rep;
    sn_gpu_outcome *out;
    bool ready, begun; /* begun: layer `next` runs */
    size_t next;       /* the layer the child works on (or will) */
} parent;

/* What one message means; *over when the run ends with it. */
static sn_status take_message(parent *p, const msg_head *h, double deadline, bool *over,
                              sn_diag *diag)
{
    sn_status st = SN_OK;
    switch (h->type) {
    case MSG_READY:
        p->out->device[h->len] = '\0';
        p->ready = true;
        break;
    case MSG_BEGIN: p->begun = true; break;
    case MSG_DONE:
        p->begun = false;
        *over = sn_lockstep_ref_step(p->ref, p->next++, p->dev, p->dev + p->n, p->rep);
        break;
    case MSG_END: *over = true; break;
    case MSG_ERROR:
        st = take_error(p->fd, h, p->iso, deadline, p->out, diag);
        if (st == SN_EDEVICE && p->begun) {
            /* the kernel's own doing: a verdict, with diag's details */
            p->out->fault = SN_GPU_FAULT_ERROR;
            p->out->in_layer = true;
            p->out->layer = p->next;
            st = SN_OK;
        }
        *over = true;
        break;
    default: break;
    }
    return st;
}

/* Read the child's messages until the verdict, a fault or an error. */
static sn_status listen_child(parent *p, sn_diag *diag)
{
    double limit = p->iso->setup_timeout_s;
    double deadline = limit > 0 ? now_s() + limit : 0;
    for (bool over = false; !over;) {
        msg_head h;
        int r = read_full(p->fd, &h, sizeof h, deadline);
        if (r == READ_OK && !head_ok(&h, p->ready, p->next, p->L, p->bytes))
            return protocol_error(diag, &h);
        /* the bodies read here: the device's name, a layer's arrays */
        if (r == READ_OK && h.type == MSG_READY)
            r = read_full(p->fd, p->out->device, (size_t)h.len, deadline);
        if (r == READ_OK && h.type == MSG_DONE)
            r = read_full(p->fd, p->dev, 2 * p->bytes, deadline);
        if (r != READ_OK) {
            p->out->in_layer = p->ready && p->next < p->L;
            p->out->layer = p->next;
            if (r == READ_TIMEOUT) {
                p->out->fault = SN_GPU_FAULT_TIMEOUT;
                p->out->limit_s = limit;
            } else if (r == READ_EOF) {
                p->out->fault = SN_GPU_FAULT_CRASH;
            } else {
                return sn_diag_set(diag, SN_EDEVICE, 0, 0, "reading from the device process: %s",
                                   strerror(errno));
            }
            return SN_OK;
        }
        sn_status st = take_message(p, &h, deadline, &over, diag);
        if (st != SN_OK)
            return st;
        if (p->ready) {
            /* each layer's clock starts with the message before it */
            limit = p->iso->layer_timeout_s;
            deadline = limit > 0 ? now_s() + limit : 0;
        }
    }
    return SN_OK;
}

/* Reap the child (how a crash ended goes into out) and settle the
 * verdict: a fault is never "identical". */
static sn_status reap_child(pid_t pid, sn_status st, sn_gpu_outcome *out, sn_gpu_report *rep,
                            sn_diag *diag)
{
    int status = 0;
    if (!reap(pid, &status, out->fault == SN_GPU_FAULT_NONE)) {
        if (st == SN_OK)
            st = reap_fail(pid, diag);
    } else if (out->fault == SN_GPU_FAULT_CRASH) {
        if (WIFSIGNALED(status))
            out->signal = WTERMSIG(status);
        else if (WIFEXITED(status))
            out->exit_status = WEXITSTATUS(status);
    }
    if (out->fault != SN_GPU_FAULT_NONE) {
        rep->identical = false;
        rep->layer = out->layer;
    }
    return st;
}

/* Fork the device process; the parent gets the pipe's reading end. */
static sn_status start_child(const sn_gpu_isolation *iso, const sn_schedule *s, sn_key_type t,
                             const uint32_t *input, const sn_gpu_verify_opts *opts, pid_t *pid,
                             int *fd, sn_diag *diag)
{
    int fds[2];
    if (pipe(fds) != 0)
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "pipe: %s", strerror(errno));
    pid_t parent_pid = getpid();
    *pid = fork();
    if (*pid < 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "fork: %s", strerror(e));
    }
    if (*pid == 0) {
        close(fds[0]);
        child_main(fds[1], parent_pid, iso, s, t, input, opts);
    }
    close(fds[1]);
    setpgid(*pid, *pid); /* also here: no race with the child's own call */
    *fd = fds[0];
    return SN_OK;
}

sn_status sn_gpu_verify_isolated(const sn_gpu_isolation *iso, const sn_schedule *s, sn_key_type t,
                                 const uint32_t *input, bool with_payload,
                                 const sn_gpu_verify_opts *opts, sn_gpu_report *rep,
                                 sn_gpu_outcome *out, sn_diag *diag)
{
    memset(out, 0, sizeof *out);
    memset(rep, 0, sizeof *rep);
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    rep->identical = true;
    rep->layers = L;
    rep->method = SN_GPU_CHECK_LOCKSTEP;
    if (!opts || !opts->user_source)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "an isolated run needs a user kernel");
    sn_status st = sn_gpu_verify_check_inject(s, opts, diag);
    if (st != SN_OK)
        return st;
    sn_lockstep_ref ref;
    if ((st = sn_lockstep_ref_init(&ref, s, t, input, with_payload, diag)) != SN_OK)
        return st;
    size_t bytes = (size_t)n * 4;
    parent p = {-1, iso, L, bytes, n, &ref, sn_malloc(2 * bytes + 4), rep, out, false, false, 0};
    pid_t pid = 0;
    if (!p.dev)
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", n);
    else if ((st = start_child(iso, s, t, input, opts, &pid, &p.fd, diag)) == SN_OK) {
        st = listen_child(&p, diag);
        close(p.fd);
        st = reap_child(pid, st, out, rep, diag);
    }
    sn_lockstep_ref_free(&ref);
    sn_free(p.dev);
    return st;
}

void sn_gpu_outcome_clear(sn_gpu_outcome *o)
{
    if (!o)
        return;
    sn_free(o->build_log);
    o->build_log = NULL;
}

/* ---- build logs */

/* Length of the runtime's name for the source at p (a token that ends
 * where ":LINE" follows), or 0 if p does not start one. */
static size_t temp_name_len(const char *p)
{
    static const char nvidia[] = "<kernel>";
    size_t len = strcspn(p, ": \t\r\n'\"()");
    if (p[len] != ':' || p[len + 1] < '0' || p[len + 1] > '9')
        return 0;
    if (len == sizeof nvidia - 1 && memcmp(p, nvidia, len) == 0)
        return len;
    /* pocl: .../kcache/tempfile_XXXXXX.cl */
    const char *base = p + len;
    while (base > p && base[-1] != '/')
        base--;
    if (strncmp(base, "tempfile", 8) == 0 && len >= 3 && memcmp(p + len - 3, ".cl", 3) == 0)
        return len;
    return 0;
}

char *sn_gpu_log_rename(const char *log, const char *name)
{
    /* The user's source is built as it is (no lines in front of it), so
     * line numbers stay. Two passes: measure, then write. */
    size_t nlen = strlen(name);
    char *outp = NULL;
    for (int pass = 0; pass < 2; pass++) {
        size_t k = 0;
        const char *p = log;
        while (*p) {
            bool start = p == log || strchr(" \t\r\n'\"(", p[-1]) != NULL;
            size_t tl = start ? temp_name_len(p) : 0;
            if (tl) {
                if (outp)
                    memcpy(outp + k, name, nlen);
                k += nlen;
                p += tl;
            } else {
                if (outp)
                    outp[k] = *p;
                k++;
                p++;
            }
        }
        if (outp) {
            outp[k] = '\0';
            return outp;
        }
        outp = sn_malloc(k + 1);
        if (!outp)
            return NULL;
    }
    return outp;
}
