/* test_exec.c - the reference executor against qsort for every generator,
 * n and key type, payload tracking, and the trace against stepping. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "sn_test.h"

static const sn_algo gens[] = {SN_ALGO_BITONIC,  SN_ALGO_ODDEVEN_MERGE, SN_ALGO_TRANSPOSITION,
                               SN_ALGO_PAIRWISE, SN_ALGO_BUBBLE,        SN_ALGO_INSERTION};
#define NGENS (sizeof gens / sizeof gens[0])

static uint64_t rng_state = 0x1234567u;
static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 32);
}

/* Independent orders on raw bits (no use of sn_key_to_ordered). */
static int64_t f32_rank(uint32_t b)
{
    /* IEEE totalOrder on bit patterns: negatives reversed by magnitude */
    return (b & 0x80000000u) ? -(int64_t)(b & 0x7FFFFFFFu) - 1 : (int64_t)b;
}
static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}
static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}
static int cmp_f32(const void *x, const void *y)
{
    int64_t a = f32_rank(*(const uint32_t *)x), b = f32_rank(*(const uint32_t *)y);
    return (a > b) - (a < b);
}
static int (*const cmps[3])(const void *, const void *) = {cmp_i32, cmp_u32, cmp_f32};

static const uint32_t f32_special[] = {
    0x80000000u, 0x00000000u, 0x7FC00000u, 0xFFC00000u, 0x7F800000u, 0xFF800000u, 0x7F800001u,
    0xFFFFFFFFu, 0x3F800000u, 0xBF800000u, 0x00000001u, 0x80000001u, 0x7F7FFFFFu, 0xFF7FFFFFu};

enum { IN_RANDOM, IN_REVERSED, IN_SORTED, IN_FEW, IN_COUNT };

static void make_input(uint32_t *k, uint32_t n, int kind, sn_key_type t)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = rnd();
        if (kind == IN_FEW)
            v = (v % 4) * 0x40000001u;
        if (t == SN_KEY_F32 && kind != IN_FEW && rnd() % 4 == 0)
            v = f32_special[rnd() % (sizeof f32_special / sizeof f32_special[0])];
        if (t == SN_KEY_F32 && kind == IN_FEW)
            v = f32_special[v % 5];
        k[i] = v;
    }
    if (kind == IN_SORTED || kind == IN_REVERSED) {
        qsort(k, n, sizeof *k, cmps[t]);
        if (kind == IN_REVERSED)
            for (uint32_t i = 0; i < n / 2; i++) {
                uint32_t x = k[i];
                k[i] = k[n - 1 - i];
                k[n - 1 - i] = x;
            }
    }
}

/* Run s on every kind of input of every type, with and without payload. */
static void check_sorts(const sn_schedule *s)
{
    uint32_t n = sn_schedule_wires(s);
    uint32_t *in = sn_calloc(n, 4), *k = sn_calloc(n, 4), *kp = sn_calloc(n, 4);
    uint32_t *pay = sn_calloc(n, 4), *ref = sn_calloc(n, 4);
    uint8_t *seen = sn_calloc(n, 1);
    for (int t = 0; t < 3; t++) {
        for (int kind = 0; kind < IN_COUNT; kind++) {
            make_input(in, n, kind, (sn_key_type)t);
            memcpy(ref, in, (size_t)n * 4);
            qsort(ref, n, 4, cmps[t]);
            memcpy(k, in, (size_t)n * 4);
            memcpy(kp, in, (size_t)n * 4);
            for (uint32_t i = 0; i < n; i++)
                pay[i] = i;
            sn_exec_run(s, (sn_key_type)t, k, NULL);
            sn_exec_run(s, (sn_key_type)t, kp, pay);
            CHECKF(memcmp(k, ref, (size_t)n * 4) == 0, "%s type %d input %d", sn_schedule_name(s),
                   t, kind);
            CHECKF(memcmp(kp, ref, (size_t)n * 4) == 0, "%s payload type %d input %d",
                   sn_schedule_name(s), t, kind);
            memset(seen, 0, n);
            bool perm = true, follows = true;
            for (uint32_t i = 0; i < n; i++) {
                if (pay[i] >= n || seen[pay[i]]) {
                    perm = false;
                    break;
                }
                seen[pay[i]] = 1;
                follows = follows && kp[i] == in[pay[i]];
            }
            CHECKF(perm && follows, "%s payload", sn_schedule_name(s));
        }
    }
    sn_free(in);
    sn_free(k);
    sn_free(kp);
    sn_free(pay);
    sn_free(ref);
    sn_free(seen);
}

/* One random i32 input without payload, against qsort. */
static void check_one(const sn_schedule *s)
{
    uint32_t n = sn_schedule_wires(s);
    uint32_t *k = sn_calloc(n, 4), *ref = sn_calloc(n, 4);
    make_input(k, n, IN_RANDOM, SN_KEY_I32);
    memcpy(ref, k, (size_t)n * 4);
    qsort(ref, n, 4, cmp_i32);
    sn_exec_run(s, SN_KEY_I32, k, NULL);
    CHECKF(memcmp(k, ref, (size_t)n * 4) == 0, "%s", sn_schedule_name(s));
    sn_free(k);
    sn_free(ref);
}

/* sn_exec_run (blocked, SIMD) equals stepping layer by layer, and the
 * closed form equals its materialized network. */
static void check_paths(sn_algo algo, uint32_t n)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(algo, n, &s, NULL) == SN_OK);
    uint32_t *a = sn_calloc(n, 4), *b = sn_calloc(n, 4);
    for (uint32_t i = 0; i < n; i++)
        a[i] = b[i] = rnd() % 1000u;
    sn_exec_run(s, SN_KEY_U32, a, NULL);
    size_t swaps = 0;
    for (size_t k = 0; k < sn_schedule_layer_count(s); k++)
        swaps += sn_exec_layer(s, k, SN_KEY_U32, b, NULL, NULL);
    CHECKF(memcmp(a, b, (size_t)n * 4) == 0, "%s: run != layers", sn_schedule_name(s));
    CHECK(swaps > 0 || n < 2);
    sn_free(a);
    sn_free(b);
    sn_schedule_destroy(s);
}

static void check_trace(sn_algo algo, uint32_t n, sn_key_type t, bool with_pay)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(algo, n, &s, NULL) == SN_OK);
    uint32_t *in = sn_calloc(n, 4), *cur = sn_calloc(n, 4), *pay = sn_calloc(n, 4);
    uint32_t *pin = sn_calloc(n, 4);
    make_input(in, n, IN_RANDOM, t);
    for (uint32_t i = 0; i < n; i++)
        pin[i] = pay[i] = i;
    memcpy(cur, in, (size_t)n * 4);
    sn_trace *tr = NULL, *dg = NULL;
    sn_diag d;
    CHECK(sn_trace_record(s, t, in, with_pay ? pin : NULL, SN_TRACE_AUTO, &tr, &d) == SN_OK);
    CHECK(sn_trace_record(s, t, in, with_pay ? pin : NULL, SN_TRACE_DIGEST, &dg, &d) == SN_OK);
    size_t L = sn_schedule_layer_count(s);
    CHECK(sn_trace_mode_of(tr) == SN_TRACE_FULL && sn_trace_mode_of(dg) == SN_TRACE_DIGEST);
    CHECK(sn_trace_layer_count(tr) == L && sn_trace_wires(tr) == n);
    CHECK(sn_trace_key_type(tr) == t);
    CHECK(memcmp(sn_trace_state(tr, 0), in, (size_t)n * 4) == 0);
    sn_comparator *pairs = sn_calloc(n / 2 + 1, sizeof *pairs);
    uint8_t *fl = sn_calloc(n / 2 + 1, 1);
    for (size_t k = 0; k <= L; k++) {
        const uint32_t *st = sn_trace_state(tr, k);
        CHECK(memcmp(st, cur, (size_t)n * 4) == 0);
        CHECK(sn_trace_digest(tr, k) == sn_digest(cur, n));
        CHECK(sn_trace_digest(dg, k) == sn_digest(cur, n));
        if (with_pay)
            CHECK(memcmp(sn_trace_payload(tr, k), pay, (size_t)n * 4) == 0);
        else
            CHECK(sn_trace_payload(tr, k) == NULL);
        if (k == L)
            break;
        size_t cnt = sn_schedule_layer_pairs(s, k, pairs, n / 2 + 1), fcount = 0;
        /* expected flags from the state, by the independent order */
        size_t expect_swaps = 0;
        for (size_t i = 0; i < cnt; i++)
            expect_swaps += cmps[t](&cur[pairs[i].a], &cur[pairs[i].b]) > 0;
        size_t sw = sn_exec_layer(s, k, t, cur, with_pay ? pay : NULL, fl);
        const uint8_t *tf = sn_trace_swaps(tr, k, &fcount);
        CHECK(tf && fcount == cnt && memcmp(tf, fl, cnt) == 0);
        size_t sum = 0;
        for (size_t i = 0; i < cnt; i++)
            sum += tf ? tf[i] : 0;
        CHECK(sw == expect_swaps && sum == sw);
        CHECK(sn_trace_swap_count(tr, k) == sw && sn_trace_swap_count(dg, k) == sw);
        CHECK(sn_trace_swaps(dg, k, &fcount) == NULL);
        if (k > 0 && k < L)
            CHECK(sn_trace_state(dg, k) == NULL);
    }
    uint32_t *run = sn_calloc(n, 4);
    memcpy(run, in, (size_t)n * 4);
    sn_exec_run(s, t, run, NULL);
    CHECK(memcmp(sn_trace_state(dg, L), run, (size_t)n * 4) == 0);
    CHECK(memcmp(sn_trace_state(dg, 0), in, (size_t)n * 4) == 0);
    CHECK(memcmp(sn_trace_state(tr, L), run, (size_t)n * 4) == 0);
    if (with_pay)
        CHECK(memcmp(sn_trace_payload(dg, L), pay, (size_t)n * 4) == 0);
    sn_free(run);
    sn_free(pairs);
    sn_free(fl);
    sn_free(in);
    sn_free(cur);
    sn_free(pay);
    sn_free(pin);
    sn_trace_destroy(tr);
    sn_trace_destroy(dg);
    sn_schedule_destroy(s);
}

static void check_big_bitonic(void)
{
    /* 2^22 keys: past SN_TRACE_FULL_MAX words of trace, so AUTO picks
     * DIGEST. Under the sanitizers (SN_SANITIZED) 2^18, still past it
     * ((171 + 1) layers * 2^18 words): 2^22 took 6 of the test's 16 s
     * of CPU there, and the whole counted suite counts the same lines and
     * branches at both sizes (docs/testing.md). */
    uint32_t n = getenv("SN_SANITIZED") ? 1u << 18 : 1u << 22;
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, n, &s, NULL) == SN_OK);
    uint32_t *k = sn_calloc(n, 4);
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        k[i] = rnd();
        sum += k[i];
    }
    sn_trace *tr = NULL;
    sn_exec_run(s, SN_KEY_I32, k, NULL);
    bool sorted = true;
    uint64_t after = 0;
    for (uint32_t i = 0; i < n; i++) {
        after += k[i];
        if (i > 0 && (int32_t)k[i - 1] > (int32_t)k[i])
            sorted = false;
    }
    CHECK(sorted && after == sum);
    /* AUTO picks DIGEST above SN_TRACE_FULL_MAX */
    CHECK(sn_trace_record(s, SN_KEY_I32, k, NULL, SN_TRACE_AUTO, &tr, NULL) == SN_OK);
    CHECK(tr && sn_trace_mode_of(tr) == SN_TRACE_DIGEST);
    CHECK(sn_trace_digest(tr, sn_trace_layer_count(tr)) == sn_digest(k, n));
    CHECK(sn_trace_swap_count(tr, 0) == 0);
    sn_trace_destroy(tr);
    sn_free(k);
    sn_schedule_destroy(s);
}

/* Threads never change a bit: sn_exec_run_threads with 2, 3 and 7 threads
 * (forced, below the automatic threshold) against one thread, keys and
 * payload, for closed forms with global layers (n > the 2^15 block) and an
 * explicit network; then the automatic path of sn_exec_layer at 2^20 + 3. */
static void check_threads_one(sn_schedule *s, sn_key_type t, bool with_pay)
{
    uint32_t n = sn_schedule_wires(s);
    uint32_t *in = sn_calloc(n, 4), *a = sn_calloc(n, 4), *b = sn_calloc(n, 4);
    uint32_t *pa = sn_calloc(n, 4), *pb = sn_calloc(n, 4);
    make_input(in, n, IN_RANDOM, t);
    for (uint32_t i = 0; i < n; i += 7)
        in[i] = in[i / 2]; /* duplicates: payload order matters */
    memcpy(a, in, (size_t)n * 4);
    for (uint32_t i = 0; i < n; i++)
        pa[i] = i;
    sn_exec_run_threads(s, t, a, with_pay ? pa : NULL, 1);
    unsigned counts[] = {2, 3, 7};
    for (size_t c = 0; c < 3; c++) {
        memcpy(b, in, (size_t)n * 4);
        for (uint32_t i = 0; i < n; i++)
            pb[i] = i;
        sn_exec_run_threads(s, t, b, with_pay ? pb : NULL, counts[c]);
        CHECKF(memcmp(a, b, (size_t)n * 4) == 0 && memcmp(pa, pb, (size_t)n * 4) == 0,
               "%s, %u threads, %s", sn_schedule_name(s), counts[c], sn_key_type_name(t));
    }
    sn_free(in);
    sn_free(a);
    sn_free(b);
    sn_free(pa);
    sn_free(pb);
}

/* Numbers pinned for every build: half the layers of bitonic on 2^20 + 5
 * keys, layer by layer on the automatic thread count: a team of several
 * where threads and CPUs exist, the caller alone in a SORTNET_THREADS=OFF
 * build (tools/setup.sh test runs this file there too). The digest and the
 * swaps must be these in both. */
#define PIN_DIGEST 0x1d98ddf367cd148cULL
#define PIN_SWAPS 30145904u
static void check_pinned(void)
{
    uint32_t n = (1u << 20) + 5;
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, n, &s, NULL) == SN_OK);
    uint32_t *a = sn_calloc(n, 4);
    if (!s || !a) {
        sn_free(a);
        sn_schedule_destroy(s);
        return;
    }
    uint64_t x = 42;
    for (uint32_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        a[i] = (uint32_t)(x >> 32);
    }
    size_t swaps = 0, half = sn_schedule_layer_count(s) / 2;
    for (size_t k = 0; k < half; k++)
        swaps += sn_exec_layer(s, k, SN_KEY_I32, a, NULL, NULL);
    uint64_t d = sn_digest(a, n);
    CHECKF(d == PIN_DIGEST && swaps == PIN_SWAPS, "digest 0x%016llx, %zu swaps",
           (unsigned long long)d, swaps);
    sn_free(a);
    sn_schedule_destroy(s);
}

static void check_threads(void)
{
    const sn_algo closed[] = {SN_ALGO_BITONIC, SN_ALGO_ODDEVEN_MERGE};
    const uint32_t ns[] = {2, 33, 4099, (1u << 16) + 3, 1u << 17};
    for (size_t a = 0; a < 2; a++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            sn_schedule *s = NULL;
            CHECK(sn_schedule_generate(closed[a], ns[i], &s, NULL) == SN_OK);
            check_threads_one(s, (sn_key_type)(i % 3), false);
            check_threads_one(s, SN_KEY_F32, true);
            sn_schedule_destroy(s);
        }
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_TRANSPOSITION, 301, &s, NULL) == SN_OK);
    check_threads_one(s, SN_KEY_U32, true);
    sn_schedule_destroy(s);
    s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_PAIRWISE, 1000, &s, NULL) == SN_OK);
    if (s) {
        sn_network *net = NULL;
        sn_schedule *e = NULL;
        CHECK(sn_schedule_to_network(s, &net, NULL) == SN_OK);
        CHECK(sn_schedule_from_network(net, &e) == SN_OK);
        check_threads_one(e, SN_KEY_I32, true);
        sn_schedule_destroy(e);
    }
    sn_schedule_destroy(s);
    if (getenv("SN_SANITIZED"))
        return; /* 2^20 keys x 210 layers: minutes under the sanitizers */
    uint32_t n = (1u << 20) + 3;
    s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, n, &s, NULL) == SN_OK);
    uint32_t *a = sn_calloc(n, 4), *b = sn_calloc(n, 4);
    for (uint32_t i = 0; i < n; i++)
        a[i] = b[i] = rnd();
    sn_exec_run_threads(s, SN_KEY_U32, a, NULL, 1);
    for (size_t k = 0; k < sn_schedule_layer_count(s); k++)
        sn_exec_layer(s, k, SN_KEY_U32, b, NULL, NULL);
    CHECKF(memcmp(a, b, (size_t)n * 4) == 0, "layers at %u wires, %u threads", n,
           sn_exec_threads_auto(n));
    sn_free(a);
    sn_free(b);
    sn_schedule_destroy(s);
}

/* The blocked and swept paths (global layers grouped into one pass) at
 * small n: with block sizes of 2^2..2^6 wires nearly every layer is
 * global, and sweeps cross the borders of the threads' shares. Each run
 * must equal the layer-by-layer one (sn_exec_layer runs one layer at a
 * time, never a sweep), keys and payload, on 1, 2, 3 and 7 threads. */
static void check_sweeps(void)
{
    const sn_algo algos[] = {SN_ALGO_ODDEVEN_MERGE, SN_ALGO_BITONIC, SN_ALGO_TRANSPOSITION};
    const uint32_t ns[] = {33, 1000, 4099, 5000, 1u << 13};
    const unsigned blocks[] = {2, 4, 6}, threads[] = {1, 2, 3, 7};
    for (size_t a = 0; a < 3; a++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            uint32_t n = ns[i];
            if (algos[a] == SN_ALGO_TRANSPOSITION && n > 1000)
                continue; /* n layers */
            sn_schedule *s = NULL;
            CHECK(sn_schedule_generate(algos[a], n, &s, NULL) == SN_OK);
            if (!s)
                continue;
            sn_key_type t = (sn_key_type)(i % 3);
            uint32_t *in = sn_calloc(n, 4), *want = sn_calloc(n, 4), *got = sn_calloc(n, 4);
            uint32_t *wpay = sn_calloc(n, 4), *gpay = sn_calloc(n, 4);
            make_input(in, n, i % 2 ? IN_FEW : IN_RANDOM, t);
            memcpy(want, in, (size_t)n * 4);
            for (uint32_t w = 0; w < n; w++)
                wpay[w] = w;
            for (size_t k = 0; k < sn_schedule_layer_count(s); k++)
                sn_exec_layer(s, k, t, want, wpay, NULL);
            for (size_t b = 0; b < 3; b++)
                for (size_t th = 0; th < 4; th++)
                    for (int pay = 0; pay < 2; pay++) {
                        memcpy(got, in, (size_t)n * 4);
                        for (uint32_t w = 0; w < n; w++)
                            gpay[w] = w;
                        sn_exec_opts o = {.threads = threads[th], .block_log = blocks[b]};
                        CHECK(sn_exec_run_opts(s, t, got, pay ? gpay : NULL, &o));
                        CHECKF(memcmp(got, want, (size_t)n * 4) == 0 &&
                                   (!pay || memcmp(gpay, wpay, (size_t)n * 4) == 0),
                               "%s, block 2^%u, %u threads, %s, payload %d", sn_schedule_name(s),
                               blocks[b], threads[th], sn_key_type_name(t), pay);
                    }
            sn_free(in);
            sn_free(want);
            sn_free(got);
            sn_free(wpay);
            sn_free(gpay);
            sn_schedule_destroy(s);
        }
    /* a set cancel flag stops the run (on one thread and on several) */
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, 4099, &s, NULL) == SN_OK);
    uint32_t *k = sn_calloc(4099, 4);
    sn_cancel stop;
    atomic_init(&stop, 1);
    for (unsigned th = 1; th <= 3; th += 2) {
        sn_exec_opts o = {.threads = th, .cancel = &stop};
        CHECK(!sn_exec_run_opts(s, SN_KEY_I32, k, NULL, &o));
    }
    atomic_store(&stop, 0);
    sn_exec_opts o = {.threads = 3, .cancel = &stop};
    CHECK(sn_exec_run_opts(s, SN_KEY_I32, k, NULL, &o));
    CHECK(sn_exec_run_opts(s, SN_KEY_I32, k, NULL, NULL));
    sn_free(k);
    sn_schedule_destroy(s);
}

int main(void)
{
    sn_key_type t;
    CHECK(sn_key_type_parse("f32", &t) && t == SN_KEY_F32 && !sn_key_type_parse("x", &t));
    CHECK(strcmp(sn_key_type_name(SN_KEY_U32), "u32") == 0);
    for (uint32_t b = 0; b < 1000; b++) {
        uint32_t x = rnd(), y = rnd();
        for (int tt = 0; tt < 3; tt++) {
            uint32_t ox = sn_key_to_ordered((sn_key_type)tt, x);
            CHECK(sn_key_from_ordered((sn_key_type)tt, ox) == x);
            CHECK((ox < sn_key_to_ordered((sn_key_type)tt, y)) == (cmps[tt](&x, &y) < 0));
        }
    }
    for (size_t g = 0; g < NGENS; g++) {
        uint32_t big[] = {1000, (1u << 16) + 3};
        for (uint32_t n = 1; n <= 70; n++) {
            sn_schedule *s = NULL;
            CHECK(sn_schedule_generate(gens[g], n, &s, NULL) == SN_OK);
            if (s)
                check_sorts(s);
            sn_schedule_destroy(s);
        }
        for (size_t b = 0; b < 2; b++) {
            sn_schedule *s = NULL;
            sn_status st = sn_schedule_generate(gens[g], big[b], &s, NULL);
            if (st == SN_ELIMIT && (gens[g] == SN_ALGO_BUBBLE || gens[g] == SN_ALGO_INSERTION))
                continue; /* n(n-1)/2 comparators are over the default limit */
            CHECK(st == SN_OK);
            if (s && gens[g] == SN_ALGO_TRANSPOSITION && big[b] > 1000) {
                /* n^2/2 comparators: one input only */
                check_one(s);
            } else if (s) {
                check_sorts(s);
            }
            sn_schedule_destroy(s);
        }
    }
    uint32_t pn[] = {5, 31, 64, 100, 4099, 40000, 70001};
    for (size_t i = 0; i < sizeof pn / sizeof pn[0]; i++) {
        check_paths(SN_ALGO_BITONIC, pn[i]);
        check_paths(SN_ALGO_ODDEVEN_MERGE, pn[i]);
    }
    check_paths(SN_ALGO_BITONIC, 1u << 17);
    check_paths(SN_ALGO_ODDEVEN_MERGE, 1u << 17);
    for (size_t g = 0; g < NGENS; g++)
        for (uint32_t n = 1; n <= 40; n += 13)
            for (int tt = 0; tt < 3; tt++) {
                check_trace(gens[g], n, (sn_key_type)tt, false);
                check_trace(gens[g], n, (sn_key_type)tt, true);
            }
    check_trace(SN_ALGO_BITONIC, 1000, SN_KEY_F32, true);
    check_big_bitonic();
    check_threads();
    if (!getenv("SN_SANITIZED"))
        check_pinned();
    check_sweeps();
    return sn_test_finish("test_exec");
}
