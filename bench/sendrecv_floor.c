/* sendrecv_floor.c - the floor a merge-split is held against: one
 * MPI_Sendrecv of B bytes each way between two ranks, the buffers touched
 * before the clock, the slowest rank's time, the first of 3 and the best.
 *
 *   mpicc -O2 -o sendrecv_floor bench/sendrecv_floor.c
 *   mpirun -np 2 ./sendrecv_floor BYTES...
 *
 * One line a size: "sendrecv BYTES first S best S GB/s G" (GB/s: one
 * direction, the bytes over the best time). Sizes are whole 4-byte words
 * (counted in MPI_UINT32_T, so up to 8 GiB - 4 in one call). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int me = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (me == 0)
            fprintf(stderr, "sendrecv_floor: run it on 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    int peer = 1 - me;
    for (int a = 1; a < argc; a++) {
        unsigned long long bytes = strtoull(argv[a], NULL, 10);
        size_t n = (size_t)(bytes / 4) ? (size_t)(bytes / 4) : 1;
        if (n > INT32_MAX) {
            if (me == 0)
                fprintf(stderr, "sendrecv_floor: %llu bytes: at most 8 GiB - 4\n", bytes);
            continue;
        }
        uint32_t *s = malloc(n * 4), *d = malloc(n * 4);
        if (!s || !d) {
            fprintf(stderr, "sendrecv_floor: out of memory for %llu bytes\n", bytes);
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
        memset(s, 1, n * 4);
        memset(d, 1, n * 4);
        int w = n < 65536 ? (int)n : 65536; /* the connection set up */
        MPI_Sendrecv(s, w, MPI_UINT32_T, peer, 0, d, w, MPI_UINT32_T, peer, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double first = 0, best = 1e300;
        for (int r = 0; r < 3; r++) {
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            MPI_Sendrecv(s, (int)n, MPI_UINT32_T, peer, 1, d, (int)n, MPI_UINT32_T, peer, 1,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            double t = MPI_Wtime() - t0, tmax = 0;
            MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (r == 0)
                first = tmax;
            best = tmax < best ? tmax : best;
        }
        if (me == 0)
            printf("sendrecv %llu first %.6f best %.6f GB/s %.2f\n", bytes, first, best,
                   (double)bytes / best / 1e9);
        fflush(stdout);
        free(s);
        free(d);
    }
    MPI_Finalize();
    return 0;
}
