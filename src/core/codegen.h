/* codegen.h - any network as source code: a self-contained, branch-free C99
 * function or OpenCL C (a function plus kernels that sort M arrays at once).
 *
 * The generated code sorts exactly as the reference executor (exec.h) does:
 * a comparator (a, b) leaves the minimum on wire a and the maximum on wire
 * b, and swaps only when the key on a is strictly greater, so equal keys
 * never move and a payload follows them deterministically. f32 keys are
 * compared as ordered keys (sn_key_to_ordered: IEEE 754 totalOrder), so
 * -0.0 < +0.0 and NaNs sit at the ends, as everywhere in sortnet.
 *
 * Every comparator becomes one min/max pair (keys only) or one
 * compare-and-select group (with payload) on local variables x0..x(n-1),
 * layer by layer, with no branches and no loops in the network itself.
 *
 * The OpenCL output holds, for a function name F on n wires:
 *   void F(T *v)                    one array in private memory
 *   __kernel void F_rows(keys, [pay,] uint m)
 *                                   M arrays one after another (array a's
 *                                   wire w at keys[a * n + w]); work-groups
 *                                   of exactly F_WG work-items (the
 *                                   macro F_WG, overridable with -D) load and
 *                                   store their arrays through local memory
 *                                   so that every global access is coalesced
 *   __kernel void F_columns(keys, [pay,] uint m)
 *                                   M arrays interleaved (array a's wire w at
 *                                   keys[w * m + a]); any work-group size
 * Both kernels take one work-item per array; launch at least m of them
 * (F_rows: rounded up to a multiple of F_WG). */
#ifndef SN_CODEGEN_H
#define SN_CODEGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/network.h"
#include "core/status.h"

typedef enum sn_codegen_lang { SN_CODEGEN_C = 0, SN_CODEGEN_OPENCL } sn_codegen_lang;

/* "c", "opencl"; parse accepts "cl" too. */
const char *sn_codegen_lang_name(sn_codegen_lang l);
bool sn_codegen_lang_parse(const char *s, sn_codegen_lang *out);

/* What the 0-1 checker said about the network, for the header comment. */
typedef enum sn_codegen_proof {
    SN_PROOF_UNCHECKED = 0, /* not run (too large for a quick proof, or not asked) */
    SN_PROOF_SORTS,         /* proved to sort every input */
    SN_PROOF_FAILS          /* found an input it does not sort */
} sn_codegen_proof;

typedef struct sn_codegen_opts {
    sn_codegen_lang lang;
    sn_key_type type;
    bool payload; /* a uint32_t payload per key moves with it */
    /* Function name; NULL: sort<N>_<stem>[_u32|_f32][_kv], stem from label
     * (or the network's name): "best:16" -> best, "dir/my-net.json" ->
     * my_net. Must be a C identifier (SN_EINVAL otherwise). Borrowed. */
    const char *name;
    const char *label; /* the network as the user named it, for the comment;
                          NULL: the network's name. Borrowed. */
    sn_codegen_proof proof;
    /* One line after the verdict (how it was proved, the failing input, why
     * it was not checked); NULL for none. Borrowed. */
    const char *proof_note;
    const char *generator; /* e.g. "sortnet 1.2.0", named in the comment; may be NULL */
    /* OpenCL rows kernel: work-items per group; 0 chooses (a power of two,
     * 32..256, keeping the local tile within ~20 KiB per buffer). */
    unsigned wg;
} sn_codegen_opts;

/* Zeroes o: C, i32, no payload, derived name, unchecked. */
void sn_codegen_opts_init(sn_codegen_opts *o);

/* The function name the code for net under o defines, into buf[cap].
 * SN_EINVAL when o->name is not an identifier, SN_ELIMIT when cap is too
 * small. */
sn_status sn_codegen_name(const sn_network *net, const sn_codegen_opts *o, char *buf, size_t cap,
                          sn_diag *diag);

/* Work-items per group of the OpenCL rows kernel for net under o. */
unsigned sn_codegen_rows_wg(const sn_network *net, const sn_codegen_opts *o);

/* Generate the source for net into a new NUL-terminated buffer *out
 * (sn_free it), its length in *len (may be NULL). net is borrowed.
 * SN_EINVAL: a network with no wires, or a bad name; SN_ELIMIT: more than
 * SN_CODEGEN_MAX_COMPARATORS comparators; SN_ENOMEM. */
#define SN_CODEGEN_MAX_COMPARATORS ((size_t)1 << 20)
sn_status sn_codegen(const sn_network *net, const sn_codegen_opts *o, char **out, size_t *len,
                     sn_diag *diag);

#endif
