/* link.h - the state a link carries (docs/web.md, "Links"): the part of a
 * page's address after '#', which `sortnet web --link` prints and
 * `sortnet view --link` opens, so a picture can be handed to someone else
 * and opened by them in the page or the window alike.
 *
 * The text, version 1:
 *
 *     v1&net=bitonic:8&in=random:7&step=3&end
 *     v1&cmp=4/0-1,2-3/0-2,1-3/1-2&in=list:3,1,4,2&end
 *     v1&lesson=02-how-bitonic-merges&ls=4&step=2&end
 *
 * "v1" first, then fields KEY=VALUE joined by '&', then "end" last (a link
 * cut short by a mail program or a careless copy lacks it, and is refused
 * as truncated). The fields, each at most once:
 *   net=NAME    a network by name, as the command line names it
 *               (bitonic:8, best:12, median:25, empty:4)
 *   cmp=WIRES/LAYER/LAYER...   an edited (or pasted) network in compact
 *               form: the wire count, then each layer's comparators a-b
 *               (a gets the minimum) separated by ','; "4" alone is four
 *               wires with no comparators
 *   in=INPUT    random:SEED, reverse, sorted, bits:0110, list:3,1,2
 *               (absent: random:1)
 *   step=K      layers applied (absent: 0)
 *   lesson=NAME a lesson by name (a shipped one, or the one baked into a
 *               page); its steps set network and input, so net, cmp and
 *               in go without it
 *   ls=I        the lesson's step, from 0 (absent: 0)
 *   ex=STEP:ANSWER/STEP:ANSWER...   the student's answers to the
 *               lesson's exercises (needs lesson=): per answered step, its
 *               number (from 0, as ls= counts) and its first answer's text
 *               escaped, the steps rising, each at most once. The escape:
 *               letters, digits and - . _ , ( ) + @ ! : stand for
 *               themselves; every other byte (space, '/', '*', '~', '=',
 *               '&', a UTF-8 byte ...) is '*' and its two hex digits in
 *               upper case ("3 1" is 3*201); an escape of a byte that
 *               stands for itself, of byte 0, lower-case or cut-short hex
 *               is refused, so each answer has exactly one spelling. An
 *               answer given as the network shown (complete) is written
 *               "cmp:" and the network's compact form, as cmp= writes it.
 * Exactly one of net, cmp and lesson. Every byte is one that a URL's
 * fragment carries as it is: letters, digits and - . _ ~ : , / + @ ! * ( ),
 * with '&' and '=' as the separators; a percent escape is not read (the
 * page unescapes the address before it hands it on).
 *
 * Decoding is strict: an unknown field, a field twice, a bad number, a bad
 * comparator, a bad escape or a missing "end" is an error that names it
 * ("link: ...", one line), and nothing is opened; so is, when it is
 * opened, an answer to a step past the lesson's last, to a step without an
 * exercise, or one its exercise does not take as an answer.
 *
 * Adding a field: add its member to
 * sn_link, its entry to the field table in link.c (key, parser, writer),
 * its rule to check_fields() (e.g. an exercise needs a network or a
 * lesson) and to sn_session_link_open(); a version 1 reader refuses the
 * new key by name, so bump SN_LINK_VERSION only when an old field changes
 * meaning. (The exercise's kind and seed need no field: the lesson's step
 * names them.) */
#ifndef SN_LINK_H
#define SN_LINK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/network.h"
#include "core/status.h"
#include "core/textbuf.h"
#include "session/view.h"

#define SN_LINK_VERSION 1
/* The longest link read (an edited network on 4096 wires fits). */
#define SN_LINK_MAX ((size_t)1 << 22)

/* One answer ex= carries. */
typedef struct sn_link_answer {
    size_t step; /* the lesson step it answers */
    char *text;  /* the answer, unescaped (owned) */
} sn_link_answer;

typedef struct sn_link {
    char *net;               /* net=: a network's name, or NULL (owned) */
    sn_network *cmp;         /* cmp=: a network of its own, or NULL (owned) */
    char *input;             /* in=: as sn_link_input reads it, or NULL (owned) */
    size_t step;             /* step= (0 when absent) */
    char *lesson;            /* lesson=: a lesson's name, or NULL (owned) */
    size_t lesson_step;      /* ls= */
    sn_link_answer *answers; /* ex=: [answer_count], steps rising (owned), or NULL */
    size_t answer_count;
} sn_link;

struct sn_session;
struct sn_lesson;

void sn_link_init(sn_link *l);
void sn_link_clear(sn_link *l); /* frees what it owns; l is then empty */

/* Read link text (the part after '#', without it; len bytes). On failure
 * diag says "link: why" and *out is empty. */
sn_status sn_link_decode(const char *text, size_t len, sn_link *out, sn_diag *diag);
/* Write l as link text into b (appended; b->failed: out of memory).
 * SN_EINVAL with diag set when l cannot be written (no network, or a name
 * with a byte a link cannot carry). */
sn_status sn_link_encode(const sn_link *l, sn_textbuf *b, sn_diag *diag);

/* Append answer text escaped as ex= writes it to b. */
void sn_link_answer_escape(const char *text, sn_textbuf *b);

/* Read a compact form (n bytes, as cmp= holds it) into *out (owned by the
 * caller); on failure diag says "link: ..." and *out is NULL. */
sn_status sn_link_compact_read(const char *s, size_t n, sn_network **out, sn_diag *diag);

/* The network in compact form ("4/0-1,2-3/0-2,1-3") into b. */
void sn_link_compact(const sn_network *net, sn_textbuf *b);

/* The input l names (random:1 when it names none) for a view of type
 * SN_KEY_I32; in->text points into l. */
sn_status sn_link_input(const sn_link *l, sn_view_input *in, sn_diag *diag);
/* A view's input as in= writes it ("random:7", "bits:0110", "list:3,1,2"). */
void sn_link_input_spec(const sn_view *v, sn_textbuf *b);

/* The link of what session s shows: the lesson, its step and the first
 * answer given to each of its exercises, or the main
 * view's network (its name when it is a name and unedited, else its
 * comparators), input and step. Side by side, only the main view. */
sn_status sn_link_of_session(const struct sn_session *s, sn_link *out, sn_diag *diag);

/* Show what l names in s. lesson, when not NULL, is the lesson l names
 * (taken over, freed on failure; a page that baked one in hands it here);
 * NULL: the lesson is loaded by name (sn_lesson_load). Answers are graded
 * as the student's first ones (the score is theirs) and an answered step
 * shows its answer graded and explained. On failure diag says "link: why"
 * (a network that does not open, a step past the last layer, an answer
 * that is not one) and s shows what it showed before. */
sn_status sn_session_link_open(struct sn_session *s, const sn_link *l, struct sn_lesson *lesson,
                               sn_diag *diag);

#endif
