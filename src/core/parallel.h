/* parallel.h - the one place that starts threads, makes mutexes, reads the
 * CPU count and defines the cancel flag (docs/design.md, "Threads in one
 * place"; tests/threads_in_one_place.cmake keeps pthread out of the rest
 * of src/).
 *
 * Work is cut into tasks or workers whose results must not depend on which
 * thread runs them: threads only decide who does which task, so every
 * result is the same on 1 thread and on N.
 *
 * CONFIGURATION: built with SN_THREADS=0 (CMake SORTNET_THREADS=OFF) the
 * same calls run every task in the caller, one after the other, and no
 * thread or signal header is included (the WebAssembly page's build):
 * sn_parallel_cpus() is then 1, a team has one member, and sn_thread_start
 * runs its function at once, before it returns; a mutex's lock and unlock
 * do nothing. Nothing else in src/ includes the thread header.
 *
 * A thread that cannot be started is never an error: its work runs in the
 * caller (SQLite's threads.c), so the results are those of a run with
 * threads. sn_parallel_fail_after and SN_THREADS_FAIL force that path in
 * tests. Also: the copy and fill of large arrays (each thread
 * first-touches the pages it writes, so a fresh multi-gigabyte buffer is
 * not faulted in by one thread). */
#ifndef SN_PARALLEL_H
#define SN_PARALLEL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

#define SN_PARALLEL_THREADS_MAX 256

/* The online CPUs, 1 to SN_PARALLEL_THREADS_MAX (1 without threads). */
unsigned sn_parallel_cpus(void);

/* ---- the cancel flag: one type for every long-running core call ---- */

/* Nonzero asks a run to stop early. A lock-free atomic, so a signal
 * handler may store to it (atomic_store(&flag, 1)) and worker threads read
 * it with no lock. Zero it with atomic_init or atomic_store before a run. */
typedef atomic_int sn_cancel;

/* Whether *c is set; NULL is never set. */
static inline bool sn_cancel_requested(const sn_cancel *c)
{
    return c && atomic_load_explicit(c, memory_order_relaxed) != 0;
}

/* ---- runners ---- */

/* fn(ctx, i) for every i in [0, tasks), on up to `threads` threads (0: the
 * online CPUs), the caller being one of them; tasks are handed out in
 * increasing order as threads become free. When a thread cannot be
 * started, the others (the caller at least) do its tasks. */
void sn_parallel_for(size_t tasks, unsigned threads, void (*fn)(void *ctx, size_t task), void *ctx);

/* fn(ctx, w) once for every worker w in [0, workers), each with state of
 * its own that ctx leads to: worker 0 runs in the caller, the others on
 * threads of their own, and those whose thread cannot be started (all of
 * them without threads) in the caller after worker 0. So a worker must
 * not wait for another (a team does that); workers that pull work from a
 * shared counter simply find less. Progress callbacks belong in worker 0:
 * it is the caller's thread. Returns when every worker has returned. */
void sn_parallel_workers(unsigned workers, void (*fn)(void *ctx, unsigned worker), void *ctx);

/* A team: members that run at the same time and meet at barriers. */
typedef struct sn_team sn_team;

/* Starts up to threads - 1 threads (0: the online CPUs); once it is known
 * how many started, setup(ctx, members) runs in the caller (members = the
 * threads that started + the caller, 1 without threads), then
 * fn(ctx, team, m) for every member m in [0, members) at the same time,
 * member 0 in the caller. Returns the members after all have returned.
 * setup may be NULL. */
unsigned sn_parallel_team(unsigned threads, void (*setup)(void *ctx, unsigned members),
                          void (*fn)(void *ctx, sn_team *team, unsigned member), void *ctx);

/* Wait until every member of the team has called it (as often). */
void sn_team_barrier(sn_team *team);

/* ---- one background worker (SQLite's sqlite3ThreadCreate/Join shape) ---- */

typedef struct sn_thread sn_thread;

/* Start fn(arg) on a thread of its own; *out receives the handle, which
 * sn_thread_join must be given exactly once. When no thread can be started
 * (and always without threads) fn runs here, at once, before
 * sn_thread_start returns, and the call still succeeds: a caller that
 * polls for the result finds it done, and the join returns it. So fn must
 * end by itself, and its starter must not hold a lock fn takes. SN_ENOMEM
 * when the handle cannot be allocated (*out is then NULL, fn not run). */
sn_status sn_thread_start(sn_thread **out, void *(*fn)(void *arg), void *arg);

/* Like sn_thread_start, but fn never runs in the caller: SN_EIO when no
 * thread can be started (SN_EUNSUPPORTED without threads), *out NULL and
 * fn not run. For a task that runs until it is stopped, or that the caller
 * would rather run later or not at all than now (the race, the GPU
 * verifier's reference run). */
sn_status sn_thread_try_start(sn_thread **out, void *(*fn)(void *arg), void *arg);

/* Wait for the thread to end, free the handle and return what fn returned.
 * NULL is a no-op (returns NULL). */
void *sn_thread_join(sn_thread *t);

/* ---- mutexes (no condition variable: no caller waits on one) ---- */

typedef struct sn_mutex sn_mutex;

/* A new, unlocked, non-recursive mutex; NULL when out of memory or the
 * system has none left. Without threads it allocates nothing and its lock
 * and unlock do nothing (one thread cannot race itself). */
sn_mutex *sn_mutex_create(void);
void sn_mutex_lock(sn_mutex *m);
void sn_mutex_unlock(sn_mutex *m);
/* Frees an unlocked mutex; NULL is a no-op. */
void sn_mutex_destroy(sn_mutex *m);

/* ---- fault injection (tests only) ---- */

/* From the countdown-th thread start from now on (any call above that
 * would start a thread), no thread can be started, as when a process is
 * out of threads; 0: every start is tried for real. The environment
 * variable SN_THREADS_FAIL=N does the same for a whole process (a CLI
 * test), read once at the first start; a call here wins over it. Returns
 * the thread starts tried since the last call (0 without threads). */
size_t sn_parallel_fail_after(size_t countdown);

/* ---- large arrays ---- */

/* dst[i] = src[i] and dst[i] = i for i < n, in pieces of a few MiB on
 * `threads` threads (0: the online CPUs; one thread below 1 Mi words). */
void sn_parallel_copy(uint32_t *dst, const uint32_t *src, size_t n, unsigned threads);
void sn_parallel_iota(uint32_t *dst, size_t n, unsigned threads);

#endif
