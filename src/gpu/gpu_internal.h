/* gpu_internal.h - the body of sn_gpu and the helpers the files of src/gpu
 * share (not installed, not for other modules). */
#ifndef SN_GPU_INTERNAL_H
#define SN_GPU_INTERNAL_H

#include <CL/cl.h>

#include "gpu/gpu.h"

/* Kernels of kernels/sortnet.cl, by role. */
enum {
    K_PAIRS = 0,
    K_BITONIC_LEFT,
    K_BITONIC_XOR,
    K_BITONIC_DIV,
    K_BITONIC_SHIFT,
    K_OEM_LEFT,
    K_OEM_DIV,
    K_OEM_SHIFT,
    K_TRANS_LEFT,
    K_TRANS_DIV,
    K_TRANS_SHIFT,
    K_DIGEST,
    K_INJECT,
    K_COUNT
};

struct sn_gpu {
    sn_gpu_device_info info;
    char display[300];
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    cl_program program;
    cl_kernel k[K_COUNT];
    size_t wg;        /* work-group size for layer kernels */
    size_t digest_wg; /* power of two, for the digest reduction */
    char *build_log;  /* sn_malloc'd, of the last build */
    /* fused kernels (kernels/fused.cl), built on first use */
    cl_program fprog[2][3]; /* [payload][key type] */
    cl_kernel kf_pass[2][3], kf_serial[2][3], kf_window[2][3];
    size_t fused_wg_max[2][3];
    /* event capture for timing: first and last launch while recording */
    bool record;
    cl_event ev_first, ev_last;
    sn_gpu_profile_fn profile; /* each timed command's own time, or NULL */
    void *profile_ctx;
    sn_gpu_tuning tune; /* the fused variants' (tuning.c) */
    bool pinned;        /* timing runs stage in pinned host memory */
    struct {
        cl_mem m;
        void *p;
    } pins[SN_GPU_PINS]; /* sn_gpu_host_alloc's blocks */
};

/* Fill t's fields from the environment's tuning knobs (SN_FUSED_TILE,
 * SN_FUSED_BIGTILE, SN_FUSED_CODEGEN) where set; SN_EINVAL naming a
 * malformed one. The only place that reads the environment. */
sn_status sn_gpu_tuning_from_env(sn_gpu_tuning *t, sn_diag *diag);
/* Whether fused tile passes run as generated straight-line kernels on g
 * (by g's tuning: GPUs by default). */
bool sn_gpu_generates(const sn_gpu *g);

/* Fill diag with "CALL failed: CL_NAME (code)"; returns SN_EDEVICE (or
 * SN_ENOMEM / SN_ELIMIT for the out-of-memory codes). */
sn_status sn_gpu_cl_fail(sn_diag *diag, const char *call, cl_int err);

/* Testing hook: from now on every call of `call` returns err without
 * reaching the driver, as a driver that cannot start does; NULL ends it.
 * The calls it can replace: clGetPlatformIDs, clGetDeviceIDs,
 * clGetPlatformInfo, clGetDeviceInfo, clCreateContext,
 * clCreateCommandQueue, clCreateProgramWithSource, clBuildProgram,
 * clGetProgramBuildInfo, clCreateKernel, clGetKernelInfo,
 * clGetKernelWorkGroupInfo, clSetKernelArg, clCreateBuffer,
 * clEnqueueNDRangeKernel, clEnqueueReadBuffer, clEnqueueWriteBuffer,
 * clEnqueueCopyBuffer, clEnqueueFillBuffer, clEnqueueMapBuffer,
 * clEnqueueMigrateMemObjects, clGetEventProfilingInfo, clFinish and
 * clWaitForEvents (the two waits still wait, then fail). Single-threaded
 * tests only. */
void sn_gpu_inject_error(const char *call, cl_int err);
/* The same from the nth call of `call` on (1 = the first); the calls
 * before it reach the driver. Returns how many calls of the previous
 * injected name were made. The environment sets it too, for the CLI's
 * tests: SN_CL_FAIL=CALL[@N][=CL_ERROR_NAME] (the error defaults to
 * CL_BUILD_PROGRAM_FAILURE for clBuildProgram,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE for clCreateBuffer and
 * CL_OUT_OF_RESOURCES for the rest); read at the first wrapped call.
 * SN_CL_FAIL=...,log=FILE: a process whose call failed so appends the
 * call's name to FILE (once, at the nth call). */
unsigned sn_gpu_inject_error_at(const char *call, cl_int err, unsigned nth);
/* Whether this call of `call` fails without reaching the driver, with
 * *err (the wrappers below). */
bool sn_gpu_injected(const char *call, cl_int *err);

/* The wrapped OpenCL calls: every file of src/gpu includes this header, so
 * the names below reach the driver through the seam above. */
static inline cl_int sn_cl_build_program(cl_program p, cl_uint n, const cl_device_id *d,
                                         const char *opts,
                                         void(CL_CALLBACK *fn)(cl_program, void *), void *u)
{
    cl_int e;
    if (sn_gpu_injected("clBuildProgram", &e))
        return e;
    return clBuildProgram(p, n, d, opts, fn, u);
}
static inline cl_mem sn_cl_create_buffer(cl_context c, cl_mem_flags f, size_t size, void *host,
                                         cl_int *err)
{
    cl_int e;
    if (!sn_gpu_injected("clCreateBuffer", &e))
        return clCreateBuffer(c, f, size, host, err);
    if (err)
        *err = e;
    return NULL;
}
static inline cl_int sn_cl_enqueue_nd_range_kernel(cl_command_queue q, cl_kernel k, cl_uint dim,
                                                   const size_t *off, const size_t *global,
                                                   const size_t *local, cl_uint nw,
                                                   const cl_event *wait, cl_event *ev)
{
    cl_int e;
    return sn_gpu_injected("clEnqueueNDRangeKernel", &e)
               ? e
               : clEnqueueNDRangeKernel(q, k, dim, off, global, local, nw, wait, ev);
}
static inline cl_int sn_cl_enqueue_read_buffer(cl_command_queue q, cl_mem m, cl_bool block,
                                               size_t off, size_t size, void *dst, cl_uint nw,
                                               const cl_event *wait, cl_event *ev)
{
    cl_int e;
    return sn_gpu_injected("clEnqueueReadBuffer", &e)
               ? e
               : clEnqueueReadBuffer(q, m, block, off, size, dst, nw, wait, ev);
}
static inline cl_int sn_cl_enqueue_write_buffer(cl_command_queue q, cl_mem m, cl_bool block,
                                                size_t off, size_t size, const void *src,
                                                cl_uint nw, const cl_event *wait, cl_event *ev)
{
    cl_int e;
    return sn_gpu_injected("clEnqueueWriteBuffer", &e)
               ? e
               : clEnqueueWriteBuffer(q, m, block, off, size, src, nw, wait, ev);
}
static inline cl_int sn_cl_enqueue_copy_buffer(cl_command_queue q, cl_mem a, cl_mem b, size_t aoff,
                                               size_t boff, size_t size, cl_uint nw,
                                               const cl_event *wait, cl_event *ev)
{
    cl_int e;
    return sn_gpu_injected("clEnqueueCopyBuffer", &e)
               ? e
               : clEnqueueCopyBuffer(q, a, b, aoff, boff, size, nw, wait, ev);
}
static inline cl_int sn_cl_enqueue_fill_buffer(cl_command_queue q, cl_mem m, const void *pat,
                                               size_t psize, size_t off, size_t size, cl_uint nw,
                                               const cl_event *wait, cl_event *ev)
{
    cl_int e;
    return sn_gpu_injected("clEnqueueFillBuffer", &e)
               ? e
               : clEnqueueFillBuffer(q, m, pat, psize, off, size, nw, wait, ev);
}
/* The calls that create, query and set up, and the waits. */
static inline cl_context
sn_cl_create_context(const cl_context_properties *props, cl_uint nd, const cl_device_id *ds,
                     void(CL_CALLBACK *fn)(const char *, const void *, size_t, void *), void *u,
                     cl_int *err)
{
    cl_int e;
    if (!sn_gpu_injected("clCreateContext", &e))
        return clCreateContext(props, nd, ds, fn, u, err);
    if (err)
        *err = e;
    return NULL;
}
static inline cl_command_queue sn_cl_create_command_queue(cl_context c, cl_device_id d,
                                                          cl_command_queue_properties props,
                                                          cl_int *err)
{
    cl_int e;
    if (!sn_gpu_injected("clCreateCommandQueue", &e))
        return clCreateCommandQueue(c, d, props, err);
    if (err)
        *err = e;
    return NULL;
}
static inline cl_program sn_cl_create_program_with_source(cl_context c, cl_uint count,
                                                          const char **strings,
                                                          const size_t *lengths, cl_int *err)
{
    cl_int e;
    if (!sn_gpu_injected("clCreateProgramWithSource", &e))
        return clCreateProgramWithSource(c, count, strings, lengths, err);
    if (err)
        *err = e;
    return NULL;
}
static inline cl_kernel sn_cl_create_kernel(cl_program p, const char *name, cl_int *err)
{
    cl_int e;
    if (!sn_gpu_injected("clCreateKernel", &e))
        return clCreateKernel(p, name, err);
    if (err)
        *err = e;
    return NULL;
}
static inline cl_int sn_cl_set_kernel_arg(cl_kernel k, cl_uint i, size_t size, const void *v)
{
    cl_int e;
    return sn_gpu_injected("clSetKernelArg", &e) ? e : clSetKernelArg(k, i, size, v);
}
static inline cl_int sn_cl_get_platform_info(cl_platform_id p, cl_platform_info what, size_t size,
                                             void *v, size_t *ret)
{
    cl_int e;
    return sn_gpu_injected("clGetPlatformInfo", &e) ? e : clGetPlatformInfo(p, what, size, v, ret);
}
static inline cl_int sn_cl_get_device_info(cl_device_id d, cl_device_info what, size_t size,
                                           void *v, size_t *ret)
{
    cl_int e;
    return sn_gpu_injected("clGetDeviceInfo", &e) ? e : clGetDeviceInfo(d, what, size, v, ret);
}
static inline cl_int sn_cl_get_program_build_info(cl_program p, cl_device_id d,
                                                  cl_program_build_info what, size_t size, void *v,
                                                  size_t *ret)
{
    cl_int e;
    return sn_gpu_injected("clGetProgramBuildInfo", &e)
               ? e
               : clGetProgramBuildInfo(p, d, what, size, v, ret);
}
static inline cl_int sn_cl_get_kernel_info(cl_kernel k, cl_kernel_info what, size_t size, void *v,
                                           size_t *ret)
{
    cl_int e;
    return sn_gpu_injected("clGetKernelInfo", &e) ? e : clGetKernelInfo(k, what, size, v, ret);
}
static inline cl_int sn_cl_get_kernel_work_group_info(cl_kernel k, cl_device_id d,
                                                      cl_kernel_work_group_info what, size_t size,
                                                      void *v, size_t *ret)
{
    cl_int e;
    return sn_gpu_injected("clGetKernelWorkGroupInfo", &e)
               ? e
               : clGetKernelWorkGroupInfo(k, d, what, size, v, ret);
}
static inline cl_int sn_cl_get_event_profiling_info(cl_event ev, cl_profiling_info what,
                                                    size_t size, void *v, size_t *ret)
{
    cl_int e;
    return sn_gpu_injected("clGetEventProfilingInfo", &e)
               ? e
               : clGetEventProfilingInfo(ev, what, size, v, ret);
}
static inline void *sn_cl_enqueue_map_buffer(cl_command_queue q, cl_mem m, cl_bool block,
                                             cl_map_flags f, size_t off, size_t size, cl_uint nw,
                                             const cl_event *wait, cl_event *ev, cl_int *err)
{
    cl_int e;
    if (!sn_gpu_injected("clEnqueueMapBuffer", &e))
        return clEnqueueMapBuffer(q, m, block, f, off, size, nw, wait, ev, err);
    if (err)
        *err = e;
    return NULL;
}
static inline cl_int sn_cl_enqueue_migrate_mem_objects(cl_command_queue q, cl_uint nm,
                                                       const cl_mem *ms, cl_mem_migration_flags f,
                                                       cl_uint nw, const cl_event *wait,
                                                       cl_event *ev)
{
    cl_int e;
    return sn_gpu_injected("clEnqueueMigrateMemObjects", &e)
               ? e
               : clEnqueueMigrateMemObjects(q, nm, ms, f, nw, wait, ev);
}
/* The waits still wait when they fail (a queue that reports an error has
 * stopped all the same): no command outlives the error path that follows,
 * writing into host memory it frees. */
static inline cl_int sn_cl_finish(cl_command_queue q)
{
    cl_int e, real = clFinish(q);
    return sn_gpu_injected("clFinish", &e) ? e : real;
}
static inline cl_int sn_cl_wait_for_events(cl_uint n, const cl_event *evs)
{
    cl_int e, real = clWaitForEvents(n, evs);
    return sn_gpu_injected("clWaitForEvents", &e) ? e : real;
}
#define clBuildProgram sn_cl_build_program
#define clCreateBuffer sn_cl_create_buffer
#define clEnqueueNDRangeKernel sn_cl_enqueue_nd_range_kernel
#define clEnqueueReadBuffer sn_cl_enqueue_read_buffer
#define clEnqueueWriteBuffer sn_cl_enqueue_write_buffer
#define clEnqueueCopyBuffer sn_cl_enqueue_copy_buffer
#define clEnqueueFillBuffer sn_cl_enqueue_fill_buffer
#define clCreateContext sn_cl_create_context
#define clCreateCommandQueue sn_cl_create_command_queue
#define clCreateProgramWithSource sn_cl_create_program_with_source
#define clCreateKernel sn_cl_create_kernel
#define clSetKernelArg sn_cl_set_kernel_arg
#define clGetPlatformInfo sn_cl_get_platform_info
#define clGetDeviceInfo sn_cl_get_device_info
#define clGetProgramBuildInfo sn_cl_get_program_build_info
#define clGetKernelInfo sn_cl_get_kernel_info
#define clGetKernelWorkGroupInfo sn_cl_get_kernel_work_group_info
#define clGetEventProfilingInfo sn_cl_get_event_profiling_info
#define clEnqueueMapBuffer sn_cl_enqueue_map_buffer
#define clEnqueueMigrateMemObjects sn_cl_enqueue_migrate_mem_objects
#define clFinish sn_cl_finish
#define clWaitForEvents sn_cl_wait_for_events

/* Build `source` for g's device into *prog; on failure SN_EBUILD with the
 * log in diag and g->build_log. */
sn_status sn_gpu_build_source(sn_gpu *g, const char *source, bool user, cl_program *prog,
                              sn_diag *diag);
/* The same with extra build options (e.g. "-DHP=1"). */
sn_status sn_gpu_build_source_opts(sn_gpu *g, const char *source, const char *options, bool user,
                                   cl_program *prog, sn_diag *diag);

/* sn_gpu_host_alloc with its status: SN_ELIMIT past SN_GPU_PINS blocks,
 * else the failing call's (sn_gpu_cl_fail). */
sn_status sn_gpu_host_alloc_status(sn_gpu *g, size_t bytes, void **out, sn_diag *diag);

/* Round x up to a multiple of m (m > 0); x stays 0 if 0. */
size_t sn_gpu_round_up(size_t x, size_t m);

/* The module's one clock and one reading of profiling events (run.c). */
/* Milliseconds on the monotonic clock. */
double sn_gpu_now_ms(void);
/* From first's start to last's end in ms into *ms (0 when first is NULL or
 * the span is negative); CL_SUCCESS, or the failing query's code. Both
 * events must have completed. */
cl_int sn_gpu_event_span_ms(cl_event first, cl_event last, double *ms);
/* The span of the launches g recorded (sn_gpu_record): first to last. */
cl_int sn_gpu_events_ms(const sn_gpu *g, double *ms);
/* Release the recorded events and stop recording. */
void sn_gpu_events_drop(sn_gpu *g);

/* Device buffers of one run. */
typedef struct sn_gpu_bufs {
    cl_mem keys, pay;          /* pay: a 4-byte dummy without payload */
    cl_mem pairs;              /* pairs variant: every layer's pairs */
    size_t *pair_base;         /* [layers + 1]: first pair of each layer */
    cl_mem digests;            /* [layers * digest_groups] partial sums */
    cl_mem states, pay_states; /* [layers * n] snapshots after each layer */
    uint32_t n;
    size_t layers;
    size_t digest_groups;
    bool payload;
    cl_mem desc; /* fused variants: the pass descriptors */
    /* fused window passes read one array and write the other (their
     * windows overlap): keys and payload ping-pong with these */
    cl_mem tmp_keys, tmp_pay;
} sn_gpu_bufs;

/* ---- fused passes (fused.c) */
#define SN_STEP_TILE (-1)   /* sn_fused_step.layer: a tile pass */
#define SN_STEP_WINDOW (-2) /* ... a window pass (odd-even carry layers) */
typedef struct sn_fused_step {
    int64_t layer;             /* >= 0: that layer as one closed-form launch, or SN_STEP_* */
    uint32_t off;              /* tile pass: its descriptor's first word */
    unsigned tile_bits, ebits; /* tile pass: 2^tile_bits elements, 2^ebits per work-item */
    /* window pass (kernels/fused.cl: sn_fused_window): nl carry layers of
     * the merge in blocks of 2^(lp+1), q from 2^lq0 down, on windows of
     * 2^w positions y of stride 2^b, 2^c consecutive z, halo positions
     * shared with each neighbour; groups work-groups */
    unsigned wb, wc, ww, wlp, wlq, wnl, whalo;
    size_t wgroups;
    size_t wwg; /* generated window kernel (fused_cg.c): its work-items per window */
} sn_fused_step;

typedef struct sn_fused_plan {
    bool serial;
    bool payload;
    sn_key_type kt;
    uint32_t tile_bits, nbits; /* tile 2^tile_bits; padded size 2^nbits */
    uint32_t *desc;
    size_t desc_words;
    sn_fused_step *steps;
    size_t nsteps, tile_passes, global_layers, window_passes;
    unsigned win_bits;                /* window passes: 2^win_bits elements per window */
    size_t win_wg;                    /* ... and work-items per window */
    size_t direct_first, direct_last; /* passes loading / storing from registers */
    uint32_t n;                       /* wires */
    unsigned ebits;                   /* GPU tiles: 2^ebits elements per work-item */
    unsigned col_bits; /* generated kernels: tiles of 2^col_bits columns in registers */
    /* generated kernels (fused_cg.c): one per tile and window pass, or NULL */
    cl_program cg_prog;
    cl_kernel *cg_k; /* [nsteps] */
} sn_fused_plan;

sn_status sn_fused_build(sn_gpu *g, bool payload, sn_key_type t, sn_diag *diag);
/* Plan schedule s on g with tuning tu (g's, as a rule). */
sn_status sn_fused_plan_make(const sn_gpu *g, const sn_gpu_tuning *tu, const sn_schedule *s,
                             sn_gpu_variant v, bool payload, sn_key_type kt, sn_fused_plan *p,
                             sn_diag *diag);
void sn_fused_plan_free(sn_fused_plan *p);
/* The runs of set bits of mask, lowest first, as triples (position
 * counted over the set bits, length, bit position) into runs[3 * max]:
 * how a packed index spreads over mask's bits. Returns the count, or
 * max + 1 when mask has more runs than that. */
unsigned sn_fused_bit_runs(uint32_t mask, uint32_t *runs, unsigned max);
/* The OpenCL C source of p's generated kernels (sn_free it). */
sn_status sn_fused_source(const sn_fused_plan *p, const sn_gpu_tuning *tu, char **out,
                          sn_diag *diag);
/* Generate and build p's kernels (p->cg_prog, p->cg_k). */
sn_status sn_fused_codegen(sn_gpu *g, const sn_gpu_tuning *tu, sn_fused_plan *p, sn_diag *diag);
void sn_fused_codegen_free(sn_fused_plan *p);
sn_status sn_fused_codegen_launch(sn_gpu *g, const sn_gpu_bufs *b, cl_kernel k, size_t items,
                                  size_t wg, sn_diag *diag);
sn_status sn_fused_enqueue(sn_gpu *g, const sn_gpu_bufs *b, const sn_schedule *s,
                           const sn_fused_plan *p, sn_key_type t, sn_diag *diag);

/* Check sizes against the device (SN_ELIMIT naming them), then allocate;
 * uploads the pairs for the pairs variant. On failure nothing is held. */
sn_status sn_gpu_bufs_create(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                             size_t digest_groups, bool states, sn_gpu_bufs *b, sn_diag *diag);
void sn_gpu_bufs_destroy(sn_gpu_bufs *b);

sn_status sn_gpu_enqueue_layer(sn_gpu *g, const sn_gpu_bufs *b, const sn_schedule *s,
                               sn_gpu_variant v, sn_key_type t, size_t k, sn_diag *diag);
sn_status sn_gpu_enqueue_digest(sn_gpu *g, const sn_gpu_bufs *b, size_t slot, sn_diag *diag);
sn_status sn_gpu_enqueue_inject(sn_gpu *g, const sn_gpu_bufs *b, uint32_t index, sn_diag *diag);
/* A command's event while timing (g->record): kept as the first or last
 * one timed (and its own time given to g's profile hook, naming it what). */
void sn_gpu_record(sn_gpu *g, cl_event ev, const char *what, size_t items);
/* Launch `items` work-items rounded up to whole groups of wg. */
sn_status sn_gpu_launch(sn_gpu *g, cl_kernel k, size_t items, size_t wg, const char *name,
                        sn_diag *diag);
sn_status sn_gpu_write(sn_gpu *g, cl_mem m, size_t bytes, const void *src, const char *what,
                       sn_diag *diag);
sn_status sn_gpu_read(sn_gpu *g, cl_mem m, size_t offset, size_t bytes, void *dst, bool block,
                      const char *what, sn_diag *diag);
sn_status sn_gpu_finish(sn_gpu *g, sn_diag *diag);

typedef struct sn_gpu_batch_opts {
    sn_gpu_variant variant; /* resolved (not AUTO) */
    sn_key_type type;
    size_t stop; /* run layers [0, stop) */
    bool inject;
    size_t inject_layer;
    uint32_t inject_index;
} sn_gpu_batch_opts;

/* One batch: upload, enqueue layers [0, stop) back to back (with a digest
 * and/or a snapshot after each when digests / states are non-NULL), read
 * back, wait once. keys/payload are updated in place; digests[k] and
 * states[k * n ..] hold the state after layer k. */
sn_status sn_gpu_batch(sn_gpu *g, const sn_schedule *s, const sn_gpu_batch_opts *o, uint32_t *keys,
                       uint32_t *payload, uint64_t *digests, uint32_t *states, uint32_t *pay_states,
                       sn_diag *diag);

/* ---- lockstep verification (verify.c) */

/* The reference executor one layer at a time, compared with the device's
 * state after each layer. */
typedef struct sn_lockstep_ref {
    const sn_schedule *s;
    sn_key_type t;
    uint32_t n;
    uint32_t *keys, *pay; /* pay: NULL without payload */
} sn_lockstep_ref;

/* Start from input (a copy) and, with_payload, the identity payload. */
sn_status sn_lockstep_ref_init(sn_lockstep_ref *r, const sn_schedule *s, sn_key_type t,
                               const uint32_t *input, bool with_payload, sn_diag *diag);
/* Run layer k on the reference and compare with the device's keys (raw
 * bits) and payload (ignored without payload): true, with *rep filled,
 * on a mismatch. */
bool sn_lockstep_ref_step(sn_lockstep_ref *r, size_t k, const uint32_t *dev,
                          const uint32_t *dev_pay, sn_gpu_report *rep);
void sn_lockstep_ref_free(sn_lockstep_ref *r);

/* SN_EINVAL (diag says why) when o injects a fault outside s. */
sn_status sn_gpu_verify_check_inject(const sn_schedule *s, const sn_gpu_verify_opts *o,
                                     sn_diag *diag);

/* What sn_gpu_user_run tells its caller as it goes; any hook may be NULL
 * except done. A hook's error status ends the run with that status. */
typedef struct sn_user_hooks {
    void *ctx;
    /* the kernel is built and the input uploaded; layer 0 comes next */
    sn_status (*ready)(void *ctx, const sn_gpu *g, sn_diag *diag);
    /* layer k is about to be launched */
    sn_status (*begin)(void *ctx, size_t k, sn_diag *diag);
    /* layer k's result read back: keys (raw bits of the key type, borrowed
     * until the hook returns) and payload; *stop = true ends the run */
    sn_status (*done)(void *ctx, size_t k, const uint32_t *keys, const uint32_t *pay, bool *stop,
                      sn_diag *diag);
} sn_user_hooks;

/* Build o->user_source on g and run it layer by layer from input (the
 * payload always starts as the identity), reading the arrays back after
 * each layer (with o's injected fault, if any). A build failure: SN_EPARSE
 * with the log in diag and g's build log. */
sn_status sn_gpu_user_run(sn_gpu *g, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                          const sn_gpu_verify_opts *o, const sn_user_hooks *h, sn_diag *diag);

#endif
