/* sorts.h - the classic GPU sorts beside the networks (kernels/sorts.cl):
 * odd-even transposition with early exit and its local-memory block form,
 * rank sort (global and tiled), merge sort (local tiles + merge path), LSD
 * radix sort and a hybrid (bitonic tiles + merge path), run on an sn_gpu;
 * and the stable reference they are verified against.
 *
 * Every algorithm is stable: with the original index as payload, the output
 * (keys and payload) equals sn_sort_reference's. Like the rest of src/gpu
 * this module never prints. */
#ifndef SN_GPU_SORTS_H
#define SN_GPU_SORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/status.h"
#include "gpu/gpu.h"

typedef enum sn_sort_algo {
    SN_SORT_TRANSPOSITION = 0,   /* odd-even transposition, a launch per phase, early exit */
    SN_SORT_TRANSPOSITION_LOCAL, /* blocks sorted in local memory, then block merge-split rounds */
    SN_SORT_RANK,                /* rank (counting) sort, keys read in local-memory tiles */
    SN_SORT_RANK_GLOBAL,         /* the same, every key read from global memory */
    SN_SORT_MERGE,               /* local merge tiles, then merge path */
    SN_SORT_RADIX,               /* LSD radix: local split sort, histograms, scan, scatter */
    SN_SORT_HYBRID,              /* bitonic network tiles, then merge path */
    SN_SORT_COUNT
} sn_sort_algo;

/* "transposition", "transposition-local", "rank", "rank-global", "merge",
 * "radix", "hybrid". */
const char *sn_sort_algo_name(sn_sort_algo a);
bool sn_sort_algo_parse(const char *s, sn_sort_algo *out);
/* O(n^2) work (rank, and transposition on inputs far from sorted). */
bool sn_sort_algo_quadratic(sn_sort_algo a);

/* The sorts' program built for one device. The environment variable
 * SN_SORT_BUG=ALGO[,ALGO...] or =all (tests only) builds it with a bug
 * planted in those algorithms' kernels, so the tests can prove that their
 * verification fails. */
typedef struct sn_gpu_sorter sn_gpu_sorter;

/* g is borrowed and must outlive the sorter. SN_EDEVICE with the build log
 * in diag if the kernels do not build. */
sn_status sn_gpu_sorter_create(sn_gpu *g, sn_gpu_sorter **out, sn_diag *diag);
void sn_gpu_sorter_destroy(sn_gpu_sorter *s); /* NULL is a no-op */

typedef struct sn_gpu_sort_opts {
    sn_sort_algo algo;
    sn_key_type type;
    unsigned radix_bits; /* radix: digit of 4 or 8 bits (0: 8) */
    bool full_rounds;    /* transposition: all n phases, no early exit */
} sn_gpu_sort_opts;

typedef struct sn_gpu_sort_stats {
    double kernel_ms;  /* first kernel's start to last kernel's end (profiling events); with
                        * staging the kernels after the last chunk arrived (the first pass
                        * over the earlier chunks overlaps the upload) */
    double host_ms;    /* upload + sort + read back, host clock (upload_ms + sort_ms +
                        * download_ms, plus merge_ms for runs) */
    double upload_ms;   /* the caller's keys (and payload) on the device */
    double sort_ms;     /* from there until the last kernel ended */
    double download_ms; /* the sorted keys (and payload) back in the caller's arrays */
    double setup_ms;    /* device buffers and pinned staging made, before host_ms's clock */
    double merge_ms;    /* runs > 1: the merge of the sorted runs (on the host's cores, or
                         * on the device when merged_on_device) */
    uint64_t runs;      /* device sorts: 1, or more for a block larger than one */
    uint64_t staged;    /* of them, those whose copies went through the staging */
    uint64_t pinned;    /* ... and those that copied the caller's pinned arrays directly (the
                         * rest: ordinary memory copied whole, SN_GPU_STAGE_CHUNK=0) */
    uint64_t rounds;    /* transposition: rounds of two phases (the last found nothing to
                         * move); transposition-local: block rounds; else 0 */
    uint64_t launches;  /* kernel launches */
    bool merged_on_device; /* runs > 1 merged on the device (they and the merge fit there;
                            * not with SN_GPU_STAGE_MERGE=0) */
} sn_gpu_sort_stats;

/* Sort keys[0..n) (raw bits of o->type) on the device in place, moving
 * payload[0..n) along when payload != NULL. The arrays stay in the
 * caller's (ordinary) memory: they travel in chunks through pinned
 * staging buffers that the sorter keeps (sort_stage.h), the host's cores
 * copying one chunk while the device copies the one before; the radix
 * sort's histogram pass (onesweep) runs on each chunk as it arrives. A
 * block larger than one device sort (2^31 keys, or what the device holds
 * with its buffers; SN_GPU_SORT_RUN=K for tests) is sorted in runs of that
 * size, merged on the host (stable: the earlier run first on ties) in the
 * scratch given by sn_gpu_sorter_set_scratch, else in arrays allocated
 * for the call (SN_ENOMEM when they cannot be). stats may be NULL. */
sn_status sn_gpu_sort(sn_gpu_sorter *s, const sn_gpu_sort_opts *o, uint32_t *keys,
                      uint32_t *payload, size_t n, sn_gpu_sort_stats *stats, sn_diag *diag);

/* What a run will cost, estimated before it starts (sn_gpu_sort_estimate):
 * seconds from conservative rates per device type (pocl's measured runs in
 * docs/gpu-sorts.md, rounded to the slow side), and the work they come
 * from: rounds for the transposition sorts, comparisons for rank sorts. */
typedef struct sn_gpu_sort_cost {
    double seconds;
    uint64_t rounds;    /* transposition, transposition-local: at most this many; else 0 */
    double comparisons; /* rank, rank-global: n^2; else 0 */
} sn_gpu_sort_cost;

/* The cost of sorting n keys with o on g. Only the O(n^2) sorts
 * (sn_sort_algo_quadratic and transposition-local) are estimated; the
 * others get seconds 0. For the transposition sorts, `displacement` is the
 * farthest any key stands from its sorted place (SIZE_MAX: unknown): a
 * round moves a key at most two places, so about `displacement` rounds
 * (never more than the network's n/2 + 1) are counted. */
sn_gpu_sort_cost sn_gpu_sort_estimate(const sn_gpu *g, const sn_gpu_sort_opts *o, size_t n,
                                      size_t displacement);

/* Called by the transposition sorts after each batch of rounds read back
 * (done rounds of at most `cap`), for progress on long runs. */
typedef void (*sn_gpu_sort_progress_fn)(void *ctx, uint64_t done, uint64_t cap);
/* Whether s's later sorts leave the keys in their ordered form
 * (sn_key_to_ordered) instead of raw bits: one pass less for a caller that
 * compares them as unsigned (the distributed sort). Off by default. */
void sn_gpu_sorter_set_ordered_out(sn_gpu_sorter *s, bool on);
/* Threads that copy between the caller's arrays and the staging, and
 * that merge runs (0, the default: the online CPUs). */
void sn_gpu_sorter_set_threads(sn_gpu_sorter *s, unsigned threads);
/* Scratch arrays of cap words (pay may be NULL) that later sorts larger
 * than one device sort merge their runs in, borrowed until cleared (NULL,
 * NULL, 0); without them such a sort allocates its own. */
void sn_gpu_sorter_set_scratch(sn_gpu_sorter *s, uint32_t *keys, uint32_t *pay, size_t cap);
/* Make the pinned staging for sorts of up to n keys now (it is made on
 * the first sort otherwise): a caller that times its sorts calls this
 * first, so that no staging is made or touched in its clock. */
sn_status sn_gpu_sorter_reserve(sn_gpu_sorter *s, size_t n, sn_diag *diag);
/* Keys one device sort takes on s's device (with payload or not): the
 * size of the runs of a larger block. */
size_t sn_gpu_sort_run_keys(const sn_gpu_sorter *s, bool payload);
/* Set (fn NULL: clear) the progress callback of s's later sorts. */
void sn_gpu_sorter_set_progress(sn_gpu_sorter *s, sn_gpu_sort_progress_fn fn, void *ctx);

/* The reference: a stable sort of keys[0..n) (raw bits of t) by the key
 * order of the networks (sn_key_to_ordered), into out_keys, with pay[0..n)
 * moved along into out_pay (both NULL: no payload). An LSD radix sort on
 * the host: linear time, so it can check 10^9 keys. SN_ENOMEM if its two
 * work arrays cannot be allocated. pay may be out_pay (sorted in place). */
sn_status sn_sort_reference(sn_key_type t, const uint32_t *keys, const uint32_t *pay, size_t n,
                            uint32_t *out_keys, uint32_t *out_pay, sn_diag *diag);
/* The same sort with out_keys left in the ordered form (no pass back to
 * raw bits): what the distributed sort's local sort wants. */
sn_status sn_sort_reference_ordered(sn_key_type t, const uint32_t *keys, const uint32_t *pay,
                                    size_t n, uint32_t *out_keys, uint32_t *out_pay, sn_diag *diag);

typedef struct sn_sort_mismatch {
    bool identical;
    size_t index;      /* first differing position (keys first, then payload) */
    bool in_payload;   /* the keys agree everywhere, the payload differs at index */
    uint32_t expected; /* raw bits (a key) or a payload value */
    uint32_t actual;
} sn_sort_mismatch;

/* Compare the device's output with the reference's (pay arrays may be NULL). */
sn_sort_mismatch sn_sort_compare(const uint32_t *exp_keys, const uint32_t *exp_pay,
                                 const uint32_t *keys, const uint32_t *pay, size_t n);

#endif
