/* input.h - the inputs of the command line as arrays of raw 32-bit keys:
 * explicit lists ("3,1,2" or "3 1 2"), random permutations, reversed order,
 * 0-1 strings and keys read from a user's file (text or raw binary). Used
 * by the CLI, the window and the GPU verifier alike. */
#ifndef SN_INPUT_H
#define SN_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/status.h"

typedef enum sn_input_kind {
    SN_INPUT_RANDOM = 0, /* random permutation of 1..n (as type t), from seed */
    SN_INPUT_LIST,       /* "3,1,2": exactly n values of type t */
    SN_INPUT_REVERSE,    /* n, n-1, ..., 1 */
    SN_INPUT_SORTED,     /* 1, 2, ..., n */
    SN_INPUT_BITS,       /* "0110": exactly n characters 0/1 */
    SN_INPUT_KEYS        /* keys the caller holds (a key file, sn_keys_parse): text
                          * names the file; sn_input_make cannot make them */
} sn_input_kind;

typedef struct sn_input_spec {
    sn_input_kind kind;
    uint64_t seed;    /* RANDOM */
    const char *text; /* LIST, BITS: borrowed; KEYS: the file's name (for people) */
} sn_input_spec;

/* Fill keys[0..n) with raw bits of type t. LIST and BITS check the count
 * and every value (diag: "column 7: 'x' is not a number", "expected 16
 * values, got 3", "column 8: trailing comma after 2"); values outside the
 * type's range are SN_EPARSE. A LIST's values are separated by commas
 * and/or whitespace ("5 1 4 2", "5, 1,4 2"); at most one comma between two
 * values. KEYS is SN_EINVAL (the caller has the keys). */
sn_status sn_input_make(const sn_input_spec *spec, sn_key_type t, uint32_t n, uint32_t *keys,
                        sn_diag *diag);

/* SN_INPUT_RANDOM's permutation of the values 1..n (as keys of type t)
 * from seed, on `threads` threads (0: the online CPUs). Up to
 * SN_INPUT_SERIAL_MAX keys: Fisher-Yates on one thread, the permutation
 * small inputs had from the start (tests, docs and lessons show them).
 * Above: Sanders' scatter shuffle (input.c), a uniform random permutation
 * too, made in parallel, the same for (seed, n) on every machine and for
 * any number of threads. SN_ENOMEM when its count table cannot be had. */
#define SN_INPUT_SERIAL_MAX ((uint32_t)1 << 22)
sn_status sn_input_random(uint32_t *keys, uint32_t n, sn_key_type t, uint64_t seed,
                          unsigned threads);

/* The parallel regime with its geometry given: 2^bucket_bits buckets
 * (at most 2^24), chunks of 2^chunk_bits values (4 to 32) for the streams.
 * sn_input_random picks these from n; tests pick small ones. SN_EINVAL for
 * a geometry out of range. */
sn_status sn_input_random_scatter(uint32_t *keys, uint32_t n, sn_key_type t, uint64_t seed,
                                  unsigned threads, unsigned bucket_bits, unsigned chunk_bits);

/* The number of values of a LIST text (the LIST rule) into *count;
 * SN_EPARSE for a malformed list (diag as sn_input_make's). */
sn_status sn_input_list_count(const char *text, size_t *count, sn_diag *diag);

/* Keys from a file's bytes buf[0..len) (need not be NUL-terminated), as
 * raw keys of type t into *keys (sn_malloc'd, the caller frees; never NULL
 * on success) and their number into *count (0 for a file with no keys).
 * Text: values separated by commas and/or whitespace (the LIST rule),
 * '#' starts a comment to the end of the line; errors are SN_EPARSE with
 * diag "NAME:LINE:COLUMN: 'x' is not a number" (line and column in diag's
 * fields too). binary: raw little-endian 4-byte keys (any bits are a key
 * of every type); a length not a multiple of 4 is SN_EPARSE naming the
 * byte offset of the leftover bytes. name (borrowed, may be NULL: "keys")
 * only labels the messages. */
sn_status sn_keys_parse(const char *name, const char *buf, size_t len, sn_key_type t, bool binary,
                        uint32_t **keys, size_t *count, sn_diag *diag);

/* A short description of an input for people: "random (seed 42)",
 * "given", "reversed", "sorted", "0-1 (0110)" (0-1 strings longer than 24
 * characters end in "..."), "from FILE". Writes at most cap bytes into
 * buf, returns buf. */
const char *sn_input_describe(const sn_input_spec *spec, char *buf, size_t cap);

/* Deterministic 64-bit generator (splitmix64) for reproducible inputs. */
uint64_t sn_rand_next(uint64_t *state);

/* Format one raw key as text ("-3", "4294967295", "1.5", "-0", "nan"). */
int sn_key_format(sn_key_type t, uint32_t bits, char *buf, size_t cap);

/* Parse one key of type t from s[0..len); SN_EPARSE if malformed or out of
 * range. Floats accept "nan", "-nan", "inf", "-inf". */
sn_status sn_key_parse(sn_key_type t, const char *s, size_t len, uint32_t *out);

#endif
