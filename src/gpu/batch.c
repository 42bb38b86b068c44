/* batch.c - M small sorts at once on the device (see batch.h): the
 * kernels are core/codegen.c's OpenCL output, built as they are, so what
 * `sortnet gen --format opencl` writes is exactly what runs here.
 *
 * Invariant: a launch covers every array exactly once (rows: whole
 * work-groups of wg work-items, the last one partly idle; columns: one
 * work-item per array), so the device output is a function of the input
 * alone and compares array by array with the reference executor. */
#include "gpu/batch.h"

#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/codegen.h"
#include "gpu/gpu_internal.h"

struct sn_batch_kernel {
    sn_gpu *g;
    uint32_t n;
    sn_key_type t;
    bool payload;
    unsigned wg; /* rows kernel */
    cl_program prog;
    cl_kernel rows, columns;
};

const char *sn_batch_layout_name(sn_batch_layout l)
{
    return l == SN_BATCH_COLUMNS ? "columns" : "rows";
}

bool sn_batch_layout_parse(const char *s, sn_batch_layout *out)
{
    if (s && strcmp(s, "rows") == 0)
        *out = SN_BATCH_ROWS;
    else if (s && strcmp(s, "columns") == 0)
        *out = SN_BATCH_COLUMNS;
    else
        return false;
    return true;
}

/* The rows kernel's work-group: codegen's choice, halved until the device
 * allows it and its local tiles fit the device's local memory. */
static unsigned rows_wg(const sn_gpu *g, const sn_network *net, const sn_codegen_opts *o)
{
    unsigned wg = sn_codegen_rows_wg(net, o);
    uint64_t tile = (uint64_t)(sn_network_wires(net) | 1u) * 4 * (o->payload ? 2 : 1);
    while (wg > 1 && (wg > g->info.max_work_group || wg * tile + 1024 > g->info.local_mem))
        wg /= 2;
    return wg;
}

sn_status sn_batch_kernel_create(sn_gpu *g, const sn_network *net, sn_key_type t, bool payload,
                                 unsigned repeat, sn_batch_kernel **out, sn_diag *diag)
{
    *out = NULL;
    uint32_t n = sn_network_wires(net);
    if (n < 1 || n > SN_BATCH_MAX_WIRES)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "n = %u: batch kernels hold a whole array in registers, n must be "
                           "1..%u",
                           n, SN_BATCH_MAX_WIRES);
    sn_codegen_opts o;
    sn_codegen_opts_init(&o);
    o.lang = SN_CODEGEN_OPENCL;
    o.type = t;
    o.payload = payload;
    o.name = "sn_batch";
    o.wg = rows_wg(g, net, &o);
    char *src = NULL;
    sn_status st = sn_codegen(net, &o, &src, NULL, diag);
    if (st != SN_OK)
        return st;
    sn_batch_kernel *k = sn_calloc(1, sizeof *k);
    if (!k) {
        sn_free(src);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    *k = (sn_batch_kernel){g, n, t, payload, o.wg, NULL, NULL, NULL};
    char opts[64] = "";
    if (repeat > 1)
        snprintf(opts, sizeof opts, "-Dsn_batch_REPEAT=%u", repeat);
    st = sn_gpu_build_source_opts(g, src, opts, false, &k->prog, diag);
    sn_free(src);
    cl_int err = CL_SUCCESS;
    if (st == SN_OK) {
        k->rows = clCreateKernel(k->prog, "sn_batch_rows", &err);
        if (err == CL_SUCCESS)
            k->columns = clCreateKernel(k->prog, "sn_batch_columns", &err);
        if (err != CL_SUCCESS)
            st = sn_gpu_cl_fail(diag, "clCreateKernel(sn_batch)", err);
    }
    if (st != SN_OK) {
        sn_batch_kernel_destroy(k);
        return st;
    }
    *out = k;
    return SN_OK;
}

void sn_batch_kernel_destroy(sn_batch_kernel *k)
{
    if (!k)
        return;
    if (k->rows)
        clReleaseKernel(k->rows);
    if (k->columns)
        clReleaseKernel(k->columns);
    if (k->prog)
        clReleaseProgram(k->prog);
    sn_free(k);
}

unsigned sn_batch_kernel_wg(const sn_batch_kernel *k)
{
    return k->wg;
}

static sn_status make_buf(sn_gpu *g, size_t bytes, cl_mem *out, const char *what, sn_diag *diag)
{
    if (bytes > g->info.max_alloc)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%s: %.1f MiB, more than the device's largest buffer (%.1f MiB)", what,
                           (double)bytes / 1048576.0, (double)g->info.max_alloc / 1048576.0);
    cl_int err;
    *out = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        sn_status st = sn_gpu_cl_fail(diag, "clCreateBuffer", err);
        return st == SN_ELIMIT
                   ? sn_diag_set(diag, SN_ELIMIT, 0, 0,
                                 "the device cannot hold %s (%.1f MiB): clCreateBuffer failed: "
                                 "%s (%d)",
                                 what, (double)bytes / 1048576.0, sn_gpu_cl_error_name(err),
                                 (int)err)
                   : st;
    }
    return SN_OK;
}

/* Launch the kernel of layout l on buffers keys, pay; *ms gets its kernel
 * time when ms != NULL. */
static sn_status launch(sn_batch_kernel *k, sn_batch_layout l, uint64_t m, cl_mem keys, cl_mem pay,
                        double *ms, sn_diag *diag)
{
    cl_kernel kern = l == SN_BATCH_ROWS ? k->rows : k->columns;
    cl_uint mm = (cl_uint)m, arg = 0;
    cl_int err = clSetKernelArg(kern, arg++, sizeof keys, &keys);
    if (err == CL_SUCCESS && k->payload)
        err = clSetKernelArg(kern, arg++, sizeof pay, &pay);
    if (err == CL_SUCCESS)
        err = clSetKernelArg(kern, arg++, sizeof mm, &mm);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clSetKernelArg(sn_batch)", err);
    size_t wg = l == SN_BATCH_ROWS
                    ? k->wg
                    : (k->g->info.max_work_group < 256 ? k->g->info.max_work_group : 256);
    size_t global = sn_gpu_round_up((size_t)m, wg);
    cl_event ev = NULL;
    err =
        clEnqueueNDRangeKernel(k->g->queue, kern, 1, NULL, &global, &wg, 0, NULL, ms ? &ev : NULL);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clEnqueueNDRangeKernel(sn_batch)", err);
    if (!ms)
        return SN_OK;
    const char *call = "clWaitForEvents(sn_batch)";
    err = clWaitForEvents(1, &ev);
    if (err == CL_SUCCESS) {
        call = "clGetEventProfilingInfo(sn_batch)";
        err = sn_gpu_event_span_ms(ev, ev, ms);
    }
    clReleaseEvent(ev);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, call, err);
    return SN_OK;
}

/* The injected fault: flip the lowest bit of one word of the result. */
static sn_status inject(sn_batch_kernel *k, const sn_batch_run *r, cl_mem keys, sn_diag *diag)
{
    size_t off = sn_batch_index(r->layout, k->n, r->arrays, r->inject_array, r->inject_wire) * 4;
    uint32_t word = 0;
    sn_status st = sn_gpu_read(k->g, keys, off, 4, &word, true, "keys", diag);
    word ^= 1u;
    cl_int err =
        st == SN_OK ? clEnqueueWriteBuffer(k->g->queue, keys, CL_TRUE, off, 4, &word, 0, NULL, NULL)
                    : CL_SUCCESS;
    return st == SN_OK && err != CL_SUCCESS ? sn_gpu_cl_fail(diag, "clEnqueueWriteBuffer", err)
                                            : st;
}

sn_status sn_batch_sort(sn_batch_kernel *k, const sn_batch_run *r, uint32_t *keys,
                        uint32_t *payload, double *kernel_ms, sn_diag *diag)
{
    if (r->arrays < 1 || r->arrays > UINT32_MAX)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%llu arrays: 1..2^32-1 are possible",
                           (unsigned long long)r->arrays);
    if (r->inject && (r->inject_array >= r->arrays || r->inject_wire >= k->n))
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "no array %llu wire %u to corrupt (%llu arrays of %u keys)",
                           (unsigned long long)r->inject_array, r->inject_wire,
                           (unsigned long long)r->arrays, k->n);
    size_t bytes;
    if (!sn_mul_size((size_t)r->arrays, (size_t)k->n * 4, &bytes))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "too many keys");
    cl_mem src = NULL, dk = NULL, dp = NULL;
    sn_status st = make_buf(k->g, bytes, &dk, "the keys", diag);
    if (st == SN_OK && k->payload)
        st = make_buf(k->g, bytes, &dp, "the payload", diag);
    if (st == SN_OK && r->reps > 1) /* later runs start from a device copy of the input */
        st = make_buf(k->g, bytes, &src, "a copy of the keys", diag);
    if (st == SN_OK)
        st = sn_gpu_write(k->g, src ? src : dk, bytes, keys, "keys", diag);
    size_t runs = r->reps ? r->reps : 1;
    for (size_t i = 0; i < runs && st == SN_OK; i++) {
        cl_int err = CL_SUCCESS;
        if (src)
            err = clEnqueueCopyBuffer(k->g->queue, src, dk, 0, 0, bytes, 0, NULL, NULL);
        if (err != CL_SUCCESS) {
            st = sn_gpu_cl_fail(diag, "clEnqueueCopyBuffer", err);
            break;
        }
        if (dp)
            st = sn_gpu_write(k->g, dp, bytes, payload, "payload", diag);
        if (st == SN_OK)
            st = launch(k, r->layout, r->arrays, dk, dp,
                        r->reps && kernel_ms ? &kernel_ms[i] : NULL, diag);
    }
    if (st == SN_OK && r->inject)
        st = inject(k, r, dk, diag);
    if (st == SN_OK)
        st = sn_gpu_read(k->g, dk, 0, bytes, keys, false, "keys", diag);
    if (st == SN_OK && dp)
        st = sn_gpu_read(k->g, dp, 0, bytes, payload, false, "payload", diag);
    if (st == SN_OK)
        st = sn_gpu_finish(k->g, diag);
    else
        clFinish(k->g->queue);
    if (src)
        clReleaseMemObject(src);
    if (dk)
        clReleaseMemObject(dk);
    if (dp)
        clReleaseMemObject(dp);
    return st;
}

static bool ascending(sn_key_type t, const uint32_t *v, uint32_t n)
{
    for (uint32_t w = 1; w < n; w++)
        if (sn_key_to_ordered(t, v[w - 1]) > sn_key_to_ordered(t, v[w]))
            return false;
    return true;
}

void sn_batch_compare(const sn_schedule *s, sn_key_type t, sn_batch_layout l, uint64_t m,
                      const uint32_t *input, const uint32_t *out_keys, const uint32_t *out_pay,
                      sn_batch_report *rep)
{
    uint32_t n = sn_schedule_wires(s);
    uint32_t k[SN_BATCH_MAX_WIRES], p[SN_BATCH_MAX_WIRES], dev[SN_BATCH_MAX_WIRES];
    memset(rep, 0, sizeof *rep);
    rep->identical = true;
    for (uint64_t a = 0; a < m; a++) {
        for (uint32_t w = 0; w < n; w++) {
            k[w] = input[sn_batch_index(l, n, m, a, w)];
            dev[w] = out_keys[sn_batch_index(l, n, m, a, w)];
            p[w] = w;
        }
        sn_exec_run(s, t, k, out_pay ? p : NULL);
        if (!ascending(t, dev, n) && rep->unsorted++ == 0)
            rep->first_unsorted = a;
        if (!rep->identical)
            continue;
        for (uint32_t w = 0; w < n; w++) {
            uint32_t dp = out_pay ? out_pay[sn_batch_index(l, n, m, a, w)] : 0;
            bool key_bad = dev[w] != k[w], pay_bad = out_pay && dp != p[w];
            if (key_bad || pay_bad) {
                rep->identical = false;
                rep->array = a;
                rep->wire = w;
                rep->in_payload = !key_bad;
                rep->expected = key_bad ? k[w] : p[w];
                rep->actual = key_bad ? dev[w] : dp;
                break;
            }
        }
    }
}
