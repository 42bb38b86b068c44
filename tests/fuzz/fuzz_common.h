/* fuzz_common.h - what the libFuzzer targets share: tighter limits, so one
 * input cannot make an execution slow or large, and a NUL-terminated copy of
 * the input for the functions that take C strings.
 *
 * The limits are lowered (not raised): a reader must refuse anything over
 * them with SN_ELIMIT before it allocates, which the fuzzer then exercises
 * with small inputs. */
#ifndef SN_FUZZ_COMMON_H
#define SN_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/network.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Called once from LLVMFuzzerInitialize. */
static inline void fuzz_set_limits(void)
{
    sn_limits l = {1u << 16, (size_t)1 << 20, (size_t)1 << 16};
    sn_limits_set(l);
}

/* A malloc'd NUL-terminated copy of data[0..size) (plain malloc: the
 * harness, not the library, owns it). NULL only when out of memory. */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (s) {
        if (size)
            memcpy(s, data, size);
        s[size] = '\0';
    }
    return s;
}

/* Every layer non-empty, wires in range, a != b, pairwise disjoint. */
static inline void fuzz_check_network(const sn_network *net)
{
    uint32_t n = sn_network_wires(net);
    size_t layers = sn_network_layer_count(net), total = 0;
    unsigned char *seen = calloc(n ? n : 1, 1);
    if (!seen)
        return;
    for (size_t k = 0; k < layers; k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        if (count == 0 || sn_network_layer_offset(net, k) != total)
            abort();
        for (size_t i = 0; i < count; i++) {
            if (c[i].a >= n || c[i].b >= n || c[i].a == c[i].b || seen[c[i].a] || seen[c[i].b])
                abort();
            seen[c[i].a] = seen[c[i].b] = 1;
        }
        for (size_t i = 0; i < count; i++)
            seen[c[i].a] = seen[c[i].b] = 0;
        total += count;
    }
    if (total != sn_network_size(net))
        abort();
    free(seen);
}

#endif
