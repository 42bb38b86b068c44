/* library.c - the shipped network library: look-ups, best:N / best-depth:N
 * / lib:NAME, and building a network from its embedded form.
 *
 * The table (library_data.h) is generated at build time and never changes
 * at run time, so every look-up is a scan of a few hundred static rows: no
 * initialization, no locks. best:N is chosen here, not at build time, so
 * adding a file to assets/networks is all it takes to extend the library. */
#include "core/library.h"

#include <stdio.h>
#include <string.h>

#include "core/format.h"
#include "core/library_data.h"

/* Proven optimal sizes (comparators) for n = 0..12: Floyd and Knuth (1966)
 * for n <= 8; Codish, Cruz-Filipe, Frank and Schneider-Kamp (2014) for 9
 * and 10; Harder (2020) for 11 and 12. */
static const uint32_t size_optimal[] = {0, 0, 1, 3, 5, 9, 12, 16, 19, 25, 29, 35, 39};
/* Proven optimal depths (layers) for n = 0..17: Parberry (1991) up to 10;
 * Bundala and Zavodny (2014) up to 16; Codish, Cruz-Filipe, Ehlers, Mueller
 * and Schneider-Kamp (2016) for 17. */
static const uint32_t depth_optimal[] = {0, 0, 1, 3, 3, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 9, 9, 10};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Only SorterHunter's list ("best/") holds records; libsortnetwork's
 * examples are listed but never chosen for best:N. */
static bool is_record_list(const sn_library_file *f)
{
    return strcmp(f->dir, "best") == 0;
}

/* true when x beats y for best:N (by_depth false) or best-depth:N. */
static bool better(const sn_library_file *x, const sn_library_file *y, bool by_depth)
{
    uint32_t x1 = by_depth ? x->listed_depth : x->listed_size;
    uint32_t y1 = by_depth ? y->listed_depth : y->listed_size;
    uint32_t x2 = by_depth ? x->listed_size : x->listed_depth;
    uint32_t y2 = by_depth ? y->listed_size : y->listed_depth;
    return x1 < y1 || (x1 == y1 && x2 < y2);
}

size_t sn_library_count(void)
{
    return sn_library_file_count;
}

size_t sn_library_best(uint32_t n, bool by_depth)
{
    size_t best = SN_LIBRARY_NONE;
    for (size_t i = 0; i < sn_library_file_count; i++) {
        const sn_library_file *f = &sn_library_files[i];
        if (f->n == n && is_record_list(f) &&
            (best == SN_LIBRARY_NONE || better(f, &sn_library_files[best], by_depth)))
            best = i;
    }
    return best;
}

static bool is_median(const sn_library_file *f)
{
    return strcmp(f->dir, "median") == 0;
}

const char *sn_library_kind_name(sn_library_kind k)
{
    return k == SN_LIBRARY_MEDIAN ? "median" : "sorter";
}

size_t sn_library_median(uint32_t n)
{
    size_t best = SN_LIBRARY_NONE;
    for (size_t i = 0; i < sn_library_file_count; i++) {
        const sn_library_file *f = &sn_library_files[i];
        if (f->n == n && is_median(f) &&
            (best == SN_LIBRARY_NONE || better(f, &sn_library_files[best], false)))
            best = i;
    }
    return best;
}

size_t sn_library_best_size(uint32_t n)
{
    size_t i = sn_library_best(n, false);
    return i == SN_LIBRARY_NONE ? 0 : sn_library_files[i].listed_size;
}

void sn_library_best_range(uint32_t *lo, uint32_t *hi)
{
    uint32_t l = UINT32_MAX, h = 0;
    for (size_t i = 0; i < sn_library_file_count; i++) {
        const sn_library_file *f = &sn_library_files[i];
        if (!is_record_list(f))
            continue;
        l = f->n < l ? f->n : l;
        h = f->n > h ? f->n : h;
    }
    *lo = l <= h ? l : 0;
    *hi = h;
}

bool sn_library_get(size_t i, sn_library_info *out)
{
    if (i >= sn_library_file_count)
        return false;
    const sn_library_file *f = &sn_library_files[i];
    memset(out, 0, sizeof *out);
    out->stem = f->stem;
    out->path = f->path;
    out->kind = is_median(f) ? SN_LIBRARY_MEDIAN : SN_LIBRARY_SORTER;
    out->source = is_record_list(f) || is_median(f) ? "SorterHunter" : "libsortnetwork";
    out->n = f->n;
    out->size = f->listed_size;
    out->depth = f->listed_depth;
    out->best_size = sn_library_best(f->n, false) == i;
    out->best_depth = sn_library_best(f->n, true) == i;
    out->size_optimal =
        !is_median(f) && f->n < COUNT_OF(size_optimal) && f->listed_size == size_optimal[f->n];
    out->depth_optimal =
        !is_median(f) && f->n < COUNT_OF(depth_optimal) && f->listed_depth == depth_optimal[f->n];
    return true;
}

size_t sn_library_find(const char *stem)
{
    for (size_t i = 0; i < sn_library_file_count; i++)
        if (strcmp(sn_library_files[i].stem, stem) == 0)
            return i;
    return SN_LIBRARY_NONE;
}

sn_status sn_library_network(size_t i, const char *name, sn_network **out, sn_diag *diag)
{
    *out = NULL;
    if (i >= sn_library_file_count)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "no library network %zu", i);
    const sn_library_file *f = &sn_library_files[i];
    sn_network *net = NULL;
    sn_status st = SN_OK;
    if (f->text) {
        st = sn_network_parse(f->text, strlen(f->text), SN_FORMAT_SN, &net, diag);
        if (st != SN_OK)
            return st;
    } else {
        /* A flat list, grouped as the JSON reader groups it. */
        if (!(net = sn_network_create(f->n)))
            return sn_diag_set(diag, SN_ENOMEM, 0, 0, "%s: out of memory", f->path);
        for (uint32_t c = 0; c < f->listed_size && st == SN_OK; c++)
            st = sn_network_add_asap(net, f->pairs[2 * c], f->pairs[2 * c + 1], diag);
    }
    char fallback[160];
    if (!name) {
        snprintf(fallback, sizeof fallback, "lib:%s", f->stem);
        name = fallback;
    }
    if (st == SN_OK)
        st = sn_network_set_name(net, name);
    if (st != SN_OK) {
        sn_network_destroy(net);
        return st == SN_ENOMEM ? sn_diag_set(diag, st, 0, 0, "%s: out of memory", f->path) : st;
    }
    *out = net;
    return SN_OK;
}

sn_status sn_library_schedule(size_t i, const char *name, sn_schedule **out, sn_diag *diag)
{
    *out = NULL;
    sn_network *net = NULL;
    sn_status st = sn_library_network(i, name, &net, diag);
    if (st != SN_OK)
        return st;
    if ((st = sn_schedule_from_network(net, out)) != SN_OK) /* consumes net */
        return sn_diag_set(diag, st, 0, 0, "%s: %s", sn_library_files[i].path, sn_status_str(st));
    return SN_OK;
}

size_t sn_library_selected_outputs(const char *name, uint32_t n, uint32_t out[2])
{
    if (n < 1 || (strncmp(name, "median:", 7) != 0 && strncmp(name, "lib:Median_", 11) != 0))
        return 0;
    out[0] = (n - 1) / 2;
    out[1] = n / 2;
    return n % 2 ? 1 : 2;
}

bool sn_library_is_family(const char *family)
{
    return strcmp(family, "best") == 0 || strcmp(family, "best-depth") == 0 ||
           strcmp(family, "median") == 0 || strcmp(family, "lib") == 0;
}
