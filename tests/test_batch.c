/* test_batch.c - gpu batch (gpu/batch.h), i.e. the OpenCL code of
 * `sortnet gen --format opencl` built and run: every key type, payload,
 * both layouts, n from 2 to 64 including non-powers of two, a network read
 * from a file, M = 1 and odd M (a partial last work-group), duplicate-heavy
 * keys with f32's -0.0/+0.0/NaNs; every array compared with the reference
 * executor. A network that does not sort shows as unsorted arrays, an
 * injected fault as a mismatch at exactly its array and wire. Few distinct
 * networks: each is one pocl build. Skips (77) without an OpenCL platform. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/input.h"
#include "core/schedule.h"
#include "gpu/batch.h"
#include "gpu_skip.h"
#include "sn_test.h"

static sn_gpu *g;

/* Random bits, or (dups) few distinct values with f32's special ones, or
 * (bits) 0/1 keys. */
static void fill(sn_key_type t, int mode, uint64_t seed, uint32_t *k, size_t count)
{
    static const uint32_t f32[] = {0x80000000u, 0x00000000u, 0x3fc00000u, 0xff800000u,
                                   0x7fc00000u, 0xffc00000u, 0xbf800000u, 0x7f800000u};
    static const uint32_t ints[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 7};
    for (size_t i = 0; i < count; i++) {
        uint64_t r = sn_rand_next(&seed);
        if (mode == 0)
            k[i] = (uint32_t)r;
        else if (mode == 1)
            k[i] = t == SN_KEY_F32 ? f32[r % 8] : ints[r % 6];
        else
            k[i] = sn_key_from_ordered(t, 0x80000000u + (uint32_t)(r & 1));
    }
}

/* Run k on m arrays in layout l and compare; returns the report. */
static sn_batch_report run(sn_batch_kernel *k, const sn_schedule *s, sn_key_type t, bool payload,
                           sn_batch_layout l, uint64_t m, int mode, const sn_batch_run *inj)
{
    sn_batch_report rep;
    memset(&rep, 0, sizeof rep);
    uint32_t n = sn_schedule_wires(s);
    size_t words = (size_t)m * n;
    uint32_t *in = sn_malloc(words * 4), *keys = sn_malloc(words * 4);
    uint32_t *pay = payload ? sn_malloc(words * 4) : NULL;
    CHECK(in && keys && (!payload || pay));
    if (!in || !keys || (payload && !pay))
        goto done;
    fill(t, mode, 42 + m, in, words);
    memcpy(keys, in, words * 4);
    for (uint64_t a = 0; pay && a < m; a++)
        for (uint32_t w = 0; w < n; w++)
            pay[sn_batch_index(l, n, m, a, w)] = w;
    sn_batch_run r = {l, m, 0, false, 0, 0};
    if (inj)
        r = *inj;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_batch_sort(k, &r, keys, pay, NULL, &d);
    CHECKF(st == SN_OK, "%s", d.text);
    if (st == SN_OK)
        sn_batch_compare(s, t, l, m, in, keys, pay, &rep);
done:
    sn_free(in);
    sn_free(keys);
    sn_free(pay);
    return rep;
}

/* net on both layouts at each M of ms[]: identical, and sorted (or, when
 * !sorts, identical with unsorted arrays found). */
static void case_net(const char *spec, const sn_schedule *s, sn_key_type t, bool payload, int mode,
                     const uint64_t *ms, size_t nms, bool sorts)
{
    sn_network *net = NULL;
    sn_batch_kernel *k = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_schedule_to_network(s, &net, &d) == SN_OK);
    sn_status st = net ? sn_batch_kernel_create(g, net, t, payload, 1, &k, &d) : SN_EINVAL;
    CHECKF(st == SN_OK, "%s: %s", spec, d.text);
    for (int l = 0; k && l < 2; l++)
        for (size_t i = 0; i < nms; i++) {
            sn_batch_report r = run(k, s, t, payload, (sn_batch_layout)l, ms[i], mode, NULL);
            CHECKF(r.identical, "%s %s %s%s M=%llu: array %llu wire %u differs", spec,
                   sn_key_type_name(t), sn_batch_layout_name((sn_batch_layout)l),
                   payload ? " payload" : "", (unsigned long long)ms[i],
                   (unsigned long long)r.array, r.wire);
            if (sorts)
                CHECKF(r.unsorted == 0, "%s: %llu arrays unsorted", spec,
                       (unsigned long long)r.unsorted);
            else
                CHECKF(r.unsorted > 0, "%s: the broken network sorted every array", spec);
        }
    /* an injected fault: found at exactly its array and wire */
    for (int l = 0; k && l < 2 && sorts; l++) {
        uint64_t m = ms[nms - 1];
        sn_batch_run inj = {(sn_batch_layout)l, m, 0, true, m - 1, sn_schedule_wires(s) - 1};
        sn_batch_report r = run(k, s, t, payload, (sn_batch_layout)l, m, mode, &inj);
        CHECKF(!r.identical && r.array == m - 1 && r.wire == inj.inject_wire && !r.in_payload,
               "%s: injected fault at %llu:%u reported as %d %llu:%u", spec,
               (unsigned long long)(m - 1), inj.inject_wire, r.identical,
               (unsigned long long)r.array, r.wire);
    }
    sn_batch_kernel_destroy(k);
    sn_network_destroy(net);
}

static void case_spec(const char *spec, sn_key_type t, bool payload, int mode, const uint64_t *ms,
                      size_t nms)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    CHECKF(sn_schedule_load(spec, &s, &d) == SN_OK, "%s: %s", spec, d.text);
    if (s)
        case_net(spec, s, t, payload, mode, ms, nms, true);
    sn_schedule_destroy(s);
}

/* A network from file text (bracket format), and best:16 with its last
 * comparator dropped, which does not sort. */
static void file_and_broken(void)
{
    static const char text[] = "[(0,4),(1,3)]\n[(0,2),(3,4)]\n[(0,1),(2,3)]\n[(1,2),(3,4)]\n"
                               "[(2,3)]\n[(1,2)]\n";
    sn_network *net = NULL;
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    CHECKF(sn_network_parse(text, sizeof text - 1, SN_FORMAT_UNKNOWN, &net, &d) == SN_OK, "%s",
           d.text);
    if (net && sn_schedule_from_network(net, &s) == SN_OK) {
        static const uint64_t ms[] = {1, 7};
        case_net("file n=5", s, SN_KEY_I32, false, 0, ms, 2, true);
    }
    sn_schedule_destroy(s);
    s = NULL;
    sn_schedule *best = NULL;
    sn_network *b = NULL, *broken = sn_network_create(16);
    CHECK(sn_schedule_load("best:16", &best, NULL) == SN_OK);
    if (best && sn_schedule_to_network(best, &b, NULL) == SN_OK && broken) {
        size_t L = sn_network_layer_count(b);
        for (size_t k = 0; k < L; k++) {
            size_t cnt;
            const sn_comparator *c = sn_network_layer(b, k, &cnt);
            CHECK(sn_network_layer_add(broken, c, k == L - 1 ? cnt - 1 : cnt, NULL) == SN_OK);
        }
        if (sn_schedule_from_network(broken, &s) == SN_OK) {
            static const uint64_t ms[] = {301};
            case_net("best:16 minus a comparator", s, SN_KEY_U32, false, 2, ms, 1, false);
        }
        broken = NULL; /* consumed */
    }
    sn_network_destroy(broken);
    sn_network_destroy(b);
    sn_schedule_destroy(best);
    sn_schedule_destroy(s);
}

int main(void)
{
    sn_diag d;
    sn_diag_clear(&d);
    g = sn_test_gpu_open(NULL);
    bool san = getenv("SN_SANITIZED") != NULL;
    static const uint64_t ms_small[] = {1, 3, 999};
    static const uint64_t ms_big[] = {1, 1025, 4099};
    const uint64_t *ms = san ? ms_small : ms_big;
    case_spec("best:16", SN_KEY_I32, false, 0, ms, 3);
    case_spec("bitonic:13", SN_KEY_U32, true, 1, ms, 3);
    case_spec("best:64", SN_KEY_F32, true, 1, ms_small, 3);
    case_spec("oddeven-merge:2", SN_KEY_F32, false, 1, ms_small, 3);
    case_spec("best:33", SN_KEY_I32, true, 0, ms_small, 3);
    file_and_broken();
    /* refused: n beyond the registers' limit */
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_batch_kernel *k = NULL;
    if (sn_schedule_generate(SN_ALGO_BITONIC, SN_BATCH_MAX_WIRES + 1, &s, NULL) == SN_OK &&
        sn_schedule_to_network(s, &net, NULL) == SN_OK)
        CHECK(sn_batch_kernel_create(g, net, SN_KEY_I32, false, 1, &k, &d) == SN_EINVAL && !k);
    sn_network_destroy(net);
    sn_schedule_destroy(s);
    sn_gpu_close(g);
    return sn_test_finish("test_batch");
}
