/* test_check_api.c - sn_api_check (core/check_api.h): in a build with
 * SN_API_CHECKS a broken precondition aborts naming the function and the
 * condition; the suite itself never trips one (every other test runs with
 * the checks on). Skips (77) in a build without them (Release). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/exec.h"
#include "core/network.h"
#include "core/schedule.h"
#include "sn_test.h"

/* Run fn in a child with stderr in a pipe: true when it died of SIGABRT
 * and said `says`. */
static bool aborts_saying(void (*fn)(void), const char *says)
{
    int fds[2];
    if (pipe(fds) != 0)
        return false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        fn();
        _exit(0);
    }
    close(fds[1]);
    char buf[512];
    ssize_t got = read(fds[0], buf, sizeof buf - 1);
    close(fds[0]);
    buf[got > 0 ? got : 0] = '\0';
    int status = 0;
    waitpid(pid, &status, 0);
    bool ok = WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && strstr(buf, says);
    if (!ok)
        fprintf(stderr, "child said: %s\n", buf);
    return ok;
}

static void state_past_the_end(void)
{
    sn_schedule *s = NULL;
    sn_diag d;
    if (sn_schedule_generate(SN_ALGO_BITONIC, 4, &s, &d) != SN_OK)
        return;
    uint32_t keys[4] = {4, 3, 2, 1};
    sn_trace *tr = NULL;
    if (sn_trace_record(s, SN_KEY_U32, keys, NULL, SN_TRACE_FULL, &tr, &d) != SN_OK)
        return;
    (void)sn_trace_state(tr, sn_trace_layer_count(tr) + 1); /* the header: k in [0, L] */
}

static void layer_of_no_network(void)
{
    size_t count;
    (void)sn_network_layer(NULL, 0, &count);
}

int main(void)
{
#ifndef SN_API_CHECKS
    SKIP("built without SN_API_CHECKS (a Release build): the checks are compiled out");
#else
    CHECK(aborts_saying(state_past_the_end, "sn_trace_state (" /* function, then file:line */));
    CHECK(
        aborts_saying(state_past_the_end, "precondition failed: tr != NULL && step <= tr->layers"));
    CHECK(aborts_saying(layer_of_no_network, "sn_network_layer ("));
    return sn_test_finish("test_check_api");
#endif
}
