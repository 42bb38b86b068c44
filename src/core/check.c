/* check.c - the 0-1 checker's entry points: choosing a method, refusing
 * work that would take too long, and turning a method's outcome (smallest
 * failing input, swap flags) into the result the user sees. */
#include "core/check_impl.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "core/alloc.h"
#include "core/check_api.h"

/* Brute force refuses (without force) beyond this many estimated seconds. */
#define BF_MAX_SECONDS 60.0
/* auto: brute force up to this n (2^24 inputs take milliseconds). */
#define AUTO_BF_MAX_N 24

const char *sn_check_method_name(sn_check_method m)
{
    switch (m) {
    case SN_CHECK_AUTO: return "auto";
    case SN_CHECK_BRUTEFORCE: return "bruteforce";
    case SN_CHECK_REDUCE: return "reduce";
    case SN_CHECK_SPLIT: return "split";
    }
    return "?";
}

bool sn_check_method_parse(const char *s, sn_check_method *out)
{
    static const struct {
        const char *name;
        sn_check_method m;
    } names[] = {{"auto", SN_CHECK_AUTO},
                 {"bruteforce", SN_CHECK_BRUTEFORCE},
                 {"brute-force", SN_CHECK_BRUTEFORCE},
                 {"bf", SN_CHECK_BRUTEFORCE},
                 {"reduce", SN_CHECK_REDUCE},
                 {"reduction", SN_CHECK_REDUCE},
                 {"split", SN_CHECK_SPLIT}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strcmp(s, names[i].name) == 0) {
            *out = names[i].m;
            return true;
        }
    }
    return false;
}

void sn_check_options_init(sn_check_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->method = SN_CHECK_AUTO;
}

double check_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool check_cancelled(const check_ctx *c)
{
    return sn_cancel_requested(c->cancel);
}

void check_progress(check_ctx *c, double fraction)
{
    if (!c->progress)
        return;
    double now = check_now();
    if (now - c->last_progress < 0.1)
        return;
    c->last_progress = now;
    double spent = now - c->t0;
    double eta = fraction > 0.001 ? spent * (1.0 - fraction) / fraction : -1.0;
    c->progress(fraction, eta, c->progress_user);
}

void sn_check_result_free(sn_check_result *res)
{
    if (!res)
        return;
    sn_free(res->counterexample);
    sn_free(res->output);
    sn_free(res->redundant);
    res->counterexample = res->output = NULL;
    res->redundant = NULL;
    res->redundant_count = 0;
}

static void ctx_free(check_ctx *c)
{
    sn_free(c->cmp);
    sn_free(c->layer_off);
}

static sn_status ctx_init(check_ctx *c, const sn_network *net, const sn_check_options *opt)
{
    memset(c, 0, sizeof *c);
    c->n = sn_network_wires(net);
    c->ncmp = sn_network_size(net);
    c->nlayers = sn_network_layer_count(net);
    c->layer_off = sn_calloc(c->nlayers + 1, sizeof *c->layer_off);
    c->cmp = sn_calloc(c->ncmp ? c->ncmp : 1, sizeof *c->cmp);
    if (!c->layer_off || !c->cmp) {
        ctx_free(c);
        return SN_ENOMEM;
    }
    size_t j = 0;
    for (size_t k = 0; k < c->nlayers; k++) {
        size_t count;
        const sn_comparator *l = sn_network_layer(net, k, &count);
        c->layer_off[k] = j;
        memcpy(c->cmp + j, l, count * sizeof *l);
        j += count;
    }
    c->layer_off[c->nlayers] = j;
    c->threads = opt->threads ? opt->threads : sn_parallel_cpus();
    c->force = opt->force;
    c->progress = opt->progress;
    c->progress_user = opt->progress_user;
    c->cancel = opt->cancel;
    c->t0 = check_now();
    c->last_progress = c->t0;
    return SN_OK;
}

/* Run the smallest failing input through the network one comparator at a
 * time: an independent path to the output the user is shown. */
static sn_status fill_counterexample(const check_ctx *c, uint64_t x, sn_check_result *res)
{
    uint32_t n = c->n;
    res->counterexample = sn_calloc(n, 1);
    res->output = sn_calloc(n, 1);
    if (!res->counterexample || !res->output)
        return SN_ENOMEM;
    for (uint32_t i = 0; i < n; i++)
        res->counterexample[i] = res->output[i] = (uint8_t)((x >> i) & 1u);
    for (size_t j = 0; j < c->ncmp; j++) {
        uint8_t *va = &res->output[c->cmp[j].a], *vb = &res->output[c->cmp[j].b];
        if (*va > *vb) {
            uint8_t t = *va;
            *va = *vb;
            *vb = t;
        }
    }
    res->counterexample_index = x;
    res->first_unsorted = 0;
    for (uint32_t i = 0; i + 1 < n; i++) {
        if (res->output[i] > res->output[i + 1]) {
            res->first_unsorted = i;
            break;
        }
    }
    return SN_OK;
}

static sn_status fill_redundant(const check_ctx *c, const uint8_t *swapped, sn_check_result *res)
{
    size_t count = 0;
    for (size_t j = 0; j < c->ncmp; j++)
        count += !swapped[j];
    res->redundant_count = count;
    if (count == 0)
        return SN_OK;
    res->redundant = sn_calloc(count, sizeof *res->redundant);
    if (!res->redundant)
        return SN_ENOMEM;
    size_t k = 0;
    for (size_t j = 0; j < c->ncmp; j++)
        if (!swapped[j])
            res->redundant[k++] = j;
    return SN_OK;
}

double check_bf_estimate(const check_ctx *c)
{
    /* About 1.5e11 comparator-inputs per second and core (bench_check, a
     * 2-core x86-64 without AVX2); + 1 for the per-block overhead. */
    return ldexp(1.0, (int)c->n) * ((double)c->ncmp + 8.0) / (1.5e11 * (double)c->threads);
}

static sn_status run_bf(check_ctx *c, check_outcome *o, sn_diag *diag)
{
    if (c->n > 64)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "brute force over 2^%u inputs is impossible (n <= 64)", c->n);
    double est = check_bf_estimate(c);
    if (!c->force && est > BF_MAX_SECONDS)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "brute force over 2^%u = %.3g inputs would take about %.3g s on %u "
                           "thread(s); refusing without force",
                           c->n, ldexp(1.0, (int)c->n), est, c->threads);
    return check_bruteforce(c, o, diag);
}

/* auto's probe on 25..64 wires: the reduction with these limits first
 * (milliseconds); past them the split is tried, then the reduction in
 * full. Networks whose pattern sets grow like 2^n (insertion:64) reach the
 * split before the reduction has spent seconds and gigabytes. */
#define PROBE_MAX_SET ((size_t)1 << 16)
#define PROBE_MAX_PRODUCT ((double)(1u << 22))
#define PROBE_STREAM_SECONDS 1.0

static void outcome_reset(check_ctx *c, check_outcome *o)
{
    memset(o->swapped, 0, c->ncmp ? c->ncmp : 1);
    o->failing_count = 0;
    o->min_failing = 0;
    o->inputs = 0;
    o->max_patterns = 0;
}

/* The reduction's probe, then the split: SN_OK with *decided when the
 * probe (o) or the split (res, method split) gave the verdict; SN_ELIMIT
 * when neither could (split_why: why the split could not). */
static sn_status probe_then_split(check_ctx *c, const sn_network *net, const sn_check_options *opt,
                                  check_outcome *o, sn_check_result *res, bool *by_split,
                                  sn_diag *split_why, sn_diag *diag)
{
    c->reduce_max_set = PROBE_MAX_SET;
    c->reduce_max_product = PROBE_MAX_PRODUCT;
    c->reduce_max_stream_seconds = PROBE_STREAM_SECONDS;
    sn_status st = check_reduce(c, o, diag);
    c->reduce_max_set = 0;
    c->reduce_max_product = 0.0;
    c->reduce_max_stream_seconds = 0.0;
    if (st != SN_ELIMIT)
        return st;
    st = check_split_once(net, opt, res, split_why, 0);
    if (st == SN_OK) {
        *by_split = true;
        return SN_OK;
    }
    if (st != SN_ELIMIT) {
        if (diag && split_why)
            *diag = *split_why;
        return st;
    }
    memset(res, 0, sizeof *res);
    res->n = c->n;
    outcome_reset(c, o);
    return SN_ELIMIT;
}

sn_status sn_check_run(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                       sn_diag *diag)
{
    sn_api_check(net != NULL && res != NULL);
    return check_run(net, opt, res, diag, true);
}

sn_status check_run(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                    sn_diag *diag, bool try_split)
{
    sn_check_options defaults;
    if (!opt) {
        sn_check_options_init(&defaults);
        opt = &defaults;
    }
    memset(res, 0, sizeof *res);
    if (!net)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "no network");
    if (sn_network_wires(net) > 64 &&
        (opt->method == SN_CHECK_AUTO || opt->method == SN_CHECK_SPLIT))
        return check_split(net, opt, res, diag, 0);
    if (opt->method == SN_CHECK_SPLIT) {
        sn_check_options o = *opt;
        o.method = SN_CHECK_AUTO; /* 64 wires or fewer: nothing to split */
        return check_run(net, &o, res, diag, try_split);
    }
    check_ctx c;
    sn_status st = ctx_init(&c, net, opt);
    if (st != SN_OK)
        return sn_diag_set(diag, st, 0, 0, "out of memory");
    res->n = c.n;
    check_outcome o;
    memset(&o, 0, sizeof o);
    o.swapped = sn_calloc(c.ncmp ? c.ncmp : 1, 1);
    if (!o.swapped) {
        ctx_free(&c);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }

    sn_check_method m = opt->method;
    bool by_split = false;
    if (m == SN_CHECK_AUTO) {
        if (c.n <= AUTO_BF_MAX_N) {
            m = SN_CHECK_BRUTEFORCE;
            st = run_bf(&c, &o, diag);
        } else {
            m = SN_CHECK_REDUCE;
            sn_diag split_why;
            sn_diag_clear(&split_why);
            st = SN_ELIMIT;
            if (try_split && !c.force)
                st = probe_then_split(&c, net, opt, &o, res, &by_split, &split_why, diag);
            if (st == SN_ELIMIT)
                st = check_reduce(&c, &o, diag);
            /* The pattern sets grew too large: brute force may still be
             * feasible (n up to ~36). */
            if (st == SN_ELIMIT && c.n <= 64) {
                sn_diag rdiag;
                sn_diag_clear(&rdiag);
                if (diag)
                    rdiag = *diag;
                outcome_reset(&c, &o);
                double est = check_bf_estimate(&c);
                if (c.force || est <= BF_MAX_SECONDS) {
                    m = SN_CHECK_BRUTEFORCE;
                    st = check_bruteforce(&c, &o, diag);
                } else if (diag) {
                    sn_diag_set(diag, SN_ELIMIT, 0, 0,
                                "%s%s%s; brute force would take more than a minute", rdiag.text,
                                split_why.text[0] ? "; " : "", split_why.text);
                }
            }
        }
    } else if (m == SN_CHECK_BRUTEFORCE) {
        st = run_bf(&c, &o, diag);
    } else {
        st = check_reduce(&c, &o, diag);
    }

    if (st == SN_OK && by_split) {
        res->seconds = check_now() - c.t0; /* the probe included */
    } else if (st == SN_OK) {
        res->method = m;
        res->sorts = o.failing_count == 0;
        res->failing_count = o.failing_count;
        res->inputs = o.inputs;
        res->max_patterns = o.max_patterns;
        st = fill_redundant(&c, o.swapped, res);
        if (st == SN_OK && !res->sorts)
            st = fill_counterexample(&c, o.min_failing, res);
        if (st != SN_OK) {
            sn_check_result_free(res);
            sn_diag_set(diag, st, 0, 0, "out of memory");
        }
        res->seconds = check_now() - c.t0;
    }
    sn_free(o.swapped);
    ctx_free(&c);
    return st;
}

double sn_check_bruteforce_seconds(const sn_network *net, unsigned threads)
{
    /* the estimate of check_bf_estimate without building the context */
    check_ctx c;
    memset(&c, 0, sizeof c);
    c.n = sn_network_wires(net);
    c.ncmp = sn_network_size(net);
    c.threads = threads ? threads : sn_parallel_cpus();
    return check_bf_estimate(&c);
}

sn_status sn_check_quick(const sn_network *net, bool *sorts, size_t **redundant,
                         size_t *redundant_count, sn_diag *diag)
{
    sn_check_result res;
    sn_status st = sn_check_run(net, NULL, &res, diag);
    if (st != SN_OK)
        return st;
    *sorts = res.sorts;
    *redundant = res.redundant;
    *redundant_count = res.redundant_count;
    res.redundant = NULL;
    sn_check_result_free(&res);
    return SN_OK;
}
