/* sn_test.h - a minimal assertion kit for the CTest executables: failures
 * print file:line and the expression, and the test exits 1 at the end. */
#ifndef SN_TEST_H
#define SN_TEST_H

#include <dirent.h> // for: opendir, readdir (the shared networks folder)
#include <stdio.h>
#include <stdlib.h>

static int sn_test_failures;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);               \
            sn_test_failures++;                                                                    \
        }                                                                                          \
    } while (0)

#define CHECKF(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);               \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            sn_test_failures++;                                                                    \
        }                                                                                          \
    } while (0)

/* Skip the whole test (exit code 77, CTest's SKIP_RETURN_CODE). */
#define SKIP(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "SKIP: ");                                                                 \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
        exit(77);                                                                                  \
    } while (0)

static inline int sn_test_finish(const char *name)
{
    if (sn_test_failures) {
        fprintf(stderr, "%s: %d check(s) failed\n", name, sn_test_failures);
        return 1;
    }
    printf("%s: all checks passed\n", name);
    return 0;
}

/* Directory of ../shared/networks (env SN_SHARED_NETWORKS), or NULL. */
static inline const char *sn_test_shared_networks(void)
{
    const char *d = getenv("SN_SHARED_NETWORKS");
    return (d && *d) ? d : NULL;
}

/* For every file of the shared networks' subfolder `sub` ("best", "bracket"
 * or "sn"), in directory order, call visit(path, name, ctx). Returns the
 * number of files visited, or -1 when the folder cannot be opened (also
 * when SN_SHARED_NETWORKS is not set). */
typedef void (*sn_test_visit)(const char *path, const char *name, void *ctx);
static inline int sn_test_each_shared(const char *sub, sn_test_visit visit, void *ctx)
{
    const char *root = sn_test_shared_networks();
    char path[4096];
    if (!root)
        return -1;
    snprintf(path, sizeof path, "%s/%s", root, sub);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", root, sub, e->d_name);
        visit(path, e->d_name, ctx);
        count++;
    }
    closedir(d);
    return count;
}

#endif
