/* test_buffers.c - the core's small building blocks on their own: the
 * status phrases and the diagnostic buffer (status.c), the allocation
 * hooks and checked size arithmetic (alloc.c), and the two growable
 * texts (textbuf.c, srcbuf.c), including what each does once an
 * allocation fails (the failure is sticky: nothing more is added). */
#include <stdint.h>
#include <string.h>
#include <wchar.h>

#include "core/alloc.h"
#include "core/srcbuf.h"
#include "core/status.h"
#include "core/textbuf.h"
#include "sn_test.h"

static void test_status(void)
{
    static const struct {
        sn_status st;
        const char *text;
    } phrases[] = {
        {SN_OK, "success"},
        {SN_ENOMEM, "out of memory"},
        {SN_EINVAL, "invalid argument"},
        {SN_EPARSE, "parse error"},
        {SN_ELIMIT, "over a size limit"},
        {SN_EIO, "input/output error"},
        {SN_EUNSUPPORTED, "not supported by this build"},
        {SN_EINTERRUPTED, "interrupted"},
        {SN_ENODEVICE, "no device"},
        {SN_EDEVICE, "device error"},
        {SN_EBUILD, "OpenCL program build failed"},
    };
    CHECK(sizeof phrases / sizeof phrases[0] == (size_t)SN_STATUS_LAST + 1);
    for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++)
        CHECKF(strcmp(sn_status_str(phrases[i].st), phrases[i].text) == 0, "status %zu: %s", i,
               sn_status_str(phrases[i].st));
    /* a status read from elsewhere, past the last one */
    CHECK(strcmp(sn_status_str((sn_status)(SN_STATUS_LAST + 1)), "unknown status") == 0);

    /* no diag: every call is a no-op that still returns its status */
    sn_diag_clear(NULL);
    CHECK(sn_diag_set(NULL, SN_EPARSE, 1, 2, "x %d", 3) == SN_EPARSE);
    CHECK(sn_diag_limit(NULL, SN_LIMIT_WIRES, 1, 2, "x") == SN_ELIMIT);

    sn_diag d;
    CHECK(sn_diag_limit(&d, SN_LIMIT_LAYERS, 4, 5, "%d layers", 7) == SN_ELIMIT);
    CHECK(d.line == 4 && d.column == 5 && d.limit == SN_LIMIT_LAYERS);
    CHECK(strcmp(d.text, "7 layers") == 0);
    /* sn_diag_set forgets the limit of an earlier message */
    CHECK(sn_diag_set(&d, SN_EINVAL, 0, 0, "%s", "bad") == SN_EINVAL);
    CHECK(d.limit == SN_LIMIT_NONE && d.line == 0 && strcmp(d.text, "bad") == 0);
    /* a long message is cut at the buffer and stays terminated */
    char big[2000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sn_diag_set(&d, SN_EIO, 0, 0, "%s", big);
    CHECK(strlen(d.text) == sizeof d.text - 1);
    sn_diag_clear(&d);
    CHECK(d.text[0] == '\0' && d.limit == SN_LIMIT_NONE && d.line == 0 && d.column == 0);

    /* sn_diag_text: the message when there is one, else the status's
     * phrase (an empty message, or no diag at all), never NULL or "" */
    CHECK(strcmp(sn_diag_text(&d, SN_EIO), "input/output error") == 0);
    CHECK(strcmp(sn_diag_text(NULL, SN_ENOMEM), "out of memory") == 0);
    CHECK(strcmp(sn_diag_text(&d, (sn_status)(SN_STATUS_LAST + 1)), "unknown status") == 0);
    sn_diag_set(&d, SN_EPARSE, 3, 4, "3:4: no '%c'", ']');
    CHECK(sn_diag_text(&d, SN_EPARSE) == d.text);
    CHECK(strcmp(sn_diag_text(&d, SN_EINVAL), "3:4: no ']'") == 0); /* the text wins */
}

static void test_alloc(void)
{
    size_t out = 7;
    CHECK(sn_mul_size(3, 5, &out) && out == 15);
    CHECK(sn_mul_size(0, SIZE_MAX, &out) && out == 0);
    out = 7;
    CHECK(!sn_mul_size(SIZE_MAX / 2 + 1, 2, &out) && out == 7);
    CHECK(sn_add_size(SIZE_MAX - 1, 1, &out) && out == SIZE_MAX);
    out = 7;
    CHECK(!sn_add_size(SIZE_MAX, 1, &out) && out == 7);

    size_t base = sn_alloc_live();
    CHECK(sn_malloc(0) == NULL);
    CHECK(sn_calloc(0, 8) == NULL);
    CHECK(sn_calloc(SIZE_MAX / 2, 4) == NULL); /* overflow */
    CHECK(sn_alloc_live() == base);
    char *s = sn_strdup(NULL); /* copies as "" */
    CHECK(s && s[0] == '\0');
    CHECK(sn_alloc_live() == base + 1);
    /* realloc to 0 gives NULL and leaves the block as it was */
    CHECK(sn_realloc(s, 0) == NULL);
    CHECK(sn_alloc_live() == base + 1 && s[0] == '\0');
    sn_free(s);
    CHECK(sn_alloc_live() == base);
    sn_free(NULL);

    /* the countdown: the 2nd allocation fails, the 1st and 3rd do not */
    sn_alloc_fail_after(2);
    void *a = sn_malloc(8);
    void *b = sn_strdup("x");
    void *c = sn_realloc(NULL, 8);
    size_t made = sn_alloc_fail_after(0);
    CHECK(a != NULL && b == NULL && c != NULL);
    CHECK(made == 3);
    sn_free(a);
    sn_free(c);
    CHECK(sn_alloc_live() == base);
}

static void test_textbuf(void)
{
    size_t base = sn_alloc_live();
    sn_textbuf b = SN_TEXTBUF_INIT;
    sn_textbuf_clear(&b); /* nothing yet: still fine */
    CHECK(b.s == NULL && b.len == 0);
    sn_textbuf_str(&b, "<svg>");
    sn_textbuf_printf(&b, "%d-%s", 12, "ab");
    CHECK(!b.failed && strcmp(b.s, "<svg>12-ab") == 0 && b.len == 10);
    /* longer than the first try's 256 bytes: formatted a second time */
    char line[1000];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\0';
    sn_textbuf_printf(&b, "[%s]", line);
    CHECK(!b.failed && b.len == 10 + 1001 && b.s[b.len] == '\0' && b.s[b.len - 1] == ']');
    CHECK(strncmp(b.s + 10, "[xxx", 4) == 0);
    sn_textbuf_clear(&b);
    CHECK(b.len == 0 && b.s && b.s[0] == '\0' && !b.failed);
    sn_textbuf_free(&b);
    CHECK(b.s == NULL && b.cap == 0 && sn_alloc_live() == base);

    /* out of memory at the first growth: sticky, later adds are dropped */
    sn_alloc_fail_after(1);
    sn_textbuf_str(&b, "abc");
    sn_alloc_fail_after(0);
    CHECK(b.failed && b.len == 0);
    sn_textbuf_str(&b, "def");
    sn_textbuf_printf(&b, "%d", 1);
    CHECK(b.failed && b.len == 0 && b.s == NULL);
    /* clear forgets the failure */
    sn_textbuf_clear(&b);
    CHECK(!b.failed);
    sn_textbuf_str(&b, "ok");
    CHECK(!b.failed && strcmp(b.s, "ok") == 0);
    /* the long printf's own growth fails: the text so far stays */
    sn_alloc_fail_after(1);
    sn_textbuf_printf(&b, "%s", line);
    sn_alloc_fail_after(0);
    CHECK(b.failed && b.len == 2 && strcmp(b.s, "ok") == 0);
    sn_textbuf_free(&b);
    CHECK(sn_alloc_live() == base);
}

static void test_srcbuf(void)
{
    size_t base = sn_alloc_live();
    sn_srcbuf b = {0};
    sn_srcbuf_add(&b, "kernel %s(", "k");
    sn_srcbuf_add(&b, "%d)", 3);
    CHECK(!b.oom && strcmp(b.s, "kernel k(3)") == 0 && b.len == 11);
    /* past the first 4096 bytes: grows and keeps everything */
    for (int i = 0; i < 1000; i++)
        sn_srcbuf_add(&b, "%04d\n", i);
    CHECK(!b.oom && b.len == 11 + 5000 && strncmp(b.s + b.len - 5, "0999\n", 5) == 0);
    sn_free(b.s);

    /* the first growth fails: oom is sticky and nothing is added */
    sn_srcbuf c = {0};
    sn_alloc_fail_after(1);
    sn_srcbuf_add(&c, "abc");
    sn_alloc_fail_after(0);
    CHECK(c.oom && c.s == NULL && c.len == 0);
    sn_srcbuf_add(&c, "def");
    CHECK(c.oom && c.s == NULL && c.len == 0);
    CHECK(sn_alloc_live() == base);
}

/* A format that cannot be written (a wide character outside the C
 * locale's character set: vsnprintf fails with EILSEQ) marks the buffer
 * failed, as running out of memory does, and adds nothing. */
static void test_format_failure(void)
{
    static const wchar_t smile[] = {0x263A, 0};
    sn_textbuf t = SN_TEXTBUF_INIT;
    sn_textbuf_str(&t, "ok");
    sn_textbuf_printf(&t, "%ls", smile);
    CHECK(t.failed && t.len == 2 && strcmp(t.s, "ok") == 0);
    sn_textbuf_free(&t);
    sn_srcbuf b = {0};
    sn_srcbuf_add(&b, "ok");
    sn_srcbuf_add(&b, "%ls", smile);
    CHECK(b.oom && b.len == 2 && strcmp(b.s, "ok") == 0);
    sn_free(b.s);
}

int main(void)
{
    test_status();
    test_alloc();
    test_textbuf();
    test_srcbuf();
    test_format_failure();
    return sn_test_finish("test_buffers");
}
