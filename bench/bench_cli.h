/* bench_cli.h - the command line every bench program shares: --help, and
 * at most one optional whole-number argument checked against its range. */
#ifndef SN_BENCH_CLI_H
#define SN_BENCH_CLI_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse argv: "-h"/"--help" prints usage and exits 0; one operand must be
 * a whole number in [lo, hi] (stored in *value, which keeps its default
 * when absent; with arg_name NULL no operand is taken); anything else
 * prints why and exits 2. */
static inline void bench_cli(int argc, char **argv, const char *usage, const char *arg_name,
                             unsigned long lo, unsigned long hi, unsigned long *value)
{
    const char *prog = argv[0] && strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            exit(0);
        }
    if (argc > (arg_name ? 2 : 1)) {
        fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog,
                argv[arg_name ? 2 : 1]);
        exit(2);
    }
    if (argc < 2)
        return;
    const char *s = argv[1];
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno || v < lo || v > hi) {
        fprintf(stderr, "%s: %s must be a whole number from %lu to %lu, not '%s' (see --help)\n",
                prog, arg_name, lo, hi, s);
        exit(2);
    }
    *value = v;
}

#endif
