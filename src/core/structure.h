/* structure.h - why a generated network sorts: the labelled blocks of its
 * recursive construction ("sort 8", "merge 16", "half-cleaner", "merge
 * 4+4", "round 3"), as layer and wire ranges of the schedule, for the
 * diagrams to outline.
 *
 * A block covers layers first_layer..last_layer and wires
 * first_wire..last_wire (both inclusive, indices of the schedule). For n
 * that is not a power of two the blocks are those of the padded network,
 * clipped to wires < n; a block left with no comparator inside it (both
 * ends in its wire range, within its layers) is dropped. Batcher blocks
 * of two wires (one comparator per layer) are not listed: the comparator
 * says it all. depth 0 is the outermost level; a block of depth d + 1 lies inside
 * one of depth d, or stands beside the depth-0 blocks.
 *
 *  - bitonic:N (flip-free): "sort m" (m = 4 .. N/2, the recursive halves),
 *    "merge m" (m = 4 .. N), inside each merge "half-cleaner" for every
 *    layer after its first (blocks of 2q wires for distance q, 2q >= 4);
 *  - bitonic-classic:N: the same with the direction, "sort 4 ↑",
 *    "merge 8 ↓", and every layer of a merge is a half-cleaner;
 *  - oddeven-merge:N: "sort m" and "merge m/2+m/2";
 *  - pairwise:N: "pairs" (the first phase) and "round r" for each round of
 *    the second phase;
 *  - transposition:N: "round r", two layers each.
 * Bubble, insertion and networks read from files have no blocks. */
#ifndef SN_STRUCTURE_H
#define SN_STRUCTURE_H

#include <stddef.h>
#include <stdint.h>

#include "core/schedule.h"
#include "core/status.h"

#define SN_BLOCK_LABEL 40 /* label bytes, NUL included */

typedef struct sn_block {
    uint32_t first_layer, last_layer; /* inclusive */
    uint32_t first_wire, last_wire;   /* inclusive, < n */
    uint32_t depth;                   /* 0 = outermost */
    char label[SN_BLOCK_LABEL];       /* UTF-8 (arrows are U+2191, U+2193) */
} sn_block;

/* The blocks of schedule s, ordered by depth, then first layer, then first
 * wire. *out is sn_malloc'd (sn_free it; NULL when *count is 0). SN_ENOMEM
 * on allocation failure (diag says so). */
sn_status sn_structure_blocks(const sn_schedule *s, sn_block **out, size_t *count, sn_diag *diag);

#endif
