/* bench_exec.c - the reference executor on bitonic and odd-even merge
 * schedules against glibc qsort, on the same random int32 keys, in one run.
 * Prints seconds and the ratio executor / qsort (< 1 means faster). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_cli.h"
#include "core/exec.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    unsigned long reps = 3;
    bench_cli(argc, argv,
              "usage: bench_exec [REPS]\n\n"
              "The reference executor on bitonic and odd-even merge schedules of 2^20 and\n"
              "2^24 random int32 keys against glibc qsort on the same keys, in one run:\n"
              "the best of REPS runs each (default 3, 1..1000), in seconds: the executor\n"
              "on one thread and on all (sn_exec_run's automatic count), the ratio\n"
              "one-thread executor / qsort (< 1: faster) and the threads' speed-up.\n",
              "REPS", 1, 1000, &reps);
    uint32_t sizes[] = {1u << 20, 1u << 24};
    sn_algo algos[] = {SN_ALGO_BITONIC, SN_ALGO_ODDEVEN_MERGE};
    printf("%-16s %10s %12s %8s %12s %12s %8s %8s\n", "schedule", "n", "exec_1t_s", "threads",
           "exec_s", "qsort_s", "1t/qsort", "speedup");
    for (size_t si = 0; si < 2; si++) {
        uint32_t n = sizes[si];
        uint32_t *src = malloc((size_t)n * 4), *k = malloc((size_t)n * 4);
        if (!src || !k)
            return 1;
        uint64_t st = 42;
        for (uint32_t i = 0; i < n; i++) {
            st = st * 6364136223846793005ull + 1442695040888963407ull;
            src[i] = (uint32_t)(st >> 32);
        }
        /* best of reps, qsort measured in the same run */
        double tq = 1e30;
        for (unsigned long r = 0; r < reps; r++) {
            memcpy(k, src, (size_t)n * 4);
            double t0 = now();
            qsort(k, n, 4, cmp_i32);
            double t = now() - t0;
            tq = t < tq ? t : tq;
        }
        for (size_t ai = 0; ai < 2; ai++) {
            sn_schedule *s = NULL;
            if (sn_schedule_generate(algos[ai], n, &s, NULL) != SN_OK)
                return 1;
            double te[2] = {1e30, 1e30};
            for (int all = 0; all < 2; all++)
                for (unsigned long r = 0; r < reps; r++) {
                    memcpy(k, src, (size_t)n * 4);
                    double t0 = now();
                    sn_exec_run_threads(s, SN_KEY_I32, k, NULL, all ? 0 : 1);
                    double t = now() - t0;
                    te[all] = t < te[all] ? t : te[all];
                }
            for (uint32_t i = 1; i < n; i++)
                if ((int32_t)k[i - 1] > (int32_t)k[i]) {
                    fprintf(stderr, "bench_exec: %s did not sort\n", sn_schedule_name(s));
                    return 1;
                }
            printf("%-16s %10u %12.3f %8u %12.3f %12.3f %8.2f %8.2f\n", sn_algo_name(algos[ai]), n,
                   te[0], sn_exec_threads_auto(n), te[1], tq, te[0] / tq, te[0] / te[1]);
            sn_schedule_destroy(s);
        }
        free(src);
        free(k);
    }
    return 0;
}
