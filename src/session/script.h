/* script.h - scripted sessions: a line of key names and waits that the
 * window replays deterministically (for tests and recorded lessons), e.g.
 * "right right space wait:500 p". */
#ifndef SN_SCRIPT_H
#define SN_SCRIPT_H

#include <stddef.h>

#include "core/status.h"
#include "session/view.h"

typedef enum sn_script_kind {
    SN_SCRIPT_ACTION, /* a key: act */
    SN_SCRIPT_WAIT,   /* let ms milliseconds of (virtual) time pass */
    SN_SCRIPT_CLICK,  /* click at window point (x, y) */
    SN_SCRIPT_DCLICK, /* double click at (x, y): fit */
    SN_SCRIPT_WHEEL,  /* wheel by z notches at (x, y) */
    SN_SCRIPT_DRAG,   /* drag from (x, y) by (dx, dy) */
    SN_SCRIPT_ADD,    /* edit: add comparator (i, j) from column k (k < 0: as early as possible) */
    SN_SCRIPT_DEL,    /* edit: delete comparator j of layer i */
    SN_SCRIPT_MOVE,   /* edit: move comparator j of layer i to column k */
    SN_SCRIPT_SELECT, /* edit: select comparator j of layer i */
    SN_SCRIPT_SAVE,   /* save the network to path */
    SN_SCRIPT_RACE,   /* the race: i is an sn_script_race op */
    SN_SCRIPT_ANSWER, /* answer the lesson's exercise with path's text ("": the network shown) */
    SN_SCRIPT_HINT    /* show the exercise's hint */
} sn_script_kind;

/* race (start from scratch), race:from (from the shown network),
 * race:stop, race:wait (until the computer reaches the best known size),
 * race:load (its network into the editor). */
typedef enum sn_script_race {
    SN_SCRIPT_RACE_START = 0,
    SN_SCRIPT_RACE_FROM,
    SN_SCRIPT_RACE_STOP,
    SN_SCRIPT_RACE_WAIT,
    SN_SCRIPT_RACE_LOAD
} sn_script_race;

/* Longest file name of save:FILE. */
#define SN_SCRIPT_PATH_MAX 400

typedef struct sn_script_event {
    sn_script_kind kind;
    sn_action act;
    double ms;
    double x, y, dx, dy, z;
    long i, j, k;                      /* edit verbs: wires or layer, index, column */
    char path[SN_SCRIPT_PATH_MAX + 1]; /* save */
    unsigned long col;                 /* where its token starts in the script (from 1) */
    size_t len;                        /* and its length */
} sn_script_event;

/* Parse a script: tokens separated by blanks or commas outside a token's
 * arguments. Keys: the names of sn_action_parse (right left space home end
 * plus minus r v 0 b 1-7 [ ] o s p g h t w z e f11 q escape fit); wait:MS;
 * click:X,Y; dclick:X,Y; wheel:X,Y,N; drag:X,Y,DX,DY (window points);
 * edit verbs add:I,J[,COL] del:LAYER,INDEX move:LAYER,INDEX,COL
 * select:LAYER,INDEX (numbers from 0) and save:FILE; the race verbs race,
 * race:from, race:stop, race:wait and race:load (and the keys c, l);
 * the exercise verbs answer:TEXT (TEXT without blanks: 3,1,2 or 0110 or
 * (0,1),(2,3) or yes), answer (complete: the network shown) and hint.
 * *out is sn_malloc'd (sn_free it). SN_EPARSE with the column of the bad
 * token in diag. */
sn_status sn_script_parse(const char *text, sn_script_event **out, size_t *count, sn_diag *diag);

/* Whether an error message left by ev means the script failed: true for
 * the edit verbs, save:, the race verbs, the edit keys (e undo redo
 * delete tab ctrl+s c l)
 * and the savers (p s); false for waits, the mouse and the other keys,
 * whose red messages inform (B on a network that sorts, a failed reload). */
bool sn_script_can_fail(const sn_script_event *ev);

#endif
