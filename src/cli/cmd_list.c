/* cmd_list.c - `sortnet list [--n N] [--json]`: the shipped network library
 * (core/library.h): every network with its names, size, depth, whether
 * that size or depth is proven optimal, and where it comes from. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/library.h"
#ifdef SN_HAVE_JANSSON
#include <jansson.h>
#endif

static void help(void)
{
    uint32_t lo, hi;
    sn_library_best_range(&lo, &hi);
    printf("usage: sortnet list [--n N] [--json]\n\n"
           "List the networks that ship inside sortnet (assets/networks): the best-known\n"
           "sorting networks for n = %u..%u (SorterHunter's list, by Bert Dobbelaere) and\n"
           "libsortnetwork's examples, and the best-known median networks for n = 3..32\n"
           "(SorterHunter; KIND median: not sorters, `sortnet check median:N` proves the\n"
           "median). Every one of them can be named wherever a command takes NET:\n\n"
           "  best:N        the best-known network on N inputs with the fewest comparators\n"
           "                (ties broken by fewer layers)\n"
           "  best-depth:N  the best-known one with the fewest layers (ties broken by\n"
           "                fewer comparators)\n"
           "  median:N      the best-known median network on N inputs (fewest\n"
           "                comparators, ties broken by fewer layers)\n"
           "  lib:NAME      any library network by the NAME this list shows\n\n"
           "\"proven optimal\" marks a size or depth that published proofs show no network\n"
           "on n inputs can beat (size: n <= 12; depth: n <= 17).\n\n"
           "  --n N        only the networks on N inputs\n"
           "  --json       one JSON array on stdout\n"
           "  -h, --help   this text\n",
           lo, hi);
}

/* "best:16 best-depth:16", "best:3", or "". */
static const char *aliases(const sn_library_info *e, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (e->kind == SN_LIBRARY_MEDIAN && sn_library_median(e->n) == sn_library_find(e->stem))
        snprintf(buf, cap, "median:%u", e->n);
    else if (e->best_size && e->best_depth)
        snprintf(buf, cap, "best:%u best-depth:%u", e->n, e->n);
    else if (e->best_size)
        snprintf(buf, cap, "best:%u", e->n);
    else if (e->best_depth)
        snprintf(buf, cap, "best-depth:%u", e->n);
    return buf;
}

static const char *proven(const sn_library_info *e)
{
    if (e->size_optimal && e->depth_optimal)
        return "size, depth";
    return e->size_optimal ? "size" : e->depth_optimal ? "depth" : "-";
}

static void print_text(uint32_t only_n)
{
    char name[96], also[64];
    size_t shown = 0;
    printf("%-24s %-24s %3s %5s %6s  %-15s %-14s %s\n", "NAME", "ALSO", "N", "SIZE", "DEPTH",
           "PROVEN OPTIMAL", "SOURCE", "KIND");
    sn_library_info e;
    for (size_t i = 0; sn_library_get(i, &e); i++) {
        if (only_n && e.n != only_n)
            continue;
        snprintf(name, sizeof name, "lib:%s", e.stem);
        printf("%-24s %-24s %3u %5u %6u  %-15s %-14s %s\n", name, aliases(&e, also, sizeof also),
               e.n, e.size, e.depth, proven(&e), e.source, sn_library_kind_name(e.kind));
        shown++;
    }
    uint32_t lo, hi;
    sn_library_best_range(&lo, &hi);
    printf("%zu network%s; best:N and best-depth:N for n = %u..%u\n", shown, shown == 1 ? "" : "s",
           lo, hi);
}

#ifdef SN_HAVE_JANSSON
static int print_json(uint32_t only_n)
{
    json_t *arr = json_array();
    char name[96], alias[32];
    sn_library_info e;
    for (size_t i = 0; sn_library_get(i, &e); i++) {
        if (only_n && e.n != only_n)
            continue;
        snprintf(name, sizeof name, "lib:%s", e.stem);
        json_t *also = json_array();
        if (e.best_size) {
            snprintf(alias, sizeof alias, "best:%u", e.n);
            json_array_append_new(also, json_string(alias));
        }
        if (e.best_depth) {
            snprintf(alias, sizeof alias, "best-depth:%u", e.n);
            json_array_append_new(also, json_string(alias));
        }
        if (e.kind == SN_LIBRARY_MEDIAN && sn_library_median(e.n) == i) {
            snprintf(alias, sizeof alias, "median:%u", e.n);
            json_array_append_new(also, json_string(alias));
        }
        json_t *o =
            json_pack("{s:s,s:o,s:I,s:I,s:I,s:b,s:b,s:s,s:s,s:s}", "name", name, "also", also, "n",
                      (json_int_t)e.n, "size", (json_int_t)e.size, "depth", (json_int_t)e.depth,
                      "size_optimal", e.size_optimal, "depth_optimal", e.depth_optimal, "source",
                      e.source, "file", e.path, "kind", sn_library_kind_name(e.kind));
        json_array_append_new(arr, o);
    }
    return cli_json_print(arr, JSON_COMPACT);
}
#endif

int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", 0, NULL, 'j'}, {"n", 1, NULL, 'n'}, {"help", 0, NULL, 'h'}, {NULL, 0, NULL, 0}};
    bool json = false;
    uint64_t only_n = 0;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'n':
            if (!cli_parse_u64(optarg, 1, UINT32_MAX, &only_n))
                return cli_error(CLI_USAGE, "list", "--n: '%s' is not a number of inputs",
                                 optarg);
            break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("list", c, argv);
        }
    }
    if (optind != argc)
        return cli_error(CLI_USAGE, "list", "unexpected argument '%s' (see --help)", argv[optind]);
#ifdef SN_HAVE_JANSSON
    if (json)
        return print_json((uint32_t)only_n);
#else
    if (json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    print_text((uint32_t)only_n);
    return CLI_OK;
}
