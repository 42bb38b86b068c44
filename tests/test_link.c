/* test_link.c - the links that carry what a page shows (session/link.h):
 * round trips of names, edited networks, inputs and lesson steps, every
 * malformed form refused with its one line, the link of a session and the
 * session a link opens, and an out-of-memory countdown over both ways. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "session/link.h"
#include "session/session.h"
#include "sn_test.h"

/* decode then encode: the same text */
static void round_trip(const char *text)
{
    sn_link l;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_link_decode(text, strlen(text), &l, &d);
    CHECKF(st == SN_OK, "%s: %s", text, d.text);
    if (st != SN_OK)
        return;
    sn_textbuf b = SN_TEXTBUF_INIT;
    CHECK(sn_link_encode(&l, &b, &d) == SN_OK);
    CHECKF(b.s && strcmp(b.s, text) == 0, "%s came back as %s", text, b.s ? b.s : "(null)");
    sn_textbuf_free(&b);
    sn_link_clear(&l);
}

/* text is refused with a message holding `want` */
static void refused(const char *text, const char *want)
{
    sn_link l;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_link_decode(text, strlen(text), &l, &d);
    CHECKF(st != SN_OK, "%s was read", text);
    CHECKF(strncmp(d.text, "link: ", 6) == 0 && strstr(d.text, want) && !strchr(d.text, '\n'),
           "%s: '%s' lacks '%s'", text, d.text, want);
    CHECK(!l.net && !l.cmp && !l.input && !l.lesson);
}

static void test_round_trips(void)
{
    round_trip("v1&net=bitonic:8&in=random:7&step=3&end");
    round_trip("v1&net=best:12&in=random:1&end");
    round_trip("v1&net=bitonic:8&end");
    round_trip("v1&net=median:25&in=reverse&end");
    round_trip("v1&net=empty:4&in=sorted&end");
    round_trip("v1&cmp=4/0-1,2-3/0-2,1-3/1-2&in=bits:0110&step=2&end");
    round_trip("v1&cmp=4/3-0&in=list:3,1,4,-2&end"); /* a reversed comparator, negative keys */
    round_trip("v1&cmp=5&end");                      /* wires and no comparators */
    round_trip("v1&lesson=02-how-bitonic-merges&ls=4&step=2&end");
    round_trip("v1&lesson=02&ls=0&step=0&end");
    round_trip("v1&net=bitonic:8&in=random:18446744073709551615&end");
    /* any order of fields reads the same */
    sn_link l;
    sn_diag d;
    const char *t = "v1&step=3&in=reverse&net=oddeven:8&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECK(l.step == 3 && strcmp(l.net, "oddeven:8") == 0 && strcmp(l.input, "reverse") == 0);
    sn_view_input in;
    CHECK(sn_link_input(&l, &in, &d) == SN_OK && in.kind == SN_INPUT_REVERSE);
    sn_link_clear(&l);
    t = "v1&cmp=3/0-2/0-1,&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) != SN_OK);
    t = "v1&cmp=6/0-5,1-4,2-3/0-1&in=random:99&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECK(sn_network_wires(l.cmp) == 6 && sn_network_layer_count(l.cmp) == 2 &&
          sn_network_size(l.cmp) == 4);
    CHECK(sn_link_input(&l, &in, &d) == SN_OK && in.kind == SN_INPUT_RANDOM && in.seed == 99);
    sn_link_clear(&l);
}

static void test_malformed(void)
{
    refused("", "empty");
    refused("net=bitonic:8&end", "version");
    refused("v&net=bitonic:8&end", "version");
    refused("v01&net=bitonic:8&end", "version");
    refused("v2&net=bitonic:8&end", "version 2");
    refused("v1&net=bitonic:8&in=random:7&step=3", "truncated");
    refused("v1&net=bitonic:8&in=random:7&st", "'st' is not a field");
    refused("v1&net=bitonic:8&en", "'en' is not a field");
    refused("v1&net=bitonic:8&end&step=1", "after 'end'");
    refused("v1&net=bitonic:8&net=best:8&end", "net= twice");
    refused("v1&net=&end", "net= is empty");
    refused("v1&net=bitonic:8&step&end", "'step' has no value");
    refused("v1&net=bitonic:8&step=a=b&end", "second '='");
    refused("v1&net=bitonic:8&step=x&end", "step=x is not a count");
    refused("v1&net=bitonic:8&step=-1&end", "not a count");
    refused("v1&net=bitonic:8&step=03&end", "not a count");
    refused("v1&net=bitonic:8&step=99999999999999999999&end", "not a count");
    refused("v1&net=bitonic:8&ls=1&end", "ls= (a lesson's step) needs lesson=");
    refused("v1&net=bitonic:8&in=random:x&end", "is not an input");
    refused("v1&net=bitonic:8&in=random:18446744073709551616&end", "is not an input");
    refused("v1&net=bitonic:8&in=bits:012&end", "is not an input");
    refused("v1&net=bitonic:8&in=list:&end", "is not an input");
    refused("v1&net=bitonic:8&in=shuffled&end", "is not an input");
    refused("v1&net=bitonic&end", "not a network's name");
    refused("v1&net=/etc/x:1&end", "not a network's name");
    refused("v1&in=reverse&end", "names no network");
    refused("v1&net=bitonic:8&cmp=2/0-1&end", "one of net=, cmp= and lesson=");
    refused("v1&lesson=01&in=reverse&end", "in= goes without lesson=");
    refused("v1&net=bitonic:8 &end", "' ' is not a byte");
    refused("v1&net=bitonic%3A8&end", "escape it out first");
    refused("v1&net=bitonic:8#&end", "'#' is not a byte");
    refused("v1&net=bit\xc3\xa9:8&end", "0xc3 is not a byte");
    refused("v1&cmp=x/0-1&end", "starts with the wire count");
    refused("v1&cmp=0&end", "starts with the wire count");
    refused("v1&cmp=5000&end", "starts with the wire count");
    refused("v1&cmp=4/0-1,,2-3&end", "an empty comparator");
    refused("v1&cmp=4//0-1&end", "an empty comparator");
    refused("v1&cmp=4/0-1/&end", "an empty comparator");
    refused("v1&cmp=4/0-&end", "'0-' is not a comparator");
    refused("v1&cmp=4/01&end", "'01' is not a comparator");
    refused("v1&cmp=4/0-4&end", "names a wire past the last");
    refused("v1&cmp=4/2-2&end", "joins a wire to itself");
    refused("v1&cmp=4/0-1,1-2&end", "uses a wire twice");
    refused("v1&cmp=4/0-1,2-3,0-2,1-3&end", "shares a wire");
    /* the byte a message names is the link's */
    sn_link l;
    sn_diag d;
    const char *t = "v1&cmp=4/0-1,2-x&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) != SN_OK);
    CHECKF(strstr(d.text, "byte 14:"), "%s", d.text);
}

static void test_encode_refuses(void)
{
    sn_link l;
    sn_link_init(&l);
    sn_textbuf b = SN_TEXTBUF_INIT;
    sn_diag d;
    CHECK(sn_link_encode(&l, &b, &d) == SN_EINVAL); /* nothing named */
    l.net = "a b:3";
    CHECK(sn_link_encode(&l, &b, &d) == SN_EINVAL && strstr(d.text, "cannot be written"));
    l.net = "bitonic:4";
    l.input = "list:1;2";
    CHECK(sn_link_encode(&l, &b, &d) == SN_EINVAL);
    CHECK(b.len == 0);
    sn_textbuf_free(&b);
}

/* the session's link, and the session a link opens: the same picture */
static void test_session(void)
{
    sn_session s;
    sn_session_init(&s, SN_FRONT_PAGE);
    sn_diag d;
    sn_diag_clear(&d);
    sn_link l;
    CHECK(sn_link_of_session(&s, &l, &d) == SN_EINVAL); /* nothing shown */
    const char *t = "v1&net=oddeven-merge:8&in=random:5&step=4&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECKF(sn_session_link_open(&s, &l, NULL, &d) == SN_OK, "%s", d.text);
    sn_link_clear(&l);
    sn_view *v = sn_session_main(&s);
    CHECK(strcmp(v->name, "oddeven-merge:8") == 0 && v->step == 4 && v->seed == 5);
    sn_textbuf b = SN_TEXTBUF_INIT;
    CHECK(sn_link_of_session(&s, &l, &d) == SN_OK && sn_link_encode(&l, &b, &d) == SN_OK);
    CHECKF(b.s && strcmp(b.s, t) == 0, "%s", b.s);
    sn_link_clear(&l);
    /* edited: the comparators travel, the name does not */
    sn_view_action(v, SN_ACT_EDIT);
    CHECK(sn_view_edit_add(v, 7, 0, -1));
    CHECK(sn_link_of_session(&s, &l, &d) == SN_OK && l.cmp && !l.net);
    sn_textbuf_clear(&b);
    CHECK(sn_link_encode(&l, &b, &d) == SN_OK);
    sn_link_clear(&l);
    size_t size = sn_network_size(v->hist[v->hist_pos]);
    sn_session s2;
    sn_session_init(&s2, SN_FRONT_WINDOW);
    CHECK(sn_link_decode(b.s, b.len, &l, &d) == SN_OK);
    CHECKF(sn_session_link_open(&s2, &l, NULL, &d) == SN_OK, "%s", d.text);
    sn_link_clear(&l);
    sn_view *v2 = sn_session_main(&s2);
    CHECK(v2->n == 8 && v2->layers == v->layers && v2->seed == 5 && v2->step == v->step);
    CHECK(sn_network_size(sn_schedule_network(v2->sched)) == size);
    /* a step past the last layer: refused, what was shown stays */
    t = "v1&net=bitonic:4&step=9&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECK(sn_session_link_open(&s2, &l, NULL, &d) == SN_EPARSE);
    CHECKF(strstr(d.text, "link: step=9, and bitonic:4 has 3 layers"), "%s", d.text);
    sn_link_clear(&l);
    CHECK(sn_session_main(&s2)->n == 8);
    /* a name that is no network, an input that does not fit */
    t = "v1&net=nosuch:4&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECK(sn_session_link_open(&s2, &l, NULL, &d) != SN_OK && strncmp(d.text, "link: ", 6) == 0);
    sn_link_clear(&l);
    t = "v1&net=bitonic:4&in=list:1,2&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECK(sn_session_link_open(&s2, &l, NULL, &d) != SN_OK && strstr(d.text, "expected 4"));
    sn_link_clear(&l);
    CHECK(sn_session_main(&s2)->n == 8);
    /* a lesson step: its link names the lesson, and opens the same step */
    t = "v1&lesson=02&ls=3&step=1&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECKF(sn_session_link_open(&s2, &l, NULL, &d) == SN_OK, "%s", d.text);
    sn_link_clear(&l);
    CHECK(s2.lesson && s2.lesson_step == 3 && sn_session_main(&s2)->step == 1);
    sn_textbuf_clear(&b);
    CHECK(sn_link_of_session(&s2, &l, &d) == SN_OK && sn_link_encode(&l, &b, &d) == SN_OK);
    sn_link_clear(&l);
    CHECKF(b.s && strncmp(b.s, "v1&lesson=02-", 13) == 0 && strstr(b.s, "&ls=3&step=1&end"), "%s",
           b.s);
    t = "v1&lesson=02&ls=99&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECK(sn_session_link_open(&s2, &l, NULL, &d) == SN_EPARSE && strstr(d.text, "ls=99"));
    sn_link_clear(&l);
    t = "v1&lesson=nosuchlesson&end";
    CHECK(sn_link_decode(t, strlen(t), &l, &d) == SN_OK);
    CHECK(sn_session_link_open(&s2, &l, NULL, &d) != SN_OK);
    sn_link_clear(&l);
    CHECK(s2.lesson && s2.lesson_step == 3);
    sn_session_lesson_close(&s2);
    CHECK(!s2.lesson && s2.open);
    sn_textbuf_free(&b);
    sn_session_cleanup(&s2);
    sn_session_cleanup(&s);
}

/* every allocation failing in turn: an error or success, nothing leaked */
static void test_oom(void)
{
    const char *t = "v1&cmp=4/0-1,2-3/0-2,1-3/1-2&in=bits:0110&step=2&end";
    for (size_t k = 1; k < 100000; k++) {
        size_t live = sn_alloc_live();
        sn_session s;
        sn_session_init(&s, SN_FRONT_PAGE);
        sn_link l;
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_link_decode(t, strlen(t), &l, &d);
        if (st == SN_OK) {
            st = sn_session_link_open(&s, &l, NULL, &d);
            sn_link_clear(&l);
        }
        if (st == SN_OK) {
            st = sn_link_of_session(&s, &l, &d);
            sn_link_clear(&l);
        }
        size_t made = sn_alloc_fail_after(0);
        CHECKF(st == SN_OK || st == SN_ENOMEM, "k=%zu: %s", k, d.text);
        sn_session_cleanup(&s);
        CHECKF(sn_alloc_live() == live, "k=%zu: %zu blocks leaked", k, sn_alloc_live() - live);
        if (made < k) /* the countdown outlasted every allocation */
            break;
    }
}

int main(void)
{
    test_round_trips();
    test_malformed();
    test_encode_refuses();
    test_session();
    test_oom();
    return sn_test_finish("test_link");
}
