/* test_parallel.c - the thread seam (core/parallel.h): every task and every
 * worker runs exactly once, a team's members meet at barriers, a
 * background worker's result comes back, a mutex excludes, and the cancel
 * flag reads as set; and with the fault switch on (no thread can start,
 * from the first start or a later one) every call still does all of its
 * work, sn_thread_start runs its task before it returns, and a threaded
 * check gives the verdict it gives with threads. The same file runs in the
 * threads-off build (tools/setup.sh test), where every call runs in the
 * caller. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check.h"
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

/* SN_THREADS_FAIL=1, set before the first start: that start is refused,
 * so the task runs in the caller. Must run first (the variable is read once). */
static void check_env_switch(void)
{
    setenv("SN_THREADS_FAIL", "1", 1);
    int x = 21;
    sn_thread *t = NULL;
    started_here = 0;
    CHECK(sn_thread_start(&t, bg, &x) == SN_OK && t);
    CHECK(started_here == 1 && x == 42); /* in the caller, before the return */
    CHECK(sn_thread_join(t) == &x);
    CHECK(sn_parallel_fail_after(0) == (SN_THREADS ? 1u : 0u)); /* one start tried */
    unsetenv("SN_THREADS_FAIL");
}

/* No thread can start (from the first start, or from the third on: some
 * threads run, the rest of the work falls to the caller). */
static void check_no_thread(void)
{
    static counts c;
    const size_t fail_from[] = {1, 3};
    for (size_t f = 0; f < sizeof fail_from / sizeof *fail_from; f++) {
        sn_parallel_fail_after(fail_from[f]);
        memset(&c, 0, sizeof c);
        sn_parallel_for(TASKS, 8, count_task, &c);
        check_once(&c, TASKS, "for without threads", 8);
        memset(&c, 0, sizeof c);
        sn_parallel_fail_after(fail_from[f]);
        sn_parallel_workers(8, count_worker, &c);
        check_once(&c, 8, "workers without threads", 8);
        CHECK(atomic_load(&c.ran[8]) == 0);
        static team_job j;
        memset(&j, 0, sizeof j);
        sn_parallel_fail_after(fail_from[f]);
        unsigned members = sn_parallel_team(7, team_setup, team_member, &j);
        /* the starts before the failing one made members; the caller is one */
        CHECKF(members == (SN_THREADS ? (unsigned)fail_from[f] : 1u), "%u members", members);
        CHECK(members == j.members && atomic_load(&j.ran) == (int)members);
        CHECK(atomic_load(&j.bad) == 0);
        /* the background worker: its task runs here, at start */
        sn_parallel_fail_after(1);
        int x = 21;
        sn_thread *t = NULL;
        started_here = 0;
        CHECK(sn_thread_start(&t, bg, &x) == SN_OK && t);
        CHECK(started_here == 1 && x == 42);
        CHECK(sn_thread_join(t) == &x && x == 42);
        /* ... unless the caller asked for a thread or nothing */
        x = 21;
        started_here = 0;
        t = (sn_thread *)&x;
        sn_status st = sn_thread_try_start(&t, bg, &x);
        CHECK(st == (SN_THREADS ? SN_EIO : SN_EUNSUPPORTED) && t == NULL);
        CHECK(started_here == 0 && x == 21);
        sn_parallel_fail_after(0);
    }
    /* with threads, try_start starts one */
    int x = 21;
    sn_thread *t = NULL;
    sn_status st = sn_thread_try_start(&t, bg, &x);
#if SN_THREADS
    CHECK(st == SN_OK && t && sn_thread_join(t) == &x && x == 42);
#else
    CHECK(st == SN_EUNSUPPORTED && !t && x == 21);
#endif
}

/* Bubble sort on n wires, without comparator `skip` (none when out of range). */
static sn_network *bubble(uint32_t n, size_t skip)
{
    sn_network *net = sn_network_create(n);
    size_t k = 0;
    for (uint32_t i = n - 1; net && i > 0; i--)
        for (uint32_t a = 0; a < i; a++, k++)
            if (k != skip && sn_network_add_asap(net, a, a + 1, NULL) != SN_OK) {
                sn_network_destroy(net);
                return NULL;
            }
    return net;
}

static bool check_on(const sn_network *net, unsigned threads, sn_check_result *res)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.threads = threads;
    opt.method = SN_CHECK_BRUTEFORCE; /* the method whose workers always start on 20 wires */
    memset(res, 0, sizeof *res);
    return sn_check_run(net, &opt, res, NULL) == SN_OK;
}

/* The checker's workers, none of which can start: the same verdict,
 * counterexample, failing count and redundant comparators as on threads. */
static void check_same_results(void)
{
    const size_t skips[] = {40, 1000}; /* fails; sorts (190 comparators) */
    for (size_t k = 0; k < sizeof skips / sizeof *skips; k++) {
        sn_network *net = bubble(20, skips[k]);
        CHECK(net != NULL);
        if (!net)
            continue;
        sn_check_result a, b;
        bool ok_a = check_on(net, 4, &a);
        sn_parallel_fail_after(1);
        bool ok_b = check_on(net, 4, &b);
        size_t tried = sn_parallel_fail_after(0);
        CHECK(ok_a && ok_b);
        CHECKF(!SN_THREADS || tried > 0, "skip %zu: no thread start was tried", skips[k]);
        CHECKF(a.sorts == b.sorts && a.sorts == (skips[k] >= 190) &&
                   a.failing_count == b.failing_count &&
                   a.counterexample_index == b.counterexample_index &&
                   a.redundant_count == b.redundant_count && a.inputs == b.inputs,
               "skip %zu: sorts %d/%d, failing %llu/%llu", skips[k], a.sorts, b.sorts,
               (unsigned long long)a.failing_count, (unsigned long long)b.failing_count);
        CHECK(a.sorts || a.failing_count > 0);
        sn_check_result_free(&a);
        sn_check_result_free(&b);
        sn_network_destroy(net);
    }
}

/* Workers add to a plain long under the mutex: every addition counts. The
 * read and the write are some steps apart, so that without exclusion two
 * workers would lose additions (seen with a no-op lock). */
#define MUTEX_ADDS 50000
typedef struct locked_sum {
    sn_mutex *m;
    volatile long sum;
} locked_sum;

static void add_locked(void *ctx, unsigned worker)
{
    (void)worker;
    locked_sum *ls = ctx;
    for (int i = 0; i < MUTEX_ADDS; i++) {
        sn_mutex_lock(ls->m);
        long v = ls->sum;
        for (volatile int k = 0; k < 20; k++)
            ;
        ls->sum = v + 1;
        sn_mutex_unlock(ls->m);
    }
}

static void check_mutex(void)
{
    locked_sum ls = {sn_mutex_create(), 0};
    CHECK(ls.m != NULL);
    if (!ls.m)
        return;
    sn_parallel_workers(4, add_locked, &ls);
    CHECKF(ls.sum == 4L * MUTEX_ADDS, "sum %ld", ls.sum);
    sn_mutex_destroy(ls.m);
    sn_mutex_destroy(NULL);
    /* no memory for it */
    sn_alloc_fail_after(1);
    sn_mutex *m = sn_mutex_create();
    sn_alloc_fail_after(0);
    CHECK(SN_THREADS ? m == NULL : m != NULL); /* without threads nothing is allocated */
    sn_mutex_destroy(m);
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
    check_env_switch(); /* first: the variable is read at the first start */
    check_for_and_workers();
    check_team();
    check_thread();
    check_no_thread();
    check_same_results();
    check_mutex();
    check_cancel_and_cpus();
    check_copy();
    return sn_test_finish("test_parallel");
}
