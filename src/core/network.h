/* network.h - comparator networks stored as explicit layers.
 *
 * A comparator (a, b) leaves the minimum on wire a and the maximum on wire b;
 * a > b is allowed (a "reversed" comparator). A layer is a set of
 * comparators on pairwise-disjoint wires; a network is n wires and an ordered
 * list of layers. Every network the library hands out satisfies these
 * invariants: they are checked when a layer is added. */
#ifndef SN_NETWORK_H
#define SN_NETWORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/status.h"

typedef struct sn_comparator {
    uint32_t a; /* receives the minimum */
    uint32_t b; /* receives the maximum */
} sn_comparator;

typedef struct sn_network sn_network;

/* Limits on what the library accepts (raised with sn_limits_set). */
typedef struct sn_limits {
    uint32_t max_wires;     /* default 1<<20 for explicit networks */
    size_t max_comparators; /* default 1<<26 */
    size_t max_layers;      /* default 1<<22 */
} sn_limits;
sn_limits sn_limits_get(void);
void sn_limits_set(sn_limits l);

/* A network with n wires and no layers; NULL on allocation failure or when
 * n exceeds the wire limit. n == 0 is allowed (an empty network). */
sn_network *sn_network_create(uint32_t n);
void sn_network_destroy(sn_network *net); /* NULL is a no-op */
sn_network *sn_network_clone(const sn_network *net);

/* Name shown to users ("bitonic:16", a file name). `name` is copied.
 * Default: "". */
sn_status sn_network_set_name(sn_network *net, const char *name);
const char *sn_network_name(const sn_network *net);

uint32_t sn_network_wires(const sn_network *net);
size_t sn_network_layer_count(const sn_network *net);
size_t sn_network_size(const sn_network *net); /* comparators in all layers */

/* The comparators of layer k (0-based), borrowed: valid until the network
 * is modified or destroyed. *count receives their number. */
const sn_comparator *sn_network_layer(const sn_network *net, size_t k, size_t *count);

/* Index (in network order) of the first comparator of layer k. */
size_t sn_network_layer_offset(const sn_network *net, size_t k);

/* Append a layer; `cmps` is copied. Checks wire range, a != b and disjoint
 * wires; on failure the network is unchanged and diag says which comparator
 * (by position in the layer) is wrong. An empty layer (count 0) is
 * ignored. */
sn_status sn_network_layer_add(sn_network *net, const sn_comparator *cmps, size_t count,
                               sn_diag *diag);

/* Append one comparator "as early as possible": into the first layer after
 * the last layer that touches wire a or wire b (creating a layer at the end
 * when needed). Used to group flat comparator lists. Checks range, a != b. */
sn_status sn_network_add_asap(sn_network *net, uint32_t a, uint32_t b, sn_diag *diag);

/* Comparator by global index (network order), or false if out of range. */
bool sn_network_comparator(const sn_network *net, size_t index, sn_comparator *out, size_t *layer);

/* true if both networks have the same n and identical layers. */
bool sn_network_equal(const sn_network *x, const sn_network *y);

#endif
