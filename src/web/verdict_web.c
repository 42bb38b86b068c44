/* verdict_web.c - the live verdict of edit mode without threads, for the
 * page (the API of verdict.h). Starting a job writes the network as text
 * and offers it to the page (js_verdict_start); a Web Worker
 * runs sn_verdict_check_text on it in its own instance of the module and
 * the page hands the answer back (sn_verdict_deliver). When no worker took
 * the job, or a caller must wait (lessons and scripts settle this way),
 * the check runs here, in the caller, at take(). The text is in the sn
 * format (libsortnetwork's), which says how many wires there are: bracket
 * text loses idle wires and an empty network's n, and so the verdict.
 *
 * Invariant: at most one job (`running`); a delivered answer counts only
 * when it carries the running job's js_id, so an answer of a cancelled or
 * replaced job is never seen. js ids are unique in the module (a counter),
 * not the view's own ids, which several views and reopened views share. */
#include "web/verdict_web.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/textbuf.h"

#if defined(__wasm__)
__attribute__((import_module("env"), import_name("js_verdict_start"))) int
js_verdict_start(uint32_t id, const char *text, size_t len);
__attribute__((import_module("env"), import_name("js_verdict_cancel"))) void
js_verdict_cancel(void);
void sn_verdict_set_starter(sn_verdict_starter fn)
{
    (void)fn;
}
#else
static sn_verdict_starter starter;
void sn_verdict_set_starter(sn_verdict_starter fn)
{
    starter = fn;
}
static int js_verdict_start(uint32_t id, const char *text, size_t len)
{
    return starter ? starter(id, text, len) : 0;
}
static void js_verdict_cancel(void)
{
}
#endif

struct sn_verdict {
    bool running;    /* a job exists and its result was not taken */
    bool worker;     /* the page's worker took it */
    bool delivered;  /* its answer is in res */
    uint32_t js_id;  /* the job's id towards the page */
    sn_network *net; /* the job's network (owned) until checked */
    sn_verdict_result res;
};

static uint32_t next_js_id;

sn_verdict *sn_verdict_create(void)
{
    return sn_calloc(1, sizeof(sn_verdict));
}

static void drop(sn_verdict *w)
{
    sn_network_destroy(w->net);
    w->net = NULL;
    sn_check_result_free(&w->res.check);
    memset(&w->res, 0, sizeof w->res);
    w->running = w->worker = w->delivered = false;
}

void sn_verdict_cancel(sn_verdict *w)
{
    if (!w || !w->running)
        return;
    if (w->worker && !w->delivered)
        js_verdict_cancel();
    drop(w);
}

void sn_verdict_destroy(sn_verdict *w)
{
    if (!w)
        return;
    sn_verdict_cancel(w);
    sn_free(w);
}

/* The network as sn text (sn_malloc'd, NUL-terminated), or NULL. */
static char *network_text(const sn_network *net, size_t *len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_network_write(net, SN_FORMAT_SN, f, &d);
    if (fclose(f) != 0 || st != SN_OK) {
        free(buf);
        return NULL;
    }
    char *out = sn_malloc(size + 1);
    if (out) {
        memcpy(out, buf, size);
        out[size] = '\0';
        *len = size;
    }
    free(buf);
    return out;
}

sn_status sn_verdict_start(sn_verdict *w, sn_network *net, uint64_t id)
{
    sn_verdict_cancel(w);
    if (!net)
        return SN_ENOMEM;
    memset(&w->res, 0, sizeof w->res);
    w->res.id = id;
    w->net = net;
    w->running = true;
    w->js_id = ++next_js_id;
    if (w->js_id == 0)
        w->js_id = ++next_js_id;
    size_t len = 0;
    char *text = network_text(net, &len);
    w->worker = text && js_verdict_start(w->js_id, text, len) == 1;
    sn_free(text);
    return SN_OK;
}

bool sn_verdict_pending(const sn_verdict *w)
{
    return w && w->running;
}

double sn_verdict_progress(sn_verdict *w)
{
    (void)w;
    return 0;
}

/* Run the check here, into w->res. */
static void check_here(sn_verdict *w)
{
    sn_check_options opt;
    sn_check_options_init(&opt);
    sn_diag d;
    sn_diag_clear(&d);
    sn_check_result res;
    memset(&res, 0, sizeof res);
    sn_status st = sn_check_run(w->net, &opt, &res, &d);
    w->res.status = st;
    if (st == SN_OK)
        w->res.check = res;
    else
        snprintf(w->res.why, sizeof w->res.why, "%.250s", sn_diag_text(&d, st));
    w->delivered = true;
}

bool sn_verdict_take(sn_verdict *w, bool wait, sn_verdict_result *out)
{
    if (!w || !w->running)
        return false;
    if (!w->delivered) {
        if (w->worker && !wait)
            return false; /* the worker is on it */
        if (w->worker)
            js_verdict_cancel(); /* answered here; the worker's answer is dropped */
        check_here(w);
    }
    *out = w->res;
    memset(&w->res, 0, sizeof w->res);
    sn_network_destroy(w->net);
    w->net = NULL;
    w->running = w->worker = w->delivered = false;
    return true;
}

bool sn_verdict_deliver(sn_verdict *w, uint32_t js_id, const char *answer, size_t len)
{
    if (!w || !w->running || w->delivered || js_id != w->js_id)
        return false;
    uint64_t id = w->res.id;
    sn_verdict_result r;
    if (!sn_verdict_parse_answer(answer, len, &r)) {
        memset(&r, 0, sizeof r);
        r.status = SN_EINVAL;
        snprintf(r.why, sizeof r.why, "the page's checker gave no answer");
    }
    r.id = id;
    w->res = r;
    w->delivered = true;
    return true;
}

/* ---- the answer line */

static void add_u64(sn_textbuf *l, unsigned long long v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%llu", v);
    sn_textbuf_put(l, tmp, (size_t)n);
}

static sn_status finish(sn_textbuf *l, char **answer)
{
    if (l->failed) {
        sn_free(l->s);
        *answer = NULL;
        return SN_ENOMEM;
    }
    *answer = l->s;
    return SN_OK;
}

static sn_status error_answer(const char *why, char **answer)
{
    sn_textbuf l = SN_TEXTBUF_INIT;
    sn_textbuf_str(&l, "v1 error ");
    for (const char *p = why; *p; p++)
        sn_textbuf_put(&l, *p == '\n' || *p == '\r' ? " " : p, 1);
    return finish(&l, answer);
}

sn_status sn_verdict_check_text(const char *text, size_t len, char **answer)
{
    *answer = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_network *net = NULL;
    sn_status st = sn_network_parse(text, len, SN_FORMAT_UNKNOWN, &net, &d);
    if (st == SN_ENOMEM)
        return st;
    if (st != SN_OK)
        return error_answer(sn_diag_text(&d, st), answer);
    sn_check_options opt;
    sn_check_options_init(&opt);
    sn_check_result res;
    memset(&res, 0, sizeof res);
    st = sn_check_run(net, &opt, &res, &d);
    sn_network_destroy(net);
    if (st == SN_ENOMEM)
        return st;
    if (st != SN_OK)
        return error_answer(sn_diag_text(&d, st), answer);
    sn_textbuf l = SN_TEXTBUF_INIT;
    sn_textbuf_str(&l, res.sorts ? "v1 ok 1 " : "v1 ok 0 ");
    add_u64(&l, res.n);
    sn_textbuf_str(&l, " ");
    add_u64(&l, res.failing_count);
    sn_textbuf_str(&l, " ");
    if (res.sorts || !res.counterexample) {
        sn_textbuf_str(&l, "-");
    } else {
        for (uint32_t i = 0; i < res.n; i++)
            sn_textbuf_str(&l, res.counterexample[i] ? "1" : "0");
    }
    sn_textbuf_str(&l, " ");
    if (res.redundant_unknown) {
        sn_textbuf_str(&l, "?");
    } else if (res.redundant_count == 0) {
        sn_textbuf_str(&l, "-");
    } else {
        for (size_t i = 0; i < res.redundant_count; i++) {
            if (i)
                sn_textbuf_str(&l, ",");
            add_u64(&l, res.redundant[i]);
        }
    }
    sn_check_result_free(&res);
    return finish(&l, answer);
}

/* The next blank-separated word of [*p, end): its start and length. */
static bool word(const char **p, const char *end, const char **w, size_t *n)
{
    while (*p < end && **p == ' ')
        (*p)++;
    *w = *p;
    while (*p < end && **p != ' ')
        (*p)++;
    *n = (size_t)(*p - *w);
    return *n > 0;
}

/* A decimal number that is the whole word. */
static bool number(const char *w, size_t n, unsigned long long max, unsigned long long *out)
{
    if (n == 0 || n > 20)
        return false;
    unsigned long long v = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] < '0' || w[i] > '9')
            return false;
        unsigned d = (unsigned)(w[i] - '0');
        if (v > (max - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool is_word(const char *w, size_t n, const char *lit)
{
    return n == strlen(lit) && memcmp(w, lit, n) == 0;
}

bool sn_verdict_parse_answer(const char *answer, size_t len, sn_verdict_result *out)
{
    memset(out, 0, sizeof *out);
    const char *p = answer, *end = answer + len, *w;
    size_t n;
    while (end > p && (end[-1] == '\n' || end[-1] == '\r'))
        end--;
    if (!word(&p, end, &w, &n) || !is_word(w, n, "v1") || !word(&p, end, &w, &n))
        return false;
    if (is_word(w, n, "error")) {
        while (p < end && *p == ' ')
            p++;
        out->status = SN_EINVAL;
        size_t why = (size_t)(end - p);
        if (why >= sizeof out->why)
            why = sizeof out->why - 1;
        memcpy(out->why, p, why);
        out->why[why] = '\0';
        return true;
    }
    if (!is_word(w, n, "ok"))
        return false;
    unsigned long long sorts, wires, failing;
    if (!word(&p, end, &w, &n) || !number(w, n, 1, &sorts) || !word(&p, end, &w, &n) ||
        !number(w, n, 1u << 20, &wires) || !word(&p, end, &w, &n) ||
        !number(w, n, UINT64_MAX, &failing))
        return false;
    sn_check_result *r = &out->check;
    r->n = (uint32_t)wires;
    r->sorts = sorts == 1;
    r->failing_count = failing;
    if (!word(&p, end, &w, &n))
        return false;
    if (!r->sorts) {
        if (n != wires)
            return false;
        r->counterexample = sn_calloc(n ? n : 1, 1);
        if (!r->counterexample)
            return false;
        for (size_t i = 0; i < n; i++) {
            if (w[i] != '0' && w[i] != '1') {
                sn_check_result_free(r);
                return false;
            }
            r->counterexample[i] = (uint8_t)(w[i] == '1');
        }
    }
    if (!word(&p, end, &w, &n)) {
        sn_check_result_free(r);
        return false;
    }
    if (is_word(w, n, "?")) {
        r->redundant_unknown = true;
    } else if (!is_word(w, n, "-")) {
        size_t count = 1;
        for (size_t i = 0; i < n; i++)
            count += w[i] == ',';
        r->redundant = sn_calloc(count, sizeof *r->redundant);
        if (!r->redundant) {
            sn_check_result_free(r);
            return false;
        }
        const char *q = w, *qe = w + n;
        for (size_t i = 0; i < count; i++) {
            const char *c = memchr(q, ',', (size_t)(qe - q));
            size_t k = (size_t)((c ? c : qe) - q);
            unsigned long long v;
            if (!number(q, k, SIZE_MAX, &v)) {
                sn_check_result_free(r);
                return false;
            }
            r->redundant[i] = (size_t)v;
            q = c ? c + 1 : qe;
        }
        r->redundant_count = count;
    }
    out->status = SN_OK;
    return true;
}
