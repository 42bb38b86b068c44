/* check.h - the exhaustive 0-1 principle checker: proves that a comparator
 * network sorts, or finds the smallest 0-1 input it does not sort.
 *
 * By the 0-1 principle a network on n wires sorts every input iff it sorts
 * all 2^n inputs of 0s and 1s. Two exact methods:
 *  - brute force, bit-sliced: one machine word per wire carries 64 inputs
 *    (several words at once with vector instructions), a comparator is one
 *    AND and one OR; all cores. Cost ~ 2^n * comparators.
 *  - reduction: clusters of wires joined by the comparators seen so far,
 *    each keeping the set of distinct 0-1 patterns it can hold (with the
 *    smallest input reaching each pattern and how many inputs do); once
 *    one cluster spans all wires, its patterns are pushed bit-sliced
 *    through the rest of the network. Exact, and small for the structured
 *    networks people study (Batcher's merges leave (n/2+1)^2 patterns).
 *
 * Inputs are numbered with wire 0 as bit 0: input x puts bit i of x on wire
 * i. "Smallest" means the smallest such number. A network sorts when every
 * output is ascending (wire 0 holds the minimum). */
#ifndef SN_CHECK_H
#define SN_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/parallel.h" // for: sn_cancel
#include "core/status.h"

typedef enum sn_check_method {
    SN_CHECK_AUTO = 0,   /* brute force for small n, else the reduction */
    SN_CHECK_BRUTEFORCE, /* all 2^n inputs, bit-sliced */
    SN_CHECK_REDUCE,     /* reachable-pattern sets, n <= 64 */
    SN_CHECK_SPLIT       /* n > 64: two parts that sort, then a merge
                            (check_modes.c); auto uses it above 64 wires */
} sn_check_method;

const char *sn_check_method_name(sn_check_method m); /* "auto", "bruteforce", "reduce", "split" */
bool sn_check_method_parse(const char *s, sn_check_method *out);

/* Progress: fraction done in [0, 1] and estimated seconds left (< 0 when
 * unknown). Called from one thread at a time, at most about 10 times a
 * second, only while the check runs. */
typedef void (*sn_check_progress_fn)(double fraction, double eta_seconds, void *user);

typedef struct sn_check_options {
    sn_check_method method;
    unsigned threads;              /* 0 = all online CPUs */
    bool force;                    /* run even when estimated too large */
    sn_check_progress_fn progress; /* may be NULL */
    void *progress_user;           /* passed to progress, borrowed */
    const sn_cancel *cancel;       /* set -> stop with SN_EINTERRUPTED; may be NULL */
} sn_check_options;

void sn_check_options_init(sn_check_options *opt); /* auto, all threads, no force */

typedef struct sn_check_result {
    uint32_t n;
    bool sorts;
    sn_check_method method; /* the method that gave the verdict */
    double seconds;         /* wall time of the check */
    /* When !sorts: the smallest failing 0-1 input, one byte (0 or 1) per
     * wire, wire 0 first, and the network's output for it; NULL when
     * sorts. Owned by the result. */
    uint8_t *counterexample;
    uint8_t *output;
    uint64_t counterexample_index; /* the input as a number (wire 0 = bit 0) */
    uint32_t first_unsorted;       /* first i with output[i] > output[i + 1] */
    /* Number of failing 0-1 inputs (both methods count exactly). For
     * n = 64 it cannot overflow: at least n + 1 inputs sort. */
    uint64_t failing_count;
    /* Comparators that never swap on any input, by global index in layer
     * order, increasing. Owned by the result (NULL when none). */
    size_t *redundant;
    size_t redundant_count;
    uint64_t inputs;     /* 2^n inputs (brute force) or patterns pushed (reduce) */
    size_t max_patterns; /* reduction: largest pattern set held at once */
    /* true when the method does not find redundant comparators (the split
     * and the merging check): redundant is then NULL and means nothing. */
    bool redundant_unknown;
} sn_check_result;

/* Check net. On SN_OK *res is filled (free it with sn_check_result_free).
 * SN_ELIMIT means undecided: diag says why when the method would take too
 * long and opt->force is false, or cannot handle n at all (the reduction
 * needs n <= 64; brute force too). Auto on 25..64 wires runs the reduction
 * with small limits first; past them it tries the split (a verdict without
 * redundant comparators, res->method split), then the reduction in full,
 * then brute force where it takes at most a minute. Above 64 wires auto
 * (and split) use the split: the layers before the one that joins all
 * wires must keep exactly two wire sets apart, each sorted by its part
 * (checked recursively), and the rest must merge them; otherwise
 * SN_ELIMIT. A part that does not sort gives a counterexample of the
 * whole network when one of two completions fails, else SN_ELIMIT. SN_EINTERRUPTED when
 * *opt->cancel became nonzero. opt may be NULL (defaults). */
sn_status sn_check_run(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                       sn_diag *diag);

void sn_check_result_free(sn_check_result *res); /* frees the arrays; NULL is a no-op */

/* What brute force over all 2^n 0-1 inputs of net would take, in seconds,
 * on `threads` threads (0 = all online CPUs), at the rate measured for the
 * bit-sliced checker: 2^n x (comparators + 8) / (1.5e11 x threads). Any n
 * (infinity past about 1000 wires): for telling a user what a proof this
 * checker refuses would cost. */
double sn_check_bruteforce_seconds(const sn_network *net, unsigned threads);

/* Merging: does net sort every input whose wires [0, a) and [a, n) are
 * each sorted? By the 0-1 principle (a + 1)(n - a + 1) inputs decide it,
 * for any n. res->sorts is the verdict; the counterexample is the
 * smallest such input in the order (zeros on the first part, zeros on the
 * second). counterexample_index only for n <= 64. */
sn_status sn_check_merge(const sn_network *net, uint32_t a, sn_check_result *res, sn_diag *diag);

/* Selection: does output k[0] hold the k[0]-th smallest value (counting
 * from 0) for every input; with nk == 2, do outputs k[0] and k[1] hold the
 * k[0]-th and k[1]-th smallest in either order (a median network for
 * even n)? All 2^n 0-1 inputs, bit-sliced on opt->threads (n <= 40;
 * SN_ELIMIT with an estimate when it would take over a minute and
 * !opt->force). res->sorts is the verdict ("selects"); redundant lists
 * the comparators that never swap. opt may be NULL. */
sn_status sn_check_select(const sn_network *net, const uint32_t *k, size_t nk,
                          const sn_check_options *opt, sn_check_result *res, sn_diag *diag);

/* For `sortnet info`: does net sort, and which comparators are redundant.
 * Auto method, all threads, no force: brute force up to n = 24
 * (milliseconds), the reduction above (milliseconds for Batcher-like
 * networks); a network the reduction cannot shrink falls back to brute
 * force (n = 32: a few seconds) or gives SN_ELIMIT. *redundant is
 * sn_malloc'd (sn_free it; NULL when none). */
sn_status sn_check_quick(const sn_network *net, bool *sorts, size_t **redundant,
                         size_t *redundant_count, sn_diag *diag);

#endif
