/* fuzz_keys.c - libFuzzer target for the key-file reader (sn_keys_parse:
 * `--input-file FILE [--binary]`), text and binary, every key type.
 *
 * Input layout: byte 0 picks the key type (% 3) and binary (bit 2); the
 * rest is the file, passed in an exact-size copy that is not
 * NUL-terminated (the reader must read len bytes, no more). On success:
 * binary keys are the bytes little-endian; text keys format and parse back
 * to themselves, and the keys written one per line read back the same. On
 * failure: no keys handed out, a message naming the file, and for text a
 * line and column inside the file. */
#include <stdio.h>

#include "core/alloc.h"
#include "core/input.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

static bool same_key(sn_key_type t, uint32_t a, uint32_t b)
{
    bool nan_a = t == SN_KEY_F32 && (a & 0x7f800000u) == 0x7f800000u && (a & 0x007fffffu);
    bool nan_b = t == SN_KEY_F32 && (b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu);
    return nan_a || nan_b ? nan_a && nan_b && (a >> 31) == (b >> 31) : a == b;
}

/* The keys written as a key file (one per line, as --output does) read
 * back as the same keys. */
static void check_written(sn_key_type t, const uint32_t *keys, size_t count)
{
    size_t cap = count * 64 + 1, at = 0;
    char *text = malloc(cap);
    if (!text)
        return;
    for (size_t i = 0; i < count; i++) {
        int len = sn_key_format(t, keys[i], text + at, cap - at - 1);
        if (len <= 0 || (size_t)len >= 63)
            abort();
        at += (size_t)len;
        text[at++] = '\n';
    }
    uint32_t *back = NULL;
    size_t n2 = 0;
    sn_diag d;
    sn_status st = sn_keys_parse("written", text, at, t, false, &back, &n2, &d);
    if (st != SN_OK || n2 != count) {
        fprintf(stderr, "written keys do not read back: status %d, %zu of %zu keys: %s\n", (int)st,
                n2, count, d.text);
        abort();
    }
    for (size_t i = 0; i < count; i++)
        if (!same_key(t, keys[i], back[i])) {
            fprintf(stderr, "key %zu: 0x%08x reads back as 0x%08x\n", i, (unsigned)keys[i],
                    (unsigned)back[i]);
            abort();
        }
    sn_free(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    sn_key_type t = (sn_key_type)(data[0] % 3);
    bool binary = (data[0] & 4) != 0;
    size_t len = size - 1;
    char *buf = malloc(len ? len : 1); /* exact size: an overread is caught */
    if (!buf)
        return 0;
    if (len)
        memcpy(buf, data + 1, len);
    uint32_t *keys = (uint32_t *)(uintptr_t)1; /* must be reset either way */
    size_t count = 12345;
    sn_diag d;
    sn_diag_clear(&d);
    sn_status st = sn_keys_parse("fuzz", buf, len, t, binary, &keys, &count, &d);
    if (st == SN_OK) {
        if (!keys || (binary && count != len / 4))
            abort();
        for (size_t i = 0; binary && i < count; i++) {
            const unsigned char *b = (const unsigned char *)buf + 4 * i;
            uint32_t v =
                (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            if (keys[i] != v)
                abort();
        }
        if (!binary && count <= 4096)
            check_written(t, keys, count);
        sn_free(keys);
    } else {
        if (keys || count != 0 || (st != SN_EPARSE && st != SN_ENOMEM) ||
            strncmp(d.text, "fuzz:", 5) != 0) {
            fprintf(stderr, "failed parse: status %d, keys %p, count %zu, message '%s'\n", (int)st,
                    (void *)keys, count, d.text);
            abort();
        }
        if (!binary && st == SN_EPARSE) {
            size_t lines = 1;
            for (size_t i = 0; i < len; i++)
                lines += buf[i] == '\n';
            if (d.line < 1 || d.line > lines || d.column < 1 || d.column > len + 1) {
                fprintf(stderr, "error at %lu:%lu outside the file (%zu lines): %s\n", d.line,
                        d.column, lines, d.text);
                abort();
            }
        }
    }
    free(buf);
    return 0;
}
