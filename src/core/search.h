/* search.h - search for small sorting (and selection) networks.
 *
 * The method (docs/search.md; after SorterHunter's published description,
 * written anew): a fixed prefix (none, given, or chosen greedily so that it
 * leaves the fewest distinct 0-1 outputs) and an evolved postfix. The test
 * set is the prefix's distinct unsorted 0-1 outputs over all 2^n inputs,
 * computed exactly by joining wire clusters, so a postfix that sorts the
 * test set makes the whole network sort. Tests are bit-parallel: one 64-bit
 * word per wire carries 64 test vectors. A worker keeps one network, applies
 * random mutations (remove, swap, move a wire, insert, reflect a comparator),
 * repairs the result by appending comparators that fix an unsorted test
 * vector, removes comparators that never swap, and keeps the result when it
 * is no worse on the goal's first measure; it restarts after long
 * stagnation. With `symmetric` every comparator comes with its mirror image
 * (a, b) -> (n-1-b, n-1-a). Several workers (sn_parallel_team), each with
 * its own network and random stream, share the best found.
 *
 * Every network reported has been proved by the exhaustive checker
 * (sn_check_run or sn_check_select) first. With one thread and an iteration
 * limit a run is deterministic for its seed. Core code: it never prints;
 * the caller is told of improvements through a callback. */
#ifndef SN_SEARCH_H
#define SN_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/parallel.h" // for: sn_cancel
#include "core/status.h"

#define SN_SEARCH_MAX_WIRES 64
/* The most test vectors (distinct prefix outputs) a search holds. */
#define SN_SEARCH_MAX_TESTS (1u << 22)

typedef enum sn_search_goal {
    SN_SEARCH_GOAL_SIZE = 0, /* fewest comparators, then fewest layers */
    SN_SEARCH_GOAL_DEPTH,    /* fewest layers, then fewest comparators */
    SN_SEARCH_GOAL_BOTH      /* smallest comparators + layers, then comparators */
} sn_search_goal;

const char *sn_search_goal_name(sn_search_goal g); /* "size", "depth", "both" */
bool sn_search_goal_parse(const char *s, sn_search_goal *out);

typedef enum sn_search_prefix {
    SN_SEARCH_PREFIX_GREEDY = 0, /* greedy comparators (prefix_count, 0 = automatic) */
    SN_SEARCH_PREFIX_NONE,
    SN_SEARCH_PREFIX_NET, /* opt->prefix_net */
    /* Green's first layers: the hypercube of the power of two 2^k >= n, layer
     * j joining wires i and i + 2^j (bit j of i clear), comparators on wires
     * >= n dropped; prefix_count layers (0 = all k). */
    SN_SEARCH_PREFIX_GREEN,
    /* sn_search_options_init's choice: GREEN from 14 wires on, GREEDY below
     * (prefix_count 0). */
    SN_SEARCH_PREFIX_AUTO
} sn_search_prefix;

/* One improvement of the best network. */
typedef struct sn_search_event {
    double seconds;     /* since the search began */
    size_t size;        /* comparators */
    size_t depth;       /* layers */
    uint64_t iteration; /* of the worker that found it */
    unsigned worker;
} sn_search_event;

/* Called for each improvement with the proved network (borrowed: copy it to
 * keep it), from whichever worker thread found it, one call at a time. */
typedef void (*sn_search_improved_fn)(const sn_network *best, const sn_search_event *ev,
                                      void *user);

typedef struct sn_search_options {
    uint32_t n; /* wires, 2..SN_SEARCH_MAX_WIRES */
    sn_search_goal goal;
    uint64_t seed;
    unsigned threads; /* workers; 0 = the online CPUs */
    bool symmetric;   /* comparators in mirror pairs */
    sn_search_prefix prefix;
    size_t prefix_count;          /* greedy: comparators (a mirror pair counts 2); 0 = auto */
    const sn_network *prefix_net; /* PREFIX_NET: kept as the network's start; borrowed */
    const sn_network *from;       /* start from this network (after the prefix); borrowed */
    /* Selection instead of sorting (select_count 1 or 2, as sn_check_select;
     * 0 = sort). */
    uint32_t select_k[2];
    size_t select_count;
    /* Stop when any of these is reached (0 = no such limit); the cancel
     * flag is polled too. Without any limit a search runs until cancelled. */
    double seconds;
    uint64_t iterations;    /* per worker */
    size_t target_size;     /* stop once the best has at most this many comparators */
    size_t target_depth;    /* ... and (when set) at most this many layers */
    uint64_t restart_after; /* iterations without progress before a restart; 0 = auto */
    const sn_cancel *cancel;
    sn_search_improved_fn improved; /* may be NULL */
    void *user;
} sn_search_options;

/* Size goal, auto prefix, 1 thread, no mirror pairs. */
void sn_search_options_init(sn_search_options *opt, uint32_t n);

/* Whether mirror pairs are the measured choice for a sorting network on n
 * wires from scratch (`sortnet search`'s default): even n for the depth
 * goal, 12 wires for the size goal (docs/search.md). */
bool sn_search_default_symmetric(uint32_t n, sn_search_goal goal);

typedef struct sn_search_stats {
    uint64_t iterations; /* all workers */
    uint64_t restarts;
    size_t tests;       /* test vectors (the prefix's distinct unsorted outputs) */
    size_t prefix_size; /* comparators in the prefix */
    unsigned workers;
    double seconds;
    bool cancelled; /* stopped by the cancel flag */
} sn_search_stats;

/* Search. On SN_OK *best is the best network found (owned by the caller,
 * proved), and *stats (may be NULL) is filled. SN_EINVAL (diag says why)
 * for n out of range, a prefix or --from network of another width, a
 * selection index out of range; SN_ELIMIT when the prefix leaves more than
 * SN_SEARCH_MAX_TESTS test vectors. A cancelled search still returns SN_OK
 * with the best so far (stats->cancelled). */
sn_status sn_search_run(const sn_search_options *opt, sn_network **best, sn_search_stats *stats,
                        sn_diag *diag);

#endif
