#!/bin/bash
# cli_gpu_fail_paths.sh - the rest of the gpu commands' paths (issue 36)
# with each wrapped OpenCL call failing at its first use (SN_CL_FAIL, see
# tests/cli_gpu_fail.sh): every sort algorithm, the kernel variants of
# gpu verify, gpu bench, gpu batch with a fault and a student's kernel.
# Each run that meets the failure exits 5 (2 or 4 for a buffer the device
# cannot hold) with one message naming the call and the OpenCL error; with
# --kernel (a student's kernel) its build failure is exit 2 and a failure
# on the device its verdict, exit 1, the report naming the call. A run
# that does not make the call gives the verdict it gives without the
# injection; SN_CL_FAIL=CALL,log=FILE tells the two apart: the process
# that made the failing call writes its name there, so a run that met its
# failure and still gave the usual verdict swallowed the error (unless it
# is one of the two failures gpu bench survives by design, each checked for
# its sign, see tolerated), and one that failed without meeting it failed
# for another reason. Skips (77) only without OpenCL: not built, or no
# platform at all.
. "$(dirname "$0")/lib.sh"

require_gpu

# a student's layer kernel (docs/student-kernel.md), run in a process of its own
cp "$(dirname "$0")/student_layer.cl" "$T/good.cl"

calls="clBuildProgram clCreateBuffer clEnqueueNDRangeKernel clEnqueueReadBuffer
clEnqueueWriteBuffer clEnqueueCopyBuffer clEnqueueFillBuffer"
# tolerated CMD CALL: CMD survives CALL failing by design, and its output
# shows it
tolerated() {
    case "$1|$2" in
    "gpu bench "*"|clCreateBuffer")
        # a size the device cannot hold is skipped with a note (gpu bench
        # --help, --sizes): every row of the one size is that note
        grep -qE "^bitonic +256 (naive|closed|fused) +skipped: the device cannot hold a buffer .*clCreateBuffer failed: CL_MEM_OBJECT_ALLOCATION_FAILURE \(-4\)" "$T/out" &&
            ! grep -qE "^bitonic +256 [a-z]+ +[0-9]" "$T/out"
        ;;
    "gpu bench "*"|clEnqueueCopyBuffer")
        # the device's own copy time is only a yardstick for the fused row
        # (cmd_gpu_bench.c): the rows are timed, the yardstick left out
        [ "$(grep -cE "^bitonic +256 (naive|closed|fused) +[0-9]+ " "$T/out")" = 3 ] &&
            ! grep -q "copies of" "$T/out"
        ;;
    *) return 1 ;;
    esac
}

met=0 never=0 survived=0
while read -r cmd; do
    [ -n "$cmd" ] || continue
    # shellcheck disable=SC2086
    "$S" $cmd >"$T/out" 2>"$T/err"
    base=$? # 1 for the commands with a fault (--inject-fault), else 0
    [ $base -le 1 ] || { fail "'$cmd' without a failure: exit $base: $(head -c 300 "$T/err")"; continue; }
    for call in $calls; do
        rm -f "$T/fired"
        # shellcheck disable=SC2086
        SN_CL_FAIL="$call,log=$T/fired" "$S" $cmd >"$T/out" 2>"$T/err"
        rc=$?
        if [ ! -s "$T/fired" ]; then # the call was never made
            [ $rc = "$base" ] ||
                fail "'$cmd' with $call failing exited $rc, not $base, without making the call: $(head -c 300 "$T/err")"
            never=$((never + 1))
            continue
        fi
        grep -qvx "$call" "$T/fired" && fail "'$cmd': the log names another call: $(cat "$T/fired")"
        case $rc in
        "$base")
            if tolerated "$cmd" "$call"; then
                survived=$((survived + 1))
            else
                fail "'$cmd' with $call failing: the call failed, yet exit $base as without the failure (the error was swallowed): $(head -c 300 "$T/out")"
            fi
            continue
            ;;
        5) ;;
        2 | 4) [ "$call" = clCreateBuffer ] || [[ $cmd == *--kernel* ]] ||
            fail "'$cmd' with $call failing exited $rc" ;;
        1) # a student's kernel (--kernel) that fails on the device is its verdict
            [[ $cmd == *--kernel* ]] || fail "'$cmd' with $call failing exited 1" ;;
        *) fail "'$cmd' with $call failing exited $rc: $(head -c 300 "$T/err")" ;;
        esac
        met=$((met + 1))
        grep -qE "$call(\([^)]*\))? failed: CL_[A-Z_]+ \(-[0-9]+\)" "$T/err" "$T/out" ||
            fail "'$cmd' with $call failing: no call and error: $(head -c 300 "$T/err")"
    done
done <<EOF2
gpu sort transposition:200
gpu sort transposition-local:200 --payload
gpu sort rank:200
gpu sort rank-global:200 --type f32
gpu sort merge:300 --payload
gpu sort radix:300 --digit-bits 8
gpu sort hybrid:300
gpu verify bitonic:64 --variant fused
gpu verify oddeven-merge:32 --variant fused-serial --payload
gpu verify bitonic:16 --variant pairs --per-layer
gpu verify bitonic:16 --variant xor --type u32
gpu verify transposition:12 --variant div
gpu verify bitonic:16 --inject-fault 2:3 --json
gpu batch bitonic:8 --arrays 32 --layout columns --payload
gpu batch best:6 --arrays 8 --inject-fault 1:2
gpu bench bitonic --sizes 2^8 --reps 1 --cpu-max 1
gpu verify bitonic:16 --kernel $T/good.cl
gpu verify pairwise:12 --kernel $T/good.cl --payload --timeout 0
EOF2
[ $met -ge 50 ] || fail "only $met runs met their failure"
[ $survived = 2 ] || fail "$survived runs survived their failure by design, not gpu bench's 2"
echo "$met runs met their failing call, $survived survived it by design, $never made no such call"

finish cli_gpu_fail_paths
