/* format_impl.h - what the readers and writers of format*.c share (private
 * to src/core): a line/column tracking cursor over the input text, and the
 * per-format entry points that sn_network_parse / sn_network_write
 * dispatch to.
 *
 * Convention: a reader fills diag with a bare message ("expected ')'") and
 * the 1-based line and column; format.c prefixes "LINE:COL: " (or
 * "FILE:LINE:COL: " in sn_schedule_load), so every reader reports
 * locations the same way. */
#ifndef SN_FORMAT_IMPL_H
#define SN_FORMAT_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/network.h"
#include "core/status.h"

/* A cursor over text[0..len): pos is the next byte; line and col are the
 * 1-based location of that byte. */
typedef struct sn_cursor {
    const char *text;
    size_t len, pos;
    unsigned long line, col;
} sn_cursor;

static inline void sn_cursor_init(sn_cursor *c, const char *text, size_t len)
{
    c->text = text;
    c->len = len;
    c->pos = 0;
    c->line = 1;
    c->col = 1;
}

static inline int sn_cursor_peek(const sn_cursor *c)
{
    return c->pos < c->len ? (unsigned char)c->text[c->pos] : -1;
}

static inline void sn_cursor_next(sn_cursor *c)
{
    if (c->pos >= c->len)
        return;
    if (c->text[c->pos++] == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
}

/* Skip spaces, tabs and carriage returns (not newlines). */
static inline void sn_cursor_skip_blanks(sn_cursor *c)
{
    int ch;
    while ((ch = sn_cursor_peek(c)) == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f')
        sn_cursor_next(c);
}

/* A decimal number read by sn_cursor_number: its value (saturated at
 * UINT64_MAX, so "huge" stays huge), where it starts, and its digits for
 * messages. */
typedef struct sn_number {
    uint64_t value;
    unsigned long line, col;
    const char *digits;
    int ndigits; /* capped for printing with "%.*s" */
} sn_number;

/* Read a decimal number (digits only) at the cursor, which moves past it.
 * SN_EPARSE with diag at the cursor when there are no digits ("expected
 * <what>, found 'x'") or a minus sign ("<what> must not be negative"). */
sn_status sn_cursor_number(sn_cursor *c, const char *what, sn_number *out, sn_diag *diag);

/* Describe the byte at the cursor for messages: "'x'", "end of line",
 * "end of input", "byte 0x01". Returns buf. */
const char *sn_cursor_describe(const sn_cursor *c, char *buf, size_t cap);

sn_status sn_bracket_parse(const char *text, size_t len, sn_network **out, sn_diag *diag);
sn_status sn_sn_parse(const char *text, size_t len, sn_network **out, sn_diag *diag);
sn_status sn_json_parse(const char *text, size_t len, sn_network **out, sn_diag *diag);

/* Writers return SN_EIO (diag set) when the stream reports an error. */
/* SN_EIO "write error: CAUSE" with the cause strerror(err) (EIO when err
 * is 0): every writer passes errno as its failing stdio call left it. */
sn_status sn_format_write_error(sn_diag *diag, int err);
sn_status sn_bracket_write(const sn_network *net, FILE *f, sn_diag *diag);
sn_status sn_sn_write(const sn_network *net, FILE *f, sn_diag *diag);
sn_status sn_json_write(const sn_network *net, FILE *f, sn_diag *diag);

/* *asap = true when writing net's layers as one flat
 * comparator list and regrouping it "as early as possible" gives back the
 * same layers. SN_ENOMEM on allocation failure. */
sn_status sn_network_is_asap(const sn_network *net, bool *asap);

#endif
