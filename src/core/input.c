/* input.c - inputs of the command line as raw 32-bit keys: value lists,
 * random permutations, reversed and sorted order, 0-1 strings; and the
 * text form of one key, so that what is printed parses back to the same
 * bits (floats: the shortest text that round-trips, NaNs keep their sign). */
#include "core/input.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
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

typedef enum why { WHY_OK, WHY_EMPTY, WHY_NOT_NUMBER, WHY_RANGE } why;

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

static why parse_key(sn_key_type t, const char *s, size_t len, uint32_t *out)
{
    char buf[64];
    if (len == 0)
        return WHY_EMPTY;
    if (len >= sizeof buf)
        return (s[0] == '-' || s[0] == '+' || (s[0] >= '0' && s[0] <= '9')) ? WHY_RANGE
                                                                            : WHY_NOT_NUMBER;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) /* an embedded NUL is no number */
        return WHY_NOT_NUMBER;
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
    return parse_key(t, s, len, out) == WHY_OK ? SN_OK : SN_EPARSE;
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

static sn_status make_list(const char *text, sn_key_type t, uint32_t n, uint32_t *keys,
                           sn_diag *diag)
{
    /* Count first: a wrong count is the likelier mistake, and says more. */
    size_t count = 1;
    bool blank = true;
    for (const char *p = text; *p; p++) {
        count += *p == ',';
        blank = blank && is_blank(*p);
    }
    if (blank)
        count = 0;
    if (count != n)
        return sn_diag_set(diag, SN_EPARSE, 0, 0, "expected %u value%s, got %zu", n,
                           n == 1 ? "" : "s", count);
    const char *p = text;
    for (uint32_t i = 0; i < n; i++) {
        while (is_blank(*p))
            p++;
        const char *start = p;
        while (*p && *p != ',')
            p++;
        const char *end = p;
        while (end > start && is_blank(end[-1]))
            end--;
        size_t len = (size_t)(end - start);
        unsigned long col = (unsigned long)(start - text) + 1;
        int shown = len > 24 ? 24 : (int)len;
        switch (parse_key(t, start, len, &keys[i])) {
        case WHY_OK: break;
        case WHY_EMPTY:
            return sn_diag_set(diag, SN_EPARSE, 1, col, "column %lu: expected a value (value %u)",
                               col, i + 1);
        case WHY_NOT_NUMBER:
            return sn_diag_set(diag, SN_EPARSE, 1, col, "column %lu: '%.*s%s' is not a number", col,
                               shown, start, len > 24 ? "..." : "");
        case WHY_RANGE:
            return sn_diag_set(diag, SN_EPARSE, 1, col, "column %lu: %.*s%s is out of range for %s",
                               col, shown, start, len > 24 ? "..." : "", type_text(t));
        }
        if (*p == ',')
            p++;
    }
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
    case SN_INPUT_LIST:
    case SN_INPUT_BITS:
        if (!spec->text)
            return sn_diag_set(diag, SN_EINVAL, 0, 0, "no input text");
        return spec->kind == SN_INPUT_LIST ? make_list(spec->text, t, n, keys, diag)
                                           : make_bits(spec->text, t, n, keys, diag);
    }
    return sn_diag_set(diag, SN_EINVAL, 0, 0, "unknown input kind %d", (int)spec->kind);
}
