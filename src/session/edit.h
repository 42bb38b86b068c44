/* edit.h - the pure edit operations of the window's edit mode: each makes
 * a new network from an old one (which is never changed), so the view can
 * keep every version for undo and redo. Plus an atomic save.
 *
 * Positions: layers and comparator indices inside a layer count from 0
 * here and in the script verbs (as files do); a "column" c means "before
 * layer c" (c == layers: after the last one). Messages people read count
 * from 1, as the window's status line does. A comparator (a, b) leaves the
 * minimum on wire a, so a > b is a reversed comparator. */
#ifndef SN_EDIT_H
#define SN_EDIT_H

#include <stddef.h>
#include <stdint.h>

#include "core/format.h"
#include "core/network.h"
#include "core/status.h"

/* The earliest layer k >= col where wires a and b are both free, or the
 * layer count when there is none (a new layer at the end). */
size_t sn_edit_free_layer(const sn_network *net, uint32_t a, uint32_t b, size_t col);

/* The column right after the last layer that touches wire a or b (0 when
 * neither is used): where `add:A,B` appends, as early as possible. */
size_t sn_edit_after_last(const sn_network *net, uint32_t a, uint32_t b);

/* Insert comparator (a, b) into layer sn_edit_free_layer(net, a, b, col),
 * keeping the layer ordered by the upper wire; when no layer from col on
 * has both wires free, into a new layer of its own inserted at col (so a
 * comparator dropped in the middle acts there; col >= layers appends).
 * *layer and *index (may be NULL) say where it went. SN_EINVAL (diag explains, *out NULL) when
 * a == b or a wire is out of range. */
sn_status sn_edit_insert(const sn_network *net, uint32_t a, uint32_t b, size_t col,
                         sn_network **out, size_t *layer, size_t *index, sn_diag *diag);

/* Remove comparator `index` of layer `layer`; a layer left empty goes
 * away. SN_EINVAL (diag explains) when there is no such comparator. */
sn_status sn_edit_delete(const sn_network *net, size_t layer, size_t index, sn_network **out,
                         sn_diag *diag);

/* Move comparator (layer, index) to column col of net (counted before the
 * move): it is removed and inserted into the earliest layer >= col where
 * both its wires are free. *new_layer / *new_index (may be NULL) say where
 * it went. */
sn_status sn_edit_move(const sn_network *net, size_t layer, size_t index, size_t col,
                       sn_network **out, size_t *new_layer, size_t *new_index, sn_diag *diag);

/* The format a file name asks for: .json, .sn, otherwise bracket (.txt). */
sn_format sn_edit_format_for(const char *path);

/* Write net to path in the format of its extension, through a temporary
 * file beside it that is renamed over path, so no reader ever sees a
 * truncated file. */
sn_status sn_edit_save(const sn_network *net, const char *path, sn_diag *diag);

#endif
