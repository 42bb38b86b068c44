/* dist_view.h - the window's dist view (`sortnet view dist:P,NET`): the
 * merge-split picture of render/dist_scene.h in the network and bars
 * panes, stepped with the window's own keys (the view's step is the
 * picture's: 0 the local sort, k after layer k), the current layer's
 * merge-splits and the blocks they changed marked. The keys come from the
 * view's random seed (R draws new ones). Pure numbers: no SDL, no cairo
 * (the page's engine builds it too).
 *
 * The view itself is the ordinary view of NET on P wires (stepping, play,
 * the status line); only its picture differs, and only while the network
 * fits the picture (at most SN_DIST_MAX_RANKS wires and SN_DIST_MAX_LAYERS
 * layers: a key that grows it past that shows the ordinary picture) and
 * outside edit mode (E edits NET on its ordinary picture). */
#ifndef SN_DIST_VIEW_H
#define SN_DIST_VIEW_H

#include <stdbool.h>

#include "core/status.h"
#include "session/view.h"

/* sn_view_init for a "dist:P[xK][,NET]" spec: the view of NET, which must
 * have P wires (else SN_EINVAL naming both counts), with dist_keys = K,
 * the blocks as its picture (sn_dist_picture) and the name "dist:P,NAME".
 * On failure v is left empty. */
sn_status sn_dist_view_init(sn_view *v, const char *spec, const sn_view_input *in, sn_diag *diag);

/* A view of any name the window opens: sn_dist_view_init for a dist:
 * name, else sn_view_init. */
sn_status sn_view_open(sn_view *v, const char *spec, const sn_view_input *in, sn_diag *diag);

/* The blocks as a view's picture (dist_frame.c). */
extern const sn_view_picture sn_dist_picture;

/* The status line's counts and verdict for the blocks: merge-splits done
 * and blocks they changed, and at the end whether the blocks are sorted
 * (every boundary in order), replacing those of the P keys. */
void sn_dist_view_status(const sn_view *v, sn_view_status *st);

/* Does v show the dist picture now? */
bool sn_dist_view_on(const sn_view *v);


#endif
