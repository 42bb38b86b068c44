/* library.h - the shipped library of known networks (assets/networks,
 * embedded in the binary at build time) and its names on the command line:
 *
 *   best:N        the best-known sorting network on N inputs with the fewest
 *                 comparators (ties broken by fewer layers)
 *   best-depth:N  the best-known one with the fewest layers (ties broken by
 *                 fewer comparators)
 *   median:N      the best-known median network on N inputs (fewest
 *                 comparators, ties broken by fewer layers): for odd N output
 *                 (N-1)/2 holds the median, for even N outputs N/2-1 and N/2
 *                 hold the two middle values in either order
 *   lib:NAME      any library network by its file name without extension,
 *                 e.g. lib:Sort_16_61_9 or lib:16i-10s-60c-0
 *
 * Sources: SorterHunter's list of best-known networks for N = 2..64 (Bert
 * Dobbelaere, MIT) and libsortnetwork's example networks (Florian Forster).
 * Provenance and licences: assets/networks/README.md. */
#ifndef SN_LIBRARY_H
#define SN_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/schedule.h"
#include "core/status.h"

/* No entry (returned by the look-ups). */
#define SN_LIBRARY_NONE ((size_t)-1)

/* What a library network does. */
typedef enum sn_library_kind {
    SN_LIBRARY_SORTER = 0, /* sorts every input */
    SN_LIBRARY_MEDIAN      /* selects the median (median/): not a sorter */
} sn_library_kind;

const char *sn_library_kind_name(sn_library_kind k); /* "sorter", "median" */

/* One library network. Strings are static (never freed). */
typedef struct sn_library_info {
    sn_library_kind kind;
    const char *stem;   /* "Sort_16_60_10": its name after "lib:" */
    const char *path;   /* inside assets/networks: "best/Sort_16_60_10.json" */
    const char *source; /* "SorterHunter" or "libsortnetwork" */
    uint32_t n;
    uint32_t size;       /* comparators, as the source lists them */
    uint32_t depth;      /* layers, as the source lists them */
    bool best_size;      /* it is best:n */
    bool best_depth;     /* it is best-depth:n */
    bool size_optimal;   /* its size is proven optimal for n (published proofs) */
    bool depth_optimal;  /* its depth is proven optimal for n */
} sn_library_info;

/* Entries are numbered 0..count-1, sorted by n, then size, then depth. */
size_t sn_library_count(void);
/* false when i is out of range. */
bool sn_library_get(size_t i, sn_library_info *out);

/* The entry of best:n (by_depth false) or best-depth:n (true), or
 * SN_LIBRARY_NONE when the library has no sorting network for n. */
size_t sn_library_best(uint32_t n, bool by_depth);
/* The entry of median:n, or SN_LIBRARY_NONE. */
size_t sn_library_median(uint32_t n);

/* Comparators of best:n (the smallest known sorting network on n wires),
 * or 0 when the library has none for n. */
size_t sn_library_best_size(uint32_t n);
/* The entry whose stem is `stem`, or SN_LIBRARY_NONE. */
size_t sn_library_find(const char *stem);
/* Smallest and largest n that best:n covers. */
void sn_library_best_range(uint32_t *lo, uint32_t *hi);

/* Build entry i as a network named `name` (copied; NULL: "lib:STEM"). */
sn_status sn_library_network(size_t i, const char *name, sn_network **out, sn_diag *diag);

/* The same as an explicit schedule (for the names of the command line,
 * which format.c resolves). */
sn_status sn_library_schedule(size_t i, const char *name, sn_schedule **out, sn_diag *diag);

/* The outputs a library median network selects when `name` names one
 * ("median:N", "lib:Median_..."): (n-1)/2 for odd n, n/2-1 and n/2 for
 * even n, into out; returns how many (0 for every other name). */
size_t sn_library_selected_outputs(const char *name, uint32_t n, uint32_t out[2]);

/* true when `family` ("best", "best-depth", "median", "lib") names the
 * library. */
bool sn_library_is_family(const char *family);

#endif
