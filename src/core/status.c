/* status.c - status phrases and the caller-provided diagnostic buffer. */
#include "core/status.h"

#include <stdarg.h>
#include <stdio.h>

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
