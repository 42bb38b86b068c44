/* group.h - one to three views shown together (`sortnet view NET1 NET2
 * [NET3]`): the same n, the same input, stepped together layer by layer.
 *
 * The group keeps a global step g (layers done by the longest network);
 * view i always shows min(g, its layers), so a network that has finished
 * waits at its end while the others go on. Keys that change the input act
 * on every view alike (each view draws its randoms from the same seed, so
 * they stay equal); keys that would change one network (generators, n,
 * edit mode) are refused with a message while more than one is shown. A
 * group of one passes every action straight to its view.
 *
 * Like the view, pure state: no SDL, no cairo. */
#ifndef SN_GROUP_H
#define SN_GROUP_H

#include <stdbool.h>
#include <stddef.h>

#include "session/view.h"

#define SN_GROUP_MAX 3

typedef struct sn_group {
    sn_view view[SN_GROUP_MAX];
    size_t count;
    size_t step; /* global step: 0 .. the most layers of any view */
    bool playing;
    double play_ms;
} sn_group;

/* Views of specs[0..count) (1..SN_GROUP_MAX) on the same input. Every
 * network must have the same n (else SN_EINVAL naming both). On failure
 * diag says why and g is left empty (safe to clean up). */
sn_status sn_group_init(sn_group *g, const char *const *specs, size_t count,
                        const sn_view_input *in, sn_diag *diag);
void sn_group_cleanup(sn_group *g);

/* The view whose message line, help and requests the window shows. */
static inline sn_view *sn_group_main(sn_group *g)
{
    return &g->view[0];
}

/* Most layers of any view. */
size_t sn_group_layers(const sn_group *g);

/* Apply one action to the group; true when anything visible changed. */
bool sn_group_action(sn_group *g, sn_action a);
/* Advance time by dt ms; true when anything visible changed. */
bool sn_group_tick(sn_group *g, double dt_ms);
bool sn_group_busy(const sn_group *g);
/* Put every view at global step k (clamped), without animation. */
void sn_group_step_to(sn_group *g, size_t k);
/* Block until every edit verdict is known (scripted runs). */
void sn_group_settle(sn_group *g);

#endif
