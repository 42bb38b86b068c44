/* verdict_web.h - what the page's build of the live verdict (verdict_web.c,
 * the sn_verdict API of verdict.h without threads) adds: the check of a
 * network's bracket text into a compact answer, which a Web Worker runs in
 * its own instance of the module, and the hand-back of that answer.
 *
 * The answer is one line of text (the worker's instance and the page's
 * share nothing but strings):
 *     v1 ok SORTS N FAILING CEX REDUNDANT
 *     v1 error WHY
 * SORTS is 1 or 0; N the wires; FAILING the failing 0-1 inputs; CEX the
 * smallest failing input as 0/1 digits, wire 0 first ("-" when it sorts);
 * REDUNDANT the never-swapping comparators' indices in layer order,
 * comma-separated ("-" when none, "?" when the method cannot tell); WHY
 * the rest of the line. */
#ifndef SN_VERDICT_WEB_H
#define SN_VERDICT_WEB_H

#include <stddef.h>
#include <stdint.h>

#include "core/status.h"
#include "session/verdict.h"

/* Check the network in text[0..len) (any format sortnet reads; the jobs
 * offered to the page are in the sn format, which keeps n) and write
 * the answer line into *answer (sn_malloc'd). A text that does not parse
 * or cannot be checked gives an "error" answer, not a failure: only
 * SN_ENOMEM is returned as such. */
sn_status sn_verdict_check_text(const char *text, size_t len, char **answer);

/* Parse an answer line into out (out->check owned by the caller). false
 * when it is not one. */
bool sn_verdict_parse_answer(const char *answer, size_t len, sn_verdict_result *out);

/* Hand the answer of the page's job `js_id` to w: true when w's running
 * job is that one (its result is then taken by sn_verdict_take). */
bool sn_verdict_deliver(sn_verdict *w, uint32_t js_id, const char *answer, size_t len);

/* Outside WebAssembly (the native unit tests): what stands for the page's
 * js_verdict_start (NULL: no worker, as a page without one). */
typedef int (*sn_verdict_starter)(uint32_t js_id, const char *text, size_t len);
void sn_verdict_set_starter(sn_verdict_starter fn);

#endif
