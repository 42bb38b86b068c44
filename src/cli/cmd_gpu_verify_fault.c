/* cmd_gpu_verify_fault.c - what `sortnet gpu verify --kernel` says when the
 * device process running a user's kernel gave no verdict: a crash (with
 * what its signal most often means), a time-out, a failed device call.
 * Layers are named as people count them, from 1. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cmd_gpu.h"

/* What a signal that ended the device process most often means. */
static const char *signal_hint(int sig)
{
    switch (sig) {
    case SIGSEGV: return "most often an out-of-bounds write";
    case SIGBUS: return "most often an out-of-bounds or misaligned access";
    case SIGFPE: return "most often an integer division by zero";
    case SIGILL: return "an illegal instruction";
    case SIGABRT: return "the OpenCL runtime aborted";
    case SIGKILL: return "killed from outside, or out of memory";
    default: return "see `kill -l`";
    }
}

/* The verdict for a device process that gave none (a crash, a time-out, a
 * failed device call: its details in d), as one line into buf. */
void cli_gpu_fault_text(const sn_gpu_outcome *o, const sn_diag *d, char *buf, size_t cap)
{
    char where[96];
    if (o->in_layer)
        snprintf(where, sizeof where, "during layer %zu", o->layer + 1);
    else
        snprintf(where, sizeof where, "before layer 1 (opening the device, building your kernel)");
    if (o->fault == SN_GPU_FAULT_TIMEOUT && o->in_layer)
        snprintf(buf, cap, "your kernel did not finish layer %zu within %g s (an endless loop?)",
                 o->layer + 1, o->limit_s);
    else if (o->fault == SN_GPU_FAULT_TIMEOUT)
        snprintf(buf, cap, "opening the device and building your kernel did not finish within %g s",
                 o->limit_s);
    else if (o->fault == SN_GPU_FAULT_ERROR)
        snprintf(buf, cap, "your kernel failed on the device during layer %zu%s: %s", o->layer + 1,
                 /* how GPUs report an illegal address */
                 strstr(d->text, "CL_OUT_OF_RESOURCES") ||
                         strstr(d->text, "CL_INVALID_COMMAND_QUEUE")
                     ? " (most often an out-of-bounds access)"
                     : "",
                 d->text);
    else if (o->signal)
        snprintf(buf, cap, "your kernel crashed the device process (signal %d: %s) %s", o->signal,
                 signal_hint(o->signal), where);
    else
        snprintf(buf, cap,
                 "your kernel crashed the device process (it exited with status %d and no "
                 "verdict: a sanitizer or the OpenCL runtime stopped it) %s",
                 o->exit_status, where);
}
