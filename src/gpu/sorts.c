/* sorts.c - host side of the classic GPU sorts (kernels/sorts.cl) and the
 * stable reference they are checked against.
 *
 * Invariant: between kernels the device holds ordered keys (keys.cl), so
 * every kernel compares plain unsigned values; the raw bits are mapped on
 * the device before the first and after the last kernel (not for u32, where
 * the map is the identity). Every algorithm is stable, so with a payload
 * the result is unique and equals the reference's. */
#include "gpu/sorts.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/parallel.h" // for: the reference on every core
#include "gpu/gpu_internal.h"
#include "gpu/kernels.h"
#include "gpu/sort_stage.h"

/* Keys per tile as multiples of WG: the kernels are built with these
 * (-DMERGE_E, -DRADIX_E, -DTILE_E); HYB_E must match kernels/sorts.cl's. */
#define MERGE_E 16    /* keys per work-item in merge tiles and chunks, unless tuned */
#define RADIX_E 8     /* keys per work-item in a radix tile: the portable kernels */
#define RADIX_E_NV 16 /* with the NVIDIA ranking, whose tile is not double-buffered */
#define HYB_E(me) ((me) > 16 ? (me) / 2 : 8) /* keys per work-item in a hybrid tile */
#define SORT_WG_MAX 256
/* transposition: rounds per flag read-back grow from 1 to this */
#define FLAG_BATCH_MAX 64

enum {
    KS_TO_ORD = 0,
    KS_FROM_ORD,
    KS_TR_PHASE,
    KS_TRL_BLOCK,
    KS_TRL_MERGE,
    KS_RANK_GLOBAL,
    KS_RANK_TILED,
    KS_MS_TILE,
    KS_MS_MERGE,
    KS_MS_PARTITION,
    KS_RX_COUNT,
    KS_RX_SCATTER,
    KS_SCAN_BLOCK,
    KS_SCAN_ADD,
    KS_HY_TILE,
    KS_MS_TILE_KV, /* the tile kernels with payload (kv() picks them) */
    KS_MS_MERGE_KV,
    KS_RX_SCATTER_KV,
    KS_OS_HIST, /* onesweep (kernels/onesweep.cl) */
    KS_OS_SCATTER,
    KS_OS_SCATTER_KV,
    KS_COUNT
};

static const char *const kernel_names[KS_COUNT] = {
    "sort_to_ordered", "sort_from_ordered", "tr_phase",      "trl_block", "trl_merge_split",
    "rank_global",     "rank_tiled",        "ms_tile",       "ms_merge",  "ms_partition",
    "rx_count",        "rx_scatter",        "scan_block",    "scan_add",  "hy_tile",
    "ms_tile_kv",      "ms_merge_kv",       "rx_scatter_kv", "os_hist",   "os_scatter",
    "os_scatter_kv"};

/* The radix kernels (NVIDIA's register cap applies to them) */
static bool radix_kernel(int which)
{
    return which == KS_RX_COUNT || which == KS_RX_SCATTER || which == KS_RX_SCATTER_KV ||
           which == KS_OS_HIST || which == KS_OS_SCATTER || which == KS_OS_SCATTER_KV;
}

static const char *const algo_names[SN_SORT_COUNT] = {
    "transposition", "transposition-local", "rank", "rank-global", "merge", "radix", "hybrid"};

struct sn_gpu_sorter {
    sn_gpu *g;
    cl_program prog;
    cl_program prog_rx; /* the radix kernels under NVIDIA's register cap, or NULL */
    cl_kernel k[KS_COUNT];
    size_t wg;
    bool nv;                          /* built with -DSN_NV=1 (rank_nv) */
    unsigned radix_e;                 /* RADIX_E it was built with */
    unsigned merge_e;                 /* MERGE_E it was built with */
    unsigned merge_pg;                /* PG: ms_partition's work-items a chunk */
    unsigned tile_e;                  /* TILE_E: keys a work-item in a keys-only merge tile */
    sn_gpu_sort_progress_fn progress; /* or NULL */
    void *progress_ctx;
    bool ordered_out; /* sn_gpu_sorter_set_ordered_out */
    sn_stage stage;   /* pinned staging, kept from one sort to the next */
    size_t align_words; /* a sub-buffer's origin: CL_DEVICE_MEM_BASE_ADDR_ALIGN in words */
    uint32_t *scr_k, *scr_p; /* sn_gpu_sorter_set_scratch: borrowed */
    size_t scr_cap;
};

const char *sn_sort_algo_name(sn_sort_algo a)
{
    return (unsigned)a < SN_SORT_COUNT ? algo_names[a] : "?";
}

bool sn_sort_algo_parse(const char *s, sn_sort_algo *out)
{
    for (unsigned a = 0; a < SN_SORT_COUNT; a++)
        if (strcmp(s, algo_names[a]) == 0) {
            *out = (sn_sort_algo)a;
            return true;
        }
    return false;
}

bool sn_sort_algo_quadratic(sn_sort_algo a)
{
    return a == SN_SORT_TRANSPOSITION || a == SN_SORT_RANK || a == SN_SORT_RANK_GLOBAL;
}

/* The planted bugs of kernels/sorts.cl for SN_SORT_BUG (tests only): a
 * comma-separated list of algorithm names, or "all"; a bit per algorithm
 * (1 transposition, 2 transposition-local, 4 rank and rank-global, 8 merge,
 * 16 radix, 32 hybrid); 0 when unset. This is the only place that reads it. */
static int planted_bugs(void)
{
    static const int bit[SN_SORT_COUNT] = {1, 2, 4, 4, 8, 16, 32};
    const char *e = getenv("SN_SORT_BUG");
    if (!e || !*e)
        return 0;
    if (strcmp(e, "all") == 0)
        return 63;
    int mask = 0;
    char name[32];
    for (const char *p = e; *p;) {
        size_t len = strcspn(p, ",");
        sn_sort_algo a;
        if (len < sizeof name) {
            memcpy(name, p, len);
            name[len] = '\0';
            if (sn_sort_algo_parse(name, &a))
                mask |= bit[a];
        }
        p += len + (p[len] == ',');
    }
    return mask;
}

/* Whether g is an NVIDIA GPU of compute capability 7.0 or later, whose
 * warps match and shuffle (PTX match.any.sync, shfl.sync): the radix
 * sort's one-sweep ranking (rank_nv in kernels/sorts.cl) needs them. */
static bool nvidia_warps(const sn_gpu *g)
{
    const cl_device_info cc_major = 0x4000; /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */
    char ext[8192] = "";
    cl_uint major = 0;
    if (strcmp(g->info.type, "GPU") != 0 || !strstr(g->info.vendor, "NVIDIA") ||
        clGetDeviceInfo(g->device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL) != CL_SUCCESS ||
        !strstr(ext, "cl_nv_device_attribute_query"))
        return false;
    return clGetDeviceInfo(g->device, cc_major, sizeof major, &major, NULL) == CL_SUCCESS &&
           major >= 7;
}

/* A build that failed under SN_RADIX_CLOPTS is the knob's error (exit 2),
 * with the compiler's word on it */
static sn_status clopts_failed(const sn_gpu *g, sn_status st, sn_diag *diag)
{
    if (st != SN_EBUILD || !g->tune.radix_clopts[0] || !diag)
        return st;
    char log[sizeof diag->text];
    memcpy(log, diag->text, sizeof log);
    return sn_diag_set(diag, SN_EINVAL, 0, 0,
                       "environment: SN_RADIX_CLOPTS='%s' does not build (see docs/gpu-speed.md): "
                       "%.700s",
                       g->tune.radix_clopts, log);
}

void sn_gpu_sorter_destroy(sn_gpu_sorter *s)
{
    if (!s)
        return;
    sn_stage_free(&s->stage);
    for (int i = 0; i < KS_COUNT; i++)
        if (s->k[i])
            clReleaseKernel(s->k[i]);
    if (s->prog)
        clReleaseProgram(s->prog);
    if (s->prog_rx)
        clReleaseProgram(s->prog_rx);
    sn_free(s);
}

sn_status sn_gpu_sorter_create(sn_gpu *g, sn_gpu_sorter **out, sn_diag *diag)
{
    *out = NULL;
    const char *src_sorts = sn_kernel_source_find("sorts");
    const char *src_os = sn_kernel_source_find("onesweep");
    if (!src_sorts || !src_os)
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "kernels/%s.cl was not embedded",
                           src_sorts ? "onesweep" : "sorts");
    size_t wg = SORT_WG_MAX;
    while (wg > g->info.max_work_group && wg > 64)
        wg /= 2;
    if (wg > g->info.max_work_group)
        return sn_diag_set(diag, SN_EDEVICE, 0, 0,
                           "the sorts need work-groups of 64, the device allows %zu",
                           g->info.max_work_group);
    /* the radix scatter's local memory, the largest of the kernels: the
     * portable one's (keys and places double-buffered, packed counters),
     * and the onesweep scatter's (counts, and a scan of the histogram) */
    uint64_t local_need = (uint64_t)wg * RADIX_E * 16 * 33 / 32 + wg * 16 + 2048 + 1028 + wg * 8;
    if (g->info.local_mem < local_need)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "the sorts need %llu bytes of local memory, the device has %llu",
                           (unsigned long long)local_need, (unsigned long long)g->info.local_mem);
    sn_gpu_sorter *s = sn_calloc(1, sizeof *s);
    if (!s)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    s->g = g;
    s->wg = wg;
    /* chunks start where a sub-buffer may: the device's base alignment
     * (bits), 4 KiB when it does not say */
    cl_uint align_bits = 0;
    cl_int aerr = clGetDeviceInfo(g->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits,
                                  &align_bits, NULL);
    if (aerr != CL_SUCCESS) {
        sn_free(s);
        return sn_gpu_cl_fail(diag, "clGetDeviceInfo(CL_DEVICE_MEM_BASE_ADDR_ALIGN)", aerr);
    }
    align_bits = align_bits ? align_bits : 4096 * 8;
    s->align_words = align_bits / 32 < 16 ? 16 : align_bits / 32;
    /* one program: kernels/onesweep.cl takes sorts.cl's tile ranking */
    size_t l1 = strlen(src_sorts), l2 = strlen(src_os);
    char *src = sn_malloc(l1 + l2 + 2);
    if (!src) {
        sn_free(s);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory");
    }
    memcpy(src, src_sorts, l1);
    src[l1] = '\n';
    memcpy(src + l1 + 1, src_os, l2 + 1);
    /* the NVIDIA ranking: a tile of keys and places, 256 digits' rows of
     * 9 warp counters, the digits' places */
    unsigned e_nv = g->tune.radix_e ? g->tune.radix_e : RADIX_E_NV;
    bool nv = wg == 256 && nvidia_warps(g) &&
              g->info.local_mem >= (uint64_t)wg * e_nv * 8 * 33 / 32 + 256 * 9 * 4 + 2048 + 1032;
    s->merge_e = g->tune.merge_e ? g->tune.merge_e : MERGE_E;
    s->merge_pg = g->tune.merge_pg ? g->tune.merge_pg : 1;
    char opts[512];
    for (;;) {
        s->radix_e = nv ? e_nv : RADIX_E;
        /* keys-only merge tiles twice as long on NVIDIA (measured: one
         * merge pass less for a tile that costs about the same) */
        s->tile_e = g->tune.merge_tile_e ? g->tune.merge_tile_e : nv ? 32 : s->merge_e;
        if (s->tile_e < s->merge_e / 2)
            s->tile_e = s->merge_e / 2; /* the merge chunk must divide two tiles */
        snprintf(opts, sizeof opts,
                 "-DWG=%zu -DSN_SORT_BUG=%d -DSN_NV=%d -DRADIX_E=%u -DMERGE_E=%u -DPG=%u "
                 "-DTILE_E=%u %s",
                 wg, planted_bugs(), nv, s->radix_e, s->merge_e, s->merge_pg, s->tile_e,
                 g->tune.radix_clopts);
        sn_status st = sn_gpu_build_source_opts(g, src, opts, false, &s->prog, diag);
        if (st == SN_EBUILD && nv) { /* a compiler without inline PTX: the portable kernels */
            nv = false;
            continue;
        }
        if (st != SN_OK) {
            sn_free(src);
            sn_gpu_sorter_destroy(s);
            return clopts_failed(g, st, diag);
        }
        break;
    }
    s->nv = nv;
    /* NVIDIA's: the radix kernels built again under a register cap (more
     * work-groups a compute unit: 4 instead of 2 at 64 registers, 0.94 of
     * the uncapped onesweep's time at 2^26 on an H200, docs/gpu-speed.md),
     * the other sorts as they were measured */
    unsigned cap = g->tune.radix_maxrreg ? g->tune.radix_maxrreg : SN_TUNE_RADIX_MAXRREG;
    sn_status st = SN_OK;
    if (nv && cap < 255) {
        size_t len = strlen(opts);
        snprintf(opts + len, sizeof opts - len, " -cl-nv-maxrregcount=%u", cap);
        st = clopts_failed(g, sn_gpu_build_source_opts(g, src, opts, false, &s->prog_rx, diag),
                           diag);
    }
    sn_free(src);
    for (int i = 0; i < KS_COUNT && st == SN_OK; i++) {
        cl_int err;
        s->k[i] = clCreateKernel(s->prog_rx && radix_kernel(i) ? s->prog_rx : s->prog,
                                 kernel_names[i], &err);
        size_t w = 0;
        const char *what = "clCreateKernel";
        if (err == CL_SUCCESS) {
            what = "clGetKernelWorkGroupInfo";
            err = clGetKernelWorkGroupInfo(s->k[i], g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof w,
                                           &w, NULL);
        }
        if (err != CL_SUCCESS) {
            char call[80];
            snprintf(call, sizeof call, "%s(%s)", what, kernel_names[i]);
            st = sn_gpu_cl_fail(diag, call, err);
        } else if (w < wg) {
            st = sn_diag_set(diag, SN_EDEVICE, 0, 0,
                             "kernel %s runs at most %zu work-items per group, it needs %zu",
                             kernel_names[i], w, wg);
        }
    }
    if (st != SN_OK) {
        sn_gpu_sorter_destroy(s);
        return st;
    }
    *out = s;
    return SN_OK;
}

/* ---- one run's buffers */

typedef struct run {
    sn_gpu_sorter *s;
    cl_mem k[2], p[2]; /* ping-pong; p: 4-byte dummies without payload */
    cl_mem flags;      /* transposition: a flag per phase of a batch */
    cl_mem counts, offs;
    cl_mem lv[8][2];     /* radix scan: per level the block sums and their scan */
    cl_mem hist, status; /* onesweep: tile counters and histograms, look-back words */
    size_t lvlen[8];
    unsigned levels;
    cl_uint n, hp;
    int cur; /* which of k[] / p[] holds the data */
    uint64_t launches, rounds;
    bool hist_done; /* onesweep: the histograms were made chunk by chunk during the upload */
} run;

static sn_status buf(run *r, size_t bytes, cl_mem *m, const char *what, sn_diag *diag)
{
    cl_int err;
    *m = clCreateBuffer(r->s->g->ctx, CL_MEM_READ_WRITE, bytes ? bytes : 4, NULL, &err);
    if (err != CL_SUCCESS) {
        char call[80];
        snprintf(call, sizeof call, "clCreateBuffer(%s, %zu bytes)", what, bytes);
        return sn_gpu_cl_fail(diag, call, err);
    }
    return SN_OK;
}

static void run_free(run *r)
{
    cl_mem *all[] = {&r->k[0],   &r->k[1], &r->p[0], &r->p[1],  &r->flags,
                     &r->counts, &r->offs, &r->hist, &r->status};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (*all[i])
            clReleaseMemObject(*all[i]);
    for (unsigned l = 0; l < 8; l++)
        for (int j = 0; j < 2; j++)
            if (r->lv[l][j])
                clReleaseMemObject(r->lv[l][j]);
}

/* Set kernel arguments from a list of (size, pointer) pairs. */
static sn_status args(cl_kernel k, const char *name, sn_diag *diag, unsigned count, ...)
{
    va_list ap;
    va_start(ap, count);
    cl_int err = CL_SUCCESS;
    for (unsigned i = 0; i < count && err == CL_SUCCESS; i++) {
        size_t sz = va_arg(ap, size_t);
        const void *v = va_arg(ap, const void *);
        err = clSetKernelArg(k, i, sz, v);
    }
    va_end(ap);
    if (err != CL_SUCCESS) {
        char call[80];
        snprintf(call, sizeof call, "clSetKernelArg(%s)", name);
        return sn_gpu_cl_fail(diag, call, err);
    }
    return SN_OK;
}
#define M(x) sizeof(cl_mem), (const void *)&(x)
#define U(x) sizeof(cl_uint), (const void *)&(x)

static sn_status launch(run *r, int which, size_t items, sn_diag *diag)
{
    r->launches++;
    return sn_gpu_launch(r->s->g, r->s->k[which], items, r->s->wg, kernel_names[which], diag);
}

static sn_status map_keys(run *r, int which, cl_uint kt, sn_diag *diag)
{
    cl_kernel k = r->s->k[which];
    sn_status st = args(k, kernel_names[which], diag, 3, M(r->k[r->cur]), U(r->n), U(kt));
    return st != SN_OK ? st : launch(r, which, r->n, diag);
}

/* ---- transposition: phases until a round of two phases moves nothing */

/* Run rounds of (parity 0, parity 1) with kernel `which` over `items`
 * work-items per phase, reading the per-phase flags back after batches of
 * 1, 2, 4, ... rounds; stops after the first round without a move, or
 * after `cap` rounds (full: exactly cap rounds in the same batches, each
 * waited for, the flags never read: the network's n phases). */
static sn_status rounds(run *r, int which, size_t items, uint64_t cap, bool full, sn_diag *diag)
{
    cl_kernel k = r->s->k[which];
    cl_mem kb = r->k[r->cur], pb = r->p[r->cur];
    uint32_t flags[2 * FLAG_BATCH_MAX];
    uint64_t done = 0;
    uint64_t batch = 1;
    sn_status st = SN_OK;
    while (done < cap) {
        uint64_t nb = batch < cap - done ? batch : cap - done;
        if (!full) {
            cl_uint zero = 0;
            cl_int err = clEnqueueFillBuffer(r->s->g->queue, r->flags, &zero, sizeof zero, 0,
                                             (size_t)(2 * nb) * 4, 0, NULL, NULL);
            if (err != CL_SUCCESS)
                return sn_gpu_cl_fail(diag, "clEnqueueFillBuffer(flags)", err);
        }
        for (uint64_t b = 0; b < nb; b++) {
            for (cl_uint parity = 0; parity < 2; parity++) {
                cl_uint slot = full ? 0 : (cl_uint)(2 * b + parity);
                st = args(k, kernel_names[which], diag, 7, M(kb), M(pb), U(r->n), U(parity),
                          U(r->hp), M(r->flags), U(slot));
                if (st == SN_OK)
                    st = launch(r, which, items, diag);
                if (st != SN_OK)
                    return st;
            }
        }
        if (full) { /* the same batches, waited for, with no look at the flags */
            if ((st = sn_gpu_finish(r->s->g, diag)) != SN_OK)
                return st;
            done += nb;
            batch = batch < FLAG_BATCH_MAX ? batch * 2 : batch;
            if (r->s->progress)
                r->s->progress(r->s->progress_ctx, done, cap);
            continue;
        }
        st = sn_gpu_read(r->s->g, r->flags, 0, (size_t)(2 * nb) * 4, flags, true, "flags", diag);
        if (st != SN_OK)
            return st;
        for (uint64_t b = 0; b < nb; b++)
            if (!flags[2 * b] && !flags[2 * b + 1]) {
                r->rounds = done + b + 1;
                return SN_OK;
            }
        done += nb;
        if (batch < FLAG_BATCH_MAX)
            batch *= 2;
        if (r->s->progress)
            r->s->progress(r->s->progress_ctx, done, cap);
    }
    r->rounds = done;
    return SN_OK;
}

static sn_status run_transposition(run *r, bool full, sn_diag *diag)
{
    uint64_t cap = ((uint64_t)r->n + 1) / 2 + (full ? 0 : 1);
    return rounds(r, KS_TR_PHASE, (r->n + 1) / 2, cap, full, diag);
}

static sn_status run_transposition_local(run *r, sn_diag *diag)
{
    size_t tb = 2 * r->s->wg, blocks = (r->n + tb - 1) / tb;
    cl_kernel k = r->s->k[KS_TRL_BLOCK];
    sn_status st =
        args(k, "trl_block", diag, 4, M(r->k[r->cur]), M(r->p[r->cur]), U(r->n), U(r->hp));
    if (st == SN_OK)
        st = launch(r, KS_TRL_BLOCK, blocks * r->s->wg, diag);
    if (st != SN_OK)
        return st;
    /* a phase of parity p merges blocks (2j+p, 2j+p+1): blocks/2 groups */
    size_t groups = (blocks + 1) / 2;
    return rounds(r, KS_TRL_MERGE, groups * r->s->wg, (uint64_t)blocks + 1, false, diag);
}

/* ---- rank, merge, hybrid: kernels from k[cur] to k[cur ^ 1] */

/* Bytes of a kernel's local array of tile places: `words` with payload,
 * else a word (the kernels touch it only with payload). */
static size_t places(const run *r, size_t words)
{
    return r->hp ? words * 4 : 4;
}
#define L(bytes) (size_t)(bytes), (const void *)NULL
/* words of a local tile of e keys a work-item, with a pad word every 32 */
#define PADDED(r, e) ((r)->s->wg * (e) + (r)->s->wg * (e) / 32)

/* The kernel a run launches for `which`: its _kv twin with payload. */
static int kv(const run *r, int which)
{
    if (!r->hp)
        return which;
    switch (which) {
    case KS_MS_TILE: return KS_MS_TILE_KV;
    case KS_MS_MERGE: return KS_MS_MERGE_KV;
    case KS_RX_SCATTER: return KS_RX_SCATTER_KV;
    case KS_OS_SCATTER: return KS_OS_SCATTER_KV;
    default: return which;
    }
}

static sn_status step(run *r, int which0, size_t items, sn_diag *diag)
{
    int c = r->cur, which = kv(r, which0);
    cl_kernel k = r->s->k[which];
    sn_status st = args(k, kernel_names[which], diag, 6, M(r->k[c]), M(r->p[c]), M(r->k[c ^ 1]),
                        M(r->p[c ^ 1]), U(r->n), U(r->hp));
    if (st == SN_OK && which0 == KS_MS_TILE) {
        cl_int err = clSetKernelArg(k, 6, places(r, PADDED(r, r->s->merge_e)), NULL);
        if (err != CL_SUCCESS)
            st = sn_gpu_cl_fail(diag, "clSetKernelArg(ms_tile, local places)", err);
    }
    if (st == SN_OK)
        st = launch(r, which, items, diag);
    r->cur ^= 1;
    return st;
}

/* Merge passes' output chunks of MT keys, one work-group each */
static size_t merge_chunks(const run *r)
{
    size_t chunk = r->s->wg * r->s->merge_e;
    return (r->n + chunk - 1) / chunk;
}

static sn_status run_merges(run *r, int tile_kernel, size_t tile, sn_diag *diag)
{
    size_t groups = (r->n + tile - 1) / tile;
    sn_status st = step(r, tile_kernel, groups * r->s->wg, diag);
    size_t chunks = merge_chunks(r);
    cl_uint nc = (cl_uint)chunks;
    for (uint64_t w = tile; st == SN_OK && w < r->n; w *= 2) {
        cl_uint cw = (cl_uint)w;
        int c = r->cur;
        st = args(r->s->k[KS_MS_PARTITION], "ms_partition", diag, 5, M(r->k[c]), M(r->offs),
                  U(r->n), U(cw), U(nc));
        if (st == SN_OK)
            st = launch(r, KS_MS_PARTITION, chunks * r->s->merge_pg, diag);
        if (st == SN_OK)
            st = args(r->s->k[kv(r, KS_MS_MERGE)], "ms_merge", diag, 9, M(r->k[c]), M(r->p[c]),
                      M(r->k[c ^ 1]), M(r->p[c ^ 1]), U(r->n), U(cw), U(r->hp), M(r->offs),
                      L(places(r, PADDED(r, r->s->merge_e))));
        if (st == SN_OK)
            st = launch(r, kv(r, KS_MS_MERGE), chunks * r->s->wg, diag);
        r->cur ^= 1;
    }
    return st;
}

/* ---- radix */

/* Exclusive scan of `in` (len words) into `out` on the device, recursing
 * over the block sums (levels from level on). */
static sn_status scan(run *r, cl_mem in, cl_mem out, size_t len, unsigned level, bool add,
                      sn_diag *diag)
{
    cl_uint l = (cl_uint)len;
    size_t blk = 4 * r->s->wg, groups = (len + blk - 1) / blk;
    cl_mem sums = r->lv[level][0], ssum = r->lv[level][1];
    sn_status st =
        args(r->s->k[KS_SCAN_BLOCK], "scan_block", diag, 4, M(in), M(out), U(l), M(sums));
    if (st == SN_OK)
        st = launch(r, KS_SCAN_BLOCK, groups * r->s->wg, diag);
    if (st != SN_OK || groups == 1)
        return st;
    if ((st = scan(r, sums, ssum, groups, level + 1, true, diag)) != SN_OK || !add)
        return st;
    st = args(r->s->k[KS_SCAN_ADD], "scan_add", diag, 3, M(out), U(l), M(ssum));
    return st != SN_OK ? st : launch(r, KS_SCAN_ADD, len, diag);
}

static sn_status radix_buffers(run *r, size_t len, sn_diag *diag)
{
    sn_status st = buf(r, len * 4, &r->counts, "radix counts", diag);
    if (st == SN_OK)
        st = buf(r, len * 4, &r->offs, "radix offsets", diag);
    size_t blk = 4 * r->s->wg;
    for (unsigned l = 0; st == SN_OK && len > 1; l++) {
        if (l == 8)
            return sn_diag_set(diag, SN_ELIMIT, 0, 0, "radix scan: too many levels");
        len = (len + blk - 1) / blk;
        st = buf(r, len * 4, &r->lv[l][0], "scan sums", diag);
        if (st == SN_OK)
            st = buf(r, len * 4, &r->lv[l][1], "scan sums", diag);
        r->levels = l + 1;
    }
    return st;
}

static unsigned radix_bits(const sn_gpu_sort_opts *o)
{
    return o->radix_bits ? o->radix_bits : 8;
}

/* Radix tiles of RT keys, one work-group each */
static size_t radix_tiles(const run *r)
{
    size_t tile = r->s->wg * r->s->radix_e;
    return (r->n + tile - 1) / tile;
}

static sn_status run_radix(run *r, unsigned bits, sn_diag *diag)
{
    size_t tiles = radix_tiles(r);
    cl_uint nd = 1u << bits, ct = (cl_uint)tiles, b = bits, hp = r->hp;
    size_t len = (size_t)nd * tiles, blk = 4 * r->s->wg;
    /* the scatter adds the scan's block sums itself (a pass over the
     * counts less) */
    cl_uint fold = len > blk; /* kernels/sorts.cl's scan blocks are 4 WG too */
    sn_status st = SN_OK;
    for (cl_uint shift = 0; st == SN_OK && shift < 32; shift += bits) {
        int c = r->cur;
        st = args(r->s->k[KS_RX_COUNT], "rx_count", diag, 6, M(r->k[c]), U(r->n), U(shift), U(b),
                  M(r->counts), U(ct));
        if (st == SN_OK)
            st = launch(r, KS_RX_COUNT, tiles * r->s->wg, diag);
        if (st == SN_OK)
            st = scan(r, r->counts, r->offs, len, 0, false, diag);
        if (st == SN_OK)
            st = args(r->s->k[kv(r, KS_RX_SCATTER)], "rx_scatter", diag, 13, M(r->k[c]), M(r->p[c]),
                      M(r->k[c ^ 1]), M(r->p[c ^ 1]), U(r->n), U(shift), U(b), M(r->offs), U(ct),
                      U(hp), L(places(r, PADDED(r, r->s->radix_e) * (r->s->nv ? 1 : 2))),
                      M(r->lv[0][1]), U(fold));
        if (st == SN_OK)
            st = launch(r, kv(r, KS_RX_SCATTER), tiles * r->s->wg, diag);
        r->cur ^= 1;
    }
    return st;
}

/* ---- onesweep radix (kernels/onesweep.cl): a histogram pass for every
 * digit, then a scatter per digit with decoupled look-back */

#define OS_TICKETS 8               /* kernels/onesweep.cl's: the passes' tile counters */
#define OS_LIMIT ((size_t)1 << 30) /* counts share a word with 2 flag bits */

/* Whether a radix sort of n keys runs as onesweep: the tuning record's
 * choice (auto: where it measured faster, NVIDIA's ranking; see
 * docs/gpu-speed.md), for n < 2^30. */
static bool use_onesweep(const sn_gpu_sorter *s, size_t n)
{
    unsigned o = s->g->tune.radix_onesweep;
    bool on = o == SN_GPU_ONESWEEP_AUTO ? s->nv : o == SN_GPU_ONESWEEP_ON;
    return on && n < OS_LIMIT;
}

static sn_status onesweep_buffers(run *r, unsigned bits, sn_diag *diag)
{
    size_t nd = (size_t)1 << bits, passes = 32 / bits;
    sn_status st = buf(r, (OS_TICKETS + passes * nd) * 4, &r->hist, "onesweep histograms", diag);
    return st != SN_OK ? st
                       : buf(r, 2 * radix_tiles(r) * nd * 4, &r->status, "onesweep status", diag);
}

/* The onesweep histograms zeroed (before the first os_hist). */
static sn_status onesweep_zero(run *r, unsigned bits, sn_diag *diag)
{
    cl_uint words = OS_TICKETS + (32 / bits) * (1u << bits);
    /* the counters and histograms start at zero (a kernel that zeroed
     * them measured 0.02 ms on an H200, a fill is a copy engine's job) */
    cl_uint zero_word = 0;
    cl_int err = clEnqueueFillBuffer(r->s->g->queue, r->hist, &zero_word, sizeof zero_word, 0,
                                     (size_t)words * 4, 0, NULL, NULL);
    return err == CL_SUCCESS ? SN_OK
                             : sn_gpu_cl_fail(diag, "clEnqueueFillBuffer(onesweep histograms)", err);
}

/* os_hist over keys[0..len) of buffer k (the whole array, or a chunk's
 * sub-buffer: the counts add up); zero_status: this launch also zeroes
 * pass 0's look-back rows (the first launch of a sort) */
static sn_status onesweep_hist(run *r, cl_mem k, size_t len, unsigned bits, bool zero_status,
                               sn_diag *diag)
{
    size_t tile = r->s->wg * r->s->radix_e, tiles = (len + tile - 1) / tile;
    cl_uint passes = 32 / bits, b = bits, n = (cl_uint)len;
    cl_uint zero = zero_status ? (cl_uint)(radix_tiles(r) << bits) : 0;
    /* histogram work-groups: enough to fill the device, each adding its
     * counts once */
    size_t groups = 8 * (size_t)(r->s->g->info.compute_units ? r->s->g->info.compute_units : 1);
    groups = groups < tiles ? groups : tiles;
    groups = groups ? groups : 1;
    sn_status st = args(r->s->k[KS_OS_HIST], "os_hist", diag, 7, M(k), U(n), U(b), U(passes),
                        M(r->hist), M(r->status), U(zero));
    return st == SN_OK ? launch(r, KS_OS_HIST, groups * r->s->wg, diag) : st;
}

static sn_status run_onesweep(run *r, unsigned bits, sn_diag *diag)
{
    size_t tiles = radix_tiles(r);
    cl_uint passes = 32 / bits, b = bits, ct = (cl_uint)tiles;
    sn_status st = SN_OK;
    if (!r->hist_done && (st = onesweep_zero(r, bits, diag)) == SN_OK)
        st = onesweep_hist(r, r->k[r->cur], r->n, bits, true, diag);
    for (cl_uint pass = 0; st == SN_OK && pass < passes; pass++) {
        int c = r->cur, which = kv(r, KS_OS_SCATTER);
        st = args(r->s->k[which], kernel_names[which], diag, 11, M(r->k[c]), M(r->p[c]),
                  M(r->k[c ^ 1]), M(r->p[c ^ 1]), U(r->n), U(pass), U(b), M(r->hist), M(r->status),
                  U(ct), L(places(r, PADDED(r, r->s->radix_e) * (r->s->nv ? 1 : 2))));
        if (st == SN_OK)
            st = launch(r, which, tiles * r->s->wg, diag);
        r->cur ^= 1;
    }
    return st;
}

/* ---- the whole sort */

static sn_status run_algo(run *r, const sn_gpu_sort_opts *o, sn_diag *diag)
{
    size_t wg = r->s->wg;
    switch (o->algo) {
    case SN_SORT_TRANSPOSITION: return run_transposition(r, o->full_rounds, diag);
    case SN_SORT_TRANSPOSITION_LOCAL: return run_transposition_local(r, diag);
    case SN_SORT_RANK: return step(r, KS_RANK_TILED, r->n, diag);
    case SN_SORT_RANK_GLOBAL: return step(r, KS_RANK_GLOBAL, r->n, diag);
    case SN_SORT_MERGE:
        return run_merges(r, KS_MS_TILE, wg * (r->hp ? r->s->merge_e : r->s->tile_e), diag);
    case SN_SORT_HYBRID: return run_merges(r, KS_HY_TILE, wg * HYB_E(r->s->merge_e), diag);
    case SN_SORT_RADIX:
        return use_onesweep(r->s, r->n) ? run_onesweep(r, radix_bits(o), diag)
                                        : run_radix(r, radix_bits(o), diag);
    default: return sn_diag_set(diag, SN_EINVAL, 0, 0, "no such sort");
    }
}

static sn_status check_sizes(const sn_gpu *g, const sn_gpu_sort_opts *o, size_t n, bool payload,
                             sn_diag *diag)
{
    if (n > ((size_t)1 << 31))
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "%zu keys: gpu sort takes at most 2^31", n);
    if (o->radix_bits && o->radix_bits != 4 && o->radix_bits != 8)
        return sn_diag_set(diag, SN_EINVAL, 0, 0, "radix digits are 4 or 8 bits, not %u",
                           o->radix_bits);
    uint64_t bytes = (uint64_t)n * 4;
    uint64_t total = bytes * (payload ? 4 : 2);
    if (bytes > g->info.max_alloc || total > g->info.global_mem)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0,
                           "%zu keys need buffers of %llu bytes, %llu in all; the device allows "
                           "%llu per buffer and has %llu",
                           n, (unsigned long long)bytes, (unsigned long long)total,
                           (unsigned long long)g->info.max_alloc,
                           (unsigned long long)g->info.global_mem);
    return SN_OK;
}

static sn_status run_alloc(run *r, size_t n, bool payload, sn_diag *diag)
{
    size_t bytes = n * 4;
    sn_status st = SN_OK;
    for (int i = 0; i < 2 && st == SN_OK; i++) {
        st = buf(r, bytes, &r->k[i], "keys", diag);
        if (st == SN_OK)
            st = buf(r, payload ? bytes : 4, &r->p[i], "payload", diag);
    }
    if (st == SN_OK)
        st = buf(r, 2 * FLAG_BATCH_MAX * 4, &r->flags, "flags", diag);
    return st;
}

/* The run's scratch buffers (run_alloc made the keys' and payload's) */
static sn_status run_scratch(run *r, const sn_gpu_sort_opts *o, sn_diag *diag)
{
    switch (o->algo) {
    case SN_SORT_RADIX:
        if (use_onesweep(r->s, r->n))
            return onesweep_buffers(r, radix_bits(o), diag);
        return radix_buffers(r, ((size_t)1 << radix_bits(o)) * radix_tiles(r), diag);
    case SN_SORT_MERGE:
    case SN_SORT_HYBRID:
        return buf(r, (merge_chunks(r) + 1) * 4, &r->offs, "merge partition", diag);
    default: return SN_OK;
    }
}

/* Place every buffer of the run on the device before the clock starts:
 * a driver that allocates on first use (NVIDIA's) would otherwise do it
 * between two timed kernels, the first that touches the buffer. */
static sn_status run_settle(run *r, sn_diag *diag)
{
    cl_mem all[9 + 16];
    cl_uint c = 0;
    cl_mem own[] = {r->k[0],   r->k[1], r->p[0], r->p[1],  r->flags,
                    r->counts, r->offs, r->hist, r->status};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
        if (own[i])
            all[c++] = own[i];
    for (unsigned l = 0; l < 8; l++)
        for (int j = 0; j < 2; j++)
            if (r->lv[l][j])
                all[c++] = r->lv[l][j];
    cl_int err = clEnqueueMigrateMemObjects(r->s->g->queue, c, all,
                                            CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, NULL, NULL);
    return err == CL_SUCCESS ? SN_OK : sn_gpu_cl_fail(diag, "clEnqueueMigrateMemObjects", err);
}

void sn_gpu_sorter_set_ordered_out(sn_gpu_sorter *s, bool on)
{
    if (s)
        s->ordered_out = on;
}

void sn_gpu_sorter_set_progress(sn_gpu_sorter *s, sn_gpu_sort_progress_fn fn, void *ctx)
{
    if (!s)
        return;
    s->progress = fn;
    s->progress_ctx = ctx;
}

/* ---- estimates
 *
 * Rates per device type, on the slow side of what was measured (pocl on
 * two shared cores, docs/gpu-sorts.md: transposition at 2^20 took 1.25 ms
 * a round, 100000 keys 0.38 ms a round; rank sorts did 2-5 * 10^9
 * comparisons a second). A GPU's are guesses well below an H100's. */
typedef struct sort_rates {
    double launch_s;    /* one launch, with the flag read-back shared out */
    double key_phase_s; /* a key in one phase of a transposition round */
    double compare_s;   /* one comparison of a rank sort */
} sort_rates;

static sort_rates rates_of(const sn_gpu *g)
{
    const char *type = g ? sn_gpu_info(g)->type : "CPU";
    if (type && strcmp(type, "GPU") == 0)
        return (sort_rates){10e-6, 0.01e-9, 1 / 5e10};
    return (sort_rates){150e-6, 0.75e-9, 1 / 1.5e9};
}

sn_gpu_sort_cost sn_gpu_sort_estimate(const sn_gpu *g, const sn_gpu_sort_opts *o, size_t n,
                                      size_t displacement)
{
    sn_gpu_sort_cost c = {0, 0, 0};
    sort_rates rt = rates_of(g);
    uint64_t cap;
    switch (o->algo) {
    case SN_SORT_TRANSPOSITION:
        /* the early exit's last round finds nothing to move: one more */
        cap = ((uint64_t)n + 1) / 2 + (o->full_rounds ? 0 : 1);
        c.rounds = o->full_rounds || displacement >= cap ? cap : (uint64_t)displacement + 2;
        c.rounds = c.rounds < cap ? c.rounds : cap;
        c.seconds = (double)c.rounds * 2 * (rt.launch_s + (double)n * rt.key_phase_s);
        break;
    case SN_SORT_TRANSPOSITION_LOCAL: {
        /* a block holds 2 work-groups' keys, at most 2 * SORT_WG_MAX */
        size_t tb = 2 * SORT_WG_MAX, blocks = (n + tb - 1) / tb;
        c.rounds = displacement / tb + 2 < blocks + 1 ? displacement / tb + 2 : blocks + 1;
        c.seconds = (double)c.rounds * 2 * (rt.launch_s + (double)n * rt.key_phase_s) +
                    (double)n * (double)tb * rt.compare_s;
        break;
    }
    case SN_SORT_RANK:
    case SN_SORT_RANK_GLOBAL:
        c.comparisons = (double)n * (double)n;
        c.seconds = c.comparisons * rt.compare_s;
        break;
    default: break;
    }
    return c;
}

/* ---- one device sort, host to host */

/* What the upload does with each chunk once it arrived: the map to the
 * ordered form (i32, f32) and onesweep's histogram pass, on a sub-buffer
 * of the chunk, after a barrier on its copy. */
typedef struct chunk_ctx {
    run *r;
    cl_uint kt;   /* the key type to map (u32: none) */
    bool hist;    /* onesweep: the histograms */
    unsigned bits;
    bool first;   /* the first chunk's os_hist zeroes the look-back rows */
} chunk_ctx;

static sn_status on_chunk(void *ctx, size_t off, size_t len, cl_event arrived, sn_diag *diag)
{
    chunk_ctx *c = ctx;
    run *r = c->r;
    cl_command_queue q = r->s->g->queue;
    cl_int err = clEnqueueBarrierWithWaitList(q, 1, &arrived, NULL);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clEnqueueBarrierWithWaitList(chunk)", err);
    cl_buffer_region reg = {off * 4, len * 4};
    cl_mem sub = clCreateSubBuffer(r->k[0], CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg,
                                   &err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clCreateSubBuffer(chunk)", err);
    sn_status st = SN_OK;
    cl_uint n = (cl_uint)len;
    if (c->kt != SN_KEY_U32) {
        st = args(r->s->k[KS_TO_ORD], kernel_names[KS_TO_ORD], diag, 3, M(sub), U(n), U(c->kt));
        if (st == SN_OK)
            st = launch(r, KS_TO_ORD, len, diag);
    }
    if (st == SN_OK && c->hist)
        st = onesweep_hist(r, sub, len, c->bits, c->first, diag);
    c->first = false;
    clReleaseMemObject(sub); /* the enqueued kernels hold it until they end */
    clFlush(q);
    return st;
}

/* The staging's slot size for sorts of n keys in chunks of `chunk` */
static size_t stage_words(const sn_gpu_sorter *s, size_t chunk, size_t n)
{
    return sn_gpu_round_up(chunk < n ? chunk : n, s->align_words);
}

/* Whether a[0..words) lies in one of g's pinned blocks (sn_gpu_host_alloc):
 * the device copies it by DMA already, staging would only add a copy. */
static bool pinned_array(const sn_gpu *g, const void *a, size_t words)
{
    for (size_t i = 0; a && i < SN_GPU_PINS; i++) {
        size_t size = 0;
        if (!g->pins[i].m ||
            clGetMemObjectInfo(g->pins[i].m, CL_MEM_SIZE, sizeof size, &size, NULL) != CL_SUCCESS)
            continue;
        const char *b = g->pins[i].p, *x = a;
        if (x >= b && x + words * 4 <= b + size)
            return true;
    }
    return false;
}

/* kin[0..n) (payload pin) sorted on the device into kout (pout): the same
 * arrays for a sort in place. ordered: leave the keys in the ordered form.
 * dk (dp) non-NULL: into the device buffer dk (dp) from word doff instead,
 * with no download (the runs that the device merges). */
static sn_status sort_block_to(sn_gpu_sorter *s, const sn_gpu_sort_opts *o, const uint32_t *kin,
                               const uint32_t *pin, uint32_t *kout, uint32_t *pout, size_t n,
                               bool ordered, cl_mem dk, cl_mem dp, size_t doff,
                               sn_gpu_sort_stats *stats, sn_diag *diag)
{
    sn_gpu *g = s->g;
    bool payload = pin != NULL;
    sn_status st = check_sizes(g, o, n, payload, diag);
    if (st != SN_OK || n == 0)
        return st;
    run r;
    memset(&r, 0, sizeof r);
    r.s = s;
    r.n = (cl_uint)n;
    r.hp = payload ? 1u : 0u;
    size_t chunk = sn_stage_chunk_keys(s->g);
    bool pinned = pinned_array(g, kin, n) && (dk || pinned_array(g, kout, n)) &&
                  (!payload || (pinned_array(g, pin, n) && (dk || pinned_array(g, pout, n))));
    if (pinned)
        chunk = 0;
    double ts = sn_gpu_now_ms();
    if ((st = run_alloc(&r, n, payload, diag)) != SN_OK ||
        (st = run_scratch(&r, o, diag)) != SN_OK || (st = run_settle(&r, diag)) != SN_OK)
        goto done;
    if (chunk) {
        if ((st = sn_stage_reserve(g, &s->stage, stage_words(s, chunk, n), diag)) != SN_OK)
            goto done;
    }
    if ((st = sn_gpu_finish(g, diag)) != SN_OK)
        goto done;
    stats->setup_ms += sn_gpu_now_ms() - ts;
    double t0 = sn_gpu_now_ms();
    sn_gpu_events_drop(g);
    bool os = o->algo == SN_SORT_RADIX && use_onesweep(s, n);
    if (chunk) {
        chunk_ctx cc = {&r, (cl_uint)o->type, os, radix_bits(o), true};
        if (os && (st = onesweep_zero(&r, radix_bits(o), diag)) != SN_OK)
            goto done;
        bool each = os || o->type != SN_KEY_U32;
        st = sn_stage_upload(g, &s->stage, r.k[0], kin, n, each ? on_chunk : NULL, &cc, diag);
        if (st == SN_OK && payload)
            st = sn_stage_upload(g, &s->stage, r.p[0], pin, n, NULL, NULL, diag);
        r.hist_done = os;
    } else {
        st = sn_gpu_write(g, r.k[0], n * 4, kin, "keys", diag);
        if (st == SN_OK && payload)
            st = sn_gpu_write(g, r.p[0], n * 4, pin, "payload", diag);
    }
    if (st != SN_OK)
        goto done;
    g->record = true;
    if (!chunk && o->type != SN_KEY_U32)
        st = map_keys(&r, KS_TO_ORD, (cl_uint)o->type, diag);
    if (st == SN_OK)
        st = run_algo(&r, o, diag);
    if (st == SN_OK && o->type != SN_KEY_U32 && !ordered)
        st = map_keys(&r, KS_FROM_ORD, (cl_uint)o->type, diag);
    g->record = false;
    if (st != SN_OK)
        goto done;
    clFlush(g->queue);
    /* every chunk on the device: the upload's end */
    if ((st = sn_stage_settle(&s->stage, diag)) != SN_OK)
        goto done;
    double t1 = sn_gpu_now_ms();
    if ((st = sn_gpu_finish(g, diag)) != SN_OK)
        goto done;
    double t2 = sn_gpu_now_ms();
    if (dk) {
        cl_int err = clEnqueueCopyBuffer(g->queue, r.k[r.cur], dk, 0, doff * 4, n * 4, 0, NULL, NULL);
        if (err == CL_SUCCESS && payload)
            err = clEnqueueCopyBuffer(g->queue, r.p[r.cur], dp, 0, doff * 4, n * 4, 0, NULL, NULL);
        st = err == CL_SUCCESS ? sn_gpu_finish(g, diag)
                               : sn_gpu_cl_fail(diag, "clEnqueueCopyBuffer(a run)", err);
    } else if (chunk) {
        st = sn_stage_download(g, &s->stage, r.k[r.cur], kout, n, diag);
        if (st == SN_OK && payload)
            st = sn_stage_download(g, &s->stage, r.p[r.cur], pout, n, diag);
    } else {
        st = sn_gpu_read(g, r.k[r.cur], 0, n * 4, kout, !payload, "keys", diag);
        if (st == SN_OK && payload)
            st = sn_gpu_read(g, r.p[r.cur], 0, n * 4, pout, true, "payload", diag);
    }
    if (st != SN_OK)
        goto done;
    double t3 = sn_gpu_now_ms();
    stats->upload_ms += t1 - t0;
    stats->sort_ms += t2 - t1;
    stats->download_ms += t3 - t2;
    stats->host_ms += t3 - t0;
    double kms = 0;
    sn_gpu_events_ms(g, &kms); /* 0 when the events cannot say */
    stats->kernel_ms += kms;
    stats->rounds += r.rounds;
    stats->launches += r.launches;
    stats->runs++;
    stats->staged += chunk != 0;
    stats->pinned += pinned;
done:
    g->record = false;
    if (st != SN_OK) {
        clFinish(g->queue);
        sn_stage_settle(&s->stage, NULL);
    }
    sn_gpu_events_drop(g);
    run_free(&r);
    return st;
}

/* sort_block_to, into the host's kout (pout) */
static sn_status sort_block(sn_gpu_sorter *s, const sn_gpu_sort_opts *o, const uint32_t *kin,
                            const uint32_t *pin, uint32_t *kout, uint32_t *pout, size_t n,
                            bool ordered, sn_gpu_sort_stats *stats, sn_diag *diag)
{
    return sort_block_to(s, o, kin, pin, kout, pout, n, ordered, NULL, NULL, 0, stats, diag);
}

size_t sn_gpu_sort_run_keys(const sn_gpu_sorter *s, bool payload)
{
    const size_t most = (size_t)1 << 31;
    size_t set = s->g->tune.sort_run; /* SN_GPU_SORT_RUN (tests) */
    if (set)
        return set < most ? set : most;
    /* the keys' and payload's two buffers each, a tenth of the device
     * left for the scratch (radix counts, merge partitions) */
    uint64_t per = payload ? 16 : 8, fit = s->g->info.global_mem / 10 * 9 / per;
    uint64_t alloc = s->g->info.max_alloc / 4;
    fit = fit < alloc ? fit : alloc;
    fit = fit < most ? fit : most;
    return fit ? (size_t)fit : 1;
}

/* Whether the runs of n keys (rlen each) and their merge fit on the device
 * at once: the block and its merge target (each under the largest buffer),
 * and one run's sort beside them; not with SN_GPU_STAGE_MERGE=0. */
static bool runs_fit_device(const sn_gpu_sorter *s, size_t n, size_t rlen, bool hp)
{
    const sn_gpu *g = s->g;
    uint64_t words = hp ? 2 : 1, block = (uint64_t)n * 4;
    uint64_t need = words * (2 * block + 2 * (uint64_t)rlen * 4);
    return !g->tune.stage_merge_host && block <= g->info.max_alloc &&
           need <= g->info.global_mem / 10 * 9;
}

sn_status sn_gpu_sorter_reserve(sn_gpu_sorter *s, size_t n, sn_diag *diag)
{
    size_t chunk = sn_stage_chunk_keys(s->g), most = sn_gpu_sort_run_keys(s, false);
    if (n > most && runs_fit_device(s, n, most, false)) {
        sn_status st = sn_stage_merge_prepare(s->g, &s->stage, diag);
        if (st != SN_OK)
            return st;
    }
    n = n < most ? n : most;
    return chunk && n ? sn_stage_reserve(s->g, &s->stage, stage_words(s, chunk, n), diag) : SN_OK;
}

void sn_gpu_sorter_set_threads(sn_gpu_sorter *s, unsigned threads)
{
    if (s)
        s->stage.threads = threads;
}

void sn_gpu_sorter_set_scratch(sn_gpu_sorter *s, uint32_t *keys, uint32_t *pay, size_t cap)
{
    if (!s)
        return;
    s->scr_k = keys;
    s->scr_p = pay;
    s->scr_cap = keys ? cap : 0;
}

typedef struct from_job {
    uint32_t *k;
    size_t n, parts;
    sn_key_type t;
} from_job;

static void from_part(void *ctx, size_t part)
{
    const from_job *j = ctx;
    for (size_t i = j->n * part / j->parts; i < j->n * (part + 1) / j->parts; i++)
        j->k[i] = sn_key_from_ordered(j->t, j->k[i]);
}

/* keys[0..n) (payload) sorted in runs of rlen that stay on the device,
 * each copied into one buffer of the block, merged there
 * (sn_stage_merge_device), and the block downloaded once: the keys cross
 * the bus once each way and the host's cores only copy. */
static sn_status sort_runs_device(sn_gpu_sorter *s, const sn_gpu_sort_opts *o, uint32_t *keys,
                                  uint32_t *payload, size_t n, size_t rlen,
                                  sn_gpu_sort_stats *stats, sn_diag *diag)
{
    sn_gpu *g = s->g;
    bool hp = payload != NULL;
    cl_mem k[2] = {NULL, NULL}, p[2] = {NULL, NULL};
    double ts = sn_gpu_now_ms();
    sn_status st = sn_stage_merge_prepare(g, &s->stage, diag);
    for (int i = 0; i < 2 && st == SN_OK; i++) {
        cl_int err;
        k[i] = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
        if (err == CL_SUCCESS && hp)
            p[i] = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE, n * 4, NULL, &err);
        if (err != CL_SUCCESS)
            st = sn_gpu_cl_fail(diag, "clCreateBuffer(the runs' block)", err);
    }
    stats->setup_ms += sn_gpu_now_ms() - ts;
    for (size_t lo = 0; lo < n && st == SN_OK; lo += rlen) {
        size_t len = n - lo < rlen ? n - lo : rlen;
        st = sort_block_to(s, o, keys + lo, hp ? payload + lo : NULL, NULL, NULL, len, true, k[0],
                           p[0], lo, stats, diag);
    }
    double t0 = sn_gpu_now_ms();
    unsigned cur = 0;
    if (st == SN_OK)
        st = sn_stage_merge_device(g, &s->stage, k, hp ? p : NULL, n, rlen, &cur, diag);
    double t1 = sn_gpu_now_ms();
    size_t chunk = sn_stage_chunk_keys(g);
    bool pinned = pinned_array(g, keys, n) && (!hp || pinned_array(g, payload, n));
    if (st == SN_OK && chunk && !pinned) {
        st = sn_stage_reserve(g, &s->stage, stage_words(s, chunk, n), diag);
        if (st == SN_OK)
            st = sn_stage_download(g, &s->stage, k[cur], keys, n, diag);
        if (st == SN_OK && hp)
            st = sn_stage_download(g, &s->stage, p[cur], payload, n, diag);
    } else if (st == SN_OK) {
        st = sn_gpu_read(g, k[cur], 0, n * 4, keys, !hp, "keys", diag);
        if (st == SN_OK && hp)
            st = sn_gpu_read(g, p[cur], 0, n * 4, payload, true, "payload", diag);
    }
    if (st == SN_OK && o->type != SN_KEY_U32 && !s->ordered_out) {
        unsigned nt = s->stage.threads ? s->stage.threads : sn_parallel_cpus();
        from_job j = {keys, n, (size_t)nt * 4, o->type};
        sn_parallel_for(j.parts, nt, from_part, &j);
    }
    double t2 = sn_gpu_now_ms();
    stats->merge_ms = t1 - t0;
    stats->download_ms += t2 - t1;
    stats->host_ms += t2 - t0;
    stats->merged_on_device = st == SN_OK;
    if (st != SN_OK) {
        clFinish(g->queue);
        sn_stage_settle(&s->stage, NULL);
    }
    for (int i = 0; i < 2; i++) {
        if (k[i])
            clReleaseMemObject(k[i]);
        if (p[i])
            clReleaseMemObject(p[i]);
    }
    return st;
}

sn_status sn_gpu_sort(sn_gpu_sorter *s, const sn_gpu_sort_opts *o, uint32_t *keys,
                      uint32_t *payload, size_t n, sn_gpu_sort_stats *stats, sn_diag *diag)
{
    sn_gpu_sort_stats dummy;
    if (!stats)
        stats = &dummy;
    memset(stats, 0, sizeof *stats);
    size_t rlen = sn_gpu_sort_run_keys(s, payload != NULL);
    if (n <= rlen)
        return sort_block(s, o, keys, payload, keys, payload, n, s->ordered_out, stats, diag);
    if (runs_fit_device(s, n, rlen, payload != NULL))
        return sort_runs_device(s, o, keys, payload, n, rlen, stats, diag);
    /* runs: each sorted on the device into the array the merge passes
     * start from, chosen so that the last pass ends in keys */
    bool hp = payload != NULL, own = s->scr_cap < n || (hp && !s->scr_p);
    uint32_t *tk = own ? sn_malloc(n * 4) : s->scr_k;
    uint32_t *tp = hp ? (own ? sn_malloc(n * 4) : s->scr_p) : NULL;
    sn_status st = SN_OK;
    if (!tk || (hp && !tp)) {
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0,
                         "out of memory for the merge of %zu keys sorted in runs of %zu", n, rlen);
        goto done;
    }
    bool odd = sn_stage_merge_passes(n, rlen) % 2 == 1;
    uint32_t *dk = odd ? tk : keys, *dp = odd ? tp : payload;
    for (size_t lo = 0; lo < n && st == SN_OK; lo += rlen) {
        size_t len = n - lo < rlen ? n - lo : rlen;
        st = sort_block(s, o, keys + lo, hp ? payload + lo : NULL, dk + lo, hp ? dp + lo : NULL,
                        len, true, stats, diag);
    }
    if (st != SN_OK)
        goto done;
    double t0 = sn_gpu_now_ms();
    sn_stage_merge_runs(dk, dp, odd ? keys : tk, odd ? payload : tp, n, rlen, s->stage.threads);
    if (o->type != SN_KEY_U32 && !s->ordered_out) {
        unsigned nt = s->stage.threads ? s->stage.threads : sn_parallel_cpus();
        from_job j = {keys, n, (size_t)nt * 4, o->type};
        sn_parallel_for(j.parts, nt, from_part, &j);
    }
    stats->merge_ms = sn_gpu_now_ms() - t0;
    stats->host_ms += stats->merge_ms;
done:
    if (own) {
        sn_free(tk);
        sn_free(tp);
    }
    return st;
}

/* ---- the reference: a stable LSD radix sort on the host, four passes of
 * 8 bits on every core. The array is cut into a fixed number of chunks (so
 * the work does not depend on the thread count); per pass each chunk counts
 * its digits, one prefix over (digit, chunk) gives every chunk its first
 * place for each digit, and each chunk scatters its keys in order: stable.
 * A pass whose digit is the same for every key moves nothing and is skipped
 * (permutations of 1..n leave the high bytes zero). */

#define REF_DIGITS 256
#define REF_CHUNK_MIN ((size_t)1 << 12)
#define REF_CHUNKS_MAX 256

typedef struct ref_job {
    sn_key_type t;
    const uint32_t *in; /* the caller's keys (the mapping task reads them) */
    uint32_t *sk, *dk, *sp, *dp;
    size_t n, chunk, chunks;
    unsigned shift;
    size_t (*count)[REF_DIGITS]; /* [chunk][digit]: counts, then first places */
    bool back;                   /* ref_convert: from the ordered form */
} ref_job;

static void ref_range(const ref_job *j, size_t c, size_t *lo, size_t *hi)
{
    *lo = c * j->chunk;
    *hi = c + 1 == j->chunks ? j->n : *lo + j->chunk;
}

/* Keys into the ordered form (or back, j->back) in place, chunk c. */
static void ref_convert(void *ctx, size_t c)
{
    ref_job *j = ctx;
    size_t lo, hi;
    ref_range(j, c, &lo, &hi);
    for (size_t i = lo; i < hi; i++)
        j->sk[i] =
            j->back ? sn_key_from_ordered(j->t, j->sk[i]) : sn_key_to_ordered(j->t, j->in[i]);
}

static void ref_count(void *ctx, size_t c)
{
    ref_job *j = ctx;
    size_t lo, hi, *h = j->count[c];
    ref_range(j, c, &lo, &hi);
    memset(h, 0, REF_DIGITS * sizeof *h);
    for (size_t i = lo; i < hi; i++)
        h[(j->sk[i] >> j->shift) & 0xFFu]++;
}

static void ref_scatter(void *ctx, size_t c)
{
    ref_job *j = ctx;
    size_t lo, hi, *at = j->count[c];
    ref_range(j, c, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        size_t to = at[(j->sk[i] >> j->shift) & 0xFFu]++;
        j->dk[to] = j->sk[i];
        if (j->dp)
            j->dp[to] = j->sp[i];
    }
}

/* Counts into first places: digit-major over the chunks. False when one
 * digit holds every key (the pass would move nothing). */
static bool ref_places(ref_job *j)
{
    size_t total = 0;
    for (size_t d = 0; d < REF_DIGITS; d++) {
        size_t first = total;
        for (size_t c = 0; c < j->chunks; c++) {
            size_t k = j->count[c][d];
            j->count[c][d] = total;
            total += k;
        }
        if (total - first == j->n)
            return false;
    }
    return true;
}

static sn_status reference(sn_key_type t, const uint32_t *keys, const uint32_t *pay, size_t n,
                           uint32_t *out_keys, uint32_t *out_pay, bool ordered, sn_diag *diag)
{
    bool hp = pay && out_pay;
    ref_job j = {t, keys, out_keys, NULL, hp ? out_pay : NULL, NULL, n, 0, 0, 0, NULL, false};
    j.chunks = n / REF_CHUNK_MIN;
    j.chunks = j.chunks < 1 ? 1 : j.chunks > REF_CHUNKS_MAX ? REF_CHUNKS_MAX : j.chunks;
    j.chunk = n / j.chunks;
    uint32_t *tk = sn_malloc(n * 4 + 4), *tp = hp ? sn_malloc(n * 4 + 4) : NULL;
    j.count = sn_calloc(j.chunks, sizeof *j.count);
    if (!tk || (hp && !tp) || !j.count) {
        sn_free(tk);
        sn_free(tp);
        sn_free(j.count);
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory for the reference (%zu keys)", n);
    }
    sn_parallel_for(j.chunks, 0, ref_convert, &j);
    if (hp && out_pay != pay)
        sn_parallel_copy(out_pay, pay, n, 0);
    j.dk = tk;
    j.dp = tp;
    for (unsigned pass = 0; pass < 4; pass++) {
        j.shift = 8 * pass;
        sn_parallel_for(j.chunks, 0, ref_count, &j);
        if (!ref_places(&j))
            continue;
        sn_parallel_for(j.chunks, 0, ref_scatter, &j);
        uint32_t *k = j.sk, *p = j.sp; /* the output is the next pass's input */
        j.sk = j.dk;
        j.sp = j.dp;
        j.dk = k;
        j.dp = p;
    }
    if (j.sk != out_keys) { /* an odd number of passes moved the keys */
        sn_parallel_copy(out_keys, j.sk, n, 0);
        if (hp)
            sn_parallel_copy(out_pay, j.sp, n, 0);
    }
    j.sk = out_keys;
    j.back = true;
    if (!ordered)
        sn_parallel_for(j.chunks, 0, ref_convert, &j);
    sn_free(tk);
    sn_free(tp);
    sn_free(j.count);
    return SN_OK;
}

sn_status sn_sort_reference(sn_key_type t, const uint32_t *keys, const uint32_t *pay, size_t n,
                            uint32_t *out_keys, uint32_t *out_pay, sn_diag *diag)
{
    return reference(t, keys, pay, n, out_keys, out_pay, false, diag);
}

sn_status sn_sort_reference_ordered(sn_key_type t, const uint32_t *keys, const uint32_t *pay,
                                    size_t n, uint32_t *out_keys, uint32_t *out_pay, sn_diag *diag)
{
    return reference(t, keys, pay, n, out_keys, out_pay, true, diag);
}

sn_sort_mismatch sn_sort_compare(const uint32_t *exp_keys, const uint32_t *exp_pay,
                                 const uint32_t *keys, const uint32_t *pay, size_t n)
{
    sn_sort_mismatch m = {true, 0, false, 0, 0};
    for (size_t i = 0; i < n; i++)
        if (exp_keys[i] != keys[i])
            return (sn_sort_mismatch){false, i, false, exp_keys[i], keys[i]};
    if (exp_pay && pay)
        for (size_t i = 0; i < n; i++)
            if (exp_pay[i] != pay[i])
                return (sn_sort_mismatch){false, i, true, exp_pay[i], pay[i]};
    return m;
}
