/* analysis.h - structural facts about a network: size, depth, layer sizes,
 * standard form, conversion to standard form, and the 0-1 principle layer
 * by layer. */
#ifndef SN_ANALYSIS_H
#define SN_ANALYSIS_H

#include <stdbool.h>

#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/schedule.h"
#include "core/status.h"

/* true when every comparator has a < b. */
bool sn_network_is_standard(const sn_network *net);

/* Knuth, TAOCP 5.3.4 exercise 16: a network with reversed comparators that
 * sorts can be "untangled" into a standard network of the same size and
 * depth that sorts: for each reversed comparator (a, b), a > b, exchange
 * wires a and b in it and in every later comparator. The result is a new
 * network (*out); net is unchanged. */
sn_status sn_network_to_standard(const sn_network *net, sn_network **out);

/* ---- the 0-1 principle, visible: what all 2^n 0-1 inputs do, layer by
 * layer. After k layers (k = 0: the inputs themselves), how many of the
 * 2^n inputs are already sorted, and per wire whether it can still hold a
 * 0, a 1, or both (libsortnetwork's "shmoo"). A network sorts iff
 * sorted[layers] == 2^n. A wire that can no longer hold a 0 (or a 1)
 * shows where the network has already decided something: a comparator
 * between a "0 only" and a "1 only" wire never swaps. Computed bit-sliced like the checker (64
 * inputs per word, several words per operation), on all cores. */

#define SN_ZERO_ONE_MAX_WIRES 24 /* 2^24 inputs: well under a second */

enum { SN_WIRE_CAN0 = 1, SN_WIRE_CAN1 = 2 }; /* bits of sn_zero_one.state */

typedef struct sn_zero_one {
    uint32_t n;
    size_t layers;
    uint64_t inputs;  /* 2^n */
    uint64_t *sorted; /* [layers + 1]: inputs sorted after k layers */
    uint8_t *state;   /* [(layers + 1) * n]: state[k * n + i], SN_WIRE_* bits */
} sn_zero_one;

/* Fill *z for schedule s (n <= max_wires, itself at most
 * SN_ZERO_ONE_MAX_WIRES; otherwise SN_ELIMIT with diag saying why).
 * threads 0 = all online CPUs. Free with sn_zero_one_free. */
sn_status sn_zero_one_profile(const sn_schedule *s, uint32_t max_wires, unsigned threads,
                              sn_zero_one *z, sn_diag *diag);
void sn_zero_one_free(sn_zero_one *z); /* frees the arrays; NULL is a no-op */

#endif
