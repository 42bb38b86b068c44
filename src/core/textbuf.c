/* textbuf.c - see textbuf.h. */
#include "textbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"

/* Room for n more bytes and the NUL; false (and failed set) when out of
 * memory. */
static bool reserve(sn_textbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *ns = sn_realloc(b->s, cap);
    if (!ns) {
        b->failed = true;
        return false;
    }
    b->s = ns;
    b->cap = cap;
    return true;
}

void sn_textbuf_put(sn_textbuf *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sn_textbuf_str(sn_textbuf *b, const char *s)
{
    sn_textbuf_put(b, s, strlen(s));
}

void sn_textbuf_printf(sn_textbuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof tmp) {
        sn_textbuf_put(b, tmp, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void sn_textbuf_clear(sn_textbuf *b)
{
    b->len = 0;
    b->failed = false;
    if (b->s)
        b->s[0] = '\0';
}

void sn_textbuf_free(sn_textbuf *b)
{
    sn_free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}
