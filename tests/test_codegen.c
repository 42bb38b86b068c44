/* test_codegen.c - the generated C compiles warning-free (-Wall -Wextra
 * -Wconversion -Werror) and sorts exactly as the reference executor does:
 * every generator at several n and best-known networks, every key type,
 * with and without payload, on random, duplicate-heavy and 0-1 inputs; a
 * deliberately broken network's code must leave some input unsorted. One
 * translation unit holds every case (one compiler run). The compiler is
 * $SN_CC (CTest sets the project's), else cc. */
#include <errno.h> // for: errno (mkdtemp's cause)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> // for: mkdtemp, unlink, rmdir

#include "core/alloc.h"
#include "core/codegen.h"
#include "core/exec.h"
#include "core/format.h"
#include "core/input.h"
#include "core/network.h"
#include "core/schedule.h"
#include "sn_test.h"

#define MAX_CASES 96
#define REPS_RANDOM 48

typedef struct tcase {
    sn_network *net;
    char label[64];
    sn_key_type type;
    bool payload;
    bool broken; /* must not sort */
} tcase;

static tcase cases[MAX_CASES];
static size_t ncases;

static void add_case(const char *spec, sn_network *net, bool broken)
{
    if (ncases == MAX_CASES)
        return;
    tcase *c = &cases[ncases];
    c->net = net;
    snprintf(c->label, sizeof c->label, "%s", spec);
    c->type = (sn_key_type)(ncases % 3);
    c->payload = (ncases / 3) % 2 == 1;
    c->broken = broken;
    ncases++;
}

static void add_spec(const char *spec)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    sn_diag d;
    sn_diag_clear(&d);
    CHECKF(sn_schedule_load(spec, &s, &d) == SN_OK, "%s: %s", spec, d.text);
    if (s && sn_schedule_to_network(s, &net, &d) == SN_OK)
        add_case(spec, net, false);
    sn_schedule_destroy(s);
}

/* best:16 without the last comparator of its last layer, and a comparator
 * pointing the wrong way: neither sorts. */
static void add_broken(void)
{
    sn_schedule *s = NULL;
    sn_network *net = NULL;
    CHECK(sn_schedule_load("best:16", &s, NULL) == SN_OK);
    CHECK(s && sn_schedule_to_network(s, &net, NULL) == SN_OK);
    sn_schedule_destroy(s);
    if (!net)
        return;
    for (int variant = 0; variant < 2; variant++) {
        sn_network *b = sn_network_create(16);
        size_t L = sn_network_layer_count(net);
        for (size_t k = 0; k < L; k++) {
            size_t cnt;
            const sn_comparator *c = sn_network_layer(net, k, &cnt);
            sn_comparator tmp[16];
            memcpy(tmp, c, cnt * sizeof *c);
            if (k == L - 1 && variant == 0)
                cnt--;
            if (k == L - 1 && variant == 1)
                tmp[0] = (sn_comparator){tmp[0].b, tmp[0].a};
            CHECK(sn_network_layer_add(b, tmp, cnt, NULL) == SN_OK);
        }
        add_case(variant ? "broken-reversed" : "broken-dropped", b, true);
    }
    sn_network_destroy(net);
}

/* inputs of one case: 0-1 inputs (all of them up to n = 10), random keys
 * of the type, and duplicate-heavy keys with f32's special values */
static uint32_t *make_inputs(const tcase *c, size_t *reps)
{
    uint32_t n = sn_network_wires(c->net);
    size_t zo = n <= 10 ? (size_t)1 << n : 256;
    *reps = zo + 2 * REPS_RANDOM;
    uint32_t *in = sn_malloc(*reps * n * 4);
    if (!in)
        return NULL;
    static const uint32_t special[] = {0x80000000u, 0x00000000u, 0x7fc00000u, 0xffc00000u,
                                       0xff800000u, 0x7f800000u, 0x3f800000u, 0xbf800000u,
                                       0xffffffffu, 1u};
    uint64_t seed = 0xc0de + ncases;
    for (size_t r = 0; r < *reps; r++) {
        uint64_t bits = zo == 256 ? sn_rand_next(&seed) : r;
        for (uint32_t w = 0; w < n; w++) {
            uint32_t *k = &in[r * n + w];
            uint64_t x = sn_rand_next(&seed);
            if (r < zo)
                *k = sn_key_from_ordered(c->type, (uint32_t)((bits >> (w % 64)) & 1) + 0x80000000u);
            else if (r < zo + REPS_RANDOM)
                *k = (uint32_t)x;
            else
                *k = special[x % 10];
        }
    }
    return in;
}

static const char *const c_types[] = {"int32_t", "uint32_t", "float"};

/* The harness: read records (case index, then n keys), sort each with its
 * case's function (payload = the identity), write keys and payloads. */
static void write_harness(FILE *f)
{
    fprintf(f, "\n#include <stdio.h>\n#include <string.h>\n"
               "static unsigned wires[] = {");
    for (size_t i = 0; i < ncases; i++)
        fprintf(f, "%u,", sn_network_wires(cases[i].net));
    fprintf(f, "};\nstatic void run(uint32_t i, uint32_t *k, uint32_t *p)\n{\n    switch (i) {\n");
    for (size_t i = 0; i < ncases; i++) {
        const tcase *c = &cases[i];
        const char *pay = c->payload ? ", p" : "";
        fprintf(f, "    case %zu: {\n", i);
        if (c->type == SN_KEY_F32)
            fprintf(f,
                    "        float v[%u];\n        memcpy(v, k, sizeof v);\n"
                    "        case_%zu(v%s);\n        memcpy(k, v, sizeof v);\n",
                    sn_network_wires(c->net), i, pay);
        else
            fprintf(f, "        case_%zu((%s *)k%s);\n", i, c_types[c->type], pay);
        fprintf(f, "        break;\n    }\n");
    }
    fprintf(f, "    default: break;\n    }\n}\n"
               "int main(int argc, char **argv)\n{\n"
               "    FILE *in = argc == 3 ? fopen(argv[1], \"rb\") : NULL;\n"
               "    FILE *out = argc == 3 ? fopen(argv[2], \"wb\") : NULL;\n"
               "    uint32_t i, k[256], p[256];\n"
               "    if (!in || !out)\n        return 2;\n"
               "    while (fread(&i, 4, 1, in) == 1) {\n"
               "        unsigned n = wires[i], w;\n"
               "        if (fread(k, 4, n, in) != n)\n            return 2;\n"
               "        for (w = 0; w < n; w++)\n            p[w] = w;\n"
               "        run(i, k, p);\n"
               "        fwrite(k, 4, n, out);\n        fwrite(p, 4, n, out);\n    }\n"
               "    return fclose(out) == 0 ? 0 : 2;\n}\n");
}

static bool write_source(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return false;
    for (size_t i = 0; i < ncases; i++) {
        sn_codegen_opts o;
        sn_codegen_opts_init(&o);
        char name[32];
        snprintf(name, sizeof name, "case_%zu", i);
        o.name = name;
        o.label = cases[i].label;
        o.type = cases[i].type;
        o.payload = cases[i].payload;
        o.proof = cases[i].broken ? SN_PROOF_FAILS : SN_PROOF_SORTS;
        char *code = NULL;
        size_t len = 0;
        sn_diag d;
        sn_diag_clear(&d);
        CHECKF(sn_codegen(cases[i].net, &o, &code, &len, &d) == SN_OK, "%s", d.text);
        if (code)
            fwrite(code, 1, len, f);
        sn_free(code);
    }
    write_harness(f);
    return fclose(f) == 0;
}

static sn_key_type sort_type;
static int cmp_key(const void *a, const void *b)
{
    uint32_t x = sn_key_to_ordered(sort_type, *(const uint32_t *)a);
    uint32_t y = sn_key_to_ordered(sort_type, *(const uint32_t *)b);
    return x < y ? -1 : x > y;
}

/* Compare the program's outputs with the reference executor's (keys and
 * payload, bit for bit); a correct network must sort every input, a broken
 * one must leave at least one unsorted. */
static void compare(const tcase *c, const uint32_t *in, size_t reps, FILE *res)
{
    uint32_t n = sn_network_wires(c->net);
    sn_schedule *s = NULL;
    sn_network *copy = sn_network_clone(c->net);
    CHECK(copy && sn_schedule_from_network(copy, &s) == SN_OK);
    if (!s)
        return;
    size_t unsorted = 0, bad = 0;
    for (size_t r = 0; r < reps; r++) {
        uint32_t k[256], p[256], gk[256], gp[256], sorted[256];
        memcpy(k, in + r * n, n * 4);
        memcpy(sorted, k, n * 4);
        for (uint32_t w = 0; w < n; w++)
            p[w] = w;
        sn_exec_run(s, c->type, k, c->payload ? p : NULL);
        if (fread(gk, 4, n, res) != n || fread(gp, 4, n, res) != n) {
            CHECKF(false, "%s: output truncated", c->label);
            break;
        }
        sort_type = c->type;
        qsort(sorted, n, 4, cmp_key);
        if (memcmp(k, gk, n * 4) != 0 || (c->payload && memcmp(p, gp, n * 4) != 0))
            bad++;
        /* totalOrder: equal ordered keys are equal bits, so memcmp works */
        if (memcmp(gk, sorted, n * 4) != 0)
            unsorted++;
    }
    CHECKF(bad == 0, "%s (%s%s): %zu of %zu outputs differ from the reference", c->label,
           sn_key_type_name(c->type), c->payload ? ", payload" : "", bad, reps);
    if (c->broken)
        CHECKF(unsorted > 0, "%s: the broken network's code sorted every input", c->label);
    else
        CHECKF(unsorted == 0, "%s: %zu outputs unsorted", c->label, unsorted);
    sn_schedule_destroy(s);
}

int main(void)
{
    static const uint32_t sizes[] = {2, 5, 8, 13, 16};
    for (int a = 1; a < SN_ALGO_COUNT; a++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            char spec[64];
            snprintf(spec, sizeof spec, "%s:%u", sn_algo_name((sn_algo)a), sizes[i]);
            add_spec(spec);
        }
    static const char *const best[] = {"best:3",  "best:7",  "best:10", "best:16",
                                       "best:23", "best:32", "best:64", "best-depth:12"};
    for (size_t i = 0; i < sizeof best / sizeof best[0]; i++)
        add_spec(best[i]);
    add_broken();

    char dir[] = "/tmp/sn_codegen_XXXXXX";
    if (!mkdtemp(dir)) { /* a broken /tmp, not a missing dependency: a failure */
        fprintf(stderr, "FAIL: cannot make a temporary directory %s: %s\n", dir, strerror(errno));
        return 1;
    }
    char src[256], bin[256], inp[256], outp[256], cmd[1400];
    snprintf(src, sizeof src, "%s/all.c", dir);
    snprintf(bin, sizeof bin, "%s/all", dir);
    snprintf(inp, sizeof inp, "%s/in.bin", dir);
    snprintf(outp, sizeof outp, "%s/out.bin", dir);
    CHECK(write_source(src));

    uint32_t **inputs = sn_calloc(ncases, sizeof *inputs);
    size_t *reps = sn_calloc(ncases, sizeof *reps);
    FILE *f = fopen(inp, "wb");
    CHECK(f && inputs && reps);
    for (size_t i = 0; f && inputs && reps && i < ncases; i++) {
        inputs[i] = make_inputs(&cases[i], &reps[i]);
        uint32_t n = sn_network_wires(cases[i].net), idx = (uint32_t)i;
        for (size_t r = 0; inputs[i] && r < reps[i]; r++) {
            fwrite(&idx, 4, 1, f);
            fwrite(inputs[i] + r * n, 4, n, f);
        }
    }
    if (f)
        CHECK(fclose(f) == 0);

    const char *cc = getenv("SN_CC");
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c99 -pedantic -O1 -Wall -Wextra -Wconversion -Wshadow "
             "-Wmissing-prototypes -Werror -o '%s' '%s' && '%s' '%s' '%s'",
             cc && *cc ? cc : "cc", bin, src, bin, inp, outp);
    int rc = system(cmd);
    CHECKF(rc == 0, "compiling or running the generated code failed (%d): %s", rc, cmd);
    FILE *res = rc == 0 ? fopen(outp, "rb") : NULL;
    for (size_t i = 0; res && i < ncases; i++)
        compare(&cases[i], inputs[i], reps[i], res);
    if (res)
        fclose(res);
    printf("test_codegen: %zu networks compiled and compared\n", ncases);

    for (size_t i = 0; i < ncases; i++) {
        sn_network_destroy(cases[i].net);
        if (inputs)
            sn_free(inputs[i]);
    }
    sn_free(inputs);
    sn_free(reps);
    if (!getenv("SN_KEEP")) {
        unlink(src), unlink(bin), unlink(inp), unlink(outp);
        rmdir(dir);
    }
    return sn_test_finish("test_codegen");
}
