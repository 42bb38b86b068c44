/* test_web_gpu_plan.c - the page's GPU plan (src/web/gpu_plan.c): the
 * layer table, the tile-local runs and the reference's digests. A stand-in
 * for the WGSL kernels (the same index arithmetic as kernels/layer.wgsl and
 * fused.wgsl, in C) runs every plan pass by pass, tile by tile, and must
 * give the reference's digest after every layer and its final array. */
#include <string.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "core/schedule.h"
#include "sn_test.h"
#include "web/engine.h"

#define LEN(s) (s), strlen(s)

static uint32_t ordered(uint32_t kt, uint32_t b)
{
    return sn_key_to_ordered((sn_key_type)kt, b);
}

/* partner of wire i in layer l, as the kernels compute it; false: idle or
 * the max end of its comparator */
static bool min_end(const uint32_t *l, uint32_t n, uint32_t i, uint32_t *j)
{
    uint32_t p = l[1], q = l[2];
    switch (l[0]) {
    case SNW_GPU_PARTNERS: {
        uint32_t e = snw_gpu_partners()[(size_t)l[3] * n + i];
        *j = e;
        return (e & 0x80000000u) == 0;
    }
    case SNW_GPU_BITONIC: *j = q == p / 2 ? i ^ (p - 1) : i ^ q; return i < *j && *j < n;
    case SNW_GPU_ODDEVEN_MERGE: {
        uint32_t r = q % p;
        if (i < r || (i - r) % (2 * q) >= q)
            return false;
        *j = i + q;
        return *j < n && i / (2 * p) == *j / (2 * p);
    }
    default: *j = i + 1; return (i & 1u) == (p & 1u) && *j < n;
    }
}

static void cmpx(uint32_t kt, uint32_t *k, uint32_t *pay, uint32_t a, uint32_t b)
{
    if (ordered(kt, k[a]) > ordered(kt, k[b])) {
        uint32_t t = k[a];
        k[a] = k[b];
        k[b] = t;
        if (pay) {
            t = pay[a];
            pay[a] = pay[b];
            pay[b] = t;
        }
    }
}

/* Run the plan as the page does; false at the first digest that differs. */
static bool run_plan(uint32_t kt, uint32_t tile, bool payload)
{
    uint32_t n = snw_gpu_n();
    uint32_t *k = sn_malloc((size_t)n * 4), *pay = payload ? sn_malloc((size_t)n * 4) : NULL;
    memcpy(k, snw_gpu_input(), (size_t)n * 4);
    if (payload)
        memcpy(pay, snw_gpu_input_payload(), (size_t)n * 4);
    const uint32_t *dig = snw_gpu_digests();
    bool ok = (uint32_t)sn_digest(k, n) == dig[0];
    for (size_t pi = 0; pi < snw_gpu_pass_count() && ok; pi++) {
        const uint32_t *p = snw_gpu_passes() + pi * SNW_GPU_PASS_STRIDE;
        /* a fused pass's layers are tile-local: running them layer by layer
         * over all tiles is what the workgroups do together */
        for (uint32_t li = p[0]; li < p[0] + p[1] && ok; li++) {
            const uint32_t *l = snw_gpu_layer_table() + (size_t)li * SNW_GPU_LAYER_STRIDE;
            for (uint32_t t0 = 0; t0 < (p[2] ? n : 1); t0 += tile) {
                uint32_t lo = p[2] ? t0 : 0, hi = p[2] ? (t0 + tile < n ? t0 + tile : n) : n;
                for (uint32_t i = lo, j; i < hi; i++)
                    if (min_end(l, n, i, &j)) {
                        CHECK(!p[2] || (j >= lo && j < hi)); /* a fused layer stays in its tile */
                        cmpx(kt, k, pay, i, j);
                    }
            }
            uint64_t h = sn_digest(k, n);
            ok = (uint32_t)h == dig[2 * (li + 1)] && (uint32_t)(h >> 32) == dig[2 * (li + 1) + 1];
        }
    }
    ok = ok && memcmp(k, snw_gpu_final(), (size_t)n * 4) == 0;
    if (payload)
        ok = ok && memcmp(pay, snw_gpu_final_payload(), (size_t)n * 4) == 0;
    sn_free(k);
    sn_free(pay);
    return ok;
}

static void check_net(const char *net, int is_text, uint32_t tile, const char *input, int type,
                      int payload)
{
    CHECKF(snw_gpu_plan(LEN(net), is_text, tile) == 0, "%s: %s", net, snw_gpu_error());
    CHECKF(snw_gpu_keys(LEN(input), type, payload) == 0, "%s: %s", input, snw_gpu_error());
    CHECK(snw_gpu_reference() == 0);
    CHECKF(run_plan((uint32_t)type, tile, payload), "%s tile %u %s type %d", net, tile, input,
           type);
    /* the final array is sorted in the key order, the payload follows */
    uint32_t n = snw_gpu_n();
    const uint32_t *f = snw_gpu_final(), *in = snw_gpu_input();
    for (uint32_t i = 1; i < n; i++)
        CHECK(ordered((uint32_t)type, f[i - 1]) <= ordered((uint32_t)type, f[i]));
    if (payload)
        for (uint32_t i = 0; i < n; i++)
            CHECK(in[snw_gpu_final_payload()[i]] == f[i]);
    /* the digests are the trace's: step 0 is the input's */
    uint64_t h0 = sn_digest(in, n);
    CHECK(snw_gpu_digests()[0] == (uint32_t)h0 && snw_gpu_digests()[1] == (uint32_t)(h0 >> 32));
    /* state(L) is the final array, state(0) the input */
    CHECK(memcmp(snw_gpu_state(snw_gpu_layers()), f, (size_t)n * 4) == 0);
    CHECK(memcmp(snw_gpu_state(0), in, (size_t)n * 4) == 0);
}

int main(void)
{
    /* the plan of bitonic:16 with tiles of 4: layers 1-3 (blocks of 2, 4)
     * are local, layer 4 (mirror over 8) is not */
    CHECK(snw_gpu_plan(LEN("bitonic:16"), 0, 4) == 0);
    CHECK(snw_gpu_n() == 16 && snw_gpu_layers() == 10);
    const uint32_t *l = snw_gpu_layer_table();
    CHECK(l[0] == SNW_GPU_BITONIC && l[4] == 1 && l[SNW_GPU_LAYER_STRIDE * 2 + 4] == 1);
    CHECK(l[SNW_GPU_LAYER_STRIDE * 3 + 4] == 0);
    const uint32_t *p = snw_gpu_passes();
    CHECK(p[0] == 0 && p[1] == 3 && p[2] == 1); /* a fused pass of 3 layers */
    CHECK(p[SNW_GPU_PASS_STRIDE] == 3 && p[SNW_GPU_PASS_STRIDE + 2] == 0); /* then alone */
    CHECK(strstr(snw_gpu_info(), "\"fused_passes\":") != NULL);
    /* every local flag is true: each comparator stays in its tile */
    const char *nets[] = {"bitonic:64",           "oddeven-merge:64",   "transposition:20",
                          "bitonic:1000",         "oddeven-merge:1000", "best:16",
                          "insertion:9",          "bitonic-classic:16", "bitonic-pad:100",
                          "oddeven-merge-pad:100"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        for (uint32_t tile = 2; tile <= 64; tile *= 4) {
            check_net(nets[i], 0, tile, "random:3", 0, 1);
            check_net(nets[i], 0, tile, "special:5", 2, 1);
            check_net(nets[i], 0, tile, "reverse", 1, 0);
        }
    }
    /* a network as text, with reversed-looking pairs kept as written */
    check_net("[(0,3),(1,2)],[(0,1),(2,3)],[(1,2)]", 1, 2, "list:4,3,2,1", 0, 1);
    /* special: NaNs of both signs and both zeros are among the keys */
    CHECK(snw_gpu_plan(LEN("bitonic:4096"), 0, 1024) == 0);
    CHECK(snw_gpu_keys(LEN("special:1"), 2, 0) == 0);
    bool nan = false, nnan = false, z = false, nz = false;
    for (uint32_t i = 0; i < 4096; i++) {
        uint32_t b = snw_gpu_input()[i];
        nan = nan || (b & 0xffffffffu) == 0x7fc00000u;
        nnan = nnan || b == 0xffc00000u;
        z = z || b == 0;
        nz = nz || b == 0x80000000u;
    }
    CHECK(nan && nnan && z && nz);
    CHECK(snw_gpu_cpu_run() == 0);
    CHECK(strcmp(snw_gpu_key_text(0x80000000u), "-0") == 0);
    /* errors: a tile not a power of two, a name, an input; nothing is lost */
    CHECK(snw_gpu_plan(LEN("bitonic:16"), 0, 6) == 2 && strstr(snw_gpu_error(), "power of two"));
    CHECK(snw_gpu_n() == 4096);
    CHECK(snw_gpu_plan(LEN("nosuch:16"), 0, 64) == 2 && snw_gpu_error()[0]);
    CHECK(snw_gpu_plan(LEN("[(0,1),(1"), 1, 64) == 2 && snw_gpu_error()[0]);
    CHECK(snw_gpu_n() == 4096);
    CHECK(snw_gpu_keys(LEN("bits:01"), 0, 0) == 2 && strstr(snw_gpu_error(), "input"));
    CHECK(snw_gpu_keys(LEN("random:x"), 0, 0) == 2);
    CHECK(snw_gpu_keys(LEN("whatever"), 0, 0) == 2);
    CHECK(snw_gpu_keys(LEN("sorted"), 3, 0) == 2);
    CHECK(snw_gpu_reference() == 2); /* no keys after a failed snw_gpu_keys */
    return sn_test_finish("test_web_gpu_plan");
}
