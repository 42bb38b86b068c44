/* check_impl.h - what the checker's files share (internal to src/core):
 * the flattened network, the outcome a method reports, timing and
 * throttled progress. */
#ifndef SN_CHECK_IMPL_H
#define SN_CHECK_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/check.h"
#include "core/network.h"
#include "core/status.h"

/* The network as one array of comparators in layer order; layer k is
 * cmp[layer_off[k] .. layer_off[k + 1]). */
typedef struct check_ctx {
    uint32_t n;
    size_t ncmp;
    sn_comparator *cmp;
    size_t nlayers;
    size_t *layer_off;
    unsigned threads;
    bool force;
    sn_check_progress_fn progress;
    void *progress_user;
    const sn_cancel *cancel;
    double t0;            /* start (check_now) */
    double last_progress; /* time of the last progress call */
    /* The reduction's limits without force; 0 = the defaults. auto's first
     * try (a probe) sets small ones so that a network whose pattern sets
     * blow up is handed to the split in milliseconds. */
    size_t reduce_max_set;
    double reduce_max_product;
    double reduce_max_stream_seconds;
} check_ctx;

/* What a method found. swapped[j] != 0 when comparator j swapped on some
 * input (the caller allocates ncmp bytes, zeroed). */
typedef struct check_outcome {
    uint64_t failing_count;
    uint64_t min_failing; /* valid when failing_count > 0 */
    uint8_t *swapped;
    uint64_t inputs;
    size_t max_patterns;
} check_outcome;

double check_now(void); /* monotonic seconds */
bool check_cancelled(const check_ctx *c);
/* Report progress if ~0.1 s passed since the last report (one thread). */
void check_progress(check_ctx *c, double fraction);

/* Estimated brute-force seconds for ctx's network on ctx->threads. */
double check_bf_estimate(const check_ctx *c);

sn_status check_bruteforce(check_ctx *c, check_outcome *out, sn_diag *diag);
sn_status check_reduce(check_ctx *c, check_outcome *out, sn_diag *diag);
/* sn_check_run; try_split false keeps auto from trying the split on 25..64
 * wires (the split's own fallback for its parts, which it just tried). */
sn_status check_run(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                    sn_diag *diag, bool try_split);
/* One split of net (any n > 24): SN_ELIMIT when it cannot decide. */
sn_status check_split_once(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                           sn_diag *diag, size_t held);
/* Sorting by the split (check_modes.c), for n > 64; n <= 64 goes to
 * sn_check_run's auto method. held: the bytes the enclosing splits hold
 * while this one runs (0 at the top); a split whose nested parts would hold
 * more than SPLIT_MEMORY_MAX in all is refused (SN_ELIMIT). */
#define SPLIT_MEMORY_MAX ((size_t)1 << 30)
sn_status check_split(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                      sn_diag *diag, size_t held);

#endif
