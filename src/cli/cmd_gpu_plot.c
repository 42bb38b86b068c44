/* cmd_gpu_plot.c - `sortnet gpu plot FILE.csv... -o FILE.svg`: bench CSV
 * files to an SVG (GPU machines often lack cairo; src/render/plot.c
 * reads the CSV and draws). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_gpu.h"
#include "core/alloc.h"
#include "core/format.h" // for: sn_file_read_all
#ifdef SN_HAVE_CAIRO
#include "render/plot.h"
#endif

/* Largest CSV file read. */
#define PLOT_FILE_MAX ((size_t)64 << 20)

static void plot_help(void)
{
    printf("usage: sortnet gpu plot FILE.csv... -o FILE.svg\n\n"
           "Draw keys per second against size (log-log, one line per network and\n"
           "variant, as `gpu bench --plot` does) from CSV files written by\n"
           "`sortnet gpu bench --csv`: for results measured on a machine built without\n"
           "cairo, such as a GPU box. Rows with the same columns from elsewhere (e.g.\n"
           "bench/gpu_anchors.py --csv: torch.sort, cupy.sort) are drawn too.\n\n"
           "Columns: device,network,variant,n,median_ms,keys_per_s; a header line and\n"
           "empty lines are skipped. The title names the first row's device.\n\n"
           "Options:\n"
           "  -o, --output FILE.svg  the picture (written to a temporary name, renamed)\n"
           "  -h, --help             this text\n");
}

static int take(void *ctx, int key, const char *name, const char *arg)
{
    (void)key;
    (void)name;
    *(const char **)ctx = arg; /* -o, the only option */
    return 0;
}

#ifdef SN_HAVE_CAIRO
/* Read every CSV file into t; 0 or an exit code (printed). */
static int read_all(sn_plot_table *t, int nfiles, char **paths)
{
    for (int fi = 0; fi < nfiles; fi++) {
        char *text = NULL;
        size_t len = 0;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_file_read_all(paths[fi], PLOT_FILE_MAX, &text, &len, &d);
        if (st == SN_OK)
            st = sn_plot_csv_parse(t, text, paths[fi], &d);
        if (st != SN_OK) { /* d names the file (and line and column) */
            fprintf(stderr, "sortnet: %s\n", sn_diag_text(&d, st));
            return cli_status_exit(st);
        }
    }
    if (t->count == 0)
        return cli_error(CLI_USAGE, paths[0], "no rows to plot");
    return 0;
}
#endif

int cmd_gpu_plot(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *out = NULL;
    int first,
        rc = cli_gpu_options("gpu plot", argc, argv, "o:", opts, plot_help, take, &out, &first);
    if (rc != 0)
        return rc < 0 ? CLI_OK : rc;
    if (first >= argc)
        return cli_error(CLI_USAGE, "gpu plot", "no CSV file given (see --help)");
    if (!out)
        return cli_error(CLI_USAGE, "gpu plot", "no output given: -o FILE.svg");
#ifndef SN_HAVE_CAIRO
    return cli_error(CLI_NOENV, "gpu plot", "built without cairo: no plots");
#else
    sn_plot_table t;
    sn_plot_table_init(&t);
    rc = read_all(&t, argc - first, argv + first);
    cli_out o;
    if (rc == 0 && (rc = cli_out_open(&o, out)) == 0) {
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_plot_write_svg(o.f, t.rows, t.count, t.device, &d);
        if (st != SN_OK) {
            cli_out_abort(&o);
            fprintf(stderr, "sortnet: %s: %s\n", out, d.text);
            rc = cli_status_exit(st);
        } else {
            rc = cli_out_commit(&o);
        }
    }
    sn_plot_table_free(&t);
    return rc;
#endif
}
