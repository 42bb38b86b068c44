#!/bin/bash
# cli_gpu_fail_calls.sh - the OpenCL calls that set a device up, query it
# and wait on it, failing through SN_CL_FAIL=CALL[@N][=CL_NAME] (see
# tests/cli_gpu_fail.sh for the enqueues and buffers; tests/test_gpu_calls.c
# fails every use of every call): each row's command exits with its code
# and one message that names the call and the OpenCL error, and an output
# file (gpu sort --output, gpu bench --csv) is neither created nor
# changed. Skips (77) only without OpenCL: not built, or no platform at all.
. "$(dirname "$0")/lib.sh"

require_gpu
cp "$(dirname "$0")/student_layer.cl" "$T/good.cl"
printf '__kernel void sn_layer(__global uint *keys) { keys[0] = 1 }\n' >"$T/broken.cl"

# row FAIL CODE MESSAGE CMD...: SN_CL_FAIL=FAIL; CMD exits CODE with one
# "sortnet: " line on stderr holding MESSAGE
row() {
    local inj=$1 code=$2 msg=$3
    shift 3
    SN_CL_FAIL=$inj "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    [ $rc = "$code" ] || { fail "SN_CL_FAIL=$inj '$*' exited $rc, expected $code: $(head -c 300 "$T/err")"; return; }
    grep -qF -- "$msg" "$T/err" || fail "SN_CL_FAIL=$inj '$*': stderr lacks '$msg': $(head -c 300 "$T/err")"
    [ "$(grep -c '^sortnet: ' "$T/err")" = 1 ] || fail "SN_CL_FAIL=$inj '$*': not one message: $(cat "$T/err")"
}

R=CL_OUT_OF_RESOURCES
# opening the device: the listing, the context, the queue, sortnet's kernels
row clGetPlatformInfo 5 "gpu list: clGetPlatformInfo(CL_PLATFORM_NAME) failed: $R (-5)" "$S" gpu list
row clGetDeviceInfo 5 "gpu list: clGetDeviceInfo(CL_DEVICE_TYPE) failed: $R (-5)" "$S" gpu list
row clGetDeviceInfo@8 5 "clGetDeviceInfo(CL_DEVICE_VENDOR) failed: $R (-5)" "$S" gpu verify bitonic:8
row clCreateContext 5 "gpu verify: clCreateContext failed: $R (-5)" "$S" gpu verify bitonic:8
row clCreateContext=CL_OUT_OF_HOST_MEMORY 5 "clCreateContext failed: CL_OUT_OF_HOST_MEMORY (-6)" \
    "$S" gpu sort radix:100
# the platform out of host memory for its devices: memory that ran out,
# exit 5 (it said "none has a usable device", exit 3, and gpu list exit 0)
M="clGetDeviceIDs failed: CL_OUT_OF_HOST_MEMORY (-6)"
row clGetDeviceIDs=CL_OUT_OF_HOST_MEMORY 5 "gpu verify: platform 0 (" "$S" gpu verify bitonic:8
err_has "$M"
row clGetDeviceIDs=CL_OUT_OF_HOST_MEMORY 5 "check: " "$S" check oddeven:8 --device opencl
err_has "$M"
row clGetDeviceIDs=CL_OUT_OF_HOST_MEMORY 5 "gpu list: platform 0 (" "$S" gpu list
err_has "$M"
row clGetPlatformIDs=CL_OUT_OF_HOST_MEMORY 5 "gpu verify: clGetPlatformIDs failed: CL_OUT_OF_HOST_MEMORY (-6)" \
    "$S" gpu verify bitonic:8
row clCreateCommandQueue 5 "gpu batch: clCreateCommandQueue failed: $R (-5)" "$S" gpu batch bitonic:8 --arrays 4
row clCreateProgramWithSource 5 "clCreateProgramWithSource failed: $R (-5)" "$S" check oddeven:8 --device opencl
row clCreateKernel 5 "gpu verify: clCreateKernel(sn_pairs) failed: $R (-5)" "$S" gpu verify bitonic:8
row clCreateKernel@14 5 "gpu sort: clCreateKernel(sort_to_ordered) failed: $R (-5)" "$S" gpu sort radix:100
row clCreateKernel@14 5 "gpu batch: clCreateKernel(sn_batch) failed: $R (-5)" "$S" gpu batch bitonic:8 --arrays 4
row clCreateKernel@14 5 "check: oddeven:8: clCreateKernel(sn_check01) failed: $R (-5)" \
    "$S" check oddeven:8 --device opencl
row clCreateKernel@14 5 "clCreateKernel(sn_fused_*) failed: $R (-5)" "$S" gpu verify bitonic:64 --variant fused
row clGetKernelWorkGroupInfo 5 "gpu verify: clGetKernelWorkGroupInfo failed: $R (-5)" "$S" gpu verify bitonic:8
row clGetKernelWorkGroupInfo@14 5 "clGetKernelWorkGroupInfo(sort_to_ordered) failed: $R (-5)" \
    "$S" gpu sort merge:100
# running: the arguments, the waits, the profiling queries, migration
row clSetKernelArg 5 "gpu verify: clSetKernelArg(layer, 0) failed: $R (-5)" "$S" gpu verify bitonic:8
row clSetKernelArg 5 "gpu batch: clSetKernelArg(sn_batch) failed: $R (-5)" "$S" gpu batch bitonic:8 --arrays 4
row clSetKernelArg 5 "check: oddeven:8: clSetKernelArg(sn_check01) failed: $R (-5)" \
    "$S" check oddeven:8 --device opencl
row clFinish 5 "gpu verify: clFinish failed: $R (-5)" "$S" gpu verify bitonic:8
row clFinish 5 "gpu batch: clFinish failed: $R (-5)" "$S" gpu batch bitonic:8 --arrays 4
row clEnqueueMigrateMemObjects 5 "gpu sort: clEnqueueMigrateMemObjects failed: $R (-5)" "$S" gpu sort radix:100
row clGetEventProfilingInfo 5 "gpu batch: clGetEventProfilingInfo(sn_batch) failed: $R (-5)" \
    "$S" gpu batch bitonic:8 --arrays 4
row clWaitForEvents 5 "gpu batch: clWaitForEvents(sn_batch) failed: $R (-5)" "$S" gpu batch bitonic:8 --arrays 4
# a student's kernel: sortnet's own device calls fail as errors (exit 5) in
# the device process; the argument count comes from clGetKernelInfo
row clGetKernelInfo 5 "gpu verify: clGetKernelInfo(CL_KERNEL_NUM_ARGS) failed: $R (-5)" \
    "$S" gpu verify bitonic:16 --kernel "$T/good.cl"
row clCreateContext 5 "gpu verify: clCreateContext failed: $R (-5)" "$S" gpu verify bitonic:16 --kernel "$T/good.cl"
# a build log that cannot be read: the build failure says so
row clGetProgramBuildInfo 2 "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11) (no build log)" \
    "$S" gpu verify bitonic:8 --kernel "$T/broken.cl"
# a failed argument of the student's kernel: its verdict (exit 1) names it
SN_CL_FAIL=clSetKernelArg "$S" gpu verify bitonic:16 --kernel "$T/good.cl" >"$T/out" 2>"$T/err"
[ $? = 1 ] || fail "gpu verify --kernel with clSetKernelArg failing: exit $?"
grep -qF "clSetKernelArg(sn_layer, 0) failed: $R (-5)" "$T/out" ||
    fail "gpu verify --kernel with clSetKernelArg failing: $(cat "$T/out" "$T/err")"

# output files: kept whole when the device fails, not created when new
printf 'old contents\n' >"$T/keep.txt"
cp "$T/keep.txt" "$T/keep.csv"
for inj in clCreateContext clSetKernelArg clEnqueueMigrateMemObjects; do
    row $inj 5 "$inj" "$S" gpu sort radix:100 --output "$T/keep.txt"
    [ "$(cat "$T/keep.txt")" = "old contents" ] || fail "gpu sort --output, $inj failing: the file changed"
    row $inj 5 "$inj" "$S" gpu sort radix:100 --output "$T/new.txt"
    [ ! -e "$T/new.txt" ] || fail "gpu sort --output, $inj failing: a file was created"
done
for inj in clCreateCommandQueue clGetEventProfilingInfo; do
    row $inj 5 "$inj" "$S" gpu bench bitonic --sizes 2^6 --reps 1 --cpu-max 1 --csv "$T/keep.csv"
    [ "$(cat "$T/keep.csv")" = "old contents" ] || fail "gpu bench --csv, $inj failing: the file changed"
    row $inj 5 "$inj" "$S" gpu bench bitonic --sizes 2^6 --reps 1 --cpu-max 1 --csv "$T/new.csv"
    [ ! -e "$T/new.csv" ] || fail "gpu bench --csv, $inj failing: a file was created"
done
[ -z "$(find "$T" -name '*.tmp*')" ] || fail "a temporary file was left: $(ls "$T")"

finish cli_gpu_fail_calls
