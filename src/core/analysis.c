/* analysis.c - standard form test, Knuth's untangling into standard form,
 * and the 0-1 profile (what all 0-1 inputs do after each layer).
 *
 * Untangling keeps a relabelling map[w] (original wire -> wire in the new
 * network), a bijection: a reversed comparator exchanges the labels of its
 * two wires from there on, so every later comparator reads the exchanged
 * wires. Layers map to layers, so size and depth are unchanged. */
#include "core/analysis.h"

#include <pthread.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check_impl.h" /* for: check_online_cpus */

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
 * the block number). After each layer a thread adds the lanes that are
 * sorted (no 1 directly above a 0) to its counts and ORs every wire (can
 * hold a 1) and its complement (can hold a 0) into per-layer
 * accumulators; the threads' results are summed and ORed at the end. */

#define ZW 8 /* words per wire in a block */
#define ZB 9 /* log2(64 * ZW) */
typedef uint64_t zvec __attribute__((vector_size(ZW * sizeof(uint64_t)), aligned(16)));

typedef struct zo_shared {
    uint32_t n;
    size_t layers;
    const sn_comparator *cmp; /* all comparators in layer order */
    const size_t *off;        /* [layers + 1]: layer k is cmp[off[k] .. off[k + 1]) */
    zvec low[ZB];             /* lane patterns of wires 0..ZB-1 */
    zvec valid;               /* lanes that are real inputs (all unless n < ZB) */
    uint64_t nblocks;
} zo_shared;

typedef struct zo_thread {
    const zo_shared *sh;
    uint64_t b0, b1;   /* blocks [b0, b1) */
    uint64_t *sorted;  /* [layers + 1] */
    zvec *can0, *can1; /* [(layers + 1) * n] */
} zo_thread;

static uint64_t zvec_popcount(const zvec *v)
{
    uint64_t c = 0;
    for (int k = 0; k < ZW; k++)
        c += (uint64_t)__builtin_popcountll((*v)[k]);
    return c;
}

/* After k layers: count the sorted lanes, note what each wire holds. */
static void zo_observe(zo_thread *t, const zvec *w, size_t k)
{
    const zo_shared *sh = t->sh;
    uint32_t n = sh->n;
    zvec bad = {0};
    for (uint32_t i = 0; i + 1 < n; i++)
        bad |= w[i] & ~w[i + 1];
    zvec ok = ~bad & sh->valid;
    t->sorted[k] += zvec_popcount(&ok);
    zvec *c0 = t->can0 + k * n, *c1 = t->can1 + k * n;
    for (uint32_t i = 0; i < n; i++) {
        c0[i] |= ~w[i] & sh->valid;
        c1[i] |= w[i] & sh->valid;
    }
}

static void *zo_worker(void *arg)
{
    zo_thread *t = arg;
    const zo_shared *sh = t->sh;
    const uint32_t n = sh->n;
    const zvec zero = {0};
    zvec w[SN_ZERO_ONE_MAX_WIRES];
    for (uint64_t blk = t->b0; blk < t->b1; blk++) {
        for (uint32_t i = 0; i < n; i++)
            w[i] = i < ZB ? sh->low[i] : ((blk >> (i - ZB)) & 1u) ? ~zero : zero;
        zo_observe(t, w, 0);
        for (size_t k = 0; k < sh->layers; k++) {
            for (size_t j = sh->off[k]; j < sh->off[k + 1]; j++) {
                zvec x = w[sh->cmp[j].a], y = w[sh->cmp[j].b];
                w[sh->cmp[j].a] = x & y;
                w[sh->cmp[j].b] = x | y;
            }
            zo_observe(t, w, k + 1);
        }
    }
    return NULL;
}

void sn_zero_one_free(sn_zero_one *z)
{
    if (!z)
        return;
    sn_free(z->sorted);
    sn_free(z->state);
    z->sorted = NULL;
    z->state = NULL;
}

static void zo_thread_free(zo_thread *t)
{
    sn_free(t->sorted);
    sn_free(t->can0);
    sn_free(t->can1);
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
    zo_thread th[256];
    pthread_t tid[256];
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
    sh->layers = L;
    sh->cmp = cmp;
    sh->off = off;
    sh->nblocks = n > ZB ? (uint64_t)1 << (n - ZB) : 1;
    for (int i = 0; i < ZB; i++)
        for (int k = 0; k < ZW; k++)
            for (int j = 0; j < 64; j++)
                sh->low[i][k] |= (((uint64_t)(k * 64 + j) >> i) & 1u) << j;
    for (int k = 0; k < ZW; k++)
        for (int j = 0; j < 64; j++)
            if (n >= ZB || (uint64_t)(k * 64 + j) < ((uint64_t)1 << n))
                sh->valid[k] |= (uint64_t)1 << j;

    nt = threads ? threads : check_online_cpus();
    if (nt > 256)
        nt = 256;
    if (nt > sh->nblocks)
        nt = (unsigned)sh->nblocks;
    for (unsigned i = 0; i < nt; i++) {
        th[i].sh = sh;
        th[i].b0 = sh->nblocks * i / nt;
        th[i].b1 = sh->nblocks * (i + 1) / nt;
        th[i].sorted = sn_calloc(L + 1, sizeof *th[i].sorted);
        th[i].can0 = sn_calloc(cells ? cells : 1, sizeof *th[i].can0);
        th[i].can1 = sn_calloc(cells ? cells : 1, sizeof *th[i].can1);
        if (!th[i].sorted || !th[i].can0 || !th[i].can1)
            st = SN_ENOMEM;
    }
    z->sorted = sn_calloc(L + 1, sizeof *z->sorted);
    z->state = sn_calloc(cells ? cells : 1, 1);
    if (!z->sorted || !z->state)
        st = SN_ENOMEM;
    if (st == SN_OK) {
        unsigned started = 1;
        for (unsigned i = 1; i < nt; i++, started++)
            if (pthread_create(&tid[i], NULL, zo_worker, &th[i]) != 0)
                break;
        /* a thread that could not start: its blocks run here */
        for (unsigned i = started; i < nt; i++)
            zo_worker(&th[i]);
        zo_worker(&th[0]);
        for (unsigned i = 1; i < started; i++)
            pthread_join(tid[i], NULL);
        z->n = n;
        z->layers = L;
        z->inputs = (uint64_t)1 << n;
        for (unsigned i = 0; i < nt; i++) {
            for (size_t k = 0; k <= L; k++)
                z->sorted[k] += th[i].sorted[k];
            for (size_t c = 0; c < cells; c++) {
                zvec any0 = th[i].can0[c], any1 = th[i].can1[c];
                z->state[c] |= (uint8_t)((zvec_popcount(&any0) ? SN_WIRE_CAN0 : 0) |
                                         (zvec_popcount(&any1) ? SN_WIRE_CAN1 : 0));
            }
        }
    }
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
