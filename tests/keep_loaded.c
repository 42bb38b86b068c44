/* keep_loaded.c - a test-only shim preloaded into the MPI ranks of the
 * sanitizer builds (tests/lib.sh, mpi): dlclose does nothing, so every
 * library a rank opened stays mapped until it exits.
 *
 * Why: Open MPI 4.1 (Debian 12's 4.1.4) opens each framework's components
 * and unloads the ones it does not select; it has no setting that keeps
 * them (mca_base_component_disable_dlclose came later). What those
 * components allocated is then pointed to from memory that is gone, so
 * LeakSanitizer reports it at exit with frames in "<unknown module>", and
 * for every such frame re-reads /proc/self/maps while it matches
 * tests/lsan.supp: about 1.5 s of CPU for each rank of each mpirun row
 * (2.5 times a rank's whole run), the longest part of the suite under
 * ASan (docs/testing.md). With the components kept, their state is
 * reachable and not reported at all; sortnet's own leaks still are (it
 * never unloads anything). Nothing else changes: a no-op dlclose is what
 * RTLD_NODELETE asks of the loader for every library.
 *
 * The shim takes itself out of LD_PRELOAD as it loads, so that what the
 * rank starts (a singleton's orted, not built with ASan) starts without
 * ASan's runtime. */
#define _POSIX_C_SOURCE 200809L /* for: unsetenv */
#include <stdlib.h>

int dlclose(void *handle);

__attribute__((constructor)) static void keep_loaded_only_here(void)
{
    unsetenv("LD_PRELOAD");
}

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
