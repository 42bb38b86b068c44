/* test_gpu_calls.c - every wrapped OpenCL call failing at every one of its
 * uses (issue 36), as SQLite's OOM tests loop their countdown: for each
 * operation of src/gpu (opening a device, verifying with each kernel
 * variant, timing, the GPU sorts, gpu batch's kernels, the 0-1 checker)
 * and each call it makes, the Nth call fails for N = 1 .. the calls a
 * clean run makes (sn_gpu_inject_error_at). The operation then either
 * fails with a message that names the call and the error, or (where the
 * call only adds detail: a build log, a sort's kernel time) succeeds with
 * the right result, compared with the CPU's; only the calls listed in
 * may_tolerate may be survived that way, and only where they were reached
 * (anything else that succeeds swallowed an error); nothing it allocated
 * is left (sn_alloc_live); the device stays usable. Then the same
 * operations with their Nth allocation failing (sn_alloc_fail_after), N =
 * 1, 2, ...: SN_ENOMEM and "out of memory", or the right result, and no
 * leak. Skips (77) only when no OpenCL platform exists. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/check.h"
#include "core/input.h"
#include "core/schedule.h"
#include "gpu/batch.h"
#include "gpu/gpu.h"
#include "gpu/gpu_internal.h"
#include "gpu/sorts.h"
#include "gpu_skip.h"
#include "sn_test.h"

static sn_gpu *g;
static sn_gpu_sorter *sorter;

static const char *const calls[] = {
    "clGetPlatformInfo",
    "clGetDeviceInfo",
    "clCreateContext",
    "clCreateCommandQueue",
    "clCreateProgramWithSource",
    "clBuildProgram",
    "clGetProgramBuildInfo",
    "clCreateKernel",
    "clGetKernelInfo",
    "clGetKernelWorkGroupInfo",
    "clSetKernelArg",
    "clCreateBuffer",
    "clEnqueueNDRangeKernel",
    "clEnqueueReadBuffer",
    "clEnqueueWriteBuffer",
    "clEnqueueCopyBuffer",
    "clEnqueueFillBuffer",
    "clEnqueueMapBuffer",
    "clEnqueueMigrateMemObjects",
    "clGetEventProfilingInfo",
    "clFinish",
    "clWaitForEvents",
};

/* The call made to fail in the run under way (NULL: none), for the
 * operations whose right result depends on it (op_sort). */
static const char *failing_call;

/* One operation: SN_OK with a right result, or an error in d. *ok is
 * false when it returned SN_OK with a wrong result. */
typedef sn_status (*op_fn)(const void *arg, bool *ok, sn_diag *d);

typedef struct op {
    const char *name;
    op_fn fn;
    const void *arg;
    unsigned spread; /* the uses of a call tried: the first `spread`, then
                      * `spread` more spread to the last (0: 12) */
} op;

/* Opening a device; one that opened must be g's device and sort on it
 * (bitonic:8, against the CPU's sort): a run that survived a failure to
 * build, make a queue or a kernel is caught here. */
static sn_status op_open(const void *arg, bool *ok, sn_diag *d)
{
    (void)arg;
    enum { N = 8 };
    sn_schedule *s = NULL;
    *ok = true;
    if (sn_schedule_generate(SN_ALGO_BITONIC, N, &s, d) != SN_OK)
        return SN_OK; /* the test's set-up (core) ran out of memory */
    sn_gpu *h = NULL;
    sn_status st = sn_gpu_open(NULL, &h, d);
    *ok = (st == SN_OK) == (h != NULL);
    if (st == SN_OK && h) {
        uint32_t keys[N] = {5, 3, 7, 0, 6, 1, 4, 2};
        *ok = strcmp(sn_gpu_device_name(h), sn_gpu_device_name(g)) == 0;
        st = sn_gpu_run(h, s, SN_GPU_VARIANT_AUTO, SN_KEY_U32, keys, NULL, d);
        for (uint32_t i = 0; st == SN_OK && i < N; i++)
            *ok = *ok && keys[i] == i;
    }
    sn_gpu_close(h);
    sn_schedule_destroy(s);
    return st;
}

typedef struct verify_case {
    sn_algo algo;
    uint32_t n;
    sn_gpu_variant v;
    bool payload, per_layer, inject;
    const char *user; /* a student's kernel, run in this process */
} verify_case;

/* tests/student_layer.cl: a correct student's layer kernel */
static const char student[] =
    "__kernel void sn_layer(__global uint *keys, __global uint *payload,\n"
    "    __global const uint2 *pairs, uint count, uint n, uint algo, uint p, uint q)\n"
    "{\n"
    "    uint t = get_global_id(0);\n"
    "    if (t >= count)\n"
    "        return;\n"
    "    uint a = pairs[t].x, b = pairs[t].y;\n"
    "    uint x = keys[a], y = keys[b];\n"
    "    if (x > y) {\n"
    "        keys[a] = y;\n"
    "        keys[b] = x;\n"
    "        uint pa = payload[a];\n"
    "        payload[a] = payload[b];\n"
    "        payload[b] = pa;\n"
    "    }\n"
    "}\n";

static sn_status op_verify(const void *arg, bool *ok, sn_diag *d)
{
    const verify_case *c = arg;
    sn_schedule *s = NULL;
    *ok = true; /* (the test's own allocations fail as the library's do) */
    if (sn_schedule_generate(c->algo, c->n, &s, d) != SN_OK)
        return SN_OK; /* the test's set-up (core) ran out of memory */
    sn_status st;
    uint32_t *keys = malloc((size_t)c->n * 4);
    sn_input_spec spec = {SN_INPUT_RANDOM, 7, NULL};
    if (!keys || sn_input_make(&spec, SN_KEY_I32, c->n, keys, d) != SN_OK) {
        free(keys);
        sn_schedule_destroy(s);
        *ok = false;
        return SN_OK;
    }
    sn_gpu_verify_opts o = {c->v, c->per_layer, c->inject, 1, 3, c->user};
    sn_gpu_report rep;
    st = sn_gpu_verify(g, s, SN_KEY_I32, keys, c->payload, &o, &rep, d);
    /* a fault is found where it was put, else the run is identical */
    *ok = st != SN_OK ||
          (c->inject ? !rep.identical && rep.layer == 1 && rep.index == 3 : rep.identical);
    free(keys);
    sn_schedule_destroy(s);
    return st;
}

static sn_status op_time(const void *arg, bool *ok, sn_diag *d)
{
    const verify_case *c = arg;
    sn_schedule *s = NULL;
    *ok = true;
    if (sn_schedule_generate(c->algo, c->n, &s, d) != SN_OK)
        return SN_OK; /* the test's set-up (core) ran out of memory */
    sn_status st;
    uint32_t *keys = calloc(c->n, 4);
    sn_gpu_timing t[2];
    sn_gpu_set_pinned(g, c->payload); /* payload: here, pinned host memory */
    st = keys ? sn_gpu_time(g, s, c->v, SN_KEY_U32, keys, 2, t, d) : SN_EINVAL;
    sn_gpu_set_pinned(g, false);
    *ok = st != SN_OK || (t[0].kernel_ms >= 0 && t[1].kernel_ms >= 0);
    if (st == SN_OK) {
        double ms = -1;
        st = sn_gpu_copy_time(g, c->n, 2, &ms, d);
        *ok = st != SN_OK || ms >= 0;
    }
    free(keys);
    sn_schedule_destroy(s);
    return st;
}

/* Sort 300 keys with o on so and compare keys and payload with the CPU's
 * sort (sn_sort_reference). A tolerated failure to read the profile gives
 * no kernel time (0), never a made-up one. */
static sn_status sort_on(sn_gpu_sorter *so, const sn_gpu_sort_opts *o, bool *ok, sn_diag *d)
{
    enum { N = 300 };
    uint32_t keys[N], pay[N], ref[N], refp[N];
    for (uint32_t i = 0; i < N; i++) {
        keys[i] = (i * 2654435761u) % 97u;
        pay[i] = i;
    }
    *ok = true;
    sn_status st = sn_sort_reference(o->type, keys, pay, N, ref, refp, d);
    if (st != SN_OK)
        return st;
    sn_gpu_sort_stats stats;
    st = sn_gpu_sort(so, o, keys, pay, N, &stats, d);
    if (st == SN_OK)
        *ok = *ok && memcmp(keys, ref, sizeof keys) == 0 && memcmp(pay, refp, sizeof pay) == 0;
    if (st == SN_OK && failing_call && strcmp(failing_call, "clGetEventProfilingInfo") == 0)
        *ok = *ok && stats.kernel_ms == 0;
    return st;
}

static sn_status op_sort(const void *arg, bool *ok, sn_diag *d)
{
    return sort_on(sorter, arg, ok, d);
}

/* The radix sort as onesweep (kernels/onesweep.cl: a fill, a histogram
 * kernel, a scatter per digit), which pocl does not choose on its own. */
static sn_status op_sort_onesweep(const void *arg, bool *ok, sn_diag *d)
{
    sn_gpu_tuning keep = *sn_gpu_tuning_get(g), t = keep;
    t.radix_onesweep = SN_GPU_ONESWEEP_ON;
    sn_gpu_set_tuning(g, &t);
    sn_status st = sort_on(sorter, arg, ok, d);
    sn_gpu_set_tuning(g, &keep);
    return st;
}

/* Making a sorter; one that was made must sort (its merge sort: the
 * kernels of several programs, against the CPU's sort). */
static sn_status op_sorter(const void *arg, bool *ok, sn_diag *d)
{
    (void)arg;
    sn_gpu_sorter *so = NULL;
    sn_status st = sn_gpu_sorter_create(g, &so, d);
    *ok = (st == SN_OK) == (so != NULL);
    if (st == SN_OK && so) {
        bool sorted = false;
        sn_gpu_sort_opts o = {SN_SORT_MERGE, SN_KEY_I32, 0, false};
        st = sort_on(so, &o, &sorted, d);
        *ok = *ok && sorted;
    }
    sn_gpu_sorter_destroy(so);
    return st;
}

typedef struct batch_case {
    bool payload;
    sn_batch_layout layout;
    size_t reps;
    bool inject;
} batch_case;

static sn_status op_batch(const void *arg, bool *ok, sn_diag *d)
{
    const batch_case *c = arg;
    enum { M = 5, W = 8 };
    *ok = true;
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    if (sn_schedule_generate(SN_ALGO_BITONIC, W, &s, d) != SN_OK ||
        sn_schedule_to_network(s, &net, d) != SN_OK) {
        sn_schedule_destroy(s);
        return SN_OK; /* the test's set-up (core) ran out of memory */
    }
    sn_status st;
    sn_batch_kernel *k = NULL;
    st = sn_batch_kernel_create(g, net, SN_KEY_I32, c->payload, 1, &k, d);
    uint32_t in[M * W], keys[M * W], pay[M * W];
    for (uint32_t i = 0; i < M * W; i++)
        in[i] = keys[i] = (i * 2654435761u) % 13u;
    for (uint32_t a = 0; a < M; a++) /* the payload starts as each array's wires */
        for (uint32_t w = 0; w < W; w++)
            pay[sn_batch_index(c->layout, W, M, a, w)] = w;
    double ms[2];
    sn_batch_run r = {c->layout, M, c->reps, c->inject, 2, 5};
    if (st == SN_OK)
        st = sn_batch_sort(k, &r, keys, c->payload ? pay : NULL, c->reps ? ms : NULL, d);
    if (st == SN_OK) {
        sn_batch_report rep;
        sn_batch_compare(s, SN_KEY_I32, c->layout, M, in, keys, c->payload ? pay : NULL, &rep);
        *ok = c->inject ? !rep.identical && rep.array == 2 && rep.wire == 5 : rep.identical;
    } else {
        *ok = true;
    }
    sn_batch_kernel_destroy(k);
    sn_network_destroy(net);
    sn_schedule_destroy(s);
    return st;
}

typedef struct check_case {
    uint32_t n;
    size_t drop; /* the comparator left out (SIZE_MAX: none): a network that fails */
} check_case;

/* Odd-even merge sort on n wires, without comparator `drop` */
static sn_network *check_network(const check_case *c, sn_diag *d)
{
    sn_schedule *s = NULL;
    sn_network *full = NULL, *net = NULL;
    if (sn_schedule_generate(SN_ALGO_ODDEVEN_MERGE, c->n, &s, d) == SN_OK &&
        sn_schedule_to_network(s, &full, d) == SN_OK && (net = sn_network_create(c->n)) != NULL) {
        sn_comparator k;
        for (size_t i = 0; sn_network_comparator(full, i, &k, NULL); i++)
            if (i != c->drop && sn_network_add_asap(net, k.a, k.b, d) != SN_OK) {
                sn_network_destroy(net);
                net = NULL;
                break;
            }
    }
    sn_network_destroy(full);
    sn_schedule_destroy(s);
    return net;
}

/* The device's brute force against the CPU's (one thread): the verdict,
 * the failing count and the smallest counterexample, so that a run whose
 * kernel never ran (an answer of zeros, "sorts") cannot pass for one that
 * did. */
static sn_status op_check(const void *arg, bool *ok, sn_diag *d)
{
    const check_case *c = arg;
    *ok = true;
    sn_network *net = check_network(c, d);
    if (!net)
        return SN_OK; /* the test's set-up (core) ran out of memory */
    sn_check_options opt;
    sn_check_options_init(&opt);
    opt.method = SN_CHECK_BRUTEFORCE;
    opt.threads = 1;
    sn_check_result cpu;
    if (sn_check_run(net, &opt, &cpu, d) != SN_OK) {
        sn_network_destroy(net);
        return SN_OK; /* the same */
    }
    CHECKF(cpu.sorts == (c->drop == SIZE_MAX), "the CPU's verdict on oddeven-merge:%u less #%zu",
           c->n, c->drop);
    sn_check_result res;
    sn_status st = sn_gpu_check(g, net, &opt, &res, d);
    if (st == SN_OK) {
        *ok = res.sorts == cpu.sorts && res.failing_count == cpu.failing_count &&
              (cpu.sorts || res.counterexample_index == cpu.counterexample_index);
        sn_check_result_free(&res);
    }
    sn_check_result_free(&cpu);
    sn_network_destroy(net);
    return st;
}

static unsigned failures_seen, tolerated;

/* The failures an operation may survive (SN_OK and the right result): the
 * calls that only add detail. Any other call that fails and still gives
 * SN_OK was swallowed. */
static bool may_tolerate(const op *o, const char *call)
{
    /* the build log, read after every build (the build itself succeeded) */
    if (strcmp(call, "clGetProgramBuildInfo") == 0)
        return true;
    /* a sort's kernel time, reported 0 (sort_on checks it); for timing
     * (op_time) the profile is the result, so its failure is an error */
    if (strcmp(call, "clGetEventProfilingInfo") == 0)
        return o->fn == op_sort || o->fn == op_sorter || o->fn == op_sort_onesweep;
    return false;
}

/* Blocks allocated, less g's build log (each build replaces it: one block,
 * or none when that allocation failed) */
static size_t live_blocks(void)
{
    return sn_alloc_live() - (g->build_log != NULL);
}

/* Run o with `call` failing at each of its uses in turn. */
static void countdown(const op *o, const char *call)
{
    sn_diag d;
    bool ok;
    sn_gpu_inject_error_at(call, CL_OUT_OF_RESOURCES, 1000000);
    sn_diag_clear(&d);
    sn_status st = o->fn(o->arg, &ok, &d);
    unsigned made = sn_gpu_inject_error_at(NULL, 0, 1);
    CHECKF(st == SN_OK && ok, "%s without a failure: %d %s", o->name, (int)st, d.text);
    /* every use up to 12 (fewer for the operations that build a program
     * each time), then as many spread to the last: the call sites of a
     * loop (a launch per layer) repeat, and the suite's time stays short */
    unsigned m = o->spread ? o->spread : 12;
    for (unsigned nth = 1; nth <= made;
         nth = nth < m || made <= 2 * m ? nth + 1 : nth + (made - m + 1) / m) {
        size_t live = live_blocks();
        sn_gpu_inject_error_at(call, CL_OUT_OF_RESOURCES, nth);
        sn_diag_clear(&d);
        failing_call = call;
        st = o->fn(o->arg, &ok, &d);
        failing_call = NULL;
        unsigned seen = sn_gpu_inject_error_at(NULL, 0, 1);
        CHECKF(ok, "%s, %s #%u failing: a wrong result (status %d)", o->name, call, nth, (int)st);
        CHECKF(live_blocks() == live, "%s, %s #%u failing: %zu block(s) left", o->name, call, nth,
               live_blocks() - live);
        if (st == SN_OK) {
            tolerated++;
            CHECKF(seen >= nth, "%s, %s #%u: succeeded without reaching the call (%u made)",
                   o->name, call, nth, seen);
            CHECKF(may_tolerate(o, call), "%s, %s #%u failing: succeeded (the error was swallowed)",
                   o->name, call, nth);
            continue;
        }
        failures_seen++;
        CHECKF(seen >= nth, "%s, %s #%u: failed before the call (%s)", o->name, call, nth, d.text);
        CHECKF(st == SN_EDEVICE || st == SN_EBUILD || st == SN_EPARSE,
               "%s, %s #%u failing: status %d (%s)", o->name, call, nth, (int)st, d.text);
        CHECKF(strstr(d.text, call) && strstr(d.text, "CL_OUT_OF_RESOURCES (-5)"),
               "%s, %s #%u failing: '%s'", o->name, call, nth, d.text);
    }
}

/* Run o with its kth allocation failing, k = 1, 2, ... until a run makes
 * fewer: each ends in SN_ENOMEM and its message, or (an optional
 * allocation: a build log) the right result; nothing leaks. */
static unsigned oom_failures;

static void oom_countdown(const op *o)
{
    for (size_t k = 1; k <= 2000; k++) {
        size_t live = live_blocks();
        sn_diag d;
        bool ok;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = o->fn(o->arg, &ok, &d);
        size_t made = sn_alloc_fail_after(0);
        CHECKF(ok, "%s, allocation %zu failing: a wrong result (status %d)", o->name, k, (int)st);
        CHECKF(live_blocks() == live, "%s, allocation %zu failing: %zu block(s) left", o->name, k,
               live_blocks() - live);
        if (st != SN_OK) {
            oom_failures++;
            CHECKF(st == SN_ENOMEM && strstr(d.text, "out of memory"),
                   "%s, allocation %zu failing: status %d: %s", o->name, k, (int)st, d.text);
        } else if (made < k) {
            return; /* each allocation has failed once */
        }
    }
    CHECKF(false, "%s: still failing after 2000 allocations", o->name);
}

int main(void)
{
    sn_diag d;
    sn_diag_clear(&d);
    g = sn_test_gpu_open(NULL);
    CHECKF(sn_gpu_sorter_create(g, &sorter, &d) == SN_OK, "sorter: %s", d.text);

    static const verify_case v_states = {SN_ALGO_BITONIC, 16,  SN_GPU_VARIANT_AUTO, true, false,
                                         false,           NULL};
    static const verify_case v_pairs = {
        SN_ALGO_PAIRWISE, 12, SN_GPU_VARIANT_PAIRS, false, true, false, NULL};
    static const verify_case v_fused = {SN_ALGO_BITONIC, 64,  SN_GPU_VARIANT_FUSED, true, false,
                                        false,           NULL};
    static const verify_case v_serial = {
        SN_ALGO_ODDEVEN_MERGE, 32, SN_GPU_VARIANT_FUSED_SERIAL, false, false, false, NULL};
    static const verify_case v_inject = {
        SN_ALGO_BITONIC, 16, SN_GPU_VARIANT_XOR, false, false, true, NULL};
    static const verify_case v_digests = {
        SN_ALGO_TRANSPOSITION, 1000, SN_GPU_VARIANT_AUTO, false, false, false, NULL};
    static const verify_case v_layer = {
        SN_ALGO_BITONIC, 16, SN_GPU_VARIANT_SHIFT, true, true, true, NULL};
    static const verify_case v_user = {SN_ALGO_PAIRWISE, 12, SN_GPU_VARIANT_AUTO, true, false, true,
                                       student};
    static const verify_case t_shift = {SN_ALGO_BITONIC, 256, SN_GPU_VARIANT_SHIFT, false, false,
                                        false,           NULL};
    static const verify_case t_fused = {SN_ALGO_BITONIC, 256, SN_GPU_VARIANT_FUSED, true, false,
                                        false,           NULL};
    static const batch_case b_rows = {false, SN_BATCH_ROWS, 0, true};
    static const batch_case b_cols = {true, SN_BATCH_COLUMNS, 2, false};
    static const check_case check_sorts = {8, SIZE_MAX};
    static const check_case check_fails = {8, 5}; /* 22 of the 256 inputs fail */
    static sn_gpu_sort_opts sorts[SN_SORT_COUNT];
    op ops[32];
    size_t nops = 0;
    ops[nops++] = (op){"open", op_open, NULL, 6};
    ops[nops++] = (op){"verify bitonic:16 --payload", op_verify, &v_states, 0};
    ops[nops++] = (op){"verify pairwise:12 --variant pairs --per-layer", op_verify, &v_pairs, 0};
    ops[nops++] = (op){"verify bitonic:64 --variant fused --payload", op_verify, &v_fused, 0};
    ops[nops++] = (op){"verify oddeven-merge:32 --variant fused-serial", op_verify, &v_serial, 0};
    ops[nops++] = (op){"verify bitonic:16 --variant xor --inject-fault", op_verify, &v_inject, 0};
    ops[nops++] = (op){"verify transposition:1000 (digests)", op_verify, &v_digests, 0};
    ops[nops++] =
        (op){"verify bitonic:16 --per-layer --payload --inject-fault", op_verify, &v_layer, 0};
    ops[nops++] =
        (op){"verify pairwise:12 --kernel --payload --inject-fault", op_verify, &v_user, 4};
    ops[nops++] = (op){"time bitonic:256 --variant shift", op_time, &t_shift, 0};
    ops[nops++] = (op){"time bitonic:256 --variant fused --pinned", op_time, &t_fused, 0};
    ops[nops++] = (op){"sorter", op_sorter, NULL, 4};
    for (int a = 0; a < SN_SORT_COUNT && sorter; a++) {
        sorts[a] = (sn_gpu_sort_opts){(sn_sort_algo)a, a % 2 ? SN_KEY_U32 : SN_KEY_I32, 0, false};
        ops[nops++] = (op){sn_sort_algo_name((sn_sort_algo)a), op_sort, &sorts[a], 0};
    }
    static const sn_gpu_sort_opts onesweep = {SN_SORT_RADIX, SN_KEY_F32, 0, false};
    if (sorter)
        ops[nops++] = (op){"radix as onesweep", op_sort_onesweep, &onesweep, 0};
    ops[nops++] = (op){"batch rows --inject-fault", op_batch, &b_rows, 4};
    ops[nops++] = (op){"batch columns --payload --reps 2", op_batch, &b_cols, 4};
    ops[nops++] = (op){"check oddeven-merge:8", op_check, &check_sorts, 4};
    ops[nops++] = (op){"check oddeven-merge:8 less #5", op_check, &check_fails, 4};
    for (size_t i = 0; i < nops; i++) {
        double t0 = sn_gpu_now_ms();
        for (size_t c = 0; c < sizeof calls / sizeof *calls; c++)
            countdown(&ops[i], calls[c]);
        if (getenv("SN_TEST_VERBOSE"))
            fprintf(stderr, "%s: %.0f ms\n", ops[i].name, sn_gpu_now_ms() - t0);
    }
    printf("%u injected failures ended their operation, %u were tolerated\n", failures_seen,
           tolerated);
    for (size_t i = 0; i < nops; i++)
        oom_countdown(&ops[i]);
    printf("%u allocation failures ended their operation\n", oom_failures);
    CHECK(oom_failures > 50);
    CHECK(failures_seen > 500);
    sn_gpu_sorter_destroy(sorter);
    sn_gpu_close(g);
    return sn_test_finish("test_gpu_calls");
}
