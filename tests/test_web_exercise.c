/* test_web_exercise.c - the page's exercise exports (src/web/
 * engine_exercise.h) natively: a lesson of exercises opened through the
 * engine, answered wrong, right and malformed, the hint, the hand-in line
 * and window.snState.exercise as the page reads it (JSON, parsed with
 * jansson); what the chromium test (web_exercise_test.py) does through
 * the page's controls, without a browser. */
#include <jansson.h> /* for: json_loads (the state is JSON) */
#include <string.h>

#include "sn_test.h"
#include "web/engine.h"
#include "web/engine_exercise.h"

#define LEN(s) (s), strlen(s)

static json_t *exercise(void)
{
    json_error_t e;
    json_t *j = json_loads(snw_state(), 0, &e);
    CHECKF(j != NULL, "the state is not JSON: %s", e.text);
    json_t *x = j ? json_incref(json_object_get(j, "exercise")) : NULL;
    json_decref(j);
    return x;
}

static long long num(json_t *x, const char *key)
{
    return json_integer_value(json_object_get(x, key));
}

int main(void)
{
    /* no lesson: no exercise, and answers are refused */
    CHECK(snw_open(LEN("bitonic:4"), LEN("random:1")) == 0);
    json_t *x = exercise();
    CHECK(x && json_is_null(x));
    json_decref(x);
    CHECK(snw_exercise_answer(LEN("1")) == 2 && strstr(snw_error(), "no exercise"));
    CHECK(snw_exercise_hint() == 2);
    CHECK(strcmp(snw_exercise_text(), "") == 0);

    const char *text = "title: t\nstep: a\nexercise: depth seed=3 n=5\n"
                       "step: b\nnet: bitonic:4\ntext: Done.\n";
    CHECK(snw_lesson_open(LEN(text), LEN("hw.lesson")) == 0);
    x = exercise();
    CHECK(x && json_is_object(x));
    if (!x)
        return sn_test_finish("test_web_exercise");
    CHECK(strcmp(json_string_value(json_object_get(x, "kind")), "depth") == 0);
    CHECK(num(x, "seed") == 3 && num(x, "n") == 5 && num(x, "asked") == 0 && num(x, "right") == 0);
    CHECK(json_is_false(json_object_get(x, "answered")) && json_is_null(json_object_get(x, "correct")));
    CHECK(strstr(json_string_value(json_object_get(x, "question")), "layers") != NULL);
    json_decref(x);

    CHECK(snw_exercise_hint() == 1);
    x = exercise();
    CHECK(x && json_is_true(json_object_get(x, "hint")) &&
          strstr(json_string_value(json_object_get(x, "caption")), "Hint:"));
    json_decref(x);

    /* malformed: 2, the error says what an answer is, nothing counted */
    CHECK(snw_exercise_answer(LEN("deep")) == 2 && strstr(snw_error(), "a number of layers"));
    char big[5000];
    memset(big, '1', sizeof big);
    CHECK(snw_exercise_answer(big, sizeof big) == 2 && strstr(snw_error(), "longer than"));
    /* a wrong answer (a depth of 0 is never right), then the right one */
    CHECK(snw_exercise_answer(LEN("0")) == 1 && snw_error()[0] == '\0');
    x = exercise();
    CHECK(x && num(x, "asked") == 1 && num(x, "right") == 0 &&
          json_is_true(json_object_get(x, "answered")) &&
          json_is_false(json_object_get(x, "correct")));
    const char *cap = x ? json_string_value(json_object_get(x, "caption")) : "";
    long depth = 0;
    const char *fit = strstr(cap, "fit in ");
    CHECKF(fit && sscanf(fit, "fit in %ld", &depth) == 1 && depth > 0, "caption: %s", cap);
    json_decref(x);
    char right[32];
    snprintf(right, sizeof right, "%ld", depth);
    CHECK(snw_exercise_answer(LEN(right)) == 1);
    x = exercise();
    CHECK(x && num(x, "asked") == 1 && num(x, "right") == 0 &&
          json_is_true(json_object_get(x, "correct")));
    CHECKF(x && strcmp(json_string_value(json_object_get(x, "handin")),
                       "lesson hw score 0/1: 1 depth seed=3 n=5 wrong link "
                       "#v1&lesson=hw.lesson&ls=0&step=0&ex=0:0&end") == 0,
           "%s", x ? json_string_value(json_object_get(x, "handin")) : "-");
    json_decref(x);
    CHECK(strcmp(snw_exercise_text(), "lesson hw score 0/1: 1 depth seed=3 n=5 wrong link "
                                      "#v1&lesson=hw.lesson&ls=0&step=0&ex=0:0&end") == 0);
    /* the step without one: kind null, the score stays */
    CHECK(snw_lesson_go(1) == 0);
    x = exercise();
    CHECK(x && json_is_null(json_object_get(x, "kind")) && num(x, "asked") == 1);
    json_decref(x);
    CHECK(snw_exercise_answer(LEN("3")) == 2);
    return sn_test_finish("test_web_exercise");
}
