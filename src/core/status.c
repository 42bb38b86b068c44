/* status.c - status phrases and the caller-provided diagnostic buffer. */
#include "core/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *sn_status_str(sn_status st)
{
    switch (st) {
    case SN_OK: return "success";
    case SN_ENOMEM: return "out of memory";
    case SN_EINVAL: return "invalid argument";
    case SN_EPARSE: return "parse error";
    case SN_ELIMIT: return "over a size limit";
    case SN_EIO: return "input/output error";
    case SN_EUNSUPPORTED: return "not supported by this build";
    case SN_EINTERRUPTED: return "interrupted";
    case SN_ENODEVICE: return "no device";
    case SN_EDEVICE: return "device error";
    case SN_EBUILD: return "OpenCL program build failed";
    }
    return "unknown status";
}

void sn_diag_clear(sn_diag *d)
{
    if (!d)
        return;
    d->line = 0;
    d->column = 0;
    d->limit = SN_LIMIT_NONE;
    d->text[0] = '\0';
}

const char *sn_diag_text(const sn_diag *d, sn_status st)
{
    return d && d->text[0] ? d->text : sn_status_str(st);
}

sn_status sn_diag_set(sn_diag *d, sn_status st, unsigned long line, unsigned long column,
                      const char *fmt, ...)
{
    if (!d)
        return st;
    d->line = line;
    d->column = column;
    d->limit = SN_LIMIT_NONE;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->text, sizeof d->text, fmt, ap);
    va_end(ap);
    return st;
}

sn_status sn_diag_limit(sn_diag *d, sn_limit limit, unsigned long line, unsigned long column,
                        const char *fmt, ...)
{
    if (!d)
        return SN_ELIMIT;
    d->line = line;
    d->column = column;
    d->limit = limit;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->text, sizeof d->text, fmt, ap);
    va_end(ap);
    return SN_ELIMIT;
}

/* The length of the UTF-8 sequence of a printable character at p, or 0
 * (a byte that is not UTF-8, an overlong form, a surrogate, a C1 control). */
static size_t utf8_printable(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) /* (the NUL at the end stops here too) */
            return 0;
    if ((c == 0xC2 && p[1] < 0xA0) || (c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) ||
        (c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] > 0x8F))
        return 0;
    return n;
}

char *sn_text_escape(const char *s, char *out, size_t cap)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t k = 0;
    while (*p) {
        size_t n = *p >= 0x20 && *p < 0x7f ? 1 : *p >= 0x80 ? utf8_printable(p) : 0;
        if (n) {
            if (k + n >= cap)
                break;
            memcpy(out + k, p, n);
            k += n;
            p += n;
        } else {
            if (k + 4 >= cap)
                break;
            snprintf(out + k, cap - k, "\\x%02x", *p);
            k += 4;
            p++;
        }
    }
    out[k] = '\0';
    return out;
}

void sn_diag_escape(sn_diag *d)
{
    if (!d)
        return;
    char copy[sizeof d->text];
    memcpy(copy, d->text, sizeof copy);
    copy[sizeof copy - 1] = '\0';
    sn_text_escape(copy, d->text, sizeof d->text);
}
