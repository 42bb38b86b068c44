/* exercise.h - a lesson's exercises in the session (docs/lessons.md,
 * "Exercises"): the exercise of the step shown (core/exercise.h), its
 * hint, the grade of the last answer with its explanation, and the score
 * over the lesson.
 *
 * Every front-end answers through the same calls: the window's keys and
 * --script verbs (answer:TEXT, answer, hint), the page's exports
 * (src/web/engine_exercise.c). The question, then the explanation, is the
 * caption the scene draws; after an answer the view shows what explains
 * it (the layer played, the failing input run to the end).
 *
 * Scoring: the first answer to a step's exercise counts (asked + 1, and
 * right + 1 when it is right); later answers are graded and explained
 * but do not change the score. The first answer's text is kept per step:
 * a link carries it (session/link.h, ex=), and showing an answered step
 * again shows that answer graded with its explanation (what a teacher
 * sees when opening a handed-in link), in every front-end alike.
 *
 * Invariants: results is NULL or holds one char per lesson step ('.' no
 * exercise, '-' not answered, 'R' first answer right, 'W' wrong);
 * answers is NULL or holds one text per lesson step, not NULL exactly
 * where results holds 'R' or 'W'; ex is the exercise of lesson step
 * `step` or NULL. */
#ifndef SN_SESSION_EXERCISE_H
#define SN_SESSION_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/exercise.h"
#include "core/status.h"
#include "core/textbuf.h"

typedef struct sn_exercise_state {
    sn_exercise *ex; /* the shown step's exercise (owned), or NULL */
    size_t step;     /* the lesson step it belongs to */
    bool hint;       /* its hint is shown */
    bool answered;   /* graded at least once */
    bool right;      /* the last grade */
    char answer[160];
    /* the step's caption, the question, the hint or the explanation: two
     * buffers taken in turn, so a changed caption is at another address
     * (what the window's partial redraw compares) */
    char caption[2][2400];
    int cur;
    bool typing;        /* the window's answer line is open */
    char line[160];     /* what is typed in it */
    char *results;      /* [steps], or NULL */
    char **answers;     /* [steps]: each step's first answer (owned), or NULL */
    size_t steps;
    const void *lesson; /* the lesson results belong to */
} sn_exercise_state;

struct sn_session;
struct sn_link_answer;
struct sn_lesson;

/* Free what x holds and empty it. */
void sn_exercise_state_clear(sn_exercise_state *x);

/* The session's lesson step is shown (another lesson: a fresh score):
 * make the step's exercise. On failure diag says why and no exercise is
 * held (the step still shows). */
sn_status sn_session_exercise_enter(struct sn_session *s, sn_diag *diag);

/* Answer the shown exercise with text (exercise.h's forms); an empty
 * text answers complete with the network shown (edit mode's result), kept
 * as "cmp:" and its compact form (link.h), a text complete also takes.
 * false, with an error message on the main view, when no exercise is
 * shown or the text is not an answer; a wrong answer is true (graded). */
bool sn_session_answer(struct sn_session *s, const char *text);
/* The answer line a front-end without text boxes types into (the window:
 * its keys and text input; the page has an answer box). */
typedef enum sn_answer_key {
    SN_ANSWER_TEXT = 0, /* text typed (UTF-8) */
    SN_ANSWER_ENTER,    /* closed: open it (predict: holding the values shown);
                           open: answer with it ("hint": show the hint) */
    SN_ANSWER_BACK,     /* delete the last character */
    SN_ANSWER_CANCEL    /* close it */
} sn_answer_key;
/* One key for the answer line; true when the line took it (the front-end
 * then gives it to nothing else). Enter opens the line only while an
 * exercise is shown; the other keys act only while it is open. The line
 * shows on the main view's message line. */
bool sn_session_answer_line(struct sn_session *s, sn_answer_key key, const char *text);

/* Show the shown exercise's hint; false when there is none. */
bool sn_session_hint(struct sn_session *s);

/* The caption of the shown step with its exercise; on a step without one
 * of a lesson with exercises, once one was answered, step_caption with
 * the score; else NULL (the step's own caption). */
const char *sn_session_exercise_caption(struct sn_session *s, const char *step_caption);

/* Right and asked over the lesson; false when the lesson has no exercise. */
bool sn_session_score(const struct sn_session *s, size_t *right, size_t *asked);

/* The result as one line a student hands in, appended to b:
 * "lesson 04-exercises score 2/3: 1 predict seed=1 right, ... link
 * #v1&lesson=...&ex=...&end", every exercise step with its kind, seed, n
 * and result (right, wrong or -), then the link that shows the answers
 * (the part after '#': the page puts its address before it). Nothing
 * when the lesson has no exercise; b->failed: out of memory. */
void sn_session_exercise_text(const struct sn_session *s, sn_textbuf *b);

/* The first answers given, for a link: *out (owned by the caller, each
 * text too; NULL when none) gets one per answered step, steps rising. */
sn_status sn_session_exercise_answers(const struct sn_session *s, struct sn_link_answer **out,
                                      size_t *count);
/* Check answers for lesson l (steps rising): each answers a step of l
 * that has an exercise, with text that exercise takes. On failure diag
 * says "link: ..." naming the step. */
sn_status sn_exercise_answers_check(const struct sn_lesson *l, const struct sn_link_answer *a,
                                    size_t count, sn_diag *diag);
/* Take checked answers (sn_exercise_answers_check) as the first answers
 * to the open lesson's steps: graded, scored. The step shown is entered
 * again by the caller (sn_session_lesson_go) to show its answer. */
sn_status sn_session_exercise_restore(struct sn_session *s, const struct sn_link_answer *a,
                                      size_t count, sn_diag *diag);

/* --dump-state's exercise lines (none when the lesson has no exercise). */
void sn_session_exercise_dump(const struct sn_session *s, FILE *f);

#endif
