/* test_verdict_web.c - the page's verdict answers (src/web/verdict_web.h)
 * read back: every well-formed kind (sorts, a counterexample, redundant
 * comparators listed or unknown, an error with its reason, line ends)
 * parses to the fields it carries, and every malformed one (a wrong
 * version or kind, a missing or non-numeric field, numbers out of range, a
 * counterexample of the wrong length or with other digits, a bad list of
 * redundant comparators) is refused, with nothing left allocated. */
#include <string.h>

#include "core/alloc.h"
#include "sn_test.h"
#include "web/verdict_web.h"

#define LEN(s) s, strlen(s)

static void refused(const char *answer)
{
    sn_verdict_result r;
    size_t live = sn_alloc_live();
    CHECKF(!sn_verdict_parse_answer(LEN(answer), &r), "'%s' was accepted", answer);
    CHECKF(sn_alloc_live() == live, "'%s': a block left", answer);
}

int main(void)
{
    sn_verdict_result r;
    CHECK(sn_verdict_parse_answer(LEN("v1 ok 1 4 0 - -\r\n"), &r));
    CHECK(r.status == SN_OK && r.check.sorts && r.check.n == 4 && r.check.failing_count == 0);
    CHECK(!r.check.redundant_unknown && r.check.redundant_count == 0);
    sn_check_result_free(&r.check);
    CHECK(sn_verdict_parse_answer(LEN("v1 ok 0 4 3 0110 ?"), &r));
    CHECK(r.status == SN_OK && !r.check.sorts && r.check.failing_count == 3);
    CHECK(r.check.counterexample && r.check.counterexample[0] == 0 &&
          r.check.counterexample[1] == 1 && r.check.counterexample[3] == 0);
    CHECK(r.check.redundant_unknown);
    sn_check_result_free(&r.check);
    CHECK(sn_verdict_parse_answer(LEN("v1  ok 1 8 0 - 3,0,12"), &r));
    CHECK(r.check.redundant_count == 3 && r.check.redundant[0] == 3 && r.check.redundant[2] == 12);
    sn_check_result_free(&r.check);
    CHECK(sn_verdict_parse_answer(LEN("v1 error   the network has no wires\n"), &r));
    CHECK(r.status == SN_EINVAL && strcmp(r.why, "the network has no wires") == 0);
    char longwhy[400] = "v1 error ";
    memset(longwhy + 9, 'x', 380);
    longwhy[389] = '\0';
    CHECK(sn_verdict_parse_answer(LEN(longwhy), &r));
    CHECK(r.status == SN_EINVAL && strlen(r.why) == sizeof r.why - 1);

    static const char *const bad[] = {
        "",
        "\n",
        "v2 ok 1 4 0 - -",
        "v1",
        "v1 maybe 1 4 0 - -",
        "v1 ok",
        "v1 ok 2 4 0 - -",
        "v1 ok x 4 0 - -",
        "v1 ok 1 1048577 0 - -",
        "v1 ok 1 4",
        "v1 ok 1 4 -1 - -",
        "v1 ok 1 4 99999999999999999999 - -",
        "v1 ok 1 4 123456789012345678901 - -",
        "v1 ok 1 4 0",
        "v1 ok 1 4 0 -",
        "v1 ok 0 4 1 011 -",
        "v1 ok 0 4 1 01101 -",
        "v1 ok 0 4 1 0120 -",
        "v1 ok 0 4 1 0110",
        "v1 ok 1 4 0 - 1,,2",
        "v1 ok 1 4 0 - 1,x",
        "v1 ok 1 4 0 - ,",
        "v1 ok 1 4 0 - 3,",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        refused(bad[i]);
    /* and under allocation failure: refused, nothing left */
    sn_alloc_fail_after(1);
    refused("v1 ok 0 4 1 0110 -");
    sn_alloc_fail_after(1);
    refused("v1 ok 1 4 0 - 1,2");
    sn_alloc_fail_after(0);
    return sn_test_finish("test_verdict_web");
}
