/* cli_out.c - atomic output files: a temporary beside the target, renamed
 * over it on success, removed on failure and on a fatal signal (the
 * registered temporaries of core/temp_file.h). */
#define _XOPEN_SOURCE 700 /* for: realpath (-o onto a symbolic link) */
#include "cli.h"

#include <errno.h>
#include <limits.h> // for: PATH_MAX
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h> // for: lstat, stat
#include <unistd.h>

#include "core/alloc.h"
#include "core/temp_file.h"
#include "headless/temp_signals.h" /* for: sn_headless_catch_temp_signals */

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static int open_target(cli_out *o, const char *path);

/* The file a write to path replaces: path itself, or, when path is a
 * symbolic link, the file it leads to (a dangling link's target is
 * made), so that the link stays a link, as editors write. sn_malloc'd;
 * NULL when out of memory. */
static char *write_target(const char *path)
{
    struct stat lb;
    if (lstat(path, &lb) != 0 || !S_ISLNK(lb.st_mode))
        return sn_strdup(path);
    char *real = realpath(path, NULL);
    if (real) {
        char *copy = sn_strdup(real);
        free(real);
        return copy;
    }
    /* dangling: follow the links by hand to the name that does not exist */
    char cur[PATH_MAX], link[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", path);
    for (int hop = 0; hop < 40 && lstat(cur, &lb) == 0 && S_ISLNK(lb.st_mode); hop++) {
        ssize_t k = readlink(cur, link, sizeof link - 1);
        if (k < 0)
            break;
        link[k] = '\0';
        const char *slash = strrchr(cur, '/');
        int dir = link[0] == '/' || !slash ? 0 : (int)(slash - cur + 1);
        char next[PATH_MAX];
        if (snprintf(next, sizeof next, "%.*s%s", dir, cur, link) >= (int)sizeof next)
            break;
        memcpy(cur, next, sizeof cur);
    }
    return sn_strdup(cur);
}

int cli_out_open(cli_out *o, const char *user_path)
{
    memset(o, 0, sizeof *o);
    o->slot = -1;
    if (strcmp(user_path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    char *target = write_target(user_path);
    if (!target)
        return cli_error(CLI_DEVICE, user_path, "out of memory");
    int rc = open_target(o, target);
    sn_free(target);
    return rc;
}

/* cli_out_open for a file: target is path with its links followed. */
static int open_target(cli_out *o, const char *path)
{
    /* A device, a FIFO or a socket (/dev/null, /dev/stdout, a pipe) is
     * written in place: renaming a temporary over it would replace the
     * node itself (as root, /dev/null with a regular file). */
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
        if (!(o->path = sn_strdup(path)))
            return cli_error(CLI_DEVICE, path, "out of memory");
        if (!(o->f = fopen(path, "wb"))) {
            int e = errno;
            cli_out_abort(o);
            return cli_error(CLI_USAGE, path, "cannot write: %s", strerror(e));
        }
        return 0;
    }
    size_t len = strlen(path);
    o->path = sn_strdup(path);
    o->tmp = sn_malloc(len + 32);
    if (!o->path || !o->tmp) {
        cli_out_abort(o);
        return cli_error(CLI_DEVICE, path, "out of memory");
    }
    /* The temporary sits beside the target so rename() stays on one file
     * system and is atomic; mkstemp makes it private and unique, and it is
     * registered: a fatal signal removes it (core/temp_file.h). */
    sn_headless_catch_temp_signals();
    int fd = sn_temp_file_create(path, o->tmp, len + 32, &o->slot);
    if (fd < 0) {
        int e = errno;
        sn_free(o->tmp);
        o->tmp = NULL;
        cli_out_abort(o);
        return cli_error(CLI_USAGE, path, "cannot write: %s", strerror(e));
    }
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int e = errno;
        close(fd);
        cli_out_abort(o);
        return cli_error(CLI_USAGE, path, "cannot write: %s", strerror(e));
    }
    return 0;
}

int cli_out_commit(cli_out *o)
{
    /* errno as the failed stdio call left it (EIO when that was earlier
     * and left none): the cause in the message */
    if (!o->path) { /* stdout */
        errno = 0;
        if (fflush(stdout) != 0 || ferror(stdout))
            return cli_error(CLI_USAGE, "stdout", "write error: %s", strerror(errno ? errno : EIO));
        return 0;
    }
    int failed = ferror(o->f) != 0;
    errno = 0;
    if (fflush(o->f) != 0)
        failed = 1;
    int e = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    o->f = NULL;
    if (!failed && o->tmp && rename(o->tmp, o->path) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed) {
        char path[512];
        snprintf(path, sizeof path, "%s", o->path);
        cli_out_abort(o);
        return cli_error(CLI_USAGE, path, "write failed: %s", strerror(e));
    }
    sn_temp_file_release(o->slot);
    sn_free(o->tmp);
    sn_free(o->path);
    o->tmp = o->path = NULL;
    o->slot = -1;
    return 0;
}

void cli_out_abort(cli_out *o)
{
    if (o->f && o->f != stdout)
        fclose(o->f);
    sn_temp_file_discard(o->slot); /* the temporary, when one was made */
    sn_free(o->tmp);
    sn_free(o->path);
    memset(o, 0, sizeof *o);
    o->slot = -1;
}
