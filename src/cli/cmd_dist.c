/* cmd_dist.c - `sortnet dist sort`: any sorting network as a distributed
 * sort over MPI ranks (src/mpi), run as `mpirun -np P sortnet dist sort
 * NET --keys N`; and the hook that lets `sortnet check --method
 * bruteforce` under mpirun split its proof over the ranks. Only rank 0
 * prints: the other ranks' errors reach it through sn_dist_agree. */
#include <fcntl.h> // for: open (/dev/null for the other ranks' stderr)
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h> // for: stat (the size of --in, for the memory said up front)
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_dist.h"
#include "cmd_dist_signal.h"
#include "commands.h"
#include "core/network.h"
#include "core/parallel.h"
#include "mpi/dist.h"
#include <mpi.h> // for: MPI_Barrier before the ranks exit
#ifdef SN_HAVE_JANSSON
#include <jansson.h>
#endif

static void dist_help(void)
{
    printf(
        "usage: mpirun -np P sortnet dist sort [NET] --keys N [--seed S] [--type i32|u32|f32]\n"
        "                   [--payload] [--algorithm network|sample] [--network NET|auto]\n"
        "                   [--in FILE] [--out FILE] [--distinct K] [--local auto|cpu|gpu]\n"
        "                   [--threads T]\n"
        "                   [--inject-fault RANK:INDEX] [--timeout S] [--json]\n\n"
        "Sort N keys spread over the P ranks of an MPI job (Open MPI; P = 1 also runs\n"
        "without mpirun). Each rank makes its slice of the keys (key i depends only on\n"
        "the seed and i, so the keys are the same for any P) or reads it from --in,\n"
        "sorts it locally (on the rank's GPU with the radix sort when it has one, the\n"
        "ranks of a host taking its GPUs in turn; else on the CPU with all its cores),\n"
        "then runs the network's layers as merge-splits: each wire is a rank holding a\n"
        "sorted block, each comparator (a, b) an exchange after which rank a keeps the\n"
        "smaller half and rank b the larger (all pairs of a layer at once; only the\n"
        "keys that change sides travel, found by a merge-path search). By the\n"
        "merge-split theorem the blocks end sorted across the ranks iff NET sorts P\n"
        "wires. N need not divide by P (blocks of ceil(N/P), the last ones padded).\n"
        "--algorithm sample is sample sort instead: splitters from a sample of every\n"
        "rank, one all-to-all, a merge.\n\n"
        "Every run is verified: each block sorted, each boundary ordered (rank r's last\n"
        "<= rank r+1's first), the multiset kept (an order-independent hash of all keys\n"
        "before and after, reduced over the ranks), and for N <= 2^24 the whole output\n"
        "gathered on rank 0 and compared with the reference sort. Prints \"identical\"\n"
        "(exit 0) or what broke first (exit 1), the time of each phase and the bytes\n"
        "of keys and payload each rank sent. Errors: 2 bad usage or input (a network\n"
        "not on P wires, an unreadable file), 5 the machine failed (memory, a device, a\n"
        "rank that died or --timeout).\n\n"
        "Memory: rank 0 says first what a rank will need; a run that does not fit (in\n"
        "--max-memory a rank, or in the host's available memory for its ranks together)\n"
        "is refused before any work, naming the limit (exit 5). A rank's slice larger\n"
        "than one sort on its GPU (2^31 keys, or what the device holds) is sorted there\n"
        "in runs, merged on the GPU where they fit there, else on the rank's cores\n"
        "(SN_GPU_STAGE_MERGE=0: on the cores). On a GPU the slice travels through pinned\n"
        "staging in chunks, of 2^22 keys when ranks share a host so that their staging\n"
        "stays in its cache (SN_GPU_STAGE_CHUNK=K sets them); SN_DIST_PINNED=1 makes\n"
        "the slice in pinned memory, copied by DMA alone, which pinning its pages costs\n"
        "first. The report gives the local sort's upload, kernels, download and merge\n"
        "(the slowest rank's).\n\n"
        "  NET, --network NET  a network on P wires (any name or file, see `sortnet\n"
        "                  --help`); auto (default): best:P from the library, or\n"
        "                  oddeven-merge:P past it\n"
        "  --keys N        how many keys (N or 2^K); not with --in\n"
        "  --seed S        the keys' seed (default 1)\n"
        "  --type T        i32 (default), u32 or f32 (IEEE totalOrder)\n"
        "  --payload       carry each key's original index along (a stable sort)\n"
        "  --distinct K    keys drawn from K values only (duplicates)\n"
        "  --algorithm A   network (default) or sample\n"
        "  --in FILE       raw little-endian 4-byte keys, each rank reading its slice\n"
        "                  with MPI-IO (N from the file's size)\n"
        "  --out FILE      the sorted keys, raw little-endian, written with MPI-IO to a\n"
        "                  temporary name that rank 0 renames once every rank wrote\n"
        "                  and the run was verified\n"
        "  --local L       the local sort: auto (default), cpu, gpu (any OpenCL device)\n"
        "  --threads T     merge-split threads a rank (default: the host's cores over\n"
        "                  its ranks)\n"
        "  --inject-fault RANK:INDEX  corrupt key INDEX (from 0) of RANK's block after\n"
        "                  the sort: the verification must catch it (exit 1)\n"
        "  --timeout S     abort the whole job after S seconds (exit 5)\n"
        "  --json          {\"identical\",\"n\",\"ranks\",\"algorithm\",\"network\",\"type\",\n"
        "                  \"payload\",\"local_sort\",\"blocks_sorted\",\"boundaries_ordered\",\n"
        "                  \"multiset_kept\",\"compared\",\"first_unsorted\",\n"
        "                  \"first_broken_boundary\",\"first_mismatch\",\"seconds\",\n"
        "                  \"bytes_sent\",\"keys_per_second\"}\n"
        "  -h, --help      this text\n\n"
        "The distributed proof: `mpirun -np P sortnet check NET --method bruteforce`\n"
        "splits the 0-1 brute force over the ranks, each its range of the inputs on\n"
        "its cores; rank 0 prints the verdict (as one process would) and \"checked on:\n"
        "P MPI ranks\". With `--device opencl` (the method may then be left out) each\n"
        "rank checks its range on its own OpenCL device, the host's GPUs taken in turn\n"
        "by local rank (ranks of a one-GPU host share it; no GPU: the default device,\n"
        "e.g. pocl); `--device opencl:P:D` puts every rank on that device.\n");
}

/* --timeout: the job ends, never hangs (a dead partner blocks an exchange) */
static volatile sig_atomic_t timeout_rank;
static bool by_mpirun; /* started by mpirun, not a process on its own */
static void on_alarm(int sig)
{
    (void)sig;
    if (timeout_rank == 0) {
        static const char m[] = "sortnet: dist sort: --timeout reached (a rank died or is "
                                "stuck); aborting the job\n";
        ssize_t r = write(2, m, sizeof m - 1);
        (void)r;
    }
    sn_dist_output_abandon();
    _exit(CLI_DEVICE);
}

/* stderr of the ranks other than 0 goes to /dev/null while the arguments
 * are parsed (every rank parses the same ones, so one message is enough) */
static int quiet_begin(int rank)
{
    if (rank == 0)
        return -1;
    fflush(stderr);
    int saved = dup(2), nul = open("/dev/null", O_WRONLY);
    if (nul >= 0) {
        dup2(nul, 2);
        close(nul);
    }
    return saved;
}
static void quiet_end(int saved)
{
    if (saved < 0)
        return;
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
}

static int exit_of(sn_status st)
{
    return st == SN_ENOMEM || st == SN_EDEVICE || st == SN_ENODEVICE ? CLI_DEVICE
                                                                     : cli_status_exit(st);
}

static bool parse_count(const char *s, uint64_t *out)
{
    uint64_t e;
    if (s[0] == '2' && s[1] == '^')
        return cli_parse_u64(s + 2, 0, 40, &e) && (*out = 1ull << e, true);
    return cli_parse_u64(s, 1, (1ull << 40), out);
}

/* The options of `dist sort` into *o, *net_spec and *json; 0, or an exit
 * code after printing (-1: --help was printed, exit 0). */
static int parse_args(int argc, char **argv, int rank, int ranks, sn_dist_sort_opts *o,
                      const char **net_spec_out, bool *json_out, uint64_t *timeout_out)
{
    enum {
        O_KEYS = 1,
        O_SEED,
        O_TYPE,
        O_PAY,
        O_ALG,
        O_NET,
        O_IN,
        O_OUT,
        O_FAULT,
        O_TIME,
        O_JSON,
        O_DIST,
        O_LOCAL,
        O_THREADS,
        O_HELP
    };
    static const struct option opts[] = {{"keys", 1, NULL, O_KEYS},
                                         {"seed", 1, NULL, O_SEED},
                                         {"type", 1, NULL, O_TYPE},
                                         {"payload", 0, NULL, O_PAY},
                                         {"algorithm", 1, NULL, O_ALG},
                                         {"network", 1, NULL, O_NET},
                                         {"in", 1, NULL, O_IN},
                                         {"out", 1, NULL, O_OUT},
                                         {"inject-fault", 1, NULL, O_FAULT},
                                         {"timeout", 1, NULL, O_TIME},
                                         {"json", 0, NULL, O_JSON},
                                         {"distinct", 1, NULL, O_DIST},
                                         {"local", 1, NULL, O_LOCAL},
                                         {"threads", 1, NULL, O_THREADS},
                                         {"help", 0, NULL, O_HELP},
                                         {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->die_rank = -1;
    o->compare_max = 1u << 24;
    o->max_memory = cli_max_memory;
    o->host_memory = cli_max_memory ? 0 : cli_memory_limit();
    const char *net_spec = NULL;
    bool json = false, have_keys = false;
    uint64_t v, timeout = 0;
    int c, idx = 0;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
        switch (c) {
        case O_KEYS:
            if (!parse_count(optarg, &o->keys))
                return cli_error(CLI_USAGE, "--keys", "'%s' is not a count of keys (N or 2^K)",
                                 optarg);
            have_keys = true;
            break;
        case O_SEED:
            if (!cli_parse_u64(optarg, 0, UINT64_MAX, &o->seed))
                return cli_error(CLI_USAGE, "--seed", "'%s' is not a number", optarg);
            break;
        case O_TYPE:
            if (cli_type_arg(optarg, &o->type) != 0)
                return CLI_USAGE;
            break;
        case O_PAY: o->payload = true; break;
        case O_ALG:
            if (strcmp(optarg, "network") == 0)
                o->algo = SN_DIST_NETWORK;
            else if (strcmp(optarg, "sample") == 0)
                o->algo = SN_DIST_SAMPLE;
            else
                return cli_error(CLI_USAGE, "--algorithm", "'%s' is not network or sample", optarg);
            break;
        case O_NET: net_spec = optarg; break;
        case O_IN: o->in = optarg; break;
        case O_OUT: o->out = optarg; break;
        case O_FAULT: {
            char *colon = strchr(optarg, ':');
            uint64_t fr;
            if (!colon || colon == optarg || colon - optarg > 10)
                return cli_error(CLI_USAGE, "--inject-fault", "'%s' is not RANK:INDEX", optarg);
            char num[16];
            memcpy(num, optarg, (size_t)(colon - optarg));
            num[colon - optarg] = '\0';
            if (!cli_parse_u64(num, 0, (uint64_t)ranks - 1, &fr) ||
                !cli_parse_u64(colon + 1, 0, UINT64_MAX, &o->fault_index))
                return cli_error(CLI_USAGE, "--inject-fault",
                                 "'%s' is not RANK:INDEX with RANK in 0..%d", optarg, ranks - 1);
            o->fault = true;
            o->fault_rank = (int)fr;
            break;
        }
        case O_TIME:
            if (!cli_parse_u64(optarg, 1, 86400 * 7, &timeout))
                return cli_error(CLI_USAGE, "--timeout", "'%s' is not seconds in 1..604800",
                                 optarg);
            break;
        case O_JSON: json = true; break;
        case O_DIST:
            if (!cli_parse_u64(optarg, 1, UINT32_MAX, &v))
                return cli_error(CLI_USAGE, "--distinct", "'%s' is not a count in 1..2^32-1",
                                 optarg);
            o->distinct = (uint32_t)v;
            break;
        case O_THREADS:
            if (!cli_parse_u64(optarg, 1, 1024, &v))
                return cli_error(CLI_USAGE, "--threads", "'%s' is not a number in 1..1024", optarg);
            o->threads = (unsigned)v;
            break;
        case O_LOCAL:
            if (strcmp(optarg, "auto") == 0)
                o->local = 0;
            else if (strcmp(optarg, "cpu") == 0)
                o->local = 1;
            else if (strcmp(optarg, "gpu") == 0)
                o->local = 2;
            else
                return cli_error(CLI_USAGE, "--local", "'%s' is not auto, cpu or gpu", optarg);
            break;
        case O_HELP:
        case 'h':
            if (rank == 0)
                dist_help();
            return -1;
        default: return cli_bad_option("dist sort", c, argv);
        }
    }
    if (optind < argc - 1)
        return cli_error(CLI_USAGE, "dist sort", "expected at most one network (see --help)");
    if (optind == argc - 1) {
        if (net_spec)
            return cli_error(CLI_USAGE, "dist sort", "give the network once (NET or --network)");
        net_spec = argv[optind];
    }
    if (o->in && have_keys)
        return cli_error(CLI_USAGE, "--keys", "not with --in (the file's size gives N)");
    if (!o->in && !have_keys)
        return cli_error(CLI_USAGE, "dist sort", "give --keys N or --in FILE (see --help)");
#ifndef SN_HAVE_JANSSON
    if (json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    *net_spec_out = net_spec;
    *json_out = json;
    *timeout_out = timeout;
    return 0;
}

/* Rank 0, before any work: the memory a rank will need (N from --keys, or
 * from the size of --in when it can be read; else nothing is said and the
 * sort reports the file's error). */
static void say_memory(const sn_dist_sort_opts *o, int ranks)
{
    uint64_t N = o->keys;
    struct stat sb;
    if (o->in) {
        if (stat(o->in, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 || sb.st_size % 4)
            return;
        N = (uint64_t)sb.st_size / 4;
    }
    const double GiB = 1073741824.0;
    /* rank 0 also compares with the reference (small N); rank 1 has the
     * largest slice of the others */
    uint64_t most = sn_dist_sort_memory(o, N, ranks, 0);
    uint64_t other = ranks > 1 ? sn_dist_sort_memory(o, N, ranks, 1) : most;
    printf("memory: about %.2f GiB a rank for %llu keys on %d rank(s)", (double)other / GiB,
           (unsigned long long)N, ranks);
    if (most != other)
        printf(" (rank 0: %.2f GiB, with the comparison)", (double)most / GiB);
    if (o->max_memory)
        printf("; --max-memory allows %.2f GiB a rank\n", (double)o->max_memory / GiB);
    else if (o->host_memory)
        printf("; %.2f GiB available on this host\n", (double)o->host_memory / GiB);
    else
        printf("\n");
    fflush(stdout);
}

static int dist_sort(int argc, char **argv, int rank, int ranks)
{
    sn_dist_sort_opts o;
    const char *net_spec = NULL;
    bool json = false;
    uint64_t v, timeout = 0;
    int prc = parse_args(argc, argv, rank, ranks, &o, &net_spec, &json, &timeout);
    if (prc)
        return prc < 0 ? CLI_OK : prc;
    /* tests: SN_DIST_DIE=R kills rank R after its local sort, R:stall stops
     * it, R:output stops it once the output's temporary exists */
    const char *env = getenv("SN_DIST_DIE");
    if (env) {
        char num[16];
        snprintf(num, sizeof num, "%.*s", (int)strcspn(env, ":"), env);
        if (cli_parse_u64(num, 0, 1u << 20, &v))
            o.die_rank = (int)v;
        o.die_stall = strstr(env, ":stall") != NULL;
        o.die_output = strstr(env, ":output") != NULL;
    }

    char autoname[48];
    if (!net_spec || strcmp(net_spec, "auto") == 0) {
        if (ranks == 1)
            snprintf(autoname, sizeof autoname, "empty:1");
        else if (ranks <= 64)
            snprintf(autoname, sizeof autoname, "best:%d", ranks);
        else
            snprintf(autoname, sizeof autoname, "oddeven-merge:%d", ranks);
        net_spec = autoname;
    }
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    if (o.algo == SN_DIST_NETWORK) {
        int rc = cli_load_network(net_spec, &s, &net);
        if (rc)
            return rc;
        o.net = net;
    }
    timeout_rank = rank;
    cli_dist_signals_begin(rank, ranks, by_mpirun);
    if (timeout) {
        /* Rank 0 ends the job at the timeout with its message; mpirun then
         * ends the others. They wait 10 s longer (only a backstop for a
         * rank 0 that is stopped): were all armed alike, the first to
         * fire under load could be another rank, and mpirun's SIGTERM
         * would reach rank 0 before its alarm, hiding the cause. */
        signal(SIGALRM, on_alarm);
        alarm((unsigned)(rank == 0 ? timeout : timeout + 10));
    }
    if (rank == 0 && !json)
        say_memory(&o, ranks);
    sn_dist_report rep;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_dist_sort(&o, &rep, &d);
    int rc;
    const char *alg = o.algo == SN_DIST_NETWORK ? "network" : "sample";
    const char *shown = o.algo == SN_DIST_NETWORK ? net_spec : NULL;
    if (st != SN_OK) {
        rc = rank == 0 ? cli_error(exit_of(st), "dist sort", "%s", d.text) : exit_of(st);
    } else {
        rc = rep.identical ? CLI_OK : CLI_NEGATIVE;
        if (rank == 0) {
            int jrc = 0;
#ifdef SN_HAVE_JANSSON
            if (json)
                jrc = cli_dist_print_json(&rep, alg, shown, &o);
#endif
            if (!json)
                cli_dist_print_text(&rep, alg, shown, &o);
            if (jrc)
                rc = jrc;
        }
    }
    cli_dist_signals_finished();
    fflush(stdout);
    alarm(0);
    sn_dist_report_free(&rep);
    sn_network_destroy(net);
    sn_schedule_destroy(s);
    return rc;
}

int cmd_dist(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        if (argc < 2) {
            fprintf(stderr, "sortnet: dist: expected a subcommand: sort (see --help)\n");
            return CLI_USAGE;
        }
        dist_help();
        return CLI_OK;
    }
    if (strcmp(argv[1], "sort") != 0)
        return cli_error(CLI_USAGE, "dist", "'%s' is not a subcommand (sort)", argv[1]);
    sn_diag d;
    sn_diag_clear(&d);
    by_mpirun = sn_dist_launched(); /* before MPI_Init sets Open MPI's variables */
    sn_status ist = sn_dist_init(&d);
    if (ist != SN_OK) /* SN_ENOMEM: MPI_Init ended under ulimit -v */
        return cli_error(ist == SN_ENOMEM ? CLI_DEVICE : CLI_NOENV, "dist", "%s", d.text);
    int rank = sn_dist_rank(), ranks = sn_dist_size();
    int saved = quiet_begin(rank);
    int rc = dist_sort(argc - 1, argv + 1, rank, ranks);
    quiet_end(saved);
    /* every rank alive gets here: rank 0's report is out before any rank
     * exits (mpirun ends the job at the first non-zero exit) */
    fflush(stdout);
    fflush(stderr);
    MPI_Barrier(MPI_COMM_WORLD);
    cli_dist_signals_end();
    return rc;
}

bool cli_dist_check_wanted(const sn_check_options *opt, bool device, bool sort_mode)
{
    if (!sn_dist_launched())
        return false;
    sn_diag d;
    sn_status ist = sn_dist_init(&d);
    if (ist == SN_ENOMEM) /* MPI_Init ended under ulimit -v: the rank cannot run */
        exit(cli_error(CLI_DEVICE, "check", "%s", d.text));
    if (ist != SN_OK || sn_dist_size() < 2)
        return false;
    /* the device checks by brute force only: there method auto means it too */
    bool split = sort_mode &&
                 (opt->method == SN_CHECK_BRUTEFORCE || (device && opt->method == SN_CHECK_AUTO));
    if (sn_dist_rank() != 0) {
        /* every rank reaches the same verdict: rank 0 alone prints it */
        fflush(stdout);
        fflush(stderr);
        int nul = open("/dev/null", O_WRONLY);
        if (nul >= 0) {
            dup2(nul, 1);
            dup2(nul, 2);
            close(nul);
        }
    } else if (!split) {
        fprintf(stderr,
                "sortnet: check: under mpirun only the brute force (--method bruteforce, or "
                "--device) is split over the ranks; each of the %d ranks checks alone and rank 0 "
                "prints\n",
                sn_dist_size());
    }
    return split;
}

sn_status cli_dist_check(const sn_network *net, const sn_check_options *opt, const char *device,
                         sn_check_result *res, sn_diag *diag, char *where)
{
    /* "opencl": each rank its own device (""), "opencl:P:D": that one */
    const char *spec = device ? (device[6] == ':' ? device + 7 : "") : NULL;
    return sn_dist_check(net, opt, spec, res, where, diag);
}
