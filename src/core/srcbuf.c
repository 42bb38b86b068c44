/* srcbuf.c - see srcbuf.h */
#include "core/srcbuf.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/alloc.h"

void sn_srcbuf_add(sn_srcbuf *b, const char *fmt, ...)
{
    if (b->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = true;
            return;
        }
        if (b->s && b->len + (size_t)k < b->cap) {
            b->len += (size_t)k;
            return;
        }
        size_t nc = (b->cap ? b->cap * 2 : 4096) + (size_t)k;
        char *ns = sn_realloc(b->s, nc);
        if (!ns) {
            b->oom = true;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
}
