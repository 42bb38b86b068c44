/* lesson.h - `sortnet view --lesson FILE`: a plain-text lesson of steps,
 * each setting networks, an input, keys to replay and a caption (the
 * format is docs/lessons.md). Parsing needs no window; every error names
 * the file, line and column. */
#ifndef SN_LESSON_H
#define SN_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exercise.h"
#include "core/status.h"
#include "session/group.h"
#include "session/view.h"

#define SN_LESSON_TEXT 1024

typedef struct sn_lesson_step {
    char title[160];
    char caption[SN_LESSON_TEXT];
    char nets[SN_GROUP_MAX][256]; /* as on the command line */
    size_t net_count;             /* this step's, or inherited from the last one that set them */
    sn_input_kind input_kind;
    unsigned long long seed;
    char input_text[SN_VIEW_MAX_N * 12 + 1]; /* LIST / BITS text */
    char keys[SN_LESSON_TEXT];               /* --script verbs, run when the step opens */
    long at; /* after layer `at` (-1: as the keys leave it; -2: the end) */
    /* `exercise: KIND seed=N [n=N]`: the step shows that exercise's
     * network and input (core/exercise.h) in place of net: and input: */
    bool exercise;
    sn_exercise_kind ex_kind;
    unsigned long long ex_seed;
    uint32_t ex_n; /* 0: the kind's default */
    /* where each part was set (for errors found when the step is played) */
    unsigned long line, net_line, net_col, input_line, input_col, keys_line, keys_col, ex_line,
        ex_col;
} sn_lesson_step;

typedef struct sn_lesson {
    char file[512];
    char title[160];
    sn_lesson_step *steps; /* [count] */
    size_t count;
} sn_lesson;

/* Parse lesson text; `file` names it in errors ("FILE:LINE:COL: why").
 * *out is owned by the caller (sn_lesson_free). Its networks are names
 * only (bitonic:8, best:16): a file is an error, as in a shipped lesson. */
sn_status sn_lesson_parse(const char *text, const char *file, sn_lesson **out, sn_diag *diag);
/* The same for a lesson in folder dir: `net:` may also name files in dir
 * and below (relative to dir), stored resolved; an absolute path, ".."
 * out of dir, a symbolic link out of it or "-" is an error at its column
 * that names the rule. */
sn_status sn_lesson_parse_in(const char *text, const char *file, const char *dir, sn_lesson **out,
                             sn_diag *diag);
/* The lessons shipped in assets/lessons, built into the binary. */
typedef struct sn_lesson_source {
    const char *name; /* "01-comparators-and-0-1" */
    const char *text;
} sn_lesson_source;
extern const sn_lesson_source sn_lesson_sources[]; /* ends with {NULL, NULL} */
/* The shipped lesson `name` names: its name, with or without .lesson, or a
 * prefix of one name only ("02"); NULL when none or several. */
const sn_lesson_source *sn_lesson_shipped(const char *name);

/* Read and parse a file (its networks from its own folder and below, see
 * sn_lesson_parse_in); a path that names no file but a shipped lesson
 * (its name, with or without .lesson, or a prefix of one name only, such
 * as "02") loads that one, which names networks only. */
sn_status sn_lesson_load(const char *path, sn_lesson **out, sn_diag *diag);
void sn_lesson_free(sn_lesson *l); /* NULL is a no-op */

/* Put step i of l into g (networks, input, keys, position), replacing
 * what g held; the keys run at once without animation. On failure g is
 * left as it was and diag says "FILE:LINE:COL: why". */
sn_status sn_lesson_apply(const sn_lesson *l, size_t i, sn_group *g, sn_diag *diag);

/* The exercise of step i (NULL-free: SN_EINVAL when the step has none);
 * *out is the caller's (sn_exercise_free). Errors say "FILE:LINE:COL: why". */
sn_status sn_lesson_exercise(const sn_lesson *l, size_t i, sn_exercise **out, sn_diag *diag);
/* Whether any step of l is an exercise. */
bool sn_lesson_has_exercises(const sn_lesson *l);

/* Play every step into a scratch group: the whole lesson's errors before
 * a class sees it. */
sn_status sn_lesson_check(const sn_lesson *l, sn_diag *diag);

#endif
