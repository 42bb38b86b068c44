/* test_halo.c - the halo rule that the fused GPU passes rely on, checked
 * against the reference executor on the CPU (src/gpu/fused.c: window
 * passes; src/gpu/fused_cg.c: carry rounds).
 *
 * A run of consecutive odd-even carry layers of one merge, strides
 * q_top .. q_bot, is applied on overlapping windows of W positions of a
 * stride-q_bot subsequence; a window keeps only its middle S = W - 2h. The
 * fused kernels take h = q_top / q_bot (the first layer's stride), not the
 * sum of the strides, with windows starting at -h modulo 2h. That is exact
 * only because a merge's input is two sorted halves and the windows are so
 * aligned; this test shows both halves of that statement: the rule gives
 * the reference's array on every trial, while a smaller halo or shifted
 * windows give a wrong one on some, and the halo of the summed strides is
 * exact whatever the alignment. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "core/input.h"
#include "core/schedule.h"
#include "sn_test.h"

/* Apply layers [k0, k0 + nk) of s (carry layers of one merge, the last
 * one of stride qb) to keys on windows of W positions of every stride-qb
 * subsequence: halo h on each side, the first window starting at
 * -h + shift. */
static void windowed(const sn_schedule *s, size_t k0, size_t nk, uint32_t qb, uint32_t W,
                     uint32_t h, uint32_t shift, uint32_t *keys, uint32_t *win, uint32_t *out)
{
    uint32_t n = sn_schedule_wires(s), S = W - 2 * h;
    memcpy(out, keys, (size_t)n * 4);
    for (uint32_t rho = 0; rho < qb && rho < n; rho++) {
        int64_t ny = (int64_t)(n - rho + qb - 1) / qb;
        for (int64_t A = -(int64_t)h + (int64_t)shift - (int64_t)S; A + (int64_t)h < ny; A += S) {
            for (uint32_t i = 0; i < W; i++) {
                int64_t y = A + i;
                win[i] = y < 0 ? 0u : y < ny ? keys[rho + (uint64_t)y * qb] : 0xffffffffu;
            }
            for (size_t k = k0; k < k0 + nk; k++) {
                sn_layer_form f = sn_schedule_layer_form(s, k);
                for (uint32_t i = 0; i < W; i++) {
                    int64_t y = A + i;
                    uint32_t x, pt;
                    if (y < 0 || y >= ny)
                        continue;
                    x = rho + (uint32_t)y * qb;
                    if (!sn_layer_partner(f, n, x, &pt) || pt < x)
                        continue;
                    uint32_t j = i + (pt - x) / qb;
                    if (j < W && win[i] > win[j]) {
                        uint32_t z = win[i];
                        win[i] = win[j];
                        win[j] = z;
                    }
                }
            }
            for (uint32_t i = h; i < h + S; i++) {
                int64_t y = A + i;
                if (y >= 0 && y < ny)
                    out[rho + (uint64_t)y * qb] = win[i];
            }
        }
    }
}

int main(void)
{
    uint64_t seed = 20261123;
    int trials = 0, rule_wrong = 0, small_wrong = 0, shifted_wrong = 0, summed_wrong = 0;
    uint32_t *keys = sn_malloc(4096 * 4), *ref = sn_malloc(4096 * 4), *out = sn_malloc(4096 * 4),
             *win = sn_malloc(16384 * 4), *start = sn_malloc(4096 * 4);
    CHECK(keys && ref && out && win && start);
    for (int t = 0; keys && ref && out && win && start && t < 3000; t++) {
        unsigned nb = 5 + (unsigned)(sn_rand_next(&seed) % 8);
        uint32_t n = 1u << nb;
        if (sn_rand_next(&seed) % 3 == 0) /* padded: wires >= n dropped */
            n = n / 2 + 1 + (uint32_t)(sn_rand_next(&seed) % (n / 2));
        sn_schedule *s = NULL;
        sn_diag d;
        if (sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, n, &s, &d) != SN_OK)
            break;
        /* a chunk: carry layers k0 .. k0 + nk of one merge (q < p) */
        size_t L = sn_schedule_layer_count(s), k0;
        do
            k0 = (size_t)(sn_rand_next(&seed) % L);
        while (sn_schedule_layer_form(s, k0).q == sn_schedule_layer_form(s, k0).p ||
               sn_schedule_layer_form(s, k0).q < 2);
        uint32_t p = sn_schedule_layer_form(s, k0).p, qt = sn_schedule_layer_form(s, k0).q;
        size_t nk = 1 + (size_t)(sn_rand_next(&seed) % 11), most = 0;
        for (uint32_t q = qt; q >= 1; q /= 2)
            most++;
        if (nk > most)
            nk = most;
        uint32_t qb = qt >> (nk - 1), h = qt / qb, W = 4 * h << (sn_rand_next(&seed) % 3);
        for (size_t k = k0; k < k0 + nk; k++)
            CHECK(sn_schedule_layer_form(s, k).p == p); /* one merge */
        /* input: random keys or random 0-1, sorted up to the chunk */
        for (uint32_t i = 0; i < n; i++)
            keys[i] = t % 2 ? (uint32_t)(sn_rand_next(&seed) % 2)
                            : (uint32_t)(sn_rand_next(&seed) % 1000);
        for (size_t k = 0; k < k0; k++)
            sn_exec_layer(s, k, SN_KEY_U32, keys, NULL, NULL);
        memcpy(start, keys, (size_t)n * 4);
        memcpy(ref, keys, (size_t)n * 4);
        for (size_t k = k0; k < k0 + nk; k++)
            sn_exec_layer(s, k, SN_KEY_U32, ref, NULL, NULL);
        trials++;
        /* the rule: halo h, aligned windows */
        windowed(s, k0, nk, qb, W, h, 0, start, win, out);
        if (memcmp(out, ref, (size_t)n * 4) != 0) {
            rule_wrong++;
            fprintf(stderr, "rule wrong: oddeven-merge:%u layers %zu..%zu, W %u, h %u\n", n, k0,
                    k0 + nk - 1, W, h);
        }
        /* a quarter less halo */
        if (h >= 4) {
            windowed(s, k0, nk, qb, W, h - h / 4, 0, start, win, out);
            small_wrong += memcmp(out, ref, (size_t)n * 4) != 0;
        }
        /* windows shifted by h / 2 */
        if (h >= 2) {
            windowed(s, k0, nk, qb, W, h, h / 2, start, win, out);
            shifted_wrong += memcmp(out, ref, (size_t)n * 4) != 0;
        }
        /* the summed strides 2h - 1, shifted: exact for any input */
        windowed(s, k0, nk, qb, 4 * (2 * h - 1) + 4, 2 * h - 1, h / 2 + 1, start, win, out);
        summed_wrong += memcmp(out, ref, (size_t)n * 4) != 0;
        sn_schedule_destroy(s);
    }
    printf("%d chunks: the rule wrong %d times, a smaller halo %d, shifted windows %d, the summed "
           "halo %d\n",
           trials, rule_wrong, small_wrong, shifted_wrong, summed_wrong);
    CHECK(trials == 3000);
    CHECK(rule_wrong == 0);
    CHECK(summed_wrong == 0);
    CHECK(small_wrong > 0);   /* the halo is tight */
    CHECK(shifted_wrong > 0); /* and the alignment matters */
    sn_free(keys);
    sn_free(ref);
    sn_free(out);
    sn_free(win);
    sn_free(start);
    return sn_test_finish("test_halo");
}
