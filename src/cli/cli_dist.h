/* cli_dist.h - the "dist:P[xK][,NET]" names of the merge-split picture
 * (render/dist_scene.h), checked the same way by draw, view and web. */
#ifndef SN_CLI_DIST_H
#define SN_CLI_DIST_H

#include "core/schedule.h"
#include "render/dist_scene.h"

/* Parse name into *ds and load its network (a file's errors name FILE:LINE:
 * COLUMN), which must have P wires and at most SN_DIST_MAX_LAYERS layers.
 * 0, with the network in *out when out is not NULL (the caller destroys
 * it), or the exit code after printing `sortnet: what: why`. */
int cli_dist_load(const char *name, sn_dist_spec *ds, sn_schedule **out);

#endif
