/* cmd_gen.c - `sortnet gen NET [--format bracket|json|sn|c|opencl]
 * [--standard] [-o FILE]`: write a network (generated or read) in a file
 * format, or as source code (core/codegen.h). */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <signal.h>
#include <sys/time.h> // for: setitimer (the checker's time limit)

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/analysis.h"
#include "core/check.h"
#include "core/codegen.h"
#include "core/format.h"

static void help(void)
{
    printf("usage: sortnet gen NET [--format bracket|json|sn|c|opencl] [--standard]\n"
           "                      [-o FILE] [--type i32|u32|f32] [--payload]\n\n"
           "Write NET (a generator such as bitonic:16, a file, or - for stdin) as text.\n\n"
           "  --format F   bracket (default; one layer per line: [(0,2),(1,3)]),\n"
           "               json ({\"N\":..,\"L\":..,\"D\":..,\"nw\":[[a,b],...]}),\n"
           "               sn (libsortnetwork's text format),\n"
           "               c (a branch-free C99 function void sort<N>_<name>(int32_t *v)),\n"
           "               opencl (that function in OpenCL C, plus kernels <fn>_rows and\n"
           "               <fn>_columns sorting M arrays at once); the code's header says\n"
           "               whether the 0-1 checker proved the network (run when quick)\n"
           "  --type T     c/opencl: keys i32 (default), u32 or f32 (IEEE totalOrder,\n"
           "               as everywhere in sortnet); the name gets _u32 / _f32\n"
           "  --payload    c/opencl: a uint32_t payload per key moves with it\n"
           "               (function <fn>_kv(keys, payload))\n"
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

/* gen proves a network only when that is quick: the checker is stopped
 * after this many seconds */
#define GEN_CHECK_LIMIT_S 2

/* The checker's cancel flag, set by SIGALRM: a timer, not the checker's
 * progress calls, since some of its methods (the split's merge) call none
 * for minutes. Lock-free, so the handler may store to it. */
static sn_cancel gen_deadline;

static void on_deadline(int sig)
{
    (void)sig;
    atomic_store(&gen_deadline, 1);
}

/* Run the 0-1 checker when it is quick (as `sortnet info` does, and at
 * most GEN_CHECK_LIMIT_S) and say what it found in the code's header. */
static void prove(const sn_network *net, sn_codegen_opts *co, char *note, size_t cap)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    atomic_store(&gen_deadline, 0);
    opt.cancel = &gen_deadline;
    struct sigaction old;
    cli_catch_signal(SIGALRM, on_deadline, 0, &old);
    struct itimerval t = {{0, 0}, {GEN_CHECK_LIMIT_S, 0}}, none = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &t, NULL);
    sn_check_result res;
    sn_diag d;
    sn_diag_clear(&d);
    uint32_t n = sn_network_wires(net);
    sn_status st = sn_check_run(net, &opt, &res, &d);
    setitimer(ITIMER_REAL, &none, NULL);
    sigaction(SIGALRM, &old, NULL);
    if (st != SN_OK) {
        co->proof = SN_PROOF_UNCHECKED;
        if (st == SN_EINTERRUPTED)
            snprintf(note, cap,
                     "no quick proof: stopped after %d s; `sortnet check` runs it "
                     "in full",
                     GEN_CHECK_LIMIT_S);
        else
            snprintf(note, cap, "the 0-1 checker gave up: %.200s",
                     d.text[0] ? d.text : "too large");
    } else if (res.sorts) {
        co->proof = SN_PROOF_SORTS;
        snprintf(note, cap, "%s, all 2^%u 0-1 inputs covered",
                 res.method == SN_CHECK_BRUTEFORCE ? "brute force" : "reachable-pattern reduction",
                 n);
    } else {
        co->proof = SN_PROOF_FAILS;
        size_t k = (size_t)snprintf(note, cap, "the 0-1 input ");
        for (uint32_t i = 0; i < n && k + 2 < cap; i++)
            note[k++] = (char)('0' + res.counterexample[i]);
        snprintf(note + k, cap - k, ", wire 0 first");
    }
    if (co->proof != SN_PROOF_UNCHECKED)
        sn_check_result_free(&res);
    co->proof_note = note;
}

/* --format c|opencl: the network as source code (core/codegen.h). */
static int write_code(const sn_network *net, const char *label, sn_codegen_opts *co,
                      const char *out_path)
{
    char note[256];
    note[0] = '\0';
    /* (past the code's limit nothing is made: no proof to wait for) */
    if (sn_network_size(net) <= SN_CODEGEN_MAX_COMPARATORS)
        prove(net, co, note, sizeof note);
    co->label = label;
    co->generator = "sortnet " SORTNET_VERSION;
    char *code = NULL;
    size_t len = 0;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_codegen(net, co, &code, &len, &d);
    if (st != SN_OK)
        return cli_error(cli_status_exit(st), label, "%s", sn_diag_text(&d, st));
    cli_out out;
    int rc = cli_out_open(&out, out_path);
    if (rc == 0) {
        errno = 0;
        if (fwrite(code, 1, len, out.f) != len) {
            int e = errno ? errno : EIO;
            cli_out_abort(&out);
            rc = cli_error(CLI_USAGE, cli_out_name(out_path), "write failed: %s", strerror(e));
        } else {
            rc = cli_out_commit(&out);
        }
    }
    sn_free(code);
    return rc;
}

int cmd_gen(int argc, char **argv)
{
    static const struct option opts[] = {{"format", 1, NULL, 'f'},   {"output", 1, NULL, 'o'},
                                         {"standard", 0, NULL, 's'}, {"type", 1, NULL, 't'},
                                         {"payload", 0, NULL, 'p'},  {"help", 0, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    sn_format fmt = SN_FORMAT_BRACKET;
    const char *out_path = "-";
    bool standard = false;
    bool code = false; /* --format c|opencl */
    sn_codegen_opts co;
    sn_codegen_opts_init(&co);
    const char *code_only = NULL; /* an option that needs --format c|opencl */
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            code = sn_codegen_lang_parse(optarg, &co.lang);
            if (!code && !sn_format_parse(optarg, &fmt))
                return cli_error(CLI_USAGE, "--format",
                                 "'%s' is not a format (bracket, json, sn, c, opencl)", optarg);
            break;
        case 't':
            if (cli_type_arg(optarg, &co.type))
                return CLI_USAGE;
            code_only = "--type";
            break;
        case 'p':
            co.payload = true;
            code_only = "--payload";
            break;
        case 'o': out_path = optarg; break;
        case 's': standard = true; break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("gen", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "gen", "expected one network (see --help)");
    if (code_only && !code)
        return cli_error(CLI_USAGE, code_only, "applies to --format c or opencl only");

    sn_schedule *s = NULL;
    sn_network *net = NULL;
    int rc = cli_load_network(argv[optind], &s, &net);
    if (rc)
        return rc;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = SN_OK;
    if (standard) {
        sn_network *std_net = NULL;
        st = sn_network_to_standard(net, &std_net);
        sn_network_destroy(net);
        net = std_net;
    }
    if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), sn_schedule_name(s), "%s", sn_diag_text(&d, st));
        goto done;
    }
    if (code) {
        rc = write_code(net, sn_schedule_name(s), &co, out_path);
        goto done;
    }
    cli_out out;
    if ((rc = cli_out_open(&out, out_path)) != 0)
        goto done;
    st = sn_network_write(net, fmt, out.f, &d);
    if (st != SN_OK) {
        cli_out_abort(&out);
        rc = cli_error(cli_status_exit(st), cli_out_name(out_path), "%s", sn_diag_text(&d, st));
        goto done;
    }
    rc = cli_out_commit(&out);
done:
    sn_network_destroy(net);
    sn_schedule_destroy(s);
    return rc;
}
