/* parallel.h - a small parallel-for on POSIX threads, and the copy and
 * fill of large arrays built on it (each thread first-touches the pages it
 * writes, so a fresh multi-gigabyte buffer is not faulted in by one
 * thread). Work is cut into tasks whose results must not depend on which
 * thread runs them: threads only decide who does which task. */
#ifndef SN_PARALLEL_H
#define SN_PARALLEL_H

#include <stddef.h>
#include <stdint.h>

#define SN_PARALLEL_THREADS_MAX 64

/* The online CPUs, 1 to SN_PARALLEL_THREADS_MAX. */
unsigned sn_parallel_cpus(void);

/* fn(ctx, i) for every i in [0, tasks), on up to `threads` threads (0: the
 * online CPUs), the caller being one of them; tasks are handed out in
 * increasing order as threads become free. When a thread cannot be
 * started, the others (the caller at least) do its tasks. */
void sn_parallel_for(size_t tasks, unsigned threads, void (*fn)(void *ctx, size_t task), void *ctx);

/* dst[i] = src[i] and dst[i] = i for i < n, in pieces of a few MiB on
 * `threads` threads (0: the online CPUs; one thread below 1 Mi words). */
void sn_parallel_copy(uint32_t *dst, const uint32_t *src, size_t n, unsigned threads);
void sn_parallel_iota(uint32_t *dst, size_t n, unsigned threads);

#endif
