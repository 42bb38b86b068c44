/* cmd_info.c - `sortnet info NET [--json]`: size, depth, layer sizes,
 * standard form, redundant comparators and the "sorts" verdict. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/analysis.h"
#ifdef SN_HAVE_CHECK
#include "core/check.h"
#endif
#ifdef SN_HAVE_JANSSON
#include <jansson.h>
#endif

/* The checker runs inside info only up to this many wires (issue 3). */
#define INFO_CHECK_MAX_WIRES 32

static void help(void)
{
    printf("usage: sortnet info NET [--json]\n\n"
           "Describe NET: inputs, size (comparators), depth (layers), the size of each\n"
           "layer, whether every comparator is in standard form (min on the lower wire),\n"
           "and, for n <= %d, whether it sorts and which comparators never swap.\n\n"
           "  --json       one JSON object on stdout\n"
           "  -h, --help   this text\n",
           INFO_CHECK_MAX_WIRES);
}

typedef struct info {
    uint32_t n;
    size_t size, depth;
    size_t *layer_sizes;
    bool standard;
    int sorts; /* -1 unknown, 0 no, 1 yes */
    bool have_redundant;
    size_t *redundant;
    size_t nredundant;
} info;

static int gather(const sn_schedule *s, info *in)
{
    memset(in, 0, sizeof *in);
    in->sorts = -1;
    in->n = sn_schedule_wires(s);
    in->depth = sn_schedule_layer_count(s);
    in->layer_sizes = sn_calloc(in->depth ? in->depth : 1, sizeof *in->layer_sizes);
    if (!in->layer_sizes)
        return cli_error(CLI_USAGE, "info", "out of memory");
    for (size_t k = 0; k < in->depth; k++) {
        in->layer_sizes[k] = sn_schedule_layer_size(s, k);
        in->size += in->layer_sizes[k];
    }
    const sn_network *net = sn_schedule_network(s);
    /* Generated closed forms are standard by construction. */
    in->standard = net ? sn_network_is_standard(net) : true;
#ifdef SN_HAVE_CHECK
    if (in->n <= INFO_CHECK_MAX_WIRES) {
        sn_network *owned = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        if (!net && sn_schedule_to_network(s, &owned, &d) == SN_OK)
            net = owned;
        bool sorts;
        if (net && sn_check_quick(net, &sorts, &in->redundant, &in->nredundant, &d) == SN_OK) {
            in->sorts = sorts;
            in->have_redundant = true;
        }
        sn_network_destroy(owned);
    }
#endif
    return 0;
}

static void print_text(const sn_schedule *s, const info *in)
{
    printf("network:   %s\n", sn_schedule_name(s));
    printf("inputs:    %u\n", in->n);
    printf("size:      %zu comparators\n", in->size);
    printf("depth:     %zu layers\n", in->depth);
    printf("layers:   ");
    size_t shown = in->depth < 64 ? in->depth : 64;
    for (size_t k = 0; k < shown; k++)
        printf(" %zu", in->layer_sizes[k]);
    if (shown < in->depth)
        printf(" ... (%zu more)", in->depth - shown);
    printf("\nstandard:  %s\n", in->standard ? "yes" : "no (has reversed comparators)");
    if (in->sorts < 0 && in->n > INFO_CHECK_MAX_WIRES)
        printf("sorts:     not checked (n > %d; use `sortnet check`)\n", INFO_CHECK_MAX_WIRES);
    else if (in->sorts < 0)
        printf("sorts:     not checked (the 0-1 checker is not part of this build)\n");
    else
        printf("sorts:     %s\n", in->sorts ? "yes (proved by the 0-1 principle)" : "no");
    if (in->have_redundant) {
        printf("redundant: ");
        if (!in->nredundant)
            printf("none");
        for (size_t i = 0; i < in->nredundant; i++)
            printf("%s%zu", i ? " " : "", in->redundant[i]);
        printf("%s\n", in->nredundant ? " (comparator indices, never swap)" : "");
    }
}

#ifdef SN_HAVE_JANSSON
static int print_json(const info *in)
{
    json_t *o = json_object(), *layers = json_array(), *red = NULL;
    for (size_t k = 0; k < in->depth; k++)
        json_array_append_new(layers, json_integer((json_int_t)in->layer_sizes[k]));
    if (in->have_redundant) {
        red = json_array();
        for (size_t i = 0; i < in->nredundant; i++)
            json_array_append_new(red, json_integer((json_int_t)in->redundant[i]));
    }
    json_object_set_new(o, "n", json_integer(in->n));
    json_object_set_new(o, "size", json_integer((json_int_t)in->size));
    json_object_set_new(o, "depth", json_integer((json_int_t)in->depth));
    json_object_set_new(o, "standard", json_boolean(in->standard));
    json_object_set_new(o, "layer_sizes", layers);
    json_object_set_new(o, "redundant", red ? red : json_null());
    json_object_set_new(o, "sorts", in->sorts < 0 ? json_null() : json_boolean(in->sorts));
    int rc = json_dumpf(o, stdout, JSON_COMPACT) == 0 ? 0 : CLI_USAGE;
    putchar('\n');
    json_decref(o);
    return rc;
}
#endif

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", 0, NULL, 'j'}, {"help", 0, NULL, 'h'}, {NULL, 0, NULL, 0}};
    bool json = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("info", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "info", "expected one network (see --help)");
#ifndef SN_HAVE_JANSSON
    if (json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    sn_schedule *s = NULL;
    int rc = cli_load(argv[optind], &s);
    if (rc)
        return rc;
    info in;
    rc = gather(s, &in);
    if (!rc) {
#ifdef SN_HAVE_JANSSON
        if (json)
            rc = print_json(&in);
        else
#endif
            print_text(s, &in);
    }
    sn_free(in.layer_sizes);
    sn_free(in.redundant);
    sn_schedule_destroy(s);
    return rc;
}
