/* test_link.c - the links that carry what a page shows (session/link.h):
 * round trips of names, edited networks, inputs, lesson steps and answers
 * (ex=, every byte escaped and back), every malformed form refused with its
 * one line, the link of a session and the session a link opens (answers:
 * the score restored, an answered step explained, answers that are none
 * refused with nothing opened), and an out-of-memory countdown over both
 * ways. */
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
    CHECK(!l.net && !l.cmp && !l.input && !l.lesson && !l.answers && !l.answer_count);
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
    round_trip("v1&lesson=04&ls=2&step=0&ex=1:3,1,2&end");
    round_trip("v1&lesson=04&ls=0&step=0&ex=0:a/3:-/17:cmp:4*2F0-1*2F1-2&end");
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
    /* answers: each byte not written as itself is *XX */
    t = "v1&lesson=04&ex=2:3*201*20(x)/5:*7E*2A*2F*3D*26*C3*A9:.-_,+@!&end";
    CHECKF(sn_link_decode(t, strlen(t), &l, &d) == SN_OK, "%s", d.text);
    CHECK(l.answer_count == 2 && l.answers[0].step == 2 && l.answers[1].step == 5);
    CHECK(l.answer_count == 2 && strcmp(l.answers[0].text, "3 1 (x)") == 0 &&
          strcmp(l.answers[1].text, "~*/=&\xc3\xa9:.-_,+@!") == 0);
    sn_textbuf b = SN_TEXTBUF_INIT;
    CHECK(sn_link_encode(&l, &b, &d) == SN_OK);
    CHECKF(b.s && strcmp(b.s, "v1&lesson=04&ls=0&step=0&ex=2:3*201*20(x)/5:*7E*2A*2F*3D*26*C3*A9:.-"
                              "_,+@!&end") == 0,
           "%s", b.s ? b.s : "-");
    sn_textbuf_free(&b);
    sn_link_clear(&l);
    /* every byte from 1 to 255 escapes and comes back */
    sn_link_init(&l);
    char all[256];
    for (int i = 1; i < 256; i++)
        all[i - 1] = (char)i;
    all[255] = '\0';
    sn_link_answer a = {7, all};
    l.lesson = "04";
    l.answers = &a;
    l.answer_count = 1;
    CHECK(sn_link_encode(&l, &b, &d) == SN_OK);
    sn_link l2;
    CHECKF(b.s && sn_link_decode(b.s, b.len, &l2, &d) == SN_OK, "%s", d.text);
    CHECK(l2.answer_count == 1 && l2.answers[0].step == 7 && strcmp(l2.answers[0].text, all) == 0);
    sn_link_clear(&l2);
    sn_textbuf_free(&b);
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
    /* answers */
    refused("v1&net=bitonic:8&ex=1:2&end", "ex= (answers to a lesson's exercises) needs lesson=");
    refused("v1&lesson=04&ex=&end", "ex= is empty");
    refused("v1&lesson=04&ex=1&end", "STEP:ANSWER entries");
    refused("v1&lesson=04&ex=x:1&end", "not 'x'");
    refused("v1&lesson=04&ex=01:1&end", "not '01'");
    refused("v1&lesson=04&ex=-1:1&end", "not '-1'");
    refused("v1&lesson=04&ex=:1&end", "STEP:ANSWER entries");
    refused("v1&lesson=04&ex=1:&end", "step 1 has no answer");
    refused("v1&lesson=04&ex=1:2/&end", "STEP:ANSWER entries");
    refused("v1&lesson=04&ex=1:2//2:3&end", "STEP:ANSWER entries");
    refused("v1&lesson=04&ex=1:2/1:3&end", "answers step 1 twice");
    refused("v1&lesson=04&ex=2:2/1:3&end", "answers step 1 out of order");
    refused("v1&lesson=04&ex=1:2&ex=2:3&end", "ex= twice");
    refused("v1&lesson=04&ex=1:a~b&end", "'~' in an answer of ex= is written *7E");
    refused("v1&lesson=04&ex=1:a*&end", "bad escape");
    refused("v1&lesson=04&ex=1:a*2&end", "bad escape");
    refused("v1&lesson=04&ex=1:a*2g&end", "bad escape");
    refused("v1&lesson=04&ex=1:a*7e&end", "bad escape"); /* lower case */
    refused("v1&lesson=04&ex=1:a*41&end", "bad escape"); /* 'A' is written as itself */
    refused("v1&lesson=04&ex=1:a*3A&end", "bad escape"); /* ':' too */
    refused("v1&lesson=04&ex=1:a*00&end", "bad escape");
    refused("v1&lesson=04&ex=1:a*2/2:b&end", "bad escape"); /* cut short by the next entry */
    refused("v1&lesson=04&ex=1:a b&end", "' ' is not a byte");
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
    /* answers need a lesson, rising steps and text */
    l.input = NULL;
    sn_link_answer a[2] = {{3, "1"}, {2, "2"}};
    l.answers = a;
    l.answer_count = 1;
    CHECK(sn_link_encode(&l, &b, &d) == SN_EINVAL && strstr(d.text, "without a lesson"));
    l.net = NULL;
    l.lesson = "04";
    CHECK(sn_link_encode(&l, &b, &d) == SN_OK);
    sn_textbuf_clear(&b);
    l.answer_count = 2;
    CHECK(sn_link_encode(&l, &b, &d) == SN_EINVAL && strstr(d.text, "out of order"));
    a[1].step = 3;
    CHECK(sn_link_encode(&l, &b, &d) == SN_EINVAL);
    a[1].step = 4;
    a[1].text = "";
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

/* Lesson 04's exercise of step i, made anew. */
static sn_exercise *exercise_of(size_t i)
{
    const sn_lesson_source *src = sn_lesson_shipped("04");
    sn_lesson *l = NULL;
    sn_exercise *e = NULL;
    sn_diag d;
    if (src && sn_lesson_parse(src->text, src->name, &l, &d) == SN_OK)
        sn_lesson_exercise(l, i, &e, &d);
    sn_lesson_free(l);
    return e;
}

/* open text in s; the status */
static sn_status open_text(sn_session *s, const char *t, sn_diag *d)
{
    sn_link l;
    sn_status st = sn_link_decode(t, strlen(t), &l, d);
    if (st == SN_OK)
        st = sn_session_link_open(s, &l, NULL, d);
    sn_link_clear(&l);
    return st;
}

/* a link with answers: the score is the student's, an answered step shows
 * its answer graded and explained, and the session's link carries them */
static void test_session_answers(void)
{
    sn_exercise *depth = exercise_of(4), *merger = exercise_of(5);
    CHECK(depth && depth->kind == SN_EXERCISE_DEPTH && merger &&
          merger->kind == SN_EXERCISE_MERGER);
    if (!depth || !merger) {
        sn_exercise_free(depth);
        sn_exercise_free(merger);
        return;
    }
    char t[200];
    snprintf(t, sizeof t, "v1&lesson=04-exercises&ls=4&step=0&ex=4:%zu/5:%s&end", depth->depth,
             merger->merges ? "no" : "yes"); /* depth right, merger wrong */
    sn_exercise_grade g;
    sn_diag d;
    char ans[32];
    snprintf(ans, sizeof ans, "%zu", depth->depth);
    CHECK(sn_exercise_check(depth, ans, &g, &d) == SN_OK && g.right);
    sn_session s;
    sn_session_init(&s, SN_FRONT_PAGE);
    sn_session_resize(&s, 800, 500, 1.0);
    CHECKF(open_text(&s, t, &d) == SN_OK, "%s", d.text);
    size_t right = 0, asked = 0;
    CHECK(sn_session_score(&s, &right, &asked) && right == 1 && asked == 2);
    CHECK(s.lesson_step == 4 && s.exercise.ex && s.exercise.answered && s.exercise.right);
    CHECK(strcmp(s.exercise.answer, ans) == 0);
    sn_frame_extra fx;
    const char *cap = sn_session_extra(&s, &fx)->caption;
    CHECKF(cap && strstr(cap, g.explain), "caption '%s' lacks '%s'", cap ? cap : "-", g.explain);
    /* the session's link is the one opened */
    sn_link l;
    sn_textbuf b = SN_TEXTBUF_INIT;
    CHECK(sn_link_of_session(&s, &l, &d) == SN_OK && sn_link_encode(&l, &b, &d) == SN_OK);
    sn_link_clear(&l);
    CHECKF(b.s && strcmp(b.s, t) == 0, "%s, not %s", b.s ? b.s : "-", t);
    /* the wrong one shows wrong; an unanswered one shows its question */
    CHECK(sn_session_action(&s, SN_ACT_RIGHT) && s.exercise.answered && !s.exercise.right);
    CHECK(sn_session_lesson_go(&s, 3, &d) == SN_OK && !s.exercise.answered);
    /* answered now: the link carries three answers, steps rising */
    const sn_exercise *e = s.exercise.ex;
    CHECK(e && e->kind == SN_EXERCISE_REDUNDANT);
    CHECK(sn_session_answer(&s, "-"));
    CHECK(sn_session_answer(&s, "0")); /* a second answer: not the one kept */
    sn_textbuf_clear(&b);
    CHECK(sn_link_of_session(&s, &l, &d) == SN_OK && sn_link_encode(&l, &b, &d) == SN_OK);
    sn_link_clear(&l);
    CHECKF(b.s && strstr(b.s, "&ls=3&") && strstr(b.s, "&ex=3:-/4:"), "%s", b.s ? b.s : "-");
    CHECK(sn_session_score(&s, &right, &asked) && asked == 3);
    /* opened in a fresh session: the same score, the same link */
    sn_session s2;
    sn_session_init(&s2, SN_FRONT_WINDOW);
    CHECKF(b.s && open_text(&s2, b.s, &d) == SN_OK, "%s", d.text);
    size_t r2 = 0, a2 = 0;
    CHECK(sn_session_score(&s2, &r2, &a2) && r2 == right && a2 == 3);
    CHECK(s2.lesson_step == 3 && s2.exercise.answered && strcmp(s2.exercise.answer, "-") == 0);
    sn_textbuf b2 = SN_TEXTBUF_INIT;
    CHECK(sn_link_of_session(&s2, &l, &d) == SN_OK && sn_link_encode(&l, &b2, &d) == SN_OK);
    sn_link_clear(&l);
    CHECKF(b.s && b2.s && strcmp(b.s, b2.s) == 0, "%s, then %s", b.s ? b.s : "-",
           b2.s ? b2.s : "-");
    sn_textbuf_free(&b2);
    /* answers that are none: refused by name, nothing opened */
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"v1&lesson=04&ls=1&ex=0:3&end", "link: ex= answers step 0, which has no exercise"},
        {"v1&lesson=04&ex=99:3&end", "link: ex= answers step 99, and the lesson has steps 0 to"},
        {"v1&lesson=04&ex=1:1,2/4:deep&end", "link: ex= step 1: "},
        {"v1&lesson=04&ex=4:deep&end", "link: ex= step 4: "},
        {"v1&lesson=04&ex=6:cmp:6*2F0-9&end", "link: ex= step 6: answer: cmp:6/0-9: byte"},
        {"v1&lesson=04&ex=4:cmp:6&end", "link: ex= step 4: "},
        {"v1&lesson=01&ex=1:3&end", "which has no exercise"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sn_diag_clear(&d);
        CHECKF(open_text(&s2, bad[i].text, &d) != SN_OK, "%s opened", bad[i].text);
        CHECKF(strstr(d.text, bad[i].want) && !strchr(d.text, '\n'), "%s: '%s' lacks '%s'",
               bad[i].text, d.text, bad[i].want);
        CHECK(s2.lesson_step == 3 && sn_session_score(&s2, &r2, &a2) && a2 == 3);
    }
    sn_textbuf_free(&b);
    sn_session_cleanup(&s2);
    sn_session_cleanup(&s);
    sn_exercise_free(depth);
    sn_exercise_free(merger);
}

/* every allocation failing in turn: an error or success, nothing leaked */
static void oom_of(const char *t);
static void test_oom(void)
{
    oom_of("v1&cmp=4/0-1,2-3/0-2,1-3/1-2&in=bits:0110&step=2&end");
    oom_of("v1&lesson=04&ls=4&step=0&ex=1:1,2,3,4,5,6/4:3/5:yes/6:cmp:6*2F0-1&end");
}

static void oom_of(const char *t)
{
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
        /* (a lesson's parser says "out of memory" at its line) */
        CHECKF(st == SN_OK || st == SN_ENOMEM || strstr(d.text, ": out of memory"), "k=%zu: %s", k,
               d.text);
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
    test_session_answers();
    test_oom();
    return sn_test_finish("test_link");
}
