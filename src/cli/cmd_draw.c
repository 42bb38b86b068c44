/* cmd_draw.c - `sortnet draw NET -o FILE`: a diagram as SVG, PNG, PDF or
 * TikZ (format from the extension; "-" streams SVG to stdout), optionally
 * with the values on every wire after step K, the labelled structure
 * blocks (--structure) and the 0-1 chart and wire states (--zero-one). */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/analysis.h"
#include "core/exec.h"
#include "core/input.h"
#include "render/export.h"
#include "render/layout.h"

static void help(void)
{
    printf("usage: sortnet draw NET -o FILE [options]\n\n"
           "Draw NET (a generator such as bitonic:16, a file, or - for stdin). The format\n"
           "comes from FILE's extension: .svg, .png, .pdf or .tex (TikZ for pdflatex);\n"
           "-o - writes SVG to standard output.\n\n"
           "  -o, --output FILE  where to write (atomically: no file is left on failure)\n"
           "  --step K           show the values after K layers (0 = the input) and mark\n"
           "                     the comparators of the next layer: swapping ones solid,\n"
           "                     the others dashed\n"
           "  --follow W         also trace the element that starts on wire W\n"
           "  --structure        outline and label the blocks of a generated network's\n"
           "                     construction (sort 8, merge 16, half-cleaner, merge 4+4,\n"
           "                     round 3; arrows give bitonic-classic's directions)\n"
           "  --zero-one         the 0-1 principle (n <= %d): under the wires, a bar per\n"
           "                     step for the 0-1 inputs sorted so far; on the wires, what\n"
           "                     each can hold (only 0, only 1, either) for the inputs\n"
           "                     with H ones\n"
           "  --ones H           that H (default n/2)\n"
           "  --theme T          light (default) or dark\n"
           "  --scale S          size factor (default 1: 24 units between wires)\n"
           "  --width PX         scale the picture to this width\n"
           "  -h, --help         this text\n\n"
           "Without an input option or --step only the network is drawn; with one of\n"
           "them the values are shown (at step 0 unless --step is given).\n\n",
           SN_ZERO_ONE_MAX_WIRES);
    fputs(cli_input_help, stdout);
}

/* Keys after `step` layers, the path of the followed element, and the
 * widest value label. */
static int simulate(const sn_schedule *s, const cli_input *in, size_t step, long follow,
                    uint32_t **keys_out, uint32_t **path_out, unsigned *chars)
{
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    uint32_t *keys = NULL, *payload = NULL, *path = NULL;
    int rc = cli_input_make(in, n, &keys);
    if (rc)
        return rc;
    *chars = 1;
    char buf[48];
    for (uint32_t i = 0; i < n; i++) {
        int len = sn_key_format(in->type, keys[i], buf, sizeof buf);
        if (len > 0 && (unsigned)len > *chars)
            *chars = (unsigned)len;
    }
    if (follow >= 0) {
        payload = sn_calloc(n, sizeof *payload);
        path = sn_calloc(L + 1, sizeof *path);
        if (!payload || !path) {
            rc = cli_error(CLI_USAGE, "draw", "out of memory");
            goto fail;
        }
        for (uint32_t i = 0; i < n; i++)
            payload[i] = i;
        path[0] = (uint32_t)follow;
    }
    uint32_t *work = sn_calloc(n ? n : 1, sizeof *work);
    if (!work) {
        rc = cli_error(CLI_USAGE, "draw", "out of memory");
        goto fail;
    }
    memcpy(work, keys, n * sizeof *keys);
    size_t last = follow >= 0 ? L : step;
    for (size_t k = 0; k < last; k++) {
        sn_exec_layer(s, k, in->type, work, payload, NULL);
        if (k + 1 == step)
            memcpy(keys, work, n * sizeof *keys);
        if (path) {
            for (uint32_t i = 0; i < n; i++)
                if (payload[i] == (uint32_t)follow)
                    path[k + 1] = i;
        }
    }
    sn_free(work);
    sn_free(payload);
    *keys_out = keys;
    *path_out = path;
    return 0;
fail:
    sn_free(keys);
    sn_free(payload);
    sn_free(path);
    return rc;
}

int cmd_draw(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", 1, NULL, 'o'},    {"step", 1, NULL, 'k'},     {"theme", 1, NULL, 't'},
        {"scale", 1, NULL, 's'},     {"width", 1, NULL, 'w'},    {"follow", 1, NULL, 'f'},
        {"structure", 0, NULL, 'S'}, {"zero-one", 0, NULL, 'Z'}, {"ones", 1, NULL, 'O'},
        CLI_INPUT_LONGOPTS,          {"help", 0, NULL, 'h'},     {NULL, 0, NULL, 0}};
    const char *out_path = NULL;
    sn_theme_id theme = SN_THEME_LIGHT;
    sn_layout_opts lopt = {1.0, 0, false, 0, -1, false, false, 0, 0, 0};
    cli_input in;
    cli_input_init(&in);
    bool have_step = false;
    uint64_t step = 0, follow = 0, width = 0;
    bool have_follow = false, have_ones = false;
    uint64_t ones = 0;
    int c, idx = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", opts, &idx)) != -1) {
        switch (c) {
        case 'o': out_path = optarg; break;
        case 'k':
            if (!cli_parse_u64(optarg, 0, UINT32_MAX, &step))
                return cli_error(CLI_USAGE, "--step", "'%s' is not a layer count", optarg);
            have_step = true;
            break;
        case 'f':
            if (!cli_parse_u64(optarg, 0, UINT32_MAX, &follow))
                return cli_error(CLI_USAGE, "--follow", "'%s' is not a wire", optarg);
            have_follow = true;
            break;
        case 't':
            if (!sn_theme_parse(optarg, &theme))
                return cli_error(CLI_USAGE, "--theme", "'%s' is not a theme (light or dark)",
                                 optarg);
            break;
        case 's': {
            char *end;
            double v = strtod(optarg, &end);
            if (end == optarg || *end || !isfinite(v) || v <= 0 || v > 100)
                return cli_error(CLI_USAGE, "--scale", "'%s' is not a scale in (0, 100]", optarg);
            lopt.scale = v;
            break;
        }
        case 'w':
            if (!cli_parse_u64(optarg, 1, 1000000, &width))
                return cli_error(CLI_USAGE, "--width", "'%s' is not a width in pixels (1..1000000)",
                                 optarg);
            lopt.width = (double)width;
            break;
        case CLI_OPT_INPUT: {
            int r = cli_input_option(&in, opts[idx].name, optarg);
            if (r != 1)
                return r ? r : CLI_USAGE;
            break;
        }
        case 'S': lopt.structure = true; break;
        case 'Z': lopt.zero_one = true; break;
        case 'O':
            if (!cli_parse_u64(optarg, 0, SN_ZERO_ONE_MAX_WIRES, &ones))
                return cli_error(CLI_USAGE, "--ones", "'%s' is not a number of ones (0..%d)",
                                 optarg, SN_ZERO_ONE_MAX_WIRES);
            have_ones = true;
            break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("draw", c, argv);
        }
    }
    if (optind != argc - 1)
        return cli_error(CLI_USAGE, "draw", "expected one network (see --help)");
    if (!out_path)
        return cli_error(CLI_USAGE, "draw",
                         "no output file: give -o FILE (or -o - for SVG on "
                         "standard output)");
    if (have_ones && !lopt.zero_one)
        return cli_error(CLI_USAGE, "--ones", "goes with --zero-one");
    sn_export_format fmt = sn_export_format_from_path(out_path);
    if (fmt == SN_EXPORT_UNKNOWN)
        return cli_error(CLI_USAGE, out_path,
                         "unknown picture format: the name must end in .svg, .png, .pdf or .tex");

    sn_schedule *s = NULL;
    int rc = cli_load(argv[optind], &s);
    if (rc)
        return rc;
    uint32_t *keys = NULL, *path = NULL;
    sn_layout *lo = NULL;
    sn_zero_one zo;
    memset(&zo, 0, sizeof zo);
    sn_diag d;
    sn_diag_clear(&d);
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    size_t size = sn_schedule_size(s);
    if (size > sn_limits_get().max_comparators) {
        rc =
            cli_error(CLI_USAGE, sn_schedule_name(s), "%zu comparators are too many to draw", size);
        goto done;
    }
    if (have_step && step > L) {
        rc = cli_error(CLI_USAGE, "--step", "%llu is past the last layer (the network has %zu)",
                       (unsigned long long)step, L);
        goto done;
    }
    if (have_follow && follow >= n) {
        rc = cli_error(CLI_USAGE, "--follow", "wire %llu does not exist (the network has %u)",
                       (unsigned long long)follow, (unsigned)n);
        goto done;
    }
    sn_draw_state st;
    sn_draw_state_init(&st);
    if (lopt.zero_one) {
        if (n > SN_ZERO_ONE_MAX_WIRES) {
            rc = cli_error(CLI_USAGE, "--zero-one",
                           "%s has %u wires; the 0-1 inputs are drawn for at most %d wires",
                           sn_schedule_name(s), (unsigned)n, SN_ZERO_ONE_MAX_WIRES);
            goto done;
        }
        if (have_ones && ones > n) {
            rc = cli_error(CLI_USAGE, "--ones", "%llu is more ones than %s has wires (%u)",
                           (unsigned long long)ones, sn_schedule_name(s), (unsigned)n);
            goto done;
        }
        sn_status zs = sn_zero_one_profile(s, SN_ZERO_ONE_MAX_WIRES, 0, &zo, &d);
        if (zs != SN_OK) {
            rc = cli_error(cli_status_exit(zs), "--zero-one", "%s",
                           d.text[0] ? d.text : sn_status_str(zs));
            goto done;
        }
        st.zo = &zo;
        st.zo_ones = have_ones ? (uint32_t)ones : n / 2;
    }
    if (in.given || have_step || have_follow) {
        unsigned chars = 1;
        rc = simulate(s, &in, (size_t)step, have_follow ? (long)follow : -1, &keys, &path, &chars);
        if (rc)
            goto done;
        st.step = (size_t)step;
        st.values = keys;
        st.type = in.type;
        st.path = path;
        lopt.show_values = true;
        lopt.value_chars = chars;
        lopt.value_step = (long)step;
    }
    sn_status r = sn_layout_create(s, &lopt, &lo, &d);
    if (r == SN_OK && lopt.structure && lo->block_count == 0)
        fprintf(stderr,
                "sortnet: --structure: %s has no recursive structure to label (only "
                "generated bitonic, bitonic-classic, oddeven-merge, pairwise and "
                "transposition networks have)\n",
                sn_schedule_name(s));
    if (r != SN_OK) {
        rc = cli_error(cli_status_exit(r), sn_schedule_name(s), "%s",
                       d.text[0] ? d.text : sn_status_str(r));
        goto done;
    }
    if (fmt == SN_EXPORT_PNG &&
        (ceil(lo->width) > SN_EXPORT_PNG_MAX_SIDE || ceil(lo->height) > SN_EXPORT_PNG_MAX_SIDE ||
         ceil(lo->width) * ceil(lo->height) > SN_EXPORT_PNG_MAX_PIXELS)) {
        rc = cli_error(CLI_USAGE, out_path,
                       "a %.0fx%.0f pixel PNG is too large; use --width or --scale, or SVG/PDF",
                       ceil(lo->width), ceil(lo->height));
        goto done;
    }
    cli_out out;
    if ((rc = cli_out_open(&out, out_path)) != 0)
        goto done;
    r = sn_export_write(out.f, fmt, lo, sn_theme_get(theme), &st, &d);
    if (r != SN_OK) {
        cli_out_abort(&out);
        rc = cli_error(cli_status_exit(r), out_path, "%s", d.text[0] ? d.text : sn_status_str(r));
        goto done;
    }
    rc = cli_out_commit(&out);
done:
    sn_zero_one_free(&zo);
    sn_layout_destroy(lo);
    sn_free(keys);
    sn_free(path);
    sn_schedule_destroy(s);
    return rc;
}
