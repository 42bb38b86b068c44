/* cli.h - what every `sortnet` subcommand shares: error reporting, network
 * loading, the input options, JSON output, and atomic output files.
 * Only src/cli, src/headless and src/window print. */
#ifndef SN_CLI_H
#define SN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <signal.h> // for: struct sigaction (cli_catch_signal)
#include <stdio.h>

#include "core/exec.h"
#include "core/input.h"
#include "core/schedule.h"
#include "core/status.h"

/* Exit codes of the command-line contract (docs/design.md). */
enum {
    CLI_OK = 0,
    CLI_NEGATIVE = 1, /* does not sort / outputs differ */
    CLI_USAGE = 2,    /* bad usage or bad input */
    CLI_NOENV = 3,    /* no OpenCL platform, no display */
    CLI_UNDECIDED = 4, /* a proof this method cannot give (check past its limits) */
    CLI_DEVICE = 5     /* the machine failed: a device error, a kernel of sortnet's own
                        * that did not build, out of memory */
};

/* Print "sortnet: <what>: <why>\n" to stderr; returns code. */
int cli_error(int code, const char *what, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Print "sortnet: " and the formatted line to stderr, every control
 * character in it shown as \xNN (sn_text_escape): what a file's name or
 * content holds never reaches the terminal raw. cli_error prints so. */
void cli_print_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Map a library status to an exit code (EPARSE/EINVAL/ELIMIT/EIO -> 2,
 * ENODEVICE/EUNSUPPORTED -> 3, EDEVICE/EBUILD/ENOMEM -> 5 (CLI_DEVICE),
 * EINTERRUPTED -> 130). A caller that built a user's kernel maps that
 * kernel's SN_EBUILD to 2 itself. */
int cli_status_exit(sn_status st);

/* Load NET (name, file or "-"); on failure prints the diagnostic and
 * returns the exit code (2); 0 on success. */
int cli_load(const char *spec, sn_schedule **out);
/* cli_load, then the schedule as a comparator list (*net, owned by the
 * caller; *s too, NULL when s is NULL): 0, or an exit code after the error
 * was printed. */
int cli_load_network(const char *spec, sn_schedule **s, sn_network **net);

/* The input options shared by run, draw, view, gpu verify and gpu sort:
 *   --input 3,1,2 | --random SEED | --reverse | --sorted | --bits 0110 |
 *   --input-file FILE|- [--binary], --type i32|u32|f32. */
typedef struct cli_input {
    sn_input_spec spec; /* --input-file: SN_INPUT_KEYS, text = the file's name */
    bool given;         /* any input option seen */
    sn_key_type type;
    bool binary;          /* --binary: key files (and --output) as raw little-endian keys */
    const char *file;     /* --input-file's argument, NULL without */
    const uint32_t *keys; /* its keys once read (cli_input_load), kept until exit */
    size_t count;
} cli_input;

void cli_input_init(cli_input *in); /* default: random with a time seed */
/* Handle one option by its long name ("input", "random", ...) and its
 * argument; returns 1 if taken, 0 if not an input option, or an exit
 * code > 1 (after printing) when the argument is bad. */
int cli_input_option(cli_input *in, const char *name, const char *arg);
/* After the options: --binary needs --input-file or (has_output: the
 * command was given --output) an output of keys, and the key file is read (with the
 * final --type) into in->keys/count. 0, or an exit code after printing
 * (a missing file, a bad key with FILE:LINE:COLUMN, no keys at all). */
int cli_input_finish(cli_input *in, bool has_output);
/* cli_load for a command with an input: a generator named without its
 * size ("bitonic", "oddeven-merge-pad") takes n = the number of keys of
 * --input-file, --input or --bits; with --input-file a network of fixed n
 * must have as many wires as the file has keys (else an error naming both
 * counts). */
int cli_input_load_net(cli_input *in, const char *spec, sn_schedule **out);
/* spec with n taken from the input (into buf) when the input sizes it,
 * else spec itself; *sized tells which. */
const char *cli_input_sized_spec(const cli_input *in, const char *spec, char *buf, size_t cap,
                                 bool *sized);
/* cli_input_make's part for --input-file: the file's keys copied when
 * there are n of them (cli_keys.c). */
int cli_input_file_keys(const cli_input *in, uint32_t n, uint32_t **keys);
/* Make the keys for n wires (sn_malloc'd into *keys); prints and returns 2
 * on bad input (with --input-file: a key count other than n). */
int cli_input_make(const cli_input *in, uint32_t n, uint32_t **keys);
/* The help lines describing the input options (for --help texts). */
extern const char cli_input_help[];

/* Read a key file (text, or raw little-endian with binary; "-" is stdin)
 * as keys of type t into *keys (sn_malloc'd: the caller frees) and
 * *count. 0, or an exit code after printing. A file with no
 * keys is an error. */
int cli_keys_read(const char *path, bool binary, sn_key_type t, uint32_t **keys, size_t *count);
/* Write keys[0..n) to path atomically ("-": stdout): text one per line, or
 * raw little-endian 4-byte keys with binary. 0, or an exit code (printed). */
int cli_keys_write(const char *path, bool binary, sn_key_type t, const uint32_t *keys, size_t n);

/* getopt_long entries for the input options; their `val`s are
 * CLI_OPT_INPUT, so a command's switch sends them to cli_input_option with
 * the option's name. */
#define CLI_OPT_INPUT 0x1000
#define CLI_INPUT_LONGOPTS                                                                         \
    {"input", 1, NULL, CLI_OPT_INPUT}, {"random", 1, NULL, CLI_OPT_INPUT},                         \
        {"reverse", 0, NULL, CLI_OPT_INPUT}, {"sorted", 0, NULL, CLI_OPT_INPUT},                   \
        {"bits", 1, NULL, CLI_OPT_INPUT}, {"input-file", 1, NULL, CLI_OPT_INPUT},                  \
        {"binary", 0, NULL, CLI_OPT_INPUT},                                                        \
    {                                                                                              \
        "type", 1, NULL, CLI_OPT_INPUT                                                             \
    }

/* The name an output path goes by in messages: "stdout" for "-". */
const char *cli_out_name(const char *path);

/* Handle sig with handler until the caller puts *old back
 * (sigaction(sig, old, NULL)); flags: sa_flags (e.g. SA_RESETHAND). The
 * handlers store to a lock-free sn_cancel flag the core looks at. */
void cli_catch_signal(int sig, void (*handler)(int), int flags, struct sigaction *old);

#ifdef SN_HAVE_JANSSON
#include <jansson.h>
/* A raw key as a JSON value: a number, or (JSON has no NaN or infinity)
 * a string for f32 NaNs and infinities ("nan", "-inf"). New reference. */
json_t *cli_json_key(sn_key_type t, uint32_t bits);
/* A value of a first mismatch: a payload value (an index, a JSON integer)
 * when payload, else a key as cli_json_key. New reference. */
json_t *cli_json_value(sn_key_type t, uint32_t bits, bool payload);
/* Print o on one line of stdout with jansson's `flags` and release it;
 * 0, or 2 when it could not be written. */
int cli_json_print(json_t *o, size_t flags);
#endif

/* Print keys as "a,b,c". */
void cli_print_keys(FILE *f, sn_key_type t, const uint32_t *keys, uint32_t n);

/* Atomic output (cli_out.c): write to a temporary file beside `path`, then
 * rename over it only on success. path "-" means stdout (no temporary).
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT, where at their default action,
 * remove the temporaries being written before they end the process. */
typedef struct cli_out {
    FILE *f;
    char *path;
    char *tmp;
    int slot; /* the temporary's entry in the signal handler's table, or -1 */
} cli_out;
int cli_out_open(cli_out *o, const char *path); /* 0 or exit code (printed) */
int cli_out_commit(cli_out *o);                 /* 0 or exit code (printed) */
void cli_out_abort(cli_out *o);                 /* removes the temporary */

/* Parse an unsigned decimal within [lo, hi]; false if malformed. */
bool cli_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);

/* --type: the key type named by arg into *out; 0, or 2 with the error
 * printed. */
int cli_type_arg(const char *arg, sn_key_type *out);

/* For getopt_long loops (optstring must start with ':'): report an unknown
 * option or a missing argument ('?' or ':' from getopt) and return 2. */
int cli_bad_option(const char *cmd, int c, char **argv);

/* The host memory a command may plan to use for arrays of n keys: set by
 * the global option --max-memory BYTES (suffix K, M or G); 0 (the default)
 * means the memory the system has available now (MemAvailable). */
extern uint64_t cli_max_memory;
/* 0 when `bytes` fits; otherwise prints "sortnet: <what>: needs about ..."
 * (naming --max-memory) and returns 2. */
int cli_memory_check(const char *what, uint64_t bytes);
/* The limit cli_memory_check holds to: --max-memory, else MemAvailable
 * (0: unknown). */
uint64_t cli_memory_limit(void);
/* A stream (stdin, a pipe, a device) stopped after read_bytes, each
 * needing about per_byte bytes of memory, at the limit: prints
 * "sortnet: <what>: more than ... read ..." naming --max-memory; returns 2. */
int cli_memory_stream_error(const char *what, uint64_t read_bytes, uint64_t per_byte);

#endif
