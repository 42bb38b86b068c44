/* dist_scene.h - the merge-split theorem as a picture (`sortnet draw
 * dist:P,NET` and the window's dist view): each wire of a network on P
 * wires is a rank holding a sorted block of K keys, each comparator a
 * merge-split (the two ranks merge their blocks, the comparator's wire a
 * keeps the K smallest, wire b the K largest), and the blocks are shown
 * after the local sort and after every layer, a column each, so that one
 * sees every block stay sorted and, when NET sorts, every boundary end in
 * order (rank r's largest key <= rank r+1's smallest).
 *
 * Two halves, both pure numbers (no cairo, no threads: the page builds
 * them): the names and values (dist_blocks.c; sn_dist_blocks: the same
 * merge-splits the distributed sort runs, computed with the core's
 * schedule; core only) and the scene (dist_scene.c: where every block,
 * link and label goes), which the cairo painter, the SVG writer and the
 * page paint.
 *
 * Names: "dist:P" (the best known network on P wires), "dist:P,NET" (any
 * network on P wires: bitonic:4, best:8, a file, ...; a generator named
 * without its size gets P: dist:8,bitonic) and "dist:PxK,NET" (K keys a
 * rank; default SN_DIST_DEFAULT_KEYS). */
#ifndef SN_DIST_SCENE_H
#define SN_DIST_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/schedule.h"
#include "core/status.h"
#include "render/palette.h"
#include "render/scene.h"

#define SN_DIST_DEFAULT_KEYS 4u
/* The largest picture: more ranks or keys do not read (and the keys are
 * 1..P*K, at most three digits). */
#define SN_DIST_MAX_RANKS 64u
#define SN_DIST_MAX_KEYS 16u
/* A column a layer: more do not fit a page (transposition:64 has 64). */
#define SN_DIST_MAX_LAYERS 256u
/* Value text at scale 1 (layout units); never below SN_SCENE_MIN_FONT. */
#define SN_DIST_FONT 13.0

/* A parsed "dist:" name. */
typedef struct sn_dist_spec {
    uint32_t ranks; /* P >= 1 */
    uint32_t keys;  /* K >= 1 (SN_DIST_DEFAULT_KEYS when not given) */
    bool keys_given;
    char net[512]; /* NET ("best:P" when not given; "empty:1" for P = 1) */
} sn_dist_spec;

/* Does spec start with "dist:"? (spec may be NULL) */
bool sn_dist_spec_is(const char *spec);
/* Parse "dist:P[xK][,NET]". SN_EPARSE with a message in diag (which part
 * is wrong and what was expected) for a malformed name, P < 1 or K < 1;
 * SN_ELIMIT past SN_DIST_MAX_RANKS or SN_DIST_MAX_KEYS. */
sn_status sn_dist_spec_parse(const char *spec, sn_dist_spec *out, sn_diag *diag);

/* The values: the keys 1..P*K in an order drawn from the seed, rank r's
 * slice [r*K, (r+1)*K), its block after the local sort (step 0) and after
 * each layer (step k = after layer k). */
typedef struct sn_dist_blocks {
    uint32_t ranks, keys;
    size_t layers;
    uint32_t *slices;  /* [ranks * keys], as made (owned) */
    uint32_t *blocks;  /* [(layers + 1) * ranks * keys] (owned) */
    uint8_t *changed;  /* [(layers + 1) * ranks]: the block differs from the step before */
    size_t *cmp_first; /* [layers + 1]: index of layer k's first comparator (owned) */
} sn_dist_blocks;

/* Compute them for s (P = its wires) with `keys` keys a rank. SN_EINVAL
 * for keys == 0 or a network of no wire, SN_ENOMEM. out is zeroed first
 * and safe to free on failure. */
sn_status sn_dist_blocks_make(const sn_schedule *s, uint32_t keys, uint64_t seed,
                              sn_dist_blocks *out, sn_diag *diag);
void sn_dist_blocks_free(sn_dist_blocks *b); /* NULL is a no-op */
/* Rank r's block at step k (k <= layers, r < ranks; borrowed). */
const uint32_t *sn_dist_block(const sn_dist_blocks *b, size_t step, uint32_t rank);
/* The first broken boundary at step k: the least r with rank r's last key
 * > rank r+1's first; ranks - 1 when every boundary is in order. */
uint32_t sn_dist_broken(const sn_dist_blocks *b, size_t step);
/* The merge-split of two sorted blocks x and y of k keys: lo gets the k
 * smallest of the 2k, hi the k largest, both sorted (lo, hi must not
 * overlap x or y). */
void sn_dist_merge_split(const uint32_t *x, const uint32_t *y, uint32_t k, uint32_t *lo,
                         uint32_t *hi);

/* What the picture shows. */
typedef struct sn_dist_scene_opts {
    /* Blocks are shown up to this step (0: the local sort, k: after layer
     * k); later columns are empty outlines (the window reveals them as it
     * steps). SIZE_MAX or >= layers: all of them. */
    size_t step;
    /* Mark step `step`: its column, the merge-splits of that layer and
     * the blocks they changed (the window). */
    bool highlight;
    double scale;      /* size factor (<= 0: 1) */
    const char *title; /* the title line (borrowed), or NULL: none */
} sn_dist_scene_opts;

/* The window's fitting, where the whole picture's text would be too small
 * (all zero: the whole picture, as sn_dist_scene draws it). */
typedef struct sn_dist_fit {
    /* only `cols` columns from `first_col` on (column 0: the keys, 1: the
     * local sort, 1 + k: after layer k; the boundary marks only with the
     * last column); cols 0: all */
    size_t first_col, cols;
    bool tight;    /* the rows closer together */
    double legend; /* the legend's text size / the values' (<= 0: 0.85) */
} sn_dist_fit;

/* The picture's size at that scale (layout units), as sn_dist_scene makes
 * it. */
void sn_dist_scene_size(const sn_schedule *s, const sn_dist_blocks *b, const sn_dist_scene_opts *o,
                        double *w, double *h);

/* Append the picture of b (made from s) to sc with its top-left corner at
 * (x, y), back to front: background, the current column's band, the rank
 * lines, column headings, rank labels, the blocks (SN_ROLE_VALUE_BOX per
 * key, SN_ROLE_VALUE its text; wire = rank, layer = step, -1 for the
 * slices), the merge-splits (SN_ROLE_COMPARATOR: wire = a, layer, cmp),
 * the boundary marks after the last layer once shown (SN_ROLE_MARK, wire
 * = r for the boundary below rank r; a broken one also a note), title
 * and legend. Returns sn_scene_status(sc). */
sn_status sn_dist_scene(sn_scene *sc, const sn_schedule *s, const sn_dist_blocks *b,
                        const sn_theme *th, const sn_dist_scene_opts *o, double x, double y);

/* The same two with the window's fitting (fit NULL: none). */
void sn_dist_scene_size_fit(const sn_schedule *s, const sn_dist_blocks *b,
                            const sn_dist_scene_opts *o, const sn_dist_fit *fit, double *w,
                            double *h);
sn_status sn_dist_scene_fit(sn_scene *sc, const sn_schedule *s, const sn_dist_blocks *b,
                            const sn_theme *th, const sn_dist_scene_opts *o, const sn_dist_fit *fit,
                            double x, double y);

/* About how many primitives that picture makes (to refuse it early). */
double sn_dist_scene_estimate(uint32_t ranks, uint32_t keys, size_t layers, size_t size);

#endif
