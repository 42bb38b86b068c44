/* bestknown.h - the smallest known comparator count of a sorting network
 * on n wires (the public SorterHunter list), for "10 comparators, best
 * known 9" in the window's edit mode. */
#ifndef SN_BESTKNOWN_H
#define SN_BESTKNOWN_H

#include <stddef.h>
#include <stdint.h>

/* Best known size for n = 1..64 (n = 1: 0, nothing to sort); 0 when
 * unknown (n = 0 or n > 64). */
size_t sn_best_known_size(uint32_t n);

#endif
