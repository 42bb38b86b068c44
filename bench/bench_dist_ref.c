/* bench_dist_ref.c - the single-process baseline of bench/dist_bench.sh:
 * the same keys as `sortnet dist sort --keys N --seed S` (sn_dist_key),
 * sorted by the host's parallel LSD radix sort (what a CPU rank runs as
 * its local sort) in one process without MPI. Prints one line per N:
 * "N seconds keys_per_second" (the median of REPS runs).
 *
 *   bench_dist_ref [REPS] LOG2N...   (default: 3 runs of 2^20..2^24) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/alloc.h"
#include "dist/dist.h"
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
    int reps = argc > 1 ? atoi(argv[1]) : 3;
    int from = 2, nl = argc - 2;
    int def[] = {20, 21, 22, 23, 24};
    if (reps < 1)
        reps = 1;
    if (nl <= 0)
        nl = 5;
    for (int a = 0; a < nl; a++) {
        int lg = argc > 2 ? atoi(argv[from + a]) : def[a];
        size_t n = (size_t)1 << lg;
        uint32_t *k = sn_malloc(n * 4), *o = sn_malloc(n * 4);
        double t[32];
        if (!k || !o)
            return 5;
        for (size_t i = 0; i < n; i++)
            k[i] = sn_dist_key(1, i, SN_KEY_I32, 0);
        for (int r = 0; r < reps && r < 32; r++) {
            double t0 = now();
            sn_diag d;
            if (sn_sort_reference(SN_KEY_I32, k, NULL, n, o, NULL, &d) != SN_OK)
                return 5;
            t[r] = now() - t0;
        }
        qsort(t, (size_t)(reps < 32 ? reps : 32), sizeof t[0], cmp_d);
        double med = t[(reps < 32 ? reps : 32) / 2];
        printf("%zu %.6f %.4g\n", n, med, (double)n / med);
        sn_free(k);
        sn_free(o);
    }
    return 0;
}
