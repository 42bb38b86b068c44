/* cli_keys.c - keys from the user's data: `--input-file FILE|-
 * [--binary]` read once per process (sn_keys_parse does the parsing), the
 * network sized by the key count where its name leaves n open, and
 * `--output FILE` (the sorted keys, text or raw, written atomically). */
#include <string.h>
#include <sys/stat.h> // for: stat (a name that is a file, a key file's size)

#include "cli.h"
#include "core/alloc.h"
#include "core/format.h" // for: sn_file_read_all

/* The largest key file read: 2^31 binary keys; text needs more bytes per
 * key. What memory allows is checked apart (cli_memory_check). */
#define KEY_FILE_MAX ((size_t)1 << 36)

int cli_keys_read(const char *path, bool binary, sn_key_type t, uint32_t **keys, size_t *count)
{
    const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
    struct stat sb;
    /* A regular file: text gives at most a key per 2 bytes (4 bytes each),
     * binary a key per 4; the bytes are held meanwhile. */
    uint64_t per_byte = binary ? 2 : 3;
    size_t max = KEY_FILE_MAX;
    bool stream = true;
    if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        int rc = cli_memory_check(name, (uint64_t)sb.st_size * per_byte);
        if (rc)
            return rc;
        stream = false;
    }
    /* A stream (stdin, a pipe, /dev/zero) has no size to check first: its
     * reading stops at the memory limit. */
    uint64_t limit = stream ? cli_memory_limit() : 0;
    bool held = limit && limit / per_byte < max;
    if (held)
        max = (size_t)(limit / per_byte);
    char *buf = NULL;
    size_t len = 0;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_file_read_all(path, max, &buf, &len, &d);
    if (st == SN_ELIMIT && held) {
        sn_free(buf);
        return cli_memory_stream_error(name, max, per_byte);
    }
    if (st == SN_OK)
        st = sn_keys_parse(name, buf, len, t, binary, keys, count, &d);
    sn_free(buf);
    if (st != SN_OK) {
        cli_print_error("%s", sn_diag_text(&d, st));
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
    size_t count = 0;
    *sized = false;
    if (strchr(spec, ':') || strcmp(spec, "-") == 0 || stat(spec, &sb) == 0 ||
        !sn_algo_parse(spec, &algo))
        return spec;
    if (in->file && in->keys)
        count = in->count;
    else if (in->spec.kind == SN_INPUT_LIST &&
             sn_input_list_count(in->spec.text, &count, NULL) != SN_OK)
        count = 1; /* any size: the list's own error comes when the keys are made */
    else if (in->spec.kind == SN_INPUT_BITS)
        count = strlen(in->spec.text);
    if (count == 0)
        return spec;
    snprintf(buf, cap, "%s:%zu", spec, count);
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
    if (in->file && strcmp(in->file, "-") == 0 && strcmp(spec, "-") == 0)
        return cli_error(CLI_USAGE, "--input-file",
                         "the network and the keys cannot both come from stdin ('-')");
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

int cli_input_file_keys(const cli_input *in, uint32_t n, uint32_t **keys)
{
    size_t bytes;
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
        return cli_error(CLI_DEVICE, "input", "out of memory for %u keys", n);
    memcpy(*keys, own.keys, (size_t)n * sizeof **keys);
    return 0;
}

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
