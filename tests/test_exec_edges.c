/* test_exec_edges.c - the executor's and the 0-1 profile's less travelled
 * paths, checked by what they give: a trace asked without a schedule or
 * without its input is refused (SN_EINVAL naming what is missing), and
 * more threads than the executor or the profile run are clamped to their
 * maximum with the same results as one thread. test_exec has the rest
 * (and is long: these stay out of it). */
#include <stdint.h>
#include <string.h>

#include "core/analysis.h"
#include "core/exec.h"
#include "core/format.h"
#include "core/schedule.h"
#include "sn_test.h"

static void test_trace_refusals(const sn_schedule *s)
{
    sn_trace *tr = (sn_trace *)1;
    sn_diag d;
    sn_diag_clear(&d);
    CHECK(sn_trace_record(NULL, SN_KEY_U32, NULL, NULL, SN_TRACE_AUTO, &tr, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "trace: missing schedule or input") != NULL);
    sn_diag_clear(&d);
    CHECK(sn_trace_record(s, SN_KEY_U32, NULL, NULL, SN_TRACE_FULL, &tr, &d) == SN_EINVAL);
    CHECK(strstr(d.text, "trace: missing schedule or input") != NULL);
}

static void test_many_threads(const sn_schedule *s)
{
    uint32_t keys[8] = {8, 3, 5, 1, 7, 2, 6, 4};
    sn_exec_opts o;
    memset(&o, 0, sizeof o);
    o.threads = 1000; /* past SN_EXEC_THREADS_MAX */
    CHECK(sn_exec_run_opts(s, SN_KEY_U32, keys, NULL, &o));
    for (uint32_t i = 0; i < 8; i++)
        CHECKF(keys[i] == i + 1, "keys[%u] = %u", i, keys[i]);

    sn_zero_one one, many;
    memset(&one, 0, sizeof one);
    memset(&many, 0, sizeof many);
    CHECK(sn_zero_one_profile(s, 24, 1, &one, NULL) == SN_OK);
    CHECK(sn_zero_one_profile(s, 24, 1000, &many, NULL) == SN_OK); /* past the pool's maximum */
    CHECK(one.layers == many.layers && one.inputs == 256 && many.inputs == 256);
    for (size_t k = 0; one.sorted && many.sorted && k <= one.layers; k++)
        CHECK(one.sorted[k] == many.sorted[k]);
    CHECK(many.sorted && many.sorted[many.layers] == 256);
    sn_zero_one_free(&one);
    sn_zero_one_free(&many);
}

int main(void)
{
    sn_schedule *s = NULL;
    CHECK(sn_schedule_load("bitonic:8", &s, NULL) == SN_OK);
    if (s) {
        test_trace_refusals(s);
        test_many_threads(s);
    }
    sn_schedule_destroy(s);
    return sn_test_finish("test_exec_edges");
}
