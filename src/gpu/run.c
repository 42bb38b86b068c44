/* run.c - running a schedule on the device: buffers, one launch per layer,
 * optional per-layer digests, snapshots and an injected fault.
 *
 * Invariant: layer k of the device run applies exactly the comparators of
 * layer k of the schedule (the closed-form kernels mirror sn_layer_partner,
 * the pairs kernel reads sn_schedule_layer_pairs), on an in-order queue, so
 * the device state after layer k equals the reference's. All commands of a
 * batch are enqueued back to back; the host waits once, at the end. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "gpu/gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"

static const char *const variant_names[SN_GPU_VARIANT_COUNT] = {
    "auto", "pairs", "left", "xor", "div", "shift", "fused", "fused-local", "fused-serial",
};

bool sn_gpu_variant_is_fused(sn_gpu_variant v)
{
    return v == SN_GPU_VARIANT_FUSED || v == SN_GPU_VARIANT_FUSED_LOCAL ||
           v == SN_GPU_VARIANT_FUSED_SERIAL;
}

const char *sn_gpu_variant_name(sn_gpu_variant v)
{
    return (unsigned)v < SN_GPU_VARIANT_COUNT ? variant_names[v] : "unknown";
}

bool sn_gpu_variant_parse(const char *s, sn_gpu_variant *out)
{
    for (int v = 0; v < SN_GPU_VARIANT_COUNT; v++)
        if (strcmp(s, variant_names[v]) == 0) {
            *out = (sn_gpu_variant)v;
            return true;
        }
    return false;
}

static double mib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
}

sn_status sn_gpu_resolve_variant(const sn_schedule *s, sn_gpu_variant v, sn_gpu_variant *out,
                                 sn_diag *diag)
{
    sn_algo a = sn_schedule_algo(s);
    bool closed = sn_algo_is_closed_form(a) && sn_schedule_network(s) == NULL;
    if (v == SN_GPU_VARIANT_AUTO)
        v = closed ? SN_GPU_VARIANT_SHIFT : SN_GPU_VARIANT_PAIRS;
    if (sn_gpu_variant_is_fused(v)) {
        sn_algo fa = sn_schedule_algo(s);
        if (sn_schedule_network(s) || (fa != SN_ALGO_BITONIC && fa != SN_ALGO_ODDEVEN_MERGE))
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "variant '%s' fuses bitonic and oddeven-merge schedules; '%s' "
                               "runs with one launch per layer (--variant auto)",
                               sn_gpu_variant_name(v), sn_schedule_name(s));
        *out = v;
        return SN_OK;
    }
    if (!closed && v != SN_GPU_VARIANT_PAIRS)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "variant '%s' needs a closed-form schedule (bitonic, oddeven-merge, "
                           "transposition); '%s' runs with the pairs kernel",
                           sn_gpu_variant_name(v), sn_schedule_name(s));
    if (v == SN_GPU_VARIANT_XOR && a != SN_ALGO_BITONIC)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "variant 'xor' is the bitonic xor-partner kernel; '%s' is %s",
                           sn_schedule_name(s), sn_algo_name(a));
    *out = v;
    return SN_OK;
}

void sn_gpu_bufs_destroy(sn_gpu_bufs *b)
{
    if (b->keys)
        clReleaseMemObject(b->keys);
    if (b->pay)
        clReleaseMemObject(b->pay);
    if (b->pairs)
        clReleaseMemObject(b->pairs);
    if (b->digests)
        clReleaseMemObject(b->digests);
    if (b->states)
        clReleaseMemObject(b->states);
    if (b->pay_states)
        clReleaseMemObject(b->pay_states);
    if (b->desc)
        clReleaseMemObject(b->desc);
    if (b->tmp_keys)
        clReleaseMemObject(b->tmp_keys);
    if (b->tmp_pay)
        clReleaseMemObject(b->tmp_pay);
    sn_free(b->pair_base);
    memset(b, 0, sizeof *b);
}

static sn_status make_buffer(sn_gpu *g, cl_mem_flags flags, size_t bytes, cl_mem *out,
                             sn_diag *diag)
{
    cl_int err;
    *out = clCreateBuffer(g->ctx, flags, bytes ? bytes : 4, NULL, &err);
    if (err != CL_SUCCESS) {
        sn_status st = sn_gpu_cl_fail(diag, "clCreateBuffer", err);
        if (st == SN_ELIMIT) {
            char why[sizeof diag->text];
            snprintf(why, sizeof why, "%s", diag ? diag->text : "");
            st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                             "the device cannot hold a buffer of %.1f MiB (%s; global memory "
                             "%.1f MiB)",
                             mib(bytes), why, mib(g->info.global_mem));
        }
        return st;
    }
    return SN_OK;
}

/* Upload every layer's pairs into one buffer, once; pair_base[k] is the
 * first pair of layer k. */
static sn_status upload_pairs(sn_gpu *g, const sn_schedule *s, sn_gpu_bufs *b, size_t total,
                              sn_diag *diag)
{
    size_t L = sn_schedule_layer_count(s);
    size_t bytes;
    if (!sn_mul_size(total, sizeof(sn_comparator), &bytes))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "too many comparators");
    b->pair_base = sn_calloc(L + 1, sizeof *b->pair_base);
    sn_comparator *host = sn_malloc(bytes ? bytes : 1);
    if (!b->pair_base || !host) {
        sn_free(host);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %zu comparators", total);
    }
    size_t at = 0;
    for (size_t k = 0; k < L; k++) {
        b->pair_base[k] = at;
        at += sn_schedule_layer_pairs(s, k, host + at, total - at);
    }
    b->pair_base[L] = at;
    sn_status st = make_buffer(g, CL_MEM_READ_ONLY, bytes, &b->pairs, diag);
    if (st == SN_OK && bytes) {
        cl_int err =
            clEnqueueWriteBuffer(g->queue, b->pairs, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
        if (err != CL_SUCCESS)
            st = sn_gpu_cl_fail(diag, "clEnqueueWriteBuffer(pairs)", err);
    }
    sn_free(host);
    return st;
}

sn_status sn_gpu_bufs_create(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                             size_t digest_groups, bool states, sn_gpu_bufs *b, sn_diag *diag)
{
    memset(b, 0, sizeof *b);
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    if (n > (1u << 31))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%u wires: the OpenCL executor handles at most 2^31", n);
    b->n = n;
    b->layers = L;
    b->payload = payload;
    b->digest_groups = digest_groups;

    /* Sizes first, so a device that is too small gets a clear message
     * before anything is allocated. */
    uint64_t key_bytes = (uint64_t)n * 4;
    uint64_t pair_count = 0;
    if (v == SN_GPU_VARIANT_PAIRS) {
        /* A closed form would need O(n * depth) to count exactly: bound it
         * first (a layer has at most n/2 comparators). */
        uint64_t bound = (uint64_t)L * (n / 2);
        if (!sn_schedule_network(s) && bound * sizeof(sn_comparator) > g->info.max_alloc)
            return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                               "the pair list of %s (up to %llu comparators, %.1f MiB) exceeds "
                               "the device's largest buffer (%.1f MiB); use a closed-form "
                               "variant (--variant shift)",
                               sn_schedule_name(s), (unsigned long long)bound,
                               mib(bound * sizeof(sn_comparator)), mib(g->info.max_alloc));
        pair_count = sn_schedule_size(s);
    }
    uint64_t pair_bytes = pair_count * sizeof(sn_comparator);
    uint64_t dig_bytes = (uint64_t)L * digest_groups * 8;
    uint64_t state_bytes = states ? (uint64_t)L * key_bytes : 0;
    uint64_t need =
        key_bytes * (payload ? 2 : 1) + pair_bytes + dig_bytes + state_bytes * (payload ? 2 : 1);
    uint64_t biggest = key_bytes;
    if (pair_bytes > biggest)
        biggest = pair_bytes;
    if (state_bytes > biggest)
        biggest = state_bytes;
    if (need > g->info.global_mem || biggest > g->info.max_alloc)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "device memory too small: %u keys need %.1f MiB in all (keys %.1f "
                           "MiB%s, pairs %.1f MiB, digests %.1f MiB, snapshots %.1f MiB), "
                           "largest buffer %.1f MiB; the device has %.1f MiB of global memory "
                           "and allows buffers up to %.1f MiB",
                           n, mib(need), mib(key_bytes), payload ? " + payload" : "",
                           mib(pair_bytes), mib(dig_bytes), mib(state_bytes * (payload ? 2 : 1)),
                           mib(biggest), mib(g->info.global_mem), mib(g->info.max_alloc));

    sn_status st = make_buffer(g, CL_MEM_READ_WRITE, (size_t)key_bytes, &b->keys, diag);
    if (st == SN_OK)
        st = make_buffer(g, CL_MEM_READ_WRITE, payload ? (size_t)key_bytes : 4, &b->pay, diag);
    if (st == SN_OK && v == SN_GPU_VARIANT_PAIRS)
        st = upload_pairs(g, s, b, (size_t)pair_count, diag);
    if (st == SN_OK && dig_bytes)
        st = make_buffer(g, CL_MEM_WRITE_ONLY, (size_t)dig_bytes, &b->digests, diag);
    if (st == SN_OK && state_bytes) {
        st = make_buffer(g, CL_MEM_READ_WRITE, (size_t)state_bytes, &b->states, diag);
        if (st == SN_OK && payload)
            st = make_buffer(g, CL_MEM_READ_WRITE, (size_t)state_bytes, &b->pay_states, diag);
    }
    if (st != SN_OK)
        sn_gpu_bufs_destroy(b);
    return st;
}

static sn_status set_arg(cl_kernel k, cl_uint i, size_t size, const void *v, const char *name,
                         sn_diag *diag)
{
    cl_int err = clSetKernelArg(k, i, size, v);
    if (err != CL_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "clSetKernelArg(%s, %u)", name, (unsigned)i);
        return sn_gpu_cl_fail(diag, call, err);
    }
    return SN_OK;
}

void sn_gpu_set_profile(sn_gpu *g, sn_gpu_profile_fn fn, void *ctx)
{
    g->profile = fn;
    g->profile_ctx = ctx;
}

void sn_gpu_record(sn_gpu *g, cl_event ev, const char *what, size_t items)
{
    if (!ev)
        return;
    if (g->profile) {
        /* a tuning aid: it waits for every command */
        double ms;
        if (clWaitForEvents(1, &ev) == CL_SUCCESS &&
            sn_gpu_event_span_ms(ev, ev, &ms) == CL_SUCCESS)
            g->profile(g->profile_ctx, what, items, ms);
    }
    if (!g->ev_first) {
        g->ev_first = ev;
    } else {
        if (g->ev_last)
            clReleaseEvent(g->ev_last);
        g->ev_last = ev;
    }
}

sn_status sn_gpu_launch(sn_gpu *g, cl_kernel k, size_t items, size_t wg, const char *name,
                        sn_diag *diag)
{
    if (items == 0)
        return SN_OK;
    size_t global = sn_gpu_round_up(items, wg);
    cl_event ev = NULL;
    cl_int err =
        clEnqueueNDRangeKernel(g->queue, k, 1, NULL, &global, &wg, 0, NULL, g->record ? &ev : NULL);
    if (err != CL_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "clEnqueueNDRangeKernel(%s)", name);
        return sn_gpu_cl_fail(diag, call, err);
    }
    char fn[64] = "?";
    if (ev && g->profile) {
        clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof fn, fn, NULL);
        fn[sizeof fn - 1] = '\0';
    }
    sn_gpu_record(g, ev, fn, global);
    return SN_OK;
}

sn_status sn_gpu_enqueue_layer(sn_gpu *g, const sn_gpu_bufs *b, const sn_schedule *s,
                               sn_gpu_variant v, sn_key_type t, size_t k, sn_diag *diag)
{
    cl_uint kt = (cl_uint)t, hp = b->payload ? 1u : 0u, n = b->n;
    sn_status st;
    if (v == SN_GPU_VARIANT_PAIRS) {
        cl_kernel kk = g->k[K_PAIRS];
        cl_uint base = (cl_uint)b->pair_base[k];
        cl_uint count = (cl_uint)(b->pair_base[k + 1] - b->pair_base[k]);
        if ((st = set_arg(kk, 0, sizeof(cl_mem), &b->keys, "sn_pairs", diag)) ||
            (st = set_arg(kk, 1, sizeof(cl_mem), &b->pay, "sn_pairs", diag)) ||
            (st = set_arg(kk, 2, sizeof kt, &kt, "sn_pairs", diag)) ||
            (st = set_arg(kk, 3, sizeof hp, &hp, "sn_pairs", diag)) ||
            (st = set_arg(kk, 4, sizeof(cl_mem), &b->pairs, "sn_pairs", diag)) ||
            (st = set_arg(kk, 5, sizeof base, &base, "sn_pairs", diag)) ||
            (st = set_arg(kk, 6, sizeof count, &count, "sn_pairs", diag)))
            return st;
        return sn_gpu_launch(g, kk, count, g->wg, "sn_pairs", diag);
    }
    sn_layer_form f = sn_schedule_layer_form(s, k);
    uint64_t big = 1;
    while (big < n)
        big *= 2;
    cl_uint half = (cl_uint)(big / 2);
    int which;
    cl_uint lim;
    bool per_element = v == SN_GPU_VARIANT_LEFT || v == SN_GPU_VARIANT_XOR;
    switch (f.algo) {
    case SN_ALGO_BITONIC:
        which = v == SN_GPU_VARIANT_LEFT  ? K_BITONIC_LEFT
                : v == SN_GPU_VARIANT_XOR ? K_BITONIC_XOR
                : v == SN_GPU_VARIANT_DIV ? K_BITONIC_DIV
                                          : K_BITONIC_SHIFT;
        lim = per_element ? n : half;
        break;
    case SN_ALGO_ODDEVEN_MERGE:
        which = v == SN_GPU_VARIANT_LEFT  ? K_OEM_LEFT
                : v == SN_GPU_VARIANT_DIV ? K_OEM_DIV
                                          : K_OEM_SHIFT;
        lim = per_element ? n : half;
        break;
    case SN_ALGO_TRANSPOSITION:
        which = v == SN_GPU_VARIANT_LEFT  ? K_TRANS_LEFT
                : v == SN_GPU_VARIANT_DIV ? K_TRANS_DIV
                                          : K_TRANS_SHIFT;
        lim = per_element ? n : (n + 1) / 2;
        break;
    default:
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "layer %zu of %s has no closed form", k,
                           sn_schedule_name(s));
    }
    if ((v == SN_GPU_VARIANT_XOR && f.algo != SN_ALGO_BITONIC) ||
        (f.algo != SN_ALGO_TRANSPOSITION && (f.p == 0 || f.q == 0)))
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "layer %zu: unsupported form", k);
    cl_kernel kk = g->k[which];
    cl_uint p = f.p, q = f.q;
    if (f.algo == SN_ALGO_TRANSPOSITION)
        q = 1; /* unused by the kernels; keeps the shift forms well defined */
    if ((st = set_arg(kk, 0, sizeof(cl_mem), &b->keys, "layer", diag)) ||
        (st = set_arg(kk, 1, sizeof(cl_mem), &b->pay, "layer", diag)) ||
        (st = set_arg(kk, 2, sizeof kt, &kt, "layer", diag)) ||
        (st = set_arg(kk, 3, sizeof hp, &hp, "layer", diag)) ||
        (st = set_arg(kk, 4, sizeof n, &n, "layer", diag)) ||
        (st = set_arg(kk, 5, sizeof p, &p, "layer", diag)) ||
        (st = set_arg(kk, 6, sizeof q, &q, "layer", diag)) ||
        (st = set_arg(kk, 7, sizeof lim, &lim, "layer", diag)))
        return st;
    return sn_gpu_launch(g, kk, lim, g->wg, "layer", diag);
}

sn_status sn_gpu_enqueue_digest(sn_gpu *g, const sn_gpu_bufs *b, size_t slot, sn_diag *diag)
{
    cl_kernel kk = g->k[K_DIGEST];
    cl_uint n = b->n, sl = (cl_uint)slot;
    sn_status st;
    if ((st = set_arg(kk, 0, sizeof(cl_mem), &b->keys, "sn_digest", diag)) ||
        (st = set_arg(kk, 1, sizeof n, &n, "sn_digest", diag)) ||
        (st = set_arg(kk, 2, sizeof(cl_mem), &b->digests, "sn_digest", diag)) ||
        (st = set_arg(kk, 3, sizeof sl, &sl, "sn_digest", diag)) ||
        (st = set_arg(kk, 4, g->digest_wg * sizeof(cl_ulong), NULL, "sn_digest", diag)))
        return st;
    return sn_gpu_launch(g, kk, b->digest_groups * g->digest_wg, g->digest_wg, "sn_digest", diag);
}

sn_status sn_gpu_enqueue_inject(sn_gpu *g, const sn_gpu_bufs *b, uint32_t index, sn_diag *diag)
{
    cl_kernel kk = g->k[K_INJECT];
    cl_uint i = index;
    sn_status st;
    if ((st = set_arg(kk, 0, sizeof(cl_mem), &b->keys, "sn_inject", diag)) ||
        (st = set_arg(kk, 1, sizeof i, &i, "sn_inject", diag)))
        return st;
    return sn_gpu_launch(g, kk, 1, 1, "sn_inject", diag);
}

sn_status sn_gpu_write(sn_gpu *g, cl_mem m, size_t bytes, const void *src, const char *what,
                       sn_diag *diag)
{
    if (!bytes)
        return SN_OK;
    cl_int err = clEnqueueWriteBuffer(g->queue, m, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
    if (err != CL_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "clEnqueueWriteBuffer(%s)", what);
        return sn_gpu_cl_fail(diag, call, err);
    }
    return SN_OK;
}

sn_status sn_gpu_read(sn_gpu *g, cl_mem m, size_t offset, size_t bytes, void *dst, bool block,
                      const char *what, sn_diag *diag)
{
    if (!bytes)
        return SN_OK;
    cl_int err = clEnqueueReadBuffer(g->queue, m, block ? CL_TRUE : CL_FALSE, offset, bytes, dst, 0,
                                     NULL, NULL);
    if (err != CL_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "clEnqueueReadBuffer(%s)", what);
        return sn_gpu_cl_fail(diag, call, err);
    }
    return SN_OK;
}

sn_status sn_gpu_finish(sn_gpu *g, sn_diag *diag)
{
    cl_int err = clFinish(g->queue);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clFinish", err);
    return SN_OK;
}

/* The fused program built for (payload, t), and s's plan on g into *plan. */
static sn_status fused_plan(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                            sn_key_type t, sn_fused_plan *plan, sn_diag *diag)
{
    sn_status st = sn_fused_build(g, payload, t, diag);
    return st == SN_OK ? sn_fused_plan_make(g, &g->tune, s, v, payload, t, plan, diag) : st;
}

/* Build the fused kernels, plan the passes and upload their descriptors. */
static sn_status fused_prepare(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, sn_key_type t,
                               sn_gpu_bufs *b, sn_fused_plan *plan, sn_diag *diag)
{
    sn_status st = fused_plan(g, s, v, b->payload, t, plan, diag);
    if (st == SN_OK && !plan->serial && sn_gpu_generates(g))
        st = sn_fused_codegen(g, &g->tune, plan, diag);
    if (st == SN_OK && plan->window_passes) /* their second array */
        st = make_buffer(g, CL_MEM_READ_WRITE, (size_t)b->n * 4, &b->tmp_keys, diag);
    if (st == SN_OK && plan->window_passes)
        st =
            make_buffer(g, CL_MEM_READ_WRITE, b->payload ? (size_t)b->n * 4 : 4, &b->tmp_pay, diag);
    if (st != SN_OK || plan->cg_k)
        return st; /* generated kernels hold their descriptors as literals */
    size_t bytes = plan->desc_words * 4;
    cl_ulong cmax = 0;
    if (!plan->serial &&
        clGetDeviceInfo(g->device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof cmax, &cmax, NULL) ==
            CL_SUCCESS &&
        bytes > cmax)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "the fused plan of %s needs %zu bytes of constant memory; the device "
                           "allows %llu (use --variant shift)",
                           sn_schedule_name(s), bytes, (unsigned long long)cmax);
    if ((st = make_buffer(g, CL_MEM_READ_ONLY, bytes, &b->desc, diag)) != SN_OK)
        return st;
    return sn_gpu_write(g, b->desc, bytes, plan->desc, "fused passes", diag);
}

sn_status sn_gpu_fused_describe(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                                sn_key_type t, sn_gpu_fused_info *out, sn_diag *diag)
{
    memset(out, 0, sizeof *out);
    sn_fused_plan plan;
    sn_status st = fused_plan(g, s, v, payload, t, &plan, diag);
    if (st != SN_OK)
        return st;
    out->layers = sn_schedule_layer_count(s);
    out->passes = plan.nsteps;
    out->tile_passes = plan.tile_passes;
    out->global_layers = plan.global_layers;
    out->window_passes = plan.window_passes;
    out->window_bits = plan.window_passes ? plan.win_bits : 0;
    out->tile_bits = plan.tile_bits;
    out->serial = plan.serial;
    out->direct_loads = plan.serial ? 0 : plan.direct_first;
    out->direct_stores = plan.serial ? 0 : plan.direct_last;
    out->columns = 1u << plan.col_bits;
    out->generated = !plan.serial && sn_gpu_generates(g);
    sn_fused_plan_free(&plan);
    return SN_OK;
}

sn_status sn_gpu_fused_source(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                              sn_key_type t, char **out, sn_diag *diag)
{
    *out = NULL;
    sn_fused_plan plan;
    sn_status st = fused_plan(g, s, v, payload, t, &plan, diag);
    if (st != SN_OK)
        return st;
    if (!plan.serial && sn_gpu_generates(g) && plan.tile_passes + plan.window_passes > 0)
        st = sn_fused_source(&plan, &g->tune, out, diag);
    sn_fused_plan_free(&plan);
    return st;
}

sn_status sn_gpu_batch(sn_gpu *g, const sn_schedule *s, const sn_gpu_batch_opts *o, uint32_t *keys,
                       uint32_t *payload, uint64_t *digests, uint32_t *states, uint32_t *pay_states,
                       sn_diag *diag)
{
    size_t L = sn_schedule_layer_count(s);
    size_t stop = o->stop < L ? o->stop : L;
    uint32_t n = sn_schedule_wires(s);
    if (o->inject && (o->inject_layer >= L || o->inject_index >= n))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "cannot inject a fault at layer %zu, index %u: %s has %zu layers "
                           "and %u wires",
                           o->inject_layer, o->inject_index, sn_schedule_name(s), L, n);
    /* Enough groups to fill a GPU, few enough that the partial sums stay
     * small (a transposition network has n layers). */
    size_t groups = 0;
    if (digests) {
        groups = (n + g->digest_wg - 1) / g->digest_wg;
        if (groups > 1024)
            groups = 1024;
        size_t cap = L ? ((size_t)1 << 23) / L : 1;
        if (groups > cap)
            groups = cap ? cap : 1;
        if (groups == 0)
            groups = 1;
    }
    sn_fused_plan plan;
    memset(&plan, 0, sizeof plan);
    if (sn_gpu_variant_is_fused(o->variant) && (digests || states || o->inject || stop != L))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "variant '%s' runs several layers per launch: no per-layer states, "
                           "digests or injected faults",
                           sn_gpu_variant_name(o->variant));
    sn_gpu_bufs b;
    sn_status st =
        sn_gpu_bufs_create(g, s, o->variant, payload != NULL, groups, states != NULL, &b, diag);
    if (st != SN_OK)
        return st;
    size_t key_bytes = (size_t)n * 4;
    uint64_t *partials = NULL;
    if (sn_gpu_variant_is_fused(o->variant) &&
        (st = fused_prepare(g, s, o->variant, o->type, &b, &plan, diag)) != SN_OK)
        goto done;
    if (digests && L) {
        partials = sn_calloc(L * groups, sizeof *partials);
        if (!partials) {
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for digests");
            goto done;
        }
    }
    if ((st = sn_gpu_write(g, b.keys, key_bytes, keys, "keys", diag)) != SN_OK)
        goto done;
    if (payload && (st = sn_gpu_write(g, b.pay, key_bytes, payload, "payload", diag)) != SN_OK)
        goto done;
    if (sn_gpu_variant_is_fused(o->variant)) {
        if ((st = sn_fused_enqueue(g, &b, s, &plan, o->type, diag)) != SN_OK)
            goto done;
        stop = 0; /* the passes ran every layer */
    }
    for (size_t k = 0; k < stop; k++) {
        if ((st = sn_gpu_enqueue_layer(g, &b, s, o->variant, o->type, k, diag)) != SN_OK)
            goto done;
        if (o->inject && k == o->inject_layer &&
            (st = sn_gpu_enqueue_inject(g, &b, o->inject_index, diag)) != SN_OK)
            goto done;
        if (states && key_bytes) {
            cl_int err = clEnqueueCopyBuffer(g->queue, b.keys, b.states, 0, k * key_bytes,
                                             key_bytes, 0, NULL, NULL);
            if (err == CL_SUCCESS && payload)
                err = clEnqueueCopyBuffer(g->queue, b.pay, b.pay_states, 0, k * key_bytes,
                                          key_bytes, 0, NULL, NULL);
            if (err != CL_SUCCESS) {
                st = sn_gpu_cl_fail(diag, "clEnqueueCopyBuffer(snapshot)", err);
                goto done;
            }
        }
        if (digests && (st = sn_gpu_enqueue_digest(g, &b, k, diag)) != SN_OK)
            goto done;
    }
    /* Non-blocking reads, then the single wait for the whole batch. */
    if ((st = sn_gpu_read(g, b.keys, 0, key_bytes, keys, false, "keys", diag)) != SN_OK)
        goto done;
    if (payload &&
        (st = sn_gpu_read(g, b.pay, 0, key_bytes, payload, false, "payload", diag)) != SN_OK)
        goto done;
    if (partials && (st = sn_gpu_read(g, b.digests, 0, stop * groups * 8, partials, false,
                                      "digests", diag)) != SN_OK)
        goto done;
    if (states && (st = sn_gpu_read(g, b.states, 0, stop * key_bytes, states, false, "states",
                                    diag)) != SN_OK)
        goto done;
    if (states && payload &&
        (st = sn_gpu_read(g, b.pay_states, 0, stop * key_bytes, pay_states, false, "payload states",
                          diag)) != SN_OK)
        goto done;
    if ((st = sn_gpu_finish(g, diag)) != SN_OK)
        goto done;
    for (size_t k = 0; partials && k < stop; k++) {
        uint64_t sum = 0;
        for (size_t j = 0; j < groups; j++)
            sum += partials[k * groups + j];
        digests[k] = sum;
    }
done:
    if (st != SN_OK)
        clFinish(g->queue); /* nothing may still write into host memory */
    sn_free(partials);
    sn_fused_plan_free(&plan);
    sn_gpu_bufs_destroy(&b);
    return st;
}

sn_status sn_gpu_run(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, sn_key_type t,
                     uint32_t *keys, uint32_t *payload, sn_diag *diag)
{
    sn_gpu_batch_opts o;
    memset(&o, 0, sizeof o);
    sn_status st = sn_gpu_resolve_variant(s, v, &o.variant, diag);
    if (st != SN_OK)
        return st;
    o.type = t;
    o.stop = sn_schedule_layer_count(s);
    return sn_gpu_batch(g, s, &o, keys, payload, NULL, NULL, NULL, diag);
}

/* ---- timing */

double sn_gpu_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

cl_int sn_gpu_event_span_ms(cl_event first, cl_event last, double *ms)
{
    *ms = 0;
    if (!first)
        return CL_SUCCESS;
    cl_ulong a = 0, z = 0;
    cl_int err = clGetEventProfilingInfo(first, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(last ? last : first, CL_PROFILING_COMMAND_END, sizeof z, &z,
                                      NULL);
    if (err == CL_SUCCESS && z > a)
        *ms = (double)(z - a) / 1e6;
    return err;
}

cl_int sn_gpu_events_ms(const sn_gpu *g, double *ms)
{
    return sn_gpu_event_span_ms(g->ev_first, g->ev_last ? g->ev_last : g->ev_first, ms);
}

void sn_gpu_events_drop(sn_gpu *g)
{
    if (g->ev_first)
        clReleaseEvent(g->ev_first);
    if (g->ev_last)
        clReleaseEvent(g->ev_last);
    g->ev_first = g->ev_last = NULL;
    g->record = false;
}

sn_status sn_gpu_time(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, sn_key_type t,
                      uint32_t *keys, size_t reps, sn_gpu_timing *times, sn_diag *diag)
{
    sn_gpu_variant rv;
    sn_status st = sn_gpu_resolve_variant(s, v, &rv, diag);
    if (st != SN_OK)
        return st;
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    size_t bytes = (size_t)n * 4;
    /* the input kept for every run, and where each run's output lands:
     * pinned host memory when asked (sn_gpu_set_pinned), else the caller's */
    void *pin_in = NULL, *pin_out = NULL;
    if (g->pinned) {
        st = sn_gpu_host_alloc_status(g, bytes + 4, &pin_in, diag);
        if (st == SN_OK)
            st = sn_gpu_host_alloc_status(g, bytes + 4, &pin_out, diag);
        if (st != SN_OK) {
            sn_gpu_host_free(g, pin_in);
            return st;
        }
    }
    uint32_t *input = g->pinned ? pin_in : sn_malloc(bytes + 4);
    uint32_t *out = g->pinned ? pin_out : keys;
    if (!input)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for %u keys", n);
    memcpy(input, keys, bytes);
    sn_fused_plan plan;
    memset(&plan, 0, sizeof plan);
    sn_gpu_bufs b;
    st = sn_gpu_bufs_create(g, s, rv, false, 0, false, &b, diag); /* b is zeroed first */
    if (st != SN_OK)
        goto done;
    if (sn_gpu_variant_is_fused(rv) && (st = fused_prepare(g, s, rv, t, &b, &plan, diag)) != SN_OK)
        goto done;
    for (size_t r = 0; r < reps; r++) {
        double t0 = sn_gpu_now_ms();
        if ((st = sn_gpu_write(g, b.keys, bytes, input, "keys", diag)) != SN_OK)
            goto done;
        g->record = true;
        if (sn_gpu_variant_is_fused(rv)) {
            st = sn_fused_enqueue(g, &b, s, &plan, t, diag);
        } else {
            for (size_t k = 0; k < L && st == SN_OK; k++)
                st = sn_gpu_enqueue_layer(g, &b, s, rv, t, k, diag);
        }
        g->record = false;
        if (st != SN_OK)
            goto done;
        if ((st = sn_gpu_read(g, b.keys, 0, bytes, out, true, "keys", diag)) != SN_OK)
            goto done;
        double t1 = sn_gpu_now_ms();
        times[r].host_ms = t1 - t0;
        cl_int err = sn_gpu_events_ms(g, &times[r].kernel_ms);
        if (err != CL_SUCCESS) {
            st = sn_gpu_cl_fail(diag, "clGetEventProfilingInfo", err);
            goto done;
        }
        sn_gpu_events_drop(g);
    }
done:
    if (st != SN_OK)
        clFinish(g->queue);
    sn_gpu_events_drop(g);
    sn_fused_plan_free(&plan);
    sn_gpu_bufs_destroy(&b);
    if (g->pinned) {
        if (st == SN_OK)
            memcpy(keys, out, bytes);
        sn_gpu_host_free(g, out);
        sn_gpu_host_free(g, input);
    } else {
        sn_free(input);
    }
    return st;
}

sn_status sn_gpu_copy_time(sn_gpu *g, uint32_t n, size_t reps, double *ms, sn_diag *diag)
{
    size_t bytes = (size_t)(n ? n : 1) * 4;
    cl_mem a = NULL, b = NULL;
    double *t = sn_calloc(reps ? reps : 1, sizeof *t);
    sn_status st = t ? SN_OK : sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    if (st == SN_OK)
        st = make_buffer(g, CL_MEM_READ_WRITE, bytes, &a, diag);
    if (st == SN_OK)
        st = make_buffer(g, CL_MEM_READ_WRITE, bytes, &b, diag);
    for (size_t r = 0; r <= reps && st == SN_OK; r++) { /* r == 0: warm-up */
        cl_event ev;
        cl_int err = clEnqueueCopyBuffer(g->queue, a, b, 0, 0, bytes, 0, NULL, &ev);
        if (err != CL_SUCCESS) {
            st = sn_gpu_cl_fail(diag, "clEnqueueCopyBuffer", err);
            break;
        }
        double one = 0;
        const char *call = "clWaitForEvents(copy)";
        err = clWaitForEvents(1, &ev);
        if (err == CL_SUCCESS) {
            call = "clGetEventProfilingInfo(copy)";
            err = sn_gpu_event_span_ms(ev, ev, &one);
        }
        clReleaseEvent(ev);
        if (err != CL_SUCCESS)
            st = sn_gpu_cl_fail(diag, call, err);
        else if (r > 0)
            t[r - 1] = one;
    }
    if (st == SN_OK) { /* median */
        for (size_t i = 1; i < reps; i++)
            for (size_t j = i; j > 0 && t[j - 1] > t[j]; j--) {
                double q = t[j];
                t[j] = t[j - 1];
                t[j - 1] = q;
            }
        *ms = reps ? (reps % 2 ? t[reps / 2] : (t[reps / 2 - 1] + t[reps / 2]) / 2) : 0;
    }
    if (a)
        clReleaseMemObject(a);
    if (b)
        clReleaseMemObject(b);
    sn_free(t);
    return st;
}
