#!/bin/bash
# cli_gpu_env.sh - `gpu verify` and `gpu list` under a memory limit that
# keeps pocl from starting (issue 36): the message names what the platform
# answered (the call, its error name and code), never a bare "none has a
# device". Skips (77) without OpenCL built or any OpenCL platform, or in a
# sanitizer build (ASan's shadow memory cannot fit under the limit).
#
# How pocl fails depends on the limit, and the limit at which it fails
# moves with the machine (its cores, its free memory, pocl's cache): the
# ICD loader cannot load it (no platform), its device cannot allocate
# (clGetDeviceIDs: CL_OUT_OF_HOST_MEMORY), or its worker threads cannot
# start, which pocl answers with abort() (sortnet's guard turns that into
# one line and exit 5). So the test tries a range of limits and holds each
# run to one of the outcomes the design gives, exit code and message
# together (a crash is none of them, but for the one known gap of the
# guard, see guard_missed); where both commands meet the case it is about,
# they must give the same answer of the platform (a note where no limit
# gives it).
. "$(dirname "$0")/lib.sh"

require_gpu
if ! (ulimit -v 300000 && exec "$S" --version) >/dev/null 2>"$T/err"; then
    if ldd "$S" 2>/dev/null | grep -q libasan || nm "$S" 2>/dev/null | grep -q __asan_init; then
        echo "SKIP: a sanitizer build cannot start under ulimit -v 300000" >&2
        exit 77
    fi
    broken "sortnet --version cannot start under ulimit -v 300000: $(head -c 400 "$T/err")"
fi

# a driver that aborts while it starts (pocl under a memory limit, about one
# run in four on a busy machine: "PTHREAD ERROR in pthread_scheduler_init"):
# sortnet's one line with the cause and exit 5, not a bare abort; forced
# here with the test hook SN_CL_FAIL=CALL=abort, in both listing calls
for call in clGetPlatformIDs clGetDeviceIDs; do
    for cmd in "gpu verify bitonic:8" "gpu list"; do
        SN_CL_FAIL=$call=abort "$S" $cmd >"$T/out" 2>"$T/err"
        rc=$?
        [ $rc = 5 ] || fail "$cmd with $call aborting: exit $rc, expected 5: $(head -c 300 "$T/err")"
        grep -q "^sortnet: the OpenCL driver aborted while starting its devices" "$T/err" ||
            fail "$cmd with $call aborting: no cause named: $(head -c 300 "$T/err")"
    done
done
(ulimit -v 300000 && SN_CL_FAIL=clGetDeviceIDs=abort exec "$S" gpu list) >"$T/out" 2>"$T/err"
grep -q "aborted while starting its devices (.*limited to 292 MiB (ulimit -v))" "$T/err" ||
    fail "a driver's abort under ulimit -v does not name the limit: $(head -c 300 "$T/err")"

code='CL_[A-Z_]+ \(-[0-9]+\)'
nodev='OpenCL platforms exist but none has a usable device: '
answer="platform [0-9]+ \(.*\): clGetDeviceIDs (failed: |returned )$code"
noplat="no OpenCL platform found: clGetPlatformIDs: $code"

# one line on stderr: sortnet's one message
one_msg() { [ "$(wc -l <"$T/err")" = 1 ]; }
# driver_aborted KB: the driver aborted while it started (pocl's threads)
# and sortnet's guard said so in its one line, the limit in MiB named;
# besides it only pocl's own line of why
driver_aborted() {
    [ "$(grep -v "^PTHREAD ERROR in pthread_scheduler_init" "$T/err")" = "sortnet: the OpenCL driver aborted while starting its devices (it could not start its threads or get memory; the address space is limited to $(($1 / 1024)) MiB (ulimit -v))" ]
}
# guard_missed RC: KNOWN GAP, the one crash let through, each time said
# (a note) and counted: pocl aborted (its line and nothing else, SIGABRT)
# after LLVM, which pocl loads in the same call, had put its own crash
# handler over the guard's. LLVM's handler puts the guard's back but
# returns, and abort() then dies by the default action, so the guard never
# runs (strace: LLVM's rt_sigaction calls from pocl's clGetDeviceIDs, then
# "PTHREAD ERROR", tgkill, SIG_DFL, tgkill). Seen here at 270000 and 280000
# KiB every time. When the guard handles it, drop this.
missed=0
guard_missed() {
    [ "$1" = 134 ] && [ "$(cat "$T/err")" = "$(grep "^PTHREAD ERROR in pthread_scheduler_init()" "$T/err")" ] &&
        [ -s "$T/err" ] || return 1
    missed=$((missed + 1))
    echo "note: KNOWN GAP: under $kb KiB pocl aborted past sortnet's guard (LLVM's signal handler): $(cat "$T/err")" >&2
}

# under_limit KB CMD: run `sortnet gpu CMD` under `ulimit -v KB`; stdout in
# $T/out, stderr in $T/err, the exit code in rc
under_limit() {
    local kb=$1
    shift
    (ulimit -v "$kb" && exec "$S" gpu "$@") >"$T/out" 2>"$T/err"
    rc=$?
}

# Each command's outcome at each limit, as the design gives it (gpu list
# first; gpu verify only where gpu list did not start the driver):
#   works:   exit 0 and its usual output
#   answer:  the platform is there, its device is not: verify exits 3 (no
#            device) naming the platform's answer; list exits 0 (no device
#            is not an error) and prints the same answer, stderr empty
#   none:    the loader found no platform: exit 3, "no OpenCL platform found"
#   listing: clGetPlatformIDs itself failed: exit 5 naming it
#   aborted: the driver aborted as it started: exit 5, the guard's line
# Anything else (another exit code, a crash, a message without the call
# and its code) fails.
answered=0
for kb in 250000 260000 270000 280000 290000 300000 310000 320000 340000 370000 400000; do
    # sortnet itself must start (the limit is for pocl)
    (ulimit -v $kb && "$S" --version) >/dev/null 2>&1 || continue
    under_limit $kb list
    lrc=$rc lwhy=
    if [ $rc = 5 ] && driver_aborted $kb; then
        :
    elif guard_missed $rc; then
        :
    elif [ $rc = 0 ] && grep -qE '^\* device [0-9]+:[0-9]+: ' "$T/out"; then
        [ ! -s "$T/err" ] || fail "gpu list under $kb KiB listed a device and wrote to stderr: $(cat "$T/err")"
        # the driver starts under this limit: gpu verify would go on to
        # build kernels under it, which is not this test's subject (and
        # where pocl's compiler may abort on its own)
        echo "under $kb KiB: gpu list exit 0, a device listed"
        continue
    elif [ $rc = 0 ] && grep -qxE "no OpenCL devices \(the platforms report none: $answer\)" "$T/out"; then
        [ ! -s "$T/err" ] || fail "gpu list under $kb KiB wrote to stderr: $(cat "$T/err")"
        [ "$(wc -l <"$T/out")" = 1 ] || fail "gpu list under $kb KiB: more than the answer: $(cat "$T/out")"
        lwhy=$(sed -n 's/^no OpenCL devices (the platforms report none: \(.*\))$/\1/p' "$T/out")
    elif [ $rc = 3 ] && one_msg && grep -qE "^sortnet: gpu list: $noplat" "$T/err"; then
        :
    elif [ $rc = 5 ] && one_msg && grep -qxE "sortnet: gpu list: clGetPlatformIDs failed: $code" "$T/err"; then
        :
    else
        fail "gpu list under $kb KiB exited $rc: $(cat "$T/out" "$T/err")"
    fi

    under_limit $kb verify bitonic:8
    if [ $rc = 5 ] && driver_aborted $kb; then
        :
    elif guard_missed $rc; then
        :
    elif [ $rc = 0 ]; then
        grep -qx identical "$T/out" || fail "gpu verify under $kb KiB: exit 0 without 'identical': $(cat "$T/out")"
    elif [ $rc = 3 ] && one_msg && grep -qxE "sortnet: gpu verify: $nodev$answer" "$T/err"; then
        vwhy=$(sed -n "s/^sortnet: gpu verify: $nodev//p" "$T/err")
        # where list met the same failure, the same answer in both
        [ -z "$lwhy" ] || [ "$lwhy" = "$vwhy" ] ||
            fail "under $kb KiB gpu list says '$lwhy', gpu verify '$vwhy'"
        [ -n "$lwhy" ] && answered=$((answered + 1))
    elif [ $rc = 3 ] && one_msg && grep -qE "^sortnet: gpu verify: $noplat" "$T/err"; then
        :
    elif [ $rc = 5 ] && one_msg && grep -qxE "sortnet: gpu verify: clGetPlatformIDs failed: $code" "$T/err"; then
        :
    else
        fail "gpu verify under $kb KiB exited $rc: $(cat "$T/err")"
    fi
    echo "under $kb KiB: gpu list exit $lrc, gpu verify exit $rc"
done
[ $answered -gt 0 ] ||
    echo "note: at no limit did both commands meet the platform's failing answer here" >&2
[ $missed = 0 ] || echo "note: KNOWN GAP: $missed run(s) aborted past the guard" >&2

finish cli_gpu_env
