/* engine.c - the page's exports (engine.h): the browser's calls mapped to
 * the session (src/session/session.h, the same one the window and the
 * headless backend drive); the frame as a scene packed into plain arrays
 * for the page's painter; the state and the catalogue as JSON (printed by
 * hand: jansson is not there for wasm32).
 *
 * Invariants: one static engine (a page holds one) and its one session; a
 * failing call leaves the engine as it was and says why in err. Strings
 * returned stay valid until the next call that returns a string of the
 * same function (each function has its own buffer).
 *
 * CONFIGURATION: SNW_MAX_N, the page's limit on wires (the trace of every
 * layer is kept for stepping back, and the page's memory is the module's). */
#include "web/engine.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h> // for: free (open_memstream's buffer)
#include <string.h>

#include "core/alloc.h"
#include "core/textbuf.h"
#include "core/format.h"
#include "core/input.h" /* for: sn_key_format */
#include "core/library.h"
#include "core/schedule.h"
#include "render/dist_scene.h" /* for: sn_dist_spec_is */
#include "render/scene_svg.h"
#include "session/dist_view.h" /* for: sn_dist_view_init */
#include "session/link.h"
#include "session/session.h"
#include "web/engine_exercise.h"
#include "web/verdict_web.h"

/* The most wires the page opens. */
#define SNW_MAX_N 1024u
/* Longest network name or input text taken from the page. */
#define SNW_SPEC_MAX 256u
#define SNW_INPUT_MAX (SNW_MAX_N * 16u)

typedef struct engine {
    sn_session ses;
    /* the last frame */
    sn_scene *scene;
    /* the packed scene */
    double *prims, *styles, *points;
    size_t prim_cap, style_cap, point_cap, style_count, point_count;
    sn_textbuf strings;
    /* returned strings, one buffer per function */
    char err[1024];
    sn_textbuf state, catalog, exported, check, link;
} engine;

static engine E = {.ses = {.front = SN_FRONT_PAGE, .pending_wire = -1, .scale = 1}};

/* ---- text buffers */

/* A JSON string: quotes, backslash and control characters escaped; bytes
 * that are not valid UTF-8 become U+FFFD, so JSON.parse always succeeds. */
static void tb_json_str(sn_textbuf *b, const char *s)
{
    sn_textbuf_put(b, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned char c = *p;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            sn_textbuf_put(b, e, 2);
            p++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': sn_textbuf_str(b, "\\n"); break;
            case '\t': sn_textbuf_str(b, "\\t"); break;
            case '\r': sn_textbuf_str(b, "\\r"); break;
            default: sn_textbuf_printf(b, "\\u%04x", (unsigned)c); break;
            }
            p++;
        } else if (c < 0x80) {
            sn_textbuf_put(b, (const char *)p, 1);
            p++;
        } else {
            /* the length of a well-formed sequence starting here, or 0 */
            size_t len = c >= 0xC2 && c <= 0xDF   ? 2
                         : c >= 0xE0 && c <= 0xEF ? 3
                         : c >= 0xF0 && c <= 0xF4 ? 4
                                                  : 0;
            for (size_t i = 1; i < len; i++)
                if ((p[i] & 0xC0) != 0x80)
                    len = 0;
            if (len == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F)))
                len = 0;
            if (len == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] > 0x8F)))
                len = 0;
            if (len) {
                sn_textbuf_put(b, (const char *)p, len);
                p += len;
            } else {
                sn_textbuf_str(b, "\xEF\xBF\xBD");
                p++;
            }
        }
    }
    sn_textbuf_put(b, "\"", 1);
}

static void tb_json_key(sn_textbuf *b, const char *key, bool first)
{
    if (!first)
        sn_textbuf_put(b, ",", 1);
    tb_json_str(b, key);
    sn_textbuf_put(b, ":", 1);
}

/* ---- errors */

static void set_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void set_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(E.err, sizeof E.err, fmt, ap);
    va_end(ap);
}

/* The status code of engine.h for a failed sn_status. */
static int code_of(sn_status st)
{
    return st == SN_ENOMEM ? 3 : 2;
}

static int fail_diag(sn_status st, const sn_diag *d, const char *what)
{
    if (d->text[0])
        set_error("%s", d->text);
    else
        set_error("%s: %s", what, sn_status_str(st));
    return code_of(st);
}

/* A copy of (p, len) as a NUL-terminated string (NULL when out of memory
 * or longer than max; *too_long says which). */
static char *copy_text(const char *p, size_t len, size_t max, bool *too_long)
{
    *too_long = len > max;
    if (*too_long)
        return NULL;
    char *s = sn_malloc(len + 1);
    if (!s)
        return NULL;
    if (len)
        memcpy(s, p, len);
    s[len] = '\0';
    return s;
}

/* ---- memory and errors for the script */

void *snw_alloc(size_t size)
{
    return sn_malloc(size ? size : 1);
}

void snw_free(void *p)
{
    sn_free(p);
}

const char *snw_error(void)
{
    return E.err;
}

/* ---- for engine_exercise.c (engine_exercise.h) */

sn_session *snw_session(void)
{
    return &E.ses;
}

void snw_json_string(sn_textbuf *b, const char *s)
{
    tb_json_str(b, s);
}

void snw_set_error_text(const char *s)
{
    set_error("%s", s);
}

/* ---- the views */

static sn_view *main_view(void)
{
    return sn_session_main(&E.ses);
}

/* Show group g (taken over) with new frames, leaving any lesson when
 * keep_lesson is false. 3 when out of memory (g is then cleaned up and
 * nothing changed). */
static int install_group(sn_group *g, bool keep_lesson)
{
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_session_show(&E.ses, g, keep_lesson, &d) != SN_OK) {
        set_error("%s", d.text);
        return 3;
    }
    return 0;
}

/* "NAME: N wires; the page shows 1 to SNW_MAX_N" when the group is too
 * large for the page. */
static bool too_large(const sn_group *g)
{
    for (size_t i = 0; i < g->count; i++) {
        if (g->view[i].n > SNW_MAX_N) {
            set_error("%s: %u wires; the page shows 1 to %u (try `sortnet draw` or `sortnet "
                      "check`)",
                      g->view[i].name, g->view[i].n, SNW_MAX_N);
            return true;
        }
    }
    return false;
}

/* An input as the page says it, into in (text points into buf, which the
 * caller frees): "" or "random" (seed 1), "random:SEED", "reverse",
 * "sorted", "bits:0110", "list:3,1,2" or the list alone ("3,1,2"). */
static int parse_input(const char *p, size_t len, sn_view_input *in, char **buf)
{
    memset(in, 0, sizeof *in);
    in->type = SN_KEY_I32;
    in->kind = SN_INPUT_RANDOM;
    in->seed = 1;
    *buf = NULL;
    bool too_long;
    char *s = copy_text(p ? p : "", p ? len : 0, SNW_INPUT_MAX, &too_long);
    if (!s) {
        if (too_long)
            set_error("input: %zu bytes; the page takes at most %u", len, SNW_INPUT_MAX);
        else
            set_error("out of memory");
        return too_long ? 2 : 3;
    }
    char *t = s;
    while (*t == ' ' || *t == '\t' || *t == '\n' || *t == '\r')
        t++;
    size_t n = strlen(t);
    while (n && (t[n - 1] == ' ' || t[n - 1] == '\t' || t[n - 1] == '\n' || t[n - 1] == '\r'))
        t[--n] = '\0';
    *buf = s;
    if (n == 0 || strcmp(t, "random") == 0)
        return 0;
    if (strncmp(t, "random:", 7) == 0) {
        const char *d = t + 7;
        unsigned long long seed = 0;
        bool ok = *d != '\0';
        for (; *d && ok; d++) {
            ok = *d >= '0' && *d <= '9' && seed <= (UINT64_MAX - 9) / 10;
            seed = seed * 10 + (unsigned)(*d - '0');
        }
        if (!ok) {
            set_error("input: '%.40s' is not a seed (random:SEED, a decimal number)", t + 7);
            sn_free(s);
            *buf = NULL;
            return 2;
        }
        in->seed = seed;
        return 0;
    }
    if (strcmp(t, "reverse") == 0 || strcmp(t, "reversed") == 0) {
        in->kind = SN_INPUT_REVERSE;
        return 0;
    }
    if (strcmp(t, "sorted") == 0) {
        in->kind = SN_INPUT_SORTED;
        return 0;
    }
    if (strncmp(t, "bits:", 5) == 0) {
        in->kind = SN_INPUT_BITS;
        in->text = t + 5;
        return 0;
    }
    if (strncmp(t, "list:", 5) == 0) {
        in->kind = SN_INPUT_LIST;
        in->text = t + 5;
        return 0;
    }
    if ((*t >= '0' && *t <= '9') || *t == '-' || *t == '+') {
        in->kind = SN_INPUT_LIST;
        in->text = t;
        return 0;
    }
    set_error("input: '%.40s' is not an input (random:SEED, reverse, sorted, bits:0110, "
              "list:3,1,2)",
              t);
    sn_free(s);
    *buf = NULL;
    return 2;
}

/* Prefix "input: " to an input's own message. */
static int fail_input(sn_status st, const sn_diag *d)
{
    set_error("input: %s", sn_diag_text(d, st));
    return code_of(st);
}

/* A spec the page may open: a name (no file system here). The wires a
 * generator name asks for are checked before anything is made. */
static bool spec_ok(const char *spec)
{
    const char *colon = strrchr(spec, ':');
    if (!colon) {
        set_error("%s: not a network name (e.g. bitonic:16, best:9, median:9, empty:4); open a "
                  "file or paste its text instead",
                  spec);
        return false;
    }
    unsigned long long n = 0;
    const char *d = colon + 1;
    bool digits = *d != '\0';
    for (; *d && digits; d++) {
        digits = *d >= '0' && *d <= '9';
        if (digits && n <= SNW_MAX_N)
            n = n * 10 + (unsigned)(*d - '0');
    }
    if (digits && n > SNW_MAX_N) {
        set_error("%s: %llu wires; the page shows 1 to %u (try `sortnet draw` or `sortnet check`)",
                  spec, n, SNW_MAX_N);
        return false;
    }
    return true;
}

/* Open the window's default network when nothing is open yet. */
static bool ensure_open(void)
{
    if (E.ses.open)
        return true;
    sn_group g;
    sn_diag d;
    sn_diag_clear(&d);
    const char *spec = "bitonic:16";
    sn_view_input in = {SN_INPUT_RANDOM, 1, NULL, SN_KEY_I32};
    if (sn_group_init(&g, &spec, 1, &in, &d) != SN_OK) {
        set_error("%s", d.text);
        return false;
    }
    return install_group(&g, false) == 0;
}

int snw_open(const char *spec, size_t spec_len, const char *input, size_t input_len)
{
    E.err[0] = '\0';
    bool too_long;
    char *name = copy_text(spec ? spec : "", spec ? spec_len : 0, SNW_SPEC_MAX, &too_long);
    if (!name) {
        set_error(too_long ? "network name: longer than %u bytes" : "out of memory", SNW_SPEC_MAX);
        return too_long ? 2 : 3;
    }
    if (!name[0]) {
        sn_free(name);
        set_error("empty network name (expected e.g. bitonic:16, best:9, empty:4)");
        return 2;
    }
    if (!spec_ok(name)) {
        sn_free(name);
        return 2;
    }
    sn_view_input in;
    char *buf;
    int rc = parse_input(input, input_len, &in, &buf);
    if (rc) {
        sn_free(name);
        return rc;
    }
    sn_group g;
    memset(&g, 0, sizeof g);
    sn_diag d;
    sn_diag_clear(&d);
    sn_schedule *s = NULL;
    /* dist:P,NET: the view makes its merge-split picture (dist_view.h) */
    bool dist = sn_dist_spec_is(name);
    sn_status st = dist ? SN_OK : sn_schedule_load(name, &s, &d);
    bool input_error = false;
    if (st == SN_OK) {
        st = dist ? sn_dist_view_init(&g.view[0], name, &in, &d)
                  : sn_view_init_schedule(&g.view[0], s, name, NULL, &in, &d);
        /* what is not about the network (its messages start with its
         * name) is about the input */
        input_error = st != SN_OK && !dist && strncmp(d.text, name, strlen(name)) != 0;
        if (st != SN_OK)
            sn_view_cleanup(&g.view[0]);
    }
    sn_free(buf);
    sn_free(name);
    if (st != SN_OK)
        return input_error ? fail_input(st, &d) : fail_diag(st, &d, "network");
    g.count = 1;
    if (too_large(&g)) {
        sn_group_cleanup(&g);
        return 2;
    }
    return install_group(&g, false);
}

int snw_open_text(const char *text, size_t len, const char *file, size_t file_len,
                  const char *input, size_t input_len)
{
    E.err[0] = '\0';
    bool too_long;
    char *name = file && file_len ? copy_text(file, file_len, SNW_SPEC_MAX, &too_long)
                                  : copy_text("pasted", 6, SNW_SPEC_MAX, &too_long);
    if (!name) {
        set_error(too_long ? "file name: longer than %u bytes" : "out of memory", SNW_SPEC_MAX);
        return too_long ? 2 : 3;
    }
    if (!text)
        len = 0;
    if (sn_format_detect(text ? text : "", len) == SN_FORMAT_JSON && !sn_format_have_json()) {
        set_error("%s: a JSON network, and this engine was built without a JSON reader "
                  "(jansson): the page reads JSON itself and hands the engine bracket text",
                  name);
        sn_free(name);
        return 2;
    }
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_network_parse(text ? text : "", len, SN_FORMAT_UNKNOWN, &net, &d);
    if (st != SN_OK) {
        /* the reader's message is "LINE:COL: why" (or just "why") */
        set_error("%s:%s%s", name, d.line ? "" : " ", sn_diag_text(&d, st));
        sn_free(name);
        return code_of(st);
    }
    if (sn_network_wires(net) > SNW_MAX_N) {
        set_error("%s: %u wires; the page shows 1 to %u (try `sortnet draw` or `sortnet check`)",
                  name, sn_network_wires(net), SNW_MAX_N);
        sn_network_destroy(net);
        sn_free(name);
        return 2;
    }
    sn_view_input in;
    char *buf;
    int rc = parse_input(input, input_len, &in, &buf);
    if (rc) {
        sn_network_destroy(net);
        sn_free(name);
        return rc;
    }
    sn_schedule *s = NULL;
    st = sn_network_set_name(net, name);
    if (st == SN_OK)
        st = sn_schedule_from_network(net, &s); /* consumes net */
    else
        sn_network_destroy(net);
    sn_group g;
    memset(&g, 0, sizeof g);
    bool input_error = false;
    if (st == SN_OK) {
        st = sn_view_init_schedule(&g.view[0], s, name, NULL, &in, &d);
        input_error = st != SN_OK && strncmp(d.text, name, strlen(name)) != 0;
        if (st != SN_OK)
            sn_view_cleanup(&g.view[0]);
    } else {
        sn_diag_set(&d, st, 0, 0, "%s: out of memory", name);
    }
    sn_free(buf);
    sn_free(name);
    if (st != SN_OK)
        return input_error ? fail_input(st, &d) : fail_diag(st, &d, "network");
    g.count = 1;
    return install_group(&g, false);
}

int snw_set_input(const char *input, size_t input_len)
{
    E.err[0] = '\0';
    if (!ensure_open())
        return 3;
    sn_view_input in;
    char *buf;
    int rc = parse_input(input, input_len, &in, &buf);
    if (rc)
        return rc;
    sn_diag d;
    sn_diag_clear(&d);
    /* the first view decides (every view has the same n): nothing has
     * changed when it refuses */
    sn_group *g = &E.ses.group;
    sn_status st = sn_view_set_input(&g->view[0], &in, &d);
    for (size_t i = 1; st == SN_OK && i < g->count; i++)
        st = sn_view_set_input(&g->view[i], &in, &d);
    sn_free(buf);
    if (st != SN_OK)
        return fail_input(st, &d);
    g->step = 0;
    g->playing = false;
    g->play_ms = 0;
    char text[96];
    sn_view_message(main_view(), false, "new input: %s",
                    sn_view_input_text(main_view(), text, sizeof text));
    return 0;
}

/* ---- lessons */

int snw_lesson_open(const char *text, size_t len, const char *file, size_t file_len)
{
    E.err[0] = '\0';
    bool too_long;
    char *name = copy_text(file && file_len ? file : "lesson", file && file_len ? file_len : 6,
                           SNW_SPEC_MAX, &too_long);
    if (!name) {
        set_error(too_long ? "lesson name: longer than %u bytes" : "out of memory", SNW_SPEC_MAX);
        return too_long ? 2 : 3;
    }
    char *body = NULL;
    if (text) {
        body = copy_text(text, len, (size_t)1 << 24, &too_long);
        if (!body) {
            set_error(too_long ? "%s: larger than 16 MiB" : "%s: out of memory", name);
            sn_free(name);
            return too_long ? 2 : 3;
        }
    } else {
        const sn_lesson_source *src = sn_lesson_shipped(name);
        if (!src) {
            set_error("%s: no such lesson (the shipped ones: see the catalogue)", name);
            sn_free(name);
            return 2;
        }
        sn_free(name);
        body = copy_text(src->text, strlen(src->text), (size_t)1 << 24, &too_long);
        name = copy_text(src->name, strlen(src->name), SNW_SPEC_MAX, &too_long);
        if (!body || !name) {
            sn_free(body);
            sn_free(name);
            set_error("out of memory");
            return 3;
        }
    }
    sn_lesson *l = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_lesson_parse(body, name, &l, &d);
    sn_free(body);
    sn_free(name);
    if (st == SN_OK)
        st = sn_lesson_check(l, &d);
    if (st != SN_OK) {
        sn_lesson_free(l);
        return fail_diag(st, &d, "lesson");
    }
    sn_diag_clear(&d);
    st = sn_session_lesson_open(&E.ses, l, &d); /* takes l */
    if (st != SN_OK) {
        set_error("%s", d.text);
        return 2;
    }
    return 0;
}

int snw_lesson_go(size_t i)
{
    E.err[0] = '\0';
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_session_lesson_go(&E.ses, i, &d) != SN_OK) {
        set_error("%s", d.text);
        return 2;
    }
    return 0;
}

/* ---- links (session/link.h) */

const char *snw_link(void)
{
    E.err[0] = '\0';
    sn_textbuf_clear(&E.link);
    sn_link l;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = E.ses.open ? sn_link_of_session(&E.ses, &l, &d) : SN_EINVAL;
    if (st == SN_OK) {
        st = sn_link_encode(&l, &E.link, &d);
        sn_link_clear(&l);
    }
    if (st == SN_OK && (E.link.failed || !E.link.s))
        st = sn_diag_set(&d, SN_ENOMEM, 0, 0, "link: out of memory");
    if (st != SN_OK) {
        set_error("%s", d.text[0] ? d.text : "link: nothing is shown");
        return "";
    }
    return E.link.s;
}

int snw_link_open(const char *text, size_t len, const char *lesson, size_t lesson_len,
                  const char *lesson_name, size_t name_len)
{
    E.err[0] = '\0';
    sn_link l;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_link_decode(text, text ? len : 0, &l, &d);
    if (st != SN_OK)
        return fail_diag(st, &d, "link");
    if (l.net && !spec_ok(l.net)) {
        sn_link_clear(&l);
        return 2;
    }
    if (l.cmp && sn_network_wires(l.cmp) > SNW_MAX_N) {
        set_error("link: %u wires; the page shows 1 to %u", sn_network_wires(l.cmp), SNW_MAX_N);
        sn_link_clear(&l);
        return 2;
    }
    /* the lesson baked into the page, when the link names it */
    sn_lesson *baked = NULL;
    if (l.lesson && lesson && lesson_name && name_len == strlen(l.lesson) &&
        memcmp(lesson_name, l.lesson, name_len) == 0) {
        bool too_long;
        char *body = copy_text(lesson, lesson_len, (size_t)1 << 24, &too_long);
        st = body ? sn_lesson_parse(body, l.lesson, &baked, &d) : SN_ENOMEM;
        sn_free(body);
        if (st == SN_OK)
            st = sn_lesson_check(baked, &d);
        if (st != SN_OK) {
            sn_lesson_free(baked);
            sn_link_clear(&l);
            return fail_diag(st, &d, "link");
        }
    }
    st = sn_session_link_open(&E.ses, &l, baked, &d); /* takes baked */
    sn_link_clear(&l);
    if (st != SN_OK)
        return fail_diag(st, &d, "link");
    if (too_large(&E.ses.group)) /* a lesson's network past the page's wires */
        return 2;
    return 0;
}

int snw_lesson_close(void)
{
    E.err[0] = '\0';
    if (!E.ses.lesson)
        return 0;
    sn_session_lesson_close(&E.ses);
    return 1;
}

/* ---- actions and time */

/* One action; what the window does for the requests it leaves, the page
 * does itself (downloads, full screen); quitting a page is closing it. */
static bool act(sn_action a)
{
    bool changed = sn_session_action(&E.ses, a);
    for (size_t i = 0; i < E.ses.group.count; i++)
        E.ses.group.view[i].requests = 0;
    return changed;
}

int snw_action(const char *name, size_t len)
{
    E.err[0] = '\0';
    bool too_long;
    char *s = copy_text(name ? name : "", name ? len : 0, 64, &too_long);
    if (!s) {
        set_error(too_long ? "action: longer than 64 bytes" : "out of memory");
        return 2;
    }
    sn_action a = sn_action_parse(s);
    if (a == SN_ACT_NONE) {
        set_error("'%s' is not an action (see the catalogue's \"actions\")", s);
        sn_free(s);
        return 2;
    }
    sn_free(s);
    if (!ensure_open())
        return 2;
    return act(a) ? 1 : 0;
}

int snw_tick(double dt_ms)
{
    return sn_session_tick(&E.ses, dt_ms) ? 1 : 0;
}

int snw_busy(void)
{
    return sn_session_busy(&E.ses) ? 1 : 0;
}

int snw_step_to(size_t k)
{
    E.err[0] = '\0';
    if (!ensure_open())
        return 3;
    sn_group_step_to(&E.ses.group, k);
    return 0;
}

/* ---- the pointer (device pixels of the last frame) */

int snw_pointer(int kind, double x, double y)
{
    if (kind < SN_POINTER_PRESS || kind > SN_POINTER_CANCEL)
        return 0;
    return sn_session_pointer(&E.ses, (sn_pointer_kind)kind, x, y) ? 1 : 0;
}

int snw_wheel(double x, double y, double notches)
{
    return sn_session_wheel(&E.ses, x, y, notches) ? 1 : 0;
}

/* ---- the frame and its packing */

static bool grow(double **a, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t cap2 = *cap ? *cap : 1024, bytes;
    while (cap2 < need)
        cap2 *= 2;
    if (!sn_mul_size(cap2, sizeof **a, &bytes))
        return false;
    double *na = sn_realloc(*a, bytes);
    if (!na)
        return false;
    *a = na;
    *cap = cap2;
    return true;
}

static sn_status pack_scene(const sn_scene *sc)
{
    size_t count = sn_scene_count(sc);
    E.style_count = 0;
    E.point_count = 0;
    sn_textbuf_clear(&E.strings);
    sn_textbuf_put(&E.strings, "", 0);
    if (!grow(&E.prims, &E.prim_cap, count * SNW_PRIM_STRIDE + 1))
        return SN_ENOMEM;
    size_t styles = 0;
    for (size_t i = 0; i < count; i++)
        if (sn_scene_at(sc, i)->style + (size_t)1 > styles)
            styles = sn_scene_at(sc, i)->style + (size_t)1;
    if (!grow(&E.styles, &E.style_cap, styles * SNW_STYLE_STRIDE + 1))
        return SN_ENOMEM;
    memset(E.styles, 0, (styles * SNW_STYLE_STRIDE + 1) * sizeof *E.styles);
    for (size_t i = 0; i < count; i++) {
        const sn_prim *p = sn_scene_at(sc, i);
        const sn_scene_style *s = sn_scene_style_of(sc, p);
        double *st = E.styles + (size_t)p->style * SNW_STYLE_STRIDE;
        st[0] = s->fill.r, st[1] = s->fill.g, st[2] = s->fill.b, st[3] = s->fill.a;
        st[4] = s->stroke.r, st[5] = s->stroke.g, st[6] = s->stroke.b, st[7] = s->stroke.a;
        st[8] = s->width, st[9] = s->dash_on, st[10] = s->dash_off;
        st[11] = s->cap, st[12] = s->join, st[13] = (double)s->flags;
        double *d = E.prims + i * SNW_PRIM_STRIDE;
        d[0] = p->kind, d[1] = (double)p->style, d[2] = (double)p->tag.role;
        d[3] = p->tag.wire, d[4] = p->tag.layer, d[5] = (double)p->tag.cmp;
        d[6] = p->x0, d[7] = p->y0, d[8] = p->x1, d[9] = p->y1;
        d[10] = p->r, d[11] = p->size, d[12] = p->base;
        d[13] = p->kind == SN_PRIM_NOTE ? p->note : p->weight;
        d[14] = 0, d[15] = 0;
        if (p->kind == SN_PRIM_POLY) {
            const sn_point *pt = sn_scene_points(sc, p);
            if (!grow(&E.points, &E.point_cap, 2 * (E.point_count + p->count) + 1))
                return SN_ENOMEM;
            d[14] = (double)E.point_count;
            d[15] = (double)p->count;
            for (size_t j = 0; j < p->count; j++) {
                E.points[2 * E.point_count] = pt[j].x;
                E.points[2 * E.point_count + 1] = pt[j].y;
                E.point_count++;
            }
        } else if (p->kind == SN_PRIM_TEXT || p->kind == SN_PRIM_NOTE) {
            const char *t = sn_scene_str(sc, p);
            size_t n = strlen(t);
            d[14] = (double)E.strings.len;
            d[15] = (double)n;
            sn_textbuf_put(&E.strings, t, n);
        }
    }
    E.style_count = styles;
    return E.strings.failed ? SN_ENOMEM : SN_OK;
}

int snw_frame(double w, double h, double s)
{
    E.err[0] = '\0';
    if (!(w >= 1 && h >= 1 && w <= 16384 && h <= 16384 && s > 0 && s <= 8)) {
        set_error("frame: %g x %g at %g: expected 1..16384 pixels a side and a factor in (0, 8]", w,
                  h, s);
        return 2;
    }
    if (!ensure_open())
        return 3;
    if (!E.scene && !(E.scene = sn_scene_create(w, h))) {
        set_error("out of memory");
        return 3;
    }
    sn_session_resize(&E.ses, w, h, s);
    sn_status st = sn_session_scene(&E.ses, E.scene);
    if (st == SN_OK)
        st = pack_scene(E.scene);
    if (st != SN_OK) {
        set_error("frame: %s", sn_status_str(st));
        return code_of(st);
    }
    return 0;
}

size_t snw_scene_count(void)
{
    return E.scene ? sn_scene_count(E.scene) : 0;
}

const double *snw_scene_prims(void)
{
    return E.prims;
}

size_t snw_scene_style_count(void)
{
    return E.style_count;
}

const double *snw_scene_styles(void)
{
    return E.styles;
}

const double *snw_scene_points(void)
{
    return E.points;
}

const char *snw_scene_strings(void)
{
    return E.strings.s ? E.strings.s : "";
}

size_t snw_scene_strings_len(void)
{
    return E.strings.len;
}

/* ---- state */

static const char *verdict_kind(sn_view_verdict v)
{
    switch (v) {
    case SN_VERDICT_CHECKING: return "checking";
    case SN_VERDICT_SORTS: return "sorts";
    case SN_VERDICT_FAILS: return "fails";
    case SN_VERDICT_UNKNOWN: return "unknown";
    case SN_VERDICT_NONE: break;
    }
    return "none";
}

/* A key as JSON: a number where the type prints one, else a string. */
static void json_key(sn_textbuf *b, const sn_view *v, uint32_t bits)
{
    char tmp[48];
    sn_key_format(v->type, bits, tmp, sizeof tmp);
    char *end = NULL;
    double d = strtod(tmp, &end);
    if (end && *end == '\0' && end != tmp && isfinite(d))
        sn_textbuf_str(b, tmp);
    else
        tb_json_str(b, tmp);
}

const char *snw_state(void)
{
    sn_textbuf *b = &E.state;
    sn_textbuf_clear(b);
    if (!ensure_open())
        return "{}";
    const sn_view *v = main_view();
    char buf[512];
    sn_textbuf_put(b, "{", 1);
    tb_json_key(b, "name", true);
    tb_json_str(b, v->name);
    tb_json_key(b, "n", false);
    sn_textbuf_printf(b, "%u", v->n);
    tb_json_key(b, "layers", false);
    sn_textbuf_printf(b, "%zu", v->layers);
    tb_json_key(b, "step", false);
    sn_textbuf_printf(b, "%zu", v->step);
    tb_json_key(b, "group_step", false);
    sn_textbuf_printf(b, "%zu", E.ses.group.count > 1 ? E.ses.group.step : v->step);
    tb_json_key(b, "size", false);
    sn_textbuf_printf(b, "%zu", sn_schedule_size(v->sched));
    tb_json_key(b, "depth", false);
    sn_textbuf_printf(b, "%zu", v->layers);
    tb_json_key(b, "values", false);
    sn_textbuf_put(b, "[", 1);
    const uint32_t *vals = sn_view_values(v);
    for (uint32_t i = 0; vals && i < v->n; i++) {
        if (i)
            sn_textbuf_put(b, ",", 1);
        json_key(b, v, vals[i]);
    }
    sn_textbuf_put(b, "]", 1);
    tb_json_key(b, "input", false);
    tb_json_str(b, sn_view_input_text(v, buf, sizeof buf));
    /* the input again as snw_set_input takes it, for the page's controls */
    tb_json_key(b, "input_spec", false);
    sn_textbuf_put(b, "\"", 1);
    sn_link_input_spec(v, b); /* digits, signs, points, 0/1: nothing to escape */
    sn_textbuf_put(b, "\"", 1);
    tb_json_key(b, "status", false);
    tb_json_str(b, sn_view_status_text(v, buf, sizeof buf));
    tb_json_key(b, "message", false);
    tb_json_str(b, v->message);
    tb_json_key(b, "message_error", false);
    sn_textbuf_str(b, v->message_error ? "true" : "false");
    tb_json_key(b, "playing", false);
    sn_textbuf_str(b, (E.ses.group.count > 1 ? E.ses.group.playing : v->playing) ? "true" : "false");
    tb_json_key(b, "edit", false);
    sn_textbuf_str(b, v->edit ? "true" : "false");
    tb_json_key(b, "verdict", false);
    tb_json_str(b, sn_view_verdict_text(v, buf, sizeof buf));
    bool current = v->edit && v->verdict_net == v->net_id;
    sn_view_verdict vk = current ? v->verdict : SN_VERDICT_NONE;
    tb_json_key(b, "verdict_kind", false);
    tb_json_str(b, verdict_kind(vk));
    tb_json_key(b, "cex", false);
    tb_json_str(b, vk == SN_VERDICT_FAILS ? v->cex : "");
    tb_json_key(b, "failing", false);
    sn_textbuf_printf(b, "%llu", vk == SN_VERDICT_FAILS ? (unsigned long long)v->failing : 0ull);
    tb_json_key(b, "redundant", false);
    sn_textbuf_put(b, "[", 1);
    for (size_t i = 0; current && i < v->redundant_count; i++)
        sn_textbuf_printf(b, "%s%zu", i ? "," : "", v->redundant[i]);
    sn_textbuf_put(b, "]", 1);
    tb_json_key(b, "size_text", false);
    tb_json_str(b, sn_view_size_text(v, buf, sizeof buf));
    tb_json_key(b, "sorted", false);
    uint32_t first;
    if (v->step == v->layers)
        sn_textbuf_str(b, sn_view_output_sorted(v, &first) ? "true" : "false");
    else
        sn_textbuf_str(b, "null");
    tb_json_key(b, "structure", false);
    sn_textbuf_str(b, v->structure ? "true" : "false");
    tb_json_key(b, "zero_one", false);
    sn_textbuf_str(b, v->zero_one ? "true" : "false");
    tb_json_key(b, "views", false);
    sn_textbuf_printf(b, "%zu", E.ses.group.count);
    tb_json_key(b, "can_undo", false);
    sn_textbuf_str(b, v->edit && v->hist_count && v->hist_pos > 0 ? "true" : "false");
    tb_json_key(b, "can_redo", false);
    sn_textbuf_str(b, v->edit && v->hist_pos + 1 < v->hist_count ? "true" : "false");
    tb_json_key(b, "selected", false);
    if (v->edit && v->sel_layer >= 0)
        sn_textbuf_printf(b, "[%ld,%ld]", v->sel_layer, v->sel_index);
    else
        sn_textbuf_str(b, "null");
    tb_json_key(b, "pending_wire", false);
    sn_textbuf_printf(b, "%ld", v->edit ? E.ses.pending_wire : -1L);
    tb_json_key(b, "follow", false);
    sn_textbuf_printf(b, "%ld", v->follow);
    tb_json_key(b, "unsaved", false);
    sn_textbuf_str(b, sn_view_unsaved(v) ? "true" : "false");
    /* the page's controls follow the picture's theme and speed */
    tb_json_key(b, "theme", false);
    sn_textbuf_str(b, v->theme == SN_THEME_DARK       ? "\"dark\""
                      : v->theme == SN_THEME_CONTRAST ? "\"contrast\""
                                                      : "\"light\"");
    tb_json_key(b, "speed", false);
    sn_textbuf_printf(b, "%u", v->speed);
    tb_json_key(b, "speeds", false);
    sn_textbuf_printf(b, "%d", SN_VIEW_SPEEDS);
    tb_json_key(b, "help", false);
    sn_textbuf_str(b, v->help ? "true" : "false");
    tb_json_key(b, "lesson", false);
    const sn_lesson *lesson = E.ses.lesson;
    if (lesson) {
        const sn_lesson_step *st = &lesson->steps[E.ses.lesson_step];
        sn_textbuf_put(b, "{", 1);
        tb_json_key(b, "title", true);
        tb_json_str(b, lesson->title);
        tb_json_key(b, "step", false);
        sn_textbuf_printf(b, "%zu", E.ses.lesson_step);
        tb_json_key(b, "count", false);
        sn_textbuf_printf(b, "%zu", lesson->count);
        tb_json_key(b, "step_title", false);
        tb_json_str(b, st->title);
        tb_json_key(b, "caption", false);
        tb_json_str(b, st->caption);
        sn_textbuf_put(b, "}", 1);
    } else {
        sn_textbuf_str(b, "null");
    }
    tb_json_key(b, "exercise", false);
    snw_exercise_json(b);
    sn_textbuf_put(b, "}", 1);
    return b->failed ? "{}" : b->s;
}

/* ---- the catalogue */

static const struct {
    const char *name, *describe; /* describe NULL: sn_algo_describe */
} generators[] = {
    {"bitonic", NULL},
    {"oddeven-merge", NULL},
    {"transposition", NULL},
    {"pairwise", NULL},
    {"bubble", NULL},
    {"insertion", NULL},
    {"bitonic-classic", NULL},
    {"bose-nelson", NULL},
    {"hibbard", NULL},
    {"merge-exchange", NULL},
    {"balanced", NULL},
    {"bitonic-pad", NULL},
    {"oddeven-merge-pad", NULL},
    {"bitonic-merge", "a bitonic merger: sorts a bitonic sequence"},
    {"half-cleaner", "one half-cleaner layer of a bitonic merger"},
    {"empty", "N wires and no comparators: build your own (opens in edit mode)"},
};

const char *snw_catalog(void)
{
    sn_textbuf *b = &E.catalog;
    if (b->len && !b->failed)
        return b->s; /* it never changes */
    sn_textbuf_clear(b);
    sn_textbuf_str(b, "{\"generators\":[");
    for (size_t i = 0; i < sizeof generators / sizeof generators[0]; i++) {
        sn_algo a;
        const char *d = generators[i].describe;
        if (!d)
            d = sn_algo_resolve(generators[i].name, 16, &a) ? sn_algo_describe(a, 16) : "";
        sn_textbuf_str(b, i ? ",{" : "{");
        tb_json_key(b, "name", true);
        tb_json_str(b, generators[i].name);
        tb_json_key(b, "describe", false);
        tb_json_str(b, d ? d : "");
        sn_textbuf_put(b, "}", 1);
    }
    sn_textbuf_put(b, "]", 1);
    uint32_t lo = 0, hi = 0;
    sn_library_best_range(&lo, &hi);
    sn_textbuf_printf(b, ",\"best\":[%u,%u]", lo, hi);
    uint32_t mlo = 0, mhi = 0;
    for (uint32_t n = 1; n <= 64; n++) {
        if (sn_library_median(n) != SN_LIBRARY_NONE) {
            if (!mlo)
                mlo = n;
            mhi = n;
        }
    }
    sn_textbuf_printf(b, ",\"median\":[%u,%u]", mlo, mhi);
    sn_textbuf_str(b, ",\"lessons\":[");
    size_t k = 0;
    for (const sn_lesson_source *l = sn_lesson_sources; l->name; l++) {
        sn_lesson *les = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        const char *title = "";
        if (sn_lesson_parse(l->text, l->name, &les, &d) == SN_OK)
            title = les->title;
        sn_textbuf_str(b, k++ ? ",{" : "{");
        tb_json_key(b, "name", true);
        tb_json_str(b, l->name);
        tb_json_key(b, "title", false);
        tb_json_str(b, title);
        sn_textbuf_put(b, "}", 1);
        sn_lesson_free(les);
    }
    sn_textbuf_printf(b, "],\"max_n\":%u,\"zero_one_max_n\":%u", SNW_MAX_N, SN_VIEW_ZERO_ONE_MAX_N);
    sn_textbuf_str(b,
                   ",\"formats\":[\"bracket\",\"json\",\"sn\"],\"exports\":[\"bracket\",\"json\","
                   "\"sn\",\"svg\"],\"json_reader\":");
    sn_textbuf_str(b, sn_format_have_json() ? "true" : "false");
    sn_textbuf_str(b, ",\"actions\":[");
    size_t named = 0;
    for (int a = SN_ACT_NONE + 1; a < SN_ACT_COUNT; a++) {
        const char *name = sn_action_name((sn_action)a);
        if (!name || !name[0] || strcmp(name, "none") == 0)
            continue;
        if (named++)
            sn_textbuf_put(b, ",", 1);
        tb_json_str(b, name);
    }
    sn_textbuf_str(b, "]}");
    if (b->failed) {
        sn_textbuf_clear(b);
        return "{}";
    }
    return b->s;
}

/* ---- export */

/* The shown network of view 0 (edited: the version shown), new. */
static sn_network *shown_network(sn_diag *d)
{
    const sn_view *v = main_view();
    if (v->hist_count)
        return sn_network_clone(v->hist[v->hist_pos]);
    sn_network *net = NULL;
    return sn_schedule_to_network(v->sched, &net, d) == SN_OK ? net : NULL;
}

const char *snw_export(const char *format, size_t len)
{
    E.err[0] = '\0';
    sn_textbuf *b = &E.exported;
    sn_textbuf_clear(b);
    char name[16];
    if (!format || len >= sizeof name) {
        set_error("export: unknown format (bracket, json, sn or svg)");
        return NULL;
    }
    memcpy(name, format, len);
    name[len] = '\0';
    if (!ensure_open())
        return NULL;
    sn_diag d;
    sn_diag_clear(&d);
    if (strcmp(name, "svg") == 0) {
        sn_scene *sc = sn_scene_create(1, 1);
        char *svg = NULL;
        sn_status st = sc ? sn_frame_scene_diagram(E.ses.frames[0], main_view(), sc, &d) : SN_ENOMEM;
        if (st == SN_OK)
            st = sn_scene_svg(sc, &svg, NULL);
        sn_scene_destroy(sc);
        if (st != SN_OK) {
            set_error("export svg: %s", sn_diag_text(&d, st));
            return NULL;
        }
        sn_textbuf_str(b, svg);
        sn_free(svg);
        if (b->failed) {
            set_error("export svg: out of memory");
            return NULL;
        }
        return b->s;
    }
    sn_format f;
    if (!sn_format_parse(name, &f) || f == SN_FORMAT_UNKNOWN) {
        set_error("export: '%s' is not a format (bracket, json, sn or svg)", name);
        return NULL;
    }
    sn_network *net = shown_network(&d);
    if (!net) {
        set_error("export: %s", d.text[0] ? d.text : "out of memory");
        return NULL;
    }
    char *mem = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&mem, &size);
    sn_status st = out ? sn_network_write(net, f, out, &d) : SN_ENOMEM;
    sn_network_destroy(net);
    if (out && fclose(out) != 0 && st == SN_OK)
        st = SN_ENOMEM;
    if (st == SN_OK)
        sn_textbuf_put(b, mem ? mem : "", mem ? size : 0);
    free(mem);
    if (st != SN_OK || b->failed) {
        set_error("export %s: %s", name, d.text[0] ? d.text : "out of memory");
        return NULL;
    }
    return b->s ? b->s : "";
}

/* ---- the verdict's worker */

const char *snw_check_text(const char *text, size_t len)
{
    char *answer = NULL;
    if (sn_verdict_check_text(text ? text : "", text ? len : 0, &answer) != SN_OK)
        return "v1 error out of memory";
    sn_textbuf_clear(&E.check);
    sn_textbuf_str(&E.check, answer);
    sn_free(answer);
    return E.check.failed ? "v1 error out of memory" : E.check.s;
}

int snw_verdict_deliver(uint32_t id, const char *answer, size_t len)
{
    if (!E.ses.open || !answer)
        return 0;
    for (size_t i = 0; i < E.ses.group.count; i++) {
        sn_view *v = &E.ses.group.view[i];
        if (v->worker && sn_verdict_deliver(v->worker, id, answer, len)) {
            sn_view_tick(v, 0); /* take it now: the page redraws */
            return 1;
        }
    }
    return 0;
}
