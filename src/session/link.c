/* link.c - the state a link carries, read and written (link.h; the format
 * is there and in docs/web.md, "Links").
 *
 * Invariant: the reader accepts exactly what the writer can write, in any
 * order of fields, and nothing else; a decoded sn_link written again gives
 * the same text when its fields came in the writer's order (net or cmp or
 * lesson, ls, in, step, ex), step=0 outside a lesson being left out. */
#include "session/link.h"

#include <string.h>

#include "core/alloc.h"
#include "core/input.h" /* for: sn_key_format */
#include "session/exercise.h"
#include "session/session.h"

/* Bytes a value may hold: those a URL fragment carries unescaped, less
 * the separators '&' and '=' (RFC 3986 pchar without pct-encoded). */
static bool value_byte(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("-._~:,/+@!*()", c) != NULL);
}

void sn_link_init(sn_link *l)
{
    memset(l, 0, sizeof *l);
}

void sn_link_clear(sn_link *l)
{
    sn_free(l->net);
    sn_network_destroy(l->cmp);
    sn_free(l->input);
    sn_free(l->lesson);
    for (size_t i = 0; i < l->answer_count; i++)
        sn_free(l->answers[i].text);
    sn_free(l->answers);
    sn_link_init(l);
}

static char *dup_n(const char *s, size_t n)
{
    char *p = sn_malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* A decimal number without sign or leading zeros, at most max. */
static bool read_count(const char *s, size_t n, size_t max, size_t *out)
{
    if (n == 0 || (n > 1 && s[0] == '0'))
        return false;
    size_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        size_t d = (size_t)(s[i] - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

/* ---- the compact form of a network: WIRES/a-b,c-d/... */

void sn_link_compact(const sn_network *net, sn_textbuf *b)
{
    sn_textbuf_printf(b, "%u", sn_network_wires(net));
    for (size_t k = 0; k < sn_network_layer_count(net); k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        for (size_t i = 0; i < count; i++)
            sn_textbuf_printf(b, "%c%u-%u", i ? ',' : '/', c[i].a, c[i].b);
    }
}

static sn_status compact_fail(sn_diag *d, sn_status st, size_t at, const char *fmt, const char *s,
                              size_t n)
{
    char what[48];
    size_t k = n < sizeof what - 1 ? n : sizeof what - 1;
    memcpy(what, s, k);
    what[k] = '\0';
    sn_diag_set(d, st, 0, 0, fmt, at + 1, what);
    return st;
}

/* Read "WIRES[/a-b,...]..." (n bytes; base: its offset in the link, for
 * messages). */
static sn_status compact_read(const char *s, size_t n, size_t base, sn_network **out, sn_diag *d)
{
    *out = NULL;
    size_t i = 0;
    while (i < n && s[i] != '/')
        i++;
    size_t wires;
    if (!read_count(s, i, SN_VIEW_MAX_N, &wires) || wires == 0)
        return compact_fail(d, SN_EPARSE, base,
                            "link: byte %zu: cmp= starts with the wire count (1 to "
                            "4096), not '%s'",
                            s, i);
    sn_network *net = sn_network_create((uint32_t)wires);
    sn_comparator *layer = net ? sn_malloc(wires / 2 * sizeof *layer + sizeof *layer) : NULL;
    if (!net || !layer) {
        sn_network_destroy(net);
        sn_free(layer);
        return sn_diag_set(d, SN_ENOMEM, 0, 0, "link: out of memory");
    }
    sn_status st = SN_OK;
    while (st == SN_OK && i < n) {
        i++; /* the '/' */
        size_t count = 0, start = i;
        for (;;) {
            size_t c0 = i;
            while (i < n && s[i] != ',' && s[i] != '/')
                i++;
            const char *dash = memchr(s + c0, '-', i - c0);
            size_t a, bw;
            if (!dash || !read_count(s + c0, (size_t)(dash - s) - c0, SN_VIEW_MAX_N, &a) ||
                !read_count(dash + 1, i - (size_t)(dash + 1 - s), SN_VIEW_MAX_N, &bw)) {
                st =
                    compact_fail(d, SN_EPARSE, base + c0,
                                 i == c0 ? "link: byte %zu: an empty comparator in cmp=%s (a layer "
                                           "is a-b,c-d; layers are separated by one /)"
                                         : "link: byte %zu: '%s' is not a comparator a-b (two wire "
                                           "numbers)",
                                 s + c0, i - c0);
                break;
            }
            if (a >= wires || bw >= wires || a == bw) {
                char msg[160];
                snprintf(msg, sizeof msg, "link: byte %%zu: comparator '%%s' %s",
                         a == bw ? "joins a wire to itself" : "names a wire past the last");
                st = compact_fail(d, SN_EPARSE, base + c0, msg, s + c0, i - c0);
                break;
            }
            if (count == wires / 2 + 1) {
                st = compact_fail(d, SN_EPARSE, base + c0,
                                  "link: byte %zu: comparator '%s' shares a wire with another in "
                                  "its layer",
                                  s + c0, i - c0);
                break;
            }
            layer[count].a = (uint32_t)a;
            layer[count].b = (uint32_t)bw;
            count++;
            if (i >= n || s[i] == '/')
                break;
            i++; /* the ',' */
        }
        if (st != SN_OK)
            break;
        sn_diag ld;
        sn_diag_clear(&ld);
        st = sn_network_layer_add(net, layer, count, &ld);
        if (st != SN_OK)
            st = compact_fail(d, st, base + start,
                              "link: byte %zu: the layer '%s' uses a wire twice (one comparator a "
                              "wire in a layer)",
                              s + start, i - start);
    }
    sn_free(layer);
    if (st != SN_OK) {
        sn_network_destroy(net);
        return st;
    }
    *out = net;
    return SN_OK;
}

sn_status sn_link_compact_read(const char *s, size_t n, sn_network **out, sn_diag *diag)
{
    return compact_read(s, n, 0, out, diag);
}

/* ---- answers (ex=): STEP:ANSWER/..., the answer escaped */

/* Bytes an answer holds as themselves; every other one is '*' and two
 * upper-case hex digits. */
static bool answer_plain(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("-._,()+@!:", c) != NULL);
}

void sn_link_answer_escape(const char *text, sn_textbuf *b)
{
    for (const char *p = text; *p; p++) {
        if (answer_plain(*p))
            sn_textbuf_put(b, p, 1);
        else
            sn_textbuf_printf(b, "*%02X", (unsigned)(unsigned char)*p);
    }
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Read ex='s value (n bytes at s; base: its offset in the link) into
 * out->answers. */
static sn_status answers_read(const char *s, size_t n, size_t base, sn_link *out, sn_diag *d)
{
    size_t count = 1;
    for (size_t i = 0; i < n; i++)
        count += s[i] == '/';
    out->answers = sn_malloc(count * sizeof *out->answers);
    if (!out->answers)
        return sn_diag_set(d, SN_ENOMEM, 0, 0, "link: out of memory");
    size_t i = 0;
    while (i <= n) {
        size_t at = i, colon = i;
        while (colon < n && s[colon] != ':' && s[colon] != '/')
            colon++;
        size_t step;
        if (colon >= n || s[colon] != ':' ||
            !read_count(s + at, colon - at, (size_t)1 << 30, &step))
            return sn_diag_set(d, SN_EPARSE, 0, 0,
                               "link: byte %zu: ex= holds STEP:ANSWER entries separated by '/' "
                               "(the step a number from 0), not '%.*s'",
                               base + at + 1, (int)(colon - at < 24 ? colon - at : 24), s + at);
        if (out->answer_count && step <= out->answers[out->answer_count - 1].step)
            return sn_diag_set(d, SN_EPARSE, 0, 0,
                               "link: byte %zu: ex= answers step %zu %s (the steps rise, each "
                               "once)",
                               base + at + 1, step,
                               step == out->answers[out->answer_count - 1].step ? "twice"
                                                                                : "out of order");
        size_t end = colon + 1;
        while (end < n && s[end] != '/')
            end++;
        if (end == colon + 1)
            return sn_diag_set(d, SN_EPARSE, 0, 0, "link: byte %zu: ex= step %zu has no answer",
                               base + at + 1, step);
        char *t = sn_malloc(end - colon);
        if (!t)
            return sn_diag_set(d, SN_ENOMEM, 0, 0, "link: out of memory");
        out->answers[out->answer_count].step = step;
        out->answers[out->answer_count].text = t;
        out->answer_count++;
        size_t k = 0;
        for (size_t j = colon + 1; j < end; j++) {
            if (s[j] != '*' && !answer_plain(s[j]))
                return sn_diag_set(d, SN_EPARSE, 0, 0,
                                   "link: byte %zu: '%c' in an answer of ex= is written *%02X",
                                   base + j + 1, s[j], (unsigned)(unsigned char)s[j]);
            if (s[j] != '*') {
                t[k++] = s[j];
                continue;
            }
            int hi = j + 2 < end ? hex_digit(s[j + 1]) : -1;
            int lo = j + 2 < end ? hex_digit(s[j + 2]) : -1;
            char c = (char)(unsigned char)(hi * 16 + lo);
            if (hi < 0 || lo < 0 || c == '\0' || answer_plain(c))
                return sn_diag_set(d, SN_EPARSE, 0, 0,
                                   "link: byte %zu: a bad escape in ex= ('*' and two upper-case "
                                   "hex digits of a byte other than 00 and those written as "
                                   "themselves)",
                                   base + j + 1);
            t[k++] = c;
            j += 2;
        }
        t[k] = '\0';
        i = end + 1;
    }
    return SN_OK;
}

/* ---- the input: random:SEED, reverse, sorted, bits:0110, list:3,1,2 */

static bool input_ok(const char *s)
{
    if (strncmp(s, "random:", 7) == 0) {
        size_t n = strlen(s + 7); /* a 64-bit seed: up to 20 digits, no leading zeros */
        if (n == 0 || n > 20 || (n > 1 && s[7] == '0') || strspn(s + 7, "0123456789") != n)
            return false;
        return n < 20 || strcmp(s + 7, "18446744073709551615") <= 0;
    }
    if (strcmp(s, "reverse") == 0 || strcmp(s, "sorted") == 0)
        return true;
    if (strncmp(s, "bits:", 5) == 0)
        return s[5] && strspn(s + 5, "01") == strlen(s + 5);
    if (strncmp(s, "list:", 5) == 0) /* the values are the core's to read (it names a bad one) */
        return s[5] && strspn(s + 5, "0123456789+-.,eE") == strlen(s + 5);
    return false;
}

sn_status sn_link_input(const sn_link *l, sn_view_input *in, sn_diag *diag)
{
    memset(in, 0, sizeof *in);
    in->type = SN_KEY_I32;
    in->kind = SN_INPUT_RANDOM;
    in->seed = 1;
    const char *s = l->input;
    if (!s)
        return SN_OK;
    if (!input_ok(s))
        return sn_diag_set(diag, SN_EPARSE, 0, 0,
                           "link: in=%.40s is not an input (random:SEED, reverse, sorted, "
                           "bits:0110, list:3,1,2)",
                           s);
    if (strncmp(s, "random:", 7) == 0) {
        unsigned long long seed = 0;
        for (const char *d = s + 7; *d; d++)
            seed = seed * 10 + (unsigned)(*d - '0');
        in->seed = (uint64_t)seed;
    } else if (strcmp(s, "reverse") == 0) {
        in->kind = SN_INPUT_REVERSE;
    } else if (strcmp(s, "sorted") == 0) {
        in->kind = SN_INPUT_SORTED;
    } else {
        in->kind = s[0] == 'b' ? SN_INPUT_BITS : SN_INPUT_LIST;
        in->text = s + 5;
    }
    return SN_OK;
}

void sn_link_input_spec(const sn_view *v, sn_textbuf *b)
{
    switch (v->input_kind) {
    case SN_INPUT_RANDOM: sn_textbuf_printf(b, "random:%llu", (unsigned long long)v->seed); break;
    case SN_INPUT_REVERSE: sn_textbuf_str(b, "reverse"); break;
    case SN_INPUT_SORTED: sn_textbuf_str(b, "sorted"); break;
    case SN_INPUT_BITS: sn_textbuf_printf(b, "bits:%s", v->bits); break;
    case SN_INPUT_LIST:
    case SN_INPUT_KEYS:
    default:
        sn_textbuf_str(b, "list:");
        for (uint32_t i = 0; v->input && i < v->n; i++) {
            char tmp[48];
            sn_key_format(v->type, v->input[i], tmp, sizeof tmp);
            if (i)
                sn_textbuf_put(b, ",", 1);
            sn_textbuf_str(b, tmp);
        }
        break;
    }
}

/* ---- decoding */

enum { F_NET, F_CMP, F_IN, F_STEP, F_LESSON, F_LS, F_EX, F_COUNT };
static const char *const field_key[F_COUNT] = {"net", "cmp", "in", "step", "lesson", "ls", "ex"};

static sn_status check_fields(const bool *seen, sn_diag *d)
{
    int nets = seen[F_NET] + seen[F_CMP] + seen[F_LESSON];
    if (nets == 0)
        return sn_diag_set(d, SN_EPARSE, 0, 0, "link: names no network (net=, cmp= or lesson=)");
    if (nets > 1)
        return sn_diag_set(d, SN_EPARSE, 0, 0,
                           "link: names %s and %s; one of net=, cmp= and lesson= only",
                           seen[F_NET] ? "net=" : "cmp=", seen[F_LESSON] ? "lesson=" : "cmp=");
    if (seen[F_LESSON] && seen[F_IN])
        return sn_diag_set(d, SN_EPARSE, 0, 0,
                           "link: in= goes without lesson= (its steps set "
                           "their own inputs)");
    if (seen[F_LS] && !seen[F_LESSON])
        return sn_diag_set(d, SN_EPARSE, 0, 0, "link: ls= (a lesson's step) needs lesson=");
    if (seen[F_EX] && !seen[F_LESSON])
        return sn_diag_set(d, SN_EPARSE, 0, 0,
                           "link: ex= (answers to a lesson's exercises) needs lesson=");
    return SN_OK;
}

sn_status sn_link_decode(const char *text, size_t len, sn_link *out, sn_diag *d)
{
    sn_link_init(out);
    if (!text || len == 0)
        return sn_diag_set(d, SN_EPARSE, 0, 0, "link: empty");
    if (len > SN_LINK_MAX)
        return sn_diag_set(d, SN_EPARSE, 0, 0, "link: %zu bytes; at most %zu", len, SN_LINK_MAX);
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (!value_byte(c) && c != '&' && c != '=') {
            unsigned char u = (unsigned char)c;
            if (u >= 0x20 && u < 0x7f)
                return sn_diag_set(d, SN_EPARSE, 0, 0,
                                   "link: byte %zu: '%c' is not a byte a link holds%s", i + 1, c,
                                   c == '%' ? " (escape it out first)" : "");
            return sn_diag_set(d, SN_EPARSE, 0, 0,
                               "link: byte %zu: 0x%02x is not a byte a link holds", i + 1, u);
        }
    }
    size_t v = 0;
    while (v < len && text[v] != '&')
        v++;
    size_t version;
    if (v < 2 || text[0] != 'v' || !read_count(text + 1, v - 1, 1000000, &version))
        return sn_diag_set(d, SN_EPARSE, 0, 0, "link: does not start with its version (v%d&...)",
                           SN_LINK_VERSION);
    if (version != SN_LINK_VERSION)
        return sn_diag_set(d, SN_EPARSE, 0, 0,
                           "link: version %zu; this sortnet reads version %d links", version,
                           SN_LINK_VERSION);
    bool seen[F_COUNT] = {false};
    bool ended = false;
    sn_status st = SN_OK;
    size_t i = v;
    while (st == SN_OK && i < len) {
        size_t at = ++i; /* past the '&' */
        while (i < len && text[i] != '&')
            i++;
        const char *f = text + at;
        size_t fn = i - at;
        if (ended) {
            st = sn_diag_set(d, SN_EPARSE, 0, 0, "link: byte %zu: a field after 'end'", at + 1);
            break;
        }
        if (fn == 3 && memcmp(f, "end", 3) == 0) {
            ended = true;
            continue;
        }
        const char *eq = memchr(f, '=', fn);
        size_t kn = eq ? (size_t)(eq - f) : fn;
        int k = 0;
        while (k < F_COUNT && (strlen(field_key[k]) != kn || memcmp(field_key[k], f, kn) != 0))
            k++;
        if (k == F_COUNT || !eq) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)(kn < 24 ? kn : 24), f);
            st = sn_diag_set(d, SN_EPARSE, 0, 0,
                             k == F_COUNT ? "link: byte %zu: '%s' is not a field (net, cmp, in, "
                                            "step, lesson, ls, ex, end)"
                                          : "link: byte %zu: '%s' has no value (%s=...)",
                             at + 1, name, name);
            break;
        }
        if (seen[k]) {
            st = sn_diag_set(d, SN_EPARSE, 0, 0, "link: byte %zu: %s= twice", at + 1, field_key[k]);
            break;
        }
        seen[k] = true;
        const char *val = eq + 1;
        size_t vn = fn - kn - 1;
        if (vn == 0 || memchr(val, '=', vn)) {
            st = sn_diag_set(d, SN_EPARSE, 0, 0, "link: byte %zu: %s= %s", at + 1, field_key[k],
                             vn ? "holds a second '='" : "is empty");
            break;
        }
        switch (k) {
        case F_NET:
        case F_IN:
        case F_LESSON: {
            char *s = dup_n(val, vn);
            if (!s) {
                st = sn_diag_set(d, SN_ENOMEM, 0, 0, "link: out of memory");
                break;
            }
            *(k == F_NET ? &out->net : k == F_IN ? &out->input : &out->lesson) = s;
            if (k == F_NET && (!strchr(s, ':') || strchr(s, '/')))
                st = sn_diag_set(d, SN_EPARSE, 0, 0,
                                 "link: byte %zu: net=%.40s is not a network's name (bitonic:8, "
                                 "best:12; an edited network is cmp=)",
                                 at + 1, s);
            if (k == F_IN && !input_ok(s))
                st = sn_diag_set(d, SN_EPARSE, 0, 0,
                                 "link: byte %zu: in=%.40s is not an input (random:SEED, reverse, "
                                 "sorted, bits:0110, list:3,1,2)",
                                 at + 1, s);
            break;
        }
        case F_CMP: st = compact_read(val, vn, (size_t)(val - text), &out->cmp, d); break;
        case F_EX: st = answers_read(val, vn, (size_t)(val - text), out, d); break;
        case F_STEP:
        case F_LS:
            if (!read_count(val, vn, (size_t)1 << 30, k == F_STEP ? &out->step : &out->lesson_step))
                st = sn_diag_set(d, SN_EPARSE, 0, 0,
                                 "link: byte %zu: %s=%.*s is not a count (0, 1, 2, ...)", at + 1,
                                 field_key[k], (int)(vn < 24 ? vn : 24), val);
            break;
        default: break;
        }
    }
    if (st == SN_OK && !ended)
        st = sn_diag_set(d, SN_EPARSE, 0, 0,
                         "link: truncated (it ends without '&end'; copy the whole address)");
    if (st == SN_OK)
        st = check_fields(seen, d);
    if (st != SN_OK)
        sn_link_clear(out);
    return st;
}

/* ---- encoding */

static bool text_ok(const char *s)
{
    if (!s || !*s)
        return false;
    for (; *s; s++)
        if (!value_byte(*s))
            return false;
    return true;
}

sn_status sn_link_encode(const sn_link *l, sn_textbuf *b, sn_diag *d)
{
    if ((l->net != NULL) + (l->cmp != NULL) + (l->lesson != NULL) != 1)
        return sn_diag_set(d, SN_EINVAL, 0, 0, "link: one of a name, a network and a lesson");
    const char *bad = l->net && !text_ok(l->net)         ? l->net
                      : l->lesson && !text_ok(l->lesson) ? l->lesson
                      : l->input && !input_ok(l->input)  ? l->input
                                                         : NULL;
    if (bad)
        return sn_diag_set(d, SN_EINVAL, 0, 0, "link: '%.60s' cannot be written in a link", bad);
    if (l->answer_count && !l->lesson)
        return sn_diag_set(d, SN_EINVAL, 0, 0, "link: answers without a lesson");
    for (size_t i = 0; i < l->answer_count; i++)
        if (!l->answers[i].text[0] || (i && l->answers[i].step <= l->answers[i - 1].step))
            return sn_diag_set(d, SN_EINVAL, 0, 0,
                               "link: answers out of order, twice to a step, or empty");
    sn_textbuf_printf(b, "v%d", SN_LINK_VERSION);
    if (l->net)
        sn_textbuf_printf(b, "&net=%s", l->net);
    if (l->cmp) {
        sn_textbuf_str(b, "&cmp=");
        sn_link_compact(l->cmp, b);
    }
    if (l->lesson)
        sn_textbuf_printf(b, "&lesson=%s&ls=%zu", l->lesson, l->lesson_step);
    if (l->input)
        sn_textbuf_printf(b, "&in=%s", l->input);
    if (l->step || l->lesson)
        sn_textbuf_printf(b, "&step=%zu", l->step);
    for (size_t i = 0; i < l->answer_count; i++) {
        sn_textbuf_printf(b, "%s%zu:", i ? "/" : "&ex=", l->answers[i].step);
        sn_link_answer_escape(l->answers[i].text, b);
    }
    sn_textbuf_str(b, "&end");
    return SN_OK;
}

/* Is name one a link can carry as net= (a generator's or the library's
 * name, not a file's or a paste's)? */
static bool name_like(const char *name)
{
    return strchr(name, ':') != NULL && !strchr(name, '/') && text_ok(name);
}

/* The lesson's name as a link says it: a shipped lesson's name (the same
 * whether it was opened by name or from assets/lessons/; opening a link
 * looks for a shipped lesson first), else the file's name without its
 * folders. Into buf. */
static const char *lesson_name(const sn_lesson *l, char *buf, size_t cap)
{
    const char *slash = strrchr(l->file, '/');
    const char *base = slash ? slash + 1 : l->file;
    size_t len = strlen(base);
    if (len > 7 && strcmp(base + len - 7, ".lesson") == 0)
        len -= 7;
    const sn_lesson_source *src = sn_lesson_shipped(base);
    if (src && strlen(src->name) == len && strncmp(src->name, base, len) == 0)
        base = src->name;
    /* a file's name is at most NAME_MAX (255) bytes and buf holds 256: the
     * clamp never cuts (gcc -O1 cannot see that through snprintf) */
    size_t n = strlen(base);
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, base, n);
    buf[n] = '\0';
    return buf;
}

sn_status sn_link_of_session(const sn_session *s, sn_link *out, sn_diag *d)
{
    sn_link_init(out);
    if (!s->open)
        return sn_diag_set(d, SN_EINVAL, 0, 0, "link: nothing is shown");
    const sn_view *v = &s->group.view[0];
    out->step = s->group.count > 1 ? s->group.step : v->step;
    sn_status st = SN_OK;
    if (s->lesson) {
        char name[256];
        lesson_name(s->lesson, name, sizeof name);
        out->lesson = dup_n(name, strlen(name));
        out->lesson_step = s->lesson_step;
        st = out->lesson ? SN_OK : SN_ENOMEM;
        if (st == SN_OK)
            st = sn_session_exercise_answers(s, &out->answers, &out->answer_count);
    } else {
        bool edited = v->hist_count > 0 && v->hist_pos > 0;
        if (!edited && !v->file && name_like(v->name) && !v->picture) {
            out->net = dup_n(v->name, strlen(v->name));
            st = out->net ? SN_OK : SN_ENOMEM;
        } else if (v->picture) {
            st = sn_diag_set(d, SN_EINVAL, 0, 0, "link: %s cannot be written in a link", v->name);
        } else {
            const sn_network *net =
                v->hist_count ? v->hist[v->hist_pos] : sn_schedule_network(v->sched);
            out->cmp = net ? sn_network_clone(net) : NULL;
            st = out->cmp ? SN_OK : net ? SN_ENOMEM : SN_EINVAL;
            if (!net)
                sn_diag_set(d, st, 0, 0, "link: %s has no comparators to write", v->name);
        }
        if (st == SN_OK) {
            sn_textbuf b = SN_TEXTBUF_INIT;
            sn_link_input_spec(v, &b);
            if (b.failed || !b.s) {
                sn_textbuf_free(&b);
                st = SN_ENOMEM;
            } else {
                out->input = b.s; /* a textbuf's text is sn_malloc'ed */
            }
        }
    }
    if (st == SN_ENOMEM)
        sn_diag_set(d, st, 0, 0, "link: out of memory");
    if (st != SN_OK)
        sn_link_clear(out);
    return st;
}

/* ---- opening */

static sn_status open_lesson(sn_session *s, const sn_link *l, sn_lesson *lesson, sn_diag *d)
{
    sn_status st = SN_OK;
    if (!lesson) {
        const sn_lesson_source *src = sn_lesson_shipped(l->lesson);
        st = src ? sn_lesson_parse(src->text, src->name, &lesson, d)
                 : sn_lesson_load(l->lesson, &lesson, d);
        if (st == SN_OK)
            st = sn_lesson_check(lesson, d);
        if (st != SN_OK) {
            sn_lesson_free(lesson);
            return st;
        }
    }
    if (l->lesson_step >= lesson->count) {
        sn_diag_set(d, SN_EPARSE, 0, 0, "link: ls=%zu, and the lesson %s has steps 0 to %zu",
                    l->lesson_step, l->lesson, lesson->count - 1);
        sn_lesson_free(lesson);
        return SN_EPARSE;
    }
    /* every answer is checked before anything is shown */
    st = sn_exercise_answers_check(lesson, l->answers, l->answer_count, d);
    if (st != SN_OK) {
        sn_lesson_free(lesson);
        return st;
    }
    st = sn_session_lesson_open(s, lesson, d); /* takes lesson */
    if (st == SN_OK && l->answer_count)
        st = sn_session_exercise_restore(s, l->answers, l->answer_count, d);
    if (st == SN_OK && (l->lesson_step || l->answer_count))
        st = sn_session_lesson_go(s, l->lesson_step, d); /* shows the step's answer graded */
    return st;
}

/* "link: " before a message that lacks it (the core's and the lesson's). */
static sn_status link_prefix(sn_diag *d, sn_status st)
{
    if (strncmp(d->text, "link:", 5) != 0) {
        char why[sizeof d->text];
        snprintf(why, sizeof why, "%s", sn_diag_text(d, st));
        sn_diag_set(d, st, d->line, d->column, "link: %s", why);
    }
    return st;
}

sn_status sn_session_link_open(sn_session *s, const sn_link *l, sn_lesson *lesson, sn_diag *d)
{
    if (l->lesson) {
        sn_status st = open_lesson(s, l, lesson, d);
        if (st != SN_OK)
            return link_prefix(d, st);
        sn_group_step_to(&s->group, l->step);
        return SN_OK;
    }
    sn_lesson_free(lesson);
    sn_view_input in;
    sn_status st = sn_link_input(l, &in, d);
    if (st != SN_OK)
        return st;
    sn_group g;
    memset(&g, 0, sizeof g);
    if (l->net) {
        const char *spec = l->net;
        st = sn_group_init(&g, &spec, 1, &in, d);
    } else if (l->cmp) {
        sn_network *net = sn_network_clone(l->cmp);
        sn_schedule *sched = NULL;
        st = net ? sn_network_set_name(net, "link") : SN_ENOMEM;
        if (st == SN_OK)
            st = sn_schedule_from_network(net, &sched); /* consumes net */
        else
            sn_network_destroy(net);
        if (st == SN_OK) {
            st = sn_view_init_schedule(&g.view[0], sched, "link", NULL, &in, d);
            if (st == SN_OK)
                g.count = 1;
            else
                sn_view_cleanup(&g.view[0]);
        } else {
            sn_diag_set(d, st, 0, 0, "link: out of memory");
        }
    } else {
        return sn_diag_set(d, SN_EINVAL, 0, 0, "link: names no network");
    }
    if (st == SN_OK && l->step > g.view[0].layers) {
        st = sn_diag_set(d, SN_EPARSE, 0, 0, "link: step=%zu, and %s has %zu layers", l->step,
                         g.view[0].name, g.view[0].layers);
        sn_group_cleanup(&g);
    }
    if (st != SN_OK)
        return link_prefix(d, st);
    st = sn_session_show(s, &g, false, d);
    if (st == SN_OK)
        sn_group_step_to(&s->group, l->step);
    return st;
}
