/* cmd_gpu_sort_cost.c - what `sortnet gpu sort` says before and during a
 * long run: the O(n^2) sorts' estimate (sn_gpu_sort_estimate) checked
 * against GPU_SORT_LIMIT_S unless --force, and the transposition sorts'
 * progress on stderr. */
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "cli_time.h"
#include "cmd_gpu_sort.h"

/* "45 s", "16 min", "3.2 h" */
static void duration(double s, char *buf, size_t cap)
{
    if (s < 90)
        snprintf(buf, cap, "%.0f s", s < 1 ? 1 : s);
    else if (s < 5400)
        snprintf(buf, cap, "%.0f min", s / 60);
    else if (s < 172800)
        snprintf(buf, cap, "%.1f h", s / 3600);
    else
        snprintf(buf, cap, "%.0f days", s / 86400);
}

/* The farthest any key stands from its place in the reference's output
 * (rp: each output place's original index). */
static size_t displacement(const uint32_t *rp, size_t n)
{
    size_t d = 0;
    for (size_t j = 0; j < n; j++) {
        size_t m = rp[j] > j ? rp[j] - j : j - rp[j];
        d = m > d ? m : d;
    }
    return d;
}

/* The work an estimate counts, for its messages. */
static void cost_text(uint64_t n, const sn_gpu_sort_cost *c, char *buf, size_t cap)
{
    if (c->comparisons > 0)
        snprintf(buf, cap, "%.3g comparisons", c->comparisons);
    else
        snprintf(buf, cap, "%s%llu rounds of 2 launches over %llu keys",
                 c->rounds * 2 >= n ? "" : "about ", (unsigned long long)c->rounds,
                 (unsigned long long)n);
}

/* (cmd_gpu_sort.h says when it prints) */
void cli_gpu_sort_progress_rounds(void *ctx, uint64_t done, uint64_t cap)
{
    gpu_sort_progress *p = ctx;
    double now = cli_now_ms(), s = (now - p->t0) / 1000;
    if (p->tty ? now - p->last < 250 : s < GPU_SORT_PROGRESS_S || now - p->last < 30000)
        return;
    p->last = now;
    p->shown = true;
    fprintf(stderr, "%ssortnet: gpu sort: round %llu of at most %llu (%.0f%%), %.0f s%s",
            p->tty ? "\r" : "", (unsigned long long)done, (unsigned long long)cap,
            100.0 * (double)done / (double)(cap ? cap : 1), s, p->tty ? "" : "\n");
    fflush(stderr);
}

int cli_gpu_sort_check_cost(const sn_gpu *g, const sn_gpu_sort_opts *o, uint64_t keys, bool force,
                            const uint32_t *rp, double *est)
{
    bool tr = o->algo == SN_SORT_TRANSPOSITION || o->algo == SN_SORT_TRANSPOSITION_LOCAL;
    size_t n = (size_t)keys;
    sn_gpu_sort_cost c = sn_gpu_sort_estimate(g, o, n, tr && rp ? displacement(rp, n) : SIZE_MAX);
    *est = c.seconds;
    if (c.seconds <= GPU_SORT_PROGRESS_S)
        return 0;
    char work[96], time[32];
    cost_text(keys, &c, work, sizeof work);
    duration(c.seconds, time, sizeof time);
    const char *type = sn_gpu_info(g)->type;
    if (c.seconds > GPU_SORT_LIMIT_S && !force)
        return cli_error(CLI_USAGE, "gpu sort",
                         "%s on %llu keys: %s, estimated %s on this %s device (more than the "
                         "%.0f s allowed without --force; --force runs it%s)",
                         sn_sort_algo_name(o->algo), (unsigned long long)keys, work, time, type,
                         GPU_SORT_LIMIT_S, tr ? ", with progress on stderr" : "");
    fprintf(stderr, "sortnet: gpu sort: %s on %llu keys: %s, estimated %s%s\n",
            sn_sort_algo_name(o->algo), (unsigned long long)keys, work, time,
            tr ? "" : " (one launch: no progress to show)");
    return 0;
}
