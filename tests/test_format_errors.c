/* test_format_errors.c - every way a network file can be wrong, one row
 * each: the status, the words of the message and the line and column it
 * names (the readers' error paths, which the fuzzers reach but do not
 * check). JSON rows need jansson (they skip without it). */
#define _GNU_SOURCE /* for: fopencookie */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/format.h"
#include "core/network.h"
#include "core/schedule.h"
#include "full_disk.h"
#include "sn_test.h"

typedef struct row {
    sn_format fmt;
    const char *text;
    sn_status st;
    const char *words;          /* in the message; NULL: not checked */
    unsigned long line, column; /* 0: not checked */
} row;

static void run_rows(const char *what, const row *rows, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const row *r = &rows[i];
        sn_network *net = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_network_parse(r->text, strlen(r->text), r->fmt, &net, &d);
        CHECKF(st == r->st, "%s row %zu (%s): %s, not %s: %s", what, i, r->text, sn_status_str(st),
               sn_status_str(r->st), d.text);
        CHECKF((st == SN_OK) == (net != NULL), "%s row %zu: network on failure", what, i);
        if (r->words)
            CHECKF(strstr(d.text, r->words) != NULL, "%s row %zu (%s): message \"%s\" lacks \"%s\"",
                   what, i, r->text, d.text, r->words);
        if (r->line)
            CHECKF(d.line == r->line && (!r->column || d.column == r->column),
                   "%s row %zu (%s): at %lu:%lu, not %lu:%lu (%s)", what, i, r->text, d.line,
                   d.column, r->line, r->column, d.text);
        sn_network_destroy(net);
    }
}

#define J SN_FORMAT_JSON
static const row json_rows[] = {
    {J, "[1,2]", SN_EPARSE, "expected a JSON object like", 1, 1},
    /* (jansson itself refuses a top level that is not a list or an object) */
    {J, "  \n 7", SN_EPARSE, "'[' or '{' expected", 2, 2},
    {J, "{\"N\":null,\"nw\":[]}", SN_EPARSE, "N must be a number, not null", 1, 6},
    /* a key written with an escape: the message, at 1:1 (not found as written) */
    {J, "{\"\\u004e\":null,\"nw\":[]}", SN_EPARSE, "N must be a number, not null", 1, 1},
    {J, "{\"N\":2,\"n\\u0077\":[[0,1],[1,1]]}", SN_EINVAL, "joins a wire to itself", 1, 1},
    {J, "{\"N\":false,\"nw\":[]}", SN_EPARSE, "N must be a number, not a boolean", 1, 6},
    {J, "{\"N\":2,\"nw\":7}", SN_EPARSE, "expected a list of comparators, found an integer", 1, 13},
    {J, "{\"N\":2,\"nw\":[[0,1],1.5]}", SN_EPARSE,
     "nw[1]: expected a comparator [a,b], found a fraction", 1, 20},
    {J, "{\"nw\":[]}", SN_EPARSE, "missing \"N\"", 1, 1},
    {J, "{\"N\":2}", SN_EPARSE, "missing \"nw\"", 1, 1},
    {J, "{\"N\":-1,\"nw\":[]}", SN_EPARSE, "\"N\": N must not be negative (got -1)", 1, 6},
    {J, "{\"N\":-1.5,\"nw\":[]}", SN_EPARSE, "N must not be negative (got -1.5)", 1, 6},
    {J, "{\"N\":2.5,\"nw\":[]}", SN_EPARSE, "N must be a whole number (got 2.5)", 1, 6},
    {J, "{\"N\":4e30,\"nw\":[]}", SN_ELIMIT, "is over the limit of", 1, 6},
    {J, "{\"N\":\"4\",\"nw\":[]}", SN_EPARSE, "N must be a number, not a string", 1, 6},
    {J, "{\"N\":{},\"nw\":[]}", SN_EPARSE, "N must be a number, not an object", 1, 6},
    {J, "{\"N\":[1],\"nw\":[]}", SN_EPARSE, "N must be a number, not a list", 1, 6},
    /* a real that is whole counts as a number */
    {J, "{\"N\":2.0,\"nw\":[[0,1]]}", SN_OK, NULL, 0, 0},
    {J, "{\"N\":2,\"nw\":{\"a\":1}}", SN_EPARSE,
     "\"nw\": expected a list of comparators, found an object", 1, 13},
    {J, "{\"N\":2, \"nw\": [[0,1],[0]]}", SN_EPARSE,
     "nw[1]: expected a comparator [a,b], found a list of another length", 1, 22},
    {J, "{\"N\":2,\"nw\":[[0,1],5]}", SN_EPARSE,
     "nw[1]: expected a comparator [a,b], found an integer", 1, 20},
    {J, "{\"N\":2,\"nw\":[[0,\"1\"]]}", SN_EPARSE, "wire must be a number, not a string", 1, 14},
    {J, "{\"N\":2,\"nw\":[[0,2]]}", SN_EINVAL, "wire 2 is out of range for 2 inputs", 1, 14},
    {J, "{\"N\":2,\"nw\":[[0,2.0]]}", SN_EINVAL, "wire 2 is out of range for 2 inputs", 1, 14},
    {J, "{\"N\":0,\"nw\":[[0,1]]}", SN_EINVAL, "wire 0 is out of range for 0 inputs", 1, 14},
    {J, "{\"N\":2,\"nw\":[[1,1]]}", SN_EINVAL, "joins a wire to itself", 1, 14},
    {J, "{\"N\":3,\"nw\":[[[0,1]],[[1,2],[2,1]]]}", SN_EINVAL, NULL, 1, 22},
    {J, "{\"N\":3,\"nw\":[[[0,1]],[[1,\"x\"]]]}", SN_EPARSE, "nw[1][0]: wire must be a number", 1,
     23},
    {J, "{\"N\":3,\"nw\":[[[0,1]],5]}", SN_EPARSE,
     "nw[1]: expected a layer (a list of [a,b] comparators), found an integer", 1, 22},
    {J, "{\"N\":3,\"nw\":[[[0,1]],[3]]}", SN_EPARSE, "expected a layer", 1, 22},
    {J, "{\"N\":3,\"nw\":[[],[[0,1],[1,2]]]}", SN_EINVAL, NULL, 0, 0},
    {J, "{\"N\":3,\"nw\":[[[0,1]],[[0,2],[1,2]]]}", SN_EINVAL, NULL, 0, 0},
    {J, "{\"N\":3,\"nw\":[[0,1],[1,2]],\"L\":3}", SN_EINVAL,
     "\"L\": \"L\" is 3 but \"nw\" gives 2 comparators", 1, 31},
    {J, "{\"N\":3,\"nw\":[[0,1],[1,2]],\"D\":1}", SN_EINVAL, "\"D\" is 1 but \"nw\" gives 2 layers",
     1, 31},
    {J, "{\"N\":3,\"nw\":[[0,1],[1,2]],\"L\":\"2\"}", SN_EPARSE, "L must be a number", 1, 31},
    {J, "{\"N\":3,\"nw\":[[0,1],[1,2]],\"L\":2,\"D\":2}", SN_OK, NULL, 0, 0},
    /* the location search steps over strings (with escapes) and nested values */
    {J, "{\"c\\\"[\":\"]}\\\\\",\"x\":{\"y\":[1,{\"z\":\"]\"}]},\"N\":2,\"nw\":[[0,5]]}", SN_EINVAL,
     "nw[0]: wire 5", 1, 52},
    /* a key written with an escape: the message has no place in the text */
    {J, "{\"N\":2,\"\\u006ew\":[[0,5]]}", SN_EINVAL, "nw[0]: wire 5", 1, 1},
    {J, "{\"N\":2,\"a\":true,\"nw\":[[0,1],[0,9]]}", SN_EINVAL, "nw[1]:", 1, 29},
    /* jansson's own errors: line and column of the text */
    {J, "{\"N\":2,\n \"nw\":[[0,1]]", SN_EPARSE, NULL, 2, 0},
    {J, "{\"N\":2,\"N\":3,\"nw\":[]}", SN_EPARSE, "duplicate", 1, 0},
};
#undef J

#define B SN_FORMAT_BRACKET
#define S SN_FORMAT_SN
static const row text_rows[] = {
    {B, "[(-,1)]", SN_EPARSE, "found '-'", 1, 3},
    {B, "[(-2,1)]", SN_EPARSE, "must not be negative", 1, 3},
    {S, "Inputs: 2\n0 1\n*", SN_EPARSE, "expected a comparator 'a b' or a header line, found '*'",
     3, 1},
    {S, "Inputs: 2\n0 1\n\n  !", SN_EPARSE, "expected a comparator", 4, 3},
    {B, "[(0,1)]\n  x", SN_EPARSE, "expected '[' to start a layer, found 'x'", 2, 3},
    {B, "# only a comment\n\n", SN_EPARSE, "no network found", 0, 0},
};
#undef B
#undef S

/* Texts the readers accept, with what they hold. */
static void test_accepted(void)
{
    static const struct {
        sn_format fmt;
        const char *text;
        uint32_t wires;
        size_t size, layers;
    } ok[] = {
        /* a UTF-8 byte order mark before the text */
        {SN_FORMAT_BRACKET, "\xEF\xBB\xBF[(0,1)]\n", 2, 1, 1},
        {SN_FORMAT_SN, "\xEF\xBB\xBFInputs: 3\n0 1\n1 2\n", 3, 2, 2},
        /* layers on one line, with or without commas between them */
        {SN_FORMAT_BRACKET, "[(0,1)],[(1,2)] [(0,1)]", 3, 3, 3},
        {SN_FORMAT_UNKNOWN, "\xEF\xBB\xBF[(0,1)]\n", 2, 1, 1},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        sn_network *net = NULL;
        sn_diag d;
        sn_status st = sn_network_parse(ok[i].text, strlen(ok[i].text), ok[i].fmt, &net, &d);
        CHECKF(st == SN_OK, "accepted row %zu: %s: %s", i, sn_status_str(st), d.text);
        if (!net)
            continue;
        CHECKF(sn_network_wires(net) == ok[i].wires && sn_network_size(net) == ok[i].size &&
                   sn_network_layer_count(net) == ok[i].layers,
               "accepted row %zu: %u wires, %zu comparators, %zu layers", i, sn_network_wires(net),
               sn_network_size(net), sn_network_layer_count(net));
        sn_network_destroy(net);
    }
}

/* The text readers' limits: comparators and layers, at the comparator
 * that goes over. */
static void test_text_limits(void)
{
    sn_limits saved = sn_limits_get();
    sn_limits l = saved;
    l.max_comparators = 2;
    sn_limits_set(l);
    static const row over_size[] = {
        {SN_FORMAT_SN, "Inputs: 4\n0 1\n2 3\n\n0 2\n", SN_ELIMIT,
         "more than 2 comparators (the limit)", 5, 1},
    };
    run_rows("sn limits", over_size, 1);
    l = saved;
    l.max_layers = 2;
    sn_limits_set(l);
    static const row over_depth[] = {
        {SN_FORMAT_SN, "Inputs: 4\n0 1\n\n1 2\n\n2 3\n", SN_ELIMIT,
         "more than 2 layers (the limit)", 6, 1},
    };
    run_rows("sn limits", over_depth, 1);
    sn_diag d;
    sn_network *net = NULL;
    const char *t = "Inputs: 4\n0 1\n\n1 2\n\n2 3\n";
    CHECK(sn_network_parse(t, strlen(t), SN_FORMAT_SN, &net, &d) == SN_ELIMIT && !net);
    CHECK(d.limit == SN_LIMIT_LAYERS);
    sn_limits_set(saved);
}

/* The limits: the flat and the layered count, and the reader's early
 * count of '[' in the text (before jansson builds anything). */
static void test_json_limits(void)
{
    sn_limits saved = sn_limits_get();
    sn_limits l = saved;
    l.max_comparators = 2;
    l.max_layers = 10;
    sn_limits_set(l);
    static const row flat[] = {
        {SN_FORMAT_JSON, "{\"N\":3,\"nw\":[[0,1],[1,2],[0,1]]}", SN_ELIMIT,
         "\"nw\": 3 comparators is over the limit of 2", 1, 13},
    };
    run_rows("json limits", flat, 1);
    l.max_comparators = 10;
    l.max_layers = 2;
    sn_limits_set(l);
    static const row layered[] = {
        {SN_FORMAT_JSON, "{\"N\":3,\"nw\":[[[0,1]],[[1,2]],[[0,1]]]}", SN_ELIMIT,
         "\"nw\": 3 layers is over the limit of 2", 1, 13},
    };
    run_rows("json limits", layered, 1);
    sn_diag d;
    sn_network *net = NULL;
    const char *t = "{\"N\":3,\"nw\":[[[0,1]],[[1,2]],[[0,1]],[[0,1]],[[0,1]],[[0,1]],[[0,1]]]}";
    CHECK(sn_network_parse(t, strlen(t), SN_FORMAT_JSON, &net, &d) == SN_ELIMIT && !net);
    CHECK(d.limit == SN_LIMIT_COMPARATORS && strstr(d.text, "more than 14 lists") != NULL);
    sn_limits_set(saved);
}

/* Every writer, with the disk full after 0, 1, 2, ... bytes: each run that
 * cannot write everything ends in SN_EIO naming the cause, having written
 * a beginning of the whole output (the same writer with no limit) and
 * nothing else; the first run with room for it all succeeds and writes
 * exactly that. */
static void test_write_errors(void)
{
    sn_network *net = NULL;
    const char *t = "[(0,1),(2,3)]\n[(0,2)]\n";
    CHECK(sn_network_parse(t, strlen(t), SN_FORMAT_BRACKET, &net, NULL) == SN_OK);
    sn_network *empty = sn_network_create(2);
    CHECK(net && empty);
    if (!net || !empty)
        return;
    const sn_format fmts[] = {SN_FORMAT_BRACKET, SN_FORMAT_SN, SN_FORMAT_JSON};
    const sn_network *nets[] = {net, empty};
    for (size_t f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
        if (fmts[f] == SN_FORMAT_JSON && !sn_format_have_json())
            continue;
        for (size_t m = 0; m < 2; m++) {
            const char *name = sn_format_name(fmts[f]);
            sn_full_disk whole;
            FILE *fp = sn_full_disk_open(&whole, SN_FULL_DISK_NO_LIMIT, false);
            CHECK(fp != NULL);
            if (!fp)
                return;
            sn_status st = sn_network_write(nets[m], fmts[f], fp, NULL);
            CHECK(fclose(fp) == 0);
            CHECKF(st == SN_OK && !whole.lost && whole.used > 0, "%s with no limit: %s", name,
                   sn_status_str(st));
            for (size_t room = 0;; room++) {
                sn_full_disk k;
                fp = sn_full_disk_open(&k, room, false);
                CHECK(fp != NULL);
                if (!fp)
                    break;
                sn_diag d;
                sn_diag_clear(&d);
                st = sn_network_write(nets[m], fmts[f], fp, &d);
                fclose(fp);
                bool done = st == SN_OK;
                CHECKF(sn_full_disk_holds(&k, whole.data, whole.used, done),
                       "%s, room %zu (%s): %zu bytes that are not %s the %zu of the whole output",
                       name, room, sn_status_str(st), k.used, done ? "all" : "a beginning of",
                       whole.used);
                sn_full_disk_free(&k);
                if (done) {
                    CHECKF(room == whole.used, "%s: the first room that took it: %zu, not %zu",
                           name, room, whole.used);
                    break;
                }
                CHECKF(st == SN_EIO && strstr(d.text, "No space left on device"),
                       "%s, room %zu: %s: %s", name, room, sn_status_str(st), d.text);
                if (room > whole.used) {
                    CHECKF(0, "%s: failed with room %zu for its %zu bytes", name, room, whole.used);
                    break;
                }
            }
            sn_full_disk_free(&whole);
        }
    }
    /* no network, no stream, no format */
    sn_diag d;
    CHECK(sn_network_write(NULL, SN_FORMAT_SN, stdout, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no network or no stream") != NULL);
    CHECK(sn_network_write(net, SN_FORMAT_SN, NULL, &d) == SN_EINVAL);
    CHECK(sn_network_write(net, SN_FORMAT_UNKNOWN, stdout, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "cannot write a network in format") != NULL);
    sn_network_destroy(net);
    sn_network_destroy(empty);
}

/* Network names of the command line that name nothing, and the reader's
 * own argument checks. */
static void test_loads(void)
{
    static const struct {
        const char *spec;
        sn_status st;
        const char *words;
    } rows[] = {
        {"", SN_EINVAL, "empty network name"},
        {"merge:4", SN_EINVAL, "merge:4: expected merge:A,B"},
        {"merge:,4", SN_EINVAL, "expected merge:A,B"},
        {"merge:12345678901234567,2", SN_EINVAL, "expected merge:A,B"},
        {"merge:x,4", SN_EINVAL, "'x' is not a number of wires (e.g. merge:16)"},
        {"merge:4,y", SN_EINVAL, "'y' is not a number of wires"},
        {"half-cleaner:x", SN_EINVAL, "half-cleaner:x: 'x' is not a number of wires"},
        {"bitonic-merge:0", SN_EINVAL, "a network needs at least 1 wire"},
        {"bitonic:", SN_EINVAL, "expected the number of wires after ':'"},
        {"bitonic:99999999999", SN_ELIMIT, "too many wires"},
        {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:4",
         SN_EINVAL,
         "unknown generator 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'"},
        {"explicit:4", SN_EINVAL, "unknown generator 'explicit'"},
        /* a generator's name alone: most likely its n is missing */
        {"hibbard", SN_EIO, "(for a generated network, write hibbard:N)"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        sn_schedule *s = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_schedule_load(rows[i].spec, &s, &d);
        CHECKF(st == rows[i].st && s == NULL, "load %s: %s", rows[i].spec, sn_status_str(st));
        CHECKF(strstr(d.text, rows[i].words) != NULL, "load %s: \"%s\" lacks \"%s\"", rows[i].spec,
               d.text, rows[i].words);
        sn_schedule_destroy(s);
    }
    sn_diag d;
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load("bitonic:4", NULL, &d) == SN_EINVAL && strstr(d.text, "no output"));
    CHECK(sn_schedule_load(NULL, &s, &d) == SN_EINVAL && s == NULL);
    /* empty:N over the wire limit */
    sn_limits saved = sn_limits_get(), l = saved;
    l.max_wires = 8;
    sn_limits_set(l);
    CHECK(sn_schedule_load("empty:9", &s, &d) == SN_ELIMIT && s == NULL);
    CHECK(d.limit == SN_LIMIT_WIRES && strstr(d.text, "empty:9: too many wires"));
    sn_limits_set(saved);

    /* the parse entry's own checks */
    sn_network *net = NULL;
    CHECK(sn_network_parse(NULL, 3, SN_FORMAT_BRACKET, &net, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "no text or no output") != NULL);
    CHECK(sn_network_parse("[]", 2, SN_FORMAT_BRACKET, NULL, &d) == SN_EINVAL);
    CHECK(sn_network_parse(NULL, 0, SN_FORMAT_UNKNOWN, &net, &d) == SN_EPARSE && !net);
    CHECK(strstr(d.text, "the input is empty") != NULL);
    CHECK(sn_network_parse("[(0,1)]", 7, (sn_format)9, &net, &d) == SN_EINVAL && !net);
    CHECK(strstr(d.text, "unknown format 9") != NULL);
    sn_format f = SN_FORMAT_SN;
    CHECK(!sn_format_parse(NULL, &f) && f == SN_FORMAT_SN);
    CHECK(sn_format_parse("txt", NULL));
    CHECK(sn_format_parse("libsortnetwork", &f) && f == SN_FORMAT_SN);
    char *text = NULL;
    size_t len = 0;
    CHECK(sn_file_read_all(NULL, 10, &text, &len, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "missing argument") != NULL);
    CHECK(sn_file_read_all("x", 10, NULL, &len, &d) == SN_EINVAL);
}

/* A read that fails part way (standard input open for writing only, so
 * every read of it fails with EBADF): SN_EIO naming the cause, nothing
 * handed out; standard input is usable again after. */
static void test_read_error(void)
{
    char path[] = "sn_read_error_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    int wfd = open(path, O_WRONLY);
    int saved = dup(0);
    CHECK(wfd >= 0 && saved >= 0 && dup2(wfd, 0) == 0);
    char *text = (char *)1;
    size_t len = 7;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_file_read_all("-", 1000, &text, &len, &d);
    CHECKF(st == SN_EIO && strstr(d.text, "<stdin>: read error: Bad file descriptor"), "%s: %s",
           sn_status_str(st), d.text);
    CHECK(text == NULL && len == 0);
    CHECK(dup2(saved, 0) == 0);
    close(saved);
    close(wfd);
    close(fd);
    unlink(path);
}

/* A libsortnetwork stage that reuses a wire is split where the wire comes
 * again; out of memory at each allocation of reading such a file (the
 * split's included): SN_ENOMEM, no network, no leak; then two layers. */
static void test_sn_split_oom(void)
{
    const char *t = "Inputs: 3\n0 1\n1 2\n";
    size_t base = sn_alloc_live(), failed = 0;
    for (size_t k = 1; k < 1000; k++) {
        sn_network *net = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_network_parse(t, strlen(t), SN_FORMAT_SN, &net, &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < k) {
            CHECK(st == SN_OK && net && sn_network_layer_count(net) == 2);
            sn_network_destroy(net);
            break;
        }
        failed++;
        CHECKF(st == SN_ENOMEM && net == NULL, "allocation %zu: %s: %s", k, sn_status_str(st),
               d.text);
        CHECKF(sn_alloc_live() == base, "allocation %zu failing: a leak", k);
    }
    CHECK(failed >= 2);
}

int main(void)
{
    test_loads();
    test_write_errors();
    test_read_error();
    test_sn_split_oom();
    run_rows("text", text_rows, sizeof text_rows / sizeof text_rows[0]);
    test_accepted();
    test_text_limits();
    if (sn_format_have_json())
        test_json_limits();
    if (sn_format_have_json())
        run_rows("json", json_rows, sizeof json_rows / sizeof json_rows[0]);
    else
        printf("test_format_errors: built without jansson, JSON rows skipped\n");
    return sn_test_finish("test_format_errors");
}
