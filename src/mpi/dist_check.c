/* dist_check.c - the 0-1 brute force split over MPI ranks: rank r takes
 * its contiguous range of the 2^n inputs (64 at a time, bit-sliced: one
 * word per wire, a comparator is an AND and an OR), on all its cores or on
 * its OpenCL device (sn_gpu_check_range); the failing count, the smallest
 * failing input and which comparators ever swap are reduced over the
 * ranks, so every rank ends with the verdict of sn_check_run's brute
 * force. Invariant: the ranks' ranges are disjoint, 64-aligned and cover
 * [0, 2^n), so a sum, a minimum and an OR over them are the whole proof's. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"
#include "mpi/dist.h"
#include "gpu/gpu.h" /* for: sn_gpu_check_range (a rank's range on its device) */

#define CHUNKS_PER_TASK 4096

typedef struct bf_job {
    const sn_network *net;
    uint32_t n;
    size_t ncmp;
    uint64_t q0, q1; /* this rank's chunks of 64 inputs */
    uint64_t valid;  /* the bits of a chunk that are inputs (n < 6: fewer than 64) */
    size_t tasks;
    uint64_t *fails, *first; /* [tasks] */
    uint8_t *swapped;        /* [tasks * ncmp] */
} bf_job;

/* bit x of pats[i] is bit i of x: the low six wires of 64 inputs */
static const uint64_t pats[6] = {0xAAAAAAAAAAAAAAAAull, 0xCCCCCCCCCCCCCCCCull,
                                 0xF0F0F0F0F0F0F0F0ull, 0xFF00FF00FF00FF00ull,
                                 0xFFFF0000FFFF0000ull, 0xFFFFFFFF00000000ull};

static void bf_task(void *ctx, size_t t)
{
    bf_job *j = ctx;
    uint64_t span = j->q1 - j->q0, a = j->q0 + span * t / j->tasks,
             b = j->q0 + span * (t + 1) / j->tasks;
    uint64_t w[64];
    uint8_t *sw = j->swapped + t * j->ncmp;
    uint64_t fails = 0, first = UINT64_MAX;
    for (uint64_t q = a; q < b; q++) {
        for (uint32_t i = 0; i < j->n; i++) {
            if (i < 6) {
                w[i] = pats[i];
            } else {
                w[i] = (q >> (i - 6)) & 1u ? ~0ull : 0ull;
            }
        }
        size_t k = 0;
        for (size_t L = 0; L < sn_network_layer_count(j->net); L++) {
            size_t nc;
            const sn_comparator *cs = sn_network_layer(j->net, L, &nc);
            for (size_t i = 0; i < nc; i++, k++) {
                uint64_t x = w[cs[i].a], y = w[cs[i].b];
                if (x & ~y & j->valid)
                    sw[k] = 1;
                w[cs[i].a] = x & y; /* wire a takes the minimum */
                w[cs[i].b] = x | y;
            }
        }
        uint64_t bad = 0;
        for (uint32_t i = 0; i + 1 < j->n; i++)
            bad |= w[i] & ~w[i + 1];
        bad &= j->valid;
        if (bad) {
            fails += (uint64_t)__builtin_popcountll(bad);
            if (first == UINT64_MAX)
                first = q * 64 + (uint64_t)__builtin_ctzll(bad);
        }
    }
    j->fails[t] = fails;
    j->first[t] = first;
}

/* Where rank r's range of Q blocks starts: rank r takes
 * [range_at(r), range_at(r + 1)), sizes differing by at most one (no
 * overflow for Q up to 2^57). */
static uint64_t range_at(uint64_t Q, int P, int r)
{
    uint64_t p = (uint64_t)P, u = (uint64_t)r;
    return Q / p * u + (u < Q % p ? u : Q % p);
}

/* This rank's range [q0, q1) of 64-input blocks on its device; what it
 * found into j (fails[0], first[0], swapped[0..ncmp)). name[160]: the
 * device's. */
static sn_status device_range(const bf_job *j, const sn_check_options *opt, const char *device,
                              int local_rank, char name[160], sn_diag *diag)
{
    char spec[32];
    const char *type = "";
    if (device[0]) {
        snprintf(spec, sizeof spec, "%s", device);
    } else if (!sn_dist_device_pick(local_rank, true, spec, &type)) {
        return sn_diag_set(diag, SN_ENODEVICE, 0, 0, "no OpenCL device for this rank's range");
    }
    sn_gpu *g = NULL;
    sn_status st = sn_gpu_open(spec, &g, diag);
    if (st == SN_OK) {
        snprintf(name, 160, "%s", sn_gpu_device_name(g));
        uint64_t total = (uint64_t)1 << j->n;
        uint64_t lo = j->q0 * 64, hi = j->q1 * 64 < total ? j->q1 * 64 : total;
        if (lo > hi)
            lo = hi = 0; /* an empty range: fewer than 64 inputs in all */
        st = sn_gpu_check_range(g, j->net, opt, lo, hi, &j->fails[0], &j->first[0], j->swapped,
                                diag);
    }
    sn_gpu_close(g);
    return st;
}

/* where (rank 0): the ranks' device names, "NAME (every rank)" when all alike.
 * Collective. */
static void device_where(const char name[160], int P, char where[320])
{
    int me = sn_dist_rank();
    char *all = me == 0 ? sn_malloc((size_t)P * 160) : NULL;
    char dummy[160];
    MPI_Gather(name, 160, MPI_CHAR, all ? all : dummy, 160, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (me != 0 || !where) {
        sn_free(all);
        return;
    }
    if (!all) {
        snprintf(where, 320, "%d MPI ranks, each its range of the 0-1 inputs on its OpenCL device",
                 P);
        return;
    }
    bool same = true;
    for (int r = 1; r < P; r++)
        same = same && strcmp(all + (size_t)r * 160, all) == 0;
    int len = snprintf(where, 320, "%d MPI ranks, each its range of the 0-1 inputs on ", P);
    if (same) {
        snprintf(where + len, 320 - (size_t)len, "%.159s (every rank)", all);
    } else {
        for (int r = 0; r < P && len < 300; r++)
            len += snprintf(where + len, 320 - (size_t)len, "%s%.100s (rank %d)", r ? ", " : "",
                            all + (size_t)r * 160, r);
    }
    sn_free(all);
}

sn_status sn_dist_check(const sn_network *net, const sn_check_options *opt, const char *device,
                        sn_check_result *res, char where[320], sn_diag *diag)
{
    memset(res, 0, sizeof *res);
    double t0 = MPI_Wtime();
    uint32_t n = sn_network_wires(net);
    int P = sn_dist_size(), me = sn_dist_rank();
    int local_rank = 0; /* the ranks of a host share its cores (and its GPUs) */
    int node_size = sn_dist_local(&local_rank);
    unsigned threads =
        opt && opt->threads ? opt->threads : sn_parallel_cpus() / (unsigned)node_size;
    threads = threads ? threads : 1;
    if (device && n > 63) /* the device's own limits (n > 44 without force) are agreed below */
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%u wires: the device brute force handles at most 63 (2^n inputs)", n);
    double est = device ? 0.0 : sn_check_bruteforce_seconds(net, threads) / (double)P;
    if (!device && n > 40)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "brute force over 2^%u inputs split over %d ranks: at most 40 wires", n,
                           P);
    if (!(opt && opt->force) && est > 60.0)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "brute force over 2^%u = %.3g inputs would take about %.3g s on %d "
                           "ranks of %u thread(s); refusing without force",
                           n, ldexp(1.0, (int)n), est, P, threads);
    if (where && !device)
        snprintf(where, 320, "%d MPI ranks, each its range of the 0-1 inputs", P);
    bf_job j = {0};
    j.net = net;
    j.n = n;
    j.ncmp = sn_network_size(net);
    uint64_t Q = n >= 6 ? 1ull << (n - 6) : 1;
    j.valid = n >= 6 ? ~0ull : (1ull << (1u << n)) - 1;
    j.q0 = range_at(Q, P, me);
    j.q1 = range_at(Q, P, me + 1);
    uint64_t span = j.q1 - j.q0;
    j.tasks = device ? 1 : (size_t)((span + CHUNKS_PER_TASK - 1) / CHUNKS_PER_TASK);
    if (!device && j.tasks < threads && span >= threads)
        j.tasks = threads;
    if (j.tasks == 0)
        j.tasks = 1;
    j.fails = sn_calloc(j.tasks, 8);
    j.first = sn_calloc(j.tasks, 8);
    j.swapped = sn_calloc(j.tasks * j.ncmp + 1, 1);
    uint8_t *sw = sn_calloc(j.ncmp + 1, 1), *swall = sn_calloc(j.ncmp + 1, 1);
    sn_status st = j.fails && j.first && j.swapped && sw && swall
                       ? SN_OK
                       : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    char name[160] = "";
    if (st == SN_OK && device) {
        st = device_range(&j, opt, device, local_rank, name, diag);
    } else if (st == SN_OK) {
        if (span)
            sn_parallel_for(j.tasks, threads, bf_task, &j);
        else
            j.first[0] = UINT64_MAX;
    }
    if (device)
        device_where(name, P, where);
    if ((st = sn_dist_agree(st, diag)) == SN_OK) {
        uint64_t fl[2] = {0, UINT64_MAX}, all[2];
        for (size_t t = 0; t < j.tasks; t++) {
            fl[0] += j.fails[t];
            if (j.first[t] < fl[1])
                fl[1] = j.first[t];
            for (size_t k = 0; k < j.ncmp; k++)
                sw[k] |= j.swapped[t * j.ncmp + k];
        }
        MPI_Allreduce(&fl[0], &all[0], 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&fl[1], &all[1], 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
        MPI_Allreduce(sw, swall, (int)j.ncmp, MPI_UNSIGNED_CHAR, MPI_BOR, MPI_COMM_WORLD);
        res->n = n;
        res->method = SN_CHECK_BRUTEFORCE;
        res->failing_count = all[0];
        res->sorts = all[0] == 0;
        res->inputs = 1ull << n;
        size_t nr = 0;
        for (size_t k = 0; k < j.ncmp; k++)
            nr += !swall[k];
        res->redundant = nr ? sn_malloc(nr * sizeof(size_t)) : NULL;
        for (size_t k = 0; k < j.ncmp && res->redundant; k++)
            if (!swall[k])
                res->redundant[res->redundant_count++] = k;
        if (!res->sorts) {
            res->counterexample_index = all[1];
            res->counterexample = sn_malloc(n);
            res->output = sn_malloc(n);
            if (res->counterexample && res->output) {
                for (uint32_t i = 0; i < n; i++)
                    res->counterexample[i] = res->output[i] = (uint8_t)((all[1] >> i) & 1u);
                for (size_t L = 0; L < sn_network_layer_count(net); L++) {
                    size_t nc;
                    const sn_comparator *cs = sn_network_layer(net, L, &nc);
                    for (size_t i = 0; i < nc; i++) {
                        uint8_t x = res->output[cs[i].a], y = res->output[cs[i].b];
                        res->output[cs[i].a] = x < y ? x : y;
                        res->output[cs[i].b] = x < y ? y : x;
                    }
                }
                for (uint32_t i = 0; i + 1 < n; i++)
                    if (res->output[i] > res->output[i + 1]) {
                        res->first_unsorted = i;
                        break;
                    }
            } else {
                st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
            }
        }
        double secs = MPI_Wtime() - t0, mx = 0;
        MPI_Allreduce(&secs, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        res->seconds = mx;
        if (st != SN_OK)
            sn_check_result_free(res);
    }
    sn_free(j.fails);
    sn_free(j.first);
    sn_free(j.swapped);
    sn_free(sw);
    sn_free(swall);
    return st;
}
