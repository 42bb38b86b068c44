/* cmd_gen.c - `sortnet gen NET [--format bracket|json|sn] [--standard]
 * [-o FILE]`: write a network (generated or read) in a file format. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/analysis.h"
#include "core/format.h"

static void help(void)
{
    printf("usage: sortnet gen NET [--format bracket|json|sn] [--standard] [-o FILE]\n\n"
           "Write NET (a generator such as bitonic:16, a file, or - for stdin) as text.\n\n"
           "  --format F   bracket (default; one layer per line: [(0,2),(1,3)]),\n"
           "               json ({\"N\":..,\"L\":..,\"D\":..,\"nw\":[[a,b],...]}),\n"
           "               sn (libsortnetwork's text format)\n"
           "  --standard   convert to standard form first (untangle reversed comparators)\n"
           "  -o FILE      write to FILE (atomically) instead of standard output\n"
           "  -h, --help   this text\n\n"
           "Generators (any n; t = ceil(lg n); S = comparators, D = layers; details and\n"
           "tables in docs/constructions.md):\n"
           "  oddeven-merge:N      Batcher, balanced split: S(n) = S(floor(n/2)) +\n"
           "                       S(ceil(n/2)) + M(floor(n/2), ceil(n/2)), M(a,b) =\n"
           "                       M(ceil(a/2), ceil(b/2)) + M(floor(a/2), floor(b/2)) +\n"
           "                       floor((a+b-1)/2), M(1,1) = 1; D <= t(t+1)/2\n"
           "  bitonic:N            balanced split: S(n) = S(floor(n/2)) + S(ceil(n/2)) +\n"
           "                       B(n), B(m) = floor(m/2) + B(ceil(m/2)) + B(floor(m/2));\n"
           "                       D <= t(t+1)/2; n = 2^t: S = n t(t+1)/4\n"
           "  oddeven-merge-pad:N  the 2^t network, wires >= n dropped (closed form, as\n"
           "  bitonic-pad:N        the GPU runs it); for n = 2^t the same as above\n"
           "  merge-exchange:N     Knuth's Algorithm 5.2.2M; n = 2^t: S = (t^2-t+4)2^(t-2)-1,\n"
           "                       D = t(t+1)/2\n"
           "  bose-nelson:N        Bose-Nelson (1962): S(n) = S(floor(n/2)) + S(ceil(n/2))\n"
           "                       + BN(floor(n/2), ceil(n/2)); n = 2^t: S = 3^t - 2^t\n"
           "  hibbard:N            Hibbard (1963): the same comparator count as Bose-Nelson\n"
           "  balanced:N           Dowd-Perl-Rudolph-Saks: t blocks of t layers, S = t^2\n"
           "                       2^(t-1), D = t^2 (padded to 2^t when n is not a power\n"
           "                       of two; comparators on wires >= n dropped)\n"
           "  pairwise:N  transposition:N  bubble:N  insertion:N  bitonic-classic:N\n"
           "  empty:N              no comparators\n"
           "Merging networks: merge:A,B (odd-even merge of sorted parts of A and B wires),\n"
           "bitonic-merge:N (parts floor(N/2), ceil(N/2)), half-cleaner:N (one layer).\n"
           "Library: best:N, best-depth:N, median:N, lib:NAME (sortnet list).\n");
}

int cmd_gen(int argc, char **argv)
{
    static const struct option opts[] = {{"format", 1, NULL, 'f'},
                                         {"output", 1, NULL, 'o'},
                                         {"standard", 0, NULL, 's'},
                                         {"help", 0, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    sn_format fmt = SN_FORMAT_BRACKET;
    const char *out_path = "-";
    bool standard = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (!sn_format_parse(optarg, &fmt))
                return cli_error(CLI_USAGE, "--format", "'%s' is not a format (bracket, json, sn)",
                                 optarg);
            break;
        case 'o': out_path = optarg; break;
        case 's': standard = true; break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("gen", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "gen", "expected one network (see --help)");

    sn_schedule *s = NULL;
    int rc = cli_load(argv[optind], &s);
    if (rc)
        return rc;
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_to_network(s, &net, &d);
    if (st == SN_OK && standard) {
        sn_network *std_net = NULL;
        st = sn_network_to_standard(net, &std_net);
        sn_network_destroy(net);
        net = std_net;
    }
    if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), sn_schedule_name(s), "%s",
                       d.text[0] ? d.text : sn_status_str(st));
        goto done;
    }
    cli_out out;
    if ((rc = cli_out_open(&out, out_path)) != 0)
        goto done;
    st = sn_network_write(net, fmt, out.f, &d);
    if (st != SN_OK) {
        cli_out_abort(&out);
        rc = cli_error(cli_status_exit(st), out_path, "%s", d.text[0] ? d.text : sn_status_str(st));
        goto done;
    }
    rc = cli_out_commit(&out);
done:
    sn_network_destroy(net);
    sn_schedule_destroy(s);
    return rc;
}
