/* verify.c - prove the device run identical to the CPU reference, or name
 * the first layer and wire where they part.
 *
 * Three methods (sn_gpu_method): small runs snapshot every layer's array on
 * the device and compare them all after one wait; large runs compare
 * per-layer digests reduced on the device (sn_digest's order-independent
 * sum, so a reduction computes exactly the reference's value; the host only
 * adds the work-groups' partial sums) against the reference executor's
 * (sn_exec_layer layer by layer, its digest summed by host threads), plus
 * the final array, and localise a digest mismatch by running both executors again up
 * to that layer; --per-layer and user kernels run in lockstep, reading the
 * whole array back after every layer. Every method compares bits, never
 * values, so -0.0 versus +0.0 or two NaNs count as different. */
#include "gpu/gpu_internal.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/parallel.h"

/* ---- the reference's per-layer digests, with the digest summed by
 * several threads for large n (the sum is order-independent, so the value
 * is exactly sn_digest's; only the layers run single-threaded). */

#define DIGEST_THREADS_MAX 32

typedef struct digest_job {
    const uint32_t *keys;
    uint32_t n, parts;
    uint64_t sum[DIGEST_THREADS_MAX]; /* per part */
} digest_job;

/* Part i of sn_parallel_for: the sum over [n i / parts, n (i+1) / parts). */
static void digest_part(void *ctx, size_t i)
{
    digest_job *j = ctx;
    uint32_t lo = (uint32_t)((uint64_t)j->n * i / j->parts);
    uint32_t hi = (uint32_t)((uint64_t)j->n * (i + 1) / j->parts);
    uint64_t s = 0;
    for (uint32_t k = lo; k < hi; k++)
        s += sn_digest_mix(k, j->keys[k]);
    j->sum[i] = s;
}

static uint64_t digest_parallel(const uint32_t *keys, uint32_t n)
{
    unsigned cpus = sn_parallel_cpus();
    uint32_t nt = cpus < DIGEST_THREADS_MAX ? cpus : DIGEST_THREADS_MAX;
    if (n < (1u << 20) || nt == 1)
        return sn_digest(keys, n);
    digest_job j = {.keys = keys, .n = n, .parts = nt};
    sn_parallel_for(nt, nt, digest_part, &j);
    uint64_t sum = 0;
    for (uint32_t t = 0; t < nt; t++)
        sum += j.sum[t];
    return sum;
}

/* First i in [lo, hi) with a[i] != b[i], or hi. */
static uint32_t first_diff_in(const uint32_t *a, const uint32_t *b, uint32_t lo, uint32_t hi)
{
    if (memcmp(a + lo, b + lo, (size_t)(hi - lo) * 4) == 0)
        return hi;
    uint32_t i = lo;
    while (a[i] == b[i])
        i++;
    return i;
}

/* Large arrays are compared in pieces on all cores, each piece's first
 * difference kept: the first of them is the answer. */
#define DIFF_PIECE ((uint32_t)1 << 16)

typedef struct diff_job {
    const uint32_t *a, *b;
    uint32_t n;
    uint32_t *first; /* per piece */
} diff_job;

static void diff_piece(void *ctx, size_t i)
{
    const diff_job *j = ctx;
    uint32_t lo = (uint32_t)(i * DIFF_PIECE), hi = j->n - lo > DIFF_PIECE ? lo + DIFF_PIECE : j->n;
    j->first[i] = first_diff_in(j->a, j->b, lo, hi);
}

/* First i with a[i] != b[i], or n. */
static uint32_t first_diff(const uint32_t *a, const uint32_t *b, uint32_t n)
{
    size_t pieces = ((size_t)n + DIFF_PIECE - 1) / DIFF_PIECE;
    uint32_t *first = pieces > 1 ? sn_calloc(pieces, sizeof *first) : NULL;
    if (!first)
        return first_diff_in(a, b, 0, n);
    diff_job j = {a, b, n, first};
    sn_parallel_for(pieces, 0, diff_piece, &j);
    uint32_t at = n;
    for (size_t i = 0; i < pieces && at == n; i++)
        at = first[i] < (i + 1) * (size_t)DIFF_PIECE && first[i] < n ? first[i] : at;
    sn_free(first);
    return at;
}

/* Compare one step's keys (and payload); true and *rep filled on a
 * mismatch after layer k. */
static bool mismatch(sn_gpu_report *rep, size_t k, const uint32_t *exp, const uint32_t *act,
                     const uint32_t *exp_pay, const uint32_t *act_pay, uint32_t n)
{
    uint32_t i = first_diff(exp, act, n);
    bool pay = false;
    if (i == n && exp_pay && act_pay) {
        i = first_diff(exp_pay, act_pay, n);
        pay = true;
    }
    if (i == n)
        return false;
    rep->identical = false;
    rep->layer = k;
    rep->index = i;
    rep->in_payload = pay;
    rep->expected = pay ? exp_pay[i] : exp[i];
    rep->actual = pay ? act_pay[i] : act[i];
    return true;
}

/* A copy of src[0..n) and the identity 0..n-1, on all cores for large n
 * (a fresh buffer of gigabytes costs more in page faults than in copying:
 * each thread faults in the pages it writes). */
static uint32_t *dup_words(const uint32_t *src, uint32_t n)
{
    uint32_t *d = sn_malloc((size_t)n * 4 + 4);
    if (d && n)
        sn_parallel_copy(d, src, n, 0);
    return d;
}

static uint32_t *identity(uint32_t n)
{
    uint32_t *d = sn_malloc((size_t)n * 4 + 4);
    if (d)
        sn_parallel_iota(d, n, 0);
    return d;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The caller's progress hook (fn may be NULL). */
typedef struct progress {
    sn_gpu_progress_fn fn;
    void *ctx;
} progress;

/* A phase ended: its time into *slot and to the caller's progress hook. */
static void phase_done(const progress *o, const char *phase, double t0, double *slot,
                       unsigned threads)
{
    double sec = now_s() - t0;
    if (slot)
        *slot = sec;
    if (o->fn)
        o->fn(o->ctx, phase, sec, threads);
}

/* ---- lockstep: the reference one layer behind the device */

sn_status sn_lockstep_ref_init(sn_lockstep_ref *r, const sn_schedule *s, sn_key_type t,
                               const uint32_t *input, bool with_payload, sn_diag *diag)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->t = t;
    r->n = sn_schedule_wires(s);
    r->keys = dup_words(input, r->n);
    r->pay = with_payload ? identity(r->n) : NULL;
    if (!r->keys || (with_payload && !r->pay)) {
        sn_lockstep_ref_free(r);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", r->n);
    }
    return SN_OK;
}

bool sn_lockstep_ref_step(sn_lockstep_ref *r, size_t k, const uint32_t *dev,
                          const uint32_t *dev_pay, sn_gpu_report *rep)
{
    sn_exec_layer(r->s, k, r->t, r->keys, r->pay, NULL);
    return mismatch(rep, k, r->keys, dev, r->pay, r->pay ? dev_pay : NULL, r->n);
}

void sn_lockstep_ref_free(sn_lockstep_ref *r)
{
    sn_free(r->keys);
    sn_free(r->pay);
    r->keys = r->pay = NULL;
}

/* ---- lockstep with our kernels */

static sn_status verify_lockstep(sn_gpu *g, const sn_schedule *s, sn_key_type t,
                                 const uint32_t *input, bool with_payload,
                                 const sn_gpu_verify_opts *o, sn_gpu_variant v, sn_gpu_report *rep,
                                 sn_diag *diag)
{
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    size_t bytes = (size_t)n * 4;
    sn_gpu_bufs b;
    sn_status st = sn_gpu_bufs_create(g, s, v, with_payload, 0, false, &b, diag);
    if (st != SN_OK)
        return st;
    sn_lockstep_ref ref;
    if ((st = sn_lockstep_ref_init(&ref, s, t, input, with_payload, diag)) != SN_OK) {
        sn_gpu_bufs_destroy(&b);
        return st;
    }
    uint32_t *dev = sn_malloc(bytes + 4);
    uint32_t *dev_pay = with_payload ? sn_malloc(bytes + 4) : NULL;
    if (!dev || (with_payload && !dev_pay)) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", n);
        goto done;
    }
    if ((st = sn_gpu_write(g, b.keys, bytes, ref.keys, "keys", diag)) != SN_OK)
        goto done;
    if (with_payload && (st = sn_gpu_write(g, b.pay, bytes, ref.pay, "payload", diag)) != SN_OK)
        goto done;
    for (size_t k = 0; k < L; k++) {
        if ((st = sn_gpu_enqueue_layer(g, &b, s, v, t, k, diag)) != SN_OK)
            goto done;
        if (o->inject && k == o->inject_layer &&
            (st = sn_gpu_enqueue_inject(g, &b, o->inject_index, diag)) != SN_OK)
            goto done;
        if ((st = sn_gpu_read(g, b.keys, 0, bytes, dev, true, "keys", diag)) != SN_OK)
            goto done;
        if (with_payload &&
            (st = sn_gpu_read(g, b.pay, 0, bytes, dev_pay, true, "payload", diag)) != SN_OK)
            goto done;
        if (sn_lockstep_ref_step(&ref, k, dev, dev_pay, rep))
            break;
    }
done:
    sn_lockstep_ref_free(&ref);
    sn_free(dev);
    sn_free(dev_pay);
    sn_gpu_bufs_destroy(&b);
    return st;
}

/* ---- a user's layer kernel, layer by layer (keys as ordered keys) */

#define USER_KERNEL "sn_layer"
#define USER_ARGS 8

/* Build the user's source and find its kernel with the documented
 * arguments: SN_EBUILD (the build log in diag) or SN_EPARSE when not. */
static sn_status user_kernel(sn_gpu *g, const char *source, cl_program *prog, cl_kernel *kk,
                             sn_diag *diag)
{
    sn_status st = sn_gpu_build_source(g, source, true, prog, diag);
    if (st != SN_OK)
        return st;
    cl_int err;
    *kk = clCreateKernel(*prog, USER_KERNEL, &err);
    if (err != CL_SUCCESS)
        return sn_diag_set(diag, SN_EPARSE, 0, 0,
                           "clCreateKernel(" USER_KERNEL "): %s (%d): the file must define "
                           "__kernel void " USER_KERNEL "(...) (see docs/student-kernel.md)",
                           sn_gpu_cl_error_name(err), (int)err);
    cl_uint nargs = 0;
    err = clGetKernelInfo(*kk, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", err);
    if (nargs != USER_ARGS)
        return sn_diag_set(diag, SN_EPARSE, 0, 0,
                           USER_KERNEL " takes %u arguments, expected %d: (keys, payload, pairs, "
                                       "count, n, algo, p, q) (see docs/student-kernel.md)",
                           (unsigned)nargs, USER_ARGS);
    return SN_OK;
}

/* The user's kernel on one layer of `count` pairs (already uploaded). */
static sn_status user_launch(sn_gpu *g, cl_kernel kk, cl_mem *bufs, size_t count, uint32_t n,
                             sn_layer_form f, sn_diag *diag)
{
    cl_uint cnt = (cl_uint)count, nn = n, algo = (cl_uint)f.algo, p = f.p, q = f.q;
    const struct {
        size_t size;
        const void *v;
    } args[USER_ARGS] = {
        {sizeof(cl_mem), &bufs[0]},
        {sizeof(cl_mem), &bufs[1]},
        {sizeof(cl_mem), &bufs[2]},
        {sizeof cnt, &cnt},
        {sizeof nn, &nn},
        {sizeof algo, &algo},
        {sizeof p, &p},
        {sizeof q, &q},
    };
    for (cl_uint a = 0; a < USER_ARGS; a++) {
        cl_int err = clSetKernelArg(kk, a, args[a].size, args[a].v);
        if (err != CL_SUCCESS) {
            char call[80];
            snprintf(call, sizeof call, "clSetKernelArg(" USER_KERNEL ", %u)", (unsigned)a);
            return sn_gpu_cl_fail(diag, call, err);
        }
    }
    if (!count)
        return SN_OK;
    /* Exactly one work-item per comparator, local size left to the
     * driver, as documented for students. */
    cl_int err = clEnqueueNDRangeKernel(g->queue, kk, 1, NULL, &count, NULL, 0, NULL, NULL);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clEnqueueNDRangeKernel(" USER_KERNEL ")", err);
    return SN_OK;
}

/* Guard words after a user kernel's keys and payload: a write just past
 * the end (a missing `if (t >= count)`, an index off by one) that the
 * device lets through changes them, and the layer fails naming the word
 * instead of passing as identical. */
#define USER_GUARD_WORDS 64u

static uint32_t guard_word(uint32_t i)
{
    return 0xA5C3E10Fu ^ (i * 0x9E3779B9u);
}

static void guard_fill(uint32_t *a, uint32_t n)
{
    for (uint32_t i = 0; i < USER_GUARD_WORDS; i++)
        a[n + i] = guard_word(i);
}

/* SN_EDEVICE (the layer's failure: isolate.c makes it the kernel's
 * verdict) when a guard word after a[0..n) changed. */
static sn_status guard_check(const uint32_t *a, uint32_t n, const char *what, sn_diag *diag)
{
    for (uint32_t i = 0; i < USER_GUARD_WORDS; i++)
        if (a[n + i] != guard_word(i))
            return sn_diag_set(
                diag, SN_EDEVICE, 0, 0,
                "it wrote past the end of %s: %s[%llu], past its %u words (the guard words "
                "after the array changed; most often a missing `if (t >= count) "
                "return;` or an index off by one)",
                what, what, (unsigned long long)n + i, n);
    return SN_OK;
}

sn_status sn_gpu_user_run(sn_gpu *g, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                          const sn_gpu_verify_opts *o, const sn_user_hooks *h, sn_diag *diag)
{
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    size_t bytes = (size_t)n * 4;
    size_t cap = (size_t)n / 2 + 1; /* a layer has at most n/2 comparators */
    cl_program prog = NULL;
    cl_kernel kk = NULL;
    cl_mem keys = NULL, pay = NULL, pairs = NULL;
    size_t gbytes = (size_t)USER_GUARD_WORDS * 4, whole = bytes + gbytes;
    uint32_t *dev = sn_malloc(whole), *dev_pay = sn_malloc(whole);
    sn_comparator *host_pairs = sn_calloc(cap, sizeof *host_pairs);
    sn_status st = SN_OK;
    cl_int err;
    if (!dev || !dev_pay || !host_pairs) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", n);
        goto done;
    }
    sn_parallel_iota(dev_pay, n, 0);
    guard_fill(dev, n);
    guard_fill(dev_pay, n);
    if ((st = user_kernel(g, o->user_source, &prog, &kk, diag)) != SN_OK)
        goto done;
    uint64_t need = (uint64_t)whole * 2 + cap * sizeof(sn_comparator);
    if (need > g->info.global_mem || whole > g->info.max_alloc) {
        st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                         "device memory too small: %u keys need %.1f MiB, the device has %.1f "
                         "MiB (buffers up to %.1f MiB)",
                         n, (double)need / 1048576.0, (double)g->info.global_mem / 1048576.0,
                         (double)g->info.max_alloc / 1048576.0);
        goto done;
    }
    keys = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE, whole, NULL, &err);
    if (err == CL_SUCCESS)
        pay = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE, whole, NULL, &err);
    if (err == CL_SUCCESS)
        pairs = clCreateBuffer(g->ctx, CL_MEM_READ_ONLY, cap * sizeof(sn_comparator), NULL, &err);
    if (err != CL_SUCCESS) {
        st = sn_gpu_cl_fail(diag, "clCreateBuffer", err);
        goto done;
    }
    /* The kernel sees ordered keys: plain unsigned comparison is the key
     * order of every type. */
    for (uint32_t i = 0; i < n; i++)
        dev[i] = sn_key_to_ordered(t, input[i]);
    if ((st = sn_gpu_write(g, keys, whole, dev, "keys", diag)) != SN_OK ||
        (st = sn_gpu_write(g, pay, whole, dev_pay, "payload", diag)) != SN_OK)
        goto done;
    if (h->ready && (st = h->ready(h->ctx, g, diag)) != SN_OK)
        goto done;
    sn_gpu_bufs inj; /* only .keys is used by the inject kernel */
    memset(&inj, 0, sizeof inj);
    inj.keys = keys;
    cl_mem bufs[3] = {keys, pay, pairs};
    for (size_t k = 0; k < L; k++) {
        size_t count = sn_schedule_layer_pairs(s, k, host_pairs, cap);
        if (h->begin && (st = h->begin(h->ctx, k, diag)) != SN_OK)
            goto done;
        if ((st = sn_gpu_write(g, pairs, count * sizeof *host_pairs, host_pairs, "pairs", diag)) !=
                SN_OK ||
            (st = user_launch(g, kk, bufs, count, n, sn_schedule_layer_form(s, k), diag)) != SN_OK)
            goto done;
        if (o->inject && k == o->inject_layer &&
            (st = sn_gpu_enqueue_inject(g, &inj, o->inject_index, diag)) != SN_OK)
            goto done;
        if ((st = sn_gpu_read(g, keys, 0, whole, dev, true, "keys", diag)) != SN_OK ||
            (st = sn_gpu_read(g, pay, 0, whole, dev_pay, true, "payload", diag)) != SN_OK ||
            (st = guard_check(dev, n, "keys", diag)) != SN_OK ||
            (st = guard_check(dev_pay, n, "payload", diag)) != SN_OK)
            goto done;
        for (uint32_t i = 0; i < n; i++)
            dev[i] = sn_key_from_ordered(t, dev[i]);
        bool stop = false;
        if ((st = h->done(h->ctx, k, dev, dev_pay, &stop, diag)) != SN_OK || stop)
            goto done;
    }
done:
    if (st != SN_OK)
        clFinish(g->queue);
    if (kk)
        clReleaseKernel(kk);
    if (prog)
        clReleaseProgram(prog);
    if (keys)
        clReleaseMemObject(keys);
    if (pay)
        clReleaseMemObject(pay);
    if (pairs)
        clReleaseMemObject(pairs);
    sn_free(dev);
    sn_free(dev_pay);
    sn_free(host_pairs);
    return st;
}

/* In-process: compare each layer as it comes back. */
typedef struct user_check {
    sn_lockstep_ref ref;
    sn_gpu_report *rep;
} user_check;

static sn_status user_layer_done(void *ctx, size_t k, const uint32_t *keys, const uint32_t *pay,
                                 bool *stop, sn_diag *diag)
{
    (void)diag;
    user_check *c = ctx;
    *stop = sn_lockstep_ref_step(&c->ref, k, keys, pay, c->rep);
    return SN_OK;
}

static sn_status verify_user(sn_gpu *g, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                             bool with_payload, const sn_gpu_verify_opts *o, sn_gpu_report *rep,
                             sn_diag *diag)
{
    user_check c = {.rep = rep};
    sn_status st = sn_lockstep_ref_init(&c.ref, s, t, input, with_payload, diag);
    if (st != SN_OK)
        return st;
    sn_user_hooks h = {.ctx = &c, .done = user_layer_done};
    st = sn_gpu_user_run(g, s, t, input, o, &h, diag);
    sn_lockstep_ref_free(&c.ref);
    return st;
}

/* ---- batched: snapshots or digests, one wait */

/* Digest of layer k differed: run both executors to layer k again and
 * compare the arrays, to name the wire. */
static sn_status localise(sn_gpu *g, const sn_schedule *s, const sn_gpu_batch_opts *bo,
                          const uint32_t *input, bool with_payload, size_t k, sn_gpu_report *rep,
                          sn_diag *diag)
{
    uint32_t n = sn_schedule_wires(s);
    uint32_t *ref = dup_words(input, n), *dev = dup_words(input, n);
    uint32_t *ref_pay = with_payload ? identity(n) : NULL;
    uint32_t *dev_pay = with_payload ? identity(n) : NULL;
    sn_status st = SN_OK;
    if (!ref || !dev || (with_payload && (!ref_pay || !dev_pay))) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", n);
        goto done;
    }
    sn_gpu_batch_opts o = *bo;
    o.stop = k + 1;
    if ((st = sn_gpu_batch(g, s, &o, dev, dev_pay, NULL, NULL, NULL, diag)) != SN_OK)
        goto done;
    for (size_t j = 0; j <= k; j++)
        sn_exec_layer(s, j, bo->type, ref, ref_pay, NULL);
    if (!mismatch(rep, k, ref, dev, ref_pay, dev_pay, n))
        st = sn_diag_set(diag, SN_EDEVICE, 0, 0,
                         "the device's digest after layer %zu differed from the reference, "
                         "but a second run to that layer agrees: the device is not "
                         "deterministic",
                         k);
done:
    sn_free(ref);
    sn_free(dev);
    sn_free(ref_pay);
    sn_free(dev_pay);
    return st;
}

/* ---- fused variants: the final array, bit for bit (payload included)
 *
 * The device run mostly waits for the device, so the reference executor
 * runs meanwhile on a thread of its own (with its worker threads): the
 * two take the longer of their times, not the sum. A device that fails
 * stops the reference at its next pass. */

typedef struct ref_job {
    const sn_schedule *s;
    sn_key_type t;
    uint32_t *keys, *pay;
    unsigned threads;
    sn_cancel cancel; /* set when the device failed: its verdict is not needed */
    double seconds;   /* the reference's wall time */
} ref_job;

static void *ref_worker(void *arg)
{
    ref_job *j = arg;
    double t0 = now_s();
    sn_exec_opts o = {.threads = j->threads, .cancel = &j->cancel};
    sn_exec_run_opts(j->s, j->t, j->keys, j->pay, &o);
    j->seconds = now_s() - t0;
    return NULL;
}

static sn_status verify_final(sn_gpu *g, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                              bool with_payload, sn_gpu_variant v, const progress *o,
                              sn_gpu_report *rep, sn_diag *diag)
{
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    double t0 = now_s();
    uint32_t *dev = dup_words(input, n), *ref = dup_words(input, n);
    uint32_t *dev_pay = with_payload ? identity(n) : NULL;
    uint32_t *ref_pay = with_payload ? identity(n) : NULL;
    sn_status st = SN_OK;
    if (!dev || !ref || (with_payload && (!dev_pay || !ref_pay))) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", n);
        goto done;
    }
    phase_done(o, "copies of the input", t0, &rep->copy_s, 0);
    /* one core left to the device run's thread (a runtime may spin while
     * it waits), so no worker of the reference's barriers is preempted */
    unsigned nt = sn_exec_threads_auto(n);
    ref_job job = {.s = s, .t = t, .keys = ref, .pay = ref_pay, .threads = nt > 2 ? nt - 1 : nt};
    atomic_init(&job.cancel, false);
    rep->reference_threads = job.threads;
    /* a thread or nothing: in the caller the reference would run before the
     * device, and in full even when the device then fails */
    sn_thread *th = NULL;
    bool meanwhile = sn_thread_try_start(&th, ref_worker, &job) == SN_OK;
    t0 = now_s();
    st = sn_gpu_run(g, s, v, t, dev, dev_pay, diag);
    if (st == SN_OK)
        phase_done(o, "device run", t0, &rep->device_s, 0);
    if (meanwhile) {
        if (st != SN_OK)
            atomic_store(&job.cancel, true);
        sn_thread_join(th);
    } else if (st == SN_OK) {
        ref_worker(&job); /* no thread to spare: after the device, as before */
    }
    if (st != SN_OK)
        goto done;
    rep->reference_s = job.seconds;
    if (o->fn)
        o->fn(o->ctx,
              meanwhile ? "reference executor (during the device run)" : "reference executor",
              job.seconds, job.threads);
    t0 = now_s();
    mismatch(rep, L ? L - 1 : 0, ref, dev, ref_pay, dev_pay, n);
    phase_done(o, "comparison", t0, &rep->compare_s, 0);
done:
    sn_free(dev);
    sn_free(ref);
    sn_free(dev_pay);
    sn_free(ref_pay);
    return st;
}

sn_status sn_gpu_verify_check_inject(const sn_schedule *s, const sn_gpu_verify_opts *o,
                                     sn_diag *diag)
{
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    if (o->inject && (o->inject_layer >= L || o->inject_index >= n))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "cannot inject a fault at layer %zu, index %u: %s has %zu layers "
                           "(0..%zu) and %u wires",
                           o->inject_layer, o->inject_index, sn_schedule_name(s), L, L ? L - 1 : 0,
                           n);
    return SN_OK;
}

/* A batched run's arrays: the device's, and the reference's (a full
 * trace when small, else its digests and final arrays). */
typedef struct batched {
    const sn_schedule *s;
    sn_key_type t;
    const uint32_t *input;
    bool with_payload;
    uint32_t n;
    size_t L;
    bool full;
    sn_trace *tr;
    uint32_t *pay_in, *keys, *pay, *states, *pay_states, *final_pay, *ref_keys;
    uint64_t *dig, *ref_dig;
} batched;

static void batched_free(batched *b)
{
    sn_trace_destroy(b->tr);
    sn_free(b->pay_in);
    sn_free(b->keys);
    sn_free(b->pay);
    sn_free(b->dig);
    sn_free(b->states);
    sn_free(b->pay_states);
    sn_free(b->final_pay);
    sn_free(b->ref_dig);
    sn_free(b->ref_keys);
}

static sn_status batched_alloc(batched *b, sn_diag *diag)
{
    uint32_t n = b->n;
    b->pay_in = b->with_payload ? identity(n) : NULL;
    b->keys = dup_words(b->input, n);
    b->pay = b->with_payload ? identity(n) : NULL;
    b->dig = sn_calloc(b->L + 1, sizeof *b->dig);
    if (!b->keys || !b->dig || (b->with_payload && (!b->pay_in || !b->pay)))
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", n);
    if (b->full && b->L) {
        b->states = sn_calloc(b->L * (size_t)n + 1, 4);
        b->pay_states = b->with_payload ? sn_calloc(b->L * (size_t)n + 1, 4) : NULL;
        if (!b->states || (b->with_payload && !b->pay_states))
            return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the layer snapshots");
    }
    return SN_OK;
}

/* The reference: a full trace, or (large n) layer by layer keeping only
 * the digests and the final arrays (ref_keys, pay_in). */
static sn_status batched_reference(batched *b, sn_diag *diag)
{
    if (b->full)
        return sn_trace_record(b->s, b->t, b->input, b->pay_in, SN_TRACE_FULL, &b->tr, diag);
    b->ref_dig = sn_calloc(b->L + 1, sizeof *b->ref_dig);
    b->ref_keys = dup_words(b->input, b->n);
    if (!b->ref_dig || !b->ref_keys)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", b->n);
    for (size_t k = 0; k < b->L; k++) {
        sn_exec_layer(b->s, k, b->t, b->ref_keys, b->pay_in, NULL);
        b->ref_dig[k] = digest_parallel(b->ref_keys, b->n);
    }
    return SN_OK;
}

/* Layer by layer: the snapshots (small n) and the digests. *done: the
 * verdict is in rep (a mismatch, localised when only a digest showed it). */
static sn_status batched_layers(sn_gpu *g, const batched *b, const sn_gpu_batch_opts *bo,
                                sn_gpu_report *rep, bool *done, sn_diag *diag)
{
    uint32_t n = b->n;
    *done = true;
    for (size_t k = 0; k < b->L; k++) {
        if (b->states) {
            const uint32_t *ep = b->with_payload ? sn_trace_payload(b->tr, k + 1) : NULL;
            if (mismatch(rep, k, sn_trace_state(b->tr, k + 1), b->states + k * (size_t)n, ep,
                         ep ? b->pay_states + k * (size_t)n : NULL, n))
                return SN_OK;
        }
        uint64_t want = b->tr ? sn_trace_digest(b->tr, k + 1) : b->ref_dig[k];
        if (b->dig[k] == want)
            continue;
        if (b->states)
            return sn_diag_set(diag, SN_EDEVICE, 0, 0,
                               "the arrays after layer %zu agree but the device's digest "
                               "%016llx differs from the reference's %016llx (digest kernel)",
                               k, (unsigned long long)b->dig[k], (unsigned long long)want);
        return localise(g, b->s, bo, b->input, b->with_payload, k, rep, diag);
    }
    *done = false;
    return SN_OK;
}

/* Always the final array, bit for bit (payload included). */
static sn_status batched_final(batched *b, sn_gpu_report *rep, sn_diag *diag)
{
    size_t last = b->L ? b->L - 1 : 0;
    if (!b->tr) {
        mismatch(rep, last, b->ref_keys, b->keys, b->pay_in, b->pay, b->n);
        return SN_OK;
    }
    const uint32_t *exp_pay = NULL;
    if (b->with_payload) {
        exp_pay = sn_trace_payload(b->tr, b->L);
        if (!exp_pay) {
            /* The trace may keep no final payload: derive it with the
             * reference executor itself. */
            uint32_t *k2 = dup_words(b->input, b->n);
            b->final_pay = identity(b->n);
            if (!k2 || !b->final_pay) {
                sn_free(k2);
                return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", b->n);
            }
            sn_exec_run(b->s, b->t, k2, b->final_pay);
            sn_free(k2);
            exp_pay = b->final_pay;
        }
    }
    mismatch(rep, last, sn_trace_state(b->tr, b->L), b->keys, exp_pay, b->pay, b->n);
    return SN_OK;
}

/* Our per-layer kernels in one batch: every layer's snapshot when small
 * (the same threshold as the trace's AUTO mode), else per-layer digests,
 * and the final array. */
static sn_status verify_batched(sn_gpu *g, const sn_schedule *s, sn_key_type t,
                                const uint32_t *input, bool with_payload,
                                const sn_gpu_batch_opts *bo, const progress *o, sn_gpu_report *rep,
                                sn_diag *diag)
{
    batched b;
    memset(&b, 0, sizeof b);
    b.s = s;
    b.t = t;
    b.input = input;
    b.with_payload = with_payload;
    b.n = sn_schedule_wires(s);
    b.L = sn_schedule_layer_count(s);
    b.full = (uint64_t)(b.L + 1) * b.n <= SN_TRACE_FULL_MAX;
    rep->method = b.full ? SN_GPU_CHECK_STATES : SN_GPU_CHECK_DIGESTS;
    bool done = false;
    double t0 = now_s();
    sn_status st = batched_alloc(&b, diag);
    if (st == SN_OK)
        phase_done(o, "copies of the input", t0, &rep->copy_s, 0);
    /* The device first: a device too small fails before the (slower)
     * reference has run. */
    t0 = now_s();
    if (st == SN_OK)
        st = sn_gpu_batch(g, s, bo, b.keys, b.pay, b.dig, b.states, b.pay_states, diag);
    if (st == SN_OK)
        phase_done(o, "device run", t0, &rep->device_s, 0);
    t0 = now_s();
    rep->reference_threads = b.full ? 1 : sn_exec_threads_auto(b.n);
    if (st == SN_OK)
        st = batched_reference(&b, diag);
    if (st == SN_OK)
        phase_done(o, "reference executor", t0, &rep->reference_s, rep->reference_threads);
    t0 = now_s();
    if (st == SN_OK)
        st = batched_layers(g, &b, bo, rep, &done, diag);
    if (st == SN_OK && !done)
        st = batched_final(&b, rep, diag);
    if (st == SN_OK)
        phase_done(o, "comparison", t0, &rep->compare_s, 0);
    batched_free(&b);
    return st;
}

sn_status sn_gpu_verify(sn_gpu *g, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                        bool with_payload, const sn_gpu_verify_opts *opts, sn_gpu_report *rep,
                        sn_diag *diag)
{
    return sn_gpu_verify_progress(g, s, t, input, with_payload, opts, NULL, NULL, rep, diag);
}

sn_status sn_gpu_verify_progress(sn_gpu *g, const sn_schedule *s, sn_key_type t,
                                 const uint32_t *input, bool with_payload,
                                 const sn_gpu_verify_opts *opts, sn_gpu_progress_fn progress_fn,
                                 void *progress_ctx, sn_gpu_report *rep, sn_diag *diag)
{
    progress prog = {progress_fn, progress_ctx};
    sn_gpu_verify_opts none;
    memset(&none, 0, sizeof none);
    const sn_gpu_verify_opts *o = opts ? opts : &none;
    memset(rep, 0, sizeof *rep);
    rep->identical = true;
    rep->layers = sn_schedule_layer_count(s);
    sn_status st = sn_gpu_verify_check_inject(s, o, diag);
    if (st != SN_OK)
        return st;
    if (o->user_source) {
        rep->method = SN_GPU_CHECK_LOCKSTEP;
        return verify_user(g, s, t, input, with_payload, o, rep, diag);
    }
    sn_gpu_batch_opts bo;
    memset(&bo, 0, sizeof bo);
    st = sn_gpu_resolve_variant(s, o->variant, &bo.variant, diag);
    if (st != SN_OK)
        return st;
    if (sn_gpu_variant_is_fused(bo.variant)) {
        if (o->per_layer || o->inject)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "variant '%s' runs several layers per launch: no per-layer "
                               "comparison or injected fault (use a per-layer variant)",
                               sn_gpu_variant_name(bo.variant));
        rep->method = SN_GPU_CHECK_FINAL;
        return verify_final(g, s, t, input, with_payload, bo.variant, &prog, rep, diag);
    }
    if (o->per_layer) {
        rep->method = SN_GPU_CHECK_LOCKSTEP;
        return verify_lockstep(g, s, t, input, with_payload, o, bo.variant, rep, diag);
    }
    bo.type = t;
    bo.stop = rep->layers;
    bo.inject = o->inject;
    bo.inject_layer = o->inject_layer;
    bo.inject_index = o->inject_index;
    return verify_batched(g, s, t, input, with_payload, &bo, &prog, rep, diag);
}
