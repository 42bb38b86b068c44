/* test_web_link.c - the page engine's links natively (src/web/engine.h,
 * "links"): snw_link follows what is shown, snw_link_open shows what a
 * link names (a name, an edited network, a shipped lesson's step, the
 * lesson baked into a page) and refuses a bad link with one line and
 * nothing changed; snw_lesson_close leaves a lesson. What chromium does
 * with them is tests/web_link_test.py. */
#include <string.h>

#include "sn_test.h"
#include "web/engine.h"

#define LEN(s) (s), strlen(s)

static int link_open(const char *text)
{
    return snw_link_open(LEN(text), NULL, 0, NULL, 0);
}

/* the state's "name" and "step", as "NAME STEP" */
static const char *shown(void)
{
    static char out[160];
    const char *s = snw_state(), *n = strstr(s, "\"name\":\""), *k = strstr(s, "\"step\":");
    if (!n || !k)
        return "";
    n += 8;
    const char *e = strchr(n, '"');
    snprintf(out, sizeof out, "%.*s %d", (int)(e - n), n, atoi(k + 7));
    return out;
}

int main(void)
{
    /* nothing shown yet: no link */
    CHECK(strcmp(snw_link(), "") == 0 && strstr(snw_error(), "link: nothing is shown"));
    CHECK(snw_open(LEN("bitonic:8"), LEN("random:7")) == 0);
    CHECK(strcmp(snw_link(), "v1&net=bitonic:8&in=random:7&end") == 0);
    CHECK(snw_step_to(3) == 0);
    CHECK(strcmp(snw_link(), "v1&net=bitonic:8&in=random:7&step=3&end") == 0);

    /* a link opens the same state */
    CHECK(link_open("v1&net=oddeven-merge:8&in=reverse&step=2&end") == 0);
    CHECKF(strcmp(shown(), "oddeven-merge:8 2") == 0, "%s", shown());
    CHECK(strcmp(snw_link(), "v1&net=oddeven-merge:8&in=reverse&step=2&end") == 0);

    /* an edited network: its comparators */
    CHECK(snw_action(LEN("e")) >= 0 && snw_action(LEN("tab")) >= 0 &&
          snw_action(LEN("delete")) >= 0);
    const char *l = snw_link();
    CHECKF(strncmp(l, "v1&cmp=8/", 9) == 0 && strstr(l, "&in=reverse&"), "%s", l);
    char edited[4096];
    snprintf(edited, sizeof edited, "%s", l);
    CHECK(link_open(edited) == 0 && strcmp(snw_link(), edited) == 0);

    /* bad links: one line, nothing changed */
    const char *bad[][2] = {
        {"v1&net=bitonic:8&step=3", "link: truncated"},
        {"v1&net=bitonic:8&step=9&end", "link: step=9, and bitonic:8 has 6 layers"},
        {"v1&net=nosuch:8&end", "link: "},
        {"v1&net=bitonic:4096&end", "the page shows 1 to"},
        {"v1&cmp=2000&end", "link: 2000 wires; the page shows 1 to"},
        {"v1&lesson=nosuchlesson&end", "link: "},
        {"", "link: empty"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECKF(link_open(bad[i][0]) == 2, "%s", bad[i][0]);
        CHECKF(strstr(snw_error(), bad[i][1]) && !strchr(snw_error(), '\n'), "%s: %s", bad[i][0],
               snw_error());
        CHECKF(strcmp(snw_link(), edited) == 0, "%s changed the page", bad[i][0]);
    }

    /* a shipped lesson's step, then left */
    CHECK(link_open("v1&lesson=02&ls=2&step=1&end") == 0);
    l = snw_link();
    CHECKF(strncmp(l, "v1&lesson=02-", 13) == 0 && strstr(l, "&ls=2&step=1&end"), "%s", l);
    CHECK(strstr(snw_state(), "\"lesson\":{") != NULL);
    CHECK(snw_lesson_close() == 1);
    CHECK(strstr(snw_state(), "\"lesson\":null") != NULL);
    CHECK(snw_lesson_close() == 0);
    CHECKF(strncmp(snw_link(), "v1&net=", 7) == 0 || strncmp(snw_link(), "v1&cmp=", 7) == 0, "%s",
           snw_link());

    /* the lesson baked into a page, named by the link */
    const char *baked = "title: Mine\n\nstep: one\nnet: bitonic:4\ninput: 4,3,2,1\ntext: One.\n\n"
                        "step: two\nnet: oddeven-merge:4\ninput: 4,3,2,1\ntext: Two.\n";
    CHECKF(snw_link_open(LEN("v1&lesson=mine.lesson&ls=1&end"), LEN(baked), LEN("mine.lesson")) ==
               0,
           "%s", snw_error());
    CHECKF(strstr(snw_state(), "\"title\":\"Mine\"") &&
               strstr(snw_state(), "\"step\":1,\"count\":2"),
           "%s", snw_state());
    CHECK(strcmp(snw_link(), "v1&lesson=mine.lesson&ls=1&step=0&end") == 0);
    /* a baked lesson that does not parse: its line */
    CHECK(snw_link_open(LEN("v1&lesson=bad.lesson&end"), LEN("step: x\nnet: nosuch:4\n"),
                        LEN("bad.lesson")) == 2);
    CHECKF(strstr(snw_error(), "bad.lesson"), "%s", snw_error());
    return sn_test_finish("test_web_link");
}
