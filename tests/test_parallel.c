/* test_parallel.c - the thread seam (core/parallel.h): every task and every
 * worker runs exactly once, a team's members meet at barriers, a
 * background worker's result comes back, and the cancel flag reads as set.
 * The same file runs in the threads-off build (tools/setup.sh test), where
 * every call runs in the caller. */
#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "sn_test.h"

#define TASKS 1000

typedef struct counts {
    atomic_int ran[TASKS];
} counts;

static void count_task(void *ctx, size_t task)
{
    atomic_fetch_add(&((counts *)ctx)->ran[task], 1);
}

static void count_worker(void *ctx, unsigned worker)
{
    atomic_fetch_add(&((counts *)ctx)->ran[worker], 1);
}

static void check_once(counts *c, size_t n, const char *what, unsigned threads)
{
    for (size_t i = 0; i < n; i++)
        CHECKF(atomic_load(&c->ran[i]) == 1, "%s, %u threads: task %zu ran %d times", what, threads,
               i, atomic_load(&c->ran[i]));
}

static void check_for_and_workers(void)
{
    static counts c;
    const unsigned threads[] = {0, 1, 2, 7, 300};
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        memset(&c, 0, sizeof c);
        sn_parallel_for(TASKS, threads[t], count_task, &c);
        check_once(&c, TASKS, "for", threads[t]);
        memset(&c, 0, sizeof c);
        sn_parallel_for(0, threads[t], count_task, &c); /* no tasks: nothing runs */
        check_once(&c, 0, "for", threads[t]);
        CHECK(atomic_load(&c.ran[0]) == 0);
        memset(&c, 0, sizeof c);
        unsigned w = threads[t] ? threads[t] : 5;
        sn_parallel_workers(w, count_worker, &c);
        check_once(&c, w, "workers", w);
        CHECK(atomic_load(&c.ran[w]) == 0);
    }
    /* the workers' bookkeeping cannot be allocated: all run in the caller */
    memset(&c, 0, sizeof c);
    sn_alloc_fail_after(1);
    sn_parallel_workers(9, count_worker, &c);
    sn_alloc_fail_after(0);
    check_once(&c, 9, "workers without memory", 9);
}

/* Each member writes its slot of round r, meets the others, then checks
 * every slot of round r: a barrier that let anyone through early fails. */
#define ROUNDS 50
typedef struct team_job {
    unsigned members;
    atomic_uint slot[SN_PARALLEL_THREADS_MAX];
    atomic_int bad;
    atomic_int ran;
} team_job;

static void team_setup(void *ctx, unsigned members)
{
    team_job *j = ctx;
    j->members = members;
}

static void team_member(void *ctx, sn_team *team, unsigned m)
{
    team_job *j = ctx;
    atomic_fetch_add(&j->ran, 1);
    for (unsigned r = 1; r <= ROUNDS; r++) {
        atomic_store(&j->slot[m], r);
        sn_team_barrier(team);
        for (unsigned o = 0; o < j->members; o++)
            if (atomic_load(&j->slot[o]) < r)
                atomic_fetch_add(&j->bad, 1);
        sn_team_barrier(team); /* nobody writes round r + 1 before all read r */
    }
}

static void check_team(void)
{
    static team_job j;
    const unsigned threads[] = {1, 2, 4, 7};
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
        memset(&j, 0, sizeof j);
        unsigned members = sn_parallel_team(threads[t], team_setup, team_member, &j);
        CHECK(members == j.members);
        CHECK(members >= 1 && members <= threads[t]);
#if !SN_THREADS
        CHECK(members == 1);
#endif
        CHECKF(atomic_load(&j.ran) == (int)members, "%u members, %d ran", members,
               atomic_load(&j.ran));
        CHECKF(atomic_load(&j.bad) == 0, "%u members: %d early reads", members,
               atomic_load(&j.bad));
    }
}

static int started_here; /* set by bg before sn_thread_start returns when threads are off */

static void *bg(void *arg)
{
    started_here = 1;
    int *x = arg;
    *x *= 2;
    return x;
}

static void check_thread(void)
{
    int x = 21;
    sn_thread *t = NULL;
    started_here = 0;
    CHECK(sn_thread_start(&t, bg, &x) == SN_OK && t);
#if !SN_THREADS
    CHECK(started_here == 1 && x == 42); /* documented: runs at start */
#endif
    CHECK(sn_thread_join(t) == &x);
    CHECK(x == 42);
    CHECK(sn_thread_join(NULL) == NULL);
    /* no memory for the handle */
    sn_alloc_fail_after(1);
    t = (sn_thread *)&x;
    CHECK(sn_thread_start(&t, bg, &x) == SN_ENOMEM && t == NULL);
    sn_alloc_fail_after(0);
}

static void check_cancel_and_cpus(void)
{
    CHECK(!sn_cancel_requested(NULL));
    sn_cancel c;
    atomic_init(&c, 0);
    CHECK(!sn_cancel_requested(&c));
    atomic_store(&c, 1);
    CHECK(sn_cancel_requested(&c));
    CHECK(atomic_is_lock_free(&c)); /* a signal handler may store to it */
    unsigned cpus = sn_parallel_cpus();
    CHECK(cpus >= 1 && cpus <= SN_PARALLEL_THREADS_MAX);
#if !SN_THREADS
    CHECK(cpus == 1);
#endif
}

static void check_copy(void)
{
    size_t n = ((size_t)1 << 21) + 5; /* three pieces */
    uint32_t *a = sn_calloc(n, sizeof *a), *b = sn_calloc(n, sizeof *b);
    CHECK(a && b);
    if (!a || !b)
        return;
    sn_parallel_iota(a, n, 0);
    sn_parallel_copy(b, a, n, 3);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += a[i] != (uint32_t)i || b[i] != (uint32_t)i;
    CHECK(bad == 0);
    sn_free(a);
    sn_free(b);
}

int main(void)
{
    check_for_and_workers();
    check_team();
    check_thread();
    check_cancel_and_cpus();
    check_copy();
    return sn_test_finish("test_parallel");
}
