/* fuzz_answer.c - the verdict answer a page's worker hands back
 * (sn_verdict_parse_answer, src/web/verdict_web.c): any bytes are either
 * refused or give a result whose arrays match its counts. */
#include <stdint.h>
#include <string.h>

#include "web/verdict_web.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sn_verdict_result r;
    if (sn_verdict_parse_answer((const char *)data, size, &r)) {
        if (r.status == SN_OK && !r.check.sorts)
            for (uint32_t i = 0; i < r.check.n; i++)
                if (r.check.counterexample[i] > 1)
                    __builtin_trap();
        for (size_t i = 0; i < r.check.redundant_count; i++)
            (void)r.check.redundant[i];
        if (strlen(r.why) >= sizeof r.why)
            __builtin_trap();
        sn_check_result_free(&r.check);
    }
    return 0;
}
