/* parallel.c - the only file in src/ that starts threads, makes mutexes or
 * reads the CPU count: POSIX threads, or (SN_THREADS=0) every task in the
 * caller.
 *
 * Invariant: every task and every worker runs exactly once, whatever the
 * number of threads that could be started (every start goes through
 * start_thread, which the fault switch can make fail); callers make their
 * results not depend on which thread ran what. */
#include "core/parallel.h"

#include <string.h>

#include "core/alloc.h"

#ifndef SN_THREADS
#define SN_THREADS 1
#endif

#if SN_THREADS
#include <errno.h>   // for: EAGAIN (an injected failure reads as the system's)
#include <pthread.h> // for: pthread_create, mutexes, barriers (the threaded build only)
#include <stdlib.h>  // for: getenv, strtoul (SN_THREADS_FAIL)
#include <unistd.h>  // for: sysconf (the online CPUs)
#endif

/* ---- the parts both builds share ---- */

typedef struct pfor {
    size_t tasks;
    atomic_size_t next;
    void (*fn)(void *ctx, size_t task);
    void *ctx;
} pfor;

static void *pfor_worker(void *arg)
{
    pfor *p = arg;
    for (size_t i; (i = atomic_fetch_add(&p->next, 1)) < p->tasks;)
        p->fn(p->ctx, i);
    return NULL;
}

#if SN_THREADS

/* ---- the fault switch: from the fail_at-th start on, no thread starts.
 * Atomics: a thread started here may start threads of its own (the race's
 * search starts its team) while the caller starts another. */

static atomic_size_t fail_at; /* 0: never */
static atomic_size_t starts;  /* tried since the last sn_parallel_fail_after */
static pthread_once_t env_once = PTHREAD_ONCE_INIT;

/* SN_THREADS_FAIL=N (N >= 1); anything else leaves the switch off. */
static void fail_from_env(void)
{
    const char *e = getenv("SN_THREADS_FAIL");
    if (!e || !*e)
        return;
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    if (*end == '\0' && v > 0)
        atomic_store(&fail_at, (size_t)v);
}

size_t sn_parallel_fail_after(size_t countdown)
{
    pthread_once(&env_once, fail_from_env); /* read now, so it cannot override this */
    atomic_store(&fail_at, countdown);
    return atomic_exchange(&starts, 0);
}

/* pthread_create with default attributes, or EAGAIN once the switch says
 * the process is out of threads. */
static int start_thread(pthread_t *tid, void *(*fn)(void *), void *arg)
{
    pthread_once(&env_once, fail_from_env);
    size_t k = atomic_fetch_add(&starts, 1) + 1, at = atomic_load(&fail_at);
    if (at && k >= at)
        return EAGAIN;
    return pthread_create(tid, NULL, fn, arg);
}

unsigned sn_parallel_cpus(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        return 1;
    return cpus > SN_PARALLEL_THREADS_MAX ? SN_PARALLEL_THREADS_MAX : (unsigned)cpus;
}

static unsigned clamp_threads(unsigned threads)
{
    unsigned nt = threads ? threads : sn_parallel_cpus();
    return nt > SN_PARALLEL_THREADS_MAX ? SN_PARALLEL_THREADS_MAX : nt;
}

void sn_parallel_for(size_t tasks, unsigned threads, void (*fn)(void *ctx, size_t task), void *ctx)
{
    unsigned nt = clamp_threads(threads);
    if ((size_t)nt > tasks)
        nt = (unsigned)(tasks ? tasks : 1);
    pfor p = {.tasks = tasks, .fn = fn, .ctx = ctx};
    atomic_init(&p.next, 0);
    pthread_t tid[SN_PARALLEL_THREADS_MAX];
    unsigned started = 0;
    for (unsigned t = 1; t < nt; t++) {
        if (start_thread(&tid[started], pfor_worker, &p) != 0)
            break;
        started++;
    }
    pfor_worker(&p);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

typedef struct worker_arg {
    void (*fn)(void *ctx, unsigned worker);
    void *ctx;
    unsigned w;
} worker_arg;

static void *worker_main(void *arg)
{
    worker_arg *a = arg;
    a->fn(a->ctx, a->w);
    return NULL;
}

void sn_parallel_workers(unsigned workers, void (*fn)(void *ctx, unsigned worker), void *ctx)
{
    if (workers == 0)
        return;
    pthread_t *tid = workers > 1 ? sn_calloc(workers, sizeof *tid) : NULL;
    worker_arg *args = workers > 1 ? sn_calloc(workers, sizeof *args) : NULL;
    bool *started = workers > 1 ? sn_calloc(workers, sizeof *started) : NULL;
    bool threads = tid && args && started; /* else all in the caller */
    for (unsigned w = 1; threads && w < workers; w++) {
        args[w] = (worker_arg){fn, ctx, w};
        started[w] = start_thread(&tid[w], worker_main, &args[w]) == 0;
    }
    fn(ctx, 0);
    for (unsigned w = 1; w < workers; w++)
        if (!threads || !started[w])
            fn(ctx, w);
    for (unsigned w = 1; threads && w < workers; w++)
        if (started[w])
            pthread_join(tid[w], NULL);
    sn_free(tid);
    sn_free(args);
    sn_free(started);
}

struct sn_team {
    void (*fn)(void *ctx, sn_team *team, unsigned member);
    void *ctx;
    pthread_barrier_t bar;
    pthread_mutex_t gate;
    pthread_cond_t go;
    bool ready; /* under gate: the member count is known, the barrier made */
};

typedef struct team_arg {
    sn_team *team;
    unsigned m;
} team_arg;

static void *team_main(void *arg)
{
    team_arg *a = arg;
    sn_team *tm = a->team;
    pthread_mutex_lock(&tm->gate);
    while (!tm->ready)
        pthread_cond_wait(&tm->go, &tm->gate);
    pthread_mutex_unlock(&tm->gate);
    tm->fn(tm->ctx, tm, a->m);
    return NULL;
}

unsigned sn_parallel_team(unsigned threads, void (*setup)(void *ctx, unsigned members),
                          void (*fn)(void *ctx, sn_team *team, unsigned member), void *ctx)
{
    unsigned nt = clamp_threads(threads);
    pthread_t tid[SN_PARALLEL_THREADS_MAX];
    team_arg args[SN_PARALLEL_THREADS_MAX];
    sn_team tm = {.fn = fn, .ctx = ctx, .ready = false};
    pthread_mutex_init(&tm.gate, NULL);
    pthread_cond_init(&tm.go, NULL);
    pthread_mutex_lock(&tm.gate);
    unsigned members = 1;
    for (unsigned m = 1; m < nt; m++) {
        args[m] = (team_arg){&tm, m};
        if (start_thread(&tid[m], team_main, &args[m]) != 0)
            break; /* fewer members: setup learns how many */
        members++;
    }
    if (setup)
        setup(ctx, members);
    pthread_barrier_init(&tm.bar, NULL, members);
    tm.ready = true;
    pthread_cond_broadcast(&tm.go);
    pthread_mutex_unlock(&tm.gate);
    fn(ctx, &tm, 0);
    for (unsigned m = 1; m < members; m++)
        pthread_join(tid[m], NULL);
    pthread_barrier_destroy(&tm.bar);
    pthread_cond_destroy(&tm.go);
    pthread_mutex_destroy(&tm.gate);
    return members;
}

void sn_team_barrier(sn_team *team)
{
    pthread_barrier_wait(&team->bar);
}

struct sn_thread {
    pthread_t tid;
    bool here; /* no thread started: fn ran in the caller and returned ret */
    void *ret;
};

static sn_status thread_start(sn_thread **out, void *(*fn)(void *arg), void *arg, bool or_here)
{
    *out = NULL;
    sn_thread *t = sn_calloc(1, sizeof *t);
    if (!t)
        return SN_ENOMEM;
    if (start_thread(&t->tid, fn, arg) != 0) {
        if (!or_here) {
            sn_free(t);
            return SN_EIO;
        }
        t->here = true;
        t->ret = fn(arg); /* before returning: a caller polling for it finds it done */
    }
    *out = t;
    return SN_OK;
}

sn_status sn_thread_start(sn_thread **out, void *(*fn)(void *arg), void *arg)
{
    return thread_start(out, fn, arg, true);
}

sn_status sn_thread_try_start(sn_thread **out, void *(*fn)(void *arg), void *arg)
{
    return thread_start(out, fn, arg, false);
}

void *sn_thread_join(sn_thread *t)
{
    if (!t)
        return NULL;
    void *ret = t->ret;
    if (!t->here)
        pthread_join(t->tid, &ret);
    sn_free(t);
    return ret;
}

struct sn_mutex {
    pthread_mutex_t m;
};

sn_mutex *sn_mutex_create(void)
{
    sn_mutex *m = sn_calloc(1, sizeof *m);
    if (m && pthread_mutex_init(&m->m, NULL) != 0) {
        sn_free(m);
        return NULL;
    }
    return m;
}

void sn_mutex_lock(sn_mutex *m)
{
    pthread_mutex_lock(&m->m);
}

void sn_mutex_unlock(sn_mutex *m)
{
    pthread_mutex_unlock(&m->m);
}

void sn_mutex_destroy(sn_mutex *m)
{
    if (!m)
        return;
    pthread_mutex_destroy(&m->m);
    sn_free(m);
}

#else /* !SN_THREADS: every task in the caller */

unsigned sn_parallel_cpus(void)
{
    return 1;
}

void sn_parallel_for(size_t tasks, unsigned threads, void (*fn)(void *ctx, size_t task), void *ctx)
{
    (void)threads;
    pfor p = {.tasks = tasks, .fn = fn, .ctx = ctx};
    atomic_init(&p.next, 0);
    pfor_worker(&p);
}

void sn_parallel_workers(unsigned workers, void (*fn)(void *ctx, unsigned worker), void *ctx)
{
    for (unsigned w = 0; w < workers; w++)
        fn(ctx, w);
}

struct sn_team {
    int unused;
};

unsigned sn_parallel_team(unsigned threads, void (*setup)(void *ctx, unsigned members),
                          void (*fn)(void *ctx, sn_team *team, unsigned member), void *ctx)
{
    (void)threads;
    sn_team tm = {0};
    if (setup)
        setup(ctx, 1);
    fn(ctx, &tm, 0);
    return 1;
}

void sn_team_barrier(sn_team *team)
{
    (void)team; /* one member: nobody to wait for */
}

struct sn_thread {
    void *ret;
};

sn_status sn_thread_start(sn_thread **out, void *(*fn)(void *arg), void *arg)
{
    *out = NULL;
    sn_thread *t = sn_calloc(1, sizeof *t);
    if (!t)
        return SN_ENOMEM;
    t->ret = fn(arg); /* at start: a caller polling for the result finds it done */
    *out = t;
    return SN_OK;
}

sn_status sn_thread_try_start(sn_thread **out, void *(*fn)(void *arg), void *arg)
{
    (void)fn, (void)arg;
    *out = NULL;
    return SN_EUNSUPPORTED; /* no thread exists in this build */
}

void *sn_thread_join(sn_thread *t)
{
    if (!t)
        return NULL;
    void *ret = t->ret;
    sn_free(t);
    return ret;
}

/* One thread: nothing to exclude. Every mutex is this one, never freed. */
struct sn_mutex {
    int unused;
};

sn_mutex *sn_mutex_create(void)
{
    static sn_mutex none;
    return &none;
}

void sn_mutex_lock(sn_mutex *m)
{
    (void)m;
}

void sn_mutex_unlock(sn_mutex *m)
{
    (void)m;
}

void sn_mutex_destroy(sn_mutex *m)
{
    (void)m;
}

size_t sn_parallel_fail_after(size_t countdown)
{
    (void)countdown; /* no thread is ever started: nothing to fail */
    return 0;
}

#endif

/* Pieces of 1 Mi words (4 MiB): enough of them to spread, large enough
 * that handing them out costs nothing. */
#define PIECE ((size_t)1 << 20)

typedef struct fill {
    uint32_t *dst;
    const uint32_t *src; /* NULL: dst[i] = i */
    size_t n;
} fill;

static void fill_piece(void *ctx, size_t task)
{
    const fill *f = ctx;
    size_t lo = task * PIECE, hi = lo + PIECE < f->n ? lo + PIECE : f->n;
    if (f->src) {
        memcpy(f->dst + lo, f->src + lo, (hi - lo) * sizeof *f->dst);
        return;
    }
    for (size_t i = lo; i < hi; i++)
        f->dst[i] = (uint32_t)i;
}

static void fill_all(uint32_t *dst, const uint32_t *src, size_t n, unsigned threads)
{
    fill f = {dst, src, n};
    size_t tasks = (n + PIECE - 1) / PIECE;
    sn_parallel_for(tasks, tasks > 1 ? threads : 1, fill_piece, &f);
}

void sn_parallel_copy(uint32_t *dst, const uint32_t *src, size_t n, unsigned threads)
{
    fill_all(dst, src, n, threads);
}

void sn_parallel_iota(uint32_t *dst, size_t n, unsigned threads)
{
    fill_all(dst, NULL, n, threads);
}
