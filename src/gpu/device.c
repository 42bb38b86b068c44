/* device.c - OpenCL platforms and devices, opening one, building programs.
 *
 * Every cl* call is checked; a failure fills the caller's diag with the
 * call's name and the CL error name. Resources are released through one
 * cleanup path (sn_gpu_close accepts a half-built handle), so no error path
 * leaks a context, queue or program. */
#include "gpu/gpu_internal.h"

#include <ctype.h>
#include <errno.h>     // for: isdigit (the compiler's "N errors generated." lines)
#include <fcntl.h>     // for: open (SN_CL_FAIL's log)
#include <signal.h>    // for: sigaction (the driver's abort while it starts)
#include <stdatomic.h> // for: the injected call's count (worker threads call too)
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>     // for: mmap (the address space left, in the probe)
#include <sys/resource.h> // for: getrlimit (an address-space limit, named when the driver aborts)
#include <sys/wait.h>     // for: waitpid (the probe)
#include <unistd.h>       // for: dup, dup2 (the compiler's stray stderr lines); write, _exit

#include "core/alloc.h"
#include "gpu/kernels.h"

/* CL_PLATFORM_NOT_FOUND_KHR (cl_khr_icd): what the ICD loader returns when
 * it finds no platform at all. */
#define SN_CL_PLATFORM_NOT_FOUND_KHR (-1001)

const char *sn_gpu_cl_error_name(int code)
{
    switch (code) {
#define E(x)                                                                                       \
    case x: return #x;
        E(CL_SUCCESS)
        E(CL_DEVICE_NOT_FOUND)
        E(CL_DEVICE_NOT_AVAILABLE)
        E(CL_COMPILER_NOT_AVAILABLE)
        E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        E(CL_OUT_OF_RESOURCES)
        E(CL_OUT_OF_HOST_MEMORY)
        E(CL_PROFILING_INFO_NOT_AVAILABLE)
        E(CL_MEM_COPY_OVERLAP)
        E(CL_IMAGE_FORMAT_MISMATCH)
        E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        E(CL_BUILD_PROGRAM_FAILURE)
        E(CL_MAP_FAILURE)
        E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        E(CL_COMPILE_PROGRAM_FAILURE)
        E(CL_LINKER_NOT_AVAILABLE)
        E(CL_LINK_PROGRAM_FAILURE)
        E(CL_DEVICE_PARTITION_FAILED)
        E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        E(CL_INVALID_VALUE)
        E(CL_INVALID_DEVICE_TYPE)
        E(CL_INVALID_PLATFORM)
        E(CL_INVALID_DEVICE)
        E(CL_INVALID_CONTEXT)
        E(CL_INVALID_QUEUE_PROPERTIES)
        E(CL_INVALID_COMMAND_QUEUE)
        E(CL_INVALID_HOST_PTR)
        E(CL_INVALID_MEM_OBJECT)
        E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        E(CL_INVALID_IMAGE_SIZE)
        E(CL_INVALID_SAMPLER)
        E(CL_INVALID_BINARY)
        E(CL_INVALID_BUILD_OPTIONS)
        E(CL_INVALID_PROGRAM)
        E(CL_INVALID_PROGRAM_EXECUTABLE)
        E(CL_INVALID_KERNEL_NAME)
        E(CL_INVALID_KERNEL_DEFINITION)
        E(CL_INVALID_KERNEL)
        E(CL_INVALID_ARG_INDEX)
        E(CL_INVALID_ARG_VALUE)
        E(CL_INVALID_ARG_SIZE)
        E(CL_INVALID_KERNEL_ARGS)
        E(CL_INVALID_WORK_DIMENSION)
        E(CL_INVALID_WORK_GROUP_SIZE)
        E(CL_INVALID_WORK_ITEM_SIZE)
        E(CL_INVALID_GLOBAL_OFFSET)
        E(CL_INVALID_EVENT_WAIT_LIST)
        E(CL_INVALID_EVENT)
        E(CL_INVALID_OPERATION)
        E(CL_INVALID_GL_OBJECT)
        E(CL_INVALID_BUFFER_SIZE)
        E(CL_INVALID_MIP_LEVEL)
        E(CL_INVALID_GLOBAL_WORK_SIZE)
        E(CL_INVALID_PROPERTY)
        E(CL_INVALID_IMAGE_DESCRIPTOR)
        E(CL_INVALID_COMPILER_OPTIONS)
        E(CL_INVALID_LINKER_OPTIONS)
        E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
    case SN_CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR";
    }
    return "unknown OpenCL error";
}

sn_status sn_gpu_cl_fail(sn_diag *diag, const char *call, cl_int err)
{
    sn_status st = SN_EDEVICE;
    if (err == CL_OUT_OF_HOST_MEMORY)
        st = SN_ENOMEM;
    else if (err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_INVALID_BUFFER_SIZE)
        st = SN_ELIMIT;
    return sn_diag_set(diag, st, 0, 0, "%s failed: %s (%d)", call, sn_gpu_cl_error_name(err),
                       (int)err);
}

size_t sn_gpu_round_up(size_t x, size_t m)
{
    return (x + m - 1) / m * m;
}

/* ---- listing */

/* The injected failure (sn_gpu_inject_error_at, SN_CL_FAIL): the call it
 * replaces, from its nth call on. The count is atomic: the CLI's worker
 * threads may make the calls. */
static const char *inject_call;
static cl_int inject_err;
static unsigned inject_nth;
static atomic_uint inject_seen;
static bool inject_env_read;
static char inject_env_call[64];
/* SN_CL_FAIL=CALL=abort: the call aborts the process, as pocl does when it
 * cannot start its threads (the guard below must answer it) */
static bool inject_abort;
static char inject_log[512]; /* SN_CL_FAIL's ,log=FILE: "" for none */

unsigned sn_gpu_inject_error_at(const char *call, cl_int err, unsigned nth)
{
    inject_env_read = true; /* a test's own choice wins over the environment */
    inject_call = call;
    inject_err = err;
    inject_nth = nth ? nth : 1;
    return atomic_exchange(&inject_seen, 0);
}

void sn_gpu_inject_error(const char *call, cl_int err)
{
    sn_gpu_inject_error_at(call, err, 1);
}

static cl_int default_error(const char *call)
{
    if (strcmp(call, "clBuildProgram") == 0)
        return CL_BUILD_PROGRAM_FAILURE;
    if (strcmp(call, "clCreateBuffer") == 0)
        return CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return CL_OUT_OF_RESOURCES;
}

/* SN_CL_FAIL=CALL[@N][=CL_NAME|=abort][,log=FILE] (tests only); a
 * malformed N or an unknown name leaves the defaults (1, the call's usual
 * error). With ,log=FILE (the rest of the value) the process that makes
 * the failing call appends a line with the call's name to FILE, so that a
 * test tells a call never made from a failure that was swallowed. */
static void inject_from_env(void)
{
    inject_env_read = true;
    const char *e = getenv("SN_CL_FAIL");
    if (!e || !*e)
        return;
    const char *log = strstr(e, ",log=");
    size_t spec = log ? (size_t)(log - e) : strlen(e); /* CALL[@N][=CL_NAME] */
    if (log && strlen(log + 5) < sizeof inject_log)
        memcpy(inject_log, log + 5, strlen(log + 5) + 1);
    size_t len = strcspn(e, "@=,");
    if (len >= sizeof inject_env_call)
        return;
    memcpy(inject_env_call, e, len);
    inject_env_call[len] = '\0';
    unsigned nth = 1;
    const char *p = e + len;
    if (*p == '@') {
        char *end;
        unsigned long v = strtoul(p + 1, &end, 10);
        if (v > 0 && v < 1000000)
            nth = (unsigned)v;
        p = end;
    }
    cl_int err = default_error(inject_env_call);
    size_t name_len = p < e + spec ? (size_t)(e + spec - p) - 1 : 0;
    if (*p == '=')
        for (int c = 0; c >= -80; c--)
            if (strlen(sn_gpu_cl_error_name(c)) == name_len &&
                strncmp(sn_gpu_cl_error_name(c), p + 1, name_len) == 0)
                err = c;
    inject_abort = *p == '=' && name_len == 5 && strncmp(p + 1, "abort", 5) == 0;
    inject_call = inject_env_call;
    inject_err = err;
    inject_nth = nth;
}

/* SN_CL_FAIL's log: the injected failure happened (once a process, at the
 * nth call; the isolated child of a student's kernel appends its own). */
static void inject_note(const char *call)
{
    if (!inject_log[0])
        return;
    int fd = open(inject_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    char line[80];
    int len = snprintf(line, sizeof line, "%s\n", call);
    if (len > 0 && (size_t)len < sizeof line) {
        ssize_t w = write(fd, line, (size_t)len);
        (void)w; /* a test's log: nothing to do about a short write */
    }
    close(fd);
}

bool sn_gpu_injected(const char *call, cl_int *err)
{
    if (!inject_env_read)
        inject_from_env();
    if (!inject_call || strcmp(inject_call, call) != 0)
        return false;
    unsigned k = atomic_fetch_add(&inject_seen, 1) + 1;
    if (k < inject_nth)
        return false;
    if (k == inject_nth)
        inject_note(call);
    if (inject_abort)
        abort();
    *err = inject_err;
    return true;
}

static cl_int get_platform_ids(cl_uint count, cl_platform_id *ps, cl_uint *n)
{
    cl_int err;
    return sn_gpu_injected("clGetPlatformIDs", &err) ? err : clGetPlatformIDs(count, ps, n);
}

static cl_int get_device_ids(cl_platform_id p, cl_uint count, cl_device_id *ds, cl_uint *n)
{
    cl_int err;
    return sn_gpu_injected("clGetDeviceIDs", &err)
               ? err
               : clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, count, ds, n);
}

static sn_status no_platform(sn_diag *diag, cl_int err)
{
    if (err == CL_SUCCESS)
        return sn_diag_set(diag, SN_ENODEVICE, 0, 0,
                           "no OpenCL platform found (install a driver, e.g. pocl-opencl-icd; "
                           "OCL_ICD_VENDORS may point elsewhere)");
    return sn_diag_set(diag, SN_ENODEVICE, 0, 0,
                       "no OpenCL platform found: clGetPlatformIDs: %s (%d) (install a driver, "
                       "e.g. pocl-opencl-icd; OCL_ICD_VENDORS may point elsewhere)",
                       sn_gpu_cl_error_name(err), (int)err);
}

/* The platform list (sn_malloc'd). */
static sn_status get_platforms(cl_platform_id **out, cl_uint *count, sn_diag *diag)
{
    cl_uint np = 0;
    cl_int err = get_platform_ids(0, NULL, &np);
    if (err == SN_CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && np == 0))
        return no_platform(diag, err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clGetPlatformIDs", err);
    cl_platform_id *ps = sn_calloc(np, sizeof *ps);
    if (!ps)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory listing platforms");
    err = get_platform_ids(np, ps, NULL);
    if (err != CL_SUCCESS) {
        sn_free(ps);
        return sn_gpu_cl_fail(diag, "clGetPlatformIDs", err);
    }
    *out = ps;
    *count = np;
    return SN_OK;
}

static void copy_str(char *dst, size_t cap, const char *src)
{
    size_t len = strlen(src);
    if (len >= cap)
        len = cap - 1;
    memcpy(dst, src, len);
    dst[len] = '\0';
    /* Drivers pad names with spaces; trim them for tidy output. */
    while (len > 0 && (dst[len - 1] == ' ' || dst[len - 1] == '\n'))
        dst[--len] = '\0';
}

static sn_status device_info(cl_device_id d, sn_gpu_device_info *info, sn_diag *diag)
{
    char buf[256];
    cl_device_type type = 0;
    cl_uint cu = 0;
    cl_ulong gmem = 0, lmem = 0, amax = 0;
    size_t wg = 0;
    cl_int err;
#define Q(param, var, name)                                                                        \
    err = clGetDeviceInfo(d, param, sizeof var, &var, NULL);                                       \
    if (err != CL_SUCCESS)                                                                         \
        return sn_gpu_cl_fail(diag, "clGetDeviceInfo(" name ")", err);
    Q(CL_DEVICE_TYPE, type, "CL_DEVICE_TYPE")
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, cu, "CL_DEVICE_MAX_COMPUTE_UNITS")
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, gmem, "CL_DEVICE_GLOBAL_MEM_SIZE")
    Q(CL_DEVICE_LOCAL_MEM_SIZE, lmem, "CL_DEVICE_LOCAL_MEM_SIZE")
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, amax, "CL_DEVICE_MAX_MEM_ALLOC_SIZE")
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, wg, "CL_DEVICE_MAX_WORK_GROUP_SIZE")
#undef Q
#define S(param, dst, name)                                                                        \
    err = clGetDeviceInfo(d, param, sizeof buf - 1, buf, NULL);                                    \
    if (err != CL_SUCCESS)                                                                         \
        return sn_gpu_cl_fail(diag, "clGetDeviceInfo(" name ")", err);                             \
    buf[sizeof buf - 1] = '\0';                                                                    \
    copy_str(dst, sizeof dst, buf);
    S(CL_DEVICE_NAME, info->name, "CL_DEVICE_NAME")
    S(CL_DEVICE_VENDOR, info->vendor, "CL_DEVICE_VENDOR")
    S(CL_DEVICE_VERSION, info->version, "CL_DEVICE_VERSION")
#undef S
    if (type & CL_DEVICE_TYPE_GPU)
        info->type = "GPU";
    else if (type & CL_DEVICE_TYPE_CPU)
        info->type = "CPU";
    else if (type & CL_DEVICE_TYPE_ACCELERATOR)
        info->type = "accelerator";
    else
        info->type = "other";
    info->compute_units = cu;
    info->global_mem = gmem;
    info->local_mem = lmem;
    info->max_alloc = amax;
    info->max_work_group = wg;
    return SN_OK;
}

/* Devices of platform p (sn_malloc'd; *oom when that allocation failed);
 * 0 devices is not an error, but diag then says what the platform
 * answered (a driver that could not start, e.g. for lack of memory,
 * answers CL_DEVICE_NOT_FOUND too). */
static sn_status platform_devices(cl_platform_id p, cl_device_id **out, cl_uint *count, bool *oom,
                                  sn_diag *diag)
{
    *oom = false;
    cl_uint nd = 0;
    *out = NULL;
    *count = 0;
    cl_int err = get_device_ids(p, 0, NULL, &nd);
    if (err == CL_DEVICE_NOT_FOUND || (err == CL_SUCCESS && nd == 0)) {
        sn_diag_set(diag, SN_OK, 0, 0, "clGetDeviceIDs returned %s (%d)%s",
                    sn_gpu_cl_error_name(err), (int)err,
                    err == CL_SUCCESS ? " with 0 devices" : "");
        return SN_OK;
    }
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clGetDeviceIDs", err);
    cl_device_id *ds = sn_calloc(nd, sizeof *ds);
    if (!ds) {
        *oom = true;
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory listing devices");
    }
    err = get_device_ids(p, nd, ds, NULL);
    if (err != CL_SUCCESS) {
        sn_free(ds);
        return sn_gpu_cl_fail(diag, "clGetDeviceIDs", err);
    }
    *out = ds;
    *count = nd;
    return SN_OK;
}

/* Walk every device; cb returns false to stop. why (of why_cap bytes)
 * gets what the first platform without a usable device answered, so that
 * "none has a device" can say why ("" when every platform had one). */
typedef bool (*device_cb)(void *ctx, cl_platform_id p, cl_device_id d,
                          const sn_gpu_device_info *info);

/* The driver's start, guarded. pocl starts its worker threads inside the
 * first listing call and aborts the process when it cannot (seen under
 * `ulimit -v 300000`: "PTHREAD ERROR in pthread_scheduler_init ...
 * Resource temporarily unavailable", then SIGABRT, in about one run of
 * four). An abort cannot be returned from, so while the driver starts,
 * SIGABRT ends the process with one line that names the cause and exit
 * status 5 (a device error, as SN_EDEVICE), never a bare "Aborted". The
 * line is written before the handler is installed (write(2) is
 * async-signal-safe; formatting is not), and the previous handler is back
 * once the listing returns. */
static char abort_line[256];
static size_t abort_len;

static void driver_aborted(int sig)
{
    (void)sig;
    ssize_t w = write(2, abort_line, abort_len);
    (void)w;
    _exit(5);
}

static void guard_begin(struct sigaction *saved)
{
    struct rlimit lim;
    char mem[96] = "";
    if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
        snprintf(mem, sizeof mem, "; the address space is limited to %llu MiB (ulimit -v)",
                 (unsigned long long)(lim.rlim_cur >> 20));
    int len = snprintf(abort_line, sizeof abort_line,
                       "sortnet: the OpenCL driver aborted while starting its devices (it could "
                       "not start its threads or get memory%s)\n",
                       mem);
    abort_len = len < 0 ? 0 : (size_t)len < sizeof abort_line ? (size_t)len : sizeof abort_line - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = driver_aborted;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGABRT, &sa, saved);
}

static void guard_end(const struct sigaction *saved)
{
    sigaction(SIGABRT, saved, NULL);
}

static sn_status walk_devices(device_cb cb, void *ctx, char *why, size_t why_cap, sn_diag *diag);

/* ---- the driver's start under an address-space limit, probed in a child
 * Under `ulimit -v` the driver fails to start in ways that the process
 * cannot always answer itself: pocl aborts while starting its threads, and
 * LLVM (loaded in the same call) can put its own SIGABRT handler over the
 * guard above, so the process dies bare; or the ICD loader cannot map pocl
 * and says "no platform", the wrong cause. So when RLIMIT_AS is finite
 * (only then: a normal run pays nothing), the first listing of the process
 * forks a child that lists the platforms and their devices and reports
 * through a pipe how that ended; only when it ended well does the process
 * start the driver itself. The answer is kept: one fork per process. */
typedef struct probe_msg {
    int st;                   /* the child's listing status */
    int devices;              /* devices it found */
    int tight;                /* 256 MiB of address space could not be mapped */
    char text[sizeof(((sn_diag *)0)->text)];
} probe_msg;

static bool probe_cb(void *ctx, cl_platform_id p, cl_device_id d, const sn_gpu_device_info *info)
{
    (void)p;
    (void)d;
    (void)info;
    ++*(int *)ctx;
    return true;
}

static void probe_child(int wr)
{
    probe_msg m;
    memset(&m, 0, sizeof m);
    char why[sizeof m.text];
    sn_diag d;
    sn_diag_clear(&d);
    m.st = (int)walk_devices(probe_cb, &m.devices, why, sizeof why, &d);
    snprintf(m.text, sizeof m.text, "%s", m.st != SN_OK ? d.text : why);
    /* room for a driver (pocl with LLVM maps a few hundred MiB) */
    int zero = open("/dev/zero", O_RDONLY);
    void *room = zero < 0 ? MAP_FAILED
                          : mmap(NULL, (size_t)256 << 20, PROT_NONE, MAP_PRIVATE, zero, 0);
    m.tight = zero >= 0 && room == MAP_FAILED;
    const char *b = (const char *)&m;
    size_t left = sizeof m;
    while (left) {
        ssize_t w = write(wr, b, left);
        if (w <= 0)
            break;
        b += w;
        left -= (size_t)w;
    }
    _exit(0);
}

static int probed;             /* 0: not yet; 1: the driver starts; 2: it does not (probe_st) */
static sn_status probe_st;
static char probe_text[sizeof(((sn_diag *)0)->text)];

static sn_status probe_fail(sn_diag *diag, unsigned long long mib, const char *fmt, const char *what)
{
    char cause[sizeof probe_text];
    snprintf(cause, sizeof cause, fmt, what);
    probe_st = sn_diag_set(diag, SN_ENOMEM, 0, 0,
                           "the OpenCL driver could not start: %s; the address space is limited to "
                           "%llu MiB (ulimit -v)",
                           cause, mib);
    snprintf(probe_text, sizeof probe_text, "%s", diag->text);
    probed = 2;
    return probe_st;
}

static sn_status probe_driver(sn_diag *diag)
{
    if (probed == 1)
        return SN_OK;
    if (probed == 2)
        return sn_diag_set(diag, probe_st, 0, 0, "%s", probe_text);
    struct rlimit lim;
    int fd[2];
    probed = 1;
    if (getrlimit(RLIMIT_AS, &lim) != 0 || lim.rlim_cur == RLIM_INFINITY || pipe(fd) != 0)
        return SN_OK;
    unsigned long long mib = (unsigned long long)(lim.rlim_cur >> 20);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        probe_child(fd[1]);
    }
    close(fd[1]);
    if (pid < 0) {
        close(fd[0]);
        return SN_OK; /* no probe: the guard alone */
    }
    probe_msg m;
    memset(&m, 0, sizeof m);
    size_t got = 0;
    while (got < sizeof m) {
        ssize_t r = read(fd[0], (char *)&m + got, sizeof m - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    m.text[sizeof m.text - 1] = '\0';
    if (WIFSIGNALED(status)) {
        char sig[64];
        snprintf(sig, sizeof sig, "%s", WTERMSIG(status) == SIGABRT ? "SIGABRT" : "a signal");
        return probe_fail(diag, mib, "it died by %s while starting its devices", sig);
    }
    if (got != sizeof m || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return probe_fail(diag, mib, "%s", "its probe ended without an answer");
    if (m.st == SN_ENODEVICE && !m.tight)
        return SN_OK; /* no platform, and room for one: truly none (said in-process) */
    if (m.st == SN_ENODEVICE) /* the loader could not map the driver: not "install one" */
        return probe_fail(diag, mib, "%s", "the ICD loader could load no platform");
    if (m.st != SN_OK)
        return probe_fail(diag, mib, "%s", m.text);
    return SN_OK;
}

static sn_status for_each_device(device_cb cb, void *ctx, char *why, size_t why_cap, sn_diag *diag)
{
    sn_status pst = probe_driver(diag);
    if (pst != SN_OK)
        return pst;
    struct sigaction saved;
    guard_begin(&saved);
    sn_status st = walk_devices(cb, ctx, why, why_cap, diag);
    guard_end(&saved);
    return st;
}

static sn_status walk_devices(device_cb cb, void *ctx, char *why, size_t why_cap, sn_diag *diag)
{
    why[0] = '\0';
    cl_platform_id *ps = NULL;
    cl_uint np = 0;
    sn_status st = get_platforms(&ps, &np, diag);
    if (st != SN_OK)
        return st;
    bool go = true;
    for (cl_uint pi = 0; pi < np && go && st == SN_OK; pi++) {
        char pname[256] = "";
        cl_int err = clGetPlatformInfo(ps[pi], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
        if (err != CL_SUCCESS) {
            st = sn_gpu_cl_fail(diag, "clGetPlatformInfo(CL_PLATFORM_NAME)", err);
            break;
        }
        cl_device_id *ds = NULL;
        cl_uint nd = 0;
        sn_diag answer;
        sn_diag_clear(&answer);
        /* A broken platform should not hide the working ones. */
        bool oom;
        sn_status pst = platform_devices(ps[pi], &ds, &nd, &oom, &answer);
        if ((pst != SN_OK || nd == 0) && !why[0])
            snprintf(why, why_cap, "platform %u (%.200s): %.400s", (unsigned)pi, pname,
                     answer.text);
        if (oom) { /* our memory, not the platform's answer */
            st = pst;
            sn_diag_set(diag, pst, 0, 0, "%s", answer.text);
            break;
        }
        if (pst == SN_ENOMEM) { /* the platform out of host memory: memory, not "no device" */
            st = sn_diag_set(diag, pst, 0, 0, "platform %u (%.200s): %.400s", (unsigned)pi, pname,
                             answer.text);
            break;
        }
        if (pst != SN_OK)
            continue;
        for (cl_uint di = 0; di < nd && go; di++) {
            sn_gpu_device_info info;
            memset(&info, 0, sizeof info);
            st = device_info(ds[di], &info, diag);
            if (st != SN_OK)
                break;
            info.platform = pi;
            info.device = di;
            copy_str(info.platform_name, sizeof info.platform_name, pname);
            go = cb(ctx, ps[pi], ds[di], &info);
        }
        sn_free(ds);
    }
    sn_free(ps);
    return st;
}

typedef struct list_ctx {
    sn_gpu_device_info *v;
    size_t n, cap;
    bool oom;
} list_ctx;

static bool list_cb(void *ctx, cl_platform_id p, cl_device_id d, const sn_gpu_device_info *info)
{
    (void)p;
    (void)d;
    list_ctx *c = ctx;
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        sn_gpu_device_info *v = sn_realloc(c->v, cap * sizeof *v);
        if (!v) {
            c->oom = true;
            return false;
        }
        c->v = v;
        c->cap = cap;
    }
    c->v[c->n++] = *info;
    return true;
}

sn_status sn_gpu_devices(sn_gpu_device_info **out, size_t *count, sn_diag *diag)
{
    list_ctx c = {NULL, 0, 0, false};
    char why[sizeof diag->text];
    sn_status st = for_each_device(list_cb, &c, why, sizeof why, diag);
    if (st == SN_OK && c.oom)
        st = sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory listing devices");
    if (st != SN_OK) {
        sn_free(c.v);
        return st;
    }
    if (c.n == 0)
        sn_diag_set(diag, SN_OK, 0, 0, "%s", why);
    *out = c.v;
    *count = c.n;
    return SN_OK;
}

bool sn_gpu_device_parse(const char *s, uint32_t *platform, uint32_t *device)
{
    unsigned long v[2];
    for (int k = 0; k < 2; k++) {
        if (*s < '0' || *s > '9')
            return false;
        char *end;
        v[k] = strtoul(s, &end, 10);
        if (end - s > 6)
            return false;
        s = end;
        if (k == 0 && *s++ != ':')
            return false;
    }
    if (*s)
        return false;
    *platform = (uint32_t)v[0];
    *device = (uint32_t)v[1];
    return true;
}

/* ---- opening */

typedef struct pick_ctx {
    bool want_index;
    uint32_t p, d;
    int rank; /* of the best so far: 3 = exact index, 2 = GPU, 1 = CPU, 0 = any */
    bool found;
    cl_platform_id platform;
    cl_device_id device;
    sn_gpu_device_info info;
} pick_ctx;

/* The default device is the first of the highest rank: GPUs, then CPU
 * devices, then any. */
static int default_rank(const sn_gpu_device_info *info)
{
    return strcmp(info->type, "GPU") == 0 ? 2 : strcmp(info->type, "CPU") == 0 ? 1 : 0;
}

size_t sn_gpu_device_default(const sn_gpu_device_info *devs, size_t count)
{
    size_t best = count;
    for (size_t i = 0; i < count; i++)
        if (best == count || default_rank(&devs[i]) > default_rank(&devs[best]))
            best = i;
    return best;
}

static bool pick_cb(void *ctx, cl_platform_id p, cl_device_id d, const sn_gpu_device_info *info)
{
    pick_ctx *c = ctx;
    int rank;
    if (c->want_index) {
        if (info->platform != c->p || info->device != c->d)
            return true;
        rank = 3;
    } else {
        rank = default_rank(info);
    }
    if (!c->found || rank > c->rank) {
        c->found = true;
        c->rank = rank;
        c->platform = p;
        c->device = d;
        c->info = *info;
    }
    return !(rank >= 2); /* an exact index or the first GPU ends the search */
}

static const char *const kernel_names[K_COUNT] = {
    [K_PAIRS] = "sn_pairs",
    [K_BITONIC_LEFT] = "sn_bitonic_left",
    [K_BITONIC_XOR] = "sn_bitonic_xor",
    [K_BITONIC_DIV] = "sn_bitonic_div",
    [K_BITONIC_SHIFT] = "sn_bitonic_shift",
    [K_OEM_LEFT] = "sn_oem_left",
    [K_OEM_DIV] = "sn_oem_div",
    [K_OEM_SHIFT] = "sn_oem_shift",
    [K_TRANS_LEFT] = "sn_trans_left",
    [K_TRANS_DIV] = "sn_trans_div",
    [K_TRANS_SHIFT] = "sn_trans_shift",
    [K_DIGEST] = "sn_digest",
    [K_INJECT] = "sn_inject",
};

static void set_log(sn_gpu *g, const char *text)
{
    sn_free(g->build_log);
    size_t len = strlen(text);
    g->build_log = sn_malloc(len + 1);
    if (g->build_log)
        memcpy(g->build_log, text, len + 1);
}

/* Some runtimes' compilers (pocl's clang) write "1 error generated." to the
 * process's stderr beside the build log, where it lands unformatted after
 * our messages. While a program builds, fd 2 goes to a temporary file;
 * afterwards what came is passed back to stderr except those summary
 * lines (the build log says the same, in full). */
typedef struct err_capture {
    int saved;
    FILE *tmp;
} err_capture;

static void capture_begin(err_capture *c)
{
    c->saved = -1;
    c->tmp = NULL;
    fflush(stderr);
    int fd = dup(2);
    FILE *t = fd >= 0 ? tmpfile() : NULL;
    if (!t || dup2(fileno(t), 2) < 0) {
        if (t)
            fclose(t);
        if (fd >= 0)
            close(fd);
        return;
    }
    c->saved = fd;
    c->tmp = t;
}

/* "1 error generated.", "2 warnings and 1 error generated." */
static bool compiler_summary(const char *line)
{
    if (!isdigit((unsigned char)line[0]))
        return false;
    const char *end = strstr(line, " generated.");
    return end && (end[11] == '\n' || end[11] == '\0') &&
           (strstr(line, " error") || strstr(line, " warning"));
}

static void capture_end(err_capture *c)
{
    if (!c->tmp)
        return;
    fflush(stderr);
    dup2(c->saved, 2);
    close(c->saved);
    rewind(c->tmp);
    char line[1024];
    while (fgets(line, sizeof line, c->tmp))
        if (!compiler_summary(line))
            fputs(line, stderr);
    fclose(c->tmp);
}

sn_status sn_gpu_build_source(sn_gpu *g, const char *source, bool user, cl_program *prog,
                              sn_diag *diag)
{
    return sn_gpu_build_source_opts(g, source, "", user, prog, diag);
}

sn_status sn_gpu_build_source_opts(sn_gpu *g, const char *source, const char *options, bool user,
                                   cl_program *prog, sn_diag *diag)
{
    char opts[256];
    snprintf(opts, sizeof opts, "-cl-std=CL1.2 %s", options);
    cl_int err;
    *prog = NULL;
    set_log(g, "");
    /* Our programs share kernels/keys.cl (the ordered-key mapping), built
     * in front of them; a student's kernel is built as it is. */
    const char *keys = user ? NULL : sn_kernel_source_find("keys");
    const char *parts[2] = {keys, source};
    cl_program pr = keys ? clCreateProgramWithSource(g->ctx, 2, parts, NULL, &err)
                         : clCreateProgramWithSource(g->ctx, 1, &source, NULL, &err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clCreateProgramWithSource", err);
    err_capture cap;
    capture_begin(&cap);
    cl_int berr = clBuildProgram(pr, 1, &g->device, opts, NULL, NULL);
    capture_end(&cap);
    size_t log_len = 0;
    err = clGetProgramBuildInfo(pr, g->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_len);
    if (err == CL_SUCCESS && log_len > 0) {
        char *log = sn_malloc(log_len + 1);
        if (log) {
            err = clGetProgramBuildInfo(pr, g->device, CL_PROGRAM_BUILD_LOG, log_len, log, NULL);
            log[err == CL_SUCCESS ? log_len : 0] = '\0';
            set_log(g, log);
            sn_free(log);
        }
    }
    if (berr != CL_SUCCESS) {
        clReleaseProgram(pr);
        const char *log = g->build_log ? g->build_log : "";
        return sn_diag_set(diag, SN_EBUILD, 0, 0, "clBuildProgram failed: %s (%d)%s%s",
                           sn_gpu_cl_error_name(berr), (int)berr,
                           *log ? "; build log:\n" : " (no build log)", log);
    }
    *prog = pr;
    return SN_OK;
}

static size_t pow2_floor(size_t x)
{
    size_t p = 1;
    while (p * 2 <= x)
        p *= 2;
    return p;
}

sn_status sn_gpu_open(const char *spec, sn_gpu **out, sn_diag *diag)
{
    sn_gpu_tuning tune;
    sn_gpu_tuning_default(&tune);
    sn_status st = sn_gpu_tuning_from_env(&tune, diag);
    if (st != SN_OK)
        return st;
    pick_ctx c;
    memset(&c, 0, sizeof c);
    if (spec) {
        if (!sn_gpu_device_parse(spec, &c.p, &c.d))
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "'%s' is not a device: expected P:D, e.g. 0:0", spec);
        c.want_index = true;
    }
    char why[512];
    st = for_each_device(pick_cb, &c, why, sizeof why, diag);
    if (st != SN_OK)
        return st;
    if (!c.found) {
        if (spec)
            return sn_diag_set(diag, SN_EINVAL, 0, 0,
                               "no OpenCL device %s (`sortnet gpu list` shows the devices)%s%s",
                               spec, why[0] ? "; " : "", why);
        return sn_diag_set(diag, SN_ENODEVICE, 0, 0,
                           "OpenCL platforms exist but none has a usable device: %s", why);
    }
    sn_gpu *g = sn_calloc(1, sizeof *g);
    if (!g)
        return sn_diag_set(diag, SN_ENOMEM, 0, 0, "out of memory opening the device");
    g->info = c.info;
    g->tune = tune;
    g->platform = c.platform;
    g->device = c.device;
    snprintf(g->display, sizeof g->display, "%s (%s)", g->info.name, g->info.platform_name);

    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)g->platform, 0};
    g->ctx = clCreateContext(props, 1, &g->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        st = sn_gpu_cl_fail(diag, "clCreateContext", err);
        goto fail;
    }
    /* profiling on: sortnet gpu bench reads kernel times from events */
    g->queue = clCreateCommandQueue(g->ctx, g->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        st = sn_gpu_cl_fail(diag, "clCreateCommandQueue", err);
        goto fail;
    }
    const char *src = sn_kernel_source_find("sortnet");
    if (!src) {
        st = sn_diag_set(diag, SN_EDEVICE, 0, 0, "kernels/sortnet.cl was not embedded");
        goto fail;
    }
    st = sn_gpu_build_source(g, src, false, &g->program, diag);
    if (st != SN_OK)
        goto fail;
    size_t kwg = g->info.max_work_group;
    for (int k = 0; k < K_COUNT; k++) {
        g->k[k] = clCreateKernel(g->program, kernel_names[k], &err);
        if (err != CL_SUCCESS) {
            char call[80];
            snprintf(call, sizeof call, "clCreateKernel(%s)", kernel_names[k]);
            st = sn_gpu_cl_fail(diag, call, err);
            goto fail;
        }
        size_t w = 0;
        err = clGetKernelWorkGroupInfo(g->k[k], g->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof w, &w,
                                       NULL);
        if (err != CL_SUCCESS) {
            st = sn_gpu_cl_fail(diag, "clGetKernelWorkGroupInfo", err);
            goto fail;
        }
        if (w < kwg)
            kwg = w;
    }
    /* 256 suits both GPUs (whole warps) and pocl; never above what the
     * device and every kernel allow. */
    g->wg = pow2_floor(kwg < 256 ? (kwg ? kwg : 1) : 256);
    g->digest_wg = g->wg;
    if (g->digest_wg * sizeof(cl_ulong) > g->info.local_mem)
        g->digest_wg = pow2_floor((size_t)(g->info.local_mem / sizeof(cl_ulong)));
    if (g->digest_wg == 0)
        g->digest_wg = 1;
    *out = g;
    return SN_OK;
fail:
    sn_gpu_close(g);
    return st;
}

sn_status sn_gpu_host_alloc_status(sn_gpu *g, size_t bytes, void **out, sn_diag *diag)
{
    *out = NULL;
    size_t i = 0;
    while (i < SN_GPU_PINS && g->pins[i].m)
        i++;
    if (i == SN_GPU_PINS)
        return sn_diag_set(diag, SN_ELIMIT, 0, 0, "more than %d pinned host blocks", SN_GPU_PINS);
    cl_int err;
    cl_mem m = clCreateBuffer(g->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes ? bytes : 4,
                              NULL, &err);
    if (err != CL_SUCCESS)
        return sn_gpu_cl_fail(diag, "clCreateBuffer(pinned host memory)", err);
    void *p = clEnqueueMapBuffer(g->queue, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                 bytes ? bytes : 4, 0, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        clReleaseMemObject(m);
        return sn_gpu_cl_fail(diag, "clEnqueueMapBuffer(pinned host memory)", err);
    }
    g->pins[i].m = m;
    g->pins[i].p = p;
    *out = p;
    return SN_OK;
}

void *sn_gpu_host_alloc(sn_gpu *g, size_t bytes, sn_diag *diag)
{
    void *p;
    sn_gpu_host_alloc_status(g, bytes, &p, diag);
    return p;
}

void sn_gpu_host_free(sn_gpu *g, void *p)
{
    for (size_t i = 0; p && i < SN_GPU_PINS; i++) {
        if (g->pins[i].p != p)
            continue;
        cl_event ev = NULL;
        if (clEnqueueUnmapMemObject(g->queue, g->pins[i].m, p, 0, NULL, &ev) == CL_SUCCESS && ev) {
            clWaitForEvents(1, &ev);
            clReleaseEvent(ev);
        }
        clReleaseMemObject(g->pins[i].m);
        g->pins[i].m = NULL;
        g->pins[i].p = NULL;
        return;
    }
}

void sn_gpu_set_pinned(sn_gpu *g, bool on)
{
    g->pinned = on;
}

bool sn_gpu_pinned(const sn_gpu *g)
{
    return g->pinned;
}

void sn_gpu_close(sn_gpu *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < SN_GPU_PINS; i++)
        sn_gpu_host_free(g, g->pins[i].p);
    for (int k = 0; k < K_COUNT; k++)
        if (g->k[k])
            clReleaseKernel(g->k[k]);
    for (int h = 0; h < 2; h++)
        for (int t = 0; t < 3; t++) {
            if (g->kf_pass[h][t])
                clReleaseKernel(g->kf_pass[h][t]);
            if (g->kf_serial[h][t])
                clReleaseKernel(g->kf_serial[h][t]);
            if (g->kf_window[h][t])
                clReleaseKernel(g->kf_window[h][t]);
            if (g->fprog[h][t])
                clReleaseProgram(g->fprog[h][t]);
        }
    if (g->program)
        clReleaseProgram(g->program);
    if (g->queue)
        clReleaseCommandQueue(g->queue);
    if (g->ctx)
        clReleaseContext(g->ctx);
    sn_free(g->build_log);
    sn_free(g);
}

const sn_gpu_device_info *sn_gpu_info(const sn_gpu *g)
{
    return &g->info;
}

const char *sn_gpu_device_name(const sn_gpu *g)
{
    return g->display;
}

const char *sn_gpu_build_log(const sn_gpu *g)
{
    return g->build_log ? g->build_log : "";
}
