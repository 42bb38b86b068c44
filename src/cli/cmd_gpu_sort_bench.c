/* cmd_gpu_sort_bench.c - the GPU sorts as rows of `sortnet gpu bench`, beside
 * the networks' variants (cmd_gpu_sort.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_time.h"
#include "cmd_gpu_sort.h"
#include "core/alloc.h"
#include "gpu/sorts.h"

static bool bench_variant(const char *name, sn_gpu_sort_opts *o)
{
    memset(o, 0, sizeof *o);
    if (strcmp(name, "radix4") == 0) {
        o->algo = SN_SORT_RADIX;
        o->radix_bits = 4;
        return true;
    }
    return sn_sort_algo_parse(name, &o->algo);
}

bool cli_gpu_sort_is_variant(const char *name)
{
    sn_gpu_sort_opts o;
    return bench_variant(name, &o);
}

void cli_gpu_sort_bench_done(void *cache)
{
    sn_gpu_sorter_destroy(cache);
}

static bool in_order(sn_key_type t, const uint32_t *k, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (sn_key_to_ordered(t, k[i - 1]) > sn_key_to_ordered(t, k[i]))
            return false;
    return true;
}

int cli_gpu_sort_bench_point(sn_gpu *g, void **cache, const char *name, sn_key_type t,
                             const uint32_t *input, const uint32_t *sorted, uint32_t n, size_t reps,
                             gpu_sort_point *out)
{
    memset(out, 0, sizeof *out);
    sn_gpu_sort_opts o;
    if (!bench_variant(name, &o))
        return cli_error(CLI_USAGE, "gpu bench", "'%s' is not a sort", name);
    o.type = t;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = SN_OK;
    if (!*cache) {
        sn_gpu_sorter *so = NULL;
        st = sn_gpu_sorter_create(g, &so, &d);
        *cache = so;
    }
    bool pinned = sn_gpu_pinned(g);
    uint32_t *work =
        pinned ? sn_gpu_host_alloc(g, n ? (size_t)n * 4 : 4, &d) : sn_malloc(n ? (size_t)n * 4 : 4);
    double *kt = sn_calloc(reps, sizeof *kt), *ht = sn_calloc(reps, sizeof *ht);
    int rc = 0;
    if (!work && pinned) { /* the device's pinned memory: what it answered */
        rc = cli_error(CLI_DEVICE, "gpu bench", "%s: %s", name, d.text);
        goto done;
    }
    if (!work || !kt || !ht) {
        rc = cli_error(CLI_DEVICE, "gpu bench", "out of memory for %u keys", n);
        goto done;
    }
    sn_gpu_sort_stats s;
    for (size_t r = 0; st == SN_OK && r <= reps; r++) {
        memcpy(work, input, (size_t)n * 4);
        st = sn_gpu_sort(*cache, &o, work, NULL, n, &s, &d);
        if (st == SN_OK && r > 0) {
            kt[r - 1] = s.kernel_ms;
            ht[r - 1] = s.host_ms;
        }
        if (st == SN_OK &&
            !(sorted ? memcmp(work, sorted, (size_t)n * 4) == 0 : in_order(t, work, n))) {
            rc = cli_error(CLI_NEGATIVE, "gpu bench", "%s %u: the output is wrong", name, n);
            goto done;
        }
    }
    if (st == SN_ELIMIT) {
        out->skipped = true;
        snprintf(out->why, sizeof out->why, "%.200s", d.text);
    } else if (st != SN_OK) {
        rc = cli_error(cli_status_exit(st), "gpu bench", "%s: %s", name, d.text);
    } else {
        out->kernel_ms = cli_median(kt, reps);
        out->host_ms = cli_median(ht, reps);
        out->launches = s.launches;
    }
done:
    if (pinned)
        sn_gpu_host_free(g, work);
    else
        sn_free(work);
    sn_free(kt);
    sn_free(ht);
    return rc;
}
