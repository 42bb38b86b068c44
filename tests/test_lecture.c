/* test_lecture.c - the window's lecture-hall parts without a window:
 * networks side by side in lockstep, lessons (parsing, errors with line and
 * column, playing every shipped lesson), the status line's parts, 0-1
 * inputs that are not sorted yet, recordings with their timing, and the
 * layout fitted to a pane. Oracles: the views' own traces (each network
 * alone), hand-counted GIF blocks and delays, and the pane sizes. */
#define _XOPEN_SOURCE 700 /* for: realpath (the lesson folder rule's expected paths) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/exec.h"
#include "headless/frame.h"
#include "session/group.h"
#include "session/lesson.h"
#include "headless/record.h"
#include "render/layout.h"
#include "sn_test.h"
#include "session/view.h"

static sn_view_input rnd(uint64_t seed)
{
    sn_view_input in = {SN_INPUT_RANDOM, seed, NULL, SN_KEY_I32};
    return in;
}

/* Two networks of different depth: the shorter one waits at its end. */
static void test_lockstep(void)
{
    const char *specs[2] = {"oddeven-merge:16", "best-depth:16"};
    sn_group g;
    sn_diag d;
    sn_view_input in = rnd(11);
    CHECK(sn_group_init(&g, specs, 2, &in, &d) == SN_OK);
    CHECK(g.view[0].layers == 10 && g.view[1].layers == 9);
    CHECK(memcmp(g.view[0].input, g.view[1].input, 16 * sizeof(uint32_t)) == 0);
    for (int i = 0; i < 10; i++)
        CHECK(sn_group_action(&g, SN_ACT_RIGHT));
    CHECK(!sn_group_action(&g, SN_ACT_RIGHT)); /* at the end */
    CHECK(g.step == 10 && g.view[0].step == 10 && g.view[1].step == 9);
    CHECK(strstr(g.view[0].message, "oddeven-merge:16 sorted, best-depth:16 sorted") != NULL);
    CHECK(sn_group_action(&g, SN_ACT_LEFT));
    CHECK(g.view[0].step == 9 && g.view[1].step == 9);
    CHECK(sn_group_action(&g, SN_ACT_UP));
    CHECK(g.view[0].step == 8 && g.view[1].step == 8);
    /* playing: both advance on one clock until the longer one ends */
    sn_group_action(&g, SN_ACT_HOME);
    CHECK(sn_group_action(&g, SN_ACT_PLAY) && g.playing);
    for (int t = 0; t < 60 * 30 && sn_group_busy(&g); t++)
        sn_group_tick(&g, 1000.0 / 60);
    CHECK(!g.playing && g.view[0].step == 10 && g.view[1].step == 9);
    /* new inputs reach both; network changes are refused */
    CHECK(sn_group_action(&g, SN_ACT_REVERSE));
    CHECK(g.step == 0 && g.view[1].input[0] == 16 && g.view[0].input[0] == 16);
    CHECK(sn_group_action(&g, SN_ACT_BITS));
    CHECK(strcmp(g.view[0].bits, g.view[1].bits) == 0);
    CHECK(sn_group_action(&g, SN_ACT_GEN1) && g.view[0].message_error);
    CHECK(strcmp(g.view[0].name, "oddeven-merge:16") == 0);
    sn_group_cleanup(&g);
    /* different n: refused, naming both */
    const char *bad[2] = {"bitonic:8", "bitonic:16"};
    CHECK(sn_group_init(&g, bad, 2, &in, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "same n") != NULL);
    sn_group_cleanup(&g);
}

/* The status line's parts, long and short, and the result at the end. */
static sn_status fake_gpu(void *ctx, const sn_schedule *s, sn_key_type t, const uint32_t *input,
                          sn_view_gpu_result *out)
{
    (void)ctx, (void)s, (void)t, (void)input;
    memset(out, 0, sizeof *out);
    out->identical = true;
    snprintf(out->verdict, sizeof out->verdict, "identical");
    snprintf(out->device, sizeof out->device,
             "pthread-skylake-avx512 (Portable Computing Language)");
    snprintf(out->device_short, sizeof out->device_short, "OpenCL (CPU, pocl)");
    return SN_OK;
}

static void test_status(void)
{
    sn_view v;
    sn_diag d;
    sn_view_input in = {SN_INPUT_LIST, 0, "1,3,2,4", SN_KEY_I32};
    CHECK(sn_view_init(&v, "bitonic:4", &in, &d) == SN_OK);
    sn_view_status st;
    sn_view_status_parts(&v, &st);
    CHECK(strcmp(st.layer, "input, 3 layers to go") == 0 && strcmp(st.layer_short, "0/3") == 0);
    CHECK(st.result[0] == '\0');
    sn_view_action(&v, SN_ACT_RIGHT);
    sn_view_status_parts(&v, &st);
    CHECK(strcmp(st.layer, "after layer 1 of 3") == 0);
    sn_view_action(&v, SN_ACT_END);
    sn_view_status_parts(&v, &st);
    CHECK(strcmp(st.result, "sorted") == 0);
    v.gpu_fn = fake_gpu;
    sn_view_action(&v, SN_ACT_GPU);
    sn_view_status_parts(&v, &st);
    CHECK(strcmp(st.gpu, "OpenCL (CPU, pocl): identical") == 0);
    CHECK(strcmp(st.gpu_short, "OpenCL: identical") == 0);
    CHECK(strstr(v.message, "identical") != NULL && strstr(v.message, "GPU") == NULL);
    char line[512];
    sn_view_status_text(&v, line, sizeof line);
    CHECK(strstr(line, "after layer 3 of 3") && strstr(line, "sorted"));
    sn_view_cleanup(&v);
    /* a network that does not sort: NOT sorted, the culprits marked */
    FILE *f = fopen("test_lecture_bad.txt", "w");
    fputs("[(0,1),(2,3)]\n[(0,2),(1,3)]\n", f);
    fclose(f);
    CHECK(sn_view_init(&v, "test_lecture_bad.txt", &in, &d) == SN_OK);
    remove("test_lecture_bad.txt");
    sn_view_action(&v, SN_ACT_END);
    uint32_t first = 0;
    CHECK(!sn_view_output_sorted(&v, &first) && first == 1);
    CHECK(!sn_view_out_of_order(&v, 0) && sn_view_out_of_order(&v, 1) &&
          sn_view_out_of_order(&v, 2) && !sn_view_out_of_order(&v, 3));
    sn_view_status_parts(&v, &st);
    CHECK(strcmp(st.result, "NOT sorted") == 0);
    sn_view_cleanup(&v);
}

/* Key 0 never draws a 0-1 input that is already sorted (n = 2 draws a
 * sorted one three times in four). */
static void test_bits_unsorted(void)
{
    const char *specs[2] = {"bitonic:2", "bitonic:8"};
    for (int s = 0; s < 2; s++) {
        sn_view v;
        sn_diag d;
        sn_view_input in = rnd(5);
        CHECK(sn_view_init(&v, specs[s], &in, &d) == SN_OK);
        int bad = 0;
        for (int i = 0; i < 200; i++) {
            sn_view_action(&v, SN_ACT_BITS);
            const char *one = strchr(v.bits, '1');
            bad += !(one && strchr(one, '0'));
        }
        CHECKF(bad == 0, "%s: %d sorted 0-1 inputs", specs[s], bad);
        sn_view_cleanup(&v);
    }
}

static void test_lesson_parse(void)
{
    sn_lesson *l = NULL;
    sn_diag d;
    const char *good = "# comment\n"
                       "title: T\n"
                       "step: one\n"
                       "net: bitonic:4 oddeven-merge:4\n"
                       "input: 4,3,2,1\n"
                       "text: First line.\n"
                       "text: Second sentence!\n"
                       "\n"
                       "step: two\n"
                       "keys: right wait:100\n"
                       "at: end\n"
                       "text: Carried over?\n";
    CHECK(sn_lesson_parse(good, "good", &l, &d) == SN_OK);
    if (l) {
        CHECK(l->count == 2 && strcmp(l->title, "T") == 0);
        CHECK(strcmp(l->steps[0].caption, "First line. Second sentence!") == 0);
        CHECK(l->steps[1].net_count == 2 && l->steps[1].input_kind == SN_INPUT_LIST);
        CHECK(l->steps[1].at == -2 && l->steps[0].at == -1);
        CHECK(sn_lesson_check(l, &d) == SN_OK);
        sn_group g;
        memset(&g, 0, sizeof g);
        CHECK(sn_lesson_apply(l, 1, &g, &d) == SN_OK);
        CHECK(g.count == 2 && g.view[0].step == 3 && g.view[1].step == 3);
        CHECK(sn_lesson_apply(l, 0, &g, &d) == SN_OK && g.step == 0);
        sn_group_cleanup(&g);
        sn_lesson_free(l);
    }
    /* errors: line and column of what is wrong */
    static const struct {
        const char *text;
        unsigned long line, col;
        const char *says;
    } bad[] = {
        {"step: a\nnet: bitonic:4\ninput: randm 3\ntext: x.\n", 3, 8, "not an input"},
        {"step: a\nnet: bitonic:4\nkeys: right jump\ntext: x.\n", 3, 13, "jump"},
        {"step: a\nnet: bitonic:4\ntext: One. Two. Three. Four.\n", 1, 1, "three sentences"},
        {"step: a\nnet: bitonic:4\n", 1, 1, "no caption"},
        {"net: bitonic:4\n", 1, 1, "before the first"},
        {"step: a\n  colour: red\n", 2, 3, "unknown line 'colour:'"},
        {"step: a\nnet bitonic:4\n", 2, 1, "expected 'key: value'"},
        {"step: a\nnet: a:1 b:1 c:1 d:1\ntext: x.\n", 2, 18, "more than 3"},
        /* names only here (as in a shipped lesson): a file is refused, unread */
        {"step: a\nnet: bitonic:4 /etc/passwd\ntext: x.\n", 2, 16, "names networks only"},
        {"step: a\nnet: bitonic:4\nat: -1\ntext: x.\n", 3, 5, "layer count"},
        {"step: a\nnet: bitonic:4\ninput: bits 01x0\ntext: x.\n", 3, 15, "bits"},
        {"step: a\nnet: bitonic:4\nkeys: click:1,2\ntext: x.\n", 3, 7, "key names"},
        {"step: a\nnet: bitonic:4\nkeys: right p\ntext: x.\n", 3, 7, "no saving"},
        {"", 1, 1, "at least one"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sn_diag_clear(&d);
        CHECKF(sn_lesson_parse(bad[i].text, "f.lesson", &l, &d) == SN_EPARSE, "bad %zu", i);
        CHECKF(d.line == bad[i].line && d.column == bad[i].col, "bad %zu at %lu:%lu: %s", i, d.line,
               d.column, d.text);
        CHECKF(strstr(d.text, bad[i].says) != NULL && strncmp(d.text, "f.lesson:", 9) == 0,
               "bad %zu: %s", i, d.text);
    }
    /* edit verbs build a network in front of the class */
    const char *build = "step: a\nnet: empty:4\nkeys: add:0,1 add:2,3 add:0,2 add:1,3 add:1,2\n"
                        "text: Five comparators.\n";
    CHECK(sn_lesson_parse(build, "build", &l, &d) == SN_OK);
    if (l) {
        sn_group g;
        memset(&g, 0, sizeof g);
        CHECK(sn_lesson_apply(l, 0, &g, &d) == SN_OK);
        CHECK(g.view[0].layers == 3 && g.view[0].verdict == SN_VERDICT_SORTS);
        CHECK(!sn_view_unsaved(&g.view[0]));
        sn_group_cleanup(&g);
        sn_lesson_free(l);
    }
    /* found only when played: a network that does not load, a bad list */
    const char *late[] = {"step: a\nnet: bitonic:4 nosuch:4\ntext: x.\n",
                          "step: a\nnet: bitonic:4\ninput: 1,2\ntext: x.\n"};
    unsigned long lines[] = {2, 3};
    for (size_t i = 0; i < 2; i++) {
        CHECK(sn_lesson_parse(late[i], "late", &l, &d) == SN_OK);
        if (!l)
            continue;
        CHECK(sn_lesson_check(l, &d) != SN_OK);
        CHECKF(d.line == lines[i] && strncmp(d.text, "late:", 5) == 0, "late %zu: %s", i, d.text);
        sn_lesson_free(l);
    }
}

/* A lesson reads networks from its own folder and below, or by name
 * (issue 36): absolute paths, ".." out of the folder, a symbolic link out
 * of it and standard input are errors at their column naming the rule,
 * and nothing outside is opened. Files are found from any directory. The
 * links: a file's, a folder's in the middle of the path (to a folder
 * elsewhere, and to the sibling course-evil, whose path begins with the
 * lesson folder's: a prefix compare of the two paths lets it through),
 * and the lesson folder itself named through a link. */
static void test_lesson_folder(void)
{
    char root[] = "/tmp/sn_test_lesson_XXXXXX";
    if (!mkdtemp(root)) {
        FAIL("mkdtemp");
        return;
    }
    char course[64], cmd[1200];
    snprintf(course, sizeof course, "%s/course", root);
    snprintf(
        cmd, sizeof cmd,
        "mkdir -p %s/nets && printf '[(0,1),(2,3)]\\n[(0,2),(1,3)]\\n[(1,2)]\\n' >%s/nets/a.txt "
        "&& cp %s/nets/a.txt %s/b.txt && cp %s/b.txt %s/outside.txt "
        "&& ln -s ../outside.txt %s/link.txt && ln -s nets/a.txt %s/inlink.txt",
        course, course, course, course, course, root, course, course);
    CHECK(system(cmd) == 0);
    /* course-evil (a sibling named as course plus a suffix) and elsewhere,
     * each with a network; links to them from inside course: a folder in
     * the middle of a path, a file; a link inside to inside; courselink,
     * the folder itself under another name */
    snprintf(
        cmd, sizeof cmd,
        "cd %s && mkdir -p course-evil/nets elsewhere && cp course/nets/a.txt course-evil/nets/ "
        "&& cp course/nets/a.txt course-evil/a.txt && cp course/nets/a.txt elsewhere/ "
        "&& ln -s ../course-evil course/evil && ln -s ../course-evil/a.txt course/sib.txt "
        "&& ln -s %s/elsewhere course/nets/out && ln -s nets course/alias "
        "&& ln -s course courselink",
        root, root);
    CHECK(system(cmd) == 0);
    sn_lesson *l = NULL;
    sn_diag d;
    /* inside the folder: found, resolved, and played from here */
    const char *good = "step: a\nnet: b.txt nets/a.txt nets/../inlink.txt\ntext: x.\n";
    sn_diag_clear(&d);
    CHECKF(sn_lesson_parse_in(good, "c.lesson", course, &l, &d) == SN_OK, "%s", d.text);
    if (l) {
        CHECK(l->steps[0].net_count == 3 && l->steps[0].nets[0][0] == '/');
        CHECKF(sn_lesson_check(l, &d) == SN_OK, "%s", d.text);
        sn_lesson_free(l);
    }
    /* a link inside the folder to inside it, in the middle of the path, and
     * the folder named through a link: allowed, resolved into the folder */
    char real_nets[600], linked[400];
    snprintf(linked, sizeof linked, "%s/courselink", root);
    char *rc = realpath(course, NULL);
    snprintf(real_nets, sizeof real_nets, "%s/nets/a.txt", rc ? rc : course);
    free(rc);
    const char *dirs[] = {course, linked};
    for (size_t i = 0; i < 2; i++) {
        l = NULL;
        sn_diag_clear(&d);
        CHECKF(sn_lesson_parse_in("step: a\nnet: alias/a.txt nets/a.txt\ntext: x.\n", "c.lesson",
                                  dirs[i], &l, &d) == SN_OK,
               "%s: %s", dirs[i], d.text);
        if (l) {
            CHECKF(strcmp(l->steps[0].nets[0], real_nets) == 0 &&
                       strcmp(l->steps[0].nets[1], real_nets) == 0,
                   "%s: resolved to %s and %s, not %s", dirs[i], l->steps[0].nets[0],
                   l->steps[0].nets[1], real_nets);
            sn_lesson_free(l);
        }
    }
    static const struct {
        const char *net;
        unsigned long col;
        const char *says;
    } bad[] = {
        {"/etc/passwd", 6, "absolute path: a lesson reads networks only from its own folder"},
        {"bitonic:4 ../outside.txt", 16, "leaves the lesson's folder"},
        {"nets/../../outside.txt", 6, "leaves the lesson's folder"},
        {"../../../../etc/shadow", 6, "leaves the lesson's folder"},
        {"link.txt", 6, "leads out of the lesson's folder (a symbolic link)"},
        {"evil/nets/a.txt", 6, "leads out of the lesson's folder (a symbolic link)"},
        {"bitonic:4 evil/a.txt", 16, "leads out of the lesson's folder (a symbolic link)"},
        {"sib.txt", 6, "leads out of the lesson's folder (a symbolic link)"},
        {"nets/out/a.txt", 6, "leads out of the lesson's folder (a symbolic link)"},
        {"alias/out/a.txt", 6, "leads out of the lesson's folder (a symbolic link)"},
        {"-", 6, "standard input"},
        {"missing.txt", 6, "No such file or directory"},
    };
    for (size_t k = 0; k < 2 * (sizeof bad / sizeof bad[0]); k++) {
        size_t i = k % (sizeof bad / sizeof bad[0]);
        const char *dir = dirs[k / (sizeof bad / sizeof bad[0])];
        char text[200];
        snprintf(text, sizeof text, "step: a\nnet: %s\ntext: x.\n", bad[i].net);
        sn_diag_clear(&d);
        l = NULL;
        CHECKF(sn_lesson_parse_in(text, "c.lesson", dir, &l, &d) == SN_EPARSE, "%s in %s",
               bad[i].net, dir);
        CHECKF(l == NULL && d.line == 2 && d.column == bad[i].col, "%s at %lu:%lu: %s", bad[i].net,
               d.line, d.column, d.text);
        char where[32];
        snprintf(where, sizeof where, "c.lesson:2:%lu: ", bad[i].col);
        CHECKF(strstr(d.text, where) == d.text && strstr(d.text, bad[i].says), "%s: %s", bad[i].net,
               d.text);
        sn_lesson_free(l);
    }
    /* a lesson file: its own folder, whatever the current directory */
    char path[400];
    snprintf(path, sizeof path, "%s/c.lesson", course);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("step: a\nnet: nets/a.txt\ntext: x.\nstep: b\nnet: ../outside.txt\ntext: y.\n", f);
        fclose(f);
    }
    sn_diag_clear(&d);
    CHECK(sn_lesson_load(path, &l, &d) == SN_EPARSE && l == NULL);
    CHECKF(d.line == 5 && d.column == 6 && strstr(d.text, "leaves the lesson's folder"), "%s",
           d.text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0);
}

/* Every shipped lesson parses, plays through and obeys the caption rule. */
static void test_shipped_lessons(void)
{
    const char *src = getenv("SN_SOURCE_DIR");
    if (!src) {
        printf("test_lecture: SN_SOURCE_DIR unset, shipped lessons skipped\n");
        return;
    }
    const char *names[] = {"01-comparators-and-0-1", "02-bitonic-from-the-half-cleaner",
                           "03-three-networks-side-by-side"};
    for (size_t i = 0; i < 3; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/assets/lessons/%s.lesson", src, names[i]);
        sn_lesson *l = NULL;
        sn_diag d;
        sn_diag_clear(&d);
        CHECKF(sn_lesson_load(path, &l, &d) == SN_OK, "%s: %s", names[i], d.text);
        if (!l)
            continue;
        CHECKF(l->count >= 5, "%s has %zu steps", names[i], l->count);
        CHECKF(sn_lesson_check(l, &d) == SN_OK, "%s: %s", names[i], d.text);
        sn_lesson_free(l);
    }
}

/* A GIF's images and the sum of its delays, by walking its blocks. */
static bool gif_walk(const char *path, int *images, int *delay_cs)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    static unsigned char d[1 << 20];
    size_t n = fread(d, 1, sizeof d, f);
    fclose(f);
    if (n < 13 || memcmp(d, "GIF89a", 6) != 0)
        return false;
    size_t i = 13 + ((d[10] & 0x80) ? 3u * (2u << (d[10] & 7)) : 0);
    *images = *delay_cs = 0;
    while (i < n && d[i] != 0x3B) {
        if (d[i] == 0x21) {
            size_t j = i + 2;
            if (d[i + 1] == 0xF9)
                *delay_cs += d[j + 2] | d[j + 3] << 8;
            while (j < n && d[j])
                j += d[j] + 1u;
            i = j + 1;
        } else if (d[i] == 0x2C) {
            (*images)++;
            size_t j = i + 10 + ((d[i + 9] & 0x80) ? 3u * (2u << (d[i + 9] & 7)) : 0) + 1;
            while (j < n && d[j])
                j += d[j] + 1u;
            i = j + 1;
        } else {
            return false;
        }
    }
    return i < n;
}

static void test_record(void)
{
    enum { W = 64, H = 32 };
    static uint32_t px[W * H];
    sn_rgb keep[2] = {{0.2, 0.4, 0.6}, {1, 1, 1}};
    char gif[256];
    snprintf(gif, sizeof gif, "/tmp/sn_test_lecture_%ld.gif", (long)getpid());
    sn_record *r = NULL;
    sn_diag d;
    sn_status st = sn_record_open(gif, W, H, keep, 2, &r, &d);
    if (!sn_record_gif_built()) {
        CHECK(st == SN_EUNSUPPORTED && strstr(d.text, "libgif-dev"));
    } else {
        CHECK(st == SN_OK);
        /* t=0 white; t=100 a bar; t=105 another (merged into the one at
         * 100: too soon); t=100..500 unchanged frames; t=500 black */
        for (int i = 0; i < W * H; i++)
            px[i] = 0xffffff;
        CHECK(sn_record_frame(r, 0, (const uint8_t *)px, W * 4, &d) == SN_OK);
        for (int y = 0; y < 10; y++)
            px[y * W + 5] = 0x336699;
        CHECK(sn_record_frame(r, 100, (const uint8_t *)px, W * 4, &d) == SN_OK);
        px[20 * W + 40] = 0x336699;
        CHECK(sn_record_frame(r, 105, (const uint8_t *)px, W * 4, &d) == SN_OK);
        for (double t = 120; t < 500; t += 16)
            CHECK(sn_record_frame(r, t, (const uint8_t *)px, W * 4, &d) == SN_OK);
        for (int i = 0; i < W * H; i++)
            px[i] = 0;
        CHECK(sn_record_frame(r, 500, (const uint8_t *)px, W * 4, &d) == SN_OK);
        size_t frames = 0;
        CHECK(sn_record_close(r, 1000, &frames, &d) == SN_OK && frames == 3);
        int images = 0, delay = 0;
        CHECK(gif_walk(gif, &images, &delay));
        CHECKF(images == 3 && delay == 100, "%d images, %d cs", images, delay);
        remove(gif);
    }
    if (st != SN_OK && r)
        sn_record_abort(r);
    /* a folder: PNG frames and their durations */
    char dir[256], file[300];
    snprintf(dir, sizeof dir, "/tmp/sn_test_lecture_%ld", (long)getpid());
    CHECK(sn_record_open(dir, W, H, NULL, 0, &r, &d) == SN_OK);
    for (int i = 0; i < W * H; i++)
        px[i] = 0xffffff;
    CHECK(sn_record_frame(r, 0, (const uint8_t *)px, W * 4, &d) == SN_OK);
    px[0] = 0;
    CHECK(sn_record_frame(r, 250, (const uint8_t *)px, W * 4, &d) == SN_OK);
    CHECK(sn_record_close(r, 1000, NULL, &d) == SN_OK);
    snprintf(file, sizeof file, "%s/frames.ffconcat", dir);
    FILE *f = fopen(file, "r");
    char text[512] = "";
    CHECK(f != NULL);
    if (f) {
        size_t n = fread(text, 1, sizeof text - 1, f);
        text[n] = '\0';
        fclose(f);
    }
    CHECKF(strstr(text, "frame-000001.png'\nduration 0.2500") &&
               strstr(text, "frame-000002.png'\nduration 0.7500"),
           "%s", text);
    for (int i = 1; i <= 2; i++) {
        snprintf(file, sizeof file, "%s/frame-%06d.png", dir, i);
        CHECK(remove(file) == 0);
    }
    snprintf(file, sizeof file, "%s/frames.ffconcat", dir);
    remove(file);
    rmdir(dir);
    /* an unwritable place: an error, nothing left */
    CHECK(sn_record_open("/nonexistent/x.gif", W, H, NULL, 0, &r, &d) != SN_OK && !r);
    CHECK(sn_record_kind_of("a.webm") == SN_RECORD_VIDEO &&
          sn_record_kind_of("dir.d/x") == SN_RECORD_DIR);
}

/* The layout fitted to a pane fills its width for every generator, keeps
 * inside it, and labels every k-th wire where rows are closer than the
 * text. */
static void test_fit(void)
{
    static const sn_algo algos[] = {SN_ALGO_BITONIC,  SN_ALGO_ODDEVEN_MERGE, SN_ALGO_TRANSPOSITION,
                                    SN_ALGO_PAIRWISE, SN_ALGO_BUBBLE,        SN_ALGO_INSERTION};
    static const double panes[][3] = {{1256, 382, 12}, {1896, 592, 18}, {776, 310, 12}};
    for (size_t a = 0; a < 6; a++) {
        for (uint32_t n = 4; n <= 64; n *= 2) {
            sn_schedule *s = NULL;
            CHECK(sn_schedule_generate(algos[a], n, &s, NULL) == SN_OK);
            for (size_t p = 0; p < 3; p++) {
                sn_layout_opts o = {1.0,   0,     true,        0,           -1,
                                    false, false, panes[p][0], panes[p][1], panes[p][2], 0};
                sn_layout *lo = NULL;
                CHECK(sn_layout_create(s, &o, &lo, NULL) == SN_OK);
                if (!lo)
                    continue;
                /* too deep for the pane (a layer and its values under
                 * 4 text heights): the window scales it down instead */
                bool deep = (double)lo->layer_count * 4 * o.min_font >= o.fit_w;
                CHECKF((deep || lo->width <= o.fit_w + 1) && lo->height <= o.fit_h + 1,
                       "%s in %gx%g: %gx%g", sn_schedule_name(s), o.fit_w, o.fit_h, lo->width,
                       lo->height);
                /* fills: the width, or (few layers) it stretched all it may */
                double used = lo->wire_x1 - lo->wire_x0;
                CHECKF(lo->width >= 0.97 * o.fit_w || lo->height >= 0.97 * o.fit_h,
                       "%s in %gx%g: %gx%g (%g used)", sn_schedule_name(s), o.fit_w, o.fit_h,
                       lo->width, lo->height, used);
                /* wire labels keep the floor; values too unless the
                 * network is too deep for a column of them at that size */
                CHECKF(lo->font_size >= o.min_font, "%s: font %g", sn_schedule_name(s),
                       lo->font_size);
                if (!deep)
                    CHECKF(lo->value_font >= o.min_font, "%s in %gx%g: values at %g px",
                           sn_schedule_name(s), o.fit_w, o.fit_h, lo->value_font);
                CHECK(lo->label_every >= 1 &&
                      lo->pitch * lo->label_every >= lo->font_size * 1.05 - 1e-9);
                CHECK(lo->value_h <= lo->pitch);
                sn_layout_destroy(lo);
            }
            sn_schedule_destroy(s);
        }
    }
}

/* Three views drawn as rows: each frame gets its own area, stacked. */
static void test_group_frame(void)
{
    const char *specs[3] = {"bitonic:16", "oddeven-merge:16", "pairwise:16"};
    sn_group g;
    sn_diag d;
    sn_view_input in = rnd(3);
    CHECK(sn_group_init(&g, specs, 3, &in, &d) == SN_OK);
    sn_frame *fr[3] = {sn_frame_create(), sn_frame_create(), sn_frame_create()};
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1280, 720);
    cairo_t *cr = cairo_create(s);
    sn_frame_extra x = {"Title", "A caption of a sentence or two.", "step 1 of 2"};
    sn_box dirty[SN_FRAME_DIRTY_MAX];
    size_t nd = 99;
    CHECK(sn_frame_draw_group(fr, &g, &x, cr, 1280, 720, 1.0, dirty, &nd) == SN_OK);
    CHECK(nd == 0); /* the first frame is drawn whole */
    sn_box a[3];
    for (int i = 0; i < 3; i++)
        CHECK(sn_frame_area(fr[i], &a[i]) && a[i].w == 1280);
    CHECK(a[0].y > 40 && a[1].y >= a[0].y + a[0].h - 0.5 && a[2].y >= a[1].y + a[1].h - 0.5);
    /* one step later only the changing boxes are drawn */
    sn_group_action(&g, SN_ACT_RIGHT);
    CHECK(sn_frame_draw_group(fr, &g, &x, cr, 1280, 720, 1.0, dirty, &nd) == SN_OK);
    CHECK(nd >= 4 && nd <= SN_FRAME_DIRTY_MAX);
    double area = 0;
    for (size_t i = 0; i < nd; i++)
        area += dirty[i].w * dirty[i].h;
    CHECKF(area < 0.6 * 1280 * 720, "partial redraw covers %.0f px", area);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    for (int i = 0; i < 3; i++)
        sn_frame_destroy(fr[i]);
    sn_group_cleanup(&g);
}

int main(void)
{
    test_lockstep();
    test_status();
    test_bits_unsorted();
    test_lesson_parse();
    test_lesson_folder();
    test_shipped_lessons();
    test_record();
    test_fit();
    test_group_frame();
    return sn_test_finish("test_lecture");
}
