/* test_temp_file.c - the registered temporaries (src/core/temp_file.h):
 * made beside their target with fopen's mode, one slot each while open
 * (ENFILE when all are taken), ENAMETOOLONG for a name that does not fit,
 * released slots reused, and sn_temp_file_unlink_all (what a fatal
 * signal's handler calls) removing exactly the temporaries still open. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/temp_file.h"
#include "sn_test.h"

enum { MAX_OPEN = 64 };

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0;
}

int main(void)
{
    char dir[] = "/tmp/sn_test_temp_XXXXXX";
    if (!mkdtemp(dir)) {
        FAIL("mkdtemp");
        return sn_test_finish("test_temp_file");
    }
    char target[512];
    snprintf(target, sizeof target, "%s/out.txt", dir);
    mode_t mask = umask(022);

    /* beside the target, mode 0666 less the umask */
    char name[MAX_OPEN][4096];
    int fd[MAX_OPEN], slot[MAX_OPEN];
    fd[0] = sn_temp_file_create(target, name[0], sizeof name[0], &slot[0]);
    CHECK(fd[0] >= 0 && slot[0] >= 0);
    CHECKF(strncmp(name[0], dir, strlen(dir)) == 0, "%s is not in %s", name[0], dir);
    struct stat st;
    CHECK(fstat(fd[0], &st) == 0 && (st.st_mode & 0777) == 0644);

    /* a slot each until none is left: ENFILE, and nothing made */
    int open_count = 1;
    for (int i = 1; i < MAX_OPEN; i++) {
        errno = 0;
        fd[i] = sn_temp_file_create(target, name[i], sizeof name[i], &slot[i]);
        if (fd[i] < 0) {
            CHECKF(errno == ENFILE, "temporary %d: errno %d", i, errno);
            CHECK(slot[i] == -1);
            break;
        }
        CHECK(slot[i] >= 0 && slot[i] != slot[i - 1]);
        open_count++;
    }
    CHECKF(open_count > 1 && open_count < MAX_OPEN, "%d temporaries at once", open_count);

    /* a released slot is free again, and its file is the caller's */
    CHECK(rename(name[1], target) == 0);
    sn_temp_file_release(slot[1]);
    int again = -1;
    char again_name[4096];
    int fd_again = sn_temp_file_create(target, again_name, sizeof again_name, &again);
    CHECK(fd_again >= 0 && again == slot[1]);
    /* a discarded one is removed */
    sn_temp_file_discard(slot[2]);
    CHECK(!exists(name[2]));
    sn_temp_file_discard(slot[2]); /* twice, and out of range: nothing */
    sn_temp_file_discard(-1);
    sn_temp_file_release(-1);

    /* the signal's clean-up removes every temporary still registered, and
     * not the renamed target */
    sn_temp_file_unlink_all();
    for (int i = 0; i < open_count; i++)
        if (i != 1)
            CHECKF(!exists(name[i]), "%s is left", name[i]);
    CHECK(!exists(again_name));
    CHECK(exists(target));
    for (int i = 0; i < open_count; i++) {
        close(fd[i]);
        sn_temp_file_release(slot[i]);
    }
    close(fd_again);
    sn_temp_file_release(again);

    /* a name that does not fit: ENAMETOOLONG, nothing made, no slot */
    char small[8];
    int s = 5;
    errno = 0;
    CHECK(sn_temp_file_create(target, small, sizeof small, &s) == -1);
    CHECK(errno == ENAMETOOLONG && s == -1);

    umask(mask);
    unlink(target);
    CHECK(rmdir(dir) == 0); /* empty: nothing else was left */
    return sn_test_finish("test_temp_file");
}
