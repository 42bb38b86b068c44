/* test_input.c - inputs of the command line: value lists (good and bad),
 * 0-1 strings, random permutations, reversed/sorted order, and the text
 * form of single keys (format then parse gives the same bits; the float
 * text is the shortest that does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/input.h"
#include "sn_test.h"

static uint32_t fbits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static sn_status make(sn_input_kind kind, const char *text, sn_key_type t, uint32_t n,
                      uint32_t *keys, sn_diag *d)
{
    sn_input_spec spec = {kind, 0, text};
    sn_diag_clear(d);
    return sn_input_make(&spec, t, n, keys, d);
}

static void test_lists(void)
{
    uint32_t k[8];
    sn_diag d;
    CHECK(make(SN_INPUT_LIST, "3,1,2", SN_KEY_I32, 3, k, &d) == SN_OK);
    CHECK(k[0] == 3 && k[1] == 1 && k[2] == 2);
    CHECK(make(SN_INPUT_LIST, " -3 , 2147483647,-2147483648 ,+7", SN_KEY_I32, 4, k, &d) == SN_OK);
    CHECK((int32_t)k[0] == -3 && (int32_t)k[1] == INT32_MAX && (int32_t)k[2] == INT32_MIN &&
          k[3] == 7);
    /* blanks, commas or both separate values, the same rule everywhere */
    CHECK(make(SN_INPUT_LIST, "5 1 4 2", SN_KEY_I32, 4, k, &d) == SN_OK);
    CHECK(k[0] == 5 && k[1] == 1 && k[2] == 4 && k[3] == 2);
    CHECK(make(SN_INPUT_LIST, "5, 1\t4 ,2\n", SN_KEY_I32, 4, k, &d) == SN_OK);
    CHECK(k[0] == 5 && k[1] == 1 && k[2] == 4 && k[3] == 2);
    size_t count = 0;
    CHECK(sn_input_list_count(" 5, 1\n4 2 ", &count, &d) == SN_OK && count == 4);
    CHECK(sn_input_list_count("", &count, &d) == SN_OK && count == 0);
    CHECK(sn_input_list_count("1,,2", &count, &d) == SN_EPARSE &&
          strstr(d.text, "column 3: expected a value between two commas"));
    /* an f32 literal of more than 63 characters is a number like any other */
    static const char long_f32[] =
        "1.0000000000000000000000000000000000000000000000000000000000000000001";
    CHECK(sizeof long_f32 > 64);
    CHECK(make(SN_INPUT_LIST, long_f32, SN_KEY_F32, 1, k, &d) == SN_OK && k[0] == fbits(1.0f));
    CHECK(make(SN_INPUT_LIST,
               "000000000000000000000000000000000000000000000000000000000000000000000025e-1",
               SN_KEY_F32, 1, k, &d) == SN_OK &&
          k[0] == fbits(2.5f));
    CHECK(make(SN_INPUT_LIST, "4294967295,0,7", SN_KEY_U32, 3, k, &d) == SN_OK);
    CHECK(k[0] == UINT32_MAX && k[1] == 0 && k[2] == 7);
    CHECK(make(SN_INPUT_LIST, "-0,0,nan,-inf,1.5,-nan,inf,1e-45", SN_KEY_F32, 8, k, &d) == SN_OK);
    CHECK(k[0] == 0x80000000u && k[1] == 0 && isnan(strtof("nan", NULL)) &&
          (k[2] & 0x7F800000u) == 0x7F800000u && (k[2] & 0x007FFFFFu) && !(k[2] >> 31));
    CHECK(k[3] == fbits(-INFINITY) && k[4] == fbits(1.5f) && (k[5] >> 31) && (k[5] & 0x007FFFFFu) &&
          k[6] == fbits(INFINITY) && k[7] == fbits(strtof("1e-45", NULL)));

    static const struct {
        const char *text;
        sn_key_type t;
        uint32_t n;
        const char *fragment;
        unsigned long col; /* 0: not checked */
    } bad[] = {
        {"1,2,3", SN_KEY_I32, 4, "expected 4 values, got 3", 0},
        {"1,2,3,4,5", SN_KEY_I32, 4, "expected 4 values, got 5", 0},
        {"", SN_KEY_I32, 2, "expected 2 values, got 0", 0},
        {"1,2,x,4", SN_KEY_I32, 4, "column 5: 'x' is not a number", 5},
        {"1, 2,,4", SN_KEY_I32, 4, "column 6: expected a value", 6},
        {"1,2,3,99999999999", SN_KEY_I32, 4, "out of range for i32", 7},
        {"2147483648", SN_KEY_I32, 1, "out of range", 1},
        {"-2147483649", SN_KEY_I32, 1, "out of range", 1},
        {"99999999999999999999999999", SN_KEY_I32, 1, "out of range", 1},
        {"-1", SN_KEY_U32, 1, "out of range for u32", 1},
        {"4294967296", SN_KEY_U32, 1, "out of range", 1},
        {"1.5", SN_KEY_I32, 1, "not a number", 1},
        {"0x10", SN_KEY_I32, 1, "not a number", 1},
        {"1 2", SN_KEY_I32, 1, "expected 1 value, got 2", 0}, /* blanks separate values */
        {"5,1,4,2,", SN_KEY_I32, 4, "column 8: trailing comma after 2", 8},
        {"5 1 4 2 , ", SN_KEY_I32, 4, "trailing comma after 2", 9},
        {",5,1,4,2", SN_KEY_I32, 4, "column 1: expected a value before the comma", 1},
        {"5 , , 1", SN_KEY_I32, 2, "column 5: expected a value between two commas", 5},
        {"5\n1,\n x", SN_KEY_I32, 3, "line 3, column 2: 'x' is not a number", 2},
        {"1e39", SN_KEY_F32, 1, "out of range for f32", 1},
        {"-1e39", SN_KEY_F32, 1, "out of range", 1},
        {"1.5x", SN_KEY_F32, 1, "not a number", 1},
        {"nanx", SN_KEY_F32, 1, "not a number", 1},
        {"nan(1)", SN_KEY_F32, 1, "not a number", 1},
        {"- 1", SN_KEY_F32, 2, "column 1: '-' is not a number", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sn_status st = make(SN_INPUT_LIST, bad[i].text, bad[i].t, bad[i].n, k, &d);
        CHECKF(st == SN_EPARSE, "list case %zu: status %d", i, (int)st);
        CHECKF(strstr(d.text, bad[i].fragment) != NULL, "list case %zu: '%s' lacks '%s'", i, d.text,
               bad[i].fragment);
        if (bad[i].col)
            CHECKF(d.column == bad[i].col, "list case %zu: column %lu", i, d.column);
    }
    sn_input_spec none = {SN_INPUT_LIST, 0, NULL};
    CHECK(sn_input_make(&none, SN_KEY_I32, 2, k, &d) == SN_EINVAL);
}

static void test_bits_and_orders(void)
{
    uint32_t k[6];
    sn_diag d;
    CHECK(make(SN_INPUT_BITS, "0110", SN_KEY_I32, 4, k, &d) == SN_OK);
    CHECK(k[0] == 0 && k[1] == 1 && k[2] == 1 && k[3] == 0);
    CHECK(make(SN_INPUT_BITS, "10", SN_KEY_F32, 2, k, &d) == SN_OK);
    CHECK(k[0] == fbits(1.0f) && k[1] == fbits(0.0f));
    CHECK(make(SN_INPUT_BITS, "012", SN_KEY_I32, 3, k, &d) == SN_EPARSE &&
          strstr(d.text, "column 3: '2' is not 0 or 1"));
    CHECK(make(SN_INPUT_BITS, "012", SN_KEY_I32, 4, k, &d) == SN_EPARSE &&
          strstr(d.text, "expected 4 bits, got 3"));
    CHECK(make(SN_INPUT_REVERSE, NULL, SN_KEY_U32, 5, k, &d) == SN_OK);
    for (uint32_t i = 0; i < 5; i++)
        CHECK(k[i] == 5 - i);
    CHECK(make(SN_INPUT_SORTED, NULL, SN_KEY_F32, 5, k, &d) == SN_OK);
    for (uint32_t i = 0; i < 5; i++)
        CHECK(k[i] == fbits((float)(i + 1)));
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void test_random(void)
{
    enum { N = 1000 };
    static uint32_t a[N], b[N], c[N];
    sn_input_spec s1 = {SN_INPUT_RANDOM, 42, NULL}, s2 = {SN_INPUT_RANDOM, 43, NULL};
    CHECK(sn_input_make(&s1, SN_KEY_I32, N, a, NULL) == SN_OK);
    CHECK(sn_input_make(&s1, SN_KEY_I32, N, b, NULL) == SN_OK);
    CHECK(sn_input_make(&s2, SN_KEY_I32, N, c, NULL) == SN_OK);
    CHECK(memcmp(a, b, sizeof a) == 0); /* reproducible */
    CHECK(memcmp(a, c, sizeof a) != 0); /* seeds differ (chance 1/1000!) */
    size_t fixed = 0;
    for (uint32_t i = 0; i < N; i++)
        fixed += a[i] == i + 1;
    CHECK(fixed < 20); /* a shuffle, not the identity (expected ~1) */
    qsort(a, N, sizeof a[0], cmp_u32);
    for (uint32_t i = 0; i < N; i++)
        CHECK(a[i] == i + 1);
    /* Every position takes many values over seeds (no stuck slot). */
    uint32_t small[3];
    int seen[3][4] = {{0}};
    for (uint64_t seed = 0; seed < 600; seed++) {
        sn_input_spec s = {SN_INPUT_RANDOM, seed, NULL};
        CHECK(sn_input_make(&s, SN_KEY_U32, 3, small, NULL) == SN_OK);
        for (int i = 0; i < 3; i++)
            seen[i][small[i]]++;
    }
    for (int i = 0; i < 3; i++)
        for (int v = 1; v <= 3; v++)
            CHECKF(seen[i][v] > 120, "position %d took value %d %d times of 600", i, v, seen[i][v]);
    uint64_t st = 0, st2 = 0;
    CHECK(sn_rand_next(&st) == sn_rand_next(&st2) && st == st2 && st != 0);
}

/* keys is a permutation of the values 1..n as keys of type t. */
static bool is_permutation(const uint32_t *keys, uint32_t n, sn_key_type t)
{
    uint8_t *seen = calloc(n + 1, 1);
    bool ok = seen != NULL;
    for (uint32_t i = 0; ok && i < n; i++) {
        uint32_t v = keys[i];
        if (t == SN_KEY_F32) {
            float f;
            memcpy(&f, &v, sizeof f);
            v = (uint32_t)f;
        }
        ok = v >= 1 && v <= n && !seen[v];
        if (ok)
            seen[v] = 1;
    }
    free(seen);
    return ok;
}

/* Mean |position - original position| over n keys (values 1..n): n/3 for
 * a uniform permutation, 0 for the identity, a fixed shift for a
 * rotation. */
static double mean_displacement(const uint32_t *keys, uint32_t n)
{
    double sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += keys[i] - 1 > i ? (double)(keys[i] - 1 - i) : (double)(i - (keys[i] - 1));
    return sum / n;
}

/* The two regimes of --random: the small one keeps the Fisher-Yates
 * permutation it always had (pinned here), the parallel one is the same
 * for any thread count, a permutation, and looks random. */
static void test_random_regimes(void)
{
    uint32_t k12[12];
    static const uint32_t want12[12] = {10, 8, 12, 6, 5, 11, 7, 1, 4, 3, 2, 9};
    CHECK(sn_input_random(k12, 12, SN_KEY_I32, 42, 0) == SN_OK);
    CHECK(memcmp(k12, want12, sizeof k12) == 0); /* `sortnet run ...:12 --random 42` */

    /* small geometries: many buckets and chunks at a test's size */
    static const struct {
        uint32_t n;
        unsigned bb, cb;
        sn_key_type t;
    } g[] = {{100000, 6, 10, SN_KEY_I32},
             {77777, 3, 12, SN_KEY_F32},
             {4096, 0, 4, SN_KEY_U32},
             {1, 2, 4, SN_KEY_I32},
             {5000, 10, 8, SN_KEY_I32}};
    for (size_t gi = 0; gi < sizeof g / sizeof g[0]; gi++) {
        uint32_t n = g[gi].n;
        uint32_t *ref = malloc((size_t)n * 4), *k = malloc((size_t)n * 4);
        CHECK(ref && k);
        if (!ref || !k)
            return;
        CHECK(sn_input_random_scatter(ref, n, g[gi].t, 7, 1, g[gi].bb, g[gi].cb) == SN_OK);
        CHECKF(is_permutation(ref, n, g[gi].t), "n %u: not a permutation", n);
        static const unsigned threads[] = {2, 3, 7};
        for (size_t ti = 0; ti < 3; ti++) {
            memset(k, 0, (size_t)n * 4);
            CHECK(sn_input_random_scatter(k, n, g[gi].t, 7, threads[ti], g[gi].bb, g[gi].cb) ==
                  SN_OK);
            CHECKF(memcmp(k, ref, (size_t)n * 4) == 0, "n %u: %u threads differ from one", n,
                   threads[ti]);
        }
        if (n >= 4096 && g[gi].t != SN_KEY_F32) {
            double md = mean_displacement(ref, n);
            CHECKF(md > n / 3.0 * 0.95 && md < n / 3.0 * 1.05, "n %u: mean displacement %.0f", n,
                   md);
            CHECK(sn_input_random_scatter(k, n, g[gi].t, 8, 2, g[gi].bb, g[gi].cb) == SN_OK);
            CHECK(memcmp(k, ref, (size_t)n * 4) != 0); /* the seed matters */
        }
        free(ref);
        free(k);
    }
    CHECK(sn_input_random_scatter(k12, 12, SN_KEY_I32, 1, 1, 25, 10) == SN_EINVAL);
    CHECK(sn_input_random_scatter(k12, 12, SN_KEY_I32, 1, 1, 2, 3) == SN_EINVAL);

    /* the default geometry just above the threshold: what --random gives */
    uint32_t n = SN_INPUT_SERIAL_MAX + 3;
    uint32_t *a = malloc((size_t)n * 4), *b = malloc((size_t)n * 4);
    CHECK(a && b);
    if (!a || !b)
        return;
    sn_input_spec spec = {SN_INPUT_RANDOM, 5, NULL};
    CHECK(sn_input_make(&spec, SN_KEY_I32, n, a, NULL) == SN_OK);
    CHECK(sn_input_random(b, n, SN_KEY_I32, 5, 3) == SN_OK);
    CHECK(memcmp(a, b, (size_t)n * 4) == 0);
    CHECK(is_permutation(a, n, SN_KEY_I32));
    double md = mean_displacement(a, n);
    CHECKF(md > n / 3.0 * 0.99 && md < n / 3.0 * 1.01, "mean displacement %.0f", md);
    /* where value 1 and value n went: anywhere, not near their start */
    size_t p1 = 0, pn = 0, first_quarter = 0;
    for (uint32_t i = 0; i < n; i++) {
        p1 = a[i] == 1 ? i : p1;
        pn = a[i] == n ? i : pn;
        first_quarter += i < n / 4 && a[i] <= n / 4;
    }
    /* a uniform permutation keeps about 1/16 of the values in the first
     * quarter in the first quarter; the identity keeps all */
    CHECKF(first_quarter > n / 16 - n / 200 && first_quarter < n / 16 + n / 200,
           "%zu of the first quarter stayed", first_quarter);
    CHECK(p1 != 0 || pn != n - 1);
    free(a);
    free(b);
}

static void test_keys(void)
{
    char buf[64];
    static const struct {
        uint32_t bits;
        const char *text;
    } f32[] = {
        {0x80000000u, "-0"},  {0, "0"},
        {0x7FC00000u, "nan"}, {0xFFC00000u, "-nan"},
        {0x7F800000u, "inf"}, {0xFF800000u, "-inf"},
        {0x3FC00000u, "1.5"}, {0x3F800000u, "1"},
    };
    for (size_t i = 0; i < sizeof f32 / sizeof f32[0]; i++) {
        sn_key_format(SN_KEY_F32, f32[i].bits, buf, sizeof buf);
        CHECKF(strcmp(buf, f32[i].text) == 0, "%08x formats as %s", f32[i].bits, buf);
    }
    sn_key_format(SN_KEY_F32, fbits(0.1f), buf, sizeof buf);
    CHECK(strcmp(buf, "0.1") == 0);
    sn_key_format(SN_KEY_I32, 0x80000000u, buf, sizeof buf);
    CHECK(strcmp(buf, "-2147483648") == 0);
    sn_key_format(SN_KEY_U32, 0xFFFFFFFFu, buf, sizeof buf);
    CHECK(strcmp(buf, "4294967295") == 0);
    CHECK(sn_key_format(SN_KEY_I32, 5, buf, 0) < 0);

    /* Format then parse gives the same bits, for every key type, over
     * random bit patterns (all float classes); floats use the fewest
     * significant digits (one fewer does not read back). */
    uint64_t state = 7;
    for (int i = 0; i < 200000; i++) {
        uint32_t bits = (uint32_t)sn_rand_next(&state), back = 0;
        for (int t = SN_KEY_I32; t <= SN_KEY_F32; t++) {
            int len = sn_key_format((sn_key_type)t, bits, buf, sizeof buf);
            CHECK(len > 0 && (size_t)len < sizeof buf);
            CHECKF(sn_key_parse((sn_key_type)t, buf, (size_t)len, &back) == SN_OK,
                   "type %d: '%s' does not parse", t, buf);
            float f;
            memcpy(&f, &bits, sizeof f);
            if (t == SN_KEY_F32 && isnan(f))
                CHECK((back & 0x7F800000u) == 0x7F800000u && (back & 0x007FFFFFu) &&
                      (back >> 31) == (bits >> 31));
            else
                CHECKF(back == bits, "type %d: %08x -> '%s' -> %08x", t, bits, buf, back);
            if (t == SN_KEY_F32 && isfinite(f) && f != 0.0f) {
                int digits = 0; /* significant: from the first nonzero digit */
                for (const char *p = buf; *p && *p != 'e'; p++)
                    digits += (*p >= '1' && *p <= '9') || (digits && *p == '0');
                char shorter[400];
                snprintf(shorter, sizeof shorter, "%.*g", digits - 1, (double)f);
                CHECKF(digits <= 1 || digits > 9 || strtof(shorter, NULL) != f,
                       "'%s' is not the shortest (%s reads back too)", buf, shorter);
            }
        }
    }
    uint32_t v;
    CHECK(sn_key_parse(SN_KEY_I32, "12", 1, &v) == SN_OK && v == 1); /* len counts */
    CHECK(sn_key_parse(SN_KEY_I32, "", 0, &v) == SN_EPARSE);
    CHECK(sn_key_parse(SN_KEY_I32, " 1", 2, &v) == SN_EPARSE);
    CHECK(sn_key_parse(SN_KEY_U32, "-0", 2, &v) == SN_OK && v == 0);
    CHECK(sn_key_parse(SN_KEY_F32, "-INF", 4, &v) == SN_OK && v == 0xFF800000u);
    CHECK(sn_key_parse(SN_KEY_F32, "1e-50", 5, &v) == SN_OK && v == 0);
}

/* Key files: text with comments and line:column errors, raw binary. */
static void test_key_files(void)
{
    uint32_t *k = NULL;
    size_t count = 99;
    sn_diag d;
    static const char text[] = "# my keys\n5, 1 4\n\n2 # the last\n-7";
    CHECK(sn_keys_parse("k.txt", text, sizeof text - 1, SN_KEY_I32, false, &k, &count, &d) ==
          SN_OK);
    CHECK(count == 5 && k && k[0] == 5 && k[1] == 1 && k[2] == 4 && k[3] == 2 &&
          (int32_t)k[4] == -7);
    sn_free(k);
    /* not NUL-terminated: only len bytes are read */
    CHECK(sn_keys_parse("k.txt", "12345", 2, SN_KEY_U32, false, &k, &count, &d) == SN_OK &&
          count == 1 && k[0] == 12);
    sn_free(k);
    /* empty and comment-only files have no keys (the caller decides) */
    CHECK(sn_keys_parse("k.txt", "", 0, SN_KEY_I32, false, &k, &count, &d) == SN_OK && count == 0 &&
          k);
    sn_free(k);
    CHECK(sn_keys_parse("k.txt", "# none\n  \n", 10, SN_KEY_I32, false, &k, &count, &d) == SN_OK &&
          count == 0);
    sn_free(k);
    static const struct {
        const char *text;
        sn_key_type t;
        const char *message;
        unsigned long line, col;
    } bad[] = {
        {"1 2\n3 x 4\n", SN_KEY_I32, "k.txt:2:3: 'x' is not a number", 2, 3},
        {"1,2,\n# end\n", SN_KEY_I32, "k.txt:1:4: trailing comma after 2", 1, 4},
        {"\n,1,2", SN_KEY_I32, "k.txt:2:1: expected a value before the comma", 2, 1},
        {"1 2\n\n  -1", SN_KEY_U32, "k.txt:3:3: -1 is out of range for u32", 3, 3},
        {"1\n2\x01\n", SN_KEY_F32, "k.txt:2:1: '2\\x01' is not a number", 2, 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        k = NULL;
        sn_status st = sn_keys_parse("k.txt", bad[i].text, strlen(bad[i].text), bad[i].t, false, &k,
                                     &count, &d);
        CHECKF(st == SN_EPARSE && !k, "key file case %zu: status %d", i, (int)st);
        CHECKF(strstr(d.text, bad[i].message) != NULL, "key file case %zu: '%s' lacks '%s'", i,
               d.text, bad[i].message);
        if (bad[i].line)
            CHECKF(d.line == bad[i].line && d.column == bad[i].col, "key file case %zu: %lu:%lu", i,
                   d.line, d.column);
    }
    /* an embedded NUL is no number */
    CHECK(sn_keys_parse("k.txt", "1 2\0 3", 7, SN_KEY_I32, false, &k, &count, &d) == SN_EPARSE &&
          strstr(d.text, "k.txt:1:3: '2\\x00' is not a number"));
    /* binary: little-endian 4-byte keys, any bits */
    static const char bin[] = "\x01\x00\x00\x00\xff\xff\xff\xff\x00\x00\xc0\x7f";
    CHECK(sn_keys_parse("k.bin", bin, 12, SN_KEY_F32, true, &k, &count, &d) == SN_OK &&
          count == 3 && k[0] == 1 && k[1] == 0xffffffffu && k[2] == 0x7fc00000u);
    sn_free(k);
    CHECK(sn_keys_parse("k.bin", bin, 10, SN_KEY_I32, true, &k, &count, &d) == SN_EPARSE &&
          strstr(d.text, "k.bin: 10 bytes") && strstr(d.text, "byte offset 8"));
    CHECK(sn_keys_parse("k.bin", bin, 0, SN_KEY_I32, true, &k, &count, &d) == SN_OK && count == 0);
    sn_free(k);
}

int main(void)
{
    test_key_files();
    test_lists();
    test_bits_and_orders();
    test_random();
    test_random_regimes();
    test_keys();
    return sn_test_finish("test_input");
}
