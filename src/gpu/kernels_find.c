/* kernels_find.c - look up an embedded kernel source by file name. */
#include "gpu/kernels.h"

#include <string.h>

const char *sn_kernel_source_find(const char *name)
{
    for (const sn_kernel_source *k = sn_kernel_sources; k->name; k++)
        if (strcmp(k->name, name) == 0)
            return k->text;
    return NULL;
}
