/* gpu.h - the OpenCL executor: device discovery, program build, running a
 * schedule on a device, and verifying it against the CPU reference.
 *
 * An sn_gpu is one device with its context, queue and built program. It runs
 * exactly the schedule the reference executor runs (same comparators, same
 * "swap only if strictly greater" rule on the same ordered keys), so outputs
 * must be bit-identical; sn_gpu_verify proves it or names the first layer and
 * index where they part. Like the rest of the library this module never
 * prints: errors come back as sn_status with the failing cl* call and the CL
 * error name (or the compiler's build log) in the caller's sn_diag. */
#ifndef SN_GPU_H
#define SN_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/check.h"
#include "core/exec.h"
#include "core/schedule.h"
#include "core/status.h"

/* ---- devices */

typedef struct sn_gpu_device_info {
    uint32_t platform; /* index P of --device P:D */
    uint32_t device;   /* index D */
    char platform_name[128];
    char name[128];
    char vendor[128];
    char version[128]; /* CL_DEVICE_VERSION */
    const char *type;  /* "GPU", "CPU", "accelerator", "other" (static) */
    uint32_t compute_units;
    uint64_t global_mem; /* bytes */
    uint64_t max_alloc;  /* bytes, largest single buffer */
    uint64_t local_mem;  /* bytes */
    size_t max_work_group;
} sn_gpu_device_info;

/* All devices of all platforms into *out (sn_free it), count in *count.
 * SN_ENODEVICE when there is no OpenCL platform at all (diag says so). A
 * platform whose devices cannot be listed is skipped; with no device at
 * all (SN_OK, count 0) diag says what the first platform answered. */
sn_status sn_gpu_devices(sn_gpu_device_info **out, size_t *count, sn_diag *diag);

/* Parse "P:D" (decimal indices); false if malformed. */
bool sn_gpu_device_parse(const char *s, uint32_t *platform, uint32_t *device);

typedef struct sn_gpu sn_gpu;

/* The device sn_gpu_open(NULL) opens among devs[0..count) (as listed by
 * sn_gpu_devices): the first GPU, else the first CPU device, else the
 * first device; count when count is 0. */
size_t sn_gpu_device_default(const sn_gpu_device_info *devs, size_t count);

/* Open a device: `spec` = "P:D", or NULL for the default
 * (sn_gpu_device_default). Builds the embedded kernels; a build failure
 * returns SN_EBUILD with the build log in diag (the full log stays
 * readable through sn_gpu_build_log). Reads the tuning knobs of the
 * environment (above); a malformed one is SN_EINVAL naming it.
 * SN_ENODEVICE: no platform; SN_EINVAL: no such device. */
sn_status sn_gpu_open(const char *spec, sn_gpu **out, sn_diag *diag);
void sn_gpu_close(sn_gpu *g); /* NULL is a no-op */

const sn_gpu_device_info *sn_gpu_info(const sn_gpu *g);
/* "NAME (PLATFORM)", borrowed. */
const char *sn_gpu_device_name(const sn_gpu *g);
/* Log of the last program build (ours or a user's), borrowed, maybe "". */
const char *sn_gpu_build_log(const sn_gpu *g);

/* ---- kernel styles */

typedef enum sn_gpu_variant {
    SN_GPU_VARIANT_AUTO = 0,     /* closed forms: shift; explicit: pairs */
    SN_GPU_VARIANT_PAIRS,        /* explicit pair list, one work-item per comparator */
    SN_GPU_VARIANT_LEFT,         /* one work-item per element: "am I the left index?" */
    SN_GPU_VARIANT_XOR,          /* bitonic only: partner = i ^ mask; if partner < i return */
    SN_GPU_VARIANT_DIV,          /* one work-item per comparator, index by / and % */
    SN_GPU_VARIANT_SHIFT,        /* one work-item per comparator, index by shifts/masks */
    SN_GPU_VARIANT_FUSED,        /* many layers per launch; local or serial by device type */
    SN_GPU_VARIANT_FUSED_LOCAL,  /* fused: tiles in local memory and registers (GPUs) */
    SN_GPU_VARIANT_FUSED_SERIAL, /* fused: one work-item runs a tile's layers in a loop (CPUs) */
    SN_GPU_VARIANT_COUNT
} sn_gpu_variant;

const char *sn_gpu_variant_name(sn_gpu_variant v); /* "auto", "pairs", ... */
bool sn_gpu_variant_parse(const char *s, sn_gpu_variant *out);
/* The fused variants run several layers per launch: no per-layer states. */
bool sn_gpu_variant_is_fused(sn_gpu_variant v);
/* The variant v stands for on s: AUTO is shift for closed forms (bitonic,
 * oddeven-merge, transposition), pairs for explicit networks; SN_EINVAL
 * (diag says why) when v does not fit s (e.g. xor on odd-even merge). */
sn_status sn_gpu_resolve_variant(const sn_schedule *s, sn_gpu_variant v, sn_gpu_variant *out,
                                 sn_diag *diag);

/* How a fused variant runs schedule s on g: launches (tile passes, window
 * passes, and layers that fit no tile, each one launch), the tile size and
 * the kind.
 * SN_EINVAL when s is not bitonic or oddeven-merge. */
typedef struct sn_gpu_fused_info {
    size_t layers;        /* of the schedule */
    size_t passes;        /* launches in all */
    size_t tile_passes;   /* fused passes over tiles */
    size_t global_layers; /* layers that fit no tile: one launch each */
    size_t window_passes; /* odd-even carry layers that fit no tile, on overlapping windows */
    uint32_t window_bits; /* ... of 2^window_bits elements */
    uint32_t tile_bits;   /* tile = 2^tile_bits elements */
    bool serial;          /* one work-item per tile (CPU style) */
    size_t direct_loads;  /* passes whose first round loads global memory into registers */
    size_t direct_stores; /* ... whose last round stores from registers */
    uint32_t columns;     /* >1: tiles held in registers, crossing local memory in columns */
    bool generated;       /* straight-line kernels generated per pass (GPUs) */
} sn_gpu_fused_info;
sn_status sn_gpu_fused_describe(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                                sn_key_type t, sn_gpu_fused_info *out, sn_diag *diag);

/* ---- tuning of the fused variants (docs/gpu-speed.md)
 *
 * One record holds every number the fused planner (fused.c) and code
 * generator (fused_cg.c) choose by measurement rather than by necessity.
 * sn_gpu_open fills it with the defaults below and then with the
 * environment's three tuning knobs (SN_FUSED_TILE, SN_FUSED_BIGTILE,
 * SN_FUSED_CODEGEN, read in one place: tuning.c); sn_gpu_set_tuning
 * replaces it (the tests shrink tiles and windows with it so that small
 * inputs take every path). The planner only ever shrinks a value to what
 * the device holds. */
#define SN_TUNE_TILE_BITS_GPU 13   /* local-memory tiles of 2^13 keys (GPUs) */
#define SN_TUNE_TILE_BITS_CPU 14   /* one work-item's tile on CPUs: 64 KiB, a core's L2 */
#define SN_TUNE_TILE_BITS_MAX 20   /* the largest tile a knob may ask for */
#define SN_TUNE_REG_TILE_BITS 14   /* bitonic register tiles of 2^14 keys */
#define SN_TUNE_REG_ELEM_BITS 6    /* ... 2^6 keys per work-item */
#define SN_TUNE_FIRST_TILE_BITS 12 /* ... the first pass over tiles of 2^12 */
#define SN_TUNE_FIRST_TILE_FROM 21 /* ... from 2^21 keys */
#define SN_TUNE_WINDOW_BITS_GPU 13 /* odd-even windows of 2^13 keys (GPUs) */
#define SN_TUNE_WINDOW_BITS_CPU 14 /* ... on CPUs */
#define SN_TUNE_RADIX_MAXRREG 64   /* NVIDIA: the radix kernels in 64 registers */

typedef enum sn_gpu_codegen {
    SN_GPU_CODEGEN_AUTO = 0,  /* generate on GPUs, interpret on CPUs */
    SN_GPU_CODEGEN_INTERPRET, /* kernels/fused.cl reads the plan at run time */
    SN_GPU_CODEGEN_GENERATE   /* a straight-line kernel per pass (fused_cg.c) */
} sn_gpu_codegen;

typedef enum sn_gpu_onesweep {
    SN_GPU_ONESWEEP_AUTO = 0, /* where it measured faster: NVIDIA's ranking (docs/gpu-speed.md) */
    SN_GPU_ONESWEEP_ON,       /* every radix sort of fewer than 2^30 keys */
    SN_GPU_ONESWEEP_OFF       /* the classic passes: count, scan, scatter */
} sn_gpu_onesweep;

typedef struct sn_gpu_tuning {
    sn_gpu_codegen codegen;
    /* largest local-memory tile, 2^tile_bits keys; 0: SN_TUNE_TILE_BITS_GPU
     * or _CPU by the kind of pass (SN_FUSED_TILE) */
    unsigned tile_bits;
    /* generated bitonic passes without payload: tiles of 2^reg_tile_bits
     * keys held in registers, crossing local memory in columns; 0: off
     * (SN_FUSED_BIGTILE) */
    unsigned reg_tile_bits;
    unsigned reg_elem_bits; /* ... 2^reg_elem_bits keys per work-item */
    /* ... the first pass over tiles of 2^first_tile_bits of its own (0:
     * off), for 2^first_tile_from keys and more */
    unsigned first_tile_bits, first_tile_from;
    /* odd-even carry layers that fit no tile: overlapping windows (false:
     * one launch per layer), of at most 2^window_bits keys (0: by kind) */
    bool windows;
    unsigned window_bits;
    /* generated windows: at most this many layers per register round (0:
     * as many as the registers allow) */
    unsigned window_round;
    /* the radix sort's keys a work-item on NVIDIA's one-sweep ranking (0:
     * 16; SN_RADIX_E) */
    unsigned radix_e;
    /* the radix sort as onesweep (kernels/onesweep.cl: one histogram pass,
     * a look-back scatter per digit) or classic (SN_RADIX_ONESWEEP=0/1) */
    sn_gpu_onesweep radix_onesweep;
    /* extra OpenCL build options of the sorts' program, for measuring
     * variants in one build: kernels/onesweep.cl's -D knobs, NVIDIA's
     * -cl-nv-maxrregcount=R ("": none; SN_RADIX_CLOPTS). 127 characters
     * at most: with the sorts' own options and the register cap they fit
     * the 256 of sn_gpu_build_source_opts (248 at most) */
    char radix_clopts[128];
    /* NVIDIA's register cap for the radix kernels (-cl-nv-maxrregcount;
     * 0: SN_TUNE_RADIX_MAXRREG; 255: none; SN_RADIX_MAXRREG) */
    unsigned radix_maxrreg;
    /* the merge sort's keys a work-item, a power of two up to 32 (0: 16;
     * SN_MERGE_E) */
    unsigned merge_e;
    /* work-items a merge partition search (a PG-ary search), a power of
     * two up to 32 (0: 1, a binary search; SN_MERGE_PG) */
    unsigned merge_pg;
    /* the merge sort's keys a work-item in a keys-only tile, a power of two
     * up to 32 and at least half merge_e (0: 32 on NVIDIA's, else merge_e;
     * SN_MERGE_TILE_E) */
    unsigned merge_tile_e;
    /* host-to-host sorts (docs/gpu-sorts.md): keys a pinned staging chunk
     * (0: 2^24; SN_GPU_STAGE_CHUNK), or no staging at all (stage_off:
     * SN_GPU_STAGE_CHUNK=0); threads that copy (0: every core;
     * SN_GPU_STAGE_THREADS); keys a device sort of a block larger than one
     * (0: what the device takes; SN_GPU_SORT_RUN); pinned slots the copies
     * rotate through (0: 3; SN_GPU_STAGE_SLOTS); runs merged on the host
     * even where they fit on the device (SN_GPU_STAGE_MERGE=0) */
    unsigned stage_chunk, stage_threads, sort_run, stage_slots;
    bool stage_off, stage_merge_host;
} sn_gpu_tuning;

/* The defaults above, without the environment. */
void sn_gpu_tuning_default(sn_gpu_tuning *t);
/* g's tuning, borrowed; replacing it takes effect at the next run. */
const sn_gpu_tuning *sn_gpu_tuning_get(const sn_gpu *g);
void sn_gpu_set_tuning(sn_gpu *g, const sn_gpu_tuning *t); /* copied */

/* The OpenCL C source of the kernels generated for a fused run of s (the
 * kernels sn_gpu_run and sn_gpu_verify would build), in *out (sn_free
 * it); *out = NULL when this variant on this device interprets instead.
 * For reading and diffing the generated code; nothing is built. */
sn_status sn_gpu_fused_source(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, bool payload,
                              sn_key_type t, char **out, sn_diag *diag);

/* ---- timing (sortnet gpu bench) */

typedef struct sn_gpu_timing {
    double kernel_ms; /* first launch start to last launch end (profiling events) */
    double host_ms;   /* upload + run + read back, host clock */
} sn_gpu_timing;

/* Sort keys[0..n) (n = wires of s) `reps` times with variant v (upload,
 * run, read back each time) and time each run; times[reps] receives the
 * figures. keys is left holding the output of the last run. */
sn_status sn_gpu_time(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, sn_key_type t,
                      uint32_t *keys, size_t reps, sn_gpu_timing *times, sn_diag *diag);

/* Each timed command's own time, as sn_gpu_time runs: the kernel's name
 * (or "copy"), its work-items and milliseconds. Waiting for every command
 * makes the run's own total meaningless, so this is a tuning aid. */
typedef void (*sn_gpu_profile_fn)(void *ctx, const char *what, size_t items, double ms);
/* fn NULL: off (the default). ctx is passed back, borrowed. */
void sn_gpu_set_profile(sn_gpu *g, sn_gpu_profile_fn fn, void *ctx);

/* ---- pinned host memory: page-locked, so that the device's transfers
 * reach it by DMA without the driver's own staging copy through pinned
 * buffers (on NVIDIA about twice the rate of ordinary memory) */

/* bytes of pinned host memory, or NULL with diag set. At most
 * SN_GPU_PINS blocks at a time; free each with sn_gpu_host_free before
 * g is closed (sn_gpu_close frees what is left). */
#define SN_GPU_PINS 8
void *sn_gpu_host_alloc(sn_gpu *g, size_t bytes, sn_diag *diag);
void sn_gpu_host_free(sn_gpu *g, void *p);
/* Whether the timing runs (sn_gpu_time, and gpu bench's sorts) keep their
 * host arrays in pinned memory: host-to-host time is then the transfers of
 * an application that streams keys to the device from pinned buffers. */
void sn_gpu_set_pinned(sn_gpu *g, bool on);
bool sn_gpu_pinned(const sn_gpu *g);

/* Median time of a device-to-device copy of n keys (one read and one
 * write of each, like one fused pass), over reps runs after a warm-up:
 * the memory floor of a pass, for sortnet gpu bench. */
sn_status sn_gpu_copy_time(sn_gpu *g, uint32_t n, size_t reps, double *ms, sn_diag *diag);

/* ---- running */

/* Run schedule s in place on keys[0..n) (raw bits of type t, n =
 * sn_schedule_wires(s)), moving payload along when payload != NULL. All
 * layers are enqueued back to back and waited for once. SN_EINVAL when the
 * variant does not fit the schedule (e.g. xor on odd-even merge); SN_ELIMIT
 * when the device memory is too small (diag names the sizes). */
sn_status sn_gpu_run(sn_gpu *g, const sn_schedule *s, sn_gpu_variant v, sn_key_type t,
                     uint32_t *keys, uint32_t *payload, sn_diag *diag);

/* ---- verification */

typedef struct sn_gpu_verify_opts {
    sn_gpu_variant variant;
    bool per_layer; /* read back and compare the full array after every layer */
    bool inject;    /* corrupt keys[inject_index] after layer inject_layer */
    size_t inject_layer;
    uint32_t inject_index;
    /* A user's layer kernel (OpenCL C source, borrowed, NUL-terminated) run
     * in place of ours, layer by layer; see docs/student-kernel.md. */
    const char *user_source;
} sn_gpu_verify_opts;

typedef enum sn_gpu_method {
    SN_GPU_CHECK_STATES = 0, /* every layer's full array, one wait at the end */
    SN_GPU_CHECK_DIGESTS,    /* per-layer digests reduced on the device + final array */
    SN_GPU_CHECK_LOCKSTEP,   /* read back after every layer (--per-layer, user kernels) */
    SN_GPU_CHECK_FINAL       /* fused variants: the final array only */
} sn_gpu_method;

typedef struct sn_gpu_report {
    bool identical;
    size_t layers; /* layers of the schedule */
    sn_gpu_method method;
    /* First mismatch (when !identical): the state after layer `layer`
     * (0-based) differs first at wire `index`. */
    size_t layer;
    uint32_t index;
    uint32_t expected; /* raw bits */
    uint32_t actual;
    bool in_payload; /* the keys agree there but the payload differs */
    /* Wall seconds of the phases of a fused or batched verification (0
     * where a phase did not run): the input's copies, the device run, the
     * reference executor (on reference_threads threads; with a fused
     * variant it runs during the device run) and the comparison. */
    double copy_s, device_s, reference_s, compare_s;
    unsigned reference_threads;
} sn_gpu_report;

/* Run s on the device from input[0..n) (raw bits of type t; with_payload:
 * the payload is the original index 0..n-1) and compare with the reference
 * executor: every layer's full array when small ((layers + 1) * n <=
 * SN_TRACE_FULL_MAX) or with per_layer, else per-layer digests computed on
 * the device by a reduction kernel, and always the final array. The device
 * runs first, so a device that is too small fails fast. A digest
 * mismatch is localised by running both executors again up to that layer.
 * Returns SN_OK with the verdict in *rep; other statuses are errors (a user
 * kernel that does not build: SN_EBUILD with the build log in diag; one
 * that lacks the kernel function or its arguments: SN_EPARSE). */
sn_status sn_gpu_verify(sn_gpu *g, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                        bool with_payload, const sn_gpu_verify_opts *opts, sn_gpu_report *rep,
                        sn_diag *diag);

/* Progress of a long run: called on the caller's thread as each phase of
 * a fused (final-array) or batched verification ends, with the phase's
 * name ("device run", "reference executor", ...), its wall seconds and,
 * for the reference executor, its thread count (else 0). */
typedef void (*sn_gpu_progress_fn)(void *ctx, const char *phase, double seconds, unsigned threads);

/* sn_gpu_verify that reports its phases to progress (NULL: none) as they
 * end; the library prints nothing itself. */
sn_status sn_gpu_verify_progress(sn_gpu *g, const sn_schedule *s, sn_key_type t,
                                 const uint32_t *input, bool with_payload,
                                 const sn_gpu_verify_opts *opts, sn_gpu_progress_fn progress,
                                 void *progress_ctx, sn_gpu_report *rep, sn_diag *diag);

/* ---- a user's kernel in a process of its own
 *
 * A student's kernel may write far out of bounds or never finish, and an
 * OpenCL runtime cannot be recovered from either in-process. So the kernel
 * runs in a child process (fork) that opens its own device and streams its
 * progress and every layer's arrays back through a pipe; this process keeps
 * the reference, compares, and owns the verdict and the clock. The caller
 * must not have touched OpenCL in this process before (a runtime does not
 * survive fork), and should call it with no other threads running. */

typedef enum sn_gpu_fault {
    SN_GPU_FAULT_NONE = 0, /* the device process answered every layer asked */
    SN_GPU_FAULT_CRASH,    /* it died: a signal, or an exit without a verdict */
    SN_GPU_FAULT_TIMEOUT,  /* it ran past a time limit and was killed */
    SN_GPU_FAULT_ERROR     /* a device call failed while a layer ran (a GPU's answer to
                            * an out-of-bounds access, often CL_OUT_OF_RESOURCES);
                            * diag names the call and the error */
} sn_gpu_fault;

typedef struct sn_gpu_isolation {
    const char *device;      /* "P:D", or NULL for sn_gpu_open's default; borrowed */
    double layer_timeout_s;  /* each layer, from its launch to its arrays back; 0: none */
    double setup_timeout_s;  /* opening the device and building the kernel; 0: none */
    const char *source_name; /* the user's file, named in the build log in place of the
                              * runtime's temporary copy; borrowed; NULL: log as it is */
} sn_gpu_isolation;

typedef struct sn_gpu_outcome {
    sn_gpu_fault fault;
    /* The fault came while layer `layer` ran (from the child's progress);
     * false: before layer 0, while the device was opened and the kernel
     * built. */
    bool in_layer;
    size_t layer;
    int signal;      /* CRASH: the signal that ended the process; 0: it exited */
    int exit_status; /* CRASH with signal 0: its exit status (e.g. a sanitizer's) */
    double limit_s;  /* TIMEOUT: the limit it ran past */
    char device[300];
    /* "NAME (PLATFORM)" as sn_gpu_device_name gives it; "" if the process
     * ended before saying */
    char *build_log; /* the failed build's log (source_name in place of the
                      * temporary file) or NULL; owned, sn_gpu_outcome_clear frees it */
} sn_gpu_outcome;

/* sn_gpu_verify for opts->user_source (required: SN_EINVAL without),
 * isolated as above. SN_OK: *rep holds the verdict, and when
 * out->fault != SN_GPU_FAULT_NONE, rep->identical is false and no
 * mismatch is named (the child was killed and reaped: nothing of it is left
 * running). Other statuses are errors, those of the child included
 * (SN_ENODEVICE, a build failure's SN_EBUILD with the log in diag and
 * out->build_log). *out is filled in any case; clear it. */
sn_status sn_gpu_verify_isolated(const sn_gpu_isolation *iso, const sn_schedule *s, sn_key_type t,
                                 const uint32_t *input, bool with_payload,
                                 const sn_gpu_verify_opts *opts, sn_gpu_report *rep,
                                 sn_gpu_outcome *out, sn_diag *diag);
void sn_gpu_outcome_clear(sn_gpu_outcome *o); /* frees build_log; NULL is a no-op */

/* A copy of an OpenCL build log (sn_free it; NULL when out of memory) in
 * which the runtime's name for the compiled source (pocl's
 * ".../kcache/tempfile_XXXXXX.cl", NVIDIA's "<kernel>"), where it is
 * followed by ":LINE", is replaced by name: "FILE.cl:5:15: error: ...". */
char *sn_gpu_log_rename(const char *log, const char *name);

/* ---- the 0-1 principle checker on the device */

/* Brute force over all 2^n 0-1 inputs of net on g (bit-sliced, a kernel
 * generated for the network, chunked so that no launch runs long). Fills
 * *res exactly as sn_check_run's brute force does (verdict, smallest
 * counterexample, failing count, redundant comparators; method
 * SN_CHECK_BRUTEFORCE). Uses opt->force (n > 44 refused without it; at
 * most 63 wires), opt->cancel and opt->progress; opt may be NULL. */
sn_status sn_gpu_check(sn_gpu *g, const sn_network *net, const sn_check_options *opt,
                       sn_check_result *res, sn_diag *diag);
/* One part of that brute force, as a rank of the distributed proof takes
 * it: the inputs [lo, hi) (lo a multiple of 32, hi <= 2^n). *failing: the
 * failing inputs of the range; *first: the smallest of them (UINT64_MAX:
 * none). swapped[m] (zeroed by the caller, m comparators) gets a 1 for
 * every comparator seen swapping on an input of the range or on the
 * random inputs probed first (inputs of the same network), so the OR of
 * the parts' swapped is exactly the whole proof's. Limits as above. */
sn_status sn_gpu_check_range(sn_gpu *g, const sn_network *net, const sn_check_options *opt,
                             uint64_t lo, uint64_t hi, uint64_t *failing, uint64_t *first,
                             uint8_t *swapped, sn_diag *diag);

/* The CL error name of a status code ("CL_OUT_OF_RESOURCES"), never NULL. */
const char *sn_gpu_cl_error_name(int code);

#endif
