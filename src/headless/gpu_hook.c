/* gpu_hook.c - the window's G key: verify the current network and input on
 * the default OpenCL device (opened on first use, kept until exit). Built
 * only when the OpenCL part is. */
#include "headless/gpu_hook.h"

#include <stdio.h>
#include <string.h>

#include "gpu/gpu.h"

struct sn_app_gpu {
    sn_gpu *gpu;
};

static sn_app_gpu hook_state;

/* "pocl" for "Portable Computing Language", the vendor's first word for
 * the others ("NVIDIA CUDA" -> "NVIDIA"): the status line has little room. */
static void platform_short(const char *platform, char *out, size_t cap)
{
    if (strstr(platform, "Portable Computing Language") || strstr(platform, "pocl")) {
        snprintf(out, cap, "pocl");
        return;
    }
    size_t n = strcspn(platform, " (");
    snprintf(out, cap, "%.*s", (int)(n < 24 ? n : 24), platform);
}

static sn_status verify(void *ctx, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                        sn_view_gpu_result *out)
{
    sn_app_gpu *h = ctx;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = SN_OK;
    memset(out, 0, sizeof *out);
    if (!h->gpu)
        st = sn_gpu_open(NULL, &h->gpu, &d);
    sn_gpu_report rep;
    sn_gpu_verify_opts opts = {0};
    opts.variant = SN_GPU_VARIANT_AUTO;
    if (st == SN_OK)
        st = sn_gpu_verify(h->gpu, s, t, input, false, &opts, &rep, &d);
    if (st != SN_OK) {
        snprintf(out->verdict, sizeof out->verdict, "%.150s",
                 sn_diag_text(&d, st));
        return st;
    }
    const sn_gpu_device_info *info = sn_gpu_info(h->gpu);
    char plat[32];
    platform_short(info->platform_name, plat, sizeof plat);
    snprintf(out->device, sizeof out->device, "%s", sn_gpu_device_name(h->gpu));
    snprintf(out->device_short, sizeof out->device_short, "OpenCL (%s, %s)", info->type, plat);
    out->identical = rep.identical;
    if (rep.identical) {
        snprintf(out->verdict, sizeof out->verdict, "identical");
    } else {
        char want[32], got[32];
        sn_key_format(t, rep.expected, want, sizeof want);
        sn_key_format(t, rep.actual, got, sizeof got);
        /* layers count from 1 for people: the values after layer L */
        snprintf(out->verdict, sizeof out->verdict,
                 "differs after layer %zu, wire %u: expected %s, got %s", rep.layer + 1, rep.index,
                 want, got);
    }
    return SN_OK;
}

void sn_app_gpu_install(sn_view *v)
{
    v->gpu_fn = verify;
    v->gpu_ctx = &hook_state;
}

void sn_app_gpu_release(void)
{
    sn_gpu_close(hook_state.gpu);
    hook_state.gpu = NULL;
}
