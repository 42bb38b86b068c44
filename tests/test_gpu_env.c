/* test_gpu_env.c - when the OpenCL platform or driver fails, the message
 * names the call and what it returned (issue 36): a driver that cannot
 * start (pocl under a memory limit answers clGetDeviceIDs with
 * CL_OUT_OF_HOST_MEMORY) is not "no device" but memory (SN_ENOMEM). The failures are injected at
 * the listing calls (sn_gpu_inject_error), so this runs wherever an
 * OpenCL platform exists and skips (77) where none does. */
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "gpu/gpu.h"
#include "gpu/gpu_internal.h"
#include "gpu_skip.h"
#include "sn_test.h"

/* open and list with `call` failing with err: both name the call and code */
static void expect_named(const char *call, cl_int err, const char *name, sn_status want)
{
    char code[32];
    snprintf(code, sizeof code, "%s (%d)", name, (int)err);
    sn_gpu_inject_error(call, err);
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu *g = NULL;
    sn_status st = sn_gpu_open(NULL, &g, &d);
    CHECKF(st == want, "%s -> %s: open gave %d: %s", call, name, (int)st, d.text);
    CHECKF(g == NULL, "%s -> %s: a device was opened", call, name);
    CHECKF(strstr(d.text, call) && strstr(d.text, code), "%s -> %s: open says '%s'", call, name,
           d.text);
    sn_gpu_device_info *devs = NULL;
    size_t count = 99;
    sn_diag_clear(&d);
    st = sn_gpu_devices(&devs, &count, &d);
    if (st == SN_OK) { /* no device, and what the platform answered */
        CHECKF(count == 0, "%s -> %s: %zu devices listed", call, name, count);
        sn_free(devs);
    }
    CHECKF(strstr(d.text, call) && strstr(d.text, code), "%s -> %s: list says '%s'", call, name,
           d.text);
    sn_gpu_inject_error(NULL, 0);
}

int main(void)
{
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu_close(sn_test_gpu_open(NULL));
    sn_gpu *g = NULL;
    sn_status st;
    /* a driver out of host memory for its devices: memory that ran out
     * (exit 5), not "no device"; a platform that answers no device */
    expect_named("clGetDeviceIDs", CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY", SN_ENOMEM);
    expect_named("clGetDeviceIDs", CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND", SN_ENODEVICE);
    expect_named("clGetDeviceIDs", CL_SUCCESS, "CL_SUCCESS", SN_ENODEVICE); /* 0 devices */
    /* the ICD loader itself */
    expect_named("clGetPlatformIDs", -1001, "CL_PLATFORM_NOT_FOUND_KHR", SN_ENODEVICE);
    expect_named("clGetPlatformIDs", CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY", SN_ENOMEM);
    /* a build failure names the call and the error; a count past the
     * calls made lets them all through and says how many there were */
    sn_gpu_inject_error("clBuildProgram", CL_BUILD_PROGRAM_FAILURE);
    sn_diag_clear(&d);
    g = NULL;
    st = sn_gpu_open(NULL, &g, &d);
    CHECKF(st == SN_EBUILD && g == NULL, "open gave %d: %s", (int)st, d.text);
    CHECKF(strstr(d.text, "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)"), "build: '%s'",
           d.text);
    sn_gpu_inject_error_at("clBuildProgram", CL_BUILD_PROGRAM_FAILURE, 1000);
    CHECK(sn_gpu_open(NULL, &g, &d) == SN_OK);
    sn_gpu_close(g);
    unsigned builds = sn_gpu_inject_error_at("clBuildProgram", CL_BUILD_PROGRAM_FAILURE, 1);
    CHECKF(builds >= 1 && builds < 1000, "%u builds counted", builds);
    /* the nth call fails, the ones before it reach the driver */
    sn_gpu_inject_error_at("clBuildProgram", CL_OUT_OF_RESOURCES, builds + 1);
    CHECK(sn_gpu_open(NULL, &g, &d) == SN_OK);
    sn_gpu_close(g);
    sn_gpu_inject_error_at("clBuildProgram", CL_OUT_OF_RESOURCES, builds);
    sn_diag_clear(&d);
    g = NULL;
    st = sn_gpu_open(NULL, &g, &d);
    CHECKF(st == SN_EBUILD && g == NULL, "open gave %d: %s", (int)st, d.text);
    CHECKF(strstr(d.text, "CL_OUT_OF_RESOURCES (-5)"), "build: '%s'", d.text);
    sn_gpu_inject_error(NULL, 0);
    /* the hook ended: the device opens again */
    CHECK(sn_gpu_open(NULL, &g, &d) == SN_OK);
    sn_gpu_close(g);
    return sn_test_finish("test_gpu_env");
}
