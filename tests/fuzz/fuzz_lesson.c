/* fuzz_lesson.c - libFuzzer target for `sortnet view --lesson FILE`: the
 * lesson parser (sn_lesson_parse, src/session/lesson.c) on arbitrary text.
 *
 * A failure must hand out nothing and explain itself as "FILE:LINE:COL:
 * why" with the file name it was given; a success must give at least one
 * step, every text field NUL-terminated inside its buffer, at most
 * SN_GROUP_MAX networks per step (at least one: a step inherits them; an
 * exercise step may have none, its kind and n in range) and a
 * position of -2 (the end), -1 (as the keys leave it) or a layer. The steps
 * are not played: that runs the networks' generators and the keys, which
 * the script target already covers. */
#include <stdio.h>

#include "fuzz_common.h"
#include "session/lesson.h"

/* The window's build embeds the shipped lessons (embed_lessons.cmake); the
 * parser alone needs none. */
const sn_lesson_source sn_lesson_sources[] = {{0, 0}};

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

#define TERMINATED(a) (memchr((a), '\0', sizeof(a)) != NULL)

static void check_step(const sn_lesson_step *st)
{
    if (!TERMINATED(st->title) || !TERMINATED(st->caption) || !TERMINATED(st->input_text) ||
        !TERMINATED(st->keys))
        abort();
    /* an exercise step may set no network (the exercise gives it); its
     * kind is one and its n the default (0) or in range */
    if (st->net_count > SN_GROUP_MAX || (st->net_count < 1 && !st->exercise))
        abort();
    if (st->exercise && ((unsigned)st->ex_kind >= SN_EXERCISE_KINDS ||
                         (st->ex_n != 0 && (st->ex_n < SN_EXERCISE_MIN_N ||
                                            st->ex_n > SN_EXERCISE_MAX_N))))
        abort();
    for (size_t i = 0; i < st->net_count; i++)
        if (!TERMINATED(st->nets[i]) || st->nets[i][0] == '\0')
            abort();
    if (st->at < -2)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char file[] = "fuzz.lesson";
    char *text = fuzz_strdup(data, size);
    if (!text)
        return 0;
    sn_lesson *l = (sn_lesson *)1; /* must come back NULL on failure */
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_lesson_parse(text, file, &l, &d);
    if (st != SN_OK) {
        if (l != NULL || (st != SN_ENOMEM && strncmp(d.text, "fuzz.lesson:", 12) != 0))
            abort(); /* a failure hands out nothing and names file:line:col */
    } else {
        if (!l || l->count < 1 || !TERMINATED(l->title))
            abort();
        for (size_t i = 0; i < l->count; i++)
            check_step(&l->steps[i]);
        sn_lesson_free(l);
    }
    free(text);
    return 0;
}
