/* fuzz_name.c - libFuzzer target for the network names of the command
 * line ("bitonic:16", "oem:7", ...) through sn_schedule_load.
 *
 * sn_schedule_load also opens files, so the harness only passes strings
 * that contain ':' and no '/', are short, and name no existing file: the
 * fuzzer must never read (or block on) an arbitrary path. A schedule that
 * loads is checked: n >= 1, every layer non-empty, and for small n the
 * materialized network satisfies the network invariants and has the same
 * layers as the schedule. */
#include <stdio.h>
#include <unistd.h>

#include "core/format.h"
#include "core/schedule.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

static void check_schedule(const sn_schedule *s)
{
    uint32_t n = sn_schedule_wires(s);
    size_t layers = sn_schedule_layer_count(s);
    if (n == 0 || sn_schedule_name(s) == NULL)
        abort();
    if (n > 512)
        return; /* closed forms may be huge: counting their pairs is O(n * depth) */
    sn_network *net = NULL;
    if (sn_schedule_to_network(s, &net, NULL) != SN_OK)
        return;
    fuzz_check_network(net);
    if (sn_network_layer_count(net) != layers || sn_network_wires(net) != n)
        abort();
    sn_comparator *pairs = malloc(n * sizeof *pairs);
    for (size_t k = 0; pairs && k < layers; k++) {
        size_t count, got = sn_schedule_layer_pairs(s, k, pairs, n);
        sn_network_layer(net, k, &count);
        if (got == 0 || got != count || got != sn_schedule_layer_size(s, k))
            abort();
    }
    free(pairs);
    sn_network_destroy(net);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || size > 64 || memchr(data, ':', size) == NULL || memchr(data, '/', size) ||
        memchr(data, '\0', size) || data[0] == '-')
        return 0;
    char *spec = fuzz_strdup(data, size);
    if (!spec)
        return 0;
    if (access(spec, F_OK) != 0) {
        sn_schedule *s = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_schedule_load(spec, &s, &d);
        if (st == SN_OK) {
            check_schedule(s);
            sn_schedule_destroy(s);
        } else if (s != NULL || (d.text[0] == '\0' && st != SN_ENOMEM)) {
            fprintf(stderr, "sn_schedule_load('%s') failed (status %d) without a message\n", spec,
                    (int)st);
            abort();
        }
    }
    free(spec);
    return 0;
}
