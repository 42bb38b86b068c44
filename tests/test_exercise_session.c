/* test_exercise_session.c - a lesson's exercises in the session
 * (src/session/exercise.c) with no platform: every kind answered right
 * and wrong through sn_session_answer on fixed seeds (the answers from
 * the core exercise's own facts, whose grading tests/test_exercise.c
 * checks against a hand simulation), the score that counts first answers,
 * the caption (question, hint, explanation), what the view shows after an
 * answer, the hand-in line (ending with the link that carries the
 * answers, opened in a fresh session: the same score, each answered step
 * explained as the student saw it) and the dump; answers refused with a
 * message;
 * complete answered with the network built in edit mode; an out-of-memory
 * countdown over a round of answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "session/link.h"
#include "session/session.h"
#include "sn_test.h"

static const char lesson_text[] = "title: t\n"
                                  "step: intro\nnet: bitonic:4\ntext: Hello.\n"
                                  "step: p\nexercise: predict seed=11\ntext: Look.\n"
                                  "step: c\nexercise: counterexample seed=12 n=5\n"
                                  "step: r\nexercise: redundant seed=13\n"
                                  "step: d\nexercise: depth seed=14 n=7\n"
                                  "step: m\nexercise: merger seed=15\n"
                                  "step: f\nexercise: complete seed=16\nkeys: e\n";

static sn_session *open_lesson(sn_session *s)
{
    sn_lesson *l = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_session_init(s, SN_FRONT_WINDOW);
    sn_session_resize(s, 800, 500, 1.0);
    if (sn_lesson_parse(lesson_text, "ex.lesson", &l, &d) != SN_OK)
        return NULL;
    return sn_session_lesson_open(s, l, &d) == SN_OK ? s : NULL;
}

static char *dump_of(const sn_session *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    bool ok = sn_session_dump(s, f, NULL);
    fclose(f);
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

static void values_text(const uint32_t *v, uint32_t n, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (uint32_t i = 0; i < n; i++)
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s%u", i ? "," : "", v[i]);
}

/* The right (or a wrong) answer of the shown exercise as text. */
static void answer_of(const sn_exercise *e, bool right, char *buf, size_t cap)
{
    switch (e->kind) {
    case SN_EXERCISE_PREDICT: {
        uint32_t v[SN_EXERCISE_MAX_N];
        memcpy(v, e->expect, e->n * sizeof *v);
        if (!right) {
            uint32_t t = v[0];
            v[0] = v[1];
            v[1] = t;
        }
        values_text(v, e->n, buf, cap);
        return;
    }
    case SN_EXERCISE_COUNTEREXAMPLE:
        /* right: a failing input the checker finds is graded through the
         * session by its explanation's input; here the sorted input is
         * wrong and the session's explanation supplies a right one */
        buf[0] = '\0';
        for (uint32_t i = 0; i < e->n; i++)
            snprintf(buf + strlen(buf), cap - strlen(buf), "%s%u", i ? "," : "", i);
        return;
    case SN_EXERCISE_REDUNDANT:
        buf[0] = '\0';
        for (size_t i = right ? 0 : 1; i < e->redundant_count; i++)
            snprintf(buf + strlen(buf), cap - strlen(buf), "%s%zu", buf[0] ? "," : "",
                     e->redundant[i]);
        if (!buf[0])
            snprintf(buf, cap, "-");
        return;
    case SN_EXERCISE_DEPTH: snprintf(buf, cap, "%zu", e->depth + (right ? 0 : 1)); return;
    case SN_EXERCISE_MERGER: snprintf(buf, cap, "%s", e->merges == right ? "yes" : "no"); return;
    default: buf[0] = '\0'; return;
    }
}

static void test_every_kind(bool right)
{
    sn_session s;
    if (!open_lesson(&s)) {
        FAIL("the lesson opens");
        sn_session_cleanup(&s);
        return;
    }
    CHECK(s.exercise.ex == NULL); /* the intro has none */
    CHECK(!sn_session_answer(&s, "1,2,3,4"));
    CHECK(sn_session_main(&s)->message_error && strstr(sn_session_main(&s)->message, "no exercise"));
    CHECK(!sn_session_hint(&s));
    size_t asked = 0;
    for (size_t step = 1; step < s.lesson->count; step++) {
        CHECK(sn_session_action(&s, SN_ACT_RIGHT));
        const sn_exercise *e = s.exercise.ex;
        CHECKF(e != NULL, "step %zu has no exercise", step + 1);
        if (!e)
            continue;
        sn_view *v = sn_session_main(&s);
        CHECK(v->n == e->n);
        sn_frame_extra x;
        const char *cap = sn_session_extra(&s, &x)->caption;
        CHECKF(strstr(cap, e->question) != NULL, "caption: %s", cap);
        CHECK(sn_session_hint(&s));
        cap = sn_session_extra(&s, &x)->caption;
        CHECKF(strstr(cap, e->hint) != NULL, "hint: %s", cap);
        CHECK(v->zero_one == (e->kind == SN_EXERCISE_COUNTEREXAMPLE ||
                              e->kind == SN_EXERCISE_COMPLETE || e->kind == SN_EXERCISE_REDUNDANT));
        char buf[512];
        bool expect_right = right;
        if (e->kind == SN_EXERCISE_COMPLETE) {
            /* in edit mode: n - 1 passes of bubble sort sort anything */
            CHECK(v->edit);
            for (uint32_t p = 0; right && p + 1 < e->n; p++)
                for (uint32_t i = 0; i + 1 < e->n; i++)
                    sn_view_edit_add(v, i, i + 1, -1);
            sn_session_settle(&s);
            buf[0] = '\0';
        } else if (e->kind == SN_EXERCISE_COUNTEREXAMPLE && right) {
            /* a failing input: answer wrong once elsewhere is not wanted,
             * so run the grader on the sorted input outside the session
             * and answer with the input its explanation shows */
            sn_exercise_grade g;
            sn_diag d;
            CHECK(sn_exercise_check(e, "0,1,2,3,4", &g, &d) == SN_OK && !g.right &&
                  g.show_input);
            values_text(g.show, e->n, buf, sizeof buf);
        } else {
            answer_of(e, right, buf, sizeof buf);
            expect_right = e->kind == SN_EXERCISE_COUNTEREXAMPLE ? false : right;
        }
        CHECKF(sn_session_answer(&s, buf), "%s '%s': %s", sn_exercise_kind_name(e->kind), buf,
               v->message);
        asked++;
        CHECKF(s.exercise.answered && s.exercise.right == expect_right, "%s '%s': graded %d",
               sn_exercise_kind_name(e->kind), buf, s.exercise.right);
        cap = sn_session_extra(&s, &x)->caption;
        CHECKF(strncmp(cap, expect_right ? "Right" : "Not", 3) == 0 ||
                   strstr(cap, expect_right ? "Right" : "Not") ||
                   (e->kind == SN_EXERCISE_COMPLETE && strstr(cap, "does not sort")),
               "%s: caption after the answer: %s", sn_exercise_kind_name(e->kind), cap);
        size_t r = 0, a = 0;
        CHECK(sn_session_score(&s, &r, &a) && a == asked);
        /* what explains it is shown */
        if (e->kind == SN_EXERCISE_PREDICT) {
            CHECK(v->step == e->at + 1);
            CHECK(memcmp(sn_view_values(v), e->expect, e->n * sizeof *e->expect) == 0);
        }
        if (e->kind == SN_EXERCISE_COUNTEREXAMPLE && !expect_right) {
            CHECK(v->step == v->layers);
            CHECK(!sn_view_output_sorted(v, NULL)); /* the failing input, run */
        }
        /* a second answer is graded but does not count */
        if (e->kind != SN_EXERCISE_COMPLETE) {
            CHECK(sn_session_answer(&s, buf));
            size_t r2 = 0, a2 = 0;
            sn_session_score(&s, &r2, &a2);
            CHECK(r2 == r && a2 == a);
        }
        /* a malformed answer is refused with what an answer is */
        if (e->kind != SN_EXERCISE_COMPLETE) {
            CHECK(!sn_session_answer(&s, "x"));
            CHECK(v->message_error && strstr(v->message, "answer 'x': expected"));
        } else {
            CHECK(!sn_session_answer(&s, "(0,99)"));
        }
    }
    size_t r = 0, a = 0;
    CHECK(sn_session_score(&s, &r, &a) && a == 6);
    CHECKF(r == (right ? 6u : 0u), "score %zu/%zu", r, a);
    sn_textbuf hb = SN_TEXTBUF_INIT;
    sn_session_exercise_text(&s, &hb);
    const char *line = hb.s ? hb.s : "";
    CHECKF(strncmp(line, right ? "lesson ex score 6/6: 2 predict seed=11 right, 3 "
                                 "counterexample seed=12 n=5 right"
                               : "lesson ex score 0/6: 2 predict seed=11 wrong",
                   strlen(right ? "lesson ex score 6/6: 2 predict seed=11 right, 3 "
                                  "counterexample seed=12 n=5 right"
                                : "lesson ex score 0/6: 2 predict seed=11 wrong")) == 0,
           "hand-in: %s", line);
    /* it ends with the link that shows the answers */
    CHECKF(strstr(line, " link #v1&lesson=ex.lesson&ls=6&step=") && strstr(line, "&ex=1:") &&
               strstr(line, "/6:cmp:") && strcmp(line + strlen(line) - 4, "&end") == 0,
           "hand-in: %s", line);
    /* the teacher opens it: the same score, each step's answer explained */
    const char *hash = strstr(line, " link #");
    sn_lesson *lesson = NULL;
    sn_link l;
    sn_diag ld;
    sn_session t;
    sn_session_init(&t, SN_FRONT_PAGE);
    sn_session_resize(&t, 800, 500, 1.0);
    CHECK(hash && sn_lesson_parse(lesson_text, "ex.lesson", &lesson, &ld) == SN_OK);
    CHECKF(hash && sn_link_decode(hash + 7, strlen(hash + 7), &l, &ld) == SN_OK, "%s", ld.text);
    CHECKF(hash && sn_session_link_open(&t, &l, lesson, &ld) == SN_OK, "%s", ld.text);
    sn_link_clear(&l);
    size_t tr = 0, ta = 0;
    CHECK(sn_session_score(&t, &tr, &ta) && tr == r && ta == a);
    for (size_t step = 1; hash && step < 7; step++) {
        sn_session_lesson_go(&t, step, &ld);
        sn_session_lesson_go(&s, step, &ld);
        CHECKF(t.exercise.answered && t.exercise.right == right, "step %zu", step);
        sn_frame_extra tx, sx;
        const char *tc = sn_session_extra(&t, &tx)->caption;
        CHECKF(tc && strstr(tc, t.exercise.ex->question) == NULL,
               "step %zu shows its question, not the explanation: %s", step, tc ? tc : "-");
        CHECKF(tc && strcmp(tc, sn_session_extra(&s, &sx)->caption) == 0, "step %zu: %s", step,
               tc ? tc : "-");
        CHECK(sn_session_main(&t)->step == sn_session_main(&s)->step);
    }
    /* both on the last exercise step now: the same line (the student's
     * step= was that of the network they built) */
    sn_textbuf tb = SN_TEXTBUF_INIT, sb = SN_TEXTBUF_INIT;
    sn_session_exercise_text(&t, &tb);
    sn_session_exercise_text(&s, &sb);
    CHECKF(tb.s && sb.s && strcmp(tb.s, sb.s) == 0 && strstr(tb.s, "&ex=") &&
               strstr(line, strstr(tb.s, "&ex=")),
           "%s\nthen %s", sb.s ? sb.s : "-", tb.s ? tb.s : "-");
    sn_textbuf_free(&tb);
    sn_textbuf_free(&sb);
    sn_session_cleanup(&t);
    sn_textbuf_free(&hb);
    char *dump = dump_of(&s);
    CHECKF(dump && strstr(dump, "\nexercise: complete\n") &&
               strstr(dump, right ? "\nscore: 6/6\n" : "\nscore: 0/6\n") &&
               strstr(dump, "\nhandin: lesson ex score"),
           "dump:\n%s", dump ? dump : "-");
    free(dump);
    /* a step without an exercise shows the score */
    sn_session_lesson_go(&s, 0, &(sn_diag){0});
    sn_frame_extra fx;
    char want[64];
    snprintf(want, sizeof want, "Hello. Your score: %zu of 6 right.", right ? (size_t)6 : 0);
    CHECKF(strcmp(sn_session_extra(&s, &fx)->caption, want) == 0, "intro: %s",
           sn_session_extra(&s, &fx)->caption);
    sn_session_lesson_go(&s, s.lesson->count - 1, &(sn_diag){0});
    /* back to an answered step: its first answer graded and explained, the
     * score kept */
    CHECK(sn_session_action(&s, SN_ACT_LEFT));
    CHECK(s.exercise.ex && s.exercise.ex->kind == SN_EXERCISE_MERGER && s.exercise.answered &&
          s.exercise.right == right);
    CHECK(sn_session_score(&s, &r, &a) && a == 6);
    /* leaving the lesson ends its exercises */
    sn_group g;
    const char *spec = "bitonic:4";
    sn_view_input in = {SN_INPUT_RANDOM, 1, NULL, SN_KEY_I32};
    sn_diag d;
    if (sn_group_init(&g, &spec, 1, &in, &d) == SN_OK)
        CHECK(sn_session_show(&s, &g, false, &d) == SN_OK);
    CHECK(!s.exercise.ex && !sn_session_score(&s, &r, &a));
    sn_session_exercise_text(&s, &hb);
    CHECK(hb.s == NULL || hb.s[0] == '\0');
    sn_textbuf_free(&hb);
    dump = dump_of(&s);
    CHECK(dump && !strstr(dump, "score:"));
    free(dump);
    sn_session_cleanup(&s);
}

/* The window's answer line: closed, the keys are not its; open, text,
 * Back (a whole UTF-8 character), Enter and Esc. */
static void test_answer_line(void)
{
    sn_session s;
    if (!open_lesson(&s)) {
        FAIL("the lesson opens");
        sn_session_cleanup(&s);
        return;
    }
    CHECK(!sn_session_answer_line(&s, SN_ANSWER_ENTER, NULL)); /* the intro: no exercise */
    sn_session_action(&s, SN_ACT_RIGHT);                      /* predict */
    CHECK(!sn_session_answer_line(&s, SN_ANSWER_TEXT, "1"));
    CHECK(!sn_session_answer_line(&s, SN_ANSWER_BACK, NULL));
    CHECK(!sn_session_answer_line(&s, SN_ANSWER_CANCEL, NULL));
    CHECK(sn_session_answer_line(&s, SN_ANSWER_ENTER, NULL) && s.exercise.typing);
    sn_view *v = sn_session_main(&s);
    char want[128];
    values_text(sn_view_values(v), v->n, want, sizeof want);
    CHECKF(strcmp(s.exercise.line, want) == 0, "line '%s', values %s", s.exercise.line, want);
    CHECK(strstr(v->message, want) != NULL);
    CHECK(sn_session_answer_line(&s, SN_ANSWER_CANCEL, NULL) && !s.exercise.typing);
    CHECK(sn_session_answer_line(&s, SN_ANSWER_ENTER, NULL));
    for (size_t i = strlen(want); i > 0; i--)
        CHECK(sn_session_answer_line(&s, SN_ANSWER_BACK, NULL));
    CHECK(s.exercise.line[0] == '\0');
    CHECK(sn_session_answer_line(&s, SN_ANSWER_BACK, NULL)); /* empty: nothing to delete */
    CHECK(sn_session_answer_line(&s, SN_ANSWER_TEXT, "\xc3\xa9")); /* one character, two bytes */
    CHECK(sn_session_answer_line(&s, SN_ANSWER_BACK, NULL) && s.exercise.line[0] == '\0');
    char right[128];
    values_text(s.exercise.ex->expect, s.exercise.ex->n, right, sizeof right);
    CHECK(sn_session_answer_line(&s, SN_ANSWER_TEXT, right));
    char big[200];
    memset(big, '1', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK(sn_session_answer_line(&s, SN_ANSWER_TEXT, big)); /* too long: taken, not added */
    CHECK(strcmp(s.exercise.line, right) == 0);
    CHECK(sn_session_answer_line(&s, SN_ANSWER_ENTER, NULL) && !s.exercise.typing);
    CHECK(s.exercise.answered && s.exercise.right);
    sn_session_lesson_go(&s, 0, &(sn_diag){0});
    sn_frame_extra fx;
    CHECKF(strcmp(sn_session_extra(&s, &fx)->caption,
                  "Hello. Your score: 1 of 1 right (5 not answered).") == 0,
           "%s", sn_session_extra(&s, &fx)->caption);
    sn_session_lesson_go(&s, 1, &(sn_diag){0});
    sn_session_action(&s, SN_ACT_RIGHT); /* counterexample */
    CHECK(sn_session_answer_line(&s, SN_ANSWER_ENTER, NULL) && s.exercise.line[0] == '\0');
    CHECK(sn_session_answer_line(&s, SN_ANSWER_TEXT, "hint"));
    CHECK(sn_session_answer_line(&s, SN_ANSWER_ENTER, NULL) && s.exercise.hint && !s.exercise.answered);
    sn_session_cleanup(&s);
}

/* A round that may fail anywhere for want of memory. */
static void round_trip(sn_session *s)
{
    if (!open_lesson(s))
        return;
    for (size_t i = 1; i < s->lesson->count; i++) {
        sn_session_action(s, SN_ACT_RIGHT);
        sn_session_hint(s);
        sn_session_answer(s, s->exercise.ex && s->exercise.ex->kind == SN_EXERCISE_COMPLETE
                                 ? ""
                                 : "1,0,1,0,1,0");
        sn_session_answer(s, "2");
    }
    sn_textbuf b = SN_TEXTBUF_INIT;
    sn_session_exercise_text(s, &b);
    sn_textbuf_free(&b);
}

static void test_out_of_memory(void)
{
    size_t base = sn_alloc_live();
    sn_session s;
    sn_alloc_fail_after(0);
    round_trip(&s);
    sn_session_cleanup(&s);
    size_t total = sn_alloc_fail_after(0);
    CHECKF(total > 100, "a round makes %zu allocations", total);
    CHECK(sn_alloc_live() == base);
    /* every 7th allocation (the whole range runs under ASan for minutes) */
    for (size_t k = 1; k <= total; k += 7) {
        sn_alloc_fail_after(k);
        round_trip(&s);
        sn_alloc_fail_after(0);
        if (s.open) {
            char *dump = dump_of(&s);
            free(dump);
        }
        sn_session_cleanup(&s);
        CHECKF(sn_alloc_live() == base, "k=%zu: %zu blocks leaked", k, sn_alloc_live() - base);
    }
}

int main(void)
{
    test_every_kind(true);
    test_every_kind(false);
    test_answer_line();
    test_out_of_memory();
    return sn_test_finish("test_exercise_session");
}
