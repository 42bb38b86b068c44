/* engine_exercise.h - the page's exercise exports (engine_exercise.c):
 * answers and hints of a lesson's exercises (session/exercise.h) from the
 * page's controls (src/web/page/exercise.js), and their part of the state.
 *
 * snw_exercise_answer(text, len): answer the shown exercise ("" answers
 * complete with the network shown); 1 graded (window.snState.exercise
 * says right or wrong), 2 no exercise or not an answer (snw_error says
 * what an answer is). snw_exercise_hint(): 1 shown, 2 none.
 * snw_exercise_text(): the line a student hands in ("" without
 * exercises). */
#ifndef SN_WEB_ENGINE_EXERCISE_H
#define SN_WEB_ENGINE_EXERCISE_H

#include <stddef.h>

#include "core/textbuf.h"
#include "session/session.h"
#include "web/engine.h"

SNW_EXPORT(snw_exercise_answer) int snw_exercise_answer(const char *text, size_t len);
SNW_EXPORT(snw_exercise_hint) int snw_exercise_hint(void);
SNW_EXPORT(snw_exercise_text) const char *snw_exercise_text(void);

/* For engine.c and engine_exercise.c only: the engine's one session, its
 * JSON string writer, its error line, and the state's "exercise" value
 * (null without a lesson with exercises, else {"kind" (null on a step
 * without one), "seed", "n", "asked", "right", "answered", "correct"
 * (null before an answer), "hint", "question", "handin"}). */
sn_session *snw_session(void);
void snw_json_string(sn_textbuf *b, const char *s);
void snw_set_error_text(const char *s);
void snw_exercise_json(sn_textbuf *b);

#endif
