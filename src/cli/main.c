/* main.c - `sortnet`: dispatch to the subcommands of the command-line
 * contract (docs/design.md). With no arguments: the default demo,
 * `sortnet view bitonic:16`. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h> // for: getenv, strtoul (SN_ALLOC_FAIL)
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"   // for: sn_alloc_fail_after (SN_ALLOC_FAIL, tests only)
#include "core/library.h" // for: sn_library_count (--version)
#include "core/network.h" // for: sn_limits (global limit options)

/* Which optional parts are built in, for --version. */
#ifdef SN_HAVE_SDL
#define SN_BUILT_SDL true
#else
#define SN_BUILT_SDL false
#endif
#ifdef SN_HAVE_CAIRO
#define SN_BUILT_CAIRO true
#else
#define SN_BUILT_CAIRO false
#endif
#ifdef SN_HAVE_OPENCL
#define SN_BUILT_OPENCL true
#else
#define SN_BUILT_OPENCL false
#endif
#ifdef SN_HAVE_JANSSON
#define SN_BUILT_JANSSON true
#else
#define SN_BUILT_JANSSON false
#endif
#ifdef SN_HAVE_WEB
#define SN_BUILT_WEB true
#else
#define SN_BUILT_WEB false
#endif
#ifdef SN_HAVE_MPI
#define SN_BUILT_MPI true
#else
#define SN_BUILT_MPI false
#endif
#ifdef SN_HAVE_CHECK
#define SN_BUILT_CHECK true
#else
#define SN_BUILT_CHECK false
#endif

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const char *missing; /* why it is not built, or NULL */
} command;

static const command commands[] = {
#ifdef SN_HAVE_VIEW
    {"view", cmd_view, "open the step-through window (default: bitonic:16)", NULL},
#else
    {"view", NULL, "open the step-through window (default: bitonic:16)",
     "built without cairo (reconfigure with -DSORTNET_WITH_CAIRO=ON)"},
#endif
    {"gen", cmd_gen, "write a network in a file format", NULL},
    {"info", cmd_info, "size, depth, layer sizes, standard form, sorts?", NULL},
    {"run", cmd_run, "run a network on an input with the reference executor", NULL},
    {"list", cmd_list, "the shipped library of known networks (best:N, best-depth:N)", NULL},
    {"transform", cmd_transform, "normalize, reflect, cut, prune, concat, permute, compact", NULL},
    {"search", cmd_search, "find small sorting or selection networks by evolution", NULL},
#ifdef SN_HAVE_CHECK
    {"check", cmd_check, "prove or refute that a network sorts (0-1 principle)", NULL},
#else
    {"check", NULL, "prove or refute that a network sorts (0-1 principle)",
     "the 0-1 checker is not part of this build"},
#endif
#ifdef SN_HAVE_CAIRO
    {"draw", cmd_draw, "draw a network as SVG, PNG, PDF or TikZ", NULL},
#else
    {"draw", NULL, "draw a network as SVG, PNG, PDF or TikZ",
     "built without cairo (reconfigure with -DSORTNET_WITH_CAIRO=ON)"},
#endif
#ifdef SN_HAVE_WEB
    {"web", cmd_web, "write the page: one self-contained HTML file (WebAssembly)", NULL},
#else
    {"web", NULL, "write the page: one self-contained HTML file (WebAssembly)",
     "the page was not built: install clang, lld, wasi-libc and libclang-rt-14-dev-wasm32 "
     "(tools/setup.sh does) and reconfigure with -DSORTNET_WEB=ON"},
#endif
#ifdef SN_HAVE_OPENCL
    {"gpu", cmd_gpu, "run and verify networks on an OpenCL device", NULL},
#else
    {"gpu", NULL, "run and verify networks on an OpenCL device",
     "built without OpenCL (reconfigure with -DSORTNET_WITH_OPENCL=ON)"},
#endif
#ifdef SN_HAVE_MPI
    {"dist", cmd_dist, "sort over MPI ranks: a network's layers as merge-splits", NULL},
#else
    {"dist", NULL, "sort over MPI ranks: a network's layers as merge-splits",
     "built without MPI (install libopenmpi-dev and reconfigure with -DSORTNET_WITH_MPI=ON)"},
#endif
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: sortnet [COMMAND] [ARGS...]\n\n"
               "An educational visualizer, simulator and checker for sorting networks.\n"
               "With no command: the demo, `sortnet view bitonic:16`.\n\nCommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-6s %s%s\n", commands[i].name, commands[i].summary,
                commands[i].missing ? " (not built)" : "");
    fprintf(f, "\nNetworks (NET): bitonic:N oddeven-merge:N transposition:N pairwise:N\n"
               "  bubble:N insertion:N; from the shipped library (`sortnet list`) best:N,\n"
               "  best-depth:N (n = 2..64) and lib:NAME; a file (bracket, JSON or\n"
               "  libsortnetwork text, detected from content), or - for standard input.\n\n"
               "`sortnet COMMAND --help` describes a command. Exit codes: 0 success,\n"
               "1 negative verdict, 2 bad usage or input, 3 missing environment,\n"
               "4 undecided (check past its limits), 5 the device failed or memory ran out.\n");
    /* the global limit options */
    sn_limits l = sn_limits_get();
    fprintf(f,
            "\nGlobal options, before COMMAND (limits on what a network may declare,\n"
            "checked before anything is allocated; see docs/limits.md):\n"
            "  --max-wires N        default %lu\n"
            "  --max-comparators N  default %zu\n"
            "  --max-layers N       default %zu\n"
            "  --max-memory BYTES   memory for arrays of n keys (suffix K, M, G);\n"
            "                       default: what the system has available\n",
            (unsigned long)l.max_wires, l.max_comparators, l.max_layers);
}

/* Global limit options:
 * `sortnet --max-wires N --max-comparators N --max-layers N COMMAND ...`
 * (also --name=N) raise or lower the limits of core/network.h before any
 * network is read; --max-memory BYTES[K|M|G] sets cli_max_memory.
 * Returns how many arguments after argv[0] were consumed, or -1 after
 * printing an error. */
static int limits_options(int argc, char **argv)
{
    static const struct {
        const char *name;
        uint64_t max;
    } opts[] = {{"--max-wires", UINT32_MAX},
                {"--max-comparators", SIZE_MAX / 64},
                {"--max-layers", SIZE_MAX / 64},
                {"--max-memory", UINT64_MAX >> 10}};
    sn_limits l = sn_limits_get();
    int i = 1;
    while (i < argc && strncmp(argv[i], "--max-", 6) == 0) {
        size_t k = 0, len = 0;
        for (; k < sizeof opts / sizeof opts[0]; k++) {
            len = strlen(opts[k].name);
            if (strncmp(argv[i], opts[k].name, len) == 0 &&
                (argv[i][len] == '\0' || argv[i][len] == '='))
                break;
        }
        if (k == sizeof opts / sizeof opts[0]) {
            cli_error(CLI_USAGE, argv[i], "unknown global option (try `sortnet --help`)");
            return -1;
        }
        const char *val = argv[i][len] == '=' ? argv[i] + len + 1 : NULL;
        if (!val) {
            if (i + 1 >= argc) {
                cli_error(CLI_USAGE, opts[k].name, "needs a value");
                return -1;
            }
            val = argv[++i];
        }
        uint64_t v;
        char num[32];
        unsigned shift = 0;
        size_t vlen = strlen(val);
        if (k == 3 && vlen > 1 && vlen < sizeof num && strchr("KMG", val[vlen - 1])) {
            shift = val[vlen - 1] == 'K' ? 10 : val[vlen - 1] == 'M' ? 20 : 30;
            memcpy(num, val, vlen - 1);
            num[vlen - 1] = '\0';
        } else {
            snprintf(num, sizeof num, "%s", vlen < sizeof num ? val : "x");
        }
        if (!cli_parse_u64(num, 1, opts[k].max >> shift, &v)) {
            if (k == 3)
                cli_error(CLI_USAGE, opts[k].name,
                          "'%s' is not a size in bytes (e.g. 4096, 512M, 64G)", val);
            else
                cli_error(CLI_USAGE, opts[k].name, "'%s' is not a number in 1..%llu", val,
                          (unsigned long long)opts[k].max);
            return -1;
        }
        if (k == 0)
            l.max_wires = (uint32_t)v;
        else if (k == 1)
            l.max_comparators = (size_t)v;
        else if (k == 2)
            l.max_layers = (size_t)v;
        else
            cli_max_memory = v << shift;
        i++;
    }
    sn_limits_set(l);
    return i - 1;
}

/* The version and the optional parts this binary was built with. */
static void print_version(void)
{
    static const struct {
        const char *what;
        bool built;
    } parts[] = {
        {"SDL2 window", SN_BUILT_SDL},        {"cairo drawing", SN_BUILT_CAIRO},
        {"OpenCL", SN_BUILT_OPENCL},          {"JSON (jansson)", SN_BUILT_JANSSON},
        {"0-1 checker", SN_BUILT_CHECK},      {"the page (sortnet web)", SN_BUILT_WEB},
        {"MPI (sortnet dist)", SN_BUILT_MPI},
    };
    printf("sortnet %s\nbuilt with:", SORTNET_VERSION);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        printf("%s %s %s", i ? "," : "", parts[i].what, parts[i].built ? "yes" : "no");
    printf("\nnetwork library: %zu networks embedded (`sortnet list`)\n", sn_library_count());
}

/* The demo without a window: the default network run layer by layer. */
static int text_demo(const char *why)
{
    fprintf(stderr, "sortnet: view: %s; showing the demo as text instead\n", why);
    char *argv[] = {"run", "bitonic:16", "--trace", NULL};
    return cmd_run(3, argv);
}

static int run_command(int argc, char **argv)
{
    /* the global limit options, before COMMAND */
    int consumed = limits_options(argc, argv);
    if (consumed < 0)
        return CLI_USAGE;
    argc -= consumed;
    argv += consumed;
    if (argc < 2) {
#ifdef SN_HAVE_SDL
        char *demo[] = {"view", "bitonic:16", NULL};
        return cmd_view(2, demo);
#else
        return text_demo("built without SDL2");
#endif
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return CLI_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        print_version();
        return CLI_OK;
    }
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        if (!commands[i].run) {
            if (strcmp(name, "view") == 0 && argc == 2)
                return text_demo(commands[i].missing);
            return cli_error(CLI_NOENV, name, "%s", commands[i].missing);
        }
        return commands[i].run(argc - 1, argv + 1);
    }
    cli_error(CLI_USAGE, name, "unknown command (try `sortnet --help`)");
    return CLI_USAGE;
}

/* What a command printed must arrive: a full disk or a closed pipe behind
 * standard output turns a result into exit 2 with the cause (a command
 * that already failed has said why). */
static int stdout_closed(int rc)
{
    errno = 0;
    bool failed = fflush(stdout) != 0;
    int e = errno;
    if (!failed && !ferror(stdout))
        return rc;
    if (rc != CLI_OK && rc != CLI_NEGATIVE && rc != CLI_UNDECIDED)
        return rc;
    return cli_error(CLI_USAGE, "stdout", "write error: %s", strerror(e ? e : EIO));
}

int main(int argc, char **argv)
{
    /* tests only: SN_ALLOC_FAIL=N fails the library's Nth allocation (and
     * no other), as the tests' countdown does (tests/cli_oom.sh) */
    const char *fail = getenv("SN_ALLOC_FAIL");
    if (fail && *fail)
        sn_alloc_fail_after((size_t)strtoul(fail, NULL, 10));
    return stdout_closed(run_command(argc, argv));
}
