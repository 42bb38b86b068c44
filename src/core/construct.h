/* construct.h - the explicit constructions: sorting networks for any n by
 * their textbook recursions, and merging networks.
 *
 * Every construction appends comparators "as early as possible"
 * (sn_network_add_asap), so a network's depth is the longest chain of its
 * comparator sequence, as libsortnetwork's compression gives it. Sizes and
 * depths (formulas and recurrences): docs/constructions.md and
 * `sortnet gen --help`.
 *
 *  oddeven-merge (balanced split): halves floor(n/2) and ceil(n/2), each
 *      sorted recursively, then Batcher's odd-even merge of arbitrary sizes
 *      (merge evens, merge odds, one row of comparators (z_2i-1, z_2i)).
 *  bitonic (balanced split): halves sorted recursively, merged by the
 *      bitonic merger of arbitrary size: the first half read backwards and
 *      the second forwards form a V-shaped sequence; its even and odd
 *      positions are merged recursively, then adjacent positions compared.
 *      The merger is untangled (Knuth 5.3.4-16) so every comparator is
 *      standard (a < b).
 *  bose-nelson: Bose and Nelson (1962), the recursive split and their
 *      merge of sizes (i, j) by three sub-merges.
 *  hibbard: Hibbard (1963), "A simple sorting algorithm": the comparators
 *      one by one from the bit patterns of x and y.
 *  merge-exchange: Knuth's Algorithm 5.2.2M (Batcher's merge exchange).
 *  balanced: the periodic balanced network of Dowd, Perl, Rudolph and Saks
 *      (1989): lg N identical blocks of lg N layers, layer i of a block
 *      comparing mirror pairs inside groups of N / 2^i wires. N is n
 *      rounded up to a power of two; comparators touching wires >= n are
 *      dropped (a virtual +infinity there never moves). */
#ifndef SN_CONSTRUCT_H
#define SN_CONSTRUCT_H

#include <stdint.h>

#include "core/network.h"
#include "core/schedule.h"
#include "core/status.h"

/* Append the sorting network `algo` builds on all wires of net (which
 * should have no layers yet). algo: SN_ALGO_ODDEVEN_SPLIT,
 * SN_ALGO_BITONIC_SPLIT, SN_ALGO_BOSE_NELSON, SN_ALGO_HIBBARD,
 * SN_ALGO_MERGE_EXCHANGE or SN_ALGO_BALANCED; SN_EINVAL for others. */
sn_status sn_construct_sort(sn_algo algo, sn_network *net, sn_diag *diag);

/* merge:A,B - Batcher's odd-even merge of sorted wires [0, a) with sorted
 * wires [a, a + b). a + b >= 1. *out is a new network named "merge:A,B". */
sn_status sn_construct_merge(uint32_t a, uint32_t b, sn_network **out, sn_diag *diag);

/* bitonic-merge:N - the (untangled) bitonic merger of sorted wires
 * [0, floor(n/2)) with sorted wires [floor(n/2), n): the last merge of the
 * balanced bitonic:n. */
sn_status sn_construct_bitonic_merge(uint32_t n, sn_network **out, sn_diag *diag);

/* half-cleaner:N - one layer (i, i + ceil(n/2)) for i < floor(n/2). */
sn_status sn_construct_half_cleaner(uint32_t n, sn_network **out, sn_diag *diag);

/* The blocks of a balanced-split construction (SN_ALGO_ODDEVEN_SPLIT,
 * SN_ALGO_BITONIC_SPLIT; nothing for others), for the structure diagrams:
 * fn(user, word, first_wire, last_wire, first_layer, last_layer, depth,
 * a, b) once per "sort" (every recursive half of more than two wires, at
 * depth level - 1) and per merge of more than two wires ("merge" for
 * bitonic, "merge+" for odd-even merge, of parts a and b, at depth
 * level; the whole network is level 0). Layers are those of the network
 * sn_construct_sort builds. SN_ENOMEM on allocation failure. */
typedef void (*sn_construct_block_fn)(void *user, const char *word, uint32_t first_wire,
                                      uint32_t last_wire, size_t first_layer, size_t last_layer,
                                      uint32_t depth, uint32_t a, uint32_t b);
sn_status sn_construct_blocks(sn_algo algo, uint32_t n, sn_construct_block_fn fn, void *user);

/* Upper bound on the comparators of sn_construct_sort(algo) on n wires
 * (for refusing a generator before building it). */
uint64_t sn_construct_size_bound(sn_algo algo, uint32_t n);

#endif
