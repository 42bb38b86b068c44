/* sn_test.h - a minimal assertion kit for the CTest executables: failures
 * print file:line and the expression, and the test exits 1 at the end. */
#ifndef SN_TEST_H
#define SN_TEST_H

#include <dirent.h> // for: opendir, readdir (assets/networks)
#include <stdio.h>
#include <stdlib.h>

#include "core/library.h"

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

/* A failure with no condition to show: a path the test must not reach. */
#define FAIL(what)                                                                                 \
    do {                                                                                           \
        fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, what);                            \
        sn_test_failures++;                                                                        \
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

/* The repository's assets/networks (env SN_NETWORKS, set by CTest), or
 * NULL when the test runs outside CTest. */
static inline const char *sn_test_networks_dir(void)
{
    const char *d = getenv("SN_NETWORKS");
    return (d && *d) ? d : NULL;
}

/* For every file of assets/networks' subfolder `sub` ("best" or "sn"), in
 * directory order, call visit(path, name, ctx). Returns the number of
 * files visited, or -1 when the folder cannot be opened (also when
 * SN_NETWORKS is not set). */
typedef void (*sn_test_visit)(const char *path, const char *name, void *ctx);
static inline int sn_test_each_network_file(const char *sub, sn_test_visit visit, void *ctx)
{
    const char *root = sn_test_networks_dir();
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

/* For every network of the embedded library (core/library.h), in the
 * library's order, call visit("lib:STEM", STEM, ctx): the spec loads with
 * sn_schedule_load like a file path. Returns the number visited. */
static inline int sn_test_each_library(sn_test_visit visit, void *ctx)
{
    char spec[256];
    sn_library_info e;
    int count = 0;
    for (size_t i = 0; sn_library_get(i, &e); i++, count++) {
        snprintf(spec, sizeof spec, "lib:%s", e.stem);
        visit(spec, e.stem, ctx);
    }
    return count;
}

#endif
