/* cmd_dist.h - what `sortnet check` uses of cmd_dist.c (SN_HAVE_MPI): the
 * 0-1 brute force split over the ranks of an MPI job. */
#ifndef SN_CMD_DIST_H
#define SN_CMD_DIST_H

#include <stdbool.h>

#include "core/check.h"
#include "mpi/dist.h"

/* Whether this check runs split over MPI ranks: sort_mode (the check of a
 * sort, not a median or selection), method bruteforce (or, with device,
 * auto: the device checks by brute force only) and the process started by
 * mpirun in a job of 2 or more ranks. In such a job MPI is started and the
 * other ranks' stdout and stderr are silenced whatever the answer (rank 0
 * prints the verdict they all reach); when the check is not split, rank 0
 * says that each rank checks alone. */
bool cli_dist_check_wanted(const sn_check_options *opt, bool device, bool sort_mode);
/* sn_dist_check: collective; *res the same on every rank; device: check's
 * --device argument, NULL (the ranks' cores), "opencl" (each rank its own
 * OpenCL device, by local rank) or "opencl:P:D"; where[320] receives "P
 * MPI ranks ..." for the report's "checked on" line. */
sn_status cli_dist_check(const sn_network *net, const sn_check_options *opt, const char *device,
                         sn_check_result *res, sn_diag *diag, char *where);

/* The report of `dist sort` (cmd_dist_report.c): alg "network" or
 * "sample", net the network's name (NULL for sample sort). The JSON one
 * returns 0 or an exit code. */
void cli_dist_print_text(const sn_dist_report *r, const char *alg, const char *net,
                         const sn_dist_sort_opts *o);
#ifdef SN_HAVE_JANSSON
int cli_dist_print_json(const sn_dist_report *r, const char *alg, const char *net,
                        const sn_dist_sort_opts *o);
#endif

#endif
