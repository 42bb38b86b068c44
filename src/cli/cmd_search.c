/* cmd_search.c - `sortnet search N`: look for small sorting (or selection)
 * networks with core/search.h; each improvement is printed as it happens
 * (stderr) and saved atomically (-o), the best is written at the end, and
 * Ctrl+C ends the search keeping the best so far. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/format.h"
#include "core/search.h"
#ifdef SN_HAVE_JANSSON
#include <jansson.h>
#endif

static void help(void)
{
    printf("usage: sortnet search N [--goal size|depth|both] [--time S] [--seed S]\n"
           "                        [--prefix greedy[:K]|green[:L]|none|NET]\n"
           "                        [--symmetric | --asymmetric] [--threads T]\n"
           "                        [--median | --select K[,K2]] [--from NET] [--target C]\n"
           "                        [--target-depth L] [--iterations I] [-o FILE]\n"
           "                        [--format F] [--json]\n\n"
           "Search for a sorting network on N wires (2..64) with as few comparators (or\n"
           "layers) as it can find. Each improvement is printed on stderr as it happens\n"
           "(seconds, comparators, layers) after sortnet's own checker proved it; with -o\n"
           "the best so far is saved atomically at every improvement, so an interrupted\n"
           "search keeps what it found. Ctrl+C ends the search cleanly (exit 0). At the\n"
           "end the best network goes to FILE or, without -o, to standard output.\n"
           "Method and measurements: docs/search.md.\n\n"
           "  --goal G        size (default): fewest comparators, then fewest layers;\n"
           "                  depth: fewest layers, then comparators; both: the smallest\n"
           "                  comparators + layers, then comparators\n"
           "  --time S        stop after S seconds (default 10; 0: until Ctrl+C, --target\n"
           "                  or --iterations)\n"
           "  --seed S        the random seed (default 1): one thread and --iterations\n"
           "                  give the same trail for the same seed\n"
           "  --prefix P      greedy (the default below 14 wires): comparators chosen one\n"
           "                  by one to leave the fewest distinct 0-1 outputs (N/2 of them,\n"
           "                  more for large N); greedy:K: K of them; green (the default\n"
           "                  from 14 wires on): Green's first layers, the hypercube of the\n"
           "                  next power of two with wires >= N left out; green:L: its\n"
           "                  first L layers; none; or NET: a network whose comparators\n"
           "                  start every result\n"
           "  --symmetric     comparators in mirror pairs (a,b) and (N-1-b,N-1-a); the\n"
           "                  default for --goal depth and even N, and for N = 12\n"
           "                  without --prefix, --from, --median or --select (there\n"
           "                  with a greedy prefix of 10)\n"
           "  --asymmetric    no mirror pairs (the default otherwise)\n"
           "  --threads T     workers, each with its own network (default: the CPUs)\n"
           "  --median        a median network: output (N-1)/2, or N/2-1 and N/2 in\n"
           "                  either order for even N (as `check --select`)\n"
           "  --select K[,K2] a network that puts the K-th smallest (from 0) on output K\n"
           "  --from NET      start from NET (improve a student's or a generator's network);\n"
           "                  without --prefix: no prefix up to 22 wires, NET's first layer\n"
           "                  above\n"
           "  --target C      stop once the best has at most C comparators\n"
           "  --target-depth L  stop once the best has at most L layers (and at most C\n"
           "                  comparators with --target)\n"
           "  --iterations I  stop after I steps of each worker\n"
           "  -o FILE         save the best here (atomically, at every improvement)\n"
           "  --format F      bracket (default; json for *.json, sn for *.sn), json or sn\n"
           "  --json          one JSON object on stdout at the end: the trail of\n"
           "                  improvements, the best network's layers (0-based wires)\n"
           "  -h, --help      this text\n\n"
           "Exit 0: a network was found; 2: bad usage or input.\n");
}

static sn_cancel interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

typedef struct run_state {
    const char *out_path; /* -o, or NULL */
    sn_format fmt;
    sn_search_event *trail;
    size_t trail_len, trail_cap;
    int save_rc; /* the first failed save's exit code */
} run_state;

static int save(const sn_network *net, sn_format fmt, const char *path)
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

/* Each improvement: a line on stderr, the file saved, the trail grown. */
static void on_improved(const sn_network *best, const sn_search_event *ev, void *user)
{
    run_state *rs = user;
    if (rs->save_rc)
        return;
    if (rs->out_path && (rs->save_rc = save(best, rs->fmt, rs->out_path)) != 0) {
        atomic_store(&interrupted, 1); /* a file that cannot be saved ends the search */
        return;
    }
    fprintf(stderr, "search: %9.3f s  %4zu comparators  %3zu layers  (proved)\n", ev->seconds,
            ev->size, ev->depth);
    fflush(stderr);
    if (rs->trail_len == rs->trail_cap) {
        size_t cap = rs->trail_cap ? rs->trail_cap * 2 : 32;
        sn_search_event *p = sn_realloc(rs->trail, cap * sizeof *p);
        if (!p)
            return;
        rs->trail = p;
        rs->trail_cap = cap;
    }
    rs->trail[rs->trail_len++] = *ev;
}

static int parse_select(const char *arg, sn_search_options *o)
{
    char *end;
    unsigned long k0 = strtoul(arg, &end, 10), k1 = 0;
    bool two = *end == ',';
    if (two)
        k1 = strtoul(end + 1, &end, 10);
    if (end == arg || *end || arg[0] == '-' || k0 >= o->n || k1 >= o->n)
        return cli_error(CLI_USAGE, "--select",
                         "'%s' is not an output K or a pair K,K2 of the %u wires (0..%u)", arg,
                         o->n, o->n - 1);
    o->select_k[0] = (uint32_t)k0;
    o->select_k[1] = (uint32_t)k1;
    o->select_count = two ? 2 : 1;
    return 0;
}

/* --prefix: greedy[:K], none or a network (loaded into *net). */
static int parse_prefix(const char *arg, sn_search_options *o, sn_network **net)
{
    uint64_t k;
    if (strcmp(arg, "none") == 0) {
        o->prefix = SN_SEARCH_PREFIX_NONE;
    } else if (strcmp(arg, "green") == 0) {
        o->prefix = SN_SEARCH_PREFIX_GREEN;
    } else if (strncmp(arg, "green:", 6) == 0) {
        if (!cli_parse_u64(arg + 6, 1, 6, &k))
            return cli_error(CLI_USAGE, "--prefix", "'%s': L must be a number of layers, 1..6",
                             arg);
        o->prefix = SN_SEARCH_PREFIX_GREEN;
        o->prefix_count = (size_t)k;
    } else if (strcmp(arg, "greedy") == 0) {
        o->prefix = SN_SEARCH_PREFIX_GREEDY;
    } else if (strncmp(arg, "greedy:", 7) == 0) {
        if (!cli_parse_u64(arg + 7, 1, 4096, &k))
            return cli_error(CLI_USAGE, "--prefix",
                             "'%s': K must be a number of comparators, 1..4096", arg);
        o->prefix = SN_SEARCH_PREFIX_GREEDY;
        o->prefix_count = (size_t)k;
    } else {
        int rc = cli_load_network(arg, NULL, net);
        if (rc)
            return rc;
        if (sn_network_wires(*net) != o->n)
            return cli_error(CLI_USAGE, "--prefix",
                             "%s has %u wires; the search is for %u (a prefix must fit)", arg,
                             sn_network_wires(*net), o->n);
        o->prefix = SN_SEARCH_PREFIX_NET;
        o->prefix_net = *net;
    }
    return 0;
}

#ifdef SN_HAVE_JANSSON
static int print_json(const sn_search_options *o, const run_state *rs, const sn_network *best,
                      const sn_search_stats *s)
{
    json_t *j = json_object(), *trail = json_array(), *layers = json_array();
    for (size_t i = 0; i < rs->trail_len; i++) {
        const sn_search_event *e = &rs->trail[i];
        json_t *x = json_object();
        json_object_set_new(x, "seconds", json_real(e->seconds));
        json_object_set_new(x, "size", json_integer((json_int_t)e->size));
        json_object_set_new(x, "depth", json_integer((json_int_t)e->depth));
        json_object_set_new(x, "iteration", json_integer((json_int_t)e->iteration));
        json_object_set_new(x, "worker", json_integer(e->worker));
        json_array_append_new(trail, x);
    }
    for (size_t l = 0; l < sn_network_layer_count(best); l++) {
        size_t cnt;
        const sn_comparator *c = sn_network_layer(best, l, &cnt);
        json_t *layer = json_array();
        for (size_t i = 0; i < cnt; i++)
            json_array_append_new(layer, json_pack("[ii]", (int)c[i].a, (int)c[i].b));
        json_array_append_new(layers, layer);
    }
    json_object_set_new(j, "n", json_integer(o->n));
    json_object_set_new(j, "goal", json_string(sn_search_goal_name(o->goal)));
    json_object_set_new(j, "seed", json_integer((json_int_t)o->seed));
    json_object_set_new(j, "workers", json_integer(s->workers));
    json_object_set_new(j, "symmetric", json_boolean(o->symmetric));
    json_object_set_new(j, "prefix_size", json_integer((json_int_t)s->prefix_size));
    json_object_set_new(j, "tests", json_integer((json_int_t)s->tests));
    json_object_set_new(j, "iterations", json_integer((json_int_t)s->iterations));
    json_object_set_new(j, "restarts", json_integer((json_int_t)s->restarts));
    json_object_set_new(j, "seconds", json_real(s->seconds));
    json_object_set_new(j, "interrupted", json_boolean(s->cancelled));
    json_object_set_new(j, "size", json_integer((json_int_t)sn_network_size(best)));
    json_object_set_new(j, "depth", json_integer((json_int_t)sn_network_layer_count(best)));
    json_object_set_new(j, "trail", trail);
    json_object_set_new(j, "layers", layers);
    return cli_json_print(j, JSON_COMPACT);
}
#endif

typedef struct args {
    const char *out_path, *from_spec, *prefix_arg, *select_arg, *fmt_arg;
    bool json, median;
    int symmetric; /* -1 --asymmetric, 1 --symmetric, 0 the default */
} args;

static int parse_args(int argc, char **argv, sn_search_options *o, args *a)
{
    static const struct option opts[] = {
        {"goal", 1, NULL, 'g'},       {"time", 1, NULL, 't'},         {"seed", 1, NULL, 's'},
        {"prefix", 1, NULL, 'p'},     {"symmetric", 0, NULL, 'y'},    {"threads", 1, NULL, 'T'},
        {"median", 0, NULL, 'm'},     {"select", 1, NULL, 'S'},       {"from", 1, NULL, 'F'},
        {"target", 1, NULL, 'C'},     {"iterations", 1, NULL, 'I'},   {"output", 1, NULL, 'o'},
        {"format", 1, NULL, 'f'},     {"json", 0, NULL, 'j'},         {"help", 0, NULL, 'h'},
        {"asymmetric", 0, NULL, 'Y'}, {"target-depth", 1, NULL, 'D'}, {NULL, 0, NULL, 0}};
    uint64_t v;
    char *end;
    int c;
    opterr = 0;
    optind = 1;
    o->seconds = 10;
    while ((c = getopt_long(argc, argv, ":o:h", opts, NULL)) != -1) {
        switch (c) {
        case 'g':
            if (!sn_search_goal_parse(optarg, &o->goal))
                return cli_error(CLI_USAGE, "--goal", "'%s' is not size, depth or both", optarg);
            break;
        case 't':
            o->seconds = strtod(optarg, &end);
            if (end == optarg || *end || !(o->seconds >= 0 && o->seconds < 1e9))
                return cli_error(CLI_USAGE, "--time", "'%s' is not a number of seconds >= 0",
                                 optarg);
            break;
        case 's':
            if (!cli_parse_u64(optarg, 0, UINT64_MAX, &o->seed))
                return cli_error(CLI_USAGE, "--seed", "'%s' is not a number", optarg);
            break;
        case 'T':
            if (!cli_parse_u64(optarg, 1, SN_PARALLEL_THREADS_MAX, &v))
                return cli_error(CLI_USAGE, "--threads", "'%s' is not a number 1..%d", optarg,
                                 SN_PARALLEL_THREADS_MAX);
            o->threads = (unsigned)v;
            break;
        case 'C':
            if (!cli_parse_u64(optarg, 1, SIZE_MAX, &v))
                return cli_error(CLI_USAGE, "--target", "'%s' is not a number of comparators",
                                 optarg);
            o->target_size = (size_t)v;
            break;
        case 'I':
            if (!cli_parse_u64(optarg, 1, UINT64_MAX, &o->iterations))
                return cli_error(CLI_USAGE, "--iterations", "'%s' is not a number >= 1", optarg);
            break;
        case 'D':
            if (!cli_parse_u64(optarg, 1, SIZE_MAX, &v))
                return cli_error(CLI_USAGE, "--target-depth", "'%s' is not a number of layers",
                                 optarg);
            o->target_depth = (size_t)v;
            break;
        case 'y': a->symmetric = 1; break;
        case 'Y': a->symmetric = -1; break;
        case 'p': a->prefix_arg = optarg; break;
        case 'm': a->median = true; break;
        case 'S': a->select_arg = optarg; break;
        case 'F': a->from_spec = optarg; break;
        case 'o': a->out_path = optarg; break;
        case 'f': a->fmt_arg = optarg; break;
        case 'j': a->json = true; break;
        case 'h': help(); return -1;
        default: return cli_bad_option("search", c, argv);
        }
    }
    if (optind + 1 != argc)
        return cli_error(CLI_USAGE, "search",
                         optind >= argc ? "give the number of wires N (2..64); see --help"
                                        : "one N only; '%s' is not an option",
                         optind < argc ? argv[optind + 1] : "");
    if (!cli_parse_u64(argv[optind], 2, SN_SEARCH_MAX_WIRES, &v))
        return cli_error(CLI_USAGE, "search", "N = '%s': the number of wires must be 2..%d",
                         argv[optind], SN_SEARCH_MAX_WIRES);
    o->n = (uint32_t)v;
    if (a->median && a->select_arg)
        return cli_error(CLI_USAGE, "search", "--median and --select: give one of them");
    /* mirror pairs by default where they were measured faster (the depth
     * goal on even N, the size goal on 12 wires: docs/search.md), for a
     * sorting network from scratch (the size goal's default is not for a
     * selection or --from) */
    o->symmetric =
        a->symmetric > 0 || (a->symmetric == 0 && sn_search_default_symmetric(o->n, o->goal) &&
                             (o->goal == SN_SEARCH_GOAL_DEPTH ||
                              (!a->median && !a->select_arg && !a->from_spec && !a->prefix_arg)));
    return 0;
}

static sn_format pick_format(const char *fmt_arg, const char *path, int *rc)
{
    sn_format f = SN_FORMAT_BRACKET;
    *rc = 0;
    if (fmt_arg) {
        if (!sn_format_parse(fmt_arg, &f))
            *rc = cli_error(CLI_USAGE, "--format", "'%s' is not a format (bracket, json, sn)",
                            fmt_arg);
        return f;
    }
    size_t len = path ? strlen(path) : 0;
    if (len > 5 && strcmp(path + len - 5, ".json") == 0)
        f = SN_FORMAT_JSON;
    else if (len > 3 && strcmp(path + len - 3, ".sn") == 0)
        f = SN_FORMAT_SN;
    return f;
}

static int finish(const sn_search_options *o, const args *a, run_state *rs, const sn_network *best,
                  const sn_search_stats *s)
{
    if (rs->save_rc)
        return rs->save_rc;
    fprintf(stderr,
            "search: %s after %.1f s: %zu comparators, %zu layers (%llu steps, %llu restarts, "
            "%zu test vectors after a prefix of %zu)\n",
            s->cancelled ? "interrupted" : "done", s->seconds, sn_network_size(best),
            sn_network_layer_count(best), (unsigned long long)s->iterations,
            (unsigned long long)s->restarts, s->tests, s->prefix_size);
    int rc = 0;
    if (a->out_path && strcmp(a->out_path, "-") != 0)
        rc = save(best, rs->fmt, a->out_path);
    else if (!a->json)
        rc = save(best, rs->fmt, "-");
#ifdef SN_HAVE_JANSSON
    if (!rc && a->json)
        rc = print_json(o, rs, best, s);
#else
    (void)o;
#endif
    return rc;
}

/* --from without --prefix: no prefix while all 2^n inputs fit the test set
 * (n <= 22), else NET's first layer (then its own copy in the postfix
 * never swaps and is pruned, so the start is NET itself). */
static int from_prefix(sn_search_options *o, const sn_network *from, sn_network **prefix)
{
    o->prefix = SN_SEARCH_PREFIX_NONE;
    if ((1ull << o->n) <= SN_SEARCH_MAX_TESTS || sn_network_layer_count(from) == 0)
        return 0;
    size_t count;
    const sn_comparator *c = sn_network_layer(from, 0, &count);
    sn_diag d;
    if (!(*prefix = sn_network_create(o->n)) ||
        sn_network_layer_add(*prefix, c, count, &d) != SN_OK)
        return cli_error(CLI_DEVICE, "search", "out of memory");
    o->prefix = SN_SEARCH_PREFIX_NET;
    o->prefix_net = *prefix;
    return 0;
}

int cmd_search(int argc, char **argv)
{
    sn_search_options o;
    sn_search_options_init(&o, 0);
    o.threads = 0;
    args a;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &o, &a);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
#ifndef SN_HAVE_JANSSON
    if (a.json)
        return cli_error(CLI_NOENV, "--json", "built without jansson");
#endif
    run_state rs;
    memset(&rs, 0, sizeof rs);
    rs.fmt = pick_format(a.fmt_arg, a.out_path, &rc);
    if (rc)
        return rc;
    /* -o - is standard output: written once at the end, not on the way */
    rs.out_path = a.out_path && strcmp(a.out_path, "-") != 0 ? a.out_path : NULL;
    sn_network *prefix = NULL, *from = NULL, *best = NULL;
    if (a.median) {
        o.select_count = o.n % 2 ? 1 : 2;
        o.select_k[0] = o.n % 2 ? (o.n - 1) / 2 : o.n / 2 - 1;
        o.select_k[1] = o.n / 2;
    }
    if ((a.select_arg && (rc = parse_select(a.select_arg, &o)) != 0) ||
        (a.prefix_arg && (rc = parse_prefix(a.prefix_arg, &o, &prefix)) != 0))
        goto done;
    if (a.from_spec) {
        if ((rc = cli_load_network(a.from_spec, NULL, &from)) != 0)
            goto done;
        if (sn_network_wires(from) != o.n) {
            rc = cli_error(CLI_USAGE, "--from", "%s has %u wires; the search is for %u",
                           a.from_spec, sn_network_wires(from), o.n);
            goto done;
        }
        o.from = from;
        if (!a.prefix_arg && (rc = from_prefix(&o, from, &prefix)) != 0)
            goto done;
    }
    o.improved = on_improved;
    o.user = &rs;
    struct sigaction old;
    atomic_store(&interrupted, 0);
    /* SA_RESETHAND: a second Ctrl+C ends the process at once */
    cli_catch_signal(SIGINT, on_sigint, (int)SA_RESETHAND, &old);
    o.cancel = &interrupted;
    sn_search_stats stats;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_search_run(&o, &best, &stats, &d);
    sigaction(SIGINT, &old, NULL);
    if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), "search", "%s", sn_diag_text(&d, st));
        goto done;
    }
    rc = finish(&o, &a, &rs, best, &stats);
done:
    sn_network_destroy(best);
    sn_network_destroy(prefix);
    sn_network_destroy(from);
    sn_free(rs.trail);
    return rc;
}
