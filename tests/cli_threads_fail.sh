#!/usr/bin/env bash
# cli_threads_fail.sh - no thread can be started (SN_THREADS_FAIL=1, the
# thread seam's fault switch, core/parallel.h): every command still does
# all of its work in the threads it has (the caller at least) and prints
# what it prints with threads. The checker's verdicts and the GPU
# verifier's (its digests summed with sn_parallel_for) match a run with
# threads; the verifier's reference, which must not run in the caller
# before the device, runs after it; the window's live verdict is computed
# in the caller, and its race, which would search in the caller until
# stopped, is refused. The rows with the window or a device run only where
# those parts are built and usable.
. "$(dirname "$0")/lib.sh"

# same CODE ARGS...: sortnet ARGS exits CODE and prints the same stdout
# (times masked) with and without threads
same() {
    local code=$1
    shift
    expect "$code" "$S" "$@"
    sed -E 's/[0-9]+\.[0-9]+ s\b/T s/g; s/"seconds":[0-9.e+-]+/"seconds":T/' "$T/out" >"$T/with"
    expect "$code" env SN_THREADS_FAIL=1 "$S" "$@"
    sed -E 's/[0-9]+\.[0-9]+ s\b/T s/g; s/"seconds":[0-9.e+-]+/"seconds":T/' "$T/out" >"$T/without"
    cmp -s "$T/with" "$T/without" ||
        fail "'$*' without threads: $(diff "$T/with" "$T/without" | head -c 400)"
}

# the checker: a verdict; a counterexample, failing count and redundant
# comparators (bubble sort on 20 wires less its comparator (5,6))
same 0 check bitonic:20 --threads 4
same 0 check bubble:16 --threads 3 --json
expect 0 "$S" gen bubble:20
sed '0,/(5,6)/s/(5,6),\?//' "$T/out" >"$T/fails.txt"
same 1 check "$T/fails.txt" --threads 2
out_has "failing 0-1 inputs: "
same 1 check "$T/fails.txt" --threads 2 --json

# the GPU verifier: per-layer digests at 2^20 wires (summed on the
# threads that start), and a fused run's reference
if has_part OpenCL && has_gpu; then
    same 0 gpu verify bitonic:1048576 --random 1
    same 0 gpu verify bitonic:4096 --random 2 --variant fused --payload
    # the reference runs after the device, not during it (not under the
    # sanitizers: minutes there)
    if [ "${SN_SANITIZED:-0}" != 1 ]; then
        expect 0 env SN_THREADS_FAIL=1 "$S" gpu verify bitonic-pad:16777216 --random 1 --variant fused
        out_has "identical"
        err_has "gpu verify: reference executor: "
        grep -q "during the device run" "$T/err" && fail "the reference ran meanwhile without threads"
    fi
fi

# the window: the live verdict without its thread, and the race refused
if has_part "SDL2 window" && has_offscreen; then
    view() { SDL_VIDEODRIVER=offscreen "$S" view --size 640x400 --dump-state "$T/state" "$@"; }
    field() { sed -n "s/^$1: //p" "$T/state"; }
    view_nothreads() { SN_THREADS_FAIL=1 view "$@"; }
    expect 0 view_nothreads empty:4 --discard --script "add:0,1 add:2,3 add:0,2 add:1,3 add:1,2"
    [ "$(field verdict)" = sorts ] || fail "verdict without threads: $(cat "$T/state")"
    expect 0 view_nothreads empty:4 --discard --script "add:0,1 add:2,3 add:0,2 add:1,3"
    case "$(field verdict)" in
    "does NOT sort: counterexample 1010"*) ;;
    *) fail "failing verdict without threads: $(field verdict)" ;;
    esac
    expect 2 view_nothreads empty:5 --discard --script race
    err_has "race: no thread for the search"
    # with threads the same race runs (the switch, not the script, refused it)
    expect 0 view empty:5 --discard --script "race race:wait"
    [ "$(field race)" = done ] || fail "race with threads: $(field race)"
fi

finish cli_threads_fail
