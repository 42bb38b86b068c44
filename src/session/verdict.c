/* verdict.c - one worker thread per check job, handed off through a mutex.
 *
 * Invariant: at most one thread exists (`running`); it writes only the
 * job's result and progress, under the mutex, and sets `done` last. The
 * owner joins it before reading the result, before starting another job
 * and when cancelling, so no result of an old job is ever seen. */
#include "session/verdict.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"

struct sn_verdict {
    sn_thread *thread;
    bool running; /* a thread exists and has not been joined */
    sn_mutex *lock;
    bool done;       /* under lock: the thread finished its job */
    double progress; /* under lock */
    sn_cancel cancel;
    sn_network *net; /* the job's network (owned) */
    sn_verdict_result res;
};

sn_verdict *sn_verdict_create(void)
{
    sn_verdict *w = sn_calloc(1, sizeof *w);
    if (w && !(w->lock = sn_mutex_create())) {
        sn_free(w);
        return NULL;
    }
    return w;
}

static void progress(double fraction, double eta, void *user)
{
    (void)eta;
    sn_verdict *w = user;
    sn_mutex_lock(w->lock);
    w->progress = fraction;
    sn_mutex_unlock(w->lock);
}

static void *work(void *arg)
{
    sn_verdict *w = arg;
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.progress = progress;
    opt.progress_user = w;
    opt.cancel = &w->cancel;
    sn_diag d;
    sn_diag_clear(&d);
    sn_check_result res;
    memset(&res, 0, sizeof res);
    sn_status st = sn_check_run(w->net, &opt, &res, &d);
    sn_mutex_lock(w->lock);
    w->res.status = st;
    if (st == SN_OK)
        w->res.check = res;
    else
        snprintf(w->res.why, sizeof w->res.why, "%.250s", sn_diag_text(&d, st));
    w->progress = 1;
    w->done = true;
    sn_mutex_unlock(w->lock);
    return NULL;
}

/* Join the thread and free what the job held; keep the result only when
 * keep is set (the caller takes it). */
static void join(sn_verdict *w, bool keep)
{
    if (!w->running)
        return;
    sn_thread_join(w->thread);
    w->thread = NULL;
    w->running = false;
    sn_network_destroy(w->net);
    w->net = NULL;
    if (!keep) {
        sn_check_result_free(&w->res.check);
        memset(&w->res, 0, sizeof w->res);
    }
}

void sn_verdict_cancel(sn_verdict *w)
{
    if (!w || !w->running)
        return;
    atomic_store(&w->cancel, 1);
    join(w, false);
}

void sn_verdict_destroy(sn_verdict *w)
{
    if (!w)
        return;
    sn_verdict_cancel(w);
    sn_mutex_destroy(w->lock);
    sn_free(w);
}

sn_status sn_verdict_start(sn_verdict *w, sn_network *net, uint64_t id)
{
    sn_verdict_cancel(w);
    if (!net)
        return SN_ENOMEM;
    memset(&w->res, 0, sizeof w->res);
    w->res.id = id;
    w->net = net;
    atomic_store(&w->cancel, 0);
    w->done = false;
    w->progress = 0;
    /* without threads, or when no thread can be started, the job runs
     * here, now (the check ends by itself); `done` is then set when this
     * returns and the next take finds the result */
    sn_status st = sn_thread_start(&w->thread, work, w);
    if (st != SN_OK) {
        sn_network_destroy(net);
        w->net = NULL;
        return st;
    }
    w->running = true;
    return SN_OK;
}

bool sn_verdict_pending(const sn_verdict *w)
{
    return w && w->running;
}

double sn_verdict_progress(sn_verdict *w)
{
    if (!w || !w->running)
        return 0;
    sn_mutex_lock(w->lock);
    double p = w->progress;
    sn_mutex_unlock(w->lock);
    return p;
}

bool sn_verdict_take(sn_verdict *w, bool wait, sn_verdict_result *out)
{
    if (!w || !w->running)
        return false;
    if (!wait) {
        sn_mutex_lock(w->lock);
        bool done = w->done;
        sn_mutex_unlock(w->lock);
        if (!done)
            return false;
    }
    join(w, true);
    *out = w->res;
    memset(&w->res, 0, sizeof w->res);
    return true;
}
