/* nofs.c - the page's module has no file system: the C library calls that
 * take a path answer "no such file" here (wasm32 build only), instead of
 * wasi-libc's, which scan the preopened directories in _initialize (a
 * page's WASI shim that answers that scan with anything but EBADF made
 * _initialize exit with 71). The engine never opens a path: networks and
 * lessons arrive as text (engine.h); these are reached only through the
 * core's file readers, which then report the file as missing.
 *
 * Linked before wasi-libc, these definitions are the ones used; the
 * module then imports no path call and no preopen call at all. */
#if defined(__wasi__)
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

FILE *fopen(const char *restrict path, const char *restrict mode)
{
    (void)path;
    (void)mode;
    errno = ENOENT;
    return NULL;
}

int stat(const char *restrict path, struct stat *restrict st)
{
    (void)path;
    (void)st;
    errno = ENOENT;
    return -1;
}
#else
typedef int sn_nofs_unused; /* an empty file is not ISO C */
#endif
