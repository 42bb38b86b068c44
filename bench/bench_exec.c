/* bench_exec.c - the reference executor on bitonic and odd-even merge
 * schedules against glibc qsort, on the same random int32 keys, in one run;
 * and the executor against itself with every global layer in a pass of its
 * own (no sweeps: how it ran before). Prints seconds and ratios (< 1 means
 * faster). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static const char usage[] =
    "usage: bench_exec [REPS [LOG2N ...]]\n\n"
    "The reference executor on bitonic and odd-even merge schedules of 2^LOG2N\n"
    "random int32 keys (default 2^20 and 2^24; LOG2N 4 to 31), in one run: the\n"
    "best of REPS runs each (default 3, 1..1000), in seconds: the executor on\n"
    "one thread (up to 2^24 keys), on all (sn_exec_run's automatic count), and\n"
    "on all with every global layer in a pass of its own (no_sweep: the\n"
    "executor before sweeps); glibc qsort on the same keys (up to 2^24); the\n"
    "ratios one-thread executor / qsort, threads' speed-up, and all threads\n"
    "/ all threads without sweeps (< 1: the sweeps are faster).\n";

/* A whole number in [lo, hi] or exit 2. */
static unsigned long arg_num(const char *s, const char *what, unsigned long lo, unsigned long hi)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || v < lo || v > hi) {
        fprintf(stderr,
                "bench_exec: %s must be a whole number from %lu to %lu, not '%s' (see "
                "--help)\n",
                what, lo, hi, s);
        exit(2);
    }
    return v;
}

/* Best of reps: the executor with o on a copy of src. */
static double time_exec(const sn_schedule *s, const uint32_t *src, uint32_t *k, uint32_t n,
                        const sn_exec_opts *o, unsigned long reps)
{
    double best = 1e30;
    for (unsigned long r = 0; r < reps; r++) {
        memcpy(k, src, (size_t)n * 4);
        double t0 = now();
        sn_exec_run_opts(s, SN_KEY_I32, k, NULL, o);
        double t = now() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static double time_qsort(const uint32_t *src, uint32_t *k, uint32_t n, unsigned long reps)
{
    double best = 1e30;
    for (unsigned long r = 0; r < reps; r++) {
        memcpy(k, src, (size_t)n * 4);
        double t0 = now();
        qsort(k, n, 4, cmp_i32);
        double t = now() - t0;
        best = t < best ? t : best;
    }
    return best;
}

static int bench_size(uint32_t n, unsigned long reps)
{
    const sn_algo algos[] = {SN_ALGO_BITONIC, SN_ALGO_ODDEVEN_MERGE};
    uint32_t *src = malloc((size_t)n * 4), *k = malloc((size_t)n * 4);
    if (!src || !k)
        return 1;
    uint64_t st = 42;
    for (uint32_t i = 0; i < n; i++) {
        st = st * 6364136223846793005ull + 1442695040888963407ull;
        src[i] = (uint32_t)(st >> 32);
    }
    bool small = n <= (1u << 24);
    double tq = small ? time_qsort(src, k, n, reps) : 0;
    for (size_t ai = 0; ai < 2; ai++) {
        sn_schedule *s = NULL;
        if (sn_schedule_generate(algos[ai], n, &s, NULL) != SN_OK)
            return 1;
        sn_exec_opts one = {.threads = 1}, all = {0}, old = {.no_sweep = true};
        double t1 = small ? time_exec(s, src, k, n, &one, reps) : 0;
        double to = time_exec(s, src, k, n, &old, reps);
        double ta = time_exec(s, src, k, n, &all, reps);
        for (uint32_t i = 1; i < n; i++)
            if ((int32_t)k[i - 1] > (int32_t)k[i]) {
                fprintf(stderr, "bench_exec: %s did not sort\n", sn_schedule_name(s));
                return 1;
            }
        if (small)
            printf("%-14s %11u %10.3f %7u %9.3f %9.3f %9.3f %8.2f %7.2f %8.2f\n",
                   sn_algo_name(algos[ai]), n, t1, sn_exec_threads_auto(n), ta, to, tq, t1 / tq,
                   t1 / ta, ta / to);
        else
            printf("%-14s %11u %10s %7u %9.3f %9.3f %9s %8s %7s %8.2f\n", sn_algo_name(algos[ai]),
                   n, "-", sn_exec_threads_auto(n), ta, to, "-", "-", "-", ta / to);
        fflush(stdout);
        sn_schedule_destroy(s);
    }
    free(src);
    free(k);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
    unsigned long reps = argc > 1 ? arg_num(argv[1], "REPS", 1, 1000) : 3;
    uint32_t sizes[32] = {1u << 20, 1u << 24};
    int count = 2;
    if (argc > 2) {
        count = 0;
        for (int i = 2; i < argc && count < 32; i++)
            sizes[count++] = 1u << arg_num(argv[i], "LOG2N", 4, 31);
    }
    printf("%-14s %11s %10s %7s %9s %9s %9s %8s %7s %8s\n", "schedule", "n", "exec_1t_s", "threads",
           "exec_s", "nosweep_s", "qsort_s", "1t/qsort", "speedup", "new/old");
    for (int i = 0; i < count; i++)
        if (bench_size(sizes[i], reps) != 0)
            return 1;
    return 0;
}
