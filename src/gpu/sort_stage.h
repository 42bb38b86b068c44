/* sort_stage.h - the GPU sorts' host staging (sort_stage.c): keys that
 * live in ordinary (pageable) host memory travel to and from the device
 * through a few pinned buffers, in chunks, the host's cores copying one
 * chunk while the copy engine moves the one before; and the host merge of
 * sorted runs for blocks larger than one sort on the device. Internal to
 * src/gpu (sorts.c); never prints. */
#ifndef SN_GPU_SORT_STAGE_H
#define SN_GPU_SORT_STAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/gpu_internal.h"

#define SN_STAGE_SLOTS_MAX 8
#define SN_STAGE_SLOTS_DEFAULT 3

/* A sorter's staging: a transfer queue beside g's and a few pinned buffers,
 * the slots (CL_MEM_ALLOC_HOST_PTR, mapped once and touched once), kept
 * from one sort to the next and made again only when a sort needs larger
 * chunks or the tuning other slots. */
typedef struct sn_stage {
    cl_command_queue xq;               /* the copies; g->queue runs the kernels */
    cl_mem slot[SN_STAGE_SLOTS_MAX];   /* pinned, mapped for the whole life */
    uint32_t *ptr[SN_STAGE_SLOTS_MAX]; /* their host addresses */
    cl_event ev[SN_STAGE_SLOTS_MAX];   /* the last copy that used each, or NULL */
    unsigned slots;                    /* how many were made */
    size_t words;                      /* each slot's size in 4-byte words */
    cl_program mprog; /* kernels/merge_runs.cl, built at the first merge on the device */
    cl_kernel merge;  /* its mr_merge */
    unsigned threads;               /* copy threads (0: the online CPUs); g's tuning's
                                     * SN_GPU_STAGE_THREADS, when set, comes first */
} sn_stage;

/* Keys a chunk on g: its tuning's (SN_GPU_STAGE_CHUNK=K: tests make it
 * tiny, so a few thousand keys cross several chunks and a short last one)
 * (dist sort's ranks that share a host set 2^22: sort_stage.c says why)
 * or 2^24 (64 MiB); 0
 * when staging is off (SN_GPU_STAGE_CHUNK=0: the whole arrays written and
 * read directly, the path before staging). */
size_t sn_stage_chunk_keys(const sn_gpu *g);
/* Slots on g: its tuning's (SN_GPU_STAGE_SLOTS) or SN_STAGE_SLOTS_DEFAULT. */
unsigned sn_stage_slots(const sn_gpu *g);


/* Make sure st has its queue and sn_stage_slots(g) slots of at least
 * `words` words each on g (a no-op when it has). On failure st holds its
 * queue and no slots. */
sn_status sn_stage_reserve(sn_gpu *g, sn_stage *st, size_t words, sn_diag *diag);
/* Wait for every copy still in flight and drop their events; the first
 * failing wait's error into diag (NULL: on an error path, nothing said). */
sn_status sn_stage_settle(sn_stage *st, sn_diag *diag);
/* Release everything (st zeroed); the queue's copies are waited for. */
void sn_stage_free(sn_stage *st);

/* Called after chunk [off, off + len) of an upload was enqueued; `arrived`
 * completes when its words are on the device. It may enqueue kernels on
 * g->queue that wait for it (the first pass on the chunks already there). */
typedef sn_status (*sn_stage_chunk_fn)(void *ctx, size_t off, size_t len, cl_event arrived,
                                       sn_diag *diag);

/* src[0..n) into dst (words from 0) in chunks of st->words through the
 * slots; fn (may be NULL) after each chunk. On return every copy is
 * enqueued and g->queue waits for the last one (a barrier) before the
 * commands that follow. */
sn_status sn_stage_upload(sn_gpu *g, sn_stage *st, cl_mem dst, const uint32_t *src, size_t n,
                          sn_stage_chunk_fn fn, void *ctx, sn_diag *diag);
/* src's words [0, n) into dst[0..n) once every command now on g->queue has
 * ended, in chunks through the slots; returns when dst holds them all. */
sn_status sn_stage_download(sn_gpu *g, sn_stage *st, cl_mem src, uint32_t *dst, size_t n,
                            sn_diag *diag);

/* ---- runs: blocks larger than one sort on the device */

/* The stable merge passes over `runs` sorted runs of `run` keys each
 * (the last may be short) of k[0..n) with payload p (NULL: none), keys
 * compared as unsigned (the ordered form): pairs of neighbouring runs are
 * merged (the earlier first on ties) from one array to the other, cut into
 * pieces by merge path so that `threads` threads share each merge. The
 * result ends in (k, p) after an even number of passes and in (tk, tp)
 * after an odd one: sn_stage_merge_passes says which beforehand. */
unsigned sn_stage_merge_passes(size_t n, size_t run);
void sn_stage_merge_runs(uint32_t *k, uint32_t *p, uint32_t *tk, uint32_t *tp, size_t n,
                         size_t run, unsigned threads);

/* Build kernels/merge_runs.cl for st now (a no-op once built): before a
 * timed sort whose runs the device merges. */
sn_status sn_stage_merge_prepare(sn_gpu *g, sn_stage *st, sn_diag *diag);
/* The same passes on the device: k[*cur] (p[*cur], when p) holds the runs
 * of `run` keys of n; each pass merges pairs of them into the other of
 * k[] (p[]) with kernels/merge_runs.cl (64-bit indices, merge path), and
 * *cur ends naming the buffer that holds the merged block. The kernels are
 * enqueued on g->queue after what is there and waited for. */
sn_status sn_stage_merge_device(sn_gpu *g, sn_stage *st, cl_mem k[2], cl_mem p[2], size_t n,
                                size_t run, unsigned *cur, sn_diag *diag);

#endif
