/* cmd_gpu_batch.h - `sortnet gpu batch` and gpu bench's batch variant
 * (cmd_gpu_batch.c), called from the gpu dispatcher and from gpu bench. */
#ifndef SN_CMD_GPU_BATCH_H
#define SN_CMD_GPU_BATCH_H

#include <stdbool.h>
#include <stdint.h>

/* `sortnet gpu batch NET --arrays M ...`; argv[0] is "batch". */
int cmd_gpu_batch(int argc, char **argv);

/* --arrays M: a count in 1..2^32-1, or 2^E (E in 0..31); 0, or exit code 2
 * after the error was printed. */
int cli_gpu_batch_arrays_arg(const char *s, uint64_t *out);

/* Whether gpu bench's arguments ask for the batch variant (--variant
 * batch), and running that bench; argv[0] is "bench". */
bool cmd_gpu_bench_wants_batch(int argc, char **argv);
int cmd_gpu_bench_batch(int argc, char **argv);

#endif
