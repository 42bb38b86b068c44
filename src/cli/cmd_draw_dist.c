/* cmd_draw_dist.c - `sortnet draw dist:P[,NET]`: the blocks of P ranks
 * after the local sort and after every layer of NET, each comparator a
 * merge-split (render/dist_scene.h), written atomically as SVG, PNG or PDF. */
#include "cmd_draw_dist.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_dist.h"
#include "render/dist_scene.h"
#include "render/scene.h"

/* A slide, which a default PNG fills (as cmd_draw.c's). */
#define DRAW_SLIDE_W 1280
#define DRAW_SLIDE_H 720

void cli_draw_dist_help(void)
{
    printf("dist:P[,NET] draws the merge-split theorem (docs/distributed.md): NET is any\n"
           "network on P wires (dist:P alone: the best known), each wire a rank holding a\n"
           "sorted block of K keys, each comparator a merge-split (the rank on its first\n"
           "wire keeps the smaller half), the blocks after the local sort and after every\n"
           "layer, and after the last layer whether each boundary is in order (all are\n"
           "when NET sorts). The keys are 1..P*K in an order drawn from the seed.\n"
           "  --keys K           keys a rank (1..%u, default %u; dist:PxK,NET says the same)\n"
           "  --seed S           the keys' order (default 1)\n"
           "  --step K           only the blocks up to layer K, that layer marked\n\n",
           SN_DIST_MAX_KEYS, SN_DIST_DEFAULT_KEYS);
}

int cli_draw_dist_args(const draw_dist_opts *o, const char *const *nets, size_t count, bool others)
{
    bool dist = count > 0 && sn_dist_spec_is(nets[0]);
    for (size_t i = 1; i < count; i++)
        if (dist || sn_dist_spec_is(nets[i]))
            return cli_error(CLI_USAGE, nets[i],
                             "a dist: picture stands alone: draw one network with it");
    if (!dist && (o->have_keys || o->have_seed))
        return cli_error(CLI_USAGE, o->have_keys ? "--keys" : "--seed",
                         "goes with dist:P,NET (the merge-split picture)");
    if (dist && others)
        return cli_error(CLI_USAGE, nets[0],
                         "a dist: picture makes its own keys (--keys, --seed) and takes no "
                         "input, --follow, --structure or --zero-one");
    return 0;
}

/* `draw dist:P[,NET]`: the merge-split picture (render/dist_scene.h). */
int cli_draw_dist(const draw_dist_opts *o)
{
    if (o->fmt == SN_EXPORT_TEX)
        return cli_error(CLI_USAGE, cli_out_name(o->out_path),
                         "a dist: picture has no TikZ form: use .svg, .png or .pdf");
    sn_diag d;
    sn_diag_clear(&d);
    sn_dist_spec ds;
    sn_schedule *s = NULL;
    int rc = cli_dist_load(o->spec, &ds, &s);
    if (rc)
        return rc;
    sn_status st;
    uint32_t keys = o->have_keys ? (uint32_t)o->keys : ds.keys;
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    sn_dist_blocks b;
    memset(&b, 0, sizeof b);
    sn_scene *sc = NULL;
    if (o->have_step && o->step > L) {
        rc = cli_error(CLI_USAGE, "--step", "%llu is past the last layer (the network has %zu)",
                       (unsigned long long)o->step, L);
        goto done;
    }
    if ((st = sn_dist_blocks_make(s, keys, o->have_seed ? o->seed : 1, &b, &d)) != SN_OK) {
        rc = cli_error(cli_status_exit(st), "draw", "%s", d.text);
        goto done;
    }
    size_t step = o->have_step ? (size_t)o->step : L;
    char title[320];
    int len = snprintf(title, sizeof title,
                       "dist:%u,%s: %u rank%s \xC3\x97 %u key%s, %zu merge-split%s in %zu layer%s",
                       (unsigned)n, sn_schedule_name(s), (unsigned)n, n == 1 ? "" : "s",
                       (unsigned)keys, keys == 1 ? "" : "s", sn_schedule_size(s),
                       sn_schedule_size(s) == 1 ? "" : "s", L, L == 1 ? "" : "s");
    size_t at = len > 0 && (size_t)len < sizeof title ? (size_t)len : 0;
    uint32_t broken = sn_dist_broken(&b, L);
    if (step > 0 && step < L)
        snprintf(title + at, sizeof title - at, "; after layer %zu", step);
    else if (step == 0 && L > 0)
        snprintf(title + at, sizeof title - at, "; after the local sort");
    else if (broken + 1 < n)
        snprintf(title + at, sizeof title - at, ": NOT sorted (rank %u > rank %u)",
                 (unsigned)broken, (unsigned)broken + 1);
    else
        snprintf(title + at, sizeof title - at, ": sorted");
    sn_dist_scene_opts so = {step, o->have_step, 1.0, title};
    double w, h;
    sn_dist_scene_size(s, &b, &so, &w, &h);
    if (o->width > 0)
        so.scale = o->width / w;
    else if (o->have_size)
        so.scale = o->scale;
    else if (o->fmt == SN_EXPORT_PNG)
        so.scale = fmax(1.0, fmin(DRAW_SLIDE_W / w, DRAW_SLIDE_H / h));
    /* No size check as for a diagram: at most SN_DIST_MAX_RANKS ranks of
     * SN_DIST_MAX_KEYS keys over SN_DIST_MAX_LAYERS layers (cli_dist_load)
     * is about 0.56 million drawing elements (sn_dist_scene_estimate),
     * under SN_EXPORT_MAX_PRIMS. */
    sn_dist_scene_size(s, &b, &so, &w, &h);
    if (!(sc = sn_scene_create(w, h))) {
        rc = cli_error(CLI_DEVICE, "draw", "out of memory");
        goto done;
    }
    const sn_theme *th = sn_theme_get(o->theme);
    if ((st = sn_dist_scene(sc, s, &b, th, &so, 0, 0)) != SN_OK) {
        rc = cli_error(cli_status_exit(st), "draw", "%s", sn_status_str(st));
        goto done;
    }
    cli_out out;
    if ((rc = cli_out_open(&out, o->out_path)) != 0)
        goto done;
    st = sn_export_write_scene(out.f, o->fmt, sc, th, &d);
    if (st != SN_OK) {
        cli_out_abort(&out);
        rc = cli_error(cli_status_exit(st), cli_out_name(o->out_path), "%s", sn_diag_text(&d, st));
        goto done;
    }
    rc = cli_out_commit(&out);
done:
    sn_scene_destroy(sc);
    sn_dist_blocks_free(&b);
    sn_schedule_destroy(s);
    return rc;
}
