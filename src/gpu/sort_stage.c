/* sort_stage.c - host staging of the GPU sorts (sort_stage.h) and the
 * host merge of sorted runs.
 *
 * Why staging: a device copies from pinned (page-locked) host memory by
 * DMA at the bus's rate; from ordinary memory the driver copies through
 * a pinned buffer of its own first, about a third of that rate on an
 * H200 (19 against 55 GB/s). The keys of `gpu sort` and of a rank of
 * `dist sort` live in ordinary memory, and one core copies only about 9
 * GB/s, so the copy into the pinned slots is shared by a team of threads,
 * while the copy engine moves the chunk before: the upload runs at the
 * slower of the two, not at their sum.
 *
 * Chunk size: a sorter alone on its host (`gpu sort`) copies in chunks of
 * 2^24 keys; ranks of `dist sort` that share a host ask for 2^22 (its
 * SN_DIST_SHARED_CHUNK): their slots of 16 MiB (three a sorter) then stay
 * in the host's last-level cache between the cores' copy and the DMA, so
 * the caller's array is nearly all that crosses the host's memory, which
 * two ranks copying at once saturate. Measured on the two-GPU H200 host
 * (docs/distributed.md): two ranks at 2^30 keys, 1.35-1.98x the pinned
 * floor at 2^22 against 2.16-2.52x at 2^24 on one host, 1.84-2.98x
 * against 2.93-3.19x on a noisier one; one sorter alone gained nothing
 * (1.41x either way) or lost (3.34x against 2.05x): a chunk's team of 32
 * threads meets four times as often, and a member held up holds the chunk
 * up. Smaller chunks (2^21, 2^20) lost on the noisier host what they won
 * on the quiet one. The team meets with no pthread barrier (its kernel
 * wake-ups cost tens of microseconds a chunk): atomics, below.
 *
 * Invariant: a slot is written by the host only after the last copy that
 * used it completed (st->ev[slot] waited for), and a chunk's words are in
 * dst only once its event completed; g->queue waits for the events
 * (barriers) before any kernel reads what they copied. */
#include "gpu/sort_stage.h"

#include <sched.h> // for: sched_yield (a member that waits long lets its core go)
#include <stdatomic.h>
#include <string.h>
#include <time.h> // for: nanosleep (a member that waits longer)
#if defined(__SSE2__)
#include <emmintrin.h> // for: _mm_pause (x86-64's baseline)
#endif

#include "core/parallel.h" // for: the team that copies the chunks
#include "gpu/kernels.h"   // for: sn_kernel_source_find (kernels/merge_runs.cl)

size_t sn_stage_chunk_keys(const sn_gpu *g)
{
    if (g->tune.stage_off)
        return 0;
    return g->tune.stage_chunk ? g->tune.stage_chunk : (size_t)1 << 24;
}

unsigned sn_stage_slots(const sn_gpu *g)
{
    unsigned s = g->tune.stage_slots ? g->tune.stage_slots : SN_STAGE_SLOTS_DEFAULT;
    return s < 2 ? 2 : s > SN_STAGE_SLOTS_MAX ? SN_STAGE_SLOTS_MAX : s;
}

static cl_int wait_slot(sn_stage *st, unsigned s)
{
    cl_int err = CL_SUCCESS;
    if (st->ev[s]) {
        err = clWaitForEvents(1, &st->ev[s]);
        clReleaseEvent(st->ev[s]);
        st->ev[s] = NULL;
    }
    return err;
}

sn_status sn_stage_settle(sn_stage *st, sn_diag *diag)
{
    cl_int first = CL_SUCCESS;
    const char *call = "clWaitForEvents(staged copy)";
    for (unsigned s = 0; s < SN_STAGE_SLOTS_MAX; s++) {
        cl_int err = wait_slot(st, s);
        first = first == CL_SUCCESS ? err : first;
    }
    if (st->xq) {
        cl_int err = clFinish(st->xq);
        if (first == CL_SUCCESS && err != CL_SUCCESS) {
            first = err;
            call = "clFinish(staging copies)";
        }
    }
    return first == CL_SUCCESS || !diag ? SN_OK : sn_gpu_cl_fail(diag, call, first);
}

/* The slots unmapped and released, with no wait: OpenCL keeps an object
 * until the commands that use it have ended (and a release has no error
 * to report to a caller that is done with it). */
static void release_slots(sn_stage *st)
{
    for (unsigned s = 0; s < SN_STAGE_SLOTS_MAX; s++) {
        if (st->ev[s])
            clReleaseEvent(st->ev[s]);
        st->ev[s] = NULL;
        if (st->slot[s] && st->ptr[s])
            clEnqueueUnmapMemObject(st->xq, st->slot[s], st->ptr[s], 0, NULL, NULL);
        if (st->slot[s])
            clReleaseMemObject(st->slot[s]);
        st->slot[s] = NULL;
        st->ptr[s] = NULL;
    }
    st->words = 0;
    st->slots = 0;
}

void sn_stage_free(sn_stage *st)
{
    if (!st)
        return;
    release_slots(st);
    if (st->merge)
        clReleaseKernel(st->merge);
    if (st->mprog)
        clReleaseProgram(st->mprog);
    st->merge = NULL;
    st->mprog = NULL;
    if (st->xq)
        clReleaseCommandQueue(st->xq); /* flushes; its copies end before it goes */
    st->xq = NULL;
}

sn_status sn_stage_reserve(sn_gpu *g, sn_stage *st, size_t words, sn_diag *diag)
{
    cl_int err;
    if (!st->xq) {
        st->xq = clCreateCommandQueue(g->ctx, g->device, 0, &err);
        if (err != CL_SUCCESS) {
            st->xq = NULL;
            return sn_gpu_cl_fail(diag, "clCreateCommandQueue(staging copies)", err);
        }
    }
    unsigned slots = sn_stage_slots(g);
    if (words <= st->words && slots == st->slots)
        return SN_OK;
    sn_status settled = sn_stage_settle(st, diag);
    if (settled != SN_OK)
        return settled;
    release_slots(st);
    for (unsigned s = 0; s < slots; s++) {
        st->slot[s] = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, words * 4,
                                     NULL, &err);
        if (err != CL_SUCCESS) {
            st->slot[s] = NULL;
            release_slots(st);
            return sn_gpu_cl_fail(diag, "clCreateBuffer(pinned staging)", err);
        }
        st->ptr[s] = clEnqueueMapBuffer(st->xq, st->slot[s], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                        0, words * 4, 0, NULL, NULL, &err);
        if (err != CL_SUCCESS) {
            st->ptr[s] = NULL;
            release_slots(st);
            return sn_gpu_cl_fail(diag, "clEnqueueMapBuffer(pinned staging)", err);
        }
        /* the first touch of every page here, never inside a timed sort */
        memset(st->ptr[s], 0, words * 4);
    }
    st->words = words;
    st->slots = slots;
    return SN_OK;
}

/* ---- the chunked copies, on a team: member 0 talks to OpenCL, every
 * member copies its piece of each chunk between the caller's array and a
 * slot. No barrier a chunk (a pthread barrier wakes every member through
 * the kernel, tens of microseconds, which small chunks cannot afford):
 * member 0 releases chunk c for copying by raising `go` past c once its
 * slot is ready, each member counts its piece into `copied` when done,
 * and member 0 enqueues the chunk's DMA once all the pieces are counted.
 * A failure sets `stop` before `go` is raised: every member leaves at the
 * same chunk, and none touches a slot after member 0 stopped. */

typedef struct stage_job {
    sn_gpu *g;
    sn_stage *st;
    cl_mem dev;
    uint32_t *host;
    size_t n, chunks;
    bool up;
    sn_stage_chunk_fn fn;
    void *ctx;
    cl_event ready; /* download: g->queue's commands ended */
    sn_diag *diag;
    sn_status status;
    unsigned members;
    atomic_size_t go;     /* chunks released for copying (chunk c once go > c) */
    atomic_size_t copied; /* pieces copied, over every chunk so far */
    atomic_int stop;      /* set before go is raised: leave */
} stage_job;

static void chunk_of(const stage_job *j, size_t c, size_t *off, size_t *len)
{
    *off = c * j->st->words;
    *len = j->n - *off < j->st->words ? j->n - *off : j->st->words;
}

static void stage_setup(void *ctx, unsigned members)
{
    ((stage_job *)ctx)->members = members;
}

/* Member 0: chunk c's copy between the device and its slot, enqueued. */
static sn_status enqueue_copy(stage_job *j, size_t c)
{
    size_t off, len;
    chunk_of(j, c, &off, &len);
    unsigned s = (unsigned)(c % j->st->slots);
    cl_event ev = NULL;
    cl_int err;
    if (j->up)
        err = clEnqueueWriteBuffer(j->st->xq, j->dev, CL_FALSE, off * 4, len * 4, j->st->ptr[s], 0,
                                   NULL, &ev);
    else
        err = clEnqueueReadBuffer(j->st->xq, j->dev, CL_FALSE, off * 4, len * 4, j->st->ptr[s], 1,
                                  &j->ready, &ev);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(j->diag, j->up ? "clEnqueueWriteBuffer(staged keys)"
                                             : "clEnqueueReadBuffer(staged keys)",
                              err);
    j->st->ev[s] = ev;
    /* the copy engine starts it now, not at the next wait */
    clFlush(j->st->xq);
    if (j->up && j->fn)
        return j->fn(j->ctx, off, len, ev, j->diag);
    return SN_OK;
}

/* Member 0 before a chunk's host copy: its slot free (upload: the copy
 * that used it before has ended; download: its words have arrived). */
static sn_status slot_ready(stage_job *j, size_t c)
{
    unsigned s = (unsigned)(c % j->st->slots);
    if (j->st->ev[s]) {
        cl_int err = clWaitForEvents(1, &j->st->ev[s]);
        clReleaseEvent(j->st->ev[s]);
        j->st->ev[s] = NULL;
        if (err != CL_SUCCESS)
            return sn_gpu_cl_fail(j->diag, "clWaitForEvents(staged copy)", err);
    }
    return SN_OK;
}

/* A wait on another member: spin a few microseconds (a chunk's pieces end
 * close together), then yield the core, then sleep in steps of 20 us (a
 * member waiting while member 0 waits for a DMA, or a team larger than the
 * free cores, as on a shared test machine, must not spin against the
 * threads it waits for). */
static void pause_a_little(unsigned *spins)
{
    if (++*spins < 1024) {
#if defined(__SSE2__)
        _mm_pause();
#endif
    } else if (*spins < 2048) {
        sched_yield();
    } else {
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
    }
}

static void stage_member(void *ctx, sn_team *team, unsigned m)
{
    (void)team; /* the members meet through go and copied */
    stage_job *j = ctx;
    if (m == 0 && !j->up) /* the first slots' reads go ahead at once */
        for (size_t c = 0; c < j->chunks && c < j->st->slots && j->status == SN_OK; c++)
            j->status = enqueue_copy(j, c);
    for (size_t c = 0; c < j->chunks; c++) {
        if (m == 0) {
            if (j->status == SN_OK)
                j->status = slot_ready(j, c);
            if (j->status != SN_OK)
                atomic_store_explicit(&j->stop, 1, memory_order_relaxed);
            atomic_store_explicit(&j->go, c + 1, memory_order_release);
        } else {
            unsigned spins = 0;
            while (atomic_load_explicit(&j->go, memory_order_acquire) <= c)
                pause_a_little(&spins);
        }
        if (atomic_load_explicit(&j->stop, memory_order_relaxed))
            break;
        size_t off, len;
        chunk_of(j, c, &off, &len);
        /* pieces of whole cache lines (16 words), so no two members share one */
        size_t a = (len * m / j->members) & ~(size_t)15;
        size_t b = m + 1 == j->members ? len : (len * (m + 1) / j->members) & ~(size_t)15;
        uint32_t *slot = j->st->ptr[c % j->st->slots];
        if (b > a) {
            if (j->up)
                memcpy(slot + a, j->host + off + a, (b - a) * 4);
            else
                memcpy(j->host + off + a, slot + a, (b - a) * 4);
        }
        atomic_fetch_add_explicit(&j->copied, 1, memory_order_release);
        if (m == 0) {
            unsigned spins = 0;
            while (atomic_load_explicit(&j->copied, memory_order_acquire) < (c + 1) * j->members)
                pause_a_little(&spins);
            size_t next = j->up ? c : c + j->st->slots;
            if (next < j->chunks)
                j->status = enqueue_copy(j, next);
        }
    }
}

static sn_status stage_run(stage_job *j)
{
    j->chunks = (j->n + j->st->words - 1) / j->st->words;
    j->status = SN_OK;
    atomic_init(&j->go, 0);
    atomic_init(&j->copied, 0);
    atomic_init(&j->stop, 0);
    /* the tuning's thread count first (a bench's sweep), then the
     * sorter's (a rank's share of the cores); a thread a MiB of keys at
     * most: small sorts copy in the caller */
    unsigned nt = j->g->tune.stage_threads ? j->g->tune.stage_threads
                  : j->st->threads         ? j->st->threads
                                           : sn_parallel_cpus();
    size_t most = j->n / ((size_t)1 << 18) + 1;
    nt = (size_t)nt < most ? nt : (unsigned)most;
    sn_parallel_team(nt, stage_setup, stage_member, j);
    return j->status;
}

sn_status sn_stage_upload(sn_gpu *g, sn_stage *st, cl_mem dst, const uint32_t *src, size_t n,
                          sn_stage_chunk_fn fn, void *ctx, sn_diag *diag)
{
    if (n == 0)
        return SN_OK;
    stage_job j = {.g = g, .st = st, .dev = dst, .host = (uint32_t *)src, .n = n, .up = true,
                   .fn = fn, .ctx = ctx, .diag = diag, .members = 1};
    sn_status status = stage_run(&j);
    if (status != SN_OK)
        return status;
    /* the xq is in order: its last copy ending means every one has */
    unsigned last = (unsigned)((j.chunks - 1) % st->slots);
    cl_int err = clEnqueueBarrierWithWaitList(g->queue, 1, &st->ev[last], NULL);
    return err == CL_SUCCESS ? SN_OK
                             : sn_gpu_cl_fail(diag, "clEnqueueBarrierWithWaitList(upload)", err);
}

sn_status sn_stage_download(sn_gpu *g, sn_stage *st, cl_mem src, uint32_t *dst, size_t n,
                            sn_diag *diag)
{
    if (n == 0)
        return SN_OK;
    cl_event ready = NULL;
    cl_int err = clEnqueueMarkerWithWaitList(g->queue, 0, NULL, &ready);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clEnqueueMarkerWithWaitList(download)", err);
    /* a marker is only submitted with the queue's next flush */
    clFlush(g->queue);
    stage_job j = {.g = g, .st = st, .dev = src, .host = dst, .n = n, .up = false,
                   .ready = ready, .diag = diag, .members = 1};
    sn_status status = stage_run(&j);
    if (status != SN_OK)
        sn_stage_settle(st, NULL); /* no copy may land in a slot after we return */
    clReleaseEvent(ready);
    return status;
}

/* ---- the host merge of sorted runs ---- */

typedef struct merge_job {
    const uint32_t *k, *p; /* the runs */
    uint32_t *ok, *op;     /* the merged runs */
    size_t n, run;         /* the runs are [r * run, (r + 1) * run) of n */
    size_t pairs, pieces;  /* pairs of runs this pass, pieces a pair */
} merge_job;

/* how many of the first x outputs of merge(a[0..na), b[0..nb)) come from
 * a (a first on ties) */
static size_t co_rank(const uint32_t *a, size_t na, const uint32_t *b, size_t nb, size_t x)
{
    size_t lo = x > nb ? x - nb : 0, hi = x < na ? x : na;
    while (lo < hi) {
        size_t i = lo + (hi - lo) / 2;
        if (a[i] <= b[x - i - 1])
            lo = i + 1;
        else
            hi = i;
    }
    return lo;
}

static void merge_piece(void *ctx, size_t task)
{
    const merge_job *j = ctx;
    size_t pair = task / j->pieces, piece = task % j->pieces;
    size_t lo = pair * 2 * j->run;
    size_t mid = lo + j->run < j->n ? lo + j->run : j->n;
    size_t hi = mid + j->run < j->n ? mid + j->run : j->n;
    const uint32_t *a = j->k + lo, *b = j->k + mid;
    const uint32_t *ap = j->p ? j->p + lo : NULL, *bp = j->p ? j->p + mid : NULL;
    size_t na = mid - lo, nb = hi - mid, len = na + nb;
    size_t from = len * piece / j->pieces, to = len * (piece + 1) / j->pieces;
    size_t i = co_rank(a, na, b, nb, from), jb = from - i, x = from;
    uint32_t *ok = j->ok + lo, *op = j->op ? j->op + lo : NULL;
    /* branch-free while both runs last (dist_sort.c measured why) */
    for (; x < to && i < na && jb < nb; x++) {
        bool ta = a[i] <= b[jb];
        ok[x] = ta ? a[i] : b[jb];
        if (op)
            op[x] = ta ? ap[i] : bp[jb];
        i += ta;
        jb += !ta;
    }
    for (; x < to && i < na; x++, i++) {
        ok[x] = a[i];
        if (op)
            op[x] = ap[i];
    }
    for (; x < to; x++, jb++) {
        ok[x] = b[jb];
        if (op)
            op[x] = bp[jb];
    }
}

unsigned sn_stage_merge_passes(size_t n, size_t run)
{
    unsigned passes = 0;
    for (size_t w = run; w < n; w *= 2)
        passes++;
    return passes;
}

void sn_stage_merge_runs(uint32_t *k, uint32_t *p, uint32_t *tk, uint32_t *tp, size_t n,
                         size_t run, unsigned threads)
{
    unsigned nt = threads ? threads : sn_parallel_cpus();
    for (size_t w = run; w < n; w *= 2) {
        merge_job j = {k, p, tk, tp, n, w, (n + 2 * w - 1) / (2 * w), 1};
        /* enough pieces that every thread has several, pieces of 64 Ki keys at least */
        size_t per = (size_t)nt * 4 / j.pairs + 1, most = 2 * w / 65536 + 1;
        j.pieces = per < most ? per : most;
        sn_parallel_for(j.pairs * j.pieces, threads, merge_piece, &j);
        uint32_t *t = k;
        k = tk;
        tk = t;
        t = p;
        p = tp;
        tp = t;
    }
}

/* ---- the merge of sorted runs on the device ---- */

/* outputs a work-item of mr_merge merges: its binary search (up to 32
 * probes) is an eighth of its reads */
#define MERGE_PER 256

sn_status sn_stage_merge_prepare(sn_gpu *g, sn_stage *st, sn_diag *diag)
{
    if (st->merge)
        return SN_OK;
    const char *src = sn_kernel_source_find("merge_runs");
    if (!src)
        return sn_diag_set(diag, SN_EDEVICE, 0, 0, "kernels/merge_runs.cl was not embedded");
    sn_status bst = sn_gpu_build_source_opts(g, src, "", false, &st->mprog, diag);
    if (bst != SN_OK)
        return bst;
    cl_int err;
    st->merge = clCreateKernel(st->mprog, "mr_merge", &err);
    if (err != CL_SUCCESS) {
        st->merge = NULL;
        return sn_gpu_cl_fail(diag, "clCreateKernel(mr_merge)", err);
    }
    return SN_OK;
}

sn_status sn_stage_merge_device(sn_gpu *g, sn_stage *st, cl_mem k[2], cl_mem p[2], size_t n,
                                size_t run, unsigned *cur, sn_diag *diag)
{
    sn_status pst = sn_stage_merge_prepare(g, st, diag);
    if (pst != SN_OK)
        return pst;
    cl_uint hp = p != NULL;
    for (size_t w = run; w < n; w *= 2) {
        cl_ulong un = n, uw = w, per = MERGE_PER, pieces = (2 * w + MERGE_PER - 1) / MERGE_PER;
        size_t pairs = (n + 2 * w - 1) / (2 * w);
        cl_mem in_p = p ? p[*cur] : k[*cur], out_p = p ? p[1 - *cur] : k[1 - *cur];
        cl_int err = CL_SUCCESS;
        const struct {
            size_t size;
            const void *v;
        } a[] = {{sizeof(cl_mem), &k[*cur]}, {sizeof(cl_mem), &in_p},
                 {sizeof(cl_mem), &k[1 - *cur]}, {sizeof(cl_mem), &out_p},
                 {sizeof un, &un}, {sizeof uw, &uw}, {sizeof per, &per}, {sizeof pieces, &pieces},
                 {sizeof hp, &hp}};
        for (cl_uint i = 0; i < sizeof a / sizeof a[0] && err == CL_SUCCESS; i++)
            err = clSetKernelArg(st->merge, i, a[i].size, a[i].v);
        if (err != CL_SUCCESS)
            return sn_gpu_cl_fail(diag, "clSetKernelArg(mr_merge)", err);
        sn_status lst = sn_gpu_launch(g, st->merge, pairs * (size_t)pieces, 64, "mr_merge", diag);
        if (lst != SN_OK)
            return lst;
        *cur = 1 - *cur;
    }
    return sn_gpu_finish(g, diag);
}
