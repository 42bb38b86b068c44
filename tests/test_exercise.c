/* test_exercise.c - core/exercise: every kind made from fixed seeds and
 * graded right and wrong, against answers this test works out itself by
 * running the comparators by hand (not through the executor or checker
 * the module grades with); determinism per (kind, seed, n); malformed
 * answers and bad n refused with a message. */
#include <stdint.h>
#include <string.h>

#include "core/alloc.h"
#include "core/exercise.h"
#include "sn_test.h"

/* ---- the test's own simulation */

static void run(const sn_network *net, size_t from, size_t to, uint32_t *v)
{
    for (size_t k = from; k < to && k < sn_network_layer_count(net); k++) {
        size_t c = 0;
        const sn_comparator *l = sn_network_layer(net, k, &c);
        for (size_t i = 0; i < c; i++)
            if (v[l[i].a] > v[l[i].b]) {
                uint32_t t = v[l[i].a];
                v[l[i].a] = v[l[i].b];
                v[l[i].b] = t;
            }
    }
}

static bool is_sorted(const uint32_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (v[i - 1] > v[i])
            return false;
    return true;
}

/* The smallest failing 0-1 input as bits text; false when it sorts. */
static bool failing_bits(const sn_network *net, char *bits)
{
    uint32_t n = sn_network_wires(net), v[SN_EXERCISE_MAX_N];
    for (uint64_t x = 0; x < ((uint64_t)1 << n); x++) {
        for (uint32_t i = 0; i < n; i++)
            v[i] = (uint32_t)(x >> i) & 1u;
        run(net, 0, sn_network_layer_count(net), v);
        if (!is_sorted(v, n)) {
            for (uint32_t i = 0; i < n; i++)
                bits[i] = (char)('0' + ((x >> i) & 1u));
            bits[n] = '\0';
            return true;
        }
    }
    return false;
}

static void values_text(const uint32_t *v, uint32_t n, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (uint32_t i = 0; i < n; i++)
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s%u", i ? "," : "", v[i]);
}

static bool grade(const sn_exercise *e, const char *answer, bool *right)
{
    sn_exercise_grade g;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_exercise_check(e, answer, &g, &d);
    if (st != SN_OK) {
        fprintf(stderr, "answer '%s' to %s seed %llu: %s\n", answer,
                sn_exercise_kind_name(e->kind), (unsigned long long)e->seed, d.text);
        return false;
    }
    CHECK(g.explain[0] != '\0');
    *right = g.right;
    return true;
}

static sn_exercise *make(sn_exercise_kind k, uint64_t seed, uint32_t n)
{
    sn_exercise *e = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_exercise_make(k, seed, n, &e, &d);
    CHECKF(st == SN_OK, "%s seed %llu n %u: %s", sn_exercise_kind_name(k),
           (unsigned long long)seed, n, d.text);
    return st == SN_OK ? e : NULL;
}

static void test_predict(uint64_t seed, uint32_t n)
{
    sn_exercise *e = make(SN_EXERCISE_PREDICT, seed, n);
    if (!e)
        return;
    uint32_t v[SN_EXERCISE_MAX_N];
    memcpy(v, e->input, e->n * sizeof *v);
    CHECK(e->at < sn_network_layer_count(e->net));
    run(e->net, 0, e->at + 1, v);
    char buf[256];
    values_text(v, e->n, buf, sizeof buf);
    bool right = false;
    CHECK(grade(e, buf, &right) && right);
    /* a wrong array: two wires exchanged */
    uint32_t t = v[0];
    v[0] = v[e->n - 1];
    v[e->n - 1] = t;
    values_text(v, e->n, buf, sizeof buf);
    CHECK(grade(e, buf, &right) && !right);
    /* the array before the layer is wrong when the layer moves something */
    memcpy(v, e->input, e->n * sizeof *v);
    run(e->net, 0, e->at, v);
    uint32_t w[SN_EXERCISE_MAX_N];
    memcpy(w, v, sizeof w);
    run(e->net, e->at, e->at + 1, w);
    values_text(v, e->n, buf, sizeof buf);
    if (memcmp(v, w, e->n * sizeof *v) != 0)
        CHECK(grade(e, buf, &right) && !right);
    sn_exercise_free(e);
}

static void test_counterexample(uint64_t seed, uint32_t n)
{
    sn_exercise *e = make(SN_EXERCISE_COUNTEREXAMPLE, seed, n);
    if (!e)
        return;
    char bits[SN_EXERCISE_MAX_N + 1];
    CHECK(failing_bits(e->net, bits)); /* the network really does not sort */
    bool right = false;
    CHECK(grade(e, bits, &right) && right);
    /* any failing input counts: the bits as a list of numbers 10 and 20 */
    char buf[256] = "";
    for (uint32_t i = 0; i < e->n; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", i ? " " : "",
                 bits[i] == '1' ? 20 : 10);
    CHECK(grade(e, buf, &right) && right);
    /* a sorted input comes out sorted */
    uint32_t v[SN_EXERCISE_MAX_N];
    for (uint32_t i = 0; i < e->n; i++)
        v[i] = i;
    values_text(v, e->n, buf, sizeof buf);
    CHECK(grade(e, buf, &right) && !right);
    sn_exercise_free(e);
}

static void test_complete(uint64_t seed, uint32_t n)
{
    sn_exercise *e = make(SN_EXERCISE_COMPLETE, seed, n);
    if (!e)
        return;
    char bits[SN_EXERCISE_MAX_N + 1];
    bool right = true;
    bool fails = failing_bits(e->net, bits);
    /* nothing added: right only if the given part already sorts */
    CHECK(grade(e, "", &right) && right == !fails);
    /* n - 1 passes of bubble sort added sort anything */
    char buf[4096] = "";
    for (uint32_t p = 0; p + 1 < e->n; p++)
        for (uint32_t i = 0; i + 1 < e->n; i++)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "(%u,%u),", i, i + 1);
    buf[strlen(buf) - 1] = '\0';
    sn_exercise_grade g;
    sn_diag d;
    CHECK(sn_exercise_check(e, buf, &g, &d) == SN_OK && g.right);
    CHECK(g.size == e->given + (size_t)(e->n - 1) * (e->n - 1));
    if (e->best)
        CHECK(g.extra == g.size - e->best);
    /* the given comparators must stay */
    sn_network *none = sn_network_create(e->n);
    CHECK(sn_exercise_check_network(e, none, &g, &d) == SN_OK && !g.right);
    sn_network_destroy(none);
    sn_exercise_free(e);
}

static void test_redundant(uint64_t seed, uint32_t n)
{
    sn_exercise *e = make(SN_EXERCISE_REDUNDANT, seed, n);
    if (!e)
        return;
    size_t size = sn_network_size(e->net);
    bool *swaps = sn_calloc(size, sizeof *swaps);
    uint32_t v[SN_EXERCISE_MAX_N];
    /* by the 0-1 principle, the 0-1 inputs show every comparator that swaps */
    for (uint64_t x = 0; x < ((uint64_t)1 << e->n); x++) {
        for (uint32_t i = 0; i < e->n; i++)
            v[i] = (uint32_t)(x >> i) & 1u;
        size_t idx = 0;
        for (size_t k = 0; k < sn_network_layer_count(e->net); k++) {
            size_t c = 0;
            const sn_comparator *l = sn_network_layer(e->net, k, &c);
            for (size_t i = 0; i < c; i++, idx++)
                if (v[l[i].a] > v[l[i].b]) {
                    swaps[idx] = true;
                    v[l[i].a] = 0;
                    v[l[i].b] = 1;
                }
        }
    }
    char buf[512] = "", fewer[512] = "", more[512 + 32] = ""; /* more: buf, a comma and a number */
    size_t never = 0;
    long first_swapping = -1;
    for (size_t i = 0; i < size; i++) {
        if (!swaps[i]) {
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%zu", never ? "," : "", i);
            if (never)
                snprintf(fewer + strlen(fewer), sizeof fewer - strlen(fewer), "%s%zu",
                         fewer[0] ? "," : "", i);
            never++;
        } else if (first_swapping < 0) {
            first_swapping = (long)i;
        }
    }
    CHECK(never >= 1);
    bool right = false;
    CHECK(grade(e, buf, &right) && right);
    CHECK(grade(e, fewer[0] ? fewer : "-", &right) && !right);
    if (first_swapping >= 0) {
        snprintf(more, sizeof more, "%s,%ld", buf, first_swapping);
        CHECK(grade(e, more, &right) && !right);
    }
    sn_free(swaps);
    sn_exercise_free(e);
}

static void test_depth(uint64_t seed, uint32_t n)
{
    sn_exercise *e = make(SN_EXERCISE_DEPTH, seed, n);
    if (!e)
        return;
    size_t last[SN_EXERCISE_MAX_N] = {0}, depth = 0;
    for (size_t k = 0; k < sn_network_layer_count(e->net); k++) {
        size_t c = 0;
        const sn_comparator *l = sn_network_layer(e->net, k, &c);
        CHECK(c == 1); /* shown one at a time */
        for (size_t i = 0; i < c; i++) {
            size_t d = (last[l[i].a] > last[l[i].b] ? last[l[i].a] : last[l[i].b]) + 1;
            last[l[i].a] = last[l[i].b] = d;
            if (d > depth)
                depth = d;
        }
    }
    char buf[32];
    bool right = false;
    snprintf(buf, sizeof buf, "%zu", depth);
    CHECK(grade(e, buf, &right) && right);
    snprintf(buf, sizeof buf, "%zu", depth + 1);
    CHECK(grade(e, buf, &right) && !right);
    sn_exercise_free(e);
}

static void test_merger(uint64_t seed, uint32_t n, int *yes, int *no)
{
    sn_exercise *e = make(SN_EXERCISE_MERGER, seed, n);
    if (!e)
        return;
    uint32_t v[SN_EXERCISE_MAX_N], a = e->half, b = e->n - e->half;
    CHECK(a >= 1 && b >= 1);
    bool merges = true;
    for (uint32_t z1 = 0; z1 <= a; z1++) /* z1 zeros then ones; z2 the same */
        for (uint32_t z2 = 0; z2 <= b; z2++) {
            for (uint32_t i = 0; i < e->n; i++)
                v[i] = i < a ? (i >= z1) : (i - a >= z2);
            run(e->net, 0, sn_network_layer_count(e->net), v);
            merges = merges && is_sorted(v, e->n);
        }
    *(merges ? yes : no) += 1;
    bool right = false;
    CHECK(grade(e, merges ? "yes" : "no", &right) && right);
    CHECK(grade(e, merges ? "no" : "yes", &right) && !right);
    sn_exercise_free(e);
}

static void test_deterministic(void)
{
    for (unsigned k = 0; k < SN_EXERCISE_KINDS; k++) {
        sn_exercise *x = make((sn_exercise_kind)k, 7, 0), *y = make((sn_exercise_kind)k, 7, 0);
        if (!x || !y) {
            sn_exercise_free(x);
            sn_exercise_free(y);
            continue;
        }
        CHECK(sn_network_equal(x->net, y->net));
        CHECK(memcmp(x->input, y->input, x->n * sizeof *x->input) == 0);
        CHECK(strcmp(x->question, y->question) == 0);
        /* seeds make different exercises (at least one of 1..8 differs) */
        bool differ = false;
        for (uint64_t s = 1; s <= 8 && !differ; s++) {
            sn_exercise *z = make((sn_exercise_kind)k, s, 0);
            differ = z && (!sn_network_equal(z->net, x->net) ||
                           memcmp(z->input, x->input, x->n * sizeof *x->input) != 0);
            sn_exercise_free(z);
        }
        CHECKF(differ, "%s: every seed gives the same exercise",
               sn_exercise_kind_name((sn_exercise_kind)k));
        sn_exercise_free(x);
        sn_exercise_free(y);
    }
}

static void test_errors(void)
{
    sn_exercise *e = NULL;
    sn_diag d;
    CHECK(sn_exercise_make(SN_EXERCISE_PREDICT, 1, 2, &e, &d) == SN_EINVAL && !e);
    CHECK(strstr(d.text, "n=2") != NULL);
    CHECK(sn_exercise_make(SN_EXERCISE_PREDICT, 1, SN_EXERCISE_MAX_N + 1, &e, &d) == SN_EINVAL);
    CHECK(sn_exercise_make(SN_EXERCISE_MERGER, 1, 3, &e, &d) == SN_EINVAL);
    CHECK(sn_exercise_make(SN_EXERCISE_KINDS, 1, 6, &e, &d) == SN_EINVAL);
    sn_exercise_kind k;
    CHECK(sn_exercise_kind_parse("merger", &k) && k == SN_EXERCISE_MERGER);
    CHECK(!sn_exercise_kind_parse("merge", &k));
    CHECK(strcmp(sn_exercise_kind_name(SN_EXERCISE_COMPLETE), "complete") == 0);
    CHECK(strcmp(sn_exercise_kind_name(SN_EXERCISE_KINDS), "?") == 0);
    static const struct {
        sn_exercise_kind k;
        const char *answer, *says;
    } bad[] = {
        {SN_EXERCISE_PREDICT, "1,2,3", "expected 6 whole numbers"},
        {SN_EXERCISE_PREDICT, "1,2,x,4,5,6", "expected 6"},
        {SN_EXERCISE_COUNTEREXAMPLE, "0110", "or 6 bits"},
        {SN_EXERCISE_COMPLETE, "(0,9)", "wires 0 to 5"},
        {SN_EXERCISE_COMPLETE, "0,1", "e.g. (0,1)"},
        {SN_EXERCISE_REDUNDANT, "999", "or - for none"},
        {SN_EXERCISE_DEPTH, "four", "a number of layers"},
        {SN_EXERCISE_MERGER, "maybe", "yes or no"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e = make(bad[i].k, 3, bad[i].k == SN_EXERCISE_MERGER ? 8 : 6);
        if (!e)
            continue;
        sn_exercise_grade g;
        sn_diag_clear(&d);
        CHECKF(sn_exercise_check(e, bad[i].answer, &g, &d) == SN_EPARSE &&
                   strstr(d.text, bad[i].says),
               "'%s': %s", bad[i].answer, d.text);
        sn_exercise_free(e);
    }
    e = make(SN_EXERCISE_DEPTH, 1, 6);
    if (e) {
        sn_exercise_grade g;
        sn_network *net = sn_network_create(6);
        CHECK(sn_exercise_check_network(e, net, &g, &d) == SN_EINVAL);
        sn_network_destroy(net);
        sn_exercise_free(e);
    }
    e = make(SN_EXERCISE_COMPLETE, 1, 6);
    if (e) {
        sn_exercise_grade g;
        sn_network *net = sn_network_create(7);
        CHECK(sn_exercise_check_network(e, net, &g, &d) == SN_EINVAL);
        sn_network_destroy(net);
        sn_exercise_free(e);
    }
}

/* Every allocation of making and grading each kind may fail: the call
 * then says so (SN_ENOMEM) and nothing leaks. */
static void test_out_of_memory(void)
{
    static const char *const answers[SN_EXERCISE_KINDS][2] = {
        {"1,2,3,4,5,6", "6,5,4,3,2,1"}, {"111000", "0,1,2,3,4,5"}, {"(0,1),(1,2)", ""},
        {"0,1", "-"},                   {"4", "5"},                 {"yes", "no"}};
    size_t base = sn_alloc_live();
    for (unsigned k = 0; k < SN_EXERCISE_KINDS; k++) {
        for (size_t fail_at = 1;; fail_at++) {
            sn_alloc_fail_after(fail_at);
            sn_exercise *e = NULL;
            sn_diag d;
            sn_status st = sn_exercise_make((sn_exercise_kind)k, 5, 0, &e, &d);
            for (int a = 0; st == SN_OK && a < 2; a++) {
                sn_exercise_grade g;
                sn_status gs = sn_exercise_check(e, answers[k][a], &g, &d);
                CHECKF(gs == SN_OK || gs == SN_ENOMEM, "%s '%s' at %zu: %s",
                       sn_exercise_kind_name((sn_exercise_kind)k), answers[k][a], fail_at,
                       sn_status_str(gs));
            }
            size_t made = sn_alloc_fail_after(0);
            CHECK(st == SN_OK || st == SN_ENOMEM);
            CHECK((st == SN_OK) == (e != NULL));
            sn_exercise_free(e);
            CHECKF(sn_alloc_live() == base, "%s at %zu: %zu blocks leaked",
                   sn_exercise_kind_name((sn_exercise_kind)k), fail_at, sn_alloc_live() - base);
            if (made < fail_at) /* no allocation failed: every one was reached */
                break;
        }
    }
}

int main(void)
{
    static const uint32_t ns[] = {3, 4, 5, 6, 8, 11};
    int yes = 0, no = 0;
    for (uint64_t seed = 1; seed <= 12; seed++)
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
            test_predict(seed, ns[i]);
            test_counterexample(seed, ns[i]);
            test_complete(seed, ns[i]);
            test_redundant(seed, ns[i]);
            test_depth(seed, ns[i]);
            if (ns[i] >= 4)
                test_merger(seed, ns[i], &yes, &no);
        }
    CHECK(yes > 0 && no > 0); /* both answers occur */
    test_deterministic();
    test_errors();
    test_out_of_memory();
    return sn_test_finish("test_exercise");
}
