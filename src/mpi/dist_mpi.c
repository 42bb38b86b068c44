/* dist_mpi.c - starting MPI, agreeing on failures, the clock: what the
 * distributed sort and the distributed proof share. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi/dist.h"
#include "gpu/gpu.h" /* for: sn_gpu_devices (the device a rank takes) */

bool sn_dist_launched(void)
{
    /* Open MPI's mpirun, or a PMI/PMIx launcher (srun, hydra) */
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

static void finalize(void)
{
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin)
        MPI_Finalize();
}

sn_status sn_dist_init(sn_diag *diag)
{
    int inited = 0;
    MPI_Initialized(&inited);
    if (inited)
        return SN_OK;
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS)
        return sn_diag_set(diag, SN_EIO, 0, 0, "MPI could not start (MPI_Init failed)");
    atexit(finalize);
    /* errors come back to us (so a failure is agreed on and reported), not
     * an abort with MPI's own message */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    return SN_OK;
}

int sn_dist_rank(void)
{
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}

int sn_dist_size(void)
{
    int s = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &s);
    return s;
}

sn_status sn_dist_agree(sn_status st, sn_diag *diag)
{
    int me = sn_dist_rank(), mine = st == SN_OK ? INT32_MAX : me, first = INT32_MAX;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == INT32_MAX)
        return SN_OK;
    int code = (int)st;
    MPI_Bcast(&code, 1, MPI_INT, first, MPI_COMM_WORLD);
    MPI_Bcast(diag->text, (int)sizeof diag->text, MPI_CHAR, first, MPI_COMM_WORLD);
    diag->text[sizeof diag->text - 1] = '\0';
    if (first != 0 && me != first && diag->text[0] != '\0' && strncmp(diag->text, "rank ", 5)) {
        /* say which rank failed when it was not rank 0 */
        char buf[sizeof diag->text + 32];
        snprintf(buf, sizeof buf, "rank %d: %s", first, diag->text);
        snprintf(diag->text, sizeof diag->text, "%.1000s", buf);
    }
    return (sn_status)code;
}

void sn_dist_abort(int code)
{
    MPI_Abort(MPI_COMM_WORLD, code);
}

double sn_dist_now(void)
{
    return MPI_Wtime();
}

int sn_dist_local(int *local_rank)
{
    MPI_Comm node;
    int size = 1, lr = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, sn_dist_rank(), MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &lr);
    MPI_Comm_size(node, &size);
    MPI_Comm_free(&node);
    if (local_rank)
        *local_rank = lr;
    return size;
}

bool sn_dist_device_pick(int local_rank, bool any_device, char spec[32], const char **type)
{
    sn_gpu_device_info *devs = NULL;
    size_t nd = 0, ng = 0, pick = SIZE_MAX;
    sn_diag dd;
    if (sn_gpu_devices(&devs, &nd, &dd) == SN_OK) {
        for (size_t i = 0; i < nd; i++)
            ng += strcmp(devs[i].type, "GPU") == 0;
        for (size_t i = 0, g = 0; i < nd && ng; i++)
            if (strcmp(devs[i].type, "GPU") == 0 && g++ == (size_t)local_rank % ng)
                pick = i;
        if (pick == SIZE_MAX && any_device && nd)
            pick = sn_gpu_device_default(devs, nd);
    }
    if (pick != SIZE_MAX) {
        snprintf(spec, 32, "%u:%u", devs[pick].platform, devs[pick].device);
        if (type)
            *type = devs[pick].type;
    }
    sn_free(devs);
    return pick != SIZE_MAX;
}
