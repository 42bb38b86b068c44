/* cli_time.h - the clock and the median that the timing commands (run,
 * gpu sort, gpu bench) share. */
#ifndef SN_CLI_TIME_H
#define SN_CLI_TIME_H

#include <stddef.h>

/* Milliseconds on the monotonic clock (differences only). */
double cli_now_ms(void);

/* The median of v[0..n) (n > 0); sorts v in place. */
double cli_median(double *v, size_t n);

#endif
