/* bench_check.c - speed of the 0-1 checker: brute-force inputs per second
 * and core against a one-input-at-a-time baseline measured in the same run,
 * a 32-input network of ~190 comparators, and the reduction on 64-input
 * networks (time and the largest pattern set). Prints a table. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_cli.h"
#include "core/alloc.h"
#include "core/check.h"
#include "core/schedule.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static sn_network *gen(sn_algo algo, uint32_t n)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    if (sn_schedule_generate(algo, n, &s, NULL) == SN_OK)
        sn_schedule_to_network(s, &net, NULL);
    sn_schedule_destroy(s);
    return net;
}

/* The baseline: what libsortnetwork's sn-check-bf does, one input at a
 * time, over the first `count` inputs. Returns inputs per second. */
static double baseline_rate(const sn_network *net, uint64_t count)
{
    uint32_t n = sn_network_wires(net);
    size_t m = sn_network_size(net);
    sn_comparator *cmp = sn_calloc(m, sizeof *cmp);
    for (size_t j = 0; j < m; j++)
        sn_network_comparator(net, j, &cmp[j], NULL);
    uint8_t v[64];
    uint64_t bad = 0;
    double t0 = now();
    for (uint64_t x = 0; x < count; x++) {
        for (uint32_t i = 0; i < n; i++)
            v[i] = (uint8_t)((x >> i) & 1u);
        for (size_t j = 0; j < m; j++) {
            if (v[cmp[j].a] > v[cmp[j].b]) {
                v[cmp[j].a] = 0;
                v[cmp[j].b] = 1;
            }
        }
        for (uint32_t i = 0; i + 1 < n; i++)
            bad += v[i] > v[i + 1];
    }
    double t = now() - t0;
    sn_free(cmp);
    if (bad)
        printf("(baseline found failures?)\n");
    return (double)count / t;
}

static int run(const char *name, const sn_network *net, sn_check_method m, unsigned threads,
               sn_check_result *res)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.method = m;
    opt.threads = threads;
    sn_diag d;
    sn_status st = sn_check_run(net, &opt, res, &d);
    if (st != SN_OK) {
        printf("%-26s %s: %s\n", name, sn_status_str(st), d.text);
        return 1;
    }
    if (!res->sorts)
        printf("%-26s does not sort?\n", name);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long nthreads = 0;
    bench_cli(argc, argv,
              "usage: bench_check [THREADS]\n\n"
              "Speed of the 0-1 checker: brute-force inputs per second and core on\n"
              "24-input networks with one thread and with THREADS (default 0: one per\n"
              "core, up to 1024), a 32-input network, and the reduction on 64-input\n"
              "networks (time and the largest pattern set). Prints a table.\n",
              "THREADS", 0, 1024, &nthreads);
    unsigned threads = (unsigned)nthreads;
    printf("%-26s %7s %8s %10s %14s %12s\n", "network", "method", "threads", "seconds",
           "inputs/s/core", "largest set");
    /* brute force on 100-200 comparator networks, 1 thread and all */
    static const struct {
        sn_algo algo;
        uint32_t n;
    } bf[] = {{SN_ALGO_BITONIC, 24}, {SN_ALGO_ODDEVEN_MERGE, 24}};
    double base = 0.0, best = 0.0;
    for (size_t k = 0; k < 2; k++) {
        sn_network *net = gen(bf[k].algo, bf[k].n);
        char name[64];
        snprintf(name, sizeof name, "%s:%u (%zu cmp)", sn_algo_name(bf[k].algo), bf[k].n,
                 sn_network_size(net));
        unsigned tl[2] = {1, threads};
        for (int i = 0; i < 2; i++) {
            sn_check_result res;
            if (run(name, net, SN_CHECK_BRUTEFORCE, tl[i], &res) == 0) {
                double rate = (double)res.inputs / res.seconds / (tl[i] ? tl[i] : 1);
                printf("%-26s %7s %8u %10.4f %14.3g %12s\n", name, "bf", tl[i], res.seconds, rate,
                       "-");
                if (tl[i] == 1 && rate > best)
                    best = rate;
                sn_check_result_free(&res);
            }
        }
        if (k == 0) {
            base = baseline_rate(net, (uint64_t)1 << 20);
            printf("%-26s %7s %8u %10s %14.3g %12s\n", name, "1-by-1", 1u, "-", base, "-");
        }
        sn_network_destroy(net);
    }
    printf("brute force vs one input at a time (1 core): %.0fx\n\n", best / base);

    /* 32 inputs, ~190 comparators; 64 inputs through the reduction */
    static const struct {
        sn_algo algo;
        uint32_t n;
    } rd[] = {{SN_ALGO_ODDEVEN_MERGE, 32}, {SN_ALGO_PAIRWISE, 32}, {SN_ALGO_BITONIC, 32},
              {SN_ALGO_ODDEVEN_MERGE, 64}, {SN_ALGO_PAIRWISE, 64}, {SN_ALGO_BITONIC, 64}};
    for (size_t k = 0; k < sizeof rd / sizeof rd[0]; k++) {
        sn_network *net = gen(rd[k].algo, rd[k].n);
        char name[64];
        snprintf(name, sizeof name, "%s:%u (%zu cmp)", sn_algo_name(rd[k].algo), rd[k].n,
                 sn_network_size(net));
        sn_check_result res;
        if (run(name, net, SN_CHECK_AUTO, threads, &res) == 0) {
            printf("%-26s %7s %8u %10.4f %14s %12zu\n", name, sn_check_method_name(res.method),
                   threads, res.seconds, "-", res.max_patterns);
            sn_check_result_free(&res);
        }
        sn_network_destroy(net);
    }
    return 0;
}
