/* test_gpu_isolate.c - the isolated run of a student's kernel
 * (sn_gpu_verify_isolated, src/gpu/isolate.c) where it fails before or
 * around its device process: no kernel given, a fault outside the
 * network, memory that runs out, a pipe that cannot be made (the file
 * descriptor limit), a build failure whose log is passed on as it is
 * without a file name to put in it, a kernel of another name or other
 * arguments. The crashes, endless loops and
 * device errors of a running kernel are tests/cli_gpu.sh's. Skips (77)
 * only when no OpenCL platform exists. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/schedule.h"
#include "gpu/gpu.h"
#include "gpu_skip.h"
#include "sn_test.h"

static const char broken[] = "__kernel void sn_layer(__global uint *keys) { keys[0] = 1 }\n";

static sn_status run(const sn_schedule *s, const sn_gpu_verify_opts *o, sn_gpu_outcome *out,
                     sn_diag *d)
{
    static const uint32_t input[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    sn_gpu_isolation iso = {NULL, 60, 300, NULL};
    sn_gpu_report rep;
    sn_diag_clear(d);
    return sn_gpu_verify_isolated(&iso, s, SN_KEY_U32, input, true, o, &rep, out, d);
}

int main(void)
{
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu_close(sn_test_gpu_open(NULL));
    sn_schedule *s = NULL;
    CHECK(sn_schedule_generate(SN_ALGO_BITONIC, 8, &s, &d) == SN_OK);
    if (!s)
        return sn_test_finish("test_gpu_isolate");
    sn_gpu_outcome out;
    sn_gpu_verify_opts o = {SN_GPU_VARIANT_AUTO, false, false, 0, 0, broken};

    /* no kernel: refused before anything starts */
    sn_gpu_verify_opts none = {SN_GPU_VARIANT_AUTO, false, false, 0, 0, NULL};
    CHECK(run(s, &none, &out, &d) == SN_EINVAL && strstr(d.text, "needs a user kernel"));
    CHECK(run(s, NULL, &out, &d) == SN_EINVAL);
    /* a fault outside the network */
    sn_gpu_verify_opts far = {SN_GPU_VARIANT_AUTO, false, true, 99, 0, broken};
    CHECKF(run(s, &far, &out, &d) == SN_EINVAL, "inject outside: %s", d.text);
    sn_gpu_verify_opts wide = {SN_GPU_VARIANT_AUTO, false, true, 0, 8, broken};
    CHECKF(run(s, &wide, &out, &d) == SN_EINVAL, "inject past the wires: %s", d.text);

    /* the reference's arrays and the layer buffer out of memory: the
     * first allocations, before the device process is started */
    size_t live = sn_alloc_live();
    for (size_t k = 1; k <= 2; k++) {
        sn_alloc_fail_after(k);
        sn_status st = run(s, &o, &out, &d);
        sn_alloc_fail_after(0);
        CHECKF(st == SN_ENOMEM && strstr(d.text, "out of memory"), "allocation %zu: %d %s", k,
               (int)st, d.text);
        CHECKF(out.fault == SN_GPU_FAULT_NONE && !out.build_log, "allocation %zu: an outcome", k);
        CHECKF(sn_alloc_live() == live, "allocation %zu: %zu block(s) left", k,
               sn_alloc_live() - live);
    }

    /* no file descriptor left for the pipe: the call and the cause */
    struct rlimit old;
    CHECK(getrlimit(RLIMIT_NOFILE, &old) == 0);
    int lowest = dup(0); /* the lowest free descriptor: every one below is open */
    CHECK(lowest >= 0);
    if (lowest >= 0) {
        close(lowest);
        struct rlimit lim = {(rlim_t)lowest, old.rlim_max};
        CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
        sn_status st = run(s, &o, &out, &d);
        setrlimit(RLIMIT_NOFILE, &old);
        CHECKF(st == SN_EDEVICE && strstr(d.text, "pipe: ") && strstr(d.text, strerror(EMFILE)),
               "pipe: %d %s", (int)st, d.text);
        CHECK(sn_alloc_live() == live);
    }

    /* a build failure without source_name: the log as the runtime wrote it */
    sn_status st = run(s, &o, &out, &d);
    CHECKF(st == SN_EBUILD && strstr(d.text, "clBuildProgram failed"), "build: %d %s", (int)st,
           d.text);
    CHECKF(out.build_log && strstr(out.build_log, "error"), "build log: %s",
           out.build_log ? out.build_log : "(none)");
    sn_gpu_outcome_clear(&out);
    CHECK(out.build_log == NULL);
    sn_gpu_outcome_clear(NULL);

    /* a kernel of another name, or with other arguments: what the file
     * must define (docs/student-kernel.md) */
    sn_gpu_verify_opts other = {SN_GPU_VARIANT_AUTO,
                                false,
                                false,
                                0,
                                0,
                                "__kernel void layer(__global uint *keys) { keys[0] = 1u; }\n"};
    st = run(s, &other, &out, &d);
    CHECKF(st == SN_EPARSE && strstr(d.text, "the file must define __kernel void sn_layer"),
           "another name: %d %s", (int)st, d.text);
    sn_gpu_outcome_clear(&out);
    sn_gpu_verify_opts args = {SN_GPU_VARIANT_AUTO,
                               false,
                               false,
                               0,
                               0,
                               "__kernel void sn_layer(__global uint *keys) { keys[0] = 1u; }\n"};
    st = run(s, &args, &out, &d);
    CHECKF(st == SN_EPARSE && strstr(d.text, "sn_layer takes 1 arguments, expected 8"),
           "one argument: %d %s", (int)st, d.text);
    sn_gpu_outcome_clear(&out);

    /* renaming a log out of memory: NULL, nothing left */
    sn_alloc_fail_after(1);
    char *r = sn_gpu_log_rename("tempfile_x.cl:1:2: error\n", "student.cl");
    sn_alloc_fail_after(0);
    CHECK(r == NULL && sn_alloc_live() == live);

    sn_schedule_destroy(s);
    return sn_test_finish("test_gpu_isolate");
}
