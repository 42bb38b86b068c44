/* fuzz_gpu_plan.c - libFuzzer target for the page's GPU plan
 * (src/web/gpu_plan.c): snw_gpu_plan on a network name or text, then
 * snw_gpu_keys on an input spec and the reference run.
 *
 * Input layout: byte 0: bit 0 the network is text (else a name), bits 1-2
 * the key type (% 3), bit 3 a payload, bits 4-7 the tile (2 << (b % 12));
 * then the network up to the first NUL byte, then the input spec. Checks:
 * the passes cover the layers once and in order, a fused pass only holds
 * tile-local layers, every explicit partner row is a matching whose fused
 * layers stay in their tiles; the reference's final keys are a permutation
 * of the input that the payload tracks, and its last digest is theirs. */
#include <stdio.h>

#include "core/exec.h"
#include "fuzz_common.h"
#include "web/engine.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

#define REQUIRE(c)                                                                                 \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fprintf(stderr, "fuzz_gpu_plan: %s failed at line %d\n", #c, __LINE__);                \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void check_plan(uint32_t tile)
{
    uint32_t n = snw_gpu_n();
    size_t L = snw_gpu_layers(), next = 0;
    const uint32_t *l = snw_gpu_layer_table(), *p = snw_gpu_passes();
    for (size_t i = 0; i < snw_gpu_pass_count(); i++, p += SNW_GPU_PASS_STRIDE) {
        REQUIRE(p[0] == next && p[1] >= 1);
        REQUIRE(!p[2] || p[1] >= 2);
        for (uint32_t k = p[0]; k < p[0] + p[1]; k++)
            REQUIRE(!p[2] || l[k * SNW_GPU_LAYER_STRIDE + 4]);
        next += p[1];
    }
    REQUIRE(next == L);
    for (size_t k = 0; k < L && snw_gpu_partner_rows(); k++) {
        const uint32_t *row = snw_gpu_partners() + k * n;
        bool local = l[k * SNW_GPU_LAYER_STRIDE + 4];
        for (uint32_t i = 0; i < n; i++) {
            uint32_t e = row[i];
            if (e == 0xFFFFFFFFu)
                continue;
            uint32_t j = e & 0x7FFFFFFFu;
            REQUIRE(j < n && j != i);
            REQUIRE((row[j] & 0x7FFFFFFFu) == i && ((row[j] ^ e) & 0x80000000u));
            REQUIRE(!local || n <= tile || i / tile == j / tile);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t b = data[0];
    int is_text = b & 1, type = ((b >> 1) & 3) % 3, payload = (b >> 3) & 1;
    uint32_t tile = 2u << ((b >> 4) % 12);
    const uint8_t *rest = data + 1;
    size_t len = size - 1;
    const uint8_t *nul = memchr(rest, 0, len);
    size_t net_len = nul ? (size_t)(nul - rest) : len;
    const char *input = nul ? (const char *)nul + 1 : "";
    size_t input_len = nul ? len - net_len - 1 : 0;
    if (snw_gpu_plan((const char *)rest, net_len, is_text, tile) != 0) {
        REQUIRE(snw_gpu_error()[0]);
        return 0;
    }
    check_plan(tile);
    uint32_t n = snw_gpu_n();
    if (n > 4096 || snw_gpu_layers() > 4096)
        return 0;
    if (snw_gpu_keys(input, input_len, type, payload) != 0) {
        REQUIRE(snw_gpu_error()[0] && snw_gpu_reference() == 2);
        return 0;
    }
    REQUIRE(snw_gpu_reference() == 0);
    const uint32_t *in = snw_gpu_input(), *fin = snw_gpu_final(), *pay = snw_gpu_final_payload();
    uint64_t h = sn_digest(fin, n);
    const uint32_t *d = snw_gpu_digests() + 2 * snw_gpu_layers();
    REQUIRE(d[0] == (uint32_t)h && d[1] == (uint32_t)(h >> 32));
    for (uint32_t i = 0; payload && i < n; i++)
        REQUIRE(pay[i] < n && in[pay[i]] == fin[i]);
    uint32_t *a = malloc((size_t)n * 8 + 8);
    if (a) {
        memcpy(a, in, (size_t)n * 4);
        memcpy(a + n, fin, (size_t)n * 4);
        qsort(a, n, 4, cmp_u32);
        qsort(a + n, n, 4, cmp_u32);
        REQUIRE(memcmp(a, a + n, (size_t)n * 4) == 0);
        free(a);
    }
    return 0;
}
