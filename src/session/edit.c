/* edit.c - building a network by hand: insert, delete and move single
 * comparators, each into a new network; and saving one atomically.
 *
 * Invariant kept by every operation: the result is a valid network (its
 * layers touch disjoint wires and none is empty), and every comparator not
 * named by the operation keeps its layer order, so an undo history of
 * these networks replays exactly. */
#include "session/edit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h> // for: mkstemp
#include <string.h>
#if !defined(__wasi__)
#include <sys/stat.h> // for: umask, fchmod
#include <unistd.h>   // for: close
#endif

#include "core/alloc.h"

static bool layer_uses(const sn_comparator *c, size_t count, uint32_t w)
{
    for (size_t i = 0; i < count; i++)
        if (c[i].a == w || c[i].b == w)
            return true;
    return false;
}

size_t sn_edit_free_layer(const sn_network *net, uint32_t a, uint32_t b, size_t col)
{
    size_t L = sn_network_layer_count(net);
    for (size_t k = col; k < L; k++) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        if (!layer_uses(c, count, a) && !layer_uses(c, count, b))
            return k;
    }
    return L;
}

size_t sn_edit_after_last(const sn_network *net, uint32_t a, uint32_t b)
{
    for (size_t k = sn_network_layer_count(net); k-- > 0;) {
        size_t count;
        const sn_comparator *c = sn_network_layer(net, k, &count);
        if (layer_uses(c, count, a) || layer_uses(c, count, b))
            return k + 1;
    }
    return 0;
}

static uint32_t upper(sn_comparator c)
{
    return c.a < c.b ? c.a : c.b;
}

/* A copy of net's layers with one change: layer `skip_layer` loses
 * comparator `skip_index` (skip_layer == SIZE_MAX: none; a layer left
 * empty goes away), then `add` (may be NULL) goes into layer `add_layer`
 * of the result, or with `own_layer` into a new layer inserted there
 * (add_layer == the result's layer count: a new last layer). */
static sn_status rebuild(const sn_network *net, size_t skip_layer, size_t skip_index,
                         const sn_comparator *add, size_t add_layer, bool own_layer,
                         sn_network **out, size_t *where, sn_diag *diag)
{
    uint32_t n = sn_network_wires(net);
    size_t L = sn_network_layer_count(net);
    sn_network *res = sn_network_create(n);
    sn_comparator *buf = sn_calloc((size_t)n / 2 + 2, sizeof *buf);
    sn_status st = res && buf ? sn_network_set_name(res, sn_network_name(net)) : SN_ENOMEM;
    size_t out_k = 0;
    for (size_t k = 0; st == SN_OK && k <= L; k++) {
        if (add && own_layer && out_k == add_layer) {
            st = sn_network_layer_add(res, add, 1, diag);
            out_k++;
            add = NULL;
            if (where)
                *where = 0;
        }
        size_t count = 0, m = 0;
        const sn_comparator *c = k < L ? sn_network_layer(net, k, &count) : NULL;
        for (size_t i = 0; i < count; i++)
            if (!(k == skip_layer && i == skip_index))
                buf[m++] = c[i];
        if (m == 0 && !(add && out_k == add_layer))
            continue; /* emptied by the removal (or past the end): no layer */
        if (add && out_k == add_layer) {
            size_t pos = 0;
            while (pos < m && upper(buf[pos]) < upper(*add))
                pos++;
            memmove(buf + pos + 1, buf + pos, (m - pos) * sizeof *buf);
            buf[pos] = *add;
            m++;
            add = NULL;
            if (where)
                *where = pos;
        }
        if (st == SN_OK)
            st = sn_network_layer_add(res, buf, m, diag);
        out_k++;
    }
    sn_free(buf);
    if (st != SN_OK) {
        sn_network_destroy(res);
        return st == SN_ENOMEM ? sn_diag_set(diag, st, 0, 0, "out of memory") : st;
    }
    *out = res;
    return SN_OK;
}

static sn_status check_wires(const sn_network *net, uint32_t a, uint32_t b, sn_diag *diag)
{
    uint32_t n = sn_network_wires(net);
    if (a >= n || b >= n)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "wire %u does not exist (n = %u: wires 0 to %u)",
                           a >= n ? a : b, n, n - 1);
    if (a == b)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "a comparator joins two different wires (both are %u)", a);
    return SN_OK;
}

sn_status sn_edit_insert(const sn_network *net, uint32_t a, uint32_t b, size_t col,
                         sn_network **out, size_t *layer, size_t *index, sn_diag *diag)
{
    *out = NULL;
    sn_status st = check_wires(net, a, b, diag);
    if (st != SN_OK)
        return st;
    size_t L = sn_network_layer_count(net);
    if (col > L)
        col = L;
    size_t k = sn_edit_free_layer(net, a, b, col);
    /* no room from col on: a layer of its own right there, so it acts
     * where it was put (not after everything that follows) */
    bool own = k == L;
    if (own)
        k = col;
    sn_comparator c = {a, b};
    size_t pos = 0;
    st = rebuild(net, SIZE_MAX, 0, &c, k, own, out, &pos, diag);
    if (st == SN_OK) {
        if (layer)
            *layer = k;
        if (index)
            *index = pos;
    }
    return st;
}

/* Messages count layers and comparators from 1, as the window does; the
 * script verbs that name them (del:, move:, select:) count from 0, so the
 * message gives their range too. */
static sn_status find(const sn_network *net, size_t layer, size_t index, sn_comparator *c,
                      sn_diag *diag)
{
    size_t L = sn_network_layer_count(net), count = 0;
    if (layer >= L)
        return L ? sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "there is no layer %zu: the network has %zu (script verbs number "
                               "them 0 to %zu)",
                               layer + 1, L, L - 1)
                 : sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "there is no layer %zu: the network has no comparators yet",
                               layer + 1);
    const sn_comparator *cs = sn_network_layer(net, layer, &count);
    if (index >= count)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "layer %zu has no comparator %zu: it has %zu (script verbs number "
                           "them 0 to %zu)",
                           layer + 1, index + 1, count, count - 1);
    *c = cs[index];
    return SN_OK;
}

sn_status sn_edit_delete(const sn_network *net, size_t layer, size_t index, sn_network **out,
                         sn_diag *diag)
{
    *out = NULL;
    sn_comparator c;
    sn_status st = find(net, layer, index, &c, diag);
    return st != SN_OK ? st : rebuild(net, layer, index, NULL, SIZE_MAX, false, out, NULL, diag);
}

sn_status sn_edit_move(const sn_network *net, size_t layer, size_t index, size_t col,
                       sn_network **out, size_t *new_layer, size_t *new_index, sn_diag *diag)
{
    *out = NULL;
    sn_comparator c = {0, 0}; /* set by find; gcc 13 cannot see that */
    sn_status st = find(net, layer, index, &c, diag);
    if (st != SN_OK)
        return st;
    sn_network *removed = NULL;
    st = rebuild(net, layer, index, NULL, SIZE_MAX, false, &removed, NULL, diag);
    if (st != SN_OK)
        return st;
    /* the column counted before the removal: one less when it was after a
     * layer that the removal emptied */
    if (sn_network_layer_count(removed) < sn_network_layer_count(net) && col > layer)
        col--;
    st = sn_edit_insert(removed, c.a, c.b, col, out, new_layer, new_index, diag);
    sn_network_destroy(removed);
    return st;
}

sn_format sn_edit_format_for(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && !strchr(dot, '/')) {
        if (strcmp(dot, ".json") == 0)
            return SN_FORMAT_JSON;
        if (strcmp(dot, ".sn") == 0)
            return SN_FORMAT_SN;
    }
    return SN_FORMAT_BRACKET;
}

#if defined(__wasi__)
/* The page (WebAssembly) has no file system of its own: it downloads the
 * network through the engine's export instead (src/web/engine.h). */
sn_status sn_edit_save(const sn_network *net, const char *path, sn_diag *diag)
{
    (void)net;
    return sn_diag_set(diag, SN_EIO, 0, 0, "%s: the page cannot save files (use Download)", path);
}
#else
sn_status sn_edit_save(const sn_network *net, const char *path, sn_diag *diag)
{
    size_t len = strlen(path);
    char *tmp = sn_malloc(len + 16);
    if (!tmp)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory", path);
    /* beside the target, so rename() stays on one file system (atomic) */
    snprintf(tmp, len + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        sn_free(tmp);
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: cannot write: %s", path, strerror(e));
    }
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask); /* what a plain fopen would give */
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        int e = errno;
        close(fd);
        remove(tmp);
        sn_free(tmp);
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: cannot write: %s", path, strerror(e));
    }
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_network_write(net, sn_edit_format_for(path), f, &d);
    bool failed = st != SN_OK || ferror(f) != 0 || fflush(f) != 0;
    int e = errno;
    if (fclose(f) != 0 && !failed) {
        failed = true;
        e = errno;
    }
    if (!failed && rename(tmp, path) != 0) {
        failed = true;
        e = errno;
    }
    if (failed) {
        remove(tmp);
        sn_free(tmp);
        if (st != SN_OK)
            return sn_diag_set(diag, st, 0, 0, "%s: %s", path,
                               sn_diag_text(&d, st));
        return sn_diag_set(diag, SN_EIO, 0, 0, "%s: write failed: %s", path, strerror(e));
    }
    sn_free(tmp);
    return SN_OK;
}
#endif
