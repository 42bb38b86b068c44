/* tuning.c - the fused variants' tuning record: its defaults, and the one
 * place where the environment's tuning knobs are read (docs/gpu-speed.md
 * lists them with what each measured). */
#include "gpu/gpu_internal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* what SN_RADIX_CLOPTS may hold: options and -D definitions, nothing a
 * shell or the compiler's option parser would read as more */
#define SN_RADIX_CLOPTS_CHARS                                                                      \
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_=.,+"

void sn_gpu_tuning_default(sn_gpu_tuning *t)
{
    memset(t, 0, sizeof *t);
    t->codegen = SN_GPU_CODEGEN_AUTO;
    t->tile_bits = 0; /* by the kind of pass */
    t->reg_tile_bits = SN_TUNE_REG_TILE_BITS;
    t->reg_elem_bits = SN_TUNE_REG_ELEM_BITS;
    t->first_tile_bits = SN_TUNE_FIRST_TILE_BITS;
    t->first_tile_from = SN_TUNE_FIRST_TILE_FROM;
    t->windows = true;
    t->window_bits = 0; /* by the kind of pass */
    t->window_round = 0;
}

/* The environment's text of a knob, or NULL: the one place this file
 * reads the environment */
static const char *knob_text(const char *name)
{
    const char *e = getenv(name);
    return e && *e ? e : NULL;
}

/* A knob's value: false when unset; SN_EINVAL when set but not a whole
 * number in [lo, hi]. */
static sn_status knob(const char *name, unsigned lo, unsigned hi, bool *set, unsigned *out,
                      sn_diag *diag)
{
    const char *e = knob_text(name);
    *set = e != NULL;
    if (!*set)
        return SN_OK;
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    if (*e < '0' || *e > '9' || *end || v < lo || v > hi)
        return sn_diag_set(diag, SN_EINVAL, 0, 0,
                           "environment: %s='%.40s' is not a whole number from %u to %u (see "
                           "docs/gpu-speed.md)",
                           name, e, lo, hi);
    *out = (unsigned)v;
    return SN_OK;
}

sn_status sn_gpu_tuning_from_env(sn_gpu_tuning *t, sn_diag *diag)
{
    bool set;
    unsigned v = 0;
    sn_status st = knob("SN_FUSED_TILE", 1, SN_TUNE_TILE_BITS_MAX, &set, &v, diag);
    if (st != SN_OK)
        return st;
    if (set)
        t->tile_bits = v;
    if ((st = knob("SN_FUSED_BIGTILE", 0, 24, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->reg_tile_bits = v;
    if ((st = knob("SN_FUSED_CODEGEN", 0, 1, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->codegen = v ? SN_GPU_CODEGEN_GENERATE : SN_GPU_CODEGEN_INTERPRET;
    if ((st = knob("SN_RADIX_E", 8, 32, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->radix_e = v;
    if ((st = knob("SN_RADIX_ONESWEEP", 0, 1, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->radix_onesweep = v ? SN_GPU_ONESWEEP_ON : SN_GPU_ONESWEEP_OFF;
    if ((st = knob("SN_RADIX_MAXRREG", 32, 255, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->radix_maxrreg = v;
    const char *clo = knob_text("SN_RADIX_CLOPTS");
    if (clo) {
        size_t len = strlen(clo);
        if (len >= sizeof t->radix_clopts || strspn(clo, SN_RADIX_CLOPTS_CHARS) != len)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "environment: SN_RADIX_CLOPTS='%.40s' is not build options of at "
                               "most %zu letters, digits, spaces and -_=.,+ (see "
                               "docs/gpu-speed.md)",
                               clo, sizeof t->radix_clopts - 1);
        memcpy(t->radix_clopts, clo, len + 1);
    }
    /* the host-to-host sorts' staging and runs (docs/gpu-sorts.md) */
    if ((st = knob("SN_GPU_STAGE_CHUNK", 0, 1u << 30, &set, &v, diag)) != SN_OK)
        return st;
    if (set) {
        t->stage_chunk = v;
        t->stage_off = v == 0;
    }
    if ((st = knob("SN_GPU_STAGE_THREADS", 1, 256, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->stage_threads = v;
    if ((st = knob("SN_GPU_STAGE_SLOTS", 2, 8, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->stage_slots = v;
    if ((st = knob("SN_GPU_STAGE_MERGE", 0, 1, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->stage_merge_host = v == 0;
    if ((st = knob("SN_GPU_SORT_RUN", 1, 1u << 31, &set, &v, diag)) != SN_OK)
        return st;
    if (set)
        t->sort_run = v;
    /* the merge sort's sizes, powers of two */
    static const struct {
        const char *name;
        unsigned lo;
        size_t field;
    } pow2[] = {{"SN_MERGE_E", 2, offsetof(sn_gpu_tuning, merge_e)},
                {"SN_MERGE_PG", 1, offsetof(sn_gpu_tuning, merge_pg)},
                {"SN_MERGE_TILE_E", 2, offsetof(sn_gpu_tuning, merge_tile_e)}};
    for (size_t i = 0; i < sizeof pow2 / sizeof pow2[0]; i++) {
        if ((st = knob(pow2[i].name, pow2[i].lo, 32, &set, &v, diag)) != SN_OK)
            return st;
        if (set && (v & (v - 1)))
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "environment: %s=%u is not a power of two (see "
                               "docs/gpu-speed.md)",
                               pow2[i].name, v);
        if (set)
            *(unsigned *)((char *)t + pow2[i].field) = v;
    }
    return SN_OK;
}

const sn_gpu_tuning *sn_gpu_tuning_get(const sn_gpu *g)
{
    return &g->tune;
}

void sn_gpu_set_tuning(sn_gpu *g, const sn_gpu_tuning *t)
{
    g->tune = *t;
}

bool sn_gpu_generates(const sn_gpu *g)
{
    if (g->tune.codegen != SN_GPU_CODEGEN_AUTO)
        return g->tune.codegen == SN_GPU_CODEGEN_GENERATE;
    return strcmp(g->info.type, "CPU") != 0;
}
