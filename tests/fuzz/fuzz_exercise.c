/* fuzz_exercise.c - a student's answer to an exercise (sn_exercise_check,
 * src/core/exercise.c): the first three bytes pick the exercise (kind,
 * seed, n), the rest is the answer text. Any answer is graded (SN_OK with
 * an explanation) or refused as malformed (SN_EPARSE with a message);
 * nothing else, and the texts stay terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/exercise.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3 || size > 4096)
        return 0;
    sn_exercise_kind kind = (sn_exercise_kind)(data[0] % SN_EXERCISE_KINDS);
    uint32_t n = SN_EXERCISE_MIN_N + data[2] % (SN_EXERCISE_MAX_N - SN_EXERCISE_MIN_N + 1);
    if (kind == SN_EXERCISE_MERGER && n < 4)
        n = 4;
    /* 2^n 0-1 inputs per witness search: keep the runs short */
    if (n > 10)
        n = 10;
    sn_exercise *e = NULL;
    sn_diag d;
    if (sn_exercise_make(kind, data[1], n, &e, &d) != SN_OK)
        __builtin_trap(); /* every (kind, seed, n) in range makes one */
    char *text = malloc(size - 2);
    if (!text) {
        sn_exercise_free(e);
        return 0;
    }
    memcpy(text, data + 3, size - 3);
    text[size - 3] = '\0';
    sn_exercise_grade g;
    sn_diag_clear(&d);
    sn_status st = sn_exercise_check(e, text, &g, &d);
    if (st == SN_OK && (!memchr(g.explain, '\0', sizeof g.explain) || !g.explain[0]))
        __builtin_trap();
    if (st != SN_OK && (st != SN_EPARSE || !d.text[0]))
        __builtin_trap();
    free(text);
    sn_exercise_free(e);
    return 0;
}
