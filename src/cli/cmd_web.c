/* cmd_web.c - `sortnet web [NET] [--lesson FILE|NAME] [INPUT] -o FILE`:
 * write the page (docs/web.md) as ONE self-contained HTML file: the
 * template of src/web/page with its styles, scripts, the WebAssembly
 * engine as base64 and a config saying what to open first, all embedded
 * into this binary at build time (web_embed.h).
 *
 * Everything the page will open is checked here first (the network, the
 * input against its n, a lesson file played through), so a mistake is an
 * error naming FILE:LINE:COLUMN before anything is written. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> // for: stat (is NET a file?)

#include "cli.h"
#include "cli_dist.h"
#include "commands.h"
#include "core/alloc.h"
#include "core/format.h"
#include "web_embed.h"
#include "session/lesson.h" // for: sn_lesson_load, sn_lesson_check (a lesson file checked here)
#include "session/link.h"   // for: sn_link_encode (--link)

/* Network and lesson files larger than this are not embedded. */
#define WEB_TEXT_MAX ((size_t)16 << 20)

static void help(void)
{
    printf("usage: sortnet web [NET] [--lesson FILE|NAME] [INPUT] -o FILE.html\n"
           "       sortnet web --link NET [INPUT] [--step K]\n\n"
           "Write the page: ONE self-contained HTML file holding the engine (sortnet's\n"
           "core and layout compiled to WebAssembly), the page's script and styles,\n"
           "the shipped networks and lessons. Any browser opens it from disk\n"
           "(file://), a web server or an e-mail attachment, with no network access.\n"
           "The page steps, plays, edits (with the live verdict), shows the 0-1 panel\n"
           "and lessons, and downloads networks and SVG diagrams; where the browser\n"
           "has WebGPU, \"Run on this GPU\" runs the network there and verifies it\n"
           "layer by layer against the WebAssembly reference (docs/web.md).\n\n"
           "It opens on NET (default bitonic:16; a name as everywhere, or a file in\n"
           "any format, embedded as text) or on a lesson.\n\n"
           "  -o, --output FILE   the HTML file (written atomically, mode 0644)\n"
           "  --lesson FILE|NAME  open on a lesson: a file (checked here: errors name\n"
           "                      FILE:LINE:COLUMN) or a shipped one (01 to 04); a\n"
           "                      lesson of exercises (04, or your own 'exercise:'\n"
           "                      lines) is graded in the page: hand it out\n"
           "  --link NET          print the part of a page's address after '#' that\n"
           "                      opens NET (a name, or a file: its comparators) on\n"
           "                      the input at --step K; append it to the page's\n"
           "                      address (page.html#v1&net=...), or open it in the\n"
           "                      window with `sortnet view --link` (docs/web.md)\n"
           "  --step K            with --link: K layers applied (0 to the layers)\n"
           "  -h, --help          this text\n\n"
           "Input (one of; default: random with seed 1):\n"
           "  --input 3,1,2 | --random SEED | --reverse | --sorted | --bits 0110\n"
           "A generator named without :N (bitonic) takes n from --input or --bits.\n");
}

/* s as a JSON string. '<', '>' and '&' are escaped too: the config sits
 * in a <script> element that "</script" would end. */
static void quoted(FILE *f, const char *s, size_t len)
{
    fputc('"', f);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void member(FILE *f, bool *first, const char *key, const char *s, size_t len)
{
    if (!s)
        return;
    fprintf(f, "%s\"%s\":", *first ? "" : ",", key);
    quoted(f, s, len);
    *first = false;
}

/* The module as base64, the way a browser's atob() reads it back. Written
 * here in a few lines rather than at build time, so that the binary holds
 * the module once, in its 3/4 size; no library needed for this. */
static void base64(FILE *f, const unsigned char *p, size_t n)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char out[4];
    for (size_t i = 0; i < n; i += 3) {
        unsigned long v = (unsigned long)p[i] << 16;
        if (i + 1 < n)
            v |= (unsigned long)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        out[0] = a[v >> 18 & 63];
        out[1] = a[v >> 12 & 63];
        out[2] = i + 1 < n ? a[v >> 6 & 63] : '=';
        out[3] = i + 2 < n ? a[v & 63] : '=';
        fwrite(out, 1, 4, f);
    }
}

/* What the page opens first: the config's strings (NULL: absent). */
typedef struct web_config {
    const char *net, *input;
    const char *net_text, *net_file;
    size_t net_len;
    const char *lesson, *lesson_text, *lesson_file;
    size_t lesson_len;
} web_config;

/* The template with each @SN_NAME@ marker replaced. */
static void write_page(FILE *f, const web_config *c)
{
    const char *t = (const char *)sn_web_template, *m;
    while ((m = strstr(t, "@SN_")) != NULL) {
        fwrite(t, 1, (size_t)(m - t), f);
        const char *end = strchr(m + 4, '@');
        size_t len = end ? (size_t)(end - m) + 1 : strlen(m);
        const char *text = NULL;
        if (strncmp(m, "@SN_STYLE@", len) == 0)
            text = (const char *)sn_web_style;
        else if (strncmp(m, "@SN_SCRIPT@", len) == 0)
            text = (const char *)sn_web_script;
        else if (strncmp(m, "@SN_WORKER@", len) == 0)
            text = (const char *)sn_web_worker;
        if (text) {
            fputs(text, f);
        } else if (strncmp(m, "@SN_WASM@", len) == 0) {
            base64(f, sn_web_wasm, sn_web_wasm_size);
        } else if (strncmp(m, "@SN_CONFIG@", len) == 0) {
            bool first = true;
            fputc('{', f);
            member(f, &first, "net", c->net, c->net ? strlen(c->net) : 0);
            member(f, &first, "input", c->input, c->input ? strlen(c->input) : 0);
            member(f, &first, "net_text", c->net_text, c->net_len);
            member(f, &first, "net_file", c->net_file, c->net_file ? strlen(c->net_file) : 0);
            member(f, &first, "lesson", c->lesson, c->lesson ? strlen(c->lesson) : 0);
            member(f, &first, "lesson_text", c->lesson_text, c->lesson_len);
            member(f, &first, "lesson_file", c->lesson_file,
                   c->lesson_file ? strlen(c->lesson_file) : 0);
            fputc('}', f);
        } else {
            fwrite(m, 1, len, f); /* not one of ours: as it is */
        }
        t = m + len;
    }
    fputs(t, f);
}

static bool is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* NET that is a file (or "-"): its text, checked as the page will read it
 * (a file through cli_load, for its FILE:LINE:COLUMN messages). */
static int load_net_text(const char *spec, cli_input *in, web_config *c, char **text)
{
    bool is_stdin = strcmp(spec, "-") == 0;
    uint32_t n = 0;
    if (!is_stdin) {
        sn_schedule *s = NULL;
        int rc = cli_load(spec, &s);
        if (rc)
            return rc;
        n = sn_schedule_wires(s);
        sn_schedule_destroy(s);
    }
    size_t len = 0;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_file_read_all(spec, WEB_TEXT_MAX, text, &len, &d);
    if (st == SN_OK && is_stdin) {
        sn_network *net = NULL;
        if ((st = sn_network_parse(*text, len, SN_FORMAT_UNKNOWN, &net, &d)) == SN_OK)
            n = sn_network_wires(net);
        sn_network_destroy(net);
        if (st != SN_OK) {
            fprintf(stderr, "sortnet: <stdin>%s%s\n", d.line ? ":" : ": ", sn_diag_text(&d, st));
            return cli_status_exit(st);
        }
    }
    if (st != SN_OK)
        return cli_error(cli_status_exit(st), spec, "%s", sn_diag_text(&d, st));
    uint32_t *keys = NULL;
    int rc = cli_input_make(in, n, &keys);
    sn_free(keys);
    c->net_text = *text;
    c->net_len = len;
    c->net_file = is_stdin ? "stdin" : base_name(spec);
    return rc;
}

/* A lesson file's text, or a shipped lesson's name; played through first
 * by the session's lesson player first. */
static int load_lesson(const char *path, web_config *c, char **text)
{
    sn_lesson *l = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_lesson_load(path, &l, &d);
    if (st == SN_OK)
        st = sn_lesson_check(l, &d);
    sn_lesson_free(l);
    if (st != SN_OK) {
        fprintf(stderr, "sortnet: %s%s\n",
                strchr(d.text, ':') ? "" : "--lesson: ", sn_diag_text(&d, st));
        return cli_status_exit(st);
    }
    if (!is_file(path)) {
        c->lesson = path; /* a shipped lesson, by name */
        return 0;
    }
    sn_diag fd;
    sn_diag_clear(&fd);
    sn_status rst = sn_file_read_all(path, WEB_TEXT_MAX, text, &c->lesson_len, &fd);
    if (rst != SN_OK)
        return cli_error(cli_status_exit(rst), path, "%s", sn_diag_text(&fd, rst));
    c->lesson_text = *text;
    c->lesson_file = base_name(path);
    return 0;
}

/* The input options as the engine's input text ("random:7", "list:3,1,2"),
 * sn_malloc'd (NULL: none given, or out of memory with *oom set). */
static char *input_text(const cli_input *in, bool *oom)
{
    *oom = false;
    if (!in->given)
        return NULL;
    const char *kind = "random:", *text = "";
    char seed[32];
    switch (in->spec.kind) {
    case SN_INPUT_LIST: kind = "list:", text = in->spec.text; break;
    case SN_INPUT_BITS: kind = "bits:", text = in->spec.text; break;
    case SN_INPUT_REVERSE: kind = "reverse"; break;
    case SN_INPUT_SORTED: kind = "sorted"; break;
    default:
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)in->spec.seed);
        text = seed;
        break;
    }
    size_t len = strlen(kind) + strlen(text) + 1;
    char *s = sn_malloc(len);
    if (s)
        snprintf(s, len, "%s%s", kind, text);
    *oom = !s;
    return s;
}

/* --link NET [INPUT] [--step K]: the link text on stdout (session/link.h),
 * everything in it checked as the page will open it. */
static int print_link(const char *spec, cli_input *in, const char *step_text)
{
    sn_link l;
    sn_link_init(&l);
    char sbuf[512];
    bool sized = false, oom = false;
    bool file = is_file(spec) && (!strchr(spec, ':') || strchr(spec, '/'));
    const char *name = file ? spec : cli_input_sized_spec(in, spec, sbuf, sizeof sbuf, &sized);
    if (!file && sn_dist_spec_is(name))
        return cli_error(CLI_USAGE, "--link", "%s: a dist: picture is not carried by links", name);
    sn_schedule *s = NULL;
    int rc = cli_load(name, &s);
    uint32_t *keys = NULL;
    if (rc == 0)
        rc = cli_input_make(in, sn_schedule_wires(s), &keys);
    sn_free(keys);
    size_t layers = s ? sn_schedule_layer_count(s) : 0;
    uint64_t k = 0;
    if (rc == 0 && step_text && !cli_parse_u64(step_text, 0, layers, &k))
        rc = cli_error(CLI_USAGE, "--step", "'%s' is not a step of %s (0 to its %zu layers)",
                       step_text, name, layers);
    l.step = (size_t)k;
    if (rc == 0 && file) {
        const sn_network *net = sn_schedule_network(s);
        l.cmp = net ? sn_network_clone(net) : NULL;
        if (!l.cmp)
            rc = cli_error(CLI_DEVICE, "--link", "out of memory");
    } else if (rc == 0) {
        size_t len = strlen(name) + 1;
        if ((l.net = sn_malloc(len)) != NULL)
            memcpy(l.net, name, len);
        else
            rc = cli_error(CLI_DEVICE, "--link", "out of memory");
    }
    sn_schedule_destroy(s);
    if (rc == 0) {
        l.input = input_text(in, &oom);
        if (oom)
            rc = cli_error(CLI_DEVICE, "--link", "out of memory");
    }
    if (rc == 0) {
        sn_textbuf b = SN_TEXTBUF_INIT;
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_link_encode(&l, &b, &d);
        if (st == SN_OK && b.failed)
            st = sn_diag_set(&d, SN_ENOMEM, 0, 0, "out of memory");
        if (st != SN_OK)
            rc = cli_error(cli_status_exit(st), "--link", "%s", sn_diag_text(&d, st));
        else
            printf("%s\n", b.s);
        sn_textbuf_free(&b);
    }
    sn_link_clear(&l);
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout)))
        rc = cli_error(CLI_DEVICE, "--link", "cannot write to standard output");
    return rc;
}

int cmd_web(int argc, char **argv)
{
    enum { OPT_LESSON = 1, OPT_LINK, OPT_STEP };
    static const struct option opts[] = {CLI_INPUT_LONGOPTS,
                                         {"lesson", 1, NULL, OPT_LESSON},
                                         {"link", 1, NULL, OPT_LINK},
                                         {"step", 1, NULL, OPT_STEP},
                                         {"output", 1, NULL, 'o'},
                                         {"help", 0, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    cli_input in;
    cli_input_init(&in);
    const char *out_path = NULL, *lesson = NULL, *link = NULL, *step = NULL;
    int c, idx = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:h", opts, &idx)) != -1) {
        switch (c) {
        case CLI_OPT_INPUT: {
            const char *name = opts[idx].name;
            if (strcmp(name, "input-file") == 0 || strcmp(name, "binary") == 0 ||
                strcmp(name, "type") == 0)
                return cli_error(CLI_USAGE, "web",
                                 "--%s: the page takes --input, --random, --reverse, --sorted "
                                 "or --bits (its keys are i32)",
                                 name);
            int rc = cli_input_option(&in, name, optarg);
            if (rc > 1)
                return rc;
            break;
        }
        case OPT_LESSON: lesson = optarg; break;
        case OPT_LINK: link = optarg; break;
        case OPT_STEP: step = optarg; break;
        case 'o': out_path = optarg; break;
        case 'h': help(); return CLI_OK;
        default: return cli_bad_option("web", c, argv);
        }
    }
    if (step && !link)
        return cli_error(CLI_USAGE, "--step", "goes with --link NET");
    if (link) {
        if (optind < argc || out_path || lesson)
            return cli_error(CLI_USAGE, "--link", "prints a link: no %s with it",
                             optind < argc ? "second network" : out_path ? "-o" : "--lesson");
        return print_link(link, &in, step);
    }
    if (optind < argc - 1)
        return cli_error(CLI_USAGE, "web", "expected at most one network (see --help)");
    if (!out_path)
        return cli_error(CLI_USAGE, "web", "needs -o FILE (e.g. -o sortnet.html)");
    const char *spec = optind < argc ? argv[optind] : NULL;
    if (lesson && spec)
        return cli_error(CLI_USAGE, "--lesson", "a lesson sets its own networks: drop '%s'", spec);
    if (lesson && in.given)
        return cli_error(CLI_USAGE, "--lesson", "a lesson sets its own inputs");

    web_config cfg;
    memset(&cfg, 0, sizeof cfg);
    char sbuf[512];
    bool oom;
    char *input = input_text(&in, &oom);
    if (oom)
        return cli_error(CLI_DEVICE, "web", "out of memory");
    cfg.input = input;
    char *text = NULL;
    int rc = 0;
    if (lesson) {
        rc = load_lesson(lesson, &cfg, &text);
    } else if (spec && (strcmp(spec, "-") == 0 ||
                        (is_file(spec) && (!strchr(spec, ':') || strchr(spec, '/'))))) {
        rc = load_net_text(spec, &in, &cfg, &text);
    } else {
        /* a name: checked (and sized by the input) as every command does */
        bool sized = false;
        const char *name =
            spec ? cli_input_sized_spec(&in, spec, sbuf, sizeof sbuf, &sized) : "bitonic:16";
        sn_schedule *s = NULL;
        uint32_t *keys = NULL;
        sn_dist_spec ds; /* dist:P,NET: the page's merge-split picture */
        rc = sn_dist_spec_is(name) ? cli_dist_load(name, &ds, &s) : cli_load(name, &s);
        if (rc == 0)
            rc = cli_input_make(&in, sn_schedule_wires(s), &keys);
        sn_free(keys);
        sn_schedule_destroy(s);
        cfg.net = name;
    }
    if (rc == 0) {
        cli_out out;
        rc = cli_out_open(&out, out_path);
        if (rc == 0) {
            write_page(out.f, &cfg);
            rc = cli_out_commit(&out);
        }
    }
    sn_free(text);
    sn_free(input);
    return rc;
}
