/* check.c - the 0-1 principle brute force on an OpenCL device.
 *
 * A kernel is generated for the network: every wire is a 32-bit word in a
 * register (one bit per input), a comparator is an AND and an OR, and the
 * words are made from the work-item id and a loop counter, so nothing but
 * the verdict touches memory. Input x puts bit i on wire i; bits 0..4 are
 * the 32 lanes of a word, bits 5..4+L a work-item's loop over 2^L words,
 * and the bits above the work-item (check_loop.h). The comparators that
 * see only wires fixed for the whole loop (the lanes' and the high
 * wires') are evaluated once per work-item, before the loop: for the
 * library's 44- and 48-wire networks, whose first layers sort blocks of
 * 16 wires apart, about a quarter of the comparators. L is chosen per
 * network by counting the operations a word costs, leaving enough
 * work-items to fill the device (docs/gpu-speed.md).
 *
 * Each launch covers one chunk of work-items, sized so that a launch stays
 * well under a second; a work-item that finds an unsorted output records
 * its id with atomic_min (the smallest failing input lies in the smallest
 * such work-item, whose words the host then replays) and adds its failures
 * to the chunk's 64-bit count. The sortedness test skips the adjacent
 * outputs that the network's last comparator on both already orders.
 * Comparators that swapped on none of the probe inputs (random inputs of
 * every weight, tried on the host first: for the library's networks that
 * leaves none) are tracked on the device too, so the redundant comparators
 * are exact. A range whose end is not a whole word leaves its last
 * (at most 31) inputs to the host. Same numbering, verdict, smallest
 * counterexample and counts as the CPU checker (src/core/check.h). */
#include "gpu/gpu_internal.h"
#include "gpu/check_loop.h"
#include "core/srcbuf.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h" /* sn_rand_next */

#define MAX_TRACKED 256
#define CHUNK_MAX_ITEMS ((size_t)1 << 26) /* minfail (a work-item of the chunk) fits 32 bits */
#define LANE_BITS 5
#define PROBE_WORDS 64 /* 64-input words of random inputs per weight */

static int forced_loop_bits = -1;

void sn_gpu_check_force_loop_bits(int bits)
{
    forced_loop_bits = bits;
}

static double now_s(void)
{
    return sn_gpu_now_ms() / 1e3;
}

/* Output of the network on 0-1 input x (bit i = wire i); swapped (may be
 * NULL) gets a 1 for every comparator that swaps. */
static uint64_t apply(const sn_comparator *c, size_t m, uint64_t x, uint8_t *swapped)
{
    for (size_t j = 0; j < m; j++) {
        uint64_t ba = (x >> c[j].a) & 1u, bb = (x >> c[j].b) & 1u;
        if (ba && !bb) {
            x ^= ((uint64_t)1 << c[j].a) | ((uint64_t)1 << c[j].b);
            if (swapped)
                swapped[j] = 1;
        }
    }
    return x;
}

static bool sorted01(uint64_t y, uint32_t n)
{
    /* ascending: all 0s, then all 1s: y is a run of ones at the top */
    uint64_t all = n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    uint64_t ones = y & all;
    uint64_t low = ones & (~ones + 1); /* lowest set bit */
    return ones == 0 || ((ones + low) & all) == 0;
}

/* hoist[j] = 1 for the comparators that see only wires fixed for a
 * work-item's loop over L bits (in order: a comparator touching a wire
 * the loop changes makes both its wires change with the loop). */
static size_t split_loop(const sn_comparator *c, size_t m, uint32_t n, unsigned L, uint8_t *hoist)
{
    uint8_t fixed[64];
    for (uint32_t i = 0; i < n; i++)
        fixed[i] = i < LANE_BITS || i >= LANE_BITS + L;
    size_t shared = 0;
    for (size_t j = 0; j < m; j++) {
        bool once = fixed[c[j].a] && fixed[c[j].b];
        if (hoist)
            hoist[j] = once;
        shared += once;
        if (!once)
            fixed[c[j].a] = fixed[c[j].b] = 0;
    }
    return shared;
}

void sn_gpu_check_split(const sn_network *net, unsigned loop_bits, size_t *shared, size_t *looped)
{
    uint32_t n = sn_network_wires(net);
    size_t m = sn_network_size(net);
    *shared = 0;
    *looped = m;
    sn_comparator *c = sn_malloc((m ? m : 1) * sizeof *c);
    if (n > 64 || !c) {
        sn_free(c);
        return;
    }
    for (size_t j = 0; j < m; j++)
        sn_network_comparator(net, j, &c[j], NULL);
    unsigned most = n < LANE_BITS ? 0 : n - LANE_BITS;
    *shared = split_loop(c, m, n, loop_bits < most ? loop_bits : most, NULL);
    *looped = m - *shared;
    sn_free(c);
}

/* skip[i] = 1 when outputs i and i + 1 need no test: the last comparator
 * on either wire is (i, i + 1) for both, which leaves them in order.
 * Returns how many pairs are tested. */
static uint32_t ordered_pairs(const sn_comparator *c, size_t m, uint32_t n, uint8_t *skip)
{
    size_t last[64];
    for (uint32_t i = 0; i < n; i++)
        last[i] = SIZE_MAX;
    for (size_t j = 0; j < m; j++)
        last[c[j].a] = last[c[j].b] = j;
    uint32_t tested = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        size_t j = last[i];
        skip[i] = j != SIZE_MAX && last[i + 1] == j && c[j].a == i && c[j].b == i + 1;
        tested += !skip[i];
    }
    return tested;
}

/* The loop bits for net on g: the L whose word costs the fewest
 * operations (the looped comparators, tracked comparators and
 * sortedness tests each word, the shared ones over 2^L words), leaving
 * at least 4096 work-items a compute unit in a whole proof. */
static unsigned choose_loop(const sn_gpu *g, const sn_comparator *c, size_t m, uint32_t n,
                            const uint8_t *tracked, uint32_t tested, uint8_t *hoist)
{
    if (n <= LANE_BITS)
        return 0;
    unsigned most = n - LANE_BITS;
    if (forced_loop_bits >= 0)
        return (unsigned)forced_loop_bits < most ? (unsigned)forced_loop_bits : most;
    uint64_t want = (uint64_t)(g->info.compute_units ? g->info.compute_units : 1) * 4096;
    unsigned items_bits = 0;
    while (((uint64_t)1 << items_bits) < want)
        items_bits++;
    unsigned cap = most > items_bits ? most - items_bits : 0;
    if (cap > SN_GPU_CHECK_MAX_LOOP_BITS)
        cap = SN_GPU_CHECK_MAX_LOOP_BITS;
    unsigned best = 0;
    double best_cost = 0;
    for (unsigned L = 0; L <= cap; L++) {
        split_loop(c, m, n, L, hoist);
        double each = 2.0 * L + 4 + tested, once = 3.0 * (n - LANE_BITS - L) + 12;
        for (size_t j = 0; j < m; j++) {
            double ops = 2.0 + tracked[j];
            if (hoist[j])
                once += ops;
            else
                each += ops;
        }
        double cost = each + once / (double)((uint64_t)1 << L);
        if (L == 0 || cost < best_cost) {
            best = L;
            best_cost = cost;
        }
    }
    return best;
}

static void add_comparator(sn_srcbuf *b, char v, const sn_comparator *c, long t)
{
    if (t >= 0)
        sn_srcbuf_add(b, "    r%ld |= %c%u & ~%c%u;\n", t, v, c->a, v, c->b);
    sn_srcbuf_add(b, "    { uint t = %c%u & %c%u; %c%u |= %c%u; %c%u = t; }\n", v, c->a, v, c->b, v,
                  c->b, v, c->a, v, c->a);
}

static sn_status build_kernel(sn_gpu *g, const sn_comparator *c, size_t m, uint32_t n,
                              const size_t *track, size_t ntrack, unsigned L, const uint8_t *hoist,
                              const uint8_t *skip, cl_program *prog, cl_kernel *k, sn_diag *diag)
{
    static const char *const pat[LANE_BITS] = {"0xAAAAAAAAu", "0xCCCCCCCCu", "0xF0F0F0F0u",
                                               "0xFF00FF00u", "0xFFFF0000u"};
    sn_srcbuf b = {0};
    sn_srcbuf_add(&b,
                  "__kernel void sn_check01(ulong gbase, ulong wlo, ulong whi,\n"
                  "                         __global uint *minfail, __global uint *count,\n"
                  "                         __global uint *seen)\n{\n"
                  "    uint gid = (uint)get_global_id(0);\n"
                  "    ulong g = gbase + gid;\n"
                  "    ulong wb = g << %u;\n"
                  "    ulong a = wb > wlo ? wb : wlo;\n"
                  "    ulong e = wb + %lluUL;\n"
                  "    e = e < whi ? e : whi;\n"
                  "    if (a >= e) return;\n"
                  "    uint i0 = (uint)(a - wb), i1 = (uint)(e - wb);\n",
                  L, (unsigned long long)1 << L);
    for (uint32_t i = 0; i < n; i++) {
        if (i < LANE_BITS)
            sn_srcbuf_add(&b, "    uint w%u = %s;\n", i, pat[i]);
        else if (i >= LANE_BITS + L)
            sn_srcbuf_add(&b, "    uint w%u = -(uint)((g >> %u) & 1UL);\n", i, i - LANE_BITS - L);
    }
    for (size_t t = 0; t < ntrack; t++)
        sn_srcbuf_add(&b, "    uint r%zu = 0;\n", t);
    size_t ti = 0;
    for (size_t j = 0; j < m; j++) {
        long t = ti < ntrack && track[ti] == j ? (long)ti++ : -1;
        if (hoist[j])
            add_comparator(&b, 'w', &c[j], t);
    }
    sn_srcbuf_add(&b, "    uint fails = 0u;\n"
                      "    for (uint it = i0; it < i1; it++) {\n");
    for (uint32_t i = 0; i < n; i++) {
        if (i >= LANE_BITS && i < LANE_BITS + L)
            sn_srcbuf_add(&b, "    uint v%u = -((it >> %u) & 1u);\n", i, i - LANE_BITS);
        else
            sn_srcbuf_add(&b, "    uint v%u = w%u;\n", i, i);
    }
    ti = 0;
    for (size_t j = 0; j < m; j++) {
        long t = ti < ntrack && track[ti] == j ? (long)ti++ : -1;
        if (!hoist[j])
            add_comparator(&b, 'v', &c[j], t);
    }
    sn_srcbuf_add(&b, "    uint bad = 0u;\n");
    for (uint32_t i = 0; i + 1 < n; i++)
        if (!skip[i])
            sn_srcbuf_add(&b, "    bad |= v%u & ~v%u;\n", i, i + 1);
    sn_srcbuf_add(&b, "    if (bad) fails += popcount(bad);\n"
                      "    }\n"
                      "    if (fails) {\n"
                      "        atomic_min(minfail, gid);\n"
                      "        uint old = atomic_add(&count[0], fails);\n"
                      "        if (old + fails < old) atomic_inc(&count[1]);\n"
                      "    }\n");
    for (size_t t = 0; t < ntrack; t++)
        sn_srcbuf_add(&b, "    if (r%zu) atomic_or(&seen[%zu], %uu);\n", t, t / 32, 1u << (t % 32));
    sn_srcbuf_add(&b, "}\n");
    if (b.oom) {
        sn_free(b.s);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory generating the check kernel");
    }
    sn_status st = sn_gpu_build_source(g, b.s, false, prog, diag);
    sn_free(b.s);
    if (st != SN_OK)
        return st;
    cl_int err;
    *k = clCreateKernel(*prog, "sn_check01", &err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clCreateKernel(sn_check01)", err);
    return SN_OK;
}

/* Which comparators swap on random 0-1 inputs (host, bit-sliced, 64 at
 * once): PROBE_WORDS words of inputs with exactly k ones for every k, so
 * that the comparators deep in a network, which only nearly sorted inputs
 * (few ones or few zeros) make swap, are seen too; only the others need
 * tracking on the device. */
static void random_swaps(const sn_comparator *c, size_t m, uint32_t n, uint8_t *swapped)
{
    uint64_t seed = 0x0123456789abcdefull;
    uint64_t w[64];
    uint32_t perm[64];
    size_t seen = 0;
    for (size_t j = 0; j < m; j++)
        seen += swapped[j] != 0;
    for (uint32_t k = 0; k <= n && seen < m; k++) {
        for (int rep = 0; rep < PROBE_WORDS && seen < m; rep++) {
            memset(w, 0, sizeof w);
            for (uint32_t lane = 0; lane < 64; lane++) {
                for (uint32_t i = 0; i < n; i++)
                    perm[i] = i;
                for (uint32_t i = 0; i < k; i++) {
                    uint32_t r = i + (uint32_t)(sn_rand_next(&seed) % (n - i));
                    uint32_t t = perm[i];
                    perm[i] = perm[r];
                    perm[r] = t;
                    w[perm[i]] |= (uint64_t)1 << lane;
                }
            }
            for (size_t j = 0; j < m; j++) {
                uint64_t x = w[c[j].a], y = w[c[j].b];
                if ((x & ~y) && !swapped[j]) {
                    swapped[j] = 1;
                    seen++;
                }
                w[c[j].a] = x & y;
                w[c[j].b] = x | y;
            }
        }
    }
}

/* One device run: the kernel, its buffers and what the chunks found.
 * The device takes the whole words [wlo, whi) (32 inputs each) as the
 * work-items [glo, gend), 2^L words each. */
typedef struct check_run {
    sn_gpu *g;
    cl_program prog;
    cl_kernel k;
    cl_mem bmin, bcount, bseen;
    size_t seen_words;
    uint32_t seen[MAX_TRACKED / 32 + 1];
    unsigned L;
    cl_ulong wlo, whi, glo, gend;
    bool found;
    uint64_t fail_item; /* the smallest failing work-item (absolute) */
    uint64_t failing;
} check_run;

static sn_status run_buffers(check_run *r, size_t ntrack, sn_diag *diag)
{
    cl_int err;
    r->bmin = clCreateBuffer(r->g->ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
    if (err == CL_SUCCESS)
        r->bcount = clCreateBuffer(r->g->ctx, CL_MEM_READ_WRITE, 8, NULL, &err);
    r->seen_words = ntrack / 32 + 1;
    memset(r->seen, 0, sizeof r->seen);
    if (err == CL_SUCCESS)
        r->bseen = clCreateBuffer(r->g->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  r->seen_words * 4, r->seen, &err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clCreateBuffer", err);
    return SN_OK;
}

/* One launch over the work-items [gbase, gbase + items); *dt: its seconds. */
static sn_status run_chunk(check_run *r, cl_ulong gbase, size_t items, double *dt, sn_diag *diag)
{
    cl_uint init_min = 0xffffffffu, zero[2] = {0, 0};
    sn_status st;
    if ((st = sn_gpu_write(r->g, r->bmin, 4, &init_min, "minfail", diag)) != SN_OK ||
        (st = sn_gpu_write(r->g, r->bcount, 8, zero, "count", diag)) != SN_OK)
        return st;
    cl_int err = clSetKernelArg(r->k, 0, sizeof gbase, &gbase);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 1, sizeof r->wlo, &r->wlo);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 2, sizeof r->whi, &r->whi);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 3, sizeof(cl_mem), &r->bmin);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 4, sizeof(cl_mem), &r->bcount);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 5, sizeof(cl_mem), &r->bseen);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clSetKernelArg(sn_check01)", err);
    double l0 = now_s();
    if ((st = sn_gpu_launch(r->g, r->k, items, r->g->wg, "sn_check01", diag)) != SN_OK)
        return st;
    cl_uint got_min = 0, got_count[2] = {0, 0};
    if ((st = sn_gpu_read(r->g, r->bmin, 0, 4, &got_min, true, "minfail", diag)) != SN_OK ||
        (st = sn_gpu_read(r->g, r->bcount, 0, 8, got_count, true, "count", diag)) != SN_OK)
        return st;
    *dt = now_s() - l0;
    uint64_t got = (uint64_t)got_count[1] << 32 | got_count[0];
    r->failing += got;
    if (!r->found && got) {
        r->found = true;
        r->fail_item = gbase + got_min;
    }
    return SN_OK;
}

/* Every work-item in chunks sized to stay well under a second a launch. */
static sn_status run_all(check_run *r, const sn_check_options *opt, double t0, sn_diag *diag)
{
    cl_ulong items_all = r->gend - r->glo;
    size_t items = (size_t)1 << 16; /* grows while launches are short */
    for (cl_ulong gb = r->glo; gb < r->gend;) {
        if (opt && opt->cancel && *opt->cancel)
            return SN_EINTERRUPTED;
        cl_ulong left = r->gend - gb;
        size_t now = items < left ? items : (size_t)left;
        double dt = 0;
        sn_status st = run_chunk(r, gb, now, &dt, diag);
        if (st != SN_OK)
            return st;
        gb += now;
        /* aim at about a quarter of a second per launch, never over one */
        if (dt < 0.12 && items < CHUNK_MAX_ITEMS && items < items_all)
            items *= 2;
        else if (dt > 0.6 && items > 1024)
            items /= 2;
        if (opt && opt->progress) {
            double frac = (double)(gb - r->glo) / (double)items_all;
            double el = now_s() - t0;
            opt->progress(frac, frac > 0 ? el / frac - el : -1.0, opt->progress_user);
        }
    }
    return sn_gpu_read(r->g, r->bseen, 0, r->seen_words * 4, r->seen, true, "seen", diag);
}

/* The inputs [from, hi) on the host (the range's last, partial word, or
 * all of a network of under 5 wires): failures counted into *failing, the
 * first into *first when it is still UINT64_MAX, swaps into swapped. */
static void host_part(const sn_comparator *c, size_t m, uint32_t n, uint64_t from, uint64_t hi,
                      uint64_t *failing, uint64_t *first, uint8_t *swapped)
{
    for (uint64_t x = from; x < hi; x++)
        if (!sorted01(apply(c, m, x, swapped), n)) {
            (*failing)++;
            if (*first == UINT64_MAX)
                *first = x;
        }
}

/* The comparators that never swapped (exact: tracked on the device). */
static sn_status redundant(sn_check_result *res, const uint8_t *swapped, size_t m, sn_diag *diag)
{
    size_t nred = 0;
    for (size_t j = 0; j < m; j++)
        nred += !swapped[j];
    if (!nred)
        return SN_OK;
    res->redundant = sn_malloc(nred * sizeof *res->redundant);
    if (!res->redundant)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (size_t j = 0; j < m; j++)
        if (!swapped[j])
            res->redundant[res->redundant_count++] = j;
    return SN_OK;
}

/* The smallest failing input of r: the first unsorted input of the
 * smallest failing work-item's words, replayed on the host. */
static uint64_t first_failing(const check_run *r, const sn_comparator *c, size_t m, uint32_t n)
{
    uint64_t a = r->fail_item << r->L, e = a + ((uint64_t)1 << r->L);
    a = a > r->wlo ? a : r->wlo;
    e = e < r->whi ? e : r->whi;
    for (uint64_t x = a * 32; x < e * 32; x++)
        if (!sorted01(apply(c, m, x, NULL), n))
            return x;
    return a * 32;
}

/* The counterexample x, its output and its first unsorted position. */
static sn_status counterexample(sn_check_result *res, uint64_t x, const sn_comparator *c, size_t m,
                                uint32_t n, sn_diag *diag)
{
    uint64_t y = apply(c, m, x, NULL);
    res->counterexample_index = x;
    res->counterexample = sn_calloc(n, 1);
    res->output = sn_calloc(n, 1);
    if (!res->counterexample || !res->output)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        res->counterexample[i] = (uint8_t)((x >> i) & 1u);
        res->output[i] = (uint8_t)((y >> i) & 1u);
    }
    for (uint32_t i = 0; i + 1 < n; i++)
        if (res->output[i] > res->output[i + 1]) {
            res->first_unsorted = i;
            break;
        }
    return SN_OK;
}

static void run_release(check_run *r)
{
    if (r->bmin)
        clReleaseMemObject(r->bmin);
    if (r->bcount)
        clReleaseMemObject(r->bcount);
    if (r->bseen)
        clReleaseMemObject(r->bseen);
    if (r->k)
        clReleaseKernel(r->k);
    if (r->prog)
        clReleaseProgram(r->prog);
}

static sn_status check_size(uint32_t n, const sn_check_options *opt, sn_diag *diag)
{
    if (n > 63)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%u wires: the device brute force handles at most 63 (2^n inputs)", n);
    if (n > 44 && !(opt && opt->force))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "2^%u inputs: minutes or more even on a large GPU (2^48 inputs of a "
                           "346-comparator network take about 4 minutes on an H200, twice that "
                           "for each wire more)",
                           n);
    return SN_OK;
}

sn_status sn_gpu_check_range(sn_gpu *g, const sn_network *net, const sn_check_options *opt,
                             uint64_t lo, uint64_t hi, uint64_t *failing, uint64_t *first,
                             uint8_t *swapped, sn_diag *diag)
{
    uint32_t n = sn_network_wires(net);
    size_t m = sn_network_size(net);
    *failing = 0;
    *first = UINT64_MAX;
    sn_status st = check_size(n, opt, diag);
    if (st != SN_OK)
        return st;
    double t0 = now_s();
    uint64_t total = (uint64_t)1 << n;
    if (lo % 32 != 0 || lo > hi || hi > total)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "inputs [%llu, %llu) are not a range of 32-aligned 0-1 inputs of %u "
                           "wires",
                           (unsigned long long)lo, (unsigned long long)hi, n);
    sn_comparator *c = sn_malloc((m ? m : 1) * sizeof *c);
    size_t *track = sn_malloc((m ? m : 1) * sizeof *track);
    uint8_t *hoist = sn_malloc(m ? m : 1), *tracked = sn_calloc(m ? m : 1, 1);
    uint8_t skip[64];
    check_run r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.wlo = lo / 32;
    r.whi = hi / 32; /* whole words; the rest (at most 31 inputs) on the host */
    if (!c || !track || !hoist || !tracked) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %zu comparators", m);
        goto done;
    }
    for (size_t j = 0; j < m; j++)
        sn_network_comparator(net, j, &c[j], NULL);
    random_swaps(c, m, n, swapped);
    size_t ntrack = 0;
    for (size_t j = 0; j < m; j++)
        if (!swapped[j]) {
            track[ntrack++] = j;
            tracked[j] = 1;
        }
    if (ntrack > MAX_TRACKED) {
        st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                         "%zu comparators never swapped on random inputs: too many to track on "
                         "the device (at most %d); check on the CPU",
                         ntrack, MAX_TRACKED);
        goto done;
    }
    if (r.wlo < r.whi) {
        uint32_t tested = ordered_pairs(c, m, n, skip);
        r.L = choose_loop(g, c, m, n, tracked, tested, hoist);
        split_loop(c, m, n, r.L, hoist);
        r.glo = r.wlo >> r.L;
        r.gend = ((r.whi - 1) >> r.L) + 1;
        if ((st = build_kernel(g, c, m, n, track, ntrack, r.L, hoist, skip, &r.prog, &r.k, diag)) !=
                SN_OK ||
            (st = run_buffers(&r, ntrack, diag)) != SN_OK ||
            (st = run_all(&r, opt, t0, diag)) != SN_OK)
            goto done;
        for (size_t t = 0; t < ntrack; t++)
            if ((r.seen[t / 32] >> (t % 32)) & 1u)
                swapped[track[t]] = 1;
        *failing = r.failing;
        if (r.found)
            *first = first_failing(&r, c, m, n);
    }
    uint64_t tail = r.whi * 32 > lo ? r.whi * 32 : lo;
    host_part(c, m, n, tail, hi, failing, first, swapped);
done:
    if (st != SN_OK)
        clFinish(g->queue);
    run_release(&r);
    sn_free(c);
    sn_free(track);
    sn_free(hoist);
    sn_free(tracked);
    return st;
}

sn_status sn_gpu_check(sn_gpu *g, const sn_network *net, const sn_check_options *opt,
                       sn_check_result *res, sn_diag *diag)
{
    memset(res, 0, sizeof *res);
    uint32_t n = sn_network_wires(net);
    size_t m = sn_network_size(net);
    res->n = n;
    res->method = SN_CHECK_BRUTEFORCE;
    sn_status st = check_size(n, opt, diag);
    if (st != SN_OK)
        return st;
    double t0 = now_s();
    uint8_t *swapped = sn_calloc(m ? m : 1, 1);
    sn_comparator *c = sn_malloc((m ? m : 1) * sizeof *c);
    uint64_t failing = 0, first = UINT64_MAX;
    if (!swapped || !c) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %zu comparators", m);
        goto done;
    }
    for (size_t j = 0; j < m; j++)
        sn_network_comparator(net, j, &c[j], NULL);
    if ((st = sn_gpu_check_range(g, net, opt, 0, (uint64_t)1 << n, &failing, &first, swapped,
                                 diag)) != SN_OK)
        goto done;
    res->inputs = (uint64_t)1 << n;
    res->failing_count = failing;
    res->sorts = failing == 0;
    if ((st = redundant(res, swapped, m, diag)) != SN_OK)
        goto done;
    if (first != UINT64_MAX && (st = counterexample(res, first, c, m, n, diag)) != SN_OK)
        goto done;
    res->seconds = now_s() - t0;
done:
    if (st != SN_OK)
        sn_check_result_free(res);
    sn_free(c);
    sn_free(swapped);
    return st;
}
