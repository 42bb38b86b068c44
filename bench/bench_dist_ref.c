/* bench_dist_ref.c - the single-process baseline of bench/dist_bench.sh:
 * the same keys as `sortnet dist sort --keys N --seed S` (sn_dist_key),
 * sorted by the host's parallel LSD radix sort (what a CPU rank runs as
 * its local sort) in one process without MPI. Prints one line per N:
 * "N seconds keys_per_second" (the median of 3 runs).
 *
 *   bench_dist_ref [MAXLOG]   (N = 2^20 .. 2^MAXLOG, default 24) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_cli.h"
#include "core/alloc.h"
#include "mpi/dist.h"
#include "gpu/sorts.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    unsigned long maxlog = 24;
    bench_cli(argc, argv,
              "usage: bench_dist_ref [MAXLOG]\n"
              "The single-process baseline of bench/dist_bench.sh: the keys of `sortnet dist\n"
              "sort --keys N --seed 1` sorted by the host's radix sort in one process, for\n"
              "N = 2^20 .. 2^MAXLOG (20..30, default 24); prints N, seconds, keys/s\n"
              "(medians of 3 runs).\n",
              "MAXLOG", 20, 30, &maxlog);
    enum { REPS = 3 };
    for (unsigned long lg = 20; lg <= maxlog; lg++) {
        size_t n = (size_t)1 << lg;
        uint32_t *k = sn_malloc(n * 4), *o = sn_malloc(n * 4);
        double t[REPS];
        if (!k || !o)
            return 5;
        for (size_t i = 0; i < n; i++)
            k[i] = sn_dist_key(1, i, SN_KEY_I32, 0);
        for (int r = 0; r < REPS; r++) {
            double t0 = now();
            sn_diag d;
            if (sn_sort_reference(SN_KEY_I32, k, NULL, n, o, NULL, &d) != SN_OK)
                return 5;
            t[r] = now() - t0;
        }
        qsort(t, REPS, sizeof t[0], cmp_d);
        printf("%zu %.6f %.4g\n", n, t[REPS / 2], (double)n / t[REPS / 2]);
        sn_free(k);
        sn_free(o);
    }
    return 0;
}
