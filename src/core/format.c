/* format.c - format names and detection, the parse/write dispatch, whole-file
 * reading and the network names of the command line (sn_schedule_load).
 *
 * The readers themselves live in format_bracket.c, format_sn.c and
 * format_json.c; they report bare messages with a line and column, and this
 * file adds the "LINE:COL: " or "FILE:LINE:COL: " prefix, so every error
 * about a file reads the same way. */
#include "core/format.h"
#include "core/construct.h"
#include "core/library.h"

#include <errno.h>
#include <limits.h> // for: NAME_MAX
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/format_impl.h"

#ifndef NAME_MAX
#define NAME_MAX 255
#endif

/* Network files larger than this are refused before they are read whole:
 * far beyond any network within the default limits (2^26 comparators of
 * about 8 bytes of text each fit in 512 MiB only in the densest format), yet
 * a stray `sortnet info /dev/zero` or a huge log ends quickly. */
#define SN_FILE_MAX_BYTES ((size_t)256 << 20)

const char *sn_format_name(sn_format f)
{
    switch (f) {
    case SN_FORMAT_BRACKET: return "bracket";
    case SN_FORMAT_JSON: return "json";
    case SN_FORMAT_SN: return "sn";
    case SN_FORMAT_UNKNOWN: break;
    }
    return "unknown";
}

bool sn_format_parse(const char *name, sn_format *out)
{
    static const struct {
        const char *name;
        sn_format f;
    } names[] = {{"bracket", SN_FORMAT_BRACKET},
                 {"txt", SN_FORMAT_BRACKET},
                 {"json", SN_FORMAT_JSON},
                 {"sn", SN_FORMAT_SN},
                 {"libsortnetwork", SN_FORMAT_SN}};
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(name, names[i].name) == 0) {
            if (out)
                *out = names[i].f;
            return true;
        }
    }
    return false;
}

bool sn_format_have_json(void)
{
#ifdef SN_HAVE_JANSSON
    return true;
#else
    return false;
#endif
}

/* ---- the cursor helpers of format_impl.h */

sn_status sn_cursor_number(sn_cursor *c, const char *what, sn_number *out, sn_diag *diag)
{
    char buf[32];
    out->line = c->line;
    out->col = c->col;
    out->value = 0;
    out->digits = c->text + c->pos;
    out->ndigits = 0;
    int ch = sn_cursor_peek(c);
    if (ch == '-') {
        sn_cursor_next(c);
        if (sn_cursor_peek(c) >= '0' && sn_cursor_peek(c) <= '9')
            return sn_diag_set(diag, SN_EPARSE, out->line, out->col, "%s must not be negative",
                               what);
        return sn_diag_set(diag, SN_EPARSE, out->line, out->col, "expected %s, found '-'", what);
    }
    if (ch < '0' || ch > '9')
        return sn_diag_set(diag, SN_EPARSE, c->line, c->col, "expected %s, found %s", what,
                           sn_cursor_describe(c, buf, sizeof buf));
    size_t n = 0;
    while ((ch = sn_cursor_peek(c)) >= '0' && ch <= '9') {
        uint64_t d = (uint64_t)(ch - '0');
        out->value = out->value > (UINT64_MAX - d) / 10 ? UINT64_MAX : out->value * 10 + d;
        n++;
        sn_cursor_next(c);
    }
    out->ndigits = n > 24 ? 24 : (int)n; /* long enough to show it is huge */
    return SN_OK;
}

const char *sn_cursor_describe(const sn_cursor *c, char *buf, size_t cap)
{
    int ch = sn_cursor_peek(c);
    if (ch < 0)
        snprintf(buf, cap, "end of input");
    else if (ch == '\n' || ch == '\r')
        snprintf(buf, cap, "end of line");
    else if (ch >= 0x20 && ch < 0x7f)
        snprintf(buf, cap, "'%c'", ch);
    else
        snprintf(buf, cap, "byte 0x%02x", (unsigned)ch);
    return buf;
}

/* ---- detection */

static bool is_space(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f';
}

size_t sn_text_bom(const char *text, size_t len)
{
    return text && len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* Move c to the first byte of content: past blanks, a UTF-8 byte order
 * mark and '#' comment lines (comments belong to the bracket format, but
 * skipping them here costs nothing). */
static void skip_to_content(sn_cursor *c)
{
    if (c->pos == 0)
        c->pos = sn_text_bom(c->text, c->len); /* the BOM is not a column a user can see */
    for (;;) {
        int ch = sn_cursor_peek(c);
        if (is_space(ch)) {
            sn_cursor_next(c);
        } else if (ch == '#') {
            while ((ch = sn_cursor_peek(c)) >= 0 && ch != '\n')
                sn_cursor_next(c);
        } else {
            return;
        }
    }
}

/* A libsortnetwork header line: "Word: ...", "Some Key: ..." */
static bool looks_like_header(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && ((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z') ||
                     (i > 0 && (p[i] == ' ' || p[i] == '-' || p[i] == '_'))))
        i++;
    return i > 0 && i < n && p[i] == ':';
}

sn_format sn_format_detect(const char *text, size_t len)
{
    if (!text)
        return SN_FORMAT_UNKNOWN;
    sn_cursor c;
    sn_cursor_init(&c, text, len);
    skip_to_content(&c);
    int ch = sn_cursor_peek(&c);
    if (ch == '{')
        return SN_FORMAT_JSON;
    if (ch == '[')
        return SN_FORMAT_BRACKET;
    if (looks_like_header(text + c.pos, len - c.pos))
        return SN_FORMAT_SN;
    return SN_FORMAT_UNKNOWN;
}

/* ---- parse and write dispatch */

/* Rewrite a reader's bare message as "[FILE:]LINE:COL: message". */
static sn_status prefix_text(sn_diag *d, sn_status st, const char *file)
{
    char bare[sizeof d->text];
    snprintf(bare, sizeof bare, "%s", sn_diag_text(d, st));
    if (d->line && file)
        return sn_diag_set(d, st, d->line, d->column, "%s:%lu:%lu: %s", file, d->line, d->column,
                           bare);
    if (d->line)
        return sn_diag_set(d, st, d->line, d->column, "%lu:%lu: %s", d->line, d->column, bare);
    if (file)
        return sn_diag_set(d, st, 0, 0, "%s: %s", file, bare);
    return sn_diag_set(d, st, 0, 0, "%s", bare);
}

/* prefix_text, keeping the limit the reader recorded */
static sn_status prefix_diag(sn_diag *d, sn_status st, const char *file)
{
    sn_limit limit = d->limit;
    prefix_text(d, st, file);
    d->limit = limit;
    return st;
}

/* The kind of image whose signature text starts with, or NULL (a PNG
 * opened as a network says so, not "byte 0x89"). */
static const char *image_kind(const char *text, size_t len)
{
    static const struct {
        const char *name, *magic;
        size_t len;
    } kinds[] = {{"PNG", "\x89PNG\r\n", 6}, {"JPEG", "\xff\xd8\xff", 3},
                 {"GIF", "GIF8", 4},          {"WebP", "RIFF", 4},
                 {"SVG", "<svg", 4},          {"SVG", "<?xml", 5}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (len >= kinds[i].len && memcmp(text, kinds[i].magic, kinds[i].len) == 0)
            return kinds[i].name;
    return NULL;
}

/* Parse into a local diag with bare messages (prefixing is the caller's). */
static sn_status parse_bare(const char *text, size_t len, sn_format f, sn_network **out, sn_diag *d)
{
    sn_diag_clear(d);
    if (f == SN_FORMAT_UNKNOWN) {
        f = sn_format_detect(text, len);
        if (f == SN_FORMAT_UNKNOWN) {
            sn_cursor c;
            sn_cursor_init(&c, text, len);
            skip_to_content(&c);
            if (c.pos >= len)
                return sn_diag_set(d, SN_EPARSE, c.line, c.col,
                                   "no network found: the input is empty");
            const char *image = image_kind(text, len);
            if (image)
                return sn_diag_set(d, SN_EPARSE, 1, 1,
                                   "this is an image (%s), not a network: open a network file "
                                   "(bracket layers, JSON or libsortnetwork text)",
                                   image);
            char what[32];
            return sn_diag_set(d, SN_EPARSE, c.line, c.col,
                               "unknown format: found %s where a network starts with '[' "
                               "(bracket layers), '{' (JSON) or 'Inputs:' (libsortnetwork)",
                               sn_cursor_describe(&c, what, sizeof what));
        }
    }
    sn_status st;
    switch (f) {
    case SN_FORMAT_BRACKET: st = sn_bracket_parse(text, len, out, d); break;
    case SN_FORMAT_SN: st = sn_sn_parse(text, len, out, d); break;
    case SN_FORMAT_JSON: st = sn_json_parse(text, len, out, d); break;
    default: st = sn_diag_set(d, SN_EINVAL, 0, 0, "unknown format %d", (int)f); break;
    }
    if (st == SN_ENOMEM && !d->text[0])
        sn_diag_set(d, st, 0, 0, "out of memory while reading the network");
    return st;
}

sn_status sn_network_parse(const char *text, size_t len, sn_format f, sn_network **out,
                           sn_diag *diag)
{
    sn_diag d;
    if (!out || (!text && len))
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_network_parse: no text or no output");
    *out = NULL;
    if (!text)
        text = "";
    sn_status st = parse_bare(text, len, f, out, &d);
    if (st != SN_OK) {
        prefix_diag(&d, st, NULL);
        if (diag)
            *diag = d;
    }
    return st;
}

sn_status sn_network_write(const sn_network *net, sn_format f, FILE *stream, sn_diag *diag)
{
    if (!net || !stream)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_network_write: no network or no stream");
    switch (f) {
    case SN_FORMAT_BRACKET: return sn_bracket_write(net, stream, diag);
    case SN_FORMAT_SN: return sn_sn_write(net, stream, diag);
    case SN_FORMAT_JSON: return sn_json_write(net, stream, diag);
    case SN_FORMAT_UNKNOWN: break;
    }
    return sn_diag_set(diag, SN_EINVAL, 0, 0, "cannot write a network in format %s",
                       sn_format_name(f));
}

sn_status sn_network_is_asap(const sn_network *net, bool *asap)
{
    /* Replays sn_network_add_asap without building anything: a comparator
     * of layer k lands in layer max(depth[a], depth[b]) (depth = 1 + the
     * last layer touching the wire), and the layers come back unchanged iff
     * that is k for every comparator (the order inside a layer is kept,
     * because add_asap appends). */
    uint32_t n = sn_network_wires(net);
    size_t *depth = sn_calloc(n ? n : 1, sizeof *depth);
    if (!depth)
        return SN_ENOMEM;
    *asap = true;
    for (size_t k = 0; k < sn_network_layer_count(net) && *asap; k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        for (size_t i = 0; i < count; i++) {
            size_t da = depth[c[i].a], db = depth[c[i].b];
            if ((da > db ? da : db) != k) {
                *asap = false;
                break;
            }
            depth[c[i].a] = depth[c[i].b] = k + 1;
        }
    }
    sn_free(depth);
    return SN_OK;
}

/* ---- files */

sn_status sn_format_write_error(sn_diag *diag, int err)
{
    return sn_diag_set(diag, SN_EIO, 0, 0, "write error: %s", strerror(err ? err : EIO));
}

void sn_file_temp_template(const char *target, char *out, size_t cap)
{
    const char *slash = strrchr(target, '/');
    const char *base = slash ? slash + 1 : target;
    if (strlen(base) + sizeof ".tmpXXXXXX" - 1 <= NAME_MAX)
        snprintf(out, cap, "%s.tmpXXXXXX", target);
    else
        snprintf(out, cap, "%.*s.sn-XXXXXX", (int)(base - target), target);
}

sn_status sn_file_read_all(const char *path, size_t max_bytes, char **out, size_t *len,
                           sn_diag *diag)
{
    if (!path || !out || !len)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_file_read_all: missing argument");
    *out = NULL;
    *len = 0;
    bool is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: cannot open: %s", name, strerror(errno));

    sn_status st = SN_OK;
    size_t used = 0, cap = 0, hint = 0;
    char *buf = NULL;
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0) {
        if (S_ISDIR(sb.st_mode)) {
            st = sn_diag_set(diag, SN_EIO, 0, 0, "%s: cannot read: %s", name, strerror(EISDIR));
            goto done;
        }
        /* A regular file too large is refused before reading it. */
        if (S_ISREG(sb.st_mode) && sb.st_size > 0) {
            if ((unsigned long long)sb.st_size > max_bytes) {
                st = sn_diag_set(diag, SN_ELIMIT, 0, 0,
                                 "%s: file too large (%llu bytes, the limit is %zu)", name,
                                 (unsigned long long)sb.st_size, max_bytes);
                goto done;
            }
            hint = (size_t)sb.st_size + 1; /* +1 sees EOF in one read */
        }
    }
    for (;;) {
        if (used == cap) {
            /* Never hold more than max_bytes + 1 bytes: one past the limit
             * is how a too-long stream is noticed. */
            size_t room = max_bytes < SIZE_MAX - 1 ? max_bytes + 1 : SIZE_MAX - 1;
            size_t want = cap ? (cap <= room / 2 ? cap * 2 : room) : (hint ? hint : 65536);
            if (want > room)
                want = room;
            if (want <= cap) {
                st = sn_diag_set(diag, SN_ELIMIT, 0, 0, "%s: input too large (more than %zu bytes)",
                                 name, max_bytes);
                goto done;
            }
            char *p = sn_realloc(buf, want + 1);
            if (!p) {
                st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory (%zu bytes)", name,
                                 want + 1);
                goto done;
            }
            buf = p;
            cap = want;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (used > max_bytes) {
            st = sn_diag_set(diag, SN_ELIMIT, 0, 0, "%s: input too large (more than %zu bytes)",
                             name, max_bytes);
            goto done;
        }
        if (got == 0 || used < cap) {
            if (ferror(f)) {
                st = sn_diag_set(diag, SN_EIO, 0, 0, "%s: read error: %s", name, strerror(errno));
                goto done;
            }
            if (feof(f))
                break;
        }
    }
    /* (the loop's first pass allocated buf: never NULL here) */
    buf[used] = '\0';
    *out = buf;
    *len = used;
    buf = NULL;
done:
    sn_free(buf);
    if (!is_stdin)
        fclose(f);
    else
        clearerr(f);
    return st;
}

/* ---- network names of the command line */

/* "bitonic:16" shape: a non-empty run of [A-Za-z0-9_-] before the first
 * ':'. *colon receives the ':' position. */
static bool looks_like_generator(const char *spec, const char **colon)
{
    const char *p = spec;
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
           *p == '-' || *p == '_')
        p++;
    *colon = p;
    return p > spec && *p == ':';
}

static bool file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static void known_generators(char *buf, size_t cap)
{
    snprintf(buf, cap,
             "bitonic, oddeven-merge, bitonic-pad, oddeven-merge-pad, transposition, "
             "pairwise, bubble, insertion, bitonic-classic, bose-nelson, hibbard, "
             "merge-exchange, balanced, empty; merging: merge:A,B, bitonic-merge:N, "
             "half-cleaner:N");
}

/* "empty:N": N wires and no comparators, a start for building a network
 * by hand (`sortnet view empty:8`). */
static sn_status load_empty(uint32_t n, sn_schedule **out, sn_diag *diag)
{
    sn_network *net = sn_network_create(n);
    if (!net && n > sn_limits_get().max_wires)
        return sn_diag_limit(diag, SN_LIMIT_WIRES, 0, 0, "empty:%u: too many wires", n);
    if (!net)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "empty:%u: out of memory", n);
    char name[32];
    snprintf(name, sizeof name, "empty:%u", n);
    sn_status st = sn_network_set_name(net, name);
    if (st != SN_OK) {
        sn_network_destroy(net);
        return sn_diag_set(diag, st, 0, 0, "empty:%u: out of memory", n);
    }
    return sn_schedule_from_network(net, out); /* consumes net */
}

/* The number of wires after "NAME:" in spec (>= 1). */
static sn_status parse_wires(const char *spec, const char *name, const char *num, uint32_t *n,
                             sn_diag *diag)
{
    if (!*num)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "%s: expected the number of wires after ':' (e.g. %s:16)", spec, name);
    uint64_t v = 0;
    for (const char *p = num; *p; p++) {
        if (*p < '0' || *p > '9')
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "%s: '%s' is not a number of wires (e.g. %s:16)", spec, num, name);
        v = v > UINT32_MAX ? v : v * 10 + (uint64_t)(*p - '0');
    }
    if (v == 0)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "%s: a network needs at least 1 wire", spec);
    if (v > UINT32_MAX)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "%s: too many wires", spec);
    *n = (uint32_t)v;
    return SN_OK;
}

/* best:N, best-depth:N, median:N and lib:NAME: the shipped library
 * (library.h). */
static sn_status load_library(const char *spec, const char *family, const char *arg,
                              sn_schedule **out, sn_diag *diag)
{
    size_t entry;
    if (strcmp(family, "lib") == 0) {
        if ((entry = sn_library_find(arg)) == SN_LIBRARY_NONE)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "%s: no library network named '%s' (`sortnet list` shows them)",
                               spec, arg);
    } else {
        uint32_t n, lo, hi;
        sn_status st = parse_wires(spec, family, arg, &n, diag);
        if (st != SN_OK)
            return st;
        bool by_depth = strcmp(family, "best-depth") == 0;
        if (strcmp(family, "median") == 0) {
            if ((entry = sn_library_median(n)) == SN_LIBRARY_NONE)
                return sn_diag_set(diag, SN_EINVAL, 0, 0,
                                   "%s: the library has no median network for n = %u (`sortnet "
                                   "list` shows the median networks it has)",
                                   spec, n);
        } else if ((entry = sn_library_best(n, by_depth)) == SN_LIBRARY_NONE) {
            sn_library_best_range(&lo, &hi);
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "%s: the library has best-known networks for n = %u..%u only "
                               "(for other n use a generator, e.g. oddeven-merge:%u)",
                               spec, lo, hi, n);
        }
    }
    return sn_library_schedule(entry, spec, out, diag);
}

/* merge:A,B, bitonic-merge:N and half-cleaner:N (construct.h). */
static sn_status load_merger(const char *spec, const char *family, const char *arg,
                             sn_schedule **out, sn_diag *diag)
{
    sn_network *net = NULL;
    sn_status st;
    if (strcmp(family, "merge") == 0) {
        char first[16];
        const char *comma = strchr(arg, ',');
        uint32_t a = 0, b = 0;
        size_t len = comma ? (size_t)(comma - arg) : 0;
        if (!comma || len == 0 || len >= sizeof first)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "%s: expected merge:A,B (the sizes of the two sorted parts, e.g. "
                               "merge:4,4)",
                               spec);
        memcpy(first, arg, len);
        first[len] = '\0';
        if ((st = parse_wires(spec, family, first, &a, diag)) != SN_OK ||
            (st = parse_wires(spec, family, comma + 1, &b, diag)) != SN_OK)
            return st;
        st = sn_construct_merge(a, b, &net, diag);
    } else {
        uint32_t n;
        if ((st = parse_wires(spec, family, arg, &n, diag)) != SN_OK)
            return st;
        st = strcmp(family, "bitonic-merge") == 0 ? sn_construct_bitonic_merge(n, &net, diag)
                                                  : sn_construct_half_cleaner(n, &net, diag);
    }
    if (st != SN_OK)
        return st;
    return sn_schedule_from_network(net, out); /* consumes net */
}

static sn_status load_generator(const char *spec, const char *colon, sn_schedule **out,
                                sn_diag *diag)
{
    char algo_name[64], known[256];
    size_t nlen = (size_t)(colon - spec);
    if (nlen >= sizeof algo_name)
        nlen = sizeof algo_name - 1;
    memcpy(algo_name, spec, nlen);
    algo_name[nlen] = '\0';
    if (sn_library_is_family(algo_name))
        return load_library(spec, algo_name, colon + 1, out, diag);
    if (strcmp(algo_name, "merge") == 0 || strcmp(algo_name, "bitonic-merge") == 0 ||
        strcmp(algo_name, "half-cleaner") == 0)
        return load_merger(spec, algo_name, colon + 1, out, diag);
    sn_algo algo;
    bool empty = strcmp(algo_name, "empty") == 0;
    if (!empty && (!sn_algo_parse(algo_name, &algo) || algo == SN_ALGO_EXPLICIT)) {
        known_generators(known, sizeof known);
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "%s: unknown generator '%s' (known: %s; from the library: best:N, "
                           "best-depth:N, lib:NAME)%s",
                           spec, algo_name, known,
                           file_exists(spec) ? "; to read the file of this name, write ./"
                                               "before it"
                                             : "");
    }
    uint32_t n;
    sn_status st = parse_wires(spec, algo_name, colon + 1, &n, diag);
    if (st != SN_OK)
        return st;
    if (empty)
        return load_empty(n, out, diag);
    (void)sn_algo_resolve(algo_name, n, &algo); /* the balanced split where it differs */
    return sn_schedule_generate(algo, n, out, diag);
}

static sn_status load_file(const char *spec, sn_schedule **out, sn_diag *diag)
{
    char *text = NULL;
    size_t len = 0;
    bool is_stdin = strcmp(spec, "-") == 0;
    sn_status st = sn_file_read_all(spec, SN_FILE_MAX_BYTES, &text, &len, diag);
    if (st != SN_OK) {
        sn_algo algo;
        /* "bitonic" alone is most likely a generator without its n. */
        if (st == SN_EIO && !is_stdin && !file_exists(spec) && sn_algo_parse(spec, &algo) && diag) {
            size_t used = strlen(diag->text);
            snprintf(diag->text + used, sizeof diag->text - used,
                     " (for a generated network, write %s:N)", spec);
        }
        return st;
    }
    sn_diag d;
    sn_network *net = NULL;
    const char *fname = is_stdin ? "<stdin>" : spec;
    st = parse_bare(text, len, SN_FORMAT_UNKNOWN, &net, &d);
    sn_free(text);
    if (st != SN_OK) {
        prefix_diag(&d, st, fname);
        if (diag)
            *diag = d;
        return st;
    }
    const char *base = is_stdin ? "stdin" : strrchr(spec, '/');
    base = base ? (base[0] == '/' ? base + 1 : base) : spec;
    st = sn_network_set_name(net, base);
    if (st != SN_OK) {
        sn_network_destroy(net);
        return sn_diag_set(diag, st, 0, 0, "%s: out of memory", fname);
    }
    st = sn_schedule_from_network(net, out); /* consumes net */
    if (st != SN_OK)
        return sn_diag_set(diag, st, 0, 0, "%s: %s", fname, sn_status_str(st));
    return SN_OK;
}

sn_status sn_schedule_load(const char *spec, sn_schedule **out, sn_diag *diag)
{
    if (!out)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "sn_schedule_load: no output");
    *out = NULL;
    if (!spec || !*spec)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "empty network name (expected e.g. bitonic:16, a file or -)");
    /* A spec shaped like a generator name ("bitonic:16") is one, so that a
     * stray file called "bitonic:16" in the current directory cannot change
     * what a command means. The exception is a spec that also contains a
     * '/' (e.g. "bitonic:16/net.txt") naming an existing file: no generator
     * name contains '/', so the user meant the file. Other paths ("./x:3",
     * "dir/net.txt", "net.txt") never look like generator names. */
    const char *colon;
    if (looks_like_generator(spec, &colon) && !(strchr(spec, '/') && file_exists(spec)))
        return load_generator(spec, colon, out, diag);
    return load_file(spec, out, diag);
}
