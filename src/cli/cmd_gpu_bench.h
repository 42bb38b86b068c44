/* cmd_gpu_bench.h - what `sortnet gpu bench` (cmd_gpu_bench.c) takes from
 * its option parser (cmd_gpu_bench_args.c). */
#ifndef SN_CMD_GPU_BENCH_H
#define SN_CMD_GPU_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/exec.h"
#include "core/schedule.h"

#define BENCH_MAX_SIZES 64
#define BENCH_MAX_NETS 8

typedef struct bench_args {
    uint32_t sizes[BENCH_MAX_SIZES];
    size_t nsizes;
    const char *spec, *csv, *plot;
    sn_key_type type;
    uint64_t reps, cpu_max;
    bool profile;
    bool pinned; /* --pinned */
    bool netv[3];          /* --variants: naive, closed, fused */
    char vbuf[256];        /* --variants' list, cut at the commas */
    const char *sortv[16]; /* --variants: the GPU sorts */
    size_t nsortv;
} bench_args;

/* Parse gpu bench's argv into a and the networks (nets[BENCH_MAX_NETS],
 * *nnets of them: the default pair when none is named and a network
 * variant is asked for). Returns 0, -1 after --help, or an exit code
 * (printed). */
int cli_gpu_bench_parse(int argc, char **argv, bench_args *a, sn_algo *nets, size_t *nnets);

#endif
