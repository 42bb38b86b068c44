/* verdict.c - one worker thread per check job, handed off through a mutex.
 *
 * Invariant: at most one thread exists (`running`); it writes only the
 * job's result and progress, under the mutex, and sets `done` last. The
 * owner joins it before reading the result, before starting another job
 * and when cancelling, so no result of an old job is ever seen. */
#include "session/verdict.h"

#include <pthread.h> // for: the mutex (the thread itself comes from core/parallel.h)
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"

struct sn_verdict {
    sn_thread *thread;
    bool running; /* a thread exists and has not been joined */
    pthread_mutex_t lock;
    bool done;       /* under lock: the thread finished its job */
    double progress; /* under lock */
    sn_cancel cancel;
    sn_network *net; /* the job's network (owned) */
    sn_verdict_result res;
};

sn_verdict *sn_verdict_create(void)
{
    sn_verdict *w = sn_calloc(1, sizeof *w);
    if (w && pthread_mutex_init(&w->lock, NULL) != 0) {
        sn_free(w);
        return NULL;
    }
    return w;
}

static void progress(double fraction, double eta, void *user)
{
    (void)eta;
    sn_verdict *w = user;
    pthread_mutex_lock(&w->lock);
    w->progress = fraction;
    pthread_mutex_unlock(&w->lock);
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
    pthread_mutex_lock(&w->lock);
    w->res.status = st;
    if (st == SN_OK)
        w->res.check = res;
    else
        snprintf(w->res.why, sizeof w->res.why, "%.250s", sn_diag_text(&d, st));
    w->progress = 1;
    w->done = true;
    pthread_mutex_unlock(&w->lock);
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
    pthread_mutex_destroy(&w->lock);
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
    /* in a build without threads the job runs here, now; `done` is then
     * set when this returns */
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
    pthread_mutex_lock(&w->lock);
    double p = w->progress;
    pthread_mutex_unlock(&w->lock);
    return p;
}

bool sn_verdict_take(sn_verdict *w, bool wait, sn_verdict_result *out)
{
    if (!w || !w->running)
        return false;
    if (!wait) {
        pthread_mutex_lock(&w->lock);
        bool done = w->done;
        pthread_mutex_unlock(&w->lock);
        if (!done)
            return false;
    }
    join(w, true);
    *out = w->res;
    memset(&w->res, 0, sizeof w->res);
    return true;
}
