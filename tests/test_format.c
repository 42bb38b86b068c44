/* test_format.c - the network readers and writers: every real network in
 * assets/networks reads with the N, L, D of its name, round-trips through
 * every writer and equals the library the build embedded; format
 * detection; a table of bad inputs (status, message, line and column);
 * allocation failures; sn_schedule_load's names (library names too). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/schedule.h"
#include "sn_test.h"

/* Write net in format f into a malloc'd string (open_memstream). */
static char *write_text(const sn_network *net, sn_format f, size_t *len)
{
    char *buf = NULL;
    FILE *m = open_memstream(&buf, len);
    if (!m)
        return NULL;
    sn_diag d;
    sn_status st = sn_network_write(net, f, m, &d);
    fclose(m);
    CHECKF(st == SN_OK, "write %s: %s", sn_format_name(f), d.text);
    return buf;
}

static sn_network *parse_ok(const char *text, size_t len, sn_format f, const char *what)
{
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_network_parse(text, len, f, &net, &d);
    CHECKF(st == SN_OK && net, "%s: status %d: %s", what, (int)st, d.text);
    return st == SN_OK ? net : NULL;
}

/* Every writer, then reading back (with and without detection), gives an
 * equal network. */
static void check_round_trips(const sn_network *net, const char *what)
{
    for (sn_format f = SN_FORMAT_BRACKET; f <= SN_FORMAT_SN; f++) {
        if (f == SN_FORMAT_JSON && !sn_format_have_json())
            continue;
        size_t len = 0;
        char *text = write_text(net, f, &len);
        if (!text)
            continue;
        CHECKF(sn_format_detect(text, len) == f, "%s: written %s detected as %s", what,
               sn_format_name(f), sn_format_name(sn_format_detect(text, len)));
        for (int detect = 0; detect < 2; detect++) {
            sn_network *back = parse_ok(text, len, detect ? SN_FORMAT_UNKNOWN : f, what);
            if (back)
                CHECKF(sn_network_equal(net, back), "%s: round trip through %s changed it", what,
                       sn_format_name(f));
            sn_network_destroy(back);
        }
        free(text);
    }
}

/* ---- assets/networks: the real files, and the library embedded from them */

/* Sort_N_L_D.ext -> N, L, D; NNi-DDs-CCc-k.sn (any order) -> N, D, L. */
static bool expected_from_name(const char *name, unsigned *n, unsigned *l, unsigned *d)
{
    if (sscanf(name, "Sort_%u_%u_%u.", n, l, d) == 3 ||
        sscanf(name, "Median_%u_%u_%u.", n, l, d) == 3)
        return true;
    int found = 0;
    const char *p = name;
    while (*p) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p)
            break;
        if (*end == 'i')
            *n = (unsigned)v, found |= 1;
        else if (*end == 's')
            *d = (unsigned)v, found |= 2;
        else if (*end == 'c')
            *l = (unsigned)v, found |= 4;
        p = end;
        while (*p && *p != '-')
            p++;
        if (*p == '-')
            p++;
    }
    return found == 7;
}

struct asset_ctx {
    sn_format format; /* what every file of the folder must be detected as */
    int files;
};

static void test_asset_file(const char *path, const char *name, void *arg)
{
    struct asset_ctx *ctx = arg;
    sn_format f = ctx->format;
    unsigned n = 0, l = 0, d = 0;
    if (!expected_from_name(name, &n, &l, &d))
        return;
    ctx->files++;
    char *text = NULL;
    size_t len = 0;
    sn_diag dg;
    CHECKF(sn_file_read_all(path, 1 << 20, &text, &len, &dg) == SN_OK, "%s", dg.text);
    if (!text)
        return;
    CHECKF(sn_format_detect(text, len) == f, "%s detected as %s", path,
           sn_format_name(sn_format_detect(text, len)));
    sn_network *net = parse_ok(text, len, SN_FORMAT_UNKNOWN, path);
    if (net) {
        CHECKF(sn_network_wires(net) == n && sn_network_size(net) == l &&
                   sn_network_layer_count(net) == d,
               "%s: read N=%u L=%zu D=%zu", path, sn_network_wires(net), sn_network_size(net),
               sn_network_layer_count(net));
        check_round_trips(net, path);
    }
    /* The same through sn_schedule_load, which names it after the file. */
    sn_schedule *s = NULL;
    CHECKF(sn_schedule_load(path, &s, &dg) == SN_OK, "%s", dg.text);
    if (s) {
        CHECK(strcmp(sn_schedule_name(s), name) == 0);
        CHECK(sn_schedule_wires(s) == n && sn_schedule_size(s) == l &&
              sn_schedule_layer_count(s) == d);
        CHECK(net && sn_network_equal(sn_schedule_network(s), net));
    }
    sn_schedule_destroy(s);
    sn_network_destroy(net);
    sn_free(text);
}

static int test_asset_dir(const char *sub, sn_format f)
{
    struct asset_ctx ctx = {f, 0};
    CHECKF(sn_test_each_network_file(sub, test_asset_file, &ctx) >= 0, "cannot open %s", sub);
    return ctx.files;
}

/* Each file of assets/networks read by its format's reader is the network
 * the build embedded under the same name (library.h). */
static void same_as_library(const char *path, const char *name, void *ctx)
{
    int *compared = ctx;
    char stem[256];
    snprintf(stem, sizeof stem, "%s", name);
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = '\0';
    size_t entry = sn_library_find(stem);
    CHECKF(entry != SN_LIBRARY_NONE, "%s is not in the embedded library", path);
    sn_schedule *s = NULL;
    sn_network *lib = NULL;
    sn_diag d;
    CHECKF(sn_schedule_load(path, &s, &d) == SN_OK, "%s", d.text);
    if (entry != SN_LIBRARY_NONE)
        CHECKF(sn_library_network(entry, NULL, &lib, &d) == SN_OK, "%s", d.text);
    if (s && lib) {
        CHECKF(sn_network_equal(sn_schedule_network(s), lib), "%s differs from lib:%s", path, stem);
        (*compared)++;
    }
    sn_network_destroy(lib);
    sn_schedule_destroy(s);
}

static void test_assets(void)
{
    const char *root = sn_test_networks_dir();
    CHECKF(root != NULL, "SN_NETWORKS (the repository's assets/networks) is not set");
    if (!root)
        return;
    int files = test_asset_dir("sn", SN_FORMAT_SN);
    int compared = 0;
    sn_test_each_network_file("sn", same_as_library, &compared);
    if (sn_format_have_json()) {
        files += test_asset_dir("best", SN_FORMAT_JSON);
        sn_test_each_network_file("best", same_as_library, &compared);
        files += test_asset_dir("median", SN_FORMAT_JSON);
        sn_test_each_network_file("median", same_as_library, &compared);
    }
    /* every library entry has its file (the JSON ones only readable with
     * jansson) */
    size_t expect = 0;
    sn_library_info e;
    for (size_t i = 0; sn_library_get(i, &e); i++)
        expect += strncmp(e.path, "sn/", 3) == 0 || sn_format_have_json();
    CHECKF(files >= 10 && compared == files && (size_t)files == expect,
           "only %d network files read (%d compared with the library) under %s", files, compared,
           root);
    printf("assets/networks: %d files read, round-tripped and found in the library\n", files);
}

/* ---- generated networks and the JSON layering rule */

static void test_generated(void)
{
    for (int a = SN_ALGO_BITONIC; a < SN_ALGO_COUNT; a++) {
        for (uint32_t n = 2; n <= 33; n += 5) {
            sn_schedule *s = NULL;
            sn_network *net = NULL;
            if (sn_schedule_generate((sn_algo)a, n, &s, NULL) != SN_OK ||
                sn_schedule_to_network(s, &net, NULL) != SN_OK) {
                CHECKF(0, "generate %s:%u", sn_algo_name((sn_algo)a), n);
            } else {
                check_round_trips(net, sn_schedule_name(s));
            }
            sn_network_destroy(net);
            sn_schedule_destroy(s);
        }
    }
    /* (2,3) could run in layer 1: a flat list would regroup it, so the
     * writer must keep the layers. Independently: the same network built
     * with add_asap differs. */
    sn_network *late = sn_network_create(4), *asap = sn_network_create(4);
    sn_comparator l1 = {0, 1}, l2 = {2, 3}, l3 = {1, 2};
    CHECK(sn_network_layer_add(late, &l1, 1, NULL) == SN_OK);
    CHECK(sn_network_layer_add(late, &l2, 1, NULL) == SN_OK);
    CHECK(sn_network_layer_add(late, &l3, 1, NULL) == SN_OK);
    CHECK(sn_network_add_asap(asap, 0, 1, NULL) == SN_OK);
    CHECK(sn_network_add_asap(asap, 2, 3, NULL) == SN_OK);
    CHECK(sn_network_add_asap(asap, 1, 2, NULL) == SN_OK);
    CHECK(!sn_network_equal(late, asap));
    check_round_trips(late, "late comparator");
    check_round_trips(asap, "asap network");
    if (sn_format_have_json()) {
        size_t len;
        char *t1 = write_text(late, SN_FORMAT_JSON, &len);
        char *t2 = write_text(asap, SN_FORMAT_JSON, &len);
        CHECKF(t1 && strstr(t1, "[[0,1]]"), "late network not written as layers: %s", t1);
        CHECKF(t2 && !strstr(t2, "[[0,"), "asap network not written flat: %s", t2);
        free(t1);
        free(t2);
    }
    /* An empty network writes as text that reads back. */
    sn_network *empty = sn_network_create(0);
    check_round_trips(empty, "empty network");
    sn_network_destroy(empty);
    sn_network_destroy(late);
    sn_network_destroy(asap);
}

static void test_detect(void)
{
    static const struct {
        const char *text;
        sn_format f;
    } cases[] = {
        {"{\"N\":2}", SN_FORMAT_JSON},
        {"  \n\t{", SN_FORMAT_JSON},
        {"[(0,1)]", SN_FORMAT_BRACKET},
        {"# comment\n\n  [(0,1)]", SN_FORMAT_BRACKET},
        {"\xEF\xBB\xBF[(0,1)]", SN_FORMAT_BRACKET},
        {"Inputs: 4\n\n0 1\n", SN_FORMAT_SN},
        {"\nComment: x\nInputs: 4\n", SN_FORMAT_SN},
        {"", SN_FORMAT_UNKNOWN},
        {"   \n\n ", SN_FORMAT_UNKNOWN},
        {"0 1\n", SN_FORMAT_UNKNOWN},
        {"hello", SN_FORMAT_UNKNOWN},
        {"\x01\x02\xff", SN_FORMAT_UNKNOWN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECKF(sn_format_detect(cases[i].text, strlen(cases[i].text)) == cases[i].f,
               "detect case %zu", i);
    CHECK(sn_format_detect(NULL, 0) == SN_FORMAT_UNKNOWN);
    sn_format f;
    CHECK(sn_format_parse("json", &f) && f == SN_FORMAT_JSON);
    CHECK(sn_format_parse("sn", &f) && f == SN_FORMAT_SN);
    CHECK(sn_format_parse("bracket", &f) && f == SN_FORMAT_BRACKET);
    CHECK(!sn_format_parse("xml", &f));
    CHECK(strcmp(sn_format_name(SN_FORMAT_SN), "sn") == 0);
}

/* ---- bad inputs */

typedef struct bad_case {
    sn_format f;      /* UNKNOWN = detect */
    const char *text; /* NULL: generated (see make_big) */
    sn_status st;
    const char *fragment;
    unsigned long line, col; /* 0 = not checked */
    bool json;               /* needs jansson */
} bad_case;

static void check_bad(const bad_case *c, const char *text, size_t len, size_t index)
{
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_network_parse(text, len, c->f, &net, &d);
    CHECKF(st == c->st, "bad case %zu: status %d, expected %d (%s)", index, (int)st, (int)c->st,
           d.text);
    CHECKF(net == NULL, "bad case %zu left a network", index);
    CHECKF(strstr(d.text, c->fragment) != NULL, "bad case %zu: message '%s' lacks '%s'", index,
           d.text, c->fragment);
    if (c->line) {
        CHECKF(d.line == c->line && d.column == c->col,
               "bad case %zu: at %lu:%lu, expected %lu:%lu (%s)", index, d.line, d.column, c->line,
               c->col, d.text);
        char prefix[64];
        snprintf(prefix, sizeof prefix, "%lu:%lu: ", c->line, c->col);
        CHECKF(strncmp(d.text, prefix, strlen(prefix)) == 0, "bad case %zu: '%s' lacks prefix",
               index, d.text);
    }
    sn_network_destroy(net);
}

static void test_bad_inputs(void)
{
    static const bad_case cases[] = {
        /* any format */
        {SN_FORMAT_UNKNOWN, "", SN_EPARSE, "empty", 1, 1, false},
        {SN_FORMAT_UNKNOWN, "  \n\t \n", SN_EPARSE, "empty", 3, 1, false},
        {SN_FORMAT_UNKNOWN,
         "\x7f"
         "ELF\x02\x01\x01",
         SN_EPARSE, "unknown format", 1, 1, false},
        {SN_FORMAT_UNKNOWN, "\n  xyz", SN_EPARSE, "found 'x'", 2, 3, false},
        {SN_FORMAT_BRACKET, "", SN_EPARSE, "no network", 1, 1, false},
        {SN_FORMAT_BRACKET, "# only a comment\n", SN_EPARSE, "no network", 2, 1, false},
        /* bracket */
        {SN_FORMAT_UNKNOWN, "[(0,1),(2,3)]\n[(1,2),(0 3)]\n", SN_EPARSE,
         "expected ',' after wire number", 2, 11, false},
        {SN_FORMAT_UNKNOWN, "[(0,1)\n", SN_EPARSE, "expected ',' or ']'", 1, 7, false},
        {SN_FORMAT_UNKNOWN, "[(0,1", SN_EPARSE, "expected ')'", 1, 6, false},
        {SN_FORMAT_UNKNOWN, "[(0,", SN_EPARSE, "expected a wire number, found end of input", 1, 5,
         false},
        {SN_FORMAT_UNKNOWN, "[(0,1)]\n[(-1,2)]", SN_EPARSE, "must not be negative", 2, 3, false},
        {SN_FORMAT_UNKNOWN, "[(3,3)]", SN_EINVAL, "comparator (3,3) joins a wire to itself", 1, 2,
         false},
        {SN_FORMAT_UNKNOWN, "[(0,1)]\n[(2,3)]\n[(1,2)]\n[(0,1),(2,1)]", SN_EINVAL,
         "wire 1 is used twice in layer 4", 4, 8, false},
        {SN_FORMAT_UNKNOWN, "[(0,2147483648)]", SN_ELIMIT, "over the limit", 1, 5, false},
        {SN_FORMAT_UNKNOWN, "[(0,99999999999999999999999)]", SN_ELIMIT, "over the limit", 1, 5,
         false},
        {SN_FORMAT_UNKNOWN, "[(0,1)] x", SN_EPARSE, "expected '['", 1, 9, false},
        {SN_FORMAT_UNKNOWN, "[(a,1)]", SN_EPARSE, "expected a wire number, found 'a'", 1, 3, false},
        {SN_FORMAT_UNKNOWN, "[[[[[[[[[[[[[[[[[[[[", SN_EPARSE, "expected '('", 1, 2, false},
        {SN_FORMAT_UNKNOWN, "[(0,1)]\n\x01\x02", SN_EPARSE, "byte 0x01", 2, 1, false},
        {SN_FORMAT_UNKNOWN, "[(0,1.5)]", SN_EPARSE, "expected ')'", 1, 6, false},
        /* sn */
        {SN_FORMAT_UNKNOWN, "Inputs: -1\n", SN_EPARSE, "must not be negative", 1, 9, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 1000000000\n\n0 1\n", SN_ELIMIT,
         "Inputs: 1000000000 is over the limit", 1, 9, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 99999999999999999999999999\n", SN_ELIMIT, "over the limit", 1,
         9, false},
        {SN_FORMAT_UNKNOWN, "Inputs: x\n", SN_EPARSE, "expected the number of inputs", 1, 9, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8 9\n", SN_EPARSE, "after the number of inputs", 1, 11, false},
        {SN_FORMAT_UNKNOWN, "Comment: x\n\n0 1\n", SN_EPARSE, "before the 'Inputs: N'", 3, 1,
         false},
        {SN_FORMAT_SN, "0 1\n", SN_EPARSE, "before the 'Inputs: N'", 1, 1, false},
        {SN_FORMAT_UNKNOWN, "Comment: only\n", SN_EPARSE, "missing the 'Inputs: N'", 2, 1, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\nInputs: 8\n", SN_EPARSE, "second 'Inputs:'", 2, 1, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\n\n0 9\n", SN_EINVAL, "wire 9 is out of range for 8 inputs",
         3, 3, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\n\n0 1\n3 3\n", SN_EINVAL,
         "comparator (3,3) joins a wire to itself", 4, 1, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\n\n0 1\n2,3\n", SN_EPARSE, "expected a space", 4, 2, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\n\n0 1 2\n", SN_EPARSE, "one 'a b' per line", 3, 5, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\n\n0 1\nInputs: 9\n", SN_EPARSE, "after the first", 4, 1,
         false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\n\n0 -1\n", SN_EPARSE, "must not be negative", 3, 3, false},
        {SN_FORMAT_UNKNOWN, "Inputs: 8\n\n0\n", SN_EPARSE, "expected a space", 3, 2, false},
        {SN_FORMAT_SN, "Inputs 8\n", SN_EPARSE, "header line", 1, 1, false},
        {SN_FORMAT_UNKNOWN, "Inputs 8\n", SN_EPARSE, "unknown format", 1, 1, false},
        /* JSON */
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[0,1],", SN_EPARSE, "expected", 1, 22, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4,\n \"N\": 5, \"nw\": []}", SN_EPARSE, "duplicate", 2, 4,
         true},
        {SN_FORMAT_UNKNOWN, "{\"nw\": []}", SN_EPARSE, "missing \"N\"", 1, 1, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4}", SN_EPARSE, "missing \"nw\"", 1, 1, true},
        {SN_FORMAT_JSON, "[[0,1]]", SN_EPARSE, "expected a JSON object", 1, 1, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": \"4\", \"nw\": []}", SN_EPARSE,
         "must be a number, not a string", 1, 7, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4.5, \"nw\": []}", SN_EPARSE, "whole number", 1, 7, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": -4, \"nw\": []}", SN_EPARSE, "must not be negative", 1, 7,
         true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 1000000000, \"nw\": []}", SN_ELIMIT, "over the limit", 1, 7,
         true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 1e9, \"nw\": []}", SN_ELIMIT, "over the limit", 1, 7, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 99999999999999999999, \"nw\": []}", SN_EPARSE, "too big", 1, 0,
         true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": {}}", SN_EPARSE, "expected a list", 1, 16, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[0,1],\n [2,3], [1,4]]}", SN_EINVAL,
         "nw[2]: wire 4 is out of range for 4 inputs", 2, 9, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[0,2147483648]]}", SN_EINVAL, "out of range", 1,
         17, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[0,-1]]}", SN_EPARSE, "must not be negative", 1,
         17, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[2,2]]}", SN_EINVAL,
         "comparator (2,2) joins a wire to itself", 1, 17, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[0,1,2]]}", SN_EPARSE, "expected a comparator", 1,
         17, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[0,\"1\"]]}", SN_EPARSE, "not a string", 1, 17,
         true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[[0,1]], [[1,2],[2,3]]]}", SN_EINVAL,
         "wire 2 is used twice in layer 2", 1, 26, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": [[[0,1]], [0,1]]}", SN_EPARSE, "expected a layer",
         1, 26, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"L\": 2, \"nw\": [[0,1]]}", SN_EINVAL,
         "\"L\" is 2 but \"nw\" gives 1 comparators", 1, 15, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"D\": 1, \"nw\": [[0,1],[1,2]]}", SN_EINVAL,
         "\"D\" is 1 but \"nw\" gives 2 layers", 1, 15, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"D\": true, \"nw\": []}", SN_EPARSE, "not a boolean", 1,
         15, true},
        {SN_FORMAT_UNKNOWN, "{\"N\": 4, \"nw\": []} x", SN_EPARSE, "end of file expected", 1, 0,
         true},
    };
    /* JSON syntax errors are jansson's: its column is that of the last
     * character it read (the end of the offending token). */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bad_case c = cases[i];
        if (c.json && !sn_format_have_json())
            continue;
        if (c.col == 0)
            c.line = 0; /* jansson's column: not checked */
        check_bad(&c, c.text, strlen(c.text), i);
    }
    if (!sn_format_have_json()) {
        sn_network *net = NULL;
        sn_diag d;
        CHECK(sn_network_parse("{\"N\":2,\"nw\":[]}", 15, SN_FORMAT_UNKNOWN, &net, &d) ==
              SN_EUNSUPPORTED);
        CHECK(strstr(d.text, "jansson") != NULL);
    }
}

/* Big inputs: a 1 MB single line, deep nesting, 10^6 layers, limits. */
static void test_big_inputs(void)
{
    size_t cap = (size_t)9 << 20, len = 0;
    char *buf = malloc(cap);
    CHECK(buf != NULL);
    if (!buf)
        return;
    /* A 1 MB single layer on one line: valid, n = 2 * comparators. */
    len = (size_t)snprintf(buf, cap, "[");
    uint32_t pairs = 0;
    while (len < ((size_t)1 << 20))
        len += (size_t)snprintf(buf + len, cap - len, "%s(%u,%u)", pairs ? "," : "", 2 * pairs,
                                2 * pairs + 1),
            pairs++;
    len += (size_t)snprintf(buf + len, cap - len, "]");
    sn_network *net = parse_ok(buf, len, SN_FORMAT_UNKNOWN, "1 MB line");
    CHECK(net && sn_network_size(net) == pairs && sn_network_wires(net) == 2 * pairs &&
          sn_network_layer_count(net) == 1);
    sn_network_destroy(net);
    /* The same line with one wire reused at the very end. */
    len--;
    len += (size_t)snprintf(buf + len, cap - len, ",(0,%u)]", 2 * pairs + 5);
    bad_case reuse = {
        SN_FORMAT_UNKNOWN, NULL, SN_EINVAL, "wire 0 is used twice in layer 1", 0, 0, false};
    check_bad(&reuse, buf, len, 1000);
    /* 1 MB of garbage on one line, and 1 MB of one number. */
    memset(buf, 'x', (size_t)1 << 20);
    bad_case garbage = {SN_FORMAT_BRACKET, NULL, SN_EPARSE, "expected '['", 1, 1, false};
    check_bad(&garbage, buf, (size_t)1 << 20, 1001);
    memcpy(buf, "Inputs: ", 8);
    memset(buf + 8, '9', ((size_t)1 << 20) - 8);
    bad_case huge = {SN_FORMAT_UNKNOWN, NULL, SN_ELIMIT, "over the limit", 1, 9, false};
    check_bad(&huge, buf, (size_t)1 << 20, 1002);
    /* Deeply nested brackets, in both bracket and JSON shapes. */
    memset(buf, '[', (size_t)1 << 20);
    bad_case deep = {SN_FORMAT_UNKNOWN, NULL, SN_EPARSE, "expected '('", 1, 2, false};
    check_bad(&deep, buf, (size_t)1 << 20, 1003);
    if (sn_format_have_json()) {
        len = (size_t)snprintf(buf, cap, "{\"N\": 4, \"nw\": ");
        for (int i = 0; i < 100000; i++)
            buf[len++] = '[';
        for (int i = 0; i < 100000; i++)
            buf[len++] = ']';
        buf[len++] = '}';
        bad_case jdeep = {SN_FORMAT_UNKNOWN, NULL, SN_EPARSE, "", 0, 0, true};
        check_bad(&jdeep, buf, len, 1004);
    }
    /* 10^6 layers of one comparator: within the default limits, it reads;
     * with the layer limit lowered, it is refused with SN_ELIMIT. */
    len = 0;
    for (int i = 0; i < 1000000; i++) {
        memcpy(buf + len, i & 1 ? "[(1,2)]\n" : "[(0,1)]\n", 8);
        len += 8;
    }
    net = parse_ok(buf, len, SN_FORMAT_UNKNOWN, "10^6 layers");
    CHECK(net && sn_network_layer_count(net) == 1000000 && sn_network_size(net) == 1000000);
    sn_network_destroy(net);
    sn_limits saved = sn_limits_get(), low = saved;
    low.max_layers = 1000;
    sn_limits_set(low);
    bad_case many = {SN_FORMAT_UNKNOWN, NULL, SN_ELIMIT, "more than 1000 layers", 1001, 1, false};
    check_bad(&many, buf, len, 1005);
    low = saved;
    low.max_comparators = 10;
    sn_limits_set(low);
    bad_case cmps = {SN_FORMAT_UNKNOWN, NULL, SN_ELIMIT, "more than 10 comparators", 11, 2, false};
    check_bad(&cmps, buf, len, 1006);
    sn_limits_set(saved);
    free(buf);
}

/* ---- allocation failures: SN_ENOMEM, nothing leaked (ASan build) */

static void test_alloc_failures(void)
{
    static const struct {
        const char *text;
        bool json;
    } texts[] = {
        {"[(0,2),(1,3)]\n[(0,1),(2,3)]\n[(1,2)]\n", false},
        {"Inputs: 4\n\n0 2\n1 3\n\n0 1\n2 3\n\n1 2\n", false},
        {"{\"N\":4,\"L\":5,\"D\":3,\"nw\":[[0,2],[1,3],[0,1],[2,3],[1,2]]}", true},
        {"{\"N\":4,\"nw\":[[[0,2],[1,3]],[[0,1],[2,3]],[[1,2]]]}", true},
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (texts[i].json && !sn_format_have_json())
            continue;
        size_t len = strlen(texts[i].text);
        bool done = false;
        for (size_t k = 1; k < 1000 && !done; k++) {
            sn_network *net = NULL;
            sn_diag d;
            sn_alloc_fail_after(k);
            sn_status st = sn_network_parse(texts[i].text, len, SN_FORMAT_UNKNOWN, &net, &d);
            sn_alloc_fail_after(0);
            if (st == SN_OK) {
                CHECK(net && sn_network_size(net) == 5);
                done = true;
                /* Writers under allocation failure too (JSON allocates). */
                for (size_t j = 1; j < 10; j++) {
                    char *buf = NULL;
                    size_t blen = 0;
                    FILE *m = open_memstream(&buf, &blen);
                    if (!m)
                        break;
                    sn_alloc_fail_after(j);
                    sn_status wst = sn_network_write(net, SN_FORMAT_JSON, m, NULL);
                    sn_alloc_fail_after(0);
                    fclose(m);
                    free(buf);
                    CHECK(wst == SN_OK || wst == SN_ENOMEM);
                    if (wst == SN_OK)
                        break;
                }
            } else {
                CHECKF(st == SN_ENOMEM && net == NULL, "text %zu, failing allocation %zu: %d %s", i,
                       k, (int)st, d.text);
            }
            sn_network_destroy(net);
        }
        CHECKF(done, "text %zu never parsed", i);
    }
}

/* ---- files and names */

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void expect_load_error(const char *spec, sn_status want, const char *fragment)
{
    sn_schedule *s = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_load(spec, &s, &d);
    CHECKF(st == want && s == NULL, "load '%s': status %d, expected %d (%s)", spec, (int)st,
           (int)want, d.text);
    CHECKF(strstr(d.text, fragment) != NULL, "load '%s': '%s' lacks '%s'", spec, d.text, fragment);
    sn_schedule_destroy(s);
}

static void test_load(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("bitonic:16", &s, &d) == SN_OK);
    CHECK(s && sn_schedule_algo(s) == SN_ALGO_BITONIC && sn_schedule_wires(s) == 16 &&
          sn_schedule_size(s) == 80);
    sn_schedule_destroy(s);
    CHECK(sn_schedule_load("oem:5", &s, &d) == SN_OK && sn_schedule_wires(s) == 5);
    sn_schedule_destroy(s);
    expect_load_error("bitonic:", SN_EINVAL, "expected the number of wires");
    expect_load_error("bitonic:0", SN_EINVAL, "at least 1 wire");
    expect_load_error("bitonic:abc", SN_EINVAL, "'abc' is not a number");
    expect_load_error("bitonic:-3", SN_EINVAL, "'-3' is not a number");
    expect_load_error("foo:3", SN_EINVAL, "unknown generator 'foo' (known: bitonic,");
    expect_load_error("bitonic:99999999999", SN_ELIMIT, "too many wires");
    expect_load_error("", SN_EINVAL, "empty network name");

    char dir[] = "/tmp/test_format_XXXXXX", path[256], cwd[4096];
    CHECK(mkdtemp(dir) != NULL);
    CHECK(getcwd(cwd, sizeof cwd) != NULL);
    snprintf(path, sizeof path, "%s/net.txt", dir);
    expect_load_error(path, SN_EIO, "net.txt: cannot open: No such file or directory");
    write_file(path, "[(0,1),(2,3)]\n[(1,2),(0 3)]\n");
    char want[300];
    snprintf(want, sizeof want, "%s:2:11: expected ','", path);
    expect_load_error(path, SN_EPARSE, want);
    write_file(path, "[(0,1),(2,3)]\n[(1,2)]\n");
    CHECK(sn_schedule_load(path, &s, &d) == SN_OK);
    CHECK(s && strcmp(sn_schedule_name(s), "net.txt") == 0 && sn_schedule_size(s) == 3);
    sn_schedule_destroy(s);
    expect_load_error(dir, SN_EIO, "Is a directory");
    /* A file named like a generator: the name wins, unless the spec has a
     * '/' and the file exists. */
    CHECK(chdir(dir) == 0);
    CHECK(mkdir("bitonic:4", 0700) == 0);
    write_file("bitonic:4/net.txt", "[(0,1)]\n");
    write_file("foo:3", "[(0,1)]\n");
    CHECK(sn_schedule_load("bitonic:4/net.txt", &s, &d) == SN_OK);
    CHECK(s && sn_schedule_size(s) == 1 && strcmp(sn_schedule_name(s), "net.txt") == 0);
    sn_schedule_destroy(s);
    expect_load_error("bitonic:4/none.txt", SN_EINVAL, "is not a number");
    expect_load_error("foo:3", SN_EINVAL, "write ./");
    CHECK(sn_schedule_load("./foo:3", &s, &d) == SN_OK && sn_schedule_size(s) == 1);
    sn_schedule_destroy(s);
    remove("bitonic:4/net.txt");
    remove("bitonic:4");
    remove("foo:3");
    CHECK(chdir(cwd) == 0);

    /* sn_file_read_all: the size limit, exact contents. */
    write_file(path, "0123456789");
    char *text = NULL;
    size_t len = 0;
    CHECK(sn_file_read_all(path, 10, &text, &len, &d) == SN_OK && len == 10 &&
          strcmp(text, "0123456789") == 0);
    sn_free(text);
    CHECK(sn_file_read_all(path, 9, &text, &len, &d) == SN_ELIMIT && text == NULL);
    CHECK(strstr(d.text, "net.txt") != NULL && strstr(d.text, "too large") != NULL);
    /* Files that are not regular (a pipe, /dev/zero) are limited while read. */
    CHECK(sn_file_read_all("/dev/zero", 100000, &text, &len, &d) == SN_ELIMIT && !text);
    remove(path);
    remove(dir);
}

/* An SN_ELIMIT names the configurable limit it hit in sn_diag.limit (the
 * CLI's hint to raise it reads that, not the message); other limits (a
 * file's size) and other errors leave SN_LIMIT_NONE. */
static void test_limit_field(void)
{
    static const struct {
        const char *text;
        sn_limit limit;
    } cs[] = {
        {"[(0,2147483648)]", SN_LIMIT_WIRES},
        {"Inputs: 1000000000\n\n0 1\n", SN_LIMIT_WIRES},
        {"{\"N\": 1000000000, \"nw\": []}", SN_LIMIT_WIRES},
        {"[(0,1)]\n[(1,2)]\n[(0,1)]\n", SN_LIMIT_LAYERS},
        {"[(0,1),(2,3),(4,5)]", SN_LIMIT_COMPARATORS},
        {"[(0,x)]", SN_LIMIT_NONE},
    };
    sn_limits saved = sn_limits_get(), low = saved;
    low.max_layers = 2;
    low.max_comparators = 2;
    sn_limits_set(low);
    for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        sn_network *net = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st =
            sn_network_parse(cs[i].text, strlen(cs[i].text), SN_FORMAT_UNKNOWN, &net, &d);
        CHECKF(st != SN_OK && d.limit == cs[i].limit, "case %zu: status %d, limit %d: %s", i,
               (int)st, (int)d.limit, d.text);
        sn_network_destroy(net);
    }
    sn_limits_set(saved);
    sn_schedule *s = NULL;
    sn_diag d;
    CHECK(sn_schedule_load("transposition:2000000000", &s, &d) == SN_ELIMIT &&
          d.limit == SN_LIMIT_LAYERS);
    sn_diag_set(&d, SN_EIO, 0, 0, "later"); /* a new message forgets the limit */
    CHECK(d.limit == SN_LIMIT_NONE);
}

int main(void)
{
    test_limit_field();
    test_detect();
    test_assets();
    test_generated();
    test_bad_inputs();
    test_big_inputs();
    test_alloc_failures();
    test_load();
    return sn_test_finish("test_format");
}
