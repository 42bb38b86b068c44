/* verdict.h - the edit mode's live verdict: the 0-1 checker (sn_check_run)
 * on a worker thread, so the window never freezes. One job at a time:
 * starting a new one cancels the old (through the checker's cancel flag)
 * and drops its result. The window polls for the result in its tick;
 * scripted runs wait for it so they stay deterministic. */
#ifndef SN_VERDICT_H
#define SN_VERDICT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/check.h"
#include "core/network.h"
#include "core/status.h"

typedef struct sn_verdict sn_verdict;

typedef struct sn_verdict_result {
    uint64_t id;           /* the job's id, as given to sn_verdict_start */
    sn_status status;      /* SN_OK: check is filled; else why says why not */
    sn_check_result check; /* owned by the receiver: sn_check_result_free */
    char why[256];
} sn_verdict_result;

sn_verdict *sn_verdict_create(void);
void sn_verdict_destroy(sn_verdict *w); /* cancels and joins a running job; NULL is a no-op */

/* Check net (consumed, even on failure) on a new thread as job `id`,
 * cancelling any running job first. When no thread can be started the
 * check runs here, before this returns, and its result waits to be taken.
 * SN_ENOMEM. */
sn_status sn_verdict_start(sn_verdict *w, sn_network *net, uint64_t id);

/* Cancel the running job, if any, and drop its result. */
void sn_verdict_cancel(sn_verdict *w);

/* true when a job is running or its result has not been taken yet. */
bool sn_verdict_pending(const sn_verdict *w);

/* Progress of the running job in [0, 1] (0 when unknown). */
double sn_verdict_progress(sn_verdict *w);

/* Take the finished job's result (true), or false while it runs or when
 * there is none. With wait, block until the running job ends. */
bool sn_verdict_take(sn_verdict *w, bool wait, sn_verdict_result *out);

#endif
