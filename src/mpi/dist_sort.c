/* dist_sort.c - the distributed sort: a slice of the keys per rank, sorted
 * locally (the rank's GPU with the radix sort, or all its CPU cores), then
 * the network's layers as merge-splits between partner ranks, or sample
 * sort (splitters from a sample, one all-to-all); then the verification
 * and the MPI-IO output.
 *
 * Keys travel as their ordered form (sn_key_to_ordered), so one unsigned
 * comparison orders every key type; with a payload the pair (key, global
 * index) is compared, a total order whose sort is the stable sort. */
#include <errno.h>
#include <fcntl.h> // for: open (the output written again with POSIX)
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> // for: stat (an output that is a device)
#include <unistd.h>   // for: getpid (the output's temporary name), pwrite

#include "core/alloc.h"
#include "core/parallel.h"
#include "mpi/dist.h"
#include "gpu/gpu.h"
#include "gpu/sorts.h"

#define SENTINEL 0xFFFFFFFFu

static uint64_t mix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint32_t sn_dist_key(uint64_t seed, uint64_t i, sn_key_type t, uint32_t distinct)
{
    uint64_t r = mix64(seed * 0xD1B54A32D192ED03ull + i);
    uint32_t bits = (uint32_t)(r >> 32);
    int64_t v = (int64_t)(int32_t)bits;
    if (distinct) {
        v = (int64_t)(r % distinct) - (int64_t)(distinct / 2);
        if (t == SN_KEY_U32)
            return (uint32_t)(r % distinct);
    }
    if (t == SN_KEY_F32) {
        float f = distinct ? (float)v * 0.5f : (float)v / 65536.0f;
        memcpy(&bits, &f, 4);
        return bits;
    }
    return distinct ? (uint32_t)(int32_t)v : bits;
}

/* an element as one number: (ordered key, payload) or the key alone */
static inline uint64_t elt(const uint32_t *k, const uint32_t *p, size_t i)
{
    return p ? (uint64_t)k[i] << 32 | p[i] : k[i];
}

/* order-independent hash of (raw key, payload) */
static inline uint64_t h1(uint32_t raw, uint32_t pay)
{
    return mix64((uint64_t)pay << 32 | raw);
}

/* The stable merge of two sorted runs a[0..na) and b[0..nb) (a first on
 * ties) into o[0..na + nb), cut into pieces by merge path (the co-rank of
 * each piece's first output), so that the pieces run on the rank's cores
 * and give the same result as one sequential merge. */
typedef struct pmerge {
    const uint32_t *ak, *ap, *bk, *bp;
    size_t na, nb, pieces;
    uint32_t *ok, *op;
} pmerge;

/* how many of the first k outputs of the merge come from a */
static size_t co_rank(const pmerge *m, size_t k)
{
    size_t lo = k > m->nb ? k - m->nb : 0, hi = k < m->na ? k : m->na;
    while (lo < hi) {
        size_t i = lo + (hi - lo) / 2;
        if (elt(m->ak, m->ap, i) <= elt(m->bk, m->bp, k - i - 1))
            lo = i + 1;
        else
            hi = i;
    }
    return lo;
}

/* Outputs [from, to) of the merge, a's next at i and b's at j. Branch-free
 * while both runs last (a random merge mispredicts every other branch:
 * this loop took half the time of one that branched, 3.3 against 8.2 ns
 * a key on one core), then the tail of the run that is left. */
static void pmerge_piece(void *ctx, size_t t)
{
    const pmerge *m = ctx;
    size_t n = m->na + m->nb, from = n * t / m->pieces, to = n * (t + 1) / m->pieces;
    size_t i = co_rank(m, from), j = from - i, x = from, na = m->na, nb = m->nb;
    const uint32_t *ak = m->ak, *bk = m->bk, *ap = m->ap, *bp = m->bp;
    uint32_t *ok = m->ok, *op = m->op;
    if (op) {
        for (; x < to && i < na && j < nb; x++) {
            bool ta = ((uint64_t)ak[i] << 32 | ap[i]) <= ((uint64_t)bk[j] << 32 | bp[j]);
            ok[x] = ta ? ak[i] : bk[j];
            op[x] = ta ? ap[i] : bp[j];
            i += ta;
            j += !ta;
        }
        for (; x < to && i < na; x++, i++) {
            ok[x] = ak[i];
            op[x] = ap[i];
        }
        for (; x < to; x++, j++) {
            ok[x] = bk[j];
            op[x] = bp[j];
        }
        return;
    }
    for (; x < to && i < na && j < nb; x++) {
        uint32_t va = ak[i], vb = bk[j];
        bool ta = va <= vb;
        ok[x] = ta ? va : vb;
        i += ta;
        j += !ta;
    }
    for (; x < to && i < na; x++)
        ok[x] = ak[i++];
    for (; x < to; x++)
        ok[x] = bk[j++];
}

static void merge_parallel(const uint32_t *ak, const uint32_t *ap, size_t na, const uint32_t *bk,
                           const uint32_t *bp, size_t nb, unsigned threads, uint32_t *ok,
                           uint32_t *op)
{
    pmerge m = {ak, ap, bk, bp, na, nb, 1, ok, op};
    if (threads > 1 && na + nb >= ((size_t)1 << 16))
        m.pieces = (size_t)threads * 4;
    sn_parallel_for(m.pieces, threads, pmerge_piece, &m);
}

/* The rank's working set. */
typedef struct work {
    const sn_dist_sort_opts *o;
    int P, me;
    uint64_t N, lo, m; /* this rank's input slice [lo, lo + m) */
    uint32_t *in;      /* raw keys of the slice */
    uint32_t *k, *p;   /* the block: ordered keys and payload (NULL without) */
    uint64_t cap;      /* allocated elements of k and p */
    uint32_t *rk, *rp; /* network: the keys received in a merge-split (cap each) */
    uint32_t *tk, *tp; /* network: the merged block, swapped with k and p */
    uint64_t count;    /* real elements in the block after the sort */
    uint64_t bytes;    /* sent by this rank */
    double *t_layer;   /* [layers] */
    size_t layers;     /* the network's (0: sample sort) */
    int local_rank;    /* among the ranks of this host */
    int node_size;     /* the ranks of this host */
    sn_gpu *gpu;       /* the local sort's device and sorter (NULL: the CPU's), open */
    sn_gpu_sorter *gs; /* from before the slice is made until the end */
    void *pins[2];     /* the blocks in the device's pinned memory (block_alloc) */
    sn_gpu_sort_stats gstats; /* the local sort's on a GPU */
    unsigned threads;  /* this rank's share of the host's cores */
    char sorter[160];
    uint64_t hash_before; /* of this rank's input slice */
    double t_input, t_local, t_exchange;
    bool compare;     /* N <= compare_max: gathered and compared */
    uint32_t *all_in; /* rank 0: the whole input when compared */
    int *gc, *gd;     /* [P] counts and offsets of the gathers */
} work;

static uint64_t slice_lo(uint64_t N, int P, int r)
{
    return (N / (uint64_t)P) * (uint64_t)r +
           ((uint64_t)r < N % (uint64_t)P ? (uint64_t)r : N % (uint64_t)P);
}

/* A buffer the GPU's local sort moves to and from the device (the slice,
 * then the block; the payload). Ordinary memory, whose copies go through
 * the sorter's pinned staging; with SN_DIST_PINNED=1 the device's pinned
 * memory, whose copies run by DMA with no staging copy on the host's
 * cores (the local sort at the bus's floor) but whose making pins every
 * page: on the H200 host 2 GiB took 0.9 s more than ordinary memory, far
 * more than the local sort saved (docs/distributed.md). Ordinary memory
 * when pinned memory cannot be had. */
static uint32_t *block_alloc(work *w, size_t bytes)
{
    const char *e = getenv("SN_DIST_PINNED");
    bool want = w->gpu && e && strcmp(e, "1") == 0;
    for (size_t i = 0; want && i < 2; i++) {
        if (w->pins[i])
            continue;
        sn_diag dd;
        void *p = sn_gpu_host_alloc(w->gpu, bytes, &dd);
        if (p)
            return w->pins[i] = p;
        break;
    }
    return sn_malloc(bytes);
}

static void block_free(work *w, void *p)
{
    for (size_t i = 0; p && i < 2; i++)
        if (w->pins[i] == p) {
            sn_gpu_host_free(w->gpu, p);
            w->pins[i] = NULL;
            return;
        }
    sn_free(p);
}

static sn_status mpi_err(sn_diag *d, int err, const char *what)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, s, &len);
    return sn_diag_set(d, SN_EIO, 0, 0, "%s: %s", what, s);
}

/* keys an MPI-IO call moves at most (its count is an int) */
#define IO_PIECE ((uint64_t)1 << 30)

/* ---- input ---- */

/* rank 0: an --in that exists but is not a regular file (a directory's
 * size came back as 2^63-1, a FIFO's open blocked or its lseek failed);
 * a missing file is left to MPI_File_open's message */
static sn_status input_kind(const char *path, sn_diag *d)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || S_ISREG(sb.st_mode))
        return SN_OK;
    if (S_ISDIR(sb.st_mode))
        return sn_diag_set(d, SN_EINVAL, 0, 0, "%s: is a directory, not a file of keys", path);
    const char *kind = S_ISFIFO(sb.st_mode)  ? "a FIFO"
                       : S_ISCHR(sb.st_mode) ? "a character device"
                       : S_ISBLK(sb.st_mode) ? "a block device"
                       : S_ISSOCK(sb.st_mode) ? "a socket"
                                              : "not a file";
    return sn_diag_set(d, SN_EINVAL, 0, 0, "%s: not a regular file (%s), not a file of keys", path,
                       kind);
}

/* The limits of N keys on this job: --payload's 32-bit indices, the
 * memory of a rank (--max-memory) and of the ranks of a host together.
 * Before anything of N's size is allocated. Agreed. */
static sn_status check_limits(work *w, sn_diag *diag)
{
    const sn_dist_sort_opts *o = w->o;
    sn_status st = SN_OK;
    if (o->payload && w->N >= UINT32_MAX)
        st = sn_diag_set(diag, SN_EINVAL, 0, 0,
                         "%llu keys with --payload: at most 2^32 - 2 (32-bit indices)",
                         (unsigned long long)w->N);
    uint64_t need = sn_dist_sort_memory(o, w->N, w->P, w->me);
    const double GiB = 1073741824.0;
    if (st == SN_OK && o->max_memory && need > o->max_memory)
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0,
                         "too little memory: a rank needs about %.1f MiB for its %llu keys, "
                         "more than the %.1f MiB it may use",
                         (double)need / 1048576.0, (unsigned long long)w->m,
                         (double)o->max_memory / 1048576.0);
    else if (st == SN_OK && !o->max_memory && o->host_memory &&
             need * (uint64_t)w->node_size > o->host_memory)
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0,
                         "too little memory: the %d rank(s) on this host need about %.1f GiB "
                         "each for %llu keys (%.1f GiB in all), more than the %.1f GiB it has "
                         "available; use more hosts, or fewer keys",
                         w->node_size, (double)need / GiB, (unsigned long long)w->N,
                         (double)need * w->node_size / GiB, (double)o->host_memory / GiB);
    return sn_dist_agree(st, diag);
}

static sn_status read_input(work *w, sn_diag *d)
{
    const sn_dist_sort_opts *o = w->o;
    sn_status kst = sn_dist_agree(w->me == 0 ? input_kind(o->in, d) : SN_OK, d);
    if (kst != SN_OK)
        return kst;
    MPI_File f;
    int err = MPI_File_open(MPI_COMM_WORLD, o->in, MPI_MODE_RDONLY, MPI_INFO_NULL, &f);
    if (err != MPI_SUCCESS) {
        char what[1100];
        snprintf(what, sizeof what, "cannot read %s", o->in);
        return mpi_err(d, err, what);
    }
    MPI_Offset size = 0;
    MPI_File_get_size(f, &size);
    sn_status st = SN_OK;
    if (size % 4 != 0)
        st = sn_diag_set(d, SN_EPARSE, 0, 0,
                         "%s: %lld bytes is not a whole number of 4-byte keys (raw "
                         "little-endian keys expected)",
                         o->in, (long long)size);
    else if (size == 0)
        st = sn_diag_set(d, SN_EPARSE, 0, 0, "%s: no keys (an empty file)", o->in);
    w->N = st == SN_OK ? (uint64_t)size / 4 : 0;
    /* collective: every rank has the same N (0 after a bad size) */
    sn_status lst = check_limits(w, d);
    if (st == SN_OK)
        st = lst;
    if (st == SN_OK) {
        w->lo = slice_lo(w->N, w->P, w->me);
        w->m = slice_lo(w->N, w->P, w->me + 1) - w->lo;
        /* c = ceil(N/P) keys: the GPU sorts the slice in place as the block */
        w->in = block_alloc(w, (w->N + (uint64_t)w->P - 1) / (uint64_t)w->P * 4 + 4);
        if (!w->in)
            st = sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory for %llu keys",
                             (unsigned long long)w->m);
    }
    /* read_at_all is collective: every rank calls it as often (counts are
     * ints: pieces of at most IO_PIECE keys; count 0 on a failure) */
    uint64_t c = w->P ? (w->N + (uint64_t)w->P - 1) / (uint64_t)w->P : 0;
    for (uint64_t at = 0; at < c || at == 0; at += IO_PIECE) {
        uint64_t len = st == SN_OK && at < w->m ? (w->m - at < IO_PIECE ? w->m - at : IO_PIECE) : 0;
        MPI_Status ms;
        err = MPI_File_read_at_all(f, (MPI_Offset)((w->lo + at) * 4),
                                   w->in && len ? (void *)(w->in + at) : (void *)&size, (int)len,
                                   MPI_UINT32_T, &ms);
        if (st == SN_OK && err != MPI_SUCCESS)
            st = mpi_err(d, err, o->in);
        if (c == 0)
            break;
    }
    MPI_File_close(&f);
    return st;
}

/* ---- passes over a rank's arrays on its threads ---- */

typedef struct pass_job {
    work *w;
    uint64_t *sums;     /* [parts]: each part's hash */
    size_t parts;
    uint64_t *unsorted; /* [parts]: each part's first i with k[i] > k[i + 1], or UINT64_MAX */
    uint64_t n;         /* check_part: the elements */
} pass_job;

static void part_range(uint64_t n, size_t parts, size_t t, uint64_t *lo, uint64_t *hi)
{
    *lo = n * t / parts;
    *hi = n * (t + 1) / parts;
}

/* The slice made (key i depends on the seed and i only) unless read, and
 * its hash. */
static void input_part(void *ctx, size_t t)
{
    pass_job *j = ctx;
    work *w = j->w;
    const sn_dist_sort_opts *o = w->o;
    uint64_t lo, hi, h = 0;
    part_range(w->m, j->parts, t, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++) {
        if (!o->in)
            w->in[i] = sn_dist_key(o->seed, w->lo + i, o->type, o->distinct);
        h += h1(w->in[i], o->payload ? (uint32_t)(w->lo + i) : 0);
    }
    j->sums[t] = h;
}

/* The payload: each key's global index. */
static void index_part(void *ctx, size_t t)
{
    pass_job *j = ctx;
    uint64_t lo, hi;
    part_range(j->w->m, j->parts, t, &lo, &hi);
    for (uint64_t i = lo; i < hi; i++)
        j->w->p[i] = (uint32_t)(j->w->lo + i);
}

/* The block's first unsorted place and the hash of its keys. */
static void check_part(void *ctx, size_t t)
{
    pass_job *j = ctx;
    work *w = j->w;
    uint64_t lo, hi, h = 0;
    part_range(j->n, j->parts, t, &lo, &hi);
    j->unsorted[t] = UINT64_MAX;
    for (uint64_t i = lo; i < hi; i++) {
        if (j->unsorted[t] == UINT64_MAX && i + 1 < j->n &&
            elt(w->k, w->p, i) > elt(w->k, w->p, i + 1))
            j->unsorted[t] = i;
        h += h1(sn_key_from_ordered(w->o->type, w->k[i]), w->p ? w->p[i] : 0);
    }
    j->sums[t] = h;
}

/* ---- local sort ---- */

/* keys a staging chunk of a rank's GPU sort when ranks share the host and
 * SN_GPU_STAGE_CHUNK sets none: 2^22, whose slots stay in the host's cache
 * while two ranks copy at once (gpu/sort_stage.c says what was measured) */
#define SN_DIST_SHARED_CHUNK (1u << 22)

static void shared_chunks(const work *w, sn_gpu *g)
{
    sn_gpu_tuning t = *sn_gpu_tuning_get(g);
    if (w->node_size > 1 && !t.stage_chunk && !t.stage_off) {
        t.stage_chunk = SN_DIST_SHARED_CHUNK;
        sn_gpu_set_tuning(g, &t);
    }
}

/* The rank's sorter: its GPU when it has one (the ranks of a host take the
 * host's GPUs in turn, by local rank), any OpenCL device with local 2,
 * else none (the CPU). Opened before the timed sort: the kernels build. */
static sn_status local_open(work *w, sn_gpu **gout, sn_gpu_sorter **sout, sn_diag *d)
{
    const sn_dist_sort_opts *o = w->o;
    *gout = NULL;
    *sout = NULL;
    if (o->local == 1)
        return SN_OK;
    char spec[32];
    const char *type = "";
    sn_status st = SN_OK;
    if (sn_dist_device_pick(w->local_rank, o->local == 2, spec, &type)) {
        st = sn_gpu_open(spec, gout, d);
        if (st == SN_OK)
            st = sn_gpu_sorter_create(*gout, sout, d);
        if (st == SN_OK) {
            snprintf(w->sorter, sizeof w->sorter, "%s %s, radix sort", type,
                     sn_gpu_device_name(*gout));
            sn_gpu_sorter_set_threads(*sout, w->threads);
            shared_chunks(w, *gout);
        }
    } else if (o->local == 2) {
        st = sn_diag_set(d, SN_ENODEVICE, 0, 0, "no OpenCL device for the local sort");
    }
    return st;
}

/* The rank's slice sorted into w->k[0..m) in the ordered form, its payload
 * (the global indices) into w->p: on the GPU in place in w->in, whose
 * buffer then becomes the block (no copy); on the CPU from w->in straight
 * into w->k. Both leave the keys ordered, so no pass over the block
 * follows (what keeps one rank as fast as one process). A slice larger
 * than one device sort is sorted in runs that the GPU merges where they
 * fit there, else the host in w->k's buffer (and w->tp's for the
 * payload), which are free until the exchanges. */
static sn_status local_sort(work *w, sn_gpu_sorter *gs, sn_diag *d)
{
    const sn_dist_sort_opts *o = w->o;
    if (w->p) {
        pass_job j = {w, NULL, (size_t)w->threads * 4, NULL, 0};
        sn_parallel_for(j.parts, w->threads, index_part, &j);
    }
    if (gs) {
        sn_gpu_sort_opts so = {SN_SORT_RADIX, o->type, 0, false};
        sn_gpu_sorter_set_ordered_out(gs, true);
        sn_gpu_sorter_set_scratch(gs, w->k, w->tp, (size_t)w->cap);
        sn_status st = sn_gpu_sort(gs, &so, w->in, w->p, (size_t)w->m, &w->gstats, d);
        sn_gpu_sorter_set_scratch(gs, NULL, NULL, 0);
        uint32_t *t = w->k; /* both hold cap keys */
        w->k = w->in;
        w->in = t;
        return st;
    }
    snprintf(w->sorter, sizeof w->sorter, "CPU, %u threads, LSD radix sort", sn_parallel_cpus());
    return sn_sort_reference_ordered(o->type, w->in, w->p, (size_t)w->m, w->k, w->p, d);
}

/* Touch every page of a buffer (on the rank's threads) before the timed
 * phases, so that the sort does not pay for the first touch. */
typedef struct touch_job {
    uint32_t *a;
    size_t n, parts;
} touch_job;

static void touch_part(void *ctx, size_t t)
{
    const touch_job *j = ctx;
    size_t lo = j->n * t / j->parts, hi = j->n * (t + 1) / j->parts;
    memset(j->a + lo, 0, (hi - lo) * 4);
}

static void touch(uint32_t *a, size_t n, unsigned threads)
{
    touch_job j = {a, n, (size_t)threads * 4};
    if (a && n)
        sn_parallel_for(j.parts, threads, touch_part, &j);
}

/* ---- the network: merge-splits layer by layer ----
 *
 * A merge-split of rank a (low: it keeps the c smallest) and rank b is the
 * stable merge of a's block A and b's block B (A first on ties), a keeping
 * outputs [0, c) and b [c, 2c). With i the co-rank of c (how many of the
 * first c outputs come from A), a keeps A[0, i) and B[0, c - i), b keeps
 * A[i, c) and B[c - i, c): only x = c - i keys cross each way, A's top x
 * to b and B's bottom x to a (none on sorted input, about c/2 on random
 * keys). The pair finds i together by a search in lockstep
 * (split_search), exchanges those x keys and their payload in
 * chunks into the receive buffer, and each merges its kept run with what
 * it received: the result is the old full-block merge-split's, bit for
 * bit. */

/* keys a chunk of an exchange: 16 MiB messages (tests: SN_DIST_CHUNK=K) */
static size_t xchunk(void)
{
    const char *e = getenv("SN_DIST_CHUNK");
    long long v = e ? atoll(e) : 0;
    return v > 0 && v <= (1ll << 30) ? (size_t)v : (size_t)1 << 22;
}

/* probes a step of the split search */
#define PROBES 255

/* The number of keys that cross between this rank's block k, p (of c) and
 * its partner's; low: this rank is the comparator's wire a. The co-rank i
 * is the first i with A[i] > B[c - i - 1] (c when none): each step both
 * ranks take the same PROBES points of the open range, exchange their
 * elements there (A[i] from a, B[c - i - 1] from b), and keep the range
 * between the last true point and the first false one, so 2^29 keys take
 * 4 steps of round trips, not 29. */
static size_t split_search(const uint32_t *k, const uint32_t *p, size_t c, bool low, int partner)
{
    uint64_t mine[PROBES], theirs[PROBES];
    /* at is zeroed for cppcheck, which cannot see that at[j - 1] below is
     * always one the loop set (n >= 1 while lo < hi) */
    size_t at[PROBES] = {0}, lo = 0, hi = c;
    while (lo < hi) {
        size_t span = hi - lo, n = span < PROBES ? span : PROBES;
        for (size_t j = 0; j < n; j++) {
            at[j] = lo + span * j / n; /* distinct, at[0] = lo */
            mine[j] = elt(k, p, low ? at[j] : c - at[j] - 1);
        }
        MPI_Sendrecv(mine, (int)n, MPI_UINT64_T, partner, 3, theirs, (int)n, MPI_UINT64_T, partner,
                     3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        size_t j = 0;
        while (j < n && (low ? mine[j] <= theirs[j] : theirs[j] <= mine[j]))
            j++;
        if (j < n)
            hi = at[j];
        lo = j > 0 ? at[j - 1] + 1 : lo;
    }
    return c - lo;
}

/* n keys from send to the partner and n from it into recv, in chunks */
static void exchange(const uint32_t *send, uint32_t *recv, size_t n, int partner, int tag)
{
    size_t chunk = xchunk();
    for (size_t at = 0; at < n; at += chunk) {
        size_t len = n - at < chunk ? n - at : chunk;
        MPI_Sendrecv(send + at, (int)len, MPI_UINT32_T, partner, tag, recv + at, (int)len,
                     MPI_UINT32_T, partner, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void merge_split(work *w, int partner, bool low)
{
    size_t c = (size_t)w->cap;
    bool hp = w->p != NULL;
    size_t x = split_search(w->k, w->p, c, low, partner);
    if (x == 0)
        return; /* the blocks are already split: nothing moves */
    /* low sends A[c - x, c) and gets B[0, x); high sends B[0, x) and gets A[c - x, c) */
    size_t from = low ? c - x : 0;
    exchange(w->k + from, w->rk, x, partner, 1);
    if (hp)
        exchange(w->p + from, w->rp, x, partner, 2);
    w->bytes += (uint64_t)x * (hp ? 8u : 4u);
    if (low) /* A[0, c - x) then the received B[0, x) */
        merge_parallel(w->k, w->p, c - x, w->rk, w->rp, x, w->threads, w->tk, w->tp);
    else /* the received A[c - x, c) (first on ties) then B[x, c) */
        merge_parallel(w->rk, w->rp, x, w->k + x, hp ? w->p + x : NULL, c - x, w->threads, w->tk,
                       w->tp);
    uint32_t *t = w->k;
    w->k = w->tk;
    w->tk = t;
    t = w->p;
    w->p = w->tp;
    w->tp = t;
}

static sn_status network_sort(work *w, sn_diag *d)
{
    (void)d;
    const sn_network *net = w->o->net;
    size_t c = (size_t)w->cap;
    for (size_t L = 0; L < sn_network_layer_count(net); L++) {
        double t0 = MPI_Wtime();
        size_t nc;
        const sn_comparator *cs = sn_network_layer(net, L, &nc);
        int partner = -1;
        bool low = false;
        for (size_t i = 0; i < nc; i++) {
            if ((int)cs[i].a == w->me || (int)cs[i].b == w->me) {
                partner = (int)cs[i].a == w->me ? (int)cs[i].b : (int)cs[i].a;
                low = (int)cs[i].a == w->me; /* wire a takes the minimum */
            }
        }
        if (partner >= 0)
            merge_split(w, partner, low);
        w->t_layer[L] = MPI_Wtime() - t0;
    }
    /* the real keys are the first N of the P blocks of c: the sentinels sort last */
    uint64_t start = (uint64_t)w->me * c;
    w->count = w->N > start ? (w->N - start < c ? w->N - start : c) : 0;
    return SN_OK;
}

/* ---- sample sort: splitters from a sample, one all-to-all ---- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The all-to-all of sample sort, pairwise: in round r (1 to P - 1) this
 * rank sends its bucket for rank me + r and receives rank me - r's bucket
 * for it, in messages of at most xchunk() keys (MPI counts are ints, and
 * a rank may hold more than 2^31 keys), every piece of the round posted at
 * once and waited for; its own bucket is copied. scnt/sdis: what this
 * rank sends each rank (keys, from 0 of src); rcnt/rdis: what it
 * receives; req: room for the most pieces of any round (pieces_most). */
static size_t pieces_most(const uint64_t *scnt, const uint64_t *rcnt, int P, int me)
{
    size_t chunk = xchunk(), most = 0;
    for (int r = 1; r < P; r++) {
        int to = (me + r) % P, from = (me - r + P) % P;
        size_t q = (size_t)((scnt[to] + chunk - 1) / chunk + (rcnt[from] + chunk - 1) / chunk);
        most = q > most ? q : most;
    }
    return most;
}

static void all_to_all(const uint32_t *src, uint32_t *dst, const uint64_t *scnt,
                       const uint64_t *sdis, const uint64_t *rcnt, const uint64_t *rdis, int P,
                       int me, int tag, MPI_Request *req)
{
    memcpy(dst + rdis[me], src + sdis[me], rcnt[me] * 4);
    size_t chunk = xchunk();
    for (int r = 1; r < P; r++) {
        int to = (me + r) % P, from = (me - r + P) % P;
        int q = 0;
        for (uint64_t at = 0; at < rcnt[from]; at += chunk) {
            uint64_t len = rcnt[from] - at < chunk ? rcnt[from] - at : chunk;
            MPI_Irecv(dst + rdis[from] + at, (int)len, MPI_UINT32_T, from, tag, MPI_COMM_WORLD,
                      &req[q++]);
        }
        for (uint64_t at = 0; at < scnt[to]; at += chunk) {
            uint64_t len = scnt[to] - at < chunk ? scnt[to] - at : chunk;
            MPI_Isend(src + sdis[to] + at, (int)len, MPI_UINT32_T, to, tag, MPI_COMM_WORLD,
                      &req[q++]);
        }
        MPI_Waitall(q, req, MPI_STATUSES_IGNORE);
    }
}

static sn_status sample_sort(work *w, sn_diag *d)
{
    int P = w->P;
    bool hp = w->p != NULL;
    size_t m = (size_t)w->m, s = m < (size_t)P * 16 ? m : (size_t)P * 16;
    uint64_t *mine = sn_malloc(s * 8 + 8);
    int *cnt = sn_malloc(sizeof(int) * (size_t)P * 2), *dis = cnt ? cnt + P : NULL;
    /* the buckets' counts and offsets: sent, received (keys; 64-bit) */
    uint64_t *sc = sn_malloc(sizeof(uint64_t) * (size_t)P * 4), *sd = sc ? sc + P : NULL,
             *rc = sc ? sc + 2 * P : NULL, *rd = sc ? sc + 3 * P : NULL;
    sn_status st = mine && cnt && sc ? SN_OK : sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory");
    st = sn_dist_agree(st, d);
    if (st != SN_OK) {
        sn_free(mine);
        sn_free(cnt);
        sn_free(sc);
        return st;
    }
    for (size_t j = 0; j < s; j++)
        mine[j] = elt(w->k, w->p, (j + 1) * m / (s + 1));
    int si = (int)s;
    MPI_Allgather(&si, 1, MPI_INT, cnt, 1, MPI_INT, MPI_COMM_WORLD);
    size_t total = 0;
    for (int r = 0; r < P; r++) {
        dis[r] = (int)total;
        total += (size_t)cnt[r];
    }
    uint64_t *all = sn_malloc(total * 8 + 8), *spl = sn_malloc((size_t)P * 8);
    /* a failure here is agreed after the collective (the buffers are tiny) */
    MPI_Allgatherv(mine, si, MPI_UINT64_T, all ? all : mine, cnt, dis, MPI_UINT64_T,
                   MPI_COMM_WORLD);
    st = sn_dist_agree(all && spl ? SN_OK : sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory"), d);
    w->bytes += (uint64_t)s * 8 * (uint64_t)(P - 1);
    if (st == SN_OK) {
        qsort(all, total, 8, cmp_u64);
        for (int i = 0; i + 1 < P; i++)
            spl[i] = total ? all[(size_t)(i + 1) * total / (size_t)P] : 0;
        /* bucket r: elements e with spl[r - 1] < e <= spl[r] */
        size_t at = 0;
        for (int r = 0; r < P; r++) {
            size_t end = m;
            if (r + 1 < P) {
                size_t lo = at, hi = m;
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (elt(w->k, w->p, mid) <= spl[r])
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                end = lo;
            }
            sc[r] = end - at;
            sd[r] = at;
            if (r != w->me)
                w->bytes += (uint64_t)(end - at) * (hp ? 8u : 4u);
            at = end;
        }
        MPI_Alltoall(sc, 1, MPI_UINT64_T, rc, 1, MPI_UINT64_T, MPI_COMM_WORLD);
        size_t got = 0;
        for (int r = 0; r < P; r++) {
            rd[r] = got;
            got += (size_t)rc[r];
        }
        uint32_t *nk = sn_malloc(got * 4 + 4), *np = hp ? sn_malloc(got * 4 + 4) : NULL;
        uint32_t *mk = sn_malloc(got * 4 + 4), *mp = hp ? sn_malloc(got * 4 + 4) : NULL;
        MPI_Request *req = sn_malloc((pieces_most(sc, rc, P, w->me) + 1) * sizeof *req);
        st = sn_dist_agree(
            nk && mk && (!hp || (np && mp)) && req
                ? SN_OK
                : sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory for %zu received keys", got),
            d);
        if (st == SN_OK) {
            all_to_all(w->k, nk, sc, sd, rc, rd, P, w->me, 4, req);
            if (hp)
                all_to_all(w->p, np, sc, sd, rc, rd, P, w->me, 5, req);
        }
        sn_free(req);
        if (st == SN_OK) {
            /* P sorted runs: merge them pairwise, log2(P) passes, each
             * merge cut by merge path over the rank's threads */
            size_t runs = (size_t)P;
            size_t *st_at = sn_malloc(sizeof(size_t) * (runs + 1));
            st = sn_dist_agree(st_at ? SN_OK : sn_diag_set(d, SN_ENOMEM, 0, 0, "out of memory"),
                               d);
            for (size_t r = 0; st == SN_OK && r <= runs; r++)
                st_at[r] = r < runs ? (size_t)rd[r] : got;
            while (st == SN_OK && runs > 1) {
                size_t out = 0;
                for (size_t r = 0; r < runs; r += 2) {
                    /* runs r and r + 1 (none past the last) into one */
                    size_t a = st_at[r], b = st_at[r + 1], e = r + 2 <= runs ? st_at[r + 2] : b;
                    merge_parallel(nk + a, hp ? np + a : NULL, b - a, nk + b, hp ? np + b : NULL,
                                   e - b, w->threads, mk + a, hp ? mp + a : NULL);
                    st_at[out++] = a;
                }
                st_at[out] = got;
                runs = out;
                uint32_t *x = nk;
                nk = mk;
                mk = x;
                x = np;
                np = mp;
                mp = x;
            }
            sn_free(st_at);
        }
        if (st == SN_OK) {
            block_free(w, w->k);
            block_free(w, w->p);
            w->k = nk;
            w->p = np;
            nk = np = NULL;
            w->count = w->cap = got;
        }
        sn_free(nk);
        sn_free(np);
        sn_free(mk);
        sn_free(mp);
    }
    sn_free(all);
    sn_free(spl);
    sn_free(mine);
    sn_free(cnt);
    sn_free(sc);
    return st;
}

/* ---- verification ---- */

typedef struct rank_info {
    uint64_t count, unsorted, bytes;
    uint64_t first, last; /* elements (ordered key, payload) */
    double t_input, t_local, t_exchange, t_verify;
    double t_up, t_kernels, t_down, t_merge; /* the local sort's phases on a GPU */
    uint64_t runs;
    int copies; /* sn_dist_report's local_copies, this rank's */
    int merge_host; /* this rank merged its runs on its cores */
    char sorter[160];
} rank_info;

static sn_status write_output(work *w, sn_diag *d);

/* The network's fit, this rank's slice (made or read), the size and memory
 * limits, the buffers and the hash of the input. Agreed. */
static sn_status prepare(work *w, sn_dist_report *rep, sn_diag *diag)
{
    const sn_dist_sort_opts *o = w->o;
    sn_status st = SN_OK;
    if (o->algo == SN_DIST_NETWORK && sn_network_wires(o->net) != (uint32_t)w->P)
        st = sn_diag_set(diag, SN_EINVAL, 0, 0,
                         "the network has %u wires but the job has %d ranks (one wire per "
                         "rank: run `mpirun -np %u`, or give a network on %d wires)",
                         sn_network_wires(o->net), w->P, sn_network_wires(o->net), w->P);
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    double t0 = MPI_Wtime();
    if (o->in) {
        st = read_input(w, diag);
    } else {
        w->N = o->keys;
        w->lo = slice_lo(w->N, w->P, w->me);
        w->m = slice_lo(w->N, w->P, w->me + 1) - w->lo;
        st = check_limits(w, diag);
    }
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    rep->n = w->N;
    uint64_t c = (w->N + (uint64_t)w->P - 1) / (uint64_t)w->P;
    /* the input slice holds c keys too: the GPU sorts it in place and it
     * becomes the block; after the local sort the other of the two is the
     * merge-split's target (tk) */
    if (!o->in && !(w->in = block_alloc(w, c * 4 + 4)))
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %llu keys",
                         (unsigned long long)w->m);
    w->cap = o->algo == SN_DIST_NETWORK ? c : w->m;
    if (st == SN_OK) {
        w->k = sn_malloc(w->cap * 4 + 4);
        w->p = o->payload ? block_alloc(w, w->cap * 4 + 4) : NULL;
        w->t_layer = sn_calloc(w->layers + 1, sizeof(double));
        /* the network's merge-split buffers, once for every layer */
        bool net = o->algo == SN_DIST_NETWORK, pl = o->payload;
        w->rk = net ? sn_malloc(w->cap * 4 + 4) : NULL;
        w->rp = net && pl ? sn_malloc(w->cap * 4 + 4) : NULL;
        w->tp = net && pl ? sn_malloc(w->cap * 4 + 4) : NULL;
        if (!w->k || (o->payload && !w->p) || !w->t_layer)
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for a block of %llu keys",
                             (unsigned long long)w->cap);
        else if (net && (!w->rk || (pl && (!w->rp || !w->tp))))
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0,
                             "out of memory for the exchange buffers (%llu keys)",
                             (unsigned long long)w->cap);
    }
    if (st == SN_OK) {
        /* every page touched here, not in the timed phases */
        uint32_t *bufs[] = {w->k, w->p, w->rk, w->rp, w->tp};
        for (size_t b = 0; b < sizeof bufs / sizeof bufs[0]; b++)
            touch(bufs[b], (size_t)w->cap, w->threads);
    }
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    pass_job j = {w, sn_calloc((size_t)w->threads * 4, sizeof(uint64_t)), (size_t)w->threads * 4,
                  NULL, 0};
    if (!j.sums)
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    sn_parallel_for(j.parts, w->threads, input_part, &j);
    for (size_t t = 0; t < j.parts; t++)
        w->hash_before += j.sums[t];
    sn_free(j.sums);
    w->t_input = MPI_Wtime() - t0;
    return SN_OK;
}

/* bytes of the local sort's staging on a GPU: at most 8 pinned slots of
 * 2^22 keys (sort_stage.h: 3 by default, SN_GPU_STAGE_SLOTS up to 8) */
#define STAGE_BYTES ((uint64_t)8 << 24)

uint64_t sn_dist_sort_memory(const sn_dist_sort_opts *o, uint64_t N, int P, int rank)
{
    uint64_t c = P > 0 ? (N + (uint64_t)P - 1) / (uint64_t)P : N;
    uint64_t m = slice_lo(N, P, rank + 1) - slice_lo(N, P, rank);
    uint64_t words = o->payload ? 2 : 1;
    /* network: the slice (then the block), the block (then the merge's
     * target) and the keys received, with payload the same three again;
     * sample sort: the slice, the block, and about twice the block while
     * it receives and merges */
    uint64_t need = o->algo == SN_DIST_NETWORK ? 4 * words * 3 * c : 4 * words * 4 * m;
    /* the local sort: on the CPU the reference's two work arrays; on a GPU
     * the pinned staging (its runs merge in the block's buffers) */
    need += o->local == 2 ? STAGE_BYTES : 4 * words * m;
    if (rank == 0 && N <= o->compare_max)
        need += 4 * words * 4 * N; /* the gathered input, output and the reference */
    return need;
}

/* Rank 0 keeps the whole input (N <= compare_max) for the comparison with
 * the reference. Agreed. */
static sn_status gather_input(work *w, sn_diag *diag)
{
    w->compare = w->N <= w->o->compare_max;
    if (!w->compare)
        return SN_OK;
    w->gc = sn_malloc(sizeof(int) * (size_t)w->P * 2);
    w->gd = w->gc ? w->gc + w->P : NULL;
    if (w->me == 0)
        w->all_in = sn_malloc(w->N * 4 + 4);
    sn_status st = w->gc && (w->me != 0 || w->all_in)
                       ? SN_OK
                       : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the gathered input");
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    for (int r = 0; r < w->P; r++) {
        w->gd[r] = (int)slice_lo(w->N, w->P, r);
        w->gc[r] = (int)(slice_lo(w->N, w->P, r + 1) - (uint64_t)w->gd[r]);
    }
    MPI_Gatherv(w->in, (int)w->m, MPI_UINT32_T, w->all_in, w->gc, w->gd, MPI_UINT32_T, 0,
                MPI_COMM_WORLD);
    return SN_OK;
}

/* tests: a rank stopped by SN_DIST_DIE=R:stall creates the file that
 * SN_DIST_STALLED names, so that a test signals the job once it is in the
 * middle of the sort (not after a guessed time) */
static void stalled_mark(void)
{
    const char *mark = getenv("SN_DIST_STALLED");
    int fd = mark ? open(mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0)
        close(fd);
}

/* The local sort, the exchanges, and --inject-fault. Agreed. */
static sn_status sort_phases(work *w, sn_diag *diag)
{
    const sn_dist_sort_opts *o = w->o;
    /* the staging made before the clock (a slice not in pinned memory,
     * or the runs' other array) */
    sn_status st = w->gs ? sn_gpu_sorter_reserve(w->gs, (size_t)w->m, diag) : SN_OK;
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    st = local_sort(w, w->gs, diag);
    for (uint64_t i = w->m; i < w->cap; i++) { /* sentinels above every key */
        w->k[i] = SENTINEL;
        if (w->p)
            w->p[i] = SENTINEL;
    }
    w->t_local = MPI_Wtime() - t0;
    /* the slice's buffer is free now: the merge-split's target (network),
     * or given back (sample sort makes its own) */
    if (o->algo == SN_DIST_NETWORK)
        w->tk = w->in;
    else
        block_free(w, w->in);
    w->in = NULL;
    sn_gpu_sorter_destroy(w->gs); /* its device buffers and staging */
    w->gs = NULL;
    if (st == SN_OK && w->me == o->die_rank && !o->die_output) {
        if (o->die_stall)
            stalled_mark();
        while (o->die_stall)
            pause();
        raise(SIGKILL);
    }
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;

    t0 = MPI_Wtime();
    st = o->algo == SN_DIST_NETWORK ? network_sort(w, diag) : sample_sort(w, diag);
    w->t_exchange = MPI_Wtime() - t0;
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    if (o->fault && w->me == o->fault_rank) {
        if (o->fault_index < w->count)
            w->k[o->fault_index] ^= 1u; /* a key one bit off */
        else
            st = sn_diag_set(diag, SN_EINVAL, 0, 0,
                             "--inject-fault: rank %d holds %llu keys, no index %llu", w->me,
                             (unsigned long long)w->count, (unsigned long long)o->fault_index);
    }
    return sn_dist_agree(st, diag);
}

/* Rank 0: the verdict from every rank's facts (ri) and, when compared, the
 * gathered output (all_k, all_p) against the reference. */
static sn_status summarize(work *w, const rank_info *ri, const uint32_t *all_k,
                           const uint32_t *all_p, sn_dist_report *rep, sn_diag *diag)
{
    const sn_dist_sort_opts *o = w->o;
    sn_status st = SN_OK;
    rep->bytes_sent = sn_calloc((size_t)w->P, sizeof(uint64_t));
    rep->local_sorter = sn_calloc((size_t)w->P, sizeof *rep->local_sorter);
    if (!rep->bytes_sent || !rep->local_sorter)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    rep->blocks_sorted = rep->boundaries_ordered = true;
    bool have = false;
    int any_host_merge = 0;
    uint64_t prev = 0;
    for (int r = 0; r < w->P; r++) {
        rep->bytes_sent[r] = ri[r].bytes;
        memcpy(rep->local_sorter[r], ri[r].sorter, sizeof ri[r].sorter);
#define MAXOF(f) rep->f = ri[r].f > rep->f ? ri[r].f : rep->f
        MAXOF(t_input);
        MAXOF(t_local);
        MAXOF(t_exchange);
        MAXOF(t_verify);
#undef MAXOF
#define MAXOF(f, g) rep->f = ri[r].g > rep->f ? ri[r].g : rep->f
        MAXOF(t_local_up, t_up);
        MAXOF(t_local_kernels, t_kernels);
        MAXOF(t_local_down, t_down);
        MAXOF(t_local_merge, t_merge);
        MAXOF(local_runs, runs);
        rep->local_copies = ri[r].copies > rep->local_copies ? ri[r].copies : rep->local_copies;
        any_host_merge |= ri[r].merge_host;
#undef MAXOF
        if (ri[r].unsorted != UINT64_MAX && rep->unsorted_rank < 0) {
            rep->blocks_sorted = false;
            rep->unsorted_rank = r;
            rep->unsorted_index = ri[r].unsorted;
        }
        if (!ri[r].count)
            continue;
        if (have && prev > ri[r].first && rep->broken_boundary < 0) {
            rep->boundaries_ordered = false;
            int b = r - 1;
            while (b > 0 && ri[b].count == 0)
                b--;
            rep->broken_boundary = b;
            int sh = w->p ? 32 : 0;
            rep->boundary_last = sn_key_from_ordered(o->type, (uint32_t)(prev >> sh));
            rep->boundary_first = sn_key_from_ordered(o->type, (uint32_t)(ri[r].first >> sh));
        }
        have = true;
        prev = ri[r].last;
    }
    rep->local_merge_device = rep->local_runs > 1 && !any_host_merge;
    rep->multiset_kept = rep->hash_before == rep->hash_after;
    rep->compared = w->compare;
    if (w->compare) {
        size_t n = (size_t)w->N;
        uint32_t *rk = sn_malloc(n * 4 + 4), *rp = w->p ? sn_malloc(n * 4 + 4) : NULL,
                 *ip = w->p ? sn_malloc(n * 4 + 4) : NULL;
        double tr = MPI_Wtime();
        if (rk && (!w->p || (rp && ip))) {
            for (size_t i = 0; ip && i < n; i++)
                ip[i] = (uint32_t)i;
            st = sn_sort_reference(o->type, w->all_in, ip, n, rk, rp, diag);
            sn_sort_mismatch mm = sn_sort_compare(rk, rp, all_k, all_p, n);
            rep->mismatch = !mm.identical;
            rep->mismatch_index = mm.index;
            rep->mismatch_in_payload = mm.in_payload;
            rep->mismatch_expected = mm.expected;
            rep->mismatch_actual = mm.actual;
        } else {
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the reference sort");
        }
        rep->t_verify += MPI_Wtime() - tr;
        sn_free(rk);
        sn_free(rp);
        sn_free(ip);
    }
    rep->identical =
        rep->blocks_sorted && rep->boundaries_ordered && rep->multiset_kept && !rep->mismatch;
    return st;
}

/* This rank's facts (sorted? first, last, hash), the output gathered when
 * compared, and rank 0's verdict, broadcast. Agreed. */
static sn_status verify(work *w, sn_dist_report *rep, sn_diag *diag)
{
    const sn_dist_sort_opts *o = w->o;
    double t0 = MPI_Wtime();
    rank_info mi = {0};
    mi.count = w->count;
    mi.unsorted = UINT64_MAX;
    size_t parts = (size_t)w->threads * 4;
    uint64_t *sums = sn_calloc(parts * 2, sizeof(uint64_t));
    if (sn_dist_agree(sums ? SN_OK : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory"), diag) !=
        SN_OK) {
        sn_free(sums);
        return SN_ENOMEM;
    }
    pass_job pj = {w, sums, parts, sums + parts, w->count};
    sn_parallel_for(parts, w->threads, check_part, &pj);
    uint64_t ha = 0;
    for (size_t t = 0; t < parts; t++) {
        ha += sums[t];
        if (mi.unsorted == UINT64_MAX)
            mi.unsorted = pj.unsorted[t];
    }
    sn_free(sums);
    if (w->count) {
        mi.first = elt(w->k, w->p, 0);
        mi.last = elt(w->k, w->p, w->count - 1);
    }
    uint64_t hs[2] = {w->hash_before, ha}, hsum[2] = {0, 0};
    MPI_Reduce(hs, hsum, 2, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    rep->hash_before = hsum[0];
    rep->hash_after = hsum[1];
    uint32_t *all_k = NULL, *all_p = NULL;
    sn_status st = SN_OK;
    if (w->compare) {
        int cnt = (int)w->count, *gc = w->gc, *gd = w->gd;
        MPI_Gather(&cnt, 1, MPI_INT, gc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        for (int r = 0, tot = 0; w->me == 0 && r < w->P; tot += gc[r], r++)
            gd[r] = tot;
        for (uint64_t i = 0; i < w->count; i++) /* raw bits for the comparison */
            w->k[i] = sn_key_from_ordered(o->type, w->k[i]);
        if (w->me == 0) {
            all_k = sn_malloc(w->N * 4 + 4);
            all_p = w->p ? sn_malloc(w->N * 4 + 4) : NULL;
        }
        st = w->me != 0 || (all_k && (!w->p || all_p))
                 ? SN_OK
                 : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the gathered output");
        if ((st = sn_dist_agree(st, diag)) == SN_OK) {
            MPI_Gatherv(w->k, cnt, MPI_UINT32_T, all_k, gc, gd, MPI_UINT32_T, 0, MPI_COMM_WORLD);
            if (w->p)
                MPI_Gatherv(w->p, cnt, MPI_UINT32_T, all_p, gc, gd, MPI_UINT32_T, 0,
                            MPI_COMM_WORLD);
        }
        for (uint64_t i = 0; i < w->count; i++)
            w->k[i] = sn_key_to_ordered(o->type, w->k[i]);
    }
    if (st == SN_OK) {
        mi.bytes = w->bytes;
        mi.t_input = w->t_input;
        mi.t_local = w->t_local;
        mi.t_exchange = w->t_exchange;
        mi.t_up = w->gstats.upload_ms / 1000;
        mi.t_kernels = w->gstats.sort_ms / 1000;
        mi.t_down = w->gstats.download_ms / 1000;
        mi.t_merge = w->gstats.merge_ms / 1000;
        mi.runs = w->gstats.runs;
        mi.merge_host = w->gstats.runs > 1 && !w->gstats.merged_on_device;
        mi.copies = w->gstats.runs == w->gstats.pinned ? 0 : w->gstats.staged ? 1 : 2;
        mi.t_verify = MPI_Wtime() - t0;
        memcpy(mi.sorter, w->sorter, sizeof mi.sorter);
        rank_info *ri = w->me == 0 ? sn_calloc((size_t)w->P, sizeof *ri) : NULL;
        MPI_Gather(&mi, (int)sizeof mi, MPI_BYTE, ri, (int)sizeof mi, MPI_BYTE, 0, MPI_COMM_WORLD);
        rep->layers = w->layers;
        rep->t_layer = w->me == 0 ? sn_calloc(w->layers + 1, sizeof(double)) : NULL;
        MPI_Reduce(w->t_layer, rep->t_layer, (int)w->layers + 1, MPI_DOUBLE, MPI_MAX, 0,
                   MPI_COMM_WORLD);
        if (w->me == 0)
            st = ri && rep->t_layer ? summarize(w, ri, all_k, all_p, rep, diag)
                                    : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
        sn_free(ri);
    }
    sn_free(all_k);
    sn_free(all_p);
    if ((st = sn_dist_agree(st, diag)) != SN_OK)
        return st;
    int ok = rep->identical;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    rep->identical = ok != 0;
    return SN_OK;
}

sn_status sn_dist_sort(const sn_dist_sort_opts *o, sn_dist_report *rep, sn_diag *diag)
{
    memset(rep, 0, sizeof *rep);
    work w = {0};
    w.o = o;
    w.P = sn_dist_size();
    w.me = sn_dist_rank();
    w.layers = o->algo == SN_DIST_NETWORK ? sn_network_layer_count(o->net) : 0;
    int node_size = sn_dist_local(&w.local_rank); /* the host's ranks share its cores and GPUs */
    w.node_size = node_size;
    w.threads = o->threads ? o->threads : sn_parallel_cpus() / (unsigned)node_size;
    w.threads = w.threads ? w.threads : 1;
    rep->ranks = w.P;
    rep->unsorted_rank = rep->broken_boundary = -1;
    double T0 = MPI_Wtime();
    /* the device first: the slice may go in its pinned memory */
    sn_status st = sn_dist_agree(local_open(&w, &w.gpu, &w.gs, diag), diag);
    if (st == SN_OK)
        st = prepare(&w, rep, diag);
    if (st == SN_OK)
        st = gather_input(&w, diag);
    if (st == SN_OK)
        st = sort_phases(&w, diag);
    if (st == SN_OK)
        st = verify(&w, rep, diag);
    /* the output only for a verified sort */
    if (st == SN_OK && o->out && rep->identical) {
        double t0 = MPI_Wtime();
        st = write_output(&w, diag);
        rep->t_output = MPI_Wtime() - t0;
    }
    rep->t_total = MPI_Wtime() - T0;
    sn_free(w.all_in);
    sn_free(w.gc);
    uint32_t *blocks[] = {w.in, w.k, w.p, w.rk, w.rp, w.tk, w.tp};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
        block_free(&w, blocks[b]);
    sn_free(w.t_layer);
    sn_gpu_sorter_destroy(w.gs);
    sn_gpu_close(w.gpu);
    return st;
}

/* ---- output: MPI-IO to a temporary name, renamed by rank 0 when every rank wrote ---- */

/* The temporary this rank is writing, for sn_dist_output_abandon (a signal
 * handler): set while it may exist, cleared once renamed or removed. */
static char out_tmp[4096];
static volatile sig_atomic_t out_tmp_set;

void sn_dist_output_abandon(void)
{
    if (out_tmp_set) {
        out_tmp_set = 0;
        unlink(out_tmp);
    }
}

/* all of n bytes at off (off < 0: at the current position); -1 with errno */
static int write_whole(int fd, const char *b, size_t n, off_t off)
{
    while (n) {
        ssize_t r = off < 0 ? write(fd, b, n) : pwrite(fd, b, n, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = EIO;
            return -1;
        }
        b += r;
        n -= (size_t)r;
        if (off >= 0)
            off += r;
    }
    return 0;
}

static sn_status posix_err(sn_diag *d, const char *path, int e)
{
    return sn_diag_set(d, SN_EIO, 0, 0, "cannot write %s: %s", path, strerror(e));
}

/* An output that is not a regular file (a device, a FIFO): written in
 * place, in rank order (a FIFO's reader gets the keys in order), rank 0
 * holding it open throughout (its reader sees one stream); a failure
 * stops the later ranks. */
static sn_status write_direct(work *w, const char *path, sn_diag *d)
{
    int ok = 1, fd = -1;
    if (w->me > 0)
        MPI_Recv(&ok, 1, MPI_INT, w->me - 1, 77, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sn_status st = SN_OK;
    if (ok) {
        fd = open(path, O_WRONLY);
        int e = fd < 0 || write_whole(fd, (const char *)w->k, w->count * 4, -1) != 0 ? errno : 0;
        if (fd >= 0 && w->me > 0) {
            if (close(fd) != 0 && !e)
                e = errno;
            fd = -1;
        }
        if (e) {
            st = posix_err(d, path, e);
            ok = 0;
        }
    }
    if (w->me + 1 < w->P)
        MPI_Send(&ok, 1, MPI_INT, w->me + 1, 77, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    if (fd >= 0 && close(fd) != 0 && st == SN_OK)
        st = posix_err(d, path, errno);
    return sn_dist_agree(st, d);
}

/* Each rank writes its block again with POSIX, after MPI-IO said or showed
 * (a short count, a short file, a hole) that the file is not whole: Open
 * MPI's collective write can report success for a write that failed
 * (ENOSPC on another rank's aggregated piece); this finishes the file or
 * gives the cause. */
static sn_status write_again(work *w, const char *tmp, uint64_t off, sn_diag *d)
{
    if (w->count == 0)
        return SN_OK;
    int fd = open(tmp, O_WRONLY);
    if (fd < 0)
        return posix_err(d, w->o->out, errno);
    int bad = write_whole(fd, (const char *)w->k, w->count * 4, (off_t)(off * 4)) != 0 ||
              fsync(fd) != 0;
    int e = errno;
    if (close(fd) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    return bad ? posix_err(d, w->o->out, e) : SN_OK; /* the temporary goes */
}

/* fsync(2) of the file at path (a disk's delayed write error): 0 or -1 */
static int sync_file(const char *path)
{
    int fd = open(path, O_WRONLY);
    if (fd < 0)
        return -1;
    int r = fsync(fd);
    return close(fd) != 0 ? -1 : r;
}

/* rank 0: whether the written file is N keys without a hole (a piece
 * whose write was lost); a file system without holes says none */
static bool file_whole(const char *path, uint64_t N)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return false;
    struct stat sb;
    bool whole = fstat(fd, &sb) == 0 && (uint64_t)sb.st_size == N * 4;
#ifdef SEEK_HOLE
    if (whole && N) {
        off_t h = lseek(fd, 0, SEEK_HOLE);
        whole = h < 0 || (uint64_t)h >= N * 4;
    }
#endif
    close(fd);
    return whole;
}

static sn_status write_output(work *w, sn_diag *d)
{
    const char *path = w->o->out;
    char tmp[4096];
    long pid = (long)getpid();
    /* an output that exists and is not a regular file (/dev/null) is
     * written in place: a temporary renamed over it would replace the
     * device node (as root) with a file */
    struct stat sb;
    int direct = w->me == 0 && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode);
    MPI_Bcast(&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
    MPI_Bcast(&direct, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (uint64_t i = 0; i < w->count; i++)
        w->k[i] = sn_key_from_ordered(w->o->type, w->k[i]);
    if (direct)
        return write_direct(w, path, d);
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, pid);
    uint64_t off = 0, cnt = w->count, N = 0;
    MPI_Exscan(&cnt, &off, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&cnt, &N, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (w->me == 0)
        off = 0;
    memcpy(out_tmp, tmp, sizeof out_tmp);
    out_tmp_set = 1;
    MPI_File f;
    sn_status st = SN_OK;
    int err =
        MPI_File_open(MPI_COMM_WORLD, tmp, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f);
    if (err != MPI_SUCCESS) {
        char what[4200];
        snprintf(what, sizeof what, "cannot write %s", tmp);
        st = sn_dist_agree(mpi_err(d, err, what), d);
        if (w->me == 0)
            remove(tmp); /* when some rank created it */
        out_tmp_set = 0;
        return st;
    }
    if (w->o->die_output && w->me == w->o->die_rank)
        for (;;) /* tests: a rank stuck while the temporary exists */
            pause();
    /* the write, its count, the sync (a disk's delayed error): any short
     * or failed step on any rank, or a file that is not N keys, means the
     * ranks write their blocks again with POSIX, which names the cause */
    MPI_File_set_size(f, 0);
    /* in pieces of at most IO_PIECE keys (an int count), every rank as
     * many calls (write_at_all is collective) */
    uint64_t most = 0;
    MPI_Allreduce(&cnt, &most, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    int bad = 0;
    for (uint64_t at = 0; at < most; at += IO_PIECE) {
        uint64_t len = at < w->count ? (w->count - at < IO_PIECE ? w->count - at : IO_PIECE) : 0;
        MPI_Status ms;
        int got = -1;
        err = MPI_File_write_at_all(f, (MPI_Offset)((off + at) * 4), len ? w->k + at : w->k,
                                    (int)len, MPI_UINT32_T, &ms);
        bad |= err != MPI_SUCCESS || MPI_Get_count(&ms, MPI_UINT32_T, &got) != MPI_SUCCESS ||
               (uint64_t)got != len;
    }
    /* not MPI_File_sync: after a failed write, Open MPI 4.1's sync returns
     * early on one rank and the collectives under it no longer match (a
     * hang); the sync is each rank's fsync once the file is closed */
    bad |= MPI_File_close(&f) != MPI_SUCCESS;
    bad |= sync_file(tmp) != 0;
    if (w->me == 0 && !bad)
        bad = !file_whole(tmp, N);
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any)
        st = write_again(w, tmp, off, d);
    st = sn_dist_agree(st, d);
    if (w->me == 0) {
        if (st == SN_OK && rename(tmp, path) != 0)
            st = sn_diag_set(d, SN_EIO, 0, 0, "cannot rename %s to %s: %s", tmp, path,
                             strerror(errno));
        if (st != SN_OK)
            remove(tmp);
    }
    st = sn_dist_agree(st, d);
    out_tmp_set = 0;
    return st;
}

void sn_dist_report_free(sn_dist_report *rep)
{
    if (!rep)
        return;
    sn_free(rep->t_layer);
    sn_free(rep->bytes_sent);
    sn_free(rep->local_sorter);
    rep->t_layer = NULL;
    rep->bytes_sent = NULL;
    rep->local_sorter = NULL;
}
