/* cmd_draw.c - `sortnet draw NET [NET2 [NET3]] -o FILE`: a diagram as SVG,
 * PNG, PDF or TikZ (format from the extension; "-" streams SVG to stdout),
 * optionally with the values on every wire after step K, the labelled
 * structure blocks (--structure) and the 0-1 chart and wire states
 * (--zero-one). Several networks with the same n are stacked, each under
 * a title line, on the same input. */
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
#include "cmd_draw_dist.h"
#include "render/dist_scene.h"
#include "render/export.h"
#include "render/layout.h"
#include "render/scene.h" /* for: SN_SCENE_MIN_FONT */

/* A slide, which a default PNG fills (never scaled below 1). */
#define DRAW_SLIDE_W 1280
#define DRAW_SLIDE_H 720

static void help(void)
{
    printf("usage: sortnet draw NET [NET2 [NET3]] -o FILE [options]\n"
           "       sortnet draw dist:P[,NET] -o FILE [--keys K] [--seed S] [--step K]\n\n"
           "Draw NET (a generator such as bitonic:16, a file, or - for stdin). The format\n"
           "comes from FILE's extension: .svg, .png, .pdf or .tex (TikZ for pdflatex);\n"
           "-o - writes SVG to standard output. Two or three networks with the same n\n"
           "are stacked, each under a line with its comparators, layers and (with an\n"
           "input) swaps and result, all on the same input (not for .tex).\n\n"
           "  -o, --output FILE  where to write (atomically: no file is left on failure)\n"
           "  --step K           show the values after layer K (layers count from 1;\n"
           "                     0 = the input) and mark\n"
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
           "  --theme T          light (default), dark or contrast\n"
           "  --scale S          size factor (1: 24 units between wires). Default: 1 for\n"
           "                     SVG, PDF and TikZ (1 unit = 1 pt); a PNG smaller than\n"
           "                     a slide is scaled up to fill %d x %d pixels\n"
           "  --width PX         scale the picture to this width\n"
           "  --force            write pictures past the size limit (about %.0f drawing\n"
           "                     elements, e.g. 330 000 comparators, in any format)\n"
           "  -h, --help         this text\n\n"
           "Without an input option or --step only the network is drawn; with one of\n"
           "them the values are shown (at step 0 unless --step is given).\n\n"
           "Text is never smaller than %.0f units (pixels in a PNG): where rows are too\n"
           "close for it, only every k-th wire is labelled, and structure labels that\n"
           "find no free place are left out rather than overlap.\n\n",
           SN_ZERO_ONE_MAX_WIRES, DRAW_SLIDE_W, DRAW_SLIDE_H, SN_EXPORT_MAX_PRIMS,
           SN_SCENE_MIN_FONT);
    cli_draw_dist_help();
    fputs(cli_input_help, stdout);
}

#define DRAW_MAX 3

/* The command line. */
typedef struct draw_opts {
    const char *out_path;
    const char *nets[DRAW_MAX];
    size_t count;
    sn_theme_id theme;
    sn_layout_opts lopt;
    cli_input in;
    bool have_step, have_follow, have_ones;
    bool have_size; /* --scale or --width given */
    bool force;     /* past SN_EXPORT_MAX_PRIMS */
    uint64_t step, follow, ones;
    draw_dist_opts dist; /* dist:P,NET (cmd_draw_dist.c) */
    sn_export_format fmt;
} draw_opts;

/* One network to draw and what goes with it. */
typedef struct draw_job {
    sn_schedule *s;
    uint32_t *keys, *path;
    sn_layout *lo;
    sn_zero_one zo;
    sn_draw_state st;
    sn_layout_opts lopt; /* what lo was made with */
    size_t swaps;
    bool sorted;
    char title[256];
} draw_job;

/* Run the whole network on the input: the keys after `step` layers, the
 * path of the element starting on wire `follow` (< 0: none), the swaps
 * done by then, whether the output is sorted, and the widest value label. */
static int simulate(const sn_schedule *s, const cli_input *in, size_t step, long follow,
                    draw_job *j, unsigned *chars)
{
    uint32_t n = sn_schedule_wires(s);
    size_t L = sn_schedule_layer_count(s);
    uint32_t *keys = NULL, *payload = NULL, *path = NULL, *work = NULL;
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
    payload = sn_calloc(n ? n : 1, sizeof *payload);
    work = sn_calloc(n ? n : 1, sizeof *work);
    if (follow >= 0)
        path = sn_calloc(L + 1, sizeof *path);
    if (!payload || !work || (follow >= 0 && !path)) {
        rc = cli_error(CLI_DEVICE, "draw", "out of memory");
        goto fail;
    }
    for (uint32_t i = 0; i < n; i++)
        payload[i] = i;
    if (path)
        path[0] = (uint32_t)follow;
    memcpy(work, keys, n * sizeof *keys);
    j->swaps = 0;
    for (size_t k = 0; k < L; k++) {
        size_t sw = sn_exec_layer(s, k, in->type, work, payload, NULL);
        if (k < step)
            j->swaps += sw;
        if (k + 1 == step)
            memcpy(keys, work, n * sizeof *keys);
        for (uint32_t i = 0; path && i < n; i++)
            if (payload[i] == (uint32_t)follow)
                path[k + 1] = i;
    }
    j->sorted = true;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (sn_key_to_ordered(in->type, work[i]) > sn_key_to_ordered(in->type, work[i + 1]))
            j->sorted = false;
    sn_free(work);
    sn_free(payload);
    j->keys = keys;
    j->path = path;
    return 0;
fail:
    sn_free(keys);
    sn_free(payload);
    sn_free(path);
    sn_free(work);
    return rc;
}

static int parse_number(const char *opt, const char *arg, uint64_t lo, uint64_t hi,
                        const char *what, uint64_t *out)
{
    if (!cli_parse_u64(arg, lo, hi, out))
        return cli_error(CLI_USAGE, opt, "'%s' is not %s", arg, what);
    return 0;
}

/* The options into o; non-zero: the exit code of a usage error. */
static int parse_args(int argc, char **argv, draw_opts *o)
{
    static const struct option opts[] = {
        {"output", 1, NULL, 'o'},    {"step", 1, NULL, 'k'},     {"theme", 1, NULL, 't'},
        {"scale", 1, NULL, 's'},     {"width", 1, NULL, 'w'},    {"follow", 1, NULL, 'f'},
        {"structure", 0, NULL, 'S'}, {"zero-one", 0, NULL, 'Z'}, {"ones", 1, NULL, 'O'},
        {"force", 0, NULL, 'F'},     CLI_INPUT_LONGOPTS,         {"help", 0, NULL, 'h'},
        {"keys", 1, NULL, 'K'},      {"seed", 1, NULL, 'e'},     {NULL, 0, NULL, 0}};
    uint64_t width = 0;
    int c, idx = 0, rc = 0;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":o:h", opts, &idx)) != -1) {
        switch (c) {
        case 'o': o->out_path = optarg; break;
        case 'k':
            rc = parse_number("--step", optarg, 0, UINT32_MAX, "a layer count", &o->step);
            o->have_step = true;
            break;
        case 'f':
            rc = parse_number("--follow", optarg, 0, UINT32_MAX, "a wire", &o->follow);
            o->have_follow = true;
            break;
        case 't':
            if (!sn_theme_parse(optarg, &o->theme))
                return cli_error(CLI_USAGE, "--theme",
                                 "'%s' is not a theme (light, dark or contrast)", optarg);
            break;
        case 's': {
            char *end;
            double v = strtod(optarg, &end);
            if (end == optarg || *end || !isfinite(v) || v <= 0 || v > 100)
                return cli_error(CLI_USAGE, "--scale", "'%s' is not a scale in (0, 100]", optarg);
            o->lopt.scale = v;
            o->have_size = true;
            break;
        }
        case 'w':
            rc = parse_number("--width", optarg, 1, 1000000, "a width in pixels (1..1000000)",
                              &width);
            o->lopt.width = (double)width;
            o->have_size = true;
            break;
        case CLI_OPT_INPUT: {
            int r = cli_input_option(&o->in, opts[idx].name, optarg);
            if (r != 1)
                return r ? r : CLI_USAGE;
            break;
        }
        case 'K':
            rc = parse_number("--keys", optarg, 1, SN_DIST_MAX_KEYS,
                              "a number of keys a rank (1..16)", &o->dist.keys);
            o->dist.have_keys = true;
            break;
        case 'e':
            rc = parse_number("--seed", optarg, 0, UINT64_MAX, "a seed", &o->dist.seed);
            o->dist.have_seed = true;
            break;
        case 'S': o->lopt.structure = true; break;
        case 'F': o->force = true; break;
        case 'Z': o->lopt.zero_one = true; break;
        case 'O':
            rc = parse_number("--ones", optarg, 0, SN_ZERO_ONE_MAX_WIRES, "a number of ones",
                              &o->ones);
            o->have_ones = true;
            break;
        case 'h': help(); return -1;
        default: return cli_bad_option("draw", c, argv);
        }
    }
    if (rc)
        return rc;
    if (optind >= argc)
        return cli_error(CLI_USAGE, "draw", "expected a network (see --help)");
    while (optind < argc) {
        if (o->count == DRAW_MAX)
            return cli_error(CLI_USAGE, "draw", "'%s': at most %d networks side by side",
                             argv[optind], DRAW_MAX);
        o->nets[o->count++] = argv[optind++];
    }
    if (!o->out_path)
        return cli_error(CLI_USAGE, "draw",
                         "no output file: give -o FILE (or -o - for SVG on "
                         "standard output)");
    if (o->have_ones && !o->lopt.zero_one)
        return cli_error(CLI_USAGE, "--ones", "goes with --zero-one");
    int rd =
        cli_draw_dist_args(&o->dist, (const char *const *)o->nets, o->count,
                           o->in.given || o->have_follow || o->lopt.structure || o->lopt.zero_one);
    if (rd)
        return rd;
    o->fmt = sn_export_format_from_path(o->out_path);
    if (o->fmt == SN_EXPORT_UNKNOWN)
        return cli_error(CLI_USAGE, cli_out_name(o->out_path),
                         "unknown picture format: the name must end in .svg, .png, .pdf or .tex");
    if (o->fmt == SN_EXPORT_TEX && o->count > 1)
        return cli_error(CLI_USAGE, cli_out_name(o->out_path),
                         "a .tex picture holds one network: use .svg, .png or .pdf for %zu",
                         o->count);
    return 0;
}

/* Is what the options ask possible for this network? */
static int check_job(const draw_opts *o, const draw_job *j)
{
    uint32_t n = sn_schedule_wires(j->s);
    size_t L = sn_schedule_layer_count(j->s);
    size_t size = sn_schedule_size(j->s);
    if (size > sn_limits_get().max_comparators)
        return cli_error(CLI_USAGE, sn_schedule_name(j->s),
                         "%zu comparators, more than --max-comparators (%zu) allows", size,
                         sn_limits_get().max_comparators);
    /* the one size limit, before anything is laid out or written */
    bool values = o->in.given || o->have_step || o->have_follow;
    double prims = sn_export_estimate(n, size, L, values, 0);
    if (!o->force && prims > SN_EXPORT_MAX_PRIMS)
        return cli_error(CLI_USAGE, cli_out_name(o->out_path),
                         "%s would take about %.0f drawing elements, more than the limit of "
                         "%.0f for any picture (the %s would be about %.0f MB); draw a smaller "
                         "network, or use --force to write it anyway",
                         sn_schedule_name(j->s), prims, SN_EXPORT_MAX_PRIMS,
                         sn_export_format_name(o->fmt), ceil(prims * 35 / 1e6));
    if (o->have_step && o->step > L && o->count == 1)
        return cli_error(CLI_USAGE, "--step", "%llu is past the last layer (the network has %zu)",
                         (unsigned long long)o->step, L);
    if (o->have_follow && o->follow >= n)
        return cli_error(CLI_USAGE, "--follow", "wire %llu does not exist (the network has %u)",
                         (unsigned long long)o->follow, (unsigned)n);
    return 0;
}

/* The 0-1 profile for --zero-one. */
static int zero_one_step(const draw_opts *o, draw_job *j)
{
    uint32_t n = sn_schedule_wires(j->s);
    if (n > SN_ZERO_ONE_MAX_WIRES)
        return cli_error(CLI_USAGE, "--zero-one",
                         "%s has %u wires; the 0-1 inputs are drawn for at most %d wires",
                         sn_schedule_name(j->s), (unsigned)n, SN_ZERO_ONE_MAX_WIRES);
    if (o->have_ones && o->ones > n)
        return cli_error(CLI_USAGE, "--ones", "%llu is more ones than %s has wires (%u)",
                         (unsigned long long)o->ones, sn_schedule_name(j->s), (unsigned)n);
    sn_diag d;
    sn_diag_clear(&d);
    sn_status zs = sn_zero_one_profile(j->s, SN_ZERO_ONE_MAX_WIRES, 0, &j->zo, &d);
    if (zs != SN_OK)
        return cli_error(cli_status_exit(zs), "--zero-one", "%s", sn_diag_text(&d, zs));
    j->st.zo = &j->zo;
    j->st.zo_ones = o->have_ones ? (uint32_t)o->ones : n / 2;
    return 0;
}

/* j's layout at that scale (replacing any it had). */
static int make_layout(draw_job *j, double scale)
{
    sn_layout_opts lopt = j->lopt;
    lopt.scale = scale;
    sn_layout_destroy(j->lo);
    j->lo = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status r = sn_layout_create(j->s, &lopt, &j->lo, &d);
    if (r != SN_OK)
        return cli_error(cli_status_exit(r), sn_schedule_name(j->s), "%s", sn_diag_text(&d, r));
    return 0;
}

/* A PNG without --scale or --width: scaled up (never down) to fill a
 * slide, so a small network is not a thumbnail. */
static int fill_slide(const draw_opts *o, draw_job *jobs, size_t count)
{
    if (o->fmt != SN_EXPORT_PNG || o->have_size)
        return 0;
    /* a few passes: layout is not quite linear in the scale (half-unit
     * snapping, title lines rounded) */
    for (int pass = 0; pass < 4; pass++) {
        const sn_layout *los[DRAW_MAX];
        const char *titles[DRAW_MAX];
        for (size_t i = 0; i < count; i++) {
            los[i] = jobs[i].lo;
            titles[i] = jobs[i].title;
        }
        double w = jobs[0].lo->width, h = jobs[0].lo->height;
        if (count > 1)
            sn_export_stack_size(los, titles, count, &w, &h);
        double f = fmin(DRAW_SLIDE_W / w, DRAW_SLIDE_H / h), now = jobs[0].lo->scale;
        if (f <= 1 && f > 0.995)
            return 0; /* fills it */
        double scale = fmax(1.0, now * f * 0.998);
        if (scale == now)
            return 0;
        for (size_t i = 0; i < count; i++) {
            int rc = make_layout(&jobs[i], scale);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* Values, path and title line; then the layout. */
static int layout_step(const draw_opts *o, draw_job *j)
{
    sn_layout_opts lopt = o->lopt;
    size_t L = sn_schedule_layer_count(j->s);
    size_t step = o->step < L ? (size_t)o->step : L;
    snprintf(j->title, sizeof j->title, "%s: %zu comparators, %zu layers", sn_schedule_name(j->s),
             sn_schedule_size(j->s), L);
    if (o->in.given || o->have_step || o->have_follow) {
        unsigned chars = 1;
        int rc = simulate(j->s, &o->in, step, o->have_follow ? (long)o->follow : -1, j, &chars);
        if (rc)
            return rc;
        j->st.step = step;
        j->st.values = j->keys;
        j->st.type = o->in.type;
        j->st.path = j->path;
        lopt.show_values = true;
        lopt.value_chars = chars;
        lopt.value_step = (long)step;
        size_t len = strlen(j->title);
        if (step == 0)
            snprintf(j->title + len, sizeof j->title - len, "; the input");
        else
            snprintf(j->title + len, sizeof j->title - len, "; after layer %zu: %zu swaps%s", step,
                     j->swaps,
                     step < L    ? ""
                     : j->sorted ? ", sorted"
                                 : ", NOT sorted");
    }
    lopt.min_font = SN_SCENE_MIN_FONT;
    j->lopt = lopt;
    int rc = make_layout(j, lopt.scale);
    if (rc)
        return rc;
    if (lopt.structure && j->lo->block_count == 0)
        fprintf(stderr,
                "sortnet: --structure: %s has no recursive structure to label (only "
                "generated bitonic, bitonic-classic, oddeven-merge, pairwise and "
                "transposition networks have)\n",
                sn_schedule_name(j->s));
    return 0;
}

/* Write the picture atomically (one diagram, or the stack). */
static int write_step(const draw_opts *o, draw_job *jobs, size_t count)
{
    const sn_layout *los[DRAW_MAX];
    const sn_draw_state *sts[DRAW_MAX];
    const char *titles[DRAW_MAX];
    for (size_t i = 0; i < count; i++) {
        los[i] = jobs[i].lo;
        sts[i] = &jobs[i].st;
        titles[i] = jobs[i].title;
    }
    const sn_layout *lo = jobs[0].lo;
    double w = lo->width, h = lo->height;
    if (count > 1)
        sn_export_stack_size(los, titles, count, &w, &h);
    sn_diag d;
    sn_diag_clear(&d);
    sn_status cs =
        sn_export_check(o->fmt, los, count, jobs[0].st.values != NULL, w, h, o->force, &d);
    if (cs != SN_OK)
        return cli_error(CLI_USAGE, cli_out_name(o->out_path), "%s", d.text);
    cli_out out;
    int rc = cli_out_open(&out, o->out_path);
    if (rc)
        return rc;
    const sn_theme *th = sn_theme_get(o->theme);
    sn_status r = count == 1
                      ? sn_export_write(out.f, o->fmt, lo, th, &jobs[0].st, &d)
                      : sn_export_write_stack(out.f, o->fmt, los, sts, titles, count, th, &d);
    if (r != SN_OK) {
        cli_out_abort(&out);
        return cli_error(cli_status_exit(r), cli_out_name(o->out_path), "%s", sn_diag_text(&d, r));
    }
    return cli_out_commit(&out);
}

int cmd_draw(int argc, char **argv)
{
    draw_opts o;
    memset(&o, 0, sizeof o);
    o.theme = SN_THEME_LIGHT;
    o.lopt = (sn_layout_opts){1.0, 0, false, 0, -1, false, false, 0, 0, 0, 0};
    cli_input_init(&o.in);
    int rc = parse_args(argc, argv, &o);
    if (rc)
        return rc < 0 ? CLI_OK : rc;
    if (sn_dist_spec_is(o.nets[0])) {
        draw_dist_opts *d = &o.dist;
        *d = (draw_dist_opts){o.nets[0],    o.out_path,   o.fmt,       o.theme, d->have_keys,
                              d->have_seed, o.have_step,  o.have_size, d->keys, d->seed,
                              o.step,       o.lopt.scale, o.lopt.width};
        return cli_draw_dist(d);
    }
    draw_job jobs[DRAW_MAX];
    memset(jobs, 0, sizeof jobs);
    size_t made = 0;
    for (; rc == 0 && made < o.count; made++) {
        draw_job *j = &jobs[made];
        sn_draw_state_init(&j->st);
        if ((rc = cli_input_load_net(&o.in, o.nets[made], &j->s)) != 0)
            break;
        if (made > 0 && sn_schedule_wires(j->s) != sn_schedule_wires(jobs[0].s))
            rc = cli_error(CLI_USAGE, o.nets[made],
                           "has %u wires but %s has %u: networks side by side need the same n",
                           sn_schedule_wires(j->s), o.nets[0], sn_schedule_wires(jobs[0].s));
        if (rc == 0)
            rc = check_job(&o, j);
        if (rc == 0 && o.lopt.zero_one)
            rc = zero_one_step(&o, j);
        if (rc == 0)
            rc = layout_step(&o, j);
    }
    if (rc == 0)
        rc = fill_slide(&o, jobs, o.count);
    if (rc == 0)
        rc = write_step(&o, jobs, o.count);
    for (size_t i = 0; i < o.count; i++) {
        sn_zero_one_free(&jobs[i].zo);
        sn_layout_destroy(jobs[i].lo);
        sn_free(jobs[i].keys);
        sn_free(jobs[i].path);
        sn_schedule_destroy(jobs[i].s);
    }
    return rc;
}
