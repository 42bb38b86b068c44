/* kernels.h - the OpenCL sources of kernels/ (*.cl), embedded at build time by
 * src/gpu/embed.cmake (the generated kernels.c lives in the build folder). */
#ifndef SN_GPU_KERNELS_H
#define SN_GPU_KERNELS_H

typedef struct sn_kernel_source {
    const char *name; /* file name without ".cl", e.g. "sortnet" */
    const char *text; /* NUL-terminated source */
} sn_kernel_source;

/* All embedded kernel files; the list ends with {NULL, NULL}. */
extern const sn_kernel_source sn_kernel_sources[];

/* The embedded source named `name`, or NULL. */
const char *sn_kernel_source_find(const char *name);

#endif
