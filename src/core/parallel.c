/* parallel.c - the only file in src/core that starts threads or reads the
 * CPU count: POSIX threads, or (SN_THREADS=0) every task in the caller.
 *
 * Invariant: every task and every worker runs exactly once, whatever the
 * number of threads that could be started; callers make their results not
 * depend on which thread ran what. */
#include "core/parallel.h"

#include <string.h>

#include "core/alloc.h"

#ifndef SN_THREADS
#define SN_THREADS 1
#endif

#if SN_THREADS
#include <pthread.h> // for: pthread_create, barriers (the threaded build only)
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
        if (pthread_create(&tid[started], NULL, pfor_worker, &p) != 0)
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
        started[w] = pthread_create(&tid[w], NULL, worker_main, &args[w]) == 0;
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
        if (pthread_create(&tid[m], NULL, team_main, &args[m]) != 0)
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
};

sn_status sn_thread_start(sn_thread **out, void *(*fn)(void *arg), void *arg)
{
    *out = NULL;
    sn_thread *t = sn_calloc(1, sizeof *t);
    if (!t)
        return SN_ENOMEM;
    if (pthread_create(&t->tid, NULL, fn, arg) != 0) {
        sn_free(t);
        return SN_EIO;
    }
    *out = t;
    return SN_OK;
}

void *sn_thread_join(sn_thread *t)
{
    if (!t)
        return NULL;
    void *ret = NULL;
    pthread_join(t->tid, &ret);
    sn_free(t);
    return ret;
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

void *sn_thread_join(sn_thread *t)
{
    if (!t)
        return NULL;
    void *ret = t->ret;
    sn_free(t);
    return ret;
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
