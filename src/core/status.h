/* status.h - one status enum for the whole library, and the diagnostic
 * buffer that carries details (file, line, column, build logs) to the caller.
 *
 * The core never prints: it returns an sn_status and, when the caller passes
 * an sn_diag, writes a one-line explanation into it. Only src/cli, src/headless and src/window
 * print, as `sortnet: <what>: <why>`. */
#ifndef SN_STATUS_H
#define SN_STATUS_H

#include <stddef.h>

typedef enum sn_status {
    SN_OK = 0,
    SN_ENOMEM,       /* an allocation failed */
    SN_EINVAL,       /* bad argument or invalid network (wire range, a == b, ...) */
    SN_EPARSE,       /* malformed input text; diag has line and column */
    SN_ELIMIT,       /* over a size limit (n, comparators, memory) */
    SN_EIO,          /* reading or writing a file failed */
    SN_EUNSUPPORTED, /* feature not built in (e.g. JSON without jansson) */
    SN_EINTERRUPTED, /* stopped on request (Ctrl-C) */
    SN_ENODEVICE,    /* missing environment: no OpenCL platform, no display */
    SN_EDEVICE,      /* a device call failed; diag names the call and error */
    SN_EBUILD        /* an OpenCL program did not build; diag holds the build log */
} sn_status;

/* The last status, for code that checks a status read from elsewhere. */
#define SN_STATUS_LAST SN_EBUILD

/* Which of the configurable limits (sn_limits: --max-wires,
 * --max-comparators, --max-layers) an SN_ELIMIT hit, so that a caller can
 * say how to raise it without reading the message. */
typedef enum sn_limit {
    SN_LIMIT_NONE = 0, /* no configurable limit (a file's size, device memory, ...) */
    SN_LIMIT_WIRES,
    SN_LIMIT_COMPARATORS,
    SN_LIMIT_LAYERS
} sn_limit;

/* A static English phrase for a status; never NULL. */
const char *sn_status_str(sn_status st);

/* Caller-provided diagnostic. line/column are 1-based, 0 = not applicable.
 * `text` is always NUL-terminated after any sn_diag_* call. */
typedef struct sn_diag {
    unsigned long line;
    unsigned long column;
    sn_limit limit; /* set by sn_diag_limit; SN_LIMIT_NONE otherwise */
    char text[1024];
} sn_diag;

/* Clear a diagnostic (d may be NULL: no-op). */
void sn_diag_clear(sn_diag *d);

/* What went wrong, always as words: d's text, or the status's own name
 * when d is NULL or says nothing (a call that failed without a message). */
const char *sn_diag_text(const sn_diag *d, sn_status st);

/* Format a message into d (d may be NULL: no-op). Returns st, so callers can
 * write `return sn_diag_set(d, SN_EINVAL, 0, 0, "...")`. */
sn_status sn_diag_set(sn_diag *d, sn_status st, unsigned long line, unsigned long column,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* s for a terminal: copied into out (cap > 0 bytes, NUL-terminated, cut
 * when full) with every byte a terminal would act on shown as \xNN: the
 * C0 controls (ESC, BEL, CR, newline, tab, ...), DEL, the C1 controls
 * (UTF-8 U+0080..U+009F) and bytes that are not UTF-8. Printable ASCII
 * and UTF-8 letters stay as they are. Returns out. */
char *sn_text_escape(const char *s, char *out, size_t cap);
/* d's text escaped as sn_text_escape, in place (d may be NULL), for a
 * message that quotes a file's name or content. */
void sn_diag_escape(sn_diag *d);

/* sn_diag_set(d, SN_ELIMIT, ...) that also records which configurable
 * limit was hit in d->limit. Returns SN_ELIMIT. */
sn_status sn_diag_limit(sn_diag *d, sn_limit limit, unsigned long line, unsigned long column,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

#endif
