/* analysis.h - structural facts about a network: size, depth, layer sizes,
 * standard form, and conversion to standard form. */
#ifndef SN_ANALYSIS_H
#define SN_ANALYSIS_H

#include <stdbool.h>

#include "core/network.h"
#include "core/status.h"

/* true when every comparator has a < b. */
bool sn_network_is_standard(const sn_network *net);

/* Knuth, TAOCP 5.3.4 exercise 16: a network with reversed comparators that
 * sorts can be "untangled" into a standard network of the same size and
 * depth that sorts: for each reversed comparator (a, b), a > b, exchange
 * wires a and b in it and in every later comparator. The result is a new
 * network (*out); net is unchanged. */
sn_status sn_network_to_standard(const sn_network *net, sn_network **out);

#endif
