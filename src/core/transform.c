/* transform.c - the network algebra (transform.h).
 *
 * Invariant: every result is built layer by layer through
 * sn_network_layer_add (or add_asap), so it satisfies network.h's checks;
 * a relabeling by a permutation keeps the wires of a layer disjoint. */
#include "core/transform.h"

#include <string.h>

#include "core/alloc.h"
#include "core/check.h"

/* A copy of net's comparators in layer order, with each one's layer. */
typedef struct flat {
    sn_comparator *c;
    size_t *layer;
    size_t count, layers;
    uint32_t n;
} flat;

static void flat_free(flat *f)
{
    sn_free(f->c);
    sn_free(f->layer);
    f->c = NULL;
    f->layer = NULL;
}

static sn_status flat_make(const sn_network *net, flat *f, sn_diag *diag)
{
    memset(f, 0, sizeof *f);
    f->n = sn_network_wires(net);
    f->count = sn_network_size(net);
    f->layers = sn_network_layer_count(net);
    f->c = sn_calloc(f->count + 1, sizeof *f->c);
    f->layer = sn_calloc(f->count + 1, sizeof *f->layer);
    if (!f->c || !f->layer) {
        flat_free(f);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    size_t j = 0;
    for (size_t k = 0; k < f->layers; k++) {
        size_t cnt;
        const sn_comparator *l = sn_network_layer(net, k, &cnt);
        for (size_t i = 0; i < cnt; i++, j++) {
            f->c[j] = l[i];
            f->layer[j] = k;
        }
    }
    return SN_OK;
}

/* A network on n wires from f's comparators with keep[j] (all when keep
 * is NULL), each in its old layer (empty layers vanish). */
static sn_status flat_build(const flat *f, uint32_t n, const uint8_t *keep, const char *name,
                            sn_network **out, sn_diag *diag)
{
    *out = NULL;
    sn_network *net = sn_network_create(n);
    sn_comparator *buf = sn_calloc(f->count + 1, sizeof *buf);
    sn_status st = net && buf ? SN_OK : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if (st == SN_OK)
        st = sn_network_set_name(net, name);
    size_t j = 0;
    for (size_t k = 0; k < f->layers && st == SN_OK; k++) {
        size_t cnt = 0;
        for (; j < f->count && f->layer[j] == k; j++)
            if (!keep || keep[j])
                buf[cnt++] = f->c[j];
        st = sn_network_layer_add(net, buf, cnt, diag);
    }
    sn_free(buf);
    if (st != SN_OK) {
        sn_network_destroy(net);
        return st;
    }
    *out = net;
    return SN_OK;
}

sn_status sn_transform_reflect(const sn_network *net, sn_network **out, sn_diag *diag)
{
    flat f;
    sn_status st = flat_make(net, &f, diag);
    if (st != SN_OK)
        return st;
    for (size_t j = 0; j < f.count; j++)
        f.c[j] = (sn_comparator){f.n - 1 - f.c[j].a, f.n - 1 - f.c[j].b};
    st = flat_build(&f, f.n, NULL, sn_network_name(net), out, diag);
    flat_free(&f);
    return st;
}

static void swap_labels(sn_comparator *c, size_t count, uint32_t x, uint32_t y)
{
    for (size_t j = 0; j < count; j++) {
        uint32_t *w[2] = {&c[j].a, &c[j].b};
        for (int i = 0; i < 2; i++)
            *w[i] = *w[i] == x ? y : *w[i] == y ? x : *w[i];
    }
}

sn_status sn_transform_cut(const sn_network *net, uint32_t wire, bool to_max, sn_network **out,
                           sn_diag *diag)
{
    uint32_t n = sn_network_wires(net);
    if (wire >= n)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "wire %u: the network has wires 0..%u", wire,
                           n ? n - 1 : 0);
    flat f;
    sn_status st = flat_make(net, &f, diag);
    if (st != SN_OK)
        return st;
    uint8_t *keep = sn_calloc(f.count + 1, 1);
    if (!keep) {
        flat_free(&f);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    uint32_t pos = wire;
    for (size_t j = 0; j < f.count; j++) {
        sn_comparator c = f.c[j];
        keep[j] = c.a != pos && c.b != pos;
        if (keep[j])
            continue;
        uint32_t dest = to_max ? c.b : c.a; /* where the fixed value goes */
        if (dest != pos) {
            /* the value and the other one trade wires: trade them in every
             * comparator before this one instead */
            swap_labels(f.c, j, pos, dest);
            pos = dest;
        }
    }
    for (size_t j = 0; j < f.count; j++) {
        f.c[j].a -= f.c[j].a > pos;
        f.c[j].b -= f.c[j].b > pos;
    }
    st = flat_build(&f, n - 1, keep, sn_network_name(net), out, diag);
    sn_free(keep);
    flat_free(&f);
    return st;
}

sn_status sn_transform_prune(const sn_network *net, sn_network **out, size_t *removed,
                             sn_diag *diag)
{
    *out = NULL;
    if (sn_network_wires(net) > 64)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "pruning finds redundant comparators with the exhaustive checker: "
                           "at most 64 wires (this network has %u)",
                           sn_network_wires(net));
    sn_check_result res;
    sn_status st = sn_check_run(net, NULL, &res, diag);
    if (st != SN_OK)
        return st;
    flat f;
    st = flat_make(net, &f, diag); /* on failure f holds nothing to free */
    uint8_t *keep = st == SN_OK ? sn_calloc(f.count + 1, 1) : NULL;
    if (st == SN_OK && !keep)
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if (st == SN_OK) {
        memset(keep, 1, f.count);
        for (size_t i = 0; i < res.redundant_count; i++)
            keep[res.redundant[i]] = 0;
        *removed = res.redundant_count;
        st = flat_build(&f, f.n, keep, sn_network_name(net), out, diag);
    }
    flat_free(&f);
    sn_free(keep);
    sn_check_result_free(&res);
    return st;
}

sn_status sn_transform_concat(const sn_network *net, const sn_network *next, sn_network **out,
                              sn_diag *diag)
{
    *out = NULL;
    if (sn_network_wires(net) != sn_network_wires(next))
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%s has %u wires, %s has %u (they must match)",
                           sn_network_name(net), sn_network_wires(net), sn_network_name(next),
                           sn_network_wires(next));
    sn_network *c = sn_network_clone(net);
    sn_status st = c ? SN_OK : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (size_t k = 0; st == SN_OK && k < sn_network_layer_count(next); k++) {
        size_t cnt;
        const sn_comparator *l = sn_network_layer(next, k, &cnt);
        st = sn_network_layer_add(c, l, cnt, diag);
    }
    if (st != SN_OK) {
        sn_network_destroy(c);
        return st;
    }
    *out = c;
    return SN_OK;
}

sn_status sn_transform_permute(const sn_network *net, const uint32_t *perm, sn_network **out,
                               sn_diag *diag)
{
    *out = NULL;
    uint32_t n = sn_network_wires(net);
    uint8_t *seen = sn_calloc((size_t)n + 1, 1);
    if (!seen)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    sn_status st = SN_OK;
    for (uint32_t i = 0; i < n && st == SN_OK; i++) {
        if (perm[i] >= n)
            st = sn_diag_set(diag, SN_EINVAL, 0, 0, "entry %u is %u, not a wire of 0..%u", i + 1,
                             perm[i], n - 1);
        else if (seen[perm[i]]++)
            st = sn_diag_set(diag, SN_EINVAL, 0, 0,
                             "entry %u repeats wire %u (a permutation names each "
                             "wire once)",
                             i + 1, perm[i]);
    }
    sn_free(seen);
    if (st != SN_OK)
        return st;
    flat f;
    if ((st = flat_make(net, &f, diag)) != SN_OK)
        return st;
    for (size_t j = 0; j < f.count; j++)
        f.c[j] = (sn_comparator){perm[f.c[j].a], perm[f.c[j].b]};
    st = flat_build(&f, n, NULL, sn_network_name(net), out, diag);
    flat_free(&f);
    return st;
}

sn_status sn_transform_compact(const sn_network *net, sn_network **out, sn_diag *diag)
{
    *out = NULL;
    sn_network *c = sn_network_create(sn_network_wires(net));
    sn_status st = c ? sn_network_set_name(c, sn_network_name(net)) : SN_ENOMEM;
    if (st != SN_OK)
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (size_t k = 0; st == SN_OK && k < sn_network_layer_count(net); k++) {
        size_t cnt;
        const sn_comparator *l = sn_network_layer(net, k, &cnt);
        for (size_t i = 0; i < cnt && st == SN_OK; i++)
            st = sn_network_add_asap(c, l[i].a, l[i].b, diag);
    }
    if (st != SN_OK) {
        sn_network_destroy(c);
        return st;
    }
    *out = c;
    return SN_OK;
}
