/* fuzz_dist.c - libFuzzer target for the "dist:P[xK][,NET]" names of
 * `draw` and `view` (sn_dist_spec_parse) and the merge-split values they
 * lead to (sn_dist_blocks_make).
 *
 * A name that parses must have 1..SN_DIST_MAX_RANKS ranks, 1..
 * SN_DIST_MAX_KEYS keys and a terminated network name; one that fails
 * must say why. When its network is a generator (':' in it, no '/', no
 * existing file: never an arbitrary path) that loads on P wires, the
 * blocks are computed and checked: every block sorted at every step, the
 * keys 1..P*K kept at every step. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/format.h"
#include "core/schedule.h"
#include "fuzz_common.h"
#include "render/dist_scene.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

static void check_blocks(const sn_schedule *s, uint32_t keys)
{
    sn_dist_blocks b;
    sn_diag d;
    if (sn_dist_blocks_make(s, keys, 7, &b, &d) != SN_OK)
        return;
    size_t n = (size_t)b.ranks * b.keys;
    unsigned char *seen = calloc(n + 1, 1);
    for (size_t k = 0; seen && k <= b.layers; k++) {
        memset(seen, 0, n + 1);
        for (uint32_t r = 0; r < b.ranks; r++) {
            const uint32_t *blk = sn_dist_block(&b, k, r);
            for (uint32_t i = 0; i < b.keys; i++) {
                if (blk[i] < 1 || blk[i] > n || seen[blk[i]]++ || (i && blk[i - 1] >= blk[i]))
                    abort();
            }
        }
    }
    free(seen);
    sn_dist_blocks_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 96 || memchr(data, '\0', size))
        return 0;
    char *spec = fuzz_strdup(data, size);
    if (!spec)
        return 0;
    sn_dist_spec ds;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_dist_spec_parse(spec, &ds, &d);
    if (st != SN_OK) {
        if (d.text[0] == '\0')
            abort();
    } else {
        if (ds.ranks < 1 || ds.ranks > SN_DIST_MAX_RANKS || ds.keys < 1 ||
            ds.keys > SN_DIST_MAX_KEYS || memchr(ds.net, '\0', sizeof ds.net) == NULL)
            abort();
        if (strchr(ds.net, ':') && !strchr(ds.net, '/') && access(ds.net, F_OK) != 0) {
            sn_schedule *s = NULL;
            if (sn_schedule_load(ds.net, &s, &d) == SN_OK && sn_schedule_wires(s) == ds.ranks &&
                sn_schedule_layer_count(s) <= 256)
                check_blocks(s, ds.keys);
            sn_schedule_destroy(s);
        }
    }
    free(spec);
    return 0;
}
