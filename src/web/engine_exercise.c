/* engine_exercise.c - the page's exercise exports (engine_exercise.h):
 * the page's answer box, hint and hand-in line mapped to the session's
 * exercise calls (session/exercise.h), the same ones the window's --script
 * verbs make. */
#include "web/engine_exercise.h"

#include <string.h>

#include "core/alloc.h"
#include "core/input.h" // for: sn_key_format

/* The most bytes an answer takes (complete: every comparator to add). */
#define SNW_ANSWER_MAX 4096u

static sn_textbuf handin;

int snw_exercise_answer(const char *text, size_t len)
{
    sn_session *s = snw_session();
    if (len > SNW_ANSWER_MAX) {
        snw_set_error_text("answer: longer than 4096 bytes");
        return 2;
    }
    char *t = sn_malloc(len + 1);
    if (!t) {
        snw_set_error_text("out of memory");
        return 3;
    }
    if (len)
        memcpy(t, text, len);
    t[len] = '\0';
    bool ok = s->open && sn_session_answer(s, t);
    sn_free(t);
    if (!ok) {
        snw_set_error_text(s->open ? sn_session_main(s)->message : "answer: nothing is shown");
        return 2;
    }
    snw_set_error_text("");
    return 1;
}

int snw_exercise_hint(void)
{
    sn_session *s = snw_session();
    if (!s->open || !sn_session_hint(s)) {
        snw_set_error_text("hint: this step has no exercise");
        return 2;
    }
    return 1;
}

const char *snw_exercise_text(void)
{
    sn_textbuf_clear(&handin);
    sn_session_exercise_text(snw_session(), &handin);
    return handin.failed || !handin.s ? "" : handin.s;
}

void snw_exercise_json(sn_textbuf *b)
{
    sn_session *s = snw_session();
    size_t right = 0, asked = 0;
    if (!s->open || !sn_session_score(s, &right, &asked)) {
        sn_textbuf_str(b, "null");
        return;
    }
    const sn_exercise_state *x = &s->exercise;
    const sn_exercise *e = x->ex;
    sn_textbuf_str(b, "{\"kind\":");
    if (e)
        snw_json_string(b, sn_exercise_kind_name(e->kind));
    else
        sn_textbuf_str(b, "null");
    sn_textbuf_printf(b, ",\"seed\":%llu,\"n\":%u,\"asked\":%zu,\"right\":%zu",
                      e ? (unsigned long long)e->seed : 0ull, e ? e->n : 0u, asked, right);
    sn_textbuf_printf(b, ",\"answered\":%s,\"correct\":%s,\"hint\":%s",
                      x->answered ? "true" : "false",
                      !x->answered ? "null" : x->right ? "true" : "false",
                      x->hint ? "true" : "false");
    sn_textbuf_str(b, ",\"question\":");
    snw_json_string(b, e ? e->question : "");
    sn_textbuf_str(b, ",\"caption\":");
    snw_json_string(b, e ? x->caption[x->cur] : "");
    /* the input shown, as an answer takes it (counterexample: "use the
     * input shown") */
    const sn_view *v = sn_session_main(s);
    sn_textbuf_str(b, ",\"input\":\"");
    for (uint32_t i = 0; v->input && i < v->n; i++) {
        char key[48];
        sn_key_format(v->type, v->input[i], key, sizeof key);
        sn_textbuf_printf(b, "%s%s", i ? "," : "", key); /* digits and signs: nothing to escape */
    }
    sn_textbuf_str(b, "\"");
    sn_textbuf_str(b, ",\"handin\":");
    sn_textbuf line = SN_TEXTBUF_INIT;
    sn_session_exercise_text(s, &line);
    snw_json_string(b, line.failed || !line.s ? "" : line.s);
    if (line.failed)
        b->failed = true;
    sn_textbuf_free(&line);
    sn_textbuf_str(b, "}");
}
