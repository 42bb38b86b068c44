/* input.c - inputs of the command line as raw 32-bit keys: value lists,
 * random permutations, reversed and sorted order, 0-1 strings; and the
 * text form of one key, so that what is printed parses back to the same
 * bits (floats: the shortest text that round-trips, NaNs keep their sign). */
#include "core/input.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h" // for: sn_text_bom
#include "core/parallel.h"

const char *sn_input_describe(const sn_input_spec *spec, char *buf, size_t cap)
{
    const char *bits = spec->text ? spec->text : "";
    switch (spec->kind) {
    case SN_INPUT_RANDOM:
        snprintf(buf, cap, "random (seed %llu)", (unsigned long long)spec->seed);
        break;
    case SN_INPUT_LIST: snprintf(buf, cap, "given"); break;
    case SN_INPUT_REVERSE: snprintf(buf, cap, "reversed"); break;
    case SN_INPUT_SORTED: snprintf(buf, cap, "sorted"); break;
    case SN_INPUT_KEYS: snprintf(buf, cap, "from %s", bits[0] ? bits : "a key file"); break;
    case SN_INPUT_BITS:
        if (strlen(bits) <= 24)
            snprintf(buf, cap, "0-1 (%s)", bits);
        else
            snprintf(buf, cap, "0-1 (%.20s...)", bits);
        break;
    }
    return buf;
}

uint64_t sn_rand_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint32_t float_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

/* The key of type t with the small natural value v (1..n, 0/1). */
static uint32_t key_of(sn_key_type t, uint32_t v)
{
    return t == SN_KEY_F32 ? float_bits((float)v) : v;
}

/* ---- one key */

typedef enum why { WHY_OK, WHY_EMPTY, WHY_NOT_NUMBER, WHY_RANGE, WHY_NOMEM } why;

static bool all_digits(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

/* Equal ignoring ASCII case. */
static bool same_word(const char *s, const char *word)
{
    for (; *s && *word; s++, word++) {
        char c = (*s >= 'A' && *s <= 'Z') ? (char)(*s - 'A' + 'a') : *s;
        if (c != *word)
            return false;
    }
    return !*s && !*word;
}

/* A token too long for the stack buffer (an f32 literal with many digits
 * is still a fine number) is copied to the heap. */
#define KEY_BUF 64

static why parse_key_z(sn_key_type t, const char *buf, uint32_t *out);

static why parse_key(sn_key_type t, const char *s, size_t len, uint32_t *out)
{
    char small[KEY_BUF];
    if (len == 0)
        return WHY_EMPTY;
    if (memchr(s, '\0', len)) /* an embedded NUL is no number */
        return WHY_NOT_NUMBER;
    char *buf = small;
    if (len >= sizeof small && !(buf = sn_malloc(len + 1)))
        return WHY_NOMEM;
    memcpy(buf, s, len);
    buf[len] = '\0';
    why w = parse_key_z(t, buf, out);
    if (buf != small)
        sn_free(buf);
    return w;
}

/* parse_key on a NUL-terminated copy. */
static why parse_key_z(sn_key_type t, const char *buf, uint32_t *out)
{
    const char *body = buf + (buf[0] == '-' || buf[0] == '+');
    if (t == SN_KEY_I32 || t == SN_KEY_U32) {
        /* Digits only: strtoll would also take blanks, hex and "-" for u32. */
        if (!all_digits(body))
            return WHY_NOT_NUMBER;
        if (t == SN_KEY_U32 && buf[0] == '-') {
            unsigned long long z = strtoull(body, NULL, 10);
            if (z != 0)
                return WHY_RANGE; /* "-0" is 0, any other negative is out */
            *out = 0;
            return WHY_OK;
        }
        errno = 0;
        if (t == SN_KEY_I32) {
            long long v = strtoll(buf, NULL, 10);
            if (errno == ERANGE || v < INT32_MIN || v > INT32_MAX)
                return WHY_RANGE;
            *out = (uint32_t)(int32_t)v;
        } else {
            unsigned long long v = strtoull(body, NULL, 10);
            if (errno == ERANGE || v > UINT32_MAX)
                return WHY_RANGE;
            *out = (uint32_t)v;
        }
        return WHY_OK;
    }
    /* f32: the special values by name, with their sign (strtof's "-nan" sign
     * is not promised by C), then anything strtof reads whole. */
    bool neg = buf[0] == '-';
    if (same_word(body, "nan")) {
        *out = neg ? 0xFFC00000u : 0x7FC00000u;
        return WHY_OK;
    }
    if (same_word(body, "inf") || same_word(body, "infinity")) {
        *out = neg ? 0xFF800000u : 0x7F800000u;
        return WHY_OK;
    }
    if (!((body[0] >= '0' && body[0] <= '9') || body[0] == '.'))
        return WHY_NOT_NUMBER; /* no blanks, no "nan(...)" spellings */
    char *end;
    errno = 0;
    float f = strtof(buf, &end);
    if (end == buf || *end != '\0')
        return WHY_NOT_NUMBER;
    if (errno == ERANGE && isinf(f))
        return WHY_RANGE; /* underflow to a subnormal or zero is fine */
    *out = float_bits(f);
    return WHY_OK;
}

sn_status sn_key_parse(sn_key_type t, const char *s, size_t len, uint32_t *out)
{
    if (!s || !out)
        return SN_EINVAL;
    why w = parse_key(t, s, len, out);
    return w == WHY_OK ? SN_OK : w == WHY_NOMEM ? SN_ENOMEM : SN_EPARSE;
}

int sn_key_format(sn_key_type t, uint32_t bits, char *buf, size_t cap)
{
    if (!buf || cap == 0)
        return -1;
    if (t == SN_KEY_I32)
        return snprintf(buf, cap, "%d", (int)(int32_t)bits);
    if (t == SN_KEY_U32)
        return snprintf(buf, cap, "%u", bits);
    float f;
    memcpy(&f, &bits, sizeof f);
    const char *sign = (bits & 0x80000000u) ? "-" : "";
    if (isnan(f))
        return snprintf(buf, cap, "%snan", sign);
    if (isinf(f))
        return snprintf(buf, cap, "%sinf", sign);
    if (f == 0.0f)
        return snprintf(buf, cap, "%s0", sign);
    /* The shortest %g precision that reads back to the same float; 9
     * significant digits always do. */
    char tmp[48];
    for (int p = 1; p <= 9; p++) {
        snprintf(tmp, sizeof tmp, "%.*g", p, (double)f);
        if (strtof(tmp, NULL) == f)
            break;
    }
    return snprintf(buf, cap, "%s", tmp);
}

/* ---- whole inputs */

static const char *type_text(sn_key_type t)
{
    return t == SN_KEY_F32 ? "f32" : t == SN_KEY_U32 ? "u32" : "i32";
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* ---- value lists: --input "5 1 4 2" and key files
 *
 * One rule everywhere: values are separated by commas and/or whitespace
 * (at most one comma between two values); key files also take '#'
 * comments to the end of a line. A list is read twice by the same scanner:
 * once for its shape and count (so that a wrong count, the likelier
 * mistake, is named before a bad value), once for the values. */

typedef struct scan {
    const char *s;
    size_t len, pos;
    unsigned long line, col; /* of s[pos], from 1 */
    const char *name;        /* a key file's name: messages "name:line:col: "; NULL: --input */
    bool comments;           /* '#' starts a comment (key files) */
} scan;

static void scan_init(scan *c, const char *s, size_t len, const char *name, bool comments)
{
    c->s = s;
    c->len = len;
    c->pos = 0;
    c->line = c->col = 1;
    c->name = name;
    c->comments = comments;
}

static void scan_next(scan *c)
{
    if (c->s[c->pos] == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->pos++;
}

static bool scan_ends_token(const scan *c, char ch)
{
    return is_blank(ch) || ch == ',' || (c->comments && ch == '#');
}

/* Skip blanks and comments. */
static void scan_skip(scan *c)
{
    while (c->pos < c->len) {
        char ch = c->s[c->pos];
        if (c->comments && ch == '#') {
            while (c->pos < c->len && c->s[c->pos] != '\n')
                scan_next(c);
        } else if (is_blank(ch)) {
            scan_next(c);
        } else {
            break;
        }
    }
}

/* A token for a message: at most 24 bytes, other bytes than printable
 * ASCII as \xNN, "..." when cut. */
static const char *shown(const char *s, size_t len, char *buf, size_t cap)
{
    size_t k = 0, i = 0;
    for (; i < len && i < 24 && k + 5 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch >= 0x20 && ch < 0x7f)
            buf[k++] = (char)ch;
        else
            k += (size_t)snprintf(buf + k, cap - k, "\\x%02x", ch);
    }
    if (i < len && k + 4 < cap) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
    return buf;
}

/* The diagnostic of a list: "name:L:C: msg" for a key file, "column C:
 * msg" (or "line L, column C: msg") for --input. */
static sn_status scan_fail(const scan *c, sn_diag *d, sn_status st, unsigned long line,
                           unsigned long col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

static sn_status scan_fail(const scan *c, sn_diag *d, sn_status st, unsigned long line,
                           unsigned long col, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->name)
        return sn_diag_set(d, st, line, col, "%s:%lu:%lu: %s", c->name, line, col, msg);
    if (line > 1)
        return sn_diag_set(d, st, line, col, "line %lu, column %lu: %s", line, col, msg);
    return sn_diag_set(d, st, line, col, "column %lu: %s", col, msg);
}

/* Walk the list: with keys == NULL check its shape and count the values
 * into *count; else parse the values into keys[0..*count). */
static sn_status scan_list(scan *c, sn_key_type t, uint32_t *keys, size_t *count, sn_diag *d)
{
    enum { AT_START, AFTER_VALUE, AFTER_COMMA } state = AT_START;
    unsigned long comma_line = 0, comma_col = 0;
    size_t last_at = 0, last_len = 0, found = 0;
    char show[128];
    for (;;) {
        scan_skip(c);
        if (c->pos >= c->len)
            break;
        char ch = c->s[c->pos];
        if (ch == ',') {
            if (state == AT_START)
                return scan_fail(c, d, SN_EPARSE, c->line, c->col,
                                 "expected a value before the comma");
            if (state == AFTER_COMMA)
                return scan_fail(c, d, SN_EPARSE, c->line, c->col,
                                 "expected a value between two commas");
            state = AFTER_COMMA;
            comma_line = c->line;
            comma_col = c->col;
            scan_next(c);
            continue;
        }
        size_t at = c->pos;
        unsigned long line = c->line, col = c->col;
        while (c->pos < c->len && !scan_ends_token(c, c->s[c->pos]))
            scan_next(c);
        size_t len = c->pos - at;
        const char *tok = c->s + at;
        /* a separator that is not one (1;2;3, 1|2) is named where it stands,
         * before the count of values is: "got 1 value" would hide it */
        for (size_t i = 0; i < len; i++) {
            if (strchr(";:|/\\", tok[i]) && tok[i] != '\0')
                return scan_fail(c, d, SN_EPARSE, line, col + (unsigned long)i,
                                 "'%c' cannot be in a value (separate values with commas or "
                                 "spaces: 3,1,2 or 3 1 2)",
                                 tok[i]);
        }
        if (keys) {
            switch (parse_key(t, tok, len, &keys[found])) {
            case WHY_OK: break;
            case WHY_NOMEM:
                return scan_fail(c, d, SN_ENOMEM, line, col, "out of memory for a %zu-byte value",
                                 len);
            case WHY_EMPTY: /* tokens are never empty */
            case WHY_NOT_NUMBER:
                return scan_fail(c, d, SN_EPARSE, line, col, "'%s' is not a number",
                                 shown(tok, len, show, sizeof show));
            case WHY_RANGE:
                return scan_fail(c, d, SN_EPARSE, line, col, "%s is out of range for %s",
                                 shown(tok, len, show, sizeof show), type_text(t));
            }
        }
        found++;
        last_at = at;
        last_len = len;
        state = AFTER_VALUE;
    }
    if (state == AFTER_COMMA)
        return scan_fail(c, d, SN_EPARSE, comma_line, comma_col, "trailing comma after %s",
                         shown(c->s + last_at, last_len, show, sizeof show));
    *count = found;
    return SN_OK;
}

sn_status sn_input_list_count(const char *text, size_t *count, sn_diag *diag)
{
    if (!text || !count)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_input_list_count: missing argument");
    scan c;
    scan_init(&c, text, strlen(text), NULL, false);
    return scan_list(&c, SN_KEY_I32, NULL, count, diag);
}

static sn_status make_list(const char *text, sn_key_type t, uint32_t n, uint32_t *keys,
                           sn_diag *diag)
{
    scan c;
    size_t count = 0;
    scan_init(&c, text, strlen(text), NULL, false);
    sn_status st = scan_list(&c, t, NULL, &count, diag);
    if (st != SN_OK)
        return st;
    if (count != n)
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "expected %u value%s, got %zu", n,
                           n == 1 ? "" : "s", count);
    scan_init(&c, text, strlen(text), NULL, false);
    return scan_list(&c, t, keys, &count, diag);
}

/* Whether the first bytes are all digits, signs, blanks, commas, '#' and
 * letters: a text key file given with --binary, most likely. */
static bool looks_like_text(const char *buf, size_t len)
{
    size_t k = len < 4096 ? len : 4096;
    for (size_t i = 0; i < k; i++) {
        unsigned char ch = (unsigned char)buf[i];
        if (!(ch >= 0x20 && ch < 0x7f) && !is_blank((char)ch))
            return false;
    }
    return k > 0;
}

sn_status sn_keys_parse(const char *name, const char *buf, size_t len, sn_key_type t, bool binary,
                        uint32_t **keys, size_t *count, sn_diag *diag)
{
    if (!keys || !count || (!buf && len > 0))
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_keys_parse: missing argument");
    *keys = NULL;
    *count = 0;
    const char *what = name ? name : "keys";
    size_t found = 0, bytes;
    if (binary) {
        if (len % 4 != 0)
            return sn_diag_set(
                diag, SN_EPARSE, 0, 0,
                "%s: %zu bytes is not a whole number of 4-byte %s keys (%zu "
                "byte%s left over at byte offset %zu)%s",
                what, len, type_text(t), len % 4, len % 4 == 1 ? "" : "s", len - len % 4,
                looks_like_text(buf, len) ? "; it looks like text: drop --binary" : "");
        found = len / 4;
    } else {
        scan c;
        size_t bom = sn_text_bom(buf, len); /* text only: binary's first bytes are a key */
        scan_init(&c, buf ? buf + bom : "", len - bom, what, true);
        sn_status st = scan_list(&c, t, NULL, &found, diag);
        if (st != SN_OK)
            return st;
    }
    if (!sn_mul_size(found ? found : 1, sizeof **keys, &bytes) || !(*keys = sn_malloc(bytes)))
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory for %zu keys", what, found);
    if (binary) {
        const unsigned char *b = (const unsigned char *)buf;
        for (size_t i = 0; i < found; i++, b += 4)
            (*keys)[i] =
                (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    } else {
        scan c;
        size_t bom = sn_text_bom(buf, len);
        scan_init(&c, buf ? buf + bom : "", len - bom, what, true);
        sn_status st = scan_list(&c, t, *keys, &found, diag);
        if (st != SN_OK) {
            sn_free(*keys);
            *keys = NULL;
            return st;
        }
    }
    *count = found;
    return SN_OK;
}

static sn_status make_bits(const char *text, sn_key_type t, uint32_t n, uint32_t *keys,
                           sn_diag *diag)
{
    size_t len = strlen(text);
    if (len != n)
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "expected %u bits, got %zu", n, len);
    for (uint32_t i = 0; i < n; i++) {
        if (text[i] != '0' && text[i] != '1') {
            unsigned char c = (unsigned char)text[i];
            if (c >= 0x20 && c < 0x7f)
                return sn_diag_set(diag, SN_EPARSE, 1, i + 1ul, "column %lu: '%c' is not 0 or 1",
                                   i + 1ul, c);
            return sn_diag_set(diag, SN_EPARSE, 1, i + 1ul, "column %lu: byte 0x%02x is not 0 or 1",
                               i + 1ul, c);
        }
        keys[i] = key_of(t, (uint32_t)(text[i] - '0'));
    }
    return SN_OK;
}

/* Fisher-Yates from i = n down; the index comes from the top 32 bits by a
 * multiply-shift (n < 2^32, so the bias is negligible and the result is
 * the same on every platform). Each step touches a random place of the
 * array, a cache miss once n is large (a billion keys took over 30 s), so
 * the indices are drawn AHEAD steps early and their places prefetched:
 * the same draws in the same order, so the same permutation. */
#define AHEAD 64u
static void shuffle(uint32_t *keys, uint32_t n, uint64_t seed)
{
    uint64_t state = seed;
    uint32_t ring[AHEAD];
    uint32_t drawn = n; /* the next i to draw an index for */
    for (uint32_t d = 0; d < AHEAD && drawn > 1; d++, drawn--) {
        ring[drawn % AHEAD] = (uint32_t)(((sn_rand_next(&state) >> 32) * drawn) >> 32);
        __builtin_prefetch(&keys[ring[drawn % AHEAD]], 1);
    }
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = ring[i % AHEAD];
        if (drawn > 1) {
            ring[drawn % AHEAD] = (uint32_t)(((sn_rand_next(&state) >> 32) * drawn) >> 32);
            __builtin_prefetch(&keys[ring[drawn % AHEAD]], 1);
            drawn--;
        }
        uint32_t tmp = keys[i - 1];
        keys[i - 1] = keys[j];
        keys[j] = tmp;
    }
}

/* ---- the parallel regime: Sanders' scatter shuffle
 *
 * Above SN_INPUT_SERIAL_MAX keys the sequential Fisher-Yates is bound by a
 * cache miss per key (15 s for a billion), so the permutation is made as
 * P. Sanders, "Random permutations on distributed, external and
 * hierarchical memory" (IPL 1998): every value draws one of 2^bb buckets
 * uniformly; the buckets are laid out one after the other in bucket order
 * (values in increasing order inside each); then each bucket is shuffled
 * by Fisher-Yates. Which values land in a bucket is a uniform random
 * subset of its size, and its order a uniform permutation, so the whole is
 * a uniform random permutation. The draws come from fixed pieces of work
 * with their own splitmix streams, derived from (seed, piece): the values
 * in chunks of 2^cb (one stream per chunk, a counting pass and a scatter
 * pass that replays the same draws) and the buckets (one stream each).
 * Threads only pick pieces, so the result depends on (seed, n) alone. */

/* A stream's starting state from (seed, kind of piece, piece). */
static uint64_t stream_of(uint64_t seed, uint64_t kind, uint64_t piece)
{
    uint64_t st = seed ^ (kind * 0xD1B54A32D192ED03ull);
    uint64_t a = sn_rand_next(&st);
    st = a ^ (piece * 0x9E3779B97F4A7C15ull);
    return sn_rand_next(&st);
}

typedef struct scatter {
    uint32_t *keys;
    uint32_t n;
    sn_key_type t;
    uint64_t seed;
    unsigned bb, cb;  /* log2 of the bucket count and of the chunk size */
    size_t chunks;    /* ceil(n / 2^cb) */
    uint32_t *counts; /* chunks x 2^bb: counts, then each chunk's write places */
    uint32_t *bstart; /* 2^bb + 1: where each bucket starts */
} scatter;

static inline uint32_t bucket_draw(uint64_t *st, unsigned bb)
{
    uint64_t r = sn_rand_next(st);
    return bb ? (uint32_t)(r >> (64 - bb)) : 0;
}

static void scatter_count(void *ctx, size_t c)
{
    const scatter *sc = ctx;
    uint32_t *cnt = sc->counts + (c << sc->bb);
    uint64_t lo = (uint64_t)c << sc->cb, hi = lo + ((uint64_t)1 << sc->cb);
    if (hi > sc->n)
        hi = sc->n;
    uint64_t st = stream_of(sc->seed, 1, c);
    for (uint64_t i = lo; i < hi; i++)
        cnt[bucket_draw(&st, sc->bb)]++;
}

static void scatter_place(void *ctx, size_t c)
{
    const scatter *sc = ctx;
    uint32_t *at = sc->counts + (c << sc->bb);
    uint64_t lo = (uint64_t)c << sc->cb, hi = lo + ((uint64_t)1 << sc->cb);
    if (hi > sc->n)
        hi = sc->n;
    uint64_t st = stream_of(sc->seed, 1, c);
    for (uint64_t i = lo; i < hi; i++)
        sc->keys[at[bucket_draw(&st, sc->bb)]++] = key_of(sc->t, (uint32_t)(i + 1));
}

/* Fisher-Yates inside one bucket, the index by multiply-shift as above. */
static void scatter_bucket(void *ctx, size_t b)
{
    const scatter *sc = ctx;
    uint32_t *a = sc->keys + sc->bstart[b];
    uint32_t len = sc->bstart[b + 1] - sc->bstart[b];
    uint64_t st = stream_of(sc->seed, 2, b);
    for (uint32_t i = len; i > 1; i--) {
        uint32_t j = (uint32_t)(((sn_rand_next(&st) >> 32) * i) >> 32);
        uint32_t tmp = a[i - 1];
        a[i - 1] = a[j];
        a[j] = tmp;
    }
}

/* Turn the per-chunk counts into write places: bucket b of chunk c starts
 * after all of buckets < b and after bucket b of the chunks < c. Row by
 * row (chunk-major, as the table lies in memory), with bstart as the
 * running place of each bucket. */
static void scatter_offsets(scatter *sc)
{
    size_t nb = (size_t)1 << sc->bb;
    memset(sc->bstart, 0, (nb + 1) * sizeof *sc->bstart);
    for (size_t c = 0; c < sc->chunks; c++)
        for (size_t b = 0; b < nb; b++)
            sc->bstart[b + 1] += sc->counts[(c << sc->bb) + b];
    for (size_t b = 0; b < nb; b++)
        sc->bstart[b + 1] += sc->bstart[b]; /* now where bucket b starts */
    for (size_t c = 0; c < sc->chunks; c++) {
        uint32_t *row = sc->counts + (c << sc->bb);
        for (size_t b = 0; b < nb; b++) {
            uint32_t k = row[b];
            row[b] = sc->bstart[b];
            sc->bstart[b] += k;
        }
    }
    /* bstart[b] is now the end of bucket b, the start of b + 1 */
    memmove(sc->bstart + 1, sc->bstart, nb * sizeof *sc->bstart);
    sc->bstart[0] = 0;
}

sn_status sn_input_random_scatter(uint32_t *keys, uint32_t n, sn_key_type t, uint64_t seed,
                                  unsigned threads, unsigned bucket_bits, unsigned chunk_bits)
{
    if (bucket_bits > 24 || chunk_bits < 4 || chunk_bits > 32)
        return SN_EINVAL;
    scatter sc = {.keys = keys, .n = n, .t = t, .seed = seed, .bb = bucket_bits, .cb = chunk_bits};
    sc.chunks = (size_t)(((uint64_t)n + ((uint64_t)1 << chunk_bits) - 1) >> chunk_bits);
    size_t cells;
    if (!sn_mul_size(sc.chunks, (size_t)1 << bucket_bits, &cells))
        return SN_ENOMEM;
    sc.counts = sn_calloc(cells + 1, sizeof *sc.counts);
    sc.bstart = sn_calloc(((size_t)1 << bucket_bits) + 1, sizeof *sc.bstart);
    if (!sc.counts || !sc.bstart) {
        sn_free(sc.counts);
        sn_free(sc.bstart);
        return SN_ENOMEM;
    }
    sn_parallel_for(sc.chunks, threads, scatter_count, &sc);
    scatter_offsets(&sc);
    sn_parallel_for(sc.chunks, threads, scatter_place, &sc);
    sn_parallel_for((size_t)1 << bucket_bits, threads, scatter_bucket, &sc);
    sn_free(sc.counts);
    sn_free(sc.bstart);
    return SN_OK;
}

/* The parallel regime's geometry for n keys: buckets of about 2^18 keys
 * (1 MiB: Fisher-Yates inside one stays in a core's cache), chunks of
 * 2^20 values or more, at most 2^10 of them (the count table stays small). */
static void scatter_geometry(uint32_t n, unsigned *bucket_bits, unsigned *chunk_bits)
{
    unsigned lg = 0;
    while (lg < 32 && ((uint64_t)1 << lg) < n)
        lg++;
    *bucket_bits = lg > 18 ? lg - 18 : 0;
    *chunk_bits = lg > 30 ? lg - 10 : 20;
}

sn_status sn_input_random(uint32_t *keys, uint32_t n, sn_key_type t, uint64_t seed,
                          unsigned threads)
{
    if (n <= SN_INPUT_SERIAL_MAX) {
        for (uint32_t i = 0; i < n; i++)
            keys[i] = key_of(t, i + 1);
        shuffle(keys, n, seed);
        return SN_OK;
    }
    unsigned bb, cb;
    scatter_geometry(n, &bb, &cb);
    return sn_input_random_scatter(keys, n, t, seed, threads, bb, cb);
}

sn_status sn_input_make(const sn_input_spec *spec, sn_key_type t, uint32_t n, uint32_t *keys,
                        sn_diag *diag)
{
    if (!spec || (!keys && n > 0))
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_input_make: missing argument");
    switch (spec->kind) {
    case SN_INPUT_RANDOM: {
        sn_status st = sn_input_random(keys, n, t, spec->seed, 0);
        if (st != SN_OK)
            return sn_diag_set(diag, st, 0, 0,
                               "out of memory for the random permutation's "
                               "bucket counts (%u keys)",
                               n);
        return SN_OK;
    }
    case SN_INPUT_REVERSE:
        for (uint32_t i = 0; i < n; i++)
            keys[i] = key_of(t, n - i);
        return SN_OK;
    case SN_INPUT_SORTED:
        for (uint32_t i = 0; i < n; i++)
            keys[i] = key_of(t, i + 1);
        return SN_OK;
    case SN_INPUT_KEYS:
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "the keys of %s are the caller's to copy",
                           spec->text ? spec->text : "a key file");
    case SN_INPUT_LIST:
    case SN_INPUT_BITS:
        if (!spec->text)
            return sn_diag_set(diag, SN_EINVAL, 0, 0, "no input text");
        return spec->kind == SN_INPUT_LIST ? make_list(spec->text, t, n, keys, diag)
                                           : make_bits(spec->text, t, n, keys, diag);
    }
    return sn_diag_set(diag, SN_EINVAL, 0, 0, "unknown input kind %d", (int)spec->kind);
}
