/* gpu_internal.h - the body of sn_gpu and helpers shared by device.c, run.c
 * and verify.c (not installed, not for other modules). */
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
};

/* Fill diag with "CALL failed: CL_NAME (code)"; returns SN_EDEVICE (or
 * SN_ENOMEM / SN_ELIMIT for the out-of-memory codes). */
sn_status sn_gpu_cl_fail(sn_diag *diag, const char *call, cl_int err);

/* Build `source` for g's device into *prog; on failure SN_EPARSE (user
 * source) or SN_EDEVICE with the log in diag and g->build_log. */
sn_status sn_gpu_build_source(sn_gpu *g, const char *source, bool user, cl_program *prog,
                              sn_diag *diag);

/* Round x up to a multiple of m (m > 0); x stays 0 if 0. */
size_t sn_gpu_round_up(size_t x, size_t m);

#endif
