/* network.c - comparator networks as explicit layers.
 *
 * Invariant: every stored layer is non-empty and its comparators touch
 * pairwise-disjoint wires, all < n, with a != b. Each layer owns its own
 * growable array, and the layers' sizes are summed in a Fenwick tree, so
 * inserting "as early as possible" into an earlier layer costs O(log L)
 * (shifting every later layer's offset made Hibbard's and Bose-Nelson's
 * constructions quadratic: 1.8 s for 7500 wires). */
#include "core/network.h"

#include <string.h>

#include "core/alloc.h"
#include "core/check_api.h"

struct sn_layer {
    sn_comparator *cmps;
    size_t count, cap;
};

struct sn_network {
    uint32_t n;
    char *name;
    struct sn_layer *layers;
    size_t nlayers, cap_layers;
    size_t ncmp;
    /* Fenwick tree of the layers' sizes, fen[1 .. cap_layers]: the
     * comparators before layer k are a sum of O(log L) entries. */
    size_t *fen;
    /* For add_asap: per wire, 1 + index of the last layer touching it. */
    size_t *wire_depth;
    /* Scratch for disjointness checks: per wire, the stamp of the last
     * check that saw it. */
    size_t *seen;
    size_t stamp;
};

static sn_limits limits = {1u << 20, (size_t)1 << 26, (size_t)1 << 22};

sn_limits sn_limits_get(void)
{
    return limits;
}

void sn_limits_set(sn_limits l)
{
    limits = l;
}

sn_network *sn_network_create(uint32_t n)
{
    if (n > limits.max_wires)
        return NULL;
    sn_network *net = sn_calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->n = n;
    net->fen = sn_calloc(1, sizeof *net->fen);
    if (!net->fen || (n > 0 && (!(net->wire_depth = sn_calloc(n, sizeof(size_t))) ||
                                !(net->seen = sn_calloc(n, sizeof(size_t)))))) {
        sn_network_destroy(net);
        return NULL;
    }
    return net;
}

void sn_network_destroy(sn_network *net)
{
    if (!net)
        return;
    sn_free(net->name);
    for (size_t k = 0; k < net->nlayers; k++)
        sn_free(net->layers[k].cmps);
    sn_free(net->layers);
    sn_free(net->fen);
    sn_free(net->wire_depth);
    sn_free(net->seen);
    sn_free(net);
}

sn_network *sn_network_clone(const sn_network *net)
{
    sn_api_check(net != NULL);
    sn_network *c = sn_network_create(net->n);
    if (!c)
        return NULL;
    if (sn_network_set_name(c, sn_network_name(net)) != SN_OK) {
        sn_network_destroy(c);
        return NULL;
    }
    for (size_t k = 0; k < net->nlayers; k++) {
        size_t count;
        const sn_comparator *l = sn_network_layer(net, k, &count);
        if (sn_network_layer_add(c, l, count, NULL) != SN_OK) {
            sn_network_destroy(c);
            return NULL;
        }
    }
    return c;
}

sn_status sn_network_set_name(sn_network *net, const char *name)
{
    char *copy = sn_strdup(name);
    if (!copy)
        return SN_ENOMEM;
    sn_free(net->name);
    net->name = copy;
    return SN_OK;
}

const char *sn_network_name(const sn_network *net)
{
    return net->name ? net->name : "";
}

uint32_t sn_network_wires(const sn_network *net)
{
    /* cppcheck's whole-program check follows layout.c's build(s, NULL, ...)
     * into `s ? sn_schedule_wires(s) : sn_network_wires(net)` without its
     * condition: net is never NULL here */
    // cppcheck-suppress ctunullpointer
    return net->n;
}

size_t sn_network_layer_count(const sn_network *net)
{
    return net->nlayers;
}

size_t sn_network_size(const sn_network *net)
{
    return net->ncmp;
}

const sn_comparator *sn_network_layer(const sn_network *net, size_t k, size_t *count)
{
    sn_api_check(net != NULL && count != NULL);
    if (k >= net->nlayers) {
        *count = 0;
        return NULL;
    }
    *count = net->layers[k].count;
    return net->layers[k].cmps;
}

/* Layer k gained `count` comparators. */
static void fen_add(sn_network *net, size_t k, size_t count)
{
    for (size_t i = k + 1; i <= net->cap_layers; i += i & (~i + 1))
        net->fen[i] += count;
}

size_t sn_network_layer_offset(const sn_network *net, size_t k)
{
    if (k >= net->nlayers)
        return net->ncmp;
    size_t sum = 0;
    for (size_t i = k; i > 0; i -= i & (~i + 1))
        sum += net->fen[i];
    return sum;
}

/* Grow layer l to hold `more` more comparators. */
static sn_status layer_reserve(struct sn_layer *l, size_t more)
{
    size_t need = l->count + more, bytes;
    if (need <= l->cap)
        return SN_OK;
    size_t cap = l->cap ? l->cap : 2;
    do {
        if (!sn_mul_size(cap, 2, &cap))
            return SN_ELIMIT;
    } while (cap < need);
    if (!sn_mul_size(cap, sizeof *l->cmps, &bytes))
        return SN_ELIMIT;
    sn_comparator *p = sn_realloc(l->cmps, bytes);
    if (!p)
        return SN_ENOMEM;
    l->cmps = p;
    l->cap = cap;
    return SN_OK;
}

/* Check the limits for `more` comparators (and one more layer when
 * new_layer), and make room for the new layer. */
static sn_status reserve(sn_network *net, size_t more, bool new_layer)
{
    size_t need;
    if (!sn_add_size(net->ncmp, more, &need) || need > limits.max_comparators ||
        (new_layer && net->nlayers + 1 > limits.max_layers))
        return SN_ELIMIT;
    if (new_layer && net->nlayers + 1 >= net->cap_layers) {
        size_t cap, lbytes, obytes;
        if (!sn_mul_size(net->cap_layers ? net->cap_layers : 8, 2, &cap) ||
            !sn_mul_size(cap, sizeof(struct sn_layer), &lbytes) ||
            !sn_mul_size(cap + 1, sizeof(size_t), &obytes))
            return SN_ELIMIT;
        struct sn_layer *l = sn_realloc(net->layers, lbytes);
        if (!l)
            return SN_ENOMEM;
        net->layers = l;
        size_t *f = sn_realloc(net->fen, obytes);
        if (!f)
            return SN_ENOMEM;
        /* the tree again over the larger range, in O(L) */
        memset(f, 0, obytes);
        for (size_t i = 1; i <= cap; i++) {
            f[i] += i <= net->nlayers ? net->layers[i - 1].count : 0;
            size_t up = i + (i & (~i + 1));
            if (up <= cap)
                f[up] += f[i];
        }
        net->fen = f;
        net->cap_layers = cap;
    }
    return SN_OK;
}

static sn_status check_comparator(const sn_network *net, sn_comparator c, sn_diag *diag)
{
    if (c.a >= net->n || c.b >= net->n)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "comparator (%u,%u): wire %u is out of range for %u inputs", c.a, c.b,
                           c.a >= net->n ? c.a : c.b, net->n);
    if (c.a == c.b)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "comparator (%u,%u) joins a wire to itself", c.a,
                           c.b);
    return SN_OK;
}

sn_status sn_network_layer_add(sn_network *net, const sn_comparator *cmps, size_t count,
                               sn_diag *diag)
{
    sn_api_check(net != NULL && (cmps != NULL || count == 0));
    if (count == 0)
        return SN_OK;
    net->stamp++;
    for (size_t i = 0; i < count; i++) {
        sn_status st = check_comparator(net, cmps[i], diag);
        if (st != SN_OK)
            return st;
        uint32_t w[2] = {cmps[i].a, cmps[i].b};
        for (int j = 0; j < 2; j++) {
            if (net->seen[w[j]] == net->stamp)
                return sn_diag_set(diag, SN_EINVAL, 0, 0,
                                   "wire %u is used twice in layer %zu (comparator (%u,%u))", w[j],
                                   net->nlayers + 1, cmps[i].a, cmps[i].b);
            net->seen[w[j]] = net->stamp;
        }
    }
    sn_status st = reserve(net, count, true);
    struct sn_layer l = {NULL, 0, 0};
    if (st == SN_OK)
        st = layer_reserve(&l, count);
    if (st != SN_OK)
        return sn_diag_set(diag, st, 0, 0, "%s (%zu comparators in %zu layers)",
                           st == SN_ENOMEM ? "out of memory" : "network too large",
                           net->ncmp + count, net->nlayers + 1);
    memcpy(l.cmps, cmps, count * sizeof *cmps);
    l.count = count;
    net->layers[net->nlayers++] = l;
    net->ncmp += count;
    fen_add(net, net->nlayers - 1, count);
    for (size_t i = 0; i < count; i++)
        net->wire_depth[cmps[i].a] = net->wire_depth[cmps[i].b] = net->nlayers;
    return SN_OK;
}

sn_status sn_network_add_asap(sn_network *net, uint32_t a, uint32_t b, sn_diag *diag)
{
    sn_comparator c = {a, b};
    sn_status st = check_comparator(net, c, diag);
    if (st != SN_OK)
        return st;
    size_t da = net->wire_depth[a], db = net->wire_depth[b];
    size_t layer = da > db ? da : db; /* 0-based index of the target layer */
    if (layer == net->nlayers)
        return sn_network_layer_add(net, &c, 1, diag);
    st = reserve(net, 1, false);
    if (st == SN_OK)
        st = layer_reserve(&net->layers[layer], 1);
    if (st != SN_OK)
        return sn_diag_set(diag, st, 0, 0, "%s (%zu comparators)",
                           st == SN_ENOMEM ? "out of memory" : "network too large", net->ncmp + 1);
    struct sn_layer *l = &net->layers[layer];
    l->cmps[l->count++] = c;
    net->ncmp++;
    fen_add(net, layer, 1);
    net->wire_depth[a] = net->wire_depth[b] = layer + 1;
    return SN_OK;
}

bool sn_network_comparator(const sn_network *net, size_t index, sn_comparator *out, size_t *layer)
{
    sn_api_check(net != NULL);
    if (index >= net->ncmp)
        return false;
    /* Down the tree: the most layers whose comparators all come before
     * index; the comparator is in the next one. */
    size_t lo = 0, rest = index, step = 1;
    while (step * 2 <= net->cap_layers)
        step *= 2;
    for (; step > 0; step /= 2) {
        if (lo + step <= net->cap_layers && net->fen[lo + step] <= rest) {
            lo += step;
            rest -= net->fen[lo];
        }
    }
    if (out)
        *out = net->layers[lo].cmps[rest];
    if (layer)
        *layer = lo;
    return true;
}

bool sn_network_equal(const sn_network *x, const sn_network *y)
{
    if (x->n != y->n || x->nlayers != y->nlayers || x->ncmp != y->ncmp)
        return false;
    for (size_t k = 0; k < x->nlayers; k++) {
        const struct sn_layer *p = &x->layers[k], *q = &y->layers[k];
        if (p->count != q->count)
            return false;
        for (size_t i = 0; i < p->count; i++)
            if (p->cmps[i].a != q->cmps[i].a || p->cmps[i].b != q->cmps[i].b)
                return false;
    }
    return true;
}
