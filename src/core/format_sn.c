/* format_sn.c - libsortnetwork's text format: "Key: value" header lines
 * ("Inputs: N" required, others such as "Comment:" ignored), then stages
 * separated by blank lines, one "a b" comparator (min wire, max wire) per
 * line.
 *
 * libsortnetwork does not insist that a stage's comparators touch disjoint
 * wires, but our layers must: a stage that reuses a wire is split greedily,
 * i.e. a new layer starts at the first comparator that touches a wire
 * already used in the current one (keeping the comparator order, so the
 * network computes the same function). n is declared, so it is checked
 * against the limits before anything is allocated. */
#include <errno.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h" // for: sn_text_bom
#include "core/format_impl.h"

typedef struct reader {
    sn_cursor c;
    sn_limits lim;
    sn_network *net;
    sn_comparator *stage; /* the current layer, capacity n / 2 */
    size_t count;
    size_t *seen; /* per wire: the stamp of the current layer */
    size_t stamp;
    bool have_inputs;
    bool body; /* a comparator has been read */
} reader;

static void skip_line(sn_cursor *c)
{
    int ch;
    while ((ch = sn_cursor_peek(c)) >= 0 && ch != '\n')
        sn_cursor_next(c);
}

/* Past blanks: at the end of the line (or input)? */
static bool at_line_end(sn_cursor *c)
{
    sn_cursor_skip_blanks(c);
    int ch = sn_cursor_peek(c);
    return ch < 0 || ch == '\n';
}

static sn_status flush_stage(reader *r, sn_diag *diag)
{
    if (r->count == 0)
        return SN_OK;
    sn_diag d;
    sn_status st = sn_network_layer_add(r->net, r->stage, r->count, &d);
    if (st != SN_OK) /* checked before; only allocation or limits remain */
        return sn_diag_set(diag, st, r->c.line, r->c.col, "%s", d.text);
    r->count = 0;
    r->stamp++;
    return SN_OK;
}

/* A header line "Key: value" at the cursor (a letter is next). */
static sn_status read_header(reader *r, sn_diag *diag)
{
    char buf[32];
    unsigned long line = r->c.line, col = r->c.col;
    const char *key = r->c.text + r->c.pos;
    size_t klen = 0;
    int ch;
    while ((ch = sn_cursor_peek(&r->c)) >= 0 && ch != ':' && ch != '\n') {
        sn_cursor_next(&r->c);
        klen++;
    }
    if (ch != ':')
        return sn_diag_set(diag, SN_EPARSE, line, col,
                           "expected a header line 'Key: value' or a comparator 'a b'");
    if (r->body)
        return sn_diag_set(diag, SN_EPARSE, line, col,
                           "header line after the first comparator (headers come first)");
    sn_cursor_next(&r->c); /* ':' */
    if (!(klen == 6 && strncmp(key, "Inputs", 6) == 0)) {
        skip_line(&r->c); /* Comment:, Author:, ... carry nothing we keep */
        return SN_OK;
    }
    if (r->have_inputs)
        return sn_diag_set(diag, SN_EPARSE, line, col, "a second 'Inputs:' line");
    sn_cursor_skip_blanks(&r->c);
    sn_number n;
    sn_status st = sn_cursor_number(&r->c, "the number of inputs", &n, diag);
    if (st != SN_OK)
        return st;
    if (!at_line_end(&r->c))
        return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                           "unexpected %s after the number of inputs",
                           sn_cursor_describe(&r->c, buf, sizeof buf));
    /* Checked before anything of size n is allocated. */
    if (n.value > r->lim.max_wires)
        return sn_diag_limit(diag, SN_LIMIT_WIRES, n.line, n.col,
                             "Inputs: %.*s is over the limit of %u wires", n.ndigits, n.digits,
                           r->lim.max_wires);
    r->have_inputs = true;
    uint32_t wires = (uint32_t)n.value;
    r->net = sn_network_create(wires);
    r->seen = sn_calloc(wires ? wires : 1, sizeof *r->seen);
    r->stage = sn_calloc(wires / 2 + 1, sizeof *r->stage);
    if (!r->net || !r->seen || !r->stage)
        return SN_ENOMEM;
    r->stamp = 1;
    return SN_OK;
}

static sn_status read_wire(reader *r, const char *what, sn_number *w, sn_diag *diag)
{
    sn_status st = sn_cursor_number(&r->c, what, w, diag);
    if (st != SN_OK)
        return st;
    uint32_t n = sn_network_wires(r->net);
    if (w->value >= n)
        return sn_diag_set(diag, SN_EINVAL, w->line, w->col,
                           "wire %.*s is out of range for %u inputs", w->ndigits, w->digits, n);
    return SN_OK;
}

/* A comparator line "a b" at the cursor (a digit or '-' is next). */
static sn_status read_comparator(reader *r, sn_diag *diag)
{
    char buf[32];
    unsigned long line = r->c.line, col = r->c.col;
    if (!r->have_inputs)
        return sn_diag_set(diag, SN_EPARSE, line, col,
                           "comparator before the 'Inputs: N' header line");
    sn_number a, b;
    sn_status st = read_wire(r, "a wire number", &a, diag);
    if (st != SN_OK)
        return st;
    int ch = sn_cursor_peek(&r->c);
    if (ch != ' ' && ch != '\t')
        return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                           "expected a space and the second wire number, found %s",
                           sn_cursor_describe(&r->c, buf, sizeof buf));
    sn_cursor_skip_blanks(&r->c);
    if ((st = read_wire(r, "the second wire number", &b, diag)) != SN_OK)
        return st;
    if (!at_line_end(&r->c))
        return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                           "unexpected %s after the comparator (one 'a b' per line)",
                           sn_cursor_describe(&r->c, buf, sizeof buf));
    if (a.value == b.value)
        return sn_diag_set(diag, SN_EINVAL, line, col,
                           "comparator (%.*s,%.*s) joins a wire to itself", a.ndigits, a.digits,
                           b.ndigits, b.digits);
    if (sn_network_size(r->net) + r->count >= r->lim.max_comparators)
        return sn_diag_limit(diag, SN_LIMIT_COMPARATORS, line, col,
                             "more than %zu comparators (the limit)",
                           r->lim.max_comparators);
    uint32_t wa = (uint32_t)a.value, wb = (uint32_t)b.value;
    if (r->seen[wa] == r->stamp || r->seen[wb] == r->stamp) {
        /* The greedy split of a stage that reuses a wire (see the top). */
        if ((st = flush_stage(r, diag)) != SN_OK)
            return st;
    }
    if (r->count == 0 && sn_network_layer_count(r->net) >= r->lim.max_layers)
        return sn_diag_limit(diag, SN_LIMIT_LAYERS, line, col, "more than %zu layers (the limit)",
                           r->lim.max_layers);
    r->body = true;
    r->seen[wa] = r->seen[wb] = r->stamp;
    r->stage[r->count].a = wa;
    r->stage[r->count].b = wb;
    r->count++;
    return SN_OK;
}

static sn_status read_all(reader *r, sn_diag *diag)
{
    char buf[32];
    for (;;) {
        if (r->c.pos == 0)
            r->c.pos = sn_text_bom(r->c.text, r->c.len); /* a UTF-8 byte order mark */
        sn_cursor_skip_blanks(&r->c);
        int ch = sn_cursor_peek(&r->c);
        sn_status st = SN_OK;
        if (ch < 0) {
            break;
        } else if (ch == '\n') { /* a blank line ends the stage */
            if (r->net)
                st = flush_stage(r, diag);
        } else if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')) {
            st = read_header(r, diag);
        } else if ((ch >= '0' && ch <= '9') || ch == '-') {
            st = read_comparator(r, diag);
        } else {
            st = sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                             "expected a comparator 'a b' or a header line, found %s",
                             sn_cursor_describe(&r->c, buf, sizeof buf));
        }
        if (st != SN_OK)
            return st;
        if (sn_cursor_peek(&r->c) == '\n')
            sn_cursor_next(&r->c);
    }
    if (!r->have_inputs)
        return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                           "missing the 'Inputs: N' header line");
    return flush_stage(r, diag);
}

sn_status sn_sn_parse(const char *text, size_t len, sn_network **out, sn_diag *diag)
{
    reader r;
    memset(&r, 0, sizeof r);
    sn_cursor_init(&r.c, text, len);
    r.lim = sn_limits_get();
    sn_status st = read_all(&r, diag);
    sn_free(r.stage);
    sn_free(r.seen);
    if (st != SN_OK) {
        sn_network_destroy(r.net);
        return st;
    }
    *out = r.net;
    return SN_OK;
}

sn_status sn_sn_write(const sn_network *net, FILE *f, sn_diag *diag)
{
    errno = 0; /* what a failing write sets is the cause in the message */
    bool ok = fprintf(f, "Inputs: %u\n", sn_network_wires(net)) >= 0;
    for (size_t k = 0; ok && k < sn_network_layer_count(net); k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        ok = putc('\n', f) != EOF;
        for (size_t i = 0; ok && i < count; i++)
            ok = fprintf(f, "%u %u\n", c[i].a, c[i].b) >= 0;
    }
    if (!ok || fflush(f) != 0 || ferror(f))
        return sn_format_write_error(diag, errno);
    return SN_OK;
}
