#!/bin/bash
# cli_gpu_fail.sh - OpenCL calls that fail (issue 36), injected in the
# wrapper of src/gpu (SN_CL_FAIL=CALL[@N][=CL_NAME]: the Nth call of CALL
# and every later one fail without reaching the driver): a build failure,
# an allocation the device refuses, an enqueue, read or write that fails.
# Each gpu command ends with a message that names the call and the OpenCL
# error, exit 5 (2 for the allocation the device cannot hold, as a size past
# the device's limits; check says undecided, 4), and no output file touched. Under the sanitizer
# stage the same runs prove that no error path leaks. Skips (77) only when
# sortnet has no OpenCL (not built) or there is no OpenCL platform at all.
. "$(dirname "$0")/lib.sh"

require_gpu

# fails CALL N CMD...: CMD with the Nth call of CALL failing; 0 when CMD
# made fewer calls (it then succeeded), else 1 after checking the failure
fails() {
    local call=$1 nth=$2
    shift 2
    SN_CL_FAIL="$call@$nth" "$@" >"$T/out" 2>"$T/err"
    local rc=$?
    if [ $rc = 0 ]; then
        [ "$nth" -gt 1 ] || fail "'$*' with $call failing from the first call exited 0"
        return 0
    fi
    case $rc in
    5) ;;
    2 | 4) # a buffer the device cannot hold: a limit (check: undecided)
        [ "$call" = clCreateBuffer ] || fail "'$*' with $call@$nth failing exited $rc" ;;
    *) fail "'$*' with $call@$nth failing exited $rc: $(head -c 300 "$T/err")" ;;
    esac
    grep -qE "$call(\([^)]*\))? failed: CL_[A-Z_]+ \(-[0-9]+\)" "$T/err" ||
        fail "'$*' with $call@$nth failing: no call and error: $(head -c 300 "$T/err")"
    [ "$(grep -c '^sortnet: ' "$T/err")" = 1 ] || fail "'$*' $call@$nth: not one message: $(cat "$T/err")"
    return 1
}

calls="clBuildProgram clCreateBuffer clEnqueueNDRangeKernel clEnqueueReadBuffer clEnqueueWriteBuffer"
# each command with each call failing at its first, second and third use
# (a later call fails after earlier buffers, kernels and events exist:
# what they hold is released on the error path)
for cmd in "gpu verify bitonic:8" "gpu sort radix:300" "gpu batch bitonic:8 --arrays 16" \
    "check oddeven:8 --device opencl"; do
    for call in $calls; do
        for nth in 1 2 3; do
            # shellcheck disable=SC2086
            fails "$call" "$nth" "$S" $cmd || continue
            break
        done
    done
done

# the build failure: the call, the error's name and code
SN_CL_FAIL=clBuildProgram "$S" gpu verify bitonic:8 >"$T/out" 2>"$T/err"
[ $? = 5 ] || fail "gpu verify with clBuildProgram failing: exit $?"
err_has "clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE (-11)"
# another error by name; the device out of memory for a buffer is exit 2
SN_CL_FAIL=clEnqueueReadBuffer=CL_OUT_OF_HOST_MEMORY "$S" gpu verify bitonic:8 >"$T/out" 2>"$T/err"
[ $? = 5 ] || fail "gpu verify with clEnqueueReadBuffer out of host memory: exit $?"
err_has "CL_OUT_OF_HOST_MEMORY (-6)"
SN_CL_FAIL=clCreateBuffer "$S" gpu verify bitonic:8 >"$T/out" 2>"$T/err"
[ $? = 2 ] || fail "gpu verify with clCreateBuffer failing: exit $?"
err_has "clCreateBuffer failed: CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)"

# an output file: an enqueue that fails leaves the old file whole, a new
# one is not created
printf 'old contents\n' >"$T/keep.txt"
for call in clEnqueueNDRangeKernel clEnqueueReadBuffer; do
    SN_CL_FAIL=$call "$S" gpu sort radix:100 --output "$T/keep.txt" >"$T/out" 2>"$T/err"
    [ $? = 5 ] || fail "gpu sort --output with $call failing: exit $?"
    [ "$(cat "$T/keep.txt")" = "old contents" ] || fail "gpu sort --output with $call failing changed the file"
    SN_CL_FAIL=$call "$S" gpu sort radix:100 --output "$T/new.txt" >"$T/out" 2>"$T/err"
    [ ! -e "$T/new.txt" ] || fail "gpu sort --output with $call failing left a file"
done
[ -z "$(find "$T" -name '*.tmp*')" ] || fail "a temporary file was left: $(ls "$T")"
# and without the injection the same command writes it
expect 0 "$S" gpu sort radix:100 --output "$T/new.txt"
[ -s "$T/new.txt" ] || fail "gpu sort --output wrote nothing"

finish cli_gpu_fail
