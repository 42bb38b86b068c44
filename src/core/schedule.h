/* schedule.h - how the layers of a network are stored and named.
 *
 * A schedule is either explicit (it owns an sn_network: a list of pairs per
 * layer) or closed-form: an algorithm plus per-layer parameters, so that a
 * network on n = 2^26 wires needs no comparator list in memory. Both
 * executors (CPU reference and OpenCL) consume schedules; materializing the
 * pairs of a closed-form layer happens on demand (drawing, export, small n).
 *
 * Any n, not only powers of two: closed forms are defined for
 * N = next power of two >= n, and every comparator touching a wire >= n is
 * dropped (a virtual +infinity there never moves, because every generated
 * comparator is in standard form a < b; bitonic-classic, the one generator
 * with reversed comparators, makes every block that touches a dropped wire
 * ascend, see classic_descends in schedule.c). Layers left empty by the dropping
 * are skipped, so a schedule's layer list never contains an empty layer.
 *
 * Closed-form layer parameters (N = padded size, i = wire):
 *  - SN_ALGO_BITONIC (flip-free Batcher bitonic sort), p = block, q = dist:
 *      q == p/2 ("mirror" step of a merge): partner = i ^ (p - 1)
 *      otherwise ("half-cleaner"):          partner = i ^ q
 *      comparator (min(i, partner), max(i, partner)).
 *  - SN_ALGO_ODDEVEN_MERGE (Batcher), p = merge size, q = stride k:
 *      wire i with j = i - (k % p) reduced: i compares with i + k when
 *      ((i - k % p) mod 2k) < k  (and i >= k % p), and
 *      floor(i / 2p) == floor((i + k) / 2p).
 *  - SN_ALGO_TRANSPOSITION, p = parity: (i, i + 1) for i = parity mod 2.
 * sn_layer_partner() is the executable definition; kernels mirror it. */
#ifndef SN_SCHEDULE_H
#define SN_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/status.h"

typedef enum sn_algo {
    SN_ALGO_EXPLICIT = 0,    /* pairs stored per layer */
    SN_ALGO_BITONIC,         /* closed form */
    SN_ALGO_ODDEVEN_MERGE,   /* closed form */
    SN_ALGO_TRANSPOSITION,   /* closed form */
    SN_ALGO_PAIRWISE,        /* generated explicitly (Parberry) */
    SN_ALGO_BUBBLE,          /* generated explicitly */
    SN_ALGO_INSERTION,       /* generated explicitly */
    SN_ALGO_BITONIC_CLASSIC, /* generated explicitly: the textbook form with
                                descending blocks (reversed comparators) */
    SN_ALGO_ODDEVEN_SPLIT,   /* explicit (construct.h): Batcher's odd-even
                                merge sort by the balanced split */
    SN_ALGO_BITONIC_SPLIT,   /* explicit: bitonic sort by the balanced split */
    SN_ALGO_BOSE_NELSON,     /* explicit (construct.h) */
    SN_ALGO_HIBBARD,         /* explicit */
    SN_ALGO_MERGE_EXCHANGE,  /* explicit: Knuth's Algorithm 5.2.2M */
    SN_ALGO_BALANCED,        /* explicit: periodic balanced network (padded) */
    SN_ALGO_COUNT
} sn_algo;

/* "bitonic", "oddeven-merge", "transposition", "pairwise", "bubble",
 * "insertion", "bitonic-classic", "bose-nelson", "hibbard",
 * "merge-exchange", "balanced", "explicit". The balanced-split forms
 * (SN_ALGO_*_SPLIT) are named "bitonic" and "oddeven-merge" too: to users
 * they are what bitonic:N and oddeven-merge:N give. */
const char *sn_algo_name(sn_algo algo);
/* Parse a generator name (also accepts a few aliases, e.g. "oem",
 * "oddeven", "odd-even-merge", "oets", "bitonic-pad"); false if unknown.
 * "bitonic" and "oddeven-merge" give the closed forms (SN_ALGO_BITONIC,
 * SN_ALGO_ODDEVEN_MERGE: padded to a power of two, what the GPU paths
 * and the executor's fast paths run). */
bool sn_algo_parse(const char *name, sn_algo *out);
/* The generator a name gives on n wires, as the command line resolves it:
 * like sn_algo_parse, except that "bitonic" and "oddeven-merge" (and their
 * aliases without "-pad") give the balanced split (SN_ALGO_*_SPLIT) when n
 * is not a power of two; for a power of two the closed form is the same
 * network. "bitonic-pad" / "oddeven-merge-pad" always give the closed,
 * padded form. */
bool sn_algo_resolve(const char *name, uint32_t n, sn_algo *out);
/* One line for `sortnet info`: which construction algo builds on n wires
 * (e.g. "Batcher's bitonic sort, balanced split ..."). */
const char *sn_algo_describe(sn_algo algo, uint32_t n);
bool sn_algo_is_closed_form(sn_algo algo);

/* One layer of a schedule. For explicit layers p = layer index. */
typedef struct sn_layer_form {
    sn_algo algo;
    uint32_t p;
    uint32_t q;
} sn_layer_form;

/* Partner of wire i in a closed-form layer on n wires; returns false when
 * i is idle in that layer (no comparator, or the comparator was dropped
 * because it touches a wire >= n). When true, *partner != i and the
 * comparator is (min(i, *partner), max(i, *partner)). */
bool sn_layer_partner(sn_layer_form f, uint32_t n, uint32_t i, uint32_t *partner);

typedef struct sn_schedule sn_schedule;

/* Generate algorithm `algo` on n >= 1 wires. Closed forms cost O(depth)
 * memory; explicit generators are refused with SN_ELIMIT (diag explains)
 * when their comparator count exceeds the limits of network.h. The name
 * is "ALGO:N", except that a closed bitonic / odd-even merge form on n
 * wires, n not a power of two, is "bitonic-pad:N" / "oddeven-merge-pad:N"
 * (the padded network differs from the balanced split there). */
sn_status sn_schedule_generate(sn_algo algo, uint32_t n, sn_schedule **out, sn_diag *diag);

/* An explicit schedule that takes ownership of `net` (consumed, even on
 * failure). Its algo is SN_ALGO_EXPLICIT. */
sn_status sn_schedule_from_network(sn_network *net, sn_schedule **out);

void sn_schedule_destroy(sn_schedule *s); /* NULL is a no-op */

sn_algo sn_schedule_algo(const sn_schedule *s);
uint32_t sn_schedule_wires(const sn_schedule *s);
size_t sn_schedule_layer_count(const sn_schedule *s);
sn_layer_form sn_schedule_layer_form(const sn_schedule *s, size_t k);

/* Name for users: "bitonic:16" or the network's name. */
const char *sn_schedule_name(const sn_schedule *s);
sn_status sn_schedule_set_name(sn_schedule *s, const char *name); /* copied */

/* The explicit network behind an explicit schedule (borrowed), or NULL for
 * closed forms. */
const sn_network *sn_schedule_network(const sn_schedule *s);

/* Number of comparators in layer k (counted, O(n) for closed forms). */
size_t sn_schedule_layer_size(const sn_schedule *s, size_t k);
/* Total comparators (O(n * depth) for closed forms; cached after the first
 * call on explicit ones). */
size_t sn_schedule_size(const sn_schedule *s);

/* Write the comparators of layer k into out[0..cap): for closed forms in
 * increasing order of their min wire, for explicit schedules in the order
 * the network stores them (so indices match the network's comparator
 * numbering). Returns the layer's size (which may exceed cap: then only
 * cap entries are written). */
size_t sn_schedule_layer_pairs(const sn_schedule *s, size_t k, sn_comparator *out, size_t cap);

/* Materialize the whole schedule as a network (a fresh copy for explicit
 * ones). SN_ELIMIT when over the network limits. */
sn_status sn_schedule_to_network(const sn_schedule *s, sn_network **out, sn_diag *diag);

/* What layer k of a generated network is, in its generator's own terms
 * (for sn_structure_blocks): the closed form's sn_layer_form for closed
 * forms; for pairwise (a, 0) in its first phase and (a, d) in the second
 * (pairs b - d*a, b); for bitonic-classic (block, distance) as bitonic.
 * {SN_ALGO_EXPLICIT, k, 0} for bubble, insertion and networks read from
 * files. */
sn_layer_form sn_schedule_layer_shape(const sn_schedule *s, size_t k);

/* Stage of layer k for drawing outlines: the layers of one stage belong
 * together (one bitonic/odd-even merge, one transposition round = 0). */
uint32_t sn_schedule_layer_stage(const sn_schedule *s, size_t k);

#endif
