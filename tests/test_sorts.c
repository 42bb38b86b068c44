/* test_sorts.c - the GPU sorts (src/gpu/sorts.c, kernels/sorts.cl) on the
 * default OpenCL device (pocl in CI) against the stable reference: every
 * algorithm x key type x payload x n in 0..33, 1000, 5003 and 2^16+3 (the
 * O(n^2) ones at the larger sizes on inputs where they are quick), on random keys with and
 * without duplicates (f32: NaNs, -0.0 and infinities among them), sorted,
 * reversed and all-equal inputs; the reference itself against qsort; and a
 * build with a bug planted in every kernel (SN_SORT_BUG=all), where every
 * algorithm's checks must fail. Two builds of kernels/sorts.cl in all.
 * Skips (77) when there is no OpenCL platform. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h"
#include "gpu/sorts.h"
#include "gpu_skip.h"
#include "sn_test.h"

enum { IN_BITS, IN_DUPS, IN_SORTED, IN_REVERSED, IN_EQUAL, IN_NEARLY, IN_KINDS };
static const char *const kind_names[IN_KINDS] = {"random bits", "duplicates", "sorted",
                                                 "reversed",    "all equal",  "nearly sorted"};

/* Keys of type t that sort as v does (v small). */
static uint32_t key_of(sn_key_type t, uint32_t v)
{
    static const uint32_t specials[8] = {0xFF800000u, 0xBF800000u, 0x80000000u, 0x00000000u,
                                         0x3F800000u, 0x7F800000u, 0x7FC00000u, 0xFFC00000u};
    if (t == SN_KEY_F32)
        return specials[v % 8];
    if (t == SN_KEY_I32)
        return (uint32_t)((int32_t)v - 4);
    return v;
}

static void make(sn_key_type t, int kind, size_t n, uint64_t seed, uint32_t *k)
{
    uint64_t st = seed;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = (uint32_t)sn_rand_next(&st);
        switch (kind) {
        case IN_BITS: k[i] = r; break;
        case IN_DUPS: k[i] = key_of(t, r % 8); break;
        case IN_EQUAL: k[i] = key_of(t, 5); break;
        default: k[i] = sn_key_from_ordered(t, (uint32_t)(i * 7u + 1u)); break;
        }
    }
    if (kind == IN_REVERSED)
        for (size_t i = 0; i < n / 2; i++) {
            uint32_t x = k[i];
            k[i] = k[n - 1 - i];
            k[n - 1 - i] = x;
        }
    if (kind == IN_NEARLY) /* 1% of the keys swapped with a neighbour up to 8 away */
        for (size_t c = 0; n > 8 && c < n / 100 + 1; c++) {
            size_t i = (size_t)(sn_rand_next(&st) % (n - 8)), j = i + 1 + sn_rand_next(&st) % 8;
            uint32_t x = k[i];
            k[i] = k[j];
            k[j] = x;
        }
}

typedef struct ctx {
    sn_gpu_sorter *so;
    uint32_t *in, *keys, *pay, *rk, *rp;
    int failures;           /* of this context's runs (the planted-bug build counts them) */
    uint64_t last_launches; /* the last sort's */
    bool quiet;
} ctx;

/* Sort one input on the device and compare with the reference. */
static void one(ctx *c, sn_sort_algo a, unsigned bits, sn_key_type t, bool payload, int kind,
                size_t n, uint64_t seed)
{
    make(t, kind, n, seed, c->in);
    memcpy(c->keys, c->in, n * 4);
    for (size_t i = 0; i < n; i++)
        c->pay[i] = (uint32_t)i;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_sort_reference(t, c->in, c->pay, n, c->rk, c->rp, &d) == SN_OK);
    sn_gpu_sort_opts o = {a, t, bits, false};
    sn_gpu_sort_stats s;
    sn_status st = sn_gpu_sort(c->so, &o, c->keys, payload ? c->pay : NULL, n, &s, &d);
    c->last_launches = st == SN_OK ? s.launches : 0;
    sn_sort_mismatch m = {false, 0, false, 0, 0};
    if (st == SN_OK)
        m = sn_sort_compare(c->rk, payload ? c->rp : NULL, c->keys, payload ? c->pay : NULL, n);
    if (st != SN_OK || !m.identical) {
        c->failures++;
        if (!c->quiet)
            fprintf(stderr, "%s%s %s n=%zu %s%s: %s at %s%zu: expected %08x, actual %08x\n",
                    sn_sort_algo_name(a), bits == 4 ? "(4-bit)" : "", sn_key_type_name(t), n,
                    kind_names[kind], payload ? " +payload" : "", st != SN_OK ? d.text : "differs",
                    m.in_payload ? "payload " : "", m.index, m.expected, m.actual);
    }
    if (st == SN_OK && (a == SN_SORT_TRANSPOSITION || a == SN_SORT_TRANSPOSITION_LOCAL) &&
        !c->quiet) {
        /* early exit: a sorted input takes one round (which moves nothing) */
        if (kind == IN_SORTED || kind == IN_EQUAL)
            CHECKF(s.rounds == (n > 1 ? 1u : (uint64_t)s.rounds), "%s n=%zu: %llu rounds",
                   sn_sort_algo_name(a), n, (unsigned long long)s.rounds);
        if (a == SN_SORT_TRANSPOSITION && kind == IN_REVERSED && n > 2)
            CHECKF(s.rounds >= n / 2 && s.rounds <= n / 2 + 2, "reversed n=%zu: %llu rounds", n,
                   (unsigned long long)s.rounds);
    }
}

static bool quadratic_slow(sn_sort_algo a, int kind, size_t n)
{
    if (a == SN_SORT_TRANSPOSITION && n >= 4000)
        return kind != IN_SORTED && kind != IN_EQUAL && kind != IN_NEARLY;
    return n >= 20000 && sn_sort_algo_quadratic(a);
}

/* Every algorithm over every type, payload, n and input kind. */
static void sweep(ctx *c, const size_t *sizes, size_t nsizes, bool all_kinds_small)
{
    for (int ai = 0; ai < SN_SORT_COUNT + 1; ai++) {
        sn_sort_algo a = ai == SN_SORT_COUNT ? SN_SORT_RADIX : (sn_sort_algo)ai;
        unsigned bits = ai == SN_SORT_COUNT ? 4 : 0;
        int before = c->failures;
        for (int t = 0; t < 3; t++)
            for (int hp = 0; hp < 2; hp++)
                for (size_t si = 0; si < nsizes; si++) {
                    size_t n = sizes[si];
                    bool big = n >= 1000 || n == 1 || n == 2 || n == 17 || n == 33;
                    for (int kind = 0; kind < IN_KINDS; kind++) {
                        if (kind > IN_DUPS && !big && !all_kinds_small)
                            continue;
                        if (n > 20000 && (!hp || kind == IN_SORTED))
                            continue; /* 2^16+3: with payload, all but sorted (nearly sorted is) */
                        if (quadratic_slow(a, kind, n) &&
                            !(t == 1 && hp == 1 && kind == 1 && a != SN_SORT_TRANSPOSITION))
                            continue; /* O(n^2) at 2^16+3: one case (rank) or quick inputs */
                        one(c, a, bits, (sn_key_type)t, hp, kind, n, 1000u * n + (uint64_t)kind);
                    }
                }
        printf("  %s%s: %d failing runs\n", sn_sort_algo_name(a),
               bits == 4 ? " (4-bit digits)" : "", c->failures - before);
    }
}

/* The reference is an oracle too: against qsort by (ordered key, index). */
static sn_key_type cmp_type;
static const uint32_t *cmp_keys;
static int cmp_index(const void *x, const void *y)
{
    uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
    uint32_t a = sn_key_to_ordered(cmp_type, cmp_keys[i]),
             b = sn_key_to_ordered(cmp_type, cmp_keys[j]);
    if (a != b)
        return a < b ? -1 : 1;
    return i < j ? -1 : i > j;
}

static void test_reference(ctx *c)
{
    for (int t = 0; t < 3; t++)
        for (int kind = 0; kind < IN_KINDS; kind++)
            for (size_t n = 0; n < 3000; n = n * 3 + 1) {
                make((sn_key_type)t, kind, n, 77u + n, c->in);
                for (size_t i = 0; i < n; i++)
                    c->pay[i] = (uint32_t)i;
                sn_diag d;
                CHECK(sn_sort_reference((sn_key_type)t, c->in, c->pay, n, c->rk, c->rp, &d) ==
                      SN_OK);
                cmp_type = (sn_key_type)t;
                cmp_keys = c->in;
                qsort(c->pay, n, 4, cmp_index);
                bool ok = true;
                for (size_t i = 0; i < n; i++)
                    ok = ok && c->rp[i] == c->pay[i] && c->rk[i] == c->in[c->pay[i]];
                CHECKF(ok, "reference %s %s n=%zu", sn_key_type_name((sn_key_type)t),
                       kind_names[kind], n);
            }
}

/* The ordered forms: sn_sort_reference_ordered (also sorting the payload in
 * place) and a sorter set to sn_gpu_sorter_set_ordered_out give the
 * reference's keys in the ordered form, payload identical. */
static void test_ordered_out(ctx *c, sn_gpu *g)
{
    sn_gpu_sorter *so = NULL;
    sn_diag d;
    CHECKF(sn_gpu_sorter_create(g, &so, &d) == SN_OK, "sorter: %s", d.text);
    sn_gpu_sorter_set_ordered_out(so, true);
    for (int t = 0; t < 3; t++) {
        size_t n = 5003;
        make((sn_key_type)t, IN_DUPS, n, 31u + (uint64_t)t, c->in);
        for (size_t i = 0; i < n; i++)
            c->pay[i] = (uint32_t)i;
        CHECK(sn_sort_reference((sn_key_type)t, c->in, c->pay, n, c->rk, c->rp, &d) == SN_OK);
        for (size_t i = 0; i < n; i++)
            c->rk[i] = sn_key_to_ordered((sn_key_type)t, c->rk[i]);
        /* the reference, ordered, the payload sorted in place */
        CHECK(sn_sort_reference_ordered((sn_key_type)t, c->in, c->pay, n, c->keys, c->pay, &d) ==
              SN_OK);
        CHECKF(sn_sort_compare(c->rk, c->rp, c->keys, c->pay, n).identical,
               "sn_sort_reference_ordered %s", sn_key_type_name((sn_key_type)t));
        /* the device, ordered */
        memcpy(c->keys, c->in, n * 4);
        for (size_t i = 0; i < n; i++)
            c->pay[i] = (uint32_t)i;
        sn_gpu_sort_opts o = {SN_SORT_RADIX, (sn_key_type)t, 0, false};
        CHECK(so && sn_gpu_sort(so, &o, c->keys, c->pay, n, NULL, &d) == SN_OK);
        CHECKF(sn_sort_compare(c->rk, c->rp, c->keys, c->pay, n).identical,
               "radix sort with ordered_out, %s", sn_key_type_name((sn_key_type)t));
    }
    sn_gpu_sorter_destroy(so);
}

/* The radix sort as onesweep (kernels/onesweep.cl), which pocl does not
 * choose on its own: 8- and 4-bit digits, every type, with and without
 * payload, in one tile and across tiles (2^11 keys a tile on pocl: the
 * look-back passes over several), every input kind at 5003; and the
 * launches prove that it ran (a histogram pass, a scatter a digit, and
 * the key maps of i32 and f32). */
static void test_onesweep(ctx *c, sn_gpu *g)
{
    sn_gpu_tuning keep = *sn_gpu_tuning_get(g), t = keep;
    t.radix_onesweep = SN_GPU_ONESWEEP_ON;
    sn_gpu_set_tuning(g, &t);
    static const size_t sizes[] = {0, 1, 2, 17, 2047, 2048, 2049, 5003, 65539};
    int before = c->failures;
    for (unsigned bits = 4; bits <= 8; bits += 4)
        for (int ty = 0; ty < 3; ty++)
            for (int hp = 0; hp < 2; hp++)
                for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
                    for (int kind = 0; kind < IN_KINDS; kind++) {
                        size_t n = sizes[si];
                        if ((kind > IN_DUPS && n != 5003) ||
                            (n > 5003 && (bits == 4 || !hp || kind != IN_DUPS)))
                            continue;
                        one(c, SN_SORT_RADIX, bits, (sn_key_type)ty, hp, kind, n,
                            500u * n + (uint64_t)kind);
                        uint64_t want = n ? 1 + 32 / bits + (ty == SN_KEY_U32 ? 0 : 2) : 0;
                        CHECKF(c->last_launches == want,
                               "onesweep %s n=%zu: %llu launches, not %llu",
                               sn_key_type_name((sn_key_type)ty), n,
                               (unsigned long long)c->last_launches, (unsigned long long)want);
                    }
    printf("  radix as onesweep: %d failing runs\n", c->failures - before);
    sn_gpu_set_tuning(g, &keep);
}

int main(void)
{
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu *g = sn_test_gpu_open(getenv("SN_TEST_DEVICE"));
    printf("device: %s\n", sn_gpu_device_name(g));
    size_t cap = ((size_t)1 << 16) + 3;
    ctx c = {0};
    c.in = sn_malloc(cap * 4);
    c.keys = sn_malloc(cap * 4);
    c.pay = sn_malloc(cap * 4);
    c.rk = sn_malloc(cap * 4);
    c.rp = sn_malloc(cap * 4);
    if (!c.in || !c.keys || !c.pay || !c.rk || !c.rp)
        return 1;
    test_reference(&c);
    test_ordered_out(&c, g);

    size_t sizes[40], nsizes = 0;
    for (size_t n = 0; n <= 33; n++)
        sizes[nsizes++] = n;
    sizes[nsizes++] = 1000;
    sizes[nsizes++] = 5003; /* a few merge-path passes, a partial last pair */
    /* sanitizer builds are slow: the largest size once, for radix and merge */
    bool sanitized = getenv("SN_SANITIZED") != NULL;
    if (!sanitized)
        sizes[nsizes++] = cap;

    unsetenv("SN_SORT_BUG");
    sn_status st = sn_gpu_sorter_create(g, &c.so, &d);
    CHECKF(st == SN_OK, "sorter: %s", d.text);
    if (st == SN_OK) {
        printf("every algorithm, type, payload, n in 0..33, 1000, 5003%s:\n",
               sanitized ? "" : ", 2^16+3");
        sweep(&c, sizes, nsizes, false);
        test_onesweep(&c, g);
        CHECKF(c.failures == 0, "%d failing runs", c.failures);
        /* the full rounds of the network give the same array */
        make(SN_KEY_I32, IN_DUPS, 1000, 5, c.in);
        memcpy(c.keys, c.in, 4000);
        for (size_t i = 0; i < 1000; i++)
            c.pay[i] = (uint32_t)i;
        sn_sort_reference(SN_KEY_I32, c.in, c.pay, 1000, c.rk, c.rp, &d);
        sn_gpu_sort_opts o = {SN_SORT_TRANSPOSITION, SN_KEY_I32, 0, true};
        sn_gpu_sort_stats s;
        CHECK(sn_gpu_sort(c.so, &o, c.keys, c.pay, 1000, &s, &d) == SN_OK);
        CHECK(sn_sort_compare(c.rk, c.rp, c.keys, c.pay, 1000).identical);
        CHECKF(s.rounds == 500, "full rounds: %llu", (unsigned long long)s.rounds);
        o.radix_bits = 5;
        o.algo = SN_SORT_RADIX;
        CHECK(sn_gpu_sort(c.so, &o, c.keys, NULL, 10, &s, &d) == SN_EINVAL);
        sn_gpu_sorter_destroy(c.so);
    }

    /* a bug planted in every kernel: every algorithm must fail somewhere */
    setenv("SN_SORT_BUG", "all", 1);
    st = sn_gpu_sorter_create(g, &c.so, &d);
    unsetenv("SN_SORT_BUG");
    CHECKF(st == SN_OK, "sorter with planted bugs: %s", d.text);
    if (st == SN_OK) {
        c.quiet = true;
        printf("planted bugs (each algorithm must fail):\n");
        for (int ai = 0; ai < SN_SORT_COUNT + 1; ai++) {
            sn_sort_algo a = ai == SN_SORT_COUNT ? SN_SORT_RADIX : (sn_sort_algo)ai;
            unsigned bits = ai == SN_SORT_COUNT ? 4 : 0;
            c.failures = 0;
            for (int t = 0; t < 3; t++)
                for (int kind = 0; kind < IN_KINDS; kind++)
                    one(&c, a, bits, (sn_key_type)t, true, kind, 1000, 9u + (uint64_t)kind);
            printf("  %s%s: %d of %d runs fail\n", sn_sort_algo_name(a),
                   bits == 4 ? " (4-bit)" : "", c.failures, 3 * IN_KINDS);
            CHECKF(c.failures > 0, "the bug planted in %s went unnoticed", sn_sort_algo_name(a));
        }
        /* and in the onesweep radix (its ranking and its look-back) */
        sn_gpu_tuning keep = *sn_gpu_tuning_get(g), t = keep;
        t.radix_onesweep = SN_GPU_ONESWEEP_ON;
        sn_gpu_set_tuning(g, &t);
        c.failures = 0;
        for (int ty = 0; ty < 3; ty++)
            one(&c, SN_SORT_RADIX, 0, (sn_key_type)ty, true, IN_BITS, 5003, 9u + (uint64_t)ty);
        printf("  radix as onesweep: %d of 3 runs fail\n", c.failures);
        CHECKF(c.failures > 0, "the bug planted in the onesweep radix went unnoticed");
        sn_gpu_set_tuning(g, &keep);
        sn_gpu_sorter_destroy(c.so);
    }
    sn_free(c.in);
    sn_free(c.keys);
    sn_free(c.pay);
    sn_free(c.rk);
    sn_free(c.rp);
    sn_gpu_close(g);
    return sn_test_finish("test_sorts");
}
