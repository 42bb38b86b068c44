/* dist.h - the MPI layer: any sorting network as a distributed sort over
 * MPI ranks (each wire a rank holding a sorted block, each comparator a
 * merge-split), sample sort beside it, the verification of every run, and
 * the 0-1 brute force split over the ranks.
 *
 * Invariant of the network sort: every rank holds a block of the same size
 * c = ceil(N/P) (ranks short of real keys are padded with sentinels above
 * every key), sorted; after a comparator (a, b) rank a holds the c smallest
 * of the two blocks and rank b the c largest. By the merge-split theorem
 * the blocks are then sorted across ranks iff the network sorts P wires.
 *
 * Every call here is collective over MPI_COMM_WORLD unless it says
 * otherwise; a failure on any rank is agreed on by all (never a hang on a
 * failed rank that is still alive), and its message reaches rank 0's diag.
 * Like the core, this layer never prints. */
#ifndef SN_DIST_H
#define SN_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/check.h"
#include "core/exec.h"
#include "core/network.h"
#include "core/status.h"

/* Whether this process was started by mpirun (Open MPI's or a PMI
 * launcher's environment), without initializing anything. */
bool sn_dist_launched(void);
/* MPI_Init (once; later calls are no-ops) and an atexit MPI_Finalize.
 * SN_EIO when MPI cannot start. Under a finite RLIMIT_AS it forks first
 * and the calling process only waits and ends as the child does
 * (dist_mpi.c); SN_ENOMEM, naming the limit, when the child's MPI_Init
 * ended it (Open MPI's _exit(1)): then no MPI call may follow. */
sn_status sn_dist_init(sn_diag *diag);
int sn_dist_rank(void);
int sn_dist_size(void);
/* Agree over all ranks: returns the status of the lowest failing rank
 * (SN_OK when none failed) with its message copied into every rank's
 * diag. st/diag: this rank's own. */
sn_status sn_dist_agree(sn_status st, sn_diag *diag);
/* End the whole job now with exit code `code` (MPI_Abort). Not collective. */
void sn_dist_abort(int code);
/* Seconds on a wall clock (MPI_Wtime). Not collective. */
double sn_dist_now(void);
/* The ranks on this rank's host (MPI_COMM_TYPE_SHARED); *local_rank (may
 * be NULL) gets this rank's place among them. Collective. */
int sn_dist_local(int *local_rank);
/* The OpenCL device of a rank with this local rank: the host's GPUs taken
 * in turn (so ranks of a host with one GPU share it); with no GPU and
 * any_device, the default device (a CPU one such as pocl). "P:D" into
 * spec, its type ("GPU", "CPU", static) into *type (may be NULL); false
 * when there is none. Not collective. */
bool sn_dist_device_pick(int local_rank, bool any_device, char spec[32], const char **type);

typedef enum sn_dist_algo { SN_DIST_NETWORK = 0, SN_DIST_SAMPLE } sn_dist_algo;

typedef struct sn_dist_sort_opts {
    sn_dist_algo algo;
    const sn_network *net; /* SN_DIST_NETWORK: P wires; borrowed */
    sn_key_type type;
    bool payload;         /* carry the global index along (and compare it) */
    uint64_t keys;        /* N (ignored with `in`: the file's size decides) */
    uint64_t seed;        /* key i = f(seed, i): the same keys for any P */
    uint32_t distinct;    /* > 0: keys drawn from this many values (duplicates) */
    const char *in;       /* raw little-endian keys, read with MPI-IO; NULL: generated */
    const char *out;      /* the sorted keys, written with MPI-IO; NULL: none */
    bool fault;           /* corrupt one key after the sort ... */
    int fault_rank;       /* ... on this rank ... */
    uint64_t fault_index; /* ... at this index of its block (from 0) */
    int local;            /* local sort: 0 auto (a GPU when the rank has one), 1 CPU, 2 GPU */
    uint64_t compare_max; /* gather and compare with the reference up to this N */
    unsigned threads;     /* merge-split threads a rank (0: the host's cores / its ranks) */
    uint64_t max_memory;  /* bytes a rank may use (0: what the system has) */
    uint64_t host_memory; /* bytes the ranks of one host may use together (0: unknown) */
    int die_rank;         /* tests: this rank kills itself after the local sort (-1: none) */
    bool die_stall;       /* tests: ... or stops forever instead (a stuck rank) */
    bool die_output;      /* tests: ... or stops forever once the output's temporary exists */
} sn_dist_sort_opts;

/* The report, complete on rank 0 (other ranks: their own parts). */
typedef struct sn_dist_report {
    uint64_t n;
    int ranks;
    size_t layers;     /* network layers run (0 for sample sort) */
    double t_input;    /* generate or read (max over ranks), seconds */
    double t_local;    /* local sort */
    /* the local sort on a GPU, the slowest rank's phases (seconds): its keys
     * to the device, the kernels, back, and the host merge of its runs
     * (a block larger than one device sort); runs: the most of any rank */
    double t_local_up, t_local_kernels, t_local_down, t_local_merge;
    uint64_t local_runs;
    bool local_merge_device; /* every rank with runs merged them on its GPU */
    int local_copies; /* how the local sorts on GPUs copied, the worst rank's: 0 the
                       * slice in pinned memory, 1 through the pinned staging, 2 ordinary
                       * memory copied whole (SN_DIST_PINNED=0 SN_GPU_STAGE_CHUNK=0) */
    double *t_layer;   /* [layers]: each layer's exchange + merge (max over ranks) */
    double t_exchange; /* all layers, or sample sort's sampling + all-to-all + merge */
    double t_verify;
    double t_output; /* MPI-IO write and rename */
    double t_total;
    uint64_t *bytes_sent;      /* [ranks] */
    char (*local_sorter)[160]; /* [ranks]: "CPU (N threads)" or the GPU's name */
    /* the verdict */
    bool blocks_sorted, boundaries_ordered, multiset_kept, compared, identical;
    int unsorted_rank;                      /* first rank whose block is not sorted, or -1 */
    uint64_t unsorted_index;                /* its first i with block[i] > block[i + 1] */
    int broken_boundary;                    /* first r with last(r) > first(r + 1), or -1 */
    uint32_t boundary_last, boundary_first; /* the two keys (raw bits) */
    uint64_t hash_before, hash_after;
    bool mismatch; /* compared and the output differs from the reference */
    bool mismatch_in_payload;
    uint64_t mismatch_index; /* first differing position (when compared and not identical) */
    uint32_t mismatch_expected, mismatch_actual;
} sn_dist_report;

/* Bytes of host memory rank `rank` of P needs to sort N keys as o says
 * (its slice, block, exchange buffers, the local sort's work arrays or
 * staging; rank 0 also the gathered input, output and reference when
 * N <= o->compare_max). Not collective: the command states it before any
 * work, and sn_dist_sort refuses a run past o->max_memory (a rank) or
 * o->host_memory (the ranks of a host together) with SN_ENOMEM. */
uint64_t sn_dist_sort_memory(const sn_dist_sort_opts *o, uint64_t N, int P, int rank);

/* Sort as o says and verify. SN_OK means the run finished and *rep holds
 * its verdict (rep->identical: every check passed); otherwise the run
 * failed on some rank: SN_EIO (a file), SN_EPARSE (a file that is not
 * keys), SN_ENOMEM (a rank's memory), SN_EINVAL (a network not on P
 * wires), SN_EDEVICE (a device), with the message in diag on every rank. */
sn_status sn_dist_sort(const sn_dist_sort_opts *o, sn_dist_report *rep, sn_diag *diag);
void sn_dist_report_free(sn_dist_report *rep);
/* Remove the --out temporary this rank may be writing now (none: nothing).
 * Async-signal-safe: for a rank ended by a signal (mpirun's SIGTERM when
 * another rank died, --timeout). Not collective. */
void sn_dist_output_abandon(void);

/* Key i of the generated input (raw bits of t), the same on every rank. */
uint32_t sn_dist_key(uint64_t seed, uint64_t i, sn_key_type t, uint32_t distinct);

/* The 0-1 brute force over all 2^n inputs, split over the ranks (each a
 * contiguous range of 64-input blocks); failing count, the smallest
 * counterexample and the redundant comparators reduced, *res the same on
 * every rank as sn_check_run's with method bruteforce.
 * device NULL: each rank bit-slices its range on its cores (n <= 40;
 * SN_ELIMIT past an estimated minute unless opt->force). device "": each
 * rank on its OpenCL device (sn_dist_device_pick by local rank, any
 * device); "P:D": that device on every rank; the limits of sn_gpu_check
 * (n <= 63, n > 44 only with force). where (rank 0, may be NULL) gets
 * what checked: "CPU cores" or the device names with their ranks. */
sn_status sn_dist_check(const sn_network *net, const sn_check_options *opt, const char *device,
                        sn_check_result *res, char where[320], sn_diag *diag);

#endif
