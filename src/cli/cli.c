/* cli.c - what the subcommands share: error messages, loading networks,
 * the input options, printing keys, and atomic output files. */
#include "cli.h"

#include <errno.h>
#include <getopt.h> // for: optind
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h> // for: fchmod, umask
#include <unistd.h>

#include "core/alloc.h"
#include "core/format.h"

int cli_error(int code, const char *what, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "sortnet: %s: ", what);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
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
        rc = cli_error(cli_status_exit(st), sn_schedule_name(sched), "%s",
                       d.text[0] ? d.text : sn_status_str(st));
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
        fprintf(stderr, "sortnet: %s\n", d.text);
    else
        fprintf(stderr, "sortnet: %s: %s\n", spec, sn_status_str(st));
    /* only for the limits the global options raise (not, e.g., a file's size) */
    if (st == SN_ELIMIT && d.limit != SN_LIMIT_NONE)
        fprintf(stderr,
                "sortnet: %s: the limits can be raised with `sortnet --max-wires N "
                "--max-comparators N --max-layers N COMMAND ...` (see docs/limits.md)\n",
                spec);
    return cli_status_exit(st);
}

const char cli_input_help[] =
    "Input (one of; default: a random permutation of 1..n):\n"
    "  --input 3,1,2     exactly n values, separated by commas and/or blanks\n"
    "                    (\"5 1 4 2\" too)\n"
    "  --input-file FILE the keys of a file (- reads stdin): values separated\n"
    "                    by commas, blanks or newlines, # starts a comment; a\n"
    "                    generator named without :N (bitonic, radix) takes n\n"
    "                    from the file, a network of fixed n needs n keys\n"
    "  --binary          the key file (and --output) as raw little-endian\n"
    "                    4-byte keys of the --type\n"
    "  --random SEED     a random permutation of 1..n from SEED (the same on\n"
    "                    every machine; above 2^22 keys made on all cores by\n"
    "                    a scatter shuffle, below by Fisher-Yates)\n"
    "  --reverse         n, n-1, ..., 1\n"
    "  --sorted          1, 2, ..., n\n"
    "  --bits 0110       a 0-1 input, one character per wire\n"
    "  --type T          key type: i32 (default), u32 or f32 (IEEE totalOrder)\n";

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
            return cli_error(CLI_USAGE, "--random", "'%s' is not a seed (a decimal number)", arg);
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

/* The largest key file read: 2^31 binary keys; text needs more bytes per
 * key. What memory allows is checked apart (cli_memory_check). */
#define KEY_FILE_MAX ((size_t)1 << 36)

int cli_keys_read(const char *path, bool binary, sn_key_type t, uint32_t **keys, size_t *count)
{
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    struct stat sb;
    /* A regular file: text gives at most a key per 2 bytes (4 bytes each),
     * binary a key per 4; the bytes are held meanwhile. */
    if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        int rc = cli_memory_check(name, (uint64_t)sb.st_size * (binary ? 2 : 3));
        if (rc)
            return rc;
    }
    char *buf = NULL;
    size_t len = 0;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_file_read_all(path, KEY_FILE_MAX, &buf, &len, &d);
    if (st == SN_OK)
        st = sn_keys_parse(name, buf, len, t, binary, keys, count, &d);
    sn_free(buf);
    if (st != SN_OK) {
        fprintf(stderr, "sortnet: %s\n", d.text[0] ? d.text : sn_status_str(st));
        return cli_status_exit(st);
    }
    if (*count == 0) {
        sn_free(*keys);
        *keys = NULL;
        return cli_error(CLI_USAGE, name, "no keys in the file (%s)",
                         binary ? "it is empty" : "it is empty or holds only blanks and comments");
    }
    if (*count > UINT32_MAX) {
        sn_free(*keys);
        *keys = NULL;
        return cli_error(CLI_USAGE, name, "%zu keys: at most 2^32-1 are taken", *count);
    }
    return 0;
}

/* The key file's keys, read once per process (stdin cannot be read
 * twice) and held until exit. */
static struct {
    const char *file;
    uint32_t *keys;
    size_t count;
} key_file;

int cli_input_finish(cli_input *in, bool has_output)
{
    if (in->binary && !in->file && !has_output)
        return cli_error(CLI_USAGE, "--binary",
                         "goes with --input-file (or --output where a command writes keys): "
                         "it reads or writes raw 4-byte keys");
    if (!in->file || in->keys)
        return 0;
    if (!key_file.keys) {
        uint32_t *k = NULL;
        size_t count = 0;
        int rc = cli_keys_read(in->file, in->binary, in->type, &k, &count);
        if (rc)
            return rc;
        key_file.file = in->file;
        key_file.keys = k;
        key_file.count = count;
    }
    in->keys = key_file.keys;
    in->count = key_file.count;
    return 0;
}

const char *cli_input_sized_spec(const cli_input *in, const char *spec, char *buf, size_t cap,
                                 bool *sized)
{
    sn_algo algo;
    struct stat sb;
    *sized = false;
    if (!in->file || !in->keys || strchr(spec, ':') || strcmp(spec, "-") == 0 ||
        stat(spec, &sb) == 0 || !sn_algo_parse(spec, &algo))
        return spec;
    snprintf(buf, cap, "%s:%zu", spec, in->count);
    *sized = true;
    return buf;
}

/* "keys.txt has 5 keys, but bitonic:8 has 8 wires" */
static int count_mismatch(const cli_input *in, const char *net, uint32_t n)
{
    return cli_error(CLI_USAGE, in->spec.text,
                     "%zu key%s, but %s has %u wire%s (a generator named without :N, e.g. "
                     "bitonic, takes n from the file)",
                     in->count, in->count == 1 ? "" : "s", net, n, n == 1 ? "" : "s");
}

int cli_input_load_net(cli_input *in, const char *spec, sn_schedule **out)
{
    int rc = cli_input_finish(in, true);
    if (rc)
        return rc;
    char buf[256];
    bool sized;
    const char *name = cli_input_sized_spec(in, spec, buf, sizeof buf, &sized);
    if ((rc = cli_load(name, out)) != 0)
        return rc;
    if (in->file && sn_schedule_wires(*out) != in->count) {
        rc = count_mismatch(in, name, sn_schedule_wires(*out));
        sn_schedule_destroy(*out);
        *out = NULL;
    }
    return rc;
}

static const char *option_of(sn_input_kind k)
{
    switch (k) {
    case SN_INPUT_LIST: return "--input";
    case SN_INPUT_BITS: return "--bits";
    case SN_INPUT_KEYS: return "--input-file";
    default: return "input";
    }
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

int cli_memory_check(const char *what, uint64_t bytes)
{
    uint64_t limit = cli_max_memory ? cli_max_memory : memory_available();
    if (limit == 0 || bytes <= limit)
        return 0;
    return cli_error(CLI_USAGE, what,
                     "needs about %.1f MiB of memory, but %s %.1f MiB (raise it with `sortnet "
                     "--max-memory BYTES COMMAND ...`, e.g. --max-memory 64G)",
                     (double)bytes / 1048576.0,
                     cli_max_memory ? "--max-memory allows" : "the system has only",
                     (double)limit / 1048576.0);
}

int cli_input_make(const cli_input *in, uint32_t n, uint32_t **keys)
{
    size_t bytes;
    if (in->file) {
        /* A caller that did not read the file yet (cli_input_finish). */
        cli_input own = *in;
        int rc = cli_input_finish(&own, true);
        if (rc)
            return rc;
        if (own.count != n)
            return count_mismatch(&own, "the network", n);
        if ((rc = cli_memory_check("input", (uint64_t)n * 16)) != 0)
            return rc;
        if (!sn_mul_size(n ? n : 1, sizeof **keys, &bytes) || !(*keys = sn_malloc(bytes)))
            return cli_error(CLI_USAGE, "input", "cannot allocate %u keys", n);
        memcpy(*keys, own.keys, (size_t)n * sizeof **keys);
        return 0;
    }
    /* The memory limit: the keys, the executor's working copy, the
     * trace's two arrays of n and payloads: about 16 bytes per wire,
     * refused before anything of size n is allocated. */
    int mrc = cli_memory_check("input", (uint64_t)(n ? n : 1) * 16);
    if (mrc != 0)
        return mrc;
    if (!sn_mul_size(n ? n : 1, sizeof **keys, &bytes) || !(*keys = sn_malloc(bytes)))
        return cli_error(CLI_USAGE, "input", "cannot allocate %u keys", n);
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_input_make(&in->spec, in->type, n, *keys, &d);
    if (st != SN_OK) {
        sn_free(*keys);
        *keys = NULL;
        return cli_error(cli_status_exit(st), option_of(in->spec.kind), "%s",
                         d.text[0] ? d.text : sn_status_str(st));
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

int cli_keys_write(const char *path, bool binary, sn_key_type t, const uint32_t *keys, size_t n)
{
    cli_out o;
    int rc = cli_out_open(&o, path);
    if (rc)
        return rc;
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        if (binary) {
            unsigned char b[4] = {(unsigned char)keys[i], (unsigned char)(keys[i] >> 8),
                                  (unsigned char)(keys[i] >> 16), (unsigned char)(keys[i] >> 24)};
            fwrite(b, 1, 4, o.f);
        } else {
            sn_key_format(t, keys[i], buf, sizeof buf);
            fputs(buf, o.f);
            fputc('\n', o.f);
        }
    }
    return cli_out_commit(&o);
}

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

int cli_out_open(cli_out *o, const char *path)
{
    memset(o, 0, sizeof *o);
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    size_t len = strlen(path);
    o->path = sn_strdup(path);
    o->tmp = sn_malloc(len + 32);
    if (!o->path || !o->tmp) {
        cli_out_abort(o);
        return cli_error(CLI_USAGE, path, "out of memory");
    }
    /* The temporary sits beside the target so rename() stays on one file
     * system and is atomic. mkstemp makes it private and unique. */
    snprintf(o->tmp, len + 32, "%s.tmpXXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        sn_free(o->tmp);
        o->tmp = NULL;
        cli_out_abort(o);
        return cli_error(CLI_USAGE, path, "cannot write: %s", strerror(e));
    }
    /* mkstemp creates 0600; give the file the mode a plain fopen would. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        close(fd);
        cli_out_abort(o);
        return cli_error(CLI_USAGE, path, "cannot write: %s", strerror(errno));
    }
    return 0;
}

int cli_out_commit(cli_out *o)
{
    if (!o->tmp) { /* stdout */
        if (fflush(stdout) != 0 || ferror(stdout))
            return cli_error(CLI_USAGE, "stdout", "write error: %s", strerror(errno));
        return 0;
    }
    int failed = ferror(o->f) != 0;
    if (fflush(o->f) != 0)
        failed = 1;
    int e = errno;
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    o->f = NULL;
    if (!failed && rename(o->tmp, o->path) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed) {
        char path[512];
        snprintf(path, sizeof path, "%s", o->path);
        cli_out_abort(o);
        return cli_error(CLI_USAGE, path, "write failed: %s", strerror(e));
    }
    sn_free(o->tmp);
    sn_free(o->path);
    o->tmp = o->path = NULL;
    return 0;
}

void cli_out_abort(cli_out *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    if (o->tmp)
        remove(o->tmp);
    sn_free(o->tmp);
    sn_free(o->path);
    memset(o, 0, sizeof *o);
}

int cli_bad_option(const char *cmd, int c, char **argv)
{
    const char *opt = argv[optind - 1];
    if (c == ':')
        return cli_error(CLI_USAGE, cmd, "option '%s' needs a value (see --help)", opt);
    return cli_error(CLI_USAGE, cmd, "unknown option '%s' (see --help)", opt);
}
