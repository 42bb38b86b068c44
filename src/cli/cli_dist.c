/* cli_dist.c - a "dist:P[xK][,NET]" name checked as every command checks
 * a network: the syntax (render/dist_scene.c), NET loaded through cli_load
 * and its wires against P. */
#include "cli_dist.h"

#include "cli.h"

int cli_dist_load(const char *name, sn_dist_spec *ds, sn_schedule **out)
{
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_dist_spec_parse(name, ds, &d);
    if (st != SN_OK)
        return cli_error(CLI_USAGE, "dist", "%s", d.text);
    sn_schedule *s = NULL;
    int rc = cli_load(ds->net, &s);
    if (rc)
        return rc;
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    if (n != ds->ranks)
        rc = cli_error(CLI_USAGE, "dist",
                       "'%s': %s has %u wire%s but the picture has %u rank%s (a wire a rank)", name,
                       sn_schedule_name(s), (unsigned)n, n == 1 ? "" : "s", (unsigned)ds->ranks,
                       ds->ranks == 1 ? "" : "s");
    else if (L > SN_DIST_MAX_LAYERS)
        rc = cli_error(CLI_USAGE, "dist",
                       "'%s': %s has %zu layers, too many to show as blocks (at most %u)", name,
                       sn_schedule_name(s), L, SN_DIST_MAX_LAYERS);
    if (rc == 0 && out)
        *out = s;
    else
        sn_schedule_destroy(s);
    return rc;
}
