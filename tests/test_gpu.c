/* test_gpu.c - the OpenCL executor against the CPU reference: every
 * generator at many sizes, key types and with/without payload must be
 * bit-identical; every kernel variant too; every library network; injected
 * faults must be found at exactly their layer; user kernels that do not
 * build or are wrong must be reported. Skips (77) only when no OpenCL
 * platform exists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/check.h"
#include "core/exec.h"
#include "core/format.h"
#include "core/input.h"
#include "core/schedule.h"
#include "gpu/check_loop.h"
#include "gpu/gpu.h"
#include "gpu_skip.h"
#include "sn_test.h"

static sn_gpu *g;

/* Keys with many duplicates and, for f32, the values totalOrder fixes
 * (-0.0 before +0.0, NaNs at the ends), so "swap only if strictly greater"
 * and the payload's determinism are exercised. */
static void dup_heavy(sn_key_type t, uint32_t n, uint64_t seed, uint32_t *keys)
{
    static const uint32_t f32[] = {0x80000000u, 0x00000000u, 0x3fc00000u, 0xff800000u,
                                   0x7fc00000u, 0xffc00000u, 0xbf800000u, 0x3fc00000u};
    static const uint32_t u32[] = {0, 1, 2, 0xffffffffu, 0x80000000u, 7};
    static const uint32_t i32[] = {0xfffffffdu, 0xffffffffu, 0, 1, 3, 0x80000000u, 0x7fffffffu};
    for (uint32_t i = 0; i < n; i++) {
        uint64_t r = sn_rand_next(&seed);
        switch (t) {
        case SN_KEY_F32: keys[i] = f32[r % 8]; break;
        case SN_KEY_U32: keys[i] = u32[r % 6]; break;
        default: keys[i] = i32[r % 7]; break;
        }
    }
}

static uint32_t *make_input(sn_key_type t, uint32_t n, uint64_t seed, bool dups)
{
    uint32_t *keys = sn_malloc((size_t)n * 4 + 4);
    if (!keys)
        return NULL;
    if (dups) {
        dup_heavy(t, n, seed, keys);
    } else {
        sn_input_spec spec = {SN_INPUT_RANDOM, seed, NULL};
        sn_diag d;
        if (sn_input_make(&spec, t, n, keys, &d) != SN_OK) {
            sn_free(keys);
            return NULL;
        }
    }
    return keys;
}

/* Verify and expect identical; returns false on a failed check. */
static bool expect_identical(const sn_schedule *s, sn_key_type t, const uint32_t *keys,
                             bool payload, const sn_gpu_verify_opts *o, const char *what)
{
    sn_gpu_report rep;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_gpu_verify(g, s, t, keys, payload, o, &rep, &d);
    CHECKF(st == SN_OK, "%s: %s", what, d.text);
    if (st != SN_OK)
        return false;
    CHECKF(rep.identical, "%s: differs at layer %zu index %u (expected %08x, actual %08x%s)", what,
           rep.layer, rep.index, rep.expected, rep.actual, rep.in_payload ? ", payload" : "");
    return rep.identical;
}

static void test_generators(void)
{
    static const uint32_t extra[] = {100, 1000, 65539};
    /* The generators up to bitonic-classic; the constructions after it
     * (core/construct.c) are explicit lists run like pairwise's, and
     * cli_gpu.sh verifies some of them. */
    for (int a = SN_ALGO_BITONIC; a <= SN_ALGO_BITONIC_CLASSIC; a++) {
        for (uint32_t idx = 0; idx < 33 + 3; idx++) {
            uint32_t n = idx < 33 ? idx + 1 : extra[idx - 33];
            sn_schedule *s = NULL;
            sn_diag d;
            sn_status st = sn_schedule_generate((sn_algo)a, n, &s, &d);
            if (st == SN_ELIMIT) {
                /* Explicit generators refuse more comparators than the
                 * network limits allow: nothing to run. */
                CHECKF(!sn_algo_is_closed_form((sn_algo)a), "%s:%u refused: %s",
                       sn_algo_name((sn_algo)a), n, d.text);
                continue;
            }
            CHECKF(st == SN_OK, "%s:%u: %s", sn_algo_name((sn_algo)a), n, d.text);
            if (st != SN_OK)
                continue;
            /* transposition:65539 has 65539 layers: its reference alone
             * costs n^2 steps and pocl ~1 ms per launch (about 2.5 minutes
             * in all), too slow for CI; it is run on the GPU by hand. */
            if ((uint64_t)sn_schedule_layer_count(s) * n > ((uint64_t)1 << 30)) {
                printf("note: %s:%u not run here (%zu layers; too slow on pocl)\n",
                       sn_algo_name((sn_algo)a), n, sn_schedule_layer_count(s));
                sn_schedule_destroy(s);
                continue;
            }
            for (int t = 0; t < 3; t++) {
                for (int pay = 0; pay < 2; pay++) {
                    uint32_t *keys = make_input((sn_key_type)t, n, 1000u * n + (uint64_t)t,
                                                ((uint32_t)(t + pay) + n) % 2 == 1);
                    CHECK(keys != NULL);
                    char what[96];
                    snprintf(what, sizeof what, "%s:%u %s payload=%d", sn_algo_name((sn_algo)a), n,
                             sn_key_type_name((sn_key_type)t), pay);
                    if (keys)
                        expect_identical(s, (sn_key_type)t, keys, pay, NULL, what);
                    sn_free(keys);
                }
            }
            sn_schedule_destroy(s);
        }
    }
}

/* Every kernel style must agree with the reference, per layer. */
static void test_variants(void)
{
    static const uint32_t sizes[] = {1, 2, 3, 5, 8, 13, 16, 17, 31, 32, 33, 100, 257, 1000};
    for (int a = SN_ALGO_BITONIC; a <= SN_ALGO_TRANSPOSITION; a++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            uint32_t n = sizes[si];
            sn_schedule *s = NULL;
            sn_diag d;
            CHECK(sn_schedule_generate((sn_algo)a, n, &s, &d) == SN_OK);
            if (!s)
                continue;
            /* the per-layer variants (the fused ones: test_fused) */
            for (int v = SN_GPU_VARIANT_PAIRS; v <= SN_GPU_VARIANT_SHIFT; v++) {
                if (v == SN_GPU_VARIANT_XOR && a != SN_ALGO_BITONIC) {
                    sn_gpu_verify_opts o = {(sn_gpu_variant)v, false, false, 0, 0, NULL};
                    sn_gpu_report rep;
                    uint32_t k1[1] = {0};
                    CHECK(n == 1 ||
                          sn_gpu_verify(g, s, SN_KEY_I32, k1, false, &o, &rep, &d) == SN_EINVAL);
                    continue;
                }
                for (int per_layer = 0; per_layer < 2; per_layer++) {
                    sn_gpu_verify_opts o = {(sn_gpu_variant)v, per_layer, false, 0, 0, NULL};
                    sn_key_type t = (sn_key_type)(((uint32_t)v + n) % 3);
                    uint32_t *keys = make_input(t, n, n * 7u + (uint32_t)v, v % 2 == 0);
                    char what[96];
                    snprintf(what, sizeof what, "%s:%u variant %s per-layer %d",
                             sn_algo_name((sn_algo)a), n, sn_gpu_variant_name((sn_gpu_variant)v),
                             per_layer);
                    if (keys)
                        expect_identical(s, t, keys, true, &o, what);
                    sn_free(keys);
                }
            }
            sn_schedule_destroy(s);
        }
    }
}

/* sn_gpu_run must sort (oracle: the reference executor's output). */
static void test_run(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, 5000, &s, &d) == SN_OK);
    if (!s)
        return;
    uint32_t *a = make_input(SN_KEY_F32, 5000, 5, true);
    uint32_t *b = make_input(SN_KEY_F32, 5000, 5, true);
    if (a && b) {
        CHECK(sn_gpu_run(g, s, SN_GPU_VARIANT_DIV, SN_KEY_F32, a, NULL, &d) == SN_OK);
        sn_exec_run(s, SN_KEY_F32, b, NULL);
        CHECK(memcmp(a, b, 5000 * 4) == 0);
        for (uint32_t i = 1; i < 5000; i++)
            CHECK(sn_key_to_ordered(SN_KEY_F32, b[i - 1]) <= sn_key_to_ordered(SN_KEY_F32, b[i]));
    }
    sn_free(a);
    sn_free(b);
    sn_schedule_destroy(s);
}

/* Faults injected after layer L must be reported at exactly layer L, by
 * every method (snapshots, digests, lockstep). */
static void test_faults(void)
{
    static const struct {
        const char *net;
        uint32_t n;
        sn_algo algo;
    } cases[] = {
        {"bitonic small (snapshots)", 64, SN_ALGO_BITONIC},
        {"oddeven large (digests)", 1u << 18, SN_ALGO_ODDEVEN_MERGE},
        {"pairwise (pairs)", 200, SN_ALGO_PAIRWISE},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sn_schedule *s = NULL;
        sn_diag d;
        CHECK(sn_schedule_generate(cases[c].algo, cases[c].n, &s, &d) == SN_OK);
        if (!s)
            continue;
        size_t L = sn_schedule_layer_count(s);
        uint32_t n = cases[c].n;
        uint32_t *keys = make_input(SN_KEY_I32, n, 99, false);
        size_t layers[3] = {0, L / 2, L - 1};
        uint32_t idx[3] = {0, n / 3, n - 1};
        for (int j = 0; j < 3 && keys; j++) {
            for (int per_layer = 0; per_layer < 2; per_layer++) {
                if (per_layer && n > 4096)
                    continue; /* lockstep at 2^20 reads back every layer: slow on pocl */
                sn_gpu_verify_opts o = {SN_GPU_VARIANT_AUTO, per_layer, true,
                                        layers[j],           idx[j],    NULL};
                sn_gpu_report rep;
                sn_status st = sn_gpu_verify(g, s, SN_KEY_I32, keys, j == 1, &o, &rep, &d);
                CHECKF(st == SN_OK, "%s: %s", cases[c].net, d.text);
                CHECKF(!rep.identical && rep.layer == layers[j] && rep.index == idx[j] &&
                           !rep.in_payload && (rep.expected ^ rep.actual) == 1u,
                       "%s fault at %zu:%u per-layer %d: identical=%d layer %zu index %u",
                       cases[c].net, layers[j], idx[j], per_layer, rep.identical, rep.layer,
                       rep.index);
                if (j == 1 && !per_layer)
                    CHECK(rep.method == (n > 4096 ? SN_GPU_CHECK_DIGESTS : SN_GPU_CHECK_STATES));
            }
        }
        /* No fault: identical by the same method (at 2^18 and, below, 2^20
         * where the reference's digests are summed by several threads). */
        sn_gpu_verify_opts none = {SN_GPU_VARIANT_AUTO, false, false, 0, 0, NULL};
        if (keys)
            expect_identical(s, SN_KEY_I32, keys, true, &none, cases[c].net);
        /* Out of range faults are refused. */
        sn_gpu_verify_opts bad = {SN_GPU_VARIANT_AUTO, false, true, L, 0, NULL};
        sn_gpu_report rep;
        CHECK(sn_gpu_verify(g, s, SN_KEY_I32, keys, false, &bad, &rep, &d) == SN_EINVAL);
        sn_free(keys);
        sn_schedule_destroy(s);
    }
}

/* Digest mode at 2^20 (threaded reference digests) with f32 duplicates.
 * Under the sanitizers (SN_SANITIZED) at 2^17 + 1: the reference's layers
 * and digests at 2^20 took 90 s of CPU there, the longest section of the
 * pass, and counted nothing that the smaller size and the rest of that
 * suite do not (the same lines and branches in every layer of
 * docs/testing.md's table; the threaded digests are counted by
 * cli_threads_fail's verify at 2^20 wires). The plain build keeps 2^20. */
static void test_large(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    uint32_t n = (getenv("SN_SANITIZED") ? 1u << 17 : 1u << 20) + 1;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, n, &s, &d) == SN_OK);
    uint32_t *keys = make_input(SN_KEY_F32, n, 11, true);
    char what[64];
    snprintf(what, sizeof what, "bitonic:%u f32", n);
    if (s && keys)
        expect_identical(s, SN_KEY_F32, keys, true, NULL, what);
    sn_free(keys);
    sn_schedule_destroy(s);
}

/* ---- user kernels */

static const char good_kernel[] =
    "__kernel void sn_layer(__global uint *keys, __global uint *payload,\n"
    "                       __global const uint2 *pairs, uint count, uint n,\n"
    "                       uint algo, uint p, uint q)\n"
    "{\n"
    "    uint t = get_global_id(0);\n"
    "    if (t >= count) return;\n"
    "    uint a = pairs[t].x, b = pairs[t].y;\n"
    "    uint x = keys[a], y = keys[b];\n"
    "    if (x > y) {\n"
    "        keys[a] = y; keys[b] = x;\n"
    "        uint pa = payload[a]; payload[a] = payload[b]; payload[b] = pa;\n"
    "    }\n"
    "}\n";

/* Wrong only on the layers whose block size p is 8: it does nothing there. */
static const char wrong_kernel[] =
    "__kernel void sn_layer(__global uint *keys, __global uint *payload,\n"
    "                       __global const uint2 *pairs, uint count, uint n,\n"
    "                       uint algo, uint p, uint q)\n"
    "{\n"
    "    uint t = get_global_id(0);\n"
    "    if (t >= count || p == 8) return;\n"
    "    uint a = pairs[t].x, b = pairs[t].y;\n"
    "    uint x = keys[a], y = keys[b];\n"
    "    if (x > y) { keys[a] = y; keys[b] = x; }\n"
    "}\n";

static const char broken_kernel[] =
    "__kernel void sn_layer(__global uint *keys) { keys[0] = undefined_name; }\n";

static void test_user_kernels(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 32, &s, &d) == SN_OK);
    if (!s)
        return;
    size_t L = sn_schedule_layer_count(s);
    for (int t = 0; t < 3; t++) {
        uint32_t *keys = make_input((sn_key_type)t, 32, 7, t == 2);
        sn_gpu_verify_opts o = {SN_GPU_VARIANT_AUTO, false, false, 0, 0, good_kernel};
        if (keys)
            expect_identical(s, (sn_key_type)t, keys, true, &o, "good user kernel");
        sn_free(keys);
    }
    /* The wrong kernel: the oracle is the reference itself - the first
     * layer with p == 8 on which the reference swaps anything. */
    uint32_t *keys = make_input(SN_KEY_I32, 32, 3, false);
    uint32_t *ref = make_input(SN_KEY_I32, 32, 3, false);
    size_t first_wrong = L;
    for (size_t k = 0; keys && ref && k < L; k++) {
        size_t swaps = sn_exec_layer(s, k, SN_KEY_I32, ref, NULL, NULL);
        if (swaps && sn_schedule_layer_form(s, k).p == 8 && first_wrong == L)
            first_wrong = k;
    }
    CHECK(first_wrong < L);
    sn_gpu_verify_opts o = {SN_GPU_VARIANT_AUTO, false, false, 0, 0, wrong_kernel};
    sn_gpu_report rep;
    if (keys) {
        CHECK(sn_gpu_verify(g, s, SN_KEY_I32, keys, false, &o, &rep, &d) == SN_OK);
        CHECKF(!rep.identical && rep.layer == first_wrong, "wrong kernel: layer %zu, want %zu",
               rep.layer, first_wrong);
    }
    /* An injected fault is caught with a user kernel too. */
    sn_gpu_verify_opts inj = {SN_GPU_VARIANT_AUTO, false, true, 4, 9, good_kernel};
    if (keys) {
        CHECK(sn_gpu_verify(g, s, SN_KEY_I32, keys, false, &inj, &rep, &d) == SN_OK);
        CHECK(!rep.identical && rep.layer == 4 && rep.index == 9);
    }
    /* A kernel that does not build: SN_EBUILD and the compiler's log. */
    sn_gpu_verify_opts br = {SN_GPU_VARIANT_AUTO, false, false, 0, 0, broken_kernel};
    sn_diag_clear(&d);
    if (keys) {
        CHECK(sn_gpu_verify(g, s, SN_KEY_I32, keys, false, &br, &rep, &d) == SN_EBUILD);
        CHECKF(strstr(d.text, "clBuildProgram") != NULL, "%s", d.text);
        CHECKF(strstr(sn_gpu_build_log(g), "undefined_name") != NULL, "log: %s",
               sn_gpu_build_log(g));
    }
    sn_free(keys);
    sn_free(ref);
    sn_schedule_destroy(s);
    /* Build logs name the user's file: pocl's temporary copy and NVIDIA's
     * "<kernel>" become it where a line number follows; other names stay. */
    char *r = sn_gpu_log_rename("error: /root/.cache/pocl/kcache/tempfile_2o28Nl.cl:1:147: bad\n"
                                "<kernel>:5:3: error: x\n"
                                "note: tempfile_x.cl and /a/b.cl:3:1 stay (tempfile_y.cl:2)\n",
                                "mine.cl");
    CHECKF(r && strcmp(r, "error: mine.cl:1:147: bad\n"
                          "mine.cl:5:3: error: x\n"
                          "note: tempfile_x.cl and /a/b.cl:3:1 stay (mine.cl:2)\n") == 0,
           "renamed log: %s", r ? r : "(null)");
    sn_free(r);
}

static void verify_library(const char *path, const char *name, void *ctx)
{
    int *seen = ctx;
    (void)name;
    sn_schedule *s = NULL;
    sn_diag d;
    sn_status st = sn_schedule_load(path, &s, &d);
    CHECKF(st == SN_OK, "%s: %s", path, d.text);
    if (st != SN_OK)
        return;
    (*seen)++;
    uint32_t n = sn_schedule_wires(s);
    for (int t = 0; t < 3; t++) {
        uint32_t *keys = make_input((sn_key_type)t, n, (uint64_t)*seen, t == 2);
        if (keys)
            expect_identical(s, (sn_key_type)t, keys, t != 1, NULL, path);
        sn_free(keys);
    }
    sn_schedule_destroy(s);
}

/* Every network of the shipped library: identical. */
static void test_library_networks(void)
{
    int seen = 0;
    int visited = sn_test_each_library(verify_library, &seen);
    CHECKF(seen >= 120 && seen == visited, "%d of the library's %d networks verified", seen,
           visited);
}

/* The fused variants (several layers per launch; GPU-style tiles in local
 * memory and registers, CPU-style serial tiles, and the pick by device
 * type) must leave the final array bit-identical to the reference at every
 * size (padding: wires >= n dropped), key type and with/without payload. */
static void test_fused(void)
{
    static const sn_gpu_variant vs[] = {SN_GPU_VARIANT_FUSED, SN_GPU_VARIANT_FUSED_LOCAL,
                                        SN_GPU_VARIANT_FUSED_SERIAL};
    static const sn_algo algos[] = {SN_ALGO_BITONIC, SN_ALGO_ODDEVEN_MERGE};
    for (size_t ai = 0; ai < 2; ai++) {
        for (uint32_t idx = 0; idx < 72; idx++) {
            uint32_t n = idx < 70 ? idx + 1 : idx == 70 ? 1000 : 65539;
            sn_schedule *s = NULL;
            sn_diag d;
            CHECK(sn_schedule_generate(algos[ai], n, &s, &d) == SN_OK);
            if (!s)
                continue;
            /* small n: one key type and payload setting per (n, variant),
             * rotating so every n range meets all of them; 1000 and
             * 65539: every combination (keeps pocl's time modest) */
            for (size_t vi = 0; vi < 3; vi++)
                for (int t = 0; t < 3; t++)
                    for (int pay = 0; pay < 2; pay++) {
                        if (n <= 70 && (t != (int)((n + vi) % 3) || pay != (int)((n / 3 + vi) % 2)))
                            continue;
                        sn_gpu_verify_opts o = {vs[vi], false, false, 0, 0, NULL};
                        uint32_t *keys =
                            make_input((sn_key_type)t, n, n * 31u + vi * 7u + (uint32_t)t,
                                       (n + (uint32_t)t + (uint32_t)pay) % 2 == 0);
                        char what[96];
                        snprintf(what, sizeof what, "%s:%u %s %s payload %d",
                                 sn_algo_name(algos[ai]), n, sn_gpu_variant_name(vs[vi]),
                                 sn_key_type_name((sn_key_type)t), pay);
                        if (keys)
                            expect_identical(s, (sn_key_type)t, keys, pay, &o, what);
                        sn_free(keys);
                    }
            /* the plan really fuses: fewer launches than layers at size */
            sn_gpu_fused_info fi;
            for (size_t vi = 0; vi < 3; vi++) {
                CHECK(sn_gpu_fused_describe(g, s, vs[vi], false, SN_KEY_U32, &fi, &d) == SN_OK);
                CHECK(fi.passes == fi.tile_passes + fi.global_layers + fi.window_passes);
                CHECK(fi.layers == sn_schedule_layer_count(s));
                if (n == 65539)
                    CHECKF(fi.passes * 4 < fi.layers, "%s:%u %s: %zu launches for %zu layers",
                           sn_algo_name(algos[ai]), n, sn_gpu_variant_name(vs[vi]), fi.passes,
                           fi.layers);
            }
            sn_schedule_destroy(s);
        }
    }
    /* refused: other networks, per-layer comparison, injected faults */
    sn_schedule *s = NULL;
    sn_diag d;
    sn_gpu_report rep;
    uint32_t keys[64] = {0};
    CHECK(sn_schedule_generate(SN_ALGO_TRANSPOSITION, 16, &s, &d) == SN_OK);
    sn_gpu_verify_opts o = {SN_GPU_VARIANT_FUSED, false, false, 0, 0, NULL};
    CHECK(sn_gpu_verify(g, s, SN_KEY_U32, keys, false, &o, &rep, &d) == SN_EINVAL);
    sn_schedule_destroy(s);
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 64, &s, &d) == SN_OK);
    o.per_layer = true;
    CHECK(sn_gpu_verify(g, s, SN_KEY_U32, keys, false, &o, &rep, &d) == SN_EINVAL);
    o.per_layer = false;
    o.inject = true;
    CHECK(sn_gpu_verify(g, s, SN_KEY_U32, keys, false, &o, &rep, &d) == SN_EINVAL);
    sn_schedule_destroy(s);
}

/* The generated straight-line pass kernels (src/gpu/fused_cg.c, the
 * default on GPUs) forced on this device: the same bit-identical result,
 * over tiles narrower than a warp, register rounds with complemented
 * mirrors, loads and stores straight from registers, odd-even carry
 * layers in local memory, padding, every key type and payload; and
 * bitonic tiles larger than local memory, crossing it in 2 or 4 columns.
 * Per case: big = the register tile bits, bigebits = log2 of the elements
 * per work-item (the GPU default 2^6; pocl compiles 2^7 slowly and fails
 * 1024 work-items of 2^5), first = a first pass over smaller tiles of its
 * own (the GPU default from 2^21 keys; here from any size). */
static void test_fused_codegen(void)
{
    static const struct {
        sn_algo a;
        uint32_t n;
        sn_key_type t;
        int pay;
        unsigned big, bigebits, first;
    } cs[] = {
        {SN_ALGO_BITONIC, 5, SN_KEY_U32, 1, 0, 5, 0},
        {SN_ALGO_BITONIC, 70, SN_KEY_I32, 0, 0, 5, 0},
        {SN_ALGO_BITONIC, 1000, SN_KEY_F32, 1, 0, 5, 0},
        {SN_ALGO_BITONIC, 65539, SN_KEY_U32, 0, 0, 5, 0},
        {SN_ALGO_ODDEVEN_MERGE, 33, SN_KEY_F32, 0, 0, 5, 0},
        {SN_ALGO_ODDEVEN_MERGE, 4099, SN_KEY_I32, 1, 0, 5, 0},
        {SN_ALGO_ODDEVEN_MERGE, 70000, SN_KEY_U32, 0, 15, 7, 0},
        {SN_ALGO_BITONIC, 16384, SN_KEY_I32, 0, 14, 5, 0},
        {SN_ALGO_BITONIC, 100003, SN_KEY_F32, 0, 15, 6, 0},
        {SN_ALGO_BITONIC, 65536, SN_KEY_U32, 0, 15, 7, 0},
        {SN_ALGO_BITONIC, 65539, SN_KEY_I32, 0, 14, 6, 12},
    };
    sn_gpu_tuning saved = *sn_gpu_tuning_get(g), tu = saved;
    tu.codegen = SN_GPU_CODEGEN_GENERATE;
    tu.first_tile_from = 0;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        tu.reg_tile_bits = cs[i].big;
        tu.reg_elem_bits = cs[i].bigebits;
        tu.first_tile_bits = cs[i].first;
        sn_gpu_set_tuning(g, &tu);
        sn_schedule *s = NULL;
        sn_diag d;
        CHECK(sn_schedule_generate(cs[i].a, cs[i].n, &s, &d) == SN_OK);
        if (!s)
            continue;
        sn_gpu_verify_opts o = {SN_GPU_VARIANT_FUSED_LOCAL, false, false, 0, 0, NULL};
        char what[128];
        snprintf(what, sizeof what, "generated %s:%u %s payload %d tile %u", sn_algo_name(cs[i].a),
                 cs[i].n, sn_key_type_name(cs[i].t), cs[i].pay, cs[i].big);
        for (int sorted = 0; sorted < 2; sorted++) {
            uint32_t *keys = make_input(cs[i].t, cs[i].n, 77u + i, i % 2 == 0);
            /* a sorted input moves nothing: a lost or doubled element
             * (a race between work-items) shows at once */
            if (keys && sorted)
                sn_exec_run(s, cs[i].t, keys, NULL);
            if (keys)
                expect_identical(s, cs[i].t, keys, cs[i].pay, &o, what);
            sn_free(keys);
        }
        sn_gpu_fused_info fi;
        if (cs[i].big && cs[i].a == SN_ALGO_BITONIC) {
            CHECK(sn_gpu_fused_describe(g, s, SN_GPU_VARIANT_FUSED_LOCAL, false, cs[i].t, &fi,
                                        &d) == SN_OK);
            CHECKF(fi.tile_bits == cs[i].big, "%s: tiles of 2^%u", what, fi.tile_bits);
        }
        sn_schedule_destroy(s);
    }
    sn_gpu_set_tuning(g, &saved);
}

/* Odd-even merge window passes (kernels/fused.cl: sn_fused_window, and
 * generated by src/gpu/fused_cg.c), the carry layers of merges larger
 * than a tile: windows shrunk to 2^3..2^13 and tiles to 2^5 (the tuning
 * record) make many windows, strided chunks, halos at block and array
 * ends, wide windows (halves of halo), and odd and even numbers of passes
 * (an odd count copies the result home) out of small n; the work-group
 * kernel (fused-local), one work-item per window (fused-serial) and the
 * generated kernels (fused-local, generating; a round limit gives several
 * runs per work-item); random, duplicate-heavy and sorted inputs (a
 * sorted input moves nothing: an element lost where windows overlap
 * shows). */
static void test_fused_windows(void)
{
    /* cg: also generated, with one key type and payload setting per case
     * (pocl compiles each program for up to half a minute when its cache
     * is cold) */
    static const struct {
        uint32_t n;
        unsigned wtile, wround;
        bool cg;
    } cs[] = {{33, 5, 9, true},    {100, 6, 9, false},   {1000, 5, 9, false},  {1000, 7, 2, true},
              {4099, 6, 9, false}, {4099, 9, 3, true},   {65539, 8, 9, false}, {20000, 13, 9, true},
              {9999, 3, 9, true},  {70000, 10, 9, false}};
    static const sn_gpu_variant vs[] = {SN_GPU_VARIANT_FUSED_LOCAL, SN_GPU_VARIANT_FUSED_SERIAL,
                                        SN_GPU_VARIANT_FUSED_LOCAL};
    bool odd = false, even = false;
    sn_gpu_tuning saved = *sn_gpu_tuning_get(g), tu = saved;
    tu.tile_bits = 5;
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        tu.window_bits = cs[i].wtile;
        tu.window_round = cs[i].wround;
        sn_schedule *s = NULL;
        sn_diag d;
        CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, cs[i].n, &s, &d) == SN_OK);
        if (!s)
            continue;
        sn_gpu_fused_info narrow; /* the interpreted plan: tiles with the windows' low bits */
        memset(&narrow, 0, sizeof narrow);
        for (size_t vi = 0; vi < (cs[i].cg ? 3u : 2u); vi++) {
            tu.codegen = vi == 2 ? SN_GPU_CODEGEN_GENERATE : saved.codegen;
            sn_gpu_set_tuning(g, &tu);
            sn_gpu_fused_info fi;
            CHECK(sn_gpu_fused_describe(g, s, vs[vi], false, SN_KEY_U32, &fi, &d) == SN_OK);
            CHECK(fi.generated == (vi == 2));
            if (vi == 0)
                narrow = fi;
            if (vi == 2) /* the wider odd-even tiles cost no pass (fused.c: oe_narrow) */
                CHECKF(narrow.passes == fi.passes && narrow.window_passes == fi.window_passes,
                       "oddeven-merge:%u window 2^%u: %zu passes (%zu windows) with wide tiles, "
                       "%zu (%zu) without",
                       cs[i].n, cs[i].wtile, fi.passes, fi.window_passes, narrow.passes,
                       narrow.window_passes);
            CHECKF(fi.window_passes > 0 && fi.global_layers == 0,
                   "oddeven-merge:%u %s window 2^%u: %zu window passes, %zu single layers", cs[i].n,
                   sn_gpu_variant_name(vs[vi]), cs[i].wtile, fi.window_passes, fi.global_layers);
            odd |= fi.window_passes % 2 == 1;
            even |= fi.window_passes % 2 == 0;
            for (int input = 0; input < 3; input++) {
                sn_key_type t = (sn_key_type)((i + (vi == 2 ? 0 : vi + (size_t)input)) % 3);
                int pay = (int)((i + (vi == 2 ? 0 : (size_t)input)) % 2);
                uint32_t *keys = make_input(t, cs[i].n, 901u + i * 7u + vi, input == 1);
                if (keys && input == 2)
                    sn_exec_run(s, t, keys, NULL);
                sn_gpu_verify_opts o = {vs[vi], false, false, 0, 0, NULL};
                char what[128];
                snprintf(what, sizeof what,
                         "oddeven-merge:%u %s window 2^%u %s payload %d input %d", cs[i].n,
                         vi == 2 ? "generated" : sn_gpu_variant_name(vs[vi]), cs[i].wtile,
                         sn_key_type_name(t), pay, input);
                if (keys)
                    expect_identical(s, t, keys, pay, &o, what);
                sn_free(keys);
            }
        }
        sn_schedule_destroy(s);
    }
    CHECKF(odd && even, "window pass counts: odd seen %d, even seen %d", odd, even);
    /* no windows: the carry layers one launch each */
    tu.codegen = saved.codegen;
    tu.window_round = 0;
    tu.windows = false;
    sn_gpu_set_tuning(g, &tu);
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, 1000, &s, &d) == SN_OK);
    sn_gpu_fused_info fi;
    if (s && sn_gpu_fused_describe(g, s, SN_GPU_VARIANT_FUSED_LOCAL, false, SN_KEY_U32, &fi, &d) ==
                 SN_OK)
        CHECK(fi.window_passes == 0 && fi.global_layers > 0);
    sn_schedule_destroy(s);
    sn_gpu_set_tuning(g, &saved);
}

/* sn_gpu_time: every variant's output is the reference's, times >= 0. */
static void test_timing(void)
{
    static const sn_gpu_variant vs[] = {SN_GPU_VARIANT_LEFT, SN_GPU_VARIANT_SHIFT,
                                        SN_GPU_VARIANT_FUSED};
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, 5000, &s, &d) == SN_OK);
    if (!s)
        return;
    uint32_t *ref = make_input(SN_KEY_F32, 5000, 3, false);
    uint32_t *keys = make_input(SN_KEY_F32, 5000, 3, false);
    if (ref && keys) {
        sn_exec_run(s, SN_KEY_F32, ref, NULL);
        for (size_t vi = 0; vi < 3; vi++) {
            sn_gpu_timing tm[3];
            uint32_t *in = make_input(SN_KEY_F32, 5000, 3, false);
            CHECK(in && sn_gpu_time(g, s, vs[vi], SN_KEY_F32, in, 3, tm, &d) == SN_OK);
            CHECKF(in && memcmp(in, ref, 5000 * 4) == 0, "timed %s output differs",
                   sn_gpu_variant_name(vs[vi]));
            for (int r = 0; r < 3; r++)
                CHECK(tm[r].kernel_ms >= 0 && tm[r].host_ms >= tm[r].kernel_ms * 0.5);
            sn_free(in);
        }
    }
    sn_free(ref);
    sn_free(keys);
    sn_schedule_destroy(s);
}

/* The device's 0-1 checker against the CPU checker: verdict, smallest
 * counterexample and output, failing count, redundant comparators. */
static void compare_check(const sn_network *net, const char *what)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.method = SN_CHECK_BRUTEFORCE;
    sn_check_result a, b;
    sn_diag d;
    sn_status sa = sn_check_run(net, &opt, &a, &d);
    CHECKF(sa == SN_OK, "%s: cpu check: %s", what, d.text);
    sn_status sb = sn_gpu_check(g, net, &opt, &b, &d);
    CHECKF(sb == SN_OK, "%s: device check: %s", what, d.text);
    if (sa == SN_OK && sb == SN_OK) {
        uint32_t n = a.n;
        CHECKF(a.sorts == b.sorts && a.failing_count == b.failing_count,
               "%s: sorts %d/%d failing %llu/%llu", what, a.sorts, b.sorts,
               (unsigned long long)a.failing_count, (unsigned long long)b.failing_count);
        if (!a.sorts && !b.sorts) {
            CHECKF(a.counterexample_index == b.counterexample_index &&
                       memcmp(a.counterexample, b.counterexample, n) == 0 &&
                       memcmp(a.output, b.output, n) == 0 && a.first_unsorted == b.first_unsorted,
                   "%s: counterexample %llu vs %llu", what,
                   (unsigned long long)a.counterexample_index,
                   (unsigned long long)b.counterexample_index);
        }
        CHECKF(a.redundant_count == b.redundant_count &&
                   (a.redundant_count == 0 ||
                    memcmp(a.redundant, b.redundant, a.redundant_count * sizeof(size_t)) == 0),
               "%s: redundant %zu vs %zu", what, a.redundant_count, b.redundant_count);
    }
    /* the same proof in three parts (as three ranks of the distributed
     * proof take it: 64-aligned ranges): a sum, a minimum and an OR */
    if (sa == SN_OK && a.n <= 24) {
        uint64_t total = (uint64_t)1 << a.n, Q = a.n >= 6 ? total / 64 : 1, fails = 0,
                 first = UINT64_MAX;
        size_t m = sn_network_size(net);
        uint8_t *sw = sn_calloc(m + 1, 1);
        for (uint64_t r = 0; sw && r < 3; r++) {
            uint64_t lo = Q * r / 3 * 64, hi = Q * (r + 1) / 3 * 64;
            hi = hi < total ? hi : total;
            lo = lo < hi ? lo : hi;
            uint64_t f = 0, x = 0;
            sn_status sr = sn_gpu_check_range(g, net, &opt, lo, hi, &f, &x, sw, &d);
            CHECKF(sr == SN_OK, "%s: range part %llu: %s", what, (unsigned long long)r, d.text);
            fails += f;
            first = x < first ? x : first;
        }
        size_t nr = 0;
        bool same = true;
        for (size_t k = 0; sw && k < m; k++)
            if (!sw[k])
                same = same && nr < a.redundant_count && a.redundant[nr++] == k;
        CHECKF(sw && fails == a.failing_count && same && nr == a.redundant_count &&
                   (a.sorts ? first == UINT64_MAX : first == a.counterexample_index),
               "%s: three ranges: failing %llu (want %llu), first %llu", what,
               (unsigned long long)fails, (unsigned long long)a.failing_count,
               (unsigned long long)first);
        /* a range that does not start on a 32-input word, or past 2^n */
        uint64_t f = 0, x = 0;
        CHECK(!sw || sn_gpu_check_range(g, net, &opt, 1, total, &f, &x, sw, &d) == SN_EINVAL);
        CHECK(!sw || sn_gpu_check_range(g, net, &opt, 0, total + 1, &f, &x, sw, &d) == SN_EINVAL);
        sn_free(sw);
    }
    if (sa == SN_OK)
        sn_check_result_free(&a);
    if (sb == SN_OK)
        sn_check_result_free(&b);
}

/* n wires: the comparators pre[0..npre), then algorithm a's on n wires
 * (a sorter, so the network sorts), then post[0..npost). */
static sn_network *net_around(uint32_t n, const uint32_t (*pre)[2], size_t npre, sn_algo a,
                              const uint32_t (*post)[2], size_t npost)
{
    sn_schedule *s = NULL;
    sn_network *full = NULL, *net = sn_network_create(n);
    sn_diag d;
    bool ok = net && sn_schedule_generate(a, n, &s, &d) == SN_OK &&
              sn_schedule_to_network(s, &full, &d) == SN_OK;
    for (size_t j = 0; ok && j < npre; j++)
        ok = sn_network_add_asap(net, pre[j][0], pre[j][1], &d) == SN_OK;
    sn_comparator c;
    for (size_t j = 0; ok && sn_network_comparator(full, j, &c, NULL); j++)
        ok = sn_network_add_asap(net, c.a, c.b, &d) == SN_OK;
    for (size_t j = 0; ok && j < npost; j++)
        ok = sn_network_add_asap(net, post[j][0], post[j][1], &d) == SN_OK;
    sn_network_destroy(full);
    sn_schedule_destroy(s);
    CHECKF(ok, "building a %u-wire network: %s", n, d.text);
    if (!ok) {
        sn_network_destroy(net);
        return NULL;
    }
    return net;
}

/* net without comparator `drop` */
static sn_network *net_without(const sn_network *net, size_t drop)
{
    sn_network *b = sn_network_create(sn_network_wires(net));
    sn_comparator c;
    sn_diag d;
    for (size_t j = 0; b && sn_network_comparator(net, j, &c, NULL); j++)
        if (j != drop && sn_network_add_asap(b, c.a, c.b, &d) != SN_OK) {
            sn_network_destroy(b);
            return NULL;
        }
    return b;
}

/* Whether net sorts 0-1 input x (the host's own replay, for the range's
 * last inputs below). */
static bool sorts_input(const sn_network *net, uint64_t x)
{
    sn_comparator c;
    for (size_t j = 0; sn_network_comparator(net, j, &c, NULL); j++)
        if (((x >> c.a) & 1u) && !((x >> c.b) & 1u))
            x ^= ((uint64_t)1 << c.a) | ((uint64_t)1 << c.b);
    uint32_t n = sn_network_wires(net);
    for (uint32_t i = 0; i + 1 < n; i++)
        if (((x >> i) & 1u) && !((x >> (i + 1)) & 1u))
            return false;
    return true;
}

/* The work-item's loop over 2^L words (check_loop.h), forced on small
 * networks: comparators shared before the loop and none shared, a
 * smallest counterexample in a loop iteration other than a work-item's
 * first, redundant comparators tracked before and inside the loop, and a
 * range that ends inside a word (its last inputs checked on the host). */
static void test_check01_loop(void)
{
    size_t shared = 0, looped = 0;
    /* oddeven-merge:13, L = 4: wires 9..12 fixed per work-item, the
     * comparators among them (and among the lanes 0..4) shared */
    sn_gpu_check_force_loop_bits(4);
    sn_network *net = net_around(13, NULL, 0, SN_ALGO_ODDEVEN_MERGE, NULL, 0);
    if (net) {
        sn_gpu_check_split(net, 4, &shared, &looped);
        CHECKF(shared > 0 && looped > 0, "oddeven-merge:13, L 4: %zu shared, %zu looped", shared,
               looped);
        compare_check(net, "oddeven-merge:13, L 4");
        /* a comparator left out whose smallest counterexample is not in
         * the first word of its work-item (loop bits 5..8 not all 0) */
        size_t m = sn_network_size(net), found = SIZE_MAX;
        for (size_t drop = m / 2; drop < m && found == SIZE_MAX; drop++) {
            sn_network *b = net_without(net, drop);
            sn_check_options opt;
            sn_check_options_init(&opt);
            opt.method = SN_CHECK_BRUTEFORCE;
            sn_check_result r;
            sn_diag d;
            if (b && sn_check_run(b, &opt, &r, &d) == SN_OK) {
                if (!r.sorts && ((r.counterexample_index >> 5) & 15) != 0 &&
                    r.counterexample_index % 32 != 31) {
                    found = drop;
                    compare_check(b, "oddeven-merge:13 less a comparator, L 4");
                    /* ranges that end inside a word, their last inputs
                     * checked on the host: [0, 2^13 - 7) (the failures of
                     * [2^13 - 7, 2^13) are the rest), and [0, x + 1) and
                     * [x - x % 32, x + 1) for the smallest failing x (x's
                     * word on the host, the only failure in both) */
                    uint64_t total = (uint64_t)1 << 13, hi = total - 7, f = 0, x = 0, rest = 0;
                    uint64_t cx = r.counterexample_index;
                    uint8_t *sw = sn_calloc(m, 1);
                    CHECK(sw && sn_gpu_check_range(g, b, &opt, 0, hi, &f, &x, sw, &d) == SN_OK);
                    for (uint64_t y = hi; y < total; y++)
                        rest += !sorts_input(b, y);
                    CHECKF(f + rest == r.failing_count && x == cx,
                           "[0, 2^13 - 7): failing %llu + %llu (want %llu), first %llu",
                           (unsigned long long)f, (unsigned long long)rest,
                           (unsigned long long)r.failing_count, (unsigned long long)x);
                    for (int k = 0; k < 2; k++) {
                        uint64_t lo = k ? cx - cx % 32 : 0;
                        CHECK(sw &&
                              sn_gpu_check_range(g, b, &opt, lo, cx + 1, &f, &x, sw, &d) == SN_OK);
                        CHECKF(f == 1 && x == cx, "[%llu, %llu): %llu failing, first %llu",
                               (unsigned long long)lo, (unsigned long long)cx + 1,
                               (unsigned long long)f, (unsigned long long)x);
                    }
                    sn_free(sw);
                }
                sn_check_result_free(&r);
            }
            sn_network_destroy(b);
        }
        CHECKF(found != SIZE_MAX,
               "no comparator of oddeven-merge:13 fails first past a work-item's first word");
    }
    sn_network_destroy(net);
    /* nothing shared: the first layer joins every lane with a loop wire */
    static const uint32_t mix[][2] = {{0, 5}, {1, 6}, {2, 7}, {3, 8}, {4, 5}};
    net = net_around(9, mix, 5, SN_ALGO_INSERTION, NULL, 0);
    if (net) {
        sn_gpu_check_split(net, 4, &shared, &looped);
        CHECKF(shared == 0, "mixed insertion:9, L 4: %zu shared", shared);
        compare_check(net, "mixed insertion:9, L 4");
    }
    sn_network_destroy(net);
    /* redundant: the second (8, 9) before the loop (wires 7..9 fixed at
     * L 2), the last (0, 9) inside it; neither ever swaps */
    sn_gpu_check_force_loop_bits(2);
    static const uint32_t twice[][2] = {{8, 9}, {8, 9}}, last[][2] = {{0, 9}};
    net = net_around(10, twice, 2, SN_ALGO_INSERTION, last, 1);
    if (net) {
        sn_gpu_check_split(net, 2, &shared, &looped);
        CHECKF(shared >= 2, "redundant insertion:10, L 2: %zu shared", shared);
        compare_check(net, "redundant insertion:10, L 2");
    }
    sn_network_destroy(net);
    sn_gpu_check_force_loop_bits(-1);
    /* a range of a 40-wire network (the loop bits the device chooses for
     * a whole proof: as many as it takes, the range inside one or two
     * work-items), less one comparator: around a failing input the host
     * finds, the device's count and first failure are the host's */
    net = net_around(40, NULL, 0, SN_ALGO_ODDEVEN_MERGE, NULL, 0);
    sn_network *b40 = net ? net_without(net, sn_network_size(net) / 2) : NULL;
    uint64_t seed = 12345, bad = UINT64_MAX;
    for (int tries = 0; b40 && bad == UINT64_MAX && tries < 200000; tries++) {
        uint64_t x = sn_rand_next(&seed) & (((uint64_t)1 << 40) - 1);
        x &= x >> (tries % 7); /* fewer ones, for the deep comparators */
        if (!sorts_input(b40, x))
            bad = x;
    }
    CHECKF(!b40 || bad != UINT64_MAX, "no failing input of oddeven-merge:40 less one found");
    for (int k = 0; bad != UINT64_MAX && k < 2; k++) {
        /* [4096 inputs before bad's word, bad + 1), and [the word after
         * bad's, 4101 inputs on): a range that starts just past a failure */
        uint64_t w = bad - bad % 32;
        uint64_t lo = k ? w + 32 : (w >= 4096 ? w - 4096 : 0), hi = k ? lo + 4101 : bad + 1;
        uint64_t f = 0, x = 0, want = 0, first = UINT64_MAX;
        for (uint64_t y = lo; y < hi; y++)
            if (!sorts_input(b40, y)) {
                want++;
                first = first < y ? first : y;
            }
        sn_check_options opt;
        sn_check_options_init(&opt);
        opt.method = SN_CHECK_BRUTEFORCE;
        sn_diag d40;
        uint8_t *sw = sn_calloc(sn_network_size(b40), 1);
        CHECK(sw && sn_gpu_check_range(g, b40, &opt, lo, hi, &f, &x, sw, &d40) == SN_OK);
        CHECKF((k || want > 0) && f == want && x == first,
               "oddeven-merge:40 less one, [%llu, %llu): %llu failing (want %llu), first %llu "
               "(want %llu)",
               (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)f,
               (unsigned long long)want, (unsigned long long)x, (unsigned long long)first);
        sn_free(sw);
    }
    sn_network_destroy(b40);
    sn_network_destroy(net);
    /* the sortedness test skips outputs i, i + 1 only when the last
     * comparator on both is (i, i + 1): here (1, 2) is last on wire 1 but
     * (2, 5) on wire 2, and (4, 3) leaves wire 4 the smaller */
    sn_network *odd = sn_network_create(6);
    sn_diag d;
    if (odd && sn_network_add_asap(odd, 1, 2, &d) == SN_OK &&
        sn_network_add_asap(odd, 2, 5, &d) == SN_OK && sn_network_add_asap(odd, 4, 3, &d) == SN_OK)
        compare_check(odd, "(1,2) (2,5) (4,3) on 6 wires");
    sn_network_destroy(odd);
}

static void test_check01(void)
{
    static const struct {
        sn_algo a;
        uint32_t n;
    } nets[] = {{SN_ALGO_BITONIC, 1},   {SN_ALGO_BITONIC, 8},       {SN_ALGO_ODDEVEN_MERGE, 13},
                {SN_ALGO_PAIRWISE, 18}, {SN_ALGO_INSERTION, 9},     {SN_ALGO_TRANSPOSITION, 7},
                {SN_ALGO_BUBBLE, 4},    {SN_ALGO_ODDEVEN_MERGE, 21}};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        sn_schedule *s = NULL;
        sn_network *net = NULL;
        sn_diag d;
        CHECK(sn_schedule_generate(nets[i].a, nets[i].n, &s, &d) == SN_OK);
        CHECK(s && sn_schedule_to_network(s, &net, &d) == SN_OK);
        if (net) {
            char what[64];
            snprintf(what, sizeof what, "%s:%u", sn_algo_name(nets[i].a), nets[i].n);
            compare_check(net, what);
            /* broken: drop the middle comparator (rebuild without it) */
            size_t m = sn_network_size(net);
            if (m > 1) {
                sn_network *b = sn_network_create(nets[i].n);
                for (size_t j = 0; b && j < m; j++) {
                    sn_comparator c;
                    if (j != m / 2 && sn_network_comparator(net, j, &c, NULL))
                        CHECK(sn_network_add_asap(b, c.a, c.b, &d) == SN_OK);
                }
                snprintf(what, sizeof what, "%s:%u minus comparator %zu", sn_algo_name(nets[i].a),
                         nets[i].n, m / 2);
                if (b)
                    compare_check(b, what);
                sn_network_destroy(b);
            }
        }
        sn_network_destroy(net);
        sn_schedule_destroy(s);
    }
    test_check01_loop();
}

int main(int argc, char **argv)
{
    int part = -1; /* --part K: only the sections of part K (see below) */
    if (argc == 3 && strcmp(argv[1], "--part") == 0 && argv[2][0] >= '0' && argv[2][0] <= '3' &&
        !argv[2][1]) {
        part = argv[2][0] - '0';
    } else if (argc != 1) {
        fprintf(stderr, "usage: test_gpu [--part 0|1|2|3]\n");
        return 2;
    }
    sn_diag d;
    sn_diag_clear(&d);
    g = sn_test_gpu_open(NULL);
    printf("device: %s\n", sn_gpu_device_name(g));
    CHECK(sn_gpu_open("9:9", &(sn_gpu *){NULL}, &d) == SN_EINVAL);
    CHECK(sn_gpu_open("x", &(sn_gpu *){NULL}, &d) == SN_EINVAL);
    /* Section times are printed for whoever tunes CI time; nothing checks them. */
    /* The sections fall into four parts, each also a CTest test of its own
     * (`test_gpu --part K`, tests/gpu.cmake), so that `ctest -j` spreads
     * pocl's kernel builds, most of a run with a cold kernel cache, over
     * the cores. Without --part every section runs. */
    static const struct {
        const char *name;
        void (*fn)(void);
        int part;
    } parts[] = {
        {"user kernels", test_user_kernels, 0},
        {"faults", test_faults, 0},
        {"run", test_run, 0},
        {"variants", test_variants, 0},
        {"large", test_large, 0},
        {"library networks", test_library_networks, 0},
        {"generators", test_generators, 0},
        {"fused", test_fused, 1},
        {"fused, generated kernels", test_fused_codegen, 2},
        {"fused, odd-even windows", test_fused_windows, 3},
        {"timing", test_timing, 0},
        {"0-1 check", test_check01, 0},
    };
    /* SN_TEST_ONLY=text: only the sections whose name holds text (for
     * quick runs while changing one part) */
    const char *only = getenv("SN_TEST_ONLY");
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if ((only && !strstr(parts[i].name, only)) || (part >= 0 && parts[i].part != part))
            continue;
        time_t t0 = time(NULL);
        parts[i].fn();
        printf("%s: %.0f s\n", parts[i].name, difftime(time(NULL), t0));
    }
    sn_gpu_close(g);
    return sn_test_finish("test_gpu");
}
