/* alloc.c - the single allocation hook of the library (tests can make the
 * Nth allocation fail) and overflow-checked size arithmetic. */
#include "core/alloc.h"

#include <stdatomic.h> // for: the live count (the checker's threads allocate too)
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Countdown to an injected failure; 0 = never. Not thread-safe on purpose:
 * only single-threaded tests set it. */
static size_t fail_countdown;
static size_t alloc_calls;
/* Blocks handed out and not yet freed (sn_alloc_live). */
static atomic_long live_blocks;

static int should_fail(void)
{
    alloc_calls++;
    if (fail_countdown == 0)
        return 0;
    if (--fail_countdown == 0)
        return 1;
    return 0;
}

size_t sn_alloc_fail_after(size_t countdown)
{
    size_t made = alloc_calls;
    alloc_calls = 0;
    fail_countdown = countdown;
    return made;
}

size_t sn_alloc_live(void)
{
    long n = atomic_load(&live_blocks);
    return n > 0 ? (size_t)n : 0;
}

static void *counted(void *p)
{
    if (p)
        atomic_fetch_add(&live_blocks, 1);
    return p;
}

void *sn_malloc(size_t size)
{
    if (size == 0 || should_fail())
        return NULL;
    return counted(malloc(size));
}

void *sn_calloc(size_t count, size_t size)
{
    size_t total;
    if (!sn_mul_size(count, size, &total) || total == 0 || should_fail())
        return NULL;
    return counted(calloc(count, size));
}

void *sn_realloc(void *p, size_t size)
{
    if (size == 0 || should_fail())
        return NULL;
    void *q = realloc(p, size);
    return p ? q : counted(q); /* a resized block is the same block */
}

void sn_free(void *p)
{
    if (p)
        atomic_fetch_sub(&live_blocks, 1);
    free(p);
}

char *sn_strdup(const char *s)
{
    if (!s)
        s = "";
    size_t len = strlen(s);
    char *copy = sn_malloc(len + 1);
    if (copy)
        memcpy(copy, s, len + 1);
    return copy;
}

bool sn_mul_size(size_t a, size_t b, size_t *out)
{
    if (a != 0 && b > SIZE_MAX / a)
        return false;
    *out = a * b;
    return true;
}

bool sn_add_size(size_t a, size_t b, size_t *out)
{
    if (b > SIZE_MAX - a)
        return false;
    *out = a + b;
    return true;
}
