/* transform.h - the network algebra: operations that turn a network into
 * another (`sortnet transform`). Each returns a new network in *out (net is
 * unchanged, named as net) and keeps the invariants of network.h.
 * Normalizing (untangling into standard form) is sn_network_to_standard in
 * analysis.h. */
#ifndef SN_TRANSFORM_H
#define SN_TRANSFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/status.h"

/* Mirror the wires: comparator (a, b) becomes (n-1-a, n-1-b), so the
 * minimum goes to the mirrored wire of a: a sorting network becomes one
 * that sorts descending (with reversed comparators); normalizing it gives
 * a standard sorting network again. */
sn_status sn_transform_reflect(const sn_network *net, sn_network **out, sn_diag *diag);

/* Fix input `wire` to -infinity (to_max false) or +infinity (true) and
 * remove it (libsortnetwork's sn-cut): every comparator on the fixed
 * value's path goes; where one would have moved it, the wires are
 * exchanged in the comparators before it instead, so the value runs
 * straight along one wire, which is then removed. The result has n - 1
 * wires; for a sorting network it sorts n - 1 inputs. */
sn_status sn_transform_cut(const sn_network *net, uint32_t wire, bool to_max, sn_network **out,
                           sn_diag *diag);

/* Remove every comparator that never swaps on any input (by the 0-1
 * principle: on any 0-1 input), found by the exhaustive checker (brute
 * force up to 24 wires, the reduction up to 64; SN_ELIMIT beyond, or when
 * the check would take too long). The network computes the same function
 * afterwards, and no comparator of the result is redundant. *removed
 * receives the count. */
sn_status sn_transform_prune(const sn_network *net, sn_network **out, size_t *removed,
                             sn_diag *diag);

/* net's layers, then next's (both on the same number of wires). */
sn_status sn_transform_concat(const sn_network *net, const sn_network *next, sn_network **out,
                              sn_diag *diag);

/* Relabel the wires: wire i becomes perm[i] (perm[0..n) a permutation of
 * 0..n-1; SN_EINVAL, diag naming the entry, otherwise). A comparator
 * (a, b) becomes (perm[a], perm[b]), reversed when perm[a] > perm[b]. */
sn_status sn_transform_permute(const sn_network *net, const uint32_t *perm, sn_network **out,
                               sn_diag *diag);

/* The same comparators in the same order, each in the earliest layer its
 * wires allow: as few layers as that order permits (the depth is the
 * longest chain of dependent comparators). */
sn_status sn_transform_compact(const sn_network *net, sn_network **out, sn_diag *diag);

#endif
