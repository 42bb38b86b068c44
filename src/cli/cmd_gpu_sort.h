/* cmd_gpu_sort.h - what `sortnet gpu bench` uses of cmd_gpu_sort*.c: the
 * GPU sorts as bench variants beside the networks' (same rows, same CSV). */
#ifndef SN_CMD_GPU_SORT_H
#define SN_CMD_GPU_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "gpu/gpu.h"
#include "gpu/sorts.h"

/* Whether `name` is a sort's bench variant: an algorithm of `gpu sort`
 * (transposition, transposition-local, rank, rank-global, merge, radix,
 * hybrid) or radix4 (radix with 4-bit digits). */
bool cli_gpu_sort_is_variant(const char *name);

typedef struct gpu_sort_point {
    double kernel_ms, host_ms; /* medians of the timed runs */
    uint64_t launches;
    bool skipped; /* the device cannot hold n keys: reason in `why` */
    char why[256];
} gpu_sort_point;

/* Time variant `name` on g at n keys of type t from input[0..n): a warm-up
 * and `reps` timed runs, each output checked against sorted[0..n) (qsort's
 * output), or for being in order when sorted is NULL. Returns 0, or an exit
 * code after printing (1: a wrong output). The sorts' program is built on
 * the first call for g and kept in *cache (cli_gpu_sort_bench_done frees it). */
int cli_gpu_sort_bench_point(sn_gpu *g, void **cache, const char *name, sn_key_type t,
                             const uint32_t *input, const uint32_t *sorted, uint32_t n, size_t reps,
                             gpu_sort_point *out);
void cli_gpu_sort_bench_done(void *cache);

/* An O(n^2) sort estimated to take longer than GPU_SORT_LIMIT_S needs
 * --force; one estimated past GPU_SORT_PROGRESS_S is announced with its
 * estimate, and a transposition sort then shows progress on stderr. */
#define GPU_SORT_LIMIT_S 60.0
#define GPU_SORT_PROGRESS_S 5.0

/* Estimate sorting `keys` keys with o on g (rp: the reference's original
 * index of each output place, for the transposition sorts' rounds; NULL:
 * unknown) into *est seconds; refuse past the limit without force (exit 2,
 * the estimate in the message), announce a long run on stderr. 0 or the
 * exit code (cmd_gpu_sort_cost.c). */
int cli_gpu_sort_check_cost(const sn_gpu *g, const sn_gpu_sort_opts *o, uint64_t keys, bool force,
                            const uint32_t *rp, double *est);

/* Progress of a long transposition sort on stderr (an
 * sn_gpu_sort_progress_fn over a gpu_sort_progress): on a terminal one
 * line rewritten in place, else a line after GPU_SORT_PROGRESS_S seconds
 * and every 30 s after that. Wall time only paces the messages. */
typedef struct gpu_sort_progress {
    bool tty, shown; /* stderr is a terminal; a line was printed */
    double t0, last; /* cli_now_ms() at the start and at the last line */
} gpu_sort_progress;
void cli_gpu_sort_progress_rounds(void *ctx, uint64_t done, uint64_t cap);

#endif
