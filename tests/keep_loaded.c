/* keep_loaded.c - test-only: linked into sortnet in AddressSanitizer
 * builds (tests/core.cmake), never into a build a user runs. dlclose does
 * nothing there, so every library the process opened stays mapped until
 * it exits.
 *
 * Why: Open MPI 4.1 (Debian 12's 4.1.4) opens each framework's components
 * and unloads the ones it does not select; it has no setting that keeps
 * them (mca_base_component_disable_dlclose came later). What those
 * components allocated is then pointed to from memory that is gone, so
 * LeakSanitizer reports it at exit with frames in "<unknown module>"
 * that tests/lsan.supp cannot name, and for every such frame re-reads
 * /proc/self/maps: seconds of CPU for each rank of each mpirun row. With
 * the components kept, their state is reachable and not reported at all;
 * sortnet's own leaks still are (it never unloads anything). Nothing else
 * changes: a no-op dlclose is what RTLD_NODELETE asks of the loader for
 * every library.
 *
 * Defined in the executable and exported (-Wl,--export-dynamic-symbol),
 * it comes first in the global lookup scope, so Open MPI's, pocl's and
 * every other library's dlclose calls land here, in every process of the
 * sanitized sortnet: mpirun's ranks and MPI's singletons alike, without
 * an LD_PRELOAD that the shell tools around them would inherit. */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
