/* cmd_view.c - `sortnet view [NET] [input] [--script KEYS] [--screenshot FILE]
 * [--record OUT] [--stats] [--size WxH] [--dump-state FILE] [--theme T]
 * [--lesson FILE] [--stay] [--sound] [--font-scale F]`: the step-through
 * window (src/window; headless, src/headless, with no display or no SDL2),
 * one network or up to three side by side. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#ifdef SN_HAVE_SDL
#include "window/window.h"
#else
#include "headless/run.h"
#endif
#include "cli.h"
#include "cli_dist.h"
#include "commands.h"
#include "core/alloc.h"
#include "render/palette.h"

/* Seed of --random-less scripted runs: the same script gives the same
 * picture on every run. */
#define VIEW_SCRIPT_SEED 1

static void help(void)
{
    printf("usage: sortnet view [NET [NET2 [NET3]]] [INPUT] [--script KEYS [--stay]]\n"
           "                    [--lesson FILE | --link TEXT] [--screenshot FILE] [--record OUT]\n"
           "                    [--stats] [--size WxH] [--theme light|dark|contrast]\n"
           "                    [--font-scale F] [--sound] [--dump-state FILE] [--discard]\n"
           "       sortnet view dist:P[,NET] [--keys K] [INPUT] [options]\n\n"
           "Open the step-through window on NET (default bitonic:16): the network on top,\n"
           "the array as bars below, the current layer highlighted in both. Press H in\n"
           "the window for the keys (arrows step, Space plays, R/V/0 new inputs, 1-6\n"
           "generators, [ ] change n, W structure blocks, Z the 0-1 chart, P screenshot,\n"
           "S SVG, F11 full screen, T theme, Ctrl +/- text size, M sound).\n\n"
           "Layers count from 1: \"after layer 3 of 10\" shows the values once layers 1-3\n"
           "have acted (step 0 is the input); after the last one the window says\n"
           "\"sorted\" or \"NOT sorted\" and outlines the outputs out of order in red.\n\n"
           "Side by side: two or three networks with the same n, stacked, on the same\n"
           "input, stepped together (one that has finished waits), each with its own\n"
           "layer, comparisons, swaps and verdict.\n\n"
           "Lessons (--lesson FILE, format in docs/lessons.md; three are built in:\n"
           "--lesson 01, 02 or 03, named in assets/lessons):\n"
           "steps with networks, an input, keys and a caption in large type. Right/Left\n"
           "and a clicker's PgDn/PgUp move between steps; Down/Up step layers.\n\n"
           "dist:P[,NET] (NET any network on P wires; alone: the best known) shows the\n"
           "merge-split theorem: each wire a rank holding a sorted block of keys, each\n"
           "comparator a merge-split, the blocks after the local sort and after each\n"
           "layer; the step keys reveal one layer at a time and mark its merge-splits\n"
           "and the blocks they changed (R: new keys; --random SEED as in `sortnet draw\n"
           "dist:P,NET --seed SEED`; --keys K keys a rank, default 4).\n\n"
           "Edit mode (E; `sortnet view empty:N` starts in it): drag from one wire to\n"
           "another to add a comparator (the press wire gets the minimum, so an upward\n"
           "drag adds a reversed one), click a comparator to select it, Delete removes\n"
           "it, a drag moves it; Ctrl+Z / Ctrl+Y undo and redo, Ctrl+S saves. The status\n"
           "line says whether the network sorts (the 0-1 checker runs in the background)\n"
           "and compares its size with the best known. C races the computer: `sortnet\n"
           "search` for the same n (2..24) on a thread, its best beside yours in a panel\n"
           "(C again stops it); L loads its network as an undoable edit.\n\n%s\n"
           "  --script KEYS      replay keys, then exit, e.g. \"right right wait:500 p\";\n"
           "                     names: right left up down pageup pagedown space home\n"
           "                     end plus minus r v 0 b 1-7 [ ] o s p g h t w z m f11 q\n"
           "                     escape fit ctrl+plus ctrl+minus, wait:MS, click:X,Y,\n"
           "                     dclick:X,Y, wheel:X,Y,N, drag:X,Y,DX,DY (window points);\n"
           "                     edit mode: e undo redo delete tab ctrl+s, add:I,J[,COL]\n"
           "                     (into the earliest free layer from COL; without COL\n"
           "                     after the last use of I or J), del:LAYER,INDEX,\n"
           "                     move:LAYER,INDEX,COL, select:LAYER,INDEX (edit verbs\n"
           "                     count wires, layers and columns from 0, as files do;\n"
           "                     messages count layers from 1, as the status line),\n"
           "                     save:FILE (.json, .sn, else bracket), c l race race:from\n"
           "                     race:stop race:wait (until the computer reaches the\n"
           "                     best known size; n <= 12) race:load; scripted runs use\n"
           "                     virtual time (60 frames per second) and wait for each\n"
           "                     edit's verdict. An edit verb, edit key or save that\n"
           "                     fails (e.g. add: before e) ends the script: exit 2\n"
           "                     with its message on stderr\n"
           "  --stay             after the script, stay open for live teaching\n"
           "  --link TEXT        open what a page's link shows (the part of its address\n"
           "                     after '#', or `sortnet web --link`): the network, input,\n"
           "                     step, or a lesson and its step; a bad or truncated link\n"
           "                     is one line saying what is wrong, exit 2\n"
           "  --lesson FILE      play a lesson (errors name FILE:LINE:COLUMN), or a\n"
           "                     built-in one by name\n"
           "  --screenshot FILE  save the final frame as PNG once animations settle, exit\n"
           "  --record OUT       record the session with the script's timing: OUT.gif\n"
           "                     (animated GIF), OUT.mp4 / OUT.webm (through ffmpeg),\n"
           "                     else a folder of PNG frames plus frames.ffconcat\n"
           "  --stats            print frame-time percentiles on exit\n"
           "  --size WxH         window size in points (default 1280x800)\n"
           "  --theme T          light (default), dark or contrast (for projectors)\n"
           "  --font-scale F     every text F times larger (0.6 to 3; Ctrl +/- too)\n"
           "  --sound            a tone per comparison from the start (M toggles; off\n"
           "                     by default; no audio device: silence)\n"
           "  --dump-state FILE  write the final state (step, values, message, the network\n"
           "                     as bracket layers, edit mode's verdict, the race) as text;\n"
           "                     selected: and redundant: count from 0, as the verbs\n"
           "  --discard          let a script end with unsaved edits (else it fails)\n"
           "  -h, --help         this text\n\n"
           "Without a display (DISPLAY/WAYLAND_DISPLAY unset), or in a sortnet built\n"
           "without SDL2, a --script or --screenshot runs headless: the same frames,\n"
           "screenshots, recordings and state as in the window, with no window. A live\n"
           "session, --stay or --sound needs a window (exit 3 without one).\n"
           "Scripted runs without an input option use --random %d.\n",
           cli_input_help, VIEW_SCRIPT_SEED);
}

static bool parse_size(const char *s, int *w, int *h)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || (*end != 'x' && *end != 'X'))
        return false;
    const char *t = end + 1;
    long y = strtol(t, &end, 10);
    if (end == t || *end || x < 160 || y < 120 || x > 16384 || y > 16384)
        return false;
    *w = (int)x;
    *h = (int)y;
    return true;
}

/* --input-file: n from the file for generators named without :N (the
 * default network too: bitonic), every network's n checked against the
 * key count, and the keys handed to the window as a value list (the text
 * lives until exit: the window borrows it). */
static int file_input(cli_input *in, sn_run_options *o)
{
    static char names[3][256];
    static char *text;
    int rc = cli_input_finish(in, false);
    if (rc)
        return rc;
    if (o->lesson)
        return cli_error(CLI_USAGE, "--input-file", "a lesson sets its own inputs");
    const char **nets[3] = {&o->net, &o->more[0], &o->more[1]};
    if (!o->net)
        o->net = "bitonic";
    for (int i = 0; i < 3 && *nets[i]; i++) {
        bool sized;
        sn_schedule *s = NULL;
        if ((rc = cli_input_load_net(in, *nets[i], &s)) != 0)
            return rc;
        sn_schedule_destroy(s);
        *nets[i] = cli_input_sized_spec(in, *nets[i], names[i], sizeof names[i], &sized);
    }
    size_t cap = in->count * 16 + 1;
    if (!(text = sn_malloc(cap)))
        return cli_error(CLI_DEVICE, "--input-file", "out of memory for %zu keys", in->count);
    size_t at = 0;
    for (size_t i = 0; i < in->count; i++) {
        char key[64];
        sn_key_format(in->type, in->keys[i], key, sizeof key);
        at += (size_t)snprintf(text + at, cap - at, "%s%s", i ? "," : "", key);
    }
    in->spec.kind = SN_INPUT_LIST;
    in->spec.text = text;
    return 0;
}

/* dist:P,NET names checked before any window opens (wrong wires exit 2,
 * not 3 without a display), with --keys K written into them. */
static int dist_names(sn_run_options *o, uint64_t keys)
{
    static char names[3][600];
    const char **nets[3] = {&o->net, &o->more[0], &o->more[1]};
    bool any = false;
    for (int i = 0; i < 3; i++) {
        if (!*nets[i] || !sn_dist_spec_is(*nets[i]))
            continue;
        any = true;
        sn_dist_spec ds;
        int rc = cli_dist_load(*nets[i], &ds, NULL);
        if (rc)
            return rc;
        if (keys) {
            snprintf(names[i], sizeof names[i], "dist:%ux%u,%s", (unsigned)ds.ranks, (unsigned)keys,
                     ds.net);
            *nets[i] = names[i];
        }
    }
    if (keys && !any)
        return cli_error(CLI_USAGE, "--keys", "goes with dist:P,NET (the merge-split picture)");
    return 0;
}

int cmd_view(int argc, char **argv)
{
    double start = sn_run_now();
    enum {
        OPT_SCRIPT = 1,
        OPT_SHOT,
        OPT_RECORD,
        OPT_STATS,
        OPT_SIZE,
        OPT_DUMP,
        OPT_THEME,
        OPT_DISCARD,
        OPT_LESSON,
        OPT_STAY,
        OPT_SOUND,
        OPT_FONT,
        OPT_KEYS,
        OPT_LINK
    };
    static const struct option longopts[] = {
        CLI_INPUT_LONGOPTS,
        {"script", 1, NULL, OPT_SCRIPT},
        {"screenshot", 1, NULL, OPT_SHOT},
        {"record", 1, NULL, OPT_RECORD},
        {"stats", 0, NULL, OPT_STATS},
        {"size", 1, NULL, OPT_SIZE},
        {"dump-state", 1, NULL, OPT_DUMP},
        {"theme", 1, NULL, OPT_THEME},
        {"discard", 0, NULL, OPT_DISCARD},
        {"lesson", 1, NULL, OPT_LESSON},
        {"stay", 0, NULL, OPT_STAY},
        {"sound", 0, NULL, OPT_SOUND},
        {"font-scale", 1, NULL, OPT_FONT},
        {"keys", 1, NULL, OPT_KEYS},
        {"link", 1, NULL, OPT_LINK},
        {"help", 0, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    cli_input in;
    cli_input_init(&in);
    sn_run_options o;
    memset(&o, 0, sizeof o);
    o.start_seconds = start;
    optind = 1;
    uint64_t keys = 0;
    int c, idx;
    while ((c = getopt_long(argc, argv, ":h", longopts, &idx)) != -1) {
        switch (c) {
        case CLI_OPT_INPUT: {
            int r = cli_input_option(&in, longopts[idx].name, optarg);
            if (r > 1)
                return r;
            break;
        }
        case OPT_SCRIPT: o.script = optarg; break;
        case OPT_SHOT: o.screenshot = optarg; break;
        case OPT_RECORD: o.record = optarg; break;
        case OPT_LESSON: o.lesson = optarg; break;
        case OPT_LINK: o.link = optarg; break;
        case OPT_STAY: o.stay = true; break;
        case OPT_SOUND: o.sound = true; break;
        case OPT_FONT: {
            char *end;
            double f = strtod(optarg, &end);
            if (end == optarg || *end || !(f >= 0.6 && f <= 3))
                return cli_error(CLI_USAGE, "--font-scale", "'%s' is not a factor from 0.6 to 3",
                                 optarg);
            o.font_scale = f;
            break;
        }
        case OPT_KEYS:
            if (!cli_parse_u64(optarg, 1, SN_DIST_MAX_KEYS, &keys))
                return cli_error(CLI_USAGE, "--keys", "'%s' is not a number of keys a rank (1..%u)",
                                 optarg, SN_DIST_MAX_KEYS);
            break;
        case OPT_STATS: o.stats = true; break;
        case OPT_DUMP: o.dump_state = optarg; break;
        case OPT_DISCARD: o.discard = true; break;
        case OPT_SIZE:
            if (!parse_size(optarg, &o.width, &o.height))
                return cli_error(CLI_USAGE, "--size",
                                 "'%s' is not WxH (e.g. 1920x1080, 160x120 or more)", optarg);
            break;
        case OPT_THEME: {
            sn_theme_id t;
            if (!sn_theme_parse(optarg, &t))
                return cli_error(CLI_USAGE, "--theme", "'%s' is not light, dark or contrast",
                                 optarg);
            o.theme = t;
            break;
        }
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("view", c, argv);
        }
    }
    if (optind < argc)
        o.net = argv[optind++];
    for (int i = 0; i < 2 && optind < argc; i++)
        o.more[i] = argv[optind++];
    if (optind < argc)
        return cli_error(CLI_USAGE, "view",
                         "unexpected argument '%s' (one to three networks side by side)",
                         argv[optind]);
    if (o.link && (o.net || o.lesson || in.given || keys))
        return cli_error(CLI_USAGE, "--link", "the link says the network, input and step: drop %s",
                         o.net ? o.net : o.lesson ? "--lesson" : keys ? "--keys" : "the input option");
    if (o.lesson && o.net)
        return cli_error(CLI_USAGE, "--lesson", "a lesson sets its own networks: drop '%s'", o.net);
    int rd = dist_names(&o, keys);
    if (rd)
        return rd;
    if (o.stay && !o.script)
        return cli_error(CLI_USAGE, "--stay", "goes with --script (run it, then stay open)");
    if (!in.given && (o.script || o.screenshot || o.record))
        in.spec.seed = VIEW_SCRIPT_SEED;
    if (in.file) {
        int r = file_input(&in, &o);
        if (r)
            return r;
    } else { /* a generator named without :N takes n from --input or --bits */
        static char names[3][64];
        const char **nets[3] = {&o.net, &o.more[0], &o.more[1]};
        for (int i = 0; i < 3 && *nets[i]; i++) {
            bool sized;
            *nets[i] = cli_input_sized_spec(&in, *nets[i], names[i], sizeof names[i], &sized);
        }
    }
    o.input.kind = in.spec.kind;
    o.input.seed = in.spec.seed;
    o.input.text = in.spec.text;
    o.input.type = in.type;
#ifdef SN_HAVE_SDL
    return sn_window_run(&o);
#else
    return sn_headless_run(&o); /* built without the window */
#endif
}
