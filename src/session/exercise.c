/* exercise.c - a lesson's exercises in the session (exercise.h). */
#include "session/exercise.h"

#include <string.h>

#include "core/alloc.h"
#include "core/schedule.h"
#include "session/link.h"
#include "session/session.h"

void sn_exercise_state_clear(sn_exercise_state *x)
{
    sn_exercise_free(x->ex);
    sn_free(x->results);
    for (size_t i = 0; x->answers && i < x->steps; i++)
        sn_free(x->answers[i]);
    sn_free(x->answers);
    memset(x, 0, sizeof *x);
}

static char *dup_str(const char *t)
{
    size_t n = strlen(t) + 1;
    char *p = sn_malloc(n);
    if (p)
        memcpy(p, t, n);
    return p;
}

/* Grade text as an answer to e: the forms core/exercise.h reads, and for
 * complete "cmp:" with a network's compact form, or "" with shown (the
 * network shown; NULL: none). */
static sn_status grade(const sn_exercise *e, const sn_schedule *shown, const char *text,
                       sn_exercise_grade *g, sn_diag *d)
{
    sn_network *net = NULL;
    sn_status st;
    if (e->kind == SN_EXERCISE_COMPLETE && text[0] == '\0' && shown) {
        st = sn_schedule_to_network(shown, &net, d);
    } else if (e->kind == SN_EXERCISE_COMPLETE && strncmp(text, "cmp:", 4) == 0) {
        st = sn_link_compact_read(text + 4, strlen(text + 4), &net, d);
        if (st != SN_OK) {
            char why[sizeof d->text];
            snprintf(why, sizeof why, "%s", d->text + (strncmp(d->text, "link: ", 6) ? 0 : 6));
            return sn_diag_set(d, st, 0, 0, "answer: cmp:%.40s: %s", text + 4, why);
        }
    } else if (text[0] == '\0') {
        return sn_diag_set(d, SN_EPARSE, 0, 0, "answer: type the answer (%s)", e->question);
    } else {
        return sn_exercise_check(e, text, g, d);
    }
    if (st == SN_OK)
        st = sn_exercise_check_network(e, net, g, d);
    sn_network_destroy(net);
    return st;
}

/* The caption: the step's own text, then the question and the hint, or
 * after an answer its explanation (the question is in the title bar's
 * place no more: the explanation says what was asked). */
static void compose(sn_exercise_state *x, const char *step_caption, const char *explain)
{
    const sn_exercise *e = x->ex;
    x->cur = !x->cur;
    snprintf(x->caption[x->cur], sizeof x->caption[x->cur], "%s%s%s%s%s", step_caption ? step_caption : "",
             step_caption && step_caption[0] ? " " : "", explain ? explain : e->question,
             !explain && x->hint ? " Hint: " : "", !explain && x->hint ? e->hint : "");
}

static void answered(sn_session *s, const char *first);

sn_status sn_session_exercise_enter(sn_session *s, sn_diag *diag)
{
    sn_exercise_state *x = &s->exercise;
    if (x->lesson != s->lesson || !s->lesson) {
        sn_exercise_state_clear(x);
        if (s->lesson && sn_lesson_has_exercises(s->lesson)) {
            x->results = sn_malloc(s->lesson->count);
            x->answers = sn_calloc(s->lesson->count, sizeof *x->answers);
            if (!x->results || !x->answers) { /* x->lesson stays NULL: the next step tries again */
                sn_exercise_state_clear(x);
                return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
            }
            x->steps = s->lesson->count;
            for (size_t i = 0; i < x->steps; i++)
                x->results[i] = s->lesson->steps[i].exercise ? '-' : '.';
        }
        x->lesson = s->lesson;
    }
    sn_exercise_free(x->ex);
    x->ex = NULL;
    x->hint = x->answered = x->right = x->typing = false;
    x->line[0] = '\0';
    x->answer[0] = '\0';
    if (!s->lesson || !s->lesson->steps[s->lesson_step].exercise)
        return SN_OK;
    sn_status st = sn_lesson_exercise(s->lesson, s->lesson_step, &x->ex, diag);
    if (st != SN_OK)
        return st;
    x->step = s->lesson_step;
    compose(x, s->lesson->steps[x->step].caption, NULL);
    if (x->answers && x->answers[x->step])
        answered(s, x->answers[x->step]);
    return SN_OK;
}

/* Show what explains the grade in the view: the input to run and the
 * step to stop at. */
static void show(sn_session *s, const sn_exercise_grade *g)
{
    sn_view *v = sn_session_main(s);
    const sn_exercise *e = s->exercise.ex;
    if (!g->show_input || v->n != e->n)
        return;
    char text[SN_EXERCISE_MAX_N * 12 + 1] = "";
    for (uint32_t i = 0; i < e->n; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%u", i ? "," : "",
                 g->show[i]);
    sn_view_input in = {SN_INPUT_LIST, 0, text, v->type};
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_view_set_input(v, &in, &d) != SN_OK)
        return; /* the grade stands; only the picture is missing */
    s->group.playing = false;
    sn_group_step_to(&s->group, g->show_step == SIZE_MAX ? sn_group_layers(&s->group)
                                                         : g->show_step);
}

/* A graded answer on the shown step (given now, or kept from before): the
 * answer line, the picture and the explanation; the score as it stands in
 * *right of *asked. */
static void present(sn_session *s, const char *answer, const sn_exercise_grade *g, size_t *right,
                    size_t *asked)
{
    sn_exercise_state *x = &s->exercise;
    snprintf(x->answer, sizeof x->answer, "%s", answer);
    x->answered = true;
    x->right = g->right;
    show(s, g);
    compose(x, NULL, g->explain);
    *right = *asked = 0;
    sn_session_score(s, right, asked);
}

bool sn_session_answer(sn_session *s, const char *text)
{
    if (!s->open)
        return false;
    sn_view *v = sn_session_main(s);
    sn_exercise_state *x = &s->exercise;
    if (!x->ex) {
        sn_view_message(v, true, "answer: this step has no exercise");
        return false;
    }
    sn_exercise_grade g;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = grade(x->ex, v->sched, text, &g, &d);
    if (st != SN_OK) {
        sn_view_message(v, true, "%s", sn_diag_text(&d, st));
        return false;
    }
    bool first = x->results && x->step < x->steps && (x->results[x->step] == '-');
    if (first && x->answers) {
        /* kept as a link carries it: the network shown as its comparators */
        sn_textbuf kept = SN_TEXTBUF_INIT;
        if (text[0] == '\0') {
            sn_network *net = NULL;
            if (sn_schedule_to_network(v->sched, &net, &d) == SN_OK) {
                sn_textbuf_str(&kept, "cmp:");
                sn_link_compact(net, &kept);
            }
            sn_network_destroy(net);
        } else {
            sn_textbuf_str(&kept, text);
        }
        if (kept.failed || !kept.s) { /* not scored: the next answer is the first */
            sn_textbuf_free(&kept);
            sn_view_message(v, true, "answer: out of memory");
            return false;
        }
        x->answers[x->step] = kept.s; /* a textbuf's text is sn_malloc'ed */
    }
    if (first)
        x->results[x->step] = g.right ? 'R' : 'W';
    size_t right, asked;
    present(s, text[0] ? text : "(the network shown)", &g, &right, &asked);
    sn_view_message(v, false, "%s - score %zu/%zu", g.right ? "right" : "wrong", right, asked);
    return true;
}

/* The shown step was answered before (or in a link): its first answer
 * graded and explained, the score as it stands. */
static void answered(sn_session *s, const char *first)
{
    sn_exercise_state *x = &s->exercise;
    sn_view *v = sn_session_main(s);
    sn_exercise_grade g;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = grade(x->ex, NULL, first, &g, &d);
    if (st != SN_OK) { /* kept answers were graded once: only out of memory */
        sn_view_message(v, true, "%s", sn_diag_text(&d, st));
        return;
    }
    size_t right, asked;
    present(s, first, &g, &right, &asked);
    sn_view_message(v, false, "answered: %s - %s - score %zu/%zu", first,
                    g.right ? "right" : "wrong", right, asked);
}

sn_status sn_session_exercise_answers(const sn_session *s, sn_link_answer **out, size_t *count)
{
    const sn_exercise_state *x = &s->exercise;
    *out = NULL;
    *count = 0;
    size_t n = 0;
    for (size_t i = 0; x->answers && i < x->steps; i++)
        n += x->answers[i] != NULL;
    if (n == 0)
        return SN_OK;
    sn_link_answer *a = sn_calloc(n, sizeof *a);
    if (!a)
        return SN_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < x->steps; i++) {
        if (!x->answers[i])
            continue;
        a[k].step = i;
        a[k].text = dup_str(x->answers[i]);
        if (!a[k++].text) {
            for (size_t j = 0; j < k; j++)
                sn_free(a[j].text);
            sn_free(a);
            return SN_ENOMEM;
        }
    }
    *out = a;
    *count = n;
    return SN_OK;
}

/* Grade answer a to lesson l's step (its exercise made anew). */
static sn_status grade_step(const sn_lesson *l, const sn_link_answer *a, sn_exercise_grade *g,
                            sn_diag *d)
{
    if (a->step >= l->count)
        return sn_diag_set(d, SN_EPARSE, 0, 0,
                           "link: ex= answers step %zu, and the lesson has steps 0 to %zu",
                           a->step, l->count - 1);
    if (!l->steps[a->step].exercise)
        return sn_diag_set(d, SN_EPARSE, 0, 0, "link: ex= answers step %zu, which has no exercise",
                           a->step);
    sn_exercise *e = NULL;
    sn_status st = sn_lesson_exercise(l, a->step, &e, d);
    if (st == SN_OK)
        st = grade(e, NULL, a->text, g, d);
    sn_exercise_free(e);
    if (st != SN_OK && strncmp(d->text, "link:", 5) != 0) {
        char why[sizeof d->text];
        snprintf(why, sizeof why, "%s", sn_diag_text(d, st));
        sn_diag_set(d, st, 0, 0, "link: ex= step %zu: %s", a->step, why);
    }
    return st;
}

sn_status sn_exercise_answers_check(const sn_lesson *l, const sn_link_answer *a, size_t count,
                                    sn_diag *diag)
{
    for (size_t i = 0; i < count; i++) {
        sn_exercise_grade g;
        sn_status st = grade_step(l, &a[i], &g, diag);
        if (st != SN_OK)
            return st;
    }
    return SN_OK;
}

sn_status sn_session_exercise_restore(sn_session *s, const sn_link_answer *a, size_t count,
                                      sn_diag *diag)
{
    sn_exercise_state *x = &s->exercise;
    if (s->lesson && x->lesson != s->lesson) { /* out of memory when the step was shown */
        sn_status st = sn_session_exercise_enter(s, diag);
        if (st != SN_OK)
            return st;
    }
    if (!s->lesson || !x->results || !x->answers)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "link: answers without a lesson's exercises");
    for (size_t i = 0; i < count; i++) {
        sn_exercise_grade g;
        sn_status st = grade_step(s->lesson, &a[i], &g, diag);
        char *t = st == SN_OK ? dup_str(a[i].text) : NULL;
        if (st == SN_OK && !t)
            st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "link: out of memory");
        if (st != SN_OK)
            return st;
        sn_free(x->answers[a[i].step]);
        x->answers[a[i].step] = t;
        x->results[a[i].step] = g.right ? 'R' : 'W';
    }
    return SN_OK;
}

/* The open line on the message line, with a cursor and what keys do. */
static void show_line(sn_session *s)
{
    sn_view_message(sn_session_main(s), false, "answer: %s_   (Enter answers, Esc cancels, 'hint' "
                                               "shows the hint)",
                    s->exercise.line);
}

bool sn_session_answer_line(sn_session *s, sn_answer_key key, const char *text)
{
    sn_exercise_state *x = &s->exercise;
    if (!s->open || !x->ex)
        return false;
    size_t len = strlen(x->line);
    switch (key) {
    case SN_ANSWER_ENTER:
        if (!x->typing) {
            x->typing = true;
            x->line[0] = '\0';
            const sn_view *v = sn_session_main(s);
            const uint32_t *vals = sn_view_values(v);
            for (uint32_t i = 0; x->ex->kind == SN_EXERCISE_PREDICT && vals && i < v->n; i++)
                snprintf(x->line + strlen(x->line), sizeof x->line - strlen(x->line), "%s%u",
                         i ? "," : "", vals[i]);
            show_line(s);
            return true;
        }
        x->typing = false;
        if (strcmp(x->line, "hint") == 0)
            sn_session_hint(s);
        else
            sn_session_answer(s, x->line);
        return true;
    case SN_ANSWER_BACK:
        if (!x->typing)
            return false;
        /* one UTF-8 character: its continuation bytes and its first */
        while (len && ((unsigned char)x->line[len - 1] & 0xC0) == 0x80)
            len--;
        x->line[len ? len - 1 : 0] = '\0';
        show_line(s);
        return true;
    case SN_ANSWER_CANCEL:
        if (!x->typing)
            return false;
        x->typing = false;
        sn_view_message(sn_session_main(s), false, "no answer given (Enter answers)");
        return true;
    case SN_ANSWER_TEXT:
    default:
        if (!x->typing)
            return false;
        if (text && len + strlen(text) < sizeof x->line) {
            memcpy(x->line + len, text, strlen(text) + 1);
            show_line(s);
        }
        return true;
    }
}

bool sn_session_hint(sn_session *s)
{
    if (!s->open)
        return false;
    sn_exercise_state *x = &s->exercise;
    if (!x->ex) {
        sn_view_message(sn_session_main(s), true, "hint: this step has no exercise");
        return false;
    }
    x->hint = true;
    compose(x, s->lesson->steps[x->step].caption, NULL);
    /* the hints of these kinds point at the 0-1 panel: show it */
    sn_view *v = sn_session_main(s);
    sn_exercise_kind k = x->ex->kind;
    if ((k == SN_EXERCISE_COUNTEREXAMPLE || k == SN_EXERCISE_COMPLETE ||
         k == SN_EXERCISE_REDUNDANT) &&
        !v->zero_one && v->n <= SN_VIEW_ZERO_ONE_MAX_N)
        sn_view_action(v, SN_ACT_ZERO_ONE);
    return true;
}

const char *sn_session_exercise_caption(sn_session *s, const char *step_caption)
{
    sn_exercise_state *x = &s->exercise;
    if (x->ex)
        return x->caption[x->cur];
    /* a step without one, once something was answered: the score so far */
    size_t right = 0, asked = 0;
    if (!sn_session_score(s, &right, &asked) || asked == 0)
        return NULL;
    size_t total = 0;
    for (size_t i = 0; i < x->steps; i++)
        total += x->results[i] != '.';
    char *cap = x->caption[x->cur], left[64] = "";
    if (total > asked)
        snprintf(left, sizeof left, " (%zu not answered)", total - asked);
    char want[2400];
    snprintf(want, sizeof want, "%s%sYour score: %zu of %zu right%s.",
             step_caption ? step_caption : "", step_caption && step_caption[0] ? " " : "", right,
             asked, left);
    if (strcmp(cap, want) != 0) { /* a changed caption at the other address */
        x->cur = !x->cur;
        memcpy(x->caption[x->cur], want, sizeof want);
    }
    return x->caption[x->cur];
}

bool sn_session_score(const sn_session *s, size_t *right, size_t *asked)
{
    const sn_exercise_state *x = &s->exercise;
    *right = *asked = 0;
    if (!x->results)
        return false;
    for (size_t i = 0; i < x->steps; i++) {
        *asked += x->results[i] == 'R' || x->results[i] == 'W';
        *right += x->results[i] == 'R';
    }
    return true;
}

/* The lesson's name: its file's, without folders and .lesson. */
static void lesson_name(const sn_lesson *l, char *buf, size_t cap)
{
    const char *base = strrchr(l->file, '/');
    base = base ? base + 1 : l->file;
    size_t len = strlen(base);
    if (len > 7 && strcmp(base + len - 7, ".lesson") == 0)
        len -= 7;
    snprintf(buf, cap, "%.*s", (int)len, base);
}

void sn_session_exercise_text(const sn_session *s, sn_textbuf *b)
{
    const sn_exercise_state *x = &s->exercise;
    size_t right = 0, asked = 0;
    if (!s->lesson || !sn_session_score(s, &right, &asked))
        return;
    char name[200];
    lesson_name(s->lesson, name, sizeof name);
    sn_textbuf_printf(b, "lesson %s score %zu/%zu:", name, right, asked);
    bool first = true;
    for (size_t i = 0; i < x->steps; i++) {
        const sn_lesson_step *st = &s->lesson->steps[i];
        if (!st->exercise)
            continue;
        char n[16] = "";
        if (st->ex_n)
            snprintf(n, sizeof n, " n=%u", st->ex_n);
        sn_textbuf_printf(b, "%s %zu %s seed=%llu%s %s", first ? "" : ",", i + 1,
                          sn_exercise_kind_name(st->ex_kind), st->ex_seed, n,
                          x->results[i] == 'R' ? "right" : x->results[i] == 'W' ? "wrong" : "-");
        first = false;
    }
    /* the link that shows the answers; a lesson that cannot be named in
     * one (a file name with a space) leaves the line without it */
    sn_link l;
    sn_diag d;
    sn_diag_clear(&d);
    if (sn_link_of_session(s, &l, &d) != SN_OK)
        return;
    sn_textbuf lb = SN_TEXTBUF_INIT;
    if (sn_link_encode(&l, &lb, &d) == SN_OK && !lb.failed && lb.s)
        sn_textbuf_printf(b, " link #%s", lb.s);
    else if (lb.failed)
        b->failed = true;
    sn_textbuf_free(&lb);
    sn_link_clear(&l);
}

void sn_session_exercise_dump(const sn_session *s, FILE *f)
{
    const sn_exercise_state *x = &s->exercise;
    size_t right = 0, asked = 0;
    if (!sn_session_score(s, &right, &asked))
        return;
    if (x->ex)
        fprintf(f, "exercise: %s\nexercise_seed: %llu\nexercise_n: %u\nexercise_question: %s\n",
                sn_exercise_kind_name(x->ex->kind), (unsigned long long)x->ex->seed, x->ex->n,
                x->ex->question);
    else
        fprintf(f, "exercise: -\n");
    fprintf(f, "score: %zu/%zu\n", right, asked);
    fprintf(f, "answered: %s\n", !x->ex ? "-" : !x->answered ? "no" : x->right ? "right" : "wrong");
    sn_textbuf b = SN_TEXTBUF_INIT;
    sn_session_exercise_text(s, &b);
    fprintf(f, "handin: %s\n", b.failed || !b.s ? "(out of memory)" : b.s);
    sn_textbuf_free(&b);
}
