/* check_api.c - what a failed sn_api_check does (check_api.h). */
#include "core/check_api.h"

#ifdef SN_API_CHECKS
#include <stdio.h>
#include <stdlib.h>

void sn_api_check_failed(const char *cond, const char *func, const char *file, int line)
{
    fprintf(stderr, "sortnet: internal error: %s (%s:%d): precondition failed: %s\n", func, file,
            line, cond);
    abort();
}
#else
/* ISO C wants a translation unit to declare something */
typedef int sn_check_api_unused;
#endif
