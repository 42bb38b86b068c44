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
 * layer. After k layers (k = 0: the inputs themselves): how many of the
 * 2^n inputs are already sorted, and the "shmoo" (libsortnetwork's name):
 * for the inputs with h ones, whether wire i can still hold a 0, a 1, or
 * both. Every wire computes a monotone function of the inputs (min and max
 * are monotone), so "can hold a 1" holds exactly for h >= one_from and
 * "can hold a 0" exactly for h <= zero_upto: two numbers per wire and
 * layer give the whole shmoo. A network sorts iff sorted[layers] == 2^n,
 * and then wire i holds a 1 exactly when h >= n - i.
 * Computed bit-sliced like the checker (64 inputs per word, several words
 * per operation) on all cores. */

#define SN_ZERO_ONE_MAX_WIRES 24 /* 2^24 inputs: well under a second */

enum { SN_WIRE_CAN0 = 1, SN_WIRE_CAN1 = 2 }; /* bits of sn_zero_one_state */

typedef struct sn_zero_one {
    uint32_t n;
    size_t layers;
    uint64_t inputs;  /* 2^n */
    uint64_t *sorted; /* [layers + 1]: inputs sorted after k layers */
    /* [(layers + 1) * n], index k * n + i: the fewest ones an input needs
     * to put a 1 on wire i after k layers (n + 1: never), and the most ones
     * an input may have and still leave a 0 there (-1: never). */
    int16_t *one_from, *zero_upto;
} sn_zero_one;

/* Fill *z for schedule s (n <= max_wires, itself at most
 * SN_ZERO_ONE_MAX_WIRES; otherwise SN_ELIMIT with diag saying why).
 * threads 0 = all online CPUs. Free with sn_zero_one_free. */
sn_status sn_zero_one_profile(const sn_schedule *s, uint32_t max_wires, unsigned threads,
                              sn_zero_one *z, sn_diag *diag);
void sn_zero_one_free(sn_zero_one *z); /* frees the arrays; NULL is a no-op */

/* SN_WIRE_CAN0 | SN_WIRE_CAN1 bits: what wire i can hold after k layers
 * for the inputs with h ones (h <= n). */
unsigned sn_zero_one_state(const sn_zero_one *z, size_t k, uint32_t h, uint32_t i);

/* '0', '1' or '*' (both) for those bits. */
char sn_zero_one_char(unsigned state);

#endif
