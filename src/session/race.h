/* race.h - edit mode's race: the student against the computer's search.
 *
 * sn_search_run (core/search.h) for the student's n runs on a worker
 * thread of its own; the window never waits for it. The worker writes only
 * the race's snapshot (the best network so far, its size and depth, when
 * it was found, the state) under a mutex; the UI thread copies that
 * snapshot in its tick (sn_race_poll) and draws the copy. Stopping
 * cancels the search (its cancel flag) and joins the thread, so no search
 * outlives the race and no result of an old race is seen by a new one.
 *
 * States: OFF (never started) -> RUNNING -> DONE (the goal size was
 * reached: the search ends by itself), STOPPED (sn_race_stop, or a new
 * start) or FAILED (the search could not run: why says so). DONE, STOPPED
 * and FAILED keep the best found, which can still be loaded.
 *
 * Without threads (the page's build, SN_THREADS=0) a search would run in
 * the caller until its goal: sn_race_start refuses with SN_EUNSUPPORTED
 * and says the race is the window's. */
#ifndef SN_RACE_H
#define SN_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/network.h"
#include "core/status.h"

typedef struct sn_race sn_race;

/* The most wires a race takes: every improvement is proved by the
 * exhaustive checker, and past about 24 wires one proof takes the search
 * longer than a student waits (40 wires: over a minute to the first
 * network on this machine), which also delays stopping. */
#define SN_RACE_MAX_N 24u

typedef enum sn_race_state {
    SN_RACE_OFF = 0,
    SN_RACE_RUNNING,
    SN_RACE_DONE,    /* reached the goal size */
    SN_RACE_STOPPED, /* stopped before the goal */
    SN_RACE_FAILED   /* could not search (why) */
} sn_race_state;

/* What the UI shows: a copy, made under the race's lock. */
typedef struct sn_race_snap {
    sn_race_state state;
    uint32_t n;
    size_t goal;        /* the size the search stops at (0: none, runs until stopped) */
    bool from_student;  /* started from the student's network */
    uint64_t gen;       /* counts improvements: a new best when it changes */
    bool have_best;     /* a network was found (size, depth, found_s valid) */
    size_t size, depth; /* the best's comparators and layers */
    double found_s;     /* seconds from the start to the best */
    double elapsed_s;   /* seconds from the start to now, or to the end */
    char why[200];      /* FAILED: why */
} sn_race_snap;

/* "off", "running", "done", "stopped", "failed" */
const char *sn_race_state_name(sn_race_state s);

sn_race *sn_race_create(void);
/* Stops (cancels and joins) a running race and frees it; NULL is a no-op. */
void sn_race_destroy(sn_race *r);

/* Start a search on n wires (stopping any race first) that ends when its
 * best has at most goal comparators (0: never; it runs until stopped),
 * from `from` (borrowed, copied; NULL: from scratch), with `threads`
 * workers (0: the CPUs but one, at least one) and seed. SN_EINVAL for n
 * outside 2..SN_RACE_MAX_N or a `from` of other width, SN_EUNSUPPORTED without
 * threads, SN_ENOMEM / SN_EIO; diag says why. */
sn_status sn_race_start(sn_race *r, uint32_t n, const sn_network *from, size_t goal,
                        unsigned threads, uint64_t seed, sn_diag *diag);

/* Stop a running race (cancel and join): state STOPPED, the best kept.
 * Returns whether one was running (its search had not ended by itself). */
bool sn_race_stop(sn_race *r);

/* Fill *out with the current snapshot; a race whose search has ended is
 * joined here. When best is not NULL and the snapshot's gen differs from
 * have_gen, *best receives a copy of the best network (caller owns it;
 * NULL when out of memory). */
void sn_race_poll(sn_race *r, sn_race_snap *out, uint64_t have_gen, sn_network **best);

/* Block until a running race's search ends by itself (its goal). false at
 * once when no race runs or it has no goal (it would never end). */
bool sn_race_wait(sn_race *r);

#endif
