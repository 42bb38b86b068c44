/* analysis.c - standard form test, Knuth's untangling into standard form,
 * and the 0-1 profile (what all 0-1 inputs do after each layer).
 *
 * Untangling keeps a relabelling map[w] (original wire -> wire in the new
 * network), a bijection: a reversed comparator exchanges the labels of its
 * two wires from there on, so every later comparator reads the exchanged
 * wires. Layers map to layers, so size and depth are unchanged. */
#include "core/analysis.h"

#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h"

bool sn_network_is_standard(const sn_network *net)
{
    size_t L = sn_network_layer_count(net);
    for (size_t k = 0; k < L; k++) {
        size_t count = 0;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        for (size_t i = 0; i < count; i++)
            if (c[i].a > c[i].b)
                return false;
    }
    return true;
}

sn_status sn_network_to_standard(const sn_network *net, sn_network **out)
{
    if (!out || !net)
        return SN_EINVAL;
    *out = NULL;
    uint32_t n = sn_network_wires(net);
    size_t L = sn_network_layer_count(net), maxl = 0;
    for (size_t k = 0; k < L; k++) {
        size_t count = 0;
        (void)sn_network_layer(net, k, &count);
        if (count > maxl)
            maxl = count;
    }
    uint32_t *map = sn_calloc((size_t)n + 1, sizeof *map);
    sn_comparator *buf = sn_calloc(maxl + 1, sizeof *buf);
    sn_network *res = sn_network_create(n);
    sn_status st = (map && buf && res) ? SN_OK : SN_ENOMEM;
    for (uint32_t w = 0; st == SN_OK && w < n; w++)
        map[w] = w;
    for (size_t k = 0; st == SN_OK && k < L; k++) {
        size_t count = 0;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        for (size_t i = 0; i < count; i++) {
            uint32_t x = map[c[i].a], y = map[c[i].b];
            if (x > y) {
                map[c[i].a] = y;
                map[c[i].b] = x;
                buf[i] = (sn_comparator){y, x};
            } else {
                buf[i] = (sn_comparator){x, y};
            }
        }
        st = sn_network_layer_add(res, buf, count, NULL);
    }
    if (st == SN_OK)
        st = sn_network_set_name(res, sn_network_name(net));
    sn_free(map);
    sn_free(buf);
    if (st != SN_OK) {
        sn_network_destroy(res);
        return st;
    }
    *out = res;
    return SN_OK;
}

/* ---- the 0-1 principle layer by layer (sn_zero_one_profile)
 *
 * As in check_bf.c, input x puts bit i of x on wire i, and a block of
 * 64 * ZW inputs is one vector of ZW words per wire: wires 0..ZB-1 take
 * fixed lane patterns, the higher wires are constant over a block (bits of
 * the block number, whose ones every lane of the block shares). After each
 * layer a thread adds the lanes that are sorted (no 1 directly above a 0)
 * to its counts, and per wire lowers one_from / raises zero_upto when a
 * lane with fewer / more ones holds a 1 / 0 there: lanes are grouped by
 * their own count of ones (popmask), and a block whose shared ones cannot
 * improve a wire's bound skips it with one comparison, which is nearly
 * every block once the bounds are found. Threads take equal ranges of
 * blocks; their counts are summed and their bounds combined at the end. */

#define ZW 32 /* words per wire in a block (8 and 16 measured slower) */
#define ZB 11 /* log2(64 * ZW) */
typedef uint64_t zvec __attribute__((vector_size(ZW * sizeof(uint64_t)), aligned(16)));

typedef struct zo_shared {
    uint32_t n, nlow; /* nlow = min(n, ZB): wires that vary inside a block */
    size_t layers;
    const sn_comparator *cmp; /* all comparators in layer order */
    const size_t *off;        /* [layers + 1]: layer k is cmp[off[k] .. off[k + 1]) */
    zvec low[ZB];             /* lane patterns of wires 0..ZB-1 */
    zvec popmask[ZB + 1];     /* valid lanes with j ones among the low wires */
    zvec atmost[ZB + 2];      /* valid lanes with at most j - 1 ones (atmost[0] empty) */
    zvec atleast[ZB + 2];     /* valid lanes with at least j ones (atleast[ZB + 1] empty) */
    zvec valid;               /* lanes that are real inputs (all unless n < ZB) */
    uint64_t nblocks;
} zo_shared;

typedef struct zo_thread {
    const zo_shared *sh;
    uint64_t b0, b1;               /* blocks [b0, b1) */
    uint64_t *sorted;              /* [layers + 1] */
    int16_t *one_from, *zero_upto; /* [(layers + 1) * n] */
} zo_thread;

static bool zvec_any(const zvec *v)
{
    uint64_t r = 0;
    for (int k = 0; k < ZW; k++)
        r |= (*v)[k];
    return r != 0;
}

static uint64_t zvec_popcount(const zvec *v)
{
    uint64_t c = 0;
    for (int k = 0; k < ZW; k++)
        c += (uint64_t)__builtin_popcountll((*v)[k]);
    return c;
}

/* Wire i after k layers of a block whose high wires hold hb ones: lower
 * one_from / raise zero_upto. One vector test rules out a block that
 * cannot improve a bound (nearly every block once the bounds are found);
 * only an improvement scans the lanes' counts of ones. */
static inline void zo_bounds(const zo_shared *sh, int16_t *f1, int16_t *u0, const zvec *wi, int hb)
{
    const int nlow = (int)sh->nlow;
    int below = *f1 - hb; /* lanes with fewer than `below` low ones improve one_from */
    if (below > 0) {
        zvec m = *wi & sh->atmost[below > ZB + 1 ? ZB + 1 : below];
        if (zvec_any(&m)) {
            for (int j = 0; j <= nlow && hb + j < *f1; j++) {
                zvec mj = *wi & sh->popmask[j];
                if (zvec_any(&mj)) {
                    *f1 = (int16_t)(hb + j);
                    break;
                }
            }
        }
    }
    int above = *u0 - hb + 1; /* lanes with at least `above` low ones improve zero_upto */
    if (above <= nlow) {
        zvec m = ~*wi & sh->atleast[above < 0 ? 0 : above];
        if (zvec_any(&m)) {
            for (int j = nlow; j >= 0 && hb + j > *u0; j--) {
                zvec mj = ~*wi & sh->popmask[j];
                if (zvec_any(&mj)) {
                    *u0 = (int16_t)(hb + j);
                    break;
                }
            }
        }
    }
}

/* After k layers: count the sorted lanes and bound the wires that layer k
 * touched (all of them for k = 0); an untouched wire holds what it held
 * before, so its bounds are copied when the threads' results are joined. */
static inline void zo_observe(zo_thread *t, const zvec *w, size_t k, int hb)
{
    const zo_shared *sh = t->sh;
    uint32_t n = sh->n;
    zvec bad = {0};
    for (uint32_t i = 0; i + 1 < n; i++)
        bad |= w[i] & ~w[i + 1];
    zvec ok = ~bad & sh->valid;
    t->sorted[k] += zvec_popcount(&ok);
    int16_t *f1 = t->one_from + k * n, *u0 = t->zero_upto + k * n;
    if (k == 0) {
        for (uint32_t i = 0; i < n; i++)
            zo_bounds(sh, &f1[i], &u0[i], &w[i], hb);
        return;
    }
    for (size_t j = sh->off[k - 1]; j < sh->off[k]; j++) {
        uint32_t a = sh->cmp[j].a, b = sh->cmp[j].b;
        zo_bounds(sh, &f1[a], &u0[a], &w[a], hb);
        zo_bounds(sh, &f1[b], &u0[b], &w[b], hb);
    }
}

/* The hot loop; compiled for AVX2 and baseline on x86-64 and chosen at
 * load time, as check_bf.c's. */
/* (not under a sanitizer: its ifunc resolver runs before the sanitizer's
 * runtime is up, and ThreadSanitizer builds then crash at load) */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) &&                             \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx2", "default")))
#endif
static void *
zo_worker(void *arg)
{
    zo_thread *t = arg;
    const zo_shared *sh = t->sh;
    const uint32_t n = sh->n;
    const zvec zero = {0};
    zvec w[SN_ZERO_ONE_MAX_WIRES];
    for (uint64_t blk = t->b0; blk < t->b1; blk++) {
        int hb = __builtin_popcountll(blk);
        for (uint32_t i = 0; i < n; i++)
            w[i] = i < ZB ? sh->low[i] : ((blk >> (i - ZB)) & 1u) ? ~zero : zero;
        zo_observe(t, w, 0, hb);
        for (size_t k = 0; k < sh->layers; k++) {
            for (size_t j = sh->off[k]; j < sh->off[k + 1]; j++) {
                zvec x = w[sh->cmp[j].a], y = w[sh->cmp[j].b];
                w[sh->cmp[j].a] = x & y;
                w[sh->cmp[j].b] = x | y;
            }
            zo_observe(t, w, k + 1, hb);
        }
    }
    return NULL;
}

void sn_zero_one_free(sn_zero_one *z)
{
    if (!z)
        return;
    sn_free(z->sorted);
    sn_free(z->one_from);
    sn_free(z->zero_upto);
    z->sorted = NULL;
    z->one_from = z->zero_upto = NULL;
}

unsigned sn_zero_one_state(const sn_zero_one *z, size_t k, uint32_t h, uint32_t i)
{
    if (k > z->layers || i >= z->n || h > z->n)
        return 0;
    size_t c = k * z->n + i;
    return ((int)h <= z->zero_upto[c] ? SN_WIRE_CAN0 : 0u) |
           ((int)h >= z->one_from[c] ? SN_WIRE_CAN1 : 0u);
}

char sn_zero_one_char(unsigned state)
{
    switch (state) {
    case SN_WIRE_CAN0: return '0';
    case SN_WIRE_CAN1: return '1';
    case SN_WIRE_CAN0 | SN_WIRE_CAN1: return '*';
    default: return '-';
    }
}

static sn_status zo_thread_init(zo_thread *t, const zo_shared *sh, size_t cells)
{
    t->sh = sh;
    t->sorted = sn_calloc(sh->layers + 1, sizeof *t->sorted);
    t->one_from = sn_calloc(cells ? cells : 1, sizeof *t->one_from);
    t->zero_upto = sn_calloc(cells ? cells : 1, sizeof *t->zero_upto);
    if (!t->sorted || !t->one_from || !t->zero_upto)
        return SN_ENOMEM;
    for (size_t c = 0; c < cells; c++) {
        t->one_from[c] = (int16_t)(sh->n + 1);
        t->zero_upto[c] = -1;
    }
    return SN_OK;
}

static void zo_thread_free(zo_thread *t)
{
    sn_free(t->sorted);
    sn_free(t->one_from);
    sn_free(t->zero_upto);
}

/* The schedule's comparators flattened: cmp[off[k] .. off[k + 1]). */
static sn_status zo_flatten(const sn_schedule *s, sn_comparator **cmp, size_t **off)
{
    size_t L = sn_schedule_layer_count(s), total = sn_schedule_size(s);
    *cmp = sn_calloc(total ? total : 1, sizeof **cmp);
    *off = sn_calloc(L + 1, sizeof **off);
    if (!*cmp || !*off)
        return SN_ENOMEM;
    for (size_t k = 0; k < L; k++)
        (*off)[k + 1] =
            (*off)[k] + sn_schedule_layer_pairs(s, k, *cmp + (*off)[k], total - (*off)[k]);
    return SN_OK;
}

static void zo_patterns(zo_shared *sh)
{
    uint32_t n = sh->n;
    for (int k = 0; k < ZW; k++) {
        for (int j = 0; j < 64; j++) {
            uint64_t x = (uint64_t)(k * 64 + j), bit = (uint64_t)1 << j;
            for (int i = 0; i < ZB; i++)
                sh->low[i][k] |= ((x >> i) & 1u) << j;
            if (n >= ZB || x < ((uint64_t)1 << n)) {
                int ones = __builtin_popcountll(x);
                sh->valid[k] |= bit;
                sh->popmask[ones][k] |= bit;
                for (int c = ones + 1; c <= ZB + 1; c++)
                    sh->atmost[c][k] |= bit;
                for (int c = 0; c <= ones; c++)
                    sh->atleast[c][k] |= bit;
            }
        }
    }
}

/* Worker w of sn_parallel_workers: its own block range and counts. */
static void zo_run(void *ctx, unsigned worker)
{
    zo_worker(&((zo_thread *)ctx)[worker]);
}

sn_status sn_zero_one_profile(const sn_schedule *s, uint32_t max_wires, unsigned threads,
                              sn_zero_one *z, sn_diag *diag)
{
    if (!s || !z)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_zero_one_profile: no schedule");
    memset(z, 0, sizeof *z);
    uint32_t n = sn_schedule_wires(s);
    if (max_wires > SN_ZERO_ONE_MAX_WIRES)
        max_wires = SN_ZERO_ONE_MAX_WIRES;
    if (n > max_wires)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%s: %u wires; the 0-1 inputs are counted layer by layer for at most "
                           "%u wires (2^%u inputs)",
                           sn_schedule_name(s), n, max_wires, max_wires);
    zo_thread th[SN_PARALLEL_THREADS_MAX];
    unsigned nt = 0;
    memset(th, 0, sizeof th);
    zo_shared *sh = sn_calloc(1, sizeof *sh);
    sn_comparator *cmp = NULL;
    size_t *off = NULL;
    size_t L = sn_schedule_layer_count(s), cells = (L + 1) * (size_t)n;
    sn_status st = sh ? zo_flatten(s, &cmp, &off) : SN_ENOMEM;
    if (st != SN_OK)
        goto done;
    sh->n = n;
    sh->nlow = n < ZB ? n : ZB;
    sh->layers = L;
    sh->cmp = cmp;
    sh->off = off;
    sh->nblocks = n > ZB ? (uint64_t)1 << (n - ZB) : 1;
    zo_patterns(sh);
    nt = threads ? threads : sn_parallel_cpus();
    if (nt > SN_PARALLEL_THREADS_MAX)
        nt = SN_PARALLEL_THREADS_MAX;
    if (nt > sh->nblocks)
        nt = (unsigned)sh->nblocks;
    for (unsigned i = 0; i < nt && st == SN_OK; i++) {
        st = zo_thread_init(&th[i], sh, cells);
        th[i].b0 = sh->nblocks * i / nt;
        th[i].b1 = sh->nblocks * (i + 1) / nt;
    }
    z->sorted = sn_calloc(L + 1, sizeof *z->sorted);
    z->one_from = sn_calloc(cells ? cells : 1, sizeof *z->one_from);
    z->zero_upto = sn_calloc(cells ? cells : 1, sizeof *z->zero_upto);
    if (!z->sorted || !z->one_from || !z->zero_upto)
        st = SN_ENOMEM;
    if (st != SN_OK)
        goto done;
    sn_parallel_workers(nt, zo_run, th);
    z->n = n;
    z->layers = L;
    z->inputs = (uint64_t)1 << n;
    for (size_t c = 0; c < cells; c++) {
        z->one_from[c] = th[0].one_from[c];
        z->zero_upto[c] = th[0].zero_upto[c];
    }
    for (unsigned i = 0; i < nt; i++) {
        for (size_t k = 0; k <= L; k++)
            z->sorted[k] += th[i].sorted[k];
        for (size_t c = 0; c < cells; c++) {
            if (th[i].one_from[c] < z->one_from[c])
                z->one_from[c] = th[i].one_from[c];
            if (th[i].zero_upto[c] > z->zero_upto[c])
                z->zero_upto[c] = th[i].zero_upto[c];
        }
    }
    uint8_t *touched = sn_calloc(n ? n : 1, 1);
    if (!touched) {
        st = SN_ENOMEM;
        goto done;
    }
    for (size_t k = 1; k <= L; k++) {
        memset(touched, 0, n);
        for (size_t j = off[k - 1]; j < off[k]; j++)
            touched[cmp[j].a] = touched[cmp[j].b] = 1;
        for (uint32_t i = 0; i < n; i++) {
            if (!touched[i]) {
                z->one_from[k * n + i] = z->one_from[(k - 1) * n + i];
                z->zero_upto[k * n + i] = z->zero_upto[(k - 1) * n + i];
            }
        }
    }
    sn_free(touched);
done:
    for (unsigned i = 0; i < nt; i++)
        zo_thread_free(&th[i]);
    sn_free(sh);
    sn_free(cmp);
    sn_free(off);
    if (st != SN_OK) {
        sn_zero_one_free(z);
        return sn_diag_set(diag, st, 0, 0, "%s: out of memory for the 0-1 profile",
                           sn_schedule_name(s));
    }
    return SN_OK;
}
