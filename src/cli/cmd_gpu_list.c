/* cmd_gpu_list.c - `sortnet gpu list`: the OpenCL platforms and devices,
 * the default one (or --device P:D) marked. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_gpu.h"
#include "core/alloc.h"
#include "gpu/gpu.h"

static void list_help(void)
{
    printf("usage: sortnet gpu list [--device P:D]\n\n"
           "List the OpenCL platforms and devices: type, compute units, global and\n"
           "local memory, largest buffer and maximum work-group size. The device used\n"
           "by default (the first GPU, else the first CPU device) is marked with '*';\n"
           "with --device P:D that one is marked instead.\n");
}

static void print_mib(uint64_t bytes)
{
    if (bytes >= ((uint64_t)1 << 30))
        printf("%.1f GiB", (double)bytes / (1024.0 * 1024.0 * 1024.0));
    else if (bytes >= ((uint64_t)1 << 20))
        printf("%.1f MiB", (double)bytes / (1024.0 * 1024.0));
    else
        printf("%.1f KiB", (double)bytes / 1024.0);
}

static void print_device(const sn_gpu_device_info *x, bool mark)
{
    printf("%c device %u:%u: %s (%s, %s)\n", mark ? '*' : ' ', x->platform, x->device, x->name,
           x->type, x->version);
    printf("    compute units %u, global memory ", x->compute_units);
    print_mib(x->global_mem);
    printf(" (largest buffer ");
    print_mib(x->max_alloc);
    printf("), local memory ");
    print_mib(x->local_mem);
    printf(", max work-group size %zu\n", x->max_work_group);
}

static int take(void *ctx, int key, const char *name, const char *arg)
{
    (void)key;
    (void)name;
    *(const char **)ctx = arg; /* --device, the only option */
    return cli_gpu_device_arg(arg);
}

int cmd_gpu_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"device", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *spec = NULL;
    int first,
        rc = cli_gpu_options("gpu list", argc, argv, "", opts, list_help, take, &spec, &first);
    if (rc != 0)
        return rc < 0 ? CLI_OK : rc;
    if (first < argc)
        return cli_error(CLI_USAGE, "gpu list", "unexpected argument '%s'", argv[first]);
    uint32_t wp = 0, wd = 0;
    if (spec)
        sn_gpu_device_parse(spec, &wp, &wd);
    sn_diag d;
    sn_diag_clear(&d);
    sn_gpu_device_info *devs = NULL;
    size_t count = 0;
    sn_status st = sn_gpu_devices(&devs, &count, &d);
    if (st != SN_OK)
        return cli_gpu_report("gpu list", st, &d, NULL);
    size_t pick = sn_gpu_device_default(devs, count);
    uint32_t last_platform = UINT32_MAX;
    bool found = !spec;
    for (size_t i = 0; i < count; i++) {
        const sn_gpu_device_info *x = &devs[i];
        bool mark = spec ? (x->platform == wp && x->device == wd) : i == pick;
        found = found || mark;
        if (x->platform != last_platform) {
            printf("platform %u: %s\n", x->platform, x->platform_name);
            last_platform = x->platform;
        }
        print_device(x, mark);
    }
    if (!count)
        printf("no OpenCL devices (the platforms report none: %s)\n", d.text);
    sn_free(devs);
    if (!found)
        return cli_error(CLI_USAGE, "--device", "no OpenCL device %s", spec);
    return CLI_OK;
}
