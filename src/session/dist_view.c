/* dist_view.c - the window's dist view, its state half: a "dist:P,NET"
 * name opens the ordinary view of NET (stepping, play, the status line)
 * with dist_keys set, which makes the frame show the merge-split picture
 * (dist_frame.c). No frame, no scene: the view's fuzzers link it alone. */
#include "session/dist_view.h"

#include <stdio.h>
#include <string.h>

#include "render/dist_scene.h"

sn_status sn_dist_view_init(sn_view *v, const char *spec, const sn_view_input *in, sn_diag *diag)
{
    sn_dist_spec ds;
    sn_status st = sn_dist_spec_parse(spec, &ds, diag);
    if (st != SN_OK) {
        memset(v, 0, sizeof *v);
        return st;
    }
    if ((st = sn_view_init(v, ds.net, in, diag)) != SN_OK)
        return st;
    if (v->n != ds.ranks || v->layers > SN_DIST_MAX_LAYERS) {
        uint32_t n = v->n;
        size_t layers = v->layers;
        char name[sizeof v->name];
        snprintf(name, sizeof name, "%s", v->name);
        sn_view_cleanup(v);
        if (n != ds.ranks)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "'%s': %s has %u wire%s but the picture has %u rank%s (a wire a "
                               "rank)",
                               spec, name, n, n == 1 ? "" : "s", ds.ranks,
                               ds.ranks == 1 ? "" : "s");
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "'%s': %s has %zu layers, too many to show as blocks (at most %u)", spec,
                           name, layers, SN_DIST_MAX_LAYERS);
    }
    v->dist_keys = ds.keys;
    v->picture = &sn_dist_picture;
    char name[sizeof v->name + 16];
    snprintf(name, sizeof name, "dist:%u,%s", ds.ranks, v->name);
    name[sizeof v->name - 1] = '\0'; /* a long file name is cut */
    memcpy(v->name, name, sizeof v->name);
    sn_view_message(v, false,
                    "%u ranks \xC3\x97 %u keys: Right: next layer   Space: play   "
                    "R: new keys",
                    ds.ranks, ds.keys);
    return SN_OK;
}

sn_status sn_view_open(sn_view *v, const char *spec, const sn_view_input *in, sn_diag *diag)
{
    return sn_dist_spec_is(spec) ? sn_dist_view_init(v, spec, in, diag)
                                 : sn_view_init(v, spec, in, diag);
}

bool sn_dist_view_on(const sn_view *v)
{
    /* edit mode (E) edits the network itself: its ordinary picture, whose
     * wires and comparators the mouse acts on; leaving it shows the blocks
     * of the edited network */
    return v->dist_keys > 0 && !v->edit && v->sched && v->n >= 1 && v->n <= SN_DIST_MAX_RANKS &&
           v->layers <= SN_DIST_MAX_LAYERS;
}

void sn_dist_view_status(const sn_view *v, sn_view_status *st)
{
    sn_dist_blocks b;
    sn_diag d;
    if (!sn_dist_view_on(v) ||
        sn_dist_blocks_make(v->sched, v->dist_keys, v->seed, &b, &d) != SN_OK)
        return;
    size_t step = v->step < b.layers ? v->step : b.layers;
    size_t merges = b.cmp_first[step], changed = 0;
    for (size_t k = 1; k <= step; k++)
        for (uint32_t r = 0; r < b.ranks; r++)
            changed += b.changed[k * b.ranks + r];
    snprintf(st->counts, sizeof st->counts, "%zu merge-split%s, %zu block%s changed", merges,
             merges == 1 ? "" : "s", changed, changed == 1 ? "" : "s");
    snprintf(st->counts_short, sizeof st->counts_short, "%zu m-s, %zu ch", merges, changed);
    if (step == b.layers)
        snprintf(st->result, sizeof st->result, "%s",
                 sn_dist_broken(&b, b.layers) + 1 < b.ranks ? "NOT sorted" : "sorted");
    sn_dist_blocks_free(&b);
}
