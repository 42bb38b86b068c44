/* full_disk.h - the tests' full disk: a stream that takes `room` bytes and
 * then fails with ENOSPC, as a disk that fills while a file is written.
 * The writers' tests loop room over 0, 1, 2, ... and expect SN_EIO naming
 * the cause wherever a write cannot finish. Define _GNU_SOURCE (for
 * fopencookie) before the first include of the translation unit. */
#ifndef SN_FULL_DISK_H
#define SN_FULL_DISK_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

typedef struct sn_full_disk {
    size_t room, used;
} sn_full_disk;

static inline ssize_t sn_full_disk_write(void *cookie, const char *buf, size_t size)
{
    (void)buf;
    sn_full_disk *k = cookie;
    if (k->used + size > k->room) {
        errno = ENOSPC;
        return -1;
    }
    k->used += size;
    return (ssize_t)size;
}

/* A stream on *k with `room` bytes of space; unbuffered (every write of
 * the writer reaches the disk) or with stdio's own buffer. NULL when
 * fopencookie fails. */
static inline FILE *sn_full_disk_open(sn_full_disk *k, size_t room, bool buffered)
{
    k->room = room;
    k->used = 0;
    cookie_io_functions_t io = {NULL, sn_full_disk_write, NULL, NULL};
    FILE *f = fopencookie(k, "w", io);
    if (f && !buffered)
        setvbuf(f, NULL, _IONBF, 0);
    return f;
}

#endif
