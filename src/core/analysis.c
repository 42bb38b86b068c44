/* analysis.c - standard form test and Knuth's untangling into standard form.
 *
 * Untangling keeps a relabelling map[w] (original wire -> wire in the new
 * network), a bijection: a reversed comparator exchanges the labels of its
 * two wires from there on, so every later comparator reads the exchanged
 * wires. Layers map to layers, so size and depth are unchanged. */
#include "core/analysis.h"

#include "core/alloc.h"

bool sn_network_is_standard(const sn_network *net)
{
    size_t L = sn_network_layer_count(net);
    for (size_t k = 0; k < L; k++) {
        size_t count = 0;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        for (size_t i = 0; i < count; i++)
            if (c[i].a > c[i].b)
                return false;
    }
    return true;
}

sn_status sn_network_to_standard(const sn_network *net, sn_network **out)
{
    if (!out || !net)
        return SN_EINVAL;
    *out = NULL;
    uint32_t n = sn_network_wires(net);
    size_t L = sn_network_layer_count(net), maxl = 0;
    for (size_t k = 0; k < L; k++) {
        size_t count = 0;
        (void)sn_network_layer(net, k, &count);
        if (count > maxl)
            maxl = count;
    }
    uint32_t *map = sn_calloc((size_t)n + 1, sizeof *map);
    sn_comparator *buf = sn_calloc(maxl + 1, sizeof *buf);
    sn_network *res = sn_network_create(n);
    sn_status st = (map && buf && res) ? SN_OK : SN_ENOMEM;
    for (uint32_t w = 0; st == SN_OK && w < n; w++)
        map[w] = w;
    for (size_t k = 0; st == SN_OK && k < L; k++) {
        size_t count = 0;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        for (size_t i = 0; i < count; i++) {
            uint32_t x = map[c[i].a], y = map[c[i].b];
            if (x > y) {
                map[c[i].a] = y;
                map[c[i].b] = x;
                buf[i] = (sn_comparator){y, x};
            } else {
                buf[i] = (sn_comparator){x, y};
            }
        }
        st = sn_network_layer_add(res, buf, count, NULL);
    }
    if (st == SN_OK)
        st = sn_network_set_name(res, sn_network_name(net));
    sn_free(map);
    sn_free(buf);
    if (st != SN_OK) {
        sn_network_destroy(res);
        return st;
    }
    *out = res;
    return SN_OK;
}
