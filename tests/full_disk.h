/* full_disk.h - the tests' full disk: a stream that takes `room` bytes and
 * then fails with ENOSPC, as a disk that fills while a file is written
 * (the write that crosses the edge lands in part, as on a file).
 * It keeps what it took, so that a test compares it with the whole output
 * (the same writer on a disk with no limit, SN_FULL_DISK_NO_LIMIT): a run
 * that succeeds must have written exactly that, and one that fails (SN_EIO
 * naming the cause) a beginning of it, never other bytes (sn_full_disk_holds;
 * a stream cannot be taken back: keeping an old file whole is the atomic
 * writer's part, the command line's, tests/cli_io.sh). The writers' tests
 * loop room over 0, 1, 2, ... Define _GNU_SOURCE (for fopencookie) before
 * the first include of the translation unit. */
#ifndef SN_FULL_DISK_H
#define SN_FULL_DISK_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define SN_FULL_DISK_NO_LIMIT SIZE_MAX

typedef struct sn_full_disk {
    size_t room, used;
    char *data; /* the used bytes (malloc'd; sn_full_disk_free) */
    bool lost;  /* out of memory keeping them: the test's own failure */
} sn_full_disk;

/* As write(2) on a file that fills: the bytes that fit land, in order;
 * past them the call fails with ENOSPC (glibc's file streams retry a short
 * write, and that retry is what fails), and so does every later one. */
static inline ssize_t sn_full_disk_write(void *cookie, const char *buf, size_t size)
{
    sn_full_disk *k = cookie;
    size_t fit = size < k->room - k->used ? size : k->room - k->used;
    if (fit > 0) {
        char *data = realloc(k->data, k->used + fit);
        if (!data) {
            k->lost = true;
            errno = ENOMEM;
            return -1;
        }
        memcpy(data + k->used, buf, fit);
        k->data = data;
        k->used += fit;
    }
    if (fit < size) {
        errno = ENOSPC;
        return -1;
    }
    return (ssize_t)size;
}

/* A stream on *k with `room` bytes of space; unbuffered (every write of
 * the writer reaches the disk) or with stdio's own buffer. NULL when
 * fopencookie fails. After fclose, k holds what was written until
 * sn_full_disk_free. */
static inline FILE *sn_full_disk_open(sn_full_disk *k, size_t room, bool buffered)
{
    k->room = room;
    k->used = 0;
    k->data = NULL;
    k->lost = false;
    cookie_io_functions_t io = {NULL, sn_full_disk_write, NULL, NULL};
    FILE *f = fopencookie(k, "w", io);
    if (f && !buffered)
        setvbuf(f, NULL, _IONBF, 0);
    return f;
}

static inline void sn_full_disk_free(sn_full_disk *k)
{
    free(k->data);
    k->data = NULL;
    k->used = 0;
}

/* Whether the disk holds the whole output whole[0..len) (complete: a run
 * that succeeded) or a beginning of it (a run that failed part way). */
static inline bool sn_full_disk_holds(const sn_full_disk *k, const char *whole, size_t len,
                                      bool complete)
{
    if (k->lost || (complete ? k->used != len : k->used > len))
        return false;
    return k->used == 0 || memcmp(k->data, whole, k->used) == 0;
}

/* What differs between two runs of the same writer, left out of k's bytes:
 * the digits after each `word`, dropped, or (zero) each made '0' (cairo
 * numbers its SVG surfaces across the process, id="surface12"; a PDF's
 * /CreationDate has the clock's second). */
static inline void sn_full_disk_mask_digits(sn_full_disk *k, const char *word, bool zero)
{
    size_t len = strlen(word), w = 0;
    for (size_t r = 0; r < k->used;) {
        if (k->used - r < len || memcmp(k->data + r, word, len) != 0) {
            k->data[w++] = k->data[r++];
            continue;
        }
        memmove(k->data + w, k->data + r, len);
        w += len;
        r += len;
        for (; r < k->used && k->data[r] >= '0' && k->data[r] <= '9'; r++)
            if (zero)
                k->data[w++] = '0';
    }
    k->used = w;
}

#endif
