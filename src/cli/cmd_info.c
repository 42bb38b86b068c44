/* cmd_info.c - `sortnet info NET [--layers] [--json]`: size, depth, layer
 * sizes, standard form, redundant comparators and the "sorts" verdict; with
 * --layers the 0-1 principle layer by layer (sorted inputs, wire states). */
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

/* The checker runs inside info only up to this many wires. */
#define INFO_CHECK_MAX_WIRES 32

static void help(void)
{
    printf("usage: sortnet info NET [--layers] [--json]\n\n"
           "Describe NET: inputs, size (comparators), depth (layers), the size of each\n"
           "layer, whether every comparator is in standard form (min on the lower wire),\n"
           "and, for n <= %d, whether it sorts and which comparators never swap.\n\n"
           "  --layers     the 0-1 principle layer by layer (n <= %d): after each layer,\n"
           "               how many of the 2^n 0-1 inputs are sorted, and the shmoo: for\n"
           "               the inputs with h ones, can wire i still hold a 0, a 1 or both\n"
           "  --json       one JSON object on stdout; with --layers it adds \"inputs\" (2^n)\n"
           "               and \"layers\": [{\"layer\":K, \"sorted\":COUNT, \"one_from\":[..],\n"
           "               \"zero_upto\":[..], \"shmoo\":[\"01*..\", ...]}, ...], K = 0 being\n"
           "               the inputs (see README)\n"
           "  -h, --help   this text\n",
           INFO_CHECK_MAX_WIRES, SN_ZERO_ONE_MAX_WIRES);
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
    bool have_layers;
    sn_zero_one zo; /* with --layers */
} info;

static int gather(const sn_schedule *s, info *in)
{
    memset(in, 0, sizeof *in);
    in->sorts = -1;
    in->n = sn_schedule_wires(s);
    in->depth = sn_schedule_layer_count(s);
    in->layer_sizes = sn_calloc(in->depth ? in->depth : 1, sizeof *in->layer_sizes);
    if (!in->layer_sizes)
        return cli_error(CLI_DEVICE, "info", "out of memory");
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

static void print_layers_text(const sn_zero_one *z)
{
    uint32_t n = z->n;
    printf("\n0-1 inputs sorted after each layer (of %llu):\n", (unsigned long long)z->inputs);
    printf("layer     sorted        %%\n");
    for (size_t k = 0; k <= z->layers; k++)
        printf("%5zu %10llu %7.3f%%\n", k, (unsigned long long)z->sorted[k],
               100.0 * (double)z->sorted[k] / (double)z->inputs);
    printf("\nshmoo after each layer: row h = the inputs with h ones, column i = wire i;\n"
           "0: the wire holds only 0s, 1: only 1s, *: either\n");
    size_t per = 96 / (n + 3);
    per = per ? per : 1;
    for (size_t k0 = 0; k0 <= z->layers; k0 += per) {
        size_t k1 = k0 + per <= z->layers + 1 ? k0 + per : z->layers + 1;
        printf("\n   h");
        for (size_t k = k0; k < k1; k++)
            printf("   %-*zu", (int)n, k);
        putchar('\n');
        for (uint32_t h = 0; h <= n; h++) {
            printf("%4u", h);
            for (size_t k = k0; k < k1; k++) {
                printf("   ");
                for (uint32_t i = 0; i < n; i++)
                    putchar(sn_zero_one_char(sn_zero_one_state(z, k, h, i)));
            }
            putchar('\n');
        }
    }
}

/* Which construction gives s: the generator's description, or what the
 * name says for merging networks, the library and files. */
static const char *construction(const sn_schedule *s)
{
    sn_algo a = sn_schedule_algo(s);
    const char *name = sn_schedule_name(s);
    if (a != SN_ALGO_EXPLICIT)
        return sn_algo_describe(a, sn_schedule_wires(s));
    static const struct {
        const char *prefix, *what;
    } known[] = {
        {"merge:", "Batcher's odd-even merge of sorted wires [0, A) and [A, n): a merging "
                   "network (sortnet check --merge A)"},
        {"bitonic-merge:", "the bitonic merger of sorted halves floor(n/2) and ceil(n/2), "
                           "untangled to standard form: a merging network (check --merge)"},
        {"half-cleaner:", "one layer (i, i + ceil(n/2)): the first step of a bitonic merge"},
        {"median:", "the best-known median network from the library (SorterHunter): a "
                    "selection network, not a sorter (sortnet check median:N proves it)"},
        {"lib:Median_", "a best-known median network from the library (SorterHunter): a "
                        "selection network (check --select)"},
        {"best:", "the best-known sorting network with the fewest comparators (library)"},
        {"best-depth:", "the best-known sorting network with the fewest layers (library)"},
        {"lib:", "a network from the shipped library (sortnet list)"},
        {"empty:", "no comparators (a start for editing)"},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strncmp(name, known[i].prefix, strlen(known[i].prefix)) == 0)
            return known[i].what;
    return "a network read from a file";
}

static void print_text(const sn_schedule *s, const info *in)
{
    printf("network:   %s\n", sn_schedule_name(s));
    printf("construction: %s\n", construction(s));
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
    if (in->have_layers)
        print_layers_text(&in->zo);
}

#ifdef SN_HAVE_JANSSON
static int print_json(const sn_schedule *s, const info *in)
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
    json_object_set_new(o, "construction", json_string(construction(s)));
    json_object_set_new(o, "size", json_integer((json_int_t)in->size));
    json_object_set_new(o, "depth", json_integer((json_int_t)in->depth));
    json_object_set_new(o, "standard", json_boolean(in->standard));
    json_object_set_new(o, "layer_sizes", layers);
    json_object_set_new(o, "redundant", red ? red : json_null());
    json_object_set_new(o, "sorts", in->sorts < 0 ? json_null() : json_boolean(in->sorts));
    if (in->have_layers) {
        const sn_zero_one *z = &in->zo;
        json_t *arr = json_array();
        char row[SN_ZERO_ONE_MAX_WIRES + 1];
        for (size_t k = 0; k <= z->layers; k++) {
            json_t *e = json_object(), *f1 = json_array(), *u0 = json_array(), *sh = json_array();
            for (uint32_t i = 0; i < z->n; i++) {
                int16_t a = z->one_from[k * z->n + i], b = z->zero_upto[k * z->n + i];
                json_array_append_new(f1, a > (int16_t)z->n ? json_null() : json_integer(a));
                json_array_append_new(u0, b < 0 ? json_null() : json_integer(b));
            }
            for (uint32_t h = 0; h <= z->n; h++) {
                for (uint32_t i = 0; i < z->n; i++)
                    row[i] = sn_zero_one_char(sn_zero_one_state(z, k, h, i));
                row[z->n] = '\0';
                json_array_append_new(sh, json_string(row));
            }
            json_object_set_new(e, "layer", json_integer((json_int_t)k));
            json_object_set_new(e, "sorted", json_integer((json_int_t)z->sorted[k]));
            json_object_set_new(e, "one_from", f1);
            json_object_set_new(e, "zero_upto", u0);
            json_object_set_new(e, "shmoo", sh);
            json_array_append_new(arr, e);
        }
        json_object_set_new(o, "inputs", json_integer((json_int_t)z->inputs));
        json_object_set_new(o, "layers", arr);
    }
    return cli_json_print(o, JSON_COMPACT);
}
#endif

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"json", 0, NULL, 'j'},
                                         {"layers", 0, NULL, 'l'},
                                         {"help", 0, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    bool json = false, layers = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'l': layers = true; break;
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
    if (layers) {
        uint32_t n = sn_schedule_wires(s);
        if (n > SN_ZERO_ONE_MAX_WIRES) {
            rc = cli_error(CLI_USAGE, "--layers",
                           "%s has %u wires; the 0-1 inputs are counted layer by layer for at "
                           "most %d wires (2^%d inputs); `sortnet check` proves larger networks",
                           sn_schedule_name(s), n, SN_ZERO_ONE_MAX_WIRES, SN_ZERO_ONE_MAX_WIRES);
            sn_schedule_destroy(s);
            return rc;
        }
    }
    rc = gather(s, &in);
    if (!rc && layers) {
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_zero_one_profile(s, SN_ZERO_ONE_MAX_WIRES, 0, &in.zo, &d);
        if (st != SN_OK)
            rc = cli_error(cli_status_exit(st), "--layers", "%s", sn_diag_text(&d, st));
        in.have_layers = st == SN_OK;
    }
    if (!rc) {
#ifdef SN_HAVE_JANSSON
        if (json)
            rc = print_json(s, &in);
        else
#endif
            print_text(s, &in);
    }
    sn_free(in.layer_sizes);
    sn_free(in.redundant);
    sn_zero_one_free(&in.zo);
    sn_schedule_destroy(s);
    return rc;
}
