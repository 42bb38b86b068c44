/* check.c - the 0-1 principle brute force on an OpenCL device.
 *
 * A kernel is generated for the network: every wire is a 32-bit word in a
 * register (one bit per input), a comparator is an AND and an OR, and the
 * words are made from the work-item id (input x = 32 * id + lane + base,
 * bit i of x on wire i), so nothing but the verdict touches memory. Each
 * launch covers one chunk of inputs, sized so that a launch stays well
 * under a second; a work-item that finds an unsorted output records its
 * id with atomic_min (the smallest failing input lies in the smallest such
 * word) and adds its failures to the chunk's count. The host then finds
 * the lane by replaying that word's 32 inputs. Comparators that swapped on
 * none of a few thousand random inputs are tracked on the device too, so
 * the redundant comparators are exact. Same numbering, verdict, smallest
 * counterexample and counts as the CPU checker (src/core/check.h). */
#include "gpu/gpu_internal.h"
#include "core/srcbuf.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h" /* sn_rand_next */

#define MAX_TRACKED 256
#define CHUNK_MAX_ITEMS ((size_t)1 << 26) /* 2^31 inputs: the count fits 32 bits */

static double now_s(void)
{
    return sn_gpu_now_ms() / 1e3;
}

/* Output of the network on 0-1 input x (bit i = wire i). */
static uint64_t apply(const sn_comparator *c, size_t m, uint64_t x)
{
    for (size_t j = 0; j < m; j++) {
        uint64_t ba = (x >> c[j].a) & 1u, bb = (x >> c[j].b) & 1u;
        if (ba && !bb)
            x ^= ((uint64_t)1 << c[j].a) | ((uint64_t)1 << c[j].b);
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

static sn_status build_kernel(sn_gpu *g, const sn_comparator *c, size_t m, uint32_t n,
                              const size_t *track, size_t ntrack, cl_program *prog, cl_kernel *k,
                              sn_diag *diag)
{
    static const char *const pat[5] = {"0xAAAAAAAAu", "0xCCCCCCCCu", "0xF0F0F0F0u", "0xFF00FF00u",
                                       "0xFFFF0000u"};
    sn_srcbuf b = {0};
    sn_srcbuf_add(&b, "__kernel void sn_check01(ulong base, ulong total, __global uint *minfail,\n"
                      "                         __global uint *count, __global uint *seen)\n{\n"
                      "    uint gid = (uint)get_global_id(0);\n"
                      "    ulong x0 = base + ((ulong)gid << 5);\n"
                      "    if (x0 >= total) return;\n"
                      "    ulong left = total - x0;\n"
                      "    uint valid = left >= 32 ? 0xFFFFFFFFu : ((1u << (uint)left) - 1u);\n");
    for (uint32_t i = 0; i < n; i++) {
        if (i < 5)
            sn_srcbuf_add(&b, "    uint w%u = %s;\n", i, pat[i]);
        else
            sn_srcbuf_add(&b, "    uint w%u = ((x0 >> %u) & 1UL) ? 0xFFFFFFFFu : 0u;\n", i, i);
    }
    for (size_t t = 0; t < ntrack; t++)
        sn_srcbuf_add(&b, "    uint r%zu = 0;\n", t);
    size_t ti = 0;
    for (size_t j = 0; j < m; j++) {
        if (ti < ntrack && track[ti] == j)
            sn_srcbuf_add(&b, "    r%zu |= w%u & ~w%u;\n", ti++, c[j].a, c[j].b);
        sn_srcbuf_add(&b, "    { uint t = w%u & w%u; w%u |= w%u; w%u = t; }\n", c[j].a, c[j].b,
                      c[j].b, c[j].a, c[j].a);
    }
    sn_srcbuf_add(&b, "    uint bad = 0u;\n");
    for (uint32_t i = 0; i + 1 < n; i++)
        sn_srcbuf_add(&b, "    bad |= w%u & ~w%u;\n", i, i + 1);
    sn_srcbuf_add(&b, "    bad &= valid;\n"
                      "    if (bad) {\n"
                      "        atomic_min(minfail, gid);\n"
                      "        atomic_add(count, (uint)popcount(bad));\n"
                      "    }\n");
    for (size_t t = 0; t < ntrack; t++)
        sn_srcbuf_add(&b, "    if (r%zu & valid) atomic_or(&seen[%zu], %uu);\n", t, t / 32,
                      1u << (t % 32));
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
 * once); only the others need tracking on the device. */
static void random_swaps(const sn_comparator *c, size_t m, uint32_t n, uint8_t *swapped)
{
    uint64_t seed = 0x0123456789abcdefull;
    uint64_t w[64];
    for (int rep = 0; rep < 64; rep++) {
        for (uint32_t i = 0; i < n; i++)
            w[i] = sn_rand_next(&seed);
        for (size_t j = 0; j < m; j++) {
            uint64_t x = w[c[j].a], y = w[c[j].b];
            if (x & ~y)
                swapped[j] = 1;
            w[c[j].a] = x & y;
            w[c[j].b] = x | y;
        }
    }
}

/* One device run: the kernel, its buffers and what the chunks found. */
typedef struct check_run {
    sn_gpu *g;
    cl_program prog;
    cl_kernel k;
    cl_mem bmin, bcount, bseen;
    size_t seen_words;
    uint32_t seen[MAX_TRACKED / 32 + 1];
    cl_ulong lo;    /* the first input checked (a multiple of 32) */
    cl_ulong total; /* one past the last: 2^n for the whole proof */
    bool found;
    uint64_t fail_word, failing;
} check_run;

static sn_status run_buffers(check_run *r, size_t ntrack, sn_diag *diag)
{
    cl_int err;
    r->bmin = clCreateBuffer(r->g->ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
    if (err == CL_SUCCESS)
        r->bcount = clCreateBuffer(r->g->ctx, CL_MEM_READ_WRITE, 4, NULL, &err);
    r->seen_words = ntrack / 32 + 1;
    memset(r->seen, 0, sizeof r->seen);
    if (err == CL_SUCCESS)
        r->bseen = clCreateBuffer(r->g->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  r->seen_words * 4, r->seen, &err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clCreateBuffer", err);
    return SN_OK;
}

/* One launch over `items` words of inputs from base; *dt: its seconds. */
static sn_status run_chunk(check_run *r, cl_ulong base, size_t items, double *dt, sn_diag *diag)
{
    cl_uint init_min = 0xffffffffu, zero = 0;
    sn_status st;
    if ((st = sn_gpu_write(r->g, r->bmin, 4, &init_min, "minfail", diag)) != SN_OK ||
        (st = sn_gpu_write(r->g, r->bcount, 4, &zero, "count", diag)) != SN_OK)
        return st;
    cl_int err = clSetKernelArg(r->k, 0, sizeof base, &base);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 1, sizeof r->total, &r->total);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 2, sizeof(cl_mem), &r->bmin);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 3, sizeof(cl_mem), &r->bcount);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(r->k, 4, sizeof(cl_mem), &r->bseen);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clSetKernelArg(sn_check01)", err);
    double l0 = now_s();
    if ((st = sn_gpu_launch(r->g, r->k, items, r->g->wg, "sn_check01", diag)) != SN_OK)
        return st;
    cl_uint got_min = 0, got_count = 0;
    if ((st = sn_gpu_read(r->g, r->bmin, 0, 4, &got_min, true, "minfail", diag)) != SN_OK ||
        (st = sn_gpu_read(r->g, r->bcount, 0, 4, &got_count, true, "count", diag)) != SN_OK)
        return st;
    *dt = now_s() - l0;
    r->failing += got_count;
    if (!r->found && got_count) {
        r->found = true;
        r->fail_word = base + (uint64_t)got_min * 32;
    }
    return SN_OK;
}

/* Every input in chunks sized to stay well under a second a launch. */
static sn_status run_all(check_run *r, const sn_check_options *opt, double t0, sn_diag *diag)
{
    size_t items_all = (size_t)((r->total - r->lo + 31) / 32);
    size_t items = (size_t)1 << 16; /* grows while launches are short */
    for (cl_ulong base = r->lo; base < r->total;) {
        if (opt && opt->cancel && *opt->cancel)
            return SN_EINTERRUPTED;
        size_t left = (size_t)((r->total - base + 31) / 32);
        size_t now = items < left ? items : left;
        double dt = 0;
        sn_status st = run_chunk(r, base, now, &dt, diag);
        if (st != SN_OK)
            return st;
        base += (cl_ulong)now * 32;
        /* aim at about a quarter of a second per launch, never over one */
        if (dt < 0.12 && items < CHUNK_MAX_ITEMS && items < items_all)
            items *= 2;
        else if (dt > 0.6 && items > 1024)
            items /= 2;
        if (opt && opt->progress) {
            double frac = (double)(base - r->lo) / (double)(r->total - r->lo);
            double el = now_s() - t0;
            opt->progress(frac, frac > 0 ? el / frac - el : -1.0, opt->progress_user);
        }
    }
    return sn_gpu_read(r->g, r->bseen, 0, r->seen_words * 4, r->seen, true, "seen", diag);
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

/* The smallest failing input of r: the first unsorted lane of the
 * smallest failing word, replayed on the host. */
static uint64_t first_failing(const check_run *r, const sn_comparator *c, size_t m, uint32_t n)
{
    for (uint64_t lane = 0; lane < 32 && r->fail_word + lane < r->total; lane++)
        if (!sorted01(apply(c, m, r->fail_word + lane), n))
            return r->fail_word + lane;
    return r->fail_word;
}

/* The counterexample x, its output and its first unsorted position. */
static sn_status counterexample(sn_check_result *res, uint64_t x, const sn_comparator *c, size_t m,
                                uint32_t n, sn_diag *diag)
{
    uint64_t y = apply(c, m, x);
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
                           "2^%u inputs: hours or more even on a large GPU (2^40 inputs of a "
                           "265-comparator network take seconds there)",
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
    check_run r;
    memset(&r, 0, sizeof r);
    r.g = g;
    r.lo = lo;
    r.total = hi;
    if (!c || !track) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %zu comparators", m);
        goto done;
    }
    for (size_t j = 0; j < m; j++)
        sn_network_comparator(net, j, &c[j], NULL);
    random_swaps(c, m, n, swapped);
    size_t ntrack = 0;
    for (size_t j = 0; j < m; j++)
        if (!swapped[j])
            track[ntrack++] = j;
    if (ntrack > MAX_TRACKED) {
        st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                         "%zu comparators never swapped on random inputs: too many to track on "
                         "the device (at most %d); check on the CPU",
                         ntrack, MAX_TRACKED);
        goto done;
    }
    if (lo == hi)
        goto done;
    if ((st = build_kernel(g, c, m, n, track, ntrack, &r.prog, &r.k, diag)) != SN_OK ||
        (st = run_buffers(&r, ntrack, diag)) != SN_OK || (st = run_all(&r, opt, t0, diag)) != SN_OK)
        goto done;
    for (size_t t = 0; t < ntrack; t++)
        if ((r.seen[t / 32] >> (t % 32)) & 1u)
            swapped[track[t]] = 1;
    *failing = r.failing;
    if (r.found)
        *first = first_failing(&r, c, m, n);
done:
    if (st != SN_OK)
        clFinish(g->queue);
    run_release(&r);
    sn_free(c);
    sn_free(track);
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
