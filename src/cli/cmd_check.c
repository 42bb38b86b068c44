/* cmd_check.c - `sortnet check NET`: prove by the 0-1 principle that a
 * network sorts, or show the smallest 0-1 input it does not sort, with a
 * progress bar on a terminal and a clean stop on Ctrl-C. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/check.h"
#include "core/library.h" /* for: sn_library_selected_outputs */
#ifdef SN_HAVE_JANSSON
#include <jansson.h>
#endif
#ifdef SN_HAVE_OPENCL
#include "gpu/gpu.h"
#endif
#include "cmd_dist.h" /* for: cli_dist_check (under mpirun, SN_HAVE_MPI) */

static void help(void)
{
    printf("usage: sortnet check NET [--threads N] [--method auto|bruteforce|reduce|split]\n"
           "                         [--merge A | --select K[,K2]] [--force] [--json]\n"
           "                         [--device opencl[:P:D]]\n\n"
           "Prove that NET sorts every input by the 0-1 principle (all 2^n inputs of 0s\n"
           "and 1s, directly or through an exact reduction), or show the smallest 0-1\n"
           "input it does not sort. Exit 0: sorts (merges, selects); 1: it does not;\n"
           "2: bad usage; 4: undecided (a proof this method cannot give within its\n"
           "limits: the message says why and what brute force would take; with --json,\n"
           "\"sorts\": null and a \"reason\").\n\n"
           "  --threads N   worker threads (default: all online CPUs)\n"
           "  --method M    auto (default): brute force for n <= 24, the reduction up to\n"
           "                64 wires (where its pattern sets grow large, the split\n"
           "                first: then no redundant comparators), the split above;\n"
           "                bruteforce: every input,\n"
           "                bit-sliced; reduce: reachable 0-1 patterns per cluster of\n"
           "                wires (n <= 64); split: two parts that sort (checked\n"
           "                recursively), then a merge of them ((a+1)(b+1) inputs)\n"
           "  --merge A     prove NET merges: sorts every input whose first A wires and\n"
           "                the rest are each sorted ((A+1)(n-A+1) 0-1 inputs, any n)\n"
           "  --select K    prove output K (from 0) holds the K-th smallest value for\n"
           "                every input; K,K2: outputs K and K2 hold the K-th and K2-th\n"
           "                smallest in either order (a median network for even n).\n"
           "                All 2^n 0-1 inputs, bit-sliced (n <= 40). median:N and\n"
           "                lib:Median_* are checked this way without the option\n"
           "  --force       run even when the estimated time is too long\n"
           "  --json        one JSON object: {\"n\",\"sorts\",\"method\",\"mode\",\n"
           "                \"seconds\",\"counterexample\",\"output\",\"redundant\"}\n"
           "                (\"sorts\" is the verdict of the mode: sorts, merges, selects)\n"
#ifdef SN_HAVE_OPENCL
           "  --device D    opencl or opencl:P:D: brute force on an OpenCL device (a\n"
           "                kernel generated for the network; same verdict, smallest\n"
           "                counterexample and redundant comparators as on the CPU;\n"
           "                `sortnet gpu list` shows P:D)\n"
#else
           "  --device D    check on an OpenCL device (not in this build)\n"
#endif
           "  mpirun -np P sortnet check NET --method bruteforce [--device opencl]: split\n"
           "                over P MPI ranks, on their cores or OpenCL devices (dist --help)\n"
           "  -h, --help    this text\n");
}

/* The checker's cancel flag: lock-free, so the handler may store to it. */
static sn_cancel interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store(&interrupted, 1);
}

typedef struct progress_state {
    double start;
    bool shown;
} progress_state;

static void progress(double fraction, double eta, void *user)
{
    progress_state *p = user;
    /* only for work longer than a second: the first call comes after
     * 0.1 s, so skip while the estimate says the end is near */
    if (!p->shown && fraction > 0.0 && eta >= 0.0 && eta < 1.0)
        return;
    p->shown = true;
    int width = 30, done = (int)(fraction * width + 0.5);
    char bar[32];
    for (int i = 0; i < width; i++)
        bar[i] = i < done ? '#' : '.';
    bar[width] = '\0';
    if (eta >= 0)
        fprintf(stderr, "\rchecking [%s] %3.0f%%  about %.0f s left   ", bar, fraction * 100.0,
                eta);
    else
        fprintf(stderr, "\rchecking [%s] %3.0f%%                     ", bar, fraction * 100.0);
    fflush(stderr);
}

static void print_bits(const uint8_t *v, uint32_t n, const char *sep)
{
    for (uint32_t i = 0; i < n; i++)
        printf("%s%u", i && *sep ? sep : "", v[i]);
}

/* "about 3.2e+20 years": seconds in the unit a reader grasps. */
static void format_duration(double s, char *buf, size_t size)
{
    if (!(s < 1e300))
        snprintf(buf, size, "more than 1e+292 years");
    else if (s < 120.0)
        snprintf(buf, size, "about %.0f s", s < 1.0 ? 1.0 : s);
    else if (s < 7200.0)
        snprintf(buf, size, "about %.0f minutes", s / 60.0);
    else if (s < 2 * 86400.0)
        snprintf(buf, size, "about %.0f hours", s / 3600.0);
    else if (s < 2 * 365.25 * 86400.0)
        snprintf(buf, size, "about %.0f days", s / 86400.0);
    else if (s < 1e6 * 365.25 * 86400.0)
        snprintf(buf, size, "about %.0f years", s / (365.25 * 86400.0));
    else
        snprintf(buf, size, "about %.2g years", s / (365.25 * 86400.0));
}

#ifdef SN_HAVE_JANSSON
static json_t *json_bits(const uint8_t *v, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

/* One object; with reason (undecided: r holds only n and the method)
 * "sorts" and the rest are null, plus "reason" and "bruteforce_seconds". */
static int print_json(const sn_check_result *r, const char *mode, const char *reason, double bf)
{
    bool known = !reason, fails = known && !r->sorts;
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer(r->n));
    json_object_set_new(o, "sorts", known ? json_boolean(r->sorts) : json_null());
    json_object_set_new(o, "method", json_string(sn_check_method_name(r->method)));
    json_object_set_new(o, "mode", json_string(mode));
    json_object_set_new(o, "seconds", known ? json_real(r->seconds) : json_null());
    json_object_set_new(o, "counterexample",
                        fails ? json_bits(r->counterexample, r->n) : json_null());
    json_object_set_new(o, "output", fails ? json_bits(r->output, r->n) : json_null());
    if (!known || r->redundant_unknown) {
        json_object_set_new(o, "redundant", json_null());
    } else {
        json_t *red = json_array();
        for (size_t i = 0; i < r->redundant_count; i++)
            json_array_append_new(red, json_integer((json_int_t)r->redundant[i]));
        json_object_set_new(o, "redundant", red);
    }
    if (reason) {
        json_object_set_new(o, "reason", json_string(reason));
        json_object_set_new(o, "bruteforce_seconds", bf < 1e300 ? json_real(bf) : json_null());
    }
    return cli_json_print(o, JSON_COMPACT | JSON_REAL_PRECISION(9));
}
#endif

/* A verdict this method cannot give: say so (never "does not sort"), with
 * what brute force over every 0-1 input would take; exit 4. */
static int report_undecided(const sn_network *net, const char *spec, const char *mode,
                            const sn_check_options *opt, const char *why, bool json)
{
    uint32_t n = sn_network_wires(net);
    double bf = sn_check_bruteforce_seconds(net, opt->threads);
    char dur[64], reason[1400];
    format_duration(bf, dur, sizeof dur);
    snprintf(reason, sizeof reason, "cannot be decided by this method: %s", why);
    fprintf(stderr,
            "sortnet: check: %s: %s\n"
            "  brute force over all 2^%u 0-1 inputs x %zu comparators would take %s here%s\n",
            spec, reason, n, sn_network_size(net), dur,
            n <= 64 && bf < 86400.0 ? " (--force runs it)" : "");
    int jrc = 0;
#ifdef SN_HAVE_JANSSON
    sn_check_result u = {.n = n, .method = opt->method};
    if (json)
        jrc = print_json(&u, mode, reason, bf);
#else
    (void)json;
    (void)mode;
#endif
    return jrc ? jrc : CLI_UNDECIDED;
}

/* How the verdict was reached, for the text output. */
static void print_how(const sn_check_result *r, const char *mode)
{
    if (strcmp(mode, "sort") != 0)
        printf("all %llu 0-1 inputs of the mode in %.2f s", (unsigned long long)r->inputs,
               r->seconds);
    else if (r->method == SN_CHECK_BRUTEFORCE)
        printf("brute force over 2^%u inputs in %.2f s", r->n, r->seconds);
    else if (r->method == SN_CHECK_SPLIT)
        printf("the split: two parts that sort, then %llu merge inputs, in %.2f s",
               (unsigned long long)r->inputs, r->seconds);
    else
        printf("the reduction: %llu patterns, largest set %zu, in %.2f s",
               (unsigned long long)r->inputs, r->max_patterns, r->seconds);
}

static void print_text(const sn_check_result *r, const char *spec, const char *mode,
                       const char *what)
{
    const char *verb = strcmp(mode, "merge") == 0    ? "merges"
                       : strcmp(mode, "select") == 0 ? "selects"
                                                     : "sorts";
    if (r->sorts) {
        printf("%s: yes%s%s (proved by ", verb, what[0] ? " " : "", what);
        print_how(r, mode);
        printf(")\n");
    } else {
        printf("%s: no%s%s (", verb, what[0] ? " " : "", what);
        print_how(r, mode);
        printf(")\n");
        printf("counterexample (%s failing 0-1 input, wire 0 first):\n  input:  ",
               r->method == SN_CHECK_SPLIT || strcmp(mode, "merge") == 0 ? "a" : "the smallest");
        print_bits(r->counterexample, r->n, "");
        printf("\n  output: ");
        print_bits(r->output, r->n, "");
        if (strcmp(mode, "select") == 0)
            printf("\n  (the selected outputs do not hold the values asked for)\n");
        else
            printf("\n  first out of order: positions %u and %u (%u > %u)\n", r->first_unsorted,
                   r->first_unsorted + 1, r->output[r->first_unsorted],
                   r->output[r->first_unsorted + 1]);
        printf("  replay: sortnet run %s --input ", spec);
        print_bits(r->counterexample, r->n, ",");
        if (r->method == SN_CHECK_SPLIT)
            printf("\n");
        else
            printf("\n  failing 0-1 inputs: %llu\n", (unsigned long long)r->failing_count);
    }
    if (r->redundant_unknown) {
        printf("redundant comparators: not computed by this method\n");
        return;
    }
    printf("redundant comparators: ");
    if (!r->redundant_count)
        printf("none");
    for (size_t i = 0; i < r->redundant_count; i++)
        printf("%s%zu", i ? " " : "", r->redundant[i]);
    printf("%s\n", r->redundant_count ? " (never swap; indices in layer order)" : "");
}

/* What check asks: sort (default), merge (first part a), or select
 * (outputs k[0..nk)). what: "(outputs 4)" for the verdict line. */
typedef struct check_mode {
    const char *name;
    uint32_t a;
    uint32_t k[2];
    size_t nk;
    char what[64];
} check_mode;

static int parse_mode(const char *merge_arg, const char *select_arg, check_mode *m)
{
    uint64_t v;
    if (merge_arg) {
        if (!cli_parse_u64(merge_arg, 0, UINT32_MAX, &v))
            return cli_error(CLI_USAGE, "--merge", "'%s' is not a number of wires", merge_arg);
        m->name = "merge";
        m->a = (uint32_t)v;
        snprintf(m->what, sizeof m->what, "(parts of %u and the rest)", m->a);
        return 0;
    }
    if (!select_arg)
        return 0;
    const char *p = select_arg;
    for (m->nk = 0; m->nk < 2; m->nk++) {
        char num[24];
        size_t len = strcspn(p, ",");
        if (len == 0 || len >= sizeof num)
            break;
        memcpy(num, p, len);
        num[len] = '\0';
        if (!cli_parse_u64(num, 0, UINT32_MAX, &v))
            break;
        m->k[m->nk] = (uint32_t)v;
        p += len;
        if (*p == '\0') {
            m->nk++;
            m->name = "select";
            if (m->nk == 1)
                snprintf(m->what, sizeof m->what, "(output %u)", m->k[0]);
            else
                snprintf(m->what, sizeof m->what, "(outputs %u and %u, either order)", m->k[0],
                         m->k[1]);
            return 0;
        }
        p++;
    }
    return cli_error(CLI_USAGE, "--select", "'%s' is not an output K or a pair K,K2", select_arg);
}

static sn_status run_mode(const sn_network *net, const check_mode *m, const sn_check_options *opt,
                          sn_check_result *res, sn_diag *d)
{
    if (strcmp(m->name, "merge") == 0)
        return sn_check_merge(net, m->a, res, d);
    return sn_check_select(net, m->k, m->nk, opt, res, d);
}

/* mode for a library median network (nothing for other networks); an
 * exit code when the device was asked to check it. */
static int median_mode(const char *spec, const sn_network *net, bool device, check_mode *mode)
{
    mode->nk = sn_library_selected_outputs(spec, sn_network_wires(net), mode->k);
    if (mode->nk == 0)
        return 0;
    mode->name = "select";
    if (mode->nk == 1)
        snprintf(mode->what, sizeof mode->what, "(output %u)", mode->k[0]);
    else
        snprintf(mode->what, sizeof mode->what, "(outputs %u and %u, either order)", mode->k[0],
                 mode->k[1]);
    if (device)
        return cli_error(CLI_USAGE, "--device",
                         "the device checks sorting only; %s is a median network", spec);
    return 0;
}

/* Run the question of mode on the CPU, or sorting on the device when
 * device is set (devname then receives its name). */
static sn_status run_check(const sn_network *net, const check_mode *mode, const char *device,
                           const char *dev_spec, const sn_check_options *opt, sn_check_result *res,
                           sn_diag *d, char devname[320])
{
#ifdef SN_HAVE_MPI /* under mpirun: brute force split over the ranks (cmd_dist.c) */
    if (cli_dist_check_wanted(opt, device != NULL, strcmp(mode->name, "sort") == 0))
        return cli_dist_check(net, opt, device, res, d, devname);
#endif
    if (strcmp(mode->name, "sort") != 0)
        return run_mode(net, mode, opt, res, d);
#ifdef SN_HAVE_OPENCL
    if (device) {
        sn_gpu *g = NULL;
        sn_status st = sn_gpu_open(dev_spec, &g, d);
        if (st == SN_OK) {
            snprintf(devname, 320, "%s", sn_gpu_device_name(g));
            st = sn_gpu_check(g, net, opt, res, d);
        }
        sn_gpu_close(g);
        return st;
    }
#else
    (void)device;
    (void)dev_spec;
    (void)devname;
#endif
    return sn_check_run(net, opt, res, d);
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {
        {"threads", 1, NULL, 't'}, {"method", 1, NULL, 'm'}, {"force", 0, NULL, 'f'},
        {"json", 0, NULL, 'j'},    {"device", 1, NULL, 'd'}, {"merge", 1, NULL, 'M'},
        {"select", 1, NULL, 'S'},  {"help", 0, NULL, 'h'},   {NULL, 0, NULL, 0}};
    const char *merge_arg = NULL, *select_arg = NULL;
    sn_check_options opt;
    sn_check_options_init(&opt);
    bool json = false;
    const char *device = NULL;
    int c, idx = 0, rc;
    uint64_t v;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, ":h", opts, &idx)) != -1) {
        switch (c) {
        case 't':
            if (!cli_parse_u64(optarg, 1, 1024, &v))
                return cli_error(CLI_USAGE, "--threads", "'%s' is not a number in 1..1024", optarg);
            opt.threads = (unsigned)v;
            break;
        case 'm':
            if (!sn_check_method_parse(optarg, &opt.method))
                return cli_error(CLI_USAGE, "--method",
                                 "'%s' is not one of auto, bruteforce, reduce, split", optarg);
            break;
        case 'f': opt.force = true; break;
        case 'j': json = true; break;
        case 'd': device = optarg; break;
        case 'M': merge_arg = optarg; break;
        case 'S': select_arg = optarg; break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("check", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "check", "expected one network (see --help)");
    if (merge_arg && select_arg)
        return cli_error(CLI_USAGE, "check",
                         "--merge and --select are different questions: "
                         "give one");
#ifndef SN_HAVE_JANSSON
    if (json)
        return cli_error(CLI_NOENV, "--json", "built without jansson (libjansson-dev)");
#endif
    check_mode mode = {"sort", 0, {0, 0}, 0, ""};
    if ((rc = parse_mode(merge_arg, select_arg, &mode)) != 0)
        return rc;
    if (device && strcmp(mode.name, "sort") != 0)
        return cli_error(CLI_USAGE, "--device", "the device checks sorting only (not --%s)",
                         mode.name);
    const char *dev_spec = NULL;
    if (device) {
        if (strncmp(device, "opencl", 6) != 0 || (device[6] != '\0' && device[6] != ':'))
            return cli_error(CLI_USAGE, "--device", "'%s' is not opencl or opencl:P:D", device);
#ifdef SN_HAVE_OPENCL
        if (device[6] == ':') {
            uint32_t pp, dd;
            dev_spec = device + 7;
            if (!sn_gpu_device_parse(dev_spec, &pp, &dd))
                return cli_error(CLI_USAGE, "--device", "'%s' is not opencl or opencl:P:D", device);
        }
        if (opt.method == SN_CHECK_REDUCE)
            return cli_error(CLI_USAGE, "--method",
                             "the device runs the brute force only (--method reduce is CPU)");
#else
        return cli_error(CLI_NOENV, "--device",
                         "the GPU checker is not built into this version; run without "
                         "--device to check on the CPU");
#endif
    }
    const char *spec = argv[optind];
    sn_schedule *s = NULL;
    if ((rc = cli_load(spec, &s)) != 0)
        return rc;
    sn_diag d;
    sn_diag_clear(&d);
    sn_network *owned = NULL;
    const sn_network *net = sn_schedule_network(s);
    if (!net) {
        sn_status st = sn_schedule_to_network(s, &owned, &d);
        if (st != SN_OK) {
            rc = cli_error(cli_status_exit(st), spec, "%s", d.text);
            sn_schedule_destroy(s);
            return rc;
        }
        net = owned;
    }

    /* a library median network (median:N, lib:Median_*) is asked whether
     * it selects its median, not whether it sorts */
    if (!merge_arg && !select_arg && (rc = median_mode(spec, net, device != NULL, &mode)) != 0) {
        sn_network_destroy(owned);
        sn_schedule_destroy(s);
        return rc;
    }
    progress_state ps = {0, false};
    if (isatty(fileno(stderr))) {
        opt.progress = progress;
        opt.progress_user = &ps;
    }
    struct sigaction old;
    atomic_store(&interrupted, 0);
    cli_catch_signal(SIGINT, on_sigint, 0, &old);
    opt.cancel = &interrupted;

    sn_check_result res;
    char devname[320] = "";
    sn_status st = run_check(net, &mode, device, dev_spec, &opt, &res, &d, devname);
    sigaction(SIGINT, &old, NULL);
    if (ps.shown)
        fprintf(stderr, "\r%60s\r", "");

    if (st == SN_EINTERRUPTED) {
        rc = cli_error(130, "check", "interrupted; no verdict");
    } else if (st == SN_ELIMIT) {
        rc = report_undecided(net, spec, mode.name, &opt, d.text, json);
    } else if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), "check", "%s: %s", spec, d.text);
    } else {
        int jrc = 0;
#ifdef SN_HAVE_JANSSON
        if (json)
            jrc = print_json(&res, mode.name, NULL, 0.0);
#endif
        if (!json) {
            print_text(&res, spec, mode.name, mode.what);
            if (devname[0])
                printf("checked on: %s\n", devname);
        }
        rc = jrc ? jrc : res.sorts ? CLI_OK : CLI_NEGATIVE;
        sn_check_result_free(&res);
    }
    sn_network_destroy(owned);
    sn_schedule_destroy(s);
    return rc;
}
