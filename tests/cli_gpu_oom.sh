#!/bin/bash
# cli_gpu_oom.sh - `gpu batch` and `gpu bench` with a GPU sort, with the
# library's Nth allocation failing (SN_ALLOC_FAIL=N, see tests/cli_oom.sh),
# for N = 1, 2, ... until five runs in a row succeed (a
# few allocations are optional, e.g. a build log: their failure is no
# error). Every run that fails says "out of memory" and exits 5, as `gpu
# sort` does: never exit 2 (bad usage) or 3 (no device), the causes it
# once gave, and names the network once (it said "bitonic:8: bitonic:8:"). Skips (77) only without OpenCL: not built, or no platform at all.
. "$(dirname "$0")/lib.sh"

require_gpu

# loop NAME CMD...: CMD with allocation N failing, N = 1, 2, ...
loop() {
    local name=$1
    shift
    local n=1 ok=0 failed=0 rc
    while [ $ok -lt 5 ]; do
        SN_ALLOC_FAIL=$n "$@" >"$T/out" 2>"$T/err"
        rc=$?
        if [ $rc = 0 ]; then
            ok=$((ok + 1))
        else
            ok=0
            failed=$((failed + 1))
            [ $rc = 5 ] || fail "$name, allocation $n failing: exit $rc: $(head -c 300 "$T/err")"
            grep -q "^sortnet: .*out of memory" "$T/err" ||
                fail "$name, allocation $n failing: no out-of-memory message: $(head -c 300 "$T/err")"
            [ "$(grep -c '^sortnet: ' "$T/err")" = 1 ] ||
                fail "$name, allocation $n failing: not one message: $(cat "$T/err")"
            ! grep -qE "^sortnet: ([^ ]+): \1: " "$T/err" ||
                fail "$name, allocation $n failing: the name said twice: $(cat "$T/err")"
        fi
        n=$((n + 1))
        [ $n -le 400 ] || { fail "$name: still failing after 400 allocations"; return; }
    done
    [ $failed -gt 0 ] || fail "$name: no allocation to fail"
    echo "$name: $failed of $((n - 6)) allocations failed the run"
}

loop "gpu batch" "$S" gpu batch bitonic:8 --arrays 16
loop "gpu bench radix" "$S" gpu bench --variants radix --sizes 2^8 --reps 1 --cpu-max 1
# gpu sort's own arrays (it said exit 2, bad usage, for them), and --nearly-sorted's
loop "gpu sort" "$S" gpu sort radix:100
loop "gpu sort --nearly" "$S" gpu sort radix:100 --nearly-sorted 5

# the arrays of gpu batch: the cause, in the one message, exit 5 (out of
# memory is the machine failing: cli_status_exit's SN_ENOMEM)
found=0
for n in $(seq 1 60); do
    SN_ALLOC_FAIL=$n "$S" gpu batch bitonic:8 --arrays 16 >"$T/out" 2>"$T/err"
    rc=$?
    grep -q "out of memory for 128 keys" "$T/err" || continue
    found=1
    [ $rc = 5 ] || fail "gpu batch out of memory for its arrays (allocation $n): exit $rc, not 5"
    [ "$(cat "$T/err")" = "sortnet: gpu batch: out of memory for 128 keys" ] ||
        fail "gpu batch out of memory for its arrays (allocation $n): $(cat "$T/err")"
    [ ! -s "$T/out" ] || fail "gpu batch out of memory for its arrays printed a result: $(cat "$T/out")"
    break
done
[ $found = 1 ] || fail "gpu batch: no run ran out of memory for its arrays"
# pinned host memory that the device cannot map: the call and its error
SN_CL_FAIL=clEnqueueMapBuffer "$S" gpu bench --variants radix --sizes 2^8 --reps 1 --cpu-max 1 \
    --pinned >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 5 ] || fail "gpu bench --pinned with clEnqueueMapBuffer failing: exit $rc, not 5"
err_has "sortnet: gpu bench: radix: clEnqueueMapBuffer(pinned host memory) failed: CL_OUT_OF_RESOURCES (-5)"

finish cli_gpu_oom
