/* gpu_hook.h - connects the window's G key to the OpenCL verifier. */
#ifndef SN_APP_GPU_HOOK_H
#define SN_APP_GPU_HOOK_H

#include "session/view.h"

typedef struct sn_app_gpu sn_app_gpu;

/* Make G in view v verify on the default device (opened lazily). */
void sn_app_gpu_install(sn_view *v);
/* Close the device, if one was opened. */
void sn_app_gpu_release(void);

#endif
