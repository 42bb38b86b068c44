/* gpu_skip.h - the one reason an OpenCL test may skip (77): no OpenCL
 * platform at all. The library's SN_ENODEVICE cannot say that alone: it
 * also means "OpenCL platforms exist but none has a usable device" (a
 * driver whose clGetDeviceIDs failed, e.g. pocl under a memory limit),
 * which is a failure, never a skip. So the ICD loader is asked directly,
 * beside the library under test (and its injected failures). */
#ifndef SN_GPU_SKIP_H
#define SN_GPU_SKIP_H

#include <CL/cl.h>
#include <CL/cl_ext.h> // for: CL_PLATFORM_NOT_FOUND_KHR
#include <stdio.h>
#include <stdlib.h>

#include "gpu/gpu.h"
#include "sn_test.h"

/* Skip the test when the loader finds no platform: clGetPlatformIDs
 * answers CL_PLATFORM_NOT_FOUND_KHR or 0 platforms. Any other answer
 * (platforms, or an error of the loader) lets the test go on, to pass or
 * fail on what the library then says. */
static inline void sn_test_skip_without_opencl(void)
{
    cl_uint n = 0;
    cl_int err = clGetPlatformIDs(0, NULL, &n);
    if (err == CL_PLATFORM_NOT_FOUND_KHR)
        SKIP("no OpenCL platform (clGetPlatformIDs: CL_PLATFORM_NOT_FOUND_KHR (-1001))");
    if (err == CL_SUCCESS && n == 0)
        SKIP("no OpenCL platform (clGetPlatformIDs: 0 platforms)");
}

/* The device a test runs on: spec "P:D", or NULL for the default one.
 * Skips (77) only without any OpenCL platform; every other failure to
 * open, "none has a usable device" included, ends the test (exit 1) with
 * the library's message. */
static inline sn_gpu *sn_test_gpu_open(const char *spec)
{
    sn_test_skip_without_opencl();
    sn_gpu *g = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_gpu_open(spec, &g, &d);
    if (st != SN_OK) {
        fprintf(stderr, "FAIL: sn_gpu_open(%s): %s: %s\n", spec ? spec : "default device",
                sn_status_str(st), d.text);
        exit(1);
    }
    return g;
}

#endif
