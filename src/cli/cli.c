/* cli.c - what the subcommands share: error messages, loading networks,
 * the input options, printing keys, and atomic output files. */
#include "cli.h"

#include <errno.h>
#include <getopt.h> // for: optind
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/format.h"

void cli_print_error(const char *fmt, ...)
{
    char text[4096], shown[4 * sizeof text];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(stderr, "sortnet: %s\n", sn_text_escape(text, shown, sizeof shown));
}

int cli_error(int code, const char *what, const char *fmt, ...)
{
    char text[4096];
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int len = vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (len < 0 || len >= (int)sizeof text) { /* (a build log): as it is */
        fprintf(stderr, "sortnet: %s: ", what);
        vfprintf(stderr, fmt, again);
        fputc('\n', stderr);
    } else {
        /* a core message that already names what (a loader's "bitonic:8:
         * out of memory") is not prefixed twice */
        size_t k = strlen(what);
        const char *t = text;
        if (k && strncmp(t, what, k) == 0 && t[k] == ':' && t[k + 1] == ' ')
            t += k + 2;
        cli_print_error("%s: %s", what, t);
    }
    va_end(again);
    return code;
}

int cli_status_exit(sn_status st)
{
    switch (st) {
    case SN_OK: return CLI_OK;
    case SN_ENODEVICE: return CLI_NOENV;
    case SN_EUNSUPPORTED: return CLI_NOENV;
    case SN_EDEVICE: return CLI_DEVICE;
    case SN_EBUILD: return CLI_DEVICE;
    case SN_ENOMEM: return CLI_DEVICE;
    case SN_EINTERRUPTED: return 130;
    default: return CLI_USAGE;
    }
}

int cli_load_network(const char *spec, sn_schedule **s, sn_network **net)
{
    sn_schedule *sched = NULL;
    *net = NULL;
    int rc = cli_load(spec, &sched);
    if (rc)
        return rc;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_to_network(sched, net, &d);
    if (st != SN_OK)
        rc = cli_error(cli_status_exit(st), sn_schedule_name(sched), "%s", sn_diag_text(&d, st));
    if (s && rc == 0)
        *s = sched;
    else
        sn_schedule_destroy(sched);
    return rc;
}

int cli_load(const char *spec, sn_schedule **out)
{
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_schedule_load(spec, out, &d);
    if (st == SN_OK)
        return 0;
    if (d.text[0])
        cli_print_error("%s", d.text);
    else
        cli_print_error("%s: %s", spec, sn_status_str(st));
    /* only for the limits the global options raise (not, e.g., a file's size) */
    if (st == SN_ELIMIT && d.limit != SN_LIMIT_NONE)
        cli_print_error("%s: the limits can be raised with `sortnet --max-wires N "
                        "--max-comparators N --max-layers N COMMAND ...` (see docs/limits.md)",
                        spec);
    return cli_status_exit(st);
}

const char cli_input_help[] =
    "Input (one of; default: a random permutation of 1..n):\n"
    "  --input 3,1,2     exactly n values, separated by commas and/or blanks\n"
    "                    (\"5 1 4 2\" too)\n"
    "  --input-file FILE the keys of a file (- reads stdin): values separated\n"
    "                    by commas, blanks or newlines, # starts a comment; a\n"
    "                    network of fixed n needs n keys\n"
    "  --binary          the key file (and --output) as raw little-endian\n"
    "                    4-byte keys of the --type\n"
    "  --random SEED     a random permutation of 1..n from SEED (the same on\n"
    "                    every machine; above 2^22 keys made on all cores by\n"
    "                    a scatter shuffle, below by Fisher-Yates)\n"
    "  --reverse         n, n-1, ..., 1\n"
    "  --sorted          1, 2, ..., n\n"
    "  --bits 0110       a 0-1 input, one character per wire\n"
    "  --type T          key type: i32 (default), u32 or f32 (IEEE totalOrder)\n"
    "A generator named without :N (bitonic, gpu sort's radix) takes n from\n"
    "--input, --bits or --input-file.\n";

void cli_input_init(cli_input *in)
{
    memset(in, 0, sizeof *in);
    in->spec.kind = SN_INPUT_RANDOM;
    /* A fresh seed per run; sn_input_describe shows it so a run can be
     * repeated with --random SEED. */
    in->spec.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
    in->spec.seed %= 1000000;
    in->type = SN_KEY_I32;
}

bool cli_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!s || *s < '0' || *s > '9')
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

int cli_type_arg(const char *arg, sn_key_type *out)
{
    if (!sn_key_type_parse(arg, out))
        return cli_error(CLI_USAGE, "--type", "'%s' is not i32, u32 or f32", arg);
    return 0;
}

int cli_input_option(cli_input *in, const char *name, const char *arg)
{
    if (strcmp(name, "type") == 0) {
        int rc = cli_type_arg(arg, &in->type);
        return rc ? rc : 1;
    }
    if (strcmp(name, "binary") == 0) {
        in->binary = true;
        return 1;
    }
    sn_input_spec s = {SN_INPUT_RANDOM, 0, NULL};
    if (strcmp(name, "input") == 0) {
        s.kind = SN_INPUT_LIST;
        s.text = arg;
    } else if (strcmp(name, "input-file") == 0) {
        s.kind = SN_INPUT_KEYS;
        s.text = strcmp(arg, "-") == 0 ? "<stdin>" : arg;
        in->file = arg;
    } else if (strcmp(name, "random") == 0) {
        s.kind = SN_INPUT_RANDOM;
        if (!cli_parse_u64(arg, 0, UINT64_MAX, &s.seed))
            return arg[0] && strspn(arg, "0123456789") == strlen(arg)
                       ? cli_error(CLI_USAGE, "--random",
                                   "'%s' is out of range: a seed is a whole number from 0 to "
                                   "18446744073709551615 (2^64-1)",
                                   arg)
                       : cli_error(CLI_USAGE, "--random", "'%s' is not a seed (a decimal number)",
                                   arg);
    } else if (strcmp(name, "reverse") == 0) {
        s.kind = SN_INPUT_REVERSE;
    } else if (strcmp(name, "sorted") == 0) {
        s.kind = SN_INPUT_SORTED;
    } else if (strcmp(name, "bits") == 0) {
        s.kind = SN_INPUT_BITS;
        s.text = arg;
    } else {
        return 0;
    }
    if (in->given) {
        char opt[48];
        snprintf(opt, sizeof opt, "--%s", name);
        return cli_error(CLI_USAGE, opt,
                         "only one of --input, --input-file, --random, --reverse, --sorted, "
                         "--bits may be given");
    }
    in->given = true;
    in->spec = s;
    return 1;
}

/* The option whose keys sn_input_make refused (a key file is read apart,
 * and the other kinds make their keys without fail). */
static const char *option_of(sn_input_kind k)
{
    return k == SN_INPUT_LIST ? "--input" : k == SN_INPUT_BITS ? "--bits" : "input";
}

uint64_t cli_max_memory;

/* MemAvailable of /proc/meminfo in bytes, else the physical memory, else 0
 * (unknown: no check). */
static uint64_t memory_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f) {
        char line[256];
        unsigned long long kb;
        while (fgets(line, sizeof line, f)) {
            if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
                fclose(f);
                return (uint64_t)kb * 1024;
            }
        }
        fclose(f);
    }
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* "48 bytes", "1.2 KiB", "1.5 MiB": a size a reader grasps */
static const char *size_text(uint64_t b, char *buf, size_t cap)
{
    if (b < 1024)
        snprintf(buf, cap, "%llu bytes", (unsigned long long)b);
    else if (b < 1048576)
        snprintf(buf, cap, "%.1f KiB", (double)b / 1024.0);
    else
        snprintf(buf, cap, "%.1f MiB", (double)b / 1048576.0);
    return buf;
}

int cli_memory_check(const char *what, uint64_t bytes)
{
    uint64_t limit = cli_max_memory ? cli_max_memory : memory_available();
    if (limit == 0 || bytes <= limit)
        return 0;
    char need[32], have[32];
    return cli_error(CLI_USAGE, what,
                     "needs about %s of memory, but %s %s (raise it with `sortnet "
                     "--max-memory BYTES COMMAND ...`, e.g. --max-memory 64G)",
                     size_text(bytes, need, sizeof need),
                     cli_max_memory ? "--max-memory allows" : "the system has only",
                     size_text(limit, have, sizeof have));
}

uint64_t cli_memory_limit(void)
{
    return cli_max_memory ? cli_max_memory : memory_available();
}

int cli_memory_stream_error(const char *what, uint64_t read_bytes, uint64_t per_byte)
{
    uint64_t limit = cli_memory_limit();
    char got[32], have[32];
    return cli_error(CLI_USAGE, what,
                     "more than %s read, which needs about %llu times as much memory, but %s %s "
                     "(raise it with `sortnet --max-memory BYTES COMMAND ...`, e.g. "
                     "--max-memory 64G)",
                     size_text(read_bytes, got, sizeof got), (unsigned long long)per_byte,
                     cli_max_memory ? "--max-memory allows" : "the system has only",
                     size_text(limit, have, sizeof have));
}

int cli_input_make(const cli_input *in, uint32_t n, uint32_t **keys)
{
    size_t bytes;
    if (in->file) /* cli_keys.c */
        return cli_input_file_keys(in, n, keys);
    /* The memory limit: the keys, the executor's working copy, the
     * trace's two arrays of n and payloads: about 16 bytes per wire,
     * refused before anything of size n is allocated. */
    int mrc = cli_memory_check("input", (uint64_t)(n ? n : 1) * 16);
    if (mrc != 0)
        return mrc;
    if (!sn_mul_size(n ? n : 1, sizeof **keys, &bytes) || !(*keys = sn_malloc(bytes)))
        return cli_error(CLI_DEVICE, "input", "out of memory for %u keys", n);
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_input_make(&in->spec, in->type, n, *keys, &d);
    if (st != SN_OK) {
        sn_free(*keys);
        *keys = NULL;
        return cli_error(cli_status_exit(st), option_of(in->spec.kind), "%s", sn_diag_text(&d, st));
    }
    return 0;
}

#ifdef SN_HAVE_JANSSON
json_t *cli_json_key(sn_key_type t, uint32_t bits)
{
    if (t == SN_KEY_I32)
        return json_integer((int32_t)bits);
    if (t == SN_KEY_U32)
        return json_integer(bits);
    float f;
    memcpy(&f, &bits, sizeof f);
    if (f == f && f - f == 0.0f)
        return json_real(f);
    char buf[32];
    sn_key_format(t, bits, buf, sizeof buf);
    return json_string(buf);
}

json_t *cli_json_value(sn_key_type t, uint32_t bits, bool payload)
{
    return payload ? json_integer(bits) : cli_json_key(t, bits);
}

int cli_json_print(json_t *o, size_t flags)
{
    int rc = json_dumpf(o, stdout, flags) == 0 ? CLI_OK : CLI_USAGE;
    putchar('\n');
    json_decref(o);
    return rc;
}
#endif

void cli_print_keys(FILE *f, sn_key_type t, const uint32_t *keys, uint32_t n)
{
    char buf[64];
    for (uint32_t i = 0; i < n; i++) {
        sn_key_format(t, keys[i], buf, sizeof buf);
        if (i)
            fputc(',', f);
        fputs(buf, f);
    }
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
    const char *opt = argv[optind - 1];
    if (c == ':')
        return cli_error(CLI_USAGE, cmd, "option '%s' needs a value (see --help)", opt);
    /* An unknown short option inside a word ("-dash.txt": 'd') leaves
     * optind on that word; one that ends its word has moved past it. */
    if (optopt > 0 && optopt < 256) {
        size_t k = strlen(opt);
        bool ends_prev = opt[0] == '-' && opt[1] != '-' && k > 1 && opt[k - 1] == (char)optopt;
        /* (optopt is also a long option's char value when it was given
         * "=VALUE" and takes none: then word neither starts with nor holds it) */
        const char *word = ends_prev ? opt : argv[optind];
        if (word && word[0] == '-' && word[1] == (char)optopt && strlen(word) > 2)
            return cli_error(CLI_USAGE, cmd,
                             "unknown option '%s' (see --help; a file whose name starts with "
                             "'-' is given as ./%s)",
                             word, word);
        if (word && word[0] == '-' && word[1] != '-' && strchr(word + 2, optopt))
            return cli_error(CLI_USAGE, cmd, "unknown option '-%c' in '%s' (see --help)",
                             (char)optopt, word);
    }
    return cli_error(CLI_USAGE, cmd, "unknown option '%s' (see --help)", opt);
}

void cli_catch_signal(int sig, void (*handler)(int), int flags, struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, old);
}

const char *cli_out_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "stdout" : path;
}
