/* cmd_gpu.h - what the `sortnet gpu` subcommands share (cmd_gpu*.c): the
 * option parser, error reporting with build logs, and each subcommand's
 * entry point. */
#ifndef SN_CMD_GPU_H
#define SN_CMD_GPU_H

#include <getopt.h>
#include <stddef.h>

#include "core/status.h"
#include "gpu/gpu.h" // for: sn_gpu_outcome

/* A subcommand's options, one at a time: getopt_long's val, the long
 * name (NULL for a short option) and the argument (NULL without).
 * Returns 0, or an exit code after printing why. */
typedef int (*gpu_take_fn)(void *ctx, int key, const char *name, const char *arg);

/* Parse argv[1..] of subcommand `cmd` ("gpu list") with getopt_long over
 * opts and shortopts (which need not start with ':'; "h" and --help are
 * handled here: help() is printed). Every option goes to take, bad ones
 * through cli_bad_option. Returns 0 with *first the first operand, -1
 * when help was printed (the command then exits 0), or an exit code. */
int cli_gpu_options(const char *cmd, int argc, char **argv, const char *shortopts,
                    const struct option *opts, void (*help)(void), gpu_take_fn take, void *ctx,
                    int *first);

/* Check a --device argument (P:D); 0, or 2 after printing why. */
int cli_gpu_device_arg(const char *arg);

/* Print a library error as `sortnet: what: why` (a build log, several
 * lines, goes out whole after the first line) and return its exit code. */
int cli_gpu_report(const char *what, sn_status st, const sn_diag *d, const char *log);

/* s as one CSV field into buf (cap > 0): commas become ';' so the columns
 * stay (device names hold commas), cut to fit. */
void cli_gpu_csv_field(const char *s, char *buf, size_t cap);

/* The verdict of a --kernel device process that gave none (a crash, a
 * time-out, a failed device call: its details in d), as one line into buf
 * (cmd_gpu_verify_fault.c). */
void cli_gpu_fault_text(const sn_gpu_outcome *o, const sn_diag *d, char *buf, size_t cap);

int cmd_gpu_list(int argc, char **argv);   /* cmd_gpu_list.c */
int cmd_gpu_verify(int argc, char **argv); /* cmd_gpu_verify.c */
int cmd_gpu_bench(int argc, char **argv);  /* cmd_gpu_bench.c */
int cmd_gpu_plot(int argc, char **argv);   /* cmd_gpu_plot.c */

#endif
