/* check_api.h - sn_api_check(cond): a precondition a header states,
 * checked where a caller enters core, render or the view (as Lua's
 * api_check). On in Debug and every build that runs the tests
 * (SN_API_CHECKS, CMake's SORTNET_API_CHECKS: AUTO turns it on for every
 * build type but Release and MinSizeRel); compiled out in Release, where
 * cond is not even evaluated, so it must have no side effects.
 *
 * A failed check is a bug in the caller, not bad input: it names the
 * function, file, line and condition on stderr and aborts (the one place
 * the core prints, as assert would). Bad input is never checked here: it
 * is an sn_status with a message. */
#ifndef SN_CHECK_API_H
#define SN_CHECK_API_H

#ifdef SN_API_CHECKS
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void sn_api_check_failed(const char *cond, const char *func, const char *file, int line);
#define sn_api_check(cond)                                                                         \
    ((cond) ? (void)0 : sn_api_check_failed(#cond, __func__, __FILE__, __LINE__))
#else
#define sn_api_check(cond) ((void)0)
#endif

#endif
