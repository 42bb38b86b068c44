/* cmd_dist.h - what `sortnet check` uses of cmd_dist.c (SN_HAVE_MPI): the
 * 0-1 brute force split over the ranks of an MPI job. */
#ifndef SN_CMD_DIST_H
#define SN_CMD_DIST_H

#include <stdbool.h>

#include "core/check.h"

/* Whether this check runs split over MPI ranks: method bruteforce and the
 * process started by mpirun in a job of 2 or more ranks (MPI is then
 * started, and the other ranks' stdout and stderr silenced: rank 0 prints
 * the verdict they all reach). */
bool cli_dist_check_wanted(const sn_check_options *opt);
/* sn_dist_check: collective; *res the same on every rank; where[320]
 * receives "P MPI ranks" for the report's "checked on" line. */
sn_status cli_dist_check(const sn_network *net, const sn_check_options *opt, sn_check_result *res,
                         sn_diag *diag, char *where);

#endif
