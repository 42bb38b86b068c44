/* race.c - the race's worker: one thread that runs sn_search_run and
 * hands each improvement to the UI through a mutex.
 *
 * Invariant: at most one search thread exists (`running`). It writes only
 * `snap` and `best`, under the lock; the owner (the UI thread) reads them
 * only under the lock, and joins the thread before it starts another race,
 * when it stops one and when the race is destroyed, so a search never
 * outlives its race and never writes into the next one's snapshot. */
#include "session/race.h"

#include <stdio.h>
#include <string.h>
#include <time.h> // for: clock_gettime (the race's clock)

#include "core/alloc.h"
#include "core/parallel.h"
#include "core/search.h"

struct sn_race {
    sn_mutex *lock; /* does nothing without threads */
    sn_thread *thread;
    bool running;     /* a thread exists and has not been joined (owner only) */
    bool ended;       /* under lock: the search returned */
    sn_cancel cancel; /* set to stop the search */
    sn_network *from; /* the start network (owned), or NULL */
    unsigned threads;
    uint64_t seed;
    double t0, t_end;  /* the race's clock at the start and at the end */
    sn_race_snap snap; /* under lock */
    sn_network *best;  /* under lock: the best so far (owned) */
};

const char *sn_race_state_name(sn_race_state s)
{
    switch (s) {
    case SN_RACE_OFF: return "off";
    case SN_RACE_RUNNING: return "running";
    case SN_RACE_DONE: return "done";
    case SN_RACE_STOPPED: return "stopped";
    case SN_RACE_FAILED: return "failed";
    }
    return "?";
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void lock(sn_race *r)
{
    sn_mutex_lock(r->lock);
}
static void unlock(sn_race *r)
{
    sn_mutex_unlock(r->lock);
}

sn_race *sn_race_create(void)
{
    sn_race *r = sn_calloc(1, sizeof *r);
    if (!r)
        return NULL;
    if (!(r->lock = sn_mutex_create())) {
        sn_free(r);
        return NULL;
    }
    atomic_init(&r->cancel, 0);
    return r;
}

/* Join the thread (the search has returned or was cancelled). */
static void join(sn_race *r)
{
    if (!r->running)
        return;
    sn_thread_join(r->thread);
    r->thread = NULL;
    r->running = false;
    sn_network_destroy(r->from);
    r->from = NULL;
}

bool sn_race_stop(sn_race *r)
{
    if (!r || !r->running)
        return false;
    lock(r);
    bool was = !r->ended; /* the search had not returned by itself */
    unlock(r);
    atomic_store(&r->cancel, 1);
    join(r);
    lock(r);
    if (r->snap.state == SN_RACE_RUNNING)
        r->snap.state = SN_RACE_STOPPED;
    unlock(r);
    return was;
}

void sn_race_destroy(sn_race *r)
{
    if (!r)
        return;
    sn_race_stop(r);
    sn_network_destroy(r->best);
    sn_mutex_destroy(r->lock);
    sn_free(r);
}

#if SN_THREADS
/* The search's callback, on whichever worker found it. */
static void improved(const sn_network *best, const sn_search_event *ev, void *user)
{
    sn_race *r = user;
    sn_network *copy = sn_network_clone(best);
    if (!copy)
        return; /* the next improvement brings the next copy */
    lock(r);
    sn_network_destroy(r->best);
    r->best = copy;
    r->snap.gen++;
    r->snap.have_best = true;
    r->snap.size = ev->size;
    r->snap.depth = ev->depth;
    r->snap.found_s = ev->seconds;
    unlock(r);
}

static void *work(void *arg)
{
    sn_race *r = arg;
    sn_search_options opt;
    sn_search_options_init(&opt, r->snap.n);
    opt.goal = SN_SEARCH_GOAL_SIZE;
    opt.seed = r->seed;
    opt.threads = r->threads;
    opt.from = r->from;
    /* from scratch, the command's default: mirror pairs where they pay (12 wires) */
    opt.symmetric = !r->from && sn_search_default_symmetric(r->snap.n, SN_SEARCH_GOAL_SIZE);
    opt.target_size = r->snap.goal;
    opt.cancel = &r->cancel;
    opt.improved = improved;
    opt.user = r;
    sn_network *best = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_search_run(&opt, &best, NULL, &d);
    sn_network_destroy(best); /* the callback has had it */
    bool cancelled = sn_cancel_requested(&r->cancel);
    lock(r);
    r->t_end = now_s();
    r->ended = true;
    if (st != SN_OK && !(cancelled && st == SN_EINTERRUPTED)) {
        r->snap.state = SN_RACE_FAILED;
        snprintf(r->snap.why, sizeof r->snap.why, "%.190s", sn_diag_text(&d, st));
    } else {
        r->snap.state = cancelled ? SN_RACE_STOPPED : SN_RACE_DONE;
    }
    unlock(r);
    return NULL;
}
#endif

sn_status sn_race_start(sn_race *r, uint32_t n, const sn_network *from, size_t goal,
                        unsigned threads, uint64_t seed, sn_diag *diag)
{
    sn_race_stop(r);
#if !SN_THREADS
    (void)n, (void)from, (void)goal, (void)threads, (void)seed;
    return sn_diag_set(diag, SN_EUNSUPPORTED, 0, 0,
                       "the race needs a thread of its own: it runs in the window "
                       "(`sortnet view`), not in the page");
#else
    if (n < 2 || n > SN_RACE_MAX_N)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "%u wires: the computer races on 2 to %u (it proves every network it "
                           "finds; for more wires, `sortnet search %u`)",
                           n, SN_RACE_MAX_N, n);
    if (from && sn_network_wires(from) != n)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "the start network has %u wires, not %u",
                           sn_network_wires(from), n);
    sn_network *copy = NULL;
    if (from && !(copy = sn_network_clone(from)))
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if (threads == 0) {
        unsigned cpus = sn_parallel_cpus();
        threads = cpus > 1 ? cpus - 1 : 1; /* a core for the window */
    }
    lock(r);
    sn_network_destroy(r->best);
    r->best = NULL;
    uint64_t gen = r->snap.gen; /* keeps counting: a new race's best is new */
    memset(&r->snap, 0, sizeof r->snap);
    r->snap.gen = gen + 1;
    r->snap.state = SN_RACE_RUNNING;
    r->snap.n = n;
    r->snap.goal = goal;
    r->snap.from_student = from != NULL;
    r->ended = false;
    r->t0 = now_s();
    r->t_end = 0;
    unlock(r);
    r->from = copy;
    r->threads = threads;
    r->seed = seed;
    atomic_store(&r->cancel, 0);
    /* A thread or nothing (sn_thread_try_start): sn_thread_start would run
     * the search here when no thread starts, and a race without a goal
     * runs until stopped, so the window would never get control back to
     * stop it; one with a goal would freeze the window until the goal
     * with no way to stop it either. So the race fails, as it is refused
     * in the build without threads. */
    sn_status st = sn_thread_try_start(&r->thread, work, r);
    if (st != SN_OK) {
        sn_network_destroy(r->from);
        r->from = NULL;
        lock(r);
        r->snap.state = SN_RACE_FAILED;
        snprintf(r->snap.why, sizeof r->snap.why, "no thread for the search");
        unlock(r);
        return sn_diag_set(diag, st, 0, 0, "no thread for the search");
    }
    r->running = true;
    return SN_OK;
#endif
}

void sn_race_poll(sn_race *r, sn_race_snap *out, uint64_t have_gen, sn_network **best)
{
    if (best)
        *best = NULL;
    if (!r) {
        memset(out, 0, sizeof *out);
        return;
    }
    lock(r);
    bool ended = r->ended;
    *out = r->snap;
    double end = ended ? r->t_end : now_s();
    out->elapsed_s = r->snap.state == SN_RACE_OFF ? 0 : end - r->t0;
    if (best && out->gen != have_gen && r->best)
        *best = sn_network_clone(r->best);
    unlock(r);
    if (ended && r->running)
        join(r); /* the search returned: the thread is about to end */
}

bool sn_race_wait(sn_race *r)
{
    if (!r || !r->running || r->snap.goal == 0)
        return false;
    join(r);
    return true;
}
