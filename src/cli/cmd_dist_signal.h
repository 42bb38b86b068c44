/* cmd_dist_signal.h - `dist sort` ended by a signal: one line from rank 0
 * with the cause (interrupted, or a rank that died) and the output's
 * temporary removed (cmd_dist_signal.c). */
#ifndef SN_CMD_DIST_SIGNAL_H
#define SN_CMD_DIST_SIGNAL_H

#include <stdbool.h>

/* Collective (every rank of the job): the ranks swap PIDs and hosts, then
 * SIGTERM, SIGINT and SIGHUP end the rank with the output's temporary
 * removed, rank 0 saying why: interrupted (exit 128 + the signal) or a
 * rank of this host gone (exit 5). by_mpirun: sn_dist_launched() as it
 * was before MPI_Init (a process on its own sets Open MPI's variables
 * there too). */
void cli_dist_signals_begin(int rank, int ranks, bool by_mpirun);
/* The report is out: an interruption now says the sort had finished. */
void cli_dist_signals_finished(void);
/* The default actions back (just before the ranks leave). */
void cli_dist_signals_end(void);

#endif
