/* cmd_gpu.c - `sortnet gpu COMMAND`: the OpenCL executor from the command
 * line. This file dispatches to the subcommands (one file each,
 * cmd_gpu_*.c) and holds what they share. Exit codes: 0 identical, 1 the
 * device's output differs, 2 bad usage or input, 3 no OpenCL platform, 5
 * the device failed (or memory ran out). */
#include "cmd_gpu.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_gpu_batch.h"
#include "cmd_gpu_sort.h"
#include "commands.h"
#include "gpu/gpu.h"

/* The subcommands; a new one is one line here and a file of its own. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} subcommands[] = {
    {"list", cmd_gpu_list, "sortnet gpu list [--device P:D]"},
    {"verify", cmd_gpu_verify, "sortnet gpu verify NET [options]"},
    {"bench", cmd_gpu_bench, "sortnet gpu bench [NET...] [options]"},
    {"batch", cmd_gpu_batch, "sortnet gpu batch NET --arrays M [options]"},
    {"sort", cmd_gpu_sort, "sortnet gpu sort ALGO:N [options]   (radix, merge, ...: verified)"},
    {"plot", cmd_gpu_plot, "sortnet gpu plot FILE.csv... -o FILE.svg"},
};
#define NSUB (sizeof subcommands / sizeof subcommands[0])

static void gpu_help(void)
{
    for (size_t i = 0; i < NSUB; i++)
        printf("%s %s\n", i ? "      " : "usage:", subcommands[i].usage);
    printf("\nRun sorting networks on an OpenCL device (a GPU, or pocl on the CPU) and\n"
           "prove the output identical to the CPU reference executor.\n"
           "`sortnet gpu COMMAND --help` describes a command. Exit codes: 0 identical,\n"
           "1 the device's output differs, 2 bad usage or input, 3 no OpenCL platform,\n"
           "5 the device failed, a kernel of sortnet's own did not build, or memory ran\n"
           "out.\n");
}

/* "list, verify, bench or plot" */
static void names(char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NSUB && at < cap; i++)
        at += (size_t)snprintf(buf + at, cap - at, "%s%s",
                               i == 0          ? ""
                               : i + 1 == NSUB ? " or "
                                               : ", ",
                               subcommands[i].name);
}

int cmd_gpu(int argc, char **argv)
{
    char list[128];
    names(list, sizeof list);
    if (argc < 2) {
        gpu_help();
        return cli_error(CLI_USAGE, "gpu", "which command? %s", list);
    }
    const char *sub = argv[1];
    if (strcmp(sub, "-h") == 0 || strcmp(sub, "--help") == 0) {
        gpu_help();
        return CLI_OK;
    }
    for (size_t i = 0; i < NSUB; i++)
        if (strcmp(sub, subcommands[i].name) == 0)
            return subcommands[i].run(argc - 1, argv + 1);
    return cli_error(CLI_USAGE, "gpu", "unknown command '%s' (%s)", sub, list);
}

int cli_gpu_options(const char *cmd, int argc, char **argv, const char *shortopts,
                    const struct option *opts, void (*help)(void), gpu_take_fn take, void *ctx,
                    int *first)
{
    char so[32];
    snprintf(so, sizeof so, ":h%s", shortopts);
    int c, idx = -1;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, so, opts, &idx)) != -1) {
        if (c == 'h') {
            help();
            return -1;
        }
        if (c == '?' || c == ':')
            return cli_bad_option(cmd, c, argv);
        const char *name = idx >= 0 ? opts[idx].name : NULL;
        int rc = take(ctx, c, name, optarg);
        if (rc != 0)
            return rc;
        idx = -1;
    }
    *first = optind;
    return 0;
}

int cli_gpu_device_arg(const char *arg)
{
    uint32_t p, d;
    if (!sn_gpu_device_parse(arg, &p, &d))
        return cli_error(CLI_USAGE, "--device", "'%s' is not a device: expected P:D, e.g. 0:0",
                         arg);
    return 0;
}

int cli_gpu_report(const char *what, sn_status st, const sn_diag *d, const char *log)
{
    const char *nl = strchr(d->text, '\n');
    if (st == SN_EBUILD && log && *log) {
        /* One line that says so, then the log once, indented under it. */
        fprintf(stderr, "sortnet: %s: build failed:\n", what);
        for (const char *p = log; *p;) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            if (len)
                fprintf(stderr, "    %.*s\n", (int)len, p);
            p += len + (e != NULL);
        }
    } else if (log && *log && nl)
        fprintf(stderr, "sortnet: %s: %.*s\n%s\n", what, (int)(nl - d->text), d->text, log);
    else
        fprintf(stderr, "sortnet: %s: %s\n", what, sn_diag_text(d, st));
    return cli_status_exit(st);
}

void cli_gpu_csv_field(const char *s, char *buf, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++)
        buf[k++] = *s == ',' ? ';' : *s;
    buf[k] = '\0';
}
