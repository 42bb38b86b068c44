/* format_json.c - the JSON of the public network lists:
 * {"N":8,"L":19,"D":6,"nw":[[0,2],[1,3],...]}.
 *
 * "nw" is either a flat comparator list, grouped into layers as early as
 * possible (sn_network_add_asap), or a list of layers kept as given. "L"
 * (size) and "D" (depth), when present, must agree with what "nw" gives.
 * Decoding is jansson's (it reports line and column of syntax errors; no
 * home-made JSON parser). jansson does not say where a value sits, so for
 * errors about a value that parsed, a small locator walks the (already
 * valid) text to the key or element in question, to give its line and
 * column too. Writing needs no library: the output is a fixed shape. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h" // for: sn_text_bom
#include "core/format_impl.h"

#ifdef SN_HAVE_JANSSON
#include <jansson.h> /* for: json_loadb, json_error_code */

/* ---- the locator: walks valid JSON text with an sn_cursor */

static void loc_ws(sn_cursor *c)
{
    int ch;
    while ((ch = sn_cursor_peek(c)) == ' ' || ch == '\t' || ch == '\r' || ch == '\n')
        sn_cursor_next(c);
}

static void loc_string(sn_cursor *c)
{
    sn_cursor_next(c); /* '"' */
    int ch;
    while ((ch = sn_cursor_peek(c)) >= 0) {
        sn_cursor_next(c);
        if (ch == '\\')
            sn_cursor_next(c);
        else if (ch == '"')
            return;
    }
}

static void loc_value(sn_cursor *c)
{
    int ch = sn_cursor_peek(c);
    if (ch == '"') {
        loc_string(c);
    } else if (ch == '[' || ch == '{') {
        size_t depth = 0;
        while ((ch = sn_cursor_peek(c)) >= 0) {
            if (ch == '"') {
                loc_string(c);
                continue;
            }
            sn_cursor_next(c);
            if (ch == '[' || ch == '{')
                depth++;
            else if ((ch == ']' || ch == '}') && --depth == 0)
                return;
        }
    } else {
        while ((ch = sn_cursor_peek(c)) >= 0 && ch != ',' && ch != ']' && ch != '}' && ch != ' ' &&
               ch != '\t' && ch != '\r' && ch != '\n')
            sn_cursor_next(c);
    }
}

/* At an object (the text jansson read: fail names keys of objects only):
 * move to the value of `key`. false when the key is not written as its
 * bytes (an escape such as "\u004e" for "N"). */
static bool loc_key(sn_cursor *c, const char *key)
{
    loc_ws(c);
    sn_cursor_next(c); /* the object's '{' */
    size_t klen = strlen(key);
    for (;;) {
        loc_ws(c);
        size_t start = c->pos + 1;
        loc_string(c);
        bool match = c->pos - start == klen + 1 && memcmp(c->text + start, key, klen) == 0;
        loc_ws(c);
        sn_cursor_next(c); /* the ':' */
        loc_ws(c);
        if (match)
            return true;
        loc_value(c);
        loc_ws(c);
        if (sn_cursor_peek(c) != ',')
            return false;
        sn_cursor_next(c);
    }
}

/* At an array (the text jansson read, with element i: fail indexes
 * arrays it read): move to element i. */
static void loc_index(sn_cursor *c, size_t i)
{
    loc_ws(c);
    sn_cursor_next(c); /* the array's '[' */
    for (size_t k = 0; k < i; k++) {
        loc_ws(c);
        loc_value(c);
        loc_ws(c);
        sn_cursor_next(c); /* the ',' */
    }
    loc_ws(c);
}

/* Where a value is: "key", "key[i]" or "key[i][j]" (SIZE_MAX = no index). */
typedef struct where {
    const char *key;
    size_t i, j;
} where;

typedef struct ctx {
    const char *text;
    size_t len;
    sn_diag *diag;
} ctx;

#define NO_INDEX SIZE_MAX

/* Set diag to "PATH: message" at the line and column of the value. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static sn_status
fail(const ctx *x, sn_status st, where w, const char *fmt, ...)
{
    char msg[512], path[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sn_cursor c;
    sn_cursor_init(&c, x->text, x->len);
    bool found = true;
    if (w.key) {
        found = loc_key(&c, w.key);
        if (found && w.i != NO_INDEX)
            loc_index(&c, w.i);
        if (found && w.j != NO_INDEX)
            loc_index(&c, w.j);
    } else
        loc_ws(&c);
    if (!w.key)
        path[0] = '\0';
    else if (w.i == NO_INDEX)
        snprintf(path, sizeof path, "\"%s\": ", w.key);
    else if (w.j == NO_INDEX)
        snprintf(path, sizeof path, "%s[%zu]: ", w.key, w.i);
    else
        snprintf(path, sizeof path, "%s[%zu][%zu]: ", w.key, w.i, w.j);
    return sn_diag_set(x->diag, st, found ? c.line : 1, found ? c.col : 1, "%s%s", path, msg);
}

/* st, with the configurable limit it hit recorded in the diagnostic */
static sn_status hit(const ctx *x, sn_limit limit, sn_status st)
{
    if (st == SN_ELIMIT && x->diag)
        x->diag->limit = limit;
    return st;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "a list";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a fraction";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "something else";
}

/* A whole number in [0, max] (an integral real like 1e9 counts: JSON has
 * one number type); over max gives status `over`. */
static sn_status get_count(const ctx *x, const json_t *v, where w, const char *what, uint64_t max,
                           sn_status over, const char *over_text, uint64_t *out)
{
    if (json_is_integer(v)) {
        json_int_t i = json_integer_value(v);
        if (i < 0)
            return fail(x, SN_EPARSE, w, "%s must not be negative (got %lld)", what, (long long)i);
        if ((uint64_t)i > max)
            return fail(x, over, w, "%s %lld %s", what, (long long)i, over_text);
        *out = (uint64_t)i;
        return SN_OK;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d < 0)
            return fail(x, SN_EPARSE, w, "%s must not be negative (got %g)", what, d);
        if (d > (double)max)
            return fail(x, over, w, "%s %g %s", what, d, over_text);
        if (d != floor(d))
            return fail(x, SN_EPARSE, w, "%s must be a whole number (got %g)", what, d);
        *out = (uint64_t)d;
        return SN_OK;
    }
    return fail(x, SN_EPARSE, w, "%s must be a number, not %s", what, type_name(v));
}

/* A comparator [a,b] with both wires < n. */
static sn_status get_pair(const ctx *x, const json_t *v, where w, uint32_t n, sn_comparator *c)
{
    if (!json_is_array(v) || json_array_size(v) != 2)
        return fail(x, SN_EPARSE, w, "expected a comparator [a,b], found %s%s", type_name(v),
                    json_is_array(v) ? " of another length" : "");
    uint64_t ab[2];
    char text[64];
    snprintf(text, sizeof text, "is out of range for %u inputs", n);
    for (size_t k = 0; k < 2; k++) {
        sn_status st =
            get_count(x, json_array_get(v, k), w, "wire", n ? n - 1u : 0, SN_EINVAL, text, &ab[k]);
        if (st == SN_OK && n == 0)
            st = fail(x, SN_EINVAL, w, "wire %llu %s", (unsigned long long)ab[k], text);
        if (st != SN_OK)
            return st;
    }
    if (ab[0] == ab[1])
        return fail(x, SN_EINVAL, w, "comparator (%llu,%llu) joins a wire to itself",
                    (unsigned long long)ab[0], (unsigned long long)ab[1]);
    c->a = (uint32_t)ab[0];
    c->b = (uint32_t)ab[1];
    return SN_OK;
}

static sn_status read_flat(const ctx *x, const json_t *nw, sn_network *net)
{
    sn_diag d;
    for (size_t i = 0; i < json_array_size(nw); i++) {
        where w = {"nw", i, NO_INDEX};
        sn_comparator c;
        sn_status st = get_pair(x, json_array_get(nw, i), w, sn_network_wires(net), &c);
        if (st == SN_OK && (st = sn_network_add_asap(net, c.a, c.b, &d)) != SN_OK)
            return st == SN_ENOMEM ? st : fail(x, st, w, "%s", d.text);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

static sn_status read_layers(const ctx *x, const json_t *nw, sn_network *net)
{
    sn_comparator *buf = NULL;
    size_t cap = 0;
    sn_status st = SN_OK;
    sn_diag d;
    for (size_t i = 0; st == SN_OK && i < json_array_size(nw); i++) {
        const json_t *layer = json_array_get(nw, i);
        where w = {"nw", i, NO_INDEX};
        if (!json_is_array(layer) ||
            (json_array_size(layer) > 0 && !json_is_array(json_array_get(layer, 0)))) {
            st = fail(x, SN_EPARSE, w, "expected a layer (a list of [a,b] comparators), found %s",
                      type_name(layer));
            break;
        }
        size_t count = json_array_size(layer);
        if (count > cap) {
            size_t bytes;
            sn_comparator *p = NULL;
            if (sn_mul_size(count, sizeof *buf, &bytes))
                p = sn_realloc(buf, bytes);
            if (!p) {
                st = SN_ENOMEM;
                break;
            }
            buf = p;
            cap = count;
        }
        for (size_t j = 0; st == SN_OK && j < count; j++) {
            where wj = {"nw", i, j};
            st = get_pair(x, json_array_get(layer, j), wj, sn_network_wires(net), &buf[j]);
        }
        if (st == SN_OK && (st = sn_network_layer_add(net, buf, count, &d)) != SN_OK &&
            st != SN_ENOMEM)
            st = fail(x, st, w, "%s", d.text);
    }
    sn_free(buf);
    return st;
}

/* "L" or "D", if present, must equal `actual`. */
static sn_status check_count(const ctx *x, const json_t *root, const char *key, size_t actual,
                             const char *what)
{
    const json_t *v = json_object_get(root, key);
    if (!v)
        return SN_OK;
    where w = {key, NO_INDEX, NO_INDEX};
    uint64_t declared = 0; /* set by get_count on SN_OK; gcc -O3 cannot see it */
    sn_status st = get_count(x, v, w, key, UINT64_MAX, SN_EPARSE, "", &declared);
    if (st != SN_OK)
        return st;
    if (declared != actual)
        return fail(x, SN_EINVAL, w, "\"%s\" is %llu but \"nw\" gives %zu %s", key,
                    (unsigned long long)declared, actual, what);
    return SN_OK;
}

static sn_status read_root(const ctx *x, const json_t *root, sn_network **out)
{
    where top = {NULL, NO_INDEX, NO_INDEX};
    if (!json_is_object(root))
        return fail(x, SN_EPARSE, top,
                    "expected a JSON object like {\"N\":4,\"nw\":[[0,1],...]}, found %s",
                    type_name(root));
    const json_t *jn = json_object_get(root, "N"), *nw = json_object_get(root, "nw");
    if (!jn)
        return fail(x, SN_EPARSE, top, "missing \"N\" (the number of inputs)");
    if (!nw)
        return fail(x, SN_EPARSE, top, "missing \"nw\" (the list of comparators)");
    sn_limits lim = sn_limits_get();
    char over[64];
    snprintf(over, sizeof over, "is over the limit of %u wires", lim.max_wires);
    uint64_t n;
    where wn = {"N", NO_INDEX, NO_INDEX}, wnw = {"nw", NO_INDEX, NO_INDEX};
    /* Checked before anything of size n is allocated. */
    sn_status st =
        hit(x, SN_LIMIT_WIRES, get_count(x, jn, wn, "N", lim.max_wires, SN_ELIMIT, over, &n));
    if (st != SN_OK)
        return st;
    if (!json_is_array(nw))
        return fail(x, SN_EPARSE, wnw, "expected a list of comparators, found %s", type_name(nw));
    const json_t *first = json_array_get(nw, 0);
    bool layered = first && json_is_array(first) &&
                   (json_array_size(first) == 0 || json_is_array(json_array_get(first, 0)));
    if (!layered && json_array_size(nw) > lim.max_comparators)
        return hit(x, SN_LIMIT_COMPARATORS,
                   fail(x, SN_ELIMIT, wnw, "%zu comparators is over the limit of %zu",
                        json_array_size(nw), lim.max_comparators));
    if (layered && json_array_size(nw) > lim.max_layers)
        return hit(x, SN_LIMIT_LAYERS,
                   fail(x, SN_ELIMIT, wnw, "%zu layers is over the limit of %zu",
                        json_array_size(nw), lim.max_layers));
    sn_network *net = sn_network_create((uint32_t)n);
    if (!net)
        return SN_ENOMEM;
    st = layered ? read_layers(x, nw, net) : read_flat(x, nw, net);
    if (st == SN_OK)
        st = check_count(x, root, "L", sn_network_size(net), "comparators");
    if (st == SN_OK)
        st = check_count(x, root, "D", sn_network_layer_count(net), "layers");
    if (st != SN_OK) {
        sn_network_destroy(net);
        return st;
    }
    *out = net;
    return SN_OK;
}

/* jansson builds the whole document first, at about 34 bytes per byte of
 * text, so the limits must be applied to the text itself: every comparator
 * and every layer opens one '[', so more '[' than the limits allow (plus the
 * outer list) can be refused before anything is built. */
static sn_status check_brackets(const char *text, size_t len, sn_diag *diag)
{
    sn_limits lim = sn_limits_get();
    size_t allowed = lim.max_comparators + lim.max_layers + 2, opened = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '[' && ++opened > allowed)
            return sn_diag_limit(diag, SN_LIMIT_COMPARATORS, 1, 1,
                                 "more than %zu lists: over the limits of %zu comparators and "
                                 "%zu layers",
                                 allowed, lim.max_comparators, lim.max_layers);
    }
    return SN_OK;
}

sn_status sn_json_parse(const char *text, size_t len, sn_network **out, sn_diag *diag)
{
    size_t bom = sn_text_bom(text, len); /* jansson takes none */
    text += bom;
    len -= bom;
    sn_status pre = check_brackets(text, len, diag);
    if (pre != SN_OK)
        return pre;
    json_error_t err;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!root) {
        if (json_error_code(&err) == json_error_out_of_memory)
            return SN_ENOMEM;
        return sn_diag_set(diag, SN_EPARSE, err.line > 0 ? (unsigned long)err.line : 1,
                           err.column > 0 ? (unsigned long)err.column : 1, "%s", err.text);
    }
    ctx x = {text, len, diag};
    sn_status st = read_root(&x, root, out);
    json_decref(root);
    return st;
}

#else /* no jansson */

sn_status sn_json_parse(const char *text, size_t len, sn_network **out, sn_diag *diag)
{
    (void)text;
    (void)len;
    (void)out;
    return sn_diag_set(diag, SN_EUNSUPPORTED, 0, 0,
                       "this is a JSON network, and this sortnet was built without JSON "
                       "support (install libjansson-dev and rebuild)");
}

#endif

sn_status sn_json_write(const sn_network *net, FILE *f, sn_diag *diag)
{
    /* A flat list is what the public lists use, but a reader regroups it as
     * early as possible, which moves a comparator that could run earlier
     * than the layer it is in. Such networks are written as a list of
     * layers instead, so that reading back always gives the same network. */
    bool flat;
    if (sn_network_is_asap(net, &flat) != SN_OK)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    size_t layers = sn_network_layer_count(net);
    errno = 0; /* what a failing write sets is the cause in the message */
    bool ok = fprintf(f, "{\"N\": %u, \"L\": %zu, \"D\": %zu, \"nw\": [", sn_network_wires(net),
                      sn_network_size(net), layers) >= 0;
    for (size_t k = 0; ok && k < layers; k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        ok = fputs(k ? ",\n  " : "\n  ", f) >= 0 && (flat || putc('[', f) != EOF);
        for (size_t i = 0; ok && i < count; i++)
            ok = fprintf(f, "%s[%u,%u]", i ? "," : "", c[i].a, c[i].b) >= 0;
        ok = ok && (flat || putc(']', f) != EOF);
    }
    ok = ok && fputs(layers ? "\n]}\n" : "]}\n", f) >= 0;
    if (!ok || fflush(f) != 0 || ferror(f))
        return sn_format_write_error(diag, errno);
    return SN_OK;
}
