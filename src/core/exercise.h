/* exercise.h - graded exercises on sorting networks, generated from a seed
 * (docs/lessons.md, "Exercises").
 *
 * An exercise is made from (kind, seed, n) alone, the same on every
 * platform (its own PRNG, never rand()), and graded by the core's own
 * tools, never by a stored answer: the executor (predict, counterexample),
 * the 0-1 checker (counterexample, complete), the redundancy analysis
 * (redundant), the merging check (merger) and the library's best known
 * sizes (complete's score).
 *
 * Kinds and what an answer is (sn_exercise_check's text):
 *   predict         the array after the next layer: n values, "3,1,2,4"
 *   counterexample  an input the network fails on: n values or n bits
 *                   ("0110"); any real failing input is right
 *   complete        comparators to add, "(0,1),(2,3)" (or a whole
 *                   network through sn_exercise_check_network); right
 *                   when the result sorts, scored against the best known
 *   redundant       the comparators that never swap, by number in layer
 *                   order from 0, "2,5", or "-" for none
 *   depth           how many layers the comparators need when each runs
 *                   as early as it can: a number
 *   merger          do the comparators merge two sorted halves: yes / no
 *
 * Invariants: a made exercise owns its network (net) on n wires, with
 * SN_EXERCISE_MIN_N <= n <= SN_EXERCISE_MAX_N; answer-independent facts
 * (the right array, the redundant set, the depth, the merge verdict) are
 * computed once when it is made. */
#ifndef SN_EXERCISE_H
#define SN_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/status.h"

typedef enum sn_exercise_kind {
    SN_EXERCISE_PREDICT = 0,
    SN_EXERCISE_COUNTEREXAMPLE,
    SN_EXERCISE_COMPLETE,
    SN_EXERCISE_REDUNDANT,
    SN_EXERCISE_DEPTH,
    SN_EXERCISE_MERGER,
    SN_EXERCISE_KINDS
} sn_exercise_kind;

/* Wires an exercise may have: small enough for a student to work by hand
 * and for every check to be instant (2^16 0-1 inputs). */
#define SN_EXERCISE_MIN_N 3u
#define SN_EXERCISE_MAX_N 16u

/* "predict", "counterexample", "complete", "redundant", "depth", "merger". */
const char *sn_exercise_kind_name(sn_exercise_kind k);
/* false when name is none of them. */
bool sn_exercise_kind_parse(const char *name, sn_exercise_kind *out);
/* The n an exercise of kind k gets when none is asked for. */
uint32_t sn_exercise_default_n(sn_exercise_kind k);

typedef struct sn_exercise {
    sn_exercise_kind kind;
    uint64_t seed;
    uint32_t n;
    sn_network *net;  /* what the student sees (owned) */
    uint32_t *input;  /* [n] the input shown (owned) */
    size_t at;        /* the step shown: predict asks for the array after layer at + 1 */
    uint32_t *expect; /* predict: [n] the array after layer at + 1 (owned), else NULL */
    size_t *redundant; /* redundant: the comparators that never swap (owned, may be NULL) */
    size_t redundant_count;
    size_t depth;    /* depth: the answer */
    uint32_t half;   /* merger: the first sorted part is wires [0, half) */
    bool merges;     /* merger: the answer */
    size_t best;     /* complete: comparators of the best known network on n (0: none known) */
    size_t given;    /* complete: comparators given */
    char question[320];
    char hint[320];
} sn_exercise;

/* Make exercise (kind, seed, n); n == 0 takes sn_exercise_default_n.
 * SN_EINVAL with diag set for an n out of range. *out is owned by the
 * caller (sn_exercise_free). */
sn_status sn_exercise_make(sn_exercise_kind kind, uint64_t seed, uint32_t n, sn_exercise **out,
                           sn_diag *diag);
void sn_exercise_free(sn_exercise *e); /* NULL is a no-op */

/* A graded answer. */
typedef struct sn_exercise_grade {
    bool right;
    /* complete: comparators of the student's network, and how many more
     * than the best known (0: as good) */
    size_t size, extra;
    /* what was right or wrong, and the right answer when it was wrong */
    char explain[640];
    /* where the explanation is best seen: an input (n values, or NULL)
     * to run and the step to show it at (SIZE_MAX: the end) */
    bool show_input;
    uint32_t show[SN_EXERCISE_MAX_N];
    size_t show_step;
} sn_exercise_grade;

/* Grade the answer text (the forms above). A malformed answer (a count
 * or word the kind does not take) is SN_EPARSE with diag saying what an
 * answer looks like; a well-formed wrong answer is SN_OK with
 * g->right false. */
sn_status sn_exercise_check(const sn_exercise *e, const char *answer, sn_exercise_grade *g,
                            sn_diag *diag);
/* complete: grade the student's whole network (which must keep the given
 * comparators, in order, and may add any). SN_EINVAL for another kind or
 * another n. */
sn_status sn_exercise_check_network(const sn_exercise *e, const sn_network *net,
                                    sn_exercise_grade *g, sn_diag *diag);

#endif
