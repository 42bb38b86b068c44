/* fuzz_input.c - libFuzzer target for the --input / --bits value lists
 * (sn_input_make with LIST and BITS, every key type) and single keys
 * (sn_key_parse).
 *
 * Input layout: byte 0 picks the key type (% 3) and the kind (bit 2: BITS
 * instead of LIST); byte 1 is n (0..255); the rest is the text. On success
 * every key must format and parse back to itself (NaNs: to a NaN of the
 * same sign), so the writer and the reader of keys agree. */
#include <stdio.h>

#include "core/input.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_set_limits();
    return 0;
}

static bool is_nan(sn_key_type t, uint32_t bits)
{
    return t == SN_KEY_F32 && (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu);
}

static void check_key_round_trip(sn_key_type t, uint32_t bits)
{
    char buf[64];
    int len = sn_key_format(t, bits, buf, sizeof buf);
    if (len <= 0 || (size_t)len >= sizeof buf) {
        fprintf(stderr, "sn_key_format(%s, 0x%08x) returned %d\n", sn_key_type_name(t),
                (unsigned)bits, len);
        abort();
    }
    uint32_t back = 0;
    sn_status st = sn_key_parse(t, buf, (size_t)len, &back);
    bool same = is_nan(t, bits) ? is_nan(t, back) && (back >> 31) == (bits >> 31) : back == bits;
    if (st != SN_OK || !same) {
        fprintf(stderr, "key 0x%08x (%s) formats as '%s' which parses as 0x%08x (status %d)\n",
                (unsigned)bits, sn_key_type_name(t), buf, (unsigned)back, (int)st);
        abort();
    }
}

/* A 0-1 input holds only the keys "0" and "1", as many ones as the text
 * has '1' characters. */
static void check_bits(sn_key_type t, const char *text, const uint32_t *keys, uint32_t n)
{
    uint32_t zero, one;
    if (sn_key_parse(t, "0", 1, &zero) != SN_OK || sn_key_parse(t, "1", 1, &one) != SN_OK)
        abort();
    size_t ones_text = 0, ones_keys = 0;
    for (const char *p = text; *p; p++)
        ones_text += *p == '1';
    for (uint32_t i = 0; i < n; i++) {
        if (keys[i] != zero && keys[i] != one) {
            fprintf(stderr, "--bits '%s' gave key 0x%08x at %u\n", text, (unsigned)keys[i], i);
            abort();
        }
        ones_keys += keys[i] == one;
    }
    if (ones_keys != ones_text) {
        fprintf(stderr, "--bits '%s' gave %zu ones\n", text, ones_keys);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    sn_key_type t = (sn_key_type)(data[0] % 3);
    sn_input_kind kind = (data[0] & 4) ? SN_INPUT_BITS : SN_INPUT_LIST;
    uint32_t n = data[1];
    char *text = fuzz_strdup(data + 2, size - 2);
    if (!text)
        return 0;

    /* One key straight from the bytes (not NUL-terminated on purpose). */
    uint32_t one;
    if (sn_key_parse(t, (const char *)data + 2, size - 2, &one) == SN_OK)
        check_key_round_trip(t, one);

    uint32_t *keys = malloc((n ? n : 1) * sizeof *keys);
    if (keys) {
        sn_input_spec spec = {kind, 0, text};
        sn_diag d;
        sn_diag_clear(&d);
        sn_status st = sn_input_make(&spec, t, n, keys, &d);
        if (st == SN_OK) {
            for (uint32_t i = 0; i < n; i++)
                check_key_round_trip(t, keys[i]);
            if (kind == SN_INPUT_BITS)
                check_bits(t, text, keys, n);
        } else if (d.text[0] == '\0' && st != SN_ENOMEM) {
            fprintf(stderr, "sn_input_make failed (status %d) without a message\n", (int)st);
            abort();
        }
    }
    free(keys);
    free(text);
    return 0;
}
