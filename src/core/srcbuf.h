/* srcbuf.h - a growable string for code generated on the host (the
 * 0-1 checker's and the fused passes' OpenCL kernels, gen --format c|opencl). */
#ifndef SN_CORE_SRCBUF_H
#define SN_CORE_SRCBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sn_srcbuf {
    char *s; /* NUL-terminated once anything was added; free with sn_free */
    size_t len, cap;
    bool oom; /* an append failed: s holds a prefix only */
} sn_srcbuf;

/* printf-append to b; on allocation failure sets b->oom and appends
 * nothing more. */
void sn_srcbuf_add(sn_srcbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
