/* test_codegen_edges.c - the code generator's refusals and names, and out
 * of memory at every allocation of generating C and OpenCL (test_codegen
 * compiles and runs the generated code itself). */
#include <string.h>

#include "core/alloc.h"
#include "core/codegen.h"
#include "core/format.h"
#include "core/network.h"
#include "sn_test.h"

static sn_network *small(void)
{
    const char *t = "[(0,1),(2,3)]\n[(0,2),(1,3)]\n[(1,2)]\n";
    sn_network *net = NULL;
    CHECK(sn_network_parse(t, strlen(t), SN_FORMAT_BRACKET, &net, NULL) == SN_OK);
    return net;
}

static void test_langs(void)
{
    CHECK(strcmp(sn_codegen_lang_name(SN_CODEGEN_C), "c") == 0);
    CHECK(strcmp(sn_codegen_lang_name(SN_CODEGEN_OPENCL), "opencl") == 0);
    sn_codegen_lang l = SN_CODEGEN_OPENCL;
    CHECK(!sn_codegen_lang_parse(NULL, &l) && l == SN_CODEGEN_OPENCL);
    CHECK(!sn_codegen_lang_parse("fortran", &l));
    CHECK(sn_codegen_lang_parse("C", &l) && l == SN_CODEGEN_C);
    CHECK(sn_codegen_lang_parse("cl", &l) && l == SN_CODEGEN_OPENCL);
}

static void test_names(const sn_network *net)
{
    sn_codegen_opts o;
    sn_codegen_opts_init(&o);
    char buf[160];
    sn_diag d;
    static const struct {
        const char *name, *label;
        sn_status st;
        const char *want; /* the name, or words of the message */
    } rows[] = {
        {"sort_me", NULL, SN_OK, "sort_me"},
        {"_x9", NULL, SN_OK, "_x9"},
        {"9lives", NULL, SN_EINVAL, "'9lives' is not a C identifier"},
        {"my-net", NULL, SN_EINVAL, "'my-net' is not a C identifier"},
        {"", NULL, SN_EINVAL, "is not a C identifier"},
        {NULL, "dir/My-Net.json", SN_OK, "sort4_my_net"},
        {NULL, "best:16", SN_OK, "sort4_best"},
        /* nothing left of the label: "net" */
        {NULL, "dir/.json", SN_OK, "sort4__json"},
        {NULL, ":8", SN_OK, "sort4_net"},
        {NULL, "", SN_OK, "sort4_network"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        o.name = rows[i].name;
        o.label = rows[i].label;
        sn_diag_clear(&d);
        sn_status st = sn_codegen_name(net, &o, buf, sizeof buf, &d);
        CHECKF(st == rows[i].st, "row %zu: %s", i, sn_status_str(st));
        if (st == SN_OK)
            CHECKF(strcmp(buf, rows[i].want) == 0, "row %zu: %s", i, buf);
        else
            CHECKF(strstr(d.text, rows[i].want) != NULL, "row %zu: %s", i, d.text);
    }
    /* a buffer too small for the name */
    o.name = "a_rather_long_function_name";
    o.label = NULL;
    CHECK(sn_codegen_name(net, &o, buf, 8, &d) == SN_ELIMIT);
    CHECK(strstr(d.text, "function name too long") != NULL);
    /* the generator refuses a bad name too, and hands out nothing */
    char *src = (char *)1;
    size_t len = 9;
    o.name = "not valid";
    CHECK(sn_codegen(net, &o, &src, &len, &d) == SN_EINVAL && src == NULL && len == 0);
}

static void test_refusals(void)
{
    sn_network *empty = sn_network_create(0);
    CHECK(empty != NULL);
    if (!empty)
        return;
    sn_codegen_opts o;
    sn_codegen_opts_init(&o);
    char *src = NULL;
    sn_diag d;
    CHECK(sn_codegen(empty, &o, &src, NULL, &d) == SN_EINVAL && src == NULL);
    CHECK(strstr(d.text, "no wires has nothing to sort") != NULL);
    sn_network_destroy(empty);

    /* past SN_CODEGEN_MAX_COMPARATORS: refused before any code is made */
    sn_network *big = sn_network_create(2048);
    static sn_comparator layer[1024];
    for (uint32_t i = 0; i < 1024; i++)
        layer[i] = (sn_comparator){2 * i, 2 * i + 1};
    sn_status st = big ? SN_OK : SN_ENOMEM;
    for (size_t k = 0; st == SN_OK && k * 1024 <= SN_CODEGEN_MAX_COMPARATORS; k++)
        st = sn_network_layer_add(big, layer, 1024, NULL);
    CHECK(st == SN_OK && sn_network_size(big) > SN_CODEGEN_MAX_COMPARATORS);
    src = NULL;
    sn_diag_clear(&d);
    CHECK(big && sn_codegen(big, &o, &src, NULL, &d) == SN_ELIMIT && src == NULL);
    CHECKF(strstr(d.text, "1049600 comparators: straight-line code is limited to 1048576"), "%s",
           d.text);
    sn_network_destroy(big);
}

/* Out of memory at every allocation of generating each language, keys
 * alone and with a payload. */
static void test_oom(const sn_network *net)
{
    size_t base = sn_alloc_live();
    for (int lang = 0; lang < 2; lang++) {
        for (int kv = 0; kv < 2; kv++) {
            sn_codegen_opts o;
            sn_codegen_opts_init(&o);
            o.lang = lang ? SN_CODEGEN_OPENCL : SN_CODEGEN_C;
            o.payload = kv;
            o.type = kv ? SN_KEY_F32 : SN_KEY_U32;
            for (size_t k = 1;; k++) {
                char *src = NULL;
                size_t len = 0;
                sn_diag d;
                sn_alloc_fail_after(k);
                sn_status st = sn_codegen(net, &o, &src, &len, &d);
                size_t made = sn_alloc_fail_after(0);
                if (made < k) {
                    CHECK(st == SN_OK && src && strlen(src) == len);
                    sn_free(src);
                    break;
                }
                CHECKF(st == SN_ENOMEM && src == NULL && strstr(d.text, "out of memory"),
                       "lang %d kv %d, allocation %zu: %s", lang, kv, k, sn_status_str(st));
                CHECK(sn_alloc_live() == base);
                if (k > 1000) {
                    CHECK(0);
                    break;
                }
            }
        }
    }
}

int main(void)
{
    sn_network *net = small();
    test_langs();
    if (net) {
        test_names(net);
        test_oom(net);
    }
    test_refusals();
    sn_network_destroy(net);
    return sn_test_finish("test_codegen_edges");
}
