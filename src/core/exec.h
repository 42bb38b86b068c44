/* exec.h - the CPU reference executor and its trace.
 *
 * Keys are 32-bit words interpreted by sn_key_type. A comparator swaps only
 * when the key on its min wire is strictly greater than the key on its max
 * wire, so equal keys never move and the optional payload (e.g. the original
 * index) follows deterministically. float32 keys compare by IEEE 754
 * totalOrder: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN.
 *
 * Every ordering is reduced to unsigned comparison of an "ordered key"
 * (sn_key_to_ordered), which is what both executors really compare. */
#ifndef SN_EXEC_H
#define SN_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/parallel.h" // for: sn_cancel
#include "core/schedule.h"
#include "core/status.h"

typedef enum sn_key_type { SN_KEY_I32 = 0, SN_KEY_U32, SN_KEY_F32 } sn_key_type;

const char *sn_key_type_name(sn_key_type t); /* "i32", "u32", "f32" */
bool sn_key_type_parse(const char *s, sn_key_type *out);

/* Bijection from raw key bits to a uint32 whose unsigned order is the key
 * order, and back. */
static inline uint32_t sn_key_to_ordered(sn_key_type t, uint32_t bits)
{
    switch (t) {
    case SN_KEY_I32: return bits ^ 0x80000000u;
    case SN_KEY_F32: return (bits & 0x80000000u) ? ~bits : (bits ^ 0x80000000u);
    default: return bits;
    }
}
static inline uint32_t sn_key_from_ordered(sn_key_type t, uint32_t ord)
{
    switch (t) {
    case SN_KEY_I32: return ord ^ 0x80000000u;
    case SN_KEY_F32: return (ord & 0x80000000u) ? (ord ^ 0x80000000u) : ~ord;
    default: return ord;
    }
}

/* Run schedule s in place on keys[0..n) (raw bits of type t), moving
 * payload[0..n) along when payload != NULL. n = sn_schedule_wires(s).
 * Never fails for a valid schedule. */
void sn_exec_run(const sn_schedule *s, sn_key_type t, uint32_t *keys, uint32_t *payload);

/* The same on `threads` threads (0: sn_exec_threads_auto(n)). Each layer's
 * comparators are split among the threads; the result is bit for bit the
 * single-threaded one. sn_exec_run and sn_exec_layer (without swap flags)
 * use the automatic count. */
void sn_exec_run_threads(const sn_schedule *s, sn_key_type t, uint32_t *keys, uint32_t *payload,
                         unsigned threads);

/* sn_exec_run_threads with more say. */
typedef struct sn_exec_opts {
    unsigned threads; /* 0: sn_exec_threads_auto(n) */
    /* NULL, or read between passes over the array: once it is set the run
     * stops early (the keys are then in no useful state). */
    const sn_cancel *cancel;
    /* log2 of the cache block that local layers run in; 0: the default
     * (15). Tests shrink it to reach the blocked and swept paths at small
     * n; any value gives the same result. */
    unsigned block_log;
    /* Every global layer in a pass of its own, no sweeps or closure
     * blocks, as before they existed (for benchmarks: the same result). */
    bool no_sweep;
} sn_exec_opts;

/* Returns false when *o->cancel stopped the run, else true. o may be
 * NULL (all defaults). */
bool sn_exec_run_opts(const sn_schedule *s, sn_key_type t, uint32_t *keys, uint32_t *payload,
                      const sn_exec_opts *o);

#define SN_EXEC_THREADS_MAX 64
/* Below this many wires one thread: a layer is then too little work for
 * threads to pay. */
#define SN_EXEC_PARALLEL_MIN ((uint32_t)1 << 20)
/* 1 below SN_EXEC_PARALLEL_MIN wires, else the online CPUs (at most
 * SN_EXEC_THREADS_MAX). */
unsigned sn_exec_threads_auto(uint32_t n);

/* Run a single layer k (used by steppers and per-layer verification). If
 * swapped != NULL it receives one flag per comparator of the layer, in the
 * order of sn_schedule_layer_pairs. Returns the number of swaps. */
size_t sn_exec_layer(const sn_schedule *s, size_t k, sn_key_type t, uint32_t *keys,
                     uint32_t *payload, uint8_t *swapped);

/* ---- digests: order-independent, so a GPU can compute them by reduction */

/* mix(i, key): a 64-bit finalizer (splitmix64) of ((uint64_t)i << 32 | bits). */
static inline uint64_t sn_digest_mix(uint32_t i, uint32_t bits)
{
    uint64_t z = ((uint64_t)i << 32) | bits;
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Sum (mod 2^64) of sn_digest_mix(i, keys[i]) over i in [0, n). */
uint64_t sn_digest(const uint32_t *keys, uint32_t n);

/* ---- trace: the reference executor's record */

typedef enum sn_trace_mode {
    SN_TRACE_AUTO = 0, /* FULL when (layers + 1) * n <= SN_TRACE_FULL_MAX, else DIGEST */
    SN_TRACE_FULL,     /* array after every layer + swap flags */
    SN_TRACE_DIGEST    /* digest after every layer + final array */
} sn_trace_mode;

#define SN_TRACE_FULL_MAX ((size_t)1 << 24) /* words of state kept in FULL mode */

typedef struct sn_trace sn_trace;

/* Run s on a copy of input[0..n) (raw bits of type t), recording a trace.
 * payload_in may be NULL (no payload); with a payload, FULL traces keep
 * the payload after every layer too. */
sn_status sn_trace_record(const sn_schedule *s, sn_key_type t, const uint32_t *input,
                          const uint32_t *payload_in, sn_trace_mode mode, sn_trace **out,
                          sn_diag *diag);
void sn_trace_destroy(sn_trace *tr); /* NULL is a no-op */

sn_trace_mode sn_trace_mode_of(const sn_trace *tr); /* FULL or DIGEST */
uint32_t sn_trace_wires(const sn_trace *tr);
size_t sn_trace_layer_count(const sn_trace *tr);
sn_key_type sn_trace_key_type(const sn_trace *tr);

/* State at step k: k = 0 is the input, k = L is after the last layer.
 * FULL: any k in [0, L]; DIGEST: only k = 0 and k = L (else NULL).
 * Borrowed pointers, valid until the trace is destroyed. */
const uint32_t *sn_trace_state(const sn_trace *tr, size_t step);
const uint32_t *sn_trace_payload(const sn_trace *tr, size_t step); /* NULL if none */

/* Digest of the state at step k, k in [0, L], in both modes. */
uint64_t sn_trace_digest(const sn_trace *tr, size_t step);

/* FULL mode: swap flags of layer k (0-based), one per comparator in the
 * order of sn_schedule_layer_pairs; NULL in DIGEST mode. */
const uint8_t *sn_trace_swaps(const sn_trace *tr, size_t layer, size_t *count);
/* Swaps done by layer k (both modes). */
size_t sn_trace_swap_count(const sn_trace *tr, size_t layer);

#endif
