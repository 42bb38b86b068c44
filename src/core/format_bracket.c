/* format_bracket.c - the bracket-layer format of the public lists of best
 * networks: one layer per line, "[(0,2),(1,3)]".
 *
 * There is no header, so n is 1 + the largest wire mentioned (a network
 * whose top wires are idle loses them in this format; the JSON and sn
 * formats keep n). The reader is a hand-written scanner with no recursion,
 * so deep nesting or a megabyte on one line costs nothing special: it
 * collects the comparators and the layer ends in growable arrays, checking
 * each comparator (a != b, no wire twice in a layer, limits) at the moment
 * it is read so the error points at its line and column, and only then
 * builds the network, whose n is known at the end. */
#include <errno.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h" // for: sn_text_bom
#include "core/format_impl.h"

typedef struct reader {
    sn_cursor c;
    sn_limits lim;
    sn_comparator *cmps; /* all comparators, in order */
    size_t ncmp, cap_cmp;
    size_t *ends; /* ends[k] = comparators before the end of layer k */
    size_t nlayers, cap_layers;
    size_t *seen; /* per wire: 1 + the layer that last used it */
    size_t nseen;
    uint32_t max_wire;
    bool any_wire;
} reader;

/* Make room for `need` elements of `size` bytes in *p (capacity *cap). */
static sn_status grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return SN_OK;
    size_t ncap = *cap ? *cap : 16, bytes;
    while (ncap < need)
        ncap = ncap <= SIZE_MAX / 2 ? ncap * 2 : need;
    if (!sn_mul_size(ncap, size, &bytes))
        return SN_ENOMEM;
    void *q = sn_realloc(*p, bytes);
    if (!q)
        return SN_ENOMEM;
    *p = q;
    *cap = ncap;
    return SN_OK;
}

static sn_status read_wire(reader *r, sn_number *w, sn_diag *diag)
{
    sn_status st = sn_cursor_number(&r->c, "a wire number", w, diag);
    if (st != SN_OK)
        return st;
    if (w->value >= r->lim.max_wires)
        return sn_diag_limit(diag, SN_LIMIT_WIRES, w->line, w->col,
                             "wire %.*s is over the limit of %u wires", w->ndigits, w->digits,
                           r->lim.max_wires);
    return SN_OK;
}

/* Expect the character `want` (after optional blanks). */
static sn_status expect(reader *r, int want, const char *after, sn_diag *diag)
{
    char buf[32];
    sn_cursor_skip_blanks(&r->c);
    if (sn_cursor_peek(&r->c) == want) {
        sn_cursor_next(&r->c);
        sn_cursor_skip_blanks(&r->c);
        return SN_OK;
    }
    return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col, "expected '%c' %s, found %s", want,
                       after, sn_cursor_describe(&r->c, buf, sizeof buf));
}

/* One "(a,b)" at the cursor, the start of layer `layer` (0-based). */
static sn_status read_comparator(reader *r, size_t layer, sn_diag *diag)
{
    unsigned long line = r->c.line, col = r->c.col;
    sn_number a, b;
    sn_status st;
    if ((st = expect(r, '(', "to start a comparator", diag)) != SN_OK ||
        (st = read_wire(r, &a, diag)) != SN_OK ||
        (st = expect(r, ',', "after wire number", diag)) != SN_OK ||
        (st = read_wire(r, &b, diag)) != SN_OK ||
        (st = expect(r, ')', "to close the comparator", diag)) != SN_OK)
        return st;
    if (a.value == b.value)
        return sn_diag_set(diag, SN_EINVAL, line, col,
                           "comparator (%.*s,%.*s) joins a wire to itself", a.ndigits, a.digits,
                           b.ndigits, b.digits);
    if (r->ncmp >= r->lim.max_comparators)
        return sn_diag_limit(diag, SN_LIMIT_COMPARATORS, line, col,
                             "more than %zu comparators (the limit)",
                           r->lim.max_comparators);
    uint32_t w[2] = {(uint32_t)a.value, (uint32_t)b.value};
    uint32_t top = w[0] > w[1] ? w[0] : w[1];
    if (top >= r->nseen) {
        size_t old = r->nseen;
        if (grow((void **)&r->seen, &r->nseen, (size_t)top + 1, sizeof *r->seen) != SN_OK)
            return SN_ENOMEM;
        memset(r->seen + old, 0, (r->nseen - old) * sizeof *r->seen);
    }
    for (int j = 0; j < 2; j++) {
        if (r->seen[w[j]] == layer + 1)
            return sn_diag_set(diag, SN_EINVAL, line, col,
                               "wire %u is used twice in layer %zu (comparator (%u,%u)); a "
                               "layer's comparators touch different wires: write one layer a "
                               "line, e.g. [(0,1),(2,3)] then [(0,2),(1,3)]",
                               w[j], layer + 1, w[0], w[1]);
        r->seen[w[j]] = layer + 1;
    }
    if (grow((void **)&r->cmps, &r->cap_cmp, r->ncmp + 1, sizeof *r->cmps) != SN_OK)
        return SN_ENOMEM;
    r->cmps[r->ncmp].a = w[0];
    r->cmps[r->ncmp].b = w[1];
    r->ncmp++;
    if (!r->any_wire || top > r->max_wire)
        r->max_wire = top;
    r->any_wire = true;
    return SN_OK;
}

/* One "[...]" layer at the cursor ('[' is next). */
static sn_status read_layer(reader *r, sn_diag *diag)
{
    char buf[32];
    unsigned long line = r->c.line, col = r->c.col;
    if (r->nlayers >= r->lim.max_layers)
        return sn_diag_limit(diag, SN_LIMIT_LAYERS, line, col, "more than %zu layers (the limit)",
                           r->lim.max_layers);
    sn_cursor_next(&r->c);
    sn_cursor_skip_blanks(&r->c);
    sn_status st;
    if (sn_cursor_peek(&r->c) != ']') {
        for (;;) {
            if (sn_cursor_peek(&r->c) != '(')
                return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                                   "expected '(' to start a comparator, found %s",
                                   sn_cursor_describe(&r->c, buf, sizeof buf));
            if ((st = read_comparator(r, r->nlayers, diag)) != SN_OK)
                return st;
            if (sn_cursor_peek(&r->c) == ']')
                break;
            if (sn_cursor_peek(&r->c) != ',')
                return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                                   "expected ',' or ']' after a comparator, found %s",
                                   sn_cursor_describe(&r->c, buf, sizeof buf));
            sn_cursor_next(&r->c);
            sn_cursor_skip_blanks(&r->c);
        }
    }
    sn_cursor_next(&r->c); /* ']' */
    if (grow((void **)&r->ends, &r->cap_layers, r->nlayers + 1, sizeof *r->ends) != SN_OK)
        return SN_ENOMEM;
    r->ends[r->nlayers++] = r->ncmp;
    return SN_OK;
}

static sn_status read_all(reader *r, sn_diag *diag)
{
    char buf[32];
    bool any = false;
    for (;;) {
        sn_cursor_skip_blanks(&r->c);
        int ch = sn_cursor_peek(&r->c);
        if (ch < 0)
            break;
        if (ch == '\n') {
            sn_cursor_next(&r->c);
            continue;
        }
        if (ch == '#') { /* a comment to the end of the line */
            while ((ch = sn_cursor_peek(&r->c)) >= 0 && ch != '\n')
                sn_cursor_next(&r->c);
            continue;
        }
        if (r->c.pos == 0 && sn_text_bom(r->c.text, r->c.len)) {
            r->c.pos = sn_text_bom(r->c.text, r->c.len); /* a UTF-8 byte order mark */
            continue;
        }
        if (ch != '[')
            return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                               "expected '[' to start a layer, found %s",
                               sn_cursor_describe(&r->c, buf, sizeof buf));
        sn_status st = read_layer(r, diag);
        if (st != SN_OK)
            return st;
        any = true;
        /* Layers may also follow each other on one line, optionally
         * separated by commas (as some lists print them). */
        sn_cursor_skip_blanks(&r->c);
        if (sn_cursor_peek(&r->c) == ',')
            sn_cursor_next(&r->c);
    }
    if (!any)
        return sn_diag_set(diag, SN_EPARSE, r->c.line, r->c.col,
                           "no network found: expected layers like [(0,1),(2,3)]");
    return SN_OK;
}

sn_status sn_bracket_parse(const char *text, size_t len, sn_network **out, sn_diag *diag)
{
    reader r;
    memset(&r, 0, sizeof r);
    sn_cursor_init(&r.c, text, len);
    r.lim = sn_limits_get();
    sn_status st = read_all(&r, diag);
    sn_network *net = NULL;
    if (st == SN_OK) {
        net = sn_network_create(r.any_wire ? r.max_wire + 1 : 0);
        if (!net)
            st = SN_ENOMEM; /* the wire limit was checked while reading */
    }
    for (size_t k = 0; st == SN_OK && k < r.nlayers; k++) {
        size_t begin = k ? r.ends[k - 1] : 0;
        /* Already checked, so only allocation or the limits can fail. */
        st = sn_network_layer_add(net, r.cmps ? r.cmps + begin : NULL, r.ends[k] - begin, diag);
    }
    sn_free(r.cmps);
    sn_free(r.ends);
    sn_free(r.seen);
    if (st != SN_OK) {
        sn_network_destroy(net);
        return st;
    }
    *out = net;
    return SN_OK;
}

static sn_status write_error(sn_diag *diag)
{
    return sn_format_write_error(diag, errno);
}

sn_status sn_bracket_write(const sn_network *net, FILE *f, sn_diag *diag)
{
    size_t layers = sn_network_layer_count(net);
    errno = 0; /* what a failing write sets is the cause in the message */
    if (layers == 0 && fputs("[]\n", f) < 0) /* still a network the reader accepts */
        return write_error(diag);
    for (size_t k = 0; k < layers; k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        if (putc('[', f) == EOF)
            return write_error(diag);
        for (size_t i = 0; i < count; i++)
            if (fprintf(f, "%s(%u,%u)", i ? "," : "", c[i].a, c[i].b) < 0)
                return write_error(diag);
        if (fputs("]\n", f) < 0)
            return write_error(diag);
    }
    if (fflush(f) != 0 || ferror(f))
        return write_error(diag);
    return SN_OK;
}
