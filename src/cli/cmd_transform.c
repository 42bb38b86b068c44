/* cmd_transform.c - `sortnet transform NET [ops] [-o FILE] [--format F]`:
 * the network algebra (core/transform.h), operations applied in the order
 * given, each reported on stderr with the size and depth before and after. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/analysis.h"
#include "core/format.h"
#include "core/transform.h"

#define MAX_OPS 64

static void help(void)
{
    printf("usage: sortnet transform NET [OPERATION...] [-o FILE] [--format F]\n\n"
           "Apply operations to NET in the order given and write the result (bracket,\n"
           "json or sn; `sortnet draw` pictures it). Each operation reports on stderr\n"
           "the comparators and layers before and after it.\n\n"
           "  --normalize      untangle into standard form (Knuth 5.3.4-16: a reversed\n"
           "                   comparator is turned round and its wires exchanged in\n"
           "                   every later one); same size and depth; `gen --standard`\n"
           "  --reflect        mirror the wires: (a, b) becomes (n-1-a, n-1-b); a sorter\n"
           "                   then sorts descending, and sorts again after --normalize\n"
           "  --cut W:min|max  fix input W to -infinity (min) or +infinity (max) and\n"
           "                   remove its wire: a sorter on n wires becomes one on n-1\n"
           "                   (libsortnetwork's sn-cut)\n"
           "  --prune          remove the comparators that never swap on any input\n"
           "                   (found by the exhaustive checker: at most 64 wires)\n"
           "  --concat NET2    append NET2's layers (the same number of wires)\n"
           "  --permute P      relabel the wires: wire i becomes P[i] (P = p0,p1,..., a\n"
           "                   permutation of 0..n-1); may reverse comparators\n"
           "  --compact        move every comparator to the earliest layer its wires\n"
           "                   allow (as few layers as the comparator order permits)\n"
           "  --format F       bracket (default), json or sn\n"
           "  -o FILE          write to FILE (atomically) instead of standard output\n"
           "  -h, --help       this text\n");
}

typedef struct op {
    int code;        /* the getopt code */
    const char *arg; /* borrowed from argv */
} op;

static int parse_cut(const char *arg, uint32_t n, uint32_t *wire, bool *to_max)
{
    const char *colon = strchr(arg, ':');
    char num[24];
    uint64_t v;
    size_t len = colon ? (size_t)(colon - arg) : 0;
    if (!colon || len == 0 || len >= sizeof num ||
        (strcmp(colon + 1, "min") != 0 && strcmp(colon + 1, "max") != 0))
        return cli_error(CLI_USAGE, "--cut", "'%s' is not WIRE:min or WIRE:max (e.g. 0:min)", arg);
    memcpy(num, arg, len);
    num[len] = '\0';
    if (!cli_parse_u64(num, 0, n ? n - 1 : 0, &v) || n < 2)
        return cli_error(CLI_USAGE, "--cut", "'%s': the network has wires 0..%u%s", num,
                         n ? n - 1 : 0, n < 2 ? " (nothing left to cut)" : "");
    *wire = (uint32_t)v;
    *to_max = strcmp(colon + 1, "max") == 0;
    return 0;
}

static int parse_perm(const char *arg, uint32_t n, uint32_t **out)
{
    uint32_t *p = sn_calloc((size_t)n + 1, sizeof *p);
    if (!p)
        return cli_error(CLI_DEVICE, "--permute", "out of memory");
    uint32_t count = 0;
    const char *s = arg;
    while (*s) {
        char num[24];
        uint64_t v;
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof num || count >= n) {
            sn_free(p);
            return cli_error(CLI_USAGE, "--permute", "'%s' is not a list of %u wires: %s", arg, n,
                             count >= n ? "too many entries" : "an empty or overlong entry");
        }
        memcpy(num, s, len);
        num[len] = '\0';
        if (!cli_parse_u64(num, 0, UINT32_MAX, &v)) {
            sn_free(p);
            return cli_error(CLI_USAGE, "--permute", "entry %u, '%s', is not a number", count + 1,
                             num);
        }
        p[count++] = (uint32_t)v;
        s += len + (s[len] == ',');
    }
    if (count != n) {
        sn_free(p);
        return cli_error(CLI_USAGE, "--permute", "'%s' has %u entries; the network has %u wires",
                         arg, count, n);
    }
    *out = p;
    return 0;
}

/* Apply one operation to *net (replaced on success). */
static int apply(const op *o, sn_network **net)
{
    sn_network *next = NULL, *cur = *net;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = SN_OK;
    uint32_t n = sn_network_wires(cur), wire = 0, *perm = NULL;
    bool to_max = false;
    size_t removed = 0;
    int rc = 0;
    switch (o->code) {
    case 'N': st = sn_network_to_standard(cur, &next); break;
    case 'R': st = sn_transform_reflect(cur, &next, &d); break;
    case 'C':
        if ((rc = parse_cut(o->arg, n, &wire, &to_max)) != 0)
            return rc;
        st = sn_transform_cut(cur, wire, to_max, &next, &d);
        break;
    case 'P': st = sn_transform_prune(cur, &next, &removed, &d); break;
    case 'K': st = sn_transform_compact(cur, &next, &d); break;
    case 'A': {
        sn_network *other = NULL;
        if ((rc = cli_load_network(o->arg, NULL, &other)) != 0)
            return rc;
        st = sn_transform_concat(cur, other, &next, &d);
        sn_network_destroy(other);
        break;
    }
    default: /* 'M': cmd_transform queues no other code */
        if ((rc = parse_perm(o->arg, n, &perm)) != 0)
            return rc;
        st = sn_transform_permute(cur, perm, &next, &d);
        sn_free(perm);
        break;
    }
    static const struct {
        int code;
        const char *name;
    } names[] = {{'N', "--normalize"}, {'R', "--reflect"}, {'C', "--cut"},    {'P', "--prune"},
                 {'K', "--compact"},   {'A', "--concat"},  {'M', "--permute"}};
    const char *name = "?";
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].code == o->code)
            name = names[i].name;
    if (st != SN_OK)
        return cli_error(cli_status_exit(st), name, "%s", sn_diag_text(&d, st));
    fprintf(stderr,
            "sortnet: transform: %s%s%s: %u wires, %zu comparators, %zu layers -> %u "
            "wires, %zu comparators, %zu layers",
            name, o->arg ? " " : "", o->arg ? o->arg : "", n, sn_network_size(cur),
            sn_network_layer_count(cur), sn_network_wires(next), sn_network_size(next),
            sn_network_layer_count(next));
    if (o->code == 'P')
        fprintf(stderr, " (%zu redundant removed)", removed);
    fprintf(stderr, "\n");
    sn_network_destroy(cur);
    *net = next;
    return 0;
}

static int write_net(const sn_network *net, sn_format fmt, const char *path)
{
    cli_out out;
    sn_diag d;
    sn_diag_clear(&d);
    int rc = cli_out_open(&out, path);
    if (rc)
        return rc;
    sn_status st = sn_network_write(net, fmt, out.f, &d);
    if (st != SN_OK) {
        cli_out_abort(&out);
        return cli_error(cli_status_exit(st), path, "%s", sn_diag_text(&d, st));
    }
    return cli_out_commit(&out);
}

int cmd_transform(int argc, char **argv)
{
    static const struct option opts[] = {
        {"normalize", 0, NULL, 'N'}, {"standard", 0, NULL, 'N'}, {"reflect", 0, NULL, 'R'},
        {"cut", 1, NULL, 'C'},       {"prune", 0, NULL, 'P'},    {"concat", 1, NULL, 'A'},
        {"permute", 1, NULL, 'M'},   {"compact", 0, NULL, 'K'},  {"format", 1, NULL, 'f'},
        {"output", 1, NULL, 'o'},    {"help", 0, NULL, 'h'},     {NULL, 0, NULL, 0}};
    op ops[MAX_OPS];
    size_t nops = 0;
    sn_format fmt = SN_FORMAT_BRACKET;
    const char *out_path = "-";
    int c;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (!sn_format_parse(optarg, &fmt))
                return cli_error(CLI_USAGE, "--format", "'%s' is not a format (bracket, json, sn)",
                                 optarg);
            break;
        case 'o': out_path = optarg; break;
        case 'h': help(); return CLI_OK;
        case 'N':
        case 'R':
        case 'C':
        case 'P':
        case 'A':
        case 'M':
        case 'K':
            if (nops == MAX_OPS)
                return cli_error(CLI_USAGE, "transform", "at most %d operations", MAX_OPS);
            ops[nops++] = (op){c, (c == 'C' || c == 'A' || c == 'M') ? optarg : NULL};
            break;
        default: return cli_bad_option("transform", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "transform", "expected one network (see --help)");
    sn_network *net = NULL;
    int rc = cli_load_network(argv[optind], NULL, &net);
    for (size_t i = 0; rc == 0 && i < nops; i++)
        rc = apply(&ops[i], &net);
    if (rc == 0)
        rc = write_net(net, fmt, out_path);
    sn_network_destroy(net);
    return rc;
}
