/* check_bf.c - brute force over all 2^n 0-1 inputs, bit-sliced.
 *
 * Input x puts bit i of x on wire i. A block is 64 * VW consecutive inputs
 * (2048 for VW = 32) held as one vector of VW words per wire: lane j of word
 * k is input block * 64 * VW + k * 64 + j. So wires 0..5 take the fixed
 * patterns 0xAAAA.., 0xCCCC.., ... in every word, wires 6..BLOCK_BITS-1 are
 * all-ones in the words whose index has that bit, and the higher wires are
 * constant over the block (bits of the block number). A comparator is w[a] & w[b] (min) and w[a] |
 * w[b] (max); an output is sorted iff no lane has 1 on wire i and 0 on wire i+1. A comparator swaps
 * on some input iff a lane has a = 1, b = 0 before it; each thread stops watching a comparator once
 * it has seen it swap. The watched ones are kept as a sorted index list, so the hot loop runs plain
 * stretches between them without a test per comparator: a network with a
 * redundant comparator watches it over every input, and a per-comparator
 * branch there cost half the speed.
 *
 * Threads take chunks of blocks from an atomic counter; each keeps its own
 * failing count, smallest failing input and swap flags, merged at the end. */
#include "core/check_impl.h"

#include <stdatomic.h>
#include <string.h>

#include "core/alloc.h"

#define VW                                                                                         \
    32 /* words per wire in one block (32 measured fastest: 8 and 64 are 1.3-1.5x slower)          \
        */
#define BLOCK_BITS 11 /* log2(64 * VW) */
/* Alignment 16 (what malloc guarantees), so the wide clone uses unaligned
 * loads on heap data instead of faulting. */
typedef uint64_t vec __attribute__((vector_size(VW * sizeof(uint64_t)), aligned(16)));

typedef struct bf_op {
    uint32_t a, b;
} bf_op;

typedef struct bf_shared {
    check_ctx *c;
    uint64_t nblocks, chunk, nchunks;
    atomic_uint_fast64_t next;
    atomic_int stop;
    vec low[BLOCK_BITS]; /* the fixed patterns of wires 0..8 */
    vec valid;           /* lanes that are real inputs (all unless n < 9) */
} bf_shared;

typedef struct bf_thread {
    bf_shared *sh;
    unsigned id;
    bf_op *ops;
    vec *acc; /* per comparator: lanes with a = 1, b = 0 seen (watched ones) */
    uint8_t *swapped;
    size_t *widx; /* [watching] indices of the watched comparators, ascending */
    size_t watching;
    uint64_t failing, min_failing;
} bf_thread;

/* OR of the lanes of a vector, taken through a pointer: passing wide
 * vectors by value to a function has an ABI that depends on the target. */
static inline uint64_t lanes_or(const vec *v)
{
    uint64_t r = 0;
    for (int k = 0; k < VW; k++)
        r |= (*v)[k];
    return r;
}
#define LANES_OR(v) lanes_or(&(v))

/* The hot loop. Compiled twice on x86-64 (AVX2 and baseline) and chosen at
 * load time, so no -march=native is needed to use wide vectors. */
/* (not under a sanitizer: its ifunc resolver runs before the sanitizer's
 * runtime is up, and ThreadSanitizer builds then crash at load) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&                             \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx2", "default")))
#endif
static void
bf_blocks(bf_thread *t, uint64_t b0, uint64_t b1)
{
    const bf_shared *sh = t->sh;
    const uint32_t n = sh->c->n;
    const size_t nops = sh->c->ncmp;
    const bf_op *ops = t->ops;
    vec *acc = t->acc;
    const size_t *widx = t->widx;
    const size_t watching = t->watching;
    vec w[64];
    const vec zero = {0};
    const vec ones = ~zero;
    const uint32_t nlow = n < BLOCK_BITS ? n : BLOCK_BITS;
    for (uint64_t blk = b0; blk < b1; blk++) {
        for (uint32_t i = 0; i < nlow; i++)
            w[i] = sh->low[i];
        for (uint32_t i = BLOCK_BITS; i < n; i++)
            w[i] = ((blk >> (i - BLOCK_BITS)) & 1u) ? ones : zero;
        /* plain stretches up to each watched comparator, then that one */
        size_t j = 0;
        for (size_t s = 0; s <= watching; s++) {
            size_t end = s < watching ? widx[s] : nops;
            for (; j < end; j++) {
                vec x = w[ops[j].a], y = w[ops[j].b];
                w[ops[j].a] = x & y;
                w[ops[j].b] = x | y;
            }
            if (s < watching) {
                vec x = w[ops[j].a], y = w[ops[j].b];
                acc[j] |= x & ~y;
                w[ops[j].a] = x & y;
                w[ops[j].b] = x | y;
                j++;
            }
        }
        vec bad = zero;
        for (uint32_t i = 0; i + 1 < n; i++)
            bad |= w[i] & ~w[i + 1];
        bad &= sh->valid;
        if (LANES_OR(bad)) {
            for (int k = 0; k < VW; k++) {
                if (!bad[k])
                    continue;
                t->failing += (uint64_t)__builtin_popcountll(bad[k]);
                uint64_t x =
                    (blk << BLOCK_BITS) + (uint64_t)k * 64u + (uint64_t)__builtin_ctzll(bad[k]);
                if (x < t->min_failing)
                    t->min_failing = x;
            }
        }
    }
}

/* Stop watching the comparators seen to swap (rare: a few times a run). */
static void bf_collect(bf_thread *t)
{
    size_t kept = 0;
    for (size_t s = 0; s < t->watching; s++) {
        size_t j = t->widx[s];
        vec seen = t->acc[j] & t->sh->valid;
        if (LANES_OR(seen))
            t->swapped[j] = 1;
        else
            t->widx[kept++] = j;
    }
    t->watching = kept;
}

static void *bf_worker(void *arg)
{
    bf_thread *t = arg;
    bf_shared *sh = t->sh;
    for (;;) {
        if (atomic_load(&sh->stop))
            break;
        if (check_cancelled(sh->c)) {
            atomic_store(&sh->stop, 1);
            break;
        }
        uint64_t k = atomic_fetch_add(&sh->next, 1);
        if (k >= sh->nchunks)
            break;
        uint64_t b0 = k * sh->chunk;
        uint64_t b1 = b0 + sh->chunk < sh->nblocks ? b0 + sh->chunk : sh->nblocks;
        bf_blocks(t, b0, b1);
        if (t->watching)
            bf_collect(t);
        if (t->id == 0)
            check_progress(sh->c, (double)k / (double)sh->nchunks);
    }
    return NULL;
}

/* Worker w of sn_parallel_workers (ctx: the bf_thread array). */
static void bf_run(void *ctx, unsigned worker)
{
    bf_worker(&((bf_thread *)ctx)[worker]);
}

static void bf_thread_free(bf_thread *t)
{
    sn_free(t->ops);
    sn_free(t->acc);
    sn_free(t->swapped);
    sn_free(t->widx);
}

static sn_status bf_thread_init(bf_thread *t, bf_shared *sh, unsigned id)
{
    const check_ctx *c = sh->c;
    size_t m = c->ncmp ? c->ncmp : 1;
    memset(t, 0, sizeof *t);
    t->sh = sh;
    t->id = id;
    t->min_failing = UINT64_MAX;
    t->ops = sn_calloc(m, sizeof *t->ops);
    t->acc = sn_calloc(m, sizeof *t->acc);
    t->swapped = sn_calloc(m, 1);
    t->widx = sn_calloc(m, sizeof *t->widx);
    if (!t->ops || !t->acc || !t->swapped || !t->widx) {
        bf_thread_free(t);
        return SN_ENOMEM;
    }
    for (size_t j = 0; j < c->ncmp; j++) {
        t->ops[j].a = c->cmp[j].a;
        t->ops[j].b = c->cmp[j].b;
        t->widx[j] = j;
    }
    t->watching = c->ncmp;
    return SN_OK;
}

sn_status check_bruteforce(check_ctx *c, check_outcome *out, sn_diag *diag)
{
    /* (n <= 64: both callers, run_bf and auto's fallback, see to it) */
    bf_shared *sh = sn_calloc(1, sizeof *sh);
    if (!sh)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    sh->c = c;
    sh->nblocks = c->n > BLOCK_BITS ? (uint64_t)1 << (c->n - BLOCK_BITS) : 1;
    uint64_t per = sh->nblocks / ((uint64_t)c->threads * 16u);
    sh->chunk = per < 1 ? 1 : per > 4096 ? 4096 : per;
    sh->nchunks = (sh->nblocks + sh->chunk - 1) / sh->chunk;
    atomic_init(&sh->next, 0);
    atomic_init(&sh->stop, 0);
    for (int i = 0; i < BLOCK_BITS; i++) {
        for (int k = 0; k < VW; k++) {
            uint64_t word = 0;
            for (int j = 0; j < 64; j++) {
                uint64_t x = (uint64_t)k * 64u + (uint64_t)j;
                word |= ((x >> i) & 1u) << j;
            }
            sh->low[i][k] = word;
        }
    }
    for (int k = 0; k < VW; k++) {
        uint64_t word = 0;
        for (int j = 0; j < 64; j++) {
            uint64_t x = (uint64_t)k * 64u + (uint64_t)j;
            if (c->n >= BLOCK_BITS || x < ((uint64_t)1 << c->n))
                word |= (uint64_t)1 << j;
        }
        sh->valid[k] = word;
    }

    unsigned nt = c->threads;
    if ((uint64_t)nt > sh->nchunks)
        nt = (unsigned)sh->nchunks;
    bf_thread *th = sn_calloc(nt, sizeof *th);
    sn_status st = th ? SN_OK : SN_ENOMEM;
    unsigned made = 0; /* threads initialized (to free) */
    while (st == SN_OK && made < nt) {
        st = bf_thread_init(&th[made], sh, made);
        if (st == SN_OK)
            made++;
    }
    if (st == SN_OK) {
        sn_parallel_workers(nt, bf_run, th);
        if (check_cancelled(c))
            st = SN_EINTERRUPTED;
    }
    if (st == SN_OK) {
        out->failing_count = 0;
        out->min_failing = UINT64_MAX;
        for (unsigned i = 0; i < nt; i++) {
            out->failing_count += th[i].failing;
            if (th[i].min_failing < out->min_failing)
                out->min_failing = th[i].min_failing;
            for (size_t j = 0; j < c->ncmp; j++)
                out->swapped[j] |= th[i].swapped[j];
        }
        out->inputs = c->n >= 64 ? UINT64_MAX : (uint64_t)1 << c->n;
        out->max_patterns = 0;
    }
    for (unsigned i = 0; th && i < made; i++)
        bf_thread_free(&th[i]);
    sn_free(th);
    sn_free(sh);
    if (st == SN_ENOMEM)
        return sn_diag_set(diag, st, 0, 0, "out of memory");
    if (st == SN_EINTERRUPTED)
        return sn_diag_set(diag, st, 0, 0, "stopped on request");
    return st;
}
