/* alloc.h - every allocation of the library goes through these hooks, so a
 * test can make the Nth allocation fail and check that nothing leaks or
 * crashes; and checked size arithmetic, so overflow is impossible by
 * construction. */
#ifndef SN_ALLOC_H
#define SN_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

void *sn_malloc(size_t size);               /* NULL on failure or size 0 */
void *sn_calloc(size_t count, size_t size); /* NULL on failure or overflow */
void *sn_realloc(void *p, size_t size);     /* like realloc; p may be NULL */
void sn_free(void *p);                      /* NULL is a no-op */
/* A copy of s (NULL copies as ""), through the same hook; NULL on failure. */
char *sn_strdup(const char *s);

/* Testing hook: the countdown-th allocation from now on fails (and every
 * later one succeeds). 0 disables. Returns the number of allocations made
 * since the last call (handy to find N). */
size_t sn_alloc_fail_after(size_t countdown);
/* Testing hook: blocks allocated through these hooks and not yet freed,
 * so an out-of-memory test can check that a failed call leaked nothing
 * (as SQLite's sqlite3_memory_used) without a sanitizer. */
size_t sn_alloc_live(void);

/* *out = a * b (a + b); false (and *out untouched) on overflow. */
bool sn_mul_size(size_t a, size_t b, size_t *out);
bool sn_add_size(size_t a, size_t b, size_t *out);

#endif
