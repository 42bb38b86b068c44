/* schedule.c - closed-form and explicit schedules, and the generators.
 *
 * Invariant: a schedule's layer list holds only non-empty layers. Closed
 * forms store one sn_layer_form per layer (O(depth) memory, computed at
 * generate time); explicit schedules own an sn_network. Closed forms are
 * defined on N = next power of two >= n with every comparator touching a
 * wire >= n dropped; sn_layer_partner() is their executable definition and
 * every other function here (counting, pairs, the executor's runs) must
 * agree with it - the tests check that wire by wire. */
#include "core/schedule.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check_api.h"
#include "core/construct.h"

struct sn_schedule {
    sn_algo algo; /* SN_ALGO_EXPLICIT or a generator (closed or explicit) */
    uint32_t n;
    size_t layer_count;
    sn_layer_form *forms;  /* closed forms only: one per layer */
    uint32_t *stages;      /* per layer; NULL = every layer is stage 0 */
    sn_layer_form *shapes; /* generated explicit ones: per layer (see
                              sn_schedule_layer_shape); else NULL */
    sn_network *net;       /* explicit only (owned) */
    size_t size;           /* total comparators (explicit; computed once) */
    char *name;
};

static const char *const algo_names[SN_ALGO_COUNT] = {
    "explicit",    "bitonic",   "oddeven-merge",   "transposition", "pairwise",
    "bubble",      "insertion", "bitonic-classic", "oddeven-merge", "bitonic",
    "bose-nelson", "hibbard",   "merge-exchange",  "balanced",
};

const char *sn_algo_name(sn_algo algo)
{
    if ((unsigned)algo >= SN_ALGO_COUNT)
        return "unknown";
    return algo_names[algo];
}

bool sn_algo_parse(const char *name, sn_algo *out)
{
    static const struct {
        const char *alias;
        sn_algo algo;
    } aliases[] = {
        {"oem", SN_ALGO_ODDEVEN_MERGE},
        {"oddeven", SN_ALGO_ODDEVEN_MERGE},
        {"odd-even-merge", SN_ALGO_ODDEVEN_MERGE},
        {"oddevenmerge", SN_ALGO_ODDEVEN_MERGE},
        {"batcher", SN_ALGO_ODDEVEN_MERGE},
        {"oets", SN_ALGO_TRANSPOSITION},
        {"odd-even-transposition", SN_ALGO_TRANSPOSITION},
        {"oddeven-transposition", SN_ALGO_TRANSPOSITION},
        {"bitonic-sort", SN_ALGO_BITONIC},
        {"bubble-sort", SN_ALGO_BUBBLE},
        {"insertion-sort", SN_ALGO_INSERTION},
        {"parberry", SN_ALGO_PAIRWISE},
        {"classic-bitonic", SN_ALGO_BITONIC_CLASSIC},
        {"bitonic-pad", SN_ALGO_BITONIC},
        {"oddeven-merge-pad", SN_ALGO_ODDEVEN_MERGE},
        {"bosenelson", SN_ALGO_BOSE_NELSON},
        {"batcher-merge-exchange", SN_ALGO_MERGE_EXCHANGE},
        {"periodic-balanced", SN_ALGO_BALANCED},
    };
    if (!name)
        return false;
    for (int a = 0; a < SN_ALGO_COUNT; a++) {
        if (strcmp(name, algo_names[a]) == 0) {
            if (out)
                *out = (sn_algo)a;
            return true;
        }
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
        if (strcmp(name, aliases[i].alias) == 0) {
            if (out)
                *out = aliases[i].algo;
            return true;
        }
    }
    return false;
}

static bool is_pow2(uint32_t n)
{
    return n != 0 && (n & (n - 1)) == 0;
}

bool sn_algo_resolve(const char *name, uint32_t n, sn_algo *out)
{
    sn_algo a;
    if (!sn_algo_parse(name, &a))
        return false;
    size_t len = strlen(name);
    bool pad = len >= 4 && strcmp(name + len - 4, "-pad") == 0;
    if (!pad && !is_pow2(n) && a == SN_ALGO_BITONIC)
        a = SN_ALGO_BITONIC_SPLIT;
    else if (!pad && !is_pow2(n) && a == SN_ALGO_ODDEVEN_MERGE)
        a = SN_ALGO_ODDEVEN_SPLIT;
    if (out)
        *out = a;
    return true;
}

const char *sn_algo_describe(sn_algo algo, uint32_t n)
{
    bool p2 = is_pow2(n);
    switch (algo) {
    case SN_ALGO_BITONIC:
        return p2 ? "Batcher's bitonic sort (flip-free: each merge starts with the mirror step); "
                    "n is a power of two, so the balanced split and the padded form are this "
                    "same network (closed form)"
                  : "Batcher's bitonic sort padded to the next power of two, comparators on "
                    "wires >= n dropped (closed form; bitonic:N is the smaller balanced split)";
    case SN_ALGO_ODDEVEN_MERGE:
        return p2 ? "Batcher's odd-even merge sort; n is a power of two, so the balanced split "
                    "and the padded form are this same network (closed form)"
                  : "Batcher's odd-even merge sort padded to the next power of two, comparators "
                    "on wires >= n dropped (closed form; oddeven-merge:N is the smaller "
                    "balanced split)";
    case SN_ALGO_BITONIC_SPLIT:
        return "Batcher's bitonic sort by the balanced split: halves floor(n/2) and ceil(n/2) "
               "sorted recursively, then the bitonic merger of any size (untangled to "
               "standard form)";
    case SN_ALGO_ODDEVEN_SPLIT:
        return "Batcher's odd-even merge sort by the balanced split: halves floor(n/2) and "
               "ceil(n/2) sorted recursively, then the odd-even merge of any two sizes";
    case SN_ALGO_TRANSPOSITION: return "odd-even transposition sort: n rounds of neighbours";
    case SN_ALGO_PAIRWISE:
        return "Parberry's pairwise sorting network (padded to a power of two, wires >= n "
               "dropped)";
    case SN_ALGO_BUBBLE: return "bubble sort as a network (neighbour comparators)";
    case SN_ALGO_INSERTION: return "insertion sort as a network (neighbour comparators)";
    case SN_ALGO_BITONIC_CLASSIC:
        return "Batcher's bitonic sort in the textbook form: descending blocks with reversed "
               "comparators";
    case SN_ALGO_BOSE_NELSON:
        return "Bose and Nelson's recursive construction (1962): split, sort, and their "
               "three-part merge";
    case SN_ALGO_HIBBARD: return "Hibbard's iterative construction (1963)";
    case SN_ALGO_MERGE_EXCHANGE:
        return "Batcher's merge exchange (Knuth, Algorithm 5.2.2M) as a network";
    case SN_ALGO_BALANCED:
        return p2 ? "periodic balanced sorting network (Dowd, Perl, Rudolph, Saks): lg n "
                    "identical blocks of lg n mirror layers"
                  : "periodic balanced sorting network (Dowd, Perl, Rudolph, Saks) padded to "
                    "the next power of two, comparators on wires >= n dropped";
    default: return "a network read from a file";
    }
}

bool sn_algo_is_closed_form(sn_algo algo)
{
    return algo == SN_ALGO_BITONIC || algo == SN_ALGO_ODDEVEN_MERGE ||
           algo == SN_ALGO_TRANSPOSITION;
}

static uint32_t pow2_ceil(uint32_t n)
{
    uint32_t N = 1;
    while (N < n)
        N <<= 1;
    return N;
}

static uint32_t log2u(uint32_t x)
{
    uint32_t k = 0;
    while (x > 1) {
        x >>= 1;
        k++;
    }
    return k;
}

/* The odd-even merge's "low end" test of the header, literally. */
static bool oem_low(uint32_t p, uint32_t k, uint32_t n, uint64_t w)
{
    uint64_t off = k % p;
    if (w < off || w + k >= n)
        return false;
    if ((w - off) % (2 * (uint64_t)k) >= k)
        return false;
    return w / (2 * (uint64_t)p) == (w + k) / (2 * (uint64_t)p);
}

bool sn_layer_partner(sn_layer_form f, uint32_t n, uint32_t i, uint32_t *partner)
{
    uint64_t j;
    if (i >= n)
        return false;
    switch (f.algo) {
    case SN_ALGO_BITONIC:
        if (f.q == 0 || f.p < 2)
            return false;
        j = (f.q == f.p / 2) ? (i ^ (f.p - 1u)) : (i ^ f.q);
        break;
    case SN_ALGO_ODDEVEN_MERGE:
        if (f.q == 0 || f.p == 0)
            return false;
        if (oem_low(f.p, f.q, n, i))
            j = (uint64_t)i + f.q;
        else if (i >= f.q && oem_low(f.p, f.q, n, (uint64_t)i - f.q))
            j = (uint64_t)i - f.q;
        else
            return false;
        break;
    case SN_ALGO_TRANSPOSITION:
        if ((i & 1u) == (f.p & 1u))
            j = (uint64_t)i + 1;
        else if (i > 0)
            j = (uint64_t)i - 1;
        else
            return false;
        break;
    default: return false;
    }
    if (j >= n || j == i)
        return false;
    if (partner)
        *partner = (uint32_t)j;
    return true;
}

/* Count of x in [0, m) with bit `bit` (a power of two) clear. */
static uint64_t count_bit_clear(uint64_t m, uint64_t bit)
{
    return (m / (2 * bit)) * bit + (m % (2 * bit) < bit ? m % (2 * bit) : bit);
}

/* Count of x in [0, m) with bit `bit` set. */
static uint64_t count_bit_set(uint64_t m, uint64_t bit)
{
    return m - count_bit_clear(m, bit);
}

/* Comparators of a closed-form layer, in O(1) (derivations in comments). */
static uint64_t closed_layer_size(sn_layer_form f, uint32_t n)
{
    uint64_t p = f.p, q = f.q;
    switch (f.algo) {
    case SN_ALGO_BITONIC:
        if (q == p / 2) {
            /* mirror: full blocks give p/2; in the partial block of
             * `rem` wires the pairs (r, p-1-r) with p-1-r < rem survive. */
            uint64_t rem = n % p;
            return (n / p) * (p / 2) + (rem > p / 2 ? rem - p / 2 : 0);
        }
        /* half-cleaner: low ends i with bit q clear and i + q < n */
        return n > q ? count_bit_clear(n - q, q) : 0;
    case SN_ALGO_ODDEVEN_MERGE:
        if (n <= q)
            return 0;
        if (q == p) /* offset 0: a half-cleaner of distance p */
            return count_bit_clear(n - q, q);
        {
            /* q < p: low ends w have bit q set and w mod 2p < 2p - q, so
             * p - q per 2p block; then the partial block. */
            uint64_t m = n - q, full = m / (2 * p), r = m % (2 * p);
            uint64_t lim = r < 2 * p - q ? r : 2 * p - q;
            return full * (p - q) + count_bit_set(lim, q);
        }
    case SN_ALGO_TRANSPOSITION:
        /* pairs (i, i+1), i = parity mod 2, i + 1 < n */
        if (n < 2)
            return 0;
        return (f.p & 1u) ? (uint64_t)(n - 1) / 2 : (uint64_t)n / 2;
    default: return 0;
    }
}

static sn_schedule *schedule_alloc(sn_algo algo, uint32_t n)
{
    sn_schedule *s = sn_calloc(1, sizeof *s);
    if (s) {
        s->algo = algo;
        s->n = n;
    }
    return s;
}

void sn_schedule_destroy(sn_schedule *s)
{
    if (!s)
        return;
    sn_free(s->forms);
    sn_free(s->stages);
    sn_free(s->shapes);
    sn_network_destroy(s->net);
    sn_free(s->name);
    sn_free(s);
}

/* Closed forms: append every non-empty layer of the padded network. At most
 * 31*32/2 layers, so fixed-size scratch is enough. */
/* Layers a closed form will have, before any allocation (transposition:
 * one per wire, so a huge n must be refused up front). */
static size_t closed_layer_count_bound(sn_algo algo, uint32_t n)
{
    if (algo == SN_ALGO_TRANSPOSITION)
        return n <= 1 ? 0 : n == 2 ? 1 : n;
    size_t k = log2u(pow2_ceil(n));
    return k * (k + 1) / 2;
}

static sn_status generate_closed(sn_schedule *s)
{
    uint32_t n = s->n, N = pow2_ceil(n);
    size_t cap = 2 + (size_t)log2u(N) * (log2u(N) + 1) / 2;
    if (s->algo == SN_ALGO_TRANSPOSITION)
        cap = (size_t)n + 1;
    s->forms = sn_calloc(cap, sizeof *s->forms);
    s->stages = sn_calloc(cap, sizeof *s->stages);
    if (!s->forms || !s->stages)
        return SN_ENOMEM;
    size_t L = 0;
#define PUSH(P, Q, STAGE)                                                                          \
    do {                                                                                           \
        sn_layer_form f_ = {s->algo, (P), (Q)};                                                    \
        if (closed_layer_size(f_, n) > 0) {                                                        \
            s->forms[L] = f_;                                                                      \
            s->stages[L] = (STAGE);                                                                \
            L++;                                                                                   \
        }                                                                                          \
    } while (0)
    switch (s->algo) {
    case SN_ALGO_BITONIC:
        for (uint32_t p = 2; p != 0 && p <= N; p <<= 1)
            for (uint32_t q = p / 2; q >= 1; q >>= 1)
                PUSH(p, q, log2u(p) - 1);
        break;
    case SN_ALGO_ODDEVEN_MERGE:
        for (uint32_t p = 1; p < N; p <<= 1)
            for (uint32_t k = p; k >= 1; k >>= 1)
                PUSH(p, k, log2u(p));
        break;
    case SN_ALGO_TRANSPOSITION:
        for (uint32_t r = 0; r < n; r++)
            PUSH(r & 1u, 0, r / 2);
        break;
    default: break;
    }
#undef PUSH
    s->layer_count = L;
    return SN_OK;
}

/* Per-layer stages and shapes of a generated explicit network: at most
 * K(K+1)/2 + 1 layers for N = 2^K (bitonic's count, pairwise's too). */
typedef struct layer_tags {
    sn_schedule *s;
    size_t cap;
} layer_tags;

static sn_status tags_init(layer_tags *t, sn_schedule *s, uint32_t N)
{
    uint32_t K = log2u(N);
    t->s = s;
    t->cap = 1 + (size_t)K * (K + 1) / 2;
    s->stages = sn_calloc(t->cap, sizeof *s->stages);
    s->shapes = sn_calloc(t->cap, sizeof *s->shapes);
    return s->stages && s->shapes ? SN_OK : SN_ENOMEM;
}

/* Append layer buf[0..cnt) (nothing when empty: every comparator was
 * dropped) with its stage and shape. */
static sn_status tags_layer(layer_tags *t, sn_network *net, const sn_comparator *buf, size_t cnt,
                            uint32_t stage, uint32_t p, uint32_t q, sn_diag *diag)
{
    if (cnt == 0)
        return SN_OK;
    size_t before = sn_network_layer_count(net);
    sn_status st = sn_network_layer_add(net, buf, cnt, diag);
    if (st == SN_OK && before < t->cap) {
        t->s->stages[before] = stage;
        t->s->shapes[before] = (sn_layer_form){t->s->algo, p, q};
    }
    return st;
}

/* Parberry's pairwise network on N = 2^K wires, comparators touching wires
 * >= n dropped; each (a, d) pass is one layer. stage: phase 1 layer a gives
 * stage log2 a, each round of phase 2 one further stage. */
static sn_status generate_pairwise(sn_network *net, sn_schedule *s, sn_diag *diag)
{
    uint32_t n = sn_network_wires(net), N = pow2_ceil(n);
    layer_tags tags;
    sn_comparator *buf = sn_calloc(n / 2 + 1, sizeof *buf);
    sn_status st = tags_init(&tags, s, N);
    uint32_t stage = 0;
    if (!buf)
        st = SN_ENOMEM;
    if (st != SN_OK)
        goto done;
    uint32_t a = 1;
    for (; a < N; a <<= 1) {
        size_t cnt = 0;
        /* pairs (i, i + a) for i with bit a clear */
        for (uint32_t i = 0; i + a < n; i++)
            if ((i & a) == 0)
                buf[cnt++] = (sn_comparator){i, i + a};
        if ((st = tags_layer(&tags, net, buf, cnt, stage, a, 0, diag)) != SN_OK)
            goto done;
        stage++;
    }
    a >>= 2;
    for (uint32_t e = 1; a > 0; a >>= 1, e = 2 * e + 1) {
        for (uint32_t d = e; d > 0; d >>= 1) {
            size_t cnt = 0;
            /* b runs over [(d+1)a, N) in runs of a wires, skipping a */
            uint64_t b = (uint64_t)(d + 1) * a;
            uint32_t c = 0;
            while (b < n) {
                buf[cnt++] = (sn_comparator){(uint32_t)(b - (uint64_t)d * a), (uint32_t)b};
                b++;
                if (++c >= a) {
                    c = 0;
                    b += a;
                }
            }
            if ((st = tags_layer(&tags, net, buf, cnt, stage, a, d, diag)) != SN_OK)
                goto done;
        }
        stage++;
    }
done:
    sn_free(buf);
    return st;
}

/* Direction of block b (of k wires) in stage k of the classic bitonic sort
 * on N = 2^K wires for n wires: true = descending. The textbook rule is
 * "descending iff b is odd" (the last merge, k = N, ascends). Dropping
 * wires >= n is sound only where the comparators touching them ascend (the
 * dropped wire keeps its +infinity), so the block that straddles wire n
 * must ascend: when it is odd, it and its even sibling swap directions.
 * Each pair of sibling blocks still runs in opposite directions, so their
 * union is bitonic and the next merge sorts it. */
static bool classic_descends(uint32_t n, uint32_t N, uint32_t k, uint32_t b)
{
    if (k >= N)
        return false;
    uint32_t straddle = n / k;
    bool flip = n % k != 0 && (straddle & 1u) && (b >> 1) == (straddle >> 1);
    return ((b & 1u) != 0) != flip;
}

/* Batcher's bitonic sort as in the textbooks: stage k merges blocks of k
 * wires, ascending or descending (classic_descends); a descending
 * comparator is the reversed pair (i ^ j, i). */
static sn_status generate_classic(sn_network *net, sn_schedule *s, sn_diag *diag)
{
    uint32_t n = sn_network_wires(net), N = pow2_ceil(n);
    layer_tags tags;
    sn_comparator *buf = sn_calloc(n / 2 + 1, sizeof *buf);
    sn_status st = tags_init(&tags, s, N);
    if (!buf)
        st = SN_ENOMEM;
    for (uint32_t k = 2; st == SN_OK && k != 0 && k <= N; k <<= 1) {
        for (uint32_t j = k / 2; st == SN_OK && j >= 1; j >>= 1) {
            size_t cnt = 0;
            for (uint32_t i = 0; i < n; i++) {
                uint32_t l = i ^ j;
                if (l > i && l < n)
                    buf[cnt++] = classic_descends(n, N, k, i / k) ? (sn_comparator){l, i}
                                                                  : (sn_comparator){i, l};
            }
            st = tags_layer(&tags, net, buf, cnt, log2u(k) - 1, k, j, diag);
        }
    }
    sn_free(buf);
    return st;
}

static sn_status generate_explicit(sn_schedule *s, sn_diag *diag)
{
    uint32_t n = s->n;
    sn_limits lim = sn_limits_get();
    uint64_t size;
    if (s->algo == SN_ALGO_PAIRWISE || s->algo == SN_ALGO_BITONIC_CLASSIC) {
        uint64_t N = pow2_ceil(n), K = log2u((uint32_t)N);
        size = (N / 4) * K * (K + 1); /* upper bound before dropping */
    } else if (s->algo >= SN_ALGO_ODDEVEN_SPLIT) {
        size = sn_construct_size_bound(s->algo, n);
        if (size > (uint64_t)n * (n - 1) / 2 && s->algo != SN_ALGO_BALANCED)
            size = (uint64_t)n * (n - 1) / 2; /* no standard sorter needs more */
    } else {
        size = (uint64_t)n * (n - 1) / 2;
    }
    bool split = s->algo == SN_ALGO_BITONIC_SPLIT || s->algo == SN_ALGO_ODDEVEN_SPLIT;
    if (n > lim.max_wires || size > lim.max_comparators)
        return sn_diag_limit(diag, n > lim.max_wires ? SN_LIMIT_WIRES : SN_LIMIT_COMPARATORS, 0,
                             0,
                             "%s:%u: too large to generate explicitly (%u wires, about %llu "
                             "comparators; limits %u wires, %zu comparators)%s%s%s",
                             sn_algo_name(s->algo), n, n, (unsigned long long)size,
                             lim.max_wires, lim.max_comparators, split ? "; " : "",
                             split ? sn_algo_name(s->algo) : "",
                             split ? "-pad:N is the closed form, which needs no comparator list"
                                   : "");
    sn_network *net = sn_network_create(n);
    if (!net)
        return SN_ENOMEM;
    sn_status st = SN_OK;
    switch (s->algo) {
    case SN_ALGO_PAIRWISE: st = generate_pairwise(net, s, diag); break;
    case SN_ALGO_BITONIC_CLASSIC: st = generate_classic(net, s, diag); break;
    case SN_ALGO_BUBBLE:
        for (uint32_t i = n; i-- > 1 && st == SN_OK;)
            for (uint32_t j = 0; j < i && st == SN_OK; j++)
                st = sn_network_add_asap(net, j, j + 1, diag);
        break;
    case SN_ALGO_INSERTION:
        for (uint32_t i = 1; i < n && st == SN_OK; i++)
            for (uint32_t j = i; j-- > 0 && st == SN_OK;)
                st = sn_network_add_asap(net, j, j + 1, diag);
        break;
    default: st = sn_construct_sort(s->algo, net, diag); break;
    }
    if (st != SN_OK) {
        sn_network_destroy(net);
        return st;
    }
    s->net = net;
    s->layer_count = sn_network_layer_count(net);
    s->size = sn_network_size(net);
    return SN_OK;
}

sn_status sn_schedule_generate(sn_algo algo, uint32_t n, sn_schedule **out, sn_diag *diag)
{
    char name[64];
    if (!out)
        return SN_EINVAL;
    *out = NULL;
    if (n < 1 || algo == SN_ALGO_EXPLICIT || (unsigned)algo >= SN_ALGO_COUNT)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "generator %s needs n >= 1 (got %u)",
                           sn_algo_name(algo), n);
    if (n > (1u << 31))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "%s:%u: at most 2^31 wires", sn_algo_name(algo),
                           n);
    sn_schedule *s = schedule_alloc(algo, n);
    if (!s)
        return SN_ENOMEM;
    /* A closed form's layers cost little memory, but the layer limit still
     * bounds the work a run will do (transposition has n layers); checked
     * before generating, so transposition:2000000000 allocates nothing. */
    size_t bound = sn_algo_is_closed_form(algo) ? closed_layer_count_bound(algo, n) : 0;
    sn_status st = SN_OK;
    if (bound > sn_limits_get().max_layers)
        st = sn_diag_limit(diag, SN_LIMIT_LAYERS, 0, 0,
                           "%s:%u: %zu layers, over the limit of %zu layers", sn_algo_name(algo),
                           n, bound, sn_limits_get().max_layers);
    else
        st = sn_algo_is_closed_form(algo) ? generate_closed(s) : generate_explicit(s, diag);
    if (st == SN_OK) {
        bool padded = sn_algo_is_closed_form(algo) && algo != SN_ALGO_TRANSPOSITION && !is_pow2(n);
        snprintf(name, sizeof name, "%s%s:%u", sn_algo_name(algo), padded ? "-pad" : "", n);
        st = sn_schedule_set_name(s, name);
    }
    if (st == SN_OK && s->net)
        st = sn_network_set_name(s->net, name);
    if (st != SN_OK) {
        if (st == SN_ENOMEM)
            sn_diag_set(diag, st, 0, 0, "%s:%u: out of memory", sn_algo_name(algo), n);
        sn_schedule_destroy(s);
        return st;
    }
    *out = s;
    return SN_OK;
}

sn_status sn_schedule_from_network(sn_network *net, sn_schedule **out)
{
    if (!out) {
        sn_network_destroy(net);
        return SN_EINVAL;
    }
    *out = NULL;
    if (!net)
        return SN_EINVAL;
    sn_schedule *s = schedule_alloc(SN_ALGO_EXPLICIT, sn_network_wires(net));
    if (!s) {
        sn_network_destroy(net);
        return SN_ENOMEM;
    }
    s->net = net;
    s->layer_count = sn_network_layer_count(net);
    s->size = sn_network_size(net);
    if (sn_schedule_set_name(s, sn_network_name(net)) != SN_OK) {
        sn_schedule_destroy(s);
        return SN_ENOMEM;
    }
    *out = s;
    return SN_OK;
}

sn_algo sn_schedule_algo(const sn_schedule *s)
{
    return s->algo;
}

uint32_t sn_schedule_wires(const sn_schedule *s)
{
    return s->n;
}

size_t sn_schedule_layer_count(const sn_schedule *s)
{
    return s->layer_count;
}

sn_layer_form sn_schedule_layer_form(const sn_schedule *s, size_t k)
{
    if (s->forms && k < s->layer_count)
        return s->forms[k];
    sn_layer_form f = {SN_ALGO_EXPLICIT, (uint32_t)k, 0};
    return f;
}

const char *sn_schedule_name(const sn_schedule *s)
{
    return s->name ? s->name : "";
}

sn_status sn_schedule_set_name(sn_schedule *s, const char *name)
{
    char *copy = sn_strdup(name);
    if (!copy)
        return SN_ENOMEM;
    sn_free(s->name);
    s->name = copy;
    return SN_OK;
}

const sn_network *sn_schedule_network(const sn_schedule *s)
{
    return s->forms ? NULL : s->net;
}

size_t sn_schedule_layer_size(const sn_schedule *s, size_t k)
{
    if (k >= s->layer_count)
        return 0;
    if (s->forms)
        return (size_t)closed_layer_size(s->forms[k], s->n);
    size_t count = 0;
    (void)sn_network_layer(s->net, k, &count);
    return count;
}

size_t sn_schedule_size(const sn_schedule *s)
{
    if (!s->forms)
        return s->size;
    size_t total = 0;
    for (size_t k = 0; k < s->layer_count; k++)
        total += (size_t)closed_layer_size(s->forms[k], s->n);
    return total;
}

size_t sn_schedule_layer_pairs(const sn_schedule *s, size_t k, sn_comparator *out, size_t cap)
{
    sn_api_check(s != NULL && (out != NULL || cap == 0));
    if (k >= s->layer_count)
        return 0;
    if (!s->forms) {
        size_t count = 0;
        const sn_comparator *c = sn_network_layer(s->net, k, &count);
        if (out && cap > 0)
            memcpy(out, c, (count < cap ? count : cap) * sizeof *c);
        return count;
    }
    sn_layer_form f = s->forms[k];
    size_t count = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        uint32_t j;
        if (sn_layer_partner(f, s->n, i, &j) && j > i) {
            if (out && count < cap)
                out[count] = (sn_comparator){i, j};
            count++;
        }
    }
    return count;
}

sn_status sn_schedule_to_network(const sn_schedule *s, sn_network **out, sn_diag *diag)
{
    if (!out)
        return SN_EINVAL;
    *out = NULL;
    if (!s->forms) {
        sn_network *c = sn_network_clone(s->net);
        if (!c)
            return sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory", sn_schedule_name(s));
        *out = c;
        return SN_OK;
    }
    sn_limits lim = sn_limits_get();
    size_t size = sn_schedule_size(s), maxl = 0;
    if (s->n > lim.max_wires || size > lim.max_comparators || s->layer_count > lim.max_layers)
        return sn_diag_limit(diag,
                             s->n > lim.max_wires          ? SN_LIMIT_WIRES
                             : size > lim.max_comparators ? SN_LIMIT_COMPARATORS
                                                          : SN_LIMIT_LAYERS,
                             0, 0,
                             "%s: too large to list (%u wires, %zu comparators; limits %u wires, "
                             "%zu comparators)",
                             sn_schedule_name(s), s->n, size, lim.max_wires, lim.max_comparators);
    for (size_t k = 0; k < s->layer_count; k++) {
        size_t ls = sn_schedule_layer_size(s, k);
        if (ls > maxl)
            maxl = ls;
    }
    sn_network *net = sn_network_create(s->n);
    sn_comparator *buf = sn_calloc(maxl + 1, sizeof *buf);
    sn_status st = (net && buf) ? SN_OK : SN_ENOMEM;
    for (size_t k = 0; st == SN_OK && k < s->layer_count; k++) {
        size_t cnt = sn_schedule_layer_pairs(s, k, buf, maxl + 1);
        st = sn_network_layer_add(net, buf, cnt, diag);
    }
    if (st == SN_OK)
        st = sn_network_set_name(net, sn_schedule_name(s));
    sn_free(buf);
    if (st != SN_OK) {
        sn_network_destroy(net);
        if (st == SN_ENOMEM)
            sn_diag_set(diag, st, 0, 0, "%s: out of memory", sn_schedule_name(s));
        return st;
    }
    *out = net;
    return SN_OK;
}

sn_layer_form sn_schedule_layer_shape(const sn_schedule *s, size_t k)
{
    if (k < s->layer_count && s->shapes)
        return s->shapes[k];
    return sn_schedule_layer_form(s, k);
}

uint32_t sn_schedule_layer_stage(const sn_schedule *s, size_t k)
{
    if (k >= s->layer_count || !s->stages)
        return 0;
    return s->stages[k];
}
