/* test_input_edges.c - the input makers at their edges: descriptions,
 * refused arguments, bytes that are not bits, values too long for the
 * key parser's buffer, and out of memory in the key parser and in the
 * random permutation's parallel regime. test_input has the inputs
 * themselves. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "core/input.h"
#include "sn_test.h"

static void test_describe(void)
{
    char buf[64];
    sn_input_spec s = {.kind = SN_INPUT_BITS, .text = "0101010101010101010101010101"};
    CHECK(strcmp(sn_input_describe(&s, buf, sizeof buf), "0-1 (01010101010101010101...)") == 0);
    s.text = "0110";
    CHECK(strcmp(sn_input_describe(&s, buf, sizeof buf), "0-1 (0110)") == 0);
    sn_input_spec k = {.kind = SN_INPUT_KEYS, .text = NULL};
    CHECK(strcmp(sn_input_describe(&k, buf, sizeof buf), "from a key file") == 0);
    k.text = "keys.txt";
    CHECK(strcmp(sn_input_describe(&k, buf, sizeof buf), "from keys.txt") == 0);
}

static void test_make_refusals(void)
{
    uint32_t keys[8];
    sn_diag d;
    CHECK(sn_input_make(NULL, SN_KEY_U32, 4, keys, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "missing argument") != NULL);
    sn_input_spec s = {.kind = SN_INPUT_SORTED, .text = NULL};
    CHECK(sn_input_make(&s, SN_KEY_U32, 4, NULL, &d) == SN_EINVAL);
    CHECK(sn_input_make(&s, SN_KEY_U32, 0, NULL, &d) == SN_OK);
    sn_input_spec k = {.kind = SN_INPUT_KEYS, .text = "k.bin"};
    CHECK(sn_input_make(&k, SN_KEY_U32, 4, keys, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "the keys of k.bin are the caller's to copy") != NULL);
    k.text = NULL;
    CHECK(sn_input_make(&k, SN_KEY_U32, 4, keys, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "the keys of a key file") != NULL);
    sn_input_spec u = {.kind = (sn_input_kind)42, .text = NULL};
    CHECK(sn_input_make(&u, SN_KEY_U32, 4, keys, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "unknown input kind 42") != NULL);
    /* a byte that is not printable is named by its code */
    sn_input_spec b = {.kind = SN_INPUT_BITS,
                       .text = "01\x01"
                               "0"};
    CHECK(sn_input_make(&b, SN_KEY_U32, 4, keys, &d) == SN_EPARSE);
    CHECK(d.line == 1 && d.column == 3 && strstr(d.text, "byte 0x01 is not 0 or 1") != NULL);
    b.text = "01x0";
    CHECK(sn_input_make(&b, SN_KEY_U32, 4, keys, &d) == SN_EPARSE);
    CHECK(strstr(d.text, "column 3: 'x' is not 0 or 1") != NULL);

    uint32_t v = 0;
    CHECK(sn_key_parse(SN_KEY_U32, NULL, 1, &v) == SN_EINVAL);
    CHECK(sn_key_parse(SN_KEY_U32, "1", 1, NULL) == SN_EINVAL);
    size_t count = 0;
    CHECK(sn_input_list_count(NULL, &count, &d) == SN_EINVAL);
    CHECK(sn_input_list_count("1,2", NULL, &d) == SN_EINVAL);
    uint32_t *out = NULL;
    CHECK(sn_keys_parse("k", "1 2", 3, SN_KEY_U32, false, NULL, &count, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "sn_keys_parse: missing argument") != NULL);
    CHECK(sn_keys_parse("k", NULL, 3, SN_KEY_U32, false, &out, &count, &d) == SN_EINVAL);
    /* no buffer and no length: no keys */
    CHECK(sn_keys_parse(NULL, NULL, 0, SN_KEY_U32, false, &out, &count, &d) == SN_OK);
    CHECK(count == 0 && out != NULL);
    sn_free(out);
}

/* A value longer than the parser's own buffer is copied to the heap: its
 * number is read, and out of memory there is SN_ENOMEM naming the value's
 * size. */
static void test_long_values(void)
{
    char text[200];
    memset(text, '0', sizeof text);
    memcpy(text + sizeof text - 3, "123", 3);
    uint32_t v = 0;
    CHECK(sn_key_parse(SN_KEY_U32, text, sizeof text, &v) == SN_OK && v == 123);
    size_t base = sn_alloc_live();
    sn_alloc_fail_after(1);
    CHECK(sn_key_parse(SN_KEY_U32, text, sizeof text, &v) == SN_ENOMEM);
    sn_alloc_fail_after(0);
    CHECK(sn_alloc_live() == base);

    /* in a key file: the first pass counts, the second reads (and its
     * value's copy is the allocation after the keys' array) */
    char file[256];
    memcpy(file, "5 ", 2);
    memcpy(file + 2, text, sizeof text);
    size_t len = 2 + sizeof text;
    uint32_t *keys = NULL;
    size_t count = 0;
    sn_diag d;
    CHECK(sn_keys_parse("f", file, len, SN_KEY_U32, false, &keys, &count, &d) == SN_OK);
    CHECK(count == 2 && keys && keys[0] == 5 && keys[1] == 123);
    sn_free(keys);
    bool saw_value = false;
    for (size_t k = 1; k < 10; k++) {
        keys = NULL;
        sn_alloc_fail_after(k);
        sn_status st = sn_keys_parse("f", file, len, SN_KEY_U32, false, &keys, &count, &d);
        size_t made = sn_alloc_fail_after(0);
        if (made < k) {
            CHECK(st == SN_OK);
            sn_free(keys);
            break;
        }
        CHECKF(st == SN_ENOMEM && keys == NULL, "allocation %zu: %s", k, sn_status_str(st));
        if (strstr(d.text, "out of memory for a 200-byte value"))
            saw_value = true;
        CHECK(sn_alloc_live() == base);
    }
    CHECK(saw_value);
}

/* The parallel regime's two tables: out of memory at either, and a
 * geometry out of range. */
static void test_scatter(void)
{
    uint32_t keys[64];
    CHECK(sn_input_random_scatter(keys, 64, SN_KEY_U32, 1, 1, 25, 4) == SN_EINVAL);
    CHECK(sn_input_random_scatter(keys, 64, SN_KEY_U32, 1, 1, 2, 3) == SN_EINVAL);
    CHECK(sn_input_random_scatter(keys, 64, SN_KEY_U32, 1, 1, 2, 33) == SN_EINVAL);
    size_t base = sn_alloc_live();
    for (size_t k = 1; k <= 2; k++) {
        sn_alloc_fail_after(k);
        sn_status st = sn_input_random_scatter(keys, 64, SN_KEY_U32, 1, 1, 2, 4);
        sn_alloc_fail_after(0);
        CHECK(st == SN_ENOMEM && sn_alloc_live() == base);
    }
    CHECK(sn_input_random_scatter(keys, 64, SN_KEY_U32, 1, 1, 2, 4) == SN_OK);
    /* still a permutation of 1..64 */
    uint8_t seen[65] = {0};
    for (int i = 0; i < 64; i++)
        if (keys[i] >= 1 && keys[i] <= 64)
            seen[keys[i]]++;
    int distinct = 0;
    for (int i = 1; i <= 64; i++)
        distinct += seen[i] == 1;
    CHECK(distinct == 64);
}

static void test_key_types(void)
{
    CHECK(strcmp(sn_key_type_name(SN_KEY_F32), "f32") == 0);
    CHECK(strcmp(sn_key_type_name((sn_key_type)7), "unknown") == 0);
    sn_key_type t = SN_KEY_I32;
    CHECK(!sn_key_type_parse(NULL, &t) && t == SN_KEY_I32);
    CHECK(!sn_key_type_parse("u64", &t) && t == SN_KEY_I32);
    CHECK(sn_key_type_parse("u32", NULL));
    CHECK(sn_key_type_parse("f32", &t) && t == SN_KEY_F32);
}

/* A random permutation past SN_INPUT_SERIAL_MAX keys is scattered through
 * bucket counts: with either of their two allocations failing,
 * sn_input_make says so (SN_ENOMEM) and leaks nothing. */
static void test_random_oom(void)
{
    uint32_t n = SN_INPUT_SERIAL_MAX + 1;
    uint32_t *keys = malloc((size_t)n * sizeof *keys);
    CHECK(keys != NULL);
    if (!keys)
        return;
    sn_input_spec r = {.kind = SN_INPUT_RANDOM, .seed = 3, .text = NULL};
    size_t base = sn_alloc_live();
    for (size_t k = 1; k <= 2; k++) {
        sn_diag d;
        sn_diag_clear(&d);
        sn_alloc_fail_after(k);
        sn_status st = sn_input_make(&r, SN_KEY_U32, n, keys, &d);
        sn_alloc_fail_after(0);
        CHECKF(st == SN_ENOMEM && strstr(d.text, "out of memory for the random permutation's "
                                                 "bucket counts (4194305 keys)"),
               "allocation %zu: %s: %s", k, sn_status_str(st), d.text);
        CHECK(sn_alloc_live() == base);
    }
    free(keys);
}

int main(void)
{
    test_random_oom();
    test_key_types();
    test_describe();
    test_make_refusals();
    test_long_values();
    test_scatter();
    return sn_test_finish("test_input_edges");
}
