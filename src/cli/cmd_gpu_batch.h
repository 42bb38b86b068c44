/* cmd_gpu_batch.h - `sortnet gpu batch` and gpu bench's batch variant
 * (cmd_gpu_batch.c), called from the gpu dispatcher and from gpu bench. */
#ifndef SN_CMD_GPU_BATCH_H
#define SN_CMD_GPU_BATCH_H

#include <stdbool.h>

/* `sortnet gpu batch NET --arrays M ...`; argv[0] is "batch". */
int cmd_gpu_batch(int argc, char **argv);

/* Whether gpu bench's arguments ask for the batch variant (--variant
 * batch), and running that bench; argv[0] is "bench". */
bool cmd_gpu_bench_wants_batch(int argc, char **argv);
int cmd_gpu_bench_batch(int argc, char **argv);

#endif
