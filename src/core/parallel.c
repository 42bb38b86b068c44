/* parallel.c - sn_parallel_for and the large-array copy and fill. */
#include "core/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

unsigned sn_parallel_cpus(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 1)
        return 1;
    return cpus > SN_PARALLEL_THREADS_MAX ? SN_PARALLEL_THREADS_MAX : (unsigned)cpus;
}

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

void sn_parallel_for(size_t tasks, unsigned threads, void (*fn)(void *ctx, size_t task), void *ctx)
{
    unsigned nt = threads ? threads : sn_parallel_cpus();
    if (nt > SN_PARALLEL_THREADS_MAX)
        nt = SN_PARALLEL_THREADS_MAX;
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
