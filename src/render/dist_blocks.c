/* dist_blocks.c - the "dist:" names and the values of the merge-split
 * picture (render/dist_scene.h): P slices of the keys 1..P*K in an order
 * from the seed, each sorted (the local sort), then per layer of a network
 * on P wires one merge-split per comparator (a, b) that leaves the K
 * smallest of the two blocks on rank a, as the distributed sort does
 * (src/mpi). Core only (no scene): the view's state and the fuzzers link
 * it alone.
 *
 * Invariant: after every step each block is sorted; the multiset of all
 * keys never changes (a merge-split only redistributes two blocks). */
#include "render/dist_scene.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h" /* for: sn_rand_next */

bool sn_dist_spec_is(const char *spec)
{
    return spec && strncmp(spec, "dist:", 5) == 0;
}

/* A decimal number at *p (advanced past it) in [1, max]; false if none. */
static bool spec_number(const char **p, unsigned long *out)
{
    if (!isdigit((unsigned char)**p))
        return false;
    char *end;
    errno = 0;
    unsigned long v = strtoul(*p, &end, 10);
    if (errno)
        v = ULONG_MAX;
    *out = v;
    *p = end;
    return true;
}

sn_status sn_dist_spec_parse(const char *spec, sn_dist_spec *out, sn_diag *diag)
{
    memset(out, 0, sizeof *out);
    if (!sn_dist_spec_is(spec))
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "'%s' is not dist:P,NET", spec ? spec : "");
    const char *p = spec + 5;
    unsigned long ranks, keys = SN_DIST_DEFAULT_KEYS;
    if (!spec_number(&p, &ranks))
        return sn_diag_set(diag, SN_EPARSE, 0, 0,
                           "'%s': expected the number of ranks after dist: (dist:P,NET, e.g. "
                           "dist:4,best:4)",
                           spec);
    if (*p == 'x') {
        p++;
        if (!spec_number(&p, &keys))
            return sn_diag_set(diag, SN_EPARSE, 0, 0,
                               "'%s': expected the keys a rank after 'x' (dist:PxK,NET, e.g. "
                               "dist:4x3,best:4)",
                               spec);
        out->keys_given = true;
    }
    if (*p != '\0' && *p != ',')
        return sn_diag_set(diag, SN_EPARSE, 0, 0,
                           "'%s': expected ',' and a network after the ranks (dist:P,NET, e.g. "
                           "dist:4,best:4)",
                           spec);
    if (ranks < 1)
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "'%s': a distributed sort needs 1 rank or more",
                           spec);
    if (keys < 1)
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "'%s': each rank needs 1 key or more", spec);
    if (ranks > SN_DIST_MAX_RANKS)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "'%s': %lu ranks are too many to draw (at most %u)", spec, ranks,
                           SN_DIST_MAX_RANKS);
    if (keys > SN_DIST_MAX_KEYS)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "'%s': %lu keys a rank are too many to draw (at most %u)", spec, keys,
                           SN_DIST_MAX_KEYS);
    out->ranks = (uint32_t)ranks;
    out->keys = (uint32_t)keys;
    if (*p == ',') {
        p++;
        if (!*p)
            return sn_diag_set(diag, SN_EPARSE, 0, 0,
                               "'%s': expected a network after ',' (e.g. dist:%lu,bitonic:%lu)",
                               spec, ranks, ranks);
        if (strlen(p) >= sizeof out->net)
            return sn_diag_set(diag, SN_ELIMIT, 0, 0, "'%s': the network's name is too long", spec);
        snprintf(out->net, sizeof out->net, "%s", p);
        /* a generator named without its size gets P: dist:8,bitonic */
        sn_algo algo;
        if (!strchr(p, ':') &&
            (sn_algo_parse(p, &algo) || strcmp(p, "best") == 0 || strcmp(p, "best-depth") == 0))
            snprintf(out->net, sizeof out->net, "%s:%lu", p, ranks);
    } else if (ranks == 1) {
        snprintf(out->net, sizeof out->net, "empty:1");
    } else {
        snprintf(out->net, sizeof out->net, "best:%lu", ranks);
    }
    return SN_OK;
}

/* ---- the values */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void sn_dist_merge_split(const uint32_t *x, const uint32_t *y, uint32_t k, uint32_t *lo,
                         uint32_t *hi)
{
    /* the k smallest from the fronts, the k largest from the backs */
    uint32_t i = 0, j = 0;
    for (uint32_t o = 0; o < k; o++)
        lo[o] = (j >= k || (i < k && x[i] <= y[j])) ? x[i++] : y[j++];
    uint32_t a = k, b = k;
    for (uint32_t o = k; o-- > 0;)
        hi[o] = (a == 0 || (b > 0 && y[b - 1] >= x[a - 1])) ? y[--b] : x[--a];
}

void sn_dist_blocks_free(sn_dist_blocks *b)
{
    if (!b)
        return;
    sn_free(b->slices);
    sn_free(b->blocks);
    sn_free(b->changed);
    sn_free(b->cmp_first);
    memset(b, 0, sizeof *b);
}

const uint32_t *sn_dist_block(const sn_dist_blocks *b, size_t step, uint32_t rank)
{
    return b->blocks + (step * b->ranks + rank) * b->keys;
}

uint32_t sn_dist_broken(const sn_dist_blocks *b, size_t step)
{
    for (uint32_t r = 0; r + 1 < b->ranks; r++)
        if (sn_dist_block(b, step, r)[b->keys - 1] > sn_dist_block(b, step, r + 1)[0])
            return r;
    return b->ranks ? b->ranks - 1 : 0;
}

sn_status sn_dist_blocks_make(const sn_schedule *s, uint32_t keys, uint64_t seed,
                              sn_dist_blocks *out, sn_diag *diag)
{
    memset(out, 0, sizeof *out);
    uint32_t P = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    if (keys == 0 || P == 0)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "a distributed sort needs ranks and keys");
    size_t n = (size_t)P * keys;
    out->ranks = P;
    out->keys = keys;
    out->layers = L;
    out->slices = sn_calloc(n, sizeof *out->slices);
    out->blocks = sn_calloc((L + 1) * n, sizeof *out->blocks);
    out->changed = sn_calloc((L + 1) * P, 1);
    out->cmp_first = sn_calloc(L + 1, sizeof *out->cmp_first);
    sn_comparator *pairs = sn_calloc(P / 2 + 1, sizeof *pairs);
    if (!out->slices || !out->blocks || !out->changed || !out->cmp_first || !pairs) {
        sn_free(pairs);
        sn_dist_blocks_free(out);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %zu keys", n);
    }
    /* the keys 1..P*K in an order from the seed (Fisher-Yates) */
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++)
        out->slices[i] = (uint32_t)(i + 1);
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)(sn_rand_next(&st) % i);
        uint32_t t = out->slices[i - 1];
        out->slices[i - 1] = out->slices[j];
        out->slices[j] = t;
    }
    /* step 0: each rank sorts its slice */
    memcpy(out->blocks, out->slices, n * sizeof *out->blocks);
    for (uint32_t r = 0; r < P; r++) {
        qsort(out->blocks + (size_t)r * keys, keys, sizeof *out->blocks, cmp_u32);
        out->changed[r] = memcmp(out->blocks + (size_t)r * keys, out->slices + (size_t)r * keys,
                                 keys * sizeof *out->blocks) != 0;
    }
    /* step k: layer k's merge-splits on step k - 1's blocks */
    size_t first = 0;
    for (size_t k = 0; k < L; k++) {
        const uint32_t *prev = out->blocks + k * n;
        uint32_t *cur = out->blocks + (k + 1) * n;
        memcpy(cur, prev, n * sizeof *cur);
        out->cmp_first[k] = first;
        size_t m = sn_schedule_layer_pairs(s, k, pairs, P / 2 + 1);
        first += m;
        for (size_t i = 0; i < m; i++) {
            uint32_t a = pairs[i].a, b = pairs[i].b;
            sn_dist_merge_split(prev + (size_t)a * keys, prev + (size_t)b * keys, keys,
                                cur + (size_t)a * keys, cur + (size_t)b * keys);
        }
        for (uint32_t r = 0; r < P; r++)
            out->changed[(k + 1) * P + r] =
                memcmp(cur + (size_t)r * keys, prev + (size_t)r * keys, keys * sizeof *cur) != 0;
    }
    out->cmp_first[L] = first;
    sn_free(pairs);
    return SN_OK;
}
