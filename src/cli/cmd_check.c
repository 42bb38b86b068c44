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
#ifdef SN_HAVE_OPENCL
#include "gpu/gpu.h"
#endif

static void help(void)
{
    printf("usage: sortnet check NET [--threads N] [--method auto|bruteforce|reduce]\n"
           "                         [--force] [--json] [--device opencl[:P:D]]\n\n"
           "Prove that NET sorts every input by the 0-1 principle (all 2^n inputs of 0s\n"
           "and 1s, directly or through an exact reduction), or show the smallest 0-1\n"
           "input it does not sort. Exit 0: sorts; 1: does not sort; 2: bad usage.\n\n"
           "  --threads N   worker threads (default: all online CPUs)\n"
           "  --method M    auto (default): brute force for n <= 24, else the reduction;\n"
           "                bruteforce: every input, bit-sliced; reduce: reachable 0-1\n"
           "                patterns per cluster of wires (n <= 64)\n"
           "  --force       run even when the estimated time is too long\n"
           "  --json        one JSON object: {\"n\",\"sorts\",\"method\",\"seconds\",\n"
           "                \"counterexample\",\"output\",\"redundant\"}\n"
#ifdef SN_HAVE_OPENCL
           "  --device D    opencl or opencl:P:D: brute force on an OpenCL device (a\n"
           "                kernel generated for the network; same verdict, smallest\n"
           "                counterexample and redundant comparators as on the CPU;\n"
           "                `sortnet gpu list` shows P:D)\n"
#else
           "  --device D    check on an OpenCL device (not in this build)\n"
#endif
           "  -h, --help    this text\n");
}

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
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

static void print_json(const sn_check_result *r)
{
    printf("{\"n\":%u,\"sorts\":%s,\"method\":\"%s\",\"seconds\":%.6f,", r->n,
           r->sorts ? "true" : "false", sn_check_method_name(r->method), r->seconds);
    printf("\"counterexample\":");
    if (r->sorts) {
        printf("null,\"output\":null,");
    } else {
        printf("[");
        print_bits(r->counterexample, r->n, ",");
        printf("],\"output\":[");
        print_bits(r->output, r->n, ",");
        printf("],");
    }
    printf("\"redundant\":[");
    for (size_t i = 0; i < r->redundant_count; i++)
        printf("%s%zu", i ? "," : "", r->redundant[i]);
    printf("]}\n");
}

static void print_text(const sn_check_result *r, const char *spec)
{
    if (r->sorts) {
        if (r->method == SN_CHECK_BRUTEFORCE)
            printf("sorts: yes (proved by brute force over 2^%u inputs in %.2f s)\n", r->n,
                   r->seconds);
        else
            printf("sorts: yes (proved by the reduction: %llu patterns, largest set %zu, "
                   "in %.2f s)\n",
                   (unsigned long long)r->inputs, r->max_patterns, r->seconds);
    } else {
        printf("sorts: no (%s, %.2f s)\n",
               r->method == SN_CHECK_BRUTEFORCE ? "brute force" : "reduction", r->seconds);
        printf("counterexample (smallest failing 0-1 input, wire 0 first):\n  input:  ");
        print_bits(r->counterexample, r->n, "");
        printf("\n  output: ");
        print_bits(r->output, r->n, "");
        printf("\n  first out of order: positions %u and %u (%u > %u)\n", r->first_unsorted,
               r->first_unsorted + 1, r->output[r->first_unsorted],
               r->output[r->first_unsorted + 1]);
        printf("  replay: sortnet run %s --input ", spec);
        print_bits(r->counterexample, r->n, ",");
        printf("\n  failing 0-1 inputs: %llu\n", (unsigned long long)r->failing_count);
    }
    printf("redundant comparators: ");
    if (!r->redundant_count)
        printf("none");
    for (size_t i = 0; i < r->redundant_count; i++)
        printf("%s%zu", i ? " " : "", r->redundant[i]);
    printf("%s\n", r->redundant_count ? " (never swap; indices in layer order)" : "");
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"threads", 1, NULL, 't'}, {"method", 1, NULL, 'm'},
                                         {"force", 0, NULL, 'f'},   {"json", 0, NULL, 'j'},
                                         {"device", 1, NULL, 'd'},  {"help", 0, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
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
                                 "'%s' is not one of auto, bruteforce, reduce", optarg);
            break;
        case 'f': opt.force = true; break;
        case 'j': json = true; break;
        case 'd': device = optarg; break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("check", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "check", "expected one network (see --help)");
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

    progress_state ps = {0, false};
    if (isatty(fileno(stderr))) {
        opt.progress = progress;
        opt.progress_user = &ps;
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    interrupted = 0;
    opt.cancel = &interrupted;

    sn_check_result res;
    sn_status st;
    char devname[320] = "";
#ifdef SN_HAVE_OPENCL
    if (device) {
        sn_gpu *g = NULL;
        st = sn_gpu_open(dev_spec, &g, &d);
        if (st == SN_OK) {
            snprintf(devname, sizeof devname, "%s", sn_gpu_device_name(g));
            st = sn_gpu_check(g, net, &opt, &res, &d);
        }
        sn_gpu_close(g);
    } else {
        st = sn_check_run(net, &opt, &res, &d);
    }
#else
    (void)dev_spec;
    st = sn_check_run(net, &opt, &res, &d);
#endif
    sigaction(SIGINT, &old, NULL);
    if (ps.shown)
        fprintf(stderr, "\r%60s\r", "");

    if (st == SN_EINTERRUPTED) {
        rc = cli_error(130, "check", "interrupted; no verdict");
    } else if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), "check", "%s: %s%s", spec, d.text,
                       st == SN_ELIMIT ? " (use --force to run anyway)" : "");
    } else {
        if (json) {
            print_json(&res);
        } else {
            print_text(&res, spec);
            if (devname[0])
                printf("checked on: %s\n", devname);
        }
        rc = res.sorts ? CLI_OK : CLI_NEGATIVE;
        sn_check_result_free(&res);
    }
    sn_network_destroy(owned);
    sn_schedule_destroy(s);
    return rc;
}
