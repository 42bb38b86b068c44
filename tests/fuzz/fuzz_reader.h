/* fuzz_reader.h - the body shared by the network readers' fuzz targets:
 * parse the input in one format and, when it parses, check what the
 * library promises about every network it hands out, then write it back
 * out and read that again (the writer's output must be readable).
 * Include it after defining FUZZ_FORMAT. */
#ifndef SN_FUZZ_READER_H
#define SN_FUZZ_READER_H

#include <stdio.h>

#include "core/format.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

/* Write net in format f and parse the text again: it must parse, with the
 * same number of comparators. */
static void check_round_trip(const sn_network *net, sn_format f)
{
    if (f == SN_FORMAT_JSON && !sn_format_have_json())
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    sn_status st = sn_network_write(net, f, m, NULL);
    if (fclose(m) != 0 || st != SN_OK) {
        free(buf);
        return; /* e.g. out of memory: not the reader's fault */
    }
    sn_network *again = NULL;
    sn_diag d;
    st = sn_network_parse(buf, len, f, &again, &d);
    if (st == SN_OK && sn_network_size(again) != sn_network_size(net)) {
        fprintf(stderr, "round trip through %s changed the size: %zu -> %zu\n", sn_format_name(f),
                sn_network_size(net), sn_network_size(again));
        abort();
    }
    if (st != SN_OK && st != SN_ENOMEM && st != SN_ELIMIT) {
        fprintf(stderr, "%s written by sn_network_write does not parse: %s\n%.*s\n",
                sn_format_name(f), d.text, (int)(len < 2000 ? len : 2000), buf);
        abort();
    }
    sn_network_destroy(again);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sn_format guess = sn_format_detect((const char *)data, size);
    if (guess != SN_FORMAT_UNKNOWN && guess != SN_FORMAT_BRACKET && guess != SN_FORMAT_JSON &&
        guess != SN_FORMAT_SN)
        abort();
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_network_parse((const char *)data, size, FUZZ_FORMAT, &net, &d);
    if (st != SN_OK) {
        /* A failure leaves no network and always explains itself. */
        if (net != NULL || (st != SN_ENOMEM && d.text[0] == '\0')) {
            fprintf(stderr, "failed parse: status %d, network %p, empty message\n", (int)st,
                    (void *)net);
            abort();
        }
        return 0;
    }
    fuzz_check_network(net);
    if (sn_network_size(net) <= 4096) {
        check_round_trip(net, SN_FORMAT_BRACKET);
        check_round_trip(net, SN_FORMAT_SN);
        check_round_trip(net, SN_FORMAT_JSON);
    }
    sn_network_destroy(net);
    return 0;
}

#endif
